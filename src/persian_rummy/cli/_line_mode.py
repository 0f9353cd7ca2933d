"""
The line mode of ``persian-rummy play`` (``--plain``, and whenever standard input or output is
not a terminal): the screen printed as lines of text after each move, and the person's answers
read line by line, for pipes, scripts and screen readers.

At each of the person's decisions the screen (`persian_rummy.cli._screen`) shows what their seat
may see and the legal moves, numbered; the person answers with a number or with the move in
action notation.  A bad answer gets a line saying why and the question again.  In a terminal,
the answers are read with `readline` where Python has it: ← and → edit the line, ↑ and ↓ go
through the answers given before, and Tab completes a move's notation.

The game is played by `play_table`, which takes the screen's output and the person's answers as
functions, so that it runs the same under a test.
"""

from __future__ import annotations

import contextlib
import errno
import sys
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Literal

from .. import limits as _limits
from ..actions import PlayerAction
from . import _game, _screen

if TYPE_CHECKING:
    from rich.console import Console

#: Shows lines on the screen.
Show = Callable[[Sequence[_screen.Line]], None]
#: Asks the person, with a prompt; their answer, without its line end, or None at the end of input.
Ask = Callable[[str], "str | None"]
#: Offers the words a person may type next, for completion.
Offer = Callable[[Sequence[str]], None]
#: How a game played in the line mode ended: played out, stopped by ``quit`` or by the end of input.
Ending = Literal["over", "quit", "end"]
#: The longest answer read; a longer one is refused by the notation as too long.
LONGEST: Final = _limits.MAX_NOTATION + 1
#: The most characters of one line skipped after the longest answer: a longer line is not an answer at all.
SKIPPED: Final = 1_000_000
#: The most answers in a row that are not moves read from input that is not a terminal.
PATIENCE: Final = 100
_STDIN: Final = "<stdin>"


class _Lines:
    """
    One game in the line mode: a `persian_rummy.cli._game.Table` shown with *show* and answered with *ask*.
    """

    def __init__(self, table: _game.Table, show: Show, ask: Ask, offer: Offer | None, patience: int | None) -> None:
        self.table, self.show, self.ask, self.offer, self.patience = table, show, ask, offer, patience

    def play(self) -> Ending:
        table = self.table
        self.show(table.welcome())
        while not table.over:
            if table.persons_turn:
                move = self._choose()
                if isinstance(move, str):
                    self.show([()])
                    return move
                table.play(move)
            else:
                table.advance()
            stop = self._deal_over() if table.deal_over else None
            if stop is not None:
                self.show([()])
                return stop
        self.show([(), _screen.result_line(table.view())])
        return "over"

    def _deal_over(self) -> Literal["quit", "end"] | None:
        """
        Show how the deal ended; before another deal, wait for the person (None: they go on).
        """
        table = self.table
        self.show([(), *_screen.deal_over_screen(table.view(), table.look, table.news)])
        table.next_deal()
        if table.over:
            return None
        self.show([()])
        self._offer(["quit"])
        answer = self.ask(f"Press Enter for deal {table.state.deal + 1}: ")
        if answer is None:
            return "end"
        return "quit" if answer.strip().lower() in _game.QUIT else None

    def _offer(self, words: Sequence[str]) -> None:
        if self.offer is not None:
            self.offer(words)

    def _choose(self) -> PlayerAction | Literal["quit", "end"]:
        """
        Show the person the screen and ask until they give a legal move, or stop.
        """
        table = self.table
        moves = table.moves()
        self.show([(), *_screen.decision_screen(table.view(), table.look, table.news, table.turn, moves), ()])
        prompt = f"Your move ({_game.numbers(moves)} or notation, ? for help): "
        refused = 0
        while True:
            self._offer([*_game.notations(moves, table.state), _game.SORT, "help", "quit"])
            answer = self.ask(prompt)
            if answer is None:
                return "end"
            word = answer.strip().lower()
            if word in _game.QUIT:
                return "quit"
            if word in _game.HELP_WORDS:
                self.show([((line, ""),) for line in _game.help_lines(table.state.rules)])
            elif word == _game.SORT:
                table.sort()
                moves = table.moves()
                view = table.view()
                self.show([_screen.hand_line(view, table.look), *_screen.move_lines(moves, view, table.look)])
            else:
                move = _game.read_move(answer.strip(), table.state, moves, symbols=table.look.symbols)
                if not isinstance(move, str):
                    return move
                refused += 1
                if self.patience is not None and refused >= self.patience:
                    raise OSError(errno.EINVAL, f"{refused} answers in a row that are not moves", _STDIN)
                self.show([((move, _screen.EXPLANATION),)])


def play_table(
    table: _game.Table, show: Show, ask: Ask, offer: Offer | None = None, patience: int | None = None
) -> Ending:
    """
    Play *table*'s game to its end in the line mode, or until the person stops; how it ended.

    *offer* is given the words the person may type at each prompt (for completion); after
    *patience* answers in a row that are not moves the game stops with an `OSError`, for input
    that is not a person's.
    """
    return _Lines(table, show, ask, offer, patience).play()


# -- the terminal --------------------------------------------------------------------------------------------------


def printer(console: Console) -> Show:
    """
    Lines shown on *console*, styled.
    """
    from rich.text import Text  # noqa: PLC0415 (rich is optional: the cli extra)

    def show(lines: Sequence[_screen.Line]) -> None:
        for line in lines:
            console.print(Text.assemble(*line), soft_wrap=True)

    return show


def read_answer(stream: object) -> str | None:
    """
    One line from *stream*, without its line end; None at the end of input or when there is none.

    A line longer than any move is read only up to one character past the longest, and the rest
    of it skipped, so that a long line costs no more; a line of more than `SKIPPED` characters,
    such as an endless stream of NUL bytes, is no answer at all and stops the game.

    Raises:
        OSError: the line is longer than `SKIPPED` characters.
    """
    readline = getattr(stream, "readline", None)
    if readline is None or getattr(stream, "closed", True):
        return None
    line: str = readline(LONGEST)
    if not line:
        return None
    skipped = len(line)
    rest = line
    while not rest.endswith("\n") and len(rest) >= LONGEST:
        rest = readline(LONGEST)
        skipped += len(rest)
        if skipped > SKIPPED:
            raise OSError(errno.EFBIG, f"a line of more than {SKIPPED:,} characters is not an answer", _STDIN)
    return line.rstrip("\r\n")


class Prompter:
    """
    The person's answers from standard input: with `readline` (line editing, the answers given
    before on ↑ and ↓, Tab completing the words offered) when it is a terminal, else line by line.
    """

    def __init__(self, console: Console, *, interactive: bool) -> None:
        self.console = console
        self.words: list[str] = []
        self.readline: types.ModuleType | None = _readline() if interactive else None
        stream = sys.stdin
        if stream is not None and hasattr(stream, "reconfigure"):
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors="replace")
        if self.readline is not None:
            self.readline.set_completer(self._complete)
            self.readline.set_completer_delims("")
            self.readline.parse_and_bind("tab: complete")

    def offer(self, words: Sequence[str]) -> None:
        self.words = list(words)

    def _complete(self, text: str, state: int) -> str | None:
        found = [word for word in self.words if word.startswith(text.lstrip().lower())]
        return found[state] if state < len(found) else None

    def ask(self, prompt: str) -> str | None:
        if self.readline is None:
            self.console.print(prompt, style="bold", end="")
            self.console.file.flush()
            return read_answer(sys.stdin)
        try:
            answer = input(prompt)
        except EOFError:
            return None
        return answer[:LONGEST]


def _readline() -> types.ModuleType | None:
    try:
        import readline  # noqa: PLC0415 (not on every platform; imported for a terminal only)
    except ImportError:  # pragma: no cover (Python on Windows)
        return None
    return readline
