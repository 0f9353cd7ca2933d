"""
Persian Rummy as a PettingZoo environment: four agents, one per seat, taking turns (AEC).

The agents are ``"seat_0"`` to ``"seat_3"``; seats 0 and 2 play for one team, seats 1 and 3
for the other (R1).  An agent's action is an action id of `persian_rummy.rl.actionids` (the space
is ``Discrete(action_count(rules))``, 944 ids under Persian Rummy's rules), and its
observation a dict of two arrays:

- ``"observation"``: `persian_rummy.rl.tensors.observation_tensor` of the agent's view
  (`persian_rummy.observe`), float32 values in [0, 1];
- ``"action_mask"``: int8, 1 at each legal id when the agent is to act, all zeros otherwise.

A turn is several steps of the same agent: it draws, lays down and lays off as it likes, and
discards, and ``agent_selection`` stays on its seat until then (R14-R18).  The deals are not
steps: the environment shuffles them with its own random source, seeded by ``reset(seed=...)``,
and deals them as soon as one is due, so the next agent always has a legal action.

>>> from persian_rummy.rl.pettingzoo import env
>>> game = env()
>>> game.reset(seed=7)
>>> game.agent_selection
'seat_3'
>>> observation, reward, termination, truncation, info = game.last()
>>> observation["observation"].dtype, observation["action_mask"].shape
(dtype('float32'), (944,))
>>> from persian_rummy.rl.actionids import id_text
>>> [id_text(int(i)) for i in observation["action_mask"].nonzero()[0]]
['draw from the stock']
>>> game.step(0)
>>> game.agent_selection  # the same seat goes on: it melds and discards
'seat_3'
>>> observation, *_ = game.last()
>>> [id_text(int(i)) for i in observation["action_mask"].nonzero()[0]]
['discard Tc', 'discard Qc', 'discard 6d', 'discard 4h', 'discard 6h', 'discard Ts', 'discard Js', 'discard Qs', \
'meld Ts Js Qs']

A random game, each agent choosing among its legal ids; at the end every agent is terminated
and stepped once more with `None`:

>>> import numpy
>>> choices = numpy.random.default_rng(1)
>>> game.reset(seed=1)
>>> total = dict.fromkeys(game.possible_agents, 0.0)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     total[agent] += reward
...     if termination or truncation:
...         game.step(None)
...     else:
...         game.step(int(choices.choice(observation["action_mask"].nonzero()[0])))
>>> info["scores"], info["winner"]
([..., ...], ...)
>>> total["seat_0"] == total["seat_2"] == -total["seat_1"] == -total["seat_3"]
True

**Rewards.**  ``reward="margin"`` (the default): at the end of each deal every agent gets its
team's margin in the deal (its total minus the other team's, R24) divided by
`PersianRummyEnv.reward_scale`, the most points a team can win a game by, so that the rewards
of a game add up to its final margin over that scale, in [-1, 1].  ``reward="outcome"``: at the
end of the game 1 to each agent of the winning team, -1 to the others, 0 for a draw (R28,
A22); nothing before.  Either way partners get the same rewards and the four add up to 0.

**Infos.**  Empty until a deal ends; then every agent's info holds ``"results"`` (the JSON data
of the `persian_rummy.DealScore` of each finished deal, as `persian_rummy.serialize.to_data`
writes it), ``"deals"`` (``[team 0, team 1]`` for each), ``"scores"`` (the teams' totals, a list)
and, at the end of the game, ``"winner"`` (0, 1, or -1 for a draw), until the next deal ends.

**Illegal ids.**  An id that names no legal action raises
`persian_rummy.exceptions.IllegalActionError` naming the id and why; an id outside the space
`persian_rummy.exceptions.InvalidValueError`; a value that is no integer
`persian_rummy.exceptions.InvalidTypeError`.  The environment is left as it was, so the agent
may step again.  Nothing is silently replaced or penalised: mask the policy's choices with
``"action_mask"``.

**Rendering.**  ``render_mode="ansi"`` makes `PersianRummyEnv.render` return the position as text, every
hand shown, ``"human"`` print it (at every step too), and ``"rgb_array"`` return its picture: an array
of ``(480, 640, 3)`` pixels of type ``uint8``, the same size whatever the position, for a video of the
game (``metadata["render_fps"]`` is 4).

**Termination and truncation.**  Every agent is terminated when the game ends (R27).  Under
rules where a deal may go on for ever (A9, A18) the game is truncated after ``max_steps``
actions, 10,000 unless given; under Persian Rummy's rules every game ends and there is no limit
unless ``max_steps`` sets one.

**The parallel API.**  `parallel_env` gives the same game through PettingZoo's ``ParallelEnv``,
for the trainers that take only that API.  The game stays turn-based: at each step every live
agent submits an action, and only the seat to act's is played.  The action space has one id
more, the wait id ``action_count(rules)`` (944 by default, `PersianRummyParallelEnv.wait_id`):
the seat to act's mask holds its legal ids, and every other agent's mask holds the wait id alone,
so a masked policy of each agent sends what it must.  An agent not to act that sends another id,
or a seat to act that waits, raises `persian_rummy.exceptions.IllegalActionError` (R6), and an
agent may be left out of the actions rather than wait.  A step is one action of one seat,
exactly as an AEC step: a turn of a draw, two melds and a discard is four parallel steps, three
agents waiting at each.  Every agent gets its team's reward at each step (0 but at a deal's end)
and ``info["to_act"]``, the agent to act next (``""`` once the game is over); the infos after a
deal hold ``"results"``, ``"deals"``, ``"scores"`` and at the end ``"winner"`` as plain data (lists of ints; -1
for a draw).  The same seed deals the same cards as the AEC environment, so the same ids of the
seats to act play the same game.  PettingZoo's own ``aec_to_parallel`` refuses the AEC
environment (its ``is_parallelizable`` is false): that conversion plays one action per agent per
cycle, and a turn here is several actions of one agent.

>>> from persian_rummy.rl.pettingzoo import parallel_env
>>> game = parallel_env()
>>> observations, infos = game.reset(seed=7)
>>> infos["seat_0"]["to_act"], [int(i) for i in observations["seat_0"]["action_mask"].nonzero()[0]]
('seat_3', [944])
>>> actions = {agent: 944 for agent in game.agents} | {"seat_3": 0}
>>> observations, rewards, terminations, truncations, infos = game.step(actions)
>>> infos["seat_3"]["to_act"], rewards["seat_3"]
('seat_3', 0.0)
"""

from __future__ import annotations

import random
from typing import Any, Final, cast

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..actions import PlayerAction
from ..engine import apply
from ..exceptions import IllegalActionError, InvalidValueError
from ..rules import Rules
from ..state import GameState, Phase, new_game
from . import _env as _rlenv
from . import _numbers
from .actionids import action_count

__all__ = ["AGENTS", "PersianRummyEnv", "PersianRummyParallelEnv", "env", "parallel_env", "raw_env"]


def __dir__() -> list[str]:
    return __all__


#: The agents, by seat.
AGENTS: Final = ("seat_0", "seat_1", "seat_2", "seat_3")
_SEATS: Final = {agent: seat for seat, agent in enumerate(AGENTS)}
_Observation = _rlenv.Observation
_ActionId = _rlenv.ActionId


class PersianRummyEnv(AECEnv[str, _Observation, _ActionId]):
    """
    The PettingZoo environment of Persian Rummy (see the module's documentation).

    Args:
        rules: The rules; Persian Rummy's by default.
        reward: ``"margin"`` (each deal's margin, scaled) or ``"outcome"`` (1, -1 or 0 when
            the game ends).
        dealer: The seat that deals first; by default drawn from the seeded random source.
        max_steps: Truncate the game after this many actions; by default none, or 10,000 under
            rules where a deal may go on for ever.
        render_mode: ``"ansi"`` (`render` returns the text of the position), ``"human"`` (it
            prints it, and so does every step), ``"rgb_array"`` (it returns the picture of the
            table, an array of ``(480, 640, 3)`` pixels of type ``uint8``) or `None`.

    Attributes:
        rules: The rules of the games.
        reward_mode: ``"margin"`` or ``"outcome"``.
        reward_scale: The points that make a reward of 1 in the mode ``"margin"``: the most a
            team can win a game by, ``max_deals * (2 * deck + abs(go_out_bonus))``, the deck's
            points under the rules' card values (476 by default, R23), and at least 1.
        max_steps: The actions after which a game is truncated, or `None`.
        render_mode: As given.

    Raises:
        InvalidValueError: an unknown reward or render mode, a dealer that is not a seat, a
            ``max_steps`` under 1.
        InvalidTypeError: an argument of the wrong type.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (declared so by the toolkit)
        "name": "persian_rummy_v0",
        "render_modes": list(_rlenv.RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": _rlenv.RENDER_FPS,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        reward: str = "margin",
        dealer: int | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # the toolkit's __init__, unannotated
        self.rules = _rlenv.rules_of(rules)
        self.reward_mode = _rlenv.reward_mode(reward)
        self.reward_scale = _rlenv.reward_scale(self.rules)
        self.max_steps = _rlenv.step_limit(max_steps, self.rules)
        self.render_mode = _rlenv.render_mode(render_mode)
        self._dealer = _rlenv.dealer(dealer)
        self._count = action_count(self.rules)
        self._legal = _rlenv.Legal()
        self.possible_agents = list(AGENTS)
        self.agents = []
        self.observation_spaces = {agent: _rlenv.observation_space(self.rules) for agent in AGENTS}
        self.action_spaces = {agent: _rlenv.action_space(self.rules) for agent in AGENTS}
        self._deck = random.Random()  # noqa: S311 (a game, not a secret; from the system until a seed is given)
        self._state = new_game(self.rules)
        self._steps = 0
        self._rewarded = False
        self._truncated = False
        self._last: tuple[GameState, PlayerAction] | None = None

    @property
    def game_state(self) -> GameState:
        """
        The game as it stands: a `persian_rummy.GameState`, every hand in it.
        """
        return self._state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[_Observation]:
        """
        The space of *agent*'s observations (the same object at every call).
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[_ActionId]:
        """
        The space of *agent*'s action ids (the same object at every call).
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:  # noqa: ARG002
        """
        Start a new game, dealt with a random source seeded by *seed* (`None` or an int from 0 to
        2**64 - 1, any numpy integer too, as in `persian_rummy.rl.gymnasium`): the same seed, the same
        deals.  Without a seed the source goes on from the last game (the first time, it is
        seeded from the operating system).  *options* are accepted and ignored.
        """
        seed = _numbers.seed_of(seed)
        if seed is not None:
            self._deck.seed(seed)
        self._state = _rlenv.apply_deal(_rlenv.start(self.rules, self._dealer, self._deck), self._deck)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self._steps = 0
        self._rewarded = self._truncated = False
        self._last = None
        self._select(self._state)

    def _select(self, state: GameState) -> None:
        seat = state.to_act
        if seat is not None:
            self.agent_selection = AGENTS[seat]

    def observe(self, agent: str) -> _Observation:
        """
        The observation of *agent*: its view's tensor, and its action mask.

        Raises:
            InvalidValueError: *agent* is not one of the four agents.
        """
        seat = _SEATS.get(agent)
        if seat is None:
            msg = f"no agent is called {agent!r}; the agents are {', '.join(AGENTS)}"
            raise InvalidValueError(msg)
        state = self._state
        acting = seat == state.to_act and not self._truncated
        return _rlenv.observation(state, seat, acting, self._count, self._legal)

    def step(self, action: _ActionId | None) -> None:
        """
        Play action id *action* for ``agent_selection``; `None` for an agent that is terminated
        or truncated, which removes it.

        Raises:
            IllegalActionError: *action* names no legal action of the agent.
            InvalidValueError: *action* is not an id of the action space.
            InvalidTypeError: *action* is not an integer.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # type: ignore[arg-type]  # None, or the toolkit's error
            return
        state = self._state
        chosen = self._legal.action(action, state)  # None is refused
        after = apply(state, chosen)
        self._last = (state, chosen)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if _rlenv.deal_ended(after):
            after = self._deal_over(after)
        self._state = after
        self._steps += 1
        if self.max_steps is not None and self._steps >= self.max_steps and after.phase is not Phase.GAME_OVER:
            self._truncated = True
            self.truncations = dict.fromkeys(AGENTS, True)
        self._select(after)
        if self.render_mode == "human":
            self.render()

    def _deal_over(self, state: GameState) -> GameState:
        """
        Reward the end of a deal in *state*, report it, and deal the next deal or end the game.
        """
        gained = _rlenv.rewards(state, self.reward_mode, self.reward_scale)
        if gained is not None:
            self.rewards = {agent: gained[seat & 1] for seat, agent in enumerate(AGENTS)}
            self._accumulate_rewards()
            self._rewarded = True
        info = _rlenv.deal_info(state)
        self.infos = {agent: dict(info) for agent in AGENTS}
        if state.phase is Phase.GAME_OVER:
            self.terminations = dict.fromkeys(AGENTS, True)
            return state
        return _rlenv.apply_deal(state, self._deck)

    def render(self) -> _rlenv.Frame:
        """
        The position, every hand shown: in the render mode ``"ansi"`` its text, with the last
        action; in ``"human"`` the same printed; in ``"rgb_array"`` its picture, an array of
        ``(480, 640, 3)`` pixels of type ``uint8``.  Without a render mode, a warning and `None`.
        """
        return _render(self.render_mode, self._state, self._last)

    def close(self) -> None:
        """
        Nothing to release: the environment holds no window, file or process.
        """


def _render(mode: str | None, state: GameState, last: tuple[GameState, PlayerAction] | None) -> _rlenv.Frame:
    """
    What both environments' ``render`` gives in the render *mode*: the text of *state* with the *last*
    action, returned (``"ansi"``) or printed (``"human"``), or the picture of *state*, every hand
    shown (``"rgb_array"``); without a mode, a warning and `None`.
    """
    return _rlenv.rendered(mode, state, lambda: _rlenv.position_text(state, AGENTS, () if last is None else (last,)))


#: PettingZoo's name for the environment class without wrappers.
raw_env: Final = PersianRummyEnv


def env(
    rules: Rules | None = None,
    *,
    reward: str = "margin",
    dealer: int | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
) -> AECEnv[str, _Observation, _ActionId]:
    """
    The environment, wrapped as PettingZoo's own environments are: PettingZoo's order checks
    (no step, observation or render before ``reset``).  The arguments are those of `PersianRummyEnv`.
    """
    raw = PersianRummyEnv(rules, reward=reward, dealer=dealer, max_steps=max_steps, render_mode=render_mode)
    return OrderEnforcingWrapper(raw)


# -- the parallel API ------------------------------------------------------------------------------------------------


class PersianRummyParallelEnv(ParallelEnv[str, _Observation, _ActionId]):
    """
    The game through PettingZoo's parallel API: every live agent submits an action at each step,
    and only the seat to act's counts; the others wait (see "The parallel API" in the module's
    documentation).  The arguments and attributes are those of `PersianRummyEnv`.

    Attributes:
        wait_id: The id a seat that is not to act submits: ``action_count(rules)``, one past the
            game's ids, so that the action space is ``Discrete(action_count(rules) + 1)``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (declared so by the toolkit)
        "name": "persian_rummy_parallel_v0",
        "render_modes": list(_rlenv.RENDER_MODES),
        "render_fps": _rlenv.RENDER_FPS,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        reward: str = "margin",
        dealer: int | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = _rlenv.rules_of(rules)
        self.reward_mode = _rlenv.reward_mode(reward)
        self.reward_scale = _rlenv.reward_scale(self.rules)
        self.max_steps = _rlenv.step_limit(max_steps, self.rules)
        self.render_mode = _rlenv.render_mode(render_mode)
        self._dealer = _rlenv.dealer(dealer)
        self._count = action_count(self.rules)
        self.wait_id = self._count
        self._legal = _rlenv.Legal()
        self.possible_agents = list(AGENTS)
        self.agents = []
        self.observation_spaces = {agent: _parallel_space(self.rules) for agent in AGENTS}
        waiting = cast("gymnasium.spaces.Space[_ActionId]", gymnasium.spaces.Discrete(self._count + 1))
        self.action_spaces = dict.fromkeys(AGENTS, waiting)
        self._deck = random.Random()  # noqa: S311 (a game, not a secret; from the system until a seed is given)
        self._state = new_game(self.rules)
        self._steps = 0
        self._last: tuple[GameState, PlayerAction] | None = None

    @property
    def game_state(self) -> GameState:
        """
        The game as it stands: a `persian_rummy.GameState`, every hand in it.
        """
        return self._state

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[_Observation]:
        """
        The space of *agent*'s observations (the same object at every call).
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[_ActionId]:
        """
        The space of *agent*'s action ids, the wait id among them (the same object at every call).
        """
        return self.action_spaces[agent]

    def reset(
        self,
        seed: int | None = None,
        options: dict[str, Any] | None = None,  # noqa: ARG002
    ) -> tuple[dict[str, _Observation], dict[str, dict[str, Any]]]:
        """
        Start a new game, dealt as `PersianRummyEnv.reset` deals it: every agent's observation and info.
        """
        seed = _numbers.seed_of(seed)
        if seed is not None:
            self._deck.seed(seed)
        self._state = _rlenv.apply_deal(_rlenv.start(self.rules, self._dealer, self._deck), self._deck)
        self.agents = list(AGENTS)
        self._steps = 0
        self._last = None
        return self._observations(self.agents), self._infos(self.agents, {})

    def _observations(self, agents: list[str]) -> dict[str, _Observation]:
        state = self._state
        acting = None if self.agents == [] else state.to_act
        observations = {}
        for agent in agents:
            seat = _SEATS[agent]
            tensor = _rlenv.observation(state, seat, seat == acting, self._count, self._legal)
            mask = np.zeros(self._count + 1, dtype=np.int8)
            if seat == acting:
                mask[: self._count] = tensor["action_mask"]
            elif self.agents:
                mask[self._count] = 1
            tensor["action_mask"] = mask
            observations[agent] = tensor
        return observations

    def _infos(self, agents: list[str], deal: dict[str, Any]) -> dict[str, dict[str, Any]]:
        seat = self._state.to_act
        to_act = "" if seat is None or not self.agents else AGENTS[seat]
        return {agent: {"to_act": to_act, **deal} for agent in agents}

    def _chosen(self, actions: dict[str, Any]) -> PlayerAction:
        """
        The action of the seat to act among *actions*, once every other agent's is checked to be the wait id.
        """
        state = self._state
        acting = AGENTS[state.seat_to_act]  # a seat acts while the game goes on
        for agent, given in actions.items():
            if agent not in self.agents:
                msg = f"no live agent is called {agent!r}; the live agents are {', '.join(self.agents)}"
                raise InvalidValueError(msg)
            if agent != acting and _numbers.action_id_of(given) != self.wait_id:
                reason = f"{acting} is to act, so {agent} may only wait (id {self.wait_id})"
                raise IllegalActionError(given, reason, "R6")
        if acting not in actions:
            msg = f"{acting} is to act, and the actions hold none of it"
            raise InvalidValueError(msg)
        if _numbers.action_id_of(actions[acting]) == self.wait_id:
            reason = f"{acting} is to act and may not wait (id {self.wait_id})"
            raise IllegalActionError(actions[acting], reason, "R6")
        return self._legal.action(actions[acting], state)

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, _Observation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """
        Play the action of the seat to act; every other live agent's must be the wait id (or be left out).

        Raises:
            IllegalActionError: the seat to act's id names no legal action or is the wait id, or
                another agent's is not the wait id.
            InvalidValueError: an id outside the action space, no action of the seat to act, an
                agent that is not live, or a step after the game ended.
            InvalidTypeError: an action that is not an integer.
        """
        if not self.agents:
            msg = "the game is over: reset the environment to play another"
            raise InvalidValueError(msg)
        state = self._state
        chosen = self._chosen(actions)
        after = apply(state, chosen)
        self._last = (state, chosen)
        live = list(self.agents)
        rewards = dict.fromkeys(live, 0.0)
        deal: dict[str, Any] = {}
        if _rlenv.deal_ended(after):
            after, rewards, deal = self._deal_over(after, live)
        self._state = after
        self._steps += 1
        over = after.phase is Phase.GAME_OVER
        cut = not over and self.max_steps is not None and self._steps >= self.max_steps
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return (
            self._observations(live),
            rewards,
            dict.fromkeys(live, over),
            dict.fromkeys(live, cut),
            self._infos(live, deal),
        )

    def _deal_over(self, state: GameState, live: list[str]) -> tuple[GameState, dict[str, float], dict[str, Any]]:
        """
        The state after the deal that ended in *state* (the next deal dealt, unless the game is
        over), each of the *live* agents' rewards for it, and what the infos report of it.
        """
        gained = _rlenv.rewards(state, self.reward_mode, self.reward_scale)
        rewards = dict.fromkeys(live, 0.0) if gained is None else {a: gained[_SEATS[a] & 1] for a in live}
        deal = _rlenv.deal_info(state)
        if state.phase is not Phase.GAME_OVER:
            state = _rlenv.apply_deal(state, self._deck)
        return state, rewards, deal

    def render(self) -> _rlenv.Frame:
        """
        The position, every hand shown: in the render mode ``"ansi"`` its text, with the last
        action; in ``"human"`` the same printed; in ``"rgb_array"`` its picture, an array of
        ``(480, 640, 3)`` pixels of type ``uint8``.  Without a render mode, a warning and `None`.
        """
        return _render(self.render_mode, self._state, self._last)

    def close(self) -> None:
        """
        Nothing to release: the environment holds no window, file or process.
        """


def _parallel_space(rules: Rules) -> gymnasium.spaces.Space[_Observation]:
    """
    The parallel API's observation space: the AEC one's, the mask one longer for the wait id.
    """
    count = action_count(rules)
    space = gymnasium.spaces.Dict(
        {
            "observation": _rlenv.observation_box(rules),
            "action_mask": gymnasium.spaces.Box(0, 1, (count + 1,), np.int8),
        }
    )
    return cast("gymnasium.spaces.Space[_Observation]", space)


def parallel_env(
    rules: Rules | None = None,
    *,
    reward: str = "margin",
    dealer: int | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
) -> PersianRummyParallelEnv:
    """
    The environment through PettingZoo's parallel API (`PersianRummyParallelEnv`), with the arguments of `env`.
    """
    return PersianRummyParallelEnv(rules, reward=reward, dealer=dealer, max_steps=max_steps, render_mode=render_mode)
