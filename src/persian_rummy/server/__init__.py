"""
A table server: friends play at tables in their browsers, with bots in the empty seats.

`create_app` gives an ASGI application (Starlette) that serves the lobby, the tables' WebSockets and
the browser client; ``persian-rummy serve`` runs it with uvicorn.  It needs the ``server`` extra
(``pip install 'persian-rummy[server]'``).

- A table is made over HTTP with its rules, its seats (people, or bots named from the server's
  registry), an optional turn clock and the bots' delay.  Each person's seat has an invitation;
  claiming it gives the seat's secret token, the only way to act for the seat.  The creator gets
  an admin token, to abort or delete the table.
- Each client has a WebSocket.  A seat is told its own account of every action (its
  `persian_rummy.events.Event`) and its `persian_rummy.state.View` after it; a spectator the
  public account.  Every message to a reader is made from that reader's view and nothing else.
- Actions are numbered; a client that comes back with its token and the last number it saw is
  told what it missed.
- Every action is written to the database (`SqliteStorage`, `PostgresStorage`, or any `Storage`)
  before anyone is told of it, so a server that is killed and started again goes on where each table was.
- Several workers share one site through PostgreSQL (`PostgresStorage`: each table owned by one worker
  at a time, through a lease) and a Redis bus: a request about a table reaches its owner from any
  worker, and the tables of a worker that dies are taken over by the others.
- Every resource is bounded (`Limits`), the deals are drawn from a secret the server reveals once
  the game is over, and nothing a request names is imported or run.

The protocol, message by message, is in the documentation's "Build a server" page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._bots import BotError, BotRegistry
from ._limits import Limits
from ._messages import ERROR_CODES, PROTOCOL
from ._spec import BotNames, SeatSpec, SpecError, TableSpec, read_spec
from ._storage import Ending, SqliteStorage, Storage, StoredAction, StoredSeat, StoredTable
from ._table import draw_seed

if TYPE_CHECKING:
    from ._app import create_app
    from ._postgres import LeaseLostError, PostgresStorage

__all__ = [
    "ERROR_CODES",
    "PROTOCOL",
    "BotError",
    "BotNames",
    "BotRegistry",
    "Ending",
    "LeaseLostError",
    "Limits",
    "PostgresStorage",
    "SeatSpec",
    "SpecError",
    "SqliteStorage",
    "Storage",
    "StoredAction",
    "StoredSeat",
    "StoredTable",
    "TableSpec",
    "create_app",
    "draw_seed",
    "read_spec",
]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from ._app import create_app  # noqa: PLC0415 (the web framework is loaded only when the application is asked for)

        return create_app
    if name in {"PostgresStorage", "LeaseLostError"}:
        from . import _postgres  # noqa: PLC0415 (psycopg is loaded only when PostgreSQL is asked for)

        return getattr(_postgres, name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return __all__
