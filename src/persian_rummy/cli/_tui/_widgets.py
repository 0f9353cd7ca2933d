"""
The widgets of the full-screen game: a row of cards that wraps to its width and says which card
was clicked, and the line the person types moves in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from ...cards import Card, by_rank
from .. import _screen

#: A card's place in a row: its line, its first and last column (past the end), and the card.
_Spot = tuple[int, int, int, Card]
#: The style of the card under the cursor, and of the cards selected.
CURSOR = "reverse"
SELECTED = "bold black on yellow"


def text_of(lines: Iterable[_screen.Line]) -> Text:
    """
    The lines of the line mode's screen as one rich text, styled as there.
    """
    return Text("\n").join(Text.assemble(*line) for line in lines)


class CardRow(Widget):
    """
    Cards in a row after a label, wrapped to the widget's width; a click on a card posts `CardRow.Clicked`.
    """

    class Clicked(Message):
        """
        A card of *row* was clicked.
        """

        def __init__(self, row: CardRow, card: Card) -> None:
            super().__init__()
            self.row, self.card = row, card

    def __init__(self, label: str, *, id: str) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self.label = label
        self.cards: list[Card] = []
        self.look = _screen.Look()
        self.marks: dict[Card, str] = {}
        self.groups = False
        self.spots: list[_Spot] = []

    def show(
        self, cards: Sequence[Card], look: _screen.Look, marks: dict[Card, str] | None = None, *, groups: bool = False
    ) -> None:
        """
        Show *cards* in the order given, each with its mark's style; *groups* leaves a gap between suits or ranks.
        """
        self.cards, self.look, self.marks, self.groups = list(cards), look, dict(marks or {}), groups
        self.refresh(layout=True)

    def _pieces(self) -> list[tuple[str, str, Card | None, int]]:
        """
        The label and each card: its text, its style, the card, and the gap before it.
        """
        pieces: list[tuple[str, str, Card | None, int]] = [(self.label, "bold", None, 0)]
        previous: Card | None = None
        for card in self.cards:
            text, style = _screen.card(card, self.look, self.marks.get(card, ""))
            same = previous is not None and (
                by_rank(previous)[0] == by_rank(card)[0] if self.look.by_rank else previous.suit == card.suit
            )
            gap = 0 if previous is None else (1 if same or not self.groups else 2)
            pieces.append((text, style, card, gap))
            previous = card
        if not self.cards:
            pieces.append(("-", "", None, 0))
        return pieces

    def _layout(self, width: int) -> tuple[list[list[tuple[int, str, str]]], list[_Spot]]:
        lines: list[list[tuple[int, str, str]]] = [[]]
        spots: list[_Spot] = []
        column = 0
        indent = cell_len(self.label)
        for text, style, card, before in self._pieces():
            size = cell_len(text)
            gap = before
            if card is not None and column + gap + size > max(width, indent + size):
                lines.append([])
                column, gap = indent, 0
            column += gap
            lines[-1].append((column, text, style))
            if card is not None:
                spots.append((len(lines) - 1, column, column + size, card))
            column += size
        return lines, spots

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:  # noqa: ARG002 (Textual's)
        return len(self._layout(width)[0])

    def render(self) -> Text:
        lines, self.spots = self._layout(self.size.width)
        result = Text()
        for number, line in enumerate(lines):
            if number:
                result.append("\n")
            column = 0
            for start, text, style in line:
                result.append(" " * (start - column))
                result.append(text, style=style or None)
                column = start + cell_len(text)
        return result

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, start, end, card in self.spots:
            if line == offset.y and start <= offset.x < end:
                self.post_message(self.Clicked(self, card))
                return


class Entry(Input):
    """
    The line a move is typed in.  While it is empty, ← and → move the cursor over the hand,
    space selects the card under it and ? asks for the help; Tab takes the completion shown.
    """

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]  # noqa: RUF012 (Textual's declaration)

    class Cards(Message):
        """
        Move the hand's cursor by *step* cards, or with *step* 0 select the card under it.
        """

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Help(Message):
        """
        Show the help.
        """

    def action_cursor_left(self, select: bool = False) -> None:
        if self.value:
            super().action_cursor_left(select)
        else:
            self.post_message(self.Cards(-1))

    def action_cursor_right(self, select: bool = False) -> None:
        if self.value:
            super().action_cursor_right(select)
        else:
            self.post_message(self.Cards(1))

    def action_complete(self) -> None:
        if self._suggestion:
            self.value = self._suggestion
            self.cursor_position = len(self.value)

    async def _on_key(self, event: events.Key) -> None:
        if not self.value and event.character in {" ", "?"}:
            event.stop()
            event.prevent_default()
            self.post_message(self.Cards(0) if event.character == " " else self.Help())
            return
        await super()._on_key(event)
