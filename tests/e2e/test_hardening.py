"""
The table server attacked over real sockets: each test is an attack of the server's audit, against
``persian-rummy serve`` in a process of its own, with the options every version of it takes.

``PERSIAN_RUMMY_SERVER_SRC`` names another checkout's ``src`` folder to attack instead of this one's
(an older server, to see the attacks succeed).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import itertools
import json
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.e2e._server import Message, ScriptedSeat, ServerProcess, gather_all, hello

SOURCE = Path(os.environ["PERSIAN_RUMMY_SERVER_SRC"]) if os.environ.get("PERSIAN_RUMMY_SERVER_SRC") else None
BOTS = ["person", "bot:greedy", "bot:greedy", "bot:greedy"]
SECONDS = 20.0
#: A loopback address of the attacker's, so that the server tells it from the test's own client (127.0.0.1).
ATTACKER = "127.0.0.2"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hardening")
    with ServerProcess(folder / "tables.sqlite3", log=folder / "server.log", bot_delay=0.0, src=SOURCE) as process:
        yield process


#: Loopback addresses the tests make their tables from, one after the other, so that no test meets the
#: limit of table creations of one address but the test of that limit.
SOURCES = (f"127.0.1.{number}" for number in itertools.count(1))


def _post(server: ServerProcess, path: str, body: object, **headers: str) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(next(SOURCES), 0))
    try:
        # The body as bytes goes in one packet with the head (as text, it would wait for a delayed ACK).
        connection.request("POST", path, json.dumps(body).encode(), {"content-type": "application/json", **headers})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def _seated(server: ServerProcess, **fields: object) -> tuple[str, str]:
    """A table of one person (N) and three greedy bots, N claimed: its id and N's token."""
    status, made = _post(server, "/api/tables", {"seats": BOTS, **fields})
    assert status == 201, made
    table_id = made["table"]["id"]
    return table_id, server.claim(table_id, made["invitations"][0]["invite"], "Ann")


async def _messages(socket: ClientConnection, until: str, seconds: float = SECONDS) -> list[Message]:
    seen: list[Message] = []
    async with asyncio.timeout(seconds):
        while not seen or seen[-1]["type"] != until:
            seen.append(json.loads(await socket.recv()))
    return seen


class TestNoCodeFromRequests:
    """Finding 1: a seat that names a module and a function is refused, and nothing runs."""

    def test_a_shell_command_in_a_seat_runs_nothing(self, server: ServerProcess, tmp_path: Path) -> None:
        made = tmp_path / "made-by-the-request"
        seats = ["person", f"bot:os:system:touch {made}", "bot:greedy", "bot:greedy"]
        status, answer = _post(server, "/api/tables", {"seats": seats})
        also, output = _post(server, "/api/tables", {"seats": ["person", "bot:subprocess:getoutput:id", *BOTS[2:]]})
        assert (status, also) == (400, 400)
        assert "uid=" not in json.dumps(output)
        assert not made.exists()
        assert answer["error"]["message"].startswith("seats[1]: no bot is called that here")

    def test_a_page_of_another_site_cannot_make_a_table(self, server: ServerProcess) -> None:
        status, answer = _post(server, "/api/tables", {"seats": BOTS}, origin="http://evil.example")
        assert (status, answer["error"]["code"]) == (403, "bad-origin")


class TestBoundedResources:
    """Findings 2, 3 and 4: budgets, table creations and request bodies are bounded."""

    def test_a_huge_budget_is_refused(self, server: ServerProcess) -> None:
        for bot in ("bot:pimc:1000000000", "bot:ismcts:1e9s"):
            status, _ = _post(server, "/api/tables", {"seats": ["person", bot, "bot:greedy", "bot:greedy"]})
            assert status == 400

    def test_ten_thousand_creations_are_refused_early(self, server: ServerProcess) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(ATTACKER, 0))
        codes: dict[int, int] = {}
        body = json.dumps({"seats": BOTS}).encode()
        try:
            for _ in range(10_000):
                connection.request("POST", "/api/tables", body, {"content-type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                codes[answer.status] = codes.get(answer.status, 0) + 1
                if answer.will_close:
                    connection.close()
        finally:
            connection.close()
        listed = json.dumps(server.get("api/tables")).encode()
        assert codes.get(201, 0) <= 20
        assert codes.get(429, 0) >= 9_980
        assert len(listed) < 100_000

    def test_a_chunked_body_is_cut_short(self, server: ServerProcess) -> None:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as client:
            client.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
            sent = 0
            client.settimeout(0.0)
            answer = b""
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                while sent < 64 * 2**20 and not answer:
                    with contextlib.suppress(BlockingIOError):
                        sent += client.send(chunk)
                    with contextlib.suppress(BlockingIOError):
                        answer = client.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:40]
        assert sent < 16 * 2**20  # what the sockets buffered, far from the 64 MiB offered


class TestConnections:
    """Finding 6: idle connections and half-sent requests are closed, and never lock the others out."""

    def test_idle_sockets_beyond_the_file_limit(self, tmp_path: Path) -> None:
        log = tmp_path / "server.log"
        with ServerProcess(":memory:", log=log, src=SOURCE, files=256) as server:
            sockets = []
            for number in range(400):
                idle = socket.socket()
                idle.bind((ATTACKER, 0))
                idle.settimeout(10)
                with contextlib.suppress(OSError):
                    idle.connect(("127.0.0.1", server.port))
                    if number % 2:
                        idle.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the end of it
                sockets.append(idle)
            try:
                answered = server.status_of("api/tables")[0]
                closed = sum(_closed_within(idle, 15.0) for idle in (*sockets[:20], *sockets[-20:]))
            finally:
                for idle in sockets:
                    idle.close()
            size = log.stat().st_size
        assert answered == 200
        assert closed == 40  # the first by the server's timeout, the last at once
        assert size < 100_000


def _closed_within(idle: socket.socket, seconds: float) -> bool:
    idle.settimeout(seconds)
    try:
        return idle.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


#: Another process: takes the database's write lock, says so, holds it for eight seconds and lets go.
HOLD_THE_LOCK = (
    "import sqlite3, sys, time; db = sqlite3.connect(sys.argv[1], isolation_level=None);"
    " db.execute('begin immediate'); print('locked', flush=True); time.sleep(8); db.execute('commit')"
)


class TestStorageNeverStallsATable:
    """Finding 7: another process holds the database's write lock for eight seconds; the table goes on."""

    def test_a_locked_database_delays_the_table(self, server: ServerProcess) -> None:
        """
        The lock is taken once the person's first action is stored, a second before the bot after
        it writes its move: the bot's write meets the lock, a spectator's ping is answered meanwhile,
        and the table goes on once the lock is let go.
        """
        table_id, token = _seated(server, bot_delay=1.0)
        holder = [sys.executable, "-c", HOLD_THE_LOCK, server.db]
        locks: list[subprocess.Popen[str]] = []

        async def lock_once(_seat: ScriptedSeat, message: Message) -> None:
            if not locks and message["by"] == "person":
                lock = subprocess.Popen(holder, stdout=subprocess.PIPE, text=True)  # noqa: S603, ASYNC220 (at once)
                locks.append(lock)
                assert lock.stdout is not None
                assert await asyncio.to_thread(lock.stdout.readline) == "locked\n"
                lock.stdout.close()

        async def play() -> tuple[int, bool]:
            person = ScriptedSeat(server, table_id, token, on_event=lock_once)
            game = asyncio.create_task(gather_all(person, seconds=120))
            while not locks:  # noqa: ASYNC110 (set by the person's hook)
                await asyncio.sleep(0.05)
            await asyncio.sleep(2)  # the bot's write waits for the lock by now
            async with connect(server.ws_url(table_id), open_timeout=10) as watcher:
                await watcher.send(hello(None, None))
                await watcher.send(json.dumps({"type": "ping", "id": "during"}))
                seen = await _messages(watcher, "pong", seconds=5)
            answered_while_locked = locks[0].poll() is None and seen[-1]["id"] == "during"
            await asyncio.to_thread(locks[0].wait, 20)
            let_go = person.seq
            async with asyncio.timeout(60):
                while person.seq < let_go + 12:  # noqa: ASYNC110 (counted by the person)
                    await asyncio.sleep(0.1)
            game.cancel()
            return person.seq - let_go, answered_while_locked

        played_after, answered_while_locked = asyncio.run(play())
        assert answered_while_locked
        assert played_after >= 12


class TestTheEndOfAGame:
    """Findings 5 and 10: catching up from the start costs little, and a late client is told the end."""

    def test_catching_up_and_resuming_after_the_end(self, server: ServerProcess) -> None:
        table_id, token = _seated(server, rules="num_deals=4")  # a long game, whatever the deals
        person = ScriptedSeat(server, table_id, token)
        asyncio.run(gather_all(person))
        last = person.seen[-1]

        async def late(since: int | None) -> list[Message]:
            async with connect(server.ws_url(table_id), open_timeout=10, max_size=None) as socket:
                await socket.send(hello(None, since))
                return await _messages(socket, "game-over", seconds=10)

        from_start, after_end = asyncio.run(late(0)), asyncio.run(late(last))
        assert last > 100
        assert len(from_start) <= 66
        assert from_start[0]["view"] is not None
        assert [message["type"] for message in after_end] == ["welcome", "game-over"]


class TestFairDeals:
    """Finding 8: the creator cannot choose the seed; the deals come from a key committed to at the start."""

    def test_a_seed_is_refused_and_a_commitment_shown(self, server: ServerProcess) -> None:
        status, answer = _post(server, "/api/tables", {"seats": BOTS, "seed": 7})
        made_status, made = _post(server, "/api/tables", {"seats": BOTS})
        assert (status, answer["error"]["code"]) == (400, "bad-table")
        assert made_status == 201
        assert (made["table"]["seeded"], len(made["table"]["commitment"]), made["table"]["key"]) == (False, 64, None)


class TestEndedTablesLeave:
    """Findings 9 and 10: an ended game is not loaded again at start; a record lost in a crash is repaired."""

    def test_a_finished_game_is_not_loaded_again(self, tmp_path: Path) -> None:
        with ServerProcess(tmp_path / "tables.sqlite3", log=tmp_path / "server.log", src=SOURCE) as server:
            table_id, token = _seated(server)
            asyncio.run(gather_all(ScriptedSeat(server, table_id, token)))
            server.stop()
            server.start()
            assert server.status_of(f"api/tables/{table_id}")[0] == 410
            assert server.status_of(f"api/tables/{table_id}/record")[0] == 200
            assert table_id not in json.dumps(server.get("api/tables"))

    def test_a_missing_record_is_repaired_at_start(self, tmp_path: Path) -> None:
        """
        A database as a server killed between storing a game's last action and its record left it
        (the earlier version's tables, in two transactions): the record is made at start.
        """
        database = tmp_path / "tables.sqlite3"
        with ServerProcess(database, log=tmp_path / "server.log", src=SOURCE) as server:
            table_id, token = _seated(server)
            asyncio.run(gather_all(ScriptedSeat(server, table_id, token)))
            record = server.record(table_id)
        with contextlib.closing(sqlite3.connect(database)) as db, db:
            columns = {row[1] for row in db.execute("pragma table_info(tables)")}
            lost = ", status = 'live'" if "status" in columns else ""
            db.execute(f"update tables set record = null{lost} where id = ?", (table_id,))  # noqa: S608 (the test's own)
        with ServerProcess(database, log=tmp_path / "server.log", src=SOURCE) as server:
            status, repaired = server.status_of(f"api/tables/{table_id}/record")
        assert (status, repaired) == (200, record)


class TestTheProtocol:
    """Findings 11, 12 and 13: lone surrogates, binary frames, rate-limit errors and presence."""

    def test_a_lone_surrogate_does_not_silence_the_connection(self, server: ServerProcess) -> None:
        table_id, token = _seated(server)

        async def talk() -> list[Message]:
            async with connect(server.ws_url(table_id), open_timeout=10, max_size=None) as socket:
                await socket.send(hello(token, None))
                await socket.send('{"type":"ping","id":"\\ud800"}')
                await socket.send('{"type":"ping","id":"next"}')
                return await _messages(socket, "pong", seconds=5)

        seen = asyncio.run(talk())
        assert seen[-1] == {"type": "pong", "id": "next"}

    def test_a_binary_hello_is_a_bad_message(self, server: ServerProcess) -> None:
        table_id, _ = _seated(server)

        async def talk() -> tuple[Message, int | None]:
            async with connect(server.ws_url(table_id), open_timeout=10) as socket:
                await socket.send(b'{"type":"hello","token":null}')
                error = json.loads(await asyncio.wait_for(socket.recv(), 5))
                with contextlib.suppress(ConnectionClosed):
                    await asyncio.wait_for(socket.recv(), 5)
                return error, socket.close_code

        error, code = asyncio.run(talk())
        assert (error["code"], code) == ("bad-message", 4400)

    def test_every_dropped_message_is_named(self, server: ServerProcess) -> None:
        table_id, token = _seated(server)

        async def flood() -> list[int]:
            async with connect(server.ws_url(table_id), open_timeout=10, max_size=None) as socket:
                await socket.send(hello(token, None))
                for number in range(60):
                    await socket.send(json.dumps({"type": "ping", "id": number}))
                dropped: list[int] = []
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(3):
                        while True:
                            message = json.loads(await socket.recv())
                            if message.get("code") == "rate-limit":
                                dropped.append(message.get("id"))
                return dropped

        dropped = asyncio.run(flood())
        assert len(dropped) >= 15
        assert dropped == sorted(dropped)
        assert None not in dropped

    def test_reconnections_are_told_once(self, server: ServerProcess) -> None:
        table_id, token = _seated(server)

        async def reconnect() -> list[Message]:
            async with connect(server.ws_url(table_id), open_timeout=10, max_size=None) as watcher:
                await watcher.send(hello(None, None))
                for _ in range(400):
                    async with connect(server.ws_url(table_id), open_timeout=10, max_size=None) as again:
                        await again.send(hello(token, None))
                        await again.recv()
                await asyncio.sleep(1.5)
                await watcher.send(json.dumps({"type": "ping", "id": "end"}))
                return await _messages(watcher, "pong")

        presence = [message for message in asyncio.run(reconnect()) if message["type"] == "presence"]
        assert 1 <= len(presence) <= 20
