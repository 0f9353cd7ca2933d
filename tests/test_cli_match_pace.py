"""
The time left that ``persian-rummy match`` and ``tournament`` tell (issue 31): a tournament's is
worked out match by match from each player's cost, and unknown until every player of the matches
left has played, instead of coming from its first, cheapest match (persian_rummy.cli._pace).

The clock is a fake one, moved on by the test: no time passes.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from persian_rummy.matches import pairings


class Clock:
    """
    A clock that the test moves on.
    """

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _play(
    pace: Callable[[int, int], tuple[float, float | None]],
    clock: Clock,
    games: int,
    seconds_per_game: float,
    finished: list[int],
    total: int,
) -> tuple[float, float | None]:
    """
    Tell *pace* that *games* more games are finished, each having taken *seconds_per_game*; what it says last.
    """
    said: tuple[float, float | None] = (0.0, None)
    for _ in range(games):
        clock.now += seconds_per_game
        finished[0] += 1
        said = pace(finished[0], total)
    return said


def test_a_tournament_is_estimated_from_its_players_not_its_first_match(capsys: pytest.CaptureFixture[str]) -> None:
    """
    Issue 31: "the tournament's time estimate comes from its cheapest first match ('3 minutes more' for 15)".
    Three players, 10 games a match: random against greedy costs 1 s a game, random against the
    search 100 s: the search costs 99.5 s a game, the others 0.5 s, and greedy against the search
    is estimated at 100 s a game (the first match's pace would say 1 s).
    """
    from persian_rummy.cli import _pace  # noqa: PLC0415 (what the test is about)

    clock, finished = Clock(), [0]
    order = pairings(3)
    pace = _pace.TournamentPace(order, 10, 0, clock)
    _, left = _play(pace, clock, 10, 1.0, finished, 30)
    assert left is None  # the search has not played
    _, left = _play(pace, clock, 1, 100.0, finished, 30)
    assert left is None  # one game is not enough to know its match's cost
    _, left = _play(pace, clock, 1, 100.0, finished, 30)
    assert (8 + 10) * (0.5 + 99.5) == pytest.approx(left)
    assert (
        "persian-rummy: this tournament will take about 30 minutes more (18 games, from each player's cheapest"
        " match so far)\n"
    ) == capsys.readouterr().err
    _, left = _play(pace, clock, 8, 100.0, finished, 30)
    assert 10 * 100.0 == pytest.approx(left)
    _, left = _play(pace, clock, 5, 100.0, finished, 30)
    assert 5 * 100.0 == pytest.approx(left)
    assert "" == capsys.readouterr().err  # said once


def test_a_match_is_estimated_from_its_own_pace(capsys: pytest.CaptureFixture[str]) -> None:
    from persian_rummy.cli import _pace  # noqa: PLC0415

    clock, finished = Clock(), [0]
    pace = _pace.Pace(0, clock)
    rate, left = _play(pace, clock, 10, 1.0, finished, 1000)
    assert pytest.approx((1.0, 990.0)) == (rate, left)
    assert "persian-rummy: this match will take about 17 minutes more (998 games at 1.00 games/s)\n" == (
        capsys.readouterr().err
    )


def test_unknown_is_said_so() -> None:
    from persian_rummy.cli import _pace  # noqa: PLC0415

    assert ("unknown", "17 minutes", "2.5 hours") == (_pace.duration(None), _pace.duration(1000), _pace.duration(9000))
