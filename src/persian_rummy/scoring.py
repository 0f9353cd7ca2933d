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

import enum
from collections.abc import Sequence

from attrs import frozen

from . import _tables
from .cardsets import CardSet
from .melds import MeldKind, TableMeld
from .rules import DEFAULT_RULES, Rules

__all__ = ["DealEnd", "DealScore", "TeamScore", "score_deal", "team_of"]


def __dir__() -> list[str]:
    return __all__


def team_of(seat: int) -> int:
    """
    The team of *seat*: partners sit opposite (R1), so seats 0 and 2 are team 0, seats 1 and 3 team 1.
    """
    return seat & 1


class DealEnd(enum.StrEnum):
    """
    How a deal ended.
    """

    #: A player melded or laid off their last card (R19).
    WENT_OUT = "went_out"
    #: The stock was empty and the players passed (R22, A17).
    PASSES = "passes"
    #: The stock ran out and the rules end the deal at once (A17 variant).
    STOCK_EMPTY = "stock_empty"


@frozen
class TeamScore:
    """
    One team's score for one deal, item by item.

    Attributes:
        melded: Points of the cards the team's players laid down or laid off (R24, R26).
        doubling: Extra points for sets of four laid down in one action (R25).
        bonus: The going-out bonus, when one of the team's players went out (R24).
        in_hand: Points of the cards left in both partners' hands; subtracted (R24).
    """

    melded: int
    doubling: int
    bonus: int
    in_hand: int

    @property
    def total(self) -> int:
        """
        ``melded + doubling + bonus - in_hand``.
        """
        return self.melded + self.doubling + self.bonus - self.in_hand


@frozen
class DealScore:
    """
    The result of one deal.

    Attributes:
        deal: The deal's number, from 1.
        teams: Team 0's score, then team 1's.
        went_out: The seat that went out, or `None` when the deal ended otherwise.
        end: How the deal ended.
    """

    deal: int
    teams: tuple[TeamScore, TeamScore]
    went_out: int | None
    end: DealEnd

    @property
    def totals(self) -> tuple[int, int]:
        """
        Each team's total for the deal.
        """
        return (self.teams[0].total, self.teams[1].total)


def score_deal(  # noqa: PLR0913
    hands: Sequence[CardSet],
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
        hands: The four hands, by seat.
        melds: The melds on the table.
        went_out: The seat that went out, if any.
        rules: The rules (doubling switches and the bonus).
        deal: The deal's number, recorded in the result.
        end: How the deal ended; by default `DealEnd.WENT_OUT` when someone went
            out, else `DealEnd.PASSES`.
    """
    melded = [0, 0]
    doubling = [0, 0]
    for meld in melds:
        melded[meld.owner & 1] += _tables.mask_points(meld.laid_down.mask)
        for seat, part in enumerate(meld.layoffs):
            if part.mask:
                melded[seat & 1] += _tables.mask_points(part.mask)
        if meld.four_at_once and (
            (meld.kind is MeldKind.SET and rules.double_four_of_a_kind)
            or (meld.kind is MeldKind.RUN and rules.double_four_card_runs)
        ):
            doubling[meld.owner & 1] += meld.laid_down.points
    in_hand = [hands[0].points + hands[2].points, hands[1].points + hands[3].points]
    bonus = [0, 0]
    if went_out is not None:
        bonus[went_out & 1] = rules.go_out_bonus
    if end is None:
        end = DealEnd.PASSES if went_out is None else DealEnd.WENT_OUT
    teams = (
        TeamScore(melded[0], doubling[0], bonus[0], in_hand[0]),
        TeamScore(melded[1], doubling[1], bonus[1], in_hand[1]),
    )
    return DealScore(deal, teams, went_out, end)
