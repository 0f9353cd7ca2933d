"""
`Rules`: the rule switches of a game, with the defaults of Persian Rummy.

``Rules()`` is Persian Rummy as the rules document specifies it.  Every field
is a switch for one of the open points (A1-A25) or one of the numbers of the
game, named after the rule it concerns.  Rules are immutable; derive a variant
with `attrs.evolve` or by passing keywords:

>>> Rules().hand_size, Rules().num_deals, Rules().obligation_timing
(7, 2, <ObligationTiming.IMMEDIATE: 'immediate'>)
>>> Rules(obligation_timing="before_discard").obligation_timing
<ObligationTiming.BEFORE_DISCARD: 'before_discard'>
>>> Rules(hand_size=14)
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidValueError: hand_size must be between 1 and 13 (four hands and the upcard ...), got 14
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar, Final

from attrs import Attribute, field, frozen

from . import limits as _limits
from ._internal import tables as _tables
from ._internal.switches import Between as _Between
from .cards import FULL_DECK, Card, Rank
from .cardsets import CardSet
from .choices import Choice as _Choice
from .exceptions import InvalidNotationError, InvalidTypeError, InvalidValueError

__all__ = [
    "DEFAULT_RULES",
    "CardValues",
    "EmptyStockEnd",
    "NextDealer",
    "ObligationTiming",
    "Rules",
    "TeamDrawTiebreak",
    "TieBreak",
    "card_points",
]


def __dir__() -> list[str]:
    return __all__


class ObligationTiming(_Choice):
    """
    When the card taken from the discard pile must be played (A11).
    """

    #: The first meld or lay-off after the draw must contain it (default).
    IMMEDIATE = "immediate"
    #: Any time before the discard; other melds may come first.
    BEFORE_DISCARD = "before_discard"


class EmptyStockEnd(_Choice):
    """
    What ends a deal once the stock is empty (A17).
    """

    #: Four players pass in succession (default).
    ALL_PASS = "all_pass"
    #: The first pass ends the deal.
    FIRST_PASS = "first_pass"
    #: The deal ends with the turn in which the last stock card was drawn.
    IMMEDIATELY = "immediately"


class NextDealer(_Choice):
    """
    Who deals the next deal (A4).
    """

    #: The player to the left of the previous dealer (default).
    LEFT = "left"
    #: The player who went out; the player to the left when nobody did.
    WINNER = "winner"
    #: The same dealer again.
    SAME = "same"


class TeamDrawTiebreak(_Choice):
    """
    How equal cards are settled in the draw for partners and first dealer (A1).
    """

    #: Tied players whose order matters draw again (default).
    REDRAW = "redraw"
    #: Suits break ties: clubs < diamonds < hearts < spades; jokers by number.
    SUIT_ORDER = "suit_order"


class TieBreak(_Choice):
    """
    What happens when the teams are level after the last deal (A22).
    """

    #: The game is a draw (default).
    DRAW = "draw"
    #: One more deal is played; if the teams are still level, the game is a draw.
    EXTRA_DEAL = "extra_deal"


def _is_bool(instance: object, attribute: Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        msg = f"{attribute.name} must be True or False, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


#: The most points one card may be worth (R23, `CardValues`).
_MAX_CARD_VALUE: Final = 1_000
#: The ranks in the order of `CardValues`' fields and of its text: 2 to 9, 10, J, Q, K, A, joker.
_RANKS: Final = tuple(Rank)
#: The fields of `CardValues`, one per rank, in the order of `_RANKS`.
_RANK_FIELDS: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace", "joker",
)  # fmt: skip
#: R23's values, by rank in the order of `_RANKS`.
_R23: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15, 20)
_VALUE_TEXT: Final = re.compile(r"(0|[1-9][0-9]{0,3})(/(0|[1-9][0-9]{0,3})){13}", re.ASCII)


def _card_value(instance: object, attribute: Attribute[int], value: int) -> None:
    if type(value) is not int:
        msg = f"card_values.{attribute.name} must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value <= _MAX_CARD_VALUE:
        msg = f"card_values.{attribute.name} must be between 0 and {_MAX_CARD_VALUE} (R23), got {value!r}"
        raise InvalidValueError(msg)


@frozen(cache_hash=True, repr=False)
class CardValues:
    """
    What one card of each rank scores (R23): the value of the switch `Rules.card_values`.

    The default is R23's table: joker 20, ace 15, K, Q, J and 10 10, 2 to 9 their face value.
    Each value is a whole number from 0 to 1,000; none is negative, so
    melding never costs a team and a hand left never earns it (R24).  Jokers are alike, and
    so are the four suits: a value belongs to a rank.

    The text form, in position notation's rules and OpenSpiel's parameters, is the fourteen
    values from the two up, the ten, jack, queen, king, ace and joker, joined by ``/``; in
    JSON the values are an object by rank letter (``"2"`` to ``"9"``, ``"T"``, ``"J"``,
    ``"Q"``, ``"K"``, ``"A"``, ``"X"``).

    >>> values = CardValues(ace=1, joker=50)
    >>> values
    CardValues(ace=1, joker=50)
    >>> str(values)
    '2/3/4/5/6/7/8/9/10/10/10/10/1/50'
    >>> CardValues.parse(str(values)) == values, values[Rank.ACE], values.deck_points
    (True, 1, 540)
    >>> CardValues(ten=-1)
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidValueError: card_values.ten must be between 0 and 1000 (R23), got -1
    """

    #: The most one card may be worth.
    MAX_VALUE: ClassVar[int] = _MAX_CARD_VALUE

    two: int = field(default=2, validator=_card_value)
    three: int = field(default=3, validator=_card_value)
    four: int = field(default=4, validator=_card_value)
    five: int = field(default=5, validator=_card_value)
    six: int = field(default=6, validator=_card_value)
    seven: int = field(default=7, validator=_card_value)
    eight: int = field(default=8, validator=_card_value)
    nine: int = field(default=9, validator=_card_value)
    ten: int = field(default=10, validator=_card_value)
    jack: int = field(default=10, validator=_card_value)
    queen: int = field(default=10, validator=_card_value)
    king: int = field(default=10, validator=_card_value)
    ace: int = field(default=15, validator=_card_value)
    joker: int = field(default=20, validator=_card_value)
    #: The value of each card of `FULL_DECK`, by index, and the point tables of
    #: `_internal.tables.mask_points`; set once the values are checked.
    _cards: tuple[int, ...] = field(init=False, eq=False, hash=False)
    _bytes: tuple[tuple[int, ...], ...] = field(init=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        by_rank = self.by_rank
        cards = tuple(by_rank[card.rank - 2] for card in FULL_DECK)
        object.__setattr__(self, "_cards", cards)
        object.__setattr__(self, "_bytes", _tables.byte_points(cards))

    @classmethod
    def parse(cls, text: str) -> CardValues:
        """
        Read the text form: fourteen whole numbers joined by ``/``, from the two to the joker.

        Raises:
            InvalidNotationError: *text* is not fourteen such numbers, or a number is above 1,000.
            InvalidTypeError: *text* is not a string.

        >>> CardValues.parse("100/100/100/100/100/100/100/100/100/100/100/100/100/100").deck_points
        5600
        """
        raw: object = text
        if not isinstance(raw, str):
            msg = f"card values must be written as a string, got {_limits.shown(raw)}"
            raise InvalidTypeError(msg)
        if not _VALUE_TEXT.fullmatch(text):
            msg = (
                "card values are written as fourteen numbers joined by '/', from the two up to the ace"
                f" and the joker (R23), got {_limits.shown(text)}"
            )
            raise InvalidNotationError(msg)
        try:
            return cls(*(int(part) for part in text.split("/")))
        except InvalidValueError as error:
            raise InvalidNotationError(str(error)) from None

    @classmethod
    def of(cls, value: CardValues | str | Mapping[str, int]) -> CardValues:
        """
        The card values *value* stands for: `CardValues` itself, its text (`parse`), or a
        mapping from rank letters (``"2"`` to ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``,
        ``"A"``, ``"X"``) to values, the ranks it leaves out keeping R23's values.

        Raises:
            InvalidNotationError: text that is not the text form.
            InvalidValueError: a mapping with a key that is no rank letter, or a value out of range.
            InvalidTypeError: *value* of another type, or a value that is not an int.

        >>> CardValues.of({"A": 1, "X": 50})
        CardValues(ace=1, joker=50)
        """
        if type(value) is CardValues:
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if not isinstance(value, Mapping):
            msg = f"card values are CardValues, their text or a mapping by rank letter, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)
        unknown = [key for key in value if key not in _LETTER_FIELDS]
        if unknown:
            msg = f"card values are given by rank letter, 2-9, T, J, Q, K, A and X; got {_limits.shown(unknown[0])}"
            raise InvalidValueError(msg)
        return cls(**{_LETTER_FIELDS[letter]: points for letter, points in value.items()})

    @property
    def by_rank(self) -> tuple[int, ...]:
        """
        The fourteen values from the two up to the ace, then the joker's.
        """
        return tuple(getattr(self, name) for name in _RANK_FIELDS)

    @property
    def by_letter(self) -> dict[str, int]:
        """
        The values by rank letter, as JSON writes them.

        >>> list(CardValues().by_letter.items())[-3:]
        [('K', 10), ('A', 15), ('X', 20)]
        """
        return {rank.letter: getattr(self, name) for rank, name in zip(_RANKS, _RANK_FIELDS, strict=True)}

    @property
    def deck_points(self) -> int:
        """
        What the 56 cards are worth together: 476 under R23's values.
        """
        return sum(self._cards)

    def __getitem__(self, rank: Rank) -> int:
        value: int = getattr(self, _RANK_FIELDS[Rank(rank) - 2])
        return value

    def card(self, index: int) -> int:
        """
        The value of the card of `FULL_DECK` at *index*.
        """
        return self._cards[index]

    def mask_points(self, mask: int) -> int:
        """
        The total value of the cards of *mask* (bits by `FULL_DECK` index).
        """
        return _tables.mask_points(mask, self._bytes)

    def __str__(self) -> str:
        return "/".join(str(value) for value in self.by_rank)

    def __repr__(self) -> str:
        pairs = zip(_RANK_FIELDS, self.by_rank, _R23, strict=True)
        changed = (f"{name}={value}" for name, value, r23 in pairs if value != r23)
        return f"CardValues({', '.join(changed)})"


def _card_values(value: CardValues | str | Mapping[str, int]) -> CardValues:
    return CardValues.of(value)


_LETTER_FIELDS: Final = {rank.letter: name for rank, name in zip(_RANKS, _RANK_FIELDS, strict=True)}
#: R23's values, ``CardValues()``.
_R23_VALUES: Final = CardValues()


#: The largest hand size: four hands and the upcard must leave a stock of at least one card.
_MAX_HAND_SIZE: Final = 13


def _about(rule: str, tried: tuple[int, ...] = ()) -> dict[str, object]:
    """
    A field's metadata: the *rule* it varies and, for a number, the values besides the default
    that the test strategies try (`persian_rummy.strategies.rules`).
    """
    return {"rule": rule, "tried": tried} if tried else {"rule": rule}


@frozen(cache_hash=True)
class Rules:
    """
    The rules of one game: numbers and switches, defaulting to Persian Rummy.

    Every field names the rule it varies (its ``rule`` metadata, shown in brackets here), and
    is documented under that id on the rules page.

    Attributes:
        hand_size: Cards dealt to each player (A5).
        num_deals: Deals in a game (R27).
        go_out_bonus: Points for the team of the player who goes out (R24).
        card_values: What one card of each rank scores (R23), `CardValues`; R23's table by
            default.  Also given as its text or as a mapping by rank letter
            (`CardValues.of`).
        ace_low_allowed: A run may also take the ace low, A-2-3 and up; never round the
            corner, K-A-2 (A8).  The ace still scores 15.
        top_discard_free: Taking only the top discard carries no obligation to meld it
            while the stock has cards (A9).  With an empty stock R21 always applies.
        obligation_by_layoff: The card taken from the discard pile may be laid off
            instead of melded in a new meld (A10).
        obligation_timing: When the card taken from the discard pile must be played (A11).
        forbid_discarding_picked_cards: Cards taken from the discard pile may not be
            discarded in the same turn (A13).
        go_out_by_discard: Discarding one's last card goes out (A15; 500 Rum style).
        pass_allows_melding: With the stock empty, a player may lay down and lay off from
            hand before passing or taking from the discard pile (A16).
        empty_stock_end: What ends a deal once the stock is empty (A17).
        reshuffle_on_empty_stock: When the stock has run out, the discard pile but its top
            card is turned over, in order, to become the stock, at the end of the turn (A18).
        double_four_of_a_kind: A set of four laid down in one action scores double (R25).
        double_four_card_runs: A run of exactly four laid down in one action scores
            double as well (A20).
        next_dealer: Who deals the next deal (A4).
        team_draw_tiebreak: How ties in the draw for partners are settled (A1).
        tie_break: What happens when the teams are level after the last deal (A22).
        rummy_calls: After a discard that a table meld takes as a lay-off, the other seats
            are asked in turn from the discarder's left whether they call "Rummy!"; the
            first to call takes the card and lays it off at once, scoring it (A24).
        jokers_wild: A joker may stand for any natural card in a set or a run, fixed when
            it is laid (A7; 500 Rum style): see `persian_rummy.StandIns`.
    """

    hand_size: int = field(
        default=7,
        validator=_Between(1, _MAX_HAND_SIZE, " (four hands and the upcard come from 56 cards)"),
        metadata=_about("A5", tried=(6, 8, 5, 9, 4, 10, 3, 11, 2, 12, 1, 13)),
    )
    num_deals: int = field(default=2, validator=_Between(1, 100), metadata=_about("R27", tried=(1, 3)))
    go_out_bonus: int = field(
        default=25, validator=_Between(-10_000, 10_000), metadata=_about("R24", tried=(0, 50, 100, -25))
    )
    card_values: CardValues = field(default=_R23_VALUES, converter=_card_values, metadata=_about("R23"))
    ace_low_allowed: bool = field(default=False, validator=_is_bool, metadata=_about("A8"))
    top_discard_free: bool = field(default=False, validator=_is_bool, metadata=_about("A9"))
    obligation_by_layoff: bool = field(default=True, validator=_is_bool, metadata=_about("A10"))
    obligation_timing: ObligationTiming = field(
        default=ObligationTiming.IMMEDIATE, converter=ObligationTiming, metadata=_about("A11")
    )
    forbid_discarding_picked_cards: bool = field(default=False, validator=_is_bool, metadata=_about("A13"))
    go_out_by_discard: bool = field(default=False, validator=_is_bool, metadata=_about("A15"))
    pass_allows_melding: bool = field(default=False, validator=_is_bool, metadata=_about("A16"))
    empty_stock_end: EmptyStockEnd = field(
        default=EmptyStockEnd.ALL_PASS, converter=EmptyStockEnd, metadata=_about("A17")
    )
    reshuffle_on_empty_stock: bool = field(default=False, validator=_is_bool, metadata=_about("A18"))
    double_four_of_a_kind: bool = field(default=True, validator=_is_bool, metadata=_about("R25"))
    double_four_card_runs: bool = field(default=False, validator=_is_bool, metadata=_about("A20"))
    next_dealer: NextDealer = field(default=NextDealer.LEFT, converter=NextDealer, metadata=_about("A4"))
    team_draw_tiebreak: TeamDrawTiebreak = field(
        default=TeamDrawTiebreak.REDRAW, converter=TeamDrawTiebreak, metadata=_about("A1")
    )
    tie_break: TieBreak = field(default=TieBreak.DRAW, converter=TieBreak, metadata=_about("A22"))
    rummy_calls: bool = field(default=False, validator=_is_bool, metadata=_about("A24"))
    jokers_wild: bool = field(default=False, validator=_is_bool, metadata=_about("A7"))

    @property
    def max_deals(self) -> int:
        """
        The most deals a game can have: `num_deals`, and one more when the teams are level
        after them and the rules settle that by an extra deal (A22).

        >>> Rules().max_deals, Rules(tie_break="extra_deal").max_deals
        (2, 3)
        """
        return self.num_deals + (self.tie_break is TieBreak.EXTRA_DEAL)

    def points(self, cards: Card | CardSet | str) -> int:
        """
        What *cards* score under these rules (R23): one `Card`, a `CardSet`, or the notation
        of one card or of several (`CardSet.parse`).

        Raises:
            InvalidNotationError: text that is not cards.
            InvalidTypeError: *cards* of another type.

        >>> Rules().points("X1"), Rules().points("Qh Qs 2c X1"), Rules(card_values={"X": 50}).points("X1")
        (20, 42, 50)
        """
        if type(cards) is Card:
            return self.card_values.card(cards.index)
        if type(cards) is CardSet:
            return self.card_values.mask_points(cards.mask)
        if isinstance(cards, str):
            return self.card_values.mask_points(CardSet.parse(cards).mask)
        msg = f"points are counted for a Card, a CardSet or their notation, got {_limits.shown(cards)}"
        raise InvalidTypeError(msg)

    def changes(self) -> dict[str, object]:
        """
        The switches that differ from Persian Rummy's defaults, by name.

        >>> Rules(hand_size=10, next_dealer="winner").changes()
        {'hand_size': 10, 'next_dealer': <NextDealer.WINNER: 'winner'>}
        """
        return {
            name: getattr(self, name) for name in _FIELD_NAMES if getattr(self, name) != getattr(DEFAULT_RULES, name)
        }


_FIELD_NAMES: Final = tuple(a.name for a in Rules.__attrs_attrs__)
#: Persian Rummy's own rules, ``Rules()``.
DEFAULT_RULES: Final = Rules()


def card_points(card: Card | str, rules: Rules = DEFAULT_RULES) -> int:
    """
    What *card* (a `Card` or its notation) scores under *rules* (R23, A19): by default joker 20,
    ace 15, K/Q/J/10 10, 2-9 face value.

    >>> [card_points(t) for t in ("X1", "As", "Kd", "Th", "9c", "2s")]
    [20, 15, 10, 10, 9, 2]
    >>> card_points("As", Rules(card_values={"A": 1}))
    1
    """
    if type(rules) is not Rules:
        msg = f"rules must be a Rules, got {_limits.shown(rules)}"
        raise InvalidTypeError(msg)
    return rules.card_values.card(Card.of(card).index)
