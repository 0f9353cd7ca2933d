"""
JSON: a documented, versioned form for states, actions, deal results, game records and events.

Every document is a JSON object with three envelope fields and the fields of
its kind::

    {"format": "persian-rummy", "version": 1, "kind": "state", ...}

The kinds are ``state``, ``view``, ``action``, ``deal_score``, ``record`` and ``event``; the JSON
Schema that describes them all ships with the package (`json_schema`).  Cards
are written in card notation (``"Qh"``, ``"X1"``), seats as numbers 0-3.

Loading checks everything: the envelope, every field's type, no unknown or
missing field, no duplicate key, no number out of range, and then the rules'
own invariants (a state must hold the 56 cards exactly once, ...).  A problem
raises `InvalidDataError` naming where it is.  Nothing in a document is ever
executed.

>>> from persian_rummy import Discard, new_game
>>> text = to_json(Discard(2, "Qh"))
>>> text
'{"format": "persian-rummy", "version": 1, "kind": "action", "type": "discard", "seat": 2, "card": "Qh"}'
>>> from_json(text)
Discard(seat=2, card=Card.parse('Qh'))
>>> from_json(to_json(new_game())) == new_game()
True
>>> from_json('{"format": "persian-rummy", "version": 2, "kind": "action"}')
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidDataError: $.version: unknown version 2 (this library reads version 1)
"""

from __future__ import annotations

import json
import math
import types
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Any, Final, TypeAlias, TypeGuard, TypeVar, get_args, overload

import attrs

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import jsontext as _jsontext
from ._internal import seats as _seats
from ._internal import switches as _switches
from .actions import ACTION_TYPES, Action, Deal
from .cards import FULL_DECK, Card
from .cardsets import CardSet
from .events import Event
from .exceptions import InvalidDataError, InvalidTypeError, InvalidValueError, PersianRummyError
from .melds import StandIns, TableMeld
from .records import GameRecord
from .rules import DEFAULT_RULES, CardValues, Rules
from .scoring import DealEnd, DealScore, TeamScore
from .state import GameState, Phase, View

__all__ = [
    "FORMAT",
    "VERSION",
    "Document",
    "from_data",
    "from_json",
    "json_schema",
    "parse_json",
    "to_data",
    "to_json",
]


def __dir__() -> list[str]:
    return __all__


#: The value of every document's ``format`` field.
FORMAT: Final = "persian-rummy"
#: The version of the JSON form this library writes and reads.
VERSION: Final = 1
#: What a JSON document holds.
Document: TypeAlias = GameState | View | Action | DealScore | GameRecord | Event

_MAX_INT: Final = 1_000_000
#: The stand-ins of a play or a meld with no joker standing for a card (A7).
_NO_STAND_INS: Final = StandIns()

_T = TypeVar("_T")


def _public_fields(kind: type) -> tuple[str, ...]:
    """
    The fields of the attrs class *kind* that its JSON document holds: all but the private ones.
    """
    return tuple(a.name for a in attrs.fields(kind) if not a.name.startswith("_"))


# -- writing ---------------------------------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _optional_cards(cards: Iterable[Card] | None) -> list[str] | None:
    return None if cards is None else _cards(cards)


def _four_lists(parts: Iterable[CardSet]) -> list[list[str]]:
    return [_cards(part) for part in parts]


def _rules(rules: Rules) -> dict[str, object]:
    return {name: _plain(getattr(rules, name)) for name in _RULE_NAMES}


def _plain(value: object) -> object:
    if type(value) is CardValues:
        return value.by_letter
    return str(value) if isinstance(value, str) else value


def _stand_ins(stand_ins: StandIns) -> dict[str, str]:
    return {str(joker): str(card) for joker, card in stand_ins}


def _meld(meld: TableMeld) -> dict[str, object]:
    data: dict[str, object] = {
        "owner": meld.owner,
        "laid_down": _cards(meld.laid_down),
        "layoffs": _four_lists(meld.layoffs),
    }
    if meld.stand_ins:
        data["stand_ins"] = _stand_ins(meld.stand_ins)
    return data


def _deal_score(result: DealScore) -> dict[str, object]:
    return {
        "deal": result.deal,
        "teams": [
            {"melded": t.melded, "doubling": t.doubling, "bonus": t.bonus, "in_hand": t.in_hand}
            if t.has_breakdown
            else {"total": t.total}
            for t in result.teams
        ],
        "went_out": result.went_out,
        "end": result.end.value,
    }


def _same(value: object) -> object:
    return value


# How each field is written, by name: the fields of states, views, actions and records.
_WRITERS: Final[dict[str, Callable[[Any], object]]] = {
    "rules": _rules,
    "phase": lambda phase: phase.value,
    "hands": _four_lists,
    "stock": _optional_cards,  # a state's stock, or a view's: None when not everyone knows it (A18)
    "discard_pile": _cards,
    "melds": lambda melds: [_meld(meld) for meld in melds],
    "obligation": lambda card: None if card is None else str(card),
    "picked": _cards,
    "known": _four_lists,
    "results": lambda results: [_deal_score(result) for result in results],
    "hand": _optional_cards,
    "hand_sizes": list,
    "card": str,
    "cards": _cards,
    "deck": _cards,
    "actions": lambda actions: [_action(action) for action in actions],
    "players": lambda players: None if players is None else list(players),
    "stand_ins": _stand_ins,
}


#: The fields a document leaves out when they are `None`, and that a reader takes as `None` when left out:
#: the discarder, outside the phases of a call of "Rummy!" (A24), so that documents without calls stay as they were.
_LEFT_OUT_WHEN_NONE: Final = frozenset({"discarder"})


def _body(value: object) -> dict[str, object]:
    # In field order, but a record's actions last, after its metadata: a file reads best that way.
    names = sorted(_public_fields(type(value)), key=lambda name: name == "actions")
    # Stand-ins (A7) are written only when there are some, so that every other document stays as it was.
    return {
        name: _WRITERS.get(name, _same)(getattr(value, name))
        for name in names
        if (name not in _LEFT_OUT_WHEN_NONE or getattr(value, name) is not None)
        and (name != "stand_ins" or getattr(value, name))
    }


def _action(action: Action) -> dict[str, object]:
    seat = action.seat
    if not _seats.is_seat(seat):
        msg = f"cannot write {action!r}: its seat is not 0-3"
        raise InvalidValueError(msg)
    meld = getattr(action, "meld", 0)
    if type(meld) is not int or not 0 <= meld <= 55:
        msg = f"cannot write {action!r}: its meld index is not 0-55"
        raise InvalidValueError(msg)
    deck = getattr(action, "deck", None)
    if deck is not None and (len(deck) != 56 or len(set(deck)) != 56 or any(type(card) is not Card for card in deck)):
        msg = f"cannot write {action!r}: its deck is not the 56 cards"
        raise InvalidValueError(msg)
    return {"type": action.type_name, **_body(action)}


def _event(event: Event) -> dict[str, object]:
    action = event.action
    return {
        "action": None if action is None else _action(action),
        "cards": _cards(event.cards),
        "dealer": event.dealer,
        "upcard": None if event.upcard is None else str(event.upcard),
        "hands": None if event.hands is None else _four_lists(event.hands),
        "stock": _optional_cards(event.stock),
    }


def _is_action(value: object) -> TypeGuard[Action]:
    return type(value) in _ACTION_BY_TYPE


def to_data(value: Document) -> dict[str, object]:
    """
    The JSON document of *value* as Python data (dicts, lists, strings, numbers, `None`).

    Raises:
        InvalidTypeError: *value* is not a state, a view, an action, a deal result, a record or
            an event.
        InvalidValueError: *value* is an action that could not be read back (one whose fields
            were set by force past its checks).
    """
    kind = type(value)
    if _is_action(value):
        body, name = _action(value), "action"
    elif type(value) is DealScore:
        body, name = _deal_score(value), "deal_score"
    elif type(value) is Event:
        body, name = _event(value), "event"
    elif kind in _KIND_NAMES:
        body, name = _body(value), _KIND_NAMES[kind]
    else:
        msg = f"no JSON form for {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return {"format": FORMAT, "version": VERSION, "kind": name, **body}


def to_json(value: Document, *, pretty: bool = False) -> str:
    """
    The JSON text of *value* (see `to_data`): one line, or with *pretty* one field per line
    (and one action, meld or deal result per line), for files meant to be read.

    Raises:
        InvalidTypeError: as `to_data`.
        InvalidValueError: as `to_data`; or the text would be longer than the 16,000,000
            characters `from_json` reads (a record of tens of thousands of deals).
    """
    data = to_data(value)
    text = json.dumps(data, ensure_ascii=False) if not pretty else _pretty(data, "")
    if len(text) > _limits.MAX_JSON:
        msg = f"the document would be {len(text):,} characters long, more than the {_limits.MAX_JSON:,} that are read"
        raise InvalidValueError(msg)
    return text


def _pretty(value: object, indent: str) -> str:
    compact = json.dumps(value, ensure_ascii=False)
    if len(compact) <= 100 or not isinstance(value, dict | list):
        return compact
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(key)}: {_pretty(item, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if all(not isinstance(item, dict | list) for item in value):
        return compact
    items = [inner + _pretty(item, inner) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


# -- reading ---------------------------------------------------------------------------------------------------


class _Path:
    """
    Where in the document a value is, for error messages: ``$.melds[2].owner``.
    """

    __slots__ = ("text",)

    def __init__(self, text: str = "$") -> None:
        self.text = text

    def key(self, name: str) -> _Path:
        return _Path(f"{self.text}.{name}")

    def item(self, index: int) -> _Path:
        return _Path(f"{self.text}[{index}]")

    def fail(self, message: str) -> InvalidDataError:
        return InvalidDataError(f"{self.text}: {message}")


def _object(value: object, path: _Path, fields: Mapping[str, bool]) -> dict[str, object]:
    """
    *value* as a JSON object with exactly *fields* (those mapped to True are required).
    """
    if not isinstance(value, dict):
        raise path.fail(f"expected an object, got {_describe(value)}")
    for name in value:
        if name not in fields:
            raise path.fail(f"unknown field {name!r}")
    for name, required in fields.items():
        if required and name not in value:
            raise path.fail(f"missing field {name!r}")
    return value


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else "a long string"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, int | float):
        return repr(value) if abs(value) < 1e12 else "a huge number"
    return type(value).__name__


def _int(value: object, path: _Path, low: int = -_MAX_INT, high: int = _MAX_INT) -> int:
    if type(value) is not int:
        raise path.fail(f"expected an integer, got {_describe(value)}")
    if not low <= value <= high:
        raise path.fail(f"expected an integer from {low} to {high}, got {_describe(value)}")
    return value


def _bool(value: object, path: _Path) -> bool:
    if type(value) is not bool:
        raise path.fail(f"expected true or false, got {_describe(value)}")
    return value


def _seat(value: object, path: _Path) -> int:
    if not _seats.is_seat(value):
        raise path.fail(f"expected a seat 0-3, got {_describe(value)}")
    return value


def _optional(read: Callable[[object, _Path], _T]) -> Callable[[object, _Path], _T | None]:
    return lambda value, path: None if value is None else read(value, path)


def _str(value: object, path: _Path, limit: int = _limits.MAX_LABEL) -> str:
    if not isinstance(value, str):
        raise path.fail(f"expected a string, got {_describe(value)}")
    if len(value) > limit:
        raise path.fail(f"string longer than {limit} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise path.fail("the string holds a lone surrogate, which is not text") from None
    return value


def _card(value: object, path: _Path) -> Card:
    card = _CARD_BY_TEXT.get(value) if isinstance(value, str) else None  # only a card's canonical text
    if card is None:
        raise path.fail(f"expected a card such as 'Qh' or 'X1', got {_describe(value)}")
    return card


def _all_cards(found: list[Card | None]) -> TypeGuard[list[Card]]:
    return None not in found


def _card_list(value: object, path: _Path, limit: int = 56) -> list[Card]:
    if not isinstance(value, list):
        raise path.fail(f"expected a list of cards, got {_describe(value)}")
    if len(value) > limit:
        raise path.fail(f"expected at most {limit} cards, got {len(value)}")
    found = [_CARD_BY_TEXT.get(item) if type(item) is str else None for item in value]
    # Else each item read as a card, which raises at the first that is none, naming it.
    cards = found if _all_cards(found) else [_card(item, path.item(i)) for i, item in enumerate(value)]
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for i, card in enumerate(cards):
            if card in seen:
                raise path.item(i).fail(f"card {card} appears twice in the list")
            seen.add(card)
    return cards


def _card_tuple(value: object, path: _Path) -> tuple[Card, ...]:
    return tuple(_card_list(value, path))


def _card_set(value: object, path: _Path) -> CardSet:
    return CardSet(_card_list(value, path))


def _four(value: object, path: _Path) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    if not isinstance(value, list) or len(value) != 4:
        raise path.fail(f"expected a list of four card lists, one per seat, got {_describe(value)}")
    a, b, c, d = (_card_set(item, path.item(i)) for i, item in enumerate(value))
    return (a, b, c, d)


def _choice(values: tuple[str, ...]) -> Callable[[object, _Path], str]:
    def read(value: object, path: _Path) -> str:
        if value not in values:
            raise path.fail(f"expected one of {', '.join(map(repr, values))}, got {_describe(value)}")
        return value

    return read


def _list(read: Callable[[object, _Path], _T], what: str, limit: int) -> Callable[[object, _Path], tuple[_T, ...]]:
    def read_all(value: object, path: _Path) -> tuple[_T, ...]:
        if not isinstance(value, list):
            raise path.fail(f"expected a list of {what}, got {_describe(value)}")
        if len(value) > limit:
            raise path.fail(f"expected at most {limit} {what}, got {len(value)}")
        return tuple(read(item, path.item(i)) for i, item in enumerate(value))

    return read_all


def _read_rules(value: object, path: _Path) -> Rules:
    data = _object(value, path, dict.fromkeys(_RULE_NAMES, False))
    values: dict[str, Any] = {}  # each value read as its switch's default is typed, and checked by Rules
    for name, raw in data.items():
        default = getattr(DEFAULT_RULES, name)
        where = path.key(name)
        if isinstance(default, bool):
            values[name] = _bool(raw, where)
        elif isinstance(default, int):
            values[name] = _int(raw, where)
        elif isinstance(default, CardValues):
            values[name] = _read_card_values(raw, where)
        else:
            values[name] = _choice(tuple(member.value for member in type(default)))(raw, where)
    try:
        return Rules(**values)
    except (TypeError, ValueError) as error:
        raise path.fail(str(error)) from None


def _read_card_values(value: object, path: _Path) -> dict[str, int]:
    """
    Card values (R23): an object with the value of each rank, by rank letter, all fourteen.
    """
    data = _object(value, path, dict.fromkeys(DEFAULT_RULES.card_values.by_letter, True))
    return {letter: _int(raw, path.key(letter), 0, CardValues.MAX_VALUE) for letter, raw in data.items()}


def _read_stand_ins(value: object, path: _Path) -> StandIns:
    """
    Stand-ins (A7): an object mapping jokers to the natural cards they stand for.
    """
    if not isinstance(value, dict) or not value:
        raise path.fail(f"expected an object of jokers and the cards they stand for, got {_describe(value)}")
    pairs = [(_card(joker, path.key(joker)), _card(card, path.key(joker))) for joker, card in value.items()]
    try:
        return StandIns(pairs)
    except PersianRummyError as error:
        raise path.fail(str(error)) from None


def _read_meld(value: object, path: _Path, rules: Rules) -> TableMeld:
    data = _object(value, path, {"owner": True, "laid_down": True, "layoffs": True, "stand_ins": False})
    owner = _seat(data["owner"], path.key("owner"))
    laid_down = _card_set(data["laid_down"], path.key("laid_down"))
    layoffs = _four(data["layoffs"], path.key("layoffs"))
    stand_ins = _read_stand_ins(data["stand_ins"], path.key("stand_ins")) if "stand_ins" in data else _NO_STAND_INS
    try:
        return TableMeld(owner, laid_down, layoffs, ace_low=rules.ace_low_allowed, stand_ins=stand_ins)
    except ValueError as error:
        raise path.fail(str(error)) from None


def _read_team(value: object, path: _Path) -> TeamScore:
    if isinstance(value, dict) and "total" in value:
        data = _object(value, path, {"total": True})
        return TeamScore(total=_int(data["total"], path.key("total")))
    data = _object(value, path, dict.fromkeys(_TEAM_FIELDS, True))
    melded, doubling, bonus, in_hand = (_int(data[name], path.key(name)) for name in _TEAM_FIELDS)
    return TeamScore(melded, doubling, bonus, in_hand)


def _read_deal_score(value: object, path: _Path) -> DealScore:
    data = _object(value, path, dict.fromkeys(_public_fields(DealScore), True))
    deal = _int(data["deal"], path.key("deal"), 1, 1000)
    teams = data["teams"]
    if not isinstance(teams, list) or len(teams) != 2:
        raise path.key("teams").fail(f"expected a list of two team scores, got {_describe(teams)}")
    team_0, team_1 = (_read_team(item, path.key("teams").item(i)) for i, item in enumerate(teams))
    went_out = _optional(_seat)(data["went_out"], path.key("went_out"))
    end = _choice(_ENDS)(data["end"], path.key("end"))
    if (went_out is None) == (end == DealEnd.WENT_OUT.value):
        raise path.fail("a deal ends by going out exactly when a seat went out")
    return DealScore(deal, (team_0, team_1), went_out, DealEnd(end))


def _read_deck(value: object, path: _Path) -> tuple[Card, ...]:
    deck = _card_list(value, path)
    if len(deck) != 56:
        raise path.fail(f"a deck lists all 56 cards, got {len(deck)}")
    return tuple(deck)


# How each field of an action is read, by name.
_ACTION_READERS: Final[dict[str, Callable[[object, _Path], object]]] = {
    "seat": _seat,
    "card": _card,
    "cards": _card_set,
    "meld": lambda value, path: _int(value, path, 0, 55),
    "deck": _read_deck,
    "stand_ins": _read_stand_ins,
}


def _check_action_fields() -> None:
    """
    Every field of every action type has a reader here (a writer is optional: a plain value is
    written as it is).
    """
    for kind in ACTION_TYPES:
        unknown = [name for name in _public_fields(kind) if name not in _ACTION_READERS]
        if unknown:
            msg = f"{kind.__name__} has fields {unknown} that JSON does not know how to read"
            raise TypeError(msg)


_check_action_fields()


def _read_action(value: object, path: _Path, extra: Mapping[str, bool] | None = None) -> Action:
    if not isinstance(value, dict):
        raise path.fail(f"expected an object, got {_describe(value)}")
    name = value.get("type")
    kind = _ACTION_BY_NAME.get(name) if isinstance(name, str) else None
    if kind is None:
        raise path.key("type").fail(f"expected one of {', '.join(map(repr, _ACTION_BY_NAME))}, got {_describe(name)}")
    fields = _public_fields(kind)
    wanted = {"type": True, **{field: field != "stand_ins" for field in fields}, **(extra or {})}
    data = _object(value, path, wanted)
    values: dict[str, Any] = {
        field: _ACTION_READERS[field](data[field], path.key(field)) for field in fields if field in data
    }
    try:
        return kind(**values)
    except PersianRummyError as error:
        raise path.fail(str(error)) from None


def _read_event(data: dict[str, object], path: _Path) -> Event:
    action = _optional(_read_action)(data["action"], path.key("action"))
    match action:
        case Deal():
            raise path.key("action").fail("a deal is told with no action, its dealer and its upcard")
    cards = _card_set(data["cards"], path.key("cards"))
    dealer = _optional(_seat)(data["dealer"], path.key("dealer"))
    upcard = _optional(_card)(data["upcard"], path.key("upcard"))
    hands = _optional(_four)(data["hands"], path.key("hands"))
    stock = _optional(_card_tuple)(data["stock"], path.key("stock"))
    try:
        return Event(action, cards, dealer, upcard, hands, stock)
    except PersianRummyError as error:
        raise path.fail(f"not a valid event: {error}") from None


def _sizes(value: object, path: _Path) -> tuple[int, int, int, int]:
    if not isinstance(value, list) or len(value) != 4:
        raise path.fail(f"expected four hand sizes, got {_describe(value)}")
    a, b, c, d = (_int(n, path.item(i), 0, 56) for i, n in enumerate(value))
    return (a, b, c, d)


def _names(value: object, path: _Path) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise path.fail(f"expected null or a list of four names, got {_describe(value)}")
    return tuple(_str(name, path.item(i), _limits.MAX_NAME) for i, name in enumerate(value))


_phase_text: Final = _choice(tuple(phase.value for phase in Phase))

# How each field of a state, a view or a record is read, by name; `melds` is read with the rules.
_READERS: Final[dict[str, Callable[[object, _Path], object]]] = {
    "rules": _read_rules,
    "phase": lambda value, path: Phase(_phase_text(value, path)),
    "deal": lambda value, path: _int(value, path, 0, 1000),
    "dealer": _seat,
    "to_act": _optional(_seat),
    "hands": _four,
    "stock": _card_tuple,
    "stock_known": _bool,
    "discard_pile": _card_tuple,
    "obligation": _optional(_card),
    "picked": _card_set,
    "known": _four,
    "passes": lambda value, path: _int(value, path, 0, 4),
    "went_out": _optional(_seat),
    "discarder": _optional(_seat),
    "results": _list(_read_deal_score, "deal scores", 1000),
    "seat": _optional(_seat),
    "hand": _optional(_card_set),
    "hand_sizes": _sizes,
    "stock_size": lambda value, path: _int(value, path, 0, 56),
    "first_dealer": _seat,
    "actions": _list(_read_action, "actions", _limits.MAX_ACTIONS),
    "players": _optional(_names),
    "date": _optional(_str),
    "event": _optional(_str),
}
#: How a view's fields are read: as a state's, but for the stock, which a view shows only when everyone knows
#: it (A18), `None` otherwise.
_VIEW_READERS: Final = {**_READERS, "stock": _optional(_card_tuple)}


def _read_fields(kind: type[_T], data: dict[str, object], path: _Path) -> dict[str, object]:
    """
    The fields of a *kind* (`GameState`, `View`, `GameRecord`) read from its document *data*.
    """
    values: dict[str, object] = {}
    readers = _VIEW_READERS if kind is View else _READERS
    rules = DEFAULT_RULES  # a state's and a view's, read before their melds
    for name in _public_fields(kind):
        if name == "rules":
            values[name] = rules = _read_rules(data[name], path.key(name))
        elif name == "melds":
            melds = data[name]
            if not isinstance(melds, list):
                raise path.key(name).fail(f"expected a list of melds, got {_describe(melds)}")
            if len(melds) > 56:
                raise path.key(name).fail(f"expected at most 56 melds, got {len(melds)}")
            values[name] = tuple(_read_meld(item, path.key(name).item(i), rules) for i, item in enumerate(melds))
        elif name in _LEFT_OUT_WHEN_NONE and name not in data:
            values[name] = None
        else:
            values[name] = readers[name](data[name], path.key(name))
    return values


def _read_document(kind: type[_T], data: dict[str, object], path: _Path) -> _T:
    values = _read_fields(kind, data, path)
    try:
        return kind(**values)
    except PersianRummyError as error:
        what = {GameState: "state", View: "view"}.get(kind, "record")
        raise path.fail(f"not a valid {what}: {error}") from None


_ENVELOPE: Final = {"format": True, "version": True, "kind": True}
# The kinds of document whose fields are their class's fields, by name and by class.
_KINDS: Final[dict[str, type]] = {"state": GameState, "view": View, "record": GameRecord}
_KIND_NAMES: Final = {kind: name for name, kind in _KINDS.items()}


def from_data(data: object) -> Document:
    """
    The value of a JSON document given as Python data (as ``json.loads`` returns it).

    Raises:
        InvalidDataError: *data* is not a valid document; the message says where and why.
    """
    path = _Path()
    if not isinstance(data, dict):
        raise path.fail(f"expected an object, got {_describe(data)}")
    if data.get("format") != FORMAT:
        raise path.key("format").fail(f"expected {FORMAT!r}, got {_describe(data.get('format'))}")
    version = data.get("version")
    if type(version) is not int:
        raise path.key("version").fail(f"expected an integer, got {_describe(version)}")
    if version != VERSION:
        raise path.key("version").fail(f"unknown version {_describe(version)} (this library reads version {VERSION})")
    kind = data.get("kind")
    if kind == "action":
        return _read_action(data, path, _ENVELOPE)
    if kind == "deal_score":
        body = _object(data, path, {**_ENVELOPE, **dict.fromkeys(_public_fields(DealScore), True)})
        return _read_deal_score({k: v for k, v in body.items() if k not in _ENVELOPE}, path)
    if kind == "event":
        return _read_event(_object(data, path, {**_ENVELOPE, **dict.fromkeys(_public_fields(Event), True)}), path)
    if not isinstance(kind, str) or kind not in _KINDS:
        raise path.key("kind").fail(
            f"expected 'state', 'view', 'action', 'deal_score', 'record' or 'event', got {_describe(kind)}"
        )
    fields = _public_fields(_KINDS[kind])
    body = _object(data, path, {**_ENVELOPE, **{name: name not in _LEFT_OUT_WHEN_NONE for name in fields}})
    return _read_document(_KINDS[kind], body, path)


@overload
def from_json(text: str | bytes) -> Document: ...
@overload
def from_json(text: str | bytes, kind: type[_T]) -> _T: ...
def from_json(text: str | bytes, kind: type[object] | None = None) -> object:
    """
    The value of a JSON document.

    Args:
        text: The JSON text.
        kind: The type the document must hold (`GameState`, `View`, `DealScore`, `GameRecord`,
            `Event`, or one of the action classes), if one is expected.

    Raises:
        InvalidDataError: *text* is not JSON, or not a valid document (of *kind*).
    """
    _check_kind(kind)
    data = _jsontext.decode(text, _limits.MAX_JSON)
    value = from_data(data)
    if kind is not None and not isinstance(value, kind):
        msg = f"$: expected {_kind_name(kind)} document, got {type(value).__name__}"
        raise InvalidDataError(msg)
    return value


def parse_json(text: str | bytes, *, limit: int | None = _limits.MAX_JSON) -> object:
    """
    The plain data of the JSON *text* (dicts, lists, strings, numbers, booleans and `None`), read
    as `from_json` reads a document before it looks at its fields.

    The text is read only within the package's limits (`persian_rummy.limits`): UTF-8 if it is
    `bytes`, at most *limit* characters (`None`: any length, for a text bounded already), arrays
    and objects nested no deeper than `persian_rummy.limits.MAX_DEPTH` says, no key twice in an
    object, no ``NaN`` or ``Infinity``.  A program that reads JSON of its own from outside (a request, a
    file of settings) reads it so with the same bounds, and hands a document on to `from_data`.

    >>> parse_json('{"seat": 2, "cards": ["Qh", "Qs"]}')
    {'seat': 2, 'cards': ['Qh', 'Qs']}
    >>> parse_json('{"seat": 2, "seat": 3}')
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidDataError: $: duplicate key 'seat' in an object
    >>> parse_json("[" * 5000 + "]" * 5000)
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidDataError: $: not a document: arrays and objects nested more than 32 deep, ...

    Raises:
        InvalidDataError: *text* is not UTF-8, longer than *limit*, nested too deep, not JSON, or
            holds a key twice in an object or a constant JSON does not have; the message starts
            with ``$``, the path of the document's root, as `from_json`'s do.
        InvalidTypeError: *text* is neither `str` nor `bytes`, or *limit* not an `int` or `None`.
        InvalidValueError: *limit* is negative.
    """
    _arguments.expect(text, (str, bytes), "text", "JSON text (str or bytes)")
    return _jsontext.decode(text, _arguments.optional_count(limit, "limit", 0))


def _kind_name(kind: type | types.UnionType) -> str:
    """
    ``a GameState`` for a class, ``a Draw, Take or Pass`` for a union of classes.
    """
    if isinstance(kind, types.UnionType):
        *rest, last = (getattr(member, "__name__", str(member)) for member in get_args(kind))
        return f"a {', '.join(rest)} or {last}"
    return f"a {kind.__name__}"


def _check_kind(kind: object) -> None:
    if kind is not None and not isinstance(kind, type | types.UnionType):
        msg = f"kind must be a document's type, such as GameState or GameRecord, got {_limits.shown(kind)}"
        raise InvalidTypeError(msg)


def json_schema() -> dict[str, object]:
    """
    The JSON Schema (draft 2020-12) of every document this module writes: ``schema.json``, with
    the boolean, number and choice switches of the rules added from the fields of `Rules`.
    """
    text = resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    _switches.complete(schema["$defs"]["rules"], Rules)
    return schema


_RULE_NAMES: Final = _public_fields(Rules)
_TEAM_FIELDS: Final = _public_fields(TeamScore)
_ENDS: Final = tuple(end.value for end in DealEnd)
_CARD_BY_TEXT: Final = {str(card): card for card in FULL_DECK}
_ACTION_BY_NAME: Final[dict[str, type[Action]]] = {kind.type_name: kind for kind in ACTION_TYPES}
_ACTION_BY_TYPE: Final = frozenset(ACTION_TYPES)
