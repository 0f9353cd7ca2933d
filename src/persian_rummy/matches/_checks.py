"""
The checks of the fields of a match's results, and the pieces of their JSON reader.

The checks raise `InvalidTypeError` and `InvalidValueError`; the reader raises
`InvalidDataError` with the path of the problem (``$.games[3].seeds``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Final, TypeVar

from .._core import jsontext as _jsontext
from .._core import limits as _limits
from ..exceptions import InvalidDataError, InvalidTypeError, InvalidValueError, PersianRummyError
from ..records import GameRecord
from ..scoring import DealScore
from ..serialize import from_data

_T = TypeVar("_T")

#: The seats of the two teams in the first game of a duplicate pair, and in the second.
LAYOUTS: Final = (((0, 2), (1, 3)), ((1, 3), (0, 2)))
#: The seeds of the derived streams are below this.
SEED_LIMIT: Final = 2**64


# -- checks of the fields --------------------------------------------------------------------------------------


def number(value: int) -> str:
    """
    An int as a message shows it: whole up to 40 digits, else by its size (Python will not write an
    int of more than 4,300 digits as text).

    >>> number(12), number(10**5000)
    ('12', 'an int of 16,610 bits')
    """
    if -(10**40) < value < 10**40:
        return str(value)
    return f"an int of {value.bit_length():,} bits"


def count(value: object, name: str) -> int:
    """
    *value*, the field *name*, if it is an `int`, 0 or more.
    """
    if type(value) is not int:
        msg = f"{name} must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < 0:
        msg = f"{name} must be 0 or more, got {number(value)}"
        raise InvalidValueError(msg)
    return value


def seed(value: object, name: str) -> int:
    """
    *value*, the field *name*, if it is a seed of a derived stream: an `int` from 0 to 2**64 - 1.
    """
    given = count(value, name)
    if given >= SEED_LIMIT:
        msg = f"{name} must be below 2**64, got {number(given)}"
        raise InvalidValueError(msg)
    return given


def _four(value: object, name: str) -> tuple[object, ...]:
    items = tuple(value) if isinstance(value, Iterable) and not isinstance(value, str) else None
    if items is None or len(items) != 4:
        msg = f"{name} must be four values, one per seat, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return items


def seeds(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four seeds, one per seat.
    """
    items = _four(value, "seeds")
    return (seed(items[0], "seeds"), seed(items[1], "seeds"), seed(items[2], "seeds"), seed(items[3], "seeds"))


def decisions(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four counts, one per seat.
    """
    items = _four(value, "decisions")
    name = "decisions"
    return (count(items[0], name), count(items[1], name), count(items[2], name), count(items[3], name))


def _seconds(value: object) -> float:
    if type(value) is not int and type(value) is not float:
        msg = f"thinking times must be numbers of seconds, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    seconds = float(value)
    if not 0 <= seconds < math.inf:
        msg = f"thinking times must be seconds, 0 or more, got {seconds!r}"
        raise InvalidValueError(msg)
    return seconds


def thinking(value: Iterable[float]) -> tuple[float, float, float, float]:
    """
    Four numbers of seconds, one per seat, as floats.
    """
    items = _four(value, "thinking")
    return (_seconds(items[0]), _seconds(items[1]), _seconds(items[2]), _seconds(items[3]))


def cpu(value: Iterable[float]) -> tuple[float, float, float, float]:
    """
    Four numbers of CPU seconds, one per seat, as floats.
    """
    items = _four(value, "cpu")
    return (_seconds(items[0]), _seconds(items[1]), _seconds(items[2]), _seconds(items[3]))


def overruns(value: Iterable[int]) -> tuple[int, int, int, int]:
    """
    Four counts of decisions over the limit, one per seat.
    """
    items = _four(value, "overruns")
    name = "overruns"
    return (count(items[0], name), count(items[1], name), count(items[2], name), count(items[3], name))


def layout(value: object) -> tuple[tuple[int, int], tuple[int, int]]:
    """
    The seats of the first team and of the second, one of `LAYOUTS` (lists are read as tuples).
    """
    if isinstance(value, list | tuple):
        value = tuple(tuple(item) if isinstance(item, list) else item for item in value)
    for seats in LAYOUTS:
        if value == seats:
            return seats
    msg = f"seats must be ((0, 2), (1, 3)) or ((1, 3), (0, 2)), the seats of each team, got {_limits.shown(value)}"
    raise InvalidValueError(msg)


def deal_scores(value: Iterable[DealScore]) -> tuple[DealScore, ...]:
    """
    The score of each deal of a game, numbered from 1 in order.
    """
    raw: object = value
    deals = tuple(raw) if isinstance(raw, Iterable) and not isinstance(raw, str) else ()
    if not deals or any(type(deal) is not DealScore for deal in deals):
        msg = f"deals must be the DealScore of each deal played, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    numbers = [deal.deal for deal in deals]
    if numbers != list(range(1, len(deals) + 1)):
        msg = f"deals must be numbered 1, 2, ... in order, got {numbers}"
        raise InvalidValueError(msg)
    return deals


def names(value: Iterable[str]) -> tuple[str, str]:
    """
    The names of the two teams: text of 1 to 100 characters each.
    """
    raw: object = value
    items = tuple(raw) if isinstance(raw, Iterable) and not isinstance(raw, str) else None
    if items is None or len(items) != 2:
        msg = f"names must be two names, the first team's and the second's, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    for name in items:
        if not isinstance(name, str):
            msg = f"a team's name must be text, got {_limits.shown(name)}"
            raise InvalidTypeError(msg)
        if not 0 < len(name) <= _limits.MAX_NAME or not name.isprintable():
            msg = f"a team's name has 1 to {_limits.MAX_NAME} printable characters, got {_limits.shown(name)}"
            raise InvalidValueError(msg)
    return items


# -- reading JSON ----------------------------------------------------------------------------------------------


def loads(text: str | bytes) -> object:
    """
    The JSON value of *text*, refused with an `InvalidDataError` when it is not JSON, has a key
    twice in an object, a number JSON does not have (``NaN``) or is nested too deep to read.
    """
    raw: object = text
    if not isinstance(raw, str | bytes):
        msg = f"text must be JSON text, got {_limits.shown(text)}"
        raise InvalidTypeError(msg)
    return _jsontext.decode(text, None)


def fields(value: object, path: str, expected: Iterable[str]) -> dict[str, object]:
    """
    *value*, an object at *path* with exactly the fields *expected*.
    """
    if not isinstance(value, dict):
        msg = f"{path}: expected an object, got {_limits.shown(value)}"
        raise InvalidDataError(msg)
    names = list(expected)
    unknown = [name for name in value if name not in names]
    if unknown:
        msg = f"{path}: unknown field {_limits.shown(unknown[0])}"
        raise InvalidDataError(msg)
    missing = [name for name in names if name not in value]
    if missing:
        msg = f"{path}: missing field {missing[0]!r}"
        raise InvalidDataError(msg)
    return value


def array(value: object, path: str) -> list[object]:
    """
    *value*, an array at *path*.
    """
    if not isinstance(value, list):
        msg = f"{path}: expected an array, got {_limits.shown(value)}"
        raise InvalidDataError(msg)
    return value


def built(path: str, build: Callable[[], _T]) -> _T:
    """
    What *build* returns, a refusal of the library raised again as an `InvalidDataError` at *path*.
    """
    try:
        return build()
    except PersianRummyError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None


def document(value: object, path: str, kind: type[_T]) -> _T:
    """
    The document of `persian_rummy.serialize` at *path*, a *kind* (`DealScore`, `GameRecord`).
    """
    try:
        read = from_data(value)
    except PersianRummyError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None
    if not isinstance(read, kind):
        msg = f"{path}: expected a {kind.__name__} document, got a {type(read).__name__}"
        raise InvalidDataError(msg)
    return read


def record(value: object, path: str) -> GameRecord | None:
    """
    The game record at *path*, or `None` for ``null``.
    """
    return None if value is None else document(value, path, GameRecord)
