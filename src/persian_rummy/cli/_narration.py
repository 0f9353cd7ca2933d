"""
A game printed as the ``persian-rummy`` command plays or replays it: how to read it, each deal, each
action in a line (`describe`), the table and the score at the end of each deal, and the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TextIO

from ..actions import Action
from ..cards import Card
from ..cardsets import CardSet
from ..engine import is_deal_over, outcome
from ..pictures import card_legend, render_text
from ..scoring import DealScore
from ..state import GameState

#: Seat names: North and South are partners against East and West.
SEAT_NAMES: Final = ("N", "E", "S", "W")
_TEAM_NAMES: Final = ("N-S", "E-W")
#: The words of the game that the printed games use, explained once at their start.
TERMS: Final = (
    "Terms: the stock is the face-down pile the players draw from; the discard pile lies face up, started",
    "by the upcard, and a player may take any card of it with all the cards above, but must then play",
    "that card at once (R15); a meld is a set (3 or 4 cards of one rank) or a run (3 or more cards in",
    "sequence in one suit) laid down on the table; to lay off is to add cards to a meld on the table.",
)


class _Telling(dict[str, str]):
    """
    What the names in braces in an action's `phrase` stand for, worked out from the state as asked.
    """

    def __init__(self, state: GameState, action: Action, *, symbols: bool) -> None:
        super().__init__()
        self.state = state
        self.action = action
        self.symbols = symbols

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(card.symbol if self.symbols else str(card) for card in cards)

    def __missing__(self, name: str) -> str:
        action, state = self.action, self.state
        if name == "meld":
            index: int = getattr(action, "meld")  # noqa: B009 (the field the phrase names)
            return f"meld {index + 1} ({self.cards(state.melds[index].cards)})"
        if name == "above":
            pile = state.discard_pile
            above = len(pile) - 1 - pile.index(getattr(action, "card"))  # noqa: B009
            return f" and the {above} card{'s' if above > 1 else ''} above it" if above else ""
        value: object = getattr(action, name)
        if isinstance(value, Card):
            return self.cards((value,))
        return self.cards(value) if isinstance(value, CardSet) else str(value)


def describe(state: GameState, action: Action, *, symbols: bool = False) -> str:
    """
    One line saying what *action* does in *state*, in card notation, or with *symbols* with the
    cards' suit symbols (as `persian_rummy.pictures.render_text` writes them).

    >>> from persian_rummy import Discard, new_game
    >>> describe(new_game(), Discard(3, "Td")), describe(new_game(), Discard(3, "Td"), symbols=True)
    ('W discards Td', 'W discards 10♦')
    """
    telling = _Telling(state, action, symbols=symbols)
    return f"{SEAT_NAMES[action.seat]} {action.phrase.format_map(telling)}"


def _print_score(result: DealScore, totals: tuple[int, int], out: TextIO) -> None:
    if result.went_out is not None:
        how = f"{SEAT_NAMES[result.went_out]} went out"
    else:
        how = f"ended by {result.end.value.replace('_', ' ')}"
    print(f"Score of deal {result.deal} ({how}):", file=out)
    print(f"  {'team':<5} {'melded':>7} {'doubling':>9} {'bonus':>6} {'in hand':>8} {'total':>6}", file=out)
    for team, score in enumerate(result.teams):
        in_hand = None if score.in_hand is None else -score.in_hand
        melded, doubling, bonus, held = (
            "-" if item is None else str(item) for item in (score.melded, score.doubling, score.bonus, in_hand)
        )
        print(f"  {_TEAM_NAMES[team]:<5} {melded:>7} {doubling:>9} {bonus:>6} {held:>8} {score.total:>6}", file=out)
    print(f"  game totals: {_TEAM_NAMES[0]} {totals[0]}, {_TEAM_NAMES[1]} {totals[1]}", file=out)


class Narrator:
    """
    Prints a game as it is played or replayed: how to read it, each deal, each action, the table
    at each deal's end with the deal's score, and the result.
    """

    def __init__(self, out: TextIO, *, symbols: bool) -> None:
        self.out = out
        self.symbols = symbols
        self.number = 0

    def explain(self) -> None:
        print(card_legend(symbols=self.symbols), file=self.out)
        for line in TERMS:
            print(line, file=self.out)

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(card.symbol if self.symbols else str(card) for card in cards)

    def step(self, before: GameState, action: Action, after: GameState) -> None:
        out = self.out
        if before.is_chance_node:
            self.number = 0
            print(f"\nDeal {after.deal}, dealt by {SEAT_NAMES[after.dealer]}", file=out)
            for seat, hand in enumerate(after.hands):
                print(f"  {SEAT_NAMES[seat]} is dealt {self.cards(hand)}", file=out)
            print(f"  upcard {self.cards(after.discard_pile[-1:])}; stock {len(after.stock)} cards", file=out)
            return
        self.number += 1
        print(f"  {self.number:3}. {describe(before, action, symbols=self.symbols)}", file=out)
        if is_deal_over(after):
            print(file=out)
            print(render_text(after, symbols=self.symbols), file=out)
            _print_score(after.results[-1], after.scores, out)

    def finish(self, state: GameState) -> None:
        result = outcome(state)
        if result is None:
            print(f"\nThe game is not over: {_state_line(state)}.", file=self.out)
        elif result.winner is None:
            print(f"\nThe game is a draw, {result.scores[0]} all.", file=self.out)
        else:
            won, lost = result.scores[result.winner], result.scores[1 - result.winner]
            print(f"\n{_TEAM_NAMES[result.winner]} win, {won} to {lost}.", file=self.out)


def _state_line(state: GameState) -> str:
    who = "" if state.to_act is None else f", {SEAT_NAMES[state.to_act]} to act"
    return f"deal {state.deal}, phase {state.phase.value.replace('_', ' ')}{who}"
