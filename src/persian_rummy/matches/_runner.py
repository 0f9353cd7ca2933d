"""
How a match's duplicate pairs are handed out: here one after the other, or in tasks on an
executor, planned as they are needed, so that the first game starts at once whatever the size of
the match and the memory held is that of the tasks under way, not of the match.

Each pair's results are handed on (*deliver*) in the order of the pairs, from the first on,
whatever order the tasks finish in; a task that finishes before those ahead of it waits, and no
new task is started while `in_flight` are started or waiting.  A match stops when *deliver* says
so (its time limit), at its *timeout*, or at a signal (`_signals.Watch`): then the tasks under
way on a `process_pool` are asked to give up (SIGINT to its workers), the pairs they finished are
kept, and after `STOP_WAIT` seconds the match waits no more.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from typing import Final, Generic, TypeVar

import attrs

from ..exceptions import MatchError, MatchTimeoutError, PersianRummyError
from . import _pool, _signals

_C = TypeVar("_C")
_R = TypeVar("_R")

#: Units of work (duplicate pairs) per task sent to an executor, at most, by default.
MOST_PER_TASK: Final = 32
#: Tasks started or waiting at once on an executor whose workers are not counted (a Dask client's).
MOST_IN_FLIGHT: Final = 64
#: Seconds a stopped match waits for its tasks under way to hand in the pairs they finished.
STOP_WAIT: Final = 1.0
#: Seconds between two looks at the signals and the clock while the tasks of a match run on an executor.
_POLL: Final = 0.1

#: Told each unit's results, in order; returns whether to go on (False: the time limit is spent).
Deliver = Callable[[Sequence[_R]], bool]
#: Told how many units are finished, in any order, after each task.
Finished = Callable[[int], object]


def per_task(units: int, chunk: int | None) -> int:
    """
    The units of a task: *chunk*, or by default a sixteenth of the *units*, 1 to `MOST_PER_TASK`.

    >>> per_task(320, None), per_task(2, None), per_task(100_000, None), per_task(100_000, 3)
    (20, 1, 32, 3)
    """
    return max(1, min(MOST_PER_TASK, units // 16)) if chunk is None else chunk


def tasks(units: range, size: int) -> Iterator[range]:
    """
    *units* cut into tasks of *size*, one at a time: nothing is made before it is needed.

    >>> list(tasks(range(1, 6), 2))
    [range(1, 3), range(3, 5), range(5, 6)]
    >>> next(tasks(range(5_000_000), 32))
    range(0, 32)
    """
    for start in range(units.start, units.stop, size):
        yield range(start, min(units.stop, start + size))


def in_flight(executor: Executor) -> int:
    """
    The most tasks started or waiting at once on *executor*: twice its workers, where it says
    how many it has, else `MOST_IN_FLIGHT`.
    """
    workers = getattr(executor, "_max_workers", None)
    return 2 * workers if type(workers) is int and workers > 0 else MOST_IN_FLIGHT


@attrs.frozen
class Budget:
    """
    When a match's tasks stop, each a ``time.monotonic()`` (`None`: never): past *deadline*, once
    a pair is in, the match is given up and what it finished kept; past *timeout*, a match on an
    executor raises `MatchTimeoutError`.
    """

    deadline: float | None = None
    timeout: float | None = None

    def spent(self) -> bool:
        """
        Whether the deadline has passed.
        """
        return self.deadline is not None and time.monotonic() > self.deadline


@attrs.define
class _Tasks(Generic[_R]):
    """
    The tasks of a match on an executor: those under way, by their first unit, and the results
    in before those ahead of them are.
    """

    per_unit: int
    next_unit: int
    running: dict[Future[Sequence[_R]], range] = attrs.field(factory=dict)
    ready: dict[int, Sequence[_R]] = attrs.field(factory=dict)
    finished: int = 0

    def held(self) -> int:
        return len(self.running) + len(self.ready)

    def take(self, future: Future[Sequence[_R]], *, stopping: bool) -> range | None:
        """
        Keep what *future* returned; the units it left undone when it gave up, if it did and
        the match is not stopping (to be asked again).  The first failure is raised at once.
        """
        part = self.running.pop(future)
        results = _outcome(future)
        done = len(results) // self.per_unit
        self.ready[part.start] = results
        self.finished += done
        if done < len(part) and not stopping:
            return range(part.start + done, part.stop)
        return None

    def hand_on(self, deliver: Deliver[_R]) -> bool:
        """
        Hand on the results of the units from the first not handed on, in order, as far as they
        are in; whether to go on.
        """
        while self.next_unit in self.ready:
            results = self.ready.pop(self.next_unit)
            if not results:
                return True
            for start in range(0, len(results), self.per_unit):
                self.next_unit += 1
                if not deliver(results[start : start + self.per_unit]):
                    return False
        return True


def run(  # noqa: PLR0913
    executor: Executor,
    task: Callable[[_C, int, int], Sequence[_R]],
    context: _C,
    units: range,
    sizes: tuple[int, int],
    told: tuple[Deliver[_R], Finished | None],
    budget: Budget = Budget(),
) -> None:
    """
    Run ``task(context, part.start, part.stop)`` on *executor* for the parts of *units*, each of
    *sizes* ``(units per task, results per unit)``, and hand each unit's results on in order.

    Raises:
        MatchTimeoutError: the *budget*'s timeout passed with tasks unfinished.
        MatchError: the executor failed to run a task.
        Interrupted: a signal stopped the match (the pairs finished were handed on first).
    """
    deliver = told[0]
    plan = tasks(units, sizes[0])
    state: _Tasks[_R] = _Tasks(sizes[1], units.start)
    watch = _signals.current()
    try:
        while True:
            _submit(executor, task, context, plan, state)
            if not state.running:
                return
            going = _step(executor, (task, context), state, told)
            _over(budget)
            if watch is not None and watch.signal is not None:
                _wind_down(executor, state, deliver, interrupted=True)
                watch.check()
            if not going or (budget.spent() and state.next_unit > units.start):
                _wind_down(executor, state, deliver, interrupted=False)
                return
    except (PersianRummyError, _signals.Stop):
        if state.running and isinstance(executor, _pool.Pool):  # nothing more is asked of the tasks under way
            executor.stop_tasks()
        raise
    finally:
        for future in state.running:
            future.cancel()


def _step(
    executor: Executor,
    work: tuple[Callable[[_C, int, int], Sequence[_R]], _C],
    state: _Tasks[_R],
    told: tuple[Deliver[_R], Finished | None],
) -> bool:
    """
    Wait a little for tasks to finish, keep what they return, ask again what a task gave up
    without being asked to, and hand on what is in order; whether to go on.
    """
    task, context = work
    deliver, finished = told
    done, _ = wait(set(state.running), timeout=_POLL, return_when=FIRST_COMPLETED)
    for future in done:
        again = state.take(future, stopping=False)
        if again is not None:
            state.running[_send(executor, task, context, again)] = again
        if finished is not None:
            finished(state.finished)
    return state.hand_on(deliver)


def _submit(
    executor: Executor,
    task: Callable[[_C, int, int], Sequence[_R]],
    context: _C,
    plan: Iterator[range],
    state: _Tasks[_R],
) -> None:
    """
    Start the next tasks of *plan*, as many as `in_flight` lets.
    """
    most = in_flight(executor)
    while state.held() < most:
        part = next(plan, None)
        if part is None:
            return
        state.running[_send(executor, task, context, part)] = part


def _send(
    executor: Executor, task: Callable[[_C, int, int], Sequence[_R]], context: _C, part: range
) -> Future[Sequence[_R]]:
    """
    Send the task of *part* to *executor*: on a `process_pool`, with the pool's count of stops.
    """
    if isinstance(executor, _pool.Pool):
        return executor.submit(_pool.run_task, executor.generation(), task, context, part.start, part.stop)
    return executor.submit(task, context, part.start, part.stop)


def _wind_down(executor: Executor, state: _Tasks[_R], deliver: Deliver[_R], *, interrupted: bool) -> None:
    """
    Stop the match's tasks: those not started are cancelled, those under way on a `process_pool`
    asked to give up and waited for `STOP_WAIT` seconds, the units they finished handed on; on an
    interrupt, the pool's workers still busy then are killed.
    """
    for future in list(state.running):
        if future.cancel():
            del state.running[future]
    pool = executor if isinstance(executor, _pool.Pool) else None
    if pool is not None and state.running:
        pool.stop_tasks()
        done, _ = wait(set(state.running), timeout=STOP_WAIT)
        for future in done:
            try:
                state.take(future, stopping=True)
            except (PersianRummyError, CancelledError, _signals.Stop):  # the match is stopping: no more is asked of it
                state.running.pop(future, None)
        state.hand_on(deliver)
    if interrupted and pool is not None and state.running:
        pool.kill_workers()


def _outcome(future: Future[Sequence[_R]]) -> Sequence[_R]:
    """
    What a finished task returned; an error of the executor's, not the package's, raised as a `MatchError`.
    """
    try:
        return future.result()
    except (PersianRummyError, _signals.Stop):
        raise
    except Exception as error:
        msg = f"the executor failed to run a task of the match: {type(error).__name__}: {error}"
        raise MatchError(msg) from error


def _over(budget: Budget) -> None:
    """
    Raise `MatchTimeoutError` once the *budget*'s timeout has passed.
    """
    if budget.timeout is not None and time.monotonic() > budget.timeout:
        msg = "the match did not finish within its timeout on the executor; its tasks are cancelled"
        raise MatchTimeoutError(msg)


def run_here(
    span: Callable[[_C, int, int, Deliver[_R]], None],
    context: _C,
    units: range,
    deliver: Deliver[_R],
) -> None:
    """
    Play *units* here, one after the other: ``span(context, units.start, units.stop, deliver)``
    hands each unit's results on as it is finished, a signal raised at once but while they are
    handed on (a checkpoint written).

    Raises:
        Interrupted: a signal stopped the match (the pairs finished were handed on first).
    """
    watch = _signals.current()
    if watch is None:
        span(context, units.start, units.stop, deliver)
        return

    def held(results: Sequence[_R]) -> bool:
        with watch.held():
            return deliver(results)

    with watch.raising_at_once():
        span(context, units.start, units.stop, held)
    watch.check()
