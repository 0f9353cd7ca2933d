"""
The load of ``nox -s tests-loaded``: the brute force of tests/test_bruteforce.py on random games, until stopped.

``python -m tests.bruteforce_load SEED COUNTS`` checks games as ``nox -s brute-force`` does (corner
playouts under random rule switches, wild jokers off; in every state each action that could be written is
tried with `apply` and compared with `legal_actions`), batch after batch from the seed *SEED*, until it is
sent SIGTERM, and exits 0.  After each batch, and when stopped, it writes what it has checked to the file
*COUNTS*, one JSON object.  A
disagreement stops it at once with Hypothesis' report of the game and exit status 1.  The session runs one
such process per core beside the tests (one on continuous integration, whose other sessions keep the other
core busy): the machine is as busy as a laptop doing other work, and the work is a check too.  The seed
the session prints repeats a run's games.

``PERSIAN_RUMMY_LOAD_RULES``, rules ids parted by ``;`` (``-;jokers_wild=true``), names the switches its
batches fix in turn (as ``PERSIAN_RUMMY_BRUTE_FORCE_RULES`` fixes them for tests/test_bruteforce.py, which
it defaults to): one process then checks both kinds of game.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path
from types import FrameType

import hypothesis
from hypothesis import HealthCheck, given, settings

from tests.strategies import Playout, corner_playouts, rules_variants
from tests.test_bruteforce import FIXED_TEXT, MAX_ACTIONS, check_state, fixed, summary_line, switches

#: The games of one batch, each batch seeded from the one before.
BATCH = 5
#: The rules ids whose switches the batches fix in turn.
RULES = tuple(os.environ.get("PERSIAN_RUMMY_LOAD_RULES", FIXED_TEXT).split(";"))


class Stopped(BaseException):
    """
    SIGTERM arrived: the checks stop at the next state (the game under way is counted as far as it went).
    """


#: Set by SIGTERM; the checks look at it before each state.  (Raising in the handler itself could cut
#: Hypothesis short anywhere in its own code, and its error would then hide the stop.)
STOP = threading.Event()


def _stop(_signum: int, _frame: FrameType | None) -> None:
    STOP.set()


def check_games(seed: int, counts: Counter[str], rules: str = FIXED_TEXT) -> None:
    """
    Check `BATCH` games drawn from *seed* whose rules keep the switches of the rules id *rules*, adding
    what was checked to *counts*.
    """
    kept = functools.partial(fixed, kept=switches(rules))

    @hypothesis.seed(seed)
    @settings(
        max_examples=BATCH,
        database=None,
        deadline=None,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(corner_playouts(rules=rules_variants().map(kept), max_actions=MAX_ACTIONS))
    def check_game(playout: Playout) -> None:
        counts["games"] += 1
        for state in playout.states:
            if STOP.is_set():
                raise Stopped
            check_state(state, counts)

    check_game()


def write(counts: Counter[str], path: Path) -> None:
    """
    Write *counts* to *path* as one JSON object, whole or not at all (a reader never sees half of it).
    """
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(counts), encoding="utf-8")
    part.replace(path)


def main(seed: int, path: Path) -> int:
    """
    Check batches of games from *seed* until SIGTERM, writing the counts to *path*: the exit status.
    """
    counts: Counter[str] = Counter()
    signal.signal(signal.SIGTERM, _stop)
    batch = seed
    try:
        while not STOP.is_set():
            check_games(batch, counts, RULES[(batch - seed) % len(RULES)])
            write(counts, path)
            batch += 1
    except Stopped:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM does not cut the last count short
    write(counts, path)
    sys.stdout.write(f"{summary_line(counts, RULES)} (seed {seed})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), Path(sys.argv[2])))
