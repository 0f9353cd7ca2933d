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
from typing import Any, Final

from attrs import frozen

from .cards import Card
from .cardsets import EMPTY, CardSet, _card_set
from .exceptions import PersianRummyError
from .melds import TableMeld
from .rules import Rules
from .scoring import DealScore
from .state import GameState, Phase, check_invariants, make_state, new_game, summarize_table

__all__ = ["View", "ViewError", "arrangements", "check_view", "count_arrangements", "determinize", "observe"]


def __dir__() -> list[str]:
    return __all__


_ALL: Final = (1 << 56) - 1
_NO_CARDS: Final = (EMPTY, EMPTY, EMPTY, EMPTY)


@frozen(cache_hash=True, weakref_slot=False)
class View:
    """
    What one seat (or a spectator) knows of a game.

    Attributes:
        seat: The seat whose view this is; `None` for the public view.
        rules: The rules.
        phase: Where the game is.
        deal: The number of the current deal.
        dealer: The dealer of the current deal.
        to_act: The seat whose turn it is, if any.
        hand: The seat's own hand; `None` in the public view.
        hand_sizes: The number of cards in each hand, by seat.
        known: By seat, the cards everyone knows to be in that hand: those it was seen
            to take from the discard pile and still holds.  When a deal is over every
            hand is shown, as the players lay them down to count the score.
        stock_size: The number of cards in the stock.
        discard_pile: The discard pile, bottom card first.
        melds: The melds on the table, with who placed each card.
        obligation: The card taken from the discard pile that must still be played.
        picked: The cards taken from the discard pile this turn.
        passes: Passes in a row.
        went_out: The seat that went out in this deal, if any.
        results: The scores of the finished deals.
    """

    seat: int | None
    rules: Rules
    phase: Phase
    deal: int
    dealer: int
    to_act: int | None
    hand: CardSet | None
    hand_sizes: tuple[int, int, int, int]
    known: tuple[CardSet, CardSet, CardSet, CardSet]
    stock_size: int
    discard_pile: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    obligation: Card | None
    picked: CardSet
    passes: int
    went_out: int | None
    results: tuple[DealScore, ...]

    def __attrs_post_init__(self) -> None:
        check_view(self)

    @property
    def unseen(self) -> CardSet:
        """
        The cards whose place the view does not tell: in other hands (beyond the known cards) or in the stock.
        """
        return _card_set(_ALL & ~_seen_mask(self))


class _ViewBuilder:
    """
    A mutable twin of `View` with the same memory layout: `observe` fills one in and makes it a
    `View` by assigning its class, skipping the checks a view built by hand goes through.
    """

    __slots__ = View.__slots__  # type: ignore[attr-defined]


_new = object.__new__


class ViewError(PersianRummyError, ValueError):
    """
    Raised when a view cannot answer a question: another seat's legal actions, or too many arrangements to list.
    """


def observe(state: GameState, seat: int | None = None) -> View:
    """
    What *seat* knows of *state*; with ``seat=None``, what a spectator knows.

    Raises:
        ValueError: *seat* is not 0-3 or `None`.
    """
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        msg = f"seat must be 0-3 or None, got {seat!r}"
        raise ValueError(msg)
    over = state.phase is Phase.DEAL_OVER or state.phase is Phase.GAME_OVER
    hands = state.hands
    view: Any = _new(_ViewBuilder)  # filled in below, then turned into a View
    view.seat = seat
    view.rules = state.rules
    view.phase = state.phase
    view.deal = state.deal
    view.dealer = state.dealer
    view.to_act = state.to_act
    view.hand = None if seat is None else hands[seat]
    view.hand_sizes = (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
    view.known = hands if over else state.revealed
    view.stock_size = len(state.stock)
    view.discard_pile = state.discard_pile
    view.melds = state.melds
    view.obligation = state.obligation
    view.picked = state.picked
    view.passes = state.passes
    view.went_out = state.went_out
    view.results = state.results
    view._attrs_cached_hash = None  # noqa: SLF001
    view.__class__ = View
    return view  # type: ignore[no-any-return]


def check_view(view: View) -> None:
    """
    Check that *view* is what its seat could see of some game; raise `ViewError` naming the problem.

    Views made by `observe` always pass; building a `View` by hand, or reading one from JSON,
    runs this check.
    """
    if not isinstance(view, View):
        msg = f"not a View: {view!r}"  # type: ignore[unreachable]
        raise ViewError(msg)
    problem = _type_problem(view) or _count_problem(view)
    if problem:
        raise ViewError(problem)
    try:
        state = stand_in(view)
        check_invariants(state)
    except ValueError as error:
        msg = f"no game gives this view: {error}"
        raise ViewError(msg) from None
    if observe(state, view.seat) != view:
        msg = "no game gives this view: it shows what its seat cannot see, or hides what it can"
        raise ViewError(msg)


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value <= 3


def _type_problem(view: View) -> str | None:
    """
    What is wrong with the types of *view*'s fields, if anything.
    """
    fields: dict[str, object] = {a.name: getattr(view, a.name) for a in View.__attrs_attrs__}
    checks: tuple[tuple[str, bool, str], ...] = (
        ("seat", fields["seat"] is None or _is_seat(fields["seat"]), "a seat 0-3 or None"),
        ("rules", isinstance(fields["rules"], Rules), "a Rules"),
        ("phase", isinstance(fields["phase"], Phase), "a Phase"),
        ("deal", type(fields["deal"]) is int and 0 <= fields["deal"] <= 1000, "a deal number"),
        ("dealer", _is_seat(fields["dealer"]), "a seat 0-3"),
        ("to_act", fields["to_act"] is None or _is_seat(fields["to_act"]), "a seat 0-3 or None"),
        ("hand", fields["hand"] is None or type(fields["hand"]) is CardSet, "a CardSet or None"),
        ("stock_size", type(fields["stock_size"]) is int and 0 <= fields["stock_size"] <= 56, "a number 0-56"),
        ("obligation", fields["obligation"] is None or type(fields["obligation"]) is Card, "a card or None"),
        ("picked", type(fields["picked"]) is CardSet, "a CardSet"),
        ("passes", type(fields["passes"]) is int and 0 <= fields["passes"] <= 4, "a number 0-4"),
        ("went_out", fields["went_out"] is None or _is_seat(fields["went_out"]), "a seat 0-3 or None"),
    )
    for name, good, what in checks:
        if not good:
            return f"{name} must be {what}, got {fields[name]!r}"
    sizes = fields["hand_sizes"]
    if not isinstance(sizes, tuple) or len(sizes) != 4 or not all(type(n) is int and 0 <= n <= 56 for n in sizes):
        return f"hand_sizes must be four numbers 0-56, got {sizes!r}"
    known = fields["known"]
    if not isinstance(known, tuple) or len(known) != 4 or not all(type(part) is CardSet for part in known):
        return f"known must be four CardSets, one per seat, got {known!r}"
    for name, kind in (("discard_pile", Card), ("melds", TableMeld), ("results", DealScore)):
        value = fields[name]
        if not isinstance(value, tuple) or not all(type(item) is kind for item in value):
            return f"{name} must be a tuple of {kind.__name__} values, got {value!r}"
    return None


def _count_problem(view: View) -> str | None:
    """
    What is wrong with where *view* puts the cards it shows and with the hand sizes, if anything.
    """
    if (view.seat is None) != (view.hand is None):
        return "a seat's view shows its hand, and only the public view shows none"
    if view.seat is not None and view.hand is not None and not view.known[view.seat] <= view.hand:
        return f"seat {view.seat}'s known cards {view.known[view.seat] - view.hand} are not in its hand"
    places: list[tuple[str, CardSet | tuple[Card, ...]]] = [
        ("hand", view.hand or CardSet()),
        *((f"known cards of seat {seat}", part) for seat, part in enumerate(view.known) if seat != view.seat),
        ("discard pile", view.discard_pile),
        *((f"meld {i}", meld.cards) for i, meld in enumerate(view.melds)),
    ]
    seen = 0
    for place, cards in places:
        for card in cards:
            if seen >> card.index & 1:
                return f"card {card} appears more than once (found again in the {place})"
            seen |= 1 << card.index
    sizes = view.hand_sizes
    if view.seat is not None and view.hand is not None and len(view.hand) != sizes[view.seat]:
        return f"seat {view.seat} holds {len(view.hand)} cards, but its hand size is {sizes[view.seat]}"
    for seat in range(4):
        if seat != view.seat and len(view.known[seat]) > sizes[seat]:
            return f"seat {seat} is known to hold {len(view.known[seat])} cards, more than its {sizes[seat]}"
    counts, stock = _places(view)
    unseen = 56 - seen.bit_count()
    if sum(counts) + stock != unseen:
        return f"the hands and the stock must hold the {unseen} unseen cards, not {sum(counts) + stock}"
    return None


def _seen_mask(view: View) -> int:
    seen = 0 if view.hand is None else view.hand.mask
    for part in view.known:
        seen |= part.mask
    for card in view.discard_pile:
        seen |= 1 << card.index
    for meld in view.melds:
        seen |= meld.cards.mask
    return seen


def _places(view: View) -> tuple[list[int], int]:
    """
    How many unseen cards each hand holds (0 for the seat's own), and how many the stock holds.
    """
    counts = []
    for seat in range(4):
        if seat == view.seat:
            counts.append(0)
        else:
            counts.append(view.hand_sizes[seat] - len(view.known[seat]))
    return counts, view.stock_size


def _build(view: View, order: list[Card]) -> GameState:
    """
    The state that puts the unseen cards, in *order*, into the other hands (seat by seat) and then the stock.
    """
    if view.phase is Phase.DEAL:
        return new_game(view.rules, dealer=view.dealer)
    counts, _ = _places(view)
    hands = []
    i = 0
    for seat in range(4):
        if seat == view.seat and view.hand is not None:
            hands.append(view.hand)
            continue
        extra = CardSet(order[i : i + counts[seat]])
        i += counts[seat]
        hands.append(view.known[seat] | extra)
    over = view.phase is Phase.DEAL_OVER or view.phase is Phase.GAME_OVER
    # A view is checked when it is built, so the state is consistent: build it without checks.
    return make_state(
        view.rules,
        view.phase,
        view.deal,
        view.dealer,
        view.to_act,
        (hands[0], hands[1], hands[2], hands[3]),
        tuple(order[i:]),
        view.discard_pile,
        view.melds,
        view.obligation,
        view.picked,
        _NO_CARDS if over else view.known,
        view.passes,
        view.went_out,
        view.results,
        summarize_table(view.melds),
    )


def determinize(view: View, rng: random.Random) -> GameState:
    """
    A full state consistent with *view*, the unseen cards dealt uniformly at random.

    Every arrangement counted by `count_arrangements` is equally likely; the same
    seeded *rng* gives the same state.  The seat's own view of the result equals *view*.
    """
    order = list(view.unseen)
    rng.shuffle(order)
    return _build(view, order)


def count_arrangements(view: View) -> int:
    """
    The exact number of full states consistent with *view*.

    The unseen cards fill the unknown part of each other hand (a set: order does not
    matter) and the stock (a sequence: order matters), so the count is
    ``u! / (k1! k2! k3!)`` for ``u`` unseen cards of which ``k1``-``k3`` go to hands.
    """
    if view.phase is Phase.DEAL:
        return 1
    counts, _ = _places(view)
    total = math.factorial(len(view.unseen))
    for count in counts:
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
        yield _build(view, [])
        return
    counts, _ = _places(view)
    unseen = list(view.unseen)
    yield from _arrange(view, unseen, counts, 0, [])


def _arrange(view: View, rest: list[Card], counts: list[int], seat: int, chosen: list[Card]) -> Iterator[GameState]:
    if seat == 4:
        for stock in permutations(rest):
            yield _build(view, [*chosen, *stock])
        return
    for part in combinations(rest, counts[seat]):
        left = [card for card in rest if card not in part]
        yield from _arrange(view, left, counts, seat + 1, [*chosen, *part])


def stand_in(view: View) -> GameState:
    """
    One full state consistent with *view*, always the same: the unseen cards in `FULL_DECK` order.

    Whatever the hidden cards, the seat's own legal actions are the same, so this is
    how `persian_rummy.legal_actions` answers for a view.
    """
    return _build(view, list(view.unseen))
