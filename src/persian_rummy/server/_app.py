"""
The ASGI application: the lobby's HTTP routes, the table WebSockets and the browser client's files.

Every byte a request sends is taken as hostile: the bodies are JSON of a bounded size read within a
bounded time, the requests that change something must come from the server's own pages (their
``Origin``) or from a program that sends none, the table creations of one address are rate-limited,
and a bot is named from the server's registry, never imported.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import time
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.types import ASGIApp, Receive, Scope, Send
    from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
except ImportError as error:
    msg = "persian_rummy.server needs the web framework of the server extra: pip install 'persian-rummy[server]'"
    raise ModuleNotFoundError(msg, name=error.name) from error

from ..exceptions import InvalidDataError
from ..serialize import parse_json
from . import _guide, _messages
from ._bots import BotRegistry, Factory
from ._connection import Connection
from ._hub import GONE, Hub
from ._lease import Leased, LeaseKeeper
from ._limits import Limits
from ._spec import SpecError
from ._storage import SqliteStorage, Storage
from ._table import RefusedError

if TYPE_CHECKING:
    from ._route import Router

STATIC: Final = Path(__file__).parent / "static"

#: The HTTP status of each error code an HTTP route answers with.
_STATUS: Final = {
    "bad-json": 400,
    "bad-message": 400,
    "bad-table": 400,
    "bad-host": 400,
    "unauthorized": 403,
    "bad-origin": 403,
    "no-table": 404,
    "timeout": 408,
    "not-over": 409,
    "game-over": 409,
    "gone": 410,
    "too-large": 413,
    "bad-content-type": 415,
    "rate-limit": 429,
    "full": 503,
    "unavailable": 503,
}

#: The close code of a WebSocket that sent nothing for `Limits.idle_timeout` seconds.
IDLE: Final = 4408


class _Bucket:
    """
    A token bucket: *rate* tokens a second, at most *burst* at once.
    """

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.last) * self.rate >= self.burst


class _Buckets:
    """
    A token bucket for each client address (IPv6 addresses by their /64 network); forgotten once full again.
    """

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, _Bucket] = {}

    def take(self, address: str) -> bool:
        if self.per_minute == 0:
            return True
        if len(self._buckets) > 10_000:
            self._buckets = {key: bucket for key, bucket in self._buckets.items() if not bucket.full()}
        bucket = self._buckets.get(key := address_key(address))
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.per_minute / 60, max(1.0, self.per_minute))
        return bucket.take()


def address_key(address: str) -> str:
    """
    Whom a client address stands for: itself, or the /64 network of an IPv6 address.

    >>> address_key("192.0.2.7"), address_key("2001:db8::1:2:3:4")
    ('192.0.2.7', '2001:db8::/64')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _error(code: str, message: str, **more: object) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}, **more}, status_code=_STATUS[code])


def create_app(  # noqa: PLR0913 (the server's settings)
    storage: Storage | str = ":memory:",
    *,
    bot_delay: float = 0.8,
    limits: Limits | None = None,
    bots: Mapping[str, str | Factory] | None = None,
    allow_seed: bool = False,
    allow_origins: Collection[str] = (),
    allowed_hosts: Collection[str] | None = None,
    bus: str | None = None,
) -> Starlette:
    """
    The table server as an ASGI application, to serve with uvicorn or to mount in another application.

    *storage* is a `Storage`, the path of an SQLite database file (``":memory:"`` keeps the tables
    in memory only), or a ``postgresql://`` URL shared by the workers that meet on the ``redis://``
    *bus* (the documentation's "Several workers").  Stored tables go on when the application starts.
    *bot_delay* is the bots' delay for tables that do not choose their own, *limits* bound what
    the server gives out, and *bots* adds the operator's bots to the shipped ones, by name (a
    `persian_rummy.bots.players.make_player` spec, loaded now, or a function that makes a player).
    With *allow_seed*, a table may be made with a seed, so that its deals can be foretold.

    A request that changes something (a ``POST``, a ``DELETE``, a WebSocket) and says where it
    comes from (``Origin``) must come from this server's own address or one of *allow_origins*
    (``"https://cards.example"``).  With *allowed_hosts*, a request must name one of them as its
    ``Host`` (any port), which keeps pages of other sites from reaching the server through a
    name of theirs; `None` takes every host.

    >>> from starlette.testclient import TestClient
    >>> with TestClient(create_app()) as client:
    ...     made = client.post("/api/tables", json={"seats": ["person", "bot:greedy", "bot:greedy", "bot:greedy"]})
    ...     table = made.json()["table"]
    ...     [seat["kind"] for seat in table["seats"]], table["status"], table["seeded"]
    (['person', 'bot', 'bot', 'bot'], 'waiting', False)
    """
    limits = limits or Limits()
    registry = BotRegistry(limits, bots)
    hub = Hub(_storage(storage), limits=limits, registry=registry, default_bot_delay=bot_delay, allow_seed=allow_seed)
    app = Starlette(routes=_routes(_Server(hub, limits)), lifespan=_lifespan(hub))
    app.add_middleware(_Gate, allow_origins=frozenset(allow_origins), allowed_hosts=allowed_hosts)
    app.state.hub = hub
    app.state.router = None if bus is None else _router(app, hub, bus, limits)
    return app


def _router(app: Starlette, hub: Hub, bus: str, limits: Limits) -> Router:
    """
    The router of a worker among several, on the bus at *bus*, put in front of *app*.
    """
    if not isinstance(hub.storage, Leased):
        msg = "a bus serves workers that share a PostgreSQL database: give a postgresql:// URL as the storage"
        raise ValueError(msg)  # noqa: TRY004 (a setting, not a type)
    from ._route import Router  # noqa: PLC0415 (the redis extra, loaded only with a bus)

    router = Router(hub, hub.storage, bus, limits)
    router.mount(app)
    return router


def _storage(where: Storage | str) -> Storage:
    """
    The storage *where* is or names: a PostgreSQL URL, or the path of an SQLite file.
    """
    if not isinstance(where, str):
        return where
    if where.startswith(("postgresql://", "postgres://")):
        from ._postgres import PostgresStorage  # noqa: PLC0415 (the postgres extra, loaded only when asked for)

        return PostgresStorage(where)
    return SqliteStorage(where)


def _lifespan(hub: Hub) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        router: Router | None = app.state.router
        keeper = LeaseKeeper(hub, hub.storage) if isinstance(hub.storage, Leased) else None
        if router is not None:
            await router.start()
        await hub.start()
        if keeper is not None:
            keeper.start()
        # The tables read back, and the code, live as long as the server: keep them out of the
        # collector's way, so that its full collections stay short pauses.
        gc.freeze()
        yield
        if keeper is not None:
            await keeper.stop()
        if router is not None:
            await router.stop_serving()
        await hub.stop()
        if router is not None:
            await router.stop()

    return lifespan


class _Gate:
    """
    Refuses what a browser could be made to send against its own user: a ``Host`` the server does not
    answer to, and a request that changes something from a page of another origin.
    """

    def __init__(self, app: ASGIApp, *, allow_origins: frozenset[str], allowed_hosts: Collection[str] | None) -> None:
        self.app = app
        self.allow_origins = allow_origins
        self.allowed_hosts = None if allowed_hosts is None else frozenset(host.lower() for host in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in {"http", "websocket"}:
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        refusal: tuple[str, str] | None = None
        if self.allowed_hosts is not None and _hostname(host) not in self.allowed_hosts:
            refusal = ("bad-host", "this server does not answer to that host name")
        elif (
            scope["type"] == "websocket" or scope["method"] not in {"GET", "HEAD", "OPTIONS"}
        ) and not self._origin_ok(headers.get("origin"), host):
            refusal = ("bad-origin", "a request from a page of another site")
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4403, "reason": refusal[1]})
        else:
            await _error(*refusal)(scope, receive, send)

    def _origin_ok(self, origin: str | None, host: str) -> bool:
        if origin is None:
            return True  # not a browser's request: browsers say where every such request comes from
        if origin in self.allow_origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in {"http", "https"} and bool(parts.netloc) and parts.netloc.lower() == host.lower()


def _hostname(host: str) -> str:
    """
    The name in a ``Host`` header, without its port.

    >>> _hostname("Example.org:8000"), _hostname("[::1]:8000"), _hostname("127.0.0.1")
    ('example.org', '::1', '127.0.0.1')
    """
    host = host.lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _routes(server: _Server) -> list[BaseRoute]:
    """
    The routes of the lobby, the tables, their sockets and the client's files.
    """
    return [
        Route("/", server.lobby_page),
        Route("/tables/{table_id}", server.table_page),
        Route("/how-to-play", server.guide_page),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", server.get_table, methods=["GET"]),
        Route("/api/tables/{table_id}", server.delete_table, methods=["DELETE"]),
        Route("/api/tables/{table_id}/claim", server.claim, methods=["POST"]),
        Route("/api/tables/{table_id}/abort", server.abort, methods=["POST"]),
        Route("/api/tables/{table_id}/record", server.record, methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]


class _Server:
    """
    The routes' handlers, around one `Hub`.
    """

    def __init__(self, hub: Hub, limits: Limits) -> None:
        self.hub = hub
        self.limits = limits
        self.creations = _Buckets(limits.tables_per_minute)

    async def _gone(self, table_id: str) -> Response:
        """
        The answer about a table that is not on the server: gone, with its record, or never there.
        """
        if len(table_id) <= 64 and await self.hub.storage.record(table_id) is not None:
            return _error("gone", "the table has ended and left the server", record=f"/api/tables/{table_id}/record")
        return _error("no-table", "no table has this id")

    async def lobby_page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def guide_page(self, _request: Request) -> Response:
        return Response(_guide.how_to_play(), media_type="text/html; charset=utf-8")

    async def table_page(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if table_id not in self.hub.tables and len(table_id) <= 64 and await self.hub.storage.record(table_id) is None:
            return _error("no-table", "no table has this id")
        return FileResponse(STATIC / "table.html")

    async def list_tables(self, request: Request) -> Response:
        page, status = request.query_params.get("page", "1"), request.query_params.get("status")
        if not page.isdigit() or not 1 <= int(page) <= 1_000_000:
            return _error("bad-message", "page is a whole number from 1")
        if status not in {None, "waiting", "playing", "over", "aborted", "expired"}:
            return _error("bad-message", "status is waiting, playing, over, aborted or expired")
        return JSONResponse(self.hub.listing(int(page), status))

    async def _body(self, request: Request) -> object:
        """
        The request's body, JSON of at most `Limits.max_body` bytes sent within `Limits.body_timeout` seconds.
        """
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            raise RefusedError("bad-content-type", "a request body is JSON, sent as application/json")
        limit = self.limits.max_body
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise RefusedError("too-large", f"a request body is at most {limit} bytes")
        body = bytearray()
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > limit:
                        raise RefusedError("too-large", f"a request body is at most {limit} bytes")
        except TimeoutError:
            raise RefusedError(
                "timeout", f"a request body is sent within {self.limits.body_timeout:g} seconds"
            ) from None
        return _decoded(bytes(body), limit)

    async def create_table(self, request: Request) -> Response:
        address = request.client.host if request.client else ""
        try:
            data = await self._body(request)
            self._may_create(address)
            table, invites, admin = await self.hub.create(data)
        except RefusedError as error:
            return _error(error.code, str(error))
        except SpecError as error:
            return _error("bad-table", str(error))
        invitations = [
            {"seat": seat, "invite": code, "url": f"/tables/{table.id}#invite={code}"} for seat, code in invites.items()
        ]
        answer = {"table": self.hub.summary(table), "invitations": invitations, "admin": admin}
        return JSONResponse(answer, status_code=201)

    def _may_create(self, address: str) -> None:
        if not self.creations.take(address):
            per_minute = self.limits.tables_per_minute
            raise RefusedError("rate-limit", f"at most {per_minute:g} tables a minute from one address")
        if len(self.hub.tables) >= self.limits.max_tables:
            raise RefusedError("full", f"this server keeps at most {self.limits.max_tables} tables")

    async def get_table(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        live = self.hub.tables.get(table_id)
        if live is None:
            return await self._gone(table_id)
        return JSONResponse(self.hub.summary(live.table))

    async def claim(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if table_id not in self.hub.tables:
            return await self._gone(table_id)
        try:
            invite, name = _claim_fields(await self._body(request))
            seat, token = await self.hub.claim(table_id, invite, name)
        except RefusedError as error:
            return _error(error.code, str(error))
        return JSONResponse({"seat": seat, "token": token})

    async def abort(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if table_id not in self.hub.tables:
            return await self._gone(table_id)
        try:
            table = await self.hub.abort(table_id, _bearer(request))
        except RefusedError as error:
            return _error(error.code, str(error))
        return JSONResponse(self.hub.summary(table))

    async def delete_table(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if table_id not in self.hub.tables:
            return await self._gone(table_id)
        try:
            await self.hub.delete(table_id, _bearer(request))
        except RefusedError as error:
            return _error(error.code, str(error))
        return Response(status_code=204)

    async def record(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        text = await self.hub.storage.record(table_id) if len(table_id) <= 64 else None
        if text is None:
            if table_id in self.hub.tables:
                return _error("not-over", "the record of a game is given once the table has ended")
            return _error("no-table", "no table has this id")
        headers = {"content-disposition": f'attachment; filename="persian-rummy-{table_id}.json"'}
        return Response(text, media_type="application/json", headers=headers)

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket.send_text, websocket.close, max_queued=self.limits.max_queued)
        writer = asyncio.get_running_loop().create_task(connection.write())
        table_id = websocket.path_params["table_id"]
        try:
            await self._serve(websocket, connection, table_id)
        except WebSocketDisconnect:
            pass
        finally:
            self.hub.leave(table_id, connection)
            connection.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    async def _refuse(self, connection: Connection, code: str, message: str, close: int) -> None:
        connection.send(_messages.error_message(code, message))
        connection.close(close)

    async def _serve(self, websocket: WebSocket, connection: Connection, table_id: str) -> None:
        if table_id not in self.hub.tables:
            if len(table_id) <= 64 and await self.hub.storage.record(table_id) is not None:
                why = f"the table has ended and left the server; its record is at /api/tables/{table_id}/record"
                await self._refuse(connection, "gone", why, GONE)
            else:
                await self._refuse(connection, "no-table", "no table has this id", 4404)
            return
        try:
            received = await asyncio.wait_for(websocket.receive(), self.limits.hello_timeout)
            _disconnected(received)
            connection.observer, since = self._hello(table_id, received.get("text"))
        except TimeoutError:
            await self._refuse(
                connection, "bad-message", f"no hello within {self.limits.hello_timeout:g} seconds", 4400
            )
            return
        except RefusedError as error:
            closing = {"unauthorized": 4401, "no-table": 4404}.get(error.code, 4400)
            await self._refuse(connection, error.code, str(error), closing)
            return
        live = self.hub.tables.get(table_id)
        if live is None:
            await self._refuse(connection, "gone", "the table has left the server", GONE)
            return
        if connection.observer is None and len(live.spectators) >= self.limits.max_spectators:
            await self._refuse(connection, "rate-limit", "this table has as many spectators as it takes", 4429)
            return
        self.hub.join(live, connection, since)
        await self._listen(websocket, connection, table_id)

    def _hello(self, table_id: str, text: object) -> tuple[int | None, int | None]:
        message = _parse(text, self.limits.max_message)
        if message.get("type") != "hello":
            raise RefusedError("bad-message", "the first message must be a hello")
        token, since = message.get("token"), message.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            raise RefusedError("bad-message", "since is the number of the last event seen, or null")
        if token is None:
            return None, since
        if not isinstance(token, str) or len(token) > 100:
            raise RefusedError("unauthorized", "a token is a string")
        return self.hub.seat_of(table_id, token), since

    async def _listen(self, websocket: WebSocket, connection: Connection, table_id: str) -> None:
        bucket = _Bucket(self.limits.rate, self.limits.burst)
        address = websocket.client.host if websocket.client else ""
        strikes = 0
        while not connection.closed:
            try:
                async with asyncio.timeout(self.limits.idle_timeout):
                    received = await websocket.receive()
            except TimeoutError:
                idle = f"nothing was sent for {self.limits.idle_timeout:g} seconds (send a ping now and then)"
                await self._refuse(connection, "idle", idle, IDLE)
                return
            _disconnected(received)
            text = received.get("text")
            if not bucket.take():
                strikes += 1
                rate = f"at most {self.limits.rate:g} messages a second: this one was dropped"
                connection.send(_messages.error_message("rate-limit", rate, reply_to=_id_of(text)))
                if strikes >= self.limits.strikes:
                    connection.close(1008)
                continue
            try:
                await self._handle(connection, table_id, text, address)
            except RefusedError as error:
                connection.send(_messages.error_message(error.code, str(error), rule=error.rule, reply_to=_id_of(text)))

    async def _handle(self, connection: Connection, table_id: str, text: object, address: str) -> None:
        message = _parse(text, self.limits.max_message)
        kind = message.get("type")
        if kind == "ping":
            connection.send({"type": "pong", "id": _short(message.get("id"))})
        elif kind in {"act", "next-deal", "rematch"}:
            seat = connection.observer
            if seat is None:
                raise RefusedError("spectator", "a spectator cannot act")
            if kind == "next-deal":
                await self.hub.next_deal(table_id, seat)
            elif kind == "rematch":
                await self.hub.rematch(table_id, seat, lambda: self._may_create(address))
            elif "action" not in message:
                raise RefusedError("bad-message", "an act message needs its action")
            else:
                await self.hub.act(table_id, seat, message["action"])
        elif kind == "hello":
            raise RefusedError("bad-message", "this connection has said hello already")
        else:
            known = ", ".join(_messages.CLIENT_MESSAGES)
            raise RefusedError("bad-message", f"unknown message type {str(kind)[:40]!r} (the types are {known})")


def _disconnected(received: Mapping[str, object]) -> None:
    if received["type"] == "websocket.disconnect":
        code = received.get("code", 1000)
        raise WebSocketDisconnect(code if isinstance(code, int) else 1000)


def _decoded(text: str | bytes, limit: int) -> object:
    """
    The JSON value of *text*, which holds no lone surrogate (``"\\ud800"``), a string no text can carry.
    """
    try:
        value = parse_json(text, limit=limit)
    except InvalidDataError as error:
        raise RefusedError("bad-json", f"not JSON: {str(error).removeprefix('$: ')}") from error
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise RefusedError("bad-json", "a string holds a lone surrogate, which no text can carry") from None
    return value


def _parse(text: object, limit: int) -> dict[str, object]:
    if not isinstance(text, str):
        raise RefusedError("bad-message", "messages are JSON text, not binary")
    if len(text) > limit:
        raise RefusedError("too-large", f"a message is at most {limit} characters")
    message = _decoded(text, limit)
    if not isinstance(message, dict):
        raise RefusedError("bad-message", "a message is a JSON object with a type")
    return message


def _short(value: object) -> object:
    """
    A client's message id, echoed if it is short: a number or a string of at most 64 characters.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int) and abs(value) < 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64 and value.isprintable():
        return value
    return None


def _id_of(text: object) -> object:
    if not isinstance(text, str) or len(text) > 8_192:
        return None
    try:
        message = parse_json(text, limit=8_192)
    except InvalidDataError:
        return None
    return _short(message.get("id")) if isinstance(message, dict) else None


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token or len(token) > 100:
        raise RefusedError("unauthorized", "send the table's admin token as Authorization: Bearer TOKEN")
    return token.strip()


def _claim_fields(body: object) -> tuple[str, str]:
    if not isinstance(body, dict):
        raise RefusedError("bad-message", 'a claim is {"invite": ..., "name": ...}')
    invite, name = body.get("invite"), body.get("name", "")
    if not isinstance(invite, str) or not invite or len(invite) > 100:
        raise RefusedError("unauthorized", "a claim needs the invitation's code")
    if not isinstance(name, str) or len(name) > 40 or not name.isprintable():
        raise RefusedError("bad-message", "a name is at most 40 printable characters")
    return invite, name.strip() or "Player"
