"""
The edges of ``persian-rummy play`` (docs/play.md): budgets that would never end, input that is
no answer (NUL bytes, endless lines, garbage), a game stopped and resumed from its record, empty
paths, and the line mode's wording of its answers (R13, R15).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import persian_rummy
from persian_rummy import Deal, GameRecord, Phase, from_json, legal_actions, to_json
from persian_rummy.cli import _game, _screen, main
from persian_rummy.records import final_state
from persian_rummy.wording import rules_line

SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
BOTS = ("--partner", "random", "--opponents", "random")


def _record(path: Path) -> GameRecord:
    return from_json(path.read_text(encoding="utf-8"), GameRecord)


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert 2 == info.value.code
    return capsys.readouterr().err.splitlines()[-1]


class TestBudgets:
    """
    A bot's budget above 60 seconds or 100,000 rollouts or iterations per decision is a wrong command line.
    """

    @pytest.mark.parametrize("bot", ["pimc:1e9s", "ismcts:99999999999999999999999", "pimc:100001", "ismcts:60.5s"])
    def test_refused(self, bot: str, capsys: pytest.CaptureFixture[str]) -> None:
        error = f"argument --partner: a budget of at most 60 seconds or 100,000 per decision, got {bot!r}"
        assert f"persian-rummy play: error: {error}" == _usage_error(["play", "--partner", bot], capsys)

    @pytest.mark.parametrize("bot", ["pimc:60s", "ismcts:100000", "pimc:100000", "random"])
    def test_at_the_ceiling(self, bot: str) -> None:
        assert bot == persian_rummy.cli._play_command.bot_argument(bot)


class TestPaths:
    """
    An empty path names no file: it is named as such, never as standard output.
    """

    @pytest.mark.parametrize("option", ["--record", "--resume"])
    def test_play(self, option: str, capsys: pytest.CaptureFixture[str]) -> None:
        error = f"persian-rummy play: error: argument {option}: '' is an empty path, which names no file"
        assert error == _usage_error(["play", option, ""], capsys)

    def test_demo(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 1 == main(["demo", "--record", ""])
        assert ("", "persian-rummy: '' (an empty path): an empty path names no file\n") == capsys.readouterr()


class TestInputThatIsNoAnswer:
    """
    Input that no person typed ends the game with status 1 and one line saying why, the record so far kept.
    """

    @pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
    def test_an_endless_stream_of_nul_bytes(self, tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        env = {**os.environ, "PYTHONPATH": str(SRC)}
        code = "import sys\nfrom persian_rummy.cli import main\nsys.exit(main(sys.argv[1:]))"
        with Path("/dev/zero").open("rb") as zero:
            done = subprocess.run(  # noqa: S603
                [sys.executable, "-c", code, "play", "--seed", "3", *BOTS, "--record", str(path)],
                stdin=zero,
                capture_output=True,
                text=True,
                env=env,
                timeout=60,
                check=False,
            )
        line = "persian-rummy: <stdin>: a line of more than 1,000,000 characters is not an answer\n"
        assert (1, line) == (done.returncode, done.stderr)
        assert 3 == len(from_json(path.read_text(encoding="utf-8"), GameRecord).actions)

    def test_answers_that_are_never_moves(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("y\n" * 1000))
        assert 1 == main(["play", "--seed", "3", *BOTS])
        out, err = capsys.readouterr()
        assert "persian-rummy: <stdin>: 100 answers in a row that are not moves\n" == err
        assert 99 == out.count("Not a move: ")

    def test_a_nul_byte_is_shown_escaped(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("\x00\nquit\n"))
        assert 0 == main(["play", "--seed", "3", *BOTS])
        out = capsys.readouterr().out
        assert "Not a move: not a seat: '\\x00' in '\\x00' (expected N, E, S or W)\n" in out


class TestResume:
    """
    ``--resume FILE`` plays on from the record of a game stopped before its end, recording to FILE.
    """

    def test_a_game_stopped_and_played_on(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        path = tmp_path / "game.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 6 + "quit\n"))
        assert 0 == main(["play", "--seed", "3", "--seat", "W", *BOTS, "--record", str(path)])
        first = from_json(path.read_text(encoding="utf-8"), GameRecord)
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--resume", str(path)])
        whole = from_json(path.read_text(encoding="utf-8"), GameRecord)
        assert first.actions == whole.actions[: len(first.actions)]
        assert (("random", "random", "random", "person"), "persian-rummy play, seed 3") == (whole.players, whole.event)
        assert Phase.GAME_OVER is final_state(whole).phase

    def test_the_same_game_as_one_not_stopped(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """
        The deals to come are the seed's: a game resumed deals the cards of one played through.
        """
        whole, parts = tmp_path / "whole.json", tmp_path / "parts.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--seed", "8", *BOTS, "--record", str(whole)])
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 30))
        assert 1 == main(["play", "--seed", "8", *BOTS, "--record", str(parts)])
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--resume", str(parts)])
        decks = [
            [
                action.deck
                for action in from_json(path.read_text(encoding="utf-8"), GameRecord).actions
                if isinstance(action, Deal)
            ]
            for path in (whole, parts)
        ]
        assert (2, decks[0]) == (len(decks[0]), decks[1])

    def test_a_record_not_of_play(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "demo.json"
        path.write_text(to_json(GameRecord()), encoding="utf-8")
        assert 1 == main(["play", "--resume", str(path)])
        assert f"persian-rummy: {str(path)!r} is not the record of a game of persian-rummy play\n" == (
            capsys.readouterr().err
        )

    def test_a_game_over(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert 0 == main(["play", "--seed", "3", *BOTS, "--record", str(path)])
        capsys.readouterr()
        assert 1 == main(["play", "--resume", str(path)])
        error = f"persian-rummy: the game of {str(path)!r} is over: there is nothing to play on\n"
        assert error == capsys.readouterr().err


class TestWording:
    """
    The slips of the answers' wording: one move is "type 1", a deal is never offered, a draw is
    asked for while the stock has cards (R13), and the moves follow the hand's order.
    """

    def _table(self) -> _game.Table:
        table = _game.Table(_game.Options(2, "random", "random", 3, _screen.Look()))
        while not table.persons_turn:
            table.advance()
        return table

    def test_before_the_draw(self) -> None:
        table = self._table()
        moves = table.moves()
        assert f"You must draw before discarding. {rules_line(['R13'])}" == _game.read_move(
            "discard 9c", table.state, moves
        )
        expected = "Not a move: the dealer deals, not you: type draw, take, meld, lay, discard or pass (R7)"
        assert [expected] * 2 == [_game.read_move(text, table.state, moves) for text in ("deal", "S Deal 2c3c")]

    def test_moves_by_rank_after_sort(self) -> None:
        table = self._table()
        table.play(table.moves()[0])
        by_suit = table.moves()
        table.sort()
        by_rank = table.moves()
        view = table.view()
        ranks = _screen.move_lines(by_rank, view, table.look)
        assert sorted(by_suit, key=repr) == sorted(by_rank, key=repr)
        assert by_rank != by_suit
        assert list(legal_actions(view)) == by_suit
        assert "  discard 1) 3♥   2) 4♥   3) 7♦   4) 7♠   5) 8♥   6) 9♣   7) 9♠   8) 🃏1\n" == _screen.plain(ranks)
