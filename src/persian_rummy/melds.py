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

from collections.abc import Iterable
from typing import Final

from attrs import field, frozen

from . import _arguments, _tables
from ._core import drawing as _drawing
from ._core import limits as _limits
from ._core import seats as _seats
from ._core.choices import Choice as _Choice
from .cards import FULL_DECK, Card, Rank, Suit
from .cardsets import CardSet
from .exceptions import InvalidMeldError, InvalidTypeError, InvalidValueError
from .rules import DEFAULT_RULES, Rules

__all__ = ["MeldKind", "TableMeld", "is_meld", "meld_kind"]


def __dir__() -> list[str]:
    return __all__


class MeldKind(_Choice):
    """
    The two kinds of meld (R9).
    """

    SET = "set"
    RUN = "run"


# MeldKind by what `_tables.meld_shape` says.
_KINDS: Final = (None, MeldKind.SET, MeldKind.RUN)


def _mask_of(cards: Iterable[Card | str] | CardSet | str, rules: Rules) -> int:
    raw: object = rules
    if not isinstance(raw, Rules):
        msg = f"rules must be a Rules, got {_limits.shown(rules)}"
        raise InvalidTypeError(msg)
    return cards.mask if type(cards) is CardSet else CardSet(cards).mask


def meld_kind(cards: Iterable[Card | str] | CardSet | str, rules: Rules = DEFAULT_RULES) -> MeldKind | None:
    """
    Whether *cards* form a set, a run or no meld at all (`None`) under *rules*.

    Only `Rules.ace_low_allowed` changes the answer: it makes A-2-3 a run (A8).

    >>> meld_kind(CardSet.parse("Ah 2h 3h")), meld_kind(CardSet.parse("Ah 2h 3h"), Rules(ace_low_allowed=True))
    (None, <MeldKind.RUN: 'run'>)
    """
    return _KINDS[_tables.meld_shape(_mask_of(cards, rules), ace_low=rules.ace_low_allowed)]


def is_meld(cards: Iterable[Card | str] | CardSet | str, rules: Rules = DEFAULT_RULES) -> bool:
    """
    Whether *cards* form a valid set or run under *rules* (Persian Rummy's by default).

    The cards may be a `CardSet`, or cards or their notation, one by one or as one text.

    >>> is_meld(CardSet.parse("2c 3c 4c")), is_meld("Ac 2c 3c"), is_meld(["Qh", "Qs", "Qd"])
    (True, False, True)
    """
    return _tables.meld_shape(_mask_of(cards, rules), ace_low=rules.ace_low_allowed) != _tables.NO_MELD


def _cards(value: Iterable[Card | str] | CardSet | str) -> CardSet:
    return _arguments.cards(value, "laid_down")


def _layoffs(value: Iterable[Iterable[Card | str] | CardSet | str] | None) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    if value is None:
        return _NO_LAYOFFS
    raw: object = value
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"layoffs must be four card sets, one per seat, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    result = tuple(_arguments.cards(part, "layoffs") for part in value)
    if len(result) != len(_seats.SEATS):
        msg = f"layoffs must be four card sets, one per seat, got {len(result)}"
        raise InvalidValueError(msg)
    return result  # type: ignore[return-value]  # four, checked


_EMPTY: Final = CardSet()
_NO_LAYOFFS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)


@frozen(repr=False, weakref_slot=False)
class TableMeld:
    """
    A meld on the table.

    Attributes:
        owner: The seat that laid the meld down.
        laid_down: The cards of that laying-down action.
        layoffs: The cards each seat (index 0-3) later laid off onto the meld (R17).
            They score for the team of the seat that laid them off (R26).
        ace_low: Whether the meld lies under rules that let a run take its ace low
            (`Rules.ace_low_allowed`, A8): then A-2-3 is a run, and an ace extends a run
            from the 2 down.
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
    >>> TableMeld(2, CardSet.parse("Ad 2d 3d"), ace_low=True).kind
    <MeldKind.RUN: 'run'>
    """

    owner: int = field()
    laid_down: CardSet = field(converter=_cards)
    layoffs: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=None, converter=_layoffs)
    ace_low: bool = field(default=False, kw_only=True)
    cards: CardSet = field(init=False, eq=False)
    kind: MeldKind = field(init=False, eq=False)
    ends: int = field(init=False, eq=False, repr=False)
    reach: int = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not _seats.is_seat(self.owner):
            msg = f"owner must be a seat 0-3, got {self.owner!r}"
            raise InvalidMeldError(msg)
        if type(self.laid_down) is not CardSet:
            msg = f"laid_down must be a CardSet, got {self.laid_down!r}"
            raise InvalidMeldError(msg)
        ace_low: object = self.ace_low
        if type(ace_low) is not bool:
            msg = f"ace_low must be True or False, got {ace_low!r}"
            raise InvalidMeldError(msg)
        shape = _tables.meld_shape(self.laid_down.mask, ace_low=self.ace_low)
        if shape == _tables.NO_MELD:
            msg = f"{self.laid_down} is not a set or a run"
            raise InvalidMeldError(msg)
        mask = self.laid_down.mask
        for part in self.layoffs:
            if part.mask & mask:
                msg = f"card(s) {part & CardSet(mask)} appear twice in the meld"
                raise InvalidMeldError(msg)
            mask |= part.mask
        if mask != self.laid_down.mask and _tables.meld_shape(mask, ace_low=self.ace_low) != shape:
            msg = f"{CardSet(mask)} is not a {_KINDS[shape]}"
            raise InvalidMeldError(msg)
        ends, reach = _tables.extensions(mask, shape, ace_low=self.ace_low)
        object.__setattr__(self, "cards", CardSet(mask))
        object.__setattr__(self, "kind", _KINDS[shape])
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

    def contributor(self, card: Card | str) -> int:
        """
        The seat that placed *card* (a `Card` or its notation) on this meld.

        Raises:
            InvalidValueError: *card* is not in the meld.
        """
        card = Card.of(card)
        if card in self.laid_down:
            return self.owner
        for seat, part in enumerate(self.layoffs):
            if card in part:
                return seat
        msg = f"card {card} is not in the meld {self.cards}"
        raise InvalidValueError(msg)

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

    def with_layoff(self, seat: int, cards: Iterable[Card | str] | CardSet | str) -> TableMeld:
        """
        This meld with *cards* (a `CardSet`, or cards or their notation) laid off onto it by *seat*.

        Raises:
            InvalidMeldError: the meld would no longer be valid.
        """
        if not _seats.is_seat(seat):
            msg = f"seat must be 0-3, got {seat!r}"
            raise InvalidMeldError(msg)
        parts = list(self.layoffs)
        parts[seat] = parts[seat] | _arguments.cards(cards, "cards")
        return TableMeld(self.owner, self.laid_down, parts, ace_low=self.ace_low)

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        extra = ", ace_low=True" if self.ace_low else ""
        if self.layoffs == _NO_LAYOFFS:
            return f"TableMeld({self.owner}, {self.laid_down!r}{extra})"
        return f"TableMeld({self.owner}, {self.laid_down!r}, {self.layoffs!r}{extra})"

    def _repr_svg_(self) -> str:
        """
        The meld drawn in SVG with who laid it down and who laid off what, as a notebook shows it
        (`persian_rummy.pictures.render_svg`).
        """
        return _drawing.meld_document(self)

    def _repr_html_(self) -> str:
        return self._repr_svg_()
