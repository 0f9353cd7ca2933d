"""
The ``persian-rummy`` command: ``demo --seed N`` plays and prints one game between random players.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from persian_rummy import GameRecord, Phase, apply, legal_actions, new_game, outcome, random_deal, to_json
from persian_rummy.cli import demo, describe, main
from persian_rummy.pictures import card_legend


def _played(seed: int) -> tuple[int, list[int]]:
    """
    The same game as ``demo(seed)``: the number of player actions per deal and the outcome's scores.
    """
    rng = random.Random(seed)  # noqa: S311
    state = new_game()
    per_deal: list[int] = []
    while state.phase is not Phase.GAME_OVER:
        if state.is_chance_node:
            state = apply(state, random_deal(state, rng))
            per_deal.append(0)
            continue
        state = apply(state, rng.choice(legal_actions(state)))
        per_deal[-1] += 1
    result = outcome(state)
    assert result is not None
    return result.scores[0], per_deal


class TestDemo:
    """
    ``persian-rummy demo --seed N`` "plays one complete game between four players who choose uniformly
    among their legal actions, and prints every action, the table at the end of each deal, each deal's
    score and the winner" (the `persian_rummy.cli` docstring); `describe` tells each kind of action.
    """

    def test_demo_prints_every_action_the_tables_the_scores_and_the_winner(self) -> None:
        out = io.StringIO()
        final = demo(1, out)
        text = out.getvalue()
        lines = text.splitlines()
        ns, per_deal = _played(1)
        assert "Persian Rummy, random players, seed 1" == lines[0]
        assert 2 == sum(line.startswith("Table:") for line in lines)
        assert 1 == sum(line.startswith("Deal 1 is over: ") for line in lines)
        assert 1 == sum(line.startswith("The game is over: E-W win, 146 to 119 (deal 2: ") for line in lines)
        assert 2 == text.count("Score of deal")
        numbered = [line for line in lines if line.startswith("  ") and line.strip().split(".")[0].isdigit()]
        assert sum(per_deal) == len(numbered)
        assert final.scores[0] == ns
        assert final.phase is Phase.GAME_OVER
        assert "E-W win, 146 to 119." == lines[-1]

    def test_demo_explains_the_cards_once_as_it_writes_them(self) -> None:
        """
        R2: the cards are written with their suit symbols, or in card notation where the output
        cannot show the symbols; either way the legend says so once, before the first deal.
        """
        for symbols, written, other in ((True, "10♦", "Td"), (False, "Td", "10♦")):
            out = io.StringIO()
            demo(1, out, symbols=symbols)
            lines = out.getvalue().splitlines()
            assert [card_legend(symbols=symbols)] == [line for line in lines if line.startswith("Cards: ")]
            assert lines.index(card_legend(symbols=symbols)) < lines.index("Deal 1, dealt by N")
            assert [] == [line for line in lines[3:] if other in line.split() or f"{other}," in line.split()]
            assert any(written in line.split() for line in lines[8:])

    def test_main_runs_demo(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["demo", "--seed", "2"])
        printed = capsys.readouterr().out
        assert printed.startswith("Persian Rummy, random players, seed 2\n")
        assert printed.rstrip().endswith(".")

    def test_describe_every_kind_of_action(self) -> None:
        rng = random.Random(11)  # noqa: S311
        state = new_game()
        seen: dict[str, str] = {}
        while state.phase is not Phase.GAME_OVER and len(seen) < 7:
            action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
            seen.setdefault(type(action).__name__, describe(state, action))
            state = apply(state, action)
        assert {"Deal", "DrawStock", "Discard", "LayDown", "TakeDiscard", "LayOff", "Pass"} <= set(seen)
        assert seen["Deal"].endswith(" deals")
        assert seen["DrawStock"].endswith(" draws from the stock")
        assert " takes " in seen["TakeDiscard"]
        assert " lays down " in seen["LayDown"]
        assert " lays off " in seen["LayOff"]
        assert " onto meld " in seen["LayOff"]
        assert seen["Pass"].endswith(" passes")


class TestProgram:
    """
    The ``persian-rummy`` program needs a command; ``python -m persian_rummy`` runs it too, and a reader
    that stops reading its output early is no error.
    """

    def test_main_needs_a_command(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as info:
            main([])
        assert 2 == info.value.code
        assert "persian-rummy" in capsys.readouterr().err

    def test_module_entry_point(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "persian_rummy", "demo", "--seed", "1"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout.splitlines()[-1] == "E-W win, 146 to 119."

    def test_a_reader_that_stops_early_is_no_error(self) -> None:
        with subprocess.Popen(
            [sys.executable, "-m", "persian_rummy", "demo", "--seed", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        ) as process:
            assert process.stdout is not None
            assert process.stderr is not None
            first = process.stdout.readline()
            process.stdout.close()
            errors = process.stderr.read()
            code = process.wait()
        assert "Persian Rummy, random players, seed 1\n" == first
        assert (0, "") == (code, errors)

    def test_an_interrupt_exits_with_status_130_quietly(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", _Interrupting())
        assert 130 == main(["show", "-"])
        assert ("", "") == capsys.readouterr()

    def test_a_wrong_command_line_is_quoted_escaped(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as info:
            main(["demo", "\x1b[31m", "\u2028"])
        assert 2 == info.value.code
        assert (
            "persian-rummy: error: unrecognized arguments: \\x1b[31m \\u2028"
            == capsys.readouterr().err.splitlines()[-1]
        )

    def test_output_in_an_encoding_that_lacks_a_character_escapes_it(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        path = tmp_path / "game.json"
        path.write_text(to_json(GameRecord(players=("Zoë", "Ana", "Bo", "Cy"), date="1\x1b")), encoding="utf-8")
        out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
        monkeypatch.setattr(sys, "stdout", out)
        assert 0 == main(["replay", str(path)])
        out.flush()
        written = out.buffer.getvalue().splitlines()
        assert [b"Players: N Zo\\xeb, E Ana, S Bo, W Cy", b"Date: 1\\x1b"] == written[1:3]


class _Interrupting(io.StringIO):
    """
    Standard input at which the user presses Ctrl-C.
    """

    def read(self, _size: int | None = -1, /) -> str:
        raise KeyboardInterrupt
