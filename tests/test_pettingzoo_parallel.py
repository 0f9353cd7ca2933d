"""
PettingZoo's parallel API (persian_rummy.rl.pettingzoo.parallel_env): a turn-based game where
every agent submits an action at each step, only the seat to act's counts, and the others wait.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test.parallel_test import parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel

from persian_rummy import IllegalActionError, InvalidValueError, Rules
from persian_rummy.rl.actionids import action_count, action_mask
from persian_rummy.rl.pettingzoo import AGENTS, PersianRummyParallelEnv, env, parallel_env
from persian_rummy.rl.tensors import OBSERVATION_SIZE

Array = np.ndarray[Any, Any]
WAIT = 944


def chosen_ids(observations: dict[str, dict[str, Array]], rng: np.random.Generator) -> dict[str, int]:
    """
    An id for every agent, drawn by *rng* from its mask: the wait id for all but the seat to act.
    """
    return {agent: int(rng.choice(np.flatnonzero(seen["action_mask"]))) for agent, seen in observations.items()}


def parallel_game(seed: int, choices: int) -> tuple[list[int], dict[str, float], Any, dict[str, Any]]:
    """
    A game through the parallel API: the ids the seats to act chose, the agents' returns, the
    final state and the last info of seat 0.
    """
    game = parallel_env()
    observations, infos = game.reset(seed=seed)
    rng = np.random.default_rng(choices)
    played: list[int] = []
    totals = dict.fromkeys(AGENTS, 0.0)
    while game.agents:
        actions = chosen_ids(observations, rng)
        played.extend(i for i in actions.values() if i != WAIT)
        observations, rewards, _, _, infos = game.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    return played, totals, game.game_state, infos["seat_0"]


def to_act(game: PersianRummyParallelEnv) -> str:
    seat = game.game_state.to_act
    assert seat is not None
    return AGENTS[seat]


class TestParallelApi:
    """
    PettingZoo's parallel_api_test passes, with its warnings as errors.
    """

    def test_parallel_api_test(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parallel_api_test(parallel_env(), num_cycles=2_000)

    @pytest.mark.parametrize("rules", [Rules(jokers_wild=True), Rules(jokers_wild=True, rummy_calls=True)])
    def test_parallel_api_test_with_wild_jokers(self, rules: Rules) -> None:
        """
        A7: the spaces grow to the switch's 77,628 ids (and the wait id) and 924 observation values.
        """
        game = parallel_env(rules=rules)
        space: Any = game.observation_space("seat_0")
        assert ((924,), (77629,)) == (space["observation"].shape, space["action_mask"].shape)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parallel_api_test(game, num_cycles=500)

    def test_spaces(self) -> None:
        game = parallel_env()
        assert WAIT == game.wait_id == action_count(Rules())
        space: Any = game.observation_space("seat_2")
        assert (OBSERVATION_SIZE,) == space["observation"].shape
        assert (945,) == space["action_mask"].shape
        assert 945 == game.action_space("seat_1").n  # type: ignore[attr-defined]

    def test_aec_to_parallel_refuses_the_turns(self) -> None:
        """
        PettingZoo's own conversion needs an AEC environment that changes only at the end of a
        cycle of one action per agent; a turn here is several actions of one seat (R14-R18), so
        the AEC environment says it is not parallelizable, and the conversion refuses it.
        """
        assert False is env().metadata["is_parallelizable"]
        with pytest.raises(AssertionError, match="is not generally safe"):
            aec_to_parallel(env())


class TestWaiting:
    """
    R6: only the seat to act plays.  Its mask holds its legal ids; every other agent's holds the wait id alone.
    """

    def test_masks(self) -> None:
        game = parallel_env()
        observations, infos = game.reset(seed=3)
        rng = np.random.default_rng(0)
        steps = 0
        while game.agents:
            steps += 1
            acting = to_act(game)
            assert dict.fromkeys(AGENTS, acting) == {agent: info["to_act"] for agent, info in infos.items()}
            for agent, seen in observations.items():
                if agent == acting:
                    assert action_mask(game.game_state) + b"\0" == bytes(seen["action_mask"])
                else:
                    assert [WAIT] == np.flatnonzero(seen["action_mask"]).tolist()
            observations, _, _, _, infos = game.step(chosen_ids(observations, rng))
        assert {""} == {info["to_act"] for info in infos.values()}
        assert all(not seen["action_mask"].any() for seen in observations.values())
        assert 100 < steps

    def test_the_others_may_be_left_out(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        assert "seat_3" == to_act(game)
        game.step({"seat_3": 0})
        assert "seat_3" == to_act(game)

    def test_another_seat_that_does_not_wait(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        before = game.game_state
        with pytest.raises(IllegalActionError) as raised:
            game.step({"seat_3": 0, "seat_0": 0})
        assert "illegal action 0: seat_3 is to act, so seat_0 may only wait (id 944) (R6)" == str(raised.value)
        assert before is game.game_state

    def test_the_seat_to_act_may_not_wait(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        with pytest.raises(IllegalActionError, match=r"seat_3 is to act and may not wait \(id 944\) \(R6\)"):
            game.step(dict.fromkeys(AGENTS, WAIT))

    def test_the_seat_to_act_left_out(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        with pytest.raises(InvalidValueError, match="seat_3 is to act, and the actions hold none of it"):
            game.step({"seat_0": WAIT})

    def test_after_the_end(self) -> None:
        game = parallel_env(max_steps=3)
        observations, _ = game.reset(seed=7)
        rng = np.random.default_rng(0)
        for _ in range(3):
            observations, _, terminations, truncations, _ = game.step(chosen_ids(observations, rng))
        assert dict.fromkeys(AGENTS, True) == truncations
        assert dict.fromkeys(AGENTS, False) == terminations
        assert [] == game.agents
        with pytest.raises(InvalidValueError, match="the game is over"):
            game.step({})


class TestSameGameAsAec:
    """
    The parallel API plays the AEC environment's game: the same seed deals the same cards, and
    the same ids of the seats to act bring the same state and rewards.
    """

    def test_same_game(self) -> None:
        played, totals, final, info = parallel_game(seed=5, choices=2)
        game = env()
        game.reset(seed=5)
        ids = iter(played)
        returns = dict.fromkeys(AGENTS, 0.0)
        for agent in game.agent_iter():
            _, reward, termination, truncation, _ = game.last()
            returns[agent] += reward
            if termination or truncation:
                game.step(None)  # type: ignore[arg-type]  # the toolkit's step of an agent that is done
            else:
                game.step(next(ids))
        assert final == game.unwrapped.game_state  # type: ignore[attr-defined]
        assert returns == pytest.approx(totals, abs=1e-12)
        assert list(final.scores) == info["scores"]


class TestParallelRewards:
    """
    R24: every agent is rewarded with its team's margin in each deal; partners alike, the teams' opposite.
    """

    @pytest.mark.parametrize("seed", [1, 2])
    def test_team_returns(self, seed: int) -> None:
        _, totals, final, info = parallel_game(seed=seed, choices=seed)
        team_0, team_1 = final.scores
        assert (team_0 - team_1) / 1954 == pytest.approx(totals["seat_0"], abs=1e-12)
        assert totals["seat_0"] == totals["seat_2"] == -totals["seat_1"] == -totals["seat_3"]
        assert (-1 if team_0 == team_1 else int(team_1 > team_0)) == info["winner"]

    def test_same_seed_same_game(self) -> None:
        assert parallel_game(seed=4, choices=9) == parallel_game(seed=4, choices=9)


class TestParallelArguments:
    """
    The arguments are those of the AEC environment, checked alike.
    """

    def test_reward(self) -> None:
        with pytest.raises(InvalidValueError, match="reward must be one of"):
            PersianRummyParallelEnv(reward="points")

    def test_render(self) -> None:
        game = parallel_env(render_mode="ansi")
        game.reset(seed=7)
        assert game.render().startswith("Persian Rummy, deal 1 of 2")  # type: ignore[union-attr]

    def test_render_human(self, capsys: pytest.CaptureFixture[str]) -> None:
        game = parallel_env(render_mode="human")
        game.reset(seed=7)
        game.step({"seat_3": 0})
        assert None is game.render()
        printed = capsys.readouterr().out
        assert 2 == printed.count("  played: W draw")

    def test_render_without_a_mode(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert None is game.render()

    def test_unknown_agent(self) -> None:
        game = parallel_env()
        game.reset(seed=7)
        with pytest.raises(InvalidValueError, match="no live agent is called 'seat_9'"):
            game.step({"seat_3": 0, "seat_9": WAIT})
