"""
``persian-rummy replay FILE``: a recorded game printed action by action, as ``demo`` prints a game,
every action checked, with the scores.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .. import limits as _limits
from ..notation import format_rules
from ..pictures import symbols_fit
from ..records import GameRecord, replay
from ..serialize import from_json
from ..state import GameState
from . import _files
from ._narration import SEAT_NAMES, Narrator


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``replay`` command's *parser* its argument.
    """
    parser.add_argument("file", metavar="FILE", help="the game record, a regular file; '-' reads it from stdin")


def replay_file(path: str, out: TextIO | None = None, *, symbols: bool | None = None) -> GameState:
    """
    Print the game recorded in the JSON file *path* (``"-"``: standard input), action by action,
    with the scores; return the last state.  The names, the event and the date are printed with
    their unprintable characters escaped; the cards as `demo` prints them.

    Raises:
        OSError: the file cannot be read, is not a regular file or is too long; the error's
            ``filename`` names it.
        InvalidDataError: the file is not a game record.
        InvalidRecordError: an action of the record is illegal.
    """
    out = sys.stdout if out is None else out
    symbols = symbols_fit(out) if symbols is None else symbols
    record = from_json(_files.read_input(path, _limits.MAX_JSON), GameRecord)
    print(f"Persian Rummy, game record {_files.escaped(_files.label(path))}", file=out)
    if record.players is not None:
        names = ", ".join(f"{SEAT_NAMES[seat]} {_files.escaped(name)}" for seat, name in enumerate(record.players))
        print(f"Players: {names}", file=out)
    for label, value in (("Event", record.event), ("Date", record.date)):
        if value is not None:
            print(f"{label}: {_files.escaped(value)}", file=out)
    changes = format_rules(record.rules)
    print(f"Rules: {'Persian Rummy' if changes == '-' else changes}", file=out)
    narrator = Narrator(out, symbols=symbols)
    narrator.explain()
    states = replay(record)
    state = next(states)
    for action, after in zip(record.actions, states, strict=False):
        narrator.step(state, action, after)
        state = after
    narrator.finish(state)
    return state


def run(args: argparse.Namespace) -> int:
    """
    Run ``persian-rummy replay`` as *args* says; the exit status.
    """
    replay_file(args.file)
    return 0
