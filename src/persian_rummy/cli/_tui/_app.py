"""
The full-screen game of ``persian-rummy play``, a Textual app over a `persian_rummy.cli._game.Table`.

The screen shows the deal and the scores, the melds on the table, what the others did since the
person's last turn, the discard pile and the stock, the other hands' sizes, the person's hand as
cards, the card taken that must be played (R15) or the discard the person is asked to call
"Rummy!" on (A24), the legal moves, numbered, and the line the
person types in.  A move is played by its number or its notation typed in that line (Tab or →
takes the completion shown), by ↑ ↓ and Enter in the list of moves, or with the mouse: a click
on a move plays it, a click on a card of the pile takes it, a click on cards of the hand selects
them, and then a click on a meld lays them off onto it, or Enter melds or discards them.  The
end of each deal shows its score, item by item; ? shows the help.  The bots act after a pause
(`PlayApp.delay`), so that each of their actions can be seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Final

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...actions import Discard, LayDown, LayOff, PlayerAction
from ...cards import Card, by_rank
from ...wording import describe
from .. import _game, _screen
from ._widgets import CURSOR, SELECTED, CardRow, Entry, text_of

#: The keys and clicks of the game, shown by the help.
KEYS: Final = (
    "Keys: type a move's number or its notation, then Enter; Tab or → takes the completion shown.",
    "↑ and ↓ choose in the list of moves, and Enter on the empty line plays the move chosen.",
    (
        "With the line empty, ← and → go over your hand and space selects the card under the cursor;"
        " Enter then melds or discards the cards selected, and Esc clears the selection."
    ),
    (
        "Mouse: click a move to play it, a card of the discard pile to take it, cards of your hand to"
        " select them, then a meld of the table to lay them off onto it."
    ),
    "Ctrl+U clears the line you type in; Ctrl+S sorts your hand by rank or by suit; Ctrl+Q stops the game (it asks).",
    "",
)


#: The rows of the list of moves on a screen of fewer than `TALL` rows (a screen of 80×24), scrolled beyond.
FEW_MOVES: Final = 6
TALL: Final = 40
#: The rows of a screen from which the melds take the room they need and the moves of the deal are listed under them.
ROOMY: Final = 48
#: The width of the table's pane from which each meld is shown in full: who laid it down and who laid off what.
WIDE_TABLE: Final = 90


class TextScreen(ModalScreen[None]):
    """
    Text over the game, scrolled if it is longer than the screen, closed by Enter or Escape.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Go on"),
        Binding("escape", "close", "Go on", show=False),
        Binding("question_mark", "close", show=False),
    ]

    def __init__(self, lines: Sequence[_screen.Line], title: str, *, name: str) -> None:
        super().__init__(name=name)
        self.lines, self.title_text = lines, title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="text-pane") as pane:
            pane.border_title = self.title_text
            pane.border_subtitle = "Enter: go on"
            yield Static(text_of(self.lines), id="text")

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """
    Whether to stop the game: Ctrl+Q again, y or Enter stop it; n or Escape play on.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "answer(True)", "Stop", priority=True),
        Binding("y", "answer(True)", "Stop"),
        Binding("enter", "answer(True)", "Stop", show=False),
        Binding("n", "answer(False)", "Play on"),
        Binding("escape", "answer(False)", "Play on", show=False),
    ]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(name="quit")
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="quit-pane") as pane:
            pane.border_title = "Stop the game?"
            yield Static("\n".join(self.lines), id="quit-text")

    def action_answer(self, stop: bool) -> None:
        self.dismiss(stop)


class PlayApp(App[str]):
    """
    A person's game on the full screen; `App.run` returns how it ended: ``"over"``, ``"quit"``
    (Ctrl+Q) or ``"interrupted"`` (Ctrl+C).
    """

    CSS_PATH = Path(__file__).with_name("play.tcss")
    TITLE = "Persian Rummy"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("ctrl+s", "sort", "Sort"),
        Binding("ctrl+q", "stop", "Quit", priority=True),
        Binding("ctrl+c", "interrupt", "Interrupt", show=False, priority=True),
        Binding("up", "moves('up')", "Moves", show=False),
        Binding("down", "moves('down')", "Moves", show=False),
        Binding("escape", "clear", "Clear", show=False),
    ]

    def __init__(self, table: _game.Table, delay: float, *, recorded: bool = False) -> None:
        super().__init__()
        self.table, self.delay, self.recorded = table, delay, recorded
        self.offered: list[PlayerAction] = []
        self.selected: set[Card] = set()
        self.cursor = 0
        #: What the game waits for: ``"move"`` from the person, ``"deal"`` (the deal's end shown), or None (the bots).
        self.waiting: str | None = None
        #: The answer just refused, said on the status line until the next key.
        self.error = ""

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="top"):
            with Vertical(id="table-side"):
                yield OptionList(id="melds")
                with VerticalScroll(id="log-pane"):
                    yield Static(id="log")
            with VerticalScroll(id="news-pane"):
                yield Static(id="news")
        yield CardRow("Discard pile: ", id="pile")
        yield Static(id="info")
        yield CardRow("Your hand: ", id="hand")
        yield Static(id="taken")
        yield OptionList(id="moves")
        yield Entry(placeholder="a move's number or notation; ? for help", id="entry")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#melds").border_title = "Table"
        self.query_one("#news-pane").border_title = "Since your last turn"
        self.query_one("#log-pane").border_title = "This deal"
        self.query_one("#moves").border_title = "Your moves"
        self._say(text_of(self.table.welcome()[:1]).plain)
        self.query_one(Entry).focus()
        self._go_on()

    # -- the game going on -----------------------------------------------------------------------------------------

    def _go_on(self) -> None:
        """
        Let the bots act up to the person's move or the end of a deal, after a pause each if there is one.
        """
        table = self.table
        self.waiting = None
        while not self.delay and not table.deal_over and not table.persons_turn:
            table.advance()
        if table.deal_over:
            self._draw()
            self._deal_over()
        elif table.persons_turn:
            self._draw()
            self.waiting = "move"
            self._forget()
        else:
            self.set_timer(self.delay, self._bot_acts)

    def _bot_acts(self) -> None:
        self.table.advance()
        self._draw()
        self._go_on()

    def _deal_over(self) -> None:
        table = self.table
        view = table.view()
        lines: list[_screen.Line] = [*_screen.score_lines(view), ()]
        if table.over:
            lines = [_screen.result_line(view), (), *lines]
        lines += [(("Cards left in hand:", _screen.HEADING),), *_screen.left_lines(view, table.look), ()]
        lines += _screen.table_lines(view, table.look)
        if table.news:
            lines += [(), (("Since your last turn:", _screen.HEADING),), *table.news]
        title = "The game is over" if table.over else f"Deal {view.deal} is over"
        self.waiting = "deal"
        self.push_screen(TextScreen(lines, title, name="deal-over"), self._after_deal)

    def _after_deal(self, _result: None) -> None:
        if self.table.over:
            self.exit("over")
            return
        self.table.next_deal()
        self.table.advance()  # the next deal
        self._go_on()

    def _act(self, move: PlayerAction) -> None:
        if self.waiting != "move":
            return
        self.selected.clear()
        self.query_one(Entry).value = ""
        self._say("")
        self.table.play(move)
        self._go_on()

    # -- drawing -----------------------------------------------------------------------------------------------------

    def _draw(self) -> None:
        table = self.table
        view, look = table.view(), table.look
        self.offered = table.moves() if table.persons_turn else []
        seed = f"  Seed {table.options.seed}.  ? help"
        self.query_one("#header", Static).update(text_of([(*_screen.header_line(view), (seed, ""))]))
        melds = self.query_one("#melds", OptionList)
        melds.clear_options()
        wide = melds.size.width >= WIDE_TABLE
        lines = _screen.table_lines(view, look)[1:] if wide and view.melds else _screen.meld_lines(view, look)
        melds.add_options([Option(_hanging(line)) for line in lines] or ["no melds yet"])
        melds.scroll_end(animate=False)  # the newest meld in view
        told = [*table.news, *([(("This turn:", _screen.HEADING),), *table.turn] if table.turn else [])]
        self.query_one("#news", Static).update(text_of(told or [(("nothing yet", ""),)]))
        self.query_one("#news-pane", VerticalScroll).scroll_end(animate=False)
        self.query_one("#log", Static).update(text_of(table.log or [(("nothing yet", ""),)]))
        self.query_one("#log-pane", VerticalScroll).scroll_end(animate=False)
        pile = view.discard_pile
        self.query_one("#pile", CardRow).show(pile, look, {pile[-1]: _screen.TOP} if pile else {})
        self.query_one("#info", Static).update(
            text_of([_screen.pile_lines(view, look)[1], _screen.others_line(view, look)])
        )
        self._draw_hand()
        taken = _screen.taken_line(view, look) or _screen.asked_line(view, look)
        self.query_one("#taken", Static).update(text_of([taken] if taken else []))
        self.query_one("#taken").display = taken is not None
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(
            [Option(text_of([_screen.move_line(n, m, view, look)])) for n, m in enumerate(self.offered, 1)]
        )
        if self.offered:
            moves.highlighted = 0
        words = [*_game.notations(self.offered, table.state), _game.SORT, "help", "quit"]
        self.query_one(Entry).suggester = SuggestFromList(words, case_sensitive=False)

    def on_resize(self, event: events.Resize) -> None:
        """
        The list of moves keeps to a few lines on a small screen, so that the table keeps its room;
        a wide table shows who laid down and laid off each card in full; on a screen of `ROOMY` rows
        or more the melds take the rows they need and the moves of the deal fill the rest under them.
        """
        moves = self.query_one("#moves", OptionList)
        moves.styles.max_height = FEW_MOVES if event.size.height < TALL else int(event.size.height * 0.35)
        roomy = event.size.height >= ROOMY
        self.query_one("#log-pane").display = roomy
        melds = self.query_one("#melds", OptionList)
        melds.styles.height = "auto" if roomy else "1fr"
        melds.styles.max_height = "60%" if roomy else None
        if self.table.persons_turn:
            self.call_after_refresh(self._draw)

    def _hand(self) -> list[Card]:
        hand = self.table.view().hand or ()
        return sorted(hand, key=by_rank) if self.table.look.by_rank else list(hand)

    def _draw_hand(self) -> None:
        table, hand = self.table, self._hand()
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        view = table.view()
        marks = dict.fromkeys(view.picked, "underline")
        if view.obligation is not None:
            marks[view.obligation] = _screen.PENDING
        marks |= dict.fromkeys(self.selected, SELECTED)
        if hand and self.query_one(Entry).value == "" and self.waiting == "move":
            marks[hand[self.cursor]] = f"{marks.get(hand[self.cursor], '')} {CURSOR}".strip()
        self.query_one("#hand", CardRow).show(hand, table.look, marks, groups=True)

    def _say(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _refuse(self, text: str) -> None:
        """
        Say why the answer was refused, until the next key.
        """
        self.error = text
        self._say(text)
        self.query_one("#status").set_class(True, "error")

    def _forget(self) -> None:
        """
        The next key after a refusal: the line says again what Enter does, and the list of moves
        shows the move of the cards selected, if there is one, or none while cards are selected.
        """
        moves = self.query_one("#moves", OptionList)
        if self.selected:
            fitting = self._fitting()
            moves.highlighted = self.offered.index(fitting[0]) if len(fitting) == 1 else None
        elif moves.highlighted is None and self.offered:
            moves.highlighted = 0
        if self.error:
            self.error = ""
            self.query_one("#status").set_class(False, "error")
        self._say(self._enter_words())

    def _enter_words(self) -> str:
        """
        What Enter does now, for the status line.
        """
        if self.waiting != "move":
            return ""
        if self.query_one(Entry).value.strip():
            return "Enter: play the move typed"
        if self.selected:
            fitting = self._fitting()
            if len(fitting) == 1:
                return f"Enter: {describe(fitting[0], symbols=self.table.look.symbols)}"
            return "Enter: nothing yet (the cards selected are no meld or discard; click a meld to lay them off)"
        index = self.query_one("#moves", OptionList).highlighted
        if index is not None and index < len(self.offered):
            return f"Enter: {describe(self.offered[index], symbols=self.table.look.symbols)} (move {index + 1})"
        return ""

    def _fitting(self) -> list[PlayerAction]:
        return [move for move in self.offered if _uses(move, self.selected) and not isinstance(move, LayOff)]

    # -- the person's input ------------------------------------------------------------------------------------------

    def on_input_submitted(self, event: Entry.Submitted) -> None:
        answer = event.value.strip()
        word = answer.lower()
        if self.waiting != "move":
            return
        if word in _game.QUIT:
            self.exit("quit")
        elif word in _game.HELP_WORDS:
            self.action_help()
        elif word == _game.SORT:
            event.input.value = ""
            self.action_sort()
        elif not answer:
            self._enter()
        else:
            move = _game.read_move(answer, self.table.state, self.offered, symbols=self.table.look.symbols)
            if isinstance(move, str):
                event.input.value = ""
                self._refuse(move)
            else:
                self._act(move)

    def on_input_changed(self, event: Entry.Changed) -> None:
        if event.value:  # a key typed: the error of the answer before goes
            self._forget()
        self._draw_hand()

    def _enter(self) -> None:
        """
        Enter on the empty line: the moves of the cards selected, or the move highlighted in the list.
        """
        if not self.selected:
            index = self.query_one("#moves", OptionList).highlighted
            if index is not None and index < len(self.offered):
                self._act(self.offered[index])
            return
        fitting = self._fitting()
        if len(fitting) == 1:
            self._act(fitting[0])
        else:
            self._refuse("No meld or discard of just the cards selected: click a meld to lay them off, or Esc.")

    def on_entry_cards(self, event: Entry.Cards) -> None:
        hand = self._hand()
        if not hand or self.waiting != "move":
            return
        if event.step:
            self.cursor = (self.cursor + event.step) % len(hand)
        else:
            self.selected ^= {hand[self.cursor]}
        self._forget()
        self._draw_hand()

    def on_entry_help(self, _event: Entry.Help) -> None:
        self.action_help()

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        if self.waiting != "move":
            return
        if event.row.id == "hand":
            self.selected ^= {event.card}
            self._forget()
            self._draw_hand()
            return
        move = _game.read_move(f"take {event.card}", self.table.state, self.offered, symbols=self.table.look.symbols)
        if isinstance(move, str):
            self._refuse(move)
        else:
            self._act(move)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "moves" and not self.error:
            self._say(self._enter_words())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "moves":
            if event.option_index < len(self.offered):
                self._act(self.offered[event.option_index])
        else:
            self._lay_off(event.option_index)
        self.query_one(Entry).focus()

    def _lay_off(self, meld: int) -> None:
        fitting = [
            move
            for move in self.offered
            if isinstance(move, LayOff) and move.meld == meld and _uses(move, self.selected)
        ]
        if fitting:
            self._act(fitting[0])
        elif self.waiting == "move":
            self._refuse(f"Select cards of your hand that you may lay off onto meld {meld + 1}, then click it.")

    # -- actions of the keys -------------------------------------------------------------------------------------------

    def action_help(self) -> None:
        rules = self.table.state.rules
        lines = [((line, ""),) for line in (*KEYS, *_game.help_lines(rules), "", *_game.rules_lines(rules))]
        self.push_screen(TextScreen(lines, "Help", name="help"))

    def action_sort(self) -> None:
        self.table.sort()
        if self.table.persons_turn:
            self._draw()

    def action_stop(self) -> None:
        if isinstance(self.screen, QuitScreen):  # asked already: the second Ctrl+Q stops
            self.exit("quit")
            return
        lines = ["Ctrl+Q again, y or Enter: stop the game.  n or Esc: play on."]
        if not self.recorded:
            lines.append(
                "This game is not recorded: it cannot be played on later.  To keep a record of a game, and play it"
                " on with --resume FILE, start it with --record FILE."
            )
        self.push_screen(QuitScreen(lines), self._stop)

    def _stop(self, stop: bool | None) -> None:
        if stop:
            self.exit("quit")

    def action_interrupt(self) -> None:
        self.exit("interrupted")

    def action_clear(self) -> None:
        self.selected.clear()
        self.query_one(Entry).value = ""
        self._forget()
        self._draw_hand()

    def action_moves(self, way: str) -> None:
        if self.selected:  # the list chooses again: Enter plays the move highlighted
            self.selected.clear()
            self._draw_hand()
        moves = self.query_one("#moves", OptionList)
        if way == "up":
            moves.action_cursor_up()
        else:
            moves.action_cursor_down()
        self._forget()


def _hanging(line: _screen.Line) -> Table:
    """
    A meld's line with its number apart, so that a long line wraps under its cards, not under the number.
    """
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text.assemble(line[0]), Text.assemble(*line[1:]))
    return grid


def _uses(move: PlayerAction, cards: set[Card]) -> bool:
    """
    Whether *move* plays exactly *cards* from the hand.
    """
    match move:
        case LayDown(cards=laid) | LayOff(cards=laid):
            return set(laid) == cards
        case Discard(card=card):
            return {card} == cards
        case _:
            return False


def play(table: _game.Table, *, delay: float, recorded: bool = False) -> str:
    """
    Play *table*'s game on the full screen, the bots pausing *delay* seconds before each action;
    ``"over"`` when it is played out, ``"quit"`` when the person stopped it.  *recorded* says
    whether the game is recorded (``--record``), which Ctrl+Q's question tells.

    Raises:
        KeyboardInterrupt: the person pressed Ctrl+C, as in the line mode.
    """
    ending = PlayApp(table, delay, recorded=recorded).run() or "quit"
    if ending == "interrupted":
        raise KeyboardInterrupt
    return ending
