"""
The screenshots of the documentation of the table page (docs/index.md, docs/play-in-the-browser.md),
taken by playing a seeded game against three bots until melds are on the table.

``PERSIAN_RUMMY_WRITE_SCREENSHOTS=1`` writes them to ``docs/_static/screenshots/`` (see
CONTRIBUTING); otherwise the test plays the same game and checks that each committed picture is
there, a PNG at the size of its window.  A PNG is not compared byte for byte: the fonts and the
anti-aliasing of the browser change the pixels, not what the picture shows.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.e2e.test_browser import BOTS, MOST_ACTIONS, WAIT_MS, play_one, post, public_view, settled  # noqa: E402

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "_static" / "screenshots"
WRITE = os.environ.get("PERSIAN_RUMMY_WRITE_SCREENSHOTS") == "1"
#: The windows of the pictures: a laptop's and a phone's.
WINDOWS = {"browser-1280x800.png": (1280, 800, False), "browser-390x844.png": (390, 844, True)}
#: The melds on the table when the pictures are taken.
MELDS = 4
SPEC = {"name": "Screenshots", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 7}


def png_size(data: bytes) -> tuple[int, int]:
    """
    The width and the height of a PNG image, read from its header.
    """
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def at_the_seat(browser: Browser, address: str, window: tuple[int, int, bool]) -> Page:
    width, height, phone = window
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(address)
    return page


def test_the_screenshots_of_the_docs(server: str, browser: Browser) -> None:
    made = post(server, "/api/tables", SPEC)
    table = made["table"]["id"]
    claimed = post(server, f"/api/tables/{table}/claim", {"invite": made["invitations"][0]["invite"], "name": "Ann"})
    address = server + f"tables/{table}#token={claimed['token']}"
    windows = iter(WINDOWS.items())
    name, window = next(windows)
    page = at_the_seat(browser, address, window)
    for _ in range(MOST_ACTIONS):
        assert "turn" == settled(page), "the game ended before its melds were on the table"
        if len(public_view(server, table)["melds"]) >= MELDS:
            break
        play_one(page)
    else:
        pytest.fail("the game did not reach the table looked for")
    for letter in "ESW":  # a bot's seat says it is a bot, and which
        expect(page.locator(".seat-name", has_text=f"{letter} · greedy bot").first).to_be_visible()
    take(name, page)
    for name, window in windows:
        page = at_the_seat(browser, address, window)  # the seat moves to the newest page
        settled(page)
        take(name, page)


def take(name: str, page: Page) -> None:
    """
    The picture of *page*, written if asked; checks the committed one.
    """
    width, height, _ = WINDOWS[name]
    page.wait_for_selector("#hand .card", timeout=WAIT_MS)
    path = FOLDER / name
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'", timeout=WAIT_MS)  # as a person sees it
    if WRITE:
        FOLDER.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=path, animations="disabled", caret="hide")
    assert path.exists(), f"{path} is missing: run PERSIAN_RUMMY_WRITE_SCREENSHOTS=1 pytest {__file__}"
    assert (width, height) == png_size(path.read_bytes())
