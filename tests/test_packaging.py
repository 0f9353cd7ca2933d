"""
The packaging agrees with itself: the Pythons the project says it supports are those it tests on and
builds compiled wheels for, the compiled build's modules exist, and the release publishes every wheel.
"""

from __future__ import annotations

import os
import re
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import persian_rummy

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
NOXFILE = ROOT / "noxfile.py"


def supported() -> list[str]:
    """
    The Python versions of the classifiers, such as "3.11".
    """
    prefix = "Programming Language :: Python :: "
    classifiers: list[str] = PYPROJECT["project"]["classifiers"]
    return [c.removeprefix(prefix) for c in classifiers if re.fullmatch(re.escape(prefix) + r"3\.\d+", c)]


class TestPythons:
    def test_the_classifiers_start_at_requires_python(self) -> None:
        assert ">=3.11" == PYPROJECT["project"]["requires-python"]
        assert ["3.11", "3.12", "3.13"] == supported()

    def test_compiled_wheels_for_every_supported_python(self) -> None:
        builds = PYPROJECT["tool"]["cibuildwheel"]["build"]
        assert [f"cp{v.replace('.', '')}-*" for v in supported()] == builds

    @pytest.mark.skipif(not NOXFILE.exists(), reason="the noxfile is not beside the tests")
    def test_the_tests_run_on_every_supported_python(self) -> None:
        assert f"PYTHONS = {supported()!r}".replace("'", '"') in NOXFILE.read_text(encoding="utf-8")


class TestCompiledBuild:
    HOOK = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]

    def test_the_hook_is_off_unless_asked_for(self) -> None:
        assert self.HOOK["enable-by-default"] is False

    def test_the_compiled_modules_exist(self) -> None:
        modules = [Path(path).relative_to("src").with_suffix("").as_posix() for path in self.HOOK["include"]]
        expected = [
            "_internal/phase",
            "_internal/tables",
            "_internal/cardlogic",
            "_internal/transitions",
            "_internal/enumeration",
            "engine",
        ]
        assert [f"persian_rummy/{module}" for module in expected] == modules
        assert all((ROOT / path).is_file() for path in self.HOOK["include"])

    def test_the_wheels_are_built_compiled_and_tested_as_such(self) -> None:
        options = PYPROJECT["tool"]["cibuildwheel"]
        assert {"HATCH_BUILD_HOOKS_ENABLE": "1"} == options["environment"]
        assert "compiled" == options["test-environment"]["PERSIAN_RUMMY_TEST_BUILD"]
        commands = [options["test-command"]] + [o["test-command"] for o in options["overrides"]]
        assert all(command.startswith("pytest -o pythonpath= ") for command in commands)


def package_files(folder: Path) -> set[str]:
    """
    The files of the package in *folder*, by their paths inside it, without Python's caches.
    """
    return {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.mark.skipif(
    os.environ.get("PERSIAN_RUMMY_TEST_BUILD", "source") == "source",
    reason="the tests run on the checkout's sources (nox -s build and nox -s compiled install the wheels)",
)
class TestInstalledBuild:
    """
    The wheel under test, installed: every file of src/persian_rummy, modules and data alike (the
    browser client, the JSON schema, the learned player's weights, the terminal game's styles, py.typed),
    and nothing else but the compiled build's extension modules.
    """

    INSTALLED = Path(persian_rummy.__file__ or "").resolve().parent
    SOURCES = ROOT / "src" / "persian_rummy"

    def test_every_file_of_the_package_is_installed(self) -> None:
        installed = package_files(self.INSTALLED)
        compiled = {name for name in installed if name.endswith(tuple(EXTENSION_SUFFIXES))}
        assert package_files(self.SOURCES) == installed - compiled

    def test_only_the_compiled_build_has_extension_modules(self) -> None:
        compiled = {name for name in package_files(self.INSTALLED) if name.endswith(tuple(EXTENSION_SUFFIXES))}
        if os.environ["PERSIAN_RUMMY_TEST_BUILD"] == "installed":
            assert set() == compiled
        else:
            stems = {
                Path(path).relative_to("src/persian_rummy").with_suffix("").as_posix()
                for path in TestCompiledBuild.HOOK["include"]
            }
            # mypyc names each module's extension after it; its shared runtime lives outside the package.
            assert stems <= {name.split(".", 1)[0] for name in compiled}


@pytest.mark.skipif(not RELEASE.exists(), reason="the workflows are not beside the tests")
class TestRelease:
    TEXT = RELEASE.read_text(encoding="utf-8") if RELEASE.exists() else ""

    def test_publish_waits_for_the_sdist_the_pure_wheel_and_the_compiled_wheels(self) -> None:
        assert "needs: [dist, wheels]" in self.TEXT

    def test_every_artifact_uploaded_is_published(self) -> None:
        names = re.findall(r"^\s+name: (dist-.*)$", self.TEXT, flags=re.MULTILINE)
        assert ["dist-sdist-and-wheel", "dist-wheels-${{ matrix.os }}"] == names
        assert len(names) == self.TEXT.count("uses: actions/upload-artifact@")
        assert "pattern: dist-*" in self.TEXT

    def test_the_wheels_cover_linux_macos_and_windows(self) -> None:
        assert "os: [ubuntu-latest, ubuntu-24.04-arm, macos-latest, windows-latest]" in self.TEXT


class TestPeers:
    def test_the_other_engines_are_pinned(self) -> None:
        peers: list[str] = PYPROJECT["dependency-groups"]["peers"]
        pinned = dict(p.split("==") for p in peers if "==" in p)
        assert {"open-spiel": "2.0.2", "rlcard": "1.2.0", "pokerkit": "0.7.7", "chess": "1.11.2"} == pinned

    @pytest.mark.skipif(not (ROOT / "docs").is_dir(), reason="the docs are not beside the tests")
    def test_the_performance_page_names_the_versions_measured(self) -> None:
        page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
        assert "open-spiel 2.0.2, rlcard 1.2.0, pokerkit 0.7.7, chess 1.11.2" in page
