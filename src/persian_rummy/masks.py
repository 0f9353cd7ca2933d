"""
Cards as bits, for bots that search many positions: the masks of suits, ranks and jokers, the
melds and lay-offs a hand allows and what a meld scores, all on plain integers.

A `CardSet` holds its cards as one integer, `CardSet.mask`: bit ``i`` is the card ``FULL_DECK[i]``.
The 13 cards of a suit are 13 consecutive bits, 2 to ace (clubs from bit 0, diamonds from 13,
hearts from 26, spades from 39), and the four jokers are bits 52 to 55.  On these integers a union
is ``|``, a difference ``& ~`` and a count ``int.bit_count()``, so a search that keeps its hands as
masks makes no object until it has chosen what to play (``CardSet(mask)``).  The functions here
are the engine's own, which `persian_rummy.bots` plays with; each checks the types of its
arguments and that a mask holds cards of the deck only.

>>> from persian_rummy import CardSet, Rules
>>> hand = CardSet.parse("5c 5d 5h 5s 6h 7h Ks").mask
>>> [str(CardSet(meld)) for meld in lay_downs(hand)]
['5c 5d 5h 5s', '5d 5h 5s', '5c 5h 5s', '5c 5d 5s', '5c 5d 5h', '5h 6h 7h']
>>> [meld_points(meld, Rules()) for meld in lay_downs(hand)]
[40, 15, 15, 15, 15, 18]
>>> CardSet(hand & RANK_MASKS[5 - 2]), CardSet(hand & SUIT_MASKS[2])  # the fives, the hearts
(CardSet.parse('5c 5d 5h 5s'), CardSet.parse('5h 6h 7h'))
"""

from __future__ import annotations

from typing import Final, NoReturn

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import cardlogic as _cardlogic
from ._internal import tables as _tables
from .cards import FULL_DECK
from .cardsets import CardSet
from .exceptions import InvalidMeldError, InvalidTypeError, InvalidValueError
from .melds import StandIns, TableMeld
from .rules import Rules

__all__ = [
    "ALL_CARDS",
    "JOKER_MASK",
    "RANK_MASKS",
    "SUIT_MASKS",
    "lay_downs",
    "lay_offs",
    "meld_points",
    "stand_ins",
]


def __dir__() -> list[str]:
    return __all__


#: The 56 cards of the deck: bits 0 to 55.
ALL_CARDS: Final = _tables.ALL_CARDS
#: The four jokers, bits 52 to 55.
JOKER_MASK: Final = _tables.JOKER_MASK
#: The 13 cards of each suit, clubs, diamonds, hearts and spades (`Suit` order): 13 consecutive bits,
#: 2 to ace.
SUIT_MASKS: Final = _tables.SUIT_MASKS
#: The four cards of each `Rank`, 2 to ace and then the jokers' (`Rank.JOKER`): the rank less 2 is the index.
RANK_MASKS: Final = _tables.RANK_MASKS

_SHIFTS: Final = (0, 13, 26, 39)


def _refuse(value: object, name: str) -> NoReturn:
    if type(value) is not int:
        msg = f"{name} must be a mask of cards, an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    msg = f"{name} must be a mask of the 56 cards (0 to ALL_CARDS), got {value!r}"
    raise InvalidValueError(msg)


def lay_downs(hand: int, *, ace_low: bool = False) -> list[int]:
    """
    Every meld that can be laid down from the cards of *hand*, each once, in the order
    `persian_rummy.legal_actions` offers them: the sets by rank (the four of a rank, then each three
    of them, leaving out each card in turn), the joker sets, then the runs suit by suit, from their
    lowest card, shortest first (R9-R12); with *ace_low* (`Rules.ace_low_allowed`) the runs that
    take the ace low follow, suit by suit (A8).

    Jokers count as R11 has them: the melds in which jokers stand for cards (`Rules.jokers_wild`,
    A7) are not among these, and a card that a meld of the table represents already, laid or stood
    for by a joker, is melded nowhere: *hand* leaves it out, as `legal_actions` does.
    `persian_rummy.bots.heuristics.possible_melds` gives the same melds as card sets.

    >>> [str(CardSet(meld)) for meld in lay_downs(CardSet.parse("Ad 2d 3d 4d").mask, ace_low=True)]
    ['2d 3d 4d', '2d 3d Ad', '2d 3d 4d Ad']

    Raises:
        InvalidTypeError: *hand* is not an `int`.
        InvalidValueError: *hand* holds bits of no card.
    """
    if type(hand) is not int or not 0 <= hand <= ALL_CARDS:
        _refuse(hand, "hand")
    melds = _cardlogic.lay_down_masks(hand, False)
    if ace_low:
        melds.extend(run << shift for shift in _SHIFTS for run in _tables.low_runs(hand >> shift & _tables.ROW))
    return melds


def lay_offs(meld: TableMeld, hand: int) -> list[int]:
    """
    Every group of the cards of *hand* that can be laid off onto *meld* in one action, in the order
    `persian_rummy.legal_actions` offers them: a set's missing card, or the cards that extend a
    run below it, nearest first, then above it (R17, A11).

    Jokers standing for cards aside (`Rules.jokers_wild`, A7): then a card that a meld of the table
    represents already, laid or stood for by a joker, is laid off nowhere, and *hand* leaves it out,
    as `legal_actions` does.

    >>> run = TableMeld(0, "7s 8s 9s")
    >>> [str(CardSet(cards)) for cards in lay_offs(run, CardSet.parse("5s 6s Ts Qs").mask)]
    ['6s', '5s 6s', 'Ts']

    Raises:
        InvalidTypeError: *meld* is not a `TableMeld`, or *hand* not an `int`.
        InvalidValueError: *hand* holds bits of no card.
    """
    if type(meld) is not TableMeld:
        _arguments.expect(meld, TableMeld, "meld", "a TableMeld")
    if type(hand) is not int or not 0 <= hand <= ALL_CARDS:
        _refuse(hand, "hand")
    return _cardlogic.lay_off_masks(meld, hand) if hand & meld.ends else []


def meld_points(mask: int, rules: Rules, *, represents: int | None = None) -> int:
    """
    The points the cards of *mask* score for their team when laid down together as one meld: their
    points under *rules* (R23, `Rules.card_values`), doubled for a set of four laid down at once
    (R25; not under ``Rules(double_four_of_a_kind=False)``) and, with `Rules.double_four_card_runs`,
    for a run of exactly four (A20).

    With wild jokers (`Rules.jokers_wild`, A7) *represents* holds the cards the meld stands for: its
    natural cards and the cards its jokers stand for; it must be a meld, and each joker scores its
    own points.  `persian_rummy.bots.heuristics.meld_value` gives the same of a card set.

    >>> meld_points(CardSet.parse("Js Jh Jd Jc").mask, Rules()), meld_points(CardSet.parse("Js Qs Ks").mask, Rules())
    (80, 30)

    Raises:
        InvalidMeldError: the cards (or those *represents* holds) are not a meld under *rules*.
        InvalidTypeError: *mask* or *represents* is not an `int`, or *rules* not a `Rules`.
        InvalidValueError: *mask* or *represents* holds bits of no card.
    """
    if type(mask) is not int or not 0 <= mask <= ALL_CARDS:
        _refuse(mask, "mask")
    if type(rules) is not Rules:
        _arguments.expect(rules, Rules, "rules", "a Rules")
    if represents is None:
        represents = mask
    elif type(represents) is not int or not 0 <= represents <= ALL_CARDS:
        _refuse(represents, "represents")
    shape = _tables.meld_shape(represents, ace_low=rules.ace_low_allowed)
    if shape == _tables.NO_MELD:
        msg = f"{CardSet(mask)} is not a set or a run"
        raise InvalidMeldError(msg)
    points = rules.card_values.mask_points(mask)
    if mask.bit_count() == 4 and (
        (shape == _tables.SET and rules.double_four_of_a_kind) or (shape == _tables.RUN and rules.double_four_card_runs)
    ):
        return 2 * points
    return points


def stand_ins(hand: int, cards: int, *, first: int | None = None) -> StandIns:
    """
    The jokers of *hand* standing for *cards* in a play, as `persian_rummy.legal_actions` gives each
    play with jokers once (A7): the joker of index *first* first if *hand* holds it (the card taken
    from the discard pile that must be played, R15), then the others by number, as many as there are
    cards; the lower-numbered of those stands for the card first in `FULL_DECK` order.

    >>> str(stand_ins(CardSet.parse("5h X2 X3 X4").mask, CardSet.parse("6h 7h").mask))
    'X2=6h X3=7h'
    >>> str(stand_ins(CardSet.parse("5h X2 X3 X4").mask, CardSet.parse("6h 7h").mask, first=55))
    'X2=6h X4=7h'

    Raises:
        InvalidValueError: *hand* holds fewer jokers than *cards* has cards, *cards* holds a joker,
            or a mask holds bits of no card.
        InvalidTypeError: a mask is not an `int`, or *first* not an `int` or `None`.
    """
    if type(hand) is not int or not 0 <= hand <= ALL_CARDS:
        _refuse(hand, "hand")
    if type(cards) is not int or not 0 <= cards <= ALL_CARDS:
        _refuse(cards, "cards")
    _arguments.expect(first, (int, type(None)), "first", "a card's index or None")
    if cards & JOKER_MASK:
        msg = f"a joker stands for a natural card, not for {CardSet(cards & JOKER_MASK)} (A7)"
        raise InvalidValueError(msg)
    jokers = _cardlogic.joker_order(hand, first)
    if len(jokers) < cards.bit_count():
        msg = f"{CardSet(hand)} holds {len(jokers)} jokers, fewer than the {cards.bit_count()} cards to stand for"
        raise InvalidValueError(msg)
    return StandIns([(FULL_DECK[joker], FULL_DECK[card]) for joker, card in _cardlogic.canonical_pairs(jokers, cards)])
