"""
The table server against requests an attacker would send, in process (Starlette's test client).

Each class answers a finding of the server's audit: no code from a request, the browser not turned
against its user, bounded bots, tables with a lifecycle, bounded catching up, fair deals, the end of
a game in one transaction, and the protocol's edges.  What needs a real socket, a real process or a
clock of seconds is in ``tests/e2e/test_hardening.py`` (``nox -s server``).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import random
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from persian_rummy import Deal, GameState, View, apply, new_game, random_deal
from persian_rummy.bots import GreedyPlayer
from persian_rummy.records import GameRecord, replay
from persian_rummy.serialize import from_json, to_data
from persian_rummy.server import Limits, SqliteStorage, StoredAction, StoredTable, create_app
from persian_rummy.server._spec import SeatSpec, TableSpec
from persian_rummy.server._table import draw_seed
from persian_rummy.views import observe
from tests.test_server import BOTS, UNLIMITED, _claim, _hello, _my_turn, _play, _until

#: The bots the server offers: the learned bot only where numpy is installed.
OFFERED = ", ".join(["greedy", "ismcts", *(["learned"] if importlib.util.find_spec("numpy") else []), "pimc", "random"])

#: A JSON body's content type.
JSON = {"content-type": "application/json"}


def _limits(**fields: Any) -> Limits:
    """Limits with the rate lifted, as in :data:`UNLIMITED`, and *fields* set."""
    return attrs.evolve(UNLIMITED, **fields)


def _app(**options: Any) -> TestClient:
    """A server in memory; a scripted person answers faster than the rate limit allows, so unless a
    test sets its own limits, the rate is lifted."""
    options.setdefault("limits", UNLIMITED)
    return TestClient(create_app(":memory:", bot_delay=0, **options))


@pytest.fixture
def client() -> Iterator[TestClient]:
    with _app() as test_client:
        yield test_client


def _make(client: TestClient, **fields: Any) -> dict[str, Any]:
    made = client.post("/api/tables", json={"seats": BOTS, **fields})
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def _seat(client: TestClient, **fields: Any) -> tuple[str, str, str]:
    """A table with a person at N and three bots, N claimed: its id, N's token and the admin token."""
    made = _make(client, **fields)
    table_id = made["table"]["id"]
    return table_id, _claim(client, table_id, made["invitations"][0]["invite"]), made["admin"]


def _whole_game(client: TestClient, table_id: str, token: str) -> list[dict[str, Any]]:
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        return _play(socket, _hello(socket, token, since=0))


class TestNoCodeFromRequests:
    """Finding 1: a seat names a bot of the server's registry; nothing a request names is imported."""

    @pytest.mark.parametrize("seat", ["bot:subprocess:getoutput:id", "bot:os:system:touch x"])
    def test_a_module_named_by_a_request_is_not_imported(self, client: TestClient, tmp_path: Path, seat: str) -> None:
        planted = tmp_path / "planted_module_of_the_test.py"
        made = tmp_path / "made-by-import"
        planted.write_text(f"open({str(made)!r}, 'w').close()\ndef id(): return 'uid=0'\n")
        sys.path.insert(0, str(tmp_path))
        try:
            answers = [
                client.post("/api/tables", json={"seats": ["person", seat, "bot:greedy", "bot:greedy"]}),
                client.post(
                    "/api/tables",
                    json={"seats": ["person", "bot:planted_module_of_the_test:id", "bot:greedy", "bot:greedy"]},
                ),
            ]
        finally:
            sys.path.remove(str(tmp_path))
        for answer in answers:
            assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad-table")
            message = answer.json()["error"]["message"]
            assert message == f"seats[1]: no bot is called that here; the bots are {OFFERED}"
        assert "planted_module_of_the_test" not in sys.modules
        assert not made.exists()
        assert not (Path.cwd() / "x").exists()

    def test_the_operator_adds_bots_by_name(self) -> None:
        with _app(bots={"careful": "persian_rummy.bots.players:PIMCPlayer:rollouts=4"}) as client:
            table = _make(client, seats=["person", "bot:careful", "bot:greedy", "bot:greedy"])["table"]
            assert table["seats"][1]["bot"] == "careful"
            refused = client.post(
                "/api/tables", json={"seats": ["person", "bot:careful:9", "bot:greedy", "bot:greedy"]}
            )
        assert refused.json()["error"]["message"] == "seats[1]: careful takes no budget"

    def test_an_added_bot_cannot_take_a_shipped_name(self) -> None:
        with pytest.raises(ValueError, match="'pimc' cannot name an added bot"):
            create_app(bots={"pimc": "persian_rummy.bots.players:GreedyPlayer"})


class TestTheBrowserIsNotTurnedAgainstItsUser:
    """Finding 1, by a web page: JSON only, from the server's own origin, to a host it answers to."""

    def test_a_body_that_is_not_json_by_its_type_is_refused(self, client: TestClient) -> None:
        body = json.dumps({"seats": BOTS})
        answer = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (415, "bad-content-type")
        assert client.get("/api/tables").json()["total"] == 0

    def test_a_page_of_another_site_is_refused(self, client: TestClient) -> None:
        evil = {**JSON, "origin": "http://evil.example"}
        answer = client.post("/api/tables", content=json.dumps({"seats": BOTS}), headers=evil)
        assert (answer.status_code, answer.json()["error"]["code"]) == (403, "bad-origin")
        own = {**JSON, "origin": "http://testserver"}
        assert client.post("/api/tables", content=json.dumps({"seats": BOTS}), headers=own).status_code == 201
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws/tables/x", headers={"origin": "http://evil.example"}),
        ):
            pass
        assert refused.value.code == 4403

    def test_an_allowed_origin_and_hosts(self) -> None:
        with _app(allow_origins=["https://cards.example"], allowed_hosts=["testserver"]) as client:
            allowed = {**JSON, "origin": "https://cards.example"}
            assert client.post("/api/tables", content=json.dumps({"seats": BOTS}), headers=allowed).status_code == 201
            rebound = client.get("/api/tables", headers={"host": "evil.example:8000"})
        assert (rebound.status_code, rebound.json()["error"]["code"]) == (400, "bad-host")


class TestBoundedBots:
    """Finding 2: budgets within the server's caps; searches never hold up the quick bots' tables."""

    @pytest.mark.parametrize(
        ("bot", "message"),
        [
            ("pimc:1000000000", "pimc takes at most 400 rollouts a decision here, not 1000000000"),
            ("ismcts:1e9s", "no bot is called that here"),
            ("ismcts:100000", "ismcts takes at most 2000 iterations a decision here, not 100000"),
            ("pimc:600s", "pimc takes from 0 to 5 seconds a decision here, not 600"),
            ("greedy:5", "greedy takes no budget"),
        ],
    )
    def test_a_budget_beyond_the_caps_is_refused(self, client: TestClient, bot: str, message: str) -> None:
        answer = client.post("/api/tables", json={"seats": ["person", f"bot:{bot}", "bot:greedy", "bot:greedy"]})
        assert answer.status_code == 400
        assert answer.json()["error"]["message"].startswith(f"seats[1]: {message}")

    def test_the_caps_are_the_operators(self) -> None:
        with _app(limits=_limits(max_rollouts=2_000)) as client:
            assert (
                _make(client, seats=["person", "bot:pimc:2000", "bot:greedy", "bot:greedy"])["table"]["seats"][1]["bot"]
                == "pimc:2000"
            )

    def test_searches_that_never_end_do_not_stop_the_greedy_tables(self) -> None:
        """Six tables whose bot thinks until the test lets it: a greedy table still plays its game."""
        release = threading.Event()

        class Stuck:
            def choose(self, view: View, rng: random.Random) -> Any:
                release.wait(60)
                return GreedyPlayer().choose(view, rng)

        try:
            with _app(bots={"stuck": Stuck}, limits=_limits(bot_workers=2)) as client:
                for _ in range(6):
                    _seat(client, seats=["person", "bot:stuck", "bot:stuck", "bot:stuck"])
                table_id, token, _ = _seat(client)
                seen = _whole_game(client, table_id, token)
                assert seen[-1]["type"] == "game-over"
        finally:
            release.set()


class TestLifecycle:
    """Finding 3 and 9: tables expire, can be aborted and deleted, leave memory; the lobby is paged."""

    def test_creations_from_one_address_are_rate_limited(self, client: TestClient) -> None:
        codes = [client.post("/api/tables", json={"seats": BOTS}).status_code for _ in range(30)]
        assert codes == [201] * 10 + [429] * 20
        assert client.post("/api/tables", json={"seats": BOTS}).json()["error"]["code"] == "rate-limit"

    def test_the_lobby_is_paged_and_small(self) -> None:
        limits = _limits(tables_per_minute=0, max_tables=2_000)
        with _app(limits=limits) as client:
            ids = [_make(client, name=f"Table {number}")["table"]["id"] for number in range(1_000)]
            hidden = _make(client, private=True)["table"]["id"]
            first = client.get("/api/tables")
            last = client.get("/api/tables?page=20").json()
            full = client.post("/api/tables", json={"seats": BOTS})
            assert client.get(f"/api/tables/{hidden}").json()["private"] is True
        assert len(first.content) < 100_000
        listed = first.json()
        assert (listed["page"], listed["pages"], listed["total"], len(listed["tables"])) == (1, 20, 1_000, 50)
        assert [table["id"] for table in listed["tables"]] == ids[::-1][:50]
        assert [table["id"] for table in last["tables"]] == ids[:50][::-1]
        assert hidden not in {table["id"] for table in listed["tables"]}
        assert len(hidden) == 32
        assert full.status_code == 201  # 1,001 tables of 2,000

    def test_the_cap_answers_full(self) -> None:
        with _app(limits=_limits(tables_per_minute=0, max_tables=3)) as client:
            codes = [client.post("/api/tables", json={"seats": BOTS}).status_code for _ in range(4)]
            answer = client.post("/api/tables", json={"seats": BOTS}).json()
        assert (codes, answer["error"]["code"]) == ([201, 201, 201, 503], "full")

    def test_tables_expire_and_the_cap_frees(self) -> None:
        limits = _limits(max_tables=2, waiting_ttl=0.2, finished_ttl=0.2, tables_per_minute=0)
        with _app(limits=limits) as client:
            hub = client.app.state.hub  # type: ignore[attr-defined]
            hub.now = clock = _Clock(hub.now())  # the tables cannot expire before the cap is tried
            made = [_make(client)["table"]["id"] for _ in range(2)]
            assert client.post("/api/tables", json={"seats": BOTS}).status_code == 503
            clock.time += 1  # past the time a table waits for its people
            _wait(lambda: [live.table.status for live in hub.tables.values()] == ["expired", "expired"])
            clock.time += 1  # past the time an ended table stays on the server
            _wait(lambda: not hub.tables)
            assert client.post("/api/tables", json={"seats": BOTS}).status_code == 201
            records = [client.get(f"/api/tables/{table_id}/record") for table_id in made]
            gone = client.get(f"/api/tables/{made[0]}")
        assert [from_json(record.content, GameRecord).actions for record in records] == [(), ()]
        assert (gone.status_code, gone.json()["error"]["code"]) == (410, "gone")

    def test_an_abandoned_table_expires(self) -> None:
        with _app(limits=_limits(abandoned_ttl=0.3, finished_ttl=60)) as client:
            table_id, token, _ = _seat(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _my_turn(socket, _hello(socket, token))
            hub = client.app.state.hub  # type: ignore[attr-defined]
            _wait(lambda: hub.tables[table_id].table.status == "expired")
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                _hello(socket, token)
                over = _until(socket, "game-over")[-1]
        assert (over["ended"], over["key"] is not None) == ("expired", True)

    def test_a_finished_game_leaves_memory_and_its_record_stays(self, tmp_path: Path) -> None:
        path = str(tmp_path / "tables.sqlite3")
        with TestClient(create_app(path, bot_delay=0, limits=_limits(finished_ttl=0.2))) as client:
            table_id, token, _ = _seat(client)
            _whole_game(client, table_id, token)
            hub = client.app.state.hub  # type: ignore[attr-defined]
            _wait(lambda: table_id not in hub.tables)
            record = client.get(f"/api/tables/{table_id}/record")
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                socket.send_text(json.dumps({"type": "hello", "token": token}))
                gone = socket.receive_json()
                with pytest.raises(WebSocketDisconnect) as closed:
                    socket.receive_json()
        assert record.status_code == 200
        assert (gone["code"], closed.value.code) == ("gone", 4410)
        assert asyncio.run(SqliteStorage(path).load()) == []  # a restart reads no ended table

    def test_the_creator_aborts_and_deletes(self, client: TestClient) -> None:
        table_id, token, admin = _seat(client)
        wrong = client.post(f"/api/tables/{table_id}/abort", headers={"authorization": f"Bearer {token}"})
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _my_turn(socket, _hello(socket, token))
            aborted = client.post(f"/api/tables/{table_id}/abort", headers={"authorization": f"Bearer {admin}"})
            over = _until(socket, "game-over")[-1]
        record = from_json(client.get(f"/api/tables/{table_id}/record").content, GameRecord)
        deleted = client.delete(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {admin}"})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "unauthorized")
        assert (aborted.status_code, aborted.json()["status"], over["ended"]) == (200, "aborted", "aborted")
        assert (len(record.actions), isinstance(record.actions[0], Deal)) == (aborted.json()["seq"], True)
        assert deleted.status_code == 204
        assert [
            client.get(path).status_code for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record")
        ] == [404, 404]


class _Clock:
    """The server's clock (`Hub.now`) standing still at *time* until a test moves it on."""

    def __init__(self, time: float) -> None:
        self.time = time

    def __call__(self) -> float:
        return self.time


def _wait(condition: Any, seconds: float = 20.0) -> None:
    """Wait until *condition()* holds (the lifecycle runs on the server's own clock)."""
    deadline = threading.Event()
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        deadline.wait(0.02)
    pytest.fail("the condition never held")


class TestBoundedCatchUp:
    """Finding 5: a client far behind starts afresh from the view now; a near one is told what it missed."""

    def test_far_behind_starts_afresh(self) -> None:
        with _app(limits=_limits(catch_up=16, finished_ttl=60)) as client:
            table_id, token, _ = _seat(client)
            seen = _whole_game(client, table_id, token)
            last = seen[-2]["seq"]
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                welcome = _hello(socket, None, since=0)
                after_far = [socket.receive_json()]
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                near = _hello(socket, None, since=last - 3)
                after_near = [socket.receive_json() for _ in range(4)]
        assert (welcome["seq"], welcome["view"] is not None) == (last, True)
        assert [message["type"] for message in after_far] == ["game-over"]  # and no event
        assert near["view"] is None
        assert [message.get("seq", message["type"]) for message in after_near] == [
            last - 2,
            last - 1,
            last,
            "game-over",
        ]


class TestFairDeals:
    """Finding 8: no client foretells a deal; a seed only where the operator allows it, shown to all."""

    def test_a_seed_is_refused_unless_allowed(self, client: TestClient) -> None:
        answer = client.post("/api/tables", json={"seats": BOTS, "seed": 7})
        assert (answer.status_code, answer.json()["error"]["message"]) == (
            400,
            "seed: this server draws every deal from a secret of its own and takes no seed",
        )

    def test_a_seeded_table_says_so_to_every_seat(self) -> None:
        with _app(allow_seed=True) as client:
            table_id, token, _ = _seat(client, seed=7)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                welcome = _hello(socket, token)
        assert (welcome["table"]["seeded"], welcome["table"]["commitment"]) == (True, None)

    def test_the_deals_come_from_the_key_revealed_at_the_end(self, client: TestClient) -> None:
        made = _make(client)
        creator_knows = json.dumps(made)
        table_id = made["table"]["id"]
        token = _claim(client, table_id, made["invitations"][0]["invite"])
        commitment = made["table"]["commitment"]
        seen = _whole_game(client, table_id, token)
        key = bytes.fromhex(seen[-1]["key"])
        assert hashlib.sha256(key).hexdigest() == commitment
        assert key.hex() not in creator_knows
        assert client.get(f"/api/tables/{table_id}").json()["key"] == key.hex()
        record = from_json(client.get(f"/api/tables/{table_id}/record").content, GameRecord)
        states = list(replay(record))
        deals = [(seq, action) for seq, action in enumerate(record.actions, 1) if isinstance(action, Deal)]
        assert len(deals) == 2
        for seq, deal in deals:
            assert deal == random_deal(states[seq - 1], random.Random(draw_seed(key, "deal", seq)))  # noqa: S311

    def test_two_tables_deal_differently(self, client: TestClient) -> None:
        firsts = []
        for _ in range(2):
            table_id, token, _ = _seat(client)
            with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                firsts.append(_my_turn(socket, _hello(socket, token))["view"]["hand"])
        assert firsts[0] != firsts[1]


class TestTheEndInOneTransaction:
    """Finding 10: the last action and the record are stored together; a missing record is repaired."""

    def test_a_table_whose_record_is_missing_is_repaired_at_start(self, tmp_path: Path) -> None:
        path = str(tmp_path / "tables.sqlite3")
        record = _greedy_record()
        seats = (SeatSpec("person"), SeatSpec("bot", "greedy"), SeatSpec("bot", "greedy"), SeatSpec("bot", "greedy"))
        spec = TableSpec("Old", record.rules, seats, None, 0.0, 7, 0)
        actions = tuple(
            StoredAction(seq, json.dumps(to_data(action)), "dealer" if isinstance(action, Deal) else "bot")
            for seq, action in enumerate(record.actions, 1)
        )
        stored = StoredTable("0123456789", json.dumps(spec.to_json()), "2026-12-01T10:00:00+00:00", (), actions)
        asyncio.run(SqliteStorage(path).create(stored))
        with TestClient(create_app(path, bot_delay=0)) as client:
            answer = client.get("/api/tables/0123456789/record")
        assert answer.status_code == 200
        assert from_json(answer.content, GameRecord).actions == record.actions

    def test_a_resume_after_the_end_is_told_the_game_is_over(self, client: TestClient) -> None:
        table_id, token, _ = _seat(client)
        seen = _whole_game(client, table_id, token)
        last = seen[-2]["seq"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            welcome = _hello(socket, token, since=last)
            over = socket.receive_json()
        assert (welcome["seq"], over) == (last, seen[-1])


def _greedy_record() -> GameRecord:
    state: GameState = new_game()
    rng = random.Random(3)  # noqa: S311 (the game's own seed)
    actions = []
    while state.phase != "game_over":
        action = (
            random_deal(state, rng)
            if state.to_act is None
            else GreedyPlayer().choose(observe(state, state.to_act), rng)
        )
        actions.append(action)
        state = apply(state, action)
    return GameRecord(actions=actions, players=("Ann", "greedy", "greedy", "greedy"))


class TestTheProtocolsEdges:
    """Findings 11 to 13: lone surrogates, binary frames, and presence told once for many reconnections."""

    def test_a_lone_surrogate_is_refused_and_the_connection_goes_on(self, client: TestClient) -> None:
        table_id, token, _ = _seat(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            _hello(socket, token)
            socket.send_text('{"type":"ping","id":"\\ud800"}')
            socket.send_text('{"type":"ping","id":"after"}')
            answers = [_until(socket, kind)[-1] for kind in ("error", "pong")]
        assert answers[0]["code"] == "bad-json"
        assert answers[1] == {"type": "pong", "id": "after"}

    def test_a_binary_first_frame_is_a_bad_message(self, client: TestClient) -> None:
        table_id, _, _ = _seat(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            socket.send_bytes(b'{"type":"hello","token":null}')
            error = socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
        assert (error["code"], closed.value.code) == ("bad-message", 4400)

    def test_reconnections_are_told_once(self, client: TestClient) -> None:
        table_id, token, _ = _seat(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            _hello(watcher, None)
            for _ in range(400):
                with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
                    _hello(socket, token)
            watcher.send_text(json.dumps({"type": "ping", "id": "end"}))
            seen = _until(watcher, "pong")
        presence = [message for message in seen if message["type"] == "presence"]
        assert 1 <= len(presence) <= 12
        assert [seat["connected"] for seat in presence[0]["seats"]] in ([True] * 4, [False, True, True, True])


class TestTheStorage:
    """The writes that wait are committed together, each failing alone; reads see what was written before them."""

    def test_writes_committed_together_fail_alone(self, tmp_path: Path) -> None:
        storage = SqliteStorage(str(tmp_path / "tables.sqlite3"))
        tables = [StoredTable(f"t{number}", "{}", "2026-12-05T00:00:00+00:00", (), ()) for number in range(20)]

        async def write() -> list[object]:
            await asyncio.gather(*(storage.create(table) for table in tables))
            appends = [storage.append(table.id, StoredAction(1, "{}", "dealer")) for table in tables]
            appends.insert(7, storage.append("t3", StoredAction(1, "{}", "dealer")))  # the same key twice
            answers = await asyncio.gather(*appends, return_exceptions=True)
            stored = await storage.load()
            await storage.close()
            return [*answers, sum(len(table.actions) for table in stored)]

        *answers, stored = asyncio.run(write())
        failed = [index for index, answer in enumerate(answers) if answer is not None]
        assert failed == [7]  # the second of the two, in the order they were given
        assert isinstance(answers[failed[0]], sqlite3.IntegrityError)
        assert stored == 20
