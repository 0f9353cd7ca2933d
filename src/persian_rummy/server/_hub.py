"""
The server's tables in play: seats and their tokens, connections, the bots, the clocks and the database.

All of it runs on one asyncio event loop.  An action is accepted in one step with no pause in it:
checked, written to the database, applied, then told to every connection of its table; the bots
think in a worker thread and their choice is accepted the same way.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Final

from ..actions import Action, PlayerAction
from ..serialize import from_data, to_data, to_json
from . import _messages
from ._messages import By
from ._spec import read_spec
from ._storage import Storage, StoredAction, StoredSeat, StoredTable, dumps
from ._table import OBSERVERS, RefusedError, Table

_log: Final = logging.getLogger("persian_rummy.server")

#: How many messages may wait for a slow connection before it is closed.
MAX_QUEUED: Final = 2_000


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Connection:
    """
    One client's socket: its reader (a seat or `None`), and a queue of messages written in order.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[int], Awaitable[None]]) -> None:
        self.observer: int | None = None
        self._send = send
        self._close = close
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self.closed = False

    def push(self, text: str) -> None:
        """
        Queue *text* to be sent; a connection that lets too many messages wait is closed.
        """
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUED:
            self.close(1008)
            return
        self._queue.put_nowait(text)

    def send(self, message: dict[str, object]) -> None:
        """
        Queue *message*.
        """
        self.push(_messages.encode(message))

    def close(self, code: int = 1000) -> None:
        """
        Close the connection once what is queued has been sent.
        """
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(code)

    async def write(self) -> None:
        """
        Send the queued messages in order until the connection closes.
        """
        while True:
            item = await self._queue.get()
            if isinstance(item, int):
                await self._close(item)
                return
            await self._send(item)


class Hub:
    """
    Every table of one server, with its connections, bots, clocks and storage.
    """

    def __init__(
        self, storage: Storage, *, default_bot_delay: float = 0.8, now: Callable[[], float] = time.time
    ) -> None:
        self.storage = storage
        self.default_bot_delay = default_bot_delay
        self.now = now
        self.tables: dict[str, Table] = {}
        self._invites: dict[str, dict[int, str]] = {}
        self._tokens: dict[str, dict[int, str]] = {}
        self._seats: dict[str, dict[int, Connection]] = {}
        self._spectators: dict[str, set[Connection]] = {}
        self._timers: dict[str, asyncio.Handle] = {}
        self._deadlines: dict[str, tuple[int, float]] = {}
        self._thinking: set[asyncio.Task[None]] = set()

    # Loading and making tables

    def start(self) -> None:
        """
        Read every stored table, replay its actions and set its game going again.
        """
        for stored in self.storage.load():
            spec = read_spec(json.loads(stored.spec))
            names: list[str | None] = [
                None if spec.seats[seat].kind == "person" else spec.seats[seat].bot for seat in range(4)
            ]
            for seat in stored.seats:
                names[seat.seat] = seat.name
                if seat.invite_hash is not None:
                    self._invites.setdefault(stored.id, {})[seat.seat] = seat.invite_hash
                if seat.token_hash is not None:
                    self._tokens.setdefault(stored.id, {})[seat.seat] = seat.token_hash
            table = Table(stored.id, spec, names)
            for action in stored.actions:
                played = from_data(json.loads(action.action))
                table.push(played, action.chosen_by)  # type: ignore[arg-type]  # stored by this server
            self._add(table)
            _log.info("table %s resumed at action %d", table.id, table.seq)

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self._seats.setdefault(table.id, {})
        self._spectators.setdefault(table.id, set())
        self._schedule(table)

    def create(self, data: object) -> tuple[Table, dict[int, str]]:
        """
        Make a table from its JSON object; the invitations to its people's seats, by seat.

        Raises:
            SpecError: the object asks for no table that can be made.
        """
        spec = read_spec(data, default_bot_delay=self.default_bot_delay)
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        invites = {seat: secrets.token_urlsafe(16) for seat in spec.people}
        names: list[str | None] = [None if seat.kind == "person" else seat.bot for seat in spec.seats]
        created = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        seats = tuple(StoredSeat(seat, _hash(code), None, None) for seat, code in invites.items())
        self.storage.create(StoredTable(table_id, dumps(spec.to_json()), created, seats, ()))
        self._invites[table_id] = {seat: _hash(code) for seat, code in invites.items()}
        self._tokens[table_id] = {}
        self._add(Table(table_id, spec, names))
        _log.info("table %s made: %s", table_id, ", ".join(seat.text for seat in spec.seats))
        return self.tables[table_id], invites

    def claim(self, table_id: str, invite: str, name: str) -> tuple[int, str]:
        """
        Give the seat that *invite* invites to to *name*: the seat and its new secret token.

        Raises:
            KeyError: no such table.
            RefusedError: the invitation is wrong (``unauthorized``) or already used.
        """
        table = self.tables[table_id]
        hashed = _hash(invite)
        for seat, expected in self._invites.get(table_id, {}).items():
            if hmac.compare_digest(expected, hashed):
                token = secrets.token_urlsafe(24)
                self.storage.claim(table_id, seat, _hash(token), name)
                del self._invites[table_id][seat]
                self._tokens[table_id][seat] = _hash(token)
                table.names[seat] = name
                _log.info("table %s: seat %d taken by %r", table_id, seat, name)
                self._presence(table)
                self._schedule(table)
                return seat, token
        raise RefusedError("unauthorized", "this invitation is not valid, or its seat is taken")

    def seat_of(self, table_id: str, token: str) -> int:
        """
        The seat whose token *token* is.

        Raises:
            RefusedError: no seat of the table has this token (``unauthorized``).
        """
        hashed = _hash(token)
        for seat, expected in self._tokens.get(table_id, {}).items():
            if hmac.compare_digest(expected, hashed):
                return seat
        raise RefusedError("unauthorized", "this token is not a seat's token at this table")

    # Connections

    def connected(self, table_id: str) -> set[int]:
        """
        The seats of people connected to the table now.
        """
        return set(self._seats.get(table_id, {}))

    def spectators(self, table_id: str) -> int:
        """
        How many spectators watch the table now.
        """
        return len(self._spectators.get(table_id, ()))

    def summary(self, table: Table) -> dict[str, object]:
        """
        The table's public summary.
        """
        return table.summary(self.connected(table.id))

    def join(self, table: Table, connection: Connection, since: int | None) -> None:
        """
        Add *connection* (its observer set) to *table*: welcome it, then tell it what it missed.
        """
        seat = connection.observer
        if seat is None:
            self._spectators[table.id].add(connection)
        else:
            old = self._seats[table.id].get(seat)
            if old is not None:
                old.send({"type": "replaced"})
                old.close(4001)
            self._seats[table.id][seat] = connection
        if since is not None and not 0 <= since <= table.seq:
            connection.send(_messages.error_message("bad-since", f"since must be from 0 to {table.seq}, not {since}"))
            since = None
        clock = self.clock(table)
        welcome = _messages.welcome_message(
            self.summary(table), table.view(seat), table.seq, clock, resuming=since is not None
        )
        connection.send(welcome)
        for seq in range(since + 1 if since is not None else table.seq + 1, table.seq + 1):
            connection.send(table.event_message(seq, seat, clock if seq == table.seq else None))
        if seat is not None:
            self._presence(table)

    def leave(self, table_id: str, connection: Connection) -> None:
        """
        Forget *connection*.
        """
        self._spectators.get(table_id, set()).discard(connection)
        seats = self._seats.get(table_id, {})
        seat = connection.observer
        if seat is not None and seats.get(seat) is connection:
            del seats[seat]
            self._presence(self.tables[table_id])

    def _presence(self, table: Table) -> None:
        connected = self.connected(table.id)
        message: dict[str, object] = {
            "type": "presence",
            "seats": [{"seat": seat, "connected": seat in connected or table.is_bot(seat)} for seat in range(4)],
        }
        self._everyone(table, message)

    def _everyone(self, table: Table, message: dict[str, object]) -> None:
        text = _messages.encode(message)
        for connection in (*self._seats[table.id].values(), *self._spectators[table.id]):
            connection.push(text)

    # Actions

    def act(self, table_id: str, seat: int, raw: object) -> None:
        """
        Accept the action a person in *seat* sent, or refuse it.

        Raises:
            RefusedError: the action is not legal, or not this seat's to take now.
        """
        table = self.tables[table_id]
        action = table.read_action(seat, raw)
        self._commit(table, action, "person")

    def _commit(self, table: Table, action: Action, by: By) -> None:
        seq = table.seq + 1
        self.storage.append(table.id, StoredAction(seq, dumps(to_data(action)), by))
        table.push(action, by)
        self._schedule(table)
        clock = self.clock(table)
        texts: dict[int | None, str] = {}
        for observer in OBSERVERS:
            readers = self._spectators[table.id] if observer is None else [self._seats[table.id].get(observer)]
            for connection in readers:
                if connection is not None:
                    if observer not in texts:
                        texts[observer] = _messages.encode(table.event_message(seq, observer, clock))
                    connection.push(texts[observer])
        if table.status == "over":
            self.storage.finish(table.id, to_json(table.record()))
            points = table.points()
            _log.info("table %s: game over, %d to %d", table.id, *points)
            self._everyone(
                table, {"type": "game-over", "record": f"/api/tables/{table.id}/record", "points": list(points)}
            )

    def clock(self, table: Table) -> dict[str, object] | None:
        """
        The clock of the person to act at *table*, if it has one: seat, deadline (Unix ms) and seconds.
        """
        deadline = self._deadlines.get(table.id)
        if deadline is None:
            return None
        return {"seat": deadline[0], "deadline": round(deadline[1] * 1000), "seconds": table.spec.clock}

    def _schedule(self, table: Table) -> None:
        """
        Set going what happens next at *table*: a deal, a bot's move or a person's clock.
        """
        timer = self._timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        self._deadlines.pop(table.id, None)
        if table.status != "playing":
            return
        loop = asyncio.get_running_loop()
        state = table.state
        if state.to_act is None:
            self._timers[table.id] = loop.call_soon(self._deal, table, table.seq)
        elif table.is_bot(state.to_act):
            self._timers[table.id] = loop.call_later(table.spec.bot_delay, self._bot, table, table.seq)
        elif table.spec.clock is not None:
            self._deadlines[table.id] = (state.to_act, self.now() + table.spec.clock)
            self._timers[table.id] = loop.call_later(table.spec.clock, self._timeout, table, table.seq)

    def _deal(self, table: Table, seq: int) -> None:
        if table.seq == seq and table.status == "playing":
            self._commit(table, table.next_deal(), "dealer")

    def _timeout(self, table: Table, seq: int) -> None:
        if table.seq == seq and table.status == "playing" and table.state.to_act is not None:
            seat = table.state.to_act
            _log.info("table %s: seat %d's clock ran out at action %d", table.id, seat, seq)
            self._commit(table, table.default_choice(seat), "clock")

    def _bot(self, table: Table, seq: int) -> None:
        task = asyncio.get_running_loop().create_task(self._think(table, seq))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _think(self, table: Table, seq: int) -> None:
        seat = table.state.to_act
        if seat is None or table.seq != seq:
            return
        choose = table.bot_chooser(seat)
        try:
            action: PlayerAction = await asyncio.get_running_loop().run_in_executor(None, choose)
        except Exception:  # noqa: BLE001 (whatever a bot raises, its table goes on)
            _log.exception(
                "table %s: the bot in seat %d failed at action %d; the default move is played", table.id, seat, seq + 1
            )
            action = table.default_choice(seat)
        if table.seq == seq:
            try:
                table.read_action(seat, _messages.action_body(action))
            except RefusedError:
                _log.warning(
                    "table %s: the bot in seat %d chose an illegal action; the default move is played", table.id, seat
                )
                action = table.default_choice(seat)
            self._commit(table, action, "bot")

    async def stop(self) -> None:
        """
        Stop every clock and bot, and close the storage.
        """
        for timer in self._timers.values():
            timer.cancel()
        for task in list(self._thinking):
            task.cancel()
        self.storage.close()
