"""
The reducer: `apply`, `legal_actions` and the questions about how a game stands.

`apply` is pure: it returns a new state and never changes the one passed in;
it uses no randomness (a deal's card order arrives inside the `Deal` action).
An action that may not be applied raises `IllegalActionError`, naming the
action, the reason and the rule.

>>> import random
>>> from persian_rummy import DrawStock, new_game
>>> state = apply(new_game(), random_deal(new_game(), random.Random(7)))
>>> state.phase, state.to_act, [len(hand) for hand in state.hands], len(state.stock)
(<Phase.DRAW: 'draw'>, 1, [7, 7, 7, 7], 27)
>>> legal_actions(state)[0]
DrawStock(seat=1)
>>> apply(state, DrawStock(seat=2))
Traceback (most recent call last):
...
persian_rummy.exceptions.IllegalActionError: illegal action DrawStock(seat=2): it is seat 1's turn, not seat 2's (R6)
"""

from __future__ import annotations

import random

from attrs import frozen

from . import _transitions
from ._cardlogic import (
    DISCARDS,
    DRAW,
    IMMEDIATE,
    NO_TABLE,
    PLAY,
    TAKE,
    THREE_JOKERS,
    discard_row,
    forbidden_discards,
    lay_down,
    lay_down_masks,
    lay_off,
    lay_off_masks,
    run_lay_downs,
    set_masks,
    table_info,
    takeable,
    usable,
)
from ._tables import GROUP, GROUP_OTHERS, ROW, ROW_RUNS, RUN_OK, RUN_WINDOW, group_melds
from ._transitions import HANDLERS
from .actions import DRAW_STOCK, PASS, Action, Deal, PlayerAction
from .cards import FULL_DECK
from .exceptions import ChanceNodeError, IllegalActionError
from .melds import TableMeld
from .rules import EmptyStockEnd, Rules, TieBreak
from .state import GameState, Phase
from .views import View, ViewError, stand_in

__all__ = [
    "Outcome",
    "apply",
    "check_legal",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "legal_actions",
    "max_deal_length",
    "max_game_length",
    "next_dealer",
    "outcome",
    "random_deal",
]


def __dir__() -> list[str]:
    return __all__


# -- legal actions ---------------------------------------------------------------------------------------------


def legal_actions(state: GameState | View) -> tuple[PlayerAction, ...]:
    """
    Every legal action of the seat to act, and nothing else, in a fixed order.

    *state* may also be the `View` of the seat to act: its legal actions are the same
    whatever the cards it cannot see.

    In the draw phase: `DrawStock`, then `TakeDiscard` from the top of the pile
    down, then `Pass`.  In the play phase: `LayDown` (sets by rank, then runs by
    suit), `LayOff` (by meld), then `Discard` (in `FULL_DECK` order).  After the
    game there are none.

    Raises:
        ChanceNodeError: the next action is a `Deal`, which is not chosen by a player.
        ViewError: *state* is a view of another seat than the one to act.
    """
    if isinstance(state, View):
        return _view_actions(state)
    phase = state.phase
    if phase is DRAW:
        return _draw_actions(state)
    if phase is PLAY:
        return _play_actions(state)
    if phase is Phase.GAME_OVER:
        return ()
    msg = f"the next action is a Deal by seat {next_dealer(state)}: build one with random_deal(state, rng)"
    raise ChanceNodeError(msg)


def _view_actions(view: View) -> tuple[PlayerAction, ...]:
    if view.to_act is not None and view.seat != view.to_act:
        who = "a spectator" if view.seat is None else f"seat {view.seat}"
        msg = f"the view of {who} does not show the cards of seat {view.to_act}, whose turn it is"
        raise ViewError(msg)
    return legal_actions(stand_in(view))


def _draw_actions(state: GameState) -> tuple[PlayerAction, ...]:
    seat: int = state.to_act  # type: ignore[assignment]
    stock = state.stock
    pile = state.discard_pile
    rules = state.rules
    actions: list[PlayerAction] = [DRAW_STOCK[seat]] if stock else []
    if pile:
        take = TAKE[seat]
        avail = state.hands[seat].mask
        direct, far, _ = table_info(state) if rules.obligation_by_layoff else NO_TABLE
        i = len(pile) - 1
        if stock and rules.top_discard_free:
            t = pile[i].index
            actions.append(take[t])
            avail |= 1 << t
            i -= 1
        while i >= 0:
            t = pile[i].index
            i -= 1
            # takeable() inlined for the common cases: onto a meld by itself, or in a new meld.
            others = avail & GROUP_OTHERS[t]
            if direct >> t & 1 or others & (others - 1) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]:
                actions.append(take[t])
            elif far >> t & 1 and avail << 1 >> t & 5 and takeable(t, avail, state):
                # a card beyond a run's end, with a neighbour in hand that may bridge the gap
                actions.append(take[t])
            avail |= 1 << t
    if not stock:
        actions.append(PASS[seat])
    return tuple(actions)


def _play_actions(state: GameState) -> tuple[PlayerAction, ...]:  # noqa: C901, PLR0912 (hot path, kept inline)
    seat: int = state.to_act  # type: ignore[assignment]
    hand = state.hands[seat].mask
    if state.obligation is not None:
        return _pending_actions(state, seat, hand, state.obligation.index)
    actions: list[PlayerAction] = []
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    three = (a & b & (c | d)) | (c & d & (a | b))
    if three or hand >> 52 in THREE_JOKERS:
        actions.extend([lay_down(seat, mask) for mask in set_masks(hand, three)])
    for suit, row in ((0, a), (1, b), (2, c), (3, d)):
        if row & row >> 1 & row >> 2:
            actions.extend(run_lay_downs(seat, suit, row))
    melds = state.melds
    if hand & table_info(state)[0]:
        for k, meld in enumerate(melds):
            if hand & meld.ends:
                actions.extend([lay_off(seat, k, mask) for mask in lay_off_masks(meld, hand)])
    if state.picked.mask:
        hand &= ~forbidden_discards(state, hand)
        a = hand & ROW
        b = hand >> 13 & ROW
        c = hand >> 26 & ROW
        d = hand >> 39 & ROW
    discards = DISCARDS[seat]
    if a:
        actions.extend(discards[0].get(a) or discard_row(seat, 0, a))
    if b:
        actions.extend(discards[1].get(b) or discard_row(seat, 1, b))
    if c:
        actions.extend(discards[2].get(c) or discard_row(seat, 2, c))
    if d:
        actions.extend(discards[3].get(d) or discard_row(seat, 3, d))
    if hand >> 52:
        actions.extend(discards[4][hand >> 52])
    return tuple(actions)


def _pending_actions(state: GameState, seat: int, hand: int, t: int) -> tuple[PlayerAction, ...]:
    """
    The play-phase actions while card *t*, taken from the discard pile, is still to be played (R15, A10, A11).

    With the immediate obligation only melds and lay-offs that contain it;
    otherwise also any meld or lay-off that leaves it a way to be played.
    """
    rules = state.rules
    by_layoff = rules.obligation_by_layoff
    melds = state.melds
    if rules.obligation_timing is IMMEDIATE:
        return _actions_with(seat, hand, t, melds if by_layoff else ())
    bit = 1 << t
    table = [meld.cards.mask for meld in melds] if by_layoff else []
    actions: list[PlayerAction] = [
        lay_down(seat, mask)
        for mask in lay_down_masks(hand)
        if mask & bit or usable(t, hand & ~mask, [*table, mask] if by_layoff else ())
    ]
    for k, meld in enumerate(melds):
        if not hand & meld.ends:
            continue
        for mask in lay_off_masks(meld, hand):
            if mask & bit:
                keep = by_layoff
            else:
                after = table.copy()
                if after:
                    after[k] |= mask
                keep = usable(t, hand & ~mask, after)
            if keep:
                actions.append(lay_off(seat, k, mask))
    return tuple(actions)


def _actions_with(seat: int, hand: int, t: int, melds: tuple[TableMeld, ...]) -> tuple[PlayerAction, ...]:
    """
    The melds and lay-offs (onto *melds*) from *hand* that contain card *t*, in `legal_actions` order.
    """
    bit = 1 << t
    group = hand & GROUP[t]
    actions: list[PlayerAction] = (
        [lay_down(seat, mask) for mask in group_melds(group) if mask & bit] if group.bit_count() >= 3 else []
    )
    if t < 52:
        shift = t - t % 13
        offset = t - shift
        actions.extend(lay_down(seat, run << shift) for run in ROW_RUNS[hand >> shift & ROW] if run >> offset & 1)
    for k, meld in enumerate(melds):
        if hand & meld.ends:
            actions.extend(lay_off(seat, k, mask) for mask in lay_off_masks(meld, hand) if mask & bit)
    return tuple(actions)


def apply(state: GameState, action: Action) -> GameState:
    """
    The state after *action*; *state* itself is never changed.

    Raises:
        IllegalActionError: *action* may not be applied to *state*: not an action,
            wrong phase, wrong seat, a card that is not where the action needs it,
            a meld that is not valid, a rule broken.  The error names the rule.
    """
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError(action, "not an action of this game", "R13")
    return handler(state, action)


def check_legal(state: GameState, action: Action) -> None:
    """
    Raise `IllegalActionError` when *action* may not be applied to *state*; return `None` otherwise.
    """
    apply(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    """
    Whether *action* may be applied to *state*.

    For a player's action this agrees with ``action in legal_actions(state)``, seats and
    meld indices being `int` values (``True == 1`` in Python, so ``DrawStock(True)`` compares
    equal to ``DrawStock(1)``, but a seat must be an `int` and is refused otherwise).
    """
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


# -- dealing and the end of the game ---------------------------------------------------------------------------


def next_dealer(state: GameState) -> int:
    """
    The seat that deals the next deal: the first dealer before the game, then as `Rules.next_dealer` says (A4).

    During a deal, the seat that will deal the following one.
    """
    return _transitions.next_dealer(state)


def random_deal(state: GameState, rng: random.Random) -> Deal:
    """
    A `Deal` for the next deal of *state*, with the deck shuffled by *rng*.

    The same seed gives the same deal, so games replay exactly.
    """
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return Deal(next_dealer(state), tuple(deck))


def is_deal_over(state: GameState) -> bool:
    """
    Whether the current deal has ended (R19, R22): the next action is the next deal, or the game is over.
    """
    return state.phase is Phase.DEAL_OVER or state.phase is Phase.GAME_OVER


def is_game_over(state: GameState) -> bool:
    """
    Whether the game has ended (R27).
    """
    return state.phase is Phase.GAME_OVER


def max_deal_length(rules: Rules) -> int | None:
    """
    An upper bound on the number of actions in one deal, the `Deal` included; `None` when there is none.

    The bound: a turn that starts by drawing from the stock happens at most once per
    stock card; a turn that takes from the discard pile plays at least one card and
    discards one, so it lowers the number of cards in hands and pile by at least one,
    and that number never exceeds 56; each such turn is a draw and a discard, plus
    melds and lay-offs, of which there are at most 56 in a deal since each puts a card
    on the table for good; passes come at most three in a row between two such turns, and a
    fourth ends the deal (R21, A17).  With
    `Rules.top_discard_free` a deal can go on for ever (the top card taken and
    another discarded, turn after turn), so there is no bound.

    >>> from persian_rummy import Rules
    >>> max_deal_length(Rules())
    395
    """
    if rules.top_discard_free:
        return None
    stock = 56 - 4 * rules.hand_size - 1
    pile_turns = 56
    passes = 3 * (pile_turns + 1) + 1 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1
    return 1 + 2 * (stock + pile_turns) + 56 + passes


def max_game_length(rules: Rules) -> int | None:
    """
    An upper bound on the number of actions in a game, every `Deal` included; `None` when there is none.

    >>> from persian_rummy import Rules
    >>> max_game_length(Rules())
    790
    """
    per_deal = max_deal_length(rules)
    if per_deal is None:
        return None
    return per_deal * (rules.num_deals + (rules.tie_break is TieBreak.EXTRA_DEAL))


@frozen
class Outcome:
    """
    The result of a finished game (R28).

    Attributes:
        scores: Each team's total over all deals.
        winner: The winning team (0: seats 0 and 2; 1: seats 1 and 3), or `None` for a draw (A22).
    """

    scores: tuple[int, int]
    winner: int | None

    @property
    def is_draw(self) -> bool:
        """
        Whether the teams finished level.
        """
        return self.winner is None


def outcome(state: GameState) -> Outcome | None:
    """
    The result of the game, or `None` while it is still going on.
    """
    if state.phase is not Phase.GAME_OVER:
        return None
    scores = state.scores
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Outcome(scores, winner)
