"""
R23 and §5 ``card_values`` read by the learning interfaces: OpenSpiel's game parameters, the
environments' reward scale and the tensors' scale of a team's total.  They need the ``rl`` extra.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import attrs
import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

from persian_rummy import Rules, observe
from persian_rummy.rl._env import reward_scale
from persian_rummy.rl.gymnasium import PersianRummySoloEnv
from persian_rummy.rl.openspiel import game_string, load, rules_of
from persian_rummy.rl.pettingzoo import PersianRummyEnv
from persian_rummy.rl.tensors import OBSERVATION_LAYOUT, observation_tensor
from persian_rummy.rl.tensors import _score_scale as score_scale
from tests.test_card_values import FACES, HUNDREDS, ZEROS, play_random_game


class TestOpenSpielParameters:
    """
    §5 ``card_values``: one text form, which is also the game's string parameter in OpenSpiel.
    """

    def test_r23_openspiel_parameters(self) -> None:
        assert "python_persian_rummy(card_values=2/3/4/5/6/7/8/9/10/10/10/10/1/50)" == game_string(
            Rules(card_values={"A": 1, "X": 50})
        )
        assert FACES == rules_of(load(FACES))
        assert "2/3/4/5/6/7/8/9/10/11/12/13/1/50" == load(FACES).get_parameters()["card_values"]


class TestScales:
    """
    R23 read by the learning interfaces: the reward scale (the most a team can win a game by: twice
    the deck plus the bonus, per deal) and the tensors' scale of a team's total.
    """

    def test_the_reward_scale_reads_the_values(self) -> None:
        # Two deals, each at most twice the deck (melded and doubled, or left in the others' hands) plus the bonus.
        assert 2 * (2 * 476 + 25) == reward_scale(Rules())
        assert 2 * (2 * 540 + 25) == reward_scale(Rules(card_values={"A": 1, "X": 50}))
        assert 2 * (2 * 5600 + 25) == reward_scale(HUNDREDS)
        assert 2 * 25 == reward_scale(ZEROS)
        assert 1 == reward_scale(attrs.evolve(ZEROS, go_out_bonus=0))
        assert 22450 == PersianRummySoloEnv(HUNDREDS).reward_scale
        assert 22450 == PersianRummyEnv(HUNDREDS).reward_scale
        assert 1 == PersianRummyEnv(attrs.evolve(ZEROS, go_out_bonus=0)).reward_scale

    def test_the_tensors_scale_a_total_by_the_deck(self) -> None:
        """
        A team's total is mapped from [-S, S] to [0, 1]: S is 500 for R23's deck of 476 points, in
        proportion under other values, the going-out bonus (or 1) when no card scores.
        """
        assert 500 == score_scale(Rules())
        assert 500 * 5600 / 476 == score_scale(HUNDREDS)
        assert 25 == score_scale(ZEROS)
        assert 1 == score_scale(attrs.evolve(ZEROS, go_out_bonus=0))
        (own,) = [segment for segment in OBSERVATION_LAYOUT if segment.name == "score_own"]
        for rules in (HUNDREDS, ZEROS, FACES):
            end = play_random_game(rules, 5)[-1]
            totals = end.scores
            tensor = observation_tensor(observe(end, 0))
            scale = score_scale(rules)
            expected = min(max((totals[0] + scale) / (2 * scale), 0.0), 1.0)
            assert pytest.approx(expected) == float(tensor[own.start])
