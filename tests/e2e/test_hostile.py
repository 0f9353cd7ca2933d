"""
Security against a real server: seat tokens, what a spectator is sent, and hostile clients.

A server subprocess (in-memory tables) hosts a table that is attacked and, for the last class, a
second table whose game two scripted people and two bots play to its end during the attacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from persian_rummy import GameState, observe
from persian_rummy.events import events_of
from persian_rummy.records import GameRecord, replay
from persian_rummy.serialize import from_data, to_data
from tests.e2e._server import Message, ScriptedSeat, ServerProcess, gather_all, hello

SPEC: dict[str, object] = {"name": "Hostile", "seats": ["person", "bot:greedy", "person", "bot:greedy"], "seed": 2026}
NAMES = {0: "Ann", 2: "Cy"}
#: The teams' points of the table's game with the greedy player's choices, and its length.
POINTS = [410, 386]
ACTIONS = 165
#: Messages of a flood: far more than the burst of 40 and the 100 messages over the rate that close a connection.
FLOOD = 5_000
SECONDS = 10.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hostile")
    with ServerProcess(":memory:", log=folder / "server.log", bot_delay=0.0, args=["--allow-seed"]) as process:
        yield process


@pytest.fixture
def table(server: ServerProcess) -> tuple[str, dict[int, str]]:
    """
    A table whose people (N and S) have claimed their seats: its id and their tokens.
    """
    return server.seat_table({**SPEC, "bot_delay": 0.0}, NAMES)


@pytest.fixture
def log_from(server: ServerProcess) -> int:
    """
    Where the server's log stands when the test starts.
    """
    return len(server.log_text())


async def _receive(socket: ClientConnection) -> Message:
    message: Message = json.loads(await asyncio.wait_for(socket.recv(), SECONDS))
    return message


async def _next(socket: ClientConnection, *kinds: str) -> Message:
    """
    The next message of one of *kinds*, skipping the live stream (events, presence).
    """
    while True:
        message = await _receive(socket)
        if message["type"] in kinds:
            return message


async def _seated(server: ServerProcess, table_id: str, token: str | None) -> ClientConnection:
    socket = await connect(server.ws_url(table_id), open_timeout=SECONDS, max_size=None)
    await socket.send(hello(token, None))
    welcome = await _next(socket, "welcome", "error")
    assert "welcome" == welcome["type"], welcome
    return socket


async def _settled(server: ServerProcess, table_id: str) -> int:
    """
    The number of the last event once the bots have played up to a person's turn.
    """
    async with connect(server.ws_url(table_id), open_timeout=SECONDS) as socket:
        await socket.send(hello(None, 0))
        while True:
            message = await _next(socket, "event")
            view = message["view"]
            if view["phase"] in {"draw", "play"} and view["to_act"] in NAMES:
                return int(message["seq"])


async def _answer(socket: ClientConnection, text: str | bytes) -> Message:
    """
    The error (or pong) that answers *text*.
    """
    await socket.send(text)
    return await _next(socket, "error", "pong")


async def _still_open(socket: ClientConnection, ping: int) -> bool:
    answer = await _answer(socket, json.dumps({"type": "ping", "id": ping}))
    return {"type": "pong", "id": ping} == answer


async def _refused_hello(server: ServerProcess, table_id: str, text: str) -> tuple[str, str, int | None]:
    """
    The error code and message that answer a hello, and the code the server then closes with.
    """
    async with connect(server.ws_url(table_id), open_timeout=SECONDS) as socket:
        # A server that refuses before the hello (no such table) may have closed already.
        with contextlib.suppress(ConnectionClosed):
            await socket.send(text)
        error = await _next(socket, "error", "welcome")
        with pytest.raises(ConnectionClosed) as closed:
            await _receive(socket)
    return error["code"], error["message"], closed.value.rcvd.code if closed.value.rcvd else None


class TestSeatTokens:
    """
    "Each human seat gets a secret seat token when claimed; a token is the only way to act for that
    seat", and "a wrong or stale token is refused".
    """

    def test_a_token_for_seat_0_cannot_act_for_seat_1(
        self, server: ServerProcess, table: tuple[str, dict[int, str]]
    ) -> None:
        table_id, tokens = table
        before = asyncio.run(_settled(server, table_id))

        async def attempt() -> list[Message]:
            socket = await _seated(server, table_id, tokens[0])
            answers = [
                await _answer(socket, json.dumps({"type": "act", "action": "E draw", "id": 1})),
                await _answer(
                    socket, json.dumps({"type": "act", "action": {"type": "draw_stock", "seat": 1}, "id": 2})
                ),
                await _answer(
                    socket, json.dumps({"type": "act", "action": {"type": "pass", "seat": 3}, "id": "three"})
                ),
            ]
            assert await _still_open(socket, 4)
            await socket.close()
            return answers

        answers = asyncio.run(attempt())
        assert [
            {"type": "error", "code": "wrong-seat", "message": "you play seat N, not seat E", "rule": [], "id": 1},
            {"type": "error", "code": "wrong-seat", "message": "you play seat N, not seat E", "rule": [], "id": 2},
            {
                "type": "error",
                "code": "wrong-seat",
                "message": "you play seat N, not seat W",
                "rule": [],
                "id": "three",
            },
        ] == answers
        assert before == server.get(f"api/tables/{table_id}")["seq"]

    def test_wrong_and_stale_tokens_are_refused_at_hello(
        self, server: ServerProcess, table: tuple[str, dict[int, str]]
    ) -> None:
        table_id, tokens = table
        other_id, other_tokens = server.seat_table(SPEC, NAMES)
        wrong = "unauthorized", "this token is not a seat's token at this table", 4401
        cases = {
            "made up": hello("x" * 32, None),
            "one character changed": hello(tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B"), None),
            "another table's": hello(other_tokens[0], None),
            "empty": hello("", None),
        }

        async def attempts() -> dict[str, tuple[str, str, int | None]]:
            found = {name: await _refused_hello(server, table_id, text) for name, text in cases.items()}
            found["a number"] = await _refused_hello(server, table_id, json.dumps({"type": "hello", "token": 5}))
            found["no table"] = await _refused_hello(server, "0000000000", hello(tokens[0], None))
            return found

        assert {
            **dict.fromkeys(cases, wrong),
            "a number": ("unauthorized", "a token is a string", 4401),
            "no table": ("no-table", "no table has this id", 4404),
        } == asyncio.run(attempts())
        assert other_id != table_id

    def test_a_used_invitation_gives_no_token(self, server: ServerProcess) -> None:
        table_id, invites = server.create(SPEC)
        server.claim(table_id, invites[0], "Ann")
        status, body = _post_status(server, f"api/tables/{table_id}/claim", {"invite": invites[0], "name": "Eve"})
        assert (403, "unauthorized") == (status, body["error"]["code"])


def _post_status(server: ServerProcess, path: str, body: object) -> tuple[int, Any]:
    try:
        return 200, server.post(path, body)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _replayed(record: Any) -> tuple[list[GameState], tuple[Any, ...]]:
    read = from_data(record)
    assert isinstance(read, GameRecord)
    return list(replay(read)), read.actions


class TestSpectators:
    """
    "A spectator the public stream only ... Nothing a seat may not see is ever sent to it": no
    hand in any view, no card drawn from the stock or dealt in any event (R7, R14), every event
    the library's public account of its action.
    """

    def test_a_spectator_of_a_whole_game_is_sent_no_hidden_card(self, server: ServerProcess) -> None:
        table_id, invites = server.create({**SPEC, "bot_delay": 0.0})
        watcher = ScriptedSeat(server, table_id, None)
        tokens: dict[int, str] = {}

        async def game() -> None:
            watching = asyncio.create_task(watcher.play())
            while not watcher.messages:  # noqa: ASYNC110 (until the spectator is welcomed)
                await asyncio.sleep(0.01)
            tokens.update({seat: server.claim(table_id, invites[seat], NAMES[seat]) for seat in sorted(invites)})
            people = [ScriptedSeat(server, table_id, tokens[seat]) for seat in sorted(tokens)]
            await gather_all(*people)
            await asyncio.wait_for(watching, SECONDS)

        asyncio.run(game())
        states, actions = _replayed(server.record(table_id))
        assert ACTIONS == len(actions)
        assert list(range(1, ACTIONS + 1)) == watcher.seen
        hidden = 0
        for message in watcher.messages:
            assert message["type"] in {"welcome", "presence", "event", "pause", "game-over"}
            if message.get("view") is not None:
                assert message["view"]["hand"] is None
                assert message["view"]["seat"] is None
            if message["type"] != "event":
                continue
            seq = message["seq"]
            assert to_data(events_of(states[seq - 1], actions[seq - 1], states[seq])[4]) == message["event"]
            assert to_data(observe(states[seq], None)) == message["view"]
            assert [] == message["legal"]
            action = message["event"]["action"]
            if action is None or action["type"] == "draw_stock":
                hidden += 1
                assert [] == message["event"]["cards"]
            if message["event"]["hands"] is not None:
                assert states[seq].phase.value in {"deal_over", "game_over"}
        assert 2 + sum(1 for action in actions if type(action).__name__ == "DrawStock") == hidden
        assert POINTS == watcher.points


# -- hostile clients ---------------------------------------------------------------------------------------------

GARBAGE: dict[str, tuple[str | bytes, str]] = {
    "not JSON": ("this is not JSON", "bad-json"),
    "cut JSON": ('{"type": "act", "action": ', "bad-json"),
    "a binary frame": (b"\x00\xff\x00\xff", "bad-message"),
    "a JSON list": ("[1, 2, 3]", "bad-message"),
    "a JSON string": ('"act"', "bad-message"),
    "an unknown type": ('{"type": "shuffle"}', "bad-message"),
    "a type that is a number": ('{"type": 5}', "bad-message"),
    "no type": ('{"action": "N draw"}', "bad-message"),
    "a second hello": ('{"type": "hello", "token": null}', "bad-message"),
    "an act without its action": ('{"type": "act"}', "bad-message"),
    "an action that is a number": ('{"type": "act", "action": 5}', "bad-action"),
    "an action that is a list": ('{"type": "act", "action": ["N", "draw"]}', "bad-action"),
    "notation that is no action": ('{"type": "act", "action": "N juggle"}', "bad-action"),
    "a seat that is a string": ('{"type": "act", "action": {"type": "draw_stock", "seat": "0"}}', "bad-action"),
    "a seat out of range": ('{"type": "act", "action": {"type": "draw_stock", "seat": 9}}', "bad-action"),
    "an unknown action type": ('{"type": "act", "action": {"type": "cheat", "seat": 0}}', "bad-action"),
    "a card that is a number": ('{"type": "act", "action": {"type": "discard", "seat": 0, "card": 7}}', "bad-action"),
    "a deal from a player": ('{"type": "act", "action": {"type": "deal", "seat": 0, "deck": []}}', "bad-action"),
    "a lone surrogate": ('{"type": "act", "action": "\\ud800"}', "bad-json"),  # refused anywhere in a message
    "a message too long": ('{"type": "ping", "id": "' + "x" * 10_000 + '"}', "too-large"),
}


async def _garbage(server: ServerProcess, table_id: str, token: str) -> dict[str, str]:
    """
    The error code that answers each garbage message, all sent on one connection, which stays open.
    """
    socket = await _seated(server, table_id, token)
    codes = {name: (await _answer(socket, text))["code"] for name, (text, _code) in GARBAGE.items()}
    assert await _still_open(socket, 99)
    await socket.close()
    return codes


async def _flood(server: ServerProcess, table_id: str, token: str) -> tuple[int, int, int | None]:
    """
    Pongs and rate-limit errors received for *FLOOD* pings sent at once, and the code the server closed with.
    """
    socket = await _seated(server, table_id, token)
    pongs = errors = 0

    async def send() -> None:
        with contextlib.suppress(ConnectionClosed):
            for number in range(FLOOD):
                await socket.send(json.dumps({"type": "ping", "id": number}))

    sender = asyncio.create_task(send())
    try:
        while True:
            message = await _receive(socket)
            pongs += message["type"] == "pong"
            errors += message.get("code") == "rate-limit"
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
    await sender
    return pongs, errors, code


async def _huge(server: ServerProcess, table_id: str, token: str | None) -> tuple[int | None, str | None]:
    """
    The close code and reason that answer a frame of a million bytes.
    """
    socket = await _seated(server, table_id, token)
    try:
        # The server may close while the frame is still going out: that raises from send.
        await socket.send("[" + " " * 999_998 + "]")
        while True:
            await _receive(socket)
    except ConnectionClosed as closed:
        received = closed.rcvd
    return (received.code, received.reason) if received else (None, None)


class TestHostileClients:
    """
    "Message size and rate limits per connection, malformed JSON or unknown message types answered
    with an error message and never a crash or a dropped table", and "hostile clients (huge
    frames, floods, garbage) do not disturb the other tables".
    """

    def test_another_tables_game_goes_on_undisturbed(
        self, server: ServerProcess, table: tuple[str, dict[int, str]], log_from: int
    ) -> None:
        attacked, tokens = table
        quiet_id, quiet_tokens = server.seat_table({**SPEC, "bot_delay": 0.02}, NAMES)
        people = [ScriptedSeat(server, quiet_id, quiet_tokens[seat]) for seat in sorted(quiet_tokens)]
        rounds: list[tuple[Any, ...]] = []

        async def attacks(game: asyncio.Task[list[list[int]]]) -> None:
            while not game.done() or not rounds:
                rounds.append(
                    await asyncio.gather(
                        _garbage(server, attacked, tokens[0]),
                        _flood(server, attacked, tokens[2]),
                        _huge(server, attacked, None),
                    )
                )

        async def both() -> list[list[int]]:
            game = asyncio.create_task(gather_all(*people))
            await attacks(game)
            return await game

        assert [POINTS, POINTS] == asyncio.run(both())
        for codes, (pongs, errors, closed), huge in rounds:
            assert {name: code for name, (_text, code) in GARBAGE.items()} == codes
            assert (100, 1008) == (errors, closed)  # every message dropped is named, then the 100th closes
            assert 40 <= pongs < FLOOD - 100
            assert (1009, True) == (huge[0], huge[1].endswith("exceeds limit of 65536 bytes"))
        for person in people:
            assert list(range(1, ACTIONS + 1)) == person.seen
            assert [] == person.errors
        assert ACTIONS == len(server.record(quiet_id)["actions"])
        log = server.log_text()[log_from:]
        assert [] == re.findall(r"Traceback|ERROR.*", log)
        assert "playing" == server.get(f"api/tables/{attacked}")["status"]

    def test_deep_json_is_answered_with_an_error(
        self, server: ServerProcess, table: tuple[str, dict[int, str]]
    ) -> None:
        table_id, tokens = table

        async def attempt() -> tuple[Message, bool]:
            socket = await _seated(server, table_id, tokens[0])
            answer = await _answer(socket, "[" * 4_000 + "]" * 4_000)
            still_open = await _still_open(socket, 1)
            await socket.close()
            return answer, still_open

        answer, open_after = asyncio.run(attempt())
        assert ("error", "bad-json", True) == (answer["type"], answer["code"], open_after)
