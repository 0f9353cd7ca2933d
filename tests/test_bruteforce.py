"""
Completeness and soundness of `legal_actions` by brute force, beside the slow reference of
`tests/test_properties.py`.

For states that games reach under any rule switches, every action that could be written for
the seat to act is tried with `is_legal`, which is `apply`: the stock draw, the take of each card
of the pile (at every depth), the pass, the discard of each card of the hand, each lay-down of
each group of three or more cards that could be a meld, and each lay-off of each group of the
hand's cards onto each table meld; and, to be refused, the same actions with a card from
elsewhere or by another seat.  `legal_actions` must list exactly the candidates that `apply`
accepts, once each.  A take, which the enumeration and `apply` judge with the same helper, is
also checked against the cards: it must be legal exactly when, on the state after it (built field
by field), a lay-down or lay-off that holds its card is (R15, A12).

The candidates come from the cards themselves, as power sets and pile positions, never from
the engine's helpers (`_internal.cardlogic`, `_enumerate`, `heuristics`): a blind spot of the
enumeration cannot hide in them.  Only the facts of R10-R12 and R17 prune them: a meld, and
what is laid off onto one, is of one rank or of one suit, so the groups that mix ranks and
suits are tried only up to three cards (each of them illegal, and `apply` must say so).

Under `Rules.jokers_wild` (A7) the lay-downs and lay-offs holding jokers are tried with their jokers
standing for every card a meld of those naturals could hold: each card of the naturals' rank or suit
(the table meld's, for a lay-off), every canonical choice (the lower joker for the earlier card) and,
with one or two jokers, every other order; and, to be refused, a joker standing for a card of another
rank and suit, and a joker left standing for nothing among naturals.  The groups with jokers are those
of one rank or one suit with jokers added, as far as the jokers can fill a set of four or a run (R10-R12);
a lay-off whose naturals mix ranks and suits with the meld's is tried with one choice of stand-ins only.

The number of games is `PERSIAN_RUMMY_BRUTE_FORCE_GAMES` (default 12, a few seconds);
``nox -s brute-force`` plays 2,000.  `PERSIAN_RUMMY_BRUTE_FORCE_RULES`, a rules id such as
``rummy_calls=true`` (as position notation writes the rules), fixes the switches it names in every
rules drawn; `Rules.jokers_wild` stays off unless it is named.  The games favour the corners
(`tests.strategies.corner_playouts`): decks dealt in stretches of suits or ranks, players that often
prefer to meld.  The test prints a summary line, ``brute force: ...``, with the states and candidate
actions checked.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings

from persian_rummy import (
    FULL_DECK,
    CallRummy,
    Card,
    CardSet,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    Rules,
    StandIns,
    TableMeld,
    TakeDiscard,
    apply,
    format_action,
    format_position,
    is_legal,
    legal_actions,
    parse_rules,
)
from tests.strategies import Playout, corner_playouts, rules_variants

#: Games played per run, in how many parts (tests that pytest-xdist can run side by side), and the
#: actions at most per game (deals included); a file to which each part appends its counts.
GAMES = int(os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_GAMES", "12"))
PARTS = int(os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_PARTS", "1"))
SUMMARY = os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_SUMMARY")
#: The rules id (``rummy_calls=true``) whose switches every game's rules keep; none by default.
FIXED_TEXT = os.environ.get("PERSIAN_RUMMY_BRUTE_FORCE_RULES", "-")


def switches(text: str) -> dict[str, Any]:
    """
    The switches that the rules id *text* names (``rummy_calls=true``), by name, with their values; none for ``-``.
    """
    named = (part.partition("=")[0] for part in text.split(",") if text != "-")
    return {name: getattr(parse_rules(text), name) for name in named}


#: The switches every game's rules keep, by name.
FIXED = switches(FIXED_TEXT)
MAX_ACTIONS = 300
#: A hand this small is tried with every group of its cards onto every meld.
SMALL_HAND = 6


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


def jokers_of(cards_: Iterable[Card]) -> list[Card]:
    return [card for card in cards_ if card.is_joker]


#: Each natural card's place in its suit, the two first (`FULL_DECK` order).
PLACES = {card: index % 13 for index, card in enumerate(FULL_DECK[:52])}


def fits(naturals: Sequence[Card], jokers: int) -> bool:
    """
    Whether *naturals*, of one rank or one suit, and *jokers* more cards could make a set (four at
    most) or a run (thirteen at most, the ace at either end): R10-R12.
    """
    size = len(naturals) + jokers
    if all(card.rank is naturals[0].rank for card in naturals):
        return size <= 4 or all(card.suit is naturals[0].suit for card in naturals)
    places = [PLACES[card] for card in naturals]
    lowered = [(place + 1) % 13 for place in places]  # the ace below the two
    return size <= 13 and min(max(places) - min(places), max(lowered) - min(lowered)) + 1 <= size


def wild_groups(cards_: Sequence[Card], least: int) -> set[CardSet]:
    """
    A7: every group of *least* or more of *cards_* that holds jokers and one natural card or more,
    the naturals of one rank or one suit that the jokers could fill out (`fits`); for a lay-off
    (*least* 1), every group of jokers alone as well.
    """
    jokers = jokers_of(cards_)
    naturals = [card for card in cards_ if not card.is_joker]
    found: set[CardSet] = set()
    for part in kin(naturals):
        for size in range(1, len(part) + 1):
            for group in itertools.combinations(part, size):
                for count in range(1, len(jokers) + 1):
                    if size + count >= least and fits(group, count):
                        found.update(CardSet([*group, *extra]) for extra in itertools.combinations(jokers, count))
    if least == 1:
        # A lay-off may be of jokers alone, standing for cards the meld takes.
        found.update(CardSet(group) for group in groups(jokers, range(1, len(jokers) + 1)))
    return found


def kin_cards(naturals: Iterable[Card]) -> list[Card]:
    """
    The natural cards of the rank or the suit of all of *naturals*: those a joker among them may stand for.
    """
    naturals = list(naturals)
    return [
        card
        for card in FULL_DECK[:52]
        if all(card.rank is other.rank for other in naturals) or all(card.suit is other.suit for other in naturals)
    ]


def stand_in_choices(cards_: CardSet, like: Iterable[Card]) -> tuple[StandIns, ...]:
    """
    A7: the stand-ins to try for the jokers of *cards_*, whose meld is of the rank or the suit of the
    cards *like*: every canonical choice of cards of that rank or suit (the lower joker for the earlier
    card), every order of them for one or two jokers, a joker standing for a card of another rank and
    suit, and the last joker standing for nothing.
    """
    return _stand_in_choices(cards_, CardSet(like))


@functools.lru_cache(maxsize=1 << 16)
def _stand_in_choices(cards_: CardSet, like: CardSet) -> tuple[StandIns, ...]:
    # The same groups come back state after state: each one's choices are made once.
    jokers = jokers_of(cards_)
    near = [card for card in kin_cards(like) if card not in cards_]
    found: list[StandIns] = []
    for stood in itertools.combinations(near, len(jokers)):
        orders = itertools.permutations(stood) if len(jokers) <= 2 else [stood]
        found.extend(stand_ins(tuple(zip(jokers, order, strict=True))) for order in orders)
    strangers = [card for card in FULL_DECK[:52] if card not in near and card not in cards_]
    if near and strangers:
        found.append(stand_ins(((jokers[0], strangers[0]), *zip(jokers[1:], near, strict=False))))
    if len(jokers) > 1 and len(near) >= len(jokers) - 1:
        found.append(stand_ins(tuple(zip(jokers[:-1], near, strict=False))))
    return tuple(found)


@functools.lru_cache(maxsize=1 << 18)
def stand_ins(pairs: tuple[tuple[Card, Card], ...]) -> StandIns:
    # Few jokers and 52 cards: the same pairs come back group after group, each one checked once.
    return StandIns(pairs)


def with_stand_ins(state: GameState, actions: Iterable[PlayerAction]) -> set[PlayerAction]:
    """
    A7: under `Rules.jokers_wild`, each lay-down and lay-off of *actions* that holds jokers and natural
    cards (or goes onto a natural meld) again with its jokers standing for cards (`stand_in_choices`).
    """
    found: set[PlayerAction] = set()
    if not state.rules.jokers_wild:
        return found
    for action in actions:
        if type(action) is LayDown:
            naturals = [card for card in action.cards if not card.is_joker]
            if naturals and jokers_of(action.cards):
                found.update(
                    attrs.evolve(action, stand_ins=choice) for choice in stand_in_choices(action.cards, naturals)
                )
        elif type(action) is LayOff and action.meld < len(state.melds) and jokers_of(action.cards):
            shown = [card for card in state.melds[action.meld].represents if not card.is_joker]
            if shown:
                choices = stand_in_choices(action.cards, shown)
                if not kin_cards([*shown, *(card for card in action.cards if not card.is_joker)]):
                    # Naturals not of the meld's rank or suit: refused whatever the jokers stand for (R10-R12).
                    choices = choices[:1]
                found.update(attrs.evolve(action, stand_ins=choice) for choice in choices)
    return found


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
    first = next(iter(meld.represents))
    same_rank = all(card.rank is first.rank for card in meld.represents)
    near = [card for card in hand if (card.rank is first.rank if same_rank else card.suit is first.suit)]
    found = {CardSet(group) for group in groups(near, range(1, len(near) + 1))}
    found.update(CardSet(group) for group in groups(hand, [1, 2]))
    return found


def candidate_actions(state: GameState, seat: int) -> set[PlayerAction]:
    """
    Every action to try for *seat* at *state*: the draw, the pass, a take of each card of the
    pile, a discard of each card of the hand, and both of a card elsewhere; the lay-downs from
    the hand (and, in the draw phase, the pile's top three cards: only a take brings them into
    the hand); the lay-offs onto each meld and, one card at a time, onto a meld one past the last.
    Before a draw from a stock that has cards, when no meld may be made (R13), only the groups of
    three and the single cards onto each meld.
    """
    hand = tuple(state.hands[seat])
    pile = state.discard_pile
    # Beside the pile and the hand, a card of each other place: the stock's top, the table's first.
    elsewhere = [*state.stock[:1], *(next(iter(meld.cards)) for meld in state.melds[:1])]
    found: set[PlayerAction] = {DrawStock(seat), Pass(seat)}
    # A24: any seat may try to call "Rummy!" or to decline, in any phase.
    found.update(kind(other) for kind in (CallRummy, DeclineCall) for other in range(4))
    found.update(TakeDiscard(seat, card) for card in [*pile, *hand[:1], *elsewhere])
    found.update(Discard(seat, card) for card in [*hand, *pile[-1:], *elsewhere])
    found.update(LayOff(seat, len(state.melds), CardSet([card])) for card in hand)
    if state.phase is Phase.DRAW and state.stock:
        # Before the draw nothing is melded (R13): every group of three, every card onto each meld.
        found.update(LayDown(seat, CardSet(group)) for group in groups(hand + pile[-3:], [3]))
        found.update(LayOff(seat, k, CardSet([card])) for k in range(len(state.melds)) for card in hand)
        return found
    pool = hand + (pile[-3:] if state.phase is Phase.DRAW else ())
    wild = state.rules.jokers_wild
    found.update(LayDown(seat, cards_) for cards_ in lay_down_groups(pool))
    if wild:
        found.update(LayDown(seat, cards_) for cards_ in wild_groups(pool, 3))
    for k, meld in enumerate(state.melds):
        found.update(LayOff(seat, k, cards_) for cards_ in lay_off_groups(meld, hand))
        if wild:
            found.update(LayOff(seat, k, cards_) for cards_ in wild_groups(hand, 1))
    found |= with_stand_ins(state, found)
    return found


def after_take(state: GameState, seat: int, depth: int) -> GameState:
    """
    The state after *seat* takes the pile's card at *depth* and every card above it (R14), and
    has played it: built field by field (through the checks of `GameState`) whether the take is
    legal or not, with the cards in hand and seen by all, in the turn's play phase.
    """
    pile = state.discard_pile
    taken = CardSet(pile[depth:])
    hands = tuple(hand | taken if who == seat else hand for who, hand in enumerate(state.hands))
    known = tuple(cards_ | taken if who == seat else cards_ for who, cards_ in enumerate(state.known))
    return attrs.evolve(
        state, phase=Phase.PLAY, hands=hands, known=known, discard_pile=pile[:depth], picked=taken, passes=0
    )


def playable(state: GameState, seat: int, card: Card) -> bool:
    """
    Whether *seat* can play *card* in one action (R15, A10-A12): a lay-down that holds it, or
    (where the rules let the card taken be laid off) a lay-off, that `is_legal` accepts.
    """
    hand = [other for other in state.hands[seat] if other != card]
    near = [other for other in hand if other.rank is card.rank or (card.suit is not None and other.suit is card.suit)]
    with_it = [CardSet([card, *group]) for group in groups(near, range(len(near) + 1))]
    melds = range(len(state.melds)) if state.rules.obligation_by_layoff else range(0)
    tries: list[PlayerAction] = [LayDown(seat, cards_) for cards_ in with_it if len(cards_) >= 3]
    tries.extend(LayOff(seat, k, cards_) for k in melds for cards_ in with_it)
    if state.rules.jokers_wild:
        # A7: with the jokers of the hand, standing for cards.
        wild = [cards_ for cards_ in wild_groups([card, *hand], 1) if card in cards_]
        tries.extend(LayDown(seat, cards_) for cards_ in wild if len(cards_) >= 3)
        tries.extend(LayOff(seat, k, cards_) for k in melds for cards_ in wild)
        tries.extend(with_stand_ins(state, tries))
    return any(is_legal(state, action) for action in tries)


def check_takes(state: GameState, seat: int, accepted: set[PlayerAction], counts: Counter[str]) -> None:
    """
    R14, R15, A9, A12: a take from the pile is legal exactly when its card can then be played in
    one action, with the cards in hand and those taken with it; the top card without that when the
    rules make it free (A9).  A legal take gives the state `after_take` builds, the card still to play.
    """
    pile = state.discard_pile
    rules = state.rules
    for depth, card in enumerate(pile):
        take = TakeDiscard(seat, card)
        after = after_take(state, seat, depth)
        free = rules.top_discard_free and bool(state.stock) and depth == len(pile) - 1
        expected = free or playable(after, seat, card)
        counts["takes"] += 1
        if expected != (take in accepted):
            verdict = "refused, but its card could be played" if expected else "legal, but its card cannot be played"
            pytest.fail(f"{format_action(take, state)} is {verdict} at {format_position(state)}")
        if expected:
            assert (after if free else attrs.evolve(after, obligation=card)) == apply(state, take)


def told(actions: Iterable[PlayerAction], state: GameState) -> list[str]:
    return sorted(format_action(action, state) for action in actions)


def check_state(state: GameState, counts: Counter[str]) -> None:
    """
    At *state*: `legal_actions` has no duplicates, and lists exactly the candidates that `is_legal`
    accepts; a take is legal exactly when its card can then be played (`check_takes`); no listed
    action is legal for another seat; at a chance node or after the game no candidate is legal.
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
    if state.phase is Phase.DRAW and seat is not None:
        check_takes(state, seat, accepted, counts)
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

    @pytest.mark.parametrize("part", range(PARTS))
    @pytest.mark.once  # whole games tried by brute force: the later Pythons' sessions check that the code runs
    def test_r13_a11_legal_actions_are_exactly_what_apply_accepts(
        self, part: int, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """
        R13-R17, R21, A8-A17: in every state of random games under random rule variants, the
        candidates that `is_legal` accepts are exactly `legal_actions`, without duplicates.
        """
        counts: Counter[str] = Counter()

        # No shrinking: the failure names the position and the actions, and every smaller game replays the brute force.
        @settings(
            max_examples=GAMES // PARTS + (part < GAMES % PARTS),
            phases=[hypothesis.Phase.explicit, hypothesis.Phase.reuse, hypothesis.Phase.generate],
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(corner_playouts(rules=rules_variants().map(fixed), max_actions=MAX_ACTIONS))
        def check_game(playout: Playout) -> None:
            counts["games"] += 1
            for state in playout.states:
                check_state(state, counts)

        check_game()
        if SUMMARY:
            with Path(SUMMARY).open("a", encoding="utf-8") as summary:
                summary.write(json.dumps(counts) + "\n")
        with capsys.disabled():
            sys.stdout.write(f"\n{summary_line(counts)}\n")
        assert counts["states"] >= counts["games"]


def fixed(rules: Rules, kept: Mapping[str, Any] = FIXED) -> Rules:
    """
    *rules* with the switches *kept* (those of `PERSIAN_RUMMY_BRUTE_FORCE_RULES`) set as it says, and
    `Rules.jokers_wild` off unless it names it: a game with wild jokers, each play tried with its jokers
    standing for every card, costs some seconds, so its games are played apart (``nox -s brute-force`` plays
    them under it alone and with calls of "Rummy!").
    """
    return attrs.evolve(rules, **{"jokers_wild": False, **kept})


def summary_line(counts: Mapping[str, int], texts: Sequence[str] = (FIXED_TEXT,)) -> str:
    """
    What a run checked, in one line: its games under the rules ids *texts* (in turn, where several).
    """
    shown = [text if text != "-" else "switches at random" for text in texts]
    under = "" if list(texts) == ["-"] else f" under {' and '.join(shown)}{' in turn' if len(texts) > 1 else ''}"
    return (
        f"brute force{under}: {counts['games']:,} games, {counts['states']:,} states "
        f"({counts['draw']:,} draw, {counts['play']:,} play, {counts['calls']:,} calls, {counts['called']:,} called, "
        "the rest between turns), "
        f"{counts['candidates']:,} candidate actions checked, {counts['legal']:,} of them legal, "
        f"{counts['takes']:,} takes checked against the cards; largest hand {counts['largest hand']} cards"
    )


def main(path: str) -> None:
    """
    Print the summary of the parts whose counts the file *path* holds, one JSON object a line.
    """
    total: Counter[str] = Counter()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        counts = json.loads(line)
        largest = max(total["largest hand"], counts.pop("largest hand", 0))
        total.update(counts)
        total["largest hand"] = largest
    sys.stdout.write(summary_line(total) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
