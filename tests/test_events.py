"""
Events: what each seat, and a spectator, saw of each action, and the view rebuilt from them.

The classes, by topic:

* the events of each type of action, exact values for hand-made positions: deals, draws from a
  face-down and from a known stock, takes, melds, lay-offs, discards, passes, the end of a deal
  and the discard pile turned over (A18);
* the two properties over games played under every rule variant: after every action, the view
  rebuilt from a seat's events equals ``observe(state, seat)``; an event never shows a card
  its seat may not see;
* events built by hand are checked; `events_of`, `view_after` and `view_from_events` refuse bad
  arguments and events that do not fit;
* `Listener`, and a history kept by one;
* the JSON form of events: round trips, the schema, refusals naming the path.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidDataError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TakeDiscard,
    View,
    apply,
    from_data,
    from_json,
    is_deal_over,
    json_schema,
    legal_actions,
    new_game,
    observe,
    random_deal,
    to_data,
    to_json,
)
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.events import Event, Listener, events_of, view_after, view_from_events
from persian_rummy.state import next_dealer
from tests.positions import meld, position
from tests.strategies import Playout, playouts, random_action, rules_variants
from tests.turn_positions import layoff_position, standard

#: The four seats, then the spectator, in the order of `events_of`.
OBSERVERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
VALIDATOR = Draft202012Validator(json_schema())
Data = dict[str, Any]

#: The hands of a deal from the deck in `FULL_DECK` order, seat by seat from the dealer's left:
#: one card at a time, so the first of them gets cards 0, 4, 8, ... of the deck.  Card 28, 4h,
#: is the upcard and 5h the next card of the stock.
FROM_THE_LEFT = ("2c 6c Tc Ac 5d 9d Kd", "3c 7c Jc 2d 6d Td Ad", "4c 8c Qc 3d 7d Jd 2h", "5c 9c Kc 4d 8d Qd 3h")
DEALT = apply(new_game(), Deal(0, FULL_DECK))

#: Seat 0 to play with an empty stock, under rules that turn the pile over when it runs out (A18).
TURNING = position(
    rules=Rules(reshuffle_on_empty_stock=True),
    hands=("Qh Qs Kd", "2c 3c 4c", "", "Kh"),
    pile="5h 9c Qd",
    stock="",
    rest_to=2,
    phase="play",
)


def everyone(event: Event) -> tuple[Event, Event, Event, Event, Event]:
    return (event, event, event, event, event)


def named_cards(event: Event) -> CardSet:
    """
    Every card *event* names: in its action, its cards, its upcard, the hands and the stock shown.
    """
    named = event.cards
    singles = [getattr(event.action, "card", None), event.upcard, *(event.stock or ())]
    named |= CardSet([card for card in singles if card is not None])
    for part in (getattr(event.action, "cards", CardSet()), *(event.hands or ())):
        named |= part
    return named


def visible(view: View) -> CardSet:
    """
    The cards whose place *view* shows.
    """
    return CardSet(FULL_DECK) - view.unseen


def schema_errors(data: object) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(data)]


def refusal(data: object) -> str:
    with pytest.raises(InvalidDataError) as info:
        from_data(data)
    return str(info.value)


def first_deal_over(seed: int) -> GameState:
    """
    The end of the first deal of a game played at random with ``random.Random(seed)``.
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
    state = apply(new_game(), random_deal(new_game(), rng))
    while not is_deal_over(state):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


class TestDeal:
    """
    R7: "Dealer shuffles and deals seven cards to each player; the rest is the draw pile; turn
    the top card face up to start the discard pile."  Each seat sees its own hand; everyone sees
    the dealer and the upcard; nobody sees the deck's order or another hand.
    """

    def test_each_seat_sees_its_own_hand_and_everyone_the_dealer_and_the_upcard(self) -> None:
        events = events_of(new_game(), Deal(0, FULL_DECK))
        expected = [Event(dealer=0, cards=FROM_THE_LEFT[(seat - 1) % 4], upcard="4h") for seat in range(4)]
        assert (*expected, Event(dealer=0, upcard="4h")) == events
        assert tuple(event.cards for event in events[:4]) == DEALT.hands

    def test_the_next_deal_is_told_by_its_dealer(self) -> None:
        # A4: the player on the first dealer's left deals the second deal; the first deal's hands stay secret.
        over = first_deal_over(4)
        assert 1 == next_dealer(over)
        events = events_of(over, Deal(1, FULL_DECK))
        expected = [Event(dealer=1, cards=FROM_THE_LEFT[(seat - 2) % 4], upcard="4h") for seat in range(4)]
        assert (*expected, Event(dealer=1, upcard="4h")) == events

    def test_a_deal_event_reads_as_a_deal(self) -> None:
        event = events_of(new_game(dealer=3), Deal(3, FULL_DECK))[1]
        assert (Deal, 3, None) == (event.kind, event.actor, event.action)
        assert "Event(cards=CardSet.parse('3c 7c Jc 2d 6d Td Ad'), dealer=3, upcard=Card.parse('4h'))" == repr(event)


class TestDraw:
    """
    R14: a player draws the top card of the stock; only the drawer sees it.  A18: from a stock
    turned over from the discard pile, whose order everyone knows, everyone sees the card drawn.
    """

    def test_only_the_drawer_sees_the_card(self) -> None:
        hidden = Event(DrawStock(1))
        assert (hidden, Event(DrawStock(1), "5h"), hidden, hidden, hidden) == events_of(DEALT, DrawStock(1))

    def test_a_draw_from_a_known_stock_shows_the_card_to_everyone(self) -> None:
        turned = apply(TURNING, Discard(0, "Kd"))
        assert (True, (Card.parse("5h"), Card.parse("9c"), Card.parse("Qd"))) == (turned.stock_known, turned.stock)
        assert everyone(Event(DrawStock(1), "5h")) == events_of(turned, DrawStock(1))

    def test_a_draw_event_reads_as_a_draw(self) -> None:
        event = events_of(DEALT, DrawStock(1))[1]
        assert (DrawStock, 1) == (event.kind, event.actor)
        assert "Event(action=DrawStock(seat=1), cards=CardSet.parse('5h'))" == repr(event)
        assert "Event(action=DrawStock(seat=1))" == repr(events_of(DEALT, DrawStock(1))[0])


class TestTake:
    """
    R14: "Any card in the discard pile may be taken; taking a card inside the pile requires
    taking all cards on top of it."  R18: the pile is fanned, so everyone sees every card taken.
    """

    def test_everyone_sees_every_card_taken(self) -> None:
        # The standard pile is 6h Kc 8d Qd, top card last: taking 8d takes Qd with it.
        assert everyone(Event(TakeDiscard(0, "8d"), "8d Qd")) == events_of(standard(), TakeDiscard(0, "8d"))

    def test_the_top_card_alone(self) -> None:
        assert everyone(Event(TakeDiscard(0, "Qd"), "Qd")) == events_of(standard(), TakeDiscard(0, "Qd"))


class TestPublicActions:
    """
    R16-R18, R21: melds are laid down face up, lay-offs are announced and shown, discards go
    face up on the pile, and a pass is seen by all: everyone has the same account, the action.
    """

    def test_a_meld(self) -> None:
        state = apply(standard(), TakeDiscard(0, "Qd"))
        assert everyone(Event(LayDown(0, "Qd Qh Qs"))) == events_of(state, LayDown(0, "Qd Qh Qs"))

    def test_a_lay_off(self) -> None:
        # Meld 1 is the partner's 7s 8s 9s.
        assert everyone(Event(LayOff(0, 1, "5s 6s"))) == events_of(layoff_position(), LayOff(0, 1, "5s 6s"))

    def test_a_discard(self) -> None:
        assert everyone(Event(Discard(0, "Kh"))) == events_of(layoff_position(), Discard(0, "Kh"))

    def test_a_pass(self) -> None:
        state = position(hands=("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh"), pile="5h 9c Qd", stock="", rest_to=2)
        assert everyone(Event(Pass(0))) == events_of(state, Pass(0))

    def test_the_kinds_and_actors(self) -> None:
        assert (LayOff, 0) == (Event(LayOff(0, 1, "5s 6s")).kind, Event(LayOff(0, 1, "5s 6s")).actor)


class TestEndOfDeal:
    """
    R19: going out ends the deal at once; R22: so do the passes of A17; R24: the hands left are
    counted against their teams, so every hand is laid down and shown to everyone.
    """

    def test_going_out_shows_every_hand(self) -> None:
        state = position(hands=("Qh Qs Qd", "2c 3c", "4h", "5d"), phase="play", rest_to="pile")
        events = events_of(state, LayDown(0, "Qd Qh Qs"))
        assert everyone(Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c 3c", "4h", "5d"))) == events

    def test_the_pass_that_ends_the_deal_shows_every_hand(self) -> None:
        hands = ("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh")
        state = position(rules=Rules(empty_stock_end="first_pass"), hands=hands, pile="5h 9c Qd", stock="", rest_to=2)
        shown = apply(state, Pass(0)).hands
        assert "Kh" in str(shown[3])
        assert everyone(Event(Pass(0), hands=shown)) == events_of(state, Pass(0))

    def test_a_discard_that_ends_the_deal_shows_every_hand(self) -> None:
        # A15 variant: going out by discarding the last card.
        state = position(
            rules=Rules(go_out_by_discard=True), hands=("Qh", "2c 3c", "4h", "5d"), phase="play", rest_to="pile"
        )
        assert everyone(Event(Discard(0, "Qh"), hands=("", "2c 3c", "4h", "5d"))) == events_of(state, Discard(0, "Qh"))


class TestTurningThePileOver:
    """
    A18 (variant ``reshuffle_on_empty_stock``): when the stock is empty, the discard pile but
    its top card is turned over, in order, into a new stock that everyone knows.
    """

    def test_the_discard_shows_the_new_stock(self) -> None:
        events = events_of(TURNING, Discard(0, "Kd"))
        assert everyone(Event(Discard(0, "Kd"), stock="5h 9c Qd")) == events
        assert (Card.parse("5h"), Card.parse("9c"), Card.parse("Qd")) == events[2].stock

    def test_a_view_rebuilt_knows_the_stock(self) -> None:
        view = view_after(observe(TURNING, 3), Event(Discard(0, "Kd"), stock="5h 9c Qd"))
        assert observe(apply(TURNING, Discard(0, "Kd")), 3) == view
        assert (Card.parse("5h"), Card.parse("9c"), Card.parse("Qd")) == view.stock


def check_rebuilt_views(playout: Playout) -> None:
    """
    After every action of *playout*, each seat's and the spectator's view kept up to date with
    `view_after` from its events equals `observe`; `view_from_events` rebuilds the last one.
    """
    start = playout.states[0]
    views = [observe(start, seat) for seat in OBSERVERS]
    heard: list[list[Event]] = [[] for _ in OBSERVERS]
    for before, action, after in playout.steps:
        for k, event in enumerate(events_of(before, action)):
            heard[k].append(event)
            views[k] = view_after(views[k], event)
            assert observe(after, OBSERVERS[k]) == views[k]
    for k, seat in enumerate(OBSERVERS):
        assert observe(playout.final, seat) == view_from_events(start.rules, start.dealer, seat, heard[k])


class TestViewFromEvents:
    """
    What a seat saw of the actions is everything it knows: its events, with the rules and the
    first dealer, determine its view, under every rule variant, and so for a spectator.
    """

    @given(playouts(rules=rules_variants()))
    def test_the_view_rebuilt_from_events_is_the_view(self, playout: Playout) -> None:
        check_rebuilt_views(playout)

    @given(playouts(rules=rules_variants(bounded=True), max_actions=800, dealer=0))
    def test_whole_games(self, playout: Playout) -> None:
        check_rebuilt_views(playout)

    @pytest.mark.parametrize(
        "rules",
        [
            Rules(),
            Rules(reshuffle_on_empty_stock=True),
            Rules(obligation_timing="before_discard"),
            Rules(obligation_timing="before_discard", obligation_by_layoff=False, ace_low_allowed=True),
            Rules(pass_allows_melding=True, top_discard_free=True),
            Rules(go_out_by_discard=True, empty_stock_end="immediately", hand_size=13),
        ],
        ids=["default", "A18", "A11", "A10-A8", "A16-A9", "A15-A17-A5"],
    )
    def test_fixed_games(self, rules: Rules) -> None:
        for seed in range(6):
            rng = random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)
            state = new_game(rules, dealer=seed % 4)
            states: list[GameState] = [state]
            actions: list[Action] = []
            while state.phase is not Phase.GAME_OVER and len(actions) < 600:
                action = random_action(state, rng)
                state = apply(state, action)
                states.append(state)
                actions.append(action)
            check_rebuilt_views(Playout(tuple(states), tuple(actions)))

    def test_no_events_is_the_start_of_the_game(self) -> None:
        rules = Rules(hand_size=5)
        assert observe(new_game(rules, dealer=2), 1) == view_from_events(rules, 2, 1, [])
        assert observe(new_game(rules, dealer=2)) == view_from_events(rules, 2, None, ())

    @pytest.mark.parametrize("seed", [10, 99, 125, 148, 161, 250])
    def test_a_wild_play_that_leaves_the_card_taken_for_later(self, seed: int) -> None:
        """
        A7 with A11: a seat that took a card from the pile lays down another meld first, with a joker
        standing for a card.  The state a view is rebuilt on may give that seat cards to keep the taken
        card playable, and none of them may be a joker lower than the one it played.
        """
        rules = Rules(hand_size=12, obligation_timing="before_discard", jokers_wild=True)
        rng = random.Random(seed)  # noqa: S311 (the game's own seed)
        state = new_game(rules)
        views = [observe(state, seat) for seat in OBSERVERS]
        for _ in range(40):
            action = random_deal(state, rng) if state.to_act is None else rng.choice(legal_actions(state))
            after = apply(state, action)
            for k, event in enumerate(events_of(state, action)):
                views[k] = view_after(views[k], event)
                assert observe(after, OBSERVERS[k]) == views[k]
            state = after


class TestNoLeaks:
    """
    An event shows its seat nothing that the seat's view after the action does not show: no card
    of another hand (before the deal is over), nothing of the face-down stock, no deck order.
    """

    @given(playouts(rules=rules_variants()))
    def test_an_event_names_only_cards_its_seat_sees(self, playout: Playout) -> None:
        for before, action, after in playout.steps:
            for seat, event in zip(OBSERVERS, events_of(before, action, after), strict=True):
                view = observe(after, seat)
                assert CardSet() == named_cards(event) - visible(view)

    @given(playouts(rules=rules_variants()))
    def test_what_differs_between_seats_is_their_own_cards(self, playout: Playout) -> None:
        for before, action, after in playout.steps:
            events = events_of(before, action, after)
            public = events[4]
            for seat in range(4):
                own = events[seat].cards - public.cards
                assert own <= after.hands[seat]
                assert (events[seat].action, events[seat].hands, events[seat].stock) == (
                    public.action,
                    public.hands,
                    public.stock,
                )

    def test_the_deck_order_is_never_shown(self) -> None:
        for event in events_of(new_game(), Deal(0, FULL_DECK)):
            assert {"cards", "dealer", "upcard", "action", "hands", "stock"} == set(to_data(event)) - {
                "format",
                "version",
                "kind",
            }
            assert len(named_cards(event)) in {1, 8}


class TestBuiltByHand:
    """
    Events built by hand are checked, as actions are: their fields, and that each kind of action
    shows only what it may.
    """

    def test_cards_are_read_from_notation(self) -> None:
        event = Event(TakeDiscard(1, "9s"), "9s Kd")
        assert Event(TakeDiscard(1, Card.parse("9s")), CardSet.parse("Kd 9s")) == event
        assert event == Event(TakeDiscard(1, "9s"), [Card.parse("9s"), "Kd"])
        deal = Event(dealer=0, cards="2c 3c", upcard=Card.parse("4h"))
        assert (CardSet.parse("2c 3c"), Card.parse("4h")) == (deal.cards, deal.upcard)
        turned = Event(Discard(0, "Kd"), stock=["5h", Card.parse("9c")])
        assert (Card.parse("5h"), Card.parse("9c")) == turned.stock

    def test_a_repr_builds_the_event_again(self) -> None:
        namespace = {"Event": Event, "Card": Card, "CardSet": CardSet, "Discard": Discard, "LayDown": LayDown}
        for event in (
            Event(Discard(0, "Kd"), stock="5h 9c Qd"),
            Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c 3c", "4h", "5d")),
            Event(dealer=2, cards="2c 3c", upcard="4h"),
            Event(dealer=2, upcard="4h"),
        ):
            assert event == eval(repr(event), namespace)  # noqa: S307 (the repr of a value made here)

    def test_events_are_values(self) -> None:
        event = Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c 3c", "4h", "5d"))
        assert event == pickle.loads(pickle.dumps(event))  # noqa: S301 (a value pickled here)
        assert hash(event) == hash(Event(LayDown(0, "Qs Qh Qd"), hands=["", "3c 2c", "4h", "5d"]))
        with pytest.raises(AttributeError):
            event.cards = CardSet.parse("2c")  # type: ignore[misc]

    @pytest.mark.parametrize(
        ("fields", "error", "message"),
        [
            ({"action": Deal(0, FULL_DECK)}, InvalidTypeError, "action must be a player's action, or None for a deal"),
            ({"action": "draw"}, InvalidTypeError, "action must be a player's action, or None for a deal, got 'draw'"),
            ({}, InvalidValueError, "a deal shows its dealer and the upcard"),
            ({"dealer": 4, "upcard": "4h"}, InvalidValueError, "dealer must be a seat 0-3, got 4"),
            ({"dealer": True, "upcard": "4h"}, InvalidTypeError, "dealer must be a seat 0-3, got True"),
            ({"dealer": 0, "upcard": "4h", "cards": "4h 5h"}, InvalidValueError, "the upcard 4h cannot be in the hand"),
            ({"dealer": 0, "upcard": "4h", "hands": ["", "", "", ""]}, InvalidValueError, "a deal shows no hand but"),
            ({"dealer": 0, "upcard": "Zz"}, Exception, "'Zz'"),
            ({"dealer": 0, "upcard": 4}, InvalidTypeError, "upcard must be a Card or its notation, got 4"),
            ({"dealer": 0, "upcard": "4h", "cards": [*FULL_DECK[:14]]}, InvalidValueError, "13 cards at most, not 14"),
            ({"action": DrawStock(1), "dealer": 1}, InvalidValueError, "only a deal shows a dealer and an upcard"),
            ({"action": DrawStock(1), "cards": "Qh Qs"}, InvalidValueError, "a draw from the stock shows one card at"),
            ({"action": DrawStock(1), "stock": "Qh"}, InvalidValueError, "a draw from the stock neither ends a deal"),
            ({"action": TakeDiscard(1, "9s"), "cards": "Kd"}, InvalidValueError, "shows every card taken, 9s among"),
            ({"action": Pass(1), "cards": "Kd"}, InvalidValueError, "a pass shows no cards but its own"),
            ({"action": Pass(1), "stock": "Kd"}, InvalidValueError, "only a discard that does not end the deal"),
            ({"action": Discard(1, "Kd"), "stock": "Kd 2c"}, InvalidValueError, "not the card discarded"),
            ({"action": Discard(1, "Kd"), "stock": "2c 2c"}, InvalidValueError, "each once"),
            ({"action": Discard(1, "Kd"), "stock": ()}, InvalidValueError, "the stock turned over holds cards"),
            ({"action": Discard(1, "Kd"), "stock": 5}, InvalidTypeError, "stock must be cards in order, or None"),
            ({"action": Discard(1, "Kd"), "hands": "Kd"}, InvalidTypeError, "hands must be four hands, one per seat"),
            ({"action": Discard(1, "Kd"), "hands": ["", ""]}, InvalidValueError, "four hands, one per seat, got 2"),
            ({"action": Discard(1, "Kd"), "hands": ["2c", "2c", "", ""]}, InvalidValueError, "hold 2c twice"),
            ({"action": Discard(1, "Kd"), "hands": ["", "Kd", "", ""]}, InvalidValueError, "hold Kd twice, or with"),
            ({"action": LayDown(1, "9d 9h 9s"), "cards": 5}, InvalidTypeError, "cards must be cards, their notation"),
        ],
    )
    def test_what_no_game_shows_is_refused(self, fields: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error) as info:
            Event(**fields)
        assert message in str(info.value)


class TestEventsOfArguments:
    """
    `events_of` takes the state before, the action and, if the caller has it, the state after;
    it refuses what is not a state or an action, and an illegal action.
    """

    def test_the_state_after_may_be_given(self) -> None:
        after = apply(DEALT, DrawStock(1))
        assert events_of(DEALT, DrawStock(1)) == events_of(DEALT, DrawStock(1), after)

    def test_an_illegal_action_is_refused(self) -> None:
        with pytest.raises(IllegalActionError, match="it is seat 1's turn, not seat 2's"):
            events_of(DEALT, DrawStock(2))
        empty = position(hands=("Qh Qs 4h 6h", "2c 3c 4c", "", "Kd Kh"), pile="5h 9c Qd", stock="", rest_to=2)
        with pytest.raises(IllegalActionError, match="the stock is empty"):
            events_of(empty, DrawStock(0), empty)

    @pytest.mark.parametrize(
        ("arguments", "message"),
        [
            ((observe(DEALT, 1), DrawStock(1)), "before must be a GameState, got View("),
            ((DEALT, DrawStock(1), "after"), "after must be a GameState or None, got 'after'"),
            ((DEALT, "draw", DEALT), "action must be an action, got 'draw'"),
        ],
    )
    def test_what_is_not_a_state_or_an_action_is_refused(self, arguments: tuple[Any, ...], message: str) -> None:
        with pytest.raises(InvalidTypeError) as info:
            events_of(*arguments)
        assert str(info.value).startswith(message)


class TestEventsThatDoNotFit:
    """
    `view_after` refuses an event that its view's seat could not have had: another seat's
    account, a card where the view shows another, an action shown without what it shows.
    """

    @pytest.mark.parametrize(
        ("seat", "event", "message"),
        [
            (None, Event(dealer=0, cards=FROM_THE_LEFT[0], upcard="4h"), "a spectator sees no hand dealt"),
            (1, Event(dealer=0, upcard="4h"), "a seat is dealt 7 cards, not 0"),
            (1, Event(dealer=0, cards="2c 3c", upcard="4h"), "a seat is dealt 7 cards, not 2"),
        ],
    )
    def test_deals(self, seat: int | None, event: Event, message: str) -> None:
        with pytest.raises(InvalidValueError, match=f"^the event does not fit the view: {message}"):
            view_after(observe(new_game(), seat), event)

    @pytest.mark.parametrize(
        ("seat", "event", "message"),
        [
            (1, Event(DrawStock(1)), "the player who draws sees the card drawn"),
            (2, Event(DrawStock(1), "5h"), "only the player who draws sees the card drawn from the face-down stock"),
            (1, Event(DrawStock(1), "2c"), "2c cannot be the next card of the stock"),
            (2, Event(LayDown(1, "2c 3c 4c")), "seat 1 cannot hold 3c"),
            (1, Event(Discard(1, "2c")), "no such"),
        ],
    )
    def test_draws_and_cards_shown_elsewhere(self, seat: int, event: Event, message: str) -> None:
        view = observe(DEALT, seat)
        if message == "no such":
            with pytest.raises(IllegalActionError, match="seat 1 must first draw or pass"):
                view_after(view, event)
            return
        with pytest.raises(InvalidValueError, match=f"^the event does not fit the view: {message}"):
            view_after(view, event)

    def test_a_known_stock_shows_the_card_drawn(self) -> None:
        turned = apply(TURNING, Discard(0, "Kd"))
        with pytest.raises(InvalidValueError, match="everyone does from a known stock"):
            view_after(observe(turned, 2), Event(DrawStock(1)))
        with pytest.raises(InvalidValueError, match="9c cannot be the next card of the stock"):
            view_after(observe(turned, 2), Event(DrawStock(1), "9c"))

    def test_what_the_end_of_a_deal_and_a_turned_pile_show_must_be_there(self) -> None:
        state = position(hands=("Qh Qs Qd", "2c 3c", "4h", "5d"), phase="play", rest_to="pile")
        with pytest.raises(InvalidValueError, match="the action that ends a deal, and only it, shows every hand"):
            view_after(observe(state, 1), Event(LayDown(0, "Qd Qh Qs")))
        with pytest.raises(InvalidValueError, match="the hand shown of seat 1 is not one it could hold"):
            view_after(observe(state, 1), Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c", "4h", "5d")))
        with pytest.raises(InvalidValueError, match="the hand shown of seat 2 is not one it could hold"):
            view_after(observe(state, 1), Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c 3c", "5h", "5d")))
        with pytest.raises(InvalidValueError, match="a discard that turns the discard pile over, and only it"):
            view_after(observe(TURNING, 1), Event(Discard(0, "Kd")))
        with pytest.raises(InvalidValueError, match="a discard that turns the discard pile over, and only it"):
            view_after(observe(TURNING, 1), Event(Discard(0, "Kd"), stock="9c 5h Qd"))

    def test_a_take_shows_exactly_the_cards_taken(self) -> None:
        with pytest.raises(InvalidValueError, match="the cards taken are 8d Qd, not 8d"):
            view_after(observe(standard(), 2), Event(TakeDiscard(0, "8d"), "8d"))

    def test_a_take_that_no_hidden_hand_could_play_is_refused(self) -> None:
        # R15, A12: nobody takes a card that they cannot play at once.  Seat 2 holds the other
        # kings and the queen of clubs, so no hand of seat 0 could play Kc; in seat 0's own view,
        # apply says why its hand cannot.
        state = position(hands=("3h 4h 5h", "2c 3c 4c", "Kd Kh Ks Qc", "Tc 2h 8h 4s"), pile="6h Kc")
        with pytest.raises(InvalidValueError, match=r"^the event does not fit the view: seat 0 could not play Kc$"):
            view_after(observe(state, 2), Event(TakeDiscard(0, "Kc"), "Kc"))
        with pytest.raises(IllegalActionError, match="Kc cannot be melded or laid off at once"):
            view_after(observe(state, 0), Event(TakeDiscard(0, "Kc"), "Kc"))
        assert observe(apply(state, TakeDiscard(0, "6h")), 2) == view_after(
            observe(state, 2), Event(TakeDiscard(0, "6h"), "6h Kc")
        )

    def test_an_action_that_may_not_follow_is_refused_by_apply(self) -> None:
        with pytest.raises(IllegalActionError, match="2c is not in the discard pile"):
            view_after(observe(standard(), 2), Event(TakeDiscard(0, "2c"), "2c"))
        # A11 variant: seat 0 took Qd and may lay off first; there is no meld 5.
        state = position(
            rules=Rules(obligation_timing="before_discard"),
            hands=("Qh Qs Qd 5s 6s", "2c 3c", "Ah", "2d"),
            melds=(meld(2, "7s 8s 9s"),),
            phase="play",
            obligation="Qd",
            picked="Qd",
            known=("Qd", "", "", ""),
            rest_to="pile",
        )
        with pytest.raises(IllegalActionError, match="there is no meld 5 on the table"):
            view_after(observe(state, 1), Event(LayOff(0, 5, "6s")))
        assert observe(apply(state, LayOff(0, 0, "6s")), 1) == view_after(observe(state, 1), Event(LayOff(0, 0, "6s")))

    def test_a_history_of_another_seat_does_not_fit(self) -> None:
        events = events_of(new_game(), Deal(0, FULL_DECK))
        with pytest.raises(InvalidValueError, match="a spectator sees no hand dealt"):
            view_from_events(Rules(), 0, None, [events[1]])
        with pytest.raises(IllegalActionError, match="seat 0 deals this deal, not seat 1"):
            view_from_events(Rules(), 0, 1, [events_of(new_game(dealer=1), Deal(1, FULL_DECK))[1]])

    @pytest.mark.parametrize(
        ("call", "message"),
        [
            (lambda: view_after(DEALT, Event(DrawStock(1))), "view must be a View, got parse_position("),  # type: ignore[arg-type]
            (lambda: view_after(observe(DEALT, 1), DrawStock(1)), "event must be an Event, got DrawStock(seat=1)"),  # type: ignore[arg-type]
            (lambda: view_from_events(None, 0, 1, []), "rules must be a Rules, got None"),  # type: ignore[arg-type]
            (lambda: view_from_events(Rules(), "0", 1, []), "first_dealer must be a seat 0-3, got '0'"),  # type: ignore[arg-type]
            (lambda: view_from_events(Rules(), 0, 1.0, []), "seat must be a seat 0-3, got 1.0"),  # type: ignore[arg-type]
            (lambda: view_from_events(Rules(), 0, 1, "events"), "events must be a sequence of events, got 'events'"),  # type: ignore[arg-type]
            (lambda: view_from_events(Rules(), 0, 1, 3), "events must be a sequence of events, got 3"),  # type: ignore[arg-type]
        ],
    )
    def test_bad_arguments_are_refused(self, call: Any, message: str) -> None:
        with pytest.raises(InvalidTypeError) as info:
            call()
        assert str(info.value).startswith(message)

    def test_a_seat_out_of_range_is_refused(self) -> None:
        with pytest.raises(InvalidValueError, match="seat must be a seat 0-3, got 4"):
            view_from_events(Rules(), 0, 4, [])


class Historian:
    """
    A player that keeps a history: it plays at random and hears every event of its seat.
    """

    def __init__(self) -> None:
        self.heard: list[Event] = []

    def hear(self, event: Event) -> None:
        self.heard.append(event)


class TestListener:
    """
    `Listener`: a player that keeps a history is told each action as its seat saw it.
    """

    def test_a_value_with_hear_is_a_listener(self) -> None:
        assert isinstance(Historian(), Listener)
        assert not isinstance(RandomPlayer(), Listener)

    def test_a_history_gives_the_view(self) -> None:
        rng = random.Random(11)  # noqa: S311 (reproducible play, not cryptography)
        listeners = [Historian() for _ in range(4)]
        state = new_game(dealer=2)
        for _ in range(150):
            action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
            events = events_of(state, action)
            state = apply(state, action)
            for seat, listener in enumerate(listeners):
                listener.hear(events[seat])
        for seat, listener in enumerate(listeners):
            assert 150 == len(listener.heard)
            assert observe(state, seat) == view_from_events(Rules(), 2, seat, listener.heard)


class TestJson:
    """
    Events have a JSON form, of kind ``event``, with the fields of `Event` in order; reading one
    checks it as building one does, and names the path of a problem.
    """

    @given(playouts(rules=rules_variants(), max_actions=120))
    def test_events_of_play_round_trip_and_meet_the_schema(self, playout: Playout) -> None:
        shapes = set()  # validating against the schema is slow: one event of each shape
        for before, action, after in playout.steps:
            for event in set(events_of(before, action, after)):
                assert event == from_json(to_json(event), Event)
                assert event == from_json(to_json(event, pretty=True))
                shape = (event.kind, bool(event.cards), event.hands is None, event.stock is None)
                if shape not in shapes:
                    shapes.add(shape)
                    assert [] == schema_errors(to_data(event))

    def test_the_exact_text_of_events(self) -> None:
        start = '{"format": "persian-rummy", "version": 1, "kind": "event", '
        assert start + (
            '"action": {"type": "draw_stock", "seat": 1}, "cards": ["5h"], "dealer": null, "upcard": null, '
            '"hands": null, "stock": null}'
        ) == to_json(events_of(DEALT, DrawStock(1))[1])
        assert start + (
            '"action": null, "cards": [], "dealer": 0, "upcard": "4h", "hands": null, "stock": null}'
        ) == to_json(events_of(new_game(), Deal(0, FULL_DECK))[4])
        assert start + (
            '"action": {"type": "discard", "seat": 0, "card": "Kd"}, "cards": [], "dealer": null, "upcard": null, '
            '"hands": null, "stock": ["5h", "9c", "Qd"]}'
        ) == to_json(Event(Discard(0, "Kd"), stock="5h 9c Qd"))
        data = to_data(Event(LayDown(0, "Qd Qh Qs"), hands=("", "2c 3c", "4h", "5d")))
        assert [[], ["2c", "3c"], ["4h"], ["5d"]] == data["hands"]

    @staticmethod
    def document(**changes: object) -> Data:
        data = copy.deepcopy(to_data(Event(TakeDiscard(1, "9s"), "9s Kd")))
        data.update(changes)
        return data

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"cards": ["9s", "Kx"]}, "$.cards[1]: expected a card such as 'Qh' or 'X1', got 'Kx'"),
            ({"cards": "9s"}, "$.cards: expected a list of cards, got '9s'"),
            (
                {"action": {"type": "take_discard", "seat": 5, "card": "9s"}},
                "$.action.seat: expected a seat 0-3, got 5",
            ),
            ({"action": {"type": "draw"}}, "$.action.type: expected one of 'deal', 'draw_stock'"),
            ({"action": 1}, "$.action: expected an object, got 1"),
            ({"dealer": "1"}, "$.dealer: expected a seat 0-3, got '1'"),
            ({"upcard": 7}, "$.upcard: expected a card such as 'Qh' or 'X1', got 7"),
            ({"hands": [[], []]}, "$.hands: expected a list of four card lists, one per seat, got a list"),
            ({"hands": [[], [], [], ["2c", "2c"]]}, "$.hands[3][1]: card 2c appears twice in the list"),
            ({"stock": {}}, "$.stock: expected a list of cards, got an object"),
            ({"extra": 1}, "$: unknown field 'extra'"),
            ({"cards": ["Kd"]}, "$: not a valid event: a take from the discard pile shows every card taken, 9s"),
            ({"dealer": 1}, "$: not a valid event: only a deal shows a dealer and an upcard"),
        ],
    )
    def test_bad_documents_are_refused_naming_the_path(self, changes: Data, message: str) -> None:
        data = self.document(**changes)
        assert refusal(data).startswith(message)
        assert refusal(json.loads(json.dumps(data))).startswith(message)

    def test_a_missing_field_and_a_deal_as_the_action_are_refused(self) -> None:
        data = self.document()
        del data["stock"]
        assert "$: missing field 'stock'" == refusal(data)
        assert [] != schema_errors(data)
        deal = self.document(action=to_data(Deal(0, FULL_DECK)) | {"format": None})
        del deal["action"]["format"], deal["action"]["version"], deal["action"]["kind"]
        assert "$.action: a deal is told with no action, its dealer and its upcard" == refusal(deal)

    def test_an_event_document_is_not_another_kind(self) -> None:
        text = to_json(Event(Pass(2)))
        with pytest.raises(InvalidDataError, match=r"^\$: expected a GameState document, got Event$"):
            from_json(text, GameState)
        assert Event(Pass(2)) == from_json(text, Event)

    @given(st.sampled_from(OBSERVERS), st.integers(0, 3))
    def test_a_deal_event_round_trips(self, seat: int | None, dealer: int) -> None:
        event = events_of(new_game(dealer=dealer), Deal(dealer, FULL_DECK))[OBSERVERS.index(seat)]
        assert event == from_data(to_data(event))
        assert [] == schema_errors(to_data(event))
