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
onto it (R17, R25, R26), and, under `Rules.jokers_wild`, the cards its jokers
stand for (`StandIns`, A7).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Final

from attrs import field, frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import coerce as _coerce
from ._internal import drawing as _drawing
from ._internal import seats as _seats
from ._internal import tables as _tables
from .cards import FULL_DECK, Card, Rank, Suit
from .cardsets import CardSet
from .choices import Choice as _Choice
from .exceptions import InvalidMeldError, InvalidNotationError, InvalidTypeError, InvalidValueError
from .rules import DEFAULT_RULES, Rules

__all__ = ["MeldKind", "StandIns", "TableMeld", "is_meld", "meld_kind"]


def __dir__() -> list[str]:
    return __all__


class MeldKind(_Choice):
    """
    The two kinds of meld (R9).
    """

    SET = "set"
    RUN = "run"


def _stand_in_pairs(value: object) -> tuple[tuple[Card, Card], ...]:
    """
    The pairs of a `StandIns`, from a mapping or pairs of jokers and cards (values or their notation), checked.
    """
    if isinstance(value, StandIns):
        return value.pairs
    if isinstance(value, Mapping):
        items: Iterable[object] = value.items()
    elif isinstance(value, Iterable) and not isinstance(value, str):
        items = value
    else:
        msg = f"stand-ins are a mapping or pairs of jokers and cards, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    pairs: dict[Card, Card] = {}
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            msg = f"a stand-in is a pair of a joker and a card, got {_limits.shown(item)}"
            raise InvalidTypeError(msg)
        joker, card = (_coerce.card(part, "a stand-in's card") for part in item)
        if not joker.is_joker:
            msg = f"only a joker stands for a card (A7), not {joker}"
            raise InvalidValueError(msg)
        if card.is_joker:
            msg = f"a joker stands for a natural card (A7), not for {card}"
            raise InvalidValueError(msg)
        if joker in pairs:
            msg = f"{joker} stands for one card (A7), not for {pairs[joker]} and {card}"
            raise InvalidValueError(msg)
        if card in pairs.values():
            msg = f"two jokers stand for {card}: a card is represented once (A7)"
            raise InvalidValueError(msg)
        pairs[joker] = card
    return tuple(sorted(pairs.items(), key=lambda pair: pair[0].index))


@frozen(cache_hash=True, repr=False, weakref_slot=False)
class StandIns:
    """
    The natural cards that jokers stand for, under `Rules.jokers_wild` (A7): an immutable
    mapping from jokers to cards, each joker and each card at most once.

    Build it from a mapping or from pairs of jokers and cards, as values or their notation,
    or read its text with `StandIns.parse`; iterating yields the pairs in joker order.

    >>> stand_ins = StandIns({"X2": "8h", "X1": "6h"})
    >>> str(stand_ins), len(stand_ins), stand_ins.get("X2")
    ('X1=6h X2=8h', 2, Card.parse('8h'))
    >>> stand_ins == StandIns.parse("X1=6h X2=8h"), bool(StandIns())
    (True, False)

    Raises:
        InvalidValueError: a key that is not a joker, a value that is not a natural card, a
            joker or a card given twice.
        InvalidTypeError: something that is not a mapping or pairs of cards.

    Attributes:
        pairs: The jokers and the cards they stand for, in joker order.
        jokers: The jokers (derived).
        cards: The cards stood for (derived).
    """

    pairs: tuple[tuple[Card, Card], ...] = field(default=(), converter=_stand_in_pairs)
    jokers: CardSet = field(init=False, eq=False)
    cards: CardSet = field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "jokers", CardSet(joker for joker, _ in self.pairs))
        object.__setattr__(self, "cards", CardSet(card for _, card in self.pairs))

    @classmethod
    def parse(cls, text: str) -> StandIns:
        """
        Read stand-ins written as `str` writes them: ``JOKER=CARD`` pairs separated by spaces
        (``X1=6h X2=7h``), or nothing.

        Raises:
            InvalidNotationError: *text* is not stand-ins' notation.
        """
        raw: object = text
        if not isinstance(raw, str):
            msg = f"stand-ins must be written as a string, got {_limits.shown(raw)}"
            raise InvalidNotationError(msg)
        pairs = []
        for word in text.split():
            joker, sep, card = word.partition("=")
            if not sep:
                msg = f"a stand-in is written JOKER=CARD (X1=6h), got {_limits.shown(word)}"
                raise InvalidNotationError(msg)
            pairs.append((Card.parse(joker), Card.parse(card)))
        try:
            return cls(pairs)
        except InvalidValueError as error:
            msg = f"invalid stand-ins {_limits.shown(text)}: {error}"
            raise InvalidNotationError(msg) from None

    def write(self, cards: CardSet) -> str:
        """
        *cards* with the jokers standing for cards written with them, one word each, in the order
        of the cards they represent: how action notation and a meld's text write them.

        >>> StandIns({"X1": "6h"}).write(CardSet.parse("5h 7h X1"))
        '5h X1=6h 7h'
        """
        stood = dict(self.pairs)
        order = sorted((stood[card].index if card in stood else card.index, card) for card in cards)
        return " ".join(f"{card}={stood[card]}" if card in stood else str(card) for _, card in order)

    def get(self, joker: Card | str) -> Card | None:
        """
        The card *joker* (a `Card` or its notation) stands for, `None` if it stands for none.
        """
        joker = Card.of(joker)
        for key, card in self.pairs:
            if key == joker:
                return card
        return None

    def __iter__(self) -> Iterator[tuple[Card, Card]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def __str__(self) -> str:
        return " ".join(f"{joker}={card}" for joker, card in self.pairs)

    def __repr__(self) -> str:
        return f"StandIns.parse({str(self)!r})" if self.pairs else "StandIns()"


#: No stand-ins: what every meld and action has without jokers wild.
_NO_STAND_INS: Final = StandIns()


def _represent(stand_ins: StandIns, mask: int) -> int:
    """
    The cards that the cards of *mask* represent: its natural cards and the cards its jokers stand for.
    """
    for joker, card in stand_ins.pairs:
        if mask >> joker.index & 1:
            mask = mask & ~(1 << joker.index) | 1 << card.index
    return mask


# MeldKind by what `_internal.tables.meld_shape` says.
_KINDS: Final = (None, MeldKind.SET, MeldKind.RUN)


def _mask_of(cards: Iterable[Card | str] | CardSet | str, rules: Rules) -> int:
    raw: object = rules
    if not isinstance(raw, Rules):
        msg = f"rules must be a Rules, got {_limits.shown(rules)}"
        raise InvalidTypeError(msg)
    return cards.mask if type(cards) is CardSet else CardSet(cards).mask


def _shape(
    cards: Iterable[Card | str] | CardSet | str, rules: Rules, stand_ins: StandIns | Mapping[str, str] | None
) -> int:
    mask = _mask_of(cards, rules)
    if stand_ins is None:
        return _tables.meld_shape(mask, ace_low=rules.ace_low_allowed)
    given = StandIns(stand_ins)
    if not given:
        return _tables.meld_shape(mask, ace_low=rules.ace_low_allowed)
    jokers = given.jokers.mask
    if not rules.jokers_wild or jokers & ~mask or given.cards.mask & mask or not mask & ~_tables.JOKER_MASK:
        return _tables.NO_MELD
    if mask & _tables.JOKER_MASK & ~jokers:
        return _tables.NO_MELD
    return _tables.meld_shape(_represent(given, mask), ace_low=rules.ace_low_allowed)


def meld_kind(
    cards: Iterable[Card | str] | CardSet | str,
    rules: Rules = DEFAULT_RULES,
    *,
    stand_ins: StandIns | Mapping[str, str] | None = None,
) -> MeldKind | None:
    """
    Whether *cards* form a set, a run or no meld at all (`None`) under *rules*.

    `Rules.ace_low_allowed` makes A-2-3 a run (A8).  Under `Rules.jokers_wild` the jokers of
    *cards* may stand for the natural cards *stand_ins* (a `StandIns`, or what builds one)
    says: then the cards the meld represents must form the meld, every joker stands for a
    card, none stands for a card of *cards*, and one card at least is natural (A7).

    >>> meld_kind(CardSet.parse("Ah 2h 3h")), meld_kind(CardSet.parse("Ah 2h 3h"), Rules(ace_low_allowed=True))
    (None, <MeldKind.RUN: 'run'>)
    >>> meld_kind("5h 7h X1", Rules(jokers_wild=True), stand_ins={"X1": "6h"})
    <MeldKind.RUN: 'run'>
    """
    return _KINDS[_shape(cards, rules, stand_ins)]


def is_meld(
    cards: Iterable[Card | str] | CardSet | str,
    rules: Rules = DEFAULT_RULES,
    *,
    stand_ins: StandIns | Mapping[str, str] | None = None,
) -> bool:
    """
    Whether *cards* form a valid set or run under *rules* (Persian Rummy's by default), with
    its jokers standing for the cards of *stand_ins* under `Rules.jokers_wild` (A7, `meld_kind`).

    The cards may be a `CardSet`, or cards or their notation, one by one or as one text.

    >>> is_meld(CardSet.parse("2c 3c 4c")), is_meld("Ac 2c 3c"), is_meld(["Qh", "Qs", "Qd"])
    (True, False, True)
    >>> is_meld("5h 5s X1", Rules(jokers_wild=True), stand_ins=StandIns.parse("X1=5d"))
    True
    """
    return _shape(cards, rules, stand_ins) != _tables.NO_MELD


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
    if len(result) != 4:
        msg = f"layoffs must be four card sets, one per seat, got {len(result)}"
        raise InvalidValueError(msg)
    return result


def _stand_ins(value: object) -> StandIns:
    if type(value) is StandIns:
        return value
    try:
        return StandIns(value)
    except InvalidValueError as error:
        raise InvalidMeldError(str(error)) from None


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
        stand_ins: The cards its jokers stand for, under `Rules.jokers_wild` (A7): every joker
            laid down or laid off that stands for a card (none in a set of jokers).
        cards: Every card of the meld, jokers as themselves (derived).
        represents: The cards the meld stands for: its natural cards and the cards its
            jokers stand for; `cards` when no joker stands for a card (derived).
        kind: Set or run, of the cards it represents (derived).
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
    >>> wild = TableMeld(0, "5h 7h X1", stand_ins={"X1": "6h"}).with_layoff(1, "X2", {"X2": "8h"})
    >>> str(wild), str(wild.represents), wild.kind
    ('5h X1=6h 7h X2=8h', '5h 6h 7h 8h', <MeldKind.RUN: 'run'>)
    """

    owner: int = field()
    laid_down: CardSet = field(converter=_cards)
    layoffs: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=None, converter=_layoffs)
    ace_low: bool = field(default=False, kw_only=True)
    stand_ins: StandIns = field(default=_NO_STAND_INS, kw_only=True, converter=_stand_ins)
    cards: CardSet = field(init=False, eq=False)
    represents: CardSet = field(init=False, eq=False)
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
        stand_ins = self.stand_ins
        shape = _tables.meld_shape(self._part(self.laid_down.mask), ace_low=self.ace_low)
        if shape == _tables.NO_MELD:
            msg = f"{self._written(self.laid_down.mask)} is not a set or a run"
            raise InvalidMeldError(msg)
        mask = self.laid_down.mask
        shown = self._part(mask)
        for part in self.layoffs:
            if part.mask & mask:
                msg = f"card(s) {part & CardSet(mask)} appear twice in the meld"
                raise InvalidMeldError(msg)
            mask |= part.mask
            shown |= self._part(part.mask)
        if stand_ins:
            self._check_stand_ins(mask)
        if mask != self.laid_down.mask and _tables.meld_shape(shown, ace_low=self.ace_low) != shape:
            msg = f"{self._written(mask)} is not a {_KINDS[shape]}"
            raise InvalidMeldError(msg)
        ends, reach = _tables.extensions(shown, shape, ace_low=self.ace_low)
        cards = CardSet(mask)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "represents", CardSet(shown) if stand_ins else cards)
        object.__setattr__(self, "kind", _KINDS[shape])
        object.__setattr__(self, "ends", ends)
        object.__setattr__(self, "reach", reach)

    def _part(self, mask: int) -> int:
        """
        What the cards of *mask*, laid down or laid off together, represent (A7).
        """
        if not self.stand_ins.pairs:
            return mask
        part = _represent(self.stand_ins, mask)
        if part & _tables.JOKER_MASK and part & ~_tables.JOKER_MASK:
            msg = f"every joker of {self._written(mask)} must stand for a card, or none may (A7)"
            raise InvalidMeldError(msg)
        return part

    def _check_stand_ins(self, mask: int) -> None:
        stand_ins = self.stand_ins
        if stand_ins.jokers.mask & ~mask:
            msg = f"{stand_ins.jokers - CardSet(mask)} stand(s) for a card but is not in the meld (A7)"
            raise InvalidMeldError(msg)
        if stand_ins.cards.mask & mask:
            twice = stand_ins.cards & CardSet(mask)
            msg = f"{twice} is in the meld and stood for by a joker: a card is represented once (A7)"
            raise InvalidMeldError(msg)
        if not self.laid_down.mask & ~_tables.JOKER_MASK:
            msg = f"a meld with jokers standing for cards needs a natural card, not {self._written(mask)} (A7)"
            raise InvalidMeldError(msg)

    def _written(self, mask: int) -> str:
        """
        The cards of *mask* as `str` writes a meld, each joker followed by the card it stands for.
        """
        return self.stand_ins.write(CardSet(mask)) if self.stand_ins.pairs else str(CardSet(mask))

    @property
    def in_order(self) -> tuple[Card, ...]:
        """
        The cards of the meld in the order they lie on the table, as the pictures draw them: a run
        from its lowest card, the ace first where it is low (A8); a set by suit; a joker that stands
        for a card where that card would lie (A7).

        >>> [str(card) for card in TableMeld(0, "2h 3h Ah", ace_low=True).in_order]
        ['Ah', '2h', '3h']
        >>> [str(card) for card in TableMeld(0, "5h 7h X1", stand_ins={"X1": "6h"}).in_order]
        ['5h', 'X1', '7h']
        """
        return tuple(FULL_DECK[card.index] for card in _drawing.in_order(self))

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
        mask = self.represents.mask
        return FULL_DECK[(mask & -mask).bit_length() - 1].rank

    @property
    def suit(self) -> Suit | None:
        """
        The suit of a run, `None` for a set.
        """
        if self.kind is MeldKind.SET:
            return None
        mask = self.represents.mask
        return FULL_DECK[(mask & -mask).bit_length() - 1].suit

    def with_layoff(
        self,
        seat: int,
        cards: Iterable[Card | str] | CardSet | str,
        stand_ins: StandIns | Mapping[str, str] = _NO_STAND_INS,
    ) -> TableMeld:
        """
        This meld with *cards* (a `CardSet`, or cards or their notation) laid off onto it by *seat*,
        its jokers standing for the cards of *stand_ins* (A7).

        Raises:
            InvalidMeldError: the meld would no longer be valid.
        """
        if not _seats.is_seat(seat):
            msg = f"seat must be 0-3, got {seat!r}"
            raise InvalidMeldError(msg)
        parts = list(self.layoffs)
        parts[seat] = parts[seat] | _arguments.cards(cards, "cards")
        added = _stand_ins(stand_ins)
        both = StandIns((*self.stand_ins.pairs, *added.pairs)) if added else self.stand_ins
        return TableMeld(self.owner, self.laid_down, parts, ace_low=self.ace_low, stand_ins=both)

    def __str__(self) -> str:
        return self._written(self.cards.mask)

    def __repr__(self) -> str:
        extra = ", ace_low=True" if self.ace_low else ""
        if self.stand_ins:
            extra += f", stand_ins={self.stand_ins!r}"
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
