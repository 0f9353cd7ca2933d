"""
Every field of `GameState` and `View` against each place that must know it.

A field added to a state or a view must be written and read in notation and JSON, described by the
schema, compared and hashed (fingerprints encode every field compared), checked by the validation,
carried into the view, drawn in pictures, shown on the terminal's screen and in the browser.  mypy names the places that
build a value without it; it cannot name the places that read every field but this one.  So each
place below is read for the field's name (an attribute ``.name``, a key ``"name"``, a keyword
``name=``), and a field that a place leaves out on purpose is listed in `NOT_THERE` with the reason.
A new field fails the test of each place still to do, naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from persian_rummy import GameState, View

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "persian_rummy"


def _mentions(*paths: str) -> Callable[[str], bool]:
    """
    Whether the modules at *paths* name a field: as an attribute (a private field's too, ``._table``),
    a quoted key or a keyword.
    """
    text = "\n".join((PACKAGE / path).read_text(encoding="utf-8") for path in paths)

    def named(field: str) -> bool:
        return re.search(rf"\._?{field}\b|[\"']{field}[\"']|\b{field}=", text) is not None

    return named


def _schema(definition: str) -> Callable[[str], bool]:
    schema = json.loads((PACKAGE / "schema.json").read_text(encoding="utf-8"))
    properties = set(schema["$defs"][definition]["properties"])
    return lambda field: field in properties


def _hashed(cls: type) -> Callable[[str], bool]:
    fields = {field.alias: field.eq for field in attrs.fields(cls)}
    return lambda field: fields[field] is True


def _browser() -> Callable[[str], bool]:
    text = "\n".join(path.read_text(encoding="utf-8") for path in sorted((PACKAGE / "server").rglob("*.js")))
    return lambda field: re.search(rf"\bview\??\.{field}\b", text) is not None


#: The places that must know each field of a state, by the name a failure shows.
STATE_PLACES: dict[str, Callable[[str], bool]] = {
    "notation (_internal/text.py writes, notation.py reads)": _mentions("_internal/text.py", "notation.py"),
    "JSON (serialize.py)": _mentions("serialize.py"),
    "the schema (schema.json, $defs.state_fields)": _schema("state_fields"),
    "equality, the hash and fingerprints (the field's eq)": _hashed(GameState),
    "validation (_internal/validation.py)": _mentions("_internal/validation.py"),
    "the view of a state (_internal/unchecked.py, view_of)": _mentions("_internal/unchecked.py"),
    "pictures (_internal/scene.py)": _mentions("_internal/scene.py"),
}
#: The places that must know each field of a view.
VIEW_PLACES: dict[str, Callable[[str], bool]] = {
    "JSON (serialize.py)": _mentions("serialize.py"),
    "the schema (schema.json, $defs.view_fields)": _schema("view_fields"),
    "equality, the hash and fingerprints (the field's eq)": _hashed(View),
    "validation (_internal/validation.py)": _mentions("_internal/validation.py"),
    "the view of a state (_internal/unchecked.py, view_of)": _mentions("_internal/unchecked.py"),
    "pictures (_internal/scene.py)": _mentions("_internal/scene.py"),
    "the terminal's screen (cli/_screen.py)": _mentions("cli/_screen.py"),
    "the browser client (server/static/js)": _browser(),
}
#: The fields a place leaves out on purpose, with the reason: (class, field, place) -> why.
NOT_THERE: dict[tuple[str, str, str], str] = {
    (
        "GameState",
        "stock_known",
        "pictures (_internal/scene.py)",
    ): "a state's picture shows the whole stock, known or not",
    ("View", "seat", "the browser client (server/static/js)"): "the page has its seat from the table's welcome",
    ("View", "went_out", "the browser client (server/static/js)"): "the page says who went out from the deal's result",
    **{
        (cls, "table", place): "the table summary is worked out from the melds, for the engine, and shown nowhere"
        for cls, places in (("GameState", STATE_PLACES), ("View", VIEW_PLACES))
        for place in places
        if not place.startswith("the view of a state")
    },
}


def _cases(cls: type, places: dict[str, Callable[[str], bool]]) -> list[tuple[str, str, str]]:
    return [(cls.__name__, field.alias, place) for field in attrs.fields(cls) for place in places]


@pytest.mark.parametrize(("cls", "field", "place"), _cases(GameState, STATE_PLACES) + _cases(View, VIEW_PLACES))
def test_each_place_knows_each_field(cls: str, field: str, place: str) -> None:
    places = STATE_PLACES if cls == "GameState" else VIEW_PLACES
    known = places[place](field)
    why = NOT_THERE.get((cls, field, place))
    assert known or why is not None, f"{cls}.{field} is missing from {place}"
    assert not (known and why is not None), f"{cls}.{field} is in {place} after all: drop it from NOT_THERE"
