"""
The table server under load: N tables played at once over loopback, against a server subprocess.

Each table has two people, seats N and S, played by scripted WebSocket clients (the greedy
player's choices, made after a think time drawn uniformly from ``--think`` with a seed of the
table and the seat), and two greedy bots in seats E and W (``--bot-delay``, 0.05 s by default).
The server runs in a process of its own (``persian-rummy serve``, an SQLite file in a temporary
folder, so that every action is written before it is sent); the clients run in ``--clients``
processes of their own, each an asyncio loop holding both people of its tables, so that a
person's action and the other person's event are timed on one clock.

Measured for each number of tables (``--tables``, 10 100 500 by default), over ``--seconds`` of
play from the moment every client has connected:

- actions per second: every action the server accepted (deals, people's and bots' moves), counted
  from the events seat N received during the window;
- latency: from a person sending an action to the other person at the table receiving its event
  (p50, p99, max, and how many actions were timed);
- memory: the server's resident set size before the tables are made, once they are made and
  their people seated, and at its highest while they play; the growth divided by the number of
  tables.

Two loops:

- open (the default): each person thinks 50 to 200 ms before each action, and the bots wait 0.05 s,
  as at tables of people; the figure to watch is the latency at 100 tables;
- closed (``--closed``): each person answers at once and the bots do not wait, so that every table
  asks the server for its next action as soon as it has told the last one: the actions per second are
  the server's saturation throughput.  Its games last 100 deals (``num_deals=100``), so that no table
  runs out of game while it is measured.

With ``--baseline REF`` (a commit, a branch, ``main~3``), the same workload is also run, in the
same run, against the server of REF, checked out with ``git worktree`` into a temporary folder that
is removed at the end: at each size, this checkout's server and then REF's, one after the other on
the same machine, and the table has a row for each (``this``, and REF's short commit id).  The
limits of a newer server that a benchmark from one address would meet (tables made a minute,
connections from one address, messages a second, seeds refused) are lifted with the options of
``serve`` that a server lists in its ``serve --help``; those it does not list are left out.

It prints a table, and with ``--json FILE`` writes the figures.  ``nox -s bench-server`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.e2e._server import Message, ScriptedSeat, ServerProcess  # noqa: E402 (the worktree's helpers)
from tests.scale import _services  # noqa: E402

PEOPLE: Final = (0, 2)
SEATS: Final = ["person", "bot:greedy", "person", "bot:greedy"]


def _options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 500], help="numbers of tables to run")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play measured at each size")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="the bots' delay, in seconds (default 0.05)")
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.05, 0.2], metavar=("LOW", "HIGH"), help="a person's think time"
    )
    parser.add_argument(
        "--memory", action="store_true", help="keep the tables in memory (--db :memory:) instead of an SQLite file"
    )
    parser.add_argument("--clients", type=int, default=1, help="client processes (default 1)")
    parser.add_argument(
        "--closed", action="store_true", help="the closed loop: people answer at once and bots do not wait"
    )
    parser.add_argument(
        "--baseline", metavar="REF", help="also measure the server of this git commit or branch, in the same run"
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="*",
        default=[],
        metavar="N",
        help="also measure, at each size, N workers on PostgreSQL and Redis (started for the run) behind one port",
    )
    parser.add_argument("--seed", type=int, default=2026, help="the seed of the tables and the think times")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def scheduled(pid: int) -> tuple[float, float]:
    """
    Seconds the threads of process *pid* have run on a CPU, and waited for one while ready to run.

    From Linux's ``/proc/PID/task/*/schedstat``; zeros where it does not exist.
    """
    ran = waited = 0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            fields = (task / "schedstat").read_text().split()
        except OSError:
            continue
        ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


# -- the client processes ----------------------------------------------------------------------------------------


def _person(server: ServerProcess, table_id: str, token: str, seed: str, low: float, high: float) -> ScriptedSeat:
    """
    A scripted person who picks one of the legal actions at random after a think time from *low* to *high*.
    """
    rng = random.Random(seed)

    def pick(legal: list[Message], _seq: int) -> Message:
        return legal[rng.randrange(len(legal))]

    def think() -> float:
        return rng.uniform(low, high)

    return ScriptedSeat(server, table_id, token, pick=pick, think=think)


async def _play_tables(job: dict[str, Any]) -> dict[str, Any]:
    """
    Play the people of the tables in *job* for its seconds: events, latencies and errors.
    """
    server = ServerProcess(":memory:", log=Path(os.devnull))
    server.port = job["port"]
    low, high = job["think"]
    seats: list[tuple[ScriptedSeat, ScriptedSeat]] = []
    for table_id, tokens in job["tables"]:
        north, south = (
            _person(server, table_id, tokens[str(seat)], f"{job['seed']}/{table_id}/{seat}", low, high)
            for seat in PEOPLE
        )
        seats.append((north, south))
    tasks = [asyncio.create_task(seat.play()) for pair in seats for seat in pair]
    while sum(seat.connections for pair in seats for seat in pair) < len(tasks):  # noqa: ASYNC110 (counted by the seats)
        await asyncio.sleep(0.01)
    start, cpu = time.monotonic(), scheduled(os.getpid())
    await asyncio.wait(tasks, timeout=job["seconds"])
    end, cpu_after = time.monotonic(), scheduled(os.getpid())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {**_figures(seats, start, end), "ran": cpu_after[0] - cpu[0], "waited": cpu_after[1] - cpu[1]}


def _figures(seats: list[tuple[ScriptedSeat, ScriptedSeat]], start: float, end: float) -> dict[str, Any]:
    events = latencies = 0
    samples: list[float] = []
    for north, south in seats:
        events += sum(1 for at in north.received_at.values() if start <= at <= end)
        for sender, other in ((north, south), (south, north)):
            for seq, sent in sender.sent_at.items():
                received = other.received_at.get(seq + 1)
                if received is not None and start <= sent <= end:
                    samples.append(received - sent)
    latencies = len(samples)
    return {
        "events": events,
        "seconds": end - start,
        "latencies": samples,
        "timed": latencies,
        "errors": sum(len(seat.errors) for pair in seats for seat in pair),
        "error_codes": sorted({error["code"] for pair in seats for seat in pair for error in seat.errors}),
        "games_over": sum(1 for north, _ in seats if north.points is not None),
    }


def _worker() -> None:
    job = json.loads(sys.stdin.read())
    print(json.dumps(asyncio.run(_play_tables(job))), flush=True)


# -- one size ----------------------------------------------------------------------------------------------------


class _Peak:
    """
    The highest resident set size of the server, sampled in a thread every half second.
    """

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.peak = _rss_all(server)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.peak = max(self.peak, _rss_all(self.server))

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return max(self.peak, _rss_all(self.server))


#: The options of ``serve`` that lift the limits a benchmark from one address would meet, each with its
#: value (``None``: a switch), given to a server that knows them.
LIFTED: Final = {
    "--allow-seed": None,
    "--tables-per-minute": "0",
    "--max-connections-per-address": "0",
    "--rate": "1000",
    "--burst": "1000",
}
#: An option's name in a help text, whole (``--max-connections`` is not found in ``--max-connections-per-address``).
OPTION: Final = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def serve_options(src: Path, count: int) -> list[str]:
    """
    The options that lift, for *count* tables, the limits the server of *src* has, of those it knows.
    """
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "persian_rummy", "serve", "--help"]
    helped = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout  # noqa: S603
    known = set(OPTION.findall(helped))
    wanted = {**LIFTED, "--max-connections": str(4 * count + 100)}
    options: list[str] = []
    for option, value in wanted.items():
        if option in known:
            options += [option] if value is None else [option, value]
    return options


def _family(pid: int) -> list[int]:
    """
    *pid* and its children's ids (the workers of ``serve --workers``).
    """
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        children += [int(child) for child in task.read_text().split()]
    return [pid, *children]


def _scheduled_all(pid: int) -> tuple[float, float]:
    times = [scheduled(member) for member in _family(pid)]
    return sum(ran for ran, _ in times), sum(waited for _, waited in times)


def _rss_all(server: ServerProcess) -> int:
    total = 0
    for member in _family(server.pid):
        for line in Path(f"/proc/{member}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def _fresh_database(url: str, name: str) -> str:
    """
    A new empty database *name* on the PostgreSQL server of *url*: its URL.
    """
    import psycopg  # noqa: PLC0415 (only with --workers)

    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"create database {name}")  # a name of the benchmark's own
    return url.rpartition("/")[0] + "/" + name


def _run_size(
    options: argparse.Namespace,
    count: int,
    folder: Path,
    src: Path,
    workers: int = 0,
    services: tuple[str, str] | None = None,
) -> dict[str, Any]:
    name = f"{src.parent.name}-{count}-{workers}"
    db: str | Path = ":memory:" if options.memory else folder / f"tables-{name}.sqlite3"
    lifted = serve_options(src, count)
    if workers and services is not None:
        db = _fresh_database(services[0], f"bench_{count}_{workers}")
        lifted += ["--bus", services[1], "--workers", str(workers)]
    server = ServerProcess(db, log=folder / f"server-{name}.log", bot_delay=0.0, args=lifted, src=src)
    with server:
        before = _rss_all(server)
        tables = []
        rules = {"rules": "num_deals=100"} if options.closed else {}
        for index in range(count):
            spec = {"name": f"Bench {index}", "seats": SEATS, "seed": options.seed + index, **rules}
            table_id, tokens = server.seat_table({**spec, "bot_delay": options.bot_delay}, {0: "N", 2: "S"})
            tables.append((table_id, {str(seat): token for seat, token in tokens.items()}))
        seated = _rss_all(server)
        peak = _Peak(server)
        parts = [tables[part :: options.clients] for part in range(options.clients)]
        cpu, wall = _scheduled_all(server.pid), time.monotonic()
        results = _run_workers(options, server.port, parts)
        cpu_after, wall = _scheduled_all(server.pid), time.monotonic() - wall
        highest = peak.stop()
    samples = sorted(sample for result in results for sample in result["latencies"])
    seconds = max(result["seconds"] for result in results)
    mib = 1024 * 1024
    return {
        "tables": count,
        "actions_per_second": sum(result["events"] for result in results) / seconds,
        "seconds": seconds,
        "timed": len(samples),
        "p50_ms": 1000 * statistics.median(samples) if samples else None,
        "p99_ms": 1000 * samples[min(len(samples) - 1, int(0.99 * len(samples)))] if samples else None,
        "max_ms": 1000 * samples[-1] if samples else None,
        "errors": sum(result["errors"] for result in results),
        "error_codes": sorted({code for result in results for code in result["error_codes"]}),
        "games_over": sum(result["games_over"] for result in results),
        "server_cpu": (cpu_after[0] - cpu[0]) / wall,
        "server_waited": (cpu_after[1] - cpu[1]) / wall,
        "clients_cpu": sum(result["ran"] for result in results) / seconds,
        "clients_waited": sum(result["waited"] for result in results) / seconds,
        "rss_start_mib": before / mib,
        "rss_seated_mib": seated / mib,
        "rss_peak_mib": highest / mib,
        "kib_per_table_seated": (seated - before) / 1024 / count,
        "kib_per_table_playing": (highest - before) / 1024 / count,
        "serve_options": lifted,
    }


def _run_workers(options: argparse.Namespace, port: int, parts: list[list[Any]]) -> list[dict[str, Any]]:
    workers: list[subprocess.Popen[str]] = []
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    try:
        for part in parts:
            job = {
                "port": port,
                "tables": part,
                "think": options.think,
                "seed": options.seed,
                "seconds": options.seconds,
            }
            worker = subprocess.Popen(  # noqa: S603 - this script, as a worker
                [sys.executable, __file__, "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            workers.append(worker)
            if worker.stdin is None:
                raise RuntimeError("no pipe to the client process")
            worker.stdin.write(json.dumps(job))
            worker.stdin.close()
        results = []
        for worker in workers:
            if worker.stdout is None:
                raise RuntimeError("no pipe from the client process")
            output = worker.stdout.read()
            worker.wait()
            if worker.returncode != 0:
                raise RuntimeError(f"a client process failed with status {worker.returncode}")
            results.append(json.loads(output))
            worker.stdout.close()
        return results
    finally:
        for worker in workers:  # the client processes left running when something failed
            if worker.poll() is None:
                worker.kill()
                worker.wait()


# -- the report --------------------------------------------------------------------------------------------------

_COLUMNS: Final = (
    ("server", "server_name", "{}"),
    ("tables", "tables", "{:d}"),
    ("actions/s", "actions_per_second", "{:,.0f}"),
    ("p50 ms", "p50_ms", "{:.1f}"),
    ("p99 ms", "p99_ms", "{:.1f}"),
    ("max ms", "max_ms", "{:.1f}"),
    ("timed", "timed", "{:,d}"),
    ("errors", "errors", "{:d}"),
    ("games over", "games_over", "{:d}"),
    ("server CPU/wait", "server", "{}"),
    ("clients CPU/wait", "clients", "{}"),
    ("RSS MiB start/seated/peak", "rss", "{}"),
    ("KiB/table seated", "kib_per_table_seated", "{:.0f}"),
    ("KiB/table playing", "kib_per_table_playing", "{:.0f}"),
)


def _row(figures: dict[str, Any]) -> list[str]:
    cells = []
    for _title, key, form in _COLUMNS:
        if key in {"server", "clients"}:
            cells.append(f"{figures[key + '_cpu']:.0%}/{figures[key + '_waited']:.0%}")
        elif key == "rss":
            cells.append(
                f"{figures['rss_start_mib']:.0f}/{figures['rss_seated_mib']:.0f}/{figures['rss_peak_mib']:.0f}"
            )
        elif figures[key] is None:
            cells.append("-")
        else:
            cells.append(form.format(figures[key]))
    return cells


def _print_table(rows: list[dict[str, Any]]) -> None:
    titles = [title for title, _key, _form in _COLUMNS]
    cells = [_row(row) for row in rows]
    widths = [max(len(title), *(len(line[index]) for line in cells)) for index, title in enumerate(titles)]
    print("  ".join(title.rjust(width) for title, width in zip(titles, widths, strict=True)))
    for line in cells:
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))


def _servers(options: argparse.Namespace, folder: Path) -> list[tuple[str, Path]]:
    """
    The servers to measure, by name: this checkout's, and the baseline's, checked out into *folder*.
    """
    servers = [("this", ROOT / "src")]
    if options.baseline:
        tree = folder / "baseline"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), options.baseline], check=True)  # noqa: S603
        short = [*git, "rev-parse", "--short", options.baseline]
        commit = subprocess.run(short, check=True, capture_output=True, text=True)  # noqa: S603
        servers.append((commit.stdout.strip() or options.baseline, tree / "src"))
    return servers


def _remove_worktree(folder: Path) -> None:
    tree = folder / "baseline"
    if tree.exists():
        remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)]
        subprocess.run(remove, check=False)  # noqa: S603 (git, as the worktree was added)
        shutil.rmtree(tree, ignore_errors=True)


def _machine(options: argparse.Namespace) -> dict[str, Any]:
    load = os.getloadavg()
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "load_average": [round(value, 2) for value in load],
        "bot_delay": options.bot_delay,
        "think": options.think,
        "seconds": options.seconds,
        "clients": options.clients,
        "loop": "closed" if options.closed else "open",
        "baseline": options.baseline,
        "database": ":memory:" if options.memory else "an SQLite file",
    }


def _interrupt(_signal: int, _frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> None:
    options = _options(argv)
    if options.worker:
        _worker()
        return
    if options.closed:
        options.think, options.bot_delay = [0.0, 0.0], 0.0
    machine = _machine(options)
    print(
        f"Table server, {machine['loop']} loop: {machine['cores']} cores, Python {machine['python']}, "
        f"load {machine['load_average']}; bots' delay {options.bot_delay:g} s, think {options.think[0]:g}-"
        f"{options.think[1]:g} s, {options.seconds:g} s per size, {options.clients} client process(es), "
        f"tables in {machine['database']}",
        flush=True,
    )
    rows = []
    # Stopped with SIGTERM as with Ctrl-C: the servers stop and the baseline's worktree is removed.
    signal.signal(signal.SIGTERM, _interrupt)
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        try:
            servers = _servers(options, Path(folder))
            with contextlib.ExitStack() as stack:
                services = stack.enter_context(_services.services()) if options.workers else None
                for count in options.tables:
                    for name, src in servers:
                        rows.append({"server_name": name, **_run_size(options, count, Path(folder), src)})
                        print(f"  {count} tables done ({name})", flush=True)
                    for workers in options.workers:
                        figures = _run_size(options, count, Path(folder), ROOT / "src", workers, services)
                        rows.append({"server_name": f"pg x{workers}", **figures})
                        print(f"  {count} tables done (PostgreSQL, {workers} worker(s))", flush=True)
        finally:
            _remove_worktree(Path(folder))
    _print_table(rows)
    if options.json is not None:
        options.json.write_text(json.dumps({"machine": machine, "sizes": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
