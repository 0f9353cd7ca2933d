"""
Keeping a worker's leases: every `persian_rummy.server._postgres.RENEW_SECONDS`, a worker renews
the leases of the tables it serves, takes off itself those another worker has taken over, and takes
over the tables in play whose lease ran out (their worker died or stopped), replaying them from
the database.

The storage is any that has leases (`Leased`, which `PostgresStorage` is); this module imports no
database library.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from ._storage import Storage, StoredTable

if TYPE_CHECKING:
    from ._hub import Hub

_log: Final = logging.getLogger("persian_rummy.server")

#: The most tables one worker takes over in one round: the others are left to the next round, or
#: to other workers, so that the tables of a dead worker are shared out.
TAKE_AT_ONCE: Final = 200


@runtime_checkable
class Leased(Storage, Protocol):
    """
    A `Storage` whose tables are each owned by one worker at a time, through a lease.
    """

    owner: str
    lease_seconds: float

    async def take(
        self, table_id: str | None = None, *, dead: str | None = None, most: int = 1_000
    ) -> list[StoredTable]:
        """
        Take the leases of the tables in play no running lease holds (or of *table_id* alone), and
        those of the worker *dead*: the tables taken.
        """
        ...

    async def renew(self, table_ids: Collection[str]) -> set[str]:
        """
        Renew this worker's leases of *table_ids*: those it still owns.
        """
        ...

    async def holder(self, table_id: str) -> tuple[str, bool] | None:
        """
        Who holds the table's lease, and whether it runs; `None` for no lease.
        """
        ...


class LeaseKeeper:
    """
    Renews the leases of *hub*'s tables in *storage* every *period* seconds, lets go of the tables
    other workers took, and takes over those left without a running lease.
    """

    def __init__(self, hub: Hub, storage: Leased, *, period: float = 1.0) -> None:
        self.hub = hub
        self.storage = storage
        self.period = period
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """
        Start keeping the leases, in a task of the running loop.
        """
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """
        Stop keeping them (the storage ends them when it closes).
        """
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.round()
            except Exception:  # noqa: BLE001 (a database that does not answer: the next round tries again)
                _log.exception("the leases could not be renewed; trying again in %g s", self.period)

    async def round(self) -> None:
        """
        One round: renew, let go of the tables lost, take over the tables left.
        """
        served = set(self.hub.tables)
        held = await self.storage.renew(served) if served else set()
        for table_id in served - held:
            self.hub.lose(table_id)
        taken = await self.storage.take(most=TAKE_AT_ONCE)
        if taken:
            _log.info("took over %d table(s) whose lease had run out", len(taken))
            await self.hub.adopt(taken)
