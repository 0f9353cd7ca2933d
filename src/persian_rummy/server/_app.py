"""
The ASGI application: the lobby's HTTP routes, the table WebSockets and the browser client's files.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

from attrs import frozen

try:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
except ImportError as error:
    msg = "persian_rummy.server needs the web framework of the server extra: pip install 'persian-rummy[server]'"
    raise ModuleNotFoundError(msg, name=error.name) from error

from .._core import jsontext as _jsontext
from ..exceptions import InvalidDataError
from . import _messages
from ._hub import Connection, Hub
from ._spec import SpecError
from ._storage import SqliteStorage, Storage
from ._table import RefusedError

STATIC: Final = Path(__file__).parent / "static"

#: How long a new connection has to send its ``hello``, in seconds.
HELLO_TIMEOUT: Final = 10.0


@frozen
class Limits:
    """
    What one client may send.

    Attributes:
        max_message: The longest message, in characters; a longer one is answered with ``too-large``.
        rate: Messages a second a connection may send on average.
        burst: Messages a connection may send at once before the rate applies.
        strikes: Messages over the rate after which the connection is closed.
        max_body: The longest HTTP request body, in bytes.
        max_tables: The most tables one server keeps.
        max_spectators: The most spectators of one table.
    """

    max_message: int = 8_192
    rate: float = 20.0
    burst: int = 40
    strikes: int = 100
    max_body: int = 65_536
    max_tables: int = 10_000
    max_spectators: int = 200


class _Bucket:
    """
    A token bucket: *rate* tokens a second, at most *burst* at once.
    """

    def __init__(self, rate: float, burst: int) -> None:
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


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(
    storage: Storage | str = ":memory:",
    *,
    bot_delay: float = 0.8,
    limits: Limits | None = None,
) -> Starlette:
    """
    The table server as an ASGI application, to serve with uvicorn or to mount in another application.

    *storage* is a `Storage`, or the path of an SQLite database file (``":memory:"`` keeps the
    tables in memory only).  Stored tables are read back and go on when the application starts.
    *bot_delay* is the bots' delay for tables that do not choose their own.

    >>> from starlette.testclient import TestClient
    >>> with TestClient(create_app()) as client:
    ...     made = client.post("/api/tables", json={"seats": ["person", "bot:greedy", "bot:greedy", "bot:greedy"]})
    ...     table = made.json()["table"]
    ...     [seat["kind"] for seat in table["seats"]], table["status"]
    (['person', 'bot', 'bot', 'bot'], 'waiting')
    """
    store = SqliteStorage(storage) if isinstance(storage, str) else storage
    hub = Hub(store, default_bot_delay=bot_delay)
    server = _Server(hub, limits or Limits())

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hub.start()
        # The tables read back, and the code, live as long as the server: keep them out of the
        # collector's way, so that its full collections stay short pauses.
        gc.freeze()
        yield
        await hub.stop()

    app = Starlette(routes=_routes(server), lifespan=lifespan)
    app.state.hub = hub
    return app


def _routes(server: _Server) -> list[BaseRoute]:
    """
    The routes of the lobby, the tables, their sockets and the client's files.
    """
    return [
        Route("/", server.lobby_page),
        Route("/tables/{table_id}", server.table_page),
        Route("/api/tables", server.list_tables, methods=["GET"]),
        Route("/api/tables", server.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", server.get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/claim", server.claim, methods=["POST"]),
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

    async def lobby_page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(self, request: Request) -> Response:
        if request.path_params["table_id"] not in self.hub.tables:
            return _error(404, "no-table", "no table has this id")
        return FileResponse(STATIC / "table.html")

    async def list_tables(self, _request: Request) -> Response:
        tables = [self.hub.summary(table) for table in self.hub.tables.values()]
        return JSONResponse({"protocol": _messages.PROTOCOL, "tables": tables})

    async def _body(self, request: Request) -> object:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limits.max_body):
            raise RefusedError("too-large", f"a request body is at most {self.limits.max_body} bytes")
        body = await request.body()
        if len(body) > self.limits.max_body:
            raise RefusedError("too-large", f"a request body is at most {self.limits.max_body} bytes")
        try:
            return _jsontext.decode(body, self.limits.max_body)
        except InvalidDataError as error:
            raise RefusedError("bad-json", f"the body is not JSON: {str(error).removeprefix('$: ')}") from error

    async def create_table(self, request: Request) -> Response:
        if len(self.hub.tables) >= self.limits.max_tables:
            return _error(503, "full", f"this server keeps at most {self.limits.max_tables} tables")
        try:
            table, invites = self.hub.create(await self._body(request))
        except RefusedError as error:
            return _error(400, error.code, str(error))
        except SpecError as error:
            return _error(400, "bad-table", str(error))
        invitations = [
            {"seat": seat, "invite": code, "url": f"/tables/{table.id}#invite={code}"} for seat, code in invites.items()
        ]
        return JSONResponse({"table": self.hub.summary(table), "invitations": invitations}, status_code=201)

    async def get_table(self, request: Request) -> Response:
        table = self.hub.tables.get(request.path_params["table_id"])
        if table is None:
            return _error(404, "no-table", "no table has this id")
        return JSONResponse(self.hub.summary(table))

    async def claim(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        if table_id not in self.hub.tables:
            return _error(404, "no-table", "no table has this id")
        try:
            body = await self._body(request)
            invite, name = _claim_fields(body)
            seat, token = self.hub.claim(table_id, invite, name)
        except RefusedError as error:
            return _error(403 if error.code == "unauthorized" else 400, error.code, str(error))
        return JSONResponse({"seat": seat, "token": token})

    async def record(self, request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = self.hub.tables.get(table_id)
        if table is None:
            return _error(404, "no-table", "no table has this id")
        text = self.hub.storage.record(table_id)
        if text is None:
            return _error(409, "not-over", "the record of a game is given once the game is over")
        headers = {"content-disposition": f'attachment; filename="persian-rummy-{table_id}.json"'}
        return Response(text, media_type="application/json", headers=headers)

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        connection = Connection(websocket.send_text, websocket.close)
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

    async def _serve(self, websocket: WebSocket, connection: Connection, table_id: str) -> None:
        table = self.hub.tables.get(table_id)
        if table is None:
            connection.send(_messages.error_message("bad-message", "no table has this id"))
            connection.close(4404)
            return
        try:
            hello = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
            connection.observer, since = self._hello(table_id, hello)
        except TimeoutError:
            connection.send(_messages.error_message("bad-message", f"no hello within {HELLO_TIMEOUT:g} seconds"))
            connection.close(4400)
            return
        except RefusedError as error:
            connection.send(_messages.error_message(error.code, str(error)))
            connection.close(4401 if error.code == "unauthorized" else 4400)
            return
        if connection.observer is None and self.hub.spectators(table_id) >= self.limits.max_spectators:
            connection.send(_messages.error_message("rate-limit", "this table has as many spectators as it takes"))
            connection.close(4429)
            return
        self.hub.join(table, connection, since)
        await self._listen(websocket, connection, table_id)

    def _hello(self, table_id: str, text: str) -> tuple[int | None, int | None]:
        message = _parse(text, self.limits.max_message)
        if message.get("type") != "hello":
            raise RefusedError("bad-message", "the first message must be a hello")
        token, since = message.get("token"), message.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int)):
            raise RefusedError("bad-message", "since is the number of the last event seen, or null")
        if token is None:
            return None, since
        if not isinstance(token, str):
            raise RefusedError("unauthorized", "a token is a string")
        return self.hub.seat_of(table_id, token), since

    async def _listen(self, websocket: WebSocket, connection: Connection, table_id: str) -> None:
        bucket = _Bucket(self.limits.rate, self.limits.burst)
        strikes = 0
        while not connection.closed:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(received.get("code", 1000))
            text = received.get("text")
            if not bucket.take():
                strikes += 1
                if strikes == 1 or strikes % 10 == 0:
                    connection.send(
                        _messages.error_message("rate-limit", f"at most {self.limits.rate:g} messages a second")
                    )
                if strikes >= self.limits.strikes:
                    connection.close(1008)
                continue
            try:
                self._handle(connection, table_id, text)
            except RefusedError as error:
                connection.send(_messages.error_message(error.code, str(error), rule=error.rule, reply_to=_id_of(text)))

    def _handle(self, connection: Connection, table_id: str, text: object) -> None:
        if not isinstance(text, str):
            raise RefusedError("bad-message", "messages are JSON text, not binary")
        message = _parse(text, self.limits.max_message)
        kind = message.get("type")
        if kind == "ping":
            connection.send({"type": "pong", "id": _short(message.get("id"))})
        elif kind == "act":
            if connection.observer is None:
                raise RefusedError("spectator", "a spectator cannot act")
            if "action" not in message:
                raise RefusedError("bad-message", "an act message needs its action")
            self.hub.act(table_id, connection.observer, message["action"])
        elif kind == "hello":
            raise RefusedError("bad-message", "this connection has said hello already")
        else:
            known = ", ".join(_messages.CLIENT_MESSAGES)
            raise RefusedError("bad-message", f"unknown message type {str(kind)[:40]!r} (the types are {known})")


def _parse(text: str, limit: int) -> dict[str, object]:
    if len(text) > limit:
        raise RefusedError("too-large", f"a message is at most {limit} characters")
    try:
        message = _jsontext.decode(text, limit)
    except InvalidDataError as error:
        raise RefusedError("bad-json", str(error).removeprefix("$: ")) from error
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
    if isinstance(value, str) and len(value) <= 64:
        return value
    return None


def _id_of(text: object) -> object:
    if not isinstance(text, str):
        return None
    try:
        message = _jsontext.decode(text, 8_192)
    except InvalidDataError:
        return None
    return _short(message.get("id")) if isinstance(message, dict) else None


def _claim_fields(body: object) -> tuple[str, str]:
    if not isinstance(body, dict):
        raise RefusedError("bad-message", 'a claim is {"invite": ..., "name": ...}')
    invite, name = body.get("invite"), body.get("name", "")
    if not isinstance(invite, str) or not invite or len(invite) > 100:
        raise RefusedError("unauthorized", "a claim needs the invitation's code")
    if not isinstance(name, str) or len(name) > 40 or not name.isprintable():
        raise RefusedError("bad-message", "a name is at most 40 printable characters")
    return invite, name.strip() or "Player"
