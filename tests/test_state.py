"""
The game state: a value that cannot be built broken.

Building a `GameState` by hand runs `check_invariants`: every problem is refused with an
`InvalidStateError` that names it.  The positions below each break one invariant.
"""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    ChanceNodeError,
    Deal,
    DealScore,
    DrawStock,
    GameState,
    InvalidStateError,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    check_invariants,
    legal_actions,
    new_game,
    observe,
    random_deal,
)
from persian_rummy._internal import phase as _phases
from persian_rummy._internal import unchecked as _unchecked
from persian_rummy.engine import is_deal_over
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.state import is_chance, is_turn
from tests.positions import forged, meld, position

# A well-formed result of a first deal, which the forged ones below spoil.
_TEAM = TeamScore(1, 0, 0, 0)
_RESULT = DealScore(1, (_TEAM, _TEAM), None, DealEnd.PASSES)


def refused(**fields: object) -> str:
    with pytest.raises(InvalidStateError) as info:
        position(**fields)  # type: ignore[arg-type]
    return str(info.value)


class TestValidPosition:
    """
    R2: "56 cards: the 52-card French deck plus 4 Jokers." R13: "Draw → meld [...] → discard one
    card, which ends the turn."  A state that keeps every invariant builds: each of the 56 cards
    in one place, a seat to act in the draw phase of its turn.  Each position in the classes
    below breaks one invariant.
    """

    def test_a_valid_position_builds(self) -> None:
        """
        The helper's default position is a valid draw-phase state of deal 1.
        """
        state = position(hands=("Qh Qs", "", "", ""))
        check_invariants(state)
        assert (Phase.DRAW, 0, 54) == (state.phase, state.to_act, len(state.stock))


class TestConservation:
    """
    R2: all 56 cards are present exactly once, in hands, stock, discard pile and melds.
    """

    def test_a_card_twice(self) -> None:
        message = refused(hands=("Qh", "", "", ""), stock="Qh", rest_to="pile")
        assert "card Qh appears more than once (found again in the stock)" == message

    def test_a_card_in_a_meld_and_a_hand(self) -> None:
        message = refused(hands=("Kc", "", "", ""), melds=(meld(0, "Kc Kd Ks"),))
        assert message.startswith("card Kc appears more than once")

    def test_a_missing_card(self) -> None:
        with pytest.raises(InvalidStateError, match=r"cards missing: X4 \(all 56 cards"):
            GameState(phase="draw", deal=1, to_act=0, stock=FULL_DECK[:55])

    def test_check_invariants_refuses_other_values(self) -> None:
        with pytest.raises(InvalidStateError, match="not a GameState: 'state'"):
            check_invariants("state")


class TestTypes:
    """
    Every field has its type; numbers are plain ints.
    """

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"rules": "std"}, "rules must be a Rules, got 'std'"),
            ({"deal": -1}, "deal must be a non-negative int, got -1"),
            ({"deal": 1.0}, "deal must be a non-negative int, got 1.0"),
            ({"passes": True}, "passes must be a non-negative int, got True"),
            ({"dealer": 4}, "dealer must be a seat 0-3, got 4"),
            ({"went_out": "N"}, "went_out must be a seat 0-3 or None, got 'N'"),
        ],
    )
    def test_scalar_fields(self, fields: dict[str, object], message: str) -> None:
        assert message == refused(**fields)

    def test_stock_and_pile_hold_cards(self) -> None:
        with pytest.raises(InvalidStateError, match="stock must hold cards, got 5"):
            GameState(phase="draw", deal=1, to_act=0, stock=[*FULL_DECK[1:], 5])  # type: ignore[list-item]
        with pytest.raises(InvalidStateError, match="discard_pile must be a sequence, got 5"):
            GameState(phase="draw", deal=1, to_act=0, stock=FULL_DECK, discard_pile=5)  # type: ignore[arg-type]

    def test_cards_may_be_written_in_notation(self) -> None:
        """
        A hand, the stock, the pile and the other card fields take cards in notation too.
        """
        stock = [str(card) for card in FULL_DECK]
        assert GameState(phase="deal", stock=FULL_DECK) == GameState(phase="deal", stock=stock)
        assert GameState(phase="deal", stock=FULL_DECK) == GameState(phase="deal", stock="".join(stock))

    def test_the_phase_is_one_of_the_phases(self) -> None:
        with pytest.raises(InvalidValueError, match="Phase is one of 'deal', 'draw', 'play', 'deal_over', 'game_over'"):
            GameState(phase="bogus", stock=FULL_DECK)

    def test_melds_are_table_melds(self) -> None:
        with pytest.raises(InvalidStateError, match="melds must be TableMeld values"):
            GameState(phase="draw", deal=1, to_act=0, stock=FULL_DECK, melds=["Kc Kd Ks"])  # type: ignore[list-item]

    def test_obligation_is_a_card(self) -> None:
        with pytest.raises(InvalidStateError, match="obligation must be a card or None, got 5"):
            GameState(phase="play", deal=1, to_act=0, stock=FULL_DECK, obligation=5)  # type: ignore[arg-type]

    def test_hands_are_four(self) -> None:
        with pytest.raises(InvalidStateError, match="expected four card sets, one per seat, got 3"):
            GameState(phase="draw", deal=1, to_act=0, stock=FULL_DECK, hands=("", "", ""))

    @pytest.mark.parametrize(
        ("result", "message"),
        [
            ("128:57", "results must be DealScore values, got '128:57'"),
            (forged(_RESULT, teams=(_TEAM,)), "a deal's result has two TeamScore"),
            (
                forged(_RESULT, teams=(_TEAM, forged(_TEAM, melded=1.5))),
                "a team's score has four int items or none, and an int total",
            ),
            (
                forged(_RESULT, teams=(_TEAM, forged(_TEAM, _total=2))),
                "a team's total is melded + doubling + bonus - in_hand",
            ),
            (forged(_RESULT, deal="1"), "a result's deal number must be an int, got '1'"),
            (forged(_RESULT, end="passes"), "a result's end must be a DealEnd, got 'passes'"),
            (forged(_RESULT, went_out=2), "a deal ends by going out exactly when a seat went out"),
            (forged(_RESULT, end=DealEnd.WENT_OUT), "a deal ends by going out exactly when a seat went out"),
        ],
    )
    def test_results(self, result: object, message: str) -> None:
        assert refused(deal=2, results=(result,)).startswith(message)


class TestPhases:
    """
    The phase agrees with the seat to act, the deal number and the finished deals.
    """

    def test_phase_deal_comes_before_the_first_deal(self) -> None:
        assert "phase deal comes only before the first deal (deal 0, no results)" == refused(
            phase="deal", to_act=None, deal=1
        )

    def test_phase_deal_has_the_deck_undealt(self) -> None:
        message = refused(phase="deal", to_act=None, deal=0, hands=("Qh", "", "", ""))
        assert "before the first deal all 56 cards lie undealt in the stock, in FULL_DECK order" == message

    def test_someone_acts_in_a_turn(self) -> None:
        assert "in phase draw a seat 0-3 must be to act, got None" == refused(to_act=None, dealer=0)

    def test_nobody_acts_between_deals(self) -> None:
        assert "nobody is to act in phase deal_over, got seat 1" == refused(phase="deal_over", to_act=1)

    def test_a_deal_in_progress_has_its_predecessors_finished(self) -> None:
        assert "deal 2 is in progress, so 1 deal(s) must be finished, got 0" == refused(deal=2)

    def test_a_deal_in_progress_has_nobody_out(self) -> None:
        message = refused(went_out=1)
        assert "a deal in progress cannot have a player who went out (R19 ends the deal)" == message

    def test_a_finished_deal_has_its_result(self) -> None:
        assert "deal 1 is over, so 1 deal(s) must be finished, got 0" == refused(phase="deal_over", to_act=None)

    def test_deals_beyond_the_rules(self) -> None:
        assert "deal 3 is beyond the 2 deal(s) of the rules" == refused(deal=3)

    def test_results_in_order(self) -> None:
        result = DealScore(2, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.PASSES)
        message = refused(deal=2, results=(result,))
        assert "results must be deals 1, 2, ... in order; result 1 is for deal 2" == message


class TestPhaseQuestions:
    """
    R5, A4: the next action is a deal in phases deal and deal_over; R13, A24: a seat is to act in phases
    draw and play, and in calls and called; R19, R22: the deal is over in phases deal_over and game_over;
    R21, A17: passes in a row are counted in phases draw, deal_over and game_over.  Each question is
    answered for every phase, by `persian_rummy._internal.phase`, where `Phase` is defined; users ask
    the first two beside `Phase` (`is_chance`, `is_turn`).
    """

    def test_the_phase_is_one_class_shown_where_users_import_it(self) -> None:
        assert Phase is _phases.Phase
        assert ("persian_rummy.state", "Phase") == (Phase.__module__, Phase.__qualname__)
        assert [Phase.DRAW] == [pickle.loads(pickle.dumps(Phase.DRAW))]  # noqa: S301 (our own pickle)

    def test_the_phases_of_each_question(self) -> None:
        assert frozenset({Phase.DEAL, Phase.DEAL_OVER}) == _phases.CHANCE
        assert frozenset({Phase.DRAW, Phase.PLAY, Phase.CALLS, Phase.CALLED}) == _phases.TURN
        assert frozenset({Phase.DEAL_OVER, Phase.GAME_OVER}) == _phases.OVER
        assert ["draw", "deal_over", "game_over"] == [p.value for p in Phase if p in _phases.COUNTING_PASSES]

    @pytest.mark.parametrize("phase", list(Phase), ids=str)
    def test_a_state_answers_as_its_phase(self, phase: Phase) -> None:
        state = forged(position(hands=("Qh", "Kd", "2c", "3s")), phase=phase)
        assert (phase in _phases.CHANCE) == state.is_chance_node
        assert (phase in _phases.OVER) == is_deal_over(state)
        assert (phase in _phases.OVER) == (state.hands == _unchecked.view_of(state, 0).known)

    @pytest.mark.parametrize("phase", list(Phase), ids=str)
    def test_users_ask_beside_phase(self, phase: Phase) -> None:
        state = forged(position(hands=("Qh", "Kd", "2c", "3s")), phase=phase)
        assert (phase in _phases.CHANCE, phase in _phases.TURN) == (is_chance(phase), is_turn(phase))
        assert (state.is_chance_node, phase in _phases.TURN) == (is_chance(state.phase), is_turn(state.phase))

    @pytest.mark.parametrize("bad", ["draw", None, 1])
    def test_a_phase_and_nothing_else(self, bad: object) -> None:
        with pytest.raises(InvalidTypeError, match=r"^phase must be a Phase, got "):
            is_chance(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^phase must be a Phase, got "):
            is_turn(bad)  # type: ignore[arg-type]


class TestTurn:
    """
    R15, A9-A13: the pending card and the picked cards exist only in the play phase, where they must be.
    """

    def test_no_pending_card_while_drawing(self) -> None:
        message = refused(hands=("Qh", "", "", ""), obligation="Qh", picked="Qh")
        assert "only in phase play can a taken card be pending or picked cards be recorded (phase draw)" == message

    def test_pending_card_in_hand(self) -> None:
        message = refused(phase="play", hands=("Qh", "", "", ""), obligation="Qs", picked="Qs")
        assert "the card to play, Qs, must be in the hand of seat 0 (R15)" == message

    def test_picked_cards_in_hand_or_on_the_table(self) -> None:
        message = refused(phase="play", hands=("Qh", "", "", ""), picked="Qs")
        assert "picked cards must be in the hand of the seat to act or on the table" == message

    def test_pending_card_was_picked(self) -> None:
        message = refused(
            phase="play", hands=("Qh Qs", "", "", ""), obligation="Qh", picked="Qs", known=("Qs", "", "", "")
        )
        assert "the card to play must be one of the cards taken from the discard pile this turn" == message

    def test_immediate_obligation_plays_the_pending_card_first(self) -> None:
        message = refused(
            phase="play",
            hands=("Qh", "", "", ""),
            melds=(meld(0, "2c 3c 4c"),),
            obligation="Qh",
            picked="Qh 4c",
            known=("Qh", "", "", ""),
        )
        assert "with immediate obligation no other card can be played before the card taken (A11)" == message

    def test_known_cards_are_held(self) -> None:
        message = refused(hands=("Qh", "", "", ""), known=("Qs", "", "", ""))
        assert "known cards of seat 0 (Qs) are not in its hand" == message


class TestPasses:
    """
    R21, A17: passes are counted only with an empty stock, and never reach the number that ends the deal.
    """

    def test_passes_need_an_empty_stock(self) -> None:
        assert "a player may pass only when the stock is empty (R21)" == refused(passes=1)

    def test_no_passes_in_the_play_phase(self) -> None:
        message = refused(phase="play", passes=1, hands=("Qh", "", "", ""), rest_to="pile")
        assert "passes are counted only between turns of an empty-stock deal, not in phase play" == message

    def test_four_passes_end_the_deal(self) -> None:
        message = refused(passes=4, rest_to="pile")
        assert "4 passes in a row is more than the rules allow (all_pass)" == message

    def test_no_turn_starts_with_an_empty_stock_when_that_ends_the_deal(self) -> None:
        message = refused(rules=Rules(empty_stock_end="immediately"), rest_to="pile")
        assert "with empty_stock_end='immediately' no turn starts with an empty stock" == message


def _ended_by_passes(**fields: object) -> GameState:
    result = DealScore(1, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.PASSES)
    values: dict[str, object] = {
        "phase": "deal_over",
        "to_act": None,
        "rest_to": "pile",
        "passes": 4,
        "results": (result,),
    }
    values.update(fields)
    return position(**values)  # type: ignore[arg-type]


class TestEndOfDeal:
    """
    R19, R22, R24, A17: a finished deal's table agrees with its result.
    """

    def test_a_consistent_end(self) -> None:
        state = _ended_by_passes()
        assert (Phase.DEAL_OVER, (0, 0)) == (state.phase, state.scores)

    def test_the_result_is_the_score_of_the_table(self) -> None:
        with pytest.raises(InvalidStateError, match="does not match the table"):
            _ended_by_passes(hands=("Qh", "", "", ""))

    def test_went_out_matches_the_result(self) -> None:
        with pytest.raises(InvalidStateError, match="went_out must match the last deal's result"):
            _ended_by_passes(went_out=0)

    def test_the_seat_out_has_no_cards(self) -> None:
        result = DealScore(1, (TeamScore(0, 0, 25, 10), TeamScore(0, 0, 0, 0)), 0, DealEnd.WENT_OUT)
        with pytest.raises(InvalidStateError, match=r"seat 0 went out, so its hand must be empty \(R19\)"):
            position(phase="deal_over", to_act=None, hands=("Qh", "", "", ""), went_out=0, results=(result,))

    def test_passes_end_with_an_empty_stock(self) -> None:
        with pytest.raises(InvalidStateError, match=r"a deal ended by passes has an empty stock and 4 pass\(es\)"):
            _ended_by_passes(passes=3)

    def test_no_passes_after_going_out(self) -> None:
        result = DealScore(1, (TeamScore(0, 0, 25, 0), TeamScore(0, 0, 0, 0)), 0, DealEnd.WENT_OUT)
        with pytest.raises(InvalidStateError, match="a deal that ended went out has no passes in a row, but for"):
            position(phase="deal_over", to_act=None, went_out=0, results=(result,), passes=1, rest_to="pile")

    def test_passes_before_melding_out(self) -> None:
        """
        A16, A17: with `pass_allows_melding`, a player melds out after passes, fewer than end the deal.
        """
        result = DealScore(1, (TeamScore(0, 0, 25, 0), TeamScore(0, 0, 0, 0)), 0, DealEnd.WENT_OUT)
        melding = Rules(pass_allows_melding=True)

        def ended(passes: int) -> GameState:
            return position(
                rules=melding,
                phase="deal_over",
                to_act=None,
                went_out=0,
                results=(result,),
                passes=passes,
                rest_to="pile",
            )

        assert [0, 1, 2, 3] == [ended(passes).passes for passes in range(4)]
        with pytest.raises(InvalidStateError, match="a deal that ended went out has no passes in a row, but for"):
            ended(4)

    def test_stock_empty_only_when_the_rules_say_so(self) -> None:
        result = DealScore(1, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.STOCK_EMPTY)
        with pytest.raises(InvalidStateError, match="only with empty_stock_end='immediately'"):
            position(phase="deal_over", to_act=None, results=(result,), rest_to="pile")

    def test_game_over_only_after_the_last_deal(self) -> None:
        with pytest.raises(InvalidStateError, match=r"the game lasts 2 deal\(s\); it cannot be over after 1"):
            _ended_by_passes(phase="game_over")

    def test_between_deals_only_before_the_last(self) -> None:
        first = DealScore(1, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.PASSES)
        second = attrs.evolve(first, deal=2)
        with pytest.raises(InvalidStateError, match="after deal 2 the game is over, not between deals"):
            _ended_by_passes(deal=2, results=(first, second))


class TestSeatToAct:
    """
    R13: "Draw → meld [...] → discard one card, which ends the turn."  In a turn `seat_to_act` is the
    seat to act, `to_act`, typed as a seat, for a state and for the view of that seat; where no seat
    acts it raises: the next action is a deal (R5, phases deal and deal_over), or the game is over (R27).
    """

    def test_the_seat_of_a_turn(self) -> None:
        state = position(hands=("Qh", "Kd", "2c", "3s"), to_act=2)
        assert (2, 2) == (state.to_act, state.seat_to_act)
        assert (2, 2, 2) == (observe(state, 2).seat, observe(state, 2).to_act, observe(state, 2).seat_to_act)

    def test_the_seat_after_a_deal(self) -> None:
        dealt = apply(new_game(dealer=1), Deal(1, FULL_DECK))
        assert (Phase.DRAW, 2, 2) == (dealt.phase, dealt.seat_to_act, observe(dealt, 0).seat_to_act)

    def test_no_seat_before_the_first_deal(self) -> None:
        message = "no seat is to act in phase 'deal': the next action is a Deal"
        with pytest.raises(ChanceNodeError) as info:
            _ = new_game().seat_to_act
        assert message == str(info.value)
        with pytest.raises(ChanceNodeError) as info:
            _ = observe(new_game(), 0).seat_to_act
        assert message == str(info.value)

    def test_no_seat_between_deals(self) -> None:
        state = _ended_by_passes()
        message = "no seat is to act in phase 'deal_over': the next action is a Deal"
        with pytest.raises(ChanceNodeError) as info:
            _ = state.seat_to_act
        assert message == str(info.value)
        with pytest.raises(ChanceNodeError) as info:
            _ = observe(state, 3).seat_to_act
        assert message == str(info.value)

    def test_no_seat_once_the_game_is_over(self) -> None:
        first = DealScore(1, (TeamScore(0, 0, 0, 0), TeamScore(0, 0, 0, 0)), None, DealEnd.PASSES)
        state = _ended_by_passes(phase="game_over", deal=2, results=(first, attrs.evolve(first, deal=2)))
        assert (Phase.GAME_OVER, None) == (state.phase, state.to_act)
        for value in (state, observe(state, 1)):
            with pytest.raises(InvalidValueError) as info:
                _ = value.seat_to_act
            assert "no seat is to act: the game is over (R27)" == str(info.value)
            assert not isinstance(info.value, ChanceNodeError)


class TestValue:
    """
    States are values: equal when their fields are, hashable, never copied.
    """

    def test_equal_states_hash_alike_and_serve_as_keys(self) -> None:
        rng = random.Random(3)  # noqa: S311
        state = apply(new_game(), random_deal(new_game(), rng))
        again = apply(new_game(), random_deal(new_game(), random.Random(3)))  # noqa: S311
        assert state == again
        assert state is not again
        assert hash(state) == hash(again)
        assert {state: "seen"}[again] == "seen"

    def test_copies_are_the_state_itself(self) -> None:
        state = apply(new_game(), random_deal(new_game(), random.Random(4)))  # noqa: S311
        assert copy.copy(state) is state
        assert copy.deepcopy(state) is state

    def test_chance_node(self) -> None:
        state = new_game()
        assert state.is_chance_node
        dealt = apply(state, random_deal(state, random.Random(5)))  # noqa: S311
        assert not dealt.is_chance_node

    def test_card_fields_take_any_cards(self) -> None:
        state = new_game()
        dealt = apply(state, random_deal(state, random.Random(6)))  # noqa: S311
        again = attrs.evolve(dealt, picked=[], known=[[], "", CardSet(), ()])
        assert dealt == again

    def test_check_invariants_finds_a_state_broken_behind_its_back(self) -> None:
        """
        `check_invariants` checks a state again: one changed in place, against its frozenness, is refused.
        """
        broken = apply(new_game(), random_deal(new_game(), random.Random(7)))  # noqa: S311
        object.__setattr__(broken, "passes", 2)
        with pytest.raises(InvalidStateError, match=r"a player may pass only when the stock is empty \(R21\)"):
            check_invariants(broken)

    def test_new_game_checks_the_dealer(self) -> None:
        with pytest.raises(ValueError, match="dealer must be a seat 0-3, got 4"):
            new_game(dealer=4)

    def test_evolve_validates(self) -> None:
        state = apply(new_game(), random_deal(new_game(), random.Random(6)))  # noqa: S311
        with pytest.raises(InvalidStateError, match="nobody is to act in phase game_over"):
            attrs.evolve(state, phase=Phase.GAME_OVER)

    def test_engine_states_pass_the_checks(self) -> None:
        rng = random.Random(7)  # noqa: S311
        state = new_game()
        state = apply(state, random_deal(state, rng))
        for _ in range(40):
            check_invariants(state)
            state = apply(state, rng.choice(legal_actions(state)))
        again = GameState(**{a.name: getattr(state, a.name) for a in attrs.fields(GameState) if a.init})
        assert again == state

    def test_taking_records_picked_and_known_cards(self) -> None:
        state = position(hands=("Qh Qs 2c", "", "", ""), pile="Qd 5h", stock="3c")
        taken = apply(state, TakeDiscard(0, "Qd"))
        assert (Card.parse("Qd"), CardSet.parse("Qd 5h")) == (taken.obligation, taken.picked)
        assert CardSet.parse("Qd 5h") == taken.known[0]
        drawn = apply(state, DrawStock(0))
        assert (None, CardSet()) == (drawn.obligation, drawn.picked)
