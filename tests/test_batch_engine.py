"""
The batched engine (persian_rummy.rl.batch) against the scalar one: the same seeded games stepped
through both, every state (through `Batch.state`), every mask and every deal's points compared.

The number of games is `PERSIAN_RUMMY_BATCH_GAMES` (default 40, a few seconds); ``nox -s batch``
plays 5,000 and prints the states compared.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

# After the skip: the batch needs numpy.
from persian_rummy import InvalidValueError, Rules, apply, new_game, random_deal  # noqa: E402
from persian_rummy.rl.actionids import action_from_id, legal_ids  # noqa: E402
from persian_rummy.rl.batch import Batch, supports  # noqa: E402
from persian_rummy.scoring import DealEnd  # noqa: E402

# Long differentials over whole games: the first Python runs them (and ``nox -s batch`` at scale), the
# later Pythons' tests sessions leave them out.
pytestmark = pytest.mark.once

GAMES = int(os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "40"))
#: Games stepped together: a batch of this many at a time.
WIDTH = 250
#: The first id of the lay-downs: the player of the differential prefers them and the lay-offs, to reach going out.
_MELDS = 114


def _choose(ids: tuple[int, ...], source: random.Random) -> int:
    plays = [i for i in ids if i >= _MELDS]
    if plays and source.random() < 0.7:
        return source.choice(plays)
    return source.choice(ids)


def differential(games: int, seed: int) -> tuple[int, dict[DealEnd, int]]:
    """
    Play *games* games through both engines side by side; the states compared and the deals' ends.
    """
    states = [new_game(dealer=i % 4) for i in range(games)]
    batch = Batch.from_states(states)
    sources = [random.Random(seed * 100_003 + i) for i in range(games)]  # noqa: S311 (seeded games)
    compared = 0
    ends = dict.fromkeys(DealEnd, 0)
    while True:
        live = [i for i, state in enumerate(states) if state.phase.value != "game_over"]
        if not live:
            return compared, ends
        waiting = np.zeros(games, np.bool_)
        decks = np.zeros((games, 56), np.int64)
        for i in live:
            if states[i].is_chance_node:
                action = random_deal(states[i], sources[i])
                decks[i] = [card.index for card in action.deck]
                waiting[i] = True
                states[i] = apply(states[i], action)
        if waiting.any():
            assert not batch.deal(decks, waiting).any()
        else:
            masks = batch.legal_masks()
            ids = np.zeros(games, np.int64)
            for i in live:
                legal = legal_ids(states[i])
                assert tuple(np.flatnonzero(masks[i]).tolist()) == legal
                ids[i] = _choose(legal, sources[i])
                states[i] = apply(states[i], action_from_id(int(ids[i]), states[i]))
            if compared % 2:
                gained = batch.step(ids)
            else:  # the deals that end scored by a settle of their own, as the environments' loops score them
                assert not batch.step(ids, settle=False).any()
                gained = batch.settle()
            for i in live:
                ended = states[i].phase.value in {"deal_over", "game_over"}
                expected = states[i].results[-1].totals if ended else (0, 0)
                assert tuple(gained[i].tolist()) == expected
                if ended:
                    ends[states[i].results[-1].end] += 1
        assert not batch.legal_masks()[~np.isin(np.arange(games), live)].any()
        for i in live:
            assert batch.state(i) == states[i]
            compared += 1


@pytest.mark.parametrize("start", range(0, GAMES, WIDTH))
def test_the_batch_plays_the_scalar_engines_games(start: int) -> None:
    games = min(WIDTH, GAMES - start)
    compared, ends = differential(games, start)
    counts = ", ".join(f"{end.value} {times}" for end, times in ends.items())
    print(f"batch differential: games {start}-{start + games - 1}, {compared} states compared; deals: {counts}")  # noqa: T201
    assert ends[DealEnd.WENT_OUT] > 0
    assert ends[DealEnd.PASSES] > 0


def test_states_go_through_the_batch_and_back() -> None:
    rng = random.Random(3)  # noqa: S311 (a seeded game)
    state = new_game(dealer=2)
    seen = [state]
    while state.phase.value != "game_over":
        if state.is_chance_node:
            state = apply(state, random_deal(state, rng))
        else:
            state = apply(state, action_from_id(rng.choice(legal_ids(state)), state))
        seen.append(state)
    assert Batch.from_states(seen).to_states() == seen
    assert Batch.new(2, dealer=3).to_states() == [new_game(dealer=3)] * 2


def test_the_batch_refuses_other_rules() -> None:
    assert supports(Rules())
    assert not supports(Rules(jokers_wild=True))
    with pytest.raises(InvalidValueError, match="default rules only"):
        Batch.from_states([new_game(Rules(ace_low_allowed=True))])


def test_scores_add_the_deals() -> None:
    rng = random.Random(5)  # noqa: S311 (a seeded game)
    state = new_game()
    while state.phase.value != "game_over":
        legal = legal_ids(state) if not state.is_chance_node else ()
        state = apply(state, random_deal(state, rng) if not legal else action_from_id(rng.choice(legal), state))
    assert Batch.from_states([state]).scores().tolist() == [list(state.scores)]


def test_the_batched_environment_plays_whole_games() -> None:
    pytest.importorskip("gymnasium")
    from persian_rummy.rl.batchenv import BATCH_OBSERVATION_SIZE, BatchSoloVectorEnv  # noqa: PLC0415 (gymnasium)

    envs = BatchSoloVectorEnv(8, players="random", observation="compact")
    observations, _ = envs.reset(seed=4)
    assert observations["observation"].shape == (8, BATCH_OBSERVATION_SIZE)
    rng = np.random.default_rng(4)
    returns = np.zeros(8)
    finished = np.zeros(8, np.bool_)
    for _ in range(400):
        for i, state in enumerate(envs.batch.to_states()):
            if state.to_act == 0:
                assert tuple(np.flatnonzero(observations["action_mask"][i]).tolist()) == legal_ids(state)
        actions = (rng.random((8, 944)) * observations["action_mask"]).argmax(axis=1)
        observations, rewards, terminations, _, _ = envs.step(actions)
        returns += np.where(finished, 0.0, rewards)
        if terminations.any():
            scores = envs.batch.scores()
            margin = (scores[:, 0] - scores[:, 1]) / envs.reward_scale
            assert np.allclose(returns[terminations & ~finished], margin[terminations & ~finished])
        finished |= terminations
        if finished.all():
            break
    assert finished.all()
    with pytest.raises(InvalidValueError, match="'nobody'"):
        BatchSoloVectorEnv(2, players="nobody")


def test_masks_and_steps_of_some_games_are_those_of_the_whole_batch() -> None:
    rng = np.random.default_rng(7)
    states = [new_game(dealer=i % 4) for i in range(60)]
    whole, some = Batch.from_states(states), Batch.from_states(states)
    decks = np.stack([rng.permutation(56) for _ in range(60)])
    whole.deal(decks)
    some.deal(decks)
    for _ in range(300):
        masks = whole.legal_masks()
        games = np.flatnonzero(masks.any(axis=1))
        assert np.array_equal(masks[games], some.legal_masks_of(games))
        for phase, of in ((1, some.draw_masks_of), (2, some.play_masks_of)):
            at = games[whole.phase[games] == phase]
            assert np.array_equal(masks[at], of(at))
        ids = (rng.random(masks.shape) * masks).argmax(axis=1)
        assert np.array_equal(whole.step(ids), some.step(ids[games], games))
        waiting = np.isin(whole.phase, (0, 3))
        whole.deal(decks, waiting)
        some.deal(decks, waiting)
    assert whole.to_states() == some.to_states()
    assert [state.phase.value for state in whole.to_states()].count("game_over") > 0


def test_deals_scored_later_are_scored_alike() -> None:
    """
    Steps that leave their deals' scores to `Batch.settle` end with the same games and points as steps
    that score them at once, the settles coming only before the deals; a deal waits for them.
    """
    games = 60
    now, later = Batch.new(games), Batch.new(games)
    rng = np.random.default_rng(4)
    total_now, total_later = np.zeros((games, 2), np.int64), np.zeros((games, 2), np.int64)
    deals = ended = 0
    while (later.phase != 4).any():
        waiting = (later.phase == 0) | (later.phase == 3)
        if waiting.any():
            decks = np.stack([rng.permutation(56) for _ in range(games)])
            if (later.deals_done != now.deals_done).any():  # deals wait to be scored
                with pytest.raises(InvalidValueError, match="settle them before the next deal"):
                    later.deal(decks, waiting)
                later.settle(total_later)
                assert now.to_states() == later.to_states()
            now.deal(decks, waiting)
            later.deal(decks, waiting)
            deals += 1
        masks = now.legal_masks()
        ids = np.where(masks.any(axis=1), (rng.random(masks.shape) * masks).argmax(axis=1), -1)
        now.step(ids, gained=total_now)
        before = total_later.copy()
        assert later.step(ids, gained=total_later, settle=False) is total_later
        assert np.array_equal(total_later, before)  # no points until the settle
        assert np.array_equal(now.phase, later.phase)
        ended += int(np.count_nonzero(now.deals_done != later.deals_done))
    later.settle(total_later)
    assert now.to_states() == later.to_states()
    assert np.array_equal(total_now, total_later)
    assert deals > 2
    assert ended > 0  # deals waited to be scored
    assert total_now.any()


def test_the_batched_environments_moves_are_the_scalar_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """
    Every move the batched environment plays, the learner's and the other seats', is legal in the
    scalar engine and leaves the game as the scalar engine leaves it, with the same points.
    """
    pytest.importorskip("gymnasium")
    from persian_rummy.rl.batchenv import BatchSoloVectorEnv  # noqa: PLC0415 (gymnasium)

    step = Batch.step
    moves = {"learner": 0, "others": 0}

    def checked(batch: Batch, ids: Any, games: Any = None, *, gained: Any = None, settle: bool = True) -> Any:  # noqa: ARG001
        # Each step's deals are scored at once, to compare the points; the loops' settles then find none.
        ids = np.asarray(ids, dtype=np.int64)
        if games is None:
            games = np.flatnonzero(np.isin(batch.phase, (1, 2)) & (ids >= 0))
            ids = ids[games]
        expected = {}
        for i, move in zip(games.tolist(), ids.tolist(), strict=True):
            state = batch.state(i)
            assert move in legal_ids(state)
            moves["learner" if state.to_act == 0 else "others"] += 1
            expected[i] = apply(state, action_from_id(move, state))
        total = np.zeros((batch.n, 2), np.int64) if gained is None else gained
        before = total.copy()
        assert step(batch, ids, games, gained=total) is total
        for i, state in expected.items():
            assert batch.state(i) == state
            ended = state.phase.value in {"deal_over", "game_over"}
            assert tuple((total[i] - before[i]).tolist()) == (state.results[-1].totals if ended else (0, 0))
        return total

    monkeypatch.setattr(Batch, "step", checked)
    envs = BatchSoloVectorEnv(6, players="random")
    envs.compiled = False  # the array code's moves (tests/test_batch_kernel.py: the compiled ones are the same)
    observations, _ = envs.reset(seed=8)
    rng = np.random.default_rng(8)
    ended = np.zeros(6, np.bool_)
    for _ in range(150):
        actions = (rng.random((6, 944)) * observations["action_mask"]).argmax(axis=1)
        observations, _, terminations, _, _ = envs.step(actions)
        ended |= terminations
    assert ended.any()
    assert moves["others"] > 2 * moves["learner"] > 0
