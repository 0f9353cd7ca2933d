"""
Players in a match (issue 20): what is not a player is refused, a player's own exception comes out as a
`PlayerError` naming the player, seat, game and decision, thinking is timed on the wall clock and in CPU
time, and a decision may be given a limit (persian_rummy.matches, docs/matches.md).
"""

from __future__ import annotations

import random
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from persian_rummy import InvalidTypeError, InvalidValueError, PlayerError, Rules, View, legal_actions
from persian_rummy.actions import PlayerAction
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.matches import MatchResult, play_match
from persian_rummy.matches import _play as _matchplay

ONE_DEAL = Rules(num_deals=1)


class FirstLegal:
    """
    Always the first legal action: what a decision over the limit is replaced by.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return legal_actions(view)[0]


class Hanging:
    """
    Thinks for ever at every decision.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        while True:
            pass


class Slow:
    """
    Sleeps (taking no CPU time) for *seconds* at every decision, then plays as the first legal action.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        time.sleep(self.seconds)
        return legal_actions(view)[0]


class FakeClock:
    """
    The clocks of the time module, which only `advance` moves on.
    """

    def __init__(self) -> None:
        self.now = 0.0

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def perf_counter(self) -> float:
        return self.now

    def process_time(self) -> float:
        return 0.0

    thread_time = process_time


class Waiting:
    """
    Waits *seconds* on the fake *clock* at every decision, taking no CPU time, then plays the first legal action.
    """

    def __init__(self, clock: FakeClock, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        self.clock.advance(self.seconds)
        return legal_actions(view)[0]


class Failing:
    """
    Raises at its third decision of each game it plays a seat in.
    """

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        self.calls += 1
        if self.calls == 3:
            msg = "out of ideas"
            raise ZeroDivisionError(msg)
        return GreedyPlayer().choose(view, rng)


class NotCallable:
    choose = 3


class TestWhatIsAPlayer:
    """
    Issue 20: "play_match(RandomPlayer, ...) (the class) and an object whose choose is not callable raise
    TypeError" (a bare one, from inside the game).
    """

    def test_a_class_is_refused_before_the_match(self) -> None:
        with pytest.raises(InvalidTypeError) as raised:
            play_match(RandomPlayer, RandomPlayer(), 2)  # type: ignore[arg-type]
        assert (
            "first must be a Player, got the class RandomPlayer: a player is one of its values (RandomPlayer())"
        ) == str(raised.value)

    def test_a_choose_that_cannot_be_called_is_refused(self) -> None:
        with pytest.raises(InvalidTypeError) as raised:
            play_match(RandomPlayer(), (RandomPlayer(), NotCallable()), 2)  # type: ignore[arg-type]
        assert re.fullmatch(
            r"second must be a Player, got <tests\.test_matches_players\.NotCallable object at 0x[0-9a-f]+>,"
            r" whose choose cannot be called",
            str(raised.value),
        )


class TestPlayerErrors:
    """
    Issue 20: "a player's own exception is wrapped in a library error naming the player, seat, game and
    decision, with the original chained"; it came out with no seat or game.
    """

    def test_the_error_names_the_player_seat_game_and_decision(self) -> None:
        with pytest.raises(PlayerError) as raised:
            play_match(RandomPlayer(), Failing(), 4, seed=1, rules=ONE_DEAL, names=("random", "failing"))
        error = raised.value
        # Game 0: the second team holds seats 1 and 3, and the one Failing value plays both.  Seat 1
        # acts first (after the dealer, seat 0), its draw and its play two decisions; the third call
        # is seat 3's first decision.
        assert ("failing", 3, 0, 1) == (error.player, error.seat, error.game, error.decision)
        assert ZeroDivisionError is type(error.__cause__)
        assert str(error) == (
            f"the player failing of seat 3 failed in game 0, at its decision 1 (action {error.action} of the game):"
            " ZeroDivisionError: out of ideas"
        )

    def test_it_is_a_library_error(self) -> None:
        with pytest.raises(RuntimeError):
            play_match(Failing(), RandomPlayer(), 2, rules=ONE_DEAL)


class TestThinkingTime:
    """
    Issue 20: "CPU time beside wall time for every player (per decision, per match), and the tables say
    which"; thinking time was wall clock only.
    """

    def test_a_waiting_player_takes_wall_time_and_no_cpu_time(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """
        On a fake clock, which only the waiting player moves on: 2 ms a decision on the wall clock, no CPU time.
        """
        clock = FakeClock()
        monkeypatch.setattr(_matchplay, "time", clock)
        result = play_match(Waiting(clock, 0.002), FirstLegal(), 2, seed=4, rules=ONE_DEAL)
        summary = result.summary
        game = result.games[0]
        waiting = game.seats[0]
        decisions = sum(game.decisions[seat] for seat in waiting)
        assert pytest.approx(0.002 * decisions) == sum(game.thinking[seat] for seat in waiting)
        assert 0.0 == sum(game.cpu[seat] for seat in game.seats[0] + game.seats[1])
        assert pytest.approx((2.0, 0.0)) == summary.ms_per_decision
        assert (0.0, 0.0) == summary.cpu_ms_per_decision

    def test_cpu_time_is_written_and_read_and_left_out_of_comparisons(self) -> None:
        result = play_match(GreedyPlayer(), RandomPlayer(), 2, seed=4, rules=ONE_DEAL)
        again = MatchResult.from_json(result.to_json())
        assert [game.cpu for game in result.games] == [game.cpu for game in again.games]
        assert result == play_match(GreedyPlayer(), RandomPlayer(), 2, seed=4, rules=ONE_DEAL)


class TestDecisionLimit:
    """
    Issue 20: "Per-decision deadline (optional): a player that overruns it gets a documented consequence";
    a player that hung hung the match for ever.  The consequence: the seat's first legal action, counted
    in `GameResult.overruns`.
    """

    def test_a_hanging_player_is_stopped_and_plays_the_first_legal_action(self) -> None:
        hung = play_match(Hanging(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL, decision_limit=0.01)
        first = play_match(FirstLegal(), GreedyPlayer(), 2, seed=2, rules=ONE_DEAL)
        assert [game.deals for game in first.games] == [game.deals for game in hung.games]
        assert [game.decisions for game in first.games] == [game.decisions for game in hung.games]
        expected = tuple(
            tuple(game.decisions[seat] if seat in game.seats[0] else 0 for seat in range(4)) for game in first.games
        )
        assert expected == tuple(game.overruns for game in hung.games)
        assert (first.summary.decisions[0], 0) == hung.summary.overruns

    def test_on_a_thread_pool_too(self) -> None:
        with ThreadPoolExecutor(1) as pool:
            slow = play_match(
                Slow(0.003), RandomPlayer(), 2, seed=2, rules=ONE_DEAL, decision_limit=0.001, executor=pool
            )
        assert slow.summary.decisions[0] == slow.summary.overruns[0]

    def test_overruns_are_written_and_read(self) -> None:
        slow = play_match(Slow(0.002), RandomPlayer(), 2, seed=2, rules=ONE_DEAL, decision_limit=0.001)
        assert slow == MatchResult.from_json(slow.to_json())
        assert [game.overruns for game in slow.games] == [
            game.overruns for game in MatchResult.from_json(slow.to_json()).games
        ]

    @pytest.mark.parametrize(
        ("limit", "error", "message"),
        [
            (0, InvalidValueError, "decision_limit must be a number of seconds above 0, got 0"),
            (float("inf"), InvalidValueError, "decision_limit must be a number of seconds above 0, got inf"),
            ("1", InvalidTypeError, "decision_limit must be a number of seconds or None, got '1'"),
        ],
    )
    def test_refused(self, limit: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error) as raised:
            play_match(RandomPlayer(), RandomPlayer(), 2, decision_limit=limit)  # type: ignore[arg-type]
        assert message == str(raised.value)
