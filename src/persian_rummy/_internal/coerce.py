"""
How an argument that stands for a card is read: a `Card`, or its notation.
"""

from __future__ import annotations

from .. import limits as _limits
from ..cards import Card
from ..exceptions import InvalidTypeError


def card(value: object, what: str) -> Card:
    """
    *value* as a card: itself if it is one, read as notation if it is text.

    Raises:
        InvalidNotationError: *value* is text but not a card.
        InvalidTypeError: *value* is neither; the message calls it *what*.
    """
    if type(value) is Card:
        return value
    if isinstance(value, str):
        return Card.parse(value)
    msg = f"{what} must be a Card or its notation, got {_limits.shown(value)}"
    raise InvalidTypeError(msg)
