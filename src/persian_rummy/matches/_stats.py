"""
The statistics of a match: a Wilson interval for a score rate and a Student's t interval for a mean.

Both are 95% intervals.  Only the standard library is used: the t quantile is found by
bisection on the exact distribution function for up to 100 degrees of freedom, and from the
Cornish-Fisher expansion around the normal quantile above that, where the two agree to better
than one part in a million.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Final

#: The two-sided 95% quantile of the standard normal distribution.
Z95: Final = NormalDist().inv_cdf(0.975)
#: Degrees of freedom up to which the t quantile is found from the exact distribution.
_EXACT_DF: Final = 100


def wilson_interval(score: float, n: int) -> tuple[float, float]:
    """
    The Wilson 95% interval of a rate of *score* successes in *n* trials (a draw may count half).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> wilson_interval(0, 4)[0], wilson_interval(4, 4)[1]
    (0.0, 1.0)
    """
    p = score / n
    z2 = Z95 * Z95
    scale = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / scale
    half = Z95 / scale * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    low = 0.0 if score <= 0 else max(0.0, centre - half)
    high = 1.0 if score >= n else min(1.0, centre + half)
    return low, high


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """
    The Student's t 95% interval of the mean of *values*; `None` for fewer than two values.

    >>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [0.446, 4.554]
    >>> mean_interval([3.0]) is None
    True
    """
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    variance = math.fsum((value - mean) ** 2 for value in values) / (n - 1)
    half = t_quantile_95(n - 1) * math.sqrt(variance / n)
    return mean - half, mean + half


def t_quantile_95(df: int) -> float:
    """
    The two-sided 95% quantile of Student's t distribution with *df* degrees of freedom.

    >>> [round(t_quantile_95(df), 3) for df in (1, 2, 10, 30, 1000)]
    [12.706, 4.303, 2.228, 2.042, 1.962]
    """
    if df > _EXACT_DF:
        return _cornish_fisher(df)
    low, high = 0.0, 100.0
    for _ in range(100):
        middle = (low + high) / 2
        if _central_mass(middle, df) < 0.95:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _central_mass(t: float, df: int) -> float:
    """
    P(|T| <= t) for Student's t with *df* degrees of freedom, from the finite sums that hold for
    a whole number of degrees of freedom.
    """
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= cos2 * (k - 1) / k
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = 1.0
    for k in range(3, df, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def _cornish_fisher(df: int) -> float:
    """
    The t quantile from the normal one, by the first four terms of its expansion in 1 / *df*.
    """
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
