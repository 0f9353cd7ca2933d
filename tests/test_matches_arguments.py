"""
The arguments of matches (issue 31): seeds of any integer type the environments take, and the
budgets of the searches capped where they are named, for every command alike.
"""

from __future__ import annotations

import argparse

import pytest

from persian_rummy import InvalidTypeError, InvalidValueError, Rules
from persian_rummy.bots.players import RandomPlayer, make_player
from persian_rummy.cli import _match_setup
from persian_rummy.matches import play_match, play_tournament

# The seeds of numpy's integer types (the budgets' tests beside them run wherever numpy is, the first Python).
np = pytest.importorskip("numpy")

ONE_DEAL = Rules(num_deals=1)


@pytest.mark.parametrize("seed", [np.int64(5), np.uint64(5), np.int32(5)])
def test_a_numpy_integer_seed_plays_as_its_int(seed: object) -> None:
    """
    Issue 31: "play_match refuses numpy integer seeds the environments accept".
    """
    result = play_match(RandomPlayer(), RandomPlayer(), 2, seed=seed, rules=ONE_DEAL)  # type: ignore[arg-type]
    assert (int, 5) == (type(result.seed), result.seed)
    assert play_match(RandomPlayer(), RandomPlayer(), 2, seed=5, rules=ONE_DEAL) == result


def test_the_largest_seed_as_a_numpy_integer() -> None:
    largest = np.uint64(2**64 - 1)
    assert 2**64 - 1 == play_match(RandomPlayer(), RandomPlayer(), 2, seed=largest, rules=ONE_DEAL).seed


def test_a_tournament_too() -> None:
    players = {"a": RandomPlayer(), "b": RandomPlayer()}
    assert 7 == play_tournament(players, 2, seed=np.int64(7), rules=ONE_DEAL).matches[0].seed


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (True, InvalidTypeError, "seed must be an int, got True"),
        (5.0, InvalidTypeError, "seed must be an int, got 5.0"),
        (np.float64(5), InvalidTypeError, "seed must be an int, got np.float64(5.0)"),
        (np.int64(-1), InvalidValueError, "seed must be from 0 to 2**64 - 1, got -1"),
    ],
)
def test_what_is_not_a_seed(seed: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        play_match(RandomPlayer(), RandomPlayer(), 2, seed=seed)  # type: ignore[arg-type]
    assert message == str(raised.value)


@pytest.mark.parametrize("spec", ["pimc:" + "9" * 100, "pimc:100001", "ismcts:100001", "pimc:61s", "ismcts:1e9s"])
def test_a_budget_beyond_the_caps_is_refused_where_it_is_named(spec: str) -> None:
    """
    Issue 31: "make_player('pimc:' + '9' * 100) is accepted while play caps budgets".
    """
    with pytest.raises(InvalidValueError) as raised:
        make_player(spec)
    assert f"a budget of at most 60 seconds or 100,000 per decision, got {spec!r}" == str(raised.value)


def test_the_caps_themselves_are_taken() -> None:
    assert 100_000 == make_player("pimc:100000").rollouts  # type: ignore[attr-defined]
    assert 60.0 == make_player("ismcts:60s").seconds  # type: ignore[attr-defined]


def test_the_match_command_refuses_it_as_a_wrong_command_line() -> None:
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        _match_setup.player_argument("pimc:1000000")
    assert "a budget of at most 60 seconds or 100,000 per decision, got 'pimc:1000000'" == str(raised.value)
