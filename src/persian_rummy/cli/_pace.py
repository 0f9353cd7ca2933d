"""
The progress of ``persian-rummy match`` and ``tournament``: the games per second and the time
left, shown in a bar on standard error when it is a terminal, and said once on any standard error
when the run will take long.

A match's time left is its games left at the pace of this run.  A tournament's matches differ in
cost (a search against a search costs far more than two quick bots), so its time left is worked
out match by match: each player's cost per game is estimated from its cheapest match so far, and
each match left costs per game the sum of its two players'.  Until every player of a match left
has played, the time left is unknown, and said so.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

#: A run whose estimate is longer than this many seconds says so when its first games are in.
LONG_MATCH: Final = 180
#: Seconds of play after which the pace is taken to be steady enough to estimate the run's length.
STEADY: Final = 2.0
#: Seconds of play within which a long estimate of a match is said, and not after.
EARLY: Final = 60.0


def duration(seconds: float | None) -> str:
    """
    A duration as a person says it: ``"3 minutes"``, ``"2.5 hours"``; ``"unknown"`` for `None`.

    >>> duration(90), duration(600), duration(9000), duration(None)
    ('90 seconds', '10 minutes', '2.5 hours', 'unknown')
    """
    if seconds is None:
        return "unknown"
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"persian-rummy: {message}", file=sys.stderr)  # noqa: T201


class Pace:
    """
    The games per second of this run and the time left, from the first games in; a long estimate
    is said on standard error once, in the first minute.
    """

    what = "match"

    def __init__(self, resumed: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.start = clock()
        self.resumed = resumed
        self.warned = False

    def __call__(self, finished: int, total: int) -> tuple[float, float | None]:
        """
        The games per second and the seconds left (`None`: not known yet), now that *finished*
        of *total* games are.
        """
        elapsed = max(self.clock() - self.start, 1e-9)
        rate = max(finished - self.resumed, 1) / elapsed  # the games resumed are not this run's
        left = self.left(finished, total, rate)
        # Said once, once the first seconds have steadied the pace (the first games pay for the start).
        steady = elapsed >= STEADY or finished - self.resumed >= total // 10
        if not self.warned and steady and self.early(elapsed) and left is not None and left > LONG_MATCH:
            self.warned = True
            _say(
                f"this {self.what} will take about {duration(left)} more ({total - finished:,} games{self.basis(rate)})"
            )
        return rate, left

    def left(self, finished: int, total: int, rate: float) -> float | None:
        """
        The seconds left: the games left at this run's pace.
        """
        return (total - finished) / rate

    def early(self, elapsed: float) -> bool:
        """
        Whether a long estimate may still be said: in the first minute.
        """
        return elapsed <= EARLY

    def basis(self, rate: float) -> str:
        """
        What the estimate is made from, as the long estimate's line says it.
        """
        return f" at {rate:,.2f} games/s"


class TournamentPace(Pace):
    """
    The pace of a tournament of *players* players, *games* games a match in the order of
    ``pairings``: the time left from each player's cheapest match so far, unknown until every
    player of the matches left has played; a long estimate is said once, when it is first known.
    """

    what = "tournament"

    def __init__(
        self, pairs: list[tuple[int, int]], games: int, resumed: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(resumed, clock)
        self.pairs, self.games = pairs, games
        self.seconds = [0.0] * len(pairs)  # of this run, by match
        self.played = [0] * len(pairs)  # games of this run, by match
        self.seen, self.when = resumed, self.start

    def __call__(self, finished: int, total: int) -> tuple[float, float | None]:
        now = self.clock()
        if finished > self.seen:
            match = min((finished - 1) // self.games, len(self.pairs) - 1)
            self.seconds[match] += now - self.when
            self.played[match] += finished - self.seen
        self.seen, self.when = finished, now
        return super().__call__(finished, total)

    def costs(self) -> list[float | None]:
        """
        Each player's estimated seconds per game: from its cheapest match, the cheapest of all
        split evenly between its two players; `None` for a player not seen yet.
        """
        per_game = [
            seconds / played if played >= 2 else None for seconds, played in zip(self.seconds, self.played, strict=True)
        ]
        known = [cost for cost in per_game if cost is not None]
        if not known:
            return [None] * (1 + max(max(pair) for pair in self.pairs))
        floor = min(known) / 2
        players: list[float | None] = [None] * (1 + max(max(pair) for pair in self.pairs))
        for (first, second), cost in zip(self.pairs, per_game, strict=True):
            for player in (first, second):
                if cost is not None:
                    best = players[player]
                    players[player] = cost - floor if best is None else min(best, cost - floor)
        return players

    def left(self, finished: int, total: int, rate: float) -> float | None:  # noqa: ARG002
        """
        The seconds left: each match's games left at its players' costs per game.
        """
        players = self.costs()
        seconds = 0.0
        for number, (first, second) in enumerate(self.pairs):
            games_left = min(self.games, max(0, (number + 1) * self.games - finished))
            if not games_left:
                continue
            one, other = players[first], players[second]
            if one is None or other is None:
                return None
            seconds += games_left * (one + other)
        return seconds

    def early(self, elapsed: float) -> bool:  # noqa: ARG002
        """
        A tournament's estimate is known late: it is said whenever it first is.
        """
        return True

    def basis(self, rate: float) -> str:  # noqa: ARG002
        return ", from each player's cheapest match so far"


@contextmanager
def progress(games: int, pace: Pace) -> Iterator[Callable[[int, int], None]]:
    """
    The run's progress: a bar on standard error if it is a terminal, with the games per second and
    the time left; on any standard error, a line at the start if the run will take long.
    """
    stream = sys.stderr
    if stream is None or not stream.isatty() or os.environ.get("TERM") == "dumb":

        def estimate(finished: int, total: int) -> None:
            pace(finished, total)

        yield estimate
        return
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[pace]}"),
    )
    with Progress(*columns, console=Console(file=stream), transient=True) as bar:
        task = bar.add_task("games", total=games, completed=pace.resumed, pace="")

        def advance(finished: int, total: int) -> None:
            rate, left = pace(finished, total)
            bar.update(task, completed=finished, total=total, pace=f"{rate:,.1f} games/s, {duration(left)} left")

        yield advance
