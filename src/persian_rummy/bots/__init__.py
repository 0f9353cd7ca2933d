"""
Players: the player protocol, the ready bots, and the building blocks they share.

* `persian_rummy.bots.players`: `Player`, the ready players and `make_player`.
* `persian_rummy.bots.heuristics`: melds and lay-offs a hand allows, margins, returns and rollouts.

>>> from persian_rummy.bots import PLAYER_NAMES, make_player
>>> sorted(PLAYER_NAMES)
['greedy', 'ismcts', 'learned', 'pimc', 'random']
>>> make_player("greedy")
GreedyPlayer()
"""

from __future__ import annotations

from .heuristics import meld_value, possible_layoffs, possible_melds, rollout, seat_returns, team_margin
from .players import (
    PLAYER_NAMES,
    GreedyPlayer,
    ISMCTSPlayer,
    LegalActionsPlayer,
    PIMCPlayer,
    Player,
    RandomPlayer,
    make_player,
)

__all__ = [
    "PLAYER_NAMES",
    "GreedyPlayer",
    "ISMCTSPlayer",
    "LegalActionsPlayer",
    "PIMCPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
    "meld_value",
    "possible_layoffs",
    "possible_melds",
    "rollout",
    "seat_returns",
    "team_margin",
]
