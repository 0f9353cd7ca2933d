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
import secrets
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


@pytest.fixture
def postgres_url(services: tuple[str, str]) -> Iterator[str]:
    """
    The URL of a new, empty database on the session's PostgreSQL server, dropped after the test.
    """
    import psycopg  # noqa: PLC0415 (the postgres extra, checked by `services`)

    server, _ = services
    name = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'create database "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'drop database "{name}" with (force)')
