"""
A match's result: its games (`persian_rummy.matches.GameResult`) and its summary (`MatchSummary`)
in a `MatchResult`, written as JSON and read back, from that JSON or from the match's checkpoint.

A result read is refused, with an `InvalidDataError` that says where, when it contradicts itself:
each game is checked against the match's seed and rules (`_game.check_game`), and the summary
written for readers against the one its games give.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Final

import attrs
from attrs import field, frozen

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..exceptions import InvalidDataError, InvalidTypeError, InvalidValueError
from ..notation import format_rules
from ..rules import Rules
from ..serialize import FORMAT, VERSION
from . import _checkpoint, _checks, _game, _options, _tally
from ._game import GameResult

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


def summary_of(tally: _tally.Tally) -> MatchSummary:
    """
    The summary of the games *tally* counted.
    """
    return MatchSummary(**tally.fields())


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
        if game.seats != _checks.LAYOUTS[number % 2] or (game.deck_seed, game.first_dealer) != (
            first.deck_seed,
            first.first_dealer,
        ):
            msg = f"game {number} is not the duplicate of game {first.index}: same decks and dealer, teams swapped"
            raise InvalidValueError(msg)
    return games


def _check_rules(_: object, __: object, value: Rules) -> None:
    _arguments.expect(value, Rules, "rules", "a Rules")


def match_seed(value: object) -> int:
    """
    *value*, a match's seed, if it is an `int` from 0 to 2**64 - 1.
    """
    if type(value) is not int:
        msg = f"seed must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value < _options.SEED_LIMIT:
        msg = f"seed must be from 0 to 2**64 - 1, got {_checks.number(value)}"
        raise InvalidValueError(msg)
    return value


def _check_match_seed(_: object, __: object, value: int) -> None:
    match_seed(value)


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

    names: tuple[str, str] = field(converter=_checks.names)
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
        if not 0 <= value <= _options.MAX_GAMES or value % 2:
            msg = f"planned must be an even number of games from the {len(self.games)} played to {_options.MAX_GAMES:,}"
            raise InvalidValueError(f"{msg}, got {_checks.number(value)}")

    def __attrs_post_init__(self) -> None:
        given: MatchSummary | None = self.summary
        if self.games:
            summary = summary_of(_tally.Tally().add_all(self.games))
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
            msg = f"planned must be an even number of games from the {played} played to {_options.MAX_GAMES:,}"
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
        return {**_head_data(self), "games": [_game.game_data(game) for game in self.games]}

    def to_json(self) -> str:
        """
        The result as JSON text, one game per line.
        """
        head = json.dumps(_head_data(self), ensure_ascii=False)[:-1]
        lines = ",\n".join(json.dumps(_game.game_data(game), ensure_ascii=False) for game in self.games)
        return f'{head}, "games": [\n{lines}\n]}}'

    @classmethod
    def from_data(cls, data: object) -> MatchResult:
        """
        The result written by `to_data`.

        Raises:
            InvalidDataError: *data* is not a match's result; the message says where and why.
        """
        return read_match(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchResult:
        """
        The result written by `to_json`.

        Raises:
            InvalidDataError: *text* is not JSON, or not a match's result.
            InvalidTypeError: *text* is neither a `str` nor `bytes`.
        """
        return read_match(_checks.loads(text))

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


# -- JSON ------------------------------------------------------------------------------------------------------


def _head_data(result: MatchResult) -> dict[str, object]:
    """
    The JSON data of *result* but its games, the summary written for readers.
    """
    if not result.games:
        msg = "a match that kept no games (keep_games=False) is not written as JSON: its checkpoint holds its games"
        raise InvalidValueError(msg)
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "match",
        "names": list(result.names),
        "rules": format_rules(result.rules),
        "seed": result.seed,
        "planned": result.planned,
        "partial": result.partial,
        "summary": _summary_data(result.summary),
    }


def _summary_data(summary: MatchSummary) -> dict[str, object]:
    return {name: _listed(value) for name, value in attrs.asdict(summary).items()}


def _listed(value: object) -> object:
    """
    *value* with its tuples, and theirs, as lists.
    """
    return [_listed(item) for item in value] if isinstance(value, tuple) else value


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
_SUMMARY_FIELDS: Final = tuple(attribute.name for attribute in attrs.fields(MatchSummary))


def read_match(data: object) -> MatchResult:
    """
    The result whose JSON data *data* is, refused with an `InvalidDataError` that names the place
    when it is not one or contradicts itself.
    """
    body = _checks.fields(data, "$", _MATCH_FIELDS)
    envelope = (body["format"], body["version"], body["kind"])
    if envelope != (FORMAT, VERSION, "match") or type(body["version"]) is not int:
        msg = f"$: expected format {FORMAT!r}, version {VERSION} and kind 'match', got {_limits.shown(envelope)}"
        raise InvalidDataError(msg)
    rules = _checks.rules(body["rules"], "$.rules")
    given = _checks.fields(body["summary"], "$.summary", _SUMMARY_FIELDS)
    games = [_game.read_game(game, f"$.games[{i}]") for i, game in enumerate(_checks.array(body["games"], "$.games"))]
    result = _checks.built("$", partial(_match_of, body, rules, games))
    if body["partial"] is not result.partial:
        held = f"the match holds {len(result.games)} of {result.planned} games"
        msg = f"$.partial: {held}, so partial is {str(result.partial).lower()}"
        raise InvalidDataError(msg)
    for game in result.games:
        _game.check_game(result, game, f"$.games[{game.index}]")
    for name, value in _summary_data(result.summary).items():
        if not _tally.same(given[name], value):
            msg = f"$.summary.{name}: {_limits.shown(given[name])} is not what the games give, {value!r}"
            raise InvalidDataError(msg)
    return result


def _match_of(body: dict[str, object], rules: Rules, games: Sequence[GameResult]) -> MatchResult:
    """
    The result whose fields *body* holds, its *rules* and *games* read: each field taken as
    `MatchResult` checks it, and in the same order (its converters, then its validators).
    """
    names = _checks.names_of(body["names"])
    kept = _games(games)
    seed = match_seed(body["seed"])
    planned = _checks.integer(body["planned"], "planned")
    return MatchResult(names=names, rules=rules, seed=seed, games=kept, planned=planned)


# -- checkpoints -----------------------------------------------------------------------------------------------


@frozen
class _Head:
    """
    A match as the first line of its checkpoint gives it: the teams' names, the rules, the seed,
    and whether its games keep their records.
    """

    names: tuple[str, str]
    rules: Rules
    seed: int
    records: bool


def pair_of(
    data: object, number: int, where: str, *, match: _game.Described, records: bool
) -> tuple[GameResult, GameResult]:
    """
    The games of pair *number* of *match*, from its line *data* of a checkpoint (*where* names
    it), with their records or without as *records* says.
    """
    body = _checks.fields(data, where, ("pair", "games"))
    games = _checks.array(body["games"], f"{where}: $.games")
    if body["pair"] != number or len(games) != 2:
        msg = f"{where}: expected pair {number}, with its two games"
        raise InvalidDataError(msg)
    pair = (_game.read_game(games[0], f"{where}: $.games[0]"), _game.read_game(games[1], f"{where}: $.games[1]"))
    for second, game in enumerate(pair):
        layout = _checks.LAYOUTS[second]
        if (game.index, game.seats, game.record is not None) != (2 * number + second, layout, records):
            msg = f"{where}: $.games[{second}] must be game {2 * number + second} of the match, seats {layout}"
            raise InvalidDataError(msg + (", with its record" if records else ", without a record"))
        _game.check_game(match, game, f"{where}: $.games[{second}]")
    return pair


def _read_checkpoint(path: Path) -> MatchResult:
    """
    The result the checkpoint at *path* holds.
    """
    with _checkpoint.Reader(path) as reader:
        return _read_checkpoint_of(reader, path)


def _read_checkpoint_of(reader: _checkpoint.Reader, path: Path) -> MatchResult:
    body = _checks.fields(reader.head, f"{path}: line 1", _checkpoint.HEAD_FIELDS)
    rules = _checks.rules(body["rules"], f"{path}: line 1: $.rules")
    head = _checks.built(f"{path}: line 1", partial(_head_of, body, rules))
    games: list[GameResult] = []
    read = partial(pair_of, match=head, records=head.records)
    for _ in _checkpoint.pair_lines(reader, reader.head, _options.MAX_GAMES, read, games.extend):
        pass
    if not games:
        msg = f"{path}: the checkpoint holds no duplicate pair finished"
        raise InvalidDataError(msg)
    return _checks.built(
        str(path),
        lambda: MatchResult(
            names=head.names,
            rules=rules,
            seed=head.seed,
            games=games,
            planned=_checks.integer(body["planned"], "planned"),
        ),
    )


def _head_of(body: dict[str, object], rules: Rules) -> _Head:
    """
    The match whose checkpoint's first line has the fields *body*, its *rules* read.
    """
    names = _checks.names_of(body["names"])
    return _Head(names, rules, match_seed(body["seed"]), _options.flag(body["records"], "records"))
