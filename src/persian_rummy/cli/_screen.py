"""
The screen of ``persian-rummy play``: what one seat sees of a game, written as lines of text.

A line is a tuple of segments, each a text and the name of its style (``"red"``, ``"bold"``,
``""`` for none).  The styles are for a terminal that shows colours; the text alone says
everything, so the screen reads the same in plain text (the top of the discard pile is in
brackets, the card to play is named in words).  `plain` joins the texts; the command turns
the segments into ``rich`` text.  Cards are shown with their suit symbols (``Q♥``) or, where
the output cannot show them, in card notation (``Qh``).

Everything here is drawn from a `View` of the seat that plays (`persian_rummy.observe`), and
the actions told are public: what the seat may not see never reaches the screen.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias, assert_never

from attrs import frozen

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
from ..cards import Card, Suit, by_rank
from ..cardsets import CardSet
from ..melds import MeldKind, StandIns, TableMeld
from ..notation import SEAT_LETTERS
from ..scoring import DealEnd, DealScore, TeamScore, team_of
from ..state import GameState, Phase, View

#: A piece of text and its style.
Segment: TypeAlias = tuple[str, str]
#: One line of the screen.
Line: TypeAlias = tuple[Segment, ...]

_SUIT_STYLES: Final = {Suit.CLUBS: "", Suit.DIAMONDS: "red", Suit.HEARTS: "red", Suit.SPADES: "", None: "magenta"}
#: The styles of the screen's parts.
HEADING: Final = "bold"
NUMBER: Final = "bold cyan"
PENDING: Final = "reverse"
TOP: Final = "bold"
WARNING: Final = "yellow"
EXPLANATION: Final = "red"
_INDENT: Final = "  "
_LABEL_WIDTH: Final = 10
_NO_GROUP: Final = object()
_TEAM_NAMES: Final = tuple(f"{SEAT_LETTERS[team]}-{SEAT_LETTERS[team + 2]}" for team in (0, 1))


@frozen
class Look:
    """
    How the screen shows things.

    Attributes:
        symbols: Cards with their suit symbols (``Q♥``), else in card notation (``Qh``).
        by_rank: The hand sorted by rank (then suit), else by suit (then rank).
        width: The width of the screen in columns; the list of moves wraps to it.
    """

    symbols: bool = True
    by_rank: bool = False
    width: int = 80


def plain(lines: Iterable[Line]) -> str:
    """
    The text of *lines*, without their styles, one line each and a newline after each.

    >>> plain([(("Q♥", "red"), (" and ", ""), ("9c", "")), ()])
    'Q♥ and 9c\\n\\n'
    """
    return "".join("".join(text for text, _ in line) + "\n" for line in lines)


def cells(text: str) -> int:
    """
    How many columns *text* takes on a terminal: wide characters (the joker's 🃏) take two.

    >>> cells("Q♥"), cells("🃏1")
    (2, 3)
    """
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def card(value: Card, look: Look, mark: str = "") -> Segment:
    """
    *value* as the screen shows it, in its suit's style and *mark* besides.
    """
    text = value.symbol if look.symbols else str(value)
    return text, " ".join(part for part in (_SUIT_STYLES[value.suit], mark) if part)


def cards(values: Iterable[Card], look: Look, marks: dict[Card, str] | None = None) -> list[Segment]:
    """
    The cards *values*, in the order given, separated by spaces; ``-`` for none.
    """
    marks = marks or {}
    result: list[Segment] = []
    for value in values:
        if result:
            result.append((" ", ""))
        result.append(card(value, look, marks.get(value, "")))
    return result or [("-", "")]


def with_stand_ins(values: Iterable[Card], stand_ins: StandIns, look: Look) -> list[Segment]:
    """
    The cards *values*, each joker that stands for a card followed by ``=`` and that card (A7), in
    the order of the cards they represent; ``-`` for none.
    """
    result: list[Segment] = []
    for value in sorted(values, key=lambda value: (stand_ins.get(value) or value).index):
        if result:
            result.append((" ", ""))
        result.append(card(value, look))
        stood = stand_ins.get(value) if value.is_joker else None
        if stood is not None:
            result.extend([("=", ""), card(stood, look)])
    return result or [("-", "")]


def seat_name(seat: int, you: int | None) -> str:
    """
    A seat's letter, followed by ``(you)`` for the seat that plays.
    """
    return f"{SEAT_LETTERS[seat]} (you)" if seat == you else SEAT_LETTERS[seat]


def team_name(team: int, you: int | None) -> str:
    """
    A team's name, ``N-S`` or ``E-W``, followed by ``(you)`` for the team of the seat that plays.
    """
    return f"{_TEAM_NAMES[team]} (you)" if you is not None and team_of(you) == team else _TEAM_NAMES[team]


# -- actions told in words ---------------------------------------------------------------------------------------


def _meld_words(melds: Sequence[TableMeld], index: int, look: Look) -> list[Segment]:
    return [(f"meld {index + 1} (", ""), *_meld_cards(melds[index], look), (")", "")]


def _above_words(pile: Sequence[Card], taken: Card) -> str:
    above = len(pile) - 1 - pile.index(taken)
    return f" and the {above} card{'s' if above > 1 else ''} above it" if above else ""


def _field_words(before: GameState | View, action: Action, name: str, look: Look) -> list[Segment]:
    """
    What the name *name* in braces in *action*'s phrase stands for, as in `persian_rummy.cli.describe`.
    """
    if name == "meld":
        return _meld_words(before.melds, getattr(action, "meld"), look)  # noqa: B009 (the field the phrase names)
    if name == "above":
        return [(_above_words(before.discard_pile, getattr(action, "card")), "")]  # noqa: B009
    value: Card | CardSet = getattr(action, name)  # the phrases name no other fields
    if isinstance(value, Card):
        return [card(value, look)]
    stand_ins: StandIns | None = getattr(action, "stand_ins", None)  # a play's jokers that stand for cards (A7)
    return with_stand_ins(value, stand_ins, look) if stand_ins else cards(value, look)


#: The verbs that start the actions' phrases whose form said of "you" is not the phrase's less its last s.
_SAID_TO_YOU: Final = {"does": "do", "passes": "pass"}


def said_to_you(phrase: str) -> str:
    """
    An action's *phrase* said of "you": its first word, the verb, agreeing.

    >>> said_to_you("draws from the stock"), said_to_you("passes"), said_to_you("does not call")
    ('draw from the stock', 'pass', 'do not call')
    """
    verb, space, rest = phrase.partition(" ")
    return _SAID_TO_YOU.get(verb, verb.removesuffix("s")) + space + rest


def tell(before: GameState | View, action: Action, look: Look, you: int | None = None) -> Line:
    """
    One line saying what *action* does in *before* (a state or a view: only what all see is used):
    the seat, then the action's phrase (`persian_rummy.actions.Deal.phrase`) with its cards; the
    seat *you* is "You", with the verb agreeing.

    >>> from persian_rummy import Discard, new_game
    >>> plain([tell(new_game(), Discard(3, "Qh"), Look())]), plain([tell(new_game(), Discard(3, "Qh"), Look(), you=3)])
    ('W discards Q♥\\n', 'You discard Q♥\\n')
    """
    mine = action.seat == you
    parts: list[Segment] = [("You " if mine else SEAT_LETTERS[action.seat] + " ", "")]
    for literal, name, _, _ in string.Formatter().parse(said_to_you(action.phrase) if mine else action.phrase):
        if literal:
            parts.append((literal, ""))
        if name:
            parts.extend(_field_words(before, action, name, look))
    return tuple(parts)


# -- the table -----------------------------------------------------------------------------------------------------


def _doubled(meld: TableMeld, view: View) -> bool:
    rules = view.rules
    return meld.four_at_once and (
        rules.double_four_of_a_kind if meld.kind is MeldKind.SET else rules.double_four_card_runs
    )


def _meld_cards(meld: TableMeld, look: Look) -> list[Segment]:
    return with_stand_ins(meld.cards, meld.stand_ins, look) if meld.stand_ins else cards(meld.cards, look)


def _meld_line(number: int, meld: TableMeld, view: View, look: Look, width: int) -> Line:
    shown = _meld_cards(meld, look)
    pad = width - sum(cells(text) for text, _ in shown)
    how = f"{meld.kind} laid down by {seat_name(meld.owner, view.seat)}"
    if _doubled(meld, view):
        how += " (four at once: doubled)"
    parts: list[Segment] = [(f"{_INDENT}{number:>2}  ", NUMBER), *shown, (" " * pad + "  " + how, "")]
    for seat, part in enumerate(meld.layoffs):
        if part:
            laid = with_stand_ins(part, meld.stand_ins, look) if meld.stand_ins else cards(part, look)
            parts.extend([("; ", ""), *laid, (f" laid off by {seat_name(seat, view.seat)}", "")])
    return tuple(parts)


def table_lines(view: View, look: Look) -> list[Line]:
    """
    The melds on the table, numbered, with who laid each down and who laid off what.
    """
    if not view.melds:
        return [(("Table: ", HEADING), ("no melds yet", ""))]
    width = max(sum(cells(text) for text, _ in _meld_cards(meld, look)) for meld in view.melds)
    lines: list[Line] = [(("Table:", HEADING),)]
    lines.extend(_meld_line(number, meld, view, look, width) for number, meld in enumerate(view.melds, start=1))
    return lines


def meld_lines(view: View, look: Look) -> list[Line]:
    """
    The melds on the table, numbered, one short line each: its cards, its kind and who laid it
    down, then each lay-off and who made it (``run by N; 9♣ by S (you)``).
    """
    lines: list[Line] = []
    for number, meld in enumerate(view.melds, start=1):
        how = f"{meld.kind} by {seat_name(meld.owner, view.seat)}"
        if _doubled(meld, view):
            how += " (doubled)"
        parts: list[Segment] = [(f"{number:>2}  ", NUMBER), *cards(meld.cards, look), (f"  {how}", "")]
        for seat, part in enumerate(meld.layoffs):
            if part:
                parts.extend([("; ", ""), *cards(part, look), (f" by {seat_name(seat, view.seat)}", "")])
        lines.append(tuple(parts))
    return lines


def pile_lines(view: View, look: Look) -> list[Line]:
    """
    The discard pile, bottom to top, its top card in brackets; the size of the stock, its cards when
    everyone knows them (A18), and the passes in a row (R21).
    """
    pile = view.discard_pile
    shown = cards(pile[:-1], look) if len(pile) > 1 else []
    if pile:
        shown = [*shown, (" ", "")] if shown else []
        shown += [("[", ""), card(pile[-1], look, TOP), ("]", "")]
    else:
        shown = [("empty", "")]
    stock = f"{view.stock_size} card{'' if view.stock_size == 1 else 's'}" if view.stock_size else "empty"
    line: list[Segment] = [("Stock: ", HEADING), (stock, WARNING if not view.stock_size else "")]
    if view.stock:  # the pile turned over into the stock, in order, for everyone to see (A18)
        line += [(", known to all, next first: ", ""), *cards(view.stock, look)]
    if view.passes:
        line.append((f"; {view.passes} pass{'' if view.passes == 1 else 'es'} in a row (R21)", WARNING))
    return [(("Discard pile ", HEADING), ("(bottom to top): ", ""), *shown), tuple(line)]


def _hand_words(view: View, seat: int, look: Look) -> list[Segment]:
    size = view.hand_sizes[seat]
    parts: list[Segment] = [(f"{SEAT_LETTERS[seat]} {size} card{'' if size == 1 else 's'}", "")]
    if view.known[seat]:
        parts.extend([(" (known: ", ""), *cards(view.known[seat], look), (")", "")])
    return parts


def others_line(view: View, look: Look) -> Line:
    """
    How many cards each other seat holds, and those of them everyone saw it take from the pile.
    """
    parts: list[Segment] = [("Others: ", HEADING)]
    for seat in range(4):
        if seat != view.seat:
            parts.extend([*([(", ", "")] if len(parts) > 1 else []), *_hand_words(view, seat, look)])
    return tuple(parts)


def hand_line(view: View, look: Look, marks: dict[Card, str] | None = None) -> Line:
    """
    The seat's own hand, sorted by suit or by rank as *look* says, a gap between suits (or ranks).
    """
    hand = view.hand or CardSet()
    order = sorted(hand, key=by_rank) if look.by_rank else list(hand)
    parts: list[Segment] = [
        ("Your hand", HEADING),
        (f" ({len(hand)} cards, by {'rank' if look.by_rank else 'suit'}): ", ""),
    ]
    group: object = _NO_GROUP
    for value in order:
        key = value.rank if look.by_rank else value.suit
        if group is not _NO_GROUP:
            parts.append(("  " if key != group else " ", ""))
        parts.append(card(value, look, (marks or {}).get(value, "")))
        group = key
    return tuple(parts) if hand else (*parts, ("-", ""))


def asked_line(view: View, look: Look) -> Line | None:
    """
    When the seat is asked whether to call "Rummy!" on a discard (A24), what it is asked.
    """
    if view.phase is not Phase.CALLS or view.to_act != view.seat or view.discarder is None:
        return None
    return (
        ("You are asked: ", WARNING),
        (f"{seat_name(view.discarder, view.seat)} discarded ", ""),
        *cards(view.discard_pile[-1:], look),
        (", which a meld takes: call Rummy! to take it and lay it off now, or decline (A24)", ""),
    )


def taken_line(view: View, look: Look) -> Line | None:
    """
    The cards taken from the discard pile this turn, and the one that must still be played (R15),
    or the card called on, to lay off now (A24).
    """
    if view.phase is Phase.CALLED and view.obligation is not None:
        whose = "the discard" if view.discarder is None else f"{seat_name(view.discarder, view.seat)}'s discard"
        return (
            ("You must lay off ", WARNING),
            card(view.obligation, look, PENDING),
            (" now", WARNING),
            (f" (you called Rummy! on {whose}; A24)", ""),
        )
    if view.obligation is not None:
        return (
            ("You must play ", WARNING),
            card(view.obligation, look, PENDING),
            (" now", WARNING),
            (" (taken from the pile this turn: ", ""),
            *cards(view.picked, look),
            ("; R15)", ""),
        )
    if view.picked:
        return (("Taken from the pile this turn: ", ""), *cards(view.picked, look))
    return None


# -- the moves -----------------------------------------------------------------------------------------------------


def _move_words(action: PlayerAction, view: View, look: Look) -> tuple[str, list[Segment]]:
    """
    The label of *action*'s kind on the screen, and the action's own words, close to its notation.
    """
    match action:
        case DrawStock():
            return "draw", [("from the stock", "")]
        case TakeDiscard(card=taken):
            return "take", [card(taken, look), (_above_words(view.discard_pile, taken).replace(" the ", " "), "")]
        case LayDown(cards=laid):
            return "meld", cards(laid, look)
        case LayOff(meld=index, cards=laid):
            return "lay", [*cards(laid, look), (" on ", ""), card(next(iter(view.melds[index].cards)), look)]
        case Discard(card=dropped):
            return "discard", [card(dropped, look)]
        case Pass():
            return "pass", [("your turn", "")]
        case CallRummy():
            return "call", [("Rummy! on ", ""), *cards(view.discard_pile[-1:], look), (": take it, lay it off", "")]
        case DeclineCall():
            return "decline", [("no call on ", ""), *cards(view.discard_pile[-1:], look)]
        case _:  # pragma: no cover (every player action is matched)
            assert_never(action)


def move_line(number: int, action: PlayerAction, view: View, look: Look) -> Line:
    """
    One legal move on a line of its own, with its number and its kind: ``3) take 7♠ and 6 above``.
    """
    label, words = _move_words(action, view, look)
    return ((f"{number:>2})", NUMBER), (" ", ""), (label, HEADING), (" ", ""), *words)


def move_lines(moves: Sequence[PlayerAction], view: View, look: Look) -> list[Line]:
    """
    The legal moves, numbered from 1 in the order given, one line per kind, wrapped to the screen.
    """
    rows: dict[str, list[list[Segment]]] = {}
    for number, action in enumerate(moves, start=1):
        label, words = _move_words(action, view, look)
        rows.setdefault(label, []).append([(f"{number})", NUMBER), (" ", ""), *words])
    lines: list[Line] = []
    for label, items in rows.items():
        lines.extend(_wrapped(f"{_INDENT}{label:<{_LABEL_WIDTH - 2}}", items, look.width))
    return lines


def _wrapped(label: str, items: list[list[Segment]], width: int) -> list[Line]:
    lines: list[Line] = []
    line: list[Segment] = [(label, HEADING)]
    used = len(label)
    for item in items:
        size = sum(cells(text) for text, _ in item)
        if used > len(label) and used + 3 + size > width:
            lines.append(tuple(line))
            line, used = [(" " * len(label), "")], len(label)
        if used > len(label):
            line.append(("   ", ""))
            used += 3
        line.extend(item)
        used += size
    lines.append(tuple(line))
    return lines


# -- whole screens -------------------------------------------------------------------------------------------------


def header_line(view: View) -> Line:
    """
    The deal's number and dealer, and the scores of the finished deals.
    """
    rules, deal = view.rules, view.deal
    which = f"Deal {deal} of {rules.num_deals}" if deal <= rules.num_deals else f"Deal {deal} (extra deal)"
    scores = tuple(sum(result.totals[team] for result in view.results) for team in (0, 1))
    return (
        (which, HEADING),
        (f", dealt by {seat_name(view.dealer, view.seat)}.  Score: ", ""),
        (f"{team_name(0, view.seat)} {scores[0]}, {team_name(1, view.seat)} {scores[1]}", ""),
    )


def _told(title: str, lines: Sequence[Line]) -> list[Line]:
    return [((title, HEADING),), *((((_INDENT, ""), *line)) for line in lines)] if lines else []


def decision_screen(
    view: View, look: Look, news: Sequence[Line], turn: Sequence[Line], moves: Sequence[PlayerAction]
) -> list[Line]:
    """
    Everything the seat of *view* needs to choose its move: the deal and the scores, what the
    others did since its last turn (*news*) and what it did this turn (*turn*), the table, the
    discard pile and the stock, the other hands' sizes, its own hand, the card it must play, and
    the legal *moves*, numbered.
    """
    lines: list[Line] = [header_line(view), ()]
    lines += _told("Since your last turn:", news)
    lines += _told("This turn:", turn)
    lines += [*table_lines(view, look), *pile_lines(view, look), others_line(view, look), ()]
    marks = {value: PENDING if value == view.obligation else "underline" for value in view.picked}
    lines.append(hand_line(view, look, marks))
    for extra in (taken_line(view, look), asked_line(view, look)):
        if extra is not None:
            lines.append(extra)
    lines += [(), (("Your moves:", HEADING),), *move_lines(moves, view, look)]
    return lines


def _ending(result: DealScore, you: int | None) -> str:
    if result.went_out is not None:
        return f"{'you' if result.went_out == you else SEAT_LETTERS[result.went_out]} went out"
    if result.end is DealEnd.STOCK_EMPTY:
        return "the stock ran out"
    return "the stock was empty and everyone passed"


def _score_row(name: str, score: TeamScore) -> Line:
    items = (score.melded, score.doubling, score.bonus, None if score.in_hand is None else -score.in_hand)
    melded, doubling, bonus, held = ("-" if item is None else str(item) for item in items)
    return ((f"{_INDENT}{name:<10} {melded:>7} {doubling:>9} {bonus:>6} {held:>8} {score.total:>6}", ""),)


def score_lines(view: View, deals: int | None = None) -> list[Line]:
    """
    The score of the deal just finished (or of the *deals*-th deal), item by item for each team,
    and the game's totals after it.
    """
    results = view.results if deals is None else view.results[:deals]
    result = results[-1]
    scores = tuple(sum(done.totals[team] for done in results) for team in (0, 1))
    return [
        ((f"Score of deal {result.deal}", HEADING), (f" ({_ending(result, view.seat)}):", "")),
        ((f"{_INDENT}{'team':<10} {'melded':>7} {'doubling':>9} {'bonus':>6} {'in hand':>8} {'total':>6}", ""),),
        *(_score_row(team_name(team, view.seat), result.teams[team]) for team in (0, 1)),
        ((f"{_INDENT}Game: {team_name(0, view.seat)} {scores[0]}, {team_name(1, view.seat)} {scores[1]}", ""),),
    ]


def _left_line(view: View, seat: int, look: Look) -> Line:
    hand = view.known[seat]
    return (
        (f"{_INDENT}{seat_name(seat, view.seat):<8}", ""),
        *cards(hand, look),
        (f" ({view.rules.points(hand)} points)" if hand else "", ""),
    )


def deal_over_screen(view: View, look: Look, news: Sequence[Line]) -> list[Line]:
    """
    The end of a deal: what the others did since the seat's last turn, the table as the deal
    ended, the cards left in every hand and the deal's score.
    """
    lines: list[Line] = [(((f"Deal {view.deal} is over", HEADING),)), ()]
    lines += _told("Since your last turn:", news)
    lines += [*table_lines(view, look), (("Cards left in hand:", HEADING),)]
    lines += left_lines(view, look)
    return [*lines, (), *score_lines(view)]


def left_lines(view: View, look: Look) -> list[Line]:
    """
    The cards left in each hand at the end of a deal, with their points.
    """
    return [_left_line(view, seat, look) for seat in range(4)]


def result_line(view: View) -> Line:
    """
    Who won the game (R28), with the totals; for the team of the seat that plays, said so.
    """
    scores = tuple(sum(result.totals[team] for result in view.results) for team in (0, 1))
    if view.phase is not Phase.GAME_OVER:
        return ((f"Deal {view.deal}: the game is not over.", ""),)
    if scores[0] == scores[1]:
        return ((f"The game is a draw, {scores[0]} all.", HEADING),)
    winner = int(scores[1] > scores[0])
    yours = "" if view.seat is None else (" You win!" if team_of(view.seat) == winner else " You lose.")
    return ((f"{_TEAM_NAMES[winner]} win, {scores[winner]} to {scores[1 - winner]}.", HEADING), (yours, ""))
