"""
The turn, rule by rule: drawing, the discard-pile obligation, melding, laying off, discarding,
going out and the empty stock (R13-R22, A9-A18), with exact states and legal action lists.

Positions are written by hand with `tests.positions.position`; seat 0 is to act unless a test
says otherwise.  Piles are written bottom card first, so the last card named is the top card.
"""

from __future__ import annotations

import pytest

from persian_rummy import (
    Card,
    ChanceNodeError,
    DealEnd,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    TableMeld,
    TakeDiscard,
    TeamScore,
    apply,
    is_legal,
    legal_actions,
)
from tests.positions import meld, position

# -- helpers -------------------------------------------------------------------------------------------------------


def pile_of(state: GameState) -> str:
    """
    The discard pile in notation, bottom card first.
    """
    return " ".join(str(card) for card in state.discard_pile)


def hand_of(state: GameState, seat: int) -> str:
    """
    A hand in notation, in `FULL_DECK` order.
    """
    return str(state.hands[seat])


def play(state: GameState, *actions: PlayerAction) -> GameState:
    """
    The state after *actions*, applied in order.
    """
    for action in actions:
        state = apply(state, action)
    return state


def rejection(state: GameState, action: PlayerAction) -> IllegalActionError:
    """
    The error `apply` raises for *action*, checking that the state is left as it was.
    """
    before = hash(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    assert before == hash(state)
    assert info.value.action is action
    return info.value


def deal_one(team0: TeamScore, team1: TeamScore, went_out: int | None, end: DealEnd) -> DealScore:
    """
    The result of deal 1.
    """
    return DealScore(1, (team0, team1), went_out, end)


# -- the standard position -----------------------------------------------------------------------------------------
#
# Seat 0 to act, dealer seat 3.  Seat 1 has the run 6c 7c 8c on the table.  The discard pile is, from the
# bottom, 6h Kc 8d Qd: Qd goes with Qh Qs, 8d with 9d Td, 6h with 4h 5h; Kc goes nowhere.

HANDS = ("3h 4h 5h Qh Qs 9d Td", "2c 3c 4c Kd 9s Js 2d", "Ac Ad Ah 5d 6d 8s X2", "Tc Jc 3d 7d 2h 8h 4s")
MELDS = (meld(1, "6c 7c 8c"),)
PILE = "6h Kc 8d Qd"


def standard() -> GameState:
    """
    The standard draw-phase position; the stock starts with As.
    """
    return position(hands=HANDS, melds=MELDS, pile=PILE, stock="As")


def with_hand(seat: int, text: str) -> tuple[str, str, str, str]:
    """
    The standard hands with seat *seat*'s replaced.
    """
    hands = list(HANDS)
    hands[seat] = text
    return (hands[0], hands[1], hands[2], hands[3])


# -- R13: the structure of a turn ----------------------------------------------------------------------------------


def test_r13_a_turn_starts_with_the_draw() -> None:
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
def test_r13_melding_or_discarding_before_the_draw_is_illegal(action: PlayerAction, doing: str) -> None:
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
def test_r13_r14_only_one_draw_per_turn(action: PlayerAction, doing: str) -> None:
    """
    R13, R14: after drawing, a second draw (or a pass) is not possible.
    """
    drawn = apply(standard(), DrawStock(0))
    error = rejection(drawn, action)
    assert f"seat 0 has drawn already; {doing} is not possible now" == error.reason
    assert "R13" == error.rule_text


def test_r13_full_turn_draw_melds_discard() -> None:
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


def test_r13_play_phase_offers_melds_lay_offs_and_discards() -> None:
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


def test_r13_lay_off_and_lay_down_in_either_order() -> None:
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


# -- R14: drawing --------------------------------------------------------------------------------------------------


def test_r14_draw_from_stock_takes_its_top_card() -> None:
    """
    R14: drawing from the stock puts its first card in the hand; nothing else changes but the phase.
    """
    state = apply(standard(), DrawStock(0))
    expected = position(hands=with_hand(0, "3h 4h 5h Qh Qs 9d Td As"), melds=MELDS, pile=PILE, phase="play", dealer=3)
    assert expected == state
    assert Card.parse("5c") == state.stock[0]
    assert 20 == len(state.stock)


def test_r14_take_the_top_card() -> None:
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
        revealed=("Qd", "", "", ""),
    )
    assert expected == state


def test_r14_take_from_inside_takes_every_card_above() -> None:
    """
    R14: naming a card inside the pile takes it and every card above it; the cards below stay.
    """
    state = apply(standard(), TakeDiscard(0, "8d"))
    assert "6h Kc" == pile_of(state)
    assert "8d 9d Td Qd 3h 4h 5h Qh Qs" == hand_of(state, 0)
    assert Card.parse("8d") == state.obligation
    assert "8d Qd" == str(state.picked)
    assert ("8d Qd", "", "", "") == tuple(str(cards) for cards in state.revealed)
    assert (Phase.PLAY, 0) == (state.phase, state.to_act)
    assert standard().stock == state.stock


def test_r14_taking_the_bottom_card_empties_the_pile() -> None:
    """
    R14: the bottom card takes the whole pile, which is then empty.
    """
    state = apply(standard(), TakeDiscard(0, "6h"))
    assert () == state.discard_pile
    assert "Kc 8d 9d Td Qd 3h 4h 5h 6h Qh Qs" == hand_of(state, 0)
    assert Card.parse("6h") == state.obligation
    assert "Kc 8d Qd 6h" == str(state.picked)


def test_r14_no_take_from_an_empty_pile() -> None:
    """
    R14: with an empty discard pile only the stock can be drawn from.
    """
    state = position(hands=HANDS, melds=MELDS, pile="", stock="As", rest_to="stock")
    assert (DrawStock(0),) == legal_actions(state)
    error = rejection(state, TakeDiscard(0, "Qd"))
    assert "Qd is not in the discard pile" == error.reason
    assert "R14" == error.rule_text


def test_r14_the_pile_stays_empty_until_the_next_discard() -> None:
    """
    R14: after the whole pile is taken, the next discard starts it again.
    """
    state = play(standard(), TakeDiscard(0, "6h"), LayDown(0, "4h 5h 6h"), Discard(0, "Kc"))
    assert "Kc" == pile_of(state)
    assert 1 == state.to_act


def test_r14_draw_leaves_the_other_hands_alone() -> None:
    """
    R14: a draw changes only the drawing seat's hand.
    """
    before = standard()
    for action in legal_actions(before):
        after = apply(before, action)
        assert before.hands[1:] == after.hands[1:]
        assert before.melds == after.melds


# -- R15, A9, A10, A12: the obligation to play the card taken ------------------------------------------------------

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


@pytest.mark.parametrize(("hand", "pile", "melds", "target", "usable"), list(USABILITY.values()), ids=list(USABILITY))
def test_r15_a12_take_only_a_card_that_can_be_played(
    hand: str, pile: str, melds: tuple[TableMeld, ...], target: str, usable: bool
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


def test_r15_unusable_top_card_is_not_offered() -> None:
    """
    R15, A9: the top card carries the obligation too: Kc under nothing usable is not a legal take.
    """
    state = position(hands=HANDS, melds=MELDS, pile="6h 8d Qd Kc", stock="As")
    expected = (DrawStock(0), TakeDiscard(0, "Qd"), TakeDiscard(0, "8d"), TakeDiscard(0, "6h"))
    assert expected == legal_actions(state)
    error = rejection(state, TakeDiscard(0, "Kc"))
    assert "Kc cannot be melded or laid off at once, so it may not be taken" == error.reason
    assert "R15, A12" == error.rule_text


def test_r15_lay_off_chain_take_and_play() -> None:
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


def test_r15_a10_cards_taken_with_the_target_complete_its_meld() -> None:
    """
    R15, A10: the cards taken above the target may go into the target's meld.
    """
    state = usability_position("2c", "9s Js Ts", ())
    taken = apply(state, TakeDiscard(0, "9s"))
    assert (LayDown(0, "9s Ts Js"),) == legal_actions(taken)
    done = apply(taken, LayDown(0, "9s Ts Js"))
    assert (meld(0, "9s Ts Js"),) == done.melds
    assert "2c" == hand_of(done, 0)


# -- A11: "immediately" --------------------------------------------------------------------------------------------


def test_a11_immediate_only_melds_with_the_target_are_legal() -> None:
    """
    A11: after taking 8d, the only legal action is a meld containing it; Qd Qh Qs and 3h 4h 5h wait.
    """
    taken = apply(standard(), TakeDiscard(0, "8d"))
    assert (LayDown(0, "8d 9d Td"),) == legal_actions(taken)


def test_a11_immediate_discard_first_is_illegal() -> None:
    """
    A11, R15: the taken card must be played before the discard.
    """
    taken = apply(standard(), TakeDiscard(0, "8d"))
    error = rejection(taken, Discard(0, "Qh"))
    assert "8d, taken from the discard pile, must be played first" == error.reason
    assert "R15, A11" == error.rule_text


def test_a11_immediate_other_meld_first_is_illegal() -> None:
    """
    A11: laying down another meld first is illegal, even though 8d could still be played afterwards.
    """
    taken = apply(standard(), TakeDiscard(0, "8d"))
    error = rejection(taken, LayDown(0, "3h 4h 5h"))
    assert "8d, taken from the discard pile, must be played first" == error.reason
    assert "R15, A11" == error.rule_text


def test_a11_immediate_other_lay_off_first_is_illegal() -> None:
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


def test_a11_after_the_target_is_played_the_turn_is_free() -> None:
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
    assert ("Qd", "", "", "") == tuple(str(cards) for cards in state.revealed)


def test_a11_target_in_a_longer_meld() -> None:
    """
    A11: any meld that contains the target meets the obligation, a longer run included.
    """
    taken = apply(standard(), TakeDiscard(0, "6h"))
    expected = (LayDown(0, "3h 4h 5h 6h"), LayDown(0, "4h 5h 6h"))
    assert expected == legal_actions(taken)


# -- A13: cards taken above the target -----------------------------------------------------------------------------


def test_a13_cards_above_the_target_may_be_discarded() -> None:
    """
    A13: Kc, taken above 6h, may be discarded in the same turn; it leaves the revealed cards.
    """
    state = play(standard(), TakeDiscard(0, "6h"), LayDown(0, "4h 5h 6h"))
    assert Discard(0, "Kc") in legal_actions(state)
    assert ("Kc 8d Qd", "", "", "") == tuple(str(cards) for cards in state.revealed)
    after = apply(state, Discard(0, "Kc"))
    assert "Kc" == pile_of(after)
    assert ("8d Qd", "", "", "") == tuple(str(cards) for cards in after.revealed)
    assert "" == str(after.picked)


# -- R16: melding --------------------------------------------------------------------------------------------------


def test_r16_any_number_of_melds_in_one_turn() -> None:
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


def test_r16_no_minimum_first_meld() -> None:
    """
    R16: the first meld of the deal may be worth as little as 2c 3c 4c (9 points).
    """
    state = play(standard(), DrawStock(0), Discard(0, "As"), DrawStock(1))
    assert LayDown(1, "2c 3c 4c") in legal_actions(state)
    after = apply(state, LayDown(1, "2c 3c 4c"))
    assert (*MELDS, meld(1, "2c 3c 4c")) == after.melds
    assert "5c 2d Kd 9s Js" == hand_of(after, 1)


def test_r16_no_meld_at_all_is_fine() -> None:
    """
    R16, R13: melding is optional: draw and discard at once.
    """
    state = play(standard(), DrawStock(0), Discard(0, "As"))
    assert (Phase.DRAW, 1) == (state.phase, state.to_act)
    assert state.melds == MELDS


def test_r16_four_of_a_kind_and_long_runs_in_one_action() -> None:
    """
    R16, R10, R12: a set of four and a run of five are laid down in one action each.
    """
    state = position(hands=("7c 7d 7h 7s 9h Th Jh Qh Kh 2c", "", "", ""), phase="play")
    after = play(state, LayDown(0, "7c 7d 7h 7s"), LayDown(0, "9h Th Jh Qh Kh"))
    assert (meld(0, "7c 7d 7h 7s"), meld(0, "9h Th Jh Qh Kh")) == after.melds
    assert after.melds[0].four_at_once
    assert "2c" == hand_of(after, 0)


@pytest.mark.parametrize(
    ("cards", "rule"),
    [("7c 7d 9h", "R9"), ("9h Jh Qh", "R9"), ("7h 9h Th", "R9"), ("7c 7d X1", "R11")],
)
def test_r9_r11_lay_down_must_be_a_set_or_run(cards: str, rule: str) -> None:
    """
    R9, R11: only sets and runs may be laid down; a joker never joins naturals.
    """
    state = position(hands=("7c 7d 7h 9h Th Jh Qh X1", "", "", ""), phase="play")
    error = rejection(state, LayDown(0, cards))
    assert f"{LayDown(0, cards).cards} is not a set or a run" == error.reason
    assert rule == error.rule_text


def test_r9_a_meld_has_three_or_more_cards() -> None:
    """
    R9, R10, R12: a meld has at least three cards.
    """
    state = position(hands=("7c 7d 7h 9h Th Jh Qh X1", "", "", ""), phase="play")
    error = rejection(state, LayDown(0, "7c 7d"))
    assert ("a meld needs three or more cards, not 2", "R9") == (error.reason, error.rule_text)


# -- R17, A14: laying off ------------------------------------------------------------------------------------------
#
# Seat 0 has drawn.  On the table: its own Kc Kd Ks, its partner's 7s 8s 9s, the opponents' three jokers and
# the opponents' 4h 5h 6h, onto which seat 1 has laid off 7h.

LAYOFF_MELDS = (
    meld(0, "Kc Kd Ks"),
    meld(2, "7s 8s 9s"),
    meld(1, "X1 X2 X3"),
    meld(3, "4h 5h 6h", s1="7h"),
)


def layoff_position() -> GameState:
    """
    The lay-off position (play phase, seat 0).
    """
    return position(
        hands=("Kh 5s 6s Ts X4 8h 3h 2h Jd", "2c 3c", "Ah", "2d"), melds=LAYOFF_MELDS, pile="4c", phase="play"
    )


def test_r17_legal_lay_offs_in_order() -> None:
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


def test_r17_fourth_card_onto_own_set() -> None:
    """
    R17: the 4th natural onto one's own set; it is recorded as laid off by seat 0, not laid down.
    """
    after = apply(layoff_position(), LayOff(0, 0, "Kh"))
    assert meld(0, "Kc Kd Ks", s0="Kh") == after.melds[0]
    assert "Kc Kd Kh Ks" == str(after.melds[0].cards)
    assert not after.melds[0].four_at_once
    assert "Jd 2h 3h 8h 5s 6s Ts X4" == hand_of(after, 0)


def test_r17_a14_several_cards_onto_partners_run() -> None:
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


def test_r17_fourth_joker_onto_opponents_joker_set() -> None:
    """
    R17, A14: the 4th joker onto the opponents' three jokers; the meld stays seat 1's, the joker is seat 0's.
    """
    after = apply(layoff_position(), LayOff(0, 2, "X4"))
    changed = after.melds[2]
    assert meld(1, "X1 X2 X3", s0="X4") == changed
    assert 1 == changed.owner
    assert 0 == changed.contributor(Card.parse("X4"))
    assert 1 == changed.contributor(Card.parse("X1"))


def test_r17_extend_beyond_a_laid_off_card() -> None:
    """
    R17: 8h goes onto 4h-6h beyond the 7h that seat 1 laid off; contributions stay per seat.
    """
    after = apply(layoff_position(), LayOff(0, 3, "8h"))
    changed = after.melds[3]
    assert meld(3, "4h 5h 6h", s1="7h", s0="8h") == changed
    assert "4h 5h 6h 7h 8h" == str(changed.cards)
    assert ("8h", "7h", "", "4h 5h 6h") == tuple(str(part) for part in changed.contributions)


def test_r17_both_run_ends_take_two_actions() -> None:
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
def test_r17_a7_lay_off_must_extend_the_meld(index: int, cards: str, meld_text: str) -> None:
    """
    R17, A7: a lay-off must be the 4th card of a set (jokers onto jokers only) or extend a run without a gap.
    """
    error = rejection(layoff_position(), LayOff(0, index, cards))
    assert f"{LayOff(0, index, cards).cards} does not extend the {meld_text}" == error.reason
    assert "R17" == error.rule_text


def test_r17_a14_lay_off_onto_opponents_meld_is_credited_to_the_layer() -> None:
    """
    R17, A14, R26: laying off onto an opponent's meld records the card under the laying seat, which scores it.
    """
    state = position(hands=("Kh", "2c 3c", "Ah", "2d"), melds=(meld(1, "Kc Kd Ks"),), pile="4c", phase="play", dealer=3)
    after = apply(state, LayOff(0, 0, "Kh"))
    assert (meld(1, "Kc Kd Ks", s0="Kh"),) == after.melds
    # W12: the laid-down kings score 30 for seat 1's team, the king laid off 10 for seat 0's team.
    assert 10 == after.results[0].teams[0].melded
    assert 30 == after.results[0].teams[1].melded


# -- R18: discarding -----------------------------------------------------------------------------------------------


def test_r18_discard_ends_the_turn() -> None:
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


def test_r18_r6_seat_3_passes_the_turn_to_seat_0() -> None:
    """
    R18, R6: play goes clockwise, so after seat 3 discards seat 0 is to draw.
    """
    state = position(hands=("2c", "3c", "4c", "9d Kh"), pile="5d", phase="play", to_act=3)
    after = apply(state, Discard(3, "Kh"))
    assert (Phase.DRAW, 0) == (after.phase, after.to_act)
    assert "5d Kh" == pile_of(after)
    assert "9d" == hand_of(after, 3)


def test_r18_discard_in_full_deck_order_jokers_last() -> None:
    """
    R18: the discards are listed in FULL_DECK order: clubs, diamonds, hearts, spades, jokers.
    """
    state = position(hands=("X2 As 2c Kh 9d X1", "", "", ""), phase="play")
    expected = tuple(Discard(0, text) for text in ("2c", "9d", "Kh", "As", "X1", "X2"))
    assert expected == legal_actions(state)


# -- R19: going out ------------------------------------------------------------------------------------------------

GO_OUT_HANDS = ("Qh Qs", "2c 3c", "Ah", "X1")
GO_OUT_MELDS = (meld(1, "7s 8s 9s", s2="Ts"),)


def test_r19_going_out_by_laying_down_ends_the_deal_at_once() -> None:
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


def test_r19_going_out_by_laying_off() -> None:
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


def test_r19_no_legal_action_after_going_out_until_the_next_deal() -> None:
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


def test_r19_r27_going_out_in_the_last_deal_ends_the_game() -> None:
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


# -- R20, A15: discarding the last card ----------------------------------------------------------------------------

EMPTY_HAND_HANDS = ("Qh Qs 2c", "3c 4c 5c 9s", "Ah 7d", "X1 Kd")


def empty_handed() -> GameState:
    """
    Seat 0 takes Qd, melds its queens and discards its last card, 2c.
    """
    state = position(hands=EMPTY_HAND_HANDS, pile="Ac Qd", stock="5d 9h Jc Qc")
    return play(state, TakeDiscard(0, "Qd"), LayDown(0, "Qd Qh Qs"), Discard(0, "2c"))


def test_r20_discarding_the_last_card_does_not_end_the_deal() -> None:
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


def test_r20_a15_empty_handed_player_draws_next_turn() -> None:
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


def test_r19_a15_empty_handed_player_goes_out_by_laying_off_the_drawn_card() -> None:
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


def test_r20_empty_hand_then_discard_again() -> None:
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


# -- R21, A16, A18: the stock is empty -----------------------------------------------------------------------------


def empty_stock() -> GameState:
    """
    No stock; seat 0 can take Qd (Qh Qs) or 5h (4h 6h); seat 2 holds the cards not named.
    """
    return position(hands=("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh"), pile="5h 9c Qd", stock="", rest_to=2)


def test_r21_empty_stock_take_a_usable_card_or_pass() -> None:
    """
    R21, A16: with an empty stock: usable takes from the top down, then the pass; no stock draw.
    """
    expected = (TakeDiscard(0, "Qd"), TakeDiscard(0, "5h"), Pass(0))
    assert expected == legal_actions(empty_stock())


def test_r21_cannot_draw_from_an_empty_stock() -> None:
    """
    R21: DrawStock with an empty stock is illegal.
    """
    error = rejection(empty_stock(), DrawStock(0))
    assert "the stock is empty: take from the discard pile or pass" == error.reason
    assert "R21" == error.rule_text


def test_r21_unusable_take_is_still_illegal() -> None:
    """
    R21, R15: with an empty stock a card may be taken only if it can be melded.
    """
    error = rejection(empty_stock(), TakeDiscard(0, "9c"))
    assert "9c cannot be melded or laid off at once, so it may not be taken" == error.reason
    assert "R15, A12" == error.rule_text


def test_r21_a16_pass_ends_the_turn() -> None:
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


def test_a16_no_melding_with_a_pass() -> None:
    """
    A16: seat 1 holds 2c 3c 4c but passing is a whole turn; it cannot lay down first.
    """
    after = apply(empty_stock(), Pass(0))
    error = rejection(after, LayDown(1, "2c 3c 4c"))
    assert "seat 1 must first draw or pass, not laying down a meld" == error.reason
    assert "R13" == error.rule_text


def test_r21_pass_is_illegal_while_the_stock_has_cards() -> None:
    """
    R21: Pass is neither offered nor legal while the stock has cards.
    """
    state = standard()
    assert Pass(0) not in legal_actions(state)
    error = rejection(state, Pass(0))
    assert "a player may pass only when the stock is empty" == error.reason
    assert "R21" == error.rule_text


def test_r21_take_with_an_empty_stock_is_a_normal_turn() -> None:
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


def test_a18_no_reshuffle_when_the_stock_runs_out() -> None:
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


# -- R22, A17, A23: the deal ends by passes ------------------------------------------------------------------------


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


def test_r22_three_passes_do_not_end_the_deal() -> None:
    """
    R22, A17: after three passes in a row the fourth seat is still to act.
    """
    state = play(all_pass(), Pass(0), Pass(1), Pass(2))
    assert (Phase.DRAW, 3, 3) == (state.phase, state.to_act, state.passes)
    assert () == state.results


def test_r22_a17_a23_four_passes_end_the_deal_without_bonus() -> None:
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


def test_r22_a17_a_take_resets_the_count_of_passes() -> None:
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


# -- the order of legal_actions ------------------------------------------------------------------------------------


def test_legal_actions_order_draw_phase_with_stock() -> None:
    """
    R14: DrawStock first, then TakeDiscard from the top of the pile down (only usable cards).
    """
    state = position(hands=("Qh Qs 4h 6h Td Jd", "", "", ""), pile="5h 9c Qd Kc Qc", stock="As")
    expected = (
        DrawStock(0),
        TakeDiscard(0, "Qc"),
        TakeDiscard(0, "Qd"),
        TakeDiscard(0, "5h"),
    )
    assert expected == legal_actions(state)


def test_legal_actions_order_draw_phase_without_stock() -> None:
    """
    R21: with an empty stock: TakeDiscard from the top down, then Pass last.
    """
    state = position(hands=("Qh Qs 4h 6h", "", "", ""), pile="5h 9c Qd Kc Qc", stock="", rest_to=2)
    expected = (TakeDiscard(0, "Qc"), TakeDiscard(0, "Qd"), TakeDiscard(0, "5h"), Pass(0))
    assert expected == legal_actions(state)


def test_legal_actions_order_play_phase() -> None:
    """
    R16, R17, R18: sets by rank (a four, then each three), then runs by suit, lay-offs by meld, discards.
    """
    state = position(
        hands=("2c 3c 4c 5c 7c 7d 7h 7s Kd Kh Ks 9h Th Jh", "", "", ""),
        melds=(meld(3, "8c 9c Tc"), meld(2, "X1 X2 X3"), meld(1, "4s 5s 6s")),
        phase="play",
    )
    expected = (
        LayDown(0, "7c 7d 7h 7s"),
        LayDown(0, "7d 7h 7s"),
        LayDown(0, "7c 7h 7s"),
        LayDown(0, "7c 7d 7s"),
        LayDown(0, "7c 7d 7h"),
        LayDown(0, "Kd Kh Ks"),
        LayDown(0, "2c 3c 4c"),
        LayDown(0, "2c 3c 4c 5c"),
        LayDown(0, "3c 4c 5c"),
        LayDown(0, "9h Th Jh"),
        LayOff(0, 0, "7c"),
        LayOff(0, 2, "7s"),
        Discard(0, "2c"),
        Discard(0, "3c"),
        Discard(0, "4c"),
        Discard(0, "5c"),
        Discard(0, "7c"),
        Discard(0, "7d"),
        Discard(0, "Kd"),
        Discard(0, "7h"),
        Discard(0, "9h"),
        Discard(0, "Th"),
        Discard(0, "Jh"),
        Discard(0, "Kh"),
        Discard(0, "7s"),
        Discard(0, "Ks"),
    )
    assert expected == legal_actions(state)


def test_legal_actions_order_joker_sets_after_natural_sets() -> None:
    """
    R11, R16: joker sets come after the natural sets and before the runs.
    """
    state = position(hands=("X1 X2 X3 2c 2d 2h 5s 6s 7s", "", "", ""), phase="play")
    expected = (
        LayDown(0, "2c 2d 2h"),
        LayDown(0, "X1 X2 X3"),
        LayDown(0, "5s 6s 7s"),
        *(Discard(0, text) for text in ("2c", "2d", "2h", "5s", "6s", "7s", "X1", "X2", "X3")),
    )
    assert expected == legal_actions(state)


def test_legal_actions_every_one_is_legal_in_these_positions() -> None:
    """
    R13: every action listed is accepted by apply, and each is listed once.
    """
    states = [
        standard(),
        apply(standard(), TakeDiscard(0, "6h")),
        layoff_position(),
        empty_stock(),
        position(hands=("6s Ts 2c", "", "", ""), pile="5s", melds=(meld(1, "7s 8s 9s"),)),
    ]
    for state in states:
        actions = legal_actions(state)
        assert len(set(actions)) == len(actions)
        for action in actions:
            assert is_legal(state, action)
