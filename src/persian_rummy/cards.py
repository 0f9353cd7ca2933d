"""
Cards: suits, ranks, the 56 cards of the deck and their text form.  What a card scores
depends on the rules: `persian_rummy.Rules.points` and `persian_rummy.card_points`.

The deck is the 52-card French deck plus four jokers (R2).  The jokers are
distinguishable (``X1`` to ``X4``) so that "every card exactly once" can be
checked, but the rules treat them alike.

>>> card = Card.parse("Qh")
>>> card
Card.parse('Qh')
>>> card.rank, card.suit
(<Rank.QUEEN: 12>, <Suit.HEARTS: 'h'>)
>>> [str(c) for c in FULL_DECK[:3]], len(FULL_DECK)
(['2c', '3c', '4c'], 56)
>>> sorted([Card.parse("X2"), Card.parse("As"), Card.parse("2d")], key=by_rank)
[Card.parse('2d'), Card.parse('As'), Card.parse('X2')]
"""

from __future__ import annotations

import enum
from typing import Final

from attrs import field, frozen

from . import limits as _limits
from ._internal import choices as _choices
from ._internal import drawing as _drawing
from .exceptions import InvalidNotationError, InvalidTypeError, InvalidValueError

__all__ = [
    "FULL_DECK",
    "JOKERS",
    "Card",
    "Rank",
    "Suit",
    "by_rank",
    "by_suit",
    "parse_cards",
]


def __dir__() -> list[str]:
    return __all__


class Suit(enum.Enum):
    """
    The four suits, in the order used to break ties in the team draw (A1).

    The value is the suit's letter in card notation.
    """

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        return _choices.refuse(cls, value)

    @property
    def symbol(self) -> str:
        """
        The suit's symbol, for display: ``♣ ♦ ♥ ♠``.
        """
        return _SUIT_SYMBOLS[self]


_SUITS: Final = tuple(Suit)
_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(_SUITS)}
_SUIT_SYMBOLS: Final = dict(zip(_SUITS, "♣♦♥♠", strict=True))


class Rank(enum.IntEnum):
    """
    Ranks in playing order: 2 is lowest, the ace is high (R3); jokers stand apart.

    The integer value is the rank's place in a run (R12); jokers never take
    part in runs.
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        return _choices.refuse(cls, value)

    @property
    def letter(self) -> str:
        """
        The rank's character in card notation (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``X``).
        """
        return _RANK_LETTERS[self - 2]


_RANK_LETTERS: Final = "23456789TJQKAX"
_NATURAL_RANKS: Final = tuple(Rank)[:-1]


@frozen(eq=False, repr=False)
class Card:
    """
    One of the 56 cards.

    A natural card has a rank and a suit; a joker has rank `Rank.JOKER`, no
    suit and a number from 1 to 4 that tells the four jokers apart.  Build
    cards with `Card.parse`, `Card.joker` or from `FULL_DECK`; two cards are
    equal when they are the same card of the deck.

    Cards have no global ordering: sort them with an explicit key such as
    `by_rank` or `by_suit`.

    Attributes:
        rank: The card's rank.
        suit: The card's suit, `None` for a joker.
        joker_number: 1-4 for a joker, 0 for every other card.
        index: The card's place in `FULL_DECK` (0-55); its bit in a `CardSet` is ``1 << index``.
    """

    rank: Rank
    suit: Suit | None = None
    joker_number: int = 0
    index: int = field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        rank: object = self.rank
        if not isinstance(rank, Rank):
            msg = f"rank must be a Rank, got {_limits.shown(rank)}"
            raise InvalidTypeError(msg)
        if self.rank is Rank.JOKER:
            if self.suit is not None or type(self.joker_number) is not int or not 1 <= self.joker_number <= 4:
                msg = f"a joker has no suit and a number from 1 to 4, got {self.suit!r}, {self.joker_number!r}"
                raise InvalidValueError(msg)
            index = 51 + self.joker_number
        else:
            if not isinstance(self.suit, Suit) or self.joker_number != 0:
                rank = self.rank.name.lower()
                msg = f"a {rank} needs a suit and no joker number, got {self.suit!r}, {self.joker_number!r}"
                raise InvalidValueError(msg)
            index = _SUIT_INDEX[self.suit] * 13 + self.rank - 2
        object.__setattr__(self, "index", index)

    @classmethod
    def joker(cls, number: int) -> Card:
        """
        The joker numbered *number* (1-4).

        >>> Card.joker(3)
        Card.parse('X3')
        """
        return cls(Rank.JOKER, None, number)

    @classmethod
    def parse(cls, text: str) -> Card:
        """
        Read a card from its notation: rank then suit (``Qh``, ``Th``, ``2c``), or ``X1``-``X4`` for a joker.

        ``10`` is accepted for ``T``.

        Raises:
            InvalidNotationError: *text* is not a card.

        >>> Card.parse("Th") == Card.parse("10h")
        True
        """
        raw: object = text
        card = _BY_TEXT.get(text) if isinstance(raw, str) else None
        if card is None and isinstance(raw, str) and raw.startswith("10"):
            card = _BY_TEXT.get("T" + raw[2:])
        if card is None:
            what = _limits.shown(text)
            msg = f"not a card: {what} (expected a rank 2-9, T, J, Q, K, A and a suit c, d, h, s, or a joker X1-X4)"
            raise InvalidNotationError(msg)
        return card

    @classmethod
    def of(cls, value: Card | str) -> Card:
        """
        The card *value* stands for: a `Card` itself, or its notation, read by `Card.parse`.

        Raises:
            InvalidNotationError: *value* is text but not a card.
            InvalidTypeError: *value* is neither a card nor text.

        >>> Card.of("Qh") is Card.of(Card.parse("Qh"))
        True
        """
        if type(value) is Card:
            return value
        if isinstance(value, str):
            return cls.parse(value)
        msg = f"a card is a Card or its notation, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)

    @property
    def is_joker(self) -> bool:
        """
        Whether the card is one of the four jokers.
        """
        return self.rank is Rank.JOKER

    @property
    def symbol(self) -> str:
        """
        The card for display, with the suit's symbol: ``Q♥``, ``10♣``, ``🃏1``.
        """
        if self.suit is None:
            return f"🃏{self.joker_number}"
        rank = "10" if self.rank is Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __format__(self, spec: str) -> str:
        """
        The card's notation, formatted by *spec* as a string is: ``f"{card:>4}"``.
        """
        return format(_TEXT[self.index], spec)

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self.index]!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is Card:
            return self.index == other.index
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if type(other) is Card:
            return self.index != other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (_TEXT[self.index],))

    def _repr_svg_(self) -> str:
        """
        The card drawn in SVG, as a notebook shows it (`persian_rummy.pictures.render_svg`).
        """
        return _drawing.cards_document((self,))

    def _repr_html_(self) -> str:
        return self._repr_svg_()


#: All 56 cards in index order: clubs 2 to ace, then diamonds, hearts, spades, then jokers X1-X4.
#:
#: :meta hide-value:
FULL_DECK: Final[tuple[Card, ...]] = (
    *(Card(rank, suit) for suit in _SUITS for rank in _NATURAL_RANKS),
    *(Card(Rank.JOKER, None, n) for n in range(1, 5)),
)

#: The four jokers.
JOKERS: Final[tuple[Card, ...]] = FULL_DECK[52:]

_TEXT: Final = tuple(
    f"X{card.joker_number}" if card.suit is None else card.rank.letter + card.suit.value for card in FULL_DECK
)
_BY_TEXT: Final = dict(zip(_TEXT, FULL_DECK, strict=True))


def parse_cards(text: str) -> tuple[Card, ...]:
    """
    Cards written together (``QhQs``) or apart (``Qh Qs``), in order; ``-`` for none.

    Raises:
        InvalidNotationError: a part is not a card.

    >>> parse_cards("QhQs 10c X1")
    (Card.parse('Qh'), Card.parse('Qs'), Card.parse('Tc'), Card.parse('X1'))
    """
    raw: object = text
    if not isinstance(raw, str):
        msg = f"cards must be written as a string, got {_limits.shown(raw)}"
        raise InvalidNotationError(msg)
    if len(text) > _limits.MAX_NOTATION:
        msg = f"cards written in more than {_limits.MAX_NOTATION:,} characters: {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    if text.strip() == "-":
        return ()
    result: list[Card] = []
    for token in text.split():
        i = 0
        while i < len(token):
            size = 3 if token.startswith("10", i) else 2
            part = token[i : i + size]
            card = _BY_TEXT.get(part) or (_BY_TEXT.get("T" + part[2:]) if size == 3 else None)
            if card is None:
                msg = f"not a card: {_limits.shown(part)} in {_limits.shown(text)}"
                raise InvalidNotationError(msg)
            result.append(card)
            i += size
    return tuple(result)


def by_rank(card: Card | str) -> tuple[int, int]:
    """
    Sort key: by rank (2 low, ace high, jokers last), then by suit (clubs, diamonds, hearts, spades).

    >>> " ".join(str(c) for c in sorted(FULL_DECK[::9], key=by_rank))
    '2c 3h 7d 8s Jc Qh X3'
    """
    card = Card.of(card)
    return (card.rank, card.index)


def by_suit(card: Card | str) -> int:
    """
    Sort key: by suit (clubs, diamonds, hearts, spades, then jokers), then by rank within the suit.

    This is the order of `FULL_DECK` and of iterating a `CardSet`.

    >>> " ".join(str(c) for c in sorted(Card.parse(t) for t in ("X1", "Ah", "2h", "Kc")))
    Traceback (most recent call last):
    ...
    TypeError: '<' not supported between instances of 'Card' and 'Card'
    >>> " ".join(str(c) for c in sorted((Card.parse(t) for t in ("X1", "Ah", "2h", "Kc")), key=by_suit))
    'Kc 2h Ah X1'
    """
    return Card.of(card).index
