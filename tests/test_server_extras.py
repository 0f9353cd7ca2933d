"""
The embedded server needs no service: ``persian-rummy serve`` with no options, and the application on
SQLite, load neither PostgreSQL's client nor Redis's (the ``postgres`` and ``redis`` extras), and the
options of several workers refuse what they cannot serve.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

pytest.importorskip("starlette")

from persian_rummy.cli import main

_LOADED = """
import sys
from starlette.testclient import TestClient
from persian_rummy.server import create_app
from persian_rummy.cli import _serve_command
with TestClient(create_app()) as client:
    client.get("/api/tables")
print(sorted(name for name in sys.modules if name.split(".")[0] in {"psycopg", "psycopg_pool", "redis"}))
"""


def test_the_embedded_server_loads_no_client_of_a_service() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _LOADED], capture_output=True, check=True, text=True, env=env)  # noqa: S603
    assert [] == ast.literal_eval(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        (["--workers", "2"], "several --workers need a postgresql:// --db and a --bus"),
        (["--bus", "redis://127.0.0.1:1/0"], "--bus needs a postgresql:// --db"),
        (["--db", "postgresql://db/cards", "--bus", "http://bus"], "--bus is a redis://"),
        (["--workers", "0"], "--workers must be from 1 to 64, not 0"),
    ],
)
def test_the_options_of_several_workers_are_checked(arguments: list[str], why: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", "0", *arguments])
    assert why in str(stopped.value.code)
