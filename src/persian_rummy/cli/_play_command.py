"""
``persian-rummy play``: a person plays a whole game in the terminal against three bots.

The person takes one seat (South by default); the bots of `persian_rummy.bots.players` take the
others, their partner and their opponents.  In a terminal the game is full-screen
(`persian_rummy.cli._tui`, with Textual, the ``cli`` extra): the table, the hand as cards, the
pile, the scores, what the others just did and the legal moves, played with the keyboard or the
mouse.  With ``--plain``, or when standard input or output is not a terminal, it is the line
mode of `persian_rummy.cli._line_mode`, for pipes, scripts and screen readers.  Both play the
game of `persian_rummy.cli._game.Table`.

With ``--record FILE`` the record of the game is written to *FILE* when it ends or the person
stops it (not when interrupted); ``--resume FILE`` plays on from such a record.  The command
exits with status 0 when the game is played out or the person quits, 1 when the input ends
first, and 2 for a wrong command line, a budget above `MAX_SECONDS` or `MAX_COUNT` included.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from .. import limits as _limits
from ..actions import Action
from ..bots.players import MAX_BUDGET_COUNT, MAX_BUDGET_SECONDS, PLAYER_NAMES, make_player
from ..exceptions import InvalidValueError, PersianRummyError
from ..notation import SEAT_LETTERS, parse_rules
from ..pictures import symbols_fit
from ..records import GameRecord
from ..rules import Rules
from ..serialize import from_json, to_json
from ..state import GameState
from . import _game, _line_mode, _screen

if TYPE_CHECKING:
    from rich.console import Console

#: The names the tests and the other modules of the command take from here.
Options = _game.Options
DEFAULT_BOT: Final = _game.DEFAULT_BOT
PERSON: Final = _game.PERSON
HELP: Final = _game.HELP
read_move = _game.read_move
read_answer = _line_mode.read_answer
#: The line printed, with exit status 1, when rich is missing.
NEEDS_RICH: Final = "persian-rummy: play needs rich, which is not installed: pip install 'persian-rummy[cli]'"
#: The line printed when Textual is missing, before the game is played in the line mode.
NEEDS_TEXTUAL: Final = (
    "persian-rummy: the full-screen game needs textual, which is not installed: pip install 'persian-rummy[cli]';"
    " playing in the line mode"
)
#: The longest a bot may think per decision, in seconds, and the most rollouts or iterations it may take:
#: a person waits for every decision, and a larger budget would never end.
MAX_SECONDS: Final = MAX_BUDGET_SECONDS
MAX_COUNT: Final = MAX_BUDGET_COUNT
#: The bots' pause before each of their actions in the full screen, in seconds, by default, and at most.
DEFAULT_DELAY: Final = 0.4
_MOST_DELAY: Final = 10.0
#: How the screen shows cards unless told otherwise.
_LOOK: Final = _screen.Look()


class RecordFile(Protocol):
    """
    Where ``--record FILE`` writes, opened before the game (``persian_rummy.cli`` makes it).
    """

    def write(self, text: str) -> None:
        """
        Write the record whole, replacing *FILE*.
        """

    def discard(self) -> None:
        """
        Give up: leave *FILE* as it was.
        """


#: Reads a file whole, at most so many bytes (``persian_rummy.cli`` gives it).
ReadFile = Callable[[str, int], bytes]


def seat_argument(text: str) -> int:
    """
    A seat as the command line gives it: its letter (``N E S W``, either case) or its number 0-3.

    >>> seat_argument("s"), seat_argument("3")
    (2, 3)
    """
    word = text.strip().upper()
    if len(word) == 1 and word in SEAT_LETTERS:
        return SEAT_LETTERS.index(word)
    if word in {"0", "1", "2", "3"}:
        return int(word)
    msg = f"not a seat: {_limits.shown(text)} (expected N, E, S, W or 0-3)"
    raise argparse.ArgumentTypeError(msg)


def bot_argument(text: str) -> str:
    """
    A bot as the command line names it, for `persian_rummy.bots.players.make_player`, checked,
    with a budget of at most `MAX_SECONDS` seconds or `MAX_COUNT` rollouts or iterations.

    >>> bot_argument("pimc:200")
    'pimc:200'
    >>> bot_argument("pimc:1e9s")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a budget of at most 60 seconds or 100,000 per decision, got 'pimc:1e9s'
    """
    try:
        player = make_player(text)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    seconds = getattr(player, "seconds", None)
    count = max(getattr(player, "rollouts", 0), getattr(player, "iterations", 0))
    if (seconds is not None and seconds > MAX_SECONDS) or count > MAX_COUNT:
        msg = f"a budget of at most {MAX_SECONDS:g} seconds or {MAX_COUNT:,} per decision, got {_limits.shown(text)}"
        raise argparse.ArgumentTypeError(msg)
    return text


def record_argument(text: str) -> str:
    """
    The file ``--record`` names: any but ``-``, since the screen is on standard output, and the empty path.
    """
    if text == "-":
        msg = "the game is shown on standard output: give a file to write the record to"
        raise argparse.ArgumentTypeError(msg)
    return resume_argument(text)


def resume_argument(text: str) -> str:
    """
    A file named on the command line: any path but the empty one, which names no file.
    """
    if not text:
        msg = "'' is an empty path, which names no file"
        raise argparse.ArgumentTypeError(msg)
    return text


def rules_argument(text: str) -> Rules:
    """
    The rules of ``--rules``, in the notation of `persian_rummy.notation.parse_rules`.

    >>> rules_argument("rummy_calls=true").rummy_calls
    True
    """
    try:
        return parse_rules(text)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def delay_argument(text: str) -> float:
    """
    The bots' pause ``--delay`` gives, in seconds: from 0 to 10.

    >>> delay_argument("0.5"), delay_argument("0")
    (0.5, 0.0)
    """
    try:
        delay = float(text)
    except ValueError:
        delay = -1.0
    if 0 <= delay <= _MOST_DELAY:
        return delay
    msg = f"not a pause in seconds from 0 to {_MOST_DELAY:g}: {_limits.shown(text)}"
    raise argparse.ArgumentTypeError(msg)


_RULES_HELP: Final = (
    'the rules in notation, the default rules but for the switches named: "rummy_calls=true" plays the calls'
    ' of "Rummy!" (A24); "-" is the default rules'
)


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``play`` command's *parser* its options.
    """
    parser.description = (
        "Play a game of Persian Rummy in the terminal against the bots: full-screen in a terminal, line by line"
        " with --plain or when input or output is not a terminal (? shows the help in both)."
    )
    bots = ", ".join(sorted(PLAYER_NAMES))
    parser.add_argument(
        "--seat", type=seat_argument, default=2, metavar="S", help="your seat: N, E, S or W, or 0-3 (default S)"
    )
    for option, whose in (("--partner", "your partner's"), ("--opponents", "the opponents'")):
        parser.add_argument(
            option,
            type=bot_argument,
            default=DEFAULT_BOT,
            metavar="BOT",
            help=f"{whose} bot: {bots}, a search with a budget of at most {MAX_SECONDS:g}s or {MAX_COUNT:,}"
            f" (default {DEFAULT_BOT})",
        )
    parser.add_argument(
        "--seed", type=int, metavar="N", help="seed of the deals and the bots (default: a new one, shown)"
    )
    parser.add_argument("--rules", type=rules_argument, metavar="RULES", help=_RULES_HELP)
    parser.add_argument("--sort", choices=("suit", "rank"), default="suit", help="how your hand is sorted")
    parser.add_argument(
        "--record", type=record_argument, metavar="FILE", help="write the record of the game to FILE as JSON at its end"
    )
    parser.add_argument(
        "--resume",
        type=resume_argument,
        metavar="FILE",
        help="play on from the record in FILE of a game stopped before its end (and record to FILE)",
    )
    parser.add_argument("--plain", action="store_true", help="the line mode, for pipes and screen readers")
    parser.add_argument(
        "--delay",
        type=delay_argument,
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"the full screen's pause before each bot's action (default {DEFAULT_DELAY:g})",
    )


def play(options: Options, show: _line_mode.Show, ask: _line_mode.Ask) -> tuple[GameState, tuple[Action, ...], bool]:
    """
    Play a game in the line mode for a person at *options.seat*: the last state, every action,
    and whether the game was played out.
    """
    table = _game.Table(options)
    ending = _line_mode.play_table(table, show, ask)
    return table.state, tuple(table.actions), ending == "over"


# -- the terminal --------------------------------------------------------------------------------------------------


def _console() -> Console:
    """
    A rich console on standard output; without rich, the line saying how to install it, and exit status 1.
    """
    try:
        from rich.console import Console  # noqa: PLC0415 (rich is optional: the cli extra)
    except ImportError:
        sys.stderr.write(NEEDS_RICH + "\n")
        raise SystemExit(1) from None
    return Console(highlight=False, markup=False, emoji=False)


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):
        return False


def _full_screen(args: argparse.Namespace) -> types.ModuleType | None:
    """
    The full screen's module, unless the line mode is asked for or needed (input or output not a terminal).
    """
    if args.plain or not (_is_terminal(sys.stdin) and _is_terminal(sys.stdout)):
        return None
    try:
        from . import _tui  # noqa: PLC0415 (textual is optional: without it, the line mode)
    except ImportError:
        sys.stderr.write(NEEDS_TEXTUAL + "\n")
        return None
    return _tui


def _resumed(path: str, read_file: ReadFile) -> tuple[GameRecord, int, str, str]:
    """
    The record of the game to play on from, the person's seat and the bots of their partner and opponents.
    """
    record = from_json(read_file(path, _limits.MAX_JSON), GameRecord)
    players = record.players
    if players is None or players.count(PERSON) != 1 or record.first_dealer:
        msg = f"{_limits.shown(path)} is not the record of a game of persian-rummy play"
        raise InvalidValueError(msg)
    seat = players.index(PERSON)
    return record, seat, players[(seat + 2) % 4], players[(seat + 1) % 4]


def options_of(args: argparse.Namespace, console_width: int, out: object) -> Options:
    """
    The options the command line *args* gives, a seed drawn when it gives none; cards with their
    symbols where the output *out* can show them (`persian_rummy.pictures.symbols_fit`).
    """
    seed = random.SystemRandom().randrange(1_000_000) if args.seed is None else args.seed
    look = _screen.Look(symbols=symbols_fit(out), by_rank=args.sort == "rank", width=console_width)
    rules = Options().rules if args.rules is None else args.rules
    return Options(args.seat, args.partner, args.opponents, seed, look, rules)


def _table(args: argparse.Namespace, console: Console, read_file: ReadFile) -> _game.Table:
    options = options_of(args, console.width, sys.stdout)
    if args.resume is None:
        return _game.Table(options)
    if args.rules is not None:
        msg = "--rules: a game played on with --resume keeps the rules of its record"
        raise InvalidValueError(msg)
    record, seat, partner, opponents = _resumed(args.resume, read_file)
    seed = _game.seed_of(record)
    options = Options(seat, partner, opponents, options.seed if seed is None else seed, options.look, record.rules)
    table = _game.Table(options, record.actions)
    if table.over:
        msg = f"the game of {_limits.shown(args.resume)} is over: there is nothing to play on"
        raise InvalidValueError(msg)
    return table


def _farewell(ending: str, table: _game.Table, path: str | None) -> int:
    """
    Say how to play on from a game the person stopped, or the input ended; the exit status.
    """
    if ending == "over":
        return 0
    where = f"deal {table.state.deal}, after {len(table.actions)} actions"
    if path is None:
        how = "with --record FILE, the record so far is written to FILE, and play --resume FILE plays on from it"
    else:
        shown = shlex.quote(path) if path.isprintable() else _limits.shown(path)
        how = f"the record so far is in {shown}: persian-rummy play --resume {shown} plays on from there"
    if ending == "quit":
        sys.stdout.write(f"You stopped the game in {where}; {how}.\n")
        return 0
    sys.stderr.write(f"persian-rummy: end of input: the game stopped in {where}; {how}.\n")
    return 1


def final_lines(table: _game.Table) -> list[_screen.Line]:
    """
    What stays on the terminal when the full screen of a game played out closes: every deal's
    score, item by item, then the winner (R28).
    """
    view = table.view()
    lines: list[_screen.Line] = []
    for deals in range(1, len(view.results) + 1):
        lines += [*_screen.score_lines(view, deals), ()]
    return [*lines, _screen.result_line(view)]


def _play(table: _game.Table, args: argparse.Namespace, console: Console) -> str:
    full = _full_screen(args)
    if full is not None:
        recorded = args.record is not None or args.resume is not None
        ending: str = full.play(table, delay=args.delay, recorded=recorded)
        if ending == "over":
            _line_mode.printer(console)(final_lines(table))
        return ending
    interactive = _is_terminal(sys.stdin) and _is_terminal(sys.stdout)
    prompter = _line_mode.Prompter(console, interactive=interactive)
    show = _line_mode.printer(console)
    patience = None if interactive else _line_mode.PATIENCE
    return _line_mode.play_table(table, show, prompter.ask, prompter.offer, patience)


def run(args: argparse.Namespace, open_record: Callable[[str], RecordFile], read_file: ReadFile) -> int:
    """
    Run ``persian-rummy play`` as *args* says, and return its exit status; *open_record* opens
    the ``--record`` file, before the game, and *read_file* reads the ``--resume`` file.  When a
    game played in a terminal (on the full screen or line by line) is over, the person is offered
    another, with new deals (and not recorded); a game whose answers come from a pipe is not.
    """
    console = _console()
    while True:
        status, over = _run_game(args, console, open_record, read_file)
        if not (over and _is_terminal(sys.stdin) and _is_terminal(sys.stdout) and _again(args)):
            return status
        args = argparse.Namespace(**{**vars(args), "seed": None, "record": None, "resume": None})


def _again(args: argparse.Namespace) -> bool:
    """
    Whether the person wants another game, asked once the full screen has closed.
    """
    recorded = args.record is not None or args.resume is not None
    sys.stdout.write(f"Play again, with new deals{' (not recorded)' if recorded else ''}? [y/N] ")
    sys.stdout.flush()
    answer = _line_mode.read_answer(sys.stdin)
    return answer is not None and answer.strip().lower() in {"y", "yes"}


def _run_game(
    args: argparse.Namespace, console: Console, open_record: Callable[[str], RecordFile], read_file: ReadFile
) -> tuple[int, bool]:
    """
    One game as *args* says: its exit status, and whether it was played out.
    """
    table = _table(args, console, read_file)
    path = args.record if args.record is not None else args.resume
    record = None if path is None else open_record(path)
    try:
        ending = _play(table, args, console)
    except KeyboardInterrupt:
        sys.stdout.write("\n")  # the shell's prompt on a line of its own after ^C
        if record is not None:
            record.discard()
        raise
    except OSError:  # the input is refused: the game so far is kept
        if record is not None:
            record.write(to_json(table.record(), pretty=True) + "\n")
        raise
    except BaseException:
        if record is not None:
            record.discard()
        raise
    if record is not None:
        record.write(to_json(table.record(), pretty=True) + "\n")
    return _farewell(ending, table, path), ending == "over"
