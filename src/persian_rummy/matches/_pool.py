"""
Bounded resources: the CPUs this process may use, and a process pool whose workers exit when the
process that made them dies.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Final

from .._core import limits as _limits
from ..exceptions import InvalidTypeError, InvalidValueError

#: Seconds between two looks of a worker at its parent.
WATCH_EVERY: Final = 0.25


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


def _worker(parent: int, then: Callable[[], object] | None) -> None:
    """
    A worker's initializer: a thread that ends the worker once *parent* is no longer its parent, then *then*.
    """
    threading.Thread(target=_watch, args=(parent,), name="persian-rummy parent watch", daemon=True).start()
    if then is not None:
        then()


def process_pool(jobs: int, initializer: Callable[[], object] | None = None) -> ProcessPoolExecutor:
    """
    A pool of *jobs* processes (at most the CPUs available) whose workers exit within a quarter of
    a second once the process that made the pool is gone, even killed (``kill -9``): each watches
    its parent from a thread of its own.  *initializer* runs in each worker after that.

    Raises:
        InvalidValueError: *jobs* is below 1 or above `available_cpus`.
        InvalidTypeError: *jobs* is not an `int`, or *initializer* cannot be called.
    """
    check_jobs(jobs)
    given: object = initializer
    if given is not None and not callable(given):
        msg = f"initializer must be callable or None, got {_limits.shown(initializer)}"
        raise InvalidTypeError(msg)
    return ProcessPoolExecutor(jobs, initializer=_worker, initargs=(os.getpid(), initializer))
