"""
Card logic on bit masks: what the rules let a player do with given cards, shared by the
legal-move enumeration (`persian_rummy._internal.enumeration`) and the transitions
(`persian_rummy._internal.transitions`).

Card ``i`` of `FULL_DECK` is the bit ``1 << i`` (see `persian_rummy._internal.tables`).  The functions
here answer questions such as "can this card go into a new meld with these cards?" or "which
groups of these cards extend that meld?" on masks; the callers turn the answers into actions.

Each state and view carries a summary of its table (`persian_rummy._internal.summary`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from ..melds import MeldKind, TableMeld
from .shapes import Summarized
from .tables import (
    ACE,
    GROUP,
    GROUP_OTHERS,
    JOKER_MASK,
    LOW_TRIPLE,
    RANK_MASKS,
    ROW,
    ROW_RUNS,
    RUN_OK,
    RUN_WINDOW,
    SUIT_BLOCK,
    group_melds,
    is_block,
    low_runs,
    place_bit,
    rotated,
    run_span,
)

SET: Final = MeldKind.SET
RUN: Final = MeldKind.RUN


Position = Summarized


def _fits_row(row: int, place: int, avail: int) -> bool:
    """
    Whether the card at *place* of a run's suit (-1 for a low ace) extends the run *row*, the
    cards of *avail* (same suit, as a row) filling any gap.
    """
    low, high = run_span(row, ace_low=True)
    if place < low:
        need = (1 << low) - (1 << (place + 1))
    elif place > high:
        need = (1 << place) - (1 << (high + 1))
    else:
        return False
    return avail & need == need


def _fits_low(run: int, t: int, avail: int) -> bool:
    """
    `fits` for a run under rules that let the ace be low (A8).
    """
    block = t - t % 13
    row = run >> block & ROW
    offset = t - block
    if row >> offset & 1:
        return False
    rest = avail >> block & ROW
    # An ace the run does not hold may go below its 2 (over the cards between) or above its top.
    if offset == 12 and _fits_row(row, -1, rest):
        return True
    return _fits_row(row, offset, rest)


def fits(meld: int, t: int, avail: int, ace_low: bool) -> bool:
    """
    Whether card *t* can be laid off onto the meld *meld*, with the cards of *avail* bridging a gap to a run.
    """
    lo = (meld & -meld).bit_length() - 1
    group = GROUP[lo]
    if meld & ~group == 0:  # a set
        return meld.bit_count() == 3 and group >> t & 1 == 1
    if SUIT_BLOCK[t] != SUIT_BLOCK[lo]:
        return False
    if ace_low:
        return _fits_low(meld, t, avail)
    if t < lo:
        need = (1 << lo) - (2 << t)
        return avail & need == need
    hi = meld.bit_length() - 1
    if t > hi:
        need = (1 << t) - (2 << hi)
        return avail & need == need
    return False


def reaches(run: int, t: int, avail: int, ace_low: bool) -> bool:
    """
    Whether card *t*, of the run's suit, can be laid off onto *run* with the cards of *avail* filling the gap.
    """
    if SUIT_BLOCK[(run & -run).bit_length() - 1] >> t & 1 == 0:
        return False
    if ace_low:
        return _fits_low(run, t, avail)
    lo = (run & -run).bit_length() - 1
    if t < lo:
        need = (1 << lo) - (2 << t)
    else:
        hi = run.bit_length() - 1
        need = (1 << t) - (2 << hi)
    return need >= 0 and avail & need == need


def meldable(t: int, avail: int, ace_low: bool) -> bool:
    """
    Whether card *t* makes a new meld with two cards of *avail*: a set of its rank, or a three-card run.

    (`legal_actions`' draw phase makes the same test inline, once per card of the pile.)
    """
    others = avail & GROUP_OTHERS[t]
    if others & (others - 1) or RUN_OK[(avail << 2 >> t) & RUN_WINDOW[t]]:
        return True
    triple = LOW_TRIPLE[t]
    return ace_low and triple != 0 and (avail | 1 << t) & triple == triple


def usable(t: int, avail: int, melds: list[int] | tuple[int, ...], ace_low: bool) -> bool:
    """
    Whether card *t* can be played at once (A12): in a new meld with cards of *avail*, or laid off onto *melds*.
    """
    return meldable(t, avail, ace_low) or any(fits(meld, t, avail, ace_low) for meld in melds)


def witnesses(t: int, hand: int, unseen: int, melds: tuple[int, ...], ace_low: bool) -> tuple[int, list[int]] | None:
    """
    What a hand that shows only *hand* needs to hold, of the cards *unseen*, for card *t* to be
    usable (A12): `None` when *hand* is enough; else the single cards that are enough, as a mask,
    and the pairs of cards (as masks) that are enough where neither card of them is alone.

    A card is usable in a meld of three with it (a set's or a run's every larger meld holds
    one), or laid off with the cards that fill the gap to a run's end (two of them or more
    make a run of three with it), so no smaller group of cards than these is ever needed.
    """
    if usable(t, hand, melds, ace_low):
        return None
    # Only cards of its rank or of its suit can meld with a card or fill a gap beside it.
    near = unseen & (GROUP[t] | SUIT_BLOCK[t]) & ~(1 << t)
    cards = [i for i in range(56) if near >> i & 1]
    singles = [i for i in cards if usable(t, hand | 1 << i, melds, ace_low)]
    rest = [i for i in cards if i not in singles]
    pairs = [
        1 << a | 1 << b
        for k, a in enumerate(rest)
        for b in rest[k + 1 :]
        if usable(t, hand | 1 << a | 1 << b, melds, ace_low)
    ]
    return sum(1 << i for i in singles), pairs


def takeable(t: int, avail: int, position: Position) -> bool:
    """
    Whether card *t* of the discard pile may be taken (R15, A10, A12): it can go into a new meld
    with the cards of *avail*, or (when the rules allow) be laid off onto the table's melds.
    """
    rules = position.rules
    ace_low = rules.ace_low_allowed
    if meldable(t, avail, ace_low):
        return True
    if not rules.obligation_by_layoff:
        return False
    direct, far, runs = position._table
    if direct >> t & 1:
        return True
    block = SUIT_BLOCK[t]
    return bool(far >> t & 1) and any(run & block and reaches(run, t, avail, ace_low) for run in runs)


def set_masks(hand: int, three: int) -> list[int]:
    """
    The sets that can be laid down from *hand*; *three* has bit ``r`` set for each rank offset held three times.
    """
    result: list[int] = []
    while three:
        low = three & -three
        three ^= low
        result.extend(group_melds(hand & RANK_MASKS[low.bit_length() - 1]))
    jokers = hand & JOKER_MASK
    if jokers.bit_count() >= 3:
        result.extend(group_melds(jokers))
    return result


def threes(hand: int) -> int:
    """
    The rank offsets (as bits 0-12) that *hand* holds three or four times.
    """
    a = hand & ROW
    b = hand >> 13 & ROW
    c = hand >> 26 & ROW
    d = hand >> 39 & ROW
    return (a & b & (c | d)) | (c & d & (a | b))


def lay_down_masks(hand: int, ace_low: bool) -> list[int]:
    """
    Every meld that can be laid down from *hand*: sets by rank, joker sets, then runs by suit.
    """
    result = set_masks(hand, threes(hand))
    for shift in (0, 13, 26, 39):
        row = hand >> shift & ROW
        result.extend(run << shift for run in ROW_RUNS[row])
        if ace_low:
            result.extend(run << shift for run in low_runs(row))
    return result


def _chains(row: int, hand: int, ace_low: bool) -> list[int]:
    """
    The groups of cards of *hand* (a row) that extend the run *row* at one end: the next card,
    the next two, ... below it, then above it.
    """
    low, high = run_span(row, ace_low=ace_low)
    has_ace = bool(row & ACE)
    result = []
    chain = 0
    place = low - 1
    # The ace goes below the 2 after the cards between (2h Ah onto 3h-Kh, A11); alone onto 2 to K it
    # is also the ace above the king, the same lay-off, which is listed once, above.
    while place >= (-1 if ace_low and not has_ace and (low > 0 or high < 11) else 0) and hand & place_bit(place):
        chain |= place_bit(place)
        result.append(chain)
        place -= 1
    chain = 0
    place = high + 1
    while place <= (11 if has_ace else 12) and hand >> place & 1:
        chain |= 1 << place
        result.append(chain)
        place += 1
    return result


def lay_off_masks(meld: TableMeld, hand: int) -> list[int]:
    """
    Every group of cards from *hand* that can be laid off onto *meld* in one action.
    """
    mask = meld.represents.mask
    lo = (mask & -mask).bit_length() - 1
    if meld.kind is SET:
        if mask.bit_count() == 3:
            extra = hand & GROUP[lo]
            if extra:
                return [extra]
        return []
    block = lo - lo % 13
    if meld.ace_low:
        return [chain << block for chain in _chains(mask >> block, hand >> block & ROW, ace_low=True)]
    result = []
    chain = 0
    card = lo - 1
    while card >= block and hand >> card & 1:
        chain |= 1 << card
        result.append(chain)
        card -= 1
    chain = 0
    card = mask.bit_length()
    while card <= block + 12 and hand >> card & 1:
        chain |= 1 << card
        result.append(chain)
        card += 1
    return result


def call_lay_offs(melds: tuple[TableMeld, ...], t: int) -> list[int]:
    """
    The melds, by index, that take card *t* alone as a lay-off (R17): where a seat that calls
    "Rummy!" on it may lay it off (A24), as `lay_off_masks` finds the lay-offs of a hand of that card alone;
    none when a joker on the table stands for it (A7).
    """
    bit = 1 << t
    found = [k for k, meld in enumerate(melds) if meld.ends & bit and bit in lay_off_masks(meld, bit)]
    if found and any(meld.represents.mask & bit for meld in melds):
        return []  # a joker on the table stands for the card, which is dead (A7)
    return found


def laid_off(meld: TableMeld, mask: int) -> int:
    """
    The meld's cards with *mask* laid off onto them, or 0 when that is not a valid lay-off (R17).
    """
    cards = meld.represents.mask
    union = cards | mask
    lo = (cards & -cards).bit_length() - 1
    if meld.kind is SET:
        return union if union & ~GROUP[lo] == 0 and union.bit_count() <= 4 else 0
    block = SUIT_BLOCK[lo]
    if union & ~block:
        return 0
    shift = lo - lo % 13
    part = mask >> shift
    whole = union >> shift
    if is_block(part) and is_block(whole):
        return union
    if meld.ace_low and whole & ACE and is_block(rotated(part)) and is_block(rotated(whole)):
        return union
    return 0


def forbidden_discards(position: Position, hand: int) -> int:
    """
    Cards of *hand* that may not be discarded this turn (A13; A9's free top card).
    """
    picked = position.picked.mask
    if not picked:
        return 0
    rules = position.rules
    if rules.forbid_discarding_picked_cards or (rules.top_discard_free and picked.bit_count() == 1):
        forbidden = picked & hand
        return 0 if forbidden == hand else forbidden
    return 0


# -- jokers wild (A7) -------------------------------------------------------------------------------------------
#
# Under `Rules.jokers_wild` a joker may stand for a natural card in a set or a run.  A play is written
# with masks: the cards it takes from hand, and the pairs (joker index, card index) of its jokers and
# the cards they stand for.  A table's *blocked* cards are those its melds represent: no card is
# represented twice, so none of them may be laid or stood for again.  The jokers a play uses are the
# first of `joker_order`, and the lower-numbered joker stands for the card first in `FULL_DECK` order.

#: A play with jokers: the cards from hand and the (joker, card) pairs of its stand-ins.
WildPlay = tuple[int, tuple[tuple[int, int], ...]]
_NATURALS: Final = (1 << 52) - 1


def blocked_cards(melds: tuple[TableMeld, ...]) -> int:
    """
    The natural cards the table's melds represent: laid, or stood for by a joker (A7).
    """
    mask = 0
    for meld in melds:
        mask |= meld.represents.mask
    return mask & _NATURALS


def joker_order(hand: int, first: int | None) -> list[int]:
    """
    The jokers of *hand* in the order a play uses them (A7): the joker *first* (the one taken from
    the pile that must be played, R15) if it is one, then the others by number.
    """
    jokers = [52 + i for i in range(4) if hand >> (52 + i) & 1]
    if first is not None and first in jokers:
        jokers.remove(first)
        jokers.insert(0, first)
    return jokers


def canonical_pairs(jokers: list[int], stood: int) -> tuple[tuple[int, int], ...]:
    """
    The stand-ins of a play whose jokers stand for the cards of *stood*: the first of *jokers*,
    the lower-numbered standing for the card first in `FULL_DECK` order (A7).
    """
    cards = [i for i in range(52) if stood >> i & 1]
    chosen = sorted(jokers[: len(cards)])
    return tuple(zip(chosen, cards, strict=True))


def _fills(positions: int, hand: int, jokers: list[int], blocked: int, natural: bool) -> list[WildPlay]:
    """
    Every way to play the cards *positions* from *hand* with one joker or more standing for some
    of them: each card not in hand, and any in hand, stood for by a joker; with *natural*, one
    card at least is laid as itself.
    """
    if positions & blocked:
        return []
    required = positions & ~hand
    room = len(jokers) - required.bit_count()
    if room < 0:
        return []
    both = positions & hand
    held = [1 << i for i in range(52) if both >> i & 1]
    result: list[WildPlay] = []
    for size in range(min(room, len(held)) + 1):
        for extra in combinations(held, size):
            stood = required | sum(extra)
            if not stood or (natural and stood == positions):
                continue
            pairs = canonical_pairs(jokers, stood)
            jokers_mask = 0
            for joker, _ in pairs:
                jokers_mask |= 1 << joker
            result.append((positions & ~stood | jokers_mask, pairs))
    return result


def _windows(ace_low: bool) -> tuple[int, ...]:
    runs = [run << (13 * suit) for suit in range(4) for run in ROW_RUNS[ROW]]
    if ace_low:
        runs.extend(run << (13 * suit) for suit in range(4) for run in low_runs(ROW))
    return tuple(runs)


#: Every run of the deck, by suit: ace high, then (with the second) those that take the ace low.
RUN_WINDOWS: Final = (_windows(False), _windows(True))


def _triples_with(t: int, ace_low: bool) -> tuple[int, ...]:
    melds = (*group_melds(RANK_MASKS[t % 13]), *RUN_WINDOWS[ace_low])
    return tuple(meld for meld in melds if meld >> t & 1 and meld.bit_count() == 3)


#: For each natural card, the sets and the runs of three cards that hold it (A7): ace high, then
#: (with the second) with the ace low too.
TRIPLES_WITH: Final = tuple(tuple(_triples_with(t, ace_low) for t in range(52)) for ace_low in (False, True))


def wild_lay_downs(hand: int, jokers: list[int], blocked: int, ace_low: bool) -> list[WildPlay]:
    """
    Every meld with jokers standing for cards that *hand* can lay down (A7): sets by rank, then runs by suit.
    """
    if not jokers:
        return []
    live = hand & _NATURALS & ~blocked
    room = len(jokers)
    result: list[WildPlay] = []
    for rank in range(13):
        if live & RANK_MASKS[rank]:
            for group in group_melds(RANK_MASKS[rank]):
                result.extend(_fills(group, live, jokers, blocked, True))
    for run in RUN_WINDOWS[ace_low]:
        # (`_fills` makes these two tests too; made here, they spare a call for most of the 264 runs.)
        if live & run and not run & blocked and (run & ~live).bit_count() <= room:
            result.extend(_fills(run, live, jokers, blocked, True))
    return result


def _run_chains(rep: int, ace_low: bool) -> list[int]:
    """
    The groups of cards that extend the run *rep* at one end: the next card, the next two, ...
    below it, then above it (as `lay_off_masks` walks them).
    """
    lo = (rep & -rep).bit_length() - 1
    block = lo - lo % 13
    row = rep >> block & ROW
    low, high = run_span(row, ace_low=ace_low)
    has_ace = bool(row & ACE)
    result = []
    chain = 0
    place = low - 1
    while place >= (-1 if ace_low and not has_ace and (low > 0 or high < 11) else 0):
        chain |= place_bit(place)
        result.append(chain << block)
        place -= 1
    chain = 0
    for place in range(high + 1, (11 if has_ace else 12) + 1):
        chain |= 1 << place
        result.append(chain << block)
    return result


def wild_lay_offs(rep: int, hand: int, jokers: list[int], blocked: int, ace_low: bool) -> list[WildPlay]:
    """
    Every lay-off with jokers standing for cards from *hand* onto the meld that represents *rep* (A7).
    """
    if not jokers:
        return []
    live = hand & _NATURALS & ~blocked
    result: list[WildPlay] = []
    for group in _lay_off_groups(rep, ace_low):
        result.extend(_fills(group, live, jokers, blocked, False))
    return result


def _lay_off_groups(rep: int, ace_low: bool) -> list[int]:
    """
    The groups of cards a lay-off with jokers may add to the meld that represents *rep* (A7): the
    card a set of three lacks, or the cards that extend a run at one end.
    """
    if rep & JOKER_MASK:
        return []  # a set of jokers takes a joker that stands for nothing
    lo = (rep & -rep).bit_length() - 1
    if rep & ~GROUP[lo] == 0:
        return [GROUP[lo] & ~rep] if rep.bit_count() == 3 else []
    return _run_chains(rep, ace_low)


def wild_usable(t: int, hand: int, table: list[int] | tuple[int, ...], blocked: int, ace_low: bool) -> bool:
    """
    Whether card *t* of *hand* can be played at once under `Rules.jokers_wild` (A7, A12): as
    itself or with jokers, in a new meld or laid off onto the melds that represent *table*.
    """
    bit = 1 << t
    if t < 52 and blocked & bit:
        return False  # a joker on the table holds its place, and no exchange brings it back
    hand |= bit  # the card itself, whether *hand* shows it or not
    live = hand & ~blocked
    if usable(t, live, table, ace_low):
        return True
    jokers = joker_order(hand, t)
    if not jokers:
        return False
    if t >= 52:  # the joker comes first in `joker_order`, so every play with jokers uses it
        return bool(wild_lay_downs(hand, jokers, blocked, ace_low)) or any(
            wild_lay_offs(rep, hand, jokers, blocked, ace_low) for rep in table
        )
    return _natural_with_jokers(t, hand, table, blocked, ace_low, len(jokers))


def _natural_with_jokers(  # noqa: PLR0913
    t: int, hand: int, table: list[int] | tuple[int, ...], blocked: int, ace_low: bool, room: int
) -> bool:
    """
    Whether natural card *t* can be played with at most *room* jokers of *hand* (A7).

    The card is laid as itself, and the least group that holds it is enough: a meld of three (any
    bigger one holds one), or the cards from a run's end to it; jokers stand for what the hand lacks.
    """
    bit = 1 << t
    live = hand & _NATURALS & ~blocked
    for group in TRIPLES_WITH[ace_low][t]:
        if not group & blocked and (group & ~live).bit_count() <= room:
            return True
    for rep in table:
        # The least chain of each end that holds the card is enough: both ends are tried, since an
        # ace that may be low (A8) ends a chain below the run and another above it.
        for group in _lay_off_groups(rep, ace_low):
            if group & bit and not group & blocked and (group & ~live).bit_count() <= room:
                return True
    return False


def wild_witnesses(  # noqa: PLR0913
    t: int, hand: int, unseen: int, table: tuple[int, ...], blocked: int, ace_low: bool
) -> tuple[int, list[int]] | None:
    """
    `witnesses` under `Rules.jokers_wild`: a card needs at most two more cards (naturals or jokers)
    to be played, in a meld of three or over the gap to a run.
    """
    if wild_usable(t, hand, table, blocked, ace_low):
        return None
    near = unseen & (GROUP[t] | SUIT_BLOCK[t] | JOKER_MASK) & ~(1 << t) if t < 52 else unseen & ~(1 << t)
    cards = [i for i in range(56) if near >> i & 1]
    singles = [i for i in cards if wild_usable(t, hand | 1 << i, table, blocked, ace_low)]
    rest = [i for i in cards if i not in singles]
    pairs = [
        1 << a | 1 << b
        for k, a in enumerate(rest)
        for b in rest[k + 1 :]
        if wild_usable(t, hand | 1 << a | 1 << b, table, blocked, ace_low)
    ]
    return sum(1 << i for i in singles), pairs


def play_represents(mask: int, pairs: tuple[tuple[int, int], ...]) -> int:
    """
    The cards a play of the cards *mask* represents, its jokers standing as *pairs* says (A7).
    """
    for joker, card in pairs:
        mask = mask & ~(1 << joker) | 1 << card
    return mask


def wild_takeable(t: int, avail: int, position: Position) -> bool:
    """
    `takeable` under `Rules.jokers_wild` (A7, R15, A12): card *t* of the pile can be played at once
    with the cards of *avail* and the jokers among them.
    """
    rules = position.rules
    melds = position.melds
    table = [meld.represents.mask for meld in melds] if rules.obligation_by_layoff else []
    return wild_usable(t, avail | 1 << t, table, blocked_cards(melds), rules.ace_low_allowed)


def called_on(melds: tuple[TableMeld, ...], t: int, wild: bool) -> bool:
    """
    Whether a meld on the table takes card *t* alone as a lay-off, so that a discard of it is called on
    (A24): by `call_lay_offs`, or, with jokers wild (*wild*, A7), a joker standing for a card a meld takes.
    """
    if call_lay_offs(melds, t):
        return True
    return wild and not _NATURALS >> t & 1 and bool(called_joker_lay_offs(melds, t))


def called_joker_lay_offs(melds: tuple[TableMeld, ...], t: int) -> list[tuple[int, WildPlay]]:
    """
    The lay-offs of the wild joker *t* alone standing for a card, by meld: (meld index, play) (A7, A24).
    """
    blocked = blocked_cards(melds)
    bit = 1 << t
    return [
        (k, play)
        for k, meld in enumerate(melds)
        for play in wild_lay_offs(meld.represents.mask, bit, [t], blocked, meld.ace_low)
        if play[0] == bit
    ]
