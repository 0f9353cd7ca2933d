"""
The ratings of a tournament's players: a Bradley-Terry model fitted to all the games at once, by
maximum likelihood, on the Elo scale, with bootstrap intervals; the standard library alone.

**The model.**  Each player has a rating *R*; in a game between two players rated *R* and *S*, the
first is expected to score ``1 / (1 + 10 ** ((S - R) / 400))``, a win counting 1 and a draw 1/2
(a draw is half a win and half a loss).  A difference of 0 is an even game, 100 points a score of
0.64 a game, 200 of 0.76, 400 of 0.91.  The ratings are those under which the games played are the
likeliest (the maximum of the likelihood, found by Newton's method): they depend on the points
each player scored against each other and on nothing else, so never on the order of the matches
or of their games.

**The anchor.**  Only differences are measured; the ratings of the players who played average 0.  A
player who played no game has no rating (`None`).

**The prior.**  Each two players who met are credited with *prior* games more between them, drawn
(1 by default), which keeps finite the rating of a player who won every game (its likelihood's
maximum is at infinity) and draws the ratings of short matches a little together; with many games
it hardly counts.  ``prior=0`` gives the plain maximum likelihood, refused where it is infinite, on
the games or on a resample of them.

**The intervals.**  Each match's duplicate pairs are drawn again, with replacement, as many as it
has, from a ``random.Random`` of the *seed*; the ratings are fitted again on each such resample,
*resamples* times, and a player's interval holds the middle 95% of its ratings over them (the
percentile bootstrap).  It says how much the rating owes to the luck of these deals and of the
players' own random choices; it is a rating relative to the same field, as the rating is.

Three wins in four games are odds of 3 to 1, ``400 * log10(3)`` = 190.85 points between the two
players, whom the anchor puts at +95.42 and -95.42:

>>> first, second = fitted(2, [(0, 1, [0, 0, 0, 1])], prior=0)
>>> round(first, 2), round(second, 2), round(first - second - 400 * math.log10(3), 9)
(95.42, -95.42, 0.0)

With the prior, the 3 points of 4 are 3.5 of 5, odds of 7 to 3, 147.19 points:

>>> [(round(rating.rating, 2), rating.games) for rating in ratings(2, [(0, 1, [0, 0, 0, 1])], resamples=200)]
[(73.6, 4), (-73.6, 4)]
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from attrs import frozen

from .. import limits as _limits
from ..exceptions import InvalidTypeError, InvalidValueError

#: Elo points per unit of the model's strength, a natural logarithm of the odds: 400 / ln 10.
SCALE: Final = 400 / math.log(10)
#: The resamples of the bootstrap, by default.
RESAMPLES: Final = 1000
#: The most resamples.
MAX_RESAMPLES: Final = 100_000
#: The drawn games each two players who met are credited with, by default.
PRIOR: Final = 1.0
#: The largest prior.
MAX_PRIOR: Final = 1_000_000.0
#: The confidence of the intervals.
LEVEL: Final = 0.95
#: The seed of the resamples is below this.
SEED_LIMIT: Final = 2**64

#: A match: its first player's number, its second's, and the winner of each game in duplicate
#: pairs (games 2k and 2k + 1 a pair): 0 the first, 1 the second, `None` a draw.
Match: TypeAlias = tuple[int, int, Sequence[int | None]]
#: A pair of players who met, by their numbers among the players rated (the first lower), and
#: their scores: the first's, the second's, in games (a draw half a game to each).
_Scores: TypeAlias = tuple[int, int, float, float]

#: The half points of a game for the first player, by winner: a win 2, a draw 1, a loss 0.
_HALVES: Final[dict[int | None, int]] = {0: 2, None: 1, 1: 0}
#: Newton's method stops when no rating moves by more than this, in units of strength.
_TOLERANCE: Final = 1e-12
#: Below this step, Newton's is taken whole (the likelihood is quadratic enough there).
_SMALL_STEP: Final = 1e-6
#: The most steps of Newton's method.
_MOST_STEPS: Final = 200


@frozen
class Rating:
    """
    A player's rating in a tournament, on the Elo scale (`TournamentResult.ratings`).

    Attributes:
        rating: Elo points, the ratings of the players who played averaging 0: a player rated
            *D* points above another is expected to score ``1 / (1 + 10 ** (-D / 400))`` a game
            against it (a win 1, a draw 1/2).
        interval: The 95% bootstrap interval of the rating: the middle 95% of its ratings over
            the tournament's matches resampled by duplicate pair.
        games: The games the player played.
    """

    rating: float
    interval: tuple[float, float]
    games: int


@frozen
class _Table:
    """
    A tournament's games, read for the fit: the players who played, and each pair of them who met
    with the half points the first scored in each of their duplicate pairs (0 to 4), sorted.
    """

    rated: tuple[int, ...]
    games: tuple[int, ...]
    pairs: tuple[tuple[int, int, tuple[int, ...]], ...]


def _table(players: int, matches: Iterable[Match]) -> _Table:
    """
    The games of *matches* between *players* players, by pair of players and from the lower's side.
    """
    _count(players, "players", 2)
    met: dict[tuple[int, int], list[int]] = {}
    games = [0] * players
    for first, second, winners in matches:
        _player(first, players)
        _player(second, players)
        if first == second or len(winners) % 2 or any(w not in _HALVES for w in winners):
            msg = f"a match is between two players, its winners in duplicate pairs, 0, 1 or None; got {first}"
            raise InvalidValueError(f"{msg} and {second} with {_limits.shown(winners)}")
        halves = [_HALVES[winners[k]] + _HALVES[winners[k + 1]] for k in range(0, len(winners), 2)]
        low, high = sorted((first, second))
        met.setdefault((low, high), []).extend(halves if low == first else [4 - half for half in halves])
        games[first] += len(winners)
        games[second] += len(winners)
    rated = tuple(player for player in range(players) if games[player])
    number = {player: k for k, player in enumerate(rated)}
    pairs = tuple(
        (number[low], number[high], tuple(sorted(met[low, high]))) for low, high in sorted(met) if met[low, high]
    )
    _check_linked(len(rated), pairs)
    return _Table(rated, tuple(games), pairs)


def _player(value: int, players: int) -> None:
    if type(value) is not int or not 0 <= value < players:
        msg = f"a match's players are numbers from 0 to {players - 1}, got {_limits.shown(value)}"
        raise InvalidValueError(msg)


def _count(value: object, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int:
        msg = f"{name} must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < low or (high is not None and value > high):
        msg = f"{name} must be from {low:,} to {high:,}" if high is not None else f"{name} must be {low} or more"
        raise InvalidValueError(f"{msg}, got {_limits.shown(value)}")
    return value


def _prior(value: object) -> float:
    if type(value) is not int and type(value) is not float:
        msg = f"prior must be a number of games, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value <= MAX_PRIOR:
        msg = f"prior must be a number of games from 0 to {MAX_PRIOR:,.0f}, got {_limits.shown(value)}"
        raise InvalidValueError(msg)
    return float(value)


def _check_linked(rated: int, pairs: Sequence[tuple[int, int, tuple[int, ...]]]) -> None:
    """
    Refuse players who played but are not all linked by games: ratings compare players linked.
    """
    edges = [(low, high) for low, high, _ in pairs]
    if rated and len(_reached(rated, edges + [(high, low) for low, high in edges])) < rated:
        msg = "ratings compare players linked by games, and some who played are linked to the others by none"
        raise InvalidValueError(msg)


def _reached(players: int, edges: Iterable[tuple[int, int]]) -> set[int]:
    """
    The players that the directed *edges* reach from player 0.
    """
    ahead: list[list[int]] = [[] for _ in range(players)]
    for start, end in edges:
        ahead[start].append(end)
    reached, pending = {0}, [0]
    while pending:
        for end in ahead[pending.pop()]:
            if end not in reached:
                reached.add(end)
                pending.append(end)
    return reached


def _scores(pairs: Iterable[tuple[int, int, Sequence[int]]], prior: float) -> list[_Scores]:
    """
    Each pair's scores from its duplicate pairs' half points, the *prior*'s drawn games added.
    """
    return [
        (low, high, sum(halves) / 2 + prior / 2, 2 * len(halves) - sum(halves) / 2 + prior / 2)
        for low, high, halves in pairs
    ]


def _check_finite(rated: int, scores: Sequence[_Scores]) -> None:
    """
    Refuse *scores* whose likelihood has its maximum at infinity: some players scored no point
    against all the others, or all the others none against them (the players are not linked
    both ways by points scored).
    """
    forward = [(low, high) for low, high, first, _ in scores if first > 0]
    backward = [(high, low) for low, high, _, second in scores if second > 0]
    flipped = [(end, start) for start, end in forward + backward]
    if len(_reached(rated, forward + backward)) < rated or len(_reached(rated, flipped)) < rated:
        msg = "with prior=0 the ratings are those of the maximum likelihood, which is at infinity when some"
        msg += " players scored no point against all the others: give a prior above 0"
        raise InvalidValueError(msg)


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _log_sigmoid(x: float) -> float:
    return min(x, 0.0) - math.log1p(math.exp(-abs(x)))


def _likelihood(theta: Sequence[float], scores: Sequence[_Scores]) -> float:
    """
    The log-likelihood of *scores* under the strengths *theta*.
    """
    total = 0.0
    for low, high, first, second in scores:
        gap = theta[low] - theta[high]
        total += first * _log_sigmoid(gap) + second * _log_sigmoid(-gap)
    return total


def _slopes(theta: Sequence[float], scores: Sequence[_Scores]) -> tuple[list[float], list[list[float]]]:
    """
    The gradient of the log-likelihood at *theta* and its Hessian, negated (positive semidefinite).
    """
    size = len(theta)
    gradient = [0.0] * size
    curvature = [[0.0] * size for _ in range(size)]
    for low, high, first, second in scores:
        games = first + second
        expected = _sigmoid(theta[low] - theta[high])
        surplus = first - games * expected
        gradient[low] += surplus
        gradient[high] -= surplus
        spread = games * expected * (1 - expected)
        curvature[low][low] += spread
        curvature[high][high] += spread
        curvature[low][high] -= spread
        curvature[high][low] -= spread
    return gradient, curvature


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """
    *x* with ``matrix x = vector``, *matrix* symmetric positive definite (Cholesky).
    """
    size = len(vector)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            value = matrix[i][j] - math.fsum(lower[i][k] * lower[j][k] for k in range(j))
            lower[i][j] = math.sqrt(value) if i == j else value / lower[j][j]
    forward = [0.0] * size
    for i in range(size):
        forward[i] = (vector[i] - math.fsum(lower[i][k] * forward[k] for k in range(i))) / lower[i][i]
    solution = [0.0] * size
    for i in reversed(range(size)):
        solution[i] = (forward[i] - math.fsum(lower[k][i] * solution[k] for k in range(i + 1, size))) / lower[i][i]
    return solution


def _fit(rated: int, scores: Sequence[_Scores], start: Sequence[float] | None = None) -> list[float]:
    """
    The strengths of maximum likelihood of *rated* players linked by *scores*, averaging 0: Newton's
    method from *start* (0 for all by default), the last player's strength held, each step halved
    until the likelihood rises enough (Armijo's rule).
    """
    theta = list(start) if start is not None else [0.0] * rated
    if rated < 2:  # nobody played, so nobody is rated
        return theta
    for _ in range(_MOST_STEPS):
        gradient, curvature = _slopes(theta, scores)
        step = [*_solve([row[:-1] for row in curvature[:-1]], gradient[:-1]), 0.0]
        size = max(abs(move) for move in step)
        length = 1.0
        if size > _SMALL_STEP:
            base, slope = _likelihood(theta, scores), math.fsum(g * s for g, s in zip(gradient, step, strict=True))
            while (
                length > _TOLERANCE
                and _likelihood([t + length * s for t, s in zip(theta, step, strict=True)], scores)
                < base + 1e-4 * length * slope
            ):
                length /= 2
        theta = [t + length * s for t, s in zip(theta, step, strict=True)]
        if size * length <= _TOLERANCE:
            break
    mean = math.fsum(theta) / rated
    return [t - mean for t in theta]


def _strengths(table: _Table, prior: float) -> list[float]:
    scores = _scores(table.pairs, prior)
    if prior == 0:
        _check_finite(len(table.rated), scores)
    return _fit(len(table.rated), scores)


def fitted(players: int, matches: Iterable[Match], prior: float = PRIOR) -> list[float | None]:
    """
    The rating of each of *players* players, in Elo points, from *matches* (`Match`), with each two
    players who met credited with *prior* drawn games; `None` for a player who played no game.

    >>> [round(rating, 3) for rating in fitted(2, [(0, 1, [0, 0, 0, 1])])]  # 3.5 points in 5
    [73.595, -73.595]
    """
    table = _table(players, matches)
    strengths = _strengths(table, _prior(prior))
    rated: list[float | None] = [None] * players
    for player, strength in zip(table.rated, strengths, strict=True):
        rated[player] = SCALE * strength
    return rated


def ratings(
    players: int, matches: Iterable[Match], *, resamples: int = RESAMPLES, seed: int = 0, prior: float = PRIOR
) -> list[Rating | None]:
    """
    The `Rating` of each of *players* players from *matches* (`Match`), with its bootstrap interval
    over *resamples* resamples drawn from a ``random.Random`` of *seed*; `None` for a player who
    played no game.  Each two players who met are credited with *prior* drawn games.

    Raises:
        InvalidValueError: an argument out of range; players who played but are not linked by
            games; or with ``prior=0``, ratings at infinity (a player who won every game).
        InvalidTypeError: an argument not of its type.
    """
    table = _table(players, matches)
    _count(resamples, "resamples", 1, MAX_RESAMPLES)
    _count(seed, "seed", 0, SEED_LIMIT - 1)
    prior = _prior(prior)
    strengths = _strengths(table, prior)
    drawn = _resampled(table, strengths, (resamples, seed, prior))
    rated: list[Rating | None] = [None] * players
    for number, player in enumerate(table.rated):
        low, high = _percentiles(sorted(drawn[number]))
        rating = Rating(SCALE * strengths[number], (SCALE * low, SCALE * high), table.games[player])
        rated[player] = rating
    return rated


def _resampled(table: _Table, strengths: list[float], how: tuple[int, int, float]) -> list[list[float]]:
    """
    Each rated player's strength fitted on each resample: every pair's duplicate pairs drawn again
    with replacement, pair after pair in the order of the players.
    """
    resamples, seed, prior = how
    rng = random.Random(seed)  # noqa: S311 (a resample, not a secret)
    drawn: list[list[float]] = [[] for _ in table.rated]
    for _ in range(resamples):
        pairs = [(low, high, rng.choices(halves, k=len(halves))) for low, high, halves in table.pairs]
        scores = _scores(pairs, prior)
        if prior == 0:
            _check_finite(len(table.rated), scores)
        for number, strength in enumerate(_fit(len(table.rated), scores, strengths)):
            drawn[number].append(strength)
    return drawn


def _percentiles(values: Sequence[float]) -> tuple[float, float]:
    """
    The bounds of the middle `LEVEL` of *values*, sorted, each interpolated between its neighbours.
    """
    tail = (1 - LEVEL) / 2
    return _quantile(values, tail), _quantile(values, 1 - tail)


def _quantile(values: Sequence[float], share: float) -> float:
    place = (len(values) - 1) * share
    below = math.floor(place)
    above = min(below + 1, len(values) - 1)
    return values[below] + (place - below) * (values[above] - values[below])


def agree(given: object, expected: Sequence[float | None]) -> bool:
    """
    Whether *given*, as JSON read it, are the ratings *expected*: `None` where they are, and numbers
    within a millionth of a point of them elsewhere (a platform's ``exp`` may differ in the last bit).
    """
    if not isinstance(given, list) or len(given) != len(expected):
        return False
    for value, rating in zip(given, expected, strict=True):
        if rating is None or value is None:
            if value is not rating:
                return False
        elif type(value) not in (int, float) or not abs(value - rating) <= 1e-6:
            return False
    return True
