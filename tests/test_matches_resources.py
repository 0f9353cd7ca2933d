"""
Bounded resources (issue 20): ``--jobs`` at most the CPUs available, the games and the seed within
their documented limits, and workers that never outlive the match (persian_rummy.matches._pool,
docs/matches.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import persian_rummy
from persian_rummy import InvalidTypeError, InvalidValueError
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.cli import main
from persian_rummy.matches import MAX_GAMES, available_cpus, play_match, process_pool
from tests.processes import alive, children

SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]


class TestJobs:
    """
    Issue 20: "--jobs at most the CPUs available (more is refused with the reason)"; ``--jobs 100000``
    started thousands of processes.
    """

    def test_the_cpus_available_are_those_of_the_affinity_mask(self) -> None:
        expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        if hasattr(os, "process_cpu_count"):
            expected = os.process_cpu_count()
        assert expected == available_cpus()

    def test_more_jobs_than_cpus_are_refused_with_the_reason(self, capsys: pytest.CaptureFixture[str]) -> None:
        cpus = available_cpus()
        with pytest.raises(SystemExit) as raised:
            main(["match", "random", "random", "--games", "2", "--jobs", "100000"])
        assert 2 == raised.value.code
        plural = "s" if cpus > 1 else ""
        assert (
            f"persian-rummy match: error: argument --jobs: --jobs must be from 1 to the {cpus} CPU{plural} this"
            " process may use, got 100000: more processes than CPUs only share them"
        ) == capsys.readouterr().err.splitlines()[-1]

    @pytest.mark.parametrize(
        ("jobs", "error", "message"),
        [
            (0, InvalidValueError, "jobs must be from 1 to the"),
            (10**6, InvalidValueError, "got 1000000: more processes than CPUs only share them"),
            (2.0, InvalidTypeError, "jobs must be an int, got 2.0"),
        ],
    )
    def test_a_pool_is_refused_beyond_the_cpus(self, jobs: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error) as raised:
            process_pool(jobs)  # type: ignore[arg-type]
        assert message in str(raised.value)

    def test_a_pool_plays_as_the_serial_match(self) -> None:
        serial = play_match(RandomPlayer(), RandomPlayer(), 4, seed=3)
        with process_pool(1) as pool:
            assert serial == play_match(RandomPlayer(), RandomPlayer(), 4, seed=3, executor=pool)


class TestLimits:
    """
    Issue 20: "games and seeds checked against documented limits with library errors"; ``--games 10**30``
    allocated until memory ran out and ``seed=10**5000`` raised a bare ValueError.
    """

    @pytest.mark.parametrize(
        ("arguments", "message"),
        [
            (
                {"games": 10**30},
                "games must be an even number from 2 to 10,000,000, two for each duplicate deal, got " + "1" + "0" * 30,
            ),
            (
                {"games": MAX_GAMES + 2},
                "games must be an even number from 2 to 10,000,000, two for each duplicate deal, got 10000002",
            ),
            ({"seed": 10**5000}, "seed must be from 0 to 2**64 - 1, got an int of 16,610 bits"),
            ({"seed": -1}, "seed must be from 0 to 2**64 - 1, got -1"),
            ({"seed": 2**64}, "seed must be from 0 to 2**64 - 1, got 18446744073709551616"),
        ],
    )
    def test_refused(self, arguments: dict[str, Any], message: str) -> None:
        given: dict[str, Any] = {"games": 2, **arguments}
        with pytest.raises(InvalidValueError) as raised:
            play_match(RandomPlayer(), RandomPlayer(), **given)
        assert message == str(raised.value)

    def test_the_largest_seed_plays(self) -> None:
        assert 2**64 - 1 == play_match(RandomPlayer(), RandomPlayer(), 2, seed=2**64 - 1).seed

    def test_too_many_games_on_the_command_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            main(["match", "random", "random", "--games", "1" + "0" * 30])
        assert (
            "persian-rummy match: error: argument --games: too many games: '1000000000000000000000000000000'"
            " (at most 10,000,000)"
        ) == capsys.readouterr().err.splitlines()[-1]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
@pytest.mark.skipif(available_cpus() < 2, reason="--jobs 2 needs two CPUs")
class TestWorkersDieWithTheMatch:
    """
    Issue 20: "workers never outlive the match (they exit when the parent dies: test with kill -9 of
    the parent)"; with ``--jobs 2``, ``kill -9`` of the parent left both workers running.
    """

    def test_kill_9_of_the_parent_leaves_no_worker(self) -> None:
        environment = os.environ | {"PYTHONPATH": str(SRC)}
        command = [sys.executable, "-m", "persian_rummy", "match", "pimc:50", "greedy", "--games", "400", "--jobs", "2"]
        parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)  # noqa: S603
        try:
            deadline = time.monotonic() + 30
            workers: set[int] = set()
            while len(workers) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
                workers = children(parent.pid)
            assert 2 == len(workers)
            time.sleep(0.3)  # the workers are playing
        finally:
            parent.send_signal(signal.SIGKILL)
            parent.wait()
        deadline = time.monotonic() + 60  # a generous bound on the event waited for, not a measure
        while time.monotonic() < deadline and any(alive(worker) for worker in workers):
            time.sleep(0.05)
        assert set() == {worker for worker in workers if alive(worker)}
