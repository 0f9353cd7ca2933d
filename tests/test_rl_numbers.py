"""
NumPy's values handed to the learning interfaces (issue 31): action ids of `action_from_id` and
`id_text`, the ids a policy returns, seeds, and the environments' integer settings are read as the
ints they hold or refused with the library's errors, never a bare TypeError
(persian_rummy.rl.actionids, persian_rummy.rl._numbers, docs/reinforcement-learning.md).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from persian_rummy import (
    DrawStock,
    InvalidTypeError,
    InvalidValueError,
    TakeDiscard,
    apply,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.cards import Card
from persian_rummy.rl.actionids import action_from_id, id_text

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from persian_rummy.bots import GreedyPlayer  # noqa: E402
from persian_rummy.matches import play_match  # noqa: E402
from persian_rummy.rl.gymnasium import PersianRummySoloEnv  # noqa: E402
from persian_rummy.rl.pettingzoo import PersianRummyEnv, parallel_env  # noqa: E402
from persian_rummy.rl.policy import PolicyPlayer  # noqa: E402
from persian_rummy.rl.selfplay import OpponentPool, PersianRummySelfPlayEnv, SnapshotSchedule  # noqa: E402
from persian_rummy.rl.vector import PersianRummyVectorEnv  # noqa: E402

#: Seat 1 to draw: it may draw from the stock (id 0) or take the 7d (id 20).
STATE = apply(new_game(), random_deal(new_game(), random.Random(7)))  # noqa: S311 (a fixed deal, not a secret)


class TestActionFromId:
    """
    Issue 31: "``action_from_id(np.array([0]))`` raises a bare ``TypeError``".
    """

    @pytest.mark.parametrize("value", [np.array(0), np.int64(0), np.uint8(0), np.array(0, dtype=np.uint16)])
    def test_an_integer_of_numpy_is_an_id(self, value: object) -> None:
        assert DrawStock(seat=1) == action_from_id(value, STATE)  # type: ignore[arg-type]
        assert "draw from the stock" == id_text(value)  # type: ignore[arg-type]

    def test_an_array_of_no_dimensions_is_an_id(self) -> None:
        ids = np.array([0, 20])
        assert TakeDiscard(seat=1, card=Card.parse("7d")) == action_from_id(ids[1], STATE)
        assert TakeDiscard(seat=1, card=Card.parse("7d")) == action_from_id(ids[1:].reshape(()), STATE)

    @pytest.mark.parametrize(
        ("value", "shape"),
        [
            (np.array([0]), "(1,)"),
            (np.array([[20]], dtype=np.uint8), "(1, 1)"),
            (np.array([0, 20]), "(2,)"),
            (np.array([], dtype=np.int64), "(0,)"),
        ],
    )
    def test_an_array_of_dimensions_is_refused(self, value: object, shape: str) -> None:
        message = (
            f"an action id must be an int, or an array of no dimensions holding one, got an array of shape {shape}"
        )
        with pytest.raises(InvalidTypeError) as raised:
            action_from_id(value, STATE)  # type: ignore[arg-type]
        assert message == str(raised.value)
        with pytest.raises(InvalidTypeError) as raised:
            id_text(value)  # type: ignore[arg-type]
        assert message == str(raised.value)

    @pytest.mark.parametrize(
        ("value", "shown"),
        [
            (np.array(0.0), "array(0.)"),
            (np.array(True), "array(True)"),
            (np.bool_(False), "np.False_"),
            (np.float32(20), "np.float32(20.0)"),
            (True, "True"),
            ("0", "'0'"),
        ],
    )
    def test_what_holds_no_integer_is_refused(self, value: object, shown: str) -> None:
        with pytest.raises(InvalidTypeError) as raised:
            action_from_id(value, STATE)  # type: ignore[arg-type]
        assert f"an action id must be an int, got {shown}" == str(raised.value)

    def test_an_integer_outside_the_space(self) -> None:
        with pytest.raises(InvalidValueError) as raised:
            action_from_id(np.array(944), STATE)
        assert "action id 944 is outside the action space, 0 to 943" == str(raised.value)


def _lowest(_observation: Any, mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


class TestPolicies:
    """
    A policy may return what the environments take as an action id: the players of policies too.
    """

    @pytest.mark.parametrize(
        "wrap",
        [lambda i: np.array([i]), lambda i: np.array([[i]], dtype=np.int16), np.array, np.uint16],
        ids=["array of one", "array of one of two dimensions", "array of none", "numpy integer"],
    )
    def test_the_same_match(self, wrap: Any) -> None:
        expected = play_match(PolicyPlayer(_lowest), GreedyPlayer(), 2, seed=1)
        given = play_match(PolicyPlayer(lambda o, m: wrap(_lowest(o, m))), GreedyPlayer(), 2, seed=1)
        assert expected.summary == given.summary

    def test_an_array_of_two_is_refused(self) -> None:
        player = PolicyPlayer(lambda _, m: np.flatnonzero(m)[:2])
        view = observe(STATE, 1)
        with pytest.raises(InvalidTypeError) as raised:
            player.choose(view, random.Random(0))  # noqa: S311
        assert "an action id in an array is its one integer element, got an array of 2 int64" == str(raised.value)


class TestSeeds:
    """
    A seed of numpy's, a scalar or an array of no dimensions, seeds as the int it holds; the vector
    takes one seed per game in a numpy array, as Gymnasium's ``SyncVectorEnv`` does.
    """

    @pytest.mark.parametrize("seed", [np.array(5), np.array(5, dtype=np.uint64), np.int32(5)])
    def test_every_environment(self, seed: object) -> None:
        solo, plain = PersianRummySoloEnv(), PersianRummySoloEnv()
        assert (solo.reset(seed=seed)[0]["observation"] == plain.reset(seed=5)[0]["observation"]).all()  # type: ignore[arg-type]
        four, other = PersianRummyEnv(), PersianRummyEnv()
        four.reset(seed=seed)  # type: ignore[arg-type]
        other.reset(seed=5)
        assert four.game_state == other.game_state
        table, again = parallel_env(), parallel_env()
        table.reset(seed=seed)  # type: ignore[arg-type]
        again.reset(seed=5)
        assert table.game_state == again.game_state
        selfplay, same = PersianRummySelfPlayEnv(opponents="random"), PersianRummySelfPlayEnv(opponents="random")
        assert selfplay.reset(seed=seed)[1] == same.reset(seed=5)[1]  # type: ignore[arg-type]
        assert selfplay.game_state == same.game_state

    @pytest.mark.parametrize(
        "seeds",
        [np.array([3, 9]), np.array([3, 9], dtype=np.uint32), [np.int64(3), 9]],
        ids=["int64", "uint32", "list"],
    )
    def test_one_seed_per_game_in_an_array(self, seeds: object) -> None:
        envs, plain = PersianRummyVectorEnv(2), PersianRummyVectorEnv(2)
        envs.reset(seed=seeds)  # type: ignore[arg-type]
        plain.reset(seed=[3, 9])
        assert [game.game_state for game in plain.envs] == [game.game_state for game in envs.envs]

    def test_a_vector_seed_of_no_dimensions(self) -> None:
        envs, plain = PersianRummyVectorEnv(2), PersianRummyVectorEnv(2)
        envs.reset(seed=np.array(3))
        plain.reset(seed=3)
        assert [game.game_state for game in plain.envs] == [game.game_state for game in envs.envs]

    @pytest.mark.parametrize(
        ("seeds", "error", "message"),
        [
            ([5, -1], InvalidValueError, "seed must be from 0 to 2**64 - 1, or None, got -1"),
            (np.array([5, 2.5]), InvalidTypeError, "seed must be an int, a sequence of one per game, or None, got"),
            ([5, 2.5], InvalidTypeError, "seed must be an int or None, got 2.5"),
            (2**64 - 1, InvalidValueError, "seed must be from 0 to 2**64 - 1, or None, got 18446744073709551616"),
            (np.array([[5, 6]]), InvalidTypeError, "seed must be an int, a sequence of one per game, or None, got"),
        ],
    )
    def test_a_bad_seed_resets_no_game(self, seeds: object, error: type[Exception], message: str) -> None:
        envs = PersianRummyVectorEnv(2)
        envs.reset(seed=1)
        before = [game.game_state for game in envs.envs]
        with pytest.raises(error) as raised:
            envs.reset(seed=seeds)  # type: ignore[arg-type]
        assert str(raised.value).startswith(message)
        assert before == [game.game_state for game in envs.envs]


class TestSettings:
    """
    The integer settings of the environments, the pool and the schedule take numpy integers, kept as ints.
    """

    def test_solo(self) -> None:
        solo = PersianRummySoloEnv(seat=np.int64(1), dealer=np.int8(2))
        assert (int, 1) == (type(solo.seat), solo.seat)
        solo.reset(seed=0)
        assert 2 == solo.game_state.dealer

    def test_pettingzoo(self) -> None:
        four = PersianRummyEnv(dealer=np.uint8(3), max_steps=np.int64(40))
        assert (int, 40) == (type(four.max_steps), four.max_steps)
        four.reset(seed=0)
        assert 3 == four.game_state.dealer
        table = parallel_env(max_steps=np.int32(7))
        assert (int, 7) == (type(table.max_steps), table.max_steps)

    def test_selfplay(self) -> None:
        selfplay = PersianRummySelfPlayEnv(opponents="random", team=np.int64(1), dealer=np.int64(0))
        assert (int, 1) == (type(selfplay.team), selfplay.team)
        assert 1 == selfplay.reset(seed=0)[1]["team"]

    def test_pool_and_schedule(self) -> None:
        pool = OpponentPool(["random", "greedy", "pimc:1"], capacity=np.int64(2))
        assert (int, ("greedy", "pimc:1")) == (type(pool.capacity), pool.names)
        schedule = SnapshotSchedule(pool, every=np.uint32(10), freeze=lambda: "random")
        assert (int, "step-20") == (type(schedule.every), schedule(np.int64(25)))

    def test_vector(self) -> None:
        envs = PersianRummyVectorEnv(np.int64(3), max_episode_steps=np.int16(2))
        assert (int, 3) == (type(envs.num_envs), envs.num_envs)
        envs.reset(seed=0)
        for _ in range(2):
            _, _, _, truncations, _ = envs.step(envs.action_masks().argmax(axis=1))
        assert [True, True, True] == truncations.tolist()

    @pytest.mark.parametrize(
        ("settings", "error", "message"),
        [
            ({"seat": np.int64(4)}, InvalidValueError, "seat must be a seat 0-3, got 4"),
            ({"seat": np.float64(1)}, InvalidTypeError, "seat must be a seat 0-3, got np.float64(1.0)"),
            ({"dealer": np.bool_(True)}, InvalidTypeError, "dealer must be a seat 0-3, got np.True_"),
        ],
    )
    def test_still_checked(self, settings: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error) as raised:
            PersianRummySoloEnv(**settings)
        assert message == str(raised.value)
