"""
A table's game, without input or output: its states, its numbered actions and what each reader is told.

A `Table` is the server's account of one game.  Every action it accepts gets the next number (the
first deal is 1); the messages of action *n* for each seat and for spectators come from
`Table.event_message`, which builds them from the reader's view only.  Deals and the bots' choices
are drawn from the table's key and the action's number, so a table whose actions are replayed after
a restart goes on exactly as it would have.

The key is a secret of the server's, drawn when the table is made; the table shows its SHA-256
hash (its *commitment*) from the start and the key itself once the game has ended, so that anyone
can check that every deal was drawn from it.  A table made with a seed (where the server allows it)
draws from the seed instead, and anyone who knows the seed knows every hand.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import deque
from typing import Final, TypeGuard

from ..actions import ACTION_TYPES, Action, Deal, PlayerAction
from ..bots import GreedyPlayer, Player
from ..engine import apply, legal_actions, random_deal
from ..events import Event, events_of
from ..exceptions import InvalidDataError, PersianRummyError
from ..notation import SEAT_LETTERS, format_action, parse_action
from ..records import GameRecord
from ..serialize import from_data, to_data
from ..state import GameState, View, new_game
from ..views import determinize, observe
from . import _messages
from ._messages import By
from ._spec import TableSpec
from ._storage import Ending

#: The observers of a table: the four seats, then ``None`` for spectators.
OBSERVERS: Final = (0, 1, 2, 3, None)

_DEFAULT_PLAYER: Final = GreedyPlayer()
#: The types of the players' actions: every action's but the deal's.
_PLAYERS_ACTIONS: Final = frozenset(ACTION_TYPES) - {Deal}


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
    One game at one table: its spec, its key, its actions and who chose each, and its latest states.

    *players* are the bots, by seat; *key* the secret the deals and the bots' choices are drawn
    from (`None` for a table whose spec has a seed); *kept* how many of the latest actions can be
    told again (`event_message`), so that a long game holds a bounded number of states.
    """

    def __init__(  # noqa: PLR0913 (a table's parts)
        self,
        table_id: str,
        spec: TableSpec,
        names: list[str | None],
        players: dict[int, Player],
        key: bytes | None,
        *,
        kept: int = 64,
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.names = names
        self.key = key
        self.states: deque[GameState] = deque([new_game(spec.rules, dealer=spec.first_dealer)], maxlen=max(kept, 1) + 1)
        self.actions: list[Action] = []
        self.chosen_by: list[By] = []
        #: How the table ended, once it has: its game over, aborted by its creator, or expired.
        self.ending: Ending | None = None
        # The rules as the library's JSON writes them, once: every summary of the table carries them.
        self._rules_data = to_data(GameRecord(rules=spec.rules))["rules"]
        self._bots = players
        self._people = spec.people
        self.commitment = None if key is None else hashlib.sha256(key).hexdigest()

    @property
    def state(self) -> GameState:
        """
        The state now.
        """
        return self.states[-1]

    def state_at(self, seq: int) -> GameState:
        """
        The state after action number *seq* (0: before the first deal), one of the latest kept.

        Raises:
            IndexError: that state is no longer kept.
        """
        index = len(self.states) - 1 - (self.seq - seq)
        if not 0 <= index < len(self.states) or seq < 0:
            msg = f"the state after action {seq} is no longer kept"
            raise IndexError(msg)
        return self.states[index]

    @property
    def oldest(self) -> int:
        """
        The number of the oldest action that can still be told again.
        """
        return self.seq - len(self.states) + 2

    @property
    def seq(self) -> int:
        """
        The number of the last action accepted (0 before the first deal).
        """
        return len(self.actions)

    @property
    def status(self) -> str:
        """
        ``"waiting"`` for people to take their seats, ``"playing"``, ``"over"``, or how the table
        ended before its game did: ``"aborted"`` or ``"expired"``.
        """
        if self.ending is not None:
            return self.ending
        if self.state.phase == "game_over":
            return "over"
        if any(self.names[seat] is None for seat in self._people):
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

    def push(self, action: Action, by: By, after: GameState | None = None) -> None:
        """
        Take *action*, already checked, as the next numbered action; *after* is the state it leads
        to, if it is known already.
        """
        self.states.append(apply(self.state, action) if after is None else after)
        self.actions.append(action)
        self.chosen_by.append(by)

    def random(self, purpose: str, seq: int) -> random.Random:
        """
        The random source of *purpose* (``"deal"``, ``"bot"`` or ``"default"``) at action number *seq*.

        It is drawn from the table's key, or from its seed if it has one: the same table makes the
        same draws after a restart.
        """
        if self.key is None:
            return random.Random(f"{self.spec.seed}/{purpose}/{seq}")
        return random.Random(draw_seed(self.key, purpose, seq))

    def next_deal(self) -> Deal:
        """
        The deal at the chance node now, drawn from the table's key and the action's number.
        """
        return random_deal(self.state, self.random("deal", self.seq + 1))

    def bot_player(self, seat: int) -> Player:
        """
        The bot that plays *seat*.
        """
        return self._bots[seat]

    def default_choice(self, seat: int) -> PlayerAction:
        """
        The move the server plays for *seat* when its clock runs out or its bot fails: the greedy player's.
        """
        return _DEFAULT_PLAYER.choose(self.view(seat), self.random("default", self.seq + 1))

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
        The five accounts of action number *seq*, one of the latest kept: the four seats' and a spectator's.
        """
        return events_of(self.state_at(seq - 1), self.actions[seq - 1], self.state_at(seq))

    def event_message(self, seq: int, observer: int | None, clock: dict[str, object] | None) -> dict[str, object]:
        """
        The message that tells *observer* of action number *seq*, one of the latest kept.
        """
        event = self.events(seq)[4 if observer is None else observer]
        before, after = observe(self.state_at(seq - 1), observer), observe(self.state_at(seq), observer)
        return _messages.event_message(seq, event, before, after, self.chosen_by[seq - 1], clock)

    def record(self, then: Action | None = None) -> GameRecord:
        """
        The game so far as a record (with *then* as its next action, if given): rules, first
        dealer, every action and the players' names.
        """
        names = tuple(name or "" for name in self.names)
        return GameRecord(
            rules=self.spec.rules,
            first_dealer=self.spec.first_dealer,
            actions=self.actions if then is None else [*self.actions, then],
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

        The key is in it once the table has ended (``"key"``), its hash from the start
        (``"commitment"``); a table whose creator chose the seed says so (``"seeded"``).
        """
        status = self.status
        return {
            "id": self.id,
            "name": self.spec.name,
            "status": status,
            "seats": [
                {
                    "seat": seat,
                    "letter": SEAT_LETTERS[seat],
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
            "private": self.spec.private,
            "seeded": self.key is None,
            "commitment": self.commitment,
            "key": self.key.hex() if self.key is not None and status not in {"waiting", "playing"} else None,
        }


def draw_seed(key: bytes, purpose: str, seq: int) -> bytes:
    """
    The seed of the random source of *purpose* at action number *seq* of a table whose key is *key*:
    HMAC-SHA-256 of ``"purpose/seq"`` under the key.

    With the key a table reveals once its game is over, anyone can draw its deals again:

    >>> import random
    >>> from persian_rummy import new_game, random_deal
    >>> key = bytes(32)
    >>> draw_seed(key, "deal", 1).hex()[:16]
    'e4d996f9dd064547'
    >>> random_deal(new_game(), random.Random(draw_seed(key, "deal", 1))).deck[:4]
    (Card.parse('7c'), Card.parse('Jd'), Card.parse('6d'), Card.parse('Kh'))
    """
    return hmac.new(key, f"{purpose}/{seq}".encode(), hashlib.sha256).digest()


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
    if type(value) is Deal:
        raise RefusedError("bad-action", "the server deals: a deal is not a player's action")
    if not _is_players_action(value):
        raise RefusedError("bad-action", "the object is not an action")
    return value


def _is_players_action(value: object) -> TypeGuard[PlayerAction]:
    return type(value) in _PLAYERS_ACTIONS
