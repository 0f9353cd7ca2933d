"""
The end of a turn and of a deal: discarding (R18, R6), going out (R19, R27) and discarding the last card
(R20, A15), with exact states and scores.

The positions are described in `tests.turn_positions`.
"""

from __future__ import annotations

import pytest

from persian_rummy import (
    Card,
    ChanceNodeError,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from persian_rummy.scoring import DealEnd, TeamScore
from tests.positions import meld, play, position, rejection
from tests.turn_positions import LAYOFF_MELDS, deal_one, hand_of, layoff_position, pile_of

GO_OUT_HANDS = ("Qh Qs", "2c 3c", "Ah", "X1")
GO_OUT_MELDS = (meld(1, "7s 8s 9s", s2="Ts"),)

EMPTY_HAND_HANDS = ("Qh Qs 2c", "3c 4c 5c 9s", "Ah 7d", "X1 Kd")


def empty_handed() -> GameState:
    """
    Seat 0 takes Qd, melds its queens and discards its last card, 2c.
    """
    state = position(hands=EMPTY_HAND_HANDS, pile="Ac Qd", stock="5d 9h Jc Qc")
    return play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"), Discard(0, "2c"))


class TestDiscarding:
    """
    R18: "One card from hand onto the discard pile ends the turn [...]. The pile is kept fanned/ordered so
    every card is visible and its position known [...]."

    R6: "Play starts with the player on the dealer's left [...]; play therefore proceeds to the left, i.e.
    clockwise [...]."
    """

    def test_r18_discard_ends_the_turn(self) -> None:
        """
        R18: the discarded card goes on top of the pile and the next seat is to draw.
        """
        after = apply(layoff_position(), Discard(0, "Jd"))
        expected = position(
            hands=("Kh 5s 6s Ts X4 8h 3h 2h", "2c 3c", "Ah", "2d"),
            melds=LAYOFF_MELDS,
            pile="4c Jd",
            to_act=1,
            dealer=3,
        )
        assert expected == after
        assert Card.parse("Jd") == after.discard_pile[-1]

    def test_r18_r6_seat_3_passes_the_turn_to_seat_0(self) -> None:
        """
        R18, R6: play goes clockwise, so after seat 3 discards seat 0 is to draw.
        """
        state = position(hands=("2c", "3c", "4c", "9d Kh"), pile="5d", phase="play", to_act=3)
        after = apply(state, Discard(3, "Kh"))
        assert (Phase.DRAW, 0) == (after.phase, after.to_act)
        assert "5d Kh" == pile_of(after)
        assert "9d" == hand_of(after, 3)

    def test_r18_discard_in_full_deck_order_jokers_last(self) -> None:
        """
        R18: the discards are listed in FULL_DECK order: clubs, diamonds, hearts, spades, jokers.
        """
        state = position(hands=("X2 As 2c Kh 9d X1", "", "", ""), phase="play")
        expected = tuple(Discard(0, text) for text in ("2c", "9d", "Kh", "As", "X1", "X2"))
        assert expected == legal_actions(state)


class TestGoingOut:
    """
    R19: "The round ends when a player has melded (or laid off) all of their cards; the last card must be
    melded to end the round [...]. Ending is immediate, mid-turn, and requires no discard [...]."

    R27: "A game is exactly two deals [...]."
    """

    def test_r19_going_out_by_laying_down_ends_the_deal_at_once(self) -> None:
        """
        R19, R24: seat 0 takes Qd and lays down its last cards: the deal ends with no discard; 25 for team 0.
        """
        state = position(hands=GO_OUT_HANDS, melds=GO_OUT_MELDS, pile="4d Qd")
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        result = deal_one(TeamScore(40, 0, 25, 15), TeamScore(24, 0, 0, 25), 0, DealEnd.WENT_OUT)
        expected = position(
            hands=("", "2c 3c", "Ah", "X1"),
            melds=(*GO_OUT_MELDS, meld(0, "Qd Qh Qs")),
            pile="4d",
            phase="deal_over",
            to_act=None,
            dealer=3,
            went_out=0,
            results=(result,),
        )
        assert expected == after
        assert (50, -1) == after.scores

    def test_r19_going_out_by_laying_off(self) -> None:
        """
        R19: laying off the last cards goes out too.
        """
        state = position(hands=("Js Qs", "2c 3c", "Ah", "X1"), melds=GO_OUT_MELDS, pile="4d", phase="play")
        after = apply(state, LayOff(0, 0, "Js Qs"))
        assert (meld(1, "7s 8s 9s", s2="Ts", s0="Js Qs"),) == after.melds
        assert (Phase.DEAL_OVER, None, 0) == (after.phase, after.to_act, after.went_out)
        result = deal_one(TeamScore(30, 0, 25, 15), TeamScore(24, 0, 0, 25), 0, DealEnd.WENT_OUT)
        assert (result,) == after.results
        assert "4d" == pile_of(after)

    def test_r19_no_legal_action_after_going_out_until_the_next_deal(self) -> None:
        """
        R19: after the deal ends the next action is a Deal, a chance action.
        """
        state = position(hands=GO_OUT_HANDS, melds=GO_OUT_MELDS, pile="4d Qd")
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        with pytest.raises(ChanceNodeError, match="the next action is a Deal by seat 0"):
            legal_actions(after)
        error = rejection(after, Discard(1, "2c"))
        assert "no player acts in phase 'deal_over'" == error.reason
        assert "R13" == error.rule_text

    def test_r19_r27_going_out_in_the_last_deal_ends_the_game(self) -> None:
        """
        R19, R27: going out in deal 2 ends the game; hands and table stay as they ended.
        """
        first = deal_one(TeamScore(10, 0, 0, 0), TeamScore(0, 0, 0, 5), None, DealEnd.PASSES)
        state = position(hands=GO_OUT_HANDS, melds=GO_OUT_MELDS, pile="4d Qd", deal=2, results=(first,))
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        assert (Phase.GAME_OVER, None, 0, 2) == (after.phase, after.to_act, after.went_out, after.deal)
        assert () == legal_actions(after)
        assert (10 + 50, -5 - 1) == after.scores
        assert ("", "2c 3c", "Ah", "X1") == tuple(str(hand) for hand in after.hands)


class TestDiscardingTheLastCard:
    """
    R20: "Discarding one's last card does not end the round [...]. The player then simply holds 0 cards, play
    passes on, and on their next turn the player draws as usual (see A15)."

    A15: "Discarding to zero is allowed; the round continues; the player keeps taking turns with 0 cards
    (draws next turn; may go out by melding/laying off what they draw)."
    """

    def test_r20_discarding_the_last_card_does_not_end_the_deal(self) -> None:
        """
        R20, A15: the deal goes on; seat 0 holds no cards and seat 1 is to draw.
        """
        expected = position(
            hands=("", "3c 4c 5c 9s", "Ah 7d", "X1 Kd"),
            melds=(meld(0, "Qd Qh Qs"),),
            pile="Ac 2c",
            stock="5d 9h Jc Qc",
            to_act=1,
            dealer=3,
        )
        state = empty_handed()
        assert expected == state
        assert state.went_out is None
        assert () == state.results

    def test_r20_a15_empty_handed_player_draws_next_turn(self) -> None:
        """
        R20, A15: on its next turn the empty-handed seat draws as usual, then may discard what it drew.
        """
        state = play(
            empty_handed(),
            DrawStock(1),
            Discard(1, "5d"),
            DrawStock(2),
            Discard(2, "9h"),
            DrawStock(3),
            Discard(3, "Jc"),
        )
        assert "Ac 2c 5d 9h Jc" == pile_of(state)
        assert (DrawStock(0),) == legal_actions(state)
        drawn = apply(state, DrawStock(0))
        assert "Qc" == hand_of(drawn, 0)
        assert (LayOff(0, 0, "Qc"), Discard(0, "Qc")) == legal_actions(drawn)

    def test_r19_a15_empty_handed_player_goes_out_by_laying_off_the_drawn_card(self) -> None:
        """
        R19, A15: the empty-handed seat lays off the card it drew and so goes out, with the bonus.
        """
        state = play(
            empty_handed(),
            DrawStock(1),
            Discard(1, "5d"),
            DrawStock(2),
            Discard(2, "9h"),
            DrawStock(3),
            Discard(3, "Jc"),
            DrawStock(0),
            LayOff(0, 0, "Qc"),
        )
        result = deal_one(TeamScore(40, 0, 25, 22), TeamScore(0, 0, 0, 51), 0, DealEnd.WENT_OUT)
        assert (result,) == state.results
        assert (Phase.DEAL_OVER, 0) == (state.phase, state.went_out)

    def test_r20_empty_hand_then_discard_again(self) -> None:
        """
        R20, A15: drawing one card and discarding it leaves the hand empty again, and play goes on.
        """
        state = play(
            empty_handed(),
            DrawStock(1),
            Discard(1, "5d"),
            DrawStock(2),
            Discard(2, "9h"),
            DrawStock(3),
            Discard(3, "Jc"),
            DrawStock(0),
            Discard(0, "Qc"),
        )
        assert (Phase.DRAW, 1, "") == (state.phase, state.to_act, hand_of(state, 0))
        assert "Ac 2c 5d 9h Jc Qc" == pile_of(state)
