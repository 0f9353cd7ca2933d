"""
Pytest configuration shared by the tests, the doctests of the package and the Markdown docs.

The tests run against this checkout's sources (``pythonpath = ["src"]``), unless
``PERSIAN_RUMMY_TEST_BUILD`` names an installed build: ``installed``, the wheel of ``nox -s build``
installed in site-packages, or ``compiled``, the installed compiled build of ``nox -s compiled``.
Those sessions also empty ``pythonpath`` and pass the installed package with ``--pyargs`` for its
module doctests.  Either way the run stops at once if the package it imports is not the build it
asked for, so that no build is ever tested in place of another; the header of the run says which
it is.
"""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import persian_rummy

collect_ignore = ["src/persian_rummy/__main__.py", "docs/conf.py"]
collect_ignore_glob = ["docs/_build/*"]

#: The server's modules: importing any of them imports the web framework (the ``server`` extra).
#: The table server's modules, every one: the server extra (its web stack) is theirs.
_SERVER_MODULES = sorted(path.stem for path in (Path(__file__).parent / "src/persian_rummy/server").glob("*.py"))
#: The modules and pages that need an optional dependency, by the modules they import: without
#: them their doctests are not collected (their test files skip themselves).
NEEDS = {
    "src/persian_rummy/rl/tensors.py": ("numpy",),
    "src/persian_rummy/rl/_numbers.py": ("numpy",),
    "src/persian_rummy/rl/_picture.py": ("numpy",),
    "src/persian_rummy/rl/_env.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/gymnasium.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/persian_rummy/rl/openspiel.py": ("numpy", "pyspiel"),
    "src/persian_rummy/rl/policy.py": ("numpy",),
    "src/persian_rummy/rl/vector.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/selfplay.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/batch.py": ("numpy",),
    "src/persian_rummy/rl/_batch_tables.py": ("numpy",),
    "src/persian_rummy/rl/_batch_observe.py": ("numpy",),
    "src/persian_rummy/rl/_batch_greedy.py": ("numpy",),
    "src/persian_rummy/rl/_batch_kernel.py": ("numpy",),
    "src/persian_rummy/rl/batchplayers.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/_batch_games.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/_batch_compact.py": ("numpy",),
    "src/persian_rummy/rl/batchenv.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/batchselfplay.py": ("numpy", "gymnasium"),
    "src/persian_rummy/rl/batchjax.py": ("numpy", "jax"),
    **{f"src/persian_rummy/server/{name}.py": ("starlette", "uvicorn") for name in _SERVER_MODULES},
    # The modules of several workers: PostgreSQL's client (the ``postgres`` extra) and Redis's (``redis``).
    "src/persian_rummy/server/_postgres.py": ("starlette", "uvicorn", "psycopg", "psycopg_pool"),
    "src/persian_rummy/server/_bus.py": ("starlette", "uvicorn", "redis"),
    "src/persian_rummy/server/_route.py": ("starlette", "uvicorn", "redis"),
    "docs/server.md": ("starlette",),
    "docs/tensors.md": ("numpy",),
    "docs/reinforcement-learning.md": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
}
collect_ignore += [
    path for path, modules in NEEDS.items() if any(importlib.util.find_spec(name) is None for name in modules)
]

settings.register_profile("dev", max_examples=60, deadline=None)
# The Pythons after the first (nox -s tests-3.12, tests-3.13): the same properties, fewer examples, since the
# first Python has already tried the rules with the full count and these check that the code runs on them.
settings.register_profile("quick", max_examples=20, deadline=None)
# On CI no example database: every run starts afresh, so results never depend on earlier runs.  As many
# examples as "quick": the first Python's run there also measures coverage, which makes each example more than
# twice as slow, and continuous integration tries whole games besides, by brute force (about a thousand games
# with every action tried) and by the differential (2,000 games on both builds).  Locally, "dev" tries 60.
settings.register_profile(
    "ci",
    max_examples=20,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: The build under test: "source" (this checkout's src/, the default), "installed" (the pure Python wheel,
#: installed in site-packages) or "compiled" (the installed compiled wheel).
BUILD = os.environ.get("PERSIAN_RUMMY_TEST_BUILD", "source")
SOURCES = Path(__file__).resolve().parent / "src"
_imported = Path(persian_rummy.__file__).resolve().parent  # type: ignore[arg-type]
if BUILD == "source":
    if _imported.parent != SOURCES:
        msg = f"the tests import the package from {SOURCES}, not from {_imported}"
        raise pytest.UsageError(msg)
    if persian_rummy.engine.COMPILED:
        msg = f"compiled modules were left in {SOURCES} by a build in place: remove them (git clean -fX src)"
        raise pytest.UsageError(msg)
elif BUILD == "installed":
    _site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
    if _imported.parent != _site_packages or persian_rummy.engine.COMPILED:
        msg = f"PERSIAN_RUMMY_TEST_BUILD=installed, but {_imported} is not the wheel in {_site_packages}"
        raise pytest.UsageError(msg)
    # The module doctests come from the installed package (--pyargs persian_rummy), not from src/.
    collect_ignore.append("src")
elif BUILD == "compiled":
    if _imported.parent == SOURCES or not persian_rummy.engine.COMPILED:
        msg = f"PERSIAN_RUMMY_TEST_BUILD=compiled, but {_imported} is not a compiled build: run nox -s compiled"
        raise pytest.UsageError(msg)
    collect_ignore.append("src")
else:
    msg = f"PERSIAN_RUMMY_TEST_BUILD is 'source', 'installed' or 'compiled', not {BUILD!r}"
    raise pytest.UsageError(msg)


class _InstalledModules:
    """
    What a run against an installed build leaves out of the installed package: the files that the
    source run leaves out of src/ (`collect_ignore`, the optional dependencies' modules included), and
    the doctests of the modules that run compiled, whose extension module stands beside the source
    file and imports in its place (their examples run on the source build).
    """

    @staticmethod
    def pytest_ignore_collect(collection_path: Path) -> bool | None:
        if _imported not in collection_path.parents or collection_path.suffix != ".py":
            return None
        if f"src/persian_rummy/{collection_path.relative_to(_imported).as_posix()}" in collect_ignore:
            return True
        stem = collection_path.name.removesuffix(".py")
        return any(collection_path.with_name(stem + suffix).exists() for suffix in EXTENSION_SUFFIXES) or None


def pytest_configure(config: pytest.Config) -> None:
    if BUILD != "source":
        config.pluginmanager.register(_InstalledModules(), "persian-rummy-installed-modules")


#: The pages whose examples take long (they run whole suites of their own): marked ``once``, like the long
#: tests, so that only the first Python's ``tests`` session runs them.
LONG_PAGES = ("docs/testing.md",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("::", 1)[0] in LONG_PAGES:
            item.add_marker(pytest.mark.once)


def pytest_report_header() -> str:
    return f"persian-rummy {persian_rummy.__version__} ({BUILD}) from {_imported}"
