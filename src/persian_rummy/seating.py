"""
The draw for partners and first dealer (R4, R5, A1, A2).

Each of the four players draws a card.  For this draw aces are low and
jokers high: A < 2 < ... < 10 < J < Q < K < joker, suits ignored.  The two
lowest are partners against the other two; the lowest deals first.  Partners
sit opposite: the first dealer takes seat 0 and the partner seat 2 (A2).

Ties that decide nothing are ignored; when a tie leaves the first dealer or
the partnerships open, the tied players draw again (A1), and their new cards
decide only among themselves:

>>> from persian_rummy import Card
>>> cards = [Card.parse(t) for t in ("9c", "Ah", "Kd", "4s")]
>>> team_draw(cards)  # A deals (seat 0), 4 is the partner (seat 2), 9 sits on the dealer's left
Seating(players=(1, 0, 3, 2))
>>> tie = [Card.parse(t) for t in ("5c", "Ah", "5d", "Ks")]
>>> team_draw(tie)
Redraw(players=(0, 2))
>>> team_draw(tie, {0: Card.parse("Qh"), 2: Card.parse("3c")})
Seating(players=(1, 0, 2, 3))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import seats as _seats
from .cards import Card, Rank
from .exceptions import InvalidTypeError, InvalidValueError
from .rules import TeamDrawTiebreak

__all__ = ["Redraw", "Seating", "draw_rank", "team_draw"]


def __dir__() -> list[str]:
    return __all__


@frozen
class Seating:
    """
    The outcome of the draw: who sits where.

    Attributes:
        players: The player (0-3, in the order the cards were given) at each seat
            0-3.  Seat 0 deals first (the lowest card), seat 2 is its partner (the
            second lowest); of the other two, the lower card sits at seat 1, on the
            dealer's left, and plays first (R8).
    """

    players: tuple[int, int, int, int]


@frozen
class Redraw:
    """
    A tie decides the first dealer or the partnerships: these players draw again (A1).

    Attributes:
        players: The players who must draw another card, in order.
    """

    players: tuple[int, ...]


def draw_rank(card: Card | str) -> int:
    """
    A card's value in the draw for partners: ace 1, 2-10 face value, J 11, Q 12, K 13, joker 14 (R4).

    *card* is a `Card` or its notation.
    """
    card = Card.of(card)
    if card.rank is Rank.ACE:
        return 1
    if card.rank is Rank.JOKER:
        return 14
    return int(card.rank)


def _suit_key(card: Card) -> tuple[int, int]:
    # Clubs < diamonds < hearts < spades; jokers (no suit) by their number.
    return (draw_rank(card), card.index)


def team_draw(
    cards: Sequence[Card | str],
    *redraws: Mapping[int, Card | str],
    tiebreak: TeamDrawTiebreak | str = TeamDrawTiebreak.REDRAW,
) -> Seating | Redraw:
    """
    Seat the players from the cards they drew.

    Args:
        cards: The card each player drew, players 0-3 in order.
        redraws: For each round of redrawing, the new card of each player who drew again.
        tiebreak: `TeamDrawTiebreak.REDRAW` (default) or `TeamDrawTiebreak.SUIT_ORDER`,
            which breaks ties by suit (clubs lowest, spades highest; jokers by
            number) so that no redraw is ever needed (A1).

    Returns:
        The seating, or the players who must draw again.

    Cards may also be given by their notation.

    Raises:
        InvalidValueError: not four distinct cards, or a redraw round that repeats a card or
            names a player other than 0-3.
        InvalidTypeError: an argument of the wrong type.
    """
    cards = _round(cards, "the draw")
    if len(cards) != len(_seats.SEATS):
        msg = f"the draw needs one card per player, four in all, got {len(cards)}"
        raise InvalidValueError(msg)
    rounds: list[Mapping[int, Card]] = [dict(enumerate(cards))]
    for number, extra in enumerate(redraws, start=1):
        _arguments.expect(extra, Mapping, f"redraw {number}", "a mapping of players to cards")
        if not all(_seats.is_seat(player) for player in extra):
            msg = f"redraw {number} names players other than 0-3: {_limits.shown(list(extra))}"
            raise InvalidValueError(msg)
        rounds.append(dict(zip(extra, _round(tuple(extra.values()), f"redraw {number}"), strict=True)))
    if TeamDrawTiebreak(tiebreak) is TeamDrawTiebreak.SUIT_ORDER:
        return _seat(sorted(range(4), key=lambda player: _suit_key(cards[player])))
    order: list[int] = []
    pending: list[int] = []
    _order([0, 1, 2, 3], rounds, 0, order, pending)
    if pending:
        return Redraw(tuple(sorted(pending)))
    return _seat(order)


def _round(cards: Sequence[Card | str], what: str) -> tuple[Card, ...]:
    """
    The cards of one round of the draw, each a `Card` or its notation, none twice.
    """
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        msg = f"{what} must hold cards, got {_limits.shown(cards)}"
        raise InvalidTypeError(msg)
    found = tuple(Card.of(card) for card in cards)
    if len(set(found)) != len(found):
        msg = f"{what} has the same card twice: {[str(c) for c in found]}"
        raise InvalidValueError(msg)
    return found


def _matters(first: int, size: int) -> bool:
    """
    Whether the order inside a tied group at places ``first .. first + size - 1`` (0-based) decides anything.
    """
    return size > 1 and (first == 0 or first <= 1 < first + size - 1)


def _order(
    players: list[int], rounds: list[Mapping[int, Card]], depth: int, order: list[int], pending: list[int]
) -> None:
    """
    Append *players*, tied so far, to *order* from lowest to highest by round *depth* and later rounds.

    Ties that decide the first dealer or the partnerships and that no round settles go to *pending*.
    """
    if depth >= len(rounds) or not all(player in rounds[depth] for player in players):
        if _matters(len(order), len(players)):
            pending.extend(players)
        order.extend(players)
        return
    cards = rounds[depth]
    for rank in sorted({draw_rank(cards[player]) for player in players}):
        group = [player for player in players if draw_rank(cards[player]) == rank]
        if _matters(len(order), len(group)):
            _order(group, rounds, depth + 1, order, pending)
        else:
            order.extend(group)


def _seat(order: list[int]) -> Seating:
    dealer, partner, third, fourth = order
    return Seating((dealer, third, partner, fourth))
