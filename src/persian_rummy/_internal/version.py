"""
The version of the package: the one its installed metadata gives.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

#: The name under which the package is distributed (``pip install persian-rummy``).
DISTRIBUTION = "persian-rummy"

#: The version reported when the package is imported without being installed, as from a copy of
#: ``src/`` on the path: a local version that sorts below every release.
UNKNOWN = "0+unknown"


def _installed_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return UNKNOWN


#: The version of the installed distribution, such as ``0.1.0``, or `UNKNOWN`.
VERSION = _installed_version()
