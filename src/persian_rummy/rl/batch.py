"""
Many games at once: the state of N games as arrays, stepped and masked with NumPy array operations.

A `Batch` holds N games under the default rules (`persian_rummy.rules.DEFAULT_RULES`): hands,
known cards, the cards of the table and the cards taken as 56-bit masks in ``uint64``; the stock
and the discard pile as arrays of card indices; the melds as arrays of masks by slot; phase, seat,
obligation, passes and the deals' scores as integer arrays.  `Batch.legal_masks` gives the legal ids of
`persian_rummy.rl.actionids` for every game at once, `Batch.step` plays one id per game, `Batch.deal`
deals the games that wait for a deal; no Python loop runs over the games.  The games are those of the
scalar engine, exactly: `Batch.to_states` and `Batch.from_states` convert to and from `persian_rummy.GameState`
(the tests step thousands of games through both and compare every state, mask and reward).

>>> import numpy as np
>>> from persian_rummy import new_game
>>> from persian_rummy.rl.actionids import legal_ids
>>> batch = Batch.new(3)
>>> rewards = batch.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(3)]))
>>> masks = batch.legal_masks()
>>> masks.shape, [tuple(np.flatnonzero(row)) == legal_ids(s) for row, s in zip(masks, batch.to_states())]
((3, 944), [True, True, True])
>>> rewards = batch.step(masks.argmax(axis=1))  # each game's lowest legal id: a draw from the stock
>>> [state.phase.value for state in batch.to_states()]
['play', 'play', 'play']

Other rules are refused (`InvalidValueError`): the batch plays Persian Rummy's defaults only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import numpy as np

from ..cards import FULL_DECK
from ..cardsets import CardSet
from ..exceptions import InvalidValueError
from ..melds import MeldKind, TableMeld
from ..rules import DEFAULT_RULES, Rules
from ..scoring import DealEnd, DealScore, TeamScore
from ..state import GameState, Phase
from . import _batch_tables as _t

__all__ = ["DRAW_IDS", "ENDS", "PHASES", "Batch", "supports"]


def __dir__() -> list[str]:
    return __all__


_U64: TypeAlias = np.ndarray[Any, np.dtype[np.uint64]]
_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]
_Bools: TypeAlias = np.ndarray[Any, np.dtype[np.bool_]]

#: The number of ids a draw may be among (the draw from the stock, the pass, the takes): the ids below it.
DRAW_IDS: Final = _t.DISCARD0
#: The phases a batch holds, by their codes in `Batch.phase`.
PHASES: Final = (Phase.DEAL, Phase.DRAW, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER)
_CODE: Final = {phase: code for code, phase in enumerate(PHASES)}
_DEAL: Final = 0
_DRAW: Final = 1
_PLAY: Final = 2
_DEAL_OVER: Final = 3
_GAME_OVER: Final = 4
assert _GAME_OVER == _DEAL_OVER + 1  # noqa: S101 (a deal's end is the game's when it is the last)
#: The most melds a table holds: 56 cards, three or more each.
_SLOTS: Final = 18
#: The number of deals (R27; a draw ends the game, A22).
_DEALS: Final = 2
#: How the batch's deals end, by their codes in ``Batch.result_end``.
ENDS: Final = (DealEnd.WENT_OUT, DealEnd.PASSES)
_SEATS: Final = np.arange(4)
#: Where the ids of a pass, a take, a discard and a play start (`Batch.step` sorts the ids by them).
_KINDS: Final = np.array([1, _t.TAKE0, _t.DISCARD0, _t.MELD0], dtype=np.int64)
#: Where the ids of the runs, the lay-offs onto sets and the lay-offs onto runs start (`Batch._meld`).
_MELD_KINDS: Final = np.array([_t.SETS_END, _t.ON_SET0, _t.BLOCK0], dtype=np.int64)


def supports(rules: Rules) -> bool:
    """
    Whether a `Batch` plays *rules*: the default rules only.

    >>> supports(Rules()), supports(Rules(jokers_wild=True))
    (True, False)
    """
    return rules == DEFAULT_RULES


def _refuse(rules: Rules) -> None:
    if not supports(rules):
        msg = "the batched engine plays the default rules only; use the scalar engine for other switches"
        raise InvalidValueError(msg)


class Batch:
    """
    N games of Persian Rummy as arrays (see the module's documentation).

    Build one with `Batch.new` (N games before their first deal) or `Batch.from_states`.  The
    arrays are the batch's state and are changed in place by `deal` and `step`.

    Attributes:
        n: The number of games.
        phase: Each game's phase, an index of `PHASES`.
        deal_no, dealer, to_act: The deal's number, its dealer, the seat to act (-1 for none).
        hands, known: The cards of each seat, ``(n, 4)`` masks.
        stock, stock_start: The stock is ``stock[i, stock_start[i]:]``, next card first.
        pile, pile_len: The discard pile is ``pile[i, :pile_len[i]]``, bottom card first.
        melds, owner, laid, layoffs, is_run: The number of melds; by slot their owner, the cards
            laid down, the cards each seat laid off, and whether it is a run (the slots past the
            melds hold no cards).
        meld_of: The slot of the meld that holds each card, -1 for none, ``(n, 56)``.
        set_cards, run_lows, run_highs: The cards of the sets; the lowest and highest card of each run.
        obligation, picked, passes, went_out: As `persian_rummy.GameState` has them (-1 for none).
        results, result_went_out, result_end, deals_done: The finished deals' team scores
            ``(n, 2, 2, 4)`` (melded, doubling, bonus, in hand), who went out, how each ended.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        z = np.zeros
        self.phase = z(n, np.int64)
        self.deal_no = z(n, np.int64)
        self.dealer = z(n, np.int64)
        self.to_act = np.full(n, -1, np.int64)
        self.hands = z((n, 4), np.uint64)
        self.known = z((n, 4), np.uint64)
        self.stock = np.tile(np.arange(56, dtype=np.int64), (n, 1))
        self.stock_start = z(n, np.int64)
        self.pile = z((n, 56), np.int64)
        self.pile_len = z(n, np.int64)
        self.melds = z(n, np.int64)
        self.owner = z((n, _SLOTS), np.int64)
        self.laid = z((n, _SLOTS), np.uint64)
        self.layoffs = z((n, _SLOTS, 4), np.uint64)
        self.is_run = z((n, _SLOTS), np.bool_)
        self.meld_of = np.full((n, 56), -1, np.int64)
        self.set_cards = z(n, np.uint64)
        self.run_lows = z(n, np.uint64)
        self.run_highs = z(n, np.uint64)
        self.obligation = np.full(n, -1, np.int64)
        self.picked = z(n, np.uint64)
        self.passes = z(n, np.int64)
        self.went_out = np.full(n, -1, np.int64)
        self.results = z((n, _DEALS, 2, 4), np.int64)
        self.result_went_out = np.full((n, _DEALS), -1, np.int64)
        self.result_end = z((n, _DEALS), np.int64)
        self.deals_done = z(n, np.int64)
        # The deals that ended in steps taken with ``settle=False``, scored by `settle`: their games, the
        # seats that went out and how they ended.
        self._unscored: list[tuple[_Ints, _Ints, _Ints]] = []

    # -- building ---------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, n: int, *, dealer: int = 0) -> Batch:
        """
        *n* games before their first deal, *dealer* to deal (as `persian_rummy.new_game` makes one).
        """
        batch = cls(n)
        batch.dealer[:] = dealer
        return batch

    @classmethod
    def from_states(cls, states: Sequence[GameState]) -> Batch:
        """
        The games of *states*, one per game.

        Raises:
            InvalidValueError: a state under other rules than the default ones.
        """
        batch = cls(len(states))
        for i, state in enumerate(states):
            batch._read(i, state)
        return batch

    def _read(self, i: int, state: GameState) -> None:
        _refuse(state.rules)
        self.phase[i] = _CODE[state.phase]
        self.deal_no[i], self.dealer[i] = state.deal, state.dealer
        self.to_act[i] = -1 if state.to_act is None else state.to_act
        self.hands[i] = [hand.mask for hand in state.hands]
        self.known[i] = [cards.mask for cards in state.known]
        stock = [card.index for card in state.stock]
        self.stock_start[i] = 56 - len(stock)
        self.stock[i, 56 - len(stock) :] = stock
        pile = [card.index for card in state.discard_pile]
        self.pile_len[i] = len(pile)
        self.pile[i, : len(pile)] = pile
        self._read_melds(i, state)
        self.obligation[i] = -1 if state.obligation is None else state.obligation.index
        self.picked[i] = state.picked.mask
        self.passes[i] = state.passes
        self.went_out[i] = -1 if state.went_out is None else state.went_out
        self._read_results(i, state)

    def _read_melds(self, i: int, state: GameState) -> None:
        """
        Read the melds of *state* into game *i*.
        """
        self.melds[i] = len(state.melds)
        for k, meld in enumerate(state.melds):
            self.owner[i, k] = meld.owner
            self.laid[i, k] = meld.laid_down.mask
            self.layoffs[i, k] = [part.mask for part in meld.layoffs]
            run = meld.kind is MeldKind.RUN
            self.is_run[i, k] = run
            cards = meld.cards.mask
            for card in meld.cards:
                self.meld_of[i, card.index] = k
            if run:
                self.run_lows[i] |= np.uint64(cards & -cards)
                self.run_highs[i] |= np.uint64(1 << (cards.bit_length() - 1))
            else:
                self.set_cards[i] |= np.uint64(cards)

    def _read_results(self, i: int, state: GameState) -> None:
        """
        Read the finished deals of *state* into game *i*.
        """
        self.deals_done[i] = len(state.results)
        for d, result in enumerate(state.results):
            for team, score in enumerate(result.teams):
                parts = (score.melded, score.doubling, score.bonus, score.in_hand)
                self.results[i, d, team] = [part or 0 for part in parts]
            self.result_went_out[i, d] = -1 if result.went_out is None else result.went_out
            self.result_end[i, d] = ENDS.index(result.end)

    def to_states(self) -> list[GameState]:
        """
        Each game as a `persian_rummy.GameState` (built through its checks).
        """
        return [self.state(i) for i in range(self.n)]

    def state(self, i: int) -> GameState:
        """
        Game *i* as a `persian_rummy.GameState`.
        """
        melds = tuple(
            TableMeld(
                int(self.owner[i, k]),
                CardSet(int(self.laid[i, k])),
                tuple(CardSet(int(part)) for part in self.layoffs[i, k]),
            )
            for k in range(int(self.melds[i]))
        )
        results = self.deal_scores(i)
        to_act = int(self.to_act[i])
        obligation = int(self.obligation[i])
        went_out = int(self.went_out[i])
        return GameState(
            rules=DEFAULT_RULES,
            phase=PHASES[int(self.phase[i])],
            deal=int(self.deal_no[i]),
            dealer=int(self.dealer[i]),
            to_act=None if to_act < 0 else to_act,
            hands=tuple(CardSet(int(hand)) for hand in self.hands[i]),
            stock=tuple(FULL_DECK[c] for c in self.stock[i, int(self.stock_start[i]) :].tolist()),
            discard_pile=tuple(FULL_DECK[c] for c in self.pile[i, : int(self.pile_len[i])].tolist()),
            melds=melds,
            obligation=None if obligation < 0 else FULL_DECK[obligation],
            picked=CardSet(int(self.picked[i])),
            known=tuple(CardSet(int(cards)) for cards in self.known[i]),
            passes=int(self.passes[i]),
            went_out=None if went_out < 0 else went_out,
            results=results,
        )

    def deal_scores(self, i: int, first: int = 0) -> tuple[DealScore, ...]:
        """
        The finished deals of game *i* from deal number *first* + 1 on, as `persian_rummy.DealScore` values.
        """
        done = int(self.deals_done[i])
        results = self.results[i, first:done].tolist()  # by deal, team and part: plain ints, read at once
        went_out = self.result_went_out[i, first:done].tolist()
        ends = self.result_end[i, first:done].tolist()
        return tuple(
            DealScore(
                deal=first + k + 1,
                teams=(TeamScore(*teams[0]), TeamScore(*teams[1])),
                went_out=None if went_out[k] < 0 else went_out[k],
                end=ENDS[ends[k]],
            )
            for k, teams in enumerate(results)
        )

    # -- the legal ids -----------------------------------------------------------------------------------------

    def legal_masks(self, where: _Bools | None = None) -> _Bools:
        """
        The legal ids of each game, ``(n, 944)`` booleans: those of `persian_rummy.rl.actionids.action_mask`
        (none at a deal or after the game).  With *where*, only the games where it is ``True`` are
        worked out (the others have none).
        """
        acting = (self.phase == _DRAW) | (self.phase == _PLAY)
        if where is not None:
            acting &= where
        masks = np.zeros((self.n, _t.COUNT), np.bool_)
        d = (acting & (self.phase == _DRAW)).nonzero()[0]
        if d.size:
            self._draws(masks, d, d, self._hands_of(d))
        p = (acting & (self.phase == _PLAY)).nonzero()[0]
        if p.size:
            self._plays(masks, p, p, self._hands_of(p))
        return masks

    def legal_masks_of(self, games: _Ints) -> _Bools:
        """
        The legal ids of the games *games* (indices of games where a seat is to act), ``(len(games), 944)``
        booleans: `legal_masks` for those games alone, the work done for them only.
        """
        k = games.size
        masks = np.zeros((k, _t.COUNT), np.bool_)
        hand = self._hands_of(games)
        drawing = self.phase[games] == _DRAW
        d = drawing.nonzero()[0]
        if d.size:
            self._draws(masks, d, games[d], hand[d])
        p = (~drawing).nonzero()[0]
        if p.size:
            self._plays(masks, p, games[p], hand[p])
        return masks

    def draw_masks_of(self, games: _Ints, *, width: int = _t.COUNT) -> _Bools:
        """
        `legal_masks_of` for games *games* that are all at a draw (the draws and takes alone are worked out);
        with *width* 58 or more, its first *width* ids alone (a draw's ids are below 58: `DRAW_IDS`).
        """
        masks = np.zeros((games.size, width), np.bool_)
        self._draws(masks, np.arange(games.size), games, self._hands_of(games))
        return masks

    def play_masks_of(self, games: _Ints) -> _Bools:
        """
        `legal_masks_of` for games *games* that are all at play (the plays and discards alone are worked out).
        """
        masks = np.zeros((games.size, _t.COUNT), np.bool_)
        self._plays(masks, slice(None), games, self._hands_of(games))
        return masks

    def _draws(self, masks: _Bools, rows: _Ints, d: _Ints, hand: _U64) -> None:
        """
        The draw from the stock or the pass, and the takes, of the games *d* at a draw, into the rows *rows* of *masks*.
        """
        stock_left = self.stock_start[d] < 56
        first = rows * masks.shape[1]  # each row's first id in the masks read flat
        flat = masks.reshape(-1)
        flat[first] = stock_left
        flat[first + 1] = ~stock_left
        piled = self.pile_len[d] > 0
        if np.count_nonzero(piled) < piled.size:
            rows, d, hand = rows[piled], d[piled], hand[piled]
        if d.size:
            self._takes(masks, rows, d, hand)

    def _takes(self, masks: _Bools, rows: _Ints, d: _Ints, hand: _U64) -> None:
        """
        The takes from the discard pile of the games *d*, into the rows *rows* of *masks* (R14, R15, A10, A12).
        """
        length = self.pile_len[d]
        width = int(np.maximum.reduce(length))
        pile = self.pile[d, :width]
        valid = _t.PLACES56[:width][None, :] < length[:, None]
        bits = np.where(valid, _t.BITS[pile], _t.ZERO)
        # The cards above each card: a suffix OR of the pile, taken from the top down, less the card.
        suffix: _U64 = np.bitwise_or.accumulate(bits[:, ::-1], axis=1)[:, ::-1]
        avail = (suffix ^ bits) | hand[:, None]
        ok = _takeable(pile, avail, self.set_cards[d][:, None], self.run_lows[d][:, None], self.run_highs[d][:, None])
        ok &= valid
        at = ok.ravel().nonzero()[0]
        masks.reshape(-1)[rows[at // width] * masks.shape[1] + (_t.TAKE0 + pile.ravel()[at])] = True

    def _plays(self, masks: _Bools, at: _Ints | slice, p: _Ints, hand: _U64) -> None:
        """
        The lay-downs, lay-offs and discards of the games *p*, into the rows *at* of *masks* (R16-R18);
        while a card taken from the pile must be played, only the melds and lay-offs that hold it (R15,
        A11).  The melds and blocks a hand holds are read from tables by each suit's row and each
        rank's four cards, the ends of the runs that blocks lie beside by each suit's row of them.
        """
        m = p.size
        rows = _t.rows_of(hand)
        # Written in place where the rows are the mask's own, else gathered and copied in.
        plays = masks[:, _t.MELD0 :] if isinstance(at, slice) else np.empty((m, _t.COUNT - _t.MELD0), np.bool_)
        held = _t.unpack(hand)
        # Each rank's four-bit pattern of the suits held: the suits' rows of bits weighed 1, 2, 4, 8.
        ranks = np.empty((m, 14), np.uint8)
        ranks[:, :13] = _t.SUIT_WEIGHTS @ held.view(np.uint8)[:, :52].reshape(m, 4, 13)
        ranks[:, 13] = hand >> np.uint64(52)
        plays[:, : _t.SETS_END - _t.MELD0] = _t.SETS_OF_PATTERN.take(ranks, axis=0).reshape(m, 70)
        plays[:, _t.SETS_END - _t.MELD0 : _t.ON_SET0 - _t.MELD0] = _t.RUNS_OF_ROW.take(rows, axis=0).reshape(m, 264)
        on_sets = (self.set_cards[p][:, None] & _t.GROUP) != 0
        np.logical_and(held, on_sets, out=plays[:, _t.ON_SET0 - _t.MELD0 : _t.BLOCK0 - _t.MELD0])
        # A block is laid off where the hand holds it and a run ends beside it (none without a run).
        ends = _t.BELOW_LOWS_OF_ROW.take(_t.rows_of(self.run_lows[p]), axis=0)
        ends |= _t.ABOVE_HIGHS_OF_ROW.take(_t.rows_of(self.run_highs[p]), axis=0)
        ends &= _t.BLOCKS_OF_ROW.take(rows, axis=0)
        plays[:, _t.BLOCK0 - _t.MELD0 :] = ends.reshape(m, 440)
        obligation = self.obligation[p]
        obliged = (obligation >= 0).nonzero()[0]
        if obliged.size:
            plays[obliged] &= _t.HOLDS[obligation[obliged]]
        if not isinstance(at, slice):
            masks[at, _t.MELD0 :] = plays
        masks[at, _t.DISCARD0 : _t.MELD0] = held & (obligation < 0)[:, None]

    # -- stepping -----------------------------------------------------------------------------------------------

    def deal(self, decks: np.ndarray[Any, np.dtype[Any]], where: _Bools | None = None) -> _Ints:
        """
        Deal the games waiting for a deal (or those of *where* among them) from *decks*, ``(n, 56)``
        card indices, first dealt first (as `persian_rummy.Deal` deals them, R7): the
        points of the deals this ends, as `step` gives them (always 0: a deal ends no deal).
        """
        waiting = (self.phase == _DEAL) | (self.phase == _DEAL_OVER)
        if where is not None:
            waiting &= where
        g = waiting.nonzero()[0]
        if self._unscored:
            msg = "deals that ended wait to be scored: settle them before the next deal"
            raise InvalidValueError(msg)
        if g.size:
            deck = np.asarray(decks, dtype=np.int64)[g]
            dealer = np.where(self.phase[g] == _DEAL, self.dealer[g], (self.dealer[g] + 1) % 4)
            # Card k of the deck goes to seat dealer + 1 + k, round the table (R7): the seat r places
            # on from the dealer's left holds the cards r, r + 4, ..., r + 24.
            dealt = np.bitwise_or.reduce(_t.BITS[deck[:, :28]].reshape(g.size, 7, 4), axis=1)
            self.hands[g[:, None], (dealer[:, None] + 1 + _SEATS) % 4] = dealt
            self.known[g] = 0
            self.stock[g, 29:] = deck[:, 29:]
            self.stock_start[g] = 29
            self.pile[g, 0] = deck[:, 28]
            self.pile_len[g] = 1
            self.melds[g] = 0
            self.laid[g] = 0
            self.layoffs[g] = 0
            self.meld_of[g] = -1
            self.set_cards[g] = self.run_lows[g] = self.run_highs[g] = 0
            self.deal_no[g] += 1
            self.dealer[g] = dealer
            self.to_act[g] = (dealer + 1) % 4
            self.phase[g] = _DRAW
            self._turn_ends(g)
        return np.zeros((self.n, 2), np.int64)

    def _places(self, g: _Ints) -> _Ints:
        """
        Where the seats to act in the games *g* lie in the seats' arrays read flat (``hands.reshape(-1)``):
        one index each, cheaper to gather and scatter through than a pair.
        """
        places: _Ints = g * 4 + self.to_act[g]
        return places

    def _hands_of(self, g: _Ints) -> _U64:
        """
        The hands of the seats to act in the games *g*.
        """
        hands: _U64 = self.hands.reshape(-1)[self._places(g)]
        return hands

    def _turn_ends(self, g: _Ints) -> None:
        self.obligation[g] = -1
        self.picked[g] = 0
        self.passes[g] = 0
        self.went_out[g] = -1

    def step(
        self,
        ids: np.ndarray[Any, np.dtype[Any]],
        games: _Ints | None = None,
        *,
        gained: _Ints | None = None,
        settle: bool = True,
    ) -> _Ints:
        """
        Play id ``ids[i]`` in each game *i* where a seat is to act (the others are left as they are);
        with *games*, play ``ids[j]`` in game ``games[j]`` (games where a seat is to act) and leave
        the others.  The ids must be legal (`legal_masks`); nothing is checked.  Returns each team's
        points of the deals that ended in this step, ``(n, 2)`` (0 where none ended); with *gained*
        (``(n, 2)`` ints) they are added to it, and it is returned.

        With *settle* ``False``, the deals that end are over (their phase, seat to act and who went out
        are set) but not yet scored: their results, and their points in *gained*, wait for `settle`,
        which scores the deals of several steps in one go and must come before the next `deal` (and
        before `state` or `to_states` reads those games).  The batched environments' loops step so.
        """
        ids = np.asarray(ids, dtype=np.int64)
        if gained is None:
            gained = np.zeros((self.n, 2), np.int64)
        if games is None:
            acting = ((self.phase == _DRAW) | (self.phase == _PLAY)) & (ids >= 0)
            games = acting.nonzero()[0]
            ids = ids[games]
        if games.size:
            self._play(ids, games)
        if settle:
            self.settle(gained)
        return gained

    def settle(self, gained: _Ints | None = None) -> _Ints:
        """
        Score the deals that ended in steps taken with ``settle=False`` (R23-R26): their results, and
        each team's points added to *gained* (``(n, 2)`` ints, new zeros without it), which is returned.
        """
        if gained is None:
            gained = np.zeros((self.n, 2), np.int64)
        if self._unscored:
            ended, self._unscored = self._unscored, []
            g, went_out, end = (np.concatenate(parts) for parts in zip(*ended, strict=True))
            self._score(g, went_out, end, gained)
        return gained

    def _play(self, ids: _Ints, games: _Ints) -> None:
        """
        Play ``ids[j]`` in game ``games[j]`` for each *j*, the games' deals that end left to `settle`.
        """
        # The games by the kind of their id, in one sort: draws, passes, takes, discards, plays.
        order = ids.argsort(kind="stable")
        ids = ids[order]
        games = games[order]
        a, b, c, d = ids.searchsorted(_KINDS).tolist()
        if a:
            self._draw(games[:a])
        if b > a:
            self._pass(games[a:b])
        if c > b:
            self._take(games[b:c], ids[b:c] - _t.TAKE0)
        if d > c:
            self._discard(games[c:d], ids[c:d] - _t.DISCARD0)
        if games.size > d:
            self._meld(games[d:], ids[d:])

    def _draw(self, g: _Ints) -> None:
        card = self.stock.reshape(-1)[g * 56 + self.stock_start[g]]
        self.hands.reshape(-1)[self._places(g)] |= _t.BITS[card]
        self.stock_start[g] += 1
        self.phase[g] = _PLAY
        # At a draw nothing is obliged or picked and no one went out (`_pass`): the passes alone are reset.
        self.passes[g] = 0

    def _pass(self, g: _Ints) -> None:
        self.passes[g] += 1
        ended = self.passes[g] == 4
        if np.count_nonzero(ended):
            over = g[ended]
            self._end_deal(over, np.full(over.size, -1, np.int64), 1)
        on = g[~ended]
        # At a draw nothing is obliged or picked and no one went out (every way to a draw clears them).
        self.to_act[on] = (self.to_act[on] + 1) % 4

    def _take(self, g: _Ints, card: _Ints) -> None:
        seat = self.to_act[g]
        length = self.pile_len[g]
        pile = self.pile[g, : int(np.maximum.reduce(length))]
        at = (pile == card[:, None]).argmax(axis=1)
        places = _t.PLACES56[: pile.shape[1]]
        taken = np.bitwise_or.reduce(
            np.where((places >= at[:, None]) & (places < length[:, None]), _t.BITS[pile], _t.ZERO), axis=1
        )
        place = g * 4 + seat
        self.known.reshape(-1)[place] |= taken
        self.hands.reshape(-1)[place] |= taken
        self.obligation[g] = card
        self.picked[g] = taken
        self.pile_len[g] = at
        self.phase[g] = _PLAY
        self.passes[g] = 0

    def _discard(self, g: _Ints, card: _Ints) -> None:
        seat = self.to_act[g]
        bit = _t.BITS[card]
        place = g * 4 + seat
        kept = ~bit
        self.hands.reshape(-1)[place] &= kept
        self.known.reshape(-1)[place] &= kept
        self.pile.reshape(-1)[g * 56 + self.pile_len[g]] = card
        self.pile_len[g] += 1
        self.to_act[g] = (seat + 1) % 4
        self.phase[g] = _DRAW
        # At play no one went out, nothing is obliged where a discard is legal and the passes were reset
        # by the draw or the take: the cards picked alone are cleared.
        self.picked[g] = 0

    def _meld(self, g: _Ints, ids: _Ints) -> None:
        """
        Lay-downs, lay-offs onto sets and onto runs (R16, R17), and going out (R19); *ids* in ascending
        order (as `step` sorts them): the sets, the runs, the lay-offs onto sets, then onto runs.
        """
        seat = self.to_act[g]
        cards = _t.CARDS[ids]
        r, o, b = ids.searchsorted(_MELD_KINDS).tolist()
        k = g.size
        # The slot each play goes to: a new one, the set of the card's rank, or the run it lies next to.
        slot = np.empty(k, np.int64)
        if o:
            slot[:o] = self._lay_down(g[:o], ids[:o], cards[:o], seat[:o], r)
        if b > o:
            on = g[o:b]
            slot[o:b] = np.maximum.reduce(self.meld_of[on[:, None], _t.GROUP_CARDS[ids[o:b] - _t.ON_SET0]], axis=1)
            self.set_cards[on] |= cards[o:b]
        if k > b:
            slot[b:] = self._extend_runs(g[b:], ids[b:])
        if k > o:
            self.layoffs.reshape(-1)[((g[o:] * _SLOTS + slot[o:]) << 2) + seat[o:]] |= cards[o:]
        rows, placed = _t.unpack(cards).nonzero()
        self.meld_of.reshape(-1)[g[rows] * 56 + placed] = slot[rows]
        place = g * 4 + seat
        kept = ~cards
        hands = self.hands.reshape(-1)
        hand = hands[place] & kept
        hands[place] = hand
        self.known.reshape(-1)[place] &= kept
        obligation = self.obligation[g]
        played = (obligation >= 0) & ((cards & _t.BITS[np.maximum(obligation, 0)]) != 0)
        self.obligation[g[played]] = -1
        out = hand == 0
        if np.count_nonzero(out):
            self._end_deal(g[out], seat[out], 0)

    def _lay_down(self, a: _Ints, ids: _Ints, cards: _U64, seat: _Ints, r: int) -> _Ints:
        """
        Lay down the melds *ids* (the sets, then from *r* on the runs) in new slots of the games *a*: those slots.
        """
        new = self.melds[a]
        slot = a * _SLOTS + new  # the slots read flat
        self.owner.reshape(-1)[slot] = seat
        self.laid.reshape(-1)[slot] = cards  # its lay-offs are none yet: a deal clears every slot's
        self.is_run.reshape(-1)[slot] = np.arange(a.size) >= r
        self.melds[a] += 1
        if r:
            self.set_cards[a[:r]] |= cards[:r]
        if a.size > r:
            self.run_lows[a[r:]] |= _t.LOW[ids[r:]]
            self.run_highs[a[r:]] |= _t.HIGH[ids[r:]]
        return new

    def _extend_runs(self, g: _Ints, blocks: _Ints) -> _Ints:
        """
        Move the ends of the runs that the blocks *blocks* of the games *g* extend: the runs' slots.
        """
        below = _t.IS_BELOW[blocks]
        moved = _t.ATTACH_BIT[blocks] | np.where(below, _t.LOW[blocks], _t.HIGH[blocks])
        self.run_lows[g[below]] ^= moved[below]
        above = ~below
        self.run_highs[g[above]] ^= moved[above]
        slots: _Ints = self.meld_of.reshape(-1)[g * 56 + _t.ATTACH[blocks]]
        return slots

    def _end_deal(self, g: _Ints, went_out: _Ints, end: int) -> None:
        """
        End the deals of the games *g* (R19, R22, R27), *went_out* the seats that went out (-1 for none),
        *end* their `ENDS` code: scored by `settle`.
        """
        self._unscored.append((g, went_out, np.full(g.size, end, np.int64)))
        self.went_out[g] = went_out
        self.phase[g] = _DEAL_OVER + (self.deal_no[g] >= _DEALS)  # the last deal's end is the game's
        self.to_act[g] = -1
        self.obligation[g] = -1
        self.picked[g] = 0

    def _score(self, g: _Ints, went_out: _Ints, end: _Ints, gained: _Ints) -> None:
        """
        Score the ended deals of the games *g* (R23-R26; each game once), *went_out* and *end* as
        `_end_deal` took them, their points added to *gained*.
        """
        # Each team's cards by part of its result (melded, doubling, bonus, in hand), as masks: the melds
        # its seats laid down and the cards they laid off onto any meld (R26), the sets of four among
        # those melds (R25) and the hands (R23).  Cards lie in one place only: the points of a part are
        # those of its mask (the slots past the melds hold no cards: a deal and a lay-down clear them).
        laid = self.laid[g]
        odd = (self.owner[g] & 1).astype(np.bool_)
        off = np.bitwise_or.reduce(self.layoffs[g], axis=1)  # each seat's lay-offs
        doubled = np.where(~self.is_run[g] & _count4(laid), laid, _t.ZERO)
        hands = self.hands[g]
        cards = np.zeros((g.size, 2, 4), np.uint64)
        cards[:, 0, 0] = np.bitwise_or.reduce(np.where(odd, _t.ZERO, laid), axis=1) | off[:, 0] | off[:, 2]
        cards[:, 1, 0] = np.bitwise_or.reduce(np.where(odd, laid, _t.ZERO), axis=1) | off[:, 1] | off[:, 3]
        cards[:, 0, 1] = np.bitwise_or.reduce(np.where(odd, _t.ZERO, doubled), axis=1)
        cards[:, 1, 1] = np.bitwise_or.reduce(np.where(odd, doubled, _t.ZERO), axis=1)
        cards[:, :, 3] = hands[:, :2] | hands[:, 2:]
        parts = _t.points(cards)
        out = (went_out >= 0).nonzero()[0]  # the team of the seat that went out gets the bonus (R24)
        parts[out, went_out[out] & 1, 2] = DEFAULT_RULES.go_out_bonus
        deal = g * _DEALS + self.deals_done[g]  # each game's next deal, read flat
        self.results.reshape(-1, 2, 4)[deal] = parts
        self.result_went_out.reshape(-1)[deal] = went_out
        self.result_end.reshape(-1)[deal] = end
        self.deals_done[g] += 1
        gained[g] += parts @ _t.RESULT_SIGNS

    # -- reading -----------------------------------------------------------------------------------------------

    def scores(self) -> _Ints:
        """
        Each team's total over the finished deals, ``(n, 2)``.
        """
        totals: _Ints = np.add.reduce(self.results @ _t.RESULT_SIGNS, axis=1)
        return totals


def _count4(masks: _U64) -> _Bools:
    """
    Whether each mask holds four cards or more.
    """
    four: _Bools = np.bitwise_count(masks) >= 4
    return four


def _takeable(pile: _Ints, avail: _U64, sets: _U64, lows: _U64, highs: _U64) -> _Bools:
    """
    Whether each card *pile* of the discard pile may be taken with the cards *avail* (the hand and
    the cards above it): it makes a set or a three-card run with them, or is laid off onto a set,
    or onto a run over cards of *avail* that fill the gap (R15, A10, A12; `takeable` of the engine).
    """
    others = avail & _t.GROUP_OTHERS[pile]
    ok = (others & (others - _t.ONE)) != 0
    t = pile.astype(np.uint64)
    window = ((avail << np.uint64(2)) >> t) & _t.RUN_WINDOW[pile]
    ok |= _t.RUN_OK[window.astype(np.intp)]
    ok |= (sets & _t.GROUP[pile]) != 0
    # Onto a run over cards of *avail*: the first card of the card's suit not in *avail* below it is
    # the highest card of a run (the highest of those below it is, as no card of a run is in *avail*),
    # or the first above it is the lowest card of a run.
    below = ~avail & _t.SUIT_BELOW[pile]
    ok |= (below & highs) > (below & ~highs)
    above = ~avail & _t.SUIT_ABOVE[pile]
    ok |= (above & (~above + _t.ONE) & lows) != 0
    result: _Bools = ok
    return result
