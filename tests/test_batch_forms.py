"""
The batch and ``out=`` forms of the observation tensor (persian_rummy.rl.tensors) and of the
action masks (persian_rummy.rl.actionids): the same values as one position at a time, written
into the caller's arrays, every value overwritten.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from persian_rummy import (  # noqa: E402 (after the skip: the tensors need numpy)
    GameState,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.rl.actionids import action_count, action_mask, action_masks  # noqa: E402
from persian_rummy.rl.tensors import OBSERVATION_SIZE, observation_tensor, observation_tensors  # noqa: E402


def decisions(seed: int, count: int, rules: Rules | None = None) -> list[GameState]:
    """
    *count* states where a seat is to act, along a random playout of *seed*.
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play)
    state = new_game(rules)
    found: list[GameState] = []
    while len(found) < count:
        if state.phase is Phase.GAME_OVER:
            state = new_game(rules)
        if state.is_chance_node:
            state = apply(state, random_deal(state, rng))
            continue
        found.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    return found


STATES = decisions(3, 40)


class TestObservationOut:
    """
    ``observation_tensor(view, out=row)`` writes the tensor of one view into a row, every value.
    """

    def test_the_same_values(self) -> None:
        batch = np.full((len(STATES), OBSERVATION_SIZE), 7.0, dtype=np.float32)
        for row, state in zip(batch, STATES, strict=True):
            view = observe(state, state.to_act)
            assert observation_tensor(view, out=row) is row
            assert np.array_equal(observation_tensor(view), row)

    def test_a_batch(self) -> None:
        views = [observe(state, state.to_act) for state in STATES]
        expected = np.stack([observation_tensor(view) for view in views])
        assert np.array_equal(expected, observation_tensors(views))
        out = np.full_like(expected, 0.5)
        assert observation_tensors(views, out=out) is out
        assert np.array_equal(expected, out)
        assert (0, OBSERVATION_SIZE) == observation_tensors([]).shape

    @pytest.mark.parametrize(
        ("out", "error", "message"),
        [
            (
                np.zeros(OBSERVATION_SIZE, np.float64),
                InvalidTypeError,
                "out must be a numpy array of float32, got an array of float64",
            ),
            ([0.0] * OBSERVATION_SIZE, InvalidTypeError, r"out must be a numpy array of float32, got \[0.0"),
            (
                np.zeros(OBSERVATION_SIZE + 1, np.float32),
                InvalidValueError,
                r"out must be of shape \(868,\), got \(869,\)",
            ),
        ],
    )
    def test_refused(self, out: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            observation_tensor(observe(STATES[0], STATES[0].to_act), out=out)  # type: ignore[arg-type]

    def test_read_only(self) -> None:
        out = np.zeros(OBSERVATION_SIZE, np.float32)
        out.flags.writeable = False
        with pytest.raises(InvalidValueError, match="out must be a writable array, got a read-only one"):
            observation_tensor(observe(STATES[0], STATES[0].to_act), out=out)


class TestMaskOut:
    """
    ``action_mask(position, out=buffer)`` and ``action_masks(positions)``: the masks of the
    legal ids, written into any writable buffer of one byte per id.
    """

    @pytest.mark.parametrize("kind", [np.int8, np.uint8, np.bool_])
    def test_arrays(self, kind: type) -> None:
        for state in STATES:
            out = np.ones(action_count(), dtype=kind)
            assert action_mask(state, out=out) is out
            assert action_mask(state) == out.astype(np.int8).tobytes()

    def test_a_bytearray_and_a_view(self) -> None:
        out = bytearray(b"\x01" * action_count())
        action_mask(STATES[1], out=out)
        assert action_mask(STATES[1]) == bytes(out)
        assert action_mask(STATES[1]) == bytes(action_mask(observe(STATES[1], STATES[1].to_act), out=out))

    def test_a_batch(self) -> None:
        expected = b"".join(action_mask(state) for state in STATES)
        assert expected == action_masks(STATES)
        out = np.ones((len(STATES), action_count()), np.bool_)
        assert action_masks(STATES, out=out) is out
        assert expected == out.astype(np.int8).tobytes()
        assert b"" == action_masks([])

    def test_the_ace_low_space(self) -> None:
        rules = Rules(ace_low_allowed=True)
        states = decisions(4, 5, rules)
        out = np.zeros((5, 1064), np.int8)
        assert b"".join(action_mask(state) for state in states) == action_masks(states, out=out).tobytes()
        with pytest.raises(InvalidValueError, match=r"of one size, got sizes \[944, 1064\]"):
            action_masks([STATES[0], states[0]])

    @pytest.mark.parametrize(
        ("out", "error", "message"),
        [
            (
                np.zeros(944, np.float32),
                InvalidValueError,
                "buffer of 944 one-byte items, got a buffer of 3776 bytes in items of 4",
            ),
            (np.zeros(943, np.int8), InvalidValueError, "got a buffer of 943 bytes"),
            (np.zeros(1888, np.int8)[::2], InvalidValueError, "C-contiguous"),
            (bytes(944), InvalidValueError, "got a read-only buffer of 944 bytes"),
            ([0] * 944, InvalidTypeError, r"out must be a writable buffer, such as a numpy array of int8, got \[0"),
        ],
    )
    def test_refused(self, out: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            action_mask(STATES[0], out=out)


class TestBatchArguments:
    """
    A batch is a sequence of positions or views; anything else raises the package's errors.
    """

    @pytest.mark.parametrize("junk", [None, "x", 4])
    def test_not_a_sequence(self, junk: object) -> None:
        with pytest.raises(InvalidTypeError, match="positions must be a sequence of states or views, got"):
            action_masks(junk)  # type: ignore[call-overload]
        with pytest.raises(InvalidTypeError, match="views must be a sequence of views, got"):
            observation_tensors(junk)  # type: ignore[arg-type]

    def test_not_positions(self) -> None:
        with pytest.raises(InvalidTypeError, match="a position must be a GameState or a View, got 1"):
            action_masks([STATES[0], 1])  # type: ignore[list-item]
        with pytest.raises(InvalidTypeError, match="view must be a View, got 1"):
            observation_tensors([observe(STATES[0], STATES[0].to_act), 1])  # type: ignore[list-item]
