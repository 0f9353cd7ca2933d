"""
The summary of the table that every state and view carries for the engine's hot path.

Three masks: the cards that extend some meld by themselves (``direct``), the cards of a
run's suit beyond those, which may reach the run over cards in hand (``far``), and the
runs' cards.  A value built by hand works it out once (`summarize`); the transitions keep it
up to date as melds are laid down and extended, so its masks may then also hold cards
already on the table, which never come back into play.
"""

from __future__ import annotations

from typing import Final, Protocol, TypeAlias

from ..melds import MeldKind, TableMeld

#: A table summary: cards that extend a meld by themselves, cards beyond a run's ends, the runs.
Summary: TypeAlias = tuple[int, int, tuple[int, ...]]
#: The summary of an empty table.
NO_TABLE: Final[Summary] = (0, 0, ())


class _Carrier(Protocol):
    @property
    def _table(self) -> Summary: ...


def summarize(melds: tuple[TableMeld, ...]) -> Summary:
    """
    The table summary of *melds*, worked out from scratch.
    """
    direct = far = 0
    for meld in melds:
        direct |= meld.ends
        far |= meld.reach
    return (direct, far, tuple(meld.represents.mask for meld in melds if meld.kind is MeldKind.RUN))


def table_of(value: _Carrier) -> Summary:
    """
    The table summary *value* carries.
    """
    return value._table
