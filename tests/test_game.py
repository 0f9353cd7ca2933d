"""
The game: two deals (R27), the winner (R28, W16), who deals next (A4), the tie-break (A22), the
number of deals, the end-of-game questions, the length bounds and the 500-Rum features that do
not apply (R29).

Most deals here are scripted to end in the first turn: the first player is dealt
``2c 2d 2h 2s 3c 3d 3h``, draws ``3s`` and lays down two sets of four, going out (R19). That
player's team scores 20 melded + 20 doubling + 25 bonus − the partner's hand; the other team
loses both its hands (R24, R25).
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from persian_rummy import (
    FULL_DECK,
    Action,
    CardSet,
    ChanceNodeError,
    Deal,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    Outcome,
    Pass,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    is_deal_over,
    is_game_over,
    legal_actions,
    new_game,
    observe,
    outcome,
    random_deal,
)
from persian_rummy.engine import max_deal_length, max_game_length
from persian_rummy.rules import NextDealer, TieBreak
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.state import next_dealer
from tests import rules_page, switches
from tests.positions import deck_for, meld, position

QUADS = "2c 2d 2h 2s 3c 3d 3h"
CLUBS = "4c 5c 6c 7c 8c 9c Tc"  # 49 points
DIAMONDS = "4d 5d 6d 7d 8d 9d Td"  # 49 points
HEARTS = "4h 5h 6h 7h 8h 9h Th"  # 49 points
FILLERS = ("Kc", "Kd", "Kh")

# The scripted deal's result when the first player's team goes out with the default hands.
OUT = TeamScore(20, 20, 25, 49)  # 16
LOSE = TeamScore(0, 0, 0, 98)  # -98
# Deal 1 (seat 0 deals, seat 1 goes out) and deal 2 (seat 1 deals, seat 2 goes out): level at -82 each.
LEVEL_1 = DealScore(1, (LOSE, OUT), 1, DealEnd.WENT_OUT)
LEVEL_2 = DealScore(2, (OUT, LOSE), 2, DealEnd.WENT_OUT)
#: The switches that R29's decision on the rules page offers as variants, off by default.
R29_VARIANTS = re.findall(r"`Rules\.(\w+)`", rules_page.section("R29").partition("Offered as variants")[2])


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


def illegal(state: GameState, action: Action) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    return caught.value


def scripted_deal(
    state: GameState, *, out_offset: int = 0, others: tuple[str, str, str] = (CLUBS, DIAMONDS, HEARTS)
) -> GameState:
    """
    Deal the next deal and play it until a player goes out.

    The player *out_offset* seats after the first player holds `QUADS`; the others get *others*,
    clockwise from that player. Every player before it draws a filler card and discards it.
    """
    dealer = next_dealer(state)
    first = (dealer + 1) % 4
    out = (first + out_offset) % 4
    hands = ["", "", "", ""]
    hands[out] = QUADS
    for k, text in enumerate(others, start=1):
        hands[(out + k) % 4] = text
    fillers = FILLERS[:out_offset]
    state = apply(state, deck_for(hands, upcard="Ks", stock=" ".join((*fillers, "3s")), dealer=dealer))
    for k, filler in enumerate(fillers):
        seat = (first + k) % 4
        state = play(state, DrawStock(seat), Discard(seat, filler))
    return play(state, DrawStock(out), LayDown(out, "2c 2d 2h 2s"), LayDown(out, "3c 3d 3h 3s"))


def passed_out(state: GameState) -> GameState:
    """
    Four passes in a row from *state* (R21, A17).
    """
    for _ in range(4):
        seat = state.to_act
        assert seat is not None
        state = apply(state, Pass(seat))
    return state


class TestTwoDeals:
    """
    R27: "A game is exactly two deals. The second deal is dealt by the player to the first dealer's
    left, and its first turn belongs to the player on the second dealer's left."
    """

    def test_r27_after_the_first_deal_the_game_goes_on(self) -> None:
        state = scripted_deal(new_game())
        assert (Phase.DEAL_OVER, 1, 0, None) == (state.phase, state.deal, state.dealer, state.to_act)
        assert (LEVEL_1,) == state.results
        assert (1, DealEnd.WENT_OUT) == (state.went_out, state.results[-1].end)
        assert (is_deal_over(state), is_game_over(state)) == (True, False)
        assert outcome(state) is None

    def test_r27_the_table_and_hands_stay_as_the_deal_ended(self) -> None:
        state = scripted_deal(new_game())
        assert (meld(1, "2c 2d 2h 2s"), meld(1, "3c 3d 3h 3s")) == state.melds
        assert (CardSet.parse(HEARTS), CardSet(), CardSet.parse(CLUBS), CardSet.parse(DIAMONDS)) == state.hands

    def test_r27_between_deals_the_next_action_is_the_deal(self) -> None:
        state = scripted_deal(new_game())
        with pytest.raises(ChanceNodeError, match="Deal by seat 1"):
            legal_actions(state)
        assert state.is_chance_node is True

    def test_r27_the_second_deal_is_dealt_by_the_first_dealers_left(self) -> None:
        state = scripted_deal(new_game())
        assert 1 == next_dealer(state)
        for seat in (0, 2, 3):
            error = illegal(state, Deal(seat, FULL_DECK))
            assert ("A4", f"seat 1 deals this deal, not seat {seat}") == (error.rule_text, error.reason)

    def test_r27_the_second_deal_starts_left_of_its_dealer(self) -> None:
        state = apply(scripted_deal(new_game()), Deal(1, FULL_DECK))
        assert (Phase.DRAW, 2, 1, 2) == (state.phase, state.deal, state.dealer, state.to_act)
        assert (LEVEL_1,) == state.results
        assert () == state.melds
        assert [7, 7, 7, 7] == [len(hand) for hand in state.hands]
        assert (27, 1) == (len(state.stock), len(state.discard_pile))
        assert (None, 0) == (state.went_out, state.passes)
        assert "2c 6c Tc Ac 5d 9d Kd" == str(state.hands[2])

    def test_r27_the_game_ends_after_the_second_deal(self) -> None:
        state = scripted_deal(scripted_deal(new_game()))
        assert (Phase.GAME_OVER, 2, 1, None) == (state.phase, state.deal, state.dealer, state.to_act)
        assert (LEVEL_1, LEVEL_2) == state.results
        assert (is_deal_over(state), is_game_over(state)) == (True, True)
        assert () == legal_actions(state)

    def test_r27_nothing_can_be_applied_after_the_game(self) -> None:
        state = scripted_deal(scripted_deal(new_game()))
        deal = illegal(state, Deal(2, FULL_DECK))
        assert ("R7", "cards are dealt only at the start of a deal, not in phase 'game_over'") == (
            deal.rule_text,
            deal.reason,
        )
        draw = illegal(state, DrawStock(3))
        assert ("R13", "no player acts in phase 'game_over'") == (draw.rule_text, draw.reason)

    def test_r27_the_last_table_stays_after_the_game(self) -> None:
        state = scripted_deal(scripted_deal(new_game()))
        assert (meld(2, "2c 2d 2h 2s"), meld(2, "3c 3d 3h 3s")) == state.melds
        assert (CardSet.parse(DIAMONDS), CardSet.parse(HEARTS), CardSet(), CardSet.parse(CLUBS)) == state.hands


class TestWinner:
    """
    R28: "After two deals the team with the higher cumulative total wins. Equal totals → the game is a
    draw (A22)."
    """

    def test_r28_the_higher_total_wins(self) -> None:
        """
        R28: deal 2 gives NS 34 (partner holds 31) and EW −120: totals NS −64, EW −104.
        """
        others = ("6c 7c 8c 9c Tc Jc Qc", "4c 4d 4h 4s 5c 5d 5h", "6d 7d 8d 9d Td Jd Qd")
        state = scripted_deal(scripted_deal(new_game()), others=others)
        assert (34, -120) == state.results[-1].totals
        assert (-64, -104) == state.scores
        assert Outcome((-64, -104), 0) == outcome(state)

    def test_r28_the_other_team_can_win(self) -> None:
        others = (CLUBS, "Ac Ad Ah As X1 X2 X3", DIAMONDS)
        state = scripted_deal(scripted_deal(new_game()), others=others)
        assert (-55, -98) == state.results[-1].totals
        assert (-153, -82) == state.scores
        assert Outcome((-153, -82), 1) == outcome(state)

    def test_r28_w16_ew_win_116_to_152(self) -> None:
        """
        W16: "Deal 1: NS 128, EW 57. Deal 2: NS −12, EW 95. Totals NS 116, EW 152 → EW win."
        """
        deal_1 = DealScore(1, (TeamScore(125, 0, 25, 22), TeamScore(59, 40, 0, 42)), 0, DealEnd.WENT_OUT)
        deal_2 = DealScore(2, (TeamScore(0, 0, 0, 12), TeamScore(70, 0, 25, 0)), 3, DealEnd.WENT_OUT)
        # The final table of deal 2 scores deal_2: E's kings, W's jacks with E's J♠; N holds 5♣ 7♣.
        state = position(
            hands=("5c 7c", "", "", ""),
            melds=(meld(1, "Kc Kd Kh"), meld(3, "Jc Jd Jh", s1="Js")),
            phase="game_over",
            to_act=None,
            deal=2,
            dealer=1,
            results=(deal_1, deal_2),
            went_out=3,
        )
        result = outcome(state)
        assert Outcome((116, 152), 1) == result
        assert result is not None
        assert result.is_draw is False

    def test_r28_a22_equal_totals_are_a_draw(self) -> None:
        state = scripted_deal(scripted_deal(new_game()))
        assert (-82, -82) == state.scores
        result = outcome(state)
        assert Outcome((-82, -82), None) == result
        assert result is not None
        assert result.is_draw is True

    def test_r28_every_view_tells_the_outcome(self) -> None:
        state = scripted_deal(scripted_deal(new_game()))
        views = [observe(state, seat) for seat in (0, 1, 2, 3, None)]
        assert [(-82, -82)] * 5 == [view.scores for view in views]
        assert [Outcome((-82, -82), None)] * 5 == [outcome(view) for view in views]
        assert [None, None] == [outcome(observe(new_game())), outcome(observe(scripted_deal(new_game()), 2))]

    def test_r28_no_outcome_before_the_end(self) -> None:
        dealt = apply(new_game(), Deal(0, FULL_DECK))
        states = [new_game(), dealt, apply(dealt, DrawStock(1)), scripted_deal(new_game())]
        assert [None, None, None, None] == [outcome(state) for state in states]


class TestTieBreak:
    """
    A22: "Game tie after two deals: draw (default)"; variant ``tie_break="extra_deal"``: one extra deal
    if level after the last deal; still level → draw.
    """

    EXTRA = Rules(tie_break="extra_deal")

    def test_a22_the_default_is_a_draw(self) -> None:
        assert TieBreak.DRAW == Rules().tie_break

    def test_a22_level_after_two_deals_plays_an_extra_deal(self) -> None:
        state = scripted_deal(scripted_deal(new_game(self.EXTRA)))
        assert (Phase.DEAL_OVER, 2) == (state.phase, state.deal)
        assert (-82, -82) == state.scores
        assert outcome(state) is None
        assert 2 == next_dealer(state)
        third = apply(state, Deal(2, FULL_DECK))
        assert (Phase.DRAW, 3, 2, 3) == (third.phase, third.deal, third.dealer, third.to_act)

    def test_a22_the_extra_deal_decides(self) -> None:
        state = scripted_deal(scripted_deal(scripted_deal(new_game(self.EXTRA))))
        assert (Phase.GAME_OVER, 3) == (state.phase, state.deal)
        assert DealScore(3, (LOSE, OUT), 3, DealEnd.WENT_OUT) == state.results[-1]
        assert Outcome((-180, -66), 1) == outcome(state)

    def test_a22_still_level_after_the_extra_deal_is_a_draw(self) -> None:
        """
        A22: the extra deal ends by four passes with empty hands and an empty table: 0-0, still level.
        """
        start = position(rules=self.EXTRA, deal=3, dealer=2, to_act=3, rest_to="pile", results=(LEVEL_1, LEVEL_2))
        state = passed_out(start)
        assert (Phase.GAME_OVER, 3) == (state.phase, state.deal)
        assert (0, 0) == state.results[-1].totals
        assert Outcome((-82, -82), None) == outcome(state)

    def test_a22_no_extra_deal_when_the_teams_are_not_level(self) -> None:
        others = (CLUBS, "Ac Ad Ah As X1 X2 X3", DIAMONDS)
        state = scripted_deal(scripted_deal(new_game(self.EXTRA)), others=others)
        assert (Phase.GAME_OVER, 2) == (state.phase, state.deal)
        assert Outcome((-153, -82), 1) == outcome(state)

    def test_a22_an_unknown_tie_break_is_refused(self) -> None:
        with pytest.raises(ValueError, match="'coin'"):
            Rules(tie_break="coin")


class TestNextDealer:
    """
    A4: "Player to the left of the first dealer" deals the next deal (default); variants
    ``next_dealer="winner"`` (the player who went out; left when nobody did) and ``"same"``.
    """

    def test_a4_the_default_is_left(self) -> None:
        assert NextDealer.LEFT == Rules().next_dealer

    @pytest.mark.parametrize(("rule", "dealer"), [("left", 1), ("winner", 2), ("same", 0)])
    def test_a4_who_deals_after_seat_2_went_out(self, rule: str, dealer: int) -> None:
        state = scripted_deal(new_game(Rules(next_dealer=rule)), out_offset=1)
        assert 2 == state.went_out
        assert dealer == next_dealer(state)
        second = apply(state, Deal(dealer, FULL_DECK))
        assert (2, dealer, (dealer + 1) % 4) == (second.deal, second.dealer, second.to_act)

    @pytest.mark.parametrize(("rule", "wrong"), [("left", 0), ("winner", 1), ("same", 1)])
    def test_a4_any_other_dealer_is_refused(self, rule: str, wrong: int) -> None:
        state = scripted_deal(new_game(Rules(next_dealer=rule)), out_offset=1)
        assert "A4" == illegal(state, Deal(wrong, FULL_DECK)).rule_text

    def test_a4_winner_without_a_winner_falls_back_to_left(self) -> None:
        start = position(rules=Rules(next_dealer="winner"), dealer=2, to_act=3, rest_to="pile")
        state = passed_out(start)
        assert (Phase.DEAL_OVER, None) == (state.phase, state.went_out)
        assert 3 == next_dealer(state)
        assert 0 == apply(state, Deal(3, FULL_DECK)).to_act

    def test_a4_winner_over_two_deals(self) -> None:
        """
        A4 "winner": seat 2 goes out of deal 1 and deals deal 2, whose first player is seat 3.
        """
        state = scripted_deal(new_game(Rules(next_dealer="winner")), out_offset=1)
        state = scripted_deal(state, out_offset=2)
        assert 1 == state.went_out
        assert (Phase.GAME_OVER, 2, 2) == (state.phase, state.deal, state.dealer)

    @pytest.mark.parametrize(("rule", "dealer"), [("left", 3), ("winner", 3), ("same", 2)])
    def test_a4_during_a_deal_next_dealer_names_the_following_dealer(self, rule: str, dealer: int) -> None:
        state = position(rules=Rules(next_dealer=rule), dealer=2, to_act=3)
        assert dealer == next_dealer(state)

    def test_a4_same_dealer_deals_every_deal(self) -> None:
        state = scripted_deal(scripted_deal(new_game(Rules(next_dealer="same"), dealer=3)))
        assert (Phase.GAME_OVER, 3) == (state.phase, state.dealer)
        assert [0, 0] == [result.went_out for result in state.results]


class TestNumDeals:
    """
    R27 variant: ``num_deals`` sets the number of deals in a game (default 2).
    """

    def test_r27_the_default_is_two_deals(self) -> None:
        assert 2 == Rules().num_deals

    def test_r27_one_deal(self) -> None:
        state = scripted_deal(new_game(Rules(num_deals=1)))
        assert (Phase.GAME_OVER, 1) == (state.phase, state.deal)
        assert Outcome((-98, 16), 1) == outcome(state)

    def test_r27_three_deals(self) -> None:
        state = scripted_deal(scripted_deal(new_game(Rules(num_deals=3))))
        assert (Phase.DEAL_OVER, 2, 2) == (state.phase, state.deal, next_dealer(state))
        state = scripted_deal(state)
        assert (Phase.GAME_OVER, 3, 2) == (state.phase, state.deal, state.dealer)
        assert (-180, -66) == state.scores

    def test_r27_a22_one_deal_level_with_an_extra_deal(self) -> None:
        """
        R27 / A22: with one deal and ``extra_deal``, a level first deal is followed by a second.
        """
        rules = Rules(num_deals=1, tie_break="extra_deal")
        state = passed_out(position(rules=rules, rest_to="pile"))
        assert (Phase.DEAL_OVER, (0, 0)) == (state.phase, state.scores)
        second = apply(state, Deal(0, FULL_DECK))
        assert (Phase.DRAW, 2, 1) == (second.phase, second.deal, second.to_act)

    @pytest.mark.parametrize("deals", [0, -1, 101])
    def test_r27_num_deals_range(self, deals: object) -> None:
        with pytest.raises(ValueError, match="num_deals must be between 1 and 100"):
            Rules(num_deals=deals)  # type: ignore[arg-type]

    @pytest.mark.parametrize("deals", [True, 2.0, "2"])
    def test_r27_num_deals_is_an_int(self, deals: object) -> None:
        with pytest.raises(TypeError, match="num_deals must be an int"):
            Rules(num_deals=deals)  # type: ignore[arg-type]


class TestDealAndGameOver:
    """
    R19 / R22 / R27: `is_deal_over` is true between deals and at the end; `is_game_over` only at the end.
    """

    def test_r22_r27_over_in_every_phase(self) -> None:
        start = new_game()
        dealt = apply(start, Deal(0, FULL_DECK))
        drawn = apply(dealt, DrawStock(1))
        between = scripted_deal(start)
        final = scripted_deal(between)
        states = [start, dealt, drawn, between, final]
        assert [Phase.DEAL, Phase.DRAW, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER] == [s.phase for s in states]
        assert [False, False, False, True, True] == [is_deal_over(s) for s in states]
        assert [False, False, False, False, True] == [is_game_over(s) for s in states]

    def test_r22_a_deal_ended_by_passes_is_over(self) -> None:
        state = passed_out(position(rest_to="pile"))
        assert (True, False) == (is_deal_over(state), is_game_over(state))
        assert (DealEnd.PASSES, 4) == (state.results[-1].end, state.passes)


class TestLengthBounds:
    """
    R22 / A17: every deal ends; `max_deal_length` bounds its actions (the `Deal` included) and
    `max_game_length` a whole game's. With ``top_discard_free`` there is no bound (A9).
    """

    @pytest.mark.parametrize(
        ("rules", "bound"),
        [
            (Rules(), 395),
            (Rules(hand_size=10), 371),
            (Rules(hand_size=13), 347),
            (Rules(hand_size=1), 443),
            (Rules(empty_stock_end="first_pass"), 224),
            (Rules(empty_stock_end="immediately"), 224),
            (Rules(num_deals=5), 395),
            (Rules(top_discard_free=True), None),
        ],
    )
    def test_r22_max_deal_length(self, rules: Rules, bound: int | None) -> None:
        assert bound == max_deal_length(rules)

    @pytest.mark.parametrize(
        ("rules", "bound"),
        [
            (Rules(), 790),
            (Rules(num_deals=1), 395),
            (Rules(num_deals=3), 1185),
            (Rules(tie_break="extra_deal"), 1185),
            (Rules(num_deals=1, tie_break="extra_deal"), 790),
            (Rules(hand_size=10), 742),
            (Rules(top_discard_free=True), None),
        ],
    )
    def test_r27_max_game_length(self, rules: Rules, bound: int | None) -> None:
        assert bound == max_game_length(rules)

    @pytest.mark.parametrize("seed", range(6))
    def test_r27_random_games_stay_within_the_bounds(self, seed: int) -> None:
        rng = random.Random(seed)  # noqa: S311
        state = new_game()
        lengths: list[int] = []
        for _ in range(790):
            if is_game_over(state):
                break
            if state.is_chance_node:
                lengths.append(0)
                action: Action = random_deal(state, rng)
            else:
                action = rng.choice(legal_actions(state))
            state = apply(state, action)
            lengths[-1] += 1
        assert Phase.GAME_OVER == state.phase
        assert 2 == len(lengths) == len(state.results)
        assert [True, True] == [length <= 395 for length in lengths]


class TestNotInPersianRummy:
    """
    R29: "500-Rum features that do not apply: [...] jokers wild; ace low (A-2-3) [...]; going out by
    discard; reshuffling the discard pile; 'calling Rummy!' [...]".
    """

    def test_a24_no_rummy_calls_out_of_turn(self) -> None:
        """
        A24: no "Rummy!" calls: a player who could meld the top discard may not take it out of turn.
        """
        state = position(hands=("2c", "", "Qh Qs", ""), pile="Qd", to_act=0)
        error = illegal(state, TakeDiscard(2, "Qd"))
        assert ("it is seat 0's turn, not seat 2's", "R6") == (error.reason, error.rule_text)
        assert all(action.seat == 0 for action in legal_actions(state))

    def test_r29_a_joker_cannot_join_a_natural_set(self) -> None:
        state = position(hands=("X1 Qh Qs 2c", "", "", ""), phase="play")
        for cards in ("X1 Qh Qs", "Qh Qs X1 2c"):
            error = illegal(state, LayDown(0, cards))
            assert "R11" == error.rule_text
        assert [] == [a for a in legal_actions(state) if isinstance(a, LayDown)]

    def test_r29_a_joker_cannot_be_laid_off_on_a_natural_set_or_a_run(self) -> None:
        state = position(hands=("X1 2c", "", "", ""), melds=(meld(1, "Qc Qd Qh"), meld(2, "5h 6h 7h")), phase="play")
        for k in (0, 1):
            error = illegal(state, LayOff(0, k, "X1"))
            assert "R17" == error.rule_text
        assert [Discard(0, "2c"), Discard(0, "X1")] == list(legal_actions(state))

    def test_r29_a_natural_cannot_join_a_joker_set(self) -> None:
        state = position(hands=("Qs 2c", "", "", ""), melds=(meld(1, "X1 X2 X3"),), phase="play")
        assert "R17" == illegal(state, LayOff(0, 0, "Qs")).rule_text

    def test_r29_a_2_3_is_not_a_run(self) -> None:
        state = position(hands=("Ac 2c 3c 9d", "", "", ""), phase="play")
        error = illegal(state, LayDown(0, "Ac 2c 3c"))
        assert ("R9", "2c 3c Ac is not a set or a run") == (error.rule_text, error.reason)
        assert [] == [a for a in legal_actions(state) if isinstance(a, LayDown)]

    def test_r29_no_ace_below_a_2_and_no_wrap_past_the_ace(self) -> None:
        state = position(hands=("Ac 2s 9d", "", "", ""), melds=(meld(1, "2c 3c 4c"), meld(2, "Qs Ks As")), phase="play")
        assert "R17" == illegal(state, LayOff(0, 0, "Ac")).rule_text
        assert "R17" == illegal(state, LayOff(0, 1, "2s")).rule_text

    def test_r29_no_reshuffle_with_an_empty_stock(self) -> None:
        """
        R21 / A18: with an empty stock a player cannot draw; the discard pile is never turned over.
        """
        state = position(hands=("", "9h", "", ""), pile="2c 5d Kh", rest_to=2, to_act=1)
        error = illegal(state, DrawStock(1))
        assert ("R21", "the stock is empty: take from the discard pile or pass") == (error.rule_text, error.reason)
        assert [Pass(1)] == list(legal_actions(state))
        after = play(state, Pass(1), Pass(2), Pass(3))
        assert ((), state.discard_pile) == (after.stock, after.discard_pile)
        assert "R21" == illegal(after, DrawStock(0)).rule_text

    def test_r29_discarding_the_last_card_does_not_go_out(self) -> None:
        """
        R29 / R20: no going out by discard in Persian Rummy (unless ``go_out_by_discard``).
        """
        state = position(hands=("9d", "", "", ""), phase="play")
        after = apply(state, Discard(0, "9d"))
        assert (Phase.DRAW, 1, CardSet(), ()) == (after.phase, after.to_act, after.hands[0], after.results)

    @pytest.mark.parametrize("switch", ["target_score", "minimum_meld"])
    def test_r29_the_rules_offer_no_such_switch(self, switch: str) -> None:
        with pytest.raises(TypeError, match=switch):
            Rules(**{switch: True})  # type: ignore[arg-type]

    def test_r29_the_rules_page_names_the_variants(self) -> None:
        """
        R29: the rules page names the features it offers as variants, each an on/off switch.
        """
        assert R29_VARIANTS
        assert set(R29_VARIANTS) <= set(switches.BOOLEANS)

    @pytest.mark.parametrize("switch", R29_VARIANTS)
    def test_r29_its_variants_are_off_by_default(self, switch: str) -> None:
        """
        R29: "ace low (A-2-3) [...]; reshuffling the discard pile" are not Persian Rummy unless
        enabled as a variant (A8, A18); nor are calls of "Rummy!" (A24), wild jokers (A7), going
        out by discarding (A15) and melding before a pass (A16): every switch that R29 on the rules
        page offers as a variant.
        """
        assert False is getattr(Rules(), switch)
        changes: dict[str, Any] = {switch: True}
        assert True is getattr(Rules(**changes), switch)
