"""
Seats: the numbers 0-3, clockwise, and the one check that a value is a seat.

Seats 0 and 2 are partners against seats 1 and 3 (R1); the seat to a player's left is
the next one clockwise (R6).
"""

from __future__ import annotations

from typing import Final, TypeGuard

#: The four seats, clockwise.
SEATS: Final = range(4)
#: The letters of the seats 0-3: North, East, South, West.
LETTERS: Final = "NESW"


def is_seat(value: object) -> TypeGuard[int]:
    """
    Whether *value* is a seat: an `int` from 0 to 3 (not a `bool`, not a float).
    """
    return type(value) is int and 0 <= value <= 3


def left_of(seat: int) -> int:
    """
    The seat to the left of *seat*: the next one clockwise (R6).
    """
    return (seat + 1) % 4
