"""
The shapes of states and views, as protocols: the fields that the internal modules below
`persian_rummy.state` (writing positions, validation, the engine's card logic) read, so that
they work on a `persian_rummy.GameState` and a `persian_rummy.View` alike without importing them.

They see the phase as its name, the value of `persian_rummy.Phase` (a text enumeration, equal to it):
`PhaseName` lists the names, and the questions below answer each for every name, in a `match` that
mypy checks is exhaustive.  ``persian_rummy._internal.phases.name`` maps each phase to its name, so that a phase
added to ``Phase`` is a mypy error there, and, once its name is added here, in every `match` on names.
"""

from __future__ import annotations

from typing import Final, Literal, Protocol, TypeAlias, assert_never, cast, get_args

from ..cards import Card
from ..cardsets import CardSet
from ..melds import TableMeld
from ..rules import Rules
from ..scoring import DealScore
from .summary import Summary

#: The names of the phases, the values of `persian_rummy.Phase`.
PhaseName: TypeAlias = Literal["deal", "draw", "play", "deal_over", "game_over", "calls", "called"]
PHASE_NAMES: Final[frozenset[str]] = frozenset(get_args(PhaseName))


def named(phase: str) -> PhaseName:
    """
    *phase*, a phase or its name (one of `PHASE_NAMES`, as the type checks of states, views and scenes
    have made sure), typed as its name.
    """
    return cast("PhaseName", phase)


def is_chance(phase: PhaseName) -> bool:
    """
    Whether the next action in *phase* is a deal, which no player chooses (R5, A4).
    """
    match phase:
        case "deal" | "deal_over":
            return True
        case "draw" | "play" | "game_over" | "calls" | "called":
            return False
        case _:
            assert_never(phase)


def is_turn(phase: PhaseName) -> bool:
    """
    Whether a seat is to act in *phase*: it draws or plays (R13), or answers a discard (A24).
    """
    match phase:
        case "draw" | "play" | "calls" | "called":
            return True
        case "deal" | "deal_over" | "game_over":
            return False
        case _:
            assert_never(phase)


def is_deal_over(phase: PhaseName) -> bool:
    """
    Whether the deal has ended in *phase* (R19, R22): the table is left as it ended, every hand shown.
    """
    match phase:
        case "deal_over" | "game_over":
            return True
        case "deal" | "draw" | "play" | "calls" | "called":
            return False
        case _:
            assert_never(phase)


def counts_passes(phase: PhaseName) -> bool:
    """
    Whether passes in a row may be counted in *phase* (R21, A17): between the turns of a deal with an
    empty stock, and after a deal that passes ended.
    """
    match phase:
        case "draw" | "deal_over" | "game_over":
            return True
        case "deal" | "play" | "calls" | "called":
            return False
        case _:
            assert_never(phase)


class Public(Protocol):
    """
    The fields that states and views share: everything every seat can see.
    """

    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> str: ...
    @property
    def deal(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
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
    def revealed(self) -> tuple[CardSet, CardSet, CardSet, CardSet]: ...


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
    def known_stock(self) -> tuple[Card, ...] | None: ...


class Summarized(Public, Protocol):
    """
    A state or a view as the engine reads it: the public fields and the table summary it carries.
    """

    @property
    def _table(self) -> Summary: ...
