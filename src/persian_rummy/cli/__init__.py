"""
The ``persian-rummy`` command.

* ``persian-rummy --version`` prints the installed version of the package.
* ``persian-rummy demo --seed N [--record FILE]`` plays one complete game between four
  players who choose uniformly among their legal actions, and prints every action, the
  table at the end of each deal, each deal's score and the winner; with ``--record`` it
  also writes the game record as JSON, and with ``--record -`` it writes the record to
  standard output instead of the game.
* ``persian-rummy replay FILE`` prints a recorded game action by action, checking every
  action, with the scores.
* ``persian-rummy show POSITION`` prints a position written in position notation.
* ``persian-rummy play [--seat S] [--partner BOT] [--opponents BOT] [--seed N] [--rules RULES]
  [--record FILE] [--resume FILE] [--plain] [--delay SECONDS]`` lets a person play a game against the bots of
  `persian_rummy.bots.players`, full-screen in a terminal (Textual) or line by line (it needs
  rich and Textual, the ``cli`` extra): see `persian_rummy.cli._play_command`.
* ``persian-rummy match FIRST SECOND [--games N] [--jobs J] [--seed N] [--out FILE] [--records DIR]``
  plays a match of duplicate deals between two bots and prints its summary (it needs rich, the
  ``cli`` extra): see `persian_rummy.cli._match_command`.

``demo``, ``replay`` and ``show`` write positions as `persian_rummy.pictures.render_text` does, cards with
their suit symbols (``10♦``) where the output's encoding has them and in card notation (``Td``)
where it does not, and say once how to read them.

``-`` in place of a file or a position reads standard input.  Other files must be regular
files: a directory, a pipe or a device is refused (a pipe can be read as standard input).
Input is read no further than the longest text the package accepts, a byte past which it is
refused, so an endless stream is refused at once.  Everything echoed from the input, names
of files included, has its unprintable characters escaped (``\\x1b``, ``\\n``, ``\\u2028``), and
output never fails for an encoding that lacks a character.  Each command exits with status
0, with status 1 and one line on standard error naming the input when its input is refused,
with status 2 for a wrong command line and with status 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import random
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import BinaryIO, NoReturn, TextIO

from .._internal import limits as _limits
from .._internal import phase as _phase
from .._internal import version as _version
from ..actions import Action
from ..cards import Card
from ..cardsets import CardSet
from ..engine import apply, legal_actions, outcome, random_deal
from ..exceptions import InvalidNotationError, PersianRummyError
from ..notation import format_rules, parse_position
from ..pictures import card_legend, render_text, symbols_fit
from ..records import GameRecord, replay
from ..scoring import DealScore
from ..serialize import from_json, to_json
from ..state import GameState, Phase, new_game
from . import _match_command, _play_command, _serve_command

__all__ = ["demo", "describe", "main", "replay_file", "show"]

#: Seat names: North and South are partners against East and West.
_SEAT_NAMES = ("N", "E", "S", "W")
_TEAM_NAMES = ("N-S", "E-W")
#: How messages name standard input and standard output.
_STDIN = "<stdin>"
_STDOUT = "<stdout>"
#: Opened without blocking, a FIFO does not wait for a writer (Windows has neither the flag nor FIFOs).
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
#: The exit status of an interrupted command, as shells give it.
_INTERRUPTED = 130
#: The words of the game that the printed games use, explained once at their start.
_TERMS = (
    "Terms: the stock is the face-down pile the players draw from; the discard pile lies face up, started",
    "by the upcard, and a player may take any card of it with all the cards above, but must then play",
    "that card at once (R15); a meld is a set (3 or 4 cards of one rank) or a run (3 or more cards in",
    "sequence in one suit) laid down on the table; to lay off is to add cards to a meld on the table.",
)


class _Telling(dict[str, str]):
    """
    What the names in braces in an action's `phrase` stand for, worked out from the state as asked.
    """

    def __init__(self, state: GameState, action: Action, *, symbols: bool) -> None:
        super().__init__()
        self.state = state
        self.action = action
        self.symbols = symbols

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(card.symbol if self.symbols else str(card) for card in cards)

    def __missing__(self, name: str) -> str:
        action, state = self.action, self.state
        if name == "meld":
            index: int = getattr(action, "meld")  # noqa: B009 (the field the phrase names)
            return f"meld {index + 1} ({self.cards(state.melds[index].cards)})"
        if name == "above":
            pile = state.discard_pile
            above = len(pile) - 1 - pile.index(getattr(action, "card"))  # noqa: B009
            return f" and the {above} card{'s' if above > 1 else ''} above it" if above else ""
        value: object = getattr(action, name)
        if isinstance(value, Card):
            return self.cards((value,))
        return self.cards(value) if isinstance(value, CardSet) else str(value)


def describe(state: GameState, action: Action, *, symbols: bool = False) -> str:
    """
    One line saying what *action* does in *state*, in card notation, or with *symbols* with the
    cards' suit symbols (as `persian_rummy.pictures.render_text` writes them).

    >>> from persian_rummy import Discard, new_game
    >>> describe(new_game(), Discard(3, "Td")), describe(new_game(), Discard(3, "Td"), symbols=True)
    ('W discards Td', 'W discards 10♦')
    """
    telling = _Telling(state, action, symbols=symbols)
    return f"{_SEAT_NAMES[action.seat]} {action.phrase.format_map(telling)}"


def _print_score(result: DealScore, totals: tuple[int, int], out: TextIO) -> None:
    if result.went_out is not None:
        how = f"{_SEAT_NAMES[result.went_out]} went out"
    else:
        how = f"ended by {result.end.value.replace('_', ' ')}"
    print(f"Score of deal {result.deal} ({how}):", file=out)
    print(f"  {'team':<5} {'melded':>7} {'doubling':>9} {'bonus':>6} {'in hand':>8} {'total':>6}", file=out)
    for team, score in enumerate(result.teams):
        in_hand = None if score.in_hand is None else -score.in_hand
        melded, doubling, bonus, held = (
            "-" if item is None else str(item) for item in (score.melded, score.doubling, score.bonus, in_hand)
        )
        print(f"  {_TEAM_NAMES[team]:<5} {melded:>7} {doubling:>9} {bonus:>6} {held:>8} {score.total:>6}", file=out)
    print(f"  game totals: {_TEAM_NAMES[0]} {totals[0]}, {_TEAM_NAMES[1]} {totals[1]}", file=out)


class _Narrator:
    """
    Prints a game as it is played or replayed: how to read it, each deal, each action, the table
    at each deal's end with the deal's score, and the result.
    """

    def __init__(self, out: TextIO, *, symbols: bool) -> None:
        self.out = out
        self.symbols = symbols
        self.number = 0

    def explain(self) -> None:
        print(card_legend(symbols=self.symbols), file=self.out)
        for line in _TERMS:
            print(line, file=self.out)

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(card.symbol if self.symbols else str(card) for card in cards)

    def step(self, before: GameState, action: Action, after: GameState) -> None:
        out = self.out
        if before.is_chance_node:
            self.number = 0
            print(f"\nDeal {after.deal}, dealt by {_SEAT_NAMES[after.dealer]}", file=out)
            for seat, hand in enumerate(after.hands):
                print(f"  {_SEAT_NAMES[seat]} is dealt {self.cards(hand)}", file=out)
            print(f"  upcard {self.cards(after.discard_pile[-1:])}; stock {len(after.stock)} cards", file=out)
            return
        self.number += 1
        print(f"  {self.number:3}. {describe(before, action, symbols=self.symbols)}", file=out)
        if after.phase in _phase.OVER:
            print(file=out)
            print(render_text(after, symbols=self.symbols), file=out)
            _print_score(after.results[-1], after.scores, out)

    def finish(self, state: GameState) -> None:
        result = outcome(state)
        if result is None:
            print(f"\nThe game is not over: {_state_line(state)}.", file=self.out)
        elif result.winner is None:
            print(f"\nThe game is a draw, {result.scores[0]} all.", file=self.out)
        else:
            won, lost = result.scores[result.winner], result.scores[1 - result.winner]
            print(f"\n{_TEAM_NAMES[result.winner]} win, {won} to {lost}.", file=self.out)


def _state_line(state: GameState) -> str:
    who = "" if state.to_act is None else f", {_SEAT_NAMES[state.to_act]} to act"
    return f"deal {state.deal}, phase {state.phase.value.replace('_', ' ')}{who}"


def _escaped(text: str) -> str:
    r"""
    *text* with every character that is not printable written as its Python escape: controls
    (``\x1b``, ``\n``, ``\x9b``, ``\x7f``), line and paragraph separators (``\u2028``), format
    characters such as bidirectional overrides (``\u202e``), and the ``\udcff`` of a file name
    that is not UTF-8.  What the command echoes from its input then stays on its line and
    sends the terminal nothing to act on.  Backslashes are left as they are.

    >>> print(_escaped("Zoë\x1b[31m\na\u2028"))
    Zoë\x1b[31m\na\u2028
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _label(name: str) -> str:
    """
    How messages name the file *name*: ``<stdin>`` for ``-``.
    """
    return _STDIN if name == "-" else name


def _read_stdin(size: int) -> bytes:
    stream = sys.stdin
    if stream is None or stream.closed:
        raise OSError(errno.EBADF, "standard input is closed")
    binary: BinaryIO | None = getattr(stream, "buffer", None)
    if binary is None:  # a text stream put in place of standard input
        return stream.read(size).encode("utf-8", "surrogatepass")
    return binary.read(size)


def _read_file(path: str, size: int) -> bytes:
    descriptor = os.open(path, _READ_FLAGS)
    with os.fdopen(descriptor, "rb") as file:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe or a device can be read as standard input, with -)")
        return file.read(size)


def _read_input(name: str, limit: int) -> bytes:
    """
    The content of the file *name*, or of standard input for ``-``, if it is no longer than *limit*
    bytes: reading stops at the byte after, so an endless input costs no more.

    Raises:
        OSError: the input cannot be read, is not a regular file or is too long; the error's
            ``filename`` is the input's label.
    """
    try:
        data = _read_stdin(limit + 1) if name == "-" else _read_file(name, limit + 1)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), _label(name)) from None
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"too long: more than {limit:,} bytes", _label(name))
    return data


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _target(path: str) -> tuple[Path, int]:
    """
    The file to write for *path* (through a symbolic link, the file it points to) and its mode.

    Raises:
        OSError: *path* is a directory, another file that is not a regular file, or not writable.
    """
    target = Path(path).resolve()
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target, 0o666 & ~_umask()
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (to write the record to standard output, use -)")
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    return target, stat.S_IMODE(mode)


class _RecordFile:
    """
    Where ``demo --record FILE`` writes: a new file beside *FILE*, made before the game is played, so
    that a path that cannot be written is refused at once, and renamed to *FILE* once the record is
    written, so that *FILE* never holds part of a record.  Errors name *FILE*.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        if not path:
            raise OSError(errno.ENOENT, "an empty path names no file", path)
        try:
            self.target, self.mode = _target(path)
            handle, name = tempfile.mkstemp(prefix=".persian-rummy-", suffix=".tmp", dir=self.target.parent)
        except OSError as error:
            raise OSError(error.errno, error.strerror or str(error), path) from None
        os.close(handle)
        self.temporary = Path(name)

    def write(self, text: str) -> None:
        try:
            self.temporary.write_text(text, encoding="utf-8")
            self.temporary.chmod(self.mode)
            self.temporary.replace(self.target)
        except OSError as error:
            self.discard()
            raise OSError(error.errno, error.strerror or str(error), self.path) from None

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.temporary.unlink(missing_ok=True)


def _play(seed: int, out: TextIO | None, *, symbols: bool) -> tuple[GameState, list[Action]]:
    """
    Play the game of *seed*, printing it to *out* unless None; the final state and every action.
    """
    rng = random.Random(seed)
    state = new_game()
    narrator = None if out is None else _Narrator(out, symbols=symbols)
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
    file = None if record is None or record == "-" else _RecordFile(record)
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
    record = from_json(_read_input(path, _limits.MAX_JSON), GameRecord)
    print(f"Persian Rummy, game record {_escaped(_label(path))}", file=out)
    if record.players is not None:
        names = ", ".join(f"{_SEAT_NAMES[seat]} {_escaped(name)}" for seat, name in enumerate(record.players))
        print(f"Players: {names}", file=out)
    for label, value in (("Event", record.event), ("Date", record.date)):
        if value is not None:
            print(f"{label}: {_escaped(value)}", file=out)
    changes = format_rules(record.rules)
    print(f"Rules: {'Persian Rummy' if changes == '-' else changes}", file=out)
    narrator = _Narrator(out, symbols=symbols)
    narrator.explain()
    states = replay(record)
    state = next(states)
    for action, after in zip(record.actions, states, strict=False):
        narrator.step(state, action, after)
        state = after
    narrator.finish(state)
    return state


def _stdin_position() -> GameState:
    """
    The position written in position notation on standard input, surrounding whitespace aside.
    """
    data = _read_input("-", _limits.MAX_NOTATION)
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


class _Parser(argparse.ArgumentParser):
    """
    The command line's parser, which escapes what it quotes of the arguments in its messages.
    """

    def error(self, message: str) -> NoReturn:
        super().error(_escaped(message))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="persian-rummy",
        description="Persian Rummy rules engine.",
        epilog="Files must be regular files; '-' in place of one reads standard input (with --record, writes"
        " the record to standard output instead of the game).  Exit status: 0 done, 1 input refused, 2 wrong"
        " command line, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version.VERSION}")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("demo", help="play one game between random players and print it")
    play.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the players' choices")
    play.add_argument(
        "--record",
        metavar="FILE",
        help="also write the game record to FILE as JSON; '-' writes it to stdout instead of the game",
    )
    again = commands.add_parser("replay", help="print a recorded game (JSON) action by action")
    again.add_argument("file", metavar="FILE", help="the game record, a regular file; '-' reads it from stdin")
    position = commands.add_parser("show", help="print a position given in position notation")
    position.add_argument("position", metavar="POSITION", help="the position, one line; '-' reads it from stdin")
    _play_command.configure(commands.add_parser("play", help="play a game in the terminal against the bots"))
    _match_command.configure(commands.add_parser("match", help="play a match between two bots on duplicate deals"))
    _match_command.configure_others(commands)  # players, tournament
    _serve_command.configure(commands.add_parser("serve", help="serve tables where people play in their browsers"))
    return parser


def _tolerant_output() -> None:
    """
    Let standard output and standard error write every character, whatever their encoding: one
    the encoding lacks is written as an escape (``\\xe9`` for é in ASCII) instead of failing.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors="backslashreplace")


def _discard_output() -> None:
    """
    Send what standard output still holds, and will be given, nowhere: once writing it has failed,
    as when its reader has gone, the last flush at exit must not fail again.
    """
    with contextlib.suppress(OSError, ValueError, AttributeError):
        target = sys.stdout.fileno()
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, target)
        os.close(nowhere)


def _complain(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"persian-rummy: {_escaped(message)}", file=sys.stderr)


def _input_label(args: argparse.Namespace) -> str | None:
    """
    How messages about the input of the command *args* name it; None for a position given as an argument.
    """
    if args.command == "replay":
        return _label(args.file)
    if args.command == "show" and args.position == "-":
        return _STDIN
    return None


def _demo(args: argparse.Namespace) -> int:
    demo(args.seed, record=args.record)
    return 0


def _replay(args: argparse.Namespace) -> int:
    replay_file(args.file)
    return 0


def _show(args: argparse.Namespace) -> int:
    show(_stdin_position() if args.position == "-" else parse_position(args.position.strip()))
    return 0


def _play_game(args: argparse.Namespace) -> int:
    return _play_command.run(args, _RecordFile, _read_input)


def _serve(args: argparse.Namespace) -> int:
    _serve_command.run(args)
    return 0


def _match_commands(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        _match_command.COMMANDS[name](args, _RecordFile)
        return 0

    return run


#: What each subcommand runs, given the command line; its exit status.  A new subcommand adds its
#: parser in `_parser` and its function here.
_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "demo": _demo,
    "replay": _replay,
    "show": _show,
    "play": _play_game,
    **{name: _match_commands(name) for name in _match_command.COMMANDS},  # match, players, tournament
    "serve": _serve,
}


def _run(args: argparse.Namespace) -> int:
    """
    Run the command *args* asks for, and flush its output; the exit status.
    """
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed", _STDOUT)
    status = _COMMANDS[args.command](args)
    sys.stdout.flush()
    return status


def _file_label(error: OSError) -> str:
    """
    How a message names the file of *error*: standard output when it has none, and an empty path as such.
    """
    if error.filename is None:
        return _STDOUT
    return str(error.filename) or "'' (an empty path)"


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the command line; return the exit status: 0 on success, 1 when the input is refused, 130
    when interrupted (a wrong command line exits with status 2).
    """
    label = None
    status = 0
    try:
        _tolerant_output()
        args = _parser().parse_args(argv)
        label = _input_label(args)
        status = _run(args)
    except KeyboardInterrupt:
        return _INTERRUPTED
    except BrokenPipeError:  # the reader stopped early, as ``| head`` does
        _discard_output()
    except OSError as error:
        if error.filename is None:  # writing standard output failed
            _discard_output()
        _complain(f"{_file_label(error)}: {error.strerror or error}")
        return 1
    except PersianRummyError as error:
        _complain(str(error) if label is None else f"{label}: {error}")
        _traceback(error)
        return 1
    return status


def _traceback(error: PersianRummyError) -> None:
    """
    Print the traceback a player's error carries (`persian_rummy.exceptions.PlayerError`), line by
    line, its unprintable characters escaped but its lines kept.
    """
    text = getattr(error, "traceback", "")
    if not isinstance(text, str) or not text:
        return
    with contextlib.suppress(OSError, ValueError):
        print("the player's traceback:", file=sys.stderr)
        for line in text.rstrip("\n").split("\n"):
            print(_escaped(line), file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
