"""
Melding in a turn: the meld types as they are laid down (R9-R12), laying down melds (R16), laying off (R17,
A7) and who is credited with a laid-off card (A14, R26).

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
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.positions import meld, play, position, rejection
from tests.turn_positions import LAYOFF_MELDS, MELDS, hand_of, layoff_position, standard


class TestMeldTypes:
    """
    R9: "Sets and runs only". R10: "3 or 4 cards of the same rank". R12: "3 or more consecutive cards of one
    suit".

    R11: "Jokers may be melded only in a set and never in a run [...] a Joker-set consists only of Jokers
    (3 or 4 Jokers) and a natural set may not contain a Joker."
    """

    @pytest.mark.parametrize(
        ("cards", "rule"),
        [("7c 7d 9h", "R9"), ("9h Jh Qh", "R9"), ("7h 9h Th", "R9"), ("7c 7d X1", "R11")],
    )
    def test_r9_r11_lay_down_must_be_a_set_or_run(self, cards: str, rule: str) -> None:
        """
        R9, R11: only sets and runs may be laid down; a joker never joins naturals.
        """
        state = position(hands=("7c 7d 7h 9h Th Jh Qh X1", "", "", ""), phase="play")
        error = rejection(state, LayDown(0, cards))
        assert f"{LayDown(0, cards).cards} is not a set or a run" == error.reason
        assert rule == error.rule_text

    def test_r9_a_meld_has_three_or_more_cards(self) -> None:
        """
        R9, R10, R12: a meld has at least three cards.
        """
        state = position(hands=("7c 7d 7h 9h Th Jh Qh X1", "", "", ""), phase="play")
        error = rejection(state, LayDown(0, "7c 7d"))
        assert ("a meld needs three or more cards, not 2", "R9") == (error.reason, error.rule_text)


class TestMelding:
    """
    R16: "After drawing, a player may lay any number of valid melds from hand [...]. There is no minimum
    initial meld [...]."
    """

    def test_r16_any_number_of_melds_in_one_turn(self) -> None:
        """
        R16: three melds in one turn; the last one empties the hand (R19).
        """
        state = play(
            standard(),
            TakeDiscard(0, "8d"),
            LayDown(0, "8d 9d Td"),
            LayDown(0, "Qd Qh Qs"),
            LayDown(0, "3h 4h 5h"),
        )
        assert (*MELDS, meld(0, "8d 9d Td"), meld(0, "Qd Qh Qs"), meld(0, "3h 4h 5h")) == state.melds
        assert Phase.DEAL_OVER == state.phase
        assert 0 == state.went_out

    def test_r16_no_minimum_first_meld(self) -> None:
        """
        R16: the first meld of the deal may be worth as little as 2c 3c 4c (9 points).
        """
        state = play(standard(), DrawStock(0), Discard(0, "As"), DrawStock(1))
        assert LayDown(1, "2c 3c 4c") in legal_actions(state)
        after = apply(state, LayDown(1, "2c 3c 4c"))
        assert (*MELDS, meld(1, "2c 3c 4c")) == after.melds
        assert "5c 2d Kd 9s Js" == hand_of(after, 1)

    def test_r16_no_meld_at_all_is_fine(self) -> None:
        """
        R16, R13: melding is optional: draw and discard at once.
        """
        state = play(standard(), DrawStock(0), Discard(0, "As"))
        assert (Phase.DRAW, 1) == (state.phase, state.to_act)
        assert state.melds == MELDS

    def test_r16_four_of_a_kind_and_long_runs_in_one_action(self) -> None:
        """
        R16, R10, R12: a set of four and a run of five are laid down in one action each.
        """
        state = position(hands=("7c 7d 7h 7s 9h Th Jh Qh Kh 2c", "", "", ""), phase="play")
        after = play(state, LayDown(0, "7c 7d 7h 7s"), LayDown(0, "9h Th Jh Qh Kh"))
        assert (meld(0, "7c 7d 7h 7s"), meld(0, "9h Th Jh Qh Kh")) == after.melds
        assert after.melds[0].four_at_once
        assert "2c" == hand_of(after, 0)


class TestLayingOff:
    """
    R17: "After drawing, a player may add one or more cards to any player's melds [...]: a 4th card to a
    3-set, a 4th Joker to a 3-Joker set, or cards extending a run at either end [...]. A laid-off card extends
    the logical meld, so later cards may be laid off beyond it [...]."
    """

    def test_r17_legal_lay_offs_in_order(self) -> None:
        """
        R17: every lay-off onto every meld, by meld; a run's low end before its high end; then the discards.
        """
        expected = (
            LayOff(0, 0, "Kh"),
            LayOff(0, 1, "6s"),
            LayOff(0, 1, "5s 6s"),
            LayOff(0, 1, "Ts"),
            LayOff(0, 2, "X4"),
            LayOff(0, 3, "3h"),
            LayOff(0, 3, "2h 3h"),
            LayOff(0, 3, "8h"),
            Discard(0, "Jd"),
            Discard(0, "2h"),
            Discard(0, "3h"),
            Discard(0, "8h"),
            Discard(0, "Kh"),
            Discard(0, "5s"),
            Discard(0, "6s"),
            Discard(0, "Ts"),
            Discard(0, "X4"),
        )
        assert expected == legal_actions(layoff_position())

    def test_r17_fourth_card_onto_own_set(self) -> None:
        """
        R17: the 4th natural onto one's own set; it is recorded as laid off by seat 0, not laid down.
        """
        after = apply(layoff_position(), LayOff(0, 0, "Kh"))
        assert meld(0, "Kc Kd Ks", s0="Kh") == after.melds[0]
        assert "Kc Kd Kh Ks" == str(after.melds[0].cards)
        assert not after.melds[0].four_at_once
        assert "Jd 2h 3h 8h 5s 6s Ts X4" == hand_of(after, 0)

    def test_r17_extend_beyond_a_laid_off_card(self) -> None:
        """
        R17: 8h goes onto 4h-6h beyond the 7h that seat 1 laid off; contributions stay per seat.
        """
        after = apply(layoff_position(), LayOff(0, 3, "8h"))
        changed = after.melds[3]
        assert meld(3, "4h 5h 6h", s1="7h", s0="8h") == changed
        assert "4h 5h 6h 7h 8h" == str(changed.cards)
        assert ("8h", "7h", "", "4h 5h 6h") == tuple(str(part) for part in changed.contributions)

    def test_r17_both_run_ends_take_two_actions(self) -> None:
        """
        R17, A11: 2h 3h at the low end and 8h at the high end cannot go in one action; two actions are fine.
        """
        state = layoff_position()
        error = rejection(state, LayOff(0, 3, "2h 3h 8h"))
        assert "2h 3h 8h does not extend the run 4h 5h 6h 7h" == error.reason
        assert "R17" == error.rule_text
        after = play(state, LayOff(0, 3, "2h 3h"), LayOff(0, 3, "8h"))
        assert meld(3, "4h 5h 6h", s1="7h", s0="2h 3h 8h") == after.melds[3]
        assert "2h 3h 4h 5h 6h 7h 8h" == str(after.melds[3].cards)


class TestLayOffMustExtendTheMeld:
    """
    R17: a lay-off is "a 4th card to a 3-set, a 4th Joker to a 3-Joker set, or cards extending a run at
    either end".

    A7: "Natural sets contain no Joker; Joker sets contain only Jokers (3–4). A Joker may be laid off only
    onto a 3-Joker set."
    """

    @pytest.mark.parametrize(
        ("index", "cards", "meld_text"),
        [
            (1, "5s", "run 7s 8s 9s"),
            (1, "5s Ts", "run 7s 8s 9s"),
            (3, "2h", "run 4h 5h 6h 7h"),
            (0, "X4", "set Kc Kd Ks"),
            (2, "Kh", "set X1 X2 X3"),
            (0, "Jd", "set Kc Kd Ks"),
            (1, "8h", "run 7s 8s 9s"),
        ],
    )
    def test_r17_a7_lay_off_must_extend_the_meld(self, index: int, cards: str, meld_text: str) -> None:
        """
        R17, A7: a lay-off must be the 4th card of a set (jokers onto jokers only) or extend a run without a gap.
        """
        error = rejection(layoff_position(), LayOff(0, index, cards))
        assert f"{LayOff(0, index, cards).cards} does not extend the {meld_text}" == error.reason
        assert "R17" == error.rule_text


class TestLayOffCredit:
    """
    R17: "On an opposing team's meld the player announces the meld and keeps the card in front of themselves
    [...] — it scores for the player's own team [...]."

    A14: "Laying off on opponents' melds: who scores?" Default: "Credit to the laying player's team; meld
    ownership for validity is unchanged (the run/set is extended logically)."

    R26: "A laid-off card scores for the team of the player who laid it off, whoever owns the meld [...]."
    """

    def test_r17_a14_several_cards_onto_partners_run(self) -> None:
        """
        R17, A11: 6s and 5s go onto the partner's 7s 8s 9s in one action, credited to seat 0.
        """
        after = apply(layoff_position(), LayOff(0, 1, "6s 5s"))
        changed = after.melds[1]
        assert meld(2, "7s 8s 9s", s0="5s 6s") == changed
        assert "5s 6s 7s 8s 9s" == str(changed.cards)
        assert ("5s 6s", "", "7s 8s 9s", "") == tuple(str(part) for part in changed.contributions)
        assert LAYOFF_MELDS[0] == after.melds[0]
        assert LAYOFF_MELDS[2:] == after.melds[2:]

    def test_r17_fourth_joker_onto_opponents_joker_set(self) -> None:
        """
        R17, A14: the 4th joker onto the opponents' three jokers; the meld stays seat 1's, the joker is seat 0's.
        """
        after = apply(layoff_position(), LayOff(0, 2, "X4"))
        changed = after.melds[2]
        assert meld(1, "X1 X2 X3", s0="X4") == changed
        assert 1 == changed.owner
        assert 0 == changed.contributor(Card.parse("X4"))
        assert 1 == changed.contributor(Card.parse("X1"))

    def test_r17_a14_lay_off_onto_opponents_meld_is_credited_to_the_layer(self) -> None:
        """
        R17, A14, R26: laying off onto an opponent's meld records the card under the laying seat, which scores it.
        """
        state = position(
            hands=("Kh", "2c 3c", "Ah", "2d"), melds=(meld(1, "Kc Kd Ks"),), pile="4c", phase="play", dealer=3
        )
        after = apply(state, LayOff(0, 0, "Kh"))
        assert (meld(1, "Kc Kd Ks", s0="Kh"),) == after.melds
        # W12: the laid-down kings score 30 for seat 1's team, the king laid off 10 for seat 0's team.
        assert 10 == after.results[0].teams[0].melded
        assert 30 == after.results[0].teams[1].melded
