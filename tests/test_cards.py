"""
Cards: the 56-card deck, ranks and suits, points, notation and sort keys (R2, R3, R23, A19).
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import pickle

import attrs
import pytest

from persian_rummy import (
    DEFAULT_RULES,
    FULL_DECK,
    JOKERS,
    Card,
    InvalidNotationError,
    PersianRummyError,
    Rank,
    Suit,
    card_points,
)
from persian_rummy.cards import by_rank, by_suit

NATURALS = FULL_DECK[:52]


def parse_all(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


def notation(cards: list[Card]) -> str:
    return " ".join(str(card) for card in cards)


class TestDeck:
    """
    R2: "56 cards: the 52-card French deck plus 4 Jokers. [...] The 52 cards are all distinct;
    the 4 Jokers are equal in rank (they may be distinct objects for identity but are
    interchangeable for rules)."
    """

    def test_r2_the_deck_has_56_cards(self) -> None:
        assert 56 == len(FULL_DECK)

    def test_r2_all_56_cards_are_distinct(self) -> None:
        assert 56 == len(set(FULL_DECK))
        assert 56 == len({str(card) for card in FULL_DECK})

    def test_r2_52_naturals_one_of_each_rank_and_suit(self) -> None:
        expected = {(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER}
        assert expected == {(card.rank, card.suit) for card in NATURALS}
        assert 52 == len(expected)

    def test_r2_four_distinguishable_jokers(self) -> None:
        assert FULL_DECK[52:] == JOKERS
        assert ["X1", "X2", "X3", "X4"] == [str(joker) for joker in JOKERS]
        assert 4 == len(set(JOKERS))
        assert [1, 2, 3, 4] == [joker.joker_number for joker in JOKERS]

    def test_r2_jokers_share_one_rank_and_have_no_suit(self) -> None:
        assert {Rank.JOKER} == {joker.rank for joker in JOKERS}
        assert {None} == {joker.suit for joker in JOKERS}
        assert [True, True, True, True] == [joker.is_joker for joker in JOKERS]

    def test_r2_no_natural_card_is_a_joker(self) -> None:
        assert [] == [card for card in NATURALS if card.is_joker]
        assert {0} == {card.joker_number for card in NATURALS}

    def test_r2_full_deck_order_is_clubs_diamonds_hearts_spades_then_jokers(self) -> None:
        assert "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac" == notation(list(FULL_DECK[:13]))
        assert "2d Ad 2h Ah 2s As" == notation([FULL_DECK[i] for i in (13, 25, 26, 38, 39, 51)])

    def test_r2_index_is_the_place_in_the_full_deck(self) -> None:
        assert list(range(56)) == [card.index for card in FULL_DECK]

    def test_r2_joker_constructor_gives_the_numbered_joker(self) -> None:
        assert list(JOKERS) == [Card.joker(n) for n in (1, 2, 3, 4)]


class TestSuitsAndRanks:
    """
    R3: "2 (low) … 10, J, Q, K, A (high). Jokers stand outside the sequence order."
    """

    def test_r3_four_suits_with_their_letters(self) -> None:
        assert [("CLUBS", "c"), ("DIAMONDS", "d"), ("HEARTS", "h"), ("SPADES", "s")] == [
            (suit.name, suit.value) for suit in Suit
        ]

    def test_r3_suit_symbols(self) -> None:
        assert ["♣", "♦", "♥", "♠"] == [suit.symbol for suit in Suit]

    def test_r3_ranks_in_playing_order_two_low_ace_high(self) -> None:
        assert list(range(2, 16)) == [int(rank) for rank in Rank]
        assert Rank.TWO < Rank.THREE < Rank.TEN < Rank.JACK < Rank.QUEEN < Rank.KING < Rank.ACE

    def test_r3_rank_letters(self) -> None:
        assert "23456789TJQKAX" == "".join(rank.letter for rank in Rank)

    def test_r3_the_ace_is_the_highest_natural_rank(self) -> None:
        assert Rank.ACE == max(card.rank for card in NATURALS)
        assert Rank.TWO == min(card.rank for card in NATURALS)


class TestPoints:
    """
    R23 / A19: "Joker 20; Ace 15; K, Q, J 10; 2–9 face value; 10 = 10. Aces are always 15."
    """

    @pytest.mark.parametrize(
        ("rank", "points"),
        [
            (Rank.TWO, 2),
            (Rank.THREE, 3),
            (Rank.FOUR, 4),
            (Rank.FIVE, 5),
            (Rank.SIX, 6),
            (Rank.SEVEN, 7),
            (Rank.EIGHT, 8),
            (Rank.NINE, 9),
            (Rank.TEN, 10),
            (Rank.JACK, 10),
            (Rank.QUEEN, 10),
            (Rank.KING, 10),
            (Rank.ACE, 15),
            (Rank.JOKER, 20),
        ],
    )
    def test_r23_points_of_every_rank(self, rank: Rank, points: int) -> None:
        assert points == DEFAULT_RULES.card_values[rank]
        cards = [card for card in FULL_DECK if card.rank is rank]
        assert 4 == len(cards)
        assert [points] * 4 == [DEFAULT_RULES.points(card) for card in cards]
        assert [points] * 4 == [card_points(card) for card in cards]

    def test_a19_a_ten_is_worth_ten(self) -> None:
        assert [10, 10, 10, 10] == [card_points(f"T{suit.value}") for suit in Suit]

    def test_r23_examples_from_card_notation(self) -> None:
        assert [20, 15, 10, 10, 10, 10, 9, 2] == [card_points(card) for card in parse_all("X1 As Kd Qc Jh Th 9c 2s")]

    def test_r23_the_whole_deck_is_worth_476(self) -> None:
        assert 476 == sum(card_points(card) for card in FULL_DECK)

    def test_r23_one_suit_is_worth_99_and_the_jokers_80(self) -> None:
        assert [99, 99, 99, 99] == [sum(map(card_points, FULL_DECK[13 * s : 13 * s + 13])) for s in range(4)]
        assert 80 == sum(card_points(joker) for joker in JOKERS)


class TestNotation:
    """
    R2: card notation, rank then suit (``Qh``, ``Th``) or ``X1``-``X4`` for the jokers.
    """

    @pytest.mark.parametrize("card", FULL_DECK, ids=str)
    def test_r2_parse_of_str_round_trips_every_card(self, card: Card) -> None:
        assert card == Card.parse(str(card))
        assert Card.parse(str(card)) is card

    @pytest.mark.parametrize("card", FULL_DECK, ids=str)
    def test_r2_repr_is_python_that_evaluates_back(self, card: Card) -> None:
        assert f"Card.parse({str(card)!r})" == repr(card)
        assert card == eval(repr(card), {"Card": Card})  # noqa: S307

    @pytest.mark.parametrize(
        ("text", "rank", "suit"),
        [
            ("2c", Rank.TWO, Suit.CLUBS),
            ("9d", Rank.NINE, Suit.DIAMONDS),
            ("Th", Rank.TEN, Suit.HEARTS),
            ("Js", Rank.JACK, Suit.SPADES),
            ("Qh", Rank.QUEEN, Suit.HEARTS),
            ("Kd", Rank.KING, Suit.DIAMONDS),
            ("Ac", Rank.ACE, Suit.CLUBS),
            ("X3", Rank.JOKER, None),
        ],
    )
    def test_r2_parse_reads_rank_and_suit(self, text: str, rank: Rank, suit: Suit | None) -> None:
        card = Card.parse(text)
        assert (rank, suit) == (card.rank, card.suit)

    @pytest.mark.parametrize("suit", ["c", "d", "h", "s"])
    def test_r2_ten_may_be_written_10(self, suit: str) -> None:
        assert Card.parse(f"T{suit}") == Card.parse(f"10{suit}")

    @pytest.mark.parametrize(
        "text",
        [
            "1x",
            "",
            " ",
            "Xh",
            "X",
            "X0",
            "X5",
            "QH",
            "qh",
            "Qx",
            "Q",
            "h",
            "1h",
            "11h",
            "10",
            "10X",
            "Qhh",
            " Qh",
            "Qh ",
            "Q h",
            "Qh Qs",
            "JK",
            "♥Q",
            "Q♥",
        ],
    )
    def test_r2_bad_notation_raises(self, text: str) -> None:
        with pytest.raises(InvalidNotationError, match="not a card"):
            Card.parse(text)

    @pytest.mark.parametrize("value", [None, 12, 1.5, b"Qh", ["Qh"], ("Q", "h")])
    def test_r2_non_strings_raise_invalid_notation(self, value: object) -> None:
        with pytest.raises(InvalidNotationError):
            Card.parse(value)  # type: ignore[arg-type]

    def test_r2_invalid_notation_is_a_value_error_and_a_library_error(self) -> None:
        with pytest.raises(ValueError, match="not a card: 'Zz'"):
            Card.parse("Zz")
        assert issubclass(InvalidNotationError, PersianRummyError)

    def test_r2_parsing_a_card_instance_is_refused(self) -> None:
        with pytest.raises(InvalidNotationError):
            Card.parse(Card.parse("Qh"))  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("text", "symbol"),
        [("Qh", "Q♥"), ("Tc", "10♣"), ("Ad", "A♦"), ("2s", "2♠"), ("X1", "🃏1"), ("X4", "🃏4")],
    )
    def test_r2_display_symbols(self, text: str, symbol: str) -> None:
        assert symbol == Card.parse(text).symbol


class TestSortKeys:
    """
    R3: cards have no global order; `by_rank` and `by_suit` are explicit sort keys.
    """

    def test_r3_by_rank_orders_two_to_ace_then_jokers_suits_breaking_ties(self) -> None:
        cards = parse_all("X2 As 2d Kh Ts 2c X1 Ac Th 9s")
        assert "2c 2d 9s Th Ts Kh Ac As X1 X2" == notation(sorted(cards, key=by_rank))

    def test_r3_by_suit_orders_clubs_diamonds_hearts_spades_then_jokers(self) -> None:
        cards = parse_all("X2 As 2d Kh Ts 2c X1 Ac Th 9s")
        assert "2c Ac 2d Th Kh 9s Ts As X1 X2" == notation(sorted(cards, key=by_suit))

    def test_r3_by_suit_reproduces_the_full_deck(self) -> None:
        shuffled = FULL_DECK[1::2] + FULL_DECK[::2]
        assert list(FULL_DECK) == sorted(shuffled, key=by_suit)

    def test_r3_by_rank_groups_all_four_cards_of_each_rank(self) -> None:
        ordered = sorted(FULL_DECK, key=by_rank)
        assert "2c 2d 2h 2s 3c" == notation(ordered[:5])
        assert "Ac Ad Ah As X1 X2 X3 X4" == notation(ordered[-8:])

    def test_r3_by_rank_sample_of_the_deck(self) -> None:
        assert "2c 3h 7d 8s Jc Qh X3" == notation(sorted(FULL_DECK[::9], key=by_rank))

    def test_r3_cards_have_no_less_than(self) -> None:
        low, high = Card.parse("2c"), Card.parse("As")
        with pytest.raises(TypeError):
            _ = low < high  # type: ignore[operator]
        with pytest.raises(TypeError):
            sorted([high, low])  # type: ignore[type-var]


class TestIdentity:
    """
    R2: two cards are equal when they are the same card of the deck; cards are immutable values.
    """

    def test_r2_equal_cards_hash_alike(self) -> None:
        assert Card(Rank.QUEEN, Suit.HEARTS) == Card.parse("Qh")
        assert hash(Card(Rank.QUEEN, Suit.HEARTS)) == hash(Card.parse("Qh"))
        assert Card.parse("Qh") != Card.parse("Qd")

    def test_r2_jokers_are_distinct_cards(self) -> None:
        assert Card.parse("X1") != Card.parse("X2")

    def test_r2_a_card_is_not_equal_to_its_notation(self) -> None:
        assert Card.parse("Qh") != "Qh"
        assert Card.parse("Qh").__eq__("Qh") is NotImplemented

    def test_r2_cards_are_immutable(self) -> None:
        card = Card.parse("Qh")
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            card.rank = Rank.KING  # type: ignore[misc]

    def test_r2_cards_pickle_to_the_same_card(self) -> None:
        assert list(FULL_DECK) == [pickle.loads(pickle.dumps(card)) for card in FULL_DECK]  # noqa: S301


class TestConstructor:
    """
    R2: a natural card has a rank and a suit; a joker has no suit and a number 1-4.
    """

    @pytest.mark.parametrize(
        ("suit", "number"),
        [(Suit.HEARTS, 1), (None, 0), (None, 5), (None, -1), (None, True), (Suit.SPADES, 0)],
    )
    def test_r2_invalid_joker(self, suit: Suit | None, number: int) -> None:
        with pytest.raises(ValueError, match="a joker has no suit and a number from 1 to 4"):
            Card(Rank.JOKER, suit, number)

    @pytest.mark.parametrize(
        ("suit", "number"),
        [(None, 0), (Suit.HEARTS, 1), (None, 1), ("h", 0)],
    )
    def test_r2_invalid_natural_card(self, suit: object, number: int) -> None:
        with pytest.raises(ValueError, match="a queen needs a suit and no joker number"):
            Card(Rank.QUEEN, suit, number)  # type: ignore[arg-type]

    @pytest.mark.parametrize("rank", [12, "Q", None])
    def test_r2_rank_must_be_a_rank(self, rank: object) -> None:
        with pytest.raises(TypeError, match="rank must be a Rank"):
            Card(rank, Suit.HEARTS)  # type: ignore[arg-type]

    def test_r2_the_constructor_builds_every_card_of_the_deck(self) -> None:
        built = [Card(card.rank, card.suit, card.joker_number) for card in FULL_DECK]
        assert list(FULL_DECK) == built
        assert list(range(56)) == [card.index for card in built]
