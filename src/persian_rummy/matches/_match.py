"""
Playing a match: `persian_rummy.matches.play_match` and its keywords (`Bounds`, `Limits`), and what
a tournament's matches share with it: the match as its workers receive it (`Match`), its pairs
played here or in tasks on an executor into its result and checkpoint, resumed from either.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Final, TypedDict, Unpack

import attrs
from attrs import frozen

from .. import limits as _limits
from ..bots.players import Player
from ..exceptions import InvalidValueError
from ..notation import format_rules
from ..records import GameRecord
from ..rules import DEFAULT_RULES, Rules
from . import _checkpoint, _checks, _game, _options, _results, _runner, _signals, _sink, _workers
from . import _play as _matchplay
from ._game import GameResult
from ._options import Team
from ._results import MatchResult


@frozen
class Match:
    """
    What every game of a match needs: sent to each worker with its share of the games.
    """

    teams: tuple[tuple[Player, Player], tuple[Player, Player]]
    names: tuple[str, str]
    rules: Rules = DEFAULT_RULES
    seed: int = 0
    records: bool = False
    limits: _workers.Limits = _workers.NO_LIMITS


class Bounds(TypedDict, total=False):
    """
    The keywords of `play_match` and `play_tournament` that bound them and keep what they played;
    each is optional.

    Attributes:
        decision_limit: The most seconds of wall clock a decision may last (none by default).
            Each player then thinks in a process of its own (where processes fork: POSIX),
            stopped by an alarm at the limit and killed a second later (the grace) if it goes
            on (catching the alarm, or busy in code that is not Python's): stopped for good, its
            seat plays the default move, the first of its legal
            actions, at every decision left in the game, and the next game starts it afresh.  A
            decision over the limit is replaced by that default move and counted in
            `GameResult.overruns`.  Elsewhere the limit is applied when the player returns.
            Results with overruns depend on the machine's speed.
        cpu_limit: The most CPU seconds a decision may take, every thread of the player counted
            (none by default): kept as *decision_limit* is, by the CPU clock of the player's
            process, which the kernel also stops (``RLIMIT_CPU``) within a second past the grace.
            A player waiting (asleep, or on a server) takes no CPU time: *decision_limit* bounds that.
        time_limit: The most seconds of wall clock the match may take, from its start (planning
            the games costs nothing).  Once over it, the match stops after the duplicate pair
            under way (one pair at least is played): on a `process_pool` the tasks under way give
            up and hand in the pairs they finished, on another executor the tasks unfinished are
            given up.  It returns the complete pairs finished from the first on, a
            `MatchResult.partial` result.
        timeout: On an executor, the seconds after which a match whose tasks are unfinished
            raises `MatchTimeoutError` (its tasks cancelled) instead of waiting for ever.
        checkpoint: A file of JSON lines (`MatchResult.from_checkpoint` reads it, *resume* takes
            it): the match's head, then a line appended for each duplicate pair as soon as it and
            all those before it are finished.  It is never written again whole, and a match
            stopped in any way (its time limit, SIGINT, an error, even ``kill -9``) leaves in it
            every pair it finished.
    """

    decision_limit: float | None
    cpu_limit: float | None
    time_limit: float | None
    timeout: float | None
    checkpoint: str | os.PathLike[str] | None


class Limits(Bounds, total=False):
    """
    The keywords of `play_match` beyond its arguments: those of `Bounds`, and *resume*.

    Attributes:
        resume: A partial result of the same match (players, rules, seed and records), or the
            path of its checkpoint, whose games are kept; the match plays on from the pair after
            its last, appending to the checkpoint when it is the same file.  The result is that
            of an uninterrupted run.
    """

    resume: MatchResult | str | os.PathLike[str] | None


#: The names of the keywords of `Bounds`, and of `Limits`.
BOUNDS: Final = frozenset(Bounds.__annotations__)
LIMITS: Final = frozenset(Limits.__annotations__)


def keywords(limits: Bounds, known: frozenset[str], resume: object = None) -> _options.Keywords:
    """
    The keywords *limits* (of the names *known*, any other refused) and *resume*, as a value.
    """
    _options.refuse_unknown(limits, known)
    return _options.Keywords(
        decision_limit=limits.get("decision_limit"),
        cpu_limit=limits.get("cpu_limit"),
        time_limit=limits.get("time_limit"),
        timeout=limits.get("timeout"),
        checkpoint=limits.get("checkpoint"),
        resume=resume,
    )


def play_match(  # noqa: PLR0913
    first: Team,
    second: Team,
    games: int,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    records: bool = False,
    names: Sequence[str] | None = None,
    chunk_size: int | None = None,
    keep_games: bool = True,
    **limits: Unpack[Limits],
) -> MatchResult:
    """
    Play *games* games, in duplicate pairs, between the teams *first* and *second*.

    *first* and *second* are each a `Player` for both the team's seats, or a pair of players.
    *games* is even, two for each deck sequence, at most `MAX_GAMES`.  *rules* are those of every
    game (Persian Rummy's by default) and *seed*, an integer from 0 to 2**64 - 1, decides the match.
    *executor* is where to play (any ``concurrent.futures.Executor``: a process pool, a Dask
    client's ``get_executor()``; `None` plays here), in tasks of *chunk_size* games (whole pairs;
    by default a sixteenth of the games, 2 to 64) made as they are sent, the players and the rules
    then picklable.  *progress* is called as ``progress(finished, games)``; *records* keeps each
    game's `GameRecord`; *names* are the teams' (by default the players' class names).
    *keep_games* keeps every game in the result (at most `MAX_KEPT_GAMES`, or `MAX_KEPT_RECORDS`);
    without, the result holds its summary alone and memory does not grow with the games.  The
    *limits* are those of `Limits`.  SIGINT raises `KeyboardInterrupt`, the pairs finished checkpointed.

    Raises:
        InvalidValueError: an argument is out of range, or *resume* not of this match (or no checkpoint).
        InvalidTypeError: an argument is not of its type.
        IllegalActionError: a player chose an action that is not legal.
        PlayerError: a player raised (chained) or returned no action; with its seat, game and decision.
        MatchError: the executor failed (MatchTimeoutError: *timeout* passed).
    """
    teams = (_options.team(first, "first"), _options.team(second, "second"))
    match = Match(teams, _options.team_names(names, first, second), _options.rules(rules), _options.seed(seed))
    plan = _options.plan(keywords(limits, LIMITS, limits.get("resume")), executor, progress)
    match = attrs.evolve(match, records=_options.flag(records, "records"), limits=plan.limits)
    pairs, keep = _options.pair_count(games), _options.flag(keep_games, "keep_games")
    _options.kept(games, keep=keep, records=match.records)
    return played(match, pairs, attrs.evolve(plan, per_task=_options.chunk(chunk_size)), keep=keep)


def played(
    match: Match,
    pairs: int,
    plan: _options.Plan,
    *,
    keep: bool,
    stopped: Callable[[MatchResult], object] | None = None,
) -> MatchResult:
    """
    The *pairs* duplicate pairs of *match* played as *plan* says, from those of the match it
    resumes on, into its checkpoint; told to *stopped*, if given, when the match raises with a
    pair finished.
    """
    sink: _sink.Sink[GameResult] = _sink.Sink(2 * pairs, keep, _game.game_data, (plan.progress, plan.budget))
    _resumed(plan, match, 2 * pairs, sink)
    units = range(sink.pairs, pairs)
    try:
        with _signals.watching():
            if plan.executor is None:
                _runner.run_here(_play_span, match, units, sink.deliver)
            else:
                size = _runner.per_task(pairs - sink.pairs, plan.per_task)
                told = (sink.deliver_quietly, sink.finished)
                _runner.run(plan.executor, _play_pairs, match, units, (size, 2), told, plan.budget)
    except BaseException as error:
        if isinstance(error, _signals.Interrupted):
            error.games = 2 * sink.pairs  # what the checkpoint holds, for the command to say
        if stopped is not None and sink.pairs:
            stopped(_result(match, 2 * pairs, sink))
        raise
    finally:
        sink.close()
    return _result(match, 2 * pairs, sink)


def _result(match: Match, planned: int, sink: _sink.Sink[GameResult]) -> MatchResult:
    if sink.keep:  # the summary is worked out from the games
        games = sink.games
        return MatchResult(names=match.names, rules=match.rules, seed=match.seed, games=games, planned=planned)
    summary = _results.summary_of(sink.tally)
    return MatchResult(
        names=match.names, rules=match.rules, seed=match.seed, games=(), planned=planned, summary=summary
    )


def _resumed(plan: _options.Plan, match: Match, games: int, sink: _sink.Sink[GameResult]) -> None:
    """
    Count into *sink* the games of the match that *plan* resumes, if it is a result (or the
    checkpoint) of *match* with no more than *games* games, and open the checkpoint
    (`_checkpoint.open_for`).
    """
    resume, head = plan.resume, _checkpoint_head(match, games)
    lines: Iterator[bytes] = iter(())
    reader = None
    if isinstance(resume, MatchResult):
        lines = _result_lines(_resumable(resume, match, games), sink)
    elif resume is not None:
        reader = _checkpoint.Reader(_options.path_or_none(resume, "resume") or Path())
        read = partial(_results.pair_of, match=match, records=match.records)
        lines = _checkpoint.pair_lines(reader, head, games, read, sink.resume)
    sink.writer = _checkpoint.open_for(plan.checkpoint, head, lines, reader)


def _result_lines(kept: Sequence[GameResult], sink: _sink.Sink[GameResult]) -> Iterator[bytes]:
    """
    The checkpoint's lines of the pairs *kept*, each counted into *sink* as it is made.
    """
    for start in range(0, len(kept), 2):
        pair = kept[start : start + 2]
        sink.resume(pair)
        yield _checkpoint.pair_line(start // 2, [_game.game_data(game) for game in pair])


def _checkpoint_head(match: Match, games: int) -> dict[str, object]:
    return _checkpoint.head(match.names, format_rules(match.rules), match.seed, games, records=match.records)


def _resumable(resume: MatchResult, match: Match, games: int) -> tuple[GameResult, ...]:
    """
    The games *resume* holds, if it is a result of *match* with no more than *games* games.
    """
    mine = (match.names, format_rules(match.rules), match.seed)
    theirs = (resume.names, format_rules(resume.rules), resume.seed)
    for what, given, kept in zip(("names", "rules", "seed"), mine, theirs, strict=True):
        if given != kept:
            msg = (
                f"resume is a result of another match: its {what} are {_limits.shown(kept)}, not {_limits.shown(given)}"
            )
            raise InvalidValueError(msg)
    if not resume.games:
        msg = "resume holds no games (its match did not keep them): resume from its checkpoint, by its path"
        raise InvalidValueError(msg)
    kept = any(game.record is not None for game in resume.games)
    if len(resume.games) > games or any((game.record is not None) != match.records for game in resume.games):
        msg = f"resume holds {len(resume.games)} games, records {'kept' if kept else 'left out'}: it cannot be"
        msg += f" resumed as a match of {games} games that {'keeps' if match.records else 'leaves out'} records"
        raise InvalidValueError(msg)
    return resume.games


def _play_span(match: Match, start: int, stop: int, deliver: _runner.Deliver[GameResult]) -> None:
    """
    Play the pairs from *start* to *stop* (excluded), each handed on as it is finished, until
    *deliver* says to stop or the match is stopped (`_signals.Stop`, the pair under way given up).
    """
    with _signals.task(), _workers.processes(match.teams, match.limits) as processes:
        try:
            for pair in range(start, stop):
                if not deliver((_play_game(match, 2 * pair, processes), _play_game(match, 2 * pair + 1, processes))):
                    return
        except _signals.Stop:
            return


def _play_pairs(match: Match, start: int, stop: int) -> tuple[GameResult, ...]:
    """
    Both games of each pair from *start* to *stop* (excluded): the task an executor runs.  Stopped
    (SIGINT in a worker), it returns the pairs it finished.
    """
    played: list[GameResult] = []

    def keep(pair: Sequence[GameResult]) -> bool:
        played.extend(pair)
        return True

    _play_span(match, start, stop, keep)
    return tuple(played)


def _play_game(match: Match, index: int, processes: list[list[_workers.PlayerProcess]] | None = None) -> GameResult:
    pair, second = divmod(index, 2)
    seats = _checks.LAYOUTS[second]
    players: list[Player] = [match.teams[0][0]] * 4
    for team, (seat, opposite) in enumerate(seats):
        players[seat], players[opposite] = match.teams[team]
    deck_seed = _matchplay.derived_seed(match.seed, "deck", pair)
    seeds = _matchplay.player_seeds(match.seed, index)
    first_dealer = pair % 4
    names = [match.names[int(seat in seats[1])] for seat in range(4)]
    seated = _matchplay.Seated(
        (names[0], names[1], names[2], names[3]), match.limits, _workers.by_seat(seats, processes)
    )
    state, actions, decisions, thinking, cpu, overruns = _matchplay.playout(
        match.rules, first_dealer, players, deck_seed, seeds, index, seated
    )
    record = None
    if match.records:
        record = GameRecord(
            rules=match.rules,
            first_dealer=first_dealer,
            actions=actions,
            players=names,
            event=f"persian-rummy match, seed {_limits.shown(match.seed)}, game {index}",
        )
    return GameResult(
        index=index,
        deck_seed=deck_seed,
        seeds=seeds,
        first_dealer=first_dealer,
        seats=seats,
        deals=state.results,
        decisions=(decisions[0], decisions[1], decisions[2], decisions[3]),
        thinking=(thinking[0], thinking[1], thinking[2], thinking[3]),
        cpu=(cpu[0], cpu[1], cpu[2], cpu[3]),
        overruns=(overruns[0], overruns[1], overruns[2], overruns[3]),
        record=record,
    )
