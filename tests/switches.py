"""
The switches of `Rules` as the tests list them, by kind: read from its fields, so that a switch
added there joins every list at once.  A test that lists some switches by hand, each with what
it expects of it, checks its list against these (the new switch is then named in its failure).
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
