"""
The environments on the batched engine (persian_rummy.rl.batchenv, persian_rummy.rl.batchselfplay)
against the scalar ones: N games of Solo-v0 and of SelfPlay-v0 under SyncVectorEnv, seeded the
same way and stepped with the same ids, return the same observations, masks, rewards,
terminations, truncations and infos at every step when the other seats draw nothing (the greedy
player, a deterministic network).  Then the players of the batch, the routing of ``make_vec``
and the errors.

The number of steps is `PERSIAN_RUMMY_BATCH_STEPS` (default 150); ``nox -s batch`` runs more.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import data_equivalence

from persian_rummy import IllegalActionError, InvalidTypeError, InvalidValueError, Rules
from persian_rummy.rl.actionids import legal_ids
from persian_rummy.rl.batchenv import BatchSoloVectorEnv
from persian_rummy.rl.batchplayers import (
    GreedyBatchPlayer,
    LearnedBatchPlayer,
    PolicyBatchPlayer,
    RandomBatchPlayer,
    RowBatchPlayer,
    batch_player,
)
from persian_rummy.rl.batchselfplay import BatchSelfPlayVectorEnv
from persian_rummy.rl.gymnasium import ENV_ID as SOLO
from persian_rummy.rl.policy import LearnedPlayer
from persian_rummy.rl.selfplay import ENV_ID as SELF_PLAY
from persian_rummy.rl.selfplay import OpponentPool, PersianRummySelfPlayEnv
from persian_rummy.rl.vector import PersianRummyVectorEnv

# Long differentials over whole games: the first Python runs them (and ``nox -s batch`` at scale), the
# later Pythons' tests sessions leave them out.
pytestmark = pytest.mark.once

STEPS = int(os.environ.get("PERSIAN_RUMMY_BATCH_STEPS", "150"))
GAMES = 6
#: Steps compared, printed at the end of a run (``nox -s batch`` reports them).
COMPARED = {"steps": 0, "episodes": 0, "illegal": 0}


class Linear:
    """
    A deterministic network: the legal id of the highest score of a fixed linear map of the tensor.
    """

    def __init__(self, seed: int) -> None:
        self.weights = np.random.default_rng(seed).normal(size=(868, 944)).astype(np.float32)
        self.calls: list[int] = []

    def __call__(self, observations: Any, masks: Any) -> Any:
        observations = np.atleast_2d(observations)
        self.calls.append(observations.shape[0])
        scores = observations @ self.weights
        return np.where(np.atleast_2d(masks) > 0, scores, -np.inf).argmax(axis=1)


def lockstep(scalar: Any, batched: Any, steps: int, seed: int, illegal: float = 0.0) -> dict[str, int]:
    """
    Step both vector environments with the same random legal ids (an illegal one at times) and
    compare everything they return.
    """
    expected = scalar.reset(seed=seed)
    got = batched.reset(seed=seed)
    assert data_equivalence(expected, got, exact=True)
    rng = np.random.default_rng(seed)
    counts = {"steps": 0, "episodes": 0, "illegal": 0}
    for _ in range(steps):
        masks = np.stack(scalar.call("action_masks"))
        assert np.array_equal(masks, batched.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        wrong = (rng.random(len(actions)) < illegal) & ~masks.all(axis=1)
        actions[wrong] = [np.flatnonzero(~row)[0] for row in masks[wrong]]
        expected = scalar.step(actions)
        got = batched.step(actions)
        assert data_equivalence(expected, got, exact=True), (expected[1:], got[1:])
        counts["steps"] += len(actions)
        counts["episodes"] += int((got[2] | got[3]).sum())
        counts["illegal"] += int(wrong.sum())
    for key, value in counts.items():
        COMPARED[key] += value
    return counts


def solo_pair(**settings: Any) -> tuple[Any, BatchSoloVectorEnv]:
    limit = settings.get("max_episode_steps")
    sync = gymnasium.make_vec(
        SOLO,
        GAMES,
        vectorization_mode="sync",
        **({"max_episode_steps": limit} if limit else {}),
        **{key: value for key, value in settings.items() if key != "max_episode_steps"},
    )
    return sync, BatchSoloVectorEnv(GAMES, **settings)


class TestTheSameGamesAsSoloV0:
    """
    BatchSoloVectorEnv with greedy players against SyncVectorEnv over Solo-v0, step for step.
    """

    def test_the_defaults(self) -> None:
        counts = lockstep(*solo_pair(), STEPS, seed=5)
        assert counts["episodes"] > 0

    @pytest.mark.parametrize("seat", [1, 2, 3])
    def test_every_seat(self, seat: int) -> None:
        counts = lockstep(*solo_pair(seat=seat, dealer=seat ^ 1), STEPS // 2, seed=seat)
        assert counts["steps"] > 0

    def test_outcome_rewards_illegal_ids_and_the_tensor_alone(self) -> None:
        settings = {"reward": "outcome", "mask_in_observation": False}
        counts = lockstep(*solo_pair(**settings), STEPS, seed=11, illegal=0.02)
        assert counts["illegal"] > 0

    def test_the_learned_player(self) -> None:
        """
        The learned player's network over the batch chooses as `LearnedPlayer` does, game by game.
        """
        counts = lockstep(*solo_pair(players=["learned", "greedy", "learned"]), STEPS // 2, seed=8)
        assert counts["steps"] > 0

    def test_truncation(self) -> None:
        counts = lockstep(*solo_pair(max_episode_steps=7), 40, seed=2)
        assert counts["episodes"] >= GAMES * 4


class TestTheSameGamesAsSelfPlayV0:
    """
    BatchSelfPlayVectorEnv against SyncVectorEnv over SelfPlay-v0, both sharing members that draw nothing.
    """

    @staticmethod
    def pair(**settings: Any) -> tuple[Any, BatchSelfPlayVectorEnv]:
        scalar_pool, batch_pool = OpponentPool(), OpponentPool()
        for pool in (scalar_pool, batch_pool):
            pool.add("greedy")
            pool.add(PolicyBatchPlayer(Linear(1), name="linear"), "linear")
        sync = gymnasium.vector.SyncVectorEnv(
            [lambda: PersianRummySelfPlayEnv(opponents=scalar_pool, **settings)] * GAMES
        )
        return sync, BatchSelfPlayVectorEnv(GAMES, opponents=batch_pool, **settings)

    def test_the_learner_for_both_partners(self) -> None:
        counts = lockstep(*self.pair(), STEPS, seed=3)
        assert counts["episodes"] > 0

    @pytest.mark.parametrize("partner", ["latest", "pool", "greedy"])
    def test_partners(self, partner: str) -> None:
        counts = lockstep(*self.pair(partner=partner, team=1), STEPS // 2, seed=4, illegal=0.01)
        assert counts["steps"] > 0

    def test_a_network_chooses_once_for_the_games(self) -> None:
        network = Linear(2)
        envs = BatchSelfPlayVectorEnv(8, opponents=PolicyBatchPlayer(network, name="net"), team=0)
        observations, _ = envs.reset(seed=1)
        for _ in range(20):
            observations, *_ = envs.step(observations["action_mask"].argmax(axis=1))
        # One call for every pass of the batch, each over several games: never one call per game.
        assert len(network.calls) < 20 * 2 * 2 + 4
        assert max(network.calls) > 1
        assert sum(network.calls) > 8 * 20

    def test_a_member_added_while_training_plays_the_next_games(self) -> None:
        pool = OpponentPool(["greedy"])
        envs = BatchSelfPlayVectorEnv(4, opponents=pool)
        envs.reset(seed=0)
        assert set(envs.reset(seed=0)[1]["opponent"].tolist()) == {"greedy"}
        envs.add_opponent("random")
        opponents: set[str] = set()
        for seed in range(6):
            opponents |= set(envs.reset(seed=seed)[1]["opponent"].tolist())
        assert opponents == {"greedy", "random"}


class TestPlayers:
    """
    The players of the batch choose legal ids, the greedy one as the scalar greedy player.
    """

    def test_batch_player(self) -> None:
        assert batch_player("greedy") == GreedyBatchPlayer()
        assert batch_player("random") == RandomBatchPlayer()
        assert batch_player("learned") == LearnedBatchPlayer() == batch_player(LearnedPlayer())
        assert batch_player(LearnedPlayer("a.npz")).name == "learned:a.npz"
        row = batch_player("ismcts:20")
        assert isinstance(row, RowBatchPlayer)
        assert row.name == "ismcts:20"
        network = PolicyBatchPlayer(Linear(0), name="net")
        assert batch_player(network) is network
        with pytest.raises(InvalidTypeError, match="a player of the batch"):
            batch_player(3)
        with pytest.raises(InvalidTypeError, match="policy must be a function"):
            PolicyBatchPlayer(3)  # type: ignore[arg-type]

    def test_every_player_chooses_legal_ids(self) -> None:
        envs = BatchSoloVectorEnv(5, players=["random", "ismcts:10", PolicyBatchPlayer(Linear(3))])
        observations, _ = envs.reset(seed=9)
        for _ in range(30):
            observations, *_ = envs.step(observations["action_mask"].argmax(axis=1))
        for i, state in enumerate(envs.batch.to_states()):
            if state.to_act == 0:
                assert tuple(np.flatnonzero(observations["action_mask"][i]).tolist()) == legal_ids(state)

    def test_a_policy_of_one_observation_chooses_game_by_game(self) -> None:
        seen: list[tuple[int, ...]] = []

        def highest(observation: Any, mask: Any) -> int:
            seen.append(observation.shape + mask.shape)
            return int(np.flatnonzero(mask)[-1])

        envs = BatchSoloVectorEnv(3, players=highest)
        assert isinstance(envs.players[1], RowBatchPlayer)
        observations, _ = envs.reset(seed=4)
        assert set(seen) == {(868, 944)}  # one observation and one mask at each call
        for _ in range(10):
            observations, *_ = envs.step(observations["action_mask"].argmax(axis=1))
        assert len(seen) > 3 * 10
        illegal = BatchSoloVectorEnv(3, players=lambda _, mask: int(np.flatnonzero(mask == 0)[0]))
        with pytest.raises(InvalidValueError, match="'player' chose id"):
            illegal.reset(seed=4)

    def test_a_policy_that_chooses_an_illegal_id_is_named(self) -> None:
        envs = BatchSoloVectorEnv(3, players=PolicyBatchPlayer(lambda _, masks: np.zeros(len(masks), int), name="zero"))
        with pytest.raises(InvalidValueError, match="'zero' chose id 0"):
            envs.reset(seed=1)
        envs = BatchSoloVectorEnv(3, players=PolicyBatchPlayer(lambda _, __: [1], name="short"))
        with pytest.raises(InvalidValueError, match=r"'short' must return \d integer ids, got \[1\]"):
            envs.reset(seed=1)


class TestMakeVec:
    """
    ``make_vec`` plays Solo-v0 and SelfPlay-v0 on the batch whenever it can hold the settings.
    """

    def test_solo(self) -> None:
        assert isinstance(gymnasium.make_vec(SOLO, 2), BatchSoloVectorEnv)
        assert isinstance(gymnasium.make_vec(SOLO, 2, players="random"), BatchSoloVectorEnv)
        for settings in (
            {"players": "ismcts:10"},
            {"render_mode": "ansi"},
            {"rules": Rules(jokers_wild=True)},
            {"autoreset_mode": "SameStep"},
            {"engine": "scalar"},
        ):
            assert isinstance(gymnasium.make_vec(SOLO, 2, **settings), PersianRummyVectorEnv), settings
        with pytest.raises(InvalidValueError, match="default rules only"):
            gymnasium.make_vec(SOLO, 2, engine="batch", rules=Rules(jokers_wild=True))
        with pytest.raises(InvalidValueError, match="renders nothing"):
            gymnasium.make_vec(SOLO, 2, engine="batch", render_mode="ansi")
        with pytest.raises(InvalidValueError, match="'NextStep' only"):
            gymnasium.make_vec(SOLO, 2, engine="batch", autoreset_mode="Disabled")
        with pytest.raises(InvalidValueError, match="engine"):
            gymnasium.make_vec(SOLO, 2, engine="gpu")

    def test_self_play(self) -> None:
        assert isinstance(gymnasium.make_vec(SELF_PLAY, 2), BatchSelfPlayVectorEnv)
        scalar = gymnasium.make_vec(SELF_PLAY, 2, rules=Rules(jokers_wild=True), opponents="random")
        assert isinstance(scalar, gymnasium.vector.SyncVectorEnv)
        observations, _ = scalar.reset(seed=1)
        assert observations["observation"].shape[0] == 2
        with pytest.raises(InvalidValueError, match="default rules"):
            gymnasium.make_vec(SELF_PLAY, 2, engine="batch", rules=Rules(jokers_wild=True))

    def test_self_play_on_the_scalar_engine_takes_the_batchs_settings(self) -> None:
        """
        ``max_episode_steps`` truncates the scalar self-play games as it does the batch's; the batch's own
        observations are refused by name.
        """
        for engine in ("batch", "scalar"):
            envs = gymnasium.make_vec(SELF_PLAY, 2, engine=engine, max_episode_steps=3, copy=False)
            observations, _ = envs.reset(seed=4)
            truncated = []
            for _ in range(4):
                observations, _, terminations, truncations, _ = envs.step(observations["action_mask"].argmax(axis=1))
                truncated.append((terminations | truncations).tolist())
            assert truncated[2] == [True, True], engine  # the third step of each game ends it
            assert truncated[3] == [False, False], engine  # the next one starts a new game
        with pytest.raises(InvalidValueError, match="observation='compact' is the batched engine's alone"):
            gymnasium.make_vec(SELF_PLAY, 2, engine="scalar", observation="compact")
        with pytest.raises(InvalidValueError, match="mask_in_observation=False is the batched engine's alone"):
            gymnasium.make_vec(SELF_PLAY, 2, engine="scalar", mask_in_observation=False)
        with pytest.raises(InvalidValueError, match="max_episode_steps"):
            gymnasium.make_vec(SELF_PLAY, 2, engine="scalar", max_episode_steps=0)


class TestErrors:
    """
    Wrong settings and ids raise the package's errors before any game moves.
    """

    def test_settings(self) -> None:
        for settings, error in (
            ({"seat": 4}, InvalidValueError),
            ({"reward": "points"}, InvalidValueError),
            ({"on_illegal": "ignore"}, InvalidValueError),
            ({"observation": "pixels"}, InvalidValueError),
            ({"players": ["greedy"]}, InvalidValueError),
            ({"max_episode_steps": 0}, InvalidValueError),
            ({"copy": 1}, InvalidTypeError),
        ):
            with pytest.raises(error):
                BatchSoloVectorEnv(2, **settings)
        with pytest.raises(InvalidValueError, match="num_envs"):
            BatchSoloVectorEnv(0)
        with pytest.raises(InvalidValueError, match="team must be"):
            BatchSelfPlayVectorEnv(2, team=2)

    def test_ids(self) -> None:
        envs = BatchSoloVectorEnv(3, on_illegal="raise")
        with pytest.raises(InvalidValueError, match="reset before"):
            envs.step(np.zeros(3, int))
        observations, _ = envs.reset(seed=1)
        before = envs.batch.to_states()
        masks = observations["action_mask"]
        with pytest.raises(InvalidValueError, match="one id per game"):
            envs.step(np.zeros(2, int))
        with pytest.raises(InvalidValueError):
            envs.step(np.array([0, 0, 944]))
        with pytest.raises(InvalidTypeError):
            envs.step(np.array([0.5, 0.0, 0.0]))
        illegal = masks.argmax(axis=1)
        illegal[1] = np.flatnonzero(masks[1] == 0)[0]
        with pytest.raises(IllegalActionError):
            envs.step(illegal)
        assert envs.batch.to_states() == before


def test_report() -> None:
    """
    The steps compared above (printed for ``nox -s batch``).
    """
    print(f"batched environments: {COMPARED}")  # noqa: T201 (nox -s batch reports it)


def test_members_dropped_from_a_full_pool_are_let_go() -> None:
    """
    A pool of bounded capacity, added to for long, keeps a bounded number of the batch's players.
    """
    pool = OpponentPool(["greedy"], capacity=2)
    envs = BatchSelfPlayVectorEnv(4, opponents=pool)
    envs.reset(seed=0)
    for k in range(30):
        pool.add(PolicyBatchPlayer(Linear(k), name=f"net-{k}"), f"net-{k}")
        envs.reset(seed=k)
    assert len(envs._games.players) <= 2 * 2 + 4 + 1
    assert pool.names == ("net-28", "net-29")
