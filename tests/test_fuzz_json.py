"""
Fuzzing the JSON reader: arbitrary JSON values and damaged documents.

Whatever `from_data` and `from_json` are given, the only exception that may escape is
`InvalidDataError`, the two agree on what they accept, and whatever they accept writes back
to a document that reads as the same value.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import assume, event, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from persian_rummy import (
    FULL_DECK,
    Deal,
    GameRecord,
    InvalidDataError,
    Phase,
    from_data,
    from_json,
    json_schema,
    legal_actions,
    to_data,
    to_json,
)
from persian_rummy.scoring import DealEnd
from persian_rummy.serialize import FORMAT, VERSION, Document
from persian_rummy.state import next_dealer
from tests import switches
from tests.strategies import Playout, decks, playouts, rules_variants

Data = dict[str, Any]
VALIDATOR = Draft202012Validator(json_schema())

#: Every field name of every kind of document, so that generated objects often look like documents; the
#: rules' from the fields of `Rules`.
KEYS = (
    *("format", "version", "kind", "type", "seat", "deck", "card", "cards", "meld"),
    *("rules", "phase", "deal", "dealer", "to_act", "hands", "stock", "discard_pile", "melds", "obligation"),
    *("picked", "known", "passes", "went_out", "results", "owner", "laid_down", "layoffs"),
    *("teams", "melded", "doubling", "bonus", "in_hand", "end"),
    *("first_dealer", "players", "date", "event", "actions"),
    *switches.NAMES,
)
#: Every string value with a meaning: kinds, action types, phases, ends, rule choices (of every switch that
#: is an enumeration) and cards.
WORDS = (
    *("persian-rummy", "state", "action", "deal_score", "record"),
    *("deal", "draw_stock", "take_discard", "lay_down", "lay_off", "discard", "pass"),
    *(phase.value for phase in Phase),
    *(end.value for end in DealEnd),
    *(member.value for choice in dict.fromkeys(switches.CHOICE_TYPES.values()) for member in choice),
    *(str(card) for card in FULL_DECK),
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 60)
    | st.integers(-(10**40), 10**40)
    | st.floats()
    | st.sampled_from((float("nan"), float("inf"), float("-inf"), 1.0, 0.0, -0.0))
    | st.text(max_size=12)
    | st.sampled_from(WORDS)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=30,
)
envelopes = st.builds(
    lambda head, body: {**head, **body},
    st.fixed_dictionaries(
        {
            "format": st.just(FORMAT) | json_values,
            "version": st.just(VERSION) | json_values,
            "kind": st.sampled_from(("state", "action", "deal_score", "record")) | json_values,
        }
    ),
    st.dictionaries(st.sampled_from(KEYS[3:]), json_values, max_size=10),
)


def finite(data: object) -> bool:
    """
    Whether *data* holds no NaN or infinity, which JSON text cannot hold.
    """
    if isinstance(data, float):
        return data == data and abs(data) != float("inf")  # noqa: PLR0124
    if isinstance(data, dict):
        return all(finite(item) for item in data.values())
    if isinstance(data, list):
        return all(finite(item) for item in data)
    return True


def load(data: object) -> tuple[Document | None, str | None]:
    """
    Load *data* with `from_data`: the value, or the message of the `InvalidDataError` raised.

    Any other exception escapes and fails the test.
    """
    try:
        return from_data(data), None
    except InvalidDataError as error:
        return None, str(error)


def read(text: str | bytes) -> tuple[Document | None, str | None]:
    """
    Load *text* with `from_json`: the value, or the message of the `InvalidDataError` raised.
    """
    try:
        return from_json(text), None
    except InvalidDataError as error:
        return None, str(error)


def check(data: object) -> None:
    """
    *data*, as Python data and as JSON text, is refused with `InvalidDataError` or accepted;
    both readers agree, an accepted value round-trips, and what is accepted is valid under the schema.

    JSON text has no NaN or infinity: where *data* holds one, its text is refused for that.
    """
    value, message = load(data)
    text = json.dumps(data, ensure_ascii=False)
    if finite(data):
        assert (value, message) == read(text)
        assert (value, message) == read(text.encode("utf-8"))
    else:
        assert value is None
        assert read(text)[1] in {f"$: {name} is not a JSON number" for name in ("NaN", "Infinity", "-Infinity")}
    if value is None:
        event("refused")
        assert message is not None
        assert message.startswith("$")
        return
    event(f"accepted a {type(value).__name__}")
    assert isinstance(value, Document)
    # The schema checks less than the library: what the library accepts, the schema accepts too.
    assert [] == [error.message for error in VALIDATOR.iter_errors(data)]
    assert value == from_data(to_data(value))
    assert value == from_json(to_json(value))
    assert value == from_json(to_json(value, pretty=True))
    # Writing is a normal form: what was read back writes the same text again.
    assert to_json(value) == to_json(from_json(to_json(value)))


def check_text(text: str | bytes) -> None:
    """
    *text* is refused with `InvalidDataError` naming where, or accepted and round-trips.
    """
    value, message = read(text)
    if value is None:
        assert message is not None
        assert message.startswith("$")
    else:
        assert value == from_json(to_json(value))


class TestArbitraryJson:
    """
    Any JSON value, any object with an envelope, any text and any bytes: `from_data` and `from_json` raise
    no exception but `InvalidDataError`, agree on what they accept, and what they accept is valid under
    the schema and round-trips (docs/json.md, "What loading checks").
    """

    @given(json_values)
    def test_arbitrary_json_values_are_refused_or_round_trip(self, data: object) -> None:
        check(data)

    @given(envelopes)
    def test_arbitrary_objects_with_an_envelope_are_refused_or_round_trip(self, data: Data) -> None:
        check(data)

    @given(
        st.text(max_size=200) | st.sampled_from(("NaN", "-Infinity", "[1e400]", "{}", '{"a": 1, "a": 2}', "\ufeff{}"))
    )
    def test_arbitrary_text_is_refused_or_round_trips(self, text: str) -> None:
        check_text(text)

    @given(st.binary(max_size=200))
    def test_arbitrary_bytes_are_refused_or_round_trip(self, raw: bytes) -> None:
        check_text(raw)


# -- damaged documents -------------------------------------------------------------------------------------------


def documents(playout: Playout, which: int, deck: tuple[Any, ...]) -> Data:
    """
    A valid document taken from *playout*: its final state, an action, a deal's result or the record.
    """
    state = playout.final
    if which == 0:
        return to_data(state)
    if which == 1:
        if state.is_chance_node:
            return to_data(Deal(next_dealer(state), deck))
        actions = legal_actions(state)
        return to_data(
            actions[len(actions) // 2] if actions else playout.actions[-1] if playout.actions else Deal(0, deck)
        )
    if which == 2 and state.results:
        return to_data(state.results[-1])
    start = playout.states[0]
    return to_data(GameRecord(start.rules, start.dealer, playout.actions[:40], ("N", "E", "S", "W"), "2026", None))


def nodes(data: object) -> list[tuple[Any, Any]]:
    """
    Every place in *data* that holds a value, as (container, key or index), outermost first.
    """
    found: list[tuple[Any, Any]] = []
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                found.append((node, key))
                pending.append(item)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                found.append((node, index))
                pending.append(item)
    return found


def card_places(data: object) -> list[tuple[list[Any], int]]:
    cards = {str(card) for card in FULL_DECK}
    return [
        (container, key)
        for container, key in nodes(data)
        if isinstance(container, list) and isinstance(container[key], str) and container[key] in cards
    ]


@st.composite
def damaged_documents(draw: st.DrawFn) -> Data:
    """
    A valid document with one to three changes: a key dropped or added, a value replaced by any
    JSON value, a card duplicated, removed, replaced or moved, or the version changed.
    """
    playout = draw(playouts(rules=rules_variants(), max_actions=150))
    data = copy.deepcopy(documents(playout, draw(st.integers(0, 3)), draw(decks())))
    for _ in range(draw(st.integers(1, 3))):
        change = draw(st.integers(0, 7))
        places = nodes(data)
        objects = [container for container, _ in places if isinstance(container, dict)] or [data]
        cards = card_places(data)
        if change == 0:
            target = draw(st.sampled_from(objects))
            if target:
                del target[draw(st.sampled_from(sorted(target)))]
        elif change == 1:
            target = draw(st.sampled_from(objects))
            target[draw(st.sampled_from(KEYS) | st.text(max_size=8))] = draw(json_values)
        elif change == 2 and places:
            container, key = draw(st.sampled_from(places))
            container[key] = draw(json_values)
        elif change == 3 and cards:
            container, index = draw(st.sampled_from(cards))
            into, _ = draw(st.sampled_from(cards))
            into.insert(draw(st.integers(0, len(into))), container[index])
        elif change == 4 and cards:
            container, index = draw(st.sampled_from(cards))
            del container[index]
        elif change == 5 and cards:
            container, index = draw(st.sampled_from(cards))
            container[index] = str(draw(st.sampled_from(FULL_DECK)))
        elif change == 6 and len(cards) >= 2:
            (first, i), (second, j) = draw(st.lists(st.sampled_from(cards), min_size=2, max_size=2))
            first[i], second[j] = second[j], first[i]
        else:
            data["version"] = draw(st.integers(-2, 3) | json_values)
    return data


class TestDamagedDocuments:
    """
    Valid documents with a key dropped or added, a value replaced, a card duplicated, removed, replaced
    or moved, the version changed, the text spoilt or a key written twice: refused with
    `InvalidDataError`, or accepted and round-tripping (docs/json.md, "What loading checks").
    """

    @given(damaged_documents())
    def test_damaged_documents_are_refused_or_round_trip(self, data: Data) -> None:
        check(data)

    @given(playouts(rules=rules_variants(), max_actions=150), st.integers(0, 3), decks(), st.data())
    def test_damaged_text_is_refused_or_round_trips(
        self, playout: Playout, which: int, deck: tuple[Any, ...], data: st.DataObject
    ) -> None:
        text = json.dumps(documents(playout, which, deck))
        for _ in range(data.draw(st.integers(1, 3))):
            start = data.draw(st.integers(0, len(text)))
            end = data.draw(st.integers(start, min(len(text), start + 8)))
            text = (
                text[:start]
                + data.draw(st.text(max_size=4) | st.sampled_from(('"', ",", "}", "]", ": 1", "X1")))
                + text[end:]
            )
        check_text(text)

    @given(damaged_documents())
    def test_damaged_documents_with_a_key_written_twice_are_refused(self, data: Data) -> None:
        assume(data and finite(data))
        key = next(iter(data))
        twice = "{" + json.dumps(key) + ": null, " + json.dumps(data)[1:]
        assert (None, f"$: duplicate key {key!r} in an object") == read(twice)
