"""
One error hierarchy: every function of the public API, given bad input, raises a
`PersianRummyError` subclass (also a `ValueError` or a `TypeError` as fits), never an
`AttributeError`, an `IndexError` or a `KeyError` from deep inside.

The first class calls every public function and method with arguments of every wrong kind; the
others hold the calls that used to escape the hierarchy, each with its exact error.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import enum
import inspect
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import persian_rummy
import persian_rummy.bots
import persian_rummy.choices
import persian_rummy.fingerprints
import persian_rummy.limits
import persian_rummy.masks
import persian_rummy.matches
import persian_rummy.pictures
import persian_rummy.rl
import persian_rummy.seating
import persian_rummy.wording
from persian_rummy import (
    Card,
    CardSet,
    DealScore,
    Discard,
    DrawStock,
    GameRecord,
    GameState,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    PersianRummyError,
    Rules,
    TableMeld,
    View,
    apply,
    format_action,
    from_json,
    legal_actions,
    new_game,
    observe,
    parse_action,
    parse_position,
    score_deal,
    to_json,
)
from persian_rummy.melds import is_meld
from persian_rummy.scoring import TeamScore
from persian_rummy.seating import team_draw

STATE = parse_position("- 1/N play E 2c3c4c/QdQhQs5c/2h3h4h/2s3s4s * 6c - Qh Qh -/Qh/-/- 0 - -")
# A value of every kind a caller might pass by mistake, and one of each kind the package takes.
JUNK: tuple[object, ...] = (
    None,
    4,
    -1,
    1.5,
    True,
    "x",
    "",
    b"x",
    [],
    [1],
    {"a": 1},
    object(),
    STATE,
    observe(STATE, 0),
    DrawStock(0),
    Card.parse("Qh"),
    CardSet("Qh"),
    Rules(),
)
# A good value for each argument name, for the calls that make one argument at a time bad.
GOOD: dict[str, object] = {
    "state": STATE,
    "view": observe(STATE, 1),
    "rules": Rules(),
    "action": DrawStock(1),
    "rng": random.Random(0),  # noqa: S311 (a seeded generator, as the API takes)
    "text": "E draw",
    "card": "Qh",
    "cards": "Qh Qs Qd",
    "seat": 1,
    "hands": ("", "", "", ""),
    "melds": (),
    "record": GameRecord(),
    "value": STATE,
    "data": {},
    "mask": CardSet("Qh Qs Qd").mask,
    "hand": CardSet("Qc Qs X1").mask,
    "meld": TableMeld(0, "Qh Qs Qd"),
    "phase": STATE.phase,
}
# Values whose methods are part of the API.
INSTANCES: dict[type, object] = {
    Card: Card.parse("Qh"),
    CardSet: CardSet("Qh Qs"),
    TableMeld: TableMeld(0, "Qh Qs Qd"),
    GameState: STATE,
    View: observe(STATE, 0),
    Rules: Rules(),
    GameRecord: GameRecord(),
}


#: The package, its subpackages and the public modules of the core.
EXPORTERS = (
    persian_rummy,
    persian_rummy.bots,
    persian_rummy.matches,
    persian_rummy.rl,
    persian_rummy.cards,
    persian_rummy.rules,
    persian_rummy.melds,
    persian_rummy.scoring,
    persian_rummy.seating,
    persian_rummy.state,
    persian_rummy.engine,
    persian_rummy.views,
    persian_rummy.events,
    persian_rummy.records,
    persian_rummy.fingerprints,
    persian_rummy.pictures,
    persian_rummy.wording,
    persian_rummy.serialize,
    persian_rummy.notation,
    persian_rummy.limits,
    persian_rummy.masks,
    persian_rummy.choices,
)


def public_callables() -> Iterator[tuple[str, Callable[..., object]]]:
    """
    Every function and class the package and its subpackages export (but the exceptions) and
    every public method of their values, by name.
    """
    seen: set[int] = set()
    for namespace in EXPORTERS:
        for name in namespace.__all__:
            try:
                value = getattr(namespace, name)
            except ModuleNotFoundError as error:  # lent from a module whose extra is not installed
                if (error.name or "").startswith("persian_rummy"):
                    raise
                continue
            if id(value) not in seen:
                seen.add(id(value))
                yield from _callables(name, value)


def _callables(name: str, value: object) -> Iterator[tuple[str, Callable[..., object]]]:
    """
    *value* if it can be called, and the public methods of its instance in `INSTANCES`.
    """
    if inspect.isclass(value) and issubclass(value, BaseException):
        return
    if getattr(value, "_is_protocol", False):  # a protocol is a type to implement, not to call
        return
    if isinstance(value, enum.EnumMeta) and not len(value):  # an enumeration to subclass (Choice), not to call
        return
    if isinstance(value, type) and hasattr(value, "__required_keys__"):  # a TypedDict: keywords' types
        return
    if callable(value):
        yield name, value
    if inspect.isclass(value) and value in INSTANCES:
        for method, bound in inspect.getmembers(INSTANCES[value], callable):
            if not method.startswith("_"):
                yield f"{name}.{method}", bound


def bad_calls(function: Callable[..., object]) -> Iterator[dict[str, object]]:
    """
    Keyword arguments for *function*: every mix of junk for its required arguments (a sample
    of 300 where it has more than two), then each optional argument junk with the others good.
    An enumeration gets its one value junk: the rest of its call is Python's functional API, and
    its signature differs between Python versions.
    """
    if inspect.isclass(function) and issubclass(function, enum.Enum):
        yield from ({"value": junk} for junk in JUNK)
        return
    parameters = [
        p for p in inspect.signature(function).parameters.values() if p.kind not in {p.VAR_POSITIONAL, p.VAR_KEYWORD}
    ]
    required = [p.name for p in parameters if p.default is p.empty]
    rng = random.Random(len(required))  # noqa: S311 (a reproducible sample)
    mixes = (
        itertools.product(JUNK, repeat=len(required))
        if len(required) <= 2
        else (tuple(rng.choice(JUNK) for _ in required) for _ in range(300))
    )
    for mix in mixes:
        yield dict(zip(required, mix, strict=True))
    good = {name: GOOD.get(name) for name in required}
    for p in parameters:
        if p.default is not p.empty:
            for junk in JUNK:
                yield {**good, p.name: junk}


def call(function: Callable[..., object], arguments: dict[str, object]) -> None:
    """
    Call *function* with *arguments* (positionally where it takes them so) and run a lazy result.
    """
    parameters = inspect.signature(function).parameters
    keyword_only = {name for name, p in parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    positional = [value for name, value in arguments.items() if name not in keyword_only]
    keywords = {name: value for name, value in arguments.items() if name in keyword_only}
    result = function(*positional, **keywords)
    if isinstance(result, Iterator):
        list(itertools.islice(result, 3))


CALLABLES = dict(public_callables())


class TestEveryPublicFunction:
    """
    Finding 5: "Bad input escapes the error hierarchy, though the API page says every exception
    derives from PersianRummyError."
    """

    def test_there_is_much_to_call(self) -> None:
        assert len(CALLABLES) > 75
        assert {"apply", "legal_actions", "observe", "determinize", "from_json", "CardSet.isdisjoint"} <= set(CALLABLES)

    @pytest.mark.parametrize("name", sorted(CALLABLES))
    def test_only_the_package_errors_escape(self, name: str) -> None:
        function = CALLABLES[name]
        escaped: list[str] = []
        for arguments in bad_calls(function):
            try:
                call(function, arguments)
            except PersianRummyError as error:
                if not isinstance(error, ValueError | TypeError):
                    escaped.append(f"{type(error).__name__} is neither a ValueError nor a TypeError")
            except Exception as error:  # noqa: BLE001 (what the test looks for)
                shown = {key: type(value).__name__ for key, value in arguments.items()}
                escaped.append(f"{type(error).__name__} for {shown}: {error}")
        assert [] == escaped[:3]


def _raises(expected: type[Exception], message: str, function: Callable[[], object]) -> None:
    with pytest.raises(expected) as caught:
        function()
    assert message == str(caught.value)


class TestTheAuditsCalls:
    """
    Findings 5 and 6, call by call: each now raises the package's error, with a message that
    says what was wrong.
    """

    @pytest.mark.parametrize(
        ("function", "expected", "message"),
        [
            (lambda: Rules(hand_size=14), InvalidValueError, None),
            (lambda: GameState(phase="bogus"), InvalidValueError, None),
            (lambda: CardSet(-1), InvalidValueError, "a card set mask is an int of 56 bits, got -1"),
            (lambda: Card(5), InvalidTypeError, "rank must be a Rank, got 5"),  # type: ignore[arg-type]
            (lambda: new_game(dealer=4), InvalidValueError, "dealer must be a seat 0-3, got 4"),
            (lambda: new_game(2), InvalidTypeError, "rules must be a Rules or None, got 2"),  # type: ignore[arg-type]
            (lambda: new_game("x"), InvalidTypeError, "rules must be a Rules or None, got 'x'"),  # type: ignore[arg-type]
            (lambda: observe(STATE, 4), InvalidValueError, "seat must be a seat 0-3, got 4"),
            (lambda: team_draw([]), InvalidValueError, "the draw needs one card per player, four in all, got 0"),
            (lambda: GameRecord(first_dealer=9), InvalidValueError, "first_dealer must be a seat 0-3, got 9"),
            (lambda: score_deal([], [], None), InvalidValueError, "hands are the four hands, one per seat, got []"),
            (lambda: apply(None, DrawStock(1)), InvalidTypeError, "state must be a GameState, got None"),  # type: ignore[arg-type]
            (lambda: legal_actions(5), InvalidTypeError, "state must be a GameState or a View, got 5"),  # type: ignore[arg-type]
            (lambda: parse_action("E draw", 5), InvalidTypeError, "state must be a GameState or None, got 5"),  # type: ignore[arg-type]
            (
                lambda: from_json("{}", "x"),  # type: ignore[call-overload]
                InvalidTypeError,
                "kind must be a document's type, such as GameState or GameRecord, got 'x'",
            ),
            (lambda: to_json(None), InvalidTypeError, "no JSON form for None"),  # type: ignore[arg-type]
            (lambda: format_action("E draw"), InvalidTypeError, "action must be an action, got 'E draw'"),  # type: ignore[arg-type]
        ],
    )
    def test_finding_5(self, function: Callable[[], object], expected: type[Exception], message: str | None) -> None:
        with pytest.raises(expected) as caught:
            function()
        assert message is None or message == str(caught.value)

    @pytest.mark.parametrize(
        ("function", "expected", "message"),
        [
            (lambda: DrawStock(5), InvalidValueError, "seat must be a seat 0-3, got 5"),
            (lambda: DrawStock(-1), InvalidValueError, "seat must be a seat 0-3, got -1"),
            (lambda: DrawStock("1"), InvalidTypeError, "seat must be a seat 0-3, got '1'"),  # type: ignore[arg-type]
            (lambda: Pass(True), InvalidTypeError, "seat must be a seat 0-3, got True"),
            (lambda: Discard(0, None), InvalidTypeError, "card must be a Card or its notation, got None"),  # type: ignore[arg-type]
            (lambda: LayDown(0, []), InvalidValueError, "cards must hold at least one card"),
            (lambda: LayDown(0, 7), InvalidTypeError, "cards must be cards, their notation or a CardSet, got 7"),  # type: ignore[arg-type]
            (
                lambda: LayOff(0, -1, "Qh"),
                InvalidValueError,
                "meld must be the index of a meld on the table, 0 to 55, got -1",
            ),
            (
                lambda: is_meld(["4s", "4d", "4h", "4h"]),
                InvalidValueError,
                "card 4h appears twice in ['4s', '4d', '4h', '4h']",
            ),
            (lambda: Pass([]), InvalidTypeError, "seat must be a seat 0-3, got []"),  # type: ignore[arg-type]
        ],
    )
    def test_finding_6_actions_are_checked_when_built(
        self, function: Callable[[], object], expected: type[Exception], message: str
    ) -> None:
        _raises(expected, message, function)

    def test_finding_6_cards_are_cards_or_their_notation_everywhere(self) -> None:
        assert LayDown(0, ["4c", "5c", "6c"]) == LayDown(0, "4c 5c 6c") == LayDown(0, CardSet("4c 5c 6c"))
        assert "Qh" in CardSet("Qh Qs")
        assert is_meld("Qh Qs Qd")
        card = Card.parse("Qh")
        assert "   Qh|Qh   " == f"{card:>5}|{card:<5}"

    def test_deal_results_are_checked_when_built(self) -> None:
        team = TeamScore(1, 0, 0, 0)
        _raises(
            InvalidValueError, "deals are numbered from 1, got 0", lambda: DealScore(0, (team, team), None, "passes")
        )
        _raises(
            InvalidValueError,
            "DealEnd is one of 'went_out', 'passes', 'stock_empty', not 'x'",
            lambda: DealScore(1, (team, team), None, "x"),
        )


def test_the_checks_cost_nothing_on_the_engines_own_values() -> None:
    """
    The engine builds its actions from caches, so checking fields when built leaves its
    legal actions as they were: the same objects each time.
    """
    first: Any = legal_actions(STATE)
    assert all(a is b for a, b in zip(first, legal_actions(STATE), strict=True))
