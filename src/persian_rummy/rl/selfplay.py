"""
Team self-play for Gymnasium: one learner plays for a whole team against frozen policies drawn from a pool.

`PersianRummySelfPlayEnv` seats the learner's team (seats 0 and 2, or 1 and 3, R1) and fills the
other two seats with one member of an `OpponentPool`, drawn for each game.  A member is a frozen
policy, any function of (observation tensor, action mask) to an action id, with the arrays the
learner itself is given, or a `persian_rummy.bots.players.Player` (or its name for
`persian_rummy.bots.players.make_player`).  Training code adds members while it trains, a frozen
copy of the learner every so many steps (`SnapshotSchedule`), and the games after that draw from
the larger pool.  Importing this module registers the environment as
``"persian_rummy/SelfPlay-v0"`` (`ENV_ID`).

**Partners.**  With ``partner="learner"`` (the default) the learner acts for both partners: each
step is a decision of whichever of its two seats is to act, and the observation is always that
seat's (``info["seat"]`` names it).  A seat sees only its own view, so one network plays two
hands without seeing its partner's.  With ``partner="latest"`` the partner is the pool's newest
member, frozen when the game starts; with ``partner="pool"`` a member drawn from the pool for each
game; or the partner is a member given once for all games.  Then the learner holds one seat of
the team, drawn for each game.  ``team=None`` (the default) draws the learner's team for each
game, so that it learns both sides of the table; ``team=0`` or ``team=1`` fixes it.

The observation, the action ids, the masks (``"action_mask"`` and `PersianRummySelfPlayEnv.action_masks`),
the reward modes, ``on_illegal`` and the seeds are those of ``"persian_rummy/Solo-v0"``
(`persian_rummy.rl.gymnasium`).  **Rewards** are the learner's team's: with ``reward="margin"``
its margin in each deal over `PersianRummySelfPlayEnv.reward_scale`, so that an episode's
rewards add up to the team's final margin over the scale; the opponents' rewards, not given, are
the same with the sign changed, and the two teams' add up to 0.  **Seeding**: ``reset(seed=...)``
seeds ``np_random``, from which each game draws its deck, the team, the learner's seat, the
members and their random sources: the same seed, the same pool and the same actions replay the
same game.

**Infos** hold plain values, of one type each whatever happens: at every step ``"seat"`` (int,
the seat whose observation it is, the one to act), ``"team"`` (int, the learner's team),
``"opponent"`` (str, the name of the pool member at the other team's seats) and ``"partner"``
(str, ``"learner"`` or the partner's name); after a step in which a deal ended, ``"results"``
(the JSON data of each finished deal's `persian_rummy.DealScore`), ``"scores"``
(a list of the two teams' totals) and ``"deals"`` (a list of ``[team 0, team 1]`` per finished
deal); at the end of the game ``"winner"`` (0 or 1, or -1 for a draw).

**The end of an episode.**  Once the game is over (or an illegal id ended it) the mask marks every
id, as ``Solo-v0``'s does: ``gymnasium.make_vec`` resets an environment at the step after its end and ignores that
step's action, and a masked sampler needs an id to choose for it.  Stepping the environment
itself after the end raises `persian_rummy.exceptions.InvalidValueError`.

>>> import gymnasium
>>> import numpy
>>> from persian_rummy.rl.selfplay import OpponentPool
>>> pool = OpponentPool(["random"])
>>> env = gymnasium.make("persian_rummy/SelfPlay-v0", opponents=pool)
>>> observation, info = env.reset(seed=4)
>>> observation["observation"].shape, observation["action_mask"].shape, info["seat"] % 2 == info["team"]
((868,), (944,), True)
>>> def first_legal(observation, mask):
...     return int(mask.nonzero()[0][0])
>>> pool.add(first_legal, "first")
'first'
>>> pool.names
('random', 'first')
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
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

__all__ = ["ENV_ID", "Member", "OpponentPool", "PersianRummySelfPlayEnv", "Policy", "SnapshotSchedule"]


def __dir__() -> list[str]:
    return __all__


#: The id the environment is registered under: ``gymnasium.make(ENV_ID)``.
ENV_ID: Final = "persian_rummy/SelfPlay-v0"
#: A frozen policy: (observation tensor, action mask) to an action id, the arrays of the seat to act.
Policy: TypeAlias = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], Any]
#: What a pool holds: a frozen policy or a ready player (a name for ``make_player`` is read as one).
Member: TypeAlias = Policy | Player
_Observation = _rlenv.Observation
_ActionId = _rlenv.ActionId
_ON_ILLEGAL: Final = ("lose", "raise")
_PARTNERS: Final = ("learner", "latest", "pool")
#: The most games ``reset`` deals to reach a decision of the learner.
_MOST_GAMES: Final = 1_000
#: The members of a team: (name, member) at each of its seats, or None where the learner plays.
_Seated: TypeAlias = list[tuple[str, Member] | None]


def _member(value: object) -> Member:
    """
    *value* as a pool member: a `Player`, a name of one, or a callable policy.
    """
    if isinstance(value, str):
        return make_player(value)
    if isinstance(value, Player) or callable(value):
        return cast("Member", value)
    msg = (
        "a pool member is a policy (a function of the observation tensor and the mask to an action id), "
        f"a Player or a player's name, got {_limits.shown(value)}"
    )
    raise InvalidTypeError(msg)


class OpponentPool:
    """
    Frozen policies and players to draw opponents from, which training code may add to.

    Args:
        members: The first members: policies, `persian_rummy.bots.players.Player` values or
            players' names, each named by its name, or ``policy-N`` for the N-th member added.
        capacity: Keep only the newest *capacity* members: adding one more drops the oldest.
            `None` (the default) keeps every member.

    A member is drawn uniformly (`sample`).  The pool is an ordinary object: environments that
    share it in one process see every member added; a vector environment of several processes
    holds a copy in each, which `PersianRummySelfPlayEnv.add_opponent` adds to (through
    ``call`` or ``env_method``).

    Raises:
        InvalidTypeError: a member that is none of those, or a capacity that is no int.
        InvalidValueError: a capacity under 1, an unknown player's name, or a name used twice.
    """

    def __init__(self, members: Iterable[object] = (), *, capacity: int | None = None) -> None:
        self.capacity = _arguments.optional_count(_numbers.plain(capacity), "capacity", 1)
        self._members: list[tuple[str, Member]] = []
        self._added = 0
        for member in members:
            self.add(member)

    def add(self, member: object, name: str | None = None) -> str:
        """
        Add *member*, named *name* (by default its own name if it is a player's name, else
        ``policy-N``), dropping the oldest member if the pool is full; its name.  Adding the
        same member under the same name again changes nothing, so that the environments of a
        vector environment that share one pool may each add it.
        """
        if name is not None and any(held == name and kept is member for held, kept in self._members):
            return name
        self._added += 1
        if name is None:
            name = member if isinstance(member, str) else f"policy-{self._added}"
        _arguments.expect(name, str, "name", "a str")
        if name in self.names:
            msg = f"the pool already has a member named {_limits.shown(name)}"
            raise InvalidValueError(msg)
        self._members.append((name, _member(member)))
        if self.capacity is not None and len(self._members) > self.capacity:
            del self._members[0]
        return name

    @property
    def names(self) -> tuple[str, ...]:
        """
        The members' names, the oldest first.
        """
        return tuple(name for name, _ in self._members)

    def __len__(self) -> int:
        return len(self._members)

    def __getitem__(self, name: str) -> Member:
        for held, member in self._members:
            if held == name:
                return member
        raise KeyError(name)

    def latest(self) -> tuple[str, Member]:
        """
        The newest member and its name.

        Raises:
            InvalidValueError: the pool is empty.
        """
        self._check_filled()
        return self._members[-1]

    def sample(self, rng: np.random.Generator) -> tuple[str, Member]:
        """
        A member drawn uniformly by *rng*, and its name.

        Raises:
            InvalidValueError: the pool is empty.
        """
        self._check_filled()
        return self._members[int(rng.integers(len(self._members)))]

    def _check_filled(self) -> None:
        if not self._members:
            msg = "the opponent pool is empty: add a policy or a player to it"
            raise InvalidValueError(msg)

    def __repr__(self) -> str:
        return f"OpponentPool({list(self.names)!r}, capacity={self.capacity!r})"


class SnapshotSchedule:
    """
    Freeze the learner into a pool every *every* steps: what a training callback calls.

    ``schedule(steps)``, called with the number of steps trained so far (sb3's
    ``num_timesteps``), adds ``freeze()`` to *pool* each time *steps* reaches the next multiple
    of *every*, named ``step-N`` after the multiple N reached, and returns the name, or `None`
    when nothing was added.  *freeze* returns a frozen copy of the learner's policy, a member
    that later training does not change.  *pool* is an `OpponentPool` or any function of
    (member, name), such as one that calls ``add_opponent`` on each environment of a vector
    environment.

    Raises:
        InvalidTypeError: *every* is no int, or *freeze* is not callable.
        InvalidValueError: *every* is under 1.
    """

    def __init__(self, pool: OpponentPool | Callable[[Member, str], object], every: int, freeze: object) -> None:
        every = _numbers.plain(every)  # a numpy integer read as an int
        _arguments.expect(every, int, "every", "an int")
        self.every = _arguments.optional_count(every, "every", 1)
        if not callable(freeze):
            msg = f"freeze must be a function that returns a frozen policy, got {_limits.shown(freeze)}"
            raise InvalidTypeError(msg)
        self._add = pool.add if isinstance(pool, OpponentPool) else pool
        self._freeze: Callable[[], object] = freeze
        self.next_at = self.every

    def __call__(self, steps: int) -> str | None:
        if steps < self.next_at:
            return None
        reached = steps - steps % self.every
        self.next_at = reached + self.every
        name = f"step-{reached}"
        self._add(cast("Member", self._freeze()), name)
        return name


class PersianRummySelfPlayEnv(gymnasium.Env[_Observation, _ActionId]):
    """
    One learner plays for a team against members of a pool (see the module's documentation).

    Args:
        rules: The rules; Persian Rummy's by default.
        opponents: An `OpponentPool`, shared with the training code that adds to it, or the
            members of a new pool (one member or a sequence); by default a pool of ``"greedy"``.
        partner: ``"learner"`` (the learner acts for both partners), ``"latest"`` (the pool's
            newest member), ``"pool"`` (a member drawn for each game), or a member for every game.
        team: The learner's team, 0 (seats 0 and 2) or 1 (seats 1 and 3), or `None` to draw it
            for each game.
        reward, on_illegal, dealer, render_mode: As in ``"persian_rummy/Solo-v0"``.

    Attributes:
        rules, pool, partner, team, on_illegal, render_mode: As given (the pool made if need be).
        reward_mode: The argument *reward*.
        reward_scale: The points that make a reward of 1 in the mode ``"margin"``.

    Raises:
        InvalidValueError: an unknown partner, reward mode, ``on_illegal`` or render mode, a
            team that is not 0 or 1, a dealer that is not a seat, an unknown player's name.
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
        opponents: OpponentPool | object = "greedy",
        partner: object = "learner",
        team: int | None = None,
        reward: str = "margin",
        on_illegal: str = "lose",
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = _rlenv.rules_of(rules)
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(_listed(opponents))
        self.partner = partner if isinstance(partner, str) and partner in _PARTNERS else _member(partner)
        team = _numbers.plain(team)  # a numpy integer read as an int
        if team is not None and (type(team) is not int or team not in (0, 1)):
            msg = f"team must be 0, 1 or None, got {_limits.shown(team)}"
            raise InvalidValueError(msg)
        self.team = team
        self.reward_mode = _rlenv.reward_mode(reward)
        self.reward_scale = _rlenv.reward_scale(self.rules)
        self.on_illegal = _rlenv.choice(on_illegal, "on_illegal", _ON_ILLEGAL)
        self.render_mode = _rlenv.render_mode(render_mode)
        self._dealer = _rlenv.dealer(dealer)
        self.action_space = _rlenv.action_space(self.rules)
        self.observation_space = _rlenv.observation_space(self.rules)
        self._count = action_count(self.rules)
        self._legal = _rlenv.Legal()
        self._state = new_game(self.rules)
        self._deck = random.Random(0)  # noqa: S311 (a game, not a secret; reseeded by reset)
        self._sources: list[random.Random] = []
        self._seated: _Seated = [None] * 4
        self._listening: list[tuple[int, Listener]] = []
        self._game_team = 0
        self._seat = 0
        self._opponent = ""  # the name of the opponents' member
        self._gained = 0.0
        self._ended = self._over = True
        self._recent: list[tuple[GameState, PlayerAction]] = []

    @property
    def game_state(self) -> GameState:
        """
        The game as it stands: a `persian_rummy.GameState`, every hand in it.
        """
        return self._state

    def add_opponent(self, member: object, name: str | None = None) -> str:
        """
        Add *member* to the pool (`OpponentPool.add`); its name.  For a vector environment of
        several processes: ``envs.call("add_opponent", member)`` reaches every copy of the pool.
        """
        return self.pool.add(member, name)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[_Observation, dict[str, Any]]:
        """
        Start a new game, draw its team, seats and members, and play it to the learner's first
        decision: its observation and info.  *seed* seeds ``np_random`` (`None`: it goes on from
        the last game); *options* are accepted and ignored.
        """
        super().reset(seed=_numbers.seed_of(seed), options=options)
        for _ in range(_MOST_GAMES):
            self._new_game()
            if self._advance():
                break
        else:
            msg = f"{_MOST_GAMES} games in a row ended before the learner's first decision"
            raise InvalidValueError(msg)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _new_game(self) -> None:
        """
        Draw the game's seeds, team, learner's seat and members from ``np_random``.
        """
        rng = self.np_random
        seeds = [int(seed) for seed in rng.integers(0, 2**63 - 1, size=5)]
        self._deck = random.Random(seeds[4])  # noqa: S311 (a game, not a secret)
        self._sources = [random.Random(seed) for seed in seeds[:4]]  # noqa: S311
        team = int(rng.integers(2)) if self.team is None else self.team
        self._game_team = team
        self._seat = team + 2 * int(rng.integers(2))
        opponent = self.pool.sample(rng)
        self._opponent = opponent[0]
        partner = self._partner_member(rng)
        seated: _Seated = [None if seat & 1 == team else opponent for seat in range(4)]
        if partner is not None:
            seated[self._seat ^ 2] = partner
        self._seat_members(seated)
        self._state = _rlenv.start(self.rules, self._dealer, self._deck)
        self._gained = 0.0
        self._ended = self._over = False
        self._recent = []

    def _partner_member(self, rng: np.random.Generator) -> tuple[str, Member] | None:
        partner = self.partner
        if partner == "learner":
            return None
        if partner == "latest":
            return self.pool.latest()
        if partner == "pool":
            return self.pool.sample(rng)
        return ("partner", cast("Member", partner))

    def _seat_members(self, seated: _Seated) -> None:
        """
        Seat *seated*, a fresh copy of each player that listens, told the actions as in a match.
        """
        self._listening = []
        for seat, held in enumerate(seated):
            if held is not None and hasattr(held[1], "hear"):
                fresh = copy.deepcopy(held[1])
                seated[seat] = (held[0], fresh)
                self._listening.append((seat, cast("Listener", fresh)))
        self._seated = seated

    def _play(self, action: Action) -> None:
        after = _rlenv.play_told(self._state, action, self._listening)
        self._state = after
        if _rlenv.deal_ended(after):
            self._ended = True
            gained = _rlenv.rewards(after, self.reward_mode, self.reward_scale)
            if gained is not None:
                self._gained += gained[self._game_team]

    def _advance(self) -> bool:
        """
        Play the deals and the members' seats up to a decision of the learner (`True`) or the end of the game.
        """
        while True:
            state = self._state
            seat = state.to_act
            if seat is not None:  # phases draw, play, calls and called
                held = self._seated[seat]
                if held is None:
                    self._seat = seat
                    return True
                chosen = self._choose(held, state, seat)
                self._recent.append((state, chosen))
                action: Action = chosen
            elif state.phase is Phase.GAME_OVER:
                return False
            else:  # phases deal and deal_over
                action = random_deal(state, self._deck)
            self._play(action)

    def _choose(self, held: tuple[str, Member], state: GameState, seat: int) -> PlayerAction:
        """
        The action the member *held* chooses at *seat*: a player from the seat's view, a policy
        from its tensor and mask.
        """
        name, member = held
        view = observe(state, seat)
        if isinstance(member, Player):
            return member.choose(view, self._sources[seat])
        chosen = member(observation_tensor(view), self._legal.mask(state, self._count, np.int8))
        try:
            return self._legal.action(chosen, state)
        except IllegalActionError as error:
            reason = f"the pool member {name!r} at seat {seat} chose it: {error.reason}"
            raise IllegalActionError(error.action, reason, error.rule) from error

    def step(self, action: _ActionId) -> tuple[_Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """
        Play action id *action* for the learner's seat to act, then the game up to its next decision.

        Raises:
            IllegalActionError: *action* names no legal action (``on_illegal="raise"``), or a
                pool member chose an id that names none (the error names the member).
            InvalidValueError: *action* is not an id of the action space, or the episode is over.
            InvalidTypeError: *action* is not an integer.
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
            self._ended = False  # no deal ended in this step: the last step's deal is not told again
            info = self._info()
            info["illegal_action"] = error.action
            return self._observation(), -1.0, True, False, info
        self._recent = [(state, chosen)]
        self._ended = False
        self._play(chosen)
        self._advance()
        self._over = self._state.phase is Phase.GAME_OVER
        reward, self._gained = self._gained, 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, self._info()

    def _info(self) -> dict[str, Any]:
        team = self._game_team
        info: dict[str, Any] = {
            "seat": self._seat,
            "team": team,
            "opponent": self._opponent,
        }
        partner = self._seated[self._seat ^ 2]
        info["partner"] = "learner" if partner is None else partner[0]
        if self._ended:
            info.update(_rlenv.deal_info(self._state))
        return info

    def _observation(self) -> _Observation:
        observation = _rlenv.observation(self._state, self._seat, not self._over, self._count, self._legal)
        if self._over:
            observation["action_mask"][:] = 1
        return observation

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """
        The legal ids of the learner's seat to act as booleans (what masked PPO of sb3-contrib
        asks for); once the episode is over, every id, for the reset step of a vector
        environment, whose action is ignored.
        """
        if self._over:
            return np.ones(self._count, dtype=np.bool_)
        return self._legal.mask(self._state, self._count, np.bool_)

    def render(self) -> _rlenv.Frame:
        """
        The view of the learner's seat to act: in the render mode ``"ansi"`` its text, with the
        actions since its last decision; in ``"human"`` the same printed; in ``"rgb_array"`` its
        picture, an array of ``(480, 640, 3)`` pixels of type ``uint8``.  Without a render mode, a
        warning and `None`.
        """
        view = observe(self._state, self._seat)
        names = [
            "learner" if held is None else f"{'partner' if seat & 1 == self._game_team else 'opponent'} {held[0]}"
            for seat, held in enumerate(self._seated)
        ]
        return _rlenv.rendered(self.render_mode, view, lambda: _rlenv.position_text(view, names, self._recent))


def _listed(opponents: object) -> Sequence[object]:
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        return [opponents]
    return opponents


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:PersianRummySelfPlayEnv",
        vector_entry_point="persian_rummy.rl.batchselfplay:make_selfplay_vector",
    )
