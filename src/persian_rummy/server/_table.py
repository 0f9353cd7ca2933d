"""
A table's game, without input or output: its states, its numbered actions and what each reader is told.

A `Table` is the server's account of one game.  Every action it accepts gets the next number (the
first deal is 1); the messages of action *n* for each seat and for spectators come from
`Table.event_message`, which builds them from the reader's view only.  Deals and the bots' choices
are drawn from seeds derived from the table's seed and the action's number, so a table whose
actions are replayed after a restart goes on exactly as it would have.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .._core import seats as _seats
from ..actions import ACTION_TYPES, Action, Deal, PlayerAction
from ..bots import GreedyPlayer, Player, make_player
from ..engine import apply, legal_actions, random_deal
from ..events import Event, events_of
from ..exceptions import InvalidDataError, PersianRummyError
from ..notation import format_action, parse_action
from ..records import GameRecord
from ..serialize import from_data, to_data
from ..state import GameState, View, new_game
from ..views import determinize, observe
from . import _messages
from ._messages import By
from ._spec import TableSpec

#: The observers of a table: the four seats, then ``None`` for spectators.
OBSERVERS: Final = (0, 1, 2, 3, None)

_DEFAULT_PLAYER: Final = GreedyPlayer()


class RefusedError(PersianRummyError, ValueError):
    """
    A client's action was not accepted: *code* and *rule* go into the error message to that client.
    """

    def __init__(self, code: str, message: str, rule: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule


class Table:
    """
    One game at one table: its spec, every state it went through and who chose each action.
    """

    def __init__(self, table_id: str, spec: TableSpec, names: list[str | None]) -> None:
        self.id = table_id
        self.spec = spec
        self.names = names
        self.states: list[GameState] = [new_game(spec.rules, dealer=spec.first_dealer)]
        self.actions: list[Action] = []
        self.chosen_by: list[By] = []
        # The rules as the library's JSON writes them, once: every summary of the table carries them.
        self._rules_data = to_data(GameRecord(rules=spec.rules))["rules"]
        self._bots: dict[int, Player] = {
            seat: make_player(seat_spec.bot) for seat, seat_spec in enumerate(spec.seats) if seat_spec.bot is not None
        }

    @property
    def state(self) -> GameState:
        """
        The state now.
        """
        return self.states[-1]

    @property
    def seq(self) -> int:
        """
        The number of the last action accepted (0 before the first deal).
        """
        return len(self.actions)

    @property
    def status(self) -> str:
        """
        ``"waiting"`` for people to take their seats, ``"playing"`` or ``"over"``.
        """
        if self.state.phase == "game_over":
            return "over"
        if any(self.names[seat] is None for seat in self.spec.people):
            return "waiting"
        return "playing"

    def is_bot(self, seat: int) -> bool:
        """
        Whether a bot plays *seat*.
        """
        return seat in self._bots

    def view(self, observer: int | None) -> View:
        """
        What *observer* (a seat, or `None` for a spectator) sees now.
        """
        return observe(self.state, observer)

    def push(self, action: Action, by: By) -> None:
        """
        Apply *action*, already checked, as the next numbered action.
        """
        self.states.append(apply(self.state, action))
        self.actions.append(action)
        self.chosen_by.append(by)

    def next_deal(self) -> Deal:
        """
        The deal at the chance node now, drawn from the table's seed and the action's number.
        """
        return random_deal(self.state, random.Random(f"{self.spec.seed}/deal/{self.seq + 1}"))

    def bot_chooser(self, seat: int) -> Callable[[], PlayerAction]:
        """
        What the bot in *seat* would choose now, as a function to call in another thread.

        The function holds the seat's view and a seed of the table and the action's number, so the
        bot chooses the same after a restart, and what the table does meanwhile changes nothing.
        """
        view = self.view(seat)
        rng = random.Random(f"{self.spec.seed}/bot/{self.seq + 1}")
        player = self._bots[seat]
        return lambda: player.choose(view, rng)

    def default_choice(self, seat: int) -> PlayerAction:
        """
        The move the server plays for *seat* when its clock runs out or its bot fails: the greedy player's.
        """
        rng = random.Random(f"{self.spec.seed}/default/{self.seq + 1}")
        return _DEFAULT_PLAYER.choose(self.view(seat), rng)

    def read_action(self, seat: int, raw: object) -> PlayerAction:
        """
        The action a person in *seat* sent, in notation or as an object, if they may take it now.

        Raises:
            RefusedError: the action cannot be read, is not this seat's, or is not legal now.
        """
        status = self.status
        if status != "playing":
            message = "the game is over" if status == "over" else "the table waits for people to take their seats"
            raise RefusedError("game-over" if status == "over" else "waiting", message)
        view = self.view(seat)
        action = _read(view, raw)
        if action.seat == seat == view.to_act and action in legal_actions(view):
            return action
        code, message, rule = _messages.refusal(view, action)
        raise RefusedError(code, message, rule)

    def events(self, seq: int) -> tuple[Event, Event, Event, Event, Event]:
        """
        The five accounts of action number *seq*: the four seats' and a spectator's.
        """
        return events_of(self.states[seq - 1], self.actions[seq - 1], self.states[seq])

    def event_message(self, seq: int, observer: int | None, clock: dict[str, object] | None) -> dict[str, object]:
        """
        The message that tells *observer* of action number *seq*.
        """
        event = self.events(seq)[4 if observer is None else observer]
        before, after = observe(self.states[seq - 1], observer), observe(self.states[seq], observer)
        return _messages.event_message(seq, event, before, after, self.chosen_by[seq - 1], clock)

    def record(self) -> GameRecord:
        """
        The game so far as a record: rules, first dealer, every action and the players' names.
        """
        names = tuple(name or "" for name in self.names)
        return GameRecord(
            rules=self.spec.rules,
            first_dealer=self.spec.first_dealer,
            actions=self.actions,
            players=names,
            event=self.spec.name,
        )

    def points(self) -> tuple[int, int]:
        """
        The teams' points so far, North-South first.
        """
        totals = [result.totals for result in self.state.results]
        return sum(north for north, _ in totals), sum(east for _, east in totals)

    def summary(self, connected: set[int]) -> dict[str, object]:
        """
        The table as the lobby lists it: public facts only.
        """
        return {
            "id": self.id,
            "name": self.spec.name,
            "status": self.status,
            "seats": [
                {
                    "seat": seat,
                    "letter": _seats.LETTERS[seat],
                    "kind": spec.kind,
                    "bot": spec.bot,
                    "name": self.names[seat],
                    "claimed": self.names[seat] is not None,
                    "connected": seat in connected or spec.kind == "bot",
                }
                for seat, spec in enumerate(self.spec.seats)
            ],
            "clock": self.spec.clock,
            "bot_delay": self.spec.bot_delay,
            "seq": self.seq,
            "rules": self._rules_data,
            "points": list(self.points()),
        }


def _read(view: View, raw: object) -> PlayerAction:
    """
    The action in *raw*: notation, or an action object with or without the envelope keys.
    """
    action: object
    if isinstance(raw, str):
        for action in legal_actions(view) if view.to_act == view.seat else ():
            if format_action(action, view) == raw.strip():
                return action
        try:
            action = parse_action(raw, determinize(view, random.Random(0)) if view.melds else None, strict=False)
        except PersianRummyError as error:
            raise RefusedError("bad-action", str(error)) from error
    elif isinstance(raw, dict):
        document = {"format": "persian-rummy", "version": 1, "kind": "action", **raw}
        try:
            action = from_data(document)
        except InvalidDataError as error:
            raise RefusedError("bad-action", str(error)) from error
        return _players_action(action)
    else:
        raise RefusedError("bad-action", "an action is its notation (a string) or an action object")
    return _players_action(action)


def _players_action(value: object) -> PlayerAction:
    """
    *value*, read from a client, if it is a player's action.
    """
    kind = type(value)
    if kind is Deal:
        raise RefusedError("bad-action", "the server deals: a deal is not a player's action")
    if kind not in ACTION_TYPES:
        raise RefusedError("bad-action", "the object is not an action")
    return value  # type: ignore[return-value]  # one of the player's action types, checked above
