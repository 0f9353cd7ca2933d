"""
The three switches for the open points A8, A16 and A18: a low ace in runs, melding before a pass,
and the discard pile turned over into a new stock.

Each class quotes the open point from the rules document.  Positions are written by hand with
`tests.positions.position`; seat 0 is to act unless a test says otherwise, piles are written
bottom card first.
"""

from __future__ import annotations

import random

import attrs
import pytest

from persian_rummy import (
    Card,
    CardSet,
    Discard,
    DrawStock,
    InvalidMeldError,
    InvalidStateError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    apply,
    determinize,
    format_position,
    from_json,
    legal_actions,
    observe,
    parse_position,
    parse_rules,
    score_deal,
    to_json,
)
from persian_rummy.engine import max_deal_length, max_game_length
from persian_rummy.melds import is_meld, meld_kind
from persian_rummy.rl import action_from_id, action_id, id_text
from persian_rummy.rules import EmptyStockEnd
from persian_rummy.scoring import DealEnd
from persian_rummy.views import count_arrangements
from tests.positions import illegal, low_meld, meld, play, position

LOW = Rules(ace_low_allowed=True)
HEARTS_FROM_3 = "3h4h5h6h7h8h9hThJhQhKh"
MELDING = Rules(pass_allows_melding=True)
TURNING = Rules(reshuffle_on_empty_stock=True)


class TestA8AceLow:
    """
    A8: "Run limits. [...] Default: 2 is the lowest card, A only above K; max length 13; [...]
    Variants: `ace_low_allowed` (default False)": a run may also start A-2-3, never wrap K-A-2.
    A11: "A lay-off action may place several cards on one meld at once", a low ace among them.
    """

    @pytest.mark.parametrize("text", ["Ah 2h 3h", "Ah 2h 3h 4h", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"])
    def test_a8_runs_from_a_low_ace(self, text: str) -> None:
        cards = CardSet.parse(text)
        assert (None, MeldKind.RUN) == (meld_kind(cards), meld_kind(cards, LOW))
        assert (False, True) == (is_meld(cards), is_meld(cards, LOW))

    @pytest.mark.parametrize("text", ["Kh Ah 2h", "Qh Kh Ah 2h", "Kh Ah 2h 3h", "Ah 3h 4h", "Ah 2h 4h"])
    def test_a8_never_round_the_corner(self, text: str) -> None:
        assert None is meld_kind(CardSet.parse(text), LOW)

    def test_a8_the_ace_is_still_high_too(self) -> None:
        assert MeldKind.RUN is meld_kind(CardSet.parse("Qh Kh Ah"), LOW)
        assert MeldKind.RUN is meld_kind(CardSet.parse("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"), LOW)

    def test_a8_a_table_meld_takes_a_low_ace_only_under_the_switch(self) -> None:
        with pytest.raises(InvalidMeldError, match="is not a set or a run"):
            TableMeld(0, CardSet.parse("Ac 2c 3c"))
        low = TableMeld(0, CardSet.parse("Ac 2c 3c"), ace_low=True)
        assert (MeldKind.RUN, CardSet.parse("4c")) == (low.kind, CardSet(low.ends))
        assert "TableMeld(0, CardSet.parse('2c 3c Ac'), ace_low=True)" == repr(low)
        # The same cards under other rules are another meld: there a 2-3-4 takes no ace below.
        assert CardSet.parse("Ac 5c") == CardSet(TableMeld(0, CardSet.parse("2c 3c 4c"), ace_low=True).ends)
        assert CardSet.parse("5c") == CardSet(TableMeld(0, CardSet.parse("2c 3c 4c")).ends)

    def test_a8_lay_down_a_low_run(self) -> None:
        state = position(rules=LOW, hands=("Ac 2c 3c 9h", "", "", ""), phase="play")
        assert LayDown(0, "Ac 2c 3c") in legal_actions(state)
        after = apply(state, LayDown(0, "Ac 2c 3c"))
        assert (MeldKind.RUN, True, CardSet.parse("9h")) == (
            after.melds[0].kind,
            after.melds[0].ace_low,
            after.hands[0],
        )

    def test_a8_no_low_run_by_default(self) -> None:
        state = position(hands=("Ac 2c 3c 9h", "", "", ""), phase="play")
        assert LayDown(0, "Ac 2c 3c") not in legal_actions(state)
        assert ("R9",) == illegal(state, LayDown(0, "Ac 2c 3c")).rule

    def test_a8_an_ace_lays_off_below_a_2(self) -> None:
        state = position(rules=LOW, hands=("Ad 9h", "", "", ""), melds=(low_meld(1, "2d 3d 4d"),), phase="play")
        assert [LayOff(0, 0, "Ad")] == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        after = apply(state, LayOff(0, 0, "Ad"))
        assert CardSet.parse("Ad 2d 3d 4d") == after.melds[0].cards

    def test_a8_no_ace_below_a_2_by_default(self) -> None:
        state = position(hands=("Ad 9h", "", "", ""), melds=(meld(1, "2d 3d 4d"),), phase="play")
        assert [] == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert ("R17",) == illegal(state, LayOff(0, 0, "Ad")).rule

    def test_a8_an_ace_and_a_2_lay_off_together(self) -> None:
        """
        A11: several cards onto one end in one action; with a low ace the end may be the ace.
        """
        state = position(rules=LOW, hands=("Ad 2d 9h", "", "", ""), melds=(low_meld(1, "3d 4d 5d"),), phase="play")
        offs = [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert [LayOff(0, 0, "2d"), LayOff(0, 0, "Ad 2d")] == offs
        assert ("R17",) == illegal(state, LayOff(0, 0, "Ad")).rule

    def test_a8_an_ace_onto_2_to_k_is_one_lay_off(self) -> None:
        """
        Onto a run from 2 to K the ace fits below the 2 and above the king: one action, listed once.
        """
        run = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"
        state = position(rules=LOW, hands=("As 9h", "", "", ""), melds=(low_meld(1, run),), phase="play")
        assert [LayOff(0, 0, "As")] == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert 13 == len(apply(state, LayOff(0, 0, "As")).melds[0].cards)

    def test_a11_the_2_and_the_ace_together_below_3_to_k(self) -> None:
        """
        A11: "A lay-off action may place several cards on one meld at once": onto 3h-Kh the 2 and
        the ace go below in one action, the whole suit then; the ace alone goes above the king.
        """
        state = parse_position(f"ace_low_allowed=true 1/W play N 2hAh9c/2c/3c/4c * 5c E:{HEARTS_FROM_3} - - - 0 - -")
        offs = [LayOff(0, 0, "2h"), LayOff(0, 0, "2h Ah"), LayOff(0, 0, "Ah")]
        assert offs == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert 13 == len(apply(state, LayOff(0, 0, "2h Ah")).melds[0].cards)
        assert "lay Ah 2h below 3h" == id_text(action_id(LayOff(0, 0, "2h Ah"), state), LOW)
        assert all(action_from_id(action_id(action, state), state) == action for action in offs)

    def test_a11_the_2_the_3_and_the_ace_together_below_4_to_k(self) -> None:
        """
        A11: onto 4h-Kh the 3, the 2 and then the ace: each block that reaches the run is one lay-off.
        """
        run = HEARTS_FROM_3.removeprefix("3h")
        state = parse_position(f"ace_low_allowed=true 1/W play N 2h3hAh9c/2c/3c/4c * 5c E:{run} - - - 0 - -")
        offs = [LayOff(0, 0, "3h"), LayOff(0, 0, "2h 3h"), LayOff(0, 0, "2h 3h Ah"), LayOff(0, 0, "Ah")]
        assert offs == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert 13 == len(apply(state, LayOff(0, 0, "2h 3h Ah")).melds[0].cards)
        assert all(action_from_id(action_id(action, state), state) == action for action in offs)

    def test_a11_an_ace_taken_goes_below_with_the_2_or_above_the_king(self) -> None:
        """
        R15, A11: the ace taken from the pile is played at once, above the king or below the 2 from hand.
        """
        state = parse_position(f"ace_low_allowed=true 1/W draw N 2h9c/2c/3c/4c * 5cAh E:{HEARTS_FROM_3} - - - 0 - -")
        after = apply(state, TakeDiscard(0, "Ah"))
        assert (LayOff(0, 0, "2h Ah"), LayOff(0, 0, "Ah")) == legal_actions(after)
        assert CardSet.parse("9c") == apply(after, LayOff(0, 0, "2h Ah")).hands[0]

    def test_a8_a_low_run_grows_up_to_the_king(self) -> None:
        """
        A low run from the ace up to the king is the whole suit: nothing extends it further.
        """
        state = position(
            rules=LOW,
            hands=("Qs Ks 9h", "", "", ""),
            melds=(low_meld(1, "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js"),),
            phase="play",
        )
        assert [LayOff(0, 0, "Qs"), LayOff(0, 0, "Qs Ks")] == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        full = apply(state, LayOff(0, 0, "Qs Ks"))
        assert (13, 0, 0) == (len(full.melds[0].cards), full.melds[0].ends, full.melds[0].reach)

    def test_a8_no_2_onto_an_ace_high_run(self) -> None:
        state = position(rules=LOW, hands=("2s 9h", "", "", ""), melds=(low_meld(1, "Qs Ks As"),), phase="play")
        assert [] == [a for a in legal_actions(state) if isinstance(a, LayOff)]
        assert ("R17",) == illegal(state, LayOff(0, 0, "2s")).rule

    def test_a8_take_an_ace_for_a_low_run(self) -> None:
        """
        R15, A12: the ace on the pile can be played at once in A-2-3, so it may be taken.
        """
        state = position(rules=LOW, hands=("2h 3h 9c", "", "", ""), pile="7d Ah", stock="5s")
        assert (DrawStock(0), TakeDiscard(0, "Ah")) == legal_actions(state)
        after = apply(state, TakeDiscard(0, "Ah"))
        assert (LayDown(0, "Ah 2h 3h"),) == legal_actions(after)
        default = attrs.evolve(state, rules=Rules())
        assert (DrawStock(0),) == legal_actions(default)

    def test_a8_take_an_ace_that_reaches_a_run_over_cards_in_hand(self) -> None:
        """
        A11, A12: the ace reaches 4-5-6 below with the 2 and 3 from hand, in one lay-off.
        """
        state = position(
            rules=LOW,
            hands=("2h 3h 9c", "", "", ""),
            pile="7d Ah",
            melds=(low_meld(1, "4h 5h 6h"),),
            stock="5s",
        )
        assert TakeDiscard(0, "Ah") in legal_actions(state)
        after = apply(state, TakeDiscard(0, "Ah"))
        assert LayOff(0, 0, "Ah 2h 3h") in legal_actions(after)

    def test_a8_the_low_ace_still_scores_15(self) -> None:
        """
        R23: aces score 15 wherever they are; A8's switch changes only which runs are valid.
        """
        low = TableMeld(0, CardSet.parse("Ac 2c 3c"), ace_low=True)
        assert 20 == score_deal((CardSet(),) * 4, (low,), None, rules=LOW).teams[0].melded

    def test_a8_melds_follow_the_rules_of_the_state(self) -> None:
        with pytest.raises(
            InvalidStateError, match=r"has ace_low=False, but the rules have ace_low_allowed=True \(A8\)"
        ):
            position(rules=LOW, melds=(meld(1, "4h 5h 6h"),))
        with pytest.raises(
            InvalidStateError, match=r"has ace_low=True, but the rules have ace_low_allowed=False \(A8\)"
        ):
            position(melds=(low_meld(1, "4h 5h 6h"),))

    def test_a8_positions_and_json_carry_the_switch(self) -> None:
        state = position(rules=LOW, hands=("9h", "", "", ""), melds=(low_meld(1, "Ac 2c 3c"),))
        text = format_position(state)
        assert text.startswith("ace_low_allowed=true 1/W draw N")
        assert "E:2c3cAc" in text
        assert state == parse_position(text)
        assert state == from_json(to_json(state))
        assert LOW == parse_rules("ace_low_allowed=true")


class TestA16PassAllowsMelding:
    """
    A16: "Stock exhausted: what does 'pass' include? [...] Default: A pass ends the turn
    immediately: no draw, no meld, no discard. [...] Variants: `pass_allows_melding`": with the
    stock empty, a player may lay down and lay off before passing.  A17: "Ends when all four
    players pass in succession (4 consecutive passes with no draw in between)": melding is no draw.
    """

    def test_a16_melds_and_lay_offs_come_before_the_pass(self) -> None:
        state = position(
            rules=MELDING, hands=("7c 8c 9c Ah 4s", "", "", ""), pile="2d 3s", melds=(meld(1, "Jh Qh Kh"),), rest_to=1
        )
        assert (LayDown(0, "7c 8c 9c"), LayOff(0, 0, "Ah"), Pass(0)) == legal_actions(state)

    def test_a16_the_turn_goes_on_after_melding(self) -> None:
        state = position(
            rules=MELDING, hands=("7c 8c 9c Ah 4s", "", "", ""), pile="2d 3s", melds=(meld(1, "Jh Qh Kh"),), rest_to=1
        )
        after = apply(state, LayDown(0, "7c 8c 9c"))
        assert (Phase.DRAW, 0, 0) == (after.phase, after.to_act, after.passes)
        assert (LayOff(0, 0, "Ah"), Pass(0)) == legal_actions(after)
        passed = play(after, LayOff(0, 0, "Ah"), Pass(0))
        assert (Phase.DRAW, 1, 1, CardSet.parse("4s")) == (passed.phase, passed.to_act, passed.passes, passed.hands[0])

    def test_a16_melding_keeps_the_count_of_passes(self) -> None:
        """
        A17: four passes in a row end the deal; melding before a pass is no draw and does not
        reset the count.
        """
        state = position(
            rules=MELDING, hands=("7c 8c 9c 4s", "", "", ""), pile="2d", rest_to=1, passes=3, to_act=0, dealer=0
        )
        after = play(state, LayDown(0, "7c 8c 9c"), Pass(0))
        assert (Phase.DEAL_OVER, DealEnd.PASSES) == (after.phase, after.results[-1].end)
        assert 24 == after.results[-1].teams[0].melded

    def test_a16_going_out_before_passing(self) -> None:
        state = position(rules=MELDING, hands=("7c 8c 9c", "", "", ""), pile="2d", rest_to=1)
        after = apply(state, LayDown(0, "7c 8c 9c"))
        assert (Phase.DEAL_OVER, 0, DealEnd.WENT_OUT, 25) == (
            after.phase,
            after.went_out,
            after.results[-1].end,
            after.results[-1].teams[0].bonus,
        )

    def test_a16_a17_going_out_before_passing_keeps_the_passes(self) -> None:
        """
        A16, A17: two passes, then North melds out instead of passing: the finished deal records
        the two passes it ended after, went out and the bonus; the position reads back the same.
        """
        state = parse_position("pass_allows_melding=true 1/W draw N 7c8c9c/*/-/- - 2d3s - - - - 2 - -")
        after = apply(state, LayDown(0, "7c 8c 9c"))
        assert (Phase.DEAL_OVER, 0, DealEnd.WENT_OUT, 2) == (
            after.phase,
            after.went_out,
            after.results[-1].end,
            after.passes,
        )
        assert after == parse_position(format_position(after))
        assert after == from_json(to_json(after))

    def test_a16_a17_melding_out_after_three_passes(self) -> None:
        """
        A17: three passes then a meld that goes out: the deal ends by going out, with three passes in a row.
        """
        state = position(rules=MELDING, hands=("7c 8c 9c", "", "", ""), pile="2d", rest_to=1, passes=3)
        after = apply(state, LayDown(0, "7c 8c 9c"))
        assert (DealEnd.WENT_OUT, 3) == (after.results[-1].end, after.passes)

    def test_a16_no_melding_before_drawing_while_the_stock_has_cards(self) -> None:
        state = position(rules=MELDING, hands=("7c 8c 9c 4s", "", "", ""), pile="2d")
        assert (DrawStock(0),) == legal_actions(state)
        error = illegal(state, LayDown(0, "7c 8c 9c"))
        assert (("R13",), "seat 0 must first draw or pass, not laying down a meld") == (error.rule, error.reason)

    def test_a16_no_melding_with_a_pass_by_default(self) -> None:
        state = position(hands=("7c 8c 9c 4s", "", "", ""), pile="2d", rest_to=1)
        assert (Pass(0),) == legal_actions(state)
        assert ("R13",) == illegal(state, LayDown(0, "7c 8c 9c")).rule

    def test_a16_a_take_after_melding_is_a_normal_turn(self) -> None:
        """
        Melding first does not take the choice away: the player may still take a card that can
        be played (R15), here onto the run just laid down, and then must discard (R18).
        """
        state = position(rules=MELDING, hands=("7c 8c 9c 4s 5s", "", "", ""), pile="2d Tc", rest_to=1)
        after = apply(state, LayDown(0, "7c 8c 9c"))
        assert (TakeDiscard(0, "Tc"), Pass(0)) == legal_actions(after)
        taken = apply(after, TakeDiscard(0, "Tc"))
        assert (LayOff(0, 0, "Tc"),) == legal_actions(taken)
        assert Discard(0, "4s") in legal_actions(apply(taken, LayOff(0, 0, "Tc")))


class TestA18Reshuffle:
    """
    A18: "Reshuffle the discard pile? [...] Default: Never reshuffle. Variants:
    `reshuffle_on_empty_stock`": when the stock runs out, the discard pile but its top card is
    turned over, in order and unshuffled, to become the stock.
    """

    def test_a18_the_pile_is_turned_over_at_the_end_of_the_turn(self) -> None:
        state = position(rules=TURNING, hands=("9h 4s", "", "", ""), pile="2d 5c 7h", rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        assert tuple(map(Card.parse, ("2d", "5c", "7h"))) == after.stock
        assert (Card.parse("4s"),) == after.discard_pile
        assert (True, Phase.DRAW, 1) == (after.stock_known, after.phase, after.to_act)
        assert (DrawStock(1),) == legal_actions(after)[:1]

    def test_a18_a_card_drawn_from_the_turned_stock_is_known_to_all(self) -> None:
        state = position(rules=TURNING, hands=("9h 4s", "", "", ""), pile="2d 5c 7h", rest_to=1, phase="play")
        drawn = play(state, Discard(0, "4s"), DrawStock(1))
        assert CardSet.parse("2d") <= drawn.known[1]
        assert (True, CardSet.parse("2d")) == (drawn.stock_known, observe(drawn, 3).known[1] & CardSet.parse("2d"))

    def test_a18_the_known_stock_is_in_every_view(self) -> None:
        state = position(rules=TURNING, hands=("9h 4s", "", "", ""), pile="2d 5c 7h", rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        for seat in (0, 1, 2, 3, None):
            assert after.stock == observe(after, seat).stock
        assert None is observe(state, 0).stock

    def test_a18_determinize_keeps_the_known_stock(self) -> None:
        state = position(
            rules=TURNING, hands=("9h 4s 5s", "Ac Ad", "Ah As", "Kc Kd"), pile="2d 5c 7h", rest_to="pile", phase="play"
        )
        after = apply(state, Discard(0, "4s"))
        view = observe(after, 0)
        sample = determinize(view, random.Random(3))  # noqa: S311 (reproducible, not secret)
        assert (after.stock, True) == (sample.stock, sample.stock_known)
        assert view == observe(sample, 0)
        # Six unseen cards, two in each other hand; none in the stock, whose order everyone knows.
        assert 6 * 5 * 4 * 3 * 2 // (2 * 2 * 2) == count_arrangements(view)

    def test_a18_no_turn_over_of_a_single_card(self) -> None:
        state = position(rules=TURNING, hands=("9h 4s", "", "", ""), rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        assert ((), (Card.parse("4s"),), False) == (after.stock, after.discard_pile, after.stock_known)
        assert Pass(1) in legal_actions(after)

    def test_a18_turning_over_comes_before_the_deal_ends_with_the_stock(self) -> None:
        """
        A17's ``immediately`` ends a deal when the stock has run out; turned over, it has not.
        """
        rules = attrs.evolve(TURNING, empty_stock_end=EmptyStockEnd.IMMEDIATELY)
        state = position(rules=rules, hands=("9h 4s", "", "", ""), pile="2d 5c", rest_to=1, phase="play")
        assert Phase.DRAW is apply(state, Discard(0, "4s")).phase
        single = position(rules=rules, hands=("9h 4s", "", "", ""), rest_to=1, phase="play")
        assert DealEnd.STOCK_EMPTY is apply(single, Discard(0, "4s")).results[-1].end

    def test_a18_going_out_by_discard_comes_first(self) -> None:
        rules = attrs.evolve(TURNING, go_out_by_discard=True)
        state = position(rules=rules, hands=("4s", "", "", ""), pile="2d 5c", rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        assert (Phase.DEAL_OVER, 0, False) == (after.phase, after.went_out, after.stock_known)

    def test_a18_deals_have_no_length_bound(self) -> None:
        assert (None, None) == (max_deal_length(TURNING), max_game_length(TURNING))

    def test_a18_no_turn_over_by_default(self) -> None:
        state = position(hands=("9h 4s", "", "", ""), pile="2d 5c 7h", rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        assert ((), False) == (after.stock, after.stock_known)

    def test_a18_only_a_turned_stock_is_known(self) -> None:
        with pytest.raises(InvalidStateError, match=r"under reshuffle_on_empty_stock \(A18\)"):
            position(hands=("9h", "", "", ""), stock="2d", stock_known=True)
        with pytest.raises(InvalidStateError, match=r"under reshuffle_on_empty_stock \(A18\)"):
            position(rules=TURNING, hands=("9h", "", "", ""), rest_to=1, stock_known=True)

    def test_a18_positions_and_json_carry_the_known_stock(self) -> None:
        state = position(rules=TURNING, hands=("9h 4s", "", "", ""), pile="2d 5c 7h", rest_to=1, phase="play")
        after = apply(state, Discard(0, "4s"))
        text = format_position(after)
        assert " ^2d5c7h 4s " in text
        assert after == parse_position(text)
        assert after == from_json(to_json(after))
        view = observe(after, 2)
        assert view == from_json(to_json(view))
