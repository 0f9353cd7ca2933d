"""
A player's failures in a match (issue 31): whatever it raises, `KeyboardInterrupt` and `SystemExit`
included, here or in a worker, is its `PlayerError`, with its traceback kept and printed by the
command line by line; a player that returns no action fails the same way, never replaced in
silence (persian_rummy.exceptions.PlayerError, docs/matches.md).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable

import pytest

from persian_rummy import PlayerError, Rules, View
from persian_rummy.actions import PlayerAction
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.cli import main
from persian_rummy.events import Event
from persian_rummy.matches import available_cpus, play_match, process_pool

ONE_DEAL = Rules(num_deals=1)
#: The player that fails plays the first team, seats 0 and 2 of game 0: seat 2 decides first, at
#: the game's action 3 (the deal, then seat 1's draw and discard).
FIRST_DECISION = "the player {name} of seat 2 failed in game 0, at its decision 1 (action 3 of the game)"


class Raising:
    """
    Raises *error* at its first decision.
    """

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        raise self.error


class Boom:
    """
    Raises ``ValueError('boom')``: a player of the command line's (``tests.test_matches_failures:Boom``).
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        msg = "boom"
        raise ValueError(msg)


class Returning:
    """
    Returns *value*, which is not an action.
    """

    def __init__(self, value: object) -> None:
        self.value = value

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return self.value  # type: ignore[return-value]


class Nothing:
    """
    Returns None: ``tests.test_matches_failures:Nothing`` on the command line.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return None  # type: ignore[return-value]


class DeafListener(RandomPlayer):
    """
    A listener that raises as it hears its first event.
    """

    def hear(self, event: Event) -> None:  # noqa: ARG002
        raise SystemExit(2)


def _raised(call: Callable[[], object]) -> BaseException:
    """
    What *call* raises, whatever it is.
    """
    try:
        call()
    except BaseException as error:  # noqa: BLE001 (what the test looks at)
        return error
    pytest.fail("nothing was raised")


def _match(player: object, **options: object) -> object:
    return play_match(player, RandomPlayer(), 2, rules=ONE_DEAL, names=("failing", "random"), **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("error", "said"),
    [(KeyboardInterrupt(), "KeyboardInterrupt"), (SystemExit(3), "SystemExit: 3"), (ValueError("x"), "ValueError: x")],
)
def test_whatever_a_player_raises_is_its_player_error(error: BaseException, said: str) -> None:
    """
    Issue 31: "A player raising KeyboardInterrupt or SystemExit inside a pool surfaces bare"; so it did here.
    """
    raised = _raised(lambda: _match(Raising(error)))
    assert PlayerError is type(raised)
    assert f"{FIRST_DECISION.format(name='failing')}: {said}" == str(raised)
    assert error is raised.__cause__
    assert raised.traceback.startswith("Traceback (most recent call last):\n")
    assert raised.traceback.endswith(f"\n{said}\n")


@pytest.mark.skipif(available_cpus() < 1 or not hasattr(os, "fork"), reason="a pool of forked workers")
@pytest.mark.parametrize(
    ("error", "said"), [(KeyboardInterrupt(), "KeyboardInterrupt"), (SystemExit(3), "SystemExit: 3")]
)
def test_in_a_pool_too(error: BaseException, said: str) -> None:
    with process_pool(1) as pool:
        raised = _raised(lambda: _match(Raising(error), executor=pool))
    assert PlayerError is type(raised)
    assert f"{FIRST_DECISION.format(name='failing')}: {said}" == str(raised)
    lines = raised.traceback.splitlines()
    assert ("Traceback (most recent call last):", said) == (lines[0], lines[-1])
    assert "    raise self.error" in lines


def test_in_its_own_process_too() -> None:
    raised = _raised(lambda: _match(Raising(SystemExit(3)), decision_limit=60.0))
    assert PlayerError is type(raised)
    assert f"{FIRST_DECISION.format(name='failing')}: SystemExit: 3" == str(raised)
    assert "    raise self.error" in raised.traceback.splitlines()


def test_a_listener_that_fails_to_hear() -> None:
    raised = _raised(lambda: _match(DeafListener()))
    assert PlayerError is type(raised)
    assert re.fullmatch(r"the player failing of seat [02] failed in game 0, .*: SystemExit: 2", str(raised))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_prints_the_players_traceback_line_by_line(capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    """
    Issue 31: "A pool player's error must print the remote traceback readably (real newlines, not one
    line with escaped \\n)".
    """
    name = "tests.test_matches_failures:Boom"
    assert 1 == main(["match", name, "random", "--games", "2", "--jobs", jobs])
    lines = capsys.readouterr().err.splitlines()
    assert f"persian-rummy: {FIRST_DECISION.format(name=name)}: ValueError: boom" == lines[0]
    assert ["the player's traceback:", "Traceback (most recent call last):"] == lines[1:3]
    assert ["    raise ValueError(msg)", "ValueError: boom"] == lines[-2:]
    assert not any("\\n" in line for line in lines)


@pytest.mark.parametrize(("value", "shown"), [(None, "None"), (3, "3"), ("draw", "'draw'")])
@pytest.mark.parametrize("limit", [None, 60.0], ids=["here", "in-its-process"])
def test_a_player_that_returns_no_action_fails(value: object, shown: str, limit: float | None) -> None:
    """
    Issue 31: "A player that returns None is silently replaced by its first legal action and counted
    as an 'overrun' even with no limit set".
    """
    raised = _raised(lambda: _match(Returning(value), decision_limit=limit))
    assert PlayerError is type(raised)
    assert f"{FIRST_DECISION.format(name='failing')}: it returned {shown}, which is not an action" == str(raised)


def test_the_command_says_so_with_no_times(capsys: pytest.CaptureFixture[str]) -> None:
    name = "tests.test_matches_failures:Nothing"
    assert 1 == main(["match", name, "random", "--games", "2", "--no-times"])
    assert (
        "",
        f"persian-rummy: {FIRST_DECISION.format(name=name)}: it returned None, which is not an action\n",
    ) == capsys.readouterr()
