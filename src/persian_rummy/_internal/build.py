"""
The one way the package builds its values without checks.

Values built by hand (``CardSet(...)``, ``TableMeld(...)``, ``GameState(...)``, ``View(...)``)
go through their converters and validators.  Values the package derives from values already
checked (the engine's next state, the union of two card sets, a view of a valid state) need
none of that, and are built by `builder`: a function made once per class that fills in the
slots of a frozen, slotted attrs class directly, derived fields included.

Its parameters are the class's fields as a protocol's ``__call__`` declares them: every field, none
with a default, a private field by its name without the underscore (as attrs names it in
``__init__``), by keyword but for a few fields that it may take first, positionally, each of a type
that no other field has (so that mypy still tells them apart; see below).  mypy checks each call
against that declaration: a field added to the class and to the declaration is an error wherever a
value is built without it.  `builder` refuses, when the module that declares it is imported, a
declaration that does not list the class's fields so (``tests/test_internals.py`` also compares
their types with the fields').  A class with one field takes it positionally (`single`).

CPython passes up to fifteen arguments by keyword on the stack; a call with more builds a dictionary
and costs three times as much, so a builder takes enough fields positionally to stay within ``2 *
keywords + positional <= 30``.  The classes built here have at most ten fields.

A value made from another by a step that changes a few of its fields (the engine's next state from
the state before it, a state from a view) is built by `successor`: a function made once per step
from a declaration that names the value it is made from and the fields the step sets; every other
field is the value's own.  So only the steps that set a field name it, and a field added to the
class is carried along by every step that leaves it alone.

Both fill a mutable twin of the class (same slots, hence the same memory layout) and then
gives the object its real class, which is cheaper than setting frozen slots one by one.  A
class with a single slot, or with a slot for weak references (which CPython will not let an
object change its class into), is filled through the slots' descriptors.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import attrs

P = ParamSpec("P")
S = TypeVar("S")
T = TypeVar("T")
V = TypeVar("V")

#: The slot in which attrs caches the hash of a class made with cache_hash=True.
CACHED_HASH = "_attrs_cached_hash"
#: Each class built by `builder`, with the declaration of its parameters.
DECLARED: dict[type, Callable[..., object]] = {}
#: Each class built by `successor`, with the declarations of its steps.
SUCCESSORS: dict[type, list[Callable[..., object]]] = {}
#: How many slots of CPython's stack a call may use and still pass its arguments on the stack (a keyword takes two).
_STACK_GUIDELINE = 30


def builder(cls: type[T], declared: Callable[Concatenate[Any, P], T]) -> Callable[P, T]:
    """
    A function that builds a *cls* from the values of all its fields, taken as *declared* (a
    protocol's ``__call__``) says, with no conversion, no validation and no ``__attrs_post_init__``;
    one per class.

    The caller vouches that the values are consistent: every check of the class holds.

    Raises:
        TypeError: *declared* does not take exactly the fields of *cls*, without defaults, in field order:
            first those it takes positionally, each annotated unlike every other parameter, then the
            others by keyword.
    """
    positional, keywords = _declared_fields(cls, declared)
    DECLARED[cls] = declared
    return cast("Callable[P, T]", _builder(cast("type", cls), positional, keywords))


def single(cls: type[T], kind: type[V]) -> Callable[[V], T]:  # noqa: ARG001 (kind types the function made)
    """
    A function that builds a *cls*, a class with one field, from the value of that field (a *kind*),
    given positionally, as `builder` does.

    Raises:
        TypeError: *cls* has more than one field.
    """
    names = fields_of(cls)
    if len(names) != 1:
        msg = f"{cls.__name__} has more than one field: build it with builder()"
        raise TypeError(msg)
    return cast("Callable[[V], T]", _builder(cast("type", cls), names, ()))


def fields_of(cls: type) -> tuple[str, ...]:
    """
    The names by which a builder of *cls* takes its fields: the fields' ``__init__`` names (attrs drops the
    leading underscore of a private field), in field order, those with ``init=False`` included.
    """
    return tuple(attribute.alias for attribute in attrs.fields(cls))


def _declared_fields(cls: type, declared: Callable[..., object]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """
    The fields *declared* takes positionally and those it takes by keyword, checked as `builder` says.
    """
    names = fields_of(cls)
    parameters = list(inspect.signature(declared).parameters.values())[1:]
    positional = tuple(p.name for p in parameters if p.kind is p.POSITIONAL_ONLY)
    keywords = tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)
    annotations = [str(p.annotation) for p in parameters]
    problems = [
        positional + keywords != tuple(p.name for p in parameters),
        sorted(positional + keywords) != sorted(names),
        _out_of_order(names, positional) or _out_of_order(names, keywords),
        any(p.default is not p.empty for p in parameters),
        any(annotations.count(str(p.annotation)) > 1 for p in parameters[: len(positional)]),
        len(positional) + 2 * len(keywords) > _STACK_GUIDELINE,
    ]
    if any(problems):
        taken = {p.name for p in parameters}
        missing = "".join(f"; it lacks {name!r}" for name in names if name not in taken)
        extra = "".join(f"; {name!r} is no field" for name in taken.difference(names))
        msg = (
            f"{declared.__qualname__} must take the fields of {cls.__name__}, {names}, in order and without"
            " defaults: by keyword, but for a few fields of a type no other field has, taken first positionally,"
            f" enough of them that {len(positional)} + 2 * {len(keywords)} <= {_STACK_GUIDELINE}{missing}{extra}"
        )
        raise TypeError(msg)
    return positional, keywords


def _out_of_order(names: tuple[str, ...], some: tuple[str, ...]) -> bool:
    return [name for name in names if name in some] != list(some)


@functools.cache
def twin(cls: type) -> type[Any]:
    """
    A mutable class with the slots of the frozen, slotted *cls*: an object of it, its slots
    filled, becomes a *cls* when given that class (``obj.__class__ = cls``).  One per class.
    """
    return type(f"_Unchecked{cls.__name__}", (), {"__slots__": vars(cls)["__slots__"]})


@functools.cache
def _builder(cls: type, positional: tuple[str, ...], keywords: tuple[str, ...]) -> Callable[..., object]:
    names = _slot_names(cls)
    params = list(fields_of(cls))
    slots: tuple[str, ...] = vars(cls)["__slots__"]
    signature = ", ".join([*positional, "/"] if positional else [])
    if keywords:
        signature += (", " if signature else "") + ", ".join(["*", *keywords])
    # The namespace's own names start with "_b_", which no field's name does.
    namespace: dict[str, Any] = {"_b_new": object.__new__, "_b_cls": cls}
    if len(names) == 1 or "__weakref__" in slots:
        namespace.update({f"_b_set{i}": cls.__dict__[name].__set__ for i, name in enumerate(names)})
        lines = [f"def build({signature}):", "    _b_obj = _b_new(_b_cls)"]
        lines += [f"    _b_set{i}(_b_obj, {param})" for i, param in enumerate(params)]
        if CACHED_HASH in slots:
            namespace["_b_set_hash"] = cls.__dict__[CACHED_HASH].__set__
            lines.append("    _b_set_hash(_b_obj, None)")
        source = "\n".join([*lines, "    return _b_obj"]) + "\n"
    else:
        return _filling_a_twin(cls, f"build_{cls.__name__}", signature, params, namespace)
    exec(compile(source, f"<unchecked {cls.__name__}>", "exec"), namespace)  # noqa: S102 (code made from field names)
    build: Callable[..., object] = namespace["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    return build


def _filling_a_twin(
    cls: type, name: str, signature: str, values: Sequence[str], namespace: dict[str, Any]
) -> Callable[..., object]:
    """
    A function *name* that takes *signature*, fills a twin of *cls* with *values* (the source of each
    field's value, in field order, from names of *signature* and *namespace*) and gives it its class.
    """
    lines = [f"def {name}({signature}):", "    _b_obj = _b_new(_b_twin)"]
    lines += [f"    _b_obj.{field} = {value}" for field, value in zip(_slot_names(cls), values, strict=True)]
    if CACHED_HASH in vars(cls)["__slots__"]:
        lines.append(f"    _b_obj.{CACHED_HASH} = None")
    lines += ["    _b_obj.__class__ = _b_cls", "    return _b_obj"]
    # The namespace's own names start with "_b_", which no field's name does.
    namespace = {**namespace, "_b_new": object.__new__, "_b_cls": cls, "_b_twin": twin(cls)}
    exec(compile("\n".join(lines) + "\n", f"<unchecked {cls.__name__}>", "exec"), namespace)  # noqa: S102 (code made from field names)
    made: Callable[..., object] = namespace[name]
    made.__qualname__ = name
    return made


def _slot_names(cls: type) -> list[str]:
    """
    The names of the slots of *cls* that hold its fields, in field order (a private field's with its underscore).
    """
    return [attribute.name for attribute in attrs.fields(cls)]


def successor(
    cls: type[T], declared: Callable[Concatenate[Any, S, P], T], **fixed: object
) -> Callable[Concatenate[S, P], T]:
    """
    A function that builds a *cls* from another value and the fields a step sets, taken as *declared*
    (a protocol's ``__call__``) says: its first parameter, positional only, is the value the new one is
    made from (a *cls*, or a value with the same fields, as a view is to a state); each other parameter
    is a field of *cls*, by its ``__init__`` name, positional only or by keyword; every field it does not
    name is the value's own, but the fields *fixed* gives, which the step always sets to those values.
    No conversion, no validation, no ``__attrs_post_init__``, as `builder`.

    The caller vouches that the values are consistent: every check of the class holds.  mypy checks each
    call against *declared*; a field added to *cls* is carried along by every step that does not name it.

    Raises:
        TypeError: *declared* takes the value otherwise than first and positionally, a parameter that is
            no field of *cls* or a field twice, a default, or a parameter both positional and by keyword;
            *fixed* gives a field *declared* takes too, or no field; or *cls* has a slot for weak references.
    """
    names = fields_of(cls)
    parameters = list(inspect.signature(declared).parameters.values())[1:]
    changed = parameters[1:]
    taken = [p.name for p in changed]
    problems = [
        not parameters or parameters[0].kind is not parameters[0].POSITIONAL_ONLY,
        len(set(taken)) != len(taken) or not {*taken, *fixed} <= set(names) or not fixed.keys().isdisjoint(taken),
        any(p.default is not p.empty for p in parameters),
        any(p.kind not in {p.POSITIONAL_ONLY, p.KEYWORD_ONLY} for p in changed),
        "__weakref__" in getattr(cls, "__slots__", ()),
    ]
    if any(problems):
        extra = "".join(f"; {name!r} is no field" for name in [*taken, *fixed] if name not in names)
        msg = (
            f"{declared.__qualname__} must take the value a {cls.__name__} is made from, first and positionally,"
            f" then fields of {cls.__name__} among {names}, each once, without defaults{extra}"
        )
        raise TypeError(msg)
    SUCCESSORS.setdefault(cls, []).append(declared)
    positional = tuple(p.name for p in changed if p.kind is p.POSITIONAL_ONLY)
    keywords = tuple(p.name for p in changed if p.kind is p.KEYWORD_ONLY)
    step = _successor(cast("type", cls), positional, keywords, tuple(fixed.items()))
    return cast("Callable[Concatenate[S, P], T]", step)


def _successor(
    cls: type, positional: tuple[str, ...], keywords: tuple[str, ...], fixed: tuple[tuple[str, object], ...]
) -> Callable[..., object]:
    names = _slot_names(cls)
    given = {*positional, *keywords}
    constants = {f"_b_fixed_{param}": value for param, value in fixed}
    values = [
        param if param in given else f"_b_fixed_{param}" if f"_b_fixed_{param}" in constants else f"_b_from.{name}"
        for name, param in zip(names, fields_of(cls), strict=True)
    ]
    signature = ", ".join(["_b_from", *positional, "/", *(["*", *keywords] if keywords else [])])
    return _filling_a_twin(cls, f"step_{cls.__name__}", signature, values, constants)
