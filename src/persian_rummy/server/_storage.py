"""
Where tables are kept: the `Storage` protocol, and `SqliteStorage`, an embedded SQLite database.

The server writes each table when it is made, each seat when it is claimed and each action before
anyone is told of it; after a crash it reads them all back (`Storage.load`) and replays every table's
actions.  An action's number is part of its key, so an action can never be stored twice.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from typing import Literal, Protocol

from attrs import frozen

_SCHEMA = """
create table if not exists tables (
    id text primary key,
    spec text not null,
    created text not null,
    record text
);
create table if not exists seats (
    table_id text not null references tables (id),
    seat integer not null,
    invite_hash text,
    token_hash text,
    name text,
    primary key (table_id, seat)
);
create table if not exists actions (
    table_id text not null references tables (id),
    seq integer not null,
    action text not null,
    chosen_by text not null,
    primary key (table_id, seq)
);
"""


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
    Everything stored of a table: its spec (JSON), when it was made, its seats and actions in order.
    """

    id: str
    spec: str
    created: str
    seats: tuple[StoredSeat, ...]
    actions: tuple[StoredAction, ...]


class Storage(Protocol):
    """
    What the server needs of a database.  `SqliteStorage` is the one the package ships.

    Each method returns once what it writes is durable: the server tells nobody of an action before
    `append` returns.
    """

    def load(self) -> list[StoredTable]:
        """
        Every table stored, with its seats and actions in order.
        """
        ...

    def create(self, table: StoredTable) -> None:
        """
        Store a new table and its people's seats.
        """
        ...

    def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        """
        Store that a person took *seat*: the hash of their token and their name.
        """
        ...

    def append(self, table_id: str, action: StoredAction) -> None:
        """
        Store the table's next action.

        Raises:
            Exception: the database's own error (``sqlite3.IntegrityError`` for SQLite) when an action with
                this number is stored.
        """
        ...

    def finish(self, table_id: str, record: str) -> None:
        """
        Store the record of a finished game (JSON).
        """
        ...

    def record(self, table_id: str) -> str | None:
        """
        The stored record of the table's finished game, if any.
        """
        ...

    def close(self) -> None:
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
    """

    def __init__(self, path: str, *, synchronous: Literal["normal", "full"] = "normal") -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        if path != ":memory:":
            self._db.execute("pragma journal_mode = wal")
        self._db.execute(f"pragma synchronous = {'full' if synchronous == 'full' else 'normal'}")
        self._db.execute("pragma foreign_keys = on")
        self._db.executescript(_SCHEMA)

    def _write(self, statements: Sequence[tuple[str, tuple[object, ...]]]) -> None:
        with self._lock:
            self._db.execute("begin immediate")
            try:
                for sql, parameters in statements:
                    self._db.execute(sql, parameters)
            except BaseException:
                self._db.execute("rollback")
                raise
            self._db.execute("commit")

    def load(self) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute("select id, spec, created from tables order by created, id").fetchall()
            seats = self._db.execute(
                "select table_id, seat, invite_hash, token_hash, name from seats order by table_id, seat"
            ).fetchall()
            actions = self._db.execute(
                "select table_id, seq, action, chosen_by from actions order by table_id, seq"
            ).fetchall()
        by_table: dict[str, tuple[list[StoredSeat], list[StoredAction]]] = {row[0]: ([], []) for row in rows}
        for table_id, seat, invite, token, name in seats:
            by_table[table_id][0].append(StoredSeat(seat, invite, token, name))
        for table_id, seq, action, chosen_by in actions:
            by_table[table_id][1].append(StoredAction(seq, action, chosen_by))
        return [
            StoredTable(table_id, spec, created, tuple(by_table[table_id][0]), tuple(by_table[table_id][1]))
            for table_id, spec, created in rows
        ]

    def create(self, table: StoredTable) -> None:
        statements: list[tuple[str, tuple[object, ...]]] = [
            ("insert into tables (id, spec, created) values (?, ?, ?)", (table.id, table.spec, table.created))
        ]
        statements += [
            (
                "insert into seats (table_id, seat, invite_hash, token_hash, name) values (?, ?, ?, ?, ?)",
                (table.id, seat.seat, seat.invite_hash, seat.token_hash, seat.name),
            )
            for seat in table.seats
        ]
        self._write(statements)

    def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        self._write(
            [
                (
                    "update seats set token_hash = ?, name = ?, invite_hash = null where table_id = ? and seat = ?",
                    (token_hash, name, table_id, seat),
                )
            ]
        )

    def append(self, table_id: str, action: StoredAction) -> None:
        self._write(
            [
                (
                    "insert into actions (table_id, seq, action, chosen_by) values (?, ?, ?, ?)",
                    (table_id, action.seq, action.action, action.chosen_by),
                )
            ]
        )

    def finish(self, table_id: str, record: str) -> None:
        self._write([("update tables set record = ? where id = ?", (record, table_id))])

    def record(self, table_id: str) -> str | None:
        with self._lock:
            row = self._db.execute("select record from tables where id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def dumps(data: object) -> str:
    """
    Compact JSON for the database.
    """
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
