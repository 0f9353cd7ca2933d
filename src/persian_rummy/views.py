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

from . import _build, _seats, _summary, _validation
from .cards import Card
from .cardsets import CardSet
from .exceptions import ViewError
from .state import GameState, Phase, View, new_game

__all__ = ["arrangements", "check_view", "count_arrangements", "determinize", "observe"]


def __dir__() -> list[str]:
    return __all__


_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_new_view: Final = _build.builder(View)
_new_state: Final = _build.builder(GameState)


def _is_over(phase: Phase) -> bool:
    return phase is Phase.DEAL_OVER or phase is Phase.GAME_OVER


def observe(state: GameState, seat: int | None = None) -> View:
    """
    What *seat* knows of *state*; with ``seat=None``, what a spectator knows.

    Raises:
        ValueError: *seat* is not 0-3 or `None`.
    """
    if seat is not None and not _seats.is_seat(seat):
        msg = f"seat must be 0-3 or None, got {seat!r}"
        raise ValueError(msg)
    hands = state.hands
    return _new_view(
        seat,
        state.rules,
        state.phase,
        state.deal,
        state.dealer,
        state.to_act,
        None if seat is None else hands[seat],
        (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
        hands if _is_over(state.phase) else state.revealed,
        len(state.stock),
        state.discard_pile,
        state.melds,
        state.obligation,
        state.picked,
        state.passes,
        state.went_out,
        state.results,
        state.stock if state.stock_known else None,
        _summary.table_of(state),
    )


def check_view(view: View) -> None:
    """
    Check that *view* is what its seat could see of some game; raise `ViewError` naming the problem.

    Views made by `observe` always pass; building a `View` by hand, or reading one from JSON,
    runs this check.
    """
    if not isinstance(view, View):
        msg = f"not a View: {view!r}"  # type: ignore[unreachable]
        raise ViewError(msg)
    problem = _validation.view_problem(view)
    if problem:
        raise ViewError(problem)


def _unseen_counts(view: View) -> list[int]:
    """
    How many unseen cards each hand holds (0 for the seat's own), then the stock (0 when known).
    """
    counts = [0 if seat == view.seat else view.hand_sizes[seat] - len(view.known[seat]) for seat in _seats.SEATS]
    counts.append(0 if view.known_stock is not None else view.stock_size)
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
    known_stock = view.known_stock
    # A view is checked when it is built, so the state is consistent: build it without checks.
    return _new_state(
        view.rules,
        view.phase,
        view.deal,
        view.dealer,
        view.to_act,
        (hands[0], hands[1], hands[2], hands[3]),
        tuple(order[i:]) if known_stock is None else known_stock,
        known_stock is not None,
        view.discard_pile,
        view.melds,
        view.obligation,
        view.picked,
        _NO_CARDS if _is_over(view.phase) else view.known,
        view.passes,
        view.went_out,
        view.results,
        _summary.table_of(view),
    )


def determinize(view: View, rng: random.Random) -> GameState:
    """
    A full state consistent with *view*, the unseen cards dealt uniformly at random.

    Every arrangement counted by `count_arrangements` is equally likely; the same
    seeded *rng* gives the same state.  The seat's own view of the result equals *view*.
    """
    order = list(view.unseen)
    rng.shuffle(order)
    return _build_state(view, order)


def count_arrangements(view: View) -> int:
    """
    The exact number of full states consistent with *view*.

    The unseen cards fill the unknown part of each other hand (a set: order does not
    matter) and the stock (a sequence: order matters; none is unseen when everyone knows
    it, A18), so the count is ``u! / (k1! k2! k3!)`` for ``u`` unseen cards of which
    ``k1``-``k3`` go to hands.
    """
    if view.phase is Phase.DEAL:
        return 1
    total = math.factorial(len(view.unseen))
    for count in _unseen_counts(view)[:4]:
        total //= math.factorial(count)
    return total


def arrangements(view: View, *, limit: int = 100_000) -> Iterator[GameState]:
    """
    Every full state consistent with *view*, each once, in a fixed order.

    Raises:
        ViewError: there are more than *limit* of them.
    """
    number = count_arrangements(view)
    if number > limit:
        msg = f"{number} arrangements are more than the limit of {limit}"
        raise ViewError(msg)
    if view.phase is Phase.DEAL:
        yield _build_state(view, [])
        return
    yield from _arrange(view, list(view.unseen), _unseen_counts(view), 0, [])


def _arrange(view: View, rest: list[Card], counts: list[int], seat: int, chosen: list[Card]) -> Iterator[GameState]:
    if seat == 4:
        for stock in permutations(rest):
            yield _build_state(view, [*chosen, *stock])
        return
    for part in combinations(rest, counts[seat]):
        left = [card for card in rest if card not in part]
        yield from _arrange(view, left, counts, seat + 1, [*chosen, *part])
