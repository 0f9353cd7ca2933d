"""
Limits on what the package reads and writes, the same both ways, and how a refused value is
shown in a message: a text of a megabyte is named by its start and its length, not echoed.
"""

from __future__ import annotations

from typing import Final

#: The most characters of a text in notation: cards, an action, a rules id, a position.
MAX_NOTATION: Final = 10_000
#: The most characters of a JSON document.
MAX_JSON: Final = 16_000_000
#: The most actions in a game record.
MAX_ACTIONS: Final = 100_000
#: The most characters of a player's name in a game record.
MAX_NAME: Final = 100
#: The most characters of a game record's date or event.
MAX_LABEL: Final = 1_000
#: The longest refused text a message shows whole; a longer one is shown by its start and its length.
_WHOLE: Final = 200
#: How many characters of a longer text a message shows.
_START: Final = 60


def shown(value: object) -> str:
    """
    *value* as a message shows it: its ``repr``, or for a long text its start and its length.
    """
    if isinstance(value, str) and len(value) > _WHOLE:
        return f"{value[:_START]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= _WHOLE else f"{text[:_WHOLE]}..."
