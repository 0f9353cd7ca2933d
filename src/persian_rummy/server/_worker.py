"""
Threads that do blocking work for an event loop: each call's result comes back as an asyncio future.

Lighter than `concurrent.futures.ThreadPoolExecutor` with `loop.run_in_executor`, which makes a
lock and a condition for every call: a call here is one put on a queue and one wake-up of the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, Final, TypeVar

_T = TypeVar("_T")

#: A call waiting for a thread: the loop to tell, its future, the function and its arguments.
_Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]

_STOP: Final = None


def settle(future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    """
    Give *future* its *result*, or its *error*, unless it was cancelled meanwhile (on its loop's thread).
    """
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def tell(
    loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: object, error: BaseException | None
) -> None:
    """
    Settle *future* on its *loop*, from another thread; nothing if the loop is closed.
    """
    with contextlib.suppress(RuntimeError):  # the loop closed while the call ran
        loop.call_soon_threadsafe(settle, future, result, error)


class Worker:
    """
    *threads* threads named *name* that run the calls given to them, first come first served.
    """

    def __init__(self, name: str, threads: int = 1) -> None:
        self._queue: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._serve, name=f"{name}_{number}", daemon=True) for number in range(threads)
        ]
        for thread in self._threads:
            thread.start()

    def call(self, function: Callable[..., _T], *args: object) -> asyncio.Future[_T]:
        """
        *function* called with *args* in one of the threads: a future of the running loop's.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._queue.put((loop, future, function, args))
        return future

    def _serve(self) -> None:
        while (item := self._queue.get()) is not _STOP:
            loop, future, function, args = item
            try:
                result = function(*args)
            except BaseException as error:  # noqa: BLE001 (handed to whoever awaits the call)
                tell(loop, future, None, error)
            else:
                tell(loop, future, result, None)

    def stop(self) -> None:
        """
        Let the threads end once the calls given before are done.
        """
        for _ in self._threads:
            self._queue.put(_STOP)
