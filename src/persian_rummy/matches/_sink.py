"""
Where a match's games go as they are finished, pair by pair in order: its online summary
(`_tally.Tally`), the games kept in memory when the match keeps them, its checkpoint's lines
(`_checkpoint`), and the progress it tells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from . import _checkpoint, _runner, _tally

_G = TypeVar("_G", bound=_tally.Game)

#: Called as ``progress(finished, total)`` as the games are finished.
Progress = Callable[[int, int], object]


class Sink(Generic[_G]):
    """
    The games of a match as they are finished, from the first on.

    Attributes:
        tally: The summary's sums, of every game finished (those resumed included), when the
            match does not keep its games.
        games: The games, when the match keeps them.
        pairs: The duplicate pairs finished.
        writer: The checkpoint, once it is open.
    """

    def __init__(
        self,
        planned: int,
        keep: bool,
        encode: Callable[[_G], object],
        told: tuple[Progress | None, _runner.Budget],
    ) -> None:
        self.planned, self.keep, self.encode = planned, keep, encode
        self.progress, self.budget = told
        self.tally = _tally.Tally()
        self.games: list[_G] = []
        self.pairs = 0
        self.resumed = 0
        self.writer: _checkpoint.Writer | None = None

    def resume(self, pair: Sequence[_G]) -> None:
        """
        Count the games of a pair played before (resumed), kept if the match keeps its games.
        """
        self._add(pair)
        self.resumed += 1

    def _add(self, pair: Sequence[_G]) -> None:
        if self.keep:  # the result works its summary out from the games
            self.games.extend(pair)
        else:
            add = self.tally.add
            for game in pair:
                add(game)
        self.pairs += 1

    def deliver(self, pair: Sequence[_G]) -> bool:
        """
        Take the next pair's games, played here: counted, kept, appended to the checkpoint, and
        the progress told; whether to go on (False once the time limit is spent).
        """
        if self.writer is not None:
            self.writer.append(_checkpoint.pair_line(self.pairs, [self.encode(game) for game in pair]))
        self._add(pair)
        if self.progress is not None:
            self.progress(2 * self.pairs, self.planned)
        return not self.budget.spent()

    def deliver_quietly(self, pair: Sequence[_G]) -> bool:
        """
        As `deliver`, the progress being told as tasks finish instead (`finished`).
        """
        if self.writer is not None:
            self.writer.append(_checkpoint.pair_line(self.pairs, [self.encode(game) for game in pair]))
        self._add(pair)
        return not self.budget.spent()

    def finished(self, pairs: int) -> None:
        """
        Tell the progress that *pairs* pairs of this run are finished, in whatever order.
        """
        if self.progress is not None:
            self.progress(2 * (self.resumed + pairs), self.planned)

    def close(self) -> None:
        """
        Close the checkpoint.
        """
        if self.writer is not None:
            self.writer.close()
