"""
The greedy player's choice (`persian_rummy.bots.players.GreedyPlayer`): what a hand could meld at once,
the take from the discard pile that adds most to it, the card that helps least towards a meld.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final, assert_never

from ..actions import CallRummy, Discard, DrawStock, LayDown, LayOff, Pass, TakeDiscard
from ..exceptions import InvalidValueError
from ..masks import JOKER_MASK, RANK_MASKS, lay_downs, meld_points
from ..rules import Rules
from ..state import GameState, Phase, View
from .heuristics import meld_value

if TYPE_CHECKING:
    from ..actions import PlayerAction
    from ..melds import TableMeld

#: The jokers, as a mask of card bits, and the first joker's number; a wild joker's keep score (A7).
_JOKERS: Final = JOKER_MASK
_FIRST_JOKER: Final = 52
_WILD_KEEP: Final = 1 << 29
#: What a card left in hand is reckoned to cost, as a share of its points, when weighing a take.
_LEFT_IN_HAND: Final = 0.5
#: What a card drawn from the stock is reckoned to bring, in points, when weighing a take.
_STOCK_DRAW: Final = 2.0
#: How much a card in hand is worth keeping for each card of its rank, each next to it in its
#: suit, and each two places from it.
_KEEP_SAME, _KEEP_NEXT, _KEEP_GAP = 6, 4, 2
#: For each card, the other cards of its rank (the other jokers for a joker).
_SAME_RANK: Final = tuple(RANK_MASKS[13 if i >= _FIRST_JOKER else i % 13] & ~(1 << i) for i in range(56))
#: For card ``t``, ``(hand << 2 >> t) & _NEAR[t]`` holds the cards of *hand* next to it in its suit
#: (bits 1 and 3) and two places from it (bits 0 and 4), none past the 2 or the ace; none for a joker.
_NEAR: Final = tuple(
    sum(1 << k for k in (0, 1, 3, 4) if 0 <= i % 13 - 2 + k <= 12) if i < _FIRST_JOKER else 0 for i in range(56)
)


def _meld_points(action: LayDown | LayOff, rules: Rules) -> int:
    match action:
        case LayDown():
            stand_ins = action.stand_ins
            return (
                meld_value(action.cards, rules, stand_ins=stand_ins) if stand_ins else meld_value(action.cards, rules)
            )
        case LayOff():
            return rules.card_values.mask_points(action.cards.mask)


def _plan(hand: int, table: int, rules: Rules) -> tuple[int, int]:
    """
    The points *hand* could meld now, laying down the most valuable meld while there is one and
    then laying off the cards that extend a meld of *table* (the cards that do, as a mask), and
    the cards it would keep.
    """
    ace_low = rules.ace_low_allowed
    melded = 0
    while True:
        masks = lay_downs(hand, ace_low=ace_low)
        if not masks:
            break
        value, best = max((meld_points(mask, rules), mask) for mask in masks)
        melded += value
        hand &= ~best
    fits = hand & table
    return melded + rules.card_values.mask_points(fits), hand & ~fits


def _worth(hand: int, table: int, rules: Rules) -> float:
    """
    What *hand* is reckoned to be worth: the points it could meld now, less a share of those it would keep.
    """
    if rules.jokers_wild:  # a wild joker goes into some meld sooner or later: it counts as melded (A7)
        jokers = hand & _JOKERS
        melded, kept = _plan(hand & ~jokers, table, rules)
        melded += rules.card_values.mask_points(jokers)
    else:
        melded, kept = _plan(hand, table, rules)
    return melded - _LEFT_IN_HAND * rules.card_values.mask_points(kept)


def _keep_score(card: int, hand: int) -> int:
    """
    How much card number *card* of *hand* helps towards a meld: the cards of its rank in hand,
    and those next to it and two places from it in its suit (R10-R12).
    """
    score = _KEEP_SAME * (hand & _SAME_RANK[card]).bit_count()
    if card < _FIRST_JOKER:
        window = (hand << 2 >> card) & _NEAR[card]
        score += _KEEP_NEXT * ((window >> 1 & 1) + (window >> 3 & 1)) + _KEEP_GAP * ((window & 1) + (window >> 4 & 1))
    return score


def _least_useful(discards: list[Discard], hand: int, rules: Rules) -> Discard:
    """
    The discard of the card that helps least towards a meld, the one of most points among
    those (under *rules*).
    """
    values = rules.card_values
    wild = rules.jokers_wild
    best = discards[0]
    best_key = (1 << 30, 0)
    for action in discards:
        card = action.card.index
        # A wild joker helps towards any meld (A7): it is kept while another card can go.
        key = (_WILD_KEEP if wild and card >= _FIRST_JOKER else _keep_score(card, hand), -values.card(card))
        if key < best_key:
            best, best_key = action, key
    return best


def _table_ends(melds: tuple[TableMeld, ...]) -> int:
    ends = 0
    for meld in melds:
        ends |= meld.ends
    return ends


def _best_take(
    position: GameState | View, hand: int, takes: list[TakeDiscard], table: int
) -> tuple[float, TakeDiscard | None]:
    """
    The take from the discard pile that adds most to what the hand is worth (`_worth`), and how much.
    """
    rules = position.rules
    base = _worth(hand, table, rules)
    best: tuple[float, TakeDiscard | None] = (-math.inf, None)
    pile = position.discard_pile
    taken = 0
    i = len(pile) - 1
    for action in takes:  # from the top of the pile down, as legal_actions lists them
        while i >= 0 and pile[i] != action.card:
            taken |= 1 << pile[i].index
            i -= 1
        taken |= 1 << pile[i].index
        i -= 1
        gain = _worth(hand | taken, table, rules) - base
        if gain > best[0]:
            best = (gain, action)
    return best


def _draw_choice(position: GameState | View, hand: int, actions: tuple[PlayerAction, ...]) -> PlayerAction:
    takes: list[TakeDiscard] = []
    melds: list[LayDown | LayOff] = []
    for action in actions:
        match action:
            case TakeDiscard():
                takes.append(action)
            case LayDown() | LayOff():
                melds.append(action)
            case DrawStock() | Pass() | Discard():
                pass
    draw_first = actions[0] if type(actions[0]) is DrawStock else None
    if takes:
        gain, take = _best_take(position, hand, takes, _table_ends(position.melds))
        if take is not None and gain > (_STOCK_DRAW if draw_first is not None else 0.0):
            return take
    if melds:
        return _most_points(melds, position.rules)
    return draw_first or actions[-1]


def _most_points(melds: list[LayDown | LayOff], rules: Rules) -> PlayerAction:
    best = melds[0]
    best_value = -1
    for action in melds:
        value = _meld_points(action, rules)
        if value > best_value:
            best, best_value = action, value
    return best


def _play_choice(position: GameState | View, hand: int, actions: tuple[PlayerAction, ...]) -> PlayerAction:
    melds: list[LayDown | LayOff] = []
    discards: list[Discard] = []
    for action in actions:
        match action:
            case LayDown() | LayOff():
                melds.append(action)
            case Discard():
                discards.append(action)
            case DrawStock() | TakeDiscard() | Pass():
                pass
    if melds:
        return _most_points(melds, position.rules)
    return _least_useful(discards, hand, position.rules)


def choice(position: GameState | View, hand: int, actions: tuple[PlayerAction, ...]) -> PlayerAction:
    """
    The greedy action among *actions*, the legal actions at *position*, whose seat to act holds
    *hand* (a mask).

    Raises:
        InvalidValueError: no seat is to act at *position*.
    """
    if len(actions) == 1:
        return actions[0]
    phase = position.phase
    if phase is Phase.PLAY:
        return _play_choice(position, hand, actions)
    if phase is Phase.DRAW:
        return _draw_choice(position, hand, actions)
    if phase is Phase.CALLS:  # a lay-off only adds points: call whenever asked (A24)
        return next(action for action in actions if type(action) is CallRummy)
    if phase is Phase.CALLED:
        return _most_points([action for action in actions if type(action) is LayOff], position.rules)
    if phase is Phase.DEAL or phase is Phase.DEAL_OVER or phase is Phase.GAME_OVER:
        msg = f"no seat is to act in phase {phase.value!r}: there is no action to choose"
        raise InvalidValueError(msg)
    assert_never(phase)
