"""
Precomputed bit tables for the engine's hot path.

Card ``i`` of `FULL_DECK` is bit ``1 << i``: suit ``i // 13`` (clubs, diamonds,
hearts, spades), rank offset ``i % 13`` (2 to ace) for ``i < 52``; the jokers
are bits 52-55.  A suit's 13 cards are consecutive bits, so a run is a block of
consecutive bits inside one suit's block.
"""

from __future__ import annotations

from typing import Final

from .melds import JOKER_MASK, RANK_MASKS, SUIT_MASKS

ALL_CARDS: Final = (1 << 56) - 1
ROW: Final = 0x1FFF


def _group(i: int) -> int:
    return JOKER_MASK if i >= 52 else RANK_MASKS[i % 13]


#: For each card, the other cards of its rank (the other jokers for a joker).
GROUP_OTHERS: Final = tuple(_group(i) & ~(1 << i) for i in range(56))
#: For each card, the cards of its rank, itself included (all jokers for a joker).
GROUP: Final = tuple(_group(i) for i in range(56))
#: For each card, its suit's block of bits (0 for a joker).
SUIT_BLOCK: Final = tuple(SUIT_MASKS[i // 13] if i < 52 else 0 for i in range(56))


def _run_window(i: int) -> int:
    if i >= 52:
        return 0
    offset = i % 13
    return sum(1 << k for k in (0, 1, 3, 4) if 0 <= offset - 2 + k <= 12)


#: For card ``t``, ``(cards << 2 >> t) & RUN_WINDOW[t]`` holds the cards two below to two above it in its suit.
RUN_WINDOW: Final = tuple(_run_window(i) for i in range(56))
#: Whether such a window makes a three-card run with the card in the middle.
RUN_OK: Final = tuple(bool((w & 3) == 3 or (w & 10) == 10 or (w & 24) == 24) for w in range(32))


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


def _group_melds(cards: int) -> tuple[int, ...]:
    bits = [1 << i for i in range(56) if cards >> i & 1]
    if len(bits) < 3:
        return ()
    if len(bits) == 3:
        return (cards,)
    return (cards, *(cards & ~bit for bit in bits))


def group_melds(cards: int) -> tuple[int, ...]:
    """
    The sets that can be laid down from *cards*, all of one rank: the four, then each three.
    """
    return _GROUP_MELDS_CACHE.get(cards) or _GROUP_MELDS_CACHE.setdefault(cards, _group_melds(cards))


_GROUP_MELDS_CACHE: dict[int, tuple[int, ...]] = {}
