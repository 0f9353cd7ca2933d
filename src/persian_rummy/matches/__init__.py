"""
Matches: two teams of players over many games, on duplicate deals, and what the games tell.

`play_match` plays an even number of games between two teams.  A team is one `Player`, who
then plays both of the team's seats, or a pair of players, one for each seat.  The games come
in **duplicate pairs**: both games of a pair are dealt from the same decks, with the teams in
each other's seats, so each team holds in one game the cards the other held in the other, and
the luck of the cards cancels out of the pair.  The first dealer moves round the table from
one pair to the next.

Everything random is drawn from streams derived from the match's seed: one for the decks of each
pair, one for each player of each game.  A match is the same whatever processes play it, in
whatever order its games finish, and whatever ``PYTHONHASHSEED`` is.

>>> from persian_rummy.bots.players import RandomPlayer
>>> result = play_match(RandomPlayer(), RandomPlayer(), 4, seed=5)
>>> [(game.seats[0], game.first_dealer, game.points) for game in result.games]
[((0, 2), 0, (332, 306)), ((1, 3), 0, (211, 302)), ((0, 2), 1, (171, 79)), ((1, 3), 1, (31, 48))]
>>> result.games[0].deck_seed == result.games[1].deck_seed != result.games[2].deck_seed
True
>>> summary = result.summary
>>> summary.wins, summary.draws, summary.losses, summary.score_rate, summary.mean_margin
(2, 0, 2, 0.5, 2.5)
>>> play_match(RandomPlayer(), RandomPlayer(), 4, seed=5) == result
True

The result compares equal to that of another run with the same seed, on any executor: the time
each player took to think is kept (`GameResult.thinking`) but left out of the comparison.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Final, Protocol, TypeAlias, TypedDict, Unpack

import attrs
from attrs import field, frozen

from .._internal import arguments as _arguments
from .._internal import build as _build
from .._internal import limits as _limits
from ..actions import Deal
from ..bots.players import Player, RandomPlayer
from ..exceptions import InvalidDataError, InvalidTypeError, InvalidValueError, PersianRummyError
from ..notation import format_rules, parse_rules
from ..records import GameRecord, final_state
from ..rules import DEFAULT_RULES, Rules
from ..scoring import DealScore
from ..serialize import FORMAT, VERSION, to_data
from ..state import Phase
from . import _checkpoint, _options, _pool, _ratings, _runner, _signals, _sink, _tally, _workers
from . import _checks as _matchdata
from . import _play as _matchplay
from ._ratings import Rating

#: The most games a match may have; with its games not kept (``keep_games=False``), whatever
#: their number, it holds in memory only its summary and the tasks under way.
MAX_GAMES: Final = 10_000_000
#: The most games a match may keep in memory (``keep_games=True``, the default; a tournament's
#: matches, all together): about 2 to 5 KB each.
MAX_KEPT_GAMES: Final = 100_000
#: The most games a match may keep in memory with their records (``records=True``): about 20 to 40 KB each.
MAX_KEPT_RECORDS: Final = 10_000
#: A match's seed is an int from 0 to this, less one.
SEED_LIMIT: Final = 2**64

available_cpus = _pool.available_cpus
process_pool = _pool.process_pool

__all__ = [
    "MAX_GAMES",
    "MAX_KEPT_GAMES",
    "MAX_KEPT_RECORDS",
    "MAX_PLAYERS",
    "SEED_LIMIT",
    "Bounds",
    "GameResult",
    "Limits",
    "MatchResult",
    "MatchSummary",
    "Rating",
    "Team",
    "TournamentResult",
    "available_cpus",
    "pairings",
    "play_match",
    "play_tournament",
    "process_pool",
]


def __dir__() -> list[str]:
    return __all__


#: A team: one player for both of its seats, or a pair of players, the first for the team's
#: first seat (seat 0 or 1) and the second for the seat opposite.
Team: TypeAlias = Player | tuple[Player, Player]

_LAYOUTS: Final = _matchdata.LAYOUTS


def _check_index(_: object, __: object, value: int) -> None:
    _matchdata.count(value, "index")


def _check_deck_seed(_: object, __: object, value: int) -> None:
    _matchdata.seed(value, "deck_seed")


def _check_dealer(_: object, __: object, value: int) -> None:
    _arguments.seat(value, "first_dealer")


def _check_record(_: object, __: object, value: GameRecord | None) -> None:
    _arguments.expect(value, (GameRecord, type(None)), "record", "a GameRecord or None")


# -- one game --------------------------------------------------------------------------------------------------


@frozen
class GameResult:
    """
    One game of a match.

    Attributes:
        index: The game's number in the match, from 0; games ``2k`` and ``2k + 1`` are a duplicate pair.
        deck_seed: The seed of the ``random.Random`` that shuffled the decks of the game (and of its pair).
        seeds: The seeds of each seat's player's ``random.Random``, by seat.
        first_dealer: The seat that dealt first (R5).
        seats: The seats of the match's first team, then of its second: ``((0, 2), (1, 3))`` in
            the first game of a pair, ``((1, 3), (0, 2))`` in the second.
        deals: The score of each deal, team by team as the table has them (`DealScore.teams`:
            seats 0 and 2 first, R1).
        decisions: The actions each seat chose, by seat.
        thinking: The seconds each seat's player took to choose them, by seat, on the wall clock;
            they differ from one run to the next and are left out when results are compared.
        cpu: The CPU seconds of the same, by seat, every thread of the player counted: the CPU
            time of the player's own process when it has one (a match with a limit per
            decision), else of the process that played the game (of its thread, off the main
            thread); a busy machine does not inflate it (left out of comparisons too).
        overruns: The decisions of each seat over the match's ``decision_limit`` or
            ``cpu_limit``, replaced by the seat's first legal action (those of a player stopped
            for good included).
        record: The game's record, when the match kept them.

    Raises:
        InvalidValueError: a field is out of its range.
        InvalidTypeError: a field is not of its type.
    """

    index: int = field(validator=_check_index)
    deck_seed: int = field(validator=_check_deck_seed)
    seeds: tuple[int, int, int, int] = field(converter=_matchdata.seeds)
    first_dealer: int = field(validator=_check_dealer)
    seats: tuple[tuple[int, int], tuple[int, int]] = field(converter=_matchdata.layout)
    deals: tuple[DealScore, ...] = field(converter=_matchdata.deal_scores)
    decisions: tuple[int, int, int, int] = field(converter=_matchdata.decisions)
    thinking: tuple[float, float, float, float] = field(converter=_matchdata.thinking, eq=False)
    cpu: tuple[float, float, float, float] = field(default=(0.0, 0.0, 0.0, 0.0), converter=_matchdata.cpu, eq=False)
    overruns: tuple[int, int, int, int] = field(default=(0, 0, 0, 0), converter=_matchdata.overruns)
    record: GameRecord | None = field(default=None, validator=_check_record)

    @property
    def points(self) -> tuple[int, int]:
        """
        The points of the match's first team and of its second, over every deal.
        """
        table = (sum(deal.teams[0].total for deal in self.deals), sum(deal.teams[1].total for deal in self.deals))
        first = self.seats[0][0]
        return (table[first], table[1 - first])

    @property
    def margin(self) -> int:
        """
        The first team's points less the second's.
        """
        first, second = self.points
        return first - second

    @property
    def winner(self) -> int | None:
        """
        The team of the match that won (0: the first, 1: the second), or `None` for a draw (R28, A22).
        """
        margin = self.margin
        return None if margin == 0 else int(margin < 0)


#: Builds a `GameResult` from values already right, without checks.
class _GameResultFields(Protocol):
    def __call__(  # noqa: PLR0913 (every field of GameResult)
        self,
        *,
        index: int,
        deck_seed: int,
        seeds: tuple[int, int, int, int],
        first_dealer: int,
        seats: tuple[tuple[int, int], tuple[int, int]],
        deals: tuple[DealScore, ...],
        decisions: tuple[int, int, int, int],
        thinking: tuple[float, float, float, float],
        cpu: tuple[float, float, float, float],
        overruns: tuple[int, int, int, int],
        record: GameRecord | None,
    ) -> GameResult: ...


_game_result: Final = _build.builder(GameResult, _GameResultFields.__call__)


# -- the summary -----------------------------------------------------------------------------------------------


@frozen
class MatchSummary:
    """
    What a match's games tell, from the first team's side.

    Attributes:
        games: The games played.
        wins: The games the first team won.
        draws: The games drawn.
        losses: The games the first team lost.
        points: Each team's points over all games.
        score_rate: The first team's score per game, a win counting 1 and a draw 0.5.
        score_interval: The Wilson 95% interval of the score rate.
        mean_margin: The first team's points less the second's, per game.
        margin_interval: The Student's t 95% interval of the mean margin, over the duplicate
            pairs (each pair's two games averaged, so that the luck of the deal is out of
            it); `None` for a single pair.
        decisions: The actions each team's players chose.
        overruns: The decisions of each team's players over the match's ``decision_limit``.
        ms_per_decision: Each team's milliseconds of thinking per decision on the wall clock
            (left out of comparisons).
        member_ms_per_decision: The same for each of the team's two seats, the team's first
            seat (0 or 1) then the seat opposite: each player of a pair apart.
        cpu_ms_per_decision: Each team's CPU milliseconds per decision (left out of comparisons).
        member_cpu_ms_per_decision: The same for each of the team's two seats.
    """

    games: int
    wins: int
    draws: int
    losses: int
    points: tuple[int, int]
    score_rate: float
    score_interval: tuple[float, float]
    mean_margin: float
    margin_interval: tuple[float, float] | None
    decisions: tuple[int, int]
    overruns: tuple[int, int]
    ms_per_decision: tuple[float, float] = field(eq=False)
    member_ms_per_decision: tuple[tuple[float, float], tuple[float, float]] = field(eq=False)
    cpu_ms_per_decision: tuple[float, float] = field(eq=False)
    member_cpu_ms_per_decision: tuple[tuple[float, float], tuple[float, float]] = field(eq=False)


def _summarize(games: Sequence[GameResult]) -> MatchSummary:
    return MatchSummary(**_tally.Tally().add_all(games).fields())  # type: ignore[arg-type]  # its fields


# -- the match -------------------------------------------------------------------------------------------------


def _games(value: Iterable[GameResult]) -> tuple[GameResult, ...]:
    raw: object = value
    games = tuple(raw) if isinstance(raw, Iterable) and not isinstance(raw, str) else ()
    if any(type(game) is not GameResult for game in games):
        msg = f"games must be GameResult values, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if len(games) % 2:
        msg = f"a match has an even number of games, two for each duplicate deal, got {len(games)}"
        raise InvalidValueError(msg)
    for number, game in enumerate(games):
        if game.index != number:
            msg = f"games must be numbered 0, 1, ... in order: game {number} has index {game.index}"
            raise InvalidValueError(msg)
        first = games[number - number % 2]
        if game.seats != _LAYOUTS[number % 2] or (game.deck_seed, game.first_dealer) != (
            first.deck_seed,
            first.first_dealer,
        ):
            msg = f"game {number} is not the duplicate of game {first.index}: same decks and dealer, teams swapped"
            raise InvalidValueError(msg)
    return games


def _check_rules(_: object, __: object, value: Rules) -> None:
    _arguments.expect(value, Rules, "rules", "a Rules")


def _check_match_seed(_: object, __: object, value: int) -> None:
    if type(value) is not int:
        msg = f"seed must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value < SEED_LIMIT:
        msg = f"seed must be from 0 to 2**64 - 1, got {_matchdata.number(value)}"
        raise InvalidValueError(msg)


def _check_summary(_: object, __: object, value: MatchSummary | None) -> None:
    _arguments.expect(value, (MatchSummary, type(None)), "summary", "a MatchSummary or None")


@frozen
class MatchResult:
    """
    The games of a match and, from them, its `summary`.

    Results compare equal when their games do, whatever time the players took to think.
    `to_json` and `from_json` write and read them (`to_data` and `from_data` as Python data);
    `from_checkpoint` reads a match's checkpoint.  A match that did not keep its games
    (``keep_games=False``) holds none, but its summary, worked out as they were played: it
    compares by its summary, and is not written as JSON (its checkpoint holds its games).

    Attributes:
        names: The names of the first team and of the second (1 to 100 characters each).
        rules: The rules of every game.
        seed: The match's seed, from which every deck and every player's random source is derived.
        games: The games, in order: ``2k`` and ``2k + 1`` are the two games of the ``k``-th deck.
        planned: The games the match was to play: more than it played when it was stopped
            (`partial`), and by default as many as it holds.
        summary: Wins, draws and losses, the score rate and the mean margin with their
            intervals, and the thinking times: worked out from the games when they are given,
            else given (a match that kept no games), of 2 games at least.

    Raises:
        InvalidValueError: a field is out of its range, the games are not numbered in order or
            not in duplicate pairs, none are given without a summary, or the summary given is
            not theirs.
        InvalidTypeError: a field is not of its type.
    """

    names: tuple[str, str] = field(converter=_matchdata.names)
    rules: Rules = field(validator=_check_rules)
    seed: int = field(validator=_check_match_seed)
    games: tuple[GameResult, ...] = field(converter=_games, repr=lambda games: f"<{len(games)} games>")
    planned: int = field(default=attrs.Factory(lambda self: len(self.games), takes_self=True))
    # None until __attrs_post_init__ works it out from the games.
    summary: MatchSummary = field(default=None, validator=_check_summary, repr=False)  # type: ignore[assignment]

    @planned.validator
    def _check_planned(self, _: object, value: int) -> None:
        if type(value) is not int:
            msg = f"planned must be an int, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)
        if not 0 <= value <= MAX_GAMES or value % 2:
            msg = f"planned must be an even number of games from the {len(self.games)} played to {MAX_GAMES:,}"
            raise InvalidValueError(f"{msg}, got {_matchdata.number(value)}")

    def __attrs_post_init__(self) -> None:
        given: MatchSummary | None = self.summary
        if self.games:
            summary = _summarize(self.games)
            if given is not None and given != summary:
                msg = f"summary must be that of the {len(self.games)} games given, or None"
                raise InvalidValueError(msg)
            object.__setattr__(self, "summary", summary)
        elif given is None or given.games < 2 or given.games % 2:
            count = 0 if given is None else given.games
            msg = f"a match has an even number of games, two for each duplicate deal, got {count}"
            raise InvalidValueError(msg + ("" if given is None else " in its summary"))
        played = self.summary.games
        if self.planned < played:
            msg = f"planned must be an even number of games from the {played} played to {MAX_GAMES:,}"
            raise InvalidValueError(f"{msg}, got {self.planned}")

    @property
    def partial(self) -> bool:
        """
        Whether the match was stopped before it played the games `planned`.
        """
        return self.summary.games < self.planned

    def without_records(self) -> MatchResult:
        """
        The same result with no game records.
        """
        return attrs.evolve(self, games=tuple(attrs.evolve(game, record=None) for game in self.games))

    def to_data(self) -> dict[str, object]:
        """
        The result as JSON data: its fields, the summary (for readers; derived again when read) and every game.

        Each game's deals are ``deal_score`` documents and its record a ``record`` document
        of `persian_rummy.serialize`.

        Raises:
            InvalidValueError: the result holds no games (the match did not keep them).
        """
        if not self.games:
            msg = "a match that kept no games (keep_games=False) is not written as JSON: its checkpoint holds its games"
            raise InvalidValueError(msg)
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": "match",
            "names": list(self.names),
            "rules": format_rules(self.rules),
            "seed": self.seed,
            "planned": self.planned,
            "partial": self.partial,
            "summary": _summary_data(self.summary),
            "games": [_game_data(game) for game in self.games],
        }

    def to_json(self) -> str:
        """
        The result as JSON text, one game per line.
        """
        data = self.to_data()
        games = data.pop("games")
        head = json.dumps(data, ensure_ascii=False)[:-1]
        lines = ",\n".join(json.dumps(game, ensure_ascii=False) for game in games)  # type: ignore[attr-defined]
        return f'{head}, "games": [\n{lines}\n]}}'

    @classmethod
    def from_data(cls, data: object) -> MatchResult:
        """
        The result written by `to_data`.

        Raises:
            InvalidDataError: *data* is not a match's result; the message says where and why.
        """
        return _read_match(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchResult:
        """
        The result written by `to_json`.

        Raises:
            InvalidDataError: *text* is not JSON, or not a match's result.
            InvalidTypeError: *text* is neither a `str` nor `bytes`.
        """
        return _read_match(_matchdata.loads(text))

    @classmethod
    def from_checkpoint(cls, path: str | os.PathLike[str]) -> MatchResult:
        """
        The result the checkpoint at *path* holds (the ``checkpoint`` of `Bounds`): every pair
        finished, each game checked as `from_json` checks it; partial until the match is whole.

        Raises:
            InvalidDataError: the file is not a match's checkpoint, or holds no pair; the message
                names the file, the line and the place in it.
            OSError: the file cannot be read.
        """
        return _read_checkpoint(_options.path_or_none(path, "path") or Path())


# -- playing ---------------------------------------------------------------------------------------------------


#: A player where a match's description needs one and none plays (a checkpoint read, a tournament's plan).
_NOBODY: Final[Player] = RandomPlayer()


@frozen
class _Match:
    """
    What every game of a match needs: sent to each worker with its share of the games.
    """

    teams: tuple[tuple[Player, Player], tuple[Player, Player]]
    names: tuple[str, str]
    rules: Rules = DEFAULT_RULES
    seed: int = 0
    records: bool = False
    limits: _workers.Limits = _workers.NO_LIMITS


class Bounds(TypedDict, total=False):
    """
    The keywords of `play_match` and `play_tournament` that bound them and keep what they played;
    each is optional.

    Attributes:
        decision_limit: The most seconds of wall clock a decision may last (none by default).
            Each player then thinks in a process of its own (where processes fork: POSIX),
            stopped by an alarm at the limit and killed a second later (the grace) if it goes
            on (catching the alarm, or busy in code that is not Python's): stopped for good, its
            seat plays the default move, the first of its legal
            actions, at every decision left in the game, and the next game starts it afresh.  A
            decision over the limit is replaced by that default move and counted in
            `GameResult.overruns`.  Elsewhere the limit is applied when the player returns.
            Results with overruns depend on the machine's speed.
        cpu_limit: The most CPU seconds a decision may take, every thread of the player counted
            (none by default): kept as *decision_limit* is, by the CPU clock of the player's
            process, which the kernel also stops (``RLIMIT_CPU``) within a second past the grace.
            A player waiting (asleep, or on a server) takes no CPU time: *decision_limit* bounds that.
        time_limit: The most seconds of wall clock the match may take, from its start (planning
            the games costs nothing).  Once over it, the match stops after the duplicate pair
            under way (one pair at least is played): on a `process_pool` the tasks under way give
            up and hand in the pairs they finished, on another executor the tasks unfinished are
            given up.  It returns the complete pairs finished from the first on, a
            `MatchResult.partial` result.
        timeout: On an executor, the seconds after which a match whose tasks are unfinished
            raises `MatchTimeoutError` (its tasks cancelled) instead of waiting for ever.
        checkpoint: A file of JSON lines (`MatchResult.from_checkpoint` reads it, *resume* takes
            it): the match's head, then a line appended for each duplicate pair as soon as it and
            all those before it are finished.  It is never written again whole, and a match
            stopped in any way (its time limit, SIGINT, an error, even ``kill -9``) leaves in it
            every pair it finished.
    """

    decision_limit: float | None
    cpu_limit: float | None
    time_limit: float | None
    timeout: float | None
    checkpoint: str | os.PathLike[str] | None


class Limits(Bounds, total=False):
    """
    The keywords of `play_match` beyond its arguments: those of `Bounds`, and *resume*.

    Attributes:
        resume: A partial result of the same match (players, rules, seed and records), or the
            path of its checkpoint, whose games are kept; the match plays on from the pair after
            its last, appending to the checkpoint when it is the same file.  The result is that
            of an uninterrupted run.
    """

    resume: MatchResult | str | os.PathLike[str] | None


def play_match(  # noqa: PLR0913
    first: Team,
    second: Team,
    games: int,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    records: bool = False,
    names: Sequence[str] | None = None,
    chunk_size: int | None = None,
    keep_games: bool = True,
    **limits: Unpack[Limits],
) -> MatchResult:
    """
    Play *games* games, in duplicate pairs, between the teams *first* and *second*.

    *first* and *second* are each a `Player` for both the team's seats, or a pair of players.
    *games* is even, two for each deck sequence, at most `MAX_GAMES`.  *rules* are those of every
    game (Persian Rummy's by default) and *seed*, an integer from 0 to 2**64 - 1, decides the match.
    *executor* is where to play (any ``concurrent.futures.Executor``: a process pool, a Dask
    client's ``get_executor()``; `None` plays here), in tasks of *chunk_size* games (whole pairs;
    by default a sixteenth of the games, 2 to 64) made as they are sent, the players and the rules
    then picklable.  *progress* is called as ``progress(finished, games)``; *records* keeps each
    game's `GameRecord`; *names* are the teams' (by default the players' class names).
    *keep_games* keeps every game in the result (at most `MAX_KEPT_GAMES`, or `MAX_KEPT_RECORDS`);
    without, the result holds its summary alone and memory does not grow with the games.  The
    *limits* are those of `Limits`.  SIGINT raises `KeyboardInterrupt`, the pairs finished checkpointed.

    Raises:
        InvalidValueError: an argument is out of range, or *resume* not of this match (or no checkpoint).
        InvalidTypeError: an argument is not of its type.
        IllegalActionError: a player chose an action that is not legal.
        PlayerError: a player raised (chained) or returned no action; with its seat, game and decision.
        MatchError: the executor failed (MatchTimeoutError: *timeout* passed).
    """
    teams = (_options.team(first, "first"), _options.team(second, "second"))
    match = _Match(teams, _options.team_names(names, first, second), _options.rules(rules), _options.seed(seed))
    plan = _options.plan(limits, _LIMITS, (executor, progress))
    match = attrs.evolve(match, records=_options.flag(records, "records"), limits=plan.limits)
    pairs, keep = _options.pair_count(games, MAX_GAMES), _options.flag(keep_games, "keep_games")
    _options.kept(games, keep=keep, records=match.records, limits=(MAX_KEPT_GAMES, MAX_KEPT_RECORDS))
    return _played(match, pairs, (executor, progress, _options.chunk(chunk_size)), plan, keep=keep)


_LIMITS: Final = frozenset(Limits.__annotations__)


def _played(  # noqa: PLR0913
    match: _Match,
    pairs: int,
    where: tuple[Executor | None, _options.Progress | None, int | None],
    plan: _options.Plan,
    *,
    keep: bool,
    stopped: Callable[[MatchResult], object] | None = None,
) -> MatchResult:
    """
    The games of *match* played, from those of the match it resumes on, into its checkpoint;
    told to *stopped*, if given, when the match raises with a pair finished.
    """
    executor, progress, per_task = where
    sink: _sink.Sink[GameResult] = _sink.Sink(2 * pairs, keep, _game_data, (progress, plan.budget))
    _resumed(plan, match, 2 * pairs, sink)
    units = range(sink.pairs, pairs)
    try:
        with _signals.watching():
            if executor is None:
                _runner.run_here(_play_span, match, units, sink.deliver)
            else:
                size = _runner.per_task(pairs - sink.pairs, per_task)
                _runner.run(
                    executor, _play_pairs, match, units, (size, 2), (sink.deliver_quietly, sink.finished), plan.budget
                )
    except BaseException as error:
        if isinstance(error, _signals.Interrupted):
            error.games = 2 * sink.pairs  # what the checkpoint holds, for the command to say
        if stopped is not None and sink.pairs:
            stopped(_result(match, 2 * pairs, sink))
        raise
    finally:
        sink.close()
    return _result(match, 2 * pairs, sink)


def _result(match: _Match, planned: int, sink: _sink.Sink[GameResult]) -> MatchResult:
    if sink.keep:  # the summary is worked out from the games
        games = sink.games
        return MatchResult(names=match.names, rules=match.rules, seed=match.seed, games=games, planned=planned)
    summary = MatchSummary(**sink.tally.fields())  # type: ignore[arg-type]  # its fields
    return MatchResult(
        names=match.names, rules=match.rules, seed=match.seed, games=(), planned=planned, summary=summary
    )


def _resumed(plan: _options.Plan, match: _Match, games: int, sink: _sink.Sink[GameResult]) -> None:
    """
    Count into *sink* the games of the match that *plan* resumes, if it is a result (or the
    checkpoint) of *match* with no more than *games* games, and open the checkpoint
    (`_checkpoint.open_for`).
    """
    resume, head = plan.resume, _checkpoint_head(match, games)
    lines: Iterator[bytes] = iter(())
    reader = None
    if isinstance(resume, MatchResult):
        lines = _result_lines(_resumable(resume, match, games), sink)
    elif resume is not None:
        reader = _checkpoint.Reader(_options.path_or_none(resume, "resume") or Path())
        lines = _checkpoint.pair_lines(reader, head, partial(_pair_of, match=match), sink.resume)
    sink.writer = _checkpoint.open_for(plan.checkpoint, head, lines, reader)


def _result_lines(kept: Sequence[GameResult], sink: _sink.Sink[GameResult]) -> Iterator[bytes]:
    """
    The checkpoint's lines of the pairs *kept*, each counted into *sink* as it is made.
    """
    for start in range(0, len(kept), 2):
        pair = kept[start : start + 2]
        sink.resume(pair)
        yield _checkpoint.pair_line(start // 2, [_game_data(game) for game in pair])


def _checkpoint_head(match: _Match, games: int) -> dict[str, object]:
    return _checkpoint.head(match.names, format_rules(match.rules), match.seed, games, records=match.records)


def _resumable(resume: MatchResult, match: _Match, games: int) -> tuple[GameResult, ...]:
    """
    The games *resume* holds, if it is a result of *match* with no more than *games* games.
    """
    mine = (match.names, format_rules(match.rules), match.seed)
    theirs = (resume.names, format_rules(resume.rules), resume.seed)
    for what, given, kept in zip(("names", "rules", "seed"), mine, theirs, strict=True):
        if given != kept:
            msg = (
                f"resume is a result of another match: its {what} are {_limits.shown(kept)}, not {_limits.shown(given)}"
            )
            raise InvalidValueError(msg)
    if not resume.games:
        msg = "resume holds no games (its match did not keep them): resume from its checkpoint, by its path"
        raise InvalidValueError(msg)
    kept = any(game.record is not None for game in resume.games)
    if len(resume.games) > games or any((game.record is not None) != match.records for game in resume.games):
        msg = f"resume holds {len(resume.games)} games, records {'kept' if kept else 'left out'}: it cannot be"
        msg += f" resumed as a match of {games} games that {'keeps' if match.records else 'leaves out'} records"
        raise InvalidValueError(msg)
    return resume.games


def _play_span(match: _Match, start: int, stop: int, deliver: _runner.Deliver[GameResult]) -> None:
    """
    Play the pairs from *start* to *stop* (excluded), each handed on as it is finished, until
    *deliver* says to stop or the match is stopped (`_signals.Stop`, the pair under way given up).
    """
    with _signals.task(), _workers.processes(match.teams, match.limits) as processes:
        try:
            for pair in range(start, stop):
                if not deliver((_play_game(match, 2 * pair, processes), _play_game(match, 2 * pair + 1, processes))):
                    return
        except _signals.Stop:
            return


def _play_pairs(match: _Match, start: int, stop: int) -> tuple[GameResult, ...]:
    """
    Both games of each pair from *start* to *stop* (excluded): the task an executor runs.  Stopped
    (SIGINT in a worker), it returns the pairs it finished.
    """
    played: list[GameResult] = []

    def keep(pair: Sequence[GameResult]) -> bool:
        played.extend(pair)
        return True

    _play_span(match, start, stop, keep)
    return tuple(played)


def _play_game(match: _Match, index: int, processes: list[list[_workers.PlayerProcess]] | None = None) -> GameResult:
    pair, second = divmod(index, 2)
    seats = _LAYOUTS[second]
    players: list[Player] = [match.teams[0][0]] * 4
    for team, (seat, opposite) in enumerate(seats):
        players[seat], players[opposite] = match.teams[team]
    deck_seed = _matchplay.derived_seed(match.seed, "deck", pair)
    seeds = _matchplay.player_seeds(match.seed, index)
    first_dealer = pair % 4
    names = [match.names[int(seat in seats[1])] for seat in range(4)]
    seated = _matchplay.Seated(
        (names[0], names[1], names[2], names[3]), match.limits, _workers.by_seat(seats, processes)
    )
    state, actions, decisions, thinking, cpu, overruns = _matchplay.playout(
        match.rules, first_dealer, players, deck_seed, seeds, index, seated
    )
    record = None
    if match.records:
        record = GameRecord(
            rules=match.rules,
            first_dealer=first_dealer,
            actions=actions,
            players=names,
            event=f"persian-rummy match, seed {_limits.shown(match.seed)}, game {index}",
        )
    # Built without checks, from values the match made and knows to be right: a game of random players
    # lasts little more than a millisecond, of which the checks would take one per cent.
    return _game_result(
        index=index,
        deck_seed=deck_seed,
        seeds=seeds,
        first_dealer=first_dealer,
        seats=seats,
        deals=state.results,
        decisions=(decisions[0], decisions[1], decisions[2], decisions[3]),
        thinking=(thinking[0], thinking[1], thinking[2], thinking[3]),
        cpu=(cpu[0], cpu[1], cpu[2], cpu[3]),
        overruns=(overruns[0], overruns[1], overruns[2], overruns[3]),
        record=record,
    )


# -- JSON ------------------------------------------------------------------------------------------------------


def _summary_data(summary: MatchSummary) -> dict[str, object]:
    return {name: _listed(value) for name, value in attrs.asdict(summary).items()}


def _listed(value: object) -> object:
    """
    *value* with its tuples, and theirs, as lists.
    """
    return [_listed(item) for item in value] if isinstance(value, tuple) else value


def _game_data(game: GameResult) -> dict[str, object]:
    return {
        "index": game.index,
        "deck_seed": game.deck_seed,
        "seeds": list(game.seeds),
        "first_dealer": game.first_dealer,
        "seats": [list(seats) for seats in game.seats],
        "winner": game.winner,
        "points": list(game.points),
        "deals": [to_data(deal) for deal in game.deals],
        "decisions": list(game.decisions),
        "thinking": list(game.thinking),
        "cpu": list(game.cpu),
        "overruns": list(game.overruns),
        "record": None if game.record is None else to_data(game.record),
    }


_MATCH_FIELDS: Final = (
    "format",
    "version",
    "kind",
    "names",
    "rules",
    "seed",
    "planned",
    "partial",
    "summary",
    "games",
)
_GAME_FIELDS: Final = (
    "index",
    "deck_seed",
    "seeds",
    "first_dealer",
    "seats",
    "winner",
    "points",
    "deals",
    "decisions",
    "thinking",
    "cpu",
    "overruns",
    "record",
)
_PER_SEAT: Final = ("seeds", "decisions", "thinking", "cpu", "overruns")
_SUMMARY_FIELDS: Final = tuple(attribute.name for attribute in attrs.fields(MatchSummary))


def _read_match(data: object) -> MatchResult:
    body = _matchdata.fields(data, "$", _MATCH_FIELDS)
    envelope = (body["format"], body["version"], body["kind"])
    if envelope != (FORMAT, VERSION, "match") or type(body["version"]) is not int:
        msg = f"$: expected format {FORMAT!r}, version {VERSION} and kind 'match', got {_limits.shown(envelope)}"
        raise InvalidDataError(msg)
    rules_text = body["rules"]
    rules = _matchdata.built("$.rules", lambda: parse_rules(rules_text))  # type: ignore[arg-type]
    _matchdata.fields(body["summary"], "$.summary", _SUMMARY_FIELDS)
    games = [_read_game(game, f"$.games[{i}]") for i, game in enumerate(_matchdata.array(body["games"], "$.games"))]
    result = _matchdata.built(
        "$",
        lambda: MatchResult(
            names=body["names"],  # type: ignore[arg-type]
            rules=rules,
            seed=body["seed"],  # type: ignore[arg-type]
            games=games,
            planned=body["planned"],  # type: ignore[arg-type]
        ),
    )
    if body["partial"] is not result.partial:
        held = f"the match holds {len(result.games)} of {result.planned} games"
        msg = f"$.partial: {held}, so partial is {str(result.partial).lower()}"
        raise InvalidDataError(msg)
    for game in result.games:
        _check_game(result, game, f"$.games[{game.index}]")
    summary = _summary_data(result.summary)
    for name, value in summary.items():
        if not _tally.same(body["summary"][name], value):  # type: ignore[index]  # an object, as checked
            msg = f"$.summary.{name}: {_limits.shown(body['summary'][name])} is not what the games give, {value!r}"  # type: ignore[index]
            raise InvalidDataError(msg)
    return result


def _check_game(result: MatchResult | _Match, game: GameResult, path: str) -> None:
    """
    Refuse *game* of *result* unless its seeds and first dealer are those the match's seed gives,
    its deals and decisions those a whole game under the rules can have, and its record, if kept,
    that of the game.
    """
    pair = game.index // 2
    derived = (_matchplay.derived_seed(result.seed, "deck", pair), _matchplay.player_seeds(result.seed, game.index))
    if (game.deck_seed, game.seeds) != derived or game.first_dealer != pair % 4:
        msg = f"{path}: deck_seed, seeds and first_dealer must be those the match's seed gives game {game.index}"
        raise InvalidDataError(f"{msg}: {derived[0]}, {list(derived[1])} and {pair % 4}")
    _matchdata.check_deals(result.rules, game.deals, f"{path}.deals")
    _matchdata.check_decisions(result.rules, len(game.deals), game.decisions, f"{path}.decisions")
    if any(over > decided for over, decided in zip(game.overruns, game.decisions, strict=True)):
        msg = f"{path}.overruns: a seat has more decisions over the limit than decisions, {list(game.overruns)}"
        raise InvalidDataError(msg)
    if game.record is not None:
        _check_record_of(result, game, f"{path}.record")


def _check_record_of(result: MatchResult | _Match, game: GameResult, path: str) -> None:
    record: GameRecord = game.record  # type: ignore[assignment]  # not None, as the caller checked
    names = tuple(result.names[int(seat in game.seats[1])] for seat in range(4))
    if (record.rules, record.first_dealer, record.players) != (result.rules, game.first_dealer, names):
        msg = f"{path}: the record's rules, first dealer and players must be the match's and the game's"
        raise InvalidDataError(msg)
    try:
        state = final_state(record)
    except PersianRummyError as error:
        raise InvalidDataError(f"{path}: {error}") from None
    decided = [0, 0, 0, 0]
    for action in record.actions:
        if type(action) is not Deal:
            decided[action.seat] += 1
    if state.phase is not Phase.GAME_OVER or state.results != game.deals or tuple(decided) != game.decisions:
        msg = f"{path}: the record is not that of the game: it must end the game with its deals and decisions"
        raise InvalidDataError(msg)


def _read_game(value: object, path: str) -> GameResult:
    body = _matchdata.fields(value, path, _GAME_FIELDS)
    deals = [
        _matchdata.document(deal, f"{path}.deals[{i}]", DealScore)
        for i, deal in enumerate(_matchdata.array(body["deals"], f"{path}.deals"))
    ]
    record = _matchdata.record(body["record"], f"{path}.record")
    seeds, decisions, thinking, cpu, overruns = (_matchdata.array(body[name], f"{path}.{name}") for name in _PER_SEAT)
    game = _matchdata.built(
        path,
        lambda: GameResult(
            index=body["index"],  # type: ignore[arg-type]
            deck_seed=body["deck_seed"],  # type: ignore[arg-type]
            seeds=seeds,  # type: ignore[arg-type]
            first_dealer=body["first_dealer"],  # type: ignore[arg-type]
            seats=body["seats"],
            deals=deals,
            decisions=decisions,  # type: ignore[arg-type]
            thinking=thinking,  # type: ignore[arg-type]
            cpu=cpu,  # type: ignore[arg-type]
            overruns=overruns,  # type: ignore[arg-type]
            record=record,
        ),
    )
    if (body["winner"], body["points"]) != (game.winner, list(game.points)):
        msg = f"{path}: winner and points must be those of the deals, {game.winner} and {list(game.points)}"
        raise InvalidDataError(msg)
    return game


def _pair_of(data: object, number: int, where: str, *, match: _Match) -> tuple[GameResult, GameResult]:
    """
    The games of pair *number* of *match*, from its line *data* of a checkpoint (*where* names it).
    """
    body = _matchdata.fields(data, where, ("pair", "games"))
    games = _matchdata.array(body["games"], f"{where}: $.games")
    if body["pair"] != number or len(games) != 2:
        msg = f"{where}: expected pair {number}, with its two games"
        raise InvalidDataError(msg)
    pair = (_read_game(games[0], f"{where}: $.games[0]"), _read_game(games[1], f"{where}: $.games[1]"))
    for second, game in enumerate(pair):
        if (game.index, game.seats, game.record is not None) != (2 * number + second, _LAYOUTS[second], match.records):
            msg = (
                f"{where}: $.games[{second}] must be game {2 * number + second} of the match, seats {_LAYOUTS[second]}"
            )
            raise InvalidDataError(msg + (", with its record" if match.records else ", without a record"))
        _check_game(match, game, f"{where}: $.games[{second}]")
    return pair


def _read_checkpoint(path: Path) -> MatchResult:
    """
    The result the checkpoint at *path* holds.
    """
    with _checkpoint.Reader(path) as reader:
        return _read_checkpoint_of(reader, path)


def _read_checkpoint_of(reader: _checkpoint.Reader, path: Path) -> MatchResult:
    body = _matchdata.fields(reader.head, f"{path}: line 1", _checkpoint.HEAD_FIELDS)
    rules_text = body["rules"]
    rules = _matchdata.built(f"{path}: line 1: $.rules", lambda: parse_rules(rules_text))  # type: ignore[arg-type]
    match = _matchdata.built(
        f"{path}: line 1",
        lambda: _Match(((_NOBODY, _NOBODY), (_NOBODY, _NOBODY)), body["names"], rules, body["seed"], body["records"]),  # type: ignore[arg-type]
    )
    games: list[GameResult] = []
    for _ in _checkpoint.pair_lines(
        reader, {**reader.head, "planned": MAX_GAMES}, partial(_pair_of, match=match), games.extend
    ):
        pass
    if not games:
        msg = f"{path}: the checkpoint holds no duplicate pair finished"
        raise InvalidDataError(msg)
    return _matchdata.built(
        str(path),
        lambda: MatchResult(names=match.names, rules=rules, seed=match.seed, games=games, planned=body["planned"]),  # type: ignore[arg-type]
    )


# -- tournaments -----------------------------------------------------------------------------------------------

#: The most players of a tournament.
MAX_PLAYERS: Final = 32


def _player_names(value: Iterable[str]) -> tuple[str, ...]:
    raw: object = value
    items = tuple(raw) if isinstance(raw, Iterable) and not isinstance(raw, str) else None
    if items is None or not 2 <= len(items) <= MAX_PLAYERS:
        msg = f"a tournament has 2 to {MAX_PLAYERS} players, got {_limits.shown(value)}"
        raise InvalidValueError(msg)
    for first, second in itertools.combinations(items, 2):
        _matchdata.names((first, second))
        if first == second:
            msg = f"a tournament's players have names of their own, got {first!r} twice"
            raise InvalidValueError(msg)
    return items


def _match_list(value: Iterable[MatchResult]) -> tuple[MatchResult, ...]:
    raw: object = value
    if not isinstance(raw, Iterable) or isinstance(raw, str):
        msg = f"matches must be MatchResult values, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return tuple(raw)  # checked one by one by the validator


def pairings(players: int) -> list[tuple[int, int]]:
    """
    The matches of a round robin of *players* players, in the order they are played.

    >>> pairings(3)
    [(0, 1), (0, 2), (1, 2)]

    Raises:
        InvalidValueError: *players* is not from 2 to `MAX_PLAYERS`.
        InvalidTypeError: *players* is not an `int`.
    """
    if type(players) is not int:
        msg = f"players must be an int, got {_limits.shown(players)}"
        raise InvalidTypeError(msg)
    if not 2 <= players <= MAX_PLAYERS:
        msg = f"a tournament has 2 to {MAX_PLAYERS} players, got {players}"
        raise InvalidValueError(msg)
    return list(itertools.combinations(range(players), 2))


@frozen
class TournamentResult:
    """
    The matches of a round robin: every pair of players on the same duplicate deals.

    Attributes:
        names: The players' names, in the order given.
        games: The games of each match.
        matches: The matches played, in the order of `pairings`: the match of players *i* and
            *j* (*i* before *j*) has them as its first and second team.  A stopped tournament
            holds fewer, the last of them maybe partial.

    Raises:
        InvalidValueError: the matches are not those of the players' pairings, in order, each
            of *games* games, with the same rules and seed.
    """

    names: tuple[str, ...] = field(converter=_player_names)
    games: int = field()
    matches: tuple[MatchResult, ...] = field(converter=_match_list, repr=lambda matches: f"<{len(matches)} matches>")

    @matches.validator
    def _check_matches(self, _: object, value: tuple[MatchResult, ...]) -> None:
        order = pairings(len(self.names))
        if len(value) > len(order) or any(type(match) is not MatchResult for match in value):
            msg = f"a tournament of {len(self.names)} players has up to {len(order)} MatchResult values"
            raise InvalidValueError(msg)
        for number, (match, (first, second)) in enumerate(zip(value, order, strict=False)):
            expected = (self.names[first], self.names[second])
            same = (match.rules, match.seed) == (value[0].rules, value[0].seed)
            if match.names != expected or match.planned != self.games or not same:
                msg = f"match {number} must be {expected[0]!r} against {expected[1]!r}, {self.games} games"
                raise InvalidValueError(msg + ", with the rules and seed of the others")
            if match.partial and number != len(value) - 1:
                msg = f"match {number} is partial, but not the last played"
                raise InvalidValueError(msg)

    @property
    def partial(self) -> bool:
        """
        Whether the tournament was stopped before it played every match whole.
        """
        return len(self.matches) < len(pairings(len(self.names))) or any(match.partial for match in self.matches)

    def cross_table(self) -> list[list[tuple[float, tuple[float, float]] | None]]:
        """
        The score rate of each player (row) against each other (column), with its Wilson 95%
        interval; `None` on the diagonal and for matches not played.
        """
        table: list[list[tuple[float, tuple[float, float]] | None]] = [[None] * len(self.names) for _ in self.names]
        for match, (first, second) in zip(self.matches, pairings(len(self.names)), strict=False):
            summary = match.summary
            low, high = summary.score_interval
            table[first][second] = (summary.score_rate, (low, high))
            table[second][first] = (1 - summary.score_rate, (1 - high, 1 - low))
        return table

    def ratings(
        self, *, resamples: int = _ratings.RESAMPLES, seed: int = 0, prior: float = _ratings.PRIOR
    ) -> list[Rating | None]:
        """
        Each player's `Rating`, `None` for a player who played no game: a Bradley-Terry model
        fitted to all the games at once, a draw half a win, on the Elo scale, the ratings averaging
        0, with each two players who met credited with *prior* drawn games; and its 95% bootstrap
        interval over *resamples* resamples of each match's duplicate pairs, drawn from a
        ``random.Random`` of *seed* (docs/matches.md says what the numbers mean).  The order of
        the matches and of their games does not count.

        Raises:
            InvalidValueError: an argument out of range, or with ``prior=0`` a rating at infinity.
            InvalidTypeError: an argument not of its type.
        """
        return _ratings.ratings(len(self.names), _contests(self), resamples=resamples, seed=seed, prior=prior)

    def to_data(self) -> dict[str, object]:
        """
        The result as JSON data: its fields, whether it is partial, each player's rating without its
        interval (for readers; checked when read) and each match as `MatchResult.to_data` writes it.
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": "tournament",
            "names": list(self.names),
            "games": self.games,
            "partial": self.partial,
            "ratings": _ratings.fitted(len(self.names), _contests(self)),
            "matches": [match.to_data() for match in self.matches],
        }

    def to_json(self) -> str:
        """
        The result as JSON text.
        """
        return json.dumps(self.to_data(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> TournamentResult:
        """
        The result written by `to_json`, refused if it contradicts itself.

        Raises:
            InvalidDataError: *text* is not JSON, or not a tournament's result; the message says where and why.
        """
        return _read_tournament(_matchdata.loads(text))


def _contests(result: TournamentResult) -> list[_ratings.Match]:
    """
    Each match of *result*: its players' numbers and the winner of each of its games, for the ratings.
    """
    order = pairings(len(result.names))
    return [(*order[number], [game.winner for game in match.games]) for number, match in enumerate(result.matches)]


_TOURNAMENT_FIELDS: Final = ("format", "version", "kind", "names", "games", "partial", "ratings", "matches")


def _read_tournament(data: object) -> TournamentResult:
    body = _matchdata.fields(data, "$", _TOURNAMENT_FIELDS)
    if (body["format"], body["version"], body["kind"]) != (FORMAT, VERSION, "tournament"):
        msg = f"$: expected format {FORMAT!r}, version {VERSION} and kind 'tournament'"
        raise InvalidDataError(msg)
    matches = [
        _matchdata.built(f"$.matches[{i}]", lambda match=match: _read_match(match))  # type: ignore[misc]
        for i, match in enumerate(_matchdata.array(body["matches"], "$.matches"))
    ]
    result = _matchdata.built(
        "$",
        lambda: TournamentResult(names=body["names"], games=body["games"], matches=matches),  # type: ignore[arg-type]
    )
    if body["partial"] is not result.partial or not _ratings.agree(
        body["ratings"], _ratings.fitted(len(result.names), _contests(result))
    ):
        msg = "$: partial and ratings must be those the matches give"
        raise InvalidDataError(msg)
    return result


def play_tournament(  # noqa: PLR0913
    players: Mapping[str, Player],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    chunk_size: int | None = None,
    resume: TournamentResult | None = None,
    **limits: Unpack[Bounds],
) -> TournamentResult:
    """
    A round robin between *players* (by name): a match of *games* games between every two, in the
    order of `pairings`, all on the same duplicate deals (the same *seed*), one after the other on
    the same *executor*.  *progress* is told the games finished and those of the whole tournament.
    Every game is kept (for the ratings): at most `MAX_KEPT_GAMES` in all.

    The *limits* are those of `Bounds`, for the whole tournament: *time_limit* bounds all of it
    (the match under way when it is spent is kept partial); *checkpoint* is written whole after
    each match and when the tournament is stopped in any way, with the pairs finished of the match
    under way; *resume* is a partial `TournamentResult` of the same players and games.

    Raises:
        InvalidValueError: fewer than 2 or more than 32 players, or another argument out of range.
        InvalidTypeError: a player is not a `Player`.
    """
    names = _player_names(players)
    plan, match = _tournament_plan(len(names), games, (rules, seed), (executor, progress), limits)
    kept = _resumed_tournament(resume, names, games, (match.rules, match.seed))
    saver = _TournamentSaver(plan.checkpoint, names, games)
    matches = list(kept)
    how = (match, executor, _options.chunk(chunk_size))
    try:
        _round_robin(players, (names, games // 2), how, (plan, progress, kept), matches, saver)
    except BaseException:
        saver.save(matches)
        raise
    return TournamentResult(names=names, games=games, matches=matches)


def _tournament_plan(
    players: int,
    games: int,
    deals: tuple[Rules | None, int],
    how: tuple[Executor | None, _options.Progress | None],
    limits: Mapping[str, object],
) -> tuple[_options.Plan, _Match]:
    """
    The plan of a tournament of *players* players and *games* games a match, and what its matches share.
    """
    plan = _options.plan(limits, _BOUNDS, how)
    _options.pair_count(games, MAX_GAMES)
    matches = len(pairings(players))
    if matches * games > MAX_KEPT_GAMES:
        msg = f"a tournament keeps every game of its matches, at most {MAX_KEPT_GAMES:,} in all: got {matches}"
        raise InvalidValueError(f"{msg} matches of {games:,} games")
    rules, seed = deals
    match = _Match(((_NOBODY, _NOBODY), (_NOBODY, _NOBODY)), ("-", "-"), _options.rules(rules), _options.seed(seed))
    return plan, attrs.evolve(match, limits=plan.limits)


_BOUNDS: Final = frozenset(Bounds.__annotations__)


def _round_robin(  # noqa: PLR0913
    players: Mapping[str, Player],
    sizes: tuple[tuple[str, ...], int],
    how: tuple[_Match, Executor | None, int | None],
    plans: tuple[_options.Plan, _matchplay.Progress | None, tuple[MatchResult, ...]],
    matches: list[MatchResult],
    saver: _TournamentSaver,
) -> None:
    """
    Play the tournament's matches not kept whole into *matches*, saving it after each (a match
    stopped by an error or a signal put in with the pairs it finished); stop after a partial one.
    """
    names, pairs = sizes
    match, executor, per_task = how
    plan, progress, kept = plans
    total = len(pairings(len(names))) * 2 * pairs
    for number, (first, second) in enumerate(pairings(len(names))):
        if number < len(kept) and not kept[number].partial:
            continue
        one, other = players[names[first]], players[names[second]]
        named = attrs.evolve(match, teams=((one, one), (other, other)), names=(names[first], names[second]))
        told = None if progress is None else _offset(progress, number * 2 * pairs, total)
        matches[number:] = []
        result = _played(
            named,
            pairs,
            (executor, told, per_task),
            attrs.evolve(plan, resume=kept[number] if number < len(kept) else None, checkpoint=None),
            keep=True,
            stopped=matches.append,
        )
        matches[number:] = [result]
        saver.save(matches)
        if result.partial:
            return


def _offset(progress: Callable[[int, int], object], before: int, total: int) -> Callable[[int, int], None]:
    def told(finished: int, _: int) -> None:
        progress(before + finished, total)

    return told


def _resumed_tournament(
    resume: object, names: tuple[str, ...], games: int, how: tuple[Rules, int]
) -> tuple[MatchResult, ...]:
    """
    The matches *resume* holds, if it is a `TournamentResult` of these players, games, rules and seed.
    """
    if resume is None:
        return ()
    if type(resume) is not TournamentResult:
        msg = f"resume must be a TournamentResult or None, got {_limits.shown(resume)}"
        raise InvalidTypeError(msg)
    if (resume.names, resume.games) != (names, games) or any(
        (match.rules, match.seed) != how for match in resume.matches
    ):
        msg = "resume is a result of another tournament: its players, games, rules or seed differ"
        raise InvalidValueError(msg)
    return resume.matches


class _TournamentSaver:
    """
    A tournament's checkpoint, written whole, atomically.
    """

    def __init__(self, path: Path | None, names: tuple[str, ...], games: int) -> None:
        self.path, self.names, self.games = path, names, games

    def save(self, matches: Sequence[MatchResult]) -> None:
        if self.path is None or not matches:
            return
        text = TournamentResult(names=self.names, games=self.games, matches=matches).to_json() + "\n"
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(self.path)
