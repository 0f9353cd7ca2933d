"""
``persian-rummy match FIRST SECOND``: a match between two ready players, as `persian_rummy.matches` plays it.

Each team is one player of `persian_rummy.bots.players.make_player`, named as it names them
(``greedy``, ``pimc:200``).  ``--jobs N`` plays the games on N processes; the results are
the same for every N.  While the games are played, a progress bar shows on standard error
when it is a terminal; then a table of the summary is printed on standard output, and a table
of the players' thinking times unless ``--no-times`` (the times differ from run to run, the
rest never does).  ``--out FILE`` writes the result as JSON, ``--records DIR`` every game's
record.

The command needs ``rich`` (the ``cli`` extra); without it, it says how to install it.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, InvalidStateError
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from .._core import limits as _limits
from ..bots import _loading
from ..bots.players import PLAYER_NAMES, make_player
from ..exceptions import InvalidValueError
from ..matches import MAX_GAMES, MatchResult, MatchSummary, play_match, process_pool
from ..matches._pool import check_jobs
from ..notation import format_rules, parse_rules
from ..serialize import to_json

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

#: The line printed, with exit status 1, when rich is missing.
NEEDS_RICH: Final = "persian-rummy: match needs rich, which is not installed: pip install 'persian-rummy[cli]'"


class ResultFile(Protocol):
    """
    Where ``--out FILE`` writes, opened before the match (``persian_rummy.cli`` makes it).
    """

    def write(self, text: str) -> None:
        """
        Write the result whole, replacing *FILE*.
        """

    def discard(self) -> None:
        """
        Give up: leave *FILE* as it was.
        """


def games_argument(text: str) -> int:
    """
    The number of games ``--games`` gives: a positive even number.

    >>> games_argument("400")
    400
    >>> games_argument("5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not a positive even number of games: '5' (each deal is played twice)
    """
    digits = text.strip()
    if digits.isdigit() and (len(digits) > len(str(MAX_GAMES)) or int(digits) > MAX_GAMES):
        msg = f"too many games: {_limits.shown(text)} (at most {MAX_GAMES:,})"
        raise argparse.ArgumentTypeError(msg)
    if digits.isdigit() and int(digits) > 0 and int(digits) % 2 == 0:
        return int(digits)
    msg = f"not a positive even number of games: {_limits.shown(text)} (each deal is played twice)"
    raise argparse.ArgumentTypeError(msg)


def jobs_argument(text: str) -> int:
    """
    The number of processes ``--jobs`` gives: 1 or more, and at most the CPUs this process may use.

    >>> jobs_argument("1")
    1
    """
    digits = text.strip()
    if not digits.isdigit() or len(digits) > 9 or int(digits) < 1:
        msg = f"not a number of processes: {_limits.shown(text)} (1 or more)"
        raise argparse.ArgumentTypeError(msg)
    try:
        return check_jobs(int(digits))
    except InvalidValueError as error:
        raise argparse.ArgumentTypeError(str(error).replace("jobs must", "--jobs must", 1)) from None


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``match`` command's *parser* its arguments.
    """
    parser.add_argument(
        "first", metavar="FIRST", help="the first team's player: random, greedy, pimc:200, module:attribute, ..."
    )
    parser.add_argument("second", metavar="SECOND", help="the second team's player")
    parser.add_argument(
        "--games", type=games_argument, default=100, metavar="N", help="games, an even number (default 100)"
    )
    parser.add_argument(
        "--jobs", type=jobs_argument, default=1, metavar="J", help="processes to play on (default 1: this one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the match's seed (default 0)")
    parser.add_argument("--rules", default="-", metavar="ID", help="the rules, as a rules id (default '-': standard)")
    parser.add_argument("--out", metavar="FILE", help="write the result to FILE as JSON")
    parser.add_argument("--records", metavar="DIR", help="write each game's record to DIR as JSON")
    parser.add_argument("--no-times", action="store_true", help="leave out the thinking times, which vary by run")


def configure_others(commands: argparse._SubParsersAction[Any]) -> None:
    """
    Add the ``players`` command (and the other commands of this module but ``match``) to *commands*.
    """
    commands.add_parser(
        "players",
        help="list the players the commands take: the ready ones and those installed packages register",
        description="List the players: ready ones, those of the entry points persian_rummy.players, and"
        " module:attribute[:arguments] for any class or factory of an importable module.",
    )


def players(args: argparse.Namespace, open_file: Callable[[str], ResultFile]) -> None:  # noqa: ARG001
    """
    Print the players the commands take, one a line: its name and where it comes from.
    """
    registered = _loading.entry_points()
    rows = [(name, f"ready: {PLAYER_NAMES[name].__name__}") for name in sorted(PLAYER_NAMES)]
    rows += [
        (name, f"entry point: {target}" + (" (hidden by the ready player)" if name in PLAYER_NAMES else ""))
        for name, target in sorted(registered.items())
    ]
    width = max(len(name) for name, _ in rows)
    for name, where in rows:
        print(f"{name:<{width}}  {where}")  # noqa: T201 (the command's output)
    print("and module:attribute[:arguments], a class or a factory of players in an importable module")  # noqa: T201


def importable_here() -> None:
    """
    Let players be imported from modules of the current directory, as ``python -m`` does (at the end
    of the path, so that no installed module is hidden).
    """
    here = str(Path.cwd())
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)


def run(args: argparse.Namespace, open_file: Callable[[str], ResultFile]) -> None:
    """
    Run ``persian-rummy match`` as *args* says; *open_file* opens the ``--out`` file, before the match.
    """
    console = _console()
    importable_here()
    first, second = make_player(args.first), make_player(args.second)
    rules = parse_rules(args.rules)
    if args.records is not None:
        _make_directory(args.records)
    out = None if args.out is None else open_file(args.out)
    try:
        with _executor(args.jobs) as executor, _progress(args.games) as progress:
            result = play_match(
                first,
                second,
                args.games,
                rules=rules,
                seed=args.seed,
                executor=executor,
                progress=progress,
                records=args.records is not None,
                names=(args.first, args.second),
            )
    except BaseException:
        if out is not None:
            out.discard()
        raise
    if args.records is not None:
        _write_records(result, Path(args.records))
    if out is not None:
        out.write(result.without_records().to_json() + "\n")
    console.print(summary_table(result))
    if not args.no_times:
        console.print(times_table(result))


def _console() -> Console:
    try:
        from rich.console import Console  # noqa: PLC0415 (rich is optional: the cli extra)
    except ImportError:
        print(NEEDS_RICH, file=sys.stderr)  # noqa: T201 (rich, which would print it, is missing)
        raise SystemExit(1) from None
    return Console(highlight=False, markup=False, emoji=False)


def _make_directory(path: str) -> None:
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None


def _write_records(result: MatchResult, directory: Path) -> None:
    width = len(str(len(result.games) - 1))
    for game in result.games:
        path = directory / f"game-{game.index:0{width}}.json"
        try:
            path.write_text(to_json(game.record, pretty=True) + "\n", encoding="utf-8")  # type: ignore[arg-type]
        except OSError as error:
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None


def _quiet_worker() -> None:
    """
    In a worker process: die at once on an interrupt, as the command does, with no traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # a worker forked while interrupts were held back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _executor(jobs: int) -> Iterator[Executor | None]:
    """
    No executor for one job (the games are played here), else a pool of *jobs* processes, left
    without waiting for its tasks when the match is given up.
    """
    if jobs == 1:
        yield None
        return
    pool = process_pool(jobs, _quiet_worker)  # its workers end when this process does, even killed
    # When an interrupt ends the workers, Python 3.11's pool may fail a future already cancelled
    # and print the traceback of that from its own thread; later versions let it be, and so does this.
    hook, threading.excepthook = threading.excepthook, _quiet_cancelled
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    threading.excepthook = hook


def _quiet_cancelled(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is not InvalidStateError:
        threading.__excepthook__(args)


@contextmanager
def _progress(games: int) -> Iterator[Callable[[int, int], None] | None]:
    """
    A progress bar on standard error while the games are played, if it is a terminal.
    """
    stream = sys.stderr
    if stream is None or not stream.isatty() or os.environ.get("TERM") == "dumb":
        yield None
        return
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn  # noqa: PLC0415

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(file=stream), transient=True) as bar:
        task = bar.add_task("games", total=games)

        def advance(finished: int, total: int) -> None:
            bar.update(task, completed=finished, total=total)

        yield advance


def _team_labels(result: MatchResult) -> tuple[str, str]:
    first, second = result.names
    return (f"1: {first}", f"2: {second}")


def _rate(summary: MatchSummary, team: int) -> str:
    low, high = summary.score_interval
    if team:
        return f"{1 - summary.score_rate:.3f} [{1 - high:.3f}, {1 - low:.3f}]"
    return f"{summary.score_rate:.3f} [{low:.3f}, {high:.3f}]"


def _margin(summary: MatchSummary, team: int) -> str:
    sign = -1 if team else 1
    text = f"{sign * summary.mean_margin + 0.0:+.1f}"  # + 0.0: no -0.0
    if summary.margin_interval is None:
        return text
    low, high = sorted(sign * bound + 0.0 for bound in summary.margin_interval)
    return f"{text} [{low:+.1f}, {high:+.1f}]"


def summary_table(result: MatchResult) -> Table:
    """
    The summary of *result* as a table: a column per team, the intervals at 95%.
    """
    from rich.table import Table  # noqa: PLC0415

    summary = result.summary
    rules = format_rules(result.rules)
    pairs = summary.games // 2
    title = (
        f"{summary.games} games in {pairs} duplicate pair{'s' if pairs > 1 else ''}, seed {result.seed}, "
        f"rules {'standard' if rules == '-' else rules}"
    )
    table = Table(title=title, title_justify="left")
    table.add_column("team")
    for label in _team_labels(result):
        table.add_column(label, justify="right")
    table.add_row("won", str(summary.wins), str(summary.losses))
    table.add_row("drawn", str(summary.draws), str(summary.draws))
    table.add_row("lost", str(summary.losses), str(summary.wins))
    table.add_row("score rate [95%]", _rate(summary, 0), _rate(summary, 1))
    table.add_row("points", f"{summary.points[0]:,}", f"{summary.points[1]:,}")
    table.add_row("margin per game [95%]", _margin(summary, 0), _margin(summary, 1))
    table.add_row("decisions", f"{summary.decisions[0]:,}", f"{summary.decisions[1]:,}")
    return table


def times_table(result: MatchResult) -> Table:
    """
    How long each team's player thought per decision: it varies from one run to the next.
    """
    from rich.table import Table  # noqa: PLC0415

    summary = result.summary
    table = Table(title="thinking time (varies by run)", title_justify="left")
    table.add_column("team")
    for label in _team_labels(result):
        table.add_column(label, justify="right")
    table.add_row("ms per decision", *(f"{ms:.4f}" if ms < 1 else f"{ms:,.1f}" for ms in summary.ms_per_decision))
    seconds = [ms * decisions / 1000 for ms, decisions in zip(summary.ms_per_decision, summary.decisions, strict=True)]
    table.add_row("seconds in all", *(f"{value:,.1f}" for value in seconds))
    return table


#: The commands of this module, by name, as `persian_rummy.cli` runs them.
COMMANDS: Final[dict[str, Callable[[argparse.Namespace, Callable[[str], ResultFile]], None]]] = {
    "match": run,
    "players": players,
}
