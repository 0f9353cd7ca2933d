"""
`GameState`: everything needed to continue a game, as one immutable value.

States are made by `new_game` and by `persian_rummy.apply`; they are never
changed.  Two states are equal when every field is equal, and states are
hashable, so they can be dictionary keys (transposition tables) or set members.

Building a `GameState` by hand validates it completely (`check_invariants`):
all 56 cards exactly once, every meld valid, the phase consistent with the
other fields.  A state that breaks an invariant cannot be built.

>>> state = new_game()
>>> state.phase, state.deal, state.dealer, len(state.stock)
(<Phase.DEAL: 'deal'>, 0, 0, 56)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from attrs import field, frozen

from .cards import FULL_DECK, Card
from .cardsets import EMPTY, CardSet
from .exceptions import PersianRummyError
from .melds import MeldKind, TableMeld
from .rules import EmptyStockEnd, ObligationTiming, Rules, TieBreak
from .scoring import DealEnd, DealScore, TeamScore, score_deal

__all__ = ["GameState", "InvalidStateError", "Phase", "check_invariants", "new_game"]


def __dir__() -> list[str]:
    return __all__


class InvalidStateError(PersianRummyError, ValueError):
    """
    Raised when a game state would break an invariant; the message names the first problem found.
    """


class Phase(enum.StrEnum):
    """
    Where the game is.

    In `DEAL` and `DEAL_OVER` the next action is the chance action `persian_rummy.Deal`
    (`GameState.to_act` is `None`); in `DRAW` and `PLAY` it is the turn of
    `GameState.to_act`; `GAME_OVER` is final.
    """

    #: Before the first deal; the cards are all in the stock, undealt.
    DEAL = "deal"
    #: The seat to act must draw from the stock or take from the discard pile, or pass (R14, R21).
    DRAW = "draw"
    #: The seat to act has drawn: it lays down, lays off, and discards (R16-R18).
    PLAY = "play"
    #: A deal has ended and another one follows; the table is left as it ended.
    DEAL_OVER = "deal_over"
    #: The game has ended (R27); the table is left as the last deal ended.
    GAME_OVER = "game_over"


ALL_CARDS: Final = (1 << 56) - 1
_NO_HANDS: Final = (EMPTY, EMPTY, EMPTY, EMPTY)


def _card_tuple(value: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(Card.parse(token) for token in value.split())
    return tuple(value)


def _card_set(value: Iterable[Card] | CardSet | str) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    return CardSet(value)


def _four_sets(value: Iterable[Iterable[Card] | CardSet | str]) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts = tuple(_card_set(part) for part in value)
    if len(parts) != 4:
        msg = f"expected four card sets, one per seat, got {len(parts)}"
        raise InvalidStateError(msg)
    return parts


def _melds(value: Iterable[TableMeld]) -> tuple[TableMeld, ...]:
    return tuple(value)


def _results(value: Iterable[DealScore]) -> tuple[DealScore, ...]:
    return tuple(value)


def _optional_card(value: Card | str | None) -> Card | None:
    return Card.parse(value) if isinstance(value, str) else value


@frozen(kw_only=True, cache_hash=True, weakref_slot=False, repr=False)
class GameState:
    """
    A complete game position.

    Seats are numbered 0-3 clockwise; seats 0 and 2 are partners (team 0)
    against seats 1 and 3 (team 1) (R1).

    Attributes:
        rules: The rules of the game.
        phase: Where the game is.
        deal: The number of the current deal, from 1; 0 before the first deal.
        dealer: The dealer of the current (or last) deal.
        to_act: The seat whose turn it is, `None` at a chance node or at the end.
        hands: The four hands, by seat.
        stock: The face-down draw pile, the next card to draw first.  Before the
            first deal it holds all 56 cards in `FULL_DECK` order.
        discard_pile: The face-up discard pile, bottom card first, top card last (R18).
        melds: The melds on the table, in the order they were laid down.
        obligation: The card taken from the discard pile that must still be played (R15).
        picked: The cards taken from the discard pile in the current turn.
        revealed: By seat, the cards everyone saw the seat take from the discard
            pile that are still in its hand.
        passes: Passes in a row with an empty stock (R21, A17).
        went_out: The seat that went out in the current deal, if any (R19).
        results: The scores of the finished deals.
    """

    rules: Rules = field(factory=Rules)
    phase: Phase = field(converter=Phase)
    deal: int = 0
    dealer: int = 0
    to_act: int | None = None
    hands: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=_NO_HANDS, converter=_four_sets)
    stock: tuple[Card, ...] = field(default=(), converter=_card_tuple)
    discard_pile: tuple[Card, ...] = field(default=(), converter=_card_tuple)
    melds: tuple[TableMeld, ...] = field(default=(), converter=_melds)
    obligation: Card | None = field(default=None, converter=_optional_card)
    picked: CardSet = field(default=EMPTY, converter=_card_set)
    revealed: tuple[CardSet, CardSet, CardSet, CardSet] = field(default=_NO_HANDS, converter=_four_sets)
    passes: int = 0
    went_out: int | None = None
    results: tuple[DealScore, ...] = field(default=(), converter=_results)
    # What the engine derives from the melds for its hot path (see summarize_table).
    _table: tuple[int, int, tuple[int, ...]] = field(init=False, default=(0, 0, ()), eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _validate(self)
        object.__setattr__(self, "_table", summarize_table(self.melds))

    @property
    def scores(self) -> tuple[int, int]:
        """
        Each team's total over the finished deals.
        """
        return (sum(r.teams[0].total for r in self.results), sum(r.teams[1].total for r in self.results))

    @property
    def is_chance_node(self) -> bool:
        """
        Whether the next action is a `persian_rummy.Deal`.
        """
        return self.phase is Phase.DEAL or self.phase is Phase.DEAL_OVER

    def __repr__(self) -> str:
        from .notation import format_position  # noqa: PLC0415 (notation builds on this module)

        return f"parse_position({format_position(self)!r})"

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: object) -> GameState:
        return self


class _Builder:
    """
    A mutable twin of `GameState` with the same memory layout.

    The engine fills one in and turns it into a `GameState` by assigning its
    class: about twice as fast as setting sixteen frozen slots one by one.
    """

    __slots__ = GameState.__slots__  # type: ignore[attr-defined]


_new = object.__new__


def make_state(  # noqa: PLR0913
    rules: Rules,
    phase: Phase,
    deal: int,
    dealer: int,
    to_act: int | None,
    hands: tuple[CardSet, CardSet, CardSet, CardSet],
    stock: tuple[Card, ...],
    discard_pile: tuple[Card, ...],
    melds: tuple[TableMeld, ...],
    obligation: Card | None,
    picked: CardSet,
    revealed: tuple[CardSet, CardSet, CardSet, CardSet],
    passes: int,
    went_out: int | None,
    results: tuple[DealScore, ...],
    table: tuple[int, int, tuple[int, ...]],
) -> GameState:
    """
    Build a state from fields known to be consistent, skipping validation (the engine's fast path).

    *table* is `summarize_table` of *melds*, passed on unchanged when the melds are.
    """
    state = _new(_Builder)
    state.rules = rules  # type: ignore[attr-defined]
    state.phase = phase  # type: ignore[attr-defined]
    state.deal = deal  # type: ignore[attr-defined]
    state.dealer = dealer  # type: ignore[attr-defined]
    state.to_act = to_act  # type: ignore[attr-defined]
    state.hands = hands  # type: ignore[attr-defined]
    state.stock = stock  # type: ignore[attr-defined]
    state.discard_pile = discard_pile  # type: ignore[attr-defined]
    state.melds = melds  # type: ignore[attr-defined]
    state.obligation = obligation  # type: ignore[attr-defined]
    state.picked = picked  # type: ignore[attr-defined]
    state.revealed = revealed  # type: ignore[attr-defined]
    state.passes = passes  # type: ignore[attr-defined]
    state.went_out = went_out  # type: ignore[attr-defined]
    state.results = results  # type: ignore[attr-defined]
    state._table = table  # type: ignore[attr-defined]  # noqa: SLF001
    state._attrs_cached_hash = None  # type: ignore[attr-defined]  # noqa: SLF001
    state.__class__ = GameState  # type: ignore[assignment]
    return state  # type: ignore[return-value]


def summarize_table(melds: tuple[TableMeld, ...]) -> tuple[int, int, tuple[int, ...]]:
    """
    What the engine's hot path needs to know about the melds on the table, as bit masks.

    ``direct``: the cards that go onto some meld by themselves; ``far``: the cards of a
    run's suit beyond those, which may reach the run over cards in hand; ``runs``: the
    runs' cards.  The engine updates it as melds are laid down and extended; its masks
    may then also hold cards already on the table, which never come back into play.
    """
    direct = far = 0
    for meld in melds:
        direct |= meld.ends
        far |= meld.reach
    return (direct, far, tuple(meld.cards.mask for meld in melds if meld.kind is MeldKind.RUN))


def new_game(rules: Rules | None = None, *, dealer: int = 0) -> GameState:
    """
    The start of a game: nothing dealt yet, *dealer* to deal first.

    Find the first dealer and the partnerships with `persian_rummy.team_draw`
    (R4, R5); then apply a `persian_rummy.Deal`.

    Raises:
        ValueError: *dealer* is not a seat 0-3.
    """
    if rules is None:
        rules = Rules()
    if type(dealer) is not int or not 0 <= dealer <= 3:
        msg = f"dealer must be a seat 0-3, got {dealer!r}"
        raise ValueError(msg)
    return make_state(
        rules,
        Phase.DEAL,
        0,
        dealer,
        None,
        _NO_HANDS,
        FULL_DECK,
        (),
        (),
        None,
        EMPTY,
        _NO_HANDS,
        0,
        None,
        (),
        (0, 0, ()),
    )


def check_invariants(state: object) -> None:
    """
    Check every invariant of *state*; raise `InvalidStateError` naming the first one broken.

    The invariants: the fields have the right types; all 56 cards are present
    exactly once (hands, stock, discard pile, melds); every meld is valid; the
    phase agrees with the seat to act, the obligation, the passes and the
    number of finished deals; revealed and picked cards are where they must be.
    """
    if not isinstance(state, GameState):
        msg = f"not a GameState: {state!r}"
        raise InvalidStateError(msg)
    _validate(state)


def _fail(message: str) -> None:
    raise InvalidStateError(message)


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value <= 3


def _validate(state: GameState) -> None:  # noqa: C901, PLR0912, PLR0915
    _check_types(state)
    rules = state.rules
    phase = state.phase
    # Conservation: every card exactly once.
    seen = 0
    places: list[tuple[str, Iterable[Card]]] = [
        *((f"hand of seat {seat}", hand) for seat, hand in enumerate(state.hands)),
        ("stock", state.stock),
        ("discard pile", state.discard_pile),
        *((f"meld {i}", meld.cards) for i, meld in enumerate(state.melds)),
    ]
    for place, cards in places:
        for card in cards:
            bit = 1 << card.index
            if seen & bit:
                _fail(f"card {card} appears more than once (found again in the {place})")
            seen |= bit
    if seen != ALL_CARDS:
        missing = CardSet(ALL_CARDS & ~seen)
        _fail(f"cards missing: {missing} (all 56 cards must be present exactly once)")
    for seat in range(4):
        if not state.revealed[seat] <= state.hands[seat]:
            _fail(f"revealed cards of seat {seat} ({state.revealed[seat] - state.hands[seat]}) are not in its hand")
    finished = len(state.results)
    for number, result in enumerate(state.results, start=1):
        if result.deal != number:
            _fail(f"results must be deals 1, 2, ... in order; result {number} is for deal {result.deal}")
    max_deals = rules.num_deals + (rules.tie_break is TieBreak.EXTRA_DEAL)
    if state.deal > max_deals:
        _fail(f"deal {state.deal} is beyond the {max_deals} deal(s) of the rules")
    if phase is Phase.DEAL:
        if state.deal != 0 or finished:
            _fail("phase deal comes only before the first deal (deal 0, no results)")
        if state.stock != FULL_DECK:
            _fail("before the first deal all 56 cards lie undealt in the stock, in FULL_DECK order")
    in_turn = phase is Phase.DRAW or phase is Phase.PLAY
    if in_turn:
        if not _is_seat(state.to_act):
            _fail(f"in phase {phase} a seat 0-3 must be to act, got {state.to_act!r}")
        if state.deal < 1 or finished != state.deal - 1:
            _fail(f"deal {state.deal} is in progress, so {state.deal - 1} deal(s) must be finished, got {finished}")
        if state.went_out is not None:
            _fail("a deal in progress cannot have a player who went out (R19 ends the deal)")
    elif state.to_act is not None:
        _fail(f"nobody is to act in phase {phase}, got seat {state.to_act!r}")
    if phase is Phase.DEAL_OVER or phase is Phase.GAME_OVER:
        if state.deal < 1 or finished != state.deal:
            _fail(f"deal {state.deal} is over, so {state.deal} deal(s) must be finished, got {finished}")
        _check_end(state)
    if phase is not Phase.PLAY and (state.obligation is not None or state.picked):
        _fail(f"only in phase play can a taken card be pending or picked cards be recorded (phase {phase})")
    if phase is Phase.PLAY and state.to_act is not None:
        hand = state.hands[state.to_act]
        on_table = CardSet(0)
        for meld in state.melds:
            on_table |= meld.cards
        if state.obligation is not None and state.obligation not in hand:
            _fail(f"the card to play, {state.obligation}, must be in the hand of seat {state.to_act} (R15)")
        if not state.picked <= hand | on_table:
            _fail("picked cards must be in the hand of the seat to act or on the table")
        if state.obligation is not None and state.obligation not in state.picked:
            _fail("the card to play must be one of the cards taken from the discard pile this turn")
    if state.passes:
        if phase is not Phase.DRAW and phase is not Phase.DEAL_OVER and phase is not Phase.GAME_OVER:
            _fail(f"passes are counted only between turns of an empty-stock deal, not in phase {phase}")
        if state.stock:
            _fail("a player may pass only when the stock is empty (R21)")
        limit = 4 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1
        if state.passes > limit or (in_turn and state.passes >= limit):
            _fail(f"{state.passes} passes in a row is more than the rules allow ({rules.empty_stock_end})")
    if in_turn and not state.stock and rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY and phase is Phase.DRAW:
        _fail("with empty_stock_end='immediately' no turn starts with an empty stock")
    if (
        phase is Phase.PLAY
        and state.obligation is not None
        and rules.obligation_timing is ObligationTiming.IMMEDIATE
        and state.picked - state.hands[state.to_act or 0]
    ):
        _fail("with immediate obligation no other card can be played before the card taken (A11)")


def _check_types(state: GameState) -> None:  # noqa: C901
    rules: object = state.rules
    if not isinstance(rules, Rules):
        _fail(f"rules must be a Rules, got {rules!r}")
    for name in ("deal", "passes"):
        value = getattr(state, name)
        if type(value) is not int or value < 0:
            _fail(f"{name} must be a non-negative int, got {value!r}")
    if not _is_seat(state.dealer):
        _fail(f"dealer must be a seat 0-3, got {state.dealer!r}")
    if state.went_out is not None and not _is_seat(state.went_out):
        _fail(f"went_out must be a seat 0-3 or None, got {state.went_out!r}")
    for name in ("stock", "discard_pile"):
        for card in getattr(state, name):
            if type(card) is not Card:
                _fail(f"{name} must hold cards, got {card!r}")
    for meld in state.melds:
        if type(meld) is not TableMeld:
            _fail(f"melds must be TableMeld values, got {meld!r}")
    if state.obligation is not None and type(state.obligation) is not Card:
        _fail(f"obligation must be a card or None, got {state.obligation!r}")
    for result in state.results:
        _check_result(result)


def _check_result(result: object) -> None:
    if type(result) is not DealScore:
        _fail(f"results must be DealScore values, got {result!r}")
    teams: object = result.teams  # type: ignore[attr-defined]
    if type(teams) is not tuple or len(teams) != 2 or not all(type(team) is TeamScore for team in teams):
        _fail(f"a deal's result has two TeamScore values, got {teams!r}")
    for team in teams:  # type: ignore[attr-defined]
        for name in ("melded", "doubling", "bonus", "in_hand"):
            value = getattr(team, name)
            if type(value) is not int:
                _fail(f"{name} must be an int, got {value!r}")
    deal: object = result.deal  # type: ignore[attr-defined]
    if type(deal) is not int:
        _fail(f"a result's deal number must be an int, got {deal!r}")
    went_out: object = result.went_out  # type: ignore[attr-defined]
    end: object = result.end  # type: ignore[attr-defined]
    if not isinstance(end, DealEnd):
        _fail(f"a result's end must be a DealEnd, got {end!r}")
    if (went_out is None) == (end is DealEnd.WENT_OUT) or (went_out is not None and not _is_seat(went_out)):
        _fail(f"a deal ends by going out exactly when a seat went out, got {went_out!r} and {end!r}")


def _check_end(state: GameState) -> None:
    rules = state.rules
    last_result = state.results[-1]
    if state.went_out != last_result.went_out:
        _fail("went_out must match the last deal's result")
    if state.went_out is not None and state.hands[state.went_out]:
        _fail(f"seat {state.went_out} went out, so its hand must be empty (R19)")
    if last_result.end is DealEnd.PASSES:
        limit = 4 if rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1
        if state.stock or state.passes != limit:
            _fail(f"a deal ended by passes has an empty stock and {limit} pass(es) in a row (A17)")
    elif state.passes:
        _fail(f"a deal that ended {last_result.end.value.replace('_', ' ')} has no passes in a row")
    if last_result.end is DealEnd.STOCK_EMPTY and (
        state.stock or rules.empty_stock_end is not EmptyStockEnd.IMMEDIATELY
    ):
        _fail("only with empty_stock_end='immediately' does a deal end when the stock runs out (A17)")
    expected = score_deal(state.hands, state.melds, state.went_out, rules=rules, deal=state.deal, end=last_result.end)
    if last_result != expected:
        _fail(f"the last deal's result {last_result} does not match the table, which scores {expected}")
    totals = state.scores
    last = rules.num_deals + (rules.tie_break is TieBreak.EXTRA_DEAL and totals[0] == totals[1])
    if state.phase is Phase.GAME_OVER and state.deal < last:
        _fail(f"the game lasts {last} deal(s); it cannot be over after {state.deal}")
    if state.phase is Phase.DEAL_OVER and state.deal >= last:
        _fail(f"after deal {state.deal} the game is over, not between deals")
