"""
A full state behind a view, for `persian_rummy.events.view_after`: the cards the view does not show
laid out in the places it does not show, and moved where an event shows them or an action needs them.
"""

from __future__ import annotations

from typing import Final, Protocol, TypeAlias

from ..actions import Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from ..cards import FULL_DECK, Card
from ..cardsets import CardSet
from ..exceptions import InvalidValueError
from ..state import GameState, View
from . import build as _build
from . import phase as _phase
from . import seats as _seats
from . import summary as _summary
from . import unchecked as _unchecked
from .cardlogic import blocked_cards, play_represents, usable, wild_usable, wild_witnesses, witnesses

#: The jokers, as a mask.
_JOKERS: Final = 0xF << 52

#: A card set for each seat.
Four: TypeAlias = tuple[CardSet, CardSet, CardSet, CardSet]
_EMPTY: Final = CardSet()
_NO_CARDS: Final = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
_OVER: Final = _phase.OVER
_card_set: Final = _build.single(CardSet, int)


class Told(Protocol):
    """
    What `Layout` reads of an event (`persian_rummy.events.Event`): who acted, and what the action showed.
    """

    @property
    def actor(self) -> int: ...

    @property
    def cards(self) -> CardSet: ...

    @property
    def hands(self) -> Four | None: ...


def misfit(message: str) -> InvalidValueError:
    """
    The error for an event that does not fit the view it is told to.
    """
    return InvalidValueError(f"the event does not fit the view: {message}")


def played_cards(action: LayDown | LayOff | Discard | Pass) -> int:
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


class Layout:
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
        self.stock = list(view.stock) if view.stock is not None else unseen[start:]

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
        return _unchecked.seen(
            view,
            stock_known=view.stock_known,
            table=_summary.table_of(view),
            hands=tuple(map(_card_set, hands)),
            stock=tuple(self.stock),
            known=_NO_CARDS if over else view.known,
        )

    def _pool(self) -> int:
        """
        Every hidden card, as a mask.
        """
        pool = self.hidden[0] | self.hidden[1] | self.hidden[2] | self.hidden[3]
        if not self.view.stock_known:
            pool |= sum(1 << card.index for card in self.stock)
        return pool

    def _place_of(self, bit: int) -> int:
        """
        Where the hidden card *bit* lies: a seat, or 4 for the stock; -1 when it is not hidden.
        """
        for seat in _seats.SEATS:
            if self.hidden[seat] & bit:
                return seat
        if not self.view.stock_known and self._stock_index(bit) >= 0:
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
                raise misfit(f"seat {seat} cannot hold {FULL_DECK[bit.bit_length() - 1]}")
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
            raise misfit(f"{card} cannot be the next card of the stock")
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
            blocked = blocked_cards(self.view.melds)
            for mask in melds:
                blocked |= mask & ((1 << 52) - 1)
            if wild_usable(card.index, hand, table, blocked, ace_low):
                return
            ways = wild_witnesses(card.index, fixed, self._pool() & ~remove & ~avoid, table, blocked, ace_low)
        elif usable(card.index, hand, table, ace_low):
            return
        else:
            ways = witnesses(card.index, fixed, self._pool() & ~remove & ~avoid, table, ace_low)
        singles, pairs = ways if ways is not None else (0, [])
        need = singles & -singles if singles else next(iter(pairs), 0)
        if not need:
            raise misfit(f"seat {seat} could not play {card}")
        self.bring(seat, need, remove)

    def show(self, hands: Four, actor: int, played: int) -> None:
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
                raise misfit(f"the hand shown of seat {seat} is not one it could hold")
            self.hidden[seat] = hidden
            dealt |= hidden
        if not view.stock_known:  # every hand has its size: the rest is the stock
            rest = pool & ~dealt
            self.stock = [card for card in FULL_DECK if rest >> card.index & 1]

    def ready(self, event: Told, action: PlayerAction) -> None:
        """
        Move the hidden cards where *event*, an account of *action*, shows them, or where the action needs them.
        """
        match action:
            case DrawStock():
                self._drawn(event)
            case TakeDiscard():
                self._taken(action)
            case LayDown() | LayOff():
                played = played_cards(action)
                if event.hands is not None:
                    self.show(event.hands, action.seat, played)
                else:
                    self.bring(action.seat, played, 0)
                    if action.stand_ins:
                        self._canonical_jokers(action)
                    self._still_playable(action, played)
            case Discard():
                played = played_cards(action)
                if event.hands is not None:
                    self.show(event.hands, action.seat, played)
                else:
                    self.bring(action.seat, played, 0)
            case Pass():
                if event.hands is not None:
                    self.show(event.hands, action.seat, 0)

    def _drawn(self, event: Told) -> None:
        known = self.view.stock_known
        own = self.view.seat == event.actor
        card = next(iter(event.cards), None)
        if card is None:
            if known or own:
                raise misfit("the player who draws sees the card drawn, and everyone does from a known stock (A18)")
            return
        if not known and not own:
            raise misfit("only the player who draws sees the card drawn from the face-down stock")
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
                raise misfit(f"seat {seat} would hold {FULL_DECK[bit.bit_length() - 1]}, a lower joker (A7)")
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
        shown = play_represents(played, tuple((joker.index, stood.index) for joker, stood in action.stand_ins))
        if type(action) is LayOff:
            if not 0 <= action.meld < len(melds):
                return  # apply says why
            melds[action.meld] |= shown
        else:
            melds.append(shown)
        self.playable(action.seat, card, 0, played, tuple(melds), self._lower_jokers(action))
