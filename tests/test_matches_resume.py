"""
Budgets, checkpoints and resume (issue 20): a match stopped by its time limit, an interrupt or SIGTERM
keeps its complete duplicate pairs, marked partial, and resumed it gives the result of an uninterrupted
run (persian_rummy.matches.Limits, docs/matches.md).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import persian_rummy
from persian_rummy import InvalidValueError, Rules
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.cli import main
from persian_rummy.matches import MatchResult, play_match

SRC = Path(persian_rummy.__file__ or "").resolve().parents[1]
ONE_DEAL = Rules(num_deals=1)
#: The fields of a match's JSON that hold times, which differ from run to run.
TIMES = {"thinking", "cpu", "ms_per_decision", "member_ms_per_decision", "cpu_ms_per_decision"}


def _timeless(text: str) -> Any:
    """
    A match's JSON as data, its times left out.
    """

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                key: strip(item) for key, item in value.items() if key not in TIMES | {"member_cpu_ms_per_decision"}
            }
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return strip(json.loads(text))


def _match(games: int, **limits: Any) -> MatchResult:
    return play_match(GreedyPlayer(), RandomPlayer(), games, seed=9, rules=ONE_DEAL, **limits)


class TestTimeLimit:
    """
    Issue 20: "a match stopped by its budget ... writes the games finished so far (complete duplicate
    pairs only, clearly marked as partial)"; ``timeout 480 persian-rummy match ...`` wrote nothing.
    """

    def test_a_spent_budget_keeps_the_first_pair_marked_partial(self) -> None:
        stopped = _match(8, time_limit=1e-9)
        assert (2, 8, True) == (len(stopped.games), stopped.planned, stopped.partial)
        assert _match(2).games == stopped.games

    def test_a_budget_not_spent_plays_the_whole_match(self) -> None:
        whole = _match(4, time_limit=600.0)
        assert (4, 4, False) == (len(whole.games), whole.planned, whole.partial)

    def test_a_partial_result_is_written_and_read(self) -> None:
        stopped = _match(8, time_limit=1e-9)
        again = MatchResult.from_json(stopped.to_json())
        assert (stopped, True) == (again, again.partial)
        assert (8, True) == (json.loads(stopped.to_json())["planned"], json.loads(stopped.to_json())["partial"])

    def test_on_an_executor_the_finished_tasks_are_kept(self) -> None:
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

        with ThreadPoolExecutor(1) as pool:
            stopped = _match(8, time_limit=1e-9, executor=pool, chunk_size=2)
        assert stopped.partial
        assert _match(len(stopped.games)).games == stopped.games


class TestResume:
    """
    Issue 20: "--resume FILE continues it to the same result as an uninterrupted run"; nothing could be
    checkpointed and resumed.
    """

    def test_resumed_it_is_the_uninterrupted_match(self) -> None:
        stopped = _match(6, time_limit=1e-9)
        assert _match(6) == _match(6, resume=stopped)
        assert not _match(6, resume=stopped).partial

    def test_a_checkpoint_is_written_when_stopped_and_at_the_end(self, tmp_path: Path) -> None:
        path = tmp_path / "match.json"
        stopped = _match(6, time_limit=1e-9, checkpoint=path)
        assert stopped == MatchResult.from_checkpoint(path)
        whole = _match(6, resume=stopped, checkpoint=path)
        assert _timeless(whole.to_json()) == _timeless(MatchResult.from_checkpoint(path).to_json())

    def test_an_error_keeps_the_pairs_finished(self, tmp_path: Path) -> None:
        path = tmp_path / "match.json"
        calls = []

        def interrupt(finished: int, total: int) -> None:
            calls.append((finished, total))
            if finished == 4:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            _match(8, checkpoint=path, progress=interrupt)
        kept = MatchResult.from_checkpoint(path)
        assert (4, 8, True) == (len(kept.games), kept.planned, kept.partial)
        assert _match(8) == _match(8, resume=kept)

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"seed": 10}, "resume is a result of another match: its seed are 9, not 10"),
            ({"rules": Rules()}, "resume is a result of another match: its rules are 'num_deals=1', not '-'"),
            ({"names": ("a", "b")}, "its names are ('GreedyPlayer', 'RandomPlayer'), not ('a', 'b')"),
            ({"games": 2}, "resume holds 4 games, records left out: it cannot be resumed as a match of 2 games"),
            ({"records": True}, "records left out: it cannot be resumed as a match of 8 games that keeps records"),
        ],
    )
    def test_another_match_is_refused(self, changes: dict[str, Any], message: str) -> None:
        kept = _match(4)
        arguments: dict[str, Any] = {"seed": 9, "rules": ONE_DEAL, "games": 8, **changes}
        games = arguments.pop("games")
        with pytest.raises(InvalidValueError) as raised:
            play_match(GreedyPlayer(), RandomPlayer(), games, resume=kept, **arguments)
        assert message in str(raised.value)


class TestTheCommand:
    """
    Issue 20: "match --time-limit 10m --checkpoint FILE ... --resume FILE continues it to the same result
    as an uninterrupted run" (acceptance 2).
    """

    def test_stopped_by_the_time_limit_then_resumed(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        common = ["match", "greedy", "random", "--games", "8", "--seed", "4", "--rules", "num_deals=1", "--no-times"]
        checkpoint, whole, resumed = (tmp_path / name for name in ("checkpoint.json", "whole.json", "resumed.json"))
        assert 0 == main([*common, "--out", str(whole)])
        capsys.readouterr()
        assert 0 == main([*common, "--time-limit", "0.000001", "--checkpoint", str(checkpoint)])
        out, err = capsys.readouterr()
        assert (
            f"persian-rummy: the time limit stopped the match of 8 games; {checkpoint} holds the 2 games"
            f" finished: go on with --resume {checkpoint}\n"
        ) == err
        assert out.splitlines()[0].strip().startswith("partial: 2 of 8 games")
        assert 0 == main([*common, "--resume", str(checkpoint), "--out", str(resumed)])
        assert _timeless(whole.read_text(encoding="utf-8")) == _timeless(resumed.read_text(encoding="utf-8"))
        assert _timeless(whole.read_text(encoding="utf-8")) == _timeless(
            MatchResult.from_checkpoint(checkpoint).to_json()
        )

    def test_durations(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            main(["match", "random", "random", "--time-limit", "8d"])
        assert capsys.readouterr().err.endswith(
            "argument --time-limit: not a duration: '8d' (seconds, or a number and s, m or h; at most a week)\n"
        )

    def test_a_resume_file_that_is_not_a_match(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "x.json"
        path.write_text("{}", encoding="utf-8")
        assert 1 == main(["match", "random", "random", "--resume", str(path)])
        assert f"persian-rummy: {path}: $: missing field 'format'\n" == capsys.readouterr().err

    @pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="SIGTERM of POSIX")
    @pytest.mark.once
    def test_sigterm_keeps_the_pairs_finished(self, tmp_path: Path) -> None:
        checkpoint = tmp_path / "checkpoint.json"
        command = [sys.executable, "-m", "persian_rummy", "match", "random", "random", "--games", "3000"]
        environment = os.environ | {"PYTHONPATH": str(SRC)}
        process = subprocess.Popen(  # noqa: S603
            [*command, "--checkpoint", str(checkpoint)], stderr=subprocess.PIPE, text=True, env=environment
        )
        try:
            wait_for_pairs(checkpoint, 1, process)
        finally:
            process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        kept = MatchResult.from_checkpoint(checkpoint)
        assert (130, True, 3000) == (process.returncode, kept.partial, kept.planned)
        assert err == (
            f"persian-rummy: SIGTERM stopped the match of 3000 games; {checkpoint} holds the"
            f" {len(kept.games)} games finished: go on with --resume {checkpoint}\n"
        )
        assert (
            play_match(RandomPlayer(), RandomPlayer(), len(kept.games), names=("random", "random")).games == kept.games
        )


def wait_for_pairs(checkpoint: Path, pairs: int, process: subprocess.Popen[str], deadline: float = 120.0) -> None:
    """
    Wait until *checkpoint* holds *pairs* duplicate pairs (its head, then a line a pair), while
    *process* runs: the event a test waits for, within a generous *deadline* in seconds.
    """
    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up and process.poll() is None:
        if checkpoint.exists() and checkpoint.read_bytes().count(b"\n") > pairs:
            return
        time.sleep(0.05)
    pytest.fail(f"{checkpoint} did not hold {pairs} pairs within {deadline:g} s (the command ended: {process.poll()})")


class TestEstimate:
    """
    Issue 20: "The progress bar shows games/s and an estimate from the first game on; a match whose
    estimate exceeds a few minutes says so at the start"; pimc against greedy took 2 min 56 s with no
    warning.
    """

    def test_a_long_match_says_so(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        from persian_rummy.cli import _pace  # noqa: PLC0415 (the thresholds changed)

        monkeypatch.setattr(_pace, "STEADY", 0.0)
        monkeypatch.setattr(_pace, "LONG_MATCH", -1.0)
        assert 0 == main(["match", "random", "random", "--games", "4", "--no-times"])
        err = capsys.readouterr().err
        assert err.startswith("persian-rummy: this match will take about ")
        assert err.endswith(" games/s)\n")
        assert 1 == err.count("\n")

    def test_a_short_match_says_nothing(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert 0 == main(["match", "random", "random", "--games", "4", "--no-times"])
        assert "" == capsys.readouterr().err
