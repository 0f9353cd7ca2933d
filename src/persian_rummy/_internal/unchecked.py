"""
The engine's values built without checks, by keyword: the states, the melds, the lay-downs, lay-offs and deals
that `persian_rummy.apply`, `persian_rummy.legal_actions`, ``determinize`` and the events' replay derive from
values already checked (`persian_rummy._internal.build`).

Each protocol below declares one builder: every field of its class, in field order, without a default, by
keyword, so that mypy names every construction that lacks a field; `_build.builder` refuses, when this module is
imported, a declaration that does not list the class's fields (``tests/test_internals.py`` compares their
types).  A state's builder takes the eight fields of a type that no other field of a state has first,
positionally, since mypy tells them apart by their types, and by keyword only the ten that share a type (the
counts, the seats, the hands and revealed cards, the stock and the pile): CPython passes more than fifteen
arguments by keyword only through a dictionary, several times as slowly, and a call with keywords costs more
than one without, a little more for each keyword (`persian_rummy._internal.build`).  The tuples that the engine hands on
from one state to the next (hands, revealed cards, the table summary) are declared as tuples of any length: the
compiled build then passes on the tuple itself instead of a copy (CONTRIBUTING, "The compiled build").
"""

from __future__ import annotations

from typing import Final, Protocol

from ..actions import Deal, LayDown, LayOff
from ..cards import Card
from ..cardsets import CardSet
from ..melds import MeldKind, StandIns, TableMeld
from ..rules import Rules
from ..scoring import DealScore
from ..state import GameState, Phase
from . import build as _build

#: The stand-ins of the engine's plays and melds with no joker standing for a card (A7): one object, so
#: that the check of a play's stand-ins begins with its identity.
NO_STAND_INS: Final = StandIns()


class _StateFields(Protocol):
    def __call__(  # noqa: PLR0913 (every field of GameState)
        self,
        rules: Rules,
        phase: Phase,
        stock_known: bool,
        melds: tuple[TableMeld, ...],
        obligation: Card | None,
        picked: CardSet,
        results: tuple[DealScore, ...],
        table: tuple[object, ...],
        /,
        *,
        deal: int,
        dealer: int,
        to_act: int | None,
        hands: tuple[CardSet, ...],
        stock: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
        revealed: tuple[CardSet, ...],
        passes: int,
        went_out: int | None,
        discarder: int | None,
    ) -> GameState: ...


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


#: A state: ``table`` is the summary of its melds (`persian_rummy._internal.summary`), ``_table`` on the state.
new_state: Final = _build.builder(GameState, _StateFields.__call__)
#: A meld on the table: ``cards``, ``represents``, ``kind``, ``ends`` and ``reach`` are what ``TableMeld`` derives.
new_meld: Final = _build.builder(TableMeld, _MeldFields.__call__)
new_lay_down: Final = _build.builder(LayDown, _LayDownFields.__call__)
new_lay_off: Final = _build.builder(LayOff, _LayOffFields.__call__)
new_deal: Final = _build.builder(Deal, _DealFields.__call__)
