"""
The constant tables of `persian_rummy.rl.batch`, worked out once from the action space: what each of
the 944 ids does to a hand's bit mask, and the per-card masks the legal-move tests read.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from ..rules import DEFAULT_RULES
from ._action_space import ABOVE, BELOW, DEFAULT_COUNT, MELD, ON_SET, SPACE

U64: TypeAlias = np.ndarray[Any, np.dtype[np.uint64]]
I64: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]

#: The ids under the default rules.
COUNT: Final = DEFAULT_COUNT
# Where each part of the space starts (`persian_rummy.rl.actionids`).
TAKE0: Final = 2
DISCARD0: Final = 58
MELD0: Final = 114
SETS_END: Final = 184
ON_SET0: Final = 448
BLOCK0: Final = 504

ONE: Final = np.uint64(1)
ZERO: Final = np.uint64(0)
#: Bit i: the card ``FULL_DECK[i]``.
BITS: Final[U64] = np.left_shift(ONE, np.arange(56, dtype=np.uint64))


def _place_mask(place: int) -> int:
    return sum(1 << (13 * suit + place) for suit in range(4))


_JOKERS: Final = 0xF << 52


def _group(i: int) -> int:
    return _JOKERS if i >= 52 else _place_mask(i % 13)


#: The cards of each card's rank (the jokers for a joker), and those but the card itself.
GROUP: Final[U64] = np.array([_group(i) for i in range(56)], dtype=np.uint64)
GROUP_OTHERS: Final[U64] = np.array([_group(i) & ~(1 << i) for i in range(56)], dtype=np.uint64)
#: The four cards of each card's rank, by index, for finding the set a card is laid off onto.
GROUP_CARDS: Final = np.array(
    [[52, 53, 54, 55] if i >= 52 else [13 * s + i % 13 for s in range(4)] for i in range(56)], dtype=np.intp
)


def _run_window(i: int) -> int:
    if i >= 52:
        return 0
    place = i % 13
    return sum(1 << (d + 2) for d in (-2, -1, 1, 2) if 0 <= place + d <= 12)


#: For card t, ``(cards << 2 >> t) & RUN_WINDOW[t]`` holds its suit's cards two below to two above it.
RUN_WINDOW: Final[U64] = np.array([_run_window(i) for i in range(56)], dtype=np.uint64)
#: Whether such a window holds two cards next to t that make a run with it.
RUN_OK: Final = np.array([(w & 3) == 3 or (w & 10) == 10 or (w & 24) == 24 for w in range(32)], dtype=np.bool_)


def _suit_side(i: int, *, below: bool) -> int:
    if i >= 52:
        return 0
    suit, place = divmod(i, 13)
    places = range(place) if below else range(place + 1, 13)
    return sum(1 << (13 * suit + p) for p in places)


#: The cards of each card's suit below it and above it (none for a joker).
SUIT_BELOW: Final[U64] = np.array([_suit_side(i, below=True) for i in range(56)], dtype=np.uint64)
SUIT_ABOVE: Final[U64] = np.array([_suit_side(i, below=False) for i in range(56)], dtype=np.uint64)
#: The points of each card (R23).
VALUES: Final[I64] = np.array([DEFAULT_RULES.card_values.mask_points(1 << i) for i in range(56)], dtype=np.int64)


def _lowest(mask: int) -> int:
    return mask & -mask


def _highest(mask: int) -> int:
    return 1 << (mask.bit_length() - 1) if mask else 0


_entries = SPACE[:COUNT]
#: The cards of each id (one card for a take, a discard or a lay-off onto a set).
CARDS: Final[U64] = np.array([cards for _, cards, _ in _entries], dtype=np.uint64)
#: The lowest and the highest card of each id's cards.
LOW: Final[U64] = np.array([_lowest(cards) for _, cards, _ in _entries], dtype=np.uint64)
HIGH: Final[U64] = np.array([_highest(cards) for _, cards, _ in _entries], dtype=np.uint64)
#: The card of the run that a block lies next to, as an index and as a bit (0 for other ids).
ATTACH: Final = np.array([max(attach, 0) for _, _, attach in _entries], dtype=np.intp)
ATTACH_BIT: Final[U64] = np.array([(1 << attach) if attach >= 0 else 0 for _, _, attach in _entries], dtype=np.uint64)
#: Whether an id's block lies below its run (else above).
IS_BELOW: Final = np.array([kind == BELOW for kind, _, _ in _entries], dtype=np.bool_)
#: The melds (sets then runs), and the blocks, as masks; which blocks lie below.
MELDS: Final[U64] = CARDS[MELD0:ON_SET0]
BLOCKS: Final[U64] = CARDS[BLOCK0:COUNT]
BLOCK_ATTACH: Final[U64] = ATTACH_BIT[BLOCK0:COUNT]
BLOCK_BELOW: Final = IS_BELOW[BLOCK0:COUNT]
#: Whether a meld id lays down a set of four (doubled, R25).
assert all(kind == MELD for kind, _, _ in _entries[MELD0:ON_SET0])  # noqa: S101 (the layout, checked at import)
assert all(kind == ON_SET for kind, _, _ in _entries[ON_SET0:BLOCK0])  # noqa: S101
assert all(kind in {BELOW, ABOVE} for kind, _, _ in _entries[BLOCK0:COUNT])  # noqa: S101


def points(masks: U64) -> I64:
    """
    The points of the cards of each mask of *masks* (any shape), by the default card values: each
    suit's row read from a table, the jokers counted.
    """
    rows = rows_of(masks)
    jokers = np.bitwise_count(masks >> JOKER_SHIFT).astype(np.int64)
    total: I64 = np.add.reduce(ROW_POINTS[rows], axis=-1) + JOKER_POINTS * jokers
    return total


def card_of(bits: U64) -> I64:
    """
    The index of the one card of each mask of *bits* (of one card each).
    """
    return np.log2(bits.astype(np.float64)).astype(np.int64)


def _subsets(parts: U64) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """
    For each 13-bit row of a suit, whether it holds each mask of *parts* (masks of one row).
    """
    rows = np.arange(1 << 13, dtype=np.uint64)[:, None]
    result: np.ndarray[Any, np.dtype[np.bool_]] = (rows & parts[None, :]) == parts[None, :]
    return result


_ROW: Final = np.uint64(0x1FFF)
#: The runs of the clubs (the first 66 ids of the runs), and the blocks onto the clubs' runs, as rows.
_CLUB_RUNS: Final = CARDS[SETS_END : SETS_END + 66]
_CLUB_BLOCKS: Final = CARDS[BLOCK0 : BLOCK0 + 110]
#: By a suit's row of a hand: which of the suit's runs it holds, and which of the blocks onto its runs.
RUNS_OF_ROW: Final = _subsets(_CLUB_RUNS)
BLOCKS_OF_ROW: Final = _subsets(_CLUB_BLOCKS)
_CLUB_ATTACH: Final = ATTACH[BLOCK0 : BLOCK0 + 110].astype(np.uint64)
_CLUB_BELOW: Final = IS_BELOW[BLOCK0 : BLOCK0 + 110]
_AT_ATTACH: Final = ((np.arange(1 << 13, dtype=np.uint64)[:, None] >> _CLUB_ATTACH) & ONE) != 0
#: By a suit's row of the lowest cards of its runs, which of the blocks onto its runs lie below a run's
#: lowest card; by the row of the highest cards, which lie above a run's highest card.
BELOW_LOWS_OF_ROW: Final = _AT_ATTACH & _CLUB_BELOW
ABOVE_HIGHS_OF_ROW: Final = _AT_ATTACH & ~_CLUB_BELOW
#: The five sets of a rank, as patterns of its four cards (the four, then three without each card).
_SET_PATTERNS: Final = np.array([15, 14, 13, 11, 7], dtype=np.uint64)
#: By the four-bit pattern of a rank's cards in a hand, which of its five sets it holds.
SETS_OF_PATTERN: Final = (np.arange(16, dtype=np.uint64)[:, None] & _SET_PATTERNS) == _SET_PATTERNS
#: The index of the card of the run that each block lies next to (for the ids of the blocks).
BLOCK_ATTACH_INDEX: Final = ATTACH[BLOCK0:COUNT]
SUIT_SHIFTS: Final = np.array([0, 13, 26, 39], dtype=np.uint64)
PLACES: Final = np.arange(13, dtype=np.uint64)
#: The points of each 13-bit row of a suit, and of a joker (all suits' rows score alike, R23).
ROW_POINTS: Final[I64] = ((np.arange(1 << 13)[:, None] >> np.arange(13)) & 1) @ VALUES[:13]
JOKER_POINTS: Final = int(VALUES[52])
JOKER_SHIFT: Final = np.uint64(52)
assert all(VALUES[13 * suit : 13 * suit + 13].tolist() == VALUES[:13].tolist() for suit in range(4))  # noqa: S101
assert set(VALUES[52:].tolist()) == {JOKER_POINTS}  # noqa: S101
#: How the parts of a team's result in `persian_rummy.rl.batch.Batch.results` (melded, doubling, bonus,
#: in hand) add up to its points: ``results @ RESULT_SIGNS``.
RESULT_SIGNS: Final[I64] = np.array([1, 1, 1, -1], dtype=np.int64)
#: The 56 places of a pile or a stock.
PLACES56: Final[I64] = np.arange(56, dtype=np.int64)


def rows_of(hands: U64) -> I64:
    """
    The four suits' 13-bit rows of each mask of *hands*, ``(..., 4)``.
    """
    rows: I64 = ((hands[..., None] >> SUIT_SHIFTS) & _ROW).astype(np.int64)
    return rows


def unpack(masks: U64) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """
    The 56 bits of each mask of *masks*, ``(..., 56)``.
    """
    octets = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(*masks.shape, 8)
    bits: np.ndarray[Any, np.dtype[np.bool_]]
    bits = np.unpackbits(octets, axis=-1, count=56, bitorder="little").view(np.bool_)
    return bits


#: A suit's weight in a rank's four-bit pattern of the suits that hold it (1 for the first suit, 8 for the last).
SUIT_WEIGHTS: Final = np.array([1, 2, 4, 8], dtype=np.uint8)
#: By a card, which of the plays (the ids from the first meld on) hold it.
HOLDS: Final = (CARDS[None, MELD0:] & BITS[:, None]) != 0
