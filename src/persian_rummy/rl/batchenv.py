"""
``Solo-v0`` on the batched engine: N games of one learning seat, stepped, masked and observed with
array operations (`persian_rummy.rl.batch`).

`BatchSoloVectorEnv` is a Gymnasium vector environment of N games of ``"persian_rummy/Solo-v0"``
(`persian_rummy.rl.gymnasium`) under the default rules: the same observation (the tensor of
`persian_rummy.rl.tensors.observation_tensor` and the mask), the same action ids, rewards, infos,
illegal-id handling and seeds.  The other seats are `persian_rummy.rl.batchplayers` players, which
choose for the whole batch in one call: the greedy player (the default, as in ``Solo-v0``), random
players, or a network (`persian_rummy.rl.batchplayers.PolicyBatchPlayer`).  After the learner's
action the other seats and the deals are played up to its next decision in every game, a move of
the batch at a time.

**The same games.**  Game *i* is dealt from its own sources, seeded as ``Solo-v0`` seeds them:
``reset(seed=s)`` gives game *i* the seed *s* + *i*, as ``SyncVectorEnv`` does.  With greedy
players, which draw nothing, the games are those of N ``Solo-v0`` environments seeded so, step for
step: observations, masks, rewards, terminations and infos are equal (the tests compare them).
Random players draw from one NumPy generator for the batch, seeded from *seed*: the same seed
replays the same games, which are not ``Solo-v0``'s, though played by the same rule.

``gymnasium.make_vec("persian_rummy/Solo-v0", n)`` makes this environment whenever it plays the
same games as the scalar one (see `persian_rummy.rl.vector.make_vector`).

**Autoreset** is ``"NextStep"``: the step after a game ends resets it, its action ignored, with a
reward of 0; the observation at the end marks every id.  ``max_episode_steps`` truncates a game
after that many steps of the learner.  With ``observation="compact"`` the tensor is the smaller
one of `BATCH_OBSERVATION_SIZE` values (`OBSERVATION_PARTS`), cheaper to make.

**Compiled other seats.**  With the ``jit`` extra (Numba) installed, the moves of random and greedy
players are played by compiled code, a game at a time, rather than by NumPy's array operations, a
move of the batch at a time (`BatchVectorEnv.compiled`): the same games, number for number, the step
in 40 to 60% of the time at 256 games (docs/performance.md).

>>> envs = BatchSoloVectorEnv(4)
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 868), (4, 944))
>>> actions = observations["action_mask"].argmax(axis=1)  # the lowest legal id of each game
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.tolist()
((4,), [False, False, False, False])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from .._internal import arguments as _arguments
from ..exceptions import IllegalActionError, InvalidValueError
from ..rules import DEFAULT_RULES
from . import _batch_compact, _batch_games, _batch_kernel, _batch_observe, _numbers
from . import _batch_tables as _t
from . import _env as _rlenv
from ._tensor_layouts import OBSERVATION_SIZE as _SOLO_SIZE
from .batch import ENDS, Batch
from .batchplayers import BatchPlayer, batch_player

__all__ = ["BATCH_OBSERVATION_SIZE", "OBSERVATION_PARTS", "BatchSoloVectorEnv", "BatchVectorEnv"]


def __dir__() -> list[str]:
    return __all__


_Array: TypeAlias = np.ndarray[Any, np.dtype[Any]]
_Bools: TypeAlias = np.ndarray[Any, np.dtype[np.bool_]]
#: The parts of the compact observation (``observation="compact"``), by name and size: the seat's hand;
#: the cards its partner, then the opponents to its left and right are known to hold; the cards its
#: team and the other team have on the table; the discard pile; its top card; the card that must be
#: played; the phase (draw, play); the stock's size, each hand's size from the seat on (over 56);
#: each team's score, the seat's first (over the reward scale, + 1/2).
OBSERVATION_PARTS: Final = _batch_compact.OBSERVATION_PARTS
#: The number of values of the compact observation.
BATCH_OBSERVATION_SIZE: Final = _batch_compact.BATCH_OBSERVATION_SIZE
_GAME_OVER: Final = 4
_LEARNER: Final = _batch_games.LEARNER
#: How the parts of a team's result add up to its points (`_batch_tables.RESULT_SIGNS`), as ints.
_SIGNS: Final = _t.RESULT_SIGNS.tolist()
_OBSERVATIONS: Final = ("solo", "compact")
_ON_ILLEGAL: Final = ("lose", "raise")


def _players(value: object) -> list[BatchPlayer]:
    """
    The players of the three other seats, in the order of their seats: one for all, or a sequence of three.
    """
    if isinstance(value, str) or not isinstance(value, Sequence):
        return [batch_player(value)] * 3
    if len(value) != 3:
        msg = f"players must be one player or three, one for each other seat, got {len(value)}"
        raise InvalidValueError(msg)
    return [batch_player(player) for player in value]


def _space(observation: str, with_mask: bool) -> gymnasium.Space[Any]:
    """
    The space of one game's observation: ``Solo-v0``'s tensor or the compact one, with the mask or alone.
    """
    if observation == "solo":
        box = _rlenv.observation_box(DEFAULT_RULES)
        return _rlenv.observation_space(DEFAULT_RULES) if with_mask else box
    box = gymnasium.spaces.Box(0.0, 1.0, (BATCH_OBSERVATION_SIZE,), np.float32)
    mask = gymnasium.spaces.Box(0, 1, (_t.COUNT,), np.int8)
    return gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) if with_mask else box


class BatchVectorEnv(gymnasium.vector.VectorEnv[Any, _Array, _Array]):
    """
    What the batched environments share: games of a `Batch` where the learner holds some seats and
    `persian_rummy.rl.batchplayers` players the others, stepped with autoreset ``"NextStep"``.

    Subclasses set who holds each seat of a new game (``_seat_game``).
    """

    def _setup(  # noqa: PLR0913 (the games' settings, keywords all)
        self,
        num_envs: object,
        players: list[BatchPlayer],
        *,
        reward: str,
        on_illegal: str,
        dealer: int | None,
        mask_in_observation: bool,
        observation: str,
        max_episode_steps: int | None,
        copy: bool,
    ) -> None:
        self.num_envs = _batch_games.check_games(_numbers.plain(num_envs))
        _arguments.expect(mask_in_observation, bool, "mask_in_observation", "a bool")
        _arguments.expect(copy, bool, "copy", "a bool")
        self.reward_mode = _rlenv.reward_mode(reward)
        self.reward_scale = _rlenv.reward_scale(DEFAULT_RULES)
        self.on_illegal = _rlenv.choice(on_illegal, "on_illegal", _ON_ILLEGAL)
        self.observation = _rlenv.choice(observation, "observation", _OBSERVATIONS)
        self.mask_in_observation = mask_in_observation
        self._limit = _arguments.optional_count(_numbers.plain(max_episode_steps), "max_episode_steps", 1)
        self.copy = copy
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.single_observation_space = _space(self.observation, mask_in_observation)
        self.single_action_space = _rlenv.action_space(DEFAULT_RULES)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._games = _batch_games.Games(self.num_envs, players, _rlenv.dealer(dealer))
        n = self.num_envs
        self._seats = np.zeros(n, np.int64)  # the learner's seat each observation is of
        self._teams = np.zeros(n, np.int64)  # the learner's team
        self._masks = np.zeros((n, _t.COUNT), np.bool_)
        self._over = np.ones(n, np.bool_)  # the game ended, or was truncated: the next step resets it
        self._done = np.ones(n, np.bool_)  # the game ended (or an illegal id ended it): its mask marks every id
        self._carried = np.zeros(n, np.float64)  # a deal's reward before the learner's first decision
        self._steps = np.zeros(n, np.int64)
        self._told: list[list[dict[str, object]]] = [[] for _ in range(n)]  # each game's deals' documents
        self._totals: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # and their teams' points
        self._started = False

    def _seat_game(self, i: int) -> None:
        """
        Seat the learner and the players in the new game *i* (``_games.control``, ``_teams``, ``_seats``).
        """

    def _every_step(self, infos: dict[str, Any]) -> dict[str, Any]:
        """
        *infos* with what every step reports (nothing here).
        """
        return infos

    @property
    def compiled(self) -> bool:
        """
        Whether the other seats' moves are played by compiled code (the ``jit`` extra): ``True`` by default
        where Numba is installed and every other seat is a random or a greedy player; set it ``False`` to play
        them with NumPy's array operations.  The games are the same either way, number for number: only the
        time differs (docs/performance.md).

        Raises:
            InvalidValueError: set ``True`` without Numba, or with a player the compiled code does not play.
            InvalidTypeError: set to anything but a bool.
        """
        return self._games.compiled and self._games.playable

    @compiled.setter
    def compiled(self, value: bool) -> None:
        _arguments.expect(value, bool, "compiled", "a bool")
        if value and not self._games.playable:
            why = (
                "Numba is not installed (the jit extra)"
                if not _batch_kernel.COMPILED
                else "a player is not one it plays"
            )
            msg = f"the other seats cannot be played by compiled code: {why}"
            raise InvalidValueError(msg)
        self._games.compiled = value

    @property
    def batch(self) -> Batch:
        """
        The games as they stand (read it, do not step it).
        """
        return self._games.batch

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """
        Start a new game in each place, played to the learner's first decision (*options* are ignored).

        *seed*: `None` (each game goes on from its last one's sources), an int *s* (game *i* seeded
        with *s* + *i*) or one seed per game.

        Raises:
            InvalidValueError: seeds not one per game.
            InvalidTypeError: a seed of the wrong type.
        """
        del options
        seeds = _numbers.seeds_of(seed, self.num_envs)
        games = self._games
        for i, one in enumerate(seeds):
            games.seed(i, one)
        if seed is not None:
            first = seeds[0]
            games.rng = np.random.default_rng(None if first is None else [first, self.num_envs])
        self._steps[:] = 0
        infos = self._begin(np.ones(self.num_envs, np.bool_), {})
        self._started = True
        observations = self._observations()
        return observations, self._every_step(infos)

    def _begin(self, where: _Bools, infos: dict[str, Any]) -> dict[str, Any]:
        """
        New games in the places *where*, each played to the learner's first decision: the infos, with theirs.
        """
        self._new_games(where)
        self._to_the_learner(where, self._games.advance())
        return self._told_at_the_start(where, infos)

    def _new_games(self, where: _Bools) -> None:
        """
        New games, not yet dealt, in the places *where*: their seats and sources drawn from their generators.
        """
        chosen = where.nonzero()[0].tolist()
        self._games.new_games(chosen)
        for i in chosen:
            self._seat_game(i)
            self._told[i] = []
            self._totals[i] = []
        self._over[where] = self._done[where] = False
        self._steps[where] = 0

    def _to_the_learner(self, fresh: _Bools, gained: _Array) -> None:
        """
        After the games were played up to the learner's decisions (*gained*, their points), deal again
        the new games *fresh* that ended before the learner's first decision, as ``Solo-v0``'s ``reset``
        does; keep the reward of their deals for the learner's first step.
        """
        batch = self._games.batch
        todo = fresh & (batch.phase == _GAME_OVER)
        for _ in range(_batch_games.MOST_GAMES):
            if not todo.any():
                self._carried[fresh] = self._rewards(gained, batch.phase == _GAME_OVER)[fresh]
                return
            self._new_games(todo)
            gained[todo] = 0
            gained += self._games.advance()
            todo &= batch.phase == _GAME_OVER
        msg = f"{_batch_games.MOST_GAMES} games in a row ended before the learner's first decision"
        raise InvalidValueError(msg)

    def _told_at_the_start(self, fresh: _Bools, infos: dict[str, Any]) -> dict[str, Any]:
        """
        *infos* with the deals' infos of the new games *fresh* where a deal ended before the learner's first decision.
        """
        for i in (fresh & (self._games.batch.deals_done > 0)).nonzero()[0].tolist():
            infos = self._add_info(infos, self._deal_info(i), i)
        return infos

    def _deal_info(self, i: int) -> dict[str, Any]:
        """
        What ``Solo-v0`` reports after a deal of game *i* (`persian_rummy.rl._env.deal_info`), made from the
        arrays, the documents of the deals told before kept.
        """
        batch = self._games.batch
        told, totals = self._told[i], self._totals[i]
        first, done = len(told), int(batch.deals_done[i])
        went_out = batch.result_went_out[i, first:done].tolist()
        ends = batch.result_end[i, first:done].tolist()
        for k, teams in enumerate(batch.results[i, first:done].tolist()):  # by deal, team and part
            out = went_out[k]
            told.append(_rlenv.deal_document(first + k + 1, teams, None if out < 0 else out, ENDS[ends[k]]))
            first_team, second_team = (sum(map(int.__mul__, team, _SIGNS)) for team in teams)
            totals.append((first_team, second_team))
        deals = [list(deal) for deal in totals]
        scores = [sum(deal[0] for deal in totals), sum(deal[1] for deal in totals)]
        info: dict[str, Any] = {"results": list(told), "deals": deals, "scores": scores}
        if batch.phase[i] == _GAME_OVER:
            info["winner"] = -1 if scores[0] == scores[1] else int(scores[1] > scores[0])
        return info

    def _rewards(self, gained: _Array, ended: _Bools) -> _Array:
        """
        The learner's reward for each team's points *gained* in the deals that ended, the games
        *ended* having ended with them.
        """
        team = self._teams
        rows = np.arange(self.num_envs)
        if self.reward_mode == "margin":
            margin: _Array = (gained[rows, team] - gained[rows, 1 - team]) / self.reward_scale
            return margin
        batch = self._games.batch
        scores = batch.scores()
        won = np.sign(scores[rows, team] - scores[rows, 1 - team]).astype(np.float64)
        result: _Array = np.where(ended, won, 0.0)
        return result

    def step(self, actions: _Array) -> tuple[Any, _Array, _Array, _Array, dict[str, Any]]:
        """
        Play one id per game for the learner, then the other seats and the deals up to its next decision;
        reset the games that had ended (their ids ignored).  An error is raised before any game moves.

        Raises:
            InvalidValueError: not one id per game, an id outside the space, or a step before `reset`.
            IllegalActionError: an illegal id with ``on_illegal="raise"``.
            InvalidTypeError: an id that is not an integer.
        """
        ids = _numbers.vector_ids(actions, self.num_envs, self._started)
        n = self.num_envs
        restart = self._over.copy()  # the games that ended: new ones in their places, played with the others
        illegal = self._illegal(ids, restart)
        batch = self._games.batch
        playing = ~restart & ~illegal
        if restart.any():
            self._new_games(restart)
        before = batch.deals_done.copy()
        gained = batch.step(np.where(playing, ids, -1).astype(np.int64))
        gained += self._games.advance()
        ended = playing & (batch.deals_done > before)
        rewards = self._rewards(gained, ended & (batch.phase == _GAME_OVER)) + np.where(playing, self._carried, 0.0)
        self._carried[playing] = 0.0
        infos: dict[str, Any] = {}
        for i in ended.nonzero()[0].tolist():
            infos = self._add_info(infos, self._deal_info(i), i)
        for i in illegal.nonzero()[0].tolist():
            infos = self._add_info(infos, {"illegal_action": int(ids[i])}, i)
        rewards[illegal] = -1.0
        self._steps[~restart] += 1
        terminations = (batch.phase == _GAME_OVER) | illegal
        truncations = np.zeros(n, np.bool_)
        if self._limit is not None:  # as Gymnasium's TimeLimit counts the steps, an illegal one too
            truncations = ~restart & (self._steps >= self._limit)
        if restart.any():
            self._to_the_learner(restart, gained)
            infos = self._told_at_the_start(restart, infos)
            rewards[restart] = 0.0
            terminations[restart] = False
        self._over = terminations | truncations
        self._done = terminations.copy()
        observations = self._observations()
        return observations, rewards, terminations, truncations, self._every_step(infos)

    def _illegal(self, ids: _Array, restart: _Bools) -> _Bools:
        """
        The games whose id names no legal action (``on_illegal="lose"``); the error of the first such id
        (``"raise"``), or of an id that is no id of the space.
        """
        n = self.num_envs
        check = ~restart
        if np.issubdtype(ids.dtype, np.integer) and ids.dtype != np.bool_:
            inside = (ids >= 0) & (ids < _t.COUNT)
            fine = inside & self._masks[np.arange(n), np.where(inside, ids, 0)]
            check &= ~fine
        illegal = np.zeros(n, np.bool_)
        legal = _rlenv.Legal()
        for i in check.nonzero()[0].tolist():  # the scalar engine's checks and errors, for the ids refused
            try:
                legal.action(ids[i], self._games.batch.state(i))
            except IllegalActionError:
                if self.on_illegal == "raise":
                    raise
                illegal[i] = True
        return illegal

    def _observations(self) -> Any:  # noqa: ANN401 (the dict of arrays, or the tensors alone)
        batch = self._games.batch
        learner = (batch.to_act >= 0) & (self._games.control[np.arange(self.num_envs), batch.to_act] == _LEARNER)
        self._seats = np.where(learner, batch.to_act, self._seats)
        self._masks = batch.legal_masks()
        self._masks[self._done] = True
        if self.observation == "solo":
            out = np.empty((self.num_envs, _SOLO_SIZE), np.float32)
            tensors = _batch_observe.written(batch, slice(None), self._seats, out)
        else:
            tensors = _batch_compact.compact_observations(batch, self._seats, self.reward_scale)
        if not self.mask_in_observation:
            return tensors
        return {"observation": tensors, "action_mask": self._masks.astype(np.int8)}

    def action_masks(self) -> _Bools:
        """
        The legal ids of each game as booleans, ``(num_envs, 944)``; every id in a game that has ended.
        """
        return self._masks.copy()


class BatchSoloVectorEnv(BatchVectorEnv):
    """
    *num_envs* games of ``Solo-v0`` on the batched engine (see the module's documentation).

    Args:
        num_envs: The number of games, at least 1.
        seat: The learner's seat, 0 to 3.
        players: The other seats' player, or three players in the order of their seats: names
            (``"greedy"``, the default, and ``"random"`` are the batch's own), players or policies,
            as `persian_rummy.rl.batchplayers.batch_player` reads them.
        reward, on_illegal, dealer, mask_in_observation: As ``Solo-v0`` takes them.
        observation: ``"solo"`` (``Solo-v0``'s tensor, the default) or ``"compact"``.
        max_episode_steps: The learner's steps after which a game is truncated; `None`: never.
        copy: Kept for ``make_vec``'s sake: ``reset`` and ``step`` return new arrays at every call.

    Attributes:
        seat, on_illegal, mask_in_observation, observation: As given.
        players: The other seats' `persian_rummy.rl.batchplayers.BatchPlayer`, by seat (`None` at the learner's).
        reward_mode: The argument *reward*.
        reward_scale: The points that make a reward of 1 in the mode ``"margin"``.

    Raises:
        InvalidValueError: *num_envs* below 1, a seat or dealer that is not one, an unknown player,
            reward mode, ``on_illegal`` or observation, or not three players in a sequence.
        InvalidTypeError: an argument of the wrong type.
    """

    def __init__(  # noqa: PLR0913 (the games' settings, keywords all)
        self,
        num_envs: int = 1,
        *,
        seat: int = 0,
        players: object = "greedy",
        reward: str = "margin",
        on_illegal: str = "lose",
        dealer: int | None = None,
        mask_in_observation: bool = True,
        observation: str = "solo",
        max_episode_steps: int | None = None,
        copy: bool = True,
    ) -> None:
        seat = _numbers.plain(seat)
        _arguments.seat(seat, "seat")
        self.seat = seat
        others = _players(players)
        self.players = tuple(None if place == seat else others[place - (place > seat)] for place in range(4))
        self._setup(
            num_envs,
            others,
            reward=reward,
            on_illegal=on_illegal,
            dealer=dealer,
            copy=copy,
            mask_in_observation=mask_in_observation,
            observation=observation,
            max_episode_steps=max_episode_steps,
        )
        # One index for each player, however many seats it holds: it chooses for all of them in one call.
        first = [next(k for k, player in enumerate(others) if player is other) for other in others]
        self._games.control[:] = [_LEARNER if place == seat else first[place - (place > seat)] for place in range(4)]
        self._seats[:] = seat
        self._teams[:] = seat & 1
