"""
How an enumeration refuses a value that is none of its own, with the package's own error naming
the choices: the refusal of `persian_rummy.choices.Choice` and of the cards' suits and ranks.
"""

from __future__ import annotations

import enum
from typing import NoReturn

from .. import limits as _limits
from ..exceptions import InvalidValueError


def refuse(kind: type[enum.Enum], value: object) -> NoReturn:
    """
    Raise `InvalidValueError` for *value*, which is none of *kind*'s values, naming them.
    """
    choices = ", ".join(repr(member.value) for member in kind)
    msg = f"{kind.__name__} is one of {choices}, not {_limits.shown(value)}"
    raise InvalidValueError(msg)
