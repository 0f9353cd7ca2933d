"""
Players for the batched engine: each chooses for many games of a `persian_rummy.rl.batch.Batch` in one call.

A `BatchPlayer` (``choose_batch``) is given the batch, the games where it is to act and a NumPy generator, and
returns one action id per game.  Three choose for the whole batch with array operations:

* `RandomBatchPlayer`: a legal id drawn uniformly for each game, as
  `persian_rummy.bots.players.RandomPlayer` draws a legal action.
* `GreedyBatchPlayer`: the choice of `persian_rummy.bots.players.GreedyPlayer`, exactly (the
  tests compare them at every decision of thousands of games).
* `LearnedBatchPlayer`: the learned player's network (``"learned"``), evaluated over the batch in
  one pass.
* `PolicyBatchPlayer`: a network, or any function of the observations and the masks of the
  games, ``(k, 868)`` tensors of `persian_rummy.rl.tensors.observation_tensor` and ``(k, 944)``
  masks, to ``k`` ids: one forward pass for the batch.  The tensors are those ``Solo-v0`` and
  ``SelfPlay-v0`` give their learner, so a frozen copy of a learner plays as it was trained.

`RowBatchPlayer` holds anything else (a `persian_rummy.bots.players.Player` such as the search
players, or a policy of one observation): it chooses game by game through the scalar engine, and
costs what the scalar environments cost.  `batch_player` makes the right one from a name, a player
or a policy.

>>> import numpy as np
>>> from persian_rummy.rl.batch import Batch
>>> batch = Batch.new(3)
>>> _ = batch.deal(np.stack([np.random.default_rng(s).permutation(56) for s in range(3)]))
>>> games = np.arange(3)
>>> ids = GreedyBatchPlayer().choose_batch(batch, games, np.random.default_rng(0))
>>> ids.shape, bool(batch.legal_masks()[games, ids].all())
((3,), True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeAlias, runtime_checkable

import numpy as np
from attrs import field, frozen

from .. import limits as _limits
from ..bots.players import GreedyPlayer, Player, RandomPlayer, make_player
from ..exceptions import InvalidTypeError, InvalidValueError
from ..views import observe
from . import _batch_greedy
from . import _batch_tables as _t
from ._batch_observe import observations as _observations
from .actionids import action_id
from .batch import PHASES, Batch
from .policy import INPUTS, LearnedPlayer

__all__ = [
    "BatchPlayer",
    "BatchPolicy",
    "GreedyBatchPlayer",
    "LearnedBatchPlayer",
    "PolicyBatchPlayer",
    "RandomBatchPlayer",
    "RowBatchPlayer",
    "batch_player",
]


def __dir__() -> list[str]:
    return __all__


_Array: TypeAlias = np.ndarray[Any, np.dtype[Any]]
_Ints: TypeAlias = np.ndarray[Any, np.dtype[np.int64]]
#: A policy of a batch: (observations ``(k, 868)`` float32, masks ``(k, 944)`` int8) to ``k`` ids.
BatchPolicy: TypeAlias = Callable[[_Array, _Array], Any]
_DRAW: Final = 1
#: What a masked id's logit becomes, below any logit a network gives.
_MASKED: Final = np.float32(-1e30)
assert PHASES[_DRAW].value == "draw"  # noqa: S101


@runtime_checkable
class BatchPlayer(Protocol):
    """
    What chooses for many games at once: ``choose_batch(batch, games, rng)``, one legal id per game.

    *games* are indices of games of *batch* where a seat is to act (in the draw or the play
    phase); the seat is ``batch.to_act[games]``.  The ids are checked by the environments.
    """

    @property
    def name(self) -> str:
        """
        The player's name, as environments report it.
        """

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:
        """
        One legal id for each game of *games*, in their order.
        """


def _uniform(masks: _Array, rng: np.random.Generator) -> _Ints:
    """
    A legal id of each row of *masks* (each with one at least), drawn uniformly.
    """
    k, width = masks.shape
    flat = masks.ravel().nonzero()[0]  # faster than a two-dimensional nonzero
    bounds = flat.searchsorted(np.arange(0, (k + 1) * width, width))  # where each row's ids start
    counts = bounds[1:] - bounds[:-1]
    chosen: _Ints = flat[bounds[:-1] + (rng.random(k) * counts).astype(np.int64)] % width
    return chosen


@frozen
class RandomBatchPlayer:
    """
    Chooses uniformly among the legal ids of each game, as `persian_rummy.bots.players.RandomPlayer` does.
    """

    @property
    def name(self) -> str:
        """
        ``"random"``.
        """
        return "random"

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:
        """
        A legal id of each game of *games*, each as likely.
        """
        drawing = batch.phase[games] == _DRAW
        drawn = np.count_nonzero(drawing)  # cheaper than all() and any() on a few games
        if drawn == games.size:  # a draw's ids lie below the discards': the choice reads those columns alone
            return _uniform(batch.draw_masks_of(games, width=_t.DISCARD0), rng)
        if not drawn:
            return _uniform(batch.play_masks_of(games), rng)
        return _uniform(batch.legal_masks_of(games), rng)


@frozen
class GreedyBatchPlayer:
    """
    Chooses as `persian_rummy.bots.players.GreedyPlayer` does, for every game at once (no randomness).
    """

    @property
    def name(self) -> str:
        """
        ``"greedy"``.
        """
        return "greedy"

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:  # noqa: ARG002 (no randomness)
        """
        The greedy player's id in each game of *games*.
        """
        return _batch_greedy.greedy_ids(batch, games)


def _check_ids(ids: object, masks: _Array, name: str) -> _Ints:
    """
    *ids* as ``k`` legal ids of the rows of *masks*, or the error naming player *name*.
    """
    chosen = np.asarray(ids)
    k = masks.shape[0]
    if chosen.shape != (k,) or not np.issubdtype(chosen.dtype, np.integer):
        msg = f"the policy of {name!r} must return {k} integer ids, got {_limits.shown(ids)}"
        raise InvalidValueError(msg)
    chosen = chosen.astype(np.int64)
    inside = (chosen >= 0) & (chosen < masks.shape[1])
    legal = inside & masks[np.arange(k), np.where(inside, chosen, 0)].astype(np.bool_)
    if not legal.all():
        row = int(np.flatnonzero(~legal)[0])
        msg = f"the policy of {name!r} chose id {int(chosen[row])}, which names no legal action of its game"
        raise InvalidValueError(msg)
    return chosen


@frozen
class PolicyBatchPlayer:
    """
    A policy of a batch as a player: one call for all the games it is to act in.

    Args:
        policy: A function of (observations, masks) to ids: ``(k, 868)`` float32 tensors of
            `persian_rummy.rl.tensors.observation_tensor`, each of the view of the seat to act,
            ``(k, 944)`` int8 masks of the legal ids, and ``k`` integer ids (a sequence or an array).
        name: The name environments report.

    Raises:
        InvalidTypeError: *policy* is not callable.

    `choose_batch` (and a call for one game) raises `persian_rummy.exceptions.InvalidValueError`
    naming the player when the policy returns other than ``k`` integers, or an id that is not legal in its game.
    """

    policy: BatchPolicy = field()
    name: str = field(default="policy", kw_only=True)

    @policy.validator
    def _check_policy(self, _: object, value: object) -> None:
        if not callable(value):
            msg = f"policy must be a function of the observations and the masks, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)

    def __call__(self, observation: _Array, mask: _Array) -> int:
        """
        The policy's id for one game: a policy of one observation, as `persian_rummy.rl.selfplay.OpponentPool`
        and `persian_rummy.rl.policy.PolicyPlayer` take them (so one member serves both kinds of environment).
        """
        masks = np.asarray(mask)[None]
        return int(_check_ids(self.policy(np.asarray(observation)[None], masks), masks, self.name)[0])

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:  # noqa: ARG002 (the policy's own)
        """
        The policy's ids for the games of *games*, from their seats' tensors and masks.
        """
        tensors = _observations(batch, games, batch.to_act[games])
        masks = batch.legal_masks_of(games).astype(np.int8)
        return _check_ids(self.policy(tensors, masks), masks, self.name)


@frozen
class LearnedBatchPlayer:
    """
    The learned player (`persian_rummy.rl.policy.LearnedPlayer`, ``"learned"``) for every game at once:
    its network evaluated over the batch's tensors in one pass, with the batch's greedy choices
    where the network reads them (``"observation+greedy"``), the legal id of the highest logit.

    Attributes:
        weights: The path of a network saved by `persian_rummy.rl.policy.MLPPolicy.save`; `None`,
            the network shipped.
    """

    weights: str | None = None

    @property
    def name(self) -> str:
        """
        ``"learned"``, or the weights' path.
        """
        return "learned" if self.weights is None else f"learned:{self.weights}"

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:  # noqa: ARG002 (no randomness)
        """
        The network's id in each game of *games*.
        """
        network = LearnedPlayer(self.weights).network
        given = _observations(batch, games, batch.to_act[games])
        if network.inputs == INPUTS[1]:  # the greedy player's choice, one-hot, after the tensor
            hint = np.zeros((games.size, _t.COUNT), np.float32)
            hint[np.arange(games.size), _batch_greedy.greedy_ids(batch, games)] = 1
            given = np.concatenate((given, hint), axis=1)
        masks = batch.legal_masks_of(games)
        chosen: _Ints = np.where(masks, network.logits(given), _MASKED).argmax(axis=1)
        return chosen


@frozen
class RowBatchPlayer:
    """
    A player or a policy of one game as a `BatchPlayer`: it chooses game by game, through the scalar engine.

    Args:
        member: A `persian_rummy.bots.players.Player` (shown the view of its seat, with a
            ``random.Random`` seeded from the generator), or a function of one observation
            tensor and one mask to an id (a member of `persian_rummy.rl.selfplay.OpponentPool`).
        name: The name environments report.
    """

    member: Player | Callable[[_Array, _Array], Any]
    name: str = field(default="player", kw_only=True)

    def choose_batch(self, batch: Batch, games: _Ints, rng: np.random.Generator) -> _Ints:
        """
        The member's id in each game of *games*, one game at a time.
        """
        member = self.member
        seats = batch.to_act[games].tolist()
        if isinstance(member, Player):
            seeds = rng.integers(0, 2**63 - 1, size=games.size).tolist()
            ids = []
            for i, seat, seed in zip(games.tolist(), seats, seeds, strict=True):
                view = observe(batch.state(i), seat)
                ids.append(action_id(member.choose(view, random.Random(seed)), view))  # noqa: S311 (a game)
            return np.array(ids, np.int64)
        tensors = _observations(batch, games, batch.to_act[games])
        masks = batch.legal_masks_of(games).astype(np.int8)
        chosen = [member(tensor, mask) for tensor, mask in zip(tensors, masks, strict=True)]
        return _check_ids(np.array(chosen).reshape(-1), masks, self.name)


#: The players of the batch by the names `persian_rummy.bots.players.make_player` knows them by.
_BY_NAME: Final[dict[str, BatchPlayer]] = {
    "random": RandomBatchPlayer(),
    "greedy": GreedyBatchPlayer(),
    "learned": LearnedBatchPlayer(),
}


def batch_player(value: object, name: str | None = None) -> BatchPlayer:
    """
    *value* as a `BatchPlayer`: itself if it is one; ``"random"``, ``"greedy"``, ``"learned"``, a
    `RandomPlayer`, a `GreedyPlayer` or a `persian_rummy.rl.policy.LearnedPlayer` as the batch's own;
    any other name of `persian_rummy.bots.players.make_player`, any other player, or a function of one
    observation and one mask as a `RowBatchPlayer`, named *name*.
    Wrap a function of a batch in `PolicyBatchPlayer` to have it called once for the batch.

    >>> batch_player("greedy"), batch_player("ismcts:50").name
    (GreedyBatchPlayer(), 'ismcts:50')

    Raises:
        InvalidValueError: an unknown player's name.
        InvalidTypeError: *value* is none of those.
    """
    if isinstance(value, BatchPlayer):
        return value
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        return RowBatchPlayer(make_player(value), name=name or value)
    if type(value) is RandomPlayer:
        return _BY_NAME["random"]
    if type(value) is GreedyPlayer:
        return _BY_NAME["greedy"]
    if type(value) is LearnedPlayer:
        return LearnedBatchPlayer(value.weights)
    if isinstance(value, Player) or callable(value):
        return RowBatchPlayer(value, name=name or "player")
    msg = f"a player of the batch is a name, a Player, a policy or a BatchPlayer, got {_limits.shown(value)}"
    raise InvalidTypeError(msg)
