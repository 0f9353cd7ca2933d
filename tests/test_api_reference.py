"""
The API reference (``docs/api/``): one page per public module, subpackages included, and every
name the package and its subpackages export documented on one of them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import persian_rummy

API = Path(__file__).resolve().parents[1] / "docs" / "api"

#: The modules without a page: the command line (documented by ``--help`` and the guides) and ``python -m``.
UNDOCUMENTED = {"persian_rummy.cli", "persian_rummy.__main__"}

#: The packages whose names are imported from them: the package itself and its subpackages.
PACKAGES = ("persian_rummy", "persian_rummy.bots", "persian_rummy.matches", "persian_rummy.rl")


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


PUBLIC = sorted(
    info.name
    for info in pkgutil.walk_packages(persian_rummy.__path__, "persian_rummy.")
    if _public(info.name) and info.name not in UNDOCUMENTED
)


def _page(module: str) -> Path:
    """
    The page of *module*: ``docs/api/`` and the last part of its name (``players.md`` for
    ``persian_rummy.bots.players``).
    """
    return API / f"{module.rpartition('.')[2]}.md"


def _pages_in_the_index() -> list[str]:
    """
    The pages that the toctrees of the reference's index list, in order.
    """
    index = (API / "index.md").read_text(encoding="utf-8")
    trees = re.findall(r"```\{toctree\}\n(.*?)```", index, re.DOTALL)
    return [line for tree in trees for line in tree.splitlines() if line and not line.startswith(":")]


def _exports(module: str) -> tuple[str, ...]:
    """
    The names the public module *module* exports; none for a module whose extra is not installed
    (the package itself does not import such modules).
    """
    try:
        namespace = importlib.import_module(module)
    except ModuleNotFoundError as error:
        if (error.name or "").startswith("persian_rummy"):
            raise
        return ()
    return tuple(namespace.__all__)


def _lent(package: str, name: str) -> bool:
    """
    Whether *package* can give its export *name*: a name it lends from a module whose extra is not
    installed (``persian_rummy.rl``'s players without numpy) cannot be, and is not documented then.
    """
    try:
        getattr(importlib.import_module(package), name)
    except ModuleNotFoundError as error:
        if (error.name or "").startswith("persian_rummy"):
            raise
        return False
    return True


def _documented(module: str) -> tuple[str, ...]:
    """
    The names *module*'s page documents: its exports, when the page lists its members.
    """
    return _exports(module) if "   :members:" in _page(module).read_text(encoding="utf-8") else ()


class TestOnePagePerModule:
    """
    The reference documents each public module on a page of its own, which the index lists once.
    """

    @pytest.mark.parametrize("module", PUBLIC)
    def test_every_public_module_has_its_page(self, module: str) -> None:
        page = _page(module)
        assert page.is_file()
        assert f".. automodule:: {module}\n" in page.read_text(encoding="utf-8")

    def test_the_index_lists_every_page_once(self) -> None:
        pages = sorted(path.stem for path in API.glob("*.md") if path.stem != "index")
        assert sorted(_page(module).stem for module in PUBLIC) == pages
        assert pages == sorted(_pages_in_the_index())

    def test_the_index_sums_up_each_page_beside_its_toctree(self) -> None:
        """
        Each section of the index lists its modules in an autosummary table (the first sentence of each
        module's docstring), with the hidden toctree of the same pages, in the same order.
        """
        index = (API / "index.md").read_text(encoding="utf-8")
        tables = re.findall(r"\.\. autosummary::\n\n(.*?)```", index, re.DOTALL)
        summed_up = [_page(line.strip()).stem for table in tables for line in table.splitlines() if line.strip()]
        assert _pages_in_the_index() == summed_up
        assert index.count("```{toctree}\n:hidden:\n") == index.count("```{toctree}") == len(tables)

    @pytest.mark.parametrize("module", PUBLIC)
    def test_every_module_has_a_summary(self, module: str) -> None:
        """
        The summary autosummary shows: the first sentence of the module's docstring, short enough for a table row.
        """
        if not _exports(module) and module != "persian_rummy.rl":
            pytest.skip(f"{module} needs an extra that is not installed")
        docstring = importlib.import_module(module).__doc__
        if docstring is None and persian_rummy.engine.COMPILED:
            pytest.skip(f"{module} is compiled, which keeps no module docstring: the source build checks it")
        paragraph = " ".join((docstring or "").strip().split("\n\n", 1)[0].split())
        sentence = paragraph.split(". ", 1)[0]
        assert (True, True) == (sentence != "", len(sentence) <= 200), sentence

    def test_the_subpackages_are_public_modules(self) -> None:
        assert set(PACKAGES[1:]) | {"persian_rummy.rl.actionids", "persian_rummy.bots.players"} <= set(PUBLIC)


class TestEveryExportDocumented:
    """
    Every name that ``persian_rummy`` or one of its subpackages exports comes from a public module
    whose page documents it.
    """

    @pytest.mark.parametrize("package", PACKAGES)
    def test_every_exported_name_is_documented(self, package: str) -> None:
        names = {name for module in PUBLIC for name in _documented(module)}
        assert [] == sorted({name for name in _exports(package) if _lent(package, name)} - names)
