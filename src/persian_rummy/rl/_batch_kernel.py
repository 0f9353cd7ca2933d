"""
The other seats' moves of the batched environments, compiled with Numba when the ``jit`` extra is installed.

`rounds` plays the seats that random and greedy players hold, in every game of a `persian_rummy.rl.batch.Batch`,
one game at a time in compiled code, until the learner is to act in each game or a game waits for a deal.  It
plays exactly the rounds `persian_rummy.rl._batch_games.Games.advance` plays with NumPy: a pass of the seats at a
draw, then a pass of those at play, the random players' numbers drawn in the same order from the same
generator, the greedy player's choices and the legal ids the same.  Only the cost differs: the array code
pays for each NumPy call of a pass, however few games the pass holds (most passes of a step hold a handful
of games), where the compiled loop pays for each game's own work.

Each game is worked on as `persian_rummy.rl.batch.Batch` holds it (the same arrays, changed in place): its
legal ids are listed in ascending order (as a row of `persian_rummy.rl.batch.Batch.legal_masks` lists them),
a random player takes the id at ``int(u * count)`` of a number *u* drawn for it, and an id is played as
`persian_rummy.rl.batch.Batch.step` plays it.  The deals that end are left to be scored by
`persian_rummy.rl.batch.Batch.settle`, as the array code leaves them.

Without Numba the functions run as plain Python (the tests read them so), far too slowly to play with:
`COMPILED` says whether they are compiled, and the environments use them only then.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar, cast

import numpy as np

from ..bots._greedy import _KEEP_GAP, _KEEP_NEXT, _KEEP_SAME, _LEFT_IN_HAND, _NEAR, _STOCK_DRAW
from ..masks import RANK_MASKS
from . import _batch_tables as _t
from ._action_space import ABOVE, BELOW, MELD, SPACE
from ._batch_greedy import (
    _ACES,
    _BLOCKS,
    _CARD_BITS,
    _FOUR,
    _JOKERS,
    _KEEP_WEIGHT,
    _KEY_SHIFT,
    _ON_SETS,
    _PLACES,
    _POINTS,
    _RUN_POINTS,
    _RUN_ROW,
    _SLOT_PLACES,
    _THREE,
    _TWOS,
    _WITHIN,
)
from .batch import PHASES

if TYPE_CHECKING:
    from .batch import Batch

numba: Any
try:
    numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover (the extra is installed where the compiled path is tested)
    numba = None

__all__ = ["ARRAYS", "COMPILED", "DONE", "REFILL", "WAIT_DEAL", "arrays_of", "greedy_id", "legal_ids", "play", "rounds"]

_F = TypeVar("_F", bound=Callable[..., Any])
_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]
_Floats: TypeAlias = np.ndarray[Any, np.dtype[np.float64]]
#: The arrays of `ARRAYS`, as `arrays_of` gives them.
_Arrays: TypeAlias = tuple[Any, ...]
#: Where the deals that end are written: ``(ended, count)``, the games, who went out and how, ``(n, 3)``
#: ints, and the count of numbers used and of deals ended.
_Log: TypeAlias = tuple[_Ints, _Ints]
#: Who plays: the kind of each player (``kinds``), the player at each seat of each game (``control``), the
#: numbers drawn for the random players (``uniforms``).
_Players: TypeAlias = tuple[_Ints, _Ints, _Floats]

#: Whether the functions are compiled (Numba is installed).
COMPILED: Final = numba is not None


def _compiled(function: _F) -> _F:
    if numba is None:  # pragma: no cover
        return function
    return cast("_F", numba.njit(cache=True, nogil=True)(function))


def _inlined(function: _F) -> _F:
    """
    `_compiled`, and inlined where it is called (by Numba, before LLVM): for the helpers that take the
    tuple of the batch's arrays, which a call would copy.
    """
    if numba is None:  # pragma: no cover
        return function
    return cast("_F", numba.njit(cache=True, nogil=True, inline="always")(function))


# -- the tables ----------------------------------------------------------------------------------------------------

# The codes of `persian_rummy.rl.batch.Batch.phase` that the rounds read, and the deals of a game (R27).
_DRAW, _PLAY, _DEAL_OVER = 1, 2, 3
assert [phase.value for phase in PHASES[1:4]] == ["draw", "play", "deal_over"]  # noqa: S101 (checked at import)
_DEALS: Final = 2
_U0, _U1, _ROW = _t.ZERO, _t.ONE, np.uint64(0x1FFF)
_M1: Final = np.uint64(0x5555555555555555)
_M2: Final = np.uint64(0x3333333333333333)
_M4: Final = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01: Final = np.uint64(0x0101010101010101)
_DE_BRUIJN: Final = np.uint64(0x03F79D71B4CB0A89)
_DE_BRUIJN_INDEX: Final = np.zeros(64, np.int64)
for _i in range(64):
    _DE_BRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i


def _meld_ids() -> tuple[_Ints, _Ints]:
    """
    The id of each run by its suit, its lowest place and its length; of each block onto a run by the
    card of the run it lies next to, whether it lies below it, and its length (-1 for none).
    """
    runs = np.full((4, 13, 14), -1, np.int64)
    blocks = np.full((56, 2, 14), -1, np.int64)
    for i, (kind, cards, attach) in enumerate(SPACE[: _t.COUNT]):
        length = cards.bit_count()
        low = (cards & -cards).bit_length() - 1
        if kind == MELD and i >= _t.SETS_END:
            runs[low // 13, low % 13, length] = i
        elif kind in {BELOW, ABOVE}:
            blocks[attach, int(kind == BELOW), length] = i
    return runs, blocks


_RUN_IDS, _BLOCK_IDS = _meld_ids()
# The greedy player's tables (`persian_rummy.rl._batch_greedy`), as arrays.
_G_RANKS: Final = np.array(RANK_MASKS, dtype=np.uint64)
_G_NEAR: Final = np.array(_NEAR, dtype=np.uint64)
_NEXT_BITS: Final = np.uint64(0b01010)
_GAP_BITS: Final = np.uint64(0b10001)
_LEFT: Final = float(_LEFT_IN_HAND)
_STOCK: Final = float(_STOCK_DRAW)
_SAME: Final = int(_KEEP_SAME)
_NEXT: Final = int(_KEEP_NEXT)
_GAP: Final = int(_KEEP_GAP)

_LEAST: Final = -(2**63)
_MOST: Final = 2**63 - 1

#: What `rounds` ends on: no other seat to act; a game waiting for a deal; too few numbers left for a round.
DONE: Final = 0
WAIT_DEAL: Final = 1
REFILL: Final = 2
#: The arrays of a `persian_rummy.rl.batch.Batch` that the functions read and write, as one tuple in
#: this order (`arrays_of`), and the place of each in it.
ARRAYS: Final = (
    "phase", "deal_no", "to_act", "hands", "known", "stock", "stock_start", "pile", "pile_len", "melds", "owner",
    "laid", "layoffs", "is_run", "meld_of", "set_cards", "run_lows", "run_highs", "obligation", "picked", "passes",
    "went_out",
)  # fmt: skip
(
    _PHASE, _DEAL_NO, _TO_ACT, _HANDS, _KNOWN, _STOCK_CARDS, _STOCK_START, _PILE, _PILE_LEN, _MELDS, _OWNER, _LAID,
    _LAYOFFS, _IS_RUN, _MELD_OF, _SET_CARDS, _RUN_LOWS, _RUN_HIGHS, _OBLIGATION, _PICKED, _PASSES, _WENT_OUT,
) = range(len(ARRAYS))  # fmt: skip
#: Who holds a seat, by kind, in the kinds `rounds` reads: the learner (or a player it does not play),
#: a random player, a greedy player.
LEARNER: Final = -1
RANDOM: Final = 0
GREEDY: Final = 1


# -- bits ----------------------------------------------------------------------------------------------------------


def arrays_of(batch: Batch) -> _Arrays:
    """
    The arrays of *batch* that the functions take, in the order of `ARRAYS` (the batch's own arrays: the
    functions change them in place).
    """
    return tuple(getattr(batch, name) for name in ARRAYS)


@_compiled
def _count(x: np.uint64) -> np.int64:
    x = x - ((x >> _U1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@_compiled
def _index(bit: np.uint64) -> np.int64:
    """
    The index of the one bit of *bit*.
    """
    return np.int64(_DE_BRUIJN_INDEX[np.int64((bit * _DE_BRUIJN) >> np.uint64(58))])


@_compiled
def _row(mask: np.uint64, suit: int) -> np.int64:
    """
    The 13-bit row of *suit* in *mask*.
    """
    return np.int64((mask >> np.uint64(13 * suit)) & _ROW)


@_compiled
def _points(mask: np.uint64) -> np.int64:
    total = np.int64(0)
    for suit in range(4):
        total += _t.ROW_POINTS[_row(mask, suit)]
    return total + _t.JOKER_POINTS * _count(mask >> np.uint64(52))


@_compiled
def _add_cards(mask: np.uint64, base: int, ids: _Ints, k: int) -> int:
    """
    Add *base* plus each card of *mask*, in order, to *ids* from *k* on: the new count.
    """
    while mask != _U0:
        bit = mask & (~mask + _U1)
        mask ^= bit
        ids[k] = base + _index(bit)
        k += 1
    return k


# -- the legal ids -------------------------------------------------------------------------------------------------


@_compiled
def _takeable(c: int, avail: np.uint64, sets: np.uint64, lows: np.uint64, highs: np.uint64) -> bool:
    """
    `persian_rummy.rl.batch._takeable` for one card *c*.
    """
    others = avail & _t.GROUP_OTHERS[c]
    window = ((avail << np.uint64(2)) >> np.uint64(c)) & _t.RUN_WINDOW[c]
    if (others & (others - _U1)) != _U0 or _t.RUN_OK[np.int64(window)] or (sets & _t.GROUP[c]) != _U0:
        return True
    below = ~avail & _t.SUIT_BELOW[c]
    if (below & highs) > (below & ~highs):
        return True
    above = ~avail & _t.SUIT_ABOVE[c]
    return bool((above & (~above + _U1) & lows) != _U0)


@_inlined
def _takes(i: int, hand: np.uint64, a: _Arrays) -> np.uint64:
    """
    The cards of the discard pile of game *i* that may be taken with *hand*, as a mask.
    """
    above = _U0
    found = _U0
    pile = a[_PILE]
    sets, lows, highs = a[_SET_CARDS][i], a[_RUN_LOWS][i], a[_RUN_HIGHS][i]
    for j in range(a[_PILE_LEN][i] - 1, -1, -1):
        c = pile[i, j]
        if _takeable(c, above | hand, sets, lows, highs):
            found |= _t.BITS[c]
        above |= _t.BITS[c]
    return found


@_compiled
def _sort(ids: _Ints, k: int) -> None:
    for j in range(1, k):
        x = ids[j]
        b = j - 1
        while b >= 0 and ids[b] > x:
            ids[b + 1] = ids[b]
            b -= 1
        ids[b + 1] = x


@_compiled
def _sets(hand: np.uint64, ids: _Ints, k: int) -> int:
    """
    Add the sets *hand* holds to *ids* from *k* on, by each rank's four-bit pattern of the suits held.
    """
    for r in range(14):
        if r < 13:
            pattern = np.int64(0)
            for suit in range(4):
                pattern |= np.int64((hand >> np.uint64(13 * suit + r)) & _U1) << suit
        else:
            pattern = np.int64(hand >> np.uint64(52))
        for m in range(5):
            if _t.SETS_OF_PATTERN[pattern, m]:
                ids[k] = _t.MELD0 + 5 * r + m
                k += 1
    return k


@_compiled
def _runs(row: np.int64, suit: int, ids: _Ints, k: int) -> int:
    """
    Add the runs of *suit* that its *row* of a hand holds to *ids* from *k* on: from each place held,
    those of three places held or more.
    """
    for low in range(11):
        if not (row >> low) & 1:
            continue
        high = low
        while high < 12 and (row >> (high + 1)) & 1:
            high += 1
        for length in range(3, high - low + 2):
            ids[k] = _RUN_IDS[suit, low, length]
            k += 1
    return k


@_compiled
def _blocks(row: np.int64, ends: np.int64, suit: int, below: int, ids: _Ints, k: int) -> int:  # noqa: PLR0913 (a suit's rows, ids)
    """
    Add to *ids* from *k* on the blocks of *suit* that its *row* of a hand holds next to the runs' ends
    *ends* (their lowest cards, 3 to queen, with *below* 1; their highest, 4 to king, with *below* 0).
    """
    step = -1 if below else 1
    for at in range(1, 11) if below else range(2, 12):
        if not (ends >> at) & 1:
            continue
        length = 1
        while 0 <= at + step * length <= 12 and (row >> (at + step * length)) & 1:
            ids[k] = _BLOCK_IDS[13 * suit + at, below, length]
            k += 1
            length += 1
    return k


@_inlined
def _plays(i: int, hand: np.uint64, ids: _Ints, k: int, a: _Arrays) -> int:
    """
    Add the lay-downs and lay-offs that *hand* holds in game *i* to *ids* from *k* on: the new count.
    """
    k = _sets(hand, ids, k)
    lows, highs = a[_RUN_LOWS][i], a[_RUN_HIGHS][i]
    for suit in range(4):
        row = _row(hand, suit)
        k = _runs(row, suit, ids, k)
        k = _blocks(row, _row(lows, suit), suit, 1, ids, k)
        k = _blocks(row, _row(highs, suit), suit, 0, ids, k)
    sets = a[_SET_CARDS][i]
    rest = hand
    while rest != _U0:  # the cards laid off onto sets
        bit = rest & (~rest + _U1)
        rest ^= bit
        if (sets & _t.GROUP[_index(bit)]) != _U0:
            ids[k] = _t.ON_SET0 + _index(bit)
            k += 1
    return k


@_inlined
def legal_ids(i: int, ids: _Ints, a: _Arrays) -> int:
    """
    The legal ids of game *i* (at a draw or at play) into *ids*, ascending: their count.
    """
    hand = a[_HANDS][i, a[_TO_ACT][i]]
    if a[_PHASE][i] == _DRAW:
        ids[0] = 0 if a[_STOCK_START][i] < 56 else 1
        return _add_cards(_takes(i, hand, a), _t.TAKE0, ids, 1) if a[_PILE_LEN][i] else 1
    owed = a[_OBLIGATION][i]
    k = 0 if owed >= 0 else _add_cards(hand, _t.DISCARD0, ids, 0)
    start = k
    k = _plays(i, hand, ids, k, a)
    if owed >= 0:  # while a card taken must be played, the plays that hold it alone (R15, A11)
        kept = start
        for j in range(start, k):
            if (_t.CARDS[ids[j]] & _t.BITS[owed]) != _U0:
                ids[kept] = ids[j]
                kept += 1
        k = kept
    _sort(ids, k)
    return k


# -- the greedy player ---------------------------------------------------------------------------------------------


@_compiled
def _best_meld(hand: np.uint64) -> np.uint64:
    """
    `persian_rummy.rl._batch_greedy._best_melds` of one hand.
    """
    best = _U0
    for r in range(14):
        cards = hand & _G_RANKS[r]
        n = _count(cards)
        if n >= 3:
            best = max(((_FOUR[r] if n == 4 else _THREE[r]) << _KEY_SHIFT) | cards, best)
    for suit in range(4):
        row = _row(hand, suit)
        best = max((_RUN_POINTS[row] << _KEY_SHIFT) | (_RUN_ROW[row] << np.uint64(13 * suit)), best)
    return best


@_compiled
def _worth(hand: np.uint64, table: np.uint64) -> float:
    """
    `persian_rummy.rl._batch_greedy._worth` of one hand.
    """
    melded = np.int64(0)
    while True:
        key = _best_meld(hand)
        if key == _U0:
            break
        melded += np.int64(key >> _KEY_SHIFT)
        hand &= ~(key & _CARD_BITS)
    fits = hand & table
    return float(melded + _points(fits)) - _LEFT * float(_points(hand & ~fits))


@_compiled
def _table_ends(sets: np.uint64, lows: np.uint64, highs: np.uint64) -> np.uint64:
    ranks = (sets | (sets >> np.uint64(13)) | (sets >> np.uint64(26)) | (sets >> np.uint64(39))) & _ROW
    spread = ranks * _TWOS
    if (sets & _JOKERS) != _U0:
        spread |= _JOKERS
    return (spread & ~sets) | ((lows & ~_TWOS) >> _U1) | ((highs & ~_ACES) << _U1)


@_inlined
def _greedy_draw(i: int, hand: np.uint64, a: _Arrays) -> int:
    """
    `persian_rummy.rl._batch_greedy._draw_ids` of game *i*.
    """
    stock_left = a[_STOCK_START][i] < 56
    chosen = 0 if stock_left else 1
    legal = _takes(i, hand, a) if a[_PILE_LEN][i] else _U0
    if legal == _U0:
        return chosen
    table = _table_ends(a[_SET_CARDS][i], a[_RUN_LOWS][i], a[_RUN_HIGHS][i])
    own = _worth(hand, table)
    best = -np.inf
    at = -1
    taken = _U0
    pile = a[_PILE]
    for j in range(a[_PILE_LEN][i] - 1, -1, -1):  # from the top down: the nearest the top among equals
        taken |= _t.BITS[pile[i, j]]
        if (legal & _t.BITS[pile[i, j]]) != _U0:
            gain = _worth(hand | taken, table) - own
            if gain > best:
                best, at = gain, pile[i, j]
    return _t.TAKE0 + at if best > (_STOCK if stock_left else 0.0) else chosen


@_compiled
def _listed(i: int, play: int, meld_of: _Ints) -> int:
    """
    Where *play* (a lay-down or a lay-off) of game *i* comes among the plays `persian_rummy.legal_actions`
    lists (`persian_rummy.rl._batch_greedy._play_ids`).
    """
    column = play - _t.MELD0
    if column < _ON_SETS:
        return column
    if column >= _BLOCKS:
        slot = meld_of[i, _t.ATTACH[play]]
    else:
        slot = -1
        for c in _t.GROUP_CARDS[column - _ON_SETS]:
            slot = max(slot, meld_of[i, c])
    return int(_ON_SETS + _SLOT_PLACES * slot + _WITHIN[column - _ON_SETS])


@_compiled
def _least_useful(hand: np.uint64) -> int:
    """
    `persian_rummy.rl._batch_greedy._discard_ids` of one hand: the discard of the card that helps least.
    """
    least = _MOST
    chosen = -1
    rest = hand
    while rest != _U0:
        bit = rest & (~rest + _U1)
        rest ^= bit
        c = _index(bit)
        window = ((hand << np.uint64(2)) >> np.uint64(c)) & _G_NEAR[c]
        keep = _SAME * _count(hand & _t.GROUP_OTHERS[c]) + _NEXT * _count(window & _NEXT_BITS)
        score = (keep + _GAP * _count(window & _GAP_BITS)) * _KEEP_WEIGHT - _t.VALUES[c]
        if score < least:
            least, chosen = score, int(_t.DISCARD0 + c)
    return chosen


@_inlined
def greedy_id(i: int, ids: _Ints, a: _Arrays) -> int:
    """
    The id `persian_rummy.rl._batch_greedy.greedy_ids` chooses in game *i* (*ids* a scratch row).
    """
    hand = a[_HANDS][i, a[_TO_ACT][i]]
    if a[_PHASE][i] == _DRAW:
        return _greedy_draw(i, hand, a)
    owed = a[_OBLIGATION][i]
    top = _LEAST
    chosen = -1
    for j in range(_plays(i, hand, ids, 0, a)):  # the play of most points, the first listed among those
        play = ids[j]
        if owed < 0 or (_t.CARDS[play] & _t.BITS[owed]) != _U0:
            score = _POINTS[play - _t.MELD0] * _PLACES - _listed(i, play, a[_MELD_OF])
            if score > top:
                top, chosen = score, play
    return chosen if chosen >= 0 else _least_useful(hand)


# -- playing -------------------------------------------------------------------------------------------------------


@_inlined
def _end_deal(i: int, out: int, end: int, a: _Arrays, log: _Log) -> None:
    """
    End game *i*'s deal, *out* the seat that went out (-1 for none), *end* how: written to ``ended[count[1]]``.
    """
    ended, count = log
    ended[count[1], 0] = i
    ended[count[1], 1] = out
    ended[count[1], 2] = end
    count[1] += 1
    a[_WENT_OUT][i] = out
    a[_PHASE][i] = _DEAL_OVER + (a[_DEAL_NO][i] >= _DEALS)
    a[_TO_ACT][i] = -1
    a[_OBLIGATION][i] = -1
    a[_PICKED][i] = _U0


@_inlined
def _draw_or_pass(i: int, seat: int, draw: bool, a: _Arrays, log: _Log) -> None:
    if draw:
        card = a[_STOCK_CARDS][i, a[_STOCK_START][i]]
        a[_HANDS][i, seat] |= _t.BITS[card]
        a[_STOCK_START][i] += 1
        a[_PHASE][i] = _PLAY
        a[_PASSES][i] = 0
        return
    a[_PASSES][i] += 1
    if a[_PASSES][i] == 4:  # every seat passed (R22)
        _end_deal(i, -1, 1, a, log)
    else:
        a[_TO_ACT][i] = (seat + 1) % 4


@_inlined
def _take(i: int, seat: int, card: int, a: _Arrays) -> None:
    pile = a[_PILE]
    at = 0
    while pile[i, at] != card:
        at += 1
    taken = _U0
    for j in range(at, a[_PILE_LEN][i]):
        taken |= _t.BITS[pile[i, j]]
    a[_KNOWN][i, seat] |= taken
    a[_HANDS][i, seat] |= taken
    a[_OBLIGATION][i] = card
    a[_PICKED][i] = taken
    a[_PILE_LEN][i] = at
    a[_PHASE][i] = _PLAY
    a[_PASSES][i] = 0


@_inlined
def _discard(i: int, seat: int, card: int, a: _Arrays) -> None:
    kept = ~_t.BITS[card]
    a[_HANDS][i, seat] &= kept
    a[_KNOWN][i, seat] &= kept
    a[_PILE][i, a[_PILE_LEN][i]] = card
    a[_PILE_LEN][i] += 1
    a[_TO_ACT][i] = (seat + 1) % 4
    a[_PHASE][i] = _DRAW
    a[_PICKED][i] = _U0


@_inlined
def _slot(i: int, seat: int, play: int, a: _Arrays) -> int:
    """
    Lay down or lay off *play* in game *i* onto the table's melds: the slot of its meld.
    """
    cards = _t.CARDS[play]
    if play < _t.ON_SET0:  # a lay-down: a new slot
        slot = a[_MELDS][i]
        a[_OWNER][i, slot] = seat
        a[_LAID][i, slot] = cards
        a[_IS_RUN][i, slot] = play >= _t.SETS_END
        a[_MELDS][i] += 1
        if play < _t.SETS_END:
            a[_SET_CARDS][i] |= cards
        else:
            a[_RUN_LOWS][i] |= _t.LOW[play]
            a[_RUN_HIGHS][i] |= _t.HIGH[play]
        return int(slot)
    if play < _t.BLOCK0:  # onto the set of the card's rank
        slot = -1
        for c in _t.GROUP_CARDS[play - _t.ON_SET0]:
            slot = max(slot, a[_MELD_OF][i, c])
        a[_SET_CARDS][i] |= cards
    else:  # onto a run, below or above it
        if _t.IS_BELOW[play]:
            a[_RUN_LOWS][i] ^= _t.ATTACH_BIT[play] | _t.LOW[play]
        else:
            a[_RUN_HIGHS][i] ^= _t.ATTACH_BIT[play] | _t.HIGH[play]
        slot = a[_MELD_OF][i, _t.ATTACH[play]]
    a[_LAYOFFS][i, slot, seat] |= cards
    return int(slot)


@_inlined
def _meld(i: int, seat: int, play: int, a: _Arrays, log: _Log) -> None:
    cards = _t.CARDS[play]
    slot = _slot(i, seat, play, a)
    rest = cards
    while rest != _U0:
        bit = rest & (~rest + _U1)
        rest ^= bit
        a[_MELD_OF][i, _index(bit)] = slot
    hand = a[_HANDS][i, seat] & ~cards
    a[_HANDS][i, seat] = hand
    a[_KNOWN][i, seat] &= ~cards
    owed = a[_OBLIGATION][i]
    if owed >= 0 and (cards & _t.BITS[owed]) != _U0:
        a[_OBLIGATION][i] = -1
    if hand == _U0:  # the seat went out (R19)
        _end_deal(i, seat, 0, a, log)


@_inlined
def play(i: int, action: int, a: _Arrays, log: _Log) -> None:
    """
    Play id *action* in game *i* as `persian_rummy.rl.batch.Batch.step` plays it with ``settle=False``: a
    deal that ends is written to ``ended[count[1]]`` (the game, who went out, how it ended) and
    ``count[1]`` counted on, for ``ended, count = log``.
    """
    seat = a[_TO_ACT][i]
    if action < _t.TAKE0:
        _draw_or_pass(i, seat, action == 0, a, log)
    elif action < _t.DISCARD0:
        _take(i, seat, action - _t.TAKE0, a)
    elif action < _t.MELD0:
        _discard(i, seat, action - _t.DISCARD0, a)
    else:
        _meld(i, seat, action, a, log)


# -- the rounds ----------------------------------------------------------------------------------------------------


@_compiled
def _number(stage: int, players: _Players, a: _Arrays, numbers: _Ints, count: _Ints) -> None:
    """
    Give each game of a random player's at *stage* its number's place: the players by index, each one's
    games in order, as the array code calls them, counted on in ``count[0]``.
    """
    kinds, control, _ = players
    phase, to_act = a[_PHASE], a[_TO_ACT]
    for p in range(kinds.size):
        if kinds[p] != RANDOM:
            continue
        for i in range(phase.size):
            if phase[i] == stage and control[i, to_act[i]] == p:
                numbers[i] = count[0]
                count[0] += 1


@_compiled
def _pass(stage: int, players: _Players, a: _Arrays, work: tuple[_Ints, _Ints], log: _Log) -> bool:
    """
    One move of every seat at *stage* that the learner does not hold: whether there was one.  *work*
    is a scratch row of ids and each game's number's place.
    """
    kinds, control, uniforms = players
    scratch, numbers = work
    _number(stage, players, a, numbers, log[1])
    phase, to_act = a[_PHASE], a[_TO_ACT]
    moved = False
    for i in range(phase.size):
        if phase[i] != stage or control[i, to_act[i]] < 0:
            continue
        moved = True
        if kinds[control[i, to_act[i]]] == RANDOM:
            action = scratch[np.int64(uniforms[numbers[i]] * legal_ids(i, scratch, a))]
        else:
            action = greedy_id(i, scratch, a)
        play(i, action, a, log)
    return moved


@_compiled
def rounds(players: _Players, a: _Arrays, log: _Log) -> int:
    """
    Play rounds of the seats that are not the learner's (a pass of those at a draw, then a pass of
    those at play) in every game, as `persian_rummy.rl._batch_games.Games.advance` plays them; the
    first round at once, each next one if no game waits for a deal and enough numbers are left.

    ``kinds, control, uniforms = players``: ``control[i, s]`` is the index of the player at seat *s* of
    game *i* (-1 for the learner), ``kinds[p]`` the kind of player *p* (`RANDOM`, `GREEDY`, -1 for none).
    A random player's games in a pass take the numbers ``uniforms[count[0]:]`` in turn, and ``count[0]``
    counts them; the deals that end are written to ``ended``, ``count[1]`` of them (``ended, count =
    log``).  Returns `DONE`, `WAIT_DEAL` or `REFILL`.
    """
    phase = a[_PHASE]
    work = (np.empty(_t.COUNT, np.int64), np.zeros(phase.size, np.int64))
    first = True
    while True:
        if not first:
            for i in range(phase.size):
                if phase[i] == 0 or phase[i] == _DEAL_OVER:
                    return WAIT_DEAL
            if players[2].size and players[2].size - log[1][0] < 2 * phase.size:  # none drawn: none needed
                return REFILL
        first = False
        drew = _pass(_DRAW, players, a, work, log)
        if not _pass(_PLAY, players, a, work, log) and not drew:
            return DONE
