"""
The switches of `Rules` as the tests list them, by kind: read from its fields, so that a switch
added there joins every list at once.  A test that lists some switches by hand, each with what
it expects of it, checks its list against these (the new switch is then named in its failure).
The bounds of a number are found by trying values (`accepted_range`), so that what the schema
publishes is checked against what `Rules` accepts.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

import attrs

from persian_rummy import Rules

#: Every switch, in the order of the fields.
NAMES: Final = tuple(field.name for field in attrs.fields(Rules))
#: The on/off switches: a boolean default.
BOOLEANS: Final = tuple(field.name for field in attrs.fields(Rules) if type(field.default) is bool)
#: The numbers: an int default (a boolean is not one).
NUMBERS: Final = tuple(field.name for field in attrs.fields(Rules) if type(field.default) is int)
#: The named choices: an enumeration's member as the default.
CHOICES: Final = tuple(field.name for field in attrs.fields(Rules) if isinstance(field.default, Enum))
#: The enumerations of the named choices, by switch.
CHOICE_TYPES: Final[dict[str, type[Enum]]] = {
    field.name: type(field.default) for field in attrs.fields(Rules) if isinstance(field.default, Enum)
}
#: The scalar switches, in the order of the fields: a boolean, a number or a named choice, each of
#: which the text forms, JSON, its schema, OpenSpiel and the strategies follow from its field alone.
SCALARS: Final = tuple(name for name in NAMES if name in {*BOOLEANS, *NUMBERS, *CHOICES})
#: The structured switches (`Rules.card_values`): a value of their own, written out by each place.
STRUCTURED: Final = tuple(name for name in NAMES if name not in SCALARS)
#: How far `accepted_range` looks for the bounds of a number.
FAR: Final = 2**40


def accepted_range(name: str) -> tuple[int | None, int | None]:
    """
    The least and the greatest int that `Rules` accepts for the number *name*, found by trying
    values (a bisection from its default), not read from its validator; `None` for a side on which
    every int up to `FAR` is accepted.
    """

    def accepts(value: int) -> bool:
        try:
            Rules(**{name: value})  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    default: int = getattr(Rules(), name)
    bounds: list[int | None] = []
    for far in (-FAR, FAR):
        if accepts(far):
            bounds.append(None)
            continue
        inside, outside = default, far  # accepts(inside) and not accepts(outside)
        while abs(outside - inside) > 1:
            middle = (inside + outside) // 2
            inside, outside = (middle, outside) if accepts(middle) else (inside, middle)
        bounds.append(inside)
    return bounds[0], bounds[1]
