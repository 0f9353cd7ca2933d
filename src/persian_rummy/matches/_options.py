"""
The arguments of `persian_rummy.matches.play_match` and `play_tournament`, checked: the teams,
their names, the seed, the number of games and the games kept against their limits, and the
keywords that bound a match (`Keywords`) made into its plan (`Plan`).
"""

from __future__ import annotations

import math
import operator
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Final, SupportsIndex, TypeAlias, TypeGuard

import attrs

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..bots.players import Player
from ..exceptions import InvalidTypeError, InvalidValueError
from ..rules import DEFAULT_RULES, Rules
from . import _checks, _runner, _workers

#: A team: one player for both of its seats, or a pair of players.
Team: TypeAlias = Player | tuple[Player, Player]
#: The most games a match may have (`persian_rummy.matches.MAX_GAMES`).
MAX_GAMES: Final = 10_000_000
#: The most games a match may keep in memory (`persian_rummy.matches.MAX_KEPT_GAMES`).
MAX_KEPT_GAMES: Final = 100_000
#: The most games a match may keep in memory with their records (`persian_rummy.matches.MAX_KEPT_RECORDS`).
MAX_KEPT_RECORDS: Final = 10_000
#: A match's seed is an int from 0 to this, less one.
SEED_LIMIT: Final = 2**64
#: Called as ``progress(finished, total)``.
Progress = Callable[[int, int], object]


@attrs.frozen
class Keywords:
    """
    The keywords that bound a match or a tournament and keep what it played, as the caller gave
    them (the `persian_rummy.matches.Bounds`, and *resume*), not yet checked.
    """

    decision_limit: float | None = None
    cpu_limit: float | None = None
    time_limit: float | None = None
    timeout: float | None = None
    checkpoint: str | os.PathLike[str] | None = None
    resume: object = None


@attrs.frozen
class Plan:
    """
    What bounds a match, where it is played and what keeps what it played: the limits of a
    decision, the budget of the match, its checkpoint, what it resumes (a result, or a
    checkpoint's path), the executor (`None`: here), the progress told, and the duplicate pairs
    of a task (`None`: as many as `_runner.per_task` gives).
    """

    limits: _workers.Limits
    budget: _runner.Budget
    checkpoint: Path | None
    resume: object
    executor: Executor | None = None
    progress: Progress | None = None
    per_task: int | None = None


def refuse_unknown(given: Iterable[str], known: frozenset[str]) -> None:
    """
    Refuse a keyword argument *given* that is not one of those *known*, as Python refuses one.
    """
    unknown = sorted(set(given) - known)
    if unknown:
        msg = f"play_match() got an unexpected keyword argument {unknown[0]!r}"
        raise InvalidTypeError(msg)


def plan(keywords: Keywords, executor: Executor | None, progress: Progress | None) -> Plan:
    """
    The plan that *keywords* give a match on *executor*, told *progress*; *resume* is left for
    the caller to check, and the pairs of a task to set.
    """
    check_how(executor, progress)
    now = time.monotonic()
    time_limit = seconds_or_none(keywords.time_limit, "time_limit")
    timeout = seconds_or_none(keywords.timeout, "timeout")
    budget = _runner.Budget(
        None if time_limit is None else now + time_limit, None if timeout is None else now + timeout
    )
    decision = _workers.Limits(
        seconds_or_none(keywords.decision_limit, "decision_limit"),
        seconds_or_none(keywords.cpu_limit, "cpu_limit"),
    )
    checkpoint = path_or_none(keywords.checkpoint, "checkpoint")
    return Plan(decision, budget, checkpoint, keywords.resume, executor, progress)


def path_or_none(value: object, name: str) -> Path | None:
    """
    *value*, the argument *name*, as a path, or `None`.
    """
    if value is None:
        return None
    if not isinstance(value, str | os.PathLike):
        msg = f"{name} must be a path or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return Path(value)


def check_how(executor: object, progress: object) -> None:
    """
    Refuse an executor that is not one, and a progress that cannot be called.
    """
    _arguments.expect(executor, (Executor, type(None)), "executor", "a concurrent.futures.Executor or None")
    if progress is not None and not callable(progress):
        msg = f"progress must be callable, got {_limits.shown(progress)}"
        raise InvalidTypeError(msg)


def team(value: Team, which: str) -> tuple[Player, Player]:
    """
    The two players of the team *value*, the argument *which*.
    """
    raw: object = value
    members: tuple[object, ...] = raw if isinstance(raw, tuple) else (raw, raw)
    first, second = members if len(members) == 2 else (None, None)
    if not isinstance(first, Player) or not isinstance(second, Player):
        msg = f"{which} must be a Player or a pair of Players, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    for member in (first, second):
        if isinstance(member, type):
            msg = f"{which} must be a Player, got the class {member.__name__}: a player is one of its values"
            raise InvalidTypeError(msg + f" ({member.__name__}())")
        if not callable(getattr(member, "choose", None)):
            msg = f"{which} must be a Player, got {_limits.shown(member)}, whose choose cannot be called"
            raise InvalidTypeError(msg)
    return first, second


def seconds_or_none(value: object, name: str) -> float | None:
    """
    *value*, the argument *name*: a number of seconds above 0, or `None`.
    """
    if value is None:
        return None
    if type(value) is not int and type(value) is not float:
        msg = f"{name} must be a number of seconds or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 < value < math.inf:
        msg = f"{name} must be a number of seconds above 0, got {_limits.shown(value)}"
        raise InvalidValueError(msg)
    return float(value)


def _team_name(value: Team) -> str:
    if isinstance(value, tuple):
        return " & ".join(type(member).__name__ for member in value)
    return type(value).__name__


def team_names(names: Sequence[str] | None, first: Team, second: Team) -> tuple[str, str]:
    """
    The teams' names: *names*, or by default the players' class names.
    """
    return _checks.names((_team_name(first), _team_name(second)) if names is None else names)


def rules(value: Rules | None) -> Rules:
    """
    The rules *value* gives: Persian Rummy's by default.
    """
    _arguments.expect(value, (Rules, type(None)), "rules", "a Rules or None")
    return DEFAULT_RULES if value is None else value


def seed(value: object) -> int:
    """
    A match's seed: an integer from 0 to 2**64 - 1, of any type that is one (a numpy integer), as an `int`.
    """
    if isinstance(value, bool) or not _is_index(value):
        msg = f"seed must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    number = operator.index(value)
    if not 0 <= number < SEED_LIMIT:
        msg = f"seed must be from 0 to 2**64 - 1, got {_checks.number(number)}"
        raise InvalidValueError(msg)
    return int(number)


def _is_index(value: object) -> TypeGuard[SupportsIndex]:
    """
    Whether *value* is of a type that has ``__index__``, as `operator.index` looks for it.
    """
    return hasattr(type(value), "__index__")


def flag(value: object, name: str) -> bool:
    """
    *value*, the argument *name*: True or False.
    """
    _arguments.expect(value, bool, name, "True or False")
    return bool(value)


def pair_count(games: object) -> int:
    """
    The duplicate pairs of a match of *games* games: an even number from 2 to `MAX_GAMES`.
    """
    if type(games) is not int:
        msg = f"games must be an int, got {_limits.shown(games)}"
        raise InvalidTypeError(msg)
    if games < 2 or games % 2 or games > MAX_GAMES:
        shown = _checks.number(games)
        msg = f"games must be an even number from 2 to {MAX_GAMES:,}, two for each duplicate deal, got {shown}"
        raise InvalidValueError(msg)
    return games // 2


def kept(games: int, *, keep: bool, records: bool) -> None:
    """
    Refuse a match that would keep more games in memory than it may: `MAX_KEPT_GAMES`, or with
    their *records* `MAX_KEPT_RECORDS`.
    """
    most = MAX_KEPT_RECORDS if records else MAX_KEPT_GAMES
    if keep and games > most:
        what = "games with their records" if records else "games"
        msg = (
            f"a match that keeps its games in memory keeps at most {most:,} {what}, got {games:,}:"
            " pass keep_games=False to keep only its summary (and checkpoint=PATH to keep every game on disk)"
        )
        raise InvalidValueError(msg)


def chunk(chunk_size: object) -> int | None:
    """
    The duplicate pairs per task that *chunk_size*, in games, asks for: its half, rounded up.
    """
    games = _arguments.optional_count(chunk_size, "chunk_size", 1)
    return None if games is None else (games + 1) // 2
