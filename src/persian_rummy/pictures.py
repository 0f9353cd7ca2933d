"""
Pictures of the game: a state or a view as text for a terminal, and cards, melds, states and
views in SVG for a notebook, a web page or a file.

`render_text` writes a position as a person reads it: the deal and its dealer, whose turn it is
and what they have to do, the card they must still play (R15), the scores, the four hands sorted
by suit, the melds on the table with who laid them down and who laid off what (R17), the discard
pile with its top in brackets, and the stock.  Cards are written with their suit symbols
(``10♦``, ``🃏1``), or in card notation (``Td``, ``X1``) for an output that cannot show the
symbols (`symbols_fit`); `card_legend` says how to read them.

>>> from persian_rummy import observe, parse_position
>>> state = parse_position(
...     "- 1/N play E 2d5d9dKdAs/Kc4d7d3h9hThJh2s/2c7cAc6d5h6s7s/8c9c3d8d2h4sKsX4 TcJcJd4h6h7h8hKhAh5s 3sTdAd "
...     "S:QcQdQs+E:Qh,W:3c4c5c+N:6c,N:X1X2X3,E:8s9sTsJs 9h Kc4d9h -/Kc4d9h/-/- 0 - -"
... )
>>> print(render_text(state))
Deal 1 of 2, dealt by N
E to lay down, lay off, then discard
E must play 9♥ now, taken from the discard pile with K♣ 4♦ (R15)
Score: N-S 0, E-W 0 (no deal finished)
<BLANKLINE>
Hands:
  N  5 cards: 2♦ 5♦ 9♦ K♦ A♠
  E  8 cards: K♣ 4♦ 7♦ 3♥ 9♥ 10♥ J♥ 2♠ (known to all: K♣ 4♦ 9♥)
  S  7 cards: 2♣ 7♣ A♣ 6♦ 5♥ 6♠ 7♠
  W  8 cards: 8♣ 9♣ 3♦ 8♦ 2♥ 4♠ K♠ 🃏4
<BLANKLINE>
Table:
   1  Q♣ Q♦ Q♥ Q♠   set laid down by S; Q♥ laid off by E
   2  3♣ 4♣ 5♣ 6♣   run laid down by W; 6♣ laid off by N
   3  🃏1 🃏2 🃏3   set laid down by N
   4  8♠ 9♠ 10♠ J♠  run laid down by E
Discard pile (bottom to top): 3♠ 10♦ [A♦]
Stock: 10 cards, next first: 10♣ J♣ J♦ 4♥ 6♥ 7♥ 8♥ K♥ A♥ 5♠
<BLANKLINE>

A picture of a `View` shows what its seat sees, and nothing more: of the other hands their
sizes and the cards everyone knows them to hold (here South's view, in card notation):

>>> print(render_text(observe(state, 2), symbols=False))
The game as S sees it
Deal 1 of 2, dealt by N
E to lay down, lay off, then discard
E must play 9h now, taken from the discard pile with Kc 4d (R15)
Score: N-S 0, E-W 0 (no deal finished)
<BLANKLINE>
Hands:
  N        5 cards, unseen
  E        8 cards: Kc 4d 9h and 5 unseen
  S (you)  7 cards: 2c 7c Ac 6d 5h 6s 7s
  W        8 cards, unseen
<BLANKLINE>
Table:
   1  Qc Qd Qh Qs  set laid down by S (you); Qh laid off by E
   2  3c 4c 5c 6c  run laid down by W; 6c laid off by N
   3  X1 X2 X3     set laid down by N
   4  8s 9s Ts Js  run laid down by E
Discard pile (bottom to top): 3s Td [Ad]
Stock: 10 cards
<BLANKLINE>

`render_svg` draws cards as cards, red and black, the jokers apart, and whole positions: the
hands (the cards a view hides face down), the table, the discard pile, the stock and the
scores.  It needs nothing beyond the standard library; its document can be saved as an
``.svg`` file or put inline into a web page.  Every card is a group of class ``pr-card`` naming
the card in ``data-card``, every card face down a group of class ``pr-back``:

>>> picture = render_svg(state)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> picture.count('class="pr-card"'), picture.count('class="pr-back"')  # 56 cards, and the stock's back
(56, 3)
>>> picture = render_svg(observe(state, 2))
>>> picture.count('class="pr-card"'), picture.count('class="pr-back"')  # 5 + 5 + 8 cards unseen, and the stock
(28, 21)

`Card`, `CardSet`, `TableMeld`, `GameState` and `View` show themselves so in a Jupyter notebook
(with ``_repr_svg_`` and ``_repr_html_``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ._internal import arguments as _arguments
from ._internal import coerce as _coerce
from ._internal import drawing as _drawing
from ._internal import scene as _scene
from .cards import Card, parse_cards
from .cardsets import CardSet
from .melds import TableMeld
from .state import GameState, View

__all__ = ["card_legend", "render_svg", "render_text", "symbols_fit"]


def __dir__() -> list[str]:
    return __all__


_LEGEND: Final = (
    "Cards: 10♦ = ten of diamonds, Q♠ = queen of spades, 🃏1 to 🃏4 = jokers; [ ] = top of the discard pile"
)
_ASCII_LEGEND: Final = (
    "Cards: Td = ten of diamonds, Qs = queen of spades, Ac = ace of clubs, X1 to X4 = jokers;"
    " [ ] = top of the discard pile"
)


def _scene_of(value: GameState | View) -> _scene.Scene:
    _arguments.expect(value, (GameState, View), "value", "a GameState or a View")
    return _scene.of_state(value) if isinstance(value, GameState) else _scene.of_view(value)


def render_text(value: GameState | View, *, symbols: bool = True) -> str:
    """
    *value*, a state or a view, as lines of text, each ended by a newline.

    Cards are written with their suit symbols (``10♦``, ``🃏1``), or in card notation
    (``Td``, ``X1``) when *symbols* is false; `card_legend` explains either way.

    Raises:
        InvalidTypeError: *value* is neither a `GameState` nor a `View`.
    """
    return _scene.text(_scene_of(value), symbols=symbols)


def render_svg(value: GameState | View | TableMeld | CardSet | Card | Iterable[Card | str] | str) -> str:
    """
    *value* drawn as an SVG document.

    A state or a view is drawn whole: the deal, whose turn it is and the scores, the four hands
    (in a view the cards it does not show face down), the melds with who laid down and laid off
    each card, the discard pile with its top marked, and the stock.  A meld is drawn with who
    laid it down and who laid off what; a card, a set of cards or cards in a given order
    (a sequence of cards, or their notation) side by side.

    Each card is a group ``<g class="pr-card" data-card="Qh">`` whose text is its rank and its
    suit; a card face down is a group of class ``pr-back``, which names no card.

    Raises:
        InvalidTypeError: *value* is none of these.
        InvalidNotationError: *value* is text but not cards.
    """
    if isinstance(value, GameState | View):
        return _scene.svg(_scene_of(value))
    if isinstance(value, TableMeld):
        return _drawing.meld_document(value)
    if isinstance(value, Card):
        return _drawing.cards_document((value,))
    if isinstance(value, str):
        return _drawing.cards_document(parse_cards(value))
    _arguments.expect(value, Iterable, "value", "a GameState, a View, a TableMeld, a Card or cards")
    return _drawing.cards_document(tuple(value) if isinstance(value, CardSet) else _cards(value))


def _cards(values: Iterable[object]) -> tuple[Card, ...]:
    return tuple(_coerce.card(value, "each card") for value in values)


def card_legend(*, symbols: bool = True) -> str:
    """
    One line that explains how `render_text` writes cards, with their suit symbols or, without
    *symbols*, in card notation.

    >>> print(card_legend())
    Cards: 10♦ = ten of diamonds, Q♠ = queen of spades, 🃏1 to 🃏4 = jokers; [ ] = top of the discard pile
    >>> print(card_legend(symbols=False))
    Cards: Td = ten of diamonds, Qs = queen of spades, Ac = ace of clubs, X1 to X4 = jokers;
    [ ] = top of the discard pile
    """
    return _LEGEND if symbols else _ASCII_LEGEND


def symbols_fit(stream: object) -> bool:
    """
    Whether text written to *stream* can hold the card symbols (``♣ ♦ ♥ ♠ 🃏``): whether its
    ``encoding`` encodes them.  A stream that names no encoding is given card notation.

    >>> import io, sys
    >>> symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")), symbols_fit(io.StringIO())
    (True, False)
    >>> symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="cp1252"))
    False
    """
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return False
    try:
        _scene.SYMBOLS.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True
