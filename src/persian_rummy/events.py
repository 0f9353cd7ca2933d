"""
Events: what each seat saw of each action, as values.

Every action of a game is told to each seat as an `Event`, that seat's account of it, and to a
spectator as well.  An event holds the action as the table saw it, with its hidden part left
out, and the cards the action showed to this observer:

- a deal shows each seat the hand dealt to it, and everyone the dealer and the upcard; never
  the order of the deck, nor another seat's hand (R7);
- a draw from the stock shows the card drawn only to the player who drew it: the others learn
  that the seat drew (R14).  From a stock turned over from the discard pile, whose order
  everyone knows, everyone sees the card (A18);
- a take from the discard pile shows everyone every card taken (R14, R18);
- melds, lay-offs, discards and passes are public (R16-R18, R21), and so are the calls of
  "Rummy!" and the declines (A24): a call shows everyone the card called on, taken from the pile;
- the action that ends a deal shows every hand, as the players lay them down to count the
  score (R24); a discard that turns the discard pile over into a new stock shows that stock (A18).

`events_of` gives the five accounts of an action, the four seats' then the spectator's; those
who saw the same get the same event.  A seat's events tell everything it knows:
`view_from_events` rebuilds its `View` from them alone, and `view_after` keeps a view up to
date one event at a time.  A player that keeps a history of the game is a `Listener`.

>>> import random
>>> from persian_rummy import DrawStock, apply, new_game, observe, random_deal
>>> state = new_game()
>>> state = apply(state, random_deal(state, random.Random(2061)))
>>> north, east, south, west, spectator = events_of(state, DrawStock(1))
>>> east
Event(action=DrawStock(seat=1), cards=CardSet.parse('8c'))
>>> north
Event(action=DrawStock(seat=1))
>>> north == south == west == spectator
True
>>> view = view_after(observe(state, 0), north)
>>> view == observe(apply(state, DrawStock(1)), 0)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Never, Protocol, TypeAlias, assert_never, runtime_checkable

from attrs import Attribute, field, frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import build as _build
from ._internal import coerce as _coerce
from ._internal import phase as _phase
from ._internal.hidden_cards import Four as _Four
from ._internal.hidden_cards import Layout as _Layout
from ._internal.hidden_cards import misfit as _misfit
from ._internal.hidden_cards import played_cards as _played
from .actions import (
    ACTION_TYPES,
    Action,
    CallRummy,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
)
from .cards import FULL_DECK, Card, parse_cards
from .cardsets import CardSet
from .engine import apply
from .exceptions import InvalidTypeError, InvalidValueError
from .rules import Rules
from .state import GameState, View, new_game
from .views import observe

__all__ = ["Event", "Listener", "events_of", "view_after", "view_from_events"]


def __dir__() -> list[str]:
    return __all__


_Five: TypeAlias = tuple["Event", "Event", "Event", "Event", "Event"]
_EMPTY: Final = CardSet()
_PLAYER_ACTIONS: Final = frozenset(ACTION_TYPES) - {Deal}
_OVER: Final = _phase.OVER
# The actions that take cards from the discard pile, whose events show them (R14, A24).
_TAKES: Final = frozenset({TakeDiscard, CallRummy})
_card_set: Final = _build.single(CardSet, int)


# -- the fields of an event, as they are checked ----------------------------------------------------------------


def _is_seat_or_none(_instance: object, attribute: Attribute[int | None], value: object) -> None:
    if value is not None:
        _arguments.seat(value, attribute.name)


def _is_player_action(_instance: object, attribute: Attribute[PlayerAction | None], value: object) -> None:
    if value is not None and type(value) not in _PLAYER_ACTIONS:
        msg = f"{attribute.name} must be a player's action, or None for a deal, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


def _cards(value: Iterable[Card | str] | CardSet | str) -> CardSet:
    return _arguments.cards(value, "cards")


def _upcard(value: Card | str | None) -> Card | None:
    return None if value is None else _coerce.card(value, "upcard")


def _hands(value: Iterable[Iterable[Card | str] | CardSet | str] | None) -> _Four | None:
    if value is None:
        return None
    raw: object = value
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"hands must be four hands, one per seat, or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    parts = tuple(_arguments.cards(part, "hands") for part in value)
    if len(parts) != 4:
        msg = f"hands must be four hands, one per seat, got {len(parts)}"
        raise InvalidValueError(msg)
    return parts


def _stock(value: Iterable[Card | str] | str | None) -> tuple[Card, ...] | None:
    if value is None or isinstance(value, str):
        return None if value is None else parse_cards(value)
    raw: object = value
    if not isinstance(raw, Iterable):
        msg = f"stock must be cards in order, or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return tuple(_coerce.card(item, "a card of the stock") for item in value)


@frozen(repr=False, weakref_slot=False)
class Event:
    """
    An account of one action: what one seat, or a spectator, saw of it.

    Two observers who saw the same have equal accounts: most actions are public, and
    `events_of` gives the same event to everyone for them.  The fields are checked when an
    event is built, as an action's are: cards are cards, and each kind of action shows only
    what it may (a deal its dealer and upcard, a draw one card at most, a take the card taken,
    the action that ends a deal the hands, a discard that turns the pile over the new stock).

    >>> Event(TakeDiscard(1, "9s"), "9s Kd")
    Event(action=TakeDiscard(seat=1, card=Card.parse('9s')), cards=CardSet.parse('Kd 9s'))
    >>> Event(dealer=3, cards="2c 5d 7d Jh Qh 4s X1", upcard="9c").actor
    3
    >>> Event(DrawStock(1), "Qh Qs")
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidValueError: a draw from the stock shows one card at most, not 2

    Attributes:
        action: The player's action, as everyone saw it; `None` for a deal, whose order of the
            cards nobody sees.
        cards: The cards the action put into a hand where this observer saw them: for a deal,
            the observer's own hand (none for a spectator); for a draw from the stock, the card
            drawn, shown to the player who drew it (and to everyone when the stock was turned
            over from the discard pile, A18); for a take from the discard pile, every card taken.
            No card for the other actions, whose cards are in the action.
        dealer: For a deal, the dealer (R5, A4); `None` otherwise.
        upcard: For a deal, the card turned up to start the discard pile (R7); `None` otherwise.
        hands: When the action ends the deal, every hand as it is laid down to count the score
            (R24); `None` otherwise.
        stock: When a discard turns the discard pile over into a new stock (A18), that stock,
            next card first; `None` otherwise.
    """

    action: PlayerAction | None = field(default=None, validator=_is_player_action)
    cards: CardSet = field(default=_EMPTY, converter=_cards)
    dealer: int | None = field(default=None, validator=_is_seat_or_none)
    upcard: Card | None = field(default=None, converter=_upcard)
    hands: _Four | None = field(default=None, converter=_hands)
    stock: tuple[Card, ...] | None = field(default=None, converter=_stock)

    def __attrs_post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise InvalidValueError(problem)

    @property
    def actor(self) -> int:
        """
        The seat that acted: the player, or the dealer for a deal.
        """
        action = self.action
        return self.dealer if action is None else action.seat  # type: ignore[return-value]  # a deal has a dealer

    @property
    def kind(self) -> type[Action]:
        """
        The type of the action told: `persian_rummy.Deal` for a deal, else the action's type.
        """
        return Deal if self.action is None else type(self.action)

    def __repr__(self) -> str:
        parts = [] if self.action is None else [f"action={self.action!r}"]
        if self.cards:
            parts.append(f"cards={self.cards!r}")
        for name in ("dealer", "upcard", "hands", "stock"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"Event({', '.join(parts)})"


def _problem(event: Event) -> str | None:
    """
    Why *event* tells no action that a game could show, as a message; `None` when it could.
    """
    action = event.action
    if action is None:
        return _deal_problem(event)
    if event.dealer is not None or event.upcard is not None:
        return "only a deal shows a dealer and an upcard"
    match action:
        case DrawStock():
            if len(event.cards) > 1:
                return f"a draw from the stock shows one card at most, not {len(event.cards)}"
            return _shows_nothing_more(event, "a draw from the stock")
        case TakeDiscard():
            if action.card not in event.cards:
                return f"a take from the discard pile shows every card taken, {action.card} among them"
            return _shows_nothing_more(event, "a take from the discard pile")
        case LayDown() | LayOff() | Discard() | Pass():
            return _end_problem(event, action)
        case CallRummy() | DeclineCall():
            return _answer_problem(event, action)
        case _:  # pragma: no cover (the field's validator lets only player actions in)
            assert_never(action)


def _answer_problem(event: Event, action: CallRummy | DeclineCall) -> str | None:
    """
    A24: a call of "Rummy!" shows the one card called on, a decline none; neither ends a deal.
    """
    if type(action) is CallRummy and len(event.cards) != 1:
        return f"a call of Rummy! shows the one card called on, not {len(event.cards)}"
    if type(action) is DeclineCall and event.cards:
        return "a decline shows no cards"
    return _shows_nothing_more(event, f"a {action.noun}")


def _deal_problem(event: Event) -> str | None:
    if event.dealer is None or event.upcard is None:
        return "a deal shows its dealer and the upcard (an event of a player's action shows the action)"
    if event.hands is not None or event.stock is not None:
        return "a deal shows no hand but the observer's own, and no stock"
    if event.upcard in event.cards:
        return f"the upcard {event.upcard} cannot be in the hand dealt"
    if len(event.cards) > 13:
        return f"a hand is dealt 13 cards at most, not {len(event.cards)}"
    return None


def _shows_nothing_more(event: Event, what: str) -> str | None:
    if event.hands is not None or event.stock is not None:
        return f"{what} neither ends a deal nor turns the discard pile over"
    return None


def _end_problem(event: Event, action: LayDown | LayOff | Discard | Pass) -> str | None:
    """
    The problem of an event of an action whose cards are all in it: it shows no cards, and at
    most the hands (when the deal ends) or the new stock (after a discard).
    """
    if event.cards:
        return f"a {action.noun} shows no cards but its own"
    hands, stock = event.hands, event.stock
    played = _played(action)
    if stock is not None:
        if type(action) is not Discard or hands is not None:
            return "only a discard that does not end the deal turns the discard pile over"
        mask = sum(1 << card.index for card in stock)
        if len(stock) != mask.bit_count() or not stock or mask & played:
            return "the stock turned over holds cards of the pile, each once, and not the card discarded"
    if hands is not None:
        seen = played
        for part in hands:
            if part.mask & seen:
                return f"the hands shown hold {_card_set(part.mask & seen)} twice, or with the cards played"
            seen |= part.mask
    return None


# -- the accounts of an action ----------------------------------------------------------------------------------


class _EventFields(Protocol):
    def __call__(  # noqa: PLR0913 (every field of Event)
        self,
        *,
        action: PlayerAction | None,
        cards: CardSet,
        dealer: int | None,
        upcard: Card | None,
        hands: _Four | None,
        stock: tuple[Card, ...] | None,
    ) -> Event: ...


_new_event: Final = _build.builder(Event, _EventFields.__call__)


def events_of(before: GameState, action: Action, after: GameState | None = None) -> _Five:
    """
    What each seat, then a spectator, saw of *action* played in *before*: five events.

    Those who saw the same get the same event: everyone, but for a deal (each seat sees its
    own hand) and a draw from a face-down stock (only the player who draws sees the card).

    *after* is the state after the action, ``apply(before, action)``, worked out when not given
    (a caller that has it saves the work; it is not checked).

    Raises:
        IllegalActionError: *action* may not be applied to *before* (when *after* is not given).
        InvalidTypeError: *before* or *after* is not a `GameState`, or *action* not an action.
    """
    if type(before) is not GameState:
        _arguments.expect(before, GameState, "before", "a GameState")
    if after is None:
        after = apply(before, action)
    elif type(after) is not GameState:
        _arguments.expect(after, GameState, "after", "a GameState or None")
    match action:
        case Discard():
            turned = after.stock if after.stock_known and not before.stock else None
            return _everyone(_told(action, cards=_EMPTY, hands=_shown_hands(after), stock=turned))
        case DrawStock():
            return _draw_events(before, action)
        case TakeDiscard() | CallRummy():
            return _everyone(_told(action, cards=after.picked, hands=None, stock=None))
        case DeclineCall():
            return _everyone(_told(action, cards=_EMPTY, hands=None, stock=None))
        case LayDown() | LayOff() | Pass():
            return _everyone(_told(action, cards=_EMPTY, hands=_shown_hands(after), stock=None))
        case Deal():
            return _deal_events(action, after)
        case _:
            raise _not_an_action(action)


def _told(action: PlayerAction, *, cards: CardSet, hands: _Four | None, stock: tuple[Card, ...] | None) -> Event:
    """
    The event of a player's action, as everyone sees it.
    """
    return _new_event(action=action, cards=cards, dealer=None, upcard=None, hands=hands, stock=stock)


def _deal_event(cards: CardSet, dealer: int, upcard: Card) -> Event:
    """
    The event of a deal, as a seat that was dealt *cards* sees it.
    """
    return _new_event(action=None, cards=cards, dealer=dealer, upcard=upcard, hands=None, stock=None)


def _not_an_action(action: Never) -> InvalidTypeError:
    """
    The error for what is not an action; typed so that mypy names a type of action left out.
    """
    return InvalidTypeError(f"action must be an action, got {_limits.shown(action)}")


def _shown_hands(after: GameState) -> _Four | None:
    return after.hands if after.phase in _OVER else None


def _everyone(event: Event) -> _Five:
    return (event, event, event, event, event)


def _draw_events(before: GameState, action: DrawStock) -> _Five:
    stock = before.stock
    if not stock:
        apply(before, action)  # raises: the stock is empty
    drawn = _told(action, cards=_card_set(1 << stock[0].index), hands=None, stock=None)
    if before.stock_known:  # everyone knows the card (A18)
        return _everyone(drawn)
    hidden = _told(action, cards=_EMPTY, hands=None, stock=None)
    seat = action.seat
    return (
        drawn if seat == 0 else hidden,
        drawn if seat == 1 else hidden,
        drawn if seat == 2 else hidden,
        drawn if seat == 3 else hidden,
        hidden,
    )


def _deal_events(action: Deal, after: GameState) -> _Five:
    hands, upcard, dealer = after.hands, after.discard_pile[0], action.seat
    return (
        _deal_event(hands[0], dealer, upcard),
        _deal_event(hands[1], dealer, upcard),
        _deal_event(hands[2], dealer, upcard),
        _deal_event(hands[3], dealer, upcard),
        _deal_event(_EMPTY, dealer, upcard),
    )


# -- a view rebuilt from events ---------------------------------------------------------------------------------


@runtime_checkable
class Listener(Protocol):
    """
    Keeps a history of the game: it is told every action as its seat saw it.

    A match calls `hear` with each event of the listener's seat, the deals included, in the
    order of the game; `view_from_events` (or `view_after`, event by event) turns such a
    history into the seat's `View`.
    """

    def hear(self, event: Event) -> None:
        """
        Take note of *event*, the next action of the game as this listener's seat saw it.
        """
        ...


def view_from_events(rules: Rules, first_dealer: int, seat: int | None, events: Iterable[Event]) -> View:
    """
    The view of *seat* (`None`: a spectator) after *events*, its accounts of every action of a
    game under *rules* whose first dealer was *first_dealer*, the first deal included.

    It equals ``observe(state, seat)`` for the state the actions reached: what a seat saw
    of the actions is everything it knows.

    Raises:
        InvalidValueError: an event is another observer's account, or does not fit the events
            before it.
        IllegalActionError: an event tells an action that could not follow the events before it.
        InvalidTypeError: an argument of the wrong type.
    """
    _arguments.expect(rules, Rules, "rules", "a Rules")
    _arguments.seat(first_dealer, "first_dealer")
    if seat is not None:
        _arguments.seat(seat, "seat")
    raw: object = events
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        msg = f"events must be a sequence of events, got {_limits.shown(events)}"
        raise InvalidTypeError(msg)
    view = observe(new_game(rules, dealer=first_dealer), seat)
    for event in events:
        view = view_after(view, event)
    return view


def view_after(view: View, event: Event) -> View:
    """
    The view of ``view.seat`` after the action that *event*, that seat's account of it, tells.

    A seat that keeps its view up to date this way knows, after each event, what `observe`
    would show it.

    Raises:
        InvalidValueError: *event* does not fit *view*: it is another observer's account (a
            hand dealt or a card drawn that this observer does not see), shows a card where the
            view shows another, or leaves out what the action shows.
        IllegalActionError: the action told may not follow *view*.
        InvalidTypeError: *view* is not a `View`, or *event* not an `Event`.
    """
    _arguments.expect(view, View, "view", "a View")
    _arguments.expect(event, Event, "event", "an Event")
    layout = _Layout(view)
    action = event.action
    if action is None:
        after = apply(layout.state(), _dealt(view, event))
    else:
        layout.ready(event, action)
        after = apply(layout.state(), action)
    new = observe(after, view.seat)
    _check_told(view, event, new)
    return new


def _dealt(view: View, event: Event) -> Deal:
    """
    A deal that gives the view's seat the hand *event* shows and turns its upcard up.
    """
    size = view.rules.hand_size
    own = event.cards
    if view.seat is None and own:
        raise _misfit("a spectator sees no hand dealt")
    if view.seat is not None and len(own) != size:
        raise _misfit(f"a seat is dealt {size} cards, not {len(own)}")
    order: list[Card | None] = [None] * 56
    if view.seat is not None:
        first = (view.seat - event.actor - 1) % 4
        for k, card in enumerate(own):
            order[first + 4 * k] = card
    order[4 * size] = event.upcard
    shown = own.mask | 1 << event.upcard.index  # type: ignore[union-attr]  # a deal's event has one
    rest = iter(card for card in FULL_DECK if not shown >> card.index & 1)
    return Deal(event.actor, tuple(next(rest) if card is None else card for card in order))


def _check_told(view: View, event: Event, new: View) -> None:
    """
    Check that *event* showed what the action showed: the hands when the deal ended (which
    `_internal.hidden_cards.Layout.show` dealt), the stock turned over, every card taken.
    """
    over = new.phase in _OVER
    if (event.hands is not None) != over:
        raise _misfit("the action that ends a deal, and only it, shows every hand")
    turned = new.stock if not view.stock_known else None
    if event.stock != turned:
        raise _misfit("a discard that turns the discard pile over, and only it, shows the new stock")
    if type(event.action) in _TAKES and event.cards != new.picked:
        raise _misfit(f"the cards taken are {new.picked}, not {event.cards}")
