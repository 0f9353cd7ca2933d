"""
Tensors for learning (persian_rummy.rl.tensors, docs/tensors.md): the observation of a view and the
information state of a seat, as arrays and as text.

The classes, by topic:

* the layouts: contiguous, covering the tensors, and the tables of docs/tensors.md made from them;
* the observation of hand-built positions, part by part, and of reachable views against a slow
  reference written from the view's fields;
* the history part: a hand-played deal told event by event, exact values and lines, and random
  games against a slow reference written from the actions;
* leak-freedom: the hidden cards resampled, the seat's own stock draws changed, the events of
  another observer: the tensors and strings do not change; different hands give different
  observations;
* `History` as a value, and the errors of bad arguments.
"""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

numpy = pytest.importorskip("numpy")

import attrs  # noqa: E402 (after the skip: the module needs numpy)
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from persian_rummy import (  # noqa: E402
    FULL_DECK,
    CallRummy,
    Card,
    CardSet,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    View,
    apply,
    determinize,
    new_game,
    observe,
    parse_action,
)
from persian_rummy.actions import Action  # noqa: E402
from persian_rummy.events import Event, events_of  # noqa: E402
from persian_rummy.rl import tensors as tensors_module  # noqa: E402
from persian_rummy.rl.tensors import (  # noqa: E402
    INFORMATION_STATE_LAYOUT,
    INFORMATION_STATE_SIZE,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    History,
    Segment,
    information_state_layout,
    information_state_size,
    information_state_string,
    information_state_tensor,
    observation_layout,
    observation_size,
    observation_string,
    observation_tensor,
)
from persian_rummy.scoring import DealScore, TeamScore  # noqa: E402
from tests.positions import low_meld, meld, position  # noqa: E402
from tests.strategies import Playout, playouts, rules_variants  # noqa: E402

#: The four seats, then the spectator, in the order of `events_of`.
OBSERVERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
#: The relative seats, in the order of the parts by seat.
WHO = ("self", "left", "partner", "right")
HISTORY_LAYOUT = INFORMATION_STATE_LAYOUT[len(OBSERVATION_LAYOUT) :]
#: Wild jokers (A7), and the part they add to the observation after all the others.
WILD = Rules(jokers_wild=True)
WILD_LAYOUT = observation_layout(WILD)[len(OBSERVATION_LAYOUT) :]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "tensors.md"
Array = Any


def parts(tensor: Array, layout: Sequence[Segment] = INFORMATION_STATE_LAYOUT) -> dict[str, list[float]]:
    """
    The values of *tensor* by the name of each part of *layout* that it covers.
    """
    return {s.name: [float(x) for x in tensor[s.start : s.stop]] for s in layout if s.stop <= len(tensor)}


def history_parts(tensor: Array) -> dict[str, list[float]]:
    """
    The values of a history part (`History.tensor`) by the name of each of its parts.
    """
    return {
        s.name: [float(x) for x in tensor[s.start - OBSERVATION_SIZE : s.stop - OBSERVATION_SIZE]]
        for s in HISTORY_LAYOUT
    }


def cards(values: Sequence[float]) -> str:
    """
    The cards of a 56-wide part whose value is not 0, in `FULL_DECK` order.
    """
    assert len(values) == 56
    return " ".join(str(FULL_DECK[i]) for i, value in enumerate(values) if value)


def values(text: str, value: float = 1.0) -> list[float]:
    """
    A 56-wide part holding *value* at the cards of *text* and 0 elsewhere.
    """
    mask = CardSet.parse(text).mask
    return [value if mask >> i & 1 else 0.0 for i in range(56)]


def places(text: str) -> list[float]:
    """
    A 56-wide part holding k / 56 at the k-th card of *text* (from 1) and 0 elsewhere.
    """
    out = [0.0] * 56
    for place, card in enumerate(text.split(), start=1):
        out[Card.parse(card).index] = f32(place / 56)
    return out


def f32(value: float) -> float:
    return float(numpy.float32(value))


def table(layout: Sequence[Segment]) -> str:
    """
    The Markdown table of *layout*, as docs/tensors.md shows it.
    """
    rows = ["| part | start | size | meaning |", "| --- | ---: | ---: | --- |"]
    rows += [f"| `{s.name}` | {s.start} | {s.size} | {s.meaning} |" for s in layout]
    return "\n".join(rows)


# -- slow references, written from the fields of views and from the actions of games ---------------------------


def relative(seat: int | None, other: int) -> int:
    return (other - (seat or 0)) % 4


def meld_start(table_meld: TableMeld) -> Card:
    """
    The card a table meld begins with: its first in `FULL_DECK` order, but the ace of a run from the ace up (A8).
    """
    in_order = sorted(table_meld.cards, key=lambda card: card.index)
    if table_meld.kind is MeldKind.RUN and table_meld.ace_low and len(in_order) < 13:
        ranks = {card.rank.letter for card in in_order}
        if {"A", "2"} <= ranks and "K" not in ranks:
            return next(card for card in in_order if card.rank.letter == "A")
    return in_order[0]


def reference_observation(view: View) -> Array:
    """
    The observation of *view*, part by part, the slow way.
    """
    layout = observation_layout(view.rules)
    seat, out = view.seat or 0, {s.name: numpy.zeros(s.size, dtype=numpy.float32) for s in layout}
    names = WHO
    for card in view.hand or ():
        out["hand"][card.index] = 1
    for other in range(4):
        for card in view.known[other]:
            out[f"known_{names[relative(seat, other)]}"][card.index] = 1
        out[f"hand_size_{names[relative(seat, other)]}"][0] = view.hand_sizes[other] / 56
    for depth, card in enumerate(reversed(view.discard_pile), start=1):
        out["pile"][card.index] = 1
        out["pile_depth"][card.index] = depth / 56
    rules = view.rules
    for table_meld in view.melds:
        for card in table_meld.cards:
            team = table_meld.contributor(card) % 2
            out["table_own" if team == seat % 2 else "table_other"][card.index] = 1
        out["meld_start"][meld_start(table_meld).index] = 1
        doubles = rules.double_four_of_a_kind if table_meld.kind is MeldKind.SET else rules.double_four_card_runs
        if len(table_meld.laid_down) == 4 and doubles:
            for card in table_meld.laid_down:
                out["doubled"][card.index] = 1
    if view.obligation is not None:
        out["obligation"][view.obligation.index] = 1
    for card in view.picked:
        out["picked"][card.index] = 1
    for place, card in enumerate(view.stock or (), start=1):
        out["stock"][card.index] = 1
        out["stock_order"][card.index] = place / 56
    if view.phase not in {Phase.CALLS, Phase.CALLED}:  # the phases of a call set no phase bit (A24)
        out["phase"][list(Phase).index(view.phase)] = 1
    for name, who in (("to_act", view.to_act), ("dealer", view.dealer), ("went_out", view.went_out)):
        if who is not None:
            out[name][relative(seat, who)] = 1
    out["stock_known"][0] = view.stock is not None
    out["public"][0] = view.seat is None
    out["stock_size"][0] = view.stock_size / 56
    totals = [sum(result.totals[team] for result in view.results) for team in (0, 1)]
    # 500 points for R23's deck of 476, in proportion under other card values; the bonus (or 1) when no card scores.
    deck = sum(rules.points(card) for card in FULL_DECK)
    scale = 500 * deck / 476 if deck else max(abs(rules.go_out_bonus), 1)
    out["score_own"][0] = min(max((totals[seat % 2] + scale) / (2 * scale), 0), 1)
    out["score_other"][0] = min(max((totals[1 - seat % 2] + scale) / (2 * scale), 0), 1)
    out["deal"][0] = min(view.deal / rules.num_deals, 1)
    out["passes"][0] = min(view.passes / 4, 1)
    if rules.jokers_wild:
        for table_meld in view.melds:
            for joker in table_meld.cards:
                stood = table_meld.stand_ins.get(joker)
                if stood is not None:
                    out["stood_for"][stood.index] = 1
    return numpy.concatenate([out[s.name] for s in layout])


def reference_history(steps: Sequence[tuple[GameState, Action, GameState]], seat: int | None) -> Array:
    """
    The history part of *seat* after *steps* (a game from its start), the slow way, from the actions.
    """
    deals = [k for k, (_, action, _) in enumerate(steps) if isinstance(action, Deal)]
    out = {s.name: numpy.zeros(s.size, dtype=numpy.float32) for s in HISTORY_LAYOUT}
    if not deals:
        return numpy.concatenate([out[s.name] for s in HISTORY_LAYOUT])
    names = WHO
    counts: dict[str, int] = {}
    for before, action, after in steps[deals[-1] :]:
        if isinstance(action, Deal):
            out["upcard"][after.discard_pile[0].index] = 1
            continue
        who = names[relative(seat, action.seat)]
        shown: tuple[Card, ...] = ()
        if isinstance(action, DrawStock):
            kind, shown = "draws", before.stock[:1] if before.stock_known else ()
        elif isinstance(action, TakeDiscard):
            kind, shown = "takes", before.discard_pile[before.discard_pile.index(action.card) :]
        elif isinstance(action, Pass):
            kind = "passes"
        elif isinstance(action, DeclineCall):  # counted nowhere (A24)
            continue
        elif isinstance(action, CallRummy):  # the card called on is taken from the pile (A24)
            kind, shown = "takes", before.discard_pile[-1:]
        elif isinstance(action, Discard):
            kind = "discards"
            out[f"discarded_{who}"][action.card.index] = 1
        elif isinstance(action, CallRummy):  # the card called on is taken from the pile (A24)
            kind, shown = "takes", before.discard_pile[-1:]
        elif isinstance(action, DeclineCall):  # counted nowhere
            continue
        else:
            assert isinstance(action, LayDown | LayOff)
            kind = "lay_downs" if isinstance(action, LayDown) else "lay_offs"
            for card in action.cards:
                out[f"melded_{who}"][card.index] = 1
        for card in shown:
            out[f"taken_{who}"][card.index] = 1
        counts[f"{kind}_{who}"] = counts.get(f"{kind}_{who}", 0) + 1
    for name, count in counts.items():
        out[name][0] = min(count, 32) / 32
    return numpy.concatenate([out[s.name] for s in HISTORY_LAYOUT])


def heard(playout: Playout) -> list[list[Event]]:
    """
    Each observer's events of *playout*, the four seats' then the spectator's.
    """
    told: list[list[Event]] = [[] for _ in OBSERVERS]
    for before, action, after in playout.steps:
        for k, event in enumerate(events_of(before, action, after)):
            told[k].append(event)
    return told


def equal(first: Array, second: Array) -> bool:
    return first.dtype == second.dtype and first.shape == second.shape and bool((first == second).all())


# -- the layouts --------------------------------------------------------------------------------------------------


class TestLayout:
    """
    The layouts name every value of the tensors once, in order; docs/tensors.md shows them.
    """

    def test_sizes(self) -> None:
        assert (868, 1620) == (OBSERVATION_SIZE, INFORMATION_STATE_SIZE)
        assert (30, 37) == (len(OBSERVATION_LAYOUT), len(HISTORY_LAYOUT))
        assert (868, 1620) == (observation_size(), information_state_size(Rules(rummy_calls=True)))

    def test_wild_jokers_add_one_part_after_the_observation(self) -> None:
        """
        A7: what the jokers on the table stand for, 56 values after the others, only under the switch.
        """
        assert (924, 1676) == (observation_size(WILD), information_state_size(WILD))
        assert [Segment("stood_for", 868, 56, WILD_LAYOUT[0].meaning)] == list(WILD_LAYOUT)
        assert OBSERVATION_LAYOUT == observation_layout(WILD)[:30]
        info = information_state_layout(WILD)
        assert info[:31] == observation_layout(WILD)
        moved = [(s.name, s.start - 56, s.size) for s in info[31:]]
        assert [(s.name, s.start, s.size) for s in HISTORY_LAYOUT] == moved
        assert OBSERVATION_LAYOUT is observation_layout(Rules(ace_low_allowed=True, rummy_calls=True))
        assert INFORMATION_STATE_LAYOUT is information_state_layout()

    @pytest.mark.parametrize("layout", [OBSERVATION_LAYOUT, INFORMATION_STATE_LAYOUT], ids=["observation", "info"])
    def test_the_parts_are_contiguous_and_cover_the_tensor(self, layout: tuple[Segment, ...]) -> None:
        assert 0 == layout[0].start
        assert [s.stop for s in layout[:-1]] == [s.start for s in layout[1:]]
        assert all(s.size > 0 and s.stop == s.start + s.size and s.meaning for s in layout)
        assert len(layout) == len({s.name for s in layout})
        size = OBSERVATION_SIZE if layout is OBSERVATION_LAYOUT else INFORMATION_STATE_SIZE
        assert size == layout[-1].stop

    def test_the_information_state_begins_with_the_observation(self) -> None:
        assert OBSERVATION_LAYOUT == INFORMATION_STATE_LAYOUT[: len(OBSERVATION_LAYOUT)]
        assert OBSERVATION_SIZE == HISTORY_LAYOUT[0].start

    def test_the_parts_by_seat_come_in_relative_order(self) -> None:
        names = [s.name for s in INFORMATION_STATE_LAYOUT]
        for stem in ("known", "hand_size", "discarded", "taken", "melded", "draws", "passes", "discards"):
            place = names.index(f"{stem}_self")
            assert [f"{stem}_{who}" for who in ("self", "left", "partner", "right")] == names[place : place + 4]

    def test_the_tables_of_the_page_are_the_layouts(self) -> None:
        page = DOCS.read_text(encoding="utf-8")
        shown = re.findall(r"^\| part \|.*?(?=\n\n)", page, flags=re.MULTILINE | re.DOTALL)
        assert [table(OBSERVATION_LAYOUT), table(WILD_LAYOUT), table(HISTORY_LAYOUT)] == shown

    def test_a_segment(self) -> None:
        segment = Segment("hand", 0, 56, "the seat's hand")
        assert (56, OBSERVATION_LAYOUT[0]) == (
            segment.stop,
            attrs.evolve(segment, meaning=OBSERVATION_LAYOUT[0].meaning),
        )

    def test_the_module_lets_out_its_public_names(self) -> None:
        assert sorted(tensors_module.__all__) == dir(tensors_module)
        assert {"History", "Segment", "observation_tensor", "information_state_string"} <= set(dir(tensors_module))


# -- the observation ----------------------------------------------------------------------------------------------

#: Deal 2 of a game, East to meld the Kd it took from the pile with the Qs above it.  North laid
#: down 4h5h6h and East laid off 3h on it, West laid down four jacks at once, South 2c3c4c and
#: East 5c6c7c next to it.  West was seen to take the X1 earlier.  North-South won deal 1.
RESULT = DealScore(1, (TeamScore(total=128), TeamScore(total=-57)), 0, "went_out")
HAND_BUILT = position(
    hands=("As Ad 9h", "Kc Ks Kd Qs 8h", "Tc Td", "X1 X2 3d"),
    pile="9d Ts 2s",
    melds=(meld(0, "4h 5h 6h", s1="3h"), meld(3, "Jc Jd Jh Js"), meld(2, "2c 3c 4c"), meld(1, "5c 6c 7c")),
    to_act=1,
    phase="play",
    dealer=0,
    deal=2,
    obligation="Kd",
    picked="Kd Qs",
    known=("", "Kd Qs", "", "X1"),
    results=[RESULT],
)
#: What every seat and a spectator see alike in HAND_BUILT.
COMMON = {
    "pile": values("9d Ts 2s"),
    "meld_start": values("2c 5c Jc 3h"),
    "doubled": values("Jc Jd Jh Js"),
    "obligation": values("Kd"),
    "picked": values("Kd Qs"),
    "stock": values(""),
    "phase": [0.0, 0.0, 1.0, 0.0, 0.0],
    "went_out": [0.0] * 4,
    "stock_known": [0.0],
    "pile_depth": places("2s Ts 9d"),
    "stock_order": values(""),
    "stock_size": [f32(26 / 56)],
    "deal": [1.0],
    "passes": [0.0],
}


class TestObservationOfAPosition:
    """
    Every part of the observation of a hand-built position, for a seat and for a spectator:
    cards in `FULL_DECK` order, seats relative to the observer, the table by the team each card
    scores for (R26), the pile's depths (R14), the sets of four laid at once (R25).
    """

    def test_east(self) -> None:
        tensor = observation_tensor(observe(HAND_BUILT, 1))
        expected = {
            "hand": values("Kc Ks Kd Qs 8h"),
            "known_self": values("Kd Qs"),
            "known_left": values(""),
            "known_partner": values("X1"),
            "known_right": values(""),
            "table_own": values("5c 6c 7c Jc Jd Jh Js 3h"),
            "table_other": values("2c 3c 4c 4h 5h 6h"),
            "to_act": [1.0, 0.0, 0.0, 0.0],
            "dealer": [0.0, 0.0, 0.0, 1.0],
            "public": [0.0],
            "hand_size_self": [f32(5 / 56)],
            "hand_size_left": [f32(2 / 56)],
            "hand_size_partner": [f32(3 / 56)],
            "hand_size_right": [f32(3 / 56)],
            "score_own": [f32(443 / 1000)],
            "score_other": [f32(628 / 1000)],
        }
        assert {**expected, **COMMON} == parts(tensor, OBSERVATION_LAYOUT)

    def test_a_spectator_sees_it_from_seat_0(self) -> None:
        tensor = observation_tensor(observe(HAND_BUILT))
        expected = {
            "hand": values(""),
            "known_self": values(""),
            "known_left": values("Kd Qs"),
            "known_partner": values(""),
            "known_right": values("X1"),
            "table_own": values("2c 3c 4c 4h 5h 6h"),
            "table_other": values("5c 6c 7c Jc Jd Jh Js 3h"),
            "to_act": [0.0, 1.0, 0.0, 0.0],
            "dealer": [1.0, 0.0, 0.0, 0.0],
            "public": [1.0],
            "hand_size_self": [f32(3 / 56)],
            "hand_size_left": [f32(5 / 56)],
            "hand_size_partner": [f32(2 / 56)],
            "hand_size_right": [f32(3 / 56)],
            "score_own": [f32(628 / 1000)],
            "score_other": [f32(443 / 1000)],
        }
        assert {**expected, **COMMON} == parts(tensor, OBSERVATION_LAYOUT)

    def test_the_string(self) -> None:
        assert (
            "view of E\nrules -\ndeal 2 of 2, dealer N, phase play\nto act E, passes 0, went out -\n"
            "scores NS 128 EW -57\nhand KcKd8hQsKs\nhand sizes N:3 E:5 S:2 W:3\nknown N:- E:KdQs S:- W:X1\n"
            "stock 26\npile 9dTs2s\nmelds N:4h5h6h+E:3h W:JcJdJhJs S:2c3c4c E:5c6c7c\nobligation Kd\npicked KdQs"
        ) == observation_string(observe(HAND_BUILT, 1))
        assert observation_string(observe(HAND_BUILT)).startswith("view of a spectator\n")
        assert "\nhand -\n" in observation_string(observe(HAND_BUILT))

    def test_a_known_stock(self) -> None:
        """
        A stock turned over from the pile is known to all, in order (A18).
        """
        state = position(
            hands=("As Ad 9h", "Kc Ks", "Tc Td", "X1 X2"),
            stock="5s 6s 2h",
            stock_known=True,
            rest_to="pile",
            rules=Rules(reshuffle_on_empty_stock=True),
            to_act=2,
        )
        found = parts(observation_tensor(observe(state, 3)), OBSERVATION_LAYOUT)
        expected = {
            "stock": values("5s 6s 2h"),
            "stock_order": places("5s 6s 2h"),
            "stock_known": [1.0],
            "stock_size": [f32(3 / 56)],
            "to_act": [0.0, 0.0, 0.0, 1.0],
            "dealer": [0.0, 0.0, 1.0, 0.0],
        }
        assert expected == {name: found[name] for name in expected}
        assert "\nstock 3 5s6s2h\n" in observation_string(observe(state, 3))

    def test_runs_from_the_ace_up_start_at_the_ace(self) -> None:
        """
        Under `Rules.ace_low_allowed` a run A-2-3 begins at its ace (A8); Q-K-A at its queen.
        """
        state = position(
            hands=("9h", "Kc", "Tc", "X1"),
            melds=(
                low_meld(0, "Ac 2c 3c"),
                low_meld(1, "Qd Kd Ad"),
                TableMeld(2, CardSet.parse("2h 3h 4h"), ("", "", "", "Ah 5h"), ace_low=True),
                low_meld(3, "2s 3s 4s"),
            ),
            rules=Rules(ace_low_allowed=True),
        )
        assert values("Ac Qd Ah 2s") == parts(observation_tensor(observe(state, 0)))["meld_start"]

    def test_four_card_runs_double_only_under_a20(self) -> None:
        melds = (meld(0, "2d 3d 4d 5d"), meld(1, "Qc Qd Qh Qs"))
        plain = position(hands=("9h", "Kc", "Tc", "X1"), melds=melds)
        doubled = attrs.evolve(plain, rules=Rules(double_four_card_runs=True, double_four_of_a_kind=False))
        assert values("Qc Qd Qh Qs") == parts(observation_tensor(observe(plain, 0)))["doubled"]
        assert values("2d 3d 4d 5d") == parts(observation_tensor(observe(doubled, 0)))["doubled"]

    def test_scores_are_clipped(self) -> None:
        result = DealScore(1, (TeamScore(total=700), TeamScore(total=-250)), 0, "went_out")
        state = attrs.evolve(HAND_BUILT, results=(result,))
        found = parts(observation_tensor(observe(state, 2)))
        assert ([1.0], [0.25]) == (found["score_own"], found["score_other"])

    def test_the_start_of_a_game(self) -> None:
        tensor = observation_tensor(observe(new_game(Rules(num_deals=3), dealer=2), 3))
        nonzero = {
            s.name: [float(x) for x in tensor[s.start : s.stop]]
            for s in OBSERVATION_LAYOUT
            if tensor[s.start : s.stop].any()
        }
        expected = {
            "phase": [1.0, 0.0, 0.0, 0.0, 0.0],
            "dealer": [0.0, 0.0, 0.0, 1.0],
            "stock_size": [1.0],
            "score_own": [0.5],
            "score_other": [0.5],
        }
        assert expected == nonzero

    @given(playouts(rules=rules_variants()), st.sampled_from(OBSERVERS))
    def test_reachable_views_match_the_slow_reference(self, playout: Playout, seat: int | None) -> None:
        view = observe(playout.final, seat)
        tensor = observation_tensor(view)
        layout = observation_layout(view.rules)
        assert (numpy.float32, (observation_size(view.rules),)) == (tensor.dtype, tensor.shape)
        assert 0.0 <= float(tensor.min())
        assert float(tensor.max()) <= 1.0
        assert parts(reference_observation(view), layout) == parts(tensor, layout)


# -- the history --------------------------------------------------------------------------------------------------

#: A deal from the deck in FULL_DECK order (dealer North; upcard 4h, then 5h, 6h... in the
#: stock), and fourteen actions: draws, discards, a take of three cards, a meld, a lay-off.
PLAYED = (
    "E draw",
    "E discard 5d",
    "S draw",
    "S discard 2d",
    "W draw",
    "W discard 3d",
    "N take 5d",
    "N meld 2d3d4d5d",
    "N discard 9c",
    "E draw",
    "E discard Ac",
    "S draw",
    "S lay 6d on 2d",
    "S discard Td",
)


def played() -> tuple[GameState, list[list[Event]]]:
    """
    The state after PLAYED, and each observer's events.
    """
    state = new_game()
    told: list[list[Event]] = [[] for _ in OBSERVERS]
    for text in ("N deal " + "".join(map(str, FULL_DECK)), *PLAYED):
        action = parse_action(text, state)
        for k, event in enumerate(events_of(state, action)):
            told[k].append(event)
        state = apply(state, action)
    return state, told


class TestHistoryOfADeal:
    """
    The public history of a deal, told by the events of each seat: what each seat discarded,
    took from the pile (with every card above the one it wanted, R14) and melded, the counts of
    its actions, and one line per event in action notation.
    """

    def test_east(self) -> None:
        state, told = played()
        found = parts(information_state_tensor(observe(state, 1), told[1]))
        expected = {
            "upcard": values("4h"),
            "discarded_self": values("Ac 5d"),
            "discarded_left": values("2d Td"),
            "discarded_partner": values("3d"),
            "discarded_right": values("9c"),
            "taken_self": values(""),
            "taken_left": values(""),
            "taken_partner": values(""),
            "taken_right": values("2d 3d 5d"),
            "melded_self": values(""),
            "melded_left": values("6d"),
            "melded_partner": values(""),
            "melded_right": values("2d 3d 4d 5d"),
        }
        # By relative seat: East itself, South, West, North.
        counts = {
            "draws": (2, 2, 1, 0),
            "takes": (0, 0, 0, 1),
            "passes": (0, 0, 0, 0),
            "lay_downs": (0, 0, 0, 1),
            "lay_offs": (0, 1, 0, 0),
            "discards": (2, 2, 1, 1),
        }
        expected |= {
            f"{kind}_{who}": [n / 32] for kind, by_seat in counts.items() for who, n in zip(WHO, by_seat, strict=True)
        }
        assert expected == {name: found[name] for name in expected}
        assert parts(observation_tensor(observe(state, 1))) == {s.name: found[s.name] for s in OBSERVATION_LAYOUT}

    def test_the_lines(self) -> None:
        state, told = played()
        lines = (
            "deal 1: N deals, upcard 4h",
            *PLAYED[:6],
            "N take 5d (2d3d5d)",
            *PLAYED[7:],
        )
        assert lines == _fold(told[0]).lines
        for seat in OBSERVERS:
            text = information_state_string(observe(state, seat), told[OBSERVERS.index(seat)])
            assert text == "\n".join((observation_string(observe(state, seat)), "history", *lines))

    def test_every_observer_tells_the_same_history(self) -> None:
        _, told = played()
        histories = [_fold(events) for events in told]
        assert all(history == histories[4] for history in histories)
        assert (1, 15) == (histories[0].deals, len(histories[0].lines))

    def test_a_seats_tensor_is_the_history_turned(self) -> None:
        _, told = played()
        history = _fold(told[4])
        found = history_parts(history.tensor(2))
        assert (values("9c"), values("Ac 5d")) == (found["discarded_partner"], found["discarded_right"])
        assert equal(history.tensor(None), history.tensor(0))

    def test_a_new_deal_starts_afresh(self) -> None:
        _, told = played()
        history = _fold(told[3]).after(Event(dealer=1, upcard="3s", cards="2c 3c 4c 5c 6c 7c 8c"))
        assert (2, "deal 2: E deals, upcard 3s") == (history.deals, history.lines[-1])
        assert "N take 5d (2d3d5d)" in history.lines
        found = history_parts(history.tensor(3))
        assert {"upcard": values("3s")} == {name: value for name, value in found.items() if any(value)}

    def test_the_stock_turned_over_is_public(self) -> None:
        """
        A card drawn from a stock everyone knows is shown to all (A18), and counts as taken.
        """
        state = position(
            hands=("As Ad 9h", "Kc Ks", "Tc Td", "X1 X2"),
            stock="",
            rest_to="pile",
            rules=Rules(reshuffle_on_empty_stock=True),
            to_act=2,
            phase="play",
        )
        history = History().after(Event(dealer=1, upcard="4h"))
        discard = Discard(2, "Td")
        after = apply(state, discard)
        told = events_of(state, discard, after)
        assert told[4].stock == after.stock
        history = history.after(told[4])
        assert history.lines[-2:] == ("S discard Td", f"stock turned over: {''.join(map(str, after.stock))}")
        draw = events_of(after, DrawStock(3))
        public = history.after(draw[4])
        assert public == history.after(draw[3])
        assert public.lines[-1] == f"W draw ({after.stock[0]})"
        assert values(str(after.stock[0])) == history_parts(public.tensor(3))["taken_self"]

    @given(playouts(rules=rules_variants()), st.sampled_from(OBSERVERS))
    def test_games_match_the_slow_reference(self, playout: Playout, seat: int | None) -> None:
        told = heard(playout)[OBSERVERS.index(seat)]
        tensor = information_state_tensor(observe(playout.final, seat), told)
        rules = playout.final.rules
        size = observation_size(rules)
        assert (numpy.float32, (information_state_size(rules),)) == (tensor.dtype, tensor.shape)
        assert 0.0 <= float(tensor.min())
        assert float(tensor.max()) <= 1.0
        assert equal(observation_tensor(observe(playout.final, seat)), tensor[:size])
        reference = reference_history(playout.steps, seat)
        assert history_parts(reference) == history_parts(tensor[size:])

    @given(playouts(rules=rules_variants(bounded=True), max_actions=800))
    def test_a_history_kept_step_by_step_is_the_fold_of_the_events(self, playout: Playout) -> None:
        told = heard(playout)
        history = History()
        for k, (before, action, after) in enumerate(playout.steps):
            history = history.after(events_of(before, action, after)[4])
            if k % 25 == 0:
                assert history_parts(reference_history(playout.steps[: k + 1], 1)) == history_parts(history.tensor(1))
        for seat in OBSERVERS:
            view = observe(playout.final, seat)
            folded = information_state_tensor(view, told[OBSERVERS.index(seat)])
            assert equal(folded, information_state_tensor(view, history))
            assert equal(folded[observation_size(view.rules) :], history.tensor(seat))
            assert information_state_string(view, told[OBSERVERS.index(seat)]) == (
                information_state_string(view, history)
            )


def _fold(events: Sequence[Event]) -> History:
    history = History()
    for event in events:
        history = history.after(event)
    return history


# -- leak-freedom -------------------------------------------------------------------------------------------------


def redrawn(playout: Playout, seat: int) -> list[Event]:
    """
    The events of *seat* in *playout*, each card it drew from a face-down stock replaced by another.
    """
    told = heard(playout)[seat]
    changed = []
    for (before, action, _), event in zip(playout.steps, told, strict=True):
        if isinstance(action, DrawStock) and event.cards and not before.stock_known:
            other = FULL_DECK[(next(iter(event.cards)).index + 17) % 56]
            changed.append(attrs.evolve(event, cards=CardSet([other])))
        else:
            changed.append(event)
    return changed


class TestLeakFreedom:
    """
    The tensors and strings of a seat depend only on what it may see: states it cannot tell
    apart give equal ones, under every rule variant; the cards it drew from a face-down stock
    are not in the history part; seats with different hands see different observations.
    """

    @given(playouts(rules=rules_variants()), st.sampled_from(OBSERVERS), st.integers(0, 2**32 - 1))
    def test_resampled_hidden_cards_change_nothing(self, playout: Playout, seat: int | None, seed: int) -> None:
        view = observe(playout.final, seat)
        other = observe(determinize(view, random.Random(seed)), seat)  # noqa: S311 (not cryptography)
        assert equal(observation_tensor(view), observation_tensor(other))
        assert observation_string(view) == observation_string(other)
        told = heard(playout)
        events, public = told[OBSERVERS.index(seat)], told[4]
        assert _fold(events) == _fold(public)
        assert equal(information_state_tensor(view, events), information_state_tensor(other, public))
        assert information_state_string(view, events) == information_state_string(other, public)

    @given(playouts(rules=rules_variants()), st.integers(0, 3))
    def test_the_seats_own_draws_are_not_in_the_history(self, playout: Playout, seat: int) -> None:
        view = observe(playout.final, seat)
        events, changed = heard(playout)[seat], redrawn(playout, seat)
        assert equal(information_state_tensor(view, events), information_state_tensor(view, changed))
        assert information_state_string(view, events) == information_state_string(view, changed)

    @given(playouts(rules=rules_variants()))
    def test_seats_with_different_hands_see_differently(self, playout: Playout) -> None:
        state = playout.final
        tensors = [observation_tensor(observe(state, seat)) for seat in range(4)]
        for seat in range(4):
            for other in range(seat + 1, 4):
                if state.hands[seat] != state.hands[other]:
                    assert not equal(tensors[seat], tensors[other])
                    assert observation_string(observe(state, seat)) != observation_string(observe(state, other))


# -- History as a value, and errors -------------------------------------------------------------------------------


class TestHistoryValue:
    """
    A `History` is an immutable value: equal histories compare and hash equal, pickle, and are
    never changed by `History.after`.
    """

    def test_a_value(self) -> None:
        _, told = played()
        history = _fold(told[0])
        assert history == pickle.loads(pickle.dumps(history))  # noqa: S301 (a value pickled here)
        assert hash(history) == hash(_fold(told[4]))
        assert "<History of 15 events, 1 deals>" == repr(history)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            history.deals = 3  # type: ignore[misc]
        assert (0, ()) == (History().deals, History().lines)
        assert equal(numpy.zeros(INFORMATION_STATE_SIZE - OBSERVATION_SIZE, dtype=numpy.float32), History().tensor())

    def test_extending_leaves_the_history_as_it_was(self) -> None:
        _, told = played()
        start = History().after(told[0][0])
        start.after(told[0][1])
        assert ("deal 1: N deals, upcard 4h",) == start.lines


class TestErrors:
    """
    Bad arguments raise the library's errors, with messages that name the problem.
    """

    def test_not_a_view(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"^view must be a View, got "):
            observation_tensor(HAND_BUILT)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^view must be a View"):
            observation_string(None)  # type: ignore[arg-type]

    def test_not_events(self) -> None:
        view = observe(HAND_BUILT, 0)
        with pytest.raises(InvalidTypeError, match=r"^events must be a sequence of Event values or a History, got str"):
            information_state_tensor(view, "N draw")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^event must be an Event, got "):
            information_state_string(view, [DrawStock(0)])  # type: ignore[list-item]

    def test_events_that_do_not_reach_the_view(self) -> None:
        _, told = played()
        with pytest.raises(InvalidValueError, match=r"^the events reach deal 1, but the view is of deal 2$"):
            information_state_tensor(observe(HAND_BUILT, 0), told[0])

    def test_events_that_do_not_start_with_the_deal(self) -> None:
        with pytest.raises(InvalidValueError, match=r"^a history starts with the first deal, not with DrawStock"):
            History().after(Event(DrawStock(1)))
        _, told = played()
        with pytest.raises(InvalidValueError, match=r"lays off onto meld 0, but the history shows 0 melds$"):
            History().after(told[0][0]).after(Event(LayOff(2, 0, "6d")))

    @pytest.mark.parametrize(
        ("seat", "error"), [(4, InvalidValueError), (True, InvalidTypeError), ("N", InvalidTypeError)]
    )
    def test_a_seat_that_is_not_one(self, seat: object, error: type[Exception]) -> None:
        with pytest.raises(error, match=r"^seat must be a seat 0-3"):
            History().tensor(seat)  # type: ignore[arg-type]
