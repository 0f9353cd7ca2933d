"""
A fixed integer action space: every action a player can choose, as a number that no seat changes.

Learning libraries want a player's choices as the integers ``0 .. n - 1``, with ``n`` fixed
for the game, and a mask of those that are legal.  Here every player action has an id that
says what is done with which cards; the seat is always the one to act.  Deals are not in the
space: they are chance outcomes, not choices.

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, random_deal
>>> state = apply(new_game(), random_deal(new_game(), random.Random(7)))
>>> action_count(state.rules)
944
>>> legal_actions(state)
(DrawStock(seat=1), TakeDiscard(seat=1, card=Card.parse('7d')))
>>> legal_ids(state)
(0, 20)
>>> [id_text(i) for i in legal_ids(state)]
['draw from the stock', 'take 7d']
>>> action_from_id(20, state)
TakeDiscard(seat=1, card=Card.parse('7d'))
>>> action_id(legal_actions(state)[0], state)
0
>>> mask = action_mask(state)
>>> len(mask), mask[0], mask[1], mask[20]
(944, 1, 0, 1)

An agent that both masks and plays works the legal actions out once, with `legal_actions_by_id`:

>>> legal = legal_actions_by_id(state)
>>> legal
{0: DrawStock(seat=1), 20: TakeDiscard(seat=1, card=Card.parse('7d'))}
>>> apply(state, legal[20]).phase
<Phase.PLAY: 'play'>

The layout (the page *Action ids* of the documentation has the table): 0 draws from the stock,
1 passes, then one id per card to take from the discard pile (56, in `FULL_DECK` order), one per
card to discard (56), one per meld to lay down (70 sets, then 264 runs), and one per lay-off:
56 single cards onto the set of their rank, then 440 blocks of consecutive cards onto a run,
each named by the run's card it lies next to.  That makes 944 ids under the default rules.  Runs
that take the ace low (`Rules.ace_low_allowed`, A8) add 120 ids after those, so that an id
below 944 means the same under every variant of the rules.  Calls of "Rummy!"
(`Rules.rummy_calls`, A24) add two more, 1064 to decline and 1065 to call, whatever
`Rules.ace_low_allowed` is: 1066 ids; the lay-off of the card called on has its lay-off's id.
Wild jokers (`Rules.jokers_wild`, A7) add 76,562 ids after all those, whatever the other switches
are: one per play of natural cards above (a lay-down, a single card onto a set, a block onto a
run) and choice of the one to four of its cards that jokers play, a lay-down keeping a natural
card.  The jokers that play them are the seat's canonical ones, so they are not in the id.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import random
from collections.abc import Iterator, Sequence
from typing import Final, SupportsIndex, TypeVar, assert_never, overload

from .._internal import arguments as _arguments
from .._internal import cardlogic as _cardlogic
from .._internal import limits as _limits
from .._internal import tables as _tables
from ..actions import (
    ACTION_TYPES,
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
from ..cards import FULL_DECK
from ..cardsets import CardSet
from ..engine import check_legal, legal_actions
from ..exceptions import ChanceNodeError, IllegalActionError, InvalidTypeError, InvalidValueError
from ..melds import MeldKind, StandIns, TableMeld
from ..rules import DEFAULT_RULES, Rules
from ..state import GameState, Phase, View
from ..views import determinize

__all__ = [
    "action_count",
    "action_from_id",
    "action_id",
    "action_mask",
    "action_masks",
    "id_text",
    "legal_actions_by_id",
    "legal_ids",
]


def __dir__() -> list[str]:
    return __all__


# -- the layout -------------------------------------------------------------------------------------------------

# The kinds of entry of the space: what an id does.
_DRAW: Final = 0
_PASS: Final = 1
_TAKE: Final = 2
_DISCARD: Final = 3
_MELD: Final = 4
_ON_SET: Final = 5
_BELOW: Final = 6
_ABOVE: Final = 7
_DECLINE: Final = 8
_CALL: Final = 9

# The first id of the takes, the discards and the lay-offs onto sets.
_TAKE_BASE: Final = 2
_DISCARD_BASE: Final = 58
_ON_SET_BASE: Final = 448
#: The number of ids under the default rules; the ids after them only a low ace uses (A8), then the calls (A24).
_DEFAULT_COUNT: Final = 944
# The ids of declining and of calling "Rummy!" (A24).
_DECLINE_ID: Final = 1064
_CALL_ID: Final = 1065

# The ranks in words, 2 to ace and then the jokers, for the lay-offs onto sets.
_PLURALS: Final = (
    *("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens"),
    *("jacks", "queens", "kings", "aces", "jokers"),
)
_SUIT_SHIFTS: Final = (0, 13, 26, 39)
#: The id of an (id, action) pair, to sort the pairs by.
_FIRST: Final = operator.itemgetter(0)

# An entry of the space: its kind, its cards (a mask) and, for a lay-off onto a run, the index
# of the run's card that the cards lie next to (-1 otherwise).
_Entry = tuple[int, int, int]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _row_block(low: int, high: int) -> int:
    """
    The bits of a suit's row from place *low* to place *high*: 0 is the 2, 12 the ace, -1 the low ace.
    """
    block = (1 << (high + 1)) - (1 << max(low, 0))
    return block | _tables.ACE if low == -1 else block


def _sets() -> Iterator[_Entry]:
    """
    Every set (R10, R11) by rank, 2 to ace, then the jokers: the four, then the three without
    each card in `FULL_DECK` order.
    """
    for group in _tables.RANK_MASKS:
        yield _MELD, group, -1
        for bit in _bits(group):
            yield _MELD, group & ~bit, -1


def _runs() -> Iterator[_Entry]:
    """
    Every run (R12) by suit, then by its lowest card, then by length.
    """
    for shift in _SUIT_SHIFTS:
        for low in range(11):
            yield from ((_MELD, _row_block(low, high) << shift, -1) for high in range(low + 2, 13))


def _blocks() -> Iterator[_Entry]:
    """
    Every block of cards that extends a run at one end (R17), by suit: those below a run, by
    the run's lowest card (3 to queen) then by length; then those above, by the run's highest
    card (4 to king) then by length.
    """
    for shift in _SUIT_SHIFTS:
        for a in range(1, 11):
            yield from ((_BELOW, _row_block(low, a - 1) << shift, a + shift) for low in range(a - 1, -1, -1))
        for a in range(2, 12):
            yield from ((_ABOVE, _row_block(a + 1, high) << shift, a + shift) for high in range(a + 1, 13))


def _low_ace() -> Iterator[_Entry]:
    """
    What runs that take the ace low add (A8): the runs A-2-3 to A-2-...-Q by suit; then by
    suit the blocks of the ace and the cards up to a run's lowest card (2 to jack), and the
    blocks above A-2-3 (from the 4 up to the king).
    """
    for shift in _SUIT_SHIFTS:
        yield from ((_MELD, _row_block(-1, high) << shift, -1) for high in range(1, 11))
    for shift in _SUIT_SHIFTS:
        yield from ((_BELOW, _row_block(-1, a - 1) << shift, a + shift) for a in range(10))
        yield from ((_ABOVE, _row_block(2, high) << shift, 1 + shift) for high in range(2, 12))


def _space() -> tuple[_Entry, ...]:
    entries: list[_Entry] = [(_DRAW, 0, -1), (_PASS, 0, -1)]
    entries += [(_TAKE, 1 << i, -1) for i in range(56)]
    entries += [(_DISCARD, 1 << i, -1) for i in range(56)]
    entries += [*_sets(), *_runs()]
    entries += [(_ON_SET, 1 << i, -1) for i in range(56)]
    entries += [*_blocks(), *_low_ace()]
    entries += [(_DECLINE, 0, -1), (_CALL, 0, -1)]
    return tuple(entries)


_SPACE: Final = _space()


# -- the ids of plays with jokers (A7) ---------------------------------------------------------------------------
#
# Under `Rules.jokers_wild` a play with jokers standing for cards is named by the play of natural cards it
# represents (its id among the ids above: a lay-down, a single card onto a set, a block onto a run) and by which of
# those cards jokers play.  The physical jokers follow from the hand (A7's canonical jokers).  Every such play of a
# group of n cards (in `FULL_DECK` order) has one id: the choices of 1 to 4 of its cards, by size then in the order
# of `itertools.combinations`, a lay-down keeping one natural card at least.  The groups follow their natural ids.


#: The jokers of the deck: a play stands at most that many cards with jokers.
_MOST_JOKERS: Final = 4


def _choices(n: int, natural: bool) -> tuple[int, ...]:
    """
    The choices of places 0 to *n* - 1 that jokers play, as masks of places: 1 to 4 of them, and
    with *natural* one place left to a natural card.
    """
    largest = min(_MOST_JOKERS, n - 1 if natural else n)
    return tuple(
        sum(1 << place for place in chosen)
        for size in range(1, largest + 1)
        for chosen in itertools.combinations(range(n), size)
    )


#: The choices of a group of n cards by whether it is a lay-down (one natural card kept), and their ranks.
_CHOICES: Final = tuple(tuple(_choices(n, natural) for n in range(14)) for natural in (False, True))
_CHOICE_RANKS: Final = tuple(
    tuple({choice: rank for rank, choice in enumerate(choices)} for choices in by_size) for by_size in _CHOICES
)


def _wild_groups() -> tuple[tuple[int, ...], tuple[int, ...], dict[int, int]]:
    """
    The natural ids that a play with jokers can represent, ascending, the first id of each one's
    plays, and that first id by natural id.
    """
    naturals: list[int] = []
    starts: list[int] = []
    start = len(_SPACE)
    for i, (kind, cards, _) in enumerate(_SPACE):
        if kind in {_MELD, _ON_SET, _BELOW, _ABOVE} and not cards & _tables.JOKER_MASK:
            naturals.append(i)
            starts.append(start)
            start += len(_CHOICES[kind == _MELD][cards.bit_count()])
    starts.append(start)
    return tuple(naturals), tuple(starts), dict(zip(naturals, starts, strict=False))


_WILD_NATURALS, _WILD_STARTS, _WILD_START_OF = _wild_groups()
#: The first id of the plays with jokers, and the number of ids under `Rules.jokers_wild`.
_WILD_BASE: Final = len(_SPACE)
_WILD_COUNT: Final = _WILD_STARTS[-1]
# The number of ids, by `Rules.ace_low_allowed`, `Rules.rummy_calls` and `Rules.jokers_wild` (`_space_of`).
_COUNTS: Final = (_DEFAULT_COUNT, _DECLINE_ID, len(_SPACE), len(_SPACE), *(_WILD_COUNT,) * 4)
#: A mask of no legal id, by the size of the space.
_ZEROS: Final = {count: bytes(count) for count in _COUNTS}
#: A buffer that `action_mask` and `action_masks` write into.
_Out = TypeVar("_Out")
# The id of each meld, by its cards; of each lay-off onto a run, by its cards and the run's card next to them.
_MELD_IDS: Final = {cards: i for i, (kind, cards, _) in enumerate(_SPACE) if kind == _MELD}
_BLOCK_IDS: Final = {
    cards << 6 | attach: i for i, (kind, cards, attach) in enumerate(_SPACE) if kind in {_BELOW, _ABOVE}
}


def _space_of(rules: Rules) -> int:
    """
    The number of ids under *rules*: a low ace adds its own (A8), calls of "Rummy!" theirs after
    them (A24), and wild jokers the plays with jokers after all those (A7).
    """
    return _COUNTS[rules.ace_low_allowed + 2 * rules.rummy_calls + 4 * rules.jokers_wild]


def _rank_place(cards: int) -> int:
    """
    The place in `_PLURALS` of the rank of the lowest card of *cards*.
    """
    index = (cards & -cards).bit_length() - 1
    return 13 if index >= 52 else index % 13


def _cards_text(cards: int, stood: int = 0) -> str:
    """
    The cards of *cards* in notation, in the order of a run: the ace first where it is low
    (one suit, the 2 and the ace, no king); those of *stood* played by a joker, as ``X=6h``.
    """
    texts = [f"{'X=' if bit & stood else ''}{FULL_DECK[bit.bit_length() - 1]}" for bit in _bits(cards)]
    shift = 13 * (((cards & -cards).bit_length() - 1) // 13)
    row = cards >> shift
    if shift < 52 and row <= _tables.ROW and row & (_tables.ACE | 1 | 1 << 11) == _tables.ACE | 1:
        texts.insert(0, texts.pop())
    return " ".join(texts)


def _text(entry: _Entry, stood: int = 0) -> str:
    kind, cards, attach = entry
    card = FULL_DECK[cards.bit_length() - 1] if cards else None
    if kind in {_DECLINE, _CALL}:
        return "call Rummy!" if kind == _CALL else "decline to call Rummy!"
    if kind >= _BELOW:
        return f"lay {_cards_text(cards, stood)} {'below' if kind == _BELOW else 'above'} {FULL_DECK[attach]}"
    if kind == _ON_SET:
        return f"lay {_cards_text(cards, stood)} on the set of {_PLURALS[_rank_place(cards)]}"
    if kind == _MELD:
        return f"meld {_cards_text(cards, stood)}"
    return ("draw from the stock", "pass", f"take {card}", f"discard {card}")[kind]


_TEXTS: Final = tuple(_text(entry) for entry in _SPACE)


def _places(group: int, stood: int) -> int:
    """
    The cards of *stood* as places among the cards of *group*, in `FULL_DECK` order.
    """
    places = 0
    for place, bit in enumerate(_bits(group)):
        if stood & bit:
            places |= 1 << place
    return places


def _wild_play(i: int) -> tuple[int, int]:
    """
    What id *i*, a play with jokers (A7), represents: its natural id, and the cards of it that jokers play.
    """
    g = bisect.bisect_right(_WILD_STARTS, i) - 1
    natural = _WILD_NATURALS[g]
    kind, group, _ = _SPACE[natural]
    places = _CHOICES[kind == _MELD][group.bit_count()][i - _WILD_STARTS[g]]
    stood = 0
    for place, bit in enumerate(_bits(group)):
        if places >> place & 1:
            stood |= bit
    return natural, stood


def _text_of(i: int) -> str:
    """
    The text of id *i* (`id_text`), from the table or, for a play with jokers, from what it represents.
    """
    if i < _WILD_BASE:
        return _TEXTS[i]
    natural, stood = _wild_play(i)
    return _text(_SPACE[natural], stood)


# -- the ids of actions -----------------------------------------------------------------------------------------

_SET: Final = MeldKind.SET


def _lay_off_id(meld: TableMeld, cards: int) -> int:
    """
    The id of laying off *cards* onto *meld*: by the card onto a set; onto a run by the block
    and the run's card it lies next to.
    """
    if meld.kind is _SET:
        return _ON_SET_BASE + cards.bit_length() - 1
    run = meld.represents.mask
    attach = cards.bit_length()
    # Below the run's lowest card; but not below an ace: a run holds its ace low only (A8).
    if attach % 13 == 12 or not run >> attach & 1:
        attach = (cards & -cards).bit_length() - 2
        if attach < 0 or not run >> attach & 1:
            # The ace low, with the cards from the 2 up to the run's lowest card (A8).
            ace = cards.bit_length() - 1
            rest = cards & ~(1 << ace)
            attach = rest.bit_length() if rest else ace - 12
    return _BLOCK_IDS[cards << 6 | attach]


def _ids(actions: tuple[PlayerAction, ...], melds: tuple[TableMeld, ...]) -> list[int]:
    """
    The id of each of *actions*, legal actions at a position whose melds are *melds*.
    """
    ids: list[int] = []
    append = ids.append
    for action in actions:
        match action:  # the most frequent first
            case Discard():
                append(_DISCARD_BASE + action.card.index)
            case LayDown():
                append(_MELD_IDS[action.cards.mask])
            case TakeDiscard():
                append(_TAKE_BASE + action.card.index)
            case LayOff():
                append(_lay_off_id(melds[action.meld], action.cards.mask))
            case DrawStock():
                append(_DRAW)
            case Pass():
                append(_PASS)
            case DeclineCall():
                append(_DECLINE_ID)
            case CallRummy():
                append(_CALL_ID)
            case _:  # pragma: no cover
                assert_never(action)
    return ids


def _wild_ids(actions: tuple[PlayerAction, ...], melds: tuple[TableMeld, ...]) -> list[int]:
    """
    `_ids` under `Rules.jokers_wild` (A7): a play with jokers standing for cards has the id of
    what it represents and of which of those cards the jokers play.
    """
    ids: list[int] = []
    for action in actions:
        kind = type(action)
        if (kind is LayDown or kind is LayOff) and action.stand_ins:  # type: ignore[union-attr]
            ids.append(_wild_id(action, melds))  # type: ignore[arg-type]
        else:
            ids += _ids((action,), melds)
    return ids


def _wild_id(action: LayDown | LayOff, melds: tuple[TableMeld, ...]) -> int:
    shown = action.cards.mask
    stood = 0
    for joker, card in action.stand_ins.pairs:
        shown = shown & ~(1 << joker.index) | 1 << card.index
        stood |= 1 << card.index
    match action:
        case LayDown():
            natural = _MELD_IDS[shown]
            ranks = _CHOICE_RANKS[True]
        case LayOff():
            natural = _lay_off_id(melds[action.meld], shown)
            ranks = _CHOICE_RANKS[False]
    return _WILD_START_OF[natural] + ranks[shown.bit_count()][_places(shown, stood)]


def _ids_at(position: GameState | View, actions: tuple[PlayerAction, ...]) -> list[int]:
    """
    The id of each of *actions*, legal actions at *position*.
    """
    if position.rules.jokers_wild:
        return _wild_ids(actions, position.melds)
    return _ids(actions, position.melds)


# -- the public functions ---------------------------------------------------------------------------------------

_POSITION: Final = (GameState, View)
_PLAYER_ACTIONS: Final = tuple(kind for kind in ACTION_TYPES if kind is not Deal)


def action_count(rules: Rules = DEFAULT_RULES) -> int:
    """
    The number of ids under *rules*: 944, 1064 when runs may take the ace low (A8), 1066 with
    calls of "Rummy!" (A24), whether or not the ace may be low, and 77,628 when jokers are wild
    (A7), whatever the other switches are.

    >>> action_count(), action_count(Rules(ace_low_allowed=True)), action_count(Rules(rummy_calls=True))
    (944, 1064, 1066)
    >>> action_count(Rules(jokers_wild=True))
    77628

    Raises:
        InvalidTypeError: *rules* is not a `Rules`.
    """
    _arguments.expect(rules, Rules, "rules", "a Rules")
    return _space_of(rules)


def id_text(action_id: int, rules: Rules = DEFAULT_RULES) -> str:
    """
    What the id *action_id* does, in a few words and without a seat.

    >>> [id_text(i) for i in (0, 1, 2, 113, 114)]
    ['draw from the stock', 'pass', 'take 2c', 'discard X4', 'meld 2c 2d 2h 2s']
    >>> [id_text(i) for i in (184, 448, 504, 559)]
    ['meld 2c 3c 4c', 'lay 2c on the set of twos', 'lay 2c below 3c', 'lay 5c above 4c']
    >>> id_text(944, Rules(ace_low_allowed=True))
    'meld Ac 2c 3c'
    >>> id_text(1375, Rules(jokers_wild=True))
    'meld X=Tc Td X=Th Ts'
    >>> id_text(944)
    Traceback (most recent call last):
    ...
    persian_rummy.exceptions.InvalidValueError: action id 944 is outside the action space, 0 to 943

    Raises:
        InvalidTypeError: *action_id* is not an integer, or *rules* not a `Rules`.
        InvalidValueError: *action_id* is outside the space of *rules*.
    """
    return _text_of(_checked_id(action_id, action_count(rules)))


def _checked_id(action_id: object, count: int) -> int:
    """
    *action_id* as an `int` from 0 to *count* - 1 (`_integer`).
    """
    value = action_id if type(action_id) is int else _integer(action_id)
    if not 0 <= value < count:
        msg = f"action id {value} is outside the action space, 0 to {count - 1}"
        raise InvalidValueError(msg)
    return value


def _integer(value: object) -> int:
    """
    *value*, an integer of another type than `int`, as the `int` it holds: a numpy integer, or a numpy
    array of no dimensions holding one (what indexing a numpy array gives).  A `bool` is refused, and so
    is an array of one or more dimensions, even of one element, and an array or scalar of floats.
    """
    shape = getattr(value, "shape", ())
    if shape != ():
        msg = f"an action id must be an int, or an array of no dimensions holding one, got an array of shape {shape}"
        raise InvalidTypeError(msg)
    boolean = getattr(getattr(value, "dtype", None), "kind", "") == "b"
    if isinstance(value, SupportsIndex) and not isinstance(value, bool) and not boolean:
        try:
            return operator.index(value)
        except TypeError:  # an array of floats, which numpy's __index__ refuses
            pass
    msg = f"an action id must be an int, got {_limits.shown(value)}"
    raise InvalidTypeError(msg)


def legal_ids(position: GameState | View) -> tuple[int, ...]:
    """
    The ids of the legal actions of the seat to act at *position*, ascending; none after the game.

    They name the actions of ``legal_actions(position)``, each once.  *position* is a state or
    the view of the seat to act: both give the same ids.

    Raises:
        ChanceNodeError: the next action is a deal.
        ViewError: *position* is the view of another seat than the one to act.
        InvalidTypeError: *position* is neither a `GameState` nor a `View`.
    """
    actions = legal_actions(position)
    ids = _wild_ids(actions, position.melds) if position.rules.jokers_wild else _ids(actions, position.melds)
    ids.sort()
    return tuple(ids)


def legal_actions_by_id(position: GameState | View) -> dict[int, PlayerAction]:
    """
    The legal actions of the seat to act at *position*, each under its id, the ids ascending; none after the game.

    The keys are ``legal_ids(position)`` and the values the actions of ``legal_actions(position)``
    they name (`action_from_id`), worked out together: an agent that masks the ids and then plays
    one of them looks its action up here instead of working the legal actions out again.  Each
    call returns a new dictionary.

    Raises:
        ChanceNodeError: the next action is a deal.
        ViewError: *position* is the view of another seat than the one to act.
        InvalidTypeError: *position* is neither a `GameState` nor a `View`.
    """
    actions = legal_actions(position)
    pairs = sorted(zip(_ids_at(position, actions), actions, strict=True), key=_FIRST)
    return dict(pairs)


@overload
def action_mask(position: GameState | View) -> bytes: ...
@overload
def action_mask(position: GameState | View, *, out: _Out) -> _Out: ...
def action_mask(position: GameState | View, *, out: object = None) -> object:
    """
    One byte per id of the space of ``position.rules``: 1 where the id is legal at *position*, 0 elsewhere.

    ``numpy.frombuffer(action_mask(position), dtype=numpy.int8)`` makes it an array.  With *out*,
    a writable buffer of one-byte items (a numpy array of ``int8``, ``uint8`` or ``bool``, a
    ``bytearray``, a row of a batch), C-contiguous and holding exactly one item per id, the mask
    is written there, every item of it, and *out* is returned.

    >>> from persian_rummy import apply, new_game, random_deal
    >>> dealt = apply(new_game(), random_deal(new_game(), random.Random(3)))
    >>> row = bytearray(b"\\x01" * action_count())
    >>> action_mask(dealt, out=row) is row, [i for i, bit in enumerate(row) if bit] == list(legal_ids(dealt))
    (True, True)

    Raises:
        ChanceNodeError: the next action is a deal.
        ViewError: *position* is the view of another seat than the one to act.
        InvalidTypeError: *position* is neither a `GameState` nor a `View`; *out* is no buffer.
        InvalidValueError: *out* is read-only, not contiguous, or not of one byte per id.
    """
    actions = legal_actions(position)
    rules = position.rules
    count = _space_of(rules)
    ids = _wild_ids(actions, position.melds) if rules.jokers_wild else _ids(actions, position.melds)
    if out is None:
        mask = bytearray(count)
        for i in ids:
            mask[i] = 1
        return bytes(mask)
    written = _bytes_of(out, count)
    written[:] = _ZEROS[count]
    for i in ids:
        written[i] = 1
    return out


@overload
def action_masks(positions: Sequence[GameState | View]) -> bytes: ...
@overload
def action_masks(positions: Sequence[GameState | View], *, out: _Out) -> _Out: ...
def action_masks(positions: Sequence[GameState | View], *, out: object = None) -> object:
    """
    The masks of *positions* row after row: ``action_mask(positions[i])`` in bytes ``i * count``
    to ``(i + 1) * count``, *count* being the ids of their rules (the same for all).  With *out*, a
    writable C-contiguous buffer of one-byte items and exactly that many (a numpy array of shape
    ``(len(positions), count)``, say), the masks are written there and *out* is returned.

    >>> from persian_rummy import apply, new_game, random_deal
    >>> dealt = [apply(new_game(), random_deal(new_game(), random.Random(seed))) for seed in (3, 4)]
    >>> batch, count = action_masks(dealt), action_count()
    >>> rows = [batch[i * count : (i + 1) * count] for i in range(2)]
    >>> [[i for i, bit in enumerate(row) if bit] for row in rows] == [list(legal_ids(position)) for position in dealt]
    True
    >>> out = bytearray(2 * count)
    >>> action_masks(dealt, out=out) is out, bytes(out) == bytes(batch)
    (True, True)

    Raises:
        ChanceNodeError: the next action of a position is a deal.
        ViewError: a position is the view of another seat than the one to act.
        InvalidTypeError: *positions* is no sequence, or a position is neither a `GameState` nor a
            `View`; *out* is no buffer.
        InvalidValueError: the positions' rules have action spaces of different sizes; *out* is
            read-only, not contiguous, or not of one byte per id of each position.
    """
    _check_sequence(positions, "positions", "states or views")
    for position in positions:
        _arguments.expect(position, (GameState, View), "a position", "a GameState or a View")
    counts = {_space_of(position.rules) for position in positions}
    if len(counts) > 1:
        msg = f"the positions' action spaces must be of one size, got sizes {sorted(counts)}"
        raise InvalidValueError(msg)
    count = counts.pop() if counts else _DEFAULT_COUNT
    written = bytearray(count * len(positions)) if out is None else _bytes_of(out, count * len(positions))
    if out is not None:
        written[:] = _ZEROS[count] * len(positions)
    for row, position in enumerate(positions):
        base = row * count
        for i in _ids_at(position, legal_actions(position)):
            written[base + i] = 1
    return bytes(written) if out is None else out


def _check_sequence(value: object, name: str, what: str) -> None:
    """
    Refuse a *value* that is no sequence (a text is none), naming the argument *name* and *what* it holds.
    """
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        msg = f"{name} must be a sequence of {what}, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


def _bytes_of(out: object, count: int) -> memoryview:
    """
    *out* as a writable memoryview of bytes, if it is a C-contiguous buffer of *count* one-byte items.
    """
    try:
        view = memoryview(out)  # type: ignore[arg-type]  # what is no buffer raises TypeError
    except TypeError:
        msg = f"out must be a writable buffer, such as a numpy array of int8, got {_limits.shown(out)}"
        raise InvalidTypeError(msg) from None
    if view.readonly or not view.c_contiguous or view.itemsize != 1 or view.nbytes != count:
        msg = (
            f"out must be a writable, C-contiguous buffer of {count} one-byte items, "
            f"got {'a read-only' if view.readonly else 'a'} buffer of {view.nbytes} bytes in items of {view.itemsize}"
        )
        raise InvalidValueError(msg)
    return view.cast("B")


def action_id(action: PlayerAction, position: GameState | View) -> int:
    """
    The id of *action*, a legal action of the seat to act at *position* (a state or that seat's view).

    Raises:
        IllegalActionError: *action* is not legal at *position*; the error says why, as `apply` would.
        ChanceNodeError: the next action is a deal.
        ViewError: *position* is the view of another seat than the one to act.
        InvalidTypeError: *action* is not a player's action, or *position* neither a `GameState`
            nor a `View`.
    """
    _arguments.expect(action, _PLAYER_ACTIONS, "action", "a player's action (DrawStock, TakeDiscard, ...)")
    actions = legal_actions(position)
    if action not in actions:
        raise _refusal(action, position)
    return _ids_at(position, (action,))[0]


def _refusal(action: PlayerAction, position: GameState | View) -> IllegalActionError:
    """
    Why *action* is not legal at *position*, as `apply` says it: for a view, `apply` to a state
    that the view could show, since what a seat may do depends only on what it sees.
    """
    if position.phase is Phase.GAME_OVER:
        return IllegalActionError(action, "the game is over", "R27")
    if isinstance(position, View):
        position = determinize(position, random.Random(0))  # noqa: S311 (any such state will do)
    try:
        check_legal(position, action)
    except IllegalActionError as error:
        return error
    return IllegalActionError(action, "it is not among the legal actions", "R13")  # pragma: no cover


def action_from_id(action_id: int, position: GameState | View) -> PlayerAction:
    """
    The legal action that *action_id* names for the seat to act at *position* (a state or that seat's view).

    The action is the very value that ``legal_actions(position)`` holds.

    Raises:
        IllegalActionError: the id names no legal action at *position*; the error says why.
        InvalidValueError: *action_id* is outside the space of the position's rules.
        ChanceNodeError: the next action is a deal.
        ViewError: *position* is the view of another seat than the one to act.
        InvalidTypeError: *action_id* is not an integer, or *position* neither a `GameState` nor a `View`.
    """
    _arguments.expect(position, _POSITION, "position", "a GameState or a View")
    i = _checked_id(action_id, _space_of(position.rules))
    try:
        actions = legal_actions(position)
    except ChanceNodeError as error:
        msg = f"action id {i} names no action here: {error}"
        raise ChanceNodeError(msg) from None
    ids = _ids_at(position, actions)
    if i in ids:
        return actions[ids.index(i)]
    raise _id_refusal(i, position, actions)


def _id_refusal(i: int, position: GameState | View, actions: tuple[PlayerAction, ...]) -> IllegalActionError:
    """
    Why id *i* names no legal action at *position*, whose legal actions are *actions*.
    """
    start = f"action id {i} ({_text_of(i)})"
    if position.phase is Phase.GAME_OVER:
        return IllegalActionError(i, f"{start} is not legal here: the game is over", "R27")
    named = _named(i, position) if i < _WILD_BASE else _wild_named(i, position)
    if isinstance(named, tuple):
        reason, rule = named
        return IllegalActionError(i, f"{start} is not possible here: {reason}", rule)
    if named in actions:
        other = _ids_at(position, (named,))[0]
        return IllegalActionError(i, f"{start} is the lay-off whose id is {other} ({_text_of(other)})", "A8")
    error = _refusal(named, position)
    return IllegalActionError(i, f"{start} is not legal here: {error.reason}", error.rule)


def _named(i: int, position: GameState | View) -> PlayerAction | tuple[str, str]:
    """
    The action that id *i* names at *position*, whose seat to act plays it; for a lay-off
    without the meld it names on the table, why there is none.
    """
    seat: int = position.to_act  # type: ignore[assignment]  # a seat acts: legal_actions said so
    kind, cards, attach = _SPACE[i]
    card = FULL_DECK[cards.bit_length() - 1] if cards else None
    match kind:
        case 0:
            return DrawStock(seat)
        case 1:
            return Pass(seat)
        case 2:
            return TakeDiscard(seat, card)  # type: ignore[arg-type]  # a card: its entry has one
        case 3:
            return Discard(seat, card)  # type: ignore[arg-type]
        case 4:
            return LayDown(seat, CardSet(cards))
        case 8:
            return DeclineCall(seat)
        case 9:
            return CallRummy(seat)
    k = _meld_index(kind, cards, attach, position.melds)
    if k is not None:
        return LayOff(seat, k, CardSet(cards))
    return _no_meld(kind, cards, attach)


def _no_meld(kind: int, cards: int, attach: int) -> tuple[str, str]:
    """
    Why a lay-off of *cards* finds no meld on the table, and the rule.
    """
    if kind == _ON_SET:
        return f"there is no set of {_PLURALS[_rank_place(cards)]} on the table", "R17"
    return f"no meld on the table holds {FULL_DECK[attach]}", "R17"


def _wild_named(i: int, position: GameState | View) -> PlayerAction | tuple[str, str]:
    """
    `_named` for id *i*, a play with jokers (A7): its jokers are the seat's canonical ones, the
    obligation's joker first.
    """
    seat: int = position.to_act  # type: ignore[assignment]  # a seat acts: legal_actions said so
    natural, stood = _wild_play(i)
    kind, cards, attach = _SPACE[natural]
    hand = position.hands[seat] if isinstance(position, GameState) else position.hand
    obligation = position.obligation
    jokers = _cardlogic.joker_order(
        hand.mask if hand is not None else 0, None if obligation is None else obligation.index
    )
    needed = stood.bit_count()
    if len(jokers) < needed:
        held = f"{len(jokers)} joker{'s' * (len(jokers) != 1)}"
        return f"seat {seat} holds {held} and the play needs {needed}", "A7"
    pairs = _cardlogic.canonical_pairs(jokers, stood)
    played = cards & ~stood
    for joker, _ in pairs:
        played |= 1 << joker
    stand_ins = StandIns([(FULL_DECK[joker], FULL_DECK[card]) for joker, card in pairs])
    if kind == _MELD:
        return LayDown(seat, CardSet(played), stand_ins=stand_ins)
    k = _meld_index(kind, cards, attach, position.melds)
    if k is None:
        return _no_meld(kind, cards, attach)
    return LayOff(seat, k, CardSet(played), stand_ins=stand_ins)


def _meld_index(kind: int, cards: int, attach: int, melds: tuple[TableMeld, ...]) -> int | None:
    """
    The index of the meld that a lay-off names: the set of the rank of *cards*, or the meld that holds card *attach*.
    """
    for k, meld in enumerate(melds):
        mask = meld.represents.mask
        if kind == _ON_SET:
            if meld.kind is _SET and _rank_place(mask) == _rank_place(cards):
                return k
        elif mask >> attach & 1:
            return k
    return None
