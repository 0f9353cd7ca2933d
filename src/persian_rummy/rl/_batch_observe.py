"""
The observation tensor of many games at once, made from the arrays of a `persian_rummy.rl.batch.Batch`.

`observations` writes, for pairs of a game of a batch and a seat, the tensor that
`persian_rummy.rl.tensors.observation_tensor` makes of the seat's view of the game: row *j* is
``observation_tensor(observe(batch.state(games[j]), seats[j]))`` value for value, in every phase the
batch holds.  The card parts are worked out as 56-bit masks, one per part and row, and unpacked at once
(`numpy.unpackbits` on their bytes); the one-hot parts are set by index, the pile's depths by the
cards' places, and the scalars with the arithmetic of `persian_rummy.rl.tensors`, in ``float64``
and then rounded to ``float32`` as it rounds them.  No Python loop runs over the rows.

What the batch's games never hold is left at 0, as their views show it: a stock everyone knows
(`Rules.reshuffle_on_empty_stock`, A18, is off by default) and the phases of a call of "Rummy!"
(A24).  The first card of a meld is its lowest card, as ace-low runs (A8) are off by default, and
the sets of four laid down at once are the melds that score double (R25; runs of four, A20, do not).

>>> import numpy as np
>>> from persian_rummy import observe
>>> from persian_rummy.rl.batch import Batch
>>> from persian_rummy.rl.tensors import observation_tensor
>>> batch = Batch.new(2)
>>> _ = batch.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(2)]))
>>> rows = observations(batch, np.array([0, 1]), np.array([0, 3]))
>>> rows.shape, str(rows.dtype)
((2, 868), 'float32')
>>> bool(np.array_equal(rows[1], observation_tensor(observe(batch.state(1), 3))))
True
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import numpy as np

from ..exceptions import InvalidTypeError, InvalidValueError
from ..rules import DEFAULT_RULES
from ..state import Phase
from . import _batch_tables as _t
from . import _numbers
from ._tensor_layouts import AT, BITS, CARDS, OBSERVATION_LAYOUT, OBSERVATION_SIZE, PHASE_BITS
from .batch import PHASES, Batch

__all__ = ["observations"]


def __dir__() -> list[str]:
    return __all__


_U64: TypeAlias = np.ndarray[Any, np.dtype[np.uint64]]
_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]
_Floats: TypeAlias = np.ndarray[Any, np.dtype[np.float32]]
#: The games to read: indices of games of the batch, or all of them in order.
_Index: TypeAlias = _Ints | slice

# The batch plays the default rules: the parts that other rules change are worked out for them alone.
assert not DEFAULT_RULES.ace_low_allowed  # noqa: S101 (the first card of a meld is its lowest)
assert not DEFAULT_RULES.reshuffle_on_empty_stock  # noqa: S101 (no stock is ever known)
assert not DEFAULT_RULES.jokers_wild  # noqa: S101 (no part of the jokers' stand-ins)
# The phase part has a bit for each code of `Batch.phase`, in the order of the codes.
assert [PHASE_BITS[phase] for phase in PHASES] == [1 << (AT["phase"] + code) for code in range(len(PHASES))]  # noqa: S101

#: The card parts, 56 bits each, side by side from the tensor's start: every part before ``phase``.
_MASKS: Final = AT["phase"] // CARDS
assert all(part.start == CARDS * i and part.size == CARDS for i, part in enumerate(OBSERVATION_LAYOUT[:_MASKS]))  # noqa: S101
# The columns of the card parts among the masks, and where the other parts start in the tensor.
_HAND: Final = AT["hand"] // CARDS
_KNOWN: Final = AT["known_self"] // CARDS
assert [AT[f"known_{who}"] for who in ("left", "partner", "right")] == [AT["known_self"] + CARDS * i for i in (1, 2, 3)]  # noqa: S101
_TABLE_OWN: Final = AT["table_own"] // CARDS
_TABLE_OTHER: Final = AT["table_other"] // CARDS
_MELD_START: Final = AT["meld_start"] // CARDS
_DOUBLED: Final = AT["doubled"] // CARDS
_OBLIGATION: Final = AT["obligation"] // CARDS
_PICKED: Final = AT["picked"] // CARDS
_PILE: Final = AT["pile"]
_PHASE: Final = AT["phase"]
_TO_ACT: Final = AT["to_act"]
_DEALER: Final = AT["dealer"]
_WENT_OUT: Final = AT["went_out"]
_PILE_DEPTH: Final = AT["pile_depth"]
_STOCK_SIZE: Final = AT["stock_size"]
_HAND_SIZE: Final = AT["hand_size_self"]
_SCORE_OWN: Final = AT["score_own"]
_DEAL: Final = AT["deal"]
_PASSES: Final = AT["passes"]
#: The code of `PHASES` from which on every hand is shown: the deal is over (R22).
_DEAL_OVER: Final = PHASES.index(Phase.DEAL_OVER)
assert PHASES[_DEAL_OVER:] == (Phase.DEAL_OVER, Phase.GAME_OVER)  # noqa: S101
#: The seats in the tensor's order, added to the observing seat: itself, its left, its partner, its right.
_RELATIVE: Final = np.arange(4, dtype=np.int64)
#: k / 56 for k = 0 to 56, rounded to ``float32`` as the scalar tensor rounds them: a pile card's depth.
_FRACTIONS: Final = np.array([k / CARDS for k in range(CARDS + 1)], dtype=np.float64).astype(np.float32)
#: The points S a team's total is scaled by, from [-S, S] to [0, 1]: `persian_rummy.rl.tensors` takes 500
#: under the default card values (R23), and the rules' number of deals.
_SCALE: Final = 500.0
_NUM_DEALS: Final = DEFAULT_RULES.num_deals
#: Whether a set, and a run, of four cards laid down at once score double (R25, A20).
_DOUBLE_SETS: Final = DEFAULT_RULES.double_four_of_a_kind
_DOUBLE_RUNS: Final = DEFAULT_RULES.double_four_card_runs


def observations(batch: Batch, games: np.ndarray, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """
    The observations of the seats *seats* of the games *games* of *batch*, a ``float32`` array of
    shape ``(len(games), OBSERVATION_SIZE)``: row *j* is
    ``observation_tensor(observe(batch.state(games[j]), seats[j]))``, exactly.

    *games* are indices of games of the batch, in any order and any number of times; *seats* are seats
    0-3, one per game (or one for them all).  With *out* (a writable ``float32`` array of that shape)
    every value is written there and *out* is returned.

    Raises:
        InvalidTypeError: *games* or *seats* are not integers, or *out* is not a ``float32`` array.
        InvalidValueError: *games* is not one-dimensional or names no game of the batch, a seat is not
            0-3 or the seats are not one per game, or *out* is read-only or of another shape.
    """
    games, seats = _checked(batch, games, seats)
    k = games.size
    if out is None:
        out = np.empty((k, OBSERVATION_SIZE), np.float32)
    else:
        _numbers.check_out(out, (k, OBSERVATION_SIZE))
    if not k:
        return out
    # The games' arrays are read through *at*: the batch's own (views, no copies) when the games are
    # all of them in order, as the batched environments ask for them.
    at: _Index = slice(None) if k == batch.n and bool((games == np.arange(k)).all()) else games
    return written(batch, at, seats, out)


def written(batch: Batch, at: _Index, seats: _Ints, out: _Floats) -> _Floats:
    """
    `observations` of the games *at* (indices, or ``slice(None)`` for all of them in order) and the
    seats *seats* (``int64``, one per game), written into *out* and returned, nothing checked: the
    batched environments' call, their arguments their own.
    """
    relative = (seats[:, None] + _RELATIVE) & 3
    hands = np.take_along_axis(batch.hands[at], relative, axis=1)
    _unpack(_cards(batch, at, seats, relative, hands), out[:, :_PHASE])
    _one_hots(batch, at, seats, out)
    _pile(batch, at, out)
    _scalars(batch, at, seats, hands, out)
    return out


def _checked(batch: Batch, games: object, seats: object) -> tuple[_Ints, _Ints]:
    """
    *games* and *seats* as arrays of ``int64``, one seat per game, checked.
    """
    games_array, seats_array = np.asarray(games), np.asarray(seats)
    for name, array in (("games", games_array), ("seats", seats_array)):
        if array.dtype.kind not in "iu":
            msg = f"{name} must be an array of integers, got an array of {array.dtype}"
            raise InvalidTypeError(msg)
    if games_array.ndim != 1:
        msg = f"games must be one-dimensional, got shape {games_array.shape}"
        raise InvalidValueError(msg)
    if seats_array.shape not in {(), games_array.shape}:
        msg = f"seats must be one per game, of shape {games_array.shape}, got shape {seats_array.shape}"
        raise InvalidValueError(msg)
    checked_games = games_array.astype(np.int64)
    checked_seats = np.broadcast_to(seats_array.astype(np.int64), checked_games.shape)
    if checked_games.size and (checked_games.min() < 0 or checked_games.max() >= batch.n):
        msg = f"games must be indices of the batch's {batch.n} games"
        raise InvalidValueError(msg)
    if checked_seats.size and (checked_seats.min() < 0 or checked_seats.max() > 3):
        msg = "seats must be 0-3"
        raise InvalidValueError(msg)
    return checked_games, checked_seats


def _cards(batch: Batch, games: _Index, seats: _Ints, relative: _Ints, hands: _U64) -> _U64:
    """
    The card parts of the games *games* as the seats *seats* see them, ``(k, 13)`` masks in the
    tensor's order: the hand and the known cards of the seats *relative* (each seat and those to its
    left, opposite and right, whose hands are *hands*), the table's parts, the obligation and the
    cards picked; the pile's and the stock's are left empty (`_pile` writes the pile's).
    """
    masks = np.zeros((seats.size, _MASKS), np.uint64)
    masks[:, _HAND] = hands[:, 0]
    # Every hand is shown once the deal is over (R22).
    over = batch.phase[games] >= _DEAL_OVER
    known = np.take_along_axis(batch.known[games], relative, axis=1)
    masks[:, _KNOWN : _KNOWN + 4] = np.where(over[:, None], hands, known)
    _table(batch, games, seats, masks)
    obligation = batch.obligation[games]
    masks[:, _OBLIGATION] = np.where(obligation >= 0, _t.BITS[np.maximum(obligation, 0)], _t.ZERO)
    masks[:, _PICKED] = batch.picked[games]
    return masks


def _table(batch: Batch, games: _Index, seats: _Ints, masks: _U64) -> None:
    """
    Write the table's parts of the games *games* as the seats *seats* see them into *masks*: the
    cards of each team, laid down by its players or laid off by them onto any meld (R26); the first
    card of each meld; the cards of the melds laid down four at once that score double (R25).
    """
    # The slots past the melds hold no cards (`Batch` clears them).
    laid = batch.laid[games]
    layoffs = batch.layoffs[games]
    even_off = layoffs[:, :, 0] | layoffs[:, :, 2]
    odd_off = layoffs[:, :, 1] | layoffs[:, :, 3]
    odd_owner = (batch.owner[games] & 1) == 1
    even = np.bitwise_or.reduce(np.where(odd_owner, _t.ZERO, laid) | even_off, axis=1)
    odd = np.bitwise_or.reduce(np.where(odd_owner, laid, _t.ZERO) | odd_off, axis=1)
    odd_seat = (seats & 1) == 1
    masks[:, _TABLE_OWN] = np.where(odd_seat, odd, even)
    masks[:, _TABLE_OTHER] = np.where(odd_seat, even, odd)
    cards = laid | even_off | odd_off
    masks[:, _MELD_START] = np.bitwise_or.reduce(cards & (~cards + _t.ONE), axis=1)
    doubles = np.where(batch.is_run[games], _DOUBLE_RUNS, _DOUBLE_SETS) & (np.bitwise_count(laid) == 4)
    masks[:, _DOUBLED] = np.bitwise_or.reduce(np.where(doubles, laid, _t.ZERO), axis=1)


def _one_hots(batch: Batch, games: _Index, seats: _Ints, out: _Floats) -> None:
    """
    Write the one-hot parts of the games *games* as the seats *seats* see them into *out*: the phase,
    then the seat to act, the dealer and the seat that went out, by their place relative to the seat;
    the bits of a known stock and of the public view, never set, are cleared.
    """
    rows = np.arange(seats.size)
    out[:, _PHASE:BITS] = 0.0
    out[rows, _PHASE + batch.phase[games]] = 1.0
    out[rows, _DEALER + ((batch.dealer[games] - seats) & 3)] = 1.0
    for start, seat in ((_TO_ACT, batch.to_act[games]), (_WENT_OUT, batch.went_out[games])):
        some = (seat >= 0).nonzero()[0]
        out[some, start + ((seat[some] - seats[some]) & 3)] = 1.0


def _unpack(masks: _U64, out: _Floats) -> None:
    """
    Write the 56 bits of each mask of *masks*, ``(k, m)``, into *out*, ``(k, 56 m)``, as ``float32`` values.
    """
    k, m = masks.shape
    octets = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(k, m, 8)
    out[...] = np.unpackbits(octets, axis=-1, count=CARDS, bitorder="little").reshape(k, m * CARDS)


def _pile(batch: Batch, games: _Index, out: _Floats) -> None:
    """
    Write the discard pile's parts of the games *games* into *out*: its cards, each card's depth
    (the number of cards a take of it brings, R14), and the known stock's order, never known.
    """
    k = out.shape[0]
    length = batch.pile_len[games]
    width = int(length.max())
    places = _t.PLACES56[:width]
    # Each card's depth at its place in a row of 57, the places past the pile's top sent to the last.
    at = np.where(places < length[:, None], batch.pile[games, :width], CARDS)
    at += np.arange(0, k * (CARDS + 1), CARDS + 1)[:, None]
    depths = np.zeros((k, CARDS + 1), np.uint8)
    depths.ravel()[at] = length[:, None] - places
    depth = depths[:, :CARDS]
    out[:, _PILE : _PILE + CARDS] = depth > 0
    np.take(_FRACTIONS, depth, out=out[:, _PILE_DEPTH : _PILE_DEPTH + CARDS], mode="clip")
    out[:, _PILE_DEPTH + CARDS : _STOCK_SIZE] = 0.0


def _scalars(batch: Batch, games: _Index, seats: _Ints, hands: _U64, out: _Floats) -> None:
    """
    Write the scaled values of the games *games* as the seats *seats* see them into *out*: the sizes
    of the stock and of the hands *hands* (in the seats' relative order), the teams' totals, the
    deal's number and the passes, worked out as `persian_rummy.rl.tensors` does in ``float64``.
    """
    out[:, _STOCK_SIZE] = (CARDS - batch.stock_start[games]) / CARDS
    out[:, _HAND_SIZE : _HAND_SIZE + 4] = np.bitwise_count(hands) / CARDS
    # Each team's total: the deals not yet played hold no points (`Batch` clears them for a new game).
    by_deal = batch.results[games] @ _t.RESULT_SIGNS  # melded + doubling + bonus - in hand, by deal and team
    totals = np.add.reduce(by_deal, axis=1)
    teams = np.where((seats & 1)[:, None] == 1, totals[:, ::-1], totals)  # the seat's team first
    out[:, _SCORE_OWN : _SCORE_OWN + 2] = np.clip((teams + _SCALE) / (2 * _SCALE), 0.0, 1.0)
    out[:, _DEAL] = np.minimum(batch.deal_no[games] / _NUM_DEALS, 1.0)
    out[:, _PASSES] = np.minimum(batch.passes[games] / 4, 1.0)
