"""
The public testing kit, `persian_rummy.strategies`: what each strategy generates, what its
examples shrink to, the types Hypothesis knows through the entry point, and `GameMachine`.

Shrink targets are checked with `hypothesis.find`, which returns the smallest example it
finds: they are the values the docstrings promise.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import attrs
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, NoSuchExample, Unsatisfiable
from hypothesis.stateful import run_state_machine_as_test

from persian_rummy import (
    FULL_DECK,
    JOKERS,
    Action,
    Card,
    CardSet,
    CardValues,
    Deal,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    Rules,
    TableMeld,
    TakeDiscard,
    View,
    ViewError,
    apply,
    check_invariants,
    check_view,
    is_legal,
    legal_actions,
    new_game,
    observe,
)
from persian_rummy import strategies as prs
from persian_rummy.engine import max_game_length
from persian_rummy.melds import is_meld, meld_kind
from persian_rummy.rules import TieBreak
from persian_rummy.state import next_dealer

T = TypeVar("T")
#: Rules under which games are short: 13 cards each leave a stock of three.
SHORT_GAMES = Rules(hand_size=13)
PLAYER_ACTIONS = (DrawStock, TakeDiscard, LayDown, LayOff, Discard, Pass)


def anything(_: object) -> bool:
    """
    The condition every example meets: `smallest` then returns the smallest example of all.
    """
    return True


#: `find` without the example database, which would replay examples found for other
#: strategies, and without the phase that explains a failure, which would replay many games.
FIND_SETTINGS = settings(
    database=None, derandomize=True, max_examples=500, phases=[HypothesisPhase.generate, HypothesisPhase.shrink]
)


def smallest(strategy: st.SearchStrategy[T], condition: Callable[[T], bool] = anything) -> T:
    """
    The smallest example of *strategy* that meets *condition*, as `hypothesis.find` shrinks it.
    """
    return find(strategy, condition, settings=FIND_SETTINGS)


def some(strategy: st.SearchStrategy[T], condition: Callable[[T], bool] = anything) -> T:
    """
    An example of *strategy* that meets *condition*, not shrunk.
    """
    return find(strategy, condition, settings=settings(FIND_SETTINGS, phases=[HypothesisPhase.generate]))


def first_state_of_play() -> GameState:
    """
    The state the smallest example of ``states(phase=Phase.PLAY)`` must be: the first game,
    dealt by seat 0 from `FULL_DECK`, after seat 1 drew from the stock.
    """
    dealt = apply(new_game(), Deal(0, FULL_DECK))
    return apply(dealt, DrawStock(1))


def last_varied_switch() -> str:
    """
    The last field of `Rules` that the bounded variants of `rules` set to another value than its
    default (`jokers_wild` while it is the last field; never `top_discard_free`, which is off).
    """
    default = Rules()
    for field in reversed(attrs.fields(Rules)):

        def changed(rules: Rules, name: str = field.name) -> bool:
            return bool(getattr(rules, name) != getattr(default, name))

        try:
            some(prs.rules(), changed)
        except NoSuchExample:
            continue
        return field.name
    msg = "the bounded variants change no switch"
    raise AssertionError(msg)


def assert_well_formed(action: Action) -> None:
    """
    Every field of *action* holds a value of its type and range.
    """
    assert type(action.seat) is int
    assert 0 <= action.seat <= 3
    if isinstance(action, Deal):
        assert sorted(card.index for card in action.deck) == list(range(56))
    if isinstance(action, TakeDiscard | Discard):
        assert type(action.card) is Card
    if isinstance(action, LayDown | LayOff):
        assert type(action.cards) is CardSet
    if isinstance(action, LayOff):
        assert type(action.meld) is int
        assert action.meld >= 0


class TestModule:
    """
    The module is public, names what it offers and needs Hypothesis.
    """

    def test_all(self) -> None:
        """
        `__all__` lists the strategies and the state machine, and each one exists.
        """
        expected = [
            "GameMachine",
            "actions",
            "card_sets",
            "card_values",
            "cards",
            "decks",
            "hands",
            "legal_actions_of",
            "melds",
            "rules",
            "states",
            "table_melds",
            "views",
        ]

        assert expected == prs.__all__
        assert expected == dir(prs)
        assert all(callable(getattr(prs, name)) for name in prs.__all__)

    def test_every_strategy_says_how_it_shrinks(self) -> None:
        """
        Each strategy's docstring says what its examples shrink towards.
        """
        for name in prs.__all__:
            if name != "GameMachine":
                assert "shrink" in (getattr(prs, name).__doc__ or ""), name

    def test_without_hypothesis(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """
        Without Hypothesis, importing the module says how to install it.
        """
        monkeypatch.setitem(sys.modules, "hypothesis", None)
        monkeypatch.delitem(sys.modules, "persian_rummy.strategies")

        with pytest.raises(ImportError) as raised:
            importlib.import_module("persian_rummy.strategies")

        assert "pip install 'persian-rummy[hypothesis]'" in str(raised.value)


class TestCards:
    """
    `cards` and `card_sets`.
    """

    @given(prs.cards())
    def test_cards(self, card: Card) -> None:
        """
        Every example is one of the 56 cards.
        """
        assert card in FULL_DECK

    def test_cards_shrink(self) -> None:
        """
        Cards shrink towards the first card of the deck.
        """
        assert Card.parse("2c") == smallest(prs.cards())
        assert Card.parse("X1") == smallest(prs.cards(), lambda card: card.is_joker)

    @given(st.data(), st.integers(0, 56), st.integers(0, 56))
    def test_card_sets_sizes(self, data: st.DataObject, a: int, b: int) -> None:
        """
        Card sets have from *min_size* to *max_size* cards.
        """
        low, high = min(a, b), max(a, b)

        cards = data.draw(prs.card_sets(low, high))

        assert type(cards) is CardSet
        assert low <= len(cards) <= high

    def test_card_sets_shrink(self) -> None:
        """
        Card sets shrink towards fewer cards, the first of the deck.
        """
        assert CardSet() == smallest(prs.card_sets())
        assert CardSet.parse("2c 3c 4c") == smallest(prs.card_sets(min_size=3))

    @given(prs.hands())
    def test_hands(self, hand: CardSet) -> None:
        """
        Hands hold 0 to 14 cards by default.
        """
        assert 0 <= len(hand) <= 14

    def test_hands_shrink(self) -> None:
        """
        Hands shrink towards seven cards, or the size nearest to seven, the first of the deck.
        """
        assert CardSet.parse("2c 3c 4c 5c 6c 7c 8c") == smallest(prs.hands())
        assert CardSet.parse("2c 3c 4c 5c 6c") == smallest(prs.hands(max_size=5))
        assert CardSet(FULL_DECK[:10]) == smallest(prs.hands(min_size=10, max_size=20))
        assert CardSet(FULL_DECK[:6]) == smallest(prs.hands(), lambda hand: len(hand) < 7)

    @pytest.mark.parametrize(
        ("min_size", "max_size"),
        [(-1, 5), (0, 57), (5, 4), (True, 5), (0, 5.0), ("3", 5)],
    )
    def test_bad_sizes(self, min_size: Any, max_size: Any) -> None:
        """
        Sizes must be ints from 0 to 56, the smaller first.
        """
        with pytest.raises(InvalidArgument):
            prs.card_sets(min_size, max_size)
        with pytest.raises(InvalidArgument):
            prs.hands(min_size=min_size, max_size=max_size)


class TestMelds:
    """
    `melds`: valid sets and runs (R9-R12).
    """

    @given(prs.melds())
    def test_melds(self, meld: CardSet) -> None:
        """
        Every example is a meld.
        """
        assert is_meld(meld)

    @given(prs.melds(MeldKind.RUN))
    def test_runs(self, meld: CardSet) -> None:
        """
        ``kind=MeldKind.RUN`` gives runs only.
        """
        assert MeldKind.RUN is meld_kind(meld)

    @given(prs.melds("set"))
    def test_sets(self, meld: CardSet) -> None:
        """
        ``kind="set"`` gives sets only, joker sets included.
        """
        assert MeldKind.SET is meld_kind(meld)

    @pytest.mark.parametrize(
        ("kind", "condition", "expected"),
        [
            (None, anything, "2c 3c 4c"),
            (None, lambda meld: len(meld) == 4, "2c 3c 4c 5c"),
            (None, lambda meld: len(meld) == 13, "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"),
            (None, lambda meld: meld_kind(meld) is MeldKind.SET, "2c 2d 2h"),
            ("run", anything, "2c 3c 4c"),
            ("set", anything, "2c 2d 2h"),
            ("set", lambda meld: len(meld) == 4, "2c 2d 2h 2s"),
            ("set", lambda meld: Card.parse("2s") in meld, "2c 2d 2s"),
            ("set", lambda meld: JOKERS[0] in meld, "X1 X2 X3"),
            (MeldKind.SET, lambda meld: len(meld & CardSet(JOKERS)) == 4, "X1 X2 X3 X4"),
        ],
    )
    def test_shrink(self, kind: MeldKind | str | None, condition: Any, expected: str) -> None:
        """
        Melds shrink towards runs, short runs, clubs and low cards; sets towards three of a kind
        of low ranks in the first suits.
        """
        assert CardSet.parse(expected) == smallest(prs.melds(kind), condition)

    def test_bad_kind(self) -> None:
        """
        The kind is a meld kind or `None`.
        """
        with pytest.raises(InvalidArgument):
            prs.melds("pair")


class TestDecks:
    """
    `decks`: permutations of the 56 cards.
    """

    @given(prs.decks())
    def test_permutations(self, deck: tuple[Card, ...]) -> None:
        """
        Every example holds each card once.
        """
        assert type(deck) is tuple
        assert sorted(FULL_DECK, key=lambda card: card.index) == sorted(deck, key=lambda card: card.index)

    def test_shrink(self) -> None:
        """
        Decks shrink towards `FULL_DECK`.
        """
        assert FULL_DECK == smallest(prs.decks())


class TestRules:
    """
    `rules`: rule variants.
    """

    @given(prs.rules())
    def test_bounded(self, rules: Rules) -> None:
        """
        Bounded variants keep every game finite.
        """
        assert not rules.top_discard_free
        assert max_game_length(rules) is not None

    def test_shrink(self) -> None:
        """
        Rules shrink towards the defaults, every switch towards its default.
        """
        assert Rules() == smallest(prs.rules())
        assert Rules(hand_size=6) == smallest(prs.rules(), lambda rules: rules.hand_size != 7)
        assert Rules(num_deals=1) == smallest(prs.rules(), lambda rules: rules.num_deals != 2)
        assert Rules(tie_break=TieBreak.EXTRA_DEAL) == smallest(prs.rules(), lambda rules: rules.tie_break != "draw")
        # R23: other card values shrink to none scoring, the first of those tried.
        zeros = Rules(card_values=CardValues(*[0] * 14))
        assert zeros == smallest(prs.rules(), lambda rules: rules.card_values != CardValues())
        assert CardValues() == smallest(prs.card_values())

    def test_unbounded(self) -> None:
        """
        ``bounded=False`` lets the top discard be free, and only then.
        """
        assert Rules(top_discard_free=True) == smallest(prs.rules(bounded=False), lambda rules: rules.top_discard_free)

    def test_every_switch_varies(self) -> None:
        """
        Every switch takes a value other than its default.
        """
        default = Rules()
        for name in [field.name for field in attrs.fields(Rules)]:

            def changed(rules: Rules, name: str = name) -> bool:
                return bool(getattr(rules, name) != getattr(default, name))

            assert [name] == list(smallest(prs.rules(bounded=False), changed).changes())

    def test_bad_bounded(self) -> None:
        """
        *bounded* is True or False.
        """
        with pytest.raises(InvalidArgument):
            prs.rules(bounded=1)  # type: ignore[arg-type]


class TestStates:
    """
    `states`: states reached by legal play, and their knobs.
    """

    @given(prs.states())
    def test_valid(self, state: GameState) -> None:
        """
        Every state passes `check_invariants`.
        """
        check_invariants(state)

    @given(prs.states(phase=Phase.PLAY, deal=2, min_actions=30))
    def test_play_in_second_deal(self, state: GameState) -> None:
        """
        The example of the docstring: the middle of a turn of the second deal.
        """
        check_invariants(state)
        assert (Phase.PLAY, 2) == (state.phase, state.deal)
        assert 1 == len(state.results)

    @pytest.mark.parametrize(
        "knobs",
        [
            {"phase": Phase.DRAW},
            {"phase": "play", "rules": Rules()},
            {"phase": Phase.DEAL_OVER},
            {"phase": Phase.GAME_OVER},
            {"deal": 1},
            {"deal": 3, "rules": Rules(num_deals=3)},
            {"deal": 0},
            {"phase": Phase.DEAL},
            {"deal": 2, "phase": Phase.DEAL_OVER, "rules": Rules(num_deals=3)},
        ],
    )
    def test_knobs(self, knobs: dict[str, Any]) -> None:
        """
        The states meet the phase, the deal and the rules asked for.
        """

        @settings(max_examples=15)
        @given(prs.states(**knobs))
        def check(state: GameState) -> None:
            check_invariants(state)
            if "phase" in knobs:
                assert Phase(knobs["phase"]) is state.phase
            if "deal" in knobs:
                assert knobs["deal"] == state.deal
            if "rules" in knobs:
                assert knobs["rules"] == state.rules

        check()

    @given(st.data())
    def test_number_of_actions(self, data: st.DataObject) -> None:
        """
        *min_actions* and *max_actions* count the actions from `new_game`, deals included:
        0 is the start, 1 the first deal, 2 the first draw.
        """
        count = data.draw(st.integers(0, 2))

        state = data.draw(prs.states(rules=Rules(), min_actions=count, max_actions=count))

        if count == 0:
            assert new_game(dealer=state.dealer) == state
            return
        first = (state.dealer + 1) % 4
        expected = Phase.DRAW if count == 1 else Phase.PLAY
        assert (1, first, expected) == (state.deal, state.to_act, state.phase)
        assert [7 + (count == 2), 7, 7, 7] == [len(state.hands[(first + i) % 4]) for i in range(4)]

    @given(prs.states(max_actions=2))
    def test_max_actions(self, state: GameState) -> None:
        """
        Within two actions, at most the first draw has been made.
        """
        assert state.deal <= 1
        assert state.phase in {Phase.DEAL, Phase.DRAW, Phase.PLAY}
        assert len(state.melds) == 0

    @given(prs.states(min_actions=60, rules=Rules()))
    def test_min_actions(self, state: GameState) -> None:
        """
        After 60 actions the first deal is well under way, or over.
        """
        assert state.deal >= 1
        if state.deal == 1 and state.phase in {Phase.DRAW, Phase.PLAY}:
            assert len(state.stock) < 27

    def test_variants_by_default(self) -> None:
        """
        Without *rules*, states are played under any bounded variant; with a *deal*, under
        variants that have that many deals.  The smallest state of a variant is the new game
        under the smallest variant, which changes the last switch of `Rules` that bounded
        variants change (Hypothesis shrinks the draws of the first switches first).
        """
        varied = smallest(prs.states(), lambda state: state.rules != Rules())
        variant = smallest(prs.rules(), lambda rules: rules != Rules())

        assert new_game(variant) == varied
        assert [last_varied_switch()] == list(variant.changes())
        assert Rules(num_deals=3) == some(prs.states(deal=3)).rules

    def test_shrink(self) -> None:
        """
        States shrink towards the default rules, dealer 0, decks in `FULL_DECK` order, and the
        first state of the game that meets the knobs.
        """
        assert new_game() == smallest(prs.states())
        assert first_state_of_play() == smallest(prs.states(phase=Phase.PLAY))

    def test_shrink_second_deal(self) -> None:
        """
        In the second deal, the smallest example is the first draw after dealing `FULL_DECK`.
        """
        state = smallest(prs.states(phase=Phase.PLAY, deal=2, min_actions=30))

        assert (Rules(), 1, 2) == (state.rules, state.dealer, state.to_act)
        assert CardSet([*FULL_DECK[0:28:4], FULL_DECK[29]]) == state.hands[2]
        assert (FULL_DECK[28],) == state.discard_pile

    def test_game_that_cannot_meet_the_knobs(self) -> None:
        """
        A game that cannot meet the knobs is rejected; when none can, nothing is found.
        """
        with pytest.raises(Unsatisfiable):
            smallest(prs.states(deal=2, rules=st.just(Rules(num_deals=1))))

    @pytest.mark.parametrize(
        "knobs",
        [
            {"deal": -1},
            {"deal": 102},
            {"deal": "1"},
            {"phase": "lunch"},
            {"min_actions": -1},
            {"min_actions": 5, "max_actions": 4},
            {"max_actions": 1.5},
            {"phase": Phase.DEAL, "deal": 1},
            {"phase": Phase.DRAW, "deal": 0},
            {"phase": Phase.DEAL, "min_actions": 1},
            {"deal": 3, "rules": Rules()},
            {"min_actions": 1000, "rules": Rules()},
            {"rules": "default"},
        ],
    )
    def test_bad_knobs(self, knobs: dict[str, Any]) -> None:
        """
        Knobs of the wrong type or range, or that no game can meet, are refused at once.
        """
        with pytest.raises(InvalidArgument):
            prs.states(**knobs)


class TestLegalActionsOf:
    """
    `legal_actions_of`: legal actions, and deals at chance nodes.
    """

    @given(
        prs.states()
        .filter(lambda state: state.phase is not Phase.GAME_OVER)
        .flatmap(lambda state: st.tuples(st.just(state), prs.legal_actions_of(state)))
    )
    def test_legal(self, example: tuple[GameState, Action]) -> None:
        """
        Every action applies; a deal is by the next dealer, of a whole deck.
        """
        state, action = example

        after = apply(state, action)

        check_invariants(after)
        if state.is_chance_node:
            assert isinstance(action, Deal)
            assert next_dealer(state) == action.seat
        else:
            assert action in legal_actions(state)

    @given(
        prs.states(phase=Phase.PLAY).flatmap(
            lambda state: st.tuples(st.just(state), prs.legal_actions_of(observe(state, state.to_act)))
        )
    )
    def test_view(self, example: tuple[GameState, Action]) -> None:
        """
        The view of the seat to act has the same legal actions as the state.
        """
        state, action = example

        assert action in legal_actions(state)

    def test_view_at_chance_node(self) -> None:
        """
        At a chance node a view gives a deal by the next dealer too.
        """
        state = some(prs.states(phase=Phase.DEAL_OVER, rules=SHORT_GAMES))

        deal = smallest(prs.legal_actions_of(observe(state, 2)))

        assert Deal(next_dealer(state), FULL_DECK) == deal

    def test_view_of_another_seat(self) -> None:
        """
        The view of a seat that is not to act cannot tell the legal actions.
        """
        state = first_state_of_play()

        with pytest.raises(ViewError):
            prs.legal_actions_of(observe(state, 0))

    def test_shrink(self) -> None:
        """
        Legal actions shrink towards the first one; deals towards `FULL_DECK`.
        """
        state = apply(new_game(), Deal(0, FULL_DECK))

        assert DrawStock(1) == smallest(prs.legal_actions_of(state))
        assert Deal(0, FULL_DECK) == smallest(prs.legal_actions_of(new_game()))
        assert legal_actions(first_state_of_play())[0] == smallest(prs.legal_actions_of(first_state_of_play()))

    def test_game_over(self) -> None:
        """
        A finished game has no legal action to draw.
        """
        over = some(prs.states(phase=Phase.GAME_OVER, rules=SHORT_GAMES))

        with pytest.raises(Unsatisfiable):
            smallest(prs.legal_actions_of(over))

    def test_bad_state(self) -> None:
        """
        The argument is a state or a view.
        """
        with pytest.raises(InvalidArgument):
            prs.legal_actions_of("- 0/N deal")  # type: ignore[arg-type]


class TestActions:
    """
    `actions`: well-formed actions, legal or not.
    """

    @given(prs.actions())
    def test_well_formed(self, action: Action) -> None:
        """
        Without a state: actions of every type with fields in range.
        """
        assert_well_formed(action)

    def test_every_type(self) -> None:
        """
        Every type of action is generated.
        """
        for kind in (*PLAYER_ACTIONS, Deal):

            def of_kind(action: Action, kind: type[Action] = kind) -> bool:
                return isinstance(action, kind)

            assert isinstance(some(prs.actions(), of_kind), kind)

    @given(prs.states().flatmap(lambda state: st.tuples(st.just(state), prs.actions(state))))
    def test_around_a_state(self, example: tuple[GameState, Action]) -> None:
        """
        With a state: well-formed actions that `apply` either applies or rejects with
        `IllegalActionError`; meld indices run up to one past the last meld.
        """
        state, action = example

        assert_well_formed(action)
        if isinstance(action, LayOff):
            assert action.meld <= len(state.melds)
        try:
            check_invariants(apply(state, action))
        except IllegalActionError:
            assert not is_legal(state, action)

    def test_legal_and_illegal(self) -> None:
        """
        Around a state both legal and illegal actions come up.
        """
        state = first_state_of_play()

        assert is_legal(state, smallest(prs.actions(state), lambda action: is_legal(state, action)))
        assert not is_legal(state, smallest(prs.actions(state), lambda action: not is_legal(state, action)))

    def test_shrink(self) -> None:
        """
        Actions shrink towards a draw from the stock: by seat 0, or by the seat to act.
        """
        state = first_state_of_play()

        assert DrawStock(0) == smallest(prs.actions())
        assert DrawStock(1) == smallest(prs.actions(state))
        assert LayDown(0, CardSet("2c")) == smallest(prs.actions(), lambda action: isinstance(action, LayDown))

    def test_bad_state(self) -> None:
        """
        The argument is a state or `None`.
        """
        with pytest.raises(InvalidArgument):
            prs.actions(observe(new_game()))  # type: ignore[arg-type]

    def test_stand_ins_under_jokers_wild(self) -> None:
        """
        A7: under `Rules.jokers_wild`, around a state whose seat holds a joker, plays with jokers
        standing for cards come up, legal and illegal; states come with melds of jokers standing for cards.
        """
        wild = Rules(jokers_wild=True)
        state = apply(apply(new_game(wild), Deal(0, FULL_DECK[::-1])), DrawStock(1))
        assert (Phase.PLAY, "2h 7h Jh 2s 6s Ts As X4") == (state.phase, str(state.hands[1]))

        def played(legal: bool) -> Callable[[Action], bool]:
            def check(action: Action) -> bool:
                return (
                    isinstance(action, LayDown | LayOff) and bool(action.stand_ins) and is_legal(state, action) is legal
                )

            return check

        assert is_legal(state, some(prs.actions(state), played(legal=True)))
        assert not is_legal(state, some(prs.actions(state), played(legal=False)))
        meld = some(prs.table_melds(), lambda meld: bool(meld.stand_ins))
        assert meld.represents != meld.cards


class TestViews:
    """
    `views`: what a seat, or a spectator, sees of reachable states.
    """

    @given(prs.views())
    def test_valid(self, view: View) -> None:
        """
        Every view passes `check_view`.
        """
        check_view(view)

    @given(st.data(), st.sampled_from([0, 1, 2, 3, None]))
    def test_given_seat(self, data: st.DataObject, seat: int | None) -> None:
        """
        A given seat, or `None`, fixes whose view it is.
        """
        view = data.draw(prs.views(states=prs.states(max_actions=20), seat=seat))

        assert seat == view.seat
        check_view(view)

    @given(prs.views(states=first_state_of_play(), seat=st.sampled_from([2, None])))
    def test_given_state_and_seat_strategy(self, view: View) -> None:
        """
        *states* may be a state, and *seat* a strategy.
        """
        assert view in {observe(first_state_of_play(), 2), observe(first_state_of_play())}

    def test_shrink(self) -> None:
        """
        Views shrink towards the view of the seat to act of the smallest state.
        """
        assert observe(new_game(), 0) == smallest(prs.views())
        assert observe(new_game()) == smallest(prs.views(), lambda view: view.seat is None)
        state = first_state_of_play()
        assert observe(state, 1) == smallest(prs.views(states=prs.states(phase=Phase.PLAY)))

    @pytest.mark.parametrize("seat", [4, -1, True, "N", 1.0])
    def test_bad_seat(self, seat: Any) -> None:
        """
        A seat is 0-3 or `None`.
        """
        with pytest.raises(InvalidArgument):
            prs.views(seat=seat)
        with pytest.raises(InvalidArgument):
            smallest(prs.views(seat=st.just(seat)))

    def test_bad_states(self) -> None:
        """
        *states* is a state, a strategy or `None`.
        """
        with pytest.raises(InvalidArgument):
            prs.views(states=[new_game()])  # type: ignore[arg-type]


class TestFromType:
    """
    The ``hypothesis`` entry point registers a strategy for each of the package's types.
    """

    def test_entry_point(self) -> None:
        """
        The package declares the hook as its ``hypothesis`` entry point.
        """
        hooks = [entry.value for entry in importlib.metadata.entry_points(group="hypothesis")]

        assert "persian_rummy._internal.hypothesis_hook:_hypothesis_setup_hook" in hooks

    @given(st.from_type(Card), st.from_type(CardSet), st.from_type(Rules), st.from_type(CardValues))
    def test_values(self, card: Card, cards: CardSet, rules: Rules, values: CardValues) -> None:
        """
        Cards, card sets, rules and card values (R23).
        """
        assert card in FULL_DECK
        assert type(cards) is CardSet
        assert not rules.top_discard_free
        assert all(0 <= value <= 1000 for value in values.by_rank)

    @settings(max_examples=20)
    @given(st.from_type(GameState), st.from_type(View))
    def test_states_and_views(self, state: GameState, view: View) -> None:
        """
        Reachable states and their views.
        """
        check_invariants(state)
        check_view(view)

    @settings(max_examples=20)
    @given(st.from_type(TableMeld))
    def test_table_melds(self, meld: TableMeld) -> None:
        """
        Melds from the table of reachable states, valid with their lay-offs.
        """
        assert meld == TableMeld(
            meld.owner, meld.laid_down, meld.layoffs, ace_low=meld.ace_low, stand_ins=meld.stand_ins
        )
        rules = Rules(ace_low_allowed=meld.ace_low, jokers_wild=bool(meld.stand_ins))
        assert is_meld(meld.cards, rules, stand_ins=meld.stand_ins or None)

    @pytest.mark.parametrize("kind", [Deal, *PLAYER_ACTIONS])
    def test_actions(self, kind: type[Action]) -> None:
        """
        Each type of action gives well-formed actions of that type.
        """

        @settings(max_examples=20)
        @given(st.from_type(kind))
        def check(action: Action) -> None:
            assert type(action) is kind
            assert_well_formed(action)

        check()

    @given(st.from_type(Action))  # type: ignore[arg-type]
    def test_action_alias(self, action: Action) -> None:
        """
        The `Action` alias draws from every type of action.
        """
        assert_well_formed(action)

    def test_shrink(self) -> None:
        """
        The registered strategies shrink as the module's own.
        """
        assert Card.parse("2c") == smallest(st.from_type(Card))
        assert new_game() == smallest(st.from_type(GameState))
        assert DrawStock(0) == smallest(st.from_type(DrawStock))
        assert LayDown(0, CardSet("2c")) == smallest(st.from_type(LayDown))


# -- GameMachine ------------------------------------------------------------------------------------------------


class RecordingMachine(prs.GameMachine):
    """
    Games driven through hooks that record each call and check what they are given.
    """

    step_count = 15
    calls: ClassVar[Counter[str]] = Counter()

    def on_start(self, state: GameState) -> None:
        assert state.phase is Phase.DEAL
        assert not self.history
        self.calls["start"] += 1

    def on_apply(self, before: GameState, action: Action, after: GameState) -> None:
        assert apply(before, action) == after
        assert after is self.state
        assert action is self.history[-1]
        if len(self.history) == 1:
            assert isinstance(action, Deal)
        self.calls["apply"] += 1
        self.calls[type(action).__name__] += 1
        self.calls[after.phase.value] += 1

    def on_reject(self, state: GameState, action: Action, error: IllegalActionError) -> None:
        assert state is self.state
        assert not is_legal(state, action)
        assert action is error.action
        self.calls["reject"] += 1


TestRecordingMachine = RecordingMachine.TestCase


class DefaultRulesMachine(prs.GameMachine):
    """
    Games under Persian Rummy's own rules only.
    """

    rules_strategy = st.just(Rules())
    step_count = 5

    def on_start(self, state: GameState) -> None:
        assert Rules() == state.rules


TestDefaultRulesMachine = DefaultRulesMachine.TestCase


class TestGameMachine:
    """
    `GameMachine` deals, plays, tries illegal actions and calls the hooks.
    """

    def test_hooks(self) -> None:
        """
        A run calls every hook; games reach their ends.
        """
        RecordingMachine.calls.clear()

        run_state_machine_as_test(
            RecordingMachine,
            settings=settings(max_examples=20, stateful_step_count=15, derandomize=True, database=None),
        )

        calls = RecordingMachine.calls
        assert calls["start"] > 0
        assert calls["Deal"] >= calls["start"]
        assert all(calls[kind.__name__] for kind in PLAYER_ACTIONS)
        assert calls["reject"] > 0
        assert calls["game_over"] > 0
        assert calls["deal_over"] > 0

    def test_step_count(self) -> None:
        """
        `step_count` sets the number of steps of a run.
        """
        assert 15 == RecordingMachine.TestCase.settings.stateful_step_count
        assert 5 == DefaultRulesMachine.TestCase.settings.stateful_step_count

    def test_bad_step_count(self) -> None:
        """
        The number of steps is a positive int.
        """
        with pytest.raises(InvalidArgument):

            class NoSteps(prs.GameMachine):
                step_count = 0

    def test_rejection_must_not_change_the_state(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """
        A rejected action that changed the state fails the run, even though the error was raised.
        """

        def corrupting_apply(state: GameState, action: Action) -> GameState:
            try:
                return apply(state, action)
            except IllegalActionError:
                object.__setattr__(state, "passes", state.passes + 1)
                raise

        monkeypatch.setattr(prs, "apply", corrupting_apply)

        with pytest.raises(AssertionError, match="changed the state"):
            run_state_machine_as_test(
                RecordingMachine,
                settings=settings(max_examples=20, derandomize=True, database=None, phases=[HypothesisPhase.generate]),
            )

    def test_finds_a_bug(self) -> None:
        """
        A hook that disagrees with the engine fails the run: here a toy server that only
        checks whose turn it is.
        """

        class LenientServer(prs.GameMachine):
            step_count = 10

            def on_reject(self, state: GameState, action: Action, error: IllegalActionError) -> None:  # noqa: ARG002
                if action.seat == state.to_act:
                    msg = f"the server accepted {action!r}"
                    raise AssertionError(msg)

        with pytest.raises(AssertionError, match="the server accepted"):
            run_state_machine_as_test(
                LenientServer,
                settings=settings(
                    max_examples=200,
                    stateful_step_count=10,
                    derandomize=True,
                    database=None,
                    phases=[HypothesisPhase.generate],
                    suppress_health_check=list(HealthCheck),
                ),
            )
