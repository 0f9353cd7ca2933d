"""
Fuzzing of every parser of text: arbitrary text, text built from the notation's own tokens,
and valid texts with a token or a character deleted, duplicated or replaced.

Each parser may raise only its documented exceptions (`InvalidNotationError`; also
`IllegalActionError` for `parse_action`; `InvalidDataError` for `from_json`), and
whatever it returns must round-trip: written back, it reads to an equal value.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeAlias

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidDataError,
    InvalidNotationError,
    LayOff,
    Phase,
    Rules,
    format_action,
    format_cards,
    format_position,
    format_rules,
    from_json,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    parse_cards,
    parse_position,
    parse_rules,
    to_json,
)
from persian_rummy.serialize import to_data
from tests import switches
from tests.strategies import Playout, actions_of, played_states, playouts, rules_variants

Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None

# -- the checks: documented exceptions only, and round trips ----------------------------------------------------


def check_card(text: str) -> None:
    try:
        card = Card.parse(text)
    except InvalidNotationError:
        return
    assert card in FULL_DECK
    assert card == Card.parse(str(card))


def check_card_set(text: str) -> None:
    try:
        parsed = CardSet.parse(text)
    except InvalidNotationError:
        return
    assert parsed == CardSet.parse(str(parsed))
    assert parsed == CardSet.parse(format_cards(parsed))


def check_cards(text: str) -> None:
    try:
        parsed = parse_cards(text)
    except InvalidNotationError:
        return
    assert parsed == parse_cards(format_cards(parsed))
    assert parsed == parse_cards(" ".join(str(card) for card in parsed))


def check_action(text: str, state: GameState | None = None) -> None:
    for strict in (True, False):
        try:
            action = parse_action(text, state, strict=strict)
        except (InvalidNotationError, IllegalActionError):
            continue
        if state is None:
            assert not isinstance(action, LayOff)
        if strict and state is not None:
            assert is_legal(state, action)
        written = format_action(action, state)
        assert action == parse_action(written, state, strict=False)
        assert written == format_action(parse_action(written, state, strict=False), state)


def check_position(text: str) -> None:
    try:
        state = parse_position(text)
    except InvalidNotationError:
        return
    written = format_position(state)
    again = parse_position(written)
    assert state == again
    assert written == format_position(again)


def check_rules(text: str) -> None:
    try:
        rules = parse_rules(text)
    except InvalidNotationError:
        return
    assert rules == parse_rules(format_rules(rules))


def check_json(text: str | bytes) -> None:
    try:
        value = from_json(text)
    except InvalidDataError:
        return
    assert value == from_json(to_json(value))
    assert value == from_json(to_json(value, pretty=True))


CHECKS: dict[str, Callable[[str], None]] = {
    "Card.parse": check_card,
    "CardSet.parse": check_card_set,
    "parse_cards": check_cards,
    "parse_action": check_action,
    "parse_position": check_position,
    "parse_rules": check_rules,
    "from_json": check_json,
}

# -- texts built from the notation's alphabet -------------------------------------------------------------------

CARD_TEXTS = [str(card) for card in FULL_DECK]
NEAR_CARDS = ["10c", "10h", "10", "1", "0", "T", "X", "X0", "X5", "Tx", "1c", "11c", "Qz", "qh", "AC", "x1"]
SEATS = ["N", "E", "S", "W", "n", "Q"]
VERBS = ["deal", "draw", "take", "meld", "lay", "on", "discard", "pass", "Draw"]
PUNCTUATION = ["/", ":", "+", ",", "-", "*", ".", "=", " ", "  ", "\t", "--"]
NUMBERS = ["0", "1", "2", "3", "4", "7", "10", "-10", "25", "99", "007", "1000000", "-0", "²", "٣"]
PHASES = [phase.value for phase in Phase]
RULE_NAMES = [attribute.name for attribute in Rules.__attrs_attrs__]
RULE_VALUES = [
    "true",
    "false",
    *(member.value for choice in dict.fromkeys(switches.CHOICE_TYPES.values()) for member in choice),
    # card values (R23): the default, all 100, a value too high, too few, a leading zero
    "2/3/4/5/6/7/8/9/10/10/10/10/15/20",
    "/".join(["100"] * 14),
    "/".join(["1001"] * 14),
    "1/2/3",
    "/".join(["01"] * 14),
]
TOKENS = [*CARD_TEXTS, *NEAR_CARDS, *SEATS, *VERBS, *PUNCTUATION, *NUMBERS, *PHASES, *RULE_NAMES, *RULE_VALUES]


def token_texts(tokens: list[str] = TOKENS, max_size: int = 30) -> st.SearchStrategy[str]:
    """
    Texts made of the notation's tokens, now and then glued to a few arbitrary characters.
    """
    part = st.sampled_from(tokens) | st.text(max_size=2)
    separator = st.sampled_from(["", " ", "", "/", ",", ":"])
    return st.lists(st.tuples(part, separator).map("".join), max_size=max_size).map("".join)


def rules_texts() -> st.SearchStrategy[str]:
    """
    Rules ids: ``name=value`` pairs (names and values drawn apart), joined by commas.
    """
    pair = st.tuples(
        st.sampled_from(RULE_NAMES) | st.text(max_size=3),
        st.sampled_from(["=", "=", ":", ""]),
        st.sampled_from([*RULE_VALUES, *NUMBERS]) | st.text(max_size=3),
    ).map("".join)
    return st.just("-") | st.lists(pair, min_size=1, max_size=4).map(",".join)


def field_texts() -> st.SearchStrategy[str]:
    """
    One field of a position: a short run of tokens without spaces.
    """
    tokens = [token for token in TOKENS if token.strip() == token and token]
    return token_texts(tokens, max_size=8).map(lambda text: "".join(text.split()) or "-")


#: A valid position, field by field, and other values each field may take.
POSITION_FIELDS: list[tuple[str, list[str]]] = [
    ("-", ["hand_size=3", "empty_stock_end=first_pass", "num_deals=1", "-,-"]),
    ("1/N", ["0/N", "1/E", "2/S", "3/W", "01/N", "1/n"]),
    ("draw", PHASES),
    ("E", ["-", "N", "S", "W"]),
    ("2c3c4c/2d3d4d/2h3h4h/2s3s4s", ["2c3c4c5c/2d3d4d/2h3h4h/2s3s4s", "-/-/-/-", "2c3c4c/2d3d4d/2h3h4h"]),
    ("*", ["-", "5c*", "X4X3X2X1"]),
    ("5c", ["-", "5c5d", "10c"]),
    ("-", ["N:6c7c8c", "E:6h6d6s+S:6c", "N:6c7c8c,E:6h6d6s", "N:6c7c8c+W:9c+E:5c"]),
    ("-", ["5c", "2c"]),
    ("-", ["5c", "2c", "5c2c"]),
    ("-", ["-/-/-/-", "5c/-/-/-", "-/2d/-/-"]),
    ("0", ["1", "4", "9"]),
    ("-", ["N", "E", "S", "W"]),
    ("-", ["0.0.0.9:0.0.25.0:N", "0.0.0.0:0.0.0.0:p", "0.0.0.0:0.0.0.0:e"]),
]


@st.composite
def position_texts(draw: st.DrawFn) -> str:
    """
    A valid position with a few fields changed to other values, and up to two made of tokens.
    """
    fields = [
        draw(st.sampled_from(others)) if draw(st.integers(0, 4)) == 0 else valid for valid, others in POSITION_FIELDS
    ]
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        fields[draw(st.integers(0, 13))] = draw(field_texts())
    if draw(st.integers(0, 3)) == 0:
        fields[0] = draw(rules_texts())
    return " ".join(fields)


# -- mutations of valid texts -----------------------------------------------------------------------------------


@st.composite
def mutated(draw: st.DrawFn, text: str, alphabet: list[str] = TOKENS) -> str:
    """
    *text* with one token or one character deleted, duplicated or replaced, or two swapped.

    Tokens are the parts between spaces and between the separators ``/ , + : .``.
    """
    if draw(st.booleans()):
        parts = [text[i] for i in range(len(text))]
    else:
        parts = []
        start = 0
        for i, char in enumerate(text):
            if char in " /,+:.":
                parts.extend((text[start:i], char))
                start = i + 1
        parts.append(text[start:])
    if not parts:
        return draw(st.sampled_from(alphabet))
    i = draw(st.integers(0, len(parts) - 1))
    how = draw(st.sampled_from(["delete", "duplicate", "replace", "swap"]))
    if how == "delete":
        del parts[i]
    elif how == "duplicate":
        parts.insert(i, parts[i])
    elif how == "replace":
        parts[i] = draw(st.sampled_from(alphabet) | st.text(max_size=2))
    else:
        j = draw(st.integers(0, len(parts) - 1))
        parts[i], parts[j] = parts[j], parts[i]
    return "".join(parts)


@st.composite
def mutated_positions(draw: st.DrawFn) -> str:
    state = draw(played_states(rules=rules_variants(), max_actions=150))
    text = format_position(state)
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutated(text))
    return text


@st.composite
def action_texts(draw: st.DrawFn) -> tuple[str, GameState]:
    """
    A state and the text of one of its legal actions, mutated, or without its seat.
    """
    state = draw(played_states(rules=rules_variants(), max_actions=150))
    if state.phase is Phase.GAME_OVER:
        return draw(token_texts()), state
    text = format_action(draw(actions_of(state)), state)
    choice = draw(st.integers(0, 2))
    if choice == 1:
        text = draw(mutated(text))
    elif choice == 2:
        text = text.partition(" ")[2]
    return text, state


class TestArbitraryText:
    """
    Arbitrary text into every parser of text: each raises only its documented exceptions
    (`InvalidNotationError`; also `IllegalActionError` for `parse_action`; `InvalidDataError` for
    `from_json`), and what it returns round-trips (docs/notation.md, docs/json.md).
    """

    @pytest.mark.parametrize("parser", ["Card.parse", "CardSet.parse", "parse_cards", "parse_rules", "from_json"])
    @given(text=st.text())
    def test_arbitrary_text(self, parser: str, text: str) -> None:
        CHECKS[parser](text)

    @given(text=st.text())
    def test_arbitrary_text_as_a_position(self, text: str) -> None:
        check_position(text)

    @given(text=st.text(), state=st.none() | played_states(max_actions=60))
    def test_arbitrary_text_as_an_action(self, text: str, state: GameState | None) -> None:
        check_action(text, state)


class TestCards:
    """
    Card notation from its own tokens and near misses (``10c``, ``X5``, ``qh``): a card, a card set and a
    list of cards are read, or refused with `InvalidNotationError`, and what is read round-trips
    (docs/notation.md).
    """

    @pytest.mark.parametrize("parser", ["Card.parse", "CardSet.parse", "parse_cards"])
    @given(text=token_texts(max_size=6))
    def test_card_tokens(self, parser: str, text: str) -> None:
        CHECKS[parser](text)

    @given(text=st.lists(st.sampled_from([*CARD_TEXTS, *NEAR_CARDS, " ", "-"]), max_size=12).map("".join))
    def test_card_runs(self, text: str) -> None:
        check_card(text)
        check_card_set(text)
        check_cards(text)


class TestActions:
    """
    Action notation from seats, verbs and cards, and legal actions' texts mutated or without their seat:
    `parse_action` raises only `InvalidNotationError` or `IllegalActionError`, and what it reads is legal
    when strict and round-trips (docs/notation.md).
    """

    @given(text=token_texts(), state=st.none() | played_states(rules=rules_variants(), max_actions=150))
    def test_action_tokens(self, text: str, state: GameState | None) -> None:
        check_action(text, state)

    @given(texts=st.tuples(st.sampled_from(SEATS) | st.just(""), st.sampled_from(VERBS), token_texts(max_size=4)))
    def test_actions_shaped_from_tokens(self, texts: tuple[str, str, str]) -> None:
        seat, verb, rest = texts
        text = f"{seat} {verb} {rest}"
        check_action(text)
        check_action(text, new_game())

    @given(action=action_texts())
    def test_mutated_actions(self, action: tuple[str, GameState]) -> None:
        text, state = action
        check_action(text, state)
        check_action(text)


# -- positions and rules: inputs that once escaped as a plain ValueError ------------------------------------------

DOUBLED_MINUS = "go_out_bonus=--10"
SUPERSCRIPT_PASSES = "- 1/N draw E 2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h/2s3s4s5s6s7s8s * 9c - - - - ² - -"


class TestRulesAndPositions:
    """
    Rules ids and positions built field by field from the notation's tokens, and positions of played
    games mutated: `parse_rules` and `parse_position` raise only `InvalidNotationError`, and what they
    read round-trips (docs/notation.md).
    """

    @given(text=rules_texts())
    @example(text=DOUBLED_MINUS)
    def test_rules_from_tokens(self, text: str) -> None:
        check_rules(text)

    @given(text=position_texts())
    @example(text=SUPERSCRIPT_PASSES)
    def test_positions_from_tokens(self, text: str) -> None:
        check_position(text)

    @given(text=mutated_positions())
    @example(text=DOUBLED_MINUS + SUPERSCRIPT_PASSES[1:])
    def test_mutated_positions(self, text: str) -> None:
        check_position(text)

    def test_the_fuzzed_position_fields_can_be_valid(self) -> None:
        # The position strategy reaches the validation of a whole state, not only the syntax.
        check_position("- 1/N draw E 2c3c4c/2d3d4d/2h3h4h/2s3s4s * 5c - - - - 0 - -")
        assert Phase.DRAW == parse_position("- 1/N draw E 2c3c4c/2d3d4d/2h3h4h/2s3s4s * 5c - - - - 0 - -").phase


# -- JSON -------------------------------------------------------------------------------------------------------


def json_values() -> st.SearchStrategy[Json]:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-(10**7), 10**7)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.sampled_from([*CARD_TEXTS[:6], "X1", "Th", "10h", "draw", "deal_over", "persian-rummy", "state"])
        | st.text(max_size=4)
    )
    return st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
        max_leaves=12,
    )


Path: TypeAlias = list[str | int]


def paths(data: Json, prefix: Path) -> list[Path]:
    """
    Every place in *data*: the keys and indices leading to each value, the root included.
    """
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(paths(value, [*prefix, key]))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.extend(paths(value, [*prefix, index]))
    return found


@st.composite
def documents(draw: st.DrawFn) -> Json:
    """
    The data of a valid document: a state, an action, a deal's score or a game record.
    """
    playout: Playout = draw(playouts(rules=rules_variants(), max_actions=100))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        value: object = playout.final
    elif kind == 1 and playout.actions:
        value = draw(st.sampled_from(playout.actions))
    elif kind == 2 and playout.final.results:
        value = playout.final.results[-1]
    else:
        value = GameRecord(playout.states[0].rules, playout.states[0].dealer, playout.actions)
    data: Json = json.loads(json.dumps(to_data(value)))  # type: ignore[arg-type]
    return data


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    """
    A valid document with one value replaced, one key deleted or added, or its text mutated.
    """
    data = draw(documents())
    how = draw(st.integers(0, 3))
    if how == 3:
        return draw(mutated(json.dumps(data), alphabet=['"', ",", ":", "[", "]", "{", "}", "0", "-", "null", "Qh"]))
    where = draw(st.sampled_from(paths(data, [])[1:] or [[]]))
    if not where:
        return json.dumps(draw(json_values()))
    parent: Json = data
    for step in where[:-1]:
        parent = parent[step]  # type: ignore[index]
    last = where[-1]
    if how == 0:
        parent[last] = draw(json_values())  # type: ignore[index]
    elif how == 1 and isinstance(parent, (dict, list)):
        del parent[last]  # type: ignore[arg-type]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(json_values())
    elif isinstance(parent, list):
        parent.append(draw(json_values()))
    return json.dumps(data)


KIND_LIST = '{"format": "persian-rummy", "version": 1, "kind": []}'
TYPE_OBJECT = '{"format": "persian-rummy", "version": 1, "kind": "action", "type": {}}'


class TestJson:
    """
    JSON text: valid documents with a value replaced, a key deleted or added or the text mutated, any
    data inside a valid envelope, and text that is no document: `from_json` raises only
    `InvalidDataError`, and what it reads round-trips (docs/json.md).
    """

    @given(text=mutated_documents())
    @example(text=KIND_LIST)
    def test_mutated_json_documents(self, text: str) -> None:
        check_json(text)

    @given(data=json_values(), kind=st.sampled_from(["state", "action", "deal_score", "record", "other"]))
    @example(data=[], kind="action")
    def test_json_with_a_valid_envelope(self, data: Json, kind: str) -> None:
        document: dict[str, Json] = {"format": "persian-rummy", "version": 1, "kind": kind}
        if isinstance(data, dict):
            document.update(data)
        else:
            document["type"] = data
        check_json(json.dumps(document))

    @given(text=token_texts().map(json.dumps) | st.binary().map(lambda raw: raw.decode("latin-1")) | st.binary())
    def test_json_text_that_is_not_a_document(self, text: str | bytes) -> None:
        check_json(text)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (KIND_LIST, "$.kind: expected 'state', 'view', 'action', 'deal_score', 'record' or 'event', got a list"),
            (
                TYPE_OBJECT,
                (
                    "$.type: expected one of 'deal', 'draw_stock', 'take_discard', 'lay_down', 'lay_off', 'discard', "
                    "'pass', 'call_rummy', 'decline_call', got an object"
                ),
            ),
        ],
    )
    def test_a_kind_or_type_that_is_not_a_string_is_invalid_data(self, text: str, message: str) -> None:
        with pytest.raises(InvalidDataError) as caught:
            from_json(text)
        assert message == str(caught.value)

    def test_valid_documents_are_read(self) -> None:
        state = parse_position("- 1/N draw E 2c3c4c/2d3d4d/2h3h4h/2s3s4s * 5c - - - - 0 - -")
        assert state == from_json(to_json(state))
        assert legal_actions(state)[0] == from_json(to_json(legal_actions(state)[0]))
