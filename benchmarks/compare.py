"""
Random playouts of two versions of the package, interleaved, on one pinned core: is a change slower?

Each round runs section 1 of ``benchmarks/bench.py`` (random playouts, the same games on fixed seeds, under
the default rules) once with the package imported from ``--base`` and once from ``--head``, each process
pinned to the same CPU, and prints the actions per second of both and their ratio; at the end the medians
and the median ratio over the rounds, per second of wall time and per second of CPU time.  A folder is a
checkout's ``src/`` (the pure build) or a folder the compiled wheel was installed into with ``pip install
--target`` (then pass ``--compiled``)::

    git worktree add /tmp/before main~1
    python benchmarks/compare.py --base /tmp/before/src --head src
    python benchmarks/compare.py --compiled --base /tmp/compiled-before --head /tmp/compiled-after

Only figures of one run compare: the machine's other work moves both alike, round by round.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from builds import run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--base", type=Path, required=True, help="the folder the version before imports from")
    parser.add_argument("--head", type=Path, required=True, help="the folder the version after imports from")
    parser.add_argument("--compiled", action="store_true", help="both folders hold the compiled build")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each running both versions (default 5)")
    parser.add_argument("--target-seconds", type=float, default=2.0, help="seconds per timed repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats per run, their median kept (default 3)")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    args = parser.parse_args(argv)
    cpu = args.cpu if args.cpu is not None else max(os.sched_getaffinity(0))
    build = "compiled" if args.compiled else "pure"
    base: list[tuple[float, float]] = []
    head: list[tuple[float, float]] = []
    timing = f"median of {args.repeats} repeats of ~{args.target_seconds:g} s"
    print(f"random playouts, {build} build, actions/s ({timing}), CPU {cpu}")
    columns = f"{'base':>10}  {'head':>10}  {'ratio':>6}"
    print(f"{'round':>5}  {columns}    {'per CPU second:':16}{columns}")
    for r in range(1, args.rounds + 1):
        options = {"compiled": args.compiled, "cpu": cpu, "seconds": args.target_seconds, "repeats": args.repeats}
        # Alternate which version runs first, so that neither always meets a warmer or cooler machine.
        first, second = (args.base, args.head) if r % 2 else (args.head, args.base)
        figures = {first: run(args.python, path=first, **options), second: run(args.python, path=second, **options)}
        base.append(figures[args.base])
        head.append(figures[args.head])
        (a, a_cpu), (b, b_cpu) = base[-1], head[-1]
        cpu_figures = f"{a_cpu:>10,.0f}  {b_cpu:>10,.0f}  {b_cpu / a_cpu:>6.3f}"
        print(f"{r:>5}  {a:>10,.0f}  {b:>10,.0f}  {b / a:>6.3f}    {'':16}{cpu_figures}")
    for k, label in ((0, "per second of wall time"), (1, "per second of CPU time")):
        ratios = [h[k] / b[k] for b, h in zip(base, head, strict=True)]
        print(
            f"median {label}: base {statistics.median(b[k] for b in base):,.0f}, head "
            f"{statistics.median(h[k] for h in head):,.0f} actions/s; head / base "
            f"{statistics.median(ratios):.3f} [{min(ratios):.3f} - {max(ratios):.3f}] over {len(ratios)} rounds"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
