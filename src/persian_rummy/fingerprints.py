"""
Stable fingerprints of states and views: keys for transposition tables shared between processes
or saved to disk.

``hash(state)`` serves a dictionary within one process only: Python hashes text (and so the
phases and rule switches, which are text enumerations) with a seed drawn afresh for every
process (``PYTHONHASHSEED``), and cards by their identity.  `fingerprint` gives, for a
`GameState` or a `View`, 16 bytes that depend on the value alone: equal values have the same
fingerprint in any process, on any machine, under any hash seed and on every Python the
package supports.

>>> import random
>>> from persian_rummy import apply, from_json, legal_actions, new_game, observe, random_deal, to_json
>>> state = apply(new_game(), random_deal(new_game(), random.Random(7)))
>>> after = apply(state, legal_actions(state)[0])
>>> fingerprint(after).hex()
'79d87c3e1c6a0c75f1fbb6a55ed2821e'
>>> fingerprint(from_json(to_json(after))) == fingerprint(after)
True
>>> fingerprint(after) == fingerprint(state), fingerprint(observe(after, 1)) == fingerprint(observe(after, 2))
(False, False)

A fingerprint is a BLAKE2b digest of an encoding of every field that takes part in equality,
as ``attrs`` lists them (those of `GameState` or `View`, and within them those of `Rules`,
`TableMeld`, `DealScore` and `TeamScore`), salted with the kind of value, state or view.  The
encoding is unambiguous: two values of a kind have the same encoding exactly when they are
equal.  So different values have different fingerprints, except with a chance of about one
in 2**128 for a given pair: a table of a billion positions has a collision with a chance
below one in 10**20.

What is promised: a fingerprint depends on the value and on `FINGERPRINT_VERSION`, and on
nothing else.  A release changes fingerprints only along with `FINGERPRINT_VERSION`, and says
so in its changelog: store the version with a saved table, and drop the table when it
differs.  A new rule switch leaves fingerprints as they are, since the rules are encoded by the
switches that differ from Persian Rummy's defaults; a new field of states, views, melds or
scores changes them, and the version with them.
"""

from __future__ import annotations

import array
import enum
import functools
import hashlib
import itertools
import operator
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Final

import attrs

from .cards import Card
from .cardsets import CardSet
from .exceptions import InvalidTypeError, InvalidValueError
from .melds import StandIns, TableMeld
from .rules import DEFAULT_RULES, CardValues, Rules
from .state import GameState, View

__all__ = ["FINGERPRINT_VERSION", "fingerprint", "fingerprint_int"]


def __dir__() -> list[str]:
    return __all__


#: The version of the fingerprints' encoding; it changes whenever the fingerprint of some value does.
FINGERPRINT_VERSION: Final = 1
#: The length of a fingerprint, in bytes.
_SIZE: Final = 16
#: BLAKE2b's personalization: fingerprints of this package, in this version of the encoding.
_PERSON: Final = f"persian-rummy/{FINGERPRINT_VERSION}".encode("ascii")
#: What stands for `None` among the encoding's integers; no field of a valid value comes near it.
_NONE: Final = -(2**63)
#: The encoding's integers are written little-endian, 8 bytes each, signed.
_SWAP: Final = sys.byteorder == "big"

# A value is encoded as a sequence of integers from -2**63 to 2**63 - 1: its fields that take
# part in equality, in field order.  A scalar field gives one integer: a number itself, a card
# its index, a set of cards its mask, a choice a 63-bit code of its text (distinct within its
# enumeration); an optional scalar, `_NONE` for None.  The rules give the number of switches
# changed from the defaults, then for each its name (length, then characters) and its value:
# one integer for a scalar switch, the fourteen values from the two up for `Rules.card_values`.
# An attrs value gives its own fields' integers; a tuple of fixed length its items'; a tuple of
# any length its length, then its items'; any other optional field 0 for None, else 1 and its
# own integers.  Read with the class in hand, the integers give the value back: equal values,
# and only they, have the same encoding.
_Projection = Callable[[Any], int]
_Encoder = Callable[[Any], tuple[int, ...]]

#: The projection of an int or a bool: the int itself.
_SAME: Final = operator.index


def _text_code(text: str) -> int:
    """
    A 63-bit code of *text*, the same in every process.
    """
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8, person=_PERSON).digest(), "little") >> 1


def _choice(kind: type[enum.Enum]) -> _Projection:
    """
    The projection of an enumeration: a code of each member's value (its text in notation and
    JSON), so that the order of the members does not matter.
    """
    codes = {member: _text_code(str(member.value)) for member in kind}
    if len(set(codes.values())) != len(codes):  # pragma: no cover (63-bit codes of a few words)
        msg = f"two members of {kind.__name__} have the same code"
        raise TypeError(msg)
    return codes.__getitem__


@functools.lru_cache(maxsize=256)
def _rules(rules: Rules) -> tuple[int, ...]:
    """
    The integers of the switches of *rules* that differ from Persian Rummy's, by name: a new
    switch, whose default is Persian Rummy's rule, leaves existing fingerprints as they are.
    """
    numbers = [0]
    for name, encode in _SWITCHES:
        value = getattr(rules, name)
        if value != getattr(DEFAULT_RULES, name):
            numbers[0] += 1
            numbers += [len(name), *name.encode(), *encode(value)]
    return tuple(numbers)


#: The scalars that are an attribute of theirs, by type: the attribute's name.
_ATTRIBUTES: Final[dict[object, str]] = {CardSet: "mask", Card: "index"}


def _projection(kind: object) -> _Projection | None:
    """
    The projection onto one integer of a value of type *kind*; `None` when *kind* is no scalar.
    """
    if kind in (int, bool):
        return _SAME
    if kind in _ATTRIBUTES:
        return operator.attrgetter(_ATTRIBUTES[kind])
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _choice(kind)
    return None


def _card_values(values: CardValues) -> tuple[int, ...]:
    """
    The integers of card values (R23): the fourteen values, from the two up to the joker.
    """
    return values.by_rank


def _stand_ins(stand_ins: StandIns) -> int:
    """
    The integer of a meld's stand-ins (A7): six bits per joker, the index of its card plus one (0 for none).
    """
    code = 0
    for joker, card in stand_ins:
        code |= (card.index + 1) << (6 * (joker.index - 52))
    return code


def _scalar_switch(project: _Projection) -> _Encoder:
    return lambda value: (project(value),)


def _switches(cls: type) -> tuple[tuple[str, _Encoder], ...]:
    """
    The switches of *cls* (`Rules`), each with its encoding: one integer for a number, a
    boolean or a choice; the fourteen values of `CardValues`.

    Raises:
        TypeError: a switch of another type.
    """
    hints = typing.get_type_hints(cls)
    switches: list[tuple[str, _Encoder]] = []
    for name in (field.name for field in attrs.fields(cls) if field.eq):
        if hints[name] is CardValues:
            switches.append((name, _card_values))
            continue
        project = _projection(hints[name])
        if project is None:
            msg = f"fingerprints cannot encode the switch {name} of type {hints[name]!r}"
            raise TypeError(msg)
        switches.append((name, _scalar_switch(project)))
    return tuple(switches)


_SWITCHES: Final = _switches(Rules)


def _optional_of(kind: object) -> object | None:
    """
    *X* when *kind* is ``X | None``, else `None`.
    """
    items: tuple[object, ...] = typing.get_args(kind)
    if typing.get_origin(kind) in (types.UnionType, typing.Union) and len(items) == 2 and types.NoneType in items:
        return items[0] if items[1] is types.NoneType else items[1]
    return None


class _Source:
    """
    The source of an encoder, and the objects its names stand for.
    """

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {"NONE": _NONE, "chain": itertools.chain.from_iterable}

    def name(self, value: object) -> str:
        """
        A name for *value* in the encoder's namespace.
        """
        name = f"f{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def items(self, kind: object, value: str) -> str:
        """
        The items of a tuple display that encode *value*, the source of an expression of type *kind*.

        Raises:
            TypeError: no encoding is known for *kind* (a field of an unforeseen type).
        """
        project = _projection(kind)
        if project is _SAME:
            return value
        if project is not None:
            return f"{value}.{_ATTRIBUTES[kind]}" if kind in _ATTRIBUTES else f"{self.name(project)}({value})"
        inner = _optional_of(kind)
        if inner is not None:
            if _projection(inner) is not None:
                return f"(NONE if {value} is None else {self.items(inner, value)})"
            return f"*((0,) if {value} is None else (1, {self.items(inner, value)}))"
        parts = typing.get_args(kind)
        if typing.get_origin(kind) is tuple and parts and len(set(parts) - {Ellipsis}) == 1:
            return self.tuple_items(parts[0], value, counted=parts[-1] is Ellipsis)
        if kind is Rules:
            return f"*{self.name(_rules)}({value})"
        if isinstance(kind, type) and attrs.has(kind):
            return f"*{self.name(_encoder(kind))}({value})"
        msg = f"fingerprints cannot encode a value of type {kind!r}"
        raise TypeError(msg)

    def tuple_items(self, item: object, value: str, *, counted: bool) -> str:
        """
        The items that encode *value*, a tuple of values of type *item*, its length first when *counted*.
        """
        project = _projection(item)
        if project is _SAME:
            items = f"*{value}"
        elif project is not None:
            items = f"*map({self.name(project)}, {value})"
        else:
            items = f"*chain(map({self.name(_encoder(item))}, {value}))"
        return f"len({value}), {items}" if counted else items


#: The fields encoded only when they are not `None`, as their value alone: the discarder, which the phase
#: before it says is there (the phases of a call, A24), so that a state without calls keeps its fingerprint.
_ONLY_WHEN_SET: Final = frozenset({"discarder"})


@functools.cache
def _encoder(cls: type) -> _Encoder:
    """
    The encoder of an attrs class: a function made from the class's fields that take part in
    equality, in their order, which gives a value's integers.

    Raises:
        TypeError: a field is of a type that has no encoding.
    """
    hints = typing.get_type_hints(cls)
    source = _Source()
    items = [
        f"*(() if v.{field.name} is None else (v.{field.name},))"
        if field.name in _ONLY_WHEN_SET
        else source.items(hints[field.name], f"v.{field.name}")
        for field in attrs.fields(cls)
        if field.eq and (cls, field.name) != (TableMeld, "stand_ins")
    ]
    if cls is TableMeld:
        # A meld's stand-ins (A7) share the integer of its ace_low, which they leave as it is when there are none.
        place = [field.name for field in attrs.fields(cls) if field.eq].index("ace_low")
        stand_ins = f"{source.name(_stand_ins)}(v.stand_ins)"
        items[place] = f"({items[place]} | {stand_ins} << 1 if v.stand_ins.pairs else {items[place]})"
    text = "def encode(v):\n    return (\n" + "".join(f"        {item},\n" for item in items) + "    )\n"
    exec(compile(text, f"<fingerprint of {cls.__name__}>", "exec"), source.namespace)  # noqa: S102 (code made from field names)
    encode: _Encoder = source.namespace["encode"]
    encode.__qualname__ = encode.__name__ = f"encode_{cls.__name__}"
    return encode


#: By class: the kind of value, which salts the digest, and the encoder of its fields.
_KINDS: Final[dict[type, tuple[bytes, _Encoder]]] = {
    GameState: (b"state", _encoder(GameState)),
    View: (b"view", _encoder(View)),
}
#: By kind of value: the digest of nothing yet, copied for each fingerprint (cheaper than a new one).
_DIGESTS: Final = {kind: hashlib.blake2b(digest_size=_SIZE, salt=kind, person=_PERSON) for kind, _ in _KINDS.values()}


def _encoding(value: GameState | View) -> tuple[bytes, array.array[int]]:
    """
    The kind of *value* and the integers that encode it, from which its fingerprint is made.

    Raises:
        InvalidTypeError: *value* is neither a `GameState` nor a `View`.
        InvalidValueError: a number of *value* is out of the encoding's range (no valid value's is).
    """
    found = _KINDS.get(type(value))
    if found is None:
        msg = f"a fingerprint is of a GameState or a View, got {type(value).__name__}"
        raise InvalidTypeError(msg)
    kind, encode = found
    try:
        encoded = array.array("q", encode(value))
    except OverflowError:
        msg = f"a number of the {type(value).__name__} is beyond the encoding's 64-bit integers"
        raise InvalidValueError(msg) from None
    if _SWAP:  # pragma: no cover (big-endian machines)
        encoded.byteswap()
    return kind, encoded


def fingerprint(value: GameState | View) -> bytes:
    """
    16 bytes that identify the `GameState` or `View` *value*, the same in every process.

    Equal values give equal fingerprints, whatever the process, the machine, the hash seed or
    the Python version; different values (a state and a view among them) give different
    ones, except with a chance of about one in 2**128.  They change only with
    `FINGERPRINT_VERSION`.

    Raises:
        InvalidTypeError: *value* is neither a `GameState` nor a `View`.

    >>> from persian_rummy import new_game
    >>> key = fingerprint(new_game())
    >>> len(key), key == fingerprint(new_game()), key == fingerprint(new_game(dealer=1))
    (16, True, False)
    """
    kind, encoded = _encoding(value)
    digest = _DIGESTS[kind].copy()
    digest.update(encoded)
    return digest.digest()


def fingerprint_int(value: GameState | View) -> int:
    """
    The `fingerprint` of *value* as a non-negative int below 2**128 (its bytes, big-endian).

    Its low 64 bits, ``fingerprint_int(value) & (2**64 - 1)``, make a key for a table of
    fixed-size integers.

    Raises:
        InvalidTypeError: *value* is neither a `GameState` nor a `View`.

    >>> from persian_rummy import new_game
    >>> fingerprint_int(new_game()) == int.from_bytes(fingerprint(new_game()), "big")
    True
    """
    return int.from_bytes(fingerprint(value), "big")
