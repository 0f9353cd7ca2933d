"""
Stopping a match (issue 31): workers that die with their parent whatever the path, SIGINT and
SIGTERM that keep every duplicate pair finished and say how to resume, and an ignored SIGINT that
stays ignored (persian_rummy.matches._signals, docs/matches.md).

The commands are run in processes of their own and waited for by events (a line in the
checkpoint, a worker that appears or ends), each within a generous deadline: no elapsed time is
asserted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import persian_rummy
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.matches import MatchResult, available_cpus, play_match, process_pool
from tests.processes import alive, children

SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
#: The seconds a test waits for an event at most: far more than it takes on a loaded machine.
DEADLINE = 120.0

posix = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="signals and /proc of Linux")
two_cpus = pytest.mark.skipif(available_cpus() < 2, reason="--jobs 2 needs two CPUs")


def _until(event: Callable[[], bool], what: str, deadline: float = DEADLINE) -> None:
    give_up = time.monotonic() + deadline
    while not event():
        if time.monotonic() > give_up:
            pytest.fail(f"{what} did not happen within {deadline:g} s")
        time.sleep(0.05)


def _pairs(checkpoint: Path) -> int:
    """
    The duplicate pairs the checkpoint holds: its lines but the first (its head).
    """
    return max(0, checkpoint.read_bytes().count(b"\n") - 1) if checkpoint.exists() else 0


@contextmanager
def _started(arguments: list[str], *, ignore_sigint: bool = False) -> Iterator[subprocess.Popen[str]]:
    """
    ``persian-rummy ARGUMENTS`` started with SIGINT taken as Python takes it (or ignored, as a
    shell's ``&`` leaves it), killed if the test leaves it running.
    """
    handler = signal.SIG_IGN if ignore_sigint else signal.SIG_DFL
    process = subprocess.Popen(  # noqa: S603 (this interpreter, fixed arguments)
        [sys.executable, "-m", "persian_rummy", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(SRC)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, handler),  # noqa: PLW1509 (no threads are started before)
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


# -- workers die with their parent -------------------------------------------------------------------------------

#: A match on a pool made through the API, whose player holds the interpreter in C code for hours
#: (a watching thread cannot run): the workers write their pid as the player starts.
HOGGING = textwrap.dedent(
    """
    import os, sys
    from persian_rummy import legal_actions
    from persian_rummy.matches import play_match, process_pool

    class Hog:
        def choose(self, view, rng):
            open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
            sum(range(10**13))
            return legal_actions(view)[0]

    if __name__ == "__main__":
        limits = {} if sys.argv[2] == "pool" else {"decision_limit": 3600.0}
        pool = process_pool(2) if sys.argv[2] == "pool" else None
        play_match(Hog(), Hog(), 8, executor=pool, chunk_size=2, **limits)
    """
)


@posix
@two_cpus
@pytest.mark.parametrize("where", ["pool", "player processes"])
def test_kill_9_of_the_api_parent_kills_its_workers_busy_in_c_code(tmp_path: Path, where: str) -> None:
    """
    Issue 31: "Workers of process_pool() used from the API survive kill -9 of the parent (alive 10 s
    later, parent 1)": a worker busy in C code never let its watching thread run.  The kernel ends
    them now (PR_SET_PDEATHSIG), and so the players' own processes of a match with a decision limit.
    """
    script = tmp_path / "hog.py"
    script.write_text(HOGGING, encoding="utf-8")
    marks = tmp_path / "marks"
    marks.mkdir()
    parent = subprocess.Popen(  # noqa: S603
        [sys.executable, str(script), str(marks), where.split(maxsplit=1)[0]], env=os.environ | {"PYTHONPATH": str(SRC)}
    )
    workers: set[int] = set()
    try:
        _until(lambda: len(list(marks.iterdir())) >= (2 if where == "pool" else 1), "the players starting")
        workers = {int(mark.name) for mark in marks.iterdir()}
        assert parent.pid not in workers
        assert all(alive(worker) for worker in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    try:
        _until(lambda: not any(alive(worker) for worker in workers), "the workers ending", deadline=60.0)
    finally:
        for worker in workers:
            if alive(worker):
                os.kill(worker, signal.SIGKILL)


# -- SIGINT and SIGTERM ------------------------------------------------------------------------------------------


@posix
@two_cpus
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_keeps_the_pairs_finished_and_says_how_to_go_on(
    tmp_path: Path, jobs: str, number: signal.Signals
) -> None:
    """
    Issue 31: "SIGTERM or SIGINT to match … --jobs 2 writes no checkpoint; SIGINT then exits 1 with
    'a match has an even number of games, two for each duplicate deal, got 0'".
    """
    checkpoint = tmp_path / "match.jsonl"
    arguments = ["match", "random", "random", "--games", "100000", "--jobs", jobs, "--checkpoint", str(checkpoint)]
    with _started(arguments) as process:
        _until(lambda: _pairs(checkpoint) >= 3, "three pairs in the checkpoint")
        process.send_signal(number)
        out, err = process.communicate(timeout=DEADLINE)
    kept = MatchResult.from_checkpoint(checkpoint)
    assert (130, "", True) == (process.returncode, out, kept.partial)
    assert err == (
        f"persian-rummy: {number.name} stopped the match of 100000 games; {checkpoint} holds the"
        f" {len(kept.games)} games finished: go on with --resume {checkpoint}\n"
    )
    assert play_match(RandomPlayer(), RandomPlayer(), len(kept.games), names=("random", "random")).games == kept.games


@posix
@two_cpus
def test_a_signal_stops_a_tournament_and_keeps_its_pairs(tmp_path: Path) -> None:
    checkpoint = tmp_path / "tournament.json"
    arguments = ["tournament", "random", "greedy", "pimc:2", "--games", "400", "--jobs", "2"]
    with _started([*arguments, "--checkpoint", str(checkpoint)]) as process:
        _until(checkpoint.exists, "the first match in the checkpoint")
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=DEADLINE)
    said = (
        f"persian-rummy: SIGTERM stopped the tournament; {checkpoint} holds the matches and pairs finished:"
        f" go on with --resume {checkpoint}\n"
    )
    assert (130, said) == (process.returncode, err)


@posix
@two_cpus
@pytest.mark.once
def test_an_ignored_sigint_stays_ignored() -> None:
    """
    Issue 31: "A match started in the background (&, SIGINT ignored) and sent SIGINT with --jobs 2
    returns rc 0 with 'the time limit stopped the match' though no limit was set."  SIGINT is sent
    once the workers are there and the match under way (half a second later: not a measure).
    """
    arguments = ["match", "random", "random", "--games", "4000", "--jobs", "2", "--no-times"]
    with _started(arguments, ignore_sigint=True) as process:
        _until(lambda: len(children(process.pid)) >= 2, "the workers starting")
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=DEADLINE)
    assert (0, "") == (process.returncode, err)
    assert out.splitlines()[0].strip() == "4000 games in 2000 duplicate pairs, seed 0, rules standard"


@posix
def test_on_a_pool_the_tasks_under_way_hand_in_their_pairs(tmp_path: Path) -> None:
    """
    Issue 31: the pairs a worker's task had finished when the match was stopped were lost, the
    task's results coming in only once it was whole.  A task of 500 pairs on one worker is stopped
    by SIGINT once the worker has finished some: they are in the checkpoint.
    """
    checkpoint = tmp_path / "match.jsonl"
    played = tmp_path / "played"
    mark = f"open({str(played)!r}, 'a').write('x')"
    code = textwrap.dedent(
        f"""
        import signal, sys
        from persian_rummy.bots.players import RandomPlayer
        from persian_rummy.matches import play_match, process_pool

        class Counting(RandomPlayer):
            decisions = 0

            def choose_among(self, actions, rng):
                Counting.decisions += 1
                if Counting.decisions % 50 == 0:
                    {mark}
                return super().choose_among(actions, rng)

        with process_pool(1) as pool:
            try:
                play_match(
                    Counting(), RandomPlayer(), 1000, executor=pool, chunk_size=1000, checkpoint={str(checkpoint)!r}
                )
            except KeyboardInterrupt:
                sys.exit(130)
        """
    )
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", code],
        env=os.environ | {"PYTHONPATH": str(SRC)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    try:
        _until(lambda: played.exists() and len(played.read_bytes()) >= 20, "the worker playing some games")
        process.send_signal(signal.SIGINT)
        assert 130 == process.wait(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
    kept = MatchResult.from_checkpoint(checkpoint)
    assert kept.partial
    assert len(kept.games) >= 2


def test_an_interrupt_in_the_api_raises_keyboard_interrupt_after_the_checkpoint(tmp_path: Path) -> None:
    """
    SIGINT in a match played here raises KeyboardInterrupt, the pairs finished in the checkpoint.
    """
    checkpoint = tmp_path / "match.jsonl"
    calls: list[int] = []

    def interrupt(finished: int, _: int) -> None:
        calls.append(finished)
        if finished == 6:
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, not a job in the background
    try:
        with pytest.raises(KeyboardInterrupt):
            play_match(RandomPlayer(), RandomPlayer(), 40, seed=3, checkpoint=checkpoint, progress=interrupt)
    finally:
        signal.signal(signal.SIGINT, before)
    kept = MatchResult.from_checkpoint(checkpoint)
    assert ([2, 4, 6], 6) == (calls, len(kept.games))
    assert play_match(RandomPlayer(), RandomPlayer(), 6, seed=3).games == kept.games


def test_a_pool_made_by_the_library_is_stopped_by_its_count(tmp_path: Path) -> None:  # noqa: ARG001
    """
    A task sent before its pool stopped its tasks does nothing when it starts after.
    """
    from persian_rummy.matches import _pool  # noqa: PLC0415

    with process_pool(1) as pool:
        generation = pool.generation()  # type: ignore[attr-defined]
        assert [1, 2] == list(pool.submit(_pool.run_task, generation, _numbers, None, 1, 3).result())
        pool.stop_tasks()  # type: ignore[attr-defined]
        assert () == pool.submit(_pool.run_task, generation, _numbers, None, 1, 3).result()
        assert [1, 2] == list(pool.submit(_pool.run_task, generation + 1, _numbers, None, 1, 3).result())


def _numbers(_: object, start: int, stop: int) -> list[int]:
    return list(range(start, stop))
