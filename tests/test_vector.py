"""
The native vector environment (persian_rummy.rl.vector): the same games as Gymnasium's
SyncVectorEnv over N Solo-v0 environments seeded the same way, step by step, in each autoreset
mode; its arrays, registration and errors.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

from persian_rummy import IllegalActionError, InvalidTypeError, InvalidValueError
from persian_rummy.rl.actionids import legal_ids
from persian_rummy.rl.gymnasium import ENV_ID
from persian_rummy.rl.tensors import OBSERVATION_SIZE
from persian_rummy.rl.vector import PersianRummyVectorEnv

GAMES = 4


def pair(mode: str, **settings: Any) -> tuple[Any, PersianRummyVectorEnv]:
    """
    A SyncVectorEnv over Solo-v0 and the native vector environment, with the same settings.
    """
    limit = settings.pop("max_episode_steps", None)
    sync = gymnasium.make_vec(
        ENV_ID,
        GAMES,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        **({} if limit is None else {"max_episode_steps": limit}),
        **settings,
    )
    native = PersianRummyVectorEnv(GAMES, autoreset_mode=mode, max_episode_steps=limit, **settings)
    return sync, native


def lockstep(mode: str, steps: int, seed: int, **settings: Any) -> dict[str, int]:
    """
    Step both environments with the same random legal ids and compare everything they return.
    """
    sync, native = pair(mode, **settings)
    with_mask = settings.get("mask_in_observation", True)
    first = sync.reset(seed=seed)
    assert data_equivalence(first, native.reset(seed=seed), exact=True)
    rng = np.random.default_rng(seed)
    counts = {"terminated": 0, "truncated": 0}
    for _ in range(steps):
        masks = np.stack(sync.call("action_masks"))
        assert np.array_equal(masks, native.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        expected = sync.step(actions)
        got = native.step(actions)
        assert data_equivalence(expected, got, exact=True)
        observations, _, terminations, truncations, _ = got
        if with_mask:
            assert np.array_equal(observations["action_mask"].astype(np.bool_), native.action_masks())
        counts["terminated"] += int(terminations.sum())
        counts["truncated"] += int(truncations.sum())
        ended = terminations | truncations
        if mode == "Disabled" and ended.any():
            reset = {"reset_mask": ended}
            assert data_equivalence(sync.reset(options=dict(reset)), native.reset(options=dict(reset)), exact=True)
    sync.close()
    return counts


class TestSameGamesAsSyncVectorEnv:
    """
    N native games are N Solo-v0 games (R27: an episode is a game), whatever the autoreset mode.
    """

    @pytest.mark.parametrize("mode", ["NextStep", "SameStep", "Disabled"])
    def test_autoreset_modes(self, mode: str) -> None:
        counts = lockstep(mode, 400, seed=11, players="random")
        assert counts["terminated"] >= GAMES

    def test_greedy_players_and_another_seat(self) -> None:
        counts = lockstep("NextStep", 250, seed=5, seat=3, reward="outcome")
        assert counts["terminated"] >= GAMES

    @pytest.mark.parametrize("mode", ["NextStep", "SameStep", "Disabled"])
    def test_truncation(self, mode: str) -> None:
        counts = lockstep(mode, 120, seed=2, players="random", max_episode_steps=25)
        assert counts["truncated"] >= GAMES

    def test_the_tensor_alone(self) -> None:
        counts = lockstep("SameStep", 200, seed=8, players="random", mask_in_observation=False)
        assert counts["terminated"] >= 1

    def test_illegal_ids_lose(self) -> None:
        sync, native = pair("NextStep")
        assert data_equivalence(sync.reset(seed=1), native.reset(seed=1), exact=True)
        actions = np.full(GAMES, 943)
        for _ in range(2):  # the end of the games, then their reset
            assert data_equivalence(sync.step(actions), native.step(actions), exact=True)
        sync.close()


class TestArrays:
    """
    The batch's arrays: shapes and types, masks that are the learner's legal ids, in place or copied.
    """

    def test_shapes_and_masks(self) -> None:
        envs = PersianRummyVectorEnv(3, players="random")
        observations, infos = envs.reset(seed=4)
        assert ({}, (3, OBSERVATION_SIZE), np.dtype(np.float32), (3, 944), np.dtype(np.int8)) == (
            infos,
            observations["observation"].shape,
            observations["observation"].dtype,
            observations["action_mask"].shape,
            observations["action_mask"].dtype,
        )
        for i, game in enumerate(envs.envs):
            assert legal_ids(game.game_state) == tuple(np.flatnonzero(observations["action_mask"][i]).tolist())
        assert envs.observation_space.contains(observations)
        _, rewards, terminations, truncations, _ = envs.step(envs.action_masks().argmax(axis=1))
        assert ["float64", "bool", "bool"] == [str(array.dtype) for array in (rewards, terminations, truncations)]

    def test_copies(self) -> None:
        copying, in_place = PersianRummyVectorEnv(2, copy=True), PersianRummyVectorEnv(2, copy=False)
        first, _ = copying.reset(seed=1)
        second, _ = copying.reset(seed=2)
        assert first["observation"] is not second["observation"]
        one, _ = in_place.reset(seed=1)
        two, _ = in_place.reset(seed=2)
        assert one["observation"] is two["observation"]
        assert np.array_equal(second["observation"], two["observation"])

    def test_the_tensor_alone(self) -> None:
        envs = PersianRummyVectorEnv(2, mask_in_observation=False)
        observations: Any = envs.reset(seed=1)[0]
        assert ((2, OBSERVATION_SIZE), (2,)) == (observations.shape, envs.action_space.shape)
        assert (OBSERVATION_SIZE,) == envs.single_observation_space.shape


class TestRegistration:
    """
    The native environment is Solo-v0's vector entry point.
    """

    def test_make_vec(self) -> None:
        envs = gymnasium.make_vec(ENV_ID, 3, vectorization_mode="vector_entry_point", players="random", engine="scalar")
        assert isinstance(envs, PersianRummyVectorEnv)
        assert (3, AutoresetMode.NEXT_STEP) == (envs.num_envs, envs.metadata["autoreset_mode"])
        same_step = gymnasium.make_vec(ENV_ID, 2, vectorization_mode="vector_entry_point", autoreset_mode="SameStep")
        assert AutoresetMode.SAME_STEP is same_step.metadata["autoreset_mode"]

    def test_the_default_mode(self) -> None:
        assert isinstance(gymnasium.make_vec(ENV_ID, 2, engine="scalar"), PersianRummyVectorEnv)
        assert isinstance(gymnasium.make_vec(ENV_ID, 2, players="ismcts:10"), PersianRummyVectorEnv)


class TestErrors:
    """
    Wrong arguments and steps raise the package's errors, naming what is wrong.
    """

    @pytest.mark.parametrize(
        ("settings", "error", "message"),
        [
            ({"num_envs": 0}, InvalidValueError, "num_envs must be 1 or more, got 0"),
            ({"num_envs": 2.0}, InvalidTypeError, "num_envs must be an int, got 2.0"),
            ({"autoreset_mode": "later"}, InvalidValueError, "autoreset_mode must be one of 'NextStep', 'SameStep'"),
            ({"max_episode_steps": 0}, InvalidValueError, "max_episode_steps must be 1 or more, got 0"),
            ({"copy": 1}, InvalidTypeError, "copy must be a bool"),
            ({"seat": 4}, InvalidValueError, "seat"),
        ],
    )
    def test_settings(self, settings: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            PersianRummyVectorEnv(**settings)

    def test_steps(self) -> None:
        envs = PersianRummyVectorEnv(2, on_illegal="raise")
        with pytest.raises(InvalidValueError, match="must be reset before it is stepped"):
            envs.step(np.zeros(2, np.int64))
        envs.reset(seed=1)
        with pytest.raises(InvalidValueError, match=r"one id per game, of shape \(2,\), got shape \(3,\)"):
            envs.step(np.zeros(3, np.int64))
        states = [game.game_state for game in envs.envs]
        legal = envs.action_masks().argmax(axis=1)
        with pytest.raises(IllegalActionError, match="action id 943"):
            envs.step(np.array([legal[0], 943]))
        with pytest.raises(InvalidTypeError, match="an action id must be an int, got 'draw'"):
            envs.step(np.array([int(legal[0]), "draw"], dtype=object))
        assert states == [game.game_state for game in envs.envs]
        envs.step(legal)
        assert [False, False] == [game.game_state is state for game, state in zip(envs.envs, states, strict=True)]

    def test_resets(self) -> None:
        envs = PersianRummyVectorEnv(2)
        with pytest.raises(InvalidValueError, match="seeds in a sequence must be one per game, 2, got 3"):
            envs.reset(seed=[1, 2, 3])
        with pytest.raises(InvalidTypeError, match="seed must be an int, a sequence"):
            envs.reset(seed="1")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="must be a numpy array of bool"):
            envs.reset(options={"reset_mask": [True, False]})
        with pytest.raises(InvalidValueError, match=r"must be of shape \(2,\) with a True, got \[False, False\]"):
            envs.reset(options={"reset_mask": np.zeros(2, np.bool_)})

    def test_disabled_after_the_end(self) -> None:
        envs = PersianRummyVectorEnv(2, autoreset_mode="Disabled")
        envs.reset(seed=1)
        envs.step(np.full(2, 943))  # each game lost on an illegal id
        with pytest.raises(InvalidValueError, match="the episode is over"):
            envs.step(np.zeros(2, np.int64))
