"""
The package's layout, checked from its source: the layers the modules import along (no cycle), what
the core leaves out, what the subpackages take from the core's private package, what public modules
let out, and how long a module and a function may grow.  CONTRIBUTING.md's table of the modules is
the order of the layers: each module imports only modules named before it there.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "persian_rummy"
CONTRIBUTING = PACKAGE.parents[1] / "CONTRIBUTING.md"

#: The subpackages above the core: ``import persian_rummy`` loads none of their modules.
ROOMS = ("bots", "matches", "rl", "server", "cli")

#: Imports inside functions, each with its reason.  Nothing else imports late.
LATE_IMPORTS = {
    # Hypothesis calls the entry point while persian_rummy.strategies may still be being imported.
    ("_internal.hypothesis_hook", "_strategy_for", "strategies"),
    # The full screen needs Textual, which is optional: without it, play has the line mode.
    ("cli._play_command", "_full_screen", "cli._tui"),
    # The server needs its extra (a web framework): ``persian-rummy`` starts without it.
    ("cli._serve_command", "_application", "server"),
    ("cli._serve_command", "run", "server._serving"),
    ("cli._serve_command", "_serve_workers", "server._serving"),
    ("server", "__getattr__", "server._app"),
    # PostgreSQL and Redis are the extras of several workers: the embedded server loads neither.
    ("server", "__getattr__", "server._postgres"),
    ("server._app", "_storage", "server._postgres"),
    ("server._app", "_router", "server._route"),
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


def _laid_out() -> list[str]:
    """
    The modules that the tables of CONTRIBUTING.md's "How the package is laid out" name, in order:
    the first cell of each row, a module's name in backquotes.
    """
    text = CONTRIBUTING.read_text(encoding="utf-8")
    section = text.split("\n## How the package is laid out\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([\w.]+)` \|", section, re.MULTILINE)


#: Every module of the package in the order of CONTRIBUTING.md's table, each importing only modules
#: named before it.  A module is named by its dotted path inside the package; a subpackage's
#: ``__init__.py`` by the subpackage's name.
LAYERS = tuple(_laid_out())
#: The package holding every private module of the core.  Its ``__init__`` imports nothing, so that a
#: module imports only the private modules it names.
INTERNAL = "_internal"
#: The longest a module may be, in lines.
MAX_LINES = 800


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


@pytest.mark.parametrize("package", [name for name in PACKAGES if name.split(".")[0] in ROOMS])
def test_a_subpackage_is_a_run_of_layers(package: str) -> None:
    """
    The modules of a subpackage above the core sit together in `LAYERS`, its ``__init__`` last:
    nothing outside the subpackage comes between them, so the subpackage as a whole lies above what
    it imports and below what imports it.  (The core's private package is not one layer: its
    modules sit among the public ones they stand on.)
    """
    places = [place for place, name in enumerate(LAYERS) if name == package or name.startswith(f"{package}.")]
    assert list(range(places[0], places[-1] + 1)) == places
    assert package == LAYERS[places[-1]]


def test_every_private_module_of_the_core_is_in_its_private_package() -> None:
    """
    The top level holds the public modules; every private module of the core is in `INTERNAL`, but
    for the two files Python itself names (``__init__``, ``__main__``).
    """
    top = sorted(name for name in MODULES if "." not in name and not is_public(name))
    assert ["__init__", "__main__", INTERNAL] == top
    assert [] == [
        name for name in PACKAGES if not is_public(name) and name.split(".")[0] not in ROOMS and name != INTERNAL
    ]


def test_the_private_package_imports_nothing() -> None:
    """
    Importing one module of `INTERNAL` loads that module and what it imports, not the others.
    """
    assert [] == package_imports(INTERNAL)


@pytest.mark.parametrize("module", LAYERS)
def test_no_module_is_too_long(module: str) -> None:
    """
    No module is longer than `MAX_LINES` lines: a longer one is split by what its parts are for.
    """
    lines = len(PATHS[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES


#: The private modules of the core that modules of the subpackages above it may import: for each, the
#: modules or subpackages that may, and why.  A subpackage is built on the core's public modules, as
#: any program that uses the package is; CONTRIBUTING.md ("What the subpackages take from the core")
#: gives the reasons at length.
SHARED: dict[str, tuple[tuple[str, ...], str]] = {
    "_internal.arguments": (
        ("bots", "matches", "rl"),
        (
            "the checks of the public functions' arguments, so that every public function of the package"
            " refuses a bad argument with the same error and words; no API of the package's own"
        ),
    ),
    "_internal.scene": (
        ("rl._picture", "rl._env"),
        (
            "what a picture of a state or a view shows, which the environments' pictures in pixels draw as"
            " the text and SVG pictures do: one place decides what a view's picture may show"
        ),
    ),
}


def _dynamic_import(node: ast.AST) -> str | None:
    """
    The module that *node* imports if it is a call of ``importlib.import_module`` or ``__import__``
    with a constant name, else `None`.
    """
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Constant):
        return None
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    target = node.args[0].value
    return target if name in {"import_module", "__import__"} and isinstance(target, str) else None


def private_imports(module: str, source: str | None = None) -> list[tuple[str, str]]:
    """
    Every import in *module* (or in *source*, read as that module's), at module level, in a function
    or under ``if TYPE_CHECKING:``, of a module of the core's private package: (the private module,
    where and how: ``line 12: from .._internal import build as _build``).
    """
    text = PATHS[module].read_text(encoding="utf-8") if source is None else source
    lines = text.splitlines()
    found: list[tuple[str, str]] = []
    for node in ast.walk(MODULES[module] if source is None else ast.parse(text)):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            names = [name for name, _ in _resolved(module, node)]
        elif isinstance(node, ast.Import):
            names = [alias.name.removeprefix("persian_rummy.") for alias in node.names]
        elif (dynamic := _dynamic_import(node)) is not None:
            names = [dynamic.removeprefix("persian_rummy.")]
        where = f"line {getattr(node, 'lineno', 0)}: {lines[getattr(node, 'lineno', 1) - 1].strip()}"
        found.extend((name, where) for name in names if name.split(".")[0] == INTERNAL and name != INTERNAL)
    return found


def _allowed(private: str, module: str) -> bool:
    places, _ = SHARED.get(private, ((), ""))
    return any(module == place or module.startswith(f"{place}.") for place in places)


@pytest.mark.parametrize("module", [name for name in LAYERS if name.split(".")[0] in ROOMS])
def test_a_subpackage_imports_the_core_through_its_public_modules(module: str) -> None:
    """
    A module of a subpackage above the core imports the core's public modules, and of its private
    package only what `SHARED` lets it, with the reason: at module level, in a function or for the
    type checker alike.
    """
    refused = [
        f"{module} imports the core's private module {private} ({where})"
        for private, where in private_imports(module)
        if not _allowed(private, module)
    ]
    assert [] == refused, "; ".join(refused)


def test_every_private_module_shared_is_used_where_it_is_shared() -> None:
    """
    `SHARED` lists no private module, and no module or subpackage for one, that no longer needs it.
    """
    rooms = [module for module in LAYERS if module.split(".")[0] in ROOMS]
    used = {(private, module) for module in rooms for private, _ in private_imports(module)}
    unused = [
        f"{private} for {place}"
        for private, (places, _) in SHARED.items()
        for place in places
        if not any(name == private and (module == place or module.startswith(f"{place}.")) for name, module in used)
    ]
    assert [] == unused


def test_the_private_imports_are_found_wherever_they_are() -> None:
    """
    The check above sees an import of a private module at module level, inside a function, under
    ``if TYPE_CHECKING:``, written absolutely and imported by name.
    """
    source = """
import typing
from .._internal import build as _build
import persian_rummy._internal.tables
if typing.TYPE_CHECKING:
    from persian_rummy._internal.shapes import State
def late():
    from .._internal.unchecked import view_of
async def later():
    import importlib
    return importlib.import_module("persian_rummy._internal.cardlogic")
"""
    found = private_imports("rl.tensors", source)
    assert [
        ("_internal.build", "line 3: from .._internal import build as _build"),
        ("_internal.cardlogic", 'line 11: return importlib.import_module("persian_rummy._internal.cardlogic")'),
        ("_internal.shapes", "line 6: from persian_rummy._internal.shapes import State"),
        ("_internal.tables", "line 4: import persian_rummy._internal.tables"),
        ("_internal.unchecked", "line 8: from .._internal.unchecked import view_of"),
    ] == sorted(found)


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
    "numba",
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


#: The trainer's libraries (the ``train`` group): ``training/learned.py`` imports them, no module of the package
#: but the one of the ``jax`` extra, `ACCELERATED`.
TRAINING_ONLY = frozenset({"jax", "optax"})
#: The modules that compile array code with JAX (the ``jax`` extra), and what of the trainer's libraries they import.
ACCELERATED = {"rl.batchjax": {"jax"}}


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
    JAX and optax train the learned player; the package plays it with NumPy alone.  JAX is imported by the
    module of its own extra alone, which compiles the batch's masks.
    """
    imported = {name: found for name, tree in MODULES.items() if (found := _top_level_imports(tree) & TRAINING_ONLY)}
    assert ACCELERATED == imported
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
COMPLEX_BY_DESIGN = {"_internal.tables"}


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


# -- the checklists of CONTRIBUTING.md ----------------------------------------------------------------------------

ROOT = PACKAGE.parents[1]
#: What the checklists write in backquotes: a file (`tests/test_json.py`, `_internal/transitions.py`), a
#: test in one (`tests/test_strategies.py::TestStates::test_variants_by_default`), a dotted name
#: (`_internal.cardlogic.takeable`, `Rules.points`, `tests.strategies.WILD_ONE_IN`, `tests/test_properties.points`)
#: or a bare name (`_plain`, `DEFAULT_RULES_TEXT`); a call is read as its function's name (`_about("A16")`).
QUOTED = re.compile(r"`([\w./*:-]+)(?:\([^`]*\))?`")
#: What the checklists quote that is no name of the package's: the type checker, Hypothesis's function.
NOT_NAMES = {"mypy", "st.from_type"}


def _checklists() -> list[str]:
    """
    What the checklists of CONTRIBUTING.md ("## Checklist: ...") quote, in backquotes, in order.
    """
    sections = CONTRIBUTING.read_text(encoding="utf-8").split("\n## Checklist: ")[1:]
    return [name for section in sections for name in QUOTED.findall(section.split("\n## ", 1)[0])]


def _member(scope: ast.AST, name: str) -> ast.AST | None:
    """
    What *name* is defined as in the body of *scope* (a module or a class), or `None`.
    """
    body: list[ast.stmt] = getattr(scope, "body", [])
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return node
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return node
    return None


def _resolves(scope: ast.AST | None, names: list[str]) -> bool:
    for name in names:
        scope = None if scope is None else _member(scope, name)
    return scope is not None


def _source(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _defined() -> frozenset[str]:
    """
    Every name defined anywhere in the package and the tests: functions, classes, their arguments,
    assignments and fields, for the bare names the checklists quote next to their module.
    """
    return frozenset(
        name
        for path in [*PACKAGE.rglob("*.py"), *(ROOT / "tests").glob("*.py")]
        for node in ast.walk(_source(path))
        for name in (
            [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else
            [node.arg] if isinstance(node, ast.arg) else
            [node.id] if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) else []
        )
    )  # fmt: skip


def _dotted_resolves(quoted: str) -> bool:
    """
    Whether the dotted name *quoted* names something: a module of the package (`_internal.choices`),
    a name in one (`strategies._values`, `Rules.points` in the module that defines `Rules`), or in a
    module of the tests (`tests.strategies.WILD_ONE_IN`, written `tests/test_properties.points` too).
    """
    parts = quoted.replace("/", ".").removeprefix("persian_rummy.").split(".")
    if parts[0] == "tests":
        module = ROOT.joinpath(*parts[:2]).with_suffix(".py")
        return module.is_file() and _resolves(_source(module), parts[2:])
    for cut in range(len(parts), 0, -1):
        if ".".join(parts[:cut]) in MODULES:
            return _resolves(MODULES[".".join(parts[:cut])], parts[cut:])
    return any(_resolves(tree, parts) for tree in MODULES.values())


def _quoted_resolves(quoted: str) -> bool:
    """
    Whether what a checklist quotes is there: a file (of the checkout, or of the package), the
    test of a file, a dotted name, a bare name that is defined somewhere.
    """
    path, _, test = quoted.partition("::")
    if Path(path).suffix in {".py", ".md", ".json", ".txt"}:
        files = [*ROOT.glob(path), *PACKAGE.glob(path)]
        return bool(files) and (not test or _resolves(_source(files[0]), test.split("::")))
    if quoted in NOT_NAMES:
        return True
    if "." in quoted or "/" in quoted:
        return _dotted_resolves(quoted)
    return quoted in _defined() or quoted in MODULES or hasattr(builtins, quoted) or hasattr(typing, quoted)


def test_the_checklists_name_what_is_there() -> None:
    """
    Every module, function, test and file that the checklists of CONTRIBUTING.md quote exists
    where they say: a step that names a place the code has left fails here.
    """
    quoted = _checklists()
    assert "_internal.cardlogic.forbidden_discards" in quoted
    missing = [name for name in quoted if not _quoted_resolves(name)]
    assert [] == missing, f"the checklists of CONTRIBUTING.md name what is not there: {', '.join(missing)}"
