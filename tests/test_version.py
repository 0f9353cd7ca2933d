"""
The version of the package: ``persian_rummy.__version__`` and ``persian-rummy --version`` report
the version of the installed distribution, from its metadata.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import persian_rummy
from persian_rummy.cli import main

#: Imports the package as if it were not installed: the metadata lookup finds no distribution.
NOT_INSTALLED = """
import importlib.metadata

def version(name):
    raise importlib.metadata.PackageNotFoundError(name)

importlib.metadata.version = version
import persian_rummy
print(persian_rummy.__version__)
"""


class TestVersion:
    """
    ``persian_rummy.__version__`` is the version of the installed distribution, as its metadata gives
    it, and ``0+unknown`` when the package is imported without being installed.
    """

    def test_version_is_the_installed_metadata(self) -> None:
        assert version("persian-rummy") == persian_rummy.__version__

    def test_version_without_metadata(self) -> None:
        package_root = str(Path(persian_rummy.__file__).resolve().parents[1])
        path = os.pathsep.join([package_root, *sys.path[1:]])
        completed = subprocess.run(  # noqa: S603 - this Python, a fixed script
            [sys.executable, "-c", NOT_INSTALLED],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": path},
        )
        assert "0+unknown\n" == completed.stdout


class TestVersionOption:
    """
    ``persian-rummy --version`` prints the command's name and the package's version, and exits with status 0.
    """

    def test_version_option(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_info:
            main(["--version"])
        assert 0 == exit_info.value.code
        assert f"persian-rummy {persian_rummy.__version__}\n" == capsys.readouterr().out

    def test_the_installed_command_prints_the_version(self) -> None:
        command = Path(sys.executable).with_name("persian-rummy")
        if not command.exists():
            pytest.skip("the persian-rummy command is installed with the package")
        completed = subprocess.run([command, "--version"], capture_output=True, text=True, check=True)  # noqa: S603
        assert f"persian-rummy {version('persian-rummy')}\n" == completed.stdout
