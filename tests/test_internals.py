"""
The engine's internal helpers, where the public functions do not reach every case: the builder of
unchecked values, the checks that notation and JSON make of the action declarations at import,
and the card logic of a low ace (A8) against a card-by-card reference.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import FULL_DECK, Card, CardSet, DrawStock, MeldKind, Rank, Suit, notation, serialize
from persian_rummy._cardlogic import fits, meldable, reaches
from persian_rummy._core.build import builder
from tests.test_properties import MELDS, extensions, naive_kind


@attrs.frozen(cache_hash=True)
class _Cached:
    seat: int
    name: str


@attrs.frozen
class _Knock:
    verb: ClassVar[str] = "knock"
    arguments: ClassVar[str] = "{loudly}"
    type_name: ClassVar[str] = "knock"
    phrase: ClassVar[str] = "knocks"
    noun: ClassVar[str] = "knock"

    seat: int
    loudly: bool


class TestBuilder:
    """
    `_build.builder`: a value built without checks equals the same value built by hand.
    """

    def test_a_class_with_a_cached_hash_and_weak_references(self) -> None:
        build = builder(_Cached)
        made = build(2, "South")
        assert _Cached(2, "South") == made
        assert hash(_Cached(2, "South")) == hash(made)
        assert builder(_Cached) is build

    def test_a_class_with_one_field(self) -> None:
        assert DrawStock(3) == builder(DrawStock)(3)
        assert CardSet.parse("Qh") == builder(CardSet)(1 << Card.parse("Qh").index)


class TestDeclarationsChecked:
    """
    An action type whose fields notation or JSON cannot write and read is refused when they are
    imported, not at the first game that meets it.
    """

    def test_notation(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(notation, "ACTION_TYPES", (DrawStock, _Knock))
        with pytest.raises(TypeError, match=r"_Knock.arguments '\{loudly\}' does not write its fields \['loudly'\]"):
            notation._check_templates()

    def test_json(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(serialize, "ACTION_TYPES", (DrawStock, _Knock))
        with pytest.raises(TypeError, match=r"_Knock has fields \['loudly'\] that JSON does not know how to read"):
            serialize._check_action_fields()


def _bits(cards: frozenset[Card]) -> int:
    return CardSet(cards).mask


SUIT_CARDS = {suit: [card for card in FULL_DECK if card.suit is suit] for suit in Suit}
RUNS = [meld for meld in MELDS[True] if naive_kind(meld, ace_low=True) is MeldKind.RUN and len(meld) < 13]


class TestA8CardLogic:
    """
    A8: with a low ace a run may start A-2-3, never K-A-2.  The bit logic that decides whether a card
    extends a run (over cards in hand) agrees with a card-by-card reference.
    """

    @given(st.sampled_from(RUNS), st.data())
    def test_a8_fits_and_reaches_agree_with_the_reference(self, run: frozenset[Card], data: st.DataObject) -> None:
        suit = next(iter(run)).suit
        assert suit is not None
        outside = [card for card in SUIT_CARDS[suit] if card not in run]
        card = data.draw(st.sampled_from(outside))
        avail = frozenset(data.draw(st.lists(st.sampled_from(outside), unique=True))) - {card}
        expected = any(card in extra and extra - {card} <= avail for extra in extensions(run, ace_low=True))
        assert expected is fits(_bits(run), card.index, _bits(avail), True)
        assert expected is reaches(_bits(run), card.index, _bits(avail), True)

    def test_a8_a_card_of_the_run_does_not_extend_it(self) -> None:
        run = frozenset(Card.parse(text) for text in ("Ah", "2h", "3h"))
        assert False is fits(_bits(run), Card.parse("2h").index, 0, True)
        assert False is reaches(_bits(run), Card.parse("Ah").index, 0, True)

    @pytest.mark.parametrize("text", ["Ac 2c", "Ac 3c", "2c 3c"])
    def test_a8_the_third_card_of_a_low_run(self, text: str) -> None:
        pair = CardSet.parse(text)
        missing = next(card for card in CardSet.parse("Ac 2c 3c") if card not in pair)
        assert (False, True) == (meldable(missing.index, pair.mask, False), meldable(missing.index, pair.mask, True))

    def test_a8_no_low_run_from_the_king(self) -> None:
        king = Card(Rank.KING, Suit.CLUBS)
        assert False is meldable(king.index, CardSet.parse("Ac 2c").mask, True)
