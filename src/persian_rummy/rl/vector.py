"""
Persian Rummy as a native Gymnasium vector environment: N games of ``persian_rummy/Solo-v0`` stepped together.

`PersianRummyVectorEnv` is a ``gymnasium.vector.VectorEnv``.  Each of its games is a
`persian_rummy.rl.gymnasium.PersianRummySoloEnv` with the same settings, and each step writes
the batch of observations, masks, rewards, terminations and truncations into arrays allocated
once, with the games that ended reset automatically.  The games are exactly those of N
independent ``Solo-v0`` environments seeded the same way (``reset(seed=s)`` seeds game *i* with
``s + i``, as ``gymnasium.vector.SyncVectorEnv`` does), but none of a wrapper's checks, no
observation dict per game and no concatenation is paid for at each step.  `make_vector`, the
``vector_entry_point`` of ``"persian_rummy/Solo-v0"``, makes it with ``engine="scalar"``, or when
the batched engine (`persian_rummy.rl.batchenv`) cannot hold the settings (other rules, a render
mode, another autoreset mode, players that choose game by game):
``gymnasium.make_vec("persian_rummy/Solo-v0", n, engine="scalar")``.

>>> import gymnasium
>>> import persian_rummy.rl.vector
>>> envs = gymnasium.make_vec("persian_rummy/Solo-v0", 4, vectorization_mode="vector_entry_point", engine="scalar")
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 868), (4, 944))
>>> masks = envs.action_masks()
>>> actions = masks.argmax(axis=1)  # the lowest legal id of each game
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.tolist()
((4,), [False, False, False, False])

**Autoreset** (Gymnasium's ``autoreset_mode``, in ``metadata["autoreset_mode"]``): all three
modes are supported.  ``"NextStep"`` (the default): the step after a game ends resets it, its
action ignored, with a reward of 0; the observation of the end marks every id in its mask (and
`action_masks` does), so that a masked policy always has an id to choose.  ``"SameStep"``:
the step that ends a game resets it at once and returns the new game's observation, the last
one in ``infos["final_obs"]`` and the last info in ``infos["final_info"]``.  ``"Disabled"``:
nothing is reset but by ``reset(options={"reset_mask": mask})``, which resets the games where
the boolean array *mask* is ``True``.

**Truncation**: with ``max_episode_steps``, a game is truncated after that many steps of the
learner, as Gymnasium's ``TimeLimit`` wrapper truncates one ``Solo-v0``.

**Arrays**: observations, masks (``int8``), rewards (``float64``), terminations and
truncations (``bool``) are written in place.  With ``copy=True`` (the default) ``reset`` and
``step`` return copies of the observations; with ``copy=False`` they return the arrays
themselves, which the next step overwrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias, cast

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..bots.players import Player
from ..exceptions import InvalidTypeError, InvalidValueError
from ..rules import Rules
from . import _env as _rlenv
from . import _numbers
from .actionids import action_count
from .batch import supports
from .batchenv import BatchSoloVectorEnv
from .batchplayers import RowBatchPlayer, batch_player
from .gymnasium import PersianRummySoloEnv
from .tensors import observation_size

__all__ = ["ENGINES", "PersianRummyVectorEnv", "make_vector"]


def __dir__() -> list[str]:
    return __all__


_Array: TypeAlias = np.ndarray[Any, np.dtype[Any]]
#: A batch of observations: the dict of tensors and masks, or the tensors alone (typed as either).
_Observations: TypeAlias = Any
#: The render modes: each game's text or picture (the games are not stepped through their ``step``, which prints).
_RENDER_MODES: Final = ("ansi", "rgb_array")
#: The autoreset modes, by their names.
_MODES: Final = {mode.value: mode for mode in AutoresetMode}


def _mode(value: object) -> AutoresetMode:
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, str) and value in _MODES:
        return _MODES[value]
    msg = f"autoreset_mode must be one of {', '.join(map(repr, _MODES))}, got {_limits.shown(value)}"
    raise InvalidValueError(msg)


def _games(value: object) -> int:
    """
    *value* as the number of games: an int, at least 1.
    """
    if type(value) is not int:
        msg = f"num_envs must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < 1:
        msg = f"num_envs must be 1 or more, got {value}"
        raise InvalidValueError(msg)
    return value


class PersianRummyVectorEnv(gymnasium.vector.VectorEnv[_Observations, _Array, _Array]):
    """
    *num_envs* games of ``Solo-v0`` stepped together (see the module's documentation).

    Args:
        num_envs: The number of games, at least 1.
        rules, seat, players, reward, on_illegal, dealer, mask_in_observation: Those of every
            game, as `persian_rummy.rl.gymnasium.PersianRummySoloEnv` takes them.
        max_episode_steps: The learner's steps after which a game is truncated; `None`: never.
        autoreset_mode: ``"NextStep"``, ``"SameStep"`` or ``"Disabled"``, or an
            ``gymnasium.vector.AutoresetMode``.
        copy: Whether `reset` and `step` return copies of the observation arrays.
        render_mode: ``"ansi"`` or ``"rgb_array"`` (`render` returns each game's, its learner's
            view as text or as a picture of ``(480, 640, 3)`` pixels of type ``uint8``), or `None`.

    Attributes:
        envs: The games, each a `PersianRummySoloEnv` (read them, do not step them).
        autoreset_mode: As given, an ``AutoresetMode``.
        render_mode: As given.

    Raises:
        InvalidValueError: *num_envs* below 1, an unknown autoreset mode, or a setting a game refuses.
        InvalidTypeError: an argument of the wrong type.
    """

    def __init__(  # noqa: PLR0913 (the games' settings, and the batch's)
        self,
        num_envs: int = 1,
        rules: Rules | None = None,
        *,
        seat: int = 0,
        players: str | Player | Sequence[str | Player] = "greedy",
        reward: str = "margin",
        on_illegal: str = "lose",
        dealer: int | None = None,
        mask_in_observation: bool = True,
        max_episode_steps: int | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        render_mode: str | None = None,
    ) -> None:
        self.num_envs = _games(_numbers.plain(num_envs))
        self._limit = _arguments.optional_count(_numbers.plain(max_episode_steps), "max_episode_steps", 1)
        self.autoreset_mode = _mode(autoreset_mode)
        _arguments.expect(copy, bool, "copy", "a bool")
        self.copy = copy
        self.render_mode = None if render_mode is None else _rlenv.choice(render_mode, "render_mode", _RENDER_MODES)
        games: dict[str, Any] = {"seat": seat, "players": players, "reward": reward, "on_illegal": on_illegal}
        settings = {**games, "dealer": dealer, "mask_in_observation": mask_in_observation}
        self.envs = tuple(PersianRummySoloEnv(rules, **settings, render_mode=self.render_mode) for _ in range(num_envs))
        first = self.envs[0]
        self.metadata = {
            "autoreset_mode": self.autoreset_mode,
            "render_modes": list(_RENDER_MODES),
            "render_fps": _rlenv.RENDER_FPS,
        }
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, self.num_envs)
        self.action_space = batch_space(first.action_space, self.num_envs)
        self._with_mask = mask_in_observation
        self._count = action_count(first.rules)  # the ids of its Discrete space
        self._allocate()

    def _allocate(self) -> None:
        """
        The arrays every step writes into.
        """
        self._tensors = np.zeros((self.num_envs, observation_size(self.envs[0].rules)), np.float32)
        self._masks = np.zeros((self.num_envs, self._count), np.int8)
        self._rewards = np.zeros(self.num_envs, np.float64)
        self._terminations = np.zeros(self.num_envs, np.bool_)
        self._truncations = np.zeros(self.num_envs, np.bool_)
        self._ended = np.zeros(self.num_envs, np.bool_)
        self._steps = [0] * self.num_envs
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Observations, dict[str, Any]]:
        """
        Start a new game in each place (or, with ``options={"reset_mask": mask}``, in the places
        where *mask* is ``True``): the observations and the infos.

        *seed*: `None` (each game goes on from its last one), an int *s* (game *i* seeded with
        *s* + *i*) or one seed per game.  Other options are handed to each game's ``reset``.

        Raises:
            InvalidValueError: seeds not one per game, or a reset mask not of one bool per game with a ``True``.
            InvalidTypeError: a seed or a reset mask of the wrong type.
        """
        seeds = _numbers.seeds_of(seed, self.num_envs)
        rest = dict(options or {})
        chosen = self._reset_mask(rest.pop("reset_mask", None))
        infos: dict[str, Any] = {}
        for i in np.flatnonzero(chosen).tolist():
            info = self.envs[i]._begin(seeds[i], rest or None)  # noqa: SLF001 (the game this vector steps)
            self._write(i)
            self._steps[i] = 0
            if info:
                infos = self._add_info(infos, info, i)
        self._terminations[chosen] = False
        self._truncations[chosen] = False
        self._ended[chosen] = False
        self._started = True
        return self._observations(), infos

    def _reset_mask(self, mask: object) -> np.ndarray[Any, np.dtype[np.bool_]]:
        if mask is None:
            return np.ones(self.num_envs, np.bool_)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            msg = f"options['reset_mask'] must be a numpy array of bool, got {_limits.shown(mask)}"
            raise InvalidTypeError(msg)
        if mask.shape != (self.num_envs,) or not mask.any():
            msg = f"options['reset_mask'] must be of shape ({self.num_envs},) with a True, got {mask.tolist()}"
            raise InvalidValueError(msg)
        return mask

    def step(self, actions: _Array) -> tuple[_Observations, _Array, _Array, _Array, dict[str, Any]]:
        """
        Play one action id per game (an array or sequence of *num_envs* ids) and return the batch:
        observations, rewards, terminations, truncations and infos (Gymnasium's dict of arrays).
        An error is raised before any game moves, so that a step that raises changes nothing.

        Raises:
            InvalidValueError: not one id per game, or an id outside the space; the step of a
                game that is over in the mode ``"Disabled"``, or before `reset`.
            IllegalActionError: an illegal id with ``on_illegal="raise"``.
            InvalidTypeError: an id that is not an integer.
        """
        chosen = _numbers.vector_ids(actions, self.num_envs, self._started).tolist()
        for i, action in enumerate(chosen):  # every error raised before any game moves
            if not (self._ended[i] and self.autoreset_mode is AutoresetMode.NEXT_STEP):
                self.envs[i]._check(action)  # noqa: SLF001 (the game this vector steps)
        infos: dict[str, Any] = {}
        for i, action in enumerate(chosen):
            info = self._step_one(i, action)
            if info:
                infos = self._add_info(infos, info, i)
        observations = self._observations()
        return observations, self._rewards.copy(), self._terminations.copy(), self._truncations.copy(), infos

    def _step_one(self, i: int, action: int) -> dict[str, Any]:
        """
        Step game *i* (or reset it, after its end in the mode ``"NextStep"``): its info.
        """
        env = self.envs[i]
        if self._ended[i] and self.autoreset_mode is AutoresetMode.NEXT_STEP:
            info = env._begin(None)  # noqa: SLF001 (the game this vector steps)
            self._steps[i] = 0
            self._rewards[i] = 0.0
            self._terminations[i] = self._truncations[i] = self._ended[i] = False
            self._write(i)
            return info
        self._rewards[i], info = env._move(action)  # noqa: SLF001 (the game this vector steps)
        self._steps[i] += 1
        terminated = env._over  # noqa: SLF001 (the game this vector steps)
        truncated = self._limit is not None and self._steps[i] >= self._limit
        self._terminations[i], self._truncations[i] = terminated, truncated
        self._ended[i] = terminated or truncated
        self._write(i)
        if self._ended[i] and self.autoreset_mode is AutoresetMode.SAME_STEP:
            final = self._final_observation(i)
            info = {"final_obs": final, "final_info": info, **env._begin(None)}  # noqa: SLF001 (the game stepped)
            self._steps[i] = 0
            self._ended[i] = False
            self._write(i)
        return info

    def _write(self, i: int) -> None:
        """
        Write game *i*'s observation into row *i* of the arrays.
        """
        legal = self.envs[i]._write(self._tensors[i])  # noqa: SLF001 (the game this vector steps)
        row = self._masks[i]
        if legal is None:
            row.fill(1)
        else:
            row.fill(0)
            row[legal] = 1

    def _final_observation(self, i: int) -> dict[str, _Array] | _Array:
        tensor = self._tensors[i].copy()
        return {"observation": tensor, "action_mask": self._masks[i].copy()} if self._with_mask else tensor

    def _observations(self) -> _Observations:
        tensors, masks = (self._tensors.copy(), self._masks.copy()) if self.copy else (self._tensors, self._masks)
        return {"observation": tensors, "action_mask": masks} if self._with_mask else tensors

    def render(self) -> tuple[str | _Array, ...] | None:
        """
        The render of each game (`PersianRummySoloEnv.render`), as ``SyncVectorEnv`` gives them:
        the learner's view as text (``"ansi"``) or as a picture (``"rgb_array"``).  Without a
        render mode, a warning and `None`.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called, but the environment was made with no render_mode")
            return None
        return tuple(cast("str | _Array", env.render()) for env in self.envs)  # text or a picture in these modes

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """
        The legal ids of each game as booleans, of shape ``(num_envs, ids)``: a new array.  A
        game that has ended and waits for its reset marks every id (the mode ``"NextStep"``).
        """
        return self._masks.astype(np.bool_)


#: The engines `make_vector` chooses from.
ENGINES: Final = ("auto", "batch", "scalar")


def _batched_players(players: object) -> bool:
    """
    Whether every player of *players* chooses for a batch in one call (`persian_rummy.rl.batchplayers`).
    """
    listed = [players] if isinstance(players, str) or not isinstance(players, Sequence) else list(players)
    return not any(isinstance(batch_player(player), RowBatchPlayer) for player in listed)


def _fits_the_batch(rules: Rules | None, settings: dict[str, Any]) -> bool:
    """
    Whether the batched engine holds *rules* and *settings* and plays with players that choose for a batch.
    """
    return (
        supports(_rlenv.rules_of(rules))
        and settings.get("render_mode") is None
        and _mode(settings.get("autoreset_mode", AutoresetMode.NEXT_STEP)) is AutoresetMode.NEXT_STEP
        and _batched_players(settings.get("players", "greedy"))
    )


def _on_the_batch(num_envs: int, rules: Rules | None, settings: dict[str, Any]) -> BatchSoloVectorEnv:
    """
    The batched environment of *settings*, or the error that names what it cannot hold.
    """
    if not supports(_rlenv.rules_of(rules)):
        msg = "the batched engine plays the default rules only; use engine='scalar' for other switches"
        raise InvalidValueError(msg)
    if settings.pop("render_mode", None) is not None:
        msg = "the batched engine renders nothing; use engine='scalar' to render the games"
        raise InvalidValueError(msg)
    if _mode(settings.pop("autoreset_mode", AutoresetMode.NEXT_STEP)) is not AutoresetMode.NEXT_STEP:
        msg = "the batched engine resets in the mode 'NextStep' only; use engine='scalar' for the others"
        raise InvalidValueError(msg)
    return BatchSoloVectorEnv(num_envs, **settings)


def make_vector(
    num_envs: int = 1,
    rules: Rules | None = None,
    *,
    engine: str = "auto",
    **settings: Any,  # noqa: ANN401 (the environments' own settings)
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """
    *num_envs* games of ``Solo-v0`` on the batched engine or the scalar one: the
    ``vector_entry_point`` of ``"persian_rummy/Solo-v0"``, which ``gymnasium.make_vec`` calls.

    *engine*: ``"batch"``, a `persian_rummy.rl.batchenv.BatchSoloVectorEnv`; ``"scalar"``, a
    `PersianRummyVectorEnv`; ``"auto"`` (the default), the batch whenever it can hold the
    settings: the default rules, no render mode, the autoreset mode ``"NextStep"``, and players
    that choose for a batch in one call (the greedy player, the default, random players, or a
    `persian_rummy.rl.batchplayers.PolicyBatchPlayer`).  With greedy players the two engines play
    the same games for the same seeds; random players draw from other sources in the batch.
    *settings* are the environments' own.

    >>> import gymnasium
    >>> type(gymnasium.make_vec("persian_rummy/Solo-v0", 4)).__name__
    'BatchSoloVectorEnv'
    >>> type(gymnasium.make_vec("persian_rummy/Solo-v0", 4, render_mode="ansi")).__name__
    'PersianRummyVectorEnv'

    Raises:
        InvalidValueError: an unknown engine, or settings the batch cannot hold with ``engine="batch"``.
    """
    engine = _rlenv.choice(engine, "engine", ENGINES)
    if engine == "auto":
        engine = "batch" if _fits_the_batch(rules, settings) else "scalar"
    if engine == "scalar":
        return PersianRummyVectorEnv(num_envs, rules, **settings)
    return _on_the_batch(num_envs, rules, settings)
