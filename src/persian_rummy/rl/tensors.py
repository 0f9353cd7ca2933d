"""
Tensors: what a seat sees, and what it saw happen, as fixed-size arrays of numbers for learning.

`observation_tensor` turns a `View` into a 1-D ``float32`` array of `OBSERVATION_SIZE` values
in [0, 1]; `information_state_tensor` adds a fixed-size summary of the public history of the
game, built from the seat's events (`persian_rummy.events`).  `OBSERVATION_LAYOUT` and
`INFORMATION_STATE_LAYOUT` name every part of them.  Everything is relative to the observing
seat (itself, then the seats to its left, opposite and to its right), so one network can play
every seat.  `observation_string` and `information_state_string` tell the same in text.

The history part holds only what every seat saw, never the cards a seat drew from the stock:
its hand is in the observation, and when it drew them changes nothing it can do.  So all states
consistent with a view and the public history have the same information state, and one
`History`, kept up to date one event at a time, serves the four seats.  docs/tensors.md shows
the layouts and the reasons.

Needs numpy (the extra ``numpy``).

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, observe, random_deal
>>> rng = random.Random(8)
>>> state = apply(new_game(), random_deal(new_game(), rng))
>>> tensor = observation_tensor(observe(state, 1))
>>> tensor.shape == (OBSERVATION_SIZE,), str(tensor.dtype), float(tensor.min()), float(tensor.max())
(True, 'float32', 0.0, 1.0)
>>> hand = OBSERVATION_LAYOUT[0]
>>> hand.name, int(tensor[hand.start : hand.start + hand.size].sum())
('hand', 7)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Final, TypeAlias, assert_never

import attrs
import numpy as np
from attrs import field, frozen

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..actions import CallRummy, DeclineCall, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from ..cards import FULL_DECK, Card
from ..cardsets import CardSet
from ..events import Event
from ..exceptions import InvalidTypeError, InvalidValueError
from ..melds import MeldKind
from ..notation import SEAT_LETTERS, format_action, format_cards, format_meld, format_rules
from ..rules import DEFAULT_RULES, Rules
from ..state import View
from . import _numbers
from . import _tensor_layouts as _layouts
from ._tensor_layouts import AT as _AT
from ._tensor_layouts import BITS as _BITS
from ._tensor_layouts import BYTES as _BYTES
from ._tensor_layouts import CARDS as _CARDS
from ._tensor_layouts import COUNT_SCALE as _COUNT_SCALE
from ._tensor_layouts import COUNTS as _COUNTS
from ._tensor_layouts import HISTORY_BIT_COUNT as _HISTORY_BIT_COUNT
from ._tensor_layouts import HISTORY_BYTES as _HISTORY_BYTES
from ._tensor_layouts import HISTORY_SIZE as _HISTORY_SIZE
from ._tensor_layouts import PHASE_BITS as _PHASE_BITS
from ._tensor_layouts import WILD_INFORMATION_STATE_LAYOUT as _WILD_INFORMATION_STATE_LAYOUT
from ._tensor_layouts import WILD_OBSERVATION_LAYOUT as _WILD_OBSERVATION_LAYOUT
from ._tensor_layouts import WILD_OBSERVATION_SIZE as _WILD_OBSERVATION_SIZE
from ._tensor_layouts import Segment

__all__ = [
    "INFORMATION_STATE_LAYOUT",
    "INFORMATION_STATE_SIZE",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "History",
    "Segment",
    "information_state_layout",
    "information_state_size",
    "information_state_string",
    "information_state_tensor",
    "observation_layout",
    "observation_size",
    "observation_string",
    "observation_tensor",
    "observation_tensors",
]


def __dir__() -> list[str]:
    return __all__


#: The parts of `observation_tensor`, in order.
OBSERVATION_LAYOUT: Final = _layouts.OBSERVATION_LAYOUT
#: The length of `observation_tensor`.
OBSERVATION_SIZE: Final = _layouts.OBSERVATION_SIZE
#: The parts of `information_state_tensor`: the observation's, then the history part's.
INFORMATION_STATE_LAYOUT: Final = _layouts.INFORMATION_STATE_LAYOUT
#: The length of `information_state_tensor`.
INFORMATION_STATE_SIZE: Final = _layouts.INFORMATION_STATE_SIZE
#: A team's score is mapped from [-S, S] to [0, 1], S 500 under R23's card values (a deck of 476
#: points) and in proportion to the deck's points under others (`_score_scale`).
_SCORE_SCALE: Final = 500
_R23_DECK: Final = DEFAULT_RULES.card_values.deck_points
_SET: Final = MeldKind.SET
#: A history's count (a byte, up to the scale) as the tensor shows it.
_COUNT_VALUES: Final = np.arange(256, dtype=np.float32) / _COUNT_SCALE
#: For each seat, where its history's counts are in the bytes of the planes and the counts, in relative order.
_COUNT_ORDER: Final = tuple(
    np.array(
        [_HISTORY_BYTES + 4 * kind + (seat + relative) % 4 for kind in range(len(_COUNTS)) for relative in range(4)]
    )
    for seat in range(4)
)
# An event as a history keeps it (see History._told).
_Entry: TypeAlias = tuple[
    PlayerAction | None, int, int, tuple[CardSet, CardSet, CardSet, CardSet] | None, tuple[Card, ...] | None
]

#: k / 56 for k = 0 to 56: a card's depth in the pile, or its place in a known stock.
_FRACTIONS: Final = tuple(k / _CARDS for k in range(_CARDS + 1))
# Where the parts start, in the bits and in the tensor; for a part of one bit, its bit.
_KNOWN: Final = _AT["known_self"]
_PILE: Final = _AT["pile"]
_TABLE_OWN: Final = _AT["table_own"]
_TABLE_OTHER: Final = _AT["table_other"]
_MELD_START: Final = _AT["meld_start"]
_DOUBLED: Final = _AT["doubled"]
_OBLIGATION: Final = _AT["obligation"]
_PICKED: Final = _AT["picked"]
_STOCK: Final = _AT["stock"]
_TO_ACT: Final = _AT["to_act"]
_DEALER: Final = _AT["dealer"]
_WENT_OUT: Final = _AT["went_out"]
_STOCK_KNOWN: Final = 1 << _AT["stock_known"]
_PUBLIC: Final = 1 << _AT["public"]
_PILE_DEPTH: Final = _AT["pile_depth"]
_STOCK_ORDER: Final = _AT["stock_order"]
_STOCK_SIZE: Final = _AT["stock_size"]


# -- the observation ----------------------------------------------------------------------------------------------


def _check_view(view: object) -> View:
    if not isinstance(view, View):
        msg = f"view must be a View, got {_limits.shown(view)}"
        raise InvalidTypeError(msg)
    return view


def _table_bits(view: View, seat: int) -> int:
    """
    The bits of the table's parts: the cards of each team, the melds' first cards, the sets of four.
    """
    even = odd = starts = fours = 0
    rules = view.rules
    ace_low, doubled = rules.ace_low_allowed, (rules.double_four_of_a_kind, rules.double_four_card_runs)
    for meld in view.melds:
        laid, cards = meld.laid_down.mask, meld.cards.mask
        if meld.owner & 1:
            odd |= laid
        else:
            even |= laid
        if cards != laid:  # cards laid off, by any seat
            layoffs = meld.layoffs
            even |= layoffs[0].mask | layoffs[2].mask
            odd |= layoffs[1].mask | layoffs[3].mask
        starts |= _low_ace(cards) if ace_low else cards & -cards
        if laid.bit_count() == 4 and doubled[meld.kind is not _SET]:
            fours |= laid
    if seat & 1:
        even, odd = odd, even
    return even << _TABLE_OWN | odd << _TABLE_OTHER | starts << _MELD_START | fours << _DOUBLED


def _low_ace(cards: int) -> int:
    """
    The first card of a meld of *cards*: its lowest, but the ace of a run from the ace up (A8).
    """
    start = cards & -cards
    suit_base = (start.bit_length() - 1) // 13 * 13
    two, king, ace = 1 << suit_base, 1 << (suit_base + 11), 1 << (suit_base + 12)
    if start == two and cards & ace and not cards & king and suit_base < 52:
        return ace
    return start


def _bits(view: View, seat: int) -> int:
    """
    The bits of the observation but the discard pile's.
    """
    known = view.known
    bits = (
        _table_bits(view, seat)
        | _PHASE_BITS[view.phase]
        | known[seat].mask << _KNOWN
        | known[(seat + 1) & 3].mask << (_KNOWN + _CARDS)
        | known[(seat + 2) & 3].mask << (_KNOWN + 2 * _CARDS)
        | known[(seat + 3) & 3].mask << (_KNOWN + 3 * _CARDS)
        | view.picked.mask << _PICKED
        | 1 << (_DEALER + ((view.dealer - seat) & 3))
    )
    bits |= _PUBLIC if view.hand is None else view.hand.mask
    if view.obligation is not None:
        bits |= 1 << (_OBLIGATION + view.obligation.index)
    if view.to_act is not None:
        bits |= 1 << (_TO_ACT + ((view.to_act - seat) & 3))
    if view.went_out is not None:
        bits |= 1 << (_WENT_OUT + ((view.went_out - seat) & 3))
    return bits


def _scalars(view: View, seat: int) -> tuple[float, ...]:
    sizes = view.hand_sizes
    totals = [0, 0]
    for result in view.results:
        teams = result.teams
        totals[0] += teams[0].total
        totals[1] += teams[1].total
    own = seat & 1
    scale = _score_scale(view.rules)
    return (
        view.stock_size / _CARDS,
        sizes[seat] / _CARDS,
        sizes[(seat + 1) & 3] / _CARDS,
        sizes[(seat + 2) & 3] / _CARDS,
        sizes[(seat + 3) & 3] / _CARDS,
        _score(totals[own], scale),
        _score(totals[1 - own], scale),
        min(view.deal / view.rules.num_deals, 1.0),
        min(view.passes / 4, 1.0),
    )


@functools.lru_cache(maxsize=64)
def _score_scale(rules: Rules) -> float:
    """
    The points S that a team's total is scaled by: 500 under R23's card values, in proportion
    to the deck's points under others (`Rules.card_values`); when no card scores, the
    going-out bonus, and 1 if there is none, so that it divides.
    """
    deck = rules.card_values.deck_points
    return _SCORE_SCALE * deck / _R23_DECK if deck else max(abs(rules.go_out_bonus), 1)


def _score(total: int, scale: float) -> float:
    return min(max((total + scale) / (2 * scale), 0.0), 1.0)


def observation_layout(rules: Rules = DEFAULT_RULES) -> tuple[Segment, ...]:
    """
    The parts of `observation_tensor` under *rules*: `OBSERVATION_LAYOUT`, and under
    `Rules.jokers_wild` (A7) one more part after it, ``stood_for``, the cards that the jokers on
    the table stand for.

    >>> [segment.name for segment in observation_layout(Rules(jokers_wild=True))[-2:]]
    ['passes', 'stood_for']

    Raises:
        InvalidTypeError: *rules* is not a `Rules`.
    """
    _arguments.expect(rules, Rules, "rules", "a Rules")
    return _WILD_OBSERVATION_LAYOUT if rules.jokers_wild else OBSERVATION_LAYOUT


def observation_size(rules: Rules = DEFAULT_RULES) -> int:
    """
    The length of `observation_tensor` under *rules*: `OBSERVATION_SIZE`, 56 more under `Rules.jokers_wild` (A7).

    >>> observation_size(), observation_size(Rules(jokers_wild=True))
    (868, 924)

    Raises:
        InvalidTypeError: *rules* is not a `Rules`.
    """
    return observation_layout(rules)[-1].stop


def information_state_layout(rules: Rules = DEFAULT_RULES) -> tuple[Segment, ...]:
    """
    The parts of `information_state_tensor` under *rules*: those of `observation_layout`, then the history part's.

    Raises:
        InvalidTypeError: *rules* is not a `Rules`.
    """
    _arguments.expect(rules, Rules, "rules", "a Rules")
    return _WILD_INFORMATION_STATE_LAYOUT if rules.jokers_wild else INFORMATION_STATE_LAYOUT


def information_state_size(rules: Rules = DEFAULT_RULES) -> int:
    """
    The length of `information_state_tensor` under *rules*: `INFORMATION_STATE_SIZE`, 56 more under `Rules.jokers_wild`.

    Raises:
        InvalidTypeError: *rules* is not a `Rules`.
    """
    return information_state_layout(rules)[-1].stop


def _size_of(view: View) -> int:
    """
    The length of the observation of *view*: the stand-ins' part only under wild jokers (A7).
    """
    return _WILD_OBSERVATION_SIZE if view.rules.jokers_wild else OBSERVATION_SIZE


def _fill_stood_for(view: View, out: np.ndarray) -> None:
    """
    Write into *out*, 56 values, the cards that the jokers on the table of *view* stand for (A7).
    """
    stood = 0
    for meld in view.melds:
        stood |= meld.stand_ins.cards.mask
    raw = np.frombuffer(stood.to_bytes(_CARDS // 8, "little"), dtype=np.uint8)
    out[:] = np.unpackbits(raw, count=_CARDS, bitorder="little")


def _fill_observation(view: View, out: np.ndarray) -> None:
    """
    Write the observation of *view* into *out*, an array of `observation_size` values of its rules.
    """
    if view.rules.jokers_wild:
        _fill_stood_for(view, out[OBSERVATION_SIZE:])
    seat = 0 if view.seat is None else view.seat
    bits = _bits(view, seat)
    out[_PILE_DEPTH:_STOCK_SIZE] = 0.0
    pile = view.discard_pile
    depth = len(pile)
    for card in pile:
        bits |= 1 << (_PILE + card.index)
        out[_PILE_DEPTH + card.index] = _FRACTIONS[depth]
        depth -= 1
    stock = view.stock
    if stock is not None:
        bits |= _STOCK_KNOWN
        for place, card in enumerate(stock, 1):
            bits |= 1 << (_STOCK + card.index)
            out[_STOCK_ORDER + card.index] = _FRACTIONS[place]
    raw = np.frombuffer(bits.to_bytes(_BYTES, "little"), dtype=np.uint8)
    out[:_BITS] = np.unpackbits(raw, count=_BITS, bitorder="little")
    out[_STOCK_SIZE:OBSERVATION_SIZE] = _scalars(view, seat)


def observation_tensor(view: View, *, out: np.ndarray | None = None) -> np.ndarray:
    """
    What *view* shows, as a ``float32`` array of `OBSERVATION_SIZE` values in [0, 1] (see `OBSERVATION_LAYOUT`);
    under `Rules.jokers_wild` (A7), 56 more (`observation_layout`).

    Seats are relative to the view's seat: its own, then the seats to its left, opposite and to
    its right.  The public view (``observe(state)``) is read as seen from seat 0, with an empty
    hand and the part ``public`` set.  With *out* (a writable ``float32`` array of shape
    ``(OBSERVATION_SIZE,)``, such as a row of a batch) every value is written there and *out*
    is returned: no array is allocated.

    Raises:
        InvalidTypeError: *view* is not a `View`, or *out* is not a ``float32`` array.
        InvalidValueError: *out* is read-only or not of shape ``(observation_size(view.rules),)``.
    """
    view = _check_view(view)
    size = _size_of(view)
    if out is None:
        out = np.empty(size, dtype=np.float32)
    else:
        _numbers.check_out(out, (size,))
    _fill_observation(view, out)
    return out


def observation_tensors(views: Sequence[View], *, out: np.ndarray | None = None) -> np.ndarray:
    """
    The observations of *views* as one ``float32`` array of shape ``(len(views), OBSERVATION_SIZE)``,
    row *i* being ``observation_tensor(views[i])``; with *out* (a writable ``float32`` array of
    that shape) the rows are written there and *out* is returned.

    >>> from persian_rummy import new_game, observe
    >>> batch = observation_tensors([observe(new_game(), 0), observe(new_game(), 1)])
    >>> batch.shape, str(batch.dtype)
    ((2, 868), 'float32')
    >>> observation_tensors([observe(new_game(), 1)], out=batch[:1]).base is batch
    True

    Raises:
        InvalidTypeError: *views* is no sequence, an item of it is not a `View`, or *out* is not a
            ``float32`` array.
        InvalidValueError: *out* is read-only or not of shape ``(len(views), OBSERVATION_SIZE)``; the
            views' rules give observations of different sizes (`observation_size`).
    """
    _check_views(views)
    checked = [_check_view(view) for view in views]
    sizes = {_size_of(view) for view in checked}
    if len(sizes) > 1:
        msg = f"the views' observations must be of one size, got sizes {sorted(sizes)}"
        raise InvalidValueError(msg)
    size = sizes.pop() if sizes else OBSERVATION_SIZE
    if out is None:
        out = np.empty((len(checked), size), dtype=np.float32)
    else:
        _numbers.check_out(out, (len(checked), size))
    for row, view in zip(out, checked, strict=True):
        _fill_observation(view, row)
    return out


def _check_views(views: object) -> None:
    """
    Refuse *views* that are no sequence (a text is none).
    """
    if isinstance(views, str | bytes) or not isinstance(views, Sequence):
        msg = f"views must be a sequence of views, got {_limits.shown(views)}"
        raise InvalidTypeError(msg)


# -- the history ----------------------------------------------------------------------------------------------------


@frozen(repr=False, weakref_slot=False)
class History:
    """
    The public part of a game's history so far, kept up to date one event at a time.

    It holds only what every seat and a spectator saw: the dealers and upcards, every action,
    the cards taken from the discard pile, drawn from a known stock (A18) or shown at the end of
    a deal; never the card a seat drew from a face-down stock, even from that seat's own events.
    So every seat's events, and a spectator's, give one and the same history, and one `History`
    serves all four seats: `History.tensor` orders it for the seat asked for.

    Attributes:
        deals: The number of deals told so far.

    >>> import random
    >>> from persian_rummy import DrawStock, apply, new_game, random_deal
    >>> from persian_rummy.events import events_of
    >>> state = new_game()
    >>> history = History()
    >>> for action in (random_deal(state, random.Random(2061)), DrawStock(1)):
    ...     history = history.after(events_of(state, action)[1])
    ...     state = apply(state, action)
    >>> history.lines
    ('deal 1: N deals, upcard Jc', 'E draw')
    """

    deals: int = field(default=0, init=False)
    # What was told, an entry per event: for a deal (None, dealer, upcard's index, None, None);
    # for an action (action, the cards it showed as a mask, the index of the first card of the
    # meld a lay-off names, or -1, the hands shown, the stock shown).  Its lines are made when asked.
    _told: tuple[_Entry, ...] = field(default=(), init=False)
    _stock_known: bool = field(default=False, init=False)
    _melds: tuple[int, ...] = field(default=(), init=False)
    _planes: int = field(default=0, init=False)
    _counts: int = field(default=0, init=False)

    @property
    def lines(self) -> tuple[str, ...]:
        """
        The history as text: a line per event, in action notation (`persian_rummy.notation`), and a
        line for the hands shown at the end of a deal and for a stock turned over (A18).
        """
        return tuple(_lines(self._told))

    def after(self, event: Event) -> History:
        """
        This history followed by *event*, one seat's (or a spectator's) account of the next action.

        Raises:
            InvalidTypeError: *event* is not an `Event`.
            InvalidValueError: *event* cannot follow: an action before the first deal, a lay-off
                onto a meld the history has not seen laid down.
        """
        _arguments.expect(event, Event, "event", "an Event")
        action = event.action
        if action is None:
            upcard = event.upcard.index  # type: ignore[union-attr]  # a deal's event shows its upcard
            entry: _Entry = (None, event.dealer, upcard, None, None)  # type: ignore[assignment]  # and dealer
            return _new_history(
                deals=self.deals + 1,
                told=(*self._told, entry),
                stock_known=False,
                melds=(),
                planes=1 << upcard,
                counts=0,
            )
        if not self.deals:
            msg = f"a history starts with the first deal, not with {_limits.shown(action)}"
            raise InvalidValueError(msg)
        kind, group, cards, first, melds = _effect(self, event, action)
        shown = cards if group == _TAKEN else 0
        return _new_history(
            deals=self.deals,
            told=(*self._told, (action, shown, first, event.hands, event.stock)),
            stock_known=self._stock_known or event.stock is not None,
            melds=melds,
            planes=self._planes | cards << _plane(group, action.seat),
            counts=_counted(self._counts, kind, action.seat),
        )

    def tensor(self, seat: int | None = None) -> np.ndarray:
        """
        The history part of the information state, ``float32`` values in [0, 1], relative to *seat*.

        Its parts are those of `INFORMATION_STATE_LAYOUT` after the observation's.  *seat* `None`
        orders it as for seat 0, as the public view is.

        Raises:
            InvalidValueError: *seat* is not a seat 0-3 or `None`.
        """
        if seat is not None:
            _arguments.seat(seat, "seat")
        out = np.empty(_HISTORY_SIZE, dtype=np.float32)
        self._fill(out, 0 if seat is None else seat)
        return out

    def _fill(self, out: np.ndarray, seat: int) -> None:
        planes = _turned(self._planes, seat) if seat else self._planes
        raw = np.frombuffer(
            planes.to_bytes(_HISTORY_BYTES, "little") + self._counts.to_bytes(4 * len(_COUNTS), "little"),
            dtype=np.uint8,
        )
        out[:_HISTORY_BIT_COUNT] = np.unpackbits(raw, count=_HISTORY_BIT_COUNT, bitorder="little")
        out[_HISTORY_BIT_COUNT:] = _COUNT_VALUES[raw[_COUNT_ORDER[seat]]]

    def __repr__(self) -> str:
        return f"<History of {len(self._told)} events, {self.deals} deals>"


#: The setters of the slots of `History`, in field order: its frozen class sets no attribute, and its
#: steps build the next history from values of their own, which need no check.
_SET_DEALS, _SET_TOLD, _SET_STOCK_KNOWN, _SET_MELDS, _SET_PLANES, _SET_COUNTS = (
    History.__dict__[attribute.name].__set__ for attribute in attrs.fields(History)
)


def _new_history(  # noqa: PLR0913 (every field of History)
    *, deals: int, told: tuple[_Entry, ...], stock_known: bool, melds: tuple[int, ...], planes: int, counts: int
) -> History:
    """
    The `History` of these fields, set slot by slot.
    """
    history = object.__new__(History)
    _SET_DEALS(history, deals)
    _SET_TOLD(history, told)
    _SET_STOCK_KNOWN(history, stock_known)
    _SET_MELDS(history, melds)
    _SET_PLANES(history, planes)
    _SET_COUNTS(history, counts)
    return history


def _turned(planes: int, seat: int) -> int:
    """
    The history's *planes*, by absolute seat, turned to start at *seat*: in each group of four
    planes, the plane of *seat*, then of the seats to its left.  The upcard's plane stays first.
    """
    low, whole = _CARDS * seat, (1 << 4 * _CARDS) - 1
    turned = planes & ((1 << _CARDS) - 1)
    for group in (_DISCARDED, _TAKEN, _MELDED):
        base = _plane(group, 0)
        part = (planes >> base) & whole
        turned |= ((part >> low) | (part & ((1 << low) - 1)) << (4 * _CARDS - low)) << base
    return turned


# The groups of planes of the history part, by seat: what each seat discarded, took, melded.
_DISCARDED, _TAKEN, _MELDED = 0, 1, 2


def _plane(group: int, seat: int) -> int:
    """
    Where the plane of *seat* in *group* starts, in the absolute order (after the upcard's).
    """
    return _CARDS * (1 + 4 * group + seat)


def _effect(history: History, event: Event, action: PlayerAction) -> tuple[int, int, int, int, tuple[int, ...]]:
    """
    What the event of *action* adds: the count it adds to (an index of `_COUNTS`), the group of
    planes and the cards it adds to the seat's plane, the first card of the meld a lay-off names
    (-1 for other actions), and the table's melds after it.
    """
    melds = history._melds  # noqa: SLF001 (the class of this module)
    match action:
        case DrawStock():
            # Only a card drawn from a stock everyone knows is public (A18).
            return 0, _TAKEN, event.cards.mask if history._stock_known else 0, -1, melds  # noqa: SLF001
        case TakeDiscard():
            return 1, _TAKEN, event.cards.mask, -1, melds
        case Pass():
            return 2, _TAKEN, 0, -1, melds
        case LayDown():
            return 3, _MELDED, action.cards.mask, -1, (*melds, action.cards.mask)
        case LayOff():
            if action.meld >= len(melds):
                msg = f"{action!r} lays off onto meld {action.meld}, but the history shows {len(melds)} melds"
                raise InvalidValueError(msg)
            onto = melds[action.meld]
            first = (onto & -onto).bit_length() - 1
            return 4, _MELDED, action.cards.mask, first, _extended(melds, action.meld, action.cards.mask)
        case Discard():
            return 5, _DISCARDED, 1 << action.card.index, -1, melds
        case CallRummy():  # the card called on is taken from the pile (A24)
            return 1, _TAKEN, event.cards.mask, -1, melds
        case DeclineCall():  # counted nowhere
            return -1, _TAKEN, 0, -1, melds
        case _:  # pragma: no cover (an event holds a player's action)
            assert_never(action)


def _seat(seat: int | None) -> str:
    """
    A seat's letter, ``-`` for none.
    """
    return "-" if seat is None else SEAT_LETTERS[seat]


def _lines(told: tuple[_Entry, ...]) -> Iterator[str]:
    deals = 0
    for action, shown, first, hands, stock in told:
        if action is None:
            deals += 1
            yield f"deal {deals}: {_seat(shown)} deals, upcard {FULL_DECK[first]}"
            continue
        match action:
            case LayOff():  # named by the first card of its meld, as it was before the lay-off
                yield f"{_seat(action.seat)} lay {format_cards(action.cards)} on {FULL_DECK[first]}"
            case _:
                yield format_action(action) + _in_brackets(shown)
        if hands is not None:
            yield "hands shown: " + " ".join(f"{_seat(seat)}:{format_cards(hand)}" for seat, hand in enumerate(hands))
        if stock is not None:
            yield f"stock turned over: {format_cards(stock)}"


def _in_brackets(mask: int) -> str:
    return f" ({format_cards(CardSet(mask))})" if mask else ""


def _counted(counts: int, kind: int, seat: int) -> int:
    """
    *counts* with the count of *kind* (an index of `_COUNTS`) for *seat* one higher, up to the scale; as
    they are for -1, a decline of a call (A24).
    """
    if kind < 0:
        return counts
    shift = 8 * (4 * kind + seat)
    if (counts >> shift) & 0xFF < _COUNT_SCALE:
        counts += 1 << shift
    return counts


def _extended(melds: tuple[int, ...], index: int, cards: int) -> tuple[int, ...]:
    updated = list(melds)
    updated[index] |= cards
    return tuple(updated)


def _history_of(events: Sequence[Event] | History) -> History:
    if isinstance(events, History):
        return events
    raw: object = events
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        msg = f"events must be a sequence of Event values or a History, got {type(events).__name__}"
        raise InvalidTypeError(msg)
    history = History()
    for event in events:
        history = history.after(event)
    return history


def _history_for(view: View, events: Sequence[Event] | History) -> History:
    """
    The history of *events*, checked to have reached the deal of *view*.
    """
    history = _history_of(events)
    if history.deals != view.deal:
        msg = f"the events reach deal {history.deals}, but the view is of deal {view.deal}"
        raise InvalidValueError(msg)
    return history


# -- the information state ------------------------------------------------------------------------------------------


def information_state_tensor(view: View, events: Sequence[Event] | History) -> np.ndarray:
    """
    The observation of *view* followed by the history part made from *events*, ``float32`` values in [0, 1].

    *events* are the seat's events from the start of the game (`persian_rummy.events.events_of`,
    the seat's entry of each action; the spectator's for the public view), or the `History`
    already made from them.  Only their public content counts (see `History`).  The parts are
    those of `INFORMATION_STATE_LAYOUT`, under `Rules.jokers_wild` those of `information_state_layout`.

    Raises:
        InvalidTypeError: *view* is not a `View`, or *events* not a sequence of `Event` values or a `History`.
    """
    view = _check_view(view)
    history = _history_for(view, events)
    size = _size_of(view)
    out = np.empty(size + _HISTORY_SIZE, dtype=np.float32)
    _fill_observation(view, out[:size])
    history._fill(out[size:], 0 if view.seat is None else view.seat)  # noqa: SLF001 (same module)
    return out


def observation_string(view: View) -> str:
    """
    What *view* shows, as text: one line per item, seats by their letters N, E, S, W.

    Raises:
        InvalidTypeError: *view* is not a `View`.
    """
    view = _check_view(view)
    totals = [sum(result.teams[team].total for result in view.results) for team in (0, 1)]
    hand = "-" if view.hand is None else format_cards(view.hand)
    stock = f"{view.stock_size}" if view.stock is None else f"{view.stock_size} {format_cards(view.stock)}"
    lines = [
        f"view of {_seat(view.seat) if view.seat is not None else 'a spectator'}",
        f"rules {format_rules(view.rules)}",
        f"deal {view.deal} of {view.rules.num_deals}, dealer {_seat(view.dealer)}, phase {view.phase.value}",
        f"to act {_seat(view.to_act)}, passes {view.passes}, went out {_seat(view.went_out)}",
        f"scores NS {totals[0]} EW {totals[1]}",
        f"hand {hand}",
        "hand sizes " + " ".join(f"{_seat(seat)}:{size}" for seat, size in enumerate(view.hand_sizes)),
        "known " + " ".join(f"{_seat(seat)}:{format_cards(cards)}" for seat, cards in enumerate(view.known)),
        f"stock {stock}",
        f"pile {format_cards(view.discard_pile)}",
        "melds " + (" ".join(format_meld(meld) for meld in view.melds) or "-"),
        f"obligation {_seat(None) if view.obligation is None else view.obligation}",
        f"picked {format_cards(view.picked)}",
    ]
    return "\n".join(lines)


def information_state_string(view: View, events: Sequence[Event] | History) -> str:
    """
    `observation_string` of *view*, then the public history of *events*, one line per event (`History.lines`).

    Raises:
        InvalidTypeError: as `information_state_tensor`.
    """
    text = observation_string(view)
    history = _history_for(view, events)
    return "\n".join((text, "history", *history.lines))
