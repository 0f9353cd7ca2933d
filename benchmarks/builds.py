"""
Random playouts of the pure-Python build against the compiled one, interleaved, on one pinned core.

Run it with an interpreter that has the compiled build installed (the environment of
``nox -s compiled``, say ``.nox/compiled/bin/python benchmarks/builds.py``): each round runs
section 1 of ``benchmarks/bench.py`` (random playouts, the same games on fixed seeds) once in a
process that imports this checkout's ``src/`` (the pure build) and once in a process that imports
the installed package (the compiled build), each process checking `persian_rummy.engine.COMPILED`, both
pinned to the same CPU.  It prints the actions per second of each, and the ratio of each round and
their median over the rounds; then the same per second of CPU time (the actions per second divided
by the share of the wall time the process was on the CPU), which other work on a shared machine
disturbs less.
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

#: Run in each process: section 1 of bench.py, after checking which build it imports.
PROGRAM = """
import json, sys
sys.path.insert(0, {here!r})
import bench
import persian_rummy
if persian_rummy.engine.COMPILED != {compiled!r}:
    sys.exit(f"expected COMPILED={compiled!r}, imported {{persian_rummy.__file__}}")
bench.pin({cpu!r})
playouts = bench.measure_playouts({seconds!r}, {repeats!r}, None)
print(json.dumps({{"actions_per_s": playouts.actions_per_s.median, "cpu_share": playouts.cpu_share.median}}))
"""


def run(
    python: str, *, compiled: bool, cpu: int, seconds: float, repeats: int, path: Path | None = None
) -> tuple[float, float]:
    """
    Actions per second of wall time and per second of CPU time, of one run of section 1 on one build.

    The package is imported from *path* when it is given (a checkout's ``src/``, or a folder the compiled
    wheel was installed into with ``pip install --target``), else from this checkout's ``src/`` for the pure
    build and from the interpreter's own packages for the compiled one.
    """
    program = PROGRAM.format(here=str(HERE), compiled=compiled, cpu=cpu, seconds=seconds, repeats=repeats)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    elif not compiled:
        env["PYTHONPATH"] = str(SOURCES)
    done = subprocess.run(  # noqa: S603 (this interpreter or the one named, with a fixed program)
        [python, "-c", program], capture_output=True, text=True, env=env, check=False, cwd=HERE.parent
    )
    if done.returncode != 0:
        sys.exit(f"builds.py: the {'compiled' if compiled else 'pure'} run failed:\n{done.stderr}")
    figures = json.loads(done.stdout.splitlines()[-1])
    return figures["actions_per_s"], figures["actions_per_s"] / figures["cpu_share"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--python", default=sys.executable, help="an interpreter with the compiled build installed")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each running both builds (default 5)")
    parser.add_argument("--target-seconds", type=float, default=2.0, help="seconds per timed repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats per run, their median kept (default 3)")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    args = parser.parse_args(argv)
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    pure: list[tuple[float, float]] = []
    fast: list[tuple[float, float]] = []
    print(f"random playouts, actions/s (median of {args.repeats} repeats of ~{args.target_seconds:g} s), CPU {cpu}")
    columns = f"{'pure':>10}  {'compiled':>10}  {'ratio':>6}"
    print(f"{'round':>5}  {columns}    {'per CPU second:':16}{columns}")
    for r in range(1, args.rounds + 1):
        options = {"cpu": cpu, "seconds": args.target_seconds, "repeats": args.repeats}
        pure.append(run(args.python, compiled=False, **options))
        fast.append(run(args.python, compiled=True, **options))
        (a, a_cpu), (b, b_cpu) = pure[-1], fast[-1]
        cpu_figures = f"{a_cpu:>10,.0f}  {b_cpu:>10,.0f}  {b_cpu / a_cpu:>6.2f}"
        print(f"{r:>5}  {a:>10,.0f}  {b:>10,.0f}  {b / a:>6.2f}    {'':16}{cpu_figures}")
    for k, label in ((0, "per second of wall time"), (1, "per second of CPU time")):
        ratios = [f[k] / p[k] for p, f in zip(pure, fast, strict=True)]
        print(
            f"median {label}: pure {statistics.median(p[k] for p in pure):,.0f}, compiled "
            f"{statistics.median(f[k] for f in fast):,.0f} actions/s; compiled / pure "
            f"{statistics.median(ratios):.2f} [{min(ratios):.2f} - {max(ratios):.2f}] over {len(ratios)} rounds"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
