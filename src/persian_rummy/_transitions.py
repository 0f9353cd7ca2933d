"""
The transitions of the reducer: one function per type of action, each checking the action
against the state and building the next state.

`persian_rummy.apply` picks the function from `HANDLERS`.  Each one raises
`IllegalActionError` naming the rule broken, and builds the new state with
`make_state`, sharing every part of the old state that did not change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ._cardlogic import DRAW, IMMEDIATE, NO_TABLE, PLAY, RUN, forbidden_discards, laid_off, takeable, usable
from ._tables import ALL_CARDS
from .actions import Deal, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from .cards import Card
from .cardsets import EMPTY, CardSet, _card_set
from .exceptions import IllegalActionError
from .melds import JOKER_MASK, TableMeld, _table_meld, kind_of_mask
from .rules import EmptyStockEnd, NextDealer, TieBreak
from .scoring import DealEnd, score_deal
from .state import GameState, Phase, make_state


def next_dealer(state: GameState) -> int:
    """
    The seat that deals the next deal: the first dealer before the game, then as `Rules.next_dealer` says (A4).

    During a deal, the seat that will deal the following one.
    """
    if state.phase is Phase.DEAL:
        return state.dealer
    rule = state.rules.next_dealer
    if rule is NextDealer.SAME:
        return state.dealer
    if rule is NextDealer.WINNER and state.went_out is not None:
        return state.went_out
    return (state.dealer + 1) % 4


def _illegal(action: object, reason: str, rule: str) -> IllegalActionError:
    return IllegalActionError(action, reason, rule)


def _not_now(state: GameState, action: PlayerAction, phase: Phase, doing: str) -> IllegalActionError:
    """
    The error for *action* when the game is not in *phase* or it is not the action's seat's turn.
    """
    if state.phase is not phase:
        if state.phase is DRAW:
            raise _illegal(action, f"seat {state.to_act} must first draw or pass, not {doing}", "R13")
        if state.phase is PLAY:
            raise _illegal(action, f"seat {state.to_act} has drawn already; {doing} is not possible now", "R13")
        raise _illegal(action, f"no player acts in phase {state.phase.value!r}", "R13")
    if type(action.seat) is not int:
        return _illegal(action, f"a seat is a number 0-3, not {action.seat!r}", "R1")
    return _illegal(action, f"it is seat {state.to_act}'s turn, not seat {action.seat!r}'s", "R6")


def _deal(state: GameState, action: Deal) -> GameState:
    phase = state.phase
    if phase is not Phase.DEAL and phase is not Phase.DEAL_OVER:
        raise _illegal(action, f"cards are dealt only at the start of a deal, not in phase {phase.value!r}", "R7")
    dealer = next_dealer(state)
    if action.seat != dealer or type(action.seat) is not int:
        rule = "R5" if phase is Phase.DEAL else "A4"
        raise _illegal(action, f"seat {dealer} deals this deal, not seat {action.seat!r}", rule)
    deck = action.deck
    if type(deck) is not tuple or len(deck) != 56:
        raise _illegal(action, "the deck must hold 56 cards", "R2")
    seen = 0
    for card in deck:
        if type(card) is not Card:
            raise _illegal(action, f"the deck holds {card!r}, which is not a card", "R2")
        seen |= 1 << card.index
    if seen != ALL_CARDS:
        raise _illegal(action, f"the deck lacks {CardSet(ALL_CARDS & ~seen)}: every card must appear once", "R2")
    size = state.rules.hand_size
    dealt = 4 * size
    hands = [0, 0, 0, 0]
    for i in range(dealt):
        hands[(dealer + 1 + i) % 4] |= 1 << deck[i].index
    return make_state(
        state.rules,
        DRAW,
        state.deal + 1,
        dealer,
        (dealer + 1) % 4,
        (_card_set(hands[0]), _card_set(hands[1]), _card_set(hands[2]), _card_set(hands[3])),
        deck[dealt + 1 :],
        (deck[dealt],),
        (),
        None,
        EMPTY,
        (EMPTY, EMPTY, EMPTY, EMPTY),
        0,
        None,
        state.results,
        NO_TABLE,
    )


def _draw_stock(state: GameState, action: DrawStock) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, DRAW, "drawing")
    stock = state.stock
    if not stock:
        raise _illegal(action, "the stock is empty: take from the discard pile or pass", "R21")
    hands = list(state.hands)
    hands[seat] = _card_set(hands[seat].mask | 1 << stock[0].index)
    return make_state(
        state.rules,
        PLAY,
        state.deal,
        state.dealer,
        seat,
        tuple(hands),  # type: ignore[arg-type]
        stock[1:],
        state.discard_pile,
        state.melds,
        None,
        EMPTY,
        state.revealed,
        0,
        None,
        state.results,
        state._table,  # noqa: SLF001
    )


def _take_discard(state: GameState, action: TakeDiscard) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, DRAW, "taking from the discard pile")
    card = action.card
    pile = state.discard_pile
    if type(card) is not Card:
        raise _illegal(action, f"{card!r} is not a card", "R14")
    if card not in pile:
        raise _illegal(action, f"{card} is not in the discard pile", "R14")
    i = pile.index(card)
    taken = 0
    for above in pile[i:]:
        taken |= 1 << above.index
    rules = state.rules
    hand = state.hands[seat].mask
    free = rules.top_discard_free and state.stock and i == len(pile) - 1
    if not free and not takeable(card.index, hand | taken & ~(1 << card.index), state):
        raise _illegal(action, f"{card} cannot be melded or laid off at once, so it may not be taken", "R15, A12")
    hands = list(state.hands)
    hands[seat] = _card_set(hand | taken)
    revealed = list(state.revealed)
    picked = _card_set(taken)
    revealed[seat] = revealed[seat] | picked
    return make_state(
        rules,
        PLAY,
        state.deal,
        state.dealer,
        seat,
        tuple(hands),  # type: ignore[arg-type]
        state.stock,
        pile[:i],
        state.melds,
        None if free else card,
        picked,
        tuple(revealed),  # type: ignore[arg-type]
        0,
        None,
        state.results,
        state._table,  # noqa: SLF001
    )


def _cards_in_hand(state: GameState, action: LayDown | LayOff | Discard, seat: int, mask: int) -> int:
    hand = state.hands[seat].mask
    if mask & ~hand:
        missing = _card_set(mask & ~hand)
        raise _illegal(action, f"seat {seat} does not hold {missing}", "R16" if type(action) is not Discard else "R18")
    return hand


def _check_pending(state: GameState, action: LayDown | LayOff, hand: int, mask: int, after: list[int]) -> None:
    """
    Check an action that does not play the pending card from the discard pile (R15, A10, A11).

    *after* lists the table's melds as they would be after the action.
    """
    obligation: Card = state.obligation  # type: ignore[assignment]
    rules = state.rules
    if rules.obligation_timing is IMMEDIATE:
        raise _illegal(action, f"{obligation}, taken from the discard pile, must be played first", "R15, A11")
    if not usable(obligation.index, hand & ~mask, after if rules.obligation_by_layoff else ()):
        raise _illegal(action, f"this would leave {obligation} with no meld to go into", "R15, A11")


def _lay_down_action(state: GameState, action: LayDown) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, PLAY, "laying down a meld")
    cards = action.cards
    if type(cards) is not CardSet:
        raise _illegal(action, "the cards must be a CardSet", "R16")
    mask = cards.mask
    if mask.bit_count() < 3:
        raise _illegal(action, f"a meld needs three or more cards, not {len(cards)}", "R9")
    hand = _cards_in_hand(state, action, seat, mask)
    kind = kind_of_mask(mask)
    if kind is None:
        rule = "R11" if mask & JOKER_MASK else "R9"
        raise _illegal(action, f"{cards} is not a set or a run", rule)
    melds = state.melds
    obligation = state.obligation
    if obligation is not None and not mask >> obligation.index & 1:
        _check_pending(state, action, hand, mask, [*(m.cards.mask for m in melds), mask])
    meld = _table_meld(seat, cards, (EMPTY, EMPTY, EMPTY, EMPTY), mask, kind)
    direct, far, runs = state._table  # noqa: SLF001
    table = (direct | meld.ends, far | meld.reach, (*runs, mask) if kind is RUN else runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds, meld), table)


def _lay_off_action(state: GameState, action: LayOff) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, PLAY, "laying off")
    cards = action.cards
    k = action.meld
    melds = state.melds
    if type(cards) is not CardSet or not cards:
        raise _illegal(action, "lay off one or more cards", "R17")
    if type(k) is not int or not 0 <= k < len(melds):
        raise _illegal(action, f"there is no meld {k!r} on the table", "R17")
    mask = cards.mask
    hand = _cards_in_hand(state, action, seat, mask)
    meld = melds[k]
    union = laid_off(meld, mask)
    if not union:
        raise _illegal(action, f"{cards} does not extend the {meld.kind} {meld.cards}", "R17")
    obligation = state.obligation
    if obligation is not None:
        if not mask >> obligation.index & 1:
            after = [m.cards.mask for m in melds]
            after[k] = union
            _check_pending(state, action, hand, mask, after)
        elif not state.rules.obligation_by_layoff:
            raise _illegal(action, f"{obligation}, taken from the discard pile, must go into a new meld", "A10")
    layoffs = list(meld.layoffs)
    layoffs[seat] = _card_set(layoffs[seat].mask | mask)
    new = _table_meld(meld.owner, meld.laid_down, tuple(layoffs), union, meld.kind)  # type: ignore[arg-type]
    # The cards just laid off may stay in the summary's masks: they never come back into play.
    direct, far, runs = state._table  # noqa: SLF001
    if meld.kind is RUN:
        old = meld.cards.mask
        runs = tuple(union if run == old else run for run in runs)
    table = (direct | new.ends, far | new.reach, runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds[:k], new, *melds[k + 1 :]), table)


def _after_play(  # noqa: PLR0913
    state: GameState,
    seat: int,
    hand: int,
    played: int,
    melds: tuple[TableMeld, ...],
    table: tuple[int, int, tuple[int, ...]],
) -> GameState:
    hands = list(state.hands)
    hands[seat] = _card_set(hand)
    revealed = state.revealed
    if revealed[seat].mask & played:
        revealed = list(revealed)  # type: ignore[assignment]
        revealed[seat] = _card_set(revealed[seat].mask & ~played)  # type: ignore[index]
        revealed = tuple(revealed)  # type: ignore[assignment]
    obligation = state.obligation
    if obligation is not None and played >> obligation.index & 1:
        obligation = None
    if not hand:
        return _end_deal(state, tuple(hands), state.discard_pile, melds, revealed, seat, DealEnd.WENT_OUT, 0, table)  # type: ignore[arg-type]
    return make_state(
        state.rules,
        PLAY,
        state.deal,
        state.dealer,
        seat,
        tuple(hands),  # type: ignore[arg-type]
        state.stock,
        state.discard_pile,
        melds,
        obligation,
        state.picked,
        revealed,
        0,
        None,
        state.results,
        table,
    )


def _discard(state: GameState, action: Discard) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, PLAY, "discarding")
    card = action.card
    if type(card) is not Card:
        raise _illegal(action, f"{card!r} is not a card", "R18")
    bit = 1 << card.index
    hand = _cards_in_hand(state, action, seat, bit)
    if state.obligation is not None:
        raise _illegal(action, f"{state.obligation}, taken from the discard pile, must be played first", "R15, A11")
    if forbidden_discards(state, hand) & bit:
        rule = "A13" if state.rules.forbid_discarding_picked_cards else "A9"
        raise _illegal(action, f"{card} was taken from the discard pile this turn and may not be discarded", rule)
    hand &= ~bit
    hands = list(state.hands)
    hands[seat] = _card_set(hand)
    revealed = state.revealed
    if revealed[seat].mask & bit:
        revealed = list(revealed)  # type: ignore[assignment]
        revealed[seat] = _card_set(revealed[seat].mask & ~bit)  # type: ignore[index]
        revealed = tuple(revealed)  # type: ignore[assignment]
    pile = (*state.discard_pile, card)
    rules = state.rules
    if not hand and rules.go_out_by_discard:
        return _end_deal(state, tuple(hands), pile, state.melds, revealed, seat, DealEnd.WENT_OUT)  # type: ignore[arg-type]
    if not state.stock and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY:
        return _end_deal(state, tuple(hands), pile, state.melds, revealed, None, DealEnd.STOCK_EMPTY)  # type: ignore[arg-type]
    return make_state(
        rules,
        DRAW,
        state.deal,
        state.dealer,
        (seat + 1) % 4,
        tuple(hands),  # type: ignore[arg-type]
        state.stock,
        pile,
        state.melds,
        None,
        EMPTY,
        revealed,
        0,
        None,
        state.results,
        state._table,  # noqa: SLF001
    )


def _pass(state: GameState, action: Pass) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, DRAW, "passing")
    if state.stock:
        raise _illegal(action, "a player may pass only when the stock is empty", "R21")
    passes = state.passes + 1
    rules = state.rules
    end = rules.empty_stock_end
    if end is not EmptyStockEnd.ALL_PASS or passes == 4:
        return _end_deal(
            state, state.hands, state.discard_pile, state.melds, state.revealed, None, DealEnd.PASSES, passes
        )
    return make_state(
        rules,
        DRAW,
        state.deal,
        state.dealer,
        (seat + 1) % 4,
        state.hands,
        state.stock,
        state.discard_pile,
        state.melds,
        None,
        EMPTY,
        state.revealed,
        passes,
        None,
        state.results,
        state._table,  # noqa: SLF001
    )


def _end_deal(  # noqa: PLR0913
    state: GameState,
    hands: tuple[CardSet, CardSet, CardSet, CardSet],
    pile: tuple[Card, ...],
    melds: tuple[TableMeld, ...],
    revealed: tuple[CardSet, CardSet, CardSet, CardSet],
    went_out: int | None,
    end: DealEnd,
    passes: int = 0,
    table: tuple[int, int, tuple[int, ...]] | None = None,
) -> GameState:
    rules = state.rules
    score = score_deal(hands, melds, went_out, rules=rules, deal=state.deal, end=end)
    results = (*state.results, score)
    phase = Phase.DEAL_OVER
    if state.deal >= rules.num_deals:
        totals = (sum(r.teams[0].total for r in results), sum(r.teams[1].total for r in results))
        extra = rules.tie_break is TieBreak.EXTRA_DEAL and state.deal == rules.num_deals and totals[0] == totals[1]
        if not extra:
            phase = Phase.GAME_OVER
    return make_state(
        rules,
        phase,
        state.deal,
        state.dealer,
        None,
        hands,
        state.stock,
        pile,
        melds,
        None,
        EMPTY,
        revealed,
        passes,
        went_out,
        results,
        state._table if table is None else table,  # noqa: SLF001
    )


HANDLERS: Final[dict[type, Callable[[GameState, object], GameState]]] = {
    Deal: _deal,  # type: ignore[dict-item]
    DrawStock: _draw_stock,  # type: ignore[dict-item]
    TakeDiscard: _take_discard,  # type: ignore[dict-item]
    LayDown: _lay_down_action,  # type: ignore[dict-item]
    LayOff: _lay_off_action,  # type: ignore[dict-item]
    Discard: _discard,  # type: ignore[dict-item]
    Pass: _pass,  # type: ignore[dict-item]
}
