"""
`Phase`, where a game is, and the questions every module asks about it.

`Phase` is defined here, below every module that tests it, and every module uses it as itself:
``phase is Phase.DRAW``.  Code that does something else in each phase tests the phase member by
member and ends with `typing.assert_never`, or matches on the members (``case Phase.DRAW:``), so that
mypy names every such place when a member is added.  A question about several phases (is the next
action a deal, is a seat to act, is the deal over) is answered once for every member by the
functions below and asked of the sets made from them.

This module is compiled in the compiled build with the engine's modules, so that ``Phase.DRAW`` in
them is a constant rather than a lookup.  Tables keyed by phase elsewhere (the tensors' phase bits,
the notation's letters, the terminal's and the browser's notes) are checked against every member by
``tests/test_phase.py``.
"""

from __future__ import annotations

from typing import Final, assert_never

from ..choices import Choice


class Phase(Choice):
    """
    Where the game is.

    In `DEAL` and `DEAL_OVER` the next action is the chance action `persian_rummy.Deal`
    (`GameState.to_act` is `None`); in `DRAW` and `PLAY` it is the turn of
    `GameState.to_act`, and in `CALLS` and `CALLED` (`Rules.rummy_calls`, A24) that seat
    answers the discard of `GameState.discarder`; `GAME_OVER` is final.
    """

    #: Before the first deal; the cards are all in the stock, undealt.
    DEAL = "deal"
    #: The seat to act must draw from the stock or take from the discard pile, or pass (R14, R21).
    DRAW = "draw"
    #: The seat to act has drawn: it lays down, lays off, and discards (R16-R18).
    PLAY = "play"
    #: A deal has ended and another one follows; the table is left as it ended.
    DEAL_OVER = "deal_over"
    #: The game has ended (R27); the table is left as the last deal ended.
    GAME_OVER = "game_over"
    #: A discard a table meld takes: the seat to act, round from the discarder, calls "Rummy!" or declines (A24).
    CALLS = "calls"
    #: The seat to act called "Rummy!" and lays off the card it took, `GameState.obligation` (A24).
    CALLED = "called"


def is_chance(phase: Phase) -> bool:
    """
    Whether the next action in *phase* is a deal, which no player chooses (R5, A4).
    """
    match phase:
        case Phase.DEAL | Phase.DEAL_OVER:
            return True
        case Phase.DRAW | Phase.PLAY | Phase.GAME_OVER | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


def is_turn(phase: Phase) -> bool:
    """
    Whether a seat is to act in *phase*: it draws or plays (R13), or answers a discard (A24).
    """
    match phase:
        case Phase.DRAW | Phase.PLAY | Phase.CALLS | Phase.CALLED:
            return True
        case Phase.DEAL | Phase.DEAL_OVER | Phase.GAME_OVER:
            return False
        case _:
            assert_never(phase)


def is_deal_over(phase: Phase) -> bool:
    """
    Whether the deal has ended in *phase* (R19, R22): the table is left as it ended, every hand shown.
    """
    match phase:
        case Phase.DEAL_OVER | Phase.GAME_OVER:
            return True
        case Phase.DEAL | Phase.DRAW | Phase.PLAY | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


def is_final(phase: Phase) -> bool:
    """
    Whether the game has ended in *phase* (R27): no action follows.
    """
    match phase:
        case Phase.GAME_OVER:
            return True
        case Phase.DEAL | Phase.DRAW | Phase.PLAY | Phase.DEAL_OVER | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


def counts_passes(phase: Phase) -> bool:
    """
    Whether passes in a row may be counted in *phase* (R21, A17): between the turns of a deal with an
    empty stock, and after a deal that passes ended.
    """
    match phase:
        case Phase.DRAW | Phase.DEAL_OVER | Phase.GAME_OVER:
            return True
        case Phase.DEAL | Phase.PLAY | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


def draws(phase: Phase) -> bool:
    """
    Whether the seat to act draws in *phase*: from the stock or the discard pile, or passes (R13, R14, R21).
    """
    match phase:
        case Phase.DRAW:
            return True
        case Phase.DEAL | Phase.PLAY | Phase.DEAL_OVER | Phase.GAME_OVER | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


def plays(phase: Phase) -> bool:
    """
    Whether the seat to act plays in *phase*: it has drawn, and lays down, lays off and discards (R16-R18).
    """
    match phase:
        case Phase.PLAY:
            return True
        case Phase.DEAL | Phase.DRAW | Phase.DEAL_OVER | Phase.GAME_OVER | Phase.CALLS | Phase.CALLED:
            return False
        case _:
            assert_never(phase)


#: The phases whose next action is a `persian_rummy.Deal`, which no player chooses (R5, A4).
CHANCE: Final = frozenset(phase for phase in Phase if is_chance(phase))
#: The phases in which a seat is to act (`GameState.to_act`): it draws or plays (R13), or answers a discard (A24).
TURN: Final = frozenset(phase for phase in Phase if is_turn(phase))
#: The phases after a deal has ended (R19, R22), the table left as it ended and every hand shown.
OVER: Final = frozenset(phase for phase in Phase if is_deal_over(phase))
#: The phases after the game has ended (R27): the one, asked of at every step of a playout.
FINAL: Final = frozenset(phase for phase in Phase if is_final(phase))
#: The phases in which passes in a row may be counted (R21, A17).
COUNTING_PASSES: Final = frozenset(phase for phase in Phase if counts_passes(phase))
#: The phases in which the seat to act draws (R13, R14, R21): asked by every draw, take and pass.
DRAWING: Final = frozenset(phase for phase in Phase if draws(phase))
#: The phases in which the seat to act plays (R16-R18): asked by every lay-down, lay-off and discard.
PLAYING: Final = frozenset(phase for phase in Phase if plays(phase))
