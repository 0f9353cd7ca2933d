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
persian_rummy.exceptions.InvalidValueError: hand_size must be between 1 and 13 (four hands and the upcard ...), got 14
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from attrs import Attribute, field, frozen

from ._core import limits as _limits
from ._core.choices import Choice as _Choice
from .exceptions import InvalidTypeError, InvalidValueError

__all__ = [
    "DEFAULT_RULES",
    "EmptyStockEnd",
    "NextDealer",
    "ObligationTiming",
    "Rules",
    "TeamDrawTiebreak",
    "TieBreak",
]


def __dir__() -> list[str]:
    return __all__


class ObligationTiming(_Choice):
    """
    When the card taken from the discard pile must be played (A11).
    """

    #: The first meld or lay-off after the draw must contain it (default).
    IMMEDIATE = "immediate"
    #: Any time before the discard; other melds may come first.
    BEFORE_DISCARD = "before_discard"


class EmptyStockEnd(_Choice):
    """
    What ends a deal once the stock is empty (A17).
    """

    #: Four players pass in succession (default).
    ALL_PASS = "all_pass"
    #: The first pass ends the deal.
    FIRST_PASS = "first_pass"
    #: The deal ends with the turn in which the last stock card was drawn.
    IMMEDIATELY = "immediately"


class NextDealer(_Choice):
    """
    Who deals the next deal (A4).
    """

    #: The player to the left of the previous dealer (default).
    LEFT = "left"
    #: The player who went out; the player to the left when nobody did.
    WINNER = "winner"
    #: The same dealer again.
    SAME = "same"


class TeamDrawTiebreak(_Choice):
    """
    How equal cards are settled in the draw for partners and first dealer (A1).
    """

    #: Tied players whose order matters draw again (default).
    REDRAW = "redraw"
    #: Suits break ties: clubs < diamonds < hearts < spades; jokers by number.
    SUIT_ORDER = "suit_order"


class TieBreak(_Choice):
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
            msg = f"{attribute.name} must be an int, got {_limits.shown(value)}"
            raise InvalidTypeError(msg)
        if not low <= value <= high:
            msg = f"{attribute.name} must be between {low} and {high}{why}, got {value!r}"
            raise InvalidValueError(msg)

    return check


def _is_bool(instance: object, attribute: Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        msg = f"{attribute.name} must be True or False, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


#: The largest hand size: four hands and the upcard must leave a stock of at least one card.
_MAX_HAND_SIZE: Final = 13


def _about(rule: str, tried: tuple[int, ...] = ()) -> dict[str, object]:
    """
    A field's metadata: the *rule* it varies and, for a number, the values besides the default
    that the test strategies try (`persian_rummy.strategies.rules`).
    """
    return {"rule": rule, "tried": tried} if tried else {"rule": rule}


@frozen(cache_hash=True)
class Rules:
    """
    The rules of one game: numbers and switches, defaulting to Persian Rummy.

    Every field names the rule it varies (its ``rule`` metadata, shown in brackets here), and
    is documented under that id on the rules page.

    Attributes:
        hand_size: Cards dealt to each player (A5).
        num_deals: Deals in a game (R27).
        go_out_bonus: Points for the team of the player who goes out (R24).
        ace_low_allowed: A run may also take the ace low, A-2-3 and up; never round the
            corner, K-A-2 (A8).  The ace still scores 15.
        top_discard_free: Taking only the top discard carries no obligation to meld it
            while the stock has cards (A9).  With an empty stock R21 always applies.
        obligation_by_layoff: The card taken from the discard pile may be laid off
            instead of melded in a new meld (A10).
        obligation_timing: When that card must be played (A11).
        forbid_discarding_picked_cards: Cards taken from the discard pile may not be
            discarded in the same turn (A13).
        go_out_by_discard: Discarding one's last card goes out (A15; 500 Rum style).
        pass_allows_melding: With the stock empty, a player may lay down and lay off from
            hand before passing or taking from the discard pile (A16).
        empty_stock_end: What ends a deal once the stock is empty (A17).
        reshuffle_on_empty_stock: When the stock has run out, the discard pile but its top
            card is turned over, in order, to become the stock, at the end of the turn (A18).
        double_four_of_a_kind: A set of four laid down in one action scores double (R25).
        double_four_card_runs: A run of exactly four laid down in one action scores
            double as well (A20).
        next_dealer: Who deals the next deal (A4).
        team_draw_tiebreak: How ties in the draw for partners are settled (A1).
        tie_break: What happens when the teams are level after the last deal (A22).
    """

    hand_size: int = field(
        default=7,
        validator=_between(1, _MAX_HAND_SIZE, " (four hands and the upcard come from 56 cards)"),
        metadata=_about("A5", tried=(6, 8, 5, 9, 4, 10, 3, 11, 2, 12, 1, 13)),
    )
    num_deals: int = field(default=2, validator=_between(1, 100), metadata=_about("R27", tried=(1, 3)))
    go_out_bonus: int = field(
        default=25, validator=_between(-10_000, 10_000), metadata=_about("R24", tried=(0, 50, 100, -25))
    )
    ace_low_allowed: bool = field(default=False, validator=_is_bool, metadata=_about("A8"))
    top_discard_free: bool = field(default=False, validator=_is_bool, metadata=_about("A9"))
    obligation_by_layoff: bool = field(default=True, validator=_is_bool, metadata=_about("A10"))
    obligation_timing: ObligationTiming = field(
        default=ObligationTiming.IMMEDIATE, converter=ObligationTiming, metadata=_about("A11")
    )
    forbid_discarding_picked_cards: bool = field(default=False, validator=_is_bool, metadata=_about("A13"))
    go_out_by_discard: bool = field(default=False, validator=_is_bool, metadata=_about("A15"))
    pass_allows_melding: bool = field(default=False, validator=_is_bool, metadata=_about("A16"))
    empty_stock_end: EmptyStockEnd = field(
        default=EmptyStockEnd.ALL_PASS, converter=EmptyStockEnd, metadata=_about("A17")
    )
    reshuffle_on_empty_stock: bool = field(default=False, validator=_is_bool, metadata=_about("A18"))
    double_four_of_a_kind: bool = field(default=True, validator=_is_bool, metadata=_about("R25"))
    double_four_card_runs: bool = field(default=False, validator=_is_bool, metadata=_about("A20"))
    next_dealer: NextDealer = field(default=NextDealer.LEFT, converter=NextDealer, metadata=_about("A4"))
    team_draw_tiebreak: TeamDrawTiebreak = field(
        default=TeamDrawTiebreak.REDRAW, converter=TeamDrawTiebreak, metadata=_about("A1")
    )
    tie_break: TieBreak = field(default=TieBreak.DRAW, converter=TieBreak, metadata=_about("A22"))

    @property
    def max_deals(self) -> int:
        """
        The most deals a game can have: `num_deals`, and one more when the teams are level
        after them and the rules settle that by an extra deal (A22).

        >>> Rules().max_deals, Rules(tie_break="extra_deal").max_deals
        (2, 3)
        """
        return self.num_deals + (self.tie_break is TieBreak.EXTRA_DEAL)

    def changes(self) -> dict[str, object]:
        """
        The switches that differ from Persian Rummy's defaults, by name.

        >>> Rules(hand_size=10, next_dealer="winner").changes()
        {'hand_size': 10, 'next_dealer': <NextDealer.WINNER: 'winner'>}
        """
        return {
            name: getattr(self, name) for name in _FIELD_NAMES if getattr(self, name) != getattr(DEFAULT_RULES, name)
        }


_FIELD_NAMES: Final = tuple(a.name for a in Rules.__attrs_attrs__)
#: Persian Rummy's own rules, ``Rules()``.
DEFAULT_RULES: Final = Rules()
