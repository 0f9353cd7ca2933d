"""
The ``persian-rummy`` command.

``persian-rummy demo --seed N`` plays one complete game between four players
who choose uniformly among their legal actions, and prints every action, the
table at the end of each deal, each deal's score and the winner.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from .actions import Action, Deal, Discard, DrawStock, LayDown, LayOff, TakeDiscard
from .engine import apply, legal_actions, outcome, random_deal
from .scoring import DealScore
from .state import GameState, Phase, new_game

__all__ = ["describe", "main"]

#: Seat names: North and South are partners against East and West.
SEAT_NAMES = ("N", "E", "S", "W")
TEAM_NAMES = ("N-S", "E-W")


def describe(state: GameState, action: Action) -> str:  # noqa: PLR0911
    """
    One line saying what *action* does in *state*, in card notation.

    >>> import random
    >>> from persian_rummy import new_game, random_deal
    >>> state = new_game()
    >>> describe(state, random_deal(state, random.Random(1)))
    'N deals'
    """
    if isinstance(action, Deal):
        return f"{SEAT_NAMES[action.seat]} deals"
    who = SEAT_NAMES[action.seat]
    if isinstance(action, DrawStock):
        return f"{who} draws from the stock"
    if isinstance(action, TakeDiscard):
        pile = state.discard_pile
        above = len(pile) - 1 - pile.index(action.card)
        extra = f" and the {above} card{'s' if above > 1 else ''} above it" if above else ""
        return f"{who} takes {action.card} from the discard pile{extra}"
    if isinstance(action, LayDown):
        return f"{who} lays down {action.cards}"
    if isinstance(action, LayOff):
        return f"{who} lays off {action.cards} onto meld {action.meld + 1} ({state.melds[action.meld].cards})"
    if isinstance(action, Discard):
        return f"{who} discards {action.card}"
    return f"{who} passes"


def _print_table(state: GameState, out: TextIO) -> None:
    print(f"Table at the end of deal {state.deal}:", file=out)
    if not state.melds:
        print("  no melds", file=out)
    for number, meld in enumerate(state.melds, start=1):
        extras = "".join(f"; {part} laid off by {SEAT_NAMES[seat]}" for seat, part in enumerate(meld.layoffs) if part)
        four = ", four at once" if meld.four_at_once else ""
        print(
            f"  meld {number}: {meld.cards} ({meld.kind} laid down by {SEAT_NAMES[meld.owner]}{four}{extras})", file=out
        )
    for seat, hand in enumerate(state.hands):
        print(f"  {SEAT_NAMES[seat]} holds {hand or '-'} ({hand.points} points)", file=out)
    print(f"  stock: {len(state.stock)} cards; discard pile (bottom to top): {_cards(state.discard_pile)}", file=out)


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def _print_score(result: DealScore, totals: tuple[int, int], out: TextIO) -> None:
    if result.went_out is not None:
        how = f"{SEAT_NAMES[result.went_out]} went out"
    else:
        how = f"ended by {result.end.value.replace('_', ' ')}"
    print(f"Score of deal {result.deal} ({how}):", file=out)
    print(f"  {'team':<5} {'melded':>7} {'doubling':>9} {'bonus':>6} {'in hand':>8} {'total':>6}", file=out)
    for team, score in enumerate(result.teams):
        print(
            f"  {TEAM_NAMES[team]:<5} {score.melded:>7} {score.doubling:>9} {score.bonus:>6}"
            f" {-score.in_hand:>8} {score.total:>6}",
            file=out,
        )
    print(f"  game totals: {TEAM_NAMES[0]} {totals[0]}, {TEAM_NAMES[1]} {totals[1]}", file=out)


def demo(seed: int, out: TextIO | None = None) -> GameState:
    """
    Play and print one game between random players (to *out*, standard output by default); return the final state.
    """
    out = sys.stdout if out is None else out
    rng = random.Random(seed)
    state = new_game()
    print(f"Persian Rummy, random players, seed {seed}", file=out)
    print("Seats N, E, S, W clockwise; N-S play against E-W.", file=out)
    number = 0
    while state.phase is not Phase.GAME_OVER:
        if state.is_chance_node:
            deal = random_deal(state, rng)
            state = apply(state, deal)
            number = 0
            print(f"\nDeal {state.deal}, dealt by {SEAT_NAMES[state.dealer]}", file=out)
            for seat, hand in enumerate(state.hands):
                print(f"  {SEAT_NAMES[seat]} is dealt {hand}", file=out)
            print(f"  upcard {state.discard_pile[-1]}; stock {len(state.stock)} cards", file=out)
            continue
        action = rng.choice(legal_actions(state))
        number += 1
        print(f"  {number:3}. {describe(state, action)}", file=out)
        state = apply(state, action)
        if state.phase is Phase.DEAL_OVER or state.phase is Phase.GAME_OVER:
            print(file=out)
            _print_table(state, out)
            _print_score(state.results[-1], state.scores, out)
    result = outcome(state)
    assert result is not None  # noqa: S101
    if result.winner is None:
        print(f"\nThe game is a draw, {result.scores[0]} all.", file=out)
    else:
        loser = 1 - result.winner
        print(f"\n{TEAM_NAMES[result.winner]} win, {result.scores[result.winner]} to {result.scores[loser]}.", file=out)
    return state


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="persian-rummy", description="Persian Rummy rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("demo", help="play one game between random players and print it")
    play.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the players' choices")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the command line; return the exit status.
    """
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            demo(args.seed)
    except BrokenPipeError:  # the reader stopped early, as ``| head`` does
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
