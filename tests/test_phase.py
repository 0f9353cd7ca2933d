"""
`Phase` is one class, defined in `persian_rummy._internal.phase` and used as itself, and every table
keyed by phase covers every member.

mypy names each ``match`` on the phase and each chain of tests ending in ``assert_never`` that misses a
member.  What mypy cannot see is checked here: the tables built from a list of phases (the tensors'
phase bits), the texts that list the phases for people (the notation's field 3 and its error, the JSON
page, the schema) and the browser client's status line.  A member added to `Phase` fails each test
below that names a place still to do.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from persian_rummy import Phase, notation
from persian_rummy._internal import phase as phases
from persian_rummy.rl import _tensor_layouts

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "persian_rummy"
NAMES = {member.value for member in Phase}


def _schema_enums() -> set[str]:
    """
    The phases of the schema's states and views: every ``phase`` property's ``enum`` must list them all.
    """
    schema = json.loads((PACKAGE / "schema.json").read_text(encoding="utf-8"))
    found: list[set[str]] = []
    pending: list[object] = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            phase = node.get("properties", {}).get("phase")
            if isinstance(phase, dict) and "enum" in phase:
                found.append(set(phase["enum"]))
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    assert len(found) == 2  # a state's and a view's
    return set.intersection(*found)


def _browser_status() -> set[str]:
    """
    The phases the browser client's status line (``status`` in render.js) has a case for.
    """
    text = (PACKAGE / "server" / "static" / "js" / "render.js").read_text(encoding="utf-8")
    body = text.split("export function status(", 1)[1].split("\n}\n", 1)[0]
    return set(re.findall(r'case "(\w+)":', body))


def _listed(path: str, pattern: str) -> set[str]:
    """
    The phases named in the line of the page at *path* that *pattern* finds.
    """
    match = re.search(pattern, (ROOT / path).read_text(encoding="utf-8"))
    assert match is not None, f"{path} no longer has the text {pattern!r}"
    return set(re.findall(r"\w+", match.group(0))) & NAMES


def _format_position_doc() -> set[str]:
    doc = notation.format_position.__doc__ or ""
    line = next(line for line in doc.splitlines() if "phase:" in line)
    index = doc.index(line)
    return set(re.findall(r"``(\w+)``", doc[index : doc.index("4.", index)]))


def _tensor_phases() -> set[str]:
    return {phase.value for phase in _tensor_layouts.PHASE_BITS}


#: Each place that lists or maps the phases, by the name a failure shows, and the phases it covers.
PLACES: dict[str, Callable[[], set[str]]] = {
    "rl._tensor_layouts.PHASE_BITS (the phase part's bits)": _tensor_phases,
    "notation._PHASES (field 3 read back)": lambda: set(notation._PHASES),
    "notation.format_position's docstring (field 3)": _format_position_doc,
    "schema.json: the phase of a state and of a view": _schema_enums,
    "server/static/js/render.js: status()": _browser_status,
    "docs/json.md: the phase field": lambda: _listed("docs/json.md", r"\| `phase` +\|[^\n]*"),
    "docs/notation.md: field 3": lambda: _listed("docs/notation.md", r"\| 3 \| the phase:[^\n]*"),
}


@pytest.mark.parametrize("place", PLACES)
def test_every_table_keyed_by_phase_covers_every_phase(place: str) -> None:
    missing = sorted(NAMES - PLACES[place]())
    assert [] == missing, f"{place} lacks {missing}"


def test_the_questions_are_asked_of_every_phase() -> None:
    """
    R5, A4, R13, R14, R16-R18, R19, R21, R22, A17, A24: the sets of each question hold exactly the phases
    its function says.
    """
    questions = {
        phases.CHANCE: phases.is_chance,
        phases.TURN: phases.is_turn,
        phases.OVER: phases.is_deal_over,
        phases.FINAL: phases.is_final,
        phases.COUNTING_PASSES: phases.counts_passes,
        phases.DRAWING: phases.draws,
        phases.PLAYING: phases.plays,
    }
    assert all(members == {phase for phase in Phase if asks(phase)} for members, asks in questions.items())
    assert [
        ["deal", "deal_over"],
        ["draw", "play", "calls", "called"],
        ["deal_over", "game_over"],
        ["draw"],
        ["play"],
    ] == [
        [phase.value for phase in Phase if phase in members]
        for members in (phases.CHANCE, phases.TURN, phases.OVER, phases.DRAWING, phases.PLAYING)
    ]


def test_no_module_copies_a_member() -> None:
    """
    No module binds a constant to a member of `Phase` (``_DRAW = Phase.DRAW``) or to a phase's name as
    text (``_DRAW = "draw"``): code tests ``phase is Phase.DRAW``.
    """
    copies = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # The members of enumerations, Phase's own among them, are values rather than copies.
        members = {id(node) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for node in c.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None and id(node) not in members:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                constant = any(isinstance(t, ast.Name) and t.id.lstrip("_").isupper() for t in targets)
                value = node.value
                member = isinstance(value, ast.Attribute) and ast.unparse(value.value).endswith("Phase")
                text = isinstance(value, ast.Constant) and value.value in NAMES
                if constant and (member or text):
                    copies.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert [] == copies
