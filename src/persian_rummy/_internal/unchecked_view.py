"""
The view of a seat built from a valid state, without checks: `persian_rummy.observe` and the
match runner, which shows a view to the player of every decision, build views here.
"""

from __future__ import annotations

from typing import Final, assert_never

from ..state import GameState, Phase, View
from . import build as _build

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
    if (
        phase is Phase.PLAY
        or phase is Phase.DRAW
        or phase is Phase.DEAL
        or phase is Phase.CALLS
        or phase is Phase.CALLED
    ):
        view.known = state.revealed
    elif phase is Phase.DEAL_OVER or phase is Phase.GAME_OVER:  # every hand is shown (R22)
        view.known = hands
    else:
        assert_never(phase)
    stock = state.stock
    view.stock_size = len(stock)
    view.discard_pile = state.discard_pile
    view.melds = state.melds
    view.obligation = state.obligation
    view.picked = state.picked
    view.passes = state.passes
    view.went_out = state.went_out
    view.results = state.results
    view.known_stock = stock if state.stock_known else None
    view.discarder = state.discarder
    view._table = state._table
    view._attrs_cached_hash = None
    view.__class__ = View
    return view  # type: ignore[no-any-return]
