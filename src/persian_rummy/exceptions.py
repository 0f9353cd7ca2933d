"""
Exceptions raised by *persian_rummy*.

All of them inherit from `PersianRummyError`.  Those about bad input also
inherit from `ValueError`, so ``except ValueError`` keeps working.
"""

from __future__ import annotations

from attrs import frozen

__all__ = [
    "ChanceNodeError",
    "IllegalActionError",
    "InvalidMeldError",
    "InvalidNotationError",
    "PersianRummyError",
]


def __dir__() -> list[str]:
    return __all__


class PersianRummyError(Exception):
    """
    Base class of every exception raised by *persian_rummy*.
    """


class InvalidNotationError(PersianRummyError, ValueError):
    """
    Raised when a text is not valid notation (a card, a set of cards, ...).
    """


class InvalidMeldError(PersianRummyError, ValueError):
    """
    Raised when cards do not form a set or a run (R9-R12).
    """


@frozen(eq=False)
class IllegalActionError(PersianRummyError, ValueError):
    """
    Raised when an action may not be applied to a state.

    This covers everything from a wrong seat or wrong phase to a card the
    player does not hold, a meld that is not valid, a discard-pile take whose
    card cannot be used (R15) and a value that is not an action at all.  The
    state passed in is never changed.

    Attributes:
        action: The rejected action, as it was passed in.
        reason: Why it was rejected, as a readable phrase.
        rule: The id of the rule in the rules document that forbids it (``"R15"``, ``"A11"``).

    >>> error = IllegalActionError("some action", "it is not your turn", "R13")
    >>> str(error)
    "illegal action 'some action': it is not your turn (R13)"
    """

    action: object
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"illegal action {self.action!r}: {self.reason} ({self.rule})"


class ChanceNodeError(PersianRummyError, ValueError):
    """
    Raised when a player's actions are asked for while the cards are to be dealt.

    At a chance node the next action is a `persian_rummy.Deal`; build one with
    `persian_rummy.random_deal` or `persian_rummy.Deal` and a deck order.
    """
