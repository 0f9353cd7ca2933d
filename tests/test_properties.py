"""
Properties of every state a game can reach, checked with Hypothesis over played games.

The states come from `tests.strategies`: games played from `new_game` with drawn decks and
legal actions, under the default rules or any combination of rule switches.  The last part
of this module is a slow reference implementation of the draw and play rules, written from the
rules as the rules page states them, without the engine's bit tricks, that `legal_actions` must
agree with.

The properties are grouped in classes by rule: conservation, legal actions, purity of `apply`,
termination, table melds, points, scores, the team draw, and agreement with the reference.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

import attrs
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from persian_rummy import (
    DEFAULT_RULES,
    FULL_DECK,
    CallRummy,
    Card,
    CardSet,
    CardValues,
    ChanceNodeError,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    PlayerAction,
    Rank,
    Rules,
    StandIns,
    Suit,
    TakeDiscard,
    apply,
    check_invariants,
    is_legal,
    legal_actions,
    parse_position,
    score_deal,
)
from persian_rummy.engine import max_deal_length, max_game_length
from persian_rummy.melds import meld_kind
from persian_rummy.rules import EmptyStockEnd, ObligationTiming, TieBreak
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.seating import Redraw, Seating, draw_rank, team_draw
from persian_rummy.state import next_dealer
from tests import positions
from tests.strategies import (
    Playout,
    cards,
    chosen_states,
    corner_playouts,
    played_states,
    playouts,
    random_action,
    rules_variants,
    seeds,
    well_formed_actions,
)

#: The games of the reference under calls of "Rummy!" (A24), and what they checked.
CALLS_GAMES = int(os.environ.get("PERSIAN_RUMMY_REFERENCE_CALLS_GAMES", "20"))
CALLS_COUNTS: Counter[str] = Counter()
#: The games of the reference under wild jokers (A7), and what they checked.
JOKERS_GAMES = int(os.environ.get("PERSIAN_RUMMY_REFERENCE_JOKERS_GAMES", "20"))
JOKERS_COUNTS: Counter[str] = Counter()

#: R23, A19: joker 20, ace 15, K/Q/J/10 10, 2-9 face value.
POINTS_BY_RANK = {Rank.JOKER: 20, Rank.ACE: 15, Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10}
#: The field of `CardValues` of each rank.
RANK_FIELDS = dict(zip(Rank, [field.name for field in attrs.fields(CardValues) if field.init], strict=True))


def points(cards_: Iterable[Card], rules: Rules = DEFAULT_RULES) -> int:
    """
    The points of *cards_* under *rules*, without the library's tables: R23's table for the
    defaults, else the value of each card's rank in `Rules.card_values`.
    """
    if rules.card_values == DEFAULT_RULES.card_values:
        return sum(POINTS_BY_RANK.get(card.rank, int(card.rank)) for card in cards_)
    return sum(getattr(rules.card_values, RANK_FIELDS[card.rank]) for card in cards_)


def every_card(state: GameState) -> list[Card]:
    """
    Every card of *state*, read from its fields: hands, stock, discard pile, table melds.
    """
    found: list[Card] = []
    for hand in state.hands:
        found.extend(hand)
    found.extend(state.stock)
    found.extend(state.discard_pile)
    for meld in state.melds:
        found.extend(meld.cards)
    return found


def assert_conserved(state: GameState) -> None:
    """
    All 56 cards are present exactly once (R2), counted independently of `check_invariants`.
    """
    counts = Counter(every_card(state))
    expected = dict.fromkeys(FULL_DECK, 1)
    assert expected == dict(counts)


def is_over(state: GameState) -> bool:
    return state.phase is Phase.GAME_OVER


def in_turn(state: GameState) -> bool:
    return state.phase is Phase.DRAW or state.phase is Phase.PLAY


def answering(state: GameState) -> bool:
    """
    Whether a seat answers a discard: asked whether it calls "Rummy!", or laying off the card it called on (A24).
    """
    return state.phase is Phase.CALLS or state.phase is Phase.CALLED


def deal_ends(playout: Playout) -> list[GameState]:
    """
    The states of *playout* in which a deal has just ended.
    """
    over = {Phase.DEAL_OVER, Phase.GAME_OVER}
    # A24: a discard answered by calls leaves the turn without ending the deal.
    return [after for before, _, after in playout.steps if before.phase not in over and after.phase in over]


ALL_FIELDS = tuple(field.name for field in attrs.fields(GameState))


class TestConservation:
    """
    R2: "56 cards: the 52-card French deck plus 4 Jokers. [...] The 52 cards are all distinct".
    Every state of every game holds each of the 56 cards exactly once.
    """

    @given(playouts(rules=rules_variants()))
    def test_r2_every_card_exactly_once_in_every_state(self, playout: Playout) -> None:
        """
        R2: in every state reached, all 56 cards are present exactly once across the hands, the
        stock, the discard pile and the table melds, and `check_invariants` accepts the state.
        """
        for state in playout.states:
            assert_conserved(state)
            check_invariants(state)

    @settings(max_examples=25)
    @given(chosen_states(rules=rules_variants()))
    def test_r2_every_card_exactly_once_with_chosen_actions(self, state: GameState) -> None:
        """
        R2: the same conservation when Hypothesis chooses every action (shrinks action by action).
        """
        assert_conserved(state)
        check_invariants(state)


_DRAW_ORDER = {DrawStock: 0, TakeDiscard: 1, LayDown: 2, LayOff: 3, Pass: 4}
_PLAY_ORDER = {LayDown: 0, LayOff: 1, Discard: 2}


def deal_is_legal(state: GameState, action: Deal) -> bool:
    """
    R2, R5, R7, A4: a deal is legal at a chance node, by the right dealer, with all 56 cards once.
    """
    indices = sorted(card.index for card in action.deck)
    return state.is_chance_node and action.seat == next_dealer(state) and list(range(56)) == indices


class TestLegalActions:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one
    card, which ends the turn"; R14: "Exactly one draw action per turn"; R21: "When the draw pile is
    empty a player has two choices: take from the discard pile [...] or pass".  `legal_actions`
    lists actions that apply, in a documented order, and `is_legal` agrees with it.
    """

    @given(played_states(rules=rules_variants()))
    def test_r13_every_legal_action_applies(self, state: GameState) -> None:
        """
        R13: every action in `legal_actions` applies without error and gives a new, valid state;
        `legal_actions` has no duplicates and gives the same tuple every time.  At a chance node
        it raises `ChanceNodeError`; after the game it is empty.
        """
        if state.is_chance_node:
            with pytest.raises(ChanceNodeError):
                legal_actions(state)
            return
        actions = legal_actions(state)
        assert actions == legal_actions(state)
        assert len(actions) == len(set(actions))
        if is_over(state):
            assert not actions
            return
        assert actions, "a turn can always go on (R13, R21)"
        for action in actions:
            assert state.to_act == action.seat
            after = apply(state, action)
            assert after is not state
            assert after != state
            check_invariants(after)

    @given(played_states(rules=rules_variants()))
    def test_r13_legal_actions_come_in_the_documented_order(self, state: GameState) -> None:
        """
        R13, R14, R21: the draw phase lists `DrawStock`, then `TakeDiscard` from the top of the pile
        down, then `Pass`; the play phase lists `LayDown`, then `LayOff` by meld, then `Discard` in
        `FULL_DECK` order.  A16: with `pass_allows_melding` and an empty stock, the melds and
        lay-offs come before `Pass`.  A7: with `jokers_wild`, the plays with jokers standing for
        cards come after the others, lay-downs then lay-offs by meld.
        """
        if not in_turn(state):
            return
        actions = legal_actions(state)
        order = _DRAW_ORDER if state.phase is Phase.DRAW else _PLAY_ORDER

        def kind(action: PlayerAction) -> float:
            if isinstance(action, LayDown | LayOff) and action.stand_ins:
                return order[LayOff] + (0.25 if isinstance(action, LayDown) else 0.5)
            return order[type(action)]

        kinds = [kind(action) for action in actions]
        assert sorted(kinds) == kinds
        wild = [action for action in actions if isinstance(action, LayOff) and action.stand_ins]
        assert sorted(action.meld for action in wild) == [action.meld for action in wild]
        actions = tuple(action for action in actions if not (isinstance(action, LayDown | LayOff) and action.stand_ins))
        if state.phase is Phase.DRAW:
            melding = state.rules.pass_allows_melding and not state.stock
            allowed = {DrawStock, TakeDiscard, Pass, *((LayDown, LayOff) if melding else ())}
            assert all(type(action) in allowed for action in actions)
            depth = [state.discard_pile.index(action.card) for action in actions if isinstance(action, TakeDiscard)]
            assert sorted(depth, reverse=True) == depth
        else:
            assert all(type(action) in {LayDown, LayOff, Discard} for action in actions)
            melds = [action.meld for action in actions if isinstance(action, LayOff)]
            assert sorted(melds) == melds
            discarded = [action.card.index for action in actions if isinstance(action, Discard)]
            assert sorted(discarded) == discarded

    @given(played_states(rules=rules_variants()), st.data())
    def test_r13_is_legal_agrees_with_legal_actions(self, state: GameState, data: st.DataObject) -> None:
        """
        R13: for well-formed actions, legal or not, ``is_legal(s, a) == (a in legal_actions(s))``
        (a deal: at a chance node, by the right dealer, with a full deck); an action that is not
        legal raises `IllegalActionError` and leaves the state equal to a snapshot of it.
        """
        snapshot = attrs.evolve(state)
        legal: tuple[PlayerAction, ...] = () if state.is_chance_node else legal_actions(state)
        for _ in range(8):
            action = data.draw(well_formed_actions(state))
            expected = deal_is_legal(state, action) if isinstance(action, Deal) else action in legal
            assert expected == is_legal(state, action)
            if not expected:
                with pytest.raises(IllegalActionError) as raised:
                    apply(state, action)
                assert action is raised.value.action
                assert raised.value.rule_text
                note(f"{action!r}: {raised.value.reason} ({raised.value.rule_text})")
            assert snapshot == state


class TestApplyIsPure:
    """
    R13: "Draw → meld [...] → discard one card, which ends the turn".  `apply` makes each step of a
    turn as a new state, the same for equal inputs, and never changes the state it is given.
    """

    @given(played_states(rules=rules_variants()), st.data())
    def test_r13_apply_is_deterministic_and_leaves_its_input_alone(self, state: GameState, data: st.DataObject) -> None:
        """
        R13: `apply` gives equal results for equal inputs and never changes the state passed in:
        afterwards the state equals a snapshot, has the same hash and holds the very same objects
        in every field, whether the action was legal or not.
        """
        snapshot = attrs.evolve(state)
        assert snapshot is not state
        fields = {name: getattr(state, name) for name in ALL_FIELDS}
        digest = hash(state)
        for _ in range(4):
            action = data.draw(well_formed_actions(state))
            if is_legal(state, action):
                first = apply(state, action)
                second = apply(snapshot, action)
                assert first == second
                assert hash(first) == hash(second)
                assert first == apply(state, action)
            else:
                with pytest.raises(IllegalActionError) as raised:
                    apply(state, action)
                with pytest.raises(IllegalActionError) as again:
                    apply(snapshot, action)
                assert (raised.value.reason, raised.value.rule_text) == (again.value.reason, again.value.rule_text)
            assert snapshot == state
            assert digest == hash(state)
            assert all(getattr(state, name) is value for name, value in fields.items())


class TestTermination:
    """
    R22: "A round ends (a) immediately when a player goes out (R19), or (b) [...] when the stock is
    empty and all four players pass in succession (A17)"; R27: "A game is exactly two deals."; A17:
    "Termination is guaranteed: each discard-pile turn removes ≥1 card from hands+pile (draw k, meld
    ≥1, discard 1)."
    """

    @given(rules_variants(bounded=True), seeds())
    def test_r22_a17_every_game_terminates_within_the_bound(self, rules: Rules, seed: int) -> None:
        """
        R22, R27, A17: random games end within ``max_game_length(rules)`` actions and every deal
        within ``max_deal_length(rules)``, deals included.

        The bound: ``1 + 2 * (stock + 56) + 56 + passes`` per deal, where the stock holds
        ``56 - 4 * hand_size - 1`` cards and ``passes`` is ``3 * 57`` with ``all_pass`` (1 otherwise):
        each stock turn draws one card; each discard-pile turn lowers the cards in hands and pile by
        one or more, and there are never more than 56; at most 56 melds and lay-offs per deal; at
        most three passes in a row between turns, a fourth ending the deal: 395 actions per deal,
        790 per game with the default rules.
        Every variant except `Rules.top_discard_free` is bounded.
        """
        per_deal = max_deal_length(rules)
        per_game = max_game_length(rules)
        assert per_deal is not None
        assert per_game is not None
        extra = rules.tie_break is TieBreak.EXTRA_DEAL
        assert per_deal * (rules.num_deals + extra) == per_game
        for game in range(3):
            rng = random.Random(seed + game)  # noqa: S311
            state = GameState(rules=rules, phase=Phase.DEAL, stock=FULL_DECK, dealer=game % 4)
            lengths: list[int] = []
            while not is_over(state) and sum(lengths) <= per_game:
                action = random_action(state, rng)
                if isinstance(action, Deal):
                    lengths.append(0)
                lengths[-1] += 1
                state = apply(state, action)
            assert is_over(state)
            assert sum(lengths) <= per_game
            assert max(lengths) <= per_deal
            assert rules.num_deals <= len(lengths) <= rules.num_deals + extra


class TestTableMelds:
    """
    R9: "Sets and runs only"; R17: "A laid-off card extends the logical meld [...] If a card fits
    several melds, the player chooses one and it cannot be moved later".  Every table meld is valid,
    records who placed each card, and is never removed or moved within a deal.
    """

    @given(playouts(rules=rules_variants()))
    def test_r9_r17_every_table_meld_is_valid_and_stays_put(self, playout: Playout) -> None:
        """
        R9-R12, R16, R17: every table meld is a valid meld of its kind; the cards each seat placed
        on it (laid down or laid off) partition its cards; the owner laid down a valid meld of the
        same kind; within a deal a meld is never removed or moved, it only gains lay-offs (R17).
        """
        for state in playout.states:
            for meld in state.melds:
                assert meld.ace_low is state.rules.ace_low_allowed
                # A7: with jokers wild, the cards the meld represents make it.
                stand_ins = meld.stand_ins
                down = StandIns([(joker, card) for joker, card in stand_ins if joker in meld.laid_down])
                assert meld.kind is meld_kind(meld.cards, state.rules, stand_ins=stand_ins or None)
                assert meld.kind is naive_kind(meld.represents, ace_low=meld.ace_low)
                assert meld.kind is meld_kind(meld.laid_down, state.rules, stand_ins=down or None)
                parts = meld.contributions
                assert sum(len(part) for part in parts) == len(meld.cards)
                union = CardSet()
                for part in parts:
                    union |= part
                assert meld.cards == union
                assert meld.laid_down <= parts[meld.owner]
        for before, action, after in playout.steps:
            if isinstance(action, Deal):
                assert not after.melds
                continue
            assert len(before.melds) <= len(after.melds) <= len(before.melds) + 1
            for old, new in zip(before.melds, after.melds, strict=False):
                assert (old.owner, old.laid_down) == (new.owner, new.laid_down)
                assert all(a <= b for a, b in zip(old.layoffs, new.layoffs, strict=True))


class TestPoints:
    """
    R23: "Joker 20; Ace 15; K, Q, J 10; 2–9 face value [...] 10 = 10"; A19: "10 points."  The 56 cards
    are worth 476 points wherever they lie; under other card values (§5 ``card_values``) what
    those make of the deck.
    """

    @given(playouts(rules=rules_variants()))
    def test_r23_card_points_total_476_everywhere(self, playout: Playout) -> None:
        """
        R23, A19: the points on the table, in the hands, in the stock and in the pile total 476 in
        every state (the deck's points under the rules' card values); at the end of a deal the
        melded and in-hand items of both teams plus the stock and pile add up to it too.
        """
        rules = playout.states[0].rules
        total = points(FULL_DECK, rules)
        assert 476 == points(FULL_DECK)
        assert total == rules.card_values.deck_points
        for state in playout.states:
            table = sum(rules.points(meld.cards) for meld in state.melds)
            hands = sum(rules.points(hand) for hand in state.hands)
            assert total == table + hands + points(state.stock, rules) + points(state.discard_pile, rules)
        for state in deal_ends(playout):
            team0, team1 = state.results[-1].teams
            rest = points(state.stock, rules) + points(state.discard_pile, rules)
            # A deal's own score has its breakdown.
            assert team0.melded is not None
            assert team1.melded is not None
            assert team0.in_hand is not None
            assert team1.in_hand is not None
            assert total == team0.melded + team1.melded + team0.in_hand + team1.in_hand + rest


def expected_scores(state: GameState) -> tuple[TeamScore, TeamScore]:
    """
    Each team's score for the deal that ended in *state*, by R24-R26, A20, A21, A23.
    """
    rules = state.rules
    melded = [0, 0]
    doubling = [0, 0]
    for meld in state.melds:
        for seat, part in enumerate(meld.contributions):
            melded[seat % 2] += points(part, rules)
        doubled = rules.double_four_of_a_kind if meld.kind is MeldKind.SET else rules.double_four_card_runs
        if len(meld.laid_down) == 4 and doubled:
            doubling[meld.owner % 2] += points(meld.laid_down, rules)
    in_hand = [
        points(state.hands[0], rules) + points(state.hands[2], rules),
        points(state.hands[1], rules) + points(state.hands[3], rules),
    ]
    bonus = [0, 0]
    if state.went_out is not None:
        bonus[state.went_out % 2] = rules.go_out_bonus
    return (
        TeamScore(melded[0], doubling[0], bonus[0], in_hand[0]),
        TeamScore(melded[1], doubling[1], bonus[1], in_hand[1]),
    )


def expected_end(state: GameState) -> DealEnd:
    if state.went_out is not None:
        return DealEnd.WENT_OUT
    if state.rules.empty_stock_end is EmptyStockEnd.IMMEDIATELY:
        return DealEnd.STOCK_EMPTY
    return DealEnd.PASSES


class TestScores:
    """
    R24: "+ value of all cards its two players melded or laid off", "− value of all cards left in
    both partners' hands", "+ 25 if one of its players went out"; R25: "A set of four cards melded
    together in one laydown scores double"; R26: "A laid-off card scores for the team of the player
    who laid it off, whoever owns the meld"; A23: "No bonus if the round ends by passes."
    """

    @given(playouts(rules=rules_variants()))
    def test_r24_r26_score_breakdown_adds_up(self, playout: Playout) -> None:
        """
        R24-R26, A20, A21, A23: at the end of every deal the recorded score is, per team, the
        points melded and laid off, plus the doubling of four-card sets laid down at once, plus
        the going-out bonus for the team that went out only, minus both partners' hands; the total
        is ``melded + doubling + bonus - in_hand``; scoring the final table again with `score_deal`
        gives the recorded result; `GameState.scores` is the sum of the results.
        """
        for state in playout.states:
            totals = [result.totals for result in state.results]
            assert (sum(t[0] for t in totals), sum(t[1] for t in totals)) == state.scores
            assert [number for number, _ in enumerate(state.results, start=1)] == [r.deal for r in state.results]
        for state in deal_ends(playout):
            result = state.results[-1]
            assert state.deal == result.deal
            assert state.went_out == result.went_out
            assert expected_end(state) == result.end
            assert expected_scores(state) == result.teams
            for team in result.teams:
                assert team.has_breakdown
                assert team.melded + team.doubling + team.bonus - team.in_hand == team.total  # type: ignore[operator]
            if result.went_out is None:
                assert result.teams[0].bonus == result.teams[1].bonus == 0
            else:
                assert not state.hands[result.went_out]
            if result.end is DealEnd.PASSES:
                assert not state.stock
                assert (4 if state.rules.empty_stock_end is EmptyStockEnd.ALL_PASS else 1) == state.passes
            rescored = score_deal(
                state.hands, state.melds, state.went_out, rules=state.rules, deal=state.deal, end=result.end
            )
            assert result == rescored


def reference_team_draw(drawn: Sequence[Card], redraw: dict[int, Card] | None = None) -> Seating | Redraw:
    """
    R4, R5, A1, A2 with redraws, straight from the rule: sort by draw rank (then by the redraw's
    rank for the players who drew again, then by player number); a group of equal keys that
    holds the lowest place, or holds both the 2nd and the 3rd place, must draw again; otherwise
    the two lowest sit at seats 0 and 2, the 3rd at seat 1 and the 4th at seat 3.
    """
    redraw = redraw or {}

    def key(player: int) -> tuple[int, int]:
        return (draw_rank(drawn[player]), draw_rank(redraw[player]) if player in redraw else 0)

    order = sorted(range(4), key=lambda player: (key(player), player))
    for first, player in enumerate(order):
        if first and key(order[first - 1]) == key(player):
            continue
        group = [other for other in order if key(other) == key(player)]
        last = first + len(group) - 1
        if len(group) > 1 and (first == 0 or first <= 1 < last):
            return Redraw(tuple(sorted(group)))
    return Seating((order[0], order[2], order[1], order[3]))


SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}

four_cards = st.lists(cards(), min_size=4, max_size=4, unique=True)


class TestTeamDraw:
    """
    R4: "For this draw Aces are low and Jokers high: A < 2 < … < 10 < J < Q < K < Joker. The holders
    of the two lowest cards are partners"; R5: "The player with the very lowest draw deals first";
    A1: "If a tie straddles the 2nd/3rd place (team split undecided) or ties for lowest (first dealer
    undecided), the tied players redraw"; variant `team_draw_tiebreak = "redraw" | "suit_order"`
    (♣<♦<♥<♠); A2: "first dealer at seat d, then d+1 (opponent, plays first), d+2 (dealer's partner),
    d+3 (opponent)".
    """

    @given(four_cards, st.data())
    def test_r4_r5_a1_team_draw(self, drawn: list[Card], data: st.DataObject) -> None:
        """
        R4, R5, A1, A2: the draw of any four distinct cards seats the players as a permutation
        whose seats 0 and 2 hold the two lowest draw ranks (aces low, jokers high), seat 0 the
        lowest; or, when a tie leaves the first dealer or the partnerships open, it names the
        tied players for a redraw, whose new cards decide among them only.
        """
        result = team_draw(drawn)
        assert reference_team_draw(drawn) == result
        ranks = [draw_rank(card) for card in drawn]
        if isinstance(result, Seating):
            assert sorted(result.players) == [0, 1, 2, 3]
            seats = result.players
            by_seat = [ranks[seats[0]], ranks[seats[2]], ranks[seats[1]], ranks[seats[3]]]
            assert sorted(ranks) == by_seat
            assert by_seat[0] < by_seat[1] < by_seat[2]
            return
        tied = {ranks[player] for player in result.players}
        assert len(result.players) >= 2
        assert len(tied) == 1
        rest = [card for card in FULL_DECK if card not in drawn]
        new = data.draw(st.lists(st.sampled_from(rest), min_size=len(result.players), max_size=4, unique=True))
        redraw = dict(zip(result.players, new, strict=False))
        again = team_draw(drawn, redraw)
        assert reference_team_draw(drawn, redraw) == again
        if isinstance(again, Redraw):
            assert set(again.players) <= set(result.players)

    @given(four_cards)
    def test_a1_suit_order_never_redraws(self, drawn: list[Card]) -> None:
        """
        A1 (``suit_order``): ties are broken by suit (clubs < diamonds < hearts < spades, jokers
        by number), so the draw always seats the players: lowest at seat 0, its partner the 2nd
        lowest at seat 2, the 3rd at seat 1, the 4th at seat 3.
        """

        def key(player: int) -> tuple[int, int]:
            card = drawn[player]
            return (draw_rank(card), card.joker_number if card.suit is None else SUIT_ORDER[card.suit])

        order = sorted(range(4), key=key)
        assert Seating((order[0], order[2], order[1], order[3])) == team_draw(drawn, tiebreak="suit_order")


# A slow reference for the legal actions, written from R9-R18, R21 and A7-A13 without the
# engine's tables: a meld is checked card by card, the melds of the deck are listed once, and
# everything else is a search over them.

NATURAL_RANKS = [rank for rank in Rank if rank is not Rank.JOKER]


def _values(cards_: Sequence[Card], *, ace_low: bool) -> list[int]:
    """
    The places of the cards in their suit: 2 to 14 for the ace, or 1 for the ace with *ace_low*.
    """
    return sorted(1 if ace_low and card.rank is Rank.ACE else int(card.rank) for card in cards_)


def _consecutive(values: list[int]) -> bool:
    return values == list(range(values[0], values[0] + len(values)))


def naive_kind(group: Iterable[Card], *, ace_low: bool = False) -> MeldKind | None:
    """
    R9-R12, A7, A8: three or four cards of one rank (jokers only with jokers) are a set; three or
    more cards of one suit with consecutive ranks, 2 lowest and ace highest, no joker, are a run;
    with *ace_low* (A8) the ace may instead come below the 2.
    """
    cards_ = list(group)
    if len(cards_) < 3:
        return None
    if len({card.rank for card in cards_}) == 1:
        return MeldKind.SET if len(cards_) <= 4 else None
    if any(card.is_joker for card in cards_) or len({card.suit for card in cards_}) != 1:
        return None
    frames = (False, True) if ace_low else (False,)
    if any(_consecutive(_values(cards_, ace_low=low)) for low in frames):
        return MeldKind.RUN
    return None


def _all_melds(*, ace_low: bool) -> tuple[frozenset[Card], ...]:
    found: list[frozenset[Card]] = []
    for rank in Rank:
        same = [card for card in FULL_DECK if card.rank is rank]
        for size in (3, 4):
            found.extend(frozenset(combo) for combo in itertools.combinations(same, size))
    for suit in Suit:
        row = [Card(rank, suit) for rank in NATURAL_RANKS]
        found.extend(frozenset(row[low:high]) for low in range(13) for high in range(low + 3, 14))
        if ace_low:  # the ace, then 2, 3, ...: A-2-3 up to A-2-...-Q (A to K is the whole suit, found above)
            found.extend(frozenset([row[12], *row[:high]]) for high in range(2, 12))
    return tuple(found)


#: Every meld that can be made from the deck: 70 sets (13 ranks and the jokers) and 264 runs;
#: with a low ace (A8) 40 runs more.
MELDS = {low: _all_melds(ace_low=low) for low in (False, True)}
ALL_MELDS = MELDS[False]
MELDS_WITH = {
    low: {card: [meld for meld in melds if card in meld] for card in FULL_DECK} for low, melds in MELDS.items()
}


@cache
def extensions(meld: frozenset[Card], *, ace_low: bool = False) -> tuple[frozenset[Card], ...]:
    """
    R17, A11: the groups of cards that can be laid off onto *meld* in one action: the fourth
    card of a set of three, or cards extending a run at one end (with *ace_low*, the ace may
    extend it below the 2, A8).
    """
    kind = naive_kind(meld, ace_low=ace_low)
    found = []
    for bigger in MELDS[ace_low]:
        if meld < bigger and naive_kind(bigger, ace_low=ace_low) is kind:
            extra = bigger - meld
            if kind is MeldKind.SET or any(_at_one_end(meld, extra, low) for low in (False, True) if low <= ace_low):
                found.append(extra)
    return tuple(dict.fromkeys(found))


def _at_one_end(meld: frozenset[Card], extra: frozenset[Card], low: bool) -> bool:
    """
    Whether, counting the ace low or not, the cards *extra* lie all below or all above the run
    *meld* and make one run with it.
    """
    inside = _values(list(meld), ace_low=low)
    outside = _values(list(extra), ace_low=low)
    if not _consecutive(sorted(inside + outside)):
        return False
    return max(outside) < min(inside) or min(outside) > max(inside)


def _jokers_first(cards_: Iterable[Card], first: Card | None = None) -> list[Card]:
    """
    A7: the jokers among *cards_* in the order a play uses them: by number, *first* (a joker
    taken from the pile that must still be played) before the others.
    """
    jokers = sorted((card for card in cards_ if card.is_joker), key=lambda card: card.joker_number)
    if first is not None and first in jokers:
        jokers.remove(first)
        jokers.insert(0, first)
    return jokers


def _ways(
    group: frozenset[Card], hand: frozenset[Card], jokers: Sequence[Card], *, natural_needed: bool
) -> Iterable[tuple[frozenset[Card], StandIns]]:
    """
    A7: every way to play the represented cards *group* from *hand*: each natural card of it
    played itself or stood for by a joker of *jokers* (the first ones, the lower-numbered joker
    standing for the card first in `FULL_DECK` order), as the cards played and their stand-ins.
    A group holding jokers (a set of jokers, R11) is played as it is.  With *natural_needed*
    one card at least is played itself.  Without jokers (not wild) only the group itself.
    """
    if any(card.is_joker for card in group):
        if group <= hand:
            yield group, StandIns()
        return
    missing = group - hand
    if len(missing) > len(jokers):
        return
    present = sorted(group & hand, key=lambda card: card.index)
    for more in range(len(jokers) - len(missing) + 1):
        for also in itertools.combinations(present, more):
            stood = sorted([*missing, *also], key=lambda card: card.index)
            if natural_needed and len(stood) == len(group):
                continue
            used = sorted(jokers[: len(stood)], key=lambda card: card.joker_number)
            yield (group - set(stood)) | set(used), StandIns(list(zip(used, stood, strict=True)))


def _fillable(group: frozenset[Card], avail: frozenset[Card], jokers: int) -> bool:
    """
    Whether the cards *group* can be played from *avail*, with up to *jokers* jokers standing
    for natural cards missing from it (jokers themselves only as themselves).
    """
    if any(card.is_joker for card in group):
        return group <= avail
    return len(group - avail) <= jokers


def playable(
    card: Card,
    avail: frozenset[Card],
    table: Sequence[frozenset[Card]],
    by_layoff: bool,
    *,
    ace_low: bool = False,
    wild: bool = False,
) -> bool:
    """
    A12: whether *card* can be played in one action: in a new meld with cards of *avail*, or
    (with *by_layoff*, A10) laid off onto a meld of *table* (the cards each meld represents),
    alone or with cards of *avail* that extend the same run.  With *wild* (A7) the jokers of
    *avail* may stand for the missing cards, and a joker *card* for any card of a set or a run
    with a natural card of *avail*; no card the table represents is played or stood for.
    """
    dead = frozenset().union(*table)
    if card in dead:
        return False
    avail -= {card}
    jokers = sum(other.is_joker for other in avail) if wild else 0
    if any(not meld & dead and _fillable(meld - {card}, avail, jokers) for meld in MELDS_WITH[ace_low][card]):
        return True
    extras = [extra for meld in table for extra in extensions(meld, ace_low=ace_low) if not extra & dead]
    if by_layoff and any(card in extra and _fillable(extra - {card}, avail, jokers) for extra in extras):
        return True
    if not (wild and card.is_joker):
        return False
    for meld in MELDS[ace_low]:
        if meld & dead or any(other.is_joker for other in meld):
            continue
        for stood in meld:
            rest = meld - {stood}
            if rest & avail and len(rest - avail) <= jokers:
                return True
    return by_layoff and any(
        not any(other.is_joker for other in extra) and len(extra - avail) - 1 <= jokers for extra in extras
    )


def represented(state: GameState) -> list[frozenset[Card]]:
    """
    The cards each table meld represents: its natural cards and those its jokers stand for (A7).
    """
    return [frozenset(meld.represents) for meld in state.melds]


def reference_legal_actions(state: GameState) -> set[PlayerAction]:
    """
    The legal actions of a draw or play state, by R14-R18, R21, A7-A13, A16, A24, searched naively.
    """
    rules = state.rules
    seat = state.to_act
    assert seat is not None
    if state.phase is Phase.DRAW:
        return _reference_draw(state, seat)
    if answering(state):
        return _reference_answers(state, seat)
    hand = frozenset(state.hands[seat])
    target = state.obligation
    if target is None:
        found = _reference_melds(state, seat)
        picked = frozenset(state.picked) & hand
        free_take = rules.top_discard_free and len(state.picked) == 1 and bool(state.stock)
        forbidden = picked if rules.forbid_discarding_picked_cards or free_take else frozenset()
        if forbidden == hand:
            forbidden = frozenset()
        found.update(Discard(seat, card) for card in hand - forbidden)
        return found
    return _reference_pending(state, seat, target)


def _reference_answers(state: GameState, seat: int) -> set[PlayerAction]:
    """
    A24: the seat asked declines or calls; the seat that called lays off the card called on alone,
    onto every meld that takes it by itself (with wild jokers, A7: a joker standing for any card a
    meld takes alone; never a card the table represents).
    """
    target = state.obligation
    if state.phase is Phase.CALLS:
        return {DeclineCall(seat), CallRummy(seat)}
    assert target is not None
    alone = frozenset({target})
    ace_low = state.rules.ace_low_allowed
    table = represented(state)
    dead = frozenset().union(*table)
    jokers = _jokers_first(alone) if state.rules.jokers_wild else []
    return {
        LayOff(seat, k, CardSet(cards_), stand_ins=stand_ins)
        for k, meld in enumerate(table)
        for extra in extensions(meld, ace_low=ace_low)
        if len(extra) == 1 and not extra & dead
        for cards_, stand_ins in _ways(extra, alone, jokers, natural_needed=False)
    }


def _reference_draw(state: GameState, seat: int) -> set[PlayerAction]:
    rules = state.rules
    hand = frozenset(state.hands[seat])
    table = represented(state)
    found: set[PlayerAction] = set()
    if state.stock:
        found.add(DrawStock(seat))
    else:
        found.add(Pass(seat))
        if rules.pass_allows_melding:  # A16: melds and lay-offs from hand before passing
            found |= _reference_melds(state, seat)
    pile = state.discard_pile
    for depth, card in enumerate(pile):
        taken = frozenset(pile[depth:])
        free = rules.top_discard_free and bool(state.stock) and depth == len(pile) - 1
        avail = (hand | taken) - {card}
        if free or playable(
            card, avail, table, rules.obligation_by_layoff, ace_low=rules.ace_low_allowed, wild=rules.jokers_wild
        ):
            found.add(TakeDiscard(seat, card))
    return found


def _reference_plays(
    state: GameState, seat: int, jokers: Sequence[Card]
) -> Iterable[tuple[LayDown | LayOff, frozenset[Card], list[frozenset[Card]]]]:
    """
    Every meld *seat* can lay down and every lay-off onto the table (A7: with *jokers*, in the
    order they are used), each with the cards it takes from the hand and the table it leaves.
    """
    ace_low = state.rules.ace_low_allowed
    hand = frozenset(state.hands[seat])
    table = represented(state)
    dead = frozenset().union(*table)
    for meld in MELDS[ace_low]:
        if not meld & dead:
            for cards_, stand_ins in _ways(meld, hand, jokers, natural_needed=True):
                yield LayDown(seat, CardSet(cards_), stand_ins=stand_ins), cards_, [*table, meld]
    for k, table_meld in enumerate(table):
        for extra in extensions(table_meld, ace_low=ace_low):
            if not extra & dead:
                after = [*table[:k], table_meld | extra, *table[k + 1 :]]
                for cards_, stand_ins in _ways(extra, hand, jokers, natural_needed=False):
                    yield LayOff(seat, k, CardSet(cards_), stand_ins=stand_ins), cards_, after


def _seat_jokers(state: GameState, seat: int) -> list[Card]:
    return _jokers_first(state.hands[seat], state.obligation) if state.rules.jokers_wild else []


def _reference_melds(state: GameState, seat: int) -> set[PlayerAction]:
    """
    Every meld *seat* can lay down from hand and every lay-off onto the table.
    """
    return {action for action, _, _ in _reference_plays(state, seat, _seat_jokers(state, seat))}


def _reference_pending(state: GameState, seat: int, target: Card) -> set[PlayerAction]:
    """
    The plays while *target*, taken from the pile, is still to be played (R15, A10, A11).
    """
    rules = state.rules
    by_layoff = rules.obligation_by_layoff
    hand = frozenset(state.hands[seat])
    strict = rules.obligation_timing is ObligationTiming.IMMEDIATE
    found: set[PlayerAction] = set()
    for action, cards_, after in _reference_plays(state, seat, _seat_jokers(state, seat)):
        if target in cards_:
            keep = by_layoff or isinstance(action, LayDown)
        else:
            keep = not strict and playable(
                target, hand - cards_, after, by_layoff, ace_low=rules.ace_low_allowed, wild=rules.jokers_wild
            )
        if keep:
            found.add(action)
    return found


class TestMeldKindReference:
    """
    R10: "3 or 4 cards of the same rank"; R11: "a Joker-set consists only of Jokers (3 or 4 Jokers)
    and a natural set may not contain a Joker"; R12: "3 or more consecutive cards of one suit [...]
    Aces are always high [...]: Q-K-A is legal, A-2-3 is not; no wrap-around".  `meld_kind` agrees
    with the card-by-card reference `naive_kind`.
    """

    def test_r9_r12_reference_melds_of_the_deck(self) -> None:
        """
        R9-R12, A7, A8: the deck holds 70 sets (5 per rank, jokers included) and 264 runs (66 per
        suit); the library recognises every one of them.
        """
        kinds = Counter(naive_kind(meld) for meld in ALL_MELDS)
        expected = {MeldKind.SET: 70, MeldKind.RUN: 264}
        assert expected == dict(kinds)
        assert len(ALL_MELDS) == len(set(ALL_MELDS))
        assert all(meld_kind(CardSet(meld)) is naive_kind(meld) for meld in ALL_MELDS)

    def test_r9_r12_meld_kind_agrees_with_the_reference_on_every_three_cards(self) -> None:
        """
        R9-R12, A7, A8: `meld_kind` agrees with the card-by-card definition on all 27,720 groups of
        three cards.
        """
        wrong = [
            combo
            for combo in itertools.combinations(FULL_DECK, 3)
            if meld_kind(CardSet(combo)) is not naive_kind(combo)
        ]
        assert not wrong, wrong[:5]

    @given(
        st.one_of(
            st.lists(cards(), max_size=14, unique=True),
            st.sampled_from(tuple(Suit)).flatmap(
                lambda suit: st.lists(st.sampled_from([Card(rank, suit) for rank in NATURAL_RANKS]), unique=True)
            ),
            st.lists(st.sampled_from([card for card in FULL_DECK if card.rank >= Rank.KING]), max_size=6, unique=True),
        )
    )
    def test_r9_r12_meld_kind_agrees_with_the_reference(self, group: list[Card]) -> None:
        """
        R9-R12, A7, A8: `meld_kind` agrees with the card-by-card definition on any group of cards
        (mixed, one suit, or high cards and jokers).
        """
        assert naive_kind(group) is meld_kind(CardSet(group))


def describe(state: GameState) -> str:
    """
    The parts of a turn's state that decide its legal actions, in card notation.
    """
    seat = state.to_act
    assert seat is not None
    melds = "; ".join(f"{k}: {meld}" for k, meld in enumerate(state.melds))
    pile = " ".join(map(str, state.discard_pile))
    return (
        f"seat {seat} in phase {state.phase.value}, hand {state.hands[seat]}, pile {pile} (top last), "
        f"stock {len(state.stock)}, melds [{melds}], obligation {state.obligation}, picked {state.picked}, "
        f"rules changed {state.rules.changes()}"
    )


def assert_matches_reference(state: GameState) -> None:
    actions = legal_actions(state)
    expected = reference_legal_actions(state)
    missing = sorted(map(repr, expected - set(actions)))
    extra = sorted(map(repr, set(actions) - expected))
    assert not missing, f"missing {missing} in {describe(state)}"
    assert not extra, f"extra {extra} in {describe(state)}"
    assert len(actions) == len(expected)


class TestReferenceLegalActions:
    """
    R14: "either the top card of the stock, or any card of the [...] discard pile together with every
    card above it"; R15: "The target card [...] must be played in a meld immediately [...] either in
    a new meld or by laying it off on a meld already on the table"; A12: "Reject the draw at draw
    time [...] Legality test: target can form a valid meld with cards from (hand ∪ cards taken with
    it), or can be laid off on an existing table meld, alone or together with hand cards that extend
    the same run".  `legal_actions` is exactly what the slow reference finds.
    """

    @settings(max_examples=30)
    @given(playouts(max_actions=220))
    def test_r14_r18_legal_actions_agree_with_the_reference(self, playout: Playout) -> None:
        """
        R14-R18, R21, A9-A13 (default rules): in every draw and play state of a game, `legal_actions`
        is exactly what the slow reference finds: the stock draw or the pass, every discard-pile card
        that can be played at once with the cards in hand and those taken with it (R15, A12), every
        meld in hand, every lay-off, and the discards, or only the plays of the card taken while it
        is pending (A11).
        """
        for state in playout.states:
            if in_turn(state):
                assert_matches_reference(state)

    @settings(max_examples=30)
    @given(playouts(rules=rules_variants(), max_actions=220))
    def test_a9_a13_legal_actions_agree_with_the_reference_in_every_variant(self, playout: Playout) -> None:
        """
        A9-A13, A16, A17: the same agreement with any rule switches: a free top discard, the card
        taken only in a new meld, its obligation before the discard, no discarding of picked cards.
        Wild jokers (A7) among them.
        """
        for state in playout.states:
            if in_turn(state):
                assert_matches_reference(state)

    @settings(max_examples=30)
    @given(corner_playouts(rules=rules_variants(), max_actions=120))
    def test_a8_a11_legal_actions_agree_with_the_reference_in_the_corners(self, playout: Playout) -> None:
        """
        A8-A13, A16: the same agreement in games whose decks are dealt in stretches of suits or
        ranks, where long runs, full sets and big hands come up (a low ace with the cards up to a
        run that reaches the king, A11), in the play states with melds on the table.
        """
        for state in playout.states:
            if state.phase is Phase.PLAY and state.melds:
                assert_matches_reference(state)

    @settings(max_examples=CALLS_GAMES)
    @given(
        corner_playouts(
            rules=rules_variants().map(lambda rules: attrs.evolve(rules, rummy_calls=True, jokers_wild=False))
        )
    )
    def test_a24_legal_actions_agree_with_the_reference_under_calls(self, playout: Playout) -> None:
        """
        A24: under `Rules.rummy_calls`, in every state a seat acts in, the calls phases among them,
        `legal_actions` is exactly what the slow reference finds.  The states checked are counted in
        `CALLS_COUNTS`, which the module's last test prints.
        """
        CALLS_COUNTS["games"] += 1
        for state in playout.states:
            if in_turn(state) or answering(state):
                assert_matches_reference(state)
                CALLS_COUNTS["states"] += 1
                CALLS_COUNTS[state.phase.value] += 1

    @pytest.mark.parametrize("calls", [False, True], ids=["jokers_wild", "jokers_wild_and_rummy_calls"])
    @settings(max_examples=JOKERS_GAMES)
    @given(data=st.data())
    def test_a7_legal_actions_agree_with_the_reference_under_wild_jokers(
        self, calls: bool, data: st.DataObject
    ) -> None:
        """
        A7: under `Rules.jokers_wild`, alone or with `Rules.rummy_calls` (A24), in every state a seat
        acts in, `legal_actions` is exactly what the slow reference finds: the plays of represented
        melds with jokers standing for cards, no card the table represents played or stood for, the
        canonical jokers, and the draws and obligations that count plays with jokers.  The states
        checked are counted in `JOKERS_COUNTS`, which the module's last test prints.
        """
        rules = rules_variants().map(lambda rules: attrs.evolve(rules, jokers_wild=True, rummy_calls=calls))
        playout = data.draw(corner_playouts(rules=rules))
        JOKERS_COUNTS["games"] += 1
        for state in playout.states:
            if in_turn(state) or answering(state):
                assert_matches_reference(state)
                JOKERS_COUNTS["states"] += 1
                JOKERS_COUNTS["stand-ins"] += any(meld.stand_ins for meld in state.melds)
                called = state.phase is Phase.CALLED and state.obligation is not None and state.obligation.is_joker
                JOKERS_COUNTS["jokers called"] += called

    def test_a7_a24_a_joker_called_on_stands_for_a_card_a_meld_takes(self) -> None:
        """
        A24: "when a meld on the table takes the card discarded alone as a lay-off, by the lay-off
        rules in force", the calls open; A7: "a joker may be laid off, standing for a card the meld
        takes".  A joker discarded next to a run is called on, and the caller lays it off onto the
        run standing for a card it takes, as well as onto a set of jokers.
        """
        rules = "jokers_wild=true,rummy_calls=true"
        alone = parse_position(f"{rules} 1/W play N X2Kc4c/2h3d/5d7d/8cKs * 2s E:5h6h7h - - - 0 - -")
        assert Phase.CALLS is apply(alone, Discard(0, "X2")).phase
        state = parse_position(f"{rules} 1/W play N X4Kc4c/2h3d/5d7d/8cKs * 2s E:5h6h7h,S:X1X2X3 - - - 0 - -")
        called = apply(apply(state, Discard(0, "X4")), CallRummy(1))
        expected = {LayOff(1, 0, "X4", {"X4": "4h"}), LayOff(1, 0, "X4", {"X4": "8h"}), LayOff(1, 1, "X4")}
        assert expected == reference_legal_actions(called)
        assert is_legal(called, LayOff(1, 0, "X4", {"X4": "8h"}))
        assert_matches_reference(called)

    @pytest.mark.parametrize(
        ("text", "take", "lay_offs"),
        [
            ("play N 2hAh9c/2c/3c/4c * 5c E:3h4h5h6h7h8h9hThJhQhKh", None, ["2h", "2h Ah", "Ah"]),
            ("play N 2h3hAh9c/2c/3c/4c * 5c E:4h5h6h7h8h9hThJhQhKh", None, ["3h", "2h 3h", "2h 3h Ah", "Ah"]),
            ("draw N 2h9c/2c/3c/4c * 5cAh E:3h4h5h6h7h8h9hThJhQhKh", "Ah", ["2h Ah", "Ah"]),
        ],
    )
    def test_a8_a11_reference_on_a_low_ace_below_a_run_to_the_king(
        self, text: str, take: str | None, lay_offs: list[str]
    ) -> None:
        """
        A8, A11: the 2 (and the 3) with a low ace go below a run that reaches the king in one
        lay-off, and the ace alone above it; the reference and the engine both list each once.
        """
        state = parse_position(f"ace_low_allowed=true 1/W {text} - - - 0 - -")
        if take is not None:
            state = apply(state, TakeDiscard(0, take))
        expected = {LayOff(0, 0, cards_) for cards_ in lay_offs}
        assert expected == {action for action in reference_legal_actions(state) if isinstance(action, LayOff)}
        assert_matches_reference(state)

    def test_r15_a12_reference_on_a_pile_that_reaches_a_run(self) -> None:
        """
        R15, A11, A12: a card deep in the pile that reaches a table run only together with cards in
        hand is takeable; the reference and the engine agree on a known position.
        """
        state = positions.position(
            hands=("6s 2c 3d 9h Kc", "", "", ""),
            pile="5s Qh 4d",
            melds=(positions.meld(1, "7s 8s 9s"),),
            stock="2h",
            rest_to=1,
        )
        assert {DrawStock(0), TakeDiscard(0, "5s")} == reference_legal_actions(state)
        assert (DrawStock(0), TakeDiscard(0, "5s")) == legal_actions(state)


def test_a24_the_reference_under_calls_reports_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    """
    A24: the reference under calls checked states in the calls phases (run after it in the same process).
    """
    if not CALLS_COUNTS["games"]:
        pytest.skip("the reference under calls ran in another process")
    with capsys.disabled():
        sys.stdout.write(
            f"\nreference under rummy_calls: {CALLS_COUNTS['games']:,} games, {CALLS_COUNTS['states']:,} states "
            f"({CALLS_COUNTS['calls']:,} calls, {CALLS_COUNTS['called']:,} called)\n"
        )
    assert CALLS_COUNTS["states"] >= CALLS_COUNTS["games"]


def test_a7_the_reference_under_wild_jokers_reports_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    """
    A7: the reference under wild jokers checked states with jokers standing for cards on the table
    (run after it in the same process).
    """
    if not JOKERS_COUNTS["games"]:
        pytest.skip("the reference under wild jokers ran in another process")
    with capsys.disabled():
        sys.stdout.write(
            f"\nreference under jokers_wild: {JOKERS_COUNTS['games']:,} games, {JOKERS_COUNTS['states']:,} states "
            f"({JOKERS_COUNTS['stand-ins']:,} with stand-ins on the table, "
            f"{JOKERS_COUNTS['jokers called']:,} jokers called)\n"
        )
    assert JOKERS_COUNTS["states"] >= JOKERS_COUNTS["games"]
    assert JOKERS_COUNTS["stand-ins"]
