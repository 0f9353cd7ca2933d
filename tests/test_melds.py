"""
Melds: sets and runs (R9-R12, A7, A8) and the melds on the table (`TableMeld`: R17, R25, R26).
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import pytest

from persian_rummy import (
    Card,
    CardSet,
    InvalidMeldError,
    InvalidTypeError,
    InvalidValueError,
    MeldKind,
    PersianRummyError,
    Rank,
    Suit,
    TableMeld,
)
from persian_rummy.melds import is_meld, meld_kind
from tests.positions import cards, meld


def kind(text: str) -> MeldKind | None:
    return meld_kind(CardSet.parse(text))


VALID_SETS = [
    "2c 2d 2h",
    "2c 2d 2h 2s",
    "Qh Qs Qd",
    "Qc Qd Qh Qs",
    "Tc Td Th",
    "Jd Jh Js",
    "Kc Kh Ks",
    "Ac Ad As",
    "Ac Ad Ah As",
    "4s 4d 4h",
    "X1 X2 X3",
    "X2 X3 X4",
    "X1 X2 X4",
    "X1 X2 X3 X4",
]

INVALID_SETS = [
    pytest.param("", id="empty"),
    pytest.param("Qh", id="one card"),
    pytest.param("Qh Qs", id="two of a rank"),
    pytest.param("X1 X2", id="two jokers"),
    pytest.param("Qh Qs Kd", id="two ranks"),
    pytest.param("Jc Qc Kd", id="J-Q-K is not a set"),
    pytest.param("Qc Qd Qh Ks", id="four cards, two ranks"),
    pytest.param("X1 Qh Qs", id="joker with two naturals (A7)"),
    pytest.param("X1 X2 Qh", id="two jokers with a natural (A7)"),
    pytest.param("X1 Qh Qs Qd", id="joker with a natural set (A7)"),
    pytest.param("X1 X2 X3 Qh", id="three jokers with a natural (A7)"),
    pytest.param("X1 X2 X3 X4 Qh", id="five cards"),
    pytest.param("Qc Qd Qh Qs X1", id="four of a rank and a joker"),
]

VALID_RUNS = [
    "2c 3c 4c",
    "3d 4d 5d",
    "9h Th Jh",
    "Qs Ks As",
    "Js Qs Ks As",
    "Th Jh Qh Kh Ah",
    "5d 6d 7d 8d 9d Td",
    "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks",
    "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
]

INVALID_RUNS = [
    pytest.param("2c 3c", id="two cards"),
    pytest.param("Ks As", id="two cards at the top"),
    pytest.param("Ac 2c 3c", id="A-2-3: the ace is never low (R12, A8)"),
    pytest.param("Ac 2c 3c 4c", id="A-2-3-4"),
    pytest.param("Kc Ac 2c", id="K-A-2: no wrap-around"),
    pytest.param("Qd Kd Ad 2d", id="Q-K-A-2: no wrap-around"),
    pytest.param("Kh Ah 2h 3h", id="K-A-2-3"),
    pytest.param("2c 3c 5c", id="gap"),
    pytest.param("2c 3c 4c 6c", id="gap after three"),
    pytest.param("9s Js Qs", id="gap of one at the bottom"),
    pytest.param("2c 4c 6c", id="every other card"),
    pytest.param("2c 3d 4c", id="mixed suits"),
    pytest.param("9h Ts Jh Qh", id="one card of another suit"),
    pytest.param("Qs Ks X1", id="joker at the end (R11)"),
    pytest.param("Qs X1 As", id="joker in a gap (R11)"),
    pytest.param("2c 3c 4c X1", id="joker added to a run (R11)"),
]


class TestSets:
    """
    R10: "A set is three or four cards of the same rank." R11 / A7: jokers are not wild; they form
    sets only among themselves (three or four jokers), never with naturals.
    """

    @pytest.mark.parametrize("text", VALID_SETS)
    def test_r10_valid_sets(self, text: str) -> None:
        assert MeldKind.SET == kind(text)
        assert is_meld(CardSet.parse(text)) is True

    @pytest.mark.parametrize("text", INVALID_SETS)
    def test_r10_r11_a7_invalid_sets(self, text: str) -> None:
        assert kind(text) is None
        assert is_meld(CardSet.parse(text)) is False

    @pytest.mark.parametrize("rank", [rank for rank in Rank if rank is not Rank.JOKER])
    def test_r10_every_rank_makes_sets_of_three_and_four(self, rank: Rank) -> None:
        four = CardSet(Card(rank, suit) for suit in Suit)
        threes = [four - CardSet([Card(rank, suit)]) for suit in Suit]
        assert [MeldKind.SET] * 5 == [meld_kind(part) for part in (four, *threes)]

    def test_a7_no_mixture_of_jokers_and_naturals_is_a_set(self) -> None:
        jokers = cards("X1 X2 X3")
        naturals = cards("Qc Qd Qh")
        mixtures = [CardSet(jokers[:j] + naturals[: 3 - j]) for j in (1, 2)]
        mixtures += [CardSet(jokers[:j] + naturals[: 4 - j]) for j in (1, 2, 3)]
        assert [None] * 5 == [meld_kind(mixture) for mixture in mixtures]


class TestRuns:
    """
    R12 / A8: "A run is three or more cards of the same suit in sequence"; aces are always high:
    Q-K-A is legal, A-2-3 is not, no wrap-around; jokers never in runs; 2 to A (13 cards) is the longest.
    """

    @pytest.mark.parametrize("text", VALID_RUNS)
    def test_r12_valid_runs(self, text: str) -> None:
        assert MeldKind.RUN == kind(text)
        assert is_meld(CardSet.parse(text)) is True

    @pytest.mark.parametrize("text", INVALID_RUNS)
    def test_r12_a8_invalid_runs(self, text: str) -> None:
        assert kind(text) is None
        assert is_meld(CardSet.parse(text)) is False

    @pytest.mark.parametrize("suit", list(Suit))
    def test_r12_every_window_of_three_in_every_suit_is_a_run(self, suit: Suit) -> None:
        ranks = [rank for rank in Rank if rank is not Rank.JOKER]
        windows = [CardSet(Card(rank, suit) for rank in ranks[i : i + 3]) for i in range(11)]
        assert [MeldKind.RUN] * 11 == [meld_kind(window) for window in windows]

    @pytest.mark.parametrize("suit", list(Suit))
    def test_r12_a8_the_longest_run_is_2_to_ace(self, suit: Suit) -> None:
        longest = CardSet(Card(rank, suit) for rank in Rank if rank is not Rank.JOKER)
        assert 13 == len(longest)
        assert MeldKind.RUN == meld_kind(longest)

    def test_r12_q_k_a_is_a_run_and_a_2_3_is_not(self) -> None:
        assert [MeldKind.RUN, None, None] == [kind("Qh Kh Ah"), kind("Ah 2h 3h"), kind("Kh Ah 2h")]

    def test_r12_a_duplicate_card_is_impossible(self) -> None:
        """
        R12: a single deck: listing a card twice is refused, never read as a meld.
        """
        for text in ("5h 6h 5h", "5h 6h 7h 6h", "4s 4d 4h 4h"):
            with pytest.raises(InvalidValueError, match="appears twice"):
                meld_kind(cards(text))
            with pytest.raises(InvalidValueError, match="appears twice"):
                is_meld(cards(text))

    def test_r9_meld_kind_accepts_any_iterable_of_cards(self) -> None:
        assert [MeldKind.SET, MeldKind.RUN, None] == [
            meld_kind(cards("Qh Qs Qd")),
            meld_kind(iter(cards("2c 3c 4c"))),
            meld_kind([]),
        ]
        assert is_meld(list(cards("X1 X2 X3"))) is True

    def test_r9_kinds_have_string_values(self) -> None:
        assert ["set", "run"] == [MeldKind.SET.value, MeldKind.RUN.value]


class TestTableMeld:
    """
    R17 / R26: a meld on the table remembers who laid it down and, by seat, who laid off which cards.
    """

    def test_r17_a_meld_laid_down(self) -> None:
        kings = TableMeld(0, CardSet.parse("Kc Kd Ks"))
        assert 0 == kings.owner
        assert CardSet.parse("Kc Kd Ks") == kings.laid_down
        assert (CardSet(), CardSet(), CardSet(), CardSet()) == kings.layoffs
        assert CardSet.parse("Kc Kd Ks") == kings.cards
        assert MeldKind.SET == kings.kind

    def test_r26_contributions_by_seat(self) -> None:
        run = meld(2, "5h 6h 7h", s0="8h 9h", s1="4h", s2="Th")
        assert (
            CardSet.parse("8h 9h"),
            CardSet.parse("4h"),
            CardSet.parse("5h 6h 7h Th"),
            CardSet(),
        ) == run.contributions
        assert CardSet.parse("4h 5h 6h 7h 8h 9h Th") == run.cards

    def test_r26_contributor_of_each_card(self) -> None:
        run = meld(2, "5h 6h 7h", s0="8h 9h", s1="4h", s3="Th")
        assert [1, 2, 2, 2, 0, 0, 3] == [run.contributor(card) for card in run.cards]

    def test_r26_contributor_of_a_card_not_in_the_meld(self) -> None:
        with pytest.raises(InvalidValueError, match="card Kh is not in the meld Kc Kd Ks"):
            meld(0, "Kc Kd Ks").contributor(Card.parse("Kh"))
        assert 0 == meld(0, "Kc Kd Ks").contributor("Kd")

    def test_r12_rank_and_suit(self) -> None:
        assert (Rank.KING, None) == (meld(0, "Kc Kd Ks").rank, meld(0, "Kc Kd Ks").suit)
        assert (Rank.JOKER, None) == (meld(0, "X1 X2 X3").rank, meld(0, "X1 X2 X3").suit)
        assert (None, Suit.HEARTS) == (meld(1, "5h 6h 7h").rank, meld(1, "5h 6h 7h").suit)

    @pytest.mark.parametrize(
        ("laid_down", "layoffs", "expected"),
        [
            ("Qc Qd Qh Qs", {}, True),
            ("X1 X2 X3 X4", {}, True),
            ("Qc Qd Qh", {"s0": "Qs"}, False),
            ("Qc Qd Qh", {"s1": "Qs"}, False),
            ("Qc Qd Qh", {}, False),
            ("Js Qs Ks As", {}, True),
            ("Ts Js Qs Ks As", {}, False),
            ("Js Qs Ks", {"s0": "As"}, False),
        ],
    )
    def test_r25_a20_four_at_once(self, laid_down: str, layoffs: dict[str, str], expected: bool) -> None:
        """
        R25 / A20: four cards laid down in one action (sets and runs alike: scoring decides what doubles).
        """
        assert expected is meld(0, laid_down, **layoffs).four_at_once

    @pytest.mark.parametrize(
        ("text", "ends"),
        [
            ("Kc Kd Ks", "Kh"),
            ("X1 X3 X4", "X2"),
            ("Kc Kd Kh Ks", ""),
            ("X1 X2 X3 X4", ""),
            ("5h 6h 7h", "4h 8h"),
            ("2c 3c 4c", "5c"),
            ("Qs Ks As", "Js"),
            ("2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad", ""),
        ],
    )
    def test_r17_ends_are_the_cards_that_extend_a_meld_alone(self, text: str, ends: str) -> None:
        assert CardSet.parse(ends) == CardSet(meld(0, text).ends)

    def test_r17_tablemeld_equality_and_repr(self) -> None:
        kings = meld(0, "Kc Kd Ks", s1="Kh")
        namespace = {"TableMeld": TableMeld, "CardSet": CardSet}
        assert kings == eval(repr(kings), namespace)  # noqa: S307
        assert "TableMeld(0, CardSet.parse('Kc Kd Ks'))" == repr(meld(0, "Kc Kd Ks"))
        assert meld(0, "Kc Kd Ks") == eval(repr(meld(0, "Kc Kd Ks")), namespace)  # noqa: S307
        assert meld(0, "Kc Kd Ks") != meld(2, "Kc Kd Ks")
        assert "Kc Kd Kh Ks" == str(kings)

    def test_r26_same_cards_different_contributors_are_different_melds(self) -> None:
        assert meld(0, "Kc Kd Ks", s1="Kh") != meld(0, "Kc Kd Ks", s2="Kh")
        assert meld(0, "Kc Kd Ks", s1="Kh").cards == meld(0, "Kc Kd Ks", s2="Kh").cards


class TestLayoffs:
    """
    R17: a 4th card onto a set of three, a 4th joker onto three jokers, cards extending a run at
    either end, and beyond cards laid off before.
    """

    @pytest.mark.parametrize(
        ("laid_down", "seat", "added", "after"),
        [
            ("Kc Kd Ks", 1, "Kh", "Kc Kd Kh Ks"),
            ("X1 X2 X3", 2, "X4", "X1 X2 X3 X4"),
            ("5h 6h 7h", 0, "8h", "5h 6h 7h 8h"),
            ("5h 6h 7h", 3, "4h", "4h 5h 6h 7h"),
            ("5h 6h 7h", 1, "8h 9h Th", "5h 6h 7h 8h 9h Th"),
            ("5h 6h 7h", 1, "2h 3h 4h", "2h 3h 4h 5h 6h 7h"),
            ("Qs Ks As", 2, "Js", "Js Qs Ks As"),
            ("2c 3c 4c", 0, "5c", "2c 3c 4c 5c"),
        ],
    )
    def test_r17_with_layoff(self, laid_down: str, seat: int, added: str, after: str) -> None:
        before = meld(0, laid_down)
        extended = before.with_layoff(seat, CardSet.parse(added))
        assert CardSet.parse(after) == extended.cards
        assert CardSet.parse(added) == extended.layoffs[seat]
        assert CardSet.parse(laid_down) == extended.laid_down
        assert before.kind == extended.kind
        assert meld(0, laid_down) == before

    def test_r17_a_card_laid_off_beyond_a_laid_off_card(self) -> None:
        run = meld(0, "5h 6h 7h", s2="8h").with_layoff(1, CardSet.parse("9h"))
        assert CardSet.parse("5h 6h 7h 8h 9h") == run.cards
        assert [0, 0, 0, 2, 1] == [run.contributor(card) for card in run.cards]

    def test_r17_lay_offs_by_one_seat_accumulate(self) -> None:
        run = meld(0, "5h 6h 7h").with_layoff(1, CardSet.parse("8h")).with_layoff(1, CardSet.parse("4h"))
        assert CardSet.parse("4h 8h") == run.layoffs[1]
        assert CardSet.parse("4h 5h 6h 7h 8h") == run.cards

    @pytest.mark.parametrize(
        ("laid_down", "layoffs", "added", "message"),
        [
            pytest.param("Kc Kd Ks", {}, "X1", "is not a set", id="joker onto a natural set (A7)"),
            pytest.param("X1 X2 X3", {}, "Kh", "is not a set", id="natural onto a joker set (A7)"),
            pytest.param("Kc Kd Ks", {}, "Qh", "is not a set", id="another rank onto a set"),
            pytest.param("Kc Kd Ks", {}, "Kh Qh", "is not a set", id="two cards onto a set"),
            pytest.param("Kc Kd Ks", {"s1": "Kh"}, "X1", "is not a set", id="fifth card onto a set"),
            pytest.param("5h 6h 7h", {}, "9h", "is not a run", id="gap at the top"),
            pytest.param("5h 6h 7h", {}, "3h", "is not a run", id="gap at the bottom"),
            pytest.param("5h 6h 7h", {}, "8s", "is not a run", id="other suit"),
            pytest.param("5h 6h 7h", {}, "X1", "is not a run", id="joker onto a run (R11)"),
            pytest.param("Qs Ks As", {}, "2s", "is not a run", id="wrap-around past the ace (A8)"),
            pytest.param("2s 3s 4s", {}, "As", "is not a run", id="low ace under a 2 (A8)"),
            pytest.param("5h 6h 7h", {}, "7h", "appear twice", id="card already in the meld"),
            pytest.param("5h 6h 7h", {"s2": "8h"}, "8h", "appear twice", id="card already laid off"),
        ],
    )
    def test_r17_invalid_layoff(self, laid_down: str, layoffs: dict[str, str], added: str, message: str) -> None:
        with pytest.raises(InvalidMeldError, match=message):
            meld(0, laid_down, **layoffs).with_layoff(1, CardSet.parse(added))


class TestTableMeldValidation:
    """
    R9: a table meld is always a valid set or run; its parts never overlap.
    """

    @pytest.mark.parametrize("owner", [-1, 4, True, "0", None])
    def test_r1_owner_must_be_a_seat(self, owner: object) -> None:
        with pytest.raises(InvalidMeldError, match="owner must be a seat 0-3"):
            TableMeld(owner, CardSet.parse("Kc Kd Ks"))  # type: ignore[arg-type]

    @pytest.mark.parametrize("text", ["Kc Kd", "X1 Kc Kd", "Ac 2c 3c", "", "Kc Kd Qs"])
    def test_r9_laid_down_cards_must_be_a_meld(self, text: str) -> None:
        with pytest.raises(InvalidMeldError, match="is not a set or a run"):
            TableMeld(0, CardSet.parse(text))

    def test_r9_laid_down_are_cards(self) -> None:
        assert TableMeld(0, CardSet.parse("Kc Kd Ks")) == TableMeld(0, "Kc Kd Ks") == TableMeld(0, ["Kc", "Kd", "Ks"])
        with pytest.raises(InvalidTypeError, match="laid_down must be cards, their notation or a CardSet, got 7"):
            TableMeld(0, 7)  # type: ignore[arg-type]

    def test_r9_laid_down_and_layoffs_must_not_overlap(self) -> None:
        parts = [CardSet(), CardSet.parse("Kd"), CardSet(), CardSet()]
        with pytest.raises(InvalidMeldError, match="appear twice"):
            TableMeld(0, CardSet.parse("Kc Kd Ks"), parts)

    def test_r9_two_seats_cannot_lay_off_the_same_card(self) -> None:
        parts = [CardSet(), CardSet.parse("8h"), CardSet.parse("8h"), CardSet()]
        with pytest.raises(InvalidMeldError, match="appear twice"):
            TableMeld(0, CardSet.parse("5h 6h 7h"), parts)

    def test_r9_the_whole_meld_must_stay_of_its_kind(self) -> None:
        parts = [CardSet(), CardSet.parse("9h"), CardSet(), CardSet()]
        with pytest.raises(InvalidMeldError, match="5h 6h 7h 9h is not a run"):
            TableMeld(0, CardSet.parse("5h 6h 7h"), parts)

    @pytest.mark.parametrize(
        ("layoffs", "error", "message"),
        [
            ([CardSet()], InvalidValueError, "layoffs must be four card sets, one per seat, got 1"),
            ([CardSet()] * 5, InvalidValueError, "layoffs must be four card sets, one per seat, got 5"),
            ("Kh", InvalidTypeError, "layoffs must be four card sets, one per seat, got 'Kh'"),
            (
                [CardSet(), CardSet(), CardSet(), 8],
                InvalidTypeError,
                "layoffs must be cards, their notation or a CardSet",
            ),
        ],
    )
    def test_r17_layoffs_are_four_card_sets(self, layoffs: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error) as caught:
            TableMeld(0, CardSet.parse("Kc Kd Ks"), layoffs)  # type: ignore[arg-type]
        assert str(caught.value).startswith(message)

    def test_r17_layoffs_may_be_written_in_notation(self) -> None:
        assert TableMeld(0, "Kc Kd Ks", ["", "Kh", "-", frozenset()]) == meld(0, "Kc Kd Ks", s1="Kh")

    def test_a8_ace_low_is_true_or_false(self) -> None:
        with pytest.raises(InvalidMeldError, match="ace_low must be True or False, got 1"):
            TableMeld(0, CardSet.parse("Kc Kd Ks"), ace_low=1)  # type: ignore[arg-type]

    @pytest.mark.parametrize("seat", [4, -1, "1", None])
    def test_r17_a_lay_off_is_by_a_seat(self, seat: object) -> None:
        with pytest.raises(InvalidMeldError, match="seat must be 0-3, got"):
            TableMeld(0, CardSet.parse("Kc Kd Ks")).with_layoff(seat, CardSet.parse("Kh"))  # type: ignore[arg-type]

    def test_r9_invalid_meld_errors_are_value_errors_and_library_errors(self) -> None:
        assert issubclass(InvalidMeldError, ValueError)
        assert issubclass(InvalidMeldError, PersianRummyError)


class TestInOrder:
    """
    How a meld lies on the table, as the pictures draw it: "a run from its lowest card, the ace first
    where it is low (A8); a set by suit; a joker that stands for a card where that card would lie (A7)".
    """

    @pytest.mark.parametrize(
        ("value", "lying"),
        [
            (meld(0, "Kc Kd Ks", s1="Kh"), "Kc Kd Kh Ks"),
            (meld(0, "Jh Qh Kh", s2="Ah", s3="Th"), "Th Jh Qh Kh Ah"),
            (TableMeld(0, "Ah 2h 3h", ace_low=True), "Ah 2h 3h"),
            (TableMeld(0, "Qh Kh Ah", ace_low=True), "Qh Kh Ah"),
            (TableMeld(0, "X3 X1 X2"), "X1 X2 X3"),
            (TableMeld(0, "5h X2 7h X1", stand_ins={"X2": "6h", "X1": "8h"}), "5h X2 7h X1"),
            (TableMeld(0, "5h 5s X1", stand_ins={"X1": "5d"}), "X1 5h 5s"),
        ],
    )
    def test_examples(self, value: TableMeld, lying: str) -> None:
        assert cards(lying) == value.in_order

    def test_every_card_once(self) -> None:
        value = meld(3, "4d 5d 6d", s0="7d 8d", s2="3d")
        assert (6, value.cards) == (len(value.in_order), CardSet(value.in_order))
