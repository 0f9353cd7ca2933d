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
from pathlib import Path
from typing import Final, NoReturn, assert_never

from attrs import frozen

from ._internal import arguments as _arguments
from ._internal import unchecked as _unchecked
from ._internal.enumeration import answer_actions as _answer_actions
from ._internal.enumeration import draw_actions as _draw_actions
from ._internal.enumeration import play_actions as _play_actions
from ._internal.phase import DRAWING as _DRAWING
from ._internal.phase import FINAL as _FINAL
from ._internal.phase import OVER as _OVER
from ._internal.phase import PLAYING as _PLAYING
from ._internal.transitions import answer as _answer
from ._internal.transitions import deal as _deal
from ._internal.transitions import discard as _discard
from ._internal.transitions import draw_stock as _draw_stock
from ._internal.transitions import lay_down as _lay_down
from ._internal.transitions import lay_off as _lay_off
from ._internal.transitions import not_an_action as _not_an_action
from ._internal.transitions import pass_turn as _pass_turn
from ._internal.transitions import take_discard as _take_discard
from .actions import (
    Action,
    CallRummy,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
)
from .cards import FULL_DECK
from .exceptions import ChanceNodeError, IllegalActionError, ViewError
from .rules import EmptyStockEnd, Rules
from .state import GameState, Phase, View, next_dealer

__all__ = [
    "COMPILED",
    "Outcome",
    "apply",
    "check_legal",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "legal_actions",
    "max_deal_length",
    "max_game_length",
    "outcome",
    "random_deal",
]


def __dir__() -> list[str]:
    return __all__


#: Whether the engine's core runs compiled: true in the compiled build (docs/performance.md), whose hot
#: modules, this one among them, are extension modules built by mypyc; false in the pure-Python build.
#: Both behave alike: the same results, the same errors, the same pickles.
COMPILED: Final[bool] = Path(__file__).suffix in {".so", ".pyd"}


def legal_actions(state: GameState | View) -> tuple[PlayerAction, ...]:
    """
    Every legal action of the seat to act, and nothing else, in a fixed order.

    *state* may also be the `View` of the seat to act: its legal actions are the same
    whatever the cards it cannot see.

    In the draw phase: `DrawStock`, then `TakeDiscard` from the top of the pile
    down, then `Pass`.  In the play phase: `LayDown` (sets by rank, then runs by
    suit), `LayOff` (by meld), then `Discard` (in `FULL_DECK` order).  After the
    game there are none.  (With `Rules.pass_allows_melding` and an empty stock, the
    draw phase also offers the play phase's melds and lay-offs, before `Pass`.)  Under
    `Rules.rummy_calls`, a seat asked about a discard has `DeclineCall` then `CallRummy`, and the seat
    that called has the lay-offs of the card it called on, alone, by meld (A24).

    Raises:
        ChanceNodeError: the next action is a `Deal`, which is not chosen by a player.
        ViewError: *state* is a view of another seat than the one to act.
        InvalidTypeError: *state* is neither a `GameState` nor a `View`.
    """
    try:
        phase = state.phase
    except AttributeError:
        _arguments.expect(state, (GameState, View), "state", "a GameState or a View")
        raise
    seat = state.to_act  # a seat in a turn's phases (R13): the phase is tested first, then the seat for mypy
    if isinstance(state, GameState):
        if phase in _PLAYING and seat is not None:
            return _play_actions(state, seat, state.hands[seat].mask)
        if phase in _DRAWING and seat is not None:
            return _draw_actions(state, seat, state.hands[seat].mask, bool(state.stock))
    elif (phase in _PLAYING or phase in _DRAWING) and seat is not None:
        shown = state.hand
        if state.seat != seat or shown is None:
            _not_shown(state, seat)
        hand = shown.mask
        if phase in _PLAYING:
            return _play_actions(state, seat, hand)
        return _draw_actions(state, seat, hand, state.stock_size > 0)
    return _out_of_turn(state, phase)


def _out_of_turn(state: GameState | View, phase: Phase) -> tuple[PlayerAction, ...]:
    """
    `legal_actions` in the phases but a turn's: none after the game, a seat's answers to a discard (A24),
    and no player's action before a deal.
    """
    if phase is Phase.GAME_OVER:
        return ()
    if phase is Phase.CALLS or phase is Phase.CALLED:
        if isinstance(state, View) and state.seat != state.to_act:
            _not_shown(state, state.seat_to_act)
        return _answer_actions(state)
    if phase is Phase.DEAL or phase is Phase.DEAL_OVER:
        msg = f"the next action is a Deal by seat {next_dealer(state)}: build one with random_deal(state, rng)"
        raise ChanceNodeError(msg)
    if phase is Phase.PLAY or phase is Phase.DRAW:  # pragma: no cover (legal_actions answers in a turn)
        msg = f"phase {phase.value!r} is a turn"
        raise AssertionError(msg)
    assert_never(phase)


def _not_shown(view: View, seat: int) -> NoReturn:
    """
    Refuse *view*, which does not show the hand of *seat*, to act.
    """
    who = "a spectator" if view.seat is None else f"seat {view.seat}"
    msg = f"the view of {who} does not show the cards of seat {seat}, whose turn it is"
    raise ViewError(msg)


def apply(state: GameState, action: Action) -> GameState:
    """
    The state after *action*; *state* itself is never changed.

    Raises:
        IllegalActionError: *action* may not be applied to *state*: not an action,
            wrong phase, wrong seat, a card that is not where the action needs it,
            a meld that is not valid, a rule broken.  The error names the rule.
        InvalidTypeError: *state* is not a `GameState`.
    """
    try:
        match action:  # the most frequent first: each case is an isinstance test
            case Discard():
                return _discard(state, action)
            case DrawStock():
                return _draw_stock(state, action)
            case TakeDiscard():
                return _take_discard(state, action)
            case LayDown():
                return _lay_down(state, action)
            case LayOff():
                return _lay_off(state, action)
            case Pass():
                return _pass_turn(state, action)
            case Deal():
                return _deal(state, action)
            case DeclineCall() | CallRummy():
                return _answer(state, action)
            case _:
                _not_an_action(action)
    except (AttributeError, TypeError, IndexError, KeyError):
        # Free while nothing is raised: what a state always has was missing, so find out why.
        _arguments.expect(state, GameState, "state", "a GameState")
        raise


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


def random_deal(state: GameState, rng: random.Random) -> Deal:
    """
    A `Deal` for the next deal of *state*, with the deck shuffled by *rng*.

    The same seed gives the same deal, so games replay exactly.

    Raises:
        InvalidTypeError: *state* is not a `GameState` or a `View`, or *rng* not a ``random.Random``.
    """
    _arguments.expect(rng, random.Random, "rng", "a random.Random")
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    # A shuffle of the deck, for a seat: nothing of the action to check.
    return _new_deal(seat=next_dealer(state), deck=tuple(deck))


_new_deal: Final = _unchecked.new_deal


def is_deal_over(state: GameState) -> bool:
    """
    Whether the current deal has ended (R19, R22): the next action is the next deal, or the game is over.
    """
    try:
        return state.phase in _OVER
    except AttributeError:  # free while nothing is raised: is_deal_over is called in playout loops
        _arguments.expect(state, (GameState, View), "state", "a GameState or a View")
        raise


def is_game_over(state: GameState) -> bool:
    """
    Whether the game has ended (R27).
    """
    try:
        return state.phase in _FINAL
    except AttributeError:  # free while nothing is raised: is_game_over is called in playout loops
        _arguments.expect(state, (GameState, View), "state", "a GameState or a View")
        raise


def max_deal_length(rules: Rules) -> int | None:
    """
    An upper bound on the number of actions in one deal, the `Deal` included; `None` when there is none.

    The bound: a turn that starts by drawing from the stock happens at most once per
    stock card; a turn that takes from the discard pile plays at least one card and
    discards one, so it lowers the number of cards in hands and pile by at least one,
    and that number never exceeds 56; each such turn is a draw and a discard, plus
    melds and lay-offs, of which there are at most 56 in a deal since each puts a card
    on the table for good; passes come at most three in a row between two such turns, and a
    fourth ends the deal (R21, A17); melds and lay-offs before a pass (A16) are among the 56.
    With `Rules.top_discard_free` a deal can go on for ever (the top card taken and
    another discarded, turn after turn), and so it can with `Rules.reshuffle_on_empty_stock`
    (the discard pile turned over into a new stock whenever the stock runs out, A18): there
    is no bound.  With `Rules.rummy_calls` each discard may be answered by three more actions, a
    call or a decline from each other seat (A24); the lay-off of a card called on is among the 56.

    >>> from persian_rummy import Rules
    >>> max_deal_length(Rules()), max_deal_length(Rules(rummy_calls=True))
    (395, 644)
    """
    _arguments.expect(rules, Rules, "rules", "a Rules")
    if rules.top_discard_free or rules.reshuffle_on_empty_stock:
        return None
    stock = 56 - 4 * rules.hand_size - 1
    pile_turns = 56
    passes = 3 * (pile_turns + 1) + 1 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1
    answers = 3 * (stock + pile_turns) if rules.rummy_calls else 0
    return 1 + 2 * (stock + pile_turns) + 56 + passes + answers


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
    return per_deal * rules.max_deals


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


def outcome(state: GameState | View) -> Outcome | None:
    """
    The result of the game, or `None` while it is still going on; every seat's view tells it too.
    """
    _arguments.expect(state, (GameState, View), "state", "a GameState or a View")
    if state.phase is not Phase.GAME_OVER:
        return None
    scores = state.scores
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return Outcome(scores, winner)
