"""
The greedy player for many games at once: `greedy_ids` gives, for games of a `persian_rummy.rl.batch.Batch`,
the id of the action that `persian_rummy.bots.players.GreedyPlayer` chooses in each, worked out with NumPy
array operations over all of them (`persian_rummy.bots._greedy` is the player's algorithm, one game at a time).

At a draw, the hand of the seat to act and the hand after each legal take are valued at once, as rows
of one array: each row lays down its most valuable meld while it holds one (a few passes, each over the
rows that still meld), then lays off what extends a meld of the table.  At play, each legal lay-down's
and lay-off's points are a table's, and the order in which `persian_rummy.legal_actions` lists them
breaks the ties (the lay-downs by id, then the lay-offs by the slot of their meld); without one, every
card's keep score is worked out for the whole hand at once.

The batch plays the default rules only, and so does this player.

>>> from persian_rummy import parse_position
>>> from persian_rummy.rl.actionids import id_text
>>> state = parse_position("- 1/N play E 2c3c4c/5c6c2dKdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -")
>>> ids = greedy_ids(Batch.from_states([state]), np.arange(1))
>>> [id_text(i) for i in ids.tolist()]  # GreedyPlayer()(state, rng) lays down the kings
['meld Kd Kh Ks']
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from ..bots._greedy import _KEEP_GAP, _KEEP_NEXT, _KEEP_SAME, _LEFT_IN_HAND, _NEAR, _STOCK_DRAW
from ..masks import JOKER_MASK, RANK_MASKS, meld_points
from ..rules import DEFAULT_RULES
from . import _batch_tables as _t
from .batch import PHASES, Batch

__all__ = ["greedy_ids"]


def __dir__() -> list[str]:
    return __all__


_U64: TypeAlias = np.ndarray[Any, np.dtype[np.uint64]]
_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]
_Floats: TypeAlias = np.ndarray[Any, np.dtype[np.float64]]
_Bools: TypeAlias = np.ndarray[Any, np.dtype[np.bool_]]

_DRAW: Final = 1
assert PHASES[_DRAW].value == "draw"  # noqa: S101 (the codes of `Batch.phase`, checked at import)
#: The columns of the plays in a mask's row (the ids from the first meld on): the lay-downs, then the
#: lay-offs onto sets, then the blocks onto runs.
_ON_SETS: Final = _t.ON_SET0 - _t.MELD0
_BLOCKS: Final = _t.BLOCK0 - _t.MELD0

# -- the tables --------------------------------------------------------------------------------------------------

#: The points of each play: a lay-down's as `persian_rummy.masks.meld_points` gives them (a set of four
#: doubled, R25), a lay-off's its cards' points (R26).
_POINTS: Final[_Ints] = np.concatenate(
    [
        np.array([meld_points(int(mask), DEFAULT_RULES) for mask in _t.MELDS], dtype=np.int64),
        _t.points(_t.CARDS[_t.ON_SET0 :]),
    ]
)
assert _POINTS.size == _t.COUNT - _t.MELD0  # noqa: S101
#: Where a lay-off comes among those onto its meld, as `persian_rummy.legal_actions` lists them: a
#: set's card alone; onto a run the blocks below it, nearest first, then those above it.
_WITHIN: Final[_Ints] = np.concatenate(
    [
        np.zeros(_BLOCKS - _ON_SETS, np.int64),
        np.bitwise_count(_t.BLOCKS).astype(np.int64) + np.where(_t.BLOCK_BELOW, 0, 16),
    ]
)
#: The lay-offs' places in the list come after the lay-downs' (their columns, in id order), by meld
#: slot (18 at most), each slot's lay-offs `_WITHIN` it.
_SLOT_PLACES: Final = 32
#: A play's score, its points times this less its place in the list: the play of most points, the
#: first listed among those.
_PLACES: Final = 1024
assert int(_WITHIN.max()) < _SLOT_PLACES  # noqa: S101
assert _ON_SETS + 18 * _SLOT_PLACES <= _PLACES  # noqa: S101


def _best_runs() -> tuple[_U64, _U64]:
    """
    For each 13-bit row of a suit, the run of most points it holds, the highest mask among those
    (as `persian_rummy.bots._greedy._plan` picks a meld): its points and its cards as a row (0, 0 for none).
    """
    club_runs = _t.CARDS[_t.SETS_END : _t.SETS_END + 66]
    points = np.array([meld_points(int(mask), DEFAULT_RULES) for mask in club_runs], dtype=np.uint64)
    keys = np.where(_t.RUNS_OF_ROW, (points << np.uint64(13)) | club_runs, _t.ZERO).max(axis=1)
    return keys >> np.uint64(13), keys & np.uint64(0x1FFF)


#: By a suit's row of a hand, the points and the cards of the run `_plan` would lay down from it.
_RUN_POINTS, _RUN_ROW = _best_runs()
#: The four cards of each rank, 2 to ace then the jokers; what three and four of them score laid down.
_RANKS: Final[_U64] = np.array(RANK_MASKS, dtype=np.uint64)
_THREE: Final[_U64] = _POINTS[1 : _t.SETS_END - _t.MELD0 : 5].astype(np.uint64)
_FOUR: Final[_U64] = _POINTS[0 : _t.SETS_END - _t.MELD0 : 5].astype(np.uint64)
#: A meld's key, by which `_plan` picks it: its points above its cards (a meld scores less than 256).
_KEY_SHIFT: Final = np.uint64(56)
_CARD_BITS: Final = np.uint64((1 << 56) - 1)
assert int(_POINTS[:_ON_SETS].max()) < 256  # noqa: S101
#: The jokers, the 2s and the aces, as masks; a suit's row.
_JOKERS: Final = np.uint64(JOKER_MASK)
_TWOS: Final = np.uint64(RANK_MASKS[0])
_ACES: Final = np.uint64(RANK_MASKS[12])
_ROW: Final = np.uint64(0x1FFF)
#: For each card, its suit's cards next to it and two places from it, read as `persian_rummy.bots._greedy`
#: reads them (``(hand << 2 >> card) & _NEAR[card]``: bits 1 and 3 next to it, bits 0 and 4 two places).
_NEAR_BITS: Final[_U64] = np.array(_NEAR, dtype=np.uint64)
_CARD_PLACES: Final[_U64] = np.arange(56, dtype=np.uint64)
#: A discard's score, its keep score times this less its points: the card that helps least, the
#: one of most points among those.
_KEEP_WEIGHT: Final = 64
assert int(_t.VALUES.max()) < _KEEP_WEIGHT  # noqa: S101
_NEVER: Final = np.iinfo(np.int64).max


# -- the choice ---------------------------------------------------------------------------------------------------


def greedy_ids(batch: Batch, games: _Ints) -> _Ints:
    """
    The id of the action `persian_rummy.bots.players.GreedyPlayer` chooses in each game *games* of
    *batch* (games at a draw or at play, with a seat to act), as `persian_rummy.rl.actionids.action_id`
    numbers it: the same as ``GreedyPlayer().choose(observe(state, state.to_act), rng)`` for
    ``state = batch.state(i)``, ties included.
    """
    ids = np.empty(games.size, np.int64)
    hand = batch.hands[games, batch.to_act[games]]
    drawing = batch.phase[games] == _DRAW
    d = drawing.nonzero()[0]
    if d.size:
        ids[d] = _draw_ids(batch, games[d], hand[d])
    p = (~drawing).nonzero()[0]
    if p.size:
        ids[p] = _play_ids(batch, games[p], hand[p])
    return ids


def _draw_ids(batch: Batch, g: _Ints, hand: _U64) -> _Ints:
    """
    The greedy draws of the games *g*: the take from the discard pile that adds most to what the hand
    is worth (`_worth`), the card nearest the top among equals, if it adds more than a card from the
    stock is reckoned to bring (more than nothing with an empty stock); else the draw, or the pass.
    """
    masks = batch.draw_masks_of(g, width=_t.DISCARD0)
    stock_left = masks[:, 0]
    ids: _Ints = np.where(stock_left, 0, 1).astype(np.int64)
    takes = masks[:, _t.TAKE0 : _t.DISCARD0]
    r = np.logical_or.reduce(takes, axis=1).nonzero()[0]
    if not r.size:
        return ids
    t = g[r]
    length = batch.pile_len[t]
    width = int(length.max())
    pile = batch.pile[t, :width]
    valid = _t.PLACES56[:width] < length[:, None]
    bits = np.where(valid, _t.BITS[pile], _t.ZERO)
    # The cards a take of each card brings: it and those above it, a suffix OR of the pile.
    taken = np.bitwise_or.accumulate(bits[:, ::-1], axis=1)[:, ::-1]
    legal = valid & np.take_along_axis(takes[r], pile, axis=1)
    rows, places = np.divmod(legal.ravel().nonzero()[0], width)
    # The hands as they are, then after each legal take, valued as one array.
    own = hand[r]
    table = _table_ends(batch, t)
    worth = _worth(np.concatenate([own, own[rows] | taken[rows, places]]), np.concatenate([table, table[rows]]))
    gains = np.full((r.size, width), -np.inf)
    gains[rows, places] = worth[r.size :] - worth[rows]
    # The most gained, the highest place among equals: legal_actions lists the takes from the top down.
    best = width - 1 - gains[:, ::-1].argmax(axis=1)
    at = np.arange(r.size)
    gain = gains[at, best]
    chosen = gain > np.where(stock_left[r], _STOCK_DRAW, 0.0)
    ids[r[chosen]] = _t.TAKE0 + pile[at[chosen], best[chosen]]
    return ids


def _table_ends(batch: Batch, g: _Ints) -> _U64:
    """
    The cards that extend a meld of the table of each game *g* by themselves (the ``ends`` of its
    melds): each set's missing cards, the card below each run's lowest and above its highest.
    """
    sets = batch.set_cards[g]
    ranks = (sets | sets >> np.uint64(13) | sets >> np.uint64(26) | sets >> np.uint64(39)) & _ROW
    spread = ranks * np.uint64(RANK_MASKS[0]) | np.where((sets & _JOKERS) != 0, _JOKERS, _t.ZERO)
    lows = batch.run_lows[g] & ~_TWOS
    highs = batch.run_highs[g] & ~_ACES
    ends: _U64 = (spread & ~sets) | lows >> _t.ONE | highs << _t.ONE
    return ends


def _worth(hands: _U64, table: _U64) -> _Floats:
    """
    What each hand of *hands* is reckoned to be worth, with the cards *table* extending the melds of
    its table: the points it could meld now, less a share of those it would keep (`_greedy._worth`).
    """
    melded, kept = _plan(hands, table)
    worth: _Floats = melded.astype(np.float64) - _LEFT_IN_HAND * _t.points(kept).astype(np.float64)
    return worth


def _plan(hands: _U64, table: _U64) -> tuple[_Ints, _U64]:
    """
    The points each hand of *hands* could meld now, laying down the most valuable meld while there is
    one (the one of highest mask among equals) and then laying off the cards of *table*, and the
    cards it would keep (`_greedy._plan`).
    """
    hand = hands.copy()
    melded = np.zeros(hands.size, np.int64)
    live = np.arange(hands.size)
    while live.size:
        key = _best_melds(hand[live])
        found = key != 0
        live, key = live[found], key[found]
        melded[live] += (key >> _KEY_SHIFT).astype(np.int64)
        hand[live] &= ~(key & _CARD_BITS)
    fits = hand & table
    return melded + _t.points(fits), hand & ~fits


def _best_melds(hands: _U64) -> _U64:
    """
    The meld of most points in each hand of *hands*, the highest mask among those, as a key: its
    points above its cards (0 where there is none).  Of a rank it is all four cards or the three
    held, of a suit the run of `_RUN_POINTS` for the suit's row.
    """
    by_rank = hands[:, None] & _RANKS
    count = np.bitwise_count(by_rank)
    points = np.where(count == 4, _FOUR, np.where(count == 3, _THREE, _t.ZERO))
    sets = np.maximum.reduce(np.where(count >= 3, points << _KEY_SHIFT | by_rank, _t.ZERO), axis=1)
    rows = _t.rows_of(hands)
    runs = np.maximum.reduce(_RUN_POINTS[rows] << _KEY_SHIFT | _RUN_ROW[rows] << _t.SUIT_SHIFTS, axis=1)
    best: _U64 = np.maximum(sets, runs)
    return best


def _play_ids(batch: Batch, g: _Ints, hand: _U64) -> _Ints:
    """
    The greedy plays of the games *g*: the lay-down or lay-off of most points, the first listed among
    those; without one, the discard of the card that helps least (`_discard_ids`).
    """
    masks = batch.play_masks_of(g)
    # The legal plays as (row, column) pairs, row by row: read from the flat masks (a 2-D nonzero is slower).
    rows, columns = np.divmod(masks.ravel().nonzero()[0], _t.COUNT)
    at = columns >= _t.MELD0
    rows, columns = rows[at], columns[at] - _t.MELD0
    ids = np.empty(g.size, np.int64)
    melding = np.zeros(g.size, np.bool_)
    melding[rows] = True
    d = (~melding).nonzero()[0]
    if d.size:
        ids[d] = _discard_ids(masks[d, _t.DISCARD0 : _t.MELD0], hand[d])
    if not rows.size:
        return ids
    # The slot of the meld each lay-off goes onto: the set of its card's rank, the run its block lies next to.
    games = g[rows]
    places = columns.copy()
    on_set = (columns >= _ON_SETS) & (columns < _BLOCKS)
    card = columns[on_set] - _ON_SETS
    slots = np.maximum.reduce(batch.meld_of[games[on_set, None], _t.GROUP_CARDS[card]], axis=1)
    places[on_set] = _ON_SETS + _SLOT_PLACES * slots + _WITHIN[columns[on_set] - _ON_SETS]
    onto_run = columns >= _BLOCKS
    slots = batch.meld_of[games[onto_run], _t.BLOCK_ATTACH_INDEX[columns[onto_run] - _BLOCKS]]
    places[onto_run] = _ON_SETS + _SLOT_PLACES * slots + _WITHIN[columns[onto_run] - _ON_SETS]
    scores = _POINTS[columns] * _PLACES - places
    # Each game's best score, its plays being side by side.
    first = np.r_[True, rows[1:] != rows[:-1]]
    best = scores == np.maximum.reduceat(scores, first.nonzero()[0])[first.cumsum() - 1]
    ids[rows[best]] = _t.MELD0 + columns[best]
    return ids


def _discard_ids(discards: _Bools, hand: _U64) -> _Ints:
    """
    The discard, among the legal ones *discards*, of the card of *hand* that helps least towards a meld,
    the one of most points among those, the first in `FULL_DECK` order among equals (`_greedy._least_useful`):
    each card counts for each card of its rank in hand, each next to it and each two places from it.
    """
    same = np.bitwise_count(hand[:, None] & _t.GROUP_OTHERS).astype(np.int64)
    window = ((hand[:, None] << np.uint64(2)) >> _CARD_PLACES) & _NEAR_BITS
    next_to = np.bitwise_count(window & np.uint64(0b01010)).astype(np.int64)
    gap = np.bitwise_count(window & np.uint64(0b10001)).astype(np.int64)
    keep = _KEEP_SAME * same + _KEEP_NEXT * next_to + _KEEP_GAP * gap
    scores = np.where(discards, keep * _KEEP_WEIGHT - _t.VALUES, _NEVER)
    ids: _Ints = _t.DISCARD0 + scores.argmin(axis=1)
    return ids
