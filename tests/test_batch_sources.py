"""
What the batched environments make without the scalar engine's own functions, against them: the
decks they shuffle (CPython's ``random.shuffle``, written out) and the documents of the deals they
report (`persian_rummy.serialize.to_data` of a `DealScore`).  Cheap, so every Python runs them: the
shuffle is written against the interpreter's own.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium")

from hypothesis import given
from hypothesis import strategies as st

from persian_rummy.rl._batch_games import shuffled
from persian_rummy.rl._env import deal_document
from persian_rummy.rl.batch import ENDS
from persian_rummy.scoring import DealScore, TeamScore
from persian_rummy.serialize import to_data


class TestShuffled:
    """
    `shuffled` leaves the cards as ``Random.shuffle`` does and draws what it draws.
    """

    @given(st.integers(min_value=0, max_value=2**64))
    def test_the_same_order_and_the_same_draws(self, seed: int) -> None:
        ours, theirs = random.Random(seed), random.Random(seed)  # noqa: S311 (decks, not secrets)
        for _ in range(3):  # deal after deal from one source
            order = list(range(56))
            theirs.shuffle(order)
            assert shuffled(ours) == order
        assert ours.getstate() == theirs.getstate()

    def test_a_known_deck(self) -> None:
        # Seed 0's first deck, as CPython's Mersenne Twister and shuffle give it.
        deck = shuffled(random.Random(0))  # noqa: S311 (a deck)
        assert deck[:8] == [53, 44, 55, 5, 45, 51, 35, 7]
        assert sorted(deck) == list(range(56))


parts = st.integers(min_value=0, max_value=500)
teams = st.tuples(parts, parts, st.sampled_from([0, 100]), parts)


class TestDealDocument:
    """
    `deal_document` writes what `to_data` writes of the deal's `DealScore`.
    """

    @given(st.integers(1, 2), teams, teams, st.none() | st.integers(0, 3))
    def test_as_to_data_writes_it(
        self, deal: int, first: tuple[int, int, int, int], second: tuple[int, int, int, int], went_out: int | None
    ) -> None:
        end = ENDS[1] if went_out is None else ENDS[0]  # a deal ends by going out when a seat went out
        score = DealScore(deal, (TeamScore(*first), TeamScore(*second)), went_out, end)
        document = deal_document(deal, [list(first), list(second)], went_out, end)
        assert document == to_data(score)
        assert list(document) == list(to_data(score))  # the same keys in the same order

    def test_the_fields(self) -> None:
        document = deal_document(2, [[10, 5, 100, 20], [0, 0, 0, 30]], 1, ENDS[0])
        assert document["teams"] == [
            {"melded": 10, "doubling": 5, "bonus": 100, "in_hand": 20},
            {"melded": 0, "doubling": 0, "bonus": 0, "in_hand": 30},
        ]
        fields = (document["deal"], document["went_out"], document["end"], document["kind"])
        assert fields == (2, 1, "went_out", "deal_score")
