"""
Building blocks for players and searches: the melds and lay-offs some cards allow, what a meld
scores, margins and returns of a deal or a game, and playing a position out with a policy.

The melds a hand can lay down (R9-R12, A8), and what each scores as laid down, the four-at-once
doubling counted (R25, A20):

>>> [(str(meld), meld_value(meld)) for meld in possible_melds("5c 5d 5h 5s 6h 7h Ks")]
[('5c 5d 5h 5s', 40), ('5d 5h 5s', 15), ('5c 5h 5s', 15), ('5c 5d 5s', 15), ('5c 5d 5h', 15), ('5h 6h 7h', 18)]

The lay-offs they allow onto a table, as (index of the meld, cards) pairs (R17):

>>> from persian_rummy import TableMeld
>>> table = (TableMeld(1, "8h 9h Th"), TableMeld(0, "Kc Kd Kh"))
>>> [(meld, str(cards)) for meld, cards in possible_layoffs("6h 7h Ks", table)]
[(0, '7h'), (0, '6h 7h'), (1, 'Ks')]

A deal's or a game's margin for a team, its total minus the other team's, and the returns of
the four seats (partners sit opposite, R1):

>>> from persian_rummy import score_deal
>>> result = score_deal(("", "X1", "Ac 7s", ""), table, went_out=0)
>>> result.totals, team_margin(result, 0), seat_returns(result)
((33, 7), 26, (26, -26, 26, -26))

`rollout` plays a full state forward with a policy, to the end of the deal or of the game; here
a whole game between four greedy players:

>>> import random
>>> from persian_rummy import new_game
>>> from persian_rummy.bots.players import GreedyPlayer
>>> final = rollout(new_game(), GreedyPlayer(), random.Random(5), until="game")
>>> final.phase, [result.totals for result in final.results], seat_returns(final)
(<Phase.GAME_OVER: 'game_over'>, [(224, 142), (124, 181)], (25, -25, 25, -25))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Final, Protocol, TypeAlias

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..actions import PlayerAction
from ..cards import Card
from ..cardsets import CardSet
from ..choices import Choice
from ..engine import apply, is_deal_over, is_game_over, random_deal
from ..exceptions import InvalidTypeError, InvalidValueError
from ..masks import lay_downs, lay_offs, meld_points
from ..melds import StandIns, TableMeld
from ..rules import DEFAULT_RULES, Rules
from ..scoring import DealScore
from ..state import GameState, View
from ..views import observe

__all__ = [
    "Chooser",
    "Policy",
    "Until",
    "meld_value",
    "possible_layoffs",
    "possible_melds",
    "rollout",
    "seat_returns",
    "team_margin",
]


def __dir__() -> list[str]:
    return __all__


_NO_STAND_INS: Final = StandIns()


def _rules(rules: Rules) -> Rules:
    if type(rules) is not Rules:
        _arguments.expect(rules, Rules, "rules", "a Rules")
    return rules


# -- melds and lay-offs ------------------------------------------------------------------------------------------


def possible_melds(cards: Iterable[Card | str] | CardSet | str, rules: Rules = DEFAULT_RULES) -> tuple[CardSet, ...]:
    """
    Every meld that can be laid down from *cards* under *rules*, each once: the sets by rank
    (the four of a rank, then each three of them, leaving out each card in turn), the joker
    sets, then the runs suit by suit, from their lowest card, shortest first (R9-R12, A7).
    With `Rules.ace_low_allowed`, the runs that take the ace low follow, suit by suit (A8).  Jokers
    count as R11 has them: under `Rules.jokers_wild` the melds with jokers standing for cards are
    `persian_rummy.legal_actions`' lay-downs with stand-ins (A7).

    These are exactly the groups of *cards* for which `is_meld` is true, in the order in which
    `legal_actions` offers them as `LayDown` actions.

    Args:
        cards: A `CardSet`, or cards or their notation, one by one or as one text.
        rules: The rules; only `Rules.ace_low_allowed` changes the answer.

    Raises:
        InvalidTypeError: *cards* are not cards, *rules* not a `Rules`, or *stand_ins* not a `StandIns`.

    >>> [str(meld) for meld in possible_melds("2c 3c 4c 5c X1 X2 X3")]
    ['X1 X2 X3', '2c 3c 4c', '2c 3c 4c 5c', '3c 4c 5c']
    >>> [str(meld) for meld in possible_melds("Ad 2d 3d 4d", Rules(ace_low_allowed=True))]
    ['2d 3d 4d', '2d 3d Ad', '2d 3d 4d Ad']
    """
    mask = _arguments.cards(cards, "cards").mask
    ace_low = _rules(rules).ace_low_allowed
    return tuple(CardSet(meld) for meld in lay_downs(mask, ace_low=ace_low))


def _table(melds: Sequence[TableMeld], rules: Rules) -> tuple[TableMeld, ...]:
    raw: object = melds
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        msg = f"melds must be a sequence of TableMeld values, got {_limits.shown(melds)}"
        raise InvalidTypeError(msg)
    for meld in melds:
        _arguments.expect(meld, TableMeld, "melds", "TableMeld values")
        if meld.ace_low is not rules.ace_low_allowed:
            msg = (
                f"the meld {meld.cards} has ace_low={meld.ace_low}, but the rules have "
                f"ace_low_allowed={rules.ace_low_allowed} (A8)"
            )
            raise InvalidValueError(msg)
    return tuple(melds)


def possible_layoffs(
    cards: Iterable[Card | str] | CardSet | str, melds: Sequence[TableMeld], rules: Rules = DEFAULT_RULES
) -> tuple[tuple[int, CardSet], ...]:
    """
    Every group of *cards* that can be laid off onto a meld of *melds* in one action, as
    ``(index of the meld in melds, cards)`` pairs: meld by meld, a set's missing card, then for
    a run the cards that extend it below, nearest first, then above it (R17, A11).

    A run is extended at one end per action: ``6s 5s`` onto ``7s 8s 9s`` is one lay-off, a card
    at each end two (A11).  These are the `LayOff` actions `legal_actions` offers, in its order.

    Args:
        cards: A `CardSet`, or cards or their notation.
        melds: The melds on the table, such as ``state.melds``.
        rules: The rules the melds lie under.

    Raises:
        InvalidValueError: a meld's `TableMeld.ace_low` is not the rules' `Rules.ace_low_allowed`
            (no game has such a table, A8).
        InvalidTypeError: *cards* are not cards, *melds* not `TableMeld` values, or *rules*
            not a `Rules`.

    >>> from persian_rummy import TableMeld
    >>> table = [TableMeld(2, "2s 3s 4s", ace_low=True), TableMeld(1, "X1 X2 X3", ace_low=True)]
    >>> [(meld, str(cards)) for meld, cards in possible_layoffs("As 5s 6s X4", table, Rules(ace_low_allowed=True))]
    [(0, 'As'), (0, '5s'), (0, '5s 6s'), (1, 'X4')]
    """
    mask = _arguments.cards(cards, "cards").mask
    table = _table(melds, _rules(rules))
    return tuple((k, CardSet(part)) for k, meld in enumerate(table) for part in lay_offs(meld, mask))


def meld_value(
    cards: Iterable[Card | str] | CardSet | str, rules: Rules = DEFAULT_RULES, *, stand_ins: StandIns = _NO_STAND_INS
) -> int:
    """
    The points *cards* score for their team when laid down together as one meld: their points
    under *rules* (R23, `Rules.card_values`), doubled for a set of four laid down at once (R25; not under
    ``Rules(double_four_of_a_kind=False)``) and, with `Rules.double_four_card_runs`, for a
    run of exactly four (A20).

    A set completed later by a lay-off is never doubled: each card laid off scores its own
    points for the team of the seat that laid it off (R26).  With wild jokers (`Rules.jokers_wild`,
    A7) *stand_ins* names the cards the jokers among *cards* stand for: the meld is what they
    represent, and each joker scores its own points; four laid down at once double, jokers included.

    Raises:
        InvalidMeldError: *cards* are not a meld under *rules*.
        InvalidTypeError: *cards* are not cards, or *rules* not a `Rules`.

    >>> meld_value("Js Jh Jd Jc"), meld_value("Js Jh Jd"), meld_value("X1 X2 X3 X4")  # W2, W1, W3
    (80, 30, 160)
    >>> meld_value("Js Qs Ks As"), meld_value("Js Qs Ks As", Rules(double_four_card_runs=True))  # W9
    (45, 90)
    >>> meld_value("5h X1 7h", Rules(jokers_wild=True), stand_ins=StandIns.parse("X1=6h"))  # 5 + 20 + 7
    32
    """
    mask = _arguments.cards(cards, "cards").mask
    rules = _rules(rules)
    represented = mask
    _arguments.expect(stand_ins, StandIns, "stand_ins", "a StandIns")
    if stand_ins:
        represented = (mask & ~stand_ins.jokers.mask) | stand_ins.cards.mask
    return meld_points(mask, rules, represents=represented)


# -- margins and returns -----------------------------------------------------------------------------------------


def _totals(result: DealScore | Sequence[DealScore] | GameState | View) -> tuple[int, int]:
    raw: object = result
    if type(raw) is DealScore:
        return raw.totals
    if isinstance(raw, GameState | View):
        results: Sequence[DealScore] = raw.results
    elif isinstance(raw, Sequence) and not isinstance(raw, str):
        results = raw
        for item in results:
            _arguments.expect(item, DealScore, "result", "DealScore values")
    else:
        msg = f"result must be a DealScore, a sequence of them, a GameState or a View, got {_limits.shown(result)}"
        raise InvalidTypeError(msg)
    return sum(r.teams[0].total for r in results), sum(r.teams[1].total for r in results)


def team_margin(result: DealScore | Sequence[DealScore] | GameState | View, team: int) -> int:
    """
    Team *team*'s total minus the other team's, over *result*: one deal's `DealScore`, the
    results of several deals, or a `GameState` or `View`, whose finished deals count (at the
    end of the game, the whole game, R28).  Team 0 is seats 0 and 2, team 1 seats 1 and 3 (R1).

    The game is zero-sum in margins: the two teams' margins add up to 0.

    Raises:
        InvalidValueError: *team* is not 0 or 1.
        InvalidTypeError: *result* is none of the above, or *team* not an `int`.

    >>> from persian_rummy import DealScore
    >>> from persian_rummy.scoring import TeamScore
    >>> deals = [DealScore(1, (TeamScore(total=128), TeamScore(total=57)), 0, "went_out"),
    ...          DealScore(2, (TeamScore(total=-12), TeamScore(total=95)), 1, "went_out")]
    >>> team_margin(deals, 0), team_margin(deals, 1), team_margin(deals[0], 0)  # W16
    (-36, 36, 71)
    """
    if type(team) is not int:
        msg = f"team must be 0 or 1, got {_limits.shown(team)}"
        raise InvalidTypeError(msg)
    if team not in {0, 1}:
        msg = f"team must be 0 or 1, got {team!r}"
        raise InvalidValueError(msg)
    totals = _totals(result)
    return totals[team] - totals[1 - team]


def seat_returns(result: DealScore | Sequence[DealScore] | GameState | View) -> tuple[int, int, int, int]:
    """
    Each seat's return over *result* (as `team_margin` takes it): the margin of its team, so
    partners get the same return and opponents opposite ones (R1, R24).

    Raises:
        InvalidTypeError: *result* is not a `DealScore`, a sequence of them, a `GameState` or a `View`.

    >>> from persian_rummy import new_game
    >>> seat_returns(new_game())
    (0, 0, 0, 0)
    """
    team_0, team_1 = _totals(result)
    margin = team_0 - team_1
    return (margin, -margin, margin, -margin)


# -- rollouts ----------------------------------------------------------------------------------------------------


class Until(Choice):
    """
    How far `rollout` plays.
    """

    #: To the end of the current deal: `Phase.DEAL_OVER`, or `Phase.GAME_OVER` after the last deal.
    DEAL = "deal"
    #: To the end of the game, `Phase.GAME_OVER`, dealing the deals still to come.
    GAME = "game"


#: A policy for `rollout`: shown a full state (whose seat to act is to choose) and a random
#: source, it returns a legal action of that seat.  A `GreedyPlayer` or a `RandomPlayer` of
#: `persian_rummy.bots.players` is one.
Policy: TypeAlias = Callable[[GameState, random.Random], PlayerAction]


class Chooser(Protocol):
    """
    Anything that chooses from a view: every `persian_rummy.bots.players.Player` is one.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        A legal action for the seat of *view*, which is the seat to act.
        """
        ...


#: Whether a rollout has come as far as it plays.
_STOPS: Final[dict[Until, Callable[[GameState], bool]]] = {Until.DEAL: is_deal_over, Until.GAME: is_game_over}


def _policy_of(policy: Policy | Chooser) -> Policy:
    if callable(policy):
        return policy
    if not callable(getattr(policy, "choose", None)):
        msg = f"policy must be a function of a state and a random source, or a player, got {_limits.shown(policy)}"
        raise InvalidTypeError(msg)
    choose = policy.choose

    def on_views(state: GameState, rng: random.Random) -> PlayerAction:
        return choose(observe(state, state.seat_to_act), rng)

    return on_views


def _limit(value: object) -> int | None:
    return _arguments.optional_count(value, "max_actions", 0)


def rollout(
    state: GameState,
    policy: Policy | Chooser,
    rng: random.Random,
    until: Until | str = Until.DEAL,
    *,
    max_actions: int | None = None,
) -> GameState:
    """
    The state reached by playing *state* forward, every seat choosing with *policy*, to the end
    of the current deal or of the game (*until*).

    At a chance node the cards are dealt by ``random_deal(state, rng)``.  *state* is a full
    state: to play out from what one seat knows, start from ``determinize(view, rng)``.  A
    state already there is returned as it is.

    Args:
        state: Where to start.
        policy: A function ``policy(state, rng)`` returning a legal action of the seat to act
            (a `Policy`; fastest), or a player, which chooses from the view of the seat to act
            (a `Chooser`).  A value that is both, such as `persian_rummy.bots.players.GreedyPlayer`,
            is called as a function.
        rng: The random source of the policy and of the deals; the same seed gives the same play.
        until: `Until.DEAL` (``"deal"``) or `Until.GAME` (``"game"``).
        max_actions: Stop after this many actions (the deals included) even short of the end:
            a bound for rules under which a deal may never end (`persian_rummy.engine.max_deal_length`).

    Raises:
        IllegalActionError: *policy* returned an action that is not legal.
        InvalidValueError: *until* is neither, or *max_actions* is negative.
        InvalidTypeError: an argument of the wrong type.
    """
    _arguments.expect(state, GameState, "state", "a GameState")
    _arguments.expect(rng, random.Random, "rng", "a random.Random")
    stop = _STOPS[Until(until)]
    limit = _limit(max_actions)
    choose = _policy_of(policy)
    count = 0
    while not stop(state) and (limit is None or count < limit):
        action = random_deal(state, rng) if state.to_act is None else choose(state, rng)
        state = apply(state, action)
        count += 1
    return state
