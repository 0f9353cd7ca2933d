"""
Big matches: the peak memory of a match of random players that keeps no games, and what its
checkpoint costs (``nox -s bench-matches``; docs/matches.md quotes the figures).

Each run is a fresh process playing ``play_match(RandomPlayer(), RandomPlayer(), N, seed=S,
keep_games=False)`` here (one core), with ``checkpoint=FILE`` or without.  Its peak resident memory
is the kernel's count for it (``ru_maxrss`` of ``os.wait4``), its time the CPU seconds it took (user
and system), which other work on the machine inflates less than the wall clock.  For each number
of games the runs with and without the checkpoint alternate, ``--repeats`` times; the figures are
the medians, and the checkpoint's cost the median of the ratios of each pair of runs.

    python benchmarks/bench_matches.py --games 10000 100000 --repeats 3 [--side-by-side] [--json FILE]

With ``--side-by-side`` the two runs of a pair start together, each on a core of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

#: The match each run plays, its number of games, seed and checkpoint (or "") given as arguments.
MATCH = """
import sys
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.matches import play_match
games, seed, checkpoint = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] or None
result = play_match(RandomPlayer(), RandomPlayer(), games, seed=seed, keep_games=False, checkpoint=checkpoint)
assert result.summary.games == games
"""


@dataclass(frozen=True)
class Run:
    games: int
    checkpoint: bool
    cpu_seconds: float
    peak_mib: float
    checkpoint_mib: float


def run(games: int, seed: int, checkpoint: Path | None) -> Run:
    """
    One match in a process of its own: its CPU seconds and peak memory, and the checkpoint's size.
    """
    command = [sys.executable, "-c", MATCH, str(games), str(seed), "" if checkpoint is None else str(checkpoint)]
    process = subprocess.Popen(command)  # noqa: S603 (this interpreter, fixed arguments)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        msg = f"the match of {games:,} games failed with status {process.returncode}"
        raise SystemExit(msg)
    size = 0.0 if checkpoint is None else checkpoint.stat().st_size / 2**20
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    peak = usage.ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)
    return Run(games, checkpoint is not None, usage.ru_utime + usage.ru_stime, peak, size)


def measure(games: int, repeats: int, folder: Path, *, side_by_side: bool = False) -> dict[str, object]:
    """
    *repeats* pairs of runs of *games* games, with the checkpoint and without: one after the other, or
    *side_by_side* on two cores, so that both share whatever else the machine is doing.
    """
    pairs = []
    for repeat in range(repeats):
        path = folder / f"match-{games}-{repeat}.jsonl"
        if side_by_side:
            with ThreadPoolExecutor(max_workers=2) as threads:
                first, second = threads.submit(run, games, repeat, path), threads.submit(run, games, repeat, None)
                with_file, without = first.result(), second.result()
        else:
            with_file = run(games, repeat, path)
            without = run(games, repeat, None)
        path.unlink()
        pairs.append((with_file, without))
        print(
            f"{games:>10,} games, repeat {repeat + 1}: with the checkpoint {with_file.cpu_seconds:8.1f} s CPU,"
            f" {with_file.peak_mib:6.1f} MiB peak ({with_file.checkpoint_mib:,.1f} MiB of checkpoint);"
            f" without {without.cpu_seconds:8.1f} s, {without.peak_mib:6.1f} MiB",
            flush=True,
        )
    return {
        "games": games,
        "cpu_seconds_with_checkpoint": statistics.median(a.cpu_seconds for a, _ in pairs),
        "cpu_seconds_without": statistics.median(b.cpu_seconds for _, b in pairs),
        "checkpoint_cost": statistics.median(a.cpu_seconds / b.cpu_seconds - 1 for a, b in pairs),
        "peak_mib_with_checkpoint": statistics.median(a.peak_mib for a, _ in pairs),
        "peak_mib_without": statistics.median(b.peak_mib for _, b in pairs),
        "checkpoint_mib": statistics.median(a.checkpoint_mib for a, _ in pairs),
        "runs": [[asdict(a), asdict(b)] for a, b in pairs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000], help="games of each match")
    parser.add_argument("--repeats", type=int, default=3, help="pairs of runs for each number of games")
    parser.add_argument(
        "--side-by-side",
        action="store_true",
        help="run the two matches of each pair at once, on two cores (half the time for the biggest matches)",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON to PATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = [measure(games, args.repeats, Path(folder), side_by_side=args.side_by_side) for games in args.games]
    for figure in figures:
        print(
            f"{figure['games']:>10,} games: peak {figure['peak_mib_with_checkpoint']:.1f} MiB with the checkpoint,"
            f" {figure['peak_mib_without']:.1f} MiB without; the checkpoint adds {figure['checkpoint_cost']:+.1%}"
            f" CPU time ({figure['checkpoint_mib']:,.1f} MiB of file)"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
