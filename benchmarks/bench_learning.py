"""
Section 7 of ``bench.py``: the learning interfaces, which need the ``rl`` extra.

- Microseconds per action mask (``numpy.frombuffer(action_mask(view), numpy.int8)``, the array
  the environments hand out) and per ``observation_tensor(view)``, on views of the seat to act
  at decision states sampled along recorded random playouts, with the bare loop subtracted.
- Steps per second of a random loop through PettingZoo's AEC interface (``env.last()``, a legal
  id drawn from the mask, ``env.step(id)``, ``env.reset`` at the end of each game).
- Steps per second of a random simulation through OpenSpiel's interface (``chance_outcomes()``
  sampled at chance nodes, else a legal id drawn from ``legal_actions()``, ``apply_action``),
  counting chance steps (56 per deal) and player steps; player steps alone are shown too.

Everything is timed in CPU seconds of this process (it runs on one core), so that work elsewhere
on the machine does not count.  Each repeat lasts about the target seconds; the figures are the
median [min - max] over the repeats.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spread import Spread

from persian_rummy import GameState, observe

BAR_MASK_US = 10.0
BAR_OBSERVATION_US = 20.0
BAR_PETTINGZOO_STEPS = 15_000
BAR_OPENSPIEL_STEPS = 20_000
#: The modules section 7 needs; without them it is left out.
NEEDS = ("numpy", "pyspiel", "pettingzoo", "gymnasium")


@dataclass(frozen=True)
class Learning:
    views: int
    mask_us: Spread
    observation_us: Spread
    pettingzoo_steps_per_s: Spread
    openspiel_steps_per_s: Spread
    openspiel_player_steps_per_s: Spread


def available() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in NEEDS)


def per_call_us(items: Sequence[object], call: Callable[[object], object], repeats: int, repeat_s: float) -> Spread:
    """
    Microseconds per ``call(item)`` over *items*, the bare loop subtracted.
    """
    rounds = 1
    while True:  # enough rounds over the items for one repeat to last about repeat_s
        t = _loop(items, call, rounds)
        if t >= repeat_s / 4:
            break
        rounds *= 2
    rounds = max(1, round(rounds * repeat_s / max(t, 1e-9)))
    figures = []
    for _ in range(repeats):
        spent = _loop(items, call, rounds) - _loop(items, _nothing, rounds)
        figures.append(spent / (rounds * len(items)) * 1e6)
    return Spread.of(figures)


def _nothing(_item: object) -> None:
    return None


def _loop(items: Sequence[object], call: Callable[[object], object], rounds: int) -> float:
    t0 = time.process_time()
    for _ in range(rounds):
        for item in items:
            call(item)
    return time.process_time() - t0


def pettingzoo_steps(seconds: float, seed: int) -> float:
    """
    Steps per second of random legal play through the AEC interface for about *seconds*.
    """
    import numpy as np  # noqa: PLC0415 (an optional dependency)

    from persian_rummy.rl import pettingzoo  # noqa: PLC0415

    env = pettingzoo.env()
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    t0 = time.process_time()
    deadline = t0 + seconds
    while True:
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            if time.process_time() > deadline:
                break
            env.reset(seed=rng.getrandbits(32))
            continue
        assert observation is not None  # noqa: S101 (a player is to act)
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        steps += 1
    return steps / (time.process_time() - t0)


def openspiel_steps(seconds: float, seed: int) -> tuple[float, float]:
    """
    Steps per second (chance and player steps) and player steps per second of random simulations.
    """
    import pyspiel  # noqa: PLC0415 (an optional dependency)

    import persian_rummy.rl.openspiel  # noqa: F401, PLC0415 (registers the game)

    game = pyspiel.load_game("python_persian_rummy")
    rng = random.Random(seed)
    steps = players = 0
    t0 = time.process_time()
    deadline = t0 + seconds
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
                players += 1
            state.apply_action(action)
            steps += 1
    spent = time.process_time() - t0
    return steps / spent, players / spent


def measure_learning(states: Sequence[GameState], repeats: int, repeat_s: float, target_s: float) -> Learning:
    import numpy as np  # noqa: PLC0415 (an optional dependency)

    from persian_rummy.rl.actionids import action_mask  # noqa: PLC0415
    from persian_rummy.rl.tensors import observation_tensor  # noqa: PLC0415

    views = [observe(state, state.to_act) for state in states]
    int8 = np.int8
    frombuffer = np.frombuffer
    mask = per_call_us(views, lambda view: frombuffer(action_mask(view), int8), repeats, repeat_s)  # type: ignore[call-overload]
    tensor = per_call_us(views, observation_tensor, repeats, repeat_s)  # type: ignore[arg-type]
    zoo = [pettingzoo_steps(target_s, 1 + r) for r in range(repeats)]
    spiel = [openspiel_steps(target_s, 1 + r) for r in range(repeats)]
    return Learning(
        views=len(views),
        mask_us=mask,
        observation_us=tensor,
        pettingzoo_steps_per_s=Spread.of(zoo),
        openspiel_steps_per_s=Spread.of([all_steps for all_steps, _ in spiel]),
        openspiel_player_steps_per_s=Spread.of([player_steps for _, player_steps in spiel]),
    )


def print_learning(figures: Learning | None) -> None:
    print("7. Learning interfaces (median [min - max])")
    if figures is None:
        print(f"   left out: install the rl extra ({', '.join(NEEDS)} are needed)")
        print()
        return
    print(f"   {'action mask (numpy), us/call':<40}{figures.mask_us.text('10.2f')}")
    print(f"   {'observation_tensor, us/call':<40}{figures.observation_us.text('10.2f')}")
    print(f"   {'PettingZoo random loop, steps/s':<40}{figures.pettingzoo_steps_per_s.text('10,.0f')}")
    print(f"   {'OpenSpiel random simulation, steps/s':<40}{figures.openspiel_steps_per_s.text('10,.0f')}")
    print(f"   {'  of which player steps/s':<40}{figures.openspiel_player_steps_per_s.text('10,.0f')}")
    print(f"   ({figures.views:,} views of the seat to act)")
    print()


def learning_bars(figures: Learning | None) -> list[dict[str, object]]:
    if figures is None:
        return []
    return [
        {
            "bar": f"action mask <= {BAR_MASK_US:g} us",
            "value": f"{figures.mask_us.median:.2f} us",
            "met": figures.mask_us.median <= BAR_MASK_US,
        },
        {
            "bar": f"observation tensor <= {BAR_OBSERVATION_US:g} us",
            "value": f"{figures.observation_us.median:.2f} us",
            "met": figures.observation_us.median <= BAR_OBSERVATION_US,
        },
        {
            "bar": f"PettingZoo >= {BAR_PETTINGZOO_STEPS:,} steps/s",
            "value": f"{figures.pettingzoo_steps_per_s.median:,.0f} steps/s",
            "met": figures.pettingzoo_steps_per_s.median >= BAR_PETTINGZOO_STEPS,
        },
        {
            "bar": f"OpenSpiel >= {BAR_OPENSPIEL_STEPS:,} steps/s",
            "value": f"{figures.openspiel_steps_per_s.median:,.0f} steps/s "
            f"({figures.openspiel_player_steps_per_s.median:,.0f} player steps/s)",
            "met": figures.openspiel_steps_per_s.median >= BAR_OPENSPIEL_STEPS,
        },
    ]
