"""
Every state, view and engine value that the package builds without checks, from values already
checked: the states that `persian_rummy.apply` steps to, the states `determinize` and the events'
replay make from a view, the views `persian_rummy.observe` and the matches show, and the melds,
lay-downs, lay-offs and deals that the engine hands out (`persian_rummy._internal.build`).

**States.**  Each step of the engine makes its next state with a successor declared below
(`persian_rummy._internal.build.successor`): the protocol names the state it is made from and the
fields the step sets, by keyword, and every other field is the state's own.  So a field added to
`GameState` needs a line only in the declarations of the steps that set it; the others carry it on.
mypy checks each call against its declaration, and ``tests/test_internals.py`` compares the
declared types with the fields'.  The tuples a step hands on (hands, known cards, the table
summary) are declared as tuples of any length: the compiled build then passes on the tuple itself
instead of a copy (CONTRIBUTING, "The compiled build").

**Views.**  `view_of` fills a view slot by slot, a third cheaper than a builder's call; every decision of a
match builds one.

**Engine values.**  The builders of melds, lay-downs, lay-offs and deals take every field by keyword
(`persian_rummy._internal.build.builder`).
"""

from __future__ import annotations

from typing import Final, Protocol, cast

from ..actions import Deal, LayDown, LayOff
from ..cards import Card
from ..cardsets import CardSet
from ..melds import MeldKind, StandIns, TableMeld
from ..scoring import DealScore
from ..state import GameState, View
from . import build as _build
from .phase import OVER as _OVER
from .phase import Phase
from .summary import NO_TABLE

#: The stand-ins of the engine's plays and melds with no joker standing for a card (A7): one object, so
#: that the check of a play's stand-ins begins with its identity.
NO_STAND_INS: Final = StandIns()

# -- states ---------------------------------------------------------------------------------------------------
# The arguments a step sets, as the transitions name them: `Cards` for the four hands and the cards each
# seat has shown, handed on from state to state.
Cards = tuple[CardSet, ...]
Pile = tuple[Card, ...]


class _Dealt(Protocol):
    def __call__(  # noqa: PLR0913 (what a deal sets besides its constants)
        self, state: GameState, /, *, deal: int, dealer: int, to_act: int, hands: Cards, stock: Pile, discard_pile: Pile
    ) -> GameState: ...


class _Drawn(Protocol):
    def __call__(
        self, state: GameState, /, *, stock_known: bool, hands: Cards, stock: Pile, known: Cards
    ) -> GameState: ...


class _Taken(Protocol):
    def __call__(  # noqa: PLR0913 (what a take from the pile sets)
        self,
        state: GameState,
        /,
        *,
        obligation: Card | None,
        picked: CardSet,
        hands: Cards,
        discard_pile: Pile,
        known: Cards,
    ) -> GameState: ...


class _Called(Protocol):
    def __call__(  # noqa: PLR0913 (what a call of Rummy! sets)
        self,
        state: GameState,
        /,
        *,
        obligation: Card,
        picked: CardSet,
        hands: Cards,
        discard_pile: Pile,
        known: Cards,
    ) -> GameState: ...


class _Played(Protocol):
    def __call__(  # noqa: PLR0913 (what a lay-down or a lay-off sets)
        self,
        state: GameState,
        /,
        *,
        melds: tuple[TableMeld, ...],
        obligation: Card | None,
        table: tuple[object, ...],
        hands: Cards,
        known: Cards,
    ) -> GameState: ...


class _Discarded(Protocol):
    def __call__(
        self, state: GameState, /, *, to_act: int, hands: Cards, discard_pile: Pile, known: Cards
    ) -> GameState: ...


class _Turned(Protocol):
    def __call__(  # noqa: PLR0913 (what a discard that does not end the deal sets)
        self,
        state: GameState,
        /,
        *,
        phase: Phase,
        stock_known: bool,
        to_act: int,
        hands: Cards,
        stock: Pile,
        discard_pile: Pile,
        known: Cards,
        discarder: int | None,
    ) -> GameState: ...


class _Asked(Protocol):
    def __call__(self, state: GameState, /, *, to_act: int) -> GameState: ...


class _Answered(Protocol):
    def __call__(  # noqa: PLR0913 (what the answers to a discard set)
        self,
        state: GameState,
        /,
        *,
        melds: tuple[TableMeld, ...],
        table: tuple[object, ...],
        to_act: int,
        hands: Cards,
        known: Cards,
    ) -> GameState: ...


class _Passed(Protocol):
    def __call__(self, state: GameState, /, *, to_act: int, passes: int) -> GameState: ...


class _Ended(Protocol):
    def __call__(  # noqa: PLR0913 (what the end of a deal sets)
        self,
        state: GameState,
        /,
        *,
        phase: Phase,
        melds: tuple[TableMeld, ...],
        results: tuple[DealScore, ...],
        table: tuple[object, ...],
        hands: Cards,
        discard_pile: Pile,
        known: Cards,
        passes: int,
        went_out: int | None,
    ) -> GameState: ...


class _Seen(Protocol):
    def __call__(  # noqa: PLR0913 (what a view does not show of a state)
        self,
        view: View,
        /,
        *,
        stock_known: bool,
        table: tuple[object, ...],
        hands: Cards,
        stock: Pile,
        known: Cards,
    ) -> GameState: ...


_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
#: What a turn's end sets afresh: no card to play, none picked, no pass, nobody out (R15, R18, R21).
_TURN_ENDS: Final = {"obligation": None, "picked": _EMPTY, "passes": 0, "went_out": None}

#: The state a deal begins: cards dealt, the first seat to draw (R5-R7).
dealt: Final = _build.successor(
    GameState,
    _Dealt.__call__,
    phase=Phase.DRAW,
    stock_known=False,
    melds=(),
    table=NO_TABLE,
    known=_NO_CARDS,
    discarder=None,
    **_TURN_ENDS,
)
#: The state after a draw from the stock (R14).
drawn: Final = _build.successor(GameState, _Drawn.__call__, phase=Phase.PLAY, discarder=None, **_TURN_ENDS)
#: The state after a take from the discard pile (R14, R15).
taken: Final = _build.successor(GameState, _Taken.__call__, phase=Phase.PLAY, passes=0, went_out=None, discarder=None)
#: The state after a call of "Rummy!": the caller takes the discard and must lay it off (A24).
called: Final = _build.successor(GameState, _Called.__call__, phase=Phase.CALLED, passes=0, went_out=None)
#: The state after a lay-down or a lay-off that leaves cards in hand (R16, R17).
played: Final = _build.successor(GameState, _Played.__call__, went_out=None, discarder=None)
#: The state after a discard from a stock that is not empty: the next seat draws (R18).
discarded: Final = _build.successor(GameState, _Discarded.__call__, phase=Phase.DRAW, discarder=None, **_TURN_ENDS)
#: The state after a discard from an empty stock, or under calls of "Rummy!": the pile turned over
#: into a new stock (A18), or the seats asked whether they call (A24), or the next turn (A17).
turned: Final = _build.successor(GameState, _Turned.__call__, **_TURN_ENDS)
#: The state after a seat declines to call "Rummy!" and the next is asked (A24).
asked: Final = _build.successor(GameState, _Asked.__call__, **_TURN_ENDS)
#: The state after a discard is answered, by a call and its lay-off or by every seat declining: the
#: discarder's left draws (A24).
answered: Final = _build.successor(GameState, _Answered.__call__, phase=Phase.DRAW, discarder=None, **_TURN_ENDS)
#: The state after a pass that does not end the deal (R21).
passed: Final = _build.successor(
    GameState, _Passed.__call__, stock_known=False, obligation=None, picked=_EMPTY, went_out=None, discarder=None
)
#: The state after the end of a deal (R19-R22).
ended: Final = _build.successor(GameState, _Ended.__call__, obligation=None, picked=_EMPTY, to_act=None, discarder=None)
#: A state behind a view: its hidden cards placed (``determinize``, the events' replay); the view's other fields.
seen: Final = _build.successor(GameState, _Seen.__call__)


# -- views ----------------------------------------------------------------------------------------------------

_new: Final = object.__new__
_VIEW_TWIN: Final = _build.twin(View)


def view_of(state: GameState, seat: int | None) -> View:
    """
    The view `persian_rummy.observe` gives, built slot by slot: a view of a valid state needs no check.
    """
    # Every decision of every match builds a view: this is a third cheaper than passing the
    # fields to a builder.  Each slot of View is set here (tests/test_views.py checks it).
    view = _new(_VIEW_TWIN)
    view.seat = seat
    view.rules = state.rules
    view.phase = phase = state.phase
    view.deal = state.deal
    view.dealer = state.dealer
    view.to_act = state.to_act
    hands = state.hands
    view.hand = None if seat is None else hands[seat]
    north, east, south, west = hands
    view.hand_sizes = (north.mask.bit_count(), east.mask.bit_count(), south.mask.bit_count(), west.mask.bit_count())
    view.known = hands if phase in _OVER else state.known  # every hand is shown once the deal is over (R22)
    stock = state.stock
    view.stock_size = len(stock)
    view.discard_pile = state.discard_pile
    view.melds = state.melds
    view.obligation = state.obligation
    view.picked = state.picked
    view.passes = state.passes
    view.went_out = state.went_out
    view.results = state.results
    view.stock = stock if state.stock_known else None
    view.discarder = state.discarder
    view._table = state._table
    view._attrs_cached_hash = None
    view.__class__ = View
    return cast("View", view)


# -- the engine's values --------------------------------------------------------------------------------------


class _MeldFields(Protocol):
    def __call__(  # noqa: PLR0913 (every field of TableMeld)
        self,
        *,
        owner: int,
        laid_down: CardSet,
        layoffs: tuple[CardSet, ...],
        ace_low: bool,
        stand_ins: StandIns,
        cards: CardSet,
        represents: CardSet,
        kind: MeldKind,
        ends: int,
        reach: int,
    ) -> TableMeld: ...


class _LayDownFields(Protocol):
    def __call__(self, *, seat: int, cards: CardSet, stand_ins: StandIns) -> LayDown: ...


class _LayOffFields(Protocol):
    def __call__(self, *, seat: int, meld: int, cards: CardSet, stand_ins: StandIns) -> LayOff: ...


class _DealFields(Protocol):
    def __call__(self, *, seat: int, deck: tuple[Card, ...]) -> Deal: ...


#: A meld on the table: ``cards``, ``represents``, ``kind``, ``ends`` and ``reach`` are what ``TableMeld`` derives.
new_meld: Final = _build.builder(TableMeld, _MeldFields.__call__)
new_lay_down: Final = _build.builder(LayDown, _LayDownFields.__call__)
new_lay_off: Final = _build.builder(LayOff, _LayOffFields.__call__)
new_deal: Final = _build.builder(Deal, _DealFields.__call__)
