"""
The one way the package builds its values without checks.

Values built by hand (``CardSet(...)``, ``TableMeld(...)``, ``GameState(...)``, ``View(...)``)
go through their converters and validators.  Values the package derives from values already
checked (the engine's next state, the union of two card sets, a view of a valid state) need
none of that, and are built by `builder`: a function made once per class that fills in the
slots of a frozen, slotted attrs class directly, derived fields included, in field order.

It fills a mutable twin of the class (same slots, hence the same memory layout) and then
gives the object its real class, which is cheaper than setting frozen slots one by one.  A
class with a single slot, or with a slot for weak references (which CPython will not let an
object change its class into), is filled through the slots' descriptors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

T = TypeVar("T")

#: The slot in which attrs caches the hash of a class made with cache_hash=True.
CACHED_HASH = "_attrs_cached_hash"


def builder(cls: type[T]) -> Callable[..., T]:
    """
    A function that builds a *cls* from the values of all its fields, in field order,
    with no conversion, no validation and no ``__attrs_post_init__``; one per class.

    The caller vouches that the values are consistent: every check of the class holds.
    """
    return cast("Callable[..., T]", _builder(cast("type", cls)))


@functools.cache
def twin(cls: type) -> type[Any]:
    """
    A mutable class with the slots of the frozen, slotted *cls*: an object of it, its slots
    filled, becomes a *cls* when given that class (``obj.__class__ = cls``).  One per class.
    """
    return type(f"_Unchecked{cls.__name__}", (), {"__slots__": cls.__slots__})  # type: ignore[attr-defined]


@functools.cache
def _builder(cls: type) -> Callable[..., object]:
    names = [attribute.name for attribute in attrs.fields(cls)]
    slots: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    params = ", ".join(f"v{i}" for i in range(len(names)))
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    if len(names) == 1 or "__weakref__" in slots:
        namespace.update({f"set{i}": cls.__dict__[name].__set__ for i, name in enumerate(names)})
        lines = [f"def build({params}):", "    obj = new(cls)"]
        lines += [f"    set{i}(obj, v{i})" for i in range(len(names))]
        if CACHED_HASH in slots:
            namespace["set_hash"] = cls.__dict__[CACHED_HASH].__set__
            lines.append("    set_hash(obj, None)")
        source = "\n".join([*lines, "    return obj"]) + "\n"
    else:
        namespace["twin"] = twin(cls)
        lines = [f"def build({params}):", "    obj = new(twin)"]
        lines += [f"    obj.{name} = v{i}" for i, name in enumerate(names)]
        if CACHED_HASH in slots:
            lines.append(f"    obj.{CACHED_HASH} = None")
        lines += ["    obj.__class__ = cls", "    return obj"]
        source = "\n".join(lines) + "\n"
    exec(compile(source, f"<unchecked {cls.__name__}>", "exec"), namespace)  # noqa: S102 (code made from field names)
    build: Callable[..., object] = namespace["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    return build
