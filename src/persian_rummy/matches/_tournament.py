"""
Tournaments: a round robin of matches between every two players, all on the same duplicate
deals (`pairings` gives their order); its result (`TournamentResult`), with each player's score
against each other and rating, written as JSON and read back; and `play_tournament`, which plays
the matches one after the other, saving the result after each, and resumes a partial one.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Final, Unpack

import attrs
from attrs import field, frozen

from .. import limits as _limits
from ..bots.players import Player, RandomPlayer
from ..exceptions import InvalidDataError, InvalidTypeError, InvalidValueError
from ..rules import Rules
from ..serialize import FORMAT, VERSION
from . import _checks, _match, _options, _ratings, _results
from ._match import Bounds
from ._ratings import Rating
from ._results import MatchResult

#: The most players of a tournament (`persian_rummy.matches.MAX_PLAYERS`).
MAX_PLAYERS: Final = 32

#: A player where a match's description needs one and none plays: the tournament's plan.
_NOBODY: Final[Player] = RandomPlayer()


def _player_names(value: Iterable[str]) -> tuple[str, ...]:
    return _player_names_of(value)


def _player_names_of(value: object) -> tuple[str, ...]:
    """
    *value*, the players' names: 2 to `MAX_PLAYERS` names of teams, no two the same.
    """
    items = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else None
    if items is None or not 2 <= len(items) <= MAX_PLAYERS:
        msg = f"a tournament has 2 to {MAX_PLAYERS} players, got {_limits.shown(value)}"
        raise InvalidValueError(msg)
    for first, second in itertools.combinations(items, 2):
        _checks.names_of((first, second))
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
        return _read_tournament(_checks.loads(text))


def _contests(result: TournamentResult) -> list[_ratings.Match]:
    """
    Each match of *result*: its players' numbers and the winner of each of its games, for the ratings.
    """
    order = pairings(len(result.names))
    return [(*order[number], [game.winner for game in match.games]) for number, match in enumerate(result.matches)]


_TOURNAMENT_FIELDS: Final = ("format", "version", "kind", "names", "games", "partial", "ratings", "matches")


def _read_tournament(data: object) -> TournamentResult:
    body = _checks.fields(data, "$", _TOURNAMENT_FIELDS)
    if (body["format"], body["version"], body["kind"]) != (FORMAT, VERSION, "tournament"):
        msg = f"$: expected format {FORMAT!r}, version {VERSION} and kind 'tournament'"
        raise InvalidDataError(msg)
    matches = [
        _checks.built(f"$.matches[{i}]", partial(_results.read_match, match))
        for i, match in enumerate(_checks.array(body["matches"], "$.matches"))
    ]
    result = _checks.built("$", partial(_tournament_of, body, matches))
    if body["partial"] is not result.partial or not _ratings.agree(
        body["ratings"], _ratings.fitted(len(result.names), _contests(result))
    ):
        msg = "$: partial and ratings must be those the matches give"
        raise InvalidDataError(msg)
    return result


def _tournament_of(body: dict[str, object], matches: Sequence[MatchResult]) -> TournamentResult:
    """
    The result whose fields *body* holds, its *matches* read: each field taken as
    `TournamentResult` checks it, and in the same order.
    """
    names = _player_names_of(body["names"])
    return TournamentResult(names=names, games=_checks.integer(body["games"], "games"), matches=matches)


# -- playing ---------------------------------------------------------------------------------------------------


@frozen
class _RoundRobin:
    """
    What the matches of a tournament share: the players' names, the duplicate pairs of each
    match, the match their pairings fill in (its rules, seed and limits), the plan each match
    starts from, and the matches of the tournament resumed.
    """

    names: tuple[str, ...]
    pairs: int
    match: _match.Match
    plan: _options.Plan
    kept: tuple[MatchResult, ...]


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
    plan = _options.plan(_match.keywords(limits, _match.BOUNDS), executor, progress)
    match = attrs.evolve(_shared(len(names), games, rules, seed), limits=plan.limits)
    kept = _resumed_tournament(resume, names, games, match)
    saver = _TournamentSaver(plan.checkpoint, names, games)
    matches = list(kept)
    robin = _RoundRobin(names, games // 2, match, attrs.evolve(plan, per_task=_options.chunk(chunk_size)), kept)
    try:
        _round_robin(players, robin, matches, saver)
    except BaseException:
        saver.save(matches)
        raise
    return TournamentResult(names=names, games=games, matches=matches)


def _shared(players: int, games: int, rules: Rules | None, seed: int) -> _match.Match:
    """
    What the matches of a tournament of *players* players and *games* games a match share, but the
    limits of a decision: its *rules* and *seed*.
    """
    _options.pair_count(games)
    matches = len(pairings(players))
    if matches * games > _options.MAX_KEPT_GAMES:
        msg = f"a tournament keeps every game of its matches, at most {_options.MAX_KEPT_GAMES:,} in all: got"
        raise InvalidValueError(f"{msg} {matches} matches of {games:,} games")
    return _match.Match(
        ((_NOBODY, _NOBODY), (_NOBODY, _NOBODY)), ("-", "-"), _options.rules(rules), _options.seed(seed)
    )


def _round_robin(
    players: Mapping[str, Player], robin: _RoundRobin, matches: list[MatchResult], saver: _TournamentSaver
) -> None:
    """
    Play the tournament's matches not kept whole into *matches*, saving it after each (a match
    stopped by an error or a signal put in with the pairs it finished); stop after a partial one.
    """
    names, pairs, kept, progress = robin.names, robin.pairs, robin.kept, robin.plan.progress
    total = len(pairings(len(names))) * 2 * pairs
    for number, (first, second) in enumerate(pairings(len(names))):
        if number < len(kept) and not kept[number].partial:
            continue
        one, other = players[names[first]], players[names[second]]
        named = attrs.evolve(robin.match, teams=((one, one), (other, other)), names=(names[first], names[second]))
        told = None if progress is None else _offset(progress, number * 2 * pairs, total)
        resumed = kept[number] if number < len(kept) else None
        matches[number:] = []
        plan = attrs.evolve(robin.plan, progress=told, resume=resumed, checkpoint=None)
        result = _match.played(named, pairs, plan, keep=True, stopped=matches.append)
        matches[number:] = [result]
        saver.save(matches)
        if result.partial:
            return


def _offset(progress: Callable[[int, int], object], before: int, total: int) -> Callable[[int, int], None]:
    def told(finished: int, _: int) -> None:
        progress(before + finished, total)

    return told


def _resumed_tournament(
    resume: object, names: tuple[str, ...], games: int, match: _match.Match
) -> tuple[MatchResult, ...]:
    """
    The matches *resume* holds, if it is a `TournamentResult` of these players and games, and of
    the rules and seed of *match*.
    """
    if resume is None:
        return ()
    if type(resume) is not TournamentResult:
        msg = f"resume must be a TournamentResult or None, got {_limits.shown(resume)}"
        raise InvalidTypeError(msg)
    if (resume.names, resume.games) != (names, games) or any(
        (played.rules, played.seed) != (match.rules, match.seed) for played in resume.matches
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
