"""
Policies over action ids as players: `PolicyPlayer`, `MLPPolicy` and the learned player that ships.

A policy is any function of (observation tensor, mask) to an action id: the tensor is
`persian_rummy.rl.tensors.observation_tensor` of the seat's view, the mask a ``uint8`` array with
1 at each legal id (`persian_rummy.rl.actionids.action_mask`).  `PolicyPlayer` turns one into a
`persian_rummy.bots.players.Player`, so a trained network plays matches, tournaments and the server like
any bot.  `MLPPolicy` is a small network of that kind, evaluated with NumPy alone, and
`LearnedPlayer` plays the one trained for this package (``make_player("learned")``;
docs/reinforcement-learning.md says how it was trained).

Needs numpy (the extra ``numpy``).

>>> import random
>>> import numpy as np
>>> from persian_rummy import FULL_DECK, Deal, apply, legal_actions, new_game, observe
>>> def lowest(observation, mask):
...     return int(np.flatnonzero(mask)[0])
>>> state = apply(new_game(), Deal(0, FULL_DECK))
>>> view = observe(state, state.to_act)
>>> PolicyPlayer(lowest).choose(view, random.Random(1))
DrawStock(seat=1)
>>> LearnedPlayer().choose(view, random.Random(1)) in legal_actions(state)
True
"""

from __future__ import annotations

import functools
import importlib.resources
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final, TypeAlias

import numpy as np
from attrs import evolve, field, frozen

from .. import limits as _limits
from .._internal import arguments as _arguments
from ..actions import PlayerAction
from ..bots.players import GreedyPlayer
from ..exceptions import IllegalActionError, InvalidTypeError, InvalidValueError
from ..state import Phase, View
from . import _numbers
from .actionids import action_count, action_from_id, action_id, action_mask
from .tensors import OBSERVATION_SIZE, observation_size, observation_tensor

__all__ = ["INPUTS", "LEARNED_WEIGHTS", "LearnedPlayer", "MLPPolicy", "Policy", "PolicyPlayer", "network_input"]


def __dir__() -> list[str]:
    return __all__


#: A policy: (observation tensor, mask of the legal ids) to the id of the action to play.
Policy: TypeAlias = Callable[[np.ndarray, np.ndarray], object]

#: The file of the learned player's weights, inside the package.
LEARNED_WEIGHTS: Final = "learned.npz"

#: The format of an `MLPPolicy` file: its arrays are ``w0, b0, w1, b1, ...``, the layers in order.
_FORMAT: Final = "persian-rummy-mlp-1"
#: A logit no legal id can come below: the masked ids get it.
_MASKED: Final = np.float32(-1e30)
#: What a network may read: the observation tensor alone, or that and a one-hot of the greedy player's id.
INPUTS: Final = ("observation", "observation+greedy")
_GREEDY: Final = GreedyPlayer()
_ANY: Final = random.Random(0)  # noqa: S311 (the greedy player draws nothing from it)


def network_input(view: View, inputs: str = "observation") -> np.ndarray:
    """
    What a network of *inputs* (one of `INPUTS`) reads at *view*, the view of the seat to act.

    ``"observation"`` is ``observation_tensor(view)``; ``"observation+greedy"`` is that followed
    by one value per action id of ``view.rules``, 1 at the id the greedy player chooses and 0 elsewhere.

    Raises:
        InvalidValueError: *inputs* is none of `INPUTS`.
    """
    observation = observation_tensor(view)
    if inputs == INPUTS[0]:
        return observation
    if inputs != INPUTS[1]:
        msg = f"a network reads one of {', '.join(INPUTS)}, got {_limits.shown(inputs)}"
        raise InvalidValueError(msg)
    hint = np.zeros(action_count(view.rules), dtype=np.float32)
    hint[action_id(_GREEDY.choose(view, _ANY), view)] = 1
    return np.concatenate((observation, hint))


def _check_policy(_: object, __: object, value: Policy) -> None:
    given: object = value  # whatever the caller passed
    if not callable(given):
        msg = f"a policy is a function of (observation, mask) to an action id, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


@frozen
class PolicyPlayer:
    """
    A player that plays what *policy* chooses: ``policy(observation_tensor(view), mask)``, an action id.

    The mask is a ``uint8`` array of ``action_count(view.rules)`` values, 1 where the id is legal.
    The policy must return one of those ids (an ``int``, a numpy integer, or a numpy array of one
    integer element, as the environments take it); any other raises `IllegalActionError` naming
    the id (R13), which a match reports with the seat and the decision.
    The player draws nothing from its random source: a policy that samples keeps its own.  A
    match on a process pool pickles the player, so the policy must then be picklable (a function
    of a module, or an object such as `MLPPolicy`, not a lambda).

    Attributes:
        policy: The function of (observation tensor, mask) to an action id.
    """

    policy: Policy = field(validator=_check_policy)

    def choose(self, view: View, rng: random.Random) -> PlayerAction:  # noqa: ARG002 (a player's signature)
        """
        The action of the id the policy chooses for the seat of *view*.

        Raises:
            IllegalActionError: the id is not legal at *view* (R13).
            InvalidTypeError: the policy returned something other than an integer, or *view* is not a `View`.
        """
        _arguments.expect(view, View, "view", "a View")
        mask = np.frombuffer(action_mask(view), dtype=np.uint8)
        chosen = _numbers.action_id_of(self.policy(observation_tensor(view), mask))
        try:
            return action_from_id(chosen, view)  # type: ignore[arg-type]  # checked there
        except InvalidValueError:
            reason = f"the policy chose it, outside the {len(mask)} ids of these rules"
            raise IllegalActionError(f"action id {chosen}", reason, "R13") from None


def _check_skip(policy: MLPPolicy, _: object, value: np.ndarray | None) -> None:
    if value is not None and value.shape != (policy.actions,):
        msg = f"the greedy choice's weights are one per action id, {policy.actions}, got the shape {value.shape}"
        raise InvalidValueError(msg)


def _skip(value: object) -> np.ndarray | None:
    if value is None:
        return None
    if not isinstance(value, np.ndarray):
        msg = f"the greedy choice's weights are a numpy array or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return np.ascontiguousarray(value, dtype=np.float32)


def _check_layers(_: object, __: object, value: tuple[np.ndarray, ...]) -> None:
    if len(value) < 2 or len(value) % 2:
        msg = f"a network has a weight matrix and a bias per layer, got {len(value)} arrays"
        raise InvalidValueError(msg)
    width = OBSERVATION_SIZE
    for weight, bias in zip(value[::2], value[1::2], strict=True):
        if weight.ndim != 2 or weight.shape[0] != width or bias.shape != (weight.shape[1],):
            msg = f"a layer takes {width} values, got a weight of shape {weight.shape} and a bias of {bias.shape}"
            raise InvalidValueError(msg)
        width = weight.shape[1]


def _layers(value: object) -> tuple[np.ndarray, ...]:
    if not isinstance(value, (tuple, list)) or not all(isinstance(array, np.ndarray) for array in value):
        msg = f"a network's layers are numpy arrays, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)
    return tuple(np.ascontiguousarray(array, dtype=np.float32) for array in value)


@frozen(eq=False)
class MLPPolicy:
    """
    A multilayer perceptron over the observation tensor, with ReLU between its layers, whose
    last layer gives one logit per action id; the legal id of the highest logit is its choice.
    With *skip*, it reads the greedy player's choice too (`network_input` of ``"observation+greedy"``):
    the id the greedy player chooses gets ``skip[id]`` added to its logit.

    Evaluated with NumPy alone, in ``float32``.  `save` and `load` write and read it as a NumPy
    ``.npz`` file (the arrays ``w0, b0, w1, b1, ...`` and ``skip``, read without pickle).
    A network without *skip* is itself a policy for `PolicyPlayer`; `LearnedPlayer` plays either.

    Attributes:
        layers: The weight matrix (inputs by outputs) and the bias of each layer, in order; the first
            takes `OBSERVATION_SIZE` values, the last gives one logit per id.
        skip: What the greedy player's choice adds to the logit of each id, or `None`.
    """

    layers: tuple[np.ndarray, ...] = field(converter=_layers, validator=_check_layers)
    skip: np.ndarray | None = field(default=None, converter=_skip, validator=_check_skip)

    @property
    def inputs(self) -> str:
        """
        What the network reads (`network_input`): ``"observation"``, or ``"observation+greedy"`` with *skip*.
        """
        return INPUTS[self.skip is not None]

    @property
    def actions(self) -> int:
        """
        The number of action ids the network scores: ``action_count(rules)`` of the rules it plays.
        """
        return int(self.layers[-1].shape[0])

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """
        The logits of every id for *observations*, what `network_input` gives for the network's
        inputs, one such array or a batch of them (rows).
        """
        values = np.asarray(observations, dtype=np.float32)
        hidden = values[..., :OBSERVATION_SIZE]
        last = len(self.layers) - 2
        for i in range(0, len(self.layers), 2):
            hidden = hidden @ self.layers[i] + self.layers[i + 1]
            if i < last:
                np.maximum(hidden, 0, out=hidden)
        if self.skip is not None:
            hidden += self.skip * values[..., OBSERVATION_SIZE:]
        return hidden

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """
        The legal id of the highest logit (the lowest such id on a tie).

        Raises:
            InvalidValueError: *mask* has another length than the network's ids, or no legal id.
        """
        if mask.shape != (self.actions,):
            msg = f"the network scores {self.actions} action ids, but the mask has {mask.shape[0]}"
            raise InvalidValueError(msg)
        logits = self.logits(observation)
        chosen = int(np.argmax(np.where(mask != 0, logits, _MASKED)))
        if not mask[chosen]:
            msg = "the mask allows no action id"
            raise InvalidValueError(msg)
        return chosen

    def save(self, path: str | Path, *, dtype: type[np.floating] = np.float16) -> None:
        """
        Write the network to *path* (an ``.npz`` file), its numbers as *dtype* (half precision by default).
        """
        arrays = {f"{kind}{i // 2}": array.astype(dtype) for i, (kind, array) in enumerate(self._named())}
        if self.skip is not None:
            arrays["skip"] = self.skip.astype(dtype)
        arrays["format"] = np.array(_FORMAT)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]  # numpy's stubs take the names for allow_pickle

    def _named(self) -> list[tuple[str, np.ndarray]]:
        return [("wb"[i % 2], array) for i, array in enumerate(self.layers)]

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """
        The network *path* holds, as `save` wrote it.

        Raises:
            InvalidValueError: the file is not such a network.
            OSError: the file cannot be read.
        """
        with np.load(path, allow_pickle=False) as data:
            return cls.from_arrays({name: data[name] for name in data.files})

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> MLPPolicy:
        """
        The network of the arrays *arrays* names ``format, w0, b0, w1, b1, ...``, as `save` writes them.

        Raises:
            InvalidValueError: the arrays are not such a network.
        """
        if str(arrays.get("format", "")) != _FORMAT:
            msg = f"not a network of format {_FORMAT!r}"
            raise InvalidValueError(msg)
        count = sum(1 for name in arrays if name.startswith("w"))
        try:
            layers = [arrays[f"{kind}{i}"] for i in range(count) for kind in "wb"]
        except KeyError as error:
            msg = f"the network lacks the array {error.args[0]}"
            raise InvalidValueError(msg) from None
        return cls(tuple(layers), arrays.get("skip"))


@functools.cache
def _learned_network() -> MLPPolicy:
    with importlib.resources.as_file(importlib.resources.files(__package__) / LEARNED_WEIGHTS) as path:
        return MLPPolicy.load(path)


@functools.cache
def _network_at(path: str) -> MLPPolicy:
    return MLPPolicy.load(path)


def _check_weights(_: object, __: object, value: str | None) -> None:
    given: object = value  # whatever the caller passed
    if given is not None and not isinstance(given, str):
        msg = f"weights is the path of a network's .npz file, or None, got {_limits.shown(value)}"
        raise InvalidTypeError(msg)


@frozen
class LearnedPlayer:
    """
    The learned player: the network trained for this package (``make_player("learned")``), or
    another `MLPPolicy` saved at *weights*, played greedily (the legal id of the highest logit).

    The network shipped reads the observation tensor and the greedy player's choice
    (``"observation+greedy"``): it was trained on Persian Rummy's rules (944 action ids) by
    imitation of a search player on the states it met in self-play, and so learned when to
    play otherwise than the greedy player (docs/reinforcement-learning.md gives the recipe and
    its learning curve).  It plays any rules with as many ids, and refuses others: wild jokers
    (`Rules.jokers_wild`, A7) among them, whose plays with jokers have ids the network has never
    scored and whose observation holds a part it has never read.  With calls of "Rummy!" (A24),
    whose two ids come after all the others, it answers a discard as the greedy player does and
    plays the rest with its network.
    The network is read once per process, with NumPy alone.

    Attributes:
        weights: The path of a network saved by `MLPPolicy.save`; `None`, the network shipped.
    """

    weights: str | None = field(default=None, validator=_check_weights)

    @property
    def network(self) -> MLPPolicy:
        """
        The network the player plays.
        """
        return _learned_network() if self.weights is None else _network_at(self.weights)

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        The network's choice for the seat of *view*; asked whether it calls "Rummy!" (A24), the
        greedy player's answer.

        Raises:
            InvalidValueError: the rules of *view* have another number of action ids than the
                network scores, or wild jokers (A7).
            InvalidTypeError: *view* is not a `View`.
        """
        _arguments.expect(view, View, "view", "a View")
        network = self.network
        rules = view.rules
        if rules.jokers_wild:
            msg = (
                f"the network scores {network.actions} action ids and reads {OBSERVATION_SIZE} observation values, "
                f"but wild jokers (Rules.jokers_wild, A7) have {action_count(rules)} ids and "
                f"{observation_size(rules)} values: it cannot play them"
            )
            raise InvalidValueError(msg)
        # The two answers to a discard (A24) come after every other id: a network scores the ids before them.
        played = action_count(evolve(rules, rummy_calls=False)) if rules.rummy_calls else action_count(rules)
        if played != network.actions:
            msg = (
                f"the network scores {network.actions} action ids, "
                f"but these rules have {played} (A8): it cannot play them"
            )
            raise InvalidValueError(msg)
        if view.phase is Phase.CALLS:  # its ids lie past the network's: it answers as the greedy player, who calls
            return _GREEDY.choose(view, rng)
        given = network_input(view, network.inputs)
        if played != action_count(rules):  # the greedy player's choice among the network's ids alone
            given = given[: OBSERVATION_SIZE + played] if network.inputs == INPUTS[1] else given
        mask = np.frombuffer(action_mask(view), dtype=np.uint8)[:played]
        return action_from_id(network(given, mask), view)
