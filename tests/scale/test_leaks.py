"""
The leak property across workers: every message each seat and spectator receives is made from its
own view, wherever it is connected and whoever owns the table.

Each seeded example draws a table (which seats are people, which bots), spreads the people and two
spectators over three workers (the owner among them), kills the owner at a drawn event with
``kill -9``, moves the readers that were connected to it to the workers left, and lets a third
spectator join after the takeover.  Every message each reader received over the game is then
checked against what is made from that reader's view of the record (`tests.scale._streams`).
The seeds are chosen to vary the examples: people and spectators on the owner (1, 2), four people
(2), two bots (7).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.e2e._server import Message, ScriptedSeat, ServerProcess
from tests.scale._streams import check_streams

NAMES = ("Ann", "Bo", "Cy", "Di")
#: The options of every worker: the end of a deal waits for the people's Next deal.
OPTIONS = ("--allow-seed", "--tables-per-minute", "0", "--deal-pause", "60")


def _draw(rng: random.Random) -> tuple[list[str], int, dict[int, int], list[int], int]:
    """
    An example: the seats, the owner, the worker of each person and of each first spectator, and
    the event from which the owner is killed.
    """
    seats = ["person"] + [rng.choice(["person", "bot:greedy"]) for _ in range(3)]
    people = [seat for seat, kind in enumerate(seats) if kind == "person"]
    on = {seat: rng.randrange(3) for seat in people}
    return seats, rng.randrange(3), on, [rng.randrange(3) for _ in range(2)], rng.randrange(2, 60)


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_every_message_is_made_from_its_readers_view(services: tuple[str, str], tmp_path: Path, seed: int) -> None:
    seats, owner_index, people, watchers, kill_from = _draw(random.Random(seed))  # noqa: S311 (a seeded example)
    database, bus = services
    workers = [
        ServerProcess(database, log=tmp_path / f"worker{index}.log", args=[*OPTIONS, "--bus", bus])
        for index in range(3)
    ]
    try:
        for worker in workers:
            worker.start()
        _play(workers, seats, owner_index, people, watchers, kill_from, seed)
    finally:
        for worker in workers:
            worker.stop()


def _play(
    workers: list[ServerProcess],
    seats: list[str],
    owner_index: int,
    people: dict[int, int],
    watchers: list[int],
    kill_from: int,
    seed: int,
) -> None:
    owner = workers[owner_index]
    left = [worker for worker in workers if worker is not owner]
    spec = {"name": "Leaks", "seats": seats, "seed": seed, "bot_delay": 0}
    table_id, invites = owner.create(spec)
    tokens = {seat: workers[people[seat]].claim(table_id, invites[seat], NAMES[seat]) for seat in sorted(invites)}
    readers: dict[int | None, list[ScriptedSeat]] = {}
    killed = asyncio.Event()

    async def on_message(_: ScriptedSeat, message: Message) -> None:
        if not killed.is_set() and message["type"] == "event" and message["seq"] >= kill_from:
            owner.kill()
            killed.set()
            for index, reader in enumerate(reader for group in readers.values() for reader in group):
                if reader.server is owner:  # its connection drops: it connects to a worker left
                    reader.server = left[index % 2]

    for seat in sorted(tokens):
        readers[seat] = [ScriptedSeat(workers[people[seat]], table_id, tokens[seat], on_message=on_message)]
    readers[None] = [ScriptedSeat(workers[index], table_id, None, on_message=on_message) for index in watchers]

    async def play() -> None:
        async with asyncio.timeout(150):
            playing = [asyncio.create_task(reader.play()) for group in readers.values() for reader in group]
            await killed.wait()
            late = ScriptedSeat(left[1], table_id, None)  # a spectator who comes after the takeover
            readers[None].append(late)
            await asyncio.gather(*playing, late.play())

    asyncio.run(play())
    record = left[0].record(table_id)
    assert record == left[1].record(table_id)
    checked = check_streams(record, seats, readers)
    assert checked > 3 * len(record["actions"])
    assert all(reader.points == readers[None][0].points for group in readers.values() for reader in group)
