"""
The reducer: `apply`, `legal_actions` and the questions about how a game stands.

`apply` is pure: it returns a new state and never changes the one passed in;
it uses no randomness (a deal's card order arrives inside the `Deal` action).
An action that may not be applied raises `IllegalActionError`, naming the
action, the reason and the rule.

>>> import random
>>> from persian_rummy import DrawStock, new_game
>>> state = apply(new_game(), random_deal(new_game(), random.Random(7)))
>>> state.phase, state.to_act, [len(hand) for hand in state.hands], len(state.stock)
(<Phase.DRAW: 'draw'>, 1, [7, 7, 7, 7], 27)
>>> legal_actions(state)[0]
DrawStock(seat=1)
>>> apply(state, DrawStock(seat=2))
Traceback (most recent call last):
...
persian_rummy.exceptions.IllegalActionError: illegal action DrawStock(seat=2): it is seat 1's turn, not seat 2's (R6)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from attrs import frozen

from ._tables import (
    ALL_CARDS,
    GROUP,
    GROUP_OTHERS,
    ROW,
    ROW_RUNS,
    RUN_OK,
    RUN_WINDOW,
    SUIT_BLOCK,
    group_melds,
)
from .actions import (
    DRAW_STOCK,
    PASS,
    Action,
    Deal,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
)
from .cards import FULL_DECK, Card
from .cardsets import EMPTY, CardSet, _card_set
from .exceptions import ChanceNodeError, IllegalActionError
from .melds import JOKER_MASK, RANK_MASKS, MeldKind, TableMeld, _table_meld, kind_of_mask
from .rules import EmptyStockEnd, NextDealer, ObligationTiming, Rules, TieBreak
from .scoring import DealEnd, score_deal
from .state import GameState, Phase, make_state
from .views import View, ViewError, stand_in

__all__ = [
    "Outcome",
    "apply",
    "check_legal",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "legal_actions",
    "max_deal_length",
    "max_game_length",
    "next_dealer",
    "outcome",
    "random_deal",
]


def __dir__() -> list[str]:
    return __all__


_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_SET: Final = MeldKind.SET
_RUN: Final = MeldKind.RUN
_IMMEDIATE: Final = ObligationTiming.IMMEDIATE
_new = object.__new__
_set = object.__setattr__

# -- action objects, built once and handed out by legal_actions() ---------------------------------------------

_TAKE: Final = tuple(tuple(TakeDiscard(seat, card) for card in FULL_DECK) for seat in range(4))
_DISCARD: Final = tuple(tuple(Discard(seat, card) for card in FULL_DECK) for seat in range(4))
# Discards by seat, then by suit and the 13-bit row of the hand's cards in that suit (filled as needed),
# and by the four joker bits.
_DISCARDS: Final[tuple[tuple[dict[int, tuple[Discard, ...]], ...], ...]] = tuple(
    (
        *({} for _ in range(4)),
        {j: tuple(_DISCARD[seat][52 + i] for i in range(4) if j >> i & 1) for j in range(16)},
    )
    for seat in range(4)
)


def _discard_row(seat: int, suit: int, row: int) -> tuple[Discard, ...]:
    actions = tuple(_DISCARD[seat][13 * suit + i] for i in range(13) if row >> i & 1)
    _DISCARDS[seat][suit][row] = actions
    return actions


_THREE_JOKERS: Final = frozenset(j for j in range(16) if j.bit_count() >= 3)
_LAY_DOWNS: dict[tuple[int, int], LayDown] = {}
_LAY_OFFS: dict[tuple[int, int, int], LayOff] = {}


def _lay_down(seat: int, mask: int) -> LayDown:
    key = (seat, mask)
    action = _LAY_DOWNS.get(key)
    if action is None:
        action = _new(LayDown)
        _set(action, "seat", seat)
        _set(action, "cards", _card_set(mask))
        _LAY_DOWNS[key] = action
    return action


def _lay_off(seat: int, meld: int, mask: int) -> LayOff:
    key = (seat, meld, mask)
    action = _LAY_OFFS.get(key)
    if action is None:
        action = _new(LayOff)
        _set(action, "seat", seat)
        _set(action, "meld", meld)
        _set(action, "cards", _card_set(mask))
        _LAY_OFFS[key] = action
    return action


# -- card logic on bit masks -----------------------------------------------------------------------------------


def _fits(meld: int, t: int, avail: int) -> bool:
    """
    Whether card *t* can be laid off onto the meld *meld*, with the cards of *avail* bridging a gap to a run.
    """
    lo = (meld & -meld).bit_length() - 1
    group = GROUP[lo]
    if meld & ~group == 0:  # a set
        return meld.bit_count() == 3 and group >> t & 1 == 1
    if SUIT_BLOCK[t] != SUIT_BLOCK[lo]:
        return False
    if t < lo:
        need = (1 << lo) - (2 << t)
        return avail & need == need
    hi = meld.bit_length() - 1
    if t > hi:
        need = (1 << t) - (2 << hi)
        return avail & need == need
    return False


def _reaches(run: int, t: int, avail: int) -> bool:
    """
    Whether card *t*, of the run's suit, can be laid off onto *run* with the cards of *avail* filling the gap.
    """
    lo = (run & -run).bit_length() - 1
    if t < lo:
        need = (1 << lo) - (2 << t)
    else:
        hi = run.bit_length() - 1
        need = (1 << t) - (2 << hi)
    return need >= 0 and avail & need == need and SUIT_BLOCK[lo] >> t & 1 == 1


_NO_TABLE: Final = (0, 0, ())


def _table_info(state: GameState) -> tuple[int, int, tuple[int, ...]]:
    """
    The engine's summary of the table (`summarize_table`), which every state carries.
    """
    return state._table  # noqa: SLF001


def _usable(t: int, avail: int, melds: list[int] | tuple[int, ...]) -> bool:
    """
    Whether card *t* can be played at once (A12): in a new meld with cards of *avail*, or laid off onto *melds*.
    """
    others = avail & GROUP_OTHERS[t]
    if others & (others - 1) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]:
        return True
    return any(_fits(meld, t, avail) for meld in melds)


def _takeable(t: int, avail: int, state: GameState) -> bool:
    """
    Whether card *t* of the discard pile may be taken (R15, A10, A12): it can go into a new meld
    with the cards of *avail*, or (when the rules allow) be laid off onto the table's melds.
    """
    others = avail & GROUP_OTHERS[t]
    if others & (others - 1) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]:
        return True
    if not state.rules.obligation_by_layoff:
        return False
    direct, far, runs = _table_info(state)
    if direct >> t & 1:
        return True
    block = SUIT_BLOCK[t]
    return bool(far >> t & 1) and any(run & block and _reaches(run, t, avail) for run in runs)


def _set_masks(hand: int, three: int) -> list[int]:
    """
    The sets that can be laid down from *hand*; *three* has bit ``r`` set for each rank offset held three times.
    """
    result: list[int] = []
    while three:
        low = three & -three
        three ^= low
        result.extend(group_melds(hand & RANK_MASKS[low.bit_length() - 1]))
    jokers = hand & JOKER_MASK
    if jokers.bit_count() >= 3:
        result.extend(group_melds(jokers))
    return result


def _lay_down_masks(hand: int) -> list[int]:
    """
    Every meld that can be laid down from *hand*: sets by rank, joker sets, then runs by suit.
    """
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    result = _set_masks(hand, (a & b & (c | d)) | (c & d & (a | b)))
    for shift, row in ((0, a), (13, b), (26, c), (39, d)):
        result.extend(run << shift for run in ROW_RUNS[row])
    return result


_RUN_LAY_DOWNS: Final[tuple[tuple[dict[int, tuple[LayDown, ...]], ...], ...]] = tuple(
    tuple({} for _ in range(4)) for _ in range(4)
)


def _run_lay_downs(seat: int, suit: int, row: int) -> tuple[LayDown, ...]:
    """
    The runs *seat* can lay down from the cards *row* of *suit*, as actions (cached).
    """
    cache = _RUN_LAY_DOWNS[seat][suit]
    actions = cache.get(row)
    if actions is None:
        actions = cache[row] = tuple(_lay_down(seat, run << (13 * suit)) for run in ROW_RUNS[row])
    return actions


def _lay_off_masks(meld: TableMeld, hand: int) -> list[int]:
    """
    Every group of cards from *hand* that can be laid off onto *meld* in one action.
    """
    mask = meld.cards.mask
    if meld.kind is _SET:
        if mask.bit_count() == 3:
            lo = (mask & -mask).bit_length() - 1
            extra = hand & GROUP[lo]
            if extra:
                return [extra]
        return []
    result = []
    lo = (mask & -mask).bit_length() - 1
    base = lo - lo % 13
    chain = 0
    card = lo - 1
    while card >= base and hand >> card & 1:
        chain |= 1 << card
        result.append(chain)
        card -= 1
    chain = 0
    card = mask.bit_length()
    while card <= base + 12 and hand >> card & 1:
        chain |= 1 << card
        result.append(chain)
        card += 1
    return result


def _laid_off(meld: TableMeld, mask: int) -> int:
    """
    The meld's cards with *mask* laid off onto them, or 0 when that is not a valid lay-off (R17).
    """
    cards = meld.cards.mask
    union = cards | mask
    lo = (cards & -cards).bit_length() - 1
    if meld.kind is _SET:
        return union if union & ~GROUP[lo] == 0 and union.bit_count() <= 4 else 0
    block = SUIT_BLOCK[lo]
    if union & ~block:
        return 0
    low = (mask & -mask).bit_length() - 1
    part = mask >> low
    whole = union >> (union & -union).bit_length() - 1
    if part & (part + 1) or whole & (whole + 1):
        return 0
    return union


# -- legal actions ---------------------------------------------------------------------------------------------


def legal_actions(state: GameState | View) -> tuple[PlayerAction, ...]:
    """
    Every legal action of the seat to act, and nothing else, in a fixed order.

    *state* may also be the `View` of the seat to act: its legal actions are the same
    whatever the cards it cannot see.

    In the draw phase: `DrawStock`, then `TakeDiscard` from the top of the pile
    down, then `Pass`.  In the play phase: `LayDown` (sets by rank, then runs by
    suit), `LayOff` (by meld), then `Discard` (in `FULL_DECK` order).  After the
    game there are none.

    Raises:
        ChanceNodeError: the next action is a `Deal`, which is not chosen by a player.
        ViewError: *state* is a view of another seat than the one to act.
    """
    if isinstance(state, View):
        return _view_actions(state)
    phase = state.phase
    if phase is _DRAW:
        return _draw_actions(state)
    if phase is _PLAY:
        return _play_actions(state)
    if phase is Phase.GAME_OVER:
        return ()
    msg = f"the next action is a Deal by seat {next_dealer(state)}: build one with random_deal(state, rng)"
    raise ChanceNodeError(msg)


def _view_actions(view: View) -> tuple[PlayerAction, ...]:
    if view.to_act is not None and view.seat != view.to_act:
        who = "a spectator" if view.seat is None else f"seat {view.seat}"
        msg = f"the view of {who} does not show the cards of seat {view.to_act}, whose turn it is"
        raise ViewError(msg)
    return legal_actions(stand_in(view))


def _draw_actions(state: GameState) -> tuple[PlayerAction, ...]:
    seat: int = state.to_act  # type: ignore[assignment]
    stock = state.stock
    pile = state.discard_pile
    rules = state.rules
    actions: list[PlayerAction] = [DRAW_STOCK[seat]] if stock else []
    if pile:
        take = _TAKE[seat]
        avail = state.hands[seat].mask
        direct, far, _ = _table_info(state) if rules.obligation_by_layoff else _NO_TABLE
        i = len(pile) - 1
        if stock and rules.top_discard_free:
            t = pile[i].index
            actions.append(take[t])
            avail |= 1 << t
            i -= 1
        while i >= 0:
            t = pile[i].index
            i -= 1
            others = avail & GROUP_OTHERS[t]
            if direct >> t & 1 or others & (others - 1) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]:
                actions.append(take[t])
            elif far >> t & 1 and avail << 1 >> t & 5 and _takeable(t, avail, state):
                # a card beyond a run's end, with a neighbour in hand that may bridge the gap
                actions.append(take[t])
            avail |= 1 << t
    if not stock:
        actions.append(PASS[seat])
    return tuple(actions)


def _play_actions(state: GameState) -> tuple[PlayerAction, ...]:  # noqa: C901, PLR0912 (hot path, kept inline)
    seat: int = state.to_act  # type: ignore[assignment]
    hand = state.hands[seat].mask
    if state.obligation is not None:
        return _pending_actions(state, seat, hand, state.obligation.index)
    actions: list[PlayerAction] = []
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three or hand >> 52 in _THREE_JOKERS:
        actions.extend([_lay_down(seat, mask) for mask in _set_masks(hand, three)])
    for suit, row in ((0, a), (1, b), (2, c), (3, d)):
        if row & row >> 1 & row >> 2:
            actions.extend(_run_lay_downs(seat, suit, row))
    melds = state.melds
    if hand & _table_info(state)[0]:
        for k, meld in enumerate(melds):
            if hand & meld.ends:
                actions.extend([_lay_off(seat, k, mask) for mask in _lay_off_masks(meld, hand)])
    if state.picked.mask:
        hand &= ~_forbidden_discards(state, hand)
        a = hand & ROW
        b = hand >> 13 & ROW
        c = hand >> 26 & ROW
        d = hand >> 39 & ROW
    discards = _DISCARDS[seat]
    if a:
        actions.extend(discards[0].get(a) or _discard_row(seat, 0, a))
    if b:
        actions.extend(discards[1].get(b) or _discard_row(seat, 1, b))
    if c:
        actions.extend(discards[2].get(c) or _discard_row(seat, 2, c))
    if d:
        actions.extend(discards[3].get(d) or _discard_row(seat, 3, d))
    if hand >> 52:
        actions.extend(discards[4][hand >> 52])
    return tuple(actions)


def _pending_actions(state: GameState, seat: int, hand: int, t: int) -> tuple[PlayerAction, ...]:
    """
    The play-phase actions while card *t*, taken from the discard pile, is still to be played (R15, A10, A11).

    With the immediate obligation only melds and lay-offs that contain it;
    otherwise also any meld or lay-off that leaves it a way to be played.
    """
    rules = state.rules
    by_layoff = rules.obligation_by_layoff
    melds = state.melds
    if rules.obligation_timing is _IMMEDIATE:
        return _actions_with(seat, hand, t, melds if by_layoff else ())
    bit = 1 << t
    table = [meld.cards.mask for meld in melds] if by_layoff else []
    actions: list[PlayerAction] = [
        _lay_down(seat, mask)
        for mask in _lay_down_masks(hand)
        if mask & bit or _usable(t, hand & ~mask, [*table, mask] if by_layoff else ())
    ]
    for k, meld in enumerate(melds):
        if not hand & meld.ends:
            continue
        for mask in _lay_off_masks(meld, hand):
            if mask & bit:
                keep = by_layoff
            else:
                after = table.copy()
                if after:
                    after[k] |= mask
                keep = _usable(t, hand & ~mask, after)
            if keep:
                actions.append(_lay_off(seat, k, mask))
    return tuple(actions)


def _actions_with(seat: int, hand: int, t: int, melds: tuple[TableMeld, ...]) -> tuple[PlayerAction, ...]:
    """
    The melds and lay-offs (onto *melds*) from *hand* that contain card *t*, in `legal_actions` order.
    """
    bit = 1 << t
    group = hand & GROUP[t]
    actions: list[PlayerAction] = (
        [_lay_down(seat, mask) for mask in group_melds(group) if mask & bit] if group.bit_count() >= 3 else []
    )
    if t < 52:
        shift = t - t % 13
        offset = t - shift
        actions.extend(_lay_down(seat, run << shift) for run in ROW_RUNS[hand >> shift & ROW] if run >> offset & 1)
    for k, meld in enumerate(melds):
        if hand & meld.ends:
            actions.extend(_lay_off(seat, k, mask) for mask in _lay_off_masks(meld, hand) if mask & bit)
    return tuple(actions)


def _forbidden_discards(state: GameState, hand: int) -> int:
    """
    Cards of *hand* that may not be discarded this turn (A13; A9's free top card).
    """
    picked = state.picked.mask
    if not picked:
        return 0
    rules = state.rules
    if rules.forbid_discarding_picked_cards or (rules.top_discard_free and picked.bit_count() == 1):
        forbidden = picked & hand
        return 0 if forbidden == hand else forbidden
    return 0


# -- apply -----------------------------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """
    The state after *action*; *state* itself is never changed.

    Raises:
        IllegalActionError: *action* may not be applied to *state*: not an action,
            wrong phase, wrong seat, a card that is not where the action needs it,
            a meld that is not valid, a rule broken.  The error names the rule.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError(action, "not an action of this game", "R13")
    return handler(state, action)


def _illegal(action: object, reason: str, rule: str) -> IllegalActionError:
    return IllegalActionError(action, reason, rule)


def _not_now(state: GameState, action: PlayerAction, phase: Phase, doing: str) -> IllegalActionError:
    """
    The error for *action* when the game is not in *phase* or it is not the action's seat's turn.
    """
    if state.phase is not phase:
        if state.phase is _DRAW:
            raise _illegal(action, f"seat {state.to_act} must first draw or pass, not {doing}", "R13")
        if state.phase is _PLAY:
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
        _DRAW,
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
        _NO_TABLE,
    )


def _draw_stock(state: GameState, action: DrawStock) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not _DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _DRAW, "drawing")
    stock = state.stock
    if not stock:
        raise _illegal(action, "the stock is empty: take from the discard pile or pass", "R21")
    hands = list(state.hands)
    hands[seat] = _card_set(hands[seat].mask | 1 << stock[0].index)
    return make_state(
        state.rules,
        _PLAY,
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
    if state.phase is not _DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _DRAW, "taking from the discard pile")
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
    if not free and not _takeable(card.index, hand | taken & ~(1 << card.index), state):
        raise _illegal(action, f"{card} cannot be melded or laid off at once, so it may not be taken", "R15, A12")
    hands = list(state.hands)
    hands[seat] = _card_set(hand | taken)
    revealed = list(state.revealed)
    picked = _card_set(taken)
    revealed[seat] = revealed[seat] | picked
    return make_state(
        rules,
        _PLAY,
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
    if rules.obligation_timing is _IMMEDIATE:
        raise _illegal(action, f"{obligation}, taken from the discard pile, must be played first", "R15, A11")
    if not _usable(obligation.index, hand & ~mask, after if rules.obligation_by_layoff else ()):
        raise _illegal(action, f"this would leave {obligation} with no meld to go into", "R15, A11")


def _lay_down_action(state: GameState, action: LayDown) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not _PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _PLAY, "laying down a meld")
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
    table = (direct | meld.ends, far | meld.reach, (*runs, mask) if kind is _RUN else runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds, meld), table)


def _lay_off_action(state: GameState, action: LayOff) -> GameState:
    seat: int = state.to_act  # type: ignore[assignment]
    if state.phase is not _PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _PLAY, "laying off")
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
    union = _laid_off(meld, mask)
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
    if meld.kind is _RUN:
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
        _PLAY,
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
    if state.phase is not _PLAY or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _PLAY, "discarding")
    card = action.card
    if type(card) is not Card:
        raise _illegal(action, f"{card!r} is not a card", "R18")
    bit = 1 << card.index
    hand = _cards_in_hand(state, action, seat, bit)
    if state.obligation is not None:
        raise _illegal(action, f"{state.obligation}, taken from the discard pile, must be played first", "R15, A11")
    if _forbidden_discards(state, hand) & bit:
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
        _DRAW,
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
    if state.phase is not _DRAW or action.seat != seat or type(action.seat) is not int:
        raise _not_now(state, action, _DRAW, "passing")
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
        _DRAW,
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


_HANDLERS: Final[dict[type, Callable[[GameState, object], GameState]]] = {
    Deal: _deal,  # type: ignore[dict-item]
    DrawStock: _draw_stock,  # type: ignore[dict-item]
    TakeDiscard: _take_discard,  # type: ignore[dict-item]
    LayDown: _lay_down_action,  # type: ignore[dict-item]
    LayOff: _lay_off_action,  # type: ignore[dict-item]
    Discard: _discard,  # type: ignore[dict-item]
    Pass: _pass,  # type: ignore[dict-item]
}


def check_legal(state: GameState, action: Action) -> None:
    """
    Raise `IllegalActionError` when *action* may not be applied to *state*; return `None` otherwise.
    """
    apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    """
    Whether *action* may be applied to *state*.

    For a player's action this agrees with ``action in legal_actions(state)``, seats and
    meld indices being `int` values (``True == 1`` in Python, so ``DrawStock(True)`` compares
    equal to ``DrawStock(1)``, but a seat must be an `int` and is refused otherwise).
    """
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


# -- dealing and the end of the game ---------------------------------------------------------------------------


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


def random_deal(state: GameState, rng: random.Random) -> Deal:
    """
    A `Deal` for the next deal of *state*, with the deck shuffled by *rng*.

    The same seed gives the same deal, so games replay exactly.
    """
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return Deal(next_dealer(state), tuple(deck))


def is_deal_over(state: GameState) -> bool:
    """
    Whether the current deal has ended (R19, R22): the next action is the next deal, or the game is over.
    """
    return state.phase is Phase.DEAL_OVER or state.phase is Phase.GAME_OVER


def is_game_over(state: GameState) -> bool:
    """
    Whether the game has ended (R27).
    """
    return state.phase is Phase.GAME_OVER


def max_deal_length(rules: Rules) -> int | None:
    """
    An upper bound on the number of actions in one deal, the `Deal` included; `None` when there is none.

    The bound: a turn that starts by drawing from the stock happens at most once per
    stock card; a turn that takes from the discard pile plays at least one card and
    discards one, so it lowers the number of cards in hands and pile by at least one,
    and that number never exceeds 56; each such turn is a draw and a discard, plus
    melds and lay-offs, of which there are at most 56 in a deal since each puts a card
    on the table for good; passes come at most three in a row between two such turns, and a
    fourth ends the deal (R21, A17).  With
    `Rules.top_discard_free` a deal can go on for ever (the top card taken and
    another discarded, turn after turn), so there is no bound.

    >>> from persian_rummy import Rules
    >>> max_deal_length(Rules())
    395
    """
    if rules.top_discard_free:
        return None
    stock = 56 - 4 * rules.hand_size - 1
    pile_turns = 56
    passes = 3 * (pile_turns + 1) + 1 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1
    return 1 + 2 * (stock + pile_turns) + 56 + passes


def max_game_length(rules: Rules) -> int | None:
    """
    An upper bound on the number of actions in a game, every `Deal` included; `None` when there is none.

    >>> from persian_rummy import Rules
    >>> max_game_length(Rules())
    790
    """
    per_deal = max_deal_length(rules)
    if per_deal is None:
        return None
    return per_deal * (rules.num_deals + (rules.tie_break is TieBreak.EXTRA_DEAL))


@frozen
class Outcome:
    """
    The result of a finished game (R28).

    Attributes:
        scores: Each team's total over all deals.
        winner: The winning team (0: seats 0 and 2; 1: seats 1 and 3), or `None` for a draw (A22).
    """

    scores: tuple[int, int]
    winner: int | None

    @property
    def is_draw(self) -> bool:
        """
        Whether the teams finished level.
        """
        return self.winner is None


def outcome(state: GameState) -> Outcome | None:
    """
    The result of the game, or `None` while it is still going on.
    """
    if state.phase is not Phase.GAME_OVER:
        return None
    scores = state.scores
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Outcome(scores, winner)
