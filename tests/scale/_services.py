"""
Throwaway PostgreSQL and Redis servers for the tests of several workers and for the benchmark.

`services` starts a PostgreSQL cluster (``initdb`` and ``pg_ctl`` of Debian's ``postgresql``
package, as the user ``postgres`` when run as root) and a Redis server (``redis-server``, no
persistence) in a temporary folder, each on a free loopback port, and stops both when its ``with``
block ends, however it ends.  `missing` says which of the programs is not installed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

#: Where Debian puts PostgreSQL's programs; the newest version found is used.
POSTGRES_ROOT: Final = Path("/usr/lib/postgresql")
#: How long a service has to answer once started, in seconds.
START_SECONDS: Final = 60.0


def _postgres_bin() -> Path | None:
    versions = sorted(POSTGRES_ROOT.glob("*/bin/initdb"), key=lambda path: int(path.parts[-3]))
    found = versions[-1].parent if versions else None
    if found is None and (initdb := shutil.which("initdb")) is not None:
        found = Path(initdb).parent
    return found


def missing() -> list[str]:
    """
    The programs the services need that are not installed (``initdb``, ``redis-server``).
    """
    absent = []
    if _postgres_bin() is None:
        absent.append("initdb (postgresql)")
    if shutil.which("redis-server") is None:
        absent.append("redis-server")
    return absent


def free_port() -> int:
    """
    A TCP port free on loopback now.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_owner(command: list[str]) -> list[str]:
    """
    *command* run as ``postgres`` when this process is root (PostgreSQL refuses to run as root).
    """
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _wait_for_port(port: int, what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not listen on port {port} within {START_SECONDS:g} s")
        time.sleep(0.05)


@contextlib.contextmanager
def postgres(folder: Path) -> Iterator[str]:
    """
    A PostgreSQL cluster in *folder* for the ``with`` block: its URL.
    """
    binaries = _postgres_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    data = folder / "pgdata"
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    initdb = [str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"]
    subprocess.run(_as_owner(initdb), check=True, **quiet)  # type: ignore[call-overload]  # noqa: S603
    port = free_port()
    settings = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    start = [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "postgres.log"), "-o", settings, "-w"]
    subprocess.run(_as_owner([*start, "start"]), check=True, **quiet)  # type: ignore[call-overload]  # noqa: S603
    try:
        _wait_for_port(port, "PostgreSQL")
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        stop = [str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
        subprocess.run(_as_owner(stop), check=False, **quiet)  # type: ignore[call-overload]  # noqa: S603


@contextlib.contextmanager
def redis(folder: Path) -> Iterator[str]:
    """
    A Redis server for the ``with`` block, keeping nothing on disk: its URL.
    """
    server = shutil.which("redis-server")
    if server is None:
        raise RuntimeError("Redis is not installed (apt-get install redis-server)")
    port = free_port()
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    command += ["--dir", str(folder)]
    with (folder / "redis.log").open("w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        _wait_for_port(port, "Redis")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextlib.contextmanager
def services() -> Iterator[tuple[str, str]]:
    """
    PostgreSQL and Redis, started in a temporary folder for the ``with`` block: their URLs.
    """
    with tempfile.TemporaryDirectory(prefix="persian-rummy-services-") as name:
        folder = Path(name)
        folder.chmod(0o755)
        with postgres(folder / "pg") as database, redis(folder) as bus:
            yield database, bus
