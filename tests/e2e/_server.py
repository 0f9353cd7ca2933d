"""
Helpers of the end-to-end tests and of ``benchmarks/bench_server.py``: a table server run as a
subprocess (``persian-rummy serve``), its HTTP routes, and a scripted person who plays a seat over
a WebSocket, choosing each move from its view alone.

A `ServerProcess` starts ``python -m persian_rummy serve`` on loopback with the worktree's ``src``
first on the path, reads the address from its first line and writes what it logs to a file; it
can be killed with SIGKILL (`ServerProcess.kill`) and started again on the same port and database
(`ServerProcess.restart`).

A `ScriptedSeat` plays one person's seat: it says hello with its token and the number of the last
event it saw (0 at first, so that it is told every event from the first deal), keeps every message,
acts when the last message says it may (``legal`` not empty) with the move that `choose` picks from
its view and the event's number (or that `pick` picks from the ``legal`` list alone, which reads no
view: the benchmark's cheap clients), presses Next deal when a pause waits for it (once a deal and
connection), and, when its connection drops, connects again and resumes from the last event it
saw.  The same seat in the same game therefore makes the same choices, whatever happens to the
server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import random
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Final, Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from persian_rummy.actions import PlayerAction
from persian_rummy.bots import GreedyPlayer
from persian_rummy.serialize import from_data, to_data
from persian_rummy.state import View

ROOT: Final = Path(__file__).resolve().parents[2]
SERVING: Final = re.compile(r"Serving on http://127\.0\.0\.1:(\d+)/")
#: How long a server has to print its address, in seconds.
STARTUP_SECONDS: Final = 30.0
#: How long a scripted seat waits before it sends again an action the server's rate limit dropped, in seconds.
RATE_PAUSE: Final = 0.1
#: How long a scripted seat keeps trying to connect again after its connection dropped, in seconds.
RECONNECT_SECONDS: Final = 30.0

Choose = Callable[[View, int], PlayerAction]
#: Picks one of the ``legal`` list's entries from the list alone and the event's number (no view is read).
Pick = Callable[[list["Message"], int], "Message"]
Message = dict[str, Any]

_GREEDY: Final = GreedyPlayer()


def greedy(view: View, seq: int) -> PlayerAction:
    """
    The greedy player's move in *view*, with a generator seeded by the event's number *seq*.
    """
    return _GREEDY.choose(view, random.Random(seq))  # noqa: S311 (a seeded choice, not a secret)


class ServerProcess:
    """
    ``persian-rummy serve`` in a subprocess of its own, on loopback.

    *db* is the SQLite file (or ``":memory:"``), *bot_delay* the bots' delay, *log* the file that
    receives what the server writes to its standard error (appended to across restarts), *args* more
    options of ``serve``, *src* the folder of the package run (this worktree's ``src`` unless given),
    and *files* the most files the server process may open (its own limit unless given).
    """

    def __init__(
        self,
        db: str | Path,
        *,
        log: Path,
        bot_delay: float = 0.0,
        log_level: str = "info",
        args: Sequence[str] = (),
        src: Path | None = None,
        files: int | None = None,
    ) -> None:
        self.db = str(db)
        self.args = tuple(args)
        self.src = src or ROOT / "src"
        self.files = files
        self.log = log
        self.bot_delay = bot_delay
        self.log_level = log_level
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        """
        The server's HTTP address, ending in ``/``.
        """
        return f"http://127.0.0.1:{self.port}/"

    def ws_url(self, table_id: str) -> str:
        """
        The address of *table_id*'s WebSocket.
        """
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"

    @property
    def pid(self) -> int:
        """
        The server process's id.
        """
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def start(self) -> ServerProcess:
        """
        Start the server (on the port it had before, if it ran before) and wait for its address.
        """
        command = [sys.executable, "-m", "persian_rummy", "serve", "--port", str(self.port), "--db", self.db]
        command += ["--bot-delay", repr(self.bot_delay), "--log-level", self.log_level, *self.args]
        env = {**os.environ, "PYTHONPATH": str(self.src)}
        with self.log.open("a") as log:
            self.process = subprocess.Popen(  # noqa: S603 - the package's own command
                command,
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                preexec_fn=self._limit_files,  # noqa: PLW1509 (setrlimit only)
            )
        line, self._reader = _first_line(self.process)
        found = SERVING.search(line)
        if found is None:
            self.process.kill()
            self.process.wait(10)
            self._close_pipe()
            message = f"the server did not say where it serves; its first line was {line!r}"
            raise RuntimeError(f"{message}; its log:\n{self.log.read_text()}")
        self.port = int(found.group(1))
        self._wait_ready()
        return self

    def _limit_files(self) -> None:
        if self.files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def _wait_ready(self) -> None:
        # The address is printed once the port is bound, a moment before uvicorn listens on it.
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                self.get("api/tables")
            except urllib.error.URLError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
            else:
                return

    def kill(self) -> None:
        """
        Kill the server with SIGKILL (``kill -9``) and wait until it is gone.
        """
        assert self.process is not None, "the server is not running"
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        self._close_pipe()
        assert -signal.SIGKILL == self.process.returncode

    def _close_pipe(self) -> None:
        assert self.process is not None
        if self._reader is not None:
            self._reader.join(10)
        if self.process.stdout is not None:
            self.process.stdout.close()

    def restart(self) -> ServerProcess:
        """
        Start the server again, on the same port and database.
        """
        return self.start()

    def stop(self) -> None:
        """
        Stop the server if it runs (SIGTERM, then SIGKILL after ten seconds).
        """
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self._close_pipe()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # HTTP

    def get(self, path: str) -> Any:
        """
        The JSON answer of ``GET path``.
        """
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as answer:  # noqa: S310 - loopback
            return json.load(answer)

    def post(self, path: str, body: object) -> Any:
        """
        The JSON answer of ``POST path`` with *body* as JSON.
        """
        request = urllib.request.Request(  # noqa: S310 - the test's own server on loopback
            self.url + path.lstrip("/"), data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return json.load(answer)

    def status_of(self, path: str) -> tuple[int, Any]:
        """
        The status and JSON body of ``GET path``, an error's included.
        """
        try:
            return 200, self.get(path)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def create(self, spec: dict[str, object]) -> tuple[str, dict[int, str]]:
        """
        Make a table: its id and its invitations by seat.
        """
        made = self.post("api/tables", spec)
        return made["table"]["id"], {item["seat"]: item["invite"] for item in made["invitations"]}

    def claim(self, table_id: str, invite: str, name: str) -> str:
        """
        Claim the seat of *invite* for *name*: the seat's token.
        """
        token: str = self.post(f"api/tables/{table_id}/claim", {"invite": invite, "name": name})["token"]
        return token

    def seat_table(self, spec: dict[str, object], names: dict[int, str]) -> tuple[str, dict[int, str]]:
        """
        Make a table and claim its people's seats with *names*: its id and the tokens by seat.
        """
        table_id, invites = self.create(spec)
        return table_id, {seat: self.claim(table_id, invites[seat], names[seat]) for seat in sorted(invites)}

    def record(self, table_id: str) -> Any:
        """
        The finished game's record, as JSON data.
        """
        return self.get(f"api/tables/{table_id}/record")

    def rss(self) -> int:
        """
        The server process's resident memory, in bytes (from ``/proc``).
        """
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc/PID/status")

    def log_text(self) -> str:
        """
        What the server has logged so far.
        """
        return self.log.read_text()


def _first_line(process: subprocess.Popen[str]) -> tuple[str, threading.Thread]:
    """
    The process's first line of output, and the thread that goes on reading the rest.
    """
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout

    def read() -> None:
        lines.put(stdout.readline())
        for _ in stdout:  # keep the pipe drained
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        return lines.get(timeout=STARTUP_SECONDS), reader
    except queue.Empty:
        return "", reader


def hello(token: str | None, since: int | None) -> str:
    """
    The ``hello`` message's text.
    """
    return json.dumps({"type": "hello", "token": token, "since": since})


class ScriptedSeat:
    """
    A person at one seat, played by a script over a WebSocket.

    Attributes:
        seen: The number of every event message received, in order, over every connection.
        messages: Every message received, in order.
        chosen: The action chosen at each event number (a choice made again after a restart is
            checked to be the same).
        sent_at: When each action was sent, by the number of the event it answered (monotonic seconds).
        received_at: When each event was first received, by its number (monotonic seconds).
        connections: How many connections were opened.
    """

    def __init__(
        self,
        server: ServerProcess,
        table_id: str,
        token: str | None,
        *,
        choose: Choose = greedy,
        pick: Pick | None = None,
        think: Callable[[], float] | None = None,
        on_event: Callable[[ScriptedSeat, Message], Awaitable[None]] | None = None,
        on_sent: Callable[[ScriptedSeat], Awaitable[None]] | None = None,
        on_message: Callable[[ScriptedSeat, Message], Awaitable[None]] | None = None,
    ) -> None:
        self.server = server
        self.table_id = table_id
        self.token = token
        self.choose = choose
        self.pick = pick
        self.think = think
        self.on_event = on_event
        self.on_sent = on_sent
        self.on_message = on_message
        self.seen: list[int] = []
        self.messages: list[Message] = []
        self.chosen: dict[int, PlayerAction] = {}
        self.sent_at: dict[int, float] = {}
        self.received_at: dict[int, float] = {}
        self.connections = 0
        self.seq = 0
        self._view: Message | View | None = None
        self.legal: list[Message] = []
        self.points: list[int] | None = None
        self._caught_up = 0
        self._acted = -1
        self._final: list[int] | None = None
        self._seat: int | None = None
        self._ready_due = False
        self._ready_for = 0

    @property
    def errors(self) -> list[Message]:
        """
        The error messages received.
        """
        return [message for message in self.messages if message["type"] == "error"]

    async def play(self) -> list[int]:
        """
        Play until the game is over, connecting again whenever the connection drops: the points.
        """
        while self.points is None:
            socket = await self._connect()
            try:
                await self._session(socket)
            except ConnectionClosed:
                continue
            finally:
                await socket.close()
        return self.points

    async def _connect(self) -> ClientConnection:
        deadline = time.monotonic() + RECONNECT_SECONDS
        while True:
            try:
                socket = await connect(self.server.ws_url(self.table_id), max_size=None, open_timeout=10)
            except (OSError, InvalidHandshake, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.05)
                continue
            self.connections += 1
            return socket

    async def _session(self, socket: ClientConnection) -> None:
        self._acted = -1
        await socket.send(hello(self.token, self.seq))
        async for text in socket:
            message: Message = json.loads(text)
            self.messages.append(message)
            await self._handle(message)
            if self.on_message is not None:
                await self.on_message(self, message)
            if self.points is not None:
                return
            if self._ready_due:  # the end of a deal waits for each person's Next deal
                self._ready_due = False
                await socket.send(json.dumps({"type": "next-deal", "id": f"next-deal-{self._ready_for}"}))
            if self._may_act():
                await self._act(socket)

    async def _handle(self, message: Message) -> None:
        kind = message["type"]
        if kind == "welcome":
            self._seat = message["seat"]
            self._caught_up = message["seq"]
            self._ready_for = 0  # a server that took the table over asks for Next deal again
            if message["view"] is not None:  # a fresh start: too far behind to be told every event
                self.seq = message["seq"]
                self._update(message)
            if message["table"]["status"] == "over":
                # A game over before this connection: no game-over message comes, the table says it.
                self._final = message["table"]["points"]
        elif kind == "event":
            self.received_at.setdefault(message["seq"], time.monotonic())
            self.seen.append(message["seq"])
            self.seq = message["seq"]
            self._update(message)
            if self.on_event is not None:
                await self.on_event(self, message)
        elif kind == "game-over":
            self.points = message["points"]
        elif kind == "pause" and self._seat in message["waiting"] and self._ready_for != message["deal"]:
            self._ready_due = True  # once a deal: a later pause message may still name this seat
            self._ready_for = message["deal"]
        elif (
            kind == "error"
            and message.get("code") == "rate-limit"
            and message.get("id") == f"next-deal-{self._ready_for}"
        ):
            await asyncio.sleep(RATE_PAUSE)  # Next deal was dropped: again, later
            self._ready_due = True
        elif kind == "error" and message.get("code") == "rate-limit" and message.get("id") in {self._acted, None}:
            # The action was dropped (a server that names no message dropped means the last): again, later.
            await asyncio.sleep(RATE_PAUSE)
            self._acted = -1
        if self._final is not None and self.seq >= self._caught_up:
            self.points = self._final

    @property
    def view(self) -> View | None:
        """
        The seat's view after the last message that had one (read from its JSON when first asked for).
        """
        if isinstance(self._view, dict):
            view = from_data(self._view)
            assert isinstance(view, View)
            self._view = view
        return self._view

    def _update(self, message: Message) -> None:
        self._view = message["view"]
        self.legal = message["legal"]

    def _may_act(self) -> bool:
        return bool(self.legal) and self.seq >= self._caught_up and self._acted != self.seq

    def _action(self) -> object:
        seq = self.seq
        if self.pick is not None:
            return self.pick(self.legal, seq)["action"]
        view = self.view
        assert view is not None
        action = self.choose(view, seq)
        earlier = self.chosen.setdefault(seq, action)
        assert earlier == action, f"at event {seq} the seat chose {action} after {earlier}"
        return to_data(action)

    async def _act(self, socket: ClientConnection) -> None:
        seq = self.seq
        action = self._action()
        if self.think is not None:
            await asyncio.sleep(self.think())
        self._acted = seq
        self.sent_at[seq] = time.monotonic()
        await socket.send(json.dumps({"type": "act", "action": action, "id": seq}))
        if self.on_sent is not None:
            await self.on_sent(self)


async def gather_all(*seats: ScriptedSeat, seconds: float = 60.0) -> list[list[int]]:
    """
    Play every seat until its game is over, within *seconds*: each seat's points.
    """
    async with asyncio.timeout(seconds):
        return list(await asyncio.gather(*(seat.play() for seat in seats)))


@contextlib.asynccontextmanager
async def raw_socket(server: ServerProcess, table_id: str, **options: Any) -> Any:
    """
    A plain WebSocket to *table_id*, for clients that misbehave.
    """
    async with connect(server.ws_url(table_id), open_timeout=10, **options) as socket:
        yield socket
