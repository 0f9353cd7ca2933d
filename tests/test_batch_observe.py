"""
The batched observation (persian_rummy.rl._batch_observe) against the scalar one: seeded games stepped
through the batch, and at every state the observation of every game from each of the four seats compared
with ``observation_tensor(observe(batch.state(game), seat))``, bit for bit.

The number of games is `PERSIAN_RUMMY_BATCH_GAMES` (default 20, a few seconds); the rows compared are printed.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

# After the skip: the batch needs numpy.
from persian_rummy import InvalidTypeError, InvalidValueError, observe  # noqa: E402
from persian_rummy.rl import _batch_tables  # noqa: E402
from persian_rummy.rl._batch_observe import observations  # noqa: E402
from persian_rummy.rl.batch import PHASES, Batch  # noqa: E402
from persian_rummy.rl.tensors import OBSERVATION_LAYOUT, OBSERVATION_SIZE, observation_tensor  # noqa: E402

# Long differentials over whole games: the first Python runs them (and ``nox -s batch`` at scale), the
# later Pythons' tests sessions leave them out.
pytestmark = pytest.mark.once

GAMES = int(os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "20"))
#: Games stepped together: a batch of this many at a time.
WIDTH = 250
#: The first id of the lay-downs: the players prefer them and the lay-offs, to reach going out.
_MELDS = 114
#: The lay-downs of four cards, sets and runs: the players prefer them most, to reach the doubled sets (R25).
_FOURS = np.flatnonzero(np.bitwise_count(_batch_tables.CARDS[: _batch_tables.ON_SET0]) == 4)
_FOURS = _FOURS[_FOURS >= _MELDS]
_SEGMENTS = {segment.name: segment for segment in OBSERVATION_LAYOUT}
#: The parts the differential counts the rows of where they are set: each must be reached.
_PARTS = ("table_own", "table_other", "meld_start", "doubled", "obligation", "picked", "went_out", "known_left")
# The codes of the phases in `Batch.phase`.
_DEAL, _DEAL_OVER, _GAME_OVER = 0, 3, 4
assert [PHASES[code].value for code in (_DEAL, _DEAL_OVER, _GAME_OVER)] == ["deal", "deal_over", "game_over"]


def _choose(masks: Any, rng: Any) -> Any:
    """
    A legal id of each game where a seat is to act, a lay-down or a lay-off seven times in ten where
    there is one (a lay-down of four cards where there is one); -1 for the other games.
    """
    ids = np.full(masks.shape[0], -1, np.int64)
    for i in masks.any(axis=1).nonzero()[0]:
        legal = np.flatnonzero(masks[i])
        plays = legal[legal >= _MELDS]
        fours = np.intersect1d(plays, _FOURS)
        if plays.size and rng.random() < 0.7:
            ids[i] = rng.choice(fours if fours.size else plays)
        else:
            ids[i] = rng.choice(legal)
    return ids


def _differences(got: Any, expected: Any) -> list[str]:
    """
    The parts of the layout where the row *got* differs from *expected*, with the values of each.
    """
    wrong = set(np.flatnonzero(got != expected).tolist())
    return [
        f"{segment.name}: {got[segment.start : segment.stop].tolist()} != "
        f"{expected[segment.start : segment.stop].tolist()}"
        for segment in OBSERVATION_LAYOUT
        if wrong & set(range(segment.start, segment.stop))
    ]


def _compare(batch: Batch, games: Any, seen: Counter[str]) -> int:
    """
    Compare the observations of the games *games* of *batch* from each seat with the scalar ones, counting
    in *seen* the rows of each phase and those where some parts are set: the rows compared.
    """
    rows = np.repeat(games, 4)
    seats = np.tile(np.arange(4), games.size)
    got = observations(batch, rows, seats)
    assert got.shape == (rows.size, OBSERVATION_SIZE)
    assert got.dtype == np.float32
    for j, (game, seat) in enumerate(zip(rows.tolist(), seats.tolist(), strict=True)):
        expected = observation_tensor(observe(batch.state(game), seat))
        phase = PHASES[int(batch.phase[game])].value
        if not np.array_equal(got[j], expected):
            pytest.fail(f"game {game}, seat {seat}, {phase}: " + "; ".join(_differences(got[j], expected)))
        seen[phase] += 1
        melds = int(batch.melds[game])
        owners = batch.owner[game, :melds] & 1
        layoffs = batch.layoffs[game, :melds]
        if layoffs.any():
            seen["lay_offs"] += 1
        if np.where(owners[:, None] == np.arange(4) % 2, 0, layoffs).any():
            seen["lay_offs_by_the_other_team"] += 1
        for name in _PARTS:
            segment = _SEGMENTS[name]
            if expected[segment.start : segment.stop].any():
                seen[name] += 1
    return int(rows.size)


def differential(games: int, seed: int) -> tuple[int, Counter[str], Counter[str]]:
    """
    Play *games* seeded games through the batch to their end, comparing every state's observations:
    the rows compared, how many of them showed each phase and each part counted, and how the deals ended.
    """
    rng = np.random.default_rng(seed)
    batch = Batch.new(games)
    batch.dealer[:] = np.arange(games) % 4
    seen: Counter[str] = Counter()
    compared = _compare(batch, np.arange(games), seen)
    while True:
        live = (batch.phase != _GAME_OVER).nonzero()[0]
        if not live.size:
            break
        # The games at a deal are dealt after the others' moves, so that a deal's end is seen before the next deal.
        waiting = (batch.phase == _DEAL) | (batch.phase == _DEAL_OVER)
        batch.step(_choose(batch.legal_masks(), rng))
        if waiting.any():
            batch.deal(rng.permuted(np.tile(np.arange(56), (games, 1)), axis=1), waiting)
        compared += _compare(batch, live, seen)
    finished = batch.result_end[np.arange(2) < batch.deals_done[:, None]]
    ends = Counter(("went_out", "passes")[end] for end in finished.tolist())
    return compared, seen, ends


@pytest.mark.parametrize("start", range(0, GAMES, WIDTH))
def test_the_batch_observes_as_the_scalar_tensor(start: int) -> None:
    games = min(WIDTH, GAMES - start)
    compared, seen, ends = differential(games, start)
    counts = ", ".join(f"{name} {times}" for name, times in sorted(seen.items()))
    print(  # noqa: T201
        f"batch observations: games {start}-{start + games - 1}, {compared} rows compared; "
        f"deals ended: going out {ends['went_out']}, by passes {ends['passes']}; rows with {counts}"
    )
    for name in (*(phase.value for phase in PHASES), *_PARTS, "lay_offs", "lay_offs_by_the_other_team"):
        assert seen[name] > 0, name
    assert ends["went_out"] > 0
    assert ends["passes"] > 0


def _played(games: int, moves: int, seed: int) -> Batch:
    """
    A batch of *games* games after *moves* moves of seeded random players.
    """
    rng = np.random.default_rng(seed)
    batch = Batch.new(games)
    for _ in range(moves):
        waiting = (batch.phase == _DEAL) | (batch.phase == _DEAL_OVER)
        batch.step(_choose(batch.legal_masks(), rng))
        batch.deal(rng.permuted(np.tile(np.arange(56), (games, 1)), axis=1), waiting)
    return batch


def test_out_is_written_and_returned() -> None:
    batch = _played(6, 30, 7)
    games, seats = np.array([5, 0, 2, 2]), np.array([1, 3, 0, 2])
    expected = observations(batch, games, seats)
    whole = np.full((6, OBSERVATION_SIZE), np.nan, np.float32)
    rows = whole[1:5]
    assert observations(batch, games, seats, out=rows) is rows
    assert np.array_equal(whole[1:5], expected)
    assert np.isnan(whole[[0, 5]]).all()
    out = np.full((4, OBSERVATION_SIZE), np.nan, np.float32)
    assert observations(batch, games, seats, out=out) is out
    assert np.array_equal(out, expected)
    # Rows of any layout: every other row of an array, and an array in Fortran's order.
    spaced = np.full((8, OBSERVATION_SIZE), np.nan, np.float32)
    every_other = spaced[::2]
    assert observations(batch, games, seats, out=every_other) is every_other
    assert np.array_equal(spaced[::2], expected)
    assert np.isnan(spaced[1::2]).all()
    fortran = np.asfortranarray(np.full((4, OBSERVATION_SIZE), np.nan, np.float32))
    assert observations(batch, games, seats, out=fortran) is fortran
    assert np.array_equal(fortran, expected)


def test_one_seat_serves_every_game_and_no_game_gives_no_rows() -> None:
    batch = _played(3, 12, 2)
    games = np.array([2, 0, 1])
    assert np.array_equal(observations(batch, games, np.int64(3)), observations(batch, games, np.full(3, 3)))
    assert observations(batch, np.array([], np.int64), np.array([], np.int64)).shape == (0, OBSERVATION_SIZE)


@pytest.mark.parametrize(
    ("games", "seats", "out", "error", "match"),
    [
        (np.array([0.0]), np.array([0]), None, InvalidTypeError, "games must be an array of integers"),
        (np.array([[0]]), np.array([0]), None, InvalidValueError, "one-dimensional"),
        (np.array([0, 1]), np.array([0, 1, 2]), None, InvalidValueError, "one per game"),
        (np.array([3]), np.array([0]), None, InvalidValueError, "indices of the batch's 3 games"),
        (np.array([0]), np.array([4]), None, InvalidValueError, "0-3"),
        (np.array([0]), np.array([0]), np.zeros((1, OBSERVATION_SIZE)), InvalidTypeError, "float32"),
        (np.array([0]), np.array([0]), np.zeros((2, OBSERVATION_SIZE), np.float32), InvalidValueError, "shape"),
    ],
)
def test_the_arguments_are_checked(games: Any, seats: Any, out: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        observations(Batch.new(3), games, seats, out)


def test_a_read_only_out_is_refused() -> None:
    out = np.zeros((1, OBSERVATION_SIZE), np.float32)
    out.flags.writeable = False
    with pytest.raises(InvalidValueError, match="writable"):
        observations(Batch.new(1), np.array([0]), np.array([0]), out)
