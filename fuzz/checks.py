"""
The checks of the fuzz targets: every call to the library timed and its outcome tallied, and
whatever a reader returns written back and read again.

A check fails when a call raises anything but a `PersianRummyError`, when a call takes the time
limit or longer three times running, when readers that must agree disagree, or when a value read
does not read back equal once written.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from time import perf_counter
from typing import Any, ParamSpec, TypeVar

from tests.test_fuzz_json import finite

from persian_rummy import (
    ACTION_TYPES,
    Card,
    CardSet,
    DealScore,
    GameRecord,
    GameState,
    InvalidDataError,
    PersianRummyError,
    Rules,
    View,
    format_action,
    format_cards,
    format_position,
    format_rules,
    from_data,
    from_json,
    is_legal,
    parse_action,
    parse_cards,
    parse_position,
    parse_rules,
    to_data,
    to_json,
)
from persian_rummy.events import Event
from persian_rummy.limits import MAX_JSON
from persian_rummy.serialize import Document

P = ParamSpec("P")
T = TypeVar("T")

#: The types `from_json` may be asked for; `None` asks for any document.
KINDS: tuple[type[Any] | None, ...] = (None, GameState, View, DealScore, GameRecord, Event, *ACTION_TYPES)


def _name(function: Callable[..., object]) -> str:
    return getattr(function, "__qualname__", repr(function))


def _timed(function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> tuple[T | PersianRummyError, float]:
    """
    What a call returns, or the `PersianRummyError` it raises, and how long it took in seconds.
    """
    start = perf_counter()
    try:
        result: T | PersianRummyError = function(*args, **kwargs)
    except PersianRummyError as error:
        result = error
    return result, perf_counter() - start


class Tally:
    """
    What one target tried: its inputs, its calls to the library, their outcomes and the slowest call.

    Every call goes through `Tally.call`, which times it: a call that takes *limit* seconds or
    longer three times running fails the check, and so does an exception that is not a
    `PersianRummyError`, which `Tally.call` lets through.
    """

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.inputs = 0
        self.calls = 0
        self.returned = 0
        self.refused: Counter[str] = Counter()
        self.slowest = 0.0

    def call(self, function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T | PersianRummyError:
        """
        What ``function(*args, **kwargs)`` returns, or the `PersianRummyError` it raises.
        """
        result, elapsed = _timed(function, *args, **kwargs)
        # Reading takes time in proportion to the text: the limit grows with texts over a million characters.
        size = max((len(arg) for arg in args if isinstance(arg, str | bytes | bytearray)), default=0)
        limit = self.limit * max(1.0, size / 1_000_000)
        if elapsed >= limit:
            # A pause of the machine or of the garbage collector is not the call's own time: a call
            # is too slow only if it is so three times.
            times = [elapsed, *(_timed(function, *args, **kwargs)[1] for _ in range(2))]
            elapsed = min(times)
            shown = ", ".join(f"{time:.3g}" for time in times)
            assert elapsed < limit, f"{_name(function)} took {shown} s, the limit is {limit:.3g} s"
        self.calls += 1
        self.slowest = max(self.slowest, elapsed)
        if isinstance(result, PersianRummyError):
            self.refused[type(result).__name__] += 1
        else:
            self.returned += 1
        return result

    def value(self, function: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """
        What a call that must succeed returns: writing a value read, or reading what was written.
        """
        result = self.call(function, *args, **kwargs)
        assert not isinstance(result, PersianRummyError), f"{_name(function)} refused: {result}"
        return result

    def summary(self) -> dict[str, object]:
        """
        The tally as plain data, which pytest-xdist can send from a worker.
        """
        return {
            "inputs": self.inputs,
            "calls": self.calls,
            "returned": self.returned,
            "refused": dict(self.refused),
            "slowest": self.slowest,
        }


def same(first: object, second: object) -> bool:
    """
    Whether two outcomes of calls are the same: equal values, or errors of one type and message.
    """
    if isinstance(first, PersianRummyError) or isinstance(second, PersianRummyError):
        return type(first) is type(second) and str(first) == str(second)
    return first == second


# -- notation ---------------------------------------------------------------------------------------------------


def check_cards(tally: Tally, text: str) -> None:
    """
    *text* as one card, as a list of cards and as a set of cards (with `CardSet.parse` and `CardSet`).
    """
    card = tally.call(Card.parse, text)
    cards = tally.call(parse_cards, text)
    card_set = tally.call(CardSet.parse, text)
    assert same(card_set, tally.call(CardSet, text))
    if isinstance(card, Card):
        assert card == tally.value(Card.parse, str(card))
        assert (card,) == cards
    if isinstance(cards, PersianRummyError):
        assert same(cards, card_set)
        return
    assert cards == tally.value(parse_cards, tally.value(format_cards, cards))
    if len(set(cards)) < len(cards):
        assert isinstance(card_set, PersianRummyError)
        return
    assert isinstance(card_set, CardSet)
    assert CardSet(cards) == card_set
    assert card_set == tally.value(CardSet.parse, str(card_set))
    assert card_set == tally.value(CardSet.parse, tally.value(format_cards, card_set))


def check_rules(tally: Tally, text: str) -> None:
    """
    *text* as a rules id.
    """
    rules = tally.call(parse_rules, text)
    if isinstance(rules, Rules):
        assert rules == tally.value(parse_rules, tally.value(format_rules, rules))


def check_position(tally: Tally, text: str) -> None:
    """
    *text* as a position; a state read writes back to a position and to JSON that read as it.
    """
    state = tally.call(parse_position, text)
    if isinstance(state, GameState):
        written = tally.value(format_position, state)
        assert state == tally.value(parse_position, written)
        assert written == tally.value(format_position, tally.value(parse_position, written))
        assert state == tally.value(from_json, tally.value(to_json, state), GameState)


def check_action(tally: Tally, text: str, state: GameState | None) -> None:
    """
    *text* as an action of *state* (or of no state), strict and not; an action read is legal when
    read strictly, and writes back to notation and to JSON that read as it.
    """
    for strict in (True, False):
        action = tally.call(parse_action, text, state, strict=strict)
        if isinstance(action, PersianRummyError):
            continue
        if strict and state is not None:
            assert tally.value(is_legal, state, action)
        written = tally.value(format_action, action, state)
        assert action == tally.value(parse_action, written, state, strict=False)
        assert action == tally.value(from_json, tally.value(to_json, action), type(action))


def check_text(tally: Tally, text: str) -> None:
    """
    *text* given to every reader of text: cards, rules, a position, an action without a state, JSON.
    """
    check_cards(tally, text)
    check_rules(tally, text)
    check_position(tally, text)
    check_action(tally, text, None)
    check_json(tally, text)


# -- JSON -------------------------------------------------------------------------------------------------------


def check_document(tally: Tally, value: Document, *, size: int = 0) -> None:
    """
    A document read from *size* characters of JSON (0 for data): written as JSON, pretty or not,
    and as data, it reads back equal.

    A text near the most `from_json` reads may hold a value whose JSON is longer than that: then
    `to_json` may refuse it.
    """
    assert value == tally.value(from_data, tally.value(to_data, value))
    for pretty in (False, True):
        written = tally.call(to_json, value, pretty=pretty)
        if isinstance(written, PersianRummyError):
            assert size > MAX_JSON // 4, f"to_json refused a document read from {size:,} characters: {written}"
            continue
        assert value == tally.value(from_json, written)
        assert value == tally.value(from_json, written, type(value))


def check_json(tally: Tally, text: str | bytes, kind: type[Any] | None = None) -> None:
    """
    *text* as a JSON document, of any kind and of *kind*; a text and its UTF-8 bytes read alike.
    """
    value = tally.call(from_json, text)
    if kind is not None:
        typed = tally.call(from_json, text, kind)
        if isinstance(value, PersianRummyError) or not isinstance(value, kind):
            assert isinstance(typed, InvalidDataError)
        else:
            assert value == typed
    if isinstance(text, str) and _encodable(text):
        assert same(value, tally.call(from_json, text.encode("utf-8")))
    if not isinstance(value, PersianRummyError):
        check_document(tally, value, size=len(text))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_data(tally: Tally, data: object, *, as_text: bool = True) -> None:
    """
    *data* as a document given as Python data; with *as_text*, its JSON text reads alike
    (data with NaN or an infinity has no JSON text).
    """
    value = tally.call(from_data, data)
    if as_text and finite(data):
        assert same(value, tally.call(from_json, json.dumps(data, ensure_ascii=False)))
    if not isinstance(value, PersianRummyError):
        check_document(tally, value)
