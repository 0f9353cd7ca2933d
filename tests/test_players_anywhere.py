"""
Players from anywhere (issue 20): ``module:attribute[:arguments]``, the entry points of the group
``persian_rummy.players``, and ``persian-rummy players`` (persian_rummy.bots._loading, docs/players.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from persian_rummy import InvalidValueError
from persian_rummy.bots import _loading
from persian_rummy.bots.players import GreedyPlayer, PIMCPlayer, make_player
from persian_rummy.cli import main
from persian_rummy.matches import MatchResult

#: A bot author's module: a class, a factory, something that is not a player, and a class that fails.
MYBOTS = """
from persian_rummy.bots.players import GreedyPlayer


class Cautious:
    def __init__(self, depth=1, name="cautious"):
        self.depth = depth
        self.name = name
        self._inner = GreedyPlayer()

    def choose(self, view, rng):
        return self._inner.choose(view, rng)


def quick():
    return Cautious(depth=0)


class NotAPlayer:
    pass


class Broken:
    def __init__(self):
        raise RuntimeError("no weights here")


ready = GreedyPlayer()
"""


@pytest.fixture
def mybots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """
    A directory holding ``mybots.py``, the current directory, its module forgotten afterwards.
    """
    (tmp_path / "mybots.py").write_text(MYBOTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [path for path in sys.path if path not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybots", raising=False)
    return tmp_path


class TestFromAModule:
    """
    Issue 20: "make_player and every command take module:attribute[:arguments] (a class or a
    factory) besides the ready names ... Errors name what could not be imported or built."
    """

    @pytest.mark.usefixtures("mybots")
    def test_the_match_command_runs_a_players_own_module(self, tmp_path: Path) -> None:
        out = tmp_path / "result.json"
        assert 0 == main(["match", "mybots:Cautious", "greedy", "--games", "40", "--out", str(out), "--no-times"])
        result = MatchResult.from_json(out.read_text(encoding="utf-8"))
        assert ("mybots:Cautious", "greedy") == result.names
        assert 40 == result.summary.games

    def test_a_class_with_arguments(self, mybots: Path) -> None:
        sys.path.append(str(mybots))
        player = make_player("mybots:Cautious:3,name='bold'")
        assert ("Cautious", 3, "bold") == (type(player).__name__, player.depth, player.name)  # type: ignore[attr-defined]

    def test_a_factory_and_a_ready_value(self, mybots: Path) -> None:
        sys.path.append(str(mybots))
        assert 0 == make_player("mybots:quick").depth  # type: ignore[attr-defined]
        assert GreedyPlayer() == make_player("mybots:ready")

    def test_a_dotted_attribute(self) -> None:
        assert GreedyPlayer() == make_player("persian_rummy.bots:players.GreedyPlayer")
        assert PIMCPlayer(rollouts=8) == make_player("persian_rummy.bots.players:PIMCPlayer:rollouts=8")

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ("nobots:X", "'nobots:X': the module 'nobots' could not be imported: ModuleNotFoundError"),
            ("mybots:Nope", "'mybots:Nope': the module 'mybots' has no attribute 'Nope'"),
            ("mybots:NotAPlayer", "'mybots:NotAPlayer' built <mybots.NotAPlayer object at"),
            ("mybots:Cautious", None),
            ("mybots:Broken", "'mybots:Broken': building the player failed: RuntimeError: no weights here"),
            ("mybots:Cautious:depth=2,3", "'mybots:Cautious:depth=2,3': the argument '3' comes after a name=value"),
            ("mybots:Cautious:depth=1,depth=2", "'depth' is not an argument's name, or is given twice"),
            ("mybots:Cautious:color=1", "building the player failed: TypeError:"),
            ("mybots:ready:1", "building the player failed: TypeError:"),
            ("mybots:", "a player from a module is named module:attribute, got 'mybots:'"),
            ("my-bots:X", "a player from a module is named module:attribute, got 'my-bots:X'"),
            (
                "nobody",
                (
                    "no player is called 'nobody'; the players are greedy, ismcts, learned, pimc, random,"
                    " or module:attribute"
                ),
            ),
        ],
    )
    def test_errors_name_what_failed(self, mybots: Path, spec: str, message: str | None) -> None:
        sys.path.append(str(mybots))
        if message is None:
            make_player(spec)
            return
        with pytest.raises(InvalidValueError) as raised:
            make_player(spec)
        assert message in str(raised.value)

    def test_the_import_error_is_chained(self, mybots: Path) -> None:
        sys.path.append(str(mybots))
        with pytest.raises(InvalidValueError) as raised:
            make_player("mybots:Broken")
        assert RuntimeError is type(raised.value.__cause__)

    @pytest.mark.usefixtures("mybots")
    def test_the_command_names_a_module_it_cannot_import(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_info:
            main(["match", "nobots:X", "greedy", "--games", "2"])
        assert 2 == exit_info.value.code  # a wrong command line
        assert (
            capsys.readouterr()
            .err.splitlines()[-1]
            .startswith(
                "persian-rummy match: error: argument FIRST: 'nobots:X': the module 'nobots' could not be imported"
            )
        )


class TestArguments:
    """
    The arguments after the second colon: values and name=value pairs, each a Python literal or else text.
    """

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("", ((), {})),
            ("3", ((3,), {})),
            ("3, 0.5,x", ((3, 0.5, "x"), {})),
            ("a=True, b=None, c='t', d=[1]", ((), {"a": True, "b": None, "c": "t", "d": [1]})),
        ],
    )
    def test_read(self, text: str, expected: tuple[tuple[object, ...], dict[str, object]]) -> None:
        assert expected == _loading.arguments(text)


def _distribution(root: Path, points: str) -> None:
    info = root / "mybots_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots-dist\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[persian_rummy.players]\n{points}", encoding="utf-8")


class TestEntryPoints:
    """
    Issue 20: "installed packages can register players by entry point (persian_rummy.players group);
    persian-rummy players lists what is available."
    """

    def test_a_registered_player_by_its_name(self, mybots: Path) -> None:
        _distribution(mybots, "cautious = mybots:Cautious\n")
        sys.path.append(str(mybots))
        assert {"cautious": "mybots:Cautious"} == _loading.entry_points()
        player = make_player("cautious:depth=4")
        assert ("Cautious", 4) == (type(player).__name__, player.depth)  # type: ignore[attr-defined]

    def test_players_lists_the_ready_and_the_registered(self, mybots: Path, capsys: pytest.CaptureFixture[str]) -> None:
        _distribution(mybots, "cautious = mybots:Cautious\ngreedy = mybots:quick\n")
        sys.path.append(str(mybots))
        assert 0 == main(["players"])
        assert [
            "greedy    ready: GreedyPlayer",
            "ismcts    ready: ISMCTSPlayer",
            "learned   ready: LearnedPlayer",
            "pimc      ready: PIMCPlayer",
            "random    ready: RandomPlayer",
            "cautious  entry point: mybots:Cautious",
            "greedy    entry point: mybots:quick (hidden by the ready player)",
            "and module:attribute[:arguments], a class or a factory of players in an importable module",
        ] == capsys.readouterr().out.splitlines()

    def test_a_ready_name_wins_over_a_registered_one(self, mybots: Path) -> None:
        _distribution(mybots, "greedy = mybots:quick\n")
        sys.path.append(str(mybots))
        assert GreedyPlayer() == make_player("greedy")
