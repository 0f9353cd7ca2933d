"""
Sphinx configuration of the persian-rummy documentation.

Build with ``sphinx-build -W -n --keep-going -b html docs docs/_build/html``; the
examples of the Markdown pages run with ``pytest docs``.
"""

from __future__ import annotations

import enum
import importlib
import pkgutil
import re
from importlib.metadata import version as _version
from typing import TYPE_CHECKING

import attrs

import persian_rummy

if TYPE_CHECKING:
    from docutils.nodes import Element
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

project = "persian-rummy"
author = "the persian-rummy developers"
copyright = "2026, the persian-rummy developers"
release = _version("persian-rummy")
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx_copybutton",
]
# sphinx.ext.intersphinx is left out on purpose: the docs must build without network
# access, and a failed inventory download is a warning, which -W turns into an error.

source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# Single backticks in docstrings are references to Python objects.
default_role = "py:obj"
nitpicky = True
# Without intersphinx these standard-library and attrs names have no target; they are
# shown as code instead of links.
nitpick_ignore = [
    ("py:class", "starlette.applications.Starlette"),
    ("py:class", "collections.abc.Collection"),
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Iterator"),
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Sequence"),
    ("py:class", "random.Random"),
    ("py:class", "collections.abc.Callable"),
    ("py:class", "concurrent.futures._base.Executor"),
    ("py:class", "concurrent.futures.Executor"),
    ("py:class", "concurrent.futures.process.ProcessPoolExecutor"),
    ("py:class", "os.PathLike"),
    ("py:obj", "attrs.evolve"),
    # The type variable of `from_json`'s overloads and the alias machinery behind `Document`.
    ("py:class", "persian_rummy.serialize._T"),
    ("py:class", "TypeAliasForwardRef"),
    # Hypothesis's own types, named by the strategies module (no intersphinx here).
    ("py:class", "hypothesis.strategies.SearchStrategy"),
    ("py:exc", "hypothesis.errors.InvalidArgument"),
    ("py:class", "types.EllipsisType"),
    # The toolkits of the learning interfaces (optional dependencies, no intersphinx here).
    ("py:class", "numpy.ndarray"),
    ("py:class", "numpy.dtype"),
    ("py:class", "numpy.bool"),
    ("py:class", "numpy.int64"),
    # PostgreSQL's client (the ``postgres`` extra), named by the storage protocol's docstring.
    ("py:exc", "psycopg.errors.UniqueViolation"),
    ("py:class", "numpy.random._generator.Generator"),
    ("py:class", "numpy.floating"),
    # The files a network is saved to (persian_rummy.rl.policy.MLPPolicy).
    ("py:class", "pathlib.Path"),
    ("py:class", "pyspiel.Game"),
    ("py:class", "pyspiel.IIGObservationType"),
    ("py:class", "gymnasium.spaces.space.Space"),
    ("py:class", "pettingzoo.utils.env.AECEnv"),
    ("py:class", "gymnasium.vector.vector_env.AutoresetMode"),
    ("py:class", "gymnasium.vector.vector_env.VectorEnv"),
    # The type variable of the overloads of `action_mask` and `action_masks`: the buffer handed in is returned.
    ("py:class", "persian_rummy.rl.actionids._Out"),
]
# JAX's array type (the ``jax`` extra), named where the installed version defines it.
nitpick_ignore_regex = [("py:class", r"jax(lib)?(\..*)?\.Array(Impl)?")]

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

autodoc_default_options = {"member-order": "bysource"}
# The API index lists the modules with their summaries; each module's page is written by hand.
autosummary_generate = False
autodoc_typehints = "signature"
# Only the top-level alias: a nested alias (``tuple[PlayerAction, ...]``) does not render.
autodoc_type_aliases = {"Action": "persian_rummy.actions.Action"}
python_use_unqualified_type_names = True
# A signature longer than this is shown one parameter to a line.
maximum_signature_line_length = 88
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"persian-rummy {release}"
html_static_path = ["_static"]
html_css_files = ["wrap.css"]

# The copy button copies the code of an example without its prompts and output, a command without its "$ ".
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True


def _homes() -> dict[str, str]:
    """
    Where each public name is documented: the public module that defines it.

    For a name that is not a class or a function (a constant, a type alias), the
    first public module that lists it, a subpackage's modules before the subpackage
    that re-exports their names.
    """
    modules = sorted(
        (
            info.name
            for info in pkgutil.walk_packages(persian_rummy.__path__, "persian_rummy.")
            if not any(part.startswith("_") for part in info.name.split(".")) and info.name != "persian_rummy.cli"
        ),
        key=lambda name: (-name.count("."), name),
    )
    homes: dict[str, str] = {}
    for module in modules:
        namespace = importlib.import_module(module)
        for name in namespace.__all__:
            defined_in = getattr(getattr(namespace, name), "__module__", None)
            if isinstance(defined_in, str) and defined_in.startswith("persian_rummy."):
                homes[name] = defined_in
            else:
                homes.setdefault(name, module)
    return homes


_HOME = _homes()
_DEFAULT_RULES = repr(persian_rummy.Rules())


def _resolve_public_name(app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: Element) -> Element | None:
    """
    Resolve a reference to a public name written the way users import it.

    Docstrings name objects as the package exports them (`GameState.melds`,
    `persian_rummy.Deal`); the reference documents each object in the module
    that defines it (``persian_rummy.state.GameState.melds``).
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].removeprefix("persian_rummy.")
    head = target.partition(".")[0]
    if head not in _HOME:
        return None
    domain = env.get_domain("py")
    full = f"{_HOME[head]}.{target}"
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], full, node, contnode)


def _no_inline_attribute_type(  # noqa: PLR0913 - the signature of Sphinx's event
    app: Sphinx,  # noqa: ARG001
    what: str,
    name: str,  # noqa: ARG001
    obj: object,  # noqa: ARG001
    options: object,  # noqa: ARG001
    lines: list[str],
) -> None:
    """
    Keep napoleon from reading the start of a one-line attribute docstring as a type.

    Napoleon takes ``text: more text`` on the first line of an attribute or
    property docstring as ``type: description``.  Here the types come from the
    annotations and a docstring never starts with one: an empty comment as the
    first line makes napoleon read the whole docstring as the description.
    """
    if what in {"attribute", "data", "property"} and lines and ":" in lines[0]:
        lines[:0] = ["..", ""]


def _keep_enum_members(  # noqa: PLR0913 - the signature of Sphinx's event
    app: Sphinx,  # noqa: ARG001
    what: str,  # noqa: ARG001
    name: str,  # noqa: ARG001
    obj: object,
    skip: bool,  # noqa: ARG001
    options: object,  # noqa: ARG001
) -> bool | None:
    """
    Document every member of an enumeration, with or without a comment of its own.
    """
    return False if isinstance(obj, enum.Enum) else None


def _short_defaults(  # noqa: PLR0913 - the signature of Sphinx's event
    app: Sphinx,  # noqa: ARG001
    what: str,  # noqa: ARG001
    name: str,  # noqa: ARG001
    obj: object,
    options: object,  # noqa: ARG001
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """
    Show a default of ``Rules()`` as ``Rules()`` rather than as every one of its fields.

    Likewise an attrs field whose default is a factory, which attrs shows as ``NOTHING``.
    """
    if signature is None:
        return None
    new = signature.replace(_DEFAULT_RULES, "Rules()")
    if isinstance(obj, type) and attrs.has(obj):
        for field in attrs.fields(obj):
            if isinstance(field.default, attrs.Factory):
                factory = getattr(field.default.factory, "__name__", "...")
                new = re.sub(rf"\b({field.name}(?:: [^=,]+)?) = NOTHING\b", rf"\1 = {factory}()", new)
    return None if new == signature else (new, return_annotation)


def setup(app: Sphinx) -> None:
    app.connect("missing-reference", _resolve_public_name)
    # Before napoleon, which listens at the default priority (500).
    app.connect("autodoc-process-docstring", _no_inline_attribute_type, priority=400)
    app.connect("autodoc-skip-member", _keep_enum_members)
    app.connect("autodoc-process-signature", _short_defaults)
