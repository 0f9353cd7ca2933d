"""
``persian-rummy match FIRST SECOND``, ``persian-rummy tournament A B C ...`` and ``persian-rummy players``:
matches and round robins as `persian_rummy.matches` plays them, and the players the commands take.

Each player is one of `persian_rummy.bots.players.make_player`, named as it names them (``greedy``,
``pimc:200``, ``mybots:Cautious``; modules of the current directory are importable).  ``--jobs N``
plays the games on N processes, at most the CPUs available; the results are the same for every N.
While the games are played, a progress bar shows on standard error when it is a terminal, with the
games per second and the time left; a match that will take long says so at its start.  Then a table
of the summary is printed on standard output, and a table of the players' thinking times, wall clock
and CPU, unless ``--no-times`` (the times differ from run to run, the rest never does).  ``--out
FILE`` writes the result as JSON, ``--records DIR`` every game's record (both keep the games in
memory; without them memory does not grow with the games); ``--time-limit``, ``--checkpoint`` and
``--resume`` stop, keep and continue a match; ``--decision-limit`` and ``--cpu-limit`` bound each
decision.  SIGINT (Ctrl-C) and SIGTERM stop it at once, the pairs finished in the checkpoint, with
status 130 and a line that says how to go on.  A tournament prints a cross table of score rates
and the players' ratings.

The commands need ``rich`` (the ``cli`` extra); without it, they say how to install it.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, InvalidStateError
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from .._internal import limits as _limits
from ..bots import _loading
from ..bots.players import PLAYER_NAMES, Player, make_player
from ..exceptions import InvalidDataError, InvalidValueError, PersianRummyError
from ..matches import (
    MAX_GAMES,
    MAX_KEPT_GAMES,
    MAX_KEPT_RECORDS,
    MatchResult,
    MatchSummary,
    TournamentResult,
    _checkpoint,
    _signals,
    pairings,
    play_match,
    play_tournament,
    process_pool,
)
from ..matches._pool import Pool, check_jobs
from ..notation import format_rules, parse_rules
from ..rules import Rules
from ..serialize import to_json
from . import _pace

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

#: Seconds in a day: the longest limit the command takes.
_DAY: Final = 86_400
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


def seconds_argument(text: str) -> float:
    """
    A number of seconds: above 0 and at most a day.

    >>> seconds_argument("0.5")
    0.5
    """
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= _DAY:
        msg = f"not a number of seconds: {_limits.shown(text)} (above 0, at most {_DAY:,})"
        raise argparse.ArgumentTypeError(msg)
    return seconds


#: The units of ``--time-limit``, in seconds.
_UNITS: Final = {"s": 1, "m": 60, "h": 3600}
#: The longest ``--time-limit``: a week.
_WEEK: Final = 7 * 86_400


def duration_argument(text: str) -> float:
    """
    A duration: a number of seconds, or a number followed by ``s``, ``m`` or ``h``; above 0, at most a week.

    >>> duration_argument("10m"), duration_argument("1.5h"), duration_argument("90")
    (600.0, 5400.0, 90.0)
    """
    number, unit = (text[:-1], _UNITS[text[-1]]) if text[-1:] in _UNITS else (text, 1)
    try:
        seconds = float(number) * unit
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= _WEEK:
        msg = f"not a duration: {_limits.shown(text)} (seconds, or a number and s, m or h; at most a week)"
        raise argparse.ArgumentTypeError(msg)
    return seconds


def player_argument(text: str) -> str:
    """
    A team's player as the command line names it, checked by `persian_rummy.bots.players.make_player`,
    so that a wrong one is a wrong command line (exit status 2).

    >>> player_argument("greedy")
    'greedy'
    """
    importable_here()
    try:
        make_player(text)
    except PersianRummyError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``match`` command's *parser* its arguments.
    """
    parser.add_argument(
        "first",
        type=player_argument,
        metavar="FIRST",
        help="the first team's player: random, greedy, pimc:200, module:attribute, ...",
    )
    parser.add_argument("second", type=player_argument, metavar="SECOND", help="the second team's player")
    _common(parser, default_games=100)


def _common(parser: argparse.ArgumentParser, default_games: int, *, records: bool = True) -> None:
    """
    The options ``match`` and ``tournament`` share.
    """
    parser.add_argument(
        "--games",
        type=games_argument,
        default=default_games,
        metavar="N",
        help=f"games of each match, an even number (default {default_games})",
    )
    parser.add_argument(
        "--jobs", type=jobs_argument, default=1, metavar="J", help="processes to play on (default 1: this one)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the match's seed (default 0)")
    parser.add_argument("--rules", default="-", metavar="ID", help="the rules, as a rules id (default '-': standard)")
    parser.add_argument("--out", metavar="FILE", help="write the result to FILE as JSON")
    if records:
        parser.add_argument("--records", metavar="DIR", help="write each game's record to DIR as JSON")
    parser.add_argument("--no-times", action="store_true", help="leave out the thinking times, which vary by run")
    parser.add_argument(
        "--time-limit",
        type=duration_argument,
        metavar="TIME",
        help="stop the match after TIME (90, 30s, 10m, 2h): it keeps the duplicate pairs finished, marked partial",
    )
    parser.add_argument(
        "--checkpoint", metavar="FILE", help="keep the games finished in FILE, as JSON, to resume a stopped match"
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the match FILE holds (same players, games, seed and rules); FILE is the checkpoint then",
    )
    _limit_options(parser)


def _limit_options(parser: argparse.ArgumentParser) -> None:
    """
    The options ``match`` and ``tournament`` share that bound each decision.
    """
    parser.add_argument(
        "--decision-limit",
        type=seconds_argument,
        metavar="SECONDS",
        help="the most seconds a decision may last; one over it is replaced by the seat's first legal action,"
        " and a player still thinking a second later is stopped for the rest of the game",
    )
    parser.add_argument(
        "--cpu-limit",
        type=seconds_argument,
        metavar="SECONDS",
        help="the most CPU seconds a decision may take, every thread of the player counted; kept as --decision-limit",
    )


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
    parser = commands.add_parser(
        "tournament",
        help="play a round robin between bots on duplicate deals, with a cross table and ratings",
        description="Every two players play a match of --games games on the same duplicate deals; the cross"
        " table gives each row's score rate against each column, and the ratings are Elo points of a"
        " Bradley-Terry model fitted to all the games, averaging 0, with 95% bootstrap intervals.",
    )
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="two players or more, as for match")
    _common(parser, default_games=20, records=False)


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
    teams = (make_player(args.first), make_player(args.second))
    rules = parse_rules(args.rules)
    _check_kept(args)
    resume = None if args.resume is None else resume_from(args.resume)
    checkpoint = args.checkpoint if args.checkpoint is not None else args.resume
    if args.records is not None:
        _make_directory(args.records)
    out = None if args.out is None else open_file(args.out)
    try:
        result = _play(args, teams, rules, resume, checkpoint)
    except BaseException as error:
        if out is not None:
            out.discard()
        if isinstance(error, KeyboardInterrupt):
            _say_stopped(checkpoint, args.games, _cause(error), getattr(error, "games", None))
        raise
    if result.partial:
        _say_stopped(checkpoint, args.games, "the time limit", result.summary.games)
    if args.records is not None:
        _write_records(result, Path(args.records))
    if out is not None:
        out.write(result.without_records().to_json() + "\n")
    console.print(summary_table(result))
    if not args.no_times:
        console.print(times_table(result))


def _check_kept(args: argparse.Namespace) -> None:
    """
    Refuse ``--out`` or ``--records`` for a match of more games than may be kept in memory.
    """
    records = getattr(args, "records", None) is not None
    most = MAX_KEPT_RECORDS if records else MAX_KEPT_GAMES
    if (records or args.out is not None) and args.games > most:
        option = "--records" if records else "--out"
        msg = (
            f"{option} keeps every game in memory, at most {most:,}, got --games {args.games:,}: leave it out,"
            " and --checkpoint FILE keeps every game of a bigger match on disk"
        )
        raise InvalidValueError(msg)


def _cause(error: BaseException) -> str:
    """
    What stopped the match, as its message says it: the signal, or an interrupt.
    """
    number = getattr(error, "signal", None)
    return "an interrupt" if number is None else signal.Signals(number).name


def _play(
    args: argparse.Namespace,
    teams: tuple[Player, Player],
    rules: Rules,
    resume: MatchResult | str | None,
    checkpoint: str | None,
) -> MatchResult:
    resumed = 0 if resume is None else _games_in(resume)
    with (
        _signals.watching(terminate=True),
        _executor(args.jobs) as executor,
        _pace.progress(args.games, _pace.Pace(resumed)) as progress,
    ):
        return play_match(
            teams[0],
            teams[1],
            args.games,
            rules=rules,
            seed=args.seed,
            executor=executor,
            progress=progress,
            records=args.records is not None,
            names=(args.first, args.second),
            keep_games=args.records is not None or args.out is not None,
            decision_limit=args.decision_limit,
            cpu_limit=args.cpu_limit,
            time_limit=args.time_limit,
            checkpoint=checkpoint,
            resume=resume,
        )


def resume_from(path: str) -> MatchResult | str:
    """
    What ``--resume FILE`` resumes: the path of a checkpoint, or the result a JSON file holds
    (an earlier checkpoint, or ``--out`` of a partial match).

    Raises:
        OSError: the file cannot be read (its name is in the error).
        InvalidDataError: it is neither (the message starts with the file's name).
    """
    try:
        with Path(path).open("rb") as file:
            start = file.read(4096)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None
    if _checkpoint.is_checkpoint(start):
        return path
    return read_checkpoint(path)


def _games_in(resume: MatchResult | str) -> int:
    """
    The games a match resumed on holds: those of the result, or the pairs' lines of the checkpoint.
    """
    if isinstance(resume, MatchResult):
        return resume.summary.games
    with Path(resume).open("rb") as file:
        lines = sum(block.count(b"\n") for block in iter(lambda: file.read(1 << 20), b""))
    return 2 * max(0, lines - 1)


def read_checkpoint(path: str) -> MatchResult:
    """
    The result a file holds, to resume: a checkpoint, or a match's result as JSON.

    Raises:
        OSError: the file cannot be read (its name is in the error).
        InvalidDataError: it is not a match's result (the message starts with the file's name).
    """
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None
    if _checkpoint.is_checkpoint(text):
        return MatchResult.from_checkpoint(path)
    try:
        return MatchResult.from_json(text)
    except InvalidValueError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None


def _say_stopped(checkpoint: str | None, games: int, cause: str, kept: int | None) -> None:
    """
    Say on standard error how far the match went before *cause* stopped it, and how to go on;
    *kept* is the number of games finished, when it is known (else the checkpoint's lines tell).
    """
    if checkpoint is not None and kept is None:
        with contextlib.suppress(OSError):
            kept = _games_in(checkpoint)
    if checkpoint is None:
        where = "without --checkpoint, the games finished are not kept"
    elif kept:
        where = f"{checkpoint} holds the {kept} games finished: go on with --resume {checkpoint}"
    else:
        where = "no duplicate pair was finished, so nothing is kept"
    _say(f"{cause} stopped the match of {games} games; {where}")


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


@contextmanager
def _executor(jobs: int) -> Iterator[Executor | None]:
    """
    No executor for one job (the games are played here), else a pool of *jobs* processes, its
    workers killed once the match is over or given up: nothing they might still run is needed.
    """
    if jobs == 1:
        yield None
        return
    pool = process_pool(jobs)  # its workers end when this process does, even killed
    # When the workers are killed, Python 3.11's pool may fail a future already cancelled and print
    # the traceback of that from its own thread; later versions let it be, and so does this.
    hook, threading.excepthook = threading.excepthook, _quiet_cancelled
    try:
        yield pool
    finally:
        _end(pool)
        threading.excepthook = hook


def _end(pool: Executor) -> None:
    """
    Kill the workers of *pool* and shut it down: nothing it still runs is waited for.
    """
    if isinstance(pool, Pool):
        pool.kill_workers()
    pool.shutdown(cancel_futures=True)


def _quiet_cancelled(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is not InvalidStateError:
        threading.__excepthook__(args)


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
    count = f"partial: {summary.games} of {result.planned}" if result.partial else str(summary.games)
    title = (
        f"{count} games in {pairs} duplicate pair{'s' if pairs > 1 else ''}, seed {result.seed}, "
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


def _ms_text(ms: float) -> str:
    return f"{ms:.4f}" if ms < 1 else f"{ms:,.1f}"


def times_table(result: MatchResult) -> Table:
    """
    How long each team's player thought per decision, on the wall clock and in CPU time (that of
    the thread that played, which other processes on the machine do not inflate); it varies from
    one run to the next.
    """
    from rich.table import Table  # noqa: PLC0415

    summary = result.summary
    table = Table(title="thinking time (varies by run)", title_justify="left")
    table.add_column("team")
    for label in _team_labels(result):
        table.add_column(label, justify="right")
    table.add_row("wall ms per decision", *(_ms_text(ms) for ms in summary.ms_per_decision))
    table.add_row("CPU ms per decision", *(_ms_text(ms) for ms in summary.cpu_ms_per_decision))
    for name, rates in (("wall", summary.ms_per_decision), ("CPU", summary.cpu_ms_per_decision)):
        seconds = [ms * decisions / 1000 for ms, decisions in zip(rates, summary.decisions, strict=True)]
        table.add_row(f"{name} seconds in all", *(f"{value:,.1f}" for value in seconds))
    if any(summary.overruns):
        table.add_row("decisions over the limit", *(f"{count:,}" for count in summary.overruns))
    return table


def run_tournament(args: argparse.Namespace, open_file: Callable[[str], ResultFile]) -> None:
    """
    Run ``persian-rummy tournament`` as *args* says: the round robin, then its cross table and ratings.
    """
    console = _console()
    importable_here()
    if len(args.players) != len(set(args.players)) or len(args.players) < 2:
        msg = f"a tournament needs two players or more, each named once, got {' '.join(args.players)}"
        raise InvalidValueError(msg)
    players = {name: make_player(name) for name in args.players}
    rules = parse_rules(args.rules)
    resume = None if args.resume is None else _read_tournament_file(args.resume)
    checkpoint = args.checkpoint if args.checkpoint is not None else args.resume
    out = None if args.out is None else open_file(args.out)
    try:
        result = _play_tournament(args, players, rules, resume, checkpoint)
    except BaseException as error:
        if out is not None:
            out.discard()
        if isinstance(error, KeyboardInterrupt):
            where = "without --checkpoint, nothing is kept"
            if checkpoint is not None:
                where = f"{checkpoint} holds the matches and pairs finished: go on with --resume {checkpoint}"
            _say(f"{_cause(error)} stopped the tournament; {where}")
        raise
    if result.partial:
        where = "" if checkpoint is None else f": go on with --resume {checkpoint}"
        _say(f"the time limit stopped the tournament after {len(result.matches)} matches{where}")
    if out is not None:
        out.write(result.to_json() + "\n")
    console.print(cross_table(result))
    console.print(ratings_table(result))


def _play_tournament(
    args: argparse.Namespace,
    players: dict[str, Player],
    rules: Rules,
    resume: TournamentResult | None,
    checkpoint: str | None,
) -> TournamentResult:
    order = pairings(len(players))
    resumed = 0 if resume is None else sum(match.summary.games for match in resume.matches)
    pace = _pace.TournamentPace(order, args.games, resumed)
    with (
        _signals.watching(terminate=True),
        _executor(args.jobs) as executor,
        _pace.progress(args.games * len(order), pace) as progress,
    ):
        return play_tournament(
            players,
            args.games,
            rules=rules,
            seed=args.seed,
            executor=executor,
            progress=progress,
            decision_limit=args.decision_limit,
            cpu_limit=args.cpu_limit,
            time_limit=args.time_limit,
            checkpoint=checkpoint,
            resume=resume,
        )


def _say(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"persian-rummy: {message}", file=sys.stderr)  # noqa: T201


def _read_tournament_file(path: str) -> TournamentResult:
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None
    try:
        return TournamentResult.from_json(text)
    except InvalidValueError as error:
        msg = f"{path}: {error}"
        raise InvalidDataError(msg) from None


def cross_table(result: TournamentResult) -> Table:
    """
    Each row's score rate against each column, with the Wilson 95% interval.
    """
    from rich.table import Table  # noqa: PLC0415

    partial = ", partial" if result.partial else ""
    title = f"score rate of the row against the column [95%], {result.games} games a match{partial}"
    table = Table(title=title, title_justify="left")
    table.add_column("player")
    for name in result.names:
        table.add_column(name, justify="right")
    for name, row in zip(result.names, result.cross_table(), strict=True):
        cells = ["" if cell is None else f"{cell[0]:.3f} [{cell[1][0]:.2f}, {cell[1][1]:.2f}]" for cell in row]
        table.add_row(name, *cells)
    return table


def ratings_table(result: TournamentResult) -> Table:
    """
    The players by rating (`TournamentResult.ratings`): Elo points of a Bradley-Terry model fitted
    to all the games, averaging 0, with the 95% bootstrap interval; those who played no game last.
    """
    from rich.table import Table  # noqa: PLC0415

    table = Table(title="ratings: Elo points, mean 0 [95%]", title_justify="left")
    for column in ("rank", "player", "rating [95%]", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    ratings = result.ratings()
    rated = sorted(
        range(len(result.names)), key=lambda number: math.inf if (r := ratings[number]) is None else -r.rating
    )
    for rank, number in enumerate(rated, start=1):
        rating = ratings[number]
        if rating is None:
            table.add_row(str(rank), result.names[number], "-", "0")
            continue
        low, high = rating.interval
        shown = f"{round(rating.rating):+d} [{round(low):+d}, {round(high):+d}]"
        table.add_row(str(rank), result.names[number], shown, str(rating.games))
    return table


#: The commands of this module, by name, as `persian_rummy.cli` runs them.
COMMANDS: Final[dict[str, Callable[[argparse.Namespace, Callable[[str], ResultFile]], None]]] = {
    "match": run,
    "players": players,
    "tournament": run_tournament,
}
