"""
Serving the application with uvicorn, each connection bounded: how many are open, from one address
and in all, and how long one may take to send a request's head.

uvicorn itself keeps a connection that never sends a request open for good, and CPython's accept
loop logs each refused ``accept`` with its traceback, thousands a second once the process runs
out of file descriptors.  `serve` closes connections over the caps at once, closes those that are
slow to send their request's head, keeps the caps below the process's open-file limit, and logs
refused accepts at a bounded rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import signal
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from ._limits import Limits

_log: Final = logging.getLogger("persian_rummy.server")

#: The largest WebSocket frame the server reads, in bytes; a larger one closes its connection.
MAX_FRAME: Final = 65_536
#: File descriptors kept for what is not a client's connection: the database, the log, the threads.
RESERVED_FILES: Final = 64
#: How often the connections are looked over, in seconds.
SWEEP_SECONDS: Final = 0.5
#: At most one line about refused accepts in this many seconds.
ACCEPT_LOG_SECONDS: Final = 10.0


class _Open:
    __slots__ = ("address", "protocol", "since")

    def __init__(self, address: str, protocol: H11Protocol, since: float | None) -> None:
        self.address = address
        self.protocol = protocol
        self.since = since


class ConnectionGuard:
    """
    The open connections of one server, in all and by client address, and how long each has
    waited for a request's head.
    """

    def __init__(self, max_connections: int, per_address: int, header_timeout: float) -> None:
        self.max_connections = max_connections
        self.per_address = per_address
        self.header_timeout = header_timeout
        self._open: dict[asyncio.BaseTransport, _Open] = {}
        self._by_address: Counter[str] = Counter()
        self._sweeping: asyncio.TimerHandle | None = None
        self.refused = 0

    def admit(self, protocol: H11Protocol, transport: asyncio.BaseTransport) -> bool:
        """
        Whether a new connection may stay open; if so, it is counted.
        """
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if len(self._open) >= self.max_connections or (
            self.per_address and self._by_address[address] >= self.per_address
        ):
            self._prune()
        if len(self._open) >= self.max_connections or (
            self.per_address and self._by_address[address] >= self.per_address
        ):
            self.refused += 1
            return False
        self._open[transport] = _Open(address, protocol, time.monotonic())
        self._by_address[address] += 1
        if self._sweeping is None:
            self._sweeping = asyncio.get_running_loop().call_later(SWEEP_SECONDS, self._sweep)
        return True

    def forget(self, transport: asyncio.BaseTransport) -> None:
        """
        Stop counting a closed connection.
        """
        entry = self._open.pop(transport, None)
        if entry is not None:
            self._by_address[entry.address] -= 1
            if self._by_address[entry.address] <= 0:
                del self._by_address[entry.address]

    def heard(self, transport: asyncio.BaseTransport, waiting: bool) -> None:
        """
        A connection received bytes; *waiting* says whether it still waits for a request's head.
        """
        entry = self._open.get(transport)
        if entry is not None and not waiting:
            entry.since = None

    def answered(self, transport: asyncio.BaseTransport) -> None:
        """
        A connection's response was sent: it now waits for the next request's head.
        """
        entry = self._open.get(transport)
        if entry is not None:
            entry.since = time.monotonic()

    def _prune(self) -> None:
        for transport in [transport for transport in self._open if transport.is_closing()]:
            self.forget(transport)

    def _sweep(self) -> None:
        now = time.monotonic()
        self._prune()
        for transport, entry in list(self._open.items()):
            still_http = transport.get_protocol() is entry.protocol  # not yet a WebSocket
            if still_http and entry.since is not None and now - entry.since > self.header_timeout:
                transport.close()
                self.forget(transport)
        self._sweeping = asyncio.get_running_loop().call_later(SWEEP_SECONDS, self._sweep) if self._open else None


def guarded(guard: ConnectionGuard) -> type[H11Protocol]:
    """
    uvicorn's HTTP protocol (h11) under *guard*.
    """

    class GuardedH11Protocol(H11Protocol):
        refused = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not guard.admit(self, transport):
                self.refused = True
                transport.abort()
                return
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                return
            guard.forget(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            guard.heard(self.transport, self.conn.their_state is h11.IDLE)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            guard.answered(self.transport)

    return GuardedH11Protocol


def open_file_limit() -> int:
    """
    The process's limit of open files, raised first to its hard limit (at most 65,536) where it is lower.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65_536 if hard == resource.RLIM_INFINITY else min(hard, 65_536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft
        return wanted
    return wanted if soft == resource.RLIM_INFINITY else soft


class _AcceptLog:
    """
    The event loop's exception handler, but for refused accepts: one line at most every
    `ACCEPT_LOG_SECONDS`, with how many there were.
    """

    def __init__(self) -> None:
        self.count = 0
        self.last = -ACCEPT_LOG_SECONDS

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            loop.default_exception_handler(context)
            return
        self.count += 1
        now = time.monotonic()
        if now - self.last >= ACCEPT_LOG_SECONDS:
            _log.warning(
                "new connections are refused: %s (%d times since the last line)", context.get("exception"), self.count
            )
            self.count, self.last = 0, now


class _Server(uvicorn.Server):
    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(_AcceptLog())
        await super().startup(sockets)


def serve(
    app: ASGIApp, listener: socket.socket, limits: Limits, *, log_level: str, forwarded_allow_ips: str | None = None
) -> None:
    """
    Serve *app* on *listener* until interrupted, every connection within *limits*.

    With *forwarded_allow_ips* (addresses of trusted reverse proxies, comma-separated), a request
    from one of them is taken to come from the address its ``X-Forwarded-For`` header names.
    """
    files = open_file_limit()
    most = max(1, min(limits.max_connections, files - RESERVED_FILES))
    if most < limits.max_connections:
        _log.warning("at most %d connections: the process may open %d files", most, files)
    guard = ConnectionGuard(most, limits.max_connections_per_address, limits.header_timeout)
    # No per-message compression: the messages are small, and compressing each costs the server more
    # than it saves on a local network.
    config = uvicorn.Config(
        app,
        http=guarded(guard),
        log_level=log_level,
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        lifespan="on",
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        timeout_keep_alive=max(1, min(5, round(limits.header_timeout))),
    )
    _Server(config).run(sockets=[listener])


#: How long a worker that died waits before another is started in its place, in seconds.
RESTART_SECONDS: Final = 1.0


def serve_workers(  # noqa: PLR0913 (serve's arguments, and how many workers)
    make_app: Callable[[], ASGIApp],
    listener: socket.socket,
    limits: Limits,
    *,
    workers: int,
    log_level: str,
    forwarded_allow_ips: str | None = None,
) -> None:
    """
    Serve on *listener* from *workers* processes of their own, each the application *make_app*
    makes (in the process, after it is forked), until interrupted.

    A worker that dies is started again after `RESTART_SECONDS` (a new worker: its tables have
    been taken over by the others meanwhile, or are taken by it).  SIGTERM or SIGINT stops them all.
    """

    def run() -> None:
        serve(make_app(), listener, limits, log_level=log_level, forwarded_allow_ips=forwarded_allow_ips)

    _Workers(run).supervise(workers)


class _Workers:
    """
    Worker processes, each running *run*, and their supervision.
    """

    def __init__(self, run: Callable[[], None]) -> None:
        self.run = run
        self.children: dict[int, int] = {}
        self.stopping = False

    def start(self, index: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                self.run()
                status = 0
            finally:
                os._exit(status)
        self.children[pid] = index

    def stop(self, _signal: int, _frame: object) -> None:
        self.stopping = True
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def supervise(self, workers: int) -> None:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        for index in range(workers):
            self.start(index)
        while self.children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                return
            index = self.children.pop(pid, -1)
            if index >= 0 and not self.stopping:
                _log.warning(
                    "worker %d (process %d) ended (status %d); another starts in its place", index, pid, status
                )
                time.sleep(RESTART_SECONDS)
                self.start(index)
