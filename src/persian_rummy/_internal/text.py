"""
Writing values as text: cards, rules, melds, deal results and whole positions.

`persian_rummy.notation` documents these forms and reads them back; they live here, below
`persian_rummy.state`, because a state's ``repr`` is its position text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card
from ..cardsets import CardSet
from ..melds import StandIns, TableMeld
from ..rules import Rules
from ..scoring import DealEnd, DealScore
from . import seats as _seats
from .shapes import State

#: The letters of the seats 0-3: North, East, South, West.
SEAT_LETTERS: Final[str] = _seats.LETTERS
#: How a deal that nobody went out of ended, by its letter in a position's results.
END_LETTERS: Final = {DealEnd.PASSES: "p", DealEnd.STOCK_EMPTY: "e"}
#: The mark before a stock that everyone knows, turned over from the discard pile (A18).
KNOWN_STOCK: Final = "^"


def cards(group: Sequence[Card] | CardSet) -> str:
    """
    Cards written together, in the order given; ``-`` for none.
    """
    return "".join(str(card) for card in group) or "-"


def rules(value: Rules) -> str:
    """
    ``-`` for Persian Rummy's rules, else the changed switches as ``name=value`` joined by commas.
    """
    changes = value.changes()
    if not changes:
        return "-"
    return ",".join(f"{name}={_switch(setting)}" for name, setting in changes.items())


def _switch(setting: object) -> str:
    if isinstance(setting, bool):
        return "true" if setting else "false"
    return str(setting)


def seat(number: int | None) -> str:
    """
    A seat's letter, ``-`` for none.
    """
    return "-" if number is None else SEAT_LETTERS[number]


def stood_for(group: CardSet, stand_ins: StandIns) -> str:
    """
    Cards with jokers that stand for cards (A7): one word each, in the order of the cards they
    represent, a joker written with its card (``5h X1=6h 7h``).
    """
    return stand_ins.write(group)


def meld(value: TableMeld) -> str:
    """
    A table meld: ``OWNER:CARDS`` then ``+SEAT:CARDS`` for each seat's lay-offs; a joker that
    stands for a card is written with it, ``X1=6h`` (A7).
    """
    stand_ins = value.stand_ins
    write = cards if not stand_ins else lambda group: stand_ins.write(group).replace(" ", "")
    text = f"{SEAT_LETTERS[value.owner]}:{write(value.laid_down)}"
    for number, part in enumerate(value.layoffs):
        if part:
            text += f"+{SEAT_LETTERS[number]}:{write(part)}"
    return text


def result(value: DealScore) -> str:
    """
    A finished deal: ``M.D.B.H:M.D.B.H:HOW``, a team's total alone where it has no breakdown.
    """
    teams = ":".join(
        f"{t.melded}.{t.doubling}.{t.bonus}.{t.in_hand}" if t.has_breakdown else str(t.total) for t in value.teams
    )
    how = seat(value.went_out) if value.end is DealEnd.WENT_OUT else END_LETTERS[value.end]
    return f"{teams}:{how}"


def position(state: State) -> str:
    """
    The one-line text of a position (see `persian_rummy.format_position`).
    """
    known = "/".join(cards(part) for part in state.known) if any(state.known) else "-"
    stock = cards(state.stock)
    fields = (
        rules(state.rules),
        f"{state.deal}/{SEAT_LETTERS[state.dealer]}",
        str(state.phase) if state.discarder is None else f"{state.phase}/{SEAT_LETTERS[state.discarder]}",
        seat(state.to_act),
        "/".join(cards(hand) for hand in state.hands),
        KNOWN_STOCK + stock if state.stock_known else stock,
        cards(state.discard_pile),
        ",".join(meld(value) for value in state.melds) or "-",
        "-" if state.obligation is None else str(state.obligation),
        cards(state.picked),
        known,
        str(state.passes),
        seat(state.went_out),
        ",".join(result(value) for value in state.results) or "-",
    )
    return " ".join(fields)
