"""
What ``persian-rummy match`` and ``persian-rummy tournament`` share: their options, each argument
checked, the console their tables are printed on, the processes that play their games, and what they
say on standard error when they are stopped.

Each player is one of `persian_rummy.bots.players.make_player`, named as it names them (``greedy``,
``pimc:200``, ``mybots:Cautious``; modules of the current directory are importable).  ``--jobs N``
plays the games on N processes, at most the CPUs available; the results are the same for every N.
The commands need ``rich`` (the ``cli`` extra); without it, they say how to install it.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, InvalidStateError
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from .. import limits as _limits
from ..bots.players import make_player
from ..exceptions import InvalidValueError, PersianRummyError
from ..matches import MAX_GAMES, process_pool
from ..matches._pool import Pool, check_jobs

if TYPE_CHECKING:
    from rich.console import Console

#: Seconds in a day: the longest limit the command takes.
_DAY: Final = 86_400
#: The line printed, with exit status 1, when rich is missing.
NEEDS_RICH: Final = "persian-rummy: match needs rich, which is not installed: pip install 'persian-rummy[cli]'"


class ResultFile(Protocol):
    """
    Where ``--out FILE`` writes, opened before the match (``persian_rummy.cli`` makes it).
    """

    def write(self, text: str) -> None:
        """
        Write the result whole, replacing *FILE*.
        """

    def discard(self) -> None:
        """
        Give up: leave *FILE* as it was.
        """


def games_argument(text: str) -> int:
    """
    The number of games ``--games`` gives: a positive even number.

    >>> games_argument("400")
    400
    >>> games_argument("5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not a positive even number of games: '5' (each deal is played twice)
    """
    digits = text.strip()
    if digits.isdigit() and (len(digits) > len(str(MAX_GAMES)) or int(digits) > MAX_GAMES):
        msg = f"too many games: {_limits.shown(text)} (at most {MAX_GAMES:,})"
        raise argparse.ArgumentTypeError(msg)
    if digits.isdigit() and int(digits) > 0 and int(digits) % 2 == 0:
        return int(digits)
    msg = f"not a positive even number of games: {_limits.shown(text)} (each deal is played twice)"
    raise argparse.ArgumentTypeError(msg)


def jobs_argument(text: str) -> int:
    """
    The number of processes ``--jobs`` gives: 1 or more, and at most the CPUs this process may use.

    >>> jobs_argument("1")
    1
    """
    digits = text.strip()
    if not digits.isdigit() or len(digits) > 9 or int(digits) < 1:
        msg = f"not a number of processes: {_limits.shown(text)} (1 or more)"
        raise argparse.ArgumentTypeError(msg)
    try:
        return check_jobs(int(digits))
    except InvalidValueError as error:
        raise argparse.ArgumentTypeError(str(error).replace("jobs must", "--jobs must", 1)) from None


def seconds_argument(text: str) -> float:
    """
    A number of seconds: above 0 and at most a day.

    >>> seconds_argument("0.5")
    0.5
    """
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= _DAY:
        msg = f"not a number of seconds: {_limits.shown(text)} (above 0, at most {_DAY:,})"
        raise argparse.ArgumentTypeError(msg)
    return seconds


#: The units of ``--time-limit``, in seconds.
_UNITS: Final = {"s": 1, "m": 60, "h": 3600}
#: The longest ``--time-limit``: a week.
_WEEK: Final = 7 * 86_400


def duration_argument(text: str) -> float:
    """
    A duration: a number of seconds, or a number followed by ``s``, ``m`` or ``h``; above 0, at most a week.

    >>> duration_argument("10m"), duration_argument("1.5h"), duration_argument("90")
    (600.0, 5400.0, 90.0)
    """
    number, unit = (text[:-1], _UNITS[text[-1]]) if text[-1:] in _UNITS else (text, 1)
    try:
        seconds = float(number) * unit
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= _WEEK:
        msg = f"not a duration: {_limits.shown(text)} (seconds, or a number and s, m or h; at most a week)"
        raise argparse.ArgumentTypeError(msg)
    return seconds


def player_argument(text: str) -> str:
    """
    A team's player as the command line names it, checked by `persian_rummy.bots.players.make_player`,
    so that a wrong one is a wrong command line (exit status 2).

    >>> player_argument("greedy")
    'greedy'
    """
    importable_here()
    try:
        make_player(text)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def common(parser: argparse.ArgumentParser, default_games: int, *, records: bool = True) -> None:
    """
    The options ``match`` and ``tournament`` share.
    """
    parser.add_argument(
        "--games",
        type=games_argument,
        default=default_games,
        metavar="N",
        help=f"games of each match, an even number (default {default_games})",
    )
    parser.add_argument(
        "--jobs", type=jobs_argument, default=1, metavar="J", help="processes to play on (default 1: this one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the match's seed (default 0)")
    parser.add_argument("--rules", default="-", metavar="ID", help="the rules, as a rules id (default '-': standard)")
    parser.add_argument("--out", metavar="FILE", help="write the result to FILE as JSON")
    if records:
        parser.add_argument("--records", metavar="DIR", help="write each game's record to DIR as JSON")
    parser.add_argument("--no-times", action="store_true", help="leave out the thinking times, which vary by run")
    parser.add_argument(
        "--time-limit",
        type=duration_argument,
        metavar="TIME",
        help="stop the match after TIME (90, 30s, 10m, 2h): it keeps the duplicate pairs finished, marked partial",
    )
    parser.add_argument(
        "--checkpoint", metavar="FILE", help="keep the games finished in FILE, as JSON, to resume a stopped match"
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the match FILE holds (same players, games, seed and rules); FILE is the checkpoint then",
    )
    _limit_options(parser)


def _limit_options(parser: argparse.ArgumentParser) -> None:
    """
    The options ``match`` and ``tournament`` share that bound each decision.
    """
    parser.add_argument(
        "--decision-limit",
        type=seconds_argument,
        metavar="SECONDS",
        help="the most seconds a decision may last; one over it is replaced by the seat's first legal action,"
        " and a player still thinking a second later is stopped for the rest of the game",
    )
    parser.add_argument(
        "--cpu-limit",
        type=seconds_argument,
        metavar="SECONDS",
        help="the most CPU seconds a decision may take, every thread of the player counted; kept as --decision-limit",
    )


def importable_here() -> None:
    """
    Let players be imported from modules of the current directory, as ``python -m`` does (at the end
    of the path, so that no installed module is hidden).
    """
    here = str(Path.cwd())
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)


def console() -> Console:
    try:
        from rich.console import Console  # noqa: PLC0415 (rich is optional: the cli extra)
    except ImportError:
        print(NEEDS_RICH, file=sys.stderr)  # noqa: T201 (rich, which would print it, is missing)
        raise SystemExit(1) from None
    return Console(highlight=False, markup=False, emoji=False)


def cause(error: BaseException) -> str:
    """
    What stopped the match, as its message says it: the signal, or an interrupt.
    """
    number = getattr(error, "signal", None)
    return "an interrupt" if number is None else signal.Signals(number).name


@contextmanager
def executor(jobs: int) -> Iterator[Executor | None]:
    """
    No executor for one job (the games are played here), else a pool of *jobs* processes, its
    workers killed once the match is over or given up: nothing they might still run is needed.
    """
    if jobs == 1:
        yield None
        return
    pool = process_pool(jobs)  # its workers end when this process does, even killed
    # When the workers are killed, Python 3.11's pool may fail a future already cancelled and print
    # the traceback of that from its own thread; later versions let it be, and so does this.
    hook, threading.excepthook = threading.excepthook, quiet_cancelled
    try:
        yield pool
    finally:
        _end(pool)
        threading.excepthook = hook


def _end(pool: Executor) -> None:
    """
    Kill the workers of *pool* and shut it down: nothing it still runs is waited for.
    """
    if isinstance(pool, Pool):
        pool.kill_workers()
    pool.shutdown(cancel_futures=True)


def quiet_cancelled(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is not InvalidStateError:
        threading.__excepthook__(args)


def say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"persian-rummy: {message}", file=sys.stderr)  # noqa: T201
