"""
The package's layout, checked from its source: the layers the modules import along, what public
modules let out, and how long a function may grow.  CONTRIBUTING.md explains the layout.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "persian_rummy"

#: Every module of the package, each importing only modules listed before it.
LAYERS = (
    # values
    "_version",
    "exceptions",
    "_limits",
    "_jsontext",
    "_choices",
    "_seats",
    "_build",
    "_drawing",
    "cards",
    "_coerce",
    "_tables",
    "cardsets",
    "_arguments",
    "rules",
    "melds",
    "actions",
    "scoring",
    "seating",
    # positions: the state, what a seat sees of it, and their checks
    "_summary",
    "_shapes",
    "_cardlogic",
    "_format",
    "_scene",
    "_validation",
    "state",
    "_phases",
    "_unchecked",
    "_viewing",
    "fingerprints",
    # the engine
    "_enumerate",
    "_transitions",
    "engine",
    # hidden information
    "views",
    "events",
    # players
    "heuristics",
    "players",
    # text and data
    "notation",
    "records",
    "serialize",
    "pictures",
    # matches between players
    "_stats",
    "_matchplay",
    "_matchdata",
    "matches",
    # learning interfaces
    "actionids",
    "tensors",
    "openspiel",
    "_rlenv",
    "pettingzoo",
    "gymnasium",
    # tools
    "strategies",
    "_hypothesis",
    "_match_command",
    "_screen",
    "_play_command",
    "cli",
    "__init__",
    "__main__",
)

#: Imports inside functions, each with its reason.  Nothing else imports late.
LATE_IMPORTS = {
    # Hypothesis calls the entry point while persian_rummy.strategies may still be being imported.
    ("_hypothesis", "_strategy_for", "strategies"),
}

MODULES = {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGE.glob("*.py")}


def is_public(module: str) -> bool:
    return not module.startswith("_")


def package_imports(tree: ast.Module) -> list[tuple[str, list[ast.alias]]]:
    """
    The module-level imports of other modules of the package, as (module, names), leaving out
    those under ``if TYPE_CHECKING:``.
    """
    found: list[tuple[str, list[ast.alias]]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:
                found.extend((alias.name, []) for alias in node.names)
            else:
                found.append((node.module, list(node.names)))
    return found


def late_imports(tree: ast.Module) -> set[tuple[str, str]]:
    """
    The package modules imported inside functions, with the function's name.
    """
    found: set[tuple[str, str]] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    names = [alias.name for alias in node.names] if node.module is None else [node.module]
                    found.update((function.name, name) for name in names)
    return found


def test_every_module_has_a_place_in_the_layers() -> None:
    assert sorted(MODULES) == sorted(LAYERS)


@pytest.mark.parametrize("module", LAYERS)
def test_a_module_imports_only_the_layers_below_it(module: str) -> None:
    """
    The import graph is a hierarchy: values, positions, the engine, views, text and data,
    tools.  No module imports one after it in `LAYERS`, so there is no cycle to dodge.
    """
    place = LAYERS.index(module)
    above = [name for name, _ in package_imports(MODULES[module]) if LAYERS.index(name) >= place]
    assert [] == above


@pytest.mark.parametrize("module", LAYERS)
def test_no_late_import_of_the_package(module: str) -> None:
    """
    No function imports a module of the package, but where `LATE_IMPORTS` says why.
    """
    late = {(module, function, name) for function, name in late_imports(MODULES[module])}
    assert set() == late - LATE_IMPORTS


@pytest.mark.parametrize("module", LAYERS)
def test_underscore_names_cross_modules_only_from_internal_modules(module: str) -> None:
    """
    A name with a leading underscore is imported from another module only when that module is
    itself internal (its name has a leading underscore).
    """
    crossing = [
        f"{source}.{alias.name}"
        for source, names in package_imports(MODULES[module])
        for alias in names
        if alias.name.startswith("_") and is_public(source)
    ]
    assert [] == crossing


@pytest.mark.parametrize("module", [name for name in LAYERS if is_public(name) and not name.startswith("__")])
def test_public_modules_let_out_only_their_public_names(module: str) -> None:
    """
    In a public module every name without a leading underscore that the module binds is in its
    ``__all__``, and what it takes from internal modules is bound to an underscore name: no
    internal helper can be imported from a public module.
    """
    tree = MODULES[module]
    exported: set[str] = set()
    bound: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = [target.id for target in node.targets if isinstance(target, ast.Name)]
            if targets == ["__all__"]:
                exported = set(ast.literal_eval(node.value))
            bound.extend(targets)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.append(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.append(node.name)
    for source, names in package_imports(tree):
        if not is_public(source):
            bound.extend(alias.asname or alias.name for alias in names)
    leaking = [name for name in bound if not name.startswith("_") and name not in exported]
    assert [] == leaking


def test_no_dispatch_over_action_types_by_isinstance() -> None:
    """
    What every action type must have is declared on the type (`persian_rummy.actions`) or
    handled by a ``match`` that mypy checks for a missing case; no ladder of isinstance tests.
    """
    ladders = [
        f"{path.name}:{number}"
        for path in PACKAGE.glob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"isinstance\(action\b", line)
    ]
    assert [] == ladders


@pytest.mark.parametrize("module", LAYERS)
def test_functions_are_short(module: str) -> None:
    """
    No function, docstring included, reaches 45 lines.
    """
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(MODULES[module])
        if isinstance(node, ast.FunctionDef) and node.end_lineno is not None and node.end_lineno - node.lineno >= 44
    ]
    assert [] == long


def complexity(function: ast.FunctionDef) -> int:
    """
    The cyclomatic complexity of *function*, counted as ``radon cc`` counts it: one, plus one
    for each branch (``if``, conditional expression, loop and its ``else``, ``except`` and the
    ``else`` of a ``try``, ``assert``, ``case``, each ``for`` and ``if`` of a comprehension) and
    for each extra operand of ``and``/``or``.  A function defined inside is counted on its own.
    """
    branches = 1
    for node in _own_nodes(function):
        if isinstance(node, ast.If | ast.IfExp | ast.Assert):
            branches += 1
        elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
            branches += 1 + bool(node.orelse)
        elif isinstance(node, ast.Try):
            branches += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            branches += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            branches += 1 + len(node.ifs)
        elif isinstance(node, ast.Match):
            branches += len(node.cases) - 1
    return branches


def _own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """
    The nodes of *function*'s body, without those of the functions defined in it.
    """
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pending.extend(ast.iter_child_nodes(node))


# The precomputation of the bit tables runs once, at import, and reads as the tables it builds.
COMPLEX_BY_DESIGN = {"_tables"}


@pytest.mark.parametrize("module", LAYERS)
def test_functions_are_simple(module: str) -> None:
    """
    No function has a cyclomatic complexity above 15, but in the bit-table precomputation.
    """
    if module in COMPLEX_BY_DESIGN:
        return
    tangled = [
        f"{node.name} ({complexity(node)})"
        for node in ast.walk(MODULES[module])
        if isinstance(node, ast.FunctionDef) and complexity(node) > 15
    ]
    assert [] == tangled
