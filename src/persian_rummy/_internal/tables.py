"""
Bit tables and masks: cards as bits, and what the rules say of groups of cards, on integers.

Card ``i`` of `FULL_DECK` is bit ``1 << i``: suit ``i // 13`` (clubs, diamonds, hearts,
spades), rank offset ``i % 13`` (2 to ace) for ``i < 52``; the jokers are bits 52-55.  A
suit's 13 cards are consecutive bits (its *row*), so a run is a block of consecutive bits
inside one row.  With a low ace (A8) a run may also start with the ace: in the row turned
one step (``rotated``), where the ace comes first, such a run is a block of consecutive bits.

Everything here works on plain integers and knows nothing of states or rules objects; the
tables are built once, at import, but the point tables (`byte_points`), which each set of card
values (`persian_rummy.rules.CardValues`) builds once for itself.
"""

from __future__ import annotations

from typing import Final

#: Every card's bit.
ALL_CARDS: Final = (1 << 56) - 1
#: The 13 bits of one suit, 2 to ace.
ROW: Final = 0x1FFF
#: The bit of the ace in a row.
ACE: Final = 1 << 12
#: Bits of each suit's 13 cards; index 0 clubs ... 3 spades.
SUIT_MASKS: Final = tuple(ROW << (13 * s) for s in range(4))
#: Bits of the four jokers.
JOKER_MASK: Final = 0xF << 52
#: Bits of the four cards at each offset 0-12 within a suit (2 to ace), then the jokers at 13.
RANK_MASKS: Final = (*(sum(1 << (13 * s + r) for s in range(4)) for r in range(13)), JOKER_MASK)


def byte_points(points: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """
    The points of each byte value in each of the seven bytes of a mask, for the *points* of
    the 56 cards by index: the table `mask_points` adds up.
    """
    return tuple(
        tuple(sum(points[8 * k + i] for i in range(8) if byte >> i & 1) for byte in range(256)) for k in range(7)
    )


def mask_points(mask: int, tables: tuple[tuple[int, ...], ...]) -> int:
    """
    The total points of the cards of *mask*, with the *tables* of `byte_points`.
    """
    total = 0
    for table in tables:
        if mask:
            total += table[mask & 0xFF]
            mask >>= 8
    return total


def _group(i: int) -> int:
    return JOKER_MASK if i >= 52 else RANK_MASKS[i % 13]


#: For each card, the other cards of its rank (the other jokers for a joker).
GROUP_OTHERS: Final = tuple(_group(i) & ~(1 << i) for i in range(56))
#: For each card, the cards of its rank, itself included (all jokers for a joker).
GROUP: Final = tuple(_group(i) for i in range(56))
#: For each card, its suit's block of bits (0 for a joker).
SUIT_BLOCK: Final = tuple(SUIT_MASKS[i // 13] if i < 52 else 0 for i in range(56))
#: For each card, the bits of the ace, 2 and 3 of its suit when it is one of them (0 otherwise):
#: the one run that a low ace adds to those a card can make with two others (A8).
LOW_TRIPLE: Final = tuple((ACE | 0b11) << (13 * (i // 13)) if i < 52 and i % 13 in {0, 1, 12} else 0 for i in range(56))


def _run_window(i: int) -> int:
    if i >= 52:
        return 0
    offset = i % 13
    return sum(1 << k for k in (0, 1, 3, 4) if 0 <= offset - 2 + k <= 12)


#: For card ``t``, ``(cards << 2 >> t) & RUN_WINDOW[t]`` holds the cards two below to two above it in its suit.
RUN_WINDOW: Final = tuple(_run_window(i) for i in range(56))
#: Whether such a window makes a three-card run with the card in the middle.
RUN_OK: Final = tuple(bool((w & 3) == 3 or (w & 10) == 10 or (w & 24) == 24) for w in range(32))


def rotated(row: int) -> int:
    """
    A suit's row with the ace moved below the 2: bit 0 is the ace, bit 1 the 2, ..., bit 12 the king.
    """
    return (row << 1 | row >> 12) & ROW


def unrotated(row: int) -> int:
    """
    The inverse of `rotated`.
    """
    return (row >> 1 | (row & 1) << 12) & ROW


def is_block(bits: int) -> bool:
    """
    Whether the set bits of *bits* (not 0) are consecutive.
    """
    shifted = bits >> ((bits & -bits).bit_length() - 1)
    return shifted & (shifted + 1) == 0


def is_low_run(row: int) -> bool:
    """
    Whether the cards *row* of one suit are a run that takes its ace low (A8): the ace, the 2,
    and consecutive cards up from there, short of the whole suit.
    """
    return row & (ACE | 1) == ACE | 1 and row != ROW and is_block(rotated(row))


def _row_runs(row: int) -> tuple[int, ...]:
    runs = []
    for start in range(13):
        if not row >> start & 1:
            continue
        mask = 1 << start
        for end in range(start + 1, 13):
            if not row >> end & 1:
                break
            mask |= 1 << end
            if end - start >= 2:
                runs.append(mask)
    return tuple(runs)


#: For each 13-bit pattern of one suit, every run (three or more consecutive cards) inside it.
ROW_RUNS: Final = tuple(_row_runs(row) if row & (row >> 1) & (row >> 2) else () for row in range(1 << 13))
_LOW_RUNS: dict[int, tuple[int, ...]] = {}


def low_runs(row: int) -> tuple[int, ...]:
    """
    The runs inside the cards *row* of one suit that take the ace low (A8): A-2-3, A-2-3-4, ...
    """
    runs = _LOW_RUNS.get(row)
    if runs is None:
        runs = tuple(unrotated(run) for run in ROW_RUNS[rotated(row)] if run & 1 and run != ROW)
        _LOW_RUNS[row] = runs
    return runs


#: What `meld_shape` says of cards that form no meld, a set, a run.
NO_MELD: Final = 0
SET: Final = 1
RUN: Final = 2


def meld_shape(mask: int, *, ace_low: bool = False) -> int:
    """
    `SET`, `RUN` or `NO_MELD`: the kind of meld the cards of *mask* form (R9-R12, A8).
    """
    n = mask.bit_count()
    if n < 3:
        return NO_MELD
    low = (mask & -mask).bit_length() - 1
    if low >= 52:
        return SET if n <= 4 else NO_MELD
    if n <= 4 and mask & ~RANK_MASKS[low % 13] == 0:
        return SET
    block = low - low % 13
    if mask & ~(ROW << block) == 0:
        row = mask >> block
        if is_block(row) or (ace_low and is_low_run(row)):
            return RUN
    return NO_MELD


def group_melds(cards: int) -> tuple[int, ...]:
    """
    The sets that can be laid down from *cards*, all of one rank: the four, then each three.
    """
    melds = _GROUP_MELDS.get(cards)
    if melds is None:
        bits = [1 << i for i in range(56) if cards >> i & 1]
        melds = () if len(bits) < 3 else (cards,) if len(bits) == 3 else (cards, *(cards & ~bit for bit in bits))
        _GROUP_MELDS[cards] = melds
    return melds


_GROUP_MELDS: dict[int, tuple[int, ...]] = {}


def run_span(row: int, *, ace_low: bool) -> tuple[int, int]:
    """
    The places of the lowest and the highest card of the run *row*, counting the 2 as 0 and
    the ace as 12, or as -1 where the run takes it low (A8).
    """
    if ace_low and is_low_run(row):
        return -1, (row & ~ACE).bit_length() - 1
    return (row & -row).bit_length() - 1, row.bit_length() - 1


def place_bit(place: int) -> int:
    """
    The bit in a row of the card at *place* (-1 is the low ace).
    """
    return ACE if place == -1 else 1 << place


def extensions(mask: int, shape: int, *, ace_low: bool) -> tuple[int, int]:
    """
    The cards that extend a meld by themselves (a set's missing card, the cards next to a
    run's ends), and for a run the other cards of its suit, which extend it together with
    the cards between.
    """
    lo = (mask & -mask).bit_length() - 1
    if shape == SET:
        return (0 if mask.bit_count() == 4 else RANK_MASKS[13 if lo >= 52 else lo % 13] & ~mask), 0
    block = lo - lo % 13
    row = mask >> block
    low, high = run_span(row, ace_low=ace_low)
    ends = 0
    if low > 0 or (low == 0 and ace_low and not row & ACE):
        ends |= place_bit(low - 1)
    if high < 12:
        ends |= 1 << (high + 1)
    return ends << block, (ROW & ~row & ~ends) << block
