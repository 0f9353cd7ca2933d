"""
The greedy player of the batched engine (persian_rummy.rl._batch_greedy) against `GreedyPlayer`: seeded
games stepped by the batch, some seats greedy and the others random, and at every decision the id
`greedy_ids` gives each game compared with the scalar player's choice on its state; then positions
written by hand for the ties and the thresholds of a take.

The number of games is `PERSIAN_RUMMY_BATCH_GAMES` (default 20, a few seconds).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

# After the skip: the batch needs numpy.
from persian_rummy import GameState, observe, parse_position  # noqa: E402
from persian_rummy.bots.players import GreedyPlayer  # noqa: E402
from persian_rummy.rl._batch_greedy import greedy_ids  # noqa: E402
from persian_rummy.rl.actionids import action_id, id_text  # noqa: E402
from persian_rummy.rl.batch import Batch  # noqa: E402

# Long differentials over whole games: the first Python runs them (and ``nox -s batch`` at scale), the
# later Pythons' tests sessions leave them out.
pytestmark = pytest.mark.once

GAMES = int(os.environ.get("PERSIAN_RUMMY_BATCH_GAMES", "20"))
#: Games stepped together: a batch of this many at a time.
WIDTH = 250
#: Where the ids of the takes, the discards, the lay-downs and the lay-offs onto sets and runs start.
_TAKE, _DISCARD, _MELD, _ON_SET, _BLOCK = 2, 58, 114, 448, 504
#: The seats' players: greedy, random, and random with a liking for melds and lay-offs (to reach going out).
_GREEDY, _RANDOM, _MELDER = 0, 1, 2


def greedy_id(state: GameState) -> int:
    """
    The id of `GreedyPlayer`'s choice for the seat to act at *state*, through its view.
    """
    seat = state.to_act
    assert seat is not None
    return action_id(GreedyPlayer().choose(observe(state, seat), random.Random(0)), state)  # noqa: S311 (unused)


def _kind(state: GameState, chosen: int, legal: Any) -> str:
    """
    What the greedy choice *chosen* at *state* is, for counting what the games reached.
    """
    if chosen < _TAKE:
        takes = bool(legal[_TAKE:_DISCARD].any())
        if chosen == 1:
            return "pass over a take" if takes else "pass"
        return "draw over a take" if takes else "draw"
    if chosen < _DISCARD:
        top = state.discard_pile[-1].index
        several = "take of one card" if chosen - _TAKE == top else "take of several cards"
        return several if state.stock else f"{several}, the stock empty"
    if chosen < _MELD:
        return "discard"
    text = id_text(chosen)
    ace = "ace-high run" if chosen >= _MELD + 70 and "A" in text.split(" ", 1)[1] else ""
    if chosen < _ON_SET:
        return ace or ("set of four" if chosen < _MELD + 70 and (chosen - _MELD) % 5 == 0 else "lay-down")
    return "lay-off onto a set" if chosen < _BLOCK else ace.replace("run", "lay-off") or "lay-off onto a run"


def differential(games: int, seed: int) -> tuple[int, Counter[str]]:
    """
    Play *games* seeded games with the batch, comparing `greedy_ids` with `GreedyPlayer` at every
    decision of every game: the decisions compared and what the greedy choices were.
    """
    rng = np.random.default_rng(seed)
    batch = Batch.new(games)
    batch.dealer[:] = np.arange(games) % 4
    players = rng.integers(0, 3, (games, 4))
    compared = 0
    kinds: Counter[str] = Counter()
    while True:
        waiting = np.isin(batch.phase, (0, 3))
        if waiting.any():
            batch.deal(rng.permuted(np.tile(np.arange(56), (games, 1)), axis=1), waiting)
        acting = np.flatnonzero(np.isin(batch.phase, (1, 2)))
        if not acting.size:
            return compared, kinds
        ids = greedy_ids(batch, acting)
        assert ids.dtype == np.int64
        masks = batch.legal_masks_of(acting)
        for j, i in enumerate(acting.tolist()):
            state = batch.state(i)
            expected = greedy_id(state)
            assert int(ids[j]) == expected, f"game {i}: {id_text(int(ids[j]))!r}, not {id_text(expected)!r}"
            kinds[_kind(state, expected, masks[j])] += 1
        compared += acting.size
        # Each seat's player: the greedy id, a legal id drawn uniformly, or a lay-down or lay-off most often.
        drawn = (rng.random(masks.shape) * masks).argmax(axis=1)
        plays = masks.copy()
        plays[:, :_MELD] = False
        melds = (rng.random(masks.shape) * plays).argmax(axis=1)
        melds = np.where(plays.any(axis=1) & (rng.random(acting.size) < 0.7), melds, drawn)
        player = players[acting, batch.to_act[acting]]
        batch.step(np.where(player == _GREEDY, ids, np.where(player == _RANDOM, drawn, melds)), acting)


@pytest.mark.parametrize("start", range(0, GAMES, WIDTH))
def test_the_batch_chooses_as_the_greedy_player(start: int) -> None:
    games = min(WIDTH, GAMES - start)
    compared, kinds = differential(games, start)
    counts = ", ".join(f"{kind} {times}" for kind, times in sorted(kinds.items()))
    print(f"batch greedy: games {start}-{start + games - 1}, {compared} decisions compared; {counts}")  # noqa: T201
    reached = {"take of several cards", "lay-off onto a set", "lay-off onto a run", "pass", "draw over a take"}
    assert reached <= kinds.keys()


def _choice(text: str) -> tuple[int, str]:
    """
    The greedy id at the position *text*, the batch's and the scalar player's, which must agree, and its text.
    """
    state = parse_position(text)
    chosen = int(greedy_ids(Batch.from_states([state]), np.arange(1))[0])
    assert chosen == greedy_id(state)
    return chosen, id_text(chosen)


def test_a_tie_between_lay_offs_goes_to_the_meld_listed_first() -> None:
    # Ks onto the set of kings and Th above 9h score 10 each: the first meld of the table has it.
    hand = "E 2c3c4c/KsTh5d/2h3h4h/2s3s4s * - N:KcKdKh,W:7h8h9h - - - 0 - -"
    assert _choice(f"- 1/N play {hand}")[1] == "lay Ks on the set of kings"
    swapped = "E 2c3c4c/KsTh5d/2h3h4h/2s3s4s * - W:7h8h9h,N:KcKdKh - - - 0 - -"
    assert _choice(f"- 1/N play {swapped}")[1] == "lay Th above 9h"


def test_a_tie_between_a_lay_down_and_a_lay_off_goes_to_the_lay_down() -> None:
    # 2d 3d 4d and 4s 5s below 6s score 9 each: lay-downs are listed first.
    assert _choice("- 1/N play E 2c3c4c/2d3d4d4s5sKc/2h3h4h/2s3s * - N:6s7s8s - - - 0 - -")[1] == "meld 2d 3d 4d"


def test_a_tie_within_a_run_goes_to_the_block_below() -> None:
    # 4h 5h below 6h and 9h above 8h score 9 each: the blocks below a run are listed first.
    assert _choice("- 1/N play E 2c3c4c/4h5h9hKc/2d3d4d/2s3s4s * - N:6h7h8h - - - 0 - -")[1] == "lay 4h 5h below 6h"


def test_a_tie_between_discards_goes_to_the_first_card() -> None:
    # No card helps towards a meld; Qc and Ks are worth 10 each, the most.
    assert _choice("- 1/N play E 2c3c4c/Qc5dKs9h/2h3h4h/2s3s4s * - - - - - 0 - -")[1] == "discard Qc"


def test_a_tie_between_takes_goes_to_the_top_card() -> None:
    # Taking 7h melds 5h 6h 7h (+23.5); taking 4h as well melds 4h 5h 6h 7h and keeps 8s: +23.5 too.
    assert _choice("- 1/N draw E 2c3c4c/5h6hKc/2d3d4d/2s3s4s * 4h8s7h - - - - 0 - -")[1] == "take 7h"


@pytest.mark.parametrize(
    ("above", "stock", "expected"),
    [
        ("7s5d", "*", "draw from the stock"),  # 8 less half of 12: +2, no more than a card of the stock
        ("7s4d", "*", "take 2h"),  # 8 less half of 11: +2.5
        ("7s5d", "-", "take 2h"),  # the stock empty: +2 is more than nothing
        ("7s9d", "-", "pass"),  # the stock empty: 8 less half of 16 is nothing
    ],
)
def test_a_take_must_gain_more_than_the_stock_brings(above: str, stock: str, expected: str) -> None:
    # Taking 2h melds 2c 2d 2h (6 points, and 4 no longer kept: +2) and keeps the cards above it.
    rest = "*" if stock == "-" else "-"
    text = f"- 1/N draw E {rest}/2c2dKc/3h4h5h/3s4s5s {stock} 2h{above} - - - - 0 - -"
    assert _choice(text)[1] == expected


def test_many_games_at_once() -> None:
    states = [
        parse_position("- 1/N play E 2c3c4c/KsTh5d/2h3h4h/2s3s4s * - N:KcKdKh,W:7h8h9h - - - 0 - -"),
        parse_position("- 1/N draw E 2c3c4c/5h6hKc/2d3d4d/2s3s4s * 4h8s7h - - - - 0 - -"),
        parse_position("- 1/N play E 2c3c4c/Qc5dKs9h/2h3h4h/2s3s4s * - - - - - 0 - -"),
    ]
    batch = Batch.from_states(states * 3)
    ids = greedy_ids(batch, np.array([8, 0, 4, 1], dtype=np.int64))
    assert ids.tolist() == [greedy_id(states[i]) for i in (2, 0, 1, 1)]
    assert greedy_ids(batch, np.zeros(0, np.int64)).tolist() == []
