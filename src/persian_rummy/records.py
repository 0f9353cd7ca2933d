"""
Game records: everything needed to replay a game, and the replay itself.

A `GameRecord` holds the rules, the first dealer, every action in order (the
`Deal` actions carry each deal's card order) and optional metadata: the
players' names by seat, a date and an event.  `replay` applies the actions one
by one from `new_game`, checking each, and yields every state.

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, random_deal
>>> rng = random.Random(5)
>>> state, actions = new_game(), []
>>> while not state.phase == "game_over":
...     action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
...     actions.append(action)
...     state = apply(state, action)
>>> record = GameRecord(actions=actions, players=("Ann", "Ben", "Cy", "Di"), event="Club night")
>>> final_state(record) == state
True
>>> len(list(replay(record))) == len(actions) + 1
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from attrs import Attribute, field, frozen

from . import limits as _limits
from ._internal import seats as _seats
from .actions import ACTION_TYPES, Action
from .engine import apply
from .exceptions import IllegalActionError, InvalidRecordError, InvalidTypeError, InvalidValueError
from .rules import DEFAULT_RULES, Rules
from .state import GameState, new_game

__all__ = ["GameRecord", "final_state", "replay"]


def __dir__() -> list[str]:
    return __all__


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    raw: object = value
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"actions must be a sequence of actions, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    actions = tuple(value)
    if len(actions) > _limits.MAX_ACTIONS:
        msg = f"a record holds at most {_limits.MAX_ACTIONS:,} actions, got {len(actions):,}"
        raise InvalidValueError(msg)
    for index, action in enumerate(actions):
        if type(action) not in _ACTION_TYPES:
            msg = f"actions must be actions, got {_limits.shown(action)} at index {index}"
            raise InvalidTypeError(msg)
    return actions


_ACTION_TYPES: Final = frozenset(ACTION_TYPES)


def _check_text(name: str, value: object, limit: int) -> None:
    """
    *value* is text the JSON form can carry: a `str` of at most *limit* characters, all of them
    encodable (no lone surrogate).
    """
    if not isinstance(value, str):
        msg = f"{name} must be text, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if len(value) > limit:
        msg = f"{name} is at most {limit:,} characters, got {len(value):,}"
        raise InvalidValueError(msg)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        msg = f"{name} holds a lone surrogate, which is not text: {_limits.shown(value)}"
        raise InvalidValueError(msg) from None


def _players(value: Iterable[str] | None) -> tuple[str, str, str, str] | None:
    if value is None:
        return None
    raw: object = value
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"players are four names, one per seat, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    names = tuple(value)
    if len(names) != 4:
        msg = f"players are four names, one per seat, got {len(names)}"
        raise InvalidValueError(msg)
    for seat, name in enumerate(names):
        _check_text(f"the name of seat {seat}", name, _limits.MAX_NAME)
    return names


def _check_label(_: object, attribute: Attribute[str | None], value: str | None) -> None:
    if value is not None:
        _check_text(attribute.name, value, _limits.MAX_LABEL)


def _check_rules(_: object, __: object, value: Rules) -> None:
    raw: object = value
    if not isinstance(raw, Rules):
        msg = f"rules must be a Rules, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


def _check_dealer(_: object, __: object, value: int) -> None:
    if not _seats.is_seat(value):
        msg = f"first_dealer must be a seat 0-3, got {_limits.shown(value)}"
        raise InvalidValueError(msg) if type(value) is int else InvalidTypeError(msg)


@frozen
class GameRecord:
    """
    A complete (or partial) game: its rules, its first dealer and every action.

    Attributes:
        rules: The rules of the game.
        first_dealer: The seat that deals the first deal.
        actions: Every action in order, the `Deal` actions included (at most 100,000).
        players: The players' names by seat (N, E, S, W), if known (at most 100 characters each).
        date: When the game was played, as text (ISO 8601 is recommended; at most 1,000 characters).
        event: Where or in what the game was played (at most 1,000 characters).

    Raises:
        InvalidValueError: a field is out of its range: more actions, longer text or other
            than four players' names, text that cannot be written (a lone surrogate).
        InvalidTypeError: a field is not of its type.

    The limits are those of the JSON form, so that every record can be written and read back.
    Building a record does not replay it: `replay` checks the actions.
    """

    rules: Rules = field(default=DEFAULT_RULES, validator=_check_rules)
    first_dealer: int = field(default=0, validator=_check_dealer)
    actions: tuple[Action, ...] = field(default=(), converter=_actions)
    players: tuple[str, str, str, str] | None = field(default=None, converter=_players)
    date: str | None = field(default=None, validator=_check_label)
    event: str | None = field(default=None, validator=_check_label)


def _record(value: GameRecord) -> GameRecord:
    raw: object = value
    if not isinstance(raw, GameRecord):
        msg = f"expected a GameRecord, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return value


def replay(record: GameRecord) -> Iterator[GameState]:
    """
    Every state of *record*'s game: the start, then the state after each action.

    Raises:
        InvalidRecordError: an action is illegal where it stands; the states before it
            have been yielded.
        InvalidTypeError: *record* is not a `GameRecord` (raised at once, before iterating).
    """
    return _replay(_record(record))


def _replay(record: GameRecord) -> Iterator[GameState]:
    state = new_game(record.rules, dealer=record.first_dealer)
    yield state
    for index, action in enumerate(record.actions):
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise InvalidRecordError(index, action, error) from None
        yield state


def final_state(record: GameRecord) -> GameState:
    """
    The state after the last action of *record*.

    Raises:
        InvalidRecordError: an action is illegal where it stands.
    """
    state = new_game(_record(record).rules, dealer=record.first_dealer)
    for state in replay(record):  # noqa: B007
        pass
    return state
