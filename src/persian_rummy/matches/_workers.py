"""
Players in processes of their own, for a match with a limit per decision (wall clock or CPU time).

Each of a match's four players (a team's first seat's and the other's, for each team) runs in a
process forked from the one that plays the games; the game sends it its view (or its legal
actions) and the events it hears, and the player's process sends back its action and the wall and
CPU seconds it took, the CPU time that of the whole process, every thread of the player counted.

At the limit an alarm stops a player thinking in Python (an exception raised where it is); one
that catches it, or that is busy in code that is not Python's, is killed `GRACE` seconds later:
it is stopped for good, and its seat plays the default move (the first legal action) at every
decision left in the game; the next game starts it afresh.  A CPU limit is kept the same way,
by the process's CPU clock (``ITIMER_PROF``) and, past the grace, by the kernel (``RLIMIT_CPU``).

A player's process ends with the one that made it, even killed (`_pool.die_with_parent`).
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import random
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, Pipe
from typing import Any, Final, get_args

import attrs

from .. import limits as _limits
from ..actions import PlayerAction
from ..bots.players import Player
from . import _pool, _signals

#: Seconds past a limit after which a player still thinking is killed.
GRACE: Final = 1.0
#: The types of the actions a player may choose.
ACTIONS: Final = frozenset(get_args(PlayerAction))


def available() -> bool:
    """
    Whether players can be run in processes of their own: where processes fork (POSIX).
    """
    return hasattr(os, "fork") and hasattr(signal, "setitimer")


def not_an_action(value: object) -> str | None:
    """
    Why *value*, which a player returned, is not an action it may choose; `None` if it is one.

    >>> not_an_action(None)
    'it returned None, which is not an action'
    """
    if type(value) in ACTIONS:
        return None
    return f"it returned {_limits.shown(value)}, which is not an action"


def describe(error: BaseException) -> str:
    """
    A player's exception as its error says it: its type and its message.
    """
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def player_traceback(error: BaseException) -> str:
    """
    The traceback of *error*, from the player's frames on (the frame that called the player left out).
    """
    trace = error.__traceback__
    frames = trace.tb_next if trace is not None and trace.tb_next is not None else trace
    return "".join(traceback.format_exception(type(error), error, frames))


@attrs.frozen
class Limits:
    """
    The most seconds a decision may last on the wall clock, and in CPU time (`None`: no limit).
    """

    wall: float | None = None
    cpu: float | None = None

    @property
    def any(self) -> bool:
        """
        Whether there is a limit.
        """
        return self.wall is not None or self.cpu is not None


#: No limit at all.
NO_LIMITS: Final = Limits()


@attrs.frozen
class Decided:
    """
    What a player's process made of a decision: the *action* (`None` when it is not taken), the
    wall and CPU seconds, whether a limit was passed (*over*), and whether the player was killed.
    """

    action: PlayerAction | None
    wall: float
    cpu: float
    over: bool = False
    killed: bool = False


class PlayerFailed(Exception):  # noqa: N818 (the player's failure, carried to the match)
    """
    A player's exception, or its process's end, as text: *reason* and the player's *trace*.
    """

    def __init__(self, reason: str, trace: str = "") -> None:
        super().__init__(reason, trace)
        self.reason, self.trace = reason, trace


# -- in the player's process -----------------------------------------------------------------------------------


class _Overrun(BaseException):
    """
    Raised in a player by the alarm of its limit: a `BaseException`, which ``except Exception`` lets pass.
    """


#: Whether the alarm of the decision under way may still stop the player, and whether it rang
#: (the player is over its limit, even if it caught the exception).
_armed: list[bool] = [False, False]


def _ring(_: int, __: object) -> None:
    if _armed[0]:
        _armed[:] = [False, True]
        raise _Overrun


def _arm(limits: Limits, cpu_now: float) -> None:
    import resource  # noqa: PLC0415 (POSIX, as forking is)

    _armed[:] = [True, False]
    if limits.wall is not None:
        signal.setitimer(signal.ITIMER_REAL, limits.wall)
    if limits.cpu is not None:
        signal.setitimer(signal.ITIMER_PROF, limits.cpu)
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        soft = math.ceil(cpu_now + limits.cpu + GRACE)
        resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))


def _disarm() -> None:
    _armed[0] = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_PROF, 0)


@attrs.define
class _Seat:
    """
    A seat the player's process plays in the game under way: the player (a copy of its own for
    a listener), how it chooses, and its random source.
    """

    player: Any
    choose: Callable[[Any, random.Random], object]
    rng: random.Random

    @classmethod
    def of(cls, player: Player, seed: int) -> _Seat:
        seated: Any = copy.deepcopy(player) if hasattr(player, "hear") else player
        among = getattr(seated, "choose_among", None)
        return cls(seated, seated.choose if among is None else among, random.Random(seed))  # noqa: S311 (a game)


def _decide(seat: _Seat, events: Sequence[object], given: object, limits: Limits) -> tuple[object, ...]:
    """
    The reply to a decision: ``("decided", action, wall, cpu, over)`` or ``("failed", reason, trace)``.
    """
    start, cpu_start = time.perf_counter(), time.process_time()
    over = False
    _arm(limits, cpu_start)
    try:
        for event in events:
            seat.player.hear(event)
        action = seat.choose(given, seat.rng)
        _armed[0] = False
    except _Overrun:
        action, over = None, True
    except BaseException as error:  # noqa: BLE001 (whatever a player raises is its error)
        _disarm()
        return ("failed", describe(error), player_traceback(error))
    _disarm()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    over = over or _armed[1]
    reason = None if over else not_an_action(action)
    if reason is not None:
        return ("failed", reason, "")
    return ("decided", action, wall, cpu, over)


def _serve(player: Player, connection: Connection) -> None:
    """
    Answer the match's messages until it closes its end: a seat to play, a decision to make.
    """
    seats: dict[int, _Seat] = {}
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message[0] == "seat":
            seats[message[1]] = _Seat.of(player, message[2])
            continue
        _, seat, events, given, limits = message
        try:
            reply = _decide(seats[seat], events, given, limits)
        except _Overrun:  # the alarm rang as the player returned
            reply = ("decided", None, 0.0, 0.0, True)
        connection.send(reply)


def _child(player: Player, connection: Connection, parent: int) -> None:
    """
    The player's process: ends with *parent*, leaves interrupts to it, dumps no core at its CPU limit.
    """
    import resource  # noqa: PLC0415 (POSIX, as forking is)

    for other in list(_OPEN):  # the other players' pipes, which this process must not hold open
        other.close()
    _signals.forked()
    _pool.die_with_parent(parent, kernel=True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, _ring)
    signal.signal(signal.SIGPROF, _ring)
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    _serve(player, connection)


# -- in the process that plays the games -----------------------------------------------------------------------

#: The ends of the players' pipes open in this process.
_OPEN: set[Connection] = set()


def _flush_output() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.WEXITSTATUS(status)}"


class PlayerProcess:
    """
    One player in a process of its own, started when first needed, and again after it is killed.
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self.pid: int | None = None
        self.connection: Connection | None = None
        self.reported = 0.0  # the CPU seconds its process's decisions took

    def _started(self) -> Connection:
        """
        The pipe to the player's process, which is started if it is not running.
        """
        connection = self.connection
        return self._start() if connection is None else connection

    def _start(self) -> Connection:
        _flush_output()  # nothing buffered is written twice
        ours, theirs = Pipe()
        parent = os.getpid()
        with warnings.catch_warnings():
            # Forking a process with threads: the child runs the player and its pipe alone.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # pragma: no cover - the player's process, which coverage does not follow
            status = 0
            try:
                ours.close()
                _child(self.player, theirs, parent)
            except BaseException:  # noqa: BLE001
                status = 1
            finally:
                _flush_output()
                os._exit(status)
        theirs.close()
        _OPEN.add(ours)
        self.pid, self.connection, self.reported = pid, ours, 0.0
        return ours

    def seat(self, seat: int, seed: int) -> None:
        """
        Have the player take *seat* in a new game, its random source seeded with *seed*.
        """
        connection = self._started()
        with contextlib.suppress(OSError):  # it ended: the decision says so
            connection.send(("seat", seat, seed))

    def decide(self, seat: int, events: Sequence[object], given: object, limits: Limits) -> Decided:
        """
        The player's decision at *seat*, after it hears *events*.

        Raises:
            PlayerFailed: the player raised, returned what is not an action, or its process ended.
        """
        start = time.perf_counter()
        connection = self._started()  # by seat, before the game's decisions
        try:
            connection.send(("decide", seat, events, given, limits))
            reply = connection.recv() if connection.poll(None if limits.wall is None else limits.wall + GRACE) else None
        except (EOFError, OSError):
            return self._lost(limits, time.perf_counter() - start)
        if reply is None:
            return self._lost(limits, time.perf_counter() - start, kill=True)
        if reply[0] == "failed":
            raise PlayerFailed(*reply[1:])
        _, action, wall, cpu, over = reply
        self.reported += cpu
        return Decided(action, wall, cpu, over)

    def _lost(self, limits: Limits, wall: float, *, kill: bool = False) -> Decided:
        """
        The decision of a player whose process ended (*kill*: is to be killed): stopped for good
        at its limit, else its failure.
        """
        status, cpu = self.close(kill=kill)
        cpu_killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) in {signal.SIGXCPU, signal.SIGKILL}
        if kill or (limits.cpu is not None and cpu_killed):
            return Decided(None, wall, max(0.0, cpu - self.reported), over=True, killed=True)
        msg = f"its process ended ({_ended(status)})"
        raise PlayerFailed(msg)

    def close(self, *, kill: bool = True) -> tuple[int, float]:
        """
        End the player's process (killed, unless it ended); its exit status and its CPU seconds.
        """
        pid, connection = self.pid, self.connection
        self.pid = self.connection = None
        if pid is None or connection is None:
            return 0, 0.0
        if kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _OPEN.discard(connection)
        connection.close()
        _, status, usage = os.wait4(pid, 0)
        return status, usage.ru_utime + usage.ru_stime


@contextmanager
def processes(teams: Sequence[Sequence[Player]], limits: Limits) -> Iterator[list[list[PlayerProcess]] | None]:
    """
    With *limits* where players can run in processes of their own: a process for each member of
    each team, killed when the block ends; else `None`.
    """
    if not limits.any or not available():
        yield None
        return
    made = [[PlayerProcess(player) for player in team] for team in teams]
    try:
        yield made
    finally:
        for team in made:
            for process in team:
                process.close()


def by_seat(
    seats: tuple[tuple[int, int], tuple[int, int]], made: list[list[PlayerProcess]] | None
) -> tuple[PlayerProcess, ...] | None:
    """
    The players' processes *made* (by team, then member) by seat, in a game whose teams hold
    *seats*: each team's member 0 at its first seat; `None` without processes.
    """
    if made is None:
        return None
    seated: list[PlayerProcess] = [made[0][0]] * 4
    for team, members in enumerate(seats):
        for member, seat in enumerate(members):
            seated[seat] = made[team][member]
    return tuple(seated)
