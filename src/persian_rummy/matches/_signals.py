"""
How a match is stopped by a signal: SIGINT (Ctrl-C), and SIGTERM when the command asks, in the
process that runs the match; SIGINT in a worker, where it gives up the task under way.

In the process that runs the match, a `Watch` takes the signals while the match is played: it
notes the signal and, while the games are played in this thread, raises `Interrupted` at once
(a `KeyboardInterrupt`, as Python's own handler raises); while the match waits for an executor,
or writes its checkpoint, it only notes it, and the match stops its tasks, keeps the pairs they
finished and then raises it.  A signal that is ignored (``SIG_IGN``, as a shell's ``&`` leaves
SIGINT) stays ignored, and a handler of the program's own is left in place.

In a worker of a process pool, SIGINT makes the task under way give up its game in progress and
return the pairs it finished (`Abandoned`); out of a task it is ignored.  The match sends it to
its pool's workers when it stops; a terminal's Ctrl-C sends it to the whole process group.

A player that catches the exception goes on thinking, but its decision is not taken: the stop
is raised again as soon as it returns (`PENDING`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

#: The exit status of a command stopped by a signal, as shells give it (128 + SIGINT).
INTERRUPTED_STATUS: Final = 130


class Stop(KeyboardInterrupt):
    """
    A stop the match asked for, not a player's exception: it passes through the players' errors.
    """


class Interrupted(Stop):
    """
    Raised in the process that runs a match when SIGINT, or SIGTERM when it is taken, stops it.

    Attributes:
        signal: The number of the signal.
        games: The games the match had finished, once it has kept them (`None` until then).
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal = signal_number
        self.games: int | None = None

    def __str__(self) -> str:
        return f"stopped by {signal.Signals(self.signal).name}"


class Abandoned(Stop):
    """
    Raised in a worker's task when SIGINT asks it to give up: the task returns the pairs it finished.
    """


#: The stop that a signal asked of this process's main thread, until the match or task is over.
PENDING: list[Stop | None] = [None]


class Watch:
    """
    The signals that stop a match, taken in the main thread while it is played; `signal` is the
    number of the first that came (`None` while none has).
    """

    def __init__(self) -> None:
        self.signal: int | None = None
        self.raising = False

    def __call__(self, number: int, _: object) -> None:
        if self.signal is None:
            self.signal = number
            PENDING[0] = Interrupted(number)
        if self.raising:
            raise Interrupted(number)

    def check(self) -> None:
        """
        Raise `Interrupted` if a signal has come.
        """
        if self.signal is not None:
            raise Interrupted(self.signal)

    @contextmanager
    def raising_at_once(self) -> Iterator[None]:
        """
        Within the block, a signal raises `Interrupted` where the thread is (the games are played here).
        """
        before, self.raising = self.raising, True
        try:
            self.check()
            yield
        finally:
            self.raising = before

    @contextmanager
    def held(self) -> Iterator[None]:
        """
        Within the block, a signal is only noted (a line of the checkpoint is being written); it
        is raised when the block ends, if signals were raised at once before it.
        """
        before, self.raising = self.raising, False
        try:
            yield
        finally:
            self.raising = before
        if before:
            self.check()


#: The watch of the match under way in this process, if one is.
_current: list[Watch] = []


def current() -> Watch | None:
    """
    The watch of the match under way, or `None` when no signal is taken (off the main thread).
    """
    return _current[-1] if _current else None


@contextmanager
def watching(*, terminate: bool = False) -> Iterator[Watch | None]:
    """
    Take SIGINT (when Python's own handler has it), and SIGTERM too if *terminate* (when no
    handler of the program's has it), for a `Watch`, in the main thread, until the block ends; a
    watch already taken is kept.  Off the main thread nothing is taken and the block is given
    the watch of the main thread's match, if any.
    """
    if _current or threading.current_thread() is not threading.main_thread():
        yield current()
        return
    watch = Watch()
    taken = [signal.SIGINT] if signal.getsignal(signal.SIGINT) is signal.default_int_handler else []
    if terminate and signal.getsignal(signal.SIGTERM) in {signal.SIG_DFL, None}:
        taken.append(signal.SIGTERM)
    before = {number: signal.signal(number, watch) for number in taken}
    _current.append(watch)
    PENDING[0] = None
    try:
        yield watch
    finally:
        _current.pop()
        PENDING[0] = None
        for number, handler in before.items():
            signal.signal(number, handler)


# -- in a worker -----------------------------------------------------------------------------------------------

#: Whether a task of a match runs in this process's main thread, which SIGINT then gives up.
_in_task: list[bool] = [False]


def abandon(_: int, __: object) -> None:
    """
    A worker's SIGINT handler: give up the task under way, if one is.
    """
    if _in_task[0]:
        PENDING[0] = Abandoned()
        raise Abandoned


def forked() -> None:
    """
    In a process just forked from one that runs a match: the match's watch is not this process's.
    """
    if _current:
        watch = _current[0]
        for number in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(number) is watch:
                signal.signal(number, signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL)
    _current.clear()
    PENDING[0] = None
    _in_task[0] = False


def in_worker() -> None:
    """
    In a worker of a process pool: SIGINT gives up the task under way, unless SIGINT is ignored.
    """
    forked()
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, abandon)
    if hasattr(signal, "pthread_sigmask"):  # a worker forked while its parent held SIGINT back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def task() -> Iterator[None]:
    """
    While a task of a match runs in the main thread of a process that runs no match of its own (a
    worker): SIGINT gives up the task, also where Python's own handler has it (a worker of a pool
    that `process_pool` did not make).
    """
    if _current or _in_task[0] or threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGINT)
    replaced = handler is signal.default_int_handler
    if replaced:
        signal.signal(signal.SIGINT, abandon)
    _in_task[0], PENDING[0] = True, None
    try:
        yield
    finally:
        _in_task[0], PENDING[0] = False, None
        if replaced:
            signal.signal(signal.SIGINT, handler)
