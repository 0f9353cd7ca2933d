"""
Instructions per random playout of two versions of the package, counted by Valgrind: is a change slower?

``compare.py`` times both versions, interleaved on one pinned core; on a machine that is busy with other
work its ratio still moves by a few per cent.  This script counts instead: it runs the same seeded games
(section 1's ``playout_batch`` of ``benchmarks/bench.py``, under the default rules) in a process under
``valgrind --tool=cachegrind --cache-sim=no``, once with the package imported from ``--base`` and once from
``--head``, and a run that only imports the package for each, and prints the instructions per game of
both beyond the import and their ratio.  The count does not depend on the machine's other work, so one
run of each version is enough; it measures the interpreter's work, not the time the CPU's caches and
branch predictors add to it, so a ratio near 1 is confirmed by ``compare.py`` on a quiet machine::

    git worktree add /tmp/before main~1
    python benchmarks/instructions.py --base /tmp/before/src --head src
    python benchmarks/instructions.py --base /tmp/compiled-before --head /tmp/compiled-after

A folder is a checkout's ``src/`` (the pure build: a checkout that built the compiled wheel in place holds
its extension modules, which Python then imports instead) or a folder the compiled wheel was installed into
with ``pip install --target``.  Valgrind runs a program about fifty times slower: the default 100 games
take a minute or two per version.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Run in each process: *games* games of section 1 of bench.py (none: only the imports).
PROGRAM = """
import sys
sys.path.insert(0, {here!r})
import bench
import persian_rummy.engine
print(persian_rummy.engine.COMPILED)
if {games!r}:
    bench.playout_batch({games!r}, 1)
"""


def count(python: str, path: Path, games: int) -> tuple[int, bool]:
    """
    The instructions Valgrind counts in a process that plays *games* games with the package from *path*,
    and whether it imported the compiled build.
    """
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(path)}
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    program = PROGRAM.format(here=str(HERE), games=games)
    done = subprocess.run(  # noqa: S603 (valgrind on this interpreter, with a fixed program)
        [*command, python, "-c", program], capture_output=True, text=True, env=env, check=False, cwd=HERE.parent
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"instructions.py: the run on {path} failed:\n{done.stderr[-4000:]}")
    return int(found.group(1).replace(",", "")), done.stdout.split()[0] == "True"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--base", type=Path, required=True, help="the folder the version before imports from")
    parser.add_argument("--head", type=Path, required=True, help="the folder the version after imports from")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--games", type=int, default=100, help="games played under Valgrind (default 100)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py needs valgrind on the PATH (Debian: apt install valgrind)")
    runs = [(path, games) for path in (args.base, args.head) for games in (0, args.games)]
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:  # each count is the same however many run at once
        counts = list(pool.map(lambda run: count(args.python, *run), runs))
    per_game = []
    for name, path, (imports, _), (played, compiled) in zip(
        ("base", "head"), (args.base, args.head), counts[::2], counts[1::2], strict=True
    ):
        per_game.append((played - imports) / args.games)
        build = "compiled" if compiled else "pure"
        print(f"{name}: {per_game[-1]:,.0f} instructions per game ({build} build, {path})")
    print(f"head / base: {per_game[1] / per_game[0]:.4f} over {args.games} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
