"""
A match on a Dask cluster: ``Client(...).get_executor()`` is a ``concurrent.futures.Executor``, and
the match it plays is the serial one (persian_rummy.matches, docs/matches.md).  Needs the ``dask``
extra (``distributed``); ``nox -s dask`` runs this file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from persian_rummy.bots.players import RandomPlayer
from persian_rummy.matches import MatchResult, play_match

distributed = pytest.importorskip("distributed")
#: A client of the cluster (distributed's types are not needed to type-check the tests).
Client = Any


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """
    A client of a local cluster of two worker processes, one thread each.
    """
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


class TestDask:
    """
    The same seed gives the same result on a Dask cluster as in one process, whatever the tasks.
    """

    @pytest.mark.parametrize("chunk_size", [2, 5, None])
    def test_a_cluster_plays_the_serial_match(self, client: Client, chunk_size: int | None) -> None:
        serial = play_match(RandomPlayer(), RandomPlayer(), 16, seed=21, records=True)
        calls: list[tuple[int, int]] = []
        on_cluster = play_match(
            RandomPlayer(),
            RandomPlayer(),
            16,
            seed=21,
            records=True,
            executor=client.get_executor(),
            chunk_size=chunk_size,
            progress=lambda finished, total: calls.append((finished, total)),
        )
        assert serial == on_cluster
        assert (16, 16) == calls[-1]
        assert sorted(calls) == calls

    def test_the_result_of_the_cluster_reads_back_from_json(self, client: Client) -> None:
        result = play_match(RandomPlayer(), RandomPlayer(), 4, seed=2, executor=client.get_executor())
        assert result == MatchResult.from_json(result.to_json())
