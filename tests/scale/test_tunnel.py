"""
What reaches a worker on the bus is hostile until checked: a malformed or forged message of a tunnel
is refused and changes nothing.

A worker (the owner) runs in the test's event loop on the session's PostgreSQL and Redis, with a
table of one person and three bots waiting for the person; a peer of the test's own listens on the
bus as another worker would, opens tunnels to the owner by hand and reads what comes back.
Messages are handed to the owner's router as its bus hands them over (once read as JSON), or
published on Redis where the bus's own checks are tried.  Every limit documented in `_events`,
`_route` and `_bus` has a test.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg")
redis_asyncio = pytest.importorskip("redis.asyncio")

from persian_rummy.server import Limits, _bus, _events, _route, create_app  # noqa: E402 (after the skips)
from persian_rummy.server._postgres import PostgresStorage  # noqa: E402

SPEC = {"seats": ["person", "bot:greedy", "bot:greedy", "bot:greedy"], "seed": 7, "bot_delay": 0}
#: How long a test waits for what it expects, in seconds (a generous bound, never a measure).
WAIT = 30.0

Message = dict[str, Any]


def _scope(kind: str = "websocket", path: object = "/ws/tables/0123456789", **fields: object) -> dict[str, object]:
    scope: dict[str, object] = {
        "type": kind,
        "method": "GET",
        "scheme": "ws" if kind == "websocket" else "http",
        "http_version": "1.1",
        "path": path,
        "query_string": "",
        "headers": [["host", "testserver"]],
        "client": ["127.0.0.1", 50000],
        "subprotocols": [],
    }
    return {**scope, **fields}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class Peer:
    """
    Another worker on the bus, played by the test: it hands messages to the owner's *router* and
    reads the answers the owner publishes on its own channel.
    """

    def __init__(self, router: _route.Router, bus_url: str, name: str = "peer") -> None:
        self.router = router
        self.name = name
        self.redis = redis_asyncio.Redis.from_url(bus_url)
        self.answers: defaultdict[str, asyncio.Queue[Message]] = defaultdict(asyncio.Queue)
        self._ids = itertools.count(1)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(_bus.channel(self.name))

        async def read() -> None:
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is not None and message["type"] == "message":
                    answer = json.loads(message["data"])
                    self.answers[answer["conn"]].put_nowait(answer)

        self._task = asyncio.get_running_loop().create_task(read())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.redis.aclose()

    def conn(self) -> str:
        return f"{self.name}.{next(self._ids)}"

    def deliver(self, message: Message) -> None:
        """Hand *message* to the owner, as its bus does once it has read it as JSON."""
        self.router._received(message)

    def open(self, conn: str, scope: object, **fields: object) -> None:
        self.deliver({"op": "open", "from": self.name, "conn": conn, "n": 1, "scope": scope, **fields})

    def feed(self, conn: str, n: int, event: object) -> None:
        self.deliver({"op": "in", "conn": conn, "n": n, "event": event})

    async def next(self, conn: str) -> Message:
        async with asyncio.timeout(WAIT):
            return await self.answers[conn].get()

    async def until_end(self, conn: str) -> list[Message]:
        """The answers of the tunnel *conn* up to its end."""
        answers = [await self.next(conn)]
        while answers[-1]["op"] != "end":
            answers.append(await self.next(conn))
        return answers

    async def socket(self, table_id: str) -> str:
        """A WebSocket to *table_id* through a tunnel, accepted: its tunnel's name."""
        conn = self.conn()
        self.open(conn, _scope(path=f"/ws/tables/{table_id}"))
        self.feed(conn, 2, {"type": "websocket.connect"})
        assert (await self.next(conn))["event"]["type"] == "websocket.accept"
        return conn

    async def received(self, conn: str, kind: str) -> list[Message]:
        """The WebSocket messages of *conn* up to one of type *kind*."""
        seen: list[Message] = []
        while not seen or seen[-1]["type"] != kind:
            answer = await self.next(conn)
            assert answer["op"] == "out", f"the tunnel ended before a {kind}: {seen}"
            if answer["event"]["type"] == "websocket.send":
                seen.append(json.loads(answer["event"]["text"]))
        return seen


async def _eventually(condition: Callable[[], bool]) -> None:
    """Wait until *condition* holds (it is made true by another task), for at most `WAIT` seconds."""
    async with asyncio.timeout(WAIT):
        while not condition():  # noqa: ASYNC110 (a condition of the server's state, set by no event)
            await asyncio.sleep(0.02)


async def _http(app: Any, method: str, path: str, body: object) -> tuple[int, Any]:
    """A request to the owner's own application, as from a client of its own: the status and the JSON answer."""
    data = json.dumps(body).encode()
    scope = _events.read_scope(_scope("http", path, method=method, headers=[["content-type", "application/json"]]))
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(event: Message) -> None:
        sent.append(event)

    await app(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(event.get("body", b"") for event in sent[1:]))


class Owner:
    """The owner's application, router and peer, with a table of one person and three bots."""

    def __init__(self, app: Any, peer: Peer, table_id: str, token: str) -> None:
        self.app = app
        self.hub = app.state.hub
        self.router: _route.Router = app.state.router
        self.peer = peer
        self.table_id = table_id
        self.token = token

    def state(self) -> tuple[list[tuple[str, int]], int]:
        """The tables served and their actions, and the tunnels served."""
        tables = sorted((table_id, live.table.seq) for table_id, live in self.hub.tables.items())
        return tables, len(self.router._served)

    async def quiet(self) -> None:
        """Wait until no tunnel is served (each refused or closed one is let go)."""
        await _eventually(lambda: not self.router._served)


@contextlib.asynccontextmanager
async def _owner(database: str, bus: str, limits: Limits) -> AsyncIterator[Owner]:
    app = create_app(PostgresStorage(database, owner="owner"), bus=bus, bot_delay=0, allow_seed=True, limits=limits)
    async with app.router.lifespan_context(app):
        app.middleware_stack = app.build_middleware_stack()  # the router's application is set here
        peer = Peer(app.state.router, bus)
        await peer.start()
        try:
            status, made = await _http(app, "POST", "/api/tables", SPEC)
            assert status == 201, made
            table_id, invite = made["table"]["id"], made["invitations"][0]["invite"]
            claim = {"invite": invite, "name": "Ann"}
            status, claimed = await _http(app, "POST", f"/api/tables/{table_id}/claim", claim)
            assert status == 200, claimed
            owner = Owner(app, peer, table_id, claimed["token"])
            conn = await peer.socket(table_id)
            hello = json.dumps({"type": "hello", "token": owner.token})
            peer.feed(conn, 3, {"type": "websocket.receive", "text": hello})
            seen = await peer.received(conn, "welcome")
            while not seen[-1]["legal"]:  # the bots play until the person's turn, which waits
                seen = await peer.received(conn, "event")
            peer.feed(conn, 4, {"type": "websocket.disconnect", "code": 1000})
            await peer.until_end(conn)
            await owner.quiet()
            yield owner
        finally:
            await peer.stop()


def _run(
    services: tuple[str, str],
    database: str,
    test: Callable[[Owner], Coroutine[Any, Any, None]],
    limits: Limits | None = None,
) -> None:
    async def run() -> None:
        async with _owner(database, services[1], limits or Limits(tables_per_minute=0)) as owner:
            await test(owner)

    asyncio.run(run())


_LONG = "x" * (_events.MAX_FIELD + 1)


@pytest.mark.parametrize(
    ("scope", "why"),
    [
        ("not a scope", "a scope is an HTTP request's or a WebSocket's"),
        (_scope(path="/api/tables"), "a tunnel carries a request about a table"),
        (_scope(path="/ws/tables/x/y/z"), "a tunnel carries a request about a table"),
        (_scope("lifespan"), "a scope is an HTTP request's or a WebSocket's"),
        (_scope(method="get"), "a method is a word in capitals"),
        (_scope(method="A" * 17), "a method is a word in capitals"),
        (_scope(path="ws/tables/x"), "a path is printable"),
        (_scope(path="/" + "a" * 2_048), "a path is printable"),
        (_scope(path="/api/tables\n"), "a path is printable"),
        (_scope(path=7), "a path is printable"),
        (_scope(query_string="q" * 4_097), "a query is printable"),
        (_scope(query_string="\x00"), "a query is printable"),
        (_scope(scheme="ftp"), "a scheme is http, https, ws or wss"),
        (_scope(http_version="3"), "a scheme is http, https, ws or wss"),
        (_scope(client=["127.0.0.1"]), "a client is an address and a port"),
        (_scope(client=["1" * 65, 80]), "a client is an address and a port"),
        (_scope(client=["127.0.0.1", "80"]), "a client is an address and a port"),
        (_scope(subprotocols=["p"] * 17), "subprotocols are at most 16 short strings"),
        (_scope(subprotocols=["p" * 65]), "subprotocols are at most 16 short strings"),
        (_scope(subprotocols="chat"), "subprotocols are at most 16 short strings"),
        (_scope(headers=[["a", "b"]] * (_events.MAX_HEADERS + 1)), "headers are a list of at most"),
        (_scope(headers=[["a", "b" * _events.MAX_HEADER_CHARACTERS]]), "headers are at most"),
        (_scope(headers=[["a", "b", "c"]]), "a header is a pair of strings"),
        (_scope(headers=[["a", 1]]), "a header is a pair of strings"),
        (_scope(headers=[["a", "\u20ac"]]), "a header is Latin-1"),
        (_scope(headers="host: x"), "headers are a list of at most"),
    ],
)
def test_a_bad_scope_opens_no_tunnel(
    services: tuple[str, str], postgres_url: str, caplog: pytest.LogCaptureFixture, scope: object, why: str
) -> None:
    async def test(owner: Owner) -> None:
        before = owner.state()
        conn = owner.peer.conn()
        owner.peer.open(conn, scope)
        assert [{"op": "end", "conn": conn, "n": 1}] == await owner.peer.until_end(conn)
        assert owner.state() == before

    caplog.set_level(logging.INFO, "persian_rummy.server")
    _run(services, postgres_url, test)
    assert any(why in record.getMessage() for record in caplog.records if "was refused" in record.getMessage())


@pytest.mark.parametrize(
    "event",
    [
        {"type": "websocket.send", "text": "{}"},  # an event of the other direction
        {"type": "lifespan.startup"},
        "websocket.receive",
        {"text": "{}"},
        {"type": "websocket.receive", "text": 7},
        {"type": "websocket.receive", "text": _LONG},
        {"type": "websocket.receive", "bytes": "not base64!"},
        {"type": "websocket.receive", "bytes": _b64(b"x" * (_events.MAX_FIELD * 2))},
        {"type": "websocket.receive", "bytes": _b64(b"x" * (_events.MAX_FIELD + 1))},
        {"type": "websocket.disconnect", "code": "1000"},
        {"type": "websocket.disconnect", "code": True},
        {"type": "websocket.disconnect", "code": 2**31},
        None,
    ],
)
def test_a_bad_event_closes_its_tunnel(services: tuple[str, str], postgres_url: str, event: object) -> None:
    async def test(owner: Owner) -> None:
        before = owner.state()
        conn = await owner.peer.socket(owner.table_id)
        owner.peer.feed(conn, 3, event)
        answers = await owner.peer.until_end(conn)
        assert [answer["op"] for answer in answers][-1:] == ["end"]
        assert all(answer["event"]["type"] != "websocket.send" for answer in answers if answer["op"] == "out")
        await owner.quiet()
        assert owner.state() == before

    _run(services, postgres_url, test)


class TestForgedTunnels:
    """A tunnel proves what a client's connection proves, and nothing more."""

    def test_a_forged_hello_plays_no_seat(self, services: tuple[str, str], postgres_url: str) -> None:
        async def test(owner: Owner) -> None:
            before = owner.state()
            forged = await owner.peer.socket(owner.table_id)
            hello = {"type": "hello", "token": "not-the-token", "since": 0}
            owner.peer.feed(forged, 3, {"type": "websocket.receive", "text": json.dumps(hello)})
            (refused,) = await owner.peer.received(forged, "error")
            answers = await owner.peer.until_end(forged)
            closed = [answer["event"] for answer in answers if answer["op"] == "out"]
            spectator = await owner.peer.socket(owner.table_id)
            owner.peer.feed(spectator, 3, {"type": "websocket.receive", "text": json.dumps({"type": "hello"})})
            welcome = (await owner.peer.received(spectator, "welcome"))[-1]
            act = {"type": "act", "action": {"type": "draw_stock", "seat": 0}, "id": 1}
            owner.peer.feed(spectator, 4, {"type": "websocket.receive", "text": json.dumps(act)})
            (error,) = [m for m in await owner.peer.received(spectator, "error") if m["type"] == "error"]
            owner.peer.feed(spectator, 5, {"type": "websocket.disconnect", "code": 1000})
            await owner.peer.until_end(spectator)
            await owner.quiet()
            assert refused["code"] == "unauthorized"
            assert closed == [{"type": "websocket.close", "code": 4401, "reason": ""}]
            assert (welcome["seat"], welcome["view"]["hand"], error["code"]) == (None, None, "spectator")
            assert owner.state() == before

        _run(services, postgres_url, test)

    @pytest.mark.parametrize("number", [2, 3, 5, 1_000])
    def test_a_message_out_of_order_closes_the_tunnel(
        self, services: tuple[str, str], postgres_url: str, number: int
    ) -> None:
        """A gap, or a number used already: the tunnel closes, the act it carried is not played."""

        async def test(owner: Owner) -> None:
            before = owner.state()
            conn = await owner.peer.socket(owner.table_id)
            hello = {"type": "hello", "token": owner.token, "since": None}
            owner.peer.feed(conn, 3, {"type": "websocket.receive", "text": json.dumps(hello)})
            welcome = (await owner.peer.received(conn, "welcome"))[-1]
            act = {"type": "act", "action": welcome["legal"][0]["action"], "id": 1}
            owner.peer.feed(conn, number, {"type": "websocket.receive", "text": json.dumps(act)})
            answers = await owner.peer.until_end(conn)
            await owner.quiet()
            sent = [answer["event"] for answer in answers if answer["op"] == "out"]
            assert all(json.loads(event["text"])["type"] == "presence" for event in sent[:-1] if "text" in event)
            assert owner.state() == before

        _run(services, postgres_url, test)

    @pytest.mark.parametrize(
        "message",
        [
            {"op": "in", "n": 2, "event": {"type": "websocket.connect"}},
            {"op": "in", "conn": 7, "n": 2},
            {"op": "in", "conn": "c" * 81, "n": 2},
            {"op": "in", "conn": "peer.1", "n": True},
            {"op": "in", "conn": "peer.1", "n": "2"},
            {"op": "open", "from": 7, "conn": "peer.9", "n": 1, "scope": _scope()},
            {"op": "open", "from": "p" * 65, "conn": "peer.9", "n": 1, "scope": _scope()},
            {"op": "open", "from": "peer", "conn": "peer.9", "n": 2, "scope": _scope()},
            {"op": "shutdown", "conn": "peer.1", "n": 2},
            {"op": "in", "conn": "nobody.1", "n": 2, "event": {"type": "websocket.connect"}},
            {"op": "out", "conn": "nobody.1", "n": 1, "event": {"type": "websocket.accept"}},
        ],
    )
    def test_a_message_of_no_tunnel_changes_nothing(
        self, services: tuple[str, str], postgres_url: str, message: Message
    ) -> None:
        async def test(owner: Owner) -> None:
            before = owner.state()
            owner.peer.deliver(message)
            await asyncio.sleep(0.2)  # anything started would be served by now
            await owner.quiet()
            assert owner.state() == before
            assert owner.router._proxied == {}

        _run(services, postgres_url, test)

    def test_a_tunnel_of_a_worker_that_does_not_listen_is_closed(
        self, services: tuple[str, str], postgres_url: str
    ) -> None:
        async def test(owner: Owner) -> None:
            before = owner.state()
            ghost = Peer(owner.router, services[1], name="ghost")  # never subscribed
            ghost.open("ghost.1", _scope(path=f"/ws/tables/{owner.table_id}"))
            ghost.feed("ghost.1", 2, {"type": "websocket.connect"})
            await owner.quiet()  # closed within `_route.CHECK_SECONDS`
            await ghost.stop()
            assert owner.state() == before

        _run(services, postgres_url, test)

    def test_a_tunnel_opened_twice_is_served_once(self, services: tuple[str, str], postgres_url: str) -> None:
        async def test(owner: Owner) -> None:
            conn = await owner.peer.socket(owner.table_id)
            owner.peer.open(conn, _scope(path=f"/api/tables/{owner.table_id}"))  # the same name again
            served = len(owner.router._served)
            owner.peer.feed(conn, 3, {"type": "websocket.disconnect", "code": 1000})
            answers = await owner.peer.until_end(conn)
            # Numbered on from the accept (1): the second opening was not answered.
            assert (served, [(answer["n"], answer["op"]) for answer in answers]) == (1, [(2, "out"), (3, "end")])

        _run(services, postgres_url, test)


class TestTheLimits:
    """Each limit of a tunnel, and of the bus, refuses what is over it."""

    def test_at_most_max_connections_tunnels(
        self, services: tuple[str, str], postgres_url: str, caplog: pytest.LogCaptureFixture
    ) -> None:
        async def test(owner: Owner) -> None:
            first, second = await owner.peer.socket(owner.table_id), await owner.peer.socket(owner.table_id)
            third = owner.peer.conn()
            owner.peer.open(third, _scope(path=f"/ws/tables/{owner.table_id}"))
            refused = await owner.peer.until_end(third)
            for conn in (first, second):
                owner.peer.feed(conn, 3, {"type": "websocket.disconnect", "code": 1000})
                await owner.peer.until_end(conn)
            assert refused == [{"op": "end", "conn": third, "n": 1}]

        caplog.set_level(logging.INFO, "persian_rummy.server")
        _run(services, postgres_url, test, Limits(tables_per_minute=0, max_connections=2))
        assert any("as many tunnels as it may" in record.getMessage() for record in caplog.records)

    def test_at_most_max_queued_events_wait(
        self, services: tuple[str, str], postgres_url: str, caplog: pytest.LogCaptureFixture
    ) -> None:
        async def test(owner: Owner) -> None:
            before = owner.state()
            conn = owner.peer.conn()
            owner.peer.open(conn, _scope(path=f"/ws/tables/{owner.table_id}"))
            # Handed over at once, before the owner's application reads any: the fourth is one too many.
            owner.peer.feed(conn, 2, {"type": "websocket.connect"})
            for number in range(3, 6):
                owner.peer.feed(conn, number, {"type": "websocket.receive", "text": '{"type": "ping"}'})
            answers = await owner.peer.until_end(conn)
            await owner.quiet()
            assert answers[-1]["op"] == "end"
            assert owner.state() == before

        caplog.set_level(logging.INFO, "persian_rummy.server")
        _run(services, postgres_url, test, Limits(tables_per_minute=0, max_queued=3))
        assert any("3 events wait" in record.getMessage() for record in caplog.records)

    def test_the_bus_drops_what_is_not_a_json_object_within_its_size(
        self, services: tuple[str, str], postgres_url: str, caplog: pytest.LogCaptureFixture
    ) -> None:
        async def test(owner: Owner) -> None:
            before = owner.state()
            channel = _bus.channel(owner.router.worker)
            oversized = {"op": "open", "from": "peer", "conn": "peer.99", "n": 1, "scope": _scope()}
            oversized["padding"] = "x" * _bus.MAX_MESSAGE
            for data in (b"{not json", b"\xff\xfe", b"[1, 2]", b'"open"', json.dumps(oversized).encode()):
                await owner.peer.redis.publish(channel, data)
            await _eventually(lambda: sum("on the bus was dropped" in r.getMessage() for r in caplog.records) == 3)
            await owner.quiet()
            assert owner.state() == before

        caplog.set_level(logging.INFO, "persian_rummy.server")
        _run(services, postgres_url, test)
        dropped = [r.getMessage() for r in caplog.records if "a message on the bus was dropped" in r.getMessage()]
        assert dropped == [
            "a message on the bus was dropped: not JSON",
            "a message on the bus was dropped: not JSON",
            f"a message on the bus was dropped: not text, or over {_bus.MAX_MESSAGE} bytes",
        ]

    def test_at_most_max_waiting_messages_wait_to_be_sent(self, caplog: pytest.LogCaptureFixture) -> None:
        async def test() -> int:
            bus = _bus.Bus("redis://127.0.0.1:1/0", "worker", lambda _: None)  # never started
            for _ in range(_bus.MAX_WAITING + 1):
                bus.send("other", {"op": "end"})
            return bus._waiting.qsize()

        assert asyncio.run(test()) == _bus.MAX_WAITING
        assert [r.getMessage() for r in caplog.records] == [
            f"a message to worker other was dropped: {_bus.MAX_WAITING} messages wait to be sent"
        ]


class TestWhatComesBack:
    """The events an owner sends back are checked as strictly: a bad one, or a gap, ends the tunnel."""

    @pytest.mark.parametrize(
        ("messages", "events"),
        [
            ([("out", 1, {"type": "websocket.accept"})], [{"type": "websocket.accept"}]),
            ([("out", 1, {"type": "websocket.receive", "text": "{}"})], [None]),
            ([("out", 1, {"type": "websocket.send", "text": 7})], [None]),
            ([("out", 1, {"type": "http.response.start", "status": 200, "headers": [["a"]]})], [None]),
            ([("out", 2, {"type": "websocket.accept"})], [None]),
            (
                [("out", 1, {"type": "websocket.accept"}), ("out", 1, {"type": "websocket.accept"})],
                [{"type": "websocket.accept"}, None],
            ),
            ([("end", 1, None)], [None]),
        ],
    )
    def test_an_answer_is_read_back_checked(
        self, messages: list[tuple[str, int, object]], events: list[object]
    ) -> None:
        router = _route.Router.__new__(_route.Router)
        router._proxied = {"w.1": _route._Proxied("owner")}
        for op, number, event in messages:
            router._received({"op": op, "conn": "w.1", "n": number, "event": event})
        queue = router._proxied["w.1"].events
        assert [queue.get_nowait() for _ in range(queue.qsize())] == events
