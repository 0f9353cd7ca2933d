"""
The noxfile's own parts: the sessions a plain ``nox`` runs, the ``tests`` session's command, the loaded run
of ``nox -s tests-loaded`` beside its CPU-bound processes, and Pythons that are missing skipped, not
downloaded.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The sessions that a plain ``nox`` runs, as the README's Development section describes them.
DEFAULT_SESSIONS = ["tests-3.11", "tests-3.12", "tests-3.13", "lint", "typecheck", "docs", "fuzz", "dask"]


@functools.cache
def load_noxfile() -> ModuleType:
    """
    The noxfile, imported once (nox warns when its sessions are declared twice); skipped where the tests run
    without it (a wheel's tests in cibuildwheel) or without nox.
    """
    if not (ROOT / "noxfile.py").exists():
        pytest.skip("the noxfile is not beside the tests")
    pytest.importorskip("nox")
    spec = importlib.util.spec_from_file_location("noxfile", ROOT / "noxfile.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_nox(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """
    ``python -m nox`` on the noxfile with *args*, its environments in *cwd*, as on a machine that is not CI.
    """
    env = {name: value for name, value in os.environ.items() if name != "CI"}
    command = [sys.executable, "-m", "nox", "-f", str(ROOT / "noxfile.py"), "--envdir", str(cwd), *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=False, timeout=300)  # noqa: S603


def busy_children() -> list[int]:
    """
    The processes of this one running the noxfile's busy loop, by their ids (Linux's ``/proc``).
    """
    loop = load_noxfile().BUSY_LOOP.encode()
    found = []
    for folder in Path("/proc").iterdir():
        if not folder.name.isdigit():
            continue
        try:
            status = (folder / "stat").read_text()
            arguments = (folder / "cmdline").read_bytes().split(b"\0")
        except OSError:  # a process that has ended since
            continue
        # The parent's id is the second field after the command's name, which ends at the last ")".
        if int(status.rpartition(")")[2].split()[1]) == os.getpid() and loop in arguments:
            found.append(int(folder.name))
    return sorted(found)


class Session:
    """
    What a nox session is to the noxfile's functions: its Python and arguments, and the installs and
    commands asked of it, kept in order (with the processes of the busy loop running at each command).
    """

    def __init__(self, python: str, posargs: list[str]) -> None:
        self.python = python
        self.posargs = posargs
        self.installed: list[tuple[str, ...]] = []
        self.ran: list[tuple[tuple[str, ...], dict[str, str] | None]] = []
        self.busy: list[list[int]] = []
        self.logged: list[str] = []

    def install(self, *args: str) -> None:
        self.installed.append(args)

    def run(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.ran.append((args, env))
        self.busy.append(busy_children() if sys.platform == "linux" else [])

    def log(self, message: str) -> None:
        self.logged.append(message)


class TestSessions:
    """
    The sessions a plain ``nox`` runs, and the pytest command of ``tests`` on each Python.
    """

    def test_the_default_sessions(self, tmp_path: Path) -> None:
        listed = run_nox("--list", "--json", cwd=tmp_path)
        assert (0, DEFAULT_SESSIONS) == (listed.returncode, [row["session"] for row in json.loads(listed.stdout)])

    @pytest.mark.parametrize(("python", "ci"), [("3.11", ""), ("3.11", "true"), ("3.12", ""), ("3.12", "true")])
    def test_the_tests_session(self, python: str, ci: str, monkeypatch: pytest.MonkeyPatch) -> None:
        noxfile = load_noxfile()
        monkeypatch.setenv("CI", ci)
        monkeypatch.delenv("PERSIAN_RUMMY_COVERAGE", raising=False)
        session = Session(python, ["-x"])
        noxfile.tests(session)
        first = python == "3.11"
        extras = ".[rl,server]" if first else ".[server]"
        assert ("-e", extras) == session.installed[-1]
        quick = {} if first or "HYPOTHESIS_PROFILE" in os.environ else {"HYPOTHESIS_PROFILE": "quick"}
        env = {"COVERAGE_FILE": f".coverage.{python}", **quick}
        coverage = first and ci == "true"
        arguments = noxfile.tests_arguments(first=first, posargs=["-x"], coverage=coverage)
        assert [(("pytest", *arguments), env)] == session.ran
        assert coverage == ("--cov" in arguments)

    @pytest.mark.parametrize(
        ("ci", "asked", "first", "measured"),
        [
            (None, None, True, False),
            ("true", None, True, True),
            ("", None, True, False),
            (None, "1", True, True),
            (None, "0", True, False),
            ("true", "1", False, False),
        ],
    )
    def test_coverage_on_ci_or_when_asked_on_the_first_python(
        self, ci: str | None, asked: str | None, first: bool, measured: bool, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        for name, value in (("CI", ci), ("PERSIAN_RUMMY_COVERAGE", asked)):
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        assert measured == load_noxfile().measures_coverage(first=first)


class TestLoaded:
    """
    ``nox -s tests-loaded``: the first Python's ``tests`` session, the same installs and pytest command (but
    for the coverage measured on CI), with two processes of a busy loop running beside it and stopped after.
    """

    def test_the_command_of_the_first_pythons_tests(self, monkeypatch: pytest.MonkeyPatch) -> None:
        noxfile = load_noxfile()
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("PERSIAN_RUMMY_COVERAGE", raising=False)
        plain, loaded = Session("3.11", ["-k", "turn"]), Session("3.11", ["-k", "turn"])
        noxfile.tests(plain)
        noxfile.tests_loaded(loaded)
        assert (plain.installed, plain.ran) == (loaded.installed, loaded.ran)
        assert 1 == len(loaded.logged)

    def test_without_the_coverage_that_ci_measures_in_the_plain_run(self, monkeypatch: pytest.MonkeyPatch) -> None:
        noxfile = load_noxfile()
        monkeypatch.setenv("CI", "true")
        plain, loaded = Session("3.11", []), Session("3.11", [])
        noxfile.tests(plain)
        noxfile.tests_loaded(loaded)
        (command, env), *_ = plain.ran
        without = [argument for argument in command if not argument.startswith("--cov")]
        assert (plain.installed, [(tuple(without), env)]) == (loaded.installed, loaded.ran)
        assert ("--cov", "--cov-branch", "--cov-report=term-missing:skip-covered") == command[5:8]

    @pytest.mark.skipif(sys.platform != "linux", reason="the processes are found in Linux's /proc")
    def test_two_busy_processes_beside_the_tests_and_none_after(self) -> None:
        noxfile = load_noxfile()
        session = Session("3.11", [])
        noxfile.tests_loaded(session)
        assert (1, 2) == (len(session.busy), len(session.busy[0]))
        assert [] == busy_children()

    def test_the_processes_run_until_the_end(self) -> None:
        noxfile = load_noxfile()
        with noxfile.busy_processes(2) as processes:
            assert [None, None] == [process.poll() for process in processes]
        assert [-9, -9] == [process.returncode for process in processes]

    def test_the_processes_are_stopped_when_the_tests_fail(self) -> None:
        noxfile = load_noxfile()
        with pytest.raises(RuntimeError, match=r"^the tests failed$"), noxfile.busy_processes(2) as processes:
            raise RuntimeError("the tests failed")
        assert [-9, -9] == [process.returncode for process in processes]


class TestMissingPythons:
    """
    A Python that is not installed is skipped with one line, and neither nox nor uv tries to download it.
    """

    def test_never_downloaded(self) -> None:
        assert "never" == load_noxfile().nox.options.download_python

    def test_a_missing_python_is_skipped_with_one_line(self, tmp_path: Path) -> None:
        done = run_nox("-s", "tests", "--force-python", "3.99", "--no-error-on-missing-interpreters", cwd=tmp_path)
        lines = done.stderr.splitlines()
        assert (0, "nox > Session tests-3.99 skipped: Python interpreter 3.99 not found.") == (
            done.returncode,
            lines[-1],
        )
        assert [] == [line for line in lines if "download" in line.lower()]
        assert [] == [path.name for path in tmp_path.iterdir() if path.is_dir()]  # no environment made
