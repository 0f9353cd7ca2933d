"""
The differential test of the two builds: seeded games played on the pure-Python build and on the
compiled one must agree on everything.

``python tests/differential.py play --build pure --out pure.txt`` plays the games and writes one
line per game: its number, its rules and a SHA-256 digest of everything the game showed: every
state (its pickle and its hash), every set of legal actions (of the state, and whether the view of
the seat to act has the same), the successors of every legal action of one decision in
`CHILDREN_EVERY`, a pickle of each state with the next one, and the error (type and message) that
four attempts at each state, drawn from a fixed set of illegal ones, raised, or the state they gave.
``--build compiled`` does the same on the compiled build; each run first checks that it imports
the build it names.  ``python tests/differential.py compare pure.txt compiled.txt`` then prints the
games whose lines differ and the count, and fails if there is any.

The games: the first quarter under the default rules, the others under rules drawn at random from
the values the test strategies try (every field of `Rules`), with the deals capped at
``--max-actions`` actions for the rules under which a deal may go on for ever.  `nox -s compiled`
runs it on 2,000 games.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import pickle
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from enum import Enum
from pathlib import Path
from typing import Final

import attrs

import persian_rummy
from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Pass,
    Rules,
    TakeDiscard,
    apply,
    is_game_over,
    legal_actions,
    observe,
    random_deal,
)
from persian_rummy.rules import CardValues
from persian_rummy.state import next_dealer

#: Seeds of the games: game *i* is played with ``random.Random(SEED + i)``.
SEED = 20_240_000
#: The share of the games played under the default rules; the others under variants.
DEFAULT_SHARE = 4
#: The decisions whose every successor is digested: one in this many.
CHILDREN_EVERY = 20
#: The attempts at each state, drawn from `illegal_attempts`.
ATTEMPTS = 4


#: The card values tried besides R23's (§5 ``card_values``): none scoring, every card 100, and faces by rank.
CARD_VALUES_TRIED: Final = (
    CardValues.of(dict.fromkeys("23456789TJQKAX", 0)),
    CardValues.of(dict.fromkeys("23456789TJQKAX", 100)),
    CardValues.of({"J": 11, "Q": 12, "K": 13, "A": 1, "X": 50}),
)


def rules_values() -> dict[str, tuple[object, ...]]:
    """
    The values tried for each field of `Rules`: the default first, then every other value of a boolean or
    an enumeration, and the values a number's ``tried`` metadata names.
    """
    values: dict[str, tuple[object, ...]] = {}
    for field in attrs.fields(Rules):
        default = field.default
        if isinstance(default, bool):
            values[field.name] = (default, not default)
        elif isinstance(default, Enum):
            values[field.name] = (default, *(member for member in type(default) if member is not default))
        elif isinstance(default, CardValues):
            values[field.name] = (default, *CARD_VALUES_TRIED)
        elif field.metadata.get("tried"):
            values[field.name] = (default, *field.metadata["tried"])
        else:
            msg = (
                f"no values to try for the rule switch {field.name}: add them here (CONTRIBUTING, structured switches)"
            )
            raise TypeError(msg)
    return values


def rules_of(game: int, rng: random.Random) -> Rules:
    """
    The rules of game number *game*: the default rules for one game in `DEFAULT_SHARE`, otherwise each field
    drawn among its values (the default as likely as the others together, so that games mix few changes).
    """
    if game % DEFAULT_SHARE == 0:
        return Rules()
    changes: dict[str, object] = {}
    for name, values in rules_values().items():
        if rng.random() < 0.3:
            changes[name] = rng.choice(values[1:])
    return Rules(**changes)  # type: ignore[arg-type]


def forged(action: Action, **fields: object) -> Action:
    """
    *action* with fields set past its checks, as code that sets a frozen value's slots by force can.
    """
    copy = attrs.evolve(action)
    for name, value in fields.items():
        object.__setattr__(copy, name, value)
    return copy


#: Attempts, most of them illegal, each made from the seat to act (or the dealer) *seat*, the next seat *other*,
#: a card, three cards and a meld index: each action type from the wrong seat or in the wrong phase, cards that
#: are not where the action needs them, forged fields, and what is no action.
ATTEMPT_KINDS: tuple[Callable[[int, int, Card, CardSet, int], object], ...] = (
    lambda seat, other, card, three, meld: DrawStock(other),
    lambda seat, other, card, three, meld: DrawStock(seat),
    lambda seat, other, card, three, meld: Pass(seat),
    lambda seat, other, card, three, meld: TakeDiscard(seat, card),
    lambda seat, other, card, three, meld: Discard(seat, card),
    lambda seat, other, card, three, meld: Discard(other, card),
    lambda seat, other, card, three, meld: LayDown(seat, three),
    lambda seat, other, card, three, meld: LayOff(seat, meld, CardSet([card])),
    lambda seat, other, card, three, meld: Deal(other, FULL_DECK),
    lambda seat, other, card, three, meld: Deal(seat, FULL_DECK),
    lambda seat, other, card, three, meld: forged(DrawStock(seat), seat=str(seat)),
    lambda seat, other, card, three, meld: forged(Discard(seat, card), seat=None),
    lambda seat, other, card, three, meld: forged(Discard(seat, card), card=card.index),
    lambda seat, other, card, three, meld: forged(TakeDiscard(seat, card), seat=True),
    lambda seat, other, card, three, meld: forged(LayOff(seat, meld, CardSet([card])), meld=str(meld)),
    lambda seat, other, card, three, meld: forged(LayOff(seat, 0, CardSet([card])), meld=False),
    lambda seat, other, card, three, meld: forged(LayDown(seat, three), cards=str(three)),
    lambda seat, other, card, three, meld: forged(Deal(seat, FULL_DECK), deck=list(FULL_DECK)),
    lambda seat, other, card, three, meld: forged(Deal(seat, FULL_DECK), seat=float(seat)),
    lambda seat, other, card, three, meld: "draw",
    lambda seat, other, card, three, meld: None,
)


def attempts(state: GameState, rng: random.Random) -> list[object]:
    """
    `ATTEMPTS` attempts at *state*, of kinds drawn from `ATTEMPT_KINDS`, with cards and a meld index drawn too.
    """
    seat = state.to_act if state.to_act is not None else next_dealer(state)
    other = (seat + 1) % 4
    card = FULL_DECK[rng.randrange(56)]
    three = CardSet(rng.sample(FULL_DECK, 3))
    meld = rng.randrange(len(state.melds) + 2)
    return [kind(seat, other, card, three, meld) for kind in rng.sample(ATTEMPT_KINDS, ATTEMPTS)]


def outcome_of(call: Callable[..., object], *args: object) -> bytes:
    """
    What ``call(*args)`` gave: the pickle of its value, or the type and the message of what it raised.
    """
    try:
        value = call(*args)
    except Exception as error:  # noqa: BLE001 (any error is recorded, to be compared between the builds)
        return f"{type(error).__module__}.{type(error).__qualname__}: {error}".encode()
    return pickle.dumps(value, protocol=5)


def state_record(state: GameState) -> bytes:
    return pickle.dumps(state, protocol=5) + str(hash(state)).encode()


def play_game(game: int, max_actions: int) -> tuple[Rules, str, int]:
    """
    Play game number *game*; its rules, the digest of everything it showed, and its number of states.
    """
    rng = random.Random(SEED + game)
    rules = rules_of(game, rng)
    digest = hashlib.sha256()
    state = persian_rummy.new_game(rules, dealer=rng.randrange(4))
    states = 0
    while states < max_actions:
        states += 1
        digest.update(state_record(state))
        for attempt in attempts(state, rng):
            digest.update(outcome_of(apply, state, attempt))
        if is_game_over(state):
            break
        if state.is_chance_node:
            digest.update(outcome_of(legal_actions, state))
            action: Action = random_deal(state, rng)
        else:
            legal = legal_actions(state)
            digest.update(pickle.dumps(legal, protocol=5))
            digest.update(b"view agrees" if legal_actions(observe(state, state.to_act)) == legal else b"view differs")
            if states % CHILDREN_EVERY == 0:
                for choice in legal:
                    digest.update(state_record(apply(state, choice)))
            action = rng.choice(legal)
        after = apply(state, action)
        if states % CHILDREN_EVERY == 1:
            digest.update(pickle.dumps((state, after), protocol=5))  # what the two share, pickled once
        state = after
    return rules, digest.hexdigest(), states


def game_line(game: int, max_actions: int) -> tuple[str, int]:
    rules, digest, states = play_game(game, max_actions)
    return f"{game} {digest} {states} {rules.changes()}\n", states


def play(build: str, games: int, start: int, max_actions: int, jobs: int, out: Path) -> int:
    if persian_rummy.engine.COMPILED != (build == "compiled"):
        where = Path(persian_rummy.__file__ or "?").parent
        sys.exit(
            f"differential.py: asked for the {build} build, imported {where} (COMPILED={persian_rummy.engine.COMPILED})"
        )
    total = 0
    one = functools.partial(game_line, max_actions=max_actions)
    with ProcessPoolExecutor(jobs) as pool, out.open("w", encoding="utf-8") as file:
        for line, states in pool.map(one, range(start, start + games), chunksize=20):
            total += states
            file.write(line)
    print(f"differential: {games:,} games played on the {build} build, {total:,} states, written to {out}")
    return 0


def compare(first: Path, second: Path) -> int:
    a = first.read_text(encoding="utf-8").splitlines()
    b = second.read_text(encoding="utf-8").splitlines()
    differences = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    for x, y in differences[:20]:
        print(f"  {first.name}: {x}\n  {second.name}: {y}")
    if len(a) != len(b):
        print(f"  {first.name} has {len(a)} games, {second.name} {len(b)}")
    states = sum(int(line.split()[2]) for line in a)
    print(f"differential: {len(differences)} differences over {min(len(a), len(b)):,} games ({states:,} states)")
    return 1 if differences or len(a) != len(b) or not a else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play the games and write one digest per game")
    playing.add_argument("--build", choices=("pure", "compiled"), required=True)
    playing.add_argument("--games", type=int, default=2000)
    playing.add_argument("--start", type=int, default=0, help="the number of the first game")
    playing.add_argument("--max-actions", type=int, default=1000, help="the most states a game is followed for")
    playing.add_argument("--jobs", type=int, default=os.cpu_count(), help="processes (default: one per CPU)")
    playing.add_argument("--out", type=Path, required=True)
    comparing = commands.add_parser("compare", help="compare two files of digests")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    args = parser.parse_args(argv)
    if args.command == "play":
        if os.environ.get("PYTHONHASHSEED") != "0":
            sys.exit("differential.py: set PYTHONHASHSEED=0, so that both builds hash alike")
        return play(args.build, args.games, args.start, args.max_actions, args.jobs, args.out)
    return compare(args.first, args.second)


if __name__ == "__main__":
    sys.exit(main())
