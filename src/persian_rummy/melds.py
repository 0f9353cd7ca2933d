"""
Melds: recognising sets and runs, and the melds on the table.

A **set** is three or four cards of one rank; jokers form sets only among
themselves (R10, R11, A7).  A **run** is three or more cards of one suit in
sequence, 2 lowest and ace highest, never wrapping and never with a joker
(R12, A8).

>>> meld_kind(CardSet.parse("Qh Qs Qd"))
<MeldKind.SET: 'set'>
>>> meld_kind(CardSet.parse("Qs Ks As"))
<MeldKind.RUN: 'run'>
>>> meld_kind(CardSet.parse("Ks As 2s")) is None  # no wrap-around (R12)
True
>>> meld_kind(CardSet.parse("X1 Qh Qs")) is None  # jokers are not wild (R11)
True

A `TableMeld` is a meld on the table: it remembers the seat that laid it
down, the cards of that laying-down action and the cards each seat laid off
onto it (R17, R25, R26).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from attrs import field, frozen

from .cards import FULL_DECK, Card, Rank, Suit
from .cardsets import EMPTY, CardSet, _card_set
from .exceptions import InvalidMeldError

__all__ = ["MeldKind", "TableMeld", "is_meld", "meld_kind"]


def __dir__() -> list[str]:
    return __all__


class MeldKind(enum.StrEnum):
    """
    The two kinds of meld (R9).
    """

    SET = "set"
    RUN = "run"


#: Bits of each suit's 13 cards, 2 to ace; index 0 clubs ... 3 spades.
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
#: Bits of the four jokers.
JOKER_MASK: Final = 0xF << 52
#: Bits of the four cards at each offset 0-12 within a suit (2 to ace), then the jokers at 13.
RANK_MASKS: Final = (*(sum(1 << (13 * s + r) for s in range(4)) for r in range(13)), JOKER_MASK)


def kind_of_mask(mask: int) -> MeldKind | None:
    """
    The kind of meld the cards of *mask* form, or `None`.
    """
    n = mask.bit_count()
    if n < 3:
        return None
    low = (mask & -mask).bit_length() - 1
    if low >= 52:
        return MeldKind.SET if n <= 4 else None
    offset = low % 13
    if n <= 4 and mask & ~RANK_MASKS[offset] == 0:
        return MeldKind.SET
    if mask & ~SUIT_MASKS[low // 13] == 0:
        shifted = mask >> low
        if shifted & (shifted + 1) == 0:
            return MeldKind.RUN
    return None


def _mask_of(cards: Iterable[Card] | CardSet) -> int:
    return cards.mask if isinstance(cards, CardSet) else CardSet(cards).mask


def meld_kind(cards: Iterable[Card] | CardSet) -> MeldKind | None:
    """
    Whether *cards* form a set, a run or no meld at all (`None`).
    """
    return kind_of_mask(_mask_of(cards))


def is_meld(cards: Iterable[Card] | CardSet) -> bool:
    """
    Whether *cards* form a valid set or run.

    >>> is_meld(CardSet.parse("2c 3c 4c")), is_meld(CardSet.parse("Ac 2c 3c"))
    (True, False)
    """
    return kind_of_mask(_mask_of(cards)) is not None


def _layoffs(value: Iterable[CardSet] | None) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    if value is None:
        return _NO_LAYOFFS
    result = tuple(value)
    if len(result) != 4 or not all(type(part) is CardSet for part in result):
        msg = f"layoffs must be four card sets, one per seat, got {value!r}"
        raise ValueError(msg)
    return result


_NO_LAYOFFS: Final = (EMPTY, EMPTY, EMPTY, EMPTY)


@frozen(repr=False)
class TableMeld:
    """
    A meld on the table.

    Attributes:
        owner: The seat that laid the meld down.
        laid_down: The cards of that laying-down action.
        layoffs: The cards each seat (index 0-3) later laid off onto the meld (R17).
            They score for the team of the seat that laid them off (R26).
        cards: Every card of the meld (derived).
        kind: Set or run (derived).
        ends: Bit mask of the cards that extend the meld by themselves: a set's
            missing card, the cards next to a run's ends (derived).
        reach: Bit mask of the other cards of a run's suit, which extend it together
            with the cards between (derived; 0 for a set).

    Raises:
        InvalidMeldError: the cards laid down, or all the cards together, are not a
            meld of one kind, or the parts overlap.

    >>> meld = TableMeld(0, CardSet.parse("Kc Kd Ks"))
    >>> meld = meld.with_layoff(1, CardSet.parse("Kh"))
    >>> meld.kind, str(meld.cards), meld.contributor(Card.parse("Kh"))
    (<MeldKind.SET: 'set'>, 'Kc Kd Kh Ks', 1)
    >>> meld.four_at_once
    False
    """

    owner: int = field()
    laid_down: CardSet = field()
    layoffs: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=None, converter=_layoffs)
    cards: CardSet = field(init=False, eq=False)
    kind: MeldKind = field(init=False, eq=False)
    ends: int = field(init=False, eq=False, repr=False)
    reach: int = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if type(self.owner) is not int or not 0 <= self.owner <= 3:
            msg = f"owner must be a seat 0-3, got {self.owner!r}"
            raise InvalidMeldError(msg)
        if type(self.laid_down) is not CardSet:
            msg = f"laid_down must be a CardSet, got {self.laid_down!r}"
            raise InvalidMeldError(msg)
        kind = kind_of_mask(self.laid_down.mask)
        if kind is None:
            msg = f"{self.laid_down} is not a set or a run"
            raise InvalidMeldError(msg)
        mask = self.laid_down.mask
        for part in self.layoffs:
            if part.mask & mask:
                msg = f"card(s) {part & _card_set(mask)} appear twice in the meld"
                raise InvalidMeldError(msg)
            mask |= part.mask
        if mask != self.laid_down.mask and kind_of_mask(mask) is not kind:
            msg = f"{_card_set(mask)} is not a {kind}"
            raise InvalidMeldError(msg)
        object.__setattr__(self, "cards", _card_set(mask))
        object.__setattr__(self, "kind", kind)
        ends, reach = _extensions(mask, kind)
        object.__setattr__(self, "ends", ends)
        object.__setattr__(self, "reach", reach)

    @property
    def four_at_once(self) -> bool:
        """
        Whether four cards were laid down in one action (R25, A20).
        """
        return self.laid_down.mask.bit_count() == 4

    @property
    def contributions(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """
        The cards each seat placed on this meld, laying down included.
        """
        parts = list(self.layoffs)
        parts[self.owner] = parts[self.owner] | self.laid_down
        return (parts[0], parts[1], parts[2], parts[3])

    def contributor(self, card: Card) -> int:
        """
        The seat that placed *card* on this meld.

        Raises:
            KeyError: *card* is not in the meld.
        """
        if card in self.laid_down:
            return self.owner
        for seat, part in enumerate(self.layoffs):
            if card in part:
                return seat
        raise KeyError(card)

    @property
    def rank(self) -> Rank | None:
        """
        The rank of a set, `None` for a run.
        """
        if self.kind is MeldKind.RUN:
            return None
        return FULL_DECK[(self.cards.mask & -self.cards.mask).bit_length() - 1].rank

    @property
    def suit(self) -> Suit | None:
        """
        The suit of a run, `None` for a set.
        """
        if self.kind is MeldKind.SET:
            return None
        return FULL_DECK[(self.cards.mask & -self.cards.mask).bit_length() - 1].suit

    def with_layoff(self, seat: int, cards: CardSet) -> TableMeld:
        """
        This meld with *cards* laid off onto it by *seat*.

        Raises:
            InvalidMeldError: the meld would no longer be valid.
        """
        if type(seat) is not int or not 0 <= seat <= 3:
            msg = f"seat must be 0-3, got {seat!r}"
            raise InvalidMeldError(msg)
        parts = list(self.layoffs)
        parts[seat] = parts[seat] | cards
        return TableMeld(self.owner, self.laid_down, parts)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        if self.layoffs == _NO_LAYOFFS:
            return f"TableMeld({self.owner}, {self.laid_down!r})"
        return f"TableMeld({self.owner}, {self.laid_down!r}, {self.layoffs!r})"


def _table_meld(
    owner: int, laid_down: CardSet, layoffs: tuple[CardSet, CardSet, CardSet, CardSet], mask: int, kind: MeldKind
) -> TableMeld:
    """
    Build a table meld from parts known to be valid, skipping the checks.
    """
    new = object.__new__(TableMeld)
    setter = object.__setattr__
    setter(new, "owner", owner)
    setter(new, "laid_down", laid_down)
    setter(new, "layoffs", layoffs)
    setter(new, "cards", _card_set(mask))
    setter(new, "kind", kind)
    ends, reach = _extensions(mask, kind)
    setter(new, "ends", ends)
    setter(new, "reach", reach)
    return new


def _extensions(mask: int, kind: MeldKind) -> tuple[int, int]:
    """
    The cards that extend a meld by themselves (a set's missing card, the cards next to a
    run's ends), and for a run the other cards of its suit, which extend it with those between.
    """
    lo = (mask & -mask).bit_length() - 1
    if kind is MeldKind.SET:
        return (0 if mask.bit_count() == 4 else RANK_MASKS[13 if lo >= 52 else lo % 13] & ~mask), 0
    base = lo - lo % 13
    hi = mask.bit_length() - 1
    ends = (1 << (lo - 1) if lo > base else 0) | (1 << (hi + 1) if hi < base + 12 else 0)
    return ends, SUIT_MASKS[lo // 13] & ~mask & ~ends
