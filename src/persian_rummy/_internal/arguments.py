"""
Checks of the arguments of the public functions, raising the package's own errors.

Every function of the API refuses a bad argument with a `persian_rummy.PersianRummyError`
(an `InvalidTypeError` for a value of the wrong type, an `InvalidValueError` for one out of
its range), never with an `AttributeError` or an `IndexError` from deep inside.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

from .. import limits as _limits
from ..cards import Card
from ..cardsets import CardSet
from ..exceptions import InvalidTypeError, InvalidValueError


def expect(value: object, kind: type | tuple[type, ...], name: str, what: str) -> None:
    """
    Raise `InvalidTypeError` unless *value*, the argument *name*, is an instance of *kind*,
    described as *what* ("a GameState").
    """
    if not isinstance(value, kind):
        msg = f"{name} must be {what}, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


def seat(value: object, name: str) -> int:
    """
    *value*, the argument *name*, if it is a seat: an `int` from 0 to 3 (`bool` is not one).
    """
    if type(value) is not int:
        msg = f"{name} must be a seat 0-3, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value <= 3:
        msg = f"{name} must be a seat 0-3, got {value!r}"
        raise InvalidValueError(msg)
    return value


@overload
def optional_count(value: int, name: str, least: int) -> int: ...
@overload
def optional_count(value: object, name: str, least: int) -> int | None: ...
def optional_count(value: object, name: str, least: int) -> int | None:
    """
    *value* if it is `None` or an `int` of at least *least*; else the library's error, naming *name*.
    """
    if value is None:
        return None
    if type(value) is not int:
        msg = f"{name} must be an int or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < least:
        msg = f"{name} must be {least} or more, got {value!r}"
        raise InvalidValueError(msg)
    return value


def cards(value: Iterable[Card | str] | CardSet | str, name: str) -> CardSet:
    """
    *value*, the argument *name*, as a `CardSet`: itself, or the set of the cards given (cards
    or their notation, one by one or as one text).  An `int` is refused: a mask is no argument
    for cards (``CardSet(mask)`` builds a set from one on purpose).
    """
    if type(value) is CardSet:
        return value
    if isinstance(value, int):
        msg = f"{name} must be cards, their notation or a CardSet, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return CardSet(value)
