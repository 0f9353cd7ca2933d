"""
Players: anything that, shown the view of the seat to act, chooses a legal action.

A player is a value with a ``choose(view, rng)`` method (the `Player` protocol).  It sees only
the `View` of its seat, never the state, and draws any randomness it needs from the
``random.Random`` it is given, so a game between players replays exactly from the seeds of
their random sources.

>>> import random
>>> from persian_rummy import Deal, FULL_DECK, apply, new_game, observe
>>> state = apply(new_game(), Deal(0, FULL_DECK))
>>> action = RandomPlayer().choose(observe(state, state.to_act), random.Random(1))
>>> from persian_rummy import legal_actions
>>> action in legal_actions(state)
True

The ready players, weakest first: `RandomPlayer`, `GreedyPlayer` (a heuristic, fast enough to
play out thousands of deals a second), `PIMCPlayer` (determinizes the view and plays each action
out with a policy) and `ISMCTSPlayer` (a Monte Carlo tree search over what its seat knows).
`make_player` builds them from their names, with a budget for the searches: ``"pimc:200"``.
``"learned"`` names a network trained for the package, `persian_rummy.rl.policy.LearnedPlayer`,
which lives with the learning interfaces since it needs numpy.

>>> state = apply(new_game(), Deal(0, FULL_DECK))
>>> view = observe(state, state.to_act)
>>> [make_player(name).choose(view, random.Random(1)) for name in ("greedy", "pimc:8", "ismcts:8")]
[DrawStock(seat=1), DrawStock(seat=1), DrawStock(seat=1)]

Players are small immutable values: a match copies the same player into many games and
processes.  Whatever a player works out for one decision lives inside `Player.choose`.  A player
that keeps a memory of the game (a `persian_rummy.events.Listener`) gets a fresh copy for each game and is told every
action as its seat saw it.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, Protocol, TypeGuard, runtime_checkable

from attrs import field, frozen

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..engine import apply, legal_actions, max_deal_length
from ..exceptions import InvalidTypeError, InvalidValueError
from ..rules import DEFAULT_RULES, Rules
from ..scoring import score_deal
from ..state import GameState, View
from ..views import determinize, observe
from . import _loading
from ._greedy import choice as _greedy
from .heuristics import Chooser, Policy, Until, rollout

if TYPE_CHECKING:
    from attrs import Attribute

    from ..actions import PlayerAction

__all__ = [
    "MAX_BUDGET_COUNT",
    "MAX_BUDGET_SECONDS",
    "PLAYER_NAMES",
    "GreedyPlayer",
    "ISMCTSPlayer",
    "LegalActionsPlayer",
    "PIMCPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]


def __dir__() -> list[str]:
    return __all__


@runtime_checkable
class Player(Chooser, Protocol):
    """
    Chooses an action for the seat to act, from what that seat sees.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        A legal action for the seat of *view*, which is the seat to act.

        Args:
            view: The view of the seat to act (``view.seat == view.to_act``).
            rng: The player's own random source; the only randomness it may use.
        """
        ...


@runtime_checkable
class LegalActionsPlayer(Player, Protocol):
    """
    A player that looks at nothing but the legal actions of the seat to act (and its random source).

    Its ``choose_among(actions, rng)`` returns what ``choose(view, rng)`` returns for any view
    whose legal actions are *actions*, drawing the same from *rng*.  A match calls ``choose_among``
    with ``legal_actions(state)`` and makes no view for it: the legal actions tell nothing the
    seat's view would not.  `RandomPlayer` is one.
    """

    def choose_among(self, actions: tuple[PlayerAction, ...], rng: random.Random) -> PlayerAction:
        """
        One of *actions*, the legal actions of the seat to act, in `persian_rummy.legal_actions` order.
        """
        ...


def _check_rng(rng: object) -> None:
    if type(rng) is not random.Random:
        _arguments.expect(rng, random.Random, "rng", "a random.Random")


def _check_view(view: object) -> None:
    if type(view) is not View:
        _arguments.expect(view, View, "view", "a View")


def _to_weigh(view: View, rng: random.Random) -> tuple[PlayerAction, ...]:
    """
    The actions a search weighs, its arguments checked; with one action, nothing to weigh.
    """
    _check_view(view)
    _check_rng(rng)
    return legal_actions(view)


def _check_actions(actions: object) -> None:
    _arguments.expect(actions, tuple, "actions", "a tuple of actions")
    if not actions:
        msg = "actions must hold the legal actions of the seat to act, got none"
        raise InvalidValueError(msg)


def _check_state(state: object) -> None:
    if type(state) is not GameState:
        _arguments.expect(state, GameState, "state", "a GameState")


@frozen
class RandomPlayer:
    """
    Chooses uniformly at random among the legal actions.

    The baseline every other player is measured against.  Called as a function on a full
    state, ``RandomPlayer()(state, rng)``, it is a `persian_rummy.bots.heuristics.Policy` for
    `persian_rummy.bots.heuristics.rollout`.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        One of the legal actions of *view*, each as likely.

        Raises:
            ViewError: *view* is not the view of the seat to act.
            ChanceNodeError: the next action is a deal.
            InvalidTypeError: *view* is not a `View`, or *rng* not a ``random.Random``.
        """
        if type(view) is not View or type(rng) is not random.Random:  # a match calls it at every decision
            _check_view(view)
            _check_rng(rng)
        return rng.choice(legal_actions(view))

    def choose_among(self, actions: tuple[PlayerAction, ...], rng: random.Random) -> PlayerAction:
        """
        One of *actions*, each as likely: the action `choose` picks from a view whose legal actions
        are *actions*, with the same draw from *rng* (`LegalActionsPlayer`).

        >>> from persian_rummy import Deal, DrawStock, FULL_DECK, apply, legal_actions, new_game, observe
        >>> state = apply(apply(new_game(), Deal(0, FULL_DECK)), DrawStock(1))
        >>> len(legal_actions(state))
        8
        >>> RandomPlayer().choose_among(legal_actions(state), random.Random(2))
        Discard(seat=1, card=Card.parse('2c'))
        >>> RandomPlayer().choose(observe(state, 1), random.Random(2))
        Discard(seat=1, card=Card.parse('2c'))

        Raises:
            InvalidValueError: *actions* is empty.
            InvalidTypeError: *actions* is not a tuple, or *rng* not a ``random.Random``.
        """
        if type(actions) is not tuple or not actions or type(rng) is not random.Random:  # a match calls it often
            _check_actions(actions)
            _check_rng(rng)
        return rng.choice(actions)

    def __call__(self, state: GameState, rng: random.Random) -> PlayerAction:
        """
        One of the legal actions of *state*, each as likely.
        """
        return rng.choice(legal_actions(state))


# -- the greedy player -------------------------------------------------------------------------------------------


@frozen
class GreedyPlayer:
    """
    A fast heuristic player that plays for the points it can score at once.

    Its algorithm, one decision at a time, with no randomness (ties go to the action listed
    first by `legal_actions`):

    - **melding**: when it can lay down or lay off, it plays the action that puts the most
      points on the table, a set of four laid down at once counted double (R25, A20;
      `persian_rummy.bots.heuristics.meld_value`).  It melds whatever it can, turn after turn, and so
      goes out as soon as its cards allow (R19).
    - **drawing**: it takes from the discard pile only when that pays.  A hand is reckoned worth
      the points it could meld at once (laying down its most valuable meld while there is one,
      then laying off what extends a meld on the table), less half the points of the cards it
      would keep.  It takes the card that adds most to that worth, if the gain is above 2 points
      (what a card from the stock is reckoned to bring); with an empty stock, if the gain is
      positive, and otherwise it passes (R21).
    - **calling "Rummy!"** (`Rules.rummy_calls`, A24): it calls whenever it is asked, since the
      lay-off that follows only adds the card's points to its team's, and then lays the card off
      where it scores most.
    - **discarding**: it discards the card that helps least towards a meld: each card counts 6
      for each card of its rank in hand, 4 for each card next to it in its suit and 2 for each
      card two places from it; of the cards that count least, the one of most points goes.
    - **wild jokers** (`Rules.jokers_wild`, A7): a joker in hand is reckoned as melded, since it
      fits some meld sooner or later, so a joker on the pile is taken when it may be; it is the
      last card it discards; and it melds as above, the most points first (a joker scores its own
      value whatever it stands for).

    A decision costs a few times a `legal_actions` call.  Called as a function on a full state,
    ``GreedyPlayer()(state, rng)``, it is a `persian_rummy.bots.heuristics.Policy`: the fast path of
    `persian_rummy.bots.heuristics.rollout`, which reads the seat's hand from the state and sees no
    more than its view would show.

    >>> from persian_rummy import parse_position
    >>> state = parse_position("- 1/N play E 2c3c4c/5c6c2dKdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -")
    >>> GreedyPlayer()(state, random.Random(0))
    LayDown(seat=1, cards=CardSet.parse('Kd Kh Ks'))
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        The greedy action for the seat of *view*, the seat to act.

        Raises:
            ViewError: *view* is not the view of the seat to act.
            ChanceNodeError: the next action is a deal.
            InvalidTypeError: *view* is not a `View`, or *rng* not a ``random.Random``.
        """
        _check_view(view)
        _check_rng(rng)
        actions = legal_actions(view)
        return _greedy(view, view.hand.mask if view.hand is not None else 0, actions)

    def __call__(self, state: GameState, rng: random.Random) -> PlayerAction:  # noqa: ARG002 (a Policy's signature)
        """
        The greedy action for the seat to act in the full state *state*: the same action as
        ``choose(observe(state, state.to_act), rng)``, faster.
        """
        _check_state(state)
        actions = legal_actions(state)
        seat = state.to_act
        return _greedy(state, 0 if seat is None else state.hands[seat].mask, actions)


# -- searches: the budget and the rollouts -----------------------------------------------------------------------


def _positive_int(_: object, attribute: Attribute[int], value: object) -> None:
    if type(value) is not int:
        msg = f"{attribute.name} must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < 1:
        msg = f"{attribute.name} must be 1 or more, got {value!r}"
        raise InvalidValueError(msg)


def _seconds(_: object, attribute: Attribute[float | None], value: object) -> None:
    if value is None:
        return
    if type(value) is not int and type(value) is not float:
        msg = f"{attribute.name} must be a number of seconds or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 < value < math.inf:
        msg = f"{attribute.name} must be more than 0 and finite, got {value!r}"
        raise InvalidValueError(msg)


def _policy(_: object, attribute: Attribute[Policy | Chooser], value: Policy | Chooser) -> None:
    if not callable(value) and not callable(getattr(value, "choose", None)):
        msg = f"{attribute.name} must be a policy or a player, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


class _Budget:
    """
    The budget of one decision: a number of steps, or seconds of wall-clock time; at least one step.
    """

    __slots__ = ("deadline", "left")

    def __init__(self, steps: int, seconds: float | None) -> None:
        self.left = steps
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def spend(self) -> bool:
        """
        Whether one more step may be taken; if so, it is counted.
        """
        if self.deadline is not None:
            if self.left > 0:
                self.left = 0
                return True
            return time.perf_counter() < self.deadline
        self.left -= 1
        return self.left >= 0


def _rollout_bound(rules: Rules) -> int:
    """
    How many actions a rollout may take: the longest a deal can be, or 2,000 under rules where
    deals have no bound (A9, A18).
    """
    return max_deal_length(rules) or 2_000


def _deal_margin(state: GameState, deal: int, team: int) -> int:
    """
    Team *team*'s margin in deal number *deal*, played out in *state*: from its result once it
    is over, else from the table and hands as they are (a rollout stopped short).
    """
    results = state.results
    if results and results[-1].deal == deal:
        totals = results[-1].totals
    else:
        totals = score_deal(state.hands, state.melds, None, rules=state.rules).totals
    return totals[team] - totals[1 - team]


@frozen
class PIMCPlayer:
    """
    Perfect-information Monte Carlo: tries every legal action in sampled full states.

    The algorithm, for each decision with more than one legal action (a lone legal action is
    returned at once):

    1. deal the cards its seat cannot see at random (`persian_rummy.determinize`);
    2. in that sample, apply each legal action in turn and play the deal out to its end with
       *policy* (`persian_rummy.bots.heuristics.rollout`), every action from the same seed of the
       rollout's random source, so that the actions are compared on the same luck;
    3. score each rollout as the deal's margin for its team (its points minus the other team's,
       R24), and repeat from 1. while the budget lasts;
    4. play the action with the best mean margin (the first listed among equals).

    Attributes:
        rollouts: Rollouts per decision, shared among the legal actions: ``rollouts // n``
            samples for *n* actions, and at least one.
        seconds: Instead, the wall-clock time per decision, at least one sample.  Play then
            depends on the machine's speed and load and is not reproducible.
        policy: How the rollouts play, for all four seats: a `persian_rummy.bots.heuristics.Policy`
            or a player (`GreedyPlayer` by default).

    The same seed gives the same choice (with a budget in rollouts).  A decision costs about
    *rollouts* deals played out by *policy*.

    >>> from persian_rummy import parse_position
    >>> state = parse_position("- 1/N play E 2c3c4c/KdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -")
    >>> PIMCPlayer(rollouts=100).choose(observe(state, 1), random.Random(0))  # East goes out
    LayDown(seat=1, cards=CardSet.parse('Kd Kh Ks'))
    """

    rollouts: int = field(default=100, validator=_positive_int)
    seconds: float | None = field(default=None, validator=_seconds)
    policy: Policy | Chooser = field(factory=GreedyPlayer, validator=_policy)

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        The action with the best mean deal margin over the rollouts.

        Raises:
            ViewError: *view* is not the view of the seat to act.
            ChanceNodeError: the next action is a deal.
            InvalidTypeError: *view* is not a `View`, or *rng* not a ``random.Random``.
        """
        actions = _to_weigh(view, rng)
        if len(actions) == 1:
            return actions[0]
        totals = [0] * len(actions)
        budget = _Budget(max(1, self.rollouts // len(actions)), self.seconds)
        bound = _rollout_bound(view.rules)
        team = view.seat_to_act & 1
        while budget.spend():
            sample = determinize(view, rng)
            seed = rng.getrandbits(64)
            for i, action in enumerate(actions):
                luck = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
                final = rollout(apply(sample, action), self.policy, luck, Until.DEAL, max_actions=bound)
                totals[i] += _deal_margin(final, view.deal, team)
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return actions[best]


# -- information-set Monte Carlo tree search ---------------------------------------------------------------------

#: Deal margins are divided by this for the tree's statistics, under R23's card values (a deck of
#: 476 points), so that UCB1's exploration constant has a usual size; `_margin_scale` follows
#: other values.
_MARGIN_SCALE: Final = 100.0
_R23_DECK: Final = DEFAULT_RULES.card_values.deck_points


@functools.lru_cache(maxsize=64)
def _margin_scale(rules: Rules) -> float:
    """
    What deal margins are divided by under *rules*: 100 points for R23's deck of 476, in
    proportion to the deck's points under other card values (R23), so that the exploration
    constant means the same; when no card scores, the going-out bonus, or 1 when there is none.
    """
    deck = rules.card_values.deck_points
    return _MARGIN_SCALE * deck / _R23_DECK if deck else float(max(abs(rules.go_out_bonus), 1))


class _Edge:
    """
    An action out of an information set: how often it was tried, the total reward of the seat
    that chose it, and how often it was legal when its information set was visited.
    """

    __slots__ = ("available", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0


def _select(
    edges: dict[PlayerAction, _Edge], actions: tuple[PlayerAction, ...], explore: float, rng: random.Random
) -> tuple[PlayerAction, bool]:
    """
    The action to follow from an information set whose *edges* are known, among the *actions*
    legal in this sample: an untried one at random (and `True`, the tree grows), else by UCB1
    with the availability counts.
    """
    untried = []
    for action in actions:
        edge = edges.get(action)
        if edge is None:
            untried.append(action)
        else:
            edge.available += 1
    if untried:
        action = rng.choice(untried)
        edges[action] = edge = _Edge()
        edge.available = 1
        return action, True
    best, best_score = actions[0], -math.inf
    for action in actions:
        edge = edges[action]
        score = edge.reward / edge.visits + explore * math.sqrt(math.log(edge.available) / edge.visits)
        if score > best_score:
            best, best_score = action, score
    return best, False


@frozen
class ISMCTSPlayer:
    """
    Single-observer information-set Monte Carlo tree search (SO-ISMCTS) with UCB1.

    One tree is grown for the seat that chooses (the observer).  Its nodes are the observer's
    information sets: a node is keyed by the observer's `View` of the position, hashable and
    equal for all positions the observer cannot tell apart.  Every action of the game is public
    but for the card a `DrawStock` brings, so below the root a node stands for the actions
    played since, and for the cards the observer itself drew; the other seats' draws from the
    stock, which it does not see, share a node.  Each node holds, for each action chosen there
    (by whichever seat was to act), its visits, the total reward of the seat that chose it and
    how often it was legal.

    Each iteration:

    1. deals the cards the observer cannot see at random (`persian_rummy.determinize`);
    2. walks down from the root: among the actions legal in the sample, an untried one is
       added to the tree and followed, which ends the walk; else the action maximising
       ``mean + explore * sqrt(ln(available) / visits)`` (UCB1 counting, as the availability
       counts do, only the visits in which the action was legal);
    3. plays the deal out with *policy* (`persian_rummy.bots.heuristics.rollout`);
    4. credits each action of the walk with the deal's margin for the team of the seat that
       chose it, divided by 100 (R24).

    It then plays the root's most visited action (the first listed among equals).  A lone
    legal action is returned at once.

    Attributes:
        iterations: Iterations per decision.
        seconds: Instead, the wall-clock time per decision, at least one iteration.  Play
            then depends on the machine's speed and load and is not reproducible.
        explore: UCB1's exploration constant, for margins in hundreds of points (in units of
            a deck's points over 4.76 under other card values, R23).
        policy: How the rollouts play: a `persian_rummy.bots.heuristics.Policy` or a player
            (`GreedyPlayer` by default).

    >>> from persian_rummy import parse_position
    >>> state = parse_position("- 1/N play E 2c3c4c/KdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -")
    >>> ISMCTSPlayer(iterations=40).choose(observe(state, 1), random.Random(0))  # East goes out
    LayDown(seat=1, cards=CardSet.parse('Kd Kh Ks'))
    """

    iterations: int = field(default=500, validator=_positive_int)
    seconds: float | None = field(default=None, validator=_seconds)
    explore: float = field(default=0.7)
    policy: Policy | Chooser = field(factory=GreedyPlayer, validator=_policy)

    @explore.validator
    def _check_explore(self, attribute: Attribute[float], value: object) -> None:
        if type(value) is not int and type(value) is not float:
            msg = f"{attribute.name} must be a number, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)
        if not 0 <= value < math.inf:
            msg = f"{attribute.name} must be 0 or more and finite, got {value!r}"
            raise InvalidValueError(msg)

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        The root's most visited action after the search.

        Raises:
            ViewError: *view* is not the view of the seat to act.
            ChanceNodeError: the next action is a deal.
            InvalidTypeError: *view* is not a `View`, or *rng* not a ``random.Random``.
        """
        actions = _to_weigh(view, rng)
        if len(actions) == 1:
            return actions[0]
        tree: dict[View, dict[PlayerAction, _Edge]] = {}
        budget = _Budget(self.iterations, self.seconds)
        observer = view.seat_to_act  # the view's seat, as legal_actions checked
        while budget.spend():
            self._iterate(view, observer, tree, rng)
        root = tree[view]
        best = max(range(len(actions)), key=lambda i: (root[actions[i]].visits if actions[i] in root else 0, -i))
        return actions[best]

    def _iterate(
        self, view: View, observer: int, tree: dict[View, dict[PlayerAction, _Edge]], rng: random.Random
    ) -> None:
        state = determinize(view, rng)
        path: list[tuple[_Edge, int]] = []
        grown = False
        seat = state.to_act
        while not grown and seat is not None:  # a seat acts: the tree goes down through the turns
            edges = tree.setdefault(observe(state, observer), {})
            action, grown = _select(edges, legal_actions(state), self.explore, rng)
            path.append((edges[action], seat))
            state = apply(state, action)
            seat = state.to_act
        final = rollout(state, self.policy, rng, Until.DEAL, max_actions=_rollout_bound(view.rules))
        margin = _deal_margin(final, view.deal, 0) / _margin_scale(view.rules)
        for edge, seat in path:
            edge.visits += 1
            edge.reward += margin if seat & 1 == 0 else -margin


# -- names -------------------------------------------------------------------------------------------------------

#: Where the learned player lives: above the bots, with the learning interfaces, since it needs numpy.
_LEARNED: Final = "persian_rummy.rl.policy:LearnedPlayer"


def _learned() -> Player:
    """
    The learned player, `persian_rummy.rl.policy.LearnedPlayer`: loaded as a player of a module is,
    when it is asked for, since it needs numpy (the extra ``numpy`` or ``rl``).

    Raises:
        InvalidValueError: numpy is missing (the error is chained), saying which extra to install.
    """
    try:
        found = _loading.load(_LEARNED, "learned")
    except InvalidValueError as error:
        cause = error.__cause__
        if isinstance(cause, ModuleNotFoundError) and cause.name == "numpy":
            msg = "the learned player needs numpy: pip install 'persian-rummy[numpy]' (or the rl extra)"
            raise InvalidValueError(msg) from cause
        raise  # pragma: no cover (the package's own module is always there)
    return _player(_loading.build(found, "", "learned"), "learned")


# `persian-rummy players` names the class each ready name builds.
_learned.__name__ = _learned.__qualname__ = "LearnedPlayer"

#: The ready players by the name the command line and `make_player` know them by, each with its
#: default budget.
PLAYER_NAMES: Final[Mapping[str, Callable[[], Player]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "pimc": PIMCPlayer,
    "ismcts": ISMCTSPlayer,
    "learned": _learned,
}

# The searches' budgets, by name: the field a count goes to.
_BUDGETS: Final = {"pimc": "rollouts", "ismcts": "iterations"}
#: The largest count of rollouts or iterations a search's name may give, per decision
#: (``"pimc:100000"``): a larger one would hardly ever end a game.
MAX_BUDGET_COUNT: Final = 100_000
#: The most seconds per decision a search's name may give (``"ismcts:60s"``).
MAX_BUDGET_SECONDS: Final = 60.0


def _budget(name: str, text: str, spec: str) -> dict[str, int | float]:
    field_name = _BUDGETS.get(name)
    if field_name is None:
        msg = f"the player {name!r} takes no budget, got {_limits.shown(text)}"
        raise InvalidValueError(msg)
    budget: dict[str, int | float] | None = None
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            budget = {"seconds": seconds} if 0 < seconds < math.inf else None
        elif text.isdigit() and int(text) > 0:
            budget = {field_name: int(text)}
    except ValueError:
        budget = None
    if budget is None:
        msg = (
            f"a budget is a whole number of {field_name} or a number of seconds such as '2s', got {_limits.shown(text)}"
        )
        raise InvalidValueError(msg)
    if budget.get("seconds", 0) > MAX_BUDGET_SECONDS or budget.get(field_name, 0) > MAX_BUDGET_COUNT:
        most = f"{MAX_BUDGET_SECONDS:g} seconds or {MAX_BUDGET_COUNT:,}"
        msg = f"a budget of at most {most} per decision, got {_limits.shown(spec)}"
        raise InvalidValueError(msg)
    return budget


def make_player(spec: str) -> Player:
    """
    The player *spec* names: a ready player, a player an installed package registers, or one of a module.

    * A name of `PLAYER_NAMES`, and for a search an optional budget after a colon, a count
      (``"pimc:200"``, rollouts per decision; ``"ismcts:500"``, iterations) or seconds per
      decision (``"pimc:0.5s"``), at most `MAX_BUDGET_COUNT` and `MAX_BUDGET_SECONDS`.
    * A name an installed package registers (entry points ``persian_rummy.players``), with
      optional arguments after a colon (``"cautious:depth=2"``).
    * ``module:attribute[:arguments]``: the class or factory *attribute* of *module*, called with
      the arguments (``"mybots:Cautious:3,bold=True"``; docs/players.md says how they are written).

    >>> make_player("greedy"), make_player("pimc:200"), make_player("ismcts:1.5s")
    (GreedyPlayer(), PIMCPlayer(rollouts=200, seconds=None, policy=GreedyPlayer()), \
ISMCTSPlayer(iterations=500, seconds=1.5, explore=0.7, policy=GreedyPlayer()))
    >>> make_player("persian_rummy.bots.players:PIMCPlayer:rollouts=8")
    PIMCPlayer(rollouts=8, seconds=None, policy=GreedyPlayer())

    Raises:
        InvalidValueError: no player has that name, the budget is not one, the module cannot be
            imported or lacks the attribute, building the player failed (the error raised is
            chained), or what was built is not a player.
        InvalidTypeError: *spec* is not a `str`.
    """
    _arguments.expect(spec, str, "spec", "a player's name")
    name, colon, budget = spec.partition(":")
    make = PLAYER_NAMES.get(name)
    if make is not None:
        return make(**_budget(name, budget, spec)) if colon else make()
    return _elsewhere(spec)


def _elsewhere(spec: str) -> Player:
    """
    The player of an entry point or a module that *spec*, which names no ready player, names.
    """
    registered = _loading.entry_points()
    name, colon, rest = spec.partition(":")
    if name in registered:
        built = _loading.build(_loading.load(registered[name], spec), rest, spec)
    elif colon:
        attribute, _, text = rest.partition(":")
        built = _loading.build(_loading.load(f"{name}:{attribute}", spec), text, spec)
    else:
        known = ", ".join(sorted({*PLAYER_NAMES, *registered}))
        msg = f"no player is called {_limits.shown(name)}; the players are {known}, or module:attribute"
        raise InvalidValueError(msg)
    return _player(built, spec)


def _player(built: object, spec: str) -> Player:
    """
    *built*, what the player *spec* names, if it is a player: a value, not a class, with a ``choose``.
    """
    if not _is_player(built):
        msg = f"{_limits.shown(spec)} built {_limits.shown(built)}, which is not a player: it has no choose(view, rng)"
        raise InvalidValueError(msg)
    return built


def _is_player(value: object) -> TypeGuard[Player]:
    return not isinstance(value, type) and callable(getattr(value, "choose", None))
