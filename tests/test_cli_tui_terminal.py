"""
The full-screen ``persian-rummy play`` in a real pseudo-terminal of 80×24 (docs/play.md): a
refused answer leaves the line empty for the next, Ctrl+Q asks before it stops the game, and
the final score stays on the terminal once the screen has closed.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pexpect
import pytest

pytest.importorskip("textual", reason="the full screen needs textual (the cli extra)")

from attrs import evolve

from persian_rummy import GameRecord, to_json
from persian_rummy.cli import _game, _screen
from tests.test_cli_play import CHILD, _environment

#: Escape sequences a terminal acts on (CSI), and the others Textual writes (OSC, character sets, keypad).
ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
#: The full screen left: the alternate screen of the terminal closed.
LEFT = "\x1b[?1049l"


def _spawn(*args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-c", CHILD, "play", "--delay", "0", *args],
        env=_environment(),
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=120,  # only a screen that never comes fails
    )


class Screen:
    """
    What the child wrote, as text without the escape sequences.
    """

    def __init__(self, child: pexpect.spawn[str]) -> None:
        self.child = child
        self.raw = io.StringIO()
        child.logfile_read = self.raw

    def text(self) -> str:
        return ESCAPES.sub("", self.raw.getvalue())

    def wait_for(self, words: str) -> None:
        """
        Read until *words* are on the screen (escape sequences left out), or the deadline.
        """
        while words not in self.text():
            if self.child.expect([r".+", pexpect.TIMEOUT, pexpect.EOF], timeout=120):
                pytest.fail(f"{words!r} never came: {self.text()[-2000:]!r}")


@pytest.mark.once
class TestInATerminal:
    """
    "A person plays a whole game in the terminal against the bots", on the full screen.
    """

    def test_a_refused_answer_leaves_the_line_empty(self) -> None:
        child = _spawn("--seed", "1")
        screen = Screen(child)
        try:
            screen.wait_for("Enter: draw from the stock")
            child.send("meld 2c3c4c\r")
            screen.wait_for("You must draw before laying down a meld.")
            child.send("draw\r")  # read as "draw" alone: the line was emptied
            screen.wait_for("You draw from the stock")
            assert "Not a move" not in screen.text()
        finally:
            child.terminate(force=True)

    def test_ctrl_q_asks_then_stops(self) -> None:
        child = _spawn("--seed", "1")
        screen = Screen(child)
        screen.wait_for("Enter: draw from the stock")
        child.send("\x11")
        screen.wait_for("Stop the game?")
        screen.wait_for("--record FILE")
        child.send("n")
        child.send("draw\r")  # the game goes on
        screen.wait_for("You draw from the stock")
        child.send("\x11\x11")
        child.expect(pexpect.EOF)
        child.close()
        assert 0 == child.exitstatus
        after = ESCAPES.sub("", screen.raw.getvalue().rpartition(LEFT)[2])
        assert "You stopped the game in deal 1" in after

    def test_the_final_score_stays_on_the_terminal(self, tmp_path: Path) -> None:
        path = tmp_path / "game.json"
        path.write_text(to_json(_near_the_end(seed=1), pretty=True), encoding="utf-8")
        child = _spawn("--resume", str(path))
        screen = Screen(child)
        screen.wait_for("Enter: ")
        child.send("1\r")
        screen.wait_for("The game is over")
        child.send("\r")
        child.expect_exact("Play again, with new deals (not recorded)? [y/N] ")
        child.send("n\r")
        child.expect(pexpect.EOF)
        child.close()
        assert 0 == child.exitstatus
        after = ESCAPES.sub("", screen.raw.getvalue().rpartition(LEFT)[2]).replace("\r\n", "\n")
        table = _game.Table(_game.Options(2, seed=1))
        _play_out(table)
        view = table.view()
        expected = _screen.plain([*_screen.score_lines(view, 1), (), *_screen.score_lines(view), ()])
        assert expected in after
        assert _screen.plain([_screen.result_line(view)]) in after

    def test_line_by_line_offers_another_game(self, tmp_path: Path) -> None:
        """
        ``--plain`` in a terminal: once the game is over, another is offered; "y" deals a new game.
        """
        path = tmp_path / "game.json"
        path.write_text(to_json(_near_the_end(seed=1), pretty=True), encoding="utf-8")
        child = _spawn("--plain", "--resume", str(path))
        screen = Screen(child)
        screen.wait_for("? for help): ")
        child.send("1\r")
        child.expect_exact("Play again, with new deals (not recorded)? [y/N] ")
        table = _game.Table(_game.Options(2, seed=1))
        _play_out(table)
        assert _screen.plain([_screen.result_line(table.view())]) in screen.text().replace("\r\n", "\n")
        child.send("y\r")
        child.expect_exact("Deal 1 of 2")  # the new game's first deal
        child.expect_exact("? for help): ")
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        assert 1 == child.exitstatus  # the new game stopped by the end of input, as the line mode says


def _play_out(table: _game.Table) -> None:
    """
    Play *table*'s game to its end, the person choosing their first move each time.
    """
    while not table.over:
        if table.deal_over:
            table.next_deal()
            table.advance()
        elif table.persons_turn:
            table.play(table.moves()[0])
        else:
            table.advance()


def _near_the_end(seed: int) -> GameRecord:
    """
    The record of the game of *seed*, the person choosing their first move each time, up to the
    person's last move.
    """
    table = _game.Table(_game.Options(2, seed=seed))
    _play_out(table)
    record = table.record()
    last = max(number for number, action in enumerate(record.actions) if action.seat == 2 and action.noun != "deal")
    return evolve(record, actions=record.actions[:last])
