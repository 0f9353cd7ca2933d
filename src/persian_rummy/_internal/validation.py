"""
Validation: the invariants of a game state, as named checks shared by states and views.

Each check looks at one part of the rules and returns the first problem it finds, as a
message, or `None`.  `check_invariants` runs the checks on a `persian_rummy.GameState`;
`check_view` runs the same checks on a `persian_rummy.View`, through `Facts`, which tells
the checks what the position shows: every hand and the stock for a state, the seat's own
hand, the cards everyone knows and the counts for a view.

=====================  =========  ==========================================================
check                  rules      what it asks
=====================  =========  ==========================================================
`conservation`         R2         every card once: in a hand, the stock, the pile or a meld
`melds_under_rules`    R9-R12     every meld on the table is one under the game's rules (A7, A8)
`phase_and_turn`       R6, R27    the phase agrees with the deal, the seat to act, the results
`obligation`           R15, R19   the seat to play holds cards; a card taken from the pile is in
                                 hand, known and playable until it is played (A11, A12)
`passes`               R21, A17   passes only with an empty stock, never more than the rules end
`calls`                A24        a discard answered by calls: one a table meld takes, the seat
                                 asked holds cards, the card called on is laid off next
`end_of_deal`          R19, R22   a finished deal's result is the score of its table
`results`              R23-R27    finished deals are numbered in order, each a score a deal gives
=====================  =========  ==========================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from ..cards import FULL_DECK, Card
from ..cardsets import CardSet
from ..melds import TableMeld
from ..rules import EmptyStockEnd, ObligationTiming, Rules
from ..scoring import DealEnd, DealScore, TeamScore, score_deal
from . import cardlogic as _cardlogic
from . import seats as _seats
from . import tables as _tables
from .phase import Phase, counts_passes, is_deal_over, is_turn
from .shapes import Public, State, ViewShape


class Facts:
    """
    What a position shows of the cards, for the checks: for a state everything, for a view
    what its seat sees.

    Attributes:
        public: The state or view.
        hands: Each hand's cards as a mask, `None` where the position does not show it.
        known: Each hand's cards that everyone knows, as a mask.
        sizes: The number of cards in each hand.
        stock: The stock, `None` where the position does not show it.
        stock_size: The number of cards in the stock.
        places: Where the position shows cards, by name, for messages.
    """

    __slots__ = ("hands", "known", "places", "public", "sizes", "stock", "stock_size")

    def __init__(  # noqa: PLR0913 (one argument per thing a position shows)
        self,
        public: Public,
        hands: Sequence[int | None],
        known: Sequence[int],
        sizes: Sequence[int],
        stock: tuple[Card, ...] | None,
        stock_size: int,
        places: Sequence[tuple[str, Iterable[Card]]],
    ) -> None:
        self.public = public
        self.hands = tuple(hands)
        self.known = tuple(known)
        self.sizes = tuple(sizes)
        self.stock = stock
        self.stock_size = stock_size
        self.places = tuple(places)

    def hand_or_known(self, seat: int) -> int:
        """
        The cards of *seat*'s hand the position shows: all of them, or those everyone knows.
        """
        hand = self.hands[seat]
        return self.known[seat] if hand is None else hand


Check = Callable[[Facts], "str | None"]


def _table_mask(melds: tuple[TableMeld, ...]) -> int:
    mask = 0
    for meld in melds:
        mask |= meld.cards.mask
    return mask


def conservation(facts: Facts) -> str | None:
    """
    R2: no card is shown in two places, and the places hold the 56 cards between them.
    """
    seen = 0
    for place, cards in facts.places:
        for card in cards:
            bit = 1 << card.index
            if seen & bit:
                return f"card {card} appears more than once (found again in the {place})"
            seen |= bit
    everything_shown = facts.stock is not None and None not in facts.hands
    if everything_shown and seen != _tables.ALL_CARDS:
        return f"cards missing: {CardSet(_tables.ALL_CARDS & ~seen)} (all 56 cards must be present exactly once)"
    for seat, hand in enumerate(facts.hands):
        if hand is not None and facts.known[seat] & ~hand:
            return f"known cards of seat {seat} ({CardSet(facts.known[seat] & ~hand)}) are not in its hand"
    hidden = 0 if facts.stock is not None else facts.stock_size
    for seat, size in enumerate(facts.sizes):
        hidden += size - facts.hand_or_known(seat).bit_count()
    unseen = 56 - seen.bit_count()
    if hidden != unseen:
        return f"the hands and the stock must hold the {unseen} unseen cards, not {hidden}"
    return None


def melds_under_rules(facts: Facts) -> str | None:
    """
    R9-R12, A8: every meld on the table lies under the game's rules: a run takes its ace low
    only where the rules allow it.
    """
    rules = facts.public.rules
    ace_low = rules.ace_low_allowed
    shown = 0
    for number, meld in enumerate(facts.public.melds):
        if meld.ace_low is not ace_low:
            return (
                f"meld {number} ({meld.cards}) has ace_low={meld.ace_low}, but the rules have "
                f"ace_low_allowed={ace_low} (A8)"
            )
        if meld.stand_ins and not rules.jokers_wild:
            return f"meld {number} ({meld}) has jokers standing for cards, but the rules have jokers_wild=False (A7)"
        twice = shown & meld.represents.mask & ~_tables.JOKER_MASK
        if twice:
            return f"meld {number} ({meld}) represents {CardSet(twice)}, which another meld represents already (A7)"
        shown |= meld.represents.mask
    return None


def phase_and_turn(facts: Facts) -> str | None:
    """
    R6, R13, R27: the phase agrees with the deal number, the finished deals and the seat to act.
    """
    public = facts.public
    phase, deal, finished = public.phase, public.deal, len(public.results)
    if deal > public.rules.max_deals:
        return f"deal {deal} is beyond the {public.rules.max_deals} deal(s) of the rules"
    if phase is Phase.DEAL:
        if deal != 0 or finished:
            return "phase deal comes only before the first deal (deal 0, no results)"
        if facts.stock is not None and facts.stock != FULL_DECK:
            return "before the first deal all 56 cards lie undealt in the stock, in FULL_DECK order"
    problem = _turn(public)
    if problem:
        return problem
    if is_deal_over(phase) and (deal < 1 or finished != deal):
        return f"deal {deal} is over, so {deal} deal(s) must be finished, got {finished}"
    if phase not in {Phase.PLAY, Phase.CALLED} and (public.obligation is not None or public.picked):
        return f"only in phase play can a taken card be pending or picked cards be recorded (phase {phase})"
    return None


def _turn(public: Public) -> str | None:
    """
    R6, R13: in a turn a seat is to act, the deals before it are finished and nobody went out
    of this one; out of turn nobody is to act.
    """
    phase, deal, finished = public.phase, public.deal, len(public.results)
    if not is_turn(phase):
        return None if public.to_act is None else f"nobody is to act in phase {phase}, got seat {public.to_act!r}"
    if not _seats.is_seat(public.to_act):
        return f"in phase {phase} a seat 0-3 must be to act, got {public.to_act!r}"
    if deal < 1 or finished != deal - 1:
        return f"deal {deal} is in progress, so {deal - 1} deal(s) must be finished, got {finished}"
    if public.went_out is not None:
        return "a deal in progress cannot have a player who went out (R19 ends the deal)"
    return None


def obligation(facts: Facts) -> str | None:
    """
    R15, A11: the cards taken from the discard pile this turn are in the hand of the seat to
    act or on the table, and the one that must be played is still in hand.
    """
    public = facts.public
    seat = public.to_act
    if public.phase is not Phase.PLAY or seat is None:
        return None
    if not facts.sizes[seat]:
        return f"seat {seat} is to play with no card in hand, but a player who melds their last card goes out (R19)"
    hand = facts.hand_or_known(seat)
    picked = public.picked.mask
    card = public.obligation
    if card is not None and not hand >> card.index & 1:
        return f"the card to play, {card}, must be in the hand of seat {seat} (R15)"
    if picked & ~(hand | _table_mask(public.melds)):
        return "picked cards must be in the hand of the seat to act or on the table"
    if picked & hand & ~facts.known[seat]:
        return (
            f"everyone saw seat {seat} take {CardSet(picked & hand & ~facts.known[seat])} from the discard pile "
            f"this turn, so those cards are among its known cards (R14)"
        )
    if card is not None and not picked >> card.index & 1:
        return "the card to play must be one of the cards taken from the discard pile this turn"
    immediate = public.rules.obligation_timing is ObligationTiming.IMMEDIATE
    if card is not None and immediate and picked & ~hand:
        return "with immediate obligation no other card can be played before the card taken (A11)"
    return None if card is None else _playable(facts, seat, card)


def _playable(facts: Facts, seat: int, card: Card) -> str | None:
    """
    R15, A12: the card taken from the pile can still be played, with the hand of *seat* (or
    with some hand the seat may hold, where the position hides part of it) and the table.
    """
    public = facts.public
    rules = public.rules
    hand = facts.hand_or_known(seat)
    hidden = facts.sizes[seat] - hand.bit_count()
    table = tuple(meld.represents.mask for meld in public.melds) if rules.obligation_by_layoff else ()
    others = unseen(facts) if hidden else 0
    if rules.jokers_wild:
        blocked = _cardlogic.blocked_cards(public.melds)
        ways = _cardlogic.wild_witnesses(card.index, hand, others, table, blocked, rules.ace_low_allowed)
    else:
        ways = _cardlogic.witnesses(card.index, hand, others, table, rules.ace_low_allowed)
    if ways is None or (hidden >= 1 and ways[0]) or (hidden >= 2 and ways[1]):
        return None
    whose = f"seat {seat}'s hand" if not hidden else f"any hand seat {seat} may hold"
    return (
        f"the card to play, {card}, can no longer be played: it makes no meld with {whose} "
        "and fits no meld on the table (R15, A12)"
    )


def unseen(facts: Facts) -> int:
    """
    The cards the position does not show anywhere, as a mask.
    """
    seen = 0
    for _, cards in facts.places:
        for card in cards:
            seen |= 1 << card.index
    return _tables.ALL_CARDS & ~seen


def calls(facts: Facts) -> str | None:
    """
    A24: a discard is answered by calls of "Rummy!" only under `Rules.rummy_calls`, when a meld on the
    table takes the card alone; the seat asked holds cards; the seat that called holds the card called
    on, in everyone's sight, and another card, and lays it off next.
    """
    public = facts.public
    phase, discarder = public.phase, public.discarder
    if phase not in {Phase.CALLS, Phase.CALLED}:
        return (
            None
            if discarder is None
            else f"only while a discard is answered is there a discarder (A24), not in {phase}"
        )
    rules, seat = public.rules, public.to_act
    if not rules.rummy_calls:
        return f"phase {phase} comes only under rummy_calls (A24)"
    if discarder is None or seat is None or seat == discarder:
        return f"in phase {phase} the discarder is a seat 0-3 other than the seat to act (A24)"
    if not facts.sizes[discarder] and rules.go_out_by_discard:
        return f"seat {discarder} discarded its last card, which goes out under go_out_by_discard (A15)"
    if not facts.stock_size and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY:
        return "with empty_stock_end='immediately' the discard that empties the stock ends the deal (A17)"
    return _asked(facts, seat) if phase is Phase.CALLS else _called(facts, seat)


def _called(facts: Facts, seat: int) -> str | None:
    """
    A24: the seat that called holds the card called on, in everyone's sight, and another card, and a
    meld on the table takes that card alone.
    """
    public = facts.public
    card = public.obligation
    if card is None or public.picked.mask != 1 << card.index:
        return "the seat that called Rummy! has the card called on to lay off, the one card it took (A24)"
    if not facts.known[seat] >> card.index & 1 or facts.sizes[seat] < 2:
        return f"seat {seat} holds {card}, called on in everyone's sight, and another card (A24)"
    if not _cardlogic.called_on(public.melds, card.index, public.rules.jokers_wild):
        return f"the card called on, {card}, fits no meld on the table alone (A24)"
    return None


def _asked(facts: Facts, seat: int) -> str | None:
    """
    A24: the seat asked whether it calls holds cards, and a meld on the table takes the top discard alone.
    """
    public = facts.public
    if not facts.sizes[seat]:
        return f"seat {seat} holds no card, so it is not asked whether it calls Rummy! (A24)"
    if not public.discard_pile or not _cardlogic.called_on(
        public.melds, public.discard_pile[-1].index, public.rules.jokers_wild
    ):
        return "a discard is called on only when a meld on the table takes it alone (A24)"
    return None


def _pass_limit(rules: Rules) -> int:
    return 4 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1


def passes(facts: Facts) -> str | None:
    """
    R21, A17: passes in a row only with an empty stock, between turns, and fewer than end the deal.
    """
    public = facts.public
    rules, phase = public.rules, public.phase
    if public.passes:
        if not counts_passes(phase):
            return f"passes are counted only between turns of an empty-stock deal, not in phase {phase}"
        if facts.stock_size:
            return "a player may pass only when the stock is empty (R21)"
        limit = _pass_limit(rules)
        if public.passes > limit or (phase is Phase.DRAW and public.passes >= limit):
            return f"{public.passes} passes in a row is more than the rules allow ({rules.empty_stock_end})"
    if phase is Phase.DRAW and not facts.stock_size and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY:
        return "with empty_stock_end='immediately' no turn starts with an empty stock"
    return None


def _passes_before_out(rules: Rules, end: DealEnd, passes: int) -> bool:
    """
    A16, A17: a player who melds out before passing ends the deal with the passes made before, fewer than end it.
    """
    return end is DealEnd.WENT_OUT and rules.pass_allows_melding and passes < _pass_limit(rules)


def end_of_deal(facts: Facts) -> str | None:
    """
    R19, R22, A17: the last deal's result says how it ended and is the score of the table.
    """
    public = facts.public
    if not is_deal_over(public.phase):
        return None
    rules, last = public.rules, public.results[-1]
    if public.went_out != last.went_out:
        return "went_out must match the last deal's result"
    if public.went_out is not None and facts.hand_or_known(public.went_out):
        return f"seat {public.went_out} went out, so its hand must be empty (R19)"
    if last.end is DealEnd.PASSES:
        limit = _pass_limit(rules)
        if facts.stock_size or public.passes != limit:
            return f"a deal ended by passes has an empty stock and {limit} pass(es) in a row (A17)"
    elif public.passes and not _passes_before_out(public.rules, last.end, public.passes):
        return (
            f"a deal that ended {last.end.value.replace('_', ' ')} has no passes in a row, "
            "but for those before a player melded out instead of passing (A16, A17)"
        )
    if last.end is DealEnd.STOCK_EMPTY and (facts.stock_size or rules.empty_stock_end is not EmptyStockEnd.IMMEDIATELY):
        return "only with empty_stock_end='immediately' does a deal end when the stock runs out (A17)"
    hands = [CardSet(facts.hand_or_known(seat)) for seat in _seats.SEATS]
    expected = score_deal(hands, public.melds, public.went_out, rules=rules, deal=public.deal, end=last.end)
    if last != expected:
        return f"the last deal's result {last} does not match the table, which scores {expected}"
    return _game_over(public)


def _game_over(public: Public) -> str | None:
    rules = public.rules
    totals = [sum(result.teams[team].total for result in public.results) for team in (0, 1)]
    last = rules.num_deals + (rules.max_deals > rules.num_deals and totals[0] == totals[1])
    if public.phase is Phase.GAME_OVER and public.deal < last:
        return f"the game lasts {last} deal(s); it cannot be over after {public.deal}"
    if public.phase is Phase.DEAL_OVER and public.deal >= last:
        return f"after deal {public.deal} the game is over, not between deals"
    return None


def results(facts: Facts) -> str | None:
    """
    R23-R25, R27, A17: the finished deals are numbered 1, 2, ... in order, and each one's score
    is one a deal can give (`result_problem` checks each one's form).
    """
    rules = facts.public.rules
    for number, result in enumerate(facts.public.results, start=1):
        if result.deal != number:
            return f"results must be deals 1, 2, ... in order; result {number} is for deal {result.deal}"
        problem = _deal_end(result, rules) or _team_scores(result, rules)
        if problem:
            return f"the result of deal {number} is not one a deal can give: {problem}"
    return None


def _deal_end(result: DealScore, rules: Rules) -> str | None:
    immediately = rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY
    if result.end is DealEnd.STOCK_EMPTY and not immediately:
        return "a deal ends when the stock runs out only with empty_stock_end='immediately' (A17)"
    if result.end is DealEnd.PASSES and immediately:
        return "with empty_stock_end='immediately' nobody passes, so no deal ends by passes (A17)"
    return None


def _team_scores(result: DealScore, rules: Rules) -> str | None:
    """
    R23-R25: each team's items lie within what the 56 cards are worth under the rules' card
    values (no team melds more in a deal, nor holds more in hand), and only the team of the
    seat that went out has the bonus; where a team gives its total alone, the total does.
    """
    deck = rules.card_values.deck_points
    out = None if result.went_out is None else result.went_out & 1
    bonuses = (rules.go_out_bonus if out == 0 else 0, rules.go_out_bonus if out == 1 else 0)
    for team, score in enumerate(result.teams):
        problem = _team_items(team, score, bonuses[team], deck)
        if problem:
            return problem
    return _both_teams(result.teams, bonuses, deck)


def _team_items(team: int, score: TeamScore, bonus: int, deck: int) -> str | None:
    """
    One team's score: its total within reach, or each item of its breakdown; the cards are worth *deck*.
    """
    if score.melded is None or score.doubling is None or score.in_hand is None:
        low, high = bonus - deck, bonus + 2 * deck
        if not low <= score.total <= high:
            return f"team {team}'s total {score.total} is not from {low} to {high}"
        return None
    if not 0 <= score.melded <= deck or not 0 <= score.in_hand <= deck:
        return f"team {team}'s melded and in-hand points are each from 0 to the deck's {deck} (R23)"
    if not 0 <= score.doubling <= score.melded:
        return f"team {team}'s doubling is from 0 to its melded points, {score.melded} (R25)"
    if score.bonus != bonus:
        return f"team {team}'s bonus must be {bonus}: the bonus goes to the team of the seat that went out"
    return None


def _both_teams(teams: tuple[TeamScore, TeamScore], bonuses: tuple[int, int], deck: int) -> str | None:
    """
    R23: the two teams together melded and kept no more than the deck is worth, *deck*.
    """
    first, second = teams
    if first.has_breakdown and second.has_breakdown:
        cards = sum(item or 0 for score in teams for item in (score.melded, score.in_hand))
        if cards > deck:
            return f"the cards melded and left in hand are worth {cards} points, more than the deck's {deck} (R23)"
    low, high = sum(bonuses) - deck, sum(bonuses) + 2 * deck
    if not low <= first.total + second.total <= high:
        return f"the two teams' totals add up to {first.total + second.total}, not from {low} to {high}"
    return None


def result_problem(result: DealScore) -> str | None:
    """
    What is wrong with the types of the fields of a deal's result, if anything.
    """
    teams: object = result.teams
    if type(teams) is not tuple or len(teams) != 2 or not all(type(team) is TeamScore for team in teams):
        return f"a deal's result has two TeamScore values, got {teams!r}"
    for team in result.teams:
        problem = _team_types(team)
        if problem:
            return problem
    deal: object = result.deal
    if type(deal) is not int:
        return f"a result's deal number must be an int, got {deal!r}"
    went_out: object = result.went_out
    end: object = result.end
    if not isinstance(end, DealEnd):
        return f"a result's end must be a DealEnd, got {end!r}"
    if (went_out is None) == (end is DealEnd.WENT_OUT) or (went_out is not None and not _seats.is_seat(went_out)):
        return f"a deal ends by going out exactly when a seat went out, got {went_out!r} and {end!r}"
    return None


def _team_types(team: TeamScore) -> str | None:
    """
    A team's score has four int items and their total, or an int total alone.
    """
    melded, doubling, bonus, in_hand = team.melded, team.doubling, team.bonus, team.in_hand
    total: object = team.total
    if type(total) is int:
        if melded is None and doubling is None and bonus is None and in_hand is None:
            return None
        if type(melded) is int and type(doubling) is int and type(bonus) is int and type(in_hand) is int:
            if melded + doubling + bonus - in_hand == total:
                return None
            return f"a team's total is melded + doubling + bonus - in_hand, got {team!r} with total {total!r}"
    return f"a team's score has four int items or none, and an int total, got {team!r}"


#: The checks of the game that states and views share, in the order they run.
GAME_CHECKS: Final[tuple[Check, ...]] = (
    melds_under_rules, results, phase_and_turn, obligation, passes, calls, end_of_deal
)  # fmt: skip


def first_problem(facts: Facts, checks: Sequence[Check]) -> str | None:
    """
    The first problem *checks* find in *facts*, if any.
    """
    for check in checks:
        problem = check(facts)
        if problem:
            return problem
    return None


# -- types ---------------------------------------------------------------------------------------------------------

_OK: Final = object()
# How to look at a field: the offending value (the field, or the first bad item of it), or _OK.
Look = Callable[[object], object]


def _one(good: Callable[[object], bool]) -> Look:
    return lambda value: _OK if good(value) else value


def _items(kind: type) -> Look:
    def look(value: object) -> object:
        if type(value) is not tuple:
            return value
        return next((item for item in value if type(item) is not kind), _OK)

    return look


def _four(good: Callable[[object], bool]) -> Look:
    return _one(lambda value: type(value) is tuple and len(value) == 4 and all(good(part) for part in value))


def _count(value: object, high: int | None = None) -> bool:
    return type(value) is int and value >= 0 and (high is None or value <= high)


def _seat_or_none(value: object) -> bool:
    return value is None or _seats.is_seat(value)


def _card_set(value: object) -> bool:
    return type(value) is CardSet


#: The types of the fields that states and views share: the name, how to look, what it must be.
_PUBLIC_TYPES: Final[tuple[tuple[str, Look, str], ...]] = (
    ("rules", _one(lambda value: isinstance(value, Rules)), "be a Rules"),
    ("phase", _one(lambda value: isinstance(value, Phase)), "be a Phase"),
    ("deal", _one(_count), "be a non-negative int"),
    ("dealer", _one(_seats.is_seat), "be a seat 0-3"),
    ("to_act", _one(_seat_or_none), "be a seat 0-3 or None"),
    ("discard_pile", _items(Card), "hold cards"),
    ("melds", _items(TableMeld), "be TableMeld values"),
    ("obligation", _one(lambda value: value is None or type(value) is Card), "be a card or None"),
    ("picked", _one(_card_set), "be a CardSet"),
    ("passes", _one(_count), "be a non-negative int"),
    ("went_out", _one(_seat_or_none), "be a seat 0-3 or None"),
    ("discarder", _one(_seat_or_none), "be a seat 0-3 or None"),
    ("results", _items(DealScore), "be DealScore values"),
)
_STATE_TYPES: Final[tuple[tuple[str, Look, str], ...]] = (
    *_PUBLIC_TYPES,
    ("hands", _four(_card_set), "be four card sets, one per seat"),
    ("stock", _items(Card), "hold cards"),
    ("stock_known", _one(lambda value: type(value) is bool), "be True or False"),
    ("known", _four(_card_set), "be four card sets, one per seat"),
)
_VIEW_TYPES: Final[tuple[tuple[str, Look, str], ...]] = (
    ("seat", _one(_seat_or_none), "be a seat 0-3 or None"),
    *_PUBLIC_TYPES,
    ("hand", _one(lambda value: value is None or _card_set(value)), "be a CardSet or None"),
    ("hand_sizes", _four(lambda size: _count(size, 56)), "be four numbers 0-56"),
    ("known", _four(_card_set), "be four CardSets, one per seat"),
    ("stock_size", _one(lambda size: _count(size, 56)), "be a number 0-56"),
    ("stock", lambda value: _OK if value is None else _items(Card)(value), "hold cards or be None"),
)


def _type_problem(value: object, fields: Sequence[tuple[str, Look, str]]) -> str | None:
    for name, look, what in fields:
        bad = look(getattr(value, name))
        if bad is not _OK:
            return f"{name} must {what}, got {bad!r}"
    for result in getattr(value, "results"):  # noqa: B009 (a state's or a view's)
        problem = result_problem(result)
        if problem:
            return problem
    return None


# -- states --------------------------------------------------------------------------------------------------------


def _stock_known(state: State) -> str | None:
    """
    A18: only a stock turned over from the discard pile is known to everyone.
    """
    if state.stock_known and not (
        state.rules.reshuffle_on_empty_stock and state.stock and state.phase is not Phase.DEAL
    ):
        return (
            "only a stock turned over from the discard pile is known to everyone, under reshuffle_on_empty_stock (A18)"
        )
    return None


def state_problem(state: State) -> str | None:
    """
    The first invariant *state* breaks, as a message; `None` when it breaks none.
    """
    problem = _type_problem(state, _STATE_TYPES) or _stock_known(state)
    if problem:
        return problem
    places: list[tuple[str, Iterable[Card]]] = [
        *((f"hand of seat {seat}", hand) for seat, hand in enumerate(state.hands)),
        ("stock", state.stock),
        ("discard pile", state.discard_pile),
        *((f"meld {i}", meld.cards) for i, meld in enumerate(state.melds)),
    ]
    facts = Facts(
        state,
        [hand.mask for hand in state.hands],
        [part.mask for part in state.known],
        [len(hand) for hand in state.hands],
        state.stock,
        len(state.stock),
        places,
    )
    return first_problem(facts, (conservation, *GAME_CHECKS))


# -- views ---------------------------------------------------------------------------------------------------------

#: The message for a view that no game gives although each of its parts could be right.
HIDDEN_OR_SHOWN: Final = "it shows what its seat cannot see, or hides what it can"


def _own_hand(view: ViewShape) -> str | None:
    """
    The seat's own hand: shown exactly in a seat's view, with its known cards in it.
    """
    seat, hand = view.seat, view.hand
    if (seat is None) != (hand is None):
        return "a seat's view shows its hand, and only the public view shows none"
    if seat is not None and hand is not None:
        if not view.known[seat] <= hand:
            return f"seat {seat}'s known cards {view.known[seat] - hand} are not in its hand"
        if len(hand) != view.hand_sizes[seat]:
            return f"seat {seat} holds {len(hand)} cards, but its hand size is {view.hand_sizes[seat]}"
    for other in _seats.SEATS:
        if other != seat and len(view.known[other]) > view.hand_sizes[other]:
            return (
                f"seat {other} is known to hold {len(view.known[other])} cards, more than its {view.hand_sizes[other]}"
            )
    if view.stock is not None and len(view.stock) != view.stock_size:
        return f"the stock holds {view.stock_size} cards, but {len(view.stock)} are shown"
    return None


def _what_is_shown(view: ViewShape) -> str | None:
    """
    A view shows what its seat sees, no more and no less: nothing before the first deal, every
    hand once the deal is over, the stock only when it was turned over from the pile (A18).
    """
    over = is_deal_over(view.phase)
    if view.phase is Phase.DEAL and (any(view.hand_sizes) or view.stock_size != 56):
        return HIDDEN_OR_SHOWN
    if over and any(len(part) != size for part, size in zip(view.known, view.hand_sizes, strict=True)):
        return HIDDEN_OR_SHOWN
    if view.stock is not None and not (view.rules.reshuffle_on_empty_stock and view.stock):
        return HIDDEN_OR_SHOWN
    return None


def view_facts(view: ViewShape) -> Facts:
    """
    What *view* shows, for the checks.
    """
    over = is_deal_over(view.phase)
    hands: list[int | None] = [part.mask if over else None for part in view.known]
    if view.seat is not None and view.hand is not None:
        hands[view.seat] = view.hand.mask
    places: list[tuple[str, Iterable[Card]]] = [
        ("hand", view.hand or ()),
        *((f"known cards of seat {seat}", part) for seat, part in enumerate(view.known) if seat != view.seat),
        ("stock", view.stock or ()),
        ("discard pile", view.discard_pile),
        *((f"meld {i}", meld.cards) for i, meld in enumerate(view.melds)),
    ]
    known = [part.mask for part in view.known]
    return Facts(view, hands, known, view.hand_sizes, view.stock, view.stock_size, places)


def view_problem(view: ViewShape) -> str | None:
    """
    The first reason why no game gives *view*, as a message; `None` when some game does.

    The checks of the game itself come last, their messages after "no game gives this view".
    """
    problem = _type_problem(view, _VIEW_TYPES) or _own_hand(view)
    if problem:
        return problem
    facts = view_facts(view)
    problem = conservation(facts) or _what_is_shown(view)
    if problem:
        return problem if problem != HIDDEN_OR_SHOWN else f"no game gives this view: {problem}"
    problem = first_problem(facts, GAME_CHECKS)
    return None if problem is None else f"no game gives this view: {problem}"
