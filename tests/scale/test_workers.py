"""
Several workers on PostgreSQL and Redis: a table played from every worker, and a table whose worker
is killed with ``kill -9``.

Each worker is a ``persian-rummy serve`` process of its own on the same database and bus, with a port
of its own (as behind a proxy that is not sticky).  Four scripted people, the greedy player's
choices seeded by each event's number, play a seeded table, each connected to a worker, and the
record must equal, key for key, that of the same table played on SQLite by one worker; every event
each seat received is the library's account of the record's action for that seat, with its view
after it (nothing else is sent to it), once and in order.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from persian_rummy import observe
from persian_rummy.events import events_of
from persian_rummy.records import GameRecord, replay
from persian_rummy.serialize import from_data, to_data
from tests.e2e._server import ScriptedSeat, ServerProcess, gather_all

PEOPLE_SPEC: dict[str, object] = {"name": "Workers", "seats": ["person"] * 4, "seed": 2027}
NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di"}
KILL_SPEC: dict[str, object] = {
    "name": "Takeover",
    "seats": ["person", "bot:greedy", "person", "bot:greedy"],
    "seed": 2026,
}
KILL_NAMES = {0: "Ann", 2: "Cy"}
#: The kill comes at the first chance from this event on, in the first deal.
KILL_FROM = 12
TAKEN = re.compile(r"table (\w+) taken over from worker (\w+)")
OPTIONS = ("--allow-seed", "--tables-per-minute", "0", "--deal-pause", "0")


def _workers(services: tuple[str, str], folder: Path, count: int) -> list[ServerProcess]:
    database, bus = services
    return [
        ServerProcess(database, log=folder / f"worker{index}.log", args=[*OPTIONS, "--bus", bus])
        for index in range(count)
    ]


@pytest.fixture
def workers(services: tuple[str, str], tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """
    Three workers on the session's database and bus.
    """
    started = _workers(services, tmp_path, 3)
    try:
        for worker in started:
            worker.start()
        yield started
    finally:
        for worker in started:
            worker.stop()


def _alone(spec: dict[str, object], names: dict[int, str], folder: Path) -> Any:
    """
    The record of the table played on SQLite by one worker, every person connected to it.
    """
    with ServerProcess(folder / "alone.sqlite3", log=folder / "alone.log", args=OPTIONS) as server:
        table_id, tokens = server.seat_table(spec, names)
        seats = [ScriptedSeat(server, table_id, tokens[seat]) for seat in sorted(tokens)]
        asyncio.run(gather_all(*seats, seconds=120))
        return server.record(table_id)


def _check_streams(record: Any, seats: dict[int, ScriptedSeat], spectator: ScriptedSeat | None = None) -> None:
    """
    Every seat saw every action once, in order, each event the library's account of the record's
    action for that seat and its view after it.
    """
    read = from_data(record)
    assert isinstance(read, GameRecord)
    states, played = list(replay(read)), read.actions
    readers: list[tuple[int | None, ScriptedSeat]] = list(seats.items())
    if spectator is not None:
        readers.append((None, spectator))
    for seat, scripted in readers:
        assert list(range(1, len(played) + 1)) == scripted.seen
        assert [] == scripted.errors
        for message in (message for message in scripted.messages if message["type"] == "event"):
            seq = message["seq"]
            told = events_of(states[seq - 1], played[seq - 1], states[seq])[
                4 if seat is None else seat
            ]  # 4: the public
            assert to_data(told) == message["event"]
            assert to_data(observe(states[seq], seat)) == message["view"]
        assert {"welcome", "event", "presence", "pause", "game-over"} >= {
            message["type"] for message in scripted.messages
        }
        for seq, action in scripted.chosen.items():
            assert action == played[seq]


class TestFourPeopleOnThreeWorkers:
    """
    "A client connected to any worker can play at any table": its messages reach the table's owner,
    and the owner's messages reach it.
    """

    def test_the_record_equals_one_workers_on_sqlite(self, workers: list[ServerProcess], tmp_path: Path) -> None:
        alone = _alone(PEOPLE_SPEC, NAMES, tmp_path)
        owner = workers[0]
        table_id, invites = owner.create(PEOPLE_SPEC)
        # Each person claims their seat through the worker they play on; the owner has one of them.
        on = {0: workers[1], 1: workers[2], 2: workers[0], 3: workers[1]}
        tokens = {seat: on[seat].claim(table_id, invites[seat], NAMES[seat]) for seat in sorted(invites)}
        seats = {seat: ScriptedSeat(on[seat], table_id, tokens[seat]) for seat in sorted(tokens)}
        spectator = ScriptedSeat(workers[2], table_id, None)

        async def play() -> None:
            watching = asyncio.create_task(spectator.play())
            await gather_all(*seats.values(), seconds=120)
            async with asyncio.timeout(60):
                await watching

        asyncio.run(play())
        records = [worker.record(table_id) for worker in workers]
        assert [alone] * 3 == records
        assert len(alone["actions"]) > 100
        _check_streams(alone, seats, spectator)
        assert [1, 1, 1, 1] == [seat.connections for seat in seats.values()]
        summaries = [worker.get(f"api/tables/{table_id}") for worker in workers]
        assert [summaries[0]] * 3 == summaries
        assert "over" == summaries[0]["status"]


class TestTheOwnerKilled:
    """
    "A worker dies, its tables live": another worker takes the table over, the game finishes,
    nothing accepted is lost and no event is told twice.
    """

    def test_another_worker_finishes_the_game(self, workers: list[ServerProcess], tmp_path: Path) -> None:
        alone = _alone(KILL_SPEC, KILL_NAMES, tmp_path)
        owner = workers[0]
        table_id, invites = owner.create(KILL_SPEC)
        on = {0: workers[1], 2: workers[2]}
        tokens = {seat: on[seat].claim(table_id, invites[seat], KILL_NAMES[seat]) for seat in sorted(invites)}
        killed_at: list[int] = []

        async def on_sent(seat: ScriptedSeat) -> None:
            if not killed_at and seat.seq >= KILL_FROM:
                owner.kill()
                killed_at.append(seat.seq)

        seats = {seat: ScriptedSeat(on[seat], table_id, tokens[seat], on_sent=on_sent) for seat in sorted(tokens)}
        asyncio.run(gather_all(*seats.values(), seconds=120))
        assert len(killed_at) == 1
        record = workers[1].record(table_id)
        assert alone == record
        assert 165 == len(record["actions"])
        _check_streams(record, seats)
        assert [2, 2] == [seat.connections for seat in seats.values()]
        takers = [TAKEN.findall(worker.log_text()) for worker in workers[1:]]
        assert [table_id] == [found for taken in takers for found, _ in taken]
        assert record == workers[2].record(table_id)
