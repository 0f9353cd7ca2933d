"""
The single-agent Gymnasium environment (persian_rummy.rl.gymnasium): Gymnasium's checks, and the
game the learner plays against ready players.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("gymnasium")

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env

from persian_rummy import (
    GameState,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    Phase,
    PlayerAction,
    Rules,
    View,
    apply,
    legal_actions,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.bots.players import GreedyPlayer, Player, RandomPlayer, make_player
from persian_rummy.events import Event, view_from_events
from persian_rummy.rl.actionids import action_from_id, action_mask, legal_ids
from persian_rummy.rl.gymnasium import ENV_ID, PersianRummySoloEnv
from persian_rummy.rl.tensors import observation_tensor
from persian_rummy.serialize import from_data, to_data

Observation = dict[str, Any]
Step = tuple[Observation, float, bool, bool, dict[str, Any]]


def first_id(observation: Observation) -> int:
    """
    The lowest legal id of *observation*.
    """
    return int(np.flatnonzero(observation["action_mask"])[0])


def episode(env: PersianRummySoloEnv, seed: int | None) -> tuple[Observation, dict[str, Any], list[Step]]:
    """
    An episode in which the learner always plays its lowest legal id: the first observation and
    info, and each step's results.
    """
    observation, info = env.reset(seed=seed)
    first = (observation, info)
    steps: list[Step] = []
    terminated = False
    while not terminated:
        step = env.step(first_id(observation))
        observation, _, terminated, _, _ = step
        steps.append((step[0], float(step[1]), step[2], step[3], step[4]))
    return first[0], first[1], steps


def same(one: Any, two: Any) -> bool:
    """
    Whether two results of the environment are equal, arrays compared exactly.
    """
    return bool(gymnasium.utils.env_checker.data_equivalence(one, two, exact=True))


def replay(seed: int, seat: int, players: tuple[Player, ...], rules: Rules | None = None) -> GameState:
    """
    The game the module documents for *seed*, its learner playing its lowest legal id: the seeds
    of the deck and of each seat's source drawn from Gymnasium's ``np_random``, the first dealer
    drawn from the deck's source, and the players of the other seats shown their views.
    """
    generator, _ = seeding.np_random(seed)
    seeds = [int(value) for value in generator.integers(0, 2**63 - 1, size=5)]
    deck = random.Random(seeds[4])  # noqa: S311 (reproducible play)
    sources = [random.Random(value) for value in seeds[:4]]  # noqa: S311
    state = new_game(rules, dealer=deck.randrange(4))
    others = iter(players)
    by_seat = [None if place == seat else next(others) for place in range(4)]
    while state.phase is not Phase.GAME_OVER:
        if state.is_chance_node:
            state = apply(state, random_deal(state, deck))
        elif state.to_act == seat:
            state = apply(state, action_from_id(min(legal_ids(state)), state))
        else:
            acting = state.to_act
            assert acting is not None
            player = by_seat[acting]
            assert player is not None
            state = apply(state, player.choose(observe(state, acting), sources[acting]))
    return state


class TestGymnasiumChecks:
    """
    Gymnasium's environment checker passes, under several settings, and the id is registered.
    """

    @pytest.mark.parametrize(
        "settings",
        [
            {},
            {"seat": 1, "players": "random"},
            {"seat": 3, "players": ("random", "greedy", "pimc:4"), "reward": "outcome"},
            {"rules": Rules(ace_low_allowed=True, hand_size=10), "dealer": 2},
            {"rules": Rules(rummy_calls=True), "players": "greedy"},
            {"render_mode": "ansi"},
            {"mask_in_observation": False, "players": "random"},
            {"rules": Rules(jokers_wild=True), "players": "random"},
            {"rules": Rules(jokers_wild=True, rummy_calls=True), "mask_in_observation": False, "players": "random"},
        ],
    )
    def test_check_env(self, settings: dict[str, Any]) -> None:
        check_env(gymnasium.make(ENV_ID, **settings).unwrapped)

    def test_registered(self) -> None:
        assert "persian_rummy.rl.gymnasium:PersianRummySoloEnv" == gymnasium.spec(ENV_ID).entry_point
        assert "persian_rummy.rl.vector:make_vector" == gymnasium.spec(ENV_ID).vector_entry_point
        assert isinstance(gymnasium.make("persian_rummy/Solo-v0").unwrapped, PersianRummySoloEnv)

    def test_registered_once(self) -> None:
        """
        Importing the module again registers nothing again (Gymnasium would warn of an override).
        """
        code = "import importlib, persian_rummy.rl.gymnasium as m; importlib.reload(m)"
        command = [sys.executable, "-W", "error", "-c", code]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # the package under test
        result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)  # noqa: S603 (this Python)
        assert (0, "") == (result.returncode, result.stderr)


class TestSpaces:
    """
    The spaces and observations are those of the PettingZoo environment, for the learner's seat.
    """

    def test_spaces(self) -> None:
        env = PersianRummySoloEnv()
        assert 944 == env.action_space.n  # type: ignore[attr-defined]
        assert ["action_mask", "observation"] == sorted(env.observation_space.keys())  # type: ignore[attr-defined]

    @pytest.mark.parametrize("seat", [0, 1, 2, 3])
    def test_the_learner_sees_its_view(self, seat: int) -> None:
        env = PersianRummySoloEnv(seat=seat, players="random")
        observation, _ = env.reset(seed=seat)
        terminated = False
        while not terminated:
            state = env.game_state
            assert seat == state.to_act
            assert np.array_equal(observation_tensor(observe(state, seat)), observation["observation"])
            assert action_mask(state) == observation["action_mask"].tobytes()
            assert np.array_equal(observation["action_mask"].astype(bool), env.action_masks())
            observation, _, terminated, _, _ = env.step(first_id(observation))
        # Once the game is over every id is marked: the step a vector env's autoreset ignores.
        assert (944, 944) == (observation["action_mask"].sum(), env.action_masks().sum())


class TestPlayers:
    """
    The other seats are ready players (persian_rummy.bots.players), each shown only its view and
    drawing from its own seeded source.
    """

    @pytest.mark.parametrize(
        ("seed", "seat", "players"),
        [
            (0, 0, (GreedyPlayer(),) * 3),
            (1, 2, (RandomPlayer(), GreedyPlayer(), RandomPlayer())),
            (2, 3, (make_player("pimc:3"), RandomPlayer(), GreedyPlayer())),
        ],
    )
    def test_the_players_play(self, seed: int, seat: int, players: tuple[Player, ...]) -> None:
        env = PersianRummySoloEnv(seat=seat, players=players)
        episode(env, seed)
        assert replay(seed, seat, players) == env.game_state

    def test_by_name(self) -> None:
        env = PersianRummySoloEnv(seat=1, players=["random", "greedy", "pimc:2"])
        assert (make_player("random"), None, make_player("greedy"), make_player("pimc:2")) == env.players
        assert (None, GreedyPlayer(), GreedyPlayer(), GreedyPlayer()) == PersianRummySoloEnv().players

    def test_a_listening_player_hears_its_seat(self) -> None:
        env = PersianRummySoloEnv(seat=0, players=(GreedyPlayer(), Listening(), GreedyPlayer()))
        env.reset(seed=4)
        first_dealer = env.game_state.dealer if env.game_state.deal == 1 else None
        episode(env, 4)
        heard: Listening = env._seated[2]  # type: ignore[assignment]
        assert (None, []) == (env.players[0], env.players[2].events)  # type: ignore[union-attr]
        view = view_from_events(env.rules, first_dealer, 2, heard.events)  # type: ignore[arg-type]
        assert observe(env.game_state, 2) == view


class Listening:
    """
    A greedy player that keeps every event of its seat.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return GreedyPlayer().choose(view, rng)

    def hear(self, event: Event) -> None:
        self.events.append(event)


class TestEpisodes:
    """
    An episode is a game (R27) from the learner's first decision; the same seed gives the same episode.
    """

    def test_the_same_seed(self) -> None:
        assert same(episode(PersianRummySoloEnv(), 5), episode(PersianRummySoloEnv(), 5))

    def test_without_a_seed_the_games_go_on(self) -> None:
        one, two = PersianRummySoloEnv(), PersianRummySoloEnv()
        episode(one, 5)
        episode(two, 5)
        assert same(episode(one, None), episode(two, None))
        assert not same(episode(one, 5)[0], episode(two, None)[0])

    def test_rewards_add_up_to_the_margin(self) -> None:
        env = PersianRummySoloEnv(seat=1)
        _, _, steps = episode(env, 6)
        state = env.game_state
        rewarded = [reward for _, reward, _, _, _ in steps if reward]
        assert [(r.totals[1] - r.totals[0]) / 1954 for r in state.results] == rewarded
        assert pytest.approx((state.scores[1] - state.scores[0]) / env.reward_scale) == sum(rewarded)

    def test_infos_tell_each_deal(self) -> None:
        env = PersianRummySoloEnv()
        _, info, steps = episode(env, 6)
        state = env.game_state
        told = [(index, step[4]) for index, step in enumerate(steps) if step[4]]
        assert ({}, 2) == (info, len(told))
        results = [to_data(result) for result in state.results]
        deals = [list(result.totals) for result in state.results]
        assert {"results": results[:1], "deals": deals[:1], "scores": deals[0]} == told[0][1]
        winner = -1 if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
        end = {"results": results, "deals": deals, "scores": list(state.scores), "winner": winner}
        assert (end, len(steps) - 1) == (
            told[1][1],
            told[1][0],
        )

    def test_the_outcome(self) -> None:
        env = PersianRummySoloEnv(reward="outcome", seat=2)
        _, _, steps = episode(env, 7)
        team_0, team_1 = env.game_state.scores
        won = 0.0 if team_0 == team_1 else (1.0 if team_0 > team_1 else -1.0)
        assert [0.0] * (len(steps) - 1) + [won] == [reward for _, reward, _, _, _ in steps]
        assert [False] * (len(steps) - 1) + [True] == [terminated for _, _, terminated, _, _ in steps]


class TestDecisionsLate:
    """
    With 13 cards each, three in the stock, and a deal that ends when the stock runs out (A5,
    A17), three players who draw from the stock end a deal before the fourth decides anything.
    """

    RULES = Rules(hand_size=13, empty_stock_end="immediately")

    def test_a_deal_before_the_first_decision(self) -> None:
        """
        Its reward comes with the first step, and reset reports it.
        """
        env = PersianRummySoloEnv(self.RULES, dealer=0, players="random")
        _, info, steps = episode(env, 0)
        first = env.game_state.results[0]
        assert {"results": [to_data(first)], "deals": [list(first.totals)], "scores": list(first.totals)} == info
        assert first == from_data(info["results"][0])
        assert (first.totals[0] - first.totals[1]) / env.reward_scale == pytest.approx(steps[0][1] - 0.0)

    def test_a_game_before_the_first_decision(self) -> None:
        """
        A game that ends before the learner's first decision is not played to it: reset deals another.
        """
        rules = Rules(hand_size=13, empty_stock_end="immediately", next_dealer="same")
        seed = next(seed for seed in range(100) if first_dealers(seed)[0] == 0)
        dealers = first_dealers(seed)
        games = next(index for index, dealer in enumerate(dealers) if dealer != 0) + 1
        env = PersianRummySoloEnv(rules, players=(Drawing(),) * 3)
        env.reset(seed=seed)
        generator, _ = seeding.np_random(seed)
        generator.integers(0, 2**63 - 1, size=5 * games)
        assert (1, dealers[games - 1], 0) == (env.game_state.deal, env.game_state.dealer, env.game_state.to_act)
        assert generator.bit_generator.state == env.np_random.bit_generator.state

    def test_no_game_reaches_a_decision(self) -> None:
        rules = Rules(hand_size=13, empty_stock_end="immediately", next_dealer="same")
        env = PersianRummySoloEnv(rules, dealer=0, players=(Drawing(),) * 3)
        with pytest.raises(InvalidValueError, match="1000 games in a row ended before the learner's first decision"):
            env.reset(seed=0)


def first_dealers(seed: int, games: int = 10) -> list[int]:
    """
    The first dealers of the first *games* games of *seed*.
    """
    generator, _ = seeding.np_random(seed)
    seeds = [generator.integers(0, 2**63 - 1, size=5)[4] for _ in range(games)]
    return [random.Random(int(value)).randrange(4) for value in seeds]  # noqa: S311


class Drawing:
    """
    Plays the first legal action: draws from the stock while it can, then melds, then discards.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002
        return legal_actions(view)[0]


class TestIllegalIds:
    """
    ``on_illegal="lose"`` (the default) ends the episode with -1; ``"raise"`` raises as
    persian_rummy.apply does and changes nothing.  Ids outside the space always raise.
    """

    def test_lose(self) -> None:
        env = PersianRummySoloEnv()
        env.reset(seed=1)
        observation, reward, terminated, truncated, info = env.step(943)
        assert (-1.0, True, False, {"illegal_action": 943}) == (reward, terminated, truncated, info)
        assert (944, 944) == (observation["action_mask"].sum(), env.action_masks().sum())
        with pytest.raises(InvalidValueError, match="the episode is over"):
            env.step(0)

    def test_raise(self) -> None:
        env = PersianRummySoloEnv(on_illegal="raise")
        env.reset(seed=1)
        state = env.game_state
        with pytest.raises(IllegalActionError, match=r"action id 943 \(lay As above Ks\) is not"):
            env.step(943)
        assert state == env.game_state
        env.step(0)

    @pytest.mark.parametrize("on_illegal", ["lose", "raise"])
    def test_outside_the_space(self, on_illegal: str) -> None:
        env = PersianRummySoloEnv(on_illegal=on_illegal)
        env.reset(seed=1)
        with pytest.raises(InvalidValueError, match="action id 944 is outside the action space"):
            env.step(944)
        with pytest.raises(InvalidTypeError, match="an action id must be an int, got 'draw'"):
            env.step("draw")  # type: ignore[arg-type]

    def test_after_the_game(self) -> None:
        env = PersianRummySoloEnv()
        episode(env, 2)
        with pytest.raises(InvalidValueError, match="the episode is over"):
            env.step(0)


class TestRender:
    """
    The learner's view as text: "ansi" returns it, "human" prints it.
    """

    TEXT = """\
Persian Rummy, deal 1 of 2, dealer E: N (you) to draw
  played: S draw
  played: S discard X2
  played: W draw
  played: W discard X1
  N (you): 5h Qh 2s 3s 7s X3 X4
  E (opponent): 7 cards
  S (partner): 7 cards
  W (opponent): 7 cards
  stock: 25 cards; discard pile, bottom to top: 9d X2 X1
  scores: N-S 0, E-W 0"""

    def test_ansi(self) -> None:
        env = PersianRummySoloEnv(render_mode="ansi")
        env.reset(seed=0)
        assert self.TEXT == env.render()

    def test_human(self, capsys: pytest.CaptureFixture[str]) -> None:
        env = PersianRummySoloEnv(render_mode="human")
        env.reset(seed=0)
        assert env.render() is None
        assert f"{self.TEXT}\n{self.TEXT}\n" == capsys.readouterr().out
        env.step(0)
        assert "Persian Rummy, deal 1 of 2, dealer E: N (you) to play\n  played: N draw\n" in capsys.readouterr().out

    def test_no_render_mode(self) -> None:
        env = PersianRummySoloEnv()
        env.reset(seed=0)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert env.render() is None


class TestArguments:
    """
    Bad settings raise the library's errors.
    """

    @pytest.mark.parametrize(
        ("settings", "error", "message"),
        [
            ({"seat": 4}, InvalidValueError, "seat must be a seat 0-3, got 4"),
            ({"players": "nobody"}, InvalidValueError, "no player is called 'nobody'"),
            (
                {"players": 3.5},
                InvalidTypeError,
                "a player is a name of persian_rummy.bots.players.PLAYER_NAMES or a Player",
            ),
            ({"players": ["greedy", "random"]}, InvalidValueError, "players must be one player or three"),
            ({"on_illegal": "ignore"}, InvalidValueError, "on_illegal must be one of 'lose', 'raise', got 'ignore'"),
            ({"reward": "points"}, InvalidValueError, "reward must be one of 'margin', 'outcome'"),
            ({"render_mode": "rgb"}, InvalidValueError, "render_mode must be one of 'ansi', 'human', 'rgb_array', got"),
            ({"rules": "default"}, InvalidTypeError, "rules must be a Rules or None"),
        ],
    )
    def test_bad_settings(self, settings: dict[str, Any], error: type[Exception], message: str) -> None:
        with pytest.raises(error, match=message):
            PersianRummySoloEnv(**settings)
