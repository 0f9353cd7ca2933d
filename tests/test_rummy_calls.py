"""
The switch for the open point A24: calling "Rummy!" on a discard, out of turn.

Positions are written by hand with `tests.positions.position`; piles are written bottom card
first.  In the position used throughout, North discards 9s, which the run Ts Js Qs on the table
takes, so East, South and West are asked in that order whether they call.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from persian_rummy import (
    CallRummy,
    CardSet,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    Phase,
    Rules,
    apply,
    format_action,
    format_position,
    from_json,
    legal_actions,
    observe,
    parse_action,
    parse_position,
    score_deal,
    to_json,
)
from persian_rummy.bots import GreedyPlayer, RandomPlayer
from persian_rummy.engine import max_deal_length
from persian_rummy.events import events_of, view_after
from persian_rummy.matches import play_match
from persian_rummy.pictures import render_text
from persian_rummy.rl import action_count, action_from_id, id_text, legal_ids
from tests.positions import meld, play, position, rejection

CALLS = Rules(rummy_calls=True)
HANDS = ("9s 4c", "2h 3d", "5h 6d", "8c Ks")
MELDS = (meld(1, "Ts Js Qs"), meld(0, "7c 7d 7h"))


def before_discard(rules: Rules = CALLS, hands: tuple[str, ...] = HANDS) -> GameState:
    """
    North to play, holding 9s and 4c, with the run Ts Js Qs of East and North's three sevens on the table.
    """
    return position(hands=hands, melds=MELDS, pile="2s", phase=Phase.PLAY, rules=rules)


def asked() -> GameState:
    """
    The state after North's discard of 9s: East is asked first.
    """
    return apply(before_discard(), Discard(0, "9s"))


class TestA24Calls:
    """
    A24: '"Calling Rummy!" (taking a discard out of turn) [...] Exists in pagat's 500 Rummy (C4)
    and as a variation (aptur.net S5). [...] Off. `rummy_calls = False`': after a discard that a
    table meld takes, the other seats are asked in turn from the discarder's left.
    """

    def test_a_discard_a_meld_takes_asks_the_discarders_left(self) -> None:
        state = asked()
        assert Phase.CALLS is state.phase
        assert 1 == state.to_act
        assert 0 == state.discarder
        assert "9s" == str(state.discard_pile[-1])
        assert (DeclineCall(1), CallRummy(1)) == legal_actions(state)

    def test_the_seats_are_asked_in_turn_partner_included(self) -> None:
        state = asked()
        seen = []
        for _ in range(3):
            seen.append(state.to_act)
            state = apply(state, DeclineCall(state.to_act))  # type: ignore[arg-type]
        assert [1, 2, 3] == seen

    def test_when_all_decline_the_discarders_left_draws(self) -> None:
        state = play(asked(), DeclineCall(1), DeclineCall(2), DeclineCall(3))
        assert Phase.DRAW is state.phase
        assert 1 == state.to_act
        assert None is state.discarder
        assert "2s 9s" == " ".join(str(card) for card in state.discard_pile)
        assert DrawStock(1) == legal_actions(state)[0]

    def test_the_first_caller_takes_the_card_in_everyones_sight(self) -> None:
        state = play(asked(), DeclineCall(1), CallRummy(2))
        assert Phase.CALLED is state.phase
        assert 2 == state.to_act
        assert 0 == state.discarder
        assert "9s" == str(state.obligation)
        assert CardSet.parse("5h 6d 9s") == state.hands[2]
        assert "9s" == str(state.known[2])
        assert ("2s",) == tuple(str(card) for card in state.discard_pile)
        assert (LayOff(2, 0, "9s"),) == legal_actions(state)

    def test_the_lay_off_scores_for_the_callers_team_and_the_discarders_left_draws(self) -> None:
        state = play(asked(), DeclineCall(1), CallRummy(2), LayOff(2, 0, "9s"))
        assert Phase.DRAW is state.phase
        assert 1 == state.to_act
        assert None is state.discarder
        assert None is state.obligation
        assert "9s" == str(state.melds[0].layoffs[2])
        assert "" == str(state.known[2])
        score = score_deal(state.hands, state.melds, None, rules=CALLS, deal=1)
        # N-S: 7c 7d 7h (21) and the 9s laid off (9); E-W: Ts Js Qs (30); every hand left counts against it.
        assert (30, 30) == (score.teams[0].melded, score.teams[1].melded)

    def test_no_meld_takes_the_card_so_nobody_is_asked(self) -> None:
        state = apply(before_discard(), Discard(0, "4c"))
        assert Phase.DRAW is state.phase
        assert 1 == state.to_act
        assert None is state.discarder

    def test_a_seat_with_no_card_is_not_asked(self) -> None:
        state = apply(before_discard(hands=("9s 4c", "2h 3d", "", "8c Ks 5h 6d")), Discard(0, "9s"))
        assert 1 == state.to_act
        assert 3 == apply(state, DeclineCall(1)).to_act

    def test_with_the_switch_off_nothing_changes(self) -> None:
        off = apply(before_discard(Rules()), Discard(0, "9s"))
        assert Phase.DRAW is off.phase
        assert 1 == off.to_act
        assert " draw E " in format_position(off)
        assert "discarder" not in to_json(off)

    def test_the_bound_on_a_deals_length(self) -> None:
        assert 395 == max_deal_length(Rules())
        assert 644 == max_deal_length(CALLS)


class TestA24Refusals:
    """
    A24: only the seat asked calls or declines, and the seat that called lays off the card called on,
    alone, before anything else; every other action is refused naming A24, the state unchanged.
    """

    def test_a_seat_not_asked_may_not_call(self) -> None:
        error = rejection(asked(), CallRummy(2))
        assert "A24" == error.rule_text
        assert "seat 1 is asked first whether it calls Rummy!, not seat 2" == error.reason

    def test_the_seat_asked_may_not_draw(self) -> None:
        error = rejection(asked(), DrawStock(1))
        assert "A24" == error.rule_text
        assert "seat 1 is asked whether it calls Rummy! on 9s; drawing is not possible now" == error.reason

    def test_nobody_declines_outside_the_calls(self) -> None:
        error = rejection(before_discard(), DeclineCall(0))
        assert "A24" == error.rule_text

    def test_the_caller_lays_off_that_card_alone(self) -> None:
        called = play(asked(), CallRummy(1))
        assert "A24" == rejection(called, LayOff(1, 0, "9s 2h")).rule_text
        assert "A24" == rejection(called, Discard(1, "9s")).rule_text
        assert "A24" == rejection(called, LayDown(1, "2h 3d 9s")).rule_text
        error = rejection(called, LayOff(2, 0, "9s"))
        assert "seat 1 called Rummy! and must lay off 9s; laying off is not possible now" == error.reason


class TestA24Forms:
    """
    A24: the calls and the phases in every form: notation, JSON, views, events and action ids.
    """

    @pytest.mark.parametrize("steps", [0, 1])
    def test_positions_read_back(self, steps: int) -> None:
        state = play(asked(), *[CallRummy(1)][:steps])
        text = format_position(state)
        assert ("calls/N" if steps == 0 else "called/N") == text.split()[2]
        assert state == parse_position(text)
        assert state == from_json(to_json(state))
        assert '"discarder": 0' in to_json(state)

    def test_action_notation(self) -> None:
        state = asked()
        assert "E call" == format_action(CallRummy(1), state)
        assert "S decline" == str(DeclineCall(2))
        assert CallRummy(1) == parse_action("call", state)
        assert DeclineCall(1) == parse_action("E decline")
        assert CallRummy(3) == from_json(to_json(CallRummy(3)))

    def test_views_show_the_discarder_and_the_card_called_on(self) -> None:
        state = asked()
        view = observe(state, 1)
        assert 0 == view.discarder
        assert legal_actions(state) == legal_actions(view)
        after = apply(state, CallRummy(1))
        events = events_of(state, CallRummy(1), after)
        assert all("9s" == str(event.cards) for event in events)
        for seat in range(4):
            assert observe(after, seat) == view_after(observe(state, seat), events[seat])

    def test_action_ids(self) -> None:
        state = asked()
        assert 1066 == action_count(CALLS)
        assert 1066 == action_count(Rules(rummy_calls=True, ace_low_allowed=True))
        assert (1064, 1065) == legal_ids(state)
        assert ("decline to call Rummy!", "call Rummy!") == (id_text(1064, CALLS), id_text(1065, CALLS))
        assert CallRummy(1) == action_from_id(1065, state)
        called = apply(state, CallRummy(1))
        (lay_off,) = legal_ids(called)
        assert LayOff(1, 0, "9s") == action_from_id(lay_off, called)
        assert "lay 9s below Ts" == id_text(lay_off, CALLS)

    def test_a_call_out_of_turn_is_refused_in_every_form(self) -> None:
        with pytest.raises(IllegalActionError, match=r"\(A24\)"):
            apply(asked(), parse_action("W call"))


class TestA24AtTheTable:
    """
    A24 beyond the reducer: the pictures tell who is asked, the greedy player calls whenever it is
    asked (a lay-off only adds its card's points to its team's), and matches play the calls.
    """

    def test_the_picture_says_who_is_asked_and_who_called(self) -> None:
        state = asked()
        assert (
            "E to call Rummy! on the discard of N, or decline (A24)" == render_text(state, symbols=False).split("\n")[1]
        )
        called = apply(state, CallRummy(1))
        assert (
            "E called Rummy! and lays off the card called on (A24)" == render_text(called, symbols=False).split("\n")[1]
        )

    def test_the_greedy_player_calls_and_lays_the_card_off(self) -> None:
        greedy, rng = GreedyPlayer(), random.Random(0)  # noqa: S311 (reproducible play)
        state = asked()
        assert CallRummy(1) == greedy.choose(observe(state, 1), rng)
        called = apply(state, CallRummy(1))
        assert LayOff(1, 0, "9s") == greedy.choose(observe(called, 1), rng)

    def test_a_match_plays_the_calls(self) -> None:
        result = play_match(GreedyPlayer(), RandomPlayer(), 20, rules=CALLS, seed=3, records=True)
        kinds = Counter(type(action) for game in result.games if game.record for action in game.record.actions)
        assert kinds[CallRummy] > 0
        assert kinds[DeclineCall] > 0
        assert result.summary.score_rate > 0.5


class TestA24WithWildJokers:
    """
    A24 with A7: a card that a wild joker on the table stands for is never laid (no exchange), so
    a discard of it is called on by nobody.
    """

    def test_a_card_a_joker_stands_for_asks_nobody(self) -> None:
        rules = "jokers_wild=true,rummy_calls=true"
        state = parse_position(f"{rules} 1/W play N 6h4c/2h3d/5d7d/8cKs * 2s E:5hX1=6h7h,S:6c6d6s - - - 0 - -")
        after = apply(state, Discard(0, "6h"))
        assert (Phase.DRAW, 1, None) == (after.phase, after.to_act, after.discarder)
        asked = apply(state, Discard(0, "4c"))
        assert Phase.DRAW is asked.phase
