"""
Hypothesis strategies for persian-rummy values, and a state machine, for the tests of your own code.

This module needs Hypothesis: ``pip install 'persian-rummy[hypothesis]'``.  Nothing else in
the package imports it.

Every value a strategy generates is valid: melds are melds, decks hold the 56 cards once, and
states are reached from `new_game` by legal play, never assembled field by field, so they
pass `check_invariants` and are states a real game reaches.  Each strategy's docstring says
what it generates and towards what its examples shrink, so a failing test reports a small
example: the default rules, the deck in `FULL_DECK` order, the first cards of the deck.

>>> from hypothesis import find
>>> find(melds(), lambda meld: len(meld) == 4)
CardSet.parse('2c 3c 4c 5c')
>>> find(cards(), lambda card: card.is_joker)
Card.parse('X1')

With the package installed, Hypothesis also knows how to build its types:
``st.from_type(GameState)`` draws from `states`, ``st.from_type(Card)`` from `cards`, and so
on, without importing this module.

`GameMachine` is a Hypothesis state machine (``RuleBasedStateMachine``) that plays games and calls
hook methods on every step, so that a subclass can drive your own code (a server, a user
interface, a bot) through whole games.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from types import EllipsisType
from typing import Any, ClassVar, Final

try:
    import hypothesis.strategies
    from hypothesis import note, reject, settings
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
except ImportError as error:
    msg = "persian_rummy.strategies needs Hypothesis, which is not installed: pip install 'persian-rummy[hypothesis]'"
    raise ImportError(msg) from error

import attrs

from ._internal import phase as _phase
from ._internal import seats as _seats
from ._internal.card_strategies import card_sets, cards, decks, hands, melds
from ._internal.state_knobs import MOST_DEALS as _MOST_DEALS
from ._internal.state_knobs import Knobs as _Knobs
from ._internal.state_knobs import check_state_knobs as _check_state_knobs
from .actions import ACTION_TYPES, Action, Deal, LayDown, LayOff
from .cards import FULL_DECK, Card
from .cardsets import CardSet
from .engine import apply, legal_actions, max_deal_length, max_game_length
from .exceptions import IllegalActionError
from .melds import StandIns, TableMeld
from .rules import DEFAULT_RULES, CardValues, Rules
from .state import GameState, Phase, View, check_invariants, new_game, next_dealer
from .views import observe

__all__ = [
    "GameMachine",
    "actions",
    "card_sets",
    "card_values",
    "cards",
    "decks",
    "hands",
    "legal_actions_of",
    "melds",
    "rules",
    "states",
    "table_melds",
    "views",
]


def __dir__() -> list[str]:
    return __all__


#: How many actions a game under rules with no bound on its length (`Rules.top_discard_free`)
#: is played for at most.
_UNBOUNDED_GAME_CAP: Final = 2000
_CHANCE_PHASES: Final = _phase.CHANCE


# -- rules ----------------------------------------------------------------------------------------------------


#: Card values worth trying besides R23's table and any values: none scores, and every card 100 (R23).
_CARD_VALUES_TRIED: Final = (CardValues(*[0] * 14), CardValues(*[100] * 14))


def card_values() -> st.SearchStrategy[CardValues]:
    """
    Card values (R23, `Rules.card_values`): R23's table first, then none scoring and every card
    100, then any value from 0 to 1,000 for each rank, above the defaults as well as below them.

    Examples shrink towards R23's table.
    """
    each = st.tuples(*[st.integers(0, CardValues.MAX_VALUE)] * 14).map(lambda values: CardValues(*values))
    return st.one_of(st.just(CardValues()), st.sampled_from(_CARD_VALUES_TRIED), each)


#: The strategies of the switches whose values are structured, by type; none of them changes
#: whether deals end (`max_deal_length` does not read it), so ``bounded`` leaves them as they are.
_STRUCTURED: Final[dict[type, Callable[[], st.SearchStrategy[Any]]]] = {CardValues: card_values}


def _values(field: attrs.Attribute[Any]) -> tuple[object, ...] | None:
    """
    The values worth trying for one field of `Rules`, its default first: every member of an
    enumeration, both values of a boolean, and for a number the values its ``tried`` metadata
    names; `None` for a structured switch, which `_STRUCTURED` draws.

    Raises:
        TypeError: the switch is of a kind this module cannot draw, or a number lists no values to try.
    """
    default = field.default
    if isinstance(default, bool):
        return (default, not default)
    if isinstance(default, enum.Enum):
        return (default, *(member for member in type(default) if member is not default))
    if type(default) is int:
        if "tried" not in field.metadata:
            msg = (
                f"persian_rummy.strategies cannot draw the rule switch {field.name}: a number lists the values"
                " to try in its metadata (rules._about(rule, tried=...))"
            )
            raise TypeError(msg)
        return (default, *field.metadata["tried"])
    if type(default) in _STRUCTURED:
        return None
    msg = (
        f"persian_rummy.strategies cannot draw the rule switch {field.name}: its default {default!r} is not a"
        " boolean, an enumeration, a number nor a structured value with a strategy in strategies._STRUCTURED"
    )
    raise TypeError(msg)


def _bounds_games(name: str, value: object) -> bool:
    """
    Whether Persian Rummy with the switch *name* set to *value* keeps every deal finite.
    """
    changes: dict[str, Any] = {name: value}
    return max_deal_length(attrs.evolve(DEFAULT_RULES, **changes)) is not None


# The values to try for each switch, derived from the fields of `Rules`, and those that keep games
# finite; the structured switches are drawn by their strategies.
_ALL_VALUES: Final = {field.name: _values(field) for field in attrs.fields(Rules)}
_VALUES: Final = {name: values for name, values in _ALL_VALUES.items() if values is not None}
_BOUNDED_VALUES: Final = {
    name: tuple(value for value in values if _bounds_games(name, value)) for name, values in _VALUES.items()
}
_DRAWN: Final = {
    field.name: _STRUCTURED[type(field.default)] for field in attrs.fields(Rules) if _ALL_VALUES[field.name] is None
}


def _default_first(name: str, *, bounded: bool, min_deals: int) -> st.SearchStrategy[Any]:
    if name in _DRAWN:
        return _DRAWN[name]()
    values = (_BOUNDED_VALUES if bounded else _VALUES)[name]
    if name == "num_deals":
        values = tuple(n for n in values if type(n) is int and n >= min_deals) or (min(min_deals, _MOST_DEALS - 1),)
    return st.sampled_from(values)


def _rules(*, bounded: bool, min_deals: int = 1) -> st.SearchStrategy[Rules]:
    fields = {name: _default_first(name, bounded=bounded, min_deals=min_deals) for name in _ALL_VALUES}
    return st.builds(Rules, **fields)


def rules(*, bounded: bool = True) -> st.SearchStrategy[Rules]:
    """
    `Rules` with any combination of switches: every value of every enumeration, both values of
    every boolean, hand sizes 1 to 13, one to three deals, a few going-out bonuses, and card
    values (R23) from 0 to 1,000 for each rank, none scoring and every card 100 among them.
    The values come from the fields of `Rules` (a number's ``tried`` metadata, a structured
    switch's strategy), so a new switch of a known kind is varied as soon as it is declared,
    and importing this module fails, naming the switch, for one of a kind it cannot draw.

    With *bounded* (the default) the switches that let a deal go on for ever
    (`Rules.top_discard_free`, `Rules.reshuffle_on_empty_stock`) stay off, so that every game
    has a bounded length (`max_game_length` is not `None`); ``bounded=False`` allows them too.

    Examples shrink towards ``Rules()``: every switch shrinks towards its default.
    """
    raw: object = bounded
    if type(raw) is not bool:
        msg = f"bounded must be True or False, got {bounded!r}"
        raise InvalidArgument(msg)
    return _rules(bounded=bounded)


# -- states ---------------------------------------------------------------------------------------------------


def _random_action(state: GameState, rng: random.Random) -> Action:
    if state.is_chance_node:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return Deal(next_dealer(state), tuple(deck))
    return rng.choice(legal_actions(state))


@st.composite
def _reachable(draw: st.DrawFn, game_rules: st.SearchStrategy[Rules], knobs: _Knobs) -> GameState:
    """
    Play one game and stop at a state that meets *knobs*: after a drawn number of such states,
    or at the last one of the game.

    The game is played only as far as the state it stops at, and every example draws as many
    choices before playing, so examples shrink towards the first state that meets the knobs,
    in short games.
    """
    chosen_rules = draw(game_rules)
    if knobs.deal is not None and knobs.deal > chosen_rules.max_deals:
        reject()
    first_dealer = draw(st.integers(0, 3))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))  # noqa: S311 (reproducible play, not cryptography)
    # One example in five goes on to the last state that meets the knobs: the end of a game or
    # of a deal is then common, although it is one state among hundreds.
    to_last = draw(st.integers(0, 4)) == 4
    # Hypothesis draws the lower bound of a range far more often than any other value: the
    # number of states to skip is drawn in two parts, so that fewer examples stop at the first.
    step = knobs.expected(chosen_rules) // 10 + 1
    skip = draw(st.integers(0, 9)) * step + draw(st.integers(0, step - 1))
    longest = max_game_length(chosen_rules) or _UNBOUNDED_GAME_CAP
    cap = longest if knobs.max_actions is None else min(longest, knobs.max_actions)
    state, last, count = new_game(chosen_rules, dealer=first_dealer), None, 0
    while True:
        if knobs.met(state, count):
            if skip == 0 and not to_last:
                return state
            skip, last = skip - 1, state
        if count >= cap or state.phase is Phase.GAME_OVER or knobs.passed(state, count):
            break
        deal = state.is_chance_node
        action: Action = Deal(next_dealer(state), draw(decks())) if deal else rng.choice(legal_actions(state))
        state, count = apply(state, action), count + 1
    if last is None:
        reject()
    return last


def _rules_argument(value: object, *, min_deals: int) -> st.SearchStrategy[Rules]:
    if value is None:
        return _rules(bounded=True, min_deals=min_deals)
    if isinstance(value, Rules):
        return st.just(value)
    if isinstance(value, st.SearchStrategy):
        return value
    msg = f"rules must be Rules, a strategy for them or None, got {value!r}"
    raise InvalidArgument(msg)


def states(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    deal: int | None = None,
    phase: Phase | str | None = None,
    min_actions: int = 0,
    max_actions: int | None = None,
) -> st.SearchStrategy[GameState]:
    """
    States reached from `new_game` by legal play: deals, then the players' legal actions.

    Every state passes `check_invariants`, and chance nodes (before a deal), finished deals
    and finished games are among them.  The knobs narrow them down:

    - *rules*: a `Rules`, a strategy for them, or `None` (the default) for any bounded
      variant, as `rules` draws them;
    - *deal*: only states of this deal (1, 2, ...; 0 is the start of the game), including the
      end of the deal;
    - *phase*: only states in this `Phase`;
    - *min_actions*, *max_actions*: only states reached by this many actions from
      `new_game`, deals included; by default any number, up to the end of the game.

    For example ``states(phase=Phase.PLAY, deal=2, min_actions=30)`` gives states in the
    middle of a turn of the second deal.  A game that cannot meet the knobs (one that ends
    before *min_actions*, or a drawn variant with fewer deals than *deal*) is rejected, and
    another one is drawn; knobs that no game can meet raise an error.

    Each example plays one game as far as the state it gives: every deal's deck is drawn
    with `decks`, and the players' choices come from ``random.Random`` with a drawn seed,
    which keeps drawing fast.  Examples shrink towards short games, the default rules,
    dealer 0, seed 0, decks in `FULL_DECK` order, and the first state of the game that meets
    the knobs: without knobs, towards ``new_game()``.

    Raises:
        hypothesis.errors.InvalidArgument: a knob has the wrong type or range, or no game
            can meet them: phase `Phase.DEAL` with a deal other than 0 or with actions, or
            with fixed *rules*, a deal beyond their last deal or more actions than their longest game.
    """
    chosen_phase = _check_state_knobs(rules, deal, phase, min_actions, max_actions)
    game_rules = _rules_argument(rules, min_deals=deal or 1)
    return _reachable(game_rules, _Knobs(deal, chosen_phase, min_actions, max_actions))


def table_melds() -> st.SearchStrategy[TableMeld]:
    """
    Melds found on the table of states reached by play (under any bounded rules), with who laid
    down and laid off each card.

    Examples shrink as `states` do, towards the first meld laid down in a short game.
    """
    with_melds = _reachable(_rules(bounded=True), _Knobs(where=lambda state: bool(state.melds)))
    return with_melds.flatmap(lambda state: st.sampled_from(state.melds))


# -- actions --------------------------------------------------------------------------------------------------


def legal_actions_of(state: GameState | View) -> st.SearchStrategy[Action]:
    """
    A legal action in *state*: one of `legal_actions`, or at a chance node a `Deal` by the
    next dealer with a deck drawn by `decks`.

    *state* may be a `View` of the seat to act, as for `legal_actions`.  When the game is over
    there is no legal action and every example is rejected, so do not draw from it there.

    Examples shrink towards the first of `legal_actions` (in the draw phase, a draw from the
    stock), and a deal towards `FULL_DECK`.

    Raises:
        hypothesis.errors.InvalidArgument: *state* is not a `GameState` or a `View`.
        ViewError: *state* is a view of another seat than the one to act.
    """
    raw: object = state
    if not isinstance(raw, GameState | View):
        msg = f"state must be a GameState or a View, got {state!r}"
        raise InvalidArgument(msg)
    if state.phase in _CHANCE_PHASES:
        dealer = next_dealer(state)
        return decks().map(lambda deck: Deal(dealer, deck))
    if state.phase is Phase.GAME_OVER:
        return st.nothing()
    return st.sampled_from(legal_actions(state))


_SEATS: Final = st.sampled_from(_seats.SEATS)
# How each field of an action is drawn for a well-formed action, without a state, by name.
_FIELD_STRATEGIES: Final[dict[str, Callable[[], st.SearchStrategy[Any]]]] = {
    "seat": lambda: _SEATS,
    "card": cards,
    "cards": lambda: st.one_of(card_sets(min_size=1, max_size=5), melds()),
    "meld": lambda: st.integers(0, 7),
    "deck": decks,
}


def _fields(kind: type[Action]) -> tuple[str, ...]:
    # The stand-ins (A7) keep their default here: an action drawn alone is checked against the
    # rules it meets, and jokers wild come from the rules' own strategy.
    return tuple(field.name for field in attrs.fields(kind) if field.name != "stand_ins")


def _well_formed(kind: type[Action]) -> st.SearchStrategy[Any]:
    """
    Well-formed actions of one type, legal or not in any state: seats 0-3, any cards,
    melds or small card sets, small meld indices, decks holding every card once.
    """
    return st.builds(kind, **{name: _FIELD_STRATEGIES[name]() for name in _fields(kind)})


# The action types, simplest first: fewer fields first, the deal last; examples shrink towards the first.
_ACTION_TYPES: Final = tuple(sorted(ACTION_TYPES, key=lambda kind: (kind is Deal, len(_fields(kind)))))


def _pool(state: GameState) -> tuple[Card, ...]:
    """
    The cards an action in *state* is likely to name, in this order: the hand of the seat to
    act, the discard pile from the top down, the top of the stock, the table's cards, the rest.
    """
    seat = state.to_act if state.to_act is not None else next_dealer(state)
    table = [card for meld in state.melds for card in meld.cards]
    return tuple(
        dict.fromkeys([*state.hands[seat], *reversed(state.discard_pile), *state.stock[:3], *table, *FULL_DECK])
    )


@st.composite
def _actions_around(draw: st.DrawFn, state: GameState, only: type[Action] | None) -> Action:
    # One draw picks the type, or a legal action (three in ten), so that every example takes
    # as many choices and examples shrink towards the first type, not towards legal actions.
    kind = draw(st.integers(0, 9))
    acting = state.to_act if state.to_act is not None else next_dealer(state)
    seat = draw(st.sampled_from((acting, *(s for s in range(4) if s != acting))))
    if kind >= len(_ACTION_TYPES):
        if state.phase is not Phase.GAME_OVER:
            action = draw(legal_actions_of(state))
            if only is None or type(action) is only:
                return action
        kind = 0
    pool = _pool(state)
    hand = tuple(state.hands[acting]) or pool

    def card() -> Card:
        return draw(st.sampled_from(pool))

    def group(most: int) -> CardSet:
        source = pool if draw(st.booleans()) else hand
        return CardSet(
            draw(st.lists(st.sampled_from(source), min_size=1, max_size=min(most, len(source)), unique=True))
        )

    values: dict[str, Callable[[], object]] = {
        "seat": lambda: seat,
        "card": card,
        "cards": lambda: group(5),
        "meld": lambda: draw(st.integers(0, len(state.melds))),
        "deck": lambda: draw(decks()),
    }
    chosen = _ACTION_TYPES[kind] if only is None else only
    fields: dict[str, Any] = {name: values[name]() for name in _fields(chosen)}
    if state.rules.jokers_wild and (chosen is LayDown or chosen is LayOff):
        fields["stand_ins"] = draw(_stand_ins_for(fields["cards"], pool))
    return chosen(**fields)


@st.composite
def _stand_ins_for(draw: st.DrawFn, cards: CardSet, pool: tuple[Card, ...]) -> StandIns:
    """
    Stand-ins for the jokers of *cards* under `Rules.jokers_wild` (A7): none, or some of the jokers
    each standing for a natural card, mostly one of *pool* (the cards around the state), once each.
    """
    jokers = [card for card in cards if card.is_joker]
    if not jokers or not draw(st.booleans()):
        return StandIns()
    naturals = [card for card in dict.fromkeys([*pool, *FULL_DECK]) if not card.is_joker]
    standing = draw(st.lists(st.sampled_from(jokers), min_size=1, max_size=len(jokers), unique=True))
    stood = draw(st.lists(st.sampled_from(naturals), min_size=len(standing), max_size=len(standing), unique=True))
    return StandIns(zip(standing, stood, strict=True))


def actions(state: GameState | None = None, *, kind: type[Action] | None = None) -> st.SearchStrategy[Action]:
    """
    Well-formed actions of every type (or of the type *kind*), legal or not: each field holds a value of its type and
    range (seats 0-3, real cards, meld indices from 0, decks that hold every card once), but
    the action need not be one the rules allow.  Use them to check that your code rejects
    what `apply` rejects.

    Without *state*, the actions are built from any seat, any card, melds and small card sets
    and meld indices 0-7.  With a *state*, they are built around it: the cards come mostly
    from the hand of the seat to act, the discard pile, the top of the stock and the table,
    meld indices run up to one past the last meld, and about three actions in ten are legal
    ones (`legal_actions_of`), so that both outcomes are common.  Under `Rules.jokers_wild`, a
    lay-down or a lay-off that holds jokers has, one time in two, some of them standing for
    natural cards (A7), mostly cards around the state; legal plays with jokers come among the
    legal actions, and the states of `states` hold melds with stand-ins as play lays them.

    Examples shrink towards ``DrawStock(0)`` (with a *state*, a draw by the seat to act),
    then towards short card groups and the first cards.

    Raises:
        hypothesis.errors.InvalidArgument: *state* is not a `GameState` or `None`, or *kind*
            is not an action type or `None`.
    """
    if kind is not None and kind not in _ACTION_TYPES:
        msg = f"kind must be an action type or None, got {kind!r}"
        raise InvalidArgument(msg)
    if state is None:
        return st.one_of(*(_well_formed(chosen) for chosen in _ACTION_TYPES if kind in {None, chosen}))
    raw: object = state
    if not isinstance(raw, GameState):
        msg = f"state must be a GameState or None, got {state!r}"
        raise InvalidArgument(msg)
    return _actions_around(state, kind)


# -- views ----------------------------------------------------------------------------------------------------


def _check_seat(seat: object) -> int | None:
    if seat is not None and not _seats.is_seat(seat):
        msg = f"seat must be 0-3 or None (the public view), got {seat!r}"
        raise InvalidArgument(msg)
    return seat


@st.composite
def _views(
    draw: st.DrawFn,
    source: st.SearchStrategy[GameState],
    seat: int | EllipsisType | st.SearchStrategy[int | None] | None,
) -> View:
    state = draw(source)
    if seat is ...:
        first = state.to_act if state.to_act is not None else 0
        chosen = draw(st.sampled_from((first, *(s for s in range(4) if s != first), None)))
    elif isinstance(seat, st.SearchStrategy):
        chosen = _check_seat(draw(seat))
    else:
        chosen = seat
    return observe(state, chosen)


def _any_states() -> st.SearchStrategy[GameState]:
    return states()


def views(
    *,
    states: GameState | st.SearchStrategy[GameState] | None = None,
    seat: int | EllipsisType | st.SearchStrategy[int | None] | None = ...,
) -> st.SearchStrategy[View]:
    """
    Views (`observe`) of reachable states: what one seat, or a spectator, sees of them.

    *states* is a `GameState`, a strategy for them, or `None` (the default) for the states of
    the function `states` without knobs.  *seat* is a seat 0-3, `None` for the public view,
    a strategy for either, or ``...`` (the default) to draw one: the seat to act, another
    seat, or the public view.  Every view passes `check_view`.

    Examples shrink as the states do, and towards the view of the seat to act (seat 0 where
    no seat is to act).

    Raises:
        hypothesis.errors.InvalidArgument: *states* or *seat* is not one of the above.
    """
    source: st.SearchStrategy[GameState]
    raw: object = states
    if raw is None:
        source = _any_states()
    elif isinstance(raw, GameState):
        source = st.just(raw)
    elif isinstance(raw, st.SearchStrategy):
        source = raw
    else:
        msg = f"states must be a GameState, a strategy for them or None, got {states!r}"
        raise InvalidArgument(msg)
    if seat is not ... and not isinstance(seat, st.SearchStrategy):
        _check_seat(seat)
    return _views(source, seat)


# -- the state machine ----------------------------------------------------------------------------------------


def _not_over(machine: GameMachine) -> bool:
    return machine.state.phase is not Phase.GAME_OVER


class GameMachine(RuleBasedStateMachine):
    """
    A Hypothesis state machine that plays games of Persian Rummy and reports every step to
    hook methods: subclass it to drive your own code through the same games.

    Each run starts a game under rules drawn from `rules_strategy` (`on_start`), deals, and
    then, step by step, plays a legal action, plays on for a run of random legal actions, or
    tries a well-formed action from `actions`.  Every action that applies is reported to
    `on_apply`; an action that is not legal must raise `IllegalActionError` and leave the state
    as it was, and is reported to `on_reject`.  After every step the state must pass
    `check_invariants`; a failing run prints the position after each step.

    Run it as any Hypothesis state machine, ``TestGames = MyMachine.TestCase``.  A run has
    `step_count` steps; when you give the class settings of your own
    (``@settings(...)`` or ``TestCase.settings``), set ``stateful_step_count`` there.

    Attributes:
        state: The current state; `new_game` until the game starts.
        history: Every action applied since the start of the game, deals included.
    """

    #: The rules games are played under: a strategy for `Rules`; by default any bounded
    #: variant (`rules`).  Set ``st.just(Rules())`` for Persian Rummy's own rules only.
    rules_strategy: ClassVar[hypothesis.strategies.SearchStrategy[Rules]] = _rules(bounded=True)
    #: The number of steps of a run (Hypothesis's ``stateful_step_count``).
    step_count: ClassVar[int] = 50

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        steps = cls.step_count
        if type(steps) is not int or steps < 1:
            msg = f"step_count must be an int of at least 1, got {steps!r}"
            raise InvalidArgument(msg)
        cls.TestCase.settings = settings(cls.TestCase.settings, stateful_step_count=steps)

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState = new_game()
        self.history: list[Action] = []

    # -- hooks ----------------------------------------------------------------------------------------------

    def on_start(self, state: GameState) -> None:
        """
        Called when a game starts, with its first state (before the first deal).

        Does nothing by default.
        """

    def on_apply(self, before: GameState, action: Action, after: GameState) -> None:
        """
        Called after each action that applied: a deal, a legal action, or one of the tried
        actions that turned out legal; *after* is ``apply(before, action)``.

        Does nothing by default.
        """

    def on_reject(self, state: GameState, action: Action, error: IllegalActionError) -> None:
        """
        Called after `apply` rejected *action* in *state* with *error*, as it had to.

        Does nothing by default.
        """

    # -- rules ----------------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        before = self.state
        after = apply(before, action)
        self.state = after
        self.history.append(action)
        self.on_apply(before, action, after)

    @initialize(
        game_rules=st.runner().flatmap(lambda machine: machine.rules_strategy),
        dealer=st.integers(0, 3),
        deck=decks(),
    )
    def start(self, game_rules: Rules, dealer: int, deck: tuple[Card, ...]) -> None:
        """
        Start a game under *game_rules* with *dealer* to deal first, and deal *deck*.
        """
        self.state = new_game(game_rules, dealer=dealer)
        self.history = []
        self.on_start(self.state)
        self._apply(Deal(dealer, deck))

    @precondition(_not_over)
    @rule(action=st.runner().flatmap(lambda machine: legal_actions_of(machine.state)))
    def play(self, action: Action) -> None:
        """
        Play a legal action (a deal at a chance node).
        """
        self._apply(action)

    @precondition(_not_over)
    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 100))
    def play_on(self, seed: int, count: int) -> None:
        """
        Play up to *count* legal actions chosen by ``random.Random(seed)``, deals included,
        to reach the ends of deals and games in few steps.
        """
        rng = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
        for _ in range(count):
            if self.state.phase is Phase.GAME_OVER:
                break
            self._apply(_random_action(self.state, rng))

    @rule(action=st.runner().flatmap(lambda machine: actions(machine.state)))
    def try_action(self, action: Action) -> None:
        """
        Try a well-formed action: it applies if it is legal, else `apply` must raise
        `IllegalActionError` and the state must be unchanged.
        """
        before = self.state
        snapshot = attrs.evolve(before)
        try:
            after = apply(before, action)
        except IllegalActionError as error:
            if snapshot != before or self.state is not before:
                msg = f"rejecting {action!r} changed the state"
                raise AssertionError(msg) from error
            self.on_reject(before, action, error)
            return
        self.state = after
        self.history.append(action)
        self.on_apply(before, action, after)

    @invariant()
    def state_is_valid(self) -> None:
        """
        The state passes `check_invariants`.  A failing run prints the position after each step.
        """
        note(f"position: {self.state!r}")
        check_invariants(self.state)
