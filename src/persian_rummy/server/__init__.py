"""
A table server: friends play at tables in their browsers, with bots in the empty seats.

`create_app` gives an ASGI application (Starlette) that serves the lobby, the tables' WebSockets and
the browser client; ``persian-rummy serve`` runs it with uvicorn.  It needs the ``server`` extra
(``pip install 'persian-rummy[server]'``).

- A table is made over HTTP with its rules, its seats (people, or bots by their
  `persian_rummy.bots.players.make_player` names), an optional turn clock and the bots' delay.  Each
  person's seat has an invitation; claiming it gives the seat's secret token, the only way to act
  for the seat.
- Each client has a WebSocket.  A seat is told its own account of every action (its
  `persian_rummy.events.Event`) and its `persian_rummy.state.View` after it; a spectator the
  public account.  Every message to a reader is made from that reader's view and nothing else.
- Actions are numbered; a client that comes back with its token and the last number it saw is
  told exactly what it missed.
- Every action is written to the database (`SqliteStorage`, or any `Storage`) before anyone is
  told of it, so a server that is killed and started again goes on where each table was.

The protocol, message by message, is in the documentation's "Build a server" page.
"""

from __future__ import annotations

from ._app import Limits, create_app
from ._messages import ERROR_CODES, PROTOCOL
from ._spec import SeatSpec, SpecError, TableSpec, read_spec
from ._storage import SqliteStorage, Storage, StoredAction, StoredSeat, StoredTable

__all__ = [
    "ERROR_CODES",
    "PROTOCOL",
    "Limits",
    "SeatSpec",
    "SpecError",
    "SqliteStorage",
    "Storage",
    "StoredAction",
    "StoredSeat",
    "StoredTable",
    "TableSpec",
    "create_app",
    "read_spec",
]


def __dir__() -> list[str]:
    return __all__
