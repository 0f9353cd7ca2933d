"""
Every message a reader received, checked against what is made from that reader's view of the game's
record: the leak property across workers.

For each reader (a seat, or a spectator) of a finished table, each message it received over every
connection, whichever worker it was connected to and whichever worker owned the table then, must be
the message made from the record for that reader: a welcome's view and legal moves are the reader's
view at the welcome's number, an event is the library's account of the record's action for that
reader (`events_of`) with its view before and after it (`observe`), a pause names the deal that
ended and the people, and a game-over the final points.  A message to one seat made from another's
view, or from the state itself, differs.  Only what a clock sets (deadlines, the server's time) is
not compared.
"""

from __future__ import annotations

from typing import Any

from persian_rummy import Deal, observe
from persian_rummy.events import events_of
from persian_rummy.records import GameRecord, replay
from persian_rummy.serialize import from_data, to_data
from persian_rummy.server._messages import event_notation, legal_list
from persian_rummy.state import GameState
from tests.e2e._server import ScriptedSeat

#: What a reader may receive at a table without a clock, where no client misbehaves.
KINDS = frozenset({"welcome", "event", "presence", "pause", "game-over"})


def _points(state: GameState) -> list[int]:
    totals = [result.totals for result in state.results]
    return [sum(north for north, _ in totals), sum(east for _, east in totals)]


class Record:
    """
    A finished table's record read back: its states, actions, people and bots.
    """

    def __init__(self, data: Any, seats: list[str]) -> None:
        read = from_data(data)
        assert isinstance(read, GameRecord)
        self.states = list(replay(read))
        self.actions = read.actions
        self.people = [seat for seat, kind in enumerate(seats) if kind == "person"]
        self.bots = {seat for seat, kind in enumerate(seats) if kind != "person"}

    def by(self, seq: int) -> str:
        action = self.actions[seq - 1]
        if isinstance(action, Deal):
            return "dealer"
        return "bot" if action.seat in self.bots else "person"

    def welcome(self, message: dict[str, Any], reader: int | None) -> None:
        seq = message["seq"]
        view = observe(self.states[seq], reader)
        table = message["table"]
        assert (message["seat"], table["seq"], table["points"]) == (reader, seq, _points(self.states[seq]))
        assert table["key"] is None  # a seeded table: no key, ever
        if message["view"] is not None:  # a fresh start, not a resumption
            assert message["view"] == to_data(view)
            assert message["legal"] == legal_list(view)

    def event(self, message: dict[str, Any], reader: int | None) -> None:
        seq = message["seq"]
        before, after = self.states[seq - 1], self.states[seq]
        told = events_of(before, self.actions[seq - 1], after)[4 if reader is None else reader]
        view = observe(after, reader)
        assert message["event"] == to_data(told)
        assert message["view"] == to_data(view)
        assert message["legal"] == legal_list(view)
        assert message["notation"] == event_notation(told, observe(before, reader))
        assert message["by"] == self.by(seq)

    def pause(self, message: dict[str, Any], seq: int) -> None:
        state = self.states[seq]
        assert (state.phase, message["deal"]) == ("deal_over", state.deal)
        assert sorted(message["ready"] + message["waiting"]) == self.people

    def over(self, message: dict[str, Any]) -> None:
        final = self.states[-1]
        expected = ("over", _points(final), None)
        assert (message["ended"], message["points"], message["key"]) == expected


def check_streams(record: Any, seats: list[str], readers: dict[int | None, list[ScriptedSeat]]) -> int:
    """
    Check every message each of *readers* (by seat; `None` for spectators) received against the
    finished table's *record* (JSON data), whose seats are *seats* (``"person"`` or a bot): the
    number of messages checked.

    A reader that followed from the first event saw every event once, in order; one that joined late
    saw every event after its welcome.  Every move a person's script chose is the record's.
    """
    read = Record(record, seats)
    checked = 0
    for reader, scripted_seats in readers.items():
        for scripted in scripted_seats:
            assert [] == scripted.errors
            last = 0
            for message in scripted.messages:
                kind = message["type"]
                assert kind in KINDS, message
                if kind == "welcome":
                    read.welcome(message, reader)
                    if message["view"] is not None:
                        last = message["seq"]
                elif kind == "event":
                    read.event(message, reader)
                    last = message["seq"]
                elif kind == "pause":
                    read.pause(message, last)
                elif kind == "game-over":
                    read.over(message)
                else:
                    assert sorted(message) == ["seats", "type"]
                checked += 1
            first = scripted.seen[0] if scripted.seen else len(read.actions) + 1
            assert scripted.seen == list(range(first, len(read.actions) + 1))
            assert first == 1 or scripted.messages[0]["view"] is not None
            for seq, action in scripted.chosen.items():
                assert action == read.actions[seq]
    return checked
