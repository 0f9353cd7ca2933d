"""
``persian-rummy play``: a person plays a whole game in the terminal against the bots (docs/play.md).

The screen is drawn from the person's view (`observe`), the moves offered are the view's legal
actions (R13-R21), the end of each deal shows its score (R24-R26) and the end of the game the
winner (R28).  The game is driven through a real pseudo-terminal, and the same game played in
this process gives the same text.
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from rich.text import Text

import persian_rummy
from persian_rummy import (
    ACTION_TYPES,
    CallRummy,
    DeclineCall,
    Discard,
    GameRecord,
    GameState,
    LayDown,
    LayOff,
    Phase,
    Rules,
    apply,
    from_json,
    legal_actions,
    new_game,
    observe,
    parse_action,
    parse_position,
    random_deal,
)
from persian_rummy.bots.players import PLAYER_NAMES
from persian_rummy.cli import _play_command as command
from persian_rummy.cli import _screen as screen
from persian_rummy.cli import main
from persian_rummy.records import final_state
from persian_rummy.wording import rules_line
from tests.positions import cards, forged

#: The folder of the package under test (src/, or the installed compiled build), for the commands run.
SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
DATA = Path(__file__).parent / "data"
DOCS = Path(__file__).resolve().parents[1] / "docs"
#: The command run in the terminal: Python's SIGINT handler is set again, so that Ctrl-C interrupts it even
#: when the tests run in the background (a job started so ignores the signal, and its children inherit that).
CHILD = (
    "import signal, sys\n"
    "from persian_rummy.cli import main\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
PROMPT = re.compile(r"Your move \(1(?:-\d+)? or notation, \? for help\): ")
ENTER = re.compile(r"Press Enter for deal \d+: ")
#: Asked once a game played in a terminal is over.
AGAIN = re.compile(r"Play again, with new deals(?: \(not recorded\))?\? \[y/N\] ")
#: Escape sequences a terminal acts on: colours and styles, and any other CSI sequence.
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOURS = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|9[0-7])(?:;[0-9;]*)?m")
BOTS = ("--partner", "random", "--opponents", "random")
WIDTH = 120

#: A game of the second deal (seed 0 of random players), before and after each action: S discards,
#: W draws, lays off and discards, N takes As and lays off Ks As: N, seat 0, is to play.
HISTORY = (
    (
        (
            "- 2/E play S Qc6d9dKh7sKs/6h9hJhX3/4dTd7h6sX1X2/2d7dTh5s 5dAcAd8cAh4c5h8h5cKc3hJd8d4s6c 7cAs4hKdQdQhX4"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s - - 6d7s/9hJh/-/- 0 - 138.0.0.7:249.0.0.80:p"
        ),
        "S discard X2",
    ),
    (
        (
            "- 2/E draw W Qc6d9dKh7sKs/6h9hJhX3/4dTd7h6sX1/2d7dTh5s 5dAcAd8cAh4c5h8h5cKc3hJd8d4s6c 7cAs4hKdQdQhX4X2"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s - - 6d7s/9hJh/-/- 0 - 138.0.0.7:249.0.0.80:p"
        ),
        "W draw",
    ),
    (
        (
            "- 2/E play W Qc6d9dKh7sKs/6h9hJhX3/4dTd7h6sX1/2d5d7dTh5s AcAd8cAh4c5h8h5cKc3hJd8d4s6c 7cAs4hKdQdQhX4X2"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s - - 6d7s/9hJh/-/- 0 - 138.0.0.7:249.0.0.80:p"
        ),
        "W lay 2d on 2c",
    ),
    (
        (
            "- 2/E play W Qc6d9dKh7sKs/6h9hJhX3/4dTd7h6sX1/5d7dTh5s AcAd8cAh4c5h8h5cKc3hJd8d4s6c 7cAs4hKdQdQhX4X2"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s+W:2d - - 6d7s/9hJh/-/- 0 - 138.0.0.7:249.0.0.80:p"
        ),
        "W discard 5s",
    ),
    (
        (
            "- 2/E draw N Qc6d9dKh7sKs/6h9hJhX3/4dTd7h6sX1/5d7dTh AcAd8cAh4c5h8h5cKc3hJd8d4s6c 7cAs4hKdQdQhX4X25s"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s+W:2d - - 6d7s/9hJh/-/- 0 - 138.0.0.7:249.0.0.80:p"
        ),
        "N take As",
    ),
    (
        (
            "- 2/E play N Qc6d9dQdKd4hQhKh5s7sKsAsX2X4/6h9hJhX3/4dTd7h6sX1/5d7dTh AcAd8cAh4c5h8h5cKc3hJd8d4s6c 7c"
            " N:3c3d3s,E:8s9sTs+S:JsQs,E:9cTcJc,W:2c2h2s+W:2d As QdKd4hQh5sAsX2X4 6dQdKd4hQh5s7sAsX2X4/9hJh/-/- 0 -"
            " 138.0.0.7:249.0.0.80:p"
        ),
        "N lay KsAs on 8s",
    ),
)
SCREEN_WITH_SYMBOLS = """\
Deal 2 of 2, dealt by E.  Score: N-S (you) 131, E-W 169

Since your last turn:
  S discards 🃏2
  W draws from the stock
  W lays off 2♦ onto meld 4 (2♣ 2♥ 2♠)
  W discards 5♠
This turn:
  You take A♠ from the discard pile and the 7 cards above it
  You lay off K♠ A♠ onto meld 2 (8♠ 9♠ 10♠ J♠ Q♠)
Table:
   1  3♣ 3♦ 3♠               set laid down by N (you)
   2  8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠  run laid down by E; K♠ A♠ laid off by N (you); J♠ Q♠ laid off by S
   3  9♣ 10♣ J♣              run laid down by E
   4  2♣ 2♦ 2♥ 2♠            set laid down by W; 2♦ laid off by W
Discard pile (bottom to top): [7♣]
Stock: 14 cards
Others: E 4 cards (known: 9♥ J♥), S 5 cards, W 3 cards

Your hand (12 cards, by suit): Q♣  6♦ 9♦ Q♦ K♦  4♥ Q♥ K♥  5♠ 7♠  🃏2 🃏4
Taken from the pile this turn: Q♦ K♦ 4♥ Q♥ 5♠ A♠ 🃏2 🃏4

Your moves:
  meld    1) Q♣ Q♦ Q♥
  lay     2) 7♠ on 8♠   3) Q♣ on 9♣
  discard 4) Q♣   5) 6♦   6) 9♦   7) Q♦   8) K♦   9) 4♥   10) Q♥   11) K♥
          12) 5♠   13) 7♠   14) 🃏2   15) 🃏4
"""
SCREEN_WITH_LETTERS = """\
Deal 2 of 2, dealt by E.  Score: N-S (you) 131, E-W 169

Table:
   1  3c 3d 3s              set laid down by N (you)
   2  8s 9s Ts Js Qs Ks As  run laid down by E; Ks As laid off by N (you); Js Qs laid off by S
   3  9c Tc Jc              run laid down by E
   4  2c 2d 2h 2s           set laid down by W; 2d laid off by W
Discard pile (bottom to top): [7c]
Stock: 14 cards
Others: E 4 cards (known: 9h Jh), S 5 cards, W 3 cards

Your hand (12 cards, by rank): 4h  5s  6d  7s  9d  Qc Qd Qh  Kd Kh  X2 X4
Taken from the pile this turn: Qd Kd 4h Qh 5s As X2 X4

Your moves:
  meld    1) Qc Qd Qh
  lay     2) 7s on 8s   3) Qc on 9c
  discard 4) Qc   5) 6d   6) 9d   7) Qd   8) Kd   9) 4h
          10) Qh   11) Kh   12) 5s   13) 7s   14) X2
          15) X4
"""
SCREEN_IN_COLOUR = (
    "\x1b[1mYour hand\x1b[0m (12 cards, by suit): Q♣  \x1b[31m6♦\x1b[0m \x1b[31m9♦\x1b[0m \x1b[31mQ♦\x1b[0m"
    " \x1b[31mK♦\x1b[0m  \x1b[31m4♥\x1b[0m \x1b[31mQ♥\x1b[0m \x1b[31mK♥\x1b[0m  5♠ 7♠  \x1b[35m🃏2\x1b[0m"
    " \x1b[35m🃏4\x1b[0m\n"
    "\x1b[1mDiscard pile \x1b[0m(bottom to top): [\x1b[1m7♣\x1b[0m]\n"
    "\x1b[1mStock: \x1b[0m14 cards\n"
)
#: E has taken Kd, with three cards above it, from the discard pile, which is now empty (R14, R15).
TAKEN = (
    "- 2/E play E JcQc2dAdThQs/3cJdKd4hJhKhKsX2/AcTd8hAh6sX3/Qd9h2s4s8s9sJs "
    "9dTc8d2c2h6c4cQh3sX17hAs7d3d3h7s6h6d4dX4KcTs - E:7c8c9c,S:5c5d5h+N:5s Kd 3cKdKsX2 "
    "-/3cKdKsX2/TdAh/- 0 - 115.0.0.29:277.0.25.55:E"
)
DEAL_OVER = """\
Deal 2 is over

Table:
   1  6c 7c 8c 9c Tc Jc Qc Kc  run laid down by E; 6c Tc Jc Qc laid off by N; Kc laid off by S (you)
   2  5c 5d 5h 5s              set laid down by S (you); 5s laid off by N
   3  Kd Kh Ks                 set laid down by E
   4  7d 8d 9d Td Jd Qd        run laid down by S (you); 7d 8d laid off by S (you); Qd laid off by W
   5  6h 7h 8h 9h Th Jh Qh     run laid down by S (you); 8h laid off by N; 6h laid off by E; 7h Qh laid off by W
   6  Ac Ad Ah As              set laid down by S (you); As laid off by E
   7  2c 3c 4c                 run laid down by E
   8  X1 X2 X3 X4              set laid down by S (you); X4 laid off by E
   9  2d 2h 2s                 set laid down by W
Cards left in hand:
  N       3s 4s (7 points)
  E       4h (4 points)
  S (you) -
  W       6d 8s (14 points)

Score of deal 2 (you went out):
  team        melded  doubling  bonus  in hand  total
  N-S (you)      252         0     25       -7    270
  E-W            137         0      0      -18    119
  Game: N-S (you) 356, E-W 366

E-W win, 366 to 356. You lose.
"""
FIRST_SCREEN_OF_SEED_3 = """\
Persian Rummy: you play S, with N (random), against E (random) and W (random).
Seed 3 (--seed 3 deals the same cards again).  ? shows the help.

Deal 1 of 2, dealt by N.  Score: N-S (you) 0, E-W 0

Since your last turn:
  N deals
  E draws from the stock
  E discards 6♦
Table: no melds yet
Discard pile (bottom to top): 5♠ [6♦]
Stock: 26 cards
Others: N 7 cards, E 7 cards, W 7 cards

Your hand (7 cards, by suit): 9♣  7♦  4♥ 8♥  7♠ 9♠  🃏1

Your moves:
  draw    1) from the stock

"""


def _history() -> tuple[GameState, list[screen.Line], list[screen.Line], screen.Look]:
    """
    N's view after `HISTORY`: the position, what the others did (news) and what N did this turn.
    """
    look = screen.Look()
    news: list[screen.Line] = []
    turn: list[screen.Line] = []
    state = parse_position(HISTORY[0][0])
    for position, text in HISTORY:
        state = parse_position(position)
        action = parse_action(text, state)
        (turn if action.seat == 0 else news).append(screen.tell(state, action, look, 0))
        state = apply(state, action)
    return state, news, turn, look


class TestScreen:
    """
    "The screen, on each of the person's decisions": the hand sorted, with suit symbols and colours
    where the output has them, the table with who laid what, the discard pile with its top card
    marked, the stock, the scores and the deal, the card to play (R15) and the cards taken this turn,
    what the others did, and the legal moves numbered, all from the seat's view (docs/play.md).
    """

    def test_a_position_with_symbols(self) -> None:
        state, news, turn, look = _history()
        view = observe(state, 0)
        lines = screen.decision_screen(view, look, news, turn, legal_actions(view))
        assert SCREEN_WITH_SYMBOLS == screen.plain(lines)

    def test_the_same_position_in_letters_sorted_by_rank_on_a_narrow_screen(self) -> None:
        state, _, _, _ = _history()
        view = observe(state, 0)
        look = screen.Look(symbols=False, by_rank=True, width=60)
        lines = screen.decision_screen(view, look, [], [], legal_actions(view))
        assert SCREEN_WITH_LETTERS == screen.plain(lines)

    def test_colours_where_the_terminal_has_them(self) -> None:
        state, _, _, look = _history()
        view = observe(state, 0)
        out = io.StringIO()
        console = Console(file=out, force_terminal=True, color_system="standard", width=80, highlight=False)
        for line in (screen.hand_line(view, look), *screen.pile_lines(view, look)):
            console.print(Text.assemble(*line), soft_wrap=True)
        assert SCREEN_IN_COLOUR == out.getvalue()

    def test_the_screen_shows_only_what_the_seat_may_see(self) -> None:
        state, news, turn, look = _history()
        view = observe(state, 0)
        text = screen.plain(screen.decision_screen(view, look, news, turn, legal_actions(view)))
        hidden = [*state.stock, *(card for seat in (1, 2, 3) for card in state.hands[seat] - state.known[seat])]
        shown = [card for card in hidden if re.search(rf"(?<![0-9]){re.escape(card.symbol)}(?![0-9])", text)]
        assert (24, []) == (len(hidden), shown)

    def test_the_card_to_play_and_the_cards_taken(self) -> None:
        state = parse_position(HISTORY[-1][0])
        view = observe(state, 0)
        line = screen.taken_line(view, screen.Look(symbols=False))
        assert line is not None
        assert "You must play As now (taken from the pile this turn: Qd Kd 4h Qh 5s As X2 X4; R15)" == screen.plain(
            [line]
        ).rstrip("\n")
        assert screen.taken_line(observe(parse_position(HISTORY[0][0]), 2), screen.Look()) is None

    def test_every_kind_of_move_is_listed_with_its_notation(self) -> None:
        take = parse_position(HISTORY[-2][0])
        view = observe(take, 0)
        lines = screen.move_lines(legal_actions(view), view, screen.Look(symbols=False))
        assert [
            "  draw    1) from the stock",
            "  take    2) Qd and 4 cards above it   3) Kd and 5 cards above it",
            "          4) As and 7 cards above it",
        ] == [screen.plain([line]).rstrip("\n") for line in lines]

    def test_the_end_of_a_deal_and_of_the_game(self) -> None:
        end = final_state(from_json((DATA / "went_out.json").read_text(encoding="utf-8"), GameRecord))
        view = observe(end, 2)
        lines = [*screen.deal_over_screen(view, screen.Look(symbols=False), []), (), screen.result_line(view)]
        assert DEAL_OVER == screen.plain(lines)

    def test_a_drawn_game(self) -> None:
        end = final_state(from_json((DATA / "passes.json").read_text(encoding="utf-8"), GameRecord))
        view = observe(end, 1)
        assert "Score of deal 2 (the stock was empty and everyone passed):\n" == screen.plain(
            screen.score_lines(view)[:1]
        )
        assert "The game is a draw, 112 all.\n" == screen.plain([screen.result_line(view)])

    def test_a_four_laid_down_at_once_is_doubled(self) -> None:
        end = final_state(from_json((DATA / "four_at_once.json").read_text(encoding="utf-8"), GameRecord))
        text = screen.plain(screen.table_lines(observe(end, 0), screen.Look(symbols=False)))
        assert "   1  Ac Ad Ah As     set laid down by W (four at once: doubled)\n" in text

    def test_an_empty_discard_pile_and_an_empty_stock(self) -> None:
        taken = observe(parse_position(TAKEN), 1)
        end = observe(final_state(from_json((DATA / "passes.json").read_text(encoding="utf-8"), GameRecord)), 0)
        assert "Discard pile (bottom to top): empty\n" == screen.plain(screen.pile_lines(taken, screen.Look())[:1])
        assert "Stock: empty; 4 passes in a row (R21)\n" == screen.plain(screen.pile_lines(end, screen.Look())[1:])

    def test_a_stock_known_to_all_and_the_passes_in_a_row(self) -> None:
        """
        A18: the pile turned over into the stock is known to all, next card first; R21: the passes in a row.
        """
        known = forged(observe(parse_position(TAKEN), 1), stock=cards("7h 8c"), stock_size=2, passes=2)
        once = forged(observe(parse_position(TAKEN), 1), passes=1)
        assert "Stock: 2 cards, known to all, next first: 7h 8c; 2 passes in a row (R21)\n" == screen.plain(
            screen.pile_lines(known, screen.Look(symbols=False))[1:]
        )
        assert screen.plain(screen.pile_lines(once, screen.Look())[1:]).endswith("; 1 pass in a row (R21)\n")

    def test_how_a_deal_ended(self) -> None:
        rules = Rules(empty_stock_end="immediately")
        state, rng = new_game(rules), random.Random(1)  # noqa: S311
        while not state.results:
            state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
        went_out = final_state(from_json((DATA / "went_out.json").read_text(encoding="utf-8"), GameRecord))
        assert [
            "Score of deal 1 (the stock ran out):\n",
            "Score of deal 2 (S went out):\n",
        ] == [screen.plain(screen.score_lines(observe(end, 0))[:1]) for end in (state, went_out)]

    def test_wild_jokers_are_shown_with_the_cards_they_stand_for(self) -> None:
        """
        A7: on the table and in what a move says, a joker that stands for a card is followed by it.
        """
        text = "jokers_wild=true 1/W play N 9s4cX3/2h3d/5d6d/8cKs * 2s E:5hX2=6h7h+N:X1=8h,S:7c7dX4=7s - - - 0 - -"
        state = parse_position(text)
        look = screen.Look(symbols=False)
        assert [
            "Table:\n",
            "   1  5h X2=6h 7h X1=8h  run laid down by E; X1=8h laid off by N (you)\n",
            "   2  7c 7d X4=7s        set laid down by S\n",
        ] == screen.plain(screen.table_lines(observe(state, 0), look)).splitlines(keepends=True)
        told = screen.tell(state, parse_action("N lay X3=9h on 7h", state), screen.Look())
        assert "N lays off 🃏3=9♥ onto meld 1 (5♥ 🃏2=6♥ 7♥ 🃏1=8♥)\n" == screen.plain([told])
        told = screen.tell(state, parse_action("N lay X3=9h on 7h", state), screen.Look(), you=0)
        assert "You lay off 🃏3=9♥ onto meld 1 (5♥ 🃏2=6♥ 7♥ 🃏1=8♥)\n" == screen.plain([told])

    def test_every_action_said_of_you(self) -> None:
        """
        The seat that plays reads its own moves with "You" and the verb agreeing, whatever the action.
        """
        said = {kind.__name__: screen.said_to_you(kind.phrase) for kind in ACTION_TYPES}
        assert {
            "Deal": "deal",
            "DrawStock": "draw from the stock",
            "TakeDiscard": "take {card} from the discard pile{above}",
            "LayDown": "lay down {cards}",
            "LayOff": "lay off {cards} onto {meld}",
            "Discard": "discard {card}",
            "Pass": "pass",
            "CallRummy": "call Rummy!",
            "DeclineCall": "do not call",
        } == said

    def test_the_result_of_a_game_that_is_not_over(self) -> None:
        view = observe(parse_position(HISTORY[0][0]), 2)
        assert "Deal 2: the game is not over.\n" == screen.plain([screen.result_line(view)])


class TestReadMove:
    """
    "The legal moves numbered …, a number or action notation accepted; a bad entry gets a one-line
    explanation and the prompt again" (docs/play.md): each answer's move, or the line saying why not.
    """

    @pytest.mark.parametrize(
        ("answer", "expected"),
        [
            ("1", LayDown(0, "Qc Qd Qh")),
            ("meld QcQdQh", LayDown(0, "Qc Qd Qh")),
            ("lay 7s on 8s", LayOff(0, 1, "7s")),
            ("lay 7♠ on 10♠", LayOff(0, 1, "7s")),
            ("N discard X4", Discard(0, "X4")),
            ("discard 🃏4", Discard(0, "X4")),
            ("", "Type a move's number or the move in notation (? for help)."),
            ("0", "There is no move 0: type a number from 1 to 15, or ? for help."),
            ("16", "There is no move 16: type a number from 1 to 15, or ? for help."),
            ("²", "Not a move: not a seat: '²' in '²' (expected N, E, S or W)"),
            ("draw", f"You have drawn already. {rules_line(['R13'])}"),
            ("discard 9c", f"You do not hold 9c. {rules_line(['R18'])}"),
            ("E discard 9h", f"It is your turn, not E's. {rules_line(['R6'])}"),
            ("lay 7s on 4c", f"No meld on the table holds 4c. {rules_line(['R17'])}"),
            ("meld Qc Qd", f"A meld needs three or more cards, not 2. {rules_line(['R9'])}"),
            ("discard X9", "Not a move: not a card: 'X9' in 'X9'"),
        ],
    )
    def test_answers(self, answer: str, expected: object) -> None:
        state, _, _, _ = _history()
        assert expected == command.read_move(answer, state, legal_actions(observe(state, 0)))


class Transcript:
    """
    Plays a game in this process as a person who answers by a rule, and keeps the text of the
    screens, the prompts and the answers, as a terminal that echoes what is typed shows them.
    """

    def __init__(
        self, answer: Callable[[str, int], str], answers: Sequence[str | None] = (), enter: str | None = ""
    ) -> None:
        self.answer, self.scripted, self.enter = answer, list(answers), enter
        self.text = io.StringIO()
        self.screen = ""
        self.prompts = 0

    def show(self, lines: Sequence[screen.Line]) -> None:
        self.text.write(screen.plain(lines))

    def ask(self, prompt: str) -> str | None:
        written = self.text.getvalue()
        self.screen = written[written.rfind("Your moves:") :] if "Your moves:" in written else ""
        if self.scripted:
            answer = self.scripted.pop(0)
        else:
            answer = self.enter if prompt.startswith("Press Enter") else self.answer(self.screen, self.prompts)
        self.prompts += 1
        self.text.write(prompt + ("" if answer is None else answer + "\n"))
        return answer


def first_move_in_notation(screen_text: str) -> str:
    """
    The first move of the screen's list, written in action notation from what the screen shows.
    """
    first = screen_text.splitlines()[1]
    label, _, item = first.strip().partition(" ")
    words = item.strip().removeprefix("1) ").split("   2) ")[0]
    words = re.sub(r" and \d+ cards? above it$", "", words)
    return label if label in {"draw", "pass"} else f"{label} {words}"


#: The bad answers given, by the number of the prompt, and the line each gets.
BAD = {
    2: ("0", "There is no move 0: type 1, the only move, or ? for help."),
    4: (
        "tkae 8s",
        "Not a move: unknown action 'tkae' in 'tkae 8s' (expected draw, take, meld, lay, discard or pass)",
    ),
    6: ("discard X9", "Not a move: not a card: 'X9' in 'X9'"),
    8: ("", "Type a move's number or the move in notation (? for help)."),
}


def mixed_answers(screen_text: str, prompt: int) -> str:
    """
    The first legal move, by its number or in notation in turn, and a bad answer at the prompts of `BAD`.
    """
    if prompt in BAD:
        return BAD[prompt][0]
    return "1" if prompt % 2 else first_move_in_notation(screen_text)


def _options(seed: int) -> command.Options:
    return command.Options(2, "random", "random", seed, screen.Look(width=WIDTH))


def _environment(**extra: str) -> dict[str, str]:
    dropped = {"NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "PYTHONIOENCODING", "TERM", "COLORTERM"}
    kept = {name: value for name, value in os.environ.items() if name not in dropped}
    path = os.pathsep.join(part for part in (str(SRC), kept.get("PYTHONPATH", "")) if part)
    return kept | {"TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": path} | extra


def _spawn(*args: str, **extra: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-c", CHILD, "play", "--plain", *args],
        env=_environment(**extra),
        encoding="utf-8",
        dimensions=(40, WIDTH),
        timeout=120,  # only a prompt that never comes fails: a loaded machine may take seconds for one
    )


def _drive(child: pexpect.spawn[str], answer: Callable[[str, int], str]) -> tuple[str, str]:
    """
    Answer every prompt of *child* by *answer* until it ends: the raw text it wrote, and the text
    as read (escape sequences out, line ends as in a file).  Offered another game once the game is
    over, say no: the offer and its answer are left out of the text.
    """
    raw = io.StringIO()
    last = ""
    prompts = 0
    while True:
        index = child.expect([PROMPT, ENTER, pexpect.EOF, AGAIN])
        raw.write(_text(child.before))
        if index == 2:
            break
        if index == 3:  # the game is over; no other, and the program ends at once
            child.sendline("n")
            assert 0 == child.expect([pexpect.EOF, PROMPT, ENTER, AGAIN])
            raw.write(_text(child.before).partition("\n")[2])  # what followed the answer
            break
        raw.write(_text(child.after))
        seen = _read(raw.getvalue())
        last = seen[seen.rfind("Your moves:") :] if "Your moves:" in seen else last
        child.sendline("" if index == 1 else answer(last, prompts))
        prompts += 1
    child.close()
    return raw.getvalue(), _read(raw.getvalue())


def _text(value: object) -> str:
    """
    What pexpect read, which is text since the child is spawned with an encoding.
    """
    assert isinstance(value, str)
    return value


def _read(raw: str) -> str:
    return ESCAPES.sub("", raw).replace("\r\n", "\n")


@pytest.fixture(scope="module")
def terminal_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[int | None, str, str, Path]:
    """
    A whole game of seed 3 played in a terminal with `mixed_answers`: its exit status, what it
    wrote, that text as read, and its record.
    """
    path = tmp_path_factory.mktemp("play") / "game.json"
    child = _spawn("--seed", "3", *BOTS, "--record", str(path))
    raw, text = _drive(child, mixed_answers)
    return child.exitstatus, raw, text, path


@pytest.mark.once
class TestInTheTerminal:
    """
    "A person plays a whole game in the terminal against the bots" (docs/play.md), driven here
    through a real pseudo-terminal: every prompt answered, bad answers explained, the game played
    to its winner.
    """

    def test_a_whole_game_ends_with_the_winner(self, terminal_game: tuple[int | None, str, str, Path]) -> None:
        code, _, text, _ = terminal_game
        assert 0 == code
        assert "N-S win, 171 to 133. You win!" == text.rstrip("\n").splitlines()[-1]
        assert 2 == text.count("Score of deal ")
        assert "Traceback" not in text

    def test_the_terminal_shows_what_the_same_game_in_this_process_shows(
        self, terminal_game: tuple[int | None, str, str, Path]
    ) -> None:
        _, _, text, _ = terminal_game
        played = Transcript(mixed_answers)
        state, _, finished = command.play(_options(3), played.show, played.ask)
        assert (True, Phase.GAME_OVER) == (finished, state.phase)
        assert played.text.getvalue() == text

    def test_the_first_screen(self, terminal_game: tuple[int | None, str, str, Path]) -> None:
        _, _, text, _ = terminal_game
        assert FIRST_SCREEN_OF_SEED_3 == text[: len(FIRST_SCREEN_OF_SEED_3)]

    def test_each_bad_answer_gets_one_line_and_the_prompt_again(
        self, terminal_game: tuple[int | None, str, str, Path]
    ) -> None:
        _, _, text, _ = terminal_game
        for answer, explanation in BAD.values():
            assert re.search(rf": {re.escape(answer)}\n{re.escape(explanation)}\n{PROMPT.pattern}", text)

    def test_colours_in_a_terminal(self, terminal_game: tuple[int | None, str, str, Path]) -> None:
        _, raw, _, _ = terminal_game
        assert "\x1b[31m7♦\x1b[0m" in raw
        assert COLOURS.search(raw)

    def test_the_record_replays_to_the_same_final_state(
        self, terminal_game: tuple[int | None, str, str, Path], capsys: pytest.CaptureFixture[str]
    ) -> None:
        _, _, _, path = terminal_game
        record = from_json(path.read_text(encoding="utf-8"), GameRecord)
        played = Transcript(mixed_answers)
        state, actions, _ = command.play(_options(3), played.show, played.ask)
        assert (actions, state) == (record.actions, final_state(record))
        assert ("random", "random", "person", "random") == record.players
        assert "persian-rummy play, seed 3" == record.event
        assert 0 == main(["replay", str(path)])
        assert "N-S win, 171 to 133." == capsys.readouterr().out.rstrip("\n").splitlines()[-1]

    def test_no_colour_with_no_color(self) -> None:
        child = _spawn("--seed", "3", *BOTS, NO_COLOR="1")
        child.expect(PROMPT)
        raw = _text(child.before)
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert (0, None) == (child.exitstatus, COLOURS.search(raw))
        assert "Your hand (7 cards, by suit): 9♣  7♦  4♥ 8♥  7♠ 9♠  🃏1" in _read(raw)

    def test_letters_where_the_output_cannot_show_the_symbols(self) -> None:
        child = _spawn("--seed", "3", *BOTS, "--sort", "rank", PYTHONIOENCODING="ascii")
        child.expect(PROMPT)
        text = _read(_text(child.before))
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert 0 == child.exitstatus
        assert "Your hand (7 cards, by rank): 4h  7d 7s  8h  9c 9s  X1" in text
        assert "Discard pile (bottom to top): 5s [6d]" in text

    def test_ctrl_c_ends_quietly_with_status_130(self) -> None:
        child = _spawn("--seed", "3", *BOTS)
        child.expect(PROMPT)
        child.sendintr()
        child.expect(pexpect.EOF)
        after = _text(child.before)
        child.close()
        assert 130 == child.exitstatus
        assert "Traceback" not in after
        assert after.endswith("\n")  # the shell's prompt starts a line of its own

    def test_end_of_input_says_how_to_resume(self, tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        child = _spawn("--seed", "3", *BOTS, "--record", str(path))
        child.expect(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
        after = _read(_text(child.before))
        child.close()
        resume = f"the record so far is in {path}: persian-rummy play --resume {path} plays on from there"
        assert 1 == child.exitstatus
        assert f"\npersian-rummy: end of input: the game stopped in deal 1, after 3 actions; {resume}.\n" == after
        assert 3 == len(from_json(path.read_text(encoding="utf-8"), GameRecord).actions)


#: A24's position: N discards 9♠, which E's run takes, and E is asked first (docs/rules.md).
CALLS_POSITION = "rummy_calls=true 1/W play N 9s4c/2h3d/5h6d/8cKs * 2s E:TsJsQs,N:7c7d7h - - - 0 - -"
CALLS_ARGS = ("--rules", "rummy_calls=true")
#: The welcome of a game with the calls of Rummy!, seed 7, the person at S.
CALLS_WELCOME = """\
Persian Rummy: you play S, with N (random), against E (random) and W (random).
Seed 7 (--seed 7 deals the same cards again).  ? shows the help.
Rules: rummy_calls=true (the default rules but for these).
Rummy! calls: when a discard fits a meld, you may be asked: call (take it, lay it off) or decline.
"""
#: The end of the first screen where the person of seed 7 is asked, and the answer.
CALLS_ASKED = """\
Your hand (7 cards, by suit): 10♦ K♦  5♥  2♠ 6♠ 10♠  🃏4
You are asked: E discarded 8♦, which a meld takes: call Rummy! to take it and lay it off now, or decline (A24)

Your moves:
  decline 1) no call on 8♦
  call    2) Rummy! on 8♦: take it, lay it off

Your move (1-2 or notation, ? for help): call
"""
#: The first screen after that call.
CALLS_CALLED = """\
This turn:
  You call Rummy! on 8♦
Table:
   1  5♦ 6♦ 7♦  run laid down by N
Discard pile (bottom to top): [3♣]
Stock: 23 cards
Others: N 7 cards (known: 🃏2), E 7 cards, W 7 cards

Your hand (8 cards, by suit): 8♦ 10♦ K♦  5♥  2♠ 6♠ 10♠  🃏4
You must lay off 8♦ now (you called Rummy! on E's discard; A24)

Your moves:
  lay     1) 8♦ on 5♦
"""


def calls_when_asked(screen_text: str, _prompt: int) -> str:
    """
    Call Rummy! whenever asked, typed as its notation; else the first move, by its number.
    """
    return "call" if "\n  call " in screen_text else "1"


class TestRummyCalls:
    """
    ``--rules rummy_calls=true`` (A24): a person asked whether to call Rummy! on a discard is told
    so, with the two answers numbered; one who calls is told to lay the card off, and does.
    """

    def test_the_screen_of_a_seat_asked(self) -> None:
        state = parse_position(CALLS_POSITION)
        asked = apply(state, parse_action("discard 9s", state))
        view = observe(asked, 1)
        line = screen.asked_line(view, screen.Look())
        assert line is not None
        assert (
            "You are asked: N discarded 9♠, which a meld takes: call Rummy! to take it and lay it off now, or decline"
            " (A24)\n"
        ) == screen.plain([line])
        assert ["  decline 1) no call on 9♠\n", "  call    2) Rummy! on 9♠: take it, lay it off\n"] == [
            screen.plain([line]) for line in screen.move_lines(legal_actions(view), view, screen.Look())
        ]
        assert screen.asked_line(observe(asked, 2), screen.Look()) is None  # S is not asked yet
        assert screen.asked_line(observe(state, 0), screen.Look()) is None
        lines = screen.plain(screen.decision_screen(view, screen.Look(), [], [], legal_actions(view))).splitlines()
        assert lines[-5:] == [
            screen.plain([line]).rstrip("\n"),
            "",
            "Your moves:",
            *(
                screen.plain([move]).rstrip("\n")
                for move in screen.move_lines(legal_actions(view), view, screen.Look())
            ),
        ]
        assert (CallRummy(1), DeclineCall(1)) == tuple(
            command.read_move(word, asked, legal_actions(view)) for word in ("call", "decline")
        )

    def test_the_card_called_on_is_to_lay_off(self) -> None:
        state = parse_position(CALLS_POSITION)
        asked = apply(state, parse_action("discard 9s", state))
        view = observe(apply(apply(asked, DeclineCall(1)), CallRummy(2)), 2)
        line = screen.taken_line(view, screen.Look(symbols=False))
        assert line is not None
        assert "You must lay off 9s now (you called Rummy! on N's discard; A24)\n" == screen.plain([line])
        assert ["  lay     1) 9♠ on 10♠\n"] == [
            screen.plain([line]) for line in screen.move_lines(legal_actions(view), view, screen.Look())
        ]

    @pytest.mark.once
    def test_a_whole_game_with_calls_in_a_terminal(self, tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        child = _spawn("--seed", "7", *BOTS, *CALLS_ARGS, "--record", str(path))
        _, text = _drive(child, calls_when_asked)
        assert 0 == child.exitstatus
        assert text.startswith(CALLS_WELCOME)
        assert CALLS_ASKED in text
        assert CALLS_CALLED in text
        assert (3, "N-S win, -27 to -106. You win!") == (text.count("You are asked: "), text.splitlines()[-1])
        played = Transcript(calls_when_asked)
        options = command.Options(2, "random", "random", 7, screen.Look(width=WIDTH), Rules(rummy_calls=True))
        state, actions, finished = command.play(options, played.show, played.ask)
        assert (True, Phase.GAME_OVER, text) == (finished, state.phase, played.text.getvalue())
        record = from_json(path.read_text(encoding="utf-8"), GameRecord)
        assert (record.rules, record.actions, final_state(record)) == (Rules(rummy_calls=True), actions, state)
        assert [2, 0, 2, 2] == [action.seat for action in actions if isinstance(action, CallRummy)]

    def test_a_game_with_calls_played_on(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 20 + "quit\n"))
        assert 0 == main(["play", "--seed", "7", *BOTS, *CALLS_ARGS, "--record", str(path)])
        capsys.readouterr()
        assert 1 == main(["play", "--resume", str(path), *CALLS_ARGS])
        error = "persian-rummy: --rules: a game played on with --resume keeps the rules of its record\n"
        assert error == capsys.readouterr().err
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--resume", str(path)])
        assert "Rules: rummy_calls=true (the default rules but for these).\n" in capsys.readouterr().out
        whole = from_json(path.read_text(encoding="utf-8"), GameRecord)
        assert (Rules(rummy_calls=True), Phase.GAME_OVER) == (whole.rules, final_state(whole).phase)


class TestThePage:
    """
    The screens of docs/play.md are those of the game they come from: the full screen's of
    tests/data/screens, then in the line mode seed 1 with random bots, South answering 1 at every
    prompt, and three wrong answers at the screen the page shows.
    """

    def test_the_screens_of_the_page(self) -> None:
        blocks = re.findall(r"```text\n(.*?)```", (DOCS / "play.md").read_text(encoding="utf-8"), re.DOTALL)
        full, shown, wrong, end = blocks
        assert (DATA / "screens" / "taken-80x24.txt").read_text(encoding="utf-8") == full
        answers = {45: "7", 46: "discard 2s", 47: "tkae 7s"}
        played = Transcript(lambda _screen, prompt: answers.get(prompt, "1"))
        command.play(_options(1), played.show, played.ask)
        text = played.text.getvalue()
        assert f"\n\n{shown[:-1]} 7\n" in text
        assert f"\n{wrong}Your move (1-3 or notation, ? for help): 1\n" in text
        assert text.endswith(f"\n{end}")


class TestCommandLine:
    """
    ``persian-rummy play [--seat S] [--partner BOT] [--opponents BOT] [--seed S] [--record FILE]``:
    the seat by letter or number, the bots by name, the seed of the deals, the record checked
    before the game; without rich, one line saying how to install it (docs/play.md).
    """

    def test_the_default_bot_is_the_strongest_cheap_one(self) -> None:
        assert ("greedy" if "greedy" in PLAYER_NAMES else "random") == command.DEFAULT_BOT

    @pytest.mark.parametrize(("text", "seat"), [("N", 0), ("e", 1), ("S", 2), (" w ", 3), ("0", 0), ("3", 3)])
    def test_seats(self, text: str, seat: int) -> None:
        assert seat == command.seat_argument(text)

    @pytest.mark.parametrize(
        "argv",
        [
            ["--seat", "X"],
            ["--seat", "4"],
            ["--partner", "nobody"],
            ["--record", "-"],
            ["--rules", "rummy_calls=maybe"],
        ],
    )
    def test_a_wrong_command_line(self, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as info:
            main(["play", *argv])
        assert 2 == info.value.code
        assert capsys.readouterr().err.splitlines()[-1].startswith("persian-rummy play: error: argument")

    def test_a_whole_game_from_standard_input(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--seat", "W", "--seed", "5", *BOTS, "--record", str(path)])
        out = capsys.readouterr().out
        record = from_json(path.read_text(encoding="utf-8"), GameRecord)
        assert ("random", "random", "random", "person") == record.players
        assert Phase.GAME_OVER is final_state(record).phase
        assert screen.plain([screen.result_line(observe(final_state(record), 3))]) == out.splitlines(keepends=True)[-1]
        assert "\x1b" not in out

    def test_the_record_file_is_checked_before_the_game(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 1 == main(["play", "--seed", "5", "--record", str(tmp_path / "missing" / "game.json")])
        out, err = capsys.readouterr()
        assert ("", f"persian-rummy: {tmp_path / 'missing' / 'game.json'}: No such file or directory\n") == (out, err)

    def test_quit_and_end_of_input_write_the_record_so_far(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        resume = f"the record so far is in {path}: persian-rummy play --resume {path} plays on from there"
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        assert 0 == main(["play", "--seed", "5", "--record", str(path)])
        out, err = capsys.readouterr()
        assert (f"You stopped the game in deal 1, after 3 actions; {resume}.\n", "") == (out.splitlines(True)[-1], err)
        assert 3 == len(from_json(path.read_text(encoding="utf-8"), GameRecord).actions)
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))
        assert 1 == main(["play", "--seed", "5", "--record", str(path)])
        where = "deal 1, after 5 actions"
        assert f"persian-rummy: end of input: the game stopped in {where}; {resume}.\n" == capsys.readouterr().err
        assert ["game.json"] == [file.name for file in tmp_path.iterdir()]

    def test_end_of_input_without_a_record(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        assert 1 == main(["play", "--seed", "5"])
        how = "with --record FILE, the record so far is written to FILE, and play --resume FILE plays on from it"
        assert f"persian-rummy: end of input: the game stopped in deal 1, after 3 actions; {how}.\n" == (
            capsys.readouterr().err
        )

    def test_an_interrupt_leaves_no_record(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", _Interrupting())
        assert 130 == main(["play", "--seed", "5", "--record", str(tmp_path / "game.json")])
        assert [] == list(tmp_path.iterdir())

    def test_without_rich(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        monkeypatch.setitem(sys.modules, "rich.console", None)
        with pytest.raises(SystemExit) as info:
            main(["play", "--seed", "1"])
        assert 1 == info.value.code
        assert ("", command.NEEDS_RICH + "\n") == capsys.readouterr()

    def test_a_seed_is_drawn_and_shown_when_none_is_given(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        assert 1 == main(["play"])
        second = capsys.readouterr().out.splitlines()[1]
        assert re.fullmatch(r"Seed (\d+) \(--seed \1 deals the same cards again\)\.  \? shows the help\.", second)

    def test_help_sort_and_a_long_line(self) -> None:
        long = "x" * 20_000
        played = Transcript(mixed_answers, ["?", "sort", long, "sort", "quit"])
        state, actions, finished = command.play(_options(3), played.show, played.ask)
        text = played.text.getvalue()
        assert (False, 3) == (finished, len(actions))
        assert all(line in text for line in command.HELP)
        assert "Your hand (7 cards, by rank): 4♥  7♦ 7♠  8♥  9♣ 9♠  🃏1\n" in text
        assert "Not a move: action text too long (20,000 characters)\n" in text
        assert state.phase is Phase.DRAW

    @pytest.mark.parametrize("enter", [None, "quit"])
    def test_stopping_between_deals(self, enter: str | None) -> None:
        played = Transcript(lambda _screen, _prompt: "1", enter=enter)
        state, _, finished = command.play(_options(3), played.show, played.ask)
        assert (False, Phase.DEAL_OVER, 1) == (finished, state.phase, len(state.results))
        assert played.text.getvalue().endswith("Press Enter for deal 2: " + ("" if enter is None else "quit\n") + "\n")

    def test_answers_that_are_not_utf_8(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\n"), encoding="utf-8"))
        assert 1 == main(["play", "--seed", "5", *BOTS])
        assert "Not a move: not a seat: '\ufffd' in '\ufffd' (expected N, E, S or W)\n" in capsys.readouterr().out

    def test_a_long_line_is_read_only_so_far(self) -> None:
        stream = io.StringIO("y" * 30_000 + "\n1\n")
        assert 10_001 == len(command.read_answer(stream) or "")
        assert "1" == command.read_answer(stream)
        assert command.read_answer(stream) is None
        assert command.read_answer(None) is None


class _Interrupting:
    """
    Standard input at which the person presses Ctrl-C.
    """

    closed = False

    def readline(self, _size: int = -1, /) -> str:
        raise KeyboardInterrupt
