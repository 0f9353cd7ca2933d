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

from tests.e2e._server import Message, ScriptedSeat, ServerProcess, gather_all
from tests.scale._streams import check_streams

PEOPLE_SPEC: dict[str, object] = {"name": "Workers", "seats": ["person"] * 4, "seed": 2027}
NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di"}
KILL_SEATS = ["person", "bot:greedy", "person", "bot:greedy"]
#: The bots wait a little before they play, so that the owner may die while one is about to.
KILL_SPEC: dict[str, object] = {"name": "Takeover", "seats": KILL_SEATS, "seed": 2026, "bot_delay": 0.05}
KILL_NAMES = {0: "Ann", 2: "Cy"}
#: The kill comes at the first chance from this event on, in the first deal.
KILL_FROM = 12
TAKEN = re.compile(r"table (\w+) taken over from worker (\w+)")
OPTIONS = ("--allow-seed", "--tables-per-minute", "0", "--deal-pause", "0")


def _workers(
    services: tuple[str, str], folder: Path, count: int, options: tuple[str, ...] = OPTIONS
) -> list[ServerProcess]:
    database, bus = services
    return [
        ServerProcess(database, log=folder / f"worker{index}.log", args=[*options, "--bus", bus])
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


def _alone(spec: dict[str, object], names: dict[int, str], folder: Path, options: tuple[str, ...] = OPTIONS) -> Any:
    """
    The record of the table played on SQLite by one worker, every person connected to it.
    """
    with ServerProcess(folder / "alone.sqlite3", log=folder / "alone.log", args=options) as server:
        table_id, tokens = server.seat_table(spec, names)
        seats = [ScriptedSeat(server, table_id, tokens[seat]) for seat in sorted(tokens)]
        asyncio.run(gather_all(*seats, seconds=120))
        return server.record(table_id)


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
        assert check_streams(alone, ["person"] * 4, {**{seat: [seats[seat]] for seat in seats}, None: [spectator]})
        assert [1, 1, 1, 1] == [seat.connections for seat in seats.values()]
        summaries = [worker.get(f"api/tables/{table_id}") for worker in workers]
        assert [summaries[0]] * 3 == summaries
        assert "over" == summaries[0]["status"]


#: When the owner is killed, from event `KILL_FROM` on: right after a person sent a move, while a
#: bot is about to play, or while the end of the first deal waits for the people's Next deal.
MOMENTS = ("after-a-persons-act", "in-a-bots-turn", "at-a-deals-pause")


class TestTheOwnerKilled:
    """
    "A worker dies, its tables live": another worker takes the table over, the game finishes,
    nothing accepted is lost and no event is told twice, whenever the owner dies.
    """

    @pytest.mark.parametrize("moment", MOMENTS)
    def test_another_worker_finishes_the_game(self, services: tuple[str, str], tmp_path: Path, moment: str) -> None:
        options = OPTIONS if moment != "at-a-deals-pause" else (*OPTIONS[:-1], "60")
        alone = _alone(KILL_SPEC, KILL_NAMES, tmp_path, options)
        workers = _workers(services, tmp_path, 3, options)
        try:
            for worker in workers:
                worker.start()
            self._play(workers, alone, moment)
        finally:
            for worker in workers:
                worker.stop()

    @staticmethod
    def _play(workers: list[ServerProcess], alone: Any, moment: str) -> None:
        owner = workers[0]
        table_id, invites = owner.create(KILL_SPEC)
        on = {0: workers[1], 2: workers[2]}
        tokens = {seat: on[seat].claim(table_id, invites[seat], KILL_NAMES[seat]) for seat in sorted(invites)}
        killed_at: list[int] = []

        def kill(seat: ScriptedSeat) -> None:
            if not killed_at and seat.seq >= KILL_FROM:
                owner.kill()
                killed_at.append(seat.seq)

        async def on_sent(seat: ScriptedSeat) -> None:
            if moment == "after-a-persons-act":
                kill(seat)

        async def on_message(seat: ScriptedSeat, message: Message) -> None:
            bots_turn = message["type"] == "event" and message["view"]["to_act"] in {1, 3}
            if (moment == "in-a-bots-turn" and bots_turn) or (
                moment == "at-a-deals-pause" and message["type"] == "pause"
            ):
                kill(seat)

        seats = {
            seat: ScriptedSeat(on[seat], table_id, tokens[seat], on_sent=on_sent, on_message=on_message)
            for seat in sorted(tokens)
        }
        asyncio.run(gather_all(*seats.values(), seconds=120))
        assert len(killed_at) == 1
        record = workers[1].record(table_id)
        assert alone == record
        assert 165 == len(record["actions"])
        assert check_streams(record, KILL_SEATS, {seat: [seats[seat]] for seat in seats})
        assert [2, 2] == [seat.connections for seat in seats.values()]
        takers = [TAKEN.findall(worker.log_text()) for worker in workers[1:]]
        assert [table_id] == [found for taken in takers for found, _ in taken]
        assert record == workers[2].record(table_id)
