"""
Hidden information: what one seat may see, and full states consistent with it.

`observe` gives a seat's `View` of a state: its own hand, the size of every
hand, the cards everyone saw a player take from the discard pile (and that
the player still holds), the whole discard pile, the table, the size of the
stock, and everything else that is public.  Nothing a seat may not see is in
its view: two states that differ only in hidden cards give equal views.
The public view (``seat=None``) is what a spectator sees.

`determinize` turns a view back into a full state by dealing the cards the
seat cannot see uniformly at random among the places it cannot see into;
`count_arrangements` counts those deals exactly, and `arrangements` lists
them for small endgames.  A search bot (ISMCTS) samples the states it plans
over this way.

>>> import random
>>> from persian_rummy import apply, new_game, random_deal
>>> state = new_game()
>>> state = apply(state, random_deal(state, random.Random(2061)))
>>> view = observe(state, 1)
>>> view.hand, view.hand_sizes, view.stock_size
(CardSet.parse('7c Jd Jh Kh 7s 9s Ts'), (7, 7, 7, 7), 27)
>>> sample = determinize(view, random.Random(0))
>>> observe(sample, 1) == view, sample.hands[1] == state.hands[1]
(True, True)
>>> count_arrangements(view) == math.factorial(48) // math.factorial(7) ** 3
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations, permutations
from typing import Final

from ._internal import (
    arguments as _arguments,
)
from ._internal import (
    cardlogic as _cardlogic,
)
from ._internal import (
    phase as _phase,
)
from ._internal import seats as _seats
from ._internal import (
    summary as _summary,
)
from ._internal import (
    unchecked as _unchecked,
)
from ._internal import (
    validation as _validation,
)
from .cards import Card
from .cardsets import CardSet
from .exceptions import ViewError
from .state import GameState, Phase, View, new_game

__all__ = ["arrangements", "check_view", "count_arrangements", "determinize", "observe"]


def __dir__() -> list[str]:
    return __all__


_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_OVER: Final = _phase.OVER


def observe(state: GameState, seat: int | None = None) -> View:
    """
    What *seat* knows of *state*; with ``seat=None``, what a spectator knows.

    Raises:
        InvalidValueError: *seat* is not 0-3 or `None`.
        InvalidTypeError: *state* is not a `GameState`, or *seat* not an `int` or `None`.
    """
    # Players see a view at every decision: the checks of the arguments take one test each.
    if type(state) is not GameState:
        _arguments.expect(state, GameState, "state", "a GameState")
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        _arguments.seat(seat, "seat")
    return _unchecked.view_of(state, seat)


def check_view(view: View) -> None:
    """
    Check that *view* is what its seat could see of some game; raise `ViewError` naming the problem.

    Views made by `observe` always pass; building a `View` by hand, or reading one from JSON,
    runs this check.
    """
    given: object = view  # as a caller without a type checker may pass it
    if not isinstance(given, View):
        msg = f"not a View: {given!r}"
        raise ViewError(msg)
    problem = _validation.view_problem(view)
    if problem:
        raise ViewError(problem)


def _unseen_counts(view: View) -> list[int]:
    """
    How many unseen cards each hand holds (0 for the seat's own), then the stock (0 when known).
    """
    counts = [0 if seat == view.seat else view.hand_sizes[seat] - len(view.known[seat]) for seat in _seats.SEATS]
    counts.append(0 if view.stock_known else view.stock_size)
    return counts


def _build_state(view: View, order: list[Card]) -> GameState:
    """
    The state that puts the unseen cards, in *order*, into the other hands (seat by seat) and then the stock.
    """
    if view.phase is Phase.DEAL:
        return new_game(view.rules, dealer=view.dealer)
    counts = _unseen_counts(view)
    hands = []
    i = 0
    for seat in _seats.SEATS:
        if seat == view.seat and view.hand is not None:
            hands.append(view.hand)
            continue
        hands.append(view.known[seat] | CardSet(order[i : i + counts[seat]]))
        i += counts[seat]
    stock = view.stock
    # A view is checked when it is built, so the state is consistent: build it without checks.
    return _unchecked.seen(
        view,
        stock_known=stock is not None,
        table=_summary.table_of(view),
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock=tuple(order[i:]) if stock is None else stock,
        known=_NO_CARDS if view.phase in _OVER else view.known,
    )


def determinize(view: View, rng: random.Random) -> GameState:
    """
    A full state consistent with *view*, the unseen cards dealt uniformly at random.

    Every arrangement counted by `count_arrangements` is equally likely; the same
    seeded *rng* gives the same state.  The seat's own view of the result equals *view*.

    While the seat to act still has to play a card it took from the discard pile, only
    the hands with which it can play the card are consistent with the view (R15: nobody
    may take a card they cannot play); such deals are drawn again until one is.

    Raises:
        InvalidTypeError: *view* is not a `View`, or *rng* not a ``random.Random``.
    """
    _arguments.expect(view, View, "view", "a View")
    _arguments.expect(rng, random.Random, "rng", "a random.Random")
    order = list(view.unseen)
    rng.shuffle(order)
    pending = _Pending.of(view)
    if pending is not None:
        while not pending.accepts(order):
            rng.shuffle(order)
    return _build_state(view, order)


def count_arrangements(view: View) -> int:
    """
    The exact number of full states consistent with *view*.

    The unseen cards fill the unknown part of each other hand (a set: order does not
    matter) and the stock (a sequence: order matters; none is unseen when everyone knows
    it, A18), so the count is ``u! / (k1! k2! k3!)`` for ``u`` unseen cards of which
    ``k1``-``k3`` go to hands.  While the seat to act still has to play a card it took from
    the discard pile, only the hands with which it can play the card count (R15).

    Raises:
        InvalidTypeError: *view* is not a `View`.
    """
    _arguments.expect(view, View, "view", "a View")
    if view.phase is Phase.DEAL:
        return 1
    total = math.factorial(len(view.unseen))
    for count in _unseen_counts(view)[:4]:
        total //= math.factorial(count)
    pending = _Pending.of(view)
    if pending is None:
        return total
    hands = math.comb(len(view.unseen), pending.hidden)
    return total // hands * pending.good_hands(len(view.unseen))


def arrangements(view: View, *, limit: int = 100_000) -> Iterator[GameState]:
    """
    Every full state consistent with *view*, each once, in a fixed order.

    Raises:
        ViewError: there are more than *limit* of them.
        InvalidTypeError: *view* is not a `View`, or *limit* not an `int`.

    Both are raised by the call, before the first state.
    """
    _arguments.expect(limit, int, "limit", "an int")
    number = count_arrangements(view)
    if number > limit:
        msg = f"{number} arrangements are more than the limit of {limit}"
        raise ViewError(msg)
    return _arrangements(view)


def _arrangements(view: View) -> Iterator[GameState]:
    if view.phase is Phase.DEAL:
        yield _build_state(view, [])
        return
    pending = _Pending.of(view)
    for order in _arrange(list(view.unseen), _unseen_counts(view), 0, []):
        if pending is None or pending.accepts(order):
            yield _build_state(view, order)


class _Pending:
    """
    The hidden part of the hand of a seat that still has to play a card taken from the discard
    pile (R15, A12): which hidden parts let it play the card.

    Attributes:
        start: Where, in the order the unseen cards are dealt in, the hidden part begins.
        hidden: How many cards it has.
    """

    __slots__ = ("ace_low", "blocked", "card", "hand", "hidden", "start", "table", "unseen", "wild")

    def __init__(self, view: View, seat: int, card: int) -> None:
        counts = _unseen_counts(view)
        rules = view.rules
        self.start = sum(counts[:seat])
        self.hidden = counts[seat]
        self.card = card
        self.hand = view.known[seat].mask
        self.unseen = view.unseen.mask
        self.table = tuple(meld.represents.mask for meld in view.melds) if rules.obligation_by_layoff else ()
        self.ace_low = rules.ace_low_allowed
        self.wild = rules.jokers_wild
        self.blocked = _cardlogic.blocked_cards(view.melds) if self.wild else 0

    def usable(self, hand: int) -> bool:
        """
        Whether the pending card can be played from *hand* (R15, A12; A7 with jokers wild).
        """
        if self.wild:
            return _cardlogic.wild_usable(self.card, hand, self.table, self.blocked, self.ace_low)
        return _cardlogic.usable(self.card, hand, self.table, self.ace_low)

    @classmethod
    def of(cls, view: View) -> _Pending | None:
        """
        The pending card's condition on the hidden cards of *view*, or `None` where there is none.
        """
        seat, card = view.to_act, view.obligation
        if view.phase is not Phase.PLAY or seat is None or card is None or seat == view.seat:
            return None
        pending = cls(view, seat, card.index)
        if not pending.hidden or pending.usable(pending.hand):
            return None
        return pending

    def accepts(self, order: list[Card]) -> bool:
        """
        Whether the deal of the unseen cards in *order* gives the seat a hand that can play the card.
        """
        hand = self.hand
        for card in order[self.start : self.start + self.hidden]:
            hand |= 1 << card.index
        return self.usable(hand)

    def good_hands(self, unseen: int) -> int:
        """
        How many of the hidden parts, drawn from the *unseen* cards, let the seat play the card:
        all of them but those that hold none of the single cards and none of the pairs of cards
        that are enough (`_internal.cardlogic.witnesses`).
        """
        if self.wild:
            ways = _cardlogic.wild_witnesses(self.card, self.hand, self.unseen, self.table, self.blocked, self.ace_low)
        else:
            ways = _cardlogic.witnesses(self.card, self.hand, self.unseen, self.table, self.ace_low)
        if ways is None:  # pragma: no cover (of() returns None then)
            return math.comb(unseen, self.hidden)
        singles, pairs = ways
        # The hidden parts that avoid every single card and hold no whole pair: an independent
        # set of the graph of pairs, filled up with cards that are in no pair.
        vertices = sorted({i for pair in pairs for i in range(56) if pair >> i & 1})
        free = unseen - singles.bit_count() - len(vertices)
        if self.wild:
            # With jokers wild the pairs join many more cards (a joker taken pairs with most
            # cards): the independent sets are counted by size, not one by one.
            sizes = _independent_set_counts(vertices, pairs, self.hidden)
            avoiding = sum(math.comb(free, self.hidden - size) * count for size, count in enumerate(sizes))
        else:
            avoiding = sum(
                math.comb(free, self.hidden - size)
                for size in _independent_sizes(vertices, pairs)
                if size <= self.hidden
            )
        return math.comb(unseen, self.hidden) - avoiding


def _independent_set_counts(vertices: list[int], pairs: list[int], most: int) -> list[int]:
    """
    How many independent sets of each size, 0 to *most*, the graph on *vertices* whose edges are
    *pairs* has: the vertices taken one at a time, jokers first and then by rank, keeping only
    the chosen vertices that still have neighbours to come (a path decomposition of the graph).
    """
    neighbours = {v: sum(pair & ~(1 << v) for pair in pairs if pair >> v & 1) for v in vertices}
    order = sorted(vertices, key=lambda v: (v < 52, v % 13, v // 13))
    place = {v: k for k, v in enumerate(order)}
    last = {v: max([place[v], *(place[u] for u in vertices if neighbours[v] >> u & 1)]) for v in order}
    states: dict[int, list[int]] = {0: [1] + [0] * most}
    for k, v in enumerate(order):
        bit = 1 << v
        kept = sum(1 << u for u in order[: k + 1] if last[u] > k)
        grown: dict[int, list[int]] = {}
        for chosen, counts in states.items():
            _add_counts(grown, chosen & kept, counts)
            if not neighbours[v] & chosen:
                _add_counts(grown, (chosen | bit) & kept, [0, *counts[:most]])
        states = grown
    sizes = [0] * (most + 1)
    for counts in states.values():
        _add_to(sizes, counts)
    return sizes


def _add_counts(states: dict[int, list[int]], key: int, counts: list[int]) -> None:
    """
    Add *counts*, by size, to those of *key* in *states*.
    """
    total = states.get(key)
    if total is None:
        states[key] = list(counts)
    else:
        _add_to(total, counts)


def _add_to(total: list[int], counts: list[int]) -> None:
    for size, count in enumerate(counts):
        total[size] += count


def _independent_sizes(vertices: list[int], pairs: list[int]) -> Iterator[int]:
    """
    The size of every independent set of the graph on *vertices* whose edges are *pairs*
    (masks of two cards), the empty set included.
    """
    neighbours = {v: sum(pair & ~(1 << v) for pair in pairs if pair >> v & 1) for v in vertices}

    def grow(k: int, chosen: int, size: int) -> Iterator[int]:
        if k == len(vertices):
            yield size
            return
        yield from grow(k + 1, chosen, size)
        v = vertices[k]
        if not neighbours[v] & chosen:
            yield from grow(k + 1, chosen | 1 << v, size + 1)

    return grow(0, 0, 0)


def _arrange(rest: list[Card], counts: list[int], seat: int, chosen: list[Card]) -> Iterator[list[Card]]:
    """
    Every order of the unseen cards *rest* that deals a different arrangement: each hand's part
    in `FULL_DECK` order (a set), the stock in every order (a sequence).
    """
    if seat == 4:
        for stock in permutations(rest):
            yield [*chosen, *stock]
        return
    for part in combinations(rest, counts[seat]):
        left = [card for card in rest if card not in part]
        yield from _arrange(left, counts, seat + 1, [*chosen, *part])
