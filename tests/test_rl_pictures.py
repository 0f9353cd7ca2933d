"""
The environments' render mode "rgb_array": a picture of the table as an array of pixels, in every
environment and through the toolkits' own makers and checks, as Stable-Baselines3's ``make_vec_env``
asks for it (persian_rummy.rl._picture, docs/reinforcement-learning.md).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test.render_test import render_test  # noqa: E402

from persian_rummy import InvalidValueError, Rules, observe, parse_position  # noqa: E402
from persian_rummy.rl.gymnasium import PersianRummySoloEnv  # noqa: E402
from persian_rummy.rl.pettingzoo import PersianRummyEnv, env, parallel_env  # noqa: E402
from persian_rummy.rl.selfplay import PersianRummySelfPlayEnv  # noqa: E402
from persian_rummy.rl.vector import PersianRummyVectorEnv  # noqa: E402
from persian_rummy.views import determinize  # noqa: E402

#: The position of the module persian_rummy.pictures: East to play 9h, taken with Kc 4d; four melds.
POSITION = parse_position(
    "- 1/N play E 2d5d9dKdAs/Kc4d7d3h9hThJh2s/2c7cAc6d5h6s7s/8c9c3d8d2h4sKsX4 TcJcJd4h6h7h8hKhAh5s 3sTdAd "
    "S:QcQdQs+E:Qh,W:3c4c5c+N:6c,N:X1X2X3,E:8s9sTsJs 9h Kc4d9h -/Kc4d9h/-/- 0 - -"
)
SHAPE = (480, 640, 3)
FELT = (228, 238, 227)
TURN = (255, 244, 194)
BACK = (39, 71, 122)
WHITE = (255, 255, 255)
#: The top of each seat's row and the left of its first card.
ROWS = (30, 86, 142, 198)
FIRST_CARD = 44


def _draw(position: Any) -> Any:
    """
    The picture of *position* (imported here, so that the environments' tests run without the module).
    """
    from persian_rummy.rl._picture import picture  # noqa: PLC0415

    return picture(position)


def _digest(picture: Any) -> str:
    return hashlib.sha256(picture.tobytes()).hexdigest()[:16]


def _colour(picture: Any, y: int, x: int) -> tuple[int, ...]:
    return tuple(int(value) for value in picture[y, x])


class TestThePicture:
    """
    What the picture shows, pixel by pixel where it matters.
    """

    def test_its_shape_and_type(self) -> None:
        picture = _draw(POSITION)
        assert SHAPE == picture.shape
        assert np.uint8 == picture.dtype
        assert picture.flags.writeable
        assert picture.flags.c_contiguous

    def test_the_same_position_the_same_picture(self) -> None:
        assert "b3eafbf751d4a830" == _digest(_draw(POSITION))
        assert (_draw(POSITION) == _draw(POSITION)).all()

    def test_the_row_of_the_seat_to_act_is_marked(self) -> None:
        picture = _draw(POSITION)
        assert TURN == _colour(picture, ROWS[1] + 1, 600)  # East is to act: the end of its row, past its cards
        assert FELT == _colour(picture, ROWS[0] + 1, 600)
        assert FELT == _colour(picture, 0, 0)

    def test_a_state_shows_every_hand_face_up(self) -> None:
        picture = _draw(POSITION)
        for top in ROWS:  # the middle of the first card's face: white
            assert WHITE == _colour(picture, top + 5 + 30, FIRST_CARD + 6)

    def test_a_view_shows_the_hidden_cards_face_down(self) -> None:
        picture = _draw(observe(POSITION, 2))
        north, east, south, west = (_colour(picture, top + 5 + 30, FIRST_CARD + 6) for top in ROWS)
        assert (BACK, WHITE, WHITE, BACK) == (north, east, south, west)  # East's Kc is known to all (R15)
        assert BACK == _colour(picture, ROWS[1] + 5 + 30, FIRST_CARD + 3 * 32 + 6)  # its fourth card is not

    def test_a_view_shows_nothing_it_hides(self) -> None:
        """
        States that differ only in what the seat cannot see give one picture of its view.
        """
        view = observe(POSITION, 2)
        states = [determinize(view, random.Random(n)) for n in range(5)]  # noqa: S311 (reproducible, not secret)
        assert {_digest(_draw(view))} == {_digest(_draw(observe(state, 2))) for state in states}
        assert 5 == len({_digest(_draw(state)) for state in states})

    def test_two_states_two_pictures(self) -> None:
        game = PersianRummyEnv(render_mode="rgb_array")
        game.reset(seed=1)
        first = game.render()
        game.step(int(game.observe(game.agent_selection)["action_mask"].nonzero()[0][0]))
        second = game.render()
        game.reset(seed=2)
        third = game.render()
        assert 3 == len({_digest(first), _digest(second), _digest(third)})

    def test_every_deal_of_a_long_game_fits(self) -> None:
        """
        Big hands, long piles and many melds (the pile taken whole, R15) keep the picture's size.
        """
        game = PersianRummyEnv(Rules(top_discard_free=True), render_mode="rgb_array")
        game.reset(seed=4)
        choices = np.random.default_rng(4)
        shapes = set()
        for _ in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation or observation is None:
                game.step(None)
                continue
            game.step(int(choices.choice(observation["action_mask"].nonzero()[0])))
            shapes.add(game.render().shape)  # type: ignore[union-attr]
        assert {SHAPE} == shapes


class TestColours:
    """
    The picture in pixels is drawn in the colours of the SVG pictures (`persian_rummy.pictures`).
    """

    def test_the_svg_pictures_colours(self) -> None:
        from persian_rummy._internal import drawing  # noqa: PLC0415 (imported here, as the module is in _draw)
        from persian_rummy.rl import _picture  # noqa: PLC0415

        svg = [drawing.INK, drawing.MUTED, drawing.PENDING, *drawing.TEAM_COLOURS, drawing.BLACK, drawing.RED]
        pixels = [_picture._INK, _picture._MUTED, _picture._PENDING, *_picture._TEAMS, _picture._BLACK, _picture._RED]
        assert [_picture._rgb(colour) for colour in [*svg, drawing.JOKER]] == [*pixels, _picture._JOKER]


class TestEveryEnvironment:
    """
    Every environment takes ``render_mode="rgb_array"`` and declares it with its frame rate.
    """

    @pytest.mark.parametrize(
        "make",
        [
            lambda: PersianRummySoloEnv(render_mode="rgb_array"),
            lambda: PersianRummySelfPlayEnv(opponents="random", render_mode="rgb_array"),
            lambda: PersianRummyEnv(render_mode="rgb_array"),
            lambda: parallel_env(render_mode="rgb_array"),
        ],
    )
    def test_render_gives_the_picture(self, make: Any) -> None:
        environment = make()
        environment.reset(seed=3)
        picture = environment.render()
        assert (SHAPE, np.uint8) == (picture.shape, picture.dtype)
        assert ["ansi", "human", "rgb_array"] == environment.metadata["render_modes"]
        assert 4 == environment.metadata["render_fps"]

    def test_solo_draws_the_learners_view(self) -> None:
        solo = PersianRummySoloEnv(seat=1, render_mode="rgb_array")
        solo.reset(seed=3)
        view = observe(solo.game_state, 1)
        assert _digest(_draw(view)) == _digest(solo.render())

    def test_selfplay_draws_the_view_of_the_seat_to_act(self) -> None:
        selfplay = PersianRummySelfPlayEnv(opponents="random", render_mode="rgb_array")
        _, info = selfplay.reset(seed=3)
        view = observe(selfplay.game_state, info["seat"])
        assert _digest(_draw(view)) == _digest(selfplay.render())

    def test_pettingzoo_draws_the_whole_table(self) -> None:
        game = PersianRummyEnv(render_mode="rgb_array")
        game.reset(seed=3)
        assert _digest(_draw(game.game_state)) == _digest(game.render())

    def test_stable_baselines3s_make_vec_env_way(self) -> None:
        """
        Stable-Baselines3's ``make_vec_env`` makes each environment with ``render_mode="rgb_array"``.
        """
        cases: list[tuple[str, dict[str, Any]]] = [("persian_rummy/SelfPlay-v0", {"opponents": "random"})]
        for name, settings in [*cases, ("persian_rummy/Solo-v0", {})]:
            made = gymnasium.make(name, render_mode="rgb_array", **settings)
            made.reset(seed=0)
            assert SHAPE == made.render().shape  # type: ignore[union-attr]

    def test_gymnasiums_frame_collection(self) -> None:
        made = gymnasium.make("persian_rummy/Solo-v0", render_mode="rgb_array_list", players="random")
        made.reset(seed=0)
        made.step(int(made.unwrapped.action_masks().nonzero()[0][0]))  # type: ignore[attr-defined]
        frames = made.render()
        assert [SHAPE, SHAPE] == [frame.shape for frame in frames]  # type: ignore[union-attr]

    @pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
    def test_vector_environments(self, mode: str) -> None:
        envs = gymnasium.make_vec("persian_rummy/Solo-v0", 3, vectorization_mode=mode, render_mode="rgb_array")
        envs.reset(seed=5)
        frames = envs.render()
        assert frames is not None
        assert [SHAPE] * 3 == [frame.shape for frame in frames]  # type: ignore[union-attr]
        assert 3 == len({_digest(frame) for frame in frames})
        envs.close()

    def test_the_native_vector_renders_text_too(self) -> None:
        envs = PersianRummyVectorEnv(2, render_mode="ansi")
        envs.reset(seed=5)
        texts = envs.render()
        assert texts is not None
        assert [True, True] == [str(text).startswith("Persian Rummy, deal 1 of 2") for text in texts]
        assert ["ansi", "rgb_array"] == envs.metadata["render_modes"]

    @pytest.mark.parametrize("mode", ["human", "rgb"])
    def test_the_native_vector_refuses_other_modes(self, mode: str) -> None:
        with pytest.raises(InvalidValueError, match="render_mode must be one of 'ansi', 'rgb_array', got"):
            PersianRummyVectorEnv(2, render_mode=mode)

    def test_the_native_vector_without_a_mode(self) -> None:
        envs = PersianRummyVectorEnv(2)
        envs.reset(seed=5)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert envs.render() is None


class TestTheToolkitsChecks:
    """
    Gymnasium's and PettingZoo's own checks pass with the render mode set (they try every declared mode).
    """

    @pytest.mark.parametrize(
        ("name", "settings"),
        [
            ("persian_rummy/Solo-v0", {"players": "random"}),
            ("persian_rummy/SelfPlay-v0", {"opponents": "random"}),
        ],
    )
    def test_check_env(self, name: str, settings: dict[str, Any]) -> None:
        check_env(gymnasium.make(name, render_mode="rgb_array", **settings).unwrapped)

    def test_render_test(self, capsys: pytest.CaptureFixture[str]) -> None:
        render_test(env)  # type: ignore[arg-type]  # typed for Gymnasium's environments
        assert 17 == capsys.readouterr().out.count("Persian Rummy, deal 1 of 2")

    def test_render_test_checks_the_picture(self, capsys: pytest.CaptureFixture[str]) -> None:
        shapes: list[tuple[int, ...]] = []

        def kept(picture: Any) -> bool:
            shapes.append(picture.shape)
            return True

        render_test(env, {"rgb_array": kept})  # type: ignore[arg-type]  # typed for Gymnasium's environments
        assert [SHAPE] * 5 == shapes
        capsys.readouterr()
