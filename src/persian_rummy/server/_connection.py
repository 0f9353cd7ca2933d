"""
One client's socket, as the tables see it: its reader and the queue of messages written to it in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from . import _messages

_log: Final = logging.getLogger("persian_rummy.server")


class Connection:
    """
    One client's socket: its reader (a seat or `None`), and a queue of messages written in order.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        *,
        max_queued: int = 2_000,
    ) -> None:
        self.observer: int | None = None
        self._send = send
        self._close = close
        self._max_queued = max_queued
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.closed = False

    def push(self, text: str) -> None:
        """
        Queue *text* to be sent; a connection that lets too many messages wait is closed.
        """
        if self.closed:
            return
        if self._queue.qsize() >= self._max_queued:
            self.close(1008)
            return
        self._queue.put_nowait(text)

    def send(self, message: dict[str, object]) -> None:
        """
        Queue *message*.
        """
        self.push(_messages.encode(message))

    def close(self, code: int = 1000) -> None:
        """
        Close the connection once what is queued has been sent.
        """
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(code)

    async def write(self) -> None:
        """
        Send the queued messages in order until the connection closes.

        A message that cannot be sent closes the connection, with a line in the log: a writer
        never stops while its connection stays open.
        """
        while True:
            item = await self._queue.get()
            if isinstance(item, int):
                await self._close(item)
                return
            try:
                await self._send(item)
            except Exception as error:  # noqa: BLE001 (whatever sending raises, the connection closes)
                self.closed = True
                _log.warning(
                    "a message could not be sent (%s: %s); the connection is closed", type(error).__name__, error
                )
                with contextlib.suppress(Exception):
                    await self._close(1011)
                return
