"""
The workers' bus: Redis pub/sub (redis-py's asyncio client, the ``redis`` extra), one channel a
worker.

A worker listens on its own channel (`channel`) and sends to another's; what it sends leaves in
order, on one connection, by a task of its own that publishes whatever waits at once in one
round trip.  Whether a worker is alive is whether its channel has a listener: Redis forgets the
listener of a process that dies the moment its connection closes.

Every message is a JSON object of at most `MAX_MESSAGE` bytes; a larger one, or one that is not
JSON, is dropped with a line in the log.  At most `MAX_WAITING` messages wait to be sent; more are
dropped, as are those Redis did not take: the tunnels number their messages and close at a gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

try:
    from redis.asyncio import Redis
except ImportError as error:
    msg = "the bus of several workers needs the redis extra: pip install 'persian-rummy[redis]'"
    raise ModuleNotFoundError(msg, name=error.name) from error

_log: Final = logging.getLogger("persian_rummy.server")

#: The largest message on the bus, in bytes (a WebSocket frame of `_serving.MAX_FRAME`, in base64, fits).
MAX_MESSAGE: Final = 262_144
#: The most messages that may wait to be sent; more are dropped.
MAX_WAITING: Final = 100_000
#: How long an answer about whether a worker is alive is kept, in seconds.
ALIVE_SECONDS: Final = 0.5

Handler = Callable[[dict[str, Any]], None]


def channel(worker: str) -> str:
    """
    The channel of *worker*.
    """
    return f"persian-rummy:worker:{worker}"


class Bus:
    """
    This worker's end of the bus at *url* (``redis://host:port/0``): it is *worker*, and hands each
    message it receives to *handler*, in order.
    """

    def __init__(self, url: str, worker: str, handler: Handler) -> None:
        self.url = url
        self.worker = worker
        self.handler = handler
        self._redis: Redis | None = None
        self._waiting: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._alive: dict[str, tuple[float, bool]] = {}
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        """
        Connect, listen on this worker's channel, and start sending.
        """
        self._redis = Redis.from_url(self.url, decode_responses=False)
        await self._redis.ping()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send())]
        await asyncio.wait_for(self._subscribed.wait(), 30)

    def send(self, worker: str, message: dict[str, Any]) -> None:
        """
        Send *message* to *worker*, after every message sent before.
        """
        if self._waiting.qsize() >= MAX_WAITING:
            _log.error("a message to worker %s was dropped: %d messages wait to be sent", worker, MAX_WAITING)
            return
        self._waiting.put_nowait((channel(worker), json.dumps(message, separators=(",", ":"))))

    async def alive(self, worker: str) -> bool:
        """
        Whether *worker* listens on the bus (the answer is kept `ALIVE_SECONDS`).
        """
        now = time.monotonic()
        known = self._alive.get(worker)
        if known is not None and now - known[0] < ALIVE_SECONDS:
            return known[1]
        assert self._redis is not None, "the bus is not started"  # noqa: S101 (started first)
        counts = await self._redis.pubsub_numsub(channel(worker))
        answer = bool(counts and int(counts[0][1]) > 0)
        self._alive[worker] = (now, answer)
        if len(self._alive) > 10_000:
            self._alive.clear()
        return answer

    async def alive_all(self, workers: Iterable[str]) -> dict[str, bool]:
        """
        Which of *workers* listen on the bus.
        """
        return {worker: await self.alive(worker) for worker in set(workers)}

    async def _listen(self) -> None:
        assert self._redis is not None  # noqa: S101 (started first)
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.worker))
        self._subscribed.set()
        try:
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is None or message.get("type") != "message":
                    continue
                data = message["data"]
                if not isinstance(data, bytes) or len(data) > MAX_MESSAGE:
                    _log.warning("a message on the bus was dropped: not text, or over %d bytes", MAX_MESSAGE)
                    continue
                try:
                    parsed = json.loads(data)
                except ValueError:
                    _log.warning("a message on the bus was dropped: not JSON")
                    continue
                if isinstance(parsed, dict):
                    self.handler(parsed)
        except asyncio.CancelledError:
            raise
        except Exception:
            _log.exception("the bus stopped listening")
            raise
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _send(self) -> None:
        assert self._redis is not None  # noqa: S101 (started first)
        while True:
            batch = [await self._waiting.get()]
            while not self._waiting.empty() and len(batch) < 1_000:
                batch.append(self._waiting.get_nowait())
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for name, text in batch:
                        pipe.publish(name, text)
                    await pipe.execute()
            except Exception:  # noqa: BLE001 (a failed round: its messages are lost, their tunnels close)
                _log.exception("%d message(s) could not be sent on the bus", len(batch))
            for _ in batch:
                self._waiting.task_done()

    async def close(self) -> None:
        """
        Send what waits, stop listening and disconnect.
        """
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self._waiting.join()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._redis is not None:
            await self._redis.aclose()
