"""
The full-screen ``persian-rummy play`` (docs/play.md), driven headless by Textual's `Pilot`.

A person plays a whole game at 80×24 by pressing keys, and it is the game the line mode plays
for the same answers; the record is that game.  The screens that matter are compared with the
text of `tests/data/screens/` at 80×24 and 120×40 (``PERSIAN_RUMMY_UPDATE_SCREENS=1`` writes
them again: see CONTRIBUTING).  What the screen shows comes from the person's view (R13-R21),
the card taken that must be played is named (R15), and each deal's end shows its score (R24-R26).
"""

from __future__ import annotations

import asyncio
import functools
import io
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual", reason="the full screen needs textual (the cli extra)")

from rich.console import Console
from textual.pilot import Pilot

import persian_rummy.cli
from persian_rummy import CallRummy, CardSet, Discard, DrawStock, LayOff, Phase, Rules, TakeDiscard
from persian_rummy.cli import _game, _line_mode, _screen
from persian_rummy.cli._tui import PlayApp
from persian_rummy.cli._tui import _app as _tui_app
from persian_rummy.cli._tui._widgets import text_of
from persian_rummy.records import final_state

SCREENS = Path(__file__).parent / "data" / "screens"
UPDATE = os.environ.get("PERSIAN_RUMMY_UPDATE_SCREENS") == "1"
SMALL, LARGE = (80, 24), (120, 40)

Drive = Callable[[PlayApp, Pilot[str]], Awaitable[None]]


def _table(seed: int = 1, bots: str = "greedy") -> _game.Table:
    return _game.Table(_game.Options(2, bots, bots, seed, _screen.Look()))


def screen_text(app: PlayApp) -> str:
    """
    The screen as a person sees it, in text: what `App.export_screenshot` draws in SVG.
    """
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def run(table: _game.Table, drive: Drive, size: tuple[int, int] = SMALL) -> tuple[PlayApp, str]:
    """
    Run the app on *table* headless at *size*, *drive* pressing keys; the app and the screen's
    text once *drive* is done (empty if the app has ended).
    """
    app = PlayApp(table, 0)
    shown: list[str] = []

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await drive(app, pilot)
            await pilot.pause()
            shown.append("" if app.return_value is not None else screen_text(app))

    asyncio.run(go())
    return app, shown[0]


async def until(app: PlayApp, pilot: Pilot[str], done: Callable[[PlayApp], bool], limit: int = 200) -> None:
    """
    Answer 1 at every move and Enter at every deal's end until *done*.
    """
    for _ in range(limit):
        if done(app):
            return
        await pilot.press(*(("1", "enter") if app.waiting == "move" else ("enter",)))
    pytest.fail("the game did not reach the screen looked for")


def take_offered(app: PlayApp) -> bool:
    return app.waiting == "move" and any(isinstance(move, TakeDiscard) for move in app.offered)


def compare(name: str, text: str) -> None:
    path = SCREENS / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.once
class TestAWholeGame:
    """
    A person plays a whole game at 80×24 with the keys alone, answering 1 and Enter at every move
    and Enter at each deal's end; the game ends (R27, R28) and its record is the game played.
    """

    def test_the_game_played_with_keys_is_the_line_modes(self) -> None:
        table = _table(seed=6)

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: app.return_value is not None, limit=400)

        app, _ = run(table, drive)
        played = _table(seed=6)
        ending = _line_mode.play_table(played, lambda _lines: None, lambda prompt: "" if "Enter" in prompt else "1")
        assert ("over", "over") == (app.return_value, ending)
        assert played.actions == table.actions
        record = table.record()
        assert (table.state, ("greedy", "greedy", "person", "greedy")) == (final_state(record), record.players)
        assert Phase.GAME_OVER is table.state.phase

    def test_quitting(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("ctrl+q", "ctrl+q")

        assert "quit" == run(_table(), drive)[0].return_value

    def test_ctrl_q_asks_first(self) -> None:
        asked: list[str] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("ctrl+q")
            await pilot.pause()
            asked.append(screen_text(app))
            await pilot.press("n")

        app, text = run(_table(), drive)
        assert None is app.return_value
        assert "Stop the game?" in asked[0]
        assert "--record FILE" in asked[0]
        assert "Stop the game?" not in text

    def test_quit_typed(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press(*"quit", "enter")

        assert "quit" == run(_table(), drive)[0].return_value


class TestScreens:
    """
    The screens at 80×24 and 120×40, compared with the text of tests/data/screens/.
    """

    @pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
    def test_the_first_move(self, size: tuple[int, int]) -> None:
        async def drive(_app: PlayApp, _pilot: Pilot[str]) -> None:
            pass

        _, text = run(_table(), drive, size)
        compare(f"first-move-{size[0]}x{size[1]}", text)

    @pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
    def test_a_card_taken_must_be_played(self, size: tuple[int, int]) -> None:
        """
        R15: after a take, the card to play is named and marked in the hand.
        """

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, take_offered)
            number = next(n for n, move in enumerate(app.offered, 1) if isinstance(move, TakeDiscard))
            await pilot.press(*str(number), "enter")

        _, text = run(_table(), drive, size)
        assert "You must play" in text
        compare(f"taken-{size[0]}x{size[1]}", text)

    @pytest.mark.once
    def test_the_end_of_a_deal(self) -> None:
        """
        R24-R26: the score item by item at the top, at 80×24 and, resized, at 120×40.
        """
        texts: list[str] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: app.waiting == "deal")
            texts.append(screen_text(app))
            await pilot.resize_terminal(*LARGE)
            await pilot.pause()

        _, large = run(_table(), drive)
        for size, text in zip((SMALL, LARGE), (*texts, large), strict=True):
            assert "Score of deal 1" in text.splitlines()[1]
            compare(f"deal-over-{size[0]}x{size[1]}", text)

    def test_the_help(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("?")

        _, text = run(_table(), drive)
        compare("help-80x24", text)

    def test_a_resize_reflows(self) -> None:
        texts: list[str] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: len(app.table.view().melds) >= 3)
            texts.append(screen_text(app))
            await pilot.resize_terminal(*LARGE)
            await pilot.pause()
            texts.append(screen_text(app))

        run(_table(), drive)
        small, large = texts
        assert ([24, 40], [80, 120]) == (
            [len(text.splitlines()) for text in texts],
            [max(len(line) for line in text.splitlines()) for text in texts],
        )
        assert small != large


@pytest.mark.once  # the screen's layout is the same on every Python: the first one's tests try it
class TestLayout:
    """
    The table keeps its room as the game goes on: at 80×24 the list of moves keeps to a few lines,
    the newest meld stays in view and a long meld wraps under its cards; a wide terminal shows each
    meld in full, with who laid down and laid off each card (R17).
    """

    @staticmethod
    @functools.cache
    def _late(size: tuple[int, int]) -> tuple[str, dict[str, tuple[int, int, int, int]], tuple[str, ...]]:
        """
        The screen at *size* at the 25th decision of the game of seed 6 (five melds on the table): its
        text, the regions of its parts and the lines of the deal's log; played once for each size.
        """
        shown: list[str] = []
        regions: list[dict[str, tuple[int, int, int, int]]] = []
        log: list[str] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            decisions = [0]

            def late(app: PlayApp) -> bool:
                decisions[0] += app.waiting == "move"
                return decisions[0] > 24  # the 25th decision: five melds on the table

            await until(app, pilot, late, limit=400)
            await pilot.pause()
            shown.append(screen_text(app))
            names = ("top", "table-side", "melds", "log-pane", "news-pane", "moves")
            regions.append({name: tuple(app.query_one(f"#{name}").region) for name in names})  # type: ignore[misc]
            log.extend(text_of(app.table.log).plain.splitlines())

        run(_table(seed=6), drive, size)
        return shown[0], regions[0], tuple(log)

    def test_80x24(self) -> None:
        lines = self._late(SMALL)[0].splitlines()
        second = next(number for number, line in enumerate(lines) if line.startswith(" 2  6♦ 7♦"))
        assert lines[second + 1].startswith("    by N; K♦ by E; 7♦ A♦ by S (you); 6♦ by W")
        assert lines[second + 4].startswith(" 5  3♦ 4♦ 5♦  run by N")
        moves = lines.index("─Your moves" + "─" * 69)
        assert " a move's number or notation; ? for help" == lines[moves + 6]
        assert lines[moves + 7].startswith(" Enter: draw from the stock (move 1)")

    def test_160x50(self) -> None:
        text = self._late((160, 50))[0]
        assert "   5  3♦ 4♦ 5♦                     run laid down by N" in text

    @pytest.mark.parametrize("size", [SMALL, LARGE, (160, 50)], ids=["80x24", "120x40", "160x50"])
    def test_the_regions(self, size: tuple[int, int]) -> None:
        """
        From 48 rows the melds take the rows they need and the moves of the deal fill the rest of
        the table's side under them, from the deal on, the newest in view; below, the melds have it all.
        """
        _, box, log = self._late(size)
        width, height = size
        top, side, melds, pane, news = (box[name] for name in ("top", "table-side", "melds", "log-pane", "news-pane"))
        assert (0, 1, width) == top[:3]
        assert side[3] == top[3] == news[3]  # the table's side and the news as high as the top
        assert side[2] + news[2] == width
        assert log[0].startswith("E deals")  # the log of the second deal, dealt by E, from its deal on
        if height < _tui_app.ROOMY:
            assert (0, 0) == pane[2:]  # no log
            assert side == melds
            return
        lines = 1 + 5 + 1  # the border, five melds, the long one on two lines
        assert (side[:3], lines) == (melds[:3], melds[3])
        assert (side[0], melds[1] + melds[3], side[2]) == pane[:3]
        assert melds[3] + pane[3] == side[3]
        assert pane[3] >= 20  # the rows the melds leave


class TestRummyCalls:
    """
    A24 with ``--rules rummy_calls=true``: the person asked whether to call Rummy! sees the discard
    named and the two answers among the moves; a call typed puts the card in the hand, named as the
    card to lay off, and Enter lays it off, the only move.
    """

    def test_asked_then_called(self) -> None:
        table = _game.Table(_game.Options(2, "random", "random", 7, _screen.Look(), Rules(rummy_calls=True)))
        shown: dict[str, str] = {}

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: any(isinstance(move, CallRummy) for move in app.offered))
            shown["asked"] = screen_text(app)
            await pilot.press(*"call", "enter")
            await pilot.pause()
            shown["called"] = screen_text(app)
            await pilot.press("enter")
            await pilot.pause()

        run(table, drive)
        asked = shown["asked"].splitlines()
        hand = asked.index(" Your hand: 10♦ K♦  5♥  2♠ 6♠ 10♠  🃏4")
        assert [
            " You are asked: E discarded 8♦, which a meld takes: call Rummy! to take it and",
            " lay it off now, or decline (A24)",
        ] == asked[hand + 1 : hand + 3]
        assert [" 1) decline no call on 8♦", " 2) call Rummy! on 8♦: take it, lay it off"] == asked[hand + 4 : hand + 6]
        called = shown["called"].splitlines()
        hand = called.index(" Your hand: 8♦ 10♦ K♦  5♥  2♠ 6♠ 10♠  🃏4")
        assert " You must lay off 8♦ now (you called Rummy! on E's discard; A24)" == called[hand + 1]
        assert [" 1) lay 8♦ on 5♦", " a move's number or notation; ? for help"] == called[hand + 3 : hand + 5]
        assert ["▏This turn:", "▏You call Rummy! on 8♦"] == [line.strip() for line in called[10:12]]
        compare("calls-asked-80x24", shown["asked"])
        compare("calls-called-80x24", shown["called"])
        laid = LayOff(2, 0, CardSet.parse("8d"))
        assert ((CallRummy(2), laid), Phase.DRAW, 2) == (
            tuple(table.actions[-2:]),
            table.state.phase,
            table.state.to_act,
        )


class TestKeysAndMouse:
    """
    Moves by number, by notation with completion, by the arrows in the list, and by the mouse on
    cards and melds (R13-R18).
    """

    def test_notation_completed_with_tab(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("d", "r", "tab", "enter")

        table = _table()
        run(table, drive)
        assert DrawStock(2) == table.actions[-1]

    def test_arrows_choose_in_the_list(self) -> None:
        moves: list[object] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: app.waiting == "move" and len(app.offered) >= 3)
            moves.append(app.offered[2])
            await pilot.press("down", "down", "enter")

        table = _table()
        run(table, drive)
        assert moves[0] in table.actions

    def test_a_wrong_answer_is_told(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("9", "enter")

        _, text = run(_table(), drive)
        assert "There is no move 9: type 1, the only move, or ? for help." in text

    def test_a_click_on_the_pile_takes(self) -> None:
        taken: list[TakeDiscard] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, take_offered)
            take = next(move for move in app.offered if isinstance(move, TakeDiscard))
            row = app.query_one("#pile")
            spot = next(spot for spot in row.spots if spot[3] == take.card)  # type: ignore[attr-defined]
            taken.append(take)
            await pilot.click("#pile", offset=(spot[1] + 1, spot[0]))

        table = _table()
        run(table, drive)
        assert taken[0] in table.actions

    def test_cards_selected_then_a_meld_clicked_lay_them_off(self) -> None:
        laid: list[LayOff] = []

        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: any(isinstance(move, LayOff) for move in app.offered))
            move = next(move for move in app.offered if isinstance(move, LayOff))
            hand = app._hand()
            for card in move.cards:  # the cursor to each card with →, then space
                steps = (hand.index(card) - app.cursor) % len(hand)
                await pilot.press(*["right"] * steps, "space")
            laid.append(move)
            await pilot.click("#melds", offset=(2, 1 + move.meld))  # below the border's title

        table = _table()
        run(table, drive)
        assert laid[0] in table.actions

    def test_sorting_by_rank_orders_the_moves_too(self) -> None:
        async def drive(app: PlayApp, pilot: Pilot[str]) -> None:
            await until(app, pilot, lambda app: app.waiting == "move" and len(app.offered) > 3)
            await pilot.press("ctrl+s")

        app, _ = run(_table(), drive)
        assert app.table.look.by_rank
        assert _game.ordered(app.offered, app.table.look) == app.offered
        ranks = [move.card.rank for move in app.offered if isinstance(move, Discard)]
        assert sorted(ranks) == ranks


class TestTheCommand:
    """
    ``persian-rummy play`` in a terminal plays on the full screen; without Textual, in the line mode.
    """

    def _terminal(self, monkeypatch: pytest.MonkeyPatch) -> list[tuple[_game.Table, float]]:
        from persian_rummy.cli import _play_command, _tui  # noqa: PLC0415

        played: list[tuple[_game.Table, float]] = []

        def play(table: _game.Table, *, delay: float, recorded: bool = False) -> str:  # noqa: ARG001
            played.append((table, delay))
            return "over"

        monkeypatch.setattr(_play_command, "_is_terminal", lambda _stream: True)
        monkeypatch.setattr(_tui, "play", play)
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no answer to "Play again?"
        return played

    def test_full_screen_in_a_terminal(self, monkeypatch: pytest.MonkeyPatch) -> None:
        played = self._terminal(monkeypatch)
        from persian_rummy.cli import main  # noqa: PLC0415

        assert 0 == main(["play", "--seed", "7", "--delay", "0.25"])
        assert [(7, 0.25)] == [(table.options.seed, delay) for table, delay in played]

    def test_without_textual(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        played = self._terminal(monkeypatch)
        monkeypatch.setitem(sys.modules, "persian_rummy.cli._tui", None)  # as when textual cannot be imported
        monkeypatch.delattr(persian_rummy.cli, "_tui")
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        from persian_rummy.cli import _play_command, main  # noqa: PLC0415

        monkeypatch.setattr(_line_mode, "_readline", lambda: None)
        assert 0 == main(["play", "--seed", "7"])
        assert ([], _play_command.NEEDS_TEXTUAL + "\n") == (played, capsys.readouterr().err)

    def test_ctrl_c_interrupts(self) -> None:
        async def drive(_app: PlayApp, pilot: Pilot[str]) -> None:
            await pilot.press("ctrl+c")

        assert "interrupted" == run(_table(), drive)[0].return_value
