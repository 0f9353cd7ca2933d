"""
The rules page, docs/rules.md, as the tests read it: the rules (R1, R2, ...) and the open points
(A1, A2, ...) by their headings (``### A25 – Order of dealing and the cut``), each with its text,
and the table of switches.  The project's rules document is not in this repository: the page is
where the tests find the ids.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
PAGE: Final = ROOT / "docs" / "rules.md"
#: A rule's heading: its id, a dash and its title.
HEADING: Final = re.compile(r"^### ([RA])(\d+) – .+$", re.MULTILINE)
#: A row of the table of switches: the field, its default, its values and the rules it concerns.
SWITCH_ROW: Final = re.compile(r"^\| `(\w+)` \| .* \| ([^|]*) \|$", re.MULTILINE)


def text() -> str:
    """
    The page's Markdown.
    """
    return PAGE.read_text(encoding="utf-8")


def rule_ids() -> list[str]:
    """
    The id of every heading of a rule or an open point, in the order of the page.
    """
    return [letter + number for letter, number in HEADING.findall(text())]


def section(rule: str) -> str:
    """
    The text of the rule *rule*, from its heading to the next heading of the page.
    """
    page = text()
    start = re.search(rf"^### {rule} – ", page, re.MULTILINE)
    assert start is not None, f"docs/rules.md has no heading {rule}"
    end = re.compile(r"^#{1,3} ", re.MULTILINE).search(page, start.end())
    return page[start.start() : end.start() if end else len(page)]


def switch_rows() -> dict[str, str]:
    """
    The rows of the table of switches (``## The rule switches``): the rules column, by field.
    """
    table = text().partition("\n## The rule switches\n")[2].partition("\n## ")[0]
    return dict(SWITCH_ROW.findall(table))
