"""
What the PettingZoo and the Gymnasium environments share: the arguments they take, their
spaces and observations, their rewards, and the text of a position.

Both environments see the game the same way, so a policy trained in one plays in the other:
the observation of a seat is ``{"observation": observation_tensor(observe(state, seat)),
"action_mask": mask}``, the mask holding a 1 at each legal id of `persian_rummy.rl.actionids` when
the seat is to act and only zeros otherwise; the rewards follow one rule (`rewards`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from .. import limits as _limits
from .._internal import arguments as _arguments
from .._internal import scene as _scene
from ..actions import Action, PlayerAction
from ..engine import apply, is_deal_over, max_game_length, outcome, random_deal
from ..events import Listener, events_of
from ..exceptions import InvalidValueError
from ..notation import SEAT_LETTERS, format_action
from ..rules import DEFAULT_RULES, Rules
from ..scoring import DealEnd
from ..serialize import FORMAT, VERSION, to_data
from ..state import GameState, Phase, View, new_game
from ..views import observe
from . import _numbers, _picture
from .actionids import action_count, action_from_id, legal_actions_by_id
from .tensors import observation_size, observation_tensor

#: An observation: the seat's tensor and its action mask.
Observation: TypeAlias = dict[str, np.ndarray[Any, Any]]
#: Action ids, as the environments are typed (a numpy integer is taken as well).
ActionId: TypeAlias = int
#: How the rewards are given (`rewards`).
REWARD_MODES: Final = ("margin", "outcome")
#: The render modes: the text of the position returned or printed, or its picture as an array of pixels.
RENDER_MODES: Final = ("ansi", "human", "rgb_array")
#: The frames a second of a video of the pictures (``metadata["render_fps"]``): four decisions a second.
RENDER_FPS: Final = 4
#: What ``render`` returns: the text (``"ansi"``), the picture (``"rgb_array"``), or nothing.
Frame: TypeAlias = str | np.ndarray[Any, np.dtype[Any]] | None
#: The player actions after which a game under rules with no bound on its length is cut short.
UNBOUNDED_STEPS: Final = 10_000
_TEAMS: Final = ("N-S", "E-W")
#: The teams' rewards in the mode "outcome", by the winning team.
_WON: Final = ((1.0, -1.0), (-1.0, 1.0))


# -- arguments -----------------------------------------------------------------------------------------------------


def rules_of(rules: Rules | None) -> Rules:
    """
    *rules* as the environments take it: `None` for Persian Rummy's rules.
    """
    _arguments.expect(rules, (Rules, type(None)), "rules", "a Rules or None")
    return DEFAULT_RULES if rules is None else rules


def choice(value: str, name: str, choices: Sequence[str]) -> str:
    """
    *value*, the argument *name*, if it is one of *choices*.
    """
    _arguments.expect(value, str, name, "a str")
    if value not in choices:
        msg = f"{name} must be one of {', '.join(map(repr, choices))}, got {_limits.shown(value)}"
        raise InvalidValueError(msg)
    return value


def reward_mode(value: str) -> str:
    """
    *value* if it names a way of giving rewards (`REWARD_MODES`).
    """
    return choice(value, "reward", REWARD_MODES)


def render_mode(value: str | None) -> str | None:
    """
    *value* if it is `None` or one of `RENDER_MODES`.
    """
    return None if value is None else choice(value, "render_mode", RENDER_MODES)


def dealer(value: object) -> int | None:
    """
    *value* if it is `None` (the first dealer drawn at random) or a seat (a numpy integer read as an `int`).
    """
    value = _numbers.plain(value)
    return None if value is None else _arguments.seat(value, "dealer")


def step_limit(value: object, rules: Rules) -> int | None:
    """
    The player actions after which a game is truncated: *value*, or by default none under
    rules where every game ends, and `UNBOUNDED_STEPS` under the others (A9, A18).
    """
    steps = _arguments.optional_count(_numbers.plain(value), "max_steps", 1)
    if steps is None and max_game_length(rules) is None:
        return UNBOUNDED_STEPS
    return steps


# -- the game --------------------------------------------------------------------------------------------------------


def start(rules: Rules, first_dealer: int | None, deck: random.Random) -> GameState:
    """
    A new game, not yet dealt, whose first dealer is *first_dealer*, or drawn from *deck* when
    `None`: drawn either way, so that the deals of a seed are the same whoever deals first.
    """
    drawn = deck.randrange(4)
    return new_game(rules, dealer=drawn if first_dealer is None else first_dealer)


def apply_deal(state: GameState, deck: random.Random) -> GameState:
    """
    The state after the next deal, shuffled by *deck* (`random_deal`).
    """
    return apply(state, random_deal(state, deck))


def deal_ended(state: GameState) -> bool:
    """
    Whether a deal has just ended in *state*, reached by a player's action.
    """
    return is_deal_over(state)


def play_told(before: GameState, action: Action, listening: Sequence[tuple[int, Listener]]) -> GameState:
    """
    The state after *action* in *before*, each of the *listening* players told its seat's event of it.
    """
    after = apply(before, action)
    if listening:
        events = events_of(before, action, after)
        for seat, player in listening:
            player.hear(events[seat])
    return after


# -- spaces and observations ---------------------------------------------------------------------------------------


def observation_space(rules: Rules) -> spaces.Space[Observation]:
    """
    The space of a seat's observations under *rules*: a `gymnasium.spaces.Dict`.
    """
    space = spaces.Dict(
        {
            "observation": observation_box(rules),
            "action_mask": spaces.Box(0, 1, (action_count(rules),), np.int8),
        }
    )
    return cast("spaces.Space[Observation]", space)


def observation_box(rules: Rules) -> spaces.Box:
    """
    The space of a seat's observation tensors under *rules*: the ``"observation"`` of `observation_space`.
    """
    return spaces.Box(0.0, 1.0, (observation_size(rules),), np.float32)


def action_space(rules: Rules) -> spaces.Space[ActionId]:
    """
    The space of the action ids under *rules*: a `gymnasium.spaces.Discrete`.
    """
    return cast("spaces.Space[ActionId]", spaces.Discrete(action_count(rules)))


class Legal:
    """
    The legal actions by id of the last state an environment asked about, so that the mask it
    shows and the step that follows work them out once between them.
    """

    __slots__ = ("_by_id", "_state")

    def __init__(self) -> None:
        self._state: GameState | None = None
        self._by_id: dict[int, PlayerAction] = {}

    def of(self, state: GameState) -> dict[int, PlayerAction]:
        """
        The legal actions of *state* by id (`legal_actions_by_id`).
        """
        if state is not self._state:
            self._by_id = legal_actions_by_id(state)
            self._state = state
        return self._by_id

    def action(self, action_id: object, state: GameState) -> PlayerAction:
        """
        The legal action *action_id* names at *state*; for an id that names none, the error of `action_from_id`.
        """
        action_id = _numbers.action_id_of(action_id)
        if type(action_id) is int:  # not a bool, which is refused
            chosen = self.of(state).get(action_id)
            if chosen is not None:
                return chosen
        return action_from_id(action_id, state)  # type: ignore[arg-type]  # its checks refuse what is not an id

    def mask(self, state: GameState, count: int, dtype: type[np.generic]) -> np.ndarray[Any, np.dtype[Any]]:
        """
        A new array of *count* values of *dtype*: 1 at each legal id of *state*, 0 elsewhere.
        """
        mask = bytearray(count)
        for i in self.of(state):
            mask[i] = 1
        return np.frombuffer(mask, dtype=dtype)  # writable, since a bytearray is, and nobody else's


def observation(state: GameState, seat: int, acting: bool, count: int, legal: Legal) -> Observation:
    """
    The observation of *seat*: the tensor of its view, and the mask of its legal ids if it is
    *acting* (else *count* zeros), worked out by *legal*.  Every array is new.
    """
    tensor = observation_tensor(observe(state, seat))
    mask = legal.mask(state, count, np.int8) if acting else np.zeros(count, dtype=np.int8)
    return {"observation": tensor, "action_mask": mask}


# -- rewards -------------------------------------------------------------------------------------------------------


def reward_scale(rules: Rules) -> int:
    """
    The points that make a reward of 1 in the mode ``"margin"``: the most a team can win a
    game by.  In a deal a team's margin is at most the points of the deck (melded by it or
    left in its opponents' hands) plus as much again doubled (R25, A20) plus the going-out
    bonus (R24), and a game has at most `Rules.max_deals` deals.  The deck's points are
    those of the rules' card values (R23, `Rules.card_values`); the scale is at least 1, so
    that it divides even when no card scores and there is no bonus.

    >>> reward_scale(Rules()), reward_scale(Rules(card_values={"X": 50}))
    (1954, 2434)
    >>> reward_scale(Rules(card_values="0/0/0/0/0/0/0/0/0/0/0/0/0/0", go_out_bonus=0))
    1
    """
    return max(1, rules.max_deals * (2 * rules.card_values.deck_points + abs(rules.go_out_bonus)))


def rewards(state: GameState, mode: str, scale: int) -> tuple[float, float] | None:
    """
    Each team's reward for the end of the deal that has just ended in *state*, or `None` when
    it is 0 for both.

    ``"margin"``: the deal's margin for the team (its total minus the other team's, R24)
    divided by *scale*, so that a game's rewards add up to its final margin over *scale*.
    ``"outcome"``: at the end of the game, 1 to the winning team and -1 to the other, 0 each
    for a draw (R28, A22); nothing before.  Partners get the same reward, and the rewards add up to 0.
    """
    if mode == "margin":
        team_0, team_1 = state.results[-1].totals
        return ((team_0 - team_1) / scale, (team_1 - team_0) / scale)
    result = outcome(state)
    if result is None:
        return None
    return (0.0, 0.0) if result.winner is None else _WON[result.winner]


def deal_info(state: GameState) -> dict[str, Any]:
    """
    What every environment reports after a deal, as plain data of one type each, so that vector
    environments stack the infos of several games and they can be logged as they are:
    ``"results"``, the results of the deals so far as JSON data (each the document
    `persian_rummy.serialize.to_data` writes of a `DealScore`, which ``from_data`` reads back);
    ``"deals"``, ``[team 0, team 1]`` for each of them; ``"scores"``, the teams' totals as a list;
    and at the end of the game ``"winner"``, the winning team, 0 or 1, or -1 for a draw (R28, A22).
    """
    info: dict[str, Any] = {
        "results": [to_data(result) for result in state.results],
        "deals": [list(result.totals) for result in state.results],
        "scores": list(state.scores),
    }
    result = outcome(state)
    if result is not None:
        info["winner"] = -1 if result.winner is None else result.winner
    return info


#: The parts of a team's result in a deal's document, in the order `deal_document` takes them.
_PARTS: Final = ("melded", "doubling", "bonus", "in_hand")


def deal_document(deal: int, teams: Sequence[Sequence[int]], went_out: int | None, end: DealEnd) -> dict[str, Any]:
    """
    The document `persian_rummy.serialize.to_data` writes of the result of deal number *deal*, each
    team's points in *teams* as (melded, doubling, bonus, in hand), *went_out* the seat that went out,
    *end* how the deal ended: as ``deal_info`` lists it, made without building the `DealScore`.
    """
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "deal_score",
        "deal": deal,
        "teams": [dict(zip(_PARTS, team, strict=True)) for team in teams],
        "went_out": went_out,
        "end": end.value,
    }


# -- rendering -----------------------------------------------------------------------------------------------------


def rendered(mode: str | None, position: GameState | View, text: Callable[[], str]) -> Frame:
    """
    What an environment's ``render`` gives in the render *mode*: the picture of *position* as an
    array of ``(480, 640, 3)`` pixels of type ``uint8`` (``"rgb_array"``, `persian_rummy.rl._picture`),
    or the *text* worked out, returned (``"ansi"``) or printed (``"human"``, then `None`).  Without a
    mode, Gymnasium's warning and `None`.
    """
    if mode is None:
        gymnasium.logger.warn("render() was called, but the environment was made with no render_mode")
        return None
    if mode == "rgb_array":
        return _picture.picture(position)
    words = text()
    if mode == "human":
        print(words)  # noqa: T201 (the render mode "human" prints)
        return None
    return words


# -- text ----------------------------------------------------------------------------------------------------------


def _seat_name(seat: int, names: Sequence[str]) -> str:
    return f"{SEAT_LETTERS[seat]} ({names[seat]})"


def _heading(position: GameState | View, names: Sequence[str]) -> str:
    number, planned = position.deal, position.rules.num_deals
    deal = f"deal {number} of {planned}" if number <= planned else f"deal {number}, the extra deal (A22)"
    deals = f"{deal}, dealer {SEAT_LETTERS[position.dealer]}"
    if position.phase is Phase.GAME_OVER:
        team_0, team_1 = position.scores if isinstance(position, GameState) else _totals(position)
        ending = "a draw" if team_0 == team_1 else f"{_TEAMS[int(team_1 > team_0)]} win"
        return f"Persian Rummy, {deals}: the game is over, {ending}"
    if position.to_act is None:
        return f"Persian Rummy, {deals}: the cards are to be dealt"
    doing = _scene.turn_note(position.phase)
    owed = "" if position.obligation is None else f", must play {position.obligation}"
    return f"Persian Rummy, {deals}: {_seat_name(position.to_act, names)} {doing}{owed}"


def _totals(view: View) -> tuple[int, int]:
    return (sum(r.teams[0].total for r in view.results), sum(r.teams[1].total for r in view.results))


def _hand_lines(position: GameState | View, names: Sequence[str]) -> list[str]:
    lines = []
    for seat in range(4):
        if isinstance(position, GameState):
            held = str(position.hands[seat]) or "-"
        elif seat == position.seat and position.hand is not None:
            held = str(position.hand) or "-"
        else:
            known = position.known[seat]
            held = f"{position.hand_sizes[seat]} cards" + (f", among them {known}" if known else "")
        lines.append(f"  {_seat_name(seat, names)}: {held}")
    return lines


def position_text(
    position: GameState | View, names: Sequence[str], recent: Sequence[tuple[GameState, PlayerAction]] = ()
) -> str:
    """
    The position as lines of text: where the game is, the *recent* actions (each with the state
    it was played in), the hands (as *position* shows them), the piles, the melds and the scores.
    Seats are named by their letter and their name in *names*.
    """
    lines = [_heading(position, names)]
    lines.extend(f"  played: {format_action(action, before)}" for before, action in recent)
    lines.extend(_hand_lines(position, names))
    stock = len(position.stock) if isinstance(position, GameState) else position.stock_size
    pile = " ".join(str(card) for card in position.discard_pile) or "-"
    lines.append(f"  stock: {stock} cards; discard pile, bottom to top: {pile}")
    for number, meld in enumerate(position.melds, start=1):
        lines.append(f"  meld {number}: {meld.cards} (laid down by {SEAT_LETTERS[meld.owner]})")
    team_0, team_1 = position.scores if isinstance(position, GameState) else _totals(position)
    lines.append(f"  scores: {_TEAMS[0]} {team_0}, {_TEAMS[1]} {team_1}")
    return "\n".join(lines)
