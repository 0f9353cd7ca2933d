"""
``persian-rummy match FIRST SECOND``: a match between two players as `persian_rummy.matches` plays
it, on duplicate deals, and its summary.

The players are named as `persian_rummy.bots.players.make_player` names them, and ``--jobs N`` plays
the games on N processes (`persian_rummy.cli._match_setup`).  While the games are played, a progress
bar shows on standard error when it is a terminal, with the games per second and the time left; a
match that will take long says so at its start.  Then a table of the summary is printed on standard
output, and a table of the players' thinking times, wall clock and CPU, unless ``--no-times`` (the
times differ from run to run, the rest never does).  ``--out FILE`` writes the result as JSON,
``--records DIR`` every game's record (both keep the games in memory; without them memory does not
grow with the games); ``--time-limit``, ``--checkpoint`` and ``--resume`` stop, keep and continue a
match; ``--decision-limit`` and ``--cpu-limit`` bound each decision.  SIGINT (Ctrl-C) and SIGTERM
stop it at once, the pairs finished in the checkpoint, with status 130 and a line that says how to
go on.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots.players import Player, make_player
from ..exceptions import InvalidDataError, InvalidValueError
from ..matches import MAX_KEPT_GAMES, MAX_KEPT_RECORDS, MatchResult, MatchSummary, _checkpoint, _signals, play_match
from ..notation import format_rules, parse_rules
from ..rules import Rules
from ..serialize import to_json
from . import _match_setup, _pace

if TYPE_CHECKING:
    from rich.table import Table


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``match`` command's *parser* its arguments.
    """
    parser.add_argument(
        "first",
        type=_match_setup.player_argument,
        metavar="FIRST",
        help="the first team's player: random, greedy, pimc:200, module:attribute, ...",
    )
    parser.add_argument("second", type=_match_setup.player_argument, metavar="SECOND", help="the second team's player")
    _match_setup.common(parser, default_games=100)


def run(args: argparse.Namespace, open_file: Callable[[str], _match_setup.ResultFile]) -> None:
    """
    Run ``persian-rummy match`` as *args* says; *open_file* opens the ``--out`` file, before the match.
    """
    console = _match_setup.console()
    _match_setup.importable_here()
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
            _say_stopped(checkpoint, args.games, _match_setup.cause(error), getattr(error, "games", None))
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
        _match_setup.executor(args.jobs) as executor,
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
    _match_setup.say(f"{cause} stopped the match of {games} games; {where}")


def _make_directory(path: str) -> None:
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None


def _write_records(result: MatchResult, directory: Path) -> None:
    width = len(str(len(result.games) - 1))
    kept = [(game.index, game.record) for game in result.games if game.record is not None]  # all: the match kept them
    for index, record in kept:
        path = directory / f"game-{index:0{width}}.json"
        try:
            path.write_text(to_json(record, pretty=True) + "\n", encoding="utf-8")
        except OSError as error:
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None


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
