"""
Each fuzz target run under Hypothesis for its share of the session's inputs.

Every input goes through the target's check: each call to the library returns a value or raises
a `persian_rummy.PersianRummyError`, within the time limit, and what is read reads back equal
once written.  The tally of the target is recorded with its test for the session's report.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings

from .checks import Tally
from .conftest import Options
from .targets import TARGETS, Target


# A failing input of a megabyte is shown all the same.
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@pytest.mark.parametrize("target", TARGETS, ids=[target.name for target in TARGETS])
def test_target(target: Target, fuzz_options: Options, request: pytest.FixtureRequest) -> None:
    examples = target.share(fuzz_options.inputs)
    tally = Tally(fuzz_options.time_limit)

    @seed(fuzz_options.seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(target.inputs)
    def run(value: Any) -> None:
        tally.inputs += 1
        target.check(tally, value)

    try:
        run()
    finally:
        request.node.user_properties.append(("fuzz", tally.summary()))
    # Hypothesis stops short of max_examples only when it has tried every input the strategy makes.
    assert tally.inputs >= examples
