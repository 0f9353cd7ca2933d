"""
Scoring (R23-R26, A19-A21, A23) and every worked example of the rules document (W1-W16).

The static examples score a table with `score_deal`; W12, W14, W15 and W16 are also played
through `apply` from a hand-made position, so that the engine's own end-of-deal scoring
(``state.results[-1]``) is checked.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

from collections.abc import Iterable

import attrs
import pytest

from persian_rummy import (
    Action,
    Card,
    CardSet,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Outcome,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    apply,
    outcome,
    score_deal,
)
from persian_rummy.scoring import DealEnd, TeamScore, team_of
from tests.positions import meld, position

NO_HANDS = (CardSet(), CardSet(), CardSet(), CardSet())


def hands(*texts: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts = [CardSet.parse(text) for text in texts]
    return (parts[0], parts[1], parts[2], parts[3])


def score(melds: Iterable[TableMeld], *, rules: Rules | None = None) -> DealScore:
    """
    A deal that ended by passes with empty hands: only the table counts.
    """
    return score_deal(NO_HANDS, tuple(melds), None, rules=rules or Rules())


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


# The W14 result: deal 1 of the W16 game.
W14 = DealScore(1, (TeamScore(125, 0, 25, 22), TeamScore(59, 40, 0, 42)), 0, DealEnd.WENT_OUT)


class TestWorkedExamples:
    """
    W1-W13: the scoring examples of the rules document, with its exact numbers.
    """

    @pytest.mark.parametrize("fourth_by", ["s0", "s2"])
    def test_w1_three_jacks_and_a_fourth_laid_off_later(self, fourth_by: str) -> None:
        """
        W1 / R25: "J♠ J♥ J♦ melded (30); fourth Jack laid off later by the same team" = 40.
        """
        result = score([meld(0, "Js Jh Jd", **{fourth_by: "Jc"})])
        assert TeamScore(40, 0, 0, 0) == result.teams[0]
        assert 40 == result.teams[0].total

    def test_w2_four_jacks_in_one_action(self) -> None:
        """
        W2 / R25: "J♠ J♥ J♦ J♣ melded in one action" = 80.
        """
        result = score([meld(0, "Js Jh Jd Jc")])
        assert TeamScore(40, 40, 0, 0) == result.teams[0]
        assert 80 == result.teams[0].total

    def test_w3_four_jokers_in_one_action(self) -> None:
        """
        W3 / R25: "Four Jokers melded in one action" = 160.
        """
        result = score([meld(2, "X1 X2 X3 X4")])
        assert TeamScore(80, 80, 0, 0) == result.teams[0]
        assert 160 == result.teams[0].total

    @pytest.mark.parametrize("fourth_by", ["s0", "s2"])
    def test_w4_three_jokers_and_a_fourth_later_by_the_same_team(self, fourth_by: str) -> None:
        """
        W4 / R25: "Three Jokers melded; fourth Joker laid off later by the same team" = 60 + 20 = 80.
        """
        result = score([meld(0, "X1 X2 X3", **{fourth_by: "X4"})])
        assert TeamScore(80, 0, 0, 0) == result.teams[0]
        assert (80, 0) == result.totals

    def test_w5_three_jokers_and_the_fourth_laid_off_by_an_opponent(self) -> None:
        """
        W5 / R26: "Three Jokers melded by N (NS); fourth Joker laid off by E (EW)": NS 60, EW 20.
        """
        result = score([meld(0, "X1 X2 X3", s1="X4")])
        assert (TeamScore(60, 0, 0, 0), TeamScore(20, 0, 0, 0)) == result.teams
        assert (60, 20) == result.totals

    def test_w6_four_aces_at_once_and_three_aces_plus_one(self) -> None:
        """
        W6 / R25: "Four Aces at once / three Aces + fourth later" = 120 / 60.
        """
        assert (120, 0) == score([meld(0, "Ac Ad Ah As")]).totals
        assert (60, 0) == score([meld(0, "Ac Ad Ah", s0="As")]).totals

    def test_w7_four_tens_at_once(self) -> None:
        """
        W7 / R25 / A19: "Four 10s at once" = 80 (10 = 10).
        """
        result = score([meld(3, "Tc Td Th Ts")])
        assert TeamScore(40, 40, 0, 0) == result.teams[1]
        assert (0, 80) == result.totals

    def test_w8_fours_of_twos_and_fours(self) -> None:
        """
        W8 / R25: "Four 2s at once; 4♠4♦4♥ + 4♣ later; four 4s at once" = 16; 16; 32.
        """
        assert (16, 0) == score([meld(0, "2c 2d 2h 2s")]).totals
        assert (16, 0) == score([meld(0, "4s 4d 4h", s2="4c")]).totals
        assert (32, 0) == score([meld(0, "4c 4d 4h 4s")]).totals

    def test_w9_a_four_card_run_is_not_doubled(self) -> None:
        """
        W9 / A20: "Run J♠ Q♠ K♠ A♠ melded at once (4-card run is not doubled)" = 10+10+10+15 = 45.
        """
        result = score([meld(0, "Js Qs Ks As")])
        assert TeamScore(45, 0, 0, 0) == result.teams[0]
        assert 45 == result.teams[0].total

    def test_w10_run_ten_to_ace(self) -> None:
        """
        W10 / R23: "Run 10♥ J♥ Q♥ K♥ A♥" = 55.
        """
        assert (0, 55) == score([meld(1, "Th Jh Qh Kh Ah")]).totals

    def test_w11_run_two_three_four(self) -> None:
        """
        W11 / R23: "Run 2♣ 3♣ 4♣" = 9.
        """
        assert (9, 0) == score([meld(2, "2c 3c 4c")]).totals

    def test_w12_king_laid_off_on_the_opponents_set(self) -> None:
        """
        W12 / R26 / A14: "N melds K♣ K♦ K♠; E lays off K♥ on it": NS 30, EW 10, no doubling.
        """
        kings = meld(0, "Kc Kd Ks", s1="Kh")
        result = score([kings])
        assert (TeamScore(30, 0, 0, 0), TeamScore(10, 0, 0, 0)) == result.teams
        assert 1 == kings.contributor(Card.parse("Kh"))

    def test_w13_hand_left_at_the_end(self) -> None:
        """
        W13 / R24: "Hand left at round end: Joker, A♠, 10♦, 5♣" = penalty −50.
        """
        result = score_deal(hands("X1 As Td 5c", "", "", ""), (), None)
        assert TeamScore(0, 0, 0, 50) == result.teams[0]
        assert (-50, 0) == result.totals


class TestW14CompleteRound:
    """
    W14: a complete round. N goes out; NS = (30+18+60+8+9) − 22 + 25 = 128; EW = (80+10+9) − (20+22) = 57.
    """

    MELDS = (
        meld(0, "Kc Kd Ks", s1="Kh"),
        meld(0, "5h 6h 7h", s2="8h", s0="9h"),
        meld(2, "X1 X2 X3"),
        meld(3, "2d 3d 4d"),
        meld(1, "Qc Qd Qh Qs"),
    )
    HANDS = ("", "X4", "Ac 7s", "Tc 9s 3h")

    def test_w14_complete_round(self) -> None:
        """
        W14 / R24 / R25 / R26: the final table scored with `score_deal`.
        """
        result = score_deal(hands(*self.HANDS), self.MELDS, 0)
        assert W14 == result
        assert (128, 57) == result.totals

    def test_w14_complete_round_played(self) -> None:
        """
        W14: the last turns of the round played through `apply`, from a position where E has yet to lay
        down the queens. N, who discarded its last card earlier (R20), draws 9♥ and goes out (R19).
        """
        start = position(
            hands=("", "Qc Qd Qh Qs Kh X4", "8h Ac 7s", "Tc 9s 3h"),
            melds=(meld(0, "Kc Kd Ks"), meld(0, "5h 6h 7h"), meld(2, "X1 X2 X3"), meld(3, "2d 3d 4d")),
            stock="5s 6s Jd 9h",
            to_act=1,
        )
        end = play(
            start,
            DrawStock(1),
            LayDown(1, "Qc Qd Qh Qs"),
            LayOff(1, 0, "Kh"),
            Discard(1, "5s"),
            DrawStock(2),
            LayOff(2, 1, "8h"),
            Discard(2, "6s"),
            DrawStock(3),
            Discard(3, "Jd"),
            DrawStock(0),
            LayOff(0, 1, "9h"),
        )
        assert Phase.DEAL_OVER == end.phase
        assert 0 == end.went_out
        assert (W14,) == end.results
        assert (128, 57) == end.results[-1].totals
        assert (128, 57) == end.scores
        assert self.MELDS == end.melds
        assert hands(*self.HANDS) == end.hands


class TestW15RoundEndedByPasses:
    """
    W15 / A17 / A23: "NS melded 46, NS hands 13 → +33; EW melded 31, EW hands 40 → −9; no 25 bonus to anyone."
    """

    MELDS = (
        meld(0, "Ts Js Qs", s2="Ks"),
        meld(2, "2c 2d 2h"),
        meld(1, "3c 3d 3h"),
        meld(3, "4h 5h 6h", s1="7h"),
    )
    HANDS = ("9c 4c", "Kd Kc", "", "X1")
    EXPECTED = DealScore(1, (TeamScore(46, 0, 0, 13), TeamScore(31, 0, 0, 40)), None, DealEnd.PASSES)

    def test_w15_round_ended_by_passes(self) -> None:
        result = score_deal(hands(*self.HANDS), self.MELDS, None)
        assert self.EXPECTED == result
        assert (33, -9) == result.totals

    def test_w15_round_ended_by_passes_played(self) -> None:
        """
        W15: W draws the last stock card and discards it; then all four pass (R21, R22, A17).
        """
        start = position(
            hands=self.HANDS,
            melds=self.MELDS,
            stock="8c",
            rest_to="pile",
            to_act=3,
        )
        end = play(start, DrawStock(3), Discard(3, "8c"), Pass(0), Pass(1), Pass(2))
        assert Phase.DRAW == end.phase
        assert 3 == end.passes
        end = apply(end, Pass(3))
        assert Phase.DEAL_OVER == end.phase
        assert end.went_out is None
        assert (self.EXPECTED,) == end.results
        assert (33, -9) == end.scores


class TestW12Played:
    """
    W12 / R17 / R26: the K♥ laid off by E on N's kings stays in front of E and scores for EW.
    """

    def test_w12_king_laid_off_on_the_opponents_set_played(self) -> None:
        start = position(hands=("Kc Kd Ks 2c", "Kh", "", ""), stock="3d", rest_to="pile", phase="play", to_act=0)
        end = play(
            start,
            LayDown(0, "Kc Kd Ks"),
            Discard(0, "2c"),
            DrawStock(1),
            LayOff(1, 0, "Kh"),
            Discard(1, "3d"),
            Pass(2),
            Pass(3),
            Pass(0),
            Pass(1),
        )
        assert (meld(0, "Kc Kd Ks", s1="Kh"),) == end.melds
        expected = DealScore(1, (TeamScore(30, 0, 0, 0), TeamScore(10, 0, 0, 0)), None, DealEnd.PASSES)
        assert (expected,) == end.results
        assert (30, 10) == end.scores


class TestW16GameResult:
    """
    W16 / R28: "Deal 1: NS 128, EW 57. Deal 2: NS −12, EW 95 (EW went out, bonus included). Totals NS 116,
    EW 152 → EW win. If totals were equal (e.g. 150–150) → draw by default."
    """

    DEAL_2 = DealScore(2, (TeamScore(0, 0, 0, 12), TeamScore(70, 0, 25, 0)), 3, DealEnd.WENT_OUT)
    # A final table of deal 2 that scores DEAL_2: E's kings (30), W's jacks (30) with E's J♠ (10); N holds 12.
    MELDS_2 = (meld(1, "Kc Kd Kh"), meld(3, "Jc Jd Jh", s1="Js"))

    def test_w16_game_result(self) -> None:
        final = position(
            hands=("5c 7c", "", "", ""),
            melds=self.MELDS_2,
            phase="game_over",
            to_act=None,
            deal=2,
            dealer=1,
            results=(W14, self.DEAL_2),
            went_out=3,
        )
        assert (116, 152) == final.scores
        assert Outcome((116, 152), 1) == outcome(final)

    def test_w16_game_result_played(self) -> None:
        """
        W16: deal 2 (dealt by seat 1, A4) ends with W laying off 6♦ 7♦ and going out; the game is over.
        """
        start = position(
            hands=("Td", "", "2s", "6d"),
            melds=(meld(1, "Ac Ad Ah"), meld(1, "3d 4d 5d")),
            stock="7d",
            to_act=3,
            dealer=1,
            deal=2,
            results=(W14,),
        )
        end = play(start, DrawStock(3), LayOff(3, 1, "6d 7d"))
        assert Phase.GAME_OVER == end.phase
        assert (W14, self.DEAL_2) == end.results
        assert (-12, 95) == end.results[-1].totals
        assert (116, 152) == end.scores
        result = outcome(end)
        assert Outcome((116, 152), 1) == result
        assert result is not None
        assert result.is_draw is False

    def test_w16_equal_totals_are_a_draw(self) -> None:
        """
        W16 / A22: deal 2 ends NS 22, EW 93: 150–150, a draw by default.
        """
        start = position(
            hands=("6c 2s", "2h", "", "6d"),
            melds=(meld(0, "Jc Jd Jh"), meld(1, "Ac Ad Ah"), meld(1, "3d 4d 5d")),
            stock="7d",
            to_act=3,
            dealer=1,
            deal=2,
            results=(W14,),
        )
        end = play(start, DrawStock(3), LayOff(3, 2, "6d 7d"))
        assert (22, 93) == end.results[-1].totals
        assert Phase.GAME_OVER == end.phase
        assert (150, 150) == end.scores
        result = outcome(end)
        assert Outcome((150, 150), None) == result
        assert result is not None
        assert result.is_draw is True


class TestTeamScore:
    """
    R24: "+ value of all cards its two players melded or laid off − value of all cards left in both
    partners' hands + 25 if one of its players went out". Scores may be negative.
    """

    def test_r24_breakdown_fields_and_total(self) -> None:
        item = TeamScore(melded=59, doubling=40, bonus=25, in_hand=42)
        assert (59, 40, 25, 42) == (item.melded, item.doubling, item.bonus, item.in_hand)
        assert 82 == item.total

    def test_r24_scores_may_be_negative(self) -> None:
        result = score_deal(hands("X1 X2 As", "", "Kd", ""), (meld(0, "2c 3c 4c"),), 1)
        assert TeamScore(9, 0, 0, 65) == result.teams[0]
        assert (-56, 25) == result.totals

    def test_a21_both_partners_hands_count_against_the_team(self) -> None:
        result = score_deal(hands("5c", "Ah", "9d", "X3 2s"), (), None)
        assert (TeamScore(0, 0, 0, 14), TeamScore(0, 0, 0, 37)) == result.teams
        assert (-14, -37) == result.totals

    def test_a15_an_empty_hand_costs_nothing(self) -> None:
        result = score_deal(NO_HANDS, (), None)
        assert (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)) == result.teams

    @pytest.mark.parametrize("seat", [0, 1, 2, 3])
    def test_r24_the_bonus_goes_to_the_team_of_the_player_who_went_out(self, seat: int) -> None:
        result = score_deal(NO_HANDS, (), seat)
        bonuses = [0, 0]
        bonuses[team_of(seat)] = 25
        assert bonuses == [result.teams[0].bonus, result.teams[1].bonus]
        assert (seat, DealEnd.WENT_OUT) == (result.went_out, result.end)

    def test_r24_go_out_bonus_variant(self) -> None:
        result = score_deal(NO_HANDS, (), 2, rules=Rules(go_out_bonus=50))
        assert (50, 0) == result.totals

    def test_r24_melded_counts_every_meld_of_both_partners(self) -> None:
        result = score([meld(0, "2c 3c 4c"), meld(2, "9h 9d 9s"), meld(1, "Jc Jd Jh"), meld(3, "5s 6s 7s", s0="8s")])
        assert (TeamScore(9 + 27 + 8, 0, 0, 0), TeamScore(30 + 18, 0, 0, 0)) == result.teams


class TestDoubling:
    """
    R25 / A20: "Any set of four melded together in one laydown is worth double"; sets only (4-card runs
    with `double_four_card_runs`), never sets completed by a lay-off. The doubling goes to the team of
    the seat that laid the set down.
    """

    def test_r25_the_doubling_goes_to_the_team_that_laid_the_set_down(self) -> None:
        result = score([meld(1, "Qc Qd Qh Qs"), meld(2, "5c 5d 5h 5s")])
        assert (TeamScore(20, 20, 0, 0), TeamScore(40, 40, 0, 0)) == result.teams

    def test_r25_a_four_card_set_laid_off_to_by_an_opponent_is_not_doubled(self) -> None:
        result = score([meld(1, "Qc Qd Qh", s0="Qs")])
        assert (TeamScore(10, 0, 0, 0), TeamScore(30, 0, 0, 0)) == result.teams

    def test_r25_every_rank_doubles(self) -> None:
        quads = [meld(0, " ".join(f"{r}{s}" for s in "cdhs")) for r in "23456789TJQKA"]
        result = score([*quads, meld(2, "X1 X2 X3 X4")])
        assert TeamScore(476, 476, 0, 0) == result.teams[0]

    def test_r25_double_four_of_a_kind_off(self) -> None:
        result = score([meld(0, "Js Jh Jd Jc")], rules=Rules(double_four_of_a_kind=False))
        assert TeamScore(40, 0, 0, 0) == result.teams[0]

    def test_a20_double_four_card_runs_variant(self) -> None:
        """
        A20 variant: W9's run of exactly four laid down at once doubles (45 → 90).
        """
        rules = Rules(double_four_card_runs=True)
        assert TeamScore(45, 45, 0, 0) == score([meld(0, "Js Qs Ks As")], rules=rules).teams[0]

    def test_a20_double_four_card_runs_later_lay_offs_score_singly(self) -> None:
        rules = Rules(double_four_card_runs=True)
        result = score([meld(0, "9s Ts Js Qs", s0="Ks", s1="8s")], rules=rules)
        assert (TeamScore(49, 39, 0, 0), TeamScore(8, 0, 0, 0)) == result.teams

    def test_a20_double_four_card_runs_not_for_longer_or_shorter_runs(self) -> None:
        rules = Rules(double_four_card_runs=True)
        result = score([meld(0, "Th Jh Qh Kh Ah"), meld(2, "2c 3c 4c", s2="5c")], rules=rules)
        assert TeamScore(55 + 14, 0, 0, 0) == result.teams[0]

    def test_a20_sets_still_double_with_the_run_variant(self) -> None:
        rules = Rules(double_four_card_runs=True)
        assert (80, 0) == score([meld(0, "Js Jh Jd Jc")], rules=rules).totals

    def test_a20_three_from_hand_and_one_from_the_pile_in_one_meld_double(self) -> None:
        """
        A20: "3 from hand + 1 taken from the pile in the same meld counts" as four in one laydown.
        """
        start = position(hands=("Qc Qd Qh", "", "", ""), pile="Qs", to_act=0)
        end = play(start, TakeDiscard(0, "Qs"), LayDown(0, "Qc Qd Qh Qs"))
        assert 0 == end.went_out
        assert TeamScore(40, 40, 25, 0) == end.results[-1].teams[0]
        assert (105, 0) == end.results[-1].totals

    def test_a20_completing_a_set_by_a_lay_off_in_the_same_turn_does_not_double(self) -> None:
        """
        A20: "never sets completed by a lay-off — even by the same player in the same turn".
        """
        start = position(hands=("Qc Qd Qh", "", "", ""), pile="Qs", to_act=0)
        end = play(start, TakeDiscard(0, "Qs"), LayDown(0, "Qd Qh Qs"), LayOff(0, 0, "Qc"))
        assert (meld(0, "Qd Qh Qs", s0="Qc"),) == end.melds
        assert TeamScore(40, 0, 25, 0) == end.results[-1].teams[0]
        assert (65, 0) == end.results[-1].totals


class TestDealScore:
    """
    R24 / A23: a deal's result records its number, each team's score, who went out and how it ended.
    """

    def test_r24_totals(self) -> None:
        assert (128, 57) == W14.totals
        assert (W14.teams[0].total, W14.teams[1].total) == W14.totals

    def test_r24_score_deal_records_the_deal_number(self) -> None:
        assert 2 == score_deal(NO_HANDS, (), None, deal=2).deal

    def test_a23_the_end_defaults_to_passes_without_a_player_out(self) -> None:
        result = score_deal(NO_HANDS, (), None)
        assert (None, DealEnd.PASSES) == (result.went_out, result.end)

    def test_a23_an_explicit_end(self) -> None:
        result = score_deal(NO_HANDS, (), None, end=DealEnd.STOCK_EMPTY)
        assert DealEnd.STOCK_EMPTY == result.end

    def test_a23_no_bonus_when_the_stock_runs_out(self) -> None:
        """
        A17 "immediately" / A23: the deal ends after the turn that emptied the stock; nobody gets 25.
        """
        rules = Rules(empty_stock_end="immediately")
        start = position(hands=("5c", "X1", "", ""), stock="9d", rest_to="pile", to_act=0, rules=rules)
        end = play(start, DrawStock(0), Discard(0, "9d"))
        expected = DealScore(1, (TeamScore(0, 0, 0, 5), TeamScore(0, 0, 0, 20)), None, DealEnd.STOCK_EMPTY)
        assert (expected,) == end.results
        assert (-5, -20) == end.scores

    def test_a23_the_end_values(self) -> None:
        assert ["went_out", "passes", "stock_empty"] == [end.value for end in DealEnd]

    def test_r24_gamestate_scores_add_up_the_finished_deals(self) -> None:
        second = attrs.evolve(W14, deal=2)
        state = position(
            hands=TestW14CompleteRound.HANDS,
            melds=TestW14CompleteRound.MELDS,
            phase="game_over",
            to_act=None,
            deal=2,
            dealer=1,
            results=(W14, second),
            went_out=0,
        )
        assert (256, 114) == state.scores

    def test_r24_gamestate_scores_before_any_result(self) -> None:
        assert (0, 0) == position(hands=("", "", "", "")).scores
