"""
How a game of a match is played: the seeds of its streams, and one game between four players,
who choose here or, with a limit per decision, each in a process of its own (`_workers`).
"""

from __future__ import annotations

import copy
import hashlib
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias, TypeGuard

import attrs

from .. import limits as _limits
from ..actions import Action, PlayerAction
from ..bots.players import Player
from ..engine import apply, legal_actions, random_deal
from ..events import Event, Listener, events_of
from ..exceptions import IllegalActionError, InvalidValueError, PlayerError
from ..rules import Rules
from ..state import GameState, Phase, new_game
from ..views import observe
from . import _signals, _workers

#: Called as ``progress(finished, total)`` as the games are finished.
Progress = Callable[[int, int], object]

_MOST: Final = _limits.MAX_ACTIONS
#: The steps of a game: its actions, at most `_MOST`, and the look that finds it over.
_STEPS: Final = range(_MOST + 1)
#: The types of the actions a player may choose.
_ACTIONS: Final = _workers.ACTIONS


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


@attrs.frozen
class Seated:
    """
    What a game's playout needs besides its decks and seeds: the players' names, by seat, for the
    errors, the limits of a decision, and the players' processes by seat when they run in
    processes of their own (`_workers.processes`).
    """

    names: tuple[str, str, str, str] = ("player", "player", "player", "player")
    limits: _workers.Limits = _workers.NO_LIMITS
    processes: tuple[_workers.PlayerProcess, ...] | None = None


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
    Play game number *game* of a match to its end, as `Played` says: the decks shuffled by a
    ``random.Random`` of *deck_seed*, each seat's player with one of *seeds*, asked by `_Decider`
    (here) or `_Remote` (in its process).  Raises `IllegalActionError` for an illegal choice (naming
    the seat and the game), `PlayerError` for a player's failure, `InvalidValueError` after 100,000 actions.
    """
    remote = seated.processes
    decide = _Decider(players, seeds, seated, game) if remote is None else _Remote(players, seeds, seated, game, remote)
    shown, listening = decide.shown, decide.listening
    decks = random.Random(deck_seed)  # noqa: S311 (a game, not a secret)
    actions: list[Action] = []
    record, state = actions.append, new_game(rules, dealer=dealer)
    for number in _STEPS:
        seat = state.to_act
        if seat is not None:  # phases draw, play, calls and called
            given = observe(state, seat) if shown[seat] else legal_actions(state)  # or the actions alone
            action: Action = decide(given, state, seat, number)
        elif state.phase is Phase.GAME_OVER:
            break
        else:  # phases deal and deal_over
            action = random_deal(state, decks)
        record(action)
        try:
            after = apply(state, action)
        except IllegalActionError as error:
            raise _chose_illegal(error, state, game) from None
        if listening:
            decide.tell(events_of(state, action, after), number)
        state = after
    else:
        raise _too_long(game)
    return state, actions, decide.decisions, decide.thinking, decide.cpu, decide.overruns


def _failed(seated: Seated, game: int, at: tuple[int, int, int], why: tuple[str, str]) -> PlayerError:
    """
    The `PlayerError` of the player of seat *at[0]*, at its decision *at[1]* and the game's action
    *at[2]*: *why* is what went wrong and the player's traceback.
    """
    seat, decision, number = at
    reason, trace = why
    return PlayerError(seated.names[seat], seat, game, decision, number, reason=reason, traceback=trace)


class _Decider:
    """
    Asks the players of one game, here, for their decisions, timed on the wall clock and in CPU
    time, and counts them.

    The CPU time is the process's in the main thread (every thread of the player counted, and of
    anything else the process runs meanwhile), the thread's elsewhere (a thread pool's: the others
    play other games).  Whatever a player raises is its `PlayerError`, but a stop of the match
    (`_signals.Stop`), which is raised again when a player returns after catching it; so is a value
    that is not an action.  With a limit (where players cannot run in processes of their own),
    a decision that lasts longer is replaced by the first of the seat's legal actions and counted
    as an overrun.
    """

    def __init__(self, players: Sequence[Player], seeds: Sequence[int], seated: Seated, game: int) -> None:
        self.seated, self.game = seated, game
        self.decisions, self.overruns = [0, 0, 0, 0], [0, 0, 0, 0]
        self.thinking, self.cpu = [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]
        main = threading.current_thread() is threading.main_thread()
        self.clock = time.process_time if main else time.thread_time
        self.pending = _signals.PENDING if main else [None]  # signals reach the main thread alone
        self.choose, self.shown, self.sources, self.heard = _seated(players, seeds)
        self.listening = bool(self.heard)
        self.limited = seated.limits.any

    def __call__(self, given: object, state: GameState, seat: int, number: int) -> PlayerAction:
        start, cpu_start = time.perf_counter(), self.clock()
        try:
            action = self.choose[seat](given, self.sources[seat])
        except _signals.Stop:
            raise
        except BaseException as error:
            why = (_workers.describe(error), _workers.player_traceback(error))
            raise _failed(self.seated, self.game, (seat, self.decisions[seat] + 1, number), why) from error
        self.cpu[seat] += self.clock() - cpu_start
        elapsed = time.perf_counter() - start
        self.thinking[seat] += elapsed
        self.decisions[seat] += 1
        stop = self.pending[0]
        if stop is not None:
            raise stop
        if type(action) not in _ACTIONS:
            why = (_workers.not_an_action(action) or "", "")
            raise _failed(self.seated, self.game, (seat, self.decisions[seat], number), why)
        if self.limited and self._over(elapsed, self.clock() - cpu_start):
            self.overruns[seat] += 1
            return legal_actions(state)[0]
        return action

    def _over(self, wall: float, cpu: float) -> bool:
        limits = self.seated.limits
        return (limits.wall is not None and wall > limits.wall) or (limits.cpu is not None and cpu > limits.cpu)

    def tell(self, events: Sequence[Event], number: int) -> None:
        """
        Tell each listening player its seat's event, its time counted as thinking.
        """
        clock = time.perf_counter
        for seat, player in self.heard:
            start = clock()
            try:
                player.hear(events[seat])
            except _signals.Stop:
                raise
            except BaseException as error:
                why = (_workers.describe(error), _workers.player_traceback(error))
                raise _failed(self.seated, self.game, (seat, self.decisions[seat] + 1, number), why) from error
            self.thinking[seat] += clock() - start


class _Remote:
    """
    Asks the players of one game, each in its process (`_workers`), for their decisions; a player
    stopped for good at its limit plays the first legal action at every decision left in the game.
    """

    def __init__(
        self,
        players: Sequence[Player],
        seeds: Sequence[int],
        seated: Seated,
        game: int,
        processes: tuple[_workers.PlayerProcess, ...],
    ) -> None:
        self.seated, self.game, self.processes = seated, game, processes
        self.decisions, self.overruns = [0, 0, 0, 0], [0, 0, 0, 0]
        self.thinking, self.cpu = [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]
        self.shown = [not hasattr(player, "choose_among") for player in players]
        self.listens = [hasattr(player, "hear") for player in players]
        self.listening = any(self.listens)
        self.events: list[list[Event]] = [[], [], [], []]
        self.stopped = [False, False, False, False]
        for seat, process in enumerate(self.processes):
            process.seat(seat, seeds[seat])

    def __call__(self, given: object, state: GameState, seat: int, number: int) -> PlayerAction:
        events, self.events[seat] = self.events[seat], []
        self.decisions[seat] += 1
        if self.stopped[seat]:
            self.overruns[seat] += 1
            return legal_actions(state)[0]
        try:
            decided = self.processes[seat].decide(seat, events, given, self.seated.limits)
        except _workers.PlayerFailed as failure:
            why = (failure.reason, failure.trace)
            raise _failed(self.seated, self.game, (seat, self.decisions[seat], number), why) from None
        self.thinking[seat] += decided.wall
        self.cpu[seat] += decided.cpu
        self.stopped[seat] = decided.killed
        if decided.over or decided.action is None or self._over(decided):
            self.overruns[seat] += 1
            return legal_actions(state)[0]
        return decided.action

    def _over(self, decided: _workers.Decided) -> bool:
        limits = self.seated.limits
        return (limits.wall is not None and decided.wall > limits.wall) or (
            limits.cpu is not None and decided.cpu > limits.cpu
        )

    def tell(self, events: Sequence[Event], _: int) -> None:
        """
        Keep each listening player's event, to be told before its next decision.
        """
        for seat, listens in enumerate(self.listens):
            if listens:
                self.events[seat].append(events[seat])


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
    listening = [(seat, player) for seat, player in enumerate(seated) if _listens(player)]
    among = [getattr(player, "choose_among", None) for player in seated]
    choose = [player.choose if picker is None else picker for player, picker in zip(seated, among, strict=True)]
    sources = [random.Random(seed) for seed in seeds]  # noqa: S311 (a game, not a secret)
    return choose, [picker is None for picker in among], sources, listening


def _listens(player: object) -> TypeGuard[Listener]:
    """
    Whether *player* is a `Listener`, as `_seated` tells one.
    """
    return hasattr(player, "hear")


def _too_long(game: int) -> InvalidValueError:
    return InvalidValueError(f"game {game} has not ended after {_MOST:,} actions")


def _chose_illegal(error: IllegalActionError, state: GameState, game: int) -> IllegalActionError:
    reason = f"the player of seat {state.to_act} chose it in game {game}: {error.reason}"
    return IllegalActionError(error.action, reason, error.rule)
