"""
Policies over action ids as players (`PolicyPlayer`), the NumPy network (`MLPPolicy`) and the
learned player that ships (``make_player("learned")``), with the rules they play by quoted.
"""

from __future__ import annotations

import importlib.resources
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from persian_rummy import (
    FULL_DECK,
    CallRummy,
    Deal,
    Discard,
    DrawStock,
    GameState,
    LayOff,
    Rules,
    View,
    apply,
    legal_actions,
    new_game,
    observe,
    parse_position,
)
from persian_rummy.bots import GreedyPlayer, make_player
from persian_rummy.exceptions import IllegalActionError, InvalidTypeError, InvalidValueError
from persian_rummy.matches import play_match
from persian_rummy.rl import LearnedPlayer as LentLearnedPlayer
from persian_rummy.rl import MLPPolicy as LentMLPPolicy
from persian_rummy.rl import PolicyPlayer as LentPolicyPlayer
from persian_rummy.rl.actionids import action_id, legal_ids
from persian_rummy.rl.policy import LEARNED_WEIGHTS, LearnedPlayer, MLPPolicy, PolicyPlayer, network_input
from persian_rummy.rl.tensors import OBSERVATION_SIZE, observation_tensor

#: The weights of the package tested (the wheel's, in ``nox -s build`` and ``nox -s compiled``).
WEIGHTS = importlib.resources.files("persian_rummy.rl") / LEARNED_WEIGHTS


def _rng(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)


def _first_view() -> View:
    state = apply(new_game(), Deal(0, FULL_DECK))
    return observe(state, state.to_act)


def _views(seed: int, count: int) -> list[View]:
    """
    The views of the seat to act in the first *count* decisions of a greedy game.
    """
    rng = _rng(seed)
    state: GameState = apply(new_game(), Deal(0, FULL_DECK))
    views: list[View] = []
    while len(views) < count:
        view = observe(state, state.to_act)
        views.append(view)
        state = apply(state, GreedyPlayer().choose(view, rng))
    return views


def lowest(_observation: np.ndarray, mask: np.ndarray) -> int:
    """
    A policy: the lowest legal id.
    """
    return int(np.flatnonzero(mask)[0])


def highest(_observation: np.ndarray, mask: np.ndarray) -> int:
    """
    A policy: the highest legal id.
    """
    return int(np.flatnonzero(mask)[-1])


def _bias_network(bias: np.ndarray, skip: np.ndarray | None = None) -> MLPPolicy:
    """
    A network whose logits are *bias* whatever it sees (zero weights), with *skip* for the greedy choice.
    """
    hidden = 3
    layers = (np.zeros((OBSERVATION_SIZE, hidden)), np.zeros(hidden), np.zeros((hidden, 944)), bias)
    return MLPPolicy(layers, skip)


class TestPolicyPlayer:
    """
    A policy, any function of (observation tensor, mask) to an action id, plays as a player
    (issue 21): it must choose a legal id (R13), and an illegal one is refused with the rule it breaks.
    """

    def test_the_policy_sees_the_tensor_and_the_mask_of_the_seat_to_act(self) -> None:
        seen: list[tuple[np.ndarray, np.ndarray]] = []

        def policy(observation: np.ndarray, mask: np.ndarray) -> int:
            seen.append((observation, mask))
            return lowest(observation, mask)

        view = _first_view()
        assert DrawStock(seat=1) == PolicyPlayer(policy).choose(view, _rng(1))
        observation, mask = seen[0]
        assert (OBSERVATION_SIZE,) == observation.shape
        assert observation_tensor(view).tolist() == observation.tolist()
        assert ((944,), "uint8") == (mask.shape, str(mask.dtype))
        assert list(legal_ids(view)) == np.flatnonzero(mask).tolist()

    def test_the_action_of_the_id_chosen(self) -> None:
        view = _views(3, 5)[-1]
        chosen = PolicyPlayer(highest).choose(view, _rng(1))
        assert legal_ids(view)[-1] == action_id(chosen, view)

    def test_a_numpy_integer_is_an_id(self) -> None:
        view = _first_view()
        chosen = PolicyPlayer(lambda _, mask: np.flatnonzero(mask)[0]).choose(view, _rng(1))
        assert DrawStock(seat=1) == chosen

    def test_an_illegal_id_is_refused_naming_it(self) -> None:
        with pytest.raises(IllegalActionError) as raised:
            PolicyPlayer(lambda _, __: 1).choose(_first_view(), _rng(1))
        assert (
            "illegal action 1: action id 1 (pass) is not legal here:"
            " a player may pass only when the stock is empty (R21)" == str(raised.value)
        )

    def test_an_id_outside_the_space_is_refused(self) -> None:
        with pytest.raises(IllegalActionError) as raised:
            PolicyPlayer(lambda _, __: 944).choose(_first_view(), _rng(1))
        assert "illegal action 'action id 944': the policy chose it, outside the 944 ids of these rules (R13)" == str(
            raised.value
        )

    def test_what_is_no_id_is_refused(self) -> None:
        with pytest.raises(InvalidTypeError, match="an action id must be an int, got 'draw'"):
            PolicyPlayer(lambda _, __: "draw").choose(_first_view(), _rng(1))

    def test_a_policy_is_callable(self) -> None:
        with pytest.raises(InvalidTypeError, match="a policy is a function of"):
            PolicyPlayer(3)  # type: ignore[arg-type]

    def test_it_plays_a_match(self) -> None:
        result = play_match(PolicyPlayer(lowest), GreedyPlayer(), 2, seed=5)
        assert 2 == result.summary.games
        assert 2 == len(result.games)

    def test_it_is_lent_by_the_package(self) -> None:
        assert (PolicyPlayer, MLPPolicy, LearnedPlayer) == (LentPolicyPlayer, LentMLPPolicy, LentLearnedPlayer)

    def test_importing_the_package_loads_no_numpy_until_a_policy_is_asked_for(self) -> None:
        code = (
            "import sys, persian_rummy.rl as rl; before = 'numpy' in sys.modules; rl.PolicyPlayer;"
            " print(before, 'numpy' in sys.modules)"
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
        assert "False True" == done.stdout.strip()


class TestMLPPolicy:
    """
    The network plays the legal id of the highest logit (R13: only legal actions); with the
    greedy player's choice as an input, that id's logit gets the skip weight.
    """

    def test_the_legal_id_of_the_highest_logit(self) -> None:
        view = _views(3, 5)[-1]
        network = _bias_network(np.arange(944, dtype=np.float32))
        mask = np.frombuffer(bytes(1 if i in legal_ids(view) else 0 for i in range(944)), dtype=np.uint8)
        assert legal_ids(view)[-1] == network(observation_tensor(view), mask)

    def test_a_tie_goes_to_the_lowest_id(self) -> None:
        mask = np.zeros(944, dtype=np.uint8)
        mask[[7, 9]] = 1
        assert 7 == _bias_network(np.zeros(944, dtype=np.float32))(np.zeros(OBSERVATION_SIZE), mask)

    def test_the_greedy_choice_gets_its_skip_weight(self) -> None:
        view = _views(3, 5)[-1]
        greedy = action_id(GreedyPlayer().choose(view, _rng(0)), view)
        network = _bias_network(np.arange(944, dtype=np.float32), np.full(944, 2000.0, dtype=np.float32))
        assert "observation+greedy" == network.inputs
        inputs = network_input(view, network.inputs)
        assert (OBSERVATION_SIZE + 944,) == inputs.shape
        assert [greedy] == np.flatnonzero(inputs[OBSERVATION_SIZE:]).tolist()
        mask = np.frombuffer(bytes(1 if i in legal_ids(view) else 0 for i in range(944)), dtype=np.uint8)
        assert greedy == network(inputs, mask)

    def test_a_batch_of_logits(self) -> None:
        network = _bias_network(np.arange(944, dtype=np.float32))
        assert (5, 944) == network.logits(np.zeros((5, OBSERVATION_SIZE))).shape

    def test_saved_and_loaded(self, tmp_path: Path) -> None:
        rng = np.random.default_rng(3)
        layers = (rng.normal(size=(OBSERVATION_SIZE, 4)), rng.normal(size=4), rng.normal(size=(4, 944)), np.ones(944))
        network = MLPPolicy(layers, np.full(944, 0.5))
        network.save(tmp_path / "net.npz", dtype=np.float32)
        loaded = MLPPolicy.load(tmp_path / "net.npz")
        assert [a.tolist() for a in network.layers] == [a.tolist() for a in loaded.layers]
        assert network.skip.tolist() == loaded.skip.tolist()  # type: ignore[union-attr]  # both have one

    def test_half_precision_by_default(self, tmp_path: Path) -> None:
        network = _bias_network(np.full(944, 1 / 3, dtype=np.float32))
        network.save(tmp_path / "net.npz")
        with np.load(tmp_path / "net.npz") as data:
            assert ["b0", "b1", "format", "w0", "w1"] == sorted(data.files)
            assert "float16" == str(data["b1"].dtype)
        assert float(np.float16(1 / 3)) == float(MLPPolicy.load(tmp_path / "net.npz").layers[-1][0])

    def test_a_file_of_another_kind_is_refused(self, tmp_path: Path) -> None:
        np.savez(tmp_path / "other.npz", w0=np.zeros(3))
        with pytest.raises(InvalidValueError, match="not a network of format 'persian-rummy-mlp-1'"):
            MLPPolicy.load(tmp_path / "other.npz")

    @pytest.mark.parametrize(
        ("layers", "message"),
        [
            ((np.zeros((OBSERVATION_SIZE, 3)),), "a network has a weight matrix and a bias per layer, got 1 arrays"),
            ((np.zeros((5, 3)), np.zeros(3)), "a layer takes 868 values, got a weight of shape (5, 3)"),
            ((np.zeros((OBSERVATION_SIZE, 3)), np.zeros(4)), "and a bias of (4,)"),
        ],
    )
    def test_layers_of_wrong_shapes_are_refused(self, layers: tuple[np.ndarray, ...], message: str) -> None:
        with pytest.raises(InvalidValueError) as raised:
            MLPPolicy(layers)
        assert message in str(raised.value)

    def test_a_mask_of_another_length_is_refused(self) -> None:
        with pytest.raises(InvalidValueError, match="the network scores 944 action ids, but the mask has 1064"):
            _bias_network(np.zeros(944))(np.zeros(OBSERVATION_SIZE), np.ones(1064, dtype=np.uint8))

    def test_an_empty_mask_is_refused(self) -> None:
        with pytest.raises(InvalidValueError, match="the mask allows no action id"):
            _bias_network(np.zeros(944))(np.zeros(OBSERVATION_SIZE), np.zeros(944, dtype=np.uint8))


class TestLearnedPlayer:
    """
    The learned player that ships plays only legal actions (R13), with NumPy alone, under the
    rules of 944 action ids (A8 adds ids, which it refuses), and with calls of "Rummy!" (A24).
    """

    def test_by_its_name(self) -> None:
        assert LearnedPlayer() == make_player("learned")

    def test_takes_no_budget(self) -> None:
        with pytest.raises(InvalidValueError, match="the player 'learned' takes no budget, got '5'"):
            make_player("learned:5")

    def test_the_weights_are_a_small_file_of_the_package(self) -> None:
        assert len(WEIGHTS.read_bytes()) < 2_000_000
        network = LearnedPlayer().network
        assert ("observation+greedy", 944) == (network.inputs, network.actions)

    def test_plays_legal_actions_in_a_match(self) -> None:
        result = play_match(LearnedPlayer(), GreedyPlayer(), 2, seed=7)
        assert 2 == result.summary.games
        assert result.summary.decisions[0] > 0

    def test_its_choices_are_legal_and_repeat(self) -> None:
        for view in _views(11, 40):
            chosen = LearnedPlayer().choose(view, _rng(1))
            assert chosen in legal_actions(view)
            assert chosen == LearnedPlayer().choose(view, _rng(2))

    def test_other_weights(self, tmp_path: Path) -> None:
        _bias_network(np.arange(944, dtype=np.float32)).save(tmp_path / "net.npz")
        view = _views(3, 5)[-1]
        chosen = make_player(f"persian_rummy.rl.policy:LearnedPlayer:weights='{tmp_path / 'net.npz'}'").choose(
            view, _rng(1)
        )
        assert legal_ids(view)[-1] == action_id(chosen, view)

    def test_pickles(self) -> None:
        assert LearnedPlayer() == pickle.loads(pickle.dumps(LearnedPlayer()))  # noqa: S301 (our own value)

    def test_refuses_rules_of_more_ids(self) -> None:
        rules = Rules(ace_low_allowed=True)
        state = apply(new_game(rules), Deal(0, FULL_DECK))
        with pytest.raises(InvalidValueError, match=r"scores 944 action ids, but these rules have 1064 \(A8\)"):
            LearnedPlayer().choose(observe(state, 1), _rng(1))

    def test_plays_calls_of_rummy(self) -> None:
        """
        A24: the two answers to a discard lie past the network's 944 ids: asked, it answers as the
        greedy player (it calls), and the network lays the card off among its own ids.
        """
        rules = Rules(rummy_calls=True)
        state = parse_position("rummy_calls=true 1/W play N 9s4c/2h3d/5h6d/8cKs * 2s E:TsJsQs,N:7c7d7h - - - 0 - -")
        asked = apply(state, Discard(0, "9s"))
        assert CallRummy(1) == LearnedPlayer().choose(observe(asked, 1), _rng(1))
        called = apply(asked, CallRummy(1))
        assert LayOff(1, 0, "9s") == LearnedPlayer().choose(observe(called, 1), _rng(1))
        result = play_match(LearnedPlayer(), GreedyPlayer(), 2, rules=rules, seed=7)
        assert 2 == result.summary.games

    def test_plays_with_torch_scikit_learn_and_jax_impossible_to_import(self) -> None:
        code = (
            "import sys; sys.modules.update(torch=None, sklearn=None, jax=None, optax=None, tensorflow=None)\n"
            "from persian_rummy.bots import GreedyPlayer, make_player\n"
            "from persian_rummy.matches import play_match\n"
            "result = play_match(make_player('learned'), GreedyPlayer(), 2, seed=3)\n"
            "print(result.summary.games, sorted(m for m in ('torch', 'sklearn', 'jax', 'optax') if sys.modules.get(m)))"
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
        assert "2 []" == done.stdout.strip()

    def test_says_which_extra_without_numpy(self) -> None:
        code = (
            "import sys; sys.modules['numpy'] = None\n"
            "from persian_rummy.bots import make_player\n"
            "try:\n    make_player('learned')\nexcept Exception as error:\n    print(type(error).__name__, error)"
        )
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True, env=env)  # noqa: S603
        assert (
            "InvalidValueError the learned player needs numpy: pip install 'persian-rummy[numpy]' (or the rl extra)"
            == done.stdout.strip()
        )


class TestRefusals:
    """
    What is not a network, a network's inputs or its weights' path is refused with the package's errors.
    """

    def test_inputs_of_no_kind(self) -> None:
        with pytest.raises(
            InvalidValueError, match=r"a network reads one of observation, observation\+greedy, got 'x'"
        ):
            network_input(_first_view(), "x")

    def test_skip_weights_of_another_shape(self) -> None:
        with pytest.raises(InvalidValueError, match="one per action id, 944, got the shape \\(3,\\)"):
            _bias_network(np.zeros(944), np.zeros(3))

    def test_skip_weights_that_are_no_array(self) -> None:
        with pytest.raises(InvalidTypeError, match="the greedy choice's weights are a numpy array or None, got 3"):
            _bias_network(np.zeros(944), 3)  # type: ignore[arg-type]

    def test_layers_that_are_no_arrays(self) -> None:
        with pytest.raises(InvalidTypeError, match="a network's layers are numpy arrays, got 3"):
            MLPPolicy(3)

    def test_a_file_lacking_an_array(self) -> None:
        arrays = {"format": np.array("persian-rummy-mlp-1"), "w0": np.zeros((OBSERVATION_SIZE, 944))}
        with pytest.raises(InvalidValueError, match="the network lacks the array b0"):
            MLPPolicy.from_arrays(arrays)

    def test_weights_that_are_no_path(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"weights is the path of a network's \.npz file, or None, got 3"):
            LearnedPlayer(3)  # type: ignore[arg-type]

    def test_the_names_of_the_module(self) -> None:
        from persian_rummy.rl import policy  # noqa: PLC0415 (the module itself, for its names)

        assert sorted(policy.__all__) == sorted(dir(policy))
