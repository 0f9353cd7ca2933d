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

Each subcommand is a module of its own (``_demo_command``, ``_match_command``, ...), which gives
the subcommand's parser its arguments (``configure``, where it has any) and runs it (``run``);
this module holds the parser and `main`.

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
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from .. import __version__
from ..exceptions import PersianRummyError
from . import (
    _demo_command,
    _files,
    _match_command,
    _play_command,
    _players_command,
    _replay_command,
    _serve_command,
    _show_command,
    _tournament_command,
)
from ._demo_command import demo
from ._narration import describe
from ._replay_command import replay_file
from ._show_command import show

__all__ = ["demo", "describe", "main", "replay_file", "show"]

#: The exit status of an interrupted command, as shells give it.
_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """
    The command line's parser, which escapes what it quotes of the arguments in its messages.
    """

    def error(self, message: str) -> NoReturn:
        super().error(_files.escaped(message))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="persian-rummy",
        description="Persian Rummy rules engine.",
        epilog="Files must be regular files; '-' in place of one reads standard input (with --record, writes"
        " the record to standard output instead of the game).  Exit status: 0 done, 1 input refused, 2 wrong"
        " command line, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    _demo_command.configure(commands.add_parser("demo", help="play one game between random players and print it"))
    _replay_command.configure(commands.add_parser("replay", help="print a recorded game (JSON) action by action"))
    _show_command.configure(commands.add_parser("show", help="print a position given in position notation"))
    _play_command.configure(commands.add_parser("play", help="play a game in the terminal against the bots"))
    _match_command.configure(commands.add_parser("match", help="play a match between two bots on duplicate deals"))
    commands.add_parser(
        "players",
        help="list the players the commands take: the ready ones and those installed packages register",
        description=_players_command.DESCRIPTION,
    )
    tournament = commands.add_parser(
        "tournament",
        help="play a round robin between bots on duplicate deals, with a cross table and ratings",
        description=_tournament_command.DESCRIPTION,
    )
    _tournament_command.configure(tournament)
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
        print(f"persian-rummy: {_files.escaped(message)}", file=sys.stderr)


def _input_label(args: argparse.Namespace) -> str | None:
    """
    How messages about the input of the command *args* name it; None for a position given as an argument.
    """
    if args.command == "replay":
        return _files.label(args.file)
    if args.command == "show" and args.position == "-":
        return _files.STDIN
    return None


def _play(args: argparse.Namespace) -> int:
    return _play_command.run(args, _files.RecordFile, _files.read_input)


def _match(args: argparse.Namespace) -> int:
    _match_command.run(args, _files.RecordFile)
    return 0


def _tournament(args: argparse.Namespace) -> int:
    _tournament_command.run(args, _files.RecordFile)
    return 0


def _serve(args: argparse.Namespace) -> int:
    _serve_command.run(args)
    return 0


#: What each subcommand runs, given the command line; its exit status.  A new subcommand adds its
#: parser in `_parser` and its function here.
_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "demo": _demo_command.run,
    "replay": _replay_command.run,
    "show": _show_command.run,
    "play": _play,
    "match": _match,
    "players": _players_command.run,
    "tournament": _tournament,
    "serve": _serve,
}


def _run(args: argparse.Namespace) -> int:
    """
    Run the command *args* asks for, and flush its output; the exit status.
    """
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed", _files.STDOUT)
    status = _COMMANDS[args.command](args)
    sys.stdout.flush()
    return status


def _file_label(error: OSError) -> str:
    """
    How a message names the file of *error*: standard output when it has none, and an empty path as such.
    """
    if error.filename is None:
        return _files.STDOUT
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
            print(_files.escaped(line), file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
