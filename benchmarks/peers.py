"""
Random playouts of persian-rummy, pure and compiled, and of other game engines, in the same run.

Run it with ``nox -s bench-peers``, which installs the other engines (the ``peers`` dependency group of
pyproject.toml, with pinned versions) and the compiled build in its own environment.  Each measurement
is a fresh process of this script (``--worker KIND``), pinned to one CPU, that plays random games:
warm-up games that also choose how many games last about ``--seconds``, then those games, timed in
wall seconds and in CPU seconds of the process.  A round measures every engine once, in an order
shuffled afresh each round; the ratio of each of our builds to each other engine is taken within the
round, so that every ratio compares figures measured a minute apart at most.  The table gives each
engine's actions per CPU second and the ratios' median and range over the rounds.

Every engine plays uniformly random legal actions from a new game, and every transition counts as an
action, chance steps included:

- persian-rummy: complete two-deal games from ``new_game()``; ``random_deal`` at a chance node, else
  ``random.choice(legal_actions(state))``; ``apply`` makes a new state every time (the loop of section
  1 of ``benchmarks/bench.py``).  The pure build is this checkout's ``src/``, the compiled build the
  installed compiled wheel (each process checks ``persian_rummy.engine.COMPILED``).
- OpenSpiel's gin rummy (C++, driven from Python): chance outcomes drawn with their probabilities,
  decisions uniform over ``legal_actions()``; one state changed in place by ``apply_action``, started
  from a clone of a root state made once (its constructor is expensive), or from a new root each game;
  or a new state per step with ``child``.
- RLCard's gin rummy: the rules alone, ``GinRummyGame.step`` over the judge's legal actions.
- pokerkit: no-limit hold'em heads-up, every non-player step automated, the player's kind of action
  drawn uniformly, a bet or raise to a uniform amount; each operation counts as an action.
- python-chess: a game from the standard position, ``push`` of a random legal move until
  ``is_game_over()``.
"""

# Each engine is imported in the process that measures it, and only there.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration import calibrate
from spread import Spread

HERE = Path(__file__).resolve().parent
SOURCES = HERE.parent / "src"
ROUND_SEED_STEP = 1_000_000

#: A batch plays *n* games from seed *seed* and returns (actions, decisions).
Batch = Callable[[int, int], tuple[int, int]]


# -- the engines ---------------------------------------------------------------------------------------------


def ours() -> tuple[Batch, dict[str, str]]:
    sys.path.insert(0, str(HERE))
    import bench  # the loop of section 1

    import persian_rummy

    def batch(n: int, seed: int) -> tuple[int, int]:
        decisions, deals = bench.playout_batch(n, seed)
        return decisions + deals, decisions

    return batch, {"persian-rummy": persian_rummy.__version__}


def openspiel_gin(how: str) -> tuple[Batch, dict[str, str]]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    root = game.new_initial_state()

    def batch(n: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        actions = decisions = 0
        for _ in range(n):
            state = game.new_initial_state() if how == "new root" else root.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    action = choices(outcomes, weights)[0]
                else:
                    action = choice(state.legal_actions())
                    decisions += 1
                if how == "child":
                    state = state.child(action)
                else:
                    state.apply_action(action)
                actions += 1
        return actions, decisions

    return batch, {"open-spiel": _version("open-spiel")}


def rlcard_gin() -> tuple[Batch, dict[str, str]]:
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore[import-not-found]

    game = GinRummyGame()

    def batch(n: int, seed: int) -> tuple[int, int]:
        game.np_random = np.random.RandomState(seed % 2**32)  # it shuffles with this
        choice = random.Random(seed).choice
        actions = 0
        for _ in range(n):
            game.init_game()
            judge = game.judge
            while not game.is_over():
                game.step(choice(judge.get_legal_actions()))
                actions += 1
        return actions, actions

    return batch, {"rlcard": _version("rlcard")}


def pokerkit_heads_up() -> tuple[Batch, dict[str, str]]:
    from pokerkit import Automation, NoLimitTexasHoldem  # type: ignore[import-not-found]

    automated = tuple(Automation)  # every step but the players' decisions

    def play(rng: random.Random) -> int:
        # ante trimming, no antes, blinds 1 and 2, minimum bet 2, stacks of 400, two players
        state = NoLimitTexasHoldem.create_state(automated, True, 0, (1, 2), 2, 400, 2)
        while state.status:
            kinds = [kind for kind, can in enumerate(_can(state)) if can]
            kind = rng.choice(kinds)
            if kind == 0:
                state.fold()
            elif kind == 1:
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
        return len(state.operations)

    def batch(n: int, seed: int) -> tuple[int, int]:
        random.seed(seed)  # pokerkit shuffles its decks with the module's generator
        rng = random.Random(seed)
        actions = sum(play(rng) for _ in range(n))
        return actions, actions

    return batch, {"pokerkit": _version("pokerkit")}


def _can(state: Any) -> tuple[bool, bool, bool]:  # noqa: ANN401 (pokerkit's State)
    return state.can_fold(), state.can_check_or_call(), state.can_complete_bet_or_raise_to()


def chess_games() -> tuple[Batch, dict[str, str]]:
    import chess  # type: ignore[import-not-found]

    def batch(n: int, seed: int) -> tuple[int, int]:
        choice = random.Random(seed).choice
        plies = 0
        for _ in range(n):
            board = chess.Board()
            while not board.is_game_over():
                board.push(choice(list(board.legal_moves)))
                plies += 1
        return plies, plies

    return batch, {"chess": _version("chess")}


@dataclass(frozen=True)
class Engine:
    name: str
    label: str
    make: Callable[[], tuple[Batch, dict[str, str]]]
    build: str | None = None  # "pure" or "compiled" for our own


ENGINES = (
    Engine("pure", "persian-rummy, pure Python build", ours, build="pure"),
    Engine("compiled", "persian-rummy, compiled build", ours, build="compiled"),
    Engine("os-gin-cloned", "OpenSpiel gin rummy (C++), in place, from a cloned root", lambda: openspiel_gin("clone")),
    Engine("os-gin-new", "OpenSpiel gin rummy (C++), in place, a new root per game", lambda: openspiel_gin("new root")),
    Engine("os-gin-child", "OpenSpiel gin rummy (C++), a new state per step (child)", lambda: openspiel_gin("child")),
    Engine("rlcard-gin", "RLCard gin rummy, the rules alone (GinRummyGame.step)", rlcard_gin),
    Engine("pokerkit", "pokerkit no-limit hold'em, heads-up", pokerkit_heads_up),
    Engine("chess", "python-chess, legal_moves and push", chess_games),
)
BY_NAME = {engine.name: engine for engine in ENGINES}


def _version(distribution: str) -> str:
    return importlib.metadata.version(distribution)


# -- one measurement, in its own process ---------------------------------------------------------------------


def measure(engine: Engine, seconds: float, warmup: float, seed: int) -> dict[str, Any]:
    """
    Warm up for about *warmup* seconds, choosing the games that last about *seconds*; then time them.
    """
    batch, versions = engine.make()
    games = calibrate(batch, seconds, warmup)
    c0, t0 = time.process_time(), time.perf_counter()
    actions, decisions = batch(games, seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "engine": engine.name,
        "versions": versions,
        "games": games,
        "actions": actions,
        "decisions": decisions,
        "wall_s": wall,
        "cpu_s": cpu,
        "actions_per_s": actions / wall,
        "actions_per_cpu_s": actions / cpu,
    }


def worker(name: str, seconds: float, warmup: float, seed: int, cpu: int | None) -> None:
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    engine = BY_NAME[name]
    if engine.build is not None:
        import persian_rummy

        if (engine.build == "compiled") != persian_rummy.engine.COMPILED:
            sys.exit(f"{name}: imported the wrong build, {persian_rummy.__file__}")
    print(json.dumps(measure(engine, seconds, warmup, seed)))


# -- the rounds ------------------------------------------------------------------------------------------------


def run_worker(engine: Engine, args: argparse.Namespace, seed: int, cpu: int | None) -> dict[str, Any]:
    """
    One measurement of *engine* in a fresh process of this script.
    """
    env = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("PYTHONPATH", None)
    if engine.build == "pure":
        env["PYTHONPATH"] = str(SOURCES)
    command = [sys.executable, __file__, "--worker", engine.name, "--seconds", str(args.seconds)]
    command += ["--warmup", str(args.warmup), "--seed", str(seed)]
    if cpu is not None:
        command += ["--cpu", str(cpu)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)  # noqa: S603
    if done.returncode != 0:
        hint = ""
        if "ModuleNotFoundError" in done.stderr:
            hint = "\n(run it with nox -s bench-peers, which installs the other engines, or choose some with --engines)"
        sys.exit(f"peers.py: {engine.name} failed:\n{done.stderr[-3000:]}{hint}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def run_rounds(engines: Sequence[Engine], args: argparse.Namespace, cpu: int | None) -> list[dict[str, dict[str, Any]]]:
    rounds: list[dict[str, dict[str, Any]]] = []
    for r in range(args.rounds):
        order = list(engines)
        random.Random(r).shuffle(order)
        seed = 1 + r * ROUND_SEED_STEP
        measured: dict[str, dict[str, Any]] = {}
        for engine in order:
            figures = measured[engine.name] = run_worker(engine, args, seed, cpu)
            print(
                f"round {r + 1}/{args.rounds}  {engine.name:<14} {figures['actions_per_cpu_s']:>11,.0f} actions"
                f" per CPU s  ({figures['actions_per_s']:,.0f} per s, {figures['games']:,} games)",
                flush=True,
            )
        rounds.append(measured)
    return rounds


def ratios(rounds: Sequence[dict[str, dict[str, Any]]], ours: str, theirs: str, basis: str) -> list[float]:
    return [measured[ours][basis] / measured[theirs][basis] for measured in rounds]


def table(engines: Sequence[Engine], rounds: Sequence[dict[str, dict[str, Any]]]) -> str:
    builds = [engine.name for engine in engines if engine.build is not None]
    head = "| engine | actions per CPU second | actions per game |"
    head += "".join(f" {name} build / engine, CPU | {name} / engine, wall |" for name in builds)
    lines = [head, "|---|" + "---:|" * (2 + 2 * len(builds))]
    for engine in engines:
        runs = [measured[engine.name] for measured in rounds]
        rate = Spread.of([run["actions_per_cpu_s"] for run in runs])
        per_game = sum(run["actions"] for run in runs) / sum(run["games"] for run in runs)
        row = f"| {engine.label} | {rate.text(',.0f')} | {per_game:,.1f} |"
        for name in builds:
            if name == engine.name:
                row += " 1 | 1 |"
                continue
            cpu = Spread.of(ratios(rounds, name, engine.name, "actions_per_cpu_s"))
            wall = Spread.of(ratios(rounds, name, engine.name, "actions_per_s"))
            row += f" {cpu.text('.2f')} | {wall.text('.2f')} |"
        lines.append(row)
    return "\n".join(lines)


def cpu_model() -> str:
    sys.path.insert(0, str(HERE))
    import bench

    return bench.cpu_model()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each measuring every engine once (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of each timed measurement (default 2)")
    parser.add_argument("--warmup", type=float, default=0.5, help="seconds of warm-up before it (default 0.5)")
    parser.add_argument("--engines", help=f"a comma-separated selection of: {', '.join(BY_NAME)}")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: the last one allowed)")
    parser.add_argument("--json", type=Path, help="also write every measurement and the table to this file")
    parser.add_argument("--worker", choices=list(BY_NAME), help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.seconds, args.warmup, args.seed, args.cpu)
        return 0
    names = args.engines.split(",") if args.engines else list(BY_NAME)
    unknown = sorted(set(names) - set(BY_NAME))
    if unknown:
        parser.error(f"unknown engines: {', '.join(unknown)}")
    engines = [engine for engine in ENGINES if engine.name in names]
    cpu = (
        args.cpu
        if args.cpu is not None
        else (max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None)
    )
    started = time.strftime("%Y-%m-%d %H:%M")
    python = f"{platform.python_implementation()} {platform.python_version()}"
    machine = f"{cpu_model()}, {os.cpu_count()} CPUs, pinned to CPU {cpu}; {python}"
    print(f"{started}  {machine}", flush=True)
    rounds = run_rounds(engines, args, cpu)
    versions = {
        name: version
        for measured in rounds[:1]
        for run in measured.values()
        for name, version in run["versions"].items()
    }
    text = table(engines, rounds)
    print()
    print(f"{started}; {machine}; {args.rounds} rounds of {args.seconds:g} s per engine")
    print("; ".join(f"{name} {version}" for name, version in sorted(versions.items())))
    print()
    print(text)
    if args.json is not None:
        payload = {"started": started, "machine": machine, "versions": versions, "rounds": rounds, "table": text}
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
