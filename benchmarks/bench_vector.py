"""
Vector environments: steps of the games per second through the native `PersianRummyVectorEnv` and
through Gymnasium's `SyncVectorEnv` over ``persian_rummy/Solo-v0``, at N = 1, 16 and 256 games,
on the pure build and on the compiled one, in the same run.

Each build runs in a process of its own pinned to one CPU: the pure build imports this
checkout's ``src/``, the compiled one the folder given by ``--compiled`` (a compiled wheel
installed there with ``pip install --target``; ``nox -s bench`` builds it), each checking
`persian_rummy.engine.COMPILED`.  In a process, each repeat steps, for each N, the
``SyncVectorEnv`` of ``gymnasium.make_vec(..., vectorization_mode="sync")`` and then the native
environment (``vectorization_mode="vector_entry_point"``, ``engine="scalar"``), both with their defaults (greedy
players at the three other seats, next-step autoreset, observations copied), for about
``--seconds`` of CPU time each, after a reset on the same seed and a few steps of warm-up.  The
policy is the same for both: a legal id drawn at random for each game from the observation's
mask, by numpy.  A step of the games is one of the learner's actions in one game (and what the
other seats and the deals do up to its next decision), so a step of the vector counts N of them.
The figures are the median over the repeats of the steps per second of CPU time, and the ratio
native / Sync of each build; the last line compares the compiled native environment with
``SyncVectorEnv`` on the pure build, the set-up a learner had before the native environment.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent / "src"
SIZES = (1, 16, 256)

#: Run in each process: the measurement, after checking which build it imports.
PROGRAM = """
import json, os, sys, time
import gymnasium, numpy as np
import persian_rummy, persian_rummy.engine, persian_rummy.rl.gymnasium
if persian_rummy.engine.COMPILED != {compiled!r}:
    sys.exit(f"expected COMPILED={compiled!r}, imported {{persian_rummy.__file__}}")
os.sched_setaffinity(0, {{{cpu!r}}})

def rate(mode, n, seconds, seed):
    scalar = {{"engine": "scalar"}} if mode == "vector_entry_point" else {{}}
    envs = gymnasium.make_vec("persian_rummy/Solo-v0", n, vectorization_mode=mode, **scalar)
    observations, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, spent = 0, 0.0
    for _ in range(3):  # warm-up
        observations, *_ = envs.step((rng.random((n, 944)) * observations["action_mask"]).argmax(axis=1))
    start = time.process_time()
    while spent < seconds:
        for _ in range(8):
            actions = (rng.random((n, 944)) * observations["action_mask"]).argmax(axis=1)
            observations, *_ = envs.step(actions)
        steps += 8 * n
        spent = time.process_time() - start
    envs.close()
    return steps / spent

figures = {{str(n): {{"sync": [], "native": []}} for n in {sizes!r}}}
for repeat in range({repeats!r}):
    for n in {sizes!r}:
        for key, mode in (("sync", "sync"), ("native", "vector_entry_point")):
            figures[str(n)][key].append(rate(mode, n, {seconds!r}, 1 + repeat))
print(json.dumps(figures))
"""


def run(compiled: Path | None, *, cpu: int, seconds: float, repeats: int) -> dict[str, dict[str, list[float]]]:
    """
    The steps per second of each kind of environment at each N, on one build.
    """
    program = PROGRAM.format(compiled=compiled is not None, cpu=cpu, seconds=seconds, repeats=repeats, sizes=SIZES)
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(SOURCES if compiled is None else compiled)}
    done = subprocess.run(  # noqa: S603 (this interpreter, with a fixed program)
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=False, cwd=HERE.parent
    )
    if done.returncode != 0:
        sys.exit(f"bench_vector.py: the {'compiled' if compiled else 'pure'} run failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def table(builds: dict[str, dict[str, dict[str, list[float]]]]) -> list[dict[str, object]]:
    """
    One row per build and N: the median steps per second of each environment and their ratio.
    """
    rows: list[dict[str, object]] = []
    for build, figures in builds.items():
        for n in SIZES:
            sync = statistics.median(figures[str(n)]["sync"])
            native = statistics.median(figures[str(n)]["native"])
            rows.append({"build": build, "games": n, "sync_steps_per_s": sync, "native_steps_per_s": native})
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--compiled", type=Path, help="a folder holding the compiled build (pure build only without)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per environment and N (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats, their median kept (default 3)")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    builds = {"pure": run(None, cpu=cpu, seconds=args.seconds, repeats=args.repeats)}
    if args.compiled is not None:
        builds["compiled"] = run(args.compiled, cpu=cpu, seconds=args.seconds, repeats=args.repeats)
    rows = table(builds)
    print(
        f"\nvector environments: steps of the games per CPU second (median of {args.repeats} repeats of "
        f"~{args.seconds:g} s), greedy players, CPU {cpu}"
    )
    print(f"{'build':<9} {'N':>4}  {'SyncVectorEnv':>13}  {'native':>9}  {'native / Sync':>13}")
    for row in rows:
        sync, native = float(row["sync_steps_per_s"]), float(row["native_steps_per_s"])  # type: ignore[arg-type]
        print(f"{row['build']:<9} {row['games']:>4}  {sync:>13,.0f}  {native:>9,.0f}  {native / sync:>13.2f}")
    if "compiled" in builds:
        at = {(row["build"], row["games"]): row for row in rows}
        base = float(at["pure", SIZES[-1]]["sync_steps_per_s"])  # type: ignore[arg-type]
        best = float(at["compiled", SIZES[-1]]["native_steps_per_s"])  # type: ignore[arg-type]
        print(f"compiled native / pure SyncVectorEnv at N = {SIZES[-1]}: {best / base:.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps({"cpu": cpu, "rows": rows, "runs": builds}, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
