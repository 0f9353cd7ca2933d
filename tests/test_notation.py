"""
Notation: the text of actions (`format_action`, `parse_action`), of rules (`format_rules`,
`parse_rules`) and of positions (`format_position`, `parse_position`).

The first part checks round trips over every state random play reaches, under every rule
variant; the rest are examples with their exact texts and exact error messages.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    InvalidTypeError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    format_action,
    format_cards,
    format_meld,
    format_position,
    format_rules,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    parse_cards,
    parse_meld,
    parse_position,
    parse_rules,
)
from persian_rummy.melds import is_meld
from persian_rummy.rules import EmptyStockEnd, ObligationTiming
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.state import next_dealer
from tests.positions import cards, meld
from tests.strategies import Playout, playouts, rules_variants, well_formed_actions

# -- positions used by the examples -----------------------------------------------------------------------------

#: East to draw; the stock written with the ``*`` shorthand.
DRAW_BY_HAND = "- 1/N draw E 2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h/2s3s4s5s6s7s8s * 9c - - - - 0 - -"
#: The same position as `format_position` writes it.
DRAW = (
    "- 1/N draw E 2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h/2s3s4s5s6s7s8s "
    "TcJcQcKcAc9dTdJdQdKdAd9hThJhQhKhAh9sTsJsQsKsAsX1X2X3X4 9c - - - - 0 - -"
)
#: East to draw, Kc on top of the discard pile, two melds on the table (West laid off Qh).
TAKE = (
    "- 1/N draw E 2c3c4c/5c6c2dKdKh/2h3h4h/2s3s4s "
    "TcJcAc3d4d5d6d7d8d9dTdJd5h6h7h8h9hThJhAh5s6s7s8s9sTsJsKsAsX1X2X3X4 AdKc N:7c8c9c,S:QcQdQs+W:Qh - - - 0 - -"
)
#: East has drawn and may lay off 6c or 5c6c on North's run.
PLAY = (
    "- 1/N play E 2c3c4c/5c6c2dKdKh/2h3h4h/2s3s4s "
    "TcJcKcAc3d4d5d6d7d8d9dTdJd5h6h7h8h9hThJhAh5s6s7s8s9sTsJsKsAsX1X2X3X4 Ad N:7c8c9c,S:QcQdQs+W:Qh - - - 0 - -"
)
#: East has taken Kc from the discard pile and must meld it.
PENDING = (
    "- 1/N play E 2c3c4c/5c6cKc2dKdKh/2h3h4h/2s3s4s "
    "TcJcAc3d4d5d6d7d8d9dTdJd5h6h7h8h9hThJhAh5s6s7s8s9sTsJsKsAsX1X2X3X4 Ad N:7c8c9c,S:QcQdQs+W:Qh Kc Kc -/Kc/-/- 0 - -"
)
#: From a game played at random (seed 0): the stock is empty, two passes in a row, North to act.
PASSES = (
    "- 1/N draw N -/7c7dAd2hKs/7s/2c8c2d7hX3 - 2s "
    "E:3c3d3h+N:3s,S:AcAhAs,S:5c5h5s+N:5d,N:QcQhQs+E:Qd,E:9hThJh,W:TcTdTs,W:6c6d6s+S:6h,E:4d4h4s+S:4c,"
    "E:9c9d9s,W:X1X2X4,E:JcJdJs,N:KcKdKh,E:8d8h8s - - -/7c2hKs/-/8c2d7h 2 - -"
)
#: From a game played at random (seed 3): South went out and ended the first deal.
WENT_OUT = (
    "- 1/N deal_over - 4cKc3d4d7hX3/3c5c6h9sX4/-/Qc8hTsX2 - X1 "
    "W:8d9dTd+N:QdKd+E:6d+S:5d7dJd,S:2h3h4h+N:5h,W:7c8c9c+S:6cJc+W:Tc,W:QsKsAs+N:Js,N:4s5s6s+S:7s8s+W:3s,"
    "N:2c2d2s,E:AcAdAh,N:ThJhQh+E:9hKh - - KcX3/5c9sX4/-/Qc8hTs 0 S 148.0.25.48:169.0.0.91:S"
)
#: From a game played at random (seed 0): the end of the game, the first deal ended by four passes.
GAME_OVER = (
    "- 2/E game_over - 6d9d4hAh5sX2/AcTdKd6hKhX4/4cAd6sX1/- Kc3hJd8d4s6c X34d "
    "N:3c3d3s,E:8s9sTs+N:KsAs+S:JsQs,E:9cTcJc+E:7c+W:8c,W:2c2h2s+W:2d,N:QcQdQh,E:9hThJh+S:8h,N:7d7h7s,W:5c5d5h "
    "- - 6d4h5sX2/AcTdKd6hKhX4/-/- 0 W 138.0.0.7:249.0.0.80:p,113.0.0.104:123.0.25.71:W"
)
#: The 56 cards in `FULL_DECK` order, written together.
DECK = (
    "2c3c4c5c6c7c8c9cTcJcQcKcAc2d3d4d5d6d7d8d9dTdJdQdKdAd2h3h4h5h6h7h8h9hThJhQhKhAh2s3s4s5s6s7s8s9sTsJsQsKsAsX1X2X3X4"
)

EXAMPLES = {
    "draw": DRAW,
    "take": TAKE,
    "play": PLAY,
    "pending": PENDING,
    "passes": PASSES,
    "went_out": WENT_OUT,
    "game_over": GAME_OVER,
}


def state_of(name: str) -> GameState:
    return parse_position(EXAMPLES[name])


def without_seat(text: str) -> str:
    return text.split(" ", 1)[1]


# -- round trips over played games ------------------------------------------------------------------------------


def next_actions(playout: Playout, index: int) -> list[Action]:
    """
    The actions to try in ``playout.states[index]``: every legal action, or at a chance node the deal played.
    """
    state = playout.states[index]
    if not state.is_chance_node:
        return list(legal_actions(state))
    if index < len(playout.actions):
        return [playout.actions[index]]
    return [Deal(next_dealer(state), tuple(reversed(FULL_DECK)))]


class TestRoundTrips:
    """
    Notation: what the library writes reads back to an equal value, and writing that value again gives
    the same text (docs/notation.md); checked for every legal action, position and rules variant that
    random play reaches under any rule variant.
    """

    @given(playouts(rules=rules_variants(), max_actions=120))
    def test_every_legal_action_round_trips_with_and_without_its_seat(self, playout: Playout) -> None:
        for index, state in enumerate(playout.states):
            for action in next_actions(playout, index):
                text = format_action(action, state)
                assert action == parse_action(text, state)
                assert action == parse_action(without_seat(text), state)
                if not isinstance(action, LayOff):
                    assert action == parse_action(text)

    @given(playouts(rules=rules_variants(), max_actions=120))
    @pytest.mark.once
    def test_every_position_round_trips(self, playout: Playout) -> None:
        for state in playout.states:
            text = format_position(state)
            parsed = parse_position(text)
            assert state == parsed
            assert text == format_position(parsed)
            assert f"parse_position({text!r})" == repr(state)  # code that gives back the state, as just parsed

    @given(rules_variants())
    def test_every_rules_variant_round_trips(self, rules: Rules) -> None:
        text = format_rules(rules)
        assert rules == parse_rules(text)
        assert text == format_rules(parse_rules(text))
        assert " " not in text

    @given(playouts(rules=rules_variants(), max_actions=200))
    def test_every_meld_round_trips_as_the_position_writes_it(self, playout: Playout) -> None:
        state = playout.final
        for meld_on_table in state.melds:
            text = format_meld(meld_on_table)
            assert meld_on_table == parse_meld(text, state.rules)
            assert text in format_position(state).split()[7].split(",")


ACTIONS = [
    ("draw", "E draw", DrawStock(1)),
    ("take", "E take Kc", TakeDiscard(1, "Kc")),
    ("pending", "E meld KcKdKh", LayDown(1, "Kc Kd Kh")),
    ("play", "E lay 5c6c on 7c", LayOff(1, 0, "5c 6c")),
    ("play", "E lay 6c on 7c", LayOff(1, 0, "6c")),
    ("play", "E discard Kh", Discard(1, "Kh")),
    ("passes", "N pass", Pass(0)),
]


class TestActionsWrittenAndRead:
    """
    Action notation: an action is its seat, a verb and the verb's arguments (``N deal <56 cards>``,
    ``E draw``, ``E take 9s``, ``E meld 9d9h9s``, ``E lay 5c6c on 7c``, ``E discard Qh``, ``E pass``).
    Given the state the seat may be left out; cards may be written apart, in any order or with ``10``
    for ``T``, and the library writes them together in deck order (docs/notation.md).
    """

    @pytest.mark.parametrize(("name", "text", "action"), ACTIONS)
    def test_action_forms(self, name: str, text: str, action: Action) -> None:
        state = state_of(name)
        assert action == parse_action(text, state)
        assert action == parse_action(without_seat(text), state)
        assert text == format_action(action, state)
        assert action in legal_actions(state)

    def test_the_deal_lists_the_dealer_and_all_56_cards(self) -> None:
        deal = Deal(0, FULL_DECK)
        assert "N deal " + DECK == format_action(deal)
        assert deal == parse_action("N deal " + DECK)
        assert deal == parse_action("deal " + DECK, new_game())

    def test_the_deal_between_deals_is_by_the_next_dealer(self) -> None:
        state = state_of("went_out")
        deal = Deal(1, tuple(reversed(FULL_DECK)))
        text = (
            "E deal X4X3X2X1AsKsQsJsTs9s8s7s6s5s4s3s2sAhKhQhJhTh9h8h7h6h5h4h3h2h"
            "AdKdQdJdTd9d8d7d6d5d4d3d2dAcKcQcJcTc9c8c7c6c5c4c3c2c"
        )
        assert text == format_action(deal, state)
        assert deal == parse_action(text, state)
        assert deal == parse_action(without_seat(text), state)

    @pytest.mark.parametrize(
        ("text", "action"),
        [
            ("S draw", DrawStock(2)),
            ("W pass", Pass(3)),
            ("N take 10h", TakeDiscard(0, "Th")),
            ("N discard X3", Discard(0, "X3")),
            ("E meld 9d9h9s", LayDown(1, "9d 9h 9s")),
            ("E meld 9d 9h 9s", LayDown(1, "9d 9h 9s")),
            ("E meld 9s 9d9h", LayDown(1, "9d 9h 9s")),
            ("W meld 10c Jc 9c", LayDown(3, "9c Tc Jc")),
            ("E  draw ", DrawStock(1)),
        ],
    )
    def test_actions_without_a_state_and_other_spellings(self, text: str, action: Action) -> None:
        assert action == parse_action(text)

    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("E meld 9s 9d9h", "E meld 9d9h9s"),
            ("W meld 10c Jc 9c", "W meld 9cTcJc"),
            ("N take 10h", "N take Th"),
        ],
    )
    def test_canonical_text_writes_cards_together_in_deck_order(self, text: str, canonical: str) -> None:
        assert canonical == format_action(parse_action(text))


class TestActionsAsStrings:
    """
    Action notation (docs/notation.md): ``str`` of an action is its text, as `format_action` writes
    it (``E draw``), while ``repr`` stays the call that builds it; a lay-off, which the notation
    writes with a card of the state's meld, names the meld by its index (``#2``) when alone.
    """

    @pytest.mark.parametrize(
        ("text", "action"),
        [
            ("N deal " + DECK, Deal(0, FULL_DECK)),
            ("E draw", DrawStock(1)),
            ("S take Th", TakeDiscard(2, "10h")),
            ("W meld 9cTcJc", LayDown(3, "Jc 9c Tc")),
            ("E lay 5c6c on #2", LayOff(1, 2, "6c 5c")),
            ("N discard X3", Discard(0, "X3")),
            ("S pass", Pass(2)),
        ],
    )
    def test_every_type(self, text: str, action: Action) -> None:
        assert text == str(action)
        assert text == f"{action}"

    def test_repr_is_unchanged(self) -> None:
        assert "DrawStock(seat=1)" == repr(DrawStock(1))
        assert "LayOff(seat=1, meld=2, cards=CardSet.parse('5c 6c'))" == repr(LayOff(1, 2, "6c 5c"))
        assert "Deal(seat=0, deck=<56 cards>)" == repr(Deal(0, FULL_DECK))

    def test_a_lay_off_in_its_state(self) -> None:
        state = state_of("play")
        lay_off = next(action for action in legal_actions(state) if type(action) is LayOff)
        assert "E lay 6c on 7c" == format_action(lay_off, state)
        assert "E lay 6c on #0" == str(lay_off)

    @given(st.sampled_from(sorted(EXAMPLES)), st.data())
    def test_the_text_format_action_writes(self, name: str, data: st.DataObject) -> None:
        state = state_of(name)
        action = data.draw(well_formed_actions(state))
        if type(action) is LayOff:
            assert f"{'NESW'[action.seat]} lay {format_cards(action.cards)} on #{action.meld}" == str(action)
        else:
            assert format_action(action) == str(action)


class TestLayOffs:
    """
    R17: "a player may add one or more cards to any player's melds". A lay-off names its meld by any of
    the meld's cards, so it is read and written only with its state; the library writes the meld's first
    card in deck order, laid-off cards included, and a card no meld holds is illegal (docs/notation.md).
    """

    @pytest.mark.parametrize("text", ["E lay 6c 5c on 9c", "lay 5c6c on 8c", "lay 6c5c on 7c", "lay 6c 5c on 7c"])
    def test_a_lay_off_may_name_its_meld_by_any_of_its_cards(self, text: str) -> None:
        state = state_of("play")
        action = parse_action(text, state)
        assert LayOff(1, 0, "5c 6c") == action
        assert "E lay 5c6c on 7c" == format_action(action, state)

    def test_a_meld_is_named_by_its_first_card_in_deck_order_laid_off_cards_included(self) -> None:
        # West laid 6c off onto North's run 7c8c9c: the run is now named by 6c.
        state = parse_position("- 1/N play E 2c3c4c/5cKdKh2d/2h3h4h/2s3s4s * Ad N:7c8c9c+W:6c - - - 0 - -")
        assert ["E lay 5c on 6c", "E discard 5c", "E discard 2d", "E discard Kd", "E discard Kh"] == [
            format_action(action, state) for action in legal_actions(state)
        ]
        assert LayOff(1, 0, "5c") == parse_action("E lay 5c on 9c", state)
        assert LayOff(1, 0, "5c") == parse_action("E lay 5c on 6c", state)

    def test_format_action_needs_the_state_for_a_lay_off(self) -> None:
        with pytest.raises(
            ValueError, match=re.escape("LayOff(seat=1, meld=0, cards=CardSet.parse('6c')) needs the state")
        ):
            format_action(LayOff(1, 0, "6c"))
        with pytest.raises(ValueError, match="a lay-off names its meld by a card on the table"):
            format_action(LayOff(1, 2, "6c"), state_of("play"))

    @pytest.mark.parametrize("strict", [True, False])
    def test_a_lay_off_onto_a_card_on_no_meld_is_illegal(self, strict: bool) -> None:
        # Even without the legality check: the meld does not exist (R17).
        with pytest.raises(IllegalActionError) as caught:
            parse_action("E lay 6c on 9d", state_of("play"), strict=strict)
        assert "illegal action 'E lay 6c on 9d': no meld on the table holds 9d (R17)" == str(caught.value)
        assert ("E lay 6c on 9d", "no meld on the table holds 9d", "R17") == (
            caught.value.action,
            caught.value.reason,
            caught.value.rule_text,
        )


SYNTAX_ERRORS = [
    (
        "E jump",
        "unknown action 'jump' in 'E jump' (expected deal, draw, take, meld, lay, discard, pass, call or decline)",
    ),
    (
        "jump 9c",
        "unknown action 'jump' in 'jump 9c' (expected deal, draw, take, meld, lay, discard, pass, call or decline)",
    ),
    (
        "NE draw",
        "unknown action 'NE' in 'NE draw' (expected deal, draw, take, meld, lay, discard, pass, call or decline)",
    ),
    ("X draw", "not a seat: 'X' in 'X draw' (expected N, E, S or W)"),
    ("n draw", "not a seat: 'n' in 'n draw' (expected N, E, S or W)"),
    ("", "empty action"),
    ("   ", "empty action"),
    ("E", "an action is missing after the seat in 'E'"),
    ("E draw 9c", "expected 0 argument(s) in 'E draw 9c', got 1"),
    ("E pass now", "expected 0 argument(s) in 'E pass now', got 1"),
    ("E take", "expected 1 argument(s) in 'E take', got 0"),
    ("E take 9c 9d", "expected 1 argument(s) in 'E take 9c 9d', got 2"),
    ("E take 9c9d", "expected one card, got '9c9d' in 'E take 9c9d'"),
    ("E discard -", "expected one card, got '-' in 'E discard -'"),
    ("E discard Qx", "not a card: 'Qx' in 'Qx'"),
    ("E meld", "meld needs its cards in 'E meld'"),
    ("E meld 9d9h9d", "a card appears twice in the meld '9d9h9d'"),
    ("E meld 9d9h9", "not a card: '9' in '9d9h9'"),
    ("E lay 9c", "a lay-off is written 'lay CARDS on CARD', got 'E lay 9c'"),
    ("E lay on 8c", "a lay-off is written 'lay CARDS on CARD', got 'E lay on 8c'"),
    ("E lay 9c on", "a lay-off is written 'lay CARDS on CARD', got 'E lay 9c on'"),
    ("E lay 9c on 8c 7c", "a lay-off is written 'lay CARDS on CARD', got 'E lay 9c on 8c 7c'"),
    ("E lay 9c9c on 8c", "a card appears twice in the lay-off '9c9c'"),
    ("E lay 9c on 8c7c", "expected one card, got '8c7c' in 'E lay 9c on 8c7c'"),
    ("N deal 2c3c4c", "a deal lists each of the 56 cards once, got 3 cards, 3 different"),
    ("N deal " + DECK + "2c", "a deal lists each of the 56 cards once, got 57 cards, 56 different"),
    ("N deal " + DECK[2:] + "3c", "a deal lists each of the 56 cards once, got 56 cards, 55 different"),
]


class TestActionSyntaxErrors:
    """
    Syntax errors: text that is not an action raises `InvalidNotationError` with the same message, with or
    without a state and whatever ``strict`` says; leaving the seat out needs a state with a seat to act
    (docs/notation.md).
    """

    @pytest.mark.parametrize(("text", "message"), SYNTAX_ERRORS)
    def test_syntax_errors_with_and_without_a_state(self, text: str, message: str) -> None:
        for state in (state_of("play"), None):
            for strict in (True, False):
                with pytest.raises(InvalidNotationError) as caught:
                    parse_action(text, state, strict=strict)
                assert message == str(caught.value)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("draw", "the seat is needed without a state: 'draw'"),
            ("deal " + DECK, f"the seat is needed without a state: 'deal {DECK}'"),
            ("E lay 6c on 7c", "a lay-off names its meld by a card on the table, so 'E lay 6c on 7c' needs a state"),
        ],
    )
    def test_what_needs_a_state(self, text: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as caught:
            parse_action(text)
        assert message == str(caught.value)

    def test_the_seat_is_needed_when_nobody_is_to_act(self) -> None:
        with pytest.raises(InvalidNotationError) as caught:
            parse_action("draw", state_of("went_out"))
        assert "nobody is to act, so 'draw' needs its seat" == str(caught.value)

    @given(st.data(), playouts(rules=rules_variants(), max_actions=120))
    def test_malformed_text_never_raises_illegal_action_error(self, data: st.DataObject, playout: Playout) -> None:
        # A well-formed text made malformed: a syntax error, reported as such even when the
        # action would also be illegal in the state.
        state = playout.final
        actions = next_actions(playout, len(playout.states) - 1) if state.phase is not Phase.GAME_OVER else []
        action = data.draw(st.sampled_from(actions)) if actions else DrawStock(0)
        words = format_action(action, state).split()
        spoil = data.draw(st.sampled_from(["verb", "seat", "extra", "card", "drop"]))
        if spoil == "verb":
            words[1] = words[1].upper()
        elif spoil == "seat":
            words[0] += "x"
        elif spoil == "extra":
            words.append("+")
        elif spoil == "card" and len(words) == 2:
            words.append("Zz")
        elif spoil == "card":
            words[2] = "1" + words[2]
        else:
            words = words[: 1 if len(words) == 2 else 2]
        text = " ".join(words)
        with pytest.raises(InvalidNotationError):
            parse_action(text, state)
        with pytest.raises(InvalidNotationError):
            parse_action(text, state, strict=False)


ILLEGAL = [
    ("draw", "N draw", DrawStock(0), "it is seat 1's turn, not seat 0's (R6)"),
    ("draw", "E pass", Pass(1), "a player may pass only when the stock is empty (R21)"),
    ("draw", "E take Tc", TakeDiscard(1, "Tc"), "Tc is not in the discard pile (R14)"),
    (
        "draw",
        "E take 9c",
        TakeDiscard(1, "9c"),
        "9c cannot be melded or laid off at once, so it may not be taken (R15, A12)",
    ),
    (
        "draw",
        "N deal " + DECK,
        Deal(0, FULL_DECK),
        "cards are dealt only at the start of a deal, not in phase 'draw' (R7)",
    ),
]


class TestIllegalActions:
    """
    Illegal actions: a well-formed action the state forbids raises `IllegalActionError` naming the rule,
    as `apply` does; with ``strict=False`` it is read whatever the state (docs/notation.md).
    """

    @pytest.mark.parametrize(("name", "text", "action", "reason"), ILLEGAL)
    def test_well_formed_but_illegal_actions_strict_and_not(
        self, name: str, text: str, action: Action, reason: str
    ) -> None:
        state = state_of(name)
        with pytest.raises(IllegalActionError) as caught:
            parse_action(text, state)
        assert f"illegal action {action!r}: {reason}" == str(caught.value)
        assert action == caught.value.action
        assert action == parse_action(text, state, strict=False)

    def test_illegal_in_the_state_but_fine_without_one(self) -> None:
        assert DrawStock(0) == parse_action("N draw")
        assert TakeDiscard(1, "Tc") == parse_action("E take Tc")

    @given(st.data(), playouts(rules=rules_variants(), max_actions=120))
    def test_well_formed_actions_parse_back_or_are_illegal(self, data: st.DataObject, playout: Playout) -> None:
        # Legal syntax: the text of any action parses back to it without the legality check, and
        # with the check it parses exactly when the action is legal, raising IllegalActionError
        # (never InvalidNotationError) otherwise.
        state = playout.final
        for _ in range(10):
            action = data.draw(well_formed_actions(state))
            if isinstance(action, LayOff) and not 0 <= action.meld < len(state.melds):
                with pytest.raises(ValueError, match="a lay-off names its meld by a card on the table"):
                    format_action(action, state)
                continue
            if isinstance(action, Deal) and len(set(action.deck)) != 56:
                with pytest.raises(ValueError, match="a deal's deck is each of the 56 cards once"):
                    format_action(action, state)
                continue
            text = format_action(action, state)
            assert action == parse_action(text, state, strict=False)
            if is_legal(state, action):
                assert action == parse_action(text, state)
            else:
                with pytest.raises(IllegalActionError):
                    parse_action(text, state)


class TestRulesIds:
    """
    The rules id: ``-`` for the default rules, otherwise the switches that differ from the defaults as
    ``name=value`` pairs joined by commas, read in any order; an unknown switch or a value the switch does
    not take is refused (docs/notation.md).
    """

    @pytest.mark.parametrize(
        ("rules", "text"),
        [
            (Rules(), "-"),
            (Rules(hand_size=10), "hand_size=10"),
            (Rules(go_out_bonus=-10), "go_out_bonus=-10"),
            (Rules(top_discard_free=True, go_out_by_discard=True), "top_discard_free=true,go_out_by_discard=true"),
            (Rules(double_four_of_a_kind=False), "double_four_of_a_kind=false"),
            (
                Rules(hand_size=10, obligation_timing=ObligationTiming.BEFORE_DISCARD),
                "hand_size=10,obligation_timing=before_discard",
            ),
            (Rules(empty_stock_end=EmptyStockEnd.IMMEDIATELY, num_deals=3), "num_deals=3,empty_stock_end=immediately"),
        ],
    )
    def test_rules_ids(self, rules: Rules, text: str) -> None:
        assert text == format_rules(rules)
        assert rules == parse_rules(text)

    def test_rules_ids_in_any_order(self) -> None:
        expected = Rules(hand_size=10, obligation_timing=ObligationTiming.BEFORE_DISCARD)
        assert expected == parse_rules("obligation_timing=before_discard,hand_size=10")
        assert expected == parse_rules("hand_size=10,obligation_timing=before_discard,double_four_of_a_kind=true")

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "unknown rule switch '' in ''"),
            ("hand_sise=7", "unknown rule switch 'hand_sise' in 'hand_sise=7'"),
            ("hand_size", "unknown rule switch 'hand_size' in 'hand_size'"),
            ("hand_size=10,", "unknown rule switch '' in 'hand_size=10,'"),
            ("hand_size=x", "hand_size takes a number, got 'x'"),
            ("hand_size=10,hand_size=9", "rule switch 'hand_size' given twice in 'hand_size=10,hand_size=9'"),
            ("top_discard_free=yes", "top_discard_free takes true or false, got 'yes'"),
            (
                "hand_size=0",
                (
                    "invalid rules 'hand_size=0': hand_size must be between 1 and 13 "
                    "(four hands and the upcard come from 56 cards), got 0"
                ),
            ),
            (
                "obligation_timing=later",
                (
                    "invalid rules 'obligation_timing=later': "
                    "ObligationTiming is one of 'immediate', 'before_discard', not 'later'"
                ),
            ),
        ],
    )
    def test_rules_id_errors(self, text: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as caught:
            parse_rules(text)
        assert message == str(caught.value)

    def test_a_doubled_minus_sign_is_a_notation_error(self) -> None:
        with pytest.raises(InvalidNotationError, match="hand_size takes a number, got '--5'"):
            parse_rules("hand_size=--5")


class TestPositionsWrittenAndRead:
    """
    Position notation: a whole state on one line of 14 fields separated by spaces, from the rules id to
    the scores of the finished deals, read back to an equal state; the `repr` of a state is the call that
    rebuilds it (docs/notation.md).
    """

    def test_the_fields_of_a_position_in_play(self) -> None:
        state = parse_position(PENDING)
        assert Rules() == state.rules
        assert (1, 0) == (state.deal, state.dealer)
        assert Phase.PLAY == state.phase
        assert 1 == state.to_act
        assert (
            CardSet.parse("2c 3c 4c"),
            CardSet.parse("5c 6c Kc 2d Kd Kh"),
            CardSet.parse("2h 3h 4h"),
            CardSet.parse("2s 3s 4s"),
        ) == state.hands
        assert cards("Tc Jc Ac 3d") == state.stock[:4]
        assert 33 == len(state.stock)
        assert cards("Ad") == state.discard_pile
        assert (meld(0, "7c 8c 9c"), meld(2, "Qc Qd Qs", s3="Qh")) == state.melds
        assert Card.parse("Kc") == state.obligation
        assert CardSet.parse("Kc") == state.picked
        assert (CardSet(), CardSet.parse("Kc"), CardSet(), CardSet()) == state.known
        assert (0, None, ()) == (state.passes, state.went_out, state.results)

    def test_the_fields_of_a_position_at_the_end_of_a_deal(self) -> None:
        state = parse_position(WENT_OUT)
        assert (Phase.DEAL_OVER, None, 2) == (state.phase, state.to_act, state.went_out)
        assert CardSet() == state.hands[2]
        assert () == state.stock
        assert cards("X1") == state.discard_pile
        assert meld(3, "8d 9d Td", s0="Qd Kd", s1="6d", s2="5d 7d Jd") == state.melds[0]
        expected = DealScore(1, (TeamScore(148, 0, 25, 48), TeamScore(169, 0, 0, 91)), 2, DealEnd.WENT_OUT)
        assert (expected,) == state.results

    def test_the_fields_of_a_finished_game(self) -> None:
        state = parse_position(GAME_OVER)
        assert (2, 1, Phase.GAME_OVER, None) == (state.deal, state.dealer, state.phase, state.to_act)
        assert cards("Kc 3h Jd 8d 4s 6c") == state.stock
        assert cards("X3 4d") == state.discard_pile
        assert meld(1, "9c Tc Jc", s1="7c", s3="8c") == state.melds[2]
        assert (
            DealScore(1, (TeamScore(138, 0, 0, 7), TeamScore(249, 0, 0, 80)), None, DealEnd.PASSES),
            DealScore(2, (TeamScore(113, 0, 0, 104), TeamScore(123, 0, 25, 71)), 3, DealEnd.WENT_OUT),
        ) == state.results
        assert (138 - 7 + 113 - 104, 249 - 80 + 123 + 25 - 71) == state.scores

    def test_passes_in_a_row(self) -> None:
        state = parse_position(PASSES)
        assert (2, (), 0) == (state.passes, state.stock, state.to_act)
        assert "2" == format_position(state).split()[11]

    def test_the_position_before_the_first_deal(self) -> None:
        text = "- 0/N deal - -/-/-/- " + DECK + " - - - - - 0 - -"
        assert text == format_position(new_game())
        assert new_game() == parse_position(text)
        assert new_game(dealer=2) == parse_position("- 0/S deal - -/-/-/- * - - - - - 0 - -")

    def test_the_rules_field(self) -> None:
        rules = Rules(hand_size=3, empty_stock_end=EmptyStockEnd.FIRST_PASS)
        text = "hand_size=3,empty_stock_end=first_pass 0/W deal - -/-/-/- " + DECK + " - - - - - 0 - -"
        assert text == format_position(new_game(rules, dealer=3))
        assert new_game(rules, dealer=3) == parse_position(text)

    def test_a_pending_card_must_be_played_next(self) -> None:
        state = parse_position(PENDING)
        assert (LayDown(1, "Kc Kd Kh"),) == legal_actions(state)
        assert ["E meld KcKdKh"] == [format_action(action, state) for action in legal_actions(state)]

    def test_repr_is_the_position(self) -> None:
        state = parse_position(PLAY)
        assert f"parse_position({PLAY!r})" == repr(state)


class TestPositionsByHand:
    """
    Writing a position by hand: ``*`` puts every card not placed elsewhere in the stock, in deck order;
    cards may be written apart, in any order or with ``10``, and any whitespace separates the fields.
    The library writes the canonical text (docs/notation.md).
    """

    @pytest.mark.parametrize(
        ("by_hand", "canonical"),
        [
            (DRAW_BY_HAND, DRAW),
            ("- 1/N draw E 2c3c4c/5c6c2dKdKh/2h3h4h/2s3s4s * AdKc N:7c8c9c,S:QcQdQs+W:Qh - - - 0 - -", TAKE),
            ("- 1/N play E 2c3c4c/5c6c2dKdKh/2h3h4h/2s3s4s * Ad N:7c8c9c,S:QcQdQs+W:Qh - - - 0 - -", PLAY),
            (
                "- 1/N play E 2c3c4c/5c6c2dKcKdKh/2h3h4h/2s3s4s * Ad N:7c8c9c,S:QcQdQs+W:Qh Kc Kc -/Kc/-/- 0 - -",
                PENDING,
            ),
        ],
    )
    def test_the_stock_shorthand_puts_every_card_not_placed_in_deck_order(self, by_hand: str, canonical: str) -> None:
        state = parse_position(by_hand)
        assert canonical == format_position(state)
        assert parse_position(canonical) == state

    def test_the_stock_shorthand_with_every_card_placed_is_an_empty_stock(self) -> None:
        fields = PASSES.split()
        assert "-" == fields[5]
        fields[5] = "*"
        assert parse_position(PASSES) == parse_position(" ".join(fields))

    def test_cards_written_apart_or_with_10_in_a_position(self) -> None:
        text = (
            "- 1/N draw E 2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h/2s3s4s5s6s7s8s "
            "10cJcQcKcAc9d10dJdQdKdAd9h10hJhQhKhAh9s10sJsQsKsAsX1X2X3X4 9c - - - - 0 - -"
        )
        assert DRAW == format_position(parse_position(text))
        assert parse_position(DRAW) == parse_position(DRAW_BY_HAND)
        # Within a hand any order: a hand is a set.
        assert parse_position(DRAW) == parse_position(DRAW_BY_HAND.replace("2c3c4c5c6c7c8c", "8c7c6c5c4c3c2c"))
        # No known card: "-" or four empty groups.
        assert parse_position(DRAW) == parse_position(DRAW.replace(" - - - - 0 ", " - - - -/-/-/- 0 "))
        # Any whitespace separates the fields.
        assert parse_position(DRAW) == parse_position("  " + DRAW.replace(" ", " \t") + "\n")

    @pytest.mark.parametrize("where", ["pile", "hand"])
    def test_the_rest_of_the_cards_in_the_pile_or_a_hand(self, where: str) -> None:
        """
        ``*`` may also stand in the discard pile or in one hand, for positions with an empty stock.
        """
        pile, west = ("*", "2s") if where == "pile" else ("2dQc", "*")
        state = parse_position(f"- 1/N draw S 7c8c/5c6c/JhQh/{west} - {pile} N:9cTcJc - - - 0 - -")
        placed = [*state.hands[3], *state.discard_pile]
        assert ((), 56 - 9) == (state.stock, len(placed))
        # Nine cards are placed in the other hands and the meld; West holds 2s, or the pile 2d and Qc.
        assert (46 if where == "pile" else 45) == len(state.discard_pile if where == "pile" else state.hands[3])

    @pytest.mark.parametrize(
        ("stock", "pile", "where"),
        [("*", "4c4c", "the discard pile"), ("4c4c", "*", "the stock"), ("*", "2c", "the discard pile")],
    )
    def test_a_card_written_twice_beside_the_shorthand(self, stock: str, pile: str, where: str) -> None:
        """
        A card written twice, in the stock or the pile beside a ``*``, is refused as in any position.
        """
        text = f"- 1/N draw E 2c3c4c/2d3d4d/2h3h4h/2s3s4s {stock} {pile} - - - - 1 - -"
        card = "4c" if "4c" in pile + stock else "2c"
        expected = f"invalid position: card {card} appears more than once (found again in {where})"
        with pytest.raises(InvalidNotationError, match=re.escape(expected)):
            parse_position(text)

    @pytest.mark.parametrize(
        "text",
        ["- 1/N draw S */*/-/- - 2d - - - - 0 - -", "- 1/N draw S 7c*/-/-/- * - - - - - 0 - -"],
    )
    def test_one_place_for_the_rest_of_the_cards(self, text: str) -> None:
        expected = "one place at most (a hand, the stock or the discard pile) may be written '*', and alone"
        with pytest.raises(InvalidNotationError, match=re.escape(expected)):
            parse_position(text)


H = "2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h/2s3s4s5s6s7s8s"

CORRUPT = [
    (
        "missing card",
        DRAW.replace("2c3c", "3c"),
        "invalid position: cards missing: 2c (all 56 cards must be present exactly once)",
    ),
    (
        "duplicate card",
        DRAW.replace(" 9c ", " 9c2c "),
        "invalid position: card 2c appears more than once (found again in the discard pile)",
    ),
    (
        "duplicate card in one hand",
        DRAW_BY_HAND.replace("2c3c", "2c2c3c"),
        "a card appears twice in the hands '2c2c3c4c5c6c7c8c'",
    ),
    (
        "invalid meld",
        f"- 1/N draw E {H} * 9c N:9dTdJdQh - - - 0 - -",
        "invalid meld 'N:9dTdJdQh': 9d Td Jd Qh is not a set or a run",
    ),
    (
        "nobody to act in phase draw",
        f"- 1/N draw - {H} * 9c - - - - 0 - -",
        "invalid position: in phase draw a seat 0-3 must be to act, got None",
    ),
    (
        "deal over with no result",
        f"- 1/N deal_over - {H} * 9c - - - - 0 - -",
        "invalid position: deal 1 is over, so 1 deal(s) must be finished, got 0",
    ),
    (
        "someone to act between deals",
        WENT_OUT.replace(" deal_over - ", " deal_over E "),
        "invalid position: nobody is to act in phase deal_over, got seat 1",
    ),
    (
        "pending card not in the acting hand",
        f"- 1/N play E {H} * - - Ac Ac - 0 - -",
        "invalid position: the card to play, Ac, must be in the hand of seat 1 (R15)",
    ),
    (
        "pending card outside phase play",
        PENDING.replace(" play ", " draw "),
        "invalid position: only in phase play can a taken card be pending or picked cards be recorded (phase draw)",
    ),
    (
        "passes with cards in the stock",
        f"- 1/N draw E {H} * 9c - - - - 1 - -",
        "invalid position: a player may pass only when the stock is empty (R21)",
    ),
    (
        "too many passes",
        PASSES.replace(" 2 - -", " 4 - -"),
        "invalid position: 4 passes in a row is more than the rules allow (all_pass)",
    ),
    (
        "last result that does not match the table",
        WENT_OUT.replace("148.0.25.48", "149.0.25.48"),
        (
            "invalid position: the last deal's result DealScore(deal=1, teams=(TeamScore(melded=149, doubling=0, "
            "bonus=25, in_hand=48), TeamScore(melded=169, doubling=0, bonus=0, in_hand=91)), went_out=2, "
            "end=<DealEnd.WENT_OUT: 'went_out'>) does not match the table, which scores DealScore(deal=1, "
            "teams=(TeamScore(melded=148, doubling=0, bonus=25, in_hand=48), TeamScore(melded=169, doubling=0, "
            "bonus=0, in_hand=91)), went_out=2, end=<DealEnd.WENT_OUT: 'went_out'>)"
        ),
    ),
    (
        "wrong seat went out",
        WENT_OUT.replace(" 0 S ", " 0 W "),
        "invalid position: went_out must match the last deal's result",
    ),
    (
        "known card not in the hand",
        PENDING.replace("-/Kc/-/-", "Kc/-/-/-"),
        "invalid position: known cards of seat 0 (Kc) are not in its hand",
    ),
    ("too few fields", DRAW.rsplit(" ", 1)[0], "a position has 14 fields separated by spaces, got 13"),
    ("too many fields", DRAW + " -", "a position has 14 fields separated by spaces, got 15"),
    ("empty text", "", "a position has 14 fields separated by spaces, got 0"),
    ("deal field without /", DRAW.replace(" 1/N ", " 1N "), "field 2 is DEAL/DEALER such as 1/N, got '1N'"),
    ("deal number not a number", DRAW.replace(" 1/N ", " x/N "), "field 2 is DEAL/DEALER such as 1/N, got 'x/N'"),
    ("negative deal number", DRAW.replace(" 1/N ", " -1/N "), "field 2 is DEAL/DEALER such as 1/N, got '-1/N'"),
    ("bad dealer", DRAW.replace(" 1/N ", " 1/Q "), "not a seat: 'Q' in '1/Q' (expected N, E, S or W)"),
    (
        "deal beyond the rules",
        DRAW.replace(" 1/N ", " 3/N "),
        "invalid position: deal 3 is beyond the 2 deal(s) of the rules",
    ),
    (
        "unknown phase",
        DRAW.replace(" draw ", " drew "),
        "field 3 is a phase (deal, draw, play, deal_over, game_over, calls/SEAT, called/SEAT), got 'drew'",
    ),
    ("bad seat to act", DRAW.replace(" draw E ", " draw e "), "not a seat: 'e' in 'e' (expected N, E, S or W)"),
    (
        "three hands",
        DRAW.replace("/2s3s4s5s6s7s8s", "2s3s4s5s6s7s8s"),
        "the hands are four groups separated by '/', got '2c3c4c5c6c7c8c/2d3d4d5d6d7d8d/2h3h4h5h6h7h8h2s3s4s5s6s7s8s'",
    ),
    ("not a card", DRAW.replace(" 9c ", " 9x "), "not a card: '9x' in '9x'"),
    ("unknown rule switch", "jokers=wild" + DRAW[1:], "unknown rule switch 'jokers' in 'jokers=wild'"),
    ("bad rule value", "hand_size=many" + DRAW[1:], "hand_size takes a number, got 'many'"),
    (
        "meld without owner",
        f"- 1/N draw E {H} * 9c 9d9h9s - - - 0 - -",
        "a meld is written OWNER:CARDS[+SEAT:CARDS...], got '9d9h9s'",
    ),
    (
        "lay-offs of one seat written twice",
        PLAY.replace("+W:Qh", "+W:Qh+W:Kc"),
        "each seat's lay-offs are written once as +SEAT:CARDS, got 'S:QcQdQs+W:Qh+W:Kc'",
    ),
    ("passes not a number", DRAW.replace(" 0 - -", " x - -"), "field 12 is the number of passes in a row, got 'x'"),
    ("bad seat went out", WENT_OUT.replace(" 0 S ", " 0 Z "), "not a seat: 'Z' in 'Z' (expected N, E, S or W)"),
    (
        "malformed result",
        WENT_OUT.replace(":169.0.0.91:S", ":S"),
        "a finished deal is written M.D.B.H:M.D.B.H:HOW (or TOTAL:TOTAL:HOW), got '148.0.25.48:S'",
    ),
    (
        "team score with three numbers",
        WENT_OUT.replace("148.0.25.48", "148.0.25"),
        (
            "a team's score is written MELDED.DOUBLING.BONUS.IN_HAND or as its total, "
            "got '148.0.25' in '148.0.25:169.0.0.91:S'"
        ),
    ),
]


class TestMeldNotation:
    """
    A meld on the table written alone as a position writes it (field 8): the owner, ``:``, the cards
    laid down, ``+SEAT:CARDS`` for each seat's lay-offs, a joker that stands for a card written with
    it (A7); read back under the rules, whose `Rules.ace_low_allowed` the meld lies under (A8).
    """

    def test_written_and_read(self) -> None:
        queens = meld(2, "Qc Qd Qs", s1="Qh")
        assert "S:QcQdQs+E:Qh" == format_meld(queens)
        assert queens == parse_meld("S:QcQdQs+E:Qh")
        wild = TableMeld(0, "5h X1 7h", stand_ins={"X1": "6h"})
        assert ("N:5hX1=6h7h", wild) == (format_meld(wild), parse_meld("N:5hX1=6h7h", Rules(jokers_wild=True)))

    def test_the_rules_decide_a_low_ace(self) -> None:
        low = parse_meld("W:Ac2c3c", Rules(ace_low_allowed=True))
        assert (True, "W:2c3cAc") == (low.ace_low, format_meld(low))
        with pytest.raises(InvalidNotationError, match=r"^invalid meld 'W:Ac2c3c': "):
            parse_meld("W:Ac2c3c")

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("QcQdQs", "a meld is written OWNER:CARDS[+SEAT:CARDS...], got 'QcQdQs'"),
            ("S:QcQdQs+E:Qh+E:Qh", "each seat's lay-offs are written once as +SEAT:CARDS, got 'S:QcQdQs+E:Qh+E:Qh'"),
            ("S:QcQdKs", "invalid meld 'S:QcQdKs': "),
            ("S:" + "Qc" * 6000, "meld text too long (12,002 characters)"),
        ],
    )
    def test_errors(self, text: str, message: str) -> None:
        with pytest.raises(InvalidNotationError) as info:
            parse_meld(text)
        assert str(info.value).startswith(message)

    def test_bad_arguments(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"^meld must be a TableMeld, got 'S:QcQdQs'$"):
            format_meld("S:QcQdQs")  # type: ignore[arg-type]
        with pytest.raises(InvalidNotationError, match=r"^a meld must be written as a string, got None$"):
            parse_meld(None)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^rules must be a Rules, got '-'$"):
            parse_meld("S:QcQdQs", "-")  # type: ignore[arg-type]


class TestPositionErrors:
    """
    A position is checked completely when it is read: a mistake in the form of the line, or a state that
    cannot be, raises `InvalidNotationError` naming the first problem found (docs/notation.md).
    """

    @pytest.mark.parametrize(("problem", "text", "message"), CORRUPT, ids=[case[0] for case in CORRUPT])
    def test_corrupted_positions_are_rejected_naming_the_problem(self, problem: str, text: str, message: str) -> None:
        del problem
        with pytest.raises(InvalidNotationError) as caught:
            parse_position(text)
        assert message == str(caught.value)

    @pytest.mark.parametrize("text", [DRAW.replace(" 0 - -", " ² - -"), DRAW.replace(" 1/N ", " ²/N ")])
    def test_a_digit_that_is_not_a_number_is_a_notation_error(self, text: str) -> None:
        with pytest.raises(InvalidNotationError):
            parse_position(text)

    def test_a_doubled_minus_sign_in_a_result_is_a_notation_error(self) -> None:
        with pytest.raises(
            InvalidNotationError, match=re.escape("a team's score is written MELDED.DOUBLING.BONUS.IN_HAND")
        ):
            parse_position(WENT_OUT.replace("148.0.25.48", "148.0.25.--48"))


class TestTextLimits:
    """
    The readers take text only, and refuse an overlong text before reading it.
    """

    def test_position_and_action_arguments_must_be_text(self) -> None:
        with pytest.raises(InvalidNotationError, match="a position must be written as a string, got None"):
            parse_position(None)  # type: ignore[arg-type]
        with pytest.raises(InvalidNotationError, match="an action must be written as a string, got 3"):
            parse_action(3)  # type: ignore[arg-type]
        with pytest.raises(InvalidNotationError, match=r"rules must be written as a string, got \['-'\]"):
            parse_rules(["-"])  # type: ignore[arg-type]

    def test_overlong_texts_are_refused_before_reading(self) -> None:
        with pytest.raises(InvalidNotationError, match=r"position text too long \(10,001 characters\)"):
            parse_position("-" * 10_001)
        with pytest.raises(InvalidNotationError, match=r"action text too long \(10,001 characters\)"):
            parse_action("E draw" + " " * 9_995)
        with pytest.raises(InvalidNotationError, match=r"rules id too long \(10,001 characters\)"):
            parse_rules("x" * 10_001)

    @pytest.mark.parametrize(
        "read",
        [Card.parse, CardSet.parse, CardSet, parse_cards, parse_rules, parse_action, parse_position, is_meld],
    )
    @pytest.mark.parametrize("text", ["x" * 2_000_000, "Qh " * 500_000, "unknown=1," * 100_000])
    def test_a_megabyte_is_refused_in_a_short_message(self, read: Callable[[str], object], text: str) -> None:
        """
        Finding 8: `Card.parse`, `CardSet.parse`, `parse_cards` and `parse_rules` read texts of any
        length and echoed them whole in their messages (1-2 MB).  Now a message shows a long text
        by its start and its length.
        """
        with pytest.raises(InvalidNotationError) as caught:
            read(text)
        assert len(str(caught.value)) < 250
        assert f"{len(text):,}" in str(caught.value)
