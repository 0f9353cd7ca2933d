"""
Scoring: what each team earns in a deal, item by item (R23-R26).

For each team (seats 0 and 2 are team 0, seats 1 and 3 team 1):

* **melded** - the points of every card its two players laid down or laid off,
  on any meld, the opponents' included (R24, R26);
* **doubling** - the points once more of every set of four laid down in one
  action (R25; A20 for runs of four as a variant);
* **bonus** - 25 when one of its players went out (R24, A23);
* **in_hand** - the points of the cards left in both partners' hands,
  subtracted (R24, A21).

>>> from persian_rummy import CardSet, TableMeld
>>> quads = TableMeld(1, CardSet.parse("Qc Qd Qh Qs"))
>>> kings = TableMeld(0, CardSet.parse("Kc Kd Ks")).with_layoff(1, CardSet.parse("Kh"))
>>> hands = (CardSet(), CardSet.parse("X1"), CardSet.parse("Ac 7s"), CardSet())
>>> score = score_deal(hands, (quads, kings), went_out=0)
>>> score.teams[0]
TeamScore(melded=30, doubling=0, bonus=25, in_hand=22)
>>> score.teams[1]
TeamScore(melded=50, doubling=40, bonus=0, in_hand=20)
>>> score.totals
(33, 70)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from attrs import Attribute, field, frozen

from . import limits as _limits
from ._internal import arguments as _arguments
from ._internal import build as _build
from ._internal import seats as _seats
from .cards import Card
from .cardsets import CardSet
from .choices import Choice as _Choice
from .exceptions import InvalidTypeError, InvalidValueError
from .melds import MeldKind, TableMeld
from .rules import DEFAULT_RULES, Rules

__all__ = ["DealEnd", "DealScore", "TeamScore", "score_deal", "team_of"]


def __dir__() -> list[str]:
    return __all__


def team_of(seat: int) -> int:
    """
    The team of *seat*: partners sit opposite (R1), so seats 0 and 2 are team 0, seats 1 and 3 team 1.

    Raises:
        InvalidValueError: *seat* is not 0-3.
        InvalidTypeError: *seat* is not an `int`.
    """
    _arguments.seat(seat, "seat")
    return seat & 1


class DealEnd(_Choice):
    """
    How a deal ended.
    """

    #: A player melded or laid off their last card (R19).
    WENT_OUT = "went_out"
    #: The stock was empty and the players passed (R22, A17).
    PASSES = "passes"
    #: The stock ran out and the rules end the deal at once (A17 variant).
    STOCK_EMPTY = "stock_empty"


def _check_points(_: object, attribute: Attribute[int | None], value: object) -> None:
    if value is not None and type(value) is not int:
        msg = f"{attribute.alias} must be an int or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


@frozen(repr=False)
class TeamScore:
    """
    One team's score for one deal, item by item, or by its total alone.

    A score worked out by `score_deal` has its breakdown; one written by hand for an earlier
    deal may give its total alone, ``TeamScore(total=128)``, and then the four items are `None`.

    Attributes:
        melded: Points of the cards the team's players laid down or laid off (R24, R26).
        doubling: Extra points for sets of four laid down in one action (R25).
        bonus: The going-out bonus, when one of the team's players went out (R24).
        in_hand: Points of the cards left in both partners' hands; subtracted (R24).

    Raises:
        InvalidValueError: some of the four items are given and others not; none is given
            and the total is not; or the total given is not the one the items make.
        InvalidTypeError: an item or the total is not an `int`.

    >>> TeamScore(30, 0, 25, 22).total
    33
    >>> TeamScore(total=128)
    TeamScore(total=128)
    """

    melded: int | None = field(default=None, validator=_check_points)
    doubling: int | None = field(default=None, validator=_check_points)
    bonus: int | None = field(default=None, validator=_check_points)
    in_hand: int | None = field(default=None, validator=_check_points)
    _total: int | None = field(default=None, kw_only=True, validator=_check_points)

    def __attrs_post_init__(self) -> None:
        melded, doubling, bonus, in_hand = parts = (self.melded, self.doubling, self.bonus, self.in_hand)
        if melded is not None and doubling is not None and bonus is not None and in_hand is not None:
            total = melded + doubling + bonus - in_hand
            if self._total is not None and self._total != total:
                msg = f"total={self._total} is not melded + doubling + bonus - in_hand = {total}"
                raise InvalidValueError(msg)
            object.__setattr__(self, "_total", total)
        elif parts != (None, None, None, None):
            msg = "a team's score gives all of melded, doubling, bonus and in_hand, or none of them and its total"
            raise InvalidValueError(msg)
        elif self._total is None:
            msg = "a team's score gives its breakdown (melded, doubling, bonus, in_hand) or its total"
            raise InvalidValueError(msg)

    @property
    def total(self) -> int:
        """
        ``melded + doubling + bonus - in_hand``, or the total given alone.
        """
        return self._total  # type: ignore[return-value]  # set in every score that was built

    @property
    def has_breakdown(self) -> bool:
        """
        Whether the score gives its four items, not its total alone.
        """
        return self.melded is not None

    def __repr__(self) -> str:
        if not self.has_breakdown:
            return f"TeamScore(total={self.total})"
        return f"TeamScore(melded={self.melded}, doubling={self.doubling}, bonus={self.bonus}, in_hand={self.in_hand})"


def _two_teams(value: Iterable[TeamScore]) -> tuple[TeamScore, TeamScore]:
    raw: object = value
    teams = tuple(value) if isinstance(raw, Iterable) and not isinstance(raw, str) else (raw,)
    if len(teams) != 2 or not all(type(team) is TeamScore for team in teams):
        msg = f"a deal's result has two TeamScore values, team 0's then team 1's, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return teams


def _check_deal(_: object, __: object, value: int) -> None:
    if type(value) is not int:
        msg = f"a deal's number must be an int, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    if value < 1:
        msg = f"deals are numbered from 1, got {value}"
        raise InvalidValueError(msg)


def _check_went_out(_: object, __: object, value: int | None) -> None:
    if value is not None and not _seats.is_seat(value):
        msg = f"went_out must be a seat 0-3 or None, got {_limits.shown(value)}"
        raise InvalidValueError(msg) if type(value) is int else InvalidTypeError(msg)


def _check_end(went_out: int | None, end: DealEnd) -> None:
    if (went_out is None) == (end is DealEnd.WENT_OUT):
        msg = f"a deal ends by going out exactly when a seat went out, got {went_out!r} and {end!r}"
        raise InvalidValueError(msg)


def _end_of(went_out: int | None, end: DealEnd | None) -> DealEnd:
    """
    How a deal ended, by default as *went_out* says; checked against it.
    """
    if end is None:
        return DealEnd.PASSES if went_out is None else DealEnd.WENT_OUT
    end = DealEnd(end)
    _check_end(went_out, end)
    return end


@frozen
class DealScore:
    """
    The result of one deal.

    Attributes:
        deal: The deal's number, from 1.
        teams: Team 0's score, then team 1's.
        went_out: The seat that went out, or `None` when the deal ended otherwise.
        end: How the deal ended.

    Raises:
        InvalidValueError: a seat went out and the deal did not end by going out, or the
            other way round; or a field is out of its range.
        InvalidTypeError: a field is not of its type.
    """

    deal: int = field(validator=_check_deal)
    teams: tuple[TeamScore, TeamScore] = field(converter=_two_teams)
    went_out: int | None = field(validator=_check_went_out)
    end: DealEnd = field(converter=DealEnd)

    def __attrs_post_init__(self) -> None:
        _check_end(self.went_out, self.end)

    @property
    def totals(self) -> tuple[int, int]:
        """
        Each team's total for the deal.
        """
        return (self.teams[0].total, self.teams[1].total)


def _score_arguments(
    hands: Sequence[Iterable[Card | str] | CardSet | str], melds: Sequence[TableMeld], rules: Rules
) -> tuple[tuple[CardSet, ...], tuple[TableMeld, ...]]:
    # The engine's own calls (tuples of the right values) take the first test of each line.
    if type(hands) is not tuple:
        _arguments.expect(hands, Sequence, "hands", "the four hands, one per seat")
    if isinstance(hands, str) or len(hands) != len(_seats.SEATS):
        msg = f"hands are the four hands, one per seat, got {_limits.shown(hands)}"
        raise InvalidValueError(msg)
    if type(melds) is not tuple:
        _arguments.expect(melds, Sequence, "melds", "a sequence of TableMeld values")
    for meld in melds:
        if type(meld) is not TableMeld:
            _arguments.expect(meld, TableMeld, "melds", "TableMeld values")
    if type(rules) is not Rules:
        _arguments.expect(rules, Rules, "rules", "a Rules")
    return tuple(hand if type(hand) is CardSet else CardSet(hand) for hand in hands), tuple(melds)


def _table_points(melds: Sequence[TableMeld], rules: Rules) -> tuple[list[int], list[int]]:
    """
    Each team's melded points and doubling (R24-R26, A20).
    """
    values = rules.card_values
    melded = [0, 0]
    doubling = [0, 0]
    for meld in melds:
        laid_down = values.mask_points(meld.laid_down.mask)
        melded[meld.owner & 1] += laid_down
        for seat, part in enumerate(meld.layoffs):
            if part.mask:
                melded[seat & 1] += values.mask_points(part.mask)
        if meld.four_at_once and (
            (meld.kind is MeldKind.SET and rules.double_four_of_a_kind)
            or (meld.kind is MeldKind.RUN and rules.double_four_card_runs)
        ):
            doubling[meld.owner & 1] += laid_down
    return melded, doubling


def score_deal(  # noqa: PLR0913
    hands: Sequence[Iterable[Card | str] | CardSet | str],
    melds: Sequence[TableMeld],
    went_out: int | None,
    *,
    rules: Rules = DEFAULT_RULES,
    deal: int = 1,
    end: DealEnd | None = None,
) -> DealScore:
    """
    Score a deal from the table and the hands left at its end.

    Args:
        hands: The four hands, by seat (each a `CardSet`, or cards or their notation).
        melds: The melds on the table.
        went_out: The seat that went out, if any.
        rules: The rules (doubling switches and the bonus).
        deal: The deal's number, recorded in the result.
        end: How the deal ended; by default `DealEnd.WENT_OUT` when someone went
            out, else `DealEnd.PASSES`.

    Raises:
        InvalidValueError: not four hands, a seat out of range, or an end that does not
            agree with *went_out*.
        InvalidTypeError: an argument of the wrong type.
    """
    sets, melds = _score_arguments(hands, melds, rules)
    if went_out is not None:
        _arguments.seat(went_out, "went_out")
    _check_deal(None, None, deal)
    melded, doubling = _table_points(melds, rules)
    points = rules.card_values.mask_points
    in_hand = [points(sets[0].mask | sets[2].mask), points(sets[1].mask | sets[3].mask)]
    bonus = [0, 0]
    if went_out is not None:
        bonus[went_out & 1] = rules.go_out_bonus
    end = _end_of(went_out, end)
    # Worked out here, the items are ints and the totals are theirs, and the arguments are
    # checked: no need to check the result again.
    teams = (_team(melded[0], doubling[0], bonus[0], in_hand[0]), _team(melded[1], doubling[1], bonus[1], in_hand[1]))
    return _deal_score(deal=deal, teams=teams, went_out=went_out, end=end)


def _team(melded: int, doubling: int, bonus: int, in_hand: int) -> TeamScore:
    total = melded + doubling + bonus - in_hand
    return _team_score(melded=melded, doubling=doubling, bonus=bonus, in_hand=in_hand, total=total)


class _TeamScoreFields(Protocol):
    def __call__(self, *, melded: int, doubling: int, bonus: int, in_hand: int, total: int) -> TeamScore: ...


class _DealScoreFields(Protocol):
    def __call__(
        self, *, deal: int, teams: tuple[TeamScore, TeamScore], went_out: int | None, end: DealEnd
    ) -> DealScore: ...


_team_score: Final = _build.builder(TeamScore, _TeamScoreFields.__call__)
_deal_score: Final = _build.builder(DealScore, _DealScoreFields.__call__)
