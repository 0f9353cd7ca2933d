"""
The fuzz targets: for each, the inputs (a Hypothesis strategy), the check they go through, and
the weight that sets its share of the session's inputs.

The inputs are arbitrary text and bytes, text made of the notation's and JSON's own tokens,
valid texts and documents damaged, texts and documents longer than the library reads, deeply
nested JSON, and values of the wrong type.  The strategies of the test suite's fuzz tests
(``tests/test_fuzz_text.py``, ``tests/test_fuzz_json.py``) are used as they are.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from attrs import frozen
from hypothesis import strategies as st
from tests.strategies import played_states, rules_variants
from tests.test_fuzz_json import KEYS, WORDS, damaged_documents, envelopes, nodes
from tests.test_fuzz_json import json_values as json_data
from tests.test_fuzz_text import (
    CARD_TEXTS,
    NEAR_CARDS,
    SEATS,
    TOKENS,
    VERBS,
    action_texts,
    mutated,
    mutated_documents,
    mutated_positions,
    position_texts,
    rules_texts,
    token_texts,
)
from tests.test_fuzz_text import (
    json_values as json_texts_values,
)

from persian_rummy import (
    DEFAULT_RULES,
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    DrawStock,
    GameRecord,
    GameState,
    Phase,
    PlayerAction,
    apply,
    format_position,
    from_data,
    from_json,
    legal_actions,
    new_game,
    observe,
    parse_action,
    parse_cards,
    parse_position,
    parse_rules,
    to_data,
    to_json,
)
from persian_rummy.events import events_of
from persian_rummy.limits import MAX_JSON, MAX_NOTATION
from persian_rummy.state import next_dealer
from persian_rummy.strategies import views

from .checks import KINDS, Tally, check_action, check_cards, check_data, check_json, check_position, check_text

# -- arbitrary text ---------------------------------------------------------------------------------------------

#: The characters of the notation, and white space and controls that ``str.split`` treats in its own ways.
NOTATION_CHARS = sorted(
    {char for token in TOKENS for char in token} | set("^*\t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000\ufeff\x00")
)

characters = (
    st.characters(exclude_categories=())  # any code point, lone surrogates included
    | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
    | st.sampled_from(NOTATION_CHARS)
)


def texts(max_size: int | None = None) -> st.SearchStrategy[str]:
    """
    Any text: any code point, lone surrogates more often than by chance, and the notation's characters.
    """
    return st.text(characters, max_size=max_size)


# -- valid texts, written by the library -----------------------------------------------------------------------


def _sample_game() -> tuple[tuple[GameState, ...], tuple[Action, ...]]:
    """
    The states and actions of a first deal played to its end by a seeded random number generator.
    """
    rng = random.Random(7)  # noqa: S311 (a fixed game, not cryptography)
    states = [new_game()]
    actions: list[Action] = []
    while not states[-1].results:
        state = states[-1]
        if state.is_chance_node:
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            action: Action = Deal(next_dealer(state), tuple(deck))
        else:
            action = rng.choice(legal_actions(state))
        actions.append(action)
        states.append(apply(state, action))
    return tuple(states), tuple(actions)


_STATES, _ACTIONS = _sample_game()
#: A state in the middle of the deal.
_STATE = _STATES[len(_STATES) // 2]
_RECORD = GameRecord(DEFAULT_RULES, 0, _ACTIONS, ("N", "E", "S", "W"), "2026", None)
#: Each seat's and a spectator's account of the deal and of a draw from the stock.
_EVENTS = (*events_of(_STATES[0], _ACTIONS[0]), *events_of(_STATES[1], _ACTIONS[1]))
#: Valid documents of every kind, written by `to_json`: states, a view, actions, a deal's score, a record,
#: events.
SAMPLE_DOCUMENTS: tuple[str, ...] = tuple(
    to_json(value)
    for value in (
        new_game(),
        _STATE,
        observe(_STATE, 1),
        *_RECORD.actions[:2],
        _STATES[-1].results[0],
        _RECORD,
        *_EVENTS,
    )
)
#: Valid texts of the notation: a position, a rules id, actions and cards.
SAMPLE_NOTATION: tuple[str, ...] = (
    format_position(_STATE),
    "hand_size=7,num_deals=3",
    "N draw",
    "E discard Qh",
    "S meld 5c6c7c",
    " ".join(CARD_TEXTS),
    "".join(CARD_TEXTS),
    "2c 10c X1",
)


# -- long texts and documents, deep nesting ---------------------------------------------------------------------


def _stretched(text: str, size: int) -> str:
    return (text * (size // max(len(text), 1) + 1))[:size]


def _sizes(limit: int, far: int) -> st.SearchStrategy[int]:
    """
    Sizes around *limit*, the most the library reads, up to *far*.
    """
    return (
        st.sampled_from([limit - 1, limit, limit + 1, far])
        | st.integers(limit - 64, limit + 64)
        | st.integers(limit // 10, far)
    )


@st.composite
def long_notation(draw: st.DrawFn) -> str:
    """
    Text around and beyond the length the notation's readers take: a valid text padded with spaces,
    or a valid or arbitrary piece repeated.
    """
    piece = draw(st.sampled_from(SAMPLE_NOTATION) | texts(max_size=6).filter(bool))
    size = draw(_sizes(MAX_NOTATION, 100 * MAX_NOTATION))
    if draw(st.booleans()):
        return piece + " " * max(size - len(piece), 0)
    return _stretched(piece + draw(st.sampled_from(["", " ", "/", ","])), size)


@st.composite
def long_json(draw: st.DrawFn) -> str | bytes:
    """
    JSON text around and beyond the length `from_json` takes: a valid document padded with white
    space or with a long string, or a record of up to two million characters, its actions repeated.
    """
    document = draw(st.sampled_from(SAMPLE_DOCUMENTS))
    how = draw(st.integers(0, 2))
    if how == 0:
        size = draw(_sizes(MAX_JSON, MAX_JSON + MAX_JSON // 8))
        text = document + " " * max(size - len(document), 0)
    elif how == 1:
        size = draw(st.integers(1_000, min(MAX_JSON, 2_000_000)))
        data = to_data(_RECORD)
        action = json.dumps(data["actions"][-1])  # type: ignore[index]
        actions = ", ".join([action] * (size // (len(action) + 2) + 1))
        text = json.dumps({**data, "actions": None}).replace('"actions": null', f'"actions": [{actions}]')
    else:
        size = draw(_sizes(MAX_JSON, MAX_JSON + MAX_JSON // 8))
        data = json.loads(document)
        data[draw(st.sampled_from(sorted(data)))] = draw(st.sampled_from(CARD_TEXTS)) * (size // 2)
        text = json.dumps(data)
    return text.encode("utf-8") if draw(st.booleans()) else text


#: An opening and its closing, to nest arrays and objects.
NESTINGS = [("[", "]"), ('{"a": ', "}"), ('[{"hands": ', "}]"), ('{"actions": [', "]}")]


def _depths() -> st.SearchStrategy[int]:
    return st.sampled_from([997, 998, 999, 1000, 1001, 5_000, 100_000]) | st.integers(1, 64) | st.integers(1, 120_000)


@st.composite
def deep_json(draw: st.DrawFn) -> str:
    """
    Deeply nested JSON text, closed or not, alone or as a field of a valid document.
    """
    opening, closing = draw(st.sampled_from(NESTINGS))
    depth = draw(_depths())
    inner = draw(st.sampled_from(["", "1", "null", '"Qh"', "[]", "{}"]))
    closed = draw(st.booleans())
    nested = opening * depth + inner + (closing * depth if closed else "")
    if draw(st.booleans()):
        return nested
    document = draw(st.sampled_from(SAMPLE_DOCUMENTS))
    field = draw(st.sampled_from(KEYS))
    return f"{document[:-1]}, {json.dumps(field)}: {nested}}}"


@st.composite
def deep_data(draw: st.DrawFn) -> object:
    """
    Deeply nested lists and objects, alone or as a field of a valid document's data.
    """
    data: object = draw(st.sampled_from([None, 1, "Qh", [], {}]))
    depth = draw(_depths())
    as_list = draw(st.booleans())
    for _ in range(depth):
        data = [data] if as_list else {"hands": data}
    if draw(st.booleans()):
        return data
    document = json.loads(draw(st.sampled_from(SAMPLE_DOCUMENTS)))
    document[draw(st.sampled_from(sorted(document) + list(KEYS)))] = data
    return document


# -- JSON text and bytes ----------------------------------------------------------------------------------------

#: The pieces of JSON text: punctuation, literals, the field names and the words of documents.
JSON_TOKENS = [
    *("{", "}", "[", "]", '"', ":", ",", " ", "\n", "null", "true", "false", "0", "-1", "1.5", "1e999", "-0"),
    *("NaN", "Infinity", "-Infinity", '"\\ud800"', '"\\u0000"', "\ufeff", "/*", "9" * 4301, "1e-99999"),
    *(json.dumps(key) for key in KEYS),
    *(json.dumps(word) for word in WORDS),
]
ENVELOPE = '{"format": "persian-rummy", "version": 1, "kind": '


def json_texts() -> st.SearchStrategy[str]:
    """
    Text made of JSON's tokens and the documents' words, often after the start of a valid envelope.
    """
    tokens = st.lists(st.sampled_from(JSON_TOKENS) | texts(max_size=3), max_size=40).map("".join)
    return st.tuples(st.sampled_from(["", "", ENVELOPE, ENVELOPE + '"state", ']), tokens).map("".join)


@st.composite
def damaged_bytes(draw: st.DrawFn) -> bytes:
    """
    A valid document's UTF-8 bytes with bytes inserted or replaced (often bytes that are no UTF-8,
    or an encoded surrogate), or the document in another encoding.
    """
    text = draw(st.sampled_from(SAMPLE_DOCUMENTS))
    if draw(st.integers(0, 5)) == 0:
        return text.encode(draw(st.sampled_from(["utf-16", "utf-16-be", "utf-32", "utf-8-sig", "latin-1"])))
    raw = text.encode("utf-8")
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(raw)))
        end = draw(st.integers(start, min(len(raw), start + 4)))
        bad = st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x00", b"\x80"])
        raw = raw[:start] + draw(bad | st.binary(min_size=1, max_size=4)) + raw[end:]
    return raw


@st.composite
def damaged_views(draw: st.DrawFn) -> str:
    """
    The JSON text of a view, with one to three tokens or characters deleted, duplicated or replaced.
    """
    text = to_json(draw(views(states=played_states(rules=rules_variants(), max_actions=100))))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutated(text, alphabet=['"', ",", ":", "[", "]", "{", "}", "0", "-", "null", "Qh", "true"]))
    return text


# -- values of the wrong type ----------------------------------------------------------------------------------

odd_values: st.SearchStrategy[object] = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.binary(max_size=8)
    | st.binary(max_size=8).map(bytearray)
    | st.lists(st.sampled_from(CARD_TEXTS) | st.integers(), max_size=3)
    | st.tuples(st.sampled_from(CARD_TEXTS))
    | st.frozensets(st.integers(0, 60), max_size=3)
    | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
    | st.builds(object)
    | st.sampled_from(
        [
            Card.parse("Qh"),
            CardSet.parse("Qh Qs"),
            DEFAULT_RULES,
            new_game(),
            DrawStock(0),
            Phase.DRAW,
            observe(new_game()),
            GameState,
            CardSet,
            Action,
            PlayerAction,
            int,
            "state",
        ]
    )
)


#: Python values that JSON has no form for, or that `json.loads` never returns.
python_values: st.SearchStrategy[object] = (
    odd_values
    | st.sampled_from([10**5000, -(10**5000), 2**63, float("nan"), float("-inf"), -0.0])
    | st.dictionaries(st.integers() | st.none() | st.tuples(st.integers()), json_texts_values(), min_size=1, max_size=2)
    | st.tuples(json_texts_values(), json_texts_values())
)


@st.composite
def documents_with_python_values(draw: st.DrawFn) -> object:
    """
    The data of a valid document with one to three values replaced by values of Python, not JSON.
    """
    data = json.loads(draw(st.sampled_from(SAMPLE_DOCUMENTS)))
    for _ in range(draw(st.integers(1, 3))):
        container, key = draw(st.sampled_from(nodes(data)))
        container[key] = draw(python_values)
    return data


def check_odd(tally: Tally, value: Any) -> None:
    """
    A value that is not text given to every reader of text, and to `from_json` and `from_data`; a
    text given with it as the state of `parse_action` and as the kind of `from_json`.
    """
    for reader in (Card.parse, CardSet.parse, CardSet, parse_cards, parse_rules, parse_position, from_json, from_data):
        tally.call(reader, value)
    for strict in (True, False):
        tally.call(parse_action, value, None, strict=strict)
        tally.call(parse_action, value, _STATE, strict=strict)
        tally.call(parse_action, "N draw", value, strict=strict)
        tally.call(parse_action, "draw", value, strict=strict)
    for document in SAMPLE_DOCUMENTS:
        tally.call(from_json, document, value)


# -- the targets ----------------------------------------------------------------------------------------------


@frozen
class Target:
    """
    A fuzz target: the inputs, the check each goes through and the weight that sets its share of
    the session's inputs.  Inputs that take long to make (played games) have small weights.
    """

    name: str
    inputs: st.SearchStrategy[Any]
    check: Callable[[Tally, Any], None]
    weight: float

    def share(self, total: int) -> int:
        """
        How many of *total* inputs this target tries.
        """
        return max(1, math.ceil(total * self.weight / sum(target.weight for target in TARGETS)))


def _with_kind(tally: Tally, pair: tuple[str | bytes, type[Any] | None]) -> None:
    check_json(tally, *pair)


def _action_both(tally: Tally, pair: tuple[str, GameState]) -> None:
    text, state = pair
    check_action(tally, text, state)
    check_action(tally, text, None)


def _action_shaped(tally: Tally, parts: tuple[str, str, str]) -> None:
    text = " ".join(parts)
    check_action(tally, text, None)
    check_action(tally, text, _STATE)


def _data(tally: Tally, data: object) -> None:
    check_data(tally, data)


def _data_alone(tally: Tally, data: object) -> None:
    check_data(tally, data, as_text=False)


def _kinds() -> st.SearchStrategy[type[Any] | None]:
    return st.sampled_from(KINDS)


TARGETS: tuple[Target, ...] = (
    # Every reader of text.
    Target("text-arbitrary", texts(), check_text, 35),
    Target("text-tokens", token_texts(), check_text, 10),
    Target("text-long", long_notation(), check_text, 0.3),
    Target("text-wrong-types", odd_values, check_odd, 3),
    # Cards, rules, positions and actions.
    Target(
        "cards-runs",
        st.lists(st.sampled_from([*CARD_TEXTS, *NEAR_CARDS, " ", "-"]), max_size=12).map("".join),
        check_cards,
        8,
    ),
    Target("rules-pairs", rules_texts(), check_text, 5),
    Target("position-fields", position_texts(), check_position, 4),
    Target("position-damaged", mutated_positions(), check_position, 0.6),
    Target(
        "action-shaped",
        st.tuples(st.sampled_from([*SEATS, ""]), st.sampled_from(VERBS), token_texts(max_size=4)),
        _action_shaped,
        5,
    ),
    Target(
        "action-tokens-in-a-game",
        st.tuples(token_texts(), played_states(rules=rules_variants(), max_actions=150)),
        _action_both,
        0.6,
    ),
    Target("action-damaged", action_texts(), _action_both, 0.6),
    # JSON text and bytes.
    Target("json-arbitrary", st.tuples(texts() | json_texts(), _kinds()), _with_kind, 10),
    Target("json-bytes", st.tuples(st.binary() | damaged_bytes(), _kinds()), _with_kind, 8),
    Target("json-damaged", st.tuples(mutated_documents(), _kinds()), _with_kind, 0.5),
    Target("json-damaged-views", st.tuples(damaged_views(), _kinds()), _with_kind, 0.3),
    Target("json-long", st.tuples(long_json(), _kinds()), _with_kind, 0.03),
    Target("json-deep", st.tuples(deep_json(), _kinds()), _with_kind, 0.2),
    # JSON data.
    Target("data-arbitrary", json_data | envelopes, _data, 1),
    Target("data-damaged", damaged_documents(), _data, 0.5),
    Target("data-python-values", documents_with_python_values(), _data_alone, 2),
    Target("data-deep", deep_data(), _data_alone, 0.1),
)
