"""
A match's checkpoint: a file of JSON lines written as the match goes, never rewritten.

Its first line is the match's head: ``{"format": "persian-rummy", "version": 1, "kind":
"match-checkpoint", "names": [...], "rules": "-", "seed": 0, "planned": 100, "records": false}``.
Each line after it holds one duplicate pair, ``{"pair": k, "games": [game 2k, game 2k + 1]}``, the
games as a match's JSON writes them, in the order of the pairs from the first on.  A line is
appended, and handed to the system, as soon as its pair and all those before it are finished, so
that a match killed outright keeps every pair it finished but the one it was writing; the last
line, cut short by such a kill, is left out when the file is read and dropped when the match is
resumed on it.  Writing it costs a line per pair: the file is never written again whole.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final, Self, TypeVar

from .. import limits as _limits
from ..exceptions import InvalidDataError, InvalidValueError
from ..serialize import FORMAT, VERSION, parse_json
from . import _checks

_G = TypeVar("_G")

#: The kind of a checkpoint's first line.
KIND: Final = "match-checkpoint"
#: The fields of a checkpoint's first line, in order.
HEAD_FIELDS: Final = ("format", "version", "kind", "names", "rules", "seed", "planned", "records")


def head(names: tuple[str, str], rules: str, seed: int, planned: int, *, records: bool) -> dict[str, object]:
    """
    The first line of the checkpoint of a match, as data.
    """
    values = (FORMAT, VERSION, KIND, list(names), rules, seed, planned, records)
    return dict(zip(HEAD_FIELDS, values, strict=True))


def line(data: object) -> bytes:
    """
    *data* as a line of the file.
    """
    return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")


def pair_line(pair: int, games: Iterable[object]) -> bytes:
    """
    The line of duplicate pair *pair*, whose games' JSON data are *games*.
    """
    return line({"pair": pair, "games": list(games)})


def is_checkpoint(text: bytes) -> bool:
    """
    Whether *text*, the start of a file, is that of a checkpoint (and not of a match's JSON result).
    """
    first = text.split(b"\n", 1)[0]
    return b'"kind": "match-checkpoint"' in first or b'"kind":"match-checkpoint"' in first


class Writer:
    """
    The checkpoint of a match being played, open to append its pairs' lines.
    """

    def __init__(self, path: Path, end: int) -> None:
        """
        Append to *path*, whose first *end* bytes are kept: a line cut short after them is dropped.
        """
        os.truncate(path, end)
        self.path = path
        self.file = path.open("ab", buffering=0)

    @classmethod
    def fresh(cls, path: Path, first: dict[str, object], lines: Iterable[bytes]) -> Writer:
        """
        A new checkpoint at *path*, its head *first* and then *lines*, written whole beside it and
        moved in place at once, so that no half-written checkpoint replaces a whole one.
        """
        temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            with temporary.open("wb") as out:
                out.write(line(first))
                out.writelines(lines)
            temporary.replace(path)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None
        return cls(path, path.stat().st_size)

    def append(self, text: bytes) -> None:
        """
        Add a pair's line and hand it to the system.
        """
        self.file.write(text)

    def close(self) -> None:
        """
        Close the file.
        """
        self.file.close()


class Reader:
    """
    A checkpoint read line by line: `head`, its first line as data, then its pairs' lines as data
    when iterated; `end` is the offset just past the last whole line read.

    Raises:
        InvalidDataError: the file is not a checkpoint, or a line is not JSON (the message names
            the file and the line).
        OSError: the file cannot be read.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = path.open("rb")
        self.end = 0
        self.number = 0
        first = self._next()
        if first is None or not isinstance(first, dict) or first.get("kind") != KIND:
            self.file.close()
            msg = f"{path}: line 1: not the head of a match's checkpoint"
            raise InvalidDataError(msg)
        self.head: dict[str, object] = first

    def _next(self) -> object | None:
        text = self.file.readline(_limits.MAX_JSON + 1)
        if not text.endswith(b"\n"):  # the end of the file, or a line cut short by a kill
            return None
        self.number += 1
        try:
            data = parse_json(text, limit=None)
        except InvalidDataError as error:
            msg = f"{self.path}: line {self.number}: {str(error).removeprefix('$: ')}"
            raise InvalidDataError(msg) from None
        self.end += len(text)
        return data

    def __iter__(self) -> Iterator[object]:
        try:
            while (data := self._next()) is not None:
                yield data
        finally:
            self.file.close()

    def close(self) -> None:
        """
        Close the file.
        """
        self.file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


# -- resuming on a checkpoint ----------------------------------------------------------------------------------


def check_head(head: dict[str, object], mine: dict[str, object], path: Path) -> None:
    """
    Refuse *head*, the first line of the checkpoint at *path*, unless it is *mine*, the head of
    the match that resumes on it, but for the games planned.
    """
    body = _checks.fields(head, f"{path}: line 1", HEAD_FIELDS)
    if (body["format"], body["version"]) != (FORMAT, VERSION):
        msg = f"{path}: line 1: expected format {FORMAT!r} and version {VERSION}"
        raise InvalidDataError(msg)
    for what in ("names", "rules", "seed", "records"):
        if body[what] != mine[what]:
            shown = f"{_limits.shown(body[what])}, not {_limits.shown(mine[what])}"
            msg = f"resume is the checkpoint of another match: its {what} are {shown}"
            raise InvalidValueError(msg)


def pair_lines(
    reader: Reader,
    mine: dict[str, object],
    games: int,
    read: Callable[[object, int, str], Sequence[_G]],
    counted: Callable[[Sequence[_G]], object],
) -> Iterator[bytes]:
    """
    The pairs' lines of the checkpoint *reader* reads, if it is one of the match whose head is
    *mine* with no more than *games* games: each line read (``read(data, pair, where)``, which
    refuses what is not that pair's), given to *counted*, and then handed on as it was.
    """
    try:
        check_head(reader.head, mine, reader.path)
        for number, data in enumerate(reader):
            if 2 * number + 2 > games:
                msg = f"resume holds more than {games} games: it cannot be resumed as a match of {games} games"
                raise InvalidValueError(msg)
            counted(read(data, number, f"{reader.path}: line {number + 2}"))
            yield line(data)
    finally:
        reader.close()


def _same_file(first: Path, second: Path) -> bool:
    try:
        return first.samefile(second)
    except OSError:
        return False


def open_for(
    checkpoint: Path | None, mine: dict[str, object], lines: Iterator[bytes], resumed: Reader | None
) -> Writer | None:
    """
    The checkpoint of a match whose head is *mine*, once the *lines* of the pairs it resumes are
    all read (and counted): appended to when it is the file *resumed* and of this very match (its
    games planned too), else written anew with those lines; `None` without a checkpoint.
    """
    if checkpoint is None:
        for _ in lines:
            pass
        return None
    if resumed is not None and resumed.head == mine and _same_file(resumed.path, checkpoint):
        for _ in lines:
            pass
        return Writer(checkpoint, resumed.end)
    return Writer.fresh(checkpoint, mine, lines)
