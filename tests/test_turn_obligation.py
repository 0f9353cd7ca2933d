"""
The obligation to play the card taken from the discard pile (R15): which takes are legal (A9, A10, A12),
what "immediately" means (A11), and the cards taken above the target (A13).

The positions are described in `tests.turn_positions`.
"""

from __future__ import annotations

import pytest

from persian_rummy import (
    Card,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    TableMeld,
    TakeDiscard,
    apply,
    is_legal,
    legal_actions,
)
from tests.positions import meld, play, position, rejection
from tests.turn_positions import HANDS, MELDS, hand_of, pile_of, standard

#: (hand of seat 0, discard pile, melds on the table, card named, whether the take is legal).
USABILITY = {
    "R15-top-card-set-with-two-hand-cards": ("Qh Qs 2c", "Qd", (), "Qd", True),
    "A9-top-card-with-one-card-of-its-rank": ("Qh 2c", "Qd", (), "Qd", False),
    "R15-run-below": ("3h 4h 2c", "5h", (), "5h", True),
    "R15-run-around": ("4h 6h 2c", "5h", (), "5h", True),
    "R15-run-above": ("6h 7h 2c", "5h", (), "5h", True),
    "R15-run-gap": ("3h 7h 2c", "5h", (), "5h", False),
    "R15-run-wrong-suit": ("4d 6d 2c", "5h", (), "5h", False),
    "R12-ace-high": ("Qh Kh 2c", "Ah", (), "Ah", True),
    "R12-ace-not-low": ("2h 3h 2c", "Ah", (), "Ah", False),
    "A6-joker-with-two-jokers": ("X1 X2 2c", "X3", (), "X3", True),
    "A6-joker-with-one-joker": ("X1 2c", "X3", (), "X3", False),
    "A7-joker-not-with-naturals": ("X1 Qh Qs", "X3", (), "X3", False),
    "A10-meld-from-cards-taken-with-it": ("2c", "9s Js Ts", (), "9s", True),
    "A10-hand-card-and-taken-card": ("Qh 2c", "Qd 2d Qc", (), "Qd", True),
    "A10-card-below-is-not-taken": ("Ts 2c", "Js 4c 9s", (), "9s", False),
    "A10-deeper-target-takes-the-helper": ("Ts 2c", "Js 4c 9s", (), "Js", True),
    "A10-lay-off-on-own-meld": ("2c", "Ts", (meld(0, "7s 8s 9s"),), "Ts", True),
    "A10-lay-off-on-partners-meld": ("2c", "Kh", (meld(2, "Kc Kd Ks"),), "Kh", True),
    "A10-lay-off-on-opponents-meld": ("2c", "X4", (meld(1, "X1 X2 X3"),), "X4", True),
    "A10-lay-off-at-the-low-end": ("2c", "6s", (meld(3, "7s 8s 9s"),), "6s", True),
    "A11-lay-off-chain-through-hand": ("6s 2c", "5s", (meld(1, "7s 8s 9s"),), "5s", True),
    "A11-lay-off-chain-with-a-gap": ("5s 2c", "4s", (meld(1, "7s 8s 9s"),), "4s", False),
    "A11-lay-off-chain-through-taken-card": ("2c", "5s 6s", (meld(1, "7s 8s 9s"),), "5s", True),
    "A11-lay-off-chain-high-end": ("Ts 2c", "Js", (meld(1, "7s 8s 9s"),), "Js", True),
    "A11-chain-card-below-is-not-taken": ("2c", "6s 5s", (meld(1, "7s 8s 9s"),), "5s", False),
    "R17-lay-off-beyond-a-laid-off-card": ("2c", "Js", (meld(1, "7s 8s 9s", s2="Ts"),), "Js", True),
    "R12-no-wrap-onto-ace-high-run": ("2c", "2s", (meld(1, "Qs Ks As"),), "2s", False),
    "A7-joker-not-onto-a-natural-set": ("2c", "X1", (meld(1, "Kc Kd Ks"),), "X1", False),
    "A7-natural-not-onto-a-joker-set": ("2c", "Kh", (meld(1, "X1 X2 X3"),), "Kh", False),
}


def usability_position(hand: str, pile: str, melds: tuple[TableMeld, ...]) -> GameState:
    """
    Seat 0 to draw with *hand*; every other card is in the stock.
    """
    return position(hands=(hand, "", "", ""), pile=pile, melds=melds)


class TestOnlyAPlayableCardMayBeTaken:
    """
    R15: "The target card [...] must be played in a meld immediately [...]. It may be used either in a new
    meld or by laying it off on a meld already on the table [...]. A draw whose target cannot be used is
    illegal."

    A12: "Reject the draw at draw time with an error, state unchanged. Legality test: target can form a valid
    meld with cards from (hand ∪ cards taken with it), or can be laid off on an existing table meld, alone or
    together with hand cards that extend the same run (A11)."

    The table `USABILITY` tries one take per row; each row's id names the rule it illustrates.
    """

    @pytest.mark.parametrize(
        ("hand", "pile", "melds", "target", "usable"), list(USABILITY.values()), ids=list(USABILITY)
    )
    def test_r15_a12_take_only_a_card_that_can_be_played(
        self, hand: str, pile: str, melds: tuple[TableMeld, ...], target: str, usable: bool
    ) -> None:
        """
        R15, A9, A10, A12: a take is legal exactly when the card named can go into a new meld (with hand
        cards or cards taken with it) or onto a table meld, possibly with hand cards extending the run.
        """
        state = usability_position(hand, pile, melds)
        action = TakeDiscard(0, target)
        assert usable == (action in legal_actions(state))
        assert usable == is_legal(state, action)
        if usable:
            after = apply(state, action)
            assert Card.parse(target) == after.obligation
            choices = legal_actions(after)
            assert choices != ()
            assert all(isinstance(choice, LayDown | LayOff) for choice in choices)
            assert all(Card.parse(target) in choice.cards for choice in choices if isinstance(choice, LayDown | LayOff))
        else:
            error = rejection(state, action)
            assert f"{target} cannot be melded or laid off at once, so it may not be taken" == error.reason
            assert "R15, A12" == error.rule_text


class TestTheTopCardToo:
    """
    R15: "The target card — including when only the top card is taken — must be played in a meld
    immediately [...]."

    A9: "Does taking only the top discard carry the obligation?" Default: "Obligation applies to the top card
    too."
    """

    def test_r15_unusable_top_card_is_not_offered(self) -> None:
        """
        R15, A9: the top card carries the obligation too: Kc under nothing usable is not a legal take.
        """
        state = position(hands=HANDS, melds=MELDS, pile="6h 8d Qd Kc", stock="As")
        expected = (DrawStock(0), TakeDiscard(0, "Qd"), TakeDiscard(0, "8d"), TakeDiscard(0, "6h"))
        assert expected == legal_actions(state)
        error = rejection(state, TakeDiscard(0, "Kc"))
        assert "Kc cannot be melded or laid off at once, so it may not be taken" == error.reason
        assert "R15, A12" == error.rule_text


class TestCardsTakenWithTheTarget:
    """
    A10: "Can the obligation be met by laying off? Can cards taken above it be used in that meld?" Default:
    "Yes to both: target may go into a new meld (which may include cards taken with it) or be laid off on
    any meld, including an opponent's."
    """

    def test_r15_a10_cards_taken_with_the_target_complete_its_meld(self) -> None:
        """
        R15, A10: the cards taken above the target may go into the target's meld.
        """
        state = usability_position("2c", "9s Js Ts", ())
        taken = apply(state, TakeDiscard(0, "9s"))
        assert (LayDown(0, "9s Ts Js"),) == legal_actions(taken)
        done = apply(taken, LayDown(0, "9s Ts Js"))
        assert (meld(0, "9s Ts Js"),) == done.melds
        assert "2c" == hand_of(done, 0)


class TestImmediately:
    """
    A11, the meaning of "immediately": "Strict: the first meld/lay-off action after the draw must
    contain the target card; discarding, or making any other meld/lay-off first, is an error. A lay-off action
    may place several cards on one meld at once [...], so a target reachable only through such a chain is
    still usable in one action [...]."
    """

    def test_r15_lay_off_chain_take_and_play(self) -> None:
        """
        R15, A11: 5s is taken with 6s in hand and laid off together with it onto 7s 8s 9s in one action.
        """
        state = position(hands=("6s 2c", "", "", ""), pile="5s", melds=(meld(1, "7s 8s 9s"),))
        taken = apply(state, TakeDiscard(0, "5s"))
        assert (LayOff(0, 0, "5s 6s"),) == legal_actions(taken)
        done = apply(taken, LayOff(0, 0, "6s 5s"))
        assert (meld(1, "7s 8s 9s", s0="5s 6s"),) == done.melds
        assert done.obligation is None
        assert (Discard(0, "2c"),) == legal_actions(done)

    def test_a11_immediate_only_melds_with_the_target_are_legal(self) -> None:
        """
        A11: after taking 8d, the only legal action is a meld containing it; Qd Qh Qs and 3h 4h 5h wait.
        """
        taken = apply(standard(), TakeDiscard(0, "8d"))
        assert (LayDown(0, "8d 9d Td"),) == legal_actions(taken)

    def test_a11_immediate_discard_first_is_illegal(self) -> None:
        """
        A11, R15: the taken card must be played before the discard.
        """
        taken = apply(standard(), TakeDiscard(0, "8d"))
        error = rejection(taken, Discard(0, "Qh"))
        assert "8d, taken from the discard pile, must be played first" == error.reason
        assert "R15, A11" == error.rule_text

    def test_a11_immediate_other_meld_first_is_illegal(self) -> None:
        """
        A11: laying down another meld first is illegal, even though 8d could still be played afterwards.
        """
        taken = apply(standard(), TakeDiscard(0, "8d"))
        error = rejection(taken, LayDown(0, "3h 4h 5h"))
        assert "8d, taken from the discard pile, must be played first" == error.reason
        assert "R15, A11" == error.rule_text

    def test_a11_immediate_other_lay_off_first_is_illegal(self) -> None:
        """
        A11: laying off another card first (even 6s, which 5s would then fit onto) is illegal.
        """
        state = position(hands=("6s Ts 2c", "", "", ""), pile="5s", melds=(meld(1, "7s 8s 9s"),))
        taken = apply(state, TakeDiscard(0, "5s"))
        assert (LayOff(0, 0, "5s 6s"),) == legal_actions(taken)
        for action in (LayOff(0, 0, "6s"), LayOff(0, 0, "Ts")):
            error = rejection(taken, action)
            assert "5s, taken from the discard pile, must be played first" == error.reason
            assert "R15, A11" == error.rule_text

    def test_a11_after_the_target_is_played_the_turn_is_free(self) -> None:
        """
        A11, A13: once 8d is melded, other melds and every discard (Qd, taken above 8d, included) are legal.
        """
        state = play(standard(), TakeDiscard(0, "8d"), LayDown(0, "8d 9d Td"))
        expected = (
            LayDown(0, "Qd Qh Qs"),
            LayDown(0, "3h 4h 5h"),
            Discard(0, "Qd"),
            Discard(0, "3h"),
            Discard(0, "4h"),
            Discard(0, "5h"),
            Discard(0, "Qh"),
            Discard(0, "Qs"),
        )
        assert expected == legal_actions(state)
        assert state.obligation is None
        assert "8d Qd" == str(state.picked)
        assert ("Qd", "", "", "") == tuple(str(cards) for cards in state.known)

    def test_a11_target_in_a_longer_meld(self) -> None:
        """
        A11: any meld that contains the target meets the obligation, a longer run included.
        """
        taken = apply(standard(), TakeDiscard(0, "6h"))
        expected = (LayDown(0, "3h 4h 5h 6h"), LayDown(0, "4h 5h 6h"))
        assert expected == legal_actions(taken)


class TestCardsAboveTheTarget:
    """
    A13: "May a player discard a card just taken from the pile?" Default: "Target: impossible by R15. Other
    cards taken above it: may be discarded the same turn."
    """

    def test_a13_cards_above_the_target_may_be_discarded(self) -> None:
        """
        A13: Kc, taken above 6h, may be discarded in the same turn; it leaves the known cards.
        """
        state = play(standard(), TakeDiscard(0, "6h"), LayDown(0, "4h 5h 6h"))
        assert Discard(0, "Kc") in legal_actions(state)
        assert ("Kc 8d Qd", "", "", "") == tuple(str(cards) for cards in state.known)
        after = apply(state, Discard(0, "Kc"))
        assert "Kc" == pile_of(after)
        assert ("8d Qd", "", "", "") == tuple(str(cards) for cards in after.known)
        assert "" == str(after.picked)
