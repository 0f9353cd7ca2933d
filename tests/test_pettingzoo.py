"""
The PettingZoo environment (persian_rummy.rl.pettingzoo): PettingZoo's own suites, and the game it plays.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test.api_test import api_test
from pettingzoo.test.render_test import render_test
from pettingzoo.test.seed_test import seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from persian_rummy import (
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    PlayerAction,
    Rules,
    apply,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.rl import _env as _rlenv
from persian_rummy.rl.actionids import action_count, action_from_id, action_id, action_mask, legal_actions_by_id
from persian_rummy.rl.pettingzoo import AGENTS, PersianRummyEnv, env, raw_env
from persian_rummy.rl.tensors import OBSERVATION_SIZE, observation_tensor
from persian_rummy.serialize import to_data
from persian_rummy.strategies import rules as any_rules

#: What PettingZoo's api_test says of every environment whose observations are dicts and
#: which is not one of its own (it keeps a list of its own such environments).
DICT_OBSERVATION_WARNINGS = (
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
)


def random_id(observation: dict[str, Any] | None, choices: np.random.Generator) -> int:
    """
    One of the legal ids of *observation*'s mask, each as likely.
    """
    assert observation is not None
    return int(choices.choice(np.flatnonzero(observation["action_mask"])))


Step = tuple[str, int | None, dict[str, float], dict[str, Any]]


def play(game: PersianRummyEnv, seed: int, policy_seed: int = 0) -> list[Step]:
    """
    A game of *game* reset with *seed*, every agent choosing a random legal id: each step's
    agent, action, rewards after it, and the info the agent had before it.
    """
    choices = np.random.default_rng(policy_seed)
    game.reset(seed=seed)
    steps: list[Step] = []
    for agent in game.agent_iter():
        observation, _, termination, truncation, info = game.last()
        action = None if termination or truncation else random_id(observation, choices)
        game.step(action)
        steps.append((agent, action, dict(game.rewards), info))
    return steps


def dealt(seed: int, rules: Rules | None = None) -> GameState:
    """
    The first deal as the environment documents it: a ``random.Random(seed)`` draws the first
    dealer, then shuffles the deck.
    """
    deck = random.Random(seed)  # noqa: S311 (reproducible play)
    state = new_game(rules, dealer=deck.randrange(4))
    return apply(state, random_deal(state, deck))


class TestPettingZooSuites:
    """
    PettingZoo's conformance tests pass: the AEC API, seeding, and rendering.
    """

    @pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
    def test_api_test(self, capsys: pytest.CaptureFixture[str]) -> None:
        api_test(env(), num_cycles=1000)  # type: ignore[no-untyped-call]
        assert "Passed API test" in capsys.readouterr().out

    @pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
    @pytest.mark.parametrize(
        "settings",
        [
            {"rules": Rules(ace_low_allowed=True, hand_size=10)},
            {"reward": "outcome", "dealer": 3},
            {"rules": Rules(top_discard_free=True), "max_steps": 50},
            {"rules": Rules(rummy_calls=True)},
            {"rules": Rules(jokers_wild=True)},
            {"rules": Rules(jokers_wild=True, rummy_calls=True, ace_low_allowed=True)},
        ],
    )
    def test_api_test_of_other_settings(self, settings: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
        api_test(env(**settings), num_cycles=1000)  # type: ignore[no-untyped-call]
        assert "Passed API test" in capsys.readouterr().out

    def test_seed_test(self) -> None:
        seed_test(env, num_cycles=500)  # type: ignore[no-untyped-call]

    def test_render_test(self, capsys: pytest.CaptureFixture[str]) -> None:
        render_test(env)  # type: ignore[arg-type]  # typed for Gymnasium's environments
        # In the mode "human", 5 calls of render and 4 x 3 steps, each printing the position.
        assert 17 == capsys.readouterr().out.count("Persian Rummy, deal 1 of 2")

    def test_the_illegal_move_wrapper_reads_the_mask(self, caplog: pytest.LogCaptureFixture) -> None:
        """
        PettingZoo's wrapper that ends the game on an illegal move instead of raising finds the mask.
        """
        wrapped = TerminateIllegalWrapper(env(), illegal_reward=-1)
        wrapped.reset(seed=0)
        agent = wrapped.agent_selection
        wrapped.last()
        wrapped.step(action_count() - 1)
        assert "Illegal move made" in caplog.text
        assert (-1.0, True) == (wrapped.rewards[agent], all(wrapped.terminations.values()))


class TestSpaces:
    """
    The agents and their spaces: one observation and one action space per agent, the same
    object at every call, sized by the rules (persian_rummy.rl.actionids, persian_rummy.rl.tensors).
    """

    def test_agents(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=0)
        assert (list(AGENTS), list(AGENTS)) == (game.possible_agents, game.agents)
        assert ("seat_0", "seat_1", "seat_2", "seat_3") == AGENTS

    def test_spaces(self) -> None:
        game = PersianRummyEnv()
        space = game.observation_space("seat_1")
        assert space is game.observation_space("seat_1")
        assert space is not game.observation_space("seat_2")
        assert (944, (OBSERVATION_SIZE,), (944,)) == (
            game.action_space("seat_1").n,  # type: ignore[attr-defined]
            space["observation"].shape,  # type: ignore[index]
            space["action_mask"].shape,  # type: ignore[index]
        )

    def test_the_action_space_follows_the_rules(self) -> None:
        rules = Rules(ace_low_allowed=True)
        game = PersianRummyEnv(rules)
        assert action_count(rules) == game.action_space("seat_0").n > 944  # type: ignore[attr-defined]

    def test_raw_env_is_the_class(self) -> None:
        assert raw_env is PersianRummyEnv
        assert isinstance(env().unwrapped, PersianRummyEnv)


class TestReset:
    """
    reset(seed) deals the first deal from ``random.Random(seed)``: the first dealer drawn
    (unless given), then the deck shuffled (R7).  The seat left of the dealer is to act (R6).
    """

    @pytest.mark.parametrize("seed", [0, 7, 2**40])
    def test_the_seed_makes_the_deal(self, seed: int) -> None:
        game = PersianRummyEnv()
        game.reset(seed=seed)
        state = dealt(seed)
        assert state == game.game_state
        assert AGENTS[state.to_act] == game.agent_selection  # type: ignore[index]

    def test_a_numpy_seed_is_an_int(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=np.int64(7))  # type: ignore[arg-type]
        assert dealt(7) == game.game_state

    def test_the_dealer_given(self) -> None:
        game = PersianRummyEnv(dealer=2)
        game.reset(seed=5)
        deck = random.Random(5)  # noqa: S311 (reproducible play)
        deck.randrange(4)  # drawn all the same, so that the deck does not depend on the dealer
        state = new_game(dealer=2)
        assert apply(state, random_deal(state, deck)) == game.game_state

    def test_without_a_seed_the_source_goes_on(self) -> None:
        first, second = PersianRummyEnv(), PersianRummyEnv()
        for game in (first, second):
            game.reset(seed=3)
            game.reset()
        assert first.game_state == second.game_state
        assert dealt(3) != first.game_state

    def test_after_reset(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=1, options={"anything": 1})
        assert (dict.fromkeys(AGENTS, 0.0), dict.fromkeys(AGENTS, False), dict.fromkeys(AGENTS, False)) == (
            game.rewards,
            game.terminations,
            game.truncations,
        )
        assert {agent: {} for agent in AGENTS} == game.infos

    def test_a_seed_that_is_no_int(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"seed must be an int or None, got 1\.5"):
            PersianRummyEnv().reset(seed=1.5)  # type: ignore[arg-type]


class TestObservations:
    """
    Each agent observes its own view (persian_rummy.observe) as a tensor, and a mask of its
    legal ids while it is to act, zeros otherwise.
    """

    def test_every_agent_at_every_step(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=11)
        choices = np.random.default_rng(11)
        for agent in game.agent_iter():
            state = game.game_state
            for seat, other in enumerate(AGENTS):
                observation = game.observe(other)
                assert np.array_equal(observation_tensor(observe(state, seat)), observation["observation"])
                acting = seat == state.to_act
                expected = action_mask(state) if acting else bytes(944)
                assert expected == observation["action_mask"].tobytes()
                assert (np.float32, np.int8) == (observation["observation"].dtype, observation["action_mask"].dtype)
            _, _, termination, _, _ = game.last()
            game.step(None if termination else random_id(game.observe(agent), choices))

    def test_the_arrays_are_new_at_every_call(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=0)
        one, two = game.observe("seat_0"), game.observe("seat_0")
        assert not np.shares_memory(one["observation"], two["observation"])
        assert not np.shares_memory(one["action_mask"], two["action_mask"])

    def test_an_unknown_agent(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=0)
        with pytest.raises(InvalidValueError, match="no agent is called 'player_0'"):
            game.observe("player_0")


class TestTurns:
    """
    A turn (draw, melds, discard: R14-R18) is several steps of one agent; the deals are no steps.
    """

    def test_the_agent_to_act_is_the_seat_to_act(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=2)
        choices = np.random.default_rng(2)
        seen = []
        for agent in game.agent_iter():
            observation, _, termination, _, _ = game.last()
            if termination:
                game.step(None)
                continue
            state = game.game_state
            assert (AGENTS[state.to_act], True) == (agent, state.phase in {Phase.DRAW, Phase.PLAY})  # type: ignore[index]
            seen.append((agent, state.phase))
            game.step(random_id(observation, choices))
        turns = [agent for agent, phase in seen if phase is Phase.DRAW]
        assert len(turns) < len(seen)

    def test_the_drawing_agent_goes_on(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        agent = game.agent_selection
        game.step(action_id(DrawStock(3), game.game_state))
        assert (agent, Phase.PLAY) == (game.agent_selection, game.game_state.phase)


class TestRewards:
    """
    The rewards: zero-sum, partners alike (R1), and adding up to the game's margin (R24, R28).
    """

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_a_whole_game(self, seed: int) -> None:
        game = PersianRummyEnv()
        steps = play(game, seed, policy_seed=seed)
        totals = dict.fromkeys(AGENTS, 0.0)
        for _, _, rewards, _ in steps:
            assert 0.0 == sum(rewards.values())
            if len(rewards) == 4:
                assert rewards["seat_0"] == rewards["seat_2"] == -rewards["seat_1"] == -rewards["seat_3"]
            for agent, reward in rewards.items():
                totals[agent] += reward
        state = game.game_state
        assert Phase.GAME_OVER == state.phase
        expected = sum((r.totals[0] - r.totals[1]) / game.reward_scale for r in state.results)
        assert expected == totals["seat_0"] == totals["seat_2"] == -totals["seat_1"] == -totals["seat_3"]
        assert pytest.approx((state.scores[0] - state.scores[1]) / 1954) == totals["seat_0"]

    def test_the_scale(self) -> None:
        assert 1954 == PersianRummyEnv().reward_scale
        assert 3 * (2 * 476 + 100) == PersianRummyEnv(Rules(num_deals=3, go_out_bonus=-100)).reward_scale

    def test_rewards_come_at_the_end_of_each_deal(self) -> None:
        game = PersianRummyEnv()
        steps = play(game, 4, policy_seed=4)
        rewarded = [index for index, (_, _, rewards, _) in enumerate(steps) if any(rewards.values())]
        assert len(game.game_state.results) == len(rewarded)

    def test_the_outcome(self) -> None:
        game = PersianRummyEnv(reward="outcome")
        steps = play(game, 4, policy_seed=4)
        rewarded = [rewards for _, _, rewards, _ in steps if any(rewards.values())]
        team_0, team_1 = game.game_state.scores
        won = 1.0 if team_0 > team_1 else -1.0
        assert [{"seat_0": won, "seat_1": -won, "seat_2": won, "seat_3": -won}] == rewarded

    def test_the_cumulative_reward_waits_for_the_agent(self) -> None:
        game = PersianRummyEnv()
        steps = play(game, 5, policy_seed=5)
        last = max(index for index, (_, _, rewards, _) in enumerate(steps) if any(rewards.values()))
        assert all(agent not in rewards or rewards[agent] == 0 for agent, _, rewards, _ in steps[last + 1 :])

    @given(rules=any_rules(), seed=st.integers(0, 2**32))
    def test_any_rules(self, rules: Rules, seed: int) -> None:
        game = PersianRummyEnv(rules)
        for _, _, rewards, _ in play(game, seed, policy_seed=seed):
            assert 0.0 == sum(rewards.values())
        state = game.game_state
        expected = sum((r.totals[0] - r.totals[1]) / game.reward_scale for r in state.results)
        assert abs(expected) <= 1.0
        assert len(state.results) in {rules.num_deals, rules.max_deals}


class TestEnd:
    """
    At the end of the game (R27) every agent is terminated, told the result, and removed by a
    last step with `None`.
    """

    def test_the_end(self) -> None:
        game = PersianRummyEnv()
        steps = play(game, 3, policy_seed=3)
        state = game.game_state
        ends = [(agent, info) for agent, action, _, info in steps if action is None]
        assert (sorted(AGENTS), [], Phase.GAME_OVER) == (sorted(agent for agent, _ in ends), game.agents, state.phase)
        winner = -1 if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
        results = [to_data(result) for result in state.results]
        deals = [list(result.totals) for result in state.results]
        told = {"results": results, "deals": deals, "scores": list(state.scores), "winner": winner}
        assert [told] * 4 == [info for _, info in ends]

    def test_infos_tell_each_deal(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=8)
        choices = np.random.default_rng(8)
        while not game.game_state.results:
            game.step(random_id(game.observe(game.agent_selection), choices))
        state = game.game_state
        told = {
            "results": [to_data(state.results[0])],
            "deals": [list(state.results[0].totals)],
            "scores": list(state.scores),
        }
        assert told == game.infos["seat_1"]
        assert (1, 2) == (len(state.results), state.deal)


class TestTruncation:
    """
    ``max_steps`` truncates a game; under rules where a deal may go on for ever (A9, A18) a game
    is truncated after 10,000 actions unless told otherwise.
    """

    def test_truncated(self) -> None:
        game = PersianRummyEnv(max_steps=10)
        steps = play(game, 0)
        assert [action is not None for _, action, _, _ in steps] == [True] * 10 + [False] * 4
        assert all(not observation["action_mask"].any() for observation in map(game.observe, AGENTS))

    def test_the_default_limits(self) -> None:
        assert (None, 10_000, 10_000, 5) == (
            PersianRummyEnv().max_steps,
            PersianRummyEnv(Rules(top_discard_free=True)).max_steps,
            PersianRummyEnv(Rules(reshuffle_on_empty_stock=True)).max_steps,
            PersianRummyEnv(Rules(reshuffle_on_empty_stock=True), max_steps=5).max_steps,
        )


class TestIllegalIds:
    """
    An id that names no legal action raises IllegalActionError naming it and why, as
    `persian_rummy.apply` does, and leaves the environment as it was.
    """

    def test_an_illegal_id(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        state, agent = game.game_state, game.agent_selection
        with pytest.raises(IllegalActionError, match=r"action id 943 \(lay As above Ks\) is not") as raised:
            game.step(943)
        assert 943 == raised.value.action
        assert (state, agent) == (game.game_state, game.agent_selection)
        game.step(0)
        assert Phase.PLAY == game.game_state.phase

    @pytest.mark.parametrize(
        ("action", "error", "message"),
        [
            (944, InvalidValueError, "action id 944 is outside the action space, 0 to 943"),
            (-1, InvalidValueError, "action id -1 is outside the action space"),
            (1.0, InvalidTypeError, "an action id must be an int, got 1.0"),
            (True, InvalidTypeError, "an action id must be an int, got True"),
            (None, InvalidTypeError, "an action id must be an int, got None"),
        ],
    )
    def test_not_an_id(self, action: object, error: type[Exception], message: str) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        with pytest.raises(error, match=message):
            game.step(action)  # type: ignore[arg-type]

    def test_numpy_integers(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        game.step(np.int32(0))  # type: ignore[arg-type]
        assert Phase.PLAY == game.game_state.phase


class TestLegalActionsOnce:
    """
    The mask an agent observes and the step it then plays work the legal actions out once between them.
    """

    def test_observe_then_step(self, monkeypatch: pytest.MonkeyPatch) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        state = game.game_state
        calls: list[GameState] = []

        def counted(position: GameState) -> dict[int, PlayerAction]:
            calls.append(position)
            return legal_actions_by_id(position)

        monkeypatch.setattr(_rlenv, "legal_actions_by_id", counted)
        mask = game.observe(game.agent_selection)["action_mask"]
        assert np.array_equal(np.frombuffer(action_mask(state), dtype=np.int8), mask)
        chosen = int(mask.nonzero()[0][-1])
        game.observe(game.agent_selection)
        game.step(np.int64(chosen))  # type: ignore[arg-type]
        assert [state] == calls
        assert apply(state, action_from_id(chosen, state)) == game.game_state

    def test_a_step_without_observing_first(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=7)
        before = game.game_state
        chosen = max(legal_actions_by_id(before))
        game.step(chosen)
        assert apply(before, action_from_id(chosen, before)) == game.game_state


class TestReproducibility:
    """
    The same seed and the same actions give the same game, in another environment, after a
    pickle, or after any number of games.
    """

    def test_two_environments(self) -> None:
        assert play(PersianRummyEnv(), 9) == play(PersianRummyEnv(), 9)

    def test_a_second_game_with_the_same_seed(self) -> None:
        game = PersianRummyEnv()
        first = play(game, 9)
        play(game, 10)
        assert first == play(game, 9)

    def test_a_pickled_environment_goes_on_alike(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=6)
        choices = np.random.default_rng(6)
        for _ in range(30):
            game.step(random_id(game.observe(game.agent_selection), choices))
        copy = pickle.loads(pickle.dumps(game))  # noqa: S301 (our own data)
        for each in (game, copy):
            policy = np.random.default_rng(1)
            while each.agents and not each.terminations[each.agent_selection]:
                each.step(random_id(each.observe(each.agent_selection), policy))
        assert game.game_state == copy.game_state


class TestRender:
    """
    The render modes: "ansi" returns the text of the position, "human" prints it.
    """

    TEXT = """\
Persian Rummy, deal 1 of 2, dealer W: N (seat_0) to play
  played: N draw
  N (seat_0): 2c 5c 9c Ac 3d 9d Qd 6s
  E (seat_1): 3c 4d 3h 9h Jh 4s Qs
  S (seat_2): Qc 4h 5h 3s 9s Ks X3
  W (seat_3): 7c Kd Qh Ah 7s 8s X2
  stock: 26 cards; discard pile, bottom to top: Kc
  scores: N-S 0, E-W 0"""

    def test_ansi(self) -> None:
        game = PersianRummyEnv(render_mode="ansi")
        game.reset(seed=0)
        game.step(0)
        assert self.TEXT == game.render()

    def test_human(self, capsys: pytest.CaptureFixture[str]) -> None:
        game = PersianRummyEnv(render_mode="human")
        game.reset(seed=0)
        game.step(0)
        assert game.render() is None
        assert f"{self.TEXT}\n{self.TEXT}\n" == capsys.readouterr().out

    def test_the_end(self) -> None:
        game = PersianRummyEnv(render_mode="ansi")
        play(game, 3, policy_seed=3)
        team_0, team_1 = game.game_state.scores
        lines = str(game.render()).splitlines()
        ending = "a draw" if team_0 == team_1 else ("N-S win" if team_0 > team_1 else "E-W win")
        assert f"Persian Rummy, deal 2 of 2, dealer S: the game is over, {ending}" == lines[0]
        assert f"  scores: N-S {team_0}, E-W {team_1}" == lines[-1]

    def test_the_extra_deal(self) -> None:
        """
        The teams level after the last deal, an extra deal is played (A22).
        """
        game = PersianRummyEnv(Rules(num_deals=1, tie_break="extra_deal"), render_mode="ansi")
        game.reset(seed=314)
        choices = np.random.default_rng(314)
        while game.game_state.deal == 1:
            game.step(random_id(game.observe(game.agent_selection), choices))
        first = game.game_state.results[0].totals
        assert (first[0], 2) == (first[1], game.game_state.deal)
        assert str(game.render()).startswith("Persian Rummy, deal 2, the extra deal (A22), dealer ")

    def test_before_reset(self) -> None:
        text = PersianRummyEnv(render_mode="ansi").render()
        assert "Persian Rummy, deal 0 of 2, dealer N: the cards are to be dealt" == str(text).splitlines()[0]

    def test_no_render_mode(self) -> None:
        game = PersianRummyEnv()
        game.reset(seed=0)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert game.render() is None
        game.close()


class TestArguments:
    """
    Bad settings raise the library's errors.
    """

    @pytest.mark.parametrize(
        ("settings", "error", "message"),
        [
            ({"rules": "default"}, InvalidTypeError, "rules must be a Rules or None, got 'default'"),
            ({"reward": "points"}, InvalidValueError, "reward must be one of 'margin', 'outcome', got 'points'"),
            ({"reward": 1}, InvalidTypeError, "reward must be a str, got 1"),
            ({"dealer": 4}, InvalidValueError, "dealer must be a seat 0-3, got 4"),
            ({"max_steps": 0}, InvalidValueError, "max_steps must be 1 or more, got 0"),
            ({"render_mode": "rgb"}, InvalidValueError, "render_mode must be one of 'ansi', 'human', 'rgb_array', got"),
        ],
    )
    def test_bad_settings(self, settings: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            PersianRummyEnv(**settings)
