"""
The games of the batched environments: a `persian_rummy.rl.batch.Batch`, who plays each seat of
each game, and the random sources of the deals, played up to the learner's decisions.

Each game draws its decks as a ``Solo-v0`` environment does (`persian_rummy.rl.gymnasium`): from a
NumPy generator of its own, seeded with the game's seed, five seeds for each new game, the fifth
seeding the ``random.Random`` that draws the first dealer and shuffles every deal.  So a game of
the batch and a ``Solo-v0`` game of the same seed are dealt the same cards, and with players that
draw nothing (the greedy player) they are the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import numpy as np
from gymnasium.utils import seeding

from ..exceptions import InvalidValueError
from . import _batch_kernel
from .batch import PHASES, Batch
from .batchplayers import BatchPlayer, GreedyBatchPlayer, RandomBatchPlayer

_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]

_DEAL: Final = 0
_DRAW: Final = 1
_PLAY: Final = 2
_DEAL_OVER: Final = 3
_GAME_OVER: Final = 4
assert [phase.value for phase in PHASES] == ["deal", "draw", "play", "deal_over", "game_over"]  # noqa: S101
#: Who holds a seat in `Games.control`: the learner, or a player's index in `Games.players`.
LEARNER: Final = -1
#: The most moves of the other seats and the deals between two decisions of the learner, as a guard.
_MOST_MOVES: Final = 10_000
#: The most games a start deals to reach a decision of the learner (as ``Solo-v0``'s ``reset``).
MOST_GAMES: Final = 1_000
_ORDER: Final = list(range(56))
#: The kinds of player the compiled rounds play, by class (`persian_rummy.rl._batch_kernel`).
_KINDS: Final[dict[type, int]] = {RandomBatchPlayer: _batch_kernel.RANDOM, GreedyBatchPlayer: _batch_kernel.GREEDY}
#: The numbers drawn for the random players before each call of the compiled rounds, per game.
_NUMBERS: Final = 16
_NO_NUMBERS: Final = np.zeros(0, np.float64)
#: For each place *i* of the deck from the last down, the number of bits of ``i + 1``: the bits a draw below it takes.
_SWAPS: Final = [(i, (i + 1).bit_length(), i + 1) for i in range(55, 0, -1)]
#: A game before its first deal, whose arrays a new game's place takes.
_FRESH: Final = Batch.new(1)


class Games:
    """
    *n* games of a batch, the players at their seats and the games' random sources.

    Attributes:
        batch: The games.
        players: The players by index; ``control[i, s]`` is the index of game *i*'s player at seat *s*,
            or `LEARNER`.
        control: ``(n, 4)`` ints.
        rng: The generator the players draw from.
        compiled: Whether the other seats are played by `persian_rummy.rl._batch_kernel.rounds` where it can
            play them (`playable`); the games are the same either way.
    """

    def __init__(self, n: int, players: Sequence[BatchPlayer], dealer: int | None) -> None:
        self.n = n
        self.batch = Batch.new(n)
        self.players = dict(enumerate(players))
        self.compiled = True
        self.control = np.full((n, 4), LEARNER, np.int64)
        self.rng = np.random.default_rng()
        self._dealer = dealer
        self._generators: list[np.random.Generator | None] = [None] * n
        self._decks = [random.Random(0) for _ in range(n)]  # noqa: S311 (games, not secrets; seeded by start)

    def seed(self, i: int, seed: int | None) -> None:
        """
        Seed game *i*'s generator with *seed*, as ``reset(seed=seed)`` seeds an environment's ``np_random``.
        """
        if seed is not None or self._generators[i] is None:
            self._generators[i] = seeding.np_random(seed)[0]

    def generator(self, i: int) -> np.random.Generator:
        """
        Game *i*'s generator (seeded at random if it never was).
        """
        generator = self._generators[i]
        if generator is None:
            generator = self._generators[i] = seeding.np_random(None)[0]
        return generator

    def new_games(self, places: list[int]) -> None:
        """
        Put a new game, not yet dealt, in each place of *places*: its deck's source from its generator, its
        first dealer.
        """
        dealers = []
        for i in places:
            seeds = self.generator(i).integers(0, 2**63 - 1, size=5).tolist()
            deck = self._decks[i] = random.Random(seeds[4])  # noqa: S311 (a game, not a secret)
            drawn = deck.randrange(4)
            dealers.append(drawn if self._dealer is None else self._dealer)
        batch = self.batch
        at = np.asarray(places, dtype=np.int64)  # read once, not once for each array
        for name, value in vars(_FRESH).items():
            if isinstance(value, np.ndarray):
                getattr(batch, name)[at] = value[0]
        batch.dealer[at] = dealers

    def advance(self) -> _Ints:
        """
        Deal and play the seats the learner does not hold until the learner decides in every game that
        goes on: each team's points of the deals that ended, ``(n, 2)``.
        """
        if self.compiled and self.playable:
            return self._advance_compiled()
        batch = self.batch
        gained = np.zeros((self.n, 2), np.int64)
        seats = self.control.reshape(-1)
        first = np.arange(0, 4 * self.n, 4)  # each game's first seat in the seats read flat
        for _ in range(_MOST_MOVES):
            self._deal_waiting(gained)
            # A round: a pass of the draws of the seats at a draw, then a pass of one play of every
            # seat at play (those that just drew among them), so that a turn of a draw and a discard
            # is one round.  A draw leaves the seat to act as it was and a pass hands the turn on to
            # a seat at a draw: who holds the seats at play after the draws is known before them.
            who = seats[first + (batch.to_act & 3)]  # to_act is -1 where no seat acts: read, then left out
            others = who != LEARNER
            drawing = (others & (batch.phase == _DRAW)).nonzero()[0]
            # The deals that end in the passes are scored together, before the next deal or the return.
            if drawing.size:
                batch.step(self._choices(drawing, who[drawing]), drawing, gained=gained, settle=False)
            playing = (others & (batch.phase == _PLAY)).nonzero()[0]
            if playing.size:
                batch.step(self._choices(playing, who[playing]), playing, gained=gained, settle=False)
            elif not drawing.size:
                return batch.settle(gained)
        msg = "the other seats played too long"  # pragma: no cover (a game ends in fewer moves)
        raise AssertionError(msg)  # pragma: no cover

    @property
    def playable(self) -> bool:
        """
        Whether `persian_rummy.rl._batch_kernel.rounds` can play the other seats: it is compiled (Numba is
        installed) and every player is a `RandomBatchPlayer` or a `GreedyBatchPlayer`.
        """
        return _batch_kernel.COMPILED and all(type(player) in _KINDS for player in self.players.values())

    def _deal_waiting(self, gained: _Ints) -> None:
        """
        Score the deals that ended (before the next ones are dealt) and deal the games that wait for a deal.
        """
        batch = self.batch
        phase = batch.phase
        waiting = ((phase == _DEAL) | (phase == _DEAL_OVER)).nonzero()[0]
        if waiting.size:
            batch.settle(gained)
            decks = np.zeros((self.n, 56), np.int64)
            for i in waiting.tolist():
                decks[i] = shuffled(self._decks[i])  # the permutation `random_deal` makes of the deck
            batch.deal(decks, phase != _GAME_OVER)

    def _advance_compiled(self) -> _Ints:
        """
        `advance`, the rounds of the other seats played by the compiled `persian_rummy.rl._batch_kernel.rounds`.
        """
        batch = self.batch
        gained = np.zeros((self.n, 2), np.int64)
        arrays = _batch_kernel.arrays_of(batch)
        kinds = np.full(max(self.players, default=-1) + 1, _batch_kernel.LEARNER, np.int64)
        for index, player in self.players.items():
            kinds[index] = _KINDS[type(player)]
        drawing = bool((kinds == _batch_kernel.RANDOM).any())
        budget = _NUMBERS * self.n
        ended = np.empty((self.n, 3), np.int64)
        for _ in range(_MOST_MOVES):
            self._deal_waiting(gained)
            count = np.zeros(2, np.int64)
            if drawing:
                # Numbers enough for a few rounds; those not used are given back (the generator set back
                # and moved on by those used), so that it ends as the array code leaves it.
                state = self.rng.bit_generator.state
                uniforms = self.rng.random(budget)
            else:
                uniforms = _NO_NUMBERS
            status = _batch_kernel.rounds((kinds, self.control, uniforms), arrays, (ended, count))
            used, k = count.tolist()
            if drawing and used < budget:
                self.rng.bit_generator.state = state
                self.rng.random(used)
            if k:
                batch._unscored.append((ended[:k, 0].copy(), ended[:k, 1].copy(), ended[:k, 2].copy()))  # noqa: SLF001
            if status == _batch_kernel.DONE:
                return batch.settle(gained)
        msg = "the other seats played too long"  # pragma: no cover (a game ends in fewer moves)
        raise AssertionError(msg)  # pragma: no cover

    def _choices(self, games: _Ints, who: _Ints) -> _Ints:
        """
        The ids the players *who* choose in *games*: one call of each player for its games.
        """
        if len(self.players) == 1:  # one player at every other seat: no need to look who holds them
            (player,) = self.players.values()
            return player.choose_batch(self.batch, games, self.rng)
        first = int(who[0])
        if (who == first).all():
            return self.players[first].choose_batch(self.batch, games, self.rng)
        ids = np.empty(games.size, np.int64)
        for k in np.unique(who).tolist():
            mine = who == k
            ids[mine] = self.players[k].choose_batch(self.batch, games[mine], self.rng)
        return ids


def shuffled(deck: random.Random) -> list[int]:
    """
    The cards 0-55 in the order ``deck.shuffle`` leaves them, drawing what it draws: each place from
    the last down swapped with a place at or below it, drawn with ``getrandbits`` until it lies below
    the place + 1 (CPython's ``shuffle`` and ``_randbelow``, written out without their calls).
    """
    order = _ORDER.copy()
    draw = deck.getrandbits
    for i, bits, below in _SWAPS:
        j = draw(bits)
        while j >= below:
            j = draw(bits)
        order[i], order[j] = order[j], order[i]
    return order


def check_games(value: object) -> int:
    """
    *value* as a number of games, an int of 1 or more.
    """
    if type(value) is not int or value < 1:
        msg = f"num_envs must be an int of 1 or more, got {value!r}"
        raise InvalidValueError(msg)
    return value
