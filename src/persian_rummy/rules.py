"""
`Rules`: the rule switches of a game, with the defaults of Persian Rummy.

``Rules()`` is Persian Rummy as the rules document specifies it.  Every field
is a switch for one of the open points (A1-A25) or one of the numbers of the
game, named after the rule it concerns.  Rules are immutable; derive a variant
with `attrs.evolve` or by passing keywords:

>>> Rules().hand_size, Rules().num_deals, Rules().obligation_timing
(7, 2, <ObligationTiming.IMMEDIATE: 'immediate'>)
>>> Rules(obligation_timing="before_discard").obligation_timing
<ObligationTiming.BEFORE_DISCARD: 'before_discard'>
>>> Rules(hand_size=14)
Traceback (most recent call last):
...
ValueError: hand_size must be between 1 and 13 (four hands and the upcard come from 56 cards), got 14
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final

from attrs import Attribute, field, frozen

__all__ = [
    "EmptyStockEnd",
    "NextDealer",
    "ObligationTiming",
    "Rules",
    "TeamDrawTiebreak",
    "TieBreak",
]


def __dir__() -> list[str]:
    return __all__


class ObligationTiming(enum.StrEnum):
    """
    When the card taken from the discard pile must be played (A11).
    """

    #: The first meld or lay-off after the draw must contain it (default).
    IMMEDIATE = "immediate"
    #: Any time before the discard; other melds may come first.
    BEFORE_DISCARD = "before_discard"


class EmptyStockEnd(enum.StrEnum):
    """
    What ends a deal once the stock is empty (A17).
    """

    #: Four players pass in succession (default).
    ALL_PASS = "all_pass"
    #: The first pass ends the deal.
    FIRST_PASS = "first_pass"
    #: The deal ends with the turn in which the last stock card was drawn.
    IMMEDIATELY = "immediately"


class NextDealer(enum.StrEnum):
    """
    Who deals the next deal (A4).
    """

    #: The player to the left of the previous dealer (default).
    LEFT = "left"
    #: The player who went out; the player to the left when nobody did.
    WINNER = "winner"
    #: The same dealer again.
    SAME = "same"


class TeamDrawTiebreak(enum.StrEnum):
    """
    How equal cards are settled in the draw for partners and first dealer (A1).
    """

    #: Tied players whose order matters draw again (default).
    REDRAW = "redraw"
    #: Suits break ties: clubs < diamonds < hearts < spades; jokers by number.
    SUIT_ORDER = "suit_order"


class TieBreak(enum.StrEnum):
    """
    What happens when the teams are level after the last deal (A22).
    """

    #: The game is a draw (default).
    DRAW = "draw"
    #: One more deal is played; if the teams are still level, the game is a draw.
    EXTRA_DEAL = "extra_deal"


def _between(low: int, high: int, why: str = "") -> Callable[[object, Attribute[int], int], None]:
    def check(instance: object, attribute: Attribute[int], value: int) -> None:
        if type(value) is not int:
            msg = f"{attribute.name} must be an int, got {value!r}"
            raise TypeError(msg)
        if not low <= value <= high:
            msg = f"{attribute.name} must be between {low} and {high}{why}, got {value!r}"
            raise ValueError(msg)

    return check


def _is_bool(instance: object, attribute: Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        msg = f"{attribute.name} must be True or False, got {value!r}"
        raise TypeError(msg)


#: The largest hand size: four hands and the upcard must leave a stock of at least one card.
MAX_HAND_SIZE: Final = 13


@frozen(cache_hash=True)
class Rules:
    """
    The rules of one game: numbers and switches, defaulting to Persian Rummy.

    Attributes:
        hand_size: Cards dealt to each player (R7, A5).
        num_deals: Deals in a game (R27).
        go_out_bonus: Points for the team of the player who goes out (R24).
        top_discard_free: Taking only the top discard carries no obligation to meld it
            while the stock has cards (A9).  With an empty stock R21 always applies.
        obligation_by_layoff: The card taken from the discard pile may be laid off
            instead of melded in a new meld (A10).
        obligation_timing: When that card must be played (A11).
        forbid_discarding_picked_cards: Cards taken from the discard pile may not be
            discarded in the same turn (A13).
        go_out_by_discard: Discarding one's last card goes out (A15; 500 Rum style).
        empty_stock_end: What ends a deal once the stock is empty (A17).
        double_four_of_a_kind: A set of four laid down in one action scores double (R25).
        double_four_card_runs: A run of exactly four laid down in one action scores
            double as well (A20).
        next_dealer: Who deals the next deal (A4).
        team_draw_tiebreak: How ties in the draw for partners are settled (A1).
        tie_break: What happens when the teams are level after the last deal (A22).
    """

    hand_size: int = field(
        default=7, validator=_between(1, MAX_HAND_SIZE, " (four hands and the upcard come from 56 cards)")
    )
    num_deals: int = field(default=2, validator=_between(1, 100))
    go_out_bonus: int = field(default=25, validator=_between(-10_000, 10_000))
    top_discard_free: bool = field(default=False, validator=_is_bool)
    obligation_by_layoff: bool = field(default=True, validator=_is_bool)
    obligation_timing: ObligationTiming = field(default=ObligationTiming.IMMEDIATE, converter=ObligationTiming)
    forbid_discarding_picked_cards: bool = field(default=False, validator=_is_bool)
    go_out_by_discard: bool = field(default=False, validator=_is_bool)
    empty_stock_end: EmptyStockEnd = field(default=EmptyStockEnd.ALL_PASS, converter=EmptyStockEnd)
    double_four_of_a_kind: bool = field(default=True, validator=_is_bool)
    double_four_card_runs: bool = field(default=False, validator=_is_bool)
    next_dealer: NextDealer = field(default=NextDealer.LEFT, converter=NextDealer)
    team_draw_tiebreak: TeamDrawTiebreak = field(default=TeamDrawTiebreak.REDRAW, converter=TeamDrawTiebreak)
    tie_break: TieBreak = field(default=TieBreak.DRAW, converter=TieBreak)

    def changes(self) -> dict[str, object]:
        """
        The switches that differ from Persian Rummy's defaults, by name.

        >>> Rules(hand_size=10, next_dealer="winner").changes()
        {'hand_size': 10, 'next_dealer': <NextDealer.WINNER: 'winner'>}
        """
        default = _DEFAULT
        return {name: getattr(self, name) for name in _FIELD_NAMES if getattr(self, name) != getattr(default, name)}


_FIELD_NAMES: Final = tuple(a.name for a in Rules.__attrs_attrs__)
_DEFAULT: Final = Rules()
