"""
The switch for the open point A7: jokers wild, each standing for one natural card in a set or a run.

Each class quotes the open point or the rule from the rules document.  Positions are written by hand
with `tests.positions.position`; seat 0 (N) is to act, piles are written bottom card first.
"""

from __future__ import annotations

import math
import random

import pytest

from persian_rummy import (
    CardSet,
    Discard,
    GameState,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
    InvalidValueError,
    LayDown,
    LayOff,
    MeldKind,
    Rules,
    StandIns,
    TableMeld,
    TakeDiscard,
    apply,
    determinize,
    format_action,
    format_position,
    from_json,
    legal_actions,
    observe,
    parse_action,
    parse_position,
    to_json,
)
from persian_rummy.events import Event, events_of, view_after
from persian_rummy.melds import is_meld, meld_kind
from persian_rummy.views import count_arrangements
from tests.positions import illegal, low_meld, position

WILD = Rules(jokers_wild=True)
RUN = TableMeld(0, "5h 7h X1", stand_ins={"X1": "6h"})


def texts(state: object) -> list[str]:
    return [format_action(action, state) for action in legal_actions(state)]  # type: ignore[arg-type]


def refused(state: GameState, action: object, reason: str) -> None:
    """
    `apply` refuses *action* at *state* for *reason*, naming A7, and leaves the state as it was.
    """
    before = format_position(state)
    error = illegal(state, action)
    assert ("A7", reason) == (error.rule_text, error.reason)
    assert before == format_position(state)
    assert state == parse_position(before)


class TestA7StandIns:
    """
    A7: "Can a set mix Jokers with naturals? [...] Variants: `jokers_wild` (default False; True = 500-Rum
    style)": what a joker stands for is fixed when it is laid and recorded on the table meld.
    """

    def test_built_from_a_mapping_or_pairs_and_read_back(self) -> None:
        stand_ins = StandIns({"X2": "8h", "X1": "6h"})
        assert "X1=6h X2=8h" == str(stand_ins)
        assert stand_ins == StandIns.parse("X1=6h X2=8h") == StandIns([("X1", "6h"), ("X2", "8h")])
        assert [("X1", "6h"), ("X2", "8h")] == [(str(j), str(c)) for j, c in stand_ins]
        assert (2, "X1 X2", "6h 8h") == (len(stand_ins), str(stand_ins.jokers), str(stand_ins.cards))
        assert "8h" == str(stand_ins.get("X2"))
        assert stand_ins.get("X3") is None
        assert "" == str(StandIns())
        assert not StandIns()
        assert "StandIns.parse('X1=6h X2=8h')" == repr(stand_ins)

    @pytest.mark.parametrize(
        "pairs",
        [{"5h": "6h"}, {"X1": "X2"}, [("X1", "6h"), ("X2", "6h")], [("X1", "6h"), ("X1", "7h")]],
    )
    def test_refuses_what_is_not_a_joker_standing_for_one_natural_card(self, pairs: object) -> None:
        with pytest.raises(InvalidValueError, match="A7"):
            StandIns(pairs)

    def test_bad_text_is_a_notation_error(self) -> None:
        with pytest.raises(InvalidNotationError, match="JOKER=CARD"):
            StandIns.parse("X1:6h")


class TestA7Melds:
    """
    A7 (as decided): the cards a meld represents, its naturals and the cards its jokers stand for,
    form a set or a run; a meld with jokers standing for cards needs a natural card; joker sets
    stay as R11 says.
    """

    def test_a_set_and_a_run_with_jokers(self) -> None:
        assert MeldKind.SET is meld_kind("5h 5s X1", WILD, stand_ins={"X1": "5d"})
        assert MeldKind.RUN is meld_kind("5h 7h X1", WILD, stand_ins={"X1": "6h"})
        assert meld_kind("5h 7h X1", stand_ins={"X1": "6h"}) is None  # jokers are not wild by default
        assert not is_meld("5h 7h X1", WILD, stand_ins={"X1": "8h"})
        assert not is_meld("X1 X2 X3", WILD, stand_ins={"X1": "5h", "X2": "6h", "X3": "7h"})

    def test_a_table_meld_derives_from_what_it_represents(self) -> None:
        meld = RUN.with_layoff(1, "X2", {"X2": "8h"})
        assert "5h X1=6h 7h X2=8h" == str(meld)
        assert ("5h 6h 7h 8h", "5h 7h X1 X2") == (str(meld.represents), str(meld.cards))
        assert (MeldKind.RUN, "Hearts") == (meld.kind, meld.suit.name.title())  # type: ignore[union-attr]
        assert str(CardSet.parse("4h 9h")) == str(CardSet(meld.ends))

    def test_repr_shows_stand_ins_only_when_there_are_some(self) -> None:
        assert "TableMeld(0, CardSet.parse('5h 7h X1'), stand_ins=StandIns.parse('X1=6h'))" == repr(RUN)
        assert "TableMeld(0, CardSet.parse('5h 6h 7h'))" == repr(TableMeld(0, "5h 6h 7h"))

    def test_a_meld_refuses_a_joker_that_stands_for_nothing_among_naturals(self) -> None:
        with pytest.raises(InvalidMeldError, match="A7"):
            TableMeld(0, "5h 7h X1 X2", stand_ins={"X1": "6h"})
        with pytest.raises(InvalidMeldError, match="represented once"):
            TableMeld(0, "5h 6h 7h X1", stand_ins={"X1": "6h"})


class TestA7LayDown:
    """
    A7: "A set may mix jokers and naturals (5♥ 5♠ 🃏1=5♦). A run may hold jokers anywhere (5♥ 🃏1=6♥ 7♥)."
    """

    def test_lays_down_a_run_with_a_joker(self) -> None:
        state = position(rules=WILD, hands=("5h 7h X1 X2 9c", "", "", ""), phase="play")
        after = apply(state, LayDown(0, "5h 7h X1", {"X1": "6h"}))
        assert (RUN,) == after.melds
        assert "9c X2" == str(after.hands[0])
        assert ["N lay X2=4h on 5h", "N lay X2=8h on 5h", "N discard 9c", "N discard X2"] == texts(after)

    def test_lays_down_a_set_with_a_joker(self) -> None:
        state = position(rules=WILD, hands=("5h 5s X1 9c", "", "", ""), phase="play")
        after = apply(state, parse_action("N meld 5h 5s X1=5d", state))
        assert "X1=5d 5h 5s" == str(after.melds[0])
        assert MeldKind.SET is after.melds[0].kind

    def test_every_play_with_jokers_is_listed_once(self) -> None:
        state = position(rules=WILD, hands=("5h 6h X1", "", "", ""), phase="play")
        assert [
            "N meld X1=4h 5h 6h",
            "N meld 5h 6h X1=7h",
            "N discard 5h",
            "N discard 6h",
            "N discard X1",
        ] == texts(state)


class TestA7NaturalCardNeeded:
    """
    A7 (decided): a meld with jokers standing for cards needs one natural card or more; a set of jokers
    stays as R11 says ("3-4 Jokers"), its jokers standing for nothing; a joker among natural cards
    stands for one card, named.
    """

    def test_a_set_of_jokers_is_laid_as_before(self) -> None:
        state = position(rules=WILD, hands=("X1 X2 X3 9c", "", "", ""), phase="play")
        after = apply(state, LayDown(0, "X1 X2 X3"))
        assert ("X1 X2 X3", "X1 X2 X3", MeldKind.SET) == (
            str(after.melds[0]),
            str(after.melds[0].represents),
            after.melds[0].kind,
        )
        assert not after.melds[0].stand_ins

    def test_jokers_alone_standing_for_cards_are_refused(self) -> None:
        state = position(rules=WILD, hands=("X1 X2 X3 9c", "", "", ""), phase="play")
        action = LayDown(0, "X1 X2 X3", {"X1": "5h", "X2": "6h", "X3": "7h"})
        refused(state, action, "a meld with jokers standing for cards needs a natural card")

    def test_a_joker_among_naturals_must_stand_for_a_card(self) -> None:
        state = position(rules=WILD, hands=("5h X1 X2 9c", "", "", ""), phase="play")
        refused(
            state, LayDown(0, "5h X1 X2"), "say what X1 X2 stand(s) for: a joker among natural cards stands for one"
        )
        refused(
            state,
            LayDown(0, "5h X1 X2", {"X1": "6h"}),
            "say what X2 stand(s) for: a joker among natural cards stands for one",
        )

    def test_what_the_meld_represents_must_be_a_meld(self) -> None:
        state = position(rules=WILD, hands=("5h X1 X2 9c", "", "", ""), phase="play")
        refused(state, LayDown(0, "5h X1 X2", {"X1": "6h", "X2": "8h"}), "5h X1=6h X2=8h is not a set or a run")


class TestA7RepresentedOnce:
    """
    A7 (decided): no card is represented twice on the table: a joker stands for no card that is laid,
    in the same play or on the table.
    """

    def test_a_card_laid_and_stood_for_in_one_play(self) -> None:
        state = position(rules=WILD, hands=("5h X1 X2 9c", "", "", ""), phase="play")
        refused(
            state,
            LayDown(0, "5h X1 X2", {"X1": "5h", "X2": "6h"}),
            "5h is laid and stood for: a card is represented once",
        )

    def test_a_card_on_the_table_already(self) -> None:
        state = position(rules=WILD, hands=("9h 9s X2 2c", "", "", ""), melds=(RUN,), phase="play")
        refused(state, LayDown(0, "9h 9s X2", {"X2": "6h"}), "6h is on the table already: a joker cannot stand for it")
        assert "X2=9c 9h 9s" == str(apply(state, LayDown(0, "9h 9s X2", {"X2": "9c"})).melds[1])

    def test_a_joker_laid_off_for_a_card_on_the_table(self) -> None:
        state = position(rules=WILD, hands=("X2 9c", "", "", ""), melds=(RUN,), phase="play")
        refused(state, LayOff(0, 0, "X2", {"X2": "6h"}), "6h is on the table already: a joker cannot stand for it")
        refused(state, LayOff(0, 0, "X2"), "say what X2 stand(s) for: it goes onto 5h X1=6h 7h")
        assert ["N lay X2=4h on 5h", "N lay X2=8h on 5h", "N discard 9c", "N discard X2"] == texts(state)


class TestA7LayOff:
    """
    A7: "Lay-offs may extend past a joker (8♥ onto 5♥ 🃏1=6♥ 7♥), and a joker may be laid off, standing
    for a card the meld takes."
    """

    def test_a_natural_card_past_a_joker(self) -> None:
        state = position(rules=WILD, hands=("8h 2c", "", "", ""), melds=(RUN,), phase="play")
        after = apply(state, LayOff(0, 0, "8h"))
        assert "5h X1=6h 7h 8h" == str(after.melds[0])

    def test_a_joker_laid_off(self) -> None:
        state = position(rules=WILD, hands=("X2 2c", "", "", ""), melds=(RUN,), phase="play")
        after = apply(state, parse_action("N lay X2=8h on 5h", state))
        assert "5h X1=6h 7h X2=8h" == str(after.melds[0])
        assert "StandIns.parse('X1=6h X2=8h')" == repr(after.melds[0].stand_ins)

    def test_a_joker_onto_a_set_of_jokers_stands_for_nothing(self) -> None:
        jokers = TableMeld(1, "X1 X2 X3")
        state = position(rules=WILD, hands=("X4 2c", "", "", ""), melds=(jokers,), phase="play")
        assert "X1 X2 X3 X4" == str(apply(state, LayOff(0, 0, "X4")).melds[0])
        refused(state, LayOff(0, 0, "X4", {"X4": "2d"}), "a joker laid off onto a set of jokers stands for nothing")


class TestA7NoExchange:
    """
    A7 (decided, after pagat's 500 Rum): a joker on the table is never exchanged for the natural card
    it stands for, so that card cannot be laid anywhere.
    """

    def test_the_card_a_joker_holds_is_dead(self) -> None:
        state = position(rules=WILD, hands=("6h 6s 6d 9c", "", "", ""), melds=(RUN,), phase="play")
        assert ["N discard 9c", "N discard 6d", "N discard 6h", "N discard 6s"] == texts(state)
        refused(state, LayDown(0, "6h 6s 6d"), "a joker on the table stands for 6h, which cannot be laid: no exchange")


class TestA7CanonicalJokers:
    """
    A7 (decided): jokers are alike, so the jokers standing for cards are the lowest-numbered the seat
    holds, the lower-numbered standing for the card first in FULL_DECK order.
    """

    def test_another_joker_is_refused_naming_the_one_to_use(self) -> None:
        state = position(rules=WILD, hands=("5h 7h X1 X2 9c", "", "", ""), phase="play")
        refused(
            state,
            LayDown(0, "5h 7h X2", {"X2": "6h"}),
            "the jokers standing for cards are the first the seat holds, in order: play X1=6h, not X2=6h",
        )

    def test_the_order_of_the_cards_stood_for(self) -> None:
        state = position(rules=WILD, hands=("5h X1 X2 9c", "", "", ""), phase="play")
        refused(
            state,
            LayDown(0, "5h X1 X2", {"X1": "7h", "X2": "6h"}),
            "the jokers standing for cards are the first the seat holds, in order: play X1=6h X2=7h, not X1=7h X2=6h",
        )
        assert "5h X1=6h X2=7h" == str(apply(state, LayDown(0, "5h X1 X2", {"X1": "6h", "X2": "7h"})).melds[0])


class TestR15TakenJoker:
    """
    R15 with A7: "A joker taken from the discard pile carries the obligation like any card": it must be
    played at once, with a stand-in.
    """

    def test_a_joker_from_the_pile_must_be_played_first(self) -> None:
        state = position(rules=WILD, hands=("5h 6h 9c", "", "", ""), pile="2c X1")
        assert ["N draw", "N take X1"] == texts(state)
        taken = apply(state, TakeDiscard(0, "X1"))
        assert ["N meld X1=4h 5h 6h", "N meld 5h 6h X1=7h"] == texts(taken)
        assert "(R15, A11)" in str(illegal(taken, Discard(0, "9c")))

    def test_the_joker_taken_is_the_one_that_stands_for_a_card(self) -> None:
        state = position(rules=WILD, hands=("5h 6h X1 9c", "", "", ""), pile="2c X2")
        taken = apply(state, TakeDiscard(0, "X2"))
        plays = texts(taken)
        assert 23 == len(plays)
        assert ["N meld X2=4h 5h 6h", "N meld 5h 6h X2=7h"] == [play for play in plays if "X1" not in play]
        assert "N meld X1=4h 5h 6h X2=7h" in plays
        refused(
            taken,
            LayDown(0, "5h 6h X1", {"X1": "7h"}),
            "the jokers standing for cards are the first the seat holds, in order: play X2=7h, not X1=7h",
        )

    def test_a_joker_that_cannot_be_played_may_not_be_taken(self) -> None:
        state = position(rules=WILD, hands=("5h 9c", "", "", ""), pile="2c X1")
        assert ["N draw"] == texts(state)


class TestA12A8TakeWithAJokerAboveALowAce:
    """
    A12 with A7 and A8: a card may be taken from the pile if it can be played at once, with jokers if
    need be.  Where an ace may be low, it extends a run at both ends: T-J-Q takes K-A above it, the
    joker standing for the king, as well as A-2-...-9 below it.
    """

    def test_an_ace_taken_for_a_run_it_ends_with_a_joker(self) -> None:
        rules = Rules(jokers_wild=True, ace_low_allowed=True)
        state = position(rules=rules, hands=("X1 9c", "", "", ""), melds=(low_meld(1, "Ts Js Qs"),), pile="2c As")
        assert ["N draw", "N take As"] == texts(state)
        taken = apply(state, TakeDiscard(0, "As"))
        assert ["N lay X1=Ks As on Ts"] == [play for play in texts(taken) if "X1" in play]

    def test_without_a_low_ace_as_before(self) -> None:
        run = TableMeld(1, "Ts Js Qs")
        state = position(rules=WILD, hands=("X1 9c", "", "", ""), melds=(run,), pile="2c As")
        assert ["N draw", "N take As"] == texts(state)


class TestR25R26Scoring:
    """
    R23-R26 with A7: a joker counts its own value whatever it stands for; the four-at-once doubling
    counts a meld of four laid in one action, jokers included.
    """

    def test_a_deal_with_jokers(self) -> None:
        # N goes out laying 8h onto 5h X1=6h 7h: N-S melded 5 + 20 + 7 + 8 = 40, the bonus 25, and
        # S holds X2 2d (22); E-W hold Kc and 3s (13).
        state = position(rules=WILD, hands=("8h", "Kc", "X2 2d", "3s"), melds=(RUN,), phase="play")
        result = apply(state, LayOff(0, 0, "8h")).results[-1]
        assert (43, -13) == (result.teams[0].total, result.teams[1].total)
        assert (40, 0, 25, 22) == (
            result.teams[0].melded,
            result.teams[0].doubling,
            result.teams[0].bonus,
            result.teams[0].in_hand,
        )

    def test_four_at_once_with_a_joker_doubles(self) -> None:
        state = position(rules=WILD, hands=("5h 5s 5d X1", "Kc", "2d", "3s"), phase="play")
        result = apply(state, LayDown(0, "5h 5s 5d X1", {"X1": "5c"})).results[-1]
        assert (35, 35, 25, 2) == (
            result.teams[0].melded,
            result.teams[0].doubling,
            result.teams[0].bonus,
            result.teams[0].in_hand,
        )


class TestA7Forms:
    """
    A7: the stand-ins are recorded in action notation, position notation, JSON and repr, and only
    when there are some.
    """

    def test_action_round_trips(self) -> None:
        action = LayDown(2, "5h 7h X1", {"X1": "6h"})
        assert "S meld 5h X1=6h 7h" == str(action)
        assert action == parse_action("S meld 5h X1=6h 7h")
        assert "LayDown(seat=2, cards=CardSet.parse('5h 7h X1'), stand_ins=StandIns.parse('X1=6h'))" == repr(action)
        assert '"stand_ins": {"X1": "6h"}' in to_json(action)
        assert action == from_json(to_json(action))
        assert "stand_ins" not in to_json(LayDown(2, "5h 6h 7h"))
        assert "E lay X2=8h on #0" == str(LayOff(1, 0, "X2", {"X2": "8h"}))

    def test_position_round_trips(self) -> None:
        state = position(rules=WILD, hands=("8h 2c", "", "", ""), melds=(RUN.with_layoff(1, "X2", {"X2": "8h"}),))
        text = format_position(state)
        assert "N:5hX1=6h7h+E:X2=8h" in text
        assert state == parse_position(text)
        assert state == from_json(to_json(state))


class TestA7SwitchOff:
    """
    A7's default: "Jokers not wild": stand-ins are refused without the switch.
    """

    def test_an_action_with_stand_ins_is_illegal(self) -> None:
        state = position(hands=("5h 7h X1 9c", "", "", ""), phase="play")
        refused(
            state,
            LayDown(0, "5h 7h X1", {"X1": "6h"}),
            "jokers are not wild under these rules: a joker stands for no card",
        )

    def test_a_state_with_stand_ins_is_invalid(self) -> None:
        with pytest.raises(InvalidStateError, match="jokers_wild=False"):
            position(hands=("8h 2c", "", "", ""), melds=(RUN,))


class TestA7EventsAndViews:
    """
    A7 with R16-R18: a play with jokers is public, its stand-ins included: every seat's event tells
    them, every view shows them, and the hidden hands a view allows are those that can play a
    joker taken from the pile (R15).
    """

    def test_every_seat_is_told_the_stand_ins(self) -> None:
        state = position(rules=WILD, hands=("5h 7h X1 X2 9c", "2c", "3d", "4s"), phase="play")
        action = LayDown(0, "5h 7h X1", {"X1": "6h"})
        events = events_of(state, action)
        assert all(event == Event(action=action) for event in events)
        after = apply(state, action)
        for seat in range(4):
            assert observe(after, seat) == view_after(observe(state, seat), events[seat])
            assert StandIns.parse("X1=6h") == observe(after, seat).melds[0].stand_ins

    def test_a_hidden_hand_that_takes_a_joker_can_play_it(self) -> None:
        state = position(rules=WILD, hands=("9c", "5h 6h Kd", "3d", "4s"), pile="2c X3", to_act=1)
        taken = apply(state, TakeDiscard(1, "X3"))
        view = observe(taken, 0)
        # 10,636 of the C(53, 3) hidden parts of East's hand let it play X3 (a brute count).
        assert math.factorial(53) // math.factorial(3) // math.comb(53, 3) * 10_636 == count_arrangements(view)
        again = determinize(view, random.Random(7))  # noqa: S311 (a reproducible deal, not cryptography)
        assert view == observe(again, 0)
        assert any(type(action) is LayDown and "X3" in action.cards for action in legal_actions(again))
