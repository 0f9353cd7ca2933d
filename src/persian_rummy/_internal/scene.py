"""
Pictures of a game: what a picture of a state or of a view shows (a `Scene`), written as text
and drawn in SVG.

A scene is made in one place from a state, which shows everything, or from a view, which shows
what its seat sees: its own hand, the size of every other hand and the cards everyone knows to be
in it, the table, the discard pile and the size of the stock.  The text and the SVG are written
from the scene alone, so neither can show a card that the view hides.  The functions read states
and views through the protocols of `persian_rummy._internal.shapes`: this module lies below
`persian_rummy.state`, whose values show themselves in a notebook with it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Final, TypeAlias, assert_never

from attrs import frozen

from ..cards import Card
from ..cardsets import CardSet
from ..melds import MeldKind, TableMeld
from ..rules import Rules
from ..scoring import DealEnd, DealScore
from . import drawing as _drawing
from . import text as _format
from .phase import Phase, is_turn
from .shapes import State, ViewShape

_LETTERS: Final[str] = _format.SEAT_LETTERS
_TEAMS: Final = (f"{_LETTERS[0]}-{_LETTERS[2]}", f"{_LETTERS[1]}-{_LETTERS[3]}")
#: The characters that cards written with their symbols need.
SYMBOLS: Final = "♣♦♥♠🃏"
#: How a picture writes cards: with their suit symbols or in card notation.
_Write: TypeAlias = Callable[[Iterable[_drawing.CardLike]], str]
_ENDINGS: Final = {DealEnd.PASSES: "the players passed with the stock empty", DealEnd.STOCK_EMPTY: "the stock ran out"}


@frozen
class Hand:
    """
    One seat's hand as a picture shows it.

    Attributes:
        seat: The seat.
        size: How many cards it holds.
        cards: The cards, when the picture shows them all; `None` when it shows only `known`.
        known: The cards everyone knows to be in it.
    """

    seat: int
    size: int
    cards: CardSet | None
    known: CardSet

    @property
    def unseen(self) -> int:
        """
        How many of its cards the picture does not show.
        """
        return 0 if self.cards is not None else self.size - len(self.known)


@frozen
class Scene:
    """
    What a picture of a state or a view shows; the fields not described are the state's.

    Attributes:
        view: Whether the picture is of a view.
        viewer: The seat whose view it is; `None` for a state or the public view.
        stock: The stock, next card first, when the picture shows it: a state's, or a stock that
            every player knows (A18); else `None`.
        discarder: The seat whose discard is answered by a call of "Rummy!" (A24), if any.
    """

    rules: Rules
    phase: Phase
    deal: int
    dealer: int
    to_act: int | None
    view: bool
    viewer: int | None
    hands: tuple[Hand, Hand, Hand, Hand]
    stock_size: int
    stock: tuple[Card, ...] | None
    discard_pile: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    obligation: Card | None
    picked: CardSet
    passes: int
    results: tuple[DealScore, ...]
    discarder: int | None = None

    def name(self, seat: int) -> str:
        """
        The seat's letter, and ``(you)`` for the seat whose view it is.
        """
        return f"{_LETTERS[seat]} (you)" if seat == self.viewer else _LETTERS[seat]

    @property
    def scores(self) -> tuple[int, int]:
        """
        Each team's total over the finished deals.
        """
        return (sum(r.totals[0] for r in self.results), sum(r.totals[1] for r in self.results))


def of_state(state: State) -> Scene:
    """
    The scene of a state: every card, in every hand and in the stock.
    """
    hands = tuple(Hand(seat, len(hand), hand, state.known[seat]) for seat, hand in enumerate(state.hands))
    return _scene(state, hands, len(state.stock), state.stock, view=False, viewer=None)


def of_view(view: ViewShape) -> Scene:
    """
    The scene of a view: what the view's seat sees, and no more.
    """
    hands = tuple(
        Hand(seat, size, view.hand if seat == view.seat else None, view.known[seat])
        for seat, size in enumerate(view.hand_sizes)
    )
    return _scene(view, hands, view.stock_size, view.stock, view=True, viewer=view.seat)


def _scene(  # noqa: PLR0913 - the parts in which a state and a view differ
    value: State | ViewShape,
    hands: tuple[Hand, ...],
    stock_size: int,
    stock: tuple[Card, ...] | None,
    *,
    view: bool,
    viewer: int | None,
) -> Scene:
    return Scene(
        rules=value.rules,
        phase=value.phase,
        deal=value.deal,
        dealer=value.dealer,
        to_act=value.to_act,
        view=view,
        viewer=viewer,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        stock_size=stock_size,
        stock=stock,
        discard_pile=value.discard_pile,
        melds=value.melds,
        obligation=value.obligation,
        picked=value.picked,
        passes=value.passes,
        results=value.results,
        discarder=value.discarder,
    )


# -- words shared by the text and the SVG ------------------------------------------------------------------------


def cells(text: str) -> int:
    """
    How many columns *text* takes on a terminal: wide characters (the joker's 🃏) take two.

    >>> cells("Q♥"), cells("🃏1")
    (2, 3)
    """
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def heading(scene: Scene) -> str:
    """
    Which deal it is and who dealt it.
    """
    if scene.deal == 0:
        return "Before the first deal"
    total = scene.rules.num_deals
    which = f"Deal {scene.deal} of {total}" if scene.deal <= total else f"Deal {scene.deal}, an extra deal (A22)"
    return f"{which}, dealt by {scene.name(scene.dealer)}"


def _deal_totals(result: DealScore) -> str:
    return f"{_TEAMS[0]} {result.totals[0]}, {_TEAMS[1]} {result.totals[1]}"


def status(scene: Scene) -> str:
    """
    Whose turn it is and what to do, or how the deal or the game ended.
    """
    phase, seat = scene.phase, scene.to_act
    who = "" if seat is None else scene.name(seat)
    match phase:
        case Phase.DEAL:
            return f"{scene.name(scene.dealer)} to deal"
        case Phase.DRAW if scene.stock_size == 0:
            return f"{who} to take from the discard pile or pass (R21)"
        case Phase.DRAW if not scene.discard_pile:
            return f"{who} to draw from the stock, the discard pile being empty (R14)"
        case Phase.DRAW:
            return f"{who} to draw from the stock or take from the discard pile (R14)"
        case Phase.PLAY:
            return f"{who} to lay down, lay off, then discard"
        case Phase.DEAL_OVER:
            result = scene.results[-1]
            return f"Deal {result.deal} is over: {_how(scene, result)} (this deal: {_deal_totals(result)})"
        case Phase.GAME_OVER:
            return _game_over(scene, scene.results[-1])
        case Phase.CALLS if scene.discarder is not None:
            return f"{who} to call Rummy! on the discard of {scene.name(scene.discarder)}, or decline (A24)"
        case Phase.CALLED | Phase.CALLS:
            return f"{who} called Rummy! and lays off the card called on (A24)"
        case _:
            assert_never(phase)


def turn_note(phase: Phase) -> str:
    """
    What the seat to act in *phase* is to do, in a word or two.
    """
    match phase:
        case Phase.DRAW:
            return "to draw"
        case Phase.PLAY:
            return "to play"
        case Phase.CALLS:
            return "to call or decline"
        case Phase.CALLED:
            return "to lay off"
        case Phase.DEAL | Phase.DEAL_OVER | Phase.GAME_OVER:
            return ""
        case _:
            assert_never(phase)


def _how(scene: Scene, result: DealScore) -> str:
    return f"{scene.name(result.went_out)} went out" if result.went_out is not None else _ENDINGS[result.end]


def _game_over(scene: Scene, result: DealScore) -> str:
    first, second = scene.scores
    if first == second:
        return f"The game is over: a draw, {first} all (deal {result.deal}: {_how(scene, result)})"
    winner = _TEAMS[int(second > first)]
    return (
        f"The game is over: {winner} win, {max(first, second)} to {min(first, second)}"
        f" (deal {result.deal}: {_how(scene, result)})"
    )


def taken(scene: Scene, write: _Write) -> str:
    """
    The cards taken from the discard pile this turn, and the one that must still be played (R15); ``""`` for none.
    """
    if not scene.picked or scene.to_act is None:
        return ""
    who = scene.name(scene.to_act)
    if scene.obligation is None:
        return f"{who} took {write(scene.picked)} from the discard pile this turn"
    others = scene.picked - CardSet([scene.obligation])
    with_others = f" with {write(others)}" if others else ""
    return f"{who} must play {write([scene.obligation])} now, taken from the discard pile{with_others} (R15)"


def score_line(scene: Scene) -> str:
    """
    The teams' totals over the finished deals, and each deal's when there are more than one.
    """
    first, second = scene.scores
    total = f"Score: {_TEAMS[0]} {first}, {_TEAMS[1]} {second}"
    if not scene.results:
        return f"{total} (no deal finished)"
    if len(scene.results) == 1:
        return f"{total} (after deal 1)"
    return f"{total} ({'; '.join(f'deal {r.deal}: {_deal_totals(r)}' for r in scene.results)})"


def doubled(scene: Scene, meld: TableMeld) -> bool:
    """
    Whether *meld* scores double: four cards laid down at once (R25, A20).
    """
    rules = scene.rules
    return meld.four_at_once and (
        rules.double_four_of_a_kind if meld.kind is MeldKind.SET else rules.double_four_card_runs
    )


# -- text --------------------------------------------------------------------------------------------------------


def _writer(symbols: bool, *, jokers: bool = True) -> _Write:
    """
    How to write cards: with their symbols (and the jokers' 🃏 unless not *jokers*) or in card notation.
    """

    def write(cards: Iterable[_drawing.CardLike]) -> str:
        return " ".join(card.symbol if symbols and (jokers or not card.is_joker) else str(card) for card in cards)

    return write


def _hand_text(hand: Hand, write: _Write) -> str:
    if hand.size == 0:
        return "no cards"
    if hand.cards is not None:
        known = f" (known to all: {write(hand.known)})" if hand.known else ""
        return f"{_plural(hand.size, 'card')}: {write(hand.cards)}{known}"
    if not hand.known:
        return f"{_plural(hand.size, 'card')}, unseen"
    unseen = f" and {hand.unseen} unseen" if hand.unseen else ""
    return f"{_plural(hand.size, 'card')}: {write(hand.known)}{unseen}"


def _meld_how(scene: Scene, meld: TableMeld, write: _Write) -> str:
    how = f"{meld.kind} laid down by {scene.name(meld.owner)}"
    if doubled(scene, meld):
        how += " (four at once: doubled, R25)"
    for seat, part in enumerate(meld.layoffs):
        if part:
            how += f"; {_with_stand_ins(part, meld, write)} laid off by {scene.name(seat)}"
    return how


def _meld_words(meld: TableMeld, write: _Write) -> str:
    """
    A meld's cards in the order they lie, a joker that stands for a card written with it (``🃏1=6♥``, A7).
    """
    return _with_stand_ins(_drawing.in_order(meld), meld, write)


def _with_stand_ins(cards: Iterable[_drawing.CardLike], meld: TableMeld, write: _Write) -> str:
    if not meld.stand_ins:
        return write(cards)
    words = []
    for card in cards:
        stood = _drawing.stood_for(meld.stand_ins, card)
        words.append(write([card]) if stood is card else f"{write([card])}={write([stood])}")
    return " ".join(words)


def _table_lines(scene: Scene, write: _Write) -> list[str]:
    if not scene.melds:
        return ["Table: no melds yet"]
    shown = [_meld_words(meld, write) for meld in scene.melds]
    width = max(cells(cards) for cards in shown)
    return [
        "Table:",
        *(
            f"  {number:>2}  {cards}{' ' * (width - cells(cards))}  {_meld_how(scene, meld, write)}"
            for number, (cards, meld) in enumerate(zip(shown, scene.melds, strict=True), start=1)
        ),
    ]


def _pile_line(scene: Scene, write: _Write) -> str:
    pile = scene.discard_pile
    if not pile:
        return "Discard pile: empty"
    below = f"{write(pile[:-1])} " if len(pile) > 1 else ""
    return f"Discard pile (bottom to top): {below}[{write(pile[-1:])}]"


def _stock_line(scene: Scene, write: _Write) -> str:
    if scene.stock_size == 0:
        return "Stock: empty"
    if scene.stock is None:
        return f"Stock: {_plural(scene.stock_size, 'card')}"
    known = ", known to all" if scene.view else ""
    return f"Stock: {_plural(scene.stock_size, 'card')}{known}, next first: {write(scene.stock)}"


def text(scene: Scene, *, symbols: bool) -> str:
    """
    The scene as lines of text, each ended by a newline: cards with their suit symbols
    (``10♦``, ``🃏1``), or in card notation (``Td``, ``X1``) without *symbols*.
    """
    write = _writer(symbols)
    lines = [] if not scene.view else [f"The game as {_seen_by(scene)} sees it"]
    lines += [heading(scene), status(scene)]
    lines += [line for line in (taken(scene, write),) if line]
    lines += [score_line(scene), "", "Hands:"]
    width = max(len(scene.name(seat)) for seat in range(4))
    lines += [f"  {scene.name(hand.seat):<{width}}  {_hand_text(hand, write)}" for hand in scene.hands]
    lines += ["", *_table_lines(scene, write), _pile_line(scene, write), _stock_line(scene, write)]
    if scene.passes and is_turn(scene.phase):
        lines.append(f"Passes in a row: {scene.passes} (R21)")
    return "".join(f"{line}\n" for line in lines)


def _seen_by(scene: Scene) -> str:
    return "a spectator" if scene.viewer is None else _LETTERS[scene.viewer]


# -- SVG ---------------------------------------------------------------------------------------------------------

_PAD: Final = 16
_LABEL: Final = 96
_ROW: Final = _drawing.CARD_HEIGHT + 14
_BACK_STEP: Final = 12
_MELD_HEIGHT: Final = _drawing.CARD_HEIGHT + 40
_MIN_WIDTH: Final = 720
#: The most cards of the discard pile or the stock in one row; more go on to the next row.
_PER_ROW: Final = 26
_LINE: Final = _drawing.CARD_HEIGHT + 8
_BETWEEN: Final = 40
_FELT: Final = "#e4eee3"
_TURN: Final = "#fff4c2"
_KNOWN: Final = "#37474f"
_PICKED: Final = "#ffb74d"


def _hand_width(hand: Hand) -> float:
    shown = len(hand.cards) if hand.cards is not None else len(hand.known)
    backs = _drawing.fan_width(hand.unseen, _BACK_STEP) + (_drawing.GAP if shown and hand.unseen else 0)
    return _drawing.fan_width(shown) + backs


def _pile_width(scene: Scene) -> float:
    return max(_drawing.fan_width(min(len(scene.discard_pile), _PER_ROW), _drawing.NARROW_STEP), 190)


def _stock_width(scene: Scene) -> float:
    faces = _drawing.fan_width(min(len(scene.stock or ()), _PER_ROW), _drawing.NARROW_STEP)
    return _drawing.CARD_WIDTH + 94 + faces


def _layout(scene: Scene) -> tuple[float, bool]:
    """
    The picture's width, and whether the stock lies beside the discard pile rather than under it.
    """
    rows = [_LABEL + max(_hand_width(hand) for hand in scene.hands) + 90]
    rows.extend(_drawing.fan_width(len(meld.cards)) for meld in scene.melds)
    width = max(_MIN_WIDTH, 2 * _PAD + max(rows))
    beside = _pile_width(scene) + _BETWEEN + _stock_width(scene) <= width - 2 * _PAD
    piles = _pile_width(scene) + _BETWEEN + _stock_width(scene) if beside else _stock_width(scene)
    return max(width, 2 * _PAD + piles), beside


def _marks(scene: Scene, hand: Hand) -> dict[str, _drawing.Mark]:
    """
    The marks of a hand's cards: a border round the card to play and round the other cards taken
    this turn, a dot on the cards everyone knows to be in the hand.
    """
    outlines: dict[str, str] = {}
    if hand.seat == scene.to_act:
        outlines = {str(card): _PICKED for card in scene.picked}
        if scene.obligation is not None:
            outlines[str(scene.obligation)] = _drawing.PENDING
    dots = {str(card) for card in hand.known}
    return {name: (outlines.get(name, ""), _KNOWN if name in dots else "") for name in outlines.keys() | dots}


def _seat_label(scene: Scene, seat: int, y: float) -> str:
    colour = _drawing.TEAM_COLOURS[seat & 1]
    parts = [_drawing.text(_PAD + 4, y + 26, scene.name(seat), font_size=18, font_weight="bold", fill=colour)]
    notes = [_TEAMS[seat & 1]] + (["dealer"] if seat == scene.dealer and scene.deal else [])
    parts.append(_drawing.text(_PAD + 4, y + 44, ", ".join(notes), font_size=11, fill=_drawing.MUTED))
    if seat == scene.to_act:
        turn = turn_note(scene.phase)
        parts.append(_drawing.text(_PAD + 4, y + 60, turn, font_size=11, font_weight="bold", fill=_drawing.INK))
    return "".join(parts)


def _hand_svg(scene: Scene, hand: Hand, y: float, width: float) -> str:
    parts = []
    if hand.seat == scene.to_act:
        box = _drawing.element(
            "rect", x=_PAD - 6, y=y - 5, width=width - 2 * _PAD + 12, height=_ROW - 4, rx=6, fill=_TURN
        )
        parts.append(box)
    parts.append(_seat_label(scene, hand.seat, y))
    x: float = _PAD + _LABEL
    faces = tuple(hand.cards) if hand.cards is not None else tuple(hand.known)
    parts.append(_drawing.fan(faces, x, y, marks=_marks(scene, hand)))
    x += _drawing.fan_width(len(faces)) + (_drawing.GAP if faces and hand.unseen else 0)
    parts.extend(_drawing.back(x + i * _BACK_STEP, y) for i in range(hand.unseen))
    x += _drawing.fan_width(hand.unseen, _BACK_STEP)
    count = _plural(hand.size, "card") if hand.size else "no cards"
    parts.append(_drawing.text(x + 10, y + 36, count, font_size=12, fill=_drawing.MUTED))
    return "".join(parts)


def _title(scene: Scene) -> str:
    first = heading(scene) if not scene.view else f"{heading(scene)}, as {_seen_by(scene)} sees it"
    return f"Persian Rummy. {first}. {status(scene)}."


def _header_svg(scene: Scene, width: float) -> tuple[str, float]:
    first = heading(scene) if not scene.view else f"{heading(scene)} · as {_seen_by(scene)} sees it"
    parts = [_drawing.text(_PAD, _PAD + 16, first, font_size=17, font_weight="bold", fill=_drawing.INK)]
    scores = scene.scores
    for team, x in ((0, width - _PAD - 92), (1, width - _PAD)):
        words = f"{_TEAMS[team]} {scores[team]}"
        colour = _drawing.TEAM_COLOURS[team]
        parts.append(
            _drawing.text(x, _PAD + 16, words, font_size=16, font_weight="bold", text_anchor="end", fill=colour)
        )
    parts.append(_drawing.text(_PAD, _PAD + 38, status(scene), font_size=13, fill=_drawing.INK))
    y = _PAD + 38
    # Jokers as in the corners of the cards drawn (X1), not as 🃏1, which few typefaces draw well.
    line = taken(scene, _writer(symbols=True, jokers=False))
    if line:
        y += 20
        parts.append(_drawing.text(_PAD, y, line, font_size=13, font_weight="bold", fill=_drawing.PENDING))
    return "".join(parts), y + 16


def _section(x: float, y: float, words: str) -> str:
    return _drawing.text(x, y + 14, words, font_size=13, font_weight="bold", fill=_drawing.INK)


def _note(x: float, y: float, words: str, colour: str = _drawing.MUTED) -> str:
    return _drawing.text(x, y, words, font_size=11, fill=colour)


def _melds_svg(scene: Scene, y: float, width: float) -> tuple[str, float]:
    if not scene.melds:
        return _section(_PAD, y, "Table: no melds yet"), y + 30
    parts = [_section(_PAD, y, "Table")]
    x: float = _PAD
    y += 22
    for number, meld in enumerate(scene.melds, start=1):
        caption = f"{number}. {meld.kind} by {scene.name(meld.owner)}" + (", doubled" if doubled(scene, meld) else "")
        size = max(_drawing.fan_width(len(meld.cards)), 6.5 * len(caption))
        if x > _PAD and x + size > width - _PAD:
            x, y = _PAD, y + _MELD_HEIGHT
        parts.append(_drawing.meld(meld, x, y, caption))
        x += size + 22
    return "".join(parts), y + _MELD_HEIGHT


def _rows(cards: tuple[Card, ...], x: float, y: float) -> tuple[str, float]:
    """
    *cards* fanned close, in rows of at most `_PER_ROW`; the markup and the top of the last row.
    """
    rows = [cards[i : i + _PER_ROW] for i in range(0, len(cards), _PER_ROW)]
    markup = "".join(_drawing.fan(row, x, y + k * _LINE, step=_drawing.NARROW_STEP) for k, row in enumerate(rows))
    return markup, y + max(len(rows) - 1, 0) * _LINE


def _pile_svg(scene: Scene, x: float, y: float) -> tuple[str, float]:
    pile = scene.discard_pile
    heading = _section(x, y, "Discard pile, bottom to top")
    if not pile:
        return heading + _drawing.text(x, y + 50, "empty", font_size=12, fill=_drawing.MUTED), y + 22
    fan, last = _rows(pile, x, y + 22)
    top = x + (len(pile) - 1) % _PER_ROW * _drawing.NARROW_STEP
    return heading + fan + _note(top + 4, last + _drawing.CARD_HEIGHT + 14, "▲ top", _drawing.INK), last


def _stock_svg(scene: Scene, x: float, y: float) -> tuple[str, float]:
    parts = [_section(x, y, "Stock")]
    if not scene.stock_size:
        return parts[0] + _drawing.text(x, y + 50, "empty", font_size=12, fill=_drawing.MUTED), y + 22
    parts.extend(_drawing.back(x + 4 - 2 * i, y + 26 - 2 * i) for i in range(min(3, scene.stock_size)))
    words = _plural(scene.stock_size, "card")
    parts.append(_drawing.text(x + _drawing.CARD_WIDTH + 14, y + 56, words, font_size=12, fill=_drawing.MUTED))
    last = y + 22
    if scene.stock:
        left = x + _drawing.CARD_WIDTH + 94
        fan, last = _rows(scene.stock, left, y + 22)
        note = "known to all, next first" if scene.view else "face down, next first"
        parts += [fan, _note(left, last + _drawing.CARD_HEIGHT + 14, note)]
    return "".join(parts), last


def _legend_svg(scene: Scene, y: float) -> str:
    """
    What the marks on the cards mean, those that are drawn: the dot on cards everyone knows to be
    in a hand, the borders of the card to play and of the other cards taken this turn.
    """
    items = [(_KNOWN, "known to all")] if any(hand.known for hand in scene.hands) else []
    if scene.obligation is not None:
        items.append((_drawing.PENDING, "to play now (R15)"))
    if scene.picked - CardSet([scene.obligation] if scene.obligation is not None else []):
        items.append((_PICKED, "taken from the discard pile this turn"))
    parts = []
    x: float = _PAD
    for colour, words in items:
        if colour == _KNOWN:
            parts.append(_drawing.element("circle", cx=x + 4, cy=y - 4, r=3.5, fill=colour))
        else:
            box = {"x": x, "y": y - 10, "width": 10, "height": 10}
            parts.append(_drawing.element("rect", **box, fill="none", stroke=colour, stroke_width=2))
        parts.append(_note(x + 14, y, words))
        x += 30 + 6.2 * len(words)
    return "".join(parts)


def svg(scene: Scene) -> str:
    """
    The scene drawn as an SVG document: the deal and the scores, whose turn, the four hands
    (hidden cards face down), the melds with who laid down and laid off what, the discard pile
    with its top marked and the stock.
    """
    width, beside = _layout(scene)
    header, y = _header_svg(scene, width)
    body = [header]
    for hand in scene.hands:
        body.append(_hand_svg(scene, hand, y, width))
        y += _ROW
    melds, y = _melds_svg(scene, y + 4, width)
    pile, last = _pile_svg(scene, _PAD, y)
    if beside:
        stock, other = _stock_svg(scene, _PAD + _pile_width(scene) + _BETWEEN, y)
        last = max(last, other)
    else:
        stock, last = _stock_svg(scene, _PAD, last + _drawing.CARD_HEIGHT + 28)
    y = last + _drawing.CARD_HEIGHT + 22
    legend = _legend_svg(scene, y + 18)
    body += [melds, pile, stock, legend]
    return _drawing.document(width, y + (18 if legend else 0) + _PAD, "".join(body), _title(scene), background=_FELT)
