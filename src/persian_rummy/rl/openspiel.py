"""
OpenSpiel: Persian Rummy as the Python game ``python_persian_rummy`` of ``pyspiel``.

Importing this module registers the game, so that ``pyspiel.load_game`` and every algorithm of
OpenSpiel written in Python can use it.  The game's parameters are the switches of `Rules`,
with Persian Rummy's defaults (the card values as their text, fourteen numbers joined by ``/``,
R23); `load` and `game_string` build the game from a `Rules` value.

>>> import random
>>> game = load(Rules(ace_low_allowed=True))
>>> str(game), game.num_distinct_actions(), game.max_chance_outcomes()
('python_persian_rummy(ace_low_allowed=True)', 1064, 56)
>>> state = game.new_initial_state()
>>> state.current_player() == pyspiel.PlayerId.CHANCE, len(state.chance_outcomes())
(True, 56)
>>> for card in random.Random(6).sample(range(56), 56):  # a shuffled deck, one card at a time
...     state.apply_action(card)
>>> state.game_state.hands[1], state.game_state.discard_pile
(CardSet.parse('2c 6d 6h 7h Th Qs Ks'), (Card.parse('6s'),))
>>> state.current_player(), state.legal_actions(), [state.action_to_string(i) for i in state.legal_actions()]
(1, [0, 45], ['draw from the stock', 'take 6s'])

How the game is modelled:

- Chance deals the cards one at a time: a deal is 56 chance steps, the outcome of each the
  index in `FULL_DECK` of the next card of the deck, uniform over the cards not yet dealt.
  After the 56th the whole order is applied as one `persian_rummy.Deal` by the seat that deals
  (`persian_rummy.state.next_dealer`).  Each deal of the game is dealt so.
- A player's actions are the ids of `persian_rummy.rl.actionids`: ``num_distinct_actions`` is
  ``action_count(rules)`` and ``PersianRummyState.action_to_string`` is ``id_text``.
- Returns: +1 to both partners of the team that wins the game (R28), -1 to the other team,
  0 to everyone for a draw (A22).  The game is zero-sum.  The margin in points is in the final
  state (`PersianRummyState.game_state`, and `persian_rummy.bots.heuristics.team_margin`).
- ``max_game_length`` counts the players' actions only, as OpenSpiel counts it, and
  ``max_chance_nodes_in_history`` the chance steps (56 per deal).  Where the rules bound the
  length of a game (`persian_rummy.engine.max_game_length`), the bound is theirs less its deals.  Where
  they do not (`Rules.top_discard_free`, `Rules.reshuffle_on_empty_stock`), a game is cut off
  after ``MAX_ACTIONS - max_deals`` players' actions, so that its record holds at most
  ``MAX_ACTIONS`` actions: a game cut off is terminal and a draw.
- Observations and information states come from `persian_rummy.rl.tensors`.  The information state
  of a seat is its view and the public history of the game (what a spectator saw), kept as one
  `persian_rummy.rl.tensors.History` per state.  `PersianRummyObserver` also answers OpenSpiel's
  public and private observations (a spectator's view; the cards only the seat knows).
- `PersianRummyState.resample_from_infostate` deals the cards a seat cannot see at random
  (`persian_rummy.determinize`), for search algorithms such as OpenSpiel's ``ISMCTSBot``.
- States are cheap to clone: the position is an immutable value that clones share.  States
  serialize (``pyspiel.serialize_game_and_state``) and pickle.

Needs OpenSpiel (the extra ``openspiel``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..actions import Deal
from ..cards import FULL_DECK
from ..choices import Choice
from ..engine import apply, outcome
from ..engine import max_game_length as _rules_game_length
from ..events import events_of
from ..exceptions import IllegalActionError, InvalidTypeError, InvalidValueError
from ..notation import format_cards, format_position
from ..rules import DEFAULT_RULES, CardValues, Rules
from ..state import GameState, Phase, View, new_game, next_dealer
from ..views import determinize, observe
from . import actionids, tensors

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "PersianRummyGame",
    "PersianRummyObserver",
    "PersianRummyState",
    "game_string",
    "load",
    "rules_of",
]


def __dir__() -> list[str]:
    return __all__


#: The short name the game is registered under.
GAME_NAME: Final = "python_persian_rummy"

_CARDS: Final = len(FULL_DECK)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
#: The names of the rule switches, the game's parameters.
_SWITCHES: Final[tuple[str, ...]] = tuple(attrs.fields_dict(Rules))


def _parameter(value: object) -> object:
    """
    A rule switch's value as an OpenSpiel game parameter: an enumeration by its value, card
    values (R23) by their text, fourteen numbers joined by ``/`` (`CardValues`).
    """
    if isinstance(value, CardValues):
        return str(value)
    return value.value if isinstance(value, Choice) else value


#: The game's type: its parameters are the fields of `Rules`, with their defaults.
GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Persian Rummy",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={name: _parameter(getattr(DEFAULT_RULES, name)) for name in _SWITCHES},
    provides_factored_observation_string=True,
)


def game_string(rules: Rules | None = None) -> str:
    """
    The OpenSpiel game string of *rules* (Persian Rummy's by default): the switches that differ from the defaults.

    The switches come in the order of their names, as the ``str`` of the game has them.

    >>> game_string(), game_string(Rules(next_dealer="winner", hand_size=10, ace_low_allowed=True))
    ('python_persian_rummy()', 'python_persian_rummy(ace_low_allowed=True,hand_size=10,next_dealer=winner)')

    Raises:
        InvalidTypeError: *rules* is not a `Rules` or `None`.
    """
    _arguments.expect(rules, (Rules, type(None)), "rules", "a Rules or None")
    changes = {} if rules is None else rules.changes()
    # In the order OpenSpiel writes a game's parameters, so that the string is the game's ``str``.
    return f"{GAME_NAME}({','.join(f'{name}={_parameter(changes[name])}' for name in sorted(changes))})"


def load(rules: Rules | None = None) -> pyspiel.Game:
    """
    The OpenSpiel game of *rules* (Persian Rummy's by default), as ``pyspiel.load_game`` gives it.

    Raises:
        InvalidTypeError: *rules* is not a `Rules` or `None`.
    """
    return pyspiel.load_game(game_string(rules))


def rules_of(game: pyspiel.Game) -> Rules:
    """
    The `Rules` of a game loaded from ``python_persian_rummy``.

    >>> rules_of(pyspiel.load_game("python_persian_rummy(num_deals=3)")).num_deals
    3

    Raises:
        InvalidTypeError: *game* is not a Persian Rummy game.
    """
    _arguments.expect(game, PersianRummyGame, "game", "a Persian Rummy game of pyspiel")
    rules: Rules = game.rules
    return rules


def _rules_from(params: Mapping[str, Any]) -> Rules:
    """
    The `Rules` of OpenSpiel game parameters; the library's errors for a value a switch does not take.
    """
    unknown = sorted(set(params) - set(_SWITCHES))
    if unknown:  # pyspiel.load_game lets no such name through; a game built directly might
        msg = f"not a rule switch: {', '.join(map(_limits.shown, unknown))}"
        raise InvalidValueError(msg)
    return Rules(**params)


def _max_moves(rules: Rules) -> int:
    """
    The most players' actions a game under *rules* can have; the cut-off where the rules set no bound.
    """
    bound = _rules_game_length(rules)
    return (_limits.MAX_ACTIONS if bound is None else bound) - rules.max_deals


# -- the game ----------------------------------------------------------------------------------------------------------


class PersianRummyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """
    Persian Rummy under one set of rules, as a game of OpenSpiel: load it with ``pyspiel.load_game``.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        rules = _rules_from(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=actionids.action_count(rules),
            max_chance_outcomes=_CARDS,
            num_players=4,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_moves(rules),
        )
        super().__init__(GAME_TYPE, info, {name: _parameter(value) for name, value in rules.changes().items()})
        self._rules = rules

    @property
    def rules(self) -> Rules:
        """
        The rules, from the game's parameters.
        """
        try:
            return self._rules
        except AttributeError:  # an unpickled game: pyspiel restores the C++ game from its string only
            self._rules = _rules_from(self.get_parameters())
            return self._rules

    def new_initial_state(self) -> PersianRummyState:
        """
        The start of a game: a chance node, the first card of the first deal to be dealt.
        """
        return PersianRummyState(self)

    def max_chance_nodes_in_history(self) -> int:
        """
        The most chance steps in a game: 56 per deal.
        """
        return _CARDS * self.rules.max_deals

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> PersianRummyObserver:
        """
        An observer of the kind *iig_obs_type* (a seat's observation by default); see `PersianRummyObserver`.
        """
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes only the parameters when it has no type
            iig_obs_type, params = None, iig_obs_type
        return PersianRummyObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, rules=self.rules
        )


# -- positions ---------------------------------------------------------------------------------------------------------


class _Position:
    """
    Where a game stands, as an OpenSpiel state holds it; immutable, so clones share it.

    Attributes:
        state: The game's state; at a chance node, before the deal under way.
        dealt: The cards of the deal under way dealt so far, by index in `FULL_DECK`.
        history: The public history of the game (what a spectator saw).
        moves: The players' actions so far.
        player: The player to act, or OpenSpiel's chance or terminal player.
        cap: The most players' actions the game may have.
    """

    __slots__ = ("_ids", "cap", "dealt", "history", "moves", "player", "state")

    def __init__(
        self, state: GameState, dealt: tuple[int, ...], history: tensors.History, moves: int, cap: int
    ) -> None:
        self.state = state
        self.dealt = dealt
        self.history = history
        self.moves = moves
        self.cap = cap
        self.player = _player(state, moves, cap)
        self._ids: tuple[int, ...] | None = None

    def __copy__(self) -> _Position:
        return self

    def __deepcopy__(self, memo: object) -> _Position:
        return self

    @property
    def ids(self) -> tuple[int, ...]:
        """
        The legal ids of the player to act, worked out once.
        """
        ids = self._ids
        if ids is None:
            ids = self._ids = actionids.legal_ids(self.state)
        return ids

    def after_card(self, card: int) -> _Position:
        """
        The position after chance deals *card*: the deal is applied once the deck is complete.
        """
        if not (type(card) is int and 0 <= card < _CARDS):
            raise IllegalActionError(card, f"the chance outcome {card!r} is not a card's index 0-55", "R7")
        if card in self.dealt:
            raise IllegalActionError(card, f"the chance outcome {card!r} is already dealt", "R7")
        dealt = (*self.dealt, card)
        if len(dealt) < _CARDS:
            return _Position(self.state, dealt, self.history, self.moves, self.cap)
        before = self.state
        deal = Deal(next_dealer(before), tuple(FULL_DECK[i] for i in dealt))
        after = apply(before, deal)
        history = self.history.after(events_of(before, deal, after)[4])
        return _Position(after, (), history, self.moves, self.cap)

    def after_id(self, action_id: int) -> _Position:
        """
        The position after the player to act plays the action of *action_id*.
        """
        before = self.state
        action = actionids.action_from_id(action_id, before)
        after = apply(before, action)
        history = self.history.after(events_of(before, action, after)[4])
        return _Position(after, (), history, self.moves + 1, self.cap)


def _player(state: GameState, moves: int, cap: int) -> int:
    """
    OpenSpiel's player to act at *state*, after *moves* players' actions of at most *cap*.
    """
    if state.phase is Phase.GAME_OVER or moves >= cap:
        return _TERMINAL
    to_act = state.to_act
    return _CHANCE if to_act is None else to_act


@functools.cache
def _start(rules: Rules) -> _Position:
    """
    The position at the start of a game under *rules*, shared by every initial state.
    """
    return _Position(new_game(rules), (), tensors.History(), 0, _max_moves(rules))


class PersianRummyState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types
    """
    A state of `PersianRummyGame`: made by ``game.new_initial_state()`` and changed by ``apply_action``.

    Besides OpenSpiel's methods it shows the library's values: `game_state`, the
    `persian_rummy.GameState` it wraps, and `public_history`, the history a spectator saw.
    """

    def __init__(self, game: PersianRummyGame) -> None:
        super().__init__(game)
        self._at = _start(game.rules)

    # -- what OpenSpiel asks ---------------------------------------------------------------------

    def current_player(self) -> int:
        """
        The seat to act, or ``pyspiel.PlayerId.CHANCE`` while cards are dealt, or ``TERMINAL``.
        """
        return self._at.player

    def is_terminal(self) -> bool:
        """
        Whether the game is over (R27), or cut off (see the module's documentation).
        """
        return self._at.player == _TERMINAL

    def _legal_actions(self, _player: int) -> tuple[int, ...]:
        """
        The ids of the legal actions of the player to act, ascending (OpenSpiel answers for the others).
        """
        return self._at.ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """
        The cards not yet dealt, by index in `FULL_DECK`, each as likely as the others.
        """
        dealt = set(self._at.dealt)
        chance = 1.0 / (_CARDS - len(dealt))
        return [(card, chance) for card in range(_CARDS) if card not in dealt]

    def _apply_action(self, action: int) -> None:
        at = self._at
        self._at = at.after_card(action) if at.player == _CHANCE else at.after_id(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if type(action) is not int or not 0 <= action < _CARDS:
                msg = f"a chance outcome is a card's index 0-55, got {_limits.shown(action)}"
                raise InvalidValueError(msg)
            return f"deal {FULL_DECK[action]}"
        return actionids.id_text(action, self._at.state.rules)

    def returns(self) -> list[float]:
        """
        +1 for each seat of the team that won the game, -1 for the others; 0 for a draw and before the end.
        """
        result = outcome(self._at.state)
        if result is None or result.winner is None:
            return [0.0, 0.0, 0.0, 0.0]
        won = 1.0 if result.winner == 0 else -1.0
        return [won, -won, won, -won]

    def __str__(self) -> str:
        at = self._at
        text = format_position(at.state)
        return f"{text}\ndealing {format_cards(FULL_DECK[i] for i in at.dealt)}" if at.dealt else text

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> PersianRummyState:
        """
        A state that *player_id* cannot tell from this one, the cards it cannot see dealt at random.

        The game state is ``determinize(observe(state, player_id), rng)``, with ``rng`` a
        ``random.Random`` seeded from a number drawn from *probability_sampler* (a function
        giving numbers in [0, 1), such as ``pyspiel.UniformProbabilitySampler``).  The public
        history is kept, so the information state of *player_id* is the same.  The cards of a
        deal under way are drawn again too: nobody has seen them.  The new state's OpenSpiel
        ``history()`` is empty, since the past deals that led to it were never drawn; it is meant
        for search.

        Raises:
            InvalidValueError: *player_id* is not a seat 0-3.
            InvalidTypeError: *player_id* is not an `int`.
        """
        _arguments.seat(player_id, "player_id")
        rng = random.Random(int(probability_sampler() * 2**53))  # noqa: S311 (a sample for search)
        at = self._at
        state = determinize(observe(at.state, player_id), rng)
        dealt = tuple(rng.sample(range(_CARDS), len(at.dealt)))
        resampled = PersianRummyState(self.get_game())
        resampled._at = _Position(state, dealt, at.history, at.moves, at.cap)
        return resampled

    # -- what the library adds -------------------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """
        The game's `persian_rummy.GameState`; at a chance node, as it was before the deal under way.
        """
        return self._at.state

    @property
    def public_history(self) -> tensors.History:
        """
        The public history of the game so far: what a spectator saw (`persian_rummy.rl.tensors.History`).
        """
        return self._at.history


# -- observations ------------------------------------------------------------------------------------------------------

_PRIVATE_LAYOUT: Final = (tensors.Segment("private_hand", 0, _CARDS, "the cards of the hand that only its seat knows"),)


class PersianRummyObserver:
    """
    OpenSpiel's observer of Python games, for one kind of observation (``pyspiel.IIGObservationType``).

    `set_from` fills `tensor` (and the named parts of it in `dict`) with what a player observes of
    a state, and `string_from` tells it.  The kinds:

    - public and private information with perfect recall: the information state of the seat
      (`persian_rummy.rl.tensors.information_state_tensor` of its view and the public history);
    - public and private information: the seat's observation (`persian_rummy.rl.tensors.observation_tensor`);
    - public information only: the same for a spectator's view, with or without the history;
    - private information only: the cards of the seat's hand that only it knows (56 values);
    - neither: nothing (no tensor, an empty string).

    The private information of every player at once, and private information with perfect
    recall, are not offered: asking for them raises `InvalidValueError`.

    Attributes:
        tensor: The flat ``float32`` tensor, or `None` for the observation of nothing.
        dict: The named parts of `tensor` (`persian_rummy.rl.tensors.OBSERVATION_LAYOUT` and its like).
    """

    def __init__(
        self,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Mapping[str, Any] | None = None,
        *,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        if params:
            msg = f"the observations of Persian Rummy take no parameters, got {_limits.shown(dict(params))}"
            raise InvalidValueError(msg)
        self._public = bool(iig_obs_type.public_info)
        self._recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or (
            private == pyspiel.PrivateInfoType.SINGLE_PLAYER and self._recall and not self._public
        ):
            msg = (
                "Persian Rummy offers no observation of every player's cards, nor of private cards with perfect recall"
            )
            raise InvalidValueError(msg)
        self._private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        # The one part of the tensor, named by its kind: OpenSpiel copies each part of an observer's
        # ``dict`` on its own, which for the dozens of parts of the layouts costs more than filling them.
        layout: tuple[tensors.Segment, ...] = ()
        name = ""
        if self._public:
            if self._recall:
                layout, name = tensors.information_state_layout(rules), "information_state"
            else:
                layout, name = tensors.observation_layout(rules), "observation"
        elif self._private:
            layout, name = _PRIVATE_LAYOUT, "private_hand"
        self.tensor = np.zeros(layout[-1].stop, np.float32) if layout else None
        tensor = self.tensor
        self.dict = {} if tensor is None else {name: tensor}

    def _view(self, state: PersianRummyState, player: int) -> View:
        _arguments.expect(state, PersianRummyState, "state", "a Persian Rummy state of pyspiel")
        _arguments.seat(player, "player")
        return observe(state.game_state, player if self._private else None)

    def set_from(self, state: PersianRummyState, player: int) -> None:
        """
        Fill `tensor` with what *player* observes of *state*.

        Raises:
            InvalidValueError: *player* is not a seat 0-3.
            InvalidTypeError: *state* is not a Persian Rummy state.
        """
        view = self._view(state, player)
        tensor = self.tensor
        if tensor is None:
            return
        if not self._public:
            tensor[:] = 0.0
            tensor[list(_private_cards(view))] = 1.0
        elif self._recall:
            tensor[:] = tensors.information_state_tensor(view, state.public_history)
        else:
            tensor[:] = tensors.observation_tensor(view)

    def string_from(self, state: PersianRummyState, player: int) -> str:
        """
        What *player* observes of *state*, as text.

        Raises:
            InvalidValueError: *player* is not a seat 0-3.
            InvalidTypeError: *state* is not a Persian Rummy state.
        """
        view = self._view(state, player)
        if not self._public:
            return f"private {format_cards(FULL_DECK[i] for i in _private_cards(view))}" if self._private else ""
        if self._recall:
            return tensors.information_state_string(view, state.public_history)
        return tensors.observation_string(view)


def _private_cards(view: View) -> list[int]:
    """
    The cards of the view's hand that the other seats do not know to be there, by index.
    """
    hand = view.hand
    if hand is None or view.seat is None:  # pragma: no cover (a seat's view shows its hand)
        msg = "a spectator's view has no private cards"
        raise InvalidTypeError(msg)
    mask = hand.mask & ~view.known[view.seat].mask
    return [i for i in range(_CARDS) if mask >> i & 1]


pyspiel.register_game(GAME_TYPE, PersianRummyGame)
