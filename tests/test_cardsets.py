"""
`CardSet`: immutable sets of the 56 cards (R2), their notation, operators and points (R23).
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import attrs
import pytest

from persian_rummy import (
    DEFAULT_RULES,
    FULL_DECK,
    JOKERS,
    Card,
    CardSet,
    InvalidNotationError,
    InvalidValueError,
    card_points,
)
from tests.positions import cards

ALL_MASK = (1 << 56) - 1


class TestConstruction:
    """
    R2: a card set holds each of the 56 cards at most once; it is built from cards, a mask or notation.
    """

    def test_r2_empty_set(self) -> None:
        empty = CardSet()
        assert 0 == empty.mask
        assert 0 == len(empty)
        assert not empty
        assert "" == str(empty)
        assert [] == list(empty)

    def test_r2_from_cards(self) -> None:
        hand = CardSet(cards("Qh Qs 2c X1"))
        assert CardSet.parse("2c Qh Qs X1") == hand
        assert 4 == len(hand)

    def test_r2_a_repeated_card_is_refused(self) -> None:
        """
        R2: each card is in the deck once, so a card given twice is a mistake, not a set of two.
        """
        with pytest.raises(InvalidValueError, match="card Qh appears twice in"):
            CardSet(cards("Qh Qs Qh"))

    def test_r2_from_a_generator(self) -> None:
        assert CardSet.parse("2c 3c 4c") == CardSet(card for card in FULL_DECK[:3])

    def test_r2_from_another_card_set(self) -> None:
        hand = CardSet.parse("Qh Qs")
        assert hand == CardSet(hand)

    @pytest.mark.parametrize(
        ("mask", "text"),
        [
            (0, ""),
            (1, "2c"),
            (0b111, "2c 3c 4c"),
            (1 << 12, "Ac"),
            (1 << 13, "2d"),
            (1 << 51, "As"),
            (1 << 52, "X1"),
            (1 << 55, "X4"),
            (0xF << 52, "X1 X2 X3 X4"),
        ],
    )
    def test_r2_from_a_mask_bit_i_is_full_deck_i(self, mask: int, text: str) -> None:
        assert text == str(CardSet(mask))
        assert mask == CardSet.parse(text).mask

    def test_r2_the_full_mask_is_the_whole_deck(self) -> None:
        deck = CardSet(ALL_MASK)
        assert 56 == len(deck)
        assert list(FULL_DECK) == list(deck)
        assert deck == CardSet(FULL_DECK)

    @pytest.mark.parametrize("mask", [-1, 1 << 56, ALL_MASK + 1, -(1 << 55)])
    def test_r2_a_mask_outside_56_bits_is_refused(self, mask: int) -> None:
        with pytest.raises(ValueError, match="a card set mask is an int of 56 bits"):
            CardSet(mask)

    @pytest.mark.parametrize("mask", [True, False])
    def test_r2_a_bool_is_not_a_mask(self, mask: bool) -> None:
        with pytest.raises(ValueError, match="a card set mask is an int of 56 bits"):
            CardSet(mask)

    @pytest.mark.parametrize("items", [[12], [None], [Card.parse("Qh"), 5]])
    def test_r2_only_cards_go_into_a_set(self, items: list[object]) -> None:
        with pytest.raises(TypeError, match="each card of a set must be a Card or its notation"):
            CardSet(items)  # type: ignore[arg-type]

    def test_r2_cards_may_be_given_in_notation(self) -> None:
        assert CardSet.parse("Qh Qs") == CardSet(["Qh", Card.parse("Qs")]) == CardSet("QhQs") == CardSet("Qh Qs")

    def test_r2_notation_that_is_no_card_is_refused(self) -> None:
        with pytest.raises(InvalidNotationError, match="not a card: 'Qx'"):
            CardSet(["Qh", "Qx"])

    def test_r2_card_sets_are_immutable(self) -> None:
        hand = CardSet.parse("Qh")
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            hand.mask = 3  # type: ignore[misc]


class TestNotation:
    """
    R2: card sets are written as cards separated by spaces, or written together.
    """

    @pytest.mark.parametrize(
        "text",
        ["Qh Qs Qd", "Qd Qh Qs", "QhQsQd", "  Qs   Qh\tQd\n", "QhQs Qd", "Qs\nQhQd"],
    )
    def test_r2_parse_ignores_order_and_spacing(self, text: str) -> None:
        assert CardSet(cards("Qd Qh Qs")) == CardSet.parse(text)

    def test_r2_parse_accepts_10_for_t(self) -> None:
        assert CardSet.parse("Th Ts") == CardSet.parse("10h 10s")

    def test_r2_parse_of_empty_text_is_the_empty_set(self) -> None:
        assert CardSet() == CardSet.parse("")
        assert CardSet() == CardSet.parse("   ")

    @pytest.mark.parametrize("text", ["Qh Qh", "QhQh", "Qh Qs Qh", "X1 X1", "Th 10h"])
    def test_r2_a_card_written_twice_is_refused(self, text: str) -> None:
        with pytest.raises(InvalidNotationError, match="appears twice"):
            CardSet.parse(text)

    @pytest.mark.parametrize("text", ["Qh QH", "Qh,Qs", "QhQsQ", "X5", "Qh 1s", "Q h"])
    def test_r2_a_token_that_is_not_a_card_is_refused(self, text: str) -> None:
        with pytest.raises(InvalidNotationError, match="not a card"):
            CardSet.parse(text)

    @pytest.mark.parametrize("value", [None, 5, ["Qh"], b"Qh"])
    def test_r2_notation_must_be_a_string(self, value: object) -> None:
        with pytest.raises(InvalidNotationError, match="cards must be written as a string"):
            CardSet.parse(value)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("", "CardSet()"),
            ("Qh", "CardSet.parse('Qh')"),
            ("X1 As 2c Kd", "CardSet.parse('2c Kd As X1')"),
        ],
    )
    def test_r2_repr_is_a_constructor_call(self, text: str, expected: str) -> None:
        assert expected == repr(CardSet.parse(text))

    @pytest.mark.parametrize("text", ["", "Qh", "X1 As 2c Kd", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac X4"])
    def test_r2_repr_evaluates_back(self, text: str) -> None:
        hand = CardSet.parse(text)
        assert hand == eval(repr(hand), {"CardSet": CardSet})  # noqa: S307

    def test_r2_repr_of_the_full_deck_evaluates_back(self) -> None:
        deck = CardSet(ALL_MASK)
        assert deck == eval(repr(deck), {"CardSet": CardSet})  # noqa: S307

    def test_r2_str_lists_cards_in_full_deck_order(self) -> None:
        assert "2c Kd Th As X1" == str(CardSet.parse("X1 As Th 2c Kd"))


class TestIteration:
    """
    R2: a card set iterates in `FULL_DECK` order: clubs, diamonds, hearts, spades (2 to ace), then jokers.
    """

    def test_r2_iteration_order(self) -> None:
        assert list(cards("2c Kd 9h As X1 X3")) == list(CardSet.parse("X3 As 9h X1 Kd 2c"))

    @pytest.mark.parametrize(("text", "size"), [("", 0), ("Qh", 1), ("Qh Qs Qd", 3), ("X1 X2 X3 X4", 4)])
    def test_r2_len(self, text: str, size: int) -> None:
        assert size == len(CardSet.parse(text))

    def test_r2_membership(self) -> None:
        hand = CardSet.parse("Qh Qs X1")
        assert [True, True, True, False, False] == [card in hand for card in cards("Qh Qs X1 Qd X2")]

    @pytest.mark.parametrize("value", [None, Card.parse("Qh").index, CardSet.parse("Qh")])
    def test_r2_only_cards_are_members(self, value: object) -> None:
        assert (value in CardSet.parse("Qh")) is False

    def test_r2_membership_of_a_card_in_notation(self) -> None:
        assert ("Qh" in CardSet.parse("Qh"), "Qs" in CardSet.parse("Qh")) == (True, False)
        with pytest.raises(InvalidNotationError, match="not a card: 'Qx'"):
            assert "Qx" in CardSet.parse("Qh")

    def test_r2_bool_is_true_when_not_empty(self) -> None:
        assert [False, True] == [bool(CardSet()), bool(CardSet.parse("2c"))]


class TestOperators:
    """
    R2: card sets combine with the set operators and compare by value.
    """

    a = CardSet.parse("Qh Qs 2c X1")
    b = CardSet.parse("Qs Kd X1 X2")

    def test_r2_union(self) -> None:
        assert CardSet.parse("2c Kd Qh Qs X1 X2") == self.a | self.b

    def test_r2_intersection(self) -> None:
        assert CardSet.parse("Qs X1") == self.a & self.b

    def test_r2_difference(self) -> None:
        assert CardSet.parse("2c Qh") == self.a - self.b
        assert CardSet.parse("Kd X2") == self.b - self.a

    def test_r2_symmetric_difference(self) -> None:
        assert CardSet.parse("2c Kd Qh X2") == self.a ^ self.b

    def test_r2_subset_and_superset(self) -> None:
        small = CardSet.parse("Qs X1")
        assert [True, True, False, True, True] == [
            small <= self.a,
            self.a >= small,
            self.a <= self.b,
            self.a <= self.a,
            CardSet() <= small,
        ]

    def test_r2_isdisjoint(self) -> None:
        assert [False, True] == [self.a.isdisjoint(self.b), self.a.isdisjoint(CardSet.parse("Kd X2"))]

    def test_r2_operators_return_new_sets_and_leave_operands_alone(self) -> None:
        union = self.a | self.b
        assert CardSet.parse("Qh Qs 2c X1") == self.a
        assert CardSet.parse("Qs Kd X1 X2") == self.b
        assert union is not self.a

    def test_r2_equal_sets_hash_alike(self) -> None:
        assert hash(CardSet.parse("Qh Qs")) == hash(CardSet.parse("QsQh"))
        assert {CardSet.parse("Qh Qs"): 1}[CardSet(cards("Qs Qh"))] == 1

    def test_r2_a_card_set_is_not_equal_to_a_frozenset(self) -> None:
        other: object = frozenset(cards("Qh"))
        assert CardSet.parse("Qh") != other

    @pytest.mark.parametrize("other", [frozenset(), 3, "Qh", None])
    def test_r2_operators_need_card_sets(self, other: object) -> None:
        hand = CardSet.parse("Qh")
        with pytest.raises(TypeError):
            _ = hand | other  # type: ignore[operator]
        with pytest.raises(TypeError):
            _ = hand & other  # type: ignore[operator]
        with pytest.raises(TypeError):
            _ = hand - other  # type: ignore[operator]
        with pytest.raises(TypeError):
            _ = hand ^ other  # type: ignore[operator]
        with pytest.raises(TypeError):
            _ = hand <= other  # type: ignore[operator]
        with pytest.raises(TypeError):
            _ = hand >= other  # type: ignore[operator]


class TestPoints:
    """
    R23 / A19: a set's points are the sum of its cards' values (joker 20, ace 15, K/Q/J/10 10, 2-9 face).
    """

    @pytest.mark.parametrize(
        ("text", "points"),
        [
            ("", 0),
            ("Qh Qs 2c X1", 42),
            ("X1 As Td 5c", 50),
            ("Jc Jd Jh Js", 40),
            ("2c 3c 4c", 9),
            ("Th Jh Qh Kh Ah", 55),
            ("X1 X2 X3 X4", 80),
            ("Ac Ad Ah As", 60),
        ],
    )
    def test_r23_points(self, text: str, points: int) -> None:
        assert points == DEFAULT_RULES.points(CardSet.parse(text))
        assert points == DEFAULT_RULES.points(text)

    def test_r23_the_whole_deck_is_worth_476(self) -> None:
        assert 476 == DEFAULT_RULES.points(CardSet(ALL_MASK))

    def test_r23_points_of_every_single_card(self) -> None:
        assert [card_points(card) for card in FULL_DECK] == [
            DEFAULT_RULES.points(CardSet([card])) for card in FULL_DECK
        ]

    def test_r23_points_of_each_suit_and_the_jokers(self) -> None:
        suits = [DEFAULT_RULES.points(CardSet(0x1FFF << (13 * s))) for s in range(4)]
        assert [99, 99, 99, 99, 80] == [*suits, DEFAULT_RULES.points(CardSet(JOKERS))]
