"""
The testing kit as another project uses it: a test file of its own, run by pytest in a fresh
interpreter, with the package installed and nothing imported beforehand.

Hypothesis finds the package's strategies through the ``hypothesis`` entry point, so
``st.from_type(GameState)`` works although the test file never imports
`persian_rummy.strategies` before using it; and the package itself never imports Hypothesis.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: A downstream project's test file: thirteen lines.  Hypothesis's defaults time each example (a deadline of
#: 200 ms, and the first ten drawn within a second); the file lifts both, as a project whose states are
#: reached by playing games must, so that the test passes on a loaded machine.
DOWNSTREAM_TESTS = """\
from hypothesis import HealthCheck, given, settings, strategies as st
import persian_rummy.strategies
from persian_rummy import FULL_DECK, Card, GameState, Phase, check_invariants
# A state is reached by playing a game: drawing it is slow, and slower on a loaded machine.
settings.register_profile("games", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("games")
@given(st.from_type(GameState), st.from_type(Card))
def test_types(state: GameState, card: Card) -> None:
    check_invariants(state)
    assert card in FULL_DECK
@given(persian_rummy.strategies.states(phase=Phase.PLAY, deal=2))
def test_second_deal(state: GameState) -> None:
    assert (Phase.PLAY, 2) == (state.phase, state.deal)
"""


def run_python(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """
    Run the interpreter of these tests in *cwd*, with none of this project's settings: no
    Hypothesis profile, no pytest configuration, nothing on the path but the installed packages.
    """
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTEST_", "HYPOTHESIS_", "COV_")) and name != "PYTHONPATH"
    }
    return subprocess.run(  # noqa: S603 (the interpreter running these tests, with fixed arguments)
        [sys.executable, *args], cwd=cwd, env=environment, capture_output=True, text=True, check=False, timeout=300
    )


@pytest.mark.once
class TestDownstreamProject:
    """
    The testing kit as another project uses it (docs/testing.md): a test file of its own, run by pytest
    in a fresh interpreter, gets the package's types from `st.from_type` through the ``hypothesis``
    entry point, whether or not it imports `persian_rummy.strategies` first.
    """

    def test_downstream_test_file(self, tmp_path: Path) -> None:
        """
        A downstream test file that uses `st.from_type` and `persian_rummy.strategies.states`
        passes under pytest.
        """
        assert 13 == len(DOWNSTREAM_TESTS.splitlines())
        (tmp_path / "test_downstream_project.py").write_text(DOWNSTREAM_TESTS)

        done = run_python("-m", "pytest", "-q", "-p", "no:cacheprovider", "test_downstream_project.py", cwd=tmp_path)

        assert 0 == done.returncode, done.stdout + done.stderr
        assert "2 passed" in done.stdout

    def test_from_type_before_importing_the_package(self, tmp_path: Path) -> None:
        """
        In a fresh interpreter, importing Hypothesis is enough for `st.from_type` to know the
        package's types; importing the strategies module first works as well.
        """
        script = textwrap.dedent(
            """
            import sys
            assert "persian_rummy" not in sys.modules
            from hypothesis import Phase, find, settings, strategies as st
            from persian_rummy import Card, GameState, new_game
            first = settings(database=None, phases=[Phase.generate])
            assert Card.parse("2c") == find(st.from_type(Card), lambda card: True, settings=first)
            assert new_game() == find(st.from_type(GameState), lambda state: True, settings=first)
            print("ok")
            """
        )
        strategies_first = textwrap.dedent(
            """
            import persian_rummy.strategies
            from hypothesis import strategies as st
            from persian_rummy import Card
            print(st.from_type(Card))
            """
        )

        plain = run_python("-c", script, cwd=tmp_path)
        first = run_python("-c", strategies_first, cwd=tmp_path)

        assert ("ok\n", "") == (plain.stdout, plain.stderr)
        assert 0 == first.returncode, first.stderr


class TestWithoutHypothesis:
    """
    "Only the module `persian_rummy.strategies` imports Hypothesis; ``import persian_rummy`` never does"
    (docs/testing.md).
    """

    def test_package_does_not_import_hypothesis(self, tmp_path: Path) -> None:
        """
        Importing the package, and playing with it, never imports Hypothesis.
        """
        script = "import sys, persian_rummy; persian_rummy.new_game(); print('hypothesis' in sys.modules)"

        done = run_python("-c", script, cwd=tmp_path)

        assert ("False\n", "") == (done.stdout, done.stderr)
