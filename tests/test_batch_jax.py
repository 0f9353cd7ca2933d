"""
The legal-action masks of JAX (persian_rummy.rl.batchjax) against the NumPy batch's: seeded games stepped
by the NumPy `Batch`, and at every step the masks of all its games compared, bit for bit.

The number of games is `PERSIAN_RUMMY_BATCH_GAMES` (default 20, a few seconds); ``nox -s jax`` plays 200
and prints the states compared.  Skipped where JAX is not installed (the ``jax`` extra).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")

# After the skips: the module needs numpy and JAX.
from persian_rummy import new_game  # noqa: E402
from persian_rummy.rl.batch import PHASES, Batch  # noqa: E402
from persian_rummy.rl.batchjax import BatchArrays, arrays_of, legal_masks  # noqa: E402
from persian_rummy.state import Phase  # noqa: E402

# Long differentials over whole games: the first Python runs them (and ``nox -s jax``), the
# later Pythons' tests sessions leave them out.
pytestmark = pytest.mark.once

GAMES = int(os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "20"))
#: Games stepped together: a batch of this many at a time (one compilation for each width).
WIDTH = 250
#: The first id of the lay-downs: the players prefer them and the lay-offs, to reach going out.
_MELDS = 114
_DRAW, _PLAY, _GAME_OVER = (PHASES.index(phase) for phase in (Phase.DRAW, Phase.PLAY, Phase.GAME_OVER))
_WAITING = [PHASES.index(Phase.DEAL), PHASES.index(Phase.DEAL_OVER)]
_BITS = np.left_shift(np.uint64(1), np.arange(56, dtype=np.uint64))


def _choose(masks: Any, rng: Any) -> Any:
    """
    A random legal id of each game, a lay-down or lay-off seven times in ten where there is one; -1 for none.
    """
    plays = masks.copy()
    plays[:, :_MELDS] = False
    melding = (rng.random(len(masks)) < 0.7) & plays.any(axis=1)
    chosen = np.where(melding[:, None], plays, masks)
    ids = np.where(chosen, rng.random(masks.shape), -1.0).argmax(axis=1)
    return np.where(masks.any(axis=1), ids, -1)


def _same_masks(batch: Batch) -> Any:
    """
    Both masks of *batch*'s games, checked equal: the NumPy batch's.
    """
    expected = batch.legal_masks()
    got = np.asarray(legal_masks(arrays_of(batch)))
    assert (got.shape, got.dtype) == (expected.shape, expected.dtype)
    wrong = (got != expected).any(axis=1).nonzero()[0]
    assert [] == [(int(i), np.flatnonzero(got[i] != expected[i]).tolist()) for i in wrong]
    return expected


def _deepened(batch: Batch, rng: Any) -> Batch:
    """
    A copy of *batch* where each game at a draw has its stock and the other seats' hands put onto its
    discard pile, shuffled: piles of 20 to 50 cards, which random games seldom grow (the masks read only
    the hand of the seat to act, the pile, the stock's size and the table).
    """
    deep = copy.deepcopy(batch)
    for i in (deep.phase == _DRAW).nonzero()[0]:
        seat = deep.to_act[i]
        others = [s for s in range(4) if s != seat]
        held = np.bitwise_or.reduce(deep.hands[i, others])
        cards = [*deep.stock[i, deep.stock_start[i] :], *np.flatnonzero(_BITS & held != 0)]
        top = deep.pile_len[i] + len(cards)
        deep.pile[i, deep.pile_len[i] : top] = rng.permutation(cards)
        deep.pile_len[i], deep.stock_start[i] = top, 56
        deep.hands[i, others] = 0
    return deep


def compare(games: int, seed: int) -> Counter[str]:
    """
    Play *games* seeded games with the NumPy batch, comparing both masks of all of them at every step (and
    at every fifth step those of the games with their piles deepened): the states compared where a seat is
    to act, some of them by what was legal in them, and the rows of games already over (no id legal, in both).
    """
    batch = Batch.from_states([new_game(dealer=i % 4) for i in range(games)])
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    while not (batch.phase == _GAME_OVER).all():
        waiting = np.isin(batch.phase, _WAITING)
        if waiting.any():
            batch.deal(np.stack([rng.permutation(56) for _ in range(games)]), waiting)
        expected = _same_masks(batch)
        if seen["steps"] % 5 == 0:
            deep = _deepened(batch, rng)
            _same_masks(deep)
            seen["states with a deep pile"] += int(((deep.phase == _DRAW) & (deep.pile_len >= 20)).sum())
        seen["steps"] += 1
        seen["states"] += int(np.isin(batch.phase, [_DRAW, _PLAY]).sum())
        seen["at a draw"] += int((batch.phase == _DRAW).sum())
        seen["over"] += int((batch.phase == _GAME_OVER).sum())
        seen["with a take"] += int(expected[:, 2:58].any(axis=1).sum())
        seen["bound to play a taken card"] += int((batch.obligation >= 0).sum())
        seen["with a lay-off onto a run"] += int(expected[:, 504:].any(axis=1).sum())
        batch.step(_choose(expected, rng))
    return seen


@pytest.mark.parametrize("start", range(0, GAMES, WIDTH))
def test_the_masks_of_jax_are_the_batchs(start: int) -> None:
    games = min(WIDTH, GAMES - start)
    seen = compare(games, start)
    counts = ", ".join(f"{what} {times}" for what, times in seen.items())
    print(f"jax masks: games {start}-{start + games - 1}, {counts}")  # noqa: T201
    assert all(seen.values())


@pytest.fixture(scope="module")
def dealt() -> Batch:
    batch = Batch.new(5, dealer=1)
    batch.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(5)]))
    return batch


def test_the_masks_are_a_jax_array_of_booleans(dealt: Batch) -> None:
    masks = legal_masks(arrays_of(dealt))
    assert isinstance(masks, jax.Array)
    assert (masks.shape, masks.dtype) == ((5, 944), np.dtype(np.bool_))


def test_the_function_is_traced_with_shapes_alone(dealt: Batch) -> None:
    """
    Nothing of the masks' shapes depends on the games: abstract arrays give them, and an enclosing
    `jax.jit` compiles the function with the rest, giving the same masks.
    """
    arrays = arrays_of(dealt)
    shapes = BatchArrays(*(jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays))
    out = jax.eval_shape(legal_masks, shapes)
    assert (out.shape, out.dtype) == ((5, 944), np.dtype(np.bool_))
    compiled = jax.jit(legal_masks).lower(arrays).compile()
    assert np.array_equal(np.asarray(compiled(arrays)), dealt.legal_masks())


def test_the_tables_made_first_inside_a_trace_are_values(dealt: Batch) -> None:
    """
    The tables are made once and kept: made first while `jax.jit` traces the function, they are still
    values, so that a later call outside the trace works (it raised JAX's ``UnexpectedTracerError``).
    """
    from persian_rummy.rl import batchjax  # noqa: PLC0415 (its cache, cleared for this test)

    arrays = arrays_of(dealt)
    batchjax._tables.cache_clear()  # the module's cache, made again in this test
    try:
        traced = jax.jit(legal_masks)(arrays)
        assert np.array_equal(np.asarray(legal_masks(arrays)), np.asarray(traced))
        assert np.array_equal(np.asarray(traced), dealt.legal_masks())
    finally:
        batchjax._tables.cache_clear()


def test_batches_of_batches_map_the_function() -> None:
    """
    ``jax.vmap`` over batches of the same size stacked: each batch's masks.
    """
    batches = [Batch.new(3, dealer=d) for d in range(2)]
    for d, batch in enumerate(batches):
        batch.deal(np.stack([np.random.default_rng(10 * d + s).permutation(56) for s in range(3)]))
    batches[1].step(batches[1].legal_masks().argmax(axis=1))
    stacked = jax.tree.map(lambda *arrays: jax.numpy.stack(arrays), *(arrays_of(batch) for batch in batches))
    masks = np.asarray(jax.vmap(legal_masks)(stacked))
    assert [np.array_equal(masks[d], batch.legal_masks()) for d, batch in enumerate(batches)] == [True, True]


def test_the_masks_are_split_between_the_suits(dealt: Batch) -> None:
    """
    Each mask's first word holds the clubs and the diamonds, its second the rest, shifted down by 26.
    """
    words = np.asarray(arrays_of(dealt).hands).astype(np.uint64)
    assert np.array_equal(words[..., 0] | (words[..., 1] << np.uint64(26)), dealt.hands)
    assert words.max() < 1 << 30


def test_the_masks_are_the_same_with_64_bits() -> None:
    """
    With ``jax_enable_x64`` on (it is read when JAX is imported), the module computes the same masks.
    """
    code = (
        "import jax, numpy as np; from persian_rummy.rl.batch import Batch; "
        "from persian_rummy.rl.batchjax import arrays_of, legal_masks; "
        "assert jax.config.jax_enable_x64; "
        "b = Batch.new(4); b.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(4)])); "
        "b.step(b.legal_masks().argmax(axis=1)); "
        "print(np.array_equal(np.asarray(legal_masks(arrays_of(b))), b.legal_masks()))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "JAX_ENABLE_X64": "1", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
    assert "True" == done.stdout.strip()
