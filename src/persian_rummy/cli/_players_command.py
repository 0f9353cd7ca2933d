"""
``persian-rummy players``: the players that ``match``, ``tournament``, ``play`` and ``serve`` take,
one a line: the ready ones, those the entry points of installed packages register, and any class or
factory of players of an importable module.
"""

from __future__ import annotations

import argparse
from typing import Final

from ..bots import _loading
from ..bots.players import PLAYER_NAMES

#: What ``persian-rummy players --help`` says of the command.
DESCRIPTION: Final = (
    "List the players: ready ones, those of the entry points persian_rummy.players, and"
    " module:attribute[:arguments] for any class or factory of an importable module."
)


def run(args: argparse.Namespace) -> int:  # noqa: ARG001 (the signature of every command's run)
    """
    Print the players the commands take, one a line: its name and where it comes from; the exit status.
    """
    registered = _loading.entry_points()
    rows = [(name, f"ready: {PLAYER_NAMES[name].__name__}") for name in sorted(PLAYER_NAMES)]
    rows += [
        (name, f"entry point: {target}" + (" (hidden by the ready player)" if name in PLAYER_NAMES else ""))
        for name, target in sorted(registered.items())
    ]
    width = max(len(name) for name, _ in rows)
    for name, where in rows:
        print(f"{name:<{width}}  {where}")  # noqa: T201 (the command's output)
    print("and module:attribute[:arguments], a class or a factory of players in an importable module")  # noqa: T201
    return 0
