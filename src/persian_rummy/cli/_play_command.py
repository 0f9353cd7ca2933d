"""
``persian-rummy play``: a person plays a whole game in the terminal against three bots.

The person takes one seat (South by default); the bots of `persian_rummy.bots.players` take the
others, their partner and their opponents.  At each of the person's decisions the screen
(`persian_rummy.cli._screen`) shows what that seat may see, `observe` giving its view, and the
legal moves of that view, numbered; the person answers with a number or with the move in
action notation (``discard Qh``; card symbols are read too).  A bad answer gets a line
saying why and the question again.  The end of a deal shows its score, the end of the game
the winner.  End of input, or ``quit``, stops the game quietly.

The deals come from a ``random.Random`` seeded with the seed, and each bot has its own,
seeded from the seed and its seat, so a seed and the person's moves give the same game again.

The command needs ``rich`` (the ``cli`` extra) for its colours; `run` says how to install it
when it is missing.  The game itself is played by `play`, which takes the screen's output and
the person's answers as functions, so that it runs the same under a test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from attrs import evolve, frozen

from .._core import limits as _limits
from ..actions import Action, PlayerAction
from ..bots.players import PLAYER_NAMES, Player, make_player
from ..engine import apply, is_deal_over, legal_actions, random_deal
from ..exceptions import IllegalActionError, PersianRummyError
from ..notation import SEAT_LETTERS, parse_action
from ..records import GameRecord
from ..serialize import to_json
from ..state import GameState, Phase, View, new_game
from ..views import observe
from . import _screen

if TYPE_CHECKING:
    from rich.console import Console

#: The bots in the order they are preferred as the default: the strongest that plays quickly first.
_PREFERRED: Final = ("greedy", "random")
#: The bot the command seats by default.
DEFAULT_BOT: Final = next((name for name in _PREFERRED if name in PLAYER_NAMES), min(PLAYER_NAMES))
#: The person's name in the game record.
PERSON: Final = "person"
#: The line printed, with exit status 1, when rich is missing.
NEEDS_RICH: Final = "persian-rummy: play needs rich, which is not installed: pip install 'persian-rummy[cli]'"
#: The longest answer read; a longer one is refused by the notation as too long.
_LONGEST: Final = _limits.MAX_NOTATION + 1
#: What the card symbols stand for in notation, for answers typed with them (``Q♥``).
_SYMBOLS_AS_LETTERS: Final = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "🃏": "X", "\ufe0f": None})
#: A seat named by its number in the engine's messages, which the screen names by its letter.
_SEAT_NUMBER: Final = re.compile(r"\bseat ([0-3])\b")
#: How the screen shows cards unless told otherwise.
_LOOK: Final = _screen.Look()
_QUIT: Final = frozenset({"quit", "q", "exit"})
_HELP: Final = frozenset({"?", "help", "h"})
_SORT: Final = "sort"
HELP: Final = (
    "Type a move's number, or the move in action notation: draw, take 9c,",
    "meld 9d9h9s, lay 5c6c on 7c, discard Qh, pass.  A card is its rank",
    "(2-9, T or 10, J, Q, K, A) and its suit (c d h s, or ♣ ♦ ♥ ♠); the jokers",
    "are X1-X4.  A lay-off names its meld by any card of it.",
    "Also: sort (your hand by rank, or by suit again), ? (this help), quit.",
)

#: Shows lines on the screen.
Show = Callable[[Sequence[_screen.Line]], None]
#: Asks the person, with a prompt; their answer, without its line end, or None at the end of input.
Ask = Callable[[str], "str | None"]


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


@frozen
class Options:
    """
    What ``persian-rummy play`` was asked for.

    Attributes:
        seat: The person's seat, 0-3.
        partner: The name of the partner's bot (`persian_rummy.bots.players.PLAYER_NAMES`).
        opponents: The name of the opponents' bot.
        seed: The seed of the deals and of the bots' random sources.
        look: How the screen shows cards.
    """

    seat: int = 2
    partner: str = DEFAULT_BOT
    opponents: str = DEFAULT_BOT
    seed: int = 0
    look: _screen.Look = _LOOK

    def players(self) -> tuple[str, str, str, str]:
        """
        The players' names by seat: the person, the partner opposite, the opponents either side.
        """
        names = [self.opponents] * 4
        names[self.seat] = PERSON
        names[(self.seat + 2) % 4] = self.partner
        return (names[0], names[1], names[2], names[3])


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
    A bot as the command line names it, for `persian_rummy.bots.players.make_player`, checked.

    >>> bot_argument("random")
    'random'
    """
    try:
        make_player(text)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def record_argument(text: str) -> str:
    """
    The file ``--record`` names: any but ``-``, since the screen is on standard output.
    """
    if text == "-":
        msg = "the game is shown on standard output: give a file to write the record to"
        raise argparse.ArgumentTypeError(msg)
    return text


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``play`` command's *parser* its options.
    """
    parser.description = (
        "Play a game of Persian Rummy in the terminal against the bots: at each of your turns, answer"
        " with a move's number or with the move in action notation (? at the prompt shows the help)."
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
            help=f"{whose} bot: {bots} (default {DEFAULT_BOT})",
        )
    parser.add_argument(
        "--seed", type=int, metavar="N", help="seed of the deals and the bots (default: a new one, shown)"
    )
    parser.add_argument("--sort", choices=("suit", "rank"), default="suit", help="how your hand is sorted")
    parser.add_argument(
        "--record", type=record_argument, metavar="FILE", help="write the record of the game to FILE as JSON at its end"
    )


# -- the game ------------------------------------------------------------------------------------------------------


class _Game:
    """
    One game: the state, every action so far, and what the person is shown.
    """

    def __init__(self, options: Options, show: Show, ask: Ask) -> None:
        self.options, self.show, self.ask = options, show, ask
        self.look = options.look
        self.state = new_game()
        self.actions: list[Action] = []
        self.news: list[_screen.Line] = []
        self.turn: list[_screen.Line] = []
        self.deals = random.Random(options.seed)  # noqa: S311 (a game, not a secret)
        names = options.players()
        self.bots: dict[int, tuple[Player, random.Random]] = {
            seat: (make_player(names[seat]), random.Random(f"{options.seed}/{seat}"))  # noqa: S311
            for seat in range(4)
            if seat != options.seat
        }

    def play(self) -> bool:
        """
        Play the game to its end (True) or until the person stops (False).
        """
        self.show(self._welcome())
        while self.state.phase is not Phase.GAME_OVER:
            action = self._next_action()
            if action is None:
                self.show([()])
                return False
            self._apply(action)
            if is_deal_over(self.state) and not self._deal_over():
                self.show([()])
                return False
        self.show([(), _screen.result_line(observe(self.state, self.options.seat))])
        return True

    def _welcome(self) -> list[_screen.Line]:
        options, you = self.options, self.options.seat
        bots = {seat: f"{SEAT_LETTERS[seat]} ({name})" for seat, name in enumerate(options.players())}
        them = " and ".join(bots[seat] for seat in range(4) if seat % 2 != you % 2)
        return [
            ((f"Persian Rummy: you play {SEAT_LETTERS[you]}, with {bots[(you + 2) % 4]}, against {them}.", ""),),
            ((f"Seed {options.seed} (--seed {options.seed} deals the same cards again).  ? shows the help.", ""),),
        ]

    def _next_action(self) -> Action | None:
        state = self.state
        if state.is_chance_node:
            return random_deal(state, self.deals)
        seat: int = state.to_act  # type: ignore[assignment]  # a player is to act
        if seat == self.options.seat:
            return self._choose()
        player, rng = self.bots[seat]
        return player.choose(observe(state, seat), rng)

    def _apply(self, action: Action) -> None:
        before, you = self.state, self.options.seat
        self.state = apply(before, action)
        self.actions.append(action)
        line = _screen.tell(before, action, self.look, you)
        if action.seat != you or before.is_chance_node:
            self.news.append(line)
        elif self.state.to_act != you:  # the person's turn is over
            self.news, self.turn = [], []
        else:
            drawn = self.state.hands[you] - before.hands[you] - self.state.picked  # a card from the stock
            if drawn:
                line = (*line, (": ", ""), *_screen.cards(drawn, self.look))
            self.turn.append(line)

    def _deal_over(self) -> bool:
        """
        Show how the deal ended; before another deal, wait for the person (False: they stopped).
        """
        view = observe(self.state, self.options.seat)
        self.show([(), *_screen.deal_over_screen(view, self.look, self.news)])
        self.news, self.turn = [], []
        if self.state.phase is Phase.GAME_OVER:
            return True
        self.show([()])
        answer = self.ask(f"Press Enter for deal {self.state.deal + 1}: ")
        return answer is not None and answer.strip().lower() not in _QUIT

    def _choose(self) -> PlayerAction | None:
        """
        Show the person the screen and ask until they give a legal move; None if they stop.
        """
        view = observe(self.state, self.options.seat)
        moves = legal_actions(view)
        self.show([(), *_screen.decision_screen(view, self.look, self.news, self.turn, moves), ()])
        numbers = "1" if len(moves) == 1 else f"1-{len(moves)}"
        prompt = f"Your move ({numbers} or notation, ? for help): "
        while True:
            answer = self.ask(prompt)
            if answer is None:
                return None
            reply = self._reply(answer.strip(), view, moves)
            if reply is None or not isinstance(reply, list):
                return reply
            self.show(reply)

    def _reply(
        self, answer: str, view: View, moves: Sequence[PlayerAction]
    ) -> PlayerAction | list[_screen.Line] | None:
        """
        What *answer* asks for: a move, None to stop, or the lines to show before asking again.
        """
        word = answer.lower()
        if word in _QUIT:
            return None
        if word in _HELP:
            return [((line, ""),) for line in HELP]
        if word == _SORT:
            self.look = evolve(self.look, by_rank=not self.look.by_rank)
            return [_screen.hand_line(view, self.look)]
        move = read_move(answer, self.state, moves)
        return [((move, _screen.EXPLANATION),)] if isinstance(move, str) else move


def read_move(answer: str, state: GameState, moves: Sequence[PlayerAction]) -> PlayerAction | str:
    """
    The move *answer* gives, by its number in *moves* or in action notation relative to *state*;
    or, when it gives none of *moves*, one line saying why.

    >>> from persian_rummy import Deal, FULL_DECK, apply, legal_actions, new_game
    >>> state = apply(new_game(), Deal(0, FULL_DECK))
    >>> moves = legal_actions(state)
    >>> read_move("1", state, moves), read_move("draw", state, moves)
    (DrawStock(seat=1), DrawStock(seat=1))
    >>> read_move("9", state, moves)
    'There is no move 9: type a number from 1 to 1, or ? for help.'
    >>> read_move("take 4♥", state, moves)
    'Not allowed: 4h cannot be melded or laid off at once, so it may not be taken (R15, A12)'
    """
    if not answer:
        return "Type a move's number or the move in notation (? for help)."
    if answer.isascii() and answer.isdigit():
        number = int(answer)
        if 1 <= number <= len(moves):
            return moves[number - 1]
        return f"There is no move {number}: type a number from 1 to {len(moves)}, or ? for help."
    try:
        action = parse_action(answer.translate(_SYMBOLS_AS_LETTERS), state)
    except IllegalActionError as error:
        reason = _SEAT_NUMBER.sub(lambda found: SEAT_LETTERS[int(found[1])], error.reason)
        return f"Not allowed: {reason} ({error.rule_text})"
    except PersianRummyError as error:
        return f"Not a move: {error}"
    if action not in moves:  # pragma: no cover (parse_action checks legality; this guards the view's moves)
        return f"Not one of your moves: type a number from 1 to {len(moves)}, or ? for help."
    return action  # type: ignore[return-value]  # one of the moves


def play(options: Options, show: Show, ask: Ask) -> tuple[GameState, tuple[Action, ...], bool]:
    """
    Play a game for a person at *options.seat*: the last state, every action, and whether the game was played out.
    """
    game = _Game(options, show, ask)
    finished = game.play()
    return game.state, tuple(game.actions), finished


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


def can_show_symbols(encoding: str | None) -> bool:
    """
    Whether text in *encoding* can hold the card symbols.

    >>> can_show_symbols("utf-8"), can_show_symbols("ascii"), can_show_symbols(None)
    (True, False, False)
    """
    try:
        _screen.SYMBOLS.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _printer(console: Console) -> Show:
    from rich.text import Text  # noqa: PLC0415

    def show(lines: Sequence[_screen.Line]) -> None:
        for line in lines:
            console.print(Text.assemble(*line), soft_wrap=True)

    return show


def _asker(console: Console) -> Ask:
    stream = sys.stdin
    if stream is not None and hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="replace")

    def ask(prompt: str) -> str | None:
        console.print(prompt, style="bold", end="")
        console.file.flush()
        return read_answer(sys.stdin)

    return ask


def read_answer(stream: object) -> str | None:
    """
    One line from *stream*, without its line end; None at the end of input or when there is none.

    A line longer than any move is read only up to one character past the longest, and the rest
    of it skipped, so that an endless line costs no more.
    """
    readline = getattr(stream, "readline", None)
    if readline is None or getattr(stream, "closed", True):
        return None
    line: str = readline(_LONGEST)
    if not line:
        return None
    if not line.endswith("\n") and len(line) >= _LONGEST:
        rest = line
        while rest and not rest.endswith("\n"):
            rest = readline(_LONGEST)
    return line.rstrip("\r\n")


def options_of(args: argparse.Namespace, console_width: int, encoding: str | None) -> Options:
    """
    The options the command line *args* gives, a seed drawn when it gives none.
    """
    seed = random.SystemRandom().randrange(1_000_000) if args.seed is None else args.seed
    look = _screen.Look(symbols=can_show_symbols(encoding), by_rank=args.sort == "rank", width=console_width)
    return Options(args.seat, args.partner, args.opponents, seed, look)


def run(args: argparse.Namespace, open_record: Callable[[str], RecordFile]) -> None:
    """
    Run ``persian-rummy play`` as *args* says; *open_record* opens the ``--record`` file, before the game.
    """
    console = _console()
    options = options_of(args, console.width, getattr(sys.stdout, "encoding", None))
    record = None if args.record is None else open_record(args.record)
    try:
        state, actions, finished = play(options, _printer(console), _asker(console))
    except BaseException:
        if record is not None:
            record.discard()
        raise
    if record is None:
        return
    if not finished:
        record.discard()
        return
    game = GameRecord(
        rules=state.rules,
        actions=actions,
        players=options.players(),
        date=dt.datetime.now(tz=dt.UTC).date().isoformat(),
        event=f"persian-rummy play, seed {options.seed}",
    )
    record.write(to_json(game, pretty=True) + "\n")
