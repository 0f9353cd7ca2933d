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
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from persian_rummy import GameState
from tests import bruteforce_load
from tests.processes import PROC, children
from tests.test_bruteforce import summary_line

ROOT = Path(__file__).resolve().parents[1]

#: The sessions that a plain ``nox`` runs, as the README's Development section describes them.
#: The seconds a test waits for the load to start at most: far more than it takes on a loaded machine.
DEADLINE = 300.0
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


def load_children() -> list[int]:
    """
    The processes of this one running the noxfile's load (the brute force of random games), by their ids.
    """
    module = load_noxfile().LOAD_MODULE.encode()
    found = []
    for pid in children(os.getpid()):
        try:
            arguments = (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:  # a process that has ended since
            continue
        if module in arguments:
            found.append(pid)
    return sorted(found)


class Session:
    """
    What a nox session is to the noxfile's functions: its Python and arguments, and the installs and
    commands asked of it, kept in order (with the processes of the busy loop running at each command).
    """

    def __init__(self, python: str, posargs: list[str]) -> None:
        self.python = python
        self.posargs = posargs
        self.bin = str(Path(sys.executable).parent)
        self.installed: list[tuple[str, ...]] = []
        self.ran: list[tuple[tuple[str, ...], dict[str, str] | None]] = []
        self.busy: list[list[int]] = []
        self.logged: list[str] = []

    def install(self, *args: str) -> None:
        self.installed.append(args)

    def run(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.ran.append((args, env))
        self.busy.append(load_children() if sys.platform == "linux" else [])

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
        monkeypatch.delenv("PERSIAN_RUMMY_LOAD", raising=False)  # .ci/run sets it
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
        loaded = first and ci == "true"  # one run measures coverage and shows no test depends on speed
        assert loaded == noxfile.runs_loaded(first=first)
        if sys.platform == "linux":
            assert [2 if loaded else 0] == [len(busy) for busy in session.busy]
        assert (2 if loaded else 0) == len(session.logged)

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
        monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
        plain, loaded = Session("3.11", ["-k", "turn"]), Session("3.11", ["-k", "turn"])
        noxfile.tests(plain)
        noxfile.tests_loaded(loaded)
        ((command, env),) = plain.ran
        quick = {**(env or {}), "HYPOTHESIS_PROFILE": "quick"}
        assert (plain.installed, [(command, quick)]) == (loaded.installed, loaded.ran)
        assert 2 == len(loaded.logged)

    def test_another_profile_when_asked(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("HYPOTHESIS_PROFILE", "thorough")
        loaded = Session("3.11", [])
        load_noxfile().tests_loaded(loaded)
        ((_, env),) = loaded.ran
        assert "thorough" == (env or {})["HYPOTHESIS_PROFILE"]

    def test_without_the_coverage_that_ci_measures_in_the_plain_run(self, monkeypatch: pytest.MonkeyPatch) -> None:
        noxfile = load_noxfile()
        monkeypatch.setenv("CI", "true")
        monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
        plain, loaded = Session("3.11", []), Session("3.11", [])
        noxfile.tests(plain)
        noxfile.tests_loaded(loaded)
        (command, env), *_ = plain.ran
        without = [argument for argument in command if not argument.startswith("--cov")]
        quick = {**(env or {}), "HYPOTHESIS_PROFILE": "quick"}
        assert (plain.installed, [(tuple(without), quick)]) == (loaded.installed, loaded.ran)
        assert ("--cov", "--cov-branch", "--cov-report=term-missing:skip-covered") == command[5:8]

    @pytest.mark.skipif(sys.platform != "linux", reason="the processes are found in Linux's /proc")
    @pytest.mark.parametrize(("load", "count"), [(None, 2), ("1", 1)])
    def test_the_processes_beside_the_tests_and_none_after(
        self, load: str | None, count: int, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        if load is None:
            monkeypatch.delenv("PERSIAN_RUMMY_LOAD", raising=False)  # .ci/run sets it
        else:
            monkeypatch.setenv("PERSIAN_RUMMY_LOAD", load)
        noxfile = load_noxfile()
        session = Session("3.11", [])
        noxfile.tests_loaded(session)
        assert (1, count) == (len(session.busy), len(session.busy[0]))
        checking = {1: "1 process checking", 2: "2 processes checking"}[count]
        assert session.logged[0].startswith(f"{checking} games by brute force beside the tests, from seed ")
        assert [] == load_children()
        assert "brute force beside the tests: " in session.logged[-1]

    def test_the_processes_check_games_until_stopped(self, tmp_path: Path) -> None:
        noxfile = load_noxfile()
        # One process: the first, under the switches drawn at random (the second's wild jokers take longer).
        with noxfile.load_processes(sys.executable, 1, 7, tmp_path) as processes:
            counted(tmp_path, processes)
        assert [0] == [process.returncode for process in processes]
        line, agreed = noxfile.load_verdict(processes, [False], tmp_path)
        assert agreed
        counts = json.loads((tmp_path / "0.json").read_text(encoding="utf-8"))
        assert counts["games"] >= bruteforce_load.BATCH
        assert counts["states"] > counts["games"]
        assert line == f"{counts['games']:,} games, {counts['states']:,} states, {counts['candidates']:,} actions tried"

    def test_the_processes_are_stopped_when_the_tests_fail(self, tmp_path: Path) -> None:
        noxfile = load_noxfile()
        with (
            pytest.raises(RuntimeError, match=r"^the tests failed$"),
            noxfile.load_processes(sys.executable, 2, 7, tmp_path) as processes,
        ):
            raise RuntimeError("the tests failed")
        assert all(process.returncode in {0, -signal.SIGTERM} for process in processes)

    @pytest.mark.parametrize(
        ("ended", "returncode", "agreed"),
        [
            (False, 0, True),
            (False, -signal.SIGTERM, True),  # stopped before its handler was set: it checked nothing
            (True, 1, False),  # a disagreement ended it before the tests did
            (True, 0, False),
            (False, 1, False),
            (False, -signal.SIGKILL, False),
        ],
    )
    def test_the_verdict(self, ended: bool, returncode: int, agreed: bool, tmp_path: Path) -> None:
        class Ended:
            def __init__(self, code: int) -> None:
                self.returncode = code

        (tmp_path / "0.json").write_text('{"games": 3, "states": 40, "candidates": 900}', encoding="utf-8")
        (tmp_path / "1.json").write_text('{"games": 2, "states": 30, "candidates": 1100}', encoding="utf-8")
        processes = [Ended(0), Ended(returncode)]
        line, verdict = load_noxfile().load_verdict(processes, [False, ended], tmp_path)
        assert ("5 games, 70 states, 2,000 actions tried", agreed) == (line, verdict)

    def test_a_disagreement_stops_the_check(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def wrong(_state: object, _counts: object) -> None:
            raise AssertionError("legal_actions lists an action that apply refuses")

        monkeypatch.setattr(bruteforce_load, "check_state", wrong)
        counts: Counter[str] = Counter()
        with pytest.raises(AssertionError, match="apply refuses"):
            bruteforce_load.check_games(7, counts)
        assert 2 == counts["games"]  # the first game, and Hypothesis' replay of it for its report

    @pytest.mark.parametrize(("value", "count"), [(None, 2), ("", 2), ("1", 1), ("3", 3)])
    def test_the_number_of_processes(self, value: str | None, count: int, monkeypatch: pytest.MonkeyPatch) -> None:
        if value is None:
            monkeypatch.delenv("PERSIAN_RUMMY_LOAD", raising=False)
        else:
            monkeypatch.setenv("PERSIAN_RUMMY_LOAD", value)
        assert count == load_noxfile().load_count()

    @pytest.mark.parametrize("value", ["0", "-1", "two", "1.5"])
    def test_a_number_of_processes_that_is_none(self, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("PERSIAN_RUMMY_LOAD", value)
        message = f"^PERSIAN_RUMMY_LOAD must be a number of processes, 1 or more, got {value!r}$"
        with pytest.raises(ValueError, match=message):
            load_noxfile().load_count()

    def test_the_switches_are_dealt_round_the_processes(self) -> None:
        noxfile = load_noxfile()
        assert ["-;jokers_wild=true"] == [noxfile._load_rules(i, 1) for i in range(1)]
        assert ["-", "jokers_wild=true"] == [noxfile._load_rules(i, 2) for i in range(2)]
        assert ["-", "jokers_wild=true", "-"] == [noxfile._load_rules(i, 3) for i in range(3)]

    def test_a_batch_keeps_the_switches_it_is_given(self, monkeypatch: pytest.MonkeyPatch) -> None:
        seen: set[tuple[bool, bool]] = set()

        def record(state: GameState, _counts: object) -> None:
            seen.add((state.rules.jokers_wild, state.rules.rummy_calls))

        monkeypatch.setattr(bruteforce_load, "check_state", record)
        bruteforce_load.check_games(7, Counter(), "jokers_wild=true,rummy_calls=true")
        assert {(True, True)} == seen
        seen.clear()
        bruteforce_load.check_games(7, Counter(), "-")
        assert {False} == {wild for wild, _ in seen}

    def test_one_process_says_it_took_both_kinds_in_turn(self) -> None:
        counts = Counter({"games": 4, "states": 50})
        lines = [summary_line(counts, texts) for texts in (("-", "jokers_wild=true"), ("rummy_calls=true",), ("-",))]
        assert [line.partition(":")[0] for line in lines] == [
            "brute force under switches at random and jokers_wild=true in turn",
            "brute force under rummy_calls=true",
            "brute force",
        ]
        assert all(line.partition(": ")[2].startswith("4 games, 50 states (") for line in lines)


def counted(folder: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    """
    Wait until each of *processes* (of `load_processes`, counting into *folder*) has written its first
    count: then each is in its loop, with its handler of SIGTERM set.  Fails if one ends first.
    """
    give_up = time.monotonic() + DEADLINE
    while not all((folder / f"{index}.json").exists() for index in range(len(processes))):
        assert [None] * len(processes) == [process.poll() for process in processes]
        if time.monotonic() > give_up:
            pytest.fail(f"no count from the load within {DEADLINE:g} s")
        time.sleep(0.1)


class TestMissingPythons:
    """
    A Python that is not installed is skipped with one line, and neither nox nor uv tries to download it.
    """

    def test_never_downloaded(self) -> None:
        assert "never" == load_noxfile().nox.options.download_python

    def test_a_missing_python_is_skipped_with_one_line(self, tmp_path: Path) -> None:
        done = run_nox("-s", "tests", "--force-python", "3.99", "--no-error-on-missing-interpreters", cwd=tmp_path)
        lines = done.stderr.splitlines()
        # nox adds how long the session took when it took a second or more, as it may on a busy machine.
        last = re.sub(r" \(took [^()]*\)\.$", ".", lines[-1])
        assert (0, "nox > Session tests-3.99 skipped: Python interpreter 3.99 not found.") == (done.returncode, last)
        assert [] == [line for line in lines if "download" in line.lower()]
        assert [] == [path.name for path in tmp_path.iterdir() if path.is_dir()]  # no environment made
