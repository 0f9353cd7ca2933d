"""
The legal-action masks of a `persian_rummy.rl.batch.Batch` computed with JAX: one compiled function of fixed
shapes, for the CPU, a GPU or a TPU alike.

`arrays_of` copies what the legal ids depend on from a batch's NumPy arrays to JAX's default device, as a
`BatchArrays`; `legal_masks` gives the ``(n, 944)`` boolean masks that `Batch.legal_masks` gives, bit for bit
(the tests compare them at every state of seeded games).  It is a pure function of its arrays, compiled with
``jax.jit`` once for each number of games, and it may itself be called inside a function that is traced or
compiled (``jax.jit``, ``jax.vmap`` over batches of batches): every game is worked out, and the draws of the
games at play and the plays of the games at a draw are masked away with ``jnp.where``, where the NumPy code
picks the games of each phase; the discard pile is read at all its 56 places, those past its top masked.

A 56-bit mask of cards is held as two ``uint32`` words, on the last axis: the clubs and the diamonds
(bits 0-25 of the NumPy mask) and the hearts, the spades and the jokers (bits 26-55, shifted down by 26).
JAX computes in 32 bits unless ``jax_enable_x64`` is set, and GPUs and TPUs are built for 32-bit integers;
with the words split between suits, each suit's cards lie in one word, so the tests that read a suit's
neighbours shift a single word, and only a count of cards, an order and a lowest card read both.  The
module never changes JAX's configuration: it gives the same masks with ``jax_enable_x64`` on or off.

>>> import numpy as np
>>> from persian_rummy.rl.batch import Batch
>>> batch = Batch.new(3)
>>> _ = batch.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(3)]))
>>> masks = legal_masks(arrays_of(batch))
>>> masks.shape, str(masks.dtype)
((3, 944), 'bool')
>>> bool(np.array_equal(np.asarray(masks), batch.legal_masks()))
True

The constant tables of the NumPy batch (each card's masks, each id's cards) are copied to the device on the
first call, and passed to the compiled function as arguments rather than folded into it as constants.  Where
NumPy saves work by data (the games of each phase apart, the pile up to its highest top, the melds of a
hand read from tables by each suit's row), this function does the same work for every game, at every place
of the pile and for every id, with no loop: on a CPU core it takes two to three times as long as
`Batch.legal_masks`, and its worth is where that work runs wide (a GPU), or inside a compiled step that
also runs a network.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from ..state import Phase
from . import _batch_tables as _t
from .batch import PHASES, Batch

__all__ = ["BatchArrays", "arrays_of", "legal_masks"]


def __dir__() -> list[str]:
    return __all__


_U64: TypeAlias = np.ndarray[Any, np.dtype[np.uint64]]
_Words: TypeAlias = np.ndarray[Any, np.dtype[np.uint32]]

_DRAW: Final = PHASES.index(Phase.DRAW)
_PLAY: Final = PHASES.index(Phase.PLAY)
#: The first card of the second word: the clubs and the diamonds are in the first.
_SPLIT: Final = 26
# The ids of a draw (the draw, the pass, the takes) come before those of a play (the discards, then the plays).
assert _t.TAKE0 == 2  # noqa: S101 (the layout, checked at import)
assert _t.DISCARD0 == _t.TAKE0 + 56  # noqa: S101
assert _t.MELD0 == _t.DISCARD0 + 56  # noqa: S101


def _split(masks: _U64) -> _Words:
    """
    Each 56-bit mask of *masks* as its two words, ``(..., 2)``: bits 0-25, and bits 26-55 shifted down.
    """
    masks = np.asarray(masks, dtype=np.uint64)
    low = masks & np.uint64((1 << _SPLIT) - 1)
    high = masks >> np.uint64(_SPLIT)
    words: _Words = np.stack([low, high], axis=-1).astype(np.uint32)
    return words


class BatchArrays(NamedTuple):
    """
    What the legal ids of a batch's games depend on, as JAX arrays (`arrays_of` makes them); a pytree,
    passed whole to `legal_masks`, through ``jax.jit`` and ``jax.vmap``.  A mask of cards is two ``uint32``
    words on the last axis (see the module's documentation).
    """

    #: Each game's phase, an index of `persian_rummy.rl.batch.PHASES`, ``(n,)`` ``int32``.
    phase: jax.Array
    #: The seat to act, -1 for none, ``(n,)`` ``int32``.
    to_act: jax.Array
    #: The cards of each seat, ``(n, 4, 2)`` ``uint32``.
    hands: jax.Array
    #: Where the stock starts among its 56 places (56 when it is empty), ``(n,)`` ``int32``.
    stock_start: jax.Array
    #: The discard pile is ``pile[i, :pile_len[i]]``, bottom card first, ``(n, 56)`` ``int32``.
    pile: jax.Array
    #: The number of cards of the discard pile, ``(n,)`` ``int32``.
    pile_len: jax.Array
    #: The cards of the sets on the table, ``(n, 2)`` ``uint32``.
    set_cards: jax.Array
    #: The lowest card of each run on the table, ``(n, 2)`` ``uint32``.
    run_lows: jax.Array
    #: The highest card of each run on the table, ``(n, 2)`` ``uint32``.
    run_highs: jax.Array
    #: The card taken from the pile that must be played, -1 for none, ``(n,)`` ``int32``.
    obligation: jax.Array


def arrays_of(batch: Batch) -> BatchArrays:
    """
    The arrays of *batch* that `legal_masks` reads, copied to JAX's default device: the masks split in
    two words each, the integers as ``int32``.
    """

    def ints(values: np.ndarray[Any, np.dtype[np.int64]]) -> jax.Array:
        return jnp.asarray(values.astype(np.int32))

    def words(masks: _U64) -> jax.Array:
        return jnp.asarray(_split(masks))

    return BatchArrays(
        phase=ints(batch.phase),
        to_act=ints(batch.to_act),
        hands=words(batch.hands),
        stock_start=ints(batch.stock_start),
        pile=ints(batch.pile),
        pile_len=ints(batch.pile_len),
        set_cards=words(batch.set_cards),
        run_lows=words(batch.run_lows),
        run_highs=words(batch.run_highs),
        obligation=ints(batch.obligation),
    )


class _Cards(NamedTuple):
    """
    Masks of cards as their two words, each an array of the masks' shape: the bit operations of
    `persian_rummy.rl.batch` word by word, and what reads both words (a count, an order, the lowest card).
    """

    low: jax.Array
    high: jax.Array

    @classmethod
    def of(cls, words: jax.Array) -> _Cards:
        """
        The masks of *words*, ``(..., 2)``.
        """
        return cls(words[..., 0], words[..., 1])

    def take(self, index: jax.Array) -> _Cards:
        """
        The masks of a table by *index*: ``mask[index]`` of each word.
        """
        return _Cards(self.low[index], self.high[index])

    def where(self, keep: jax.Array) -> _Cards:
        """
        Each mask where *keep* is true, else none.
        """
        return _Cards(jnp.where(keep, self.low, 0), jnp.where(keep, self.high, 0))

    def __and__(self, other: _Cards) -> _Cards:
        return _Cards(self.low & other.low, self.high & other.high)

    def __or__(self, other: _Cards) -> _Cards:
        return _Cards(self.low | other.low, self.high | other.high)

    def __invert__(self) -> _Cards:
        return _Cards(~self.low, ~self.high)

    def counts(self) -> jax.Array:
        """
        The number of cards of each mask.
        """
        return jax.lax.population_count(self.low) + jax.lax.population_count(self.high)

    def any(self) -> jax.Array:
        """
        Whether each mask holds a card.
        """
        return (self.low | self.high) != 0

    def holds(self, cards: _Cards) -> jax.Array:
        """
        Whether each mask holds all the cards of each mask of *cards* (``(n,)`` and ``(k,)`` masks: ``(n, k)``).
        """
        low, high = self.low[:, None], self.high[:, None]
        return ((low & cards.low) == cards.low) & ((high & cards.high) == cards.high)

    def meets(self, cards: _Cards) -> jax.Array:
        """
        Whether each mask holds a card of each mask of *cards* (``(n,)`` and ``(k,)`` masks: ``(n, k)``).
        """
        return ((self.low[:, None] & cards.low) | (self.high[:, None] & cards.high)) != 0

    def greater(self, other: _Cards) -> jax.Array:
        """
        Whether each mask is greater than *other*'s as a 56-bit number: the second words first.
        """
        return (self.high > other.high) | ((self.high == other.high) & (self.low > other.low))

    def lowest(self) -> _Cards:
        """
        The lowest card of each mask (none for none): in the first word if it holds one, else in the second.
        """
        low, high = self.low, self.high
        return _Cards(low & (~low + 1), jnp.where(low == 0, high & (~high + 1), 0))


def _cards(masks: _U64) -> _Cards:
    """
    A table of masks, on the device.
    """
    return _Cards.of(jnp.asarray(_split(masks)))


class _Tables(NamedTuple):
    """
    The tables of `persian_rummy.rl._batch_tables` that the masks read, on the device.
    """

    bits: _Cards
    group: _Cards
    group_others: _Cards
    suit_below: _Cards
    suit_above: _Cards
    run_window: jax.Array
    run_ok: jax.Array
    second: jax.Array
    shift: jax.Array
    melds: _Cards
    blocks: _Cards
    below_lows: _Cards
    above_highs: _Cards
    holds: jax.Array


@functools.cache
def _tables() -> _Tables:
    """
    The tables, copied to the default device once: each card's word and its place in it; the cards of the
    lay-downs and of the blocks, and the card that a block lies next to, by whether it lies below its run.
    Made as values even when first asked for inside a trace (``jax.jit(legal_masks)`` before any call),
    so that the cache never keeps a traced value.
    """
    with jax.ensure_compile_time_eval():
        return _made_tables()


def _made_tables() -> _Tables:
    cards = np.arange(56)
    second = cards >= _SPLIT
    attach = _t.BLOCK_ATTACH
    return _Tables(
        bits=_cards(_t.BITS),
        group=_cards(_t.GROUP),
        group_others=_cards(_t.GROUP_OTHERS),
        suit_below=_cards(_t.SUIT_BELOW),
        suit_above=_cards(_t.SUIT_ABOVE),
        run_window=jnp.asarray(_t.RUN_WINDOW.astype(np.uint32)),
        run_ok=jnp.asarray(_t.RUN_OK),
        second=jnp.asarray(second),
        shift=jnp.asarray((cards - _SPLIT * second).astype(np.uint32)),
        melds=_cards(_t.MELDS),
        blocks=_cards(_t.BLOCKS),
        below_lows=_cards(np.where(_t.BLOCK_BELOW, attach, _t.ZERO)),
        above_highs=_cards(np.where(_t.BLOCK_BELOW, _t.ZERO, attach)),
        holds=jnp.asarray(_t.HOLDS),
    )


def legal_masks(arrays: BatchArrays) -> jax.Array:
    """
    The legal ids of each game of *arrays*, ``(n, 944)`` booleans: those of `Batch.legal_masks` for the
    batch that *arrays* were made of (none at a deal or after the game); compiled for each *n* on its first call.
    """
    return _compiled(arrays, _tables())


def _masks(arrays: BatchArrays, tables: _Tables) -> jax.Array:
    """
    `legal_masks`, traced: the ids of a draw where a game is at a draw, those of a play where it is at play.
    """
    n = arrays.phase.shape[0]
    hand = _Cards.of(arrays.hands[jnp.arange(n), jnp.maximum(arrays.to_act, 0)])
    stock_left = arrays.stock_start < 56
    draws = jnp.concatenate([stock_left[:, None], ~stock_left[:, None], _takes(arrays, hand, tables)], axis=1)
    plays = _plays(arrays, hand, tables)
    return jnp.concatenate(
        [
            jnp.where((arrays.phase == _DRAW)[:, None], draws, False),
            jnp.where((arrays.phase == _PLAY)[:, None], plays, False),
        ],
        axis=1,
    )


_compiled: Final[Callable[[BatchArrays, _Tables], jax.Array]] = jax.jit(_masks)


def _takes(arrays: BatchArrays, hand: _Cards, tables: _Tables) -> jax.Array:
    """
    The takes from the discard pile, ``(n, 56)`` by card (R14, R15, A10, A12): each of the pile's 56 places
    is tried with the hand and the cards above it, and the places past its top are left out.  The places
    come first, ``(56, n)``, for the OR of the cards above each place, taken from the top down.
    """
    n = hand.low.shape[0]
    pile = arrays.pile.T
    valid = jnp.arange(56)[:, None] < arrays.pile_len
    bits = tables.bits.take(pile).where(valid)
    # The cards at each place and above it, in log2(56) steps of ORs (no loop), then those above it alone.
    from_top = jax.lax.associative_scan(_Cards.__or__, bits, reverse=True)
    above = _Cards(*(jnp.concatenate([word[1:], jnp.zeros_like(word[:1])]) for word in from_top))
    ok = valid & _takeable(pile, above | hand, arrays, tables)
    # Each card is at one place of the pile at most: the places past the top go nowhere.
    return jnp.zeros((n, 56), jnp.bool_).at[jnp.arange(n), jnp.where(valid, pile, 56)].set(ok, mode="drop")


def _takeable(pile: jax.Array, avail: _Cards, arrays: BatchArrays, tables: _Tables) -> jax.Array:
    """
    Whether each card *pile* of the discard pile may be taken with the cards *avail* (the hand and the
    cards above it), as `persian_rummy.rl.batch` works it out: it makes a set or a three-card run with
    them, or is laid off onto a set, or onto a run over cards of *avail* that fill the gap.
    """
    sets, lows, highs = (_Cards.of(words) for words in (arrays.set_cards, arrays.run_lows, arrays.run_highs))
    ok = (avail & tables.group_others.take(pile)).counts() >= 2
    # The card's suit is in one word: its two neighbours on each side, shifted to the window's five bits.
    own = jnp.where(tables.second[pile], avail.high, avail.low)
    window = ((own << 2) >> tables.shift[pile]) & tables.run_window[pile]
    ok |= tables.run_ok[window]
    ok |= (sets & tables.group.take(pile)).any()
    below = ~avail & tables.suit_below.take(pile)
    ok |= (below & highs).greater(below & ~highs)
    above = ~avail & tables.suit_above.take(pile)
    ok |= (above.lowest() & lows).any()
    return ok


def _plays(arrays: BatchArrays, hand: _Cards, tables: _Tables) -> jax.Array:
    """
    The discards and the plays, ``(n, 886)`` (R16-R18): while a card taken from the pile must be played,
    no discard, and only the melds and lay-offs that hold it (R15, A11).  Each lay-down and block is tested
    against the hand, all at once (where NumPy reads them from tables by each suit's row, to do less work).
    """
    held = _unpack(hand, tables)
    sets = _Cards.of(arrays.set_cards[:, None])
    on_sets = held & (sets & tables.group).any()
    # A block is laid off where the hand holds it and a run ends beside it (none without a run).
    lows, highs = _Cards.of(arrays.run_lows), _Cards.of(arrays.run_highs)
    blocks = hand.holds(tables.blocks) & (lows.meets(tables.below_lows) | highs.meets(tables.above_highs))
    plays = jnp.concatenate([hand.holds(tables.melds), on_sets, blocks], axis=1)
    obliged = arrays.obligation >= 0
    plays &= jnp.where(obliged[:, None], tables.holds[jnp.maximum(arrays.obligation, 0)], True)
    return jnp.concatenate([held & ~obliged[:, None], plays], axis=1)


def _unpack(masks: _Cards, tables: _Tables) -> jax.Array:
    """
    The 56 bits of each mask of *masks* (``(n,)``), ``(n, 56)``.
    """
    words = jnp.where(tables.second, masks.high[:, None], masks.low[:, None])
    return ((words >> tables.shift) & 1) != 0
