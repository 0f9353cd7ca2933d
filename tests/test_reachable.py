"""
A state that validates can be played on, observed and determinized.

Every check of `check_invariants` that goes beyond the form of a state is here because a
position that passed it could not be played on: the seat to act had no legal action, a view
of it did not check, a state sampled from a view broke an invariant, or a score was written
that the readers refuse.  Each class holds the positions that used to slip through; the last
one fuzzes positions (reachable states with cards moved, turns changed, pending cards,
known cards and scores made up) and shows that any of them that validates keeps the promise.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import collections
import random
from typing import Any

import attrs
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from persian_rummy import (
    CardSet,
    DealScore,
    GameState,
    InvalidNotationError,
    InvalidStateError,
    Phase,
    ViewError,
    apply,
    check_invariants,
    check_view,
    determinize,
    format_action,
    format_position,
    from_json,
    is_game_over,
    legal_actions,
    new_game,
    observe,
    parse_position,
    random_deal,
    to_json,
)
from persian_rummy.scoring import DealEnd, TeamScore
from persian_rummy.views import arrangements, count_arrangements
from tests.strategies import played_states, rules_variants

# E to play the Qh taken from the pile, with Qd and Qs to meld it with (the audit's position,
# with the Qh among E's known cards, as play leaves it).
PENDING_QUEEN = "- 1/N play E 2c3c4c/QdQhQs5c/2h3h4h/2s3s4s * 6c - Qh Qh -/Qh/-/- 0 - -"
# The same, but for a small endgame: N sees 8 cards it cannot place, 3 of them in E's hand.
SMALL_PENDING_QUEEN = "- 1/N play E Kc8d/QhQdQs9c/JhJs/ThTs 5c * - Qh Qh -/Qh/-/- 0 - -"
# Deal 2, E to draw; the finished deal goes in place of RESULT.
SECOND_DEAL = "{rules} 2/E draw E 2c3c4c/QdQhQs5c/2h3h4h/2s3s4s * 6c - - - - 0 - {result}"
VIEWERS = (0, 1, 2, 3, None)
# Seeded generators make every sample and every fuzzed position reproducible.
Seeded = random.Random


def refused(text: str) -> str:
    with pytest.raises(InvalidNotationError) as caught:
        parse_position(text)
    return str(caught.value).removeprefix("invalid position: ")


def said(state: GameState) -> list[str]:
    return [format_action(action, state) for action in legal_actions(state)]


def check_playable(state: GameState, *, samples: int = 3) -> None:
    """
    Fail unless *state* has a legal action or is over, and every view of it checks and
    determinizes to valid states that give the same view back and have a legal action too.
    """
    check_invariants(state)
    in_turn = state.phase is Phase.DRAW or state.phase is Phase.PLAY
    if state.phase is Phase.GAME_OVER:
        assert is_game_over(state)
    elif state.is_chance_node:
        check_invariants(apply(state, random_deal(state, Seeded(0))))
    else:
        assert legal_actions(state)
    for seat in VIEWERS:
        view = observe(state, seat)
        check_view(view)
        for seed in range(samples):
            sample = determinize(view, Seeded(seed))
            check_invariants(sample)
            assert view == observe(sample, seat)
            assert not in_turn or legal_actions(sample)


class TestPickedCardsAreKnown:
    """
    R14: cards are taken from the pile in sight of everyone, so those still in the hand are
    among the seat's known cards.  A state that hid them gave views from which
    `determinize` dealt the pending card away (191 seeds in 200).
    """

    def test_a_picked_card_that_is_not_known_is_refused(self) -> None:
        text = PENDING_QUEEN.replace(" -/Qh/-/- ", " - ")
        assert (
            "everyone saw seat 1 take Qh from the discard pile this turn, so those cards are among its "
            "known cards (R14)" == refused(text)
        )

    def test_with_the_card_known_every_view_determinizes_to_valid_states(self) -> None:
        check_playable(parse_position(PENDING_QUEEN), samples=200)


class TestTheSeatToActHasAnAction:
    """
    R19: a player who melds their last card goes out, so nobody is to play with an empty hand.
    R15, A12: only a card that can be played may be taken, so a pending card always can be.
    R20: a seat may start its turn with no card (it discarded its last one), and draws.
    """

    def test_an_empty_hand_in_the_play_phase_is_refused(self) -> None:
        text = "- 1/N play E 2c3c4c/-/2h3h4h/2s3s4s * 5c - - - - 0 - -"
        message = "seat 1 is to play with no card in hand, but a player who melds their last card goes out (R19)"
        assert message == refused(text)

    def test_an_empty_hand_in_the_draw_phase_draws(self) -> None:
        state = parse_position("- 1/N draw E 2c3c4c/-/2h3h4h/2s3s4s * 5c - - - - 0 - -")
        assert ["E draw"] == said(state)
        check_playable(state)

    def test_a_pending_card_that_cannot_be_played_is_refused(self) -> None:
        text = "- 1/N play E 2c3c4c/7hQdQs5c/2h3h4h/2s3s4s * 6c - 7h 7h -/7h/-/- 0 - -"
        assert (
            "the card to play, 7h, can no longer be played: it makes no meld with seat 1's hand and fits no meld "
            "on the table (R15, A12)" == refused(text)
        )

    def test_a_pending_card_that_fits_the_table_is_playable(self) -> None:
        state = parse_position("- 1/N play E 2c3c4c/5cQdQs8d/2h3h4h/2s3s4s * 9c N:2d3d4d,W:6c7c8c 5c 5c -/5c/-/- 0 - -")
        assert ["E lay 5c on 6c"] == said(state)
        check_playable(state)

    def test_a_view_whose_hidden_cards_cannot_play_the_pending_card_is_refused(self) -> None:
        # E holds the 7h and, as N's view is changed to say, one card N cannot see: no one card
        # makes a meld with the 7h, and no meld on the table takes it.
        state = parse_position("- 1/N play E 2c3c4c/7h5h6h/2h3h4h/2s3s4s * 8c - 7h 7h -/7h/-/- 0 - -")
        view = observe(state, 0)
        with pytest.raises(ViewError) as caught:
            attrs.evolve(view, hand_sizes=(3, 2, 3, 3), stock_size=view.stock_size + 1)
        assert (
            "no game gives this view: the card to play, 7h, can no longer be played: it makes no meld with any "
            "hand seat 1 may hold and fits no meld on the table (R15, A12)" == str(caught.value)
        )


class TestDeterminizeWithAPendingCard:
    """
    While the seat to act still has to play a card it took, the others know it holds cards to
    play it with: only such hands are consistent with their view, and they are counted, listed
    and sampled uniformly.
    """

    def test_count_and_list_agree_with_the_hands_that_play_the_card(self) -> None:
        view = observe(parse_position(SMALL_PENDING_QUEEN), 0)
        # E's 3 hidden cards come from Qd Qs 9c Jh Js Th Ts 5c: the hands with Qd Qs or with
        # Th Jh play the Qh (6 + 6 of the 56); each has 5!/(2! 2! 1!) = 30 ways to deal the rest.
        assert 8 == len(view.unseen)
        assert 12 * 30 == count_arrangements(view)
        listed = list(arrangements(view))
        assert 360 == len(listed) == len(set(listed))
        hands = {state.hands[1] for state in listed}
        assert 12 == len(hands)
        assert all(CardSet("Qd Qs") <= hand or CardSet("Th Jh") <= hand for hand in hands)

    def test_samples_are_spread_over_the_hands_that_play_the_card(self) -> None:
        view = observe(parse_position(SMALL_PENDING_QUEEN), 0)
        seen = collections.Counter(determinize(view, Seeded(seed)).hands[1] for seed in range(2400))
        assert {state.hands[1] for state in arrangements(view)} == set(seen)
        # 200 expected for each of the 12 hands; these bounds are over 4 standard deviations wide.
        assert 140 < min(seen.values()) <= max(seen.values()) < 260

    def test_the_seat_to_act_sees_its_own_hand_unconstrained(self) -> None:
        view = observe(parse_position(SMALL_PENDING_QUEEN), 1)
        # N's, S's and W's two cards each and the stock's one: 7! / (2! 2! 2!).
        assert 630 == count_arrangements(view)


class TestEarlierDeals:
    """
    R23-R25, A17: an earlier deal's result is one a deal can give: melded and in-hand points
    each from 0 to the deck's 476, doubling at most the melded points, the bonus for the team
    of the seat that went out only, and an end the rules allow.  A team's total may be given
    alone; it is then within what a deal can score.
    """

    @pytest.mark.parametrize(
        ("result", "message"),
        [
            ("477.0.0.0:0.0.0.0:p", "team 0's melded and in-hand points are each from 0 to the deck's 476 (R23)"),
            ("-5.0.0.0:0.0.0.0:p", "team 0's melded and in-hand points are each from 0 to the deck's 476 (R23)"),
            ("0.0.0.0:0.0.0.-1:p", "team 1's melded and in-hand points are each from 0 to the deck's 476 (R23)"),
            ("10.20.0.0:0.0.0.0:p", "team 0's doubling is from 0 to its melded points, 10 (R25)"),
            (
                "10.0.0.0:0.0.25.0:N",
                "team 0's bonus must be 25: the bonus goes to the team of the seat that went out",
            ),
            ("10.0.25.0:0.0.0.0:p", "team 0's bonus must be 0: the bonus goes to the team of the seat that went out"),
            (
                "300.0.0.0:0.0.0.200:p",
                "the cards melded and left in hand are worth 500 points, more than the deck's 476 (R23)",
            ),
            ("2000:0:p", "team 0's total 2000 is not from -476 to 952"),
            ("0:-500:S", "team 1's total -500 is not from -476 to 952"),
            ("900:900:p", "the two teams' totals add up to 1800, not from -476 to 952"),
            ("0.0.0.0:0.0.0.0:e", "a deal ends when the stock runs out only with empty_stock_end='immediately' (A17)"),
        ],
    )
    def test_impossible_scores_are_refused(self, result: str, message: str) -> None:
        text = SECOND_DEAL.format(rules="-", result=result)
        assert f"the result of deal 1 is not one a deal can give: {message}" == refused(text)

    def test_no_deal_ends_by_passes_when_the_stock_running_out_ends_it(self) -> None:
        text = SECOND_DEAL.format(rules="empty_stock_end=immediately", result="0.0.0.0:0.0.0.0:p")
        assert (
            "the result of deal 1 is not one a deal can give: with empty_stock_end='immediately' nobody passes, "
            "so no deal ends by passes (A17)" == refused(text)
        )

    def test_a_score_too_large_for_the_text_is_refused_when_built(self) -> None:
        state = parse_position(SECOND_DEAL.format(rules="-", result="128:57:N"))
        huge = DealScore(1, (TeamScore(10**7, 0, 25, 0), TeamScore(0, 0, 0, 0)), 0, DealEnd.WENT_OUT)
        fields = {field.name: getattr(state, field.name) for field in attrs.fields(GameState) if field.init}
        with pytest.raises(
            InvalidStateError, match="team 0's melded and in-hand points are each from 0 to the deck's 476"
        ):
            GameState(**{**fields, "results": (huge,)})

    @pytest.mark.parametrize("result", ["128:57:N", "128:-12:E", "0.0.0.0:0.0.0.0:p", "476.476.25.0:0.0.0.0:S"])
    def test_possible_scores_read_and_write_back(self, result: str) -> None:
        text = SECOND_DEAL.format(rules="-", result=result)
        state = parse_position(text)
        assert state == parse_position(format_position(state))
        assert format_position(state).endswith(f" {result}")
        assert state == from_json(to_json(state))
        check_playable(state)

    def test_totals_alone_count_towards_the_game(self) -> None:
        state = parse_position(SECOND_DEAL.format(rules="-", result="128:57:N"))
        assert (TeamScore(total=128), TeamScore(total=57)) == state.results[0].teams
        assert (128, 57) == state.scores


# -- fuzzed positions --------------------------------------------------------------------------------------------


def _fields(state: GameState) -> dict[str, Any]:
    return {field.name: getattr(state, field.name) for field in attrs.fields(GameState) if field.init}


def _move_a_card(fields: dict[str, Any], rng: random.Random) -> None:
    hands = list(fields["hands"])
    places = [*range(4), "stock", "pile"]
    source, target = rng.choice(places), rng.choice(places)
    if isinstance(source, int):
        if not hands[source]:
            return
        card = rng.choice(list(hands[source]))
        hands[source] -= CardSet([card])
    else:
        name = "stock" if source == "stock" else "discard_pile"
        if not fields[name]:
            return
        card, fields[name] = fields[name][0], fields[name][1:]
    if isinstance(target, int):
        hands[target] |= CardSet([card])
    else:
        name = "stock" if target == "stock" else "discard_pile"
        fields[name] = (*fields[name], card)
    fields["hands"] = tuple(hands)


def _empty_a_hand(fields: dict[str, Any], rng: random.Random) -> None:
    hands = list(fields["hands"])
    seat = rng.randrange(4)
    fields["discard_pile"] = (*hands[seat], *fields["discard_pile"])
    hands[seat] = CardSet()
    fields["hands"] = tuple(hands)
    fields["known"] = tuple(CardSet() if i == seat else part for i, part in enumerate(fields["known"]))


def _change_the_turn(fields: dict[str, Any], rng: random.Random) -> None:
    fields["phase"] = rng.choice((Phase.DRAW, Phase.PLAY))
    fields["to_act"] = rng.randrange(4)
    if fields["phase"] is Phase.DRAW:
        fields["obligation"], fields["picked"] = None, CardSet()


def _take_a_card(fields: dict[str, Any], rng: random.Random) -> None:
    seat = fields["to_act"]
    if seat is None or not fields["hands"][seat]:
        return
    hand = fields["hands"][seat]
    card = rng.choice(list(hand))
    picked = CardSet([card]) | CardSet(rng.sample(list(hand), rng.randrange(len(hand))))
    fields["phase"], fields["obligation"], fields["picked"] = Phase.PLAY, card, picked
    fields["known"] = tuple(part | picked if i == seat else part for i, part in enumerate(fields["known"]))


def _reveal(fields: dict[str, Any], rng: random.Random) -> None:
    seat = rng.randrange(4)
    hand = list(fields["hands"][seat])
    shown = CardSet(rng.sample(hand, rng.randrange(len(hand) + 1)))
    fields["known"] = tuple(shown if i == seat else part for i, part in enumerate(fields["known"]))


def _team(rng: random.Random) -> TeamScore:
    if rng.random() < 0.3:
        return TeamScore(total=rng.randrange(-600, 1100))
    melded = rng.randrange(-5, 500)
    return TeamScore(melded, rng.randrange(0, 60), rng.choice((0, 0, 25)), rng.randrange(-5, 300))


def _make_up_a_score(fields: dict[str, Any], rng: random.Random) -> None:
    results = list(fields["results"])
    if not results:
        return
    k = rng.randrange(len(results))
    went_out = rng.choice((None, 0, 1, 2, 3))
    end = DealEnd.WENT_OUT if went_out is not None else rng.choice((DealEnd.PASSES, DealEnd.STOCK_EMPTY))
    results[k] = DealScore(k + 1, (_team(rng), _team(rng)), went_out, end)
    fields["results"] = tuple(results)


def _pass(fields: dict[str, Any], rng: random.Random) -> None:
    if rng.random() < 0.5:
        fields["discard_pile"] = (*fields["discard_pile"], *fields["stock"])
        fields["stock"] = ()
    fields["passes"] = rng.randrange(5)


MUTATIONS = (_move_a_card, _empty_a_hand, _change_the_turn, _take_a_card, _reveal, _make_up_a_score, _pass)


def fuzzed(state: GameState, rng: random.Random) -> GameState | None:
    """
    *state* changed by one to three random mutations, or `None` when the result does not validate.
    """
    fields = _fields(state)
    for _ in range(rng.randint(1, 3)):
        rng.choice(MUTATIONS)(fields, rng)
    try:
        return GameState(**fields)
    except InvalidStateError:
        return None


class TestFuzzedPositions:
    """
    The promise on positions play does not reach: a fuzzed position that validates has a
    legal action or is over, and each seat's view of it checks and determinizes to valid
    states with a legal action.
    """

    @given(played_states(rules=rules_variants(), max_actions=120), st.integers(0, 2**32 - 1))
    def test_a_fuzzed_position_that_validates_can_be_played_on(self, state: GameState, seed: int) -> None:
        position = fuzzed(state, Seeded(seed))
        event("validates" if position is not None else "refused")
        if position is not None:
            check_playable(position, samples=2)

    def test_fuzzing_reaches_many_valid_positions(self) -> None:
        """
        The property above is not vacuous: of 400 fuzzed positions, over a third validate, and
        of those, some have a pending card that another seat's view must respect.
        """
        rng = Seeded(2026)
        valid = pending = 0
        for _ in range(400):
            base = parse_position(PENDING_QUEEN) if rng.random() < 0.2 else _a_state(rng)
            position = fuzzed(base, rng)
            if position is None:
                continue
            check_playable(position, samples=1)
            valid += 1
            pending += position.obligation is not None
        assert valid > 400 // 3
        assert pending > 10


def _a_state(rng: random.Random) -> GameState:
    """
    A state a few turns into a game played by random players from a random deal.
    """
    state = new_game()
    for _ in range(rng.randrange(1, 60)):
        if state.phase is Phase.GAME_OVER:
            break
        state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
    return state
