"""
The bots a table server plays: a registry of names a request may use, and the threads they think in.

A request names a bot by a name of the server's `BotRegistry` and nothing else: the shipped players
(``random``, ``greedy``, ``pimc``, ``ismcts``, and ``learned`` where numpy is installed), and those the
operator adds when starting the server (``serve --bot NAME=SPEC``, loaded then, never on a request).
A search takes an optional budget after a colon, within the server's `Limits` (``pimc:200``,
``ismcts:1.5s``).  Nothing a request names is imported or called.

The bots think in worker threads shared by every table (`BotPool`): the quick players have a thread
of their own, so that searches keep none of their tables waiting, and the searches share
``Limits.bot_workers`` threads, first come first served; a table asks for one decision at a time,
so the tables take turns.
"""

from __future__ import annotations

import importlib.util
import logging
import random
import re
from collections.abc import Callable, Mapping
from typing import Final

from attrs import frozen

from ..actions import PlayerAction
from ..bots import GreedyPlayer, ISMCTSPlayer, PIMCPlayer, Player, RandomPlayer, make_player
from ..exceptions import PersianRummyError
from ..state import View
from ._limits import Limits
from ._worker import Worker

_log: Final = logging.getLogger("persian_rummy.server")

#: A bot's name: lower-case letters, digits, ``-`` and ``_``, a letter first, at most 32 characters.
NAME: Final = re.compile(r"[a-z][a-z0-9_-]{0,31}")
#: A bot as a request writes it: a name, and for a search a budget (a count, or seconds such as ``1.5s``).
_SPEC: Final = re.compile(
    r"(?P<name>[a-z][a-z0-9_-]{0,31})(?::(?P<count>[0-9]{1,12})|:(?P<seconds>[0-9]{1,6}(?:\.[0-9]{1,3})?)s)?"
)

Factory = Callable[[], Player]


class BotError(PersianRummyError, ValueError):
    """
    A bot a request named is not one this server plays; the message says why, and echoes nothing run.
    """


@frozen
class _Entry:
    """
    A bot of the registry: what makes it, the field a count budget goes to (searches only), and
    whether it decides quickly.
    """

    make: Callable[..., Player]
    budget: str | None
    quick: bool


def _learned() -> Player:
    return make_player("learned")


class BotRegistry:
    """
    The bots a request may seat, by name, with the budgets the server allows.

    *extra* adds the operator's bots: each name to a player spec of
    `persian_rummy.bots.players.make_player` (``"mybots:Cautious:3"``), loaded here, once, or to a
    function that makes a player.

    >>> registry = BotRegistry(Limits(max_rollouts=100))
    >>> registry.read("pimc:50"), registry.make("pimc:50")
    ('pimc:50', PIMCPlayer(rollouts=50, seconds=None, policy=GreedyPlayer()))
    >>> registry.read("pimc:500")
    Traceback (most recent call last):
    ...
    persian_rummy.server._bots.BotError: pimc takes at most 100 rollouts a decision here, not 500
    >>> registry.read("subprocess:getoutput:id")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    persian_rummy.server._bots.BotError: no bot is called that here; the bots are greedy, ismcts, ...

    Raises:
        ValueError: a name of *extra* is not a bot's name or is a shipped bot's.
        persian_rummy.exceptions.InvalidValueError: a spec of *extra* names no player.
    """

    def __init__(self, limits: Limits, extra: Mapping[str, str | Factory] | None = None) -> None:
        self.limits = limits
        self._entries: dict[str, _Entry] = {
            "random": _Entry(RandomPlayer, None, quick=True),
            "greedy": _Entry(GreedyPlayer, None, quick=True),
            "pimc": _Entry(PIMCPlayer, "rollouts", quick=False),
            "ismcts": _Entry(ISMCTSPlayer, "iterations", quick=False),
        }
        if importlib.util.find_spec("numpy") is None:  # found, not loaded: the server starts light
            _log.info("the learned bot is not offered: it needs numpy")
        else:
            self._entries["learned"] = _Entry(_learned, None, quick=True)
        for name, made in (extra or {}).items():
            if NAME.fullmatch(name) is None or name in self._entries:
                msg = f"{name!r} cannot name an added bot: a new name of lower-case letters, digits, - and _"
                raise ValueError(msg)
            if isinstance(made, str):
                make_player(made)  # the operator's module is imported now, and its errors shown now
                self._entries[name] = _Entry(lambda spec=made: make_player(spec), None, quick=False)
            else:
                self._entries[name] = _Entry(made, None, quick=False)

    @property
    def names(self) -> tuple[str, ...]:
        """
        The bots' names, in alphabetical order.
        """
        return tuple(sorted(self._entries))

    def read(self, text: object) -> str:
        """
        *text*, a bot as a request writes it, if this server plays it; else `BotError`.
        """
        self._entry(text)
        assert isinstance(text, str)  # noqa: S101 (checked by _entry)
        return text

    def _entry(self, text: object) -> tuple[_Entry, dict[str, int | float]]:
        found = _SPEC.fullmatch(text) if isinstance(text, str) else None
        entry = self._entries.get(found["name"]) if found is not None else None
        if found is None or entry is None:
            msg = f"no bot is called that here; the bots are {', '.join(self.names)}"
            raise BotError(msg)
        name, count, seconds = found["name"], found["count"], found["seconds"]
        if count is None and seconds is None:
            return entry, {}
        if entry.budget is None:
            msg = f"{name} takes no budget"
            raise BotError(msg)
        if seconds is not None:
            value = float(seconds)
            if not 0 < value <= self.limits.max_bot_seconds:
                msg = f"{name} takes from 0 to {self.limits.max_bot_seconds:g} seconds a decision here, not {seconds}"
                raise BotError(msg)
            return entry, {"seconds": value}
        most = self.limits.max_rollouts if entry.budget == "rollouts" else self.limits.max_iterations
        if not 0 < int(count) <= most:
            msg = f"{name} takes at most {most} {entry.budget} a decision here, not {count}"
            raise BotError(msg)
        return entry, {entry.budget: int(count)}

    def make(self, text: str) -> Player:
        """
        The player *text* names.

        Raises:
            BotError: *text* names no bot of this server, or a budget it does not allow.
        """
        entry, budget = self._entry(text)
        return entry.make(**budget)

    def quick(self, text: str) -> bool:
        """
        Whether the bot *text* names decides quickly (no search).
        """
        return self._entry(text)[0].quick


class BotPool:
    """
    The threads the bots think in: one for the quick players, *workers* for the searches.
    """

    def __init__(self, workers: int) -> None:
        self._quick = Worker("persian-rummy-bot")
        self._search = Worker("persian-rummy-search", workers)

    async def choose(self, player: Player, view: View, rng: random.Random, *, quick: bool) -> PlayerAction:
        """
        What *player* chooses in *view*, thought out in a worker thread.
        """
        return await (self._quick if quick else self._search).call(player.choose, view, rng)

    def shutdown(self) -> None:
        """
        Let the threads end once the decisions asked for are made.
        """
        self._quick.stop()
        self._search.stop()
