"""
The table server through its HTTP routes and WebSockets, in process (Starlette's test client).

The end-to-end tests (a real browser, a server killed and started again, hostile clients over the
network) are in ``tests/e2e``, run by ``nox -s server``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from persian_rummy.actions import CallRummy, Discard, LayOff
from persian_rummy.bots import GreedyPlayer
from persian_rummy.engine import apply, legal_actions
from persian_rummy.notation import format_action
from persian_rummy.records import GameRecord, final_state
from persian_rummy.serialize import from_data, from_json
from persian_rummy.server import ERROR_CODES, Limits, SqliteStorage, StoredAction, create_app
from persian_rummy.state import Phase, View
from persian_rummy.views import determinize

BOTS = ["person", "bot:greedy", "bot:greedy", "bot:greedy"]
RANDOM_BOTS = ["person", "bot:random", "bot:random", "bot:random"]
CALLS = "rummy_calls=true"
# A scripted person answers at once, faster than the 20 messages a second a browser is allowed;
# the rate limit has its own tests, here it would only drop actions.
UNLIMITED = Limits(rate=1_000, burst=1_000)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=UNLIMITED)) as test_client:
        yield test_client


def _table(client: TestClient, **fields: Any) -> tuple[str, list[dict[str, Any]]]:
    made = client.post("/api/tables", json={"seats": BOTS, "seed": 7, **fields})
    assert made.status_code == 201, made.text
    return made.json()["table"]["id"], made.json()["invitations"]


def _claim(client: TestClient, table_id: str, invite: str, name: str = "Ann") -> str:
    answer = client.post(f"/api/tables/{table_id}/claim", json={"invite": invite, "name": name})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def _seated(client: TestClient, **fields: Any) -> tuple[str, str]:
    table_id, invitations = _table(client, **fields)
    return table_id, _claim(client, table_id, invitations[0]["invite"])


def _hello(socket: Any, token: str | None, since: int | None = None) -> dict[str, Any]:
    socket.send_text(json.dumps({"type": "hello", "token": token, "since": since}))
    welcome: dict[str, Any] = socket.receive_json()
    return welcome


def _until(socket: Any, kind: str) -> list[dict[str, Any]]:
    """Every message up to and including the first of type *kind*."""
    seen = []
    while True:
        message = socket.receive_json()
        seen.append(message)
        if message["type"] == kind:
            return seen


def _my_turn(socket: Any, first: dict[str, Any]) -> dict[str, Any]:
    """The first message, from *first* on, that offers the seat legal actions."""
    message = first
    while not message.get("legal"):
        message = socket.receive_json()
    return message


class TestTables:
    """Tables are made, listed and read over HTTP; what cannot be made is refused with the field named."""

    def test_a_new_table(self, client: TestClient) -> None:
        table_id, invitations = _table(client, name="Friday", clock=30)
        table = client.get(f"/api/tables/{table_id}").json()
        assert (table["name"], table["status"], table["clock"], table["seq"]) == ("Friday", "waiting", 30.0, 0)
        assert [seat["kind"] for seat in table["seats"]] == ["person", "bot", "bot", "bot"]
        assert [seat["bot"] for seat in table["seats"]] == [None, "greedy", "greedy", "greedy"]
        assert [invitation["seat"] for invitation in invitations] == [0]
        assert invitations[0]["url"] == f"/tables/{table_id}#invite={invitations[0]['invite']}"
        listed = client.get("/api/tables").json()
        assert (listed["protocol"], [table["id"] for table in listed["tables"]]) == (1, [table_id])

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"colour": "red"}, "unknown field 'colour'"),
            ({"seats": ["person"]}, "seats: a list of four seats"),
            ({"seats": ["bot:greedy"] * 4}, "seats: at least one seat must be a person's"),
            ({"seats": ["person", "bot:nobody", "bot:greedy", "bot:greedy"]}, "seats[1]: "),
            ({"clock": 0.5}, "clock: from 1 to 86400 seconds, not 0.5"),
            ({"bot_delay": -1}, "bot_delay: from 0 to 10 seconds, not -1"),
            ({"rules": "num_deals=0"}, "rules: "),
            ({"name": ""}, "name: a table's name must be a non-empty string"),
            ({"first_dealer": 4}, "first_dealer: a whole number from 0 to 3"),
        ],
    )
    def test_a_table_that_cannot_be_made(self, client: TestClient, fields: dict[str, Any], message: str) -> None:
        answer = client.post("/api/tables", json={"seats": BOTS, **fields})
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "bad-table"
        assert answer.json()["error"]["message"].startswith(message)

    def test_bodies_that_are_not_tables(self, client: TestClient) -> None:
        json_type = {"content-type": "application/json"}
        answer = client.post("/api/tables", content=b"{not json", headers=json_type)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad-json")
        answer = client.post("/api/tables", content=b"[" * 70_000, headers=json_type)
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too-large")

    def test_unknown_tables(self, client: TestClient) -> None:
        assert client.get("/api/tables/nope").status_code == 404
        assert client.get("/tables/nope").status_code == 404
        assert client.post("/api/tables/nope/claim", json={"invite": "x"}).status_code == 404

    def test_the_record_waits_for_the_end(self, client: TestClient) -> None:
        table_id, _ = _table(client)
        answer = client.get(f"/api/tables/{table_id}/record")
        assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not-over")


class TestSeats:
    """An invitation is claimed once; the token it gives is the only way to act for its seat."""

    def test_a_claim(self, client: TestClient) -> None:
        table_id, invitations = _table(client)
        token = _claim(client, table_id, invitations[0]["invite"], "Ann")
        table = client.get(f"/api/tables/{table_id}").json()
        assert (table["status"], table["seats"][0]["name"], len(token)) == ("playing", "Ann", 32)

    def test_an_invitation_is_used_once(self, client: TestClient) -> None:
        table_id, invitations = _table(client)
        _claim(client, table_id, invitations[0]["invite"])
        again = client.post(f"/api/tables/{table_id}/claim", json={"invite": invitations[0]["invite"], "name": "Bo"})
        assert (again.status_code, again.json()["error"]["code"]) == (403, "unauthorized")

    def test_a_wrong_invitation(self, client: TestClient) -> None:
        table_id, _ = _table(client)
        wrong = client.post(f"/api/tables/{table_id}/claim", json={"invite": "guess", "name": "Bo"})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "unauthorized")

    def test_a_wrong_token_is_refused(self, client: TestClient) -> None:
        table_id, _ = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            error = _hello(socket, "not-a-token")
            assert (error["type"], error["code"]) == ("error", "unauthorized")
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 4401

    def test_a_token_acts_for_its_own_seat_only(self, client: TestClient) -> None:
        table_id, invitations = _table(client, seats=["person", "person", "bot:greedy", "bot:greedy"])
        north = _claim(client, table_id, invitations[0]["invite"], "Ann")
        _claim(client, table_id, invitations[1]["invite"], "Ben")
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            welcome = _hello(socket, north)
            dealt = welcome if welcome["seq"] else _until(socket, "event")[-1]  # the deal may follow the welcome
            assert (welcome["seat"], dealt["view"]["to_act"]) == (0, 1)
            socket.send_text(json.dumps({"type": "act", "action": "E draw", "id": 3}))
            error = _until(socket, "error")[-1]
        assert error == {
            "type": "error",
            "code": "wrong-seat",
            "message": "you play seat N, not seat E",
            "rule": [],
            "id": 3,
        }


class TestStreams:
    """Each reader gets its own account and view; errors go to the sender only, naming the rule."""

    def test_a_seat_sees_its_hand_and_a_spectator_none(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as seat,
            client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
        ):
            mine = _hello(seat, token)
            # The bots play until it is the person's turn; then nothing moves, and the spectator's
            # welcome shows the same moment as the seat's.
            turn = _my_turn(seat, mine)
            theirs = _hello(spectator, None)
        assert (mine["seat"], mine["protocol"]) == (0, 1)
        assert (turn["view"]["phase"], len(turn["view"]["hand"])) == ("draw", 7)
        assert (theirs["seat"], theirs["view"]["hand"], theirs["legal"]) == (None, None, [])
        assert (theirs["seq"], theirs["view"]["hand_sizes"]) == (turn["seq"], turn["view"]["hand_sizes"])

    def test_an_illegal_action_names_its_rule(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            turn = _my_turn(socket, _hello(socket, token))
            assert turn["view"]["phase"] == "draw"
            card = turn["view"]["hand"][0]
            socket.send_text(json.dumps({"type": "act", "action": f"N discard {card}", "id": "a"}))
            error = _until(socket, "error")[-1]
        assert (error["code"], error["id"]) == ("illegal-action", "a")
        assert error["rule"] == ["R13"]
        # Said to the seat in plain words (persian_rummy.wording), the rule named once with its summary.
        assert error["message"] == (
            "You must draw or pass before discarding."
            " (R13: a turn is: draw, then any melds and lay-offs, then one discard)"
        )

    @pytest.mark.parametrize(
        ("text", "code"),
        [
            ("{nope", "bad-json"),
            ("[1, 2]", "bad-message"),
            ('{"type": "shout"}', "bad-message"),
            ('{"type": "hello"}', "bad-message"),
            ('{"type": "act"}', "bad-message"),
            ('{"type": "act", "action": "N fly"}', "bad-action"),
            ('{"type": "act", "action": {"type": "deal", "seat": 0}}', "bad-action"),
            ('{"type": "act", "action": 7}', "bad-action"),
            ('{"type": "act", "action": "x"}' + " " * 9000, "too-large"),
        ],
    )
    def test_bad_messages_are_answered(self, client: TestClient, text: str, code: str) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _hello(socket, token)
            socket.send_text(text)
            error = _until(socket, "error")[-1]
            socket.send_text(json.dumps({"type": "ping", "id": 9}))
            assert _until(socket, "pong")[-1] == {"type": "pong", "id": 9}
        assert error["code"] == code
        assert code in ERROR_CODES

    def test_a_spectator_cannot_act(self, client: TestClient) -> None:
        table_id, _ = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _hello(socket, None)
            socket.send_text(json.dumps({"type": "act", "action": "N draw"}))
            assert _until(socket, "error")[-1]["code"] == "spectator"

    def test_the_first_message_must_be_hello(self, client: TestClient) -> None:
        table_id, _ = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            socket.send_text(json.dumps({"type": "ping"}))
            assert socket.receive_json()["code"] == "bad-message"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert closed.value.code == 4400

    def test_a_flood_is_limited(self) -> None:
        limits = Limits(rate=1, burst=3, strikes=5)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, token = _seated(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _hello(socket, token)
                for number in range(8):
                    socket.send_text(json.dumps({"type": "ping", "id": number}))
                codes: list[str] = []
                dropped: list[object] = []
                with pytest.raises(WebSocketDisconnect) as closed:
                    _record_codes(socket, codes, dropped)
        assert closed.value.code == 1008
        assert codes.count("pong") == 3
        assert dropped == [3, 4, 5, 6, 7]  # each message dropped is named, until the fifth closes the connection


def _record_codes(socket: Any, codes: list[str], dropped: list[object]) -> None:
    """Keep the code or type of each message in *codes*, and the ids of rate-limit errors in *dropped*."""
    while True:
        message = socket.receive_json()
        codes.append(message.get("code", message["type"]))
        if message.get("code") == "rate-limit":
            dropped.append(message.get("id"))


def _play(socket: Any, first: dict[str, Any], seed: int = 0) -> list[dict[str, Any]]:
    """
    Play the seat with the greedy player until the game is over, pressing Next deal at the end of
    each deal; every message received.
    """
    seen = [first]
    rng = random.Random(seed)  # noqa: S311 (the player's seed)
    message = first
    seat = first.get("seat", 0)
    while message["type"] != "game-over":
        if message.get("legal"):
            view = from_data(message["view"])
            assert isinstance(view, View)
            action = GreedyPlayer().choose(view, rng)
            socket.send_text(json.dumps({"type": "act", "action": format_action(action, view)}))
        elif message["type"] == "pause" and seat in message["waiting"]:
            socket.send_text(json.dumps({"type": "next-deal"}))
        message = socket.receive_json()
        assert message["type"] != "error", message  # an answer that never comes would hang the test
        seen.append(message)
    return seen


class TestWholeGames:
    """A person plays a whole game against three bots; the record replays to the game's end."""

    def test_a_game_and_its_record(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            seen = _play(socket, _hello(socket, token, since=0))
        events = [message for message in seen if message["type"] == "event"]
        assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
        assert {event["by"] for event in events} == {"dealer", "person", "bot"}
        record = from_json(client.get(f"/api/tables/{table_id}/record").content, GameRecord)
        assert len(record.actions) == len(events)
        assert record.players == ("Ann", "greedy", "greedy", "greedy")
        end = final_state(record)
        points = [sum(result.totals[team] for result in end.results) for team in (0, 1)]
        assert seen[-1] == {
            "type": "game-over",
            "record": f"/api/tables/{table_id}/record",
            "points": points,
            "ended": "over",
            "key": None,  # a seeded table's deals come from its seed
        }
        assert end.phase == "game_over"

    def test_the_same_seed_plays_the_same_game(self) -> None:
        records = []
        for _ in range(2):
            with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=UNLIMITED)) as client:
                table_id, token = _seated(client)
                with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                    _play(socket, _hello(socket, token))
                records.append(client.get(f"/api/tables/{table_id}/record").content)
        assert records[0] == records[1]


class TestResumption:
    """A client that comes back with the last number it saw is told exactly what it missed."""

    def test_what_was_missed(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            turn = _my_turn(socket, _hello(socket, token))
            last = turn["seq"]
            socket.send_text(json.dumps({"type": "act", "action": turn["legal"][0]["notation"]}))
            assert _until(socket, "event")[-1]["seq"] == last + 1  # the action was taken
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            welcome = _hello(socket, token, since=last - 3)
            assert (welcome["view"], welcome["seq"] > last) == (None, True)
            missed = [socket.receive_json() for _ in range(welcome["seq"] - last + 3)]
        assert [message["seq"] for message in missed] == list(range(last - 2, welcome["seq"] + 1))
        assert missed[3]["event"]["action"]["seat"] == 0

    def test_a_number_from_the_future(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            socket.send_text(json.dumps({"type": "hello", "token": token, "since": 10_000}))
            error, welcome = socket.receive_json(), socket.receive_json()
        assert (error["code"], welcome["type"], welcome["view"]["seat"]) == ("bad-since", "welcome", 0)

    def test_the_newest_connection_wins(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as first:
            _hello(first, token)
            with client.websocket_connect(f"/ws/tables/{table_id}") as second:
                assert _hello(second, token)["seat"] == 0
                assert _until(first, "replaced")[-1] == {"type": "replaced"}
                with pytest.raises(WebSocketDisconnect) as closed:
                    first.receive_json()
        assert closed.value.code == 4001


class TestClockAndBots:
    """A person's clock runs out into the greedy player's move; a bot that fails is replaced by it."""

    def test_the_clock(self, client: TestClient) -> None:
        table_id, token = _seated(client, clock=1)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            turn = _my_turn(socket, _hello(socket, token))
            assert (turn["clock"]["seat"], turn["clock"]["seconds"]) == (0, 1.0)
            played = _until(socket, "event")[-1]
        assert (played["type"], played["by"], played["seq"]) == ("event", "clock", turn["seq"] + 1)
        assert played["event"]["action"]["seat"] == 0

    def test_a_failing_bot(self, caplog: pytest.LogCaptureFixture) -> None:
        class Broken:
            def choose(self, _view: View, _rng: random.Random) -> None:
                raise RuntimeError("out of ideas")

        app = create_app(":memory:", bot_delay=0, allow_seed=True, limits=UNLIMITED, bots={"broken": Broken})  # type: ignore[dict-item]
        with TestClient(app) as client:
            table_id, invitations = _table(client, seats=["person", "bot:broken", "bot:greedy", "bot:greedy"])
            token = _claim(client, table_id, invitations[0]["invite"])
            events = self._first_two(client, caplog, table_id, token)
        assert (events[0]["by"], events[0]["event"]["action"]) == ("dealer", None)
        assert (events[1]["by"], events[1]["event"]["action"]["seat"]) == ("bot", 1)
        assert "the bot in seat 1 failed" in caplog.text

    @staticmethod
    def _first_two(client: TestClient, caplog: pytest.LogCaptureFixture, table_id: str, token: str) -> list[Any]:
        with (
            caplog.at_level(logging.ERROR, "persian_rummy.server"),
            client.websocket_connect(f"/ws/tables/{table_id}") as socket,
        ):
            _hello(socket, token, since=0)
            return [_until(socket, "event")[-1] for _ in range(2)]


def _act(socket: Any, notation: str) -> None:
    socket.send_text(json.dumps({"type": "act", "action": notation}))


def _asked(message: dict[str, Any]) -> bool:
    return any(entry["action"]["type"] == "call_rummy" for entry in message.get("legal", ()))


def _play_until_asked(socket: Any, first: dict[str, Any], *, call_on_own_discards: bool = False) -> dict[str, Any]:
    """
    Play the seat with the greedy player until it is asked whether to call Rummy!; that message.

    With *call_on_own_discards*, the seat discards, when it can, a card that a table meld takes,
    so that the other seats are asked (A24); then the message of that discard is returned.
    """
    rng = random.Random(0)  # noqa: S311 (the player's seed)
    message = first
    for _ in range(2_000):
        if message["type"] == "game-over":
            break
        if _asked(message) and not call_on_own_discards:
            return message
        if message.get("legal"):
            view = from_data(message["view"])
            assert isinstance(view, View)
            action = GreedyPlayer().choose(view, rng)
            if call_on_own_discards and view.phase is Phase.PLAY:
                state = determinize(view, random.Random(0))  # noqa: S311 (the melds, public, decide)
                asking = [
                    move
                    for move in legal_actions(view)
                    if type(move) is Discard and apply(state, move).phase is Phase.CALLS
                ]
                if asking:
                    _act(socket, format_action(asking[0], view))
                    return _until(socket, "event")[-1]
            _act(socket, format_action(action, view))
        message = socket.receive_json()
    pytest.fail("the seat was never asked to call Rummy!")


class TestRummyCalls:
    """A24 at a table: the seat asked is offered the call and the decline; bots and the clock answer too."""

    def test_a_person_calls_rummy(self, client: TestClient) -> None:
        table_id, token = _seated(client, seats=RANDOM_BOTS, seed=11, rules=CALLS)
        assert client.get(f"/api/tables/{table_id}").json()["rules"]["rummy_calls"] is True
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            asked = _play_until_asked(socket, _hello(socket, token, since=0))
            view = asked["view"]
            assert (asked["seq"], view["phase"], view["to_act"], view["discarder"]) == (16, "calls", 0, 3)
            assert view["discard_pile"][-1] == "7c"
            assert asked["legal"] == [
                {"notation": "N decline", "action": {"type": "decline_call", "seat": 0}},
                {"notation": "N call", "action": {"type": "call_rummy", "seat": 0}},
            ]
            _act(socket, "N call")
            called = _until(socket, "event")[-1]
            assert (called["seq"], called["by"], called["notation"]) == (17, "person", "N call")
            assert (called["event"]["action"], called["event"]["cards"]) == ({"type": "call_rummy", "seat": 0}, ["7c"])
            assert (called["view"]["phase"], called["view"]["obligation"], called["view"]["discarder"]) == (
                "called",
                "7c",
                3,
            )
            assert {entry["action"]["type"] for entry in called["legal"]} == {"lay_off"}
            assert {tuple(entry["action"]["cards"]) for entry in called["legal"]} == {("7c",)}
            _act(socket, called["legal"][0]["notation"])
            laid = _until(socket, "event")[-1]
            assert (laid["seq"], laid["by"], laid["event"]["action"]["type"]) == (18, "person", "lay_off")
            assert (laid["view"]["phase"], laid["view"]["to_act"], "discarder" in laid["view"]) == ("draw", 0, False)
        record = client.app.state.hub.tables[table_id].table.record()  # type: ignore[attr-defined]
        assert (record.rules.rummy_calls, record.actions[16], type(record.actions[17])) == (True, CallRummy(0), LayOff)

    def test_greedy_bots_call_on_a_persons_discard(self, client: TestClient) -> None:
        table_id, token = _seated(client, seed=5, rules=CALLS)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            discard = _play_until_asked(socket, _hello(socket, token, since=0), call_on_own_discards=True)
            assert (discard["event"]["action"]["type"], discard["view"]["phase"]) == ("discard", "calls")
            assert (discard["view"]["to_act"], discard["view"]["discarder"]) == (1, 0)
            card = discard["event"]["action"]["card"]
            assert (discard["seq"], card) == (11, "Js")
            answers = [_until(socket, "event")[-1] for _ in range(3)]
        assert [(event["by"], event["notation"]) for event in answers[:1]] == [("bot", "E call")]
        assert (answers[0]["event"]["cards"], answers[0]["view"]["phase"]) == ([card], "called")
        assert (answers[1]["by"], answers[1]["event"]["action"]["type"], answers[1]["event"]["action"]["cards"]) == (
            "bot",
            "lay_off",
            [card],
        )
        after = {"type": "take_discard", "seat": 1, "card": "3h"}  # the discarder's left, whose turn it is
        assert (answers[2]["event"]["action"], answers[2]["view"]["phase"]) == (after, "play")

    def test_the_clock_answers_a_call(self, client: TestClient) -> None:
        table_id, token = _seated(client, seats=RANDOM_BOTS, seed=11, rules=CALLS, clock=1)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            asked = _play_until_asked(socket, _hello(socket, token, since=0))
            assert (asked["clock"]["seat"], asked["view"]["phase"]) == (0, "calls")
            answered = _until(socket, "event")[-1]
            laid = _until(socket, "event")[-1]
        assert (answered["seq"], answered["by"], answered["notation"]) == (asked["seq"] + 1, "clock", "N call")
        assert (laid["by"], laid["event"]["action"]["type"], laid["event"]["action"]["cards"]) == (
            "clock",
            "lay_off",
            ["7c"],
        )


class TestStorage:
    """Tables outlive their server: a new server on the same database goes on where the old one was."""

    def test_a_table_after_a_restart(self, tmp_path: Path) -> None:
        path = str(tmp_path / "tables.sqlite3")
        with TestClient(create_app(path, bot_delay=0, allow_seed=True, limits=UNLIMITED)) as client:
            table_id, token = _seated(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                turn = _my_turn(socket, _hello(socket, token))
            seq = turn["seq"]
        with TestClient(create_app(path, bot_delay=0, allow_seed=True, limits=UNLIMITED)) as client:
            table = client.get(f"/api/tables/{table_id}").json()
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                welcome = _hello(socket, token)
                seen = _play(socket, welcome)
        assert (table["seq"], table["status"], welcome["view"]["to_act"]) == (seq, "playing", 0)
        assert seen[-1]["type"] == "game-over"

    def test_an_action_is_stored_once(self, tmp_path: Path) -> None:
        storage = SqliteStorage(str(tmp_path / "tables.sqlite3"))
        with TestClient(create_app(storage, bot_delay=0, allow_seed=True, limits=UNLIMITED)) as client:
            table_id, token = _seated(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _my_turn(socket, _hello(socket, token))  # the deal, action 1, is stored by now
            with pytest.raises(sqlite3.IntegrityError):
                asyncio.run(storage.append(table_id, StoredAction(1, "{}", "dealer")))


def _until_paused(socket: Any, first: dict[str, Any]) -> dict[str, Any]:
    """Play the seat with the greedy player until the end of a deal pauses the table: the pause."""
    rng = random.Random(0)  # noqa: S311 (the player's seed)
    message = first
    while message["type"] != "pause":
        if message.get("legal"):
            view = from_data(message["view"])
            assert isinstance(view, View)
            _act(socket, format_action(GreedyPlayer().choose(view, rng), view))
        message = socket.receive_json()
        assert message["type"] not in {"error", "game-over"}, message
    return message


def _act_raw(socket: Any, message: dict[str, Any]) -> None:
    socket.send_text(json.dumps(message))


def _next_event(socket: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "event":
            return message


def _both_until_the_deal_ends(sockets: dict[int, Any]) -> int:
    """
    Play two people's seats with the greedy player, event by event on both sockets, until the
    first deal ends: the number of that event.
    """
    rng = random.Random(0)  # noqa: S311 (the players' seed)
    latest = {seat: _next_event(socket) for seat, socket in sockets.items()}
    while latest[0]["view"]["phase"] != "deal_over":
        actor = next((seat for seat, message in latest.items() if message["legal"]), None)
        if actor is not None:
            view = from_data(latest[actor]["view"])
            assert isinstance(view, View)
            _act(sockets[actor], format_action(GreedyPlayer().choose(view, rng), view))
        latest = {seat: _next_event(socket) for seat, socket in sockets.items()}
        assert latest[0]["seq"] == latest[2]["seq"]
    seq: int = latest[0]["seq"]
    return seq


def _pinged(socket: Any) -> list[dict[str, Any]]:
    """What the socket is told before the answer to a ping, but who is connected."""
    socket.send_text(json.dumps({"type": "ping", "id": "p"}))
    return [message for message in _until(socket, "pong")[:-1] if message["type"] != "presence"]


class TestTheEndOfADeal:
    """
    The end of a deal pauses the table, every hand shown, until each person presses Next deal (or the
    pause's time runs out): the bots do not deal or move before.
    """

    def test_the_bots_wait_for_next_deal(self) -> None:
        limits = Limits(rate=1_000, burst=1_000, deal_pause=3_600)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, token = _seated(client)
            hub = client.app.state.hub  # type: ignore[attr-defined]
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                pause = _until_paused(socket, _hello(socket, token, since=0))
                seq = hub.tables[table_id].table.seq
                assert (pause["deal"], pause["ready"], pause["waiting"]) == (1, [], [0])
                assert 3_599_000 <= pause["deadline"] - pause["now"] <= 3_600_000  # by the server's clock
                assert _pinged(socket) == []  # nothing is dealt or played meanwhile
                assert (hub.tables[table_id].table.seq, hub.tables[table_id].table.state.phase) == (seq, "deal_over")
                with client.websocket_connect(f"/ws/tables/{table_id}") as late:  # a page that joins now
                    assert _hello(late, None)["view"]["phase"] == "deal_over"
                    again = late.receive_json()
                    assert {**again, "now": pause["now"]} == pause  # the same pause, told at its own time
                    assert pause["now"] <= again["now"] <= pause["deadline"]
                socket.send_text(json.dumps({"type": "next-deal"}))
                dealt = _until(socket, "event")[-1]
                played = _until(socket, "event")[-1]
        assert (dealt["seq"], dealt["by"], dealt["view"]["deal"]) == (seq + 1, "dealer", 2)
        assert (played["seq"], played["view"]["deal"]) == (seq + 2, 2)

    def test_two_people_both_press(self) -> None:
        limits = Limits(rate=1_000, burst=1_000, deal_pause=3_600)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, invitations = _table(client, seats=["person", "bot:greedy", "person", "bot:greedy"])
            tokens = {each["seat"]: _claim(client, table_id, each["invite"]) for each in invitations}
            hub = client.app.state.hub  # type: ignore[attr-defined]
            with (
                client.websocket_connect(f"/ws/tables/{table_id}") as north,
                client.websocket_connect(f"/ws/tables/{table_id}") as south,
            ):
                sockets = {0: north, 2: south}
                for seat, socket in sockets.items():
                    assert _hello(socket, tokens[seat], since=0)["view"] is None
                seq = _both_until_the_deal_ends(sockets)
                first = {seat: _until(socket, "pause")[-1] for seat, socket in sockets.items()}
                _act_raw(north, {"type": "next-deal"})
                second = {seat: _until(socket, "pause")[-1] for seat, socket in sockets.items()}
                _act_raw(north, {"type": "next-deal"})  # again: nothing more
                assert _pinged(north) == []
                assert hub.tables[table_id].table.seq == seq
                _act_raw(south, {"type": "next-deal"})
                dealt = _until(north, "event")[-1]
        assert [(pause["ready"], pause["waiting"]) for pause in first.values()] == [([], [0, 2])] * 2
        assert [(pause["ready"], pause["waiting"]) for pause in second.values()] == [([0], [2])] * 2
        assert (dealt["seq"], dealt["by"]) == (seq + 1, "dealer")

    def test_the_pause_runs_out(self) -> None:
        limits = Limits(rate=1_000, burst=1_000, deal_pause=0.2)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, token = _seated(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                pause = _until_paused(socket, _hello(socket, token, since=0))
                dealt = _until(socket, "event")[-1]
        assert (dealt["by"], dealt["view"]["deal"], pause["waiting"]) == ("dealer", 2, [0])

    def test_no_pause_when_it_is_off(self) -> None:
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=Limits(deal_pause=0))) as client:
            table_id, token = _seated(client, seats=["person", "bot:greedy", "bot:greedy", "bot:greedy"])
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                seen = _play(socket, _hello(socket, token, since=0))
        assert "pause" not in {message["type"] for message in seen}

    def test_next_deal_out_of_place(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _my_turn(socket, _hello(socket, token))
            socket.send_text(json.dumps({"type": "next-deal", "id": 1}))
            refused = _until(socket, "error")[-1]
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            _hello(watcher, None)
            watcher.send_text(json.dumps({"type": "next-deal", "id": 2}))
            spectator = _until(watcher, "error")[-1]
        assert (refused["code"], refused["id"]) == ("not-paused", 1)
        assert (spectator["code"], spectator["id"]) == ("spectator", 2)

    def test_a_flood_of_next_deal_is_limited(self) -> None:
        limits = Limits(rate=1, burst=3, strikes=5)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, token = _seated(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _hello(socket, token)
                for number in range(8):
                    socket.send_text(json.dumps({"type": "next-deal", "id": number}))
                codes: list[str] = []
                dropped: list[object] = []
                with pytest.raises(WebSocketDisconnect) as closed:
                    _record_codes(socket, codes, dropped)
        assert closed.value.code == 1008
        assert dropped == [3, 4, 5, 6, 7]


ONE_DEAL = "num_deals=1"


class TestRematch:
    """A rematch: a new table with the same seats, names, bots and rules, new deals; each person keeps their token."""

    def test_a_rematch_after_the_game(self, client: TestClient) -> None:
        table_id, token = _seated(client, rules=ONE_DEAL, name="Friday")
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _play(socket, _hello(socket, token, since=0))
            socket.send_text(json.dumps({"type": "rematch", "id": 5}))
            told = _until(socket, "rematch-made")[-1]
            socket.send_text(json.dumps({"type": "rematch", "id": 6}))
            again = _until(socket, "rematch-made")[-1]
        new_id = told["table"]
        assert told == again == {"type": "rematch-made", "table": new_id, "url": f"/tables/{new_id}"}
        old, new = client.get(f"/api/tables/{table_id}").json(), client.get(f"/api/tables/{new_id}").json()
        assert new_id != table_id
        assert (new["name"], new["status"], new["rules"], new["seeded"]) == ("Friday", "playing", old["rules"], False)
        assert [(seat["kind"], seat["bot"], seat["name"]) for seat in new["seats"]] == [
            (seat["kind"], seat["bot"], seat["name"]) for seat in old["seats"]
        ]
        with client.websocket_connect(f"/ws/tables/{new_id}") as socket:
            welcome = _hello(socket, token)
            seen = _play(socket, welcome)
        assert (welcome["seat"], seen[-1]["type"]) == (0, "game-over")
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:  # a page that comes back is told
            _hello(socket, None)
            assert [message["type"] for message in (socket.receive_json(), socket.receive_json())] == [
                "game-over",
                "rematch-made",
            ]

    def test_no_rematch_before_the_end(self, client: TestClient) -> None:
        table_id, token = _seated(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _my_turn(socket, _hello(socket, token))
            socket.send_text(json.dumps({"type": "rematch", "id": 1}))
            refused = _until(socket, "error")[-1]
        assert (refused["code"], refused["id"]) == ("not-over", 1)

    def test_a_spectator_asks_for_no_rematch(self, client: TestClient) -> None:
        table_id, token = _seated(client, rules=ONE_DEAL)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _play(socket, _hello(socket, token, since=0))
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            _hello(watcher, None)
            watcher.send_text(json.dumps({"type": "rematch", "id": 1}))
            refused = _until(watcher, "error")[-1]
        assert refused["code"] == "spectator"

    def test_a_rematch_counts_as_a_table_made(self) -> None:
        limits = Limits(rate=1_000, burst=1_000, max_tables=1)
        with TestClient(create_app(":memory:", bot_delay=0, allow_seed=True, limits=limits)) as client:
            table_id, token = _seated(client, rules=ONE_DEAL)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _play(socket, _hello(socket, token, since=0))
                socket.send_text(json.dumps({"type": "rematch", "id": 1}))
                refused = _until(socket, "error")[-1]
            assert len(client.app.state.hub.tables) == 1  # type: ignore[attr-defined]
        assert refused["code"] == "full"
