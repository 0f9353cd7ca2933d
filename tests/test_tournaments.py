"""
Tournaments (issue 20): a round robin on duplicate deals, a cross table of score rates with intervals,
ratings with uncertainty (issue 31: fitted to all the games at once, with bootstrap intervals), a JSON
result, resumable like a match (persian_rummy.matches.play_tournament, docs/matches.md).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from persian_rummy import InvalidDataError, InvalidValueError, Rules, View, legal_actions
from persian_rummy.actions import PlayerAction
from persian_rummy.bots.players import GreedyPlayer, Player, RandomPlayer
from persian_rummy.cli import main
from persian_rummy.matches import Rating, TournamentResult, _ratings, pairings, play_match, play_tournament

ONE_DEAL = Rules(num_deals=1)


class Last:
    """
    The last legal action: a third player, unlike the others.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return legal_actions(view)[-1]


def _players() -> dict[str, Player]:
    return {"random": RandomPlayer(), "greedy": GreedyPlayer(), "last": Last()}


def _tournament(**limits: object) -> TournamentResult:
    return play_tournament(_players(), 4, rules=ONE_DEAL, seed=2, **limits)  # type: ignore[arg-type]


class TestRoundRobin:
    """
    Issue 20: "every pair of players on duplicate deals (a round robin, scheduled on the same executors)";
    only two-team head-to-head matches existed.
    """

    def test_every_pair_plays_a_match_on_the_same_deals(self) -> None:
        result = _tournament()
        assert [(0, 1), (0, 2), (1, 2)] == pairings(3)
        assert [("random", "greedy"), ("random", "last"), ("greedy", "last")] == [m.names for m in result.matches]
        players = _players()
        for match, (first, second) in zip(result.matches, pairings(3), strict=True):
            alone = play_match(
                players[result.names[first]],
                players[result.names[second]],
                4,
                rules=ONE_DEAL,
                seed=2,
                names=match.names,
            )
            assert alone == match
        assert len({tuple(game.deck_seed for game in match.games) for match in result.matches}) == 1

    def test_the_cross_table_mirrors_each_match(self) -> None:
        result = _tournament()
        table = result.cross_table()
        summary = result.matches[0].summary
        assert (summary.score_rate, summary.score_interval) == table[0][1]
        low, high = summary.score_interval
        assert (1 - summary.score_rate, (1 - high, 1 - low)) == table[1][0]
        assert [None, None, None] == [table[k][k] for k in range(3)]

    def test_the_ratings_are_fitted_to_every_game_whatever_their_order(self) -> None:
        """
        Issue 31: "Tournament ratings depend on the order the matches are fed: reversing it moved one
        player's mu from 38.47 to 26.89, about six of its sigmas."
        """
        result = _tournament()
        matches = [
            (first, second, [game.winner for game in match.games])
            for match, (first, second) in zip(result.matches, pairings(3), strict=True)
        ]
        assert 12 == sum(len(winners) for _, _, winners in matches)
        rated = result.ratings()
        assert _ratings.ratings(3, matches) == rated
        backwards = [
            (second, first, [None if w is None else 1 - w for w in winners[::-1]]) for first, second, winners in matches
        ]
        assert _ratings.ratings(3, backwards[::-1]) == rated
        assert all(type(rating) is Rating and rating.games == 8 for rating in rated)
        assert 0 == round(sum(rating.rating for rating in rated if rating is not None), 9)

    def test_json_round_trip_and_refusals(self) -> None:
        result = _tournament()
        assert result == TournamentResult.from_json(result.to_json())
        data = json.loads(result.to_json())
        assert [rating.rating for rating in result.ratings() if rating is not None] == data["ratings"]
        data["ratings"][0] += 0.001
        with pytest.raises(InvalidDataError) as raised:
            TournamentResult.from_json(json.dumps(data))
        assert "$: partial and ratings must be those the matches give" == str(raised.value)
        data["ratings"] = [[25.0, 8.3]] * 3
        with pytest.raises(InvalidDataError):
            TournamentResult.from_json(json.dumps(data))

    def test_a_player_who_has_not_played_has_no_rating(self) -> None:
        stopped = _tournament(time_limit=1e-9)
        assert 1 == len(stopped.matches)
        first, second, third = stopped.ratings()
        assert (None, 2, 2) == (third, getattr(first, "games", None), getattr(second, "games", None))
        assert stopped == TournamentResult.from_json(stopped.to_json())
        assert json.loads(stopped.to_json())["ratings"][2] is None

    @pytest.mark.parametrize(
        ("players", "message"),
        [
            ({"a": RandomPlayer()}, "a tournament has 2 to 32 players, got"),
            ({str(k): RandomPlayer() for k in range(33)}, "a tournament has 2 to 32 players, got"),
        ],
    )
    def test_refused(self, players: dict[str, Player], message: str) -> None:
        with pytest.raises(InvalidValueError) as raised:
            play_tournament(players, 2)
        assert str(raised.value).startswith(message)


class TestResume:
    """
    Issue 20: "JSON result, resumable like a match".
    """

    def test_stopped_then_resumed_it_is_the_uninterrupted_tournament(self, tmp_path: Path) -> None:
        path = tmp_path / "tournament.json"
        stopped = _tournament(time_limit=1e-9, checkpoint=path)
        assert (True, 1, True) == (stopped.partial, len(stopped.matches), stopped.matches[0].partial)
        assert stopped == TournamentResult.from_json(path.read_text(encoding="utf-8"))
        assert _tournament() == _tournament(resume=stopped)

    def test_another_tournament_is_refused(self) -> None:
        stopped = _tournament(time_limit=1e-9)
        with pytest.raises(InvalidValueError) as raised:
            play_tournament(_players(), 4, rules=ONE_DEAL, seed=3, resume=stopped)
        assert "resume is a result of another tournament: its players, games, rules or seed differ" == str(raised.value)


class TestTheCommand:
    """
    Issue 20: "persian-rummy tournament a b c d --games N ... a cross table of score rates with intervals,
    and ratings with uncertainty".
    """

    def test_it_prints_a_cross_table_and_ratings(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        out = tmp_path / "t.json"
        arguments = ["tournament", "random", "greedy", "pimc:2", "--games", "2", "--rules", "num_deals=1"]
        assert 0 == main([*arguments, "--out", str(out)])
        text = capsys.readouterr().out
        result = TournamentResult.from_json(out.read_text(encoding="utf-8"))
        lines = text.splitlines()
        assert lines[0].strip() == "score rate of the row against the column [95%], 2 games a match"
        assert "ratings: Elo points, mean 0 [95%]" in text
        rate, (low, high) = result.cross_table()[1][0]  # type: ignore[misc]
        assert f"{rate:.3f} [{low:.2f}, {high:.2f}]" in text
        rating = result.ratings()[1]
        assert rating is not None
        points, (low, high) = round(rating.rating), (round(rating.interval[0]), round(rating.interval[1]))
        assert f"{points:+d} [{low:+d}, {high:+d}]" in text

    def test_a_player_named_twice(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 1 == main(["tournament", "random", "random", "--games", "2"])
        assert (
            "persian-rummy: a tournament needs two players or more, each named once, got random random\n"
            == capsys.readouterr().err
        )
