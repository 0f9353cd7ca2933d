"""
Limits on a decision that hold whatever the player does (issue 31): a player that catches the
limit's alarm, or that is busy in code that is not Python's, is stopped for good after a grace and
the match goes on with the default move; its CPU time counts every thread it thinks in, and a CPU
limit is kept as the wall-clock one is (persian_rummy.matches._workers, docs/matches.md).

No elapsed time is asserted: CPU time is burnt by the players in exact amounts (``time.thread_time``),
and the grace is made short for the tests.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time

import pytest

from persian_rummy import Rules, View, legal_actions
from persian_rummy.actions import PlayerAction
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.cli import main
from persian_rummy.matches import MatchResult, play_match

ONE_DEAL = Rules(num_deals=1)

posix = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="players in processes of their own")


class FirstLegal:
    """
    Always the first legal action: the default move of a decision over the limit.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return legal_actions(view)[0]


class Swallower:
    """
    Thinks for ever, and catches every exception, the alarm of its limit included (a bare ``except``).
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001, S110 (what the test is about)
                pass


class InC:
    """
    Thinks in C code, which holds the interpreter: no alarm can stop it.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        sum(range(10**13))
        return legal_actions(view)[0]


def _burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class Threaded:
    """
    Thinks in two threads, which burn *seconds* of CPU time each, at its first decision (in each
    process it plays in); then plays the first legal action.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.thought = False

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        if not self.thought:
            self.thought = True
            threads = [threading.Thread(target=_burn, args=(self.seconds,)) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        return legal_actions(view)[0]


def _first_team_decisions(result: MatchResult) -> list[tuple[int, ...]]:
    return [tuple(game.decisions[seat] if seat in game.seats[0] else 0 for seat in range(4)) for game in result.games]


@pytest.fixture
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    from persian_rummy.matches import _workers  # noqa: PLC0415 (what the test changes)

    monkeypatch.setattr(_workers, "GRACE", 0.2)


@posix
@pytest.mark.usefixtures("short_grace")
@pytest.mark.parametrize("player", [Swallower(), InC()], ids=["catches-the-alarm", "busy-in-c"])
def test_a_player_over_its_limit_is_stopped_for_good_and_the_match_goes_on(player: object) -> None:
    """
    Issue 31: "A player that swallows every exception (bare except) ignores --decision-limit and ran
    36 minutes; a player busy in C code ignores it too."  Each is killed at its first decision of
    each game, and its seat plays the first legal action at every decision left in the game.
    """
    stopped = play_match(player, GreedyPlayer(), 2, seed=2, rules=ONE_DEAL, decision_limit=0.05)  # type: ignore[arg-type]
    first = play_match(FirstLegal(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL)
    assert [game.deals for game in first.games] == [game.deals for game in stopped.games]
    assert _first_team_decisions(first) == [game.overruns for game in stopped.games]
    assert (first.summary.decisions[0], 0) == stopped.summary.overruns


@posix
def test_a_player_the_alarm_stops_goes_on_in_its_process() -> None:
    """
    A player that lets the alarm stop it is not killed: it goes on in its process, counted over
    the limit at that decision only.
    """

    class SlowOnce:
        def __init__(self) -> None:
            self.slow = True

        def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
            if self.slow:
                self.slow = False
                time.sleep(30)
            return legal_actions(view)[0]

    limited = play_match(SlowOnce(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL, decision_limit=0.05)
    # One process for each of the team's two seats, each over its limit at its first decision.
    assert (2, 0) == limited.summary.overruns


def test_cpu_time_counts_every_thread_of_the_player() -> None:
    """
    Issue 31: "A player that thinks in threads is reported at 0.09 CPU seconds while the process spent
    12.5": the CPU time was the playing thread's.
    """
    result = play_match(Threaded(0.15), RandomPlayer(), 2, seed=1, rules=ONE_DEAL)
    game = result.games[0]
    assert sum(game.cpu[seat] for seat in game.seats[0]) >= 0.3


@posix
def test_in_its_process_too() -> None:
    result = play_match(Threaded(0.15), RandomPlayer(), 2, seed=1, rules=ONE_DEAL, decision_limit=60.0)
    game = result.games[0]
    # Each of the team's seats plays in a process of its own, and thinks in threads at its first decision.
    assert sum(game.cpu[seat] for seat in game.seats[0]) >= 0.6


@posix
def test_a_cpu_limit_counts_the_threads() -> None:
    """
    Issue 31: "an optional per-player CPU budget is enforced": a decision over ``cpu_limit`` CPU
    seconds, counted over every thread of the player, is replaced by the first legal action.
    """
    limited = play_match(Threaded(0.3), RandomPlayer(), 2, seed=1, rules=ONE_DEAL, cpu_limit=0.1)
    assert limited.summary.overruns[0] >= 2
    assert 0 == limited.summary.overruns[1]


@posix
@pytest.mark.once
@pytest.mark.usefixtures("short_grace")
def test_a_player_burning_cpu_for_ever_is_stopped_by_the_kernel() -> None:
    """
    A player whose threads burn CPU time for ever, between its decisions too, and catches its alarm:
    the kernel ends its process at its CPU limit (RLIMIT_CPU), and it is stopped for good.
    """

    class Burner:
        def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
            if threading.active_count() < 3:
                threading.Thread(target=_burn, args=(3600.0,), daemon=True).start()
            with contextlib.suppress(BaseException):  # every exception, the alarm's too
                _burn(3600.0)
            return legal_actions(view)[0]

    limited = play_match(Burner(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL, cpu_limit=0.05)
    first = play_match(FirstLegal(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL)
    assert (first.summary.decisions[0], 0) == limited.summary.overruns


def test_the_command_takes_a_cpu_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["match", "random", "random", "--games", "2", "--cpu-limit", "5", "--decision-limit", "5"])
    assert "decisions over the limit" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("limit", "message"),
    [
        (0, "cpu_limit must be a number of seconds above 0, got 0"),
        ("1", "cpu_limit must be a number of seconds or None, got '1'"),
    ],
)
def test_a_cpu_limit_is_checked(limit: object, message: str) -> None:
    with pytest.raises((TypeError, ValueError)) as raised:
        play_match(RandomPlayer(), RandomPlayer(), 2, cpu_limit=limit)  # type: ignore[arg-type]
    assert message == str(raised.value)
