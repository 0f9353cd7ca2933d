"""
Players from anywhere: ``module:attribute[:arguments]`` and the entry points of the group
``persian_rummy.players``, loaded and built for `persian_rummy.bots.players.make_player`.

A spec names a class or a factory, ``mybots:Cautious`` or ``mybots.search:Deep.quick``, called with
the arguments after a second colon: a comma-separated list of values and ``name=value`` pairs,
each value a Python literal (``3``, ``0.5``, ``'text'``, ``True``, ``None``) or else taken as text.

>>> arguments("3, depth=2, name=quick")
((3,), {'depth': 2, 'name': 'quick'})
>>> arguments("")
((), {})

An installed package registers a player under a name of its own in ``pyproject.toml``::

    [project.entry-points."persian_rummy.players"]
    cautious = "mybots:Cautious"

and ``cautious`` or ``cautious:depth=2`` then names it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
from collections.abc import Callable
from typing import Final

from .. import limits as _limits
from ..exceptions import InvalidValueError

#: The entry-point group in which installed packages register their players.
GROUP: Final = "persian_rummy.players"


def entry_points() -> dict[str, str]:
    """
    The players installed packages register, by name: the ``module:attribute`` of each.
    """
    return {point.name: point.value for point in importlib.metadata.entry_points(group=GROUP)}


def arguments(text: str) -> tuple[tuple[object, ...], dict[str, object]]:
    """
    The positional and the keyword arguments written in *text*, as a spec writes them.

    Raises:
        InvalidValueError: a name is not an identifier, is given twice, or a value comes after a ``name=value``.
    """
    positional: list[object] = []
    keywords: dict[str, object] = {}
    for item in (part.strip() for part in text.split(",")) if text.strip() else ():
        name, equals, value = item.partition("=")
        if not equals:
            if keywords:
                msg = f"the argument {_limits.shown(item)} comes after a name=value argument"
                raise InvalidValueError(msg)
            positional.append(_literal(item))
            continue
        name = name.strip()
        if not name.isidentifier() or name in keywords:
            msg = f"{_limits.shown(name)} is not an argument's name, or is given twice, in {_limits.shown(text)}"
            raise InvalidValueError(msg)
        keywords[name] = _literal(value.strip())
    return tuple(positional), keywords


def _literal(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


def load(target: str, spec: str) -> object:
    """
    The object *target* (``module:attribute``, the attribute dotted or not) names, for the player *spec*.

    Raises:
        InvalidValueError: the module cannot be imported (the error it raised is chained), or has no such attribute.
    """
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute or not all(part.isidentifier() for part in module_name.split(".")):
        msg = f"{_limits.shown(spec)}: a player from a module is named module:attribute, got {_limits.shown(target)}"
        raise InvalidValueError(msg)
    try:
        found: object = importlib.import_module(module_name)
    except Exception as error:
        msg = (
            f"{_limits.shown(spec)}: the module {module_name!r} could not be imported: {type(error).__name__}: {error}"
        )
        raise InvalidValueError(msg) from error
    for part in attribute.split("."):
        if not part.isidentifier() or not hasattr(found, part):
            msg = f"{_limits.shown(spec)}: the module {module_name!r} has no attribute {attribute!r}"
            raise InvalidValueError(msg)
        found = getattr(found, part)
    return found


def build(found: object, text: str, spec: str) -> object:
    """
    What *found* (a class or a factory) returns when called with the arguments *text* writes.

    An object that is already a player (it has a ``choose`` and is not a class) is taken as it is,
    when no arguments are given.

    Raises:
        InvalidValueError: *found* cannot be called, or calling it raised (the error is chained).
    """
    if not isinstance(found, type) and callable(getattr(found, "choose", None)) and not text:
        return found
    if not callable(found):
        msg = f"{_limits.shown(spec)}: {_limits.shown(found)} is neither a class nor a factory of players"
        raise InvalidValueError(msg)
    make: Callable[..., object] = found
    try:
        positional, keywords = arguments(text)
    except InvalidValueError as error:
        raise InvalidValueError(f"{_limits.shown(spec)}: {error}") from None
    try:
        return make(*positional, **keywords)
    except Exception as error:
        msg = f"{_limits.shown(spec)}: building the player failed: {type(error).__name__}: {error}"
        raise InvalidValueError(msg) from error
