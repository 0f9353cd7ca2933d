"""
The turn-level switches of `Rules` in their non-default settings, with exact expectations
(A5, A9, A10, A11, A13, A15, A17, A20, R24, R25), and the validation of `Rules` (A1, A4, A22 and
R27 too).

One class per open point of the rules or switch, quoting its default and its variants.  Each test
sets one switch and, where it helps, shows the default next to it.
"""

from __future__ import annotations

import re

import pytest

from persian_rummy import (
    FULL_DECK,
    CardSet,
    Deal,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    InvalidStateError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    apply,
    legal_actions,
    new_game,
)
from persian_rummy.engine import max_deal_length, max_game_length
from persian_rummy.rules import EmptyStockEnd, ObligationTiming
from persian_rummy.scoring import DealEnd, TeamScore
from tests import switches
from tests.positions import meld, play, position, rejection

DEFAULT = Rules()
BEFORE_DISCARD = Rules(obligation_timing="before_discard")
TOP_FREE = Rules(top_discard_free=True)
NO_LAYOFF = Rules(obligation_by_layoff=False)
NO_PICKED_DISCARD = Rules(forbid_discarding_picked_cards=True)
OUT_BY_DISCARD = Rules(go_out_by_discard=True)
FIRST_PASS = Rules(empty_stock_end="first_pass")
IMMEDIATELY = Rules(empty_stock_end="immediately")
NO_DOUBLE_SETS = Rules(double_four_of_a_kind=False)
DOUBLE_RUNS = Rules(double_four_card_runs=True)


def drawing(hand: str, pile: str, rules: Rules, melds: tuple[TableMeld, ...] = (), stock: str = "As") -> GameState:
    """
    Seat 0 to draw with *hand*; seats 1-3 hold 3d, 7c and Jh; other cards are in the stock (after *stock*).
    """
    return position(hands=(hand, "3d", "7c", "Jh"), pile=pile, melds=melds, stock=stock, rules=rules)


def playing(hand: str, rules: Rules, melds: tuple[TableMeld, ...] = ()) -> GameState:
    """
    Seat 0 has drawn and holds *hand*; seats 1-3 hold 2c, 3c and 4c.
    """
    return position(hands=(hand, "2c", "3c", "4c"), melds=melds, pile="9d", phase="play", rules=rules)


def only_result(state: GameState) -> DealScore:
    """
    The result of the one finished deal.
    """
    assert Phase.DEAL_OVER == state.phase
    (result,) = state.results
    return result


class TestA11ObligationTiming:
    """
    A11, what "immediately" means. Default: "Strict: the first meld/lay-off action after the draw
    must contain the target card; discarding, or making any other meld/lay-off first, is an
    error."  Variants: `obligation_timing = "immediate" | "before_discard"`.  With
    "before_discard" other melds and lay-offs may come first, as long as the card taken can still be
    played before the discard.
    """

    def test_a11_before_discard_other_meld_may_come_first(self) -> None:
        """
        A11: with "before_discard", 5s 6s 7s may be laid down before the Qd just taken; with "immediate" not.
        """
        hand, pile = "Qh Qs 5s 6s 7s 9c", "Qd"
        default = apply(drawing(hand, pile, DEFAULT), TakeDiscard(0, "Qd"))
        assert (LayDown(0, "Qd Qh Qs"),) == legal_actions(default)
        state = apply(drawing(hand, pile, BEFORE_DISCARD), TakeDiscard(0, "Qd"))
        assert (LayDown(0, "Qd Qh Qs"), LayDown(0, "5s 6s 7s")) == legal_actions(state)
        state = apply(state, LayDown(0, "5s 6s 7s"))
        assert "Qd" == str(state.obligation)
        assert (LayDown(0, "Qd Qh Qs"),) == legal_actions(state)
        state = apply(state, LayDown(0, "Qd Qh Qs"))
        assert state.obligation is None
        assert (Discard(0, "9c"),) == legal_actions(state)

    def test_a11_before_discard_meld_that_strands_the_target_is_illegal(self) -> None:
        """
        A11: laying down 4d 4h 4s first would leave 5s (with 6s) unplayable, so it is neither listed nor legal.
        """
        state = apply(drawing("4s 6s 4h 4d 9c", "5s", BEFORE_DISCARD), TakeDiscard(0, "5s"))
        assert (LayDown(0, "4s 5s 6s"),) == legal_actions(state)
        error = rejection(state, LayDown(0, "4d 4h 4s"))
        assert "this would leave 5s with no meld to go into" == error.reason
        assert "R15, A11" == error.rule_text

    def test_a11_before_discard_lay_off_first_when_target_stays_playable(self) -> None:
        """
        A11: 6s or Ts may be laid off onto 7s 8s 9s before 5s, which then still fits.
        """
        melds = (meld(1, "7s 8s 9s"),)
        state = apply(drawing("6s Ts 9c", "5s", BEFORE_DISCARD, melds), TakeDiscard(0, "5s"))
        expected = (LayOff(0, 0, "6s"), LayOff(0, 0, "5s 6s"), LayOff(0, 0, "Ts"))
        assert expected == legal_actions(state)
        state = apply(state, LayOff(0, 0, "6s"))
        assert (LayOff(0, 0, "5s"), LayOff(0, 0, "Ts")) == legal_actions(state)
        state = apply(state, LayOff(0, 0, "5s"))
        assert state.obligation is None
        assert (meld(1, "7s 8s 9s", s0="5s 6s"),) == state.melds
        assert (LayOff(0, 0, "Ts"), Discard(0, "9c"), Discard(0, "Ts")) == legal_actions(state)

    def test_a11_before_discard_lay_off_that_strands_the_target_is_illegal(self) -> None:
        """
        A11: laying off Qs onto 9s Ts Js would leave Qd with Qh alone.
        """
        melds = (meld(1, "9s Ts Js"),)
        state = apply(drawing("Qh Qs 9c", "Qd", BEFORE_DISCARD, melds), TakeDiscard(0, "Qd"))
        assert (LayDown(0, "Qd Qh Qs"),) == legal_actions(state)
        error = rejection(state, LayOff(0, 0, "Qs"))
        assert "this would leave Qd with no meld to go into" == error.reason
        assert "R15, A11" == error.rule_text

    def test_a11_before_discard_target_onto_a_meld_laid_down_this_turn(self) -> None:
        """
        A11: 5s 6s 7s first, then the 8s taken is laid off onto that new meld.
        """
        state = apply(drawing("5s 6s 7s 9c", "8s", BEFORE_DISCARD), TakeDiscard(0, "8s"))
        expected = (LayDown(0, "5s 6s 7s"), LayDown(0, "5s 6s 7s 8s"), LayDown(0, "6s 7s 8s"))
        assert expected == legal_actions(state)
        state = apply(state, LayDown(0, "5s 6s 7s"))
        assert (LayOff(0, 0, "8s"),) == legal_actions(state)
        state = apply(state, LayOff(0, 0, "8s"))
        assert (meld(0, "5s 6s 7s", s0="8s"),) == state.melds
        assert state.obligation is None

    def test_a11_a10_before_discard_without_lay_off_needs_a_new_meld_afterwards(self) -> None:
        """
        A11, A10: with "before_discard" and no lay-off for the card taken, 5s 6s 7s first would leave 8s
        only a lay-off, so it is illegal.
        """
        rules = Rules(obligation_timing="before_discard", obligation_by_layoff=False)
        state = apply(drawing("5s 6s 7s 9c", "8s", rules), TakeDiscard(0, "8s"))
        assert (LayDown(0, "5s 6s 7s 8s"), LayDown(0, "6s 7s 8s")) == legal_actions(state)
        error = rejection(state, LayDown(0, "5s 6s 7s"))
        assert "this would leave 8s with no meld to go into" == error.reason
        assert "R15, A11" == error.rule_text

    def test_a11_before_discard_discard_is_blocked_while_pending(self) -> None:
        """
        A11, R15: with "before_discard" the card taken must still be played before the discard.
        """
        state = apply(drawing("Qh Qs 5s 6s 7s 9c", "Qd", BEFORE_DISCARD), TakeDiscard(0, "Qd"))
        for card in ("9c", "Qd"):
            error = rejection(state, Discard(0, card))
            assert "Qd, taken from the discard pile, must be played first" == error.reason
            assert "R15, A11" == error.rule_text
        state = apply(state, LayDown(0, "5s 6s 7s"))
        error = rejection(state, Discard(0, "9c"))
        assert "R15, A11" == error.rule_text


class TestA9TopDiscardFree:
    """
    A9: "Does taking only the top discard carry the obligation?"  The seed says yes: "The top card,
    or the desired card [...] must be played in a meld immediately"; "one program offers the top card
    freely as a variant".  Default: "Obligation applies to the top card too."  Variant:
    `top_discard_free = False`; with True the top card alone may be taken without a use for it.
    """

    def test_a9_free_top_card_is_offered_while_the_stock_has_cards(self) -> None:
        """
        A9: Kc, on top, can be taken without any use for it; 5h below it still needs one.
        """
        assert (DrawStock(0),) == legal_actions(drawing("2c 9d", "5h Kc", DEFAULT))
        assert (DrawStock(0), TakeDiscard(0, "Kc")) == legal_actions(drawing("2c 9d", "5h Kc", TOP_FREE))

    def test_a9_free_top_card_carries_no_obligation(self) -> None:
        """
        A9: after the free take nothing is pending; the card is picked and known to all.
        """
        state = apply(drawing("2c 9d", "5h Kc", TOP_FREE), TakeDiscard(0, "Kc"))
        assert state.obligation is None
        assert "Kc" == str(state.picked)
        assert ("Kc", "", "", "") == tuple(str(cards) for cards in state.known)
        assert "5h" == " ".join(str(card) for card in state.discard_pile)
        assert (Discard(0, "2c"), Discard(0, "9d")) == legal_actions(state)

    def test_a9_free_top_card_cannot_be_discarded_back(self) -> None:
        """
        A9: the card taken freely may not be discarded in the same turn.
        """
        state = apply(drawing("2c 9d", "5h Kc", TOP_FREE), TakeDiscard(0, "Kc"))
        error = rejection(state, Discard(0, "Kc"))
        assert "Kc was taken from the discard pile this turn and may not be discarded" == error.reason
        assert "A9" == error.rule_text

    def test_a9_free_top_card_may_be_discarded_when_it_is_the_only_card(self) -> None:
        """
        A9, A15: an empty-handed player takes the top card and must be able to end the turn.
        """
        state = apply(drawing("", "5h Kc", TOP_FREE), TakeDiscard(0, "Kc"))
        assert (Discard(0, "Kc"),) == legal_actions(state)
        after = apply(state, Discard(0, "Kc"))
        assert (Phase.DRAW, 1, "") == (after.phase, after.to_act, str(after.hands[0]))
        assert "5h Kc" == " ".join(str(card) for card in after.discard_pile)

    def test_a9_usable_free_top_card_may_be_melded_but_not_discarded(self) -> None:
        """
        A9: a free top card that fits a meld may be melded at any point; the other cards may be discarded at once.
        """
        state = apply(drawing("Qh Qs 2c", "Qd", TOP_FREE), TakeDiscard(0, "Qd"))
        assert state.obligation is None
        expected = (LayDown(0, "Qd Qh Qs"), Discard(0, "2c"), Discard(0, "Qh"), Discard(0, "Qs"))
        assert expected == legal_actions(state)

    def test_a9_deeper_take_still_carries_the_obligation(self) -> None:
        """
        A9: the switch covers the top card only: taking 5h (and Kc above it) requires playing 5h.
        """
        state = apply(drawing("4h 6h 2c", "5h Kc", TOP_FREE), TakeDiscard(0, "5h"))
        assert "5h" == str(state.obligation)
        assert (LayDown(0, "4h 5h 6h"),) == legal_actions(state)

    def test_a9_no_free_top_card_with_an_empty_stock(self) -> None:
        """
        A9, R21: with an empty stock the top card must be usable even with the switch on.
        """
        state = position(hands=("2c 9d", "3c", "", "4c"), pile="5h Kc", stock="", rest_to=2, rules=TOP_FREE)
        assert (Pass(0),) == legal_actions(state)
        error = rejection(state, TakeDiscard(0, "Kc"))
        assert "Kc cannot be melded or laid off at once, so it may not be taken" == error.reason
        assert "R15, A12" == error.rule_text

    def test_a9_free_top_card_with_an_empty_stock_and_a_use_carries_the_obligation(self) -> None:
        """
        A9, R21: with an empty stock a usable top card is taken under the obligation as usual.
        """
        state = position(hands=("Qh Qs 2c", "3c", "", "4c"), pile="5h Qd", stock="", rest_to=2, rules=TOP_FREE)
        after = apply(state, TakeDiscard(0, "Qd"))
        assert "Qd" == str(after.obligation)
        assert (LayDown(0, "Qd Qh Qs"),) == legal_actions(after)

    def test_a9_no_bound_on_the_length_of_a_deal(self) -> None:
        """
        A9: with free top cards a deal can go on for ever, so there is no length bound.
        """
        assert max_deal_length(TOP_FREE) is None
        assert max_game_length(TOP_FREE) is None
        assert 395 == max_deal_length(DEFAULT)
        assert 790 == max_game_length(DEFAULT)


class TestA10ObligationByLayoff:
    """
    A10: "Can the obligation be met by laying off? Can cards taken above it be used in that meld?"
    Default: "Yes to both: target may go into a new meld (which may include cards taken with it) or
    be laid off on any meld, including an opponent's."  Variant: `obligation_by_layoff = True`;
    with False the card taken must go into a new meld.
    """

    @pytest.mark.parametrize(
        ("hand", "pile", "melds", "target"),
        [
            ("2c", "Kh", (meld(1, "Kc Kd Ks"),), "Kh"),
            ("9c", "X4", (meld(2, "X1 X2 X3"),), "X4"),
            ("6s 2c", "5s", (meld(1, "7s 8s 9s"),), "5s"),
            ("9c", "Ts", (meld(0, "7s 8s 9s"),), "Ts"),
        ],
        ids=["set", "jokers", "chain", "run"],
    )
    def test_a10_take_usable_only_by_lay_off_is_illegal(
        self, hand: str, pile: str, melds: tuple[TableMeld, ...], target: str
    ) -> None:
        """
        A10: without lay-offs for the card taken, a take that could only be laid off is not offered and is illegal.
        """
        default = drawing(hand, pile, DEFAULT, melds)
        assert TakeDiscard(0, target) in legal_actions(default)
        state = drawing(hand, pile, NO_LAYOFF, melds)
        assert (DrawStock(0),) == legal_actions(state)
        error = rejection(state, TakeDiscard(0, target))
        assert f"{target} cannot be melded or laid off at once, so it may not be taken" == error.reason
        assert "R15, A12" == error.rule_text

    def test_a10_target_must_go_into_a_new_meld(self) -> None:
        """
        A10: 5h fits both 5h 6h 7h and the run 2h 3h 4h; without lay-offs only the new meld is legal.
        """
        melds = (meld(1, "2h 3h 4h"),)
        default = apply(drawing("6h 7h 9c", "5h", DEFAULT, melds), TakeDiscard(0, "5h"))
        expected = (LayDown(0, "5h 6h 7h"), LayOff(0, 0, "5h"), LayOff(0, 0, "5h 6h"), LayOff(0, 0, "5h 6h 7h"))
        assert expected == legal_actions(default)
        state = apply(drawing("6h 7h 9c", "5h", NO_LAYOFF, melds), TakeDiscard(0, "5h"))
        assert (LayDown(0, "5h 6h 7h"),) == legal_actions(state)
        error = rejection(state, LayOff(0, 0, "5h"))
        assert "5h, taken from the discard pile, must go into a new meld" == error.reason
        assert "A10" == error.rule_text

    def test_a10_other_lay_offs_are_unaffected(self) -> None:
        """
        A10: the switch is about the card taken only; after it is melded other cards may be laid off.
        """
        melds = (meld(1, "2h 3h 4h"),)
        state = play(drawing("6h 7h 8h 9c", "5h", NO_LAYOFF, melds), TakeDiscard(0, "5h"), LayDown(0, "5h 6h 7h"))
        assert LayOff(0, 1, "8h") in legal_actions(state)
        after = apply(state, LayOff(0, 1, "8h"))
        assert meld(0, "5h 6h 7h", s0="8h") == after.melds[1]


class TestA13ForbidDiscardingPickedCards:
    """
    A13: "May a player discard a card just taken from the pile?"  Default: "Target: impossible by
    R15. Other cards taken above it: may be discarded the same turn."  Variant:
    `forbid_discarding_picked_cards = False`; with True the cards taken stay in hand that turn.
    """

    def test_a13_cards_taken_above_the_target_cannot_be_discarded(self) -> None:
        """
        A13: 9c and Kd, taken above Qd, stay in hand this turn; by default they could be discarded.
        """
        hand, pile = "Qh Qs 2c", "Qd 9c Kd"
        default = play(drawing(hand, pile, DEFAULT), TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        assert (Discard(0, "2c"), Discard(0, "9c"), Discard(0, "Kd")) == legal_actions(default)
        state = play(drawing(hand, pile, NO_PICKED_DISCARD), TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        assert (Discard(0, "2c"),) == legal_actions(state)
        for card in ("9c", "Kd"):
            error = rejection(state, Discard(0, card))
            assert f"{card} was taken from the discard pile this turn and may not be discarded" == error.reason
            assert "A13" == error.rule_text

    def test_a13_restriction_lifted_when_only_picked_cards_are_left(self) -> None:
        """
        A13: when every card left was taken this turn, one of them may be discarded.
        """
        state = play(drawing("Qh Qs", "Qd 9c Kd", NO_PICKED_DISCARD), TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"))
        assert (Discard(0, "9c"), Discard(0, "Kd")) == legal_actions(state)
        after = apply(state, Discard(0, "Kd"))
        assert "9c" == str(after.hands[0])
        assert (Phase.DRAW, 1) == (after.phase, after.to_act)

    def test_a13_picked_cards_may_still_be_melded(self) -> None:
        """
        A13: the switch forbids only discarding: 9c, taken above Qd, goes into 8c 9c Tc.
        """
        state = play(
            drawing("Qh Qs 8c Tc 2d", "Qd 9c", NO_PICKED_DISCARD), TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs")
        )
        assert (LayDown(0, "8c 9c Tc"), Discard(0, "8c"), Discard(0, "Tc"), Discard(0, "2d")) == legal_actions(state)
        state = apply(state, LayDown(0, "8c 9c Tc"))
        assert (Discard(0, "2d"),) == legal_actions(state)

    def test_a13_restriction_ends_with_the_turn(self) -> None:
        """
        A13: on the next turn the cards taken earlier are ordinary cards again.
        """
        state = play(
            drawing("Qh Qs 9d", "Qd 9c", NO_PICKED_DISCARD, stock="5d 6d 7d As"),
            TakeDiscard(0, "Qd"),
            LayDown(0, "Qd Qh Qs"),
            Discard(0, "9d"),
            DrawStock(1),
            Discard(1, "5d"),
            DrawStock(2),
            Discard(2, "6d"),
            DrawStock(3),
            Discard(3, "7d"),
            DrawStock(0),
        )
        assert "9c As" == str(state.hands[0])
        assert (Discard(0, "9c"), Discard(0, "As")) == legal_actions(state)


class TestA15GoOutByDiscard:
    """
    A15, R20: "Discarding one's last card does not end the round."  Default: "Discarding to zero is
    allowed; the round continues; the player keeps taking turns with 0 cards [...]".  Variant:
    `go_out_by_discard = False` "(True = standard 500 Rum)".
    """

    def test_a15_discarding_the_last_card_goes_out(self) -> None:
        """
        A15: with the 500 Rum switch, discarding the last card ends the deal, with the 25 bonus.
        """
        state = position(hands=("Qh Qs 2c", "3c 4c", "Ah 7d", "X1 Kd"), pile="Ac Qd", rules=OUT_BY_DISCARD)
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"), Discard(0, "2c"))
        result = only_result(after)
        assert DealScore(1, (TeamScore(30, 0, 25, 22), TeamScore(0, 0, 0, 37)), 0, DealEnd.WENT_OUT) == result
        assert (None, 0) == (after.to_act, after.went_out)
        assert "Ac 2c" == " ".join(str(card) for card in after.discard_pile)
        assert "" == str(after.hands[0])

    def test_a15_default_discarding_the_last_card_does_not_go_out(self) -> None:
        """
        A15, R20: by default the same discard simply passes the turn.
        """
        state = position(hands=("Qh Qs 2c", "3c 4c", "Ah 7d", "X1 Kd"), pile="Ac Qd")
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"), Discard(0, "2c"))
        assert (Phase.DRAW, 1, None, ()) == (after.phase, after.to_act, after.went_out, after.results)

    def test_a15_discarding_with_cards_left_does_not_go_out(self) -> None:
        """
        A15: only the last card goes out.
        """
        after = play(drawing("2c 9d", "5h", OUT_BY_DISCARD), DrawStock(0), Discard(0, "9d"))
        assert (Phase.DRAW, 1, "2c As") == (after.phase, after.to_act, str(after.hands[0]))


def empty_stock(rules: Rules, passes: int = 0) -> GameState:
    """
    No stock; the cards not named lie at the bottom of the discard pile.
    """
    return position(
        hands=("Qh 2c", "3d", "Ah 7d", "X1"),
        melds=(meld(0, "Kc Kd Ks"), meld(1, "5s 6s 7s")),
        pile="9h",
        stock="",
        rest_to="pile",
        rules=rules,
        passes=passes,
    )


class TestA17EmptyStockEnd:
    """
    A17: "When does a round with an empty stock end?"  Default: "Ends when all four players pass in
    succession (4 consecutive passes with no draw in between). Such a round has no going-out bonus."
    Variants: `empty_stock_end = "all_pass" | "first_pass" | "immediately"`.
    """

    def test_a17_first_pass_ends_the_deal(self) -> None:
        """
        A17 "first_pass": the first pass with an empty stock ends the deal, without a bonus.
        """
        after = apply(empty_stock(FIRST_PASS), Pass(0))
        result = only_result(after)
        assert DealScore(1, (TeamScore(30, 0, 0, 34), TeamScore(18, 0, 0, 23)), None, DealEnd.PASSES) == result
        assert (None, None, 1) == (after.to_act, after.went_out, after.passes)

    def test_a17_default_needs_four_passes(self) -> None:
        """
        A17 "all_pass": one pass only hands the turn on.
        """
        after = apply(empty_stock(DEFAULT), Pass(0))
        assert (Phase.DRAW, 1, 1) == (after.phase, after.to_act, after.passes)

    def test_a17_first_pass_a_take_is_a_normal_turn(self) -> None:
        """
        A17 "first_pass": a player who takes a usable card plays on; the deal goes on after the discard.
        """
        state = position(
            hands=("Qh Qs 2c", "3d", "Ah 7d", "X1"), pile="9h Qd", stock="", rest_to="pile", rules=FIRST_PASS
        )
        after = play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"), Discard(0, "2c"))
        assert (Phase.DRAW, 1, 0) == (after.phase, after.to_act, after.passes)
        assert (Pass(1),) == legal_actions(after)[-1:]
        assert Phase.DEAL_OVER == apply(after, Pass(1)).phase

    def test_a17_immediately_the_deal_ends_with_the_turn_the_stock_ran_out(self) -> None:
        """
        A17 "immediately": the discard after drawing the last stock card ends the deal; nobody gets the bonus.
        """
        state = position(hands=("2c 9d", "3c", "4c", "5c"), stock="Kh", rest_to="pile", rules=IMMEDIATELY)
        drawn = apply(state, DrawStock(0))
        assert (Phase.PLAY, ()) == (drawn.phase, drawn.stock)
        after = apply(drawn, Discard(0, "Kh"))
        result = only_result(after)
        assert DealScore(1, (TeamScore(0, 0, 0, 15), TeamScore(0, 0, 0, 8)), None, DealEnd.STOCK_EMPTY) == result
        assert "Kh" == str(after.discard_pile[-1])
        assert (None, None) == (after.to_act, after.went_out)

    def test_a17_immediately_going_out_in_that_turn_still_goes_out(self) -> None:
        """
        A17 "immediately", R19: melding the last cards in that turn is going out, with the bonus.
        """
        state = position(hands=("Qh Qs", "3c", "4c", "5c"), stock="Qd", rest_to="pile", rules=IMMEDIATELY)
        after = play(state, DrawStock(0), LayDown(0, "Qd Qh Qs"))
        result = only_result(after)
        assert DealScore(1, (TeamScore(30, 0, 25, 4), TeamScore(0, 0, 0, 8)), 0, DealEnd.WENT_OUT) == result

    def test_a17_immediately_earlier_discards_are_ordinary(self) -> None:
        """
        A17 "immediately": while the stock still has cards after the draw, the discard just ends the turn.
        """
        state = position(hands=("2c 9d", "3c", "4c", "5c"), stock="Kh 9s", rest_to="pile", rules=IMMEDIATELY)
        after = play(state, DrawStock(0), Discard(0, "Kh"))
        assert (Phase.DRAW, 1, 1) == (after.phase, after.to_act, len(after.stock))

    def test_a17_immediately_no_turn_starts_with_an_empty_stock(self) -> None:
        """
        A17 "immediately": a position where a turn starts with an empty stock cannot even be built.
        """
        with pytest.raises(
            InvalidStateError, match="with empty_stock_end='immediately' no turn starts with an empty stock"
        ):
            empty_stock(IMMEDIATELY)


class TestR25DoubleFourOfAKind:
    """
    R25: "A set of four cards melded together in one laydown scores double [...]: four Jacks at once
    = 80; three Jacks + a fourth added later = 40."  The switch `double_four_of_a_kind` (default
    True, "sets incl. four Jokers") turns the doubling off.
    """

    @pytest.mark.parametrize(
        ("hand", "rules", "team0"),
        [
            ("Jc Jd Jh Js", DEFAULT, TeamScore(40, 40, 25, 3)),
            ("Jc Jd Jh Js", NO_DOUBLE_SETS, TeamScore(40, 0, 25, 3)),
            ("X1 X2 X3 X4", DEFAULT, TeamScore(80, 80, 25, 3)),
            ("X1 X2 X3 X4", NO_DOUBLE_SETS, TeamScore(80, 0, 25, 3)),
            ("Ac Ad Ah As", NO_DOUBLE_SETS, TeamScore(60, 0, 25, 3)),
        ],
        ids=["W2-jacks-default", "jacks-off", "W3-jokers-default", "jokers-off", "aces-off"],
    )
    def test_r25_double_four_of_a_kind_switch(self, hand: str, rules: Rules, team0: TeamScore) -> None:
        """
        R25, W2, W3: four of a kind laid down at once doubles by default; with the switch off it scores singly.
        """
        after = apply(playing(hand, rules), LayDown(0, hand))
        assert DealScore(1, (team0, TeamScore(0, 0, 0, 6)), 0, DealEnd.WENT_OUT) == only_result(after)

    def test_r25_switch_off_leaves_sets_of_three_alone(self) -> None:
        """
        R25, W1: three jacks and a fourth laid off score 40 with or without the switch.
        """
        melds = (meld(0, "Jc Jd Jh"),)
        for rules in (DEFAULT, NO_DOUBLE_SETS):
            after = apply(playing("Js", rules, melds), LayOff(0, 0, "Js"))
            assert TeamScore(40, 0, 25, 3) == only_result(after).teams[0]


class TestA20DoubleFourCardRuns:
    """
    A20: "What does the ×2 apply to?"  Default: "Sets only [...], all four placed by one meld action
    [...]. Never runs; never sets completed by a lay-off".  Variant: `double_four_card_runs = False`;
    with True a run of four laid down at once doubles too.
    """

    @pytest.mark.parametrize(
        ("hand", "rules", "team0"),
        [
            ("Js Qs Ks As", DEFAULT, TeamScore(45, 0, 25, 3)),
            ("Js Qs Ks As", DOUBLE_RUNS, TeamScore(45, 45, 25, 3)),
            ("Ts Js Qs Ks As", DOUBLE_RUNS, TeamScore(55, 0, 25, 3)),
            ("2h 3h 4h", DOUBLE_RUNS, TeamScore(9, 0, 25, 3)),
            ("Jc Jd Jh Js", DOUBLE_RUNS, TeamScore(40, 40, 25, 3)),
        ],
        ids=["W9-default", "four-run-doubled", "five-run-not", "three-run-not", "sets-still-doubled"],
    )
    def test_a20_double_four_card_runs_switch(self, hand: str, rules: Rules, team0: TeamScore) -> None:
        """
        A20, W9: with the switch a run of exactly four laid down at once scores double; longer runs do not.
        """
        after = apply(playing(hand, rules), LayDown(0, hand))
        assert DealScore(1, (team0, TeamScore(0, 0, 0, 6)), 0, DealEnd.WENT_OUT) == only_result(after)

    def test_a20_lay_off_onto_a_four_card_run_scores_singly(self) -> None:
        """
        A20: the four cards laid down are doubled; 9h laid off onto them later is not.
        """
        melds = (meld(0, "5h 6h 7h 8h"),)
        default = apply(playing("9h", DEFAULT, melds), LayOff(0, 0, "9h"))
        assert TeamScore(35, 0, 25, 3) == only_result(default).teams[0]
        after = apply(playing("9h", DOUBLE_RUNS, melds), LayOff(0, 0, "9h"))
        assert TeamScore(35, 26, 25, 3) == only_result(after).teams[0]

    def test_a20_doubling_goes_to_the_team_that_laid_the_run_down(self) -> None:
        """
        A20, R26: seat 1's four-card run doubles for team 1; seat 0's lay-off scores for team 0.
        """
        melds = (meld(1, "5h 6h 7h 8h"),)
        after = apply(playing("9h", DOUBLE_RUNS, melds), LayOff(0, 0, "9h"))
        expected = DealScore(1, (TeamScore(9, 0, 25, 3), TeamScore(26, 26, 0, 6)), 0, DealEnd.WENT_OUT)
        assert expected == only_result(after)

    def test_a20_run_of_three_completed_to_four_is_not_doubled(self) -> None:
        """
        A20: only four cards laid down in one action count; 5h 6h 7h plus 8h later does not.
        """
        melds = (meld(0, "5h 6h 7h"),)
        after = apply(playing("8h", DOUBLE_RUNS, melds), LayOff(0, 0, "8h"))
        assert TeamScore(26, 0, 25, 3) == only_result(after).teams[0]


class TestR24GoOutBonus:
    """
    R24: "+ 25 if one of its players went out"; A23: "No bonus if the round ends by passes."  The
    size of the bonus is `go_out_bonus` (default 25).
    """

    @pytest.mark.parametrize("bonus", [25, 50, 0, -10, 10_000, -10_000])
    def test_r24_go_out_bonus(self, bonus: int) -> None:
        """
        R24: the team of the player who goes out gets `go_out_bonus` (25 by default).
        """
        rules = Rules(go_out_bonus=bonus)
        after = apply(playing("Qh Qs Qd", rules), LayDown(0, "Qd Qh Qs"))
        result = only_result(after)
        assert DealScore(1, (TeamScore(30, 0, bonus, 3), TeamScore(0, 0, 0, 6)), 0, DealEnd.WENT_OUT) == result
        assert (27 + bonus, -6) == after.scores

    def test_r24_a23_no_bonus_without_going_out_whatever_its_size(self) -> None:
        """
        R24, A23: a deal ended by passes pays no bonus, whatever `go_out_bonus` is.
        """
        rules = Rules(go_out_bonus=50, empty_stock_end="first_pass")
        result = only_result(apply(empty_stock(rules), Pass(0)))
        assert (0, 0) == (result.teams[0].bonus, result.teams[1].bonus)


HAND_SIZE_MESSAGE = "hand_size must be between 1 and 13 (four hands and the upcard come from 56 cards), got {}"


class TestA5HandSize:
    """
    A5, R7: "Dealer shuffles and deals 7 cards to each player (28 cards). The rest forms the face-down
    draw pile (stock); its top card is turned face up [...]".  Default: "7 each → stock 27, discard
    pile 1."  Variant: `hand_size` (default 7), an int from 1 to 13.
    """

    @pytest.mark.parametrize(("size", "stock"), [(1, 51), (7, 27), (10, 15), (13, 3)])
    def test_a5_hand_size_deals_that_many_cards(self, size: int, stock: int) -> None:
        """
        A5, R7: one card at a time from the dealer's left, then the upcard, then the stock.
        """
        rules = Rules(hand_size=size)
        state = apply(new_game(rules), Deal(0, FULL_DECK))
        dealt = 4 * size
        expected_hands = tuple(CardSet(FULL_DECK[(seat - 1) % 4 : dealt : 4]) for seat in range(4))
        assert expected_hands == state.hands
        assert (FULL_DECK[dealt],) == state.discard_pile
        assert FULL_DECK[dealt + 1 :] == state.stock
        assert stock == len(state.stock)
        assert (Phase.DRAW, 1, 1) == (state.phase, state.to_act, state.deal)

    @pytest.mark.parametrize(("size", "bound"), [(1, 443), (7, 395), (10, 371), (13, 347)])
    def test_a5_hand_size_changes_the_deal_length_bound(self, size: int, bound: int) -> None:
        """
        A5: the length bound counts two actions per stock card, so it shrinks as hands grow.
        """
        assert bound == max_deal_length(Rules(hand_size=size))

    def test_a5_hand_size_13_leaves_a_stock_of_three(self) -> None:
        """
        A5: with 13 cards each the stock holds the last three jokers, and the upcard is X1.
        """
        state = apply(new_game(Rules(hand_size=13)), Deal(0, FULL_DECK))
        assert "X1" == " ".join(str(card) for card in state.discard_pile)
        assert "X2 X3 X4" == " ".join(str(card) for card in state.stock)
        assert [13, 13, 13, 13] == [len(hand) for hand in state.hands]

    @pytest.mark.parametrize("value", [0, 14, -1, 56])
    def test_a5_hand_size_out_of_range(self, value: object) -> None:
        """
        A5: hand_size must be an int from 1 to 13.
        """
        with pytest.raises(ValueError, match=re.escape(HAND_SIZE_MESSAGE.format(repr(value)))):
            Rules(hand_size=value)  # type: ignore[arg-type]

    @pytest.mark.parametrize("value", ["7", 7.0, True, None])
    def test_a5_hand_size_not_an_int(self, value: object) -> None:
        """
        A5: a hand size that is not an int is a type error.
        """
        with pytest.raises(TypeError, match=re.escape(f"hand_size must be an int, got {value!r}")):
            Rules(hand_size=value)  # type: ignore[arg-type]


#: Numbers of the rules besides A5's `hand_size` (`TestA5HandSize`), with values out of their ranges
#: and the messages that refuse them (every number is tried beside its range, as `Rules` takes it).
OUT_OF_RANGE = [
    ("num_deals", 0, "num_deals must be between 1 and 100, got 0"),
    ("num_deals", 101, "num_deals must be between 1 and 100, got 101"),
    ("go_out_bonus", 10_001, "go_out_bonus must be between -10000 and 10000, got 10001"),
    ("go_out_bonus", -10_001, "go_out_bonus must be between -10000 and 10000, got -10001"),
]
#: Values that are none of its choices, for switches that are named choices (every named choice is
#: tried with texts near its values).
NOT_A_CHOICE = [
    ("obligation_timing", "later"),
    ("obligation_timing", "IMMEDIATE"),
    ("obligation_timing", None),
    ("empty_stock_end", "never"),
    ("empty_stock_end", "all-pass"),
    ("next_dealer", "right"),
    ("next_dealer", 3),
    ("team_draw_tiebreak", "coin"),
    ("tie_break", "sudden_death"),
]


class TestR24R27RuleNumbers:
    """
    R24: "+ 25 if one of its players went out"; R27: "A game is exactly two deals."  The numbers
    `go_out_bonus` (default 25) and `num_deals` (default 2) are ints within a range.
    """

    @pytest.mark.parametrize(("field", "value", "message"), OUT_OF_RANGE)
    def test_r24_r27_numbers_out_of_range(self, field: str, value: object, message: str) -> None:
        """
        R24, R27: the other numbers of the rules are ints in a range too.
        """
        with pytest.raises(ValueError, match=re.escape(message)):
            Rules(**{field: value})  # type: ignore[arg-type]

    @pytest.mark.parametrize("field", switches.NUMBERS)
    def test_every_number_refuses_the_ints_beside_its_range(self, field: str) -> None:
        """
        Each switch of `Rules` that is a number takes the ints of a range, found by trying values:
        the one below it and the one above it are refused, naming the range.
        """
        low, high = switches.accepted_range(field)
        assert low is not None, f"{field} takes any int, however small"
        assert high is not None, f"{field} takes any int, however large"
        for value in (low - 1, high + 1):
            with pytest.raises(ValueError, match=re.escape(f"{field} must be between {low} and {high}")) as raised:
                Rules(**{field: value})  # type: ignore[arg-type]
            assert str(raised.value).endswith(f", got {value}")

    @pytest.mark.parametrize("field", switches.NUMBERS)
    @pytest.mark.parametrize("value", [2.0, "25", True, None])
    def test_every_number_must_be_an_int(self, field: str, value: object) -> None:
        """
        A5, R24, R27: a number of the rules (every switch of `Rules` with an int default) that is
        given what is not an int is a type error.
        """
        with pytest.raises(TypeError, match=re.escape(f"{field} must be an int, got {value!r}")):
            Rules(**{field: value})  # type: ignore[arg-type]


class TestOnOffSwitches:
    """
    A9, A10, A13, A15, R25, A20: "These are defaults: each should be a documented configuration
    switch where a variant is listed."  Every switch of `Rules` with a boolean default (these, and
    the others, such as `ace_low_allowed`, `rummy_calls` and `jokers_wild`) is an on/off switch.
    """

    @pytest.mark.parametrize("field", switches.BOOLEANS)
    @pytest.mark.parametrize("value", [1, "yes", None])
    def test_on_off_switches_must_be_bools(self, field: str, value: object) -> None:
        """
        Every on/off switch of `Rules` accepts only True and False.
        """
        with pytest.raises(TypeError, match=re.escape(f"{field} must be True or False, got {value!r}")):
            Rules(**{field: value})  # type: ignore[arg-type]


class TestNamedChoices:
    """
    A11, A17, A4, A1, A22: the variants named in the rules, `obligation_timing = "immediate" |
    "before_discard"`, `empty_stock_end = "all_pass" | "first_pass" | "immediately"`, `next_dealer =
    "left" | "winner" | "same"`, `team_draw_tiebreak = "redraw" | "suit_order"` and `tie_break =
    "draw" | "extra_deal"`, are enum choices that accept exactly these values.
    """

    @pytest.mark.parametrize(("field", "value"), NOT_A_CHOICE)
    def test_a11_a17_a4_a1_a22_unknown_enum_values(self, field: str, value: object) -> None:
        """
        A11, A17, A4, A1, A22: the named choices accept only their documented values.
        """
        enum_name = switches.CHOICE_TYPES[field].__name__
        with pytest.raises(InvalidValueError, match=re.escape(f"{enum_name} is one of ")) as raised:
            Rules(**{field: value})  # type: ignore[arg-type]
        assert str(raised.value).endswith(f", not {value!r}")

    @pytest.mark.parametrize("field", switches.CHOICES)
    def test_every_named_choice_takes_its_values_and_no_other(self, field: str) -> None:
        """
        Each switch of `Rules` that is an enumeration takes the value of each of its members, as
        text, and refuses any other text, naming its enumeration: the value in capitals, or with a
        letter added.
        """
        choice = switches.CHOICE_TYPES[field]
        for member in choice:
            assert member is getattr(Rules(**{field: member.value}), field)
            for value in (member.value.upper(), f"{member.value}s"):
                with pytest.raises(InvalidValueError, match=re.escape(f"{choice.__name__} is one of ")) as raised:
                    Rules(**{field: value})  # type: ignore[arg-type]
                assert str(raised.value).endswith(f", not {value!r}")

    def test_a11_a17_enum_choices_accept_their_strings(self) -> None:
        """
        A11, A17: choices may be given as their string values and compare equal to them.
        """
        rules = Rules(obligation_timing="before_discard", empty_stock_end="immediately")
        assert ObligationTiming.BEFORE_DISCARD is rules.obligation_timing
        assert EmptyStockEnd.IMMEDIATELY is rules.empty_stock_end
        assert "before_discard" == str(rules.obligation_timing)
        expected = {
            "obligation_timing": ObligationTiming.BEFORE_DISCARD,
            "empty_stock_end": EmptyStockEnd.IMMEDIATELY,
        }
        assert expected == rules.changes()
        assert {} == DEFAULT.changes()
