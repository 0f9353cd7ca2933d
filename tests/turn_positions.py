"""
Positions and helpers shared by the turn tests (``tests/test_turn_*.py``).

The standard position: seat 0 to act, dealer seat 3.  Seat 1 has the run 6c 7c 8c on the table.  The discard
pile is, from the bottom, 6h Kc 8d Qd: Qd goes with Qh Qs, 8d with 9d Td, 6h with 4h 5h; Kc goes nowhere.

The lay-off position: seat 0 has drawn.  On the table: its own Kc Kd Ks, its partner's 7s 8s 9s, the opponents'
three jokers and the opponents' 4h 5h 6h, onto which seat 1 has laid off 7h.

Positions are written by hand with `tests.positions.position`; seat 0 is to act unless a test says otherwise.
Piles are written bottom card first, so the last card named is the top card.
"""

from __future__ import annotations

from persian_rummy import DealScore, GameState
from persian_rummy.scoring import DealEnd, TeamScore
from tests.positions import meld, position

HANDS = ("3h 4h 5h Qh Qs 9d Td", "2c 3c 4c Kd 9s Js 2d", "Ac Ad Ah 5d 6d 8s X2", "Tc Jc 3d 7d 2h 8h 4s")
MELDS = (meld(1, "6c 7c 8c"),)
PILE = "6h Kc 8d Qd"

LAYOFF_MELDS = (
    meld(0, "Kc Kd Ks"),
    meld(2, "7s 8s 9s"),
    meld(1, "X1 X2 X3"),
    meld(3, "4h 5h 6h", s1="7h"),
)


def standard() -> GameState:
    """
    The standard draw-phase position; the stock starts with As.
    """
    return position(hands=HANDS, melds=MELDS, pile=PILE, stock="As")


def layoff_position() -> GameState:
    """
    The lay-off position (play phase, seat 0).
    """
    return position(
        hands=("Kh 5s 6s Ts X4 8h 3h 2h Jd", "2c 3c", "Ah", "2d"), melds=LAYOFF_MELDS, pile="4c", phase="play"
    )


def empty_stock() -> GameState:
    """
    No stock; seat 0 can take Qd (Qh Qs) or 5h (4h 6h); seat 2 holds the cards not named.
    """
    return position(hands=("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh"), pile="5h 9c Qd", stock="", rest_to=2)


def pile_of(state: GameState) -> str:
    """
    The discard pile in notation, bottom card first.
    """
    return " ".join(str(card) for card in state.discard_pile)


def hand_of(state: GameState, seat: int) -> str:
    """
    A hand in notation, in `FULL_DECK` order.
    """
    return str(state.hands[seat])


def deal_one(team0: TeamScore, team1: TeamScore, went_out: int | None, end: DealEnd) -> DealScore:
    """
    The result of deal 1.
    """
    return DealScore(1, (team0, team1), went_out, end)
