"""
``persian-rummy match FIRST SECOND``: a match between two ready players, its summary on standard
output, a progress bar on a terminal, the result and the records in files, and its errors in one
line (persian_rummy.cli._match_command, docs/matches.md).
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import InvalidStateError
from pathlib import Path

import pexpect
import pytest

import persian_rummy
from persian_rummy import DealScore, GameRecord, InvalidValueError, Rules, from_json
from persian_rummy.bots.players import make_player
from persian_rummy.cli import _match_command, _match_setup, main
from persian_rummy.cli._match_setup import NEEDS_RICH
from persian_rummy.matches import GameResult, MatchResult, _signals, play_match
from persian_rummy.records import final_state
from persian_rummy.scoring import DealEnd, TeamScore

#: The folder of the package under test (src/, or the installed compiled build), for the commands run.
SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
#: Runs the command and interrupts it (as Ctrl-C does) as its match starts.
INTERRUPTING = (
    "import signal, sys\n"
    "from persian_rummy.cli import _match_command, main\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "play = _match_command.play_match\n"
    "def interrupted(*arguments, **keywords):\n"
    "    signal.raise_signal(signal.SIGINT)\n"
    "    return play(*arguments, **keywords)\n"
    "_match_command.play_match = interrupted\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _environment() -> dict[str, str]:
    dropped = {"NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "PYTHONIOENCODING", "TERM", "COLORTERM"}
    kept = {name: value for name, value in os.environ.items() if name not in dropped}
    path = os.pathsep.join(part for part in (str(SRC), kept.get("PYTHONPATH", "")) if part)
    return kept | {"PYTHONIOENCODING": "utf-8", "PYTHONPATH": path}


def _run(*args: str, program: tuple[str, ...] = ("-m", "persian_rummy")) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 (this interpreter, fixed arguments)
        [sys.executable, *program, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_environment(),
        timeout=60,
        check=False,
    )


def _rows(text: str) -> dict[str, list[str]]:
    """
    The rows of the tables in *text*, by their first cell: the cells after it.
    """
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.replace("┃", "│").split("│")[1:-1]]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


def _match(games: int, seed: int) -> MatchResult:
    return play_match(make_player("random"), make_player("random"), games, seed=seed, names=("random", "random"))


class TestSummary:
    """
    The summary is printed as a table, a column per team, the intervals at 95%; the thinking times
    in a table of their own, left out by ``--no-times``.  ``--jobs`` changes nothing else.
    """

    def test_the_table_holds_the_summary_of_the_match(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["match", "random", "random", "--games", "20", "--seed", "3"])
        out, err = capsys.readouterr()
        summary = _match(20, 3).summary
        rows = _rows(out)
        assert ("", ["1: random", "2: random"]) == (err, rows["team"])
        assert [str(summary.wins), str(summary.losses)] == rows["won"]
        assert [str(summary.draws)] * 2 == rows["drawn"]
        assert [str(summary.losses), str(summary.wins)] == rows["lost"]
        low, high = summary.score_interval
        assert f"{summary.score_rate:.3f} [{low:.3f}, {high:.3f}]" == rows["score rate [95%]"][0]
        assert f"{summary.mean_margin:+.1f}" == rows["margin per game [95%]"][0].split()[0]
        assert [f"{points:,}" for points in summary.points] == rows["points"]
        assert [f"{count:,}" for count in summary.decisions] == rows["decisions"]
        assert "20 games in 10 duplicate pairs, seed 3, rules standard" == out.splitlines()[0].strip()
        timed = ["wall ms per decision", "CPU ms per decision", "wall seconds in all", "CPU seconds in all"]
        assert timed == [name for name in rows if name in timed]

    def test_the_second_team_column_mirrors_the_first(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["match", "random", "random", "--games", "8", "--seed", "5", "--no-times"])
        rows = _rows(capsys.readouterr().out)
        rate, interval = rows["score rate [95%]"][1].split(" ", 1)
        assert (f"{1 - _match(8, 5).summary.score_rate:.3f}", "[") == (rate, interval[0])
        assert rows["margin per game [95%]"][0].split()[0].lstrip("+-") == rows["margin per game [95%]"][1].split()[
            0
        ].lstrip("+-")

    def test_no_times_leaves_out_the_times_table_only(self) -> None:
        timed = _run("match", "random", "random", "--games", "6", "--seed", "2")
        untimed = _run("match", "random", "random", "--games", "6", "--seed", "2", "--no-times")
        assert (0, 0) == (timed.returncode, untimed.returncode)
        assert timed.stdout.startswith(untimed.stdout)
        assert "thinking time (varies by run)" == timed.stdout[len(untimed.stdout) :].splitlines()[0].strip()
        assert "thinking time" not in untimed.stdout

    def test_one_job_and_two_print_the_same(self) -> None:
        runs = [
            _run("match", "random", "random", "--games", "40", "--seed", "1", "--jobs", jobs, "--no-times")
            for jobs in ("1", "2")
        ]
        assert [(0, "")] * 2 == [(run.returncode, run.stderr) for run in runs]
        assert runs[0].stdout == runs[1].stdout
        assert ["1: random", "2: random"] == _rows(runs[0].stdout)["team"]

    def test_an_even_margin_has_no_sign_to_lose(self) -> None:
        deal = DealScore(1, (TeamScore(total=10), TeamScore(total=30)), None, DealEnd.PASSES)
        games = [
            GameResult(i, 1, (1, 2, 3, 4), 0, layout, (deal,), (1, 1, 1, 1), (0, 0, 0, 0))
            for i, layout in enumerate((((0, 2), (1, 3)), ((1, 3), (0, 2))))
        ]
        summary = MatchResult(("a", "b"), Rules(), 0, games).summary
        assert ("+0.0", "+0.0") == (_match_command._margin(summary, 0), _match_command._margin(summary, 1))

    def test_rules_are_given_by_their_id(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["match", "random", "random", "--games", "2", "--rules", "hand_size=10", "--no-times"])
        assert (
            "2 games in 1 duplicate pair, seed 0, rules hand_size=10" == capsys.readouterr().out.splitlines()[0].strip()
        )


class TestFiles:
    """
    ``--out FILE`` writes the result as JSON, ``--records DIR`` every game's record.
    """

    def test_out_writes_the_result(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        out = tmp_path / "result.json"
        assert 0 == main(["match", "random", "random", "--games", "6", "--seed", "4", "--out", str(out)])
        capsys.readouterr()
        assert _match(6, 4) == MatchResult.from_json(out.read_text(encoding="utf-8"))

    def test_records_writes_every_game(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        folder = tmp_path / "records" / "deep"
        out = tmp_path / "result.json"
        assert 0 == main(
            ["match", "random", "random", "--games", "12", "--seed", "4", "--records", str(folder), "--out", str(out)]
        )
        capsys.readouterr()
        names = sorted(path.name for path in folder.iterdir())
        assert [f"game-{index:02}.json" for index in range(12)] == names
        result = MatchResult.from_json(out.read_text(encoding="utf-8"))
        assert [None] * 12 == [game.record for game in result.games]
        for game in result.games:
            record = from_json((folder / f"game-{game.index:02}.json").read_text(encoding="utf-8"), GameRecord)
            scores = final_state(record).scores
            assert game.points == (scores[game.seats[0][0]], scores[game.seats[1][0]])
            assert f"persian-rummy match, seed 4, game {game.index}" == record.event


class TestErrors:
    """
    A wrong player, rules or file: status 1 and one line on standard error, no traceback; a
    wrong number of games or processes: status 2, the usage and the reason.
    """

    def test_an_unknown_player(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(InvalidValueError) as caught:
            make_player("nobody")
        with pytest.raises(SystemExit) as info:
            main(["match", "random", "nobody"])
        assert 2 == info.value.code
        err = capsys.readouterr().err.splitlines()[-1]
        assert f"persian-rummy match: error: argument SECOND: {caught.value}" == err

    def test_unknown_rules(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 1 == main(["match", "random", "random", "--rules", "nonsense=1"])
        assert ("", "persian-rummy: unknown rule switch 'nonsense' in 'nonsense=1'\n") == capsys.readouterr()

    @pytest.mark.parametrize(
        ("option", "value", "message"),
        [
            ("--games", "5", "not a positive even number of games: '5' (each deal is played twice)"),
            ("--games", "0", "not a positive even number of games: '0' (each deal is played twice)"),
            ("--games", "x", "not a positive even number of games: 'x' (each deal is played twice)"),
            ("--jobs", "0", "not a number of processes: '0' (1 or more)"),
        ],
    )
    def test_a_wrong_number(self, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str) -> None:
        with pytest.raises(SystemExit) as caught:
            main(["match", "random", "random", option, value])
        out, err = capsys.readouterr()
        assert (2, "") == (caught.value.code, out)
        assert f"persian-rummy match: error: argument {option}: {message}" == err.splitlines()[-1]

    def test_out_to_a_directory(self, tmp_path: Path) -> None:
        run = _run("match", "random", "random", "--games", "2", "--out", str(tmp_path))
        assert (1, "", f"persian-rummy: {tmp_path}: Is a directory\n") == (run.returncode, run.stdout, run.stderr)

    def test_records_to_a_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        taken = tmp_path / "taken"
        taken.write_text("", encoding="utf-8")
        assert 1 == main(["match", "random", "random", "--games", "2", "--records", str(taken)])
        assert ("", f"persian-rummy: {taken}: File exists\n") == capsys.readouterr()

    def test_a_failed_match_leaves_the_out_file_alone(self, tmp_path: Path) -> None:
        out = tmp_path / "result.json"
        out.write_text("before\n", encoding="utf-8")
        run = _run("match", "random", "random", "--games", "2", "--rules", "nonsense=1", "--out", str(out))
        assert (1, "before\n") == (run.returncode, out.read_text(encoding="utf-8"))
        assert [out] == list(tmp_path.iterdir())

    def test_without_rich_it_says_how_to_install_it(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setitem(sys.modules, "rich.console", None)
        with pytest.raises(SystemExit) as caught:
            main(["match", "random", "random", "--games", "2"])
        assert (1, ("", NEEDS_RICH + "\n")) == (caught.value.code, capsys.readouterr())
        assert "pip install 'persian-rummy[cli]'" in NEEDS_RICH

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_an_interrupt_exits_with_status_130_and_one_line(self, jobs: str) -> None:
        run = _run("match", "random", "random", "--games", "200000", "--jobs", jobs, program=("-c", INTERRUPTING))
        said = (
            "persian-rummy: SIGINT stopped the match of 200000 games; without --checkpoint,"
            " the games finished are not kept\n"
        )
        assert (130, "", said) == (run.returncode, run.stdout, run.stderr)


class TestInProcess:
    """
    The command run in the test's process: on a pool of two processes, with a progress bar on a
    standard error that says it is a terminal, and giving up its ``--out`` file when the match fails.
    """

    def test_two_jobs(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["match", "random", "random", "--games", "8", "--seed", "5", "--jobs", "2", "--no-times"])
        rows = _rows(capsys.readouterr().out)
        assert [str(_match(8, 5).summary.wins), str(_match(8, 5).summary.losses)] == rows["won"]

    def test_a_progress_bar_on_a_terminal(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        screen = _Terminal()
        monkeypatch.setattr(sys, "stderr", screen)
        monkeypatch.setenv("TERM", "xterm")
        assert 0 == main(["match", "random", "random", "--games", "8", "--no-times"])
        assert "games" in screen.getvalue()
        assert "8/8" in screen.getvalue()
        assert "won" in capsys.readouterr().out

    def test_a_failed_match_gives_up_the_out_file(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        def fail(*_: object, **__: object) -> None:
            raise InvalidValueError("no match today")

        monkeypatch.setattr(_match_command, "play_match", fail)
        out = tmp_path / "result.json"
        assert 1 == main(["match", "random", "random", "--jobs", "2", "--out", str(out)])
        assert ("", "persian-rummy: no match today\n") == capsys.readouterr()
        assert [] == list(tmp_path.iterdir())
        assert 1 == main(["match", "random", "random"])
        assert ("", "persian-rummy: no match today\n") == capsys.readouterr()

    def test_a_record_that_cannot_be_written(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        (tmp_path / "game-1.json").mkdir()
        assert 1 == main(["match", "random", "random", "--games", "2", "--records", str(tmp_path)])
        assert ("", f"persian-rummy: {tmp_path / 'game-1.json'}: Is a directory\n") == capsys.readouterr()

    def test_the_pools_thread_is_quiet_about_a_cancelled_future_only(self, capsys: pytest.CaptureFixture[str]) -> None:
        thread = threading.current_thread()
        _match_setup.quiet_cancelled(threading.ExceptHookArgs([InvalidStateError, InvalidStateError(), None, thread]))
        assert "" == capsys.readouterr().err
        _match_setup.quiet_cancelled(threading.ExceptHookArgs([ValueError, ValueError("loud"), None, thread]))
        assert "ValueError: loud" in capsys.readouterr().err

    def test_a_worker_gives_up_its_task_at_an_interrupt(self) -> None:
        """
        In a worker of the pool, SIGINT gives up the task under way, which hands in the pairs it
        finished, and is ignored out of a task, where Python would raise KeyboardInterrupt and
        print its traceback.
        """
        before = signal.signal(
            signal.SIGINT, signal.default_int_handler
        )  # as in a terminal, not a job in the background
        try:
            _signals.in_worker()
            assert _signals.abandon == signal.getsignal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)  # out of a task: nothing happens
            with pytest.raises(_signals.Abandoned), _signals.task():
                signal.raise_signal(signal.SIGINT)
        finally:
            signal.signal(signal.SIGINT, before)


class _Terminal(io.StringIO):
    """
    A standard error that says it is a terminal.
    """

    def isatty(self) -> bool:
        return True


class TestProgress:
    """
    A progress bar shows on standard error while the games are played, when it is a terminal.
    """

    def test_on_a_terminal(self) -> None:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "persian_rummy", "match", "random", "random", "--games", "40", "--jobs", "2"],
            env=_environment() | {"TERM": "xterm-256color"},
            encoding="utf-8",
            dimensions=(40, 100),
            timeout=60,
        )
        child.expect("games")
        child.expect("/40")
        child.expect("margin per game")
        child.expect(pexpect.EOF)
        child.close()
        assert 0 == child.exitstatus

    def test_not_elsewhere(self) -> None:
        run = _run("match", "random", "random", "--games", "10")
        assert (0, "") == (run.returncode, run.stderr)
