"""
The start of a turn: the structure of a turn (R13) and drawing from the stock or the discard pile (R14),
with exact states and legal action lists.

The positions are described in `tests.turn_positions`.
"""

from __future__ import annotations

import pytest

from persian_rummy import (
    Card,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.positions import meld, play, position, rejection
from tests.turn_positions import HANDS, MELDS, PILE, hand_of, pile_of, standard


def with_hand(seat: int, text: str) -> tuple[str, str, str, str]:
    """
    The standard hands with seat *seat*'s replaced.
    """
    hands = list(HANDS)
    hands[seat] = text
    return (hands[0], hands[1], hands[2], hands[3])


class TestTurnStructure:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one card,
    which ends the turn [...]."
    """

    def test_r13_a_turn_starts_with_the_draw(self) -> None:
        """
        R13: in the draw phase only drawing actions are legal: the stock, then the usable discard-pile cards.
        """
        expected = (DrawStock(0), TakeDiscard(0, "Qd"), TakeDiscard(0, "8d"), TakeDiscard(0, "6h"))
        assert expected == legal_actions(standard())

    @pytest.mark.parametrize(
        ("action", "doing"),
        [
            (LayDown(0, "3h 4h 5h"), "laying down a meld"),
            (LayOff(0, 0, "3h"), "laying off"),
            (Discard(0, "3h"), "discarding"),
        ],
    )
    def test_r13_melding_or_discarding_before_the_draw_is_illegal(self, action: PlayerAction, doing: str) -> None:
        """
        R13: nothing may be melded, laid off or discarded before the draw.
        """
        error = rejection(standard(), action)
        assert f"seat 0 must first draw or pass, not {doing}" == error.reason
        assert "R13" == error.rule_text

    @pytest.mark.parametrize(
        ("action", "doing"),
        [
            (DrawStock(0), "drawing"),
            (TakeDiscard(0, "Kc"), "taking from the discard pile"),
            (Pass(0), "passing"),
        ],
    )
    def test_r13_r14_only_one_draw_per_turn(self, action: PlayerAction, doing: str) -> None:
        """
        R13, R14: after drawing, a second draw (or a pass) is not possible.
        """
        drawn = apply(standard(), DrawStock(0))
        error = rejection(drawn, action)
        assert f"seat 0 has drawn already; {doing} is not possible now" == error.reason
        assert "R13" == error.rule_text

    def test_r13_full_turn_draw_melds_discard(self) -> None:
        """
        R13: draw, then melds in any number, then the discard hands the turn to the next seat.
        """
        state = play(
            standard(),
            TakeDiscard(0, "8d"),
            LayDown(0, "8d 9d Td"),
            LayDown(0, "3h 4h 5h"),
            Discard(0, "Qd"),
        )
        expected = position(
            hands=with_hand(0, "Qh Qs"),
            melds=(*MELDS, meld(0, "8d 9d Td"), meld(0, "3h 4h 5h")),
            pile="6h Kc Qd",
            stock="As",
            to_act=1,
            dealer=3,
        )
        assert expected == state

    def test_r13_play_phase_offers_melds_lay_offs_and_discards(self) -> None:
        """
        R13: after the draw the player may lay down, lay off (here onto seat 1's run) or discard.
        """
        state = position(hands=with_hand(0, "3h 4h 5h Qh Qs 9d 9c"), melds=MELDS, pile=PILE, stock="As")
        drawn = apply(state, DrawStock(0))
        expected = (
            LayDown(0, "3h 4h 5h"),
            LayOff(0, 0, "9c"),
            Discard(0, "9c"),
            Discard(0, "9d"),
            Discard(0, "3h"),
            Discard(0, "4h"),
            Discard(0, "5h"),
            Discard(0, "Qh"),
            Discard(0, "Qs"),
            Discard(0, "As"),
        )
        assert expected == legal_actions(drawn)

    def test_r13_lay_off_and_lay_down_in_either_order(self) -> None:
        """
        R13: melds and lay-offs may come in any order before the discard.
        """
        state = position(hands=with_hand(0, "3h 4h 5h Qh Qs 9d 9c"), melds=MELDS, pile=PILE, stock="As")
        drawn = apply(state, DrawStock(0))
        first = play(drawn, LayOff(0, 0, "9c"), LayDown(0, "3h 4h 5h"))
        second = play(drawn, LayDown(0, "3h 4h 5h"), LayOff(0, 0, "9c"))
        assert (meld(1, "6c 7c 8c", s0="9c"), meld(0, "3h 4h 5h")) == first.melds
        assert (meld(1, "6c 7c 8c", s0="9c"), meld(0, "3h 4h 5h")) == second.melds
        assert first == second
        assert "9d Qh Qs As" == hand_of(first, 0)
        assert (Phase.PLAY, 0) == (first.phase, first.to_act)


class TestDrawing:
    """
    R14: "Exactly one draw action per turn: either the top card of the stock, or any card of the (fanned, fully
    visible) discard pile together with every card above it [...]. The chosen card is the deepest card taken
    (the "target"). [...] taking the bottom card takes the whole pile, after which the pile is empty until the
    next discard (no discard-pile draw is possible from an empty pile)."
    """

    def test_r14_draw_from_stock_takes_its_top_card(self) -> None:
        """
        R14: drawing from the stock puts its first card in the hand; nothing else changes but the phase.
        """
        state = apply(standard(), DrawStock(0))
        expected = position(
            hands=with_hand(0, "3h 4h 5h Qh Qs 9d Td As"), melds=MELDS, pile=PILE, phase="play", dealer=3
        )
        assert expected == state
        assert Card.parse("5c") == state.stock[0]
        assert 20 == len(state.stock)

    def test_r14_take_the_top_card(self) -> None:
        """
        R14, R15: taking the top card moves it to the hand and makes it the card to play.
        """
        state = apply(standard(), TakeDiscard(0, "Qd"))
        expected = position(
            hands=with_hand(0, "3h 4h 5h Qh Qs 9d Td Qd"),
            melds=MELDS,
            pile="6h Kc 8d",
            stock="As",
            phase="play",
            dealer=3,
            obligation="Qd",
            picked="Qd",
            known=("Qd", "", "", ""),
        )
        assert expected == state

    def test_r14_take_from_inside_takes_every_card_above(self) -> None:
        """
        R14: naming a card inside the pile takes it and every card above it; the cards below stay.
        """
        state = apply(standard(), TakeDiscard(0, "8d"))
        assert "6h Kc" == pile_of(state)
        assert "8d 9d Td Qd 3h 4h 5h Qh Qs" == hand_of(state, 0)
        assert Card.parse("8d") == state.obligation
        assert "8d Qd" == str(state.picked)
        assert ("8d Qd", "", "", "") == tuple(str(cards) for cards in state.known)
        assert (Phase.PLAY, 0) == (state.phase, state.to_act)
        assert standard().stock == state.stock

    def test_r14_taking_the_bottom_card_empties_the_pile(self) -> None:
        """
        R14: the bottom card takes the whole pile, which is then empty.
        """
        state = apply(standard(), TakeDiscard(0, "6h"))
        assert () == state.discard_pile
        assert "Kc 8d 9d Td Qd 3h 4h 5h 6h Qh Qs" == hand_of(state, 0)
        assert Card.parse("6h") == state.obligation
        assert "Kc 8d Qd 6h" == str(state.picked)

    def test_r14_no_take_from_an_empty_pile(self) -> None:
        """
        R14: with an empty discard pile only the stock can be drawn from.
        """
        state = position(hands=HANDS, melds=MELDS, pile="", stock="As", rest_to="stock")
        assert (DrawStock(0),) == legal_actions(state)
        error = rejection(state, TakeDiscard(0, "Qd"))
        assert "Qd is not in the discard pile" == error.reason
        assert "R14" == error.rule_text

    def test_r14_the_pile_stays_empty_until_the_next_discard(self) -> None:
        """
        R14: after the whole pile is taken, the next discard starts it again.
        """
        state = play(standard(), TakeDiscard(0, "6h"), LayDown(0, "4h 5h 6h"), Discard(0, "Kc"))
        assert "Kc" == pile_of(state)
        assert 1 == state.to_act

    def test_r14_draw_leaves_the_other_hands_alone(self) -> None:
        """
        R14: a draw changes only the drawing seat's hand.
        """
        before = standard()
        for action in legal_actions(before):
            after = apply(before, action)
            assert before.hands[1:] == after.hands[1:]
            assert before.melds == after.melds
