"""
The scalar switches of `Rules` read from its fields: a boolean, an int or a `Choice`, each with
its default, its rule (the field's ``rule`` metadata) and its line in the class docstring, and an
int with the bounds of its validator (`Between`).  From them comes each switch's part of the JSON
Schema (`complete`), so that a new scalar switch is described there as soon as it is declared;
the structured switches (`CardValues`) keep the part written in ``schema.json``.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, Final

import attrs
from attrs import Attribute, frozen

from .. import limits as _limits
from ..choices import Choice
from ..exceptions import InvalidTypeError, InvalidValueError

#: A docstring's entry of an attribute: its name, a colon, then the text on that line.
_ENTRY: Final = re.compile(r"(\w+): (.*)")
#: Markup of a reference in a docstring (`Rules.card_values`), shown as its text in the schema.
_REFERENCE: Final = re.compile(r"`~?([^`]*)`")


@frozen
class Between:
    """
    The validator of a number of the rules: an int from *low* to *high*; *why* follows the bounds
    in the message of a refused value.
    """

    low: int
    high: int
    why: str = ""

    def __call__(self, instance: object, attribute: Attribute[int], value: int) -> None:  # noqa: ARG002 (attrs validators take (instance, attribute, value))
        if type(value) is not int:
            msg = f"{attribute.name} must be an int, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)
        if not self.low <= value <= self.high:
            msg = f"{attribute.name} must be between {self.low} and {self.high}{self.why}, got {value!r}"
            raise InvalidValueError(msg)


def attributes(doc: str | None) -> dict[str, str]:
    """
    The entries of the ``Attributes:`` section of the docstring *doc*, by name, each on one line
    with its references as plain text; none without a docstring (``python -OO``).
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    start = lines.index("Attributes:") + 1 if "Attributes:" in lines else len(lines)
    entries: dict[str, list[str]] = {}
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break
        entry = _ENTRY.fullmatch(line[4:]) if line.startswith("    ") and line[4:5] != " " else None
        if entry is not None:
            entries[entry[1]] = [entry[2]]
        elif entries and line.strip():
            entries[list(entries)[-1]].append(line.strip())
    return {name: _REFERENCE.sub(r"\1", " ".join(" ".join(parts).split())) for name, parts in entries.items()}


def scalar(field: Attribute[Any], description: str | None) -> dict[str, object] | None:
    """
    The JSON Schema of one switch: a boolean, an int (within its validator's bounds, if it is a
    `Between`) or a `Choice` (one of its values), with its default and *description* (its rule id
    without one); `None` for a switch of another kind, a structured one.
    """
    default = field.default
    if type(default) is bool:
        schema: dict[str, object] = {"type": "boolean"}
    elif type(default) is int:
        schema = {"type": "integer"}
        if isinstance(field.validator, Between):
            schema |= {"minimum": field.validator.low, "maximum": field.validator.high}
    elif isinstance(default, Choice):
        schema = {"enum": [member.value for member in type(default)]}
        default = default.value
    else:
        return None
    rule = field.metadata["rule"]
    return schema | {"default": default, "description": description or f"The switch of rule {rule}."}


def complete(definition: dict[str, Any], cls: type) -> None:
    """
    Fill in *definition*, the schema of the rules object written in ``schema.json``, with the
    scalar switches of *cls* (`Rules`): its properties become every field in order, each scalar
    switch's from `scalar` (in place of anything written for it), each other one's as written.
    What is written for no field is kept after them, so that the tests see it.
    """
    written: dict[str, object] = definition["properties"]
    described = attributes(cls.__doc__)
    properties: dict[str, object] = {}
    for field in attrs.fields(cls):
        generated = scalar(field, described.get(field.name))
        written_part = written.pop(field.name, None)
        if generated is not None:
            properties[field.name] = generated
        elif written_part is not None:
            properties[field.name] = written_part
    definition["properties"] = properties | written
