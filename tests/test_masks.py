"""
Cards as bits (`persian_rummy.masks`): the masks of suits, ranks and jokers, and the engine's card
logic on the integers of `CardSet.mask`, which gives what the engine and the players' building
blocks give of card sets: the melds a hand lays down (R9-R12, A8), the lay-offs onto a meld (R17,
A11), what a meld scores (R23, R25, A20) and the jokers of a play with wild jokers (A7).
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    JOKERS,
    Card,
    CardSet,
    GameState,
    InvalidMeldError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Phase,
    Rank,
    Rules,
    Suit,
    TableMeld,
    legal_actions,
)
from persian_rummy import strategies as library
from persian_rummy.bots.heuristics import meld_value, possible_layoffs, possible_melds
from persian_rummy.masks import (
    ALL_CARDS,
    JOKER_MASK,
    RANK_MASKS,
    SUIT_MASKS,
    lay_downs,
    lay_offs,
    meld_points,
    stand_ins,
)
from tests.positions import meld

ACE_LOW = Rules(ace_low_allowed=True)
WILD = Rules(jokers_wild=True)


def mask(text: str) -> int:
    return CardSet.parse(text).mask


def texts(masks: list[int]) -> list[str]:
    return [str(CardSet(value)) for value in masks]


class TestTheMasks:
    """
    A card set is one integer, `CardSet.mask`: bit ``i`` is the card ``FULL_DECK[i]``, so a suit's
    13 cards, 2 to ace, are 13 consecutive bits, and the jokers are bits 52 to 55.
    """

    def test_the_deck_and_the_jokers(self) -> None:
        assert (CardSet(FULL_DECK).mask, CardSet(JOKERS).mask) == (ALL_CARDS, JOKER_MASK)
        assert ((1 << 56) - 1, 0xF << 52) == (ALL_CARDS, JOKER_MASK)

    def test_the_suits(self) -> None:
        suits = [CardSet(card for card in FULL_DECK if not card.is_joker and card.suit is suit).mask for suit in Suit]
        assert suits == list(SUIT_MASKS)
        assert [0x1FFF << 13 * place for place in range(4)] == list(SUIT_MASKS)

    def test_the_ranks_then_the_jokers(self) -> None:
        ranks = [CardSet(card for card in FULL_DECK if card.rank is rank).mask for rank in Rank]
        assert ranks == list(RANK_MASKS)
        assert JOKER_MASK == RANK_MASKS[Rank.JOKER - 2]
        assert "5c 5d 5h 5s" == str(CardSet(RANK_MASKS[5 - 2]))


class TestLayDowns:
    """
    R9-R12, A8: the melds a hand can lay down, as `possible_melds` gives them, in the order of
    `legal_actions`: the sets, the joker sets, the runs suit by suit, then the runs that take the
    ace low.
    """

    def test_sets_then_runs_then_low_runs(self) -> None:
        hand = mask("Ac 2c 3c 4c Ad 2d 3d X1 X2 X3")
        assert ["X1 X2 X3", "2c 3c 4c"] == texts(lay_downs(hand))
        assert ["X1 X2 X3", "2c 3c 4c", "2c 3c Ac", "2c 3c 4c Ac", "2d 3d Ad"] == texts(lay_downs(hand, ace_low=True))

    @given(st.sets(st.sampled_from(FULL_DECK), max_size=20), st.booleans())
    def test_the_melds_of_possible_melds(self, cards: set[Card], ace_low: bool) -> None:
        hand = CardSet(cards)
        rules = Rules(ace_low_allowed=ace_low)
        assert [meld.mask for meld in possible_melds(hand, rules)] == lay_downs(hand.mask, ace_low=ace_low)

    def test_a_new_list_each_time(self) -> None:
        hand = mask("5c 5d 5h")
        lay_downs(hand).append(0)
        assert [hand] == lay_downs(hand)


class TestLayOffs:
    """
    R17, A11: the groups of a hand that can be laid off onto a meld in one action, as
    `possible_layoffs` gives them: a set's missing card, a run's cards below it, nearest first,
    then above it.
    """

    def test_a_set_and_a_run(self) -> None:
        assert ["Ks"] == texts(lay_offs(meld(0, "Kc Kd Kh"), mask("Ks 5s")))
        assert ["6s", "5s 6s", "Ts"] == texts(lay_offs(meld(0, "7s 8s 9s"), mask("5s 6s Ts Qs Kc")))
        assert [] == lay_offs(meld(0, "7s 8s 9s"), mask("Qs Kc"))

    def test_the_ace_below_the_2_under_a8(self) -> None:
        run = TableMeld(0, "2h 3h 4h", ace_low=True)
        assert ["Ah", "5h"] == texts(lay_offs(run, mask("Ah 5h")))

    @given(library.states(phase=Phase.PLAY))
    def test_the_lay_offs_of_possible_layoffs(self, state: GameState) -> None:
        represented = 0  # with wild jokers, the cards a joker of the table stands for are laid off nowhere (A7)
        for onto in state.melds:
            represented |= onto.represents.mask & ~JOKER_MASK
        hand = state.hands[state.seat_to_act].mask & ~represented
        expected = [(k, cards.mask) for k, cards in possible_layoffs(CardSet(hand), state.melds, state.rules)]
        assert expected == [(k, cards) for k, onto in enumerate(state.melds) for cards in lay_offs(onto, hand)]

    def test_a_card_a_joker_stands_for(self) -> None:
        """
        A7: with jokers wild, a card the table represents (here 4s, for which X1 stands) is laid off nowhere.
        """
        fours = TableMeld(0, "4c 4d X1", stand_ins={"X1": "4s"})
        assert ([], ["4h"]) == (texts(lay_offs(fours, mask("4s"))), texts(lay_offs(fours, mask("4h"))))


class TestMeldPoints:
    """
    R23, R25, A20: what a meld scores laid down, its cards' points, doubled for four laid down at
    once (a set, and a run under `Rules.double_four_card_runs`); with wild jokers (A7) the meld is
    what its cards represent, and each joker scores its own points.
    """

    @pytest.mark.parametrize(
        ("cards", "rules", "points"),
        [
            ("Js Jh Jd Jc", Rules(), 80),
            ("Js Jh Jd Jc", Rules(double_four_of_a_kind=False), 40),
            ("Js Jh Jd", Rules(), 30),
            ("X1 X2 X3 X4", Rules(), 160),
            ("Js Qs Ks As", Rules(), 45),
            ("Js Qs Ks As", Rules(double_four_card_runs=True), 90),
            ("Ac 2c 3c", ACE_LOW, 20),
        ],
    )
    def test_worked_examples(self, cards: str, rules: Rules, points: int) -> None:
        assert points == meld_points(mask(cards), rules)

    def test_jokers_standing_for_cards(self) -> None:
        cards, represents = mask("5h X1 7h"), mask("5h 6h 7h")
        assert 32 == meld_points(cards, WILD, represents=represents)
        with pytest.raises(InvalidMeldError, match=r"^5h 7h X1 is not a set or a run$"):
            meld_points(cards, WILD)

    @given(st.sets(st.sampled_from(FULL_DECK), max_size=14), library.rules())
    def test_the_value_of_meld_value(self, cards: set[Card], rules: Rules) -> None:
        hand = CardSet(cards)
        for found in lay_downs(hand.mask, ace_low=rules.ace_low_allowed):
            assert meld_value(CardSet(found), rules) == meld_points(found, rules)

    def test_not_a_meld(self) -> None:
        with pytest.raises(InvalidMeldError, match=r"^5h 7h 9h is not a set or a run$"):
            meld_points(mask("5h 7h 9h"), Rules())


class TestStandIns:
    """
    A7: a play with wild jokers is offered once, its jokers the first of the seat's (the one taken
    from the pile that must be played first, R15), the lower-numbered standing for the card first
    in `FULL_DECK` order.
    """

    def test_the_first_jokers_by_number(self) -> None:
        hand = mask("5h X2 X3 X4")
        assert "X2=6h X3=7h" == str(stand_ins(hand, mask("7h 6h")))
        assert "X2=6h X4=7h" == str(stand_ins(hand, mask("6h 7h"), first=FULL_DECK.index(JOKERS[3])))
        assert "X2=6h" == str(stand_ins(hand, mask("6h"), first=FULL_DECK.index(JOKERS[0])))

    @given(library.states(rules=WILD, phase=Phase.PLAY))
    def test_the_jokers_of_legal_actions(self, state: GameState) -> None:
        hand = state.hands[state.seat_to_act].mask
        first = None if state.obligation is None else state.obligation.index
        for action in legal_actions(state):
            if isinstance(action, LayDown | LayOff) and action.stand_ins:
                assert action.stand_ins == stand_ins(hand, action.stand_ins.cards.mask, first=first)

    def test_too_few_jokers(self) -> None:
        with pytest.raises(InvalidValueError, match=r"^5h X2 holds 1 jokers, fewer than the 2 cards to stand for$"):
            stand_ins(mask("5h X2"), mask("6h 7h"))
        with pytest.raises(InvalidValueError, match=r"^a joker stands for a natural card, not for X1 \(A7\)$"):
            stand_ins(mask("X1 X2"), mask("X1"))


class TestArguments:
    """
    A mask is an `int` of the deck's 56 bits; anything else is refused with the package's errors.
    """

    @pytest.mark.parametrize("bad", [True, 1.0, "Qh", CardSet("Qh"), None])
    def test_not_an_int(self, bad: object) -> None:
        with pytest.raises(InvalidTypeError, match=r"^hand must be a mask of cards, an int, got "):
            lay_downs(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^mask must be a mask of cards, an int, got "):
            meld_points(bad, Rules())  # type: ignore[arg-type]

    @pytest.mark.parametrize("bad", [-1, 1 << 56])
    def test_not_a_mask_of_the_deck(self, bad: int) -> None:
        with pytest.raises(InvalidValueError, match=r"^hand must be a mask of the 56 cards \(0 to ALL_CARDS\), got "):
            lay_offs(meld(0, "Kc Kd Kh"), bad)
        with pytest.raises(InvalidValueError, match=r"^represents must be a mask of the 56 cards"):
            meld_points(mask("Kc Kd Kh"), Rules(), represents=bad)

    def test_a_meld_and_rules(self) -> None:
        with pytest.raises(InvalidTypeError, match=r"^meld must be a TableMeld, got "):
            lay_offs("Kc Kd Kh", 0)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^rules must be a Rules, got "):
            meld_points(mask("Kc Kd Kh"), None)  # type: ignore[arg-type]
