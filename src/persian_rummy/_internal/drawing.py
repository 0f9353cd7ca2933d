"""
Pictures in SVG, written as text with the standard library only: cards, rows of cards, melds and
the document around them.

Everything here draws from the fields of a card and of a meld, read through the protocols below,
so that the value classes (`persian_rummy.Card`, `persian_rummy.CardSet`,
`persian_rummy.TableMeld`) can show themselves in a notebook (``_repr_svg_``) without this module
importing them.  The pictures of whole states and views are laid out in `persian_rummy._internal.scene`.

Each card is a group ``<g class="pr-card" data-card="Qh">`` holding its rank and its suit as text
(``Q`` and ``♥``; a joker reads ``X1`` and ``JOKER``), so a picture can be searched and tested for
the cards it shows; a card shown face down is a group of class ``pr-back`` that names no card.
Styles are attributes, not a style sheet, so that a picture put inline into a page changes nothing
else of the page.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, Protocol, TypeAlias

from . import seats as _seats

#: The namespace of SVG.
NAMESPACE: Final = "http://www.w3.org/2000/svg"
#: A card's size, in pixels.
CARD_WIDTH: Final = 46
CARD_HEIGHT: Final = 64
#: How far apart the cards of a fanned row lie: enough to show each card's corner.
STEP: Final = 25
#: The step of a close fan, where only the rank and the suit in the corner show.
NARROW_STEP: Final = 21
#: The gap between cards laid side by side.
GAP: Final = 6
#: The typefaces, the first of them with the suit symbols.
FONTS: Final = "DejaVu Sans, Segoe UI Symbol, Apple Symbols, Arial, sans-serif"
#: Colours.
RED: Final = "#c62828"
BLACK: Final = "#1a1a1a"
JOKER: Final = "#6a1b9a"
INK: Final = "#1a1a1a"
MUTED: Final = "#5f6b63"
PENDING: Final = "#e65100"
#: The colours of the teams: seats 0 and 2 against seats 1 and 3 (R1).
TEAM_COLOURS: Final = ("#00796b", "#3949ab")

_RED_SUITS: Final = frozenset("♦♥")

#: How a card is marked: the colour of a border round it and of a dot in its corner, ``""`` for none.
Mark: TypeAlias = tuple[str, str]


class CardLike(Protocol):
    """
    What a picture reads of a card: ``str(card)`` is its notation (``Qh``, ``X1``).
    """

    @property
    def symbol(self) -> str: ...
    @property
    def is_joker(self) -> bool: ...
    @property
    def rank(self) -> int: ...
    @property
    def index(self) -> int: ...


class CardGroup(Protocol):
    """
    What a picture reads of a group of cards (a `persian_rummy.CardSet`): its cards, in order, and
    whether it holds a card.
    """

    def __iter__(self) -> Iterator[CardLike]: ...
    def __contains__(self, card: object) -> bool: ...


class StandInsLike(Protocol):
    """
    What a picture reads of the jokers that stand for cards in a meld (`persian_rummy.StandIns`, A7).
    """

    def get(self, joker: Any, /) -> CardLike | None: ...  # noqa: ANN401 (a Card, which this module does not import)
    def __len__(self) -> int: ...


class MeldLike(Protocol):
    """
    What a picture reads of a meld on the table.
    """

    @property
    def owner(self) -> int: ...
    @property
    def cards(self) -> CardGroup: ...
    @property
    def laid_down(self) -> CardGroup: ...
    @property
    def layoffs(self) -> tuple[CardGroup, ...]: ...
    @property
    def kind(self) -> str: ...
    @property
    def ace_low(self) -> bool: ...
    @property
    def stand_ins(self) -> StandInsLike: ...


def escape(text: str) -> str:
    """
    *text* as XML character data or an attribute's value.

    >>> escape('<"N-S" & \\'E-W\\'>')
    '&lt;&quot;N-S&quot; &amp; &#x27;E-W&#x27;&gt;'
    """
    return html.escape(text, quote=True)


def _number(value: float) -> str:
    return f"{value:g}"


def element(name: str, content: str = "", /, **attributes: str | float) -> str:
    """
    The element *name* with *attributes* around *content*, which is markup already.

    The attributes' values are escaped here, numbers written shortest; in their names ``_``
    stands for ``-``, and a trailing ``_`` is dropped (``class_``).

    >>> element("rect", width=46.0, fill="#fff", stroke_width=1)
    '<rect width="46" fill="#fff" stroke-width="1"/>'
    """
    written = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{escape(value) if isinstance(value, str) else _number(value)}"'
        for key, value in attributes.items()
    )
    if not content:
        return f"<{name}{written}/>"
    return f"<{name}{written}>{content}</{name}>"


def text(x: float, y: float, content: str, **attributes: str | float) -> str:
    """
    A ``<text>`` element at (*x*, *y*), baseline at *y*, saying *content*.
    """
    return element("text", escape(content), x=x, y=y, **attributes)


def face(card: CardLike) -> tuple[str, str, str]:
    """
    What a card shows: its rank as written in a corner, its suit symbol (``JOKER`` for a joker) and its colour.

    >>> from persian_rummy import Card
    >>> face(Card.parse("Td")), face(Card.parse("Qs")), face(Card.parse("X3"))
    (('10', '♦', '#c62828'), ('Q', '♠', '#1a1a1a'), ('X3', 'JOKER', '#6a1b9a'))
    """
    if card.is_joker:
        return str(card), "JOKER", JOKER
    symbol = card.symbol
    suit = symbol[-1]
    return symbol[:-1], suit, RED if suit in _RED_SUITS else BLACK


def _frame(fill: str, stroke: str, width: float) -> str:
    return element(
        "rect",
        x=0.5,
        y=0.5,
        width=CARD_WIDTH - 1,
        height=CARD_HEIGHT - 1,
        rx=5,
        fill=fill,
        stroke=stroke,
        stroke_width=width,
    )


def card(value: CardLike, x: float, y: float, mark: Mark = ("", "")) -> str:
    """
    *value* face up with its top left corner at (*x*, *y*): rank and suit in the corner, the suit
    large in the middle; a joker pale, with a star.  *mark* gives the colour of a thick border
    round the card and the colour of a dot in its lower left corner (``""``: none).
    """
    rank, suit, colour = face(value)
    outline, dot = mark
    # Two characters (10, a joker's X1) are set closer, to stay within the corner a fan shows.
    corner: dict[str, float] = {"font_size": 15} if len(rank) == 1 else {"font_size": 14, "letter_spacing": -1.5}
    parts = [
        element("title", escape(f"{value.symbol} ({value})")),
        _frame("#fbf7ff" if value.is_joker else "#ffffff", outline or "#7a7a7a", 3 if outline else 1),
        text(3, 17, rank, font_weight="bold", fill=colour, **corner),
    ]
    if value.is_joker:
        parts += [
            text(CARD_WIDTH / 2 + 3, 44, "★", font_size=24, text_anchor="middle", fill=colour),
            text(CARD_WIDTH / 2 + 3, 58, suit, font_size=7, text_anchor="middle", letter_spacing=0.5, fill=colour),
        ]
    else:
        parts += [
            text(5, 33, suit, font_size=15, fill=colour),
            text(CARD_WIDTH / 2 + 4, 54, suit, font_size=26, text_anchor="middle", fill=colour),
        ]
    if dot:
        parts.append(element("circle", cx=8, cy=CARD_HEIGHT - 8, r=3.5, fill=dot))
    where = f"translate({_number(x)},{_number(y)})"
    return element("g", "".join(parts), class_="pr-card", data_card=str(value), transform=where)


def back(x: float, y: float) -> str:
    """
    A card face down with its top left corner at (*x*, *y*).
    """
    inner = element("rect", x=4, y=4, width=CARD_WIDTH - 8, height=CARD_HEIGHT - 8, rx=3, fill="none", stroke="#9fb4d9")
    top = CARD_HEIGHT / 2 - 14
    diamond = element("path", d=f"M{_number(CARD_WIDTH / 2)} {_number(top)}l10 14l-10 14l-10 -14z", fill="#9fb4d9")
    where = f"translate({_number(x)},{_number(y)})"
    return element("g", _frame("#27477a", "#16294a", 1) + inner + diamond, class_="pr-back", transform=where)


def fan_width(count: int, step: float = STEP) -> float:
    """
    The width of *count* cards fanned *step* apart (0 for none).
    """
    return 0 if count == 0 else (count - 1) * step + CARD_WIDTH


def fan(
    cards: Sequence[CardLike], x: float, y: float, *, step: float = STEP, marks: Mapping[str, Mark] | None = None
) -> str:
    """
    *cards* face up from left to right, *step* apart, each over the one before; *marks* gives the
    marks of cards by their notation (see `card`).
    """
    marks = marks or {}
    return "".join(card(value, x + i * step, y, marks.get(str(value), ("", ""))) for i, value in enumerate(cards))


def in_order(meld: MeldLike) -> list[CardLike]:
    """
    The cards of *meld* in the order they lie: a run from its lowest card, the ace first when it is
    low (A8); a set by suit; a joker that stands for a card where that card would lie (A7).
    """
    cards = list(meld.cards)
    stand_ins = meld.stand_ins
    if stand_ins:
        cards.sort(key=lambda card: stood_for(stand_ins, card).index)
    first, last = stood_for(stand_ins, cards[0]), stood_for(stand_ins, cards[-1])
    if meld.ace_low and meld.kind == "run" and first.rank == 2 and last.rank == 14:
        return [cards[-1], *cards[:-1]]
    return cards


def stood_for(stand_ins: StandInsLike, card: CardLike) -> CardLike:
    """
    The card *card* stands for in a meld of *stand_ins*: a joker's card (A7), else itself.
    """
    return (stand_ins.get(card) if stand_ins and card.is_joker else None) or card


def meld(value: MeldLike, x: float, y: float, caption: str, *, caption_at: float = CARD_HEIGHT + 28) -> str:
    """
    A meld on the table at (*x*, *y*): its cards fanned, the letter of the seat that laid off each
    card laid off under it (R17), and *caption* under all, *caption_at* below the top.
    """
    cards = in_order(value)
    parts = [fan(cards, x, y)]
    for index, item in enumerate(cards):
        stood = stood_for(value.stand_ins, item)
        if stood is not item:  # a joker, with the card it stands for above it (A7)
            parts.append(text(x + index * STEP + 2, y - 4, f"={stood.symbol}", font_size=11, fill=MUTED))
        seat = next((seat for seat, part in enumerate(value.layoffs) if item in part), None)
        if seat is not None:
            colour = TEAM_COLOURS[seat & 1]
            where = x + index * STEP + 4, y + CARD_HEIGHT + 13
            parts.append(text(*where, f"+{_seats.LETTERS[seat]}", font_size=11, font_weight="bold", fill=colour))
    parts.append(text(x, y + caption_at, caption, font_size=11, fill=MUTED))
    return "".join(parts)


def meld_caption(value: MeldLike) -> str:
    """
    What a meld's caption says when the meld is drawn alone: its kind and who laid it down.

    >>> from persian_rummy import CardSet, TableMeld
    >>> meld_caption(TableMeld(2, CardSet.parse("7h 8h 9h")))
    'run laid down by S'
    """
    return f"{value.kind} laid down by {_seats.LETTERS[value.owner]}"


def document(width: float, height: float, content: str, title: str, *, background: str = "") -> str:
    """
    The SVG document *width* by *height* pixels holding *content*, named by *title*.
    """
    fill = element("rect", width=width, height=height, rx=8, fill=background) if background else ""
    return element(
        "svg",
        element("title", escape(title)) + fill + content,
        xmlns=NAMESPACE,
        width=width,
        height=height,
        viewBox=f"0 0 {_number(width)} {_number(height)}",
        role="img",
        font_family=FONTS,
    )


def cards_document(cards: Sequence[CardLike]) -> str:
    """
    The picture of *cards* side by side, in the order given; a blank card's outline for none.

    >>> from persian_rummy import Card
    >>> picture = cards_document([Card.parse("Qh")])
    >>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="50" height="68"'), picture.count("pr-card")
    (True, 1)
    """
    if not cards:
        outline = element(
            "rect",
            x=2.5,
            y=2.5,
            width=CARD_WIDTH - 1,
            height=CARD_HEIGHT - 1,
            rx=5,
            fill="none",
            stroke="#9a9a9a",
            stroke_dasharray="4 3",
        )
        return document(CARD_WIDTH + 4, CARD_HEIGHT + 4, outline, "no cards")
    step = CARD_WIDTH + GAP
    content = fan(cards, 2, 2, step=step)
    title = " ".join(value.symbol for value in cards)
    return document(fan_width(len(cards), step) + 4, CARD_HEIGHT + 4, content, title)


def meld_document(value: MeldLike) -> str:
    """
    The picture of a meld alone, with who laid it down and who laid off what.
    """
    caption = meld_caption(value)
    width = max(fan_width(len(in_order(value))), 6.5 * len(caption)) + 4
    title = " ".join(item.symbol for item in value.cards)
    below = CARD_HEIGHT + (28 if any(value.layoffs) else 15)
    return document(width, below + 8, meld(value, 2, 2, caption, caption_at=below), f"{title}: {caption}")
