"""
Hidden information: what `observe` shows each seat, and the states `determinize` and `arrangements` rebuild.

The properties run over states reached by random play under every rule switch (and, for
leak-freedom, a few hand-made positions), for the four seats and for the public view
(``seat=None``).  What a seat cannot see is worked out here from the state itself,
independently of `View`: the other hands except the cards everyone saw them take from the
discard pile (every hand is shown once a deal is over), and the whole stock.

The classes, by topic:

* what each seat sees, and the public view;
* leak-freedom: moving hidden cards leaves a view equal, with the same hash and JSON; every
  visible change changes the view, in exactly the fields that show it; no hidden card ever
  appears in a view's JSON text;
* `determinize` gives valid states that the seat cannot tell from the real one;
* `legal_actions` of a view;
* `arrangements` and `count_arrangements` on small endgames;
* `determinize` deals uniformly (a chi-square test);
* `check_view` refuses inconsistent views, naming the problem;
* the JSON form of views.
"""

from __future__ import annotations

import json
import math
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from statistics import NormalDist
from typing import Any

import attrs
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    ChanceNodeError,
    GameState,
    InvalidDataError,
    InvalidStateError,
    InvalidTypeError,
    InvalidValueError,
    PersianRummyError,
    Phase,
    Rules,
    View,
    ViewError,
    apply,
    check_invariants,
    check_view,
    determinize,
    from_data,
    from_json,
    json_schema,
    legal_actions,
    new_game,
    observe,
    random_deal,
    score_deal,
    to_data,
    to_json,
)
from persian_rummy.rules import EmptyStockEnd
from persian_rummy.scoring import DealEnd
from persian_rummy.views import arrangements, count_arrangements
from tests.positions import meld, position
from tests.strategies import played_states, rules_variants, seeds

#: The four seats and the public view.
SEATS: tuple[int | None, ...] = (None, 0, 1, 2, 3)
VIEW_FIELDS = tuple(field.name for field in attrs.fields(View) if not field.name.startswith("_"))
NO_CARDS = CardSet()
VALIDATOR = Draft202012Validator(json_schema())


def is_over(state: GameState) -> bool:
    """
    Whether the deal is over (between deals or at the end), when every hand is shown.
    """
    return state.phase is Phase.DEAL_OVER or state.phase is Phase.GAME_OVER


def in_turn(state: GameState) -> bool:
    return state.phase is Phase.DRAW or state.phase is Phase.PLAY


def hidden_parts(state: GameState, seat: int | None) -> tuple[list[CardSet], tuple[Card, ...]]:
    """
    What *seat* cannot see: by seat, the cards of each other hand that are not known (none
    once the deal is over), and the stock, unless everyone knows it (turned over from the pile, A18).
    """
    parts = []
    for other in range(4):
        if other == seat or is_over(state):
            parts.append(NO_CARDS)
        else:
            parts.append(state.hands[other] - state.known[other])
    return parts, () if state.stock_known else state.stock


def hidden_cards(state: GameState, seat: int | None) -> list[Card]:
    """
    The cards *seat* cannot see, the hands' parts seat by seat, then the stock from the top.
    """
    parts, stock = hidden_parts(state, seat)
    return [*(card for part in parts for card in part), *stock]


def redeal(state: GameState, seat: int | None, order: Sequence[Card]) -> GameState:
    """
    *state* with the cards *seat* cannot see put back in *order*: into the other hands'
    hidden parts seat by seat, then the stock.  Every hand keeps its size and its known cards.
    """
    parts, _ = hidden_parts(state, seat)
    rest = list(order)
    hands = []
    for other in range(4):
        size = len(parts[other])
        hands.append((state.hands[other] - parts[other]) | CardSet(rest[:size]))
        rest = rest[size:]
    return attrs.evolve(state, hands=hands, stock=state.stock if state.stock_known else rest)


def _redeal_problem(state: GameState, seat: int | None, order: Sequence[Card]) -> str | None:
    """
    Why `redeal` refuses to deal *order*, or `None` when it deals it.
    """
    try:
        redeal(state, seat, order)
    except InvalidStateError as error:
        return str(error)
    return None


def count_by_hand(state: GameState, seat: int | None) -> int:
    """
    The number of full states *seat* cannot tell from *state*: ``u! / (k1! k2! k3!)``, with the
    hidden hand parts as sets and the stock as a sequence.  Before the first deal the stock lies
    in `FULL_DECK` order, so there is one.
    """
    if state.phase is Phase.DEAL:
        return 1
    parts, stock = hidden_parts(state, seat)
    total = math.factorial(sum(len(part) for part in parts) + len(stock))
    for part in parts:
        total //= math.factorial(len(part))
    return total


def differing(first: View, second: View) -> set[str]:
    """
    The names of the fields in which two views differ.
    """
    return {name for name in VIEW_FIELDS if getattr(first, name) != getattr(second, name)}


def assert_conserved(state: GameState) -> None:
    """
    All 56 cards are present exactly once, counted here rather than by `check_invariants`.
    """
    found = [*(card for hand in state.hands for card in hand), *state.stock, *state.discard_pile]
    found.extend(card for table_meld in state.melds for card in table_meld.cards)
    assert dict.fromkeys(FULL_DECK, 1) == dict(Counter(found))


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible samples, not cryptography)


def play(seed: int, actions: int) -> GameState:
    """
    The state after the first deal and *actions* random actions, all chosen by ``random.Random(seed)``.
    """
    rng = seeded(seed)
    state = apply(new_game(), random_deal(new_game(), rng))
    for _ in range(actions):
        state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
    return state


#: Deal 1, seat 1 to act in the play phase after 60 random actions (the game of the bots guide).
MIDGAME = play(8, 60)

#: Seat 0 to draw from a stock of one card; seat 3 holds only the 7h it took from the pile.
#: Seat 0 cannot see 5c 9d (seat 1), Qs Jd (seat 2) and the stock's 2d.
ENDGAME = position(
    hands=("Ah Kh", "5c 9d", "Qs Jd", "7h"),
    known=("", "", "", "7h"),
    stock="2d",
    melds=(meld(1, "Tc Jc Qc"), meld(2, "8s 8h 8d"), meld(3, "4h 5h 6h", s0="3h")),
    rest_to="pile",
    to_act=0,
)


#: Seat 2 to act with an empty stock after two passes in a row (all four must pass to end the deal).
PASSING = position(
    hands=("Ah Kh 4c", "5c 9d", "Qs Jd", "7h 7c"),
    known=("", "", "", "7h"),
    melds=(meld(1, "Tc Jc Qc"),),
    rest_to="pile",
    to_act=2,
    passes=2,
)


def deal_over() -> GameState:
    """
    Deal 1 of 2 over: seat 0 went out; three cards are left in the stock.
    """
    hands = ("", "5c", "Qs", "7h")
    melds = (meld(0, "Tc Jc Qc"), meld(2, "8s 8h 8d"))
    result = score_deal([CardSet.parse(hand) for hand in hands], melds, 0, deal=1, end=DealEnd.WENT_OUT)
    return position(
        hands=hands,
        stock="2d 3d 4d",
        melds=melds,
        rest_to="pile",
        phase=Phase.DEAL_OVER,
        to_act=None,
        dealer=0,
        went_out=0,
        results=(result,),
    )


DEAL_OVER = deal_over()

#: Reachable states and the hand-made ones, so that every kind of change below has a state to work on.
STATES = st.one_of(st.sampled_from((MIDGAME, ENDGAME, PASSING, DEAL_OVER)), played_states(rules=rules_variants()))


class TestWhatEachSeatSees:
    """
    R18: "The pile is kept fanned/ordered so every card is visible and its position known"; R14: a
    discard-pile draw takes the card "together with every card above it", in everyone's sight; R7:
    the rest of the deck "forms the face-down draw pile (stock)".  A seat sees its own hand, every
    hand's size, the cards each seat was seen to take from the discard pile and still holds, the
    discard pile, the table, the stock's size and everything else that is public.  The public view
    is what a spectator sees: no hand.  When a deal is over the hands are laid down to count the
    score (R24), so every hand is shown.
    """

    def test_a_seat_sees_its_hand_and_what_is_public(self) -> None:
        """
        Seat 0's view of the middle of a deal, field by field.
        """
        view = observe(MIDGAME, 0)

        assert 0 == view.seat
        assert (Phase.PLAY, 1, 0, 1) == (view.phase, view.deal, view.dealer, view.to_act)
        assert CardSet.parse("3c 6c Qc Kc 8d Ts Ks As X2") == view.hand
        assert (9, 2, 5, 3) == view.hand_sizes
        assert (
            CardSet.parse("3c 6c Qc Ks"),
            CardSet.parse("7h"),
            CardSet.parse("8c 7s X4"),
            CardSet.parse("Qs"),
        ) == view.known
        assert 9 == view.stock_size
        assert (Card.parse("X3"), Card.parse("Th"), Card.parse("Ad")) == view.discard_pile
        assert MIDGAME.melds == view.melds
        assert MIDGAME.rules == view.rules
        assert (None, NO_CARDS, 0, None, ()) == (view.obligation, view.picked, view.passes, view.went_out, view.results)

    def test_unseen_cards(self) -> None:
        """
        Seat 0 cannot see 3h (seat 1), 9c Td (seat 2), 5c 8h (seat 3) and the nine cards of the stock.
        """
        expected = CardSet.parse("3h 9c Td 5c 8h") | CardSet(MIDGAME.stock)

        assert expected == observe(MIDGAME, 0).unseen
        assert 14 == len(expected)

    def test_the_public_view_shows_no_hand(self) -> None:
        """
        The public view differs from a seat's only in its seat and its hand, which it does not show.
        """
        public = observe(MIDGAME)

        assert (None, None) == (public.seat, public.hand)
        assert {"seat", "hand"} == differing(public, observe(MIDGAME, 2))
        assert observe(MIDGAME, None) == public

    def test_every_hand_is_shown_when_the_deal_is_over(self) -> None:
        """
        At the end of a deal the players lay their hands down to count the score: `known` is
        every hand.  The stock stays face down.
        """
        view = observe(DEAL_OVER, 1)

        assert DEAL_OVER.hands == view.known
        assert CardSet.parse("5c") == view.hand
        assert CardSet.parse("2d 3d 4d") == view.unseen
        assert observe(DEAL_OVER).known == view.known

    def test_passes_are_public(self) -> None:
        assert (2, 0, 2) == (observe(PASSING, 0).passes, observe(PASSING, 0).stock_size, observe(PASSING).passes)

    def test_before_the_first_deal(self) -> None:
        """
        Before the first deal every card lies in the stock, and no seat holds any.
        """
        view = observe(new_game(), 3)

        assert (NO_CARDS, (0, 0, 0, 0), 56) == (view.hand, view.hand_sizes, view.stock_size)
        assert CardSet(FULL_DECK) == view.unseen

    @pytest.mark.parametrize(
        ("seat", "error"),
        [
            (-1, InvalidValueError),
            (4, InvalidValueError),
            (True, InvalidTypeError),
            (1.0, InvalidTypeError),
            ("1", InvalidTypeError),
        ],
    )
    def test_seat_must_be_0_to_3_or_none(self, seat: Any, error: type[Exception]) -> None:
        with pytest.raises(error) as caught:
            observe(MIDGAME, seat)
        assert f"seat must be a seat 0-3, got {seat!r}" == str(caught.value)

    def test_the_state_must_be_a_state(self) -> None:
        with pytest.raises(InvalidTypeError, match="state must be a GameState, got None"):
            observe(None, 0)  # type: ignore[arg-type]

    def test_views_are_hashable_values(self) -> None:
        """
        Equal views hash alike, so views can key dictionaries (an information-set tree).
        """
        first, second = observe(MIDGAME, 1), observe(play(8, 60), 1)

        assert first is not second
        assert first == second
        assert hash(first) == hash(second)
        assert 1 == len({first: 0, second: 0})

    @given(played_states(rules=rules_variants()))
    def test_observe_builds_the_view_the_checked_constructor_builds(self, state: GameState) -> None:
        """
        `observe` fills a view slot by slot, without the constructor's checks: every slot is
        filled, and the view equals, hashes like and pickles like the one the constructor
        builds from the same fields, and shares the state's summary of the table.
        """
        for seat in (*SEATS, None):
            view = observe(state, seat)
            assert type(view) is View
            assert [] == [name for name in View.__slots__ if not hasattr(view, name)]  # type: ignore[attr-defined]
            built = View(**{name: getattr(view, name) for name in VIEW_FIELDS})
            assert (built, hash(built)) == (view, hash(view))
            assert view._table is state._table  # the engine's summary of the table, shared
            assert pickle.loads(pickle.dumps(view)) == view  # noqa: S301 (its own bytes)

    @given(played_states(rules=rules_variants()))
    def test_views_of_reachable_states(self, state: GameState) -> None:
        """
        For every seat and the public view: the hand is the seat's own, the sizes are the hands'
        sizes, `known` is the state's `known` (every hand once the deal is over), `stock` is the state's
        when everyone knows it (`stock_known`), `unseen` is exactly what the seat cannot see, and the
        views of all seats agree on everything but seat and hand: the public fields, taken from the
        state as they are.
        """
        public = observe(state)
        fields = [*VIEW_FIELDS]
        # checked seat by seat below
        for derived in ("seat", "hand", "hand_sizes", "known", "stock_size", "stock"):
            fields.remove(derived)
        assert tuple(getattr(state, name) for name in fields) == tuple(getattr(public, name) for name in fields)
        for seat in SEATS:
            view = observe(state, seat)
            assert seat == view.seat
            assert (None if seat is None else state.hands[seat]) == view.hand
            assert tuple(len(hand) for hand in state.hands) == view.hand_sizes
            assert (state.hands if is_over(state) else state.known) == view.known
            assert len(state.stock) == view.stock_size
            assert (state.stock if state.stock_known else None) == view.stock
            assert state.stock_known == view.stock_known
            assert CardSet(hidden_cards(state, seat)) == view.unseen
            assert public == attrs.evolve(view, seat=None, hand=None)


@attrs.frozen
class Change:
    """
    A visible change to a state: the changed state, the view fields that change for every
    seat, and the seats whose own hand changes as well (their views' `hand` differs too).
    """

    what: str
    state: GameState
    fields: frozenset[str]
    hands: frozenset[int] = frozenset()


def unknown(state: GameState, seat: int) -> list[Card]:
    """
    The cards of *seat*'s hand that nobody saw it take from the discard pile.
    """
    return list(state.hands[seat] - state.known[seat] - state.picked)


def holder(state: GameState, card: Card) -> int | None:
    """
    The seat that holds *card*, if any.
    """
    return next((seat for seat in range(4) if card in state.hands[seat]), None)


def trade(state: GameState, first: Card, second: Card, **changes: Any) -> GameState:
    """
    *state* with two cards trading places in the hands, the stock and the discard pile, and *changes* made.
    """

    def swapped(card: Card) -> Card:
        return second if card == first else first if card == second else card

    return attrs.evolve(
        state,
        hands=[CardSet(map(swapped, hand)) for hand in state.hands],
        stock=tuple(map(swapped, state.stock)),
        discard_pile=tuple(map(swapped, state.discard_pile)),
        **changes,
    )


def seats_of(*seats: int | None) -> frozenset[int]:
    return frozenset(seat for seat in seats if seat is not None)


def own_card_trades(state: GameState, data: st.DataObject) -> Change | None:
    """
    An unknown card of a hand trades places with a card its seat cannot see: only that seat
    (and the seat holding the other card) can tell.
    """
    if not in_turn(state):
        return None
    seat = data.draw(st.integers(0, 3), label="seat")
    own, hidden = unknown(state, seat), hidden_cards(state, seat)
    if not own or not hidden:
        return None
    card = data.draw(st.sampled_from(own), label="own card")
    target = data.draw(st.sampled_from(hidden), label="hidden card")
    to = holder(state, target)
    what = f"{card} of seat {seat} trades places with {target} ({'stock' if to is None else f'seat {to}'})"
    return Change(what, trade(state, card, target), frozenset(), seats_of(seat, to))


def known_card_moves(state: GameState, data: st.DataObject) -> Change | None:
    """
    A card known to be in a hand trades places with an unknown card of another hand (where it
    stays known) or with a card of the stock.
    """
    known = [(seat, card) for seat in range(4) for card in state.known[seat] - state.picked]
    if not in_turn(state) or not known:
        return None
    seat, card = data.draw(st.sampled_from(known), label="known card")
    targets = [target for other in range(4) if other != seat for target in unknown(state, other)]
    targets += state.stock
    if not targets:
        return None
    target = data.draw(st.sampled_from(targets), label="new place")
    to = holder(state, target)
    known_cards = list(state.known)
    known_cards[seat] -= CardSet([card])
    if to is not None:
        known_cards[to] |= CardSet([card])
    changed = trade(state, card, target, known=known_cards)
    fields = {"known", *(("stock",) if to is None and state.stock_known else ())}
    return Change(
        f"known {card} of seat {seat} trades places with {target}", changed, frozenset(fields), seats_of(seat, to)
    )


def pile_card_trades(state: GameState, data: st.DataObject) -> Change | None:
    """
    A card of the discard pile trades places with a stock card or an unknown card of a hand
    (when the deal is over, every hand counts in the score: only with a stock card).
    """
    if state.phase is Phase.DEAL or not state.discard_pile:
        return None
    targets = list(state.stock)
    if in_turn(state):
        targets += [target for seat in range(4) for target in unknown(state, seat)]
    if not targets:
        return None
    card = data.draw(st.sampled_from(state.discard_pile), label="pile card")
    target = data.draw(st.sampled_from(targets), label="hidden card")
    changed = trade(state, card, target)
    to = holder(state, target)
    fields = {"discard_pile", *(("stock",) if to is None and state.stock_known else ())}
    return Change(f"{card} of the pile trades places with {target}", changed, frozenset(fields), seats_of(to))


def meld_changes_owner(state: GameState, data: st.DataObject) -> Change | None:
    """
    A meld on the table was laid down by another seat.
    """
    if not in_turn(state) or not state.melds:
        return None
    index = data.draw(st.integers(0, len(state.melds) - 1), label="meld")
    old = state.melds[index]
    new = attrs.evolve(old, owner=(old.owner + data.draw(st.integers(1, 3), label="shift")) % 4)
    melds = (*state.melds[:index], new, *state.melds[index + 1 :])
    return Change(f"meld {index} laid down by seat {new.owner}", attrs.evolve(state, melds=melds), frozenset({"melds"}))


def card_changes_hands(state: GameState, data: st.DataObject) -> Change | None:
    """
    An unknown card goes from one hand to another: two hand sizes change.
    """
    cards = [(seat, card) for seat in range(4) for card in unknown(state, seat)]
    if not in_turn(state) or not cards:
        return None
    seat, card = data.draw(st.sampled_from(cards), label="card")
    to = data.draw(st.sampled_from([other for other in range(4) if other != seat]), label="to")
    hands = list(state.hands)
    hands[seat] -= CardSet([card])
    hands[to] |= CardSet([card])
    changed = attrs.evolve(state, hands=hands)
    return Change(f"{card} goes from seat {seat} to seat {to}", changed, frozenset({"hand_sizes"}), seats_of(seat, to))


def stock_card_leaves(state: GameState, data: st.DataObject) -> Change | None:
    """
    The top card of the stock goes onto the discard pile, or (in a turn) into a hand.
    """
    if state.phase is Phase.DEAL or not state.stock:
        return None
    immediately = state.rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY
    if len(state.stock) == 1 and state.phase is Phase.DRAW and immediately:
        return None  # no turn starts with an empty stock under these rules
    top, rest = state.stock[0], state.stock[1:]
    to = data.draw(st.sampled_from((None, 0, 1, 2, 3) if in_turn(state) else (None,)), label="to")
    # A stock everyone knows (A18) shows in the views; the top card of it leaves visibly.
    known = state.stock_known and bool(rest)
    shown = frozenset({"stock"} if state.stock_known else ())
    if to is None:
        changed = attrs.evolve(state, stock=rest, stock_known=known, discard_pile=(*state.discard_pile, top))
        return Change(
            f"{top} goes from the stock to the pile", changed, frozenset({"stock_size", "discard_pile"}) | shown
        )
    hands = list(state.hands)
    hands[to] |= CardSet([top])
    known_cards = list(state.known)
    if state.stock_known:
        known_cards[to] |= CardSet([top])
    changed = attrs.evolve(state, stock=rest, stock_known=known, hands=hands, known=known_cards)
    fields = frozenset({"stock_size", "hand_sizes", *(("known",) if state.stock_known else ())}) | shown
    return Change(f"{top} goes from the stock to seat {to}", changed, fields, seats_of(to))


def passes_change(state: GameState, data: st.DataObject) -> Change | None:
    """
    Another number of passes in a row, where the rules allow several (empty stock, all must pass).
    """
    if state.phase is not Phase.DRAW or state.stock or state.rules.empty_stock_end is not EmptyStockEnd.ALL_PASS:
        return None
    passes = (state.passes + data.draw(st.integers(1, 3), label="more passes")) % 4
    return Change(f"{passes} passes", attrs.evolve(state, passes=passes), frozenset({"passes"}))


CHANGES = (
    own_card_trades,
    known_card_moves,
    pile_card_trades,
    meld_changes_owner,
    card_changes_hands,
    stock_card_leaves,
    passes_change,
)


class TestLeakFreedom:
    """
    R7: the stock is the "face-down draw pile"; the other hands are hidden except for the cards seen
    taken from the pile (R14).  A view holds nothing that its seat cannot see: moving hidden cards
    leaves a view equal, with the same hash and JSON; every visible change changes the view, in
    exactly the fields that show it; no hidden card ever appears in a view's JSON text.
    """

    @given(STATES, st.data())
    def test_hidden_cards_do_not_change_the_view(self, state: GameState, data: st.DataObject) -> None:
        """
        Dealing the cards a seat cannot see differently (any permutation of the other hands' hidden
        parts and the stock, or just the stock reversed) gives a valid state whose view is equal to
        the original view, hashes alike and has the same JSON text.  The one exception: while the
        seat to act must still play a card it took from the pile, a deal that leaves it no way to
        play the card is refused (R15): no game reaches it, and `determinize` never deals it.
        """
        if state.phase is Phase.DEAL:
            return  # before the first deal the stock lies in FULL_DECK order: nothing can move
        for seat in SEATS:
            view = observe(state, seat)
            order = data.draw(st.permutations(hidden_cards(state, seat)), label=f"hidden cards of seat {seat}")
            reversed_stock = state if state.stock_known else attrs.evolve(state, stock=state.stock[::-1])
            others = [reversed_stock]
            problem = _redeal_problem(state, seat, order)
            if problem is None:
                others.append(redeal(state, seat, order))
            else:
                assert state.obligation is not None
                assert seat != state.to_act
                assert f"the card to play, {state.obligation}, can no longer be played" in problem
            for other in others:
                other_view = observe(other, seat)
                assert view == other_view
                assert hash(view) == hash(other_view)
                assert to_json(view) == to_json(other_view)

    @given(STATES, st.data())
    def test_visible_changes_change_the_view(self, state: GameState, data: st.DataObject) -> None:
        """
        Changing what a seat can see changes its view, in exactly the fields that show it: its own
        hand, where a known card is, the discard pile, a meld, a hand's size, the stock's size, the
        passes.  Moving a card between two places a seat cannot see leaves its view equal.
        """
        views = {seat: observe(state, seat) for seat in SEATS}
        for make in CHANGES:
            try:
                change = make(state, data)
            except InvalidStateError:
                # The change leaves a position play cannot reach: the card the seat to act
                # took from the pile can no longer be played, or the seat to play holds nothing.
                continue
            if change is None:
                continue
            note(change.what)
            for seat in SEATS:
                view = observe(change.state, seat)
                expected = change.fields | ({"hand"} if seat in change.hands else set())
                assert expected == differing(views[seat], view), f"seat {seat}: {change.what}"
                assert (views[seat] == view) == (to_json(views[seat]) == to_json(view))

    @settings(max_examples=10)
    @given(st.data())
    def test_every_kind_of_change_has_a_state(self, data: st.DataObject) -> None:
        """
        Each kind of change applies to `MIDGAME` or `PASSING`, which `STATES` draws often.
        """
        for make in CHANGES:
            assert any(make(state, data) is not None for state in (MIDGAME, PASSING)), make.__name__

    @given(played_states(rules=rules_variants()))
    def test_no_hidden_card_appears_in_a_views_json(self, state: GameState) -> None:
        """
        The JSON text of a view names no card its seat cannot see: none of another hand's
        unknown cards (while the deal is on) and none of the stock.  Adding any hidden card to
        `View` (the stock's top card, another seat's hand) makes this fail.  A card a joker on the
        table stands for (A7) is named as what the joker represents, which tells nothing of where
        the card is: the stand-ins are left out of the text searched.
        """
        for seat in SEATS:
            data: dict[str, Any] = to_data(observe(state, seat))
            for table_meld in data["melds"]:
                table_meld.pop("stand_ins", None)
            text = json.dumps(data)
            shown = [card for card in hidden_cards(state, seat) if f'"{card}"' in text]
            assert [] == shown, f"seat {seat} sees {shown}"


class TestDeterminize:
    """
    `determinize` deals the unseen cards at random into the places the view does not show (the
    unknown part of each other hand and the stock), keeping every hand's size, every known card
    where it is known to be, and the seat's own hand: the seat cannot tell the sample from the real
    state, and the same seeded `random.Random` gives the same state.
    """

    @given(played_states(rules=rules_variants()), seeds())
    def test_determinize_gives_states_the_seat_cannot_tell_apart(self, state: GameState, seed: int) -> None:
        """
        ``observe(determinize(observe(s, i), rng), i) == observe(s, i)``; the sample is a valid
        state holding the 56 cards once; the same seed gives the same sample; known cards stay
        where they are known, the seat's hand is kept, and only the unseen cards move.
        """
        for seat in SEATS:
            view = observe(state, seat)
            sample = determinize(view, seeded(seed))
            check_invariants(sample)
            assert_conserved(sample)
            assert view == observe(sample, seat)
            assert sample == determinize(view, seeded(seed))
            if seat is not None:
                assert state.hands[seat] == sample.hands[seat]
            assert all(view.known[other] <= sample.hands[other] for other in range(4))
            if in_turn(state):
                assert state.known == sample.known
            assert CardSet(hidden_cards(state, seat)) == CardSet(hidden_cards(sample, seat))

    def test_determinize_samples_differ(self) -> None:
        """
        Different seeds deal the unseen cards differently; the seat's own hand never moves.
        """
        view = observe(MIDGAME, 0)
        samples = {determinize(view, seeded(seed)) for seed in range(20)}

        assert 20 == len(samples)
        assert {MIDGAME.hands[0]} == {sample.hands[0] for sample in samples}
        assert {view} == {observe(sample, 0) for sample in samples}

    def test_determinize_before_the_first_deal(self) -> None:
        """
        Before the first deal every card lies undealt in `FULL_DECK` order: there is one state.
        """
        state = new_game(dealer=2)

        assert state == determinize(observe(state, 1), seeded(0))
        assert state == determinize(observe(state), seeded(0))


class TestLegalActionsOfAView:
    """
    R15: "A draw whose target cannot be used is illegal", and whether it can be used depends on the
    hand, the cards taken with it and the table.  The legal actions of a player depend only on what
    it can see: its hand, the table, the discard pile and the size of the stock.  `legal_actions`
    of the view of the seat to act is that of the state; the view of another seat, or the public
    view, raises `ViewError`.
    """

    @given(played_states(rules=rules_variants()), seeds())
    def test_legal_actions_of_a_view(self, state: GameState, seed: int) -> None:
        """
        The seat to act has the same legal actions in its view as in the state (and in any
        determinization of its view); the view of any other seat, and the public view, cannot say
        and raise `ViewError`.  At a chance node and at the end of the game every view behaves as
        the state does.
        """
        for seat in SEATS:
            view = observe(state, seat)
            if state.is_chance_node:
                with pytest.raises(ChanceNodeError):
                    legal_actions(view)
            elif state.phase is Phase.GAME_OVER:
                assert legal_actions(state) == legal_actions(view) == ()
            elif seat == state.to_act:
                expected = legal_actions(state)
                assert expected == legal_actions(view)
                assert expected == legal_actions(determinize(view, seeded(seed)))
            else:
                with pytest.raises(ViewError, match=f"does not show the cards of seat {state.to_act}, whose turn"):
                    legal_actions(view)

    def test_of_the_seat_to_act(self) -> None:
        assert legal_actions(MIDGAME) == legal_actions(observe(MIDGAME, 1))

    @pytest.mark.parametrize(
        ("seat", "message"),
        [
            (0, "the view of seat 0 does not show the cards of seat 1, whose turn it is"),
            (None, "the view of a spectator does not show the cards of seat 1, whose turn it is"),
        ],
    )
    def test_of_another_seat(self, seat: int | None, message: str) -> None:
        with pytest.raises(ViewError) as raised:
            legal_actions(observe(MIDGAME, seat))

        assert message == str(raised.value)
        assert isinstance(raised.value, PersianRummyError)
        assert isinstance(raised.value, ValueError)

    def test_at_a_chance_node(self) -> None:
        with pytest.raises(ChanceNodeError):
            legal_actions(observe(DEAL_OVER, 1))


class TestArrangements:
    """
    `count_arrangements` gives the exact number of full states consistent with a view:
    ``u! / (k1! k2! k3!)`` with ``u`` unseen cards of which ``k1``, ``k2`` and ``k3`` go to the other
    hands (the stock is a sequence, the unknown part of a hand a set).  `arrangements` lists every one
    of them once, in a fixed order, and refuses to list more than its limit.
    """

    @pytest.mark.parametrize(
        ("state", "seat", "expected"),
        [
            # 5 unseen: 5c 9d to seat 1, Qs Jd to seat 2, none to seat 3 (its 7h is known), 2d to the stock.
            pytest.param(ENDGAME, 0, 5 * 4 * 3 * 2 * 1 // (2 * 1 * 2 * 1), id="endgame-seat-0"),
            # 5 unseen: Ah Kh to seat 0, Qs Jd to seat 2, none to seat 3, 2d to the stock.
            pytest.param(ENDGAME, 1, 5 * 4 * 3 * 2 * 1 // (2 * 1 * 2 * 1), id="endgame-seat-1"),
            # 7 unseen: two cards each to seats 0, 1 and 2, one to the stock.
            pytest.param(ENDGAME, 3, 7 * 6 * 5 * 4 * 3 * 2 * 1 // (2 * 1 * 2 * 1 * 2 * 1), id="endgame-seat-3"),
            # Seat 3's whole hand is known, so a spectator counts as seat 3 does.
            pytest.param(ENDGAME, None, 7 * 6 * 5 * 4 * 3 * 2 * 1 // (2 * 1 * 2 * 1 * 2 * 1), id="endgame-public"),
            # The hands are shown: only the order of the three stock cards is unknown.
            pytest.param(DEAL_OVER, 1, 3 * 2 * 1, id="deal-over-seat-1"),
            pytest.param(DEAL_OVER, None, 3 * 2 * 1, id="deal-over-public"),
            # 14 unseen: 3h to seat 1, 9c Td to seat 2, 5c 8h to seat 3, nine cards to the stock.
            pytest.param(MIDGAME, 0, math.factorial(14) // (1 * 2 * 2), id="midgame-seat-0"),
            # Before the first deal the 56 cards lie in FULL_DECK order.
            pytest.param(new_game(), 0, 1, id="no-deal-yet"),
        ],
    )
    def test_count_arrangements(self, state: GameState, seat: int | None, expected: int) -> None:
        view = observe(state, seat)

        assert expected == count_arrangements(view)
        assert expected == count_by_hand(state, seat)

    def test_count_arrangements_after_the_first_deal(self) -> None:
        """
        After the deal a seat sees its 7 cards and the upcard: the 48 others go 7, 7 and 7 to the
        other hands and 27 to the stock, ``48! / (7! 7! 7!)`` ways.
        """
        state = apply(new_game(), random_deal(new_game(), seeded(2061)))
        factorial_7 = 7 * 6 * 5 * 4 * 3 * 2 * 1

        assert math.factorial(48) // factorial_7**3 == count_arrangements(observe(state, 1))
        assert math.factorial(55) // factorial_7**4 == count_arrangements(observe(state))

    @pytest.mark.parametrize(
        ("state", "seat"),
        [
            pytest.param(ENDGAME, 0, id="endgame-seat-0"),
            pytest.param(ENDGAME, None, id="endgame-public"),
            pytest.param(DEAL_OVER, 2, id="deal-over-seat-2"),
            pytest.param(new_game(), 0, id="no-deal-yet"),
        ],
    )
    def test_arrangements_are_every_consistent_state_once(self, state: GameState, seat: int | None) -> None:
        """
        `arrangements` yields `count_arrangements` distinct states, each consistent with the view,
        always in the same order; they are exactly the states made by putting the unseen cards back
        in every possible order, the real state among them.
        """
        view = observe(state, seat)
        found = list(arrangements(view))
        if state.phase is Phase.DEAL:
            every_order = {state}
        else:
            every_order = {redeal(state, seat, order) for order in permutations(hidden_cards(state, seat))}

        assert count_arrangements(view) == len(found) == len(set(found))
        assert every_order == set(found)
        assert state in every_order
        assert found == list(arrangements(view))
        for arrangement in found:
            check_invariants(arrangement)
            assert view == observe(arrangement, seat)

    def test_arrangements_beyond_the_limit(self) -> None:
        """
        More arrangements than *limit* raise `ViewError` (on the first step of the iteration);
        as many as *limit* are listed.
        """
        view = observe(ENDGAME, 0)

        with pytest.raises(ViewError, match=r"^30 arrangements are more than the limit of 29$"):
            next(arrangements(view, limit=29))
        assert 30 == len(list(arrangements(view, limit=30)))
        with pytest.raises(ViewError, match=r"arrangements are more than the limit of 100000$"):
            next(arrangements(observe(MIDGAME, 0)))


def chi_square_quantile(p: float, degrees: int) -> float:
    """
    The *p* quantile of the chi-square distribution, by the Wilson-Hilferty approximation:
    ``k (1 - 2/(9k) + z sqrt(2/(9k)))^3`` with ``z`` the standard normal quantile.
    """
    z = NormalDist().inv_cdf(p)
    c = 2 / (9 * degrees)
    return degrees * (1 - c + z * math.sqrt(c)) ** 3


class TestUniformity:
    """
    "Every full state consistent with the view is equally likely" under `determinize`: a chi-square
    test of its samples on a small endgame.
    """

    def test_chi_square_quantile(self) -> None:
        """
        The approximation is within 0.5 of the tabulated 0.999 quantiles (29 and 100 degrees of freedom).
        """
        assert abs(58.301 - chi_square_quantile(0.999, 29)) < 0.5
        assert abs(149.449 - chi_square_quantile(0.999, 100)) < 0.5

    def test_determinize_deals_uniformly(self) -> None:
        """
        200 samples per arrangement of a 30-arrangement endgame: every arrangement occurs, and the
        chi-square statistic of the counts stays below the 0.999 quantile (29 degrees of freedom).
        """
        view = observe(ENDGAME, 0)
        index = {(state.hands, state.stock): i for i, state in enumerate(arrangements(view))}
        per_arrangement = 200
        rng = seeded(20260301)
        counts = Counter(
            index[sample.hands, sample.stock]
            for sample in (determinize(view, rng) for _ in range(per_arrangement * len(index)))
        )
        statistic = sum((counts[i] - per_arrangement) ** 2 / per_arrangement for i in range(len(index)))
        quantile = chi_square_quantile(0.999, len(index) - 1)

        assert 30 == len(index)
        assert set(range(30)) == set(counts)
        assert statistic < quantile, f"chi-square {statistic:.1f} >= {quantile:.1f}; counts {sorted(counts.values())}"


def refusal(view: object) -> str:
    """
    The message of the `ViewError` that `check_view` raises for *view*.
    """
    with pytest.raises(ViewError) as raised:
        check_view(view)  # type: ignore[arg-type]
    return str(raised.value)


def raw(view: View, **changes: Any) -> View:
    """
    *view* with *changes*, built without the check that building a `View` runs, so that
    `check_view` can be shown refusing it.
    """
    fields = {a.name: getattr(view, a.name) for a in attrs.fields(View)}
    fields.update(changes)
    new = object.__new__(View)
    for name, value in fields.items():
        object.__setattr__(new, name, value)
    object.__setattr__(new, "_attrs_cached_hash", None)
    return new


def with_size(view: View, seat: int, size: int) -> View:
    sizes = list(view.hand_sizes)
    sizes[seat] = size
    return raw(view, hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]))


class TestCheckView:
    """
    `check_view` refuses views that no game gives, naming the problem; views made by `observe`
    always pass.  The view changed is seat 0's of `MIDGAME`: hand 3c 6c Qc Kc 8d Ts Ks As X2, sizes
    9 2 5 3, 14 unseen cards, 9 in the stock.
    """

    view = observe(MIDGAME, 0)

    @given(played_states(rules=rules_variants()))
    def test_views_of_reachable_states_pass_check_view(self, state: GameState) -> None:
        for seat in SEATS:
            check_view(observe(state, seat))

    def test_views_from_observe_pass(self) -> None:
        for seat in SEATS:
            for state in (MIDGAME, ENDGAME, DEAL_OVER, new_game()):
                check_view(observe(state, seat))

    def test_wrong_hand_size(self) -> None:
        assert "seat 0 holds 9 cards, but its hand size is 8" == refusal(with_size(self.view, 0, 8))

    def test_known_cards_beyond_a_hands_size(self) -> None:
        assert "seat 2 is known to hold 3 cards, more than its 2" == refusal(with_size(self.view, 2, 2))

    def test_a_card_both_in_the_hand_and_the_pile(self) -> None:
        view = with_size(raw(self.view, hand=MIDGAME.hands[0] | CardSet.parse("Ad")), 0, 10)

        expected = "card Ad appears more than once (found again in the discard pile)"
        assert expected == refusal(view)

    def test_a_public_view_with_a_hand(self) -> None:
        view = raw(observe(MIDGAME), hand=self.view.hand)

        assert "a seat's view shows its hand, and only the public view shows none" == refusal(view)

    def test_a_seats_view_without_a_hand(self) -> None:
        view = raw(self.view, hand=None)

        assert "a seat's view shows its hand, and only the public view shows none" == refusal(view)

    @pytest.mark.parametrize(("stock_size", "total"), [(10, 15), (8, 13), (0, 5)])
    def test_counts_that_do_not_add_up(self, stock_size: int, total: int) -> None:
        view = raw(self.view, stock_size=stock_size)

        assert f"the hands and the stock must hold the 14 unseen cards, not {total}" == refusal(view)

    def test_a_card_shown_before_the_deal(self) -> None:
        """
        Before the first deal every card lies face down in the stock: a view that shows a card
        in a hand shows what its seat cannot see.
        """
        undealt = observe(new_game(), 1)
        in_hand = raw(undealt, hand=CardSet.parse("2c"), hand_sizes=(0, 1, 0, 0), stock_size=55)
        known = raw(undealt, known=(NO_CARDS, NO_CARDS, CardSet.parse("2c"), NO_CARDS))
        known = raw(known, hand_sizes=(0, 0, 1, 0), stock_size=55)

        expected = "no game gives this view: it shows what its seat cannot see, or hides what it can"
        assert expected == refusal(in_hand)
        assert expected == refusal(known)

    def test_a_hand_hidden_after_the_deal(self) -> None:
        """
        When the deal is over every hand is shown: a view that still hides seat 1's 5c hides
        what its seat can see.
        """
        view = observe(DEAL_OVER, 2)
        hidden = raw(view, known=(NO_CARDS, NO_CARDS, CardSet.parse("Qs"), CardSet.parse("7h")))

        expected = "no game gives this view: it shows what its seat cannot see, or hides what it can"
        assert expected == refusal(hidden)

    def test_a_known_stock_of_another_size(self) -> None:
        """
        A18: a stock everyone knows shows each of its cards, as many as its size.
        """
        turning = observe(attrs.evolve(MIDGAME, rules=Rules(reshuffle_on_empty_stock=True)), 0)
        view = raw(turning, stock=MIDGAME.stock[:-1])
        assert f"the stock holds {len(MIDGAME.stock)} cards, but {len(MIDGAME.stock) - 1} are shown" == refusal(view)

    def test_a_known_stock_without_the_switch(self) -> None:
        """
        A18: only a stock turned over from the pile, under `reshuffle_on_empty_stock`, is shown.
        """
        view = raw(self.view, stock=MIDGAME.stock)
        expected = "no game gives this view: it shows what its seat cannot see, or hides what it can"
        assert expected == refusal(view)

    def test_a_seat_that_is_not_one(self) -> None:
        assert "seat must be a seat 0-3 or None, got 4" == refusal(raw(self.view, seat=4))

    def test_building_a_view_checks_it(self) -> None:
        """
        Building a `View` by hand (or with `attrs.evolve`) runs `check_view`.
        """
        with pytest.raises(ViewError, match="seat must be a seat 0-3 or None, got 4"):
            attrs.evolve(self.view, seat=4)
        assert self.view == attrs.evolve(self.view)

    def test_hand_sizes_are_four_numbers(self) -> None:
        view = raw(self.view, hand_sizes=(9, 2, 5))

        assert "hand_sizes must be four numbers 0-56, got (9, 2, 5)" == refusal(view)

    def test_not_a_view(self) -> None:
        assert refusal(MIDGAME).startswith("not a View: ")

    @pytest.mark.parametrize(
        "changes",
        [
            pytest.param({"known": (NO_CARDS, NO_CARDS, NO_CARDS)}, id="three-known-parts"),
            pytest.param({"known": (["3c"], NO_CARDS, NO_CARDS, NO_CARDS)}, id="known-not-card-sets"),
            pytest.param({"hand": frozenset(MIDGAME.hands[0])}, id="hand-not-a-card-set"),
            pytest.param({"discard_pile": ("X3", "Th", "Ad")}, id="pile-of-strings"),
            pytest.param({"melds": ("Tc Jc Qc",)}, id="melds-not-table-melds"),
            pytest.param({"discard_pile": list(MIDGAME.discard_pile)}, id="pile-a-list"),
            pytest.param({"stock": ["2c"]}, id="stock-a-list"),
        ],
    )
    def test_fields_of_the_wrong_shape(self, changes: dict[str, Any]) -> None:
        """
        A view built by hand with a field of the wrong shape is refused with `ViewError`.
        """
        assert refusal(raw(self.view, **changes))


def corrupt(data: dict[str, Any], change: str) -> None:
    """
    Change the document of seat 0's view of `MIDGAME` in place, as *change* says.
    """
    stock_top = str(MIDGAME.stock[0])
    if change == "stock shown":
        data["stock"] = [str(card) for card in MIDGAME.stock]
    elif change == "stock card in hand":
        data["hand"].append(stock_top)
    elif change == "stock card on the pile":
        data["discard_pile"].append(stock_top)
    elif change == "other hand shown":
        data["hand"] = [str(card) for card in MIDGAME.hands[1]]
    elif change == "public view with a hand":
        data["seat"] = None
    elif change == "hidden card on the table":
        data["melds"][0]["layoffs"][0].append("3d")
    else:
        raise AssertionError(change)


class TestViewJson:
    """
    Views have a JSON form, of kind ``"view"``, with the fields of `View` in order; a public view has
    ``"hand": null``.  Reading a view checks that some game gives it: a document that shows a hidden
    card or is otherwise inconsistent is refused with `InvalidDataError`.
    """

    @given(played_states(rules=rules_variants()), st.sampled_from(SEATS))
    def test_views_round_trip_through_json(self, state: GameState, schema_seat: int | None) -> None:
        """
        ``from_json(to_json(v)) == v`` for the views of every seat and the public view, and their
        documents are valid under the JSON Schema (checked for one of them, drawn: it is slow).
        """
        for seat in SEATS:
            view = observe(state, seat)
            assert view == from_json(to_json(view))
            assert view == from_json(to_json(view), View)
        assert [] == [error.message for error in VALIDATOR.iter_errors(to_data(observe(state, schema_seat)))]

    def test_the_document_of_a_view(self) -> None:
        data = to_data(observe(ENDGAME, 0))

        assert "view" == data["kind"]
        assert (0, ["Kh", "Ah"], [2, 2, 2, 1]) == (data["seat"], data["hand"], data["hand_sizes"])
        assert ([[], [], [], ["7h"]], 1) == (data["known"], data["stock_size"])
        assert None is to_data(observe(ENDGAME))["hand"]

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (
                "stock shown",
                "$: not a valid view: no game gives this view: it shows what its seat cannot see, or hides what it can",
            ),
            ("stock card in hand", "$: not a valid view: seat 0 holds 10 cards, but its hand size is 9"),
            (
                "stock card on the pile",
                "$: not a valid view: the hands and the stock must hold the 13 unseen cards, not 14",
            ),
            ("other hand shown", "$: not a valid view: seat 0's known cards 3c 6c Qc Ks are not in its hand"),
            (
                "public view with a hand",
                "$: not a valid view: a seat's view shows its hand, and only the public view shows none",
            ),
            (
                "hidden card on the table",
                "$: not a valid view: the hands and the stock must hold the 13 unseen cards, not 14",
            ),
        ],
    )
    def test_corrupted_view_documents_are_refused(self, change: str, message: str) -> None:
        """
        A view document that shows a hidden card (the stock, a stock card put anywhere, another
        seat's hand) or is otherwise inconsistent is refused with `InvalidDataError`.
        """
        data = json.loads(to_json(observe(MIDGAME, 0)))
        corrupt(data, change)

        with pytest.raises(InvalidDataError) as raised:
            from_data(data)
        assert message == str(raised.value)
