"""
The API reference (``docs/api/``): one page per public module, and every name the package exports
documented on one of them.
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
UNDOCUMENTED = {"cli", "__main__"}

PUBLIC = sorted(
    info.name
    for info in pkgutil.iter_modules(persian_rummy.__path__)
    if not info.name.startswith("_") and info.name not in UNDOCUMENTED
)


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
        namespace = importlib.import_module(f"persian_rummy.{module}")
    except ModuleNotFoundError as error:
        if (error.name or "").startswith("persian_rummy"):
            raise
        return ()
    return tuple(namespace.__all__)


class TestOnePagePerModule:
    """
    The reference documents each public module on a page of its own, ``docs/api/<module>.md``, which
    the index lists once.
    """

    @pytest.mark.parametrize("module", PUBLIC)
    def test_every_public_module_has_its_page(self, module: str) -> None:
        page = API / f"{module}.md"
        assert page.is_file()
        assert f".. automodule:: persian_rummy.{module}\n" in page.read_text(encoding="utf-8")

    def test_the_index_lists_every_page_once(self) -> None:
        pages = sorted(path.stem for path in API.glob("*.md") if path.stem != "index")
        assert PUBLIC == pages
        assert pages == sorted(_pages_in_the_index())


class TestEveryExportDocumented:
    """
    Every name that ``persian_rummy`` exports comes from a public module with a page, where the
    reference documents it.
    """

    def test_every_exported_name_has_a_documented_module(self) -> None:
        names = {name for module in PUBLIC for name in _exports(module)}
        assert [] == sorted(set(persian_rummy.__all__) - names)
