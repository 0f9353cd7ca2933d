"""
The learned player's training (``training/learned.py``) on a tiny budget: the same seed gives the
same weights, and the learning curve is printed per round.  ``nox -s train -- --quick`` runs the
quick budget end to end, twice, once on two processes, and checks that the weights are the same.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

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
