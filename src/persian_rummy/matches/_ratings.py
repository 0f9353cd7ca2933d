"""
The ratings of a tournament's players, from the maintained rating library openskill (its
Plackett-Luce model; the ``tournament`` extra), each game a contest of two.

openskill is optional: without it, the tournament's functions say how to install it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..exceptions import InvalidValueError

try:
    from openskill.models import PlackettLuce
except ImportError:  # pragma: no cover - the tournament extra is missing
    PlackettLuce = None  # type: ignore[assignment,misc]

#: Said when openskill is missing.
NEEDS_OPENSKILL: Final = "tournaments rate the players with openskill: pip install 'persian-rummy[tournament]'"


def available() -> bool:
    """
    Whether openskill is installed.
    """
    return PlackettLuce is not None


def ratings(players: int, games: Sequence[tuple[int, int, int | None]]) -> list[tuple[float, float]]:
    """
    The rating of each of *players* players, ``(mu, sigma)``, after *games* in order, each
    ``(first, second, winner)``: the players' numbers and 0 if the first won, 1 if the second did,
    `None` for a draw.  Every player starts at openskill's default (mu 25, sigma 25/3).

    Raises:
        InvalidValueError: openskill is not installed.
    """
    if PlackettLuce is None:  # pragma: no cover - the tournament extra is missing
        raise InvalidValueError(NEEDS_OPENSKILL)
    model = PlackettLuce()
    rated = [model.rating() for _ in range(players)]
    for first, second, winner in games:
        ranks = [0.0, 0.0] if winner is None else [float(winner), float(1 - winner)]
        [[one], [other]] = model.rate([[rated[first]], [rated[second]]], ranks=ranks)
        rated[first], rated[second] = one, other
    return [(rating.mu, rating.sigma) for rating in rated]
