"""
Numbers as learning code hands them over, often NumPy's, read as the library's ints: action ids,
seeds and the integer settings of the environments.

A policy's output is often a numpy integer or an array of one element, a seed drawn from a numpy
generator a numpy integer, a seat or a team read from a configuration array a numpy integer: the
learning interfaces read each of them as the `int` it holds, and refuse anything else (a float, a
`bool`, an array of several elements) with the library's `InvalidTypeError` or
`InvalidValueError`, never a bare ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar

import numpy as np

from .. import limits as _limits
from ..exceptions import InvalidTypeError, InvalidValueError

_T = TypeVar("_T")

#: Seeds are below this: ``reset(seed=...)`` takes an int from 0 to 2**64 - 1, or `None`, in every environment.
SEED_LIMIT: Final = 2**64


def plain(value: _T) -> _T | int:
    """
    *value*, a numpy integer or a numpy array of no dimensions holding one read as the `int` it holds
    (a setting: a seat, a team, a count; a seed); anything else as it is, for the setting's own check.
    """
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
        return int(value.item())
    return value


def seed_of(value: object) -> int | None:
    """
    *value* if it is `None` or an `int` from 0 to 2**64 - 1 (a numpy integer, or an array of no
    dimensions holding one, is read as one; `bool` is refused): the seed rule of every environment.

    Raises:
        InvalidTypeError: *value* is neither `None` nor an integer.
        InvalidValueError: it is below 0 or not below 2**64.
    """
    if value is None:
        return None
    value = plain(value)
    if type(value) is not int:
        msg = f"seed must be an int or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    seed: int = value
    if not 0 <= seed < SEED_LIMIT:
        shown = str(seed) if seed.bit_length() <= 128 else f"an int of {seed.bit_length():,} bits"
        msg = f"seed must be from 0 to 2**64 - 1, or None, got {shown}"
        raise InvalidValueError(msg)
    return seed


def seeds_of(value: object, count: int) -> list[int | None]:
    """
    The seed of each of *count* games from *value*: `None` for each, *value* + i for game i, or one
    from a sequence or a one-dimensional numpy array of *count* (each as `seed_of` reads it), as
    Gymnasium's ``SyncVectorEnv`` takes them.

    Raises:
        InvalidTypeError: *value* is none of those, or a seed in it is not one.
        InvalidValueError: not *count* seeds, or a seed outside 0 to 2**64 - 1.
    """
    if value is None:
        return [None] * count
    value = plain(value)
    if type(value) is int:
        return [seed_of(int(value) + i) for i in range(count)]
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu":
        value = value.tolist()
    if isinstance(value, Sequence) and not isinstance(value, str):
        if len(value) != count:
            msg = f"seeds in a sequence must be one per game, {count}, got {len(value)}"
            raise InvalidValueError(msg)
        return [seed_of(seed) for seed in value]
    msg = f"seed must be an int, a sequence of one per game, or None, got {_limits.shown(value)}"
    raise InvalidTypeError(msg)


def action_id_of(value: object) -> object:
    """
    *value* as an action id: an `int`, a numpy integer of any type, or a numpy array of one integer
    element (of any shape), read as the `int` they hold; anything else but an array as it is, for
    `persian_rummy.rl.actionids.action_from_id` to refuse.

    Raises:
        InvalidTypeError: *value* is a numpy array of more than one element, or not of integers.
    """
    if type(value) is int:
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        if value.size == 1 and value.dtype.kind in "iu":
            return int(value.reshape(()).item())
        msg = f"an action id in an array is its one integer element, got an array of {value.size} {value.dtype}"
        raise InvalidTypeError(msg)
    return value


def vector_ids(actions: object, count: int, started: bool) -> np.ndarray[Any, np.dtype[Any]]:
    """
    *actions* as an array of one id for each of *count* games: the step of a vector environment,
    *started* once it was reset.

    Raises:
        InvalidValueError: a step before the reset, or not *count* ids in a row.
    """
    if not started:
        msg = "the vector environment must be reset before it is stepped"
        raise InvalidValueError(msg)
    ids = np.asarray(actions)
    if ids.shape != (count,):
        msg = f"actions must be one id per game, of shape ({count},), got shape {ids.shape}"
        raise InvalidValueError(msg)
    return ids


def check_out(out: object, shape: tuple[int, ...]) -> None:
    """
    Refuse an *out* that is not a writable ``float32`` array of *shape* (the tensors' ``out=``).
    """
    if not isinstance(out, np.ndarray) or out.dtype != np.float32:
        got = f"an array of {out.dtype}" if isinstance(out, np.ndarray) else _limits.shown(out)
        msg = f"out must be a numpy array of float32, got {got}"
        raise InvalidTypeError(msg)
    if out.shape != shape:
        msg = f"out must be of shape {shape}, got {out.shape}"
        raise InvalidValueError(msg)
    if not out.flags.writeable:
        msg = "out must be a writable array, got a read-only one"
        raise InvalidValueError(msg)
