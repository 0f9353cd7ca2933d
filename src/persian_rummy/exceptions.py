"""
Exceptions raised by *persian_rummy*: every one of them, in one place.

All of them inherit from `PersianRummyError`, and every function of the package raises
nothing else for bad input.  Those about a bad value also inherit from `ValueError`, the
one about a value of the wrong type from `TypeError`, so ``except ValueError`` and
``except TypeError`` keep working.

=========================  =============================================================
`InvalidValueError`        a value given to the package is not one the game has
`InvalidTypeError`         a value given to the package is not of the type it takes
`InvalidNotationError`     a text is not valid notation (a card, an action, a position)
`InvalidMeldError`         cards do not form a set or a run
`InvalidStateError`        a game state would break an invariant
`IllegalActionError`       an action may not be applied to a state
`ChanceNodeError`          a player's actions are asked for while the cards are to be dealt
`ViewError`                a view is not what its seat could see, or cannot answer a question
`InvalidDataError`         a JSON document is not valid
`InvalidRecordError`       an action of a game record is illegal where it stands
`PlayerError`              a player failed in a match: it raised (chained), or returned no action
`MatchError`               a match's executor failed (its error is chained)
`MatchTimeoutError`        a match did not finish within its timeout on an executor
=========================  =============================================================
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import field, frozen

__all__ = [
    "ChanceNodeError",
    "IllegalActionError",
    "InvalidDataError",
    "InvalidMeldError",
    "InvalidNotationError",
    "InvalidRecordError",
    "InvalidStateError",
    "InvalidTypeError",
    "InvalidValueError",
    "MatchError",
    "MatchTimeoutError",
    "PersianRummyError",
    "PlayerError",
    "ViewError",
]


def __dir__() -> list[str]:
    return __all__


class PersianRummyError(Exception):
    """
    Base class of every exception raised by *persian_rummy*.
    """


class InvalidValueError(PersianRummyError, ValueError):
    """
    Raised when a value given to the package is not one the game has: a seat that is not 0-3,
    a card repeated where each card is one of a kind, a rule switch out of its range, and the
    like.  The more specific errors below derive from it.

    >>> from persian_rummy import DrawStock
    >>> DrawStock(4)
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidValueError: seat must be a seat 0-3, got 4
    """


class InvalidTypeError(PersianRummyError, TypeError):
    """
    Raised when a value given to the package is not of a type it takes: a number where a card
    is expected, a text where a state is, and the like.

    >>> from persian_rummy import Discard
    >>> Discard(0, None)
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidTypeError: card must be a Card or its notation, got None
    """


class InvalidNotationError(InvalidValueError):
    """
    Raised when a text is not valid notation (a card, a set of cards, an action, a position).
    """


class InvalidMeldError(InvalidValueError):
    """
    Raised when cards do not form a set or a run (R9-R12).
    """


class InvalidStateError(InvalidValueError):
    """
    Raised when a game state would break an invariant; the message names the first problem
    found and, where one applies, the rule in parentheses.
    """


def _rule_ids(value: str | Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return tuple(value)


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
        rule: The ids of the rules in the rules document that forbid it, such as
            ``("R15", "A12")``.  Given as text, ``"R15, A12"`` is split at the commas.

    >>> error = IllegalActionError("some action", "it is not your turn", "R6")
    >>> error.rule
    ('R6',)
    >>> str(error)
    "illegal action 'some action': it is not your turn (R6)"
    >>> IllegalActionError("a take", "the card cannot be played", ("R15", "A12")).rule_text
    'R15, A12'
    """

    action: object
    reason: str
    rule: tuple[str, ...] = field(converter=_rule_ids)

    @property
    def rule_text(self) -> str:
        """
        The rule ids as one text, joined by commas: ``"R15, A12"``.
        """
        return ", ".join(self.rule)

    def __str__(self) -> str:
        return f"illegal action {self.action!r}: {self.reason} ({self.rule_text})"


class ChanceNodeError(PersianRummyError, ValueError):
    """
    Raised when a player's actions are asked for while the cards are to be dealt.

    At a chance node the next action is a `persian_rummy.Deal`; build one with
    `persian_rummy.random_deal` or `persian_rummy.Deal` and a deck order.
    """


class ViewError(InvalidValueError):
    """
    Raised when a view is not what its seat could see of any game, or cannot answer a
    question: another seat's legal actions, or too many arrangements to list.
    """


class InvalidDataError(InvalidValueError):
    """
    Raised when JSON text or data is not a valid document; the message starts with where (``$.hands[2]``).
    """


class InvalidRecordError(PersianRummyError, ValueError):
    """
    Raised when a record's action cannot be applied; names the first such action.

    Attributes:
        index: The action's position in `persian_rummy.GameRecord.actions`, from 0.
        action: The action.
        error: Why it was refused.
    """

    def __init__(self, index: int, action: object, error: IllegalActionError) -> None:
        super().__init__(index, action, error)
        self.index = index
        self.action = action
        self.error = error

    def __str__(self) -> str:
        return f"action {self.index} of the record is illegal: {self.error}"


class PlayerError(PersianRummyError, RuntimeError):
    """
    Raised when a player fails while it chooses in a match: it raises an exception (any, a
    `KeyboardInterrupt` or `SystemExit` of its own included), or returns what is not an action.
    The player's exception is chained (``__cause__``) when it was raised in this process.

    Attributes:
        player: The player's name in the match (its team's name).
        seat: The seat it played.
        game: The game's number in the match, from 0.
        decision: The seat's decision in that game, from 1.
        action: The number of the action the game was at, from 0 (the deals counted).
        reason: What went wrong: the player's exception as ``Type: message``, or what it returned.
        traceback: The player's traceback, from its own frames on, as text (empty when it raised
            nothing); kept when the error comes from another process, as the exception is not.
    """

    def __init__(  # noqa: PLR0913 (the fields above)
        self, player: str, seat: int, game: int, decision: int, action: int, *, reason: str = "", traceback: str = ""
    ) -> None:
        super().__init__(player, seat, game, decision, action)
        self.player = player
        self.seat = seat
        self.game = game
        self.decision = decision
        self.action = action
        self.reason = reason
        self.traceback = traceback

    def __reduce__(self) -> tuple[object, ...]:
        return (_player_error, (self.args, self.reason, self.traceback))

    def __str__(self) -> str:
        cause = self.__cause__
        reason = self.reason or ("" if cause is None else f"{type(cause).__name__}: {cause}")
        return (
            f"the player {self.player} of seat {self.seat} failed in game {self.game}, at its decision"
            f" {self.decision} (action {self.action} of the game){': ' if reason else ''}{reason}"
        )


def _player_error(arguments: tuple[str, int, int, int, int], reason: str, traceback: str) -> PlayerError:
    """
    A `PlayerError` made again from its fields, as pickle does (another process's error).
    """
    return PlayerError(*arguments, reason=reason, traceback=traceback)


class MatchError(PersianRummyError, RuntimeError):
    """
    Raised when a match's executor fails to run a task (a worker lost, a pool broken); the
    executor's error is chained and the unfinished tasks are cancelled.
    """


class MatchTimeoutError(MatchError, TimeoutError):
    """
    Raised when a match played on an executor has not finished within its ``timeout``; its
    unfinished tasks are cancelled.
    """
