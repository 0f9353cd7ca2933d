"""
The layouts of the tensors of `persian_rummy.rl.tensors`: every part of the observation and of the
information state, with its place, its size and its meaning, and where each part starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from attrs import frozen

from ..cards import FULL_DECK
from ..state import Phase


@frozen
class Segment:
    """
    A named part of a tensor: ``tensor[start : start + size]``.

    Attributes:
        name: The part's name, unique in its layout.
        start: Where the part begins.
        size: How many values it has.
        meaning: What the values say, and how they are scaled to [0, 1].
    """

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        """
        Where the part ends: ``start + size``.
        """
        return self.start + self.size


#: A 56-wide part: one value per card, in `FULL_DECK` order.
CARDS: Final = len(FULL_DECK)
#: The relative seats, in the order of every part with one value (or one plane) per seat, and
#: how the meanings name them: the observing seat, then the others clockwise (R6).
_RELATIVE: Final = {
    "self": "the seat",
    "left": "the seat to its left",
    "partner": "its partner",
    "right": "the seat to its right",
}
#: A count of the history is divided by this, and clipped to 1.
COUNT_SCALE: Final = 32
#: The phases of the phase part.  The phases of a call of "Rummy!" (A24) set none of them: the seat to act
#: answers the top discard in `Phase.CALLS`, and lays off the card of the obligation part in `Phase.CALLED`.
_PHASES: Final = (Phase.DEAL, Phase.DRAW, Phase.PLAY, Phase.DEAL_OVER, Phase.GAME_OVER)


def _layout(start: int, parts: Sequence[tuple[str, int, str]]) -> tuple[Segment, ...]:
    segments = []
    for name, size, meaning in parts:
        segments.append(Segment(name, start, size, meaning))
        start += size
    return tuple(segments)


def _per_seat(name: str, size: int, meaning: str) -> list[tuple[str, int, str]]:
    """
    One part per relative seat, named ``NAME_self`` ... ``NAME_right``; *meaning* names the seat as ``{who}``.
    """
    return [(f"{name}_{seat}", size, meaning.format(who=who)) for seat, who in _RELATIVE.items()]


# -- the observation's layout: bits first (one big int, unpacked at once), then the scaled values ----------------

_OBSERVATION_BITS: Final = [
    ("hand", CARDS, "the seat's hand (empty in the public view)"),
    *_per_seat(
        "known",
        CARDS,
        "cards everyone knows {who} holds: seen taken from the pile (R14) or drawn from a known stock (A18); "
        "every hand once the deal is over",
    ),
    ("pile", CARDS, "cards in the discard pile (R18)"),
    ("table_own", CARDS, "table cards credited to the seat's team: laid down or laid off by one of its players (R26)"),
    ("table_other", CARDS, "table cards credited to the other team"),
    ("meld_start", CARDS, "the first card of each table meld: its lowest, or the ace of a run from the ace up (A8)"),
    ("doubled", CARDS, "cards of the melds laid down four at once that score double (R25, A20)"),
    ("obligation", CARDS, "the card taken from the pile that must still be played (R15)"),
    ("picked", CARDS, "the cards taken from the pile this turn (A13)"),
    ("stock", CARDS, "the cards of a stock everyone knows, turned over from the pile (A18)"),
    (
        "phase",
        len(_PHASES),
        "one-hot: " + ", ".join(phase.value for phase in _PHASES) + "; none in the phases of a call of Rummy! (A24)",
    ),
    ("to_act", 4, "one-hot by relative seat (self, left, partner, right): the seat to act; none at a chance node"),
    ("dealer", 4, "one-hot by relative seat: the dealer of the deal"),
    ("went_out", 4, "one-hot by relative seat: the seat that went out of the deal (R19), if any"),
    ("stock_known", 1, "1 when everyone knows the stock (A18)"),
    ("public", 1, "1 for the public view, which is read as seen from seat 0"),
]
_BIT_LAYOUT: Final = _layout(0, _OBSERVATION_BITS)
BITS: Final = _BIT_LAYOUT[-1].stop
_OBSERVATION_VALUES: Final = [
    ("pile_depth", CARDS, "each pile card's depth, the number of cards a take of it brings: top 1/56, next 2/56..."),
    ("stock_order", CARDS, "each card of a known stock by its place: next to draw 1/56, then 2/56... (A18)"),
    ("stock_size", 1, "the number of cards in the stock / 56"),
    *_per_seat("hand_size", 1, "the number of cards {who} holds / 56"),
    ("score_own", 1, "the seat's team's total of the finished deals, (total + S) / 2S (S: 500 for a deck of 476)"),
    ("score_other", 1, "the other team's total, scaled the same way (both clipped to [0, 1])"),
    ("deal", 1, "the deal's number / Rules.num_deals, clipped to 1 (0 before the first deal)"),
    ("passes", 1, "passes in a row / 4, clipped to 1 (R21, A17)"),
]
#: The parts of `observation_tensor`, in order.
OBSERVATION_LAYOUT: Final = (*_BIT_LAYOUT, *_layout(BITS, _OBSERVATION_VALUES))
#: The length of `observation_tensor`.
OBSERVATION_SIZE: Final = OBSERVATION_LAYOUT[-1].stop
#: Where each part of the observation starts, by its name.
AT: Final = {segment.name: segment.start for segment in OBSERVATION_LAYOUT}
BYTES: Final = (BITS + 7) // 8

# -- the history part: bits, then counts --------------------------------------------------------------------------

_HISTORY_BITS: Final = [
    ("upcard", CARDS, "the upcard of the deal (R7)"),
    *_per_seat("discarded", CARDS, "cards {who} discarded in this deal"),
    *_per_seat("taken", CARDS, "cards {who} took from the pile, or drew from a known stock, in this deal"),
    *_per_seat("melded", CARDS, "cards {who} laid down or laid off in this deal"),
]
#: The counts of the history part, each with what it counts.
COUNTS: Final = {
    "draws": "draws from the stock",
    "takes": "takes from the pile",
    "passes": "passes",
    "lay_downs": "melds laid down",
    "lay_offs": "lay-offs",
    "discards": "discards",
}
_HISTORY_VALUES: Final = [
    item
    for name, what in COUNTS.items()
    for item in _per_seat(name, 1, f"{what} by {{who}} in this deal / {COUNT_SCALE}, clipped to 1")
]
_HISTORY_LAYOUT: Final = _layout(OBSERVATION_SIZE, [*_HISTORY_BITS, *_HISTORY_VALUES])
#: The parts of `information_state_tensor`: the observation's, then the history part's.
INFORMATION_STATE_LAYOUT: Final = (*OBSERVATION_LAYOUT, *_HISTORY_LAYOUT)
#: The length of `information_state_tensor`.
INFORMATION_STATE_SIZE: Final = INFORMATION_STATE_LAYOUT[-1].stop
#: What wild jokers add to the observation, after all of its other parts: only under `Rules.jokers_wild` (A7).
_WILD_PARTS: Final = [
    ("stood_for", CARDS, "the cards that the jokers on the table stand for (A7; only under Rules.jokers_wild)"),
]
WILD_OBSERVATION_LAYOUT: Final = (*OBSERVATION_LAYOUT, *_layout(OBSERVATION_SIZE, _WILD_PARTS))
WILD_OBSERVATION_SIZE: Final = WILD_OBSERVATION_LAYOUT[-1].stop
WILD_INFORMATION_STATE_LAYOUT: Final = (
    *WILD_OBSERVATION_LAYOUT,
    *_layout(WILD_OBSERVATION_SIZE, [*_HISTORY_BITS, *_HISTORY_VALUES]),
)
_WILD_INFORMATION_STATE_SIZE: Final = WILD_INFORMATION_STATE_LAYOUT[-1].stop
HISTORY_BIT_COUNT: Final = len(_HISTORY_BITS) * CARDS
HISTORY_BYTES: Final = (HISTORY_BIT_COUNT + 7) // 8
HISTORY_SIZE: Final = INFORMATION_STATE_SIZE - OBSERVATION_SIZE
#: The bit of the phase part that each phase sets, if any.
PHASE_BITS: Final = {
    **{phase: 1 << (AT["phase"] + i) for i, phase in enumerate(_PHASES)},
    Phase.CALLS: 0,
    Phase.CALLED: 0,
}
