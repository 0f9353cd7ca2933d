"""
Persian Rummy as a single-agent Gymnasium environment: one seat learns, ready players hold the others.

`PersianRummySoloEnv` puts the learner at one seat (seat 0 unless told otherwise) and ready
players of `persian_rummy.bots.players` at the other three: `persian_rummy.bots.players.GreedyPlayer` by
default, or any names `persian_rummy.bots.players.make_player` knows, or `persian_rummy.bots.players.Player`
values.  Each step plays one action of the learner, then everything up to its next decision:
the other seats' actions, each shown its seat's view only, and the deals.  A player that
listens (`persian_rummy.events.Listener`) plays as a fresh copy of itself in each game and is
told every action as its seat saw it, as in a match.  Importing this module registers the
environment as ``"persian_rummy/Solo-v0"`` (`ENV_ID`).

The observation and the action are those of `persian_rummy.rl.pettingzoo`: a dict of
``"observation"`` (`persian_rummy.rl.tensors.observation_tensor` of the learner's view, float32
in [0, 1]) and ``"action_mask"`` (int8, 1 at each legal action id of
`persian_rummy.rl.actionids`), and an action id of ``Discrete(action_count(rules))``.  The mask
is in the observation, where RLlib-style and PettingZoo-style masking look for it, and also
returned by `PersianRummySoloEnv.action_masks`, the method masked PPO of sb3-contrib calls.
With ``mask_in_observation=False`` the observation is the tensor alone (a ``Box``), and the
mask comes from `PersianRummySoloEnv.action_masks` only.  Once the episode is over the mask
marks every id: the next action is the one a vector environment's autoreset ignores while it
resets the game, and a masked policy needs an id to draw.

>>> import gymnasium
>>> import persian_rummy.rl.gymnasium
>>> env = gymnasium.make("persian_rummy/Solo-v0", players="random")
>>> observation, info = env.reset(seed=3)
>>> observation["observation"].shape, observation["action_mask"].shape
((868,), (944,))
>>> mask = env.unwrapped.action_masks()
>>> observation, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
>>> terminated, truncated
(False, False)

**Rewards** follow the rule of `persian_rummy.rl.pettingzoo`: with ``reward="margin"`` (the
default), at the end of each deal the learner's team's margin in it over
`PersianRummySoloEnv.reward_scale`, so that an episode's rewards add up to the game's final
margin over that scale, in [-1, 1]; with ``reward="outcome"``, 1, -1 or 0 when the game is
won, lost or drawn.  A step's reward is what the deals that ended during it brought.  In the
rare game where a deal ends before the learner's first decision, its reward comes with the
first step; a game that ends before the learner's first decision is not played to the learner:
``reset`` deals a new one.

**Episodes** end (``terminated``) with the game (R27).  Under rules where a deal may go on for
ever (A9, A18) an episode need not end: give ``gymnasium.make`` a ``max_episode_steps``.
**Infos** are empty but after a step in which a deal ended: then ``"results"`` (the JSON data
of the `persian_rummy.DealScore` of each finished deal, as `persian_rummy.serialize.to_data`
writes it), ``"deals"`` (``[team 0, team 1]`` for each), ``"scores"`` (the teams' totals, a list
of two ints) and, at the end of the game, ``"winner"`` (0, 1, or -1 for a draw).  Each key holds
one type whatever happens, so that Gymnasium's vector environments can stack the infos of
several games.  Importing this module
registers `persian_rummy.rl.vector.PersianRummyVectorEnv` as the environment's
``vector_entry_point``.

**Illegal ids.**  With ``on_illegal="lose"`` (the default), an id of the space that names no
legal action ends the episode at once with a reward of -1, the lowest return a game can bring,
and the info ``{"illegal_action": id}``: a learner that ignores the mask learns to avoid such
ids, and any id of ``action_space`` may be stepped, as Gymnasium's checks and unmasked
algorithms expect.  With ``on_illegal="raise"``, such an id raises
`persian_rummy.exceptions.IllegalActionError` and leaves the environment as it was, as
`persian_rummy.rl.pettingzoo` always does.  An id outside the space, or a value that is no
integer, always raises.

**Seeding.**  ``reset(seed=...)`` seeds Gymnasium's ``np_random``, from which each game draws
the seeds of its deck and of the three players' random sources: the same seed, the same game
for the same actions.  A seed is `None` or an int from 0 to 2**64 - 1 (any numpy integer too), as
in `persian_rummy.rl.pettingzoo`; an action id is an int, any numpy integer, or a numpy array of
one integer element.  A player with a budget in seconds (``"pimc:0.5s"``) makes the games
depend on the machine's speed.

**Rendering.**  ``render_mode="ansi"`` makes `PersianRummySoloEnv.render` return the learner's
view as text, ``"human"`` print it (at every step too), and ``"rgb_array"`` return the picture of
that view: an array of ``(480, 640, 3)`` pixels of type ``uint8``, the same size whatever the
position, for a video of the game (``metadata["render_fps"]`` is 4).  Stable-Baselines3's
``make_vec_env`` asks for ``"rgb_array"`` unless told otherwise.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, Final, SupportsFloat, TypeAlias, cast

import gymnasium
import numpy as np

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..actions import Action, PlayerAction
from ..bots.players import Player, make_player
from ..engine import random_deal
from ..events import Listener
from ..exceptions import IllegalActionError, InvalidTypeError, InvalidValueError
from ..rules import Rules
from ..state import GameState, Phase, new_game
from ..views import observe
from . import _env as _rlenv
from . import _numbers
from .actionids import action_count
from .tensors import observation_tensor

__all__ = ["ENV_ID", "PersianRummySoloEnv"]


def __dir__() -> list[str]:
    return __all__


#: The id the environment is registered under: ``gymnasium.make(ENV_ID)``.
ENV_ID: Final = "persian_rummy/Solo-v0"
#: An observation: the dict of the tensor and the mask, or the tensor alone (``mask_in_observation=False``),
#: typed as either, so that the code that indexes the dict and the code that takes the tensor are both typed.
_Observation: TypeAlias = Any
_ActionId = _rlenv.ActionId
#: What an illegal action id does: end the episode with a reward of -1, or raise.
_ON_ILLEGAL: Final = ("lose", "raise")
#: The most games ``reset`` deals to reach a decision of the learner.
_MOST_GAMES: Final = 1_000


def _player(value: object) -> Player:
    if isinstance(value, str):
        return make_player(value)
    if not isinstance(value, Player):
        msg = f"a player is a name of persian_rummy.bots.players.PLAYER_NAMES or a Player, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return value


def _seated(players: object, seat: int) -> tuple[Player | None, ...]:
    """
    The players by seat, `None` at the learner's *seat*: one player (or name) for the three
    others, or a sequence of three for them in the order of their seats.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        others = [_player(players)] * 3
    else:
        if len(players) != 3:
            msg = f"players must be one player or three, one for each other seat, got {len(players)}"
            raise InvalidValueError(msg)
        others = [_player(player) for player in players]
    return tuple(None if place == seat else others.pop(0) for place in range(4))


class PersianRummySoloEnv(gymnasium.Env[_Observation, _ActionId]):
    """
    One seat learns; ready players hold the other three (see the module's documentation).

    Args:
        rules: The rules; Persian Rummy's by default.
        seat: The learner's seat, 0 to 3 (seats 0 and 2 are partners, R1).
        players: The players of the other seats: a name for `persian_rummy.bots.players.make_player`
            or a `persian_rummy.bots.players.Player`, for all three, or a sequence of three, one for
            each other seat in the order of the seats.
        reward: ``"margin"`` (each deal's margin, scaled) or ``"outcome"`` (1, -1 or 0 when
            the game ends).
        on_illegal: ``"lose"`` (an illegal id ends the episode with a reward of -1) or
            ``"raise"`` (it raises `persian_rummy.exceptions.IllegalActionError`).
        dealer: The seat that deals first; by default drawn from the seeded random source.
        mask_in_observation: ``True`` (the default): the observation is the dict of the tensor and
            the mask; ``False``: the tensor alone, a ``Box`` of `observation_size` values, the
            mask being read from `action_masks` (as masked PPO of sb3-contrib reads it).
        render_mode: ``"ansi"`` (`render` returns the learner's view as text, with the actions
            since its last decision), ``"human"`` (it prints it, and so does every step),
            ``"rgb_array"`` (it returns the picture of that view, an array of ``(480, 640, 3)``
            pixels of type ``uint8``) or `None`.

    Attributes:
        rules, seat, on_illegal, mask_in_observation, render_mode: As given.
        reward_mode: The argument *reward*.
        players: The players by seat, `None` at the learner's.
        reward_scale: The points that make a reward of 1 in the mode ``"margin"``, as in
            `persian_rummy.rl.pettingzoo.PersianRummyEnv`.

    Raises:
        InvalidValueError: a seat or dealer that is not one, an unknown player, reward mode,
            ``on_illegal`` or render mode, or not three players in a sequence.
        InvalidTypeError: an argument of the wrong type.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (declared so by the toolkit)
        "render_modes": list(_rlenv.RENDER_MODES),
        "render_fps": _rlenv.RENDER_FPS,
    }

    def __init__(  # noqa: PLR0913 (the environment's settings, keywords all)
        self,
        rules: Rules | None = None,
        *,
        seat: int = 0,
        players: str | Player | Sequence[str | Player] = "greedy",
        reward: str = "margin",
        on_illegal: str = "lose",
        dealer: int | None = None,
        mask_in_observation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        seat = _numbers.plain(seat)  # a numpy integer read as an int
        _arguments.seat(seat, "seat")
        _arguments.expect(mask_in_observation, bool, "mask_in_observation", "a bool")
        self.rules = _rlenv.rules_of(rules)
        self.seat = seat
        self.players = _seated(players, seat)
        self.reward_mode = _rlenv.reward_mode(reward)
        self.reward_scale = _rlenv.reward_scale(self.rules)
        self.on_illegal = _rlenv.choice(on_illegal, "on_illegal", _ON_ILLEGAL)
        self.render_mode = _rlenv.render_mode(render_mode)
        self._dealer = _rlenv.dealer(dealer)
        self.action_space = _rlenv.action_space(self.rules)
        self._count = action_count(self.rules)
        self._legal = _rlenv.Legal()
        self.mask_in_observation = mask_in_observation
        self.observation_space: gymnasium.Space[_Observation] = (
            _rlenv.observation_space(self.rules) if mask_in_observation else _rlenv.observation_box(self.rules)
        )
        self._every_id = np.ones(self._count, dtype=np.int8)
        self._state = new_game(self.rules)
        self._deck = random.Random(0)  # noqa: S311 (a game, not a secret; reseeded by reset)
        self._sources: list[random.Random] = []
        self._seated: tuple[Player | None, ...] = self.players
        self._listening: list[tuple[int, Listener]] = []
        self._gained = 0.0
        self._ended = False
        self._over = True
        self._recent: list[tuple[GameState, PlayerAction]] = []

    @property
    def game_state(self) -> GameState:
        """
        The game as it stands: a `persian_rummy.GameState`, every hand in it.
        """
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Observation, dict[str, Any]]:
        """
        Start a new game and play it to the learner's first decision: its observation and info.

        *seed* seeds ``np_random`` (`None`: it goes on from the last game); *options* are
        accepted and ignored.
        """
        info = self._begin(seed, options)
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def _begin(self, seed: int | None, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """
        `reset` but for the observation and the render: its info.
        """
        super().reset(seed=_numbers.seed_of(seed), options=options)
        for _ in range(_MOST_GAMES):
            self._new_game()
            if self._advance():
                break
        else:
            msg = f"{_MOST_GAMES} games in a row ended before the learner's first decision"
            raise InvalidValueError(msg)
        return _rlenv.deal_info(self._state) if self._ended else {}

    def _new_game(self) -> None:
        """
        Seed the deck and the players' sources from ``np_random``; a fresh copy of each listening player.
        """
        seeds = [int(seed) for seed in self.np_random.integers(0, 2**63 - 1, size=5)]
        self._deck = random.Random(seeds[4])  # noqa: S311 (a game, not a secret)
        self._sources = [random.Random(seed) for seed in seeds[:4]]  # noqa: S311
        seated = tuple(copy.deepcopy(player) if hasattr(player, "hear") else player for player in self.players)
        self._seated = seated
        self._listening = [
            (seat, cast("Listener", player)) for seat, player in enumerate(seated) if hasattr(player, "hear")
        ]
        self._state = _rlenv.start(self.rules, self._dealer, self._deck)
        self._gained = 0.0
        self._ended = False
        self._over = False
        self._recent = []

    def _play(self, action: Action) -> None:
        """
        Apply *action*, tell the listening players, and take note of a deal's end and its reward.
        """
        after = _rlenv.play_told(self._state, action, self._listening)
        self._state = after
        if _rlenv.deal_ended(after):
            self._ended = True
            gained = _rlenv.rewards(after, self.reward_mode, self.reward_scale)
            if gained is not None:
                self._gained += gained[self.seat & 1]

    def _advance(self) -> bool:
        """
        Play the deals and the other seats up to the learner's decision (``True``) or the end of the game.
        """
        while True:
            state = self._state
            seat = state.to_act
            if seat is not None:  # phases draw, play, calls and called
                player = self._seated[seat]
                if player is None:  # the learner's seat
                    return True
                chosen = player.choose(observe(state, seat), self._sources[seat])
                self._recent.append((state, chosen))
                action: Action = chosen
            elif state.phase is Phase.GAME_OVER:
                return False
            else:  # phases deal and deal_over
                action = random_deal(state, self._deck)
            self._play(action)

    def step(self, action: _ActionId) -> tuple[_Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """
        Play action id *action* for the learner, then the game up to its next decision.

        An id of the space that names no legal action ends the episode with a reward of -1 when
        ``on_illegal="lose"``, and raises `IllegalActionError` when ``on_illegal="raise"``.

        Raises:
            IllegalActionError: *action* names no legal action of the learner (``on_illegal="raise"``).
            InvalidValueError: *action* is not an id of the action space, or the episode is over.
            InvalidTypeError: *action* is not an integer.
        """
        reward, info = self._move(action)
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, info

    def _check(self, action: _ActionId) -> None:
        """
        Raise what `step` would raise for *action*, changing nothing.
        """
        if self._over:
            msg = "the episode is over: reset the environment to play another game"
            raise InvalidValueError(msg)
        try:
            self._legal.action(action, self._state)
        except IllegalActionError:
            if self.on_illegal == "raise":
                raise

    def _move(self, action: _ActionId) -> tuple[float, dict[str, Any]]:
        """
        `step` but for the observation and the render: its reward and info.
        """
        if self._over:
            msg = "the episode is over: reset the environment to play another game"
            raise InvalidValueError(msg)
        state = self._state
        try:
            chosen = self._legal.action(action, state)
        except IllegalActionError as error:
            if self.on_illegal == "raise":
                raise
            self._over = True
            return -1.0, {"illegal_action": error.action}
        self._recent = [(state, chosen)]
        self._ended = False
        self._play(chosen)
        self._advance()
        self._over = self._state.phase is Phase.GAME_OVER
        reward, self._gained = self._gained, 0.0
        return reward, _rlenv.deal_info(self._state) if self._ended else {}

    def _observation(self) -> _Observation:
        tensor = observation_tensor(observe(self._state, self.seat))
        if not self.mask_in_observation:
            return tensor
        mask = self._every_id.copy() if self._over else self._legal.mask(self._state, self._count, np.int8)
        return {"observation": tensor, "action_mask": mask}

    def _write(self, tensor: np.ndarray[Any, np.dtype[np.float32]]) -> list[int] | None:
        """
        Write the observation's tensor into *tensor*; the legal ids, or `None` once the episode is over.
        """
        observation_tensor(observe(self._state, self.seat), out=tensor)
        return None if self._over else list(self._legal.of(self._state))

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """
        The learner's legal ids as booleans (what masked PPO of sb3-contrib asks for).  Once the
        episode is over every id is ``True``: the action a vector environment asks for then is not
        played but resets the game (Gymnasium's autoreset), and a policy must have ids to choose
        from; stepping the environment itself raises until it is reset.
        """
        if self._over:
            return np.ones(self._count, dtype=np.bool_)
        return self._legal.mask(self._state, self._count, np.bool_)

    def render(self) -> _rlenv.Frame:
        """
        The learner's view: in the render mode ``"ansi"`` its text, with the actions since its last
        decision; in ``"human"`` the same printed; in ``"rgb_array"`` its picture, an array of
        ``(480, 640, 3)`` pixels of type ``uint8``.  Without a render mode, a warning and `None`.
        """
        view = observe(self._state, self.seat)
        names = tuple(
            "you" if seat == self.seat else ("partner" if seat & 1 == self.seat & 1 else "opponent")
            for seat in range(4)
        )
        return _rlenv.rendered(self.render_mode, view, lambda: _rlenv.position_text(view, names, self._recent))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:PersianRummySoloEnv",
        vector_entry_point="persian_rummy.rl.vector:make_vector",
    )
