"""
The table server's own page *How to play* (``/how-to-play``): every rule and open point in its one
line, what each card scores, reachable from both pages of the server, the same whatever is asked.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from persian_rummy.rules import Rules
from persian_rummy.server import create_app
from persian_rummy.wording import RULE_SUMMARIES

STATIC = Path(__file__).parents[1] / "src" / "persian_rummy" / "server" / "static"


class _Texts(HTMLParser):
    """
    The page's texts as a browser shows them (entities read), each list item and table row apart.
    """

    def __init__(self) -> None:
        super().__init__()
        self.items: list[str] = []
        self.rows: list[list[str]] = []
        self.scripts = 0
        self._item: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            self._item = []
        elif tag == "tr":
            self._row = []
        elif tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._item is not None:
            self.items.append("".join(self._item))
            self._item = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._item is not None:
            self._item.append(data)
        if self._row is not None and data.strip():
            self._row.append(data.strip())


@pytest.fixture(scope="module")
def page() -> tuple[str, str]:
    with TestClient(create_app(":memory:")) as client:
        answer = client.get("/how-to-play")
        again = client.get("/how-to-play?table=<script>alert(1)</script>", headers={"accept-language": "fa"})
    assert 200 == answer.status_code
    assert answer.content == again.content  # nothing in a request goes into the page
    return answer.headers["content-type"], answer.text


def _texts(text: str) -> _Texts:
    texts = _Texts()
    texts.feed(text)
    return texts


def test_it_is_a_page(page: tuple[str, str]) -> None:
    kind, text = page
    assert "text/html; charset=utf-8" == kind
    assert "<title>How to play · Persian Rummy</title>" in text
    assert 0 == _texts(text).scripts


def test_every_rule_and_open_point_in_its_line(page: tuple[str, str]) -> None:
    items = [item for item in _texts(page[1]).items if re.match(r"[RA]\d+: ", item)]
    assert [f"{rule}: {summary}" for rule, summary in RULE_SUMMARIES.items()] == items
    assert 54 == len(items)  # R1 to R29, A1 to A25


def test_the_card_values(page: tuple[str, str]) -> None:
    values = Rules().card_values
    rows = _texts(page[1]).rows
    assert ["Card", "Points"] == rows[0]
    assert [
        ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], ["6", "6"], ["7", "7"], ["8", "8"], ["9", "9"],
        ["10", "10"], ["Jack", "10"], ["Queen", "10"], ["King", "10"], ["Ace", "15"], ["Joker", "20"],
    ] == rows[1:]  # fmt: skip
    assert (values.ace, values.joker) == (15, 20)


def test_each_rule_links_to_its_full_text(page: tuple[str, str]) -> None:
    links = re.findall(r'<a href="([^"]+)"[^>]*>([RA]\d+)</a>', page[1])
    assert [
        (f"https://persian-rummy.readthedocs.io/en/latest/rules.html#{rule.lower()}", rule) for rule in RULE_SUMMARIES
    ] == [(html.unescape(href), rule) for href, rule in links]


@pytest.mark.parametrize("name", ["index.html", "table.html"])
def test_both_pages_link_to_it(name: str) -> None:
    text = (STATIC / name).read_text(encoding="utf-8")
    assert 1 == text.count('href="/how-to-play"')
    assert 'id="how-to-play"' in text
