"""
One game of a match: its result (`GameResult`), its JSON data written and read back, and the
checks that hold a game read to its match: the seeds and first dealer the match's seed gives it,
the deals and decisions its rules allow, and its record, if kept, that of the game.
"""

from __future__ import annotations

from functools import partial
from typing import Final, Protocol

from attrs import field, frozen

from .._internal import arguments as _arguments
from ..actions import Deal
from ..exceptions import InvalidDataError, PersianRummyError
from ..records import GameRecord, final_state
from ..rules import Rules
from ..scoring import DealScore
from ..serialize import to_data
from ..state import Phase
from . import _checks
from . import _play as _matchplay


def _check_index(_: object, __: object, value: int) -> None:
    _checks.count(value, "index")


def _check_deck_seed(_: object, __: object, value: int) -> None:
    _checks.seed(value, "deck_seed")


def _check_dealer(_: object, __: object, value: int) -> None:
    _arguments.seat(value, "first_dealer")


def _check_record(_: object, __: object, value: GameRecord | None) -> None:
    _arguments.expect(value, (GameRecord, type(None)), "record", "a GameRecord or None")


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
    seeds: tuple[int, int, int, int] = field(converter=_checks.seeds)
    first_dealer: int = field(validator=_check_dealer)
    seats: tuple[tuple[int, int], tuple[int, int]] = field(converter=_checks.layout)
    deals: tuple[DealScore, ...] = field(converter=_checks.deal_scores)
    decisions: tuple[int, int, int, int] = field(converter=_checks.decisions)
    thinking: tuple[float, float, float, float] = field(converter=_checks.thinking, eq=False)
    cpu: tuple[float, float, float, float] = field(default=(0.0, 0.0, 0.0, 0.0), converter=_checks.cpu, eq=False)
    overruns: tuple[int, int, int, int] = field(default=(0, 0, 0, 0), converter=_checks.overruns)
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


class Described(Protocol):
    """
    What the checks of a game read of its match: a `persian_rummy.matches.MatchResult`, the match
    being played, or the head of its checkpoint.
    """

    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...


# -- JSON ------------------------------------------------------------------------------------------------------


def game_data(game: GameResult) -> dict[str, object]:
    """
    *game* as JSON data: its fields, its winner and points (for readers; checked when read), each
    deal a ``deal_score`` document and the record a ``record`` document of `persian_rummy.serialize`.
    """
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


#: The fields of a game's JSON data, in order.
GAME_FIELDS: Final = (
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


def read_game(value: object, path: str) -> GameResult:
    """
    The game whose JSON data *value*, at *path*, is, refused with an `InvalidDataError` that
    names the place when it is not one or its winner and points are not those of its deals.
    """
    body = _checks.fields(value, path, GAME_FIELDS)
    deals = [
        _checks.document(deal, f"{path}.deals[{i}]", DealScore)
        for i, deal in enumerate(_checks.array(body["deals"], f"{path}.deals"))
    ]
    record = _checks.record(body["record"], f"{path}.record")
    for name in _PER_SEAT:
        _checks.array(body[name], f"{path}.{name}")
    game = _checks.built(path, partial(_game_of, body, deals, record))
    if (body["winner"], body["points"]) != (game.winner, list(game.points)):
        msg = f"{path}: winner and points must be those of the deals, {game.winner} and {list(game.points)}"
        raise InvalidDataError(msg)
    return game


def _game_of(body: dict[str, object], deals: list[DealScore], record: GameRecord | None) -> GameResult:
    """
    The game whose fields *body* holds, its *deals* and *record* read: each field taken as
    `GameResult` checks it, and in the same order (its converters, then its validators), so
    that the field named wrong is the first of them.
    """
    return GameResult(
        seeds=_checks.per_seat(body["seeds"], "seeds", _checks.seed),
        seats=_checks.layout(body["seats"]),
        deals=_checks.deal_scores(deals),
        decisions=_checks.per_seat(body["decisions"], "decisions", _checks.count),
        thinking=_checks.per_seat(body["thinking"], "thinking", _checks.seconds),
        cpu=_checks.per_seat(body["cpu"], "cpu", _checks.seconds),
        overruns=_checks.per_seat(body["overruns"], "overruns", _checks.count),
        index=_checks.count(body["index"], "index"),
        deck_seed=_checks.seed(body["deck_seed"], "deck_seed"),
        first_dealer=_arguments.seat(body["first_dealer"], "first_dealer"),
        record=record,
    )


def check_game(match: Described, game: GameResult, path: str) -> None:
    """
    Refuse *game* of *match* unless its seeds and first dealer are those the match's seed gives,
    its deals and decisions those a whole game under the rules can have, and its record, if kept,
    that of the game.
    """
    pair = game.index // 2
    derived = (_matchplay.derived_seed(match.seed, "deck", pair), _matchplay.player_seeds(match.seed, game.index))
    if (game.deck_seed, game.seeds) != derived or game.first_dealer != pair % 4:
        msg = f"{path}: deck_seed, seeds and first_dealer must be those the match's seed gives game {game.index}"
        raise InvalidDataError(f"{msg}: {derived[0]}, {list(derived[1])} and {pair % 4}")
    _checks.check_deals(match.rules, game.deals, f"{path}.deals")
    _checks.check_decisions(match.rules, len(game.deals), game.decisions, f"{path}.decisions")
    if any(over > decided for over, decided in zip(game.overruns, game.decisions, strict=True)):
        msg = f"{path}.overruns: a seat has more decisions over the limit than decisions, {list(game.overruns)}"
        raise InvalidDataError(msg)
    if game.record is not None:
        _check_record_of(match, game, game.record, f"{path}.record")


def _check_record_of(match: Described, game: GameResult, record: GameRecord, path: str) -> None:
    """
    Refuse *record*, kept with *game*, unless it is that of the game, played by *match*'s teams.
    """
    names = tuple(match.names[int(seat in game.seats[1])] for seat in range(4))
    if (record.rules, record.first_dealer, record.players) != (match.rules, game.first_dealer, names):
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
