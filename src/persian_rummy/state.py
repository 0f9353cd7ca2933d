"""
Positions: `GameState`, everything needed to continue a game, and `View`, what one seat of it sees.

States are made by `new_game` and by `persian_rummy.apply`; they are never
changed.  Two states are equal when every field is equal, and states are
hashable, so they can be dictionary keys (transposition tables) or set members.

Building a `GameState` by hand validates it completely (`check_invariants`):
all 56 cards exactly once, every meld valid, the phase consistent with the
other fields.  A state that breaks an invariant cannot be built.

>>> state = new_game()
>>> state.phase, state.deal, state.dealer, len(state.stock)
(<Phase.DEAL: 'deal'>, 0, 0, 56)

A `View` is made by `persian_rummy.observe`; building one by hand checks that some game
gives it (`persian_rummy.check_view`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Final, NoReturn, TypeAlias

from attrs import field, frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import build as _build
from ._internal import scene as _scene
from ._internal import seats as _seats
from ._internal import summary as _summary
from ._internal import tables as _tables
from ._internal import text as _format
from ._internal import validation as _validation
from ._internal.phase import CHANCE as _CHANCE
from ._internal.phase import TURN as _TURN
from ._internal.phase import Phase
from .cards import FULL_DECK, Card, parse_cards
from .cardsets import CardSet
from .exceptions import ChanceNodeError, InvalidStateError, InvalidValueError, ViewError
from .melds import TableMeld
from .rules import DEFAULT_RULES, NextDealer, Rules
from .scoring import DealScore

__all__ = ["GameState", "Phase", "View", "check_invariants", "is_chance", "is_turn", "new_game", "next_dealer"]


def __dir__() -> list[str]:
    return __all__


# Phase is documented, pickled and shown where users import it from, in both builds (its module is
# compiled in the compiled build, whose classes take their module from where they are defined).
Phase.__module__ = __name__


def is_chance(phase: Phase) -> bool:
    """
    Whether the next action in *phase* is a `persian_rummy.Deal`, which no player chooses (R5, A4).

    `GameState.is_chance_node` asks it of a state.  Whether a deal or the game has ended,
    `persian_rummy.is_deal_over` and `persian_rummy.is_game_over` ask of a state or a view.

    >>> [phase.value for phase in Phase if is_chance(phase)]
    ['deal', 'deal_over']

    Raises:
        InvalidTypeError: *phase* is not a `Phase`.
    """
    if type(phase) is not Phase:
        _arguments.expect(phase, Phase, "phase", "a Phase")
    return phase in _CHANCE


def is_turn(phase: Phase) -> bool:
    """
    Whether a seat is to act in *phase* (`GameState.to_act`): it draws or plays (R13), or answers a
    discard (A24).

    >>> [phase.value for phase in Phase if is_turn(phase)]
    ['draw', 'play', 'calls', 'called']

    Raises:
        InvalidTypeError: *phase* is not a `Phase`.
    """
    if type(phase) is not Phase:
        _arguments.expect(phase, Phase, "phase", "a Phase")
    return phase in _TURN


# Cards as a field takes them: cards or their notation, one by one or as one text.
_Cards: TypeAlias = Iterable[Card | str] | str
_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)


def _items(value: Iterable[object] | str, name: str) -> tuple[Any, ...]:
    raw: object = value
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"{name} must be a sequence, got {_limits.shown(value)}"
        raise InvalidStateError(msg)
    return tuple(value)


def _card_tuple(value: _Cards, name: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    # Notation is read; anything else that is not a card is left for the check of the field's type.
    return tuple(Card.parse(item) if isinstance(item, str) else item for item in _items(value, name))


def _card_set(value: _Cards | CardSet) -> CardSet:
    return value if isinstance(value, CardSet) else CardSet(value)


def _four_sets(value: Iterable[_Cards | CardSet], name: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts: tuple[Any, ...] = tuple(_card_set(part) for part in _items(value, name))
    if len(parts) != 4:
        msg = f"expected four card sets, one per seat, got {len(parts)}"
        raise InvalidStateError(msg)
    return parts


def _optional_card(value: Card | str | None) -> Card | None:
    return Card.parse(value) if isinstance(value, str) else value


def _no_seat(phase: Phase) -> NoReturn:
    if phase is Phase.GAME_OVER:
        msg = "no seat is to act: the game is over (R27)"
        raise InvalidValueError(msg)
    msg = f"no seat is to act in phase {phase.value!r}: the next action is a Deal"
    raise ChanceNodeError(msg)


def _phase(value: Phase | str) -> Phase:
    # A function rather than the class itself: attrs types the parameter of __init__ by the converter's
    # first parameter, and the class has none that autodoc can read (the signature showed a bare ``phase``).
    return Phase(value)


def _hands(value: Iterable[_Cards | CardSet]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return _four_sets(value, "hands")


def _known(value: Iterable[_Cards | CardSet]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    return _four_sets(value, "known")


def _stock(value: _Cards) -> tuple[Card, ...]:
    return _card_tuple(value, "stock")


def _pile(value: _Cards) -> tuple[Card, ...]:
    return _card_tuple(value, "discard_pile")


def _melds(value: Iterable[TableMeld]) -> tuple[TableMeld, ...]:
    return _items(value, "melds")


def _results(value: Iterable[DealScore]) -> tuple[DealScore, ...]:
    return _items(value, "results")


@frozen(kw_only=True, cache_hash=True, weakref_slot=False, repr=False)
class GameState:
    """
    A complete game position.

    Seats are numbered 0-3 clockwise; seats 0 and 2 are partners (team 0)
    against seats 1 and 3 (team 1) (R1).

    Equal states hash alike.  The hash is worked out from the card masks of the hands and a few
    counts, in a fixed number of steps whatever the state holds, when it is first asked for, and is
    the same in every process.

    ``print(state)`` draws the table, as `persian_rummy.pictures.render_text` writes it; ``repr(state)``
    is the call that rebuilds the state, in position notation (`persian_rummy.notation`):

    >>> state = new_game()
    >>> print(state)  # doctest: +ELLIPSIS
    Before the first deal
    N to deal
    Score: N-S 0, E-W 0 (no deal finished)
    <BLANKLINE>
    Hands:
      N  no cards
      E  no cards
      S  no cards
      W  no cards
    <BLANKLINE>
    Table: no melds yet
    Discard pile: empty
    Stock: 56 cards, next first: 2♣ 3♣ 4♣ ... 🃏3 🃏4
    >>> repr(state)[:31]
    "parse_position('- 0/N deal - -/"

    Attributes:
        rules: The rules of the game.
        phase: Where the game is.
        deal: The number of the current deal, from 1; 0 before the first deal.
        dealer: The dealer of the current (or last) deal.
        to_act: The seat whose turn it is, `None` at a chance node or at the end.
        hands: The four hands, by seat.
        stock: The face-down draw pile, the next card to draw first.  Before the
            first deal it holds all 56 cards in `FULL_DECK` order.
        stock_known: Whether every player knows the order of the stock: it was turned over
            from the discard pile (`Rules.reshuffle_on_empty_stock`, A18).  A card drawn
            from it is then known to all, as a card taken from the discard pile is.
        discard_pile: The face-up discard pile, bottom card first, top card last (R18).
        melds: The melds on the table, in the order they were laid down.
        obligation: The card taken from the discard pile that must still be played (R15), or
            the card called "Rummy!" on, which must be laid off (A24).
        picked: The cards taken from the discard pile in the current turn, or the card called on.
        known: By seat, the cards everyone knows to be in that seat's hand: those
            it was seen to take from the discard pile (or to draw from a known stock)
            and still holds.
        passes: Passes in a row with an empty stock (R21, A17); a finished deal keeps
            the count it ended with, also when a player melded out before passing (A16).
        went_out: The seat that went out in the current deal, if any (R19).
        discarder: The seat whose discard is answered in the phases `Phase.CALLS` and
            `Phase.CALLED` (A24); `None` in the other phases.
        results: The scores of the finished deals.
    """

    rules: Rules = field(default=DEFAULT_RULES)
    phase: Phase = field(converter=_phase)
    deal: int = 0
    dealer: int = 0
    to_act: int | None = None
    hands: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=_NO_CARDS, converter=_hands)
    stock: tuple[Card, ...] = field(default=(), converter=_stock)
    stock_known: bool = False
    discard_pile: tuple[Card, ...] = field(default=(), converter=_pile)
    melds: tuple[TableMeld, ...] = field(default=(), converter=_melds)
    obligation: Card | None = field(default=None, converter=_optional_card)
    picked: CardSet = field(default=_EMPTY, converter=_card_set)
    known: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=_NO_CARDS, converter=_known)
    passes: int = 0
    went_out: int | None = None
    discarder: int | None = None
    results: tuple[DealScore, ...] = field(default=(), converter=_results)
    # What the engine derives from the melds for its hot path (see persian_rummy._internal.summary).
    _table: _summary.Summary = field(init=False, default=_summary.NO_TABLE, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        problem = _validation.state_problem(self)
        if problem:
            raise InvalidStateError(problem)
        object.__setattr__(self, "_table", _summary.summarize(self.melds))

    @property
    def scores(self) -> tuple[int, int]:
        """
        Each team's total over the finished deals.
        """
        return (sum(r.teams[0].total for r in self.results), sum(r.teams[1].total for r in self.results))

    @property
    def seat_to_act(self) -> int:
        """
        The seat to act, `to_act`, as a seat: for code that knows a seat is to act (after
        `legal_actions` gave actions, or in the phases of `Phase` where one does).

        Raises:
            ChanceNodeError: no seat is to act: the next action is a deal.
            InvalidValueError: no seat is to act: the game is over.

        >>> from persian_rummy import new_game
        >>> new_game().seat_to_act
        Traceback (most recent call last):
          ...
        persian_rummy.exceptions.ChanceNodeError: no seat is to act in phase 'deal': the next action is a Deal
        """
        seat = self.to_act
        if seat is None:
            return _no_seat(self.phase)
        return seat

    @property
    def is_chance_node(self) -> bool:
        """
        Whether the next action is a `persian_rummy.Deal`.
        """
        return self.phase in _CHANCE  # every playout loop asks, at every step

    def __repr__(self) -> str:
        return f"parse_position({_format.position(self)!r})"

    def __str__(self) -> str:
        """
        The table as lines of text, with the cards' suit symbols, as `persian_rummy.pictures.render_text` writes it
        but for its last newline (which `print` adds back).
        """
        return _scene.text(_scene.of_state(self), symbols=True).removesuffix("\n")

    def _repr_svg_(self) -> str:
        """
        The position drawn in SVG, as a notebook shows it (`persian_rummy.pictures.render_svg`).
        """
        return _scene.svg(_scene.of_state(self))

    def _repr_html_(self) -> str:
        return self._repr_svg_()

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: object) -> GameState:
        return self


def new_game(rules: Rules | None = None, *, dealer: int = 0) -> GameState:
    """
    The start of a game under *rules* (Persian Rummy's by default): nothing dealt yet, *dealer* to deal first.

    Find the first dealer and the partnerships with `persian_rummy.seating.team_draw`
    (R4, R5); then apply a `persian_rummy.Deal`.

    Raises:
        InvalidValueError: *dealer* is not a seat 0-3.
        InvalidTypeError: *rules* is not a `Rules`, or *dealer* not an `int`.
    """
    _arguments.expect(rules, (Rules, type(None)), "rules", "a Rules or None")
    _arguments.seat(dealer, "dealer")
    return _start(DEFAULT_RULES if rules is None else rules, dealer)


@functools.lru_cache(maxsize=64)
def _start(rules: Rules, dealer: int) -> GameState:
    # Built through the checks, once per rules and dealer: states are never changed, so games share it.
    return GameState(rules=rules, phase=Phase.DEAL, dealer=dealer, stock=FULL_DECK)


def next_dealer(state: GameState | View) -> int:
    """
    The seat that deals the next deal: the first dealer before the game, then as `Rules.next_dealer` says (A4).

    During a deal, the seat that will deal the following one.  *state* may also be a `View`.

    Raises:
        InvalidTypeError: *state* is neither a `GameState` nor a `View`.
    """
    _arguments.expect(state, (GameState, View), "state", "a GameState or a View")
    if state.phase is Phase.DEAL:
        return state.dealer
    rule = state.rules.next_dealer
    if rule is NextDealer.SAME:
        return state.dealer
    if rule is NextDealer.WINNER and state.went_out is not None:
        return state.went_out
    return _seats.left_of(state.dealer)


def check_invariants(state: object) -> None:
    """
    Check every invariant of *state*; raise `InvalidStateError` naming the first one broken.

    The invariants: the fields have the right types; all 56 cards are present
    exactly once (hands, stock, discard pile, melds); every meld is valid under the
    rules; the phase agrees with the seat to act, the obligation, the passes and the
    number of finished deals; known and picked cards are where they must be; a
    finished deal's result is the score of its table.
    """
    if not isinstance(state, GameState):
        msg = f"not a GameState: {state!r}"
        raise InvalidStateError(msg)
    problem = _validation.state_problem(state)
    if problem:
        raise InvalidStateError(problem)


@frozen(cache_hash=True, weakref_slot=False)
class View:
    """
    What one seat (or a spectator) knows of a game.

    ``print(view)`` draws the table as the view's seat sees it, as `persian_rummy.pictures.render_text`
    writes it: the cards it does not see are counted, not named.

    >>> from persian_rummy import observe
    >>> print(observe(new_game(), 1))
    The game as E sees it
    Before the first deal
    N to deal
    Score: N-S 0, E-W 0 (no deal finished)
    <BLANKLINE>
    Hands:
      N        no cards
      E (you)  no cards
      S        no cards
      W        no cards
    <BLANKLINE>
    Table: no melds yet
    Discard pile: empty
    Stock: 56 cards

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
            to take from the discard pile (or to draw from a known stock) and still holds.
            When a deal is over every hand is shown, as the players lay them down to count
            the score.
        stock_size: The number of cards in the stock.
        discard_pile: The discard pile, bottom card first.
        melds: The melds on the table, with who placed each card.
        obligation: The card taken from the discard pile that must still be played.
        picked: The cards taken from the discard pile this turn.
        passes: Passes in a row.
        went_out: The seat that went out in this deal, if any.
        results: The scores of the finished deals.
        stock: The stock, next card first, when every player knows it: it was turned
            over from the discard pile (`Rules.reshuffle_on_empty_stock`, A18); `None` otherwise.
        discarder: The seat whose discard is answered in the phases `Phase.CALLS` and
            `Phase.CALLED` (A24); `None` in the other phases.
    """

    seat: int | None
    rules: Rules
    phase: Phase = field(converter=_phase)
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
    stock: tuple[Card, ...] | None = field(default=None, kw_only=True)
    discarder: int | None = field(default=None, kw_only=True)
    # As for GameState: the engine's summary of the melds.
    _table: _summary.Summary = field(init=False, default=_summary.NO_TABLE, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        problem = _validation.view_problem(self)
        if problem:
            raise ViewError(problem)
        object.__setattr__(self, "_table", _summary.summarize(self.melds))

    @property
    def scores(self) -> tuple[int, int]:
        """
        Each team's total over the finished deals, as `GameState.scores`.
        """
        return (sum(r.teams[0].total for r in self.results), sum(r.teams[1].total for r in self.results))

    @property
    def seat_to_act(self) -> int:
        """
        The seat to act, `to_act`, as a seat: for code that knows a seat is to act (after
        `legal_actions` gave actions, or in the phases of `Phase` where one does).

        Raises:
            ChanceNodeError: no seat is to act: the next action is a deal.
            InvalidValueError: no seat is to act: the game is over.

        """
        seat = self.to_act
        if seat is None:
            return _no_seat(self.phase)
        return seat

    @property
    def stock_known(self) -> bool:
        """
        Whether every player knows the order of the stock, as `GameState.stock_known`: it was
        turned over from the discard pile (A18), and `stock` holds its cards.
        """
        return self.stock is not None

    @property
    def unseen(self) -> CardSet:
        """
        The cards whose place the view does not tell: in other hands (beyond the known cards) or in the stock.
        """
        seen = 0 if self.hand is None else self.hand.mask
        for part in self.known:
            seen |= part.mask
        for card in (*self.discard_pile, *(self.stock or ())):
            seen |= 1 << card.index
        for meld in self.melds:
            seen |= meld.cards.mask
        return CardSet(_tables.ALL_CARDS & ~seen)

    def __str__(self) -> str:
        """
        What the view shows as lines of text, with the cards' suit symbols, as `persian_rummy.pictures.render_text`
        writes it but for its last newline (which `print` adds back).
        """
        return _scene.text(_scene.of_view(self), symbols=True).removesuffix("\n")

    def _repr_svg_(self) -> str:
        """
        What the view shows, drawn in SVG, as a notebook shows it (`persian_rummy.pictures.render_svg`).
        """
        return _scene.svg(_scene.of_view(self))

    def _repr_html_(self) -> str:
        return self._repr_svg_()


# -- hashing -----------------------------------------------------------------------------------------------------
# Both classes keep attrs' slot for a cached hash (cache_hash=True), which pickles leave out; the hash cached there
# is the one below, worked out from card masks and counts in a fixed number of steps, instead of the hash of every
# field, which hashes every card of the stock and the pile and every meld in Python.  Only fields that equal
# values share are read: two values that differ only in the order of the stock or of the pile, or in their melds,
# may hash alike, which is allowed.  Integers only, so the hash is the same in every process (the hash of None or
# of text is not).


def _state_hash(state: GameState) -> int:
    cached: int | None = getattr(state, _build.CACHED_HASH)
    if cached is None:
        hands = state.hands
        to_act = state.to_act
        cached = hash((
            hands[0].mask, hands[1].mask, hands[2].mask, hands[3].mask, state.picked.mask, len(state.stock),
            len(state.discard_pile), len(state.melds), len(state.results), state.deal, state.dealer, state.passes,
            -1 if to_act is None else to_act, state.phase is Phase.PLAY,
        ))  # fmt: skip
        object.__setattr__(state, _build.CACHED_HASH, cached)
    return cached


def _view_hash(view: View) -> int:
    cached: int | None = getattr(view, _build.CACHED_HASH)
    if cached is None:
        hand = view.hand
        known = view.known
        to_act = view.to_act
        seat = view.seat
        cached = hash((
            -1 if hand is None else hand.mask, known[0].mask, known[1].mask, known[2].mask, known[3].mask,
            view.hand_sizes, view.picked.mask, view.stock_size, len(view.discard_pile), len(view.melds),
            len(view.results), view.deal, view.dealer, view.passes, -1 if to_act is None else to_act,
            -1 if seat is None else seat, view.phase is Phase.PLAY,
        ))  # fmt: skip
        object.__setattr__(view, _build.CACHED_HASH, cached)
    return cached


GameState.__hash__ = _state_hash  # type: ignore[method-assign, assignment]
View.__hash__ = _view_hash  # type: ignore[method-assign, assignment]
