"""
Players: anything that, shown the view of the seat to act, chooses a legal action.

A player is a value with a ``choose(view, rng)`` method (the `Player` protocol).  It sees only
the `View` of its seat, never the state, and draws any randomness it needs from the
``random.Random`` it is given, so a game between players replays exactly from the seeds of
their random sources.

>>> import random
>>> from persian_rummy import Deal, FULL_DECK, apply, new_game, observe
>>> state = apply(new_game(), Deal(0, FULL_DECK))
>>> action = RandomPlayer().choose(observe(state, state.to_act), random.Random(1))
>>> from persian_rummy import legal_actions
>>> action in legal_actions(state)
True

Players are small immutable values: a match copies the same player into many games and
processes.  A player that keeps a memory of the game (`Listener`) gets a fresh copy for each
game and is told every action as its seat saw it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from attrs import frozen

from . import _arguments, _limits
from .engine import legal_actions
from .exceptions import InvalidValueError

if TYPE_CHECKING:
    from .actions import PlayerAction
    from .state import View

__all__ = ["PLAYER_NAMES", "Player", "RandomPlayer", "make_player"]


def __dir__() -> list[str]:
    return __all__


@runtime_checkable
class Player(Protocol):
    """
    Chooses an action for the seat to act, from what that seat sees.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        A legal action for the seat of *view*, which is the seat to act.

        Args:
            view: The view of the seat to act (``view.seat == view.to_act``).
            rng: The player's own random source; the only randomness it may use.
        """
        ...


@frozen
class RandomPlayer:
    """
    Chooses uniformly at random among the legal actions.

    The baseline every other player is measured against.
    """

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        """
        One of the legal actions of *view*, each as likely.
        """
        return rng.choice(legal_actions(view))


#: The ready players by the name the command line and `make_player` know them by.
PLAYER_NAMES: Final[Mapping[str, Callable[[], Player]]] = {
    "random": RandomPlayer,
}


def make_player(spec: str) -> Player:
    """
    The ready player named *spec*, such as ``"random"``.

    Raises:
        InvalidValueError: no ready player has that name.
    """
    _arguments.expect(spec, str, "spec", "a player's name")
    make = PLAYER_NAMES.get(spec)
    if make is None:
        msg = f"no player is called {_limits.shown(spec)}; the players are {', '.join(sorted(PLAYER_NAMES))}"
        raise InvalidValueError(msg)
    return make()
