"""
Completeness and soundness of `legal_actions` by brute force, beside the slow reference of
`tests/test_properties.py`.

For states that games reach under any rule switches, every action that could be written for
the seat to act is tried with `is_legal`, which is `apply`: each stock draw, each take of each
card (those of the pile at every depth among them), the pass, each discard of each card, each
lay-down of each group of three or more cards that could be a meld, and each lay-off of each
group of the hand's cards onto each table meld.  `legal_actions` must list exactly the
candidates that `apply` accepts, once each.

The candidates come from the cards themselves, as power sets and pile positions, never from
the engine's helpers (`_cardlogic`, `_enumerate`, `heuristics`): a blind spot of the
enumeration cannot hide in them.  Only the facts of R10-R12 and R17 prune them: a meld, and
what is laid off onto one, is of one rank or of one suit, so the groups that mix ranks and
suits are tried only up to three cards (each of them illegal, and `apply` must say so).

The number of games is `PERSIAN_RUMMY_BRUTE_FORCE_GAMES` (default 12, a few seconds);
``nox -s brute-force`` runs many more.  The test prints a summary line, ``brute force: ...``,
with the states and candidate actions checked.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs
import hypothesis
import pytest
from attrs import frozen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    Phase,
    PlayerAction,
    TableMeld,
    TakeDiscard,
    apply,
    format_action,
    format_position,
    is_legal,
    legal_actions,
    new_game,
    next_dealer,
)
from tests.strategies import rules_variants, seeds

#: Games played per run, and the actions at most per game (deals included).
GAMES = int(os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_GAMES", "12"))
MAX_ACTIONS = 300
#: A hand this small is tried with every group of its cards onto every meld.
SMALL_HAND = 8


def clumped_deck(rng: random.Random, hand_size: int, swaps: int) -> tuple[Card, ...]:
    """
    A deck that deals each seat a stretch of `FULL_DECK` (a long run, mostly) and leaves the
    stock in order, starting at a random card, with *swaps* pairs of cards then exchanged.
    """
    start = rng.randrange(56)
    order = [*FULL_DECK[start:], *FULL_DECK[:start]]
    deck = [order[seat * hand_size + i] for i in range(hand_size) for seat in range(4)]
    deck += order[4 * hand_size :]
    for _ in range(swaps):
        i, j = rng.randrange(56), rng.randrange(56)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


@frozen(repr=False)
class Game:
    """
    The states of a game, with a short `repr` for Hypothesis to print: the rules changed and the length.
    """

    states: tuple[GameState, ...]

    def __repr__(self) -> str:
        return f"<Game of {len(self.states)} states, rules changed {self.states[0].rules.changes()}>"

    def _repr_pretty_(self, printer: Any, _cycle: bool) -> None:
        printer.text(repr(self))


@st.composite
def games(draw: st.DrawFn) -> Game:
    """
    The states of a game played from `new_game` under drawn rules: the decks shuffled, or
    clumped (`clumped_deck`) so that runs and sets are long; each action chosen by a drawn seed,
    among the melds and lay-offs when there are any with a drawn probability (long runs, full sets).
    """
    rules = draw(rules_variants())
    rng = random.Random(draw(seeds()))  # noqa: S311 (reproducible play)
    greed = draw(st.sampled_from([0.0, 0.5, 0.9, 1.0]))
    swaps = draw(st.sampled_from([0, None, 2, 8]))
    state = new_game(rules, dealer=draw(st.integers(0, 3)))
    states = [state]
    while state.phase is not Phase.GAME_OVER and len(states) <= MAX_ACTIONS:
        action: Action
        if state.is_chance_node:
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            chosen = tuple(deck) if swaps is None else clumped_deck(rng, rules.hand_size, swaps)
            action = Deal(next_dealer(state), chosen)
        else:
            actions = legal_actions(state)
            melds = [action for action in actions if isinstance(action, LayDown | LayOff)]
            action = rng.choice(melds if melds and rng.random() < greed else actions)
        state = apply(state, action)
        states.append(state)
    return Game(tuple(states))


def groups(cards_: Sequence[Card], sizes: Iterable[int]) -> Iterator[tuple[Card, ...]]:
    """
    Every group of *cards_* of each of *sizes*.
    """
    for size in sizes:
        yield from itertools.combinations(cards_, size)


def kin(cards_: Iterable[Card]) -> list[list[Card]]:
    """
    *cards_* by rank (the jokers are one rank) and by suit: each meld lies inside one of these (R10-R12).
    """
    by_rank: dict[object, list[Card]] = {}
    by_suit: dict[object, list[Card]] = {}
    for card in cards_:
        by_rank.setdefault(card.rank, []).append(card)
        if card.suit is not None:
            by_suit.setdefault(card.suit, []).append(card)
    return [*by_rank.values(), *by_suit.values()]


def lay_down_groups(cards_: Sequence[Card]) -> set[CardSet]:
    """
    Every group of three or more of *cards_* that keeps to one rank or one suit, and every group of three.
    """
    found = {CardSet(group) for group in groups(cards_, [3])}
    for part in kin(cards_):
        found.update(CardSet(group) for group in groups(part, range(3, len(part) + 1)))
    return found


def lay_off_groups(meld: TableMeld, hand: Sequence[Card]) -> set[CardSet]:
    """
    The groups of *hand* to try onto *meld*: all of them for a small hand; else every group of
    the hand's cards of the meld's rank (a set) or suit (a run), and every group of one or two cards.
    """
    if len(hand) <= SMALL_HAND:
        return {CardSet(group) for group in groups(hand, range(1, len(hand) + 1))}
    first = next(iter(meld.cards))
    same_rank = all(card.rank is first.rank for card in meld.cards)
    near = [card for card in hand if (card.rank is first.rank if same_rank else card.suit is first.suit)]
    found = {CardSet(group) for group in groups(near, range(1, len(near) + 1))}
    found.update(CardSet(group) for group in groups(hand, [1, 2]))
    return found


def candidate_actions(state: GameState, seat: int) -> set[PlayerAction]:
    """
    Every action to try for *seat* at *state*: the draws, a take and a discard of each of the 56
    cards, the pass, the lay-downs from the hand (and, in the draw phase, the pile's top three
    cards: only a take brings them into the hand), the lay-offs onto each meld and, one card at
    a time, onto a meld one past the last.
    """
    hand = tuple(state.hands[seat])
    found: set[PlayerAction] = {DrawStock(seat), Pass(seat)}
    found.update(TakeDiscard(seat, card) for card in FULL_DECK)
    found.update(Discard(seat, card) for card in FULL_DECK)
    pool = hand + (tuple(state.discard_pile[-3:]) if state.phase is Phase.DRAW else ())
    found.update(LayDown(seat, cards_) for cards_ in lay_down_groups(pool))
    for k, meld in enumerate(state.melds):
        found.update(LayOff(seat, k, cards_) for cards_ in lay_off_groups(meld, hand))
    found.update(LayOff(seat, len(state.melds), CardSet([card])) for card in hand)
    return found


def told(actions: Iterable[PlayerAction], state: GameState) -> list[str]:
    return sorted(format_action(action, state) for action in actions)


def check_state(state: GameState, counts: Counter[str]) -> None:
    """
    At *state*: `legal_actions` has no duplicates, and lists exactly the candidates that `is_legal`
    accepts; no listed action is legal for another seat; at a chance node or after the game no
    candidate is legal.
    """
    seat = state.to_act
    listed: tuple[PlayerAction, ...] = () if seat is None else legal_actions(state)
    assert len(set(listed)) == len(listed), f"duplicates in {told(listed, state)} at {format_position(state)}"
    candidates = set()
    for who in range(4) if seat is None else [seat]:
        candidates |= candidate_actions(state, who)
    accepted = {action for action in candidates if is_legal(state, action)}
    where = f"at {format_position(state)}"
    if accepted - set(listed):
        pytest.fail(f"legal but not listed: {told(accepted - set(listed), state)} {where}")
    if set(listed) - accepted:
        pytest.fail(f"listed but not legal: {told(set(listed) - accepted, state)} {where}")
    others = [attrs.evolve(action, seat=other) for action in listed for other in range(4) if other != seat]
    if any(is_legal(state, action) for action in others):
        pytest.fail(f"legal for another seat: {told(filter(lambda a: is_legal(state, a), others), state)} {where}")
    counts["states"] += 1
    counts[state.phase.value] += 1
    counts["candidates"] += len(candidates) + len(others)
    counts["legal"] += len(listed)
    counts["largest hand"] = max(counts["largest hand"], len(state.hands[seat or 0]))


class TestBruteForce:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one
    card"; R14, R15, R17, R21; A11: "A lay-off action may place several cards on one meld at once";
    A9-A13, A16, A17 under every switch.  Every action `apply` accepts is listed by
    `legal_actions`, and every listed action is accepted, once each.
    """

    def test_r13_a11_legal_actions_are_exactly_what_apply_accepts(self, capsys: pytest.CaptureFixture[str]) -> None:
        """
        R13-R17, R21, A8-A17: in every state of random games under random rule variants, the
        candidates that `is_legal` accepts are exactly `legal_actions`, without duplicates.
        """
        counts: Counter[str] = Counter()

        # No shrinking: the failure names the position and the actions, and every smaller game replays the brute force.
        @settings(
            max_examples=GAMES,
            phases=[hypothesis.Phase.explicit, hypothesis.Phase.reuse, hypothesis.Phase.generate],
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(games())
        def check_game(game: Game) -> None:
            counts["games"] += 1
            for state in game.states:
                check_state(state, counts)

        check_game()
        with capsys.disabled():
            sys.stdout.write(
                f"\nbrute force: {counts['games']:,} games, {counts['states']:,} states "
                f"({counts['draw']:,} draw, {counts['play']:,} play, the rest between turns), "
                f"{counts['candidates']:,} candidate actions checked, {counts['legal']:,} of them legal; "
                f"largest hand {counts['largest hand']} cards\n"
            )
        assert counts["states"] >= counts["games"]
