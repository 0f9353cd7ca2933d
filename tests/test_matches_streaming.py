"""
Big matches in bounded memory (issue 31): the checkpoint is appended a line a pair, never written
again whole, and read back to resume; the summary is kept as the games come in, so a match that
keeps no games holds none; the tasks are planned as they are sent, so the first game starts at once
and the limits hold from the start (persian_rummy.matches._checkpoint, docs/matches.md).

No time or memory is measured here (``benchmarks/bench_matches.py`` does): the tests look at what
the match does, the file it appends to, the tasks it has sent when its first games are in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from persian_rummy import InvalidDataError, InvalidValueError, Rules
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.cli import main
from persian_rummy.matches import MAX_GAMES, MatchResult, play_match

_P = ParamSpec("_P")
_T = TypeVar("_T")
ONE_DEAL = Rules(num_deals=1)
#: The most games a match keeps in memory (`persian_rummy.matches.MAX_KEPT_GAMES`).
KEPT = 100_000


def _match(games: int, **options: Any) -> MatchResult:
    return play_match(GreedyPlayer(), RandomPlayer(), games, seed=9, rules=ONE_DEAL, **options)


class Counting(ThreadPoolExecutor):
    """
    A thread pool that counts the tasks sent to it.
    """

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.sent = 0

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        self.sent += 1
        return super().submit(fn, *args, **kwargs)


class TestTheCheckpointIsAppended:
    """
    Issue 31: "every checkpoint rewrites the whole result (60,000 games: 186.6 s with --checkpoint,
    115.7 s without)".
    """

    def test_a_line_a_pair_in_the_same_file(self, tmp_path: Path) -> None:
        path = tmp_path / "match.jsonl"
        seen: list[tuple[int, int, int]] = []

        def look(_: int, __: int) -> None:
            status = path.stat()
            seen.append((status.st_ino, status.st_size, path.read_bytes().count(b"\n")))

        _match(8, checkpoint=path, progress=look)
        assert [2, 3, 4, 5] == [lines for _, _, lines in seen]  # the head, then a line a pair
        assert 1 == len({inode for inode, _, _ in seen})
        sizes = [size for _, size, _ in seen]
        assert sizes == sorted(set(sizes))
        text = path.read_bytes()
        assert all(text.startswith(path.read_bytes()[:size]) for size in sizes)

    def test_on_an_executor_in_the_order_of_the_pairs(self, tmp_path: Path) -> None:
        path = tmp_path / "match.jsonl"
        with ThreadPoolExecutor(3) as pool:
            result = _match(12, checkpoint=path, executor=pool, chunk_size=2)
        lines = path.read_text(encoding="utf-8").splitlines()
        assert list(range(6)) == [json.loads(line)["pair"] for line in lines[1:]]
        assert result == MatchResult.from_checkpoint(path) == _match(12)

    def test_its_head_names_the_match(self, tmp_path: Path) -> None:
        path = tmp_path / "match.jsonl"
        _match(2, checkpoint=path)
        assert {
            "format": "persian-rummy",
            "version": 1,
            "kind": "match-checkpoint",
            "names": ["GreedyPlayer", "RandomPlayer"],
            "rules": "num_deals=1",
            "seed": 9,
            "planned": 2,
            "records": False,
        } == json.loads(path.read_text(encoding="utf-8").splitlines()[0])


class TestResume:
    """
    Issue 31: "resuming reads it": the checkpoint, appended to, to the result of an uninterrupted run.
    """

    def test_from_the_checkpoint_cut_short_by_a_kill(self, tmp_path: Path) -> None:
        path = tmp_path / "match.jsonl"
        _match(8, checkpoint=path, time_limit=1e-9)
        kept = path.read_bytes()
        with path.open("ab") as file:
            file.write(b'{"pair": 1, "games": [{"ind')  # a line cut short by kill -9
        resumed = _match(8, resume=path, checkpoint=path)
        assert _match(8) == resumed == MatchResult.from_checkpoint(path)
        assert path.read_bytes().startswith(kept)
        assert 5 == path.read_bytes().count(b"\n")

    def test_into_another_checkpoint(self, tmp_path: Path) -> None:
        first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
        _match(8, checkpoint=first, time_limit=1e-9)
        assert _match(8) == _match(8, resume=first, checkpoint=second) == MatchResult.from_checkpoint(second)
        assert MatchResult.from_checkpoint(first).partial

    def test_a_checkpoint_of_another_match_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "match.jsonl"
        _match(4, checkpoint=path, time_limit=1e-9)
        with pytest.raises(InvalidValueError) as raised:
            play_match(GreedyPlayer(), RandomPlayer(), 4, seed=10, rules=ONE_DEAL, resume=path)
        assert "resume is the checkpoint of another match: its seed are 9, not 10" == str(raised.value)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (b"{}\n", "line 1: not the head of a match's checkpoint"),
            (b"", "line 1: not the head of a match's checkpoint"),
            (b"HEAD\n{oops\n", "line 2: not JSON"),
            (b'HEAD\n{"pair": 3, "games": []}\n', "line 2: expected pair 0, with its two games"),
            (b"HEAD\n", "the checkpoint holds no duplicate pair finished"),
        ],
    )
    def test_what_is_not_a_checkpoint(self, tmp_path: Path, text: bytes, message: str) -> None:
        path = tmp_path / "match.jsonl"
        _match(2, checkpoint=path)
        head = path.read_bytes().split(b"\n")[0]
        path.write_bytes(text.replace(b"HEAD", head))
        with pytest.raises(InvalidDataError) as raised:
            MatchResult.from_checkpoint(path)
        assert str(raised.value).startswith(f"{path}: {message}")


class TestTheSummaryAlone:
    """
    Issue 31: "4.5 KB kept per game"; the summary is kept online, and a match need not keep its games.
    """

    def test_a_match_that_keeps_no_games_has_the_same_summary(self) -> None:
        kept, summary_only = _match(12), _match(12, keep_games=False)
        assert ((), 12, 12, False) == (
            summary_only.games,
            summary_only.summary.games,
            summary_only.planned,
            summary_only.partial,
        )
        assert kept.summary == summary_only.summary

    def test_it_is_not_written_as_json(self) -> None:
        with pytest.raises(InvalidValueError) as raised:
            _match(2, keep_games=False).to_json()
        assert (
            "a match that kept no games (keep_games=False) is not written as JSON: its checkpoint holds its games"
        ) == str(raised.value)

    def test_keeping_too_many_games_is_refused(self) -> None:
        with pytest.raises(InvalidValueError) as raised:
            play_match(RandomPlayer(), RandomPlayer(), KEPT + 2)
        assert str(raised.value) == (
            "a match that keeps its games in memory keeps at most 100,000 games, got 100,002: pass keep_games=False"
            " to keep only its summary (and checkpoint=PATH to keep every game on disk)"
        )

    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.integers(-500, 500), min_size=4, max_size=40).filter(lambda margins: len(margins) % 2 == 0))
    def test_the_margin_interval_is_that_of_the_pairs(self, margins: list[int]) -> None:
        from persian_rummy.matches import _stats, _tally  # noqa: PLC0415 (the sums checked)

        class Game:
            seats = ((0, 2), (1, 3))
            decisions = overruns = (0, 0, 0, 0)
            thinking = cpu = (0.0, 0.0, 0.0, 0.0)

            def __init__(self, margin: int) -> None:
                self.points = (max(margin, 0), max(-margin, 0))

        tally = _tally.Tally().add_all([Game(margin) for margin in margins])
        pairs = [(margins[k] + margins[k + 1]) / 2 for k in range(0, len(margins), 2)]
        expected = _stats.mean_interval(pairs)
        assert expected is not None
        assert tally.margin_interval() == pytest.approx(expected, rel=1e-9, abs=1e-9)


class TestPlannedAsSent:
    """
    Issue 31: "planning 10M games takes 32 s and 1.2 GB before the first game, and time_limit=0.5
    returns after 32 s".
    """

    @pytest.mark.once
    def test_the_first_games_are_in_before_the_match_is_all_sent(self) -> None:
        sent: list[int] = []
        with Counting(2) as pool:
            play_match(
                RandomPlayer(),
                RandomPlayer(),
                2000,
                executor=pool,
                chunk_size=2,
                progress=lambda _, __: sent.append(pool.sent),
            )
        assert 4 == sent[0]  # twice the workers: a task under way and one waiting for each
        assert 1000 == pool.sent

    def test_the_largest_match_stops_at_its_time_limit_after_a_pair(self) -> None:
        stopped = play_match(RandomPlayer(), RandomPlayer(), MAX_GAMES, keep_games=False, time_limit=1e-9)
        assert (2, MAX_GAMES, True) == (stopped.summary.games, stopped.planned, stopped.partial)


class TestTheCommand:
    """
    The command's checkpoint is appended and resumed, and ``--out`` is refused for more games than may be kept.
    """

    def test_stopped_then_resumed_on_its_checkpoint(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        common = ["match", "greedy", "random", "--games", "8", "--seed", "4", "--rules", "num_deals=1", "--no-times"]
        checkpoint, whole = tmp_path / "match.jsonl", tmp_path / "whole.json"
        assert 0 == main([*common, "--time-limit", "0.000001", "--checkpoint", str(checkpoint)])
        inode = checkpoint.stat().st_ino
        assert 0 == main([*common, "--resume", str(checkpoint), "--out", str(whole)])
        assert inode == checkpoint.stat().st_ino
        assert MatchResult.from_json(whole.read_text(encoding="utf-8")) == MatchResult.from_checkpoint(checkpoint)
        err = capsys.readouterr().err
        assert err.startswith("persian-rummy: the time limit stopped the match of 8 games;")

    def test_out_keeps_the_games_so_at_most_that_many(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        games = str(KEPT + 2)
        assert 1 == main(["match", "random", "random", "--games", games, "--out", str(tmp_path / "out.json")])
        assert (
            "persian-rummy: --out keeps every game in memory, at most 100,000, got --games 100,002: leave it out,"
            " and --checkpoint FILE keeps every game of a bigger match on disk\n"
        ) == capsys.readouterr().err
        assert [] == list(tmp_path.iterdir())
