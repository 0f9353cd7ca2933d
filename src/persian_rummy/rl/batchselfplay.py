"""
Team self-play on the batched engine: N games of ``"persian_rummy/SelfPlay-v0"`` stepped as arrays.

`BatchSelfPlayVectorEnv` is a Gymnasium vector environment of N games of
`persian_rummy.rl.selfplay.PersianRummySelfPlayEnv` under the default rules: one learner plays for
a team against members of an `persian_rummy.rl.selfplay.OpponentPool`, with the same observations,
masks, rewards, infos (``"seat"``, ``"team"``, ``"opponent"``, ``"partner"``, and the deals' results)
and seeding.  Each game draws its team, the learner's seat and its members from its own generator,
as the scalar environment does, so that with members that draw nothing (the greedy player) game *i*
of ``reset(seed=s)`` is the game of a ``SelfPlay-v0`` environment reset with the seed *s* + *i*.

The members choose for the whole batch in one call each (`persian_rummy.rl.batchplayers.batch_player`):
``"greedy"`` and ``"random"`` with array operations, a network wrapped in
`persian_rummy.rl.batchplayers.PolicyBatchPlayer` in one forward pass over every game where it is to
act, from the same tensors the learner is given.  A `PolicyBatchPlayer` is also a policy of one
observation, so the same member serves the scalar environment.  Other members (the search players, a
policy of one observation) choose game by game.  Members added to the pool while training take part
in the games that start after.

>>> from persian_rummy.rl.batchplayers import PolicyBatchPlayer
>>> from persian_rummy.rl.selfplay import OpponentPool
>>> pool = OpponentPool(["greedy"])
>>> envs = BatchSelfPlayVectorEnv(4, opponents=pool)
>>> observations, infos = envs.reset(seed=2)
>>> observations["observation"].shape, bool((infos["seat"] % 2 == infos["team"]).all())
((4, 868), True)
>>> def lowest(observations, masks):  # a network would run one forward pass here
...     return masks.argmax(axis=1)
>>> pool.add(PolicyBatchPlayer(lowest, name="lowest"), "lowest")
'lowest'
>>> observations, rewards, terminations, truncations, infos = envs.step(observations["action_mask"].argmax(axis=1))
>>> rewards.shape
(4,)
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..exceptions import InvalidValueError
from ..rules import Rules
from . import _batch_games, _numbers
from . import _env as _rlenv
from .batch import supports
from .batchenv import BatchVectorEnv
from .batchplayers import BatchPlayer, batch_player
from .selfplay import OpponentPool, PersianRummySelfPlayEnv

__all__ = ["ENGINES", "BatchSelfPlayVectorEnv", "make_selfplay_vector"]


def __dir__() -> list[str]:
    return __all__


_PARTNERS: Final = ("learner", "latest", "pool")


def _listed(opponents: object) -> list[object]:
    if isinstance(opponents, str) or not isinstance(opponents, list | tuple):
        return [opponents]
    return list(opponents)


class BatchSelfPlayVectorEnv(BatchVectorEnv):
    """
    *num_envs* games of ``SelfPlay-v0`` on the batched engine (see the module's documentation).

    Args:
        num_envs: The number of games, at least 1.
        opponents: An `OpponentPool`, shared with the training code that adds to it, or the
            members of a new pool; by default a pool of ``"greedy"``.
        partner: ``"learner"`` (the learner acts for both partners), ``"latest"``, ``"pool"``, or a
            member for every game, as in ``SelfPlay-v0``.
        team: The learner's team, 0 or 1, or `None` to draw it for each game.
        reward, on_illegal, dealer, mask_in_observation, observation, max_episode_steps, copy: As
            `persian_rummy.rl.batchenv.BatchSoloVectorEnv` takes them.

    Attributes:
        pool, partner, team: As given (the pool made if need be).

    Raises:
        InvalidValueError: *num_envs* below 1, an unknown partner, reward mode, ``on_illegal`` or
            observation, a team that is not 0 or 1, a dealer that is not a seat.
        InvalidTypeError: an argument of the wrong type.
    """

    def __init__(  # noqa: PLR0913 (the games' settings, keywords all)
        self,
        num_envs: int = 1,
        *,
        opponents: OpponentPool | object = "greedy",
        partner: object = "learner",
        team: int | None = None,
        reward: str = "margin",
        on_illegal: str = "lose",
        dealer: int | None = None,
        mask_in_observation: bool = True,
        observation: str = "solo",
        max_episode_steps: int | None = None,
        copy: bool = True,
    ) -> None:
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(_listed(opponents))
        self.partner = partner if isinstance(partner, str) and partner in _PARTNERS else batch_player(partner)
        team = _numbers.plain(team)
        if team is not None and (type(team) is not int or team not in (0, 1)):
            msg = f"team must be 0, 1 or None, got {team!r}"
            raise InvalidValueError(msg)
        self.team = team
        _arguments.expect(copy, bool, "copy", "a bool")
        self._setup(
            num_envs,
            [],
            reward=reward,
            on_illegal=on_illegal,
            dealer=dealer,
            copy=copy,
            mask_in_observation=mask_in_observation,
            observation=observation,
            max_episode_steps=max_episode_steps,
        )
        n = self.num_envs
        # A member's player and its index, by the member's name and identity.
        self._by_member: dict[tuple[str, int], tuple[object, int]] = {}
        self._next = 0  # the index of the next player
        self._opponent = np.full(n, "", object)
        self._partner = np.full(n, "learner", object)

    def add_opponent(self, member: object, name: str | None = None) -> str:
        """
        Add *member* to the pool (`OpponentPool.add`); its name.
        """
        return self.pool.add(member, name)

    def _player(self, name: str, member: object) -> int:
        """
        The index in the games' players of the pool member *member* named *name*.
        """
        key = (name, id(member))
        held = self._by_member.get(key)
        if held is not None and held[0] is member:
            return held[1]
        if len(self._by_member) > 2 * len(self.pool) + 4:
            self._forget()
        player: BatchPlayer = batch_player(member, name)
        index = self._next
        self._next += 1
        self._by_member[key] = (member, index)
        self._games.players[index] = player
        return index

    def _forget(self) -> None:
        """
        Let go of the players of members no longer in the pool that no game seats, so that a pool
        of bounded capacity keeps a bounded number of networks alive however long training runs.
        """
        seated = set(np.unique(self._games.control).tolist())
        pooled = {(name, id(self.pool[name])) for name in self.pool.names}
        for key, (_, index) in list(self._by_member.items()):
            if key not in pooled and index not in seated:
                del self._by_member[key]
                del self._games.players[index]

    def _seat_game(self, i: int) -> None:
        """
        Draw game *i*'s team, the learner's seat and its members from its generator, as ``SelfPlay-v0`` does.
        """
        rng = self._games.generator(i)
        team = int(rng.integers(2)) if self.team is None else self.team
        seat = team + 2 * int(rng.integers(2))
        opponent = self.pool.sample(rng)
        control = [_batch_games.LEARNER if place & 1 == team else self._player(*opponent) for place in range(4)]
        partner = self.partner
        if partner == "learner":
            self._partner[i] = "learner"
        else:
            held: tuple[str, object]
            if partner == "latest":
                held = self.pool.latest()
            elif partner == "pool":
                held = self.pool.sample(rng)
            else:
                held = ("partner", partner)
            control[seat ^ 2] = self._player(*held)
            self._partner[i] = held[0]
        self._games.control[i] = control
        self._teams[i] = team
        self._seats[i] = seat
        self._opponent[i] = opponent[0]

    def _every_step(self, infos: dict[str, Any]) -> dict[str, Any]:
        """
        *infos* with the seat, team, opponent and partner of every game.
        """
        every = np.ones(self.num_envs, np.bool_)
        values = {"seat": self._seats.copy(), "team": self._teams.copy()}
        values |= {"opponent": self._opponent.copy(), "partner": self._partner.copy()}
        for key, value in values.items():
            infos[key] = value
            infos[f"_{key}"] = every
        return infos


#: The engines `make_selfplay_vector` chooses from.
ENGINES: Final = ("auto", "batch", "scalar")


def make_selfplay_vector(
    num_envs: int = 1,
    rules: Rules | None = None,
    *,
    engine: str = "auto",
    **settings: Any,  # noqa: ANN401 (the environments' own settings)
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """
    *num_envs* games of ``SelfPlay-v0`` on the batched engine or the scalar one: the
    ``vector_entry_point`` of ``"persian_rummy/SelfPlay-v0"``, which ``gymnasium.make_vec`` calls.

    *engine*: ``"batch"``, a `BatchSelfPlayVectorEnv`; ``"scalar"``, a ``SyncVectorEnv`` of
    `persian_rummy.rl.selfplay.PersianRummySelfPlayEnv` sharing one pool; ``"auto"`` (the default),
    the batch under the default rules with no render mode.  Members that draw nothing (the
    greedy player, a deterministic network) play the same games on both for the same seeds.

    >>> import gymnasium
    >>> type(gymnasium.make_vec("persian_rummy/SelfPlay-v0", 2)).__name__
    'BatchSelfPlayVectorEnv'

    Raises:
        InvalidValueError: an unknown engine, or other rules or a render mode with ``engine="batch"``.
    """
    engine = _rlenv.choice(engine, "engine", ENGINES)
    fits = supports(_rlenv.rules_of(rules)) and settings.get("render_mode") is None
    if engine == "auto":
        engine = "batch" if fits else "scalar"
    if engine == "batch":
        if not fits:
            msg = "the batched engine plays the default rules with no render mode; use engine='scalar'"
            raise InvalidValueError(msg)
        settings.pop("render_mode", None)
        return BatchSelfPlayVectorEnv(num_envs, **settings)
    return _scalar_vector(num_envs, rules, settings)


def _scalar_vector(
    num_envs: object, rules: Rules | None, settings: dict[str, Any]
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """
    ``SelfPlay-v0`` vectorised by Gymnasium's ``SyncVectorEnv``, its environments sharing one pool; the
    batch's own settings read as it reads them (``max_episode_steps`` by Gymnasium's ``TimeLimit``).
    """
    opponents = settings.pop("opponents", "greedy")
    pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(_listed(opponents))
    games = _batch_games.check_games(_numbers.plain(num_envs))
    limit = _arguments.optional_count(_numbers.plain(settings.pop("max_episode_steps", None)), "max_episode_steps", 1)
    copy = settings.pop("copy", True)
    _arguments.expect(copy, bool, "copy", "a bool")
    # The scalar environment observes as ``Solo-v0`` does: its tensor, with the mask.
    for name, value, only in (
        ("observation", settings.pop("observation", "solo"), "solo"),
        ("mask_in_observation", settings.pop("mask_in_observation", True), True),
    ):
        if value != only:
            msg = f"{name}={_limits.shown(value)} is the batched engine's alone; use engine='batch'"
            raise InvalidValueError(msg)

    def one() -> gymnasium.Env[Any, Any]:
        env: gymnasium.Env[Any, Any] = PersianRummySelfPlayEnv(rules, opponents=pool, **settings)
        return env if limit is None else gymnasium.wrappers.TimeLimit(env, limit)

    return gymnasium.vector.SyncVectorEnv([one] * games, copy=copy, autoreset_mode=AutoresetMode.NEXT_STEP)
