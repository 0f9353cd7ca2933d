"""
Hypothesis strategies for the tests: decks, rule variants, states reached by play, and actions.

States are never assembled field by field: every state comes from `new_game` followed by
deals and legal actions, so it is valid by construction and the properties test what a real
game can reach.  Two ways of choosing the actions are offered:

* `played_states` / `playouts` draw a seed and a number of steps and let ``random.Random(seed)``
  pick each action.  This is fast enough to reach the end of whole games, and a failing example
  still shrinks: towards fewer steps, seed 0, the default rules and the canonical deck order.
* `chosen_states` lets Hypothesis pick every action among ``legal_actions(state)``.  It shrinks
  action by action but is slow for long games, so keep *max_actions* small.

`actions_of` draws legal actions of a state; `well_formed_actions` draws actions of every type
that can be built, legal or not, from small domains around the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs
from attrs import frozen
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    legal_actions,
    new_game,
)
from persian_rummy import strategies as library_strategies
from persian_rummy.state import next_dealer

T = TypeVar("T")

__all__ = [
    "DECKS",
    "Playout",
    "actions_of",
    "cards",
    "chosen_states",
    "clumped_deck",
    "corner_playouts",
    "decks",
    "default_rules",
    "played_states",
    "playouts",
    "random_action",
    "rules_variants",
    "seeds",
    "well_formed_actions",
]


def cards() -> st.SearchStrategy[Card]:
    """
    Any of the 56 cards.

    Examples shrink towards the first card of `FULL_DECK`, ``2c``.
    """
    return st.sampled_from(FULL_DECK)


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """
    The 56 cards in any order.

    Examples shrink towards `FULL_DECK` in its canonical order.
    """
    return st.permutations(FULL_DECK).map(tuple)


def seeds() -> st.SearchStrategy[int]:
    """
    A seed for ``random.Random``.

    Examples shrink towards 0.
    """
    return st.integers(0, 2**32 - 1)


def default_rules() -> st.SearchStrategy[Rules]:
    """
    Persian Rummy with its default rules only.
    """
    return st.just(Rules())


def rules_variants(*, bounded: bool = False) -> st.SearchStrategy[Rules]:
    """
    `Rules` with any combination of switches, each switch's values derived from its field (see
    `persian_rummy.strategies.rules`), so a new switch is varied here with no edit.

    With *bounded*, the switches that let a deal go on for ever stay off, so that every game is
    finite (`persian_rummy.engine.max_game_length` is not `None`).

    Examples shrink towards ``Rules()``: every switch shrinks towards its default.

    `Rules.jokers_wild` (A7) is kept in one rules drawn in `WILD_ONE_IN` only: a game with wild jokers
    costs about five times as much as another (every play is also found with jokers standing for cards),
    and the tests of that switch fix it on (tests/test_jokers_wild.py, the slow reference and the brute
    force under it).
    """
    wild = st.integers(0, WILD_ONE_IN - 1)  # shrinks towards 0: jokers wild off
    return st.tuples(library_strategies.rules(bounded=bounded), wild).map(_wild_sometimes)


#: In how many rules drawn by `rules_variants` one keeps `Rules.jokers_wild` as drawn.
WILD_ONE_IN = 4


def _wild_sometimes(drawn: tuple[Rules, int]) -> Rules:
    rules, draw = drawn
    return rules if draw == WILD_ONE_IN - 1 or not rules.jokers_wild else attrs.evolve(rules, jokers_wild=False)


def _rules_strategy(rules: Rules | st.SearchStrategy[Rules] | None) -> st.SearchStrategy[Rules]:
    if rules is None:
        return default_rules()
    if isinstance(rules, Rules):
        return st.just(rules)
    return rules


def random_action(state: GameState, rng: random.Random) -> Action:
    """
    A legal action of *state* chosen by *rng*: a deal of a deck shuffled by *rng* at a chance node.

    *state* must not be over.
    """
    if state.is_chance_node:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return Deal(next_dealer(state), tuple(deck))
    return rng.choice(legal_actions(state))


@frozen(repr=False)
class Playout:
    """
    A game played from `new_game`: every state reached and every action applied.

    Attributes:
        states: The states, ``states[0]`` the start of the game; ``states[i + 1]`` is
            ``apply(states[i], actions[i])``.
        actions: The actions applied, deals included.
    """

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]

    @property
    def final(self) -> GameState:
        """
        The last state reached.
        """
        return self.states[-1]

    @property
    def steps(self) -> tuple[tuple[GameState, Action, GameState], ...]:
        """
        Each action with the state before and after it.
        """
        return tuple(zip(self.states[:-1], self.actions, self.states[1:], strict=True))

    def __repr__(self) -> str:
        # Short on purpose: Hypothesis prints it for a failing example.  The rule changes, the
        # first dealer, the length and the last actions say where the game went.
        first = self.states[0]
        last = ", ".join(repr(action) for action in self.actions[-4:])
        return (
            f"<Playout of {len(self.actions)} actions: rules changed {first.rules.changes()}, "
            f"first dealer {first.dealer}, last actions [{last}], final phase {self.final.phase.value}>"
        )

    def _repr_pretty_(self, printer: Any, _cycle: bool) -> None:
        printer.text(repr(self))


@st.composite
def playouts(
    draw: st.DrawFn,
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    max_actions: int = 300,
    dealer: int | None = None,
) -> Playout:
    """
    A game played from `new_game` for up to *max_actions* actions, deals included.

    *rules* is a `Rules`, a strategy for them (`rules_variants`) or `None` for the defaults.
    The first dealer is drawn unless *dealer* is given.  Every deal's deck is drawn with
    `decks`; the players' actions are chosen by ``random.Random(seed)`` with a drawn seed.
    Play stops after the drawn number of actions, at the end of the game, or (about one example
    in five) at the first deal boundary after that number, so chance nodes between deals and
    finished games are reached often.

    Examples shrink towards fewer actions, seed 0, the default rules, dealer 0 and decks in
    `FULL_DECK` order; the smallest example is the first deal, dealt from `FULL_DECK`.
    """
    game_rules = draw(_rules_strategy(rules))
    first = draw(st.integers(0, 3)) if dealer is None else dealer
    seed = draw(seeds())
    # Hypothesis draws the lower bound of a range often: keep the fresh game for one example in
    # sixteen or so, and let the others play at least one action.
    steps = 0 if draw(st.integers(0, 15)) == 15 else draw(st.integers(1, max_actions))
    to_boundary = draw(st.integers(0, 4)) == 4
    rng = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
    state = new_game(game_rules, dealer=first)
    states = [state]
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        if len(actions) >= steps and (not to_boundary or state.is_chance_node):
            break
        if len(actions) >= 3 * max_actions:
            break
        chance = state.is_chance_node
        action: Action = Deal(next_dealer(state), draw(decks())) if chance else rng.choice(legal_actions(state))
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return Playout(tuple(states), tuple(actions))


#: The 56 cards by suit (runs next to each other), the same with each suit's ace before its 2 (low
#: runs, A8), and by rank (sets next to each other).
BY_SUIT = FULL_DECK
ACE_FIRST = (
    tuple(card for suit in range(4) for card in (FULL_DECK[13 * suit + 12], *FULL_DECK[13 * suit : 13 * suit + 12]))
    + FULL_DECK[52:]
)
BY_RANK = tuple(sorted(FULL_DECK, key=lambda card: (card.rank, card.index)))
#: How the decks of a game are made: shuffled, or dealt in stretches of an order (`clumped_deck`).
DECKS = {"suits": BY_SUIT, "shuffled": (), "aces first": ACE_FIRST, "ranks": BY_RANK}


def clumped_deck(rng: random.Random, order: Sequence[Card], hand_size: int, swaps: int) -> tuple[Card, ...]:
    """
    A deck that deals each seat a stretch of *order* and leaves the stock in that order, from a
    random card (one time in two a multiple of 13: a suit's 2 in `BY_SUIT`), with *swaps* random
    pairs of cards then exchanged: long runs or full sets in hand, and in the stock one after another.
    """
    start = 13 * rng.randrange(4) if rng.random() < 0.5 else rng.randrange(56)
    cards_ = [*order[start:], *order[:start]]
    deck = [cards_[seat * hand_size + i] for i in range(hand_size) for seat in range(4)]
    deck += cards_[4 * hand_size :]
    for _ in range(swaps):
        i, j = rng.randrange(56), rng.randrange(56)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _deck(rng: random.Random, kind: str, hand_size: int, swaps: int) -> tuple[Card, ...]:
    """
    A deck made as *kind* of `DECKS` says.
    """
    if kind == "shuffled":
        return tuple(rng.sample(FULL_DECK, len(FULL_DECK)))
    return clumped_deck(rng, DECKS[kind], hand_size, swaps)


@st.composite
def corner_playouts(
    draw: st.DrawFn,
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    max_actions: int = 300,
) -> Playout:
    """
    A game played from `new_game` for up to *max_actions* actions, towards the corners of the
    rules: every deal's deck made as a drawn kind of `DECKS` says, mostly dealt in stretches of
    suits or ranks (`clumped_deck`), so that long runs, full sets and big hands come up; each
    action chosen by ``random.Random(seed)``, among the melds and lay-offs (when there are any)
    with a drawn probability.

    Examples shrink towards fewer choices drawn, but each one replays the game from the start.
    """
    game_rules = draw(_rules_strategy(rules))
    rng = random.Random(draw(seeds()))  # noqa: S311 (reproducible play)
    greed = draw(st.sampled_from([0.0, 0.5, 1.0]))
    kind = draw(st.sampled_from(list(DECKS)))
    swaps = draw(st.sampled_from([0, 1, 3]))
    state = new_game(game_rules, dealer=draw(st.integers(0, 3)))
    states = [state]
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER and len(actions) < max_actions:
        action: Action
        if state.is_chance_node:
            action = Deal(next_dealer(state), _deck(rng, kind, game_rules.hand_size, swaps))
        else:
            choices = legal_actions(state)
            melds = [choice for choice in choices if isinstance(choice, LayDown | LayOff)]
            action = rng.choice(melds if melds and rng.random() < greed else choices)
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return Playout(tuple(states), tuple(actions))


def played_states(
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    max_actions: int = 300,
    dealer: int | None = None,
) -> st.SearchStrategy[GameState]:
    """
    A state reached from `new_game` by deals and up to *max_actions* legal actions: the final
    state of `playouts` (same arguments), so chance nodes and finished games are included.

    Examples shrink like `playouts`, towards the first deal.
    """
    return playouts(rules=rules, max_actions=max_actions, dealer=dealer).map(lambda playout: playout.final)


@st.composite
def chosen_states(
    draw: st.DrawFn,
    *,
    rules: Rules | st.SearchStrategy[Rules] | None = None,
    max_actions: int = 40,
) -> GameState:
    """
    A state reached from `new_game` by up to *max_actions* actions, each one chosen by
    Hypothesis among the legal actions (every deal's deck drawn with `decks`).

    Examples shrink action by action, towards the first legal action of each state, and
    towards fewer actions.
    """
    game_rules = draw(_rules_strategy(rules))
    state = new_game(game_rules, dealer=draw(st.integers(0, 3)))
    for _ in range(draw(st.integers(0, max_actions))):
        if state.phase is Phase.GAME_OVER:
            break
        state = apply(state, draw(actions_of(state)))
    return state


@st.composite
def actions_of(draw: st.DrawFn, state: GameState) -> Action:
    """
    A legal action of *state*: a `Deal` by the right dealer at a chance node (its deck drawn
    with `decks`), else one of `legal_actions`.  At the end of the game there is none: every
    example is rejected, so do not draw from it there.

    Examples shrink towards the first legal action (towards `FULL_DECK` order for a deal).
    """
    if state.is_chance_node:
        return Deal(next_dealer(state), draw(decks()))
    actions = legal_actions(state)
    if not actions:
        draw(st.nothing())
    return actions[draw(st.integers(0, len(actions) - 1))]


def _pool(state: GameState) -> tuple[Card, ...]:
    """
    The cards an action of *state* is likely to name: the hand of the seat to act, the pile
    from the top down, the top cards of the stock and the table's cards, in this order.
    """
    seat = state.to_act if state.to_act is not None else 0
    table = CardSet()
    for meld in state.melds:
        table |= meld.cards
    return tuple(dict.fromkeys([*state.hands[seat], *reversed(state.discard_pile), *state.stock[:3], *table]))


def _shuffled(seed: int) -> tuple[Card, ...]:
    return tuple(random.Random(seed).sample(FULL_DECK, len(FULL_DECK)))  # noqa: S311


@st.composite
def well_formed_actions(draw: st.DrawFn, state: GameState) -> Action:
    """
    An action of any type that can be built, legal or not, from small domains around *state*.

    Seats are any of the four or the seat to act; cards come from the hand of the seat to
    act, the discard pile, the stock's top and the table, or are any card; card groups hold
    one to five cards; meld indices run from 0 to one past the last meld; deals name any seat
    and a shuffled deck.  (Actions that cannot be built at all, such as a deal whose deck
    repeats a card, are the subject of the tests of action fields.)  In about three
    examples out of ten the action is a legal one (`actions_of`), so both outcomes are common.

    Every choice is an integer drawn directly, which keeps drawing cheap.  Examples shrink
    towards `DrawStock` by seat 0, then towards the first cards of the pool and short groups.
    """
    kind = draw(st.integers(0, 9))
    if kind >= 7 and state.phase is not Phase.GAME_OVER:
        return draw(actions_of(state))
    seat_to_act = state.to_act if state.to_act is not None else 0
    seat = draw(st.integers(0, 4))
    if seat == 4:
        seat = seat_to_act
    pool = _pool(state)
    hand = tuple(state.hands[seat_to_act])

    def card() -> Card:
        i = draw(st.integers(0, len(pool) + len(FULL_DECK) - 1))
        return pool[i] if i < len(pool) else FULL_DECK[i - len(pool)]

    def group() -> CardSet:
        source = (hand, pool, FULL_DECK)[draw(st.integers(0, 2))] or FULL_DECK
        size = draw(st.integers(1, 5))
        return CardSet(dict.fromkeys(source[draw(st.integers(0, len(source) - 1))] for _ in range(size)))

    def deal() -> Deal:
        return Deal(draw(st.integers(0, 3)), _shuffled(draw(seeds())))

    builders: tuple[Callable[[], Action], ...] = (
        lambda: DrawStock(seat),
        lambda: Pass(seat),
        lambda: TakeDiscard(seat, card()),
        lambda: Discard(seat, card()),
        lambda: LayDown(seat, group()),
        lambda: LayOff(seat, draw(st.integers(0, len(state.melds))), group()),
        deal,
    )
    return builders[min(kind, 6)]()
