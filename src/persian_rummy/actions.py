"""
Actions: one immutable record per move, each carrying the seat that makes it.

A turn is a draw (`DrawStock` or `TakeDiscard`), any number of `LayDown` and
`LayOff` actions, then a `Discard` (R13); with an empty stock a player may
`Pass` instead (R21).  Under `Rules.rummy_calls` the other seats answer a discard
with `CallRummy` or `DeclineCall` (A24).  `Deal` is the chance action that starts a deal: it
carries the order of all 56 cards, so applying it involves no randomness.

Every action checks its fields when it is built: a seat is an `int` from 0 to 3, cards are
cards of the deck, each once, a meld or a lay-off holds cards, a deal's deck is the 56 cards.
Cards may be given as `Card` values, in card notation, or as an iterable of either:

>>> Discard(2, "Qh")
Discard(seat=2, card=Card.parse('Qh'))
>>> LayDown(0, "Qs Qh Qd") == LayDown(0, [Card.parse(t) for t in ("Qd", "Qh", "Qs")])
True

Every action type is declared once, here, with what the rest of the package needs to know
of it besides its fields: the word that names it in action notation (`Deal.verb`), how its
arguments are written there (`Deal.arguments`), its name in JSON (`Deal.type_name`), how it
is told in words (`Deal.phrase`) and what it is called in messages (`Deal.noun`).  `ACTION_TYPES`
lists the types; notation, JSON, the command line and the test strategies are derived from
these declarations and from the fields.

>>> [(kind.verb, kind.type_name, kind.arguments) for kind in ACTION_TYPES[1:3]]
[('draw', 'draw_stock', ''), ('take', 'take_discard', '{card}')]

An action's ``str`` is its action notation, as `persian_rummy.notation.format_action` writes it
and `persian_rummy.notation.parse_action` reads it; its ``repr`` is the call that builds it:

>>> str(DrawStock(1)), f"{Discard(2, 'Qh')}", repr(DrawStock(1))
('E draw', 'S discard Qh', 'DrawStock(seat=1)')

The notation names a lay-off's meld by one of its cards, which only the state knows, so a
lay-off alone names it by its index in `persian_rummy.GameState.melds` (``#0``);
``format_action(action, state)`` writes the card:

>>> str(LayOff(1, 0, "6s 5s"))
'E lay 5s6s on #0'
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import ClassVar, Final, TypeAlias

from attrs import Attribute, field, frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import coerce as _coerce
from ._internal import seats as _seats
from .cards import Card, parse_cards
from .cardsets import CardSet
from .exceptions import InvalidTypeError, InvalidValueError
from .melds import StandIns

__all__ = [
    "ACTION_TYPES",
    "Action",
    "CallRummy",
    "Deal",
    "DeclineCall",
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
    return _coerce.card(value, "card")


def _cards(value: Iterable[Card | str] | CardSet | str) -> CardSet:
    return _arguments.cards(value, "cards")


def _deck(value: object) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    if not isinstance(value, Iterable):
        msg = f"deck must be the 56 cards in order, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    deck = tuple(value)
    if set(map(type, deck)) != {Card}:
        return tuple(_card(item) for item in deck)
    return deck


def _stand_ins(value: object) -> StandIns:
    return value if type(value) is StandIns else StandIns(value)


def _repr(action: LayDown | LayOff) -> str:
    """
    The call that builds *action*, its stand-ins (A7) shown only when it has some.
    """
    meld = f", meld={action.meld!r}" if type(action) is LayOff else ""
    extra = f", stand_ins={action.stand_ins!r}" if action.stand_ins else ""
    return f"{type(action).__name__}(seat={action.seat!r}{meld}, cards={action.cards!r}{extra})"


def _is_seat(_instance: object, attribute: Attribute[int], value: int) -> None:
    _arguments.seat(value, attribute.name)


def _some_cards(_instance: object, attribute: Attribute[CardSet], value: CardSet) -> None:
    if not value:
        msg = f"{attribute.name} must hold at least one card"
        raise InvalidValueError(msg)


def _is_meld_index(_instance: object, attribute: Attribute[int], value: object) -> None:
    if type(value) is not int:
        msg = f"{attribute.name} must be the index of a meld on the table, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if not 0 <= value < 56:
        msg = f"{attribute.name} must be the index of a meld on the table, 0 to 55, got {value!r}"
        raise InvalidValueError(msg)


_INDEX: Final = operator.attrgetter("index")
#: The stand-ins of a play with no joker standing for a card (A7).
_NO_STAND_INS: Final = StandIns()


def _whole_deck(_instance: object, attribute: Attribute[tuple[Card, ...]], value: tuple[Card, ...]) -> None:
    if len(value) != 56 or len(set(map(_INDEX, value))) != 56:
        msg = f"{attribute.name} must hold each of the 56 cards once, got {len(value)} cards"
        raise InvalidValueError(msg)


def _written(value: Card | CardSet | tuple[Card, ...] | int) -> str:
    """
    A field of an action as its action notation writes it: a card as its notation, cards run together
    (``-`` for none), and a lay-off's meld, which the notation names by a card of the state's meld, by its
    index (``#2``), since an action alone does not know the table.
    """
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, int):
        return f"#{value}"
    return "".join(str(card) for card in value) or "-"


def _notation(action: Action) -> str:
    """
    *action* in action notation: its seat's letter, its verb and its arguments as its type's `arguments` says.
    """
    words = [_seats.LETTERS[action.seat], action.verb]
    words.extend(_written(getattr(action, word[1:-1])) if word[0] == "{" else word for word in action.arguments.split())
    if type(action) is LayDown or type(action) is LayOff:
        stand_ins = action.stand_ins
        if stand_ins:
            words[2] = stand_ins.write(action.cards)
    return " ".join(words)


# What each action type declares besides its fields.  In `arguments` and `phrase`, a name in
# braces stands for a field (or, in a phrase, for something the teller works out from the state).


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

    #: The word for the action in action notation.
    verb: ClassVar[str] = "deal"
    #: How the action's arguments follow the verb in action notation.
    arguments: ClassVar[str] = "{deck}"
    #: The action's ``type`` in JSON.
    type_name: ClassVar[str] = "deal"
    #: What the action does, in words, after the name of the seat.
    phrase: ClassVar[str] = "deals"
    #: What the action is called, in messages.
    noun: ClassVar[str] = "deal"

    seat: int = field(validator=_is_seat)
    deck: tuple[Card, ...] = field(converter=_deck, validator=_whole_deck, repr=lambda deck: f"<{len(deck)} cards>")

    def __str__(self) -> str:
        return _notation(self)


@frozen
class DrawStock:
    """
    Draw the top card of the stock (R14).
    """

    verb: ClassVar[str] = "draw"
    arguments: ClassVar[str] = ""
    type_name: ClassVar[str] = "draw_stock"
    phrase: ClassVar[str] = "draws from the stock"
    noun: ClassVar[str] = "draw"

    seat: int = field(validator=_is_seat)

    def __str__(self) -> str:
        return _notation(self)


@frozen
class TakeDiscard:
    """
    Take *card* from the discard pile together with every card above it (R14).

    *card* must then be played at once: in a new meld or laid off (R15, A9-A12).
    Taking a card that cannot be played that way is illegal.
    """

    verb: ClassVar[str] = "take"
    arguments: ClassVar[str] = "{card}"
    type_name: ClassVar[str] = "take_discard"
    phrase: ClassVar[str] = "takes {card} from the discard pile{above}"
    noun: ClassVar[str] = "take"

    seat: int = field(validator=_is_seat)
    card: Card = field(converter=_card)

    def __str__(self) -> str:
        return _notation(self)


@frozen(repr=False)
class LayDown:
    """
    Lay down one new meld from hand (R16).

    Under `Rules.jokers_wild` its jokers may stand for natural cards, *stand_ins* (A7):
    ``LayDown(2, "5h 7h X1", {"X1": "6h"})``, written ``S meld 5h X1=6h 7h``.
    """

    verb: ClassVar[str] = "meld"
    arguments: ClassVar[str] = "{cards}"
    type_name: ClassVar[str] = "lay_down"
    phrase: ClassVar[str] = "lays down {cards}"
    noun: ClassVar[str] = "meld"

    seat: int = field(validator=_is_seat)
    cards: CardSet = field(converter=_cards, validator=_some_cards)
    stand_ins: StandIns = field(default=_NO_STAND_INS, converter=_stand_ins)

    def __str__(self) -> str:
        return _notation(self)

    def __repr__(self) -> str:
        return _repr(self)


@frozen(repr=False)
class LayOff:
    """
    Lay off one or more cards from hand onto the table meld at index *meld* of `GameState.melds` (R17).

    For a run the cards extend one end: ``6s 5s`` onto ``7s 8s 9s`` is one
    action; a card at each end is two actions (A11).  In action notation the meld
    is named by its first card (``lay 5s6s on 7s``).
    """

    verb: ClassVar[str] = "lay"
    arguments: ClassVar[str] = "{cards} on {meld}"
    type_name: ClassVar[str] = "lay_off"
    phrase: ClassVar[str] = "lays off {cards} onto {meld}"
    noun: ClassVar[str] = "lay-off"

    seat: int = field(validator=_is_seat)
    meld: int = field(validator=_is_meld_index)
    cards: CardSet = field(converter=_cards, validator=_some_cards)
    stand_ins: StandIns = field(default=_NO_STAND_INS, converter=_stand_ins)

    def __str__(self) -> str:
        return _notation(self)

    def __repr__(self) -> str:
        return _repr(self)


@frozen
class Discard:
    """
    Put *card* from hand on top of the discard pile, ending the turn (R18).
    """

    verb: ClassVar[str] = "discard"
    arguments: ClassVar[str] = "{card}"
    type_name: ClassVar[str] = "discard"
    phrase: ClassVar[str] = "discards {card}"
    noun: ClassVar[str] = "discard"

    seat: int = field(validator=_is_seat)
    card: Card = field(converter=_card)

    def __str__(self) -> str:
        return _notation(self)


@frozen
class Pass:
    """
    End the turn without drawing; only when the stock is empty (R21, A16).
    """

    verb: ClassVar[str] = "pass"
    arguments: ClassVar[str] = ""
    type_name: ClassVar[str] = "pass"
    phrase: ClassVar[str] = "passes"
    noun: ClassVar[str] = "pass"

    seat: int = field(validator=_is_seat)

    def __str__(self) -> str:
        return _notation(self)


@frozen
class CallRummy:
    """
    Call "Rummy!" on the card just discarded, out of turn, when asked (A24, `Rules.rummy_calls`).

    The caller takes the top card of the discard pile into its hand, in everyone's sight, and
    must lay it off at once onto a meld on the table; play then goes on with the discarder's left.
    """

    verb: ClassVar[str] = "call"
    arguments: ClassVar[str] = ""
    type_name: ClassVar[str] = "call_rummy"
    phrase: ClassVar[str] = "calls Rummy!"
    noun: ClassVar[str] = "call"

    seat: int = field(validator=_is_seat)

    def __str__(self) -> str:
        return _notation(self)


@frozen
class DeclineCall:
    """
    Let the card just discarded lie, when asked whether to call "Rummy!" on it (A24, `Rules.rummy_calls`).

    The next seat round from the discarder is asked; after the last, the discarder's left draws.
    """

    verb: ClassVar[str] = "decline"
    arguments: ClassVar[str] = ""
    type_name: ClassVar[str] = "decline_call"
    phrase: ClassVar[str] = "does not call"
    noun: ClassVar[str] = "decline"

    seat: int = field(validator=_is_seat)

    def __str__(self) -> str:
        return _notation(self)


#: An action of a player.
PlayerAction: TypeAlias = DrawStock | TakeDiscard | LayDown | LayOff | Discard | Pass | CallRummy | DeclineCall
#: Any action, the deal included.
Action: TypeAlias = Deal | PlayerAction

#: Every type of action, the chance action `Deal` first, then in the order of a turn.
ACTION_TYPES: Final[tuple[type[Action], ...]] = (
    Deal, DrawStock, TakeDiscard, LayDown, LayOff, Discard, Pass, CallRummy, DeclineCall
)  # fmt: skip
