"""
A Gymnasium vector environment on the batched engine: N games of one seat against random players,
every game stepped, masked and observed with array operations (`persian_rummy.rl.batch`).

`BatchSoloVectorEnv` plays the learner's seat 0 of N games under the default rules; seats 1 to 3
are random players that choose for the whole batch at once (a legal id drawn uniformly for each
game from its mask), and the deals are shuffled by NumPy.  After the learner's action the other
seats and the deals are played up to the learner's next decision in every game, a move of the
batch at a time.  The rewards are those of ``Solo-v0``'s ``reward="margin"``: each deal's margin
for the learner's team over `persian_rummy.rl.gymnasium.PersianRummySoloEnv.reward_scale`; the
autoreset mode is ``"NextStep"`` (the step after a game ends resets it, its action ignored).

Its observation is made from the arrays, for the batch at once, and is not ``Solo-v0``'s tensor:
``BATCH_OBSERVATION_SIZE`` values in [0, 1], the parts of `OBSERVATION_PARTS` in order.

>>> envs = BatchSoloVectorEnv(4)
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 513), (4, 944))
>>> actions = observations["action_mask"].argmax(axis=1)  # the lowest legal id of each game
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.tolist()
((4,), [False, False, False, False])
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from ..exceptions import InvalidValueError
from ..rules import DEFAULT_RULES
from . import _batch_tables as _t
from . import _env as _rlenv
from .batch import PHASES, Batch

__all__ = ["BATCH_OBSERVATION_SIZE", "OBSERVATION_PARTS", "BatchSoloVectorEnv"]


def __dir__() -> list[str]:
    return __all__


_Array: TypeAlias = np.ndarray[Any, np.dtype[Any]]

#: The parts of the batch observation, by name and size: the learner's hand; the cards its partner,
#: then the opponents to its left and right are known to hold; the cards its team and the other team
#: have on the table; the discard pile; its top card; the card that must be played; the phase (draw,
#: play); the stock's size, each hand's size (over 56); each team's score (over the reward scale, + 1/2).
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
#: The number of values of the batch observation.
BATCH_OBSERVATION_SIZE: Final = sum(size for _, size in OBSERVATION_PARTS)
_LEARNER: Final = 0
# The codes of the phases in `Batch.phase`.
_DEAL: Final = 0
_DRAW: Final = 1
_PLAY: Final = 2
_DEAL_OVER: Final = 3
_GAME_OVER: Final = 4
assert [phase.value for phase in PHASES] == ["deal", "draw", "play", "deal_over", "game_over"]  # noqa: S101
#: The most moves of the other seats and the deals between two decisions of the learner, as a guard.
_MOST_MOVES: Final = 10_000


def _uniform(masks: _Array, rng: np.random.Generator) -> _Array:
    """
    A legal id of each row of *masks* (each with one at least), drawn uniformly.
    """
    k, width = masks.shape
    flat = masks.ravel().nonzero()[0]  # faster than a two-dimensional nonzero
    bounds = flat.searchsorted(np.arange(0, (k + 1) * width, width))  # where each row's ids start
    counts = bounds[1:] - bounds[:-1]
    chosen: _Array = flat[bounds[:-1] + (rng.random(k) * counts).astype(np.int64)] % width
    return chosen


class BatchSoloVectorEnv(gymnasium.vector.VectorEnv[Any, _Array, _Array]):
    """
    *num_envs* games of seat 0 against random players on the batched engine (see the module's documentation).

    Args:
        num_envs: The number of games, at least 1.
        players: ``"random"``: the only players the batch chooses for (others are refused).
        copy: Whether `reset` and `step` return copies of the observation arrays.

    Raises:
        InvalidValueError: *num_envs* below 1, or players the batch cannot play.
    """

    def __init__(self, num_envs: int = 1, *, players: str = "random", copy: bool = True) -> None:
        if type(num_envs) is not int or num_envs < 1:
            msg = f"num_envs must be an int of 1 or more, got {num_envs!r}"
            raise InvalidValueError(msg)
        if players != "random":
            msg = f"the batched environment plays random players only, got {players!r}"
            raise InvalidValueError(msg)
        self.num_envs = num_envs
        self.copy = copy
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.single_action_space = _rlenv.action_space(DEFAULT_RULES)
        box = gymnasium.spaces.Box(0.0, 1.0, (BATCH_OBSERVATION_SIZE,), np.float32)
        mask = gymnasium.spaces.MultiBinary(_t.COUNT)
        self.single_observation_space = gymnasium.spaces.Dict({"observation": box, "action_mask": mask})
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.reward_scale = _rlenv.reward_scale(DEFAULT_RULES)
        self._rng = np.random.default_rng()
        self._batch = Batch.new(num_envs)
        self._ended = np.zeros(num_envs, np.bool_)
        self._masks = np.zeros((num_envs, _t.COUNT), np.bool_)

    @property
    def batch(self) -> Batch:
        """
        The games as they stand (read it, do not step it).
        """
        return self._batch

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,  # noqa: ARG002 (Gymnasium's signature; none is read)
    ) -> tuple[Any, dict[str, Any]]:
        """
        Start a new game in every place and play it to the learner's first decision (*options* are ignored).
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._batch = Batch.new(self.num_envs)
        self._ended[:] = False
        self._advance()  # a deal that ends before the learner's first decision (rare) brings no reward
        return self._observations(), {}

    def step(self, actions: _Array) -> tuple[Any, _Array, _Array, _Array, dict[str, Any]]:
        """
        Play one id per game for the learner, then the other seats and deals up to its next decision.
        """
        ids = np.asarray(actions, dtype=np.int64)
        batch = self._batch
        restart = self._ended.copy()
        if restart.any():
            self._restart(restart)
        playing = ~restart & (batch.to_act == _LEARNER)
        legal = self._masks[np.arange(self.num_envs), np.clip(ids, 0, _t.COUNT - 1)]
        if not legal[playing].all() or ((ids < 0) | (ids >= _t.COUNT))[playing].any():
            msg = "an action id names no legal action of its game"
            raise InvalidValueError(msg)
        gained = batch.step(np.where(playing, ids, -1))
        gained += self._advance()
        rewards = (gained[:, 0] - gained[:, 1]) / self.reward_scale
        rewards[restart] = 0.0
        terminations = batch.phase == _GAME_OVER
        self._ended = terminations.copy()
        return self._observations(), rewards, terminations, np.zeros(self.num_envs, np.bool_), {}

    def _restart(self, where: _Array) -> None:
        fresh = Batch.new(int(where.sum()))
        batch = self._batch
        for name, value in vars(fresh).items():
            if name != "n":
                getattr(batch, name)[where] = value
        self._ended[where] = False

    def _advance(self) -> _Array:
        """
        Deal and play the other seats until the learner decides in every game that goes on: the points gained.
        """
        batch = self._batch
        gained = np.zeros((self.num_envs, 2), np.int64)
        for _ in range(_MOST_MOVES):
            waiting = (batch.phase == _DEAL) | (batch.phase == _DEAL_OVER)
            if np.count_nonzero(waiting):
                w = waiting.nonzero()[0]
                decks = np.zeros((self.num_envs, 56), np.int64)
                decks[w] = self._rng.permuted(np.tile(_t.PLACES56, (w.size, 1)), axis=1)
                batch.deal(decks, waiting)
            # A seat's draw, then a play of every seat at play (the one that just drew among them): a
            # turn of a draw and a discard is one pass.  A draw's ids lie below the discards': its
            # choice reads those columns alone.
            others = batch.to_act > _LEARNER
            d = (others & (batch.phase == _DRAW)).nonzero()[0]
            if d.size:
                gained += batch.step(_uniform(batch.draw_masks_of(d)[:, : _t.DISCARD0], self._rng), d)
            p = ((batch.to_act > _LEARNER) & (batch.phase == _PLAY)).nonzero()[0]
            if p.size:
                gained += batch.step(_uniform(batch.play_masks_of(p), self._rng), p)
            elif not d.size:
                return gained
        msg = "the other seats played too long"  # pragma: no cover (a game ends in fewer moves)
        raise AssertionError(msg)  # pragma: no cover

    def _observations(self) -> dict[str, _Array]:
        batch = self._batch
        n = self.num_envs
        self._masks = batch.legal_masks()
        self._masks[self._ended_now()] = True
        seats = (_LEARNER + np.arange(4)) % 4
        hands = batch.hands[:, seats]
        # The card masks of the observation, side by side, unpacked at once.
        cards = np.empty((n, 9), np.uint64)
        cards[:, 0] = hands[:, 0]
        cards[:, 1:4] = batch.known[:, seats[[2, 1, 3]]]
        # The slots past the melds hold no lay-offs (a deal and a lay-down clear them), but old lay-downs.
        slots = _t.PLACES56[: batch.laid.shape[1]] < batch.melds[:, None]
        laid = np.where(slots, batch.laid, _t.ZERO)
        layoffs = np.bitwise_or.reduce(batch.layoffs, axis=1)
        mine = (batch.owner & 1) == 0
        cards[:, 4] = np.bitwise_or.reduce(np.where(mine, laid, _t.ZERO), axis=1) | layoffs[:, 0] | layoffs[:, 2]
        cards[:, 5] = np.bitwise_or.reduce(np.where(mine, _t.ZERO, laid), axis=1) | layoffs[:, 1] | layoffs[:, 3]
        places = batch.pile_len[:, None] > _t.PLACES56
        cards[:, 6] = np.bitwise_or.reduce(np.where(places, _t.BITS[batch.pile], _t.ZERO), axis=1)
        top = batch.pile[np.arange(n), np.maximum(batch.pile_len - 1, 0)]
        cards[:, 7] = np.where(batch.pile_len > 0, _t.BITS[top], _t.ZERO)
        cards[:, 8] = np.where(batch.obligation >= 0, _t.BITS[np.maximum(batch.obligation, 0)], _t.ZERO)
        observation = np.empty((n, BATCH_OBSERVATION_SIZE), np.float32)
        observation[:, : 9 * 56] = _t.unpack(cards).reshape(n, 9 * 56)
        observation[:, 9 * 56] = batch.phase == _DRAW
        observation[:, 9 * 56 + 1] = batch.phase == _PLAY
        sizes = observation[:, 9 * 56 + 2 : 9 * 56 + 7]
        sizes[:, 0] = 56 - batch.stock_start
        sizes[:, 1:] = np.bitwise_count(hands)
        sizes /= 56
        observation[:, 9 * 56 + 7 :] = batch.scores() / self.reward_scale + 0.5
        masks = self._masks.astype(np.int8)
        return {"observation": observation, "action_mask": masks}

    def _ended_now(self) -> _Array:
        ended: _Array = self._batch.phase == _GAME_OVER
        return ended

    def action_masks(self) -> _Array:
        """
        The legal ids of each game as booleans, ``(num_envs, 944)``; every id in a game that has ended.
        """
        return self._masks.copy()
