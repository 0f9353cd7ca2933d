"""
Actions: one immutable record per move, each carrying the seat that makes it.

A turn is a draw (`DrawStock` or `TakeDiscard`), any number of `LayDown` and
`LayOff` actions, then a `Discard` (R13); with an empty stock a player may
`Pass` instead (R21).  `Deal` is the chance action that starts a deal: it
carries the order of all 56 cards, so applying it involves no randomness.

Cards may be given as `Card` values or in card notation:

>>> Discard(2, "Qh")
Discard(seat=2, card=Card.parse('Qh'))
>>> LayDown(0, "Qs Qh Qd") == LayDown(0, [Card.parse(t) for t in ("Qd", "Qh", "Qs")])
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

from attrs import field, frozen

from .cards import Card
from .cardsets import CardSet

__all__ = [
    "Action",
    "Deal",
    "Discard",
    "DrawStock",
    "LayDown",
    "LayOff",
    "Pass",
    "PlayerAction",
    "TakeDiscard",
]


def __dir__() -> list[str]:
    return __all__


def _card(value: Card | str) -> Card:
    return Card.parse(value) if isinstance(value, str) else value


def _cards(value: Iterable[Card] | CardSet | str) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    return CardSet(value)


def _deck(value: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(Card.parse(token) for token in value.split())
    return tuple(value)


@frozen
class Deal:
    """
    The chance action that deals a deal: the dealer and the order of the 56 cards.

    Cards go one at a time clockwise, starting at the dealer's left, until every
    player has ``hand_size`` cards; the next card is turned up to start the
    discard pile and the rest, in order, is the stock (R7, A25).

    Attributes:
        seat: The dealer.
        deck: All 56 cards, first dealt first.
    """

    seat: int
    deck: tuple[Card, ...] = field(converter=_deck, repr=lambda deck: f"<{len(deck)} cards>")


@frozen
class DrawStock:
    """
    Draw the top card of the stock (R14).
    """

    seat: int


@frozen
class TakeDiscard:
    """
    Take *card* from the discard pile together with every card above it (R14).

    *card* must then be played at once: in a new meld or laid off (R15, A9-A12).
    Taking a card that cannot be played that way is illegal.
    """

    seat: int
    card: Card = field(converter=_card)


@frozen
class LayDown:
    """
    Lay down one new meld from hand (R16).
    """

    seat: int
    cards: CardSet = field(converter=_cards)


@frozen
class LayOff:
    """
    Lay off one or more cards from hand onto the table meld at index *meld* of `GameState.melds` (R17).

    For a run the cards extend one end: ``6s 5s`` onto ``7s 8s 9s`` is one
    action; a card at each end is two actions (A11).
    """

    seat: int
    meld: int
    cards: CardSet = field(converter=_cards)


@frozen
class Discard:
    """
    Put *card* from hand on top of the discard pile, ending the turn (R18).
    """

    seat: int
    card: Card = field(converter=_card)


@frozen
class Pass:
    """
    End the turn without drawing; only when the stock is empty (R21, A16).
    """

    seat: int


#: An action of a player.
PlayerAction: TypeAlias = DrawStock | TakeDiscard | LayDown | LayOff | Discard | Pass
#: Any action, the deal included.
Action: TypeAlias = Deal | PlayerAction

# Every seat's simple actions, built once: legal_actions() hands these out.
DRAW_STOCK: Final = tuple(DrawStock(seat) for seat in range(4))
PASS: Final = tuple(Pass(seat) for seat in range(4))
