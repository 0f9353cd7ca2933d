"""
The learned player's training (``training/learned.py``) on a tiny budget: the same seed gives the
same weights, the loss is that of the network `MLPPolicy` evaluates, and the learning curve is
printed per round.  The trainer needs JAX and optax (the ``train`` group): without them these tests
are skipped; ``nox -s train`` runs them, then the quick budget end to end, twice, once on two
processes, and checks that the weights are the same.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("jax")
pytest.importorskip("optax")

import numpy as np

from persian_rummy.rl.policy import MLPPolicy

SCRIPT = Path(__file__).resolve().parents[1] / "training" / "learned.py"


@pytest.fixture(scope="module")
def training() -> ModuleType:
    spec = importlib.util.spec_from_file_location("training_learned", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _tiny(training: ModuleType) -> object:
    return training.Budget(
        rounds=2, first_games=2, games=2, teacher="greedy", hidden=(8,), epochs=1, batch=32, rate=1e-3, match_games=2
    )


def _same(first: MLPPolicy, second: MLPPolicy) -> bool:
    skips = [array for array in (first.skip, second.skip) if array is not None]
    pairs = zip((*first.layers, *skips[:1]), (*second.layers, *skips[1:]), strict=True)
    return len(skips) != 1 and all(np.array_equal(a, b) for a, b in pairs)


class TestTraining:
    """
    Training is reproducible from its seed (issue 21), and prints its learning curve.
    """

    def test_the_same_seed_gives_the_same_weights(
        self, training: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        first = training.run(_tiny(training), 4, None, tmp_path / "first.npz")
        second = training.run(_tiny(training), 4, None, tmp_path / "second.npz")
        assert _same(first, second)
        assert training.digest(first) == training.digest(MLPPolicy.load(tmp_path / "first.npz"))
        assert 0 == training.main(["--same", str(tmp_path / "first.npz"), str(tmp_path / "second.npz")])
        lines = capsys.readouterr().out.splitlines()
        curve = re.compile(
            r"round [01]: [\d,]+ states \([\d,]+ in all\), agreement before (-|0\.\d{3}|1\.000), "
            r"training accuracy [01]\.\d{3}, vs greedy [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\] over 2 games, \d+ s"
        )
        assert 4 == sum(1 for line in lines if curve.fullmatch(line))
        assert lines[-1].endswith("the same weights")

    def test_another_seed_gives_other_weights(self, training: ModuleType, tmp_path: Path) -> None:
        tiny = training.Budget(
            rounds=1,
            first_games=1,
            games=0,
            teacher="greedy",
            hidden=(4,),
            epochs=1,
            batch=32,
            rate=1e-3,
            match_games=2,
        )
        training.run(tiny, 4, None, tmp_path / "first.npz")
        training.run(tiny, 5, None, tmp_path / "other.npz")
        assert 1 == training.main(["--same", str(tmp_path / "first.npz"), str(tmp_path / "other.npz")])


def _batch(training: ModuleType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (5, training.OBSERVATION_SIZE + training.ACTIONS)).astype(np.float32)
    mask = rng.random((5, training.ACTIONS)) < 0.05
    y = np.array([int(np.flatnonzero(row)[0]) for row in mask], dtype=np.int32)
    return x, mask, y


def _params(network: MLPPolicy) -> tuple[tuple[np.ndarray, ...], np.ndarray | None]:
    return network.layers, network.skip


class TestLoss:
    """
    The loss is the cross-entropy of the network that `MLPPolicy` evaluates (issue 21: inference stays NumPy alone).
    """

    def test_is_the_cross_entropy_of_the_policys_logits_over_the_legal_ids(self, training: ModuleType) -> None:
        network = training.initial(_tiny(training), np.random.default_rng(1))
        x, mask, y = _batch(training)
        logits = np.where(mask, network.logits(x).astype(np.float64), -np.inf)
        expected = np.mean(np.log(np.exp(logits).sum(axis=1)) - logits[np.arange(5), y])
        assert expected == pytest.approx(float(training.loss(_params(network), x, mask, y)), rel=1e-5)

    def test_gives_the_masked_ids_no_gradient(self, training: ModuleType) -> None:
        import jax  # noqa: PLC0415 (the module is skipped without it)

        network = training.initial(_tiny(training), np.random.default_rng(1))
        x, mask, y = _batch(training)
        grads = jax.grad(training.loss)(_params(network), x, mask, y)
        legal = mask.any(axis=0)
        assert 0 == np.count_nonzero(np.asarray(grads[0][-1])[~legal])
        assert 0 == np.count_nonzero(np.asarray(grads[1])[~legal])
        assert np.count_nonzero(np.asarray(grads[0][-1])[legal]) == np.count_nonzero(legal)

    def test_training_lowers_it_on_the_data(self, training: ModuleType) -> None:
        budget = training.Budget(
            rounds=1, first_games=0, games=0, teacher="greedy", hidden=(8,), epochs=5, batch=2, rate=1e-2, match_games=0
        )
        network = training.initial(budget, np.random.default_rng(1))
        x, mask, y = _batch(training)
        data = training.Data(list(x.astype(np.float16)), list(mask.astype(np.uint8)), [int(i) for i in y])
        trained = training.train(network, data, budget, np.random.default_rng(2))
        before = float(training.loss(_params(network), x.astype(np.float16).astype(np.float32), mask, y))
        after = float(training.loss(_params(trained), x.astype(np.float16).astype(np.float32), mask, y))
        assert after < before
