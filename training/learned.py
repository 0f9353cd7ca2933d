"""
Train the learned player (``make_player("learned")``): imitation of a search teacher on the states
the learner meets in self-play (DAgger, or expert iteration with a fixed expert).

* Observation: `persian_rummy.rl.tensors.observation_tensor` of the acting seat's view (868
  values); the action space is the 944 action ids of `persian_rummy.rl.actionids`.
* Labels: the action the teacher (PIMC with 8 rollouts for each legal action for the full
  budget, ``pimc-each:8``, each played out by the greedy player) chooses at that view, seeded by
  the state's number.
* Network: an `persian_rummy.rl.policy.MLPPolicy` (ReLU layers) that also reads the greedy
  player's choice (it adds a learned weight to that id's logit, 4 at the start, so that the
  network starts by following it), trained on the cross-entropy of the teacher's id under the
  softmax of the legal ids' logits (the masked ids get no probability): the loss is written with
  ``jax.numpy``, its gradient taken by ``jax.grad`` and each step, compiled by ``jax.jit``, made
  by ``optax.adam``; each round starts from the weights of the one before.  The weights go back to
  NumPy arrays of `MLPPolicy`, which the learned player evaluates with NumPy alone.  At the end, a margin is
  added to the greedy choice's weights, the one of `MARGINS` that scores best against greedy.
* Schedule: round 0 labels the states of games the greedy player plays against itself.  Each
  later round plays the current network (its best id, as the learned player does) in self-play, both teams
  and all four seats learning, in half the games, and against a pool of opponents (the greedy
  player and the frozen networks of the rounds before, one drawn for each game) in the other
  half, its own seats' states labelled; it trains on everything labelled so far.
* Learning curve: per round, the states labelled, how often the network before the round
  agreed with the teacher on the new states, the accuracy on all training states, and the
  score rate against the greedy player in a duplicate match.

``python training/learned.py`` trains with the full budget and writes the weights inside the
package; ``--quick`` trains a small network on a short budget (about half a minute) and writes
it under ``build/``.  It needs JAX and optax (the ``train`` dependency group, which ``nox -s
train`` installs).  The same seed gives the same weights, whatever ``--jobs``: the batches are drawn
from the NumPy generator of the seed, and JAX runs on the CPU, in single precision, with XLA on one
thread (`XLA_FLAGS`, set here unless the environment sets ``XLA_FLAGS``).  Run it with one BLAS
thread too (``nox -s train`` sets it), or NumPy's float sums may come out in another order.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import itertools
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Final, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np
import optax

from persian_rummy import GameState, Phase, View, apply, legal_actions, new_game, observe, random_deal
from persian_rummy.actions import PlayerAction
from persian_rummy.bots import GreedyPlayer, PIMCPlayer, Player, make_player
from persian_rummy.matches import play_match
from persian_rummy.rl.actionids import action_from_id, action_id, action_mask
from persian_rummy.rl.policy import INPUTS, LEARNED_WEIGHTS, LearnedPlayer, MLPPolicy, network_input
from persian_rummy.rl.tensors import OBSERVATION_SIZE

ACTIONS: Final = 944
PACKAGED: Final = Path(__file__).resolve().parent.parent / "src" / "persian_rummy" / "rl" / LEARNED_WEIGHTS
#: States labelled in one task of the pool, so that the labels do not depend on the number of workers.
CHUNK: Final = 64
#: What the greedy player's choice adds to its logit at the start: the network starts by following it.
SKIP: Final = 4.0
#: What may be added to the greedy choice's weights after training, so that the network leaves the
#: greedy player's choice only when it is surer; the one that scores best against greedy is kept.
MARGINS: Final = (0.0, 0.5, 1.0, 2.0, 4.0)
#: XLA's flags unless ``XLA_FLAGS`` is set: one thread on the CPU, so that the sums of a step come out
#: in one order (the same seed gives the same weights) and the run takes one core.
XLA_FLAGS: Final = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"

# JAX on the CPU (the arrays are all single precision) on one thread: set before its first computation,
# when XLA reads its flags.  ``jax.config.update`` is not annotated.
os.environ.setdefault("XLA_FLAGS", XLA_FLAGS)
configure: Callable[[str, str], None] = jax.config.update
configure("jax_platforms", "cpu")

#: The weights and biases of the layers, and the greedy choice's weights or `None`, as JAX arrays.
Params: TypeAlias = tuple[tuple[jax.Array, ...], jax.Array | None]
#: A batch: the networks' inputs, the masks of the legal ids and the teacher's ids.
Batch: TypeAlias = tuple[jax.Array, jax.Array, jax.Array]
Step: TypeAlias = Callable[[Params, optax.OptState, Batch], tuple[Params, optax.OptState]]


@dataclass(frozen=True)
class Budget:
    """
    What one training run spends: rounds, games and the teacher's budget, the network and its training.
    """

    rounds: int
    first_games: int
    games: int
    teacher: str
    hidden: tuple[int, ...]
    epochs: int
    batch: int
    rate: float
    match_games: int
    inputs: str = INPUTS[1]


FULL: Final = Budget(
    rounds=3,
    first_games=150,
    games=80,
    teacher="pimc-each:8",
    hidden=(128,),
    epochs=4,
    batch=256,
    rate=1e-3,
    match_games=200,
)
QUICK: Final = Budget(
    rounds=2,
    first_games=6,
    games=4,
    teacher="pimc-each:1",
    hidden=(32,),
    epochs=3,
    batch=64,
    rate=3e-3,
    match_games=8,
)


@dataclass
class Data:
    """
    The labelled states so far: the networks' inputs (in half precision), masks of the legal ids and the teacher's ids.
    """

    inputs: list[np.ndarray]
    masks: list[np.ndarray]
    labels: list[int]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.stack(self.inputs), np.stack(self.masks), np.array(self.labels, dtype=np.int64))


class Frozen:
    """
    A frozen network of an earlier round, played as `LearnedPlayer` plays: the legal id of the highest logit.
    """

    def __init__(self, network: MLPPolicy) -> None:
        self.network = network

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002 (a player's signature)
        mask = np.frombuffer(action_mask(view), dtype=np.uint8)
        return action_from_id(self.network(network_input(view, self.network.inputs), mask), view)


def play_game(players: Sequence[Player], learning: Sequence[int], seed: int) -> list[View]:
    """
    The views of the seats *learning* at each decision of a game with a choice, the players seated in order.
    """
    rng = random.Random(seed)
    state: GameState = new_game()
    views = []
    while state.phase is not Phase.GAME_OVER:
        if state.to_act is None:
            state = apply(state, random_deal(state, rng))
            continue
        seat = state.to_act
        view = observe(state, seat)
        if seat in learning and len(legal_actions(state)) > 1:
            views.append(view)
        state = apply(state, players[seat].choose(view, rng))
    return views


def label(task: tuple[str, int, Sequence[View]]) -> list[int]:
    """
    The teacher's ids for the views of *task* (teacher, first seed, views), each seeded by its number.
    """
    teacher_spec, first, views = task
    return [
        action_id(teacher(teacher_spec, view).choose(view, random.Random(first + i)), view)
        for i, view in enumerate(views)
    ]


def teacher(spec: str, view: View) -> Player:
    """
    The teacher *spec* names for *view*: ``pimc-each:N``, PIMC with N rollouts for each legal action,
    or a player's name.
    """
    name, _, each = spec.partition(":")
    if name == "pimc-each":
        return PIMCPlayer(rollouts=int(each) * len(legal_actions(view)))
    return make_player(spec)


def labelled(views: list[View], teacher: str, seed: int, executor: Executor | None) -> list[int]:
    tasks = [(teacher, seed + start, views[start : start + CHUNK]) for start in range(0, len(views), CHUNK)]
    chunks = executor.map(label, tasks) if executor is not None else map(label, tasks)
    return [i for chunk in chunks for i in chunk]


def round_views(round_number: int, budget: Budget, pool: list[MLPPolicy], seed: int) -> list[View]:
    """
    The states of a round's games: greedy self-play in round 0, then the learner's self-play and pool games.
    """
    base = seed * 1_000_003 + round_number * 10_007
    if round_number == 0:
        greedy = GreedyPlayer()
        return [view for g in range(budget.first_games) for view in play_game([greedy] * 4, range(4), base + g)]
    learner = Frozen(pool[-1])
    opponents: list[Player] = [GreedyPlayer(), *(Frozen(network) for network in pool[:-1])]
    picker = random.Random(base)
    views = []
    for g in range(budget.games):
        if g % 2 == 0:
            views += play_game([learner] * 4, range(4), base + g)
            continue
        opponent = picker.choice(opponents)
        side = (g // 2) % 2
        seats = [learner if seat % 2 == side else opponent for seat in range(4)]
        views += play_game(seats, (side, side + 2), base + g)
    return views


def initial(budget: Budget, rng: np.random.Generator) -> MLPPolicy:
    sizes = (OBSERVATION_SIZE, *budget.hidden, ACTIONS)
    layers: list[np.ndarray] = []
    for inputs, outputs in itertools.pairwise(sizes):
        layers += [rng.normal(0, np.sqrt(2 / inputs), (inputs, outputs)).astype(np.float32), np.zeros(outputs)]
    return MLPPolicy(tuple(layers), np.full(ACTIONS, SKIP) if budget.inputs == INPUTS[1] else None)


def loss(params: Params, x: jax.Array, mask: jax.Array, y: jax.Array) -> jax.Array:
    """
    The mean cross-entropy of the teacher's ids *y* under the softmax of the legal ids' logits, the
    logits computed as `MLPPolicy.logits` computes them from *params* (the weights and biases, and the
    greedy choice's weights or `None`); a masked id gets no probability, and no gradient.
    """
    layers, skip = params
    hidden = x[:, :OBSERVATION_SIZE]
    for i in range(0, len(layers) - 2, 2):
        hidden = jax.nn.relu(hidden @ layers[i] + layers[i + 1])
    logits = hidden @ layers[-2] + layers[-1]
    if skip is not None:
        logits += skip * x[:, OBSERVATION_SIZE:]
    masked = jnp.where(mask, logits, jnp.float32(-1e30))
    return jnp.mean(optax.losses.softmax_cross_entropy_with_integer_labels(masked, y))


@functools.cache
def adam(rate: float) -> tuple[optax.GradientTransformation, Step]:
    """
    optax's Adam at *rate*, and its step on a batch (inputs, masks, the teacher's ids): the gradient of
    `loss` and the update, compiled once per rate and shape of batch.
    """
    optimiser = optax.adam(rate)

    def step(params: Params, state: optax.OptState, batch: Batch) -> tuple[Params, optax.OptState]:
        grads = jax.grad(loss)(params, *batch)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    return optimiser, jax.jit(step)


def train(network: MLPPolicy, data: Data, budget: Budget, rng: np.random.Generator) -> MLPPolicy:
    """
    *network* trained for *budget*'s epochs on *data* with optax's Adam (restarted), the batches drawn from *rng*.
    """
    x, masks, y = data.arrays()
    params: Params = (
        tuple(jnp.asarray(array) for array in network.layers),
        None if network.skip is None else jnp.asarray(network.skip),
    )
    optimiser, step = adam(budget.rate)
    state = optimiser.init(params)
    for _ in range(budget.epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), budget.batch):
            batch = order[start : start + budget.batch]
            inputs, legal, chosen = x[batch].astype(np.float32), masks[batch].astype(bool), y[batch].astype(np.int32)
            params, state = step(params, state, (jnp.asarray(inputs), jnp.asarray(legal), jnp.asarray(chosen)))
    layers, skip = params
    return MLPPolicy(tuple(np.asarray(array) for array in layers), None if skip is None else np.asarray(skip))


def accuracy(network: MLPPolicy, data: Data) -> float:
    """
    How often the network's legal id of the highest logit is the teacher's, over *data*.
    """
    x, masks, y = data.arrays()
    hits = 0
    for start in range(0, len(y), 4096):
        logits = network.logits(x[start : start + 4096].astype(np.float32))
        chosen = np.argmax(np.where(masks[start : start + 4096] != 0, logits, np.float32(-1e30)), axis=1)
        hits += int((chosen == y[start : start + 4096]).sum())
    return hits / len(y)


def digest(network: MLPPolicy) -> str:
    """
    A digest of the network's numbers as saved (half precision): equal for equal weights.
    """
    hasher = hashlib.sha256()
    for array in (*network.layers, *(() if network.skip is None else (network.skip,))):
        hasher.update(array.astype(np.float16).tobytes())
    return hasher.hexdigest()[:16]


def add(data: Data, views: list[View], labels: list[int], inputs: str) -> None:
    for view, chosen in zip(views, labels, strict=True):
        data.inputs.append(network_input(view, inputs).astype(np.float16))
        data.masks.append(np.frombuffer(action_mask(view), dtype=np.uint8))
        data.labels.append(chosen)


def run(budget: Budget, seed: int, executor: Executor | None, out: Path) -> MLPPolicy:
    """
    Train for *budget* from *seed*, print the learning curve, and write the weights to *out*.
    """
    rng = np.random.default_rng(seed)
    network = initial(budget, rng)
    data = Data([], [], [])
    pool: list[MLPPolicy] = []
    shape = "-".join(str(len(array)) for array in network.layers[::2])
    print(f"training from seed {seed}: teacher {budget.teacher}, network {shape}-{ACTIONS} reading {budget.inputs}")
    for round_number in range(budget.rounds):
        began = time.perf_counter()
        views = round_views(round_number, budget, pool, seed)
        labels = labelled(views, budget.teacher, seed * 7_919 + round_number * 1_000_000, executor)
        before = Data([], [], [])
        add(before, views, labels, budget.inputs)
        agreed = f"{accuracy(network, before):.3f}" if pool else "-"
        add(data, views, labels, budget.inputs)
        network = train(network, data, budget, rng)
        pool.append(network)
        summary = play_match(Frozen(network), GreedyPlayer(), budget.match_games, seed=seed + round_number).summary
        low, high = summary.score_interval
        print(
            f"round {round_number}: {len(views):,} states ({len(data.labels):,} in all), "
            f"agreement before {agreed}, training accuracy {accuracy(network, data):.3f}, "
            f"vs greedy {summary.score_rate:.3f} [{low:.3f}, {high:.3f}] over {summary.games} games, "
            f"{time.perf_counter() - began:.0f} s",
            flush=True,
        )
    network = calibrated(network, budget, seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    network.save(out)
    shown = out.resolve().relative_to(Path.cwd()) if out.resolve().is_relative_to(Path.cwd()) else out
    print(f"weights {digest(network)} written to {shown} ({out.stat().st_size:,} bytes)")
    return network


def calibrated(network: MLPPolicy, budget: Budget, seed: int) -> MLPPolicy:
    """
    *network* with the margin of `MARGINS` added to its greedy choice's weights that scores best against
    the greedy player, over the same decks for every margin (the smallest on a tie), printed.
    """
    if network.skip is None:
        return network
    best, best_rate = network, -1.0
    for margin in MARGINS:
        candidate = MLPPolicy(network.layers, network.skip + np.float32(margin))
        summary = play_match(Frozen(candidate), GreedyPlayer(), budget.match_games, seed=seed * 31 + 7).summary
        low, high = summary.score_interval
        print(f"margin {margin}: vs greedy {summary.score_rate:.3f} [{low:.3f}, {high:.3f}]", flush=True)
        if summary.score_rate > best_rate:
            best, best_rate = candidate, summary.score_rate
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the learned player by imitation of a search in self-play.")
    parser.add_argument("--quick", action="store_true", help="a small network on a short budget (CI)")
    parser.add_argument("--seed", type=int, default=21, help="the seed of the whole run (default 21)")
    parser.add_argument("--jobs", type=int, default=1, help="processes that label the states (default 1)")
    parser.add_argument("--out", type=Path, help="where to write the weights (default: the package's, or build/)")
    parser.add_argument("--same", nargs=2, type=Path, metavar="FILE", help="only check that two weights are equal")
    parser.add_argument("--play", type=Path, metavar="FILE", help="only play 4 games of the weights against greedy")
    arguments = parser.parse_args(argv)
    if arguments.play:
        summary = play_match(LearnedPlayer(str(arguments.play)), GreedyPlayer(), 4, seed=arguments.seed).summary
        print(f"{arguments.play} against greedy: {summary.games} games, score rate {summary.score_rate:.3f}")
        return 0
    if arguments.same:
        first, second = (MLPPolicy.load(path) for path in arguments.same)
        same = len(first.layers) == len(second.layers) and all(
            np.array_equal(a, b) for a, b in zip(first.layers, second.layers, strict=True)
        )
        print(f"{arguments.same[0]} and {arguments.same[1]}: {'the same weights' if same else 'different weights'}")
        return 0 if same else 1
    budget = QUICK if arguments.quick else FULL
    out = arguments.out or (Path("build") / "learned-quick.npz" if arguments.quick else PACKAGED)
    if arguments.jobs > 1:
        # The labelling processes start from a fork server, not forked from a process that runs JAX's threads.
        with ProcessPoolExecutor(arguments.jobs, mp_context=get_context("forkserver")) as executor:
            run(budget, arguments.seed, executor, out)
    else:
        run(budget, arguments.seed, None, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
