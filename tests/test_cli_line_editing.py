"""
The line mode of ``persian-rummy play --plain`` in a real terminal, a tmux pane: ← and → edit the
answer being typed and ↑ recalls the previous one, as `readline` does (docs/play.md).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import persian_rummy

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the line editing is tested in a tmux pane")

SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
CHILD = "import sys\nfrom persian_rummy.cli import main\nsys.exit(main(sys.argv[1:]))\n"
PROMPT = "Your move ("


class Pane:
    """
    A tmux server of its own, with one pane of 120×40 running a command.
    """

    def __init__(self, socket: Path, command: list[str]) -> None:
        self.socket = socket
        env = {**os.environ, "PYTHONPATH": str(SRC), "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"}
        env.pop("NO_COLOR", None)
        self.tmux(
            "new-session", "-d", "-x", "120", "-y", "40", "-s", "play", f"{shlex.join(command)}; sleep 60", env=env
        )

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(  # noqa: S603 (tmux, found on the path)
            [TMUX or "tmux", "-S", str(self.socket), *args], capture_output=True, check=True, text=True, env=env
        )
        return done.stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "play")

    def wait_for(self, what: str, count: int = 1) -> str:
        deadline = time.monotonic() + 120  # only a text that never appears fails, whatever the machine's load
        while time.monotonic() < deadline:
            text = self.text()
            if text.count(what) >= count:
                return text
            time.sleep(0.1)
        pytest.fail(f"{what!r} did not appear {count} times in the pane:\n{self.text()}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "play", *keys)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-S", str(self.socket), "kill-server"], check=False, capture_output=True)  # noqa: S603


def test_left_and_right_edit_and_up_recalls(tmp_path: Path) -> None:
    command = [sys.executable, "-c", CHILD, "play", "--plain", "--seed", "3", "--partner", "random"]
    pane = Pane(tmp_path / "tmux", [*command, "--opponents", "random"])
    try:
        pane.wait_for(PROMPT)
        pane.keys("-l", "daw")
        pane.keys("Left", "Left")
        pane.keys("-l", "r")
        pane.keys("Enter")  # "draw": the r typed between d and a
        pane.wait_for("You draw from the stock")
        pane.wait_for(PROMPT, 2)
        pane.keys("Up")  # the answer before
        pane.keys("Enter")
        text = pane.wait_for("have drawn already")
    finally:
        pane.close()
    answers = [line.partition("): ")[2] for line in text.splitlines() if line.startswith(PROMPT)]
    assert ["draw", "draw"] == answers[:2]
    assert "You have drawn already. (R13: " in text
    assert "\x1b" not in "".join(answers)
