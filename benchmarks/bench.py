"""
Speed and memory of the persian_rummy engine, on one pinned core.

Run ``python benchmarks/bench.py`` (``nox -s bench`` does, with ``PYTHONHASHSEED=0``);
``--quick`` is a smoke run of a few seconds, ``--json PATH`` also writes the figures.

1. Random playouts: complete games from ``new_game()`` with the default rules.  At a
   chance node the loop applies ``random_deal(state, rng)``, otherwise
   ``rng.choice(legal_actions(state))``; every ``apply`` makes a new state.  A warm-up
   calibrates the number of games per repeat so that one repeat lasts about
   ``--target-seconds``; repeat *r* plays its games with one ``random.Random(1 + r * 1_000_000)``,
   so every run plays the same games.  Only whole batches are timed, the garbage
   collector stays enabled, and the figures are the median [min-max] over ``--repeats``.
   Actions are all transitions (deals included); decisions are the actions chosen by a player.
2. Microseconds per ``legal_actions`` call (by phase) and per ``apply`` call (by action
   type), on states sampled along recorded random playouts, with the bare loop subtracted;
   and per first ``hash()`` of a state and of a view (the view of the seat to act), on fresh
   copies of those states made by ``pickle`` before each timed pass (a hash is cached once asked for).
3. The memory one successor state adds, measured with ``tracemalloc``: the parent states
   stay alive, caches are warm, and the figure is what the list of successors
   ``apply(state, action)`` retains, divided by their number (the mean), and the median of
   the successors one at a time.  The actions are those the recorded playouts chose,
   uniformly among the legal ones, so the mean also estimates the mean over all children
   of the sampled states.  Deals, which build four new hands and a stock, are reported apart.
4. Notation and JSON: microseconds per ``format_position``, per ``parse_position`` (of the
   position's own text), per ``to_json`` + ``from_json`` round trip of a state, and per
   ``format_action`` / ``parse_action`` (with the state, which ``parse_action`` checks the
   action against), on ``--text-states`` decision states sampled along the same recorded
   playouts, with the bare loop subtracted.
5. Hidden information: microseconds per ``observe`` (the view of the seat to act, and the
   public view) and per ``determinize`` (of the view of the seat to act, with one
   ``random.Random`` per batch of calls), on ``--view-states`` decision states sampled along
   the same recorded playouts, with the bare loop subtracted.
6. Matches (``persian_rummy.matches``): games per second of ``play_match`` between two
   ``RandomPlayer`` teams, serial, against the bare loop of section 1 on as many games (each
   player shown its seat's view, its thinking timed); then the same match on a
   ``ProcessPoolExecutor`` of two processes against one (the workers may use every CPU the
   benchmark was allowed, the pools are started and warm before timing); and microseconds per
   ``legal_actions(view)`` against ``legal_actions(state)`` on the ``--view-states`` states.
   The timed repeats of the two sides of each comparison alternate.  The serial loops are timed
   in CPU seconds of this process, so that work elsewhere on the machine does not skew their
   ratios; the pools, whose work is done in other processes, in wall seconds.
7. The learning interfaces (with the ``rl`` extra installed; left out otherwise): the action
   mask and the observation tensor per call, and random loops through PettingZoo and
   OpenSpiel in steps per second (``benchmarks/bench_learning.py`` says how).

The exit status is 0 whether or not the reference bars are met: they are for information.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import pickle
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

import bench_learning
from calibration import WARMUP_SEED, calibrate
from spread import Spread

from persian_rummy import (
    Action,
    Deal,
    Discard,
    DrawStock,
    GameState,
    LayDown,
    LayOff,
    Pass,
    Phase,
    TakeDiscard,
    View,
    apply,
    determinize,
    format_action,
    format_position,
    from_json,
    is_game_over,
    legal_actions,
    new_game,
    observe,
    parse_action,
    parse_position,
    random_deal,
    to_json,
)
from persian_rummy.bots.players import RandomPlayer
from persian_rummy.matches import play_match

T = TypeVar("T")
Pair = tuple[GameState, Action]

RECORD_SEED = 500_000_000  # the recorded games that per-call costs and memory are measured on
DETERMINIZE_SEED = 700_000_000  # the random.Random that deals the unseen cards in section 5
REPEAT_SEED_STEP = 1_000_000
ACTION_TYPES: tuple[type, ...] = (Deal, DrawStock, TakeDiscard, LayDown, LayOff, Discard, Pass)
BAR_ACTIONS_PER_S = 50_000
BAR_KIB_PER_SUCCESSOR = 2.0
BAR_MATCH_SHARE = 0.9  # a serial match of random players, against the bare playout loop
BAR_TWO_PROCESSES = 1.7  # a match on two processes, against one
MATCH_SEED = 300_000_000  # the seeds of the matches of section 6
#: The CPUs this process may use before it is pinned: a match's worker processes use them all.
UNPINNED: frozenset[int] | None = frozenset(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None


# -- figures ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Playouts:
    games_per_repeat: int
    repeats: int
    seconds: list[float]
    cpu_share: Spread
    actions_per_s: Spread
    decisions_per_s: Spread
    games_per_s: Spread
    actions_per_game: float
    decisions_per_game: float
    deals_per_game: float
    us_per_action: float
    ms_per_game: float


@dataclass(frozen=True)
class CallCost:
    label: str
    items: int
    calls_per_repeat: int
    us_per_call: Spread


@dataclass(frozen=True)
class Footprint:
    label: str
    successors: int
    mean_bytes: float
    median_bytes: float

    @property
    def mean_kib(self) -> float:
        return self.mean_bytes / 1024

    @property
    def median_kib(self) -> float:
        return self.median_bytes / 1024


# -- 1. random playouts ----------------------------------------------------------------------------------------


def playout_batch(n: int, seed_base: int) -> tuple[int, int]:
    """
    Play *n* complete games with one ``random.Random(seed_base)``; the numbers of decisions and of deals.
    """
    rng = random.Random(seed_base)
    choice = rng.choice
    decisions = deals = 0
    for _ in range(n):
        state = new_game()
        while not is_game_over(state):
            if state.is_chance_node:
                action: Action = random_deal(state, rng)
                deals += 1
            else:
                action = choice(legal_actions(state))
                decisions += 1
            state = apply(state, action)
    return decisions, deals


def measure_playouts(target_s: float, repeats: int, games: int | None) -> Playouts:
    if games is None:
        n = calibrate(playout_batch, target_s, warmup_s=target_s / 3)
    else:
        n = games
        playout_batch(max(1, n // 10), WARMUP_SEED)
    seconds: list[float] = []
    cpu_seconds: list[float] = []
    counts: list[tuple[int, int]] = []
    for r in range(repeats):
        c0 = time.process_time()
        t0 = time.perf_counter()
        counts.append(playout_batch(n, 1 + r * REPEAT_SEED_STEP))
        seconds.append(time.perf_counter() - t0)
        cpu_seconds.append(time.process_time() - c0)
    decisions = [d for d, _ in counts]
    actions = [d + c for d, c in counts]
    total_games = n * repeats
    actions_per_s = Spread.of([a / s for a, s in zip(actions, seconds, strict=True)])
    games_per_s = Spread.of([n / s for s in seconds])
    return Playouts(
        games_per_repeat=n,
        repeats=repeats,
        seconds=seconds,
        cpu_share=Spread.of([c / s for c, s in zip(cpu_seconds, seconds, strict=True)]),
        actions_per_s=actions_per_s,
        decisions_per_s=Spread.of([d / s for d, s in zip(decisions, seconds, strict=True)]),
        games_per_s=games_per_s,
        actions_per_game=sum(actions) / total_games,
        decisions_per_game=sum(decisions) / total_games,
        deals_per_game=sum(c for _, c in counts) / total_games,
        us_per_action=1e6 / actions_per_s.median,
        ms_per_game=1e3 / games_per_s.median,
    )


# -- recorded playouts -----------------------------------------------------------------------------------------


def record(n_games: int) -> tuple[list[Pair], list[Pair]]:
    """
    The (state, action) pairs of *n_games* random games: the decisions and the deals.
    """
    decisions: list[Pair] = []
    deals: list[Pair] = []
    for i in range(n_games):
        rng = random.Random(RECORD_SEED + i)
        state = new_game()
        while not is_game_over(state):
            if state.is_chance_node:
                action: Action = random_deal(state, rng)
                deals.append((state, action))
            else:
                action = rng.choice(legal_actions(state))
                decisions.append((state, action))
            state = apply(state, action)
    return decisions, deals


def spaced(items: Sequence[T], n: int) -> list[T]:
    """
    At most *n* of *items*, evenly spaced.
    """
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def by_type(pairs: Sequence[Pair]) -> dict[type, list[Pair]]:
    groups: dict[type, list[Pair]] = {t: [] for t in ACTION_TYPES}
    for pair in pairs:
        groups[type(pair[1])].append(pair)
    return groups


# -- 2. per-call costs -----------------------------------------------------------------------------------------


def legal_actions_loop(states: Sequence[GameState], k: int) -> float:
    call = legal_actions
    t0 = time.perf_counter()
    for _ in range(k):
        for state in states:
            call(state)
    return time.perf_counter() - t0


def states_bare_loop(states: Sequence[GameState], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _state in states:
            pass
    return time.perf_counter() - t0


def apply_loop(pairs: Sequence[Pair], k: int) -> float:
    call = apply
    t0 = time.perf_counter()
    for _ in range(k):
        for state, action in pairs:
            call(state, action)
    return time.perf_counter() - t0


def pairs_bare_loop(pairs: Sequence[Pair], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _state, _action in pairs:
            pass
    return time.perf_counter() - t0


def time_per_call(
    label: str,
    items: Sequence[T],
    loop: Callable[[Sequence[T], int], float],
    bare: Callable[[Sequence[T], int], float],
    repeats: int,
    repeat_s: float,
) -> CallCost:
    """
    Microseconds per call of *loop* over *items*, each repeat lasting about *repeat_s*, the *bare* loop subtracted.
    """
    k = 1
    while loop(items, k) < repeat_s / 5:
        k *= 2
    k *= 5
    us: list[float] = []
    for _ in range(repeats):
        t = loop(items, k)
        t_bare = bare(items, k)
        us.append((t - t_bare) / (k * len(items)) * 1e6)
    return CallCost(label, len(items), k * len(items), Spread.of(us))


def measure_calls(
    decisions: Sequence[Pair], deals: Sequence[Pair], n_states: int, repeats: int, repeat_s: float
) -> list[CallCost]:
    sample = spaced(decisions, n_states)
    states = [state for state, _ in sample]
    draw = [state for state in states if state.phase is Phase.DRAW]
    play = [state for state in states if state.phase is Phase.PLAY]
    costs = [
        time_per_call("legal_actions, every phase", states, legal_actions_loop, states_bare_loop, repeats, repeat_s),
        time_per_call("legal_actions, draw phase", draw, legal_actions_loop, states_bare_loop, repeats, repeat_s),
        time_per_call("legal_actions, play phase", play, legal_actions_loop, states_bare_loop, repeats, repeat_s),
        time_per_call("apply, every decision", sample, apply_loop, pairs_bare_loop, repeats, repeat_s),
    ]
    groups = by_type(decisions)
    groups[Deal] = list(deals)
    for kind in ACTION_TYPES:
        pairs = spaced(groups[kind], n_states)
        if pairs:
            costs.append(
                time_per_call(f"apply, {kind.__name__}", pairs, apply_loop, pairs_bare_loop, repeats, repeat_s)
            )
    views = [observe(state, state.to_act) for state in states]
    costs += [
        first_hash("hash(state), first call", states, repeats),
        first_hash("hash(view), first call", views, repeats),
    ]
    return costs


def first_hash(label: str, values: Sequence[object], repeats: int) -> CallCost:
    """
    Microseconds per first ``hash()`` of *values*: each repeat hashes fresh copies, unpickled before it is timed.
    """
    frozen = [pickle.dumps(value) for value in values]
    us: list[float] = []
    for _ in range(repeats):
        fresh = [pickle.loads(data) for data in frozen]  # noqa: S301 (the benchmark's own bytes)
        t0 = time.perf_counter()
        for value in fresh:
            hash(value)
        t1 = time.perf_counter()
        for _value in fresh:
            pass
        t2 = time.perf_counter()
        us.append(((t1 - t0) - (t2 - t1)) / len(fresh) * 1e6)
    return CallCost(label, len(values), len(values), Spread.of(us))


# -- 3. memory per successor -----------------------------------------------------------------------------------


def _parent(state: GameState, _action: Action) -> GameState:
    return state


def retained_total(pairs: Sequence[Pair], step: Callable[[GameState, Action], GameState]) -> int:
    """
    The bytes that the list of ``step(state, action)`` retains, free lists and cyclic garbage cleared.
    """
    out: list[GameState | None] = [None] * len(pairs)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i, (state, action) in enumerate(pairs):
            out[i] = step(state, action)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before


def retained_each(pairs: Sequence[Pair], step: Callable[[GameState, Action], GameState]) -> list[int]:
    """
    The bytes traced while making each ``step(state, action)``, the results kept alive.
    """
    out: list[GameState | None] = [None] * len(pairs)
    deltas = [0] * len(pairs)
    traced = tracemalloc.get_traced_memory
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        for i in range(len(pairs)):
            state, action = pairs[i]
            before = traced()[0]
            out[i] = step(state, action)
            deltas[i] = traced()[0] - before
    finally:
        tracemalloc.stop()
        gc.enable()
    return deltas


def footprint(label: str, pairs: Sequence[Pair]) -> Footprint:
    """
    The mean (exact total over the list) and the median (one successor at a time) memory per successor.
    """
    overhead = retained_total(pairs, _parent)
    total = retained_total(pairs, apply) - overhead
    each = retained_each(pairs, apply)
    each_overhead = statistics.median(retained_each(pairs, _parent))
    return Footprint(label, len(pairs), total / len(pairs), statistics.median(each) - each_overhead)


def measure_memory(decisions: Sequence[Pair], deals: Sequence[Pair], n_pairs: int) -> list[Footprint]:
    sample = spaced(decisions, n_pairs)
    for state, action in [*sample, *deals]:  # fill every cache of action objects and tables first
        if not state.is_chance_node:
            legal_actions(state)
        apply(state, action)
    figures = [footprint("every decision", sample)]
    for kind, pairs in by_type(sample).items():
        if pairs:
            figures.append(footprint(f"  {kind.__name__}", pairs))
    figures.append(footprint("deals (Deal)", deals))
    return figures


# -- 4. notation and JSON --------------------------------------------------------------------------------------

TextPair = tuple[str, GameState]


def format_position_loop(states: Sequence[GameState], k: int) -> float:
    call = format_position
    t0 = time.perf_counter()
    for _ in range(k):
        for state in states:
            call(state)
    return time.perf_counter() - t0


def parse_position_loop(texts: Sequence[str], k: int) -> float:
    call = parse_position
    t0 = time.perf_counter()
    for _ in range(k):
        for text in texts:
            call(text)
    return time.perf_counter() - t0


def texts_bare_loop(texts: Sequence[str], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _text in texts:
            pass
    return time.perf_counter() - t0


def json_round_trip_loop(states: Sequence[GameState], k: int) -> float:
    write, read = to_json, from_json
    t0 = time.perf_counter()
    for _ in range(k):
        for state in states:
            read(write(state))
    return time.perf_counter() - t0


def format_action_loop(pairs: Sequence[Pair], k: int) -> float:
    call = format_action
    t0 = time.perf_counter()
    for _ in range(k):
        for state, action in pairs:
            call(action, state)
    return time.perf_counter() - t0


def parse_action_loop(items: Sequence[TextPair], k: int) -> float:
    call = parse_action
    t0 = time.perf_counter()
    for _ in range(k):
        for text, state in items:
            call(text, state)
    return time.perf_counter() - t0


def text_pairs_bare_loop(items: Sequence[TextPair], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _text, _state in items:
            pass
    return time.perf_counter() - t0


def measure_text(decisions: Sequence[Pair], n_states: int, repeats: int, repeat_s: float) -> list[CallCost]:
    """
    Microseconds per call of the notation and JSON functions, on *n_states* decision states (and their actions).
    """
    sample = spaced(decisions, n_states)
    states = [state for state, _ in sample]
    positions = [format_position(state) for state in states]
    actions = [(format_action(action, state), state) for state, action in sample]
    for text, state in zip(positions, states, strict=True):  # every text reads back as its state
        if parse_position(text) != state or from_json(to_json(state)) != state:
            msg = f"text forms do not round-trip: {text}"
            raise RuntimeError(msg)
    return [
        time_per_call("format_position", states, format_position_loop, states_bare_loop, repeats, repeat_s),
        time_per_call("parse_position", positions, parse_position_loop, texts_bare_loop, repeats, repeat_s),
        time_per_call("to_json + from_json, state", states, json_round_trip_loop, states_bare_loop, repeats, repeat_s),
        time_per_call("format_action", sample, format_action_loop, pairs_bare_loop, repeats, repeat_s),
        time_per_call(
            "parse_action (legality checked)", actions, parse_action_loop, text_pairs_bare_loop, repeats, repeat_s
        ),
    ]


# -- 5. hidden information ------------------------------------------------------------------------------------

SeatPair = tuple[GameState, int | None]


def observe_loop(items: Sequence[SeatPair], k: int) -> float:
    call = observe
    t0 = time.perf_counter()
    for _ in range(k):
        for state, seat in items:
            call(state, seat)
    return time.perf_counter() - t0


def seat_pairs_bare_loop(items: Sequence[SeatPair], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _state, _seat in items:
            pass
    return time.perf_counter() - t0


def determinize_loop(views: Sequence[View], k: int) -> float:
    call = determinize
    rng = random.Random(DETERMINIZE_SEED)
    t0 = time.perf_counter()
    for _ in range(k):
        for view in views:
            call(view, rng)
    return time.perf_counter() - t0


def views_bare_loop(views: Sequence[View], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        for _view in views:
            pass
    return time.perf_counter() - t0


def measure_views(decisions: Sequence[Pair], n_states: int, repeats: int, repeat_s: float) -> list[CallCost]:
    """
    Microseconds per ``observe`` and per ``determinize`` call, on *n_states* decision states.
    """
    states = [state for state, _ in spaced(decisions, n_states)]
    to_act: list[SeatPair] = [(state, state.to_act) for state in states]
    public: list[SeatPair] = [(state, None) for state in states]
    views = [observe(state, seat) for state, seat in to_act]
    rng = random.Random(DETERMINIZE_SEED)
    for (_state, seat), view in zip(to_act, views, strict=True):  # every sample is one its seat cannot tell apart
        if observe(determinize(view, rng), seat) != view:
            msg = f"a determinized state does not give back the view of seat {seat}"
            raise RuntimeError(msg)
    return [
        time_per_call("observe, seat to act", to_act, observe_loop, seat_pairs_bare_loop, repeats, repeat_s),
        time_per_call("observe, public view", public, observe_loop, seat_pairs_bare_loop, repeats, repeat_s),
        time_per_call("determinize, seat to act", views, determinize_loop, views_bare_loop, repeats, repeat_s),
    ]


# -- 6. matches ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Matches:
    games: int
    bare_games_per_s: Spread
    viewing_games_per_s: Spread
    match_games_per_s: Spread
    match_share: Spread
    runner_share: Spread
    one_process_games_per_s: Spread
    two_processes_games_per_s: Spread
    speedup: Spread
    legal_actions: list[CallCost]


def unpin() -> None:
    """
    In a worker process: run on every CPU the benchmark was allowed, not on the one it is pinned to.
    """
    if UNPINNED is not None:
        os.sched_setaffinity(0, UNPINNED)


def match_seconds(games: int, seed: int, pool: ProcessPoolExecutor | None = None) -> float:
    """
    Seconds of a match: CPU seconds of this process when it plays the games itself, else wall seconds.
    """
    clock = time.process_time if pool is None else time.perf_counter
    t0 = clock()
    play_match(RandomPlayer(), RandomPlayer(), games, seed=seed, executor=pool)
    return clock() - t0


def viewing_seconds(games: int, seed: int) -> float:
    """
    The bare loop with players: each decision made by a ``RandomPlayer`` shown the seat's view.
    """
    rng = random.Random(seed)
    choose = RandomPlayer().choose
    t0 = time.process_time()
    for _ in range(games):
        state = new_game()
        while not is_game_over(state):
            if state.is_chance_node:
                action: Action = random_deal(state, rng)
            else:
                action = choose(observe(state, state.to_act), rng)
            state = apply(state, action)
    return time.process_time() - t0


def bare_seconds(games: int, seed: int) -> float:
    """
    CPU seconds of the bare playout loop of section 1 on *games* games.
    """
    t0 = time.process_time()
    playout_batch(games, seed)
    return time.process_time() - t0


def alternate(
    first: Callable[[int], float], second: Callable[[int], float], repeats: int
) -> tuple[list[float], list[float]]:
    """
    The seconds of *first* and of *second*, called in turn with the repeat's number.
    """
    ones: list[float] = []
    twos: list[float] = []
    for r in range(repeats):
        ones.append(first(r))
        twos.append(second(r))
    return ones, twos


def legal_view_loop(views: Sequence[View], k: int) -> float:
    call = legal_actions
    t0 = time.perf_counter()
    for _ in range(k):
        for view in views:
            call(view)
    return time.perf_counter() - t0


def measure_matches(games: int, decisions: Sequence[Pair], n_states: int, repeats: int, repeat_s: float) -> Matches:
    """
    A serial match against the bare loop, two processes against one, and legal actions of views against states.
    """
    games += games % 2
    match_seconds(max(2, games // 10 * 2), MATCH_SEED - 2)  # warm-up
    bare, serial = alternate(
        lambda r: bare_seconds(games, 1 + r * REPEAT_SEED_STEP),
        lambda r: match_seconds(games, MATCH_SEED + r),
        repeats,
    )
    viewing, serial_again = alternate(
        lambda r: viewing_seconds(games, 1 + r * REPEAT_SEED_STEP),
        lambda r: match_seconds(games, MATCH_SEED + r),
        repeats,
    )
    with ProcessPoolExecutor(1, initializer=unpin) as one, ProcessPoolExecutor(2, initializer=unpin) as two:
        for pool in (one, two):
            match_seconds(64, MATCH_SEED - 1, pool)  # the workers started and warm
        ones, twos = alternate(
            lambda r: match_seconds(games, MATCH_SEED + r, one),
            lambda r: match_seconds(games, MATCH_SEED + r, two),
            repeats,
        )
    states = [state for state, _ in spaced(decisions, n_states)]
    views = [observe(state, state.to_act) for state in states]
    return Matches(
        games=games,
        bare_games_per_s=Spread.of([games / s for s in bare]),
        match_games_per_s=Spread.of([games / s for s in serial]),
        match_share=Spread.of([b / s for b, s in zip(bare, serial, strict=True)]),
        viewing_games_per_s=Spread.of([games / s for s in viewing]),
        runner_share=Spread.of([v / s for v, s in zip(viewing, serial_again, strict=True)]),
        one_process_games_per_s=Spread.of([games / s for s in ones]),
        two_processes_games_per_s=Spread.of([games / s for s in twos]),
        speedup=Spread.of([a / b for a, b in zip(ones, twos, strict=True)]),
        legal_actions=[
            time_per_call("legal_actions(state)", states, legal_actions_loop, states_bare_loop, repeats, repeat_s),
            time_per_call("legal_actions(view)", views, legal_view_loop, views_bare_loop, repeats, repeat_s),
        ],
    )


# -- the machine -----------------------------------------------------------------------------------------------


def pin(cpu: int | None) -> int | None:
    """
    Pin this process to *cpu* (default: the last CPU it may run on); the CPU, or `None` where that is not possible.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return chosen


def cpu_model() -> str:
    fields: dict[str, str] = {}
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return platform.processor() or platform.machine()
    for line in text.splitlines():
        if not line.strip():
            break  # the first processor is enough
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    model = fields.get("model name", platform.machine())
    if "cpu family" in fields and "model" in fields:
        model += f" (family {fields['cpu family']}, model {fields['model']})"
    return model


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def load_average() -> float | None:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def environment(cpu: int | None) -> dict[str, object]:
    return {
        "persian_rummy": version("persian-rummy"),
        "attrs": version("attrs"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "python_build": sys.version.replace("\n", " "),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "pinned_cpu": cpu,
        "platform": platform.platform(),
        "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED"),
        "load_average_at_start": load_average(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


# -- report ----------------------------------------------------------------------------------------------------


def spread_text(s: Spread, fmt: str) -> str:
    return s.text(fmt)


def print_environment(env: dict[str, object], args: argparse.Namespace) -> None:
    pinned = "not pinned" if env["pinned_cpu"] is None else f"pinned to CPU {env['pinned_cpu']}"
    print(f"persian-rummy {env['persian_rummy']} benchmark  ({env['date']})")
    print(f"  machine   {env['cpu_model']}, {env['cpu_count']} CPUs, {pinned}")
    print(f"  system    {env['platform']}")
    print(f"  python    {env['implementation']} {env['python']}, attrs {env['attrs']}")
    load = env["load_average_at_start"]
    load_text = f"{load:.2f} (1 min)" if isinstance(load, float) else "unknown"
    print(f"            PYTHONHASHSEED={env['PYTHONHASHSEED'] or 'unset'}; load average at start {load_text}")
    games = "calibrated" if args.games is None else f"{args.games} fixed"
    print(
        f"  settings  ~{args.target_seconds:g} s per repeat, {args.repeats} repeats, games per repeat {games}; "
        f"{args.states} states per call, {args.memory_pairs} successors for memory; default Rules()"
    )
    print()


def print_playouts(p: Playouts) -> None:
    print("1. Random playouts: complete games from new_game(), rng.choice(legal_actions(state)), apply")
    print(f"   {'':<16}{'median':>12}  {'[min - max]':>27}")
    print(f"   {'actions/s':<16}{spread_text(p.actions_per_s, '12,.0f')}")
    print(f"   {'decisions/s':<16}{spread_text(p.decisions_per_s, '12,.0f')}")
    print(f"   {'games/s':<16}{spread_text(p.games_per_s, '12,.1f')}")
    print(f"   {'us/action':<16}{p.us_per_action:>12.2f}")
    print(f"   {'ms/game':<16}{p.ms_per_game:>12.2f}")
    print(
        f"   per game: {p.actions_per_game:.1f} actions = {p.decisions_per_game:.1f} decisions "
        f"+ {p.deals_per_game:.2f} deals"
    )
    seconds = ", ".join(f"{s:.2f}" for s in p.seconds)
    print(f"   {p.repeats} repeats x {p.games_per_repeat:,} games; seconds per repeat: {seconds}")
    share = p.cpu_share
    print(f"   CPU time / wall time: {share.median:.0%} [{share.min:.0%} - {share.max:.0%}]", end="")
    print("" if share.min >= 0.95 else "  (below 100%: other work shared the CPU; the rates are too low)")
    print()


def print_calls(costs: Sequence[CallCost]) -> None:
    print("2. Per call, on states sampled along recorded playouts (bare loop subtracted)")
    print(f"   {'call':<30}{'states':>8}  {'us/call':>8}  {'[min - max]':>17}")
    for c in costs:
        print(f"   {c.label:<30}{c.items:>8,}  {spread_text(c.us_per_call, '8.2f')}")
    print()


def print_memory(figures: Sequence[Footprint]) -> None:
    print("3. Memory per successor state (tracemalloc; parents kept alive, caches warm)")
    print(f"   {'successors of':<22}{'count':>8}  {'mean B':>9}  {'mean KiB':>9}  {'median B':>9}  {'median KiB':>10}")
    for f in figures:
        print(
            f"   {f.label:<22}{f.successors:>8,}  {f.mean_bytes:>9,.0f}  {f.mean_kib:>9.2f}  "
            f"{f.median_bytes:>9,.0f}  {f.median_kib:>10.2f}"
        )
    print()


def print_text(costs: Sequence[CallCost]) -> None:
    print("4. Notation and JSON, per call, on states sampled along recorded playouts (bare loop subtracted)")
    print(f"   {'call':<34}{'states':>8}  {'us/call':>8}  {'[min - max]':>17}")
    for c in costs:
        print(f"   {c.label:<34}{c.items:>8,}  {spread_text(c.us_per_call, '8.2f')}")
    print()


def print_views(costs: Sequence[CallCost]) -> None:
    print("5. Hidden information, per call, on states sampled along recorded playouts (bare loop subtracted)")
    print(f"   {'call':<34}{'states':>8}  {'us/call':>8}  {'[min - max]':>17}")
    for c in costs:
        print(f"   {c.label:<34}{c.items:>8,}  {spread_text(c.us_per_call, '8.2f')}")
    print()


def print_matches(m: Matches) -> None:
    print(f"6. Matches of random players, {m.games:,} games (games/s; median [min - max])")
    print(f"   {'bare playout loop':<34}{spread_text(m.bare_games_per_s, '10,.1f')}")
    print(f"   {'play_match, serial':<34}{spread_text(m.match_games_per_s, '10,.1f')}")
    print(f"   {'  its share of the bare loop':<34}{spread_text(m.match_share, '10.1%')}")
    print(f"   {'bare loop, players shown views':<34}{spread_text(m.viewing_games_per_s, '10,.1f')}")
    print(f"   {'  play_match / that loop':<34}{spread_text(m.runner_share, '10.1%')}")
    print(f"   {'play_match, 1 process':<34}{spread_text(m.one_process_games_per_s, '10,.1f')}")
    print(f"   {'play_match, 2 processes':<34}{spread_text(m.two_processes_games_per_s, '10,.1f')}")
    print(f"   {'  2 processes / 1':<34}{spread_text(m.speedup, '10.2f')}")
    for c in m.legal_actions:
        print(f"   {c.label + ', us/call':<34}{spread_text(c.us_per_call, '10.2f')}")
    ratio = m.legal_actions[1].us_per_call.median / m.legal_actions[0].us_per_call.median
    print(f"   {'  view / state':<34}{ratio:>10.2f}")
    print()


def bars(playouts: Playouts, memory: Footprint, matches: Matches | None = None) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {
            "bar": f"actions/s >= {BAR_ACTIONS_PER_S:,}",
            "value": f"{playouts.actions_per_s.median:,.0f} actions/s (median)",
            "met": playouts.actions_per_s.median >= BAR_ACTIONS_PER_S,
        },
        {
            "bar": f"memory per successor <= {BAR_KIB_PER_SUCCESSOR:g} KiB",
            "value": f"{memory.mean_kib:.2f} KiB (mean over decisions; median {memory.median_kib:.2f} KiB)",
            "met": memory.mean_kib <= BAR_KIB_PER_SUCCESSOR,
        },
    ]
    return rows if matches is None else [*rows, *match_bars(matches)]


def match_bars(m: Matches) -> list[dict[str, object]]:
    cpus = "?" if UNPINNED is None else len(UNPINNED)
    return [
        {
            "bar": f"serial match >= {BAR_MATCH_SHARE:.0%} of bare",
            "value": f"{m.match_share.median:.1%} ({m.match_games_per_s.median:,.1f} games/s, the bare loop "
            f"{m.bare_games_per_s.median:,.1f})",
            "met": m.match_share.median >= BAR_MATCH_SHARE,
        },
        {
            "bar": f"match, 2 processes / 1 >= {BAR_TWO_PROCESSES:g}",
            "value": f"{m.speedup.median:.2f} ({cpus} CPUs allowed)",
            "met": m.speedup.median >= BAR_TWO_PROCESSES,
        },
    ]


def print_bars(rows: Sequence[dict[str, object]]) -> None:
    print("Reference bars (for information)")
    for row in rows:
        verdict = "met" if row["met"] else "NOT met"
        print(f"   {row['bar']!s:<32}{verdict:<9}{row['value']}")


# -- main ------------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="short targets, for smoke runs (well under 30 s)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--target-seconds", type=float, help="seconds per timed repeat (default 3, quick 0.3)")
    parser.add_argument("--repeats", type=int, help="timed repeats (default 5, quick 3)")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    parser.add_argument("--games", type=int, help="games per repeat instead of calibrating")
    parser.add_argument("--states", type=int, default=2000, help="decision states for the per-call costs")
    parser.add_argument("--memory-pairs", type=int, help="decision successors for memory (default 10000, quick 2000)")
    parser.add_argument("--record-games", type=int, help="recorded games to sample from (default 200, quick 40)")
    parser.add_argument(
        "--text-states", type=int, help="decision states for notation and JSON (default 500, quick 100)"
    )
    parser.add_argument(
        "--view-states", type=int, help="decision states for observe and determinize (default 500, quick 100)"
    )
    args = parser.parse_args(argv)
    if args.target_seconds is None:
        args.target_seconds = 0.3 if args.quick else 3.0
    if args.repeats is None:
        args.repeats = 3 if args.quick else 5
    if args.memory_pairs is None:
        args.memory_pairs = 2000 if args.quick else 10_000
    if args.record_games is None:
        args.record_games = 40 if args.quick else 200
    if args.text_states is None:
        args.text_states = 100 if args.quick else 500
    if args.view_states is None:
        args.view_states = 100 if args.quick else 500
    for name in (
        "target_seconds",
        "repeats",
        "states",
        "memory_pairs",
        "record_games",
        "games",
        "text_states",
        "view_states",
    ):
        value = getattr(args, name)
        if value is not None and value <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        cpu = pin(args.cpu)
    except OSError as error:
        sys.exit(f"bench.py: cannot pin to CPU {args.cpu}: {error}")
    env = environment(cpu)
    print_environment(env, args)

    playouts = measure_playouts(args.target_seconds, args.repeats, args.games)
    print_playouts(playouts)

    decisions, deals = record(args.record_games)
    costs = measure_calls(decisions, deals, args.states, args.repeats, repeat_s=args.target_seconds / 5)
    print_calls(costs)

    memory = measure_memory(decisions, deals, args.memory_pairs)
    print_memory(memory)

    text_costs = measure_text(decisions, args.text_states, args.repeats, repeat_s=args.target_seconds / 5)
    print_text(text_costs)

    view_costs = measure_views(decisions, args.view_states, args.repeats, repeat_s=args.target_seconds / 5)
    print_views(view_costs)

    matches = measure_matches(
        playouts.games_per_repeat, decisions, args.view_states, args.repeats, repeat_s=args.target_seconds / 5
    )
    print_matches(matches)

    learning = None
    if bench_learning.available():
        states = [state for state, _ in spaced(decisions, args.view_states)]
        learning = bench_learning.measure_learning(states, args.repeats, args.target_seconds / 5, args.target_seconds)
    bench_learning.print_learning(learning)

    rows = [*bars(playouts, memory[0], matches), *bench_learning.learning_bars(learning)]
    print_bars(rows)
    load = env["load_average_at_end"] = load_average()
    if load is not None and load > 1.5:
        print(f"\nload average at end {load:.2f} (1 min): other work competed for the CPUs and skews the figures")

    if args.json is not None:
        payload = {
            "environment": env,
            "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
            "recorded": {"games": args.record_games, "decisions": len(decisions), "deals": len(deals)},
            "playouts": asdict(playouts),
            "per_call": [asdict(c) for c in costs],
            "memory_per_successor": [
                {**asdict(f), "label": f.label.strip(), "mean_kib": f.mean_kib, "median_kib": f.median_kib}
                for f in memory
            ],
            "notation_json_per_call": [asdict(c) for c in text_costs],
            "hidden_information_per_call": [asdict(c) for c in view_costs],
            "matches": asdict(matches),
            "learning": None if learning is None else asdict(learning),
            "bars": rows,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
