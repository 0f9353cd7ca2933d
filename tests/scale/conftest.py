"""
Fixtures of the tests of several workers: PostgreSQL and Redis, started for the session.

The tests run in ``nox -s server-scale`` (``pytest tests/scale``); the default run does not collect
this folder (``norecursedirs``).  They skip, saying why, where PostgreSQL, Redis or the ``postgres``
and ``redis`` extras are missing, unless ``PERSIAN_RUMMY_SCALE_REQUIRED`` is ``1`` (as the nox session
sets it), where a missing service fails them.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator

import pytest

from tests.scale import _services


@pytest.fixture(scope="session")
def services() -> Iterator[tuple[str, str]]:
    """
    The URLs of a PostgreSQL database and a Redis server started for the session.
    """
    absent = _services.missing()
    absent += [name for name in ("psycopg", "psycopg_pool", "redis") if importlib.util.find_spec(name) is None]
    if absent:
        reason = f"the tests of several workers need {', '.join(absent)} (.ci/run installs them)"
        if os.environ.get("PERSIAN_RUMMY_SCALE_REQUIRED") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    with _services.services() as urls:
        yield urls
