"""
The checks of the fields of a match's results, and the pieces of their JSON reader.

The checks of the fields raise `InvalidTypeError` and `InvalidValueError`; the reader raises
`InvalidDataError` with the path of the problem (``$.games[3].seeds``).  `check_deals` and
`check_decisions` hold a game's deals and decisions to what the rules allow, record or none:
each bound is derived from the rules and the 56 cards, and each refusal names its rule.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Final, TypeAlias, TypeVar

from .. import limits as _limits
from ..engine import max_deal_length
from ..exceptions import InvalidDataError, InvalidTypeError, InvalidValueError, PersianRummyError
from ..notation import parse_rules
from ..records import GameRecord
from ..rules import CardValues, EmptyStockEnd, Rules, TieBreak
from ..scoring import DealEnd, DealScore, TeamScore
from ..serialize import from_data, parse_json

_T = TypeVar("_T")

#: The seats of the two teams in the first game of a duplicate pair, and in the second.
LAYOUTS: Final = (((0, 2), (1, 3)), ((1, 3), (0, 2)))
#: The seeds of the derived streams are below this.
SEED_LIMIT: Final = 2**64


# -- checks of the fields --------------------------------------------------------------------------------------


def number(value: int) -> str:
    """
    An int as a message shows it: whole up to 40 digits, else by its size (Python will not write an
    int of more than 4,300 digits as text).

    >>> number(12), number(10**5000)
    ('12', 'an int of 16,610 bits')
    """
    if -(10**40) < value < 10**40:
        return str(value)
    return f"an int of {value.bit_length():,} bits"


def integer(value: object, name: str) -> int:
    """
    *value*, the field *name*, if it is an `int` (`bool` is not one).
    """
    if type(value) is not int:
        msg = f"{name} must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return value


def count(value: object, name: str) -> int:
    """
    *value*, the field *name*, if it is an `int`, 0 or more.
    """
    value = integer(value, name)
    if value < 0:
        msg = f"{name} must be 0 or more, got {number(value)}"
        raise InvalidValueError(msg)
    return value


def seed(value: object, name: str) -> int:
    """
    *value*, the field *name*, if it is a seed of a derived stream: an `int` from 0 to 2**64 - 1.
    """
    given = count(value, name)
    if given >= SEED_LIMIT:
        msg = f"{name} must be below 2**64, got {number(given)}"
        raise InvalidValueError(msg)
    return given


def _four(value: object, name: str) -> tuple[object, ...]:
    items = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else None
    if items is None or len(items) != 4:
        msg = f"{name} must be four values, one per seat, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return items


def per_seat(value: object, name: str, check: Callable[[object, str], _T]) -> tuple[_T, _T, _T, _T]:
    """
    *value*, the field *name*: four values, one per seat, each as ``check(item, name)`` returns it.
    """
    items = _four(value, name)
    return (check(items[0], name), check(items[1], name), check(items[2], name), check(items[3], name))


def seeds(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four seeds, one per seat.
    """
    return per_seat(value, "seeds", seed)


def decisions(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four counts, one per seat.
    """
    return per_seat(value, "decisions", count)


def seconds(value: object, _: str) -> float:
    """
    *value*, a seat's seconds of thinking or of CPU, as a float: a number, 0 or more (the messages
    call both thinking times).
    """
    if type(value) is not int and type(value) is not float:
        msg = f"thinking times must be numbers of seconds, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    given = float(value)
    if not 0 <= given < math.inf:
        msg = f"thinking times must be seconds, 0 or more, got {given!r}"
        raise InvalidValueError(msg)
    return given


def thinking(value: Iterable[float]) -> tuple[float, float, float, float]:
    """
    Four numbers of seconds, one per seat, as floats.
    """
    return per_seat(value, "thinking", seconds)


def cpu(value: Iterable[float]) -> tuple[float, float, float, float]:
    """
    Four numbers of CPU seconds, one per seat, as floats.
    """
    return per_seat(value, "cpu", seconds)


def overruns(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four counts of decisions over the limit, one per seat.
    """
    return per_seat(value, "overruns", count)


def layout(value: object) -> tuple[tuple[int, int], tuple[int, int]]:
    """
    The seats of the first team and of the second, one of `LAYOUTS` (lists are read as tuples).
    """
    if isinstance(value, list | tuple):
        value = tuple(tuple(item) if isinstance(item, list) else item for item in value)
    for seats in LAYOUTS:
        if value == seats:
            return seats
    msg = f"seats must be ((0, 2), (1, 3)) or ((1, 3), (0, 2)), the seats of each team, got {_limits.shown(value)}"
    raise InvalidValueError(msg)


def deal_scores(value: Iterable[DealScore]) -> tuple[DealScore, ...]:
    """
    The score of each deal of a game, numbered from 1 in order.
    """
    raw: object = value
    deals = tuple(raw) if isinstance(raw, Iterable) and not isinstance(raw, str) else ()
    if not deals or any(type(deal) is not DealScore for deal in deals):
        msg = f"deals must be the DealScore of each deal played, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    numbers = [deal.deal for deal in deals]
    if numbers != list(range(1, len(deals) + 1)):
        msg = f"deals must be numbered 1, 2, ... in order, got {numbers}"
        raise InvalidValueError(msg)
    return deals


def names(value: Iterable[str]) -> tuple[str, str]:
    """
    The names of the two teams, as `names_of` checks them.
    """
    return names_of(value)


def names_of(value: object) -> tuple[str, str]:
    """
    *value*, the names of the two teams: text of 1 to 100 characters each.
    """
    items = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else None
    if items is None or len(items) != 2:
        msg = f"names must be two names, the first team's and the second's, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    for name in items:
        if not isinstance(name, str):
            msg = f"a team's name must be text, got {_limits.shown(name)}"
            raise InvalidTypeError(msg)
        if not 0 < len(name) <= _limits.MAX_NAME or not name.isprintable():
            msg = f"a team's name has 1 to {_limits.MAX_NAME} printable characters, got {_limits.shown(name)}"
            raise InvalidValueError(msg)
    return items


# -- what the rules allow of a game --------------------------------------------------------------------------


@functools.cache
def card_totals(values: CardValues) -> int:
    """
    The totals some of the 56 cards make together under *values* (R2, R23), as the bits of an
    int: bit *n* is set when some of the cards are worth *n*.  A team's melded points in a
    deal, the points left in its hands, and all four of these together are each such a total,
    since no card is in two places.

    >>> totals = card_totals(CardValues())
    >>> [n for n in range(10) if totals >> n & 1], totals.bit_length() - 1
    ([0, 2, 3, 4, 5, 6, 7, 8, 9], 476)
    """
    totals = 1
    for value in values.by_rank:
        for _ in range(4):  # four cards of each rank, the jokers one more rank (R2)
            totals |= totals << value
    return totals


@functools.cache
def doubling_totals(rules: Rules) -> int:
    """
    The totals the doubling of a deal can make under *rules* (R25, A20), as bits like
    `card_totals`: the worth of sets of four laid down at once, each rank once (there are four
    cards of a rank, and four jokers), and with `Rules.double_four_card_runs` of runs of four of
    one suit, each run once; 0 alone when neither switch is on.  With `Rules.jokers_wild` a meld
    of four may hold jokers standing in, and the doubling is any total of cards (`card_totals`).
    Every doubling a deal gives is one of these totals (the reverse need not hold: two runs of a
    suit may overlap).

    >>> totals = doubling_totals(Rules())
    >>> [n for n in range(50) if totals >> n & 1]
    [0, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48]
    >>> doubling_totals(Rules(double_four_of_a_kind=False))
    1
    """
    if not (rules.double_four_of_a_kind or rules.double_four_card_runs):
        return 1
    if rules.jokers_wild:
        return card_totals(rules.card_values)
    values = rules.card_values.by_rank
    worths = [4 * value for value in values] if rules.double_four_of_a_kind else []
    if rules.double_four_card_runs:
        naturals = values[:13]  # the two up to the ace
        runs = [sum(naturals[low : low + 4]) for low in range(len(naturals) - 3)]
        if rules.ace_low_allowed:
            runs.append(naturals[-1] + sum(naturals[:3]))  # A-2-3-4 (A8)
        worths += runs * 4  # one of each in each suit
    totals = 1
    for worth in worths:
        totals |= totals << worth
    return totals


def _makes(totals: int, value: int) -> bool:
    return value >= 0 and bool(totals >> value & 1)


def most_decisions(rules: Rules, deals: int) -> int:
    """
    The most decisions the players can make in a game of *deals* deals under *rules*: the
    engine's bound on a deal's actions (`persian_rummy.engine.max_deal_length`, derived from
    R21 and A17) less the deal's `Deal`, for each deal, and never more than a match plays in a
    game, `MAX_ACTIONS` actions with the deals among them (under rules whose deals have no
    bound, that alone).

    >>> most_decisions(Rules(), 2), most_decisions(Rules(top_discard_free=True), 2)
    (788, 99998)
    """
    capped = _limits.MAX_ACTIONS - deals
    per_deal = max_deal_length(rules)
    return capped if per_deal is None else min(capped, deals * (per_deal - 1))


def check_decisions(rules: Rules, deals: int, decisions: Sequence[int], path: str) -> None:
    """
    Refuse, with an `InvalidDataError` at *path*, more *decisions* (one count per seat) than a
    game of *deals* deals can have under *rules* (`most_decisions`).
    """
    total = sum(decisions)
    most = most_decisions(rules, deals)
    if total > most:
        per_deal = max_deal_length(rules)
        why = (
            f"the engine's {per_deal} actions a deal at most, its Deal included (engine.max_deal_length, R21, A17)"
            if per_deal is not None and deals * (per_deal - 1) <= most
            else f"a match stops a game at {_limits.MAX_ACTIONS:,} actions, its deals included"
        )
        shown = f"{total:,}" if total < 10**40 else number(total)
        msg = f"{path}: {shown} decisions in a game of {deals} deal(s), more than the {most:,} there can be: {why}"
        raise InvalidDataError(msg)


def check_deals(rules: Rules, deals: Sequence[DealScore], path: str) -> None:
    """
    Refuse, with an `InvalidDataError` at *path*, the *deals* of a game unless a game of *rules*
    could give them: as many deals as the game lasts (R27, A22), and each one scored item by
    item (R24) within what the 56 cards make (`card_totals`, `doubling_totals`), ended as the
    rules end a deal (A17), with the going-out bonus for the team of the seat that went out
    alone (R24, A23).
    """
    _check_deal_count(rules, deals, path)
    for number_, deal in enumerate(deals):
        _check_deal(rules, deal, f"{path}[{number_}]")


def _check_deal_count(rules: Rules, deals: Sequence[DealScore], path: str) -> None:
    first = deals[: rules.num_deals]
    level = sum(deal.teams[0].total for deal in first) == sum(deal.teams[1].total for deal in first)
    extra = rules.tie_break is TieBreak.EXTRA_DEAL and len(deals) >= rules.num_deals and level
    if len(deals) == rules.num_deals + extra:
        return
    if extra:
        msg = f"the teams are level after {rules.num_deals} deal(s), so the game has one more (A22)"
    else:
        msg = f"a game of these rules has {rules.num_deals} deal(s) (R27)"
        if rules.tie_break is TieBreak.EXTRA_DEAL:
            msg += ", one more only when the teams are level after them (A22)"
    raise InvalidDataError(f"{path}: {msg}, got {len(deals)}")


#: A team's score in a deal of a match, item by item: melded, doubling, bonus and in_hand.
_Items: TypeAlias = tuple[int, int, int, int]


def _check_deal(rules: Rules, deal: DealScore, path: str) -> None:
    teams = deal.teams
    items = (_items(teams[0], f"{path}.teams[0]"), _items(teams[1], f"{path}.teams[1]"))
    _check_end(rules, deal, path)
    _check_bonus(rules, deal, path)
    _check_cards(rules, items, path)
    _check_doubling(rules, items, path)


def _items(score: TeamScore, path: str) -> _Items:
    """
    The items of *score*, the team's at *path*: given, and those of cards 0 or more.
    """
    melded, doubling, bonus, in_hand = score.melded, score.doubling, score.bonus, score.in_hand
    if melded is None or doubling is None or bonus is None or in_hand is None:
        msg = f"{path}: a deal of a match is scored item by item: melded, doubling, bonus"
        raise InvalidDataError(f"{msg} and in_hand (R24), got its total alone, {score.total}")
    for name, value in (("melded", melded), ("doubling", doubling), ("in_hand", in_hand)):
        if value < 0:
            msg = f"{path}.{name}: points of cards are 0 or more (R23), got {number(value)}"
            raise InvalidDataError(msg)
    return melded, doubling, bonus, in_hand


def _check_end(rules: Rules, deal: DealScore, path: str) -> None:
    immediately = rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY
    if deal.end is DealEnd.STOCK_EMPTY and not immediately:
        msg = f"{path}.end: a deal ends when the stock runs out only with empty_stock_end='immediately' (A17)"
        raise InvalidDataError(msg)
    if deal.end is DealEnd.PASSES and immediately:
        msg = f"{path}.end: with empty_stock_end='immediately' nobody passes, so no deal ends by passes (A17)"
        raise InvalidDataError(msg)


def _check_bonus(rules: Rules, deal: DealScore, path: str) -> None:
    out = None if deal.went_out is None else deal.went_out & 1
    expected = tuple(rules.go_out_bonus if team == out else 0 for team in (0, 1))
    given = (deal.teams[0].bonus, deal.teams[1].bonus)
    if given != expected:
        whose = "nobody went out" if out is None else f"seat {deal.went_out} went out, for team {out}"
        msg = f"{path}: the going-out bonus of {rules.go_out_bonus} goes to the team of the seat that went out"
        msg += f" alone (R24, A23): {whose}, so the bonuses are {list(expected)}, got {list(given)}"
        raise InvalidDataError(msg)


def _check_cards(rules: Rules, teams: tuple[_Items, _Items], path: str) -> None:
    totals = card_totals(rules.card_values)
    deck = rules.card_values.deck_points
    for team, (melded, _, _, in_hand) in enumerate(teams):
        for name, what, value in (("melded", "melded", melded), ("in_hand", "left in hand", in_hand)):
            if not _makes(totals, value):
                msg = f"{path}.teams[{team}].{name}: {number(value)} points {what}, {_beyond(value, deck)}"
                raise InvalidDataError(msg)
    together = sum(melded + in_hand for melded, _, _, in_hand in teams)
    if not _makes(totals, together):
        msg = f"{path}: the cards melded and left in hand by both teams are worth {number(together)} points"
        raise InvalidDataError(f"{msg} together, {_beyond(together, deck)}")


def _beyond(value: int, deck: int) -> str:
    """
    Why no cards make *value*, the 56 cards being worth *deck* (R2, R23).
    """
    if value > deck:
        return f"more than the 56 cards are worth under the rules' card values, {deck} (R2, R23)"
    return "a total no cards of the 56 make under the rules' card values (R2, R23)"


def _check_doubling(rules: Rules, teams: tuple[_Items, _Items], path: str) -> None:
    totals = doubling_totals(rules)
    doubled = [doubling for _, doubling, _, _ in teams]
    for team, (melded, doubling, _, _) in enumerate(teams):
        if doubling > melded or not _makes(totals, doubling):
            msg = f"{path}.teams[{team}].doubling: {number(doubling)} is not the worth of melds of four laid down"
            msg += f" at once by the team (R25, A20), among its {melded} points melded"
            raise InvalidDataError(msg)
    if not _makes(totals, sum(doubled)):
        msg = f"{path}: the doubling of both teams, {doubled}, is not the worth of melds of four the 56 cards"
        raise InvalidDataError(f"{msg} make, each laid down at once (R25, A20)")


# -- reading JSON ----------------------------------------------------------------------------------------------


def loads(text: str | bytes) -> object:
    """
    The JSON value of *text*, refused with an `InvalidDataError` when it is not JSON, has a key
    twice in an object, a number JSON does not have (``NaN``) or is nested too deep to read.
    """
    raw: object = text
    if not isinstance(raw, str | bytes):
        msg = f"text must be JSON text, got {_limits.shown(text)}"
        raise InvalidTypeError(msg)
    return parse_json(text, limit=None)


def fields(value: object, path: str, expected: Iterable[str]) -> dict[str, object]:
    """
    *value*, an object at *path* with exactly the fields *expected*.
    """
    if not isinstance(value, dict):
        msg = f"{path}: expected an object, got {_limits.shown(value)}"
        raise InvalidDataError(msg)
    names = list(expected)
    unknown = [name for name in value if name not in names]
    if unknown:
        msg = f"{path}: unknown field {_limits.shown(unknown[0])}"
        raise InvalidDataError(msg)
    missing = [name for name in names if name not in value]
    if missing:
        msg = f"{path}: missing field {missing[0]!r}"
        raise InvalidDataError(msg)
    return value


def array(value: object, path: str) -> list[object]:
    """
    *value*, an array at *path*.
    """
    if not isinstance(value, list):
        msg = f"{path}: expected an array, got {_limits.shown(value)}"
        raise InvalidDataError(msg)
    return value


def built(path: str, build: Callable[[], _T]) -> _T:
    """
    What *build* returns, a refusal of the library raised again as an `InvalidDataError` at *path*.
    """
    try:
        return build()
    except PersianRummyError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None


def rules(value: object, path: str) -> Rules:
    """
    The rules whose id (`persian_rummy.notation.format_rules`) *value* is, at *path*.
    """
    if not isinstance(value, str):
        msg = f"{path}: rules must be written as a string, got {_limits.shown(value)}"
        raise InvalidDataError(msg)
    return built(path, functools.partial(parse_rules, value))


def document(value: object, path: str, kind: type[_T]) -> _T:
    """
    The document of `persian_rummy.serialize` at *path*, a *kind* (`DealScore`, `GameRecord`).
    """
    try:
        read = from_data(value)
    except PersianRummyError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None
    if not isinstance(read, kind):
        msg = f"{path}: expected a {kind.__name__} document, got a {type(read).__name__}"
        raise InvalidDataError(msg)
    return read


def record(value: object, path: str) -> GameRecord | None:
    """
    The game record at *path*, or `None` for ``null``.
    """
    return None if value is None else document(value, path, GameRecord)
