"""
The engine's internal helpers, where the public functions do not reach every case: the builder of
unchecked values, the checks that notation and JSON make of the action declarations at import,
and the card logic of a low ace (A8) and of wild jokers (A7) against card-by-card references.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import ClassVar, Protocol

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    Deal,
    DealScore,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    MeldKind,
    Rank,
    Suit,
    TableMeld,
    new_game,
    notation,
    serialize,
)
from persian_rummy._internal import unchecked
from persian_rummy._internal.build import DECLARED, SUCCESSORS, builder, single, successor
from persian_rummy._internal.cardlogic import fits, meldable, reaches, wild_usable
from persian_rummy.events import Event
from persian_rummy.scoring import TeamScore
from tests.positions import cards
from tests.test_properties import MELDS, extensions, naive_kind

#: The classes whose builders the package declares: values of the core, built by the core alone.
DECLARING: list[type] = [TableMeld, LayDown, LayOff, Deal, Event, TeamScore, DealScore]


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


class _CachedFields(Protocol):
    def __call__(self, *, seat: int, name: str) -> _Cached: ...


class _Wrong(Protocol):
    def __call__(self, *, name: str, seat: int) -> _Cached: ...


class _Defaulted(Protocol):
    def __call__(self, *, seat: int, name: str = "North") -> _Cached: ...


class _Positional(Protocol):
    def __call__(self, seat: int, name: str) -> _Cached: ...


class _SeatOnly(Protocol):
    def __call__(self, *, seat: int) -> _Cached: ...


class _FirstPositional(Protocol):
    def __call__(self, seat: int, /, *, name: str) -> _Cached: ...


@attrs.frozen
class _Pair:
    seat: int
    other: int


class _Alike(Protocol):
    def __call__(self, seat: int, /, *, other: int) -> _Pair: ...


_Sixteen = attrs.make_class("_Sixteen", [f"f{i}" for i in range(16)], frozen=True)


class _SixteenFields(Protocol):
    def __call__(
        self,
        *,
        f0: int,
        f1: int,
        f2: int,
        f3: int,
        f4: int,
        f5: int,
        f6: int,
        f7: int,
        f8: int,
        f9: int,
        f10: int,
        f11: int,
        f12: int,
        f13: int,
        f14: int,
        f15: int,
    ) -> object: ...


@attrs.frozen
class _Derived:
    seat: int
    _team: int = attrs.field(init=False)


class _DerivedFields(Protocol):
    def __call__(self, *, seat: int, team: int) -> _Derived: ...


def _widened(declared: object, field: object) -> bool:
    """
    Whether *declared* is *field*; or one of the types of a union (a score's items, which the package always
    builds as numbers); or, for a tuple, a tuple of any length that holds its items (as the builders declare the
    tuples the compiled build must hand on uncopied: `persian_rummy._internal.unchecked`).
    """
    if declared == field or (declared in typing.get_args(field) and type(field) is types.UnionType):
        return True
    if typing.get_origin(declared) is not tuple or typing.get_origin(field) is not tuple:
        return False
    item, rest = typing.get_args(declared)
    return rest is Ellipsis and all(item in (object, part) for part in typing.get_args(field))


class TestBuilder:
    """
    `_build.builder`: a value built without checks equals the same value built by hand, from every field
    given by keyword as a protocol declares them.
    """

    def test_a_class_with_a_cached_hash_and_weak_references(self) -> None:
        build = builder(_Cached, _CachedFields.__call__)
        made = build(seat=2, name="South")
        assert _Cached(2, "South") == made
        assert hash(_Cached(2, "South")) == hash(made)
        assert builder(_Cached, _CachedFields.__call__) is build

    def test_a_derived_private_field_by_its_name_without_the_underscore(self) -> None:
        made = builder(_Derived, _DerivedFields.__call__)(seat=3, team=1)
        assert (3, 1) == (made.seat, made._team)

    def test_the_fields_by_keyword_only(self) -> None:
        build = builder(_Cached, _CachedFields.__call__)
        with pytest.raises(TypeError, match="takes 0 positional arguments"):
            build(2, "South")  # type: ignore[call-arg]

    def test_fields_of_a_type_no_other_field_has_positionally_first(self) -> None:
        made = builder(_Cached, _FirstPositional.__call__)(2, name="South")
        assert _Cached(2, "South") == made

    @pytest.mark.parametrize(
        "declared",
        [_Wrong.__call__, _Defaulted.__call__, _Positional.__call__, _Alike.__call__],
        ids=["out of order", "a default", "positional or keyword", "positional of a shared type"],
    )
    def test_a_declaration_other_than_the_fields_is_refused(self, declared: Callable[..., object]) -> None:
        with pytest.raises(TypeError, match=r"must take the fields of _[A-Z][a-z]+, \('seat', "):
            builder(_Cached if declared is not _Alike.__call__ else _Pair, declared)

    def test_a_field_left_out_is_named(self) -> None:
        with pytest.raises(TypeError, match=r"<= 30; it lacks 'name'$"):
            builder(_Cached, _SeatOnly.__call__)

    def test_more_than_fifteen_keywords_are_refused(self) -> None:
        with pytest.raises(TypeError, match=r"0 \+ 2 \* 16 <= 30"):
            builder(_Sixteen, _SixteenFields.__call__)

    def test_a_class_with_one_field(self) -> None:
        assert DrawStock(3) == single(DrawStock, int)(3)
        assert CardSet.parse("Qh") == single(CardSet, int)(1 << Card.parse("Qh").index)

    def test_a_class_with_more_fields_is_not_single(self) -> None:
        with pytest.raises(TypeError, match="_Cached has more than one field"):
            single(_Cached, int)

    def test_the_package_declares_its_builders(self) -> None:
        assert set(DECLARING) == {cls for cls in DECLARED if cls.__module__.startswith("persian_rummy.")}

    @pytest.mark.parametrize(
        "cls",
        DECLARING,
        ids=lambda cls: cls.__name__,
    )
    def test_each_declaration_types_the_fields_as_the_class(self, cls: type) -> None:
        fields = attrs.fields(attrs.resolve_types(cls))
        hints = typing.get_type_hints(DECLARED[cls])
        mismatched = [f.alias for f in fields if not _widened(hints[f.alias], f.type)]
        assert [] == mismatched
        assert cls is hints["return"]


@attrs.frozen(cache_hash=True, weakref_slot=False)
class _Slim:
    seat: int
    name: str


class _Renamed(Protocol):
    def __call__(self, value: _Slim, /, *, name: str) -> _Slim: ...


class _Reseated(Protocol):
    def __call__(self, value: _Slim, /, *, seat: int) -> _Slim: ...


class _NoSuchField(Protocol):
    def __call__(self, value: _Slim, /, *, colour: str) -> _Slim: ...


class _SourceByKeyword(Protocol):
    def __call__(self, *, value: _Slim, name: str) -> _Slim: ...


class TestSuccessor:
    """
    `_build.successor`: a value made from another with the fields a step names, every other field the other
    value's own; the engine's steps declare theirs in `persian_rummy._internal.unchecked`.
    """

    def test_the_fields_named_and_the_others_carried_along(self) -> None:
        before = _Slim(1, "North")
        assert hash(before)
        made = successor(_Slim, _Reseated.__call__)(before, seat=3)
        assert (_Slim(3, "North"), "North", hash(_Slim(3, "North"))) == (made, made.name, hash(made))
        assert (_Slim(1, "East"), 1) == (successor(_Slim, _Renamed.__call__)(before, name="East"), before.seat)

    def test_a_state_from_the_state_before(self) -> None:
        state = new_game(dealer=2)
        after = unchecked.asked(state, to_act=3)
        fields = [a.name for a in attrs.fields(GameState)]
        differ = [name for name in fields if getattr(state, name) != getattr(after, name)]
        carried = [name for name in fields if getattr(state, name) is getattr(after, name)]
        assert (["to_act"], 3) == (differ, after.to_act)
        assert {"to_act", "picked"} == set(fields) - set(carried)  # picked: the empty set the step sets afresh

    @pytest.mark.parametrize(
        ("cls", "declared", "problem"),
        [
            (_Slim, _NoSuchField.__call__, r"; 'colour' is no field$"),
            (_Slim, _SourceByKeyword.__call__, r"first and positionally"),
            (_Cached, _CachedFields.__call__, r"first and positionally"),
        ],
        ids=["no such field", "the value by keyword", "a slot for weak references"],
    )
    def test_a_declaration_otherwise_is_refused(self, cls: type, declared: Callable[..., object], problem: str) -> None:
        with pytest.raises(TypeError, match=problem):
            successor(cls, declared)

    @pytest.mark.parametrize(
        "declared", SUCCESSORS[GameState], ids=lambda declared: declared.__qualname__.split(".")[0]
    )
    def test_each_step_types_the_fields_as_the_state(self, declared: Callable[..., object]) -> None:
        fields = {f.alias: f.type for f in attrs.fields(attrs.resolve_types(GameState))}
        hints = typing.get_type_hints(declared)
        named = [name for name in hints if name not in {"return", "state", "view"}]
        mismatched = [name for name in named if not _widened(hints[name], fields[name])]
        assert [] == mismatched
        assert GameState is hints["return"]


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


NATURALS = [card for card in FULL_DECK if not card.is_joker]
JOKER_CARDS = [card for card in FULL_DECK if card.is_joker]
#: The melds a table may hold in the test of `wild_usable`: every natural meld, and the sets of three jokers.
TABLE_MELDS = {low: [meld for meld in melds if len(meld) < 13] for low, melds in MELDS.items()}


def _playable_with_jokers(
    card: Card, hand: frozenset[Card], table: list[frozenset[Card]], blocked: frozenset[Card], ace_low: bool
) -> bool:
    """
    A7, A12, by the definition: *card*, with the cards of *hand*, goes at once into a meld or onto a
    meld of *table*, each card the play lacks stood for by a joker of the hand (a joker standing
    for a card held is allowed), no card of *blocked* stood for or laid, a new meld of naturals
    holding one natural card at least.
    """
    if not card.is_joker and card in blocked:
        return False
    hand = hand | {card}
    jokers = sum(1 for held in hand if held.is_joker)

    def enough(group: frozenset[Card], *, new: bool) -> bool:
        if all(member.is_joker for member in group):
            return card in group and group <= hand  # a set of jokers, or a joker onto one (R11)
        if group & blocked:
            return False
        missing = len(group - hand)
        if not card.is_joker:
            return card in group and missing <= jokers
        # The joker stands for a card the group lacks, or for one held; a new meld keeps a natural card.
        return max(1, missing) <= jokers and (not new or missing < len(group))

    if any(enough(meld, new=True) for meld in MELDS[ace_low]):
        return True
    return any(enough(extra, new=False) for meld in table for extra in extensions(meld, ace_low=ace_low))


@st.composite
def _wild_positions(draw: st.DrawFn) -> tuple[Card, frozenset[Card], list[frozenset[Card]], frozenset[Card], bool]:
    ace_low = draw(st.booleans())
    card = draw(st.sampled_from(FULL_DECK))
    near = [other for other in NATURALS if card.is_joker or other.suit is card.suit or other.rank is card.rank]
    # Melds of the card's suit or rank mostly, that a play of it may extend.
    kin = [meld for meld in TABLE_MELDS[ace_low] if card.is_joker or any(other in near for other in meld)]
    table: list[frozenset[Card]] = []
    melds = draw(st.lists(st.sampled_from(kin), max_size=3))
    melds += draw(st.lists(st.sampled_from(TABLE_MELDS[ace_low]), max_size=2))
    for meld in melds:
        if card not in meld and not any(meld & other for other in table):
            table.append(meld)
    laid = frozenset().union(*table)
    blocked = (laid | frozenset(draw(st.lists(st.sampled_from(NATURALS), max_size=3)))) - set(JOKER_CARDS)
    naturals = draw(st.lists(st.sampled_from(near), max_size=5)) + draw(st.lists(st.sampled_from(NATURALS), max_size=3))
    # One joker most often: with two a natural card always makes a meld unless the table blocks it.
    jokers = draw(st.permutations(JOKER_CARDS))[: draw(st.sampled_from((1, 1, 1, 0, 2, 3, 4)))]
    hand = frozenset(naturals + jokers) - laid - blocked - {card}
    return card, hand, table, blocked, ace_low


RUN_TJQ = frozenset(cards("Ts Js Qs"))


class TestA7CardLogic:
    """
    A7: whether a card can be played at once with wild jokers (what a card taken from the pile must
    be, R15, A12) agrees with the definition over every meld of the deck.
    """

    @given(_wild_positions())
    @example(
        (Card.parse("As"), frozenset(cards("X1")), [frozenset(cards("Ts Js Qs"))], frozenset(cards("Ts Js Qs")), True)
    )
    def test_a7_wild_usable_agrees_with_the_definition(
        self, position: tuple[Card, frozenset[Card], list[frozenset[Card]], frozenset[Card], bool]
    ) -> None:
        card, hand, table, blocked, ace_low = position
        expected = _playable_with_jokers(card, hand, table, blocked, ace_low)
        reps = [_bits(meld) for meld in table]
        assert expected is wild_usable(card.index, _bits(hand), reps, _bits(blocked), ace_low)

    @pytest.mark.parametrize(
        ("card", "hand", "expected"),
        [
            ("7h", "X1", False),  # a joker and the card are two cards
            ("7h", "X1 X2", True),  # 7h with jokers for two cards of a set or a run
            ("7h", "9h X1", True),  # 7h X1=8h 9h
            ("7h", "Tc X1", False),  # nothing to make with the ten
            ("X1", "7h 8h", True),  # the joker stands for 6h or 9h
            ("X1", "7h X2", True),  # 7h with the jokers for two cards of a set or a run
            ("X1", "X2 X3", True),  # a set of jokers (R11)
        ],
    )
    def test_a7_a_card_with_jokers_on_an_empty_table(self, card: str, hand: str, expected: bool) -> None:
        played = Card.parse(card)
        assert expected is wild_usable(played.index, CardSet.parse(hand).mask, [], 0, False)
