"""
How many games of a loop last about a given time: warm the loop up, then reckon from the warm-up.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

#: The seeds of the warm-up games start here, away from those of the timed games.
WARMUP_SEED = 900_000_000


def calibrate(batch: Callable[[int, int], object], target_s: float, warmup_s: float) -> int:
    """
    Run ``batch(n, seed)`` (*n* games from *seed*) for about *warmup_s* seconds, in batches that
    double, and return the number of games that lasts about *target_s*, at the warm-up's pace.
    """
    n = 1
    seed = WARMUP_SEED
    games = 0
    spent = 0.0
    while True:
        t0 = time.perf_counter()
        batch(n, seed)
        dt = time.perf_counter() - t0
        seed += n
        games += n
        spent += dt
        if spent >= warmup_s:
            break
        per_game = dt / n if dt > 0 else 1e-6
        n = max(1, min(2 * n, int((warmup_s - spent) / per_game) + 1))
    return max(1, math.ceil(target_s / (spent / games)))
