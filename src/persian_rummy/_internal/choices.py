"""
The base of the package's enumerations: a value that is none of them is refused with the
package's own error, naming the choices.
"""

from __future__ import annotations

import enum
from typing import NoReturn

from ..exceptions import InvalidValueError
from . import limits as _limits


def refuse(kind: type[enum.Enum], value: object) -> NoReturn:
    """
    Raise `InvalidValueError` for *value*, which is none of *kind*'s values, naming them.
    """
    choices = ", ".join(repr(member.value) for member in kind)
    msg = f"{kind.__name__} is one of {choices}, not {_limits.shown(value)}"
    raise InvalidValueError(msg)


class Choice(enum.StrEnum):
    """
    An enumeration of text values; looking up any other value raises `InvalidValueError`.
    """

    @classmethod
    def _missing_(cls, value: object) -> Choice:
        refuse(cls, value)
