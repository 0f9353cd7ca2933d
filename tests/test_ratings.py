"""
Ratings of a tournament's players (issue 31): a Bradley-Terry model fitted to all the games at once, by
maximum likelihood, on the Elo scale, averaging 0, with bootstrap intervals reproducible from their seed
(persian_rummy.matches._ratings, TournamentResult.ratings, docs/matches.md).
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import InvalidTypeError, InvalidValueError
from persian_rummy.matches import Rating, _ratings
from persian_rummy.matches._ratings import SCALE, Match, fitted, ratings

#: 400 * log10(odds): the Elo points between two players one of whom scores *odds* to 1.
ELO = 400 / math.log(10)


def _halves(winner: int | None) -> int:
    """
    The half points of a game for the first player: a win 2, a draw 1, a loss 0.
    """
    return 1 if winner is None else 2 * (winner == 0)


def _close(values: list[float | None], expected: list[float]) -> bool:
    return len(values) == len(expected) and all(
        value is not None and abs(value - wanted) < 1e-9 for value, wanted in zip(values, expected, strict=True)
    )


class TestExactValues:
    """
    Small cases worked out by hand: the maximum of the likelihood where each player's expected score
    against the others is the score it made.
    """

    def test_three_wins_in_four_are_odds_of_three_to_one(self) -> None:
        first, second = fitted(2, [(0, 1, [0, 0, 0, 1])], prior=0)
        assert first is not None
        assert second is not None
        assert abs(first - second - 400 * math.log10(3)) < 1e-9
        assert _close([first, second], [ELO * math.log(3) / 2, -ELO * math.log(3) / 2])
        assert 190.8485 == round(first - second, 4)

    def test_the_prior_is_a_drawn_game_more(self) -> None:
        # 3.5 points in 5: odds of 7 to 3.
        assert _close(fitted(2, [(0, 1, [0, 0, 0, 1])]), [ELO * math.log(7 / 3) / 2, -ELO * math.log(7 / 3) / 2])
        # Two drawn games more: 4 points in 6, odds of 2 to 1.
        assert _close(fitted(2, [(0, 1, [0, 0, 0, 1])], prior=2), [ELO * math.log(2) / 2, -ELO * math.log(2) / 2])

    def test_a_draw_is_half_a_win(self) -> None:
        assert fitted(2, [(0, 1, [0, None])], prior=0) == fitted(2, [(0, 1, [0, 0, 0, 1])], prior=0)
        assert [0.0, 0.0] == fitted(2, [(0, 1, [None, None, 0, 1])], prior=0)

    def test_a_chain_of_three(self) -> None:
        # A beat B 3 to 1, C beat B 3 to 1, A and C never met: each is log(3) above B.
        matches: list[Match] = [(0, 1, [0, 0, 0, 1]), (1, 2, [1, 1, 1, 0])]
        third = ELO * math.log(3) / 3
        assert _close(fitted(3, matches, prior=0), [third, -2 * third, third])

    def test_a_round_robin_that_the_model_fits_exactly(self) -> None:
        # Strengths 9, 3 and 1: 3/4 of the points between the first two and the last two, 9/10 between
        # the first and the last, which 20 games each give exactly.
        matches: list[Match] = [
            (0, 1, [0] * 15 + [1] * 5),
            (0, 2, [0] * 18 + [1] * 2),
            (1, 2, [0] * 14 + [None] * 2 + [1] * 4),
        ]
        assert _close(fitted(3, matches, prior=0), [ELO * math.log(3), 0.0, -ELO * math.log(3)])

    def test_the_elo_scale(self) -> None:
        assert 400 / math.log(10) == SCALE
        first, second = fitted(2, [(0, 1, [0] * 20 + [1] * 2)], prior=0)  # 10 to 1: 400 points
        assert first is not None
        assert second is not None
        assert 400.0 == round(first - second, 9)


@st.composite
def _tournaments(draw: st.DrawFn) -> tuple[int, list[Match]]:
    """
    Players 2 to 6, linked by a chain of matches and some more, each of 1 to 4 duplicate pairs.
    """
    players = draw(st.integers(2, 6))
    pairs = [(k, k + 1) for k in range(players - 1)]
    pairs += draw(st.lists(st.tuples(st.integers(0, players - 1), st.integers(0, players - 1)), max_size=6))
    game = st.sampled_from([0, 1, None])
    winners = st.lists(st.tuples(game, game), min_size=1, max_size=4).map(
        lambda pairs: [g for pair in pairs for g in pair]
    )
    return players, [(first, second, draw(winners)) for first, second in pairs if first != second]


def _reordered(matches: list[Match], rng: random.Random) -> list[Match]:
    """
    *matches* in another order, some seen from their second player's side, their duplicate pairs
    shuffled and the two games of some pairs swapped.
    """
    moved: list[Match] = []
    for first, second, winners in matches:
        pairs = [list(winners[k : k + 2]) for k in range(0, len(winners), 2)]
        rng.shuffle(pairs)
        games = [game for pair in pairs for game in (pair if rng.random() < 0.5 else pair[::-1])]
        if rng.random() < 0.5:
            moved.append((second, first, [None if game is None else 1 - game for game in games]))
        else:
            moved.append((first, second, games))
    rng.shuffle(moved)
    return moved


class TestOrderFree:
    """
    Issue 31: "ratings of one tournament are the same whatever the order of its matches".
    """

    @given(_tournaments(), st.randoms(use_true_random=False), st.integers(0, 2**64 - 1))
    def test_the_same_whatever_the_order(
        self, tournament: tuple[int, list[Match]], rng: random.Random, seed: int
    ) -> None:
        players, matches = tournament
        again = _reordered(matches, rng)
        assert fitted(players, matches) == fitted(players, again)
        assert ratings(players, matches, resamples=20, seed=seed) == ratings(players, again, resamples=20, seed=seed)

    @given(_tournaments(), st.floats(0.1, 10))
    def test_each_expected_score_is_the_score_made(self, tournament: tuple[int, list[Match]], prior: float) -> None:
        """
        The likelihood's maximum: each player's expected score against the others it met, the prior's
        drawn games included, is what it scored.
        """
        players, matches = tournament
        rated = fitted(players, matches, prior=prior)
        scored, expected = [0.0] * players, [0.0] * players
        met: dict[tuple[int, int], list[float]] = {}
        for first, second, winners in matches:
            points = met.setdefault((min(first, second), max(first, second)), [0.0, 0.0])
            for winner in winners:
                won = 0.5 if winner is None else float(winner == 0)
                points[first > second] += won
                points[first < second] += 1 - won
        for (low, high), (low_points, high_points) in met.items():
            games = low_points + high_points + prior
            gap = (rated[low] or 0.0) - (rated[high] or 0.0)
            share = 1 / (1 + math.exp(-gap / SCALE))
            scored[low] += low_points + prior / 2
            scored[high] += high_points + prior / 2
            expected[low] += games * share
            expected[high] += games * (1 - share)
        assert all(abs(made - wanted) < 1e-6 for made, wanted in zip(scored, expected, strict=True))


class TestBootstrap:
    """
    Issue 31: "bootstrap intervals (resample matches/deals with a seeded RNG so results are reproducible)".
    """

    MATCHES: tuple[Match, ...] = (
        (0, 1, [0, 1, 0, 0, None, 1, 0, 0, 1, 0]),
        (0, 2, [0, 0, 0, 1, 0, 0, 0, 0, 1, 0]),
        (1, 2, [1, 0, 0, None, 0, 0, 1, 0, 0, 0]),
    )

    def test_reproducible_from_its_seed(self) -> None:
        once = ratings(3, self.MATCHES, seed=11)
        assert once == ratings(3, self.MATCHES, seed=11)
        other = ratings(3, self.MATCHES, seed=12)
        assert [r.rating for r in once if r] == [r.rating for r in other if r]
        assert [r.interval for r in once if r] != [r.interval for r in other if r]
        for rating in once:
            assert rating is not None
            low, high = rating.interval
            assert low < rating.rating < high

    def test_two_players_by_hand(self) -> None:
        """
        Between two players each resample's rating is that of the half points drawn, pair by pair with
        replacement, from a ``random.Random`` of the seed: the first's are *h* of ``2 * games``, with
        the prior's drawn game ``h / 2 + 1/2`` points of ``games + 1``, odds of that to the rest.
        """
        winners = [0, 1, 0, 0, None, 1, 0, 0, 1, 0, 0, 0]
        halves = sorted(_halves(winners[k]) + _halves(winners[k + 1]) for k in range(0, len(winners), 2))
        assert [1, 2, 2, 4, 4, 4] == halves

        def rating(half_points: int) -> float:
            points = half_points / 2 + 0.5
            return ELO * math.log(points / (len(winners) + 1 - points)) / 2

        rng = random.Random(7)  # noqa: S311 (the resamples, not a secret)
        drawn = sorted(rating(sum(rng.choices(halves, k=len(halves)))) for _ in range(1000))

        def percentile(share: float) -> float:
            place = 999 * share
            below = math.floor(place)
            return drawn[below] + (place - below) * (drawn[below + 1] - drawn[below])

        first, second = ratings(2, [(0, 1, winners)], seed=7)
        assert first is not None
        assert second is not None
        assert 12 == first.games == second.games
        assert abs(first.rating - rating(sum(halves))) < 1e-9
        low, high = first.interval
        assert abs(low - percentile(0.025)) < 1e-9
        assert abs(high - percentile(0.975)) < 1e-9
        assert abs(second.interval[0] + high) < 1e-9

    def test_more_games_narrow_the_interval(self) -> None:
        few = ratings(2, [(0, 1, [0, 1, 0, 0] * 5)])[0]
        many = ratings(2, [(0, 1, [0, 1, 0, 0] * 50)])[0]
        assert few is not None
        assert many is not None
        assert many.interval[1] - many.interval[0] < few.interval[1] - few.interval[0]


class TestRefused:
    def test_a_perfect_score_without_a_prior(self) -> None:
        with pytest.raises(InvalidValueError) as raised:
            fitted(2, [(0, 1, [0, 0])], prior=0)
        assert str(raised.value).startswith("with prior=0 the ratings are those of the maximum likelihood, which is")
        assert isinstance(fitted(2, [(0, 1, [0, 0])])[0], float)

    def test_players_not_linked(self) -> None:
        with pytest.raises(InvalidValueError) as raised:
            fitted(4, [(0, 1, [0, 1]), (2, 3, [0, 1])])
        assert "ratings compare players linked by games, and some who played are linked to the others by none" == str(
            raised.value
        )

    def test_who_played_nothing_has_no_rating(self) -> None:
        rated = ratings(3, [(0, 1, [0, 1, 1, 1])], resamples=10)
        assert rated[2] is None
        assert [4, 4] == [rating.games for rating in rated[:2] if rating is not None]
        assert [None, None] == fitted(2, [])

    @pytest.mark.parametrize(
        ("arguments", "error", "message"),
        [
            ({"resamples": 0}, InvalidValueError, "resamples must be from 1 to 100,000, got 0"),
            ({"resamples": 2.0}, InvalidTypeError, "resamples must be an int, got 2.0"),
            ({"seed": -1}, InvalidValueError, "seed must be from 0 to 18,446,744,073,709,551,615, got -1"),
            ({"prior": -1}, InvalidValueError, "prior must be a number of games from 0 to 1,000,000, got -1"),
            ({"prior": math.nan}, InvalidValueError, "prior must be a number of games from 0 to 1,000,000, got nan"),
            ({"prior": True}, InvalidTypeError, "prior must be a number of games, got True"),
        ],
    )
    def test_arguments(self, arguments: dict[str, object], error: type[Exception], message: str) -> None:
        with pytest.raises(error) as raised:
            ratings(2, [(0, 1, [0, 1])], **arguments)  # type: ignore[arg-type]
        assert message == str(raised.value)

    @pytest.mark.parametrize(
        "match",
        [(0, 0, [0, 1]), (0, 1, [0]), (0, 1, [0, 2]), (0, 5, [0, 1]), (-1, 1, [0, 1])],
    )
    def test_matches(self, match: Match) -> None:
        with pytest.raises(InvalidValueError):
            fitted(2, [match])

    def test_the_rating_is_public(self) -> None:
        assert Rating is _ratings.Rating
        assert Rating(1.0, (0.0, 2.0), 4) == Rating(rating=1.0, interval=(0.0, 2.0), games=4)
