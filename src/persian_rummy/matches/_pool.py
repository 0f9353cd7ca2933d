"""
Bounded resources: the CPUs this process may use, and a process pool whose workers exit when the
process that made them dies, and which a match can stop.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext
from typing import Final, Protocol, TypeVar

from .. import limits as _limits
from ..exceptions import InvalidTypeError, InvalidValueError
from . import _signals

#: Seconds between two looks of a worker at its parent.
WATCH_EVERY: Final = 0.25
#: Whether this system starts processes by forking (Linux): the workers are then this process's children.
_FORK: Final = sys.platform.startswith("linux")

_C = TypeVar("_C")
_R = TypeVar("_R")


class _Count(Protocol):
    """
    A number shared between a pool and its workers (a ``multiprocessing.Value``).
    """

    value: int


def available_cpus() -> int:
    """
    The CPUs this process may run on: ``os.process_cpu_count()`` where Python has it (3.13), else
    the CPUs of its affinity mask where the system has one, else ``os.cpu_count()``; 1 at least.
    """
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return max(1, counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_jobs(jobs: object) -> int:
    """
    *jobs*, a number of worker processes from 1 to `available_cpus`.

    Raises:
        InvalidValueError: *jobs* is below 1 or above the CPUs available, which the message counts.
        InvalidTypeError: *jobs* is not an `int`.
    """
    if type(jobs) is not int:
        msg = f"jobs must be an int, got {_limits.shown(jobs)}"
        raise InvalidTypeError(msg)
    cpus = available_cpus()
    if not 1 <= jobs <= cpus:
        msg = (
            f"jobs must be from 1 to the {cpus} CPU{'s' if cpus > 1 else ''} this process may use, got {jobs}:"
            " more processes than CPUs only share them"
        )
        raise InvalidValueError(msg)
    return jobs


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)  # the match is gone: nothing is left to hand the results to


#: Linux's prctl option that has the kernel send a signal to a process when its parent ends.
_PR_SET_PDEATHSIG: Final = 1


def _death_signal() -> bool:
    """
    Have the kernel kill this process when its parent ends, where Linux can (prctl); whether it can.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # pragma: no cover - no C library to call
        return False


def die_with_parent(parent: int, *, kernel: bool) -> None:
    """
    End this process (a worker) once *parent* is no longer its parent, even killed with ``kill -9``:
    at once by the kernel, if *kernel* and Linux can (its parent's thread that made it lives as long
    as the parent: the kernel acts when that thread ends), and within `WATCH_EVERY` seconds by a
    thread that watches, which a player holding the interpreter in code that is not Python's delays.
    """
    if kernel:
        _death_signal()
    if os.getppid() != parent:  # the parent died before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="persian-rummy parent watch", daemon=True).start()


#: In a worker of a `Pool`: the number of times its pool has stopped its tasks, shared with the pool.
_stops: list[_Count | None] = [None]


def _worker(parent: int, kernel: bool, stops: _Count, then: Callable[[], object] | None) -> None:
    """
    A worker's initializer: end with *parent*, take SIGINT as a stop of the task under way, know
    the pool's count of *stops*, then *then*.
    """
    die_with_parent(parent, kernel=kernel)
    _signals.in_worker()
    _stops[0] = stops
    if then is not None:
        then()


def run_task(
    generation: int, task: Callable[[_C, int, int], Sequence[_R]], context: _C, start: int, stop: int
) -> Sequence[_R]:
    """
    In a worker of a `Pool`: ``task(context, start, stop)``, sent when the pool had stopped tasks
    *generation* times; nothing if it has stopped them since (the task is given up before it
    starts), and what the task finished if SIGINT gives it up.
    """
    try:
        with _signals.task():
            stops = _stops[0]
            if stops is not None and stops.value != generation:
                return ()
            return task(context, start, stop)
    except _signals.Abandoned:
        return ()


class Pool(ProcessPoolExecutor):
    """
    A process pool of `process_pool`, whose workers a match can stop and kill.
    """

    def __init__(
        self, jobs: int, context: BaseContext, stops: _Count, worker: tuple[int, bool, Callable[[], object] | None]
    ) -> None:
        parent, kernel, then = worker
        super().__init__(jobs, mp_context=context, initializer=_worker, initargs=(parent, kernel, stops, then))
        self.stops = stops

    def generation(self) -> int:
        """
        How many times the pool has stopped its tasks: what a task is sent with (`run_task`).
        """
        return int(self.stops.value)

    def stop_tasks(self) -> None:
        """
        Give up every task sent before now: those not started do nothing, those under way return
        the pairs they finished (SIGINT to the workers).
        """
        self.stops.value += 1
        self._signal_workers(signal.SIGINT)

    def kill_workers(self) -> None:
        """
        Kill every worker (the pool is broken then): for a match that is stopped and will not wait.
        """
        self._signal_workers(signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)

    def _signal_workers(self, number: int) -> None:
        processes = dict(getattr(self, "_processes", None) or {})
        for process in processes.values():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                if process.pid is not None and process.is_alive():
                    os.kill(process.pid, number)


def process_pool(jobs: int, initializer: Callable[[], object] | None = None) -> ProcessPoolExecutor:
    """
    A pool of *jobs* processes (at most the CPUs available) whose workers end when the process that
    made the pool does, even killed (``kill -9``): at once on Linux, where the kernel is told to kill
    them (``prctl(PR_SET_PDEATHSIG)``, for a pool made in the main thread), and within a quarter
    of a second elsewhere, each worker watching its parent from a thread of its own.  The workers
    are started at once, from the thread that makes the pool.  *initializer* runs in each worker
    after that.

    In a worker, SIGINT gives up the task of a match under way, which returns the duplicate pairs
    it finished (a match sends it when it is stopped), unless SIGINT is ignored.

    Raises:
        InvalidValueError: *jobs* is below 1 or above `available_cpus`.
        InvalidTypeError: *jobs* is not an `int`, or *initializer* cannot be called.
    """
    check_jobs(jobs)
    given: object = initializer
    if given is not None and not callable(given):
        msg = f"initializer must be callable or None, got {_limits.shown(initializer)}"
        raise InvalidTypeError(msg)
    context = multiprocessing.get_context("fork" if _FORK else None)
    kernel = _FORK and threading.current_thread() is threading.main_thread()
    pool = Pool(jobs, context, context.Value("q", 0, lock=False), (os.getpid(), kernel, initializer))
    if _FORK:  # every worker forked now, from this thread, which the kernel's watch is tied to
        pool.submit(int).result()
    return pool
