"""
The player's side of its process (`persian_rummy.matches._workers`), run here, in this process: the
messages it answers, a decision and what it replies for a player that decides, raises, returns no
action or passes its limit.  The processes themselves are tried in tests/test_matches_players.py.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from multiprocessing import Pipe
from typing import Any

import pytest

from persian_rummy import DrawStock, PlayerAction, View, legal_actions, new_game, random_deal
from persian_rummy import apply as apply_action
from persian_rummy.bots import GreedyPlayer
from persian_rummy.matches import _workers
from persian_rummy.views import observe

pytestmark = pytest.mark.skipif(not _workers.available(), reason="players run in processes of their own on POSIX")


def _view() -> View:
    game = new_game()
    state = apply_action(game, random_deal(game, random.Random(3)))  # noqa: S311 (a game)
    seat = state.to_act
    assert seat is not None
    return observe(state, seat)


class Raising:
    def choose(self, _view: View, _rng: random.Random) -> DrawStock:
        raise KeyboardInterrupt


class Nothing:
    def choose(self, _view: View, _rng: random.Random) -> None:
        return None


class Endless:
    def choose(self, _view: View, _rng: random.Random) -> DrawStock:
        while True:
            with contextlib.suppress(Exception):  # a player that swallows what it can
                sum(range(1_000))


class Listener:
    def __init__(self) -> None:
        self.heard: list[object] = []

    def choose(self, view: View, rng: random.Random) -> PlayerAction:
        return GreedyPlayer().choose(view, rng)

    def hear(self, event: object) -> None:
        self.heard.append(event)


@pytest.fixture
def alarms() -> Iterator[None]:
    """The alarms of the player's process, as `_child` sets them, and its CPU limit, for one test."""
    import resource  # noqa: PLC0415 (POSIX, as the player's processes are)

    cpu = resource.getrlimit(resource.RLIMIT_CPU)
    before = signal.signal(signal.SIGALRM, _workers._ring), signal.signal(signal.SIGPROF, _workers._ring)
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, before[0])
        signal.signal(signal.SIGPROF, before[1])
        resource.setrlimit(resource.RLIMIT_CPU, cpu)


def _decide(player: Any, limits: _workers.Limits = _workers.NO_LIMITS) -> tuple[object, ...]:
    return _workers._decide(_workers._Seat.of(player, 5), (), _view(), limits)


#: A decision under a CPU limit by a player that never returns, in a fresh interpreter.
_CPU_ALARM = """
import contextlib, random, signal
from persian_rummy import new_game, random_deal, apply
from persian_rummy.matches import _workers
from persian_rummy.views import observe

class Endless:
    def choose(self, view, rng):
        while True:
            with contextlib.suppress(Exception):
                sum(range(1_000))

signal.signal(signal.SIGALRM, _workers._ring)
signal.signal(signal.SIGPROF, _workers._ring)
game = new_game()
state = apply(game, random_deal(game, random.Random(3)))
view = observe(state, state.seat_to_act)
reply = _workers._decide(_workers._Seat.of(Endless(), 5), (), view, _workers.Limits(cpu=0.05))
print((reply[0], reply[1], reply[4]))
"""


@pytest.mark.usefixtures("alarms")
class TestADecision:
    def test_an_action_and_its_times(self) -> None:
        view = _view()
        reply = _decide(GreedyPlayer())
        assert reply[0] == "decided"
        assert reply[1] in legal_actions(view)
        assert reply[4] is False
        assert all(type(seconds) is float and seconds >= 0 for seconds in reply[2:4])

    def test_a_player_that_raises_fails_with_its_error(self) -> None:
        reply = _decide(Raising())
        assert reply[:2] == ("failed", "KeyboardInterrupt")
        assert "raise KeyboardInterrupt" in str(reply[2])

    def test_no_action_is_a_failure(self) -> None:
        assert _decide(Nothing()) == ("failed", "it returned None, which is not an action", "")

    def test_the_alarm_stops_a_player_that_swallows_exceptions(self) -> None:
        reply = _decide(Endless(), _workers.Limits(wall=0.05))
        assert (reply[0], reply[1], reply[4]) == ("decided", None, True)

    def test_the_cpu_alarm_too(self) -> None:
        """
        In a process of its own, as a player's process is: the CPU limit also lowers the process's
        ``RLIMIT_CPU``, which a test process running other tests beside threads of its own must not meet.
        """
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run(  # noqa: S603 (this interpreter, on the code above)
            [sys.executable, "-c", _CPU_ALARM], capture_output=True, text=True, env=env, timeout=120, check=False
        )
        assert (0, "('decided', None, True)") == (done.returncode, done.stdout.strip()), done.stderr

    def test_a_listener_hears_the_events_first_on_a_copy_of_its_own(self) -> None:
        player = Listener()
        seat = _workers._Seat.of(player, 5)
        _workers._decide(seat, ("one", "two"), _view(), _workers.NO_LIMITS)
        assert (player.heard, seat.player.heard) == ([], ["one", "two"])


class TestTheMessages:
    def test_a_seat_a_decision_and_the_end(self) -> None:
        ours, theirs = Pipe()
        server = threading.Thread(target=_workers._serve, args=(GreedyPlayer(), theirs))
        server.start()
        view = _view()
        ours.send(("seat", 2, 9))
        ours.send(("decide", 2, (), view, _workers.NO_LIMITS))
        reply = ours.recv()
        ours.close()
        server.join(60)
        assert not server.is_alive()
        assert reply[0] == "decided"
        assert reply[1] == GreedyPlayer().choose(view, random.Random(9))  # noqa: S311 (the seat's seed)
