"""
Legal-move enumeration: every action the seat to act may take, in `legal_actions` order,
and the action objects it hands out, each built once and shared.

`persian_rummy.legal_actions` calls `draw_actions` or `play_actions` with the hand of the seat
to act; a state and the view of the seat to act give the same answer, since nothing here
looks at a card the seat cannot see.
"""

from __future__ import annotations

from typing import Final

from ..actions import CallRummy, DeclineCall, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from ..cards import FULL_DECK
from ..cardsets import CardSet
from ..melds import StandIns, TableMeld
from ..rules import ObligationTiming
from .build import single
from .cardlogic import (
    Position,
    WildPlay,
    blocked_cards,
    call_lay_offs,
    called_joker_lay_offs,
    forbidden_discards,
    joker_order,
    lay_down_masks,
    lay_off_masks,
    play_represents,
    set_masks,
    takeable,
    usable,
    wild_lay_downs,
    wild_lay_offs,
    wild_takeable,
    wild_usable,
)
from .seats import SEATS
from .tables import GROUP, GROUP_OTHERS, LOW_TRIPLE, ROW, ROW_RUNS, RUN_OK, RUN_WINDOW, group_melds, low_runs
from .unchecked import NO_STAND_INS as _NO_STAND_INS
from .unchecked import new_lay_down, new_lay_off

IMMEDIATE: Final = ObligationTiming.IMMEDIATE

# -- the action objects, built once -----------------------------------------------------------------------------

_card_set: Final = single(CardSet, int)
_lay_down: Final = new_lay_down
_lay_off: Final = new_lay_off

DRAW_STOCK: Final = tuple(DrawStock(seat) for seat in SEATS)
PASS: Final = tuple(Pass(seat) for seat in SEATS)
# What a seat asked about a discard may answer (A24): decline, then call.
ANSWERS: Final = tuple((DeclineCall(seat), CallRummy(seat)) for seat in SEATS)
TAKE: Final = tuple(tuple(TakeDiscard(seat, card) for card in FULL_DECK) for seat in SEATS)
DISCARD: Final = tuple(tuple(Discard(seat, card) for card in FULL_DECK) for seat in SEATS)
# Discards by seat, then by suit and the 13-bit row of the hand's cards in that suit (filled as needed),
# and by the four joker bits.
_DISCARDS: Final[tuple[tuple[dict[int, tuple[Discard, ...]], ...], ...]] = tuple(
    (
        *({} for _ in range(4)),
        {j: tuple(DISCARD[seat][52 + i] for i in range(4) if j >> i & 1) for j in range(16)},
    )
    for seat in range(4)
)
_THREE_JOKERS: Final = frozenset(j for j in range(16) if j.bit_count() >= 3)
# The ace and the 2 of a suit, in its row: a run that takes the ace low holds both (A8).
_ACE_AND_TWO: Final = 1 << 12 | 1
_LAY_DOWNS: dict[tuple[int, int], LayDown] = {}
_LAY_OFFS: dict[tuple[int, int, int], LayOff] = {}
# Runs by seat, suit and row of the hand (filled as needed); the second set holds those with a low ace (A8).
_RUN_LAY_DOWNS: Final[tuple[tuple[tuple[dict[int, tuple[LayDown, ...]], ...], ...], ...]] = tuple(
    tuple(tuple({} for _ in range(4)) for _ in range(4)) for _ in range(2)
)


def _discard_row(seat: int, suit: int, row: int) -> tuple[Discard, ...]:
    actions = tuple(DISCARD[seat][13 * suit + i] for i in range(13) if row >> i & 1)
    _DISCARDS[seat][suit][row] = actions
    return actions


def lay_down(seat: int, mask: int) -> LayDown:
    """
    The action of *seat* laying down the cards of *mask*.
    """
    key = (seat, mask)
    action = _LAY_DOWNS.get(key)
    if action is None:
        action = _LAY_DOWNS[key] = _lay_down(seat=seat, cards=_card_set(mask), stand_ins=_NO_STAND_INS)
    return action


def lay_off(seat: int, meld: int, mask: int) -> LayOff:
    """
    The action of *seat* laying off the cards of *mask* onto meld number *meld*.
    """
    key = (seat, meld, mask)
    action = _LAY_OFFS.get(key)
    if action is None:
        action = _LAY_OFFS[key] = _lay_off(seat=seat, meld=meld, cards=_card_set(mask), stand_ins=_NO_STAND_INS)
    return action


def _run_lay_downs(seat: int, suit: int, row: int, ace_low: int) -> tuple[LayDown, ...]:
    """
    The runs *seat* can lay down from the cards *row* of *suit*, as actions (cached); with
    *ace_low* those that take the ace low.
    """
    cache = _RUN_LAY_DOWNS[ace_low][seat][suit]
    actions = cache.get(row)
    if actions is None:
        runs = low_runs(row) if ace_low else ROW_RUNS[row]
        actions = cache[row] = tuple(lay_down(seat, run << (13 * suit)) for run in runs)
    return actions


# -- the draw phase ---------------------------------------------------------------------------------------------


def draw_actions(position: Position, seat: int, hand: int, stock_left: bool) -> tuple[PlayerAction, ...]:
    """
    The draw-phase actions: `DrawStock`, `TakeDiscard` from the top of the pile down, the melds and
    lay-offs a pass may come with (A16), then `Pass`.
    """
    rules = position.rules
    actions: list[PlayerAction] = [DRAW_STOCK[seat]] if stock_left else []
    wild = rules.jokers_wild
    if position.discard_pile:
        if wild:
            _wild_takes(position, seat, hand, stock_left and rules.top_discard_free, actions)
        else:
            _takes(position, seat, hand, stock_left and rules.top_discard_free, actions)
    if not stock_left:
        if rules.pass_allows_melding:
            actions.extend(
                _wild_melds(position, seat, hand, None) if wild else _melds(position, seat, hand, _rows(hand))
            )
        actions.append(PASS[seat])
    return tuple(actions)


def _takes(position: Position, seat: int, avail: int, top_free: bool, actions: list[PlayerAction]) -> None:
    pile = position.discard_pile
    take = TAKE[seat]
    rules = position.rules
    direct, far, _ = position._table if rules.obligation_by_layoff else (0, 0, ())
    ace_low = rules.ace_low_allowed
    i = len(pile) - 1
    if top_free:
        t = pile[i].index
        actions.append(take[t])
        avail |= 1 << t
        i -= 1
    while i >= 0:
        t = pile[i].index
        i -= 1
        # takeable() inlined for the common cases: onto a meld by itself, or in a new meld.
        others = avail & GROUP_OTHERS[t]
        if (
            direct >> t & 1
            or others & (others - 1)
            or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]
            or (ace_low and LOW_TRIPLE[t] and takeable(t, avail, position))
        ):
            actions.append(take[t])
        elif far >> t & 1 and avail << 1 >> t & 5 and takeable(t, avail, position):
            # a card beyond a run's end, with a neighbour in hand that may bridge the gap
            actions.append(take[t])
        avail |= 1 << t


# -- the play phase ---------------------------------------------------------------------------------------------


def play_actions(position: Position, seat: int, hand: int) -> tuple[PlayerAction, ...]:
    """
    The play-phase actions: `LayDown` (sets by rank, then runs by suit), `LayOff` (by meld), then
    `Discard` (in `FULL_DECK` order); while a card taken from the pile is still to be played, only
    what the obligation allows.
    """
    if position.rules.jokers_wild:
        return _wild_play_actions(position, seat, hand)
    obligation = position.obligation
    if obligation is not None:
        return _pending_actions(position, seat, hand, obligation.index)
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    actions = _melds(position, seat, hand, (a, b, c, d))
    if position.picked.mask:
        hand &= ~forbidden_discards(position, hand)
        a = hand & ROW
        b = hand >> 13 & ROW
        c = hand >> 26 & ROW
        d = hand >> 39 & ROW
    # One suit at a time, unrolled: this is the hot path.
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


def _melds(position: Position, seat: int, hand: int, rows: tuple[int, int, int, int]) -> list[PlayerAction]:
    """
    Every meld *seat* can lay down from *hand* (whose suits are *rows*), then every lay-off onto the table.
    """
    a, b, c, d = rows
    three = (a & b & (c | d)) | (c & d & (a | b))
    actions: list[PlayerAction] = (
        [lay_down(seat, mask) for mask in set_masks(hand, three)] if three or hand >> 52 in _THREE_JOKERS else []
    )
    for suit, row in enumerate(rows):
        if row & row >> 1 & row >> 2:
            actions.extend(_run_lay_downs(seat, suit, row, 0))
    if position.rules.ace_low_allowed:
        for suit, row in enumerate(rows):
            if row & _ACE_AND_TWO == _ACE_AND_TWO:
                actions.extend(_run_lay_downs(seat, suit, row, 1))
    if hand & position._table[0]:
        for k, meld in enumerate(position.melds):
            if hand & meld.ends:
                actions.extend([lay_off(seat, k, mask) for mask in lay_off_masks(meld, hand)])
    return actions


def _rows(hand: int) -> tuple[int, int, int, int]:
    return hand & ROW, hand >> 13 & ROW, hand >> 26 & ROW, hand >> 39 & ROW


def _pending_actions(position: Position, seat: int, hand: int, t: int) -> tuple[PlayerAction, ...]:
    """
    The play-phase actions while card *t*, taken from the discard pile, is still to be played (R15, A10, A11).

    With the immediate obligation only melds and lay-offs that contain it;
    otherwise also any meld or lay-off that leaves it a way to be played.
    """
    rules = position.rules
    by_layoff = rules.obligation_by_layoff
    melds = position.melds
    ace_low = rules.ace_low_allowed
    if rules.obligation_timing is IMMEDIATE:
        return _actions_with(seat, hand, t, melds if by_layoff else (), ace_low)
    bit = 1 << t
    table = [meld.cards.mask for meld in melds] if by_layoff else []
    actions: list[PlayerAction] = [
        lay_down(seat, mask)
        for mask in lay_down_masks(hand, ace_low)
        if mask & bit or usable(t, hand & ~mask, [*table, mask] if by_layoff else (), ace_low)
    ]
    for k, meld in enumerate(melds):
        if hand & meld.ends:
            actions.extend(lay_off(seat, k, mask) for mask in _lay_offs_leaving(meld, k, hand, t, table, ace_low))
    return tuple(actions)


def _lay_offs_leaving(  # noqa: PLR0913
    meld: TableMeld,
    k: int,
    hand: int,
    t: int,
    table: list[int],
    ace_low: bool,
) -> list[int]:
    """
    The lay-offs from *hand* onto *meld* (number *k*) that play card *t* or leave it a way to be played.
    """
    result = []
    for mask in lay_off_masks(meld, hand):
        if mask >> t & 1:
            keep = bool(table)  # the card itself laid off: only where lay-offs may carry it (A10)
        else:
            after = table.copy()
            if after:
                after[k] |= mask
            keep = usable(t, hand & ~mask, after, ace_low)
        if keep:
            result.append(mask)
    return result


def _actions_with(
    seat: int,
    hand: int,
    t: int,
    melds: tuple[TableMeld, ...],
    ace_low: bool,
) -> tuple[PlayerAction, ...]:
    """
    The melds and lay-offs (onto *melds*) from *hand* that contain card *t*, in `legal_actions` order.
    """
    bit = 1 << t
    group = hand & GROUP[t]
    actions: list[PlayerAction] = (
        [lay_down(seat, mask) for mask in group_melds(group) if mask & bit] if group.bit_count() >= 3 else []
    )
    if t < 52:
        shift = t - t % 13
        offset = t - shift
        row = hand >> shift & ROW
        actions.extend(lay_down(seat, run << shift) for run in ROW_RUNS[row] if run >> offset & 1)
        if ace_low:
            actions.extend(lay_down(seat, run << shift) for run in low_runs(row) if run >> offset & 1)
    for k, meld in enumerate(melds):
        if hand & meld.ends:
            actions.extend(lay_off(seat, k, mask) for mask in lay_off_masks(meld, hand) if mask & bit)
    return tuple(actions)


# -- calling "Rummy!" (A24) -------------------------------------------------------------------------------------


def answer_actions(position: Position) -> tuple[PlayerAction, ...]:
    """
    The actions of the seat to act while a discard is answered: asked whether it calls "Rummy!" on
    it, `DeclineCall` then `CallRummy`; once it called, the lay-offs of the card called on, alone,
    by meld, as `lay_off_masks` finds them for a hand of that card.
    """
    seat = position.seat_to_act  # a seat answers
    called = position.obligation
    if called is None:
        return ANSWERS[seat]
    t = called.index
    melds = position.melds
    actions: list[PlayerAction] = [lay_off(seat, k, 1 << t) for k in call_lay_offs(melds, t)]
    if position.rules.jokers_wild and called.is_joker:  # a joker called on may stand for a card (A7)
        actions.extend(wild_lay_off(seat, k, play) for k, play in called_joker_lay_offs(melds, t))
    return tuple(actions)


# -- jokers wild (A7) -------------------------------------------------------------------------------------------
#
# Under `Rules.jokers_wild` the play phase lists the melds and lay-offs of natural cards first (as above, but
# without the cards a joker on the table stands for, which can no longer be laid), then the lay-downs with jokers
# standing for cards (sets by rank, then runs by suit), then the lay-offs with jokers (by meld), then the
# discards.  Each play with jokers is one action: its stand-ins are canonical (`_internal.cardlogic.canonical_pairs`).

_WILD_LAY_DOWNS: dict[tuple[int, int, tuple[tuple[int, int], ...]], LayDown] = {}
_WILD_LAY_OFFS: dict[tuple[int, int, int, tuple[tuple[int, int], ...]], LayOff] = {}


def _stand_ins(pairs: tuple[tuple[int, int], ...]) -> StandIns:
    return StandIns([(FULL_DECK[joker], FULL_DECK[card]) for joker, card in pairs])


def wild_lay_down(seat: int, play: WildPlay) -> LayDown:
    """
    The action of *seat* laying down a meld with jokers standing for cards (A7).
    """
    mask, pairs = play
    key = (seat, mask, pairs)
    action = _WILD_LAY_DOWNS.get(key)
    if action is None:
        action = _lay_down(seat=seat, cards=_card_set(mask), stand_ins=_stand_ins(pairs))
        _WILD_LAY_DOWNS[key] = action
    return action


def wild_lay_off(seat: int, meld: int, play: WildPlay) -> LayOff:
    """
    The action of *seat* laying off onto meld number *meld* with jokers standing for cards (A7).
    """
    mask, pairs = play
    key = (seat, meld, mask, pairs)
    action = _WILD_LAY_OFFS.get(key)
    if action is None:
        action = _lay_off(seat=seat, meld=meld, cards=_card_set(mask), stand_ins=_stand_ins(pairs))
        _WILD_LAY_OFFS[key] = action
    return action


def _wild_melds(position: Position, seat: int, hand: int, first: int | None) -> list[PlayerAction]:
    """
    Every meld and lay-off *seat* can play from *hand* with jokers wild; *first* is the card taken
    from the pile that must be played, the first joker to use when it is one.
    """
    melds = position.melds
    blocked = blocked_cards(melds)
    live = hand & ~blocked
    actions = _melds(position, seat, live, _rows(live))
    jokers = joker_order(hand, first)
    if jokers:
        ace_low = position.rules.ace_low_allowed
        actions.extend(wild_lay_down(seat, play) for play in wild_lay_downs(hand, jokers, blocked, ace_low))
        for k, meld in enumerate(melds):
            plays = wild_lay_offs(meld.represents.mask, hand, jokers, blocked, meld.ace_low)
            actions.extend(wild_lay_off(seat, k, play) for play in plays)
    return actions


def _wild_play_actions(position: Position, seat: int, hand: int) -> tuple[PlayerAction, ...]:
    obligation = position.obligation
    if obligation is None:
        actions = _wild_melds(position, seat, hand, None)
        kept = hand & ~forbidden_discards(position, hand)
        actions.extend(DISCARD[seat][i] for i in range(56) if kept >> i & 1)
        return tuple(actions)
    t = obligation.index
    return tuple(action for action in _wild_melds(position, seat, hand, t) if _wild_keeps(position, action, hand, t))


def _wild_keeps(position: Position, action: PlayerAction, hand: int, t: int) -> bool:
    """
    Whether *action* plays card *t*, taken from the pile, or (when the rules let it wait) leaves it
    a way to be played (R15, A10, A11), with jokers wild.
    """
    rules = position.rules
    by_layoff = rules.obligation_by_layoff
    if type(action) is not LayDown and type(action) is not LayOff:
        return False
    mask = action.cards.mask
    if mask >> t & 1:
        return by_layoff or type(action) is LayDown
    if rules.obligation_timing is IMMEDIATE:
        return False
    melds = position.melds
    shown = play_represents(mask, tuple((joker.index, card.index) for joker, card in action.stand_ins))
    table = [meld.represents.mask for meld in melds]
    if type(action) is LayOff:
        table[action.meld] |= shown
    else:
        table.append(shown)
    blocked = blocked_cards(melds) | shown
    return wild_usable(t, hand & ~mask, table if by_layoff else [], blocked, rules.ace_low_allowed)


def _wild_takes(position: Position, seat: int, avail: int, top_free: bool, actions: list[PlayerAction]) -> None:
    pile = position.discard_pile
    take = TAKE[seat]
    i = len(pile) - 1
    if top_free:
        t = pile[i].index
        actions.append(take[t])
        avail |= 1 << t
        i -= 1
    while i >= 0:
        t = pile[i].index
        i -= 1
        if wild_takeable(t, avail, position):
            actions.append(take[t])
        avail |= 1 << t
