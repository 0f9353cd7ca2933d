"""
The compact observation of the batched environments (``observation="compact"``): a smaller tensor
than ``Solo-v0``'s, made from a batch's arrays for every game at once.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from . import _batch_tables as _t
from .batch import Batch

_Array: TypeAlias = np.ndarray[Any, np.dtype[Any]]

#: The parts of the compact observation, by name and size: the seat's hand; the cards its partner,
#: then the opponents to its left and right are known to hold; the cards its team and the other team
#: have on the table; the discard pile; its top card; the card that must be played; the phase (draw,
#: play); the stock's size, each hand's size from the seat on (over 56); each team's score, the seat's
#: first (over the reward scale, + 1/2).
OBSERVATION_PARTS: Final = (
    ("hand", 56),
    ("known", 3 * 56),
    ("table", 2 * 56),
    ("pile", 56),
    ("top", 56),
    ("obligation", 56),
    ("phase", 2),
    ("sizes", 5),
    ("scores", 2),
)
#: The number of values of the compact observation.
BATCH_OBSERVATION_SIZE: Final = sum(size for _, size in OBSERVATION_PARTS)
_DRAW: Final = 1
_PLAY: Final = 2
_BITS: Final = 9 * 56


def compact_observations(batch: Batch, seats: _Array, scale: float) -> _Array:
    """
    The compact observation of seat ``seats[i]`` of each game *i* of *batch*, ``(n, 513)`` float32.
    """
    n = batch.n
    rows = np.arange(n)[:, None]
    order = (seats[:, None] + np.arange(4)) % 4  # the seat, left, partner, right
    hands = batch.hands[rows, order]
    cards = np.empty((n, 9), np.uint64)
    cards[:, 0] = hands[:, 0]
    cards[:, 1:4] = batch.known[rows, order[:, [2, 1, 3]]]
    laid = batch.laid  # the slots past the melds hold no cards (`Batch` clears them)
    mine = (batch.owner & 1) == (seats[:, None] & 1)
    own = order[:, [0, 2]]
    layoffs = np.bitwise_or.reduce(batch.layoffs, axis=1)  # by seat
    own_layoffs = layoffs[rows, own[:, :1]][:, 0] | layoffs[rows, own[:, 1:]][:, 0]
    other_layoffs = layoffs[rows, order[:, 1:2]][:, 0] | layoffs[rows, order[:, 3:]][:, 0]
    cards[:, 4] = np.bitwise_or.reduce(np.where(mine, laid, _t.ZERO), axis=1) | own_layoffs
    cards[:, 5] = np.bitwise_or.reduce(np.where(mine, _t.ZERO, laid), axis=1) | other_layoffs
    places = batch.pile_len[:, None] > _t.PLACES56
    cards[:, 6] = np.bitwise_or.reduce(np.where(places, _t.BITS[batch.pile], _t.ZERO), axis=1)
    top = batch.pile[np.arange(n), np.maximum(batch.pile_len - 1, 0)]
    cards[:, 7] = np.where(batch.pile_len > 0, _t.BITS[top], _t.ZERO)
    cards[:, 8] = np.where(batch.obligation >= 0, _t.BITS[np.maximum(batch.obligation, 0)], _t.ZERO)
    observation = np.empty((n, BATCH_OBSERVATION_SIZE), np.float32)
    observation[:, :_BITS] = _t.unpack(cards).reshape(n, _BITS)
    observation[:, _BITS] = batch.phase == _DRAW
    observation[:, _BITS + 1] = batch.phase == _PLAY
    sizes = observation[:, _BITS + 2 : _BITS + 7]
    sizes[:, 0] = 56 - batch.stock_start
    sizes[:, 1:] = np.bitwise_count(hands)
    sizes /= 56
    team = seats & 1
    scores = batch.scores()
    observation[:, _BITS + 7] = scores[np.arange(n), team] / scale + 0.5
    observation[:, _BITS + 8] = scores[np.arange(n), 1 - team] / scale + 0.5
    return observation
