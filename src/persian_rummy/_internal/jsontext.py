"""
JSON text to plain data, for every reader of the package's JSON documents: bounded in length and
depth, with no key twice in an object and no number JSON does not have.
"""

from __future__ import annotations

import json
import re
from typing import Final

from .. import limits as _limits
from ..exceptions import InvalidDataError

# Deeper than any document (a record's deal's deck is four levels down, a match's record six):
# checked before decoding.
MAX_DEPTH: Final = _limits.MAX_DEPTH
# A text that opens at most this many arrays and objects is shallow enough for the decoder anyway.
_SHALLOW: Final = 1000
# A JSON string (one left open runs to the end: the decoder stops there), and a run of characters
# that are not brackets, for measuring how deep a text nests; possessive, so never backtracking.
_STRING: Final = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKETS: Final = re.compile(r"[^\[\]{}]+")


def decode(text: str | bytes, limit: int | None) -> object:
    """
    The plain data of JSON *text* of at most *limit* characters (`None`: any length).

    Raises:
        InvalidDataError: *text* is not UTF-8, too long, nested more than `MAX_DEPTH` deep, not
            JSON, holds a key twice in an object or ``NaN``/``Infinity``.
    """
    if isinstance(text, bytes):
        if limit is not None and len(text) > 4 * limit:  # no text of *limit* characters is longer in UTF-8
            msg = f"$: document too long ({len(text):,} bytes)"
            raise InvalidDataError(msg)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            msg = f"$: not UTF-8 text: {error.reason}"
            raise InvalidDataError(msg) from None
    raw: object = text
    if not isinstance(raw, str):
        msg = f"$: JSON must be text, got {type(raw).__name__}"
        raise InvalidDataError(msg)
    if limit is not None and len(text) > limit:
        msg = f"$: document too long ({len(text):,} characters; at most {limit:,} are read)"
        raise InvalidDataError(msg)
    if _too_deep(text):
        msg = f"$: not a document: arrays and objects nested more than {MAX_DEPTH} deep, or left open"
        raise InvalidDataError(msg)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        if isinstance(error, InvalidDataError):
            raise
        msg = f"$: not JSON: {error}"
        raise InvalidDataError(msg) from None


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            msg = f"$: duplicate key {_limits.shown(key)} in an object"
            raise InvalidDataError(msg)
        result[key] = value
    return result


def _no_constant(name: str) -> object:
    msg = f"$: {name} is not a JSON number"
    raise InvalidDataError(msg)


def _too_deep(text: str) -> bool:
    """
    Whether *text* nests arrays and objects more than `MAX_DEPTH` deep, or leaves more than
    that many open, which no document does: the decoder would recurse once per level, and with
    a raised recursion limit a deep enough text exhausts the C stack.  A text that opens few
    enough is not measured.
    """
    if text.count("[") + text.count("{") <= _SHALLOW:
        return False
    brackets = _NOT_BRACKETS.sub("", _STRING.sub("", text))
    for _ in range(MAX_DEPTH):
        inner = brackets.replace("[]", "").replace("{}", "")
        if inner == brackets:
            break
        brackets = inner
    # What is left opens what it never closes (or closes what it never opened): the decoder
    # would recurse into each of those before it failed.
    return brackets.count("[") + brackets.count("{") > MAX_DEPTH
