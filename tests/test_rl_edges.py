"""
The learning environments' edges (issue 20): numpy arrays of one element and every numpy integer type as
action ids, and the same seed rules in PettingZoo and Gymnasium, with the package's errors
(persian_rummy.rl._env, docs/reinforcement-learning.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from persian_rummy import InvalidTypeError, InvalidValueError

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from persian_rummy.rl.gymnasium import PersianRummySoloEnv  # noqa: E402
from persian_rummy.rl.pettingzoo import PersianRummyEnv  # noqa: E402

INTEGERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def _solo_first(seed: int) -> tuple[PersianRummySoloEnv, int]:
    env = PersianRummySoloEnv()
    observation, _ = env.reset(seed=seed)
    return env, int(observation["action_mask"].nonzero()[0][0])


def _four_first(seed: int) -> tuple[PersianRummyEnv, int]:
    env = PersianRummyEnv()
    env.reset(seed=seed)
    return env, int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0])


class TestActionIds:
    """
    Issue 20: "a one-element numpy array as an action id in the PettingZoo and Gymnasium envs raises
    TypeError"; every integer numpy type and arrays of one element are action ids.
    """

    @pytest.mark.parametrize(
        "wrap",
        [
            *(lambda i, t=t: t(i) for t in INTEGERS),
            lambda i: np.array([i]),
            np.array,
            lambda i: np.array([[i]], dtype=np.uint16),
        ],
    )
    def test_as_an_int_in_both(self, wrap: Any) -> None:
        solo, action = _solo_first(3)
        expected, _ = _solo_first(3)
        assert [*expected.step(action)[:4]][1:] == [*solo.step(wrap(action))[:4]][1:]
        four, action = _four_first(3)
        plain, _ = _four_first(3)
        plain.step(action)
        four.step(wrap(action))
        assert plain.agent_selection == four.agent_selection
        assert plain.rewards == four.rewards

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            (np.array([1, 2]), "an action id in an array is its one integer element, got an array of 2 int64"),
            (np.array([1.0]), "an action id in an array is its one integer element, got an array of 1 float64"),
            (np.float64(1.0), "an action id must be an int, got np.float64(1.0)"),
        ],
    )
    def test_what_is_not_an_id_is_refused_in_both(self, value: object, message: str) -> None:
        solo, _ = _solo_first(3)
        with pytest.raises(InvalidTypeError) as raised:
            solo.step(value)  # type: ignore[arg-type]
        assert message == str(raised.value)
        four, _ = _four_first(3)
        with pytest.raises(InvalidTypeError) as raised:
            four.step(value)  # type: ignore[arg-type]
        assert message == str(raised.value)


class TestSeeds:
    """
    Issue 20: "Gymnasium reset(seed=-1) raises gymnasium's own error while PettingZoo accepts it"; one
    rule for both: None or an int from 0 to 2**64 - 1.
    """

    @pytest.mark.parametrize(
        ("seed", "error", "message"),
        [
            (-1, InvalidValueError, "seed must be from 0 to 2**64 - 1, or None, got -1"),
            (2**64, InvalidValueError, "seed must be from 0 to 2**64 - 1, or None, got 18446744073709551616"),
            pytest.param(
                10**5000,
                InvalidValueError,
                "seed must be from 0 to 2**64 - 1, or None, got an int of 16,610 bits",
                id="10**5000",
            ),
            (np.int8(-3), InvalidValueError, "seed must be from 0 to 2**64 - 1, or None, got -3"),
            (True, InvalidTypeError, "seed must be an int or None, got True"),
            (1.0, InvalidTypeError, "seed must be an int or None, got 1.0"),
        ],
    )
    def test_refused_alike(self, seed: object, error: type[Exception], message: str) -> None:
        for env in (PersianRummySoloEnv(), PersianRummyEnv()):
            with pytest.raises(error) as raised:
                env.reset(seed=seed)  # type: ignore[arg-type]
            assert message == str(raised.value)

    @pytest.mark.parametrize("seed", [0, 2**64 - 1, np.uint64(2**64 - 1), np.int16(5)])
    def test_taken_alike(self, seed: object) -> None:
        solo = PersianRummySoloEnv()
        first, _ = solo.reset(seed=seed)  # type: ignore[arg-type]
        again, _ = solo.reset(seed=int(seed))  # type: ignore[call-overload]
        assert (first["observation"] == again["observation"]).all()
        four = PersianRummyEnv()
        four.reset(seed=seed)  # type: ignore[arg-type]
        state = four.observe(four.agent_selection)["observation"].copy()
        four.reset(seed=int(seed))  # type: ignore[call-overload]
        assert (state == four.observe(four.agent_selection)["observation"]).all()
