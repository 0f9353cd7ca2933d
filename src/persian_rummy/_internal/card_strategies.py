"""
The strategies of cards for `persian_rummy.strategies`: cards, card sets, hands, melds and decks.
"""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from ..cards import FULL_DECK, Card, Rank
from ..cardsets import CardSet
from ..melds import MeldKind

#: The cards of each rank, by the rank's place 0-13 (2 to ace, then the jokers).
_BY_RANK: Final = tuple(tuple(card for card in FULL_DECK if card.rank is rank) for rank in Rank)


# -- cards ----------------------------------------------------------------------------------------------------


def cards() -> st.SearchStrategy[Card]:
    """
    Any of the 56 cards, jokers included.

    Examples shrink towards the first card of `FULL_DECK`, ``2c``.
    """
    return st.sampled_from(FULL_DECK)


def _check_size(name: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        msg = f"{name} must be an int from {low} to {high}, got {value!r}"
        raise InvalidArgument(msg)
    return value


def _check_sizes(min_size: object, max_size: object) -> tuple[int, int]:
    low = _check_size("min_size", min_size, 0, 56)
    high = _check_size("max_size", max_size, 0, 56)
    if low > high:
        msg = f"min_size={low} is more than max_size={high}"
        raise InvalidArgument(msg)
    return low, high


def card_sets(min_size: int = 0, max_size: int = 56) -> st.SearchStrategy[CardSet]:
    """
    Any `CardSet` of *min_size* to *max_size* cards (0 to 56).

    Examples shrink towards fewer cards and towards the first cards of `FULL_DECK`: the
    smallest set of three is ``2c 3c 4c``.

    Raises:
        hypothesis.errors.InvalidArgument: a size is not an int from 0 to 56, or *min_size*
            is more than *max_size*.
    """
    low, high = _check_sizes(min_size, max_size)
    return st.lists(cards(), min_size=low, max_size=high, unique=True).map(CardSet)


def _sizes_towards(preferred: int, low: int, high: int) -> tuple[int, ...]:
    """
    The sizes from *low* to *high*, nearest to *preferred* first (the smaller of two equally near).
    """
    return tuple(sorted(range(low, high + 1), key=lambda size: (abs(size - preferred), size)))


@st.composite
def _sized_sets(draw: st.DrawFn, sizes: tuple[int, ...]) -> CardSet:
    # The cards first, as many as the largest size, then the size: every example takes as many
    # choices, so the size shrinks towards the first of *sizes*, not towards the fewest cards.
    chosen = draw(st.lists(cards(), min_size=max(sizes), max_size=max(sizes), unique=True))
    return CardSet(chosen[: draw(st.sampled_from(sizes))])


def hands(*, min_size: int = 0, max_size: int = 14) -> st.SearchStrategy[CardSet]:
    """
    Card sets of the sizes hands have: *min_size* to *max_size* cards, 0 to 14 by default
    (a hand of up to 13 dealt cards and a card drawn).

    Examples shrink towards a hand as dealt, seven cards (or the size nearest to seven),
    and towards the first cards of `FULL_DECK`: ``2c 3c 4c 5c 6c 7c 8c``.

    Raises:
        hypothesis.errors.InvalidArgument: as for `card_sets`.
    """
    low, high = _check_sizes(min_size, max_size)
    return _sized_sets(_sizes_towards(7, low, high))


# -- melds ----------------------------------------------------------------------------------------------------


@st.composite
def _runs(draw: st.DrawFn) -> CardSet:
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(0, 13 - length))
    return CardSet(((1 << length) - 1) << (13 * suit + start))


@st.composite
def _sets(draw: st.DrawFn) -> CardSet:
    members = _BY_RANK[draw(st.integers(0, 13))]
    size = draw(st.integers(3, 4))
    # Drawn for four cards too, so that every meld takes four choices and runs come first when
    # shrinking.  Leaving out the last member first: three of a kind shrink towards clubs,
    # diamonds and hearts.
    left_out = 3 - draw(st.integers(0, 3))
    missing = left_out if size == 3 else -1
    return CardSet(card for i, card in enumerate(members) if i != missing)


def melds(kind: MeldKind | str | None = None) -> st.SearchStrategy[CardSet]:
    """
    Valid melds (R9-R12), as the `CardSet` of their cards: runs of 3 to 13 cards of one suit,
    sets of three or four naturals of one rank, and sets of three or four jokers.

    *kind* limits them to runs (``MeldKind.RUN`` or ``"run"``) or to sets, jokers
    included (``MeldKind.SET`` or ``"set"``).

    Examples shrink towards runs, short runs, clubs and low cards: ``2c 3c 4c``; sets shrink
    towards three of a kind, low ranks and the first suits: ``2c 2d 2h``.

    Raises:
        hypothesis.errors.InvalidArgument: *kind* is not a meld kind or `None`.
    """
    if kind is None:
        return st.one_of(_runs(), _sets())
    try:
        chosen = MeldKind(kind)
    except ValueError:
        msg = f"kind must be a MeldKind, 'set', 'run' or None, got {kind!r}"
        raise InvalidArgument(msg) from None
    return _runs() if chosen is MeldKind.RUN else _sets()


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """
    The 56 cards in any order, as a `Deal` takes them.

    Examples shrink towards `FULL_DECK`, the deck in its sorted order.
    """
    return st.permutations(FULL_DECK).map(tuple)
