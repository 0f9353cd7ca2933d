"""
Several workers, one site: a request about a table goes to the worker that owns it.

`Router` is an ASGI middleware in front of each worker's application.  A request that names a table
(``/api/tables/ID…``, ``/tables/ID``, ``/ws/tables/ID``) that another worker owns is tunnelled to
that worker over the bus (`_bus.Bus`): the ASGI events the client sends go to the owner, which
runs them through its own application (the same checks of origin, host, size, rate and message as
for its own clients), and the events its application sends come back and go to the client.  Every
message a seat receives is therefore made by the owner, from the seat's view, as on one worker.

A table whose owner's lease has run out, or whose owner no longer listens on the bus (a process
that died), is taken over by the worker the request came to: it takes the lease, reads the table
back from the database and serves it.  A tunnel whose owner goes away closes with `MOVED`; the
client connects again, with the number of the last event it saw.

Everything a tunnel carries is checked on arrival (`_events`): the fields of each kind of event, their
types and sizes, and the path of the request, which names a table; a message that fails closes its
tunnel.  At most `Limits.max_connections` tunnels
are served at once, and each lets at most `Limits.max_queued` events wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import _events
from ._bus import Bus
from ._hub import MOVED, Hub
from ._lease import Leased

if TYPE_CHECKING:
    from ._limits import Limits

_log: Final = logging.getLogger("persian_rummy.server")

#: The paths that name a table, and where its id is.
_TABLE_PATH: Final = re.compile(r"^/(?:api/tables|tables|ws/tables)/([^/]{1,64})(?:/[a-z]{1,16})?$")
#: How often a tunnel with nothing to carry checks that the worker at its other end listens, in seconds.
CHECK_SECONDS: Final = 1.0
#: How many times a request looks for a table's owner before it is answered here.
_TRIES: Final = 3


def table_of(path: str) -> str | None:
    """
    The id of the table *path* names, if it names one.

    >>> table_of("/ws/tables/0a1b2c3d4e"), table_of("/api/tables/0a1b2c3d4e/claim"), table_of("/api/tables")
    ('0a1b2c3d4e', '0a1b2c3d4e', None)
    """
    found = _TABLE_PATH.match(path)
    return None if found is None else found.group(1)


class _Served:
    """
    A tunnel this worker serves for another: whom it answers, the events that wait, its numbers.
    """

    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.events: asyncio.Queue[Message] = asyncio.Queue()
        self.received = 0
        self.sent = 0
        self.closed = False
        self.task: asyncio.Task[None] | None = None


class _Proxied:
    """
    A tunnel this worker opened to a table's owner: the events that came back, and their numbers.
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.events: asyncio.Queue[Message | None] = asyncio.Queue()
        self.received = 0
        self.sent = 0


class Router:
    """
    Sends each request about a table to the worker that owns it (see the module): this worker
    serves *hub*, owns its tables through *storage*'s leases, and reaches the others on the bus at
    *bus_url*.
    """

    def __init__(self, hub: Hub, storage: Leased, bus_url: str, limits: Limits) -> None:
        self.hub = hub
        self.storage = storage
        self.limits = limits
        self.worker = storage.owner
        self.bus = Bus(bus_url, self.worker, self._received)
        self.app: ASGIApp | None = None
        self._served: dict[str, _Served] = {}
        self._proxied: dict[str, _Proxied] = {}
        self._ids = itertools.count(1)
        self._checker: asyncio.Task[None] | None = None

    def mount(self, app: Starlette) -> None:
        """
        Put the router in front of *app*, outside its other middleware.
        """
        app.add_middleware(Routed, router=self)

    async def start(self) -> None:
        """
        Listen on the bus.
        """
        await self.bus.start()
        self._checker = asyncio.get_running_loop().create_task(self._check_peers())

    async def stop_serving(self) -> None:
        """
        End every tunnel served here: their clients connect again, and reach the table's next owner.
        """
        if self._checker is not None:
            self._checker.cancel()
        tasks = [served.task for served in self._served.values() if served.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def stop(self) -> None:
        """
        Leave the bus, once what waits to be sent is sent.
        """
        await self.bus.close()

    # The worker a request came to

    async def handle(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """
        Serve the request here, or tunnel it to the owner of its table.
        """
        self.app = app
        table_id = table_of(scope["path"]) if scope["type"] in {"http", "websocket"} else None
        owner = None if table_id is None else await self._owner(table_id)
        if owner is None:
            await app(scope, receive, send)
        else:
            await self._tunnel(owner, scope, receive, send)

    async def _owner(self, table_id: str) -> str | None:
        """
        The worker to send a request about *table_id* to; `None` to answer it here, once the table
        is taken over if its owner is gone.
        """
        for _ in range(_TRIES):
            if table_id in self.hub.tables:
                return None
            holder = await self.storage.holder(table_id)
            if holder is not None and holder[0] == self.worker:
                return None  # an ended table that has left this worker
            alive = holder is not None and await self.bus.alive(holder[0])
            if holder is not None and holder[1] and alive:
                return holder[0]
            taken = await self.storage.take(table_id, dead=None if holder is None or alive else holder[0])
            if taken:
                _log.info("table %s taken over from worker %s", table_id, holder[0] if holder else "none")
                await self.hub.adopt(taken)
                return None
            if holder is None:
                return None  # no table in play: the application says what became of it
        return None

    async def _tunnel(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        conn = f"{self.worker}.{next(self._ids)}"
        tunnel = self._proxied[conn] = _Proxied(owner)
        self._send_to(owner, tunnel, conn, {"op": "open", "from": self.worker, "scope": _events.scope_data(scope)})
        pump = asyncio.get_running_loop().create_task(self._pump(owner, tunnel, conn, receive))
        started = finished = False
        try:
            while not finished:
                try:
                    event = await asyncio.wait_for(tunnel.events.get(), CHECK_SECONDS)
                except TimeoutError:
                    if await self.bus.alive(owner):
                        continue
                    _log.warning("worker %s went away; its tunnel closes", owner)
                    event = None
                if event is None:
                    break
                await send(event)
                started = started or event["type"] in {"http.response.start", "websocket.accept"}
                finished = event["type"] == "websocket.close" or (
                    event["type"] == "http.response.body" and not event.get("more_body", False)
                )
            if not finished:
                await _close(scope, send, started=started)
        finally:
            pump.cancel()
            del self._proxied[conn]
            if not finished:
                gone = "websocket.disconnect" if scope["type"] == "websocket" else "http.disconnect"
                self._send_to(owner, tunnel, conn, {"op": "in", "event": {"type": gone, "code": 1001}})

    async def _pump(self, owner: str, tunnel: _Proxied, conn: str, receive: Receive) -> None:
        while True:
            event = await receive()
            self._send_to(owner, tunnel, conn, {"op": "in", "event": _events.event_data(event)})
            if event["type"] in {"http.disconnect", "websocket.disconnect"}:
                return

    def _send_to(self, owner: str, tunnel: _Proxied, conn: str, message: dict[str, Any]) -> None:
        tunnel.sent += 1
        self.bus.send(owner, {**message, "conn": conn, "n": tunnel.sent})

    # The worker that owns the table

    def _send(self, served: _Served, conn: str, message: dict[str, Any]) -> None:
        served.sent += 1
        self.bus.send(served.peer, {**message, "conn": conn, "n": served.sent})

    def _received(self, message: dict[str, Any]) -> None:
        """
        A message from the bus: a tunnel opened or fed here, or an answer to one opened here.
        """
        conn, op, number = message.get("conn"), message.get("op"), message.get("n")
        if not isinstance(conn, str) or len(conn) > 80 or isinstance(number, bool) or not isinstance(number, int):
            _log.warning("a message on the bus was dropped: no tunnel named")
            return
        if op == "open":
            self._open(conn, message)
        elif op == "in":
            self._feed(conn, number, message.get("event"))
        elif op in {"out", "end"} and (tunnel := self._proxied.get(conn)) is not None:
            tunnel.received += 1
            try:
                event = _checked(number, tunnel.received, message.get("event") if op == "out" else None, None)
            except ValueError as error:
                _log.info("a tunnel to worker %s closes: %s", tunnel.owner, error)
                event = None
            tunnel.events.put_nowait(event)

    def _open(self, conn: str, message: dict[str, Any]) -> None:
        peer = message.get("from")
        if not isinstance(peer, str) or len(peer) > 64 or conn in self._served or self.app is None:
            return
        served = _Served(peer)
        served.received = 1
        try:
            _check(len(self._served) < self.limits.max_connections, "this worker serves as many tunnels as it may")
            _check(message.get("n") == 1, "a tunnel opens with its first message")
            scope = _events.read_scope(message.get("scope"))
            _check(table_of(scope["path"]) is not None, "a tunnel carries a request about a table")
        except ValueError as error:
            _log.warning("a tunnel from worker %s was refused: %s", peer, error)
            self._send(served, conn, {"op": "end"})
            return
        self._served[conn] = served
        served.task = asyncio.get_running_loop().create_task(self._serve(conn, served, scope))

    def _feed(self, conn: str, number: int, data: object) -> None:
        served = self._served.get(conn)
        if served is None or served.closed:
            return
        served.received += 1
        try:
            _check(served.events.qsize() < self.limits.max_queued, f"{self.limits.max_queued} events wait")
            served.events.put_nowait(_checked(number, served.received, data, _events.INCOMING))
        except ValueError as error:
            _log.warning("a tunnel from worker %s closes: %s", served.peer, error)
            self._disconnect(served)

    def _disconnect(self, served: _Served) -> None:
        if not served.closed:
            served.closed = True
            served.events.put_nowait({"type": "websocket.disconnect", "code": 1001})
            served.events.put_nowait({"type": "http.disconnect"})

    async def _serve(self, conn: str, served: _Served, scope: Scope) -> None:
        async def send(event: Message) -> None:
            self._send(served, conn, {"op": "out", "event": _events.event_data(event)})

        assert self.app is not None  # noqa: S101 (checked when opened)
        try:
            table_id = table_of(scope["path"])
            if table_id is not None and table_id not in self.hub.tables:
                await _close(scope, send, started=False)  # the table left this worker: ask again
            else:
                await self.app(scope, served.events.get, send)
        except Exception:  # noqa: BLE001 (one tunnel's failure ends it alone)
            _log.exception("a tunnel from worker %s failed", served.peer)
        finally:
            self._served.pop(conn, None)
            self._send(served, conn, {"op": "end"})

    async def _check_peers(self) -> None:
        """
        Every `CHECK_SECONDS`, end the tunnels served for workers that went away.
        """
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            with contextlib.suppress(Exception):
                alive = await self.bus.alive_all(served.peer for served in self._served.values())
                for served in list(self._served.values()):
                    if not alive.get(served.peer, True):
                        self._disconnect(served)


def _check(condition: bool, problem: str) -> None:
    if not condition:
        raise ValueError(problem)


def _checked(number: int, expected: int, data: object, kinds: dict[str, dict[str, str]] | None) -> Message:
    """
    The event of a tunnel's message numbered *number*, checked: *expected* is the number it should
    have, and *kinds* the events the tunnel carries that way (`None`: those that come back).

    Raises:
        ValueError: a message was lost, or this is not such an event.
    """
    _check(number == expected, "a message of the tunnel was lost")
    _check(data is not None, "the other end ended the tunnel")
    return _events.read_event(data, _events.OUTGOING if kinds is None else kinds)


async def _close(scope: Scope, send: Send, *, started: bool) -> None:
    """
    End a request whose owner went away: a WebSocket closes with `MOVED`, an HTTP request is
    answered that the server is unavailable (or its body ends, if its answer had begun).
    """
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": MOVED, "reason": "the table's worker changed: connect again"})
    elif started:
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    else:
        body = b'{"error":{"code":"unavailable","message":"the table\'s worker changed: send it again"}}'
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


class Routed:
    """
    The ASGI middleware that hands each request to a `Router`.
    """

    def __init__(self, app: ASGIApp, *, router: Router) -> None:
        self.app = app
        self.router = router
        router.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.router.handle(self.app, scope, receive, send)
