"""
Learning interfaces: action ids, observation tensors, and the OpenSpiel, PettingZoo and Gymnasium
adapters.

* `persian_rummy.rl.actionids`: every action as a number of a fixed action space, re-exported here.
* `persian_rummy.rl.tensors`: views and events as arrays (needs numpy, the ``rl`` extra).
* `persian_rummy.rl.openspiel`: the game for OpenSpiel (needs open-spiel).
* `persian_rummy.rl.pettingzoo`: the four-player environment for PettingZoo, AEC and parallel (needs pettingzoo).
* `persian_rummy.rl.gymnasium`: one seat's environment for Gymnasium (needs gymnasium).
* `persian_rummy.rl.selfplay`: team self-play against a pool of frozen policies, for Gymnasium (needs gymnasium).
* `persian_rummy.rl.policy`: policies over action ids as players, `PolicyPlayer`, and the learned
  player, `LearnedPlayer` (needs numpy); `PolicyPlayer`, `MLPPolicy` and `LearnedPlayer` are
  re-exported here, imported when first asked for.

Importing this package needs nothing but attrs; each adapter loads its library when it is imported.

>>> from persian_rummy import new_game
>>> from persian_rummy.rl import action_count
>>> action_count(new_game().rules)
944
"""

from __future__ import annotations

from typing import Final

from .actionids import (
    action_count,
    action_from_id,
    action_id,
    action_mask,
    action_masks,
    id_text,
    legal_actions_by_id,
    legal_ids,
)

__all__ = [
    "LearnedPlayer",
    "MLPPolicy",
    "PolicyPlayer",
    "action_count",
    "action_from_id",
    "action_id",
    "action_mask",
    "action_masks",
    "id_text",
    "legal_actions_by_id",
    "legal_ids",
]

#: The names of `persian_rummy.rl.policy` this package lends out, imported at the first use: they need numpy.
_FROM_POLICY: Final = frozenset({"LearnedPlayer", "MLPPolicy", "PolicyPlayer"})


def __getattr__(name: str) -> object:
    if name in _FROM_POLICY:
        from . import policy  # noqa: PLC0415 (numpy is loaded only when a policy's name is asked for)

        return getattr(policy, name)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return __all__
