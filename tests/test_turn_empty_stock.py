"""
The empty stock: the two choices left (R21), what a pass is (A16), no reshuffle (A18), and the deal that
ends by passes (R22, A17, A23).

The positions are described in `tests.turn_positions`.
"""

from __future__ import annotations

from persian_rummy import Card, Discard, DrawStock, GameState, LayDown, Pass, Phase, TakeDiscard, apply, legal_actions
from persian_rummy.scoring import DealEnd, TeamScore
from tests.positions import meld, play, position, rejection
from tests.turn_positions import deal_one, empty_stock, pile_of, standard


def all_pass() -> GameState:
    """
    No stock; the cards not named lie at the bottom of the discard pile.
    """
    return position(
        hands=("Qh 2c", "3d", "Ah 7d", "X1"),
        melds=(meld(0, "Kc Kd Ks"), meld(1, "5s 6s 7s")),
        pile="9h",
        stock="",
        rest_to="pile",
    )


class TestEmptyStock:
    """
    R21: "When the draw pile is empty a player has two choices: take from the discard pile — only if the
    target card can be melded (R15) — or pass [...]."
    """

    def test_r21_empty_stock_take_a_usable_card_or_pass(self) -> None:
        """
        R21, A16: with an empty stock: usable takes from the top down, then the pass; no stock draw.
        """
        expected = (TakeDiscard(0, "Qd"), TakeDiscard(0, "5h"), Pass(0))
        assert expected == legal_actions(empty_stock())

    def test_r21_cannot_draw_from_an_empty_stock(self) -> None:
        """
        R21: DrawStock with an empty stock is illegal.
        """
        error = rejection(empty_stock(), DrawStock(0))
        assert "the stock is empty: take from the discard pile or pass" == error.reason
        assert "R21" == error.rule_text

    def test_r21_unusable_take_is_still_illegal(self) -> None:
        """
        R21, R15: with an empty stock a card may be taken only if it can be melded.
        """
        error = rejection(empty_stock(), TakeDiscard(0, "9c"))
        assert "9c cannot be melded or laid off at once, so it may not be taken" == error.reason
        assert "R15, A12" == error.rule_text

    def test_r21_pass_is_illegal_while_the_stock_has_cards(self) -> None:
        """
        R21: Pass is neither offered nor legal while the stock has cards.
        """
        state = standard()
        assert Pass(0) not in legal_actions(state)
        error = rejection(state, Pass(0))
        assert "a player may pass only when the stock is empty" == error.reason
        assert "R21" == error.rule_text


class TestPass:
    """
    A16: "A pass ends the turn immediately: no draw, no meld, no discard. Passing is legal only when the stock
    is empty. A player who does take from the pile plays a normal turn (meld obligation, optional melds,
    mandatory discard)."
    """

    def test_r21_a16_pass_ends_the_turn(self) -> None:
        """
        R21, A16: a pass changes nothing but the seat to act and the count of passes.
        """
        state = empty_stock()
        after = apply(state, Pass(0))
        expected = position(
            hands=("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh"),
            pile="5h 9c Qd",
            stock="",
            rest_to=2,
            to_act=1,
            dealer=3,
            passes=1,
        )
        assert expected == after
        assert (Pass(1),) == legal_actions(after)

    def test_a16_no_melding_with_a_pass(self) -> None:
        """
        A16: seat 1 holds 2c 3c 4c but passing is a whole turn; it cannot lay down first.
        """
        after = apply(empty_stock(), Pass(0))
        error = rejection(after, LayDown(1, "2c 3c 4c"))
        assert "seat 1 must first draw or pass, not laying down a meld" == error.reason
        assert "R13" == error.rule_text

    def test_r21_take_with_an_empty_stock_is_a_normal_turn(self) -> None:
        """
        R21, A16: a player who takes with an empty stock melds the card, may meld more, and must discard.
        """
        state = play(empty_stock(), TakeDiscard(0, "5h"))
        assert (LayDown(0, "4h 5h 6h"),) == legal_actions(state)
        state = apply(state, LayDown(0, "4h 5h 6h"))
        expected = (
            LayDown(0, "Qd Qh Qs"),
            Discard(0, "9c"),
            Discard(0, "Qd"),
            Discard(0, "Qh"),
            Discard(0, "Qs"),
        )
        assert expected == legal_actions(state)
        state = apply(state, Discard(0, "9c"))
        assert (Phase.DRAW, 1, 0) == (state.phase, state.to_act, state.passes)
        assert "9c" == pile_of(state)


class TestNoReshuffle:
    """
    R21: "The discard pile is not reshuffled into a new stock [...]."

    A18: "Reshuffle the discard pile?" Default: "Never reshuffle."
    """

    def test_a18_no_reshuffle_when_the_stock_runs_out(self) -> None:
        """
        A18: the discard pile is never turned into a new stock: after the last stock card is drawn the stock
        stays empty and the next player may pass.
        """
        state = position(hands=("2c 9d", "3c", "4c", "5c"), pile="", stock="Kh", rest_to="pile")
        pile_before = state.discard_pile
        after = play(state, DrawStock(0), Discard(0, "Kh"))
        assert () == after.stock
        assert (*pile_before, Card.parse("Kh")) == after.discard_pile
        assert Pass(1) == legal_actions(after)[-1]
        assert DrawStock(1) not in legal_actions(after)
        passed = apply(after, Pass(1))
        assert () == passed.stock
        assert after.discard_pile == passed.discard_pile


class TestDealEndsByPasses:
    """
    R22: "A round ends (a) immediately when a player goes out (R19), or (b) [...] when the stock is empty and
    all four players pass in succession (A17)."

    A17: "Ends when all four players pass in succession (4 consecutive passes with no draw in between). Such a
    round has no going-out bonus."

    A23: "No bonus if the round ends by passes."
    """

    def test_r22_three_passes_do_not_end_the_deal(self) -> None:
        """
        R22, A17: after three passes in a row the fourth seat is still to act.
        """
        state = play(all_pass(), Pass(0), Pass(1), Pass(2))
        assert (Phase.DRAW, 3, 3) == (state.phase, state.to_act, state.passes)
        assert () == state.results

    def test_r22_a17_a23_four_passes_end_the_deal_without_bonus(self) -> None:
        """
        R22, A17, A23: four passes in a row end the deal; nobody went out, so nobody gets 25.
        """
        state = play(all_pass(), Pass(0), Pass(1), Pass(2), Pass(3))
        result = deal_one(TeamScore(30, 0, 0, 34), TeamScore(18, 0, 0, 23), None, DealEnd.PASSES)
        expected = position(
            hands=("Qh 2c", "3d", "Ah 7d", "X1"),
            melds=(meld(0, "Kc Kd Ks"), meld(1, "5s 6s 7s")),
            pile="9h",
            stock="",
            rest_to="pile",
            phase="deal_over",
            to_act=None,
            dealer=3,
            passes=4,
            results=(result,),
        )
        assert expected == state
        assert (-4, -5) == state.scores

    def test_r22_a17_a_take_resets_the_count_of_passes(self) -> None:
        """
        R22, A17: three passes, then a take: the count starts again, and it takes four new passes to end.
        """
        state = position(
            hands=("2c", "3d", "Ah 7d", "Qh Qs 8c"), pile="9h Qd", stock="", rest_to="pile", to_act=3, passes=3
        )
        after_take = apply(state, TakeDiscard(3, "Qd"))
        assert 0 == after_take.passes
        after_turn = play(after_take, LayDown(3, "Qd Qh Qs"), Discard(3, "8c"))
        assert (Phase.DRAW, 0, 0) == (after_turn.phase, after_turn.to_act, after_turn.passes)
        three = play(after_turn, Pass(0), Pass(1), Pass(2))
        assert (Phase.DRAW, 3, 3) == (three.phase, three.to_act, three.passes)
        four = apply(three, Pass(3))
        assert Phase.DEAL_OVER == four.phase
        assert DealEnd.PASSES == four.results[0].end
        assert four.results[0].went_out is None
