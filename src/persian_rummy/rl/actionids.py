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

import operator
import random
from collections.abc import Sequence
from typing import Final, SupportsIndex, TypeVar, overload

from .. import limits as _limits
from .. import masks as _masks
from .._internal import arguments as _arguments
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
from ..melds import MeldKind, TableMeld
from ..rules import DEFAULT_RULES, Rules
from ..state import GameState, Phase, View
from ..views import determinize
from ._action_space import DEFAULT_COUNT as _DEFAULT_COUNT
from ._action_space import MELD as _MELD
from ._action_space import ON_SET as _ON_SET
from ._action_space import PLURALS as _PLURALS
from ._action_space import SPACE as _SPACE
from ._action_space import WILD_BASE as _WILD_BASE
from ._action_space import ZEROS as _ZEROS
from ._action_space import ids_at as _ids_at
from ._action_space import ids_of as _ids
from ._action_space import rank_place as _rank_place
from ._action_space import space_of as _space_of
from ._action_space import text_of as _text_of
from ._action_space import wild_ids_of as _wild_ids
from ._action_space import wild_play as _wild_play

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


# -- the public functions ---------------------------------------------------------------------------------------

_POSITION: Final = (GameState, View)
_PLAYER_ACTIONS: Final = tuple(kind for kind in ACTION_TYPES if kind is not Deal)
#: The id of an (id, action) pair, to sort the pairs by.
_FIRST: Final = operator.itemgetter(0)
#: A buffer that `action_mask` and `action_masks` write into.
_Out = TypeVar("_Out")
_SET: Final = MeldKind.SET


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
    seat = position.seat_to_act  # legal_actions found a seat to act
    kind, cards, attach = _SPACE[i]
    match kind:
        case 0:
            return DrawStock(seat)
        case 1:
            return Pass(seat)
        case 2:
            return TakeDiscard(seat, FULL_DECK[cards.bit_length() - 1])  # the card of its entry
        case 3:
            return Discard(seat, FULL_DECK[cards.bit_length() - 1])
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
    seat = position.seat_to_act  # legal_actions found a seat to act
    natural, stood = _wild_play(i)
    kind, cards, attach = _SPACE[natural]
    hand = position.hands[seat] if isinstance(position, GameState) else position.hand
    obligation = position.obligation
    held = hand.mask if hand is not None else 0
    jokers, needed = (held & _masks.JOKER_MASK).bit_count(), stood.bit_count()
    if jokers < needed:
        return f"seat {seat} holds {jokers} joker{'s' * (jokers != 1)} and the play needs {needed}", "A7"
    stand_ins = _masks.stand_ins(held, stood, first=None if obligation is None else obligation.index)
    played = cards & ~stood | stand_ins.jokers.mask
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
