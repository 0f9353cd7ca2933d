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
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, Protocol, TypeVar

from attrs import frozen

from ._worker import tell

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
    ``"full"`` also survives a power cut, at the cost of a flush to the disk at every commit.

    Every statement runs in one thread of the storage's own, never on the event loop.  The writes
    that wait while one is committed are committed together, in one transaction, each in a
    savepoint of its own, so that one that fails (an action stored twice) fails alone.  When another
    process holds the database's write lock, a write waits for it and tries again for up to
    *busy_seconds* before it fails.
    """

    def __init__(
        self, path: str, *, synchronous: Literal["normal", "full"] = "normal", busy_seconds: float = 60.0
    ) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=0.25)
        self._retrying(self._open, synchronous)
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="persian-rummy-sqlite", daemon=True)
        self._thread.start()

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

    def _submit(self, job: _Job) -> asyncio.Future[Any]:
        self._queue.put(job)
        return job.future

    def _write(self, statements: Sequence[tuple[str, tuple[object, ...]]]) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        return self._submit(_Job(loop, loop.create_future(), statements, None))

    def _read(self, function: Callable[[], object]) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        return self._submit(_Job(loop, loop.create_future(), (), function))

    def _serve(self) -> None:
        """
        The storage's thread: each write with those that wait behind it in one transaction, each read alone.
        """
        while (job := self._queue.get()) is not None:
            if job.read is not None:
                self._do_read(job)
                continue
            writes = [job]
            stop = False
            while not stop:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                elif more.read is not None:
                    self._commit(writes)
                    writes = []
                    self._do_read(more)
                else:
                    writes.append(more)
            self._commit(writes)
            if stop:
                return

    def _do_read(self, job: _Job) -> None:
        assert job.read is not None  # noqa: S101 (a read's job)
        try:
            tell(job.loop, job.future, self._retrying(job.read), None)
        except BaseException as error:  # noqa: BLE001 (handed to whoever awaits the read)
            tell(job.loop, job.future, None, error)

    def _commit(self, writes: list[_Job]) -> None:
        if not writes:
            return
        try:
            errors = self._retrying(self._transaction, writes)
        except BaseException as error:  # noqa: BLE001 (every write of the batch fails with it)
            errors = [error] * len(writes)
        for job, failed in zip(writes, errors, strict=True):
            tell(job.loop, job.future, None, failed)

    def _transaction(self, writes: list[_Job]) -> list[BaseException | None]:
        """
        Every write of *writes* in one transaction, each in a savepoint: what each one raised.
        """
        db = self._db
        errors: list[BaseException | None] = []
        db.execute("begin immediate")
        try:
            for job in writes:
                db.execute("savepoint one")
                try:
                    for sql, parameters in job.statements:
                        db.execute(sql, parameters)
                except sqlite3.OperationalError as error:
                    if _locked(error):
                        raise
                    db.execute("rollback to one")
                    errors.append(error)
                except sqlite3.Error as error:
                    db.execute("rollback to one")
                    errors.append(error)
                else:
                    errors.append(None)
                db.execute("release one")
            db.execute("commit")
        except BaseException:
            db.execute("rollback")
            raise
        return errors

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
            StoredTable(table_id, spec, created, tuple(seats), tuple(actions), secret, admin)
            for (table_id, spec, created, secret, admin), (seats, actions) in zip(rows, by_table.values(), strict=True)
        ]

    async def load(self) -> list[StoredTable]:
        loaded: list[StoredTable] = await self._read(self._load)
        return loaded

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
        await self._write(statements)

    async def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        sql = "update seats set token_hash = ?, name = ?, invite_hash = null where table_id = ? and seat = ?"
        await self._write([(sql, (token_hash, name, table_id, seat))])

    async def append(self, table_id: str, action: StoredAction, record: str | None = None) -> None:
        statements: list[tuple[str, tuple[object, ...]]] = [
            (
                "insert into actions (table_id, seq, action, chosen_by) values (?, ?, ?, ?)",
                (table_id, action.seq, action.action, action.chosen_by),
            )
        ]
        if record is not None:
            statements.append(("update tables set record = ?, status = 'over' where id = ?", (record, table_id)))
        await self._write(statements)

    async def end(self, table_id: str, ending: Ending, record: str) -> None:
        sql = "update tables set record = ?, status = ? where id = ?"
        await self._write([(sql, (record, ending, table_id))])

    async def delete(self, table_id: str) -> None:
        statements = [
            (f"delete from {name} where table_id = ?", (table_id,))  # noqa: S608 (the tables' names)
            for name in ("seats", "actions")
        ]
        await self._write([*statements, ("delete from tables where id = ?", (table_id,))])

    def _record(self, table_id: str) -> str | None:
        row = self._db.execute("select record from tables where id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

    async def record(self, table_id: str) -> str | None:
        found: str | None = await self._read(functools.partial(self._record, table_id))
        return found

    async def close(self) -> None:
        await self._read(lambda: None)  # what was given before is done
        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)
        self._db.close()


@frozen
class _Job:
    """
    Work for the storage's thread: statements to write, or a function that reads; whom to tell.
    """

    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    statements: Sequence[tuple[str, tuple[object, ...]]]
    read: Callable[[], object] | None


def _locked(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text


def dumps(data: object) -> str:
    """
    Compact JSON for the database.
    """
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
