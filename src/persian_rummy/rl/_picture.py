"""
A picture of the table as an array of pixels, for the environments' render mode ``"rgb_array"``.

`picture` draws a state, or what one seat sees of it (a `View`), on a canvas of a fixed size,
`HEIGHT` by `WIDTH` pixels, as an array of shape ``(HEIGHT, WIDTH, 3)`` and type ``uint8`` (red,
green, blue): the frames of a game have one shape, as a video recorder wants them.  It is drawn
with NumPy alone, from the scene that `persian_rummy._internal.scene` makes of the position, so it
shows what the text and the SVG pictures show, in their colours, and a view's picture no card that
the view hides:

- at the top, the deal (``1/2``) and the teams' totals, in the teams' colours;
- a row for each seat, N, E, S and W, with its letter in its team's colour, a ``D`` under the
  dealer's, the row of the seat to act on a yellow band: its cards fanned face up, or for a view,
  the cards known to be in the hand face up and the others face down; the card that must still be
  played framed in orange (R15), the other cards taken this turn in light orange, a dot on the
  cards everyone knows to be in the hand;
- the melds on the table, each fanned with a bar under it in its owner's team colour;
- at the bottom, the discard pile from bottom to top (the top card whole) and the stock, face
  down, with the number of its cards.

A card is a white rectangle with its rank and suit in its top left corner (red for diamonds and
hearts, black for clubs and spades, purple for a joker, whose suit is a star), and the suit again
in its middle; a card face down is blue.  Rows too long for the canvas close up their fans, so
every card of a position lies inside the picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import numpy as np

from .._internal import scene as _scene
from ..cards import Card
from ..state import GameState, View

#: The picture's size in pixels: rows, then columns.
HEIGHT: Final = 480
WIDTH: Final = 640

_Canvas: TypeAlias = np.ndarray[Any, np.dtype[np.uint8]]
_Mask: TypeAlias = np.ndarray[Any, np.dtype[np.bool_]]
_Colour: TypeAlias = tuple[int, int, int]
#: A point, (x, y) from the top left corner, and a rectangle, (x, y, width, height).
_Point: TypeAlias = tuple[int, int]
_Box: TypeAlias = tuple[int, int, int, int]


def _rgb(colour: str) -> _Colour:
    """
    A colour written ``#rrggbb`` as its three values.
    """
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


_FELT: Final = _rgb("#e4eee3")
_TURN: Final = _rgb("#fff4c2")
_WHITE: Final = _rgb("#ffffff")
_JOKER_FACE: Final = _rgb("#fbf7ff")
_EDGE: Final = _rgb("#7a7a7a")
_BACK: Final = _rgb("#27477a")
_BACK_EDGE: Final = _rgb("#16294a")
_BACK_INNER: Final = _rgb("#9fb4d9")
_INK: Final = _rgb("#1a1a1a")
_MUTED: Final = _rgb("#5f6b63")
_PENDING: Final = _rgb("#e65100")
_PICKED: Final = _rgb("#ffb74d")
_KNOWN: Final = _rgb("#37474f")
#: The teams' colours: seats 0 and 2, then seats 1 and 3 (R1).
_TEAMS: Final = (_rgb("#00796b"), _rgb("#3949ab"))
_BLACK: Final = _rgb("#1a1a1a")
_RED: Final = _rgb("#c62828")
_SUIT_COLOURS: Final = {"♣": _BLACK, "♠": _BLACK, "♦": _RED, "♥": _RED}
_JOKER: Final = _rgb("#6a1b9a")

#: A card's size, and the steps of its fans.
_CARD_W: Final = 30
_CARD_H: Final = 42
_HAND_STEP: Final = 32
_MELD_STEP: Final = 15
_PILE_STEP: Final = 16
_MARGIN: Final = 8

# Where the parts lie: the header, the four hands' rows, the table's rows of melds, the piles.
_HEADER: Final = 30
_HAND_ROW: Final = 56
_HANDS_X: Final = 44
_TABLE_Y: Final = _HEADER + 4 * _HAND_ROW + 4
_MELD_ROW: Final = 48
_MELD_ROWS: Final = 3
_PILES_Y: Final = HEIGHT - _CARD_H - 12
_STOCK_X: Final = WIDTH - 120

#: Letters and digits, 5 pixels high and 3 wide (N 4, W 5); suits and the joker's star, 7 by 7.
_FONT: Final = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "001", "010", "010"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
    "A": ("010", "101", "111", "101", "101"),
    "J": ("001", "001", "001", "101", "010"),
    "Q": ("010", "101", "101", "110", "011"),
    "K": ("101", "101", "110", "101", "101"),
    "X": ("101", "101", "010", "101", "101"),
    "N": ("1001", "1101", "1011", "1001", "1001"),
    "E": ("111", "100", "111", "100", "111"),
    "S": ("011", "100", "010", "001", "110"),
    "W": ("10001", "10001", "10101", "10101", "01010"),
    "D": ("110", "101", "101", "101", "110"),
    "-": ("000", "000", "111", "000", "000"),
    "/": ("001", "001", "010", "100", "100"),
    " ": ("000", "000", "000", "000", "000"),
}
_SUITS: Final = {
    "♣": ("..XXX..", "..XXX..", "XXXXXXX", "XXXXXXX", "XX.X.XX", "...X...", "..XXX.."),
    "♦": ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    "♥": (".XX.XX.", "XXXXXXX", "XXXXXXX", "XXXXXXX", ".XXXXX.", "..XXX..", "...X..."),
    "♠": ("...X...", "..XXX..", ".XXXXX.", "XXXXXXX", "XXXXXXX", "...X...", "..XXX.."),
    "JOKER": ("...X...", "...X...", "XXXXXXX", ".XXXXX.", "..XXX..", ".XX.XX.", "X.....X"),
}


def _bitmap(rows: Sequence[str], scale: int) -> _Mask:
    cells = np.array([[char in "1X" for char in row] for row in rows], dtype=np.bool_)
    return np.repeat(np.repeat(cells, scale, axis=0), scale, axis=1)


_GLYPHS: Final = {(char, scale): _bitmap(rows, scale) for char, rows in _FONT.items() for scale in (1, 2, 3, 4)}
_SUIT_MARKS: Final = {(name, scale): _bitmap(rows, scale) for name, rows in _SUITS.items() for scale in (1, 2)}


# -- painting ------------------------------------------------------------------------------------------------------


def _fill(canvas: _Canvas, box: _Box, colour: _Colour) -> None:
    """
    The rectangle *box* in *colour*, whatever of it lies on the canvas.
    """
    x, y, width, height = box
    left, top = max(x, 0), max(y, 0)
    right, bottom = min(x + width, WIDTH), min(y + height, HEIGHT)
    if left < right and top < bottom:
        canvas[top:bottom, left:right] = colour


def _frame(canvas: _Canvas, box: _Box, colour: _Colour, thickness: int = 1) -> None:
    """
    The border of the rectangle *box*, *thickness* pixels wide inside it.
    """
    x, y, width, height = box
    _fill(canvas, (x, y, width, thickness), colour)
    _fill(canvas, (x, y + height - thickness, width, thickness), colour)
    _fill(canvas, (x, y, thickness, height), colour)
    _fill(canvas, (x + width - thickness, y, thickness, height), colour)


def _stamp(canvas: _Canvas, mask: _Mask, at: _Point, colour: _Colour) -> None:
    """
    *colour* at the pixels of *mask* placed with its top left corner *at*, those on the canvas.
    """
    x, y = at
    height, width = mask.shape
    left, top = max(x, 0), max(y, 0)
    right, bottom = min(x + width, WIDTH), min(y + height, HEIGHT)
    if left < right and top < bottom:
        region = canvas[top:bottom, left:right]
        region[mask[top - y : bottom - y, left - x : right - x]] = colour


def _text_width(text: str, scale: int) -> int:
    return max(sum(int(_GLYPHS[char, scale].shape[1]) + scale for char in text) - scale, 0)


def _text(canvas: _Canvas, text: str, at: _Point, colour: _Colour, scale: int) -> None:
    """
    *text* (the characters of `_FONT`) with its top left corner *at*, *scale* pixels to a dot.
    """
    x, y = at
    for char in text:
        glyph = _GLYPHS[char, scale]
        _stamp(canvas, glyph, (x, y), colour)
        x += glyph.shape[1] + scale


# -- cards ---------------------------------------------------------------------------------------------------------


def _face(card: Card) -> tuple[str, str]:
    """
    What the corner of *card* shows: its rank (``10``, a joker's ``X1``) and its suit's symbol (``JOKER`` for a joker).
    """
    if card.is_joker:
        return str(card), "JOKER"
    symbol = card.symbol
    return symbol[:-1], symbol[-1]


def _card(canvas: _Canvas, card: Card, at: _Point, outline: _Colour | None = None, *, dot: bool = False) -> None:
    """
    *card* face up with its top left corner *at*: framed in *outline* if given, a dot on it if *dot*.
    """
    x, y = at
    rank, suit = _face(card)
    colour = _JOKER if card.is_joker else _SUIT_COLOURS[suit]
    _fill(canvas, (x, y, _CARD_W, _CARD_H), _JOKER_FACE if card.is_joker else _WHITE)
    _frame(canvas, (x, y, _CARD_W, _CARD_H), _EDGE if outline is None else outline, 1 if outline is None else 2)
    # Two characters (10, a joker's X1) are set closer, to stay within the corner a fan shows.
    for place, char in enumerate(rank):
        _text(canvas, char, (x + (3 if len(rank) == 1 else 2 + 6 * place), y + 3), colour, 2)
    _stamp(canvas, _SUIT_MARKS[suit, 1], (x + 3, y + 15), colour)
    _stamp(canvas, _SUIT_MARKS[suit, 2], (x + _CARD_W - 17, y + _CARD_H - 17), colour)
    if dot:
        _fill(canvas, (x + 3, y + _CARD_H - 8, 5, 5), _KNOWN)


def _back(canvas: _Canvas, at: _Point) -> None:
    """
    A card face down with its top left corner *at*.
    """
    x, y = at
    _fill(canvas, (x, y, _CARD_W, _CARD_H), _BACK)
    _frame(canvas, (x, y, _CARD_W, _CARD_H), _BACK_EDGE)
    _frame(canvas, (x + 3, y + 3, _CARD_W - 6, _CARD_H - 6), _BACK_INNER)


def _step(count: int, room: int, widest: int) -> int:
    """
    The step of a fan of *count* cards that fits in *room* pixels, at most *widest*.
    """
    if count < 2:
        return widest
    return max(1, min(widest, (room - _CARD_W) // (count - 1)))


# -- the parts of the table -----------------------------------------------------------------------------------------


def _header(canvas: _Canvas, scene: _scene.Scene) -> None:
    deal = f"{scene.deal}/{scene.rules.num_deals}" if scene.deal else "-"
    _text(canvas, deal, (_MARGIN, 8), _INK, 3)
    right = WIDTH - _MARGIN
    for team in (1, 0):
        words = ("NS ", "EW ")[team] + str(scene.scores[team])
        right -= _text_width(words, 3)
        _text(canvas, words, (right, 8), _TEAMS[team], 3)
        right -= 24


def _hand(canvas: _Canvas, scene: _scene.Scene, hand: _scene.Hand) -> None:
    top = _HEADER + hand.seat * _HAND_ROW
    if hand.seat == scene.to_act:
        _fill(canvas, (2, top, WIDTH - 4, _HAND_ROW - 4), _TURN)
    _text(canvas, "NESW"[hand.seat], (_MARGIN, top + 6), _TEAMS[hand.seat & 1], 4)
    if scene.deal and hand.seat == scene.dealer:
        _text(canvas, "D", (_MARGIN + 4, top + 32), _MUTED, 2)
    faces = tuple(hand.cards) if hand.cards is not None else tuple(hand.known)
    count = len(faces) + hand.unseen
    step = _step(count, WIDTH - _MARGIN - _HANDS_X, _HAND_STEP)
    outlines: dict[Card, _Colour] = {}
    if hand.seat == scene.to_act:
        outlines = dict.fromkeys(scene.picked, _PICKED)
        if scene.obligation is not None:
            outlines[scene.obligation] = _PENDING
    for place, card in enumerate(faces):
        x = _HANDS_X + place * step
        _card(canvas, card, (x, top + 5), outlines.get(card), dot=card in hand.known)
    for place in range(len(faces), count):
        _back(canvas, (_HANDS_X + place * step, top + 5))


def _melds(canvas: _Canvas, scene: _scene.Scene) -> None:
    groups = [meld.in_order for meld in scene.melds]
    step = _MELD_STEP
    while step > 1 and len(_placed(groups, step)) > _MELD_ROWS:
        step -= 1
    for row, placed in enumerate(_placed(groups, step)):
        y = _TABLE_Y + row * _MELD_ROW
        for x, index in placed:
            cards = groups[index]
            for place, card in enumerate(cards):
                _card(canvas, card, (x + place * step, y))
            width = _CARD_W + step * (len(cards) - 1)
            _fill(canvas, (x, y + _CARD_H + 2, width, 3), _TEAMS[scene.melds[index].owner & 1])


def _placed(groups: Sequence[Sequence[object]], step: int) -> list[list[tuple[int, int]]]:
    """
    The melds of *groups* laid out in rows with fans of *step*: each row a list of (left, index).
    """
    rows: list[list[tuple[int, int]]] = [[]]
    x = _MARGIN
    for index, cards in enumerate(groups):
        width = _CARD_W + step * (len(cards) - 1)
        if rows[-1] and x + width > WIDTH - _MARGIN:
            rows.append([])
            x = _MARGIN
        rows[-1].append((x, index))
        x += width + 8
    return rows


def _piles(canvas: _Canvas, scene: _scene.Scene) -> None:
    pile = scene.discard_pile
    step = _step(len(pile), _STOCK_X - 2 * _MARGIN, _PILE_STEP)
    for place, card in enumerate(pile):
        _card(canvas, card, (_MARGIN + place * step, _PILES_Y))
    if pile:  # a mark under the top card
        _fill(canvas, (_MARGIN + (len(pile) - 1) * step, _PILES_Y + _CARD_H + 3, _CARD_W, 3), _INK)
    for place in range(min(3, scene.stock_size)):
        _back(canvas, (_STOCK_X + 4 - 2 * place, _PILES_Y - 2 * place))
    _text(canvas, str(scene.stock_size), (_STOCK_X + _CARD_W + 14, _PILES_Y + 12), _MUTED, 3)


def picture(position: GameState | View) -> _Canvas:
    """
    A picture of *position*, a state or a view, as a new array of ``(HEIGHT, WIDTH, 3)`` values of
    type ``uint8`` (see the module's documentation).
    """
    scene = _scene.of_state(position) if isinstance(position, GameState) else _scene.of_view(position)
    canvas = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    canvas[:] = _FELT
    _header(canvas, scene)
    for hand in scene.hands:
        _hand(canvas, scene, hand)
    _melds(canvas, scene)
    _piles(canvas, scene)
    return canvas
