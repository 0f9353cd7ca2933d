"""
Fixtures of the browser tests: the table server as a subprocess, Chromium driven by Playwright, the
artifacts' folder.

The tests run in ``nox -s server`` (``pytest tests/e2e``); the default run does not collect this
folder (``norecursedirs``), so it starts no server and no browser. They skip, saying why, when
Playwright or Debian's Chromium (``/usr/bin/chromium``) is missing: Playwright cannot download
its own browsers here.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_COMMAND = [
    *(sys.executable, "-m", "persian_rummy", "serve", "--port", "0", "--db", ":memory:", "--bot-delay", "0"),
    *("--allow-seed", "--tables-per-minute", "0"),  # the tests choose their deals, and make many tables
]
SERVING = re.compile(r"Serving on (http://127\.0\.0\.1:\d+/)")
STARTUP_SECONDS = 30


def _first_line(process: subprocess.Popen[str]) -> str:
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=STARTUP_SECONDS)
    except queue.Empty:
        return ""


def _wait_until_it_answers(address: str) -> None:
    """
    Waits until the server answers HTTP: it may say where it serves a moment before it listens.
    """
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with urllib.request.urlopen(address + "api/tables", timeout=5):  # noqa: S310 - loopback
                return
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """
    The address of a table server started for the session (in-memory database, bots without delay).
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(  # noqa: S603 - our own command
        SERVER_COMMAND, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        line = _first_line(process)
        found = SERVING.search(line)
        if found is None:
            pytest.fail(f"the server did not say where it serves; its first line was {line!r}")
        _wait_until_it_answers(found.group(1))
        yield found.group(1)
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """
    Debian's Chromium, headless, for one module: Playwright's synchronous API runs an event loop
    while it is open, and the tests of other modules run their own with `asyncio.run`.
    """
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's chromium package); Playwright cannot download one here")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """
    Where the screenshots go: ``$PERSIAN_RUMMY_ARTIFACTS``, else ``.artifacts/browser/``.
    """
    folder = Path(os.environ.get("PERSIAN_RUMMY_ARTIFACTS") or ROOT / ".artifacts" / "browser")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
