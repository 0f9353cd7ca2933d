"""
Durable tables: a whole game across a ``kill -9`` of the server, against the same game uninterrupted.

Two scripted people (seats N and S, the greedy player's choices seeded by each event's number) and
two greedy bots play a table with a fixed seed.  The server is killed with SIGKILL in the middle of
the first deal (just after a person sent an action, when a person is to act, or during a bot's
delay) and started again on the same database file and port; each person connects again with its
token and the number of the last event it saw.  The game is played to its end and its
record must equal, key for key, the record of the same table played without interruption on
another server.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from persian_rummy import GameState, observe
from persian_rummy.events import events_of
from persian_rummy.records import GameRecord, replay
from persian_rummy.serialize import from_data, to_data
from tests.e2e._server import Message, ScriptedSeat, ServerProcess, gather_all

SPEC: dict[str, object] = {"name": "Restart", "seats": ["person", "bot:greedy", "person", "bot:greedy"], "seed": 2026}
NAMES = {0: "Ann", 2: "Cy"}
PEOPLE = (0, 2)
BOTS = (1, 3)
#: The kill comes at the first chance from this event on.
KILL_FROM = 12
RESUMED = re.compile(r"table (\w+) resumed at action (\d+)")


def _states(record: Any) -> list[GameState]:
    read = from_data(record)
    assert isinstance(read, GameRecord)
    return list(replay(read))


def _play(server: ServerProcess, seconds: float, **hooks: Any) -> tuple[str, list[ScriptedSeat]]:
    table_id, tokens = server.seat_table(SPEC, NAMES)
    seats = [ScriptedSeat(server, table_id, tokens[seat], **hooks) for seat in PEOPLE]
    asyncio.run(gather_all(*seats, seconds=seconds))
    return table_id, seats


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """
    The record of the table played on a server that nobody kills.
    """
    folder = tmp_path_factory.mktemp("uninterrupted")
    with ServerProcess(":memory:", log=folder / "server.log", args=["--allow-seed"]) as server:
        table_id, seats = _play(server, 60)
        assert [0, 0] == [seat.connections - 1 for seat in seats]
        return server.record(table_id)


class Killer:
    """
    Kills the server with SIGKILL once *when* says so, then starts it again in a thread.
    """

    def __init__(self, server: ServerProcess, when: Callable[[ScriptedSeat, Message | None], bool]) -> None:
        self.server = server
        self.when = when
        self.killed_at: int | None = None
        self.restarted: asyncio.Task[ServerProcess] | None = None

    async def on_event(self, seat: ScriptedSeat, message: Message) -> None:
        self._maybe(seat, message)

    async def on_sent(self, seat: ScriptedSeat) -> None:
        self._maybe(seat, None)

    def _maybe(self, seat: ScriptedSeat, message: Message | None) -> None:
        if self.killed_at is None and self.when(seat, message):
            self.server.kill()
            self.killed_at = seat.seq
            self.restarted = asyncio.get_running_loop().create_task(asyncio.to_thread(self.server.restart))


def _after_a_person_acts(seat: ScriptedSeat, message: Message | None) -> bool:
    return message is None and seat.seq >= KILL_FROM


def _before_a_person_acts(seat: ScriptedSeat, message: Message | None) -> bool:
    return message is not None and seat.seq >= KILL_FROM and bool(message["legal"])


def _while_a_bot_waits(seat: ScriptedSeat, message: Message | None) -> bool:
    if message is None or seat.seq < KILL_FROM:
        return False
    view = message["view"]
    return view["phase"] in {"draw", "play"} and view["to_act"] in BOTS


def _killed_game(tmp_path: Path, bot_delay: float, when: Callable[[ScriptedSeat, Message | None], bool]) -> Any:
    server = ServerProcess(
        tmp_path / "tables.sqlite3", log=tmp_path / "server.log", bot_delay=bot_delay, args=["--allow-seed"]
    )
    killer = Killer(server, when)
    with server:
        table_id, seats = _play(server, 60, on_event=killer.on_event, on_sent=killer.on_sent)
        record = server.record(table_id)
    resumed = [(found[0], int(found[1])) for found in RESUMED.findall(server.log_text())]
    return record, seats, killer, resumed, table_id


def _check_streams(record: Any, seats: list[ScriptedSeat]) -> None:
    """
    Every seat saw every action once, in order, each event being the library's account of the record's action.
    """
    read = from_data(record)
    assert isinstance(read, GameRecord)
    states, played = list(replay(read)), read.actions
    count = len(played)
    for seat, scripted in zip(PEOPLE, seats, strict=True):
        assert list(range(1, count + 1)) == scripted.seen
        assert [] == scripted.errors
        events = [message for message in scripted.messages if message["type"] == "event"]
        for message in events:
            seq = message["seq"]
            told = events_of(states[seq - 1], played[seq - 1], states[seq])[seat]
            assert to_data(told) == message["event"]
            assert to_data(observe(states[seq], seat)) == message["view"]
        for seq, action in scripted.chosen.items():
            assert action == played[seq]


def _mid_deal(record: Any, seq: int) -> tuple[str, int]:
    state = _states(record)[seq]
    return state.phase.value, state.deal


class TestKilledWhileAPersonActs:
    """
    Durable tables: "after kill -9 of the server and a restart, every table resumes where it was,
    clients reconnect and resume, and no accepted action is lost or applied twice".
    """

    def test_the_game_ends_as_the_uninterrupted_one(self, tmp_path: Path, uninterrupted: Any) -> None:
        record, seats, killer, resumed, table_id = _killed_game(tmp_path, 0.0, _after_a_person_acts)
        assert killer.killed_at is not None
        assert [table_id] == [found for found, _ in resumed]
        stored = resumed[0][1]
        # The action sent just before the kill was stored or lost; bots may have acted after it.
        assert killer.killed_at <= stored
        assert ("play", 1) == _mid_deal(record, stored) or ("draw", 1) == _mid_deal(record, stored)
        assert [2, 2] == [seat.connections for seat in seats]
        assert uninterrupted == record
        assert 165 == len(record["actions"])
        _check_streams(record, seats)


class TestKilledBeforeAPersonActs:
    """
    Durable tables: a person whose turn it was when the server died sends the same action again
    after the restart, and it is accepted once.
    """

    def test_the_game_ends_as_the_uninterrupted_one(self, tmp_path: Path, uninterrupted: Any) -> None:
        record, seats, killer, resumed, table_id = _killed_game(tmp_path, 0.0, _before_a_person_acts)
        assert killer.killed_at is not None
        # The person had not acted yet: the table resumes at the event that gave them the turn.
        assert [(table_id, killer.killed_at)] == resumed
        assert _mid_deal(record, killer.killed_at)[1] == 1
        assert [2, 2] == [seat.connections for seat in seats]
        assert uninterrupted == record
        assert 165 == len(record["actions"])
        _check_streams(record, seats)


class TestKilledWhileABotWaits:
    """
    Durable tables, and "bots act with a small, configurable delay": a bot's move that was waiting
    when the server died is made after the restart, once.
    """

    def test_the_game_ends_as_the_uninterrupted_one(self, tmp_path: Path, uninterrupted: Any) -> None:
        record, seats, killer, resumed, table_id = _killed_game(tmp_path, 0.2, _while_a_bot_waits)
        assert killer.killed_at is not None
        # Nothing was accepted during the bot's delay: the table resumes at the last event the seats saw.
        assert [(table_id, killer.killed_at)] == resumed
        assert _mid_deal(record, killer.killed_at)[1] == 1
        assert [2, 2] == [seat.connections for seat in seats]
        assert uninterrupted == record
        assert 165 == len(record["actions"])
        _check_streams(record, seats)
