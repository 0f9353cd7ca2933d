"""
`CardSet`: an immutable set of cards stored as one integer, one bit per card.

Hands, melds and everything else that is an unordered group of cards are
card sets.  They iterate in `FULL_DECK` order (by suit, then rank), compare by
value and combine with the set operators.

>>> hand = CardSet.parse("Qh Qs 2c X1")
>>> hand
CardSet.parse('2c Qh Qs X1')
>>> len(hand), Card.parse("Qs") in hand
(4, True)
>>> str(hand - CardSet.parse("Qh Qs"))
'2c X1'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from attrs import field, frozen

from . import limits as _limits
from ._internal import build as _build
from ._internal import coerce as _coerce
from ._internal import drawing as _drawing
from ._internal import tables as _tables
from .cards import FULL_DECK, Card, parse_cards
from .exceptions import InvalidNotationError, InvalidTypeError, InvalidValueError

__all__ = ["CardSet"]


def __dir__() -> list[str]:
    return __all__


def _to_mask(cards: Iterable[Card | str] | CardSet | str | int) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, str):
        return CardSet.parse(cards).mask
    if isinstance(cards, int):
        if isinstance(cards, bool) or not 0 <= cards <= _tables.ALL_CARDS:
            msg = f"a card set mask is an int of 56 bits, got {_limits.shown(cards)}"
            raise InvalidValueError(msg)
        return cards
    raw: object = cards
    if not isinstance(raw, Iterable):
        msg = f"cards must be cards, their notation or a card set, got {_limits.shown(cards)}"
        raise InvalidTypeError(msg)
    mask = 0
    for item in cards:
        card = _coerce.card(item, "each card of a set")
        bit = 1 << card.index
        if mask & bit:
            msg = f"card {card} appears twice in {_limits.shown(cards)}"
            raise InvalidValueError(msg)
        mask |= bit
    return mask


@frozen(repr=False, weakref_slot=False)
class CardSet:
    """
    An immutable set of cards.

    Build one from cards or their notation (``CardSet([card, "Qh"])``, ``CardSet("Qh Qs")``),
    with `CardSet.parse`, or from a 56-bit mask (``CardSet(0b111)``).  A card given twice is
    refused: a set of cards holds each of the 56 at most once.

    Raises:
        InvalidValueError: a card given twice, or a mask out of range.
        InvalidTypeError: something that is not a card, notation or a mask.

    Attributes:
        mask: Bit ``i`` is set when ``FULL_DECK[i]`` is in the set.
    """

    mask: int = field(default=0, converter=_to_mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """
        Read cards written together (``"QhQsQd"``) or apart (``"Qh Qs Qd"``); ``-`` for none.

        Raises:
            InvalidNotationError: a token is not a card, or a card appears twice.

        >>> CardSet.parse("QhQsQd") == CardSet.parse("Qd Qh Qs")
        True
        """
        mask = 0
        for card in parse_cards(text):
            bit = 1 << card.index
            if mask & bit:
                msg = f"card {card} appears twice in {_limits.shown(text)}"
                raise InvalidNotationError(msg)
            mask |= bit
        return _card_set(mask)

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield FULL_DECK[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        """
        Whether *card*, a `Card` or its notation, is in the set.

        Raises:
            InvalidNotationError: *card* is text but not a card's notation.
        """
        if isinstance(card, str):
            card = Card.parse(card)
        return type(card) is Card and bool(self.mask >> card.index & 1)

    def __or__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return _card_set(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return _card_set(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return _card_set(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return _card_set(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.mask & ~other.mask == 0

    def __ge__(self, other: CardSet) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return other.mask & ~self.mask == 0

    def isdisjoint(self, other: Iterable[Card | str] | CardSet | str) -> bool:
        """
        Whether the two sets share no card (*other* may also be cards or their notation).
        """
        return self.mask & (other.mask if type(other) is CardSet else _to_mask(other)) == 0

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        if not self.mask:
            return "CardSet()"
        return f"CardSet.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """
        The cards drawn side by side in SVG, as a notebook shows them (`persian_rummy.pictures.render_svg`).
        """
        return _drawing.cards_document(tuple(self))

    def _repr_html_(self) -> str:
        return self._repr_svg_()


_card_set: Final = _build.single(CardSet, int)
