"""
The ready players of `persian_rummy.bots.players`: the protocol, `make_player`, the greedy heuristic,
and the two searches (PIMC and ISMCTS); every player chooses legal actions, the same from the
same seed.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    ChanceNodeError,
    Discard,
    DrawStock,
    GameState,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    PlayerAction,
    Rules,
    StandIns,
    TakeDiscard,
    View,
    ViewError,
    apply,
    legal_actions,
    new_game,
    observe,
    parse_position,
)
from persian_rummy.bots.heuristics import Until, rollout
from persian_rummy.bots.players import (
    PLAYER_NAMES,
    GreedyPlayer,
    ISMCTSPlayer,
    LegalActionsPlayer,
    PIMCPlayer,
    Player,
    RandomPlayer,
    make_player,
)
from tests.positions import meld, position
from tests.strategies import played_states, rules_variants

SEARCHES: list[Player] = [PIMCPlayer(rollouts=1), ISMCTSPlayer(iterations=3)]
PLAYERS: list[Player] = [RandomPlayer(), GreedyPlayer(), *SEARCHES]
IDS = ["random", "greedy", "pimc", "ismcts"]


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 (reproducible play, not cryptography)


def view_to_act(state: GameState) -> View:
    seat: int = state.to_act  # type: ignore[assignment]
    return observe(state, seat)


def to_act(state: GameState) -> bool:
    return state.to_act is not None


class TestProtocol:
    """
    A player is an immutable, picklable value with ``choose(view, rng)``.
    """

    @pytest.mark.parametrize("player", PLAYERS, ids=IDS)
    def test_players_are_immutable_values(self, player: Player) -> None:
        assert isinstance(player, Player)
        assert player == pickle.loads(pickle.dumps(player))  # noqa: S301 (our own bytes)
        assert hash(player) == hash(pickle.loads(pickle.dumps(player)))  # noqa: S301
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            player.budget = 3  # type: ignore[attr-defined]

    @pytest.mark.parametrize("player", PLAYERS, ids=IDS)
    def test_bad_arguments(self, player: Player) -> None:
        state = position(hands=("2c", "Kd Kh 5c 9s", "", ""), pile="2d Kc", to_act=1)
        with pytest.raises(InvalidTypeError, match="a View"):
            player.choose(state, seeded(0))  # type: ignore[arg-type]
        with pytest.raises(ViewError, match="does not show the cards of seat 1"):
            player.choose(observe(state, 2), seeded(0))
        with pytest.raises(ChanceNodeError):
            player.choose(observe(new_game(), 0), seeded(0))
        with pytest.raises(InvalidTypeError, match=r"rng must be a random\.Random"):
            player.choose(observe(state, 1), 0)  # type: ignore[arg-type]


class TestLegalActionsPlayer:
    """
    A player that looks at nothing but the legal actions chooses from them as it would from the view:
    a match gives it ``legal_actions(state)`` and makes no view for it.
    """

    def test_only_the_random_player_is_one(self) -> None:
        assert [True, False, False, False] == [isinstance(player, LegalActionsPlayer) for player in PLAYERS]

    @given(played_states(rules=rules_variants()).filter(to_act), st.integers(0, 2**32))
    def test_the_random_player_chooses_alike_from_the_actions_and_from_the_view(
        self, state: GameState, seed: int
    ) -> None:
        player = RandomPlayer()
        actions = legal_actions(state)
        by_actions, by_view = seeded(seed), seeded(seed)
        assert player.choose(view_to_act(state), by_view) is player.choose_among(actions, by_actions)
        assert by_view.getstate() == by_actions.getstate()

    def test_the_random_player_chooses_each_action(self) -> None:
        actions = legal_actions(position(hands=("", "2c 5d 9h Ks", "", ""), to_act=1, phase="play"))
        rng = seeded(3)
        assert set(actions) == {RandomPlayer().choose_among(actions, rng) for _ in range(200)}
        assert 4 == len(actions)

    @pytest.mark.parametrize(
        ("actions", "rng", "error", "message"),
        [
            ((), seeded(0), InvalidValueError, "actions must hold the legal actions of the seat to act, got none"),
            ([DrawStock(0)], seeded(0), InvalidTypeError, "actions must be a tuple of actions"),
            ((DrawStock(0),), 0, InvalidTypeError, r"rng must be a random\.Random"),
        ],
    )
    def test_bad_arguments(self, actions: object, rng: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            RandomPlayer().choose_among(actions, rng)  # type: ignore[arg-type]


class TestMakePlayer:
    """
    The ready players by name, the searches with a budget in steps or in seconds.
    """

    def test_names(self) -> None:
        assert ["greedy", "ismcts", "learned", "pimc", "random"] == sorted(PLAYER_NAMES)
        assert [RandomPlayer(), GreedyPlayer(), PIMCPlayer(), ISMCTSPlayer()] == [
            make_player(name) for name in ("random", "greedy", "pimc", "ismcts")
        ]

    def test_budgets(self) -> None:
        assert PIMCPlayer(rollouts=200) == make_player("pimc:200")
        assert ISMCTSPlayer(iterations=500) == make_player("ismcts:500")
        assert PIMCPlayer(seconds=0.5) == make_player("pimc:0.5s")
        assert ISMCTSPlayer(seconds=2.0) == make_player("ismcts:2s")

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ("nobody", "no player is called 'nobody'; the players are greedy, ismcts, learned, pimc, random"),
            ("greedy:5", "the player 'greedy' takes no budget, got '5'"),
            ("random:", "the player 'random' takes no budget"),
            ("pimc:0", "a budget is a whole number of rollouts or a number of seconds"),
            ("pimc:-5", "a budget is a whole number of rollouts"),
            ("pimc:", "a budget is a whole number of rollouts"),
            ("ismcts:ten", "a budget is a whole number of iterations"),
            ("ismcts:0s", "a budget is a whole number of iterations"),
            ("ismcts:infs", "a budget is a whole number of iterations"),
            ("ismcts:nans", "a budget is a whole number of iterations"),
            ("pimc:1.5", "a budget is a whole number of rollouts"),
        ],
    )
    def test_unknown_names_and_bad_budgets(self, spec: str, message: str) -> None:
        with pytest.raises(InvalidValueError, match=message):
            make_player(spec)

    def test_not_a_name(self) -> None:
        with pytest.raises(InvalidTypeError, match="spec must be a player's name"):
            make_player(3)  # type: ignore[arg-type]


def play_phase(hand: str, *, melds: tuple[object, ...] = (), rules: Rules | None = None) -> GameState:
    return position(hands=("6c", hand, "6d", "6s"), melds=melds, to_act=1, phase="play", rules=rules)  # type: ignore[arg-type]


class TestGreedyMelding:
    """
    R16, R17, R25: the greedy player plays the meld or lay-off that scores most, a set of four
    laid down at once counted double.
    """

    def test_four_at_once_scores_double(self) -> None:
        state = play_phase("5c 5d 5h 5s 9h Th Jh")
        assert LayDown(1, "5c 5d 5h 5s") == GreedyPlayer()(state, seeded(0))

    def test_without_the_doubling_the_run_scores_more(self) -> None:
        state = play_phase("5c 5d 5h 5s 9h Th Jh", rules=Rules(double_four_of_a_kind=False))
        assert LayDown(1, "9h Th Jh") == GreedyPlayer()(state, seeded(0))

    def test_a_lay_off_that_scores_more(self) -> None:
        state = play_phase("Jh Qh 4d 4s 4c", melds=(meld(0, "8h 9h Th"),))
        assert LayOff(1, 0, "Jh Qh") == GreedyPlayer()(state, seeded(0))

    def test_the_card_taken_is_played(self) -> None:
        """R15: after taking Kc, only melds with it are legal; the greedy plays the best."""
        state = position(hands=("2c", "Kd Kh Ks 5c 9s", "", ""), pile="2d Kc", to_act=1)
        taken = apply(state, TakeDiscard(1, "Kc"))
        assert LayDown(1, "Kc Kd Kh Ks") == GreedyPlayer()(taken, seeded(0))


class TestGreedyDiscarding:
    """
    R18: with nothing to meld, the greedy player discards the card that helps least towards a
    meld, and of those the one of most points.
    """

    def test_the_lone_card_of_most_points(self) -> None:
        state = play_phase("Kc Kd 7h 2s Qd")
        assert Discard(1, "7h") == GreedyPlayer()(state, seeded(0))

    def test_pairs_and_neighbours_are_kept(self) -> None:
        state = play_phase("Kc Kd Ks 9c", rules=None)
        assert LayDown(1, "Kc Kd Ks") == GreedyPlayer()(state, seeded(0))
        after = apply(state, LayDown(1, "Kc Kd Ks"))
        assert Discard(1, "9c") == GreedyPlayer()(after, seeded(0))
        state = play_phase("8c 9c Ad Ah 3s")
        assert Discard(1, "3s") == GreedyPlayer()(state, seeded(0))


# Ten cards on the pile above Kc that make no meld with each other or with Kd Kh 2c.
JUNK = "Qs Jd Tc 9h 8s 7d 6c Qh Jc 5s"


class TestGreedyDrawing:
    """
    R14, R15, R21: the greedy player takes from the discard pile when the melds it makes pay
    for the cards it brings, else draws from the stock, or passes when the stock is empty.
    """

    def test_takes_a_card_that_makes_a_meld(self) -> None:
        state = position(hands=("2c", "Kd Kh 5c 9s", "", ""), pile="2d Kc", to_act=1)
        assert TakeDiscard(1, "Kc") == GreedyPlayer()(state, seeded(0))

    def test_not_under_a_heap_of_cards_it_cannot_use(self) -> None:
        state = position(hands=("2d", "Kd Kh 2c", "", ""), pile=f"Kc {JUNK}", to_act=1)
        assert [DrawStock(1), TakeDiscard(1, "Kc")] == list(legal_actions(state))
        assert DrawStock(1) == GreedyPlayer()(state, seeded(0))

    def test_passes_with_an_empty_stock(self) -> None:
        state = position(hands=("", "Kd Kh 2c", "", ""), pile=f"Kc {JUNK}", to_act=1, rest_to=0)
        assert [TakeDiscard(1, "Kc"), Pass(1)] == list(legal_actions(state))
        assert Pass(1) == GreedyPlayer()(state, seeded(0))

    def test_takes_with_an_empty_stock_when_it_pays(self) -> None:
        state = position(hands=("", "Kd Kh 2c", "", ""), pile="Kc 5s", to_act=1, rest_to=0)
        assert TakeDiscard(1, "Kc") == GreedyPlayer()(state, seeded(0))


class TestGreedyWildJokers:
    """
    A7 (`Rules.jokers_wild`): the greedy player reckons a wild joker as melded, since it fits some
    meld sooner or later, so it keeps its jokers and takes one from the pile when it may.
    """

    def test_a_joker_is_the_last_card_it_discards(self) -> None:
        state = parse_position("jokers_wild=true 1/N play E 2c/X17h2sQd/3c/4c * 5c - - - - 0 - -")
        assert Discard(1, "Qd") == GreedyPlayer()(state, seeded(0))
        tame = parse_position("- 1/N play E 2c/X17h2sQd/3c/4c * 5c - - - - 0 - -")
        assert Discard(1, "X1") == GreedyPlayer()(tame, seeded(0))

    def test_it_takes_a_joker_it_can_meld(self) -> None:
        state = parse_position("jokers_wild=true 1/N draw E 2c/7h9h2sQd/3c/4c * 5cX2 - - - - 0 - -")
        assert TakeDiscard(1, "X2") in legal_actions(state)
        assert TakeDiscard(1, "X2") == GreedyPlayer()(state, seeded(0))
        taken = apply(state, TakeDiscard(1, "X2"))
        assert LayDown(1, "7h X2 9h", stand_ins=StandIns.parse("X2=8h")) == GreedyPlayer()(taken, seeded(0))


class TestLegalChoices:
    """
    Every ready player chooses one of the legal actions of the view it is shown, the same one
    from the same seed, and a lone legal action without thinking.
    """

    @given(played_states(rules=rules_variants()).filter(to_act), st.integers(0, 2**32))
    def test_fast_players_choose_legal_actions(self, state: GameState, seed: int) -> None:
        view = view_to_act(state)
        for player in (RandomPlayer(), GreedyPlayer()):
            action = player.choose(view, seeded(seed))
            assert action in legal_actions(state)
            assert action == player(state, seeded(seed))

    @pytest.mark.parametrize("player", SEARCHES, ids=IDS[2:])
    @given(state=played_states(rules=rules_variants(bounded=True)).filter(to_act), seed=st.integers(0, 2**32))
    def test_searches_choose_legal_actions(self, player: Player, state: GameState, seed: int) -> None:
        view = view_to_act(state)
        action = player.choose(view, seeded(seed))
        assert action in legal_actions(state)
        assert action == player.choose(view, seeded(seed))

    @pytest.mark.parametrize("player", PLAYERS, ids=IDS)
    def test_same_seed_same_action(self, player: Player) -> None:
        state = parse_position("- 1/N play E 2c3c4c/5c6c2dKdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -")
        view = observe(state, 1)
        actions = [player.choose(view, seeded(seed)) for seed in range(6)]
        copy = pickle.loads(pickle.dumps(player))  # noqa: S301 (our own bytes)
        assert actions == [copy.choose(view, seeded(seed)) for seed in range(6)]

    @pytest.mark.parametrize("player", PLAYERS[1:], ids=IDS[1:])
    def test_a_lone_legal_action(self, player: Player) -> None:
        state = position(hands=("", "Kd Kh 2s", "", ""), pile="7d", to_act=1, rest_to=0)
        rng = seeded(4)
        before = rng.getstate()
        assert Pass(1) == player.choose(observe(state, 1), rng)
        assert before == rng.getstate()


class TestGreedyOutOfTurn:
    """
    R27: after the game no seat is to act, and the greedy player has no action to choose.
    """

    def test_a_finished_game(self) -> None:
        final = rollout(new_game(), RandomPlayer(), seeded(8), Until.GAME)
        assert Phase.GAME_OVER is final.phase
        message = "no seat is to act in phase 'game_over': there is no action to choose"
        with pytest.raises(InvalidValueError, match=message):
            GreedyPlayer()(final, seeded(1))
        with pytest.raises(InvalidValueError, match=message):
            GreedyPlayer().choose(observe(final, 0), seeded(1))


def going_out() -> View:
    """East can go out, laying down its three kings (R19)."""
    return observe(parse_position("- 1/N play E 2c3c4c/KdKhKs/2h3h4h/2s3s4s * - - - - - 0 - -"), 1)


class ViewChooser:
    """A rollout policy that is a player and no function of states."""

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return GreedyPlayer().choose(view, rng)


class TestPIMC:
    """
    PIMC: determinize, try each legal action, play each out to the end of the deal, keep the
    best mean margin (R24).
    """

    def test_goes_out(self) -> None:
        assert LayDown(1, "Kd Kh Ks") == PIMCPlayer(rollouts=100).choose(going_out(), seeded(0))

    def test_a_policy_that_chooses_from_views(self) -> None:
        player = PIMCPlayer(rollouts=8, policy=ViewChooser())
        view = going_out()
        assert PIMCPlayer(rollouts=8).choose(view, seeded(3)) == player.choose(view, seeded(3))

    def test_a_budget_in_seconds(self) -> None:
        action = PIMCPlayer(seconds=0.001).choose(going_out(), seeded(0))
        assert action in legal_actions(going_out())

    @pytest.mark.parametrize(
        ("fields", "error", "message"),
        [
            ({"rollouts": 0}, InvalidValueError, "rollouts must be 1 or more, got 0"),
            ({"rollouts": 2.5}, InvalidTypeError, "rollouts must be an int"),
            ({"seconds": 0}, InvalidValueError, "seconds must be more than 0 and finite"),
            ({"seconds": float("inf")}, InvalidValueError, "seconds must be more than 0 and finite"),
            ({"seconds": "1"}, InvalidTypeError, "seconds must be a number of seconds or None"),
            ({"policy": 5}, InvalidTypeError, "policy must be a policy or a player"),
        ],
    )
    def test_bad_fields(self, fields: dict[str, object], error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            PIMCPlayer(**fields)  # type: ignore[arg-type]


class TestISMCTS:
    """
    ISMCTS: one tree over the information sets of the seat that searches, UCB1 with
    availability counts, rollouts to the end of the deal (R24).
    """

    def test_goes_out(self) -> None:
        assert LayDown(1, "Kd Kh Ks") == ISMCTSPlayer(iterations=40).choose(going_out(), seeded(0))

    def test_a_policy_that_chooses_from_views(self) -> None:
        player = ISMCTSPlayer(iterations=10, policy=ViewChooser())
        view = going_out()
        assert ISMCTSPlayer(iterations=10).choose(view, seeded(3)) == player.choose(view, seeded(3))

    def test_a_budget_in_seconds(self) -> None:
        action = ISMCTSPlayer(seconds=0.001).choose(going_out(), seeded(0))
        assert action in legal_actions(going_out())

    @pytest.mark.parametrize(
        ("fields", "error", "message"),
        [
            ({"iterations": 0}, InvalidValueError, "iterations must be 1 or more, got 0"),
            ({"iterations": True}, InvalidTypeError, "iterations must be an int"),
            ({"seconds": -1.0}, InvalidValueError, "seconds must be more than 0 and finite"),
            ({"explore": -0.5}, InvalidValueError, "explore must be 0 or more and finite"),
            ({"explore": "wide"}, InvalidTypeError, "explore must be a number"),
            ({"policy": None}, InvalidTypeError, "policy must be a policy or a player"),
        ],
    )
    def test_bad_fields(self, fields: dict[str, object], error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            ISMCTSPlayer(**fields)  # type: ignore[arg-type]

    def test_the_root_is_the_view(self) -> None:
        """A determinized state seen by the searching seat is its view again, so the root is shared."""
        view = going_out()
        assert Phase.PLAY == view.phase
        assert ISMCTSPlayer(iterations=1).choose(view, seeded(0)) in legal_actions(view)
