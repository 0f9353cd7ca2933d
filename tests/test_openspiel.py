"""
The OpenSpiel game ``python_persian_rummy`` (`persian_rummy.rl.openspiel`).

The classes, by topic:

* the game's type, parameters (the switches of `Rules`) and numbers, exact;
* the chance model: 56 chance steps per deal, uniform over the cards not yet dealt, then a
  `Deal` by the next dealer (R7, A4, A25), and OpenSpiel's CheckChanceOutcomes;
* players' actions as the ids of `persian_rummy.rl.actionids`, returns (R28, A22) and the cut-off;
* observations and information states from `persian_rummy.rl.tensors`, and the observer's kinds;
* clones, serialization and pickles;
* `resample_from_infostate`: OpenSpiel's ResampleInfostateTest, and no leak of hidden cards;
* OpenSpiel's own suites: ``random_sim_test`` on the default rules and two variants, the API
  checks of ``api_test`` on sampled states and ``games_sim_test``'s ``sim_game``;
* games played to the end by OpenSpiel's ISMCTS and MCTS bots against uniform random bots.
"""

from __future__ import annotations

import itertools
import pickle
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.integration_tests import api_test as os_api_test  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.tests import games_sim_test as os_sim  # noqa: E402

from persian_rummy import (  # noqa: E402
    FULL_DECK,
    CardSet,
    Deal,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game,
    observe,
    outcome,
    random_deal,
    strategies,
)
from persian_rummy.events import events_of  # noqa: E402
from persian_rummy.notation import format_position  # noqa: E402
from persian_rummy.rl import actionids, openspiel, tensors  # noqa: E402
from persian_rummy.rl.openspiel import GAME_NAME, game_string, load, rules_of  # noqa: E402
from persian_rummy.state import next_dealer  # noqa: E402
from tests import switches  # noqa: E402

CHANCE = int(pyspiel.PlayerId.CHANCE)
#: The default of each structured switch as a game parameter, by hand.
STRUCTURED_PARAMETERS = {"card_values": "2/3/4/5/6/7/8/9/10/10/10/10/15/20"}
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)


def step(state: Any, rng: random.Random) -> None:
    """
    Apply a uniformly random chance outcome or legal action to *state*.
    """
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def played(game: Any, seed: int) -> Iterator[Any]:
    """
    Every state of a random game of *game*, a clone each, from the start to the end.
    """
    rng = seeded(seed)
    state = game.new_initial_state()
    yield state.clone()
    while not state.is_terminal():
        step(state, rng)
        yield state.clone()


def dealt(game: Any, deck: tuple[int, ...]) -> Any:
    """
    The state after chance deals *deck* (card indices) from the start of a game of *game*.
    """
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    return state


def shuffled(seed: int) -> tuple[int, ...]:
    return tuple(seeded(seed).sample(range(56), 56))


def deck_of(order: tuple[int, ...]) -> tuple[Any, ...]:
    return tuple(FULL_DECK[i] for i in order)


def hidden_sampler(seed: int) -> Any:
    """
    A probability sampler as OpenSpiel passes one: a function giving numbers in [0, 1).
    """
    return seeded(seed).random


# -- the game ----------------------------------------------------------------------------------------------------------


class TestGameType:
    """
    The game is registered with the type a 4-player partnership card game with explicit chance has.
    """

    def test_registered(self) -> None:
        assert GAME_NAME in pyspiel.registered_names()

    def test_type(self) -> None:
        kind = pyspiel.load_game(GAME_NAME).get_type()
        assert (
            "python_persian_rummy",
            "Persian Rummy",
            pyspiel.GameType.Dynamics.SEQUENTIAL,
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            pyspiel.GameType.Utility.ZERO_SUM,
            pyspiel.GameType.RewardModel.TERMINAL,
            4,
            4,
        ) == (
            kind.short_name,
            kind.long_name,
            kind.dynamics,
            kind.chance_mode,
            kind.information,
            kind.utility,
            kind.reward_model,
            kind.min_num_players,
            kind.max_num_players,
        )
        assert (True, True, True, True) == (
            kind.provides_information_state_string,
            kind.provides_information_state_tensor,
            kind.provides_observation_string,
            kind.provides_observation_tensor,
        )

    def test_parameters_are_the_rule_switches_with_their_defaults(self) -> None:
        """
        Every switch of `Rules` is a parameter, its default as OpenSpiel takes it (worked out here,
        not by the game): a boolean or a number as itself, a choice as the text of its value, a
        structured switch as `STRUCTURED_PARAMETERS` holds it.
        """
        expected = {
            name: value.value if name in switches.CHOICES else value
            for name, value in ((name, getattr(Rules(), name)) for name in switches.SCALARS)
        }
        expected |= {name: STRUCTURED_PARAMETERS[name] for name in switches.STRUCTURED}
        assert expected == openspiel.GAME_TYPE.parameter_specification
        assert {"hand_size": 7, "ace_low_allowed": False, "obligation_timing": "immediate"}.items() <= expected.items()

    def test_numbers_of_the_default_game(self) -> None:
        game = pyspiel.load_game(GAME_NAME)
        assert (944, 56, 4, -1.0, 1.0, 0.0) == (
            game.num_distinct_actions(),
            game.max_chance_outcomes(),
            game.num_players(),
            game.min_utility(),
            game.max_utility(),
            game.utility_sum(),
        )
        # 790 actions at most (persian_rummy.engine.max_game_length), less the two deals; 56 chance steps a deal.
        assert (788, 112, 900) == (
            game.max_game_length(),
            game.max_chance_nodes_in_history(),
            game.max_history_length(),
        )
        assert ([tensors.OBSERVATION_SIZE], [tensors.INFORMATION_STATE_SIZE]) == (
            game.observation_tensor_shape(),
            game.information_state_tensor_shape(),
        )

    @pytest.mark.parametrize(
        ("rules", "actions", "length", "chance"),
        [
            (Rules(ace_low_allowed=True), 1064, 788, 112),
            (Rules(num_deals=3), 944, 1182, 168),
            # A24: the two answers to a discard after the ids of a low ace; three more actions a turn.
            (Rules(rummy_calls=True), 1066, 2 * 644 - 2, 112),
            (Rules(tie_break="extra_deal"), 944, 1182, 168),
            # A deal: its Deal, two actions per stock card (27) and per turn taking from the pile (56), 56
            # melds and lay-offs, one pass (A17); two deals, less their Deal actions.
            (Rules(empty_stock_end="first_pass"), 944, 2 * (1 + 2 * (27 + 56) + 56 + 1) - 2, 112),
            # No bound from the rules: cut off so that the record holds at most MAX_ACTIONS actions.
            (Rules(reshuffle_on_empty_stock=True), 944, 100_000 - 2, 112),
            (Rules(top_discard_free=True, num_deals=1), 944, 100_000 - 1, 56),
        ],
    )
    def test_numbers_of_variants(self, rules: Rules, actions: int, length: int, chance: int) -> None:
        game = load(rules)
        assert (actions, length, chance) == (
            game.num_distinct_actions(),
            game.max_game_length(),
            game.max_chance_nodes_in_history(),
        )


class TestParameters:
    """
    The game's parameters are the switches of `Rules`; the game string names those that differ from the defaults.
    """

    def test_default_game_string(self) -> None:
        assert ("python_persian_rummy()", "python_persian_rummy()") == (game_string(), str(load()))
        assert Rules() == rules_of(load(None)) == rules_of(pyspiel.load_game(GAME_NAME))

    def test_variant_game_string(self) -> None:
        rules = Rules(hand_size=10, go_out_bonus=-25, obligation_timing="before_discard", ace_low_allowed=True)
        text = (
            "python_persian_rummy(ace_low_allowed=True,go_out_bonus=-25,hand_size=10,obligation_timing=before_discard)"
        )
        assert text == game_string(rules)
        game = pyspiel.load_game(text)
        assert (rules, text) == (rules_of(game), str(game))
        assert {
            "hand_size": 10,
            "go_out_bonus": -25,
            "ace_low_allowed": True,
            "obligation_timing": "before_discard",
        } == game.get_parameters()

    @settings(max_examples=25)
    @given(strategies.rules(bounded=False))
    def test_every_rules_value_round_trips(self, rules: Rules) -> None:
        game = load(rules)
        assert (rules, game_string(rules)) == (rules_of(game), str(game))
        assert rules == rules_of(pickle.loads(pickle.dumps(game)))  # noqa: S301 (our own pickle)

    def test_a_value_a_switch_does_not_take_is_refused_with_the_librarys_error(self) -> None:
        with pytest.raises(InvalidValueError, match="hand_size must be between 1 and 13"):
            pyspiel.load_game("python_persian_rummy(hand_size=14)")
        with pytest.raises(InvalidValueError, match="NextDealer is one of 'left', 'winner', 'same', not 'nobody'"):
            pyspiel.load_game("python_persian_rummy(next_dealer=nobody)")

    def test_openspiel_refuses_unknown_names_and_wrong_types(self) -> None:
        with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
            pyspiel.load_game("python_persian_rummy(colour=1)")
        with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter hand_size"):
            pyspiel.load_game("python_persian_rummy(hand_size=True)")

    def test_a_game_built_directly_refuses_a_name_that_is_no_switch(self) -> None:
        with pytest.raises(InvalidValueError, match="not a rule switch: 'colour'"):
            openspiel.PersianRummyGame({"colour": 1, "hand_size": 7})
        with pytest.raises(InvalidTypeError, match="hand_size must be an int, got '7'"):
            openspiel.PersianRummyGame({"hand_size": "7"})

    def test_bad_arguments(self) -> None:
        with pytest.raises(InvalidTypeError, match="rules must be a Rules or None, got 'ace_low_allowed=True'"):
            game_string("ace_low_allowed=True")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="game must be a Persian Rummy game of pyspiel"):
            rules_of(pyspiel.load_game("kuhn_poker"))


# -- chance ------------------------------------------------------------------------------------------------------------


class TestChance:
    """
    R7, A25: a deal is 56 chance steps, each the next card of the deck, uniform over the cards
    not yet dealt; the complete order is applied as the `Deal` of the next dealer (A4).
    """

    def test_initial_state_deals_any_of_the_56_cards(self) -> None:
        state = load().new_initial_state()
        assert (CHANCE, True, False) == (state.current_player(), state.is_chance_node(), state.is_terminal())
        assert [(card, 1 / 56) for card in range(56)] == state.chance_outcomes()
        assert list(range(56)) == state.legal_actions()
        assert ("deal 2c", "deal X4") == (state.action_to_string(CHANCE, 0), state.action_to_string(CHANCE, 55))

    def test_outcomes_leave_out_the_cards_dealt(self) -> None:
        state = dealt(load(), (5, 0, 55))
        outcomes = state.chance_outcomes()
        assert [card for card in range(56) if card not in {0, 5, 55}] == [card for card, _ in outcomes]
        assert {1 / 53} == {chance for _, chance in outcomes}
        assert CHANCE == state.current_player()
        assert format_position(new_game()) + "\ndealing 7c2cX4" == str(state)

    def test_the_whole_deck_is_applied_as_one_deal(self) -> None:
        order = shuffled(11)
        state = dealt(load(), order)
        assert apply(new_game(), Deal(0, deck_of(order))) == state.game_state
        assert state.game_state.to_act == state.current_player() == 1

    def test_the_next_deal_is_dealt_by_the_next_dealer(self) -> None:
        game = load(Rules(next_dealer="winner"))
        states = list(played(game, 0))
        first_over = next(s for s in states if s.game_state.phase is Phase.DEAL_OVER)
        order = shuffled(12)
        state = first_over.clone()
        for card in order:
            state.apply_action(card)
        before = first_over.game_state
        assert apply(before, Deal(next_dealer(before), deck_of(order))) == state.game_state
        assert (3, 3) == (before.went_out, state.game_state.dealer)  # A4: the winner deals

    def test_a_card_dealt_twice_or_no_card_is_refused(self) -> None:
        state = dealt(load(), (3,))
        with pytest.raises(IllegalActionError, match="the chance outcome 3 is already dealt"):
            state.apply_action(3)
        with pytest.raises(IllegalActionError, match="the chance outcome 56 is not a card's index 0-55"):
            state.apply_action(56)
        with pytest.raises(InvalidValueError, match="a chance outcome is a card's index 0-55, got 60"):
            state.action_to_string(CHANCE, 60)

    @pytest.mark.parametrize("rules", [Rules(), Rules(ace_low_allowed=True, num_deals=1)])
    def test_check_chance_outcomes(self, rules: Rules) -> None:
        """
        OpenSpiel's CheckChanceOutcomes: at every chance node the probabilities lie in [0, 1] and
        sum to 1, the outcomes are distinct, and they are the legal actions.
        """
        chance_nodes = 0
        for state in played(load(rules), 5):
            if not state.is_chance_node():
                continue
            chance_nodes += 1
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            assert all(0.0 <= chance <= 1.0 for _, chance in outcomes)
            assert sum(chance for _, chance in outcomes) == pytest.approx(1.0, abs=1e-12)
            assert len(set(actions)) == len(actions)
            assert actions == state.legal_actions() == state.legal_actions(CHANCE)
        assert 56 * rules.num_deals == chance_nodes


# -- players' actions and returns --------------------------------------------------------------------------------------


class TestActions:
    """
    R13: a player's actions are the ids of `persian_rummy.rl.actionids`, told by ``id_text``.
    """

    def test_legal_actions_are_the_legal_ids(self) -> None:
        for state in list(played(load(Rules(ace_low_allowed=True)), 21))[::7]:
            if state.is_chance_node() or state.is_terminal():
                continue
            ids = list(actionids.legal_ids(state.game_state))
            assert ids == state.legal_actions() == state.legal_actions(state.current_player())
            others = [p for p in range(4) if p != state.current_player()]
            assert [[], [], []] == [state.legal_actions(p) for p in others]
            rules = state.game_state.rules
            assert [actionids.id_text(i, rules) for i in ids] == [state.action_to_string(i) for i in ids]

    def test_applying_an_id_applies_its_action(self) -> None:
        state = dealt(load(), shuffled(6))
        before = state.game_state
        state.apply_action(45)
        action = actionids.action_from_id(45, before)
        after = apply(before, action)
        assert after == state.game_state
        history = tensors.History().after(events_of(new_game(), Deal(0, deck_of(shuffled(6))))[4])
        assert history.after(events_of(before, action, after)[4]).lines == state.public_history.lines
        assert ("deal 1: N deals, upcard 6s", "E take 6s (6s)") == state.public_history.lines

    def test_an_id_that_names_no_legal_action_is_refused(self) -> None:
        state = dealt(load(), shuffled(6))
        with pytest.raises(IllegalActionError, match=r"action id 58 \(discard 2c\)"):
            state.apply_action(58)
        with pytest.raises(InvalidValueError, match="action id 944 is outside the action space, 0 to 943"):
            state.apply_action(944)


class TestReturns:
    """
    R28, A22: +1 to both partners of the winning team, -1 to the others, 0 for a draw: zero-sum.
    """

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_returns_of_a_finished_game(self, seed: int) -> None:
        *states, last = played(load(Rules(num_deals=1)), seed)
        assert [(0.0,) * 4] == list({tuple(s.returns()): None for s in states})
        result = outcome(last.game_state)
        assert result is not None
        assert (TERMINAL, True, []) == (last.current_player(), last.is_terminal(), last.legal_actions())
        won = 0.0 if result.winner is None else (1.0 if result.winner == 0 else -1.0)
        assert [won, -won, won, -won] == last.returns()
        assert [last.player_return(p) for p in range(4)] == last.returns()

    def test_a_draw_returns_zero(self) -> None:
        """
        A22: a game whose teams finish level is a draw (found by playing seeds with the engine).
        """
        rules = Rules(num_deals=1, go_out_bonus=0)
        engine_rng, end = seeded(57), new_game(rules)
        state = load(rules).new_initial_state()
        while end.phase is not Phase.GAME_OVER:
            if end.is_chance_node:
                deal = random_deal(end, engine_rng)
                for card in deal.deck:
                    state.apply_action(card.index)
                end = apply(end, deal)
            else:
                action = engine_rng.choice(legal_actions(end))
                state.apply_action(actionids.action_id(action, end))
                end = apply(end, action)
        assert end == state.game_state
        assert (TERMINAL, (132, 132), [0.0, 0.0, 0.0, 0.0]) == (state.current_player(), end.scores, state.returns())

    def test_a_game_cut_off_is_terminal_and_a_draw(self) -> None:
        """
        Where the rules bound no game (A18), the game stops after ``max_game_length`` players' actions.
        """
        game = load(Rules(reshuffle_on_empty_stock=True))
        state = dealt(game, shuffled(2))
        at = state._at
        assert 99_998 == at.cap
        state._at = openspiel._Position(at.state, (), at.history, at.cap - 1, at.cap)
        assert (1, False) == (state.current_player(), state.is_terminal())
        state.apply_action(state.legal_actions()[0])
        assert (TERMINAL, True, [], [0.0] * 4) == (
            state.current_player(),
            state.is_terminal(),
            state.legal_actions(),
            state.returns(),
        )
        assert Phase.PLAY is state.game_state.phase


# -- observations ------------------------------------------------------------------------------------------------------


def some_states(seed: int, every: int = 9) -> list[Any]:
    return list(played(load(), seed))[::every]


class TestObservations:
    """
    R7, R14: a seat observes its view (`persian_rummy.observe`); its information state adds the public history.
    """

    @pytest.mark.parametrize("seed", [4, 5])
    def test_strings_and_tensors_are_those_of_persian_rummy_tensors(self, seed: int) -> None:
        for state in some_states(seed):
            for seat in range(4):
                view = observe(state.game_state, seat)
                history = state.public_history
                assert tensors.observation_string(view) == state.observation_string(seat)
                assert tensors.information_state_string(view, history) == state.information_state_string(seat)
                assert tensors.observation_tensor(view).tolist() == state.observation_tensor(seat)
                assert tensors.information_state_tensor(view, history).tolist() == state.information_state_tensor(seat)

    def test_the_history_is_the_spectators_events(self) -> None:
        rng = seeded(7)
        state = load().new_initial_state()
        history = tensors.History()
        while not state.is_terminal():
            if state.is_chance_node():
                before_deal = state.game_state
                step(state, rng)
                if not state.is_chance_node():
                    deal = Deal(state.game_state.dealer, deck_of(tuple(state.history()[-56:])))
                    history = history.after(events_of(before_deal, deal)[4])
                continue
            before = state.game_state
            legal = state.legal_actions()
            choice = legal[rng.randrange(len(legal))]
            history = history.after(events_of(before, actionids.action_from_id(choice, before))[4])
            state.apply_action(choice)
            assert history.lines == state.public_history.lines
        assert history.deals == 2

    def test_private_observation_is_the_cards_only_the_seat_knows(self) -> None:
        game = load()
        observer = game.make_py_observer(
            pyspiel.IIGObservationType(
                public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
            )
        )
        state = dealt(game, shuffled(6))
        assert "private 2c6d6h7hThQsKs" == observer.string_from(state, 1)
        state.apply_action(45)  # E takes the 6s: everyone knows it is in E's hand (R14)
        assert "private 2c6d6h7hThQsKs" == observer.string_from(state, 1)
        assert CardSet("2c 6d 6h 6s 7h Th Qs Ks") == state.game_state.hands[1]
        observer.set_from(state, 1)
        assert ["private_hand"] == list(observer.dict)
        assert CardSet("2c 6d 6h 7h Th Qs Ks").mask == sum(
            1 << i for i, value in enumerate(observer.tensor) if value == 1.0
        )

    def test_public_observations_are_a_spectators(self) -> None:
        game = load()
        state = dealt(game, shuffled(6))
        public = game.make_py_observer(
            pyspiel.IIGObservationType(
                public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
        )
        spectator = observe(state.game_state, None)
        assert tensors.observation_string(spectator) == public.string_from(state, 2)
        public.set_from(state, 2)
        assert tensors.observation_tensor(spectator).tolist() == public.tensor.tolist()
        recall = game.make_py_observer(
            pyspiel.IIGObservationType(public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
        )
        assert tensors.information_state_string(spectator, state.public_history) == recall.string_from(state, 0)
        nothing = game.make_py_observer(
            pyspiel.IIGObservationType(
                public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
        )
        nothing.set_from(state, 0)
        assert ("", None, {}) == (nothing.string_from(state, 0), nothing.tensor, nothing.dict)

    def test_observer_refusals(self) -> None:
        game = load()
        state = dealt(game, shuffled(6))
        every = pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        )
        with pytest.raises(InvalidValueError, match="no observation of every player's cards"):
            game.make_py_observer(every)
        with pytest.raises(InvalidValueError, match=re.escape("take no parameters, got {'x': 1}")):
            game.make_py_observer(None, {"x": 1})
        observer = game.make_py_observer()
        with pytest.raises(InvalidValueError, match="player must be a seat 0-3, got 4"):
            observer.string_from(state, 4)
        with pytest.raises(InvalidTypeError, match="state must be a Persian Rummy state of pyspiel"):
            observer.set_from(pyspiel.load_game("kuhn_poker").new_initial_state(), 0)
        with pytest.raises(pyspiel.SpielError, match=r"player >= 0"):
            state.information_state_string(-1)


# -- clones and serialization ------------------------------------------------------------------------------------------


class TestClonesAndSerialization:
    """
    Clones share the immutable position; states serialize and pickle.
    """

    def test_a_clone_shares_the_position_and_goes_its_own_way(self) -> None:
        state = dealt(load(), shuffled(6))
        clone = state.clone()
        assert (True, True) == (clone.game_state is state.game_state, clone.public_history is state.public_history)
        clone.apply_action(0)
        assert (Phase.DRAW, Phase.PLAY) == (state.game_state.phase, clone.game_state.phase)
        assert (56, 57) == (len(state.history()), len(clone.history()))

    @pytest.mark.parametrize("seed", [8])
    def test_serialize_and_pickle_round_trips(self, seed: int) -> None:
        game = load(Rules(num_deals=1, ace_low_allowed=True))
        for state in list(played(game, seed))[::13]:
            text = pyspiel.serialize_game_and_state(game, state)
            new_game_, new_state = pyspiel.deserialize_game_and_state(text)
            pickled = pickle.loads(pickle.dumps(state))  # noqa: S301 (our own pickle)
            for other in (new_state, pickled):
                assert (str(state), state.history(), state.game_state) == (
                    str(other),
                    other.history(),
                    other.game_state,
                )
                assert state.public_history.lines == other.public_history.lines
            assert str(game) == str(new_game_)


# -- resampling --------------------------------------------------------------------------------------------------------


class TestResample:
    """
    `resample_from_infostate` gives a state the player cannot tell from the real one, and tells
    it nothing it may not see (the leaks of open_spiel#1604 and #1613).
    """

    @pytest.mark.parametrize("rules", [Rules(), Rules(reshuffle_on_empty_stock=True, num_deals=1)])
    def test_resample_infostate(self, rules: Rules) -> None:
        """
        OpenSpiel's ResampleInfostateTest: the information state string and tensor and the
        player to act of each player are those of the state resampled for it.
        """
        sampler = hidden_sampler(0)
        for state in itertools.islice(played(load(rules), 9), 0, 440, 11):
            for player in range(4):
                sample = state.resample_from_infostate(player, sampler)
                assert state.information_state_string(player) == sample.information_state_string(player)
                assert state.information_state_tensor(player) == sample.information_state_tensor(player)
                assert state.observation_string(player) == sample.observation_string(player)
                assert state.current_player() == sample.current_player()
                if player == state.current_player():
                    assert state.legal_actions() == sample.legal_actions()

    def test_no_leak_of_hidden_cards(self) -> None:
        state = next(s for s in played(load(), 12) if s.game_state.deal == 1 and len(s.history()) == 56 + 30)
        sampler = hidden_sampler(1)
        truth = state.game_state
        samples = [state.resample_from_infostate(2, sampler) for _ in range(40)]
        assert {state.information_state_string(2)} == {s.information_state_string(2) for s in samples}
        assert {tuple(state.information_state_tensor(2))} == {tuple(s.information_state_tensor(2)) for s in samples}
        assert {truth.hands[2]} == {s.game_state.hands[2] for s in samples}
        for seat in (0, 1, 3):
            hands = {s.game_state.hands[seat] for s in samples}
            assert len(hands) > 30
            assert {True} == {truth.known[seat] <= hand for hand in hands}
        assert len({s.game_state.stock for s in samples}) == 40

    def test_a_deal_under_way_is_drawn_again(self) -> None:
        state = dealt(load(), shuffled(3)[:20])
        sample = state.resample_from_infostate(0, hidden_sampler(2))
        assert (CHANCE, 36) == (sample.current_player(), len(sample.chance_outcomes()))
        assert state.information_state_string(0) == sample.information_state_string(0)
        assert str(state) != str(sample)

    def test_the_same_sampler_gives_the_same_state(self) -> None:
        state = dealt(load(), shuffled(4))
        first = state.resample_from_infostate(3, hidden_sampler(5))
        again = state.resample_from_infostate(3, hidden_sampler(5))
        assert first.game_state == again.game_state
        assert [] == first.history()

    def test_refusals(self) -> None:
        state = dealt(load(), shuffled(4))
        with pytest.raises(InvalidValueError, match="player_id must be a seat 0-3, got 4"):
            state.resample_from_infostate(4, hidden_sampler(0))


# -- OpenSpiel's suites ------------------------------------------------------------------------------------------------


@pytest.mark.heavy
class TestRandomSimulation:
    """
    OpenSpiel's C++ RandomSimTest: legal actions, clones, serialization, masks, chance sampling,
    observation sizes, rewards and returns, the game length, at every state of random games.

    Heavy (about 45 seconds of one core): ``nox -s conformance`` runs it, not the default sessions.
    """

    def test_default_rules(self) -> None:
        pyspiel.random_sim_test(load(), num_sims=10, serialize=True, verbose=False)

    @pytest.mark.parametrize(
        "rules",
        [
            Rules(ace_low_allowed=True),
            Rules(pass_allows_melding=True),
            Rules(rummy_calls=True),
            Rules(jokers_wild=True),
            Rules(jokers_wild=True, rummy_calls=True),
        ],
    )
    def test_variants(self, rules: Rules) -> None:
        pyspiel.random_sim_test(load(rules), num_sims=5, serialize=True, verbose=False)


class TestPartialTreeAPI(os_api_test.EnforceAPIOnPartialTreeBase):  # type: ignore[misc]  # untyped base
    """
    OpenSpiel's API checks on 400 sampled states: sequence lengths, observations refusing bad
    players, no legal actions for others or at the end, private and public observations.
    """

    game_name = GAME_NAME
    game = pyspiel.load_game(GAME_NAME)


class TestGamesSim(os_sim.parameterized.TestCase):  # type: ignore[misc]  # untyped base
    """
    OpenSpiel's ``sim_game``: pickles of the game and its type, serialization and pickles of
    states at powers of two, clones, and legal actions and returns at the end.
    """

    sim_game = os_sim.GamesSimTest.sim_game
    apply_action = os_sim.GamesSimTest.apply_action
    apply_action_test_clone = os_sim.GamesSimTest.apply_action_test_clone
    serialize_deserialize = os_sim.GamesSimTest.serialize_deserialize

    def test_sim(self) -> None:
        np.random.seed(0)
        self.sim_game(load(Rules(num_deals=1)))


# -- bots --------------------------------------------------------------------------------------------------------------


def play_bots(game: Any, bots: list[Any], seed: int) -> Any:
    """
    A game of *bots* (one per seat) played to the end, chance sampled from *seed*.
    """
    rng = seeded(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            step(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.heavy
class TestBots:
    """
    OpenSpiel's search bots play whole games: ISMCTS with the game's resampler, and MCTS.

    Heavy (about 30 seconds of one core): ``nox -s conformance`` runs it, not the default sessions.
    """

    def test_ismcts_against_random(self) -> None:
        game = load()
        generator = np.random.RandomState(0)
        evaluator = mcts.RandomRolloutEvaluator(1, generator)
        searcher = ismcts.ISMCTSBot(
            game=game, evaluator=evaluator, uct_c=2.0, max_simulations=10, random_state=generator
        )
        bots = [searcher, pyspiel.make_uniform_random_bot(1, 1), searcher, pyspiel.make_uniform_random_bot(3, 3)]
        state = play_bots(game, bots, 0)
        returns = state.returns()
        assert (True, 0.0) == (state.is_terminal(), sum(returns))
        assert (returns[0], returns[1]) == (returns[2], returns[3])
        assert {abs(r) for r in returns} <= {0.0, 1.0}

    def test_mcts_against_random(self) -> None:
        game = load()
        generator = np.random.RandomState(1)
        searcher = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, generator), random_state=generator)
        bots = [pyspiel.make_uniform_random_bot(0, 0), searcher, pyspiel.make_uniform_random_bot(2, 2), searcher]
        state = play_bots(game, bots, 1)
        returns = state.returns()
        assert (True, 0.0) == (state.is_terminal(), sum(returns))
        assert (returns[0], returns[1]) == (returns[2], returns[3])
        assert outcome(state.game_state) is not None
