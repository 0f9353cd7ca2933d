"""
Illegal, malformed and wrong-seat actions: each raises `IllegalActionError` with the action, a reason
and the rule, and the state passed in is left exactly as it was (R1, R2, R5-R7, R9, R11, R13-R18, R21, A4,
A11, A12).

Also: `is_legal` and `check_legal` agree with `apply` and with `legal_actions`, and no player acts at a chance
node or after the game (R7, R27).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import attrs
import pytest

from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    ChanceNodeError,
    Deal,
    DealScore,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidNotationError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    PersianRummyError,
    Phase,
    PlayerAction,
    TakeDiscard,
    apply,
    check_legal,
    is_legal,
    legal_actions,
    new_game,
)
from persian_rummy.scoring import DealEnd, TeamScore
from tests.positions import forged, illegal, meld, position

# -- the states the actions are tried on ---------------------------------------------------------------------------
#
# Seat 0 is to draw; seat 1's run 6c 7c 8c is on the table; the pile is, from the bottom, 6h Kc Qd 8d:
# Qd (with Qh Qs, taking 8d too) and 6h (with 4h 5h) can be taken, Kc and 8d cannot.  The stock starts with Ad.

HANDS = ("3h 4h 5h Qh Qs 9c X1", "2c 3c 4c Kd 9s Js 2d", "Ac Ah As 5d 6d 8s X2", "Tc Jc 3d 7d 2h 8h 4s")


def drawing() -> GameState:
    """
    Seat 0 to draw.
    """
    return position(hands=HANDS, melds=(meld(1, "6c 7c 8c"),), pile="6h Kc Qd 8d", stock="Ad")


def drawn() -> GameState:
    """
    Seat 0 has drawn Ad from the stock: hand 9c Ad 3h 4h 5h Qh Qs X1.
    """
    return apply(drawing(), DrawStock(0))


def pending() -> GameState:
    """
    Seat 0 has taken Qd (and 8d above it); Qd must be played next.
    """
    return apply(drawing(), TakeDiscard(0, "Qd"))


def no_stock() -> GameState:
    """
    Seat 0 to draw with an empty stock; seat 2 holds every card not named.
    """
    return position(hands=("Qh Qs 2c", "3c", "", "4c"), pile="5h Qd", stock="", rest_to=2)


def undealt() -> GameState:
    """
    A new game: seat 0 is to deal.
    """
    return new_game()


def _went_out(deal: int, results: tuple[DealScore, ...]) -> GameState:
    state = position(hands=("Qh Qs", "2c 3c", "Ah", "X1"), pile="4d Qd", deal=deal, results=results)
    return apply(apply(state, TakeDiscard(0, "Qd")), LayDown(0, "Qd Qh Qs"))


def between_deals() -> GameState:
    """
    Deal 1 (dealt by seat 3) is over: seat 0 went out; seat 0 deals next (A4).
    """
    return _went_out(1, ())


def finished() -> GameState:
    """
    Deal 2 is over and so is the game.
    """
    first = DealScore(1, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.PASSES)
    return _went_out(2, (first,))


def malformed(value: object) -> Any:
    """
    *value*, typed so that it can be passed where the type checker expects something else.
    """
    return value


class Case(NamedTuple):
    state: Callable[[], GameState]
    action: object
    reason: str
    rule: str
    exact: bool = True


NOT_SEAT_0 = "it is seat 0's turn, not seat {}'s"
NO_DRAW_YET = "seat 0 must first draw or pass, not {}"
DRAWN = "seat 0 has drawn already; {} is not possible now"
QD_FIRST = "Qd, taken from the discard pile, must be played first"

CASES = {
    # Wrong seat (R6): checked once the phase is right.
    "R6-wrong-seat-draws": Case(drawing, DrawStock(1), NOT_SEAT_0.format(1), "R6"),
    "R6-partner-takes": Case(drawing, TakeDiscard(2, "Qd"), NOT_SEAT_0.format(2), "R6"),
    "R6-wrong-seat-passes": Case(no_stock, Pass(3), NOT_SEAT_0.format(3), "R6"),
    "R6-wrong-seat-discards": Case(drawn, Discard(1, "2c"), NOT_SEAT_0.format(1), "R6"),
    "R6-wrong-seat-lays-down": Case(drawn, LayDown(2, "Ac Ah As"), NOT_SEAT_0.format(2), "R6"),
    "R6-wrong-seat-lays-off": Case(drawn, LayOff(1, 0, "9c"), NOT_SEAT_0.format(1), "R6"),
    "R6-seat-7": Case(drawing, forged(DrawStock(0), seat=7), NOT_SEAT_0.format(7), "R6"),
    "R6-seat-minus-1": Case(drawing, forged(DrawStock(0), seat=-1), NOT_SEAT_0.format(-1), "R6"),
    "R1-seat-N": Case(drawing, forged(DrawStock(0), seat="N"), "a seat is a number 0-3, not 'N'", "R1"),
    "R1-seat-None": Case(drawing, forged(TakeDiscard(0, "Qd"), seat=None), "a seat is a number 0-3, not None", "R1"),
    "R1-seat-str-0": Case(drawn, forged(Discard(0, "9c"), seat="0"), "a seat is a number 0-3, not '0'", "R1"),
    # Wrong phase (R13): the phase is checked before the seat.
    "R13-lay-down-before-drawing": Case(
        drawing, LayDown(0, "3h 4h 5h"), NO_DRAW_YET.format("laying down a meld"), "R13"
    ),
    "R13-lay-off-before-drawing": Case(drawing, LayOff(0, 0, "9c"), NO_DRAW_YET.format("laying off"), "R13"),
    "R13-discard-before-drawing": Case(drawing, Discard(0, "9c"), NO_DRAW_YET.format("discarding"), "R13"),
    "R13-other-seat-discards-before-drawing": Case(drawing, Discard(1, "2c"), NO_DRAW_YET.format("discarding"), "R13"),
    "R13-second-draw": Case(drawn, DrawStock(0), DRAWN.format("drawing"), "R13"),
    "R13-take-after-drawing": Case(drawn, TakeDiscard(0, "Qd"), DRAWN.format("taking from the discard pile"), "R13"),
    "R13-pass-after-drawing": Case(drawn, Pass(0), DRAWN.format("passing"), "R13"),
    "R13-draw-while-pending": Case(pending, DrawStock(0), DRAWN.format("drawing"), "R13"),
    "R13-play-before-the-deal": Case(undealt, DrawStock(0), "no player acts in phase 'deal'", "R13"),
    "R13-pass-before-the-deal": Case(undealt, Pass(1), "no player acts in phase 'deal'", "R13"),
    "R13-play-between-deals": Case(between_deals, DrawStock(1), "no player acts in phase 'deal_over'", "R13"),
    "R13-play-after-the-game": Case(finished, Discard(1, "2c"), "no player acts in phase 'game_over'", "R13"),
    # Not an action at all (R13).
    "R13-card-notation": Case(drawing, "Qh", "not an action of this game", "R13"),
    "R13-None": Case(drawing, None, "not an action of this game", "R13"),
    "R13-int": Case(drawn, 42, "not an action of this game", "R13"),
    "R13-action-class": Case(drawing, DrawStock, "not an action of this game", "R13"),
    "R13-tuple": Case(drawing, ("DrawStock", 0), "not an action of this game", "R13"),
    "R13-card": Case(drawn, Card.parse("9c"), "not an action of this game", "R13"),
    # Drawing (R14, R15, R21, A12).
    "R14-card-not-in-pile": Case(drawing, TakeDiscard(0, "As"), "As is not in the discard pile", "R14"),
    "R14-card-in-own-hand": Case(drawing, TakeDiscard(0, "Qh"), "Qh is not in the discard pile", "R14"),
    "R14-card-None": Case(drawing, forged(TakeDiscard(0, "Qd"), card=None), "None is not a card", "R14"),
    "R14-card-int": Case(drawing, forged(TakeDiscard(0, "Qd"), card=5), "5 is not a card", "R14"),
    "R15-A12-unusable-top-card": Case(
        drawing, TakeDiscard(0, "8d"), "8d cannot be melded or laid off at once, so it may not be taken", "R15, A12"
    ),
    "R15-A12-unusable-card-inside": Case(
        drawing, TakeDiscard(0, "Kc"), "Kc cannot be melded or laid off at once, so it may not be taken", "R15, A12"
    ),
    "R15-A12-unusable-with-empty-stock": Case(
        no_stock, TakeDiscard(0, "5h"), "5h cannot be melded or laid off at once, so it may not be taken", "R15, A12"
    ),
    "R21-pass-with-stock": Case(drawing, Pass(0), "a player may pass only when the stock is empty", "R21"),
    "R21-draw-from-empty-stock": Case(
        no_stock, DrawStock(0), "the stock is empty: take from the discard pile or pass", "R21"
    ),
    # Laying down (R9, R11, R16).
    "R16-lay-down-card-not-held": Case(drawn, LayDown(0, "Qd Qh Qs"), "seat 0 does not hold Qd", "R16"),
    "R16-lay-down-cards-not-held": Case(drawn, LayDown(0, "Kc Kd Ks"), "seat 0 does not hold Kc Kd Ks", "R16"),
    "R9-lay-down-two-cards": Case(drawn, LayDown(0, "Qh Qs"), "a meld needs three or more cards, not 2", "R9"),
    "R9-lay-down-one-card": Case(drawn, LayDown(0, "Ad"), "a meld needs three or more cards, not 1", "R9"),
    "R9-lay-down-mixed": Case(drawn, LayDown(0, "3h 9c Ad"), "9c Ad 3h is not a set or a run", "R9"),
    "R9-lay-down-nothing": Case(
        drawn, forged(LayDown(0, "3h"), cards=CardSet()), "a meld needs three or more cards, not 0", "R9"
    ),
    "R11-joker-in-a-run": Case(drawn, LayDown(0, "3h 4h X1"), "3h 4h X1 is not a set or a run", "R11"),
    "R11-joker-in-a-set": Case(drawn, LayDown(0, "Qh Qs X1"), "Qh Qs X1 is not a set or a run", "R11"),
    "R16-lay-down-forged-cards": Case(
        drawn, forged(LayDown(0, "3h 4h 5h"), cards="3h 4h 5h"), "the cards must be a CardSet", "R16"
    ),
    # Laying off (R16, R17).
    "R17-lay-off-missing-meld": Case(drawn, LayOff(0, 1, "9c"), "there is no meld 1 on the table", "R17"),
    "R17-lay-off-negative-index": Case(
        drawn, forged(LayOff(0, 0, "9c"), meld=-1), "there is no meld -1 on the table", "R17"
    ),
    "R17-lay-off-str-index": Case(
        drawn, forged(LayOff(0, 0, "9c"), meld="x"), "there is no meld 'x' on the table", "R17"
    ),
    "R17-lay-off-None-index": Case(
        drawn, forged(LayOff(0, 0, "9c"), meld=None), "there is no meld None on the table", "R17"
    ),
    "R17-lay-off-bool-index": Case(
        drawn, forged(LayOff(0, 0, "9c"), meld=False), "there is no meld False on the table", "R17"
    ),
    "R17-lay-off-no-cards": Case(
        drawn, forged(LayOff(0, 0, "9c"), cards=CardSet()), "lay off one or more cards", "R17"
    ),
    "R17-lay-off-forged-cards": Case(drawn, forged(LayOff(0, 0, "9c"), cards="9c"), "lay off one or more cards", "R17"),
    "R16-lay-off-card-not-held": Case(drawn, LayOff(0, 0, "5c"), "seat 0 does not hold 5c", "R16"),
    "R17-lay-off-other-suit": Case(drawn, LayOff(0, 0, "Ad"), "Ad does not extend the run 6c 7c 8c", "R17"),
    "R17-lay-off-joker-on-run": Case(drawn, LayOff(0, 0, "X1"), "X1 does not extend the run 6c 7c 8c", "R17"),
    # Discarding (R18).
    "R18-discard-card-not-held": Case(drawn, Discard(0, "2c"), "seat 0 does not hold 2c", "R18"),
    "R18-discard-card-from-pile": Case(drawn, Discard(0, "8d"), "seat 0 does not hold 8d", "R18"),
    "R18-discard-int": Case(drawn, forged(Discard(0, "9c"), card=5), "5 is not a card", "R18"),
    "R18-discard-None": Case(drawn, forged(Discard(0, "9c"), card=None), "None is not a card", "R18"),
    "R18-discard-list": Case(drawn, forged(Discard(0, "9c"), card=["9c"]), "['9c'] is not a card", "R18"),
    # The obligation (R15, A11).
    "R15-discard-while-pending": Case(pending, Discard(0, "8d"), QD_FIRST, "R15, A11"),
    "R15-discard-the-card-taken": Case(pending, Discard(0, "Qd"), QD_FIRST, "R15, A11"),
    "R18-discard-not-held-while-pending": Case(pending, Discard(0, "2c"), "seat 0 does not hold 2c", "R18"),
    "A11-other-meld-first": Case(pending, LayDown(0, "3h 4h 5h"), QD_FIRST, "R15, A11"),
    "A11-other-lay-off-first": Case(pending, LayOff(0, 0, "9c"), QD_FIRST, "R15, A11"),
    "R16-pending-card-in-non-meld": Case(pending, LayDown(0, "Qd Qh"), "a meld needs three or more cards, not 2", "R9"),
    # Dealing (R2, R5, R7, A4).
    "R7-deal-during-a-turn": Case(
        drawing, Deal(0, FULL_DECK), "cards are dealt only at the start of a deal, not in phase 'draw'", "R7"
    ),
    "R7-deal-after-drawing": Case(
        drawn, Deal(0, FULL_DECK), "cards are dealt only at the start of a deal, not in phase 'play'", "R7"
    ),
    "R7-deal-after-the-game": Case(
        finished, Deal(0, FULL_DECK), "cards are dealt only at the start of a deal, not in phase 'game_over'", "R7"
    ),
    "R5-wrong-first-dealer": Case(undealt, Deal(1, FULL_DECK), "seat 0 deals this deal, not seat 1", "R5"),
    "R5-dealer-as-str": Case(
        undealt, forged(Deal(0, FULL_DECK), seat="0"), "seat 0 deals this deal, not seat '0'", "R5"
    ),
    "A4-wrong-next-dealer": Case(between_deals, Deal(3, FULL_DECK), "seat 0 deals this deal, not seat 3", "A4"),
    "R2-deck-missing-a-card": Case(
        undealt, forged(Deal(0, FULL_DECK), deck=FULL_DECK[:55]), "the deck must hold 56 cards", "R2"
    ),
    "R2-deck-with-57-cards": Case(
        undealt, forged(Deal(0, FULL_DECK), deck=FULL_DECK + FULL_DECK[:1]), "the deck must hold 56 cards", "R2"
    ),
    "R2-deck-empty": Case(undealt, forged(Deal(0, FULL_DECK), deck=()), "the deck must hold 56 cards", "R2"),
    "R2-deck-with-a-duplicate": Case(
        undealt,
        forged(Deal(0, FULL_DECK), deck=(FULL_DECK[0], *FULL_DECK[:55])),
        "the deck lacks X4: every card must appear once",
        "R2",
    ),
    "R2-deck-with-two-duplicates": Case(
        undealt,
        forged(Deal(0, FULL_DECK), deck=(*FULL_DECK[:50], FULL_DECK[0], FULL_DECK[1], *FULL_DECK[52:])),
        "the deck lacks Ks As: every card must appear once",
        "R2",
    ),
    "R2-deck-with-a-non-card": Case(
        undealt,
        forged(Deal(0, FULL_DECK), deck=(*FULL_DECK[:55], None)),
        "the deck holds None, which is not a card",
        "R2",
    ),
    "R2-deck-with-notation": Case(
        undealt,
        forged(Deal(0, FULL_DECK), deck=(*FULL_DECK[:55], "X4")),
        "the deck holds 'X4', which is not a card",
        "R2",
    ),
}


def fields_of(state: GameState) -> dict[str, object]:
    """
    Every field of *state*, by name.
    """
    return {field.name: getattr(state, field.name) for field in attrs.fields(GameState)}


def assert_error(error: IllegalActionError, case: Case) -> None:
    """
    Check that *error* is the one *case* expects.
    """
    assert isinstance(error, ValueError)
    assert isinstance(error, PersianRummyError)
    assert error.action is case.action
    if case.exact:
        assert case.reason == error.reason
    else:
        assert case.reason in error.reason
    assert case.rule == error.rule_text


def assert_rejected(state: GameState, case: Case) -> None:
    """
    Apply the case's action to *state*; check the error and that *state* is unchanged.
    """
    snapshot = attrs.evolve(state)
    before_hash = hash(state)
    before_fields = fields_of(state)
    assert_error(illegal(state, case.action), case)
    assert snapshot == state
    assert before_hash == hash(state) == hash(snapshot)
    after_fields = fields_of(state)
    assert before_fields.keys() == after_fields.keys()
    for name, value in before_fields.items():
        assert after_fields[name] is value, name


def strict_key(action: object) -> tuple[object, ...]:
    """
    The action's type and fields with their types: ``LayOff(0, False, ...)`` equals ``LayOff(0, 0, ...)``
    but is not the same action.
    """
    if not attrs.has(type(action)):
        return (type(action), action)
    values = attrs.astuple(action, recurse=False)  # type: ignore[arg-type]
    return (type(action), *((type(value), value) for value in values))


STATES = {
    "drawing": drawing,
    "drawn": drawn,
    "pending": pending,
    "no-stock": no_stock,
}


def candidate_actions(state: GameState) -> Iterator[PlayerAction]:
    """
    Many actions, legal and not: every simple action of every seat, and every lay-down and lay-off
    of every group of cards of the seat to act (an empty group is no action: it cannot be built).
    """
    seat = state.to_act
    assert seat is not None
    for other in range(4):
        yield DrawStock(other)
        yield Pass(other)
        for card in FULL_DECK:
            yield TakeDiscard(other, card)
            yield Discard(other, card)
    hand = list(state.hands[seat])
    for size in range(1, len(hand) + 1):
        for group in itertools.combinations(hand, size):
            cards = CardSet(group)
            yield LayDown(seat, cards)
            for index in range(len(state.melds) + 1):
                yield LayOff(seat, index, cards)


class TestIllegalActions:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one card,
    which ends the turn [...]."

    The table `CASES` holds one illegal, malformed or wrong-seat action per row, tried on one of the states
    above: a wrong seat (R1, R6), a wrong phase (R13), no action at all (R13), a bad draw (R14, R15, R21,
    A12), a bad meld or lay-off (R9, R11, R16, R17), a bad discard (R18), the pending obligation (R15, A11)
    and a bad deal (R2, R5, R7, A4).  Each row's id starts with the rule it is about; the row gives the exact
    reason and rule of the error.
    """

    @pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
    def test_r13_illegal_action_raises_with_reason_and_rule_and_leaves_the_state(self, case: Case) -> None:
        """
        R13 (and the rule in each case's id): `apply` raises `IllegalActionError` naming the action, the reason
        and the rule, and leaves the state unchanged; `is_legal` is False, `check_legal` raises the same error,
        and the action is not among the legal actions.
        """
        state = case.state()
        assert_rejected(state, case)
        assert is_legal(state, malformed(case.action)) is False
        with pytest.raises(IllegalActionError) as info:
            check_legal(state, malformed(case.action))
        assert_error(info.value, case)
        assert case.state() == state
        if state.phase is Phase.DRAW or state.phase is Phase.PLAY:
            assert strict_key(case.action) not in [strict_key(action) for action in legal_actions(state)]


class TestRejection:
    """
    R6: "Play starts with the player on the dealer's left [...]; play therefore proceeds to the left, i.e.
    clockwise [...]."

    R13: "Draw → meld [...] → discard one card, which ends the turn [...]."

    An action by the wrong seat or out of turn order is rejected with a readable error, and the state it was
    tried on stays usable.
    """

    def test_r6_error_text_names_action_reason_and_rule(self) -> None:
        """
        R6: the message reads "illegal action <action>: <reason> (<rule>)".
        """
        error = illegal(drawing(), DrawStock(2))
        assert "illegal action DrawStock(seat=2): it is seat 0's turn, not seat 2's (R6)" == str(error)

    def test_r13_a_rejected_action_leaves_the_state_usable(self) -> None:
        """
        R13: after a rejection the same state still accepts a legal action and gives the usual result.
        """
        state = drawing()
        illegal(state, Discard(0, "9c"))
        assert drawn() == apply(state, DrawStock(0))


class TestLegalityChecks:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one card,
    which ends the turn [...]."

    `legal_actions`, `is_legal`, `check_legal` and `apply` agree on which actions of the turn are legal.
    """

    @pytest.mark.parametrize("make", list(STATES.values()), ids=list(STATES))
    def test_r13_legal_actions_are_legal_and_leave_the_state(self, make: Callable[[], GameState]) -> None:
        """
        R13: for every listed action `is_legal` is True, `check_legal` returns None, and `apply` leaves its input
        alone.
        """
        state = make()
        before = fields_of(state)
        actions = legal_actions(state)
        assert actions != ()
        for action in actions:
            assert is_legal(state, action) is True
            assert check_legal(state, action) is None  # type: ignore[func-returns-value]
            after = apply(state, action)
            assert after != state
        assert before == fields_of(state)
        assert make() == state

    @pytest.mark.parametrize("make", list(STATES.values()), ids=list(STATES))
    def test_r13_is_legal_agrees_with_legal_actions(self, make: Callable[[], GameState]) -> None:
        """
        R13: for a player's action, `is_legal` is True exactly when the action is in `legal_actions`.
        """
        state = make()
        listed = set(legal_actions(state))
        accepted = {action for action in candidate_actions(state) if is_legal(state, action)}
        assert listed == accepted


class TestChanceNodes:
    """
    R7: "Dealer shuffles and deals 7 cards to each player (28 cards)."

    A4, who deals the 2nd deal: "Player to the left of the first dealer [...]".

    Before a deal and between deals the next action is a `Deal`, not a player's action.
    """

    def test_r7_deal_is_legal_at_the_start_and_between_deals(self) -> None:
        """
        R7, A4: a Deal by the right dealer with a full deck is legal at a chance node.
        """
        assert is_legal(undealt(), Deal(0, FULL_DECK)) is True
        assert check_legal(undealt(), Deal(0, FULL_DECK)) is None  # type: ignore[func-returns-value]
        assert is_legal(between_deals(), Deal(0, FULL_DECK)) is True
        assert is_legal(between_deals(), Deal(1, FULL_DECK)) is False

    def test_r7_chance_node_has_no_player_actions(self) -> None:
        """
        R7: before the deal and between deals `legal_actions` raises `ChanceNodeError` (a ValueError).
        """
        for state, dealer in ((undealt(), 0), (between_deals(), 0)):
            with pytest.raises(ChanceNodeError) as info:
                legal_actions(state)
            assert isinstance(info.value, ValueError)
            expected = f"the next action is a Deal by seat {dealer}: build one with random_deal(state, rng)"
            assert expected == str(info.value)


class TestGameOver:
    """
    R27: "A game is exactly two deals [...]."
    """

    def test_r27_no_actions_after_the_game(self) -> None:
        """
        R27: once the game is over there are no legal actions.
        """
        assert () == legal_actions(finished())


class TestEmptyPileAndStock:
    """
    R14: "[...] taking the bottom card takes the whole pile, after which the pile is empty until the next
    discard (no discard-pile draw is possible from an empty pile)."

    R21: "When the draw pile is empty a player has two choices: take from the discard pile [...] or pass
    [...]."
    """

    @pytest.mark.parametrize(
        "action",
        [TakeDiscard(0, "Qd"), DrawStock(0), Discard(0, "Qh"), Pass(0)],
        ids=["take", "draw", "discard", "pass"],
    )
    def test_r14_take_from_an_empty_pile_is_illegal(self, action: Action) -> None:
        """
        R14, R21: with an empty pile and an empty stock only the pass is left.
        """
        state = position(hands=("Qh Qs", "", "", ""), pile="", stock="", rest_to=2)
        assert (Pass(0),) == legal_actions(state)
        assert (action == Pass(0)) == is_legal(state, action)


class TestActionsCheckTheirFields:
    """
    R1, R2, R13: an action is checked when it is built, so that what cannot be one of the game's
    moves never exists: a seat is an `int` from 0 to 3, a card one of the 56, a deal's deck the 56
    cards once, a meld or a lay-off some cards, each once, a meld index an `int` from 0.
    """

    @pytest.mark.parametrize(
        ("build", "error", "message"),
        [
            (lambda: DrawStock(4), InvalidValueError, "seat must be a seat 0-3, got 4"),
            (lambda: DrawStock(-1), InvalidValueError, "seat must be a seat 0-3, got -1"),
            (lambda: Pass(malformed("1")), InvalidTypeError, "seat must be a seat 0-3, got '1'"),
            (lambda: Pass(malformed(True)), InvalidTypeError, "seat must be a seat 0-3, got True"),
            (lambda: Discard(0, malformed(None)), InvalidTypeError, "card must be a Card or its notation, got None"),
            (lambda: TakeDiscard(0, "Qx"), InvalidNotationError, "not a card: 'Qx'"),
            (lambda: LayDown(0, []), InvalidValueError, "cards must hold at least one card"),
            (lambda: LayDown(0, malformed(7)), InvalidTypeError, "cards must be cards, their notation or a CardSet"),
            (lambda: LayDown(0, ["4s", "4d", "4h", "4h"]), InvalidValueError, "card 4h appears twice"),
            (lambda: LayOff(0, -1, "Qh"), InvalidValueError, "meld must be the index of a meld on the table, 0 to 55"),
            (lambda: LayOff(0, malformed("0"), "Qh"), InvalidTypeError, "meld must be the index of a meld"),
            (lambda: LayOff(0, 0, ""), InvalidValueError, "cards must hold at least one card"),
            (lambda: Deal(0, FULL_DECK[:55]), InvalidValueError, "deck must hold each of the 56 cards once, got 55"),
            (lambda: Deal(0, (*FULL_DECK[:55], FULL_DECK[0])), InvalidValueError, "deck must hold each of the 56"),
            (lambda: Deal(0, malformed(5)), InvalidTypeError, "deck must be the 56 cards in order, got 5"),
        ],
    )
    def test_r1_r2_a_malformed_action_is_refused_when_built(
        self, build: Callable[[], object], error: type[Exception], message: str
    ) -> None:
        with pytest.raises(error) as caught:
            build()
        assert message in str(caught.value)
        assert isinstance(caught.value, PersianRummyError)

    def test_r13_cards_in_any_form(self) -> None:
        """
        Cards may be given as `Card` values, as notation, or as an iterable of either.
        """
        expected = LayDown(0, CardSet.parse("4c 5c 6c"))
        assert expected == LayDown(0, ["4c", "5c", "6c"])
        assert expected == LayDown(0, [Card.parse("4c"), "5c", "6c"])
        assert expected == LayDown(0, "4c5c6c")
        assert Discard(1, Card.parse("Qh")) == Discard(1, "Qh")
        assert Deal(0, FULL_DECK) == Deal(0, [str(card) for card in FULL_DECK])
        assert Deal(0, FULL_DECK) == Deal(0, "".join(str(card) for card in FULL_DECK))

    def test_r13_every_action_the_engine_offers_passes_the_checks(self) -> None:
        for action in (*legal_actions(drawing()), *legal_actions(drawn()), *legal_actions(pending())):
            assert action == attrs.evolve(action)
