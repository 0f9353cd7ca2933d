"""
How a match is played: the seeds of its streams, one game between four players, and the tasks
its games are cut into, run here or on an executor.
"""

from __future__ import annotations

import copy
import hashlib
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from typing import Any, Final, TypeAlias, TypeVar, assert_never

import attrs

from .._core import limits as _limits
from .._phases import CALLED as _CALLED
from .._phases import CALLS as _CALLS
from .._phases import DEAL as _DEAL
from .._phases import DEAL_OVER as _DEAL_OVER
from .._phases import DRAW as _DRAW
from .._phases import GAME_OVER as _GAME_OVER
from .._phases import PLAY as _PLAY
from .._unchecked_view import view_of
from ..actions import Action, PlayerAction
from ..bots.players import Player
from ..engine import apply, legal_actions, random_deal
from ..events import Event, Listener, events_of
from ..exceptions import (
    IllegalActionError,
    InvalidValueError,
    MatchError,
    MatchTimeoutError,
    PersianRummyError,
    PlayerError,
)
from ..rules import Rules
from ..state import GameState, new_game

_C = TypeVar("_C")
_R = TypeVar("_R")

#: Units of work (duplicate pairs) per task sent to an executor, at most, by default.
MOST_PER_TASK: Final = 32
#: Called as ``progress(finished, total)`` as the games are finished.
Progress = Callable[[int, int], object]

_MOST: Final = _limits.MAX_ACTIONS
#: The steps of a game: its actions, at most `_MOST`, and the look that finds it over.
_STEPS: Final = range(_MOST + 1)
#: Seconds between two looks for an interrupt while the tasks of a match run on an executor.
_POLL: Final = 0.1


def _held_signals() -> set[signal.Signals]:
    """
    The signals held back while an executor is waited for: SIGINT, and SIGTERM when a handler of
    Python's takes it (as the command's does).
    """
    held = {signal.SIGINT}
    if callable(signal.getsignal(signal.SIGTERM)):
        held.add(signal.SIGTERM)
    return held


@contextmanager
def _interrupts_deferred() -> Iterator[Callable[[], bool]]:
    """
    Hold back interrupts (SIGINT, and SIGTERM when Python handles it) while this thread hands work
    to an executor and waits for it; yield a function that says whether one came.  The interrupt is
    raised when the block ends.

    An interrupt raised in the middle of an executor's bookkeeping can leave one of its locks
    taken, and its thread, which the interpreter waits for on exit, blocked for ever.  Held back,
    it is raised here instead, at a point where nothing is held.  Only the main thread of a
    POSIX process receives interrupts; elsewhere nothing is held back.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield lambda: False
        return
    signals = _held_signals()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield lambda: not signals.isdisjoint(signal.sigpending())
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a pending interrupt is raised now


def derived_seed(seed: int, *parts: object) -> int:
    """
    A 64-bit seed for the stream named by *parts* of the match of *seed*: the same in every
    process and whatever ``PYTHONHASHSEED`` is (a hash of the text, not Python's ``hash``).

    >>> derived_seed(1, "deck", 0)
    2607637606844801568
    """
    return _seed_of("/".join(str(part) for part in ("persian-rummy match", seed, *parts)))


def player_seeds(seed: int, game: int) -> tuple[int, int, int, int]:
    """
    The seeds of the four players' streams in game *game* of the match of *seed*, by seat: each
    ``derived_seed(seed, "player", game, seat)``, their common text made once.

    >>> player_seeds(1, 0)[3] == derived_seed(1, "player", 0, 3)
    True
    """
    text = f"persian-rummy match/{seed}/player/{game}/"
    return (_seed_of(text + "0"), _seed_of(text + "1"), _seed_of(text + "2"), _seed_of(text + "3"))


def _seed_of(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def spans(units: int, chunk: int | None) -> list[range]:
    """
    *units* cut into tasks of *chunk* units, by default a sixteenth of them, 1 to `MOST_PER_TASK`.

    >>> spans(5, 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    >>> len(spans(200, None)), len(spans(100_000, None))
    (17, 3125)
    """
    per_task = max(1, min(MOST_PER_TASK, units // 16)) if chunk is None else chunk
    return [range(start, min(units, start + per_task)) for start in range(0, units, per_task)]


@attrs.frozen
class Budget:
    """
    When a match's tasks stop: *deadline*, a ``time.monotonic()`` after which no more work is
    waited for (the results so far are returned), and *timeout*, one after which an executor's
    match raises `MatchTimeoutError` (`None`: never).
    """

    deadline: float | None = None
    timeout: float | None = None


def run(  # noqa: PLR0913
    executor: Executor | None,
    task: Callable[[_C, int, int], Sequence[_R]],
    context: _C,
    parts: Sequence[range],
    per_unit: int,
    progress: Progress | None,
    budget: Budget = Budget(),
    done: list[_R] | None = None,
) -> list[_R]:
    """
    What ``task(context, part.start, part.stop)`` returns for each part, *per_unit* results for
    each unit of it, joined in the order of *parts* whatever order they finish in: here one
    after the other, or on *executor*.  *progress* is told how many results are in after each part.

    *done* (by default a list of its own) receives the results of the parts finished from the
    first on, in order, as they come in: what is kept of a match that is stopped.  Past the
    *budget*'s deadline, once at least one part is in, the parts not started or not finished are
    given up and the results of *done* returned.

    Raises:
        MatchTimeoutError: the *budget*'s timeout passed with the tasks on *executor* unfinished.
    """
    total = per_unit * sum(len(part) for part in parts)
    results: list[_R] = [] if done is None else done
    if executor is None:
        finished = 0
        for part in parts:
            played = task(context, part.start, part.stop)
            results.extend(played)
            finished += len(played)
            if progress is not None:
                progress(finished, total)
            if budget.deadline is not None and time.monotonic() > budget.deadline:
                break
        return results
    return _run_on(executor, task, context, parts, (progress, total), budget, results)


def _run_on(  # noqa: PLR0913
    executor: Executor,
    task: Callable[[_C, int, int], Sequence[_R]],
    context: _C,
    parts: Sequence[range],
    told: tuple[Progress | None, int],
    budget: Budget,
    results: list[_R],
) -> list[_R]:
    progress, total = told
    submitted: list[Future[Sequence[_R]]] = []
    try:
        with _interrupts_deferred() as interrupted:
            submitted.extend(executor.submit(task, context, part.start, part.stop) for part in parts)
            finished, kept = 0, 0
            waiting = set(submitted)
            while waiting and not interrupted():
                done, waiting = wait(waiting, timeout=_POLL, return_when=FIRST_COMPLETED)
                for future in done:
                    finished += len(_outcome(future))  # the first failure is raised at once
                    if progress is not None:
                        progress(finished, total)
                while kept < len(submitted) and submitted[kept].done():
                    results.extend(_outcome(submitted[kept]))
                    kept += 1
                if _over(budget, kept):
                    break
    except BaseException:
        for future in submitted:
            future.cancel()
        raise
    for future in submitted[kept:]:
        future.cancel()
    return results


def _outcome(future: Future[Sequence[_R]]) -> Sequence[_R]:
    """
    What a finished task returned; an error of the executor's, not the package's, raised as a `MatchError`.
    """
    try:
        return future.result()
    except PersianRummyError:
        raise
    except Exception as error:
        msg = f"the executor failed to run a task of the match: {type(error).__name__}: {error}"
        raise MatchError(msg) from error


def _over(budget: Budget, kept: int) -> bool:
    """
    Whether the tasks are to be given up: past the deadline with a part kept, or past the timeout.
    """
    now = time.monotonic()
    if budget.timeout is not None and now > budget.timeout:
        msg = "the match did not finish within its timeout on the executor; its tasks are cancelled"
        raise MatchTimeoutError(msg)
    return budget.deadline is not None and now > budget.deadline and kept > 0


@attrs.frozen
class Seated:
    """
    What a game's playout needs besides its decks and seeds: the players' names, by seat, for the
    errors, and the seconds a decision may last (`None`: no limit).
    """

    names: tuple[str, str, str, str] = ("player", "player", "player", "player")
    limit: float | None = None


#: What a game's playout returns: the final state, every action, and by seat the decisions, the
#: wall and CPU seconds of thinking and the decisions over the limit.
Played: TypeAlias = tuple[GameState, list[Action], list[int], list[float], list[float], list[int]]


def playout(  # noqa: PLR0913
    rules: Rules,
    dealer: int,
    players: Sequence[Player],
    deck_seed: int,
    seeds: Sequence[int],
    game: int,
    seated: Seated = Seated(),
) -> Played:
    """
    Play game number *game* of a match to its end, as `Played` says.  The decks are shuffled by a
    ``random.Random`` of *deck_seed*; the player of each seat has one of *seeds* and sees its seat's view,
    or only its legal actions (`LegalActionsPlayer`); listeners are told the events (`_seated`); decisions
    are timed and limited by `_Decider`.  Raises `IllegalActionError` for an illegal choice (naming the seat
    and the game), `PlayerError` for a player's exception, `InvalidValueError` after 100,000 actions.
    """
    choose, shown, sources, listening = _seated(players, seeds)
    decide = _Decider(seated, game)
    decks = random.Random(deck_seed)  # noqa: S311 (a game, not a secret)
    actions: list[Action] = []
    record, state = actions.append, new_game(rules, dealer=dealer)
    for number in _STEPS:
        phase = state.phase
        if phase is _PLAY or phase is _DRAW or phase is _CALLS or phase is _CALLED:
            seat: int = state.to_act  # type: ignore[assignment]  # a player is to act
            given = view_of(state, seat) if shown[seat] else legal_actions(state)  # or the actions alone
            action: Action = decide(choose[seat], given, sources[seat], state, seat, number)
        elif phase is _GAME_OVER:
            break
        elif phase is _DEAL or phase is _DEAL_OVER:
            action = random_deal(state, decks)
        else:
            assert_never(phase)
        record(action)
        try:
            after = apply(state, action)
        except IllegalActionError as error:
            raise _chose_illegal(error, state, game) from None
        if listening:
            _tell(listening, events_of(state, action, after), decide.thinking)
        state = after
    else:
        raise _too_long(game)
    return state, actions, decide.decisions, decide.thinking, decide.cpu, decide.overruns


class _Overrun(BaseException):
    """
    Raised in a player by the alarm of its decision's limit: a `BaseException`, which a player's
    ``except Exception`` lets pass.
    """


def _alarm(_: int, __: object) -> None:
    raise _Overrun


class _Decider:
    """
    Asks the players of one game for their decisions, timed on the wall clock and in CPU time, and
    counts them.

    With a limit, a decision that lasts longer is replaced by the first of the seat's legal
    actions and counted as an overrun.  In the main thread of a process that has
    ``signal.setitimer`` (POSIX), an alarm also stops a player still thinking at the limit, unless it
    holds the interpreter in code that is not Python's; elsewhere the limit is applied when the
    player returns.
    """

    def __init__(self, seated: Seated, game: int) -> None:
        self.seated, self.game = seated, game
        self.decisions, self.overruns = [0, 0, 0, 0], [0, 0, 0, 0]
        self.thinking, self.cpu = [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]
        limit = seated.limit
        self.alarm = (
            limit is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )

    def __call__(  # noqa: PLR0913
        self,
        choose: Callable[[Any, random.Random], PlayerAction],
        given: object,
        rng: random.Random,
        state: GameState,
        seat: int,
        number: int,
    ) -> PlayerAction:
        limit = self.seated.limit
        start, cpu_start = time.perf_counter(), time.thread_time()
        try:
            action = choose(given, rng) if limit is None else self._limited(choose, given, rng, limit)
        except _Overrun:  # the alarm rang as the player returned
            action = None
        except Exception as error:
            name = self.seated.names[seat]
            raise PlayerError(name, seat, self.game, self.decisions[seat] + 1, number) from error
        self.cpu[seat] += time.thread_time() - cpu_start
        elapsed = time.perf_counter() - start
        self.thinking[seat] += elapsed
        self.decisions[seat] += 1
        if action is None or (limit is not None and elapsed > limit):
            self.overruns[seat] += 1
            return legal_actions(state)[0]
        return action

    def _limited(
        self, choose: Callable[[Any, random.Random], PlayerAction], given: object, rng: random.Random, limit: float
    ) -> PlayerAction | None:
        if not self.alarm:
            return choose(given, rng)
        before = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            return choose(given, rng)
        except _Overrun:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, before)


def _seated(
    players: Sequence[Player], seeds: Sequence[int]
) -> tuple[
    list[Callable[[Any, random.Random], PlayerAction]], list[bool], list[random.Random], list[tuple[int, Listener]]
]:
    """
    What the players of a game need, by seat: how each chooses, whether it is shown its view, its
    random source, and the seats that listen with their listeners.

    A player chooses with ``choose(view, rng)``, or with ``choose_among(legal_actions, rng)`` if it
    has that method (a `LegalActionsPlayer`), when it is not shown its view.  A player that is a
    `Listener` plays as a fresh copy of itself, one for each seat it takes, told every action as
    its seat saw it (`events_of`), the time it takes to hear counted as thinking.  The events are
    worked out only when some player listens.
    """
    # What isinstance(player, Listener) looks at, several times faster: the players of every game are checked.
    seated = [copy.deepcopy(player) if hasattr(player, "hear") else player for player in players]
    listening: list[tuple[int, Listener]] = [
        (seat, player)  # type: ignore[misc]  # a listener, as above
        for seat, player in enumerate(seated)
        if hasattr(player, "hear")
    ]
    among = [getattr(player, "choose_among", None) for player in seated]
    choose = [player.choose if picker is None else picker for player, picker in zip(seated, among, strict=True)]
    sources = [random.Random(seed) for seed in seeds]  # noqa: S311 (a game, not a secret)
    return choose, [picker is None for picker in among], sources, listening


def _too_long(game: int) -> InvalidValueError:
    return InvalidValueError(f"game {game} has not ended after {_MOST:,} actions")


def _chose_illegal(error: IllegalActionError, state: GameState, game: int) -> IllegalActionError:
    reason = f"the player of seat {state.to_act} chose it in game {game}: {error.reason}"
    return IllegalActionError(error.action, reason, error.rule)


def _tell(listening: Sequence[tuple[int, Listener]], events: Sequence[Event], thinking: list[float]) -> None:
    """
    Tell each listening player its seat's event, its time counted in *thinking*.
    """
    clock = time.perf_counter
    for seat, player in listening:
        start = clock()
        player.hear(events[seat])
        thinking[seat] += clock() - start
