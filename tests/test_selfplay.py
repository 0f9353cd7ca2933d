"""
Team self-play (persian_rummy.rl.selfplay): the pool's members at the other seats, the team's
rewards, seeding, the glue a training loop needs, and Gymnasium's checks.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from persian_rummy import (
    GameState,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    Rules,
    View,
    apply,
    observe,
)
from persian_rummy.actions import PlayerAction
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.events import Event, view_from_events
from persian_rummy.rl.actionids import action_count, action_from_id, action_mask
from persian_rummy.rl.selfplay import ENV_ID, OpponentPool, PersianRummySelfPlayEnv, SnapshotSchedule
from persian_rummy.rl.tensors import OBSERVATION_SIZE, observation_tensor

Array = np.ndarray[Any, Any]
Policy = Callable[[Array, Array], int]
_TURN = (Phase.DRAW, Phase.PLAY)


def first_legal(observation: Array, mask: Array) -> int:  # noqa: ARG001 (a policy's signature)
    return int(np.flatnonzero(mask)[0])


def last_legal(observation: Array, mask: Array) -> int:  # noqa: ARG001 (a policy's signature)
    return int(np.flatnonzero(mask)[-1])


class Linear:
    """
    A NumPy policy of one weight matrix: the legal id of the highest score, ``weights @ observation``.
    """

    def __init__(self, seed: int) -> None:
        self.weights = np.random.default_rng(seed).standard_normal((action_count(Rules()), OBSERVATION_SIZE))

    def __call__(self, observation: Array, mask: Array) -> int:
        scores = self.weights @ observation
        return int(np.argmax(np.where(mask.astype(bool), scores, -np.inf)))


class Recording:
    """
    A policy that plays *policy* and keeps what it was shown and what it chose.
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.calls: list[tuple[Array, Array, int]] = []

    def __call__(self, observation: Array, mask: Array) -> int:
        chosen = self.policy(observation, mask)
        self.calls.append((observation.copy(), mask.copy(), chosen))
        return chosen


def members_play(before: GameState, chosen: int, members: dict[int, Policy]) -> GameState | None:
    """
    The state after the learner's id *chosen* at *before* and each decision of *members* (seat to
    policy) that follows, each given its seat's tensor and mask; `None` if a deal comes first,
    whose cards the test cannot know.
    """
    state = apply(before, action_from_id(chosen, before))
    while state.phase in _TURN and state.to_act in members:
        seat: int = state.to_act
        mask = np.frombuffer(action_mask(state), dtype=np.int8)
        member_id = members[seat](observation_tensor(observe(state, seat)), mask)
        state = apply(state, action_from_id(member_id, state))
    return None if state.phase not in _TURN else state


def step_on(env: PersianRummySelfPlayEnv, observation: dict[str, Array], policy: Policy = first_legal) -> Any:
    """
    Step *env* with the id *policy* chooses from *observation*.
    """
    return env.step(policy(observation["observation"], observation["action_mask"]))


def checked_segments(
    env: PersianRummySelfPlayEnv, seed: int, members: Callable[[dict[str, Any]], dict[int, Policy]]
) -> int:
    """
    Play a game, the learner on its lowest legal id, and check after each step that the game is
    where *members* (seat to policy, from the info) bring it; the number of steps checked.
    """
    observation, info = env.reset(seed=seed)
    checked, done = 0, False
    while not done:
        before = env.game_state
        chosen = first_legal(observation["observation"], observation["action_mask"])
        observation, _, done, _, info = env.step(chosen)
        expected = members_play(before, chosen, members(info))
        if expected is not None and not done:
            assert expected == env.game_state
            checked += 1
    return checked


def opponents_of(policy: Policy) -> Callable[[dict[str, Any]], dict[int, Policy]]:
    return lambda info: {seat: policy for seat in range(4) if seat % 2 != info["team"]}


class TestGymnasiumChecks:
    """
    The environment is registered as persian_rummy/SelfPlay-v0 and passes Gymnasium's check_env.
    """

    @pytest.mark.parametrize(
        "settings",
        [
            {"opponents": "random"},
            {"opponents": "random", "partner": "latest", "team": 1},
            {"opponents": ["random", "greedy"], "partner": "pool", "reward": "outcome"},
            {"opponents": "random", "rules": Rules(jokers_wild=True, rummy_calls=True)},
        ],
    )
    def test_check_env(self, settings: dict[str, Any]) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(gymnasium.make(ENV_ID, **settings).unwrapped, skip_render_check=True)

    def test_registered(self) -> None:
        env = gymnasium.make(ENV_ID, opponents="random")
        assert PersianRummySelfPlayEnv is type(env.unwrapped)
        assert ("random",) == env.unwrapped.pool.names

    def test_spaces_are_solo_v0s(self) -> None:
        env = PersianRummySelfPlayEnv()
        space: Any = env.observation_space
        assert gymnasium.spaces.Discrete(944) == env.action_space
        assert (OBSERVATION_SIZE,) == space["observation"].shape
        assert (944,) == space["action_mask"].shape


class TestPoolMembersPlay:
    """
    A policy added to the pool is the one that plays the opponents' seats, shown its seat's tensor and mask.
    """

    def test_added_policy_plays_every_opponent_decision(self) -> None:
        pool = OpponentPool(["random"], capacity=1)
        recorder = Recording(last_legal)
        assert "last" == pool.add(recorder, "last")
        assert ("last",) == pool.names
        env = PersianRummySelfPlayEnv(opponents=pool)
        assert 40 < checked_segments(env, 11, opponents_of(last_legal))
        assert 60 < len(recorder.calls)
        for observation, mask, chosen in recorder.calls:
            assert (OBSERVATION_SIZE,) == observation.shape
            assert 1 == mask[chosen]

    def test_the_members_drawn_are_named(self) -> None:
        pool = OpponentPool([first_legal, last_legal])
        assert ("policy-1", "policy-2") == pool.names
        env = PersianRummySelfPlayEnv(opponents=pool)
        drawn = {env.reset(seed=seed)[1]["opponent"] for seed in range(12)}
        assert {"policy-1", "policy-2"} == drawn

    def test_a_member_drawn_plays_its_game(self) -> None:
        pool = OpponentPool({"first": first_legal, "last": last_legal}.values())
        env = PersianRummySelfPlayEnv(opponents=pool)
        by_name = {"policy-1": first_legal, "policy-2": last_legal}
        for seed in (1, 2, 3):
            drawn = env.reset(seed=seed)[1]["opponent"]
            assert 20 < checked_segments(env, seed, opponents_of(by_name[drawn]))

    def test_capacity_drops_the_oldest(self) -> None:
        pool = OpponentPool(capacity=2)
        for name in ("a", "b", "c"):
            pool.add(first_legal, name)
        assert ("b", "c") == pool.names
        assert ("c", first_legal) == pool.latest()
        assert first_legal is pool["b"]


class TestPartners:
    """
    R1: seats 0 and 2 are partners.  The learner acts for both, or its partner is a frozen member.
    """

    def test_learner_acts_for_both_partners(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", team=0)
        observation, info = env.reset(seed=5)
        seats, done = set(), False
        while not done:
            seats.add(info["seat"])
            assert env.game_state.to_act == info["seat"]
            assert bytes(observation["action_mask"]) == action_mask(env.game_state)
            expected = observation_tensor(observe(env.game_state, info["seat"]))
            assert np.array_equal(expected, observation["observation"])
            assert "learner" == info["partner"]
            observation, _, done, _, info = env.step(
                first_legal(observation["observation"], observation["action_mask"])
            )
        assert {0, 2} == seats

    def test_latest_member_plays_the_partner(self) -> None:
        env = PersianRummySelfPlayEnv(opponents=OpponentPool([first_legal]), partner="latest")
        env.pool.add(last_legal, "frozen")
        by_name = {"policy-1": first_legal, "frozen": last_legal}

        def members(info: dict[str, Any]) -> dict[int, Policy]:
            assert "frozen" == info["partner"]
            opponents = by_name[info["opponent"]]
            return {
                seat: (last_legal if seat % 2 == info["team"] else opponents)
                for seat in range(4)
                if seat != info["seat"]
            }

        assert 30 < sum(checked_segments(env, seed, members) for seed in (8, 9))

    def test_the_learners_seat_is_drawn_from_its_team(self) -> None:
        env = PersianRummySelfPlayEnv(opponents=first_legal, partner=last_legal)
        seats = {(info["team"], info["seat"]) for info in (env.reset(seed=seed)[1] for seed in range(16))}
        assert {(0, 0), (0, 2), (1, 1), (1, 3)} == seats


def returns(env: PersianRummySelfPlayEnv, seed: int, policy: Policy = first_legal) -> tuple[float, dict[str, Any], int]:
    """
    The learner's return over a game with *policy*, the last info, and the steps.
    """
    observation, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        observation, reward, done, _, info = env.step(policy(observation["observation"], observation["action_mask"]))
        total += float(reward)
        steps += 1
    return total, info, steps


class TestTeamRewards:
    """
    R24: a deal's margin is one team's total minus the other's.  The learner's rewards are its
    team's, over reward_scale, and add up to the final margin; the opponents' are their negative.
    """

    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_margin_returns_sum_to_the_final_margin(self, seed: int) -> None:
        env = PersianRummySelfPlayEnv(opponents="random")
        total, info, _ = returns(env, seed)
        team_0, team_1 = env.game_state.scores
        margin = (team_0 - team_1) if info["team"] == 0 else (team_1 - team_0)
        assert margin / 1954 == pytest.approx(total, abs=1e-12)
        assert [team_0, team_1] == info["scores"]
        assert [team_0, team_1] == [sum(deal[0] for deal in info["deals"]), sum(deal[1] for deal in info["deals"])]

    def test_each_deal_rewards_its_margin(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", team=1)
        observation, info = env.reset(seed=3)
        done, rewarded = False, []
        while not done:
            observation, reward, done, _, info = env.step(
                first_legal(observation["observation"], observation["action_mask"])
            )
            if "deals" in info:
                deal = info["deals"][-1]
                assert (deal[1] - deal[0]) / 1954 == reward
                rewarded.append(reward)
            else:
                assert 0.0 == reward
        assert 2 == len(rewarded)

    def test_outcome_rewards(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", reward="outcome")
        for seed in range(4):
            total, info, _ = returns(env, seed)
            expected = 0.0 if info["winner"] == -1 else (1.0 if info["winner"] == info["team"] else -1.0)
            assert expected == total


class TestSeeding:
    """
    The same seed, pool and actions replay the same game: deck, team, seat, members and their sources.
    """

    def test_same_seed_same_game(self) -> None:
        games = []
        for _ in range(2):
            env = PersianRummySelfPlayEnv(opponents=["random", "greedy"], partner="pool")
            games.append([returns(env, seed) for seed in (4, 9)] + [env.game_state])
        assert games[0] == games[1]

    def test_other_seed_other_game(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random")
        returns(env, 4)
        first = env.game_state
        returns(env, 5)
        assert first != env.game_state


class TestSnapshots:
    """
    The glue of a self-play run without torch: a schedule freezes the learner into the pool,
    and the frozen copy, not the learner as it goes on, plays the opponents.
    """

    def test_schedule_adds_at_each_multiple(self) -> None:
        pool = OpponentPool(["random"])
        schedule = SnapshotSchedule(pool, 100, lambda: first_legal)
        assert [None, "step-100", None, "step-300", None] == [schedule(s) for s in (99, 100, 199, 305, 399)]
        assert ("random", "step-100", "step-300") == pool.names
        assert 400 == schedule.next_at

    def test_frozen_copy_plays_not_the_learner(self) -> None:
        learner = Linear(1)
        pool = OpponentPool(["random"], capacity=1)

        def freeze() -> Linear:
            frozen = Linear(0)
            frozen.weights = learner.weights.copy()
            return frozen

        schedule = SnapshotSchedule(pool, 8, freeze)
        env = PersianRummySelfPlayEnv(opponents=pool, team=0)
        observation, _ = env.reset(seed=2)
        for steps in range(1, 9):  # a training loop: a step, then the callback with num_timesteps
            observation, *_ = env.step(learner(observation["observation"], observation["action_mask"]))
            schedule(steps)
        assert ("step-8",) == pool.names
        frozen = pool["step-8"]
        snapshot = Linear(0)
        snapshot.weights = learner.weights.copy()
        learner.weights += np.random.default_rng(5).standard_normal(learner.weights.shape)  # training goes on
        assert 20 < checked_segments(env, 6, opponents_of(snapshot))
        assert isinstance(frozen, Linear)
        assert np.array_equal(snapshot.weights, frozen.weights)

    def test_add_opponent_through_a_vector_env(self) -> None:
        envs = gymnasium.make_vec(ENV_ID, 2, vectorization_mode="sync", opponents="random")
        assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
        assert ("snap", "snap") == envs.call("add_opponent", first_legal, "snap")
        assert [("random", "snap"), ("random", "snap")] == [pool.names for pool in envs.get_attr("pool")]
        observations, _ = envs.reset(seed=1)
        ended = 0
        for _ in range(400):
            masks = observations["action_mask"]
            assert masks.any(axis=1).all()
            observations, _, terminated, _, _ = envs.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
            ended += int(terminated.sum())
        envs.close()
        assert 4 <= ended

    def test_async_vector_env(self) -> None:
        """
        In processes of their own the environments hold copies of the pool, which call reaches;
        the masks are never empty, the reset step after an end included.
        """
        envs = gymnasium.make_vec(ENV_ID, 2, vectorization_mode="async", opponents="random", partner="latest")
        assert isinstance(envs, gymnasium.vector.AsyncVectorEnv)
        assert ("first", "first") == envs.call("add_opponent", first_legal, "first")
        assert [("random", "first"), ("random", "first")] == [pool.names for pool in envs.get_attr("pool")]
        observations, infos = envs.reset(seed=3)
        ended, partners = 0, set()
        for _ in range(400):
            masks = observations["action_mask"]
            assert masks.any(axis=1).all()
            partners.update(infos["partner"])
            observations, _, terminated, _, infos = envs.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))
            ended += int(terminated.sum())
        envs.close()
        assert 2 <= ended
        assert {"first"} == partners

    def test_a_shared_pool_adds_once(self) -> None:
        pool = OpponentPool(["random"])
        envs = gymnasium.make_vec(ENV_ID, 3, vectorization_mode="sync", opponents=pool)
        assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
        assert ("snap", "snap", "snap") == envs.call("add_opponent", first_legal, "snap")
        assert ("random", "snap") == pool.names
        with pytest.raises(InvalidValueError, match="the pool already has a member named 'snap'"):
            pool.add(last_legal, "snap")
        envs.close()

    def test_the_recipes_callback(self) -> None:
        """
        The docs' MaskablePPO recipe without torch: a callback with sb3's num_timesteps calls
        the schedule, and sb3's masks come from action_masks through Gymnasium's wrappers.
        """
        learner = Linear(4)
        pool = OpponentPool(["greedy"], capacity=20)

        class Snapshots:  # what the recipe's BaseCallback subclass does
            def __init__(self, schedule: SnapshotSchedule) -> None:
                self.schedule = schedule
                self.num_timesteps = 0

            def _on_step(self) -> bool:
                self.schedule(self.num_timesteps)
                return True

        def freeze() -> Linear:
            frozen = Linear(0)
            frozen.weights = learner.weights.copy()
            return frozen

        callback = Snapshots(SnapshotSchedule(pool, every=50, freeze=freeze))
        env = gymnasium.make(ENV_ID, opponents=pool)
        observation, _ = env.reset(seed=0)
        for _ in range(120):
            masks = env.get_wrapper_attr("action_masks")()
            assert np.array_equal(observation["action_mask"].astype(bool), masks)
            observation, _, terminated, truncated, _ = env.step(learner(observation["observation"], masks))
            callback.num_timesteps += 1
            assert callback._on_step()
            if terminated or truncated:
                observation, _ = env.reset()
        assert ("greedy", "step-50", "step-100") == pool.names


class TestActionMasks:
    """
    The mask is never empty while the game goes on, the reset step included, and action_masks
    gives the same ids as booleans; after the end it marks every id, as Solo-v0's does, for a vector env's reset step.
    """

    def test_masks_every_step(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random")
        for seed in (0, 1):
            observation, _ = env.reset(seed=seed)
            done = False
            while not done:
                masks = env.action_masks()
                assert np.bool_ == masks.dtype
                assert masks.any()
                assert np.array_equal(observation["action_mask"].astype(bool), masks)
                observation, _, done, _, _ = env.step(
                    first_legal(observation["observation"], observation["action_mask"])
                )
            assert (944, 944) == (int(env.action_masks().sum()), int(observation["action_mask"].sum()))


class TestInfos:
    """
    Infos hold plain values of one type each, so that vector environments can stack them.
    """

    def test_types(self) -> None:
        env = PersianRummySelfPlayEnv(opponents=["random", last_legal], partner="pool")
        kinds: dict[str, set[type]] = {}
        for seed in range(3):
            observation, info = env.reset(seed=seed)
            done = False
            while not done:
                for key, value in info.items():
                    kinds.setdefault(key, set()).add(type(value))
                observation, _, done, _, info = env.step(
                    last_legal(observation["observation"], observation["action_mask"])
                )
        expected = {
            "seat": {int},
            "team": {int},
            "opponent": {str},
            "partner": {str},
            "results": {list},
            "scores": {list},
            "deals": {list},
        }
        assert expected == kinds

    def test_final_info(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", team=0)
        _, info, _ = returns(env, 7)
        assert {"seat", "team", "opponent", "partner", "results", "scores", "deals", "winner"} == set(info)
        team_0, team_1 = info["scores"]
        assert (-1 if team_0 == team_1 else int(team_1 > team_0)) == info["winner"]


class TestIllegal:
    """
    An id that names no legal action ends the episode with -1 ("lose") or raises; a member's bad id names it.
    """

    def test_lose(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random")
        observation, _ = env.reset(seed=1)
        illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        _, reward, terminated, truncated, info = env.step(illegal)
        assert (-1.0, True, False) == (reward, terminated, truncated)
        assert illegal == info["illegal_action"]
        with pytest.raises(InvalidValueError, match="the episode is over"):
            env.step(0)

    def test_an_illegal_id_after_a_deal_tells_no_deal(self) -> None:
        """
        The step after one in which a deal ended tells no deal when its id is illegal: no deal ended in it.
        """
        env = PersianRummySelfPlayEnv(opponents="random")
        observation, info = env.reset(seed=2)
        rng = np.random.default_rng(2)
        while "results" not in info:
            observation, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            assert not terminated
        assert len(info["results"]) == 1
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
        assert (-1.0, True) == (reward, terminated)
        assert {"seat", "team", "opponent", "partner", "illegal_action"} == set(info)

    def test_raise(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", on_illegal="raise")
        observation, _ = env.reset(seed=1)
        before = env.game_state
        illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError):
            env.step(illegal)
        assert before is env.game_state

    def test_a_member_that_chooses_no_legal_id(self) -> None:
        def bad(observation: Array, mask: Array) -> int:  # noqa: ARG001
            return int(np.flatnonzero(mask == 0)[0])

        env = PersianRummySelfPlayEnv(opponents=OpponentPool([bad]), team=1, dealer=3)
        with pytest.raises(IllegalActionError, match="the pool member 'policy-1' at seat 0 chose it"):
            env.reset(seed=0)


class TestArguments:
    """
    Arguments are checked, with the package's errors.
    """

    def test_team(self) -> None:
        with pytest.raises(InvalidValueError, match="team must be 0, 1 or None, got 2"):
            PersianRummySelfPlayEnv(team=2)

    def test_member(self) -> None:
        with pytest.raises(InvalidTypeError, match="a pool member is a policy"):
            OpponentPool([3])

    def test_unknown_player(self) -> None:
        with pytest.raises(InvalidValueError):
            PersianRummySelfPlayEnv(partner="nobody")

    def test_name_twice(self) -> None:
        pool = OpponentPool(["random"])
        with pytest.raises(InvalidValueError, match="the pool already has a member named 'random'"):
            pool.add(GreedyPlayer(), "random")

    def test_empty_pool(self) -> None:
        env = PersianRummySelfPlayEnv(opponents=OpponentPool())
        with pytest.raises(InvalidValueError, match="the opponent pool is empty"):
            env.reset(seed=0)

    def test_schedule(self) -> None:
        with pytest.raises(InvalidValueError, match="every must be 1 or more, got 0"):
            SnapshotSchedule(OpponentPool(), 0, lambda: first_legal)
        with pytest.raises(InvalidTypeError, match="freeze must be a function"):
            SnapshotSchedule(OpponentPool(), 5, 5)


class Listening:
    """
    A random player that keeps every event of its seat.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return RandomPlayer().choose(view, rng)

    def hear(self, event: Event) -> None:
        self.events.append(event)


class TestPlayersInThePool:
    """
    A Player in the pool plays from its seat's view; one that listens plays as a fresh copy in
    each game and hears every action as its seat saw it, as in a match.
    """

    def test_a_listener_hears_its_seats_game(self) -> None:
        listener = Listening()
        env = PersianRummySelfPlayEnv(opponents=OpponentPool([listener]), team=0)
        observation, _ = env.reset(seed=6)
        first_dealer = env.game_state.dealer if env.game_state.deal == 1 else None
        done = False
        while not done:
            observation, _, done, _, _ = step_on(env, observation)
        assert [] == listener.events
        for seat in (1, 3):
            held = env._seated[seat]
            assert held is not None
            assert "policy-1" == held[0]
            heard: Listening = held[1]  # type: ignore[assignment]
            assert observe(env.game_state, seat) == view_from_events(env.rules, first_dealer, seat, heard.events)  # type: ignore[arg-type]


class TestPoolValues:
    """
    The pool's length, its members by name, and its repr.
    """

    def test_values(self) -> None:
        pool = OpponentPool(["random", first_legal], capacity=3)
        assert 2 == len(pool)
        assert "OpponentPool(['random', 'policy-2'], capacity=3)" == repr(pool)
        with pytest.raises(KeyError):
            pool["greedy"]


class TestRender:
    """
    The view of the learner's seat to act as text, the members named by their pool names.
    """

    def test_ansi(self) -> None:
        env = PersianRummySelfPlayEnv(opponents=OpponentPool([first_legal]), team=0, dealer=3, render_mode="ansi")
        env.reset(seed=1)
        text = env.render()
        assert isinstance(text, str)
        assert "Persian Rummy, deal 1 of 2, dealer W: N (learner) to draw" == text.splitlines()[0]
        assert "  E (opponent policy-1): 7 cards" in text.splitlines()

    def test_human(self, capsys: pytest.CaptureFixture[str]) -> None:
        env = PersianRummySelfPlayEnv(opponents="random", partner=last_legal, render_mode="human")
        observation, _ = env.reset(seed=1)
        step_on(env, observation)
        assert None is env.render()
        printed = capsys.readouterr().out
        assert 3 == printed.count("Persian Rummy, deal 1 of 2")
        assert 3 == printed.count(" (partner partner): ")

    def test_none(self) -> None:
        env = PersianRummySelfPlayEnv(opponents="random")
        env.reset(seed=1)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert None is env.render()
