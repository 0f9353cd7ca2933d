"""
Pytest configuration shared by the tests, the doctests of the package and the Markdown docs.

The tests run against this checkout's sources, ``src/`` (pytest's ``pythonpath``), unless
``PERSIAN_RUMMY_TEST_BUILD=installed`` is set: then they run against the package installed in
site-packages, as ``nox -s build`` does with the wheel it built (it also empties ``pythonpath`` and
collects the doctests of the installed modules with ``--pyargs persian_rummy``).  Either way the run
stops at once if the package it imports comes from elsewhere, and its header says where that is.
"""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import persian_rummy

collect_ignore = ["src/persian_rummy/__main__.py", "docs/conf.py"]
collect_ignore_glob = ["docs/_build/*"]

#: The modules and pages that need an optional dependency, by the modules they import: without
#: them their doctests are not collected (their test files skip themselves).
NEEDS = {
    "src/persian_rummy/tensors.py": ("numpy",),
    "src/persian_rummy/_rlenv.py": ("numpy", "gymnasium"),
    "src/persian_rummy/gymnasium.py": ("numpy", "gymnasium"),
    "src/persian_rummy/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/persian_rummy/openspiel.py": ("numpy", "pyspiel"),
    "docs/tensors.md": ("numpy",),
    "docs/reinforcement-learning.md": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
}
collect_ignore += [
    path for path, modules in NEEDS.items() if any(importlib.util.find_spec(name) is None for name in modules)
]

settings.register_profile("dev", max_examples=60, deadline=None)
# On CI no example database: every run starts afresh, so results never depend on earlier runs.
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: What the tests run against: "source" (src/ of this checkout, the default) or "installed" (site-packages).
BUILD = os.environ.get("PERSIAN_RUMMY_TEST_BUILD", "source")
#: Where the package under test was imported from.
IMPORTED = Path(persian_rummy.__file__).resolve().parent


def _check_build() -> None:
    """
    Stop the run unless the package was imported from where `BUILD` says: this checkout's src/,
    or the site-packages of the running interpreter.
    """
    sources = Path(__file__).resolve().parent / "src"
    site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
    if BUILD == "source":
        wrong = IMPORTED.parent != sources
    elif BUILD == "installed":
        wrong = IMPORTED.parent != site_packages
    else:
        msg = f"PERSIAN_RUMMY_TEST_BUILD is 'source' or 'installed', not {BUILD!r}"
        raise pytest.UsageError(msg)
    if wrong:
        expected = sources if BUILD == "source" else site_packages
        msg = f"PERSIAN_RUMMY_TEST_BUILD={BUILD}: the package should come from {expected}, not {IMPORTED}"
        raise pytest.UsageError(msg)


_check_build()
if BUILD == "installed":
    # The installed modules' doctests are collected through --pyargs: the same exceptions as in src/.
    collect_ignore.append(str(IMPORTED / "__main__.py"))
    collect_ignore += [
        str(IMPORTED / Path(path).name)
        for path, modules in NEEDS.items()
        if path.startswith("src/") and any(importlib.util.find_spec(name) is None for name in modules)
    ]


def pytest_report_header() -> str:
    return f"persian-rummy {persian_rummy.__version__} ({BUILD}) from {IMPORTED}"
