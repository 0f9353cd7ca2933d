"""
The transitions of the reducer: one function per type of action, each checking the action
against the state and building the next state.

`persian_rummy.apply` picks the function by the action's type.  Each one raises `IllegalActionError`
naming the rules broken, and builds the new state without checks (`persian_rummy._internal.build`),
sharing every part of the old state that did not change.
"""

from __future__ import annotations

from typing import Final, Never, NoReturn, Protocol, assert_never

from ..actions import CallRummy, Deal, DeclineCall, Discard, DrawStock, LayDown, LayOff, Pass, TakeDiscard
from ..cards import FULL_DECK, Card
from ..cardsets import CardSet
from ..exceptions import IllegalActionError
from ..melds import MeldKind, StandIns, TableMeld
from ..rules import EmptyStockEnd, ObligationTiming
from ..scoring import DealEnd, score_deal
from ..state import GameState, Phase, next_dealer
from .build import single
from .cardlogic import (
    blocked_cards,
    called_on,
    canonical_pairs,
    forbidden_discards,
    joker_order,
    laid_off,
    play_represents,
    takeable,
    usable,
    wild_takeable,
    wild_usable,
)
from .phase import DRAWING as _DRAWING
from .phase import PLAYING as _PLAYING
from .summary import Summary
from .tables import ALL_CARDS, JOKER_MASK, NO_MELD, RUN, SET, extensions, meld_shape
from .unchecked import NO_STAND_INS as _NO_STAND_INS
from .unchecked import answered as _answered
from .unchecked import asked as _asked
from .unchecked import called as _called
from .unchecked import dealt as _dealt
from .unchecked import discarded as _discarded
from .unchecked import drawn as _drawn
from .unchecked import ended as _ended
from .unchecked import new_meld
from .unchecked import passed as _passed
from .unchecked import played as _played
from .unchecked import taken as _taken
from .unchecked import turned as _turned

_SET_KIND: Final = MeldKind.SET
_RUN_KIND: Final = MeldKind.RUN
_card_set: Final = single(CardSet, int)
_meld: Final = new_meld
#: The four parts of hands or known cards, by seat.  Typed as a tuple of any length, as are the
#: constants below and the parts a transition passes on unchanged (`_Kept`): compiled code then
#: hands on the tuple itself, where it would build a copy of a tuple typed with a fixed length.  So a
#: new state shares what did not change with the old one, and pickles as it does in the pure build.
Four = tuple[CardSet, ...]
_EMPTY: Final = _card_set(0)
_NO_CARDS: Final[Four] = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)


class _Kept(Protocol):
    """
    The fields of a state that transitions pass on to the next state as they are (see `Four`).
    """

    @property
    def hands(self) -> Four: ...
    @property
    def known(self) -> Four: ...
    @property
    def _table(self) -> tuple[object, ...]: ...


class _Forgeable(Protocol):
    """
    An action's fields as the checks below read them: as any value, since code that sets the slots of a
    frozen action by force can put anything there.  Read through a typed field, a value of the wrong
    type would fail in the compiled build where it is read, with a `TypeError`, instead of being
    refused by the check that names the rule.
    """

    @property
    def seat(self) -> object: ...


class _ForgeableLayOff(_Forgeable, Protocol):
    @property
    def meld(self) -> object: ...


class _ForgeableDeal(_Forgeable, Protocol):
    @property
    def deck(self) -> object: ...


def not_an_action(action: Never) -> NoReturn:
    """
    Refuse what is not an action.  Typed as `typing.assert_never` is, so that mypy names every
    ``match`` over the action types that misses one.
    """
    raise IllegalActionError(action, "not an action of this game", "R13")


def _not_now(state: GameState, action: _Forgeable, phase: Phase, doing: str) -> IllegalActionError:
    """
    The error for *action* when the game is not in *phase* or it is not the action's seat's turn.
    """
    current = state.phase
    if current is not phase:
        if current is Phase.DRAW:
            return IllegalActionError(action, f"seat {state.to_act} must first draw or pass, not {doing}", "R13")
        if current is Phase.PLAY:
            return IllegalActionError(
                action, f"seat {state.to_act} has drawn already; {doing} is not possible now", "R13"
            )
        if current is Phase.DEAL or current is Phase.DEAL_OVER or current is Phase.GAME_OVER:
            return IllegalActionError(action, f"no player acts in phase {current.value!r}", "R13")
        if current is Phase.CALLS or current is Phase.CALLED:
            return _answering(state, action, doing)
        assert_never(current)
    seat = action.seat
    if type(seat) is not int:
        return IllegalActionError(action, f"a seat is a number 0-3, not {seat!r}", "R1")
    return IllegalActionError(action, f"it is seat {state.to_act}'s turn, not seat {seat!r}'s", "R6")


def _answering(state: GameState, action: _Forgeable, doing: str) -> IllegalActionError:
    """
    The error for *action* while the discard of `GameState.discarder` is answered (A24): in `CALLS`
    the seat to act calls "Rummy!" or declines, in `CALLED` it lays off the card it called on.
    """
    if state.phase is Phase.CALLED:
        reason = f"seat {state.to_act} called Rummy! and must lay off {state.obligation}; {doing} is not possible now"
    elif state.phase is Phase.CALLS and action.seat == state.to_act:
        top = state.discard_pile[-1]
        reason = f"seat {state.to_act} is asked whether it calls Rummy! on {top}; {doing} is not possible now"
    elif state.phase is Phase.CALLS:
        reason = f"seat {state.to_act} is asked first whether it calls Rummy!, not seat {action.seat!r}"
    else:
        reason = "nobody is asked to call Rummy!: only a discard that a table meld takes is called on"
    return IllegalActionError(action, reason, "A24")


def _with_part(parts: Four, seat: int, mask: int) -> Four:
    """
    *parts* (hands, or known cards) with seat *seat*'s part replaced by the cards of *mask*.
    """
    new = list(parts)
    new[seat] = _card_set(mask)
    # tuple() of the list is the quickest way to rebuild them.
    return tuple(new)


# -- dealing ------------------------------------------------------------------------------------------------------


def _check_dealing(action: Deal, phase: Phase) -> None:
    """
    R7: cards are dealt only before a deal, in `Phase.DEAL` and `Phase.DEAL_OVER`.
    """
    match phase:
        case Phase.DEAL | Phase.DEAL_OVER:
            return
        case Phase.DRAW | Phase.PLAY | Phase.GAME_OVER | Phase.CALLS | Phase.CALLED:
            msg = f"cards are dealt only at the start of a deal, not in phase {phase.value!r}"
            raise IllegalActionError(action, msg, "R7")
        case _:
            assert_never(phase)


def deal(state: GameState, action: Deal) -> GameState:
    phase = state.phase
    _check_dealing(action, phase)
    dealer = next_dealer(state)
    fields: _ForgeableDeal = action
    seat = fields.seat
    if type(seat) is not int or seat != dealer:
        rule = "R5" if phase is Phase.DEAL else "A4"
        raise IllegalActionError(action, f"seat {dealer} deals this deal, not seat {seat!r}", rule)
    deck = fields.deck
    if type(deck) is not tuple or len(deck) != 56:
        raise IllegalActionError(action, "the deck must hold 56 cards", "R2")
    seen = 0
    for card in deck:
        if type(card) is not Card:
            raise IllegalActionError(action, f"the deck holds {card!r}, which is not a card", "R2")
        seen |= 1 << card.index
    if seen != ALL_CARDS:
        raise IllegalActionError(
            action, f"the deck lacks {CardSet(ALL_CARDS & ~seen)}: every card must appear once", "R2"
        )
    dealt = 4 * state.rules.hand_size
    hands = [0, 0, 0, 0]
    for i in range(dealt):
        hands[(dealer + 1 + i) % 4] |= 1 << deck[i].index
    new_hands = (_card_set(hands[0]), _card_set(hands[1]), _card_set(hands[2]), _card_set(hands[3]))
    rest = deck[dealt + 1 :]
    return _dealt(
        state,
        deal=state.deal + 1,
        dealer=dealer,
        to_act=(dealer + 1) % 4,
        hands=new_hands,
        stock=rest,
        discard_pile=(deck[dealt],),
    )


# -- drawing ------------------------------------------------------------------------------------------------------


def draw_stock(state: GameState, action: DrawStock) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase not in _DRAWING:
        raise _not_now(state, action, Phase.DRAW, "drawing")
    stock = state.stock
    if not stock:
        raise IllegalActionError(action, "the stock is empty: take from the discard pile or pass", "R21")
    bit = 1 << stock[0].index
    kept: _Kept = state
    hands = _with_part(kept.hands, seat, kept.hands[seat].mask | bit)
    known = kept.known
    if state.stock_known:  # everyone knows the card drawn from a stock turned over from the pile (A18)
        known = _with_part(known, seat, known[seat].mask | bit)
    return _drawn(state, stock_known=state.stock_known and len(stock) > 1, hands=hands, stock=stock[1:], known=known)


def take_discard(state: GameState, action: TakeDiscard) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase not in _DRAWING:
        raise _not_now(state, action, Phase.DRAW, "taking from the discard pile")
    card = action.card
    pile = state.discard_pile
    if type(card) is not Card:
        raise IllegalActionError(action, f"{card!r} is not a card", "R14")
    if card not in pile:
        raise IllegalActionError(action, f"{card} is not in the discard pile", "R14")
    i = pile.index(card)
    taken = 0
    for above in pile[i:]:
        taken |= 1 << above.index
    kept: _Kept = state
    hand = kept.hands[seat].mask
    rules = state.rules
    free = rules.top_discard_free and state.stock and i == len(pile) - 1
    can_take = wild_takeable if rules.jokers_wild else takeable
    if not free and not can_take(card.index, hand | taken & ~(1 << card.index), state):
        reason = f"{card} cannot be melded or laid off at once, so it may not be taken"
        raise IllegalActionError(action, reason, ("R15", "A12"))
    known = _with_part(kept.known, seat, kept.known[seat].mask | taken)
    return _taken(
        state,
        obligation=None if free else card,
        picked=_card_set(taken),
        hands=_with_part(kept.hands, seat, hand | taken),
        discard_pile=pile[:i],
        known=known,
    )


# -- melding ------------------------------------------------------------------------------------------------------


def _melding_before_pass(state: GameState) -> bool:
    """
    Whether the seat to act may lay down or lay off before a pass, with an empty stock, as the rules
    allow it (A16): the other time a player may meld, besides after the draw.
    """
    return state.phase is Phase.DRAW and not state.stock and state.rules.pass_allows_melding


def _cards_in_hand(state: GameState, action: LayDown | LayOff | Discard, seat: int, mask: int) -> int:
    kept: _Kept = state
    hand = kept.hands[seat].mask
    if mask & ~hand:
        rule = "R18" if type(action) is Discard else "R16"
        raise IllegalActionError(action, f"seat {seat} does not hold {_card_set(mask & ~hand)}", rule)
    return hand


def _check_pending(  # noqa: PLR0913
    state: GameState,
    obligation: Card,
    action: LayDown | LayOff,
    hand: int,
    mask: int,
    after: list[int],
    blocked: int = 0,
) -> None:
    """
    Check an action that does not play the pending card from the discard pile (R15, A10, A11).

    *after* lists the cards the table's melds represent as they would be after the action, and
    *blocked* the cards they represent together, with jokers wild (A7).
    """
    rules = state.rules
    if rules.obligation_timing is ObligationTiming.IMMEDIATE:
        raise IllegalActionError(
            action, f"{obligation}, taken from the discard pile, must be played first", ("R15", "A11")
        )
    melds = after if rules.obligation_by_layoff else []
    if rules.jokers_wild:
        playable = wild_usable(obligation.index, hand & ~mask, melds, blocked, rules.ace_low_allowed)
    else:
        playable = usable(obligation.index, hand & ~mask, melds, rules.ace_low_allowed)
    if not playable:
        raise IllegalActionError(action, f"this would leave {obligation} with no meld to go into", ("R15", "A11"))


def _new_meld(  # noqa: PLR0913
    seat: int, cards: CardSet, shape: int, ace_low: bool, stand_ins: StandIns = _NO_STAND_INS, shown: int = -1
) -> TableMeld:
    represents = cards if shown < 0 else _card_set(shown)
    ends, reach = extensions(represents.mask, shape, ace_low=ace_low)
    return _meld(
        owner=seat,
        laid_down=cards,
        layoffs=_NO_CARDS,
        ace_low=ace_low,
        stand_ins=stand_ins,
        cards=cards,
        represents=represents,
        kind=_SET_KIND if shape == SET else _RUN_KIND,
        ends=ends,
        reach=reach,
    )


def lay_down(state: GameState, action: LayDown) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if (
        type(seat) is not int
        or seat != state.to_act
        or (state.phase not in _PLAYING and not _melding_before_pass(state))
    ):
        raise _not_now(state, action, Phase.PLAY, "laying down a meld")
    cards = action.cards
    if type(cards) is not CardSet:
        raise IllegalActionError(action, "the cards must be a CardSet", "R16")
    mask = cards.mask
    if mask.bit_count() < 3:
        raise IllegalActionError(action, f"a meld needs three or more cards, not {len(cards)}", "R9")
    hand = _cards_in_hand(state, action, seat, mask)
    rules = state.rules
    if rules.jokers_wild:
        return _wild_lay_down(state, action, seat, hand)
    if action.stand_ins is not _NO_STAND_INS:  # the engine's own plays share that one
        _check_tame(action)
    ace_low = rules.ace_low_allowed
    shape = meld_shape(mask, ace_low=ace_low)
    if shape == NO_MELD:
        raise IllegalActionError(action, f"{cards} is not a set or a run", "R11" if mask & JOKER_MASK else "R9")
    melds = state.melds
    obligation = state.obligation
    if obligation is not None and not mask >> obligation.index & 1:
        _check_pending(state, obligation, action, hand, mask, [*(m.represents.mask for m in melds), mask])
    meld = _new_meld(seat, cards, shape, ace_low)
    direct, far, runs = state._table
    table = (direct | meld.ends, far | meld.reach, (*runs, mask) if shape == RUN else runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds, meld), table)


def lay_off(state: GameState, action: LayOff) -> GameState:
    fields: _ForgeableLayOff = action
    seat = fields.seat
    if (
        type(seat) is not int
        or seat != state.to_act
        or (state.phase not in _PLAYING and not _melding_before_pass(state))
    ):
        seat = _caller(state, action)
    cards, k, melds = action.cards, fields.meld, state.melds
    if type(cards) is not CardSet or not cards:
        raise IllegalActionError(action, "lay off one or more cards", "R17")
    if type(k) is not int or not 0 <= k < len(melds):
        raise IllegalActionError(action, f"there is no meld {k!r} on the table", "R17")
    mask = cards.mask
    hand = _cards_in_hand(state, action, seat, mask)
    if state.rules.jokers_wild:
        return _wild_lay_off(state, action, seat, hand, k)
    if action.stand_ins is not _NO_STAND_INS:  # the engine's own plays share that one
        _check_tame(action)
    meld = melds[k]
    union = laid_off(meld, mask)
    if not union:
        raise IllegalActionError(action, f"{cards} does not extend the {meld.kind} {meld.cards}", "R17")
    _check_lay_off_obligation(state, action, hand, union)
    shape = SET if meld.kind is MeldKind.SET else RUN
    ends, reach = extensions(union, shape, ace_low=meld.ace_low)
    layoffs = list(meld.layoffs)
    layoffs[seat] = _card_set(layoffs[seat].mask | mask)
    whole = _card_set(union)
    new = _meld(
        owner=meld.owner, laid_down=meld.laid_down, layoffs=tuple(layoffs), ace_low=meld.ace_low,
        stand_ins=_NO_STAND_INS, cards=whole, represents=whole, kind=meld.kind, ends=ends, reach=reach,
    )  # fmt: skip
    # The cards just laid off may stay in the summary's masks: they never come back into play.
    direct, far, runs = state._table
    if shape == RUN:
        runs = _runs_extended(runs, meld.represents.mask, union)
    table = (direct | ends, far | reach, runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds[:k], new, *melds[k + 1 :]), table)


def _runs_extended(runs: tuple[int, ...], old: int, union: int) -> tuple[int, ...]:
    """
    The runs of the table summary, the run *old* now *union*.
    """
    return tuple(union if run == old else run for run in runs)


def _check_tame(action: LayDown | LayOff) -> None:
    """
    A7: without wild jokers a play names no stand-ins.
    """
    if _has_stand_ins(action):
        raise IllegalActionError(action, "jokers are not wild under these rules: a joker stands for no card", "A7")


def _caller(state: GameState, action: LayOff) -> int:
    """
    The seat of *action*, a lay-off out of the play phase: the seat that called "Rummy!", laying off
    the card it called on alone (A24); any other is refused.
    """
    fields: _Forgeable = action
    seat = fields.seat
    if state.phase is not Phase.CALLED or type(seat) is not int or seat != state.to_act:
        raise _not_now(state, action, Phase.PLAY, "laying off")
    called = state.obligation  # the card called on, in phase called (A24)
    if called is None or action.cards != _card_set(1 << called.index):
        reason = f"seat {seat} called Rummy! on {called} and lays off that card alone"
        raise IllegalActionError(action, reason, "A24")
    return seat


def _check_lay_off_obligation(state: GameState, action: LayOff, hand: int, union: int) -> None:
    obligation = state.obligation
    if obligation is None:
        return
    mask = action.cards.mask
    if not mask >> obligation.index & 1:
        after = [m.represents.mask for m in state.melds]
        after[action.meld] = union
        _check_pending(state, obligation, action, hand, mask, after, blocked_cards(state.melds) | union)
    elif not state.rules.obligation_by_layoff and state.phase is not Phase.CALLED:
        raise IllegalActionError(action, f"{obligation}, taken from the discard pile, must go into a new meld", "A10")


def _has_stand_ins(action: LayDown | LayOff) -> bool:
    stand_ins: object = action.stand_ins
    return type(stand_ins) is not StandIns or bool(action.stand_ins.pairs)


# -- melding with jokers wild (A7) ----------------------------------------------------------------------------


def _wild_pairs(state: GameState, action: LayDown | LayOff, hand: int) -> tuple[tuple[int, int], ...]:
    """
    The stand-ins of *action*, as (joker, card) pairs, checked against the hand and the table (A7).
    """
    mask = action.cards.mask
    stand_ins = action.stand_ins
    jokers = stand_ins.jokers.mask
    if jokers & ~mask:
        raise IllegalActionError(action, f"{_card_set(jokers & ~mask)} stand(s) for a card but is not played", "A7")
    stood = stand_ins.cards.mask
    if stood & mask:
        raise IllegalActionError(
            action, f"{_card_set(stood & mask)} is laid and stood for: a card is represented once", "A7"
        )
    blocked = blocked_cards(state.melds)
    if mask & blocked:
        reason = f"a joker on the table stands for {_card_set(mask & blocked)}, which cannot be laid: no exchange"
        raise IllegalActionError(action, reason, "A7")
    if stood & blocked:
        raise IllegalActionError(
            action, f"{_card_set(stood & blocked)} is on the table already: a joker cannot stand for it", "A7"
        )
    pairs = tuple((joker.index, card.index) for joker, card in stand_ins)
    if pairs:
        obligation = state.obligation
        order = joker_order(hand, None if obligation is None else obligation.index)
        canonical = canonical_pairs(order, stood)
        if pairs != canonical:
            wanted = StandIns([(FULL_DECK[j], FULL_DECK[c]) for j, c in canonical])
            reason = (
                f"the jokers standing for cards are the first the seat holds, in order: play {wanted}, not {stand_ins}"
            )
            raise IllegalActionError(action, reason, "A7")
    return pairs


def _wild_lay_down(state: GameState, action: LayDown, seat: int, hand: int) -> GameState:
    cards = action.cards
    mask = cards.mask
    pairs = _wild_pairs(state, action, hand)
    stood = action.stand_ins.jokers.mask
    if pairs and not mask & ~JOKER_MASK:
        raise IllegalActionError(action, "a meld with jokers standing for cards needs a natural card", "A7")
    if mask & JOKER_MASK & ~stood and mask & ~JOKER_MASK:
        reason = (
            f"say what {_card_set(mask & JOKER_MASK & ~stood)} stand(s) for: a joker among natural cards stands for one"
        )
        raise IllegalActionError(action, reason, "A7")
    shown = play_represents(mask, pairs)
    ace_low = state.rules.ace_low_allowed
    shape = meld_shape(shown, ace_low=ace_low)
    if shape == NO_MELD:
        written = action.stand_ins.write(action.cards)
        raise IllegalActionError(action, f"{written} is not a set or a run", "A7" if pairs else "R9")
    melds = state.melds
    obligation = state.obligation
    if obligation is not None and not mask >> obligation.index & 1:
        after = [*(m.represents.mask for m in melds), shown]
        _check_pending(state, obligation, action, hand, mask, after, blocked_cards(melds) | shown)
    meld = _new_meld(seat, cards, shape, ace_low, action.stand_ins, shown)
    direct, far, runs = state._table
    table = (direct | meld.ends, far | meld.reach, (*runs, shown) if shape == RUN else runs)
    return _after_play(state, seat, hand & ~mask, mask, (*melds, meld), table)


def _wild_lay_off(state: GameState, action: LayOff, seat: int, hand: int, k: int) -> GameState:
    mask = action.cards.mask
    melds = state.melds
    meld = melds[k]
    pairs = _wild_pairs(state, action, hand)
    old = meld.represents.mask
    unstood = mask & JOKER_MASK & ~action.stand_ins.jokers.mask
    if old & JOKER_MASK and pairs:
        raise IllegalActionError(action, "a joker laid off onto a set of jokers stands for nothing", "A7")
    if unstood and not old & JOKER_MASK:
        raise IllegalActionError(action, f"say what {_card_set(unstood)} stand(s) for: it goes onto {meld}", "A7")
    shown = play_represents(mask, pairs)
    union = laid_off(meld, shown)
    if not union:
        raise IllegalActionError(
            action, f"{action.stand_ins.write(action.cards)} does not extend the {meld.kind} {meld}", "R17"
        )
    if state.obligation is not None:
        _check_lay_off_obligation(state, action, hand, union)
    layoffs = list(meld.layoffs)
    layoffs[seat] = _card_set(layoffs[seat].mask | mask)
    stand_ins = StandIns((*meld.stand_ins.pairs, *action.stand_ins.pairs)) if pairs else meld.stand_ins
    shape = SET if meld.kind is MeldKind.SET else RUN
    ends, reach = extensions(union, shape, ace_low=meld.ace_low)
    new = _meld(
        owner=meld.owner, laid_down=meld.laid_down, layoffs=tuple(layoffs), ace_low=meld.ace_low, stand_ins=stand_ins,
        cards=_card_set(meld.cards.mask | mask), represents=_card_set(union), kind=meld.kind, ends=ends, reach=reach,
    )  # fmt: skip
    direct, far, runs = state._table
    if shape == RUN:
        runs = _runs_extended(runs, old, union)
    return _after_play(
        state, seat, hand & ~mask, mask, (*melds[:k], new, *melds[k + 1 :]), (direct | ends, far | reach, runs)
    )


def _after_play(  # noqa: PLR0913
    state: GameState, seat: int, hand: int, played: int, melds: tuple[TableMeld, ...], table: Summary
) -> GameState:
    kept: _Kept = state
    hands = _with_part(kept.hands, seat, hand)
    known = kept.known
    if known[seat].mask & played:
        known = _with_part(known, seat, known[seat].mask & ~played)
    obligation = state.obligation
    if obligation is not None and played >> obligation.index & 1:
        if state.phase is Phase.CALLED:  # the card called on, laid off: the discarder's left draws (A24)
            return _after_calls(state, hands, melds, known, table)
        obligation = None
    if not hand:
        # Out by melding before a pass (A16): the passes in a row before it stay on the record (A17).
        return _end_deal(state, hands, state.discard_pile, melds, known, seat, DealEnd.WENT_OUT, state.passes, table)
    return _played(state, melds=melds, obligation=obligation, table=table, hands=hands, known=known)


# -- ending the turn ----------------------------------------------------------------------------------------------


def discard(state: GameState, action: Discard) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase not in _PLAYING:
        raise _not_now(state, action, Phase.PLAY, "discarding")
    card = action.card
    if type(card) is not Card:
        raise IllegalActionError(action, f"{card!r} is not a card", "R18")
    bit = 1 << card.index
    hand = _cards_in_hand(state, action, seat, bit)
    if state.obligation is not None or state.picked.mask:
        _check_discard_after_take(state, action, hand, bit)
    hand &= ~bit
    kept: _Kept = state
    hands = _with_part(kept.hands, seat, hand)
    known = kept.known
    if known[seat].mask & bit:
        known = _with_part(known, seat, known[seat].mask & ~bit)
    pile = (*state.discard_pile, card)
    rules = state.rules
    if not hand and rules.go_out_by_discard:
        return _end_deal(state, hands, pile, state.melds, known, seat, DealEnd.WENT_OUT)
    if not state.stock or rules.rummy_calls:
        return _after_discard(state, seat, hands, pile, known)
    return _discarded(state, to_act=(seat + 1) % 4, hands=hands, discard_pile=pile, known=known)


def _after_discard(state: GameState, seat: int, hands: Four, pile: tuple[Card, ...], known: Four) -> GameState:
    """
    The state after a discard by *seat* from an empty stock, or under calls of "Rummy!": the pile turned
    over into a new stock (A18), or the end of the deal (A17); then the seats asked whether they call (A24),
    or the next turn.
    """
    rules = state.rules
    stock, stock_known = state.stock, state.stock_known
    if not stock and rules.reshuffle_on_empty_stock and len(pile) > 1:
        # The pile but its top card is turned over, in order, and becomes the stock (A18).
        stock, pile, stock_known = pile[:-1], pile[-1:], True
    elif not stock and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY:
        return _end_deal(state, hands, pile, state.melds, known, None, DealEnd.STOCK_EMPTY)
    called = rules.rummy_calls and called_on(state.melds, pile[-1].index, rules.jokers_wild)
    asked = _next_asked(hands, seat, seat) if called else None
    return _turned(
        state,
        phase=Phase.DRAW if asked is None else Phase.CALLS,
        stock_known=stock_known,
        to_act=(seat + 1) % 4 if asked is None else asked,
        hands=hands,
        stock=stock,
        discard_pile=pile,
        known=known,
        discarder=None if asked is None else seat,
    )


def _check_discard_after_take(state: GameState, action: Discard, hand: int, bit: int) -> None:
    """
    R15, A11: no discard while the card taken from the pile is still to be played; A13 (and A9's
    free top card): no discard of a card just taken, where the rules forbid it.
    """
    if state.obligation is not None:
        reason = f"{state.obligation}, taken from the discard pile, must be played first"
        raise IllegalActionError(action, reason, ("R15", "A11"))
    if forbidden_discards(state, hand) & bit:
        reason = f"{action.card} was taken from the discard pile this turn and may not be discarded"
        rule = "A13" if state.rules.forbid_discarding_picked_cards else "A9"
        raise IllegalActionError(action, reason, rule)


# -- calling "Rummy!" (A24) ----------------------------------------------------------------------------------------


def _next_asked(hands: Four, seat: int, discarder: int) -> int | None:
    """
    The seat asked after *seat* whether it calls "Rummy!" on the discard of *discarder* (A24): the next
    one round from the discarder's left that holds cards, since a call must not take a seat out of turn;
    `None` once every other seat was asked.
    """
    asked = (seat + 1) % 4
    while asked != discarder:
        if hands[asked].mask:
            return asked
        asked = (asked + 1) % 4
    return None


def answer(state: GameState, action: CallRummy | DeclineCall) -> GameState:
    """
    The state after the seat asked about a discard called "Rummy!" or declined (A24).
    """
    match action:
        case CallRummy():
            return call_rummy(state, action)
        case DeclineCall():
            return decline_call(state, action)


def call_rummy(state: GameState, action: CallRummy) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase is not Phase.CALLS:
        raise _answering(state, action, "calling Rummy!")
    pile = state.discard_pile
    card = pile[-1]
    bit = 1 << card.index
    kept: _Kept = state
    hands = _with_part(kept.hands, seat, kept.hands[seat].mask | bit)
    known = _with_part(kept.known, seat, kept.known[seat].mask | bit)
    return _called(state, obligation=card, picked=_card_set(bit), hands=hands, discard_pile=pile[:-1], known=known)


def decline_call(state: GameState, action: DeclineCall) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase is not Phase.CALLS:
        raise _answering(state, action, "declining a call")
    discarder = _answered_discard(state)
    kept: _Kept = state
    asked = _next_asked(kept.hands, seat, discarder)
    if asked is None:
        return _after_calls(state, kept.hands, state.melds, kept.known, kept._table)
    return _asked(state, to_act=asked)


def _answered_discard(state: GameState) -> int:
    """
    The seat whose discard is answered, in the phases of a call of "Rummy!" (A24), where a state has one.
    """
    discarder = state.discarder
    if discarder is None:  # pragma: no cover (the validation: a discarder in the phases of a call)
        msg = f"no discarder in phase {state.phase.value!r}"
        raise AssertionError(msg)
    return discarder


def _after_calls(
    state: GameState, hands: Four, melds: tuple[TableMeld, ...], known: Four, table: tuple[object, ...]
) -> GameState:
    """
    The state once a discard was answered, by a call and its lay-off or by every seat declining: the
    discarder's left draws, as it would have without the call (A24).
    """
    discarder = _answered_discard(state)
    return _answered(state, melds=melds, table=table, to_act=(discarder + 1) % 4, hands=hands, known=known)


def pass_turn(state: GameState, action: Pass) -> GameState:
    fields: _Forgeable = action
    seat = fields.seat
    if type(seat) is not int or seat != state.to_act or state.phase not in _DRAWING:
        raise _not_now(state, action, Phase.DRAW, "passing")
    if state.stock:
        raise IllegalActionError(action, "a player may pass only when the stock is empty", "R21")
    passes = state.passes + 1
    rules = state.rules
    kept: _Kept = state
    if rules.empty_stock_end is not EmptyStockEnd.ALL_PASS or passes == 4:
        return _end_deal(state, kept.hands, state.discard_pile, state.melds, kept.known, None, DealEnd.PASSES, passes)
    return _passed(state, to_act=(seat + 1) % 4, passes=passes)


def _end_deal(  # noqa: PLR0913
    state: GameState,
    hands: Four,
    pile: tuple[Card, ...],
    melds: tuple[TableMeld, ...],
    known: Four,
    went_out: int | None,
    end: DealEnd,
    passes: int = 0,
    table: Summary | None = None,
) -> GameState:
    rules = state.rules
    kept: _Kept = state
    score = score_deal(hands, melds, went_out, rules=rules, deal=state.deal, end=end)
    results = (*state.results, score)
    phase = Phase.DEAL_OVER
    if state.deal >= rules.num_deals:
        level = sum(r.teams[0].total for r in results) == sum(r.teams[1].total for r in results)
        if not (level and state.deal < rules.max_deals):
            phase = Phase.GAME_OVER
    return _ended(
        state,
        phase=phase,
        melds=melds,
        results=results,
        table=kept._table if table is None else table,
        hands=hands,
        discard_pile=pile,
        known=known,
        passes=passes,
        went_out=went_out,
    )
