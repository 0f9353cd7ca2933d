"""
The limits on what the package reads and writes: the longest texts, documents and records it
takes, the same both ways, so that everything it writes it reads back.

Every text, document and record that comes from outside is refused past its limit with the
package's own error (`InvalidNotationError`, `InvalidDataError`, `InvalidRecordError`), before it is
read, so that a program that hands the package what a network or a file gave it has bounded work
and memory.  A server that reads requests, or an app that reads files, can check a size against
these limits before it even builds the text:

>>> from persian_rummy import parse_cards
>>> from persian_rummy.limits import MAX_NOTATION
>>> parse_cards("Qh " * MAX_NOTATION)
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidNotationError: cards written in more than 10,000 characters: ... (30,000 characters)

An error's message never echoes a long refused value whole: `shown` names it by its start and its
length, as every message of the package does.

>>> shown("x" * 100_000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100,000 characters)"
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_ACTIONS", "MAX_DEPTH", "MAX_JSON", "MAX_LABEL", "MAX_NAME", "MAX_NOTATION", "MAX_SHOWN", "shown"]


def __dir__() -> list[str]:
    return __all__


#: The most characters of a text in notation: cards, an action, a rules id, a position
#: (`persian_rummy.notation`).
MAX_NOTATION: Final = 10_000
#: The most characters of a JSON document (`persian_rummy.serialize`); as UTF-8 bytes, at most four
#: times as many.
MAX_JSON: Final = 16_000_000
#: The deepest that arrays and objects may nest in a JSON document, deeper than any document of the
#: package nests them; a text that opens at most a thousand of them is read whatever its depth.
MAX_DEPTH: Final = 32
#: The most actions in a game record (`persian_rummy.records.GameRecord`), and in a game of a match.
MAX_ACTIONS: Final = 100_000
#: The most characters of a player's name in a game record.
MAX_NAME: Final = 100
#: The most characters of a game record's date or event.
MAX_LABEL: Final = 1_000
#: The longest refused value an error's message shows whole, in characters of its ``repr``.
MAX_SHOWN: Final = 200
#: How many characters of a longer text a message shows.
_START: Final = 60


def shown(value: object) -> str:
    """
    *value* as the package's error messages show it: its ``repr``, within `MAX_SHOWN` characters.

    A longer text is shown by its start and its length, any other value by the start of its ``repr``.

    >>> shown("Qh"), shown(None)
    ("'Qh'", 'None')
    >>> shown(list(range(1000)))[-12:]
    '50, 51, 5...'
    """
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return f"{value[:_START]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else f"{text[:MAX_SHOWN]}..."
