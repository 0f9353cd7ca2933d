"""
`Choice`, the base of the package's enumerations of text values: a value that is none of them is
refused with the package's own error, naming the choices.

`Phase`, `MeldKind`, the choices of the rule switches (`EmptyStockEnd`, `NextDealer`, ...) and the
enumerations of the subpackages (`persian_rummy.bots.heuristics.Until`) are choices: each member is
its text, and the text read from a file, a command line or a request is looked up by value.

>>> from persian_rummy import Phase
>>> Phase("draw"), Phase.DRAW == "draw"
(<Phase.DRAW: 'draw'>, True)
>>> Phase("drew")
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidValueError: Phase is one of 'deal', 'draw', 'play', ..., not 'drew'

Options of one's own, such as those of a player, refuse a bad value the same way:

>>> class Style(Choice):
...     CAREFUL = "careful"
...     BOLD = "bold"
>>> Style("bold")
<Style.BOLD: 'bold'>
>>> Style("reckless")
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidValueError: Style is one of 'careful', 'bold', not 'reckless'
"""

from __future__ import annotations

import enum

from ._internal import choices as _choices

__all__ = ["Choice"]


def __dir__() -> list[str]:
    return __all__


class Choice(enum.StrEnum):
    """
    An enumeration of text values; looking up any other value raises `InvalidValueError`, naming
    the enumeration and its values.
    """

    @classmethod
    def _missing_(cls, value: object) -> Choice:
        _choices.refuse(cls, value)
