"""
`PostgresStorage` keeps the guarantees of `SqliteStorage`: the same tests, run on both.

An action is durable once `append` returns (a new storage on the same database reads it back), the
key (table, number) is stored once (a second append of it fails with the database's own error, and
the first stays), the action that ends a game is stored with its record, an ended table is not read
back, a deleted one is forgotten, and writes made at once fail alone.  PostgreSQL adds the leases: a
worker that lost a table's lease stores nothing for it.

Each test of PostgreSQL has a database of its own on the session's server (``postgres_url``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from persian_rummy.server import SqliteStorage, StoredAction, StoredSeat, StoredTable
from persian_rummy.server._storage import Storage

psycopg = pytest.importorskip("psycopg")

from persian_rummy.server._lease import LeaseKeeper  # noqa: E402 (after the skip)
from persian_rummy.server._postgres import LeaseLostError, PostgresStorage  # noqa: E402

#: Opens a storage on the test's database (a new one each call, as a server started again would).
Opener = Callable[..., Storage]
CREATED = "2026-12-05T00:00:00+00:00"


def _table(table_id: str, *, seats: int = 1) -> StoredTable:
    people = tuple(StoredSeat(seat, f"invite-{seat}", None, None) for seat in range(seats))
    return StoredTable(table_id, '{"seats": []}', CREATED, people, (StoredAction(1, '{"deal": 1}', "dealer"),))


def _duplicate_error(storage: Storage) -> type[Exception]:
    return sqlite3.IntegrityError if isinstance(storage, SqliteStorage) else psycopg.errors.UniqueViolation


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """
    Opens a storage on the test's database: an SQLite file, or a PostgreSQL database.
    """
    if request.param == "sqlite":
        path = str(tmp_path / "tables.sqlite3")
        return lambda **_: SqliteStorage(path)
    url = request.getfixturevalue("postgres_url")
    return lambda **options: PostgresStorage(url, **options)


def _run(test: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run(test())


class TestTheGuaranteesOfBothStorages:
    """What the server relies on, on SQLite and on PostgreSQL alike."""

    def test_what_is_stored_is_read_back_after_a_restart(self, opener: Opener) -> None:
        async def test() -> list[StoredTable]:
            first = opener()
            await first.create(_table("t1", seats=2))
            await first.claim("t1", 1, "token-hash", "Bo")
            await first.append("t1", StoredAction(2, '{"draw": 1}', "person"))
            await first.close()
            second = opener()
            try:
                return await second.load()
            finally:
                await second.close()

        (table,) = _run(test)
        assert (table.id, table.spec, table.created) == ("t1", '{"seats": []}', CREATED)
        assert table.seats == (StoredSeat(0, "invite-0", None, None), StoredSeat(1, None, "token-hash", "Bo"))
        assert table.actions == (
            StoredAction(1, '{"deal": 1}', "dealer"),
            StoredAction(2, '{"draw": 1}', "person"),
        )

    def test_an_append_is_durable_when_it_returns(self, opener: Opener) -> None:
        """A second storage on the database, opened while the first is still open, reads the action."""

        async def test() -> tuple[list[int], list[int]]:
            writer = opener()
            await writer.create(_table("t1"))
            await writer.append("t1", StoredAction(2, "{}", "bot"))
            reader = opener()
            if isinstance(writer, PostgresStorage):
                assert isinstance(reader, PostgresStorage)
                read = await reader.take("t1", dead=writer.owner)  # the writer's worker is gone
            else:
                read = await reader.load()
            await reader.close()
            await writer.close()
            return [action.seq for table in read for action in table.actions], [len(read)]

        assert _run(test) == ([1, 2], [1])

    def test_a_key_is_stored_once(self, opener: Opener) -> None:
        async def test() -> tuple[object, list[StoredAction], type[Exception]]:
            storage = opener()
            await storage.create(_table("t1"))
            await storage.append("t1", StoredAction(2, '{"first": true}', "person"))
            try:
                await storage.append("t1", StoredAction(2, '{"second": true}', "bot"))
            except Exception as error:  # noqa: BLE001 (the database's own error, checked below)
                refused: object = error
            else:
                refused = None
            await storage.close()
            again = opener()
            (table,) = await again.load()
            await again.close()
            return refused, list(table.actions), _duplicate_error(storage)

        refused, actions, duplicate = _run(test)
        assert type(refused) is duplicate
        assert [(2, '{"first": true}', "person")] == [(a.seq, a.action, a.chosen_by) for a in actions[1:]]

    def test_writes_made_at_once_fail_alone(self, opener: Opener) -> None:
        async def test() -> tuple[list[BaseException | None], int, type[Exception]]:
            storage = opener()
            tables = [_table(f"t{number}") for number in range(12)]
            await asyncio.gather(*(storage.create(table) for table in tables))
            appends = [storage.append(table.id, StoredAction(2, "{}", "bot")) for table in tables]
            appends.insert(5, storage.append("t3", StoredAction(1, "{}", "dealer")))  # stored when made
            answers = await asyncio.gather(*appends, return_exceptions=True)
            await storage.close()
            again = opener()
            stored = await again.load()
            await again.close()
            return answers, sum(len(table.actions) for table in stored), _duplicate_error(storage)

        answers, stored, duplicate = _run(test)
        assert [index for index, answer in enumerate(answers) if answer is not None] == [5]
        assert isinstance(answers[5], duplicate)
        assert stored == 24

    def test_the_last_action_is_stored_with_the_record(self, opener: Opener) -> None:
        async def test() -> tuple[str | None, str | None, list[str]]:
            storage = opener()
            await storage.create(_table("t1"))
            await storage.create(_table("t2"))
            before = await storage.record("t1")
            await storage.append("t1", StoredAction(2, "{}", "person"), record='{"record": 1}')
            after = await storage.record("t1")
            await storage.close()
            again = opener()
            left = [table.id for table in await again.load()]
            await again.close()
            return before, after, left

        assert _run(test) == (None, '{"record": 1}', ["t2"])

    @pytest.mark.parametrize("ending", ["over", "aborted", "expired"])
    def test_an_ended_table_keeps_its_record_and_is_not_read_back(self, opener: Opener, ending: Any) -> None:
        async def test() -> tuple[str | None, list[str]]:
            storage = opener()
            await storage.create(_table("t1"))
            await storage.create(_table("t2"))
            await storage.end("t1", ending, '{"ended": 1}')
            await storage.close()
            again = opener()
            left = [table.id for table in await again.load()]
            record = await again.record("t1")
            await again.close()
            return record, left

        assert _run(test) == ('{"ended": 1}', ["t2"])

    def test_a_deleted_table_is_forgotten(self, opener: Opener) -> None:
        async def test() -> tuple[str | None, list[str], str | None]:
            storage = opener()
            await storage.create(_table("t1", seats=2))
            await storage.create(_table("t2"))
            await storage.end("t1", "aborted", '{"ended": 1}')
            await storage.delete("t1")
            await storage.close()
            again = opener()
            left = [table.id for table in await again.load()]
            record = await again.record("t1")
            await again.close()
            return record, left, await _no_record(opener, "never")

        assert _run(test) == (None, ["t2"], None)


async def _no_record(opener: Opener, table_id: str) -> str | None:
    storage = opener()
    try:
        return await storage.record(table_id)
    finally:
        await storage.close()


class TestTheLeases:
    """A table is owned by one worker at a time, and a worker that lost it stores nothing for it."""

    def test_a_worker_that_lost_the_lease_stores_nothing(self, postgres_url: str) -> None:
        async def test() -> tuple[list[str], list[type[Exception]], set[str], list[int], str | None]:
            old = PostgresStorage(postgres_url, owner="old")
            new = PostgresStorage(postgres_url, owner="new")
            await old.create(_table("t1", seats=1))
            await old.append("t1", StoredAction(2, "{}", "person"))
            taken = [table.id for table in await new.take("t1", dead="old")]
            refused: list[type[Exception]] = []
            for write in (
                old.append("t1", StoredAction(3, '{"old": 1}', "person")),
                old.claim("t1", 0, "hash", "Mallory"),
                old.end("t1", "aborted", "{}"),
                old.delete("t1"),
            ):
                try:
                    await write
                except LeaseLostError as error:
                    refused.append(type(error))
            renewed = await old.renew(["t1"])
            await new.append("t1", StoredAction(3, '{"new": 1}', "bot"))
            await old.close()  # ends the old worker's leases: none of them is this table's
            holder = await new.holder("t1")
            reader = PostgresStorage(postgres_url, owner="reader")
            (read,) = await reader.take("t1", dead="new")
            record = await new.record("t1")
            await reader.close()
            await new.close()
            assert holder == ("new", True)
            assert read.seats == (StoredSeat(0, "invite-0", None, None),)
            return taken, refused, renewed, [action.seq for action in read.actions], record

        taken, refused, renewed, seqs, record = _run(test)
        assert taken == ["t1"]
        assert refused == [LeaseLostError] * 4
        assert renewed == set()
        assert seqs == [1, 2, 3]
        assert record is None

    def test_a_running_lease_is_not_taken(self, postgres_url: str) -> None:
        async def test() -> tuple[list[str], list[str], list[str], tuple[str, bool] | None]:
            owner = PostgresStorage(postgres_url, owner="owner")
            other = PostgresStorage(postgres_url, owner="other")
            await owner.create(_table("t1"))
            while_running = [table.id for table in await other.load()]
            one = [table.id for table in await other.take("t1")]
            await owner.release(["t1"])  # as a worker does when it stops
            after_release = [table.id for table in await other.load()]
            holder = await other.holder("t1")
            await owner.close()
            await other.close()
            return while_running, one, after_release, holder

        assert _run(test) == ([], [], ["t1"], ("other", True))

    def test_a_lease_not_renewed_runs_out(self, postgres_url: str) -> None:
        async def test() -> tuple[set[str], tuple[str, bool] | None, list[str], set[str]]:
            owner = PostgresStorage(postgres_url, owner="owner")
            owner.lease_seconds = 0.2
            await owner.create(_table("t1"))
            renewed = await owner.renew(["t1", "not-a-table"])
            await asyncio.sleep(1.0)  # no renewal: as a worker killed with kill -9
            holder = await owner.holder("t1")
            other = PostgresStorage(postgres_url, owner="other")
            taken = [table.id for table in await other.load()]
            after = await owner.renew(["t1"])
            await other.close()
            await owner.close()
            return renewed, holder, taken, after

        assert _run(test) == ({"t1"}, ("owner", False), ["t1"], set())

    def test_an_ended_table_is_taken_by_nobody(self, postgres_url: str) -> None:
        async def test() -> tuple[list[str], tuple[str, bool] | None]:
            owner = PostgresStorage(postgres_url, owner="owner")
            await owner.create(_table("t1"))
            await owner.append("t1", StoredAction(2, "{}", "person"), record="{}")
            await owner.close()
            other = PostgresStorage(postgres_url, owner="other")
            taken = [table.id for table in await other.take("t1", dead="owner")]
            holder = await other.holder("t1")
            await other.close()
            return taken, holder

        assert _run(test) == ([], ("owner", False))

    def test_many_workers_share_the_tables_of_a_dead_one(self, postgres_url: str) -> None:
        async def test() -> list[list[str]]:
            dead = PostgresStorage(postgres_url, owner="dead")
            for number in range(6):
                await dead.create(_table(f"t{number}"))
            others = [PostgresStorage(postgres_url, owner=f"w{index}") for index in range(2)]
            first = await others[0].take(dead="dead", most=4)
            second = await others[1].take(dead="dead", most=4)
            third = await others[0].take(dead="dead", most=4)
            for storage in [dead, *others]:
                await storage.close()
            return [[table.id for table in taken] for taken in (first, second, third)]

        assert _run(test) == [["t0", "t1", "t2", "t3"], ["t4", "t5"], []]


class _Hub:
    """The tables a worker serves, as `LeaseKeeper` sees them."""

    def __init__(self, table_ids: list[str]) -> None:
        self.tables = dict.fromkeys(table_ids)
        self.lost: list[str] = []
        self.adopted: list[str] = []

    def lose(self, table_id: str) -> None:
        del self.tables[table_id]
        self.lost.append(table_id)

    async def adopt(self, tables: list[StoredTable]) -> None:
        self.adopted += [table.id for table in tables]


def test_a_round_of_the_lease_keeper(postgres_url: str) -> None:
    """A worker lets go of the tables another took, keeps its own, and takes over those left."""

    async def test() -> tuple[list[str], list[str], set[str]]:
        worker, other = PostgresStorage(postgres_url, owner="worker"), PostgresStorage(postgres_url, owner="other")
        gone = PostgresStorage(postgres_url, owner="gone")
        gone.lease_seconds = 0.0
        await worker.create(_table("kept"))
        await worker.create(_table("taken"))
        await gone.create(_table("left"))  # its lease has run out already
        await other.take("taken", dead="worker")
        hub = _Hub(["kept", "taken"])
        await LeaseKeeper(hub, worker).round()  # type: ignore[arg-type]
        held = await worker.renew(["kept", "taken", "left"])
        for storage in (worker, other, gone):
            await storage.close()
        return hub.lost, hub.adopted, held

    assert _run(test) == (["taken"], ["left"], {"kept", "left"})
