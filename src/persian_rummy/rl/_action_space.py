"""
The action space of `persian_rummy.rl.actionids`: what each id does and how it reads, the ids of
plays with jokers (A7), and the id of each legal action.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator
from typing import Final, assert_never

from ..actions import CallRummy, DeclineCall, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from ..cards import FULL_DECK
from ..masks import JOKER_MASK, RANK_MASKS, SUIT_MASKS
from ..melds import MeldKind, TableMeld
from ..rules import Rules
from ..state import GameState, View

# -- the layout -------------------------------------------------------------------------------------------------

# The kinds of entry of the space: what an id does.
DRAW: Final = 0
PASS: Final = 1
TAKE: Final = 2
DISCARD: Final = 3
MELD: Final = 4
ON_SET: Final = 5
BELOW: Final = 6
ABOVE: Final = 7
DECLINE: Final = 8
CALL: Final = 9

# The first id of the takes, the discards and the lay-offs onto sets.
_TAKE_BASE: Final = 2
_DISCARD_BASE: Final = 58
_ON_SET_BASE: Final = 448
#: The number of ids under the default rules; the ids after them only a low ace uses (A8), then the calls (A24).
DEFAULT_COUNT: Final = 944
# The ids of declining and of calling "Rummy!" (A24).
_DECLINE_ID: Final = 1064
_CALL_ID: Final = 1065

# The ranks in words, 2 to ace and then the jokers, for the lay-offs onto sets.
PLURALS: Final = (
    *("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens"),
    *("jacks", "queens", "kings", "aces", "jokers"),
)
_SUIT_SHIFTS: Final = (0, 13, 26, 39)
#: A suit's 13 cards as the bits of its row, 2 to ace (the clubs'), and the ace's bit in a row.
_ROW: Final = SUIT_MASKS[0]
_ACE: Final = 1 << 12

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
    return block | _ACE if low == -1 else block


def _sets() -> Iterator[_Entry]:
    """
    Every set (R10, R11) by rank, 2 to ace, then the jokers: the four, then the three without
    each card in `FULL_DECK` order.
    """
    for group in RANK_MASKS:
        yield MELD, group, -1
        for bit in _bits(group):
            yield MELD, group & ~bit, -1


def _runs() -> Iterator[_Entry]:
    """
    Every run (R12) by suit, then by its lowest card, then by length.
    """
    for shift in _SUIT_SHIFTS:
        for low in range(11):
            yield from ((MELD, _row_block(low, high) << shift, -1) for high in range(low + 2, 13))


def _blocks() -> Iterator[_Entry]:
    """
    Every block of cards that extends a run at one end (R17), by suit: those below a run, by
    the run's lowest card (3 to queen) then by length; then those above, by the run's highest
    card (4 to king) then by length.
    """
    for shift in _SUIT_SHIFTS:
        for a in range(1, 11):
            yield from ((BELOW, _row_block(low, a - 1) << shift, a + shift) for low in range(a - 1, -1, -1))
        for a in range(2, 12):
            yield from ((ABOVE, _row_block(a + 1, high) << shift, a + shift) for high in range(a + 1, 13))


def _low_ace() -> Iterator[_Entry]:
    """
    What runs that take the ace low add (A8): the runs A-2-3 to A-2-...-Q by suit; then by
    suit the blocks of the ace and the cards up to a run's lowest card (2 to jack), and the
    blocks above A-2-3 (from the 4 up to the king).
    """
    for shift in _SUIT_SHIFTS:
        yield from ((MELD, _row_block(-1, high) << shift, -1) for high in range(1, 11))
    for shift in _SUIT_SHIFTS:
        yield from ((BELOW, _row_block(-1, a - 1) << shift, a + shift) for a in range(10))
        yield from ((ABOVE, _row_block(2, high) << shift, 1 + shift) for high in range(2, 12))


def _space() -> tuple[_Entry, ...]:
    entries: list[_Entry] = [(DRAW, 0, -1), (PASS, 0, -1)]
    entries += [(TAKE, 1 << i, -1) for i in range(56)]
    entries += [(DISCARD, 1 << i, -1) for i in range(56)]
    entries += [*_sets(), *_runs()]
    entries += [(ON_SET, 1 << i, -1) for i in range(56)]
    entries += [*_blocks(), *_low_ace()]
    entries += [(DECLINE, 0, -1), (CALL, 0, -1)]
    return tuple(entries)


SPACE: Final = _space()


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
    start = len(SPACE)
    for i, (kind, cards, _) in enumerate(SPACE):
        if kind in {MELD, ON_SET, BELOW, ABOVE} and not cards & JOKER_MASK:
            naturals.append(i)
            starts.append(start)
            start += len(_CHOICES[kind == MELD][cards.bit_count()])
    starts.append(start)
    return tuple(naturals), tuple(starts), dict(zip(naturals, starts, strict=False))


_WILD_NATURALS, _WILD_STARTS, _WILD_START_OF = _wild_groups()
#: The first id of the plays with jokers, and the number of ids under `Rules.jokers_wild`.
WILD_BASE: Final = len(SPACE)
_WILD_COUNT: Final = _WILD_STARTS[-1]
# The number of ids, by `Rules.ace_low_allowed`, `Rules.rummy_calls` and `Rules.jokers_wild` (`space_of`).
_COUNTS: Final = (DEFAULT_COUNT, _DECLINE_ID, len(SPACE), len(SPACE), *(_WILD_COUNT,) * 4)
#: A mask of no legal id, by the size of the space.
ZEROS: Final = {count: bytes(count) for count in _COUNTS}
# The id of each meld, by its cards; of each lay-off onto a run, by its cards and the run's card next to them.
_MELD_IDS: Final = {cards: i for i, (kind, cards, _) in enumerate(SPACE) if kind == MELD}
_BLOCK_IDS: Final = {cards << 6 | attach: i for i, (kind, cards, attach) in enumerate(SPACE) if kind in {BELOW, ABOVE}}


def space_of(rules: Rules) -> int:
    """
    The number of ids under *rules*: a low ace adds its own (A8), calls of "Rummy!" theirs after
    them (A24), and wild jokers the plays with jokers after all those (A7).
    """
    return _COUNTS[rules.ace_low_allowed + 2 * rules.rummy_calls + 4 * rules.jokers_wild]


def rank_place(cards: int) -> int:
    """
    The place in `PLURALS` of the rank of the lowest card of *cards*.
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
    if shift < 52 and row <= _ROW and row & (_ACE | 1 | 1 << 11) == _ACE | 1:
        texts.insert(0, texts.pop())
    return " ".join(texts)


def _text(entry: _Entry, stood: int = 0) -> str:
    kind, cards, attach = entry
    card = FULL_DECK[cards.bit_length() - 1] if cards else None
    if kind in {DECLINE, CALL}:
        return "call Rummy!" if kind == CALL else "decline to call Rummy!"
    if kind >= BELOW:
        return f"lay {_cards_text(cards, stood)} {'below' if kind == BELOW else 'above'} {FULL_DECK[attach]}"
    if kind == ON_SET:
        return f"lay {_cards_text(cards, stood)} on the set of {PLURALS[rank_place(cards)]}"
    if kind == MELD:
        return f"meld {_cards_text(cards, stood)}"
    return ("draw from the stock", "pass", f"take {card}", f"discard {card}")[kind]


_TEXTS: Final = tuple(_text(entry) for entry in SPACE)


def _places(group: int, stood: int) -> int:
    """
    The cards of *stood* as places among the cards of *group*, in `FULL_DECK` order.
    """
    places = 0
    for place, bit in enumerate(_bits(group)):
        if stood & bit:
            places |= 1 << place
    return places


def wild_play(i: int) -> tuple[int, int]:
    """
    What id *i*, a play with jokers (A7), represents: its natural id, and the cards of it that jokers play.
    """
    g = bisect.bisect_right(_WILD_STARTS, i) - 1
    natural = _WILD_NATURALS[g]
    kind, group, _ = SPACE[natural]
    places = _CHOICES[kind == MELD][group.bit_count()][i - _WILD_STARTS[g]]
    stood = 0
    for place, bit in enumerate(_bits(group)):
        if places >> place & 1:
            stood |= bit
    return natural, stood


def text_of(i: int) -> str:
    """
    The text of id *i* (`id_text`), from the table or, for a play with jokers, from what it represents.
    """
    if i < WILD_BASE:
        return _TEXTS[i]
    natural, stood = wild_play(i)
    return _text(SPACE[natural], stood)


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


def ids_of(actions: tuple[PlayerAction, ...], melds: tuple[TableMeld, ...]) -> list[int]:
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
                append(DRAW)
            case Pass():
                append(PASS)
            case DeclineCall():
                append(_DECLINE_ID)
            case CallRummy():
                append(_CALL_ID)
            case _:  # pragma: no cover
                assert_never(action)
    return ids


def wild_ids_of(actions: tuple[PlayerAction, ...], melds: tuple[TableMeld, ...]) -> list[int]:
    """
    `ids_of` under `Rules.jokers_wild` (A7): a play with jokers standing for cards has the id of
    what it represents and of which of those cards the jokers play.
    """
    ids: list[int] = []
    for action in actions:
        match action:
            case LayDown() | LayOff() if action.stand_ins:
                ids.append(_wild_id(action, melds))
            case _:
                ids += ids_of((action,), melds)
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


def ids_at(position: GameState | View, actions: tuple[PlayerAction, ...]) -> list[int]:
    """
    The id of each of *actions*, legal actions at *position*.
    """
    if position.rules.jokers_wild:
        return wild_ids_of(actions, position.melds)
    return ids_of(actions, position.melds)
