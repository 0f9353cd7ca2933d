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

from ._internal import (
    arguments as _arguments,
)
from ._internal import build as _build
from ._internal import (
    coerce as _coerce,
)
from ._internal import limits as _limits
from ._internal import (
    phase as _phase,
)
from ._internal import seats as _seats
from ._internal import (
    summary as _summary,
)
from ._internal import (
    unchecked as _unchecked,
)
from ._internal.cardlogic import blocked_cards as _blocked_cards
from ._internal.cardlogic import play_represents as _play_represents
from ._internal.cardlogic import usable as _usable
from ._internal.cardlogic import wild_usable as _wild_usable
from ._internal.cardlogic import wild_witnesses as _wild_witnesses
from ._internal.cardlogic import witnesses as _witnesses
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

#: The jokers, as a mask.
_JOKERS: Final = 0xF << 52


def __dir__() -> list[str]:
    return __all__


_Four: TypeAlias = tuple[CardSet, CardSet, CardSet, CardSet]
_Five: TypeAlias = tuple["Event", "Event", "Event", "Event", "Event"]
_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_PLAYER_ACTIONS: Final = frozenset(ACTION_TYPES) - {Deal}
_OVER: Final = _phase.OVER
# The actions that take cards from the discard pile, whose events show them (R14, A24).
_TAKES: Final = frozenset({TakeDiscard, CallRummy})
_card_set: Final = _build.single(CardSet, int)
_new_state: Final = _unchecked.new_state


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


def _played(action: LayDown | LayOff | Discard | Pass) -> int:
    """
    The cards *action* puts from the hand on the table or the pile, as a mask.
    """
    match action:
        case Discard():
            return 1 << action.card.index
        case Pass():
            return 0
        case _:
            return action.cards.mask


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


def _misfit(message: str) -> InvalidValueError:
    return InvalidValueError(f"the event does not fit the view: {message}")


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
    `_Layout.show` dealt), the stock turned over, every card taken.
    """
    over = new.phase in _OVER
    if (event.hands is not None) != over:
        raise _misfit("the action that ends a deal, and only it, shows every hand")
    turned = new.known_stock if view.known_stock is None else None
    if event.stock != turned:
        raise _misfit("a discard that turns the discard pile over, and only it, shows the new stock")
    if type(event.action) in _TAKES and event.cards != new.picked:
        raise _misfit(f"the cards taken are {new.picked}, not {event.cards}")


class _Layout:
    """
    A full state that a view's seat cannot tell from the real one, made ready for the next
    action: the cards the view does not show lie in the places it does not show (the hidden
    part of every other hand, and the stock unless everyone knows it), and are moved where the
    action shows them to be, or where the rules say they must be for the action to be legal.
    The arrangement is arbitrary otherwise: nothing the seat sees depends on it.

    Attributes:
        view: The view.
        hidden: By seat, the hidden part of the hand, as a mask (none for the view's own seat).
        stock: The stock, next card first.
    """

    __slots__ = ("hidden", "stock", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        unseen = list(view.unseen)
        self.hidden = [0, 0, 0, 0]
        start = 0
        for other in _seats.SEATS:
            if other != view.seat:
                end = start + view.hand_sizes[other] - len(view.known[other])
                self.hidden[other] = sum(1 << card.index for card in unseen[start:end])
                start = end
        self.stock = list(view.known_stock) if view.known_stock is not None else unseen[start:]

    def hand(self, seat: int) -> int:
        view = self.view
        if seat == view.seat and view.hand is not None:
            return view.hand.mask
        return view.known[seat].mask | self.hidden[seat]

    def state(self) -> GameState:
        view = self.view
        hands = (self.hand(0), self.hand(1), self.hand(2), self.hand(3))
        over = view.phase in _OVER
        # Built without checks: the view is checked, and the hidden cards only moved among hidden places.
        return _new_state(
            view.rules, view.phase, view.known_stock is not None, view.melds, view.obligation, view.picked,
            view.results, _summary.table_of(view), deal=view.deal, dealer=view.dealer, to_act=view.to_act,
            hands=tuple(map(_card_set, hands)), stock=tuple(self.stock), discard_pile=view.discard_pile,
            revealed=_NO_CARDS if over else view.known, passes=view.passes, went_out=view.went_out,
            discarder=view.discarder,
        )  # fmt: skip

    def _pool(self) -> int:
        """
        Every hidden card, as a mask.
        """
        pool = self.hidden[0] | self.hidden[1] | self.hidden[2] | self.hidden[3]
        if self.view.known_stock is None:
            pool |= sum(1 << card.index for card in self.stock)
        return pool

    def _place_of(self, bit: int) -> int:
        """
        Where the hidden card *bit* lies: a seat, or 4 for the stock; -1 when it is not hidden.
        """
        for seat in _seats.SEATS:
            if self.hidden[seat] & bit:
                return seat
        if self.view.known_stock is None and self._stock_index(bit) >= 0:
            return 4
        return -1

    def _stock_index(self, bit: int) -> int:
        index = bit.bit_length() - 1
        return next((i for i, card in enumerate(self.stock) if card.index == index), -1)

    def _put(self, place: int, old: int, new: int) -> None:
        """
        In *place* (a seat's hidden part or the stock), the card *old* replaced by *new* (bits).
        """
        if place < 4:
            self.hidden[place] ^= old | new
        else:
            self.stock[self._stock_index(old)] = FULL_DECK[new.bit_length() - 1]

    def bring(self, seat: int, cards: int, keep: int) -> None:
        """
        Put *cards* into the hand of *seat*, each in place of a hidden card of it that is not in *keep*.
        """
        if seat == self.view.seat:
            return  # the seat's own hand is known: apply says what is wrong with it
        missing = cards & ~self.hand(seat)
        while missing:
            bit = missing & -missing
            missing ^= bit
            place = self._place_of(bit)
            free = self.hidden[seat] & ~(keep | cards)
            if place < 0 or not free:
                raise _misfit(f"seat {seat} cannot hold {FULL_DECK[bit.bit_length() - 1]}")
            spare = free & -free
            self._put(place, bit, spare)
            self.hidden[seat] ^= bit | spare

    def to_top(self, card: Card) -> None:
        """
        Make *card* the next card of the stock.
        """
        top = self.stock[0] if self.stock else None
        if top == card:
            return
        bit = 1 << card.index
        place = self._place_of(bit)
        if top is None or place < 0:
            raise _misfit(f"{card} cannot be the next card of the stock")
        self._put(place, bit, 1 << top.index)
        self.stock[0] = card

    def playable(  # noqa: PLR0913 (the hand as it will be, and what it may not be given)
        self, seat: int, card: Card, add: int, remove: int, melds: tuple[int, ...], avoid: int = 0
    ) -> None:
        """
        Make sure that *seat*, its hand with *add* and without *remove*, can play *card* at once
        (R15, A12): if it cannot, bring it cards it can, from the hidden ones but *avoid*.  *melds*
        are the cards the table's melds represent (A7).
        """
        rules = self.view.rules
        if seat == self.view.seat:
            return  # the seat's own hand is known: apply says what is wrong with it
        table = melds if rules.obligation_by_layoff else ()
        ace_low = rules.ace_low_allowed
        hand = (self.hand(seat) | add) & ~remove
        fixed = (self.view.known[seat].mask | add) & ~remove
        if rules.jokers_wild:
            blocked = _blocked_cards(self.view.melds)
            for mask in melds:
                blocked |= mask & ((1 << 52) - 1)
            if _wild_usable(card.index, hand, table, blocked, ace_low):
                return
            ways = _wild_witnesses(card.index, fixed, self._pool() & ~remove & ~avoid, table, blocked, ace_low)
        elif _usable(card.index, hand, table, ace_low):
            return
        else:
            ways = _witnesses(card.index, fixed, self._pool() & ~remove & ~avoid, table, ace_low)
        singles, pairs = ways if ways is not None else (0, [])
        need = singles & -singles if singles else next(iter(pairs), 0)
        if not need:
            raise _misfit(f"seat {seat} could not play {card}")
        self.bring(seat, need, remove)

    def show(self, hands: _Four, actor: int, played: int) -> None:
        """
        Deal the hidden cards as *hands* shows them, with the cards *played* still in the hand of *actor*.
        """
        view = self.view
        pool = self._pool()
        dealt = 0
        for seat in _seats.SEATS:
            target = hands[seat].mask | (played if seat == actor else 0)
            hidden = target & ~view.known[seat].mask
            size = len(hands[seat]) + (played.bit_count() if seat == actor else 0)
            if seat == view.seat:
                hidden = 0
                wrong = target != self.hand(seat)
            else:
                wrong = bool(hidden & ~pool) or target & view.known[seat].mask != view.known[seat].mask
            if wrong or size != view.hand_sizes[seat]:
                raise _misfit(f"the hand shown of seat {seat} is not one it could hold")
            self.hidden[seat] = hidden
            dealt |= hidden
        if view.known_stock is None:  # every hand has its size: the rest is the stock
            rest = pool & ~dealt
            self.stock = [card for card in FULL_DECK if rest >> card.index & 1]

    def ready(self, event: Event, action: PlayerAction) -> None:
        """
        Move the hidden cards where *event*, an account of *action*, shows them, or where the action needs them.
        """
        match action:
            case DrawStock():
                self._drawn(event)
            case TakeDiscard():
                self._taken(action)
            case LayDown() | LayOff():
                played = _played(action)
                if event.hands is not None:
                    self.show(event.hands, action.seat, played)
                else:
                    self.bring(action.seat, played, 0)
                    if action.stand_ins:
                        self._canonical_jokers(action)
                    self._still_playable(action, played)
            case Discard():
                played = _played(action)
                if event.hands is not None:
                    self.show(event.hands, action.seat, played)
                else:
                    self.bring(action.seat, played, 0)
            case Pass():
                if event.hands is not None:
                    self.show(event.hands, action.seat, 0)

    def _drawn(self, event: Event) -> None:
        known = self.view.known_stock is not None
        own = self.view.seat == event.actor
        card = next(iter(event.cards), None)
        if card is None:
            if known or own:
                raise _misfit("the player who draws sees the card drawn, and everyone does from a known stock (A18)")
            return
        if not known and not own:
            raise _misfit("only the player who draws sees the card drawn from the face-down stock")
        self.to_top(card)

    def _taken(self, action: TakeDiscard) -> None:
        view = self.view
        pile, card = view.discard_pile, action.card
        if card not in pile:
            return  # apply says why
        i = pile.index(card)
        if view.rules.top_discard_free and view.stock_size and i == len(pile) - 1:
            return  # a free top card need not be played (A9)
        above = sum(1 << other.index for other in pile[i + 1 :])
        self.playable(action.seat, card, above, 0, tuple(meld.represents.mask for meld in view.melds))

    def _canonical_jokers(self, action: LayDown | LayOff) -> None:
        """
        A play with jokers standing for cards uses the lowest-numbered jokers the seat holds, the one
        taken from the pile first (A7): the seat's hidden part gives away the lower jokers it does not use.
        """
        seat = action.seat
        if seat == self.view.seat:
            return  # the seat's own hand is known: apply says what is wrong with it
        giving = self.hidden[seat] & self._lower_jokers(action)
        while giving:
            bit = giving & -giving
            giving ^= bit
            elsewhere = self._pool() & ~self.hidden[seat] & ~_JOKERS
            if not elsewhere:
                raise _misfit(f"seat {seat} would hold {FULL_DECK[bit.bit_length() - 1]}, a lower joker (A7)")
            other = elsewhere & -elsewhere
            self._put(self._place_of(other), other, bit)
            self.hidden[seat] ^= bit | other

    def _lower_jokers(self, action: LayDown | LayOff) -> int:
        """
        The jokers that *action*'s seat may not hold, since the play uses higher ones (A7): a mask.
        """
        used = action.stand_ins.jokers.mask
        obligation = self.view.obligation
        others = used & ~(1 << obligation.index) if obligation is not None else used
        if not others:
            return 0
        return ((1 << (others.bit_length() - 1)) - 1) & ~used & _JOKERS

    def _still_playable(self, action: LayDown | LayOff, played: int) -> None:
        """
        A meld or a lay-off that leaves the card taken from the pile for later leaves it playable (A11).
        """
        card = self.view.obligation
        if card is None or played >> card.index & 1:
            return
        melds = [meld.represents.mask for meld in self.view.melds]
        shown = _play_represents(played, tuple((joker.index, stood.index) for joker, stood in action.stand_ins))
        if type(action) is LayOff:
            if not 0 <= action.meld < len(melds):
                return  # apply says why
            melds[action.meld] |= shown
        else:
            melds.append(shown)
        self.playable(action.seat, card, 0, played, tuple(melds), self._lower_jokers(action))
