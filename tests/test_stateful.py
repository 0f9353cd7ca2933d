"""
A state machine that plays games through `apply`, checking every step against a model.

The machine holds one immutable `GameState`.  Its rules deal, play legal actions, fast-forward
with random legal actions, and fire well-formed actions that may be illegal.  After every
action a small model of its effect (which cards move where, whose turn it is, how the deal
ends: R7, R13-R22, R24) is compared with the state `apply` returned; an illegal action must
raise `IllegalActionError` and leave the state as it was.  At the end of each run the whole
game is replayed from its first state, which must give the same state again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from persian_rummy import (
    FULL_DECK,
    Action,
    CallRummy,
    Card,
    CardSet,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidMeldError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    Rules,
    StandIns,
    TableMeld,
    TakeDiscard,
    apply,
    check_invariants,
    is_legal,
    legal_actions,
    new_game,
)
from persian_rummy.rules import EmptyStockEnd, TieBreak
from persian_rummy.state import next_dealer
from tests.strategies import actions_of, decks, random_action, rules_variants, seeds, well_formed_actions

TURN_PHASES = (Phase.DRAW, Phase.PLAY, Phase.CALLS, Phase.CALLED)
CHANCE_PHASES = (Phase.DEAL, Phase.DEAL_OVER)


def last_deal(rules: Rules) -> int:
    """
    The most deals a game can have (R27, A22): the deals of the rules, plus one extra deal.
    """
    return rules.num_deals + (rules.tie_break is TieBreak.EXTRA_DEAL)


def expected_phase_after_deal(state: GameState, totals: tuple[int, int]) -> Phase:
    """
    R27, R28, A22: after deal ``state.deal`` with these totals, another deal follows or the game is over.
    """
    rules = state.rules
    if state.deal < rules.num_deals:
        return Phase.DEAL_OVER
    if state.deal == rules.num_deals and rules.tie_break is TieBreak.EXTRA_DEAL and totals[0] == totals[1]:
        return Phase.DEAL_OVER
    return Phase.GAME_OVER


def check_deal(before: GameState, action: Deal, after: GameState) -> None:
    """
    R7, A25, R8: one card at a time clockwise from the dealer's left, then the upcard, then the
    stock; the dealer's left plays first.
    """
    size = before.rules.hand_size
    dealt: list[list[Card]] = [[], [], [], []]
    for i in range(4 * size):
        dealt[(action.seat + 1 + i) % 4].append(action.deck[i])
    assert tuple(CardSet(hand) for hand in dealt) == after.hands
    assert (action.deck[4 * size],) == after.discard_pile
    assert action.deck[4 * size + 1 :] == after.stock
    assert not after.melds
    assert (Phase.DRAW, before.deal + 1, action.seat, (action.seat + 1) % 4) == (
        after.phase,
        after.deal,
        after.dealer,
        after.to_act,
    )
    assert after.passes == 0
    assert after.obligation is None
    assert after.went_out is None
    assert not after.picked
    assert not any(after.known)
    assert before.results == after.results


def takes_alone(melds: Sequence[TableMeld], card: Card, rules: Rules) -> bool:
    """
    R17, A24: whether a meld on the table takes *card* alone as a lay-off, so that its discard is called on.
    A7: with jokers wild, a natural card that the table represents (a joker stands for it) is dead, and a
    joker is taken where a meld takes it standing for a natural card the table does not represent.
    """
    shown = {natural for meld in melds for natural in meld.represents}
    if rules.jokers_wild and card in shown:
        return False
    tries: list[StandIns] = [StandIns()]
    if rules.jokers_wild and card.is_joker:
        tries.extend(StandIns([(card, natural)]) for natural in FULL_DECK[:52] if natural not in shown)
    for meld in melds:
        for stand_ins in tries:
            try:
                meld.with_layoff(0, [card], stand_ins)
            except InvalidMeldError:
                continue
            return True
    return False


def next_asked(hands: Sequence[CardSet], seat: int, discarder: int) -> int | None:
    """
    A24: the seat after *seat*, round from the discarder's left, that holds cards, or `None` once round.
    """
    other = (seat + 1) % 4
    while other != discarder:
        if hands[other]:
            return other
        other = (other + 1) % 4
    return None


def check_answer(before: GameState, action: CallRummy | DeclineCall, after: GameState) -> None:
    """
    A24: a call takes the top discard into the caller's hand, in everyone's sight, for it to lay off;
    a decline asks the next seat, or lets the discarder's left draw once every seat was asked.
    """
    discarder = before.discarder
    assert before.phase is Phase.CALLS
    assert discarder is not None
    if isinstance(action, CallRummy):
        card = before.discard_pile[-1]
        assert (Phase.CALLED, action.seat, discarder, card) == (
            after.phase,
            after.to_act,
            after.discarder,
            after.obligation,
        )
        assert before.hands[action.seat] | CardSet([card]) == after.hands[action.seat]
        assert card in after.known[action.seat]
        assert before.discard_pile[:-1] == after.discard_pile
        return
    asked = next_asked(before.hands, action.seat, discarder)
    if asked is None:
        assert (Phase.DRAW, (discarder + 1) % 4, None) == (after.phase, after.to_act, after.discarder)
    else:
        assert (Phase.CALLS, asked, discarder) == (after.phase, after.to_act, after.discarder)
    assert (before.hands, before.discard_pile) == (after.hands, after.discard_pile)


def check_effect(before: GameState, action: Action, after: GameState) -> None:
    """
    Compare *after* with what *action* must do to *before* (R7, R13-R22, A9, A15, A17, R24).
    """
    rules = before.rules
    assert rules is after.rules
    if isinstance(action, Deal):
        check_deal(before, action, after)
        return
    if isinstance(action, (CallRummy, DeclineCall)):
        check_answer(before, action, after)
        return
    seat = before.to_act
    assert seat is not None
    assert seat == action.seat
    hands = list(before.hands)
    known = list(before.known)
    pile = before.discard_pile
    stock = before.stock
    melds: list[TableMeld] = list(before.melds)
    obligation = before.obligation
    picked = before.picked
    played = CardSet()
    match action:
        case DrawStock():
            hands[seat] |= CardSet([stock[0]])
            if before.stock_known:  # A18: everyone knows the card drawn from a stock turned over
                known[seat] |= CardSet([stock[0]])
            stock = stock[1:]
            obligation, picked = None, CardSet()
        case TakeDiscard(card=card):
            depth = pile.index(card)
            taken = CardSet(pile[depth:])
            free = rules.top_discard_free and bool(stock) and depth == len(pile) - 1
            hands[seat] |= taken
            known[seat] |= taken
            pile = pile[:depth]
            obligation, picked = (None if free else card), taken
        case LayDown(cards=cards, stand_ins=stand_ins):
            played = cards
            melds.append(TableMeld(seat, cards, ace_low=rules.ace_low_allowed, stand_ins=stand_ins))
        case LayOff(meld=k, cards=cards, stand_ins=stand_ins):
            played = cards
            melds[k] = melds[k].with_layoff(seat, cards, stand_ins)
        case Discard(card=card):
            played = CardSet([card])
            pile = (*pile, card)
        case Pass():
            assert not stock
    hands[seat] -= played
    known[seat] -= played
    if obligation is not None and obligation in played:
        obligation = None
    stock_known = before.stock_known and bool(stock)
    gone_out = not hands[seat] and rules.go_out_by_discard
    if isinstance(action, Discard) and not stock and rules.reshuffle_on_empty_stock and len(pile) > 1 and not gone_out:
        # A18: the pile but its top card is turned over, in order, into a stock everyone knows.
        stock, pile, stock_known = pile[:-1], pile[-1:], True
    assert stock_known == after.stock_known
    assert tuple(hands) == after.hands
    assert tuple(known) == after.known
    assert pile == after.discard_pile
    assert stock == after.stock
    assert tuple(melds) == after.melds

    empty = not hands[seat]
    went_out = None
    if empty and (isinstance(action, (LayDown, LayOff)) or (isinstance(action, Discard) and rules.go_out_by_discard)):
        went_out = seat
    melding_before_pass = isinstance(action, (LayDown, LayOff)) and before.phase is Phase.DRAW  # A16
    passes = before.passes + 1 if isinstance(action, Pass) else before.passes if melding_before_pass else 0
    stock_end = isinstance(action, Discard) and not stock and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY
    pass_end = isinstance(action, Pass) and (rules.empty_stock_end is not EmptyStockEnd.ALL_PASS or passes == 4)
    if went_out is not None or stock_end or pass_end:
        # R19, R22, A17: the deal ends at once; the table and hands stay as they ended.
        assert went_out == after.went_out
        assert before.results == after.results[:-1]
        assert before.deal == after.results[-1].deal
        assert went_out == after.results[-1].went_out
        assert expected_phase_after_deal(before, after.scores) is after.phase
        assert (None, None, before.deal, before.dealer) == (after.to_act, after.obligation, after.deal, after.dealer)
        # A17: the passes in a row stay on the record, also when a player melds out before passing (A16).
        assert passes == after.passes
        assert not after.picked
        return
    asked = None
    if isinstance(action, Discard) and rules.rummy_calls and takes_alone(melds, pile[-1], rules):
        asked = next_asked(hands, seat, seat)
    if asked is not None:
        # A24: the seats holding cards are asked in turn from the discarder's left.
        assert (Phase.CALLS, asked, seat, CardSet()) == (after.phase, after.to_act, after.discarder, after.picked)
    elif isinstance(action, (Discard, Pass)):
        # R18, R21: the turn passes to the left.
        assert (Phase.DRAW, (seat + 1) % 4, CardSet()) == (after.phase, after.to_act, after.picked)
    elif before.phase is Phase.CALLED:
        # A24: once the card called on is laid off, the discarder's left draws.
        assert before.discarder is not None
        assert (Phase.DRAW, (before.discarder + 1) % 4, CardSet()) == (after.phase, after.to_act, after.picked)
    else:
        phase = Phase.DRAW if melding_before_pass else Phase.PLAY
        assert (phase, seat, picked) == (after.phase, after.to_act, after.picked)
    assert (obligation, passes, None) == (after.obligation, after.passes, after.went_out)
    assert before.results == after.results
    assert (before.deal, before.dealer) == (after.deal, after.dealer)


def deal_is_legal(state: GameState, action: Deal) -> bool:
    """
    R2, R5, R7, A4: a deal is legal at a chance node, by the right dealer, with all 56 cards once.
    """
    indices = sorted(card.index for card in action.deck)
    return state.is_chance_node and action.seat == next_dealer(state) and list(range(56)) == indices


class GameMachine(RuleBasedStateMachine):
    """
    R2, R7, R13-R22, R27: games of Persian Rummy under any rule variant, one action at a time,
    each checked against the model of its effect.
    """

    def __init__(self) -> None:
        super().__init__()
        self.start = new_game()
        self.state = self.start
        self.history: list[Action] = []

    def step(self, action: Action) -> None:
        before = self.state
        after = apply(before, action)
        check_effect(before, action, after)
        self.history.append(action)
        self.state = after

    @initialize(rules=rules_variants(), dealer=st.integers(0, 3), deck=decks())
    def deal_first(self, rules: Rules, dealer: int, deck: tuple[Card, ...]) -> None:
        """
        R5, R7: a new game under drawn rules, dealt by the drawn first dealer.
        """
        self.start = self.state = new_game(rules, dealer=dealer)
        note(f"rules changed: {rules.changes()}")
        self.step(Deal(dealer, deck))

    @precondition(lambda self: self.state.phase is not Phase.GAME_OVER)
    @rule(data=st.data())
    def play_legal(self, data: st.DataObject) -> None:
        """
        R13: any legal action (a deal at a chance node) applies and has the effect the model expects.
        """
        self.step(data.draw(actions_of(self.state)))

    @precondition(lambda self: self.state.is_chance_node)
    @rule(deck=decks())
    def deal(self, deck: tuple[Card, ...]) -> None:
        """
        R7, R27, A4: between deals the next dealer deals.
        """
        self.step(Deal(next_dealer(self.state), deck))

    @precondition(lambda self: self.state.phase is not Phase.GAME_OVER)
    @rule(seed=seeds(), count=st.integers(1, 150))
    def play_on(self, seed: int, count: int) -> None:
        """
        R13: up to *count* random legal actions (deals included), to reach deal ends and game ends.
        """
        rng = random.Random(seed)  # noqa: S311
        for _ in range(count):
            if self.state.phase is Phase.GAME_OVER:
                break
            self.step(random_action(self.state, rng))

    @rule(data=st.data())
    def try_any_action(self, data: st.DataObject) -> None:
        """
        R13: a well-formed action applies exactly when it is legal; otherwise `apply` raises
        `IllegalActionError` naming the action and a rule, and the state is unchanged.
        """
        state = self.state
        action = data.draw(well_formed_actions(state))
        if isinstance(action, Deal):
            legal = deal_is_legal(state, action)
        else:
            actions: tuple[PlayerAction, ...] = () if state.is_chance_node else legal_actions(state)
            legal = action in actions
        assert legal == is_legal(state, action)
        if legal:
            self.step(action)
            return
        snapshot = attrs.evolve(state)
        with pytest.raises(IllegalActionError) as raised:
            apply(state, action)
        note(f"rejected {action!r}: {raised.value.reason} ({raised.value.rule_text})")
        assert action is raised.value.action
        assert raised.value.rule_text
        assert snapshot == state
        assert state is self.state

    @invariant()
    def every_card_once(self) -> None:
        """
        R2: all 56 cards exactly once across hands, stock, pile and melds; the state validates.
        """
        state = self.state
        found: list[Card] = [*state.stock, *state.discard_pile]
        for hand in state.hands:
            found.extend(hand)
        for table_meld in state.melds:
            found.extend(table_meld.cards)
        expected = dict.fromkeys(FULL_DECK, 1)
        assert expected == dict(Counter(found))
        check_invariants(state)

    @invariant()
    def phase_is_consistent(self) -> None:
        """
        R13: a seat is to act exactly in the draw and play phases; chance nodes are the deal
        phases; a card taken from the pile is pending only in the play phase (R15).
        """
        state = self.state
        assert (state.to_act is None) == (state.phase not in TURN_PHASES)
        assert state.is_chance_node == (state.phase in CHANCE_PHASES)
        if state.phase is not Phase.PLAY and state.phase is not Phase.CALLED:
            assert state.obligation is None
            assert not state.picked

    @invariant()
    def passes_are_counted(self) -> None:
        """
        R21, A17: passes happen only with an empty stock, and fewer than four in a row while a deal goes on.
        """
        state = self.state
        assert 0 <= state.passes <= 4
        if state.phase in TURN_PHASES:
            assert state.passes < 4
        if state.passes:
            assert not state.stock

    @invariant()
    def deal_number_in_bounds(self) -> None:
        """
        R27, A22: the deal number runs from 1 to the last deal; a result is recorded for every
        finished deal and for no other.
        """
        state = self.state
        assert 1 <= state.deal <= last_deal(state.rules)
        finished = state.deal - (state.phase in TURN_PHASES)
        assert finished == len(state.results)

    def teardown(self) -> None:
        """
        The reducer is pure: replaying the actions from the first state gives the same state.
        """
        state = self.start
        for action in self.history:
            state = apply(state, action)
        assert self.state == state


GameMachine.TestCase.settings = settings(stateful_step_count=25, deadline=None)
TestGame = GameMachine.TestCase
