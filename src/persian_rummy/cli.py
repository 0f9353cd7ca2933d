"""
The ``persian-rummy`` command.

* ``persian-rummy demo --seed N [--record FILE]`` plays one complete game between four
  players who choose uniformly among their legal actions, and prints every action, the
  table at the end of each deal, each deal's score and the winner; with ``--record`` it
  also writes the game record as JSON.
* ``persian-rummy replay FILE`` prints a recorded game action by action, checking every
  action, with the scores.
* ``persian-rummy show POSITION`` prints a position written in position notation.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .actions import Action
from .engine import apply, legal_actions, outcome, random_deal
from .exceptions import PersianRummyError
from .melds import MeldKind
from .notation import format_rules, parse_position
from .records import GameRecord, replay
from .scoring import DealScore
from .serialize import from_json, to_json
from .state import GameState, Phase, new_game

__all__ = ["demo", "describe", "main", "replay_file", "show"]

#: Seat names: North and South are partners against East and West.
_SEAT_NAMES = ("N", "E", "S", "W")
_TEAM_NAMES = ("N-S", "E-W")


class _Telling(dict[str, str]):
    """
    What the names in braces in an action's `phrase` stand for, worked out from the state as asked.
    """

    def __init__(self, state: GameState, action: Action) -> None:
        super().__init__()
        self.state = state
        self.action = action

    def __missing__(self, name: str) -> str:
        action, state = self.action, self.state
        if name == "meld":
            index: int = getattr(action, "meld")  # noqa: B009 (the field the phrase names)
            return f"meld {index + 1} ({state.melds[index].cards})"
        if name == "above":
            pile = state.discard_pile
            above = len(pile) - 1 - pile.index(getattr(action, "card"))  # noqa: B009
            return f" and the {above} card{'s' if above > 1 else ''} above it" if above else ""
        return str(getattr(action, name))


def describe(state: GameState, action: Action) -> str:
    """
    One line saying what *action* does in *state*, in card notation.

    >>> import random
    >>> from persian_rummy import new_game, random_deal
    >>> state = new_game()
    >>> describe(state, random_deal(state, random.Random(1)))
    'N deals'
    """
    return f"{_SEAT_NAMES[action.seat]} {action.phrase.format_map(_Telling(state, action))}"


def _print_table(state: GameState, out: TextIO) -> None:
    print(f"Table at the end of deal {state.deal}:", file=out)
    if not state.melds:
        print("  no melds", file=out)
    for number, meld in enumerate(state.melds, start=1):
        extras = "".join(f"; {part} laid off by {_SEAT_NAMES[seat]}" for seat, part in enumerate(meld.layoffs) if part)
        doubled = meld.four_at_once and (
            state.rules.double_four_of_a_kind if meld.kind is MeldKind.SET else state.rules.double_four_card_runs
        )
        four = ", laid down at once: doubled" if doubled else ""
        print(
            f"  meld {number}: {meld.cards} ({meld.kind} laid down by {_SEAT_NAMES[meld.owner]}{four}{extras})",
            file=out,
        )
    for seat, hand in enumerate(state.hands):
        print(f"  {_SEAT_NAMES[seat]} holds {hand or '-'} ({hand.points} points)", file=out)
    print(f"  stock: {len(state.stock)} cards; discard pile (bottom to top): {_cards(state.discard_pile)}", file=out)


def _cards(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def _print_score(result: DealScore, totals: tuple[int, int], out: TextIO) -> None:
    if result.went_out is not None:
        how = f"{_SEAT_NAMES[result.went_out]} went out"
    else:
        how = f"ended by {result.end.value.replace('_', ' ')}"
    print(f"Score of deal {result.deal} ({how}):", file=out)
    print(f"  {'team':<5} {'melded':>7} {'doubling':>9} {'bonus':>6} {'in hand':>8} {'total':>6}", file=out)
    for team, score in enumerate(result.teams):
        print(
            f"  {_TEAM_NAMES[team]:<5} {score.melded:>7} {score.doubling:>9} {score.bonus:>6}"
            f" {-score.in_hand:>8} {score.total:>6}",
            file=out,
        )
    print(f"  game totals: {_TEAM_NAMES[0]} {totals[0]}, {_TEAM_NAMES[1]} {totals[1]}", file=out)


class _Narrator:
    """
    Prints a game as it is played or replayed: each deal, each action, each deal's end and the result.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.number = 0

    def step(self, before: GameState, action: Action, after: GameState) -> None:
        out = self.out
        if before.is_chance_node:
            self.number = 0
            print(f"\nDeal {after.deal}, dealt by {_SEAT_NAMES[after.dealer]}", file=out)
            for seat, hand in enumerate(after.hands):
                print(f"  {_SEAT_NAMES[seat]} is dealt {hand}", file=out)
            print(f"  upcard {after.discard_pile[-1]}; stock {len(after.stock)} cards", file=out)
            return
        self.number += 1
        print(f"  {self.number:3}. {describe(before, action)}", file=out)
        if after.phase is Phase.DEAL_OVER or after.phase is Phase.GAME_OVER:
            print(file=out)
            _print_table(after, out)
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
    who = "" if state.to_act is None else f", {_SEAT_NAMES[state.to_act]} to act"
    return f"deal {state.deal}, phase {state.phase.value.replace('_', ' ')}{who}"


def demo(seed: int, out: TextIO | None = None, record: str | None = None) -> GameState:
    """
    Play and print one game between random players (to *out*, standard output by default); return the final state.

    With *record*, also write the game record to that file as JSON.
    """
    out = sys.stdout if out is None else out
    rng = random.Random(seed)
    state = new_game()
    print(f"Persian Rummy, random players, seed {seed}", file=out)
    print("Seats N, E, S, W clockwise; N-S play against E-W.", file=out)
    narrator = _Narrator(out)
    actions: list[Action] = []
    while state.phase is not Phase.GAME_OVER:
        action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
        after = apply(state, action)
        narrator.step(state, action, after)
        actions.append(action)
        state = after
    narrator.finish(state)
    if record is not None:
        game = GameRecord(rules=state.rules, actions=actions, event=f"persian-rummy demo, seed {seed}")
        Path(record).write_text(to_json(game, pretty=True) + "\n", encoding="utf-8")
    return state


def replay_file(path: str, out: TextIO | None = None) -> GameState:
    """
    Print the game recorded in the JSON file *path*, action by action, with the scores; return the last state.

    Raises:
        OSError: the file cannot be read.
        InvalidDataError: the file is not a game record.
        InvalidRecordError: an action of the record is illegal.
    """
    out = sys.stdout if out is None else out
    record = from_json(Path(path).read_bytes(), GameRecord)
    print(f"Persian Rummy, game record {path}", file=out)
    if record.players is not None:
        names = ", ".join(f"{_SEAT_NAMES[seat]} {name}" for seat, name in enumerate(record.players))
        print(f"Players: {names}", file=out)
    for label, value in (("Event", record.event), ("Date", record.date)):
        if value is not None:
            print(f"{label}: {value}", file=out)
    changes = format_rules(record.rules)
    print(f"Rules: {'Persian Rummy' if changes == '-' else changes}", file=out)
    narrator = _Narrator(out)
    states = replay(record)
    state = next(states)
    for action, after in zip(record.actions, states, strict=False):
        narrator.step(state, action, after)
        state = after
    narrator.finish(state)
    return state


def show(state: GameState, out: TextIO | None = None) -> None:
    """
    Print a position readably: where the game is, the hands, the piles, the table and the scores.
    """
    out = sys.stdout if out is None else out
    changes = format_rules(state.rules)
    print(f"Rules: {'Persian Rummy' if changes == '-' else changes}", file=out)
    line = _state_line(state)
    print(f"{line[:1].upper()}{line[1:]}; dealer {_SEAT_NAMES[state.dealer]}", file=out)
    if state.obligation is not None:
        print(f"  {state.obligation}, taken from the discard pile, must be played", file=out)
    if state.passes:
        print(f"  {state.passes} pass(es) in a row", file=out)
    for seat, hand in enumerate(state.hands):
        known = f" (taken from the pile: {state.revealed[seat]})" if state.revealed[seat] else ""
        print(f"  {_SEAT_NAMES[seat]} holds {hand or '-'}{known}", file=out)
    print(f"  stock: {len(state.stock)} cards, next {_cards(state.stock[:1])}", file=out)
    print(f"  discard pile (bottom to top): {_cards(state.discard_pile)}", file=out)
    for number, meld in enumerate(state.melds, start=1):
        extras = "".join(f"; {part} laid off by {_SEAT_NAMES[seat]}" for seat, part in enumerate(meld.layoffs) if part)
        print(f"  meld {number}: {meld.cards} ({meld.kind} laid down by {_SEAT_NAMES[meld.owner]}{extras})", file=out)
    for result in state.results:
        totals = result.totals
        print(f"  deal {result.deal}: {_TEAM_NAMES[0]} {totals[0]}, {_TEAM_NAMES[1]} {totals[1]}", file=out)
    if state.results:
        print(f"  game totals: {_TEAM_NAMES[0]} {state.scores[0]}, {_TEAM_NAMES[1]} {state.scores[1]}", file=out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="persian-rummy", description="Persian Rummy rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("demo", help="play one game between random players and print it")
    play.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the players' choices")
    play.add_argument("--record", metavar="FILE", help="also write the game record to FILE as JSON")
    again = commands.add_parser("replay", help="print a recorded game (JSON) action by action")
    again.add_argument("file", metavar="FILE", help="the game record")
    position = commands.add_parser("show", help="print a position given in position notation")
    position.add_argument("position", metavar="POSITION", help="the position, one line; '-' reads it from stdin")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the command line; return the exit status (0 on success, 1 when the input is refused).
    """
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            demo(args.seed, record=args.record)
        elif args.command == "replay":
            replay_file(args.file)
        else:
            text = sys.stdin.read() if args.position == "-" else args.position
            show(parse_position(text.strip()))
    except BrokenPipeError:  # the reader stopped early, as ``| head`` does
        sys.stderr.close()
    except (OSError, PersianRummyError) as error:
        print(f"persian-rummy: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
