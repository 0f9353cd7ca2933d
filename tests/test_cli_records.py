"""
The ``persian-rummy`` command and game records: ``demo --record``, ``replay`` and ``show``.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from persian_rummy import (
    FULL_DECK,
    Action,
    Deal,
    DrawStock,
    GameRecord,
    Phase,
    Rules,
    apply,
    format_position,
    from_json,
    new_game,
    parse_position,
    replay,
    to_json,
)
from persian_rummy import limits as _limits
from persian_rummy.cli import demo, main, show
from persian_rummy.pictures import card_legend, render_text
from persian_rummy.records import final_state

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

DATA = Path(__file__).parent / "data"

#: A position of the second deal of the golden game ``went_out``: E has just taken Kd with
#: three cards above it (X2 3c Ks) and must play it; S took Td and Ah earlier in the deal.
POSITION = (
    "- 2/E play E JcQc2dAdThQs/3cJdKd4hJhKhKsX2/AcTd8hAh6sX3/Qd9h2s4s8s9sJs "
    "9dTc8d2c2h6c4cQh3sX17hAs7d3d3h7s6h6d4dX4KcTs - E:7c8c9c,S:5c5d5h+N:5s Kd 3cKdKsX2 "
    "-/3cKdKsX2/TdAh/- 0 - 115.0.0.29:277.0.25.55:E"
)
#: What ``persian-rummy show POSITION`` prints where the output can show the card symbols, and in ASCII.
SHOWN = [
    "Rules: Persian Rummy",
    "Deal 2 of 2, dealt by E",
    "E to lay down, lay off, then discard",
    "E must play K♦ now, taken from the discard pile with 3♣ K♠ 🃏2 (R15)",
    "Score: N-S 86, E-W 247 (after deal 1)",
    "",
    "Hands:",
    "  N  6 cards: J♣ Q♣ 2♦ A♦ 10♥ Q♠",
    "  E  8 cards: 3♣ J♦ K♦ 4♥ J♥ K♥ K♠ 🃏2 (known to all: 3♣ K♦ K♠ 🃏2)",
    "  S  6 cards: A♣ 10♦ 8♥ A♥ 6♠ 🃏3 (known to all: 10♦ A♥)",
    "  W  7 cards: Q♦ 9♥ 2♠ 4♠ 8♠ 9♠ J♠",
    "",
    "Table:",
    "   1  7♣ 8♣ 9♣     run laid down by E",
    "   2  5♣ 5♦ 5♥ 5♠  set laid down by S; 5♠ laid off by N",
    "Discard pile: empty",
    "Stock: 22 cards, next first: 9♦ 10♣ 8♦ 2♣ 2♥ 6♣ 4♣ Q♥ 3♠ 🃏1 7♥ A♠ 7♦ 3♦ 3♥ 7♠ 6♥ 6♦ 4♦ 🃏4 K♣ 10♠",
    "",
    "Cards: 10♦ = ten of diamonds, Q♠ = queen of spades, 🃏1 to 🃏4 = jokers; [ ] = top of the discard pile",
]
SHOWN_ASCII = [
    "Rules: Persian Rummy",
    "Deal 2 of 2, dealt by E",
    "E to lay down, lay off, then discard",
    "E must play Kd now, taken from the discard pile with 3c Ks X2 (R15)",
    "Score: N-S 86, E-W 247 (after deal 1)",
    "",
    "Hands:",
    "  N  6 cards: Jc Qc 2d Ad Th Qs",
    "  E  8 cards: 3c Jd Kd 4h Jh Kh Ks X2 (known to all: 3c Kd Ks X2)",
    "  S  6 cards: Ac Td 8h Ah 6s X3 (known to all: Td Ah)",
    "  W  7 cards: Qd 9h 2s 4s 8s 9s Js",
    "",
    "Table:",
    "   1  7c 8c 9c     run laid down by E",
    "   2  5c 5d 5h 5s  set laid down by S; 5s laid off by N",
    "Discard pile: empty",
    "Stock: 22 cards, next first: 9d Tc 8d 2c 2h 6c 4c Qh 3s X1 7h As 7d 3d 3h 7s 6h 6d 4d X4 Kc Ts",
    "",
    (
        "Cards: Td = ten of diamonds, Qs = queen of spades, Ac = ace of clubs, X1 to X4 = jokers;"
        " [ ] = top of the discard pile"
    ),
]
#: How a printed game explains its cards and words, once, before the first deal.
EXPLAINED = [
    "Cards: 10♦ = ten of diamonds, Q♠ = queen of spades, 🃏1 to 🃏4 = jokers; [ ] = top of the discard pile",
    "Terms: the stock is the face-down pile the players draw from; the discard pile lies face up, started",
    "by the upcard, and a player may take any card of it with all the cards above, but must then play",
    "that card at once (R15); a meld is a set (3 or 4 cards of one rank) or a run (3 or more cards in",
    "sequence in one suit) laid down on the table; to lay off is to add cards to a meld on the table.",
]


def _from_first_deal(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("Deal 1, dealt by N") :]


def _write(path: Path, record: GameRecord) -> str:
    path.write_text(to_json(record, pretty=True) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def demo_3() -> str:
    """
    What ``persian-rummy demo --seed 3`` prints where the output can show the card symbols.
    """
    out = io.StringIO()
    demo(3, out, symbols=True)
    return out.getvalue()


class TestDemoRecord:
    """
    ``persian-rummy demo --seed N --record FILE``: "with ``--record`` it also writes the game record as
    JSON" (the `persian_rummy.cli` docstring), the record of the very game it prints (docs/records.md).
    """

    def test_demo_writes_the_record_of_the_game_it_prints(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], demo_3: str
    ) -> None:
        path = tmp_path / "game.json"
        assert 0 == main(["demo", "--seed", "3", "--record", str(path)])
        printed = capsys.readouterr()
        assert demo_3 == printed.out
        assert "" == printed.err
        text = path.read_text(encoding="utf-8")
        record = from_json(text, GameRecord)
        assert to_json(record, pretty=True) + "\n" == text
        assert Rules() == record.rules
        assert 0 == record.first_dealer
        assert None is record.players
        assert None is record.date
        assert "persian-rummy demo, seed 3" == record.event
        state = final_state(record)
        assert demo(3, io.StringIO()) == state
        assert Phase.GAME_OVER is state.phase
        assert (102, 146) == state.scores
        assert "E-W win, 146 to 102." == demo_3.splitlines()[-1]
        numbered = [line for line in demo_3.splitlines() if re.match(r" +[0-9]+\. ", line)]
        assert sum(not isinstance(action, Deal) for action in record.actions) == len(numbered)
        assert 2 == sum(isinstance(action, Deal) for action in record.actions)

    def test_demo_without_record_writes_no_file(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        assert 0 == main(["demo", "--seed", "3"])
        assert [] == list(tmp_path.iterdir())

    def test_demo_record_to_a_missing_directory_fails(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "no such directory" / "game.json"
        assert 1 == main(["demo", "--seed", "3", "--record", str(path)])
        printed = capsys.readouterr()
        assert f"persian-rummy: {path}: No such file or directory\n" == printed.err
        assert "" == printed.out  # refused before the game is played
        assert not path.exists()

    def test_demo_record_to_a_directory_fails_before_the_game(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert 1 == main(["demo", "--seed", "3", "--record", str(tmp_path)])
        assert ("", f"persian-rummy: {tmp_path}: Is a directory\n") == capsys.readouterr()
        assert [] == list(tmp_path.iterdir())

    def test_demo_record_dash_writes_the_record_to_stdout_instead_of_the_game(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        assert 0 == main(["demo", "--seed", "3", "--record", str(path)])
        capsys.readouterr()
        assert 0 == main(["demo", "--seed", "3", "--record", "-"])
        assert (path.read_text(encoding="utf-8"), "") == capsys.readouterr()

    def test_demo_record_replaces_a_file_whole_and_keeps_its_mode(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        path.write_text("an older record", encoding="utf-8")
        path.chmod(0o640)
        assert 0 == main(["demo", "--seed", "3", "--record", str(path)])
        capsys.readouterr()
        assert "persian-rummy demo, seed 3" == from_json(path.read_bytes(), GameRecord).event
        assert 0o640 == stat.S_IMODE(path.stat().st_mode)
        assert [path] == list(tmp_path.iterdir())

    def test_demo_record_writes_a_new_file_with_the_mode_of_the_umask(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        mask = os.umask(0o027)
        try:
            assert 0 == main(["demo", "--seed", "3", "--record", str(path)])
        finally:
            os.umask(mask)
        capsys.readouterr()
        assert 0o640 == stat.S_IMODE(path.stat().st_mode)

    def test_demo_record_through_a_symbolic_link_writes_the_file_it_points_to(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        target = tmp_path / "game.json"
        target.write_text("", encoding="utf-8")
        link = tmp_path / "link.json"
        link.symlink_to(target)
        assert 0 == main(["demo", "--seed", "3", "--record", str(link)])
        capsys.readouterr()
        assert link.is_symlink()
        assert "persian-rummy demo, seed 3" == from_json(target.read_bytes(), GameRecord).event

    def test_an_interrupted_demo_leaves_no_file(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        calls = []

        def interrupted(state: object, action: object) -> object:
            calls.append(action)
            if len(calls) == 10:
                raise KeyboardInterrupt
            return apply(state, action)  # type: ignore[arg-type]

        monkeypatch.setattr("persian_rummy.cli._demo_command.apply", interrupted)
        assert 130 == main(["demo", "--seed", "3", "--record", str(tmp_path / "game.json")])
        assert "" == capsys.readouterr().err
        assert 10 == len(calls)
        assert [] == list(tmp_path.iterdir())


class TestReplay:
    """
    ``persian-rummy replay FILE`` "reads a record and prints its game the same way, checking every
    action": after a header, the demo's output line for line; a record with an illegal action is printed
    up to that action, then refused; refused input exits with status 1 and a one-line message on
    standard error (docs/records.md).
    """

    def test_replay_prints_the_game_the_demo_printed(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], demo_3: str
    ) -> None:
        path = tmp_path / "game.json"
        assert 0 == main(["demo", "--seed", "3", "--record", str(path)])
        capsys.readouterr()
        assert 0 == main(["replay", str(path)])
        printed = capsys.readouterr()
        assert "" == printed.err
        lines = printed.out.splitlines()
        assert [
            f"Persian Rummy, game record {path}",
            "Event: persian-rummy demo, seed 3",
            "Rules: Persian Rummy",
            *EXPLAINED,
            "",
        ] == lines[:9]
        assert _from_first_deal(demo_3) == lines[9:]
        assert _from_first_deal(demo_3) == _from_first_deal(printed.out)
        assert "  game totals: N-S 102, E-W 146" in lines
        assert "E-W win, 146 to 102." == lines[-1]

    def test_replay_prints_the_players_the_event_the_date_and_the_rules(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = DATA / "winner_deals.json"
        assert 0 == main(["replay", str(path)])
        lines = capsys.readouterr().out.splitlines()
        assert [
            f"Persian Rummy, game record {path}",
            "Players: N Ana, E Bruno, S Chiara, W Dario",
            "Event: Golden game: ten cards, the winner deals",
            "Date: 2026-01-14",
            "Rules: hand_size=10,next_dealer=winner",
            *EXPLAINED,
            "",
            "Deal 1, dealt by W",
        ] == lines[:12]
        assert "Deal 2, dealt by E" in lines
        assert "Score of deal 1 (E went out):" in lines
        assert "Score of deal 2 (N went out):" in lines
        assert "N-S win, 298 to 210." == lines[-1]

    def test_replay_of_a_drawn_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["replay", str(DATA / "passes.json")])
        lines = capsys.readouterr().out.splitlines()
        assert "Score of deal 1 (ended by passes):" in lines
        assert "Score of deal 2 (ended by passes):" in lines
        assert "The game is a draw, 112 all." == lines[-1]

    def test_replay_of_a_deal_ended_by_an_empty_stock(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["replay", str(DATA / "runs_double.json")])
        out = capsys.readouterr().out
        assert "Score of deal 2 (ended by stock empty):" in out.splitlines()
        assert "Rules: empty_stock_end=immediately,double_four_card_runs=true" in out.splitlines()

    def test_replay_of_a_record_that_stops_mid_game(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        demo_record = tmp_path / "game.json"
        main(["demo", "--seed", "3", "--record", str(demo_record)])
        capsys.readouterr()
        record = from_json(demo_record.read_bytes(), GameRecord)
        path = _write(tmp_path / "partial.json", GameRecord(actions=record.actions[:4], players=("A", "B", "C", "D")))
        assert 0 == main(["replay", path])
        assert [
            f"Persian Rummy, game record {path}",
            "Players: N A, E B, S C, W D",
            "Rules: Persian Rummy",
            *EXPLAINED,
            "",
            "Deal 1, dealt by N",
            "  N is dealt 4♣ 5♣ 2♦ J♦ 7♥ Q♥ 2♠",
            "  E is dealt 3♣ 8♣ 6♦ 9♦ 10♦ 2♥ 🃏4",
            "  S is dealt 9♣ 7♦ 4♥ 8♥ 7♠ 9♠ 🃏1",
            "  W is dealt 7♣ Q♣ K♣ 8♦ K♦ 10♠ A♠",
            "  upcard 5♠; stock 27 cards",
            "    1. E draws from the stock",
            "    2. E discards 10♦",
            "    3. S draws from the stock",
            "",
            "The game is not over: deal 1, phase play, S to act.",
        ] == capsys.readouterr().out.splitlines()

    def test_replay_of_an_empty_record(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = _write(tmp_path / "empty.json", GameRecord(first_dealer=2))
        assert 0 == main(["replay", path])
        assert [
            f"Persian Rummy, game record {path}",
            "Rules: Persian Rummy",
            *EXPLAINED,
            "",
            "The game is not over: deal 0, phase deal.",
        ] == capsys.readouterr().out.splitlines()

    def test_replay_of_an_illegal_action_prints_the_game_up_to_it_and_the_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], demo_3: str
    ) -> None:
        demo_record = tmp_path / "game.json"
        main(["demo", "--seed", "3", "--record", str(demo_record)])
        capsys.readouterr()
        record = from_json(demo_record.read_bytes(), GameRecord)
        actions: list[Action] = list(record.actions)
        actions[5] = DrawStock(1)  # W is to draw, not E
        path = _write(tmp_path / "bad.json", GameRecord(actions=actions))
        assert 1 == main(["replay", path])
        printed = capsys.readouterr()
        assert _from_first_deal(demo_3)[:10] == _from_first_deal(printed.out)
        assert (
            f"persian-rummy: {path}: action 5 of the record is illegal: "
            "illegal action DrawStock(seat=1): it is seat 3's turn, not seat 1's (R6)\n"
        ) == printed.err

    def test_replay_of_a_deal_that_is_not_a_permutation(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        data = json.loads((DATA / "went_out.json").read_text(encoding="utf-8"))
        deck = data["actions"][0]["deck"]
        deck[1] = deck[0]
        path = tmp_path / "bad deal.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        # Loading refuses it already, naming the place of the repeated card.
        assert 1 == main(["replay", str(path)])
        printed = capsys.readouterr()
        assert f"persian-rummy: {path}: $.actions[0].deck[1]: card 3h appears twice in the list\n" == printed.err
        assert "" == printed.out

    def test_replay_of_a_missing_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "missing.json"
        assert 1 == main(["replay", str(path)])
        printed = capsys.readouterr()
        assert "" == printed.out
        assert f"persian-rummy: {path}: No such file or directory\n" == printed.err

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            (to_json(new_game()).encode(), "$: expected a GameRecord document, got GameState"),
            (to_json(DrawStock(1)).encode(), "$: expected a GameRecord document, got DrawStock"),
            (
                b'{"format": "persian-rummy", "version": 1}',
                "$.kind: expected 'state', 'view', 'action', 'deal_score', 'record' or 'event', got null",
            ),
            (b"{}", "$.format: expected 'persian-rummy', got null"),
            (b"[1, 2]", "$: expected an object, got a list"),
            (b"not json", "$: not JSON: Expecting value: line 1 column 1 (char 0)"),
            (b"", "$: not JSON: Expecting value: line 1 column 1 (char 0)"),
            (b"\xff\xfe", "$: not UTF-8 text: invalid start byte"),
        ],
    )
    def test_replay_of_a_file_that_is_not_a_record(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
    ) -> None:
        path = tmp_path / "other.json"
        path.write_bytes(content)
        assert 1 == main(["replay", str(path)])
        printed = capsys.readouterr()
        assert "" == printed.out
        assert f"persian-rummy: {path}: {message}\n" == printed.err

    def test_replay_of_a_directory(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert 1 == main(["replay", str(tmp_path)])
        printed = capsys.readouterr()
        assert "" == printed.out
        assert f"persian-rummy: {tmp_path}: Is a directory\n" == printed.err

    def test_replay_reads_the_record_from_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        path = DATA / "winner_deals.json"
        assert 0 == main(["replay", str(path)])
        expected = capsys.readouterr().out.replace(f"game record {path}\n", "game record <stdin>\n")
        monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text(encoding="utf-8")))
        assert 0 == main(["replay", "-"])
        assert (expected, "") == capsys.readouterr()

    def test_replay_escapes_the_names_the_event_and_the_date(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        record = GameRecord(
            players=("\x1b[31mred", "a\nforged line", "Zoë\u2028", "\u202eW"), event="\x9b2J\x7f", date="\t2026"
        )
        path = _write(tmp_path / "names\x1b.json", record)
        assert 0 == main(["replay", path])
        assert [
            f"Persian Rummy, game record {tmp_path}/names\\x1b.json",
            "Players: N \\x1b[31mred, E a\\nforged line, S Zoë\\u2028, W \\u202eW",
            "Event: \\x9b2J\\x7f",
            "Date: \\t2026",
            "Rules: Persian Rummy",
            *EXPLAINED,
            "",
            "The game is not over: deal 0, phase deal.",
        ] == capsys.readouterr().out.splitlines()

    def test_replay_reads_no_more_than_the_longest_record_can_take(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "long.json"
        with path.open("wb") as file:
            file.truncate(_limits.MAX_JSON + 1)
        assert 1 == main(["replay", str(path)])
        assert ("", f"persian-rummy: {path}: too long: more than {_limits.MAX_JSON:,} bytes\n") == capsys.readouterr()

    def test_replay_of_a_closed_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", None)
        assert 1 == main(["replay", "-"])
        assert ("", "persian-rummy: <stdin>: standard input is closed\n") == capsys.readouterr()


class TestShow:
    """
    ``persian-rummy show POSITION`` prints a position given in position notation: where the game is, the
    hands with the cards known to come from the discard pile, the stock, the pile, the table and the
    scores; ``-`` reads the position from standard input, and a position that cannot be read is refused
    with the reason (docs/records.md).
    """

    def test_the_show_position_is_the_one_of_the_golden_game(self) -> None:
        record = from_json((DATA / "went_out.json").read_bytes(), GameRecord)
        states = list(replay(record))
        assert POSITION == format_position(states[124])

    def test_show_prints_the_position_readably(self, capsys: pytest.CaptureFixture[str]) -> None:
        """
        Where the output can show them, the cards are written with their suit symbols (R2: the
        jokers as 🃏1 to 🃏4); the table lists who laid down and laid off what (R17), the card E
        took from the pile and must play is named (R15), and a line says how to read the cards.
        """
        assert 0 == main(["show", POSITION])
        printed = capsys.readouterr()
        assert "" == printed.err
        assert SHOWN == printed.out.splitlines()

    def test_show_prints_card_notation_where_the_symbols_do_not_fit(self, monkeypatch: pytest.MonkeyPatch) -> None:
        out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
        monkeypatch.setattr(sys, "stdout", out)
        assert 0 == main(["show", POSITION])
        out.flush()
        assert SHOWN_ASCII == out.buffer.getvalue().decode("ascii").splitlines()

    def test_show_prints_what_render_text_writes(self) -> None:
        state = parse_position(POSITION)
        for symbols in (True, False):
            out = io.StringIO()
            show(state, out, symbols=symbols)
            text = render_text(state, symbols=symbols)
            assert f"Rules: Persian Rummy\n{text}\n{card_legend(symbols=symbols)}\n" == out.getvalue()

    def test_show_of_a_new_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["show", format_position(new_game(Rules(hand_size=5)))])
        deck = " ".join(card.symbol for card in FULL_DECK)
        assert [
            "Rules: hand_size=5",
            "Before the first deal",
            "N to deal",
            "Score: N-S 0, E-W 0 (no deal finished)",
            "",
            "Hands:",
            "  N  no cards",
            "  E  no cards",
            "  S  no cards",
            "  W  no cards",
            "",
            "Table: no melds yet",
            "Discard pile: empty",
            f"Stock: 56 cards, next first: {deck}",
            "",
            SHOWN[-1],
        ] == capsys.readouterr().out.splitlines()

    def test_show_reads_the_position_from_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert 0 == main(["show", POSITION])
        expected = capsys.readouterr().out
        monkeypatch.setattr(sys, "stdin", io.StringIO(f"\n  {POSITION}\n\n"))
        assert 0 == main(["show", "-"])
        printed = capsys.readouterr()
        assert "" == printed.err
        assert expected == printed.out

    @pytest.mark.parametrize(
        ("position", "message"),
        [
            ("", "a position has 14 fields separated by spaces, got 0"),
            ("- 1/N draw E", "a position has 14 fields separated by spaces, got 4"),
            (
                POSITION.replace(" play ", " plya "),
                "field 3 is a phase (deal, draw, play, deal_over, game_over, calls/SEAT, called/SEAT), got 'plya'",
            ),
            (POSITION.replace("- 2/E", "- 2/Q"), "not a seat: 'Q' in '2/Q' (expected N, E, S or W)"),
            (
                POSITION.replace(" Kd 3cKdKsX2 ", " Jd 3cKdKsX2 "),
                "invalid position: the card to play must be one of the cards taken from the discard pile this turn",
            ),
            (
                POSITION.replace("JcQc2d", "JcQc2c"),
                "invalid position: card 2c appears more than once (found again in the stock)",
            ),
        ],
    )
    def test_show_of_a_bad_position_fails_with_the_error(
        self, capsys: pytest.CaptureFixture[str], position: str, message: str
    ) -> None:
        assert 1 == main(["show", position])
        printed = capsys.readouterr()
        assert "" == printed.out
        assert f"persian-rummy: {message}\n" == printed.err

    def test_show_of_a_bad_position_on_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("not a position\n"))
        assert 1 == main(["show", "-"])
        printed = capsys.readouterr()
        assert "" == printed.out
        assert "persian-rummy: <stdin>: a position has 14 fields separated by spaces, got 3\n" == printed.err

    def test_show_of_stdin_that_is_not_utf_8(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00"), encoding="utf-8"))
        assert 1 == main(["show", "-"])
        assert ("", "persian-rummy: <stdin>: not UTF-8 text: invalid start byte\n") == capsys.readouterr()

    def test_show_of_an_endless_stdin_reads_a_bounded_amount(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        zeros = _Zeros()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(zeros), encoding="utf-8"))
        assert 1 == main(["show", "-"])
        assert (
            "",
            f"persian-rummy: <stdin>: too long: more than {_limits.MAX_NOTATION:,} bytes\n",
        ) == capsys.readouterr()
        assert _limits.MAX_NOTATION < zeros.given < 2 * _limits.MAX_NOTATION


class _Zeros(io.RawIOBase):
    """
    A stream of zero bytes, endless as far as a bounded reader can tell (it ends after a megabyte, so
    that a reader that is not bounded still stops), that counts how many it gave.
    """

    def __init__(self) -> None:
        super().__init__()
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        size = min(len(view), 1_000_000 - self.given)
        view[:size] = bytes(size)
        self.given += size
        return size


def _command() -> str:
    found = shutil.which("persian-rummy")
    if found is not None:
        return found
    return str(Path(sys.executable).with_name("persian-rummy"))


class TestInstalledCommand:
    """
    "The ``persian-rummy`` program, installed with the package, has three commands" (docs/records.md):
    the installed command records, replays and shows as `main` does.
    """

    def test_the_installed_command_records_replays_and_shows(self, tmp_path: Path, demo_3: str) -> None:
        path = tmp_path / "game.json"
        run = subprocess.run(  # noqa: S603 (our own command, fixed arguments)
            [_command(), "demo", "--seed", "3", "--record", str(path)], capture_output=True, text=True, check=False
        )
        assert (0, demo_3, "") == (run.returncode, run.stdout, run.stderr)
        run = subprocess.run(  # noqa: S603
            [_command(), "replay", str(path)], capture_output=True, text=True, check=False
        )
        assert (0, "") == (run.returncode, run.stderr)
        assert _from_first_deal(demo_3) == _from_first_deal(run.stdout)
        run = subprocess.run(  # noqa: S603
            [_command(), "show", "-"], input="nonsense", capture_output=True, text=True, check=False
        )
        assert (1, "", "persian-rummy: <stdin>: a position has 14 fields separated by spaces, got 1\n") == (
            run.returncode,
            run.stdout,
            run.stderr,
        )
