"""
Stable fingerprints (`persian_rummy.fingerprints`): equal values, and only they, have equal
fingerprints, in any process, under any hash seed, on every supported Python.

The classes, by topic:

* equal values give equal fingerprints, however they were made: by play, from JSON, from
  position notation, unpickled, rebuilt with their checks, observed from another state;
* a value differing from another in any one field, at any depth, has another fingerprint; every
  field that takes part in equality has a mutation here, so a new field fails a test until it
  has one, and the property then checks that the encoding sees it;
* the encoding of a fixed position, integer by integer, and the fingerprints of a few fixed
  positions (golden values: a change of the encoding must come with a new
  `FINGERPRINT_VERSION`);
* other processes, under the hash seeds 0, 1 and a random one, on Pythons 3.11, 3.12 and 3.13;
* arguments that are not states or views.
"""

from __future__ import annotations

import enum
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import attr
import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import persian_rummy
from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    CardValues,
    DealScore,
    GameState,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    Rules,
    StandIns,
    TableMeld,
    View,
    apply,
    determinize,
    format_position,
    from_json,
    legal_actions,
    new_game,
    observe,
    parse_position,
    random_deal,
    score_deal,
    to_data,
    to_json,
)
from persian_rummy import strategies as library_strategies
from persian_rummy._internal import build as _build
from persian_rummy.fingerprints import FINGERPRINT_VERSION, fingerprint, fingerprint_int
from persian_rummy.fingerprints import _encoder as encoder
from persian_rummy.fingerprints import _encoding as encoding
from persian_rummy.fingerprints import _rules as rules_encoding
from persian_rummy.fingerprints import _switches as switches
from persian_rummy.scoring import DealEnd, TeamScore
from tests.strategies import Playout, played_states, playouts, rules_variants

T = TypeVar("T")

#: The folder of the package under test (src/, or an installed build), for the other interpreters.
SRC: Final = Path(persian_rummy.__file__ or "").resolve().parents[1]
NONE: Final = -(2**63)
SEATS: Final = (None, 0, 1, 2, 3)


def states() -> st.SearchStrategy[GameState]:
    return played_states(rules=rules_variants(), max_actions=150)


def views() -> st.SearchStrategy[View]:
    return st.tuples(states(), st.sampled_from(SEATS)).map(lambda pair: observe(*pair))


def replace(value: T, name: str, new: object) -> T:
    """
    *value* with the field *name* set to *new*, built without checks (the result need not be valid).
    """
    cls: type[Any] = type(value)
    made: T = object.__new__(cls)
    for field in attrs.fields(cls):
        object.__setattr__(made, field.name, new if field.name == name else getattr(value, field.name))
    if _build.CACHED_HASH in cls.__slots__:
        object.__setattr__(made, _build.CACHED_HASH, None)
    return made


def eq_fields(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in attrs.fields(cls) if field.eq)


# -- mutations: each gives another value for one field ---------------------------------------------------------

Mutation = Callable[[st.DataObject, Any], object]


def other(choices: tuple[object, ...]) -> Mutation:
    return lambda data, current: data.draw(st.sampled_from([choice for choice in choices if choice != current]))


def plus_one(_: st.DataObject, current: int) -> int:
    return current + 1


def negated(_: st.DataObject, current: bool) -> bool:
    return not current


def toggled(data: st.DataObject, cards: CardSet) -> CardSet:
    """*cards* with one card added or taken away."""
    return CardSet(cards.mask ^ 1 << data.draw(st.integers(0, 55), label="card toggled"))


def one_toggled(data: st.DataObject, parts: tuple[CardSet, ...]) -> tuple[CardSet, ...]:
    seat = data.draw(st.integers(0, len(parts) - 1), label="part")
    return tuple(toggled(data, part) if index == seat else part for index, part in enumerate(parts))


def changed_tuple(new_item: Callable[[st.DataObject], object]) -> Mutation:
    """A tuple with an item added, one taken away, or two swapped: never the same tuple."""

    def mutate(data: st.DataObject, items: tuple[object, ...]) -> tuple[object, ...]:
        ways = ["append", *(["drop"] if items else []), *(["swap"] if len(set(items)) > 1 else [])]
        way = data.draw(st.sampled_from(ways), label="change")
        if way == "append":
            return (*items, new_item(data))
        if way == "drop":
            index = data.draw(st.integers(0, len(items) - 1), label="dropped")
            return items[:index] + items[index + 1 :]
        first, second = data.draw(
            st.lists(st.integers(0, len(items) - 1), min_size=2, max_size=2, unique=True).filter(
                lambda pair: items[pair[0]] != items[pair[1]]
            ),
            label="swapped",
        )
        swapped = list(items)
        swapped[first], swapped[second] = items[second], items[first]
        return tuple(swapped)

    return mutate


def any_card(data: st.DataObject) -> Card:
    return data.draw(st.sampled_from(FULL_DECK), label="card")


def any_meld(data: st.DataObject) -> TableMeld:
    return data.draw(st.sampled_from([TableMeld(0, "2c 3c 4c"), TableMeld(3, "Qh Qs Qd", ace_low=True)]))


def stand_ins_changed(data: st.DataObject, stand_ins: StandIns) -> StandIns:
    """Other stand-ins (A7): one where there are none; else none, or the first joker standing for another card."""
    if not stand_ins:
        return StandIns({"X1": "2c"})
    (joker, card), *rest = stand_ins.pairs
    taken = {stood for _, stood in rest} | {card}
    other = next(natural for natural in FULL_DECK[:52] if natural not in taken)
    return data.draw(st.sampled_from([StandIns(), StandIns([(joker, other), *rest])]))


def any_result(data: st.DataObject) -> DealScore:
    return data.draw(results())


def optional_cards(data: st.DataObject, cards: tuple[Card, ...] | None) -> object:
    if cards is None:
        return data.draw(st.sampled_from([(), (FULL_DECK[0],)]))
    return data.draw(st.sampled_from([None, changed_tuple(any_card)(data, cards)]))


def optional_set(data: st.DataObject, cards: CardSet | None) -> CardSet | None:
    if cards is None:
        return CardSet()
    return data.draw(st.sampled_from([None, toggled(data, cards)]))


def rules_changed(data: st.DataObject, rules: Rules) -> Rules:
    name = data.draw(st.sampled_from(eq_fields(Rules)), label="switch")
    value = getattr(rules, name)
    return replace(rules, name, rule_mutation(value)(data, value))


def sizes_changed(data: st.DataObject, sizes: tuple[int, ...]) -> tuple[int, ...]:
    seat = data.draw(st.integers(0, 3), label="seat")
    return tuple(size + (index == seat) for index, size in enumerate(sizes))


def mutated(data: st.DataObject, value: T) -> T:
    """*value* with one field, drawn, changed: at any depth for a field that holds attrs values."""
    name = data.draw(st.sampled_from(eq_fields(type(value))), label=f"{type(value).__name__} field")
    return replace(value, name, MUTATIONS[type(value)][name](data, getattr(value, name)))


def one_score_changed(data: st.DataObject, teams: tuple[TeamScore, TeamScore]) -> tuple[TeamScore, TeamScore]:
    team = data.draw(st.integers(0, 1), label="team")
    return (mutated(data, teams[0]), teams[1]) if team == 0 else (teams[0], mutated(data, teams[1]))


COMMON: Final[dict[str, Mutation]] = {
    "rules": rules_changed,
    "phase": other(tuple(Phase)),
    "deal": plus_one,
    "dealer": lambda _, dealer: (dealer + 1) % 4,
    "to_act": other(SEATS),
    "discard_pile": changed_tuple(any_card),
    "melds": changed_tuple(any_meld),
    "obligation": other((None, *FULL_DECK)),
    "picked": toggled,
    "passes": plus_one,
    "went_out": other(SEATS),
    "discarder": other(SEATS),
    "results": changed_tuple(any_result),
}

MUTATIONS: Final[dict[type, dict[str, Mutation]]] = {
    GameState: {
        **COMMON,
        "hands": one_toggled,
        "stock": changed_tuple(any_card),
        "stock_known": negated,
        "known": one_toggled,
    },
    View: {
        **COMMON,
        "seat": other(SEATS),
        "hand": optional_set,
        "hand_sizes": sizes_changed,
        "known": one_toggled,
        "stock_size": plus_one,
        "stock": optional_cards,
    },
    TableMeld: {
        "owner": lambda _, owner: (owner + 1) % 4,
        "laid_down": toggled,
        "layoffs": one_toggled,
        "ace_low": negated,
        "stand_ins": stand_ins_changed,
    },
    DealScore: {
        "deal": plus_one,
        "teams": one_score_changed,
        "went_out": other(SEATS),
        "end": other(tuple(DealEnd)),
    },
    TeamScore: {
        "melded": lambda _, points: 0 if points is None else points + 1,
        "doubling": lambda _, points: 0 if points is None else points + 1,
        "bonus": lambda _, points: 0 if points is None else points + 1,
        "in_hand": lambda _, points: 0 if points is None else points + 1,
        "_total": lambda _, points: 0 if points is None else points + 1,
    },
}


def card_value_changed(data: st.DataObject, values: CardValues) -> CardValues:
    """*values* with the value of one rank, drawn, changed by one (R23)."""
    name = data.draw(st.sampled_from([field.name for field in attrs.fields(CardValues) if field.init]), label="rank")
    current: int = getattr(values, name)
    changes: dict[str, Any] = {name: current + 1 if current < CardValues.MAX_VALUE else current - 1}
    return attrs.evolve(values, **changes)


#: The switches' mutations, by the type of their values.
RULE_MUTATIONS: Final[dict[type, Mutation]] = {bool: negated, int: plus_one, CardValues: card_value_changed}


@st.composite
def results(draw: st.DrawFn) -> DealScore:
    """A deal's result: the score of the table of a played state, or only its totals."""
    state = draw(played_states(max_actions=100))
    went_out = draw(st.sampled_from(SEATS))
    end = DealEnd.WENT_OUT if went_out is not None else draw(st.sampled_from([DealEnd.PASSES, DealEnd.STOCK_EMPTY]))
    result = score_deal(state.hands, state.melds, went_out, rules=state.rules, deal=draw(st.integers(1, 3)), end=end)
    if draw(st.booleans()):
        return result
    return attrs.evolve(result, teams=tuple(TeamScore(total=team.total) for team in result.teams))


def rule_mutation(value: object) -> Mutation:
    if isinstance(value, enum.Enum):
        return other(tuple(type(value)))
    return RULE_MUTATIONS[type(value)]


def check_differs(before: GameState | View, after: GameState | View) -> None:
    assert before != after
    assert fingerprint(before) != fingerprint(after)
    assert fingerprint_int(before) != fingerprint_int(after)


# -- equal values ----------------------------------------------------------------------------------------------


class TestEqualValues:
    """
    Equal values have equal fingerprints, however each was made.
    """

    @given(states())
    def test_a_state_read_back_or_rebuilt(self, state: GameState) -> None:
        expected = fingerprint(state)
        copies = [
            from_json(to_json(state)),
            parse_position(format_position(state)),
            pickle.loads(pickle.dumps(state)),  # noqa: S301 (our own bytes)
            attrs.evolve(state),
        ]
        for copy in copies:
            assert copy is not state
            assert copy == state
            assert expected == fingerprint(copy)
            assert fingerprint_int(state) == fingerprint_int(copy)

    @given(states(), st.sampled_from(SEATS), st.randoms(use_true_random=False))
    def test_a_view_read_back_rebuilt_or_seen_in_another_state(
        self, state: GameState, seat: int | None, rng: random.Random
    ) -> None:
        view = observe(state, seat)
        expected = fingerprint(view)
        copies = [
            observe(state, seat),
            from_json(to_json(view)),
            pickle.loads(pickle.dumps(view)),  # noqa: S301 (our own bytes)
            attrs.evolve(view),
            # Another state the seat cannot tell from this one: its hidden cards dealt anew.
            observe(determinize(view, rng), seat),
        ]
        for copy in copies:
            assert copy == view
            assert expected == fingerprint(copy)

    @given(playouts(rules=rules_variants(), max_actions=150))
    def test_positions_of_a_game_are_told_apart_as_equality_tells_them(self, playout: Playout) -> None:
        states = playout.states
        assert len(set(states)) == len({fingerprint(state) for state in states})
        for seat in SEATS:
            seen = [observe(state, seat) for state in states]
            assert len(set(seen)) == len({fingerprint(view) for view in seen})
        assert not {fingerprint(state) for state in states} & {fingerprint(observe(s, 0)) for s in states}


# -- values that differ in one field ---------------------------------------------------------------------------


class TestEveryField:
    """
    A value that differs from another in any one field that takes part in equality, at any
    depth, has another fingerprint.  A field added to one of these classes fails
    `test_every_field_has_a_mutation` until it has one here, and then the properties check
    that the fingerprint sees it.
    """

    @pytest.mark.parametrize("cls", [GameState, View, TableMeld, DealScore, TeamScore])
    def test_every_field_has_a_mutation(self, cls: type) -> None:
        assert set(eq_fields(cls)) == set(MUTATIONS[cls])

    def test_every_switch_has_a_mutation(self) -> None:
        kinds = {type(getattr(Rules(), name)) for name in eq_fields(Rules)}
        assert set() == {kind for kind in kinds if not issubclass(kind, enum.Enum) and kind not in RULE_MUTATIONS}

    @given(states(), st.data())
    def test_a_state_field(self, state: GameState, data: st.DataObject) -> None:
        for name in eq_fields(GameState):
            check_differs(state, replace(state, name, MUTATIONS[GameState][name](data, getattr(state, name))))

    @given(views(), st.data())
    def test_a_view_field(self, view: View, data: st.DataObject) -> None:
        for name in eq_fields(View):
            check_differs(view, replace(view, name, MUTATIONS[View][name](data, getattr(view, name))))

    @given(states(), st.data())
    def test_a_switch(self, state: GameState, data: st.DataObject) -> None:
        for name in eq_fields(Rules):
            value = getattr(state.rules, name)
            check_differs(state, replace(state, "rules", replace(state.rules, name, rule_mutation(value)(data, value))))

    @given(states(), st.lists(library_strategies.table_melds(), min_size=1, max_size=3), st.data())
    def test_a_field_of_a_meld(self, state: GameState, melds: list[TableMeld], data: st.DataObject) -> None:
        state = replace(state, "melds", tuple(melds))
        index = data.draw(st.integers(0, len(melds) - 1), label="meld")
        for name in eq_fields(TableMeld):
            meld = replace(melds[index], name, MUTATIONS[TableMeld][name](data, getattr(melds[index], name)))
            check_differs(state, replace(state, "melds", (*melds[:index], meld, *melds[index + 1 :])))

    @given(views(), st.lists(results(), min_size=1, max_size=2), st.data())
    def test_a_field_of_a_result_or_of_a_team_score(
        self, view: View, scores: list[DealScore], data: st.DataObject
    ) -> None:
        view = replace(view, "results", tuple(scores))
        index = data.draw(st.integers(0, len(scores) - 1), label="result")
        for name in eq_fields(DealScore):
            result = replace(scores[index], name, MUTATIONS[DealScore][name](data, getattr(scores[index], name)))
            check_differs(view, replace(view, "results", (*scores[:index], result, *scores[index + 1 :])))

    def test_a_score_given_by_its_total_is_not_the_same_score_given_item_by_item(self) -> None:
        state = parse_position(FINISHED)
        totals = parse_position(FINISHED.replace("138.0.0.7:249.0.0.80:p", "131:169:p"))
        assert state.scores == totals.scores
        check_differs(state, totals)

    def test_a_state_and_a_view_never_share_a_fingerprint(self) -> None:
        # The kind of value salts the digest: the same integers give another fingerprint.
        state, view = new_game(), observe(new_game())
        (state_kind, _), (view_kind, _) = encoding(state), encoding(view)
        assert (b"state", b"view") == (state_kind, view_kind)
        assert fingerprint(state) != fingerprint(view)


# -- the encoding ------------------------------------------------------------------------------------------------


FINISHED: Final = (
    "- 2/E game_over - 6d9d4hAh5sX2/AcTdKd6hKhX4/4cAd6sX1/- Kc3hJd8d4s6c X34d N:3c3d3s,E:8s9sTs+N:KsAs+S:JsQs,"
    "E:9cTcJc+E:7c+W:8c,W:2c2h2s+W:2d,N:QcQdQh,E:9hThJh+S:8h,N:7d7h7s,W:5c5d5h - - 6d4h5sX2/AcTdKd6hKhX4/-/- 0 W "
    "138.0.0.7:249.0.0.80:p,113.0.0.104:123.0.25.71:W"
)
MID_TURN: Final = (
    "ace_low_allowed=true 1/N play E 7cJcKc/8c9c7d9dQd9hThJh2s4s6s8sKsX2/6d4h7s/2c6cTc4d9sTsX4 "
    "2dKhJd6h8dAd7h8h5d4c2hJsKdX3 TdX1 E:3c3d3h+N:3s,S:AcAhAs,S:5c5h5s,N:QcQhQs Jh 8c9cJh4s6s8sKs "
    "-/8c9c9dJh4s6s8sKs/-/- 0 - -"
)
TURNED_OVER: Final = (
    "hand_size=12,reshuffle_on_empty_stock=true 2/E draw S 9cTcQcTh4s7s8sTsAsX1X2/7c2d6dKdAd4h8hJsX3/"
    "6cJcTd7hJhQhKhQsX4/4c8cQd2hAh3s6s9sKs ^JdAc6h2s4dKc9h 2c S:3c3d3h,E:5c5d5h+N:5s,W:7d8d9d - - - 0 - "
    "162.0.0.20:291.0.25.0:W"
)


def golden_values() -> dict[str, GameState | View]:
    """Fixed positions: the start, a turn with an obligation, a finished game, a stock turned over; and views."""
    mid_turn, turned_over = parse_position(MID_TURN), parse_position(TURNED_OVER)
    return {
        "start": new_game(),
        "start, dealer 2, variant": new_game(Rules(num_deals=3, next_dealer="winner"), dealer=2),
        "mid turn": mid_turn,
        "finished": parse_position(FINISHED),
        "finished, totals only": parse_position(FINISHED.replace("138.0.0.7:249.0.0.80:p", "131:169:p")),
        "turned over": turned_over,
        "public view of the start": observe(new_game()),
        "mid turn, seat 1": observe(mid_turn, 1),
        "mid turn, public": observe(mid_turn),
        "turned over, seat 2": observe(turned_over, 2),
    }


GOLDEN: Final = {
    "start": "4bdac51274e42f77c4eb9a433327df68",
    "start, dealer 2, variant": "fd9556524942cd904d48661f8f8845f0",
    "mid turn": "7199e4767e9a4c03d3ebb7bd829c427e",
    "finished": "a3cba1cf9c770fe80aaf2f6db89f2aa4",
    "finished, totals only": "7b5d91c6f4cfe1f1eb3e9c6a0519a64a",
    "turned over": "c3a19213067238747d0e9c4efadc8cb7",
    "public view of the start": "5fe81e6ab28939a69a8a0a9587f024ab",
    "mid turn, seat 1": "410a220ab6666537474e59a374e144b3",
    "mid turn, public": "fc8f31a9cea78b8acb54adbc35536195",
    "turned over, seat 2": "23ed6d1a4a36c480c61ce1ebcfb692e7",
}


class TestEncoding:
    """
    The integers a fingerprint is the digest of, and the fingerprints of fixed positions.
    """

    def test_the_start_of_a_game_integer_by_integer(self) -> None:
        kind, numbers = encoding(new_game())
        phase = encoder(GameState)(new_game())[1]
        assert b"state" == kind
        assert [
            0,  # rules: no switch changed from the defaults
            phase,
            0,  # deal
            0,  # dealer
            NONE,  # to_act
            *[0, 0, 0, 0],  # hands
            56,  # the stock's length, then its cards
            *range(56),
            False,  # stock_known
            0,  # discard pile: none
            0,  # melds: none
            NONE,  # obligation
            0,  # picked
            *[0, 0, 0, 0],  # known
            0,  # passes
            NONE,  # went_out
            0,  # results: none
        ] == numbers.tolist()

    def test_a_meld_integer_by_integer(self) -> None:
        meld = TableMeld(2, "4h 5h 6h", [(), "7h", (), "3h"])
        assert [2, CardSet.parse("4h 5h 6h").mask, 0, 1 << 31, 0, 1 << 27, False] == list(encoder(TableMeld)(meld))

    def test_the_rules_are_encoded_by_the_switches_changed(self) -> None:
        # A new switch, at its default, leaves existing fingerprints alone: only changes are written.
        assert (0,) == rules_encoding(Rules())
        assert (1, 9, *b"num_deals", 3) == rules_encoding(Rules(num_deals=3, hand_size=7))
        numbers = rules_encoding(Rules(tie_break="extra_deal", ace_low_allowed=True))
        assert (2, 15, *b"ace_low_allowed", True, 9, *b"tie_break") == numbers[:-1]
        assert (1, 15, *b"ace_low_allowed", True) == rules_encoding(Rules(ace_low_allowed=True, tie_break="draw"))

    def test_r23_card_values_are_encoded_by_their_fourteen_values(self) -> None:
        # R23's table is the default, and so written by no integer; other values by all fourteen.
        assert (0,) == rules_encoding(Rules(card_values=CardValues()))
        values = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1, 50)
        assert (1, 11, *b"card_values", *values) == rules_encoding(Rules(card_values={"A": 1, "X": 50}))
        hundreds = Rules(card_values="/".join(["100"] * 14))
        assert (1, 11, *b"card_values", *[100] * 14) == rules_encoding(hundreds)
        state = new_game(hundreds)
        assert fingerprint(state) != fingerprint(new_game())
        assert fingerprint(state) == fingerprint(from_json(to_json(state), GameState))

    def test_golden_fingerprints(self) -> None:
        # Changing any of these is changing the encoding: it needs a new FINGERPRINT_VERSION, in the changelog.
        assert 1 == FINGERPRINT_VERSION
        assert GOLDEN == {name: fingerprint(value).hex() for name, value in golden_values().items()}

    def test_the_int_form_is_the_bytes_big_endian(self) -> None:
        state = parse_position(MID_TURN)
        assert int.from_bytes(fingerprint(state), "big") == fingerprint_int(state)
        assert 16 == len(fingerprint(state))

    def test_a_field_that_holds_an_attrs_value_or_none(self) -> None:
        @attrs.frozen
        class Holder:
            meld: TableMeld | None
            score: TeamScore

        encode = encoder(Holder)
        assert (0, NONE, NONE, NONE, NONE, 3) == encode(Holder(None, TeamScore(total=3)))
        held = Holder(TableMeld(1, "2c 3c 4c"), TeamScore(1, 0, 0, 0))
        assert (1, 1, 0b111, 0, 0, 0, 0, False, 1, 0, 0, 0, 1) == encode(held)

    def test_a_field_of_an_unforeseen_type_is_refused_when_the_encoder_is_made(self) -> None:
        @attrs.frozen
        class Odd:
            weight: float

        with pytest.raises(TypeError, match="fingerprints cannot encode a value of type <class 'float'>"):
            encoder(Odd)
        with pytest.raises(TypeError, match="fingerprints cannot encode the switch weight of type <class 'float'>"):
            switches(Odd)


# -- other processes -------------------------------------------------------------------------------------------


WORKER: Final = """
import json, sys
from persian_rummy import from_data
from persian_rummy.fingerprints import fingerprint
values = [from_data(item) for item in json.load(sys.stdin)]
print(json.dumps({"fingerprints": [fingerprint(value).hex() for value in values], "hash": hash("persian rummy")}))
"""


def sample_values() -> list[GameState | View]:
    """The golden positions, and states and views of a few games played under a few variants."""
    values: list[GameState | View] = list(golden_values().values())
    for seed, rules in enumerate([Rules(), Rules(ace_low_allowed=True, go_out_by_discard=True), Rules(hand_size=12)]):
        rng = random.Random(seed)  # noqa: S311 (reproducible play)
        state = new_game(rules)
        for step in range(400):
            if state.phase is Phase.GAME_OVER:
                break
            if step % 9 == 0:
                values += [state, observe(state, step % 4), observe(state)]
            state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
    return values


@pytest.fixture(scope="session")
def attrs_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """
    A folder holding a copy of attrs (pure Python), for the Pythons that have none installed.
    """
    folder = tmp_path_factory.mktemp("attrs")
    for package in (attrs, attr):
        source = Path(package.__file__).parent  # type: ignore[arg-type]
        shutil.copytree(source, folder / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def runs(python: str, version: str) -> bool:
    check = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        done = subprocess.run(  # noqa: S603 (an interpreter found on this machine, fixed arguments)
            [python, "-c", check], capture_output=True, text=True, timeout=60, check=False
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == version


def find_python(version: str) -> str | None:
    """
    An interpreter of Python *version* ("3.12"): this one, one on the PATH, or one pyenv installed.
    """
    if version == "{}.{}".format(*sys.version_info[:2]):
        return sys.executable
    candidates = [shutil.which(f"python{version}")]
    pyenv = shutil.which("pyenv")
    if pyenv:
        found = subprocess.run([pyenv, "root"], capture_output=True, text=True, timeout=60, check=False)  # noqa: S603
        root = found.stdout.strip()
        candidates += sorted(str(path) for path in Path(root).glob(f"versions/{version}.*/bin/python{version}"))
    return next((python for python in candidates if python and runs(python, version)), None)


@pytest.mark.once
class TestAcrossProcesses:
    """
    Another process, under another hash seed or another Python, gives the same fingerprints.
    """

    @pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
    def test_the_same_fingerprints_in_other_processes(self, version: str, attrs_copy: Path) -> None:
        python = find_python(version)
        if python is None:
            pytest.skip(f"no Python {version} found (on the PATH or installed by pyenv)")
        values = sample_values()
        payload = json.dumps([to_data(value) for value in values])
        expected = [fingerprint(value).hex() for value in values]
        hashes = {}
        for seed in ("0", "1", "random"):
            env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": f"{SRC}{os.pathsep}{attrs_copy}"}
            done = subprocess.run(  # noqa: S603 (an interpreter found on this machine, fixed arguments)
                [python, "-c", WORKER], input=payload, capture_output=True, text=True, timeout=300, env=env, check=False
            )
            assert 0 == done.returncode, done.stderr
            answer = json.loads(done.stdout)
            assert expected == answer["fingerprints"]
            hashes[seed] = answer["hash"]
        # The seeds took effect: text hashes differently in each process; fingerprints do not.
        assert hashes["0"] != hashes["1"]


# -- arguments ---------------------------------------------------------------------------------------------------


class TestArguments:
    """
    A fingerprint is of a state or a view; anything else is refused with the package's own error.
    """

    @pytest.mark.parametrize("value", [None, 7, "state", Rules(), CardSet(), TableMeld(0, "2c 3c 4c")])
    def test_other_values_are_refused(self, value: object) -> None:
        name = type(value).__name__
        with pytest.raises(InvalidTypeError, match=f"^a fingerprint is of a GameState or a View, got {name}$"):
            fingerprint(value)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError):
            fingerprint_int(value)  # type: ignore[arg-type]

    def test_a_number_beyond_the_encoding_is_refused(self) -> None:
        # No valid state has one; a state built without its checks may.
        with pytest.raises(
            InvalidValueError, match=r"^a number of the GameState is beyond the encoding's 64-bit integers$"
        ):
            fingerprint(replace(new_game(), "deal", 2**63))
