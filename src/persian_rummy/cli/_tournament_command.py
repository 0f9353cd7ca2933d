"""
``persian-rummy tournament A B C ...``: a round robin between players as `persian_rummy.matches`
plays it, every two players a match on the same duplicate deals, with a cross table of score rates
and the players' ratings.

It takes the players, the options and the stops of ``persian-rummy match``
(`persian_rummy.cli._match_setup`), but ``--records``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ..bots.players import Player, make_player
from ..exceptions import InvalidDataError, InvalidValueError
from ..matches import TournamentResult, _signals, pairings, play_tournament
from ..notation import parse_rules
from ..rules import Rules
from . import _match_setup, _pace

if TYPE_CHECKING:
    from rich.table import Table

#: What ``persian-rummy tournament --help`` says of the command.
DESCRIPTION: Final = (
    "Every two players play a match of --games games on the same duplicate deals; the cross"
    " table gives each row's score rate against each column, and the ratings are Elo points of a"
    " Bradley-Terry model fitted to all the games, averaging 0, with 95% bootstrap intervals."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Give the ``tournament`` command's *parser* its arguments.
    """
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="two players or more, as for match")
    _match_setup.common(parser, default_games=20, records=False)


def run(args: argparse.Namespace, open_file: Callable[[str], _match_setup.ResultFile]) -> None:
    """
    Run ``persian-rummy tournament`` as *args* says: the round robin, then its cross table and ratings.
    """
    console = _match_setup.console()
    _match_setup.importable_here()
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
            _match_setup.say(f"{_match_setup.cause(error)} stopped the tournament; {where}")
        raise
    if result.partial:
        where = "" if checkpoint is None else f": go on with --resume {checkpoint}"
        _match_setup.say(f"the time limit stopped the tournament after {len(result.matches)} matches{where}")
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
        _match_setup.executor(args.jobs) as executor,
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
