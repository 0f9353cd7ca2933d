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

from attrs import field, frozen

from . import _seats
from .actions import Action
from .engine import apply
from .exceptions import IllegalActionError, InvalidRecordError
from .rules import DEFAULT_RULES, Rules
from .state import GameState, new_game

__all__ = ["GameRecord", "final_state", "replay"]


def __dir__() -> list[str]:
    return __all__


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(value)


def _players(value: Iterable[str] | None) -> tuple[str, str, str, str] | None:
    if value is None:
        return None
    names = tuple(value)
    if len(names) != 4 or not all(isinstance(name, str) for name in names):
        msg = f"players are four names, one per seat, got {value!r}"
        raise ValueError(msg)
    return names


def _is_seat(_instance: object, _attribute: object, value: object) -> None:
    if not _seats.is_seat(value):
        msg = f"first_dealer must be a seat 0-3, got {value!r}"
        raise ValueError(msg)


@frozen
class GameRecord:
    """
    A complete (or partial) game: its rules, its first dealer and every action.

    Attributes:
        rules: The rules of the game.
        first_dealer: The seat that deals the first deal.
        actions: Every action in order, the `Deal` actions included.
        players: The players' names by seat (N, E, S, W), if known.
        date: When the game was played, as text (ISO 8601 is recommended).
        event: Where or in what the game was played.
    """

    rules: Rules = field(default=DEFAULT_RULES)
    first_dealer: int = field(default=0, validator=_is_seat)
    actions: tuple[Action, ...] = field(default=(), converter=_actions)
    players: tuple[str, str, str, str] | None = field(default=None, converter=_players)
    date: str | None = None
    event: str | None = None


def replay(record: GameRecord) -> Iterator[GameState]:
    """
    Every state of *record*'s game: the start, then the state after each action.

    Raises:
        InvalidRecordError: an action is illegal where it stands; the states before it
            have been yielded.
    """
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
    state = new_game(record.rules, dealer=record.first_dealer)
    for state in replay(record):  # noqa: B007
        pass
    return state
