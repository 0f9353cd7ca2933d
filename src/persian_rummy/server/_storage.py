"""
Where tables are kept: the `Storage` protocol, and `SqliteStorage`, an embedded SQLite database.

The server writes each table when it is made, each seat when it is claimed and each action before
anyone is told of it; after a crash it reads back every table still in play (`Storage.load`) and
replays its actions.  An action's number is part of its key, so an action can never be stored twice;
the action that ends a game is stored with the game's record in one transaction.

The methods are coroutines: a database is never waited for on the server's event loop.
`SqliteStorage` runs its statements in a thread of its own, waits for a database locked by another
process and tries again, so that a locked database delays a table and stalls nothing else.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final, Literal, Protocol, TypeVar

from attrs import frozen

_log: Final = logging.getLogger("persian_rummy.server")

_T = TypeVar("_T")

#: How a table ended: its game is over, its creator aborted it, or it expired.
Ending = Literal["over", "aborted", "expired"]

_SCHEMA: Final = """
create table if not exists tables (
    id text primary key,
    spec text not null,
    created text not null,
    record text,
    secret text not null default '',
    admin_hash text,
    status text not null default 'live'
);
create table if not exists seats (
    table_id text not null references tables (id) on delete cascade,
    seat integer not null,
    invite_hash text,
    token_hash text,
    name text,
    primary key (table_id, seat)
);
create table if not exists actions (
    table_id text not null references tables (id) on delete cascade,
    seq integer not null,
    action text not null,
    chosen_by text not null,
    primary key (table_id, seq)
);
"""

#: The columns a database made by an earlier version lacks, with their definitions.
_ADDED_COLUMNS: Final = (
    ("secret", "text not null default ''"),
    ("admin_hash", "text"),
    ("status", "text not null default 'live'"),
)


@frozen
class StoredSeat:
    """
    A person's seat as stored: the hashes of its invitation and of its token, and its player's name.
    """

    seat: int
    invite_hash: str | None
    token_hash: str | None
    name: str | None


@frozen
class StoredAction:
    """
    One accepted action: its number, its JSON document and who chose it.
    """

    seq: int
    action: str
    chosen_by: str


@frozen
class StoredTable:
    """
    Everything stored of a table in play.

    Attributes:
        id: The table's id.
        spec: Its spec, as JSON.
        created: When it was made (ISO 8601, UTC).
        seats: Its people's seats.
        actions: Its actions in order.
        secret: The key its deals and bots' choices are drawn from (hexadecimal), kept from every
            client until the game ends; empty for a table whose spec gives a seed.
        admin_hash: The SHA-256 hash of its creator's admin token.
    """

    id: str
    spec: str
    created: str
    seats: tuple[StoredSeat, ...]
    actions: tuple[StoredAction, ...]
    secret: str = ""
    admin_hash: str | None = None


class Storage(Protocol):
    """
    What the server needs of a database.  `SqliteStorage` is the one the package ships.

    Each coroutine returns once what it writes is durable: the server tells nobody of an action
    before `append` returns.  None may block the event loop that awaits it.
    """

    async def load(self) -> list[StoredTable]:
        """
        Every table still in play (not ended), with its seats and actions in order.
        """
        ...

    async def create(self, table: StoredTable) -> None:
        """
        Store a new table and its people's seats.
        """
        ...

    async def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        """
        Store that a person took *seat*: the hash of their token and their name.
        """
        ...

    async def append(self, table_id: str, action: StoredAction, record: str | None = None) -> None:
        """
        Store the table's next action; with *record* (JSON), the action ends the game, and the
        record is stored in the same transaction.

        Raises:
            Exception: the database's own error (``sqlite3.IntegrityError`` for SQLite) when an action with
                this number is stored.
        """
        ...

    async def end(self, table_id: str, ending: Ending, record: str) -> None:
        """
        Store that the table ended (*ending*), with the record of its game so far (JSON).
        """
        ...

    async def delete(self, table_id: str) -> None:
        """
        Forget the table: its seats, its actions and its record.
        """
        ...

    async def record(self, table_id: str) -> str | None:
        """
        The stored record of the table's game, once it has ended; `None` before, or for no such table.
        """
        ...

    async def close(self) -> None:
        """
        Close the database.
        """
        ...


class SqliteStorage:
    """
    Tables in an SQLite database file, or in memory with ``":memory:"``.

    A file is opened in write-ahead-log mode.  *synchronous* is SQLite's setting: with ``"normal"``,
    the default, what is committed survives the server being killed (the operating system holds it);
    ``"full"`` also survives a power cut, at the cost of a flush to the disk at every action.

    Every statement runs in one thread of the storage's own, never on the event loop.  When another
    process holds the database's write lock, a write waits for it and tries again for up to
    *busy_seconds* before it fails.
    """

    def __init__(
        self, path: str, *, synchronous: Literal["normal", "full"] = "normal", busy_seconds: float = 60.0
    ) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="persian-rummy-sqlite")
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=0.25)
        self._retrying(self._open, synchronous)

    def _open(self, synchronous: str) -> None:
        if self.path != ":memory:":
            self._db.execute("pragma journal_mode = wal")
        self._db.execute(f"pragma synchronous = {'full' if synchronous == 'full' else 'normal'}")
        self._db.execute("pragma foreign_keys = on")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("pragma table_info(tables)")}
        for name, definition in _ADDED_COLUMNS:
            if name not in columns:
                self._db.execute(f"alter table tables add column {name} {definition}")
        self._db.execute("update tables set status = 'over' where status = 'live' and record is not null")

    async def _run(self, function: Callable[..., _T], *args: object) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(self._retrying, function, *args))

    def _retrying(self, function: Callable[..., _T], *args: object) -> _T:
        """
        *function* called with *args*, called again while the database is locked by another connection.
        """
        deadline = time.monotonic() + self.busy_seconds
        pause = 0.05
        while True:
            try:
                return function(*args)
            except sqlite3.OperationalError as error:
                if not _locked(error) or time.monotonic() + pause > deadline:
                    raise
                _log.warning("the database is locked (%s); trying again in %.2f s", error, pause)
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def _write(self, statements: Sequence[tuple[str, tuple[object, ...]]]) -> None:
        self._db.execute("begin immediate")
        try:
            for sql, parameters in statements:
                self._db.execute(sql, parameters)
        except BaseException:
            self._db.execute("rollback")
            raise
        self._db.execute("commit")

    def _load(self) -> list[StoredTable]:
        live = "select id from tables where status = 'live'"
        rows = self._db.execute(
            "select id, spec, created, secret, admin_hash from tables where status = 'live' order by created, id"
        ).fetchall()
        seats = self._db.execute(
            f"select table_id, seat, invite_hash, token_hash, name from seats where table_id in ({live})"  # noqa: S608 (no parameter)
            " order by table_id, seat"
        ).fetchall()
        actions = self._db.execute(
            f"select table_id, seq, action, chosen_by from actions where table_id in ({live})"  # noqa: S608 (no parameter)
            " order by table_id, seq"
        ).fetchall()
        by_table: dict[str, tuple[list[StoredSeat], list[StoredAction]]] = {row[0]: ([], []) for row in rows}
        for table_id, seat, invite, token, name in seats:
            by_table[table_id][0].append(StoredSeat(seat, invite, token, name))
        for table_id, seq, action, chosen_by in actions:
            by_table[table_id][1].append(StoredAction(seq, action, chosen_by))
        return [
            StoredTable(
                table_id, spec, created, tuple(by_table[table_id][0]), tuple(by_table[table_id][1]), secret, admin
            )
            for table_id, spec, created, secret, admin in rows
        ]

    async def load(self) -> list[StoredTable]:
        return await self._run(self._load)

    async def create(self, table: StoredTable) -> None:
        statements: list[tuple[str, tuple[object, ...]]] = [
            (
                "insert into tables (id, spec, created, secret, admin_hash) values (?, ?, ?, ?, ?)",
                (table.id, table.spec, table.created, table.secret, table.admin_hash),
            )
        ]
        statements += [
            (
                "insert into seats (table_id, seat, invite_hash, token_hash, name) values (?, ?, ?, ?, ?)",
                (table.id, seat.seat, seat.invite_hash, seat.token_hash, seat.name),
            )
            for seat in table.seats
        ]
        statements += [
            (
                "insert into actions (table_id, seq, action, chosen_by) values (?, ?, ?, ?)",
                (table.id, action.seq, action.action, action.chosen_by),
            )
            for action in table.actions
        ]
        await self._run(self._write, statements)

    async def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        sql = "update seats set token_hash = ?, name = ?, invite_hash = null where table_id = ? and seat = ?"
        await self._run(self._write, [(sql, (token_hash, name, table_id, seat))])

    async def append(self, table_id: str, action: StoredAction, record: str | None = None) -> None:
        statements: list[tuple[str, tuple[object, ...]]] = [
            (
                "insert into actions (table_id, seq, action, chosen_by) values (?, ?, ?, ?)",
                (table_id, action.seq, action.action, action.chosen_by),
            )
        ]
        if record is not None:
            statements.append(("update tables set record = ?, status = 'over' where id = ?", (record, table_id)))
        await self._run(self._write, statements)

    async def end(self, table_id: str, ending: Ending, record: str) -> None:
        sql = "update tables set record = ?, status = ? where id = ?"
        await self._run(self._write, [(sql, (record, ending, table_id))])

    async def delete(self, table_id: str) -> None:
        statements = [
            (f"delete from {name} where table_id = ?", (table_id,))  # noqa: S608 (the tables' names)
            for name in ("seats", "actions")
        ]
        await self._run(self._write, [*statements, ("delete from tables where id = ?", (table_id,))])

    def _record(self, table_id: str) -> str | None:
        row = self._db.execute("select record from tables where id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

    async def record(self, table_id: str) -> str | None:
        return await self._run(self._record, table_id)

    async def close(self) -> None:
        await self._run(self._db.close)
        self._executor.shutdown()


def _locked(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text


def dumps(data: object) -> str:
    """
    Compact JSON for the database.
    """
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
