"""
The card logic of the engine, on bit masks, and the action objects `legal_actions` hands out.

Card ``i`` of `FULL_DECK` is the bit ``1 << i`` (see `persian_rummy._tables`).  Everything
here works on those masks: what a card can go into, which melds a hand holds, which cards
extend a table meld.  Every action object `legal_actions` can return is built once and shared.
"""

from __future__ import annotations

from typing import Final

from ._tables import (
    GROUP,
    GROUP_OTHERS,
    ROW,
    ROW_RUNS,
    RUN_OK,
    RUN_WINDOW,
    SUIT_BLOCK,
    group_melds,
)
from .actions import Discard, LayDown, LayOff, TakeDiscard
from .cards import FULL_DECK
from .cardsets import _card_set
from .melds import JOKER_MASK, RANK_MASKS, MeldKind, TableMeld
from .rules import ObligationTiming
from .state import GameState, Phase

DRAW: Final = Phase.DRAW
PLAY: Final = Phase.PLAY
SET: Final = MeldKind.SET
RUN: Final = MeldKind.RUN
IMMEDIATE: Final = ObligationTiming.IMMEDIATE
_new = object.__new__
_set = object.__setattr__

# -- action objects, built once and handed out by legal_actions() ---------------------------------------------

TAKE: Final = tuple(tuple(TakeDiscard(seat, card) for card in FULL_DECK) for seat in range(4))
DISCARD: Final = tuple(tuple(Discard(seat, card) for card in FULL_DECK) for seat in range(4))
# Discards by seat, then by suit and the 13-bit row of the hand's cards in that suit (filled as needed),
# and by the four joker bits.
DISCARDS: Final[tuple[tuple[dict[int, tuple[Discard, ...]], ...], ...]] = tuple(
    (
        *({} for _ in range(4)),
        {j: tuple(DISCARD[seat][52 + i] for i in range(4) if j >> i & 1) for j in range(16)},
    )
    for seat in range(4)
)


def discard_row(seat: int, suit: int, row: int) -> tuple[Discard, ...]:
    actions = tuple(DISCARD[seat][13 * suit + i] for i in range(13) if row >> i & 1)
    DISCARDS[seat][suit][row] = actions
    return actions


THREE_JOKERS: Final = frozenset(j for j in range(16) if j.bit_count() >= 3)
_LAY_DOWNS: dict[tuple[int, int], LayDown] = {}
_LAY_OFFS: dict[tuple[int, int, int], LayOff] = {}


def lay_down(seat: int, mask: int) -> LayDown:
    key = (seat, mask)
    action = _LAY_DOWNS.get(key)
    if action is None:
        action = _new(LayDown)
        _set(action, "seat", seat)
        _set(action, "cards", _card_set(mask))
        _LAY_DOWNS[key] = action
    return action


def lay_off(seat: int, meld: int, mask: int) -> LayOff:
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


def fits(meld: int, t: int, avail: int) -> bool:
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


def reaches(run: int, t: int, avail: int) -> bool:
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


NO_TABLE: Final = (0, 0, ())


def table_info(state: GameState) -> tuple[int, int, tuple[int, ...]]:
    """
    The engine's summary of the table (`summarize_table`), which every state carries.
    """
    return state._table  # noqa: SLF001


def meldable(t: int, avail: int) -> bool:
    """
    Whether card *t* makes a new meld with two cards of *avail*: a set of its rank, or a three-card run.

    (`legal_actions`' draw phase makes the same test inline, once per card of the pile.)
    """
    others = avail & GROUP_OTHERS[t]
    return bool(others & (others - 1)) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]


def usable(t: int, avail: int, melds: list[int] | tuple[int, ...]) -> bool:
    """
    Whether card *t* can be played at once (A12): in a new meld with cards of *avail*, or laid off onto *melds*.
    """
    return meldable(t, avail) or any(fits(meld, t, avail) for meld in melds)


def takeable(t: int, avail: int, state: GameState) -> bool:
    """
    Whether card *t* of the discard pile may be taken (R15, A10, A12): it can go into a new meld
    with the cards of *avail*, or (when the rules allow) be laid off onto the table's melds.
    """
    if meldable(t, avail):
        return True
    if not state.rules.obligation_by_layoff:
        return False
    direct, far, runs = table_info(state)
    if direct >> t & 1:
        return True
    block = SUIT_BLOCK[t]
    return bool(far >> t & 1) and any(run & block and reaches(run, t, avail) for run in runs)


def set_masks(hand: int, three: int) -> list[int]:
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


def lay_down_masks(hand: int) -> list[int]:
    """
    Every meld that can be laid down from *hand*: sets by rank, joker sets, then runs by suit.
    """
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    result = set_masks(hand, (a & b & (c | d)) | (c & d & (a | b)))
    for shift, row in ((0, a), (13, b), (26, c), (39, d)):
        result.extend(run << shift for run in ROW_RUNS[row])
    return result


_RUN_LAY_DOWNS: Final[tuple[tuple[dict[int, tuple[LayDown, ...]], ...], ...]] = tuple(
    tuple({} for _ in range(4)) for _ in range(4)
)


def run_lay_downs(seat: int, suit: int, row: int) -> tuple[LayDown, ...]:
    """
    The runs *seat* can lay down from the cards *row* of *suit*, as actions (cached).
    """
    cache = _RUN_LAY_DOWNS[seat][suit]
    actions = cache.get(row)
    if actions is None:
        actions = cache[row] = tuple(lay_down(seat, run << (13 * suit)) for run in ROW_RUNS[row])
    return actions


def lay_off_masks(meld: TableMeld, hand: int) -> list[int]:
    """
    Every group of cards from *hand* that can be laid off onto *meld* in one action.
    """
    mask = meld.cards.mask
    if meld.kind is SET:
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


def laid_off(meld: TableMeld, mask: int) -> int:
    """
    The meld's cards with *mask* laid off onto them, or 0 when that is not a valid lay-off (R17).
    """
    cards = meld.cards.mask
    union = cards | mask
    lo = (cards & -cards).bit_length() - 1
    if meld.kind is SET:
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


def forbidden_discards(state: GameState, hand: int) -> int:
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
