"""
The shapes of states and views, as protocols: the fields that the internal modules below
`persian_rummy.state` (writing positions, validation, the engine's card logic) read, so that
they work on a `persian_rummy.GameState` and a `persian_rummy.View` alike without importing them.  The phase is
`persian_rummy.Phase` itself (`persian_rummy._internal.phase`, below them).
"""

from __future__ import annotations

from typing import Protocol

from ..cards import Card
from ..cardsets import CardSet
from ..melds import TableMeld
from ..rules import Rules
from ..scoring import DealScore
from .phase import Phase
from .summary import Summary


class Public(Protocol):
    """
    The fields that states and views share: everything every seat can see.
    """

    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def deal(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def seat_to_act(self) -> int: ...
    @property
    def discard_pile(self) -> tuple[Card, ...]: ...
    @property
    def melds(self) -> tuple[TableMeld, ...]: ...
    @property
    def obligation(self) -> Card | None: ...
    @property
    def picked(self) -> CardSet: ...
    @property
    def passes(self) -> int: ...
    @property
    def went_out(self) -> int | None: ...
    @property
    def discarder(self) -> int | None: ...
    @property
    def results(self) -> tuple[DealScore, ...]: ...


class State(Public, Protocol):
    """
    What a state adds to the public fields.
    """

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def stock_known(self) -> bool: ...
    @property
    def known(self) -> tuple[CardSet, CardSet, CardSet, CardSet]: ...


class ViewShape(Public, Protocol):
    """
    What a view adds to the public fields.
    """

    @property
    def seat(self) -> int | None: ...
    @property
    def hand(self) -> CardSet | None: ...
    @property
    def hand_sizes(self) -> tuple[int, int, int, int]: ...
    @property
    def known(self) -> tuple[CardSet, CardSet, CardSet, CardSet]: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def stock(self) -> tuple[Card, ...] | None: ...


class Summarized(Public, Protocol):
    """
    A state or a view as the engine reads it: the public fields and the table summary it carries.
    """

    @property
    def _table(self) -> Summary: ...
