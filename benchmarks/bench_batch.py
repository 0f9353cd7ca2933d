"""
The batched engine: steps of the games per second through `BatchSoloVectorEnv` (persian_rummy.rl.batchenv),
the native `PersianRummyVectorEnv` and Gymnasium's `SyncVectorEnv` over ``persian_rummy/Solo-v0``, at
N = 1, 16, 256 and 1,024 games, in the same run, in one process pinned to one CPU.

All play seat 0 against the same players at the other seats, random players (``players="random"``)
then greedy players (``"greedy"``, Solo-v0's default), with next-step autoreset, the same observation
(Solo-v0's tensor and mask; the batched environment also with its compact observation, ``compact``)
and the same policy: a legal id drawn at random for each game from the mask (`legal_at_random`, whose
time is counted).  A step of the games is one of the learner's actions in one game and what the other
seats and the deals do up to its next decision.  Each environment is made and reset once per N, then
the four take turns, a window of ``--seconds`` CPU seconds each per round, for ``--repeats`` rounds, so
that a slower spell of the machine falls on all of them.  With the jit extra installed (Numba, as ``nox -s
bench`` installs it) the batched environment plays the other seats with compiled code, and ``arrays`` is
the same environment with that switched off (``compiled = False``): the other seats played by NumPy's
array operations, a move of the batch at a time.  The rates are the medians of the windows'
steps per CPU second; each ratio is the median of the ratios taken within a round (with the range of
batched / Sync).
Then where the batched step's time goes, by part, at the largest N, for each kind of player.  With
``--compiled FOLDER`` the whole measurement is made again on the compiled build installed in FOLDER
(``nox -s bench`` builds it), in a process of its own: the compiled build speeds up the scalar engine
that ``SyncVectorEnv`` and the native environment run, not the batch's NumPy.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Set to a folder holding the compiled build (a wheel installed there with ``pip install --target``), the
#: run measures that build; unset, this checkout's ``src/`` (the pure build).  ``--compiled`` sets it for a
#: second run in a process of its own.
COMPILED_FOLDER = os.environ.get("PERSIAN_RUMMY_BENCH_COMPILED")
sys.path.insert(0, COMPILED_FOLDER or str(HERE.parent / "src"))

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import persian_rummy.engine  # noqa: E402
import persian_rummy.rl.gymnasium  # noqa: E402 (registers Solo-v0)
import persian_rummy.rl.vector  # noqa: E402 (its vector entry point)
from persian_rummy.rl.batchenv import BatchSoloVectorEnv  # noqa: E402

SIZES = (1, 16, 256, 1024)


def make(kind: str, n: int, players: str) -> Any:  # noqa: ANN401 (a vector environment of either kind)
    if kind == "batched":
        return BatchSoloVectorEnv(n, players=players)
    if kind == "arrays":
        envs = BatchSoloVectorEnv(n, players=players)
        envs.compiled = False
        return envs
    if kind == "compact":
        return BatchSoloVectorEnv(n, players=players, observation="compact")
    if kind == "native":
        return gymnasium.make_vec("persian_rummy/Solo-v0", n, engine="scalar", players=players)
    return gymnasium.make_vec("persian_rummy/Solo-v0", n, vectorization_mode="sync", players=players)


def legal_at_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """
    The benchmark's policy: a legal id of each row of *masks*, each as likely (a few microseconds for the
    batch, so that the environments' steps, not the policy, are measured).
    """
    k, width = masks.shape
    # The masks are int8 (as Solo-v0 gives them); NumPy finds the nonzero bytes of a bool array many
    # times faster than those of an int8 one, and a 0-or-1 byte reads the same either way.
    ids = np.ascontiguousarray(masks).view(np.bool_).ravel().nonzero()[0]
    bounds = ids.searchsorted(np.arange(0, (k + 1) * width, width))
    chosen: np.ndarray = ids[bounds[:-1] + (rng.random(k) * (bounds[1:] - bounds[:-1])).astype(np.int64)] % width
    return chosen


class Run:
    """
    One environment of one kind and N, reset once and stepped window after window.
    """

    def __init__(self, kind: str, n: int, seed: int, players: str) -> None:
        self.n = n
        self.envs = make(kind, n, players)
        self.observations, _ = self.envs.reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.window(0.0)  # warm-up: four steps

    def window(self, seconds: float) -> float:
        """
        Steps of the games per CPU second over a window of at least *seconds*.
        """
        steps, spent, start = 0, 0.0, time.process_time()
        while True:
            for _ in range(4):
                actions = legal_at_random(self.observations["action_mask"], self.rng)
                self.observations, *_ = self.envs.step(actions)
            steps += 4 * self.n
            spent = time.process_time() - start
            if spent >= seconds:
                return steps / spent


def where_the_time_goes(n: int, steps: int, players: str) -> list[tuple[str, float]]:
    envs = BatchSoloVectorEnv(n, players=players)
    observations, _ = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(steps):
        observations, *_ = envs.step(legal_at_random(observations["action_mask"], rng))
    profile.disable()
    stats = pstats.Stats(profile)
    parts = {
        "other seats' moves": ("_batch_games.py", ("advance",)),
        "their choices": ("batchplayers.py", ("choose_batch",)),  # none where they are compiled
        "legal masks": ("batch.py", ("legal_masks", "legal_masks_of", "draw_masks_of", "play_masks_of")),
        "steps of the engine": ("batch.py", ("step",)),
        "deals": ("batch.py", ("deal",)),
        "observations": ("_batch_observe.py", ("written",)),
    }
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    shares = []
    for name, (file, functions) in parts.items():
        cumulative = sum(
            row[3]
            for (path, _, called), row in stats.stats.items()  # type: ignore[attr-defined]
            if called in functions and path.endswith(f"persian_rummy/rl/{file}")
        )
        if cumulative or name != "their choices":
            shares.append((name, cumulative / total))
    return shares


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=0.25, help="CPU seconds of a window (default 0.25)")
    parser.add_argument("--repeats", type=int, default=15, help="rounds of windows for each N (default 15)")
    parser.add_argument(
        "--compiled", type=Path, help="a folder holding the compiled build: measured too, after the pure build"
    )
    args = parser.parse_args(argv)
    if bool(COMPILED_FOLDER) != persian_rummy.engine.COMPILED:
        sys.exit(f"bench_batch.py: expected COMPILED={bool(COMPILED_FOLDER)}, imported {persian_rummy.__file__}")
    build = "compiled" if COMPILED_FOLDER else "pure"
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    jit = BatchSoloVectorEnv(1).compiled  # Numba is installed: the batched environment's other seats compiled
    kinds = ("sync", "native", "batched", "arrays", "compact") if jit else ("sync", "native", "batched", "compact")
    for players in ("random", "greedy"):
        figures = {(kind, n): [] for kind in kinds for n in SIZES}  # type: dict[tuple[str, int], list[float]]
        for n in SIZES:
            # The kinds take turns, a window each per round, so that a slower spell of the machine falls
            # on all of them, and each ratio is taken within a round.
            runs = {kind: Run(kind, n, 1, players) for kind in kinds}
            for _ in range(args.repeats):
                for kind in kinds:
                    figures[kind, n].append(runs[kind].window(args.seconds))
            del runs
        title = f"{build} build, steps of the games per CPU second, medians over {args.repeats} rounds"
        title += f", {players} players, CPU {cpu}"
        title += ", other seats compiled (Numba)" if jit else ", Numba not installed: other seats by array operations"
        print(f"\nbatched engine: {title}")
        pairs = [("batched", "sync"), ("batched", "native"), ("compact", "sync")]
        if jit:
            pairs.insert(1, ("arrays", "sync"))
        head = f"{'N':>5}  {'SyncVectorEnv':>13}" + "".join(f"  {kind:>9}" for kind in kinds[1:])
        print(head + "".join(f"  {f'{kind} / {base}':>16}" for kind, base in pairs) + "  (range)")
        for n in SIZES:
            line = f"{n:>5}  {statistics.median(figures['sync', n]):>13,.0f}"
            line += "".join(f"  {statistics.median(figures[kind, n]):>9,.0f}" for kind in kinds[1:])
            ratios = [[b / a for a, b in zip(figures[base, n], figures[kind, n], strict=True)] for kind, base in pairs]
            within = "".join(f"  {statistics.median(r):>16.2f}" for r in ratios)
            print(f"{line}{within}  ({min(ratios[0]):.2f}-{max(ratios[0]):.2f})")
        print(f"\nwhere the batched step's time goes at N = {SIZES[-1]}, {players} players (cumulative, overlapping):")
        for name, share in where_the_time_goes(SIZES[-1], 30, players):
            print(f"  {name:<22} {share:>6.0%}")
    if args.compiled is not None:  # the same measurement of the compiled build, in a process of its own
        again = [sys.executable, __file__, "--seconds", str(args.seconds), "--repeats", str(args.repeats)]
        env = {**os.environ, "PERSIAN_RUMMY_BENCH_COMPILED": str(args.compiled.resolve())}
        sys.stdout.flush()
        return subprocess.run(again, env=env, check=False).returncode  # noqa: S603 (this script, again)
    return 0


if __name__ == "__main__":
    sys.exit(main())
