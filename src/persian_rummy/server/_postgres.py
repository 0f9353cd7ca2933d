"""
`PostgresStorage`: the tables in a PostgreSQL database, shared by several workers (the ``postgres``
extra: psycopg 3 and its pool).

It keeps the guarantees of `SqliteStorage` (an action is committed before `append` returns, the key
(table, number) is stored once, the action that ends a game is stored with its record in one
transaction) and adds the tables' leases: each table in play is owned by one worker at a time, the
one named by its row of ``leases`` while the lease runs (`LEASE_SECONDS` after it was last renewed).
A worker stores nothing for a table it does not own: each write first locks the table's lease row,
checks that its owner is this worker, and fails with `LeaseLostError` otherwise.  A worker that takes
a lease over waits for that lock, so it reads back every action the last owner stored.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Collection
from typing import Final, LiteralString

try:
    import psycopg
    from psycopg_pool import AsyncConnectionPool
except ImportError as error:
    msg = "PostgresStorage needs the postgres extra: pip install 'persian-rummy[postgres]'"
    raise ModuleNotFoundError(msg, name=error.name) from error

from ._storage import Ending, StoredAction, StoredSeat, StoredTable

#: How long a lease runs after it was last renewed, in seconds; its owner renews it every
#: `RENEW_SECONDS`, and another worker may take a table over once its lease has run out.
LEASE_SECONDS: Final = 5.0
RENEW_SECONDS: Final = 1.0
#: The connections a storage keeps open to the database, at most.
POOL_SIZE: Final = 8
#: A key of PostgreSQL's advisory locks, held while the schema is made, so that workers started
#: together make it once.
_SCHEMA_LOCK: Final = 0x7065727369616E  # "persian"

_SCHEMA: Final[LiteralString] = """
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
create table if not exists leases (
    table_id text primary key references tables (id) on delete cascade,
    owner text not null,
    expires timestamptz not null
);
create index if not exists tables_live on tables (created, id) where status = 'live';
create index if not exists leases_owner on leases (owner);
"""

#: Takes the leases of the tables in play that no running lease holds (at most %(most)s of them), or
#: of the one table %(id)s (null: any), also from the worker %(dead)s, known to be gone.
_TAKE: Final[LiteralString] = """
insert into leases (table_id, owner, expires)
select t.id, %(owner)s, now() + make_interval(secs => %(seconds)s)
from tables t left join leases l on l.table_id = t.id
where t.status = 'live' and (%(id)s::text is null or t.id = %(id)s)
    and (l.table_id is null or l.expires < now() or l.owner = %(dead)s)
order by t.created, t.id
limit %(most)s
on conflict (table_id) do update set owner = excluded.owner, expires = excluded.expires
where leases.expires < now() or leases.owner = %(dead)s
returning table_id
"""


class LeaseLostError(Exception):
    """
    This worker does not own the table any more (another took its lease over): nothing was stored.
    """


class PostgresStorage:
    """
    Tables in a PostgreSQL database, at *url* (``postgresql://user@host:port/database``), each
    owned by one worker at a time through a lease.

    *owner* names this worker in the leases (a new random name unless given: a worker started again
    is another owner).  `load` takes the lease of every table in play that no running lease holds,
    and returns those tables; `take` takes one table, `renew` keeps this worker's leases running.
    At most *pool_size* connections are open at once.  The connections are opened at the first call.
    """

    def __init__(self, url: str, *, owner: str | None = None, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.owner = owner or secrets.token_hex(8)
        self.lease_seconds = LEASE_SECONDS
        self._pool_size = pool_size
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[tuple[object, ...]]] | None = None
        self._opening = asyncio.Lock()

    async def _ready(self) -> AsyncConnectionPool[psycopg.AsyncConnection[tuple[object, ...]]]:
        async with self._opening:
            if self._pool is None:
                pool: AsyncConnectionPool[psycopg.AsyncConnection[tuple[object, ...]]] = AsyncConnectionPool(
                    self.url, min_size=1, max_size=self._pool_size, open=False
                )
                await pool.open(wait=True, timeout=30)
                async with pool.connection() as db, db.transaction():
                    await db.execute("select pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    await db.execute(_SCHEMA)
                self._pool = pool
            return self._pool

    async def _fence(self, db: psycopg.AsyncConnection[tuple[object, ...]], table_id: str) -> None:
        """
        Lock the table's lease until the transaction ends, and check that this worker owns it.
        """
        found = await db.execute(
            "select 1 from leases where table_id = %s and owner = %s for share", (table_id, self.owner)
        )
        if await found.fetchone() is None:
            raise LeaseLostError(f"table {table_id} is owned by another worker")

    # Leases

    async def take(
        self, table_id: str | None = None, *, dead: str | None = None, most: int = 1_000
    ) -> list[StoredTable]:
        """
        Take the leases of the tables in play that no running lease holds (or of *table_id* alone),
        also those of the worker *dead*, known to be gone: the tables taken, read back whole.
        """
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            parameters = {
                "owner": self.owner,
                "seconds": self.lease_seconds,
                "id": table_id,
                "dead": dead,
                "most": most,
            }
            taken = [str(row[0]) for row in await (await db.execute(_TAKE, parameters)).fetchall()]
            return await self._read(db, taken)

    async def renew(self, table_ids: Collection[str]) -> set[str]:
        """
        Renew this worker's leases of *table_ids* (those of the other tables run out): the ids of
        the tables it still owns.
        """
        pool = await self._ready()
        async with pool.connection() as db:
            rows = await db.execute(
                "update leases set expires = now() + make_interval(secs => %s)"
                " where owner = %s and table_id = any(%s) returning table_id",
                (self.lease_seconds, self.owner, list(table_ids)),
            )
            return {str(row[0]) for row in await rows.fetchall()}

    async def holder(self, table_id: str) -> tuple[str, bool] | None:
        """
        Who holds the lease of *table_id*, and whether it still runs; `None` for no lease.
        """
        pool = await self._ready()
        async with pool.connection() as db:
            rows = await db.execute("select owner, expires > now() from leases where table_id = %s", (table_id,))
            row = await rows.fetchone()
        return None if row is None else (str(row[0]), bool(row[1]))

    async def release(self, table_ids: Collection[str] | None = None) -> None:
        """
        End this worker's leases (of *table_ids*, or all), so that another worker takes the tables at once.
        """
        pool = await self._ready()
        async with pool.connection() as db:
            if table_ids is None:
                await db.execute(
                    "update leases set expires = now() - interval '1 second' where owner = %s", (self.owner,)
                )
            else:
                await db.execute(
                    "update leases set expires = now() - interval '1 second' where owner = %s and table_id = any(%s)",
                    (self.owner, list(table_ids)),
                )

    # The Storage protocol

    async def _read(self, db: psycopg.AsyncConnection[tuple[object, ...]], ids: list[str]) -> list[StoredTable]:
        if not ids:
            return []
        rows = await (
            await db.execute(
                "select id, spec, created, secret, admin_hash from tables where id = any(%s) order by created, id",
                (ids,),
            )
        ).fetchall()
        seats = await (
            await db.execute(
                "select table_id, seat, invite_hash, token_hash, name from seats where table_id = any(%s)"
                " order by table_id, seat",
                (ids,),
            )
        ).fetchall()
        actions = await (
            await db.execute(
                "select table_id, seq, action, chosen_by from actions where table_id = any(%s) order by table_id, seq",
                (ids,),
            )
        ).fetchall()
        by_table: dict[str, tuple[list[StoredSeat], list[StoredAction]]] = {str(row[0]): ([], []) for row in rows}
        for table_id, seat, invite, token, name in seats:
            by_table[str(table_id)][0].append(StoredSeat(int(seat), invite, token, name))  # type: ignore[call-overload, arg-type]
        for table_id, seq, action, chosen_by in actions:
            by_table[str(table_id)][1].append(StoredAction(int(seq), str(action), str(chosen_by)))  # type: ignore[call-overload]
        return [
            StoredTable(str(table_id), str(spec), str(created), tuple(seats), tuple(actions), str(secret), admin)  # type: ignore[arg-type]
            for (table_id, spec, created, secret, admin), (seats, actions) in zip(rows, by_table.values(), strict=True)
        ]

    async def load(self) -> list[StoredTable]:
        """
        Every table in play that no other worker's running lease holds, its lease taken by this worker.
        """
        return await self.take()

    async def create(self, table: StoredTable) -> None:
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            await db.execute(
                "insert into tables (id, spec, created, secret, admin_hash) values (%s, %s, %s, %s, %s)",
                (table.id, table.spec, table.created, table.secret, table.admin_hash),
            )
            async with db.cursor() as cursor:
                await cursor.executemany(
                    "insert into seats (table_id, seat, invite_hash, token_hash, name) values (%s, %s, %s, %s, %s)",
                    [(table.id, seat.seat, seat.invite_hash, seat.token_hash, seat.name) for seat in table.seats],
                )
                await cursor.executemany(
                    "insert into actions (table_id, seq, action, chosen_by) values (%s, %s, %s, %s)",
                    [(table.id, action.seq, action.action, action.chosen_by) for action in table.actions],
                )
            await db.execute(
                "insert into leases (table_id, owner, expires) values (%s, %s, now() + make_interval(secs => %s))",
                (table.id, self.owner, self.lease_seconds),
            )

    async def claim(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            await self._fence(db, table_id)
            await db.execute(
                "update seats set token_hash = %s, name = %s, invite_hash = null where table_id = %s and seat = %s",
                (token_hash, name, table_id, seat),
            )

    async def append(self, table_id: str, action: StoredAction, record: str | None = None) -> None:
        """
        Store the table's next action (see `Storage.append`).

        Raises:
            psycopg.errors.UniqueViolation: an action with this number is stored.
            LeaseLostError: another worker owns the table now.
        """
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            await self._fence(db, table_id)
            await db.execute(
                "insert into actions (table_id, seq, action, chosen_by) values (%s, %s, %s, %s)",
                (table_id, action.seq, action.action, action.chosen_by),
            )
            if record is not None:
                await db.execute("update tables set record = %s, status = 'over' where id = %s", (record, table_id))

    async def end(self, table_id: str, ending: Ending, record: str) -> None:
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            await self._fence(db, table_id)
            await db.execute("update tables set record = %s, status = %s where id = %s", (record, ending, table_id))

    async def delete(self, table_id: str) -> None:
        pool = await self._ready()
        async with pool.connection() as db, db.transaction():
            await self._fence(db, table_id)
            await db.execute("delete from tables where id = %s", (table_id,))

    async def record(self, table_id: str) -> str | None:
        pool = await self._ready()
        async with pool.connection() as db:
            row = await (await db.execute("select record from tables where id = %s", (table_id,))).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    async def close(self) -> None:
        """
        End this worker's leases, so that other workers take its tables at once, and close the connections.
        """
        if self._pool is None:
            return
        try:
            await self.release()
        finally:
            await self._pool.close()
            self._pool = None
