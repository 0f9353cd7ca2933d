"""
The server's tables: seats and their tokens, connections, the bots, the clocks, the tables' lifecycle
and the database.

All of it runs on one asyncio event loop, which never waits for the database or a bot: both are
awaited.  The actions of one table are accepted one at a time, under the table's lock: checked,
written to the database, applied, then told to every connection of the table.  Tables that wait
for their people, that no person has been connected to, or whose game has ended, leave the server
after the times of `Limits`; an ended table's record stays in the database.
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
from collections.abc import Callable
from typing import Final, Literal

from ..actions import Action, PlayerAction
from ..bots import GreedyPlayer, Player
from ..engine import apply
from ..serialize import from_data, to_data, to_json
from . import _interlude, _messages
from ._bots import BotError, BotPool, BotRegistry
from ._connection import Connection
from ._limits import Limits
from ._messages import By
from ._spec import TableSpec, read_spec
from ._storage import Ending, Storage, StoredAction, StoredSeat, StoredTable, dumps
from ._table import OBSERVERS, RefusedError, Table

_log: Final = logging.getLogger("persian_rummy.server")

#: How long a table waits before it tries again an action the database did not take, in seconds.
RETRY_SECONDS: Final = 2.0
#: How soon a change of who is connected is told, and how often at most, in seconds.
PRESENCE_DELAY: Final = 0.1
PRESENCE_INTERVAL: Final = 1.0
#: The close code of a connection whose table has left the server.
GONE: Final = 4410
#: The close code of a connection whose table another worker serves now, or whose worker went away
#: (WebSocket's "service restart"): the client connects again, with the number of the last event it saw.
MOVED: Final = 1012

_Kind = Literal["deal", "bot", "clock"]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _matches(expected: str | None, secret: str) -> bool:
    return expected is not None and hmac.compare_digest(expected, _hash(secret))


class UnstoredError(Exception):
    """
    The database did not take an action: nothing was applied or told.
    """


class _Live:
    """
    A table on the server: its game, seats, connections, timers, lock and times.
    """

    def __init__(self, table: Table, *, created: float, admin_hash: str | None, quick: dict[int, bool]) -> None:
        self.table = table
        self.admin_hash = admin_hash
        self.quick = quick
        self.invites: dict[int, str] = {}
        self.tokens: dict[int, str] = {}
        self.seats: dict[int, Connection] = {}
        self.spectators: set[Connection] = set()
        self.timer: asyncio.Handle | None = None
        self.deadline: tuple[int, float] | None = None
        self.lock = asyncio.Lock()
        self.created = created
        #: Since when no person has been connected (`None` while one is).
        self.alone_since: float | None = created
        self.ended_at: float | None = None
        self.presence_timer: asyncio.TimerHandle | None = None
        self.presence_told: tuple[bool, ...] | None = None
        self.presence_at = 0.0
        #: The pause at the end of a deal: who pressed Next deal, and until when the table waits.
        self.pause: _interlude.Pause | None = None
        #: The id of the table made for a rematch once the game has ended.
        self.rematch: str | None = None

    def connections(self) -> list[Connection]:
        return [*self.seats.values(), *self.spectators]


class Hub:
    """
    Every table of one server, with its connections, bots, clocks, lifecycle and storage.
    """

    def __init__(  # noqa: PLR0913 (the server's parts)
        self,
        storage: Storage,
        *,
        limits: Limits | None = None,
        registry: BotRegistry | None = None,
        default_bot_delay: float = 0.8,
        allow_seed: bool = False,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.limits = limits or Limits()
        self.registry = registry or BotRegistry(self.limits)
        self.default_bot_delay = default_bot_delay
        self.allow_seed = allow_seed
        self.now = now
        self.tables: dict[str, _Live] = {}
        self._pool = BotPool(self.limits.bot_workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # Loading and making tables

    async def start(self) -> None:
        """
        Read every table in play from the database, replay its actions and set its game going again.

        A table whose game is over but whose record is missing (a database written by an earlier
        version, which stored them in two steps) gets its record now.
        """
        await self.adopt(await self.storage.load())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def adopt(self, tables: list[StoredTable]) -> None:
        """
        Set going the stored *tables*, their actions replayed: those read back at the start, or
        taken over from another worker (`persian_rummy.server.PostgresStorage.take`).  A table
        already here is left as it is.
        """
        for stored in tables:
            if stored.id in self.tables:
                continue
            live = self._revive(stored)
            table = live.table
            if table.status == "over":
                await self.storage.end(table.id, "over", to_json(table.record()))
                live.ended_at = self.now()
                _log.info("table %s: the record of its finished game was missing and is stored now", table.id)
            self._add(live)
            _log.info("table %s resumed at action %d", table.id, table.seq)

    def lose(self, table_id: str) -> None:
        """
        Take off this server a table another worker owns now: its connections are closed with
        `MOVED`, and connect again (to be served by the new owner).
        """
        live = self.tables.get(table_id)
        if live is None:
            return
        _log.warning("table %s: another worker owns it now; it leaves this one at action %d", table_id, live.table.seq)
        del self.tables[table_id]
        for handle in (live.timer, live.presence_timer):
            if handle is not None:
                handle.cancel()
        for connection in live.connections():
            connection.send(_messages.error_message("unavailable", "the table moved to another worker: connect again"))
            connection.close(MOVED)

    def _revive(self, stored: StoredTable) -> _Live:
        data = json.loads(stored.spec)
        spec = read_spec(data, _AsWritten(), allow_seed=True)
        names: list[str | None] = [seat.bot for seat in spec.seats]
        for seat in stored.seats:
            names[seat.seat] = seat.name
        key = bytes.fromhex(stored.secret) if stored.secret else None
        created = _epoch(stored.created, self.now())
        live = self._new_live(stored.id, spec, names, key, created=created, admin_hash=stored.admin_hash)
        for seat in stored.seats:
            if seat.invite_hash is not None:
                live.invites[seat.seat] = seat.invite_hash
            if seat.token_hash is not None:
                live.tokens[seat.seat] = seat.token_hash
        live.alone_since = self.now()
        for action in stored.actions:
            played = from_data(json.loads(action.action))
            live.table.push(played, action.chosen_by)  # type: ignore[arg-type]  # stored by this server
        return live

    def _new_live(  # noqa: PLR0913 (a table's parts)
        self,
        table_id: str,
        spec: TableSpec,
        names: list[str | None],
        key: bytes | None,
        *,
        created: float,
        admin_hash: str | None,
    ) -> _Live:
        players: dict[int, Player] = {}
        quick: dict[int, bool] = {}
        for seat, seat_spec in enumerate(spec.seats):
            if seat_spec.bot is None:
                continue
            try:
                players[seat], quick[seat] = self.registry.make(seat_spec.bot), self.registry.quick(seat_spec.bot)
            except BotError as error:
                _log.warning(
                    "table %s: seat %d's bot is not played here (%s); the greedy bot plays it", table_id, seat, error
                )
                players[seat], quick[seat] = GreedyPlayer(), True
        table = Table(table_id, spec, names, players, key, kept=self.limits.catch_up)
        return _Live(table, created=created, admin_hash=admin_hash, quick=quick)

    def _add(self, live: _Live) -> None:
        self.tables[live.table.id] = live
        self._schedule(live)

    async def create(self, data: object) -> tuple[Table, dict[int, str], str]:
        """
        Make a table from its JSON object: the table, the invitations to its people's seats by
        seat, and its admin token.

        Raises:
            SpecError: the object asks for no table that can be made.
        """
        spec = read_spec(data, self.registry, default_bot_delay=self.default_bot_delay, allow_seed=self.allow_seed)
        invites = {seat: secrets.token_urlsafe(16) for seat in spec.people}
        admin = secrets.token_urlsafe(24)
        seats = tuple(StoredSeat(seat, _hash(code), None, None) for seat, code in invites.items())
        live = await self._make(spec, seats, _hash(admin))
        _log.info("table %s made: %s", live.table.id, ", ".join(seat.text for seat in spec.seats))
        return live.table, invites, admin

    async def _make(self, spec: TableSpec, seats: tuple[StoredSeat, ...], admin_hash: str | None) -> _Live:
        """
        Store and set going a new table of *spec*, whose people's seats are *seats*.
        """
        table_id = _new_id(spec.private)
        while table_id in self.tables:
            table_id = _new_id(spec.private)
        key = None if spec.seed is not None else secrets.token_bytes(32)
        names: list[str | None] = [seat.bot for seat in spec.seats]
        for seat in seats:
            names[seat.seat] = seat.name
        created = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        stored = StoredTable(table_id, dumps(spec.to_json()), created, seats, (), key.hex() if key else "", admin_hash)
        await self.storage.create(stored)
        live = self._new_live(table_id, spec, names, key, created=self.now(), admin_hash=admin_hash)
        for seat in seats:
            if seat.invite_hash is not None:
                live.invites[seat.seat] = seat.invite_hash
            if seat.token_hash is not None:
                live.tokens[seat.seat] = seat.token_hash
        self._add(live)
        return live

    def get(self, table_id: str) -> _Live:
        """
        The table *table_id* on the server.

        Raises:
            RefusedError: no table has this id here (``no-table``).
        """
        live = self.tables.get(table_id)
        if live is None:
            raise RefusedError("no-table", "no table has this id")
        return live

    async def claim(self, table_id: str, invite: str, name: str) -> tuple[int, str]:
        """
        Give the seat that *invite* invites to to *name*: the seat and its new secret token.

        Raises:
            RefusedError: no such table (``no-table``), or the invitation is wrong (``unauthorized``)
                or already used.
        """
        live = self.get(table_id)
        async with live.lock:
            for seat, expected in live.invites.items():
                if _matches(expected, invite):
                    token = secrets.token_urlsafe(24)
                    await self.storage.claim(table_id, seat, _hash(token), name)
                    del live.invites[seat]
                    live.tokens[seat] = _hash(token)
                    live.table.names[seat] = name
                    _log.info("table %s: seat %d taken by %r", table_id, seat, name)
                    self._presence(live)
                    self._schedule(live)
                    return seat, token
        raise RefusedError("unauthorized", "this invitation is not valid, or its seat is taken")

    def seat_of(self, table_id: str, token: str) -> int:
        """
        The seat whose token *token* is.

        Raises:
            RefusedError: no seat of the table has this token (``unauthorized``).
        """
        for seat, expected in self.get(table_id).tokens.items():
            if _matches(expected, token):
                return seat
        raise RefusedError("unauthorized", "this token is not a seat's token at this table")

    def _admin(self, table_id: str, token: str) -> _Live:
        live = self.get(table_id)
        if not _matches(live.admin_hash, token):
            raise RefusedError("unauthorized", "this is not the table's admin token")
        return live

    async def abort(self, table_id: str, token: str) -> Table:
        """
        End the table's game where it stands, at its creator's word (*token* is its admin token).

        Raises:
            RefusedError: no such table, a wrong token (``unauthorized``), or the table has ended
                already (``game-over``).
        """
        live = self._admin(table_id, token)
        if not await self._end(live, "aborted"):
            raise RefusedError("game-over", "the table has ended already")
        return live.table

    async def delete(self, table_id: str, token: str) -> None:
        """
        Remove the table from the server and the database, at its creator's word.

        Raises:
            RefusedError: no such table, or a wrong token (``unauthorized``).
        """
        live = self._admin(table_id, token)
        async with live.lock:
            await self.storage.delete(table_id)
            self._evict(live, "its creator deleted the table")
        _log.info("table %s deleted by its creator", table_id)

    # Connections

    def connected(self, table_id: str) -> set[int]:
        """
        The seats of people connected to the table now.
        """
        live = self.tables.get(table_id)
        return set() if live is None else set(live.seats)

    def spectators(self, table_id: str) -> int:
        """
        How many spectators watch the table now.
        """
        live = self.tables.get(table_id)
        return 0 if live is None else len(live.spectators)

    def summary(self, table: Table) -> dict[str, object]:
        """
        The table's public summary.
        """
        return table.summary(self.connected(table.id))

    def listing(self, page: int, status: str | None) -> dict[str, object]:
        """
        Page *page* (from 1) of the public tables, newest first, of the given *status* if any.
        """
        size = self.limits.page_size
        tables = [
            live.table
            for live in reversed(self.tables.values())
            if not live.table.spec.private and (status is None or live.table.status == status)
        ]
        pages = max(1, -(-len(tables) // size))
        shown = tables[(page - 1) * size : page * size]
        return {
            "protocol": _messages.PROTOCOL,
            "tables": [self.summary(table) for table in shown],
            "page": page,
            "pages": pages,
            "total": len(tables),
        }

    def join(self, live: _Live, connection: Connection, since: int | None) -> None:
        """
        Add *connection* (its observer set) to the table: welcome it, tell it what it missed, and
        that the game is over if it is.

        A client further behind than `Limits.catch_up` actions starts afresh, from the view now.
        """
        table = live.table
        seat = connection.observer
        if seat is None:
            live.spectators.add(connection)
        else:
            old = live.seats.get(seat)
            if old is not None:
                old.send({"type": "replaced"})
                old.close(4001)
            live.seats[seat] = connection
            live.alone_since = None
        if since is not None and not 0 <= since <= table.seq:
            connection.send(_messages.error_message("bad-since", f"since must be from 0 to {table.seq}, not {since}"))
            since = None
        if since is not None and (table.seq - since > self.limits.catch_up or since + 1 < table.oldest):
            since = None
        clock = self.clock(live)
        welcome = _messages.welcome_message(
            self.summary(table), table.view(seat), table.seq, clock, resuming=since is not None
        )
        connection.send(welcome)
        for seq in range(since + 1 if since is not None else table.seq + 1, table.seq + 1):
            connection.send(table.event_message(seq, seat, clock if seq == table.seq else None))
        if (pause := self._paused(live)) is not None:
            connection.send(pause.message(table, self.now()))
        if table.status not in {"waiting", "playing"}:
            connection.send(self._over_message(table))
            if live.rematch is not None:
                connection.send(_interlude.rematch_message(live.rematch))
        if seat is not None:
            self._presence(live)

    def leave(self, table_id: str, connection: Connection) -> None:
        """
        Forget *connection*.
        """
        live = self.tables.get(table_id)
        if live is None:
            return
        live.spectators.discard(connection)
        seat = connection.observer
        if seat is not None and live.seats.get(seat) is connection:
            del live.seats[seat]
            if not live.seats:
                live.alone_since = self.now()
            self._presence(live)

    def _presence(self, live: _Live) -> None:
        """
        Tell the table who is connected, soon: changes that come close together are told once,
        and a change that is undone before it is told is not told.
        """
        if live.presence_timer is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(PRESENCE_DELAY, live.presence_at + PRESENCE_INTERVAL - loop.time())
        live.presence_timer = loop.call_later(delay, self._tell_presence, live)

    def _tell_presence(self, live: _Live) -> None:
        live.presence_timer = None
        table = live.table
        connected = tuple(seat in live.seats or table.is_bot(seat) for seat in range(4))
        if connected == live.presence_told:
            return
        live.presence_told = connected
        live.presence_at = asyncio.get_running_loop().time()
        seats = [{"seat": seat, "connected": connected[seat]} for seat in range(4)]
        self._everyone(live, {"type": "presence", "seats": seats})

    def _everyone(self, live: _Live, message: dict[str, object]) -> None:
        text = _messages.encode(message)
        for connection in live.connections():
            connection.push(text)

    # Actions

    async def act(self, table_id: str, seat: int, raw: object) -> None:
        """
        Accept the action a person in *seat* sent, or refuse it.

        Raises:
            RefusedError: the action is not legal, or not this seat's to take now; or it could not
                be stored (``unavailable``: nothing happened, and it may be sent again).
        """
        live = self.get(table_id)
        async with live.lock:
            action = live.table.read_action(seat, raw)
            try:
                await self._commit(live, action, "person")
            except UnstoredError as error:
                raise RefusedError(
                    "unavailable", "the action could not be stored; nothing happened: send it again"
                ) from error

    async def _commit(self, live: _Live, action: Action, by: By) -> None:
        """
        Store *action*, checked, as the table's next action, then take it and tell everyone; the
        table's lock is held.

        Raises:
            UnstoredError: the database did not take it (logged); nothing happened.
        """
        table = live.table
        seq = table.seq + 1
        after = apply(table.state, action)
        record = to_json(table.record(action)) if after.phase == "game_over" else None
        try:
            await self.storage.append(table.id, StoredAction(seq, dumps(to_data(action)), by), record)
        except Exception as error:
            _log.exception("table %s: action %d could not be stored", table.id, seq)
            raise UnstoredError from error
        table.push(action, by, after)
        self._schedule(live)
        clock = self.clock(live)
        texts: dict[int | None, str] = {}
        for observer in OBSERVERS:
            readers = live.spectators if observer is None else [live.seats.get(observer)]
            for connection in readers:
                if connection is not None:
                    if observer not in texts:
                        texts[observer] = _messages.encode(table.event_message(seq, observer, clock))
                    connection.push(texts[observer])
        if record is not None:
            live.ended_at = self.now()
            _log.info("table %s: game over, %d to %d", table.id, *table.points())
            self._everyone(live, self._over_message(table))
        if (pause := self._paused(live)) is not None:
            self._everyone(live, pause.message(table, self.now()))

    # The end of a deal, and the rematch

    def _paused(self, live: _Live) -> _interlude.Pause | None:
        """
        The table's pause at the end of a deal, while a person has not pressed Next deal (`Limits.deal_pause`).
        """
        live.pause = _interlude.at_deal_end(live.pause, live.table, self.limits.deal_pause, self.now())
        return live.pause if live.pause is not None and live.pause.waiting(live.table) else None

    async def next_deal(self, table_id: str, seat: int) -> None:
        """
        The person in *seat* is ready for the next deal, dealt once every person is.

        Raises:
            RefusedError: no deal has ended that waits for the next (``not-paused``).
        """
        live = self.get(table_id)
        async with live.lock:
            pause = self._paused(live)
            if pause is None:
                raise RefusedError("not-paused", "no deal has ended that waits for the next")
            if seat not in pause.ready:
                pause.ready.add(seat)
                self._schedule(live)
                if pause.waiting(live.table):
                    self._everyone(live, pause.message(live.table, self.now()))

    async def rematch(self, table_id: str, seat: int, may_create: Callable[[], None]) -> str:
        """
        The table of a rematch of the ended game (`_interlude.rematch`), made by the first to ask
        (*may_create* raises when no table may be made now); everyone at the table is told its id.

        Raises:
            RefusedError: the game has not ended (``not-over``), or no table may be made now.
        """
        live = self.get(table_id)
        async with live.lock:
            table = live.table
            if table.status in {"waiting", "playing"} or not set(table.spec.people) <= set(live.tokens):
                raise RefusedError("not-over", "a rematch is made once the game has ended")
            if live.rematch is None:
                may_create()
                made = await self._make(*_interlude.rematch(table, live.tokens), live.admin_hash)
                live.rematch = made.table.id
                _log.info("table %s: rematch at table %s, asked by seat %d", table.id, made.table.id, seat)
            self._everyone(live, _interlude.rematch_message(live.rematch))
            return live.rematch

    def _over_message(self, table: Table) -> dict[str, object]:
        return {
            "type": "game-over",
            "record": f"/api/tables/{table.id}/record",
            "points": list(table.points()),
            "ended": table.status,
            "key": table.key.hex() if table.key is not None else None,
        }

    def clock(self, live: _Live) -> dict[str, object] | None:
        """
        The clock of the person to act at the table, if it has one: seat, deadline (Unix ms) and seconds.
        """
        if live.deadline is None:
            return None
        return {"seat": live.deadline[0], "deadline": round(live.deadline[1] * 1000), "seconds": live.table.spec.clock}

    def _schedule(self, live: _Live) -> None:
        """
        Set going what happens next at the table: a deal, a bot's move or a person's clock.
        """
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        live.deadline = None
        table = live.table
        if table.status != "playing":
            return
        loop = asyncio.get_running_loop()
        state = table.state
        if state.to_act is None:
            pause = self._paused(live)
            if pause is None:
                live.timer = loop.call_soon(self._spawn, live, table.seq, "deal")
            else:
                wait = max(0.0, pause.deadline - self.now())
                live.timer = loop.call_later(wait, self._spawn, live, table.seq, "deal")
        elif table.is_bot(state.to_act):
            live.timer = loop.call_later(table.spec.bot_delay, self._spawn, live, table.seq, "bot")
        elif table.spec.clock is not None:
            live.deadline = (state.to_act, self.now() + table.spec.clock)
            live.timer = loop.call_later(table.spec.clock, self._spawn, live, table.seq, "clock")

    def _spawn(self, live: _Live, seq: int, kind: _Kind) -> None:
        task = asyncio.get_running_loop().create_task(self._auto(live, seq, kind))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _auto(self, live: _Live, seq: int, kind: _Kind) -> None:
        """
        What the server plays at the table: the deal, a bot's move, or the default move of a person
        whose clock ran out.  An action the database did not take is tried again after a pause.
        """
        table = live.table
        seat = table.state.to_act
        if table.seq != seq or table.status != "playing":
            return
        chosen = await self._think(live, seat, seq) if kind == "bot" and seat is not None else None
        async with live.lock:
            if table.seq != seq or table.status != "playing" or self.tables.get(table.id) is not live:
                return
            action: Action
            by: By
            if kind == "deal":
                action, by = table.next_deal(), "dealer"
            elif kind == "clock" and seat is not None:
                _log.info("table %s: seat %d's clock ran out at action %d", table.id, seat, seq)
                action, by = table.default_choice(seat), "clock"
            elif chosen is not None:
                action, by = chosen, "bot"
            else:
                return
            try:
                await self._commit(live, action, by)
            except UnstoredError:
                live.timer = asyncio.get_running_loop().call_later(RETRY_SECONDS, self._spawn, live, seq, kind)

    async def _think(self, live: _Live, seat: int, seq: int) -> PlayerAction:
        """
        The bot's choice in *seat*, thought out in a worker thread; the default move if it fails or
        chooses what it may not.
        """
        table = live.table
        view = table.view(seat)
        try:
            action = await self._pool.choose(
                table.bot_player(seat), view, table.random("bot", seq + 1), quick=live.quick[seat]
            )
        except Exception:  # noqa: BLE001 (whatever a bot raises, its table goes on)
            _log.exception(
                "table %s: the bot in seat %d failed at action %d; the default move is played", table.id, seat, seq + 1
            )
            return table.default_choice(seat)
        if table.seq == seq:
            try:
                table.read_action(seat, _messages.action_body(action))
            except RefusedError:
                _log.warning(
                    "table %s: the bot in seat %d chose an illegal action; the default move is played", table.id, seat
                )
                return table.default_choice(seat)
        return action

    # The lifecycle

    async def _end(self, live: _Live, ending: Ending) -> bool:
        """
        End the table before its game is over (*ending*), storing the record of its game so far;
        whether it was still going.
        """
        async with live.lock:
            table = live.table
            if table.status not in {"waiting", "playing"}:
                return False
            await self.storage.end(table.id, ending, to_json(table.record()))
            table.ending = ending
            live.ended_at = self.now()
            self._schedule(live)
            self._everyone(live, self._over_message(table))
        _log.info("table %s: %s at action %d", table.id, ending, table.seq)
        return True

    def _evict(self, live: _Live, why: str) -> None:
        """
        Take the table off the server: its connections are told why and closed.
        """
        if self.tables.get(live.table.id) is not live:
            return
        del self.tables[live.table.id]
        for handle in (live.timer, live.presence_timer):
            if handle is not None:
                handle.cancel()
        for connection in live.connections():
            connection.send(_messages.error_message("gone", why))
            connection.close(GONE)

    async def _sweep(self) -> None:
        """
        Every little while, end the tables that waited or were left too long, and take off the
        server those that ended long enough ago.
        """
        limits = self.limits
        pause = min(max(min(limits.waiting_ttl, limits.abandoned_ttl, limits.finished_ttl) / 4, 0.05), 5.0)
        while True:
            await asyncio.sleep(pause)
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 (a failed round leaves the next to try again)
                _log.exception("the tables' lifecycle failed a round; it goes on")

    async def sweep(self) -> None:
        """
        One round of the lifecycle: end the tables that waited or were left too long, and take off
        the server those that ended long enough ago (their record stays in the database).
        """
        now, limits = self.now(), self.limits
        for live in list(self.tables.values()):
            status = live.table.status
            if (status == "waiting" and now - live.created > limits.waiting_ttl) or (
                status == "playing" and live.alone_since is not None and now - live.alone_since > limits.abandoned_ttl
            ):
                await self._end(live, "expired")
            elif live.ended_at is not None and now - live.ended_at > limits.finished_ttl:
                self._evict(live, "the table has ended and left the server; its record stays")

    async def stop(self) -> None:
        """
        Stop every clock, bot and lifecycle round, and close the storage.
        """
        if self._sweeper is not None:
            self._sweeper.cancel()
        for live in self.tables.values():
            for handle in (live.timer, live.presence_timer):
                if handle is not None:
                    handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown()
        await self.storage.close()


class _AsWritten:
    """
    The bots of a table read back from the database, as they were written: one this server does not
    play is replaced by the greedy bot when the table is set up (`Hub._new_live`).
    """

    def read(self, text: object) -> str:
        return str(text)


def _new_id(private: bool) -> str:
    """
    A new table id: ten hexadecimal digits, or 32 for a private table, which its id alone leads to.
    """
    return secrets.token_hex(16 if private else 5)


def _epoch(created: str, default: float) -> float:
    try:
        return dt.datetime.fromisoformat(created).timestamp()
    except ValueError:
        return default
