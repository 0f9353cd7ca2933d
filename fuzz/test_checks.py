"""
The machinery of the fuzz session: a tally lets the library's errors through as values, fails on
any other exception and on a call too slow three times running, and the targets' shares cover
the budget.
"""

from __future__ import annotations

import time
from itertools import count

import pytest

from persian_rummy import Card, InvalidNotationError

from .checks import Tally, same
from .targets import TARGETS


class TestTally:
    def test_values_and_library_errors_are_counted(self) -> None:
        tally = Tally(1.0)
        assert Card.parse("Qh") == tally.call(Card.parse, "Qh")
        refused = tally.call(Card.parse, "Qz")
        assert isinstance(refused, InvalidNotationError)
        assert (tally.calls, tally.returned, dict(tally.refused)) == (2, 1, {"InvalidNotationError": 1})

    def test_other_exceptions_escape(self) -> None:
        tally = Tally(1.0)
        with pytest.raises(KeyError):
            tally.call({"Qs": 1}.__getitem__, "Qh")

    def test_a_call_slow_three_times_fails(self) -> None:
        tally = Tally(0.01)
        with pytest.raises(AssertionError, match=r"^sleep took .* s, the limit is 0\.01 s$"):
            tally.call(time.sleep, 0.02)

    def test_a_call_slow_once_is_timed_again(self) -> None:
        calls = count()

        def slow_the_first_time() -> int:
            if next(calls) == 0:
                time.sleep(0.02)
            return 7

        tally = Tally(0.01)
        assert tally.call(slow_the_first_time) == 7
        assert next(calls) == 3

    def test_the_limit_grows_with_texts_over_a_million_characters(self) -> None:
        tally = Tally(0.01)
        assert tally.call(lambda _text: time.sleep(0.012), "x" * 2_000_000) is None

    def test_a_value_that_must_be_read_fails_when_refused(self) -> None:
        with pytest.raises(AssertionError, match=r"^Card\.parse refused: not a card: 'Qz'"):
            Tally(1.0).value(Card.parse, "Qz")

    def test_outcomes_are_the_same_when_equal_or_the_same_error(self) -> None:
        assert same(Card.parse("Qh"), Card.parse("Qh"))
        assert same(InvalidNotationError("a"), InvalidNotationError("a"))
        assert not same(InvalidNotationError("a"), InvalidNotationError("b"))
        assert not same(InvalidNotationError("a"), Card.parse("Qh"))


def test_the_shares_cover_the_budget() -> None:
    for total in (1, 1_000, 100_000, 500_000):
        shares = [target.share(total) for target in TARGETS]
        assert total <= sum(shares) <= total + len(TARGETS)
        assert min(shares) >= 1


def test_every_target_has_its_own_name() -> None:
    assert len(TARGETS) == len({target.name for target in TARGETS})
