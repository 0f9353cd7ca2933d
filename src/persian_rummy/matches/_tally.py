"""
A match's summary kept as its games come in, one after the other: counts and sums whose size
does not grow with the games, from which `persian_rummy.matches.MatchSummary` is made at any time.

The mean margin's interval is worked out from exact sums: the pairs' margins (each the sum of the
pair's two games' margins, an int) and their squares, so that the variance is that of the exact
values, whatever the order they came in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol, TypedDict

from . import _stats


class Game(Protocol):
    """
    What the tally reads of a game (a `persian_rummy.matches.GameResult`).
    """

    @property
    def seats(self) -> tuple[tuple[int, int], tuple[int, int]]: ...
    @property
    def points(self) -> tuple[int, int]: ...
    @property
    def decisions(self) -> tuple[int, int, int, int]: ...
    @property
    def overruns(self) -> tuple[int, int, int, int]: ...
    @property
    def thinking(self) -> tuple[float, float, float, float]: ...
    @property
    def cpu(self) -> tuple[float, float, float, float]: ...


class Fields(TypedDict):
    """
    The fields of a `persian_rummy.matches.MatchSummary`, by name, as the tally works them out.
    """

    games: int
    wins: int
    draws: int
    losses: int
    points: tuple[int, int]
    score_rate: float
    score_interval: tuple[float, float]
    mean_margin: float
    margin_interval: tuple[float, float] | None
    decisions: tuple[int, int]
    overruns: tuple[int, int]
    ms_per_decision: tuple[float, float]
    member_ms_per_decision: tuple[tuple[float, float], tuple[float, float]]
    cpu_ms_per_decision: tuple[float, float]
    member_cpu_ms_per_decision: tuple[tuple[float, float], tuple[float, float]]


def _ms(seconds: float, decisions: int) -> float:
    return 1000 * seconds / decisions if decisions else 0.0


class Tally:
    """
    The sums of a match's games so far, from the first team's side, by team and member (the
    team's first seat, 0 or 1, is its member 0).
    """

    __slots__ = (
        "cpu",
        "decisions",
        "draws",
        "games",
        "margins",
        "open_pair",
        "overruns",
        "pair_squares",
        "pair_sums",
        "pairs",
        "points",
        "thinking",
        "wins",
    )

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.margins = 0
        self.points = [0, 0]
        self.pairs = self.pair_sums = self.pair_squares = 0
        self.open_pair: int | None = None  # the margin of the first game of a pair not yet whole
        self.decisions = [[0, 0], [0, 0]]
        self.overruns = [[0, 0], [0, 0]]
        self.thinking = [[0.0, 0.0], [0.0, 0.0]]
        self.cpu = [[0.0, 0.0], [0.0, 0.0]]

    def add(self, game: Game) -> None:
        """
        Count *game*, the next of the match.
        """
        first, second = game.points
        margin = first - second
        self.games += 1
        self.wins += margin > 0
        self.draws += margin == 0
        self.margins += margin
        self.points[0] += first
        self.points[1] += second
        if self.open_pair is None:
            self.open_pair = margin
        else:
            pair = self.open_pair + margin
            self.pairs += 1
            self.pair_sums += pair
            self.pair_squares += pair * pair
            self.open_pair = None
        decisions, overruns, thinking, cpu = game.decisions, game.overruns, game.thinking, game.cpu
        for team, seats in enumerate(game.seats):
            for member, seat in enumerate(seats):
                self.decisions[team][member] += decisions[seat]
                self.overruns[team][member] += overruns[seat]
                self.thinking[team][member] += thinking[seat]
                self.cpu[team][member] += cpu[seat]

    def add_all(self, games: Sequence[Game]) -> Tally:
        """
        Count *games*, in order; the tally.
        """
        for game in games:
            self.add(game)
        return self

    def margin_interval(self) -> tuple[float, float] | None:
        """
        The Student's t 95% interval of the mean margin over the duplicate pairs (each pair's two
        games averaged); `None` for fewer than two pairs.
        """
        n = self.pairs
        if n < 2:
            return None
        mean = self.pair_sums / (2 * n)
        variance = (n * self.pair_squares - self.pair_sums * self.pair_sums) / (4 * n * (n - 1))
        half = _stats.t_quantile_95(n - 1) * math.sqrt(variance / n)
        return mean - half, mean + half

    def fields(self) -> Fields:
        """
        The fields of the match's `MatchSummary`, by name.
        """
        games, wins, draws = self.games, self.wins, self.draws
        decided = [sum(self.decisions[0]), sum(self.decisions[1])]
        thinking, cpu = self._rates(self.thinking), self._rates(self.cpu)
        return {
            "games": games,
            "wins": wins,
            "draws": draws,
            "losses": games - wins - draws,
            "points": (self.points[0], self.points[1]),
            "score_rate": (wins + draws / 2) / games,
            "score_interval": _stats.wilson_interval(wins + draws / 2, games),
            "mean_margin": self.margins / games,
            "margin_interval": self.margin_interval(),
            "decisions": (decided[0], decided[1]),
            "overruns": (sum(self.overruns[0]), sum(self.overruns[1])),
            "ms_per_decision": thinking[0],
            "member_ms_per_decision": (thinking[1], thinking[2]),
            "cpu_ms_per_decision": cpu[0],
            "member_cpu_ms_per_decision": (cpu[1], cpu[2]),
        }

    def _rates(
        self, seconds: list[list[float]]
    ) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        """
        The milliseconds per decision of each team, then of the first team's members, then the second's.
        """
        decided = self.decisions
        return (
            (_ms(sum(seconds[0]), sum(decided[0])), _ms(sum(seconds[1]), sum(decided[1]))),
            (_ms(seconds[0][0], decided[0][0]), _ms(seconds[0][1], decided[0][1])),
            (_ms(seconds[1][0], decided[1][0]), _ms(seconds[1][1], decided[1][1])),
        )


def same(given: object, worked_out: object) -> bool:
    """
    Whether *given*, a summary's field as JSON data, is *worked_out*, the field the games give: the
    same value, but for floats that agree to the last few bits (the intervals were once worked out
    by another sum, whose last bit may differ).

    >>> same([0.1 + 0.2, 3], [0.3, 3]), same([0.3, 3], [0.31, 3]), same(True, 1), same(None, 0.0)
    (True, False, False, False)
    """
    if type(given) is float and type(worked_out) is float:
        return math.isclose(given, worked_out, rel_tol=1e-12, abs_tol=1e-12)
    if type(given) is list and type(worked_out) is list:
        return len(given) == len(worked_out) and all(same(*pair) for pair in zip(given, worked_out, strict=True))
    return type(given) is type(worked_out) and given == worked_out
