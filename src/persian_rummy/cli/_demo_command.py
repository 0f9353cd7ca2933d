"""
``persian-rummy demo``: one game between four players who choose uniformly among their legal actions,
printed as it is played (`persian_rummy.cli._narration`); with ``--record FILE`` its record is written
to *FILE* as JSON, and with ``--record -`` to standard output instead of the game.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

from ..actions import Action
from ..engine import apply, legal_actions, random_deal
from ..pictures import symbols_fit
from ..records import GameRecord
from ..serialize import to_json
from ..state import GameState, Phase, new_game
from ._files import RecordFile
from ._narration import Narrator


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``demo`` command's *parser* its arguments.
    """
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the players' choices")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also write the game record to FILE as JSON; '-' writes it to stdout instead of the game",
    )


def _play(seed: int, out: TextIO | None, *, symbols: bool) -> tuple[GameState, list[Action]]:
    """
    Play the game of *seed*, printing it to *out* unless None; the final state and every action.
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
    state = new_game()
    narrator = None if out is None else Narrator(out, symbols=symbols)
    if narrator is not None:
        print(f"Persian Rummy, random players, seed {seed}", file=narrator.out)
        print("Seats N, E, S, W clockwise; N-S play against E-W.", file=narrator.out)
        narrator.explain()
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
        after = apply(state, action)
        if narrator is not None:
            narrator.step(state, action, after)
        actions.append(action)
        state = after
    if narrator is not None:
        narrator.finish(state)
    return state, actions


def demo(seed: int, out: TextIO | None = None, record: str | None = None, *, symbols: bool | None = None) -> GameState:
    """
    Play and print one game between random players (to *out*, standard output by default); return the final state.

    The game is printed with the cards' suit symbols if *symbols* is true, in card notation if it
    is false, and by default as `persian_rummy.pictures.symbols_fit` says of *out*.  With *record*, also
    write the game record to that file as JSON, a file that must be a regular file or not exist
    yet, in a writable directory: that is checked before the game is played, and the file is
    replaced whole once the record is written.  With ``"-"`` for *record*, write the record to
    *out* instead of the game.

    Raises:
        OSError: *record* cannot be written; the error's ``filename`` is *record*.
    """
    out = sys.stdout if out is None else out
    symbols = symbols_fit(out) if symbols is None else symbols
    file = None if record is None or record == "-" else RecordFile(record)
    try:
        state, actions = _play(seed, None if record == "-" else out, symbols=symbols)
    except BaseException:
        if file is not None:
            file.discard()
        raise
    if record is not None:
        game = GameRecord(rules=state.rules, actions=actions, event=f"persian-rummy demo, seed {seed}")
        text = to_json(game, pretty=True) + "\n"
        if file is None:
            out.write(text)
        else:
            file.write(text)
    return state


def run(args: argparse.Namespace) -> int:
    """
    Run ``persian-rummy demo`` as *args* says; the exit status.
    """
    demo(args.seed, record=args.record)
    return 0
