"""
The game that ``persian-rummy play`` runs, whatever shows it: the state, every action so far,
what the person is told, and the person's answers read as moves.

`Table` holds one game and advances it one action at a time: a deal, a bot's move, or the
person's move once they choose it.  The line mode (`persian_rummy.cli._line_mode`) and the
full screen (`persian_rummy.cli._tui`) both drive it, so that they play the same game for the
same seed and answers.  Everything the person is shown comes from their `View`
(`persian_rummy.observe`) and its legal actions.

The deals come from a ``random.Random`` seeded with the seed, and each bot has its own, seeded
from the seed and its seat, so a seed and the person's moves give the same game again.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from typing import Final

from attrs import evolve, frozen

from .. import limits as _limits
from ..actions import (
    Action,
    CallRummy,
    DeclineCall,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
)
from ..bots.players import PLAYER_NAMES, Player, make_player
from ..cards import Card, by_rank
from ..engine import apply, is_deal_over, legal_actions, random_deal
from ..exceptions import IllegalActionError, PersianRummyError
from ..notation import SEAT_LETTERS, format_action, format_rules, parse_action
from ..records import GameRecord
from ..rules import DEFAULT_RULES, Rules
from ..state import GameState, Phase, View, new_game
from ..views import observe
from ..wording import RULE_SUMMARIES, plain
from . import _screen

#: The bots in the order they are preferred as the default: the strongest that plays quickly first.
_PREFERRED: Final = ("greedy", "random")
#: The bot the command seats by default.
DEFAULT_BOT: Final = next((name for name in _PREFERRED if name in PLAYER_NAMES), min(PLAYER_NAMES))
#: The person's name in the game record.
PERSON: Final = "person"
#: The event of a game's record, from which ``--resume`` reads the seed back.
EVENT: Final = "persian-rummy play, seed {seed}"
_EVENT_SEED: Final = re.compile(r"persian-rummy play, seed (\d{1,18})")
#: What the card symbols stand for in notation, for answers typed with them (``Q♥``).
_SYMBOLS_AS_LETTERS: Final = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "🃏": "X", "\ufe0f": None})
#: How the screen shows cards unless told otherwise.
_LOOK: Final = _screen.Look()
#: The verbs a person may type: a deal is the dealer's, never theirs.
VERBS: Final = ("draw", "take", "meld", "lay", "discard", "pass", "call", "decline")
_A_DEAL: Final = re.compile(r"(?:[NESW0-3]\s+)?deal\b", re.IGNORECASE)
_NOTATION_VERBS: Final = re.compile(r"\(expected deal, draw, take, meld, lay, discard, pass, call or decline\)")
_KINDS: Final = (DrawStock, TakeDiscard, LayDown, LayOff, Discard, Pass, DeclineCall, CallRummy)
#: What the welcome and the help say of the calls of "Rummy!", when the rules have them (A24).
CALLS_HELP: Final = "Rummy! calls: when a discard fits a meld, you may be asked: call (take it, lay it off) or decline."
QUIT: Final = frozenset({"quit", "q", "exit"})
HELP_WORDS: Final = frozenset({"?", "help", "h"})
SORT: Final = "sort"
HELP: Final = (
    "Type a move's number, or the move in action notation: draw, take 9c,",
    "meld 9d9h9s, lay 5c6c on 7c, discard Qh, pass.  A card is its rank",
    "(2-9, T or 10, J, Q, K, A) and its suit (c d h s, or ♣ ♦ ♥ ♠); the jokers",
    "are X1-X4.  A lay-off names its meld by any card of it.",
    "Also: sort (your hand by rank, or by suit again), ? (this help), quit.",
)


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
        rules: The rules of the game (``--rules``).
    """

    seat: int = 2
    partner: str = DEFAULT_BOT
    opponents: str = DEFAULT_BOT
    seed: int = 0
    look: _screen.Look = _LOOK
    rules: Rules = DEFAULT_RULES

    def players(self) -> tuple[str, str, str, str]:
        """
        The players' names by seat: the person, the partner opposite, the opponents either side.
        """
        names = [self.opponents] * 4
        names[self.seat] = PERSON
        names[(self.seat + 2) % 4] = self.partner
        return (names[0], names[1], names[2], names[3])


def seed_of(record: GameRecord) -> int | None:
    """
    The seed a record of ``persian-rummy play`` was played with, read from its event; None if it has none.

    >>> seed_of(GameRecord(event="persian-rummy play, seed 42")), seed_of(GameRecord())
    (42, None)
    """
    found = None if record.event is None else _EVENT_SEED.fullmatch(record.event)
    return None if found is None else int(found[1])


class Table:
    """
    One game: the state, every action so far, and what the person is told of it.

    Attributes:
        news: What the others did since the person's last turn, one line each.
        turn: What the person did this turn.
        log: Every action of the deal so far as the person saw it, one line each.
    """

    def __init__(self, options: Options, played: Sequence[Action] = ()) -> None:
        self.options = options
        self.look = options.look
        self.state = new_game(options.rules)
        self.actions: list[Action] = []
        self.news: list[_screen.Line] = []
        self.turn: list[_screen.Line] = []
        self.log: list[_screen.Line] = []
        self.deals = random.Random(options.seed)  # noqa: S311 (a game, not a secret)
        names = options.players()
        self.bots: dict[int, tuple[Player, random.Random]] = {
            seat: (make_player(names[seat]), random.Random(f"{options.seed}/{seat}"))  # noqa: S311
            for seat in range(4)
            if seat != options.seat
        }
        for action in played:
            if self.state.is_chance_node:
                random_deal(self.state, self.deals)  # the deals to come are the seed's
            self.play(action)
        if played and is_deal_over(self.state):
            self.next_deal()

    @property
    def over(self) -> bool:
        """
        Whether the game is over.
        """
        return self.state.phase is Phase.GAME_OVER

    @property
    def deal_over(self) -> bool:
        """
        Whether a deal has just ended (the game may be over too).
        """
        return is_deal_over(self.state)

    @property
    def persons_turn(self) -> bool:
        """
        Whether the person is to choose a move.
        """
        return not self.state.is_chance_node and self.state.to_act == self.options.seat

    def view(self) -> View:
        """
        What the person's seat sees.
        """
        return observe(self.state, self.options.seat)

    def moves(self) -> list[PlayerAction]:
        """
        The person's legal moves, in the order the screen lists and numbers them (`ordered`).
        """
        return ordered(legal_actions(self.view()), self.look)

    def advance(self) -> Action:
        """
        Deal, or let the bot to act move; the action, applied.
        """
        state = self.state
        if state.is_chance_node:
            action: Action = random_deal(state, self.deals)
        else:
            seat = state.seat_to_act
            player, rng = self.bots[seat]
            action = player.choose(observe(state, seat), rng)
        self.play(action)
        return action

    def play(self, action: Action) -> None:
        """
        Apply *action* and tell it: to the news if another seat's, to this turn's lines if the person's.
        """
        before, you = self.state, self.options.seat
        self.state = apply(before, action)
        self.actions.append(action)
        line = _screen.tell(before, action, self.look, you)
        if type(action) is CallRummy:  # the card called on, from the top of the pile (A24)
            line = (*line, (" on ", ""), *_screen.cards(before.discard_pile[-1:], self.look))
        if action.seat != you or before.is_chance_node:
            self.news.append(line)
        elif self.state.to_act != you:  # the person's turn is over
            self.news, self.turn = [], []
        else:
            drawn = self.state.hands[you] - before.hands[you] - self.state.picked  # a card from the stock
            if drawn:
                line = (*line, (": ", ""), *_screen.cards(drawn, self.look))
            self.turn.append(line)
        if before.is_chance_node:  # a deal: the log starts again
            self.log = []
        self.log.append(line)

    def next_deal(self) -> None:
        """
        Forget what was told in the deal just shown as over.
        """
        self.news, self.turn, self.log = [], [], []

    def sort(self) -> None:
        """
        Sort the hand and the moves the other way: by rank, or by suit again.
        """
        self.look = evolve(self.look, by_rank=not self.look.by_rank)

    def record(self) -> GameRecord:
        """
        The record of the game so far, with the players' names, today's date and the seed.
        """
        return GameRecord(
            rules=self.state.rules,
            actions=tuple(self.actions),
            players=self.options.players(),
            date=dt.datetime.now(tz=dt.UTC).date().isoformat(),
            event=EVENT.format(seed=self.options.seed),
        )

    def welcome(self) -> list[_screen.Line]:
        """
        Who plays with and against whom, and the seed.
        """
        options, you = self.options, self.options.seat
        bots = {seat: f"{SEAT_LETTERS[seat]} ({name})" for seat, name in enumerate(options.players())}
        them = " and ".join(bots[seat] for seat in range(4) if seat % 2 != you % 2)
        lines: list[_screen.Line] = [
            ((f"Persian Rummy: you play {SEAT_LETTERS[you]}, with {bots[(you + 2) % 4]}, against {them}.", ""),),
            ((f"Seed {options.seed} (--seed {options.seed} deals the same cards again).  ? shows the help.", ""),),
        ]
        if self.state.rules != DEFAULT_RULES:
            lines.append(((f"Rules: {format_rules(self.state.rules)} (the default rules but for these).", ""),))
        if self.state.rules.rummy_calls:
            lines.append(((CALLS_HELP, ""),))
        return lines


def _cards_of(action: PlayerAction) -> tuple[Card, ...]:
    match action:
        case TakeDiscard(card=card) | Discard(card=card):
            return (card,)
        case LayDown(cards=cards) | LayOff(cards=cards):
            return tuple(sorted(cards, key=by_rank))
        case DrawStock() | Pass() | DeclineCall() | CallRummy():
            return ()


def ordered(moves: Sequence[PlayerAction], look: _screen.Look) -> list[PlayerAction]:
    """
    *moves* in the order the screen lists them: by kind, and within a kind by suit (the order of
    `legal_actions`) or, when *look* sorts the hand by rank, by the ranks of their cards.
    """
    if not look.by_rank:
        return list(moves)

    def key(action: PlayerAction) -> tuple[int, int, list[tuple[int, int]]]:
        meld: int = getattr(action, "meld", -1)  # a lay-off's meld, in the table's order
        return (_KINDS.index(type(action)), meld, [by_rank(card) for card in _cards_of(action)])

    return sorted(moves, key=key)


def numbers(moves: Sequence[PlayerAction]) -> str:
    """
    The numbers a person may type for *moves*: ``1`` for one move, ``1-N`` for more.

    >>> numbers([Pass(0)]), numbers([Pass(0), DrawStock(0)])
    ('1', '1-2')
    """
    return "1" if len(moves) == 1 else f"1-{len(moves)}"


def _type_a_number(moves: Sequence[PlayerAction]) -> str:
    return "type 1, the only move" if len(moves) == 1 else f"type a number from 1 to {len(moves)}"


def _reason(error: IllegalActionError, state: GameState, *, symbols: bool) -> str:
    """
    Why the person's move was refused, said to them (`persian_rummy.wording.plain`).
    """
    reason = plain(error, seat=state.to_act, symbols=symbols)
    if state.stock:  # passing is for an empty stock only (R13, R16)
        reason = reason.replace("must draw or pass before", "must draw before")
    return reason


def help_lines(rules: Rules) -> tuple[str, ...]:
    """
    The help a person is shown on ?, with the calls of "Rummy!" where the rules have them (A24).

    >>> help_lines(Rules()) == HELP, help_lines(Rules(rummy_calls=True))[-1] == CALLS_HELP
    (True, True)
    """
    return (*HELP, CALLS_HELP) if rules.rummy_calls else HELP


#: The rules the help sums up, one line each: the turn, what a take obliges, the end of a deal, the score.
_HELP_RULES: Final = ("R13", "R14", "R15", "R16", "R17", "R18", "R19", "R21", "R22", "R24", "R25", "R26", "R27", "R28")
_VALUE_NAMES: Final = (
    ("2", "two"),
    ("3", "three"),
    ("4", "four"),
    ("5", "five"),
    ("6", "six"),
    ("7", "seven"),
    ("8", "eight"),
    ("9", "nine"),
    ("10", "ten"),
    ("J", "jack"),
    ("Q", "queen"),
    ("K", "king"),
    ("A", "ace"),
    ("joker", "joker"),
)


def values_line(rules: Rules) -> str:
    """
    What each card scores under *rules* (R23), in one line.

    >>> values_line(Rules())
    'Card values (R23): 2-9 their number, 10 10, J 10, Q 10, K 10, A 15, joker 20.'
    """
    values = rules.card_values
    scored = [(label, int(getattr(values, name))) for label, name in _VALUE_NAMES]
    if all(str(value) == label for label, value in scored[:8]):
        scored = [("2-9", -1), *scored[8:]]
    parts = ["2-9 their number" if value < 0 else f"{label} {value}" for label, value in scored]
    return f"Card values (R23): {', '.join(parts)}."


def rules_lines(rules: Rules) -> tuple[str, ...]:
    """
    The rules in short, one line each, as the help shows them, the calls of "Rummy!" where the rules have them.

    >>> rules_lines(Rules())[1]
    'R13: a turn is: draw, then any melds and lay-offs, then one discard'
    """
    ids = (*_HELP_RULES, "A24") if rules.rummy_calls else _HELP_RULES
    return ("The rules in short:", *(f"{rule}: {RULE_SUMMARIES[rule]}" for rule in ids), values_line(rules))


def person_verbs(rules: Rules) -> tuple[str, ...]:
    """
    The verbs a person types under *rules*: the answers to a discard only where calls are played (A24).

    >>> person_verbs(Rules())
    ('draw', 'take', 'meld', 'lay', 'discard', 'pass')
    >>> person_verbs(Rules(rummy_calls=True))[-2:]
    ('call', 'decline')
    """
    return VERBS if rules.rummy_calls else VERBS[:-2]


def read_move(
    answer: str, state: GameState, moves: Sequence[PlayerAction], *, symbols: bool = False
) -> PlayerAction | str:
    """
    The move *answer* gives, by its number in *moves* or in action notation relative to *state*;
    or, when it gives none of *moves*, one line saying why, its cards with their suit symbols if *symbols*.

    >>> from persian_rummy import Deal, FULL_DECK, apply, legal_actions, new_game
    >>> state = apply(new_game(), Deal(0, FULL_DECK))
    >>> moves = legal_actions(state)
    >>> read_move("1", state, moves), read_move("draw", state, moves)
    (DrawStock(seat=1), DrawStock(seat=1))
    >>> read_move("9", state, moves)
    'There is no move 9: type 1, the only move, or ? for help.'
    >>> read_move("take 4♥", state, moves, symbols=True).partition(" (")[0]
    '4♥ cannot be taken: it could not be melded or laid off at once.'
    >>> print(read_move("meld 2c3c4c", state, moves))
    You must draw before laying down a meld. (R13: a turn is: draw, then any melds and lay-offs, then one discard)
    """
    if not answer:
        return "Type a move's number or the move in notation (? for help)."
    if answer.isascii() and answer.isdigit():
        number = int(answer) if len(answer) < 6 else 0
        if 1 <= number <= len(moves):
            return moves[number - 1]
        return f"There is no move {_limits.shown(answer)[1:-1]}: {_type_a_number(moves)}, or ? for help."
    if _A_DEAL.match(answer):
        verbs = person_verbs(state.rules)
        return f"Not a move: the dealer deals, not you: type {', '.join(verbs[:-1])} or {verbs[-1]} (R7)"
    try:
        action = parse_action(answer.translate(_SYMBOLS_AS_LETTERS), state)
    except IllegalActionError as error:
        return _reason(error, state, symbols=symbols)
    except PersianRummyError as error:
        verbs = person_verbs(state.rules)
        text = _NOTATION_VERBS.sub(f"(expected {', '.join(verbs[:-1])} or {verbs[-1]})", str(error))
        return f"Not a move: {text}"
    move = next((move for move in moves if move == action), None)
    if move is None:
        return f"Not one of your moves: {_type_a_number(moves)}, or ? for help."
    return move


def notations(moves: Sequence[PlayerAction], state: GameState) -> list[str]:
    """
    The moves of *state* as a person types them: their action notation without the seat.

    >>> notations([DrawStock(1), Discard(1, "Qh")], new_game())
    ['draw', 'discard Qh']
    """
    return [format_action(move, state).partition(" ")[2] for move in moves]
