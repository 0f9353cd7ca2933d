"""
The recipes of the guides run as written, with the libraries they name: the training recipes of
docs/reinforcement-learning.md, and the executors of docs/matches.md and docs/bots.md (a process pool,
Dask, Ray).

The recipes are the pages' Python blocks that are not doctests.  Each is run as the page writes it, in
a fresh interpreter, with its budget shortened (the games of a match, the steps of a training) and a
cluster's address replaced by a local cluster, each by replacing the text that sets it (each replacement
must match the page exactly once, so that an edit of the page fails here rather than running something
else); the names that the page's doctests imported before the block are imported first, and a few lines
after it check what it did.  The libraries are not dependencies of the package: a recipe whose library
is missing is skipped, and ``nox -s recipes`` installs them all and runs this file.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from attrs import frozen

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGE = DOCS / "reinforcement-learning.md"
#: The check of a match under ``if __name__ == "__main__":``, as the page keeps it: a local cluster's workers
#: import the script again, and must not run it.
UNDER_THE_GUARD = (
    'if __name__ == "__main__":\n    assert 4 == result.summary.games, result.summary\n    print("recipe done")\n'
)
#: What the blocks of docs/matches.md and docs/bots.md use from the doctests before them.
MATCH_NAMES = (
    "from persian_rummy.bots.players import GreedyPlayer, RandomPlayer, make_player\n"
    "from persian_rummy.matches import play_match\n"
)
#: One thread for torch's and NumPy's linear algebra: on two cores shared with the environments'
#: Python, more threads only wait for each other (Stable-Baselines3's steps run ten times slower).
ONE_THREAD = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
#: Long enough for the slowest recipe on a loaded machine: a guard against a hang, not a measure.
TIMEOUT = 1800


@frozen
class Recipe:
    """
    A recipe of the page: the text that tells it apart, the modules it needs, the replacements that
    shorten its budget (the page's text, then the text run), and the lines run after it to check it.
    """

    name: str
    marker: str
    needs: tuple[str, ...]
    budget: tuple[tuple[str, str], ...]
    check: str
    page: Path = PAGE
    prelude: str = ""


RECIPES = (
    Recipe(
        name="sb3-contrib's MaskablePPO",
        marker="from sb3_contrib import MaskablePPO",
        needs=("sb3_contrib", "stable_baselines3", "torch"),
        # Two rollouts of 8 games x 1,024 steps, a frozen copy added after each.
        budget=(("model.learn(3_000_000,", "model.learn(16_384,"), ("every=100_000", "every=8_192")),
        check='assert pool.names == ("greedy", "step-8192", "step-16384"), pool.names\nprint("recipe done")\n',
    ),
    Recipe(
        name="RLlib through PettingZoo",
        marker="from ray.rllib.algorithms.ppo import PPOConfig",
        needs=("ray.rllib", "torch"),
        # Two iterations, the frozen team given the learner's weights after each.
        budget=(("range(1, 201)", "range(1, 3)"), ("iteration % 10 == 0", "iteration % 1 == 0")),
        check='assert iteration == 2, iteration\nalgorithm.stop()\nprint("recipe done")\n',
    ),
    Recipe(
        name="TorchRL through PettingZoo",
        marker="from torchrl.envs import PettingZooWrapper",
        needs=("torchrl", "torch"),
        budget=(),  # one whole game already
        check='assert bool(rollout["next", "done"][-1]), "the game did not end"\nprint("recipe done")\n',
    ),
    Recipe(
        name="PPO on the batched environment",
        marker='envs = BatchSoloVectorEnv(256, players="random", observation="compact")',
        needs=("torch",),
        # Two updates, and 64 games to score.
        budget=(("range(1, 61)", "range(1, 3)"), ("score_rate(2_000,", "score_rate(64,")),
        check='assert 0 <= rate <= 1, rate\nprint("recipe done")\n',
    ),
    Recipe(
        name="a process pool and a Dask cluster",
        marker="with ProcessPoolExecutor(max_workers=8) as pool:",
        needs=("distributed",),
        # Two duplicate pairs each; two processes, and a local cluster of two for the scheduler's address.
        budget=(
            ("max_workers=8", "max_workers=2"),
            ("GreedyPlayer(), 600,", "GreedyPlayer(), 4,"),
            ('Client("scheduler-address:8786")', "Client(n_workers=2, threads_per_worker=1, dashboard_address=None)"),
            ("GreedyPlayer(), 6000,", "GreedyPlayer(), 4,"),
        ),
        check=UNDER_THE_GUARD,
        page=DOCS / "bots.md",
        prelude=MATCH_NAMES,
    ),
    Recipe(
        name="a Dask cluster",
        marker='with Client("scheduler-address:8786") as client:  # or Client() for a local cluster',
        needs=("distributed",),
        budget=(
            ('Client("scheduler-address:8786")', "Client(n_workers=2, threads_per_worker=1, dashboard_address=None)"),
            ("10_000,", "4,"),
        ),
        check=UNDER_THE_GUARD,
        page=DOCS / "matches.md",
        prelude=MATCH_NAMES,
    ),
    Recipe(
        name="a Ray executor",
        marker="class RayExecutor(Executor):",
        needs=("ray",),
        budget=(("ray.init()", "ray.init(num_cpus=2, include_dashboard=False)"), ("10_000,", "4,")),
        check='assert 4 == result.summary.games, result.summary\nray.shutdown()\nprint("recipe done")\n',
        page=DOCS / "matches.md",
        prelude=MATCH_NAMES,
    ),
)
#: The pages whose Python blocks are recipes, every one.
PAGES = tuple(dict.fromkeys(recipe.page for recipe in RECIPES))


def blocks(text: str) -> list[str]:
    """
    The Python blocks of *text* that are not doctests.
    """
    found = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    return [block for block in found if not block.lstrip().startswith(">>>")]


def recipe_code(recipe: Recipe, text: str) -> str:
    """
    The code *recipe* runs: its block of *text* with its budget shortened, and its checks after it.
    """
    (code,) = [block for block in blocks(text) if recipe.marker in block]
    for written, run in recipe.budget:
        count = code.count(written)
        if count != 1:
            msg = f"the recipe {recipe.name} holds {written!r} {count} times, not once: update {Path(__file__).name}"
            raise AssertionError(msg)
        code = code.replace(written, run)
    return f"{recipe.prelude}{code}\n{recipe.check}"


def _missing(recipe: Recipe) -> list[str]:
    missing = []
    for name in recipe.needs:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a submodule of a package not installed
            found = False
        if not found:
            missing.append(name)
    return missing


class TestThePage:
    """
    Every recipe of the pages is one of `RECIPES`, its budget found once, its code valid Python.
    """

    @pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
    def test_every_recipe_is_known(self, page: Path) -> None:
        text = page.read_text(encoding="utf-8")
        ours = [recipe for recipe in RECIPES if recipe.page == page]
        known = [[recipe.name for recipe in ours if recipe.marker in block] for block in blocks(text)]
        assert [[recipe.name] for recipe in ours] == known

    @pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.name)
    def test_its_budget_is_found_once_and_it_compiles(self, recipe: Recipe) -> None:
        compile(recipe_code(recipe, recipe.page.read_text(encoding="utf-8")), recipe.name, "exec")

    def test_an_edited_budget_fails(self) -> None:
        text = PAGE.read_text(encoding="utf-8").replace("model.learn(3_000_000,", "model.learn(2_000_000,")
        with pytest.raises(AssertionError, match=r"holds 'model.learn\(3_000_000,' 0 times, not once"):
            recipe_code(RECIPES[0], text)


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.name)
def test_the_recipe_runs(recipe: Recipe, tmp_path: Path) -> None:
    """
    The recipe trains on its short budget in a fresh interpreter, in a folder of its own, and its checks pass.
    """
    missing = _missing(recipe)
    if missing:
        pytest.skip(f"the recipe needs {', '.join(missing)} (nox -s recipes installs them)")
    script = tmp_path / "recipe.py"
    script.write_text(recipe_code(recipe, recipe.page.read_text(encoding="utf-8")), encoding="utf-8")
    env = {**os.environ, **ONE_THREAD, "PYTHONWARNINGS": "ignore", "RAY_USAGE_STATS_ENABLED": "0"}
    if "stable_baselines3" in recipe.needs:
        # Stable-Baselines3's logger makes a folder in the temporary directory: keep it in the test's own.
        env["TMPDIR"] = str(tmp_path)
    run = subprocess.run(  # noqa: S603 (this interpreter, on a script written above)
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    shown = f"{run.stdout[-4000:]}\n{run.stderr[-8000:]}"
    assert 0 == run.returncode, shown
    assert "recipe done" == run.stdout.strip().splitlines()[-1], shown
