"""
``gymnasium.make_vec`` over ``persian_rummy/Solo-v0``, synchronous and asynchronous, with 8 games:
the infos of the games stack (each key of one type whatever happens), and the masks are never
empty, the step that resets a game included.

The default suite plays 1,500 steps of the vector in each mode; ``nox -s make-vec`` plays 12,500
(100,000 steps of the games in each mode), ``PERSIAN_RUMMY_MAKE_VEC_STEPS`` sets another number.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

from persian_rummy import DealScore, Phase, Rules
from persian_rummy.rl.actionids import legal_ids
from persian_rummy.rl.gymnasium import ENV_ID, PersianRummySoloEnv
from persian_rummy.serialize import from_data

#: The steps of the vector in each mode (8 games each step).
STEPS = int(os.environ.get("PERSIAN_RUMMY_MAKE_VEC_STEPS", "1500"))
GAMES = 8
#: Under these rules no card scores and going out earns nothing: every game is a draw (R28).
NOTHING_SCORES = Rules(card_values="0/0/0/0/0/0/0/0/0/0/0/0/0/0", go_out_bonus=0)


def check_infos(infos: dict[str, Any]) -> None:
    """
    Each key of a step's infos is of one type across the games that have it (R27, R28).
    """
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        present = infos[f"_{key}"]
        if key == "winner":
            assert value.dtype.kind == "i"
            assert set(value[present].tolist()) <= {-1, 0, 1}
        elif key == "scores":
            assert all(type(total) is int for scores in value[present] for total in scores)
        elif key == "results":
            for results in value[present]:
                json.dumps(results)
                deals = [from_data(result) for result in results]
                assert all(isinstance(deal, DealScore) for deal in deals)
                assert list(range(1, len(deals) + 1)) == [deal.deal for deal in deals]  # type: ignore[union-attr]
        elif key == "deals":
            assert all(type(points) is int for deals in value[present] for deal in deals for points in deal)
        else:
            pytest.fail(f"an unexpected info {key!r}")


def drive(envs: Any, steps: int, seed: int, solo: bool) -> dict[str, int]:
    """
    Play *steps* steps of random legal ids drawn from ``action_masks()``, checking every step; counts.

    With *solo*, the games' states are read too (synchronous mode), and each mask is checked
    against the legal ids of the learner's game.
    """
    rng = np.random.default_rng(seed)
    observations, infos = envs.reset(seed=seed)
    check_infos(infos)
    ended = np.zeros(GAMES, dtype=np.bool_)
    counts = {"episodes": 0, "draws": 0, "resets": 0}
    for _ in range(steps):
        masks = np.stack(envs.call("action_masks"))
        assert masks.any(axis=1).all(), "a game has no id to choose from"
        assert np.array_equal(masks, observations["action_mask"].astype(np.bool_))
        if solo:
            for i in np.flatnonzero(~ended).tolist():
                state = envs.envs[i].unwrapped.game_state
                assert legal_ids(state) == tuple(np.flatnonzero(masks[i]).tolist())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        check_infos(infos)
        # The step after a game's end resets it (Gymnasium's next-step autoreset), with no reward.
        assert (0, 0, 0) == (np.abs(rewards[ended]).sum(), terminations[ended].sum(), truncations.sum())
        counts["resets"] += int(ended.sum())
        counts["episodes"] += int(terminations.sum())
        if "winner" in infos:
            counts["draws"] += int((infos["winner"][infos["_winner"]] == -1).sum())
        ended = terminations
    return counts


class TestMakeVec:
    """
    Gymnasium's vector environments over Solo-v0: a game's infos stack with the others', and the
    masks always hold an id, at the end of a game (R27) as well.
    """

    @pytest.mark.parametrize("mode", ["sync", pytest.param("async", marks=pytest.mark.once)])  # processes: long
    def test_random_play(self, mode: str) -> None:
        envs = gymnasium.make_vec(ENV_ID, GAMES, vectorization_mode=mode)
        try:
            counts = drive(envs, STEPS, seed=21, solo=mode == "sync")
        finally:
            envs.close()
        print(f"make_vec {mode}: {STEPS * GAMES:,} steps of the games, {counts}")  # noqa: T201 (nox -s make-vec)
        assert counts["episodes"] > 0
        assert counts["resets"] >= counts["episodes"] - GAMES

    def test_every_game_a_draw(self) -> None:
        envs = gymnasium.make_vec(ENV_ID, GAMES, vectorization_mode="sync", rules=NOTHING_SCORES, players="random")
        try:
            counts = drive(envs, 300, seed=3, solo=True)
        finally:
            envs.close()
        assert counts["episodes"] == counts["draws"] > 0


class TestInfoTypes:
    """
    The infos of a draw and of a win stack (R28, A22): the winner is an int, -1 for a draw, and
    the results are JSON data.
    """

    def test_a_draw_beside_a_win(self) -> None:
        infos = []
        for rules in (Rules(), NOTHING_SCORES):
            env = PersianRummySoloEnv(rules, players="random")
            env.reset(seed=4)
            info: dict[str, Any] = {}
            while env.game_state.phase is not Phase.GAME_OVER:
                _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            infos.append(info)
        assert (1, -1) == (infos[0]["winner"], infos[1]["winner"])
        assert [type(value) for value in infos[0].values()] == [type(value) for value in infos[1].values()]
        envs = gymnasium.vector.SyncVectorEnv([PersianRummySoloEnv] * 2)
        stacked = envs._add_info(envs._add_info({}, infos[0], 0), infos[1], 1)
        assert [1, -1] == stacked["winner"].tolist()
        assert infos[1]["results"] == json.loads(json.dumps(stacked["results"][1]))
