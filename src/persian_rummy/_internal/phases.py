"""
The phases of a game as the modules above `persian_rummy.state` test them.

Code that does something else in each phase tests the phase by identity, one phase after another,
against constants such as those below (a member looked up through its enumeration costs as much as
a short function call, every time), and ends with `typing.assert_never`: mypy narrows the phase at
each test, so a phase added to `Phase` is a mypy error there, where it must be handled.  Code that
asks one of the questions of `persian_rummy._internal.shapes` (is the next action a deal, is a seat to act,
is the deal over) reads the answer from the sets below, worked out once from those questions.

`name` is where each phase meets its name, which the modules below `state` see: a phase added to
`Phase` is a mypy error there, and once its name is added to `_internal.shapes.PhaseName`, in every `match`
on names.
"""

from __future__ import annotations

from typing import Final, assert_never

from ..state import Phase
from .shapes import PhaseName, is_chance, is_deal_over, is_turn

DEAL: Final = Phase.DEAL
DRAW: Final = Phase.DRAW
PLAY: Final = Phase.PLAY
DEAL_OVER: Final = Phase.DEAL_OVER
GAME_OVER: Final = Phase.GAME_OVER
CALLS: Final = Phase.CALLS
CALLED: Final = Phase.CALLED


def name(phase: Phase) -> PhaseName:
    """
    The name of *phase*, its value.
    """
    if phase is DEAL:
        return "deal"
    if phase is DRAW:
        return "draw"
    if phase is PLAY:
        return "play"
    if phase is DEAL_OVER:
        return "deal_over"
    if phase is GAME_OVER:
        return "game_over"
    if phase is CALLS:
        return "calls"
    if phase is CALLED:
        return "called"
    assert_never(phase)


#: The phases whose next action is a `persian_rummy.Deal`, which no player chooses (R5, A4).
CHANCE: Final = frozenset(phase for phase in Phase if is_chance(name(phase)))
#: The phases in which a seat is to act (`GameState.to_act`): it draws or plays (R13), or answers a discard (A24).
TURN: Final = frozenset(phase for phase in Phase if is_turn(name(phase)))
#: The phases after a deal has ended (R19, R22), the table left as it ended and every hand shown.
OVER: Final = frozenset(phase for phase in Phase if is_deal_over(name(phase)))
