"""
The compiled rounds of the batched environments (persian_rummy.rl._batch_kernel) against the array code
they stand in for: the same games, number for number.

Environments that play the other seats with compiled code and with NumPy's array operations, seeded
alike and stepped with the same ids, return the same observations, masks, rewards and infos at every
step, with random players (whose numbers must be drawn in the same order), greedy ones and mixes; their
batches and generators end equal.  Then the compiled functions one game at a time, over the states of
many games: the legal ids against `Batch.legal_masks_of` and the scalar engine's `legal_ids`, the greedy
choice against `greedy_ids`, a play of each legal id against `Batch.step` and the scalar engine's
`apply`.  Then the environments' switch, `compiled`.

These tests need the jit extra (Numba): ``nox -s batch`` installs it and runs them, with more steps
(`PERSIAN_RUMMY_BATCH_STEPS`, default 150); the other sessions skip all but the switch's.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import data_equivalence

from persian_rummy import InvalidTypeError, InvalidValueError, apply
from persian_rummy.rl import _batch_kernel as kernel
from persian_rummy.rl._batch_greedy import greedy_ids
from persian_rummy.rl.actionids import action_from_id, legal_ids
from persian_rummy.rl.batch import Batch
from persian_rummy.rl.batchenv import BatchSoloVectorEnv, BatchVectorEnv
from persian_rummy.rl.batchplayers import RandomBatchPlayer
from persian_rummy.rl.batchselfplay import BatchSelfPlayVectorEnv

STEPS = int(os.environ.get("PERSIAN_RUMMY_BATCH_STEPS", "150"))

needs_numba = pytest.mark.skipif(not kernel.COMPILED, reason="the jit extra (Numba) is not installed")


def arrays_of(batch: Batch) -> dict[str, Any]:
    return {name: value.copy() for name, value in vars(batch).items() if isinstance(value, np.ndarray)}


def lockstep(compiled: BatchVectorEnv, arrays: BatchVectorEnv, steps: int, seed: int) -> int:
    """
    Step both environments with the same random ids (an illegal one at times) and compare all they
    return; the games that ended.
    """
    arrays.compiled = False
    assert compiled.compiled
    assert not arrays.compiled
    assert data_equivalence(compiled.reset(seed=seed), arrays.reset(seed=seed), exact=True)
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        masks = arrays.action_masks()
        assert np.array_equal(masks, compiled.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        wrong = (rng.random(actions.size) < 0.01) & ~masks.all(axis=1)
        actions[wrong] = [np.flatnonzero(~row)[0] for row in masks[wrong]]
        got = compiled.step(actions)
        assert data_equivalence(got, arrays.step(actions), exact=True)
        ended += int((got[2] | got[3]).sum())
    one, other = arrays_of(compiled.batch), arrays_of(arrays.batch)
    assert one.keys() == other.keys()
    assert all(np.array_equal(one[name], other[name]) for name in one)
    assert compiled._games.rng.bit_generator.state == arrays._games.rng.bit_generator.state
    return ended


@needs_numba
class TestTheSameGamesAsTheArrays:
    @pytest.mark.parametrize(
        ("players", "n", "seat"),
        [
            ("random", 64, 0),
            ("greedy", 64, 0),
            ("random", 1, 2),
            ("greedy", 5, 3),
            (["random", "greedy", "random"], 33, 1),
        ],
    )
    def test_solo(self, players: object, n: int, seat: int) -> None:
        one, other = (BatchSoloVectorEnv(n, players=players, seat=seat) for _ in range(2))
        ended = lockstep(one, other, STEPS, seed=3)
        assert ended > 0 or n < 5  # a few games may not end in the steps

    def test_players_apart_draw_in_the_order_of_their_indices(self) -> None:
        """
        Three random players of their own, and a greedy one: each one's games of a pass draw their
        numbers in turn, the players by index, as the array code calls them.
        """

        def players() -> list[object]:
            return [RandomBatchPlayer(), "greedy", RandomBatchPlayer()]

        ended = lockstep(BatchSoloVectorEnv(48, players=players()), BatchSoloVectorEnv(48, players=players()), STEPS, 9)
        assert ended > 0

    @pytest.mark.parametrize("partner", ["learner", "pool"])
    def test_self_play(self, partner: str) -> None:
        def envs() -> BatchSelfPlayVectorEnv:
            return BatchSelfPlayVectorEnv(24, opponents=["random", "greedy"], partner=partner)

        assert lockstep(envs(), envs(), STEPS, 4) > 0


def states(n: int, steps: int, seed: int) -> list[Batch]:
    """
    Copies of a batch of *n* games of random players, after each of *steps* steps of random ids.
    """
    envs = BatchSoloVectorEnv(n, players="random")
    envs.compiled = False
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        masks = envs.action_masks()
        envs.step(np.array([rng.choice(np.flatnonzero(row)) for row in masks]))
        batch = Batch(n)
        for name, value in arrays_of(envs.batch).items():
            setattr(batch, name, value)
        seen.append(batch)
    return seen


def legal(batch: Batch, i: int, ids: Any) -> int:
    """
    The kernel's legal ids of game *i* into *ids*: their count.
    """
    return kernel.legal_ids(i, ids, kernel.arrays_of(batch))


def greedy(batch: Batch, i: int, ids: Any) -> int:
    """
    The kernel's greedy choice in game *i*.
    """
    return kernel.greedy_id(i, ids, kernel.arrays_of(batch))


@needs_numba
class TestOneGameAtATime:
    """
    Every game at a draw or at play in the states of 32 games over `STEPS` steps.
    """

    @pytest.fixture(scope="class")
    @classmethod
    def batches(cls) -> list[Batch]:
        return states(32, STEPS, 21)

    def test_the_legal_ids(self, batches: list[Batch]) -> None:
        ids = np.empty(944, np.int64)
        checked = 0
        for batch in batches:
            games = ((batch.phase == 1) | (batch.phase == 2)).nonzero()[0]  # at a draw, at play
            masks = batch.legal_masks_of(games)
            for row, i in enumerate(games.tolist()):
                k = legal(batch, i, ids)
                assert ids[:k].tolist() == np.flatnonzero(masks[row]).tolist()
                assert tuple(ids[:k].tolist()) == legal_ids(batch.state(i))
                checked += 1
        assert checked > STEPS * 16

    def test_the_greedy_choice(self, batches: list[Batch]) -> None:
        ids = np.empty(944, np.int64)
        for batch in batches:
            games = ((batch.phase == 1) | (batch.phase == 2)).nonzero()[0]  # at a draw, at play
            expected = greedy_ids(batch, games).tolist()
            got = [greedy(batch, i, ids) for i in games.tolist()]
            assert got == expected

    def test_a_play_of_each_legal_id(self, batches: list[Batch]) -> None:
        """
        In each game, every legal id played on a copy, as `Batch.step` plays it with ``settle=False``.
        """
        ids = np.empty(944, np.int64)
        ended_deals = 0
        for batch in batches[:: max(1, len(batches) // 20)]:
            games = ((batch.phase == 1) | (batch.phase == 2)).nonzero()[0]  # at a draw, at play
            for i in games.tolist():
                k = legal(batch, i, ids)
                for a in ids[:k].tolist():
                    expected = Batch(batch.n)
                    got = Batch(batch.n)
                    for name, value in arrays_of(batch).items():
                        setattr(expected, name, value.copy())
                        setattr(got, name, value.copy())
                    expected.step(np.array([a]), np.array([i]), settle=False)
                    ended = np.zeros((1, 3), np.int64)
                    count = np.zeros(2, np.int64)
                    kernel.play(i, a, kernel.arrays_of(got), (ended, count))
                    one, other = arrays_of(got), arrays_of(expected)
                    assert all(np.array_equal(one[name], other[name]) for name in one), (i, a)
                    unscored = [part.tolist() for part in expected._unscored[0]] if expected._unscored else []
                    assert (ended[: count[1]].T.tolist() if count[1] else []) == unscored  # the game, who went out, how
                    ended_deals += int(count[1])
                    # And as the scalar engine plays it, the deal that ended scored.
                    got._unscored = [tuple(ended[: count[1]].T.copy())] if count[1] else []
                    got.settle()
                    state = batch.state(i)
                    assert got.state(i) == apply(state, action_from_id(a, state)), (i, a)
        assert ended_deals > 0


class TestTheSwitch:
    def test_on_by_default_where_it_plays_the_seats(self) -> None:
        assert BatchSoloVectorEnv(2, players="random").compiled is kernel.COMPILED
        assert BatchSoloVectorEnv(2).compiled is kernel.COMPILED

    def test_off_with_a_player_it_does_not_play(self) -> None:
        envs = BatchSoloVectorEnv(2, players=["learned", "greedy", "random"])
        assert not envs.compiled
        with pytest.raises(InvalidValueError, match="cannot be played by compiled code"):
            envs.compiled = True
        envs.compiled = False
        assert not envs.compiled

    def test_set_off_and_on(self) -> None:
        envs = BatchSoloVectorEnv(2, players="random")
        envs.compiled = False
        assert not envs.compiled
        if kernel.COMPILED:
            envs.compiled = True
            assert envs.compiled
        else:
            with pytest.raises(InvalidValueError, match="Numba is not installed"):
                envs.compiled = True

    @pytest.mark.parametrize("value", [1, "yes", None])
    def test_a_bool_only(self, value: object) -> None:
        with pytest.raises(InvalidTypeError, match="compiled"):
            BatchSoloVectorEnv(2).compiled = value  # type: ignore[assignment]
