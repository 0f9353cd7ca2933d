"""
The JSON form: round trips, the JSON Schema, the exact text of a few documents, and what loading refuses.
"""

from __future__ import annotations

import builtins
import copy
import inspect
import json
import random
import subprocess
import sys
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from persian_rummy import (
    FULL_DECK,
    Action,
    Deal,
    DealScore,
    Discard,
    DrawStock,
    GameRecord,
    GameState,
    InvalidDataError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    PersianRummyError,
    Phase,
    Rules,
    TakeDiscard,
    View,
    apply,
    from_data,
    from_json,
    json_schema,
    legal_actions,
    new_game,
    observe,
    random_deal,
    to_data,
    to_json,
)
from persian_rummy import serialize as serialize_module
from persian_rummy.limits import MAX_JSON
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.serialize import FORMAT, VERSION, Document
from persian_rummy.state import next_dealer
from tests import switches
from tests.positions import forged
from tests.strategies import Playout, decks, playouts, rules_variants

Data = dict[str, Any]

# -- fixtures and helpers --------------------------------------------------------------------------------------


def play(stop: Callable[[GameState], bool], *, seed: int = 1) -> GameState:
    """
    The first state of a game between random players (``random.Random(seed)``) for which *stop* holds.
    """
    rng = random.Random(seed)  # noqa: S311
    state = new_game()
    while not stop(state):
        state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
    return state


def game(seed: int = 1) -> tuple[GameState, tuple[Action, ...]]:
    """
    A whole game between random players: its final state and every action.
    """
    rng = random.Random(seed)  # noqa: S311
    state = new_game()
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)
    return state, tuple(actions)


#: In deal 2, seat 1 to play, with two melds on the table, a card taken and a finished deal.
MID_GAME = play(lambda s: s.deal == 2 and len(s.melds) >= 2 and s.phase is Phase.PLAY and any(s.known))
#: Between the two deals.
DEAL_OVER = play(lambda s: s.phase is Phase.DEAL_OVER)
FINAL, ACTIONS = game()
RECORD = GameRecord(actions=ACTIONS, players=("Ann", "Ben", "Cy", "Di"), date="2026-01-31", event="Club night")
#: The same record cut after a few actions: validating a long record under the schema takes a while.
SHORT = GameRecord(actions=ACTIONS[:12], players=("Ann", "Ben", "Cy", "Di"), date="2026-01-31", event="Club night")
SCORE = DealScore(1, (TeamScore(30, 0, 25, 22), TeamScore(50, 40, 0, 20)), 0, DealEnd.WENT_OUT)
ONE_OF_EACH: tuple[Action, ...] = (
    Deal(0, FULL_DECK),
    DrawStock(1),
    TakeDiscard(1, "9s"),
    LayDown(2, "9d 9h 9s"),
    LayOff(3, 0, "5c 6c"),
    Discard(0, "Qh"),
    Pass(2),
)

VALIDATOR = Draft202012Validator(json_schema())


def doc(value: Document) -> Data:
    """
    A fresh, editable copy of *value*'s document.
    """
    return copy.deepcopy(to_data(value))


def schema_errors(data: object) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(data)]


def refusal(data: object) -> str:
    """
    The message of the `InvalidDataError` that loading *data* raises.
    """
    with pytest.raises(InvalidDataError) as info:
        from_data(data)
    return str(info.value)


def text_refusal(text: str | bytes) -> str:
    with pytest.raises(InvalidDataError) as info:
        from_json(text)
    return str(info.value)


def envelope(kind: str, **fields: object) -> Data:
    return {"format": FORMAT, "version": VERSION, "kind": kind, **fields}


def check_round_trip(value: Document) -> None:
    assert value == from_json(to_json(value))
    assert value == from_json(to_json(value, pretty=True))
    assert value == from_data(to_data(value))
    assert value == from_json(to_json(value).encode())
    assert type(value) is type(from_json(to_json(value), type(value)))
    # The document is plain JSON data: writing it again gives the same text.
    assert to_json(value) == json.dumps(json.loads(to_json(value)), ensure_ascii=False)


team_scores = st.builds(
    TeamScore,
    melded=st.integers(-1_000_000, 1_000_000),
    doubling=st.integers(-1_000_000, 1_000_000),
    bonus=st.integers(-1_000_000, 1_000_000),
    in_hand=st.integers(-1_000_000, 1_000_000),
)


@st.composite
def deal_scores(draw: st.DrawFn) -> DealScore:
    went_out = draw(st.none() | st.integers(0, 3))
    end = DealEnd.WENT_OUT if went_out is not None else draw(st.sampled_from((DealEnd.PASSES, DealEnd.STOCK_EMPTY)))
    return DealScore(draw(st.integers(1, 1000)), (draw(team_scores), draw(team_scores)), went_out, end)


names = st.text(max_size=100)
metadata = st.none() | st.text(max_size=200)


class TestRoundTrips:
    """
    Reading what was written always gives back an equal value, and writing is deterministic (docs/json.md):
    every state, action, deal score and game record, from `to_json` (one line or pretty, `str` or UTF-8
    `bytes`) and from `to_data`.
    """

    @given(playouts(rules=rules_variants()))
    def test_every_state_reached_by_play_round_trips(self, playout: Playout) -> None:
        for state in (playout.states[0], playout.states[len(playout.states) // 2], playout.final):
            check_round_trip(state)
            assert to_json(state) == to_json(from_json(to_json(state)))

    @given(playouts(rules=rules_variants(), max_actions=150), st.data())
    def test_every_legal_action_round_trips(self, playout: Playout, data: st.DataObject) -> None:
        state = playout.final
        if state.is_chance_node:
            actions: tuple[Action, ...] = (Deal(next_dealer(state), data.draw(decks())),)
        else:
            actions = tuple(legal_actions(state))
        for action in actions:
            check_round_trip(action)
        for action in playout.actions[-5:]:
            check_round_trip(action)

    @given(deal_scores())
    def test_deal_scores_round_trip(self, score: DealScore) -> None:
        check_round_trip(score)

    @given(playouts(rules=rules_variants(), max_actions=400))
    def test_deal_scores_of_play_round_trip(self, playout: Playout) -> None:
        for score in playout.final.results:
            check_round_trip(score)

    @given(
        playouts(rules=rules_variants()),
        st.none() | st.tuples(names, names, names, names),
        metadata,
        metadata,
    )
    def test_game_records_round_trip(
        self, playout: Playout, players: tuple[str, str, str, str] | None, date: str | None, event: str | None
    ) -> None:
        start = playout.states[0]
        bare = GameRecord(rules=start.rules, first_dealer=start.dealer, actions=playout.actions)
        check_round_trip(bare)
        full = GameRecord(
            rules=start.rules,
            first_dealer=start.dealer,
            actions=playout.actions,
            players=players,
            date=date,
            event=event,
        )
        check_round_trip(full)
        loaded = from_json(to_json(full, pretty=True), GameRecord)
        assert (players, date, event) == (loaded.players, loaded.date, loaded.event)
        assert playout.actions == loaded.actions

    def test_a_whole_game_record_round_trips_and_keeps_its_metadata(self) -> None:
        loaded = from_json(to_json(RECORD, pretty=True), GameRecord)
        assert RECORD == loaded
        assert ("Ann", "Ben", "Cy", "Di") == loaded.players
        assert "2026-01-31" == loaded.date
        assert "Club night" == loaded.event
        assert len(ACTIONS) == len(loaded.actions)

    def test_fixed_states_round_trip(self) -> None:
        for state in (new_game(), MID_GAME, DEAL_OVER, FINAL, new_game(Rules(hand_size=13, num_deals=100), dealer=3)):
            check_round_trip(state)

    def test_text_with_any_characters_round_trips(self) -> None:
        record = GameRecord(players=("Ärzte", "日本", 'quote " and \\', "tab\tnew\nline"), event="🂡 night", date="")
        text = to_json(record)
        assert record == from_json(text)
        assert record == from_json(text.encode("utf-8"))
        assert '"players": ["Ärzte", "日本", "quote \\" and \\\\", "tab\\tnew\\nline"]' in text


class TestKinds:
    """
    `from_json` also takes the type the document must hold, and refuses any other (docs/json.md).
    """

    @pytest.mark.parametrize(
        ("value", "kind"),
        [
            (new_game(), GameState),
            (SCORE, DealScore),
            (RECORD, GameRecord),
            (Discard(0, "Qh"), Discard),
            (Deal(0, FULL_DECK), Deal),
            (Pass(3), Pass),
        ],
    )
    def test_from_json_returns_the_kind_asked_for(self, value: object, kind: type[object]) -> None:
        loaded = from_json(to_json(value), kind)  # type: ignore[arg-type]
        assert value == loaded
        assert kind is type(loaded)

    @pytest.mark.parametrize(
        ("value", "kind", "message"),
        [
            (new_game(), DealScore, "$: expected a DealScore document, got GameState"),
            (SCORE, GameState, "$: expected a GameState document, got DealScore"),
            (RECORD, GameState, "$: expected a GameState document, got GameRecord"),
            (Pass(3), Discard, "$: expected a Discard document, got Pass"),
            (Discard(0, "Qh"), GameRecord, "$: expected a GameRecord document, got Discard"),
        ],
    )
    def test_from_json_refuses_another_kind(self, value: object, kind: type[object], message: str) -> None:
        with pytest.raises(InvalidDataError) as info:
            from_json(to_json(value), kind)  # type: ignore[arg-type]
        assert message == str(info.value)

    def test_from_json_accepts_a_union_of_kinds(self) -> None:
        assert Pass(3) == from_json(to_json(Pass(3)), Discard | Pass)  # type: ignore[arg-type]

    def test_from_json_names_the_members_of_a_union_it_refuses(self) -> None:
        with pytest.raises(InvalidDataError) as info:
            from_json(to_json(new_game()), Discard | Pass | Deal)  # type: ignore[arg-type]
        assert "$: expected a Discard, Pass or Deal document, got GameState" == str(info.value)

    def test_a_view_read_back_has_its_phase_and_writes_the_same_text(self) -> None:
        view = observe(play(lambda state: state.phase is Phase.PLAY), 1)
        loaded = from_json(to_json(view), View)
        assert Phase.PLAY is loaded.phase
        assert to_json(view) == to_json(loaded)
        check_round_trip(loaded)


class TestWriting:
    """
    `to_data` gives plain Python data, as `json.loads` returns it, for the values that have a JSON form;
    nothing is written that could not be read back (docs/json.md).
    """

    def test_to_data_refuses_what_has_no_json_form(self) -> None:
        with pytest.raises(InvalidTypeError) as info:
            to_data(Rules())  # type: ignore[arg-type]
        assert str(info.value).startswith(f"no JSON form for {Rules()!r}"[:60])
        with pytest.raises(InvalidTypeError, match="no JSON form for None"):
            to_json(None)  # type: ignore[arg-type]

    def test_to_data_gives_plain_python_data(self) -> None:
        data = to_data(MID_GAME)

        def plain(value: object) -> bool:
            if isinstance(value, dict):
                return all(type(key) is str and plain(item) for key, item in value.items())
            if isinstance(value, list):
                return all(plain(item) for item in value)
            return value is None or type(value) in {bool, int, str}

        assert plain(data)
        assert data == json.loads(json.dumps(data))

    @pytest.mark.parametrize(
        ("action", "message"),
        [
            (forged(Discard(0, "Qh"), seat=7), "its seat is not 0-3"),
            (forged(DrawStock(0), seat=True), "its seat is not 0-3"),
            (forged(LayOff(0, 0, "Qh"), meld=-1), "its meld index is not 0-55"),
            (forged(Deal(0, FULL_DECK), deck=FULL_DECK[:55]), "its deck is not the 56 cards"),
            (forged(Deal(0, FULL_DECK), deck=(*FULL_DECK[:55], FULL_DECK[0])), "its deck is not the 56 cards"),
        ],
    )
    def test_an_action_that_could_not_be_read_back_is_not_written(self, action: Action, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            to_json(action)


class TestSchema:
    """
    The JSON Schema: `json_schema` returns a draft 2020-12 schema of all four kinds of documents, under
    which every document the library writes is valid (docs/json.md).
    """

    def test_the_schema_is_a_valid_draft_2020_12_schema(self) -> None:
        schema = json_schema()
        Draft202012Validator.check_schema(schema)
        assert "https://json-schema.org/draft/2020-12/schema" == schema["$schema"]
        assert json_schema() == schema
        assert json_schema() is not schema  # a fresh copy each time: editing one changes nothing

    def test_the_schema_lists_every_rule_switch(self) -> None:
        rules = json_schema()["$defs"]["rules"]  # type: ignore[index]
        written = list(to_data(new_game())["rules"])  # type: ignore[call-overload]
        message = "src/persian_rummy/schema.json lists every structured switch of Rules under $defs.rules"
        assert written == list(rules["properties"]), message

    def test_the_file_holds_the_schema_but_the_scalar_switches(self) -> None:
        """
        ``schema.json`` is written by hand but for the scalar switches, which `json_schema` adds: the
        file lists the structured switches alone, and the rest of the schema is the file's.
        """
        text = files("persian_rummy").joinpath("schema.json").read_text(encoding="utf-8")
        held = json.loads(text)
        assert list(switches.STRUCTURED) == list(held["$defs"]["rules"]["properties"])
        schema: Data = json_schema()
        for name in switches.SCALARS:
            del schema["$defs"]["rules"]["properties"][name]
        assert held == schema

    @pytest.mark.parametrize("name", switches.SCALARS)
    def test_each_scalar_switch_is_described_as_rules_takes_it(self, name: str) -> None:
        """
        The schema of a scalar switch is what `Rules` takes: a boolean, an integer within the
        bounds `Rules` accepts (found by trying values), or one of its enumeration's values; its
        default is the default of `Rules()`, and its description is its line in the docstring of
        `Rules`, citing its rule.
        """
        (field,) = (field for field in attrs.fields(Rules) if field.name == name)
        default = getattr(Rules(), name)
        if name in switches.BOOLEANS:
            expected: Data = {"type": "boolean", "default": default}
        elif name in switches.NUMBERS:
            low, high = switches.accepted_range(name)
            bounds = {"minimum": low, "maximum": high}
            expected = {"type": "integer", **{key: value for key, value in bounds.items() if value is not None}}
            expected["default"] = default
        else:
            expected = {"enum": [member.value for member in switches.CHOICE_TYPES[name]], "default": default.value}
        schema = dict(json_schema()["$defs"]["rules"]["properties"][name])  # type: ignore[index]
        description = schema.pop("description")
        assert expected == schema
        assert f"{field.metadata['rule']}" in description, "a switch's line in the docstring of Rules cites its rule"
        assert f"    {name}: " in (Rules.__doc__ or ""), "document the switch in the docstring of Rules"

    def test_without_the_docstring_a_scalar_switch_is_described_by_its_rule(self) -> None:
        """
        Under ``python -OO``, which drops docstrings, the schema is the same but for the descriptions
        of the scalar switches, which name their rules.
        """
        schema: Data = json_schema()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Rules, "__doc__", None)
            bare: Data = json_schema()
        for field in attrs.fields(Rules):
            if field.name in switches.SCALARS:
                described = bare["$defs"]["rules"]["properties"][field.name]
                assert f"The switch of rule {field.metadata['rule']}." == described["description"]
                described["description"] = schema["$defs"]["rules"]["properties"][field.name]["description"]
        assert schema == bare

    @given(playouts(rules=rules_variants(), max_actions=200))
    def test_every_state_document_is_valid_under_the_schema(self, playout: Playout) -> None:
        assert [] == schema_errors(to_data(playout.final))

    @given(playouts(rules=rules_variants(), max_actions=150), st.data())
    def test_every_action_document_is_valid_under_the_schema(self, playout: Playout, data: st.DataObject) -> None:
        state = playout.final
        if state.is_chance_node:
            actions: tuple[Action, ...] = (Deal(next_dealer(state), data.draw(decks())),)
        else:
            actions = tuple(legal_actions(state))
        for action in actions:
            assert [] == schema_errors(to_data(action))

    @given(deal_scores())
    def test_every_deal_score_document_is_valid_under_the_schema(self, score: DealScore) -> None:
        assert [] == schema_errors(to_data(score))

    @given(
        playouts(rules=rules_variants(), max_actions=25), st.none() | st.tuples(names, names, names, names), metadata
    )
    def test_every_record_document_is_valid_under_the_schema(
        self, playout: Playout, players: tuple[str, str, str, str] | None, event: str | None
    ) -> None:
        start = playout.states[0]
        record = GameRecord(start.rules, start.dealer, playout.actions, players, "2026-01-31", event)
        assert [] == schema_errors(to_data(record))

    def test_the_fixed_documents_are_valid_under_the_schema(self) -> None:
        for value in (new_game(), MID_GAME, DEAL_OVER, FINAL, SCORE, RECORD, GameRecord(), *ONE_OF_EACH):
            assert [] == schema_errors(to_data(value))

    def test_a_document_without_rule_switches_is_valid_and_has_the_defaults(self) -> None:
        data = doc(SHORT)
        data["rules"] = {}
        assert [] == schema_errors(data)
        assert SHORT == from_data(data)


def edited(value: Document, change: Callable[[Data], object]) -> Data:
    data = doc(value)
    change(data)
    return data


def drop(key: str) -> Callable[[Data], object]:
    return lambda data: data.pop(key)


def put(key: str, item: object) -> Callable[[Data], object]:
    return lambda data: data.__setitem__(key, item)


def first_meld(change: Callable[[Data], object]) -> Callable[[Data], object]:
    return lambda data: change(data["melds"][0])


def first_team(change: Callable[[Data], object]) -> Callable[[Data], object]:
    return lambda data: change(data["results"][0]["teams"][0])


def first_action(change: Callable[[Data], object]) -> Callable[[Data], object]:
    return lambda data: change(data["actions"][0])


def nested_rules(change: Callable[[Data], object]) -> Callable[[Data], object]:
    return lambda data: change(data["rules"])


#: Documents refused for their structure, with the start of the library's message: the schema refuses them too.
STRUCTURAL: list[tuple[str, Data, str]] = [
    # unknown fields, at every level
    ("unknown field in a state", edited(MID_GAME, put("score", 0)), "$: unknown field 'score'"),
    ("unknown field in the rules", edited(MID_GAME, nested_rules(put("jokers", 4))), "$.rules: unknown field 'jokers'"),
    ("unknown field in a meld", edited(MID_GAME, first_meld(put("kind", "set"))), "$.melds[0]: unknown field 'kind'"),
    ("unknown field in a deal's result", edited(MID_GAME, lambda d: d["results"][0].update(x=1)), "$.results[0]: "),
    ("unknown field in a team's score", edited(MID_GAME, first_team(put("total", 51))), "$.results[0].teams[0]: "),
    ("unknown field in an action", edited(Pass(1), put("card", "Qh")), "$: unknown field 'card'"),
    ("unknown field in a deal score", edited(SCORE, put("totals", [33, 70])), "$: unknown field 'totals'"),
    ("unknown field in a record", edited(SHORT, put("result", "1-0")), "$: unknown field 'result'"),
    ("unknown field in a record's action", edited(SHORT, first_action(put("note", ""))), "$.actions[0]: "),
    # missing fields
    ("missing field in a state", edited(MID_GAME, drop("passes")), "$: missing field 'passes'"),
    ("missing field in a meld", edited(MID_GAME, first_meld(drop("owner"))), "$.melds[0]: missing field 'owner'"),
    ("missing field in a team's score", edited(SCORE, lambda d: d["teams"][1].pop("bonus")), "$.teams[1]: missing"),
    ("missing field in an action", edited(Discard(0, "Qh"), drop("card")), "$: missing field 'card'"),
    ("missing action type", edited(Discard(0, "Qh"), drop("type")), "$.type: expected one of"),
    ("missing field in a deal score", edited(SCORE, drop("end")), "$: missing field 'end'"),
    ("missing field in a record", edited(SHORT, drop("actions")), "$: missing field 'actions'"),
    ("missing metadata in a record", edited(SHORT, drop("event")), "$: missing field 'event'"),
    (
        "missing kind",
        edited(SCORE, drop("kind")),
        "$.kind: expected 'state', 'view', 'action', 'deal_score', 'record' or 'event'",
    ),
    ("missing format", edited(SCORE, drop("format")), "$.format: expected 'persian-rummy', got null"),
    # wrong types
    ("bool for a seat", edited(Pass(1), put("seat", True)), "$.seat: expected a seat 0-3, got true"),
    ("string for a seat", edited(Pass(1), put("seat", "1")), "$.seat: expected a seat 0-3, got '1'"),
    ("string for a number", edited(MID_GAME, put("deal", "2")), "$.deal: expected an integer, got '2'"),
    ("number for a switch", edited(MID_GAME, nested_rules(put("top_discard_free", 0))), "$.rules.top_discard_free: "),
    ("bool for a number", edited(MID_GAME, nested_rules(put("hand_size", True))), "$.rules.hand_size: expected an"),
    ("list for a card", edited(Discard(0, "Qh"), put("card", ["Qh"])), "$.card: expected a card"),
    ("string for a card list", edited(MID_GAME, put("stock", "4c Jc")), "$.stock: expected a list of cards"),
    ("null for a list", edited(MID_GAME, put("melds", None)), "$.melds: expected a list of melds, got null"),
    ("object for a list", edited(SCORE, put("teams", {})), "$.teams: expected a list of two team scores"),
    ("not an object", ["persian-rummy", 1, "state"], "$: expected an object, got a list"),  # type: ignore[list-item]
    ("wrong enum value", edited(MID_GAME, put("phase", "bidding")), "$.phase: expected one of 'deal', 'draw'"),
    ("wrong rules enum", edited(SHORT, nested_rules(put("tie_break", "coin"))), "$.rules.tie_break: expected one"),
    ("wrong end", edited(SCORE, put("end", "resigned")), "$.end: expected one of 'went_out', 'passes'"),
    ("three hands", edited(MID_GAME, lambda d: d["hands"].pop()), "$.hands: expected a list of four card lists"),
    ("three names", edited(SHORT, put("players", ["A", "B", "C"])), "$.players: expected null or a list of four"),
    ("number for a name", edited(SHORT, put("players", ["A", "B", "C", 4])), "$.players[3]: expected a string"),
    ("number for an event", edited(SHORT, put("event", 2026)), "$.event: expected a string, got 2026"),
    ("name too long", edited(SHORT, put("players", ["A", "B", "C", "D" * 101])), "$.players[3]: string longer"),
    ("unknown action type", edited(Pass(1), put("type", "resign")), "$.type: expected one of 'deal', 'draw_stock'"),
    # numbers out of range
    ("seat 4", edited(Pass(1), put("seat", 4)), "$.seat: expected a seat 0-3, got 4"),
    ("negative seat", edited(MID_GAME, put("dealer", -1)), "$.dealer: expected a seat 0-3, got -1"),
    ("deal -1", edited(MID_GAME, put("deal", -1)), "$.deal: expected an integer from 0 to 1000, got -1"),
    ("passes 5", edited(MID_GAME, put("passes", 5)), "$.passes: expected an integer from 0 to 4, got 5"),
    ("deal number 0", edited(SCORE, put("deal", 0)), "$.deal: expected an integer from 1 to 1000, got 0"),
    ("huge score", edited(SCORE, lambda d: d["teams"][0].update(melded=10**7)), "$.teams[0].melded: expected an"),
    ("meld index 56", edited(LayOff(3, 0, "5c 6c"), put("meld", 56)), "$.meld: expected an integer from 0 to 55"),
    ("meld index -1", edited(LayOff(3, 0, "5c 6c"), put("meld", -1)), "$.meld: expected an integer from 0 to 55"),
    ("hand size 14", edited(SHORT, nested_rules(put("hand_size", 14))), "$.rules: hand_size must be between 1"),
    ("no deals", edited(SHORT, nested_rules(put("num_deals", 0))), "$.rules: num_deals must be between 1 and 100"),
    # envelope
    ("version 2", edited(SCORE, put("version", 2)), "$.version: unknown version 2 (this library reads version 1)"),
    ("version 0", edited(SCORE, put("version", 0)), "$.version: unknown version 0"),
    ("version as text", edited(SCORE, put("version", "1")), "$.version: expected an integer, got '1'"),
    ("missing version", edited(SCORE, drop("version")), "$.version: expected an integer, got null"),
    ("other format", edited(SCORE, put("format", "rummy")), "$.format: expected 'persian-rummy', got 'rummy'"),
    ("unknown kind", edited(SCORE, put("kind", "game")), "$.kind: expected 'state', 'view', 'action', 'deal_score'"),
    # bad cards
    ("unknown card", edited(Discard(0, "Qh"), put("card", "Zz")), "$.card: expected a card such as 'Qh' or 'X1'"),
    ("card in lower case", edited(Discard(0, "Qh"), put("card", "qh")), "$.card: expected a card"),
    ("card as 10h", edited(Discard(0, "Th"), put("card", "10h")), "$.card: expected a card"),
    ("fifth joker", edited(Discard(0, "Qh"), put("card", "X5")), "$.card: expected a card"),
    ("empty card", edited(MID_GAME, put("obligation", "")), "$.obligation: expected a card"),
    ("card with spaces", edited(MID_GAME, lambda d: d["stock"].__setitem__(2, " Ad")), "$.stock[2]: expected a card"),
    ("number for a card", edited(LayDown(2, "9d 9h 9s"), put("cards", ["9d", 9])), "$.cards[1]: expected a card"),
    ("card twice in a list", edited(LayDown(2, "9d 9h"), put("cards", ["9d", "9d"])), "$.cards[1]: card 9d appears"),
    ("card twice in a hand", edited(MID_GAME, lambda d: d["hands"][0].append(d["hands"][0][0])), "$.hands[0][7]: "),
    ("deck of 55", edited(ONE_OF_EACH[0], lambda d: d["deck"].pop()), "$.deck: a deck lists all 56 cards, got 55"),
    ("deck of 57", edited(ONE_OF_EACH[0], lambda d: d["deck"].append("2c")), "$.deck: expected at most 56 cards"),
    ("stock of 57", edited(new_game(), lambda d: d["stock"].append("X1")), "$.stock: expected at most 56 cards"),
    ("card twice in a deck", edited(ONE_OF_EACH[0], lambda d: d["deck"].__setitem__(55, "2c")), "$.deck[55]: card"),
]


#: Documents the library refuses for what they mean: the schema cannot say so much.
SEMANTIC: list[tuple[str, Data, str]] = [
    (
        "card twice across lists",
        edited(MID_GAME, lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0])),
        "$: not a valid state: card Kc appears more than once",
    ),
    (
        "a missing card",
        edited(MID_GAME, lambda d: d["stock"].pop()),
        "$: not a valid state: cards missing: 7s (all 56 cards must be present exactly once)",
    ),
    ("not a meld", edited(MID_GAME, first_meld(put("laid_down", ["Qd", "Qh", "Ks"]))), "$.melds[0]: "),
    ("inconsistent phase", edited(new_game(), put("phase", "draw")), "$: not a valid state: in phase draw a seat"),
    (
        "result not matching the table",
        edited(
            DEAL_OVER, lambda d: d["results"][0]["teams"][0].update(melded=1 + d["results"][0]["teams"][0]["melded"])
        ),
        "$: not a valid state: the last deal's result",
    ),
    ("going out without a seat", edited(SCORE, put("went_out", None)), "$: a deal ends by going out exactly when"),
    ("version 1.0", edited(SCORE, put("version", 1.0)), "$.version: expected an integer, got 1.0"),
    ("seat 1.0", edited(Pass(1), put("seat", 1.0)), "$.seat: expected a seat 0-3, got 1.0"),
]


class TestLibraryAndSchema:
    """
    What loading checks against what the schema says: a document wrong in its form is refused by the
    library and by the schema alike; what the values mean together, and ``1.0`` as an integer, only the
    library refuses: "a document valid under the schema may still be refused [...], never the other way
    round" (docs/json.md).
    """

    @pytest.mark.parametrize(
        ("data", "message"), [case[1:] for case in STRUCTURAL], ids=[case[0] for case in STRUCTURAL]
    )
    def test_structurally_wrong_documents_are_refused_by_library_and_schema(self, data: Data, message: str) -> None:
        assert refusal(data).startswith(message)
        assert refusal(json.loads(json.dumps(data))).startswith(message)
        assert text_refusal(json.dumps(data)).startswith(message)
        assert [] != schema_errors(data)

    @pytest.mark.parametrize(("data", "message"), [case[1:] for case in SEMANTIC], ids=[case[0] for case in SEMANTIC])
    def test_the_library_checks_more_than_the_schema(self, data: Data, message: str) -> None:
        # JSON Schema cannot relate one field to another (every card once, a result matching the table),
        # and its "integer" includes 1.0: the schema accepts these, the library does not.
        assert refusal(data).startswith(message)
        assert [] == schema_errors(data)

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            (envelope([]), "$.kind: expected 'state', 'view', 'action', 'deal_score', 'record' or 'event', got a list"),  # type: ignore[arg-type]
            (
                envelope({"a": 1}),  # type: ignore[arg-type]
                "$.kind: expected 'state', 'view', 'action', 'deal_score', 'record' or 'event', got an object",
            ),
            (envelope("action", type=[], seat=0), "$.type: expected one of 'deal', 'draw_stock', 'take_discard'"),
            (edited(SHORT, first_action(put("type", {}))), "$.actions[0].type: expected one of 'deal', 'draw_stock'"),
        ],
    )
    def test_a_list_or_an_object_as_kind_or_type_is_refused(self, data: Data, message: str) -> None:
        assert refusal(data).startswith(message)
        assert [] != schema_errors(data)


DECK_TEXT = (
    '["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "Ac", '
    '"2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "Td", "Jd", "Qd", "Kd", "Ad", '
    '"2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah", '
    '"2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As", '
    '"X1", "X2", "X3", "X4"]'
)
HEAD = '{"format": "persian-rummy", "version": 1, '
#: The default of each structured switch as JSON writes it, by hand.
STRUCTURED_DEFAULTS = {
    "card_values": '{"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, '
    '"T": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "X": 20}',
}


def default_text(name: str) -> str:
    """
    The default of the switch *name* as JSON writes it (docs/json.md, "Rules"), worked out here and
    not by the writer: a boolean as ``true`` or ``false``, a number as itself, a choice as the text of
    its value; a structured switch as `STRUCTURED_DEFAULTS` holds it (a new one fails here, named).
    """
    default = getattr(Rules(), name)
    if name in switches.BOOLEANS:
        return "true" if default else "false"
    if name in switches.NUMBERS:
        return str(default)
    if name in switches.CHOICES:
        return f'"{default.value}"'
    return STRUCTURED_DEFAULTS[name]


#: The default rules as every document writes them: every switch, in the order of the fields of `Rules`
#: (so that a document keeps its meaning if a default ever changes), with its default.
DEFAULT_RULES_TEXT = "{" + ", ".join(f'"{name}": {default_text(name)}' for name in switches.NAMES) + "}"

#: The same rules object as `to_json(..., pretty=True)` writes it within a document (it has no lists,
#: so the standard library's indentation is the package's).
PRETTY_RULES = json.dumps(json.loads(DEFAULT_RULES_TEXT), indent=2).replace("\n", "\n  ")


class TestExactText:
    """
    The exact text of documents: the envelope first, then the fields of the kind in a fixed order, on
    one line with Unicode unescaped, or with ``pretty=True`` laid out to be read, short objects and lists
    kept on one line (docs/json.md).
    """

    @pytest.mark.parametrize(
        ("action", "text"),
        [
            (Deal(0, FULL_DECK), HEAD + f'"kind": "action", "type": "deal", "seat": 0, "deck": {DECK_TEXT}}}'),
            (DrawStock(1), HEAD + '"kind": "action", "type": "draw_stock", "seat": 1}'),
            (TakeDiscard(1, "9s"), HEAD + '"kind": "action", "type": "take_discard", "seat": 1, "card": "9s"}'),
            (
                LayDown(2, "9s 9h 9d"),
                HEAD + '"kind": "action", "type": "lay_down", "seat": 2, "cards": ["9d", "9h", "9s"]}',
            ),
            (
                LayOff(3, 0, "6c 5c"),
                HEAD + '"kind": "action", "type": "lay_off", "seat": 3, "meld": 0, "cards": ["5c", "6c"]}',
            ),
            (Discard(0, "X3"), HEAD + '"kind": "action", "type": "discard", "seat": 0, "card": "X3"}'),
            (Pass(2), HEAD + '"kind": "action", "type": "pass", "seat": 2}'),
        ],
        ids=lambda value: type(value).__name__ if not isinstance(value, str) else "",
    )
    def test_the_exact_text_of_each_type_of_action(self, action: Action, text: str) -> None:
        assert text == to_json(action)
        # Short documents stay on one line in the pretty form too.
        assert (len(text) <= 100) == (text == to_json(action, pretty=True))
        assert action == from_json(text)

    def test_the_exact_text_of_a_deal_score(self) -> None:
        text = (
            HEAD + '"kind": "deal_score", "deal": 1, "teams": ['
            '{"melded": 30, "doubling": 0, "bonus": 25, "in_hand": 22}, '
            '{"melded": 50, "doubling": 40, "bonus": 0, "in_hand": 20}], "went_out": 0, "end": "went_out"}'
        )
        assert text == to_json(SCORE)
        assert SCORE == from_json(text)
        no_one = DealScore(2, (TeamScore(0, 0, 0, 5), TeamScore(3, 0, 0, 0)), None, DealEnd.PASSES)
        assert to_json(no_one).endswith('"went_out": null, "end": "passes"}')

    def test_the_default_rules_text_is_written_as_the_docs_say(self) -> None:
        """
        `DEFAULT_RULES_TEXT`, which the exact texts here and in tests/test_records.py are built from,
        worked out from the fields of `Rules`: its start, written out.
        """
        start = '{"hand_size": 7, "num_deals": 2, "go_out_bonus": 25, "card_values": {"2": 2, '
        assert DEFAULT_RULES_TEXT.startswith(start)
        assert '"ace_low_allowed": false, ' in DEFAULT_RULES_TEXT
        assert '"obligation_timing": "immediate", ' in DEFAULT_RULES_TEXT
        assert list(switches.NAMES) == list(json.loads(DEFAULT_RULES_TEXT))

    def test_the_exact_text_of_a_new_game(self) -> None:
        text = (
            HEAD + f'"kind": "state", "rules": {DEFAULT_RULES_TEXT}, "phase": "deal", "deal": 0, "dealer": 0, '
            f'"to_act": null, "hands": [[], [], [], []], "stock": {DECK_TEXT}, "stock_known": false, '
            '"discard_pile": [], "melds": [], "obligation": null, "picked": [], "known": [[], [], [], []], '
            '"passes": 0, "went_out": null, "results": []}'
        )
        assert text == to_json(new_game())
        assert new_game() == from_json(text)

    def test_the_exact_pretty_text_of_a_deal_score(self) -> None:
        assert (
            "{\n"
            '  "format": "persian-rummy",\n'
            '  "version": 1,\n'
            '  "kind": "deal_score",\n'
            '  "deal": 1,\n'
            '  "teams": [\n'
            '    {"melded": 30, "doubling": 0, "bonus": 25, "in_hand": 22},\n'
            '    {"melded": 50, "doubling": 40, "bonus": 0, "in_hand": 20}\n'
            "  ],\n"
            '  "went_out": 0,\n'
            '  "end": "went_out"\n'
            "}"
        ) == to_json(SCORE, pretty=True)

    def test_the_exact_pretty_text_of_a_short_record(self) -> None:
        record = GameRecord(
            actions=[Deal(0, FULL_DECK), DrawStock(1)], players=["Ann", "Ben", "Cy", "Di"], event="Club"
        )
        assert (
            "{\n"
            '  "format": "persian-rummy",\n'
            '  "version": 1,\n'
            '  "kind": "record",\n'
            f'  "rules": {PRETTY_RULES},\n'
            '  "first_dealer": 0,\n'
            '  "players": ["Ann", "Ben", "Cy", "Di"],\n'
            '  "date": null,\n'
            '  "event": "Club",\n'
            '  "actions": [\n'
            "    {\n"
            '      "type": "deal",\n'
            '      "seat": 0,\n'
            f'      "deck": {DECK_TEXT}\n'
            "    },\n"
            '    {"type": "draw_stock", "seat": 1}\n'
            "  ]\n"
            "}"
        ) == to_json(record, pretty=True)

    def test_the_text_is_one_line_and_keeps_unicode_unescaped(self) -> None:
        text = to_json(GameRecord(event="Café"))
        assert "\n" not in text
        assert '"event": "Café"' in text


class TestVersions:
    """
    Versions: "A reader refuses a version it does not know, newer or older, rather than guess at it."
    (docs/json.md)
    """

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ('{"format": "persian-rummy", "version": 2, "kind": "action"}', "$.version: unknown version 2"),
            ('{"format": "persian-rummy", "version": 99, "kind": "state"}', "$.version: unknown version 99"),
            ('{"format": "persian-rummy", "version": -1}', "$.version: unknown version -1"),
            (
                '{"format": "persian-rummy", "version": 1.0, "kind": "action"}',
                "$.version: expected an integer, got 1.0",
            ),
            ('{"format": "persian-rummy", "version": true}', "$.version: expected an integer, got true"),
        ],
    )
    def test_unknown_versions_are_refused(self, text: str, message: str) -> None:
        assert text_refusal(text).startswith(message)

    def test_the_version_is_checked_before_anything_else_of_the_document(self) -> None:
        # A reader of version 1 does not guess at a newer document: whatever it holds, the version is named.
        data = doc(MID_GAME)
        data["version"] = 2
        data["hands"] = "new layout"
        assert "$.version: unknown version 2 (this library reads version 1)" == refusal(data)


def nested_texts(depth: int) -> tuple[str, str, str]:
    """
    Lists nested *depth* deep, objects nested *depth* deep, and a record whose event is such lists.
    """
    lists = "[" * depth + "]" * depth
    objects = '{"a": ' * depth + "1" + "}" * depth
    record = to_json(GameRecord()).replace('"event": null, ', "")[:-1] + ', "event": ' + lists + "}"
    return lists, objects, record


class TestText:
    """
    What loading checks of the text: UTF-8 (for `bytes`), valid JSON, at most 16,000,000 characters,
    arrays and objects nested at most 32 deep, no key twice in an object, no `NaN` or `Infinity`
    (docs/json.md).
    """

    def test_duplicate_keys_are_refused(self) -> None:
        text = to_json(Discard(0, "Qh"))
        assert "$: duplicate key 'card' in an object" == text_refusal(text[:-1] + ', "card": "Ks"}')
        nested = to_json(MID_GAME).replace('"owner": 3,', '"owner": 3, "owner": 3,')
        assert "$: duplicate key 'owner' in an object" == text_refusal(nested)
        twice = to_json(SCORE).replace('"kind": "deal_score",', '"kind": "deal_score", "kind": "state",')
        assert "$: duplicate key 'kind' in an object" == text_refusal(twice)

    @pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
    def test_nan_and_infinity_are_refused(self, constant: str) -> None:
        text = to_json(Pass(1)).replace('"seat": 1', f'"seat": {constant}')
        assert f"$: {constant} is not a JSON number" == text_refusal(text)

    def test_moderate_nesting_is_parsed_and_refused_for_its_structure(self) -> None:
        lists, objects, record = nested_texts(100)
        assert "$: expected an object, got a list" == text_refusal(lists)
        assert "$.format: expected 'persian-rummy', got null" == text_refusal(objects)
        assert "$.event: expected a string, got a list" == text_refusal(record)

    def test_deep_nesting_is_refused_before_decoding_even_with_a_raised_recursion_limit(self) -> None:
        """
        With the recursion limit raised, the decoder would recurse into 400,000 lists until the
        C stack ran out and the interpreter crashed: the depth is measured first.
        """
        program = (
            "import sys; sys.setrecursionlimit(10**7)\n"
            "from persian_rummy import InvalidDataError, from_json\n"
            "for text in ('[' * 400_000 + ']' * 400_000, '[1,' * 400_000, '{\"a\":' * 400_000):\n"
            "    try:\n"
            "        from_json(text)\n"
            "    except InvalidDataError as error:\n"
            "        print(error)\n"
        )
        command = [sys.executable, "-c", program]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)  # noqa: S603
        deep = "$: not a document: arrays and objects nested more than 32 deep, or left open"
        assert (0, [deep] * 3) == (done.returncode, done.stdout.splitlines())

    @pytest.mark.parametrize("depth", [10_000, 100_000])
    def test_deep_nesting_is_refused(self, depth: int) -> None:
        lists, objects, record = nested_texts(depth)
        deep = "$: not a document: arrays and objects nested more than 32 deep, or left open"
        assert deep == text_refusal(lists)
        assert deep == text_refusal(objects)
        assert deep == text_refusal(record)
        assert deep == text_refusal("[1," * depth)
        assert deep == text_refusal('{"a": [' * depth)
        nested: object = "Club"
        for _ in range(depth):
            nested = [nested]
        assert "$.event: expected a string, got a list" == refusal(edited(GameRecord(), put("event", nested)))

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (b"\xff\xfe{}", "$: not UTF-8 text: invalid start byte"),
            (b'{"format": "persian-rummy\xe9"}', "$: not UTF-8 text: invalid continuation byte"),
            (b'{"format": "\xc3', "$: not UTF-8 text: unexpected end of data"),
            ("", "$: not JSON: Expecting value"),
            ("{", "$: not JSON: "),
            ("{} {}", "$: not JSON: Extra data"),
            ("{'format': 'persian-rummy'}", "$: not JSON: Expecting property name enclosed in double quotes"),
            ("null", "$: expected an object, got null"),
            ('"persian-rummy"', "$: expected an object, got 'persian-rummy'"),
            ("[]", "$: expected an object, got a list"),
            ("\ufeff{}", "$: not JSON: Unexpected UTF-8 BOM"),
        ],
    )
    def test_text_that_is_not_a_json_object_is_refused(self, text: str | bytes, message: str) -> None:
        assert text_refusal(text).startswith(message)

    def test_text_that_is_not_text_is_refused(self) -> None:
        with pytest.raises(InvalidDataError) as info:
            from_json(bytearray(b"{}"))  # type: ignore[call-overload]
        assert "$: JSON must be text, got bytearray" == str(info.value)
        with pytest.raises(InvalidDataError) as info:
            from_json(None)  # type: ignore[call-overload]
        assert "$: JSON must be text, got NoneType" == str(info.value)

    def test_overlong_text_is_refused_before_parsing(self) -> None:
        text = to_json(GameRecord())[:-1] + ', "event": "' + "x" * 16_000_000 + '"}'
        assert text_refusal(text).startswith("$: document too long (16,000,")
        assert text_refusal(text.encode()).startswith("$: document too long (16,000,")
        assert text_refusal(b" " * 64_000_001) == "$: document too long (64,000,001 bytes)"
        assert "$.event: string longer than 1000 characters" == refusal(edited(GameRecord(), put("event", "x" * 1001)))


class TestParseJson:
    """
    `parse_json` reads JSON text as `from_json` reads a document before its fields, within the limits
    of `persian_rummy.limits`, for JSON of one's own.
    """

    def test_plain_data_of_any_shape(self) -> None:
        text = to_json(MID_GAME)
        assert json.loads(text) == serialize_module.parse_json(text) == serialize_module.parse_json(text.encode())
        assert from_json(text) == from_data(serialize_module.parse_json(text))
        assert [1, "x", None] == serialize_module.parse_json('[1, "x", null]')

    def test_what_from_json_refuses_of_the_text(self) -> None:
        for text in ('{"a": 1, "a": 2}', "[NaN]", "[" * 2000 + "]" * 2000, b"\xff"):
            with pytest.raises(InvalidDataError) as info:
                serialize_module.parse_json(text)
            assert text_refusal(text) == str(info.value)

    def test_its_limit(self) -> None:
        assert MAX_JSON == inspect.signature(serialize_module.parse_json).parameters["limit"].default
        assert [] == serialize_module.parse_json("[]", limit=2)
        with pytest.raises(InvalidDataError, match=r"^\$: document too long \(4 characters; at most 3 are read\)$"):
            serialize_module.parse_json("[  ]", limit=3)
        assert "x" * 20_000_000 == serialize_module.parse_json(f'"{"x" * 20_000_000}"', limit=None)

    @pytest.mark.parametrize(
        ("arguments", "error"),
        [
            ({"text": None}, InvalidTypeError),
            ({"text": bytearray(b"[]")}, InvalidTypeError),
            ({"text": "[]", "limit": -1}, InvalidValueError),
            ({"text": "[]", "limit": 1.5}, InvalidTypeError),
        ],
    )
    def test_bad_arguments(self, arguments: dict[str, object], error: type[Exception]) -> None:
        text = arguments.pop("text")
        with pytest.raises(error):
            serialize_module.parse_json(text, **arguments)  # type: ignore[arg-type]


class TestIntegers:
    """
    What loading checks of numbers: "integers are integers (`true`, `1.0` and `"1"` are not), within
    their range" (docs/json.md), in JSON text and in Python data alike.
    """

    @pytest.mark.parametrize(
        ("number", "message"),
        [
            ("1e400", "$.seat: expected a seat 0-3, got inf"),
            ("1e3", "$.seat: expected a seat 0-3, got 1000.0"),
            ("1.5", "$.seat: expected a seat 0-3, got 1.5"),
            ("1.0", "$.seat: expected a seat 0-3, got 1.0"),
            ("100000000000000000000000000000000000000", "$.seat: expected a seat 0-3, got a huge number"),
            ("9" * 5000, "$: not JSON: "),
        ],
    )
    def test_numbers_that_are_not_small_integers_are_refused(self, number: str, message: str) -> None:
        text = to_json(Pass(1)).replace('"seat": 1', f'"seat": {number}')
        assert text_refusal(text).startswith(message)

    def test_integers_may_be_written_in_any_json_form(self) -> None:
        # -0 is the integer 0 in JSON; the written form does not matter, only the value.
        assert Pass(0) == from_json(to_json(Pass(1)).replace('"seat": 1', '"seat": -0'))

    def test_huge_integers_are_refused_in_python_data_too(self) -> None:
        assert "$.teams[0].melded: expected an integer from -1000000 to 1000000, got a huge number" == refusal(
            edited(SCORE, lambda d: d["teams"][0].update(melded=10**400))
        )
        assert "$.deal: expected an integer from 0 to 1000, got 1001" == refusal(edited(MID_GAME, put("deal", 1001)))
        assert "$.rules.go_out_bonus: expected an integer from -1000000 to 1000000, got -1000001" == refusal(
            edited(SHORT, nested_rules(put("go_out_bonus", -1_000_001)))
        )

    def test_floats_are_refused_wherever_an_integer_is_expected(self) -> None:
        assert "$.deal: expected an integer, got 2.0" == refusal(edited(MID_GAME, put("deal", 2.0)))
        assert "$.meld: expected an integer, got 0.5" == refusal(edited(LayOff(3, 0, "5c 6c"), put("meld", 0.5)))
        assert refusal(edited(SCORE, lambda d: d["teams"][1].update(bonus=float("nan")))).startswith(
            "$.teams[1].bonus: expected an integer, got "
        )

    @pytest.mark.parametrize("value", [float("nan"), float("inf")])
    def test_nan_and_infinity_in_python_data_are_named_as_such(self, value: float) -> None:
        assert f"$.teams[1].bonus: expected an integer, got {value!r}" == refusal(
            edited(SCORE, lambda d: d["teams"][1].update(bonus=value))
        )


class TestFields:
    """
    What loading checks of the fields: present, of its type, and nothing else, at every level; the error
    names the place as a path from the document's root ``$``. A record's actions are checked for their
    form, not for legality (docs/json.md).
    """

    def test_unknown_fields_are_refused_at_every_level_of_a_record(self) -> None:
        # One action of each type, each with one field too many.
        record = GameRecord(actions=ONE_OF_EACH)
        for index in range(len(ONE_OF_EACH)):
            data = doc(record)
            data["actions"][index]["extra"] = None
            assert f"$.actions[{index}]: unknown field 'extra'" == refusal(data)
        assert "$.rules: unknown field 'extra'" == refusal(edited(record, nested_rules(put("extra", None))))
        assert "$: unknown field 'extra'" == refusal(edited(record, put("extra", None)))

    def test_a_views_hand_sizes_are_a_list_of_four(self) -> None:
        view = observe(apply(new_game(), Deal(0, FULL_DECK)), 1)
        assert "$.hand_sizes: expected four hand sizes, got 7" == refusal(edited(view, put("hand_sizes", 7)))

    def test_an_action_needs_exactly_the_fields_of_its_type(self) -> None:
        assert "$: unknown field 'deck'" == refusal(edited(Pass(0), put("deck", [])))
        assert "$: missing field 'meld'" == refusal(edited(LayOff(3, 0, "5c 6c"), drop("meld")))
        assert "$: unknown field 'cards'" == refusal(edited(TakeDiscard(1, "9s"), put("cards", ["9s"])))
        # the envelope fields belong to the top level, not to an action inside a record
        data = doc(SHORT)
        data["actions"][1]["version"] = 1
        assert "$.actions[1]: unknown field 'version'" == refusal(data)

    def test_what_is_refused_is_named_by_its_path_inside_a_record(self) -> None:
        data = doc(SHORT)
        data["actions"][0]["deck"][10] = "Zz"
        assert "$.actions[0].deck[10]: expected a card such as 'Qh' or 'X1', got 'Zz'" == refusal(data)
        data = doc(SHORT)
        data["actions"][3]["seat"] = "N"
        assert "$.actions[3].seat: expected a seat 0-3, got 'N'" == refusal(data)
        data = doc(SHORT)
        data["actions"][5] = "E draw"
        assert "$.actions[5]: expected an object, got 'E draw'" == refusal(data)
        data = doc(SHORT)
        data["actions"] = {}
        assert "$.actions: expected a list of actions, got an object" == refusal(data)

    def test_a_record_is_not_checked_for_legality_on_loading(self) -> None:
        # Structure only: a record of illegal actions loads, and replaying it says which action is illegal.
        record = GameRecord(actions=(DrawStock(1), Pass(2)))
        assert record == from_json(to_json(record))


class TestMeaning:
    """
    R2 / R9-R12: what the values mean together: a state holds each of the 56 cards exactly once, every
    meld is a valid set or run, the phase agrees with the other fields, and the result of a finished
    deal is the score of the table as it stands (docs/json.md).
    """

    def test_a_card_twice_is_refused_within_a_list_and_across_a_state(self) -> None:
        data = doc(MID_GAME)
        data["discard_pile"].append(data["discard_pile"][0])
        assert "$.discard_pile[2]: card 5s appears twice in the list" == refusal(data)
        data = doc(MID_GAME)
        data["discard_pile"].append(data["stock"][0])
        assert refusal(data).startswith("$: not a valid state: card 4c appears more than once")
        data = doc(MID_GAME)
        data["melds"][0]["layoffs"][2] = ["Qh"]
        assert "$.melds[0]: card(s) Qh appear twice in the meld" == refusal(data)

    def test_a_missing_card_and_an_extra_card_are_refused(self) -> None:
        data = doc(new_game())
        data["stock"].remove("Qh")
        assert "$: not a valid state: cards missing: Qh (all 56 cards must be present exactly once)" == refusal(data)
        data = doc(new_game())
        data["stock"].append("Qh")
        assert "$.stock: expected at most 56 cards, got 57" == refusal(data)
        data = doc(MID_GAME)
        data["hands"][3].append(data["hands"][2][0])
        assert refusal(data).startswith("$: not a valid state: card 5c appears more than once")

    def test_an_invalid_meld_is_refused(self) -> None:
        data = doc(MID_GAME)
        data["melds"][1]["laid_down"] = ["9s", "Ts", "Qs"]
        data["stock"].append("Js")
        assert "$.melds[1]: 9s Ts Qs is not a set or a run" == refusal(data)
        data = doc(MID_GAME)
        data["melds"][0]["owner"] = 4
        assert "$.melds[0].owner: expected a seat 0-3, got 4" == refusal(data)
        data = doc(MID_GAME)
        data["melds"][0]["layoffs"] = [[], [], []]
        assert refusal(data).startswith("$.melds[0].layoffs: expected a list of four card lists")

    def test_an_inconsistent_phase_is_refused(self) -> None:
        assert refusal(edited(MID_GAME, put("phase", "deal"))).startswith(
            "$: not a valid state: phase deal comes only before the first deal"
        )
        assert refusal(edited(MID_GAME, put("to_act", None))).startswith(
            "$: not a valid state: in phase play a seat 0-3 must be to act"
        )
        assert refusal(edited(DEAL_OVER, put("phase", "game_over"))).startswith(
            "$: not a valid state: the game lasts 2 deal(s); it cannot be over after 1"
        )
        assert refusal(edited(MID_GAME, put("results", []))).startswith(
            "$: not a valid state: deal 2 is in progress, so 1 deal(s) must be finished, got 0"
        )

    def test_a_result_that_does_not_match_the_table_is_refused(self) -> None:
        data = doc(DEAL_OVER)
        data["results"][0]["teams"][1]["in_hand"] += 1
        message = refusal(data)
        assert message.startswith("$: not a valid state: the last deal's result")
        assert "does not match the table" in message
        data = doc(DEAL_OVER)
        data["results"][0]["deal"] = 2
        assert refusal(data).startswith("$: not a valid state: results must be deals 1, 2, ... in order")

    def test_a_deal_score_must_agree_with_itself(self) -> None:
        assert "$: a deal ends by going out exactly when a seat went out" == refusal(
            edited(SCORE, put("end", "passes"))
        )
        assert "$.went_out: expected a seat 0-3, got 7" == refusal(edited(SCORE, put("went_out", 7)))


PAYLOADS = [
    "__import__('os').system('false')",
    "eval('1')",
    "!!python/object/apply:os.system ['false']",
    "cos\nsystem\n(S'false'\ntR.",
    "${jndi:ldap://example.invalid/a}",
    "{{7*7}}",
]


class TestLoadingIsSafe:
    """
    "Reading a document never runs anything in it" (docs/json.md): code is only text, refused or kept as
    text where text is free; no evaluator is called, the value loaded shares nothing with the input, and
    what loading raises is `InvalidDataError`, a library error and a `ValueError`.
    """

    @pytest.mark.parametrize("payload", PAYLOADS)
    def test_code_in_a_document_is_only_text(self, payload: str) -> None:
        assert refusal(edited(Discard(0, "Qh"), put("card", payload))).startswith(
            "$.card: expected a card such as 'Qh'"
        )
        assert refusal(edited(MID_GAME, put("phase", payload))).startswith("$.phase: expected one of")
        assert refusal(edited(Pass(0), put("type", payload))).startswith("$.type: expected one of")
        assert refusal(edited(SCORE, put("kind", payload))).startswith("$.kind: expected")
        # Where text is free (names, date, event), it stays text, unchanged.
        record = from_data(edited(SHORT, put("event", payload)))
        assert isinstance(record, GameRecord)
        assert payload == record.event

    def test_loading_calls_no_evaluator(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def forbidden(*_args: object, **_kwargs: object) -> object:
            raise AssertionError("evaluated")

        text = to_json(RECORD)
        state_text = to_json(MID_GAME)
        for name in ("eval", "exec", "compile"):
            monkeypatch.setattr(builtins, name, forbidden)
        assert RECORD == from_json(text)
        assert MID_GAME == from_json(state_text)
        monkeypatch.undo()
        assert not {"pickle", "marshal", "shelve", "eval", "exec"} & set(vars(serialize_module))

    def test_loading_never_returns_a_value_that_shares_the_input(self) -> None:
        data = doc(MID_GAME)
        state = from_data(data)
        data["hands"][0].clear()
        data["rules"]["hand_size"] = 3
        assert MID_GAME == state

    def test_every_loading_error_is_a_library_error_and_a_value_error(self) -> None:
        with pytest.raises(InvalidDataError) as info:
            from_json("{}")
        assert isinstance(info.value, PersianRummyError)
        assert isinstance(info.value, ValueError)
        assert "$.format: expected 'persian-rummy', got null" == str(info.value)
