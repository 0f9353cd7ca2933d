"""
The screenshots of docs/play.md: the full-screen ``persian-rummy play`` at 80×24 and 160×50, in
SVG, drawn by Textual from a seeded game with five melds on the table.

``PERSIAN_RUMMY_WRITE_SCREENSHOTS=1`` writes them to ``docs/_static/screenshots/`` (see
CONTRIBUTING); otherwise the text the committed pictures show must be the text drawn today.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("textual", reason="the full screen needs textual (the cli extra)")

from textual.pilot import Pilot

from persian_rummy.cli._tui import PlayApp
from tests.test_cli_tui import _table, run, until

FOLDER = Path(__file__).resolve().parents[1] / "docs" / "_static" / "screenshots"
WRITE = os.environ.get("PERSIAN_RUMMY_WRITE_SCREENSHOTS") == "1"
SVG = "{http://www.w3.org/2000/svg}"


def screenshot(size: tuple[int, int]) -> str:
    """
    The screen at *size* at the person's 25th decision of the game of seed 6, in SVG.
    """
    shown: list[str] = []

    async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
        decisions = [0]

        def late(app: PlayApp) -> bool:
            decisions[0] += app.waiting == "move"
            return decisions[0] > 24  # the 25th decision: five melds on the table

        await until(app, pilot, late, limit=400)
        await pilot.pause()
        shown.append(app.export_screenshot(title="persian-rummy play"))

    run(_table(seed=6), drive, size)
    return shown[0]


def text_of(svg: str) -> list[str]:
    """
    The text an SVG screenshot shows, line by line, its spaces as spaces.
    """
    root = ET.fromstring(svg)  # noqa: S314 - our own pictures
    lines: dict[str, list[str]] = {}
    for node in root.iter(f"{SVG}text"):
        line = str(node.get("y"))
        lines.setdefault(line, []).append("".join(node.itertext()).replace("\xa0", " "))
    return ["".join(parts).rstrip() for parts in lines.values()]


@pytest.mark.once  # the same pictures on every Python: the first one's tests check them
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_screenshots_of_the_docs(size: tuple[int, int]) -> None:
    drawn = screenshot(size)
    path = FOLDER / f"terminal-{size[0]}x{size[1]}.svg"
    if WRITE and (not path.exists() or path.read_text(encoding="utf-8") != drawn):
        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(drawn, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run PERSIAN_RUMMY_WRITE_SCREENSHOTS=1 pytest {__file__}"
    committed = text_of(path.read_text(encoding="utf-8"))
    assert text_of(drawn) == committed, f"{path.name} is out of date: see CONTRIBUTING"
    assert any("run by N" in line or "run laid down by N" in line for line in committed)
