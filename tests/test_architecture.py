"""
The package's layout, checked from its source: the layers the modules and the packages import
along, what the core leaves out, what public modules let out, and how long a function may grow.
CONTRIBUTING.md explains the layout and names every module, as a test here checks.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "persian_rummy"
CONTRIBUTING = PACKAGE.parents[1] / "CONTRIBUTING.md"

#: Every module of the package, each importing only modules listed before it.  A module is named
#: by its dotted path inside the package; a subpackage's ``__init__.py`` by the subpackage's name.
#: The modules of a package sit together, its ``__init__`` last: a package is a run of layers.
LAYERS = (
    # values
    "exceptions",
    "_core.version",
    "_core.limits",
    "_core.jsontext",
    "_core.choices",
    "_core.seats",
    "_core.build",
    "_core.drawing",
    "_core",
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
    "_validation",
    "_render.text",
    "_render.scene",
    "_render",
    "state",
    "_phases",
    "_unchecked",
    "_unchecked_view",
    "fingerprints",
    # the engine
    "_engine.enumeration",
    "_engine.transitions",
    "_engine",
    "engine",
    # hidden information
    "views",
    "_hidden_cards",
    "events",
    # text and data
    "notation",
    "records",
    "serialize",
    "pictures",
    # players
    "bots.heuristics",
    "bots._greedy",
    "bots._loading",
    "bots.players",
    "bots",
    # matches between players
    "matches._stats",
    "matches._tally",
    "matches._signals",
    "matches._pool",
    "matches._workers",
    "matches._play",
    "matches._runner",
    "matches._checks",
    "matches._checkpoint",
    "matches._sink",
    "matches._options",
    "matches._ratings",
    "matches",
    # learning interfaces
    "rl._action_space",
    "rl.actionids",
    "rl._tensor_layouts",
    "rl.tensors",
    "rl.openspiel",
    "rl._numbers",
    "rl._picture",
    "rl._env",
    "rl.pettingzoo",
    "rl.gymnasium",
    "rl.vector",
    "rl.selfplay",
    "rl.policy",
    "rl",
    # the table server
    "server._limits",
    "server._worker",
    "server._messages",
    "server._storage",
    "server._bots",
    "server._spec",
    "server._table",
    "server._hub",
    "server._app",
    "server._serving",
    "server",
    # tools
    "_card_strategies",
    "_state_knobs",
    "strategies",
    "_hypothesis",
    "cli._files",
    "cli._narration",
    "cli._demo_command",
    "cli._replay_command",
    "cli._show_command",
    "cli._pace",
    "cli._match_setup",
    "cli._match_command",
    "cli._tournament_command",
    "cli._players_command",
    "cli._screen",
    "cli._game",
    "cli._line_mode",
    "cli._tui._widgets",
    "cli._tui._app",
    "cli._tui",
    "cli._play_command",
    "cli._serve_command",
    "cli",
    "__init__",
    "__main__",
)

#: The subpackages above the core: ``import persian_rummy`` loads none of their modules.
ROOMS = ("bots", "matches", "rl", "server", "cli")

#: Imports inside functions, each with its reason.  Nothing else imports late.
LATE_IMPORTS = {
    # Hypothesis calls the entry point while persian_rummy.strategies may still be being imported.
    ("_hypothesis", "_strategy_for", "strategies"),
    # The full screen needs Textual, which is optional: without it, play has the line mode.
    ("cli._play_command", "_full_screen", "cli._tui"),
    # The server needs its extra (a web framework): ``persian-rummy`` starts without it.
    ("cli._serve_command", "_application", "server"),
    ("cli._serve_command", "run", "server._serving"),
    ("server", "__getattr__", "server._app"),
    # The policies' players need numpy: ``import persian_rummy.rl`` needs attrs alone.
    ("rl", "__getattr__", "rl.policy"),
}


def _name(path: Path) -> str:
    """
    The name `LAYERS` gives the module at *path*.
    """
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


PATHS = {_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
MODULES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in PATHS.items()}
#: The packages, by name: the package itself (``""``) and each subpackage.
PACKAGES = sorted(_name(path) for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE)


def is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


def _package_of(module: str) -> list[str]:
    """
    The package *module* is in, as the parts of its name (``[]`` for the top level).
    """
    if PATHS[module].name == "__init__.py":
        return [] if module == "__init__" else module.split(".")
    return module.split(".")[:-1]


def _resolved(module: str, node: ast.ImportFrom) -> list[tuple[str, list[ast.alias]]]:
    """
    The modules of the package that *node*, an import in *module*, imports, as (module, names);
    a module imported as a name of its package (``from . import _limits``) comes with no names.
    """
    if node.level:
        package = _package_of(module)
        base = package[: len(package) - node.level + 1]
    elif node.module is not None and node.module.split(".")[0] == "persian_rummy":
        base = []
        node = ast.ImportFrom(module=".".join(node.module.split(".")[1:]) or None, names=node.names, level=1)
    else:
        return []
    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
    found: list[tuple[str, list[ast.alias]]] = []
    names: list[ast.alias] = []
    for alias in node.names:
        submodule = f"{target}.{alias.name}" if target else alias.name
        if submodule in MODULES:
            found.append((submodule, []))
        else:
            names.append(alias)
    if names:
        found.append((target or "__init__", names))
    return found


def package_imports(module: str) -> list[tuple[str, list[ast.alias]]]:
    """
    The module-level imports of other modules of the package, as (module, names), leaving out
    those under ``if TYPE_CHECKING:``.  Importing a module of a subpackage from outside it also
    imports the subpackage's ``__init__``, which is counted.
    """
    found: list[tuple[str, list[ast.alias]]] = []
    for node in MODULES[module].body:
        if isinstance(node, ast.ImportFrom):
            for source, names in _resolved(module, node):
                found.extend((parent, []) for parent in _parents_entered(module, source))
                found.append((source, names))
    return found


def _parents_entered(module: str, source: str) -> list[str]:
    """
    The subpackages whose ``__init__`` an import of *source* from *module* runs first.
    """
    parts = source.split(".")
    inside = ".".join(_package_of(module))
    parents = [".".join(parts[:end]) for end in range(1, len(parts))]
    return [parent for parent in parents if not (inside == parent or inside.startswith(f"{parent}."))]


def late_imports(module: str) -> set[tuple[str, str]]:
    """
    The package modules imported inside functions, with the function's name.
    """
    found: set[tuple[str, str]] = set()
    for function in ast.walk(MODULES[module]):
        if isinstance(function, ast.FunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    found.update((function.name, name) for name, _ in _resolved(module, node))
    return found


def test_every_module_has_a_place_in_the_layers() -> None:
    assert sorted(MODULES) == sorted(LAYERS)


@pytest.mark.parametrize("module", LAYERS)
def test_a_module_imports_only_the_layers_below_it(module: str) -> None:
    """
    The import graph is a hierarchy: values, positions, the engine, views, text and data,
    players, matches, learning interfaces, tools.  No module imports one after it in `LAYERS`,
    so there is no cycle to dodge.
    """
    place = LAYERS.index(module)
    above = [name for name, _ in package_imports(module) if LAYERS.index(name) >= place]
    assert [] == above


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_is_a_run_of_layers(package: str) -> None:
    """
    The modules of a subpackage sit together in `LAYERS`, its ``__init__`` last: nothing outside
    the package comes between them, so the package as a whole lies above what it imports and below
    what imports it.
    """
    places = [place for place, name in enumerate(LAYERS) if name == package or name.startswith(f"{package}.")]
    assert list(range(places[0], places[-1] + 1)) == places
    assert package == LAYERS[places[-1]]


def _loaded_by(module: str) -> set[str]:
    """
    The modules of the package that importing *module* loads, itself included.
    """
    loaded: set[str] = set()
    pending = [module]
    while pending:
        name = pending.pop()
        if name not in loaded:
            loaded.add(name)
            pending.extend(source for source, _ in package_imports(name))
    return loaded


def test_the_core_never_imports_a_subpackage_above_it() -> None:
    """
    ``import persian_rummy`` loads the core alone: no module of the players, the matches, the
    learning interfaces or the command line.
    """
    rooms = sorted(name for name in _loaded_by("__init__") for room in ROOMS if name.split(".")[0] == room)
    assert [] == rooms


def test_importing_the_package_loads_only_the_core() -> None:
    """
    The same, as Python does it: a fresh interpreter that imports the package holds no module of
    the subpackages above the core.
    """
    code = "import sys, persian_rummy; print(sorted(m for m in sys.modules if m.startswith('persian_rummy.')))"
    # The child imports the package this run tests, from the same path.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
    loaded = ast.literal_eval(done.stdout)
    assert [] == [name for name in loaded if name.split(".")[1] in ROOMS]
    assert sorted(f"persian_rummy.{name}" for name in _loaded_by("__init__") if name != "__init__") == loaded


#: The optional dependencies: the extras' libraries, which only the modules that need them import.
#: The subpackages that are an extra's, and need it to be imported at all.
NEEDS_ITS_EXTRA = ("server",)
OPTIONAL = (
    "numpy",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "rich",
    "textual",
    "hypothesis",
    "dask",
    "jax",
    "optax",
)


def test_the_subpackages_import_with_the_dependencies_alone() -> None:
    """
    Importing a subpackage loads no optional dependency: ``import persian_rummy.rl`` works with
    attrs alone, and each adapter loads its library when it is itself imported.
    """
    rooms = ", ".join(f"persian_rummy.{room}" for room in ROOMS if room not in NEEDS_ITS_EXTRA)
    code = f"import sys, {rooms}; print(sorted(m for m in sys.modules if m.split('.')[0] in {OPTIONAL!r}))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
    assert [] == ast.literal_eval(done.stdout)


#: The trainer's libraries (the ``train`` group): ``training/learned.py`` imports them, no module of the package.
TRAINING_ONLY = frozenset({"jax", "optax"})


def _top_level_imports(tree: ast.Module) -> set[str]:
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import)]
    names = {alias.name.split(".")[0] for node in imports for alias in node.names}
    return names | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0
    }


def test_no_module_imports_the_trainers_libraries() -> None:
    """
    JAX and optax train the learned player; the package plays it with NumPy alone.
    """
    assert {} == {name: found for name, tree in MODULES.items() if (found := _top_level_imports(tree) & TRAINING_ONLY)}
    assert TRAINING_ONLY <= _top_level_imports(ast.parse((PACKAGE.parents[1] / "training" / "learned.py").read_text()))


def test_the_server_names_its_extra() -> None:
    """
    The server is its extra's (a web framework): without it, its limits, specs and storage import, and
    asking for the application says what to install.
    """
    code = "import sys; sys.modules['starlette'] = None; from persian_rummy.server import Limits, create_app"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False, text=True, env=env)  # noqa: S603
    assert 1 == done.returncode
    extra = "pip install 'persian-rummy[server]'"
    assert done.stderr.strip().endswith(
        f"ModuleNotFoundError: persian_rummy.server needs the web framework of the server extra: {extra}"
    )


@pytest.mark.parametrize("module", LAYERS)
def test_no_late_import_of_the_package(module: str) -> None:
    """
    No function imports a module of the package, but where `LATE_IMPORTS` says why.
    """
    late = {(module, function, name) for function, name in late_imports(module)}
    assert set() == late - LATE_IMPORTS


@pytest.mark.parametrize("module", LAYERS)
def test_underscore_names_cross_modules_only_from_internal_modules(module: str) -> None:
    """
    A name with a leading underscore is imported from another module only when that module is
    itself internal (its name, or the name of a package it is in, has a leading underscore).
    """
    crossing = [
        f"{source}.{alias.name}"
        for source, names in package_imports(module)
        for alias in names
        if alias.name.startswith("_") and is_public(source)
    ]
    assert [] == crossing


@pytest.mark.parametrize("module", [name for name in LAYERS if is_public(name)])
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
    for source, names in package_imports(module):
        if not is_public(source):
            bound.extend(alias.asname or alias.name for alias in names)
    leaking = [name for name in bound if not name.startswith("_") and name not in exported]
    assert [] == leaking


def _laid_out() -> list[str]:
    """
    The modules that the tables of CONTRIBUTING.md's "How the package is laid out" name, in order:
    the first cell of each row, a module's name in backquotes.
    """
    text = CONTRIBUTING.read_text(encoding="utf-8")
    section = text.split("\n## How the package is laid out\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([\w.]+)` \|", section, re.MULTILINE)


class TestContributingLaysOutEveryModule:
    """
    CONTRIBUTING.md names every module of the package, and what it is for, in the order of `LAYERS`.
    """

    def test_every_module_is_named_once(self) -> None:
        named = _laid_out()
        missing = sorted(set(MODULES) - set(named))
        unknown = sorted(set(named) - set(MODULES))
        twice = sorted({name for name in named if named.count(name) > 1})
        assert {"missing": [], "unknown": [], "twice": []} == {"missing": missing, "unknown": unknown, "twice": twice}

    def test_in_the_order_of_the_layers(self) -> None:
        assert list(LAYERS) == _laid_out()


def test_no_dispatch_over_action_types_by_isinstance() -> None:
    """
    What every action type must have is declared on the type (`persian_rummy.actions`) or
    handled by a ``match`` that mypy checks for a missing case; no ladder of isinstance tests.
    """
    ladders = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PATHS.values()
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
