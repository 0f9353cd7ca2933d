"""
A Dask match under fire (issue 20, acceptance 4): the workers of a ``LocalCluster`` are killed every 0.5 s
for 30 rounds while a match is played on it, with a timeout; the match must finish with the result of the
serial run, or raise the package's error (`MatchTimeoutError` at its timeout) instead of hanging.

Slow (half a minute a run): run by ``nox -s dask`` only, which sets ``PERSIAN_RUMMY_DASK_FAULTS`` to the
number of runs (3 there; ``PERSIAN_RUMMY_DASK_FAULTS=10`` for the ten runs of the acceptance).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from persian_rummy import MatchError
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.matches import MatchResult, play_match

RUNS = int(os.environ.get("PERSIAN_RUMMY_DASK_FAULTS", "0"))
pytestmark = pytest.mark.skipif(RUNS == 0, reason="slow: nox -s dask-faults sets PERSIAN_RUMMY_DASK_FAULTS")
distributed = pytest.importorskip("distributed")

#: Rounds of kills, and seconds between two.
ROUNDS, EVERY = 30, 0.5
#: The match's timeout on the cluster; a match that has neither finished nor raised four times
#: as long after it started is taken to hang (a generous bound, not a measure: the library's
#: timeout is what raises).
TIMEOUT, HANGS = 90.0, 360.0
GAMES, SEED, CHUNK = 3000, 20, 30


def _workers(cluster: Any) -> list[int]:
    """
    The worker processes of the local cluster, as its nannies (in this process) know them now.
    """
    pids = []
    for nanny in list(cluster.workers.values()):
        process = getattr(nanny, "process", None)
        pid = getattr(getattr(process, "process", None), "pid", None)
        if pid is not None:
            pids.append(pid)
    return pids


class _Killer(threading.Thread):
    """
    Kills one worker process of the cluster (SIGKILL) every `EVERY` seconds for `ROUNDS` rounds.
    """

    def __init__(self, cluster: Any, seed: int) -> None:
        super().__init__(daemon=True)
        self.cluster = cluster
        self.random = random.Random(seed)  # noqa: S311 (a test, not a secret)
        self.killed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        for _ in range(ROUNDS):
            if self.stop.wait(EVERY):
                return
            workers = _workers(self.cluster)
            if workers:
                try:
                    os.kill(self.random.choice(workers), signal.SIGKILL)
                    self.killed += 1
                except ProcessLookupError:
                    pass


@pytest.fixture(scope="module")
def serial() -> MatchResult:
    return play_match(GreedyPlayer(), RandomPlayer(), GAMES, seed=SEED)


@pytest.fixture
def cluster() -> Iterator[tuple[Any, Any]]:
    """
    A local cluster of two worker processes, each watched by a nanny that starts it again when it dies,
    and a client of it.
    """
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local,
        distributed.Client(local) as client,
    ):
        yield local, client


class TestWorkersKilled:
    """
    Issue 20: "a Dask match has a timeout and either finishes with results equal to the serial run or
    raises a library error within it — test it by killing workers repeatedly on a LocalCluster"; a match
    hung after its workers were killed every 0.4 s for 30 rounds.
    """

    @pytest.mark.parametrize("run", range(RUNS))
    def test_the_serial_result_or_an_error_in_time(
        self, cluster: tuple[Any, Any], serial: MatchResult, run: int
    ) -> None:
        local, client = cluster
        killer = _Killer(local, run)
        start = time.monotonic()
        killer.start()
        executor = client.get_executor()
        waiting = ThreadPoolExecutor(1)  # not waited for if the match hangs
        match = waiting.submit(
            lambda: play_match(
                GreedyPlayer(), RandomPlayer(), GAMES, seed=SEED, executor=executor, chunk_size=CHUNK, timeout=TIMEOUT
            )
        )
        try:
            result = match.result(timeout=HANGS)
        except MatchError as error:
            outcome = f"raised {type(error).__name__}: {error}"
        except TimeoutError:
            pytest.fail(f"the match neither finished nor raised within {HANGS:g} s: it hangs")
        else:
            assert serial == result
            outcome = "finished equal to the serial run"
        finally:
            killer.stop.set()
            killer.join()
            waiting.shutdown(wait=False)
        print(f"run {run + 1}: {outcome}, {killer.killed} workers killed, {time.monotonic() - start:.1f} s")  # noqa: T201
