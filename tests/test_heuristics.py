"""
The building blocks of `persian_rummy.bots.heuristics`: melds and lay-offs a hand allows (R9-R12,
R17, A8, A11), a meld's value as laid down (R23, R25, A20), margins and returns (R1, R24,
R28), and rollouts.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    DealScore,
    GameState,
    IllegalActionError,
    InvalidMeldError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    Rules,
    TableMeld,
    View,
    apply,
    legal_actions,
    new_game,
    observe,
    random_deal,
    score_deal,
)
from persian_rummy import strategies as library
from persian_rummy.bots.heuristics import (
    Until,
    meld_value,
    possible_layoffs,
    possible_melds,
    rollout,
    seat_returns,
    team_margin,
)
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.melds import is_meld
from persian_rummy.scoring import TeamScore
from tests.positions import low_meld, meld, position
from tests.strategies import played_states, rules_variants

ACE_LOW = Rules(ace_low_allowed=True)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)


def texts(melds: tuple[CardSet, ...]) -> list[str]:
    return [str(cards) for cards in melds]


def pairs(layoffs: tuple[tuple[int, CardSet], ...]) -> list[tuple[int, str]]:
    return [(k, str(cards)) for k, cards in layoffs]


# Cards dense in melds: the 2, 3, 4, king and ace of every suit, and the jokers.
DENSE = [card for card in FULL_DECK if card.index >= 52 or card.index % 13 in {0, 1, 2, 11, 12}]


def dense_hands() -> st.SearchStrategy[CardSet]:
    return st.lists(st.sampled_from(DENSE), min_size=3, max_size=10, unique=True).map(CardSet)


def brute_force_melds(hand: CardSet, rules: Rules) -> set[CardSet]:
    cards = list(hand)
    return {
        CardSet(group)
        for size in range(3, len(cards) + 1)
        for group in combinations(cards, size)
        if is_meld(group, rules)
    }


class TestPossibleMelds:
    """
    R9-R12: a set is three or four cards of one rank, jokers only among themselves (A7); a run
    three or more cards of one suit in sequence, aces high, or also low under A8.
    """

    def test_sets_then_runs(self) -> None:
        assert [
            "5c 5d 5h 5s",
            "5d 5h 5s",
            "5c 5h 5s",
            "5c 5d 5s",
            "5c 5d 5h",
            "5h 6h 7h",
            "5h 6h 7h 8h",
            "6h 7h 8h",
        ] == texts(possible_melds("5c 5d 5h 5s 6h 7h 8h Ks"))

    def test_joker_sets(self) -> None:
        assert ["X1 X2 X3 X4", "X2 X3 X4", "X1 X3 X4", "X1 X2 X4", "X1 X2 X3"] == texts(possible_melds("X1 X2 X3 X4"))

    def test_jokers_are_not_wild(self) -> None:
        """A7: two queens and a joker make no meld."""
        assert () == possible_melds("Qh Qs X1 Jh X2")

    def test_no_wrap_around(self) -> None:
        """R12: K-A-2 is no run."""
        assert () == possible_melds("Ks As 2s")

    def test_the_ace_is_low_only_under_a8(self) -> None:
        assert [] == texts(possible_melds("Ad 2d 3d"))
        assert ["2d 3d Ad"] == texts(possible_melds("Ad 2d 3d", ACE_LOW))

    def test_runs_suit_by_suit_then_the_low_aces(self) -> None:
        assert ["2c 3c 4c", "2s 3s 4s", "2c 3c Ac", "2c 3c 4c Ac", "2s 3s As", "2s 3s 4s As"] == texts(
            possible_melds("Ac 2c 3c 4c 2s 3s 4s As", ACE_LOW)
        )

    def test_cards_given_as_a_card_set_cards_or_text(self) -> None:
        expected = possible_melds("Qh Qs Qd")
        assert expected == possible_melds(CardSet.parse("Qd Qh Qs"))
        assert expected == possible_melds([Card.parse("Qd"), "Qh", "Qs"])
        assert (CardSet.parse("Qd Qh Qs"),) == expected

    def test_bad_arguments(self) -> None:
        with pytest.raises(InvalidTypeError, match="cards must be cards"):
            possible_melds(7)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="rules must be a Rules"):
            possible_melds("Qh Qs Qd", "default")  # type: ignore[arg-type]

    @given(dense_hands(), st.booleans())
    def test_exactly_the_groups_that_are_melds(self, hand: CardSet, ace_low: bool) -> None:
        rules = Rules(ace_low_allowed=ace_low)
        found = possible_melds(hand, rules)
        assert len(set(found)) == len(found)
        assert brute_force_melds(hand, rules) == set(found)

    @given(library.states(phase=Phase.PLAY))
    def test_the_lay_downs_legal_actions_offers_in_its_order(self, state: GameState) -> None:
        if state.obligation is not None or state.rules.jokers_wild:  # the melds of natural cards alone (A7)
            return
        seat: int = state.to_act  # type: ignore[assignment]
        offered = [action.cards for action in legal_actions(state) if isinstance(action, LayDown)]
        assert offered == list(possible_melds(state.hands[seat], state.rules))


TABLE = (meld(1, "8h 9h Th"), meld(0, "Kc Kd Kh"), meld(2, "Qc Qd Qh Qs"))


class TestPossibleLayoffs:
    """
    R17: cards that extend a meld on the table may be laid off onto it, the fourth card onto a
    set of three, cards next to a run's ends onto the run, several at one end in one action (A11).
    """

    def test_meld_by_meld_below_then_above(self) -> None:
        assert [(0, "7h"), (0, "6h 7h"), (0, "Jh"), (1, "Ks")] == pairs(possible_layoffs("6h 7h Jh Ks 2c", TABLE))

    def test_a_gap_is_bridged_only_by_cards_in_hand(self) -> None:
        """A11: 6h reaches 8h 9h Th only with 7h."""
        assert [] == pairs(possible_layoffs("6h Qh", TABLE))

    def test_a_meld_extended_before_counts_its_layoffs(self) -> None:
        """A card laid off extends the meld for the next one (R17)."""
        table = (meld(1, "8h 9h Th", s2="Jh"),)
        assert [(0, "Qh"), (0, "Qh Kh")] == pairs(possible_layoffs("Qh Kh", table))

    def test_the_ace_below_the_2_under_a8(self) -> None:
        table = (low_meld(2, "2s 3s 4s"), low_meld(1, "X1 X2 X3"))
        assert [(0, "As"), (0, "5s"), (0, "5s 6s"), (1, "X4")] == pairs(possible_layoffs("As 5s 6s X4", table, ACE_LOW))

    def test_melds_under_other_rules_are_refused(self) -> None:
        """A8: melds on a table under rules with a low ace carry ace_low=True, and only they."""
        with pytest.raises(
            InvalidValueError, match=r"has ace_low=False, but the rules have ace_low_allowed=True \(A8\)"
        ):
            possible_layoffs("As", TABLE, ACE_LOW)
        with pytest.raises(InvalidValueError, match="ace_low=True"):
            possible_layoffs("As", (low_meld(2, "2s 3s 4s"),))

    def test_bad_arguments(self) -> None:
        with pytest.raises(InvalidTypeError, match="melds must be a sequence of TableMeld values"):
            possible_layoffs("7h", TABLE[0])  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="melds must be TableMeld values"):
            possible_layoffs("7h", ["8h 9h Th"])  # type: ignore[list-item]
        with pytest.raises(InvalidTypeError, match="cards must be cards"):
            possible_layoffs(None, TABLE)  # type: ignore[arg-type]

    @given(library.states(phase=Phase.PLAY))
    def test_the_layoffs_legal_actions_offers_in_its_order(self, state: GameState) -> None:
        if state.obligation is not None or state.rules.jokers_wild:  # the lay-offs of natural cards alone (A7)
            return
        seat: int = state.to_act  # type: ignore[assignment]
        offered = [(action.meld, action.cards) for action in legal_actions(state) if isinstance(action, LayOff)]
        assert offered == list(possible_layoffs(state.hands[seat], state.melds, state.rules))


class TestMeldValue:
    """
    R23, R25, A20: a meld scores its cards' points, and a set of four laid down at once scores
    double (four-card runs too, under A20's variant); a set completed by a lay-off never does.
    """

    @pytest.mark.parametrize(
        ("cards", "value"),
        [
            pytest.param("Js Jh Jd", 30, id="W1 three jacks"),
            pytest.param("Js Jh Jd Jc", 80, id="W2 four jacks at once"),
            pytest.param("X1 X2 X3 X4", 160, id="W3 four jokers"),
            pytest.param("X1 X2 X3", 60, id="W4 three jokers"),
            pytest.param("Ac Ad Ah As", 120, id="W6 four aces"),
            pytest.param("Tc Td Th Ts", 80, id="W7 four tens"),
            pytest.param("2c 2d 2h 2s", 16, id="W8 four twos"),
            pytest.param("4c 4d 4h 4s", 32, id="W8 four fours"),
            pytest.param("Js Qs Ks As", 45, id="W9 a four-card run is not doubled"),
            pytest.param("Th Jh Qh Kh Ah", 55, id="W10"),
            pytest.param("2c 3c 4c", 9, id="W11"),
        ],
    )
    def test_worked_examples(self, cards: str, value: int) -> None:
        assert value == meld_value(cards)

    def test_switches(self) -> None:
        assert 40 == meld_value("Js Jh Jd Jc", Rules(double_four_of_a_kind=False))
        assert 90 == meld_value("Js Qs Ks As", Rules(double_four_card_runs=True))
        assert 55 == meld_value("Th Jh Qh Kh Ah", Rules(double_four_card_runs=True))
        assert 20 == meld_value("Ad 2d 3d", ACE_LOW)  # the ace still scores 15 (A8)

    def test_not_a_meld(self) -> None:
        with pytest.raises(InvalidMeldError, match="Qh Qs X1 is not a set or a run"):
            meld_value("Qh Qs X1")
        with pytest.raises(InvalidMeldError, match="is not a set or a run"):
            meld_value("Ad 2d 3d")

    @given(library.melds(), rules_variants())
    def test_what_the_scoring_counts(self, cards: CardSet, rules: Rules) -> None:
        table = (TableMeld(0, cards, ace_low=rules.ace_low_allowed),)
        team = score_deal(("", "", "", ""), table, None, rules=rules).teams[0]
        assert team.melded + team.doubling == meld_value(cards, rules)  # type: ignore[operator]


W14 = DealScore(1, (TeamScore(125, 0, 25, 22), TeamScore(59, 40, 0, 42)), 0, "went_out")
W16_SECOND = DealScore(2, (TeamScore(total=-12), TeamScore(total=95)), 1, "went_out")


class TestMargins:
    """
    R24, R28: a team's margin is its total minus the other team's; partners (R1) share it.
    """

    def test_one_deal(self) -> None:
        """W14: NS 128, EW 57."""
        assert (128, 57) == W14.totals
        assert (71, -71) == (team_margin(W14, 0), team_margin(W14, 1))
        assert (71, -71, 71, -71) == seat_returns(W14)

    def test_several_deals(self) -> None:
        """W16: totals NS 116, EW 152."""
        assert (-36, 36) == (team_margin([W14, W16_SECOND], 0), team_margin((W14, W16_SECOND), 1))
        assert (-36, 36, -36, 36) == seat_returns([W14, W16_SECOND])
        assert (0, 0, 0, 0) == seat_returns([])

    def test_a_state_and_a_view_count_their_finished_deals(self) -> None:
        state = position(hands=("2c", "3c", "4c", "5c"), results=(W14,), deal=2, dealer=1, to_act=2)
        assert 71 == team_margin(state, 0)
        assert (71, -71, 71, -71) == seat_returns(observe(state, 3))

    def test_bad_arguments(self) -> None:
        with pytest.raises(InvalidValueError, match="team must be 0 or 1, got 2"):
            team_margin(W14, 2)
        with pytest.raises(InvalidTypeError, match="team must be 0 or 1"):
            team_margin(W14, True)
        with pytest.raises(InvalidTypeError, match="result must be a DealScore, a sequence of them"):
            seat_returns("128-57")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="result must be DealScore values"):
            team_margin([W14, (128, 57)], 0)  # type: ignore[list-item]

    @given(played_states(rules=rules_variants(bounded=True)))
    def test_zero_sum(self, state: GameState) -> None:
        returns = seat_returns(state)
        assert state.scores[0] - state.scores[1] == team_margin(state, 0) == -team_margin(state, 1)
        assert (team_margin(state, 0), team_margin(state, 1)) * 2 == (returns[0], returns[1], returns[2], returns[3])
        assert seat_returns(state.results) == returns


def dealt(seed: int, rules: Rules | None = None) -> GameState:
    state = new_game(rules)
    return apply(state, random_deal(state, seeded(seed)))


class ViewChooser:
    """A player that is not also a function on states: rollouts show it the views."""

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        self.views.append(view)
        return rng.choice(legal_actions(view))


class TestRollout:
    """
    Rollouts play a full state to the end of its deal (R19, R22) or of the game (R27).
    """

    def test_to_the_end_of_the_deal(self) -> None:
        final = rollout(dealt(3), GreedyPlayer(), seeded(1))
        assert (Phase.DEAL_OVER, 1) == (final.phase, len(final.results))
        assert final == rollout(dealt(3), GreedyPlayer(), seeded(2), Until.DEAL)  # greedy draws no luck

    def test_to_the_end_of_the_game(self) -> None:
        final = rollout(new_game(), GreedyPlayer(), seeded(5), until="game")
        assert Phase.GAME_OVER == final.phase
        assert [(224, 142), (124, 181)] == [result.totals for result in final.results]
        assert (25, -25, 25, -25) == seat_returns(final)

    def test_between_deals_the_next_deal_is_dealt(self) -> None:
        after_first = rollout(dealt(3), GreedyPlayer(), seeded(1))
        assert after_first is rollout(after_first, GreedyPlayer(), seeded(1), "deal")
        final = rollout(after_first, RandomPlayer(), seeded(1), "game")
        assert (Phase.GAME_OVER, after_first.results[0]) == (final.phase, final.results[0])

    def test_same_seed_same_play(self) -> None:
        first = rollout(dealt(8), RandomPlayer(), seeded(4), "game")
        assert first == rollout(dealt(8), RandomPlayer(), seeded(4), "game")
        assert first != rollout(dealt(8), RandomPlayer(), seeded(5), "game")

    def test_a_player_chooses_from_the_views(self) -> None:
        chooser = ViewChooser()
        final = rollout(dealt(2), chooser, seeded(9))
        assert final == rollout(dealt(2), RandomPlayer(), seeded(9))
        assert all(view.seat == view.to_act for view in chooser.views)
        assert len(chooser.views) > 20

    def test_max_actions(self) -> None:
        state = dealt(6)
        stopped = rollout(state, GreedyPlayer(), seeded(0), max_actions=5)
        played = state
        for _ in range(5):
            played = apply(played, GreedyPlayer()(played, seeded(0)))
        assert played == stopped
        assert state is rollout(state, GreedyPlayer(), seeded(0), max_actions=0)

    def test_an_illegal_choice(self) -> None:
        with pytest.raises(IllegalActionError):
            rollout(dealt(1), lambda _state, _rng: Pass(0), seeded(0))

    def test_bad_arguments(self) -> None:
        state = dealt(1)
        rng = seeded(0)
        with pytest.raises(InvalidValueError, match="Until is one of 'deal', 'game', not 'hand'"):
            rollout(state, GreedyPlayer(), rng, "hand")
        with pytest.raises(InvalidTypeError, match="policy must be a function of a state and a random source"):
            rollout(state, 42, rng)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="state must be a GameState"):
            rollout(observe(state, 1), GreedyPlayer(), rng)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"rng must be a random\.Random"):
            rollout(state, GreedyPlayer(), 7)  # type: ignore[arg-type]
        with pytest.raises(InvalidValueError, match="max_actions must be 0 or more"):
            rollout(state, GreedyPlayer(), rng, max_actions=-1)
        with pytest.raises(InvalidTypeError, match="max_actions must be an int or None"):
            rollout(state, GreedyPlayer(), rng, max_actions=2.0)  # type: ignore[arg-type]

    @given(played_states(rules=rules_variants(bounded=True)), st.integers(0, 2**32))
    def test_ends_where_it_should(self, state: GameState, seed: int) -> None:
        deal = rollout(state, GreedyPlayer(), seeded(seed))
        game = rollout(state, GreedyPlayer(), seeded(seed), "game")
        assert deal.phase in {Phase.DEAL_OVER, Phase.GAME_OVER}
        assert Phase.GAME_OVER == game.phase
        assert state.results == deal.results[: len(state.results)] == game.results[: len(state.results)]
