"""
``persian-rummy show POSITION``: a position given in position notation, printed with its rules and a
line that says how to read its cards.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .. import limits as _limits
from ..exceptions import InvalidNotationError
from ..notation import format_rules, parse_position
from ..pictures import card_legend, render_text, symbols_fit
from ..state import GameState
from ._files import read_input


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``show`` command's *parser* its argument.
    """
    parser.add_argument("position", metavar="POSITION", help="the position, one line; '-' reads it from stdin")


def _stdin_position() -> GameState:
    """
    The position written in position notation on standard input, surrounding whitespace aside.
    """
    data = read_input("-", _limits.MAX_NOTATION)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        msg = f"not UTF-8 text: {error.reason}"
        raise InvalidNotationError(msg) from None
    return parse_position(text.strip())


def show(state: GameState, out: TextIO | None = None, *, symbols: bool | None = None) -> None:
    """
    Print a position readably, as `persian_rummy.pictures.render_text` writes it, after its rules and before
    a line that says how to read the cards (`persian_rummy.pictures.card_legend`).

    The cards are written with their suit symbols if *symbols* is true, in card notation if it is
    false, and by default as `persian_rummy.pictures.symbols_fit` says of *out* (standard output by default).
    """
    out = sys.stdout if out is None else out
    symbols = symbols_fit(out) if symbols is None else symbols
    changes = format_rules(state.rules)
    print(f"Rules: {'Persian Rummy' if changes == '-' else changes}", file=out)
    print(render_text(state, symbols=symbols), file=out)
    print(card_legend(symbols=symbols), file=out)


def run(args: argparse.Namespace) -> int:
    """
    Run ``persian-rummy show`` as *args* says; the exit status.
    """
    show(_stdin_position() if args.position == "-" else parse_position(args.position.strip()))
    return 0
