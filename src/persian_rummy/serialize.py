"""
JSON: a documented, versioned form for states, actions, deal results and game records.

Every document is a JSON object with three envelope fields and the fields of
its kind::

    {"format": "persian-rummy", "version": 1, "kind": "state", ...}

The kinds are ``state``, ``view``, ``action``, ``deal_score`` and ``record``; the JSON
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
persian_rummy.serialize.InvalidDataError: $.version: unknown version 2 (this library reads version 1)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Final, TypeAlias, TypeVar, overload

from .actions import Action, Deal, Discard, DrawStock, LayDown, LayOff, Pass, TakeDiscard
from .cards import FULL_DECK, Card
from .cardsets import CardSet
from .exceptions import PersianRummyError
from .melds import TableMeld
from .records import GameRecord
from .rules import Rules
from .scoring import DealEnd, DealScore, TeamScore
from .state import GameState, Phase
from .views import View, ViewError

__all__ = [
    "FORMAT",
    "VERSION",
    "Document",
    "InvalidDataError",
    "from_data",
    "from_json",
    "json_schema",
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
Document: TypeAlias = GameState | View | Action | DealScore | GameRecord

_MAX_TEXT: Final = 1_000_000
_MAX_INT: Final = 1_000_000
_MAX_ACTIONS: Final = 100_000
_ALL_CARDS: Final = (1 << 56) - 1


class InvalidDataError(PersianRummyError, ValueError):
    """
    Raised when JSON text or data is not a valid document; the message starts with where (``$.hands[2]``).
    """


T = TypeVar("T")

# -- writing ---------------------------------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _rules(rules: Rules) -> dict[str, object]:
    return {name: _plain(getattr(rules, name)) for name in _RULE_NAMES}


def _plain(value: object) -> object:
    return str(value) if isinstance(value, str) else value


def _meld(meld: TableMeld) -> dict[str, object]:
    return {"owner": meld.owner, "laid_down": _cards(meld.laid_down), "layoffs": [_cards(p) for p in meld.layoffs]}


def _deal_score(result: DealScore) -> dict[str, object]:
    return {
        "deal": result.deal,
        "teams": [
            {"melded": t.melded, "doubling": t.doubling, "bonus": t.bonus, "in_hand": t.in_hand} for t in result.teams
        ],
        "went_out": result.went_out,
        "end": result.end.value,
    }


def _action(action: Action) -> dict[str, object]:
    seat = action.seat
    if type(seat) is not int or not 0 <= seat <= 3:
        msg = f"cannot write {action!r}: its seat is not 0-3"
        raise ValueError(msg)
    if isinstance(action, LayOff) and (type(action.meld) is not int or not 0 <= action.meld <= 55):
        msg = f"cannot write {action!r}: its meld index is not 0-55"
        raise ValueError(msg)
    if isinstance(action, Deal) and (len(action.deck) != 56 or CardSet(action.deck).mask != _ALL_CARDS):
        msg = f"cannot write {action!r}: its deck is not the 56 cards"
        raise ValueError(msg)
    data: dict[str, object] = {"type": _ACTION_NAMES[type(action)], "seat": seat}
    if isinstance(action, Deal):
        data["deck"] = _cards(action.deck)
    elif isinstance(action, TakeDiscard | Discard):
        data["card"] = str(action.card)
    elif isinstance(action, LayDown):
        data["cards"] = _cards(action.cards)
    elif isinstance(action, LayOff):
        data["meld"] = action.meld
        data["cards"] = _cards(action.cards)
    return data


def _state(state: GameState) -> dict[str, object]:
    return {
        "rules": _rules(state.rules),
        "phase": state.phase.value,
        "deal": state.deal,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "hands": [_cards(hand) for hand in state.hands],
        "stock": _cards(state.stock),
        "discard_pile": _cards(state.discard_pile),
        "melds": [_meld(meld) for meld in state.melds],
        "obligation": None if state.obligation is None else str(state.obligation),
        "picked": _cards(state.picked),
        "revealed": [_cards(part) for part in state.revealed],
        "passes": state.passes,
        "went_out": state.went_out,
        "results": [_deal_score(result) for result in state.results],
    }


def _view(view: View) -> dict[str, object]:
    return {
        "seat": view.seat,
        "rules": _rules(view.rules),
        "phase": view.phase.value,
        "deal": view.deal,
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand": None if view.hand is None else _cards(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known": [_cards(part) for part in view.known],
        "stock_size": view.stock_size,
        "discard_pile": _cards(view.discard_pile),
        "melds": [_meld(meld) for meld in view.melds],
        "obligation": None if view.obligation is None else str(view.obligation),
        "picked": _cards(view.picked),
        "passes": view.passes,
        "went_out": view.went_out,
        "results": [_deal_score(result) for result in view.results],
    }


def _record(record: GameRecord) -> dict[str, object]:
    return {
        "rules": _rules(record.rules),
        "first_dealer": record.first_dealer,
        "players": None if record.players is None else list(record.players),
        "date": record.date,
        "event": record.event,
        "actions": [_action(action) for action in record.actions],
    }


def to_data(value: Document) -> dict[str, object]:
    """
    The JSON document of *value* as Python data (dicts, lists, strings, numbers, `None`).

    Raises:
        TypeError: *value* is not a state, a view, an action, a deal result or a record.
        ValueError: *value* is an action that could not be read back: a seat that is not
            0-3, a meld index that is not 0-55, a deck that is not the 56 cards.
    """
    if isinstance(value, GameState):
        kind, body = "state", _state(value)
    elif isinstance(value, DealScore):
        kind, body = "deal_score", _deal_score(value)
    elif isinstance(value, GameRecord):
        kind, body = "record", _record(value)
    elif isinstance(value, View):
        kind, body = "view", _view(value)
    elif type(value) in _ACTION_NAMES:
        kind, body = "action", _action(value)
    else:
        msg = f"no JSON form for {value!r}"
        raise TypeError(msg)
    return {"format": FORMAT, "version": VERSION, "kind": kind, **body}


def to_json(value: Document, *, pretty: bool = False) -> str:
    """
    The JSON text of *value* (see `to_data`): one line, or with *pretty* one field per line
    (and one action, meld or deal result per line), for files meant to be read.
    """
    data = to_data(value)
    if not pretty:
        return json.dumps(data, ensure_ascii=False)
    return _pretty(data, "")


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


def _seat(value: object, path: _Path) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise path.fail(f"expected a seat 0-3, got {_describe(value)}")
    return value


def _optional(value: object, path: _Path, read: Callable[[object, _Path], T]) -> T | None:
    return None if value is None else read(value, path)


def _str(value: object, path: _Path, limit: int = 1000) -> str:
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
    card = _BY_TEXT.get(value) if isinstance(value, str) else None
    if card is None:
        raise path.fail(f"expected a card such as 'Qh' or 'X1', got {_describe(value)}")
    return card


def _card_list(value: object, path: _Path, limit: int = 56) -> list[Card]:
    if not isinstance(value, list):
        raise path.fail(f"expected a list of cards, got {_describe(value)}")
    if len(value) > limit:
        raise path.fail(f"expected at most {limit} cards, got {len(value)}")
    cards = [_card(item, path.item(i)) for i, item in enumerate(value)]
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for i, card in enumerate(cards):
            if card in seen:
                raise path.item(i).fail(f"card {card} appears twice in the list")
            seen.add(card)
    return cards


def _card_set(value: object, path: _Path) -> CardSet:
    return CardSet(_card_list(value, path))


def _four(value: object, path: _Path) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    if not isinstance(value, list) or len(value) != 4:
        raise path.fail(f"expected a list of four card lists, one per seat, got {_describe(value)}")
    a, b, c, d = (_card_set(item, path.item(i)) for i, item in enumerate(value))
    return (a, b, c, d)


def _read_rules(value: object, path: _Path) -> Rules:
    data = _object(value, path, dict.fromkeys(_RULE_NAMES, False))
    values: dict[str, object] = {}
    for name, raw in data.items():
        default = getattr(_DEFAULT_RULES, name)
        where = path.key(name)
        if isinstance(default, bool):
            if type(raw) is not bool:
                raise where.fail(f"expected true or false, got {_describe(raw)}")
            values[name] = raw
        elif isinstance(default, int):
            values[name] = _int(raw, where)
        else:
            choices = [member.value for member in type(default)]
            if raw not in choices:
                raise where.fail(f"expected one of {', '.join(map(repr, choices))}, got {_describe(raw)}")
            values[name] = raw
    try:
        return Rules(**values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise path.fail(str(error)) from None


def _read_meld(value: object, path: _Path) -> TableMeld:
    data = _object(value, path, {"owner": True, "laid_down": True, "layoffs": True})
    owner = _seat(data["owner"], path.key("owner"))
    laid_down = _card_set(data["laid_down"], path.key("laid_down"))
    layoffs = _four(data["layoffs"], path.key("layoffs"))
    try:
        return TableMeld(owner, laid_down, layoffs)
    except ValueError as error:
        raise path.fail(str(error)) from None


def _read_team(value: object, path: _Path) -> TeamScore:
    data = _object(value, path, dict.fromkeys(("melded", "doubling", "bonus", "in_hand"), True))
    melded, doubling, bonus, in_hand = (
        _int(data[name], path.key(name)) for name in ("melded", "doubling", "bonus", "in_hand")
    )
    return TeamScore(melded, doubling, bonus, in_hand)


def _read_deal_score(value: object, path: _Path) -> DealScore:
    data = _object(value, path, {"deal": True, "teams": True, "went_out": True, "end": True})
    deal = _int(data["deal"], path.key("deal"), 1, 1000)
    teams = data["teams"]
    if not isinstance(teams, list) or len(teams) != 2:
        raise path.key("teams").fail(f"expected a list of two team scores, got {_describe(teams)}")
    team_0, team_1 = (_read_team(item, path.key("teams").item(i)) for i, item in enumerate(teams))
    went_out = _optional(data["went_out"], path.key("went_out"), _seat)
    end = data["end"]
    if end not in _ENDS:
        raise path.key("end").fail(f"expected one of {', '.join(map(repr, _ENDS))}, got {_describe(end)}")
    if (went_out is None) == (end == DealEnd.WENT_OUT.value):
        raise path.fail("a deal ends by going out exactly when a seat went out")
    return DealScore(deal, (team_0, team_1), went_out, DealEnd(end))


def _read_action(value: object, path: _Path, extra: Mapping[str, bool] | None = None) -> Action:
    if not isinstance(value, dict):
        raise path.fail(f"expected an object, got {_describe(value)}")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise path.key("type").fail(f"expected one of {', '.join(map(repr, _ACTION_FIELDS))}, got {_describe(kind)}")
    fields = dict.fromkeys(("type", "seat", *_ACTION_FIELDS[kind]), True)
    data = _object(value, path, {**fields, **(extra or {})})
    seat = _seat(data["seat"], path.key("seat"))
    if kind == "deal":
        deck = _card_list(data["deck"], path.key("deck"))
        if len(deck) != 56:
            raise path.key("deck").fail(f"a deck lists all 56 cards, got {len(deck)}")
        return Deal(seat, tuple(deck))
    if kind == "draw_stock":
        return DrawStock(seat)
    if kind == "pass":
        return Pass(seat)
    if kind in {"take_discard", "discard"}:
        card = _card(data["card"], path.key("card"))
        return TakeDiscard(seat, card) if kind == "take_discard" else Discard(seat, card)
    cards = _card_set(data["cards"], path.key("cards"))
    if kind == "lay_down":
        return LayDown(seat, cards)
    return LayOff(seat, _int(data["meld"], path.key("meld"), 0, 55), cards)


def _read_public(data: dict[str, object], path: _Path) -> dict[str, object]:
    """
    The fields that states and views share: everything every seat can see.
    """
    phase = data["phase"]
    if phase not in _PHASES:
        raise path.key("phase").fail(f"expected one of {', '.join(map(repr, _PHASES))}, got {_describe(phase)}")
    results = data["results"]
    if not isinstance(results, list) or len(results) > 1000:
        raise path.key("results").fail(f"expected a list of deal scores, got {_describe(results)}")
    melds = data["melds"]
    if not isinstance(melds, list) or len(melds) > 56:
        raise path.key("melds").fail(f"expected a list of melds, got {_describe(melds)}")
    return {
        "rules": _read_rules(data["rules"], path.key("rules")),
        "phase": Phase(phase),
        "deal": _int(data["deal"], path.key("deal"), 0, 1000),
        "dealer": _seat(data["dealer"], path.key("dealer")),
        "to_act": _optional(data["to_act"], path.key("to_act"), _seat),
        "discard_pile": tuple(_card_list(data["discard_pile"], path.key("discard_pile"))),
        "melds": tuple(_read_meld(item, path.key("melds").item(i)) for i, item in enumerate(melds)),
        "obligation": _optional(data["obligation"], path.key("obligation"), _card),
        "picked": _card_set(data["picked"], path.key("picked")),
        "passes": _int(data["passes"], path.key("passes"), 0, 4),
        "went_out": _optional(data["went_out"], path.key("went_out"), _seat),
        "results": tuple(_read_deal_score(item, path.key("results").item(i)) for i, item in enumerate(results)),
    }


def _read_state(data: dict[str, object], path: _Path) -> GameState:
    fields = _read_public(data, path)
    fields["hands"] = _four(data["hands"], path.key("hands"))
    fields["stock"] = tuple(_card_list(data["stock"], path.key("stock")))
    fields["revealed"] = _four(data["revealed"], path.key("revealed"))
    try:
        return GameState(**fields)  # type: ignore[arg-type]
    except ValueError as error:
        raise path.fail(f"not a valid state: {error}") from None


def _read_view(data: dict[str, object], path: _Path) -> View:
    fields = _read_public(data, path)
    sizes = data["hand_sizes"]
    if not isinstance(sizes, list) or len(sizes) != 4:
        raise path.key("hand_sizes").fail(f"expected four hand sizes, got {_describe(sizes)}")
    size_0, size_1, size_2, size_3 = (_int(n, path.key("hand_sizes").item(i), 0, 56) for i, n in enumerate(sizes))
    try:
        return View(
            seat=_optional(data["seat"], path.key("seat"), _seat),
            hand=_optional(data["hand"], path.key("hand"), _card_set),
            hand_sizes=(size_0, size_1, size_2, size_3),
            known=_four(data["known"], path.key("known")),
            stock_size=_int(data["stock_size"], path.key("stock_size"), 0, 56),
            **fields,  # type: ignore[arg-type]
        )
    except ViewError as error:
        raise path.fail(f"not a valid view: {error}") from None


def _read_record(data: dict[str, object], path: _Path) -> GameRecord:
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > _MAX_ACTIONS:
        raise path.key("actions").fail(f"expected a list of actions, got {_describe(actions)}")
    players = data["players"]
    if players is not None and (not isinstance(players, list) or len(players) != 4):
        raise path.key("players").fail(f"expected null or a list of four names, got {_describe(players)}")
    return GameRecord(
        rules=_read_rules(data["rules"], path.key("rules")),
        first_dealer=_seat(data["first_dealer"], path.key("first_dealer")),
        actions=tuple(_read_action(item, path.key("actions").item(i)) for i, item in enumerate(actions)),
        players=None
        if players is None
        else tuple(_str(name, path.key("players").item(i), 100) for i, name in enumerate(players)),
        date=_optional(data["date"], path.key("date"), _str),
        event=_optional(data["event"], path.key("event"), _str),
    )


_ENVELOPE: Final = {"format": True, "version": True, "kind": True}
_KIND_FIELDS: Final[dict[str, dict[str, bool]]] = {
    "state": dict.fromkeys(
        (
            "rules",
            "phase",
            "deal",
            "dealer",
            "to_act",
            "hands",
            "stock",
            "discard_pile",
            "melds",
            "obligation",
            "picked",
            "revealed",
            "passes",
            "went_out",
            "results",
        ),
        True,
    ),
    "view": dict.fromkeys(
        (
            "seat",
            "rules",
            "phase",
            "deal",
            "dealer",
            "to_act",
            "hand",
            "hand_sizes",
            "known",
            "stock_size",
            "discard_pile",
            "melds",
            "obligation",
            "picked",
            "passes",
            "went_out",
            "results",
        ),
        True,
    ),
    "deal_score": dict.fromkeys(("deal", "teams", "went_out", "end"), True),
    "record": dict.fromkeys(("rules", "first_dealer", "players", "date", "event", "actions"), True),
}


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
    if not isinstance(kind, str) or kind not in _KIND_FIELDS:
        raise path.key("kind").fail(
            f"expected 'state', 'view', 'action', 'deal_score' or 'record', got {_describe(kind)}"
        )
    body = _object(data, path, {**_ENVELOPE, **_KIND_FIELDS[kind]})
    if kind == "state":
        return _read_state(body, path)
    if kind == "view":
        return _read_view(body, path)
    if kind == "deal_score":
        return _read_deal_score({k: v for k, v in body.items() if k not in _ENVELOPE}, path)
    return _read_record(body, path)


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            msg = f"$: duplicate key {key!r} in an object"
            raise InvalidDataError(msg)
        result[key] = value
    return result


def _no_constant(name: str) -> object:
    msg = f"$: {name} is not a JSON number"
    raise InvalidDataError(msg)


@overload
def from_json(text: str | bytes) -> Document: ...
@overload
def from_json(text: str | bytes, kind: type[T]) -> T: ...
def from_json(text: str | bytes, kind: type[object] | None = None) -> object:
    """
    The value of a JSON document.

    Args:
        text: The JSON text.
        kind: The type the document must hold (`GameState`, `DealScore`, `GameRecord`,
            or one of the action classes), if one is expected.

    Raises:
        InvalidDataError: *text* is not JSON, or not a valid document (of *kind*).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            msg = f"$: not UTF-8 text: {error.reason}"
            raise InvalidDataError(msg) from None
    if not isinstance(text, str):
        msg = f"$: JSON must be text, got {type(text).__name__}"  # type: ignore[unreachable]
        raise InvalidDataError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"$: document too long ({len(text)} characters)"
        raise InvalidDataError(msg)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        if isinstance(error, InvalidDataError):
            raise
        msg = f"$: not JSON: {error}"
        raise InvalidDataError(msg) from None
    value = from_data(data)
    if kind is not None and not isinstance(value, kind):
        msg = f"$: expected a {kind.__name__} document, got {type(value).__name__}"
        raise InvalidDataError(msg)
    return value


def json_schema() -> dict[str, object]:
    """
    The JSON Schema (draft 2020-12) of every document this module writes.
    """
    text = resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")
    schema: dict[str, object] = json.loads(text)
    return schema


_RULE_NAMES: Final = tuple(attribute.name for attribute in Rules.__attrs_attrs__)
_DEFAULT_RULES: Final = Rules()
_BY_TEXT: Final = {str(card): card for card in FULL_DECK}
_PHASES: Final = tuple(phase.value for phase in Phase)
_ENDS: Final = tuple(end.value for end in DealEnd)
_ACTION_NAMES: Final[dict[type, str]] = {
    Deal: "deal",
    DrawStock: "draw_stock",
    TakeDiscard: "take_discard",
    LayDown: "lay_down",
    LayOff: "lay_off",
    Discard: "discard",
    Pass: "pass",
}
_ACTION_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "deal": ("deck",),
    "draw_stock": (),
    "take_discard": ("card",),
    "lay_down": ("cards",),
    "lay_off": ("meld", "cards"),
    "discard": ("card",),
    "pass": (),
}
