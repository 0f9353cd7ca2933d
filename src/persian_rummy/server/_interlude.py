"""
Between deals and between games: the pause at the end of a deal, until every person at the table
has pressed Next deal (or its time has run out), and the table of a rematch.
"""

from __future__ import annotations

import attrs

from ._spec import TableSpec
from ._storage import StoredSeat
from ._table import Table


@attrs.define
class Pause:
    """
    The pause after action number *seq*, which ended a deal: who is ready, and when the next deal
    is dealt without the others (Unix seconds).
    """

    seq: int
    deadline: float
    ready: set[int] = attrs.Factory(set)

    def waiting(self, table: Table) -> list[int]:
        """
        The seats of the people not ready yet.
        """
        return [seat for seat in table.spec.people if seat not in self.ready]

    def message(self, table: Table, now: float) -> dict[str, object]:
        """
        The ``pause`` message: the deal that ended, the people ready and those awaited, the deadline and
        the server's time *now* (Unix ms, so that a page counts down by the server's clock).
        """
        people = table.spec.people
        return {
            "type": "pause",
            "deal": table.state.deal,
            "ready": [seat for seat in people if seat in self.ready],
            "waiting": self.waiting(table),
            "deadline": round(self.deadline * 1000),
            "now": round(now * 1000),
        }


def at_deal_end(pause: Pause | None, table: Table, seconds: float, now: float) -> Pause | None:
    """
    The table's pause now: *pause* while it is the one of the deal that has just ended, a new one
    when a deal other than the last has just ended, `None` when no deal waits (or the pause is off).
    """
    if seconds <= 0 or table.state.phase != "deal_over" or table.status != "playing":
        return None
    if pause is None or pause.seq != table.seq:
        return Pause(table.seq, now + seconds)
    return pause


def rematch(table: Table, tokens: dict[int, str]) -> tuple[TableSpec, tuple[StoredSeat, ...]]:
    """
    The spec and the people's seats of a rematch of *table*: the same seats, names, bots, rules and
    clock, new deals (never the seed of the old table), each person with the hash of their token.
    """
    spec = attrs.evolve(table.spec, seed=None)
    return spec, tuple(StoredSeat(seat, None, tokens[seat], table.names[seat]) for seat in spec.people)


def rematch_message(table_id: str) -> dict[str, object]:
    """
    The ``rematch-made`` message: the id and the page of the rematch's table.
    """
    return {"type": "rematch-made", "table": table_id, "url": f"/tables/{table_id}"}
