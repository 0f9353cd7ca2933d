"""
Matches: `play_match` on duplicate deals, its seeds, its executors, its result, the statistics of
the summary and the JSON form (persian_rummy.matches, docs/matches.md).
"""

from __future__ import annotations

import json
import math
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import persian_rummy
from persian_rummy import (
    Deal,
    DealScore,
    Discard,
    IllegalActionError,
    InvalidDataError,
    InvalidTypeError,
    InvalidValueError,
    Pass,
    PlayerAction,
    Rules,
    TakeDiscard,
    View,
    legal_actions,
    replay,
)
from persian_rummy.bots.players import Player, RandomPlayer
from persian_rummy.events import Event, view_from_events
from persian_rummy.matches import GameResult, MatchResult, MatchSummary, _runner, _stats, play_match
from persian_rummy.matches import _play as _matchplay
from persian_rummy.records import final_state
from persian_rummy.scoring import DealEnd, TeamScore, team_of

_P = ParamSpec("_P")
_T = TypeVar("_T")


# -- players for the tests ----------------------------------------------------------------------------------------


@attrs.frozen
class FirstPlayer:
    """
    Plays the first legal action, always.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002 (the protocol's)
        return legal_actions(view)[0]


@attrs.frozen
class PassingPlayer:
    """
    Passes, which is illegal while the stock has cards (R21).
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return Pass(view.to_act)  # type: ignore[arg-type]


@attrs.frozen
class Stubborn:
    """
    Takes the top card of the discard pile and discards it again, when it may.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        actions = legal_actions(view)
        top = view.discard_pile[-1] if view.discard_pile else None
        wanted = {TakeDiscard(view.to_act, top), Discard(view.to_act, top)} if top is not None else set()  # type: ignore[arg-type]
        if view.picked:
            wanted = {Discard(view.to_act, card) for card in view.picked}  # type: ignore[arg-type]
        return next((action for action in actions if action in wanted), actions[0])


@attrs.frozen
class ViewedRandom:
    """
    `RandomPlayer` shown its view: without ``choose_among``, a match makes it a view at every decision.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return RandomPlayer().choose(view, rng)


@attrs.frozen
class Last:
    """
    Plays the last legal action, from the legal actions alone when the match gives it them.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return legal_actions(view)[-1]

    def choose_among(self, actions: tuple[PlayerAction, ...], rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return actions[-1]


@attrs.frozen
class ViewedLast:
    """
    `Last` without ``choose_among``.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return Last().choose(view, rng)


@attrs.define
class Historian:
    """
    A listener: keeps the events of its seat and checks, at each decision, that they tell its view.
    """

    heard: list[Event] = attrs.Factory(list)

    def hear(self, event: Event) -> None:
        self.heard.append(event)

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        first_dealer = self.heard[0].dealer
        assert first_dealer is not None
        if view_from_events(view.rules, first_dealer, view.seat, self.heard) != view:
            msg = f"the events heard do not tell the view of seat {view.seat}"
            raise AssertionError(msg)
        return rng.choice(legal_actions(view))


class Reversing(Executor):
    """
    Runs nothing until the last of *tasks* tasks is submitted, then runs them all, the last first.
    """

    def __init__(self, tasks: int) -> None:
        self.tasks = tasks
        self.pending: list[tuple[Future[Any], Callable[[], Any]]] = []
        self.order: list[int] = []

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        future: Future[_T] = Future()
        self.pending.append((future, lambda: fn(*args, **kwargs)))
        if len(self.pending) == self.tasks:
            for number, (waiting, task) in reversed(list(enumerate(self.pending))):
                self.order.append(number)
                waiting.set_result(task())
        return future


def _deal(number: int, first: int, second: int) -> DealScore:
    """
    A deal whose table teams (seats 0 and 2, seats 1 and 3) scored *first* and *second*.
    """
    return DealScore(number, (TeamScore(total=first), TeamScore(total=second)), None, DealEnd.PASSES)


def _game(number: int, table_points: tuple[int, int], **changes: Any) -> GameResult:
    """
    Game *number* of a hand-made match: one deal with *table_points*, by table team.
    """
    fields: dict[str, Any] = {
        "index": number,
        "deck_seed": 100 + number // 2,
        "seeds": (1, 2, 3, 4),
        "first_dealer": number // 2 % 4,
        "seats": ((0, 2), (1, 3)) if number % 2 == 0 else ((1, 3), (0, 2)),
        "deals": (_deal(1, *table_points),),
        "decisions": (10, 10, 10, 10),
        "thinking": (0.0, 0.0, 0.0, 0.0),
    }
    return GameResult(**{**fields, **changes})


def _match(*games: GameResult) -> MatchResult:
    return MatchResult(names=("A", "B"), rules=Rules(), seed=0, games=games)


@pytest.fixture(scope="module")
def serial() -> MatchResult:
    return play_match(RandomPlayer(), RandomPlayer(), 12, seed=11)


# -- duplicate deals ----------------------------------------------------------------------------------------------


class TestDuplicateDeals:
    """
    Each deck sequence is played twice, the teams swapped (R1: partners sit opposite), so that each
    team holds in one game the cards the other held in the other; the first dealer (R5) moves round
    the table from one pair to the next.
    """

    def test_both_games_of_a_pair_deal_the_same_cards_to_the_same_seats(self) -> None:
        result = play_match(RandomPlayer(), FirstPlayer(), 8, seed=7, records=True)
        for first, second in zip(result.games[::2], result.games[1::2], strict=True):
            deals = [[a for a in game.record.actions if type(a) is Deal] for game in (first, second)]  # type: ignore[union-attr]
            shared = min(len(deals[0]), len(deals[1]))
            assert deals[0][:shared] == deals[1][:shared]
            assert (first.deck_seed, first.first_dealer) == (second.deck_seed, second.first_dealer)

    def test_the_teams_swap_seats_within_a_pair(self) -> None:
        result = play_match(RandomPlayer(), FirstPlayer(), 4, seed=7, records=True, names=("rand", "first"))
        assert [((0, 2), (1, 3)), ((1, 3), (0, 2))] * 2 == [game.seats for game in result.games]
        players = [game.record.players for game in result.games]  # type: ignore[union-attr]
        assert [("rand", "first", "rand", "first"), ("first", "rand", "first", "rand")] * 2 == players

    def test_the_first_dealer_moves_round_the_table_pair_by_pair(self) -> None:
        result = play_match(RandomPlayer(), RandomPlayer(), 10, seed=3)
        assert [0, 0, 1, 1, 2, 2, 3, 3, 0, 0] == [game.first_dealer for game in result.games]

    def test_each_pair_has_its_own_decks(self) -> None:
        result = play_match(RandomPlayer(), RandomPlayer(), 10, seed=3)
        assert 5 == len({game.deck_seed for game in result.games})

    def test_a_team_of_two_players_seats_the_first_at_its_first_seat(self) -> None:
        """
        The pair (FirstPlayer, RandomPlayer) plays seats 0 and 2, then 1 and 3: the first legal
        action is chosen at seats 0 and 1 in turn, and only there.
        """
        result = play_match((FirstPlayer(), RandomPlayer()), RandomPlayer(), 2, seed=5, records=True)
        for game, first_seat in zip(result.games, (0, 1), strict=True):
            assert game.record is not None
            always_first = {0: True, 1: True, 2: True, 3: True}
            states = replay(game.record)
            for action, state in zip(game.record.actions, states, strict=False):
                if type(action) is not Deal:
                    always_first[action.seat] &= action == legal_actions(state)[0]
            assert {first_seat: True} == {seat: True for seat, first in always_first.items() if first}

    def test_the_games_points_are_the_records_final_scores_by_team(self) -> None:
        result = play_match(RandomPlayer(), FirstPlayer(), 4, seed=2, records=True)
        for game in result.games:
            assert game.record is not None
            scores = final_state(game.record).scores
            first_team = team_of(game.seats[0][0])
            assert (scores[first_team], scores[1 - first_team]) == game.points


# -- seeds ----------------------------------------------------------------------------------------------------------


class TestSeeds:
    """
    A match is reproducible from its seed: separate streams for the decks of each pair and for
    each player of each game, derived from the seed alone.
    """

    def test_the_same_seed_plays_the_same_match(self, serial: MatchResult) -> None:
        assert serial == play_match(RandomPlayer(), RandomPlayer(), 12, seed=11)

    def test_another_seed_plays_another_match(self, serial: MatchResult) -> None:
        other = play_match(RandomPlayer(), RandomPlayer(), 12, seed=12)
        assert not {game.deck_seed for game in serial.games} & {game.deck_seed for game in other.games}

    def test_the_streams_are_derived_from_the_seed_by_a_fixed_hash(self) -> None:
        result = play_match(RandomPlayer(), RandomPlayer(), 2, seed=1)
        assert 2607637606844801568 == result.games[0].deck_seed == _matchplay.derived_seed(1, "deck", 0)
        assert (_matchplay.derived_seed(1, "player", 1, 2), 4) == (result.games[1].seeds[2], len(result.games[1].seeds))
        assert 8 == len({seed for game in result.games for seed in game.seeds})

    def test_the_match_is_the_same_whatever_the_hash_seed(self) -> None:
        program = (
            "from persian_rummy.matches import play_match\n"
            "from persian_rummy.bots.players import RandomPlayer\n"
            "r = play_match(RandomPlayer(), RandomPlayer(), 4, seed=9)\n"
            "print([g.points for g in r.games], [g.deck_seed for g in r.games])\n"
        )
        outputs = {
            subprocess.run(  # noqa: S603 (this interpreter, a fixed program)
                [sys.executable, "-c", program],
                capture_output=True,
                text=True,
                check=True,
                env={"PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(Path(persian_rummy.__file__ or "").parents[1])},
            ).stdout
            for hash_seed in ("0", "1", "12345")
        }
        here = play_match(RandomPlayer(), RandomPlayer(), 4, seed=9)
        assert {f"{[g.points for g in here.games]} {[g.deck_seed for g in here.games]}\n"} == outputs

    def test_a_longer_match_begins_with_the_games_of_a_shorter_one(self, serial: MatchResult) -> None:
        assert serial.games[:6] == play_match(RandomPlayer(), RandomPlayer(), 6, seed=11).games


# -- executors ------------------------------------------------------------------------------------------------------


class TestExecutors:
    """
    Any ``concurrent.futures.Executor`` plays the match, with the same result as a serial run.
    """

    @pytest.mark.parametrize("workers", [1, 2])
    def test_a_process_pool_gives_the_serial_result(self, serial: MatchResult, workers: int) -> None:
        with ProcessPoolExecutor(workers) as pool:
            assert serial == play_match(RandomPlayer(), RandomPlayer(), 12, seed=11, executor=pool, chunk_size=2)

    def test_a_thread_pool_with_the_default_chunks_gives_the_serial_result(self, serial: MatchResult) -> None:
        with ThreadPoolExecutor(3) as pool:
            assert serial == play_match(RandomPlayer(), RandomPlayer(), 12, seed=11, executor=pool)

    def test_a_match_started_from_another_thread_gives_the_serial_result(self, serial: MatchResult) -> None:
        """
        Only the main thread holds interrupts back while a match waits for its executor.
        """
        with ThreadPoolExecutor(2) as pool, ThreadPoolExecutor(1) as starter:
            started = starter.submit(play_match, RandomPlayer(), RandomPlayer(), 12, seed=11, executor=pool)
            assert serial == started.result()

    def test_the_order_the_tasks_finish_in_does_not_matter(self, serial: MatchResult) -> None:
        executor = Reversing(tasks=3)
        result = play_match(RandomPlayer(), RandomPlayer(), 12, seed=11, executor=executor, chunk_size=4)
        assert [2, 1, 0] == executor.order
        assert serial == result

    def test_chunks_are_whole_pairs(self) -> None:
        executor = Reversing(tasks=3)
        play_match(RandomPlayer(), RandomPlayer(), 10, seed=1, executor=executor, chunk_size=3)
        assert 3 == len(executor.pending)  # pairs 0-1, 2-3 and 4

    def test_by_default_a_task_holds_a_sixteenth_of_the_pairs_from_1_to_32(self) -> None:
        assert [range(1), range(1, 2)] == list(_runner.tasks(range(2), _runner.per_task(2, None)))
        assert 16 == len(list(_runner.tasks(range(320), _runner.per_task(320, None))))
        assert range(32) == next(_runner.tasks(range(100_000), _runner.per_task(100_000, None)))

    def test_a_failure_in_a_task_is_raised_and_the_others_cancelled(self) -> None:
        with ThreadPoolExecutor(1) as pool, pytest.raises(IllegalActionError, match="seat 1 chose it in game 0"):
            play_match(RandomPlayer(), PassingPlayer(), 40, seed=1, executor=pool, chunk_size=2)


class TestProgress:
    """
    ``progress(finished, games)`` is called as games are finished.
    """

    def test_serially_after_each_pair(self) -> None:
        calls: list[tuple[int, int]] = []
        play_match(RandomPlayer(), RandomPlayer(), 6, seed=1, progress=lambda done, total: calls.append((done, total)))
        assert [(2, 6), (4, 6), (6, 6)] == calls

    def test_on_an_executor_after_each_task(self) -> None:
        calls: list[tuple[int, int]] = []
        with ThreadPoolExecutor(2) as pool:
            play_match(
                RandomPlayer(),
                RandomPlayer(),
                12,
                seed=1,
                executor=pool,
                chunk_size=4,
                progress=lambda done, total: calls.append((done, total)),
            )
        assert [(4, 12), (8, 12), (12, 12)] == calls


# -- players --------------------------------------------------------------------------------------------------------


class TestPlayers:
    """
    Each player sees its seat's view only; a listener hears its seat's events; an illegal choice
    and a game that never ends are refused.
    """

    def test_an_illegal_choice_names_the_seat_and_the_game(self) -> None:
        with pytest.raises(IllegalActionError) as caught:
            play_match(RandomPlayer(), PassingPlayer(), 2, seed=1)
        assert "Pass(seat=1)" == repr(caught.value.action)
        assert "the player of seat 1 chose it in game 0: " == caught.value.reason[:41]
        assert ("R21",) == caught.value.rule

    def test_a_listener_hears_its_seats_events_on_a_fresh_copy(self) -> None:
        historian = Historian()
        result = play_match(historian, RandomPlayer(), 2, seed=4)
        assert [] == historian.heard
        assert 2 == result.summary.games

    def test_events_are_worked_out_only_when_a_player_listens(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def refuse(*_: object) -> None:
            raise AssertionError

        monkeypatch.setattr(_matchplay, "events_of", refuse)
        assert 2 == len(play_match(RandomPlayer(), FirstPlayer(), 2, seed=4).games)
        with pytest.raises(AssertionError):
            play_match(Historian(), FirstPlayer(), 2, seed=4)

    def test_a_player_that_looks_only_at_the_legal_actions_is_shown_no_view(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def refuse(*_: object) -> None:
            raise AssertionError

        monkeypatch.setattr(_matchplay, "observe", refuse)
        assert 4 == len(play_match(RandomPlayer(), Last(), 4, seed=3).games)
        with pytest.raises(AssertionError):
            play_match(RandomPlayer(), FirstPlayer(), 4, seed=3)

    @pytest.mark.parametrize(
        ("player", "viewed"), [(RandomPlayer(), ViewedRandom()), (Last(), ViewedLast())], ids=["random", "last"]
    )
    def test_choosing_from_the_legal_actions_plays_the_same_games(self, player: Player, viewed: Player) -> None:
        among, shown = (play_match(p, FirstPlayer(), 8, seed=5, records=True) for p in (player, viewed))
        assert [g.record.actions for g in among.games] == [g.record.actions for g in shown.games]  # type: ignore[union-attr]
        assert [(g.deals, g.decisions) for g in among.games] == [(g.deals, g.decisions) for g in shown.games]

    def test_a_game_that_does_not_end_is_stopped(self) -> None:
        """
        With A9 (a top discard taken need not be played), four players who take the top card
        and discard it again play for ever.
        """
        with pytest.raises(InvalidValueError, match=r"^game 0 has not ended after 100,000 actions$"):
            play_match(Stubborn(), Stubborn(), 2, rules=Rules(top_discard_free=True))


# -- the result -----------------------------------------------------------------------------------------------------


class TestGameResult:
    """
    A game's result: its seeds, seats, deals, decisions and thinking times; points, margin and
    winner by team of the match.
    """

    def test_points_margin_and_winner_are_the_first_teams_by_the_seats(self) -> None:
        first = _game(0, (30, 50))
        second = _game(1, (30, 50))
        assert ((30, 50), -20, 1) == (first.points, first.margin, first.winner)
        assert ((50, 30), 20, 0) == (second.points, second.margin, second.winner)

    def test_equal_points_are_a_draw(self) -> None:
        assert None is _game(0, (40, 40)).winner

    def test_thinking_times_are_left_out_of_comparisons(self) -> None:
        game = _game(0, (1, 2))
        slower = attrs.evolve(game, thinking=(1.0, 2.0, 3, 4))
        assert (game, hash(game)) == (slower, hash(slower))
        assert (1.0, 2.0, 3.0, 4.0) == slower.thinking
        assert game != attrs.evolve(game, decisions=(10, 10, 10, 11))

    @pytest.mark.parametrize(
        ("changes", "error", "message"),
        [
            ({"index": -1}, InvalidValueError, "index must be 0 or more, got -1"),
            ({"deck_seed": 2**64}, InvalidValueError, f"deck_seed must be below 2**64, got {2**64}"),
            ({"seeds": (1, 2, 3)}, InvalidTypeError, "seeds must be four values, one per seat, got (1, 2, 3)"),
            ({"seeds": (1, 2, 3, "4")}, InvalidTypeError, "seeds must be an int, got '4'"),
            ({"first_dealer": 4}, InvalidValueError, "first_dealer must be a seat 0-3, got 4"),
            (
                {"seats": ((0, 1), (2, 3))},
                InvalidValueError,
                "seats must be ((0, 2), (1, 3)) or ((1, 3), (0, 2)), the seats of each team, got ((0, 1), (2, 3))",
            ),
            (
                {"seats": "02"},
                InvalidValueError,
                "seats must be ((0, 2), (1, 3)) or ((1, 3), (0, 2)), the seats of each team, got '02'",
            ),
            ({"deals": ()}, InvalidTypeError, "deals must be the DealScore of each deal played, got ()"),
            ({"deals": (_deal(2, 1, 1),)}, InvalidValueError, "deals must be numbered 1, 2, ... in order, got [2]"),
            ({"decisions": (1, 2, 3, -4)}, InvalidValueError, "decisions must be 0 or more, got -4"),
            (
                {"thinking": (0, 0, 0, math.nan)},
                InvalidValueError,
                "thinking times must be seconds, 0 or more, got nan",
            ),
            ({"thinking": (0, 0, 0, "1")}, InvalidTypeError, "thinking times must be numbers of seconds, got '1'"),
            ({"record": "game"}, InvalidTypeError, "record must be a GameRecord or None, got 'game'"),
        ],
    )
    def test_fields_are_checked(self, changes: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error) as caught:
            _game(0, (1, 2), **changes)
        assert message == str(caught.value)

    def test_results_pickle(self, serial: MatchResult) -> None:
        assert serial == pickle.loads(pickle.dumps(serial))  # noqa: S301 (our own value)


class TestMatchResult:
    """
    A match's result: the games, in duplicate pairs, numbered in order.
    """

    @pytest.mark.parametrize(
        ("games", "error", "message"),
        [
            ((), InvalidValueError, "a match has an even number of games, two for each duplicate deal, got 0"),
            (
                (_game(0, (1, 2)),),
                InvalidValueError,
                "a match has an even number of games, two for each duplicate deal, got 1",
            ),
            (
                (_game(0, (1, 2)), _game(2, (1, 2))),
                InvalidValueError,
                "games must be numbered 0, 1, ... in order: game 1 has index 2",
            ),
            (
                (_game(0, (1, 2)), _game(1, (1, 2), deck_seed=5)),
                InvalidValueError,
                "game 1 is not the duplicate of game 0: same decks and dealer, teams swapped",
            ),
            (
                (_game(0, (1, 2)), _game(1, (1, 2), seats=((0, 2), (1, 3)))),
                InvalidValueError,
                "game 1 is not the duplicate of game 0: same decks and dealer, teams swapped",
            ),
            (("game", "game"), InvalidTypeError, "games must be GameResult values, got ('game', 'game')"),
        ],
    )
    def test_games_are_checked(self, games: tuple[Any, ...], error: type[Exception], message: str) -> None:
        with pytest.raises(error) as caught:
            _match(*games)
        assert message == str(caught.value)

    @pytest.mark.parametrize(
        ("changes", "error", "message"),
        [
            (
                {"names": ("A",)},
                InvalidTypeError,
                "names must be two names, the first team's and the second's, got ('A',)",
            ),
            ({"names": ("A", "")}, InvalidValueError, "a team's name has 1 to 100 printable characters, got ''"),
            ({"names": ("A", "B\n")}, InvalidValueError, "a team's name has 1 to 100 printable characters, got 'B\\n'"),
            ({"names": ("A", 2)}, InvalidTypeError, "a team's name must be text, got 2"),
            ({"rules": "-"}, InvalidTypeError, "rules must be a Rules, got '-'"),
            ({"seed": 1.5}, InvalidTypeError, "seed must be an int, got 1.5"),
        ],
    )
    def test_fields_are_checked(self, changes: dict[str, Any], error: type[Exception], message: str) -> None:
        fields: dict[str, Any] = {
            "names": ("A", "B"),
            "rules": Rules(),
            "seed": 0,
            "games": (_game(0, (1, 2)), _game(1, (1, 2))),
        }
        with pytest.raises(error) as caught:
            MatchResult(**{**fields, **changes})
        assert message == str(caught.value)

    def test_without_records(self) -> None:
        kept = play_match(RandomPlayer(), RandomPlayer(), 2, seed=3, records=True)
        assert [None, None] == [game.record for game in kept.without_records().games]
        assert kept.without_records() == play_match(RandomPlayer(), RandomPlayer(), 2, seed=3)
        assert "persian-rummy match, seed 3, game 1" == kept.games[1].record.event  # type: ignore[union-attr]

    def test_repr_counts_the_games(self) -> None:
        assert repr(_match(_game(0, (1, 2)), _game(1, (1, 2)))).endswith("seed=0, games=<2 games>, planned=2)")


# -- the summary ----------------------------------------------------------------------------------------------------


class TestSummary:
    """
    Wins, draws and losses; the score rate (a win 1, a draw 0.5) with its Wilson 95% interval; the
    mean margin with its Student's t 95% interval over the duplicate pairs; the thinking times.
    """

    def test_counts_rate_and_margin(self) -> None:
        # margins of the first team: -20 and +20 (pair 0), +10 and 0 (pair 1)
        result = _match(_game(0, (30, 50)), _game(1, (30, 50)), _game(2, (60, 50)), _game(3, (7, 7)))
        summary = result.summary
        assert (4, 2, 1, 1) == (summary.games, summary.wins, summary.draws, summary.losses)
        assert ((30 + 50 + 60 + 7), (50 + 30 + 50 + 7)) == summary.points
        assert 0.625 == summary.score_rate
        assert _stats.wilson_interval(2.5, 4) == summary.score_interval
        assert 2.5 == summary.mean_margin
        # pair margins 0 and 5: mean 2.5, standard error 2.5, t with 1 degree of freedom
        t = _stats.t_quantile_95(1)
        assert (2.5 - t * 2.5, 2.5 + t * 2.5) == pytest.approx(summary.margin_interval)

    def test_a_single_pair_has_no_margin_interval(self) -> None:
        assert None is _match(_game(0, (1, 2)), _game(1, (1, 2))).summary.margin_interval

    def test_thinking_per_decision_by_team_and_by_seat(self) -> None:
        times = {"decisions": (1, 2, 3, 4), "thinking": (0.001, 0.004, 0.006, 0.002)}
        summary = _match(_game(0, (1, 2), **times), _game(1, (1, 2), **times)).summary
        # team 1: seats 0 and 2 in game 0, seats 1 and 3 in game 1
        assert (1 + 3 + 2 + 4, 2 + 4 + 1 + 3) == summary.decisions
        assert pytest.approx((13 / 10, 13 / 10)) == summary.ms_per_decision
        assert [pytest.approx((5 / 3, 8 / 7))] * 2 == list(summary.member_ms_per_decision)

    def test_no_decision_takes_no_time(self) -> None:
        times = {"decisions": (0, 0, 0, 0)}
        summary = _match(_game(0, (1, 2), **times), _game(1, (1, 2), **times)).summary
        assert (0.0, 0.0) == summary.ms_per_decision

    def test_summaries_compare_without_the_times(self) -> None:
        a = _match(_game(0, (1, 2)), _game(1, (1, 2))).summary
        b = _match(_game(0, (1, 2), thinking=(1, 1, 1, 1)), _game(1, (1, 2))).summary
        assert a == b
        assert a.ms_per_decision != b.ms_per_decision

    def test_a_random_match_of_equal_players(self) -> None:
        summary = play_match(RandomPlayer(), RandomPlayer(), 8, seed=7).summary
        assert (3, 0, 5, 0.375, -74.75) == (
            summary.wins,
            summary.draws,
            summary.losses,
            summary.score_rate,
            summary.mean_margin,
        )
        assert isinstance(summary, MatchSummary)


class TestIntervals:
    """
    The 95% intervals: Wilson's for a rate, Student's t for a mean.
    """

    @pytest.mark.parametrize(
        ("df", "quantile"),
        [
            (1, 12.7062),
            (2, 4.3027),
            (5, 2.5706),
            (10, 2.2281),
            (20, 2.0860),
            (30, 2.0423),
            (60, 2.0003),
            (120, 1.9799),
            (1000, 1.9623),
        ],
    )
    def test_t_quantiles_agree_with_the_tables(self, df: int, quantile: float) -> None:
        assert quantile == round(_stats.t_quantile_95(df), 4)

    def test_the_exact_quantile_and_the_expansion_meet(self) -> None:
        assert _stats.t_quantile_95(100) == pytest.approx(_stats._cornish_fisher(100), abs=1e-9)

    def test_wilson_interval_of_known_cases(self) -> None:
        assert (0.2366, 0.7634) == tuple(round(x, 4) for x in _stats.wilson_interval(5, 10))
        assert (0.0, 0.2775) == tuple(round(x, 4) for x in _stats.wilson_interval(0, 10))
        assert (0.7225, 1.0) == tuple(round(x, 4) for x in _stats.wilson_interval(10, 10))

    @given(st.integers(1, 10_000), st.floats(0, 1))
    def test_a_wilson_interval_holds_the_rate(self, n: int, share: float) -> None:
        score = round(share * n * 2) / 2
        low, high = _stats.wilson_interval(score, n)
        assert 0 <= low <= score / n <= high <= 1

    @given(st.lists(st.integers(-500, 500), min_size=2, max_size=50))
    def test_a_t_interval_holds_the_mean(self, values: list[int]) -> None:
        interval = _stats.mean_interval([float(v) for v in values])
        assert interval is not None
        mean = sum(values) / len(values)
        assert interval[0] <= mean + 1e-9
        assert mean - 1e-9 <= interval[1]

    @given(st.integers(1, 400))
    def test_t_quantiles_fall_towards_the_normal_one(self, df: int) -> None:
        assert _stats.t_quantile_95(df) > _stats.t_quantile_95(df + 1) > _stats.Z95


# -- JSON ------------------------------------------------------------------------------------------------------------


class TestJSON:
    """
    A result is written as a ``match`` document whose deals and records are the documents of
    persian_rummy.serialize, and read back equal, everything checked.
    """

    def test_round_trip(self, serial: MatchResult) -> None:
        text = serial.to_json()
        assert serial == MatchResult.from_json(text)
        assert serial == MatchResult.from_data(json.loads(text))
        assert [g.thinking for g in serial.games] == [g.thinking for g in MatchResult.from_json(text).games]

    def test_round_trip_with_records(self) -> None:
        kept = play_match(RandomPlayer(), FirstPlayer(), 2, seed=3, records=True, names=("random", "first"))
        assert kept == MatchResult.from_json(kept.to_json().encode())

    def test_one_game_per_line(self, serial: MatchResult) -> None:
        lines = serial.to_json().splitlines()
        assert 1 + 12 + 1 == len(lines)
        assert lines[0].startswith('{"format": "persian-rummy", "version": 1, "kind": "match", "names": ')
        assert lines[0].endswith(', "games": [')
        assert ["]}"] == lines[-1:]

    def test_the_summary_is_written_for_readers(self, serial: MatchResult) -> None:
        summary = serial.to_data()["summary"]
        assert isinstance(summary, dict)
        assert (12, serial.summary.wins, [serial.summary.points[0], serial.summary.points[1]]) == (
            summary["games"],
            summary["wins"],
            summary["points"],
        )

    @staticmethod
    def _broken(change: Callable[[dict[str, Any]], object]) -> str:
        data = play_match(RandomPlayer(), RandomPlayer(), 2, seed=3).to_data()
        change(data)
        return json.dumps(data)

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (
                lambda d: d.update(kind="record"),
                "$: expected format 'persian-rummy', version 1 and kind 'match', got ('persian-rummy', 1, 'record')",
            ),
            (lambda d: d.update(extra=1), "$: unknown field 'extra'"),
            (lambda d: d.pop("seed"), "$: missing field 'seed'"),
            (
                lambda d: d.update(rules="nonsense=1"),
                "$.rules: unknown rule switch 'nonsense' in 'nonsense=1'",
            ),
            (
                lambda d: d.update(names=["A"]),
                "$: names must be two names, the first team's and the second's, got ['A']",
            ),
            (lambda d: d.update(games={}), "$.games: expected an array, got {}"),
            (
                lambda d: d["games"][1].update(first_dealer=3),
                "$: game 1 is not the duplicate of game 0: same decks and dealer, teams swapped",
            ),
            (
                lambda d: d["games"][0].update(winner=None),
                "$.games[0]: winner and points must be those of the deals, 0 and [405, 277]",
            ),
            (
                lambda d: d["games"][0].update(seeds=[1, 2]),
                "$.games[0]: seeds must be four values, one per seat, got [1, 2]",
            ),
            (lambda d: d["games"][0].update(thinking=None), "$.games[0].thinking: expected an array, got None"),
            (
                lambda d: d["games"][0]["deals"][0].update(deal=0),
                "$.games[0].deals[0]: $.deal: expected an integer from 1 to 1000, got 0",
            ),
            (
                lambda d: d["games"][0].update(record=d["games"][0]["deals"][0]),
                "$.games[0].record: expected a GameRecord document, got a DealScore",
            ),
            (lambda d: d["summary"].pop("wins"), "$.summary: missing field 'wins'"),
        ],
    )
    def test_what_is_wrong_is_named_with_its_place(
        self, change: Callable[[dict[str, Any]], object], message: str
    ) -> None:
        with pytest.raises(InvalidDataError) as caught:
            MatchResult.from_json(self._broken(change))
        assert message == str(caught.value)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("{", "$: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
            ('{"a": 1, "a": 2}', "$: duplicate key 'a' in an object"),
            ("[NaN]", "$: NaN is not a JSON number"),
            (
                "[" * 100_000 + "]" * 100_000,
                "$: not a document: arrays and objects nested more than 32 deep, or left open",
            ),
            ("[]", "$: expected an object, got []"),
        ],
    )
    def test_text_that_is_not_a_document(self, text: str, message: str) -> None:
        with pytest.raises(InvalidDataError) as caught:
            MatchResult.from_json(text)
        assert message == str(caught.value)

    def test_only_text_is_read(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"^text must be JSON text, got 3$"):
            MatchResult.from_json(3)  # type: ignore[arg-type]


# -- arguments --------------------------------------------------------------------------------------------------------


class TestArguments:
    """
    Bad arguments of `play_match` are refused with the library's errors, before any game is played.
    """

    @pytest.mark.parametrize(
        ("arguments", "error", "message"),
        [
            (
                {"games": 3},
                InvalidValueError,
                "games must be an even number from 2 to 10,000,000, two for each duplicate deal, got 3",
            ),
            (
                {"games": 0},
                InvalidValueError,
                "games must be an even number from 2 to 10,000,000, two for each duplicate deal, got 0",
            ),
            ({"games": True}, InvalidTypeError, "games must be an int, got True"),
            ({"first": "random"}, InvalidTypeError, "first must be a Player or a pair of Players, got 'random'"),
            (
                {"second": (RandomPlayer(),) * 3},
                InvalidTypeError,
                "second must be a Player or a pair of Players, got (RandomPlayer(), RandomPlayer(), RandomPlayer())",
            ),
            ({"rules": "-"}, InvalidTypeError, "rules must be a Rules or None, got '-'"),
            ({"seed": "1"}, InvalidTypeError, "seed must be an int, got '1'"),
            ({"executor": 2}, InvalidTypeError, "executor must be a concurrent.futures.Executor or None, got 2"),
            ({"progress": 2}, InvalidTypeError, "progress must be callable, got 2"),
            ({"records": 1}, InvalidTypeError, "records must be True or False, got 1"),
            (
                {"names": ("A", "B", "C")},
                InvalidTypeError,
                "names must be two names, the first team's and the second's, got ('A', 'B', 'C')",
            ),
            (
                {"chunk_size": 0},
                InvalidValueError,
                "chunk_size must be 1 or more, got 0",
            ),
            (
                {"chunk_size": 2.0},
                InvalidTypeError,
                "chunk_size must be an int or None, got 2.0",
            ),
        ],
    )
    def test_refused(self, arguments: dict[str, Any], error: type[Exception], message: str) -> None:
        given_arguments: dict[str, Any] = {"first": RandomPlayer(), "second": RandomPlayer(), "games": 2, **arguments}
        with pytest.raises(error) as caught:
            play_match(**given_arguments)
        assert message == str(caught.value)

    def test_default_names_are_the_players_classes(self) -> None:
        result = play_match((RandomPlayer(), FirstPlayer()), FirstPlayer(), 2)
        assert ("RandomPlayer & FirstPlayer", "FirstPlayer") == result.names
        assert (Rules(), 0) == (result.rules, result.seed)
