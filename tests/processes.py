"""
The processes of this machine as Linux shows them in ``/proc``: the children of a process and whether one is alive.

The tests of the match runner's workers (tests/test_matches_stops.py, tests/test_matches_resources.py) use
these to see that no worker outlives its parent.  Each test that calls them is skipped where `PROC` is
missing.
"""

from __future__ import annotations

from pathlib import Path

#: Where Linux shows its processes.
PROC = Path("/proc")


def _fields(pid: int | str) -> list[str] | None:
    """
    The fields of ``/proc/<pid>/stat`` after the command's name (the state first, then the parent), or
    None where the process has gone.
    """
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The name, in parentheses, may hold spaces and parentheses of its own: the fields follow the last ")".
    return text.rpartition(")")[2].split()


def children(pid: int) -> set[int]:
    """
    The processes whose parent is *pid*, zombies among them.
    """
    found = set()
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = _fields(entry.name)
            if fields is not None and int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """
    Whether the process *pid* exists and is neither a zombie nor dead.
    """
    fields = _fields(pid)
    return fields is not None and fields[0] not in {"Z", "X"}
