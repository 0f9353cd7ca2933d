"""
The rule ids: the headings of the rules page (docs/rules.md), which number the rules R1, R2, ...
and the open points A1, A2, ... from one; the counts of them that the package and the docs quote
("A1-A25", "R1 to R29"), which must follow the headings; and the ids that the package names (the
``rule`` metadata of each field of `Rules`, the rules an `IllegalActionError` cites, the links to
the page), each of which must be a heading there.  A new open point is a new heading, and these
tests then name every place that counts the open points.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attrs

from persian_rummy import Rules
from tests import rules_page
from tests.switches import NAMES

ROOT = rules_page.ROOT
PACKAGE = ROOT / "src" / "persian_rummy"
#: A count quoted as the range of the ids from the first: "A1-A25", "A1 to A25", "R1–R29".
COUNT = re.compile(r"\b([RA])1(?:-|–| to )\1(\d+)\b")
#: A rule id as the package writes it in a string of its own: "A13", "R15".
RULE_ID = re.compile(r"[RA]\d+")
#: A link to a rule on the rules page: ``rules.md#a7`` from another page, ``(#a7)`` on the page.
LINK = re.compile(r"(?:rules\.md#|\]\(#)([ra]\d+)\b")
#: The pages whose text is read for counts and links: the package's modules and the docs.
TEXTS = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md"])


def last_ids() -> dict[str, int]:
    """
    The number of the last heading of the rules (``R``) and of the open points (``A``).
    """
    ids = rules_page.rule_ids()
    return {letter: max(int(rule[1:]) for rule in ids if rule[0] == letter) for letter in "RA"}


def test_the_headings_number_the_rules_and_the_open_points_from_one() -> None:
    """
    The headings are R1, R2, ... then A1, A2, ..., each number once and none left out, and each
    heading has its label, ``(a25)=``, which the links to it name.
    """
    ids = rules_page.rule_ids()
    last = last_ids()
    expected = [f"{letter}{number}" for letter in "RA" for number in range(1, last[letter] + 1)]
    assert expected == ids
    page = rules_page.text()
    unlabelled = [rule for rule in ids if f"\n({rule.lower()})=\n### {rule} – " not in page]
    assert [] == unlabelled


def test_every_count_quoted_is_the_count_of_the_headings() -> None:
    """
    Each count of the rules or of the open points quoted in the package or in the docs (the
    docstring of `persian_rummy.rules`, the opening of the rules page) ends at the last heading.
    """
    last = last_ids()
    quoted: dict[str, set[str]] = {}
    wrong = []
    for path in TEXTS:
        name = path.relative_to(ROOT).as_posix()
        for letter, number in COUNT.findall(path.read_text(encoding="utf-8")):
            quoted.setdefault(name, set()).add(letter)
            if int(number) != last[letter]:
                wrong.append(f"{name}: {letter}1-{letter}{number}, not {letter}1-{letter}{last[letter]}")
    assert [] == wrong, f"the headings of docs/rules.md count them: {'; '.join(wrong)}"
    assert {"R", "A"} == quoted.get("docs/rules.md")
    assert {"A"} <= quoted.get("src/persian_rummy/rules.py", set())


def test_every_switch_names_a_heading() -> None:
    """
    The ``rule`` metadata of every field of `Rules` (``metadata=_about("A16")``) names a rule or an
    open point that has a heading on the rules page.
    """
    ids = set(rules_page.rule_ids())
    fields = attrs.fields(Rules)
    unknown = {field.name: field.metadata.get("rule") for field in fields if field.metadata.get("rule") not in ids}
    assert {} == unknown, "name a heading of docs/rules.md in the switch's metadata (rules._about)"


def rule_ids_in(path: Path) -> list[tuple[int, str]]:
    """
    The strings of the module at *path* that are a rule id, with their lines.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.fullmatch(node.value)
    ]


def test_every_rule_the_package_names_is_a_heading() -> None:
    """
    Every rule id written as a string in the package (the rules an `IllegalActionError` of
    `_internal.transitions` cites, the metadata of `Rules`) has a heading on the rules page.
    """
    ids = set(rules_page.rule_ids())
    found = [
        (path.relative_to(PACKAGE).as_posix(), line, rule)
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, rule in rule_ids_in(path)
    ]
    assert any(name == "_internal/transitions.py" for name, _, _ in found)
    unknown = [f"{name}:{line}: {rule}" for name, line, rule in found if rule not in ids]
    assert [] == unknown, f"no heading on docs/rules.md for {'; '.join(unknown)}"


def test_every_link_to_a_rule_names_a_heading() -> None:
    """
    The links to a rule of the rules page, ``[A7](rules.md#a7)`` and on the page ``[A7](#a7)``,
    name a heading there.
    """
    ids = {rule.lower() for rule in rules_page.rule_ids()}
    broken = [
        f"{path.relative_to(ROOT).as_posix()}: #{anchor}"
        for path in TEXTS
        for anchor in LINK.findall(path.read_text(encoding="utf-8"))
        if anchor not in ids
    ]
    assert [] == broken, f"no heading on docs/rules.md for {'; '.join(broken)}"


def test_the_table_of_switches_has_a_row_for_every_switch() -> None:
    """
    The table of switches on the rules page has a row for every field of `Rules`, in order, each
    linking to the rule that the field's metadata names.
    """
    rows = rules_page.switch_rows()
    assert list(NAMES) == list(rows), "give a new switch its row in the table of docs/rules.md"
    rules = {field.name: field.metadata["rule"] for field in attrs.fields(Rules)}
    unlinked = [name for name, rule in rules.items() if f"[{rule}](#{rule.lower()})" not in rows[name]]
    assert [] == unlinked
