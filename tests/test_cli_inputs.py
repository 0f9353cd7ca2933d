"""
The ``persian-rummy`` command against bad input and hostile surroundings, each run as a real process
(``python -m persian_rummy``): closed standard streams, bytes that are not UTF-8, output encodings that
lack characters, files that are missing, unreadable, directories, FIFOs or endless, input too long,
control characters in names, an interrupt.  Every command either succeeds or exits with status 1 and
exactly one line on standard error naming its input, with nothing unprintable echoed and no traceback
(docs/records.md, "The commands"); an endless input is read only up to its limit.  No test here times a
command: one that never ends fails at `HANGING`, a deadline far beyond any machine's load.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from persian_rummy import GameRecord, Phase, format_position, from_json, new_game, to_json
from persian_rummy import limits as _limits
from persian_rummy.cli._narration import TERMS as _TERMS
from persian_rummy.pictures import card_legend, render_text
from persian_rummy.records import final_state

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and closed descriptors are POSIX")

#: Stands for the directory of the test's files in the table's arguments and expected output.
TMP = "TMP"
#: Seconds after which a command counts as never ending: it fails the test then, and only then.
HANGING = 120
#: The players, event and date of the record ``names.json``: escapes, a forged line, separators, controls.
PLAYERS = ("\x1b[31mred", "a\nforged line", "Zoë\u2028", "\x9b\x7f")
EVENT = "\x1b]0;title\x07"
DATE = "2026-01-01\r"
#: A file name with an escape sequence, a newline, a letter outside ASCII and a byte that is not UTF-8.
ODD_NAME = "\x1b[2J\nZoë" + os.fsdecode(b"\xff") + ".json"
#: The position of a new game, and the same with controls in its phase field.
NEW_GAME = format_position(new_game())
BAD_PHASE = NEW_GAME.replace(" deal ", " de\x1bal\x9b ", 1)
NOT_REGULAR = "not a regular file (a pipe or a device can be read as standard input, with -)"
NOT_REGULAR_OUT = "not a regular file (to write the record to standard output, use -)"
#: Runs the command and interrupts it (as Ctrl-C does) 0.3 s later.  Python turns SIGINT into
#: KeyboardInterrupt unless it started with the signal ignored, as a job started in the
#: background by a script does: the handler is set again so that the case runs anywhere.
INTERRUPTING = (
    "import signal, sys, threading\n"
    "from persian_rummy.cli import main\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "threading.Timer(0.3, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT)).start()\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
#: The surroundings: the environment variables set and the encoding the output is read with (in the C
#: locale Python speaks UTF-8).
SURROUNDINGS = {
    "utf-8": ({"PYTHONIOENCODING": "utf-8:strict"}, "utf-8"),
    "ascii": ({"PYTHONIOENCODING": "ascii"}, "ascii"),
    "latin-1": ({"PYTHONIOENCODING": "latin-1"}, "latin-1"),
    "C": ({"LC_ALL": "C"}, "utf-8"),
}


def _names_out(name: str, zoe: str, *, symbols: bool = True) -> str:
    return (
        f"Persian Rummy, game record {name}\n"
        f"Players: N \\x1b[31mred, E a\\nforged line, S {zoe}\\u2028, W \\x9b\\x7f\n"
        "Event: \\x1b]0;title\\x07\n"
        "Date: 2026-01-01\\r\n"
        "Rules: Persian Rummy\n"
        f"{card_legend(symbols=symbols)}\n"
        f"{''.join(line + chr(10) for line in _TERMS)}"
        "\n"
        "The game is not over: deal 0, phase deal.\n"
    )


def _demo_record_on_stdout(out: str) -> None:
    record = from_json(out, GameRecord)
    assert "persian-rummy demo, seed 3" == record.event
    assert (Phase.GAME_OVER, (102, 146)) == (final_state(record).phase, final_state(record).scores)


def _demo_game_printed(out: str) -> None:
    lines = out.splitlines()
    assert "Persian Rummy, random players, seed 3" == lines[0]
    assert "E-W win, 146 to 102." == lines[-1]


@dataclass(frozen=True)
class Case:
    """
    One run of the command: its arguments, standard input and output, surroundings, and what it must give.

    ``stdin`` is bytes to feed, ``"closed"``, ``"waiting"`` (a pipe that stays open and empty) or a
    file to read (a device, or a file of the table's folder); ``stdout`` is None (a pipe), ``"closed"``
    or a device to write to.  ``out`` is the whole of standard output, or a check of it; ``err`` the
    whole of standard error.  ``name`` is how a refusal must name the input.  ``program`` is what
    runs the command, ``-m persian_rummy`` or a script; ``as_root`` False skips the case for the
    superuser, whom file modes do not stop.  ``TMP`` stands for the folder of the table's files.
    """

    id: str
    argv: tuple[str, ...]
    code: int
    err: str
    name: str = ""
    out: str | Callable[[str], None] = ""
    stdin: bytes | str = b""
    stdout: str | None = None
    surroundings: str = "utf-8"
    program: tuple[str, ...] = ("-m", "persian_rummy")
    as_root: bool = True


def _zoe(surroundings: str) -> str:
    """
    How ``Zoë`` is written in *surroundings*: in ASCII, ë becomes an escape.
    """
    return "Zo\\xeb" if surroundings == "ascii" else "Zoë"


def _cases() -> Iterator[Case]:
    for key in SURROUNDINGS:
        yield Case(
            f"replay-names-{key}",
            ("replay", f"{TMP}/names.json"),
            0,
            "",
            out=_names_out(f"{TMP}/names.json", _zoe(key), symbols=key in {"utf-8", "C"}),
            surroundings=key,
        )
    for command, where, keys in (("replay", TMP, ("utf-8", "ascii")), ("demo", f"{TMP}/x", ("latin-1", "C"))):
        for key in keys:
            name = f"{where}/\\x1b[2J\\n{_zoe(key)}\\udcff.json"
            argv = (
                ("replay", f"{TMP}/{ODD_NAME}") if command == "replay" else ("demo", "--record", f"{where}/{ODD_NAME}")
            )
            yield Case(
                f"{command}-odd-file-name-{key}",
                argv,
                1,
                f"persian-rummy: {name}: No such file or directory\n",
                name=name,
                surroundings=key,
            )
    yield from _replay_cases()
    yield from _show_cases()
    yield from _demo_cases()


def _replay_cases() -> Iterator[Case]:
    refused = "persian-rummy: {}: {}\n".format
    for id_, path, reason in (
        ("missing", f"{TMP}/missing.json", "No such file or directory"),
        ("directory", f"{TMP}/folder", "Is a directory"),
        ("fifo", f"{TMP}/pipe", NOT_REGULAR),
        ("dev-zero", "/dev/zero", NOT_REGULAR),
        ("too-long", f"{TMP}/long.json", f"too long: more than {_limits.MAX_JSON:,} bytes"),
    ):
        yield Case(f"replay-{id_}", ("replay", path), 1, refused(path, reason), name=path)
    yield Case(
        "replay-unreadable",
        ("replay", f"{TMP}/unreadable.json"),
        1,
        refused(f"{TMP}/unreadable.json", "Permission denied"),
        name=f"{TMP}/unreadable.json",
        as_root=False,
    )
    for id_, stdin, reason in (
        ("closed-stdin", "closed", "standard input is closed"),
        ("binary-stdin", b"\xff\xfe\x00", "$: not UTF-8 text: invalid start byte"),
        ("endless-stdin", "/dev/zero", f"too long: more than {_limits.MAX_JSON:,} bytes"),
    ):
        yield Case(f"replay-{id_}", ("replay", "-"), 1, refused("<stdin>", reason), name="<stdin>", stdin=stdin)
    yield Case("replay-stdin", ("replay", "-"), 0, "", out=_names_out("<stdin>", "Zoë"), stdin="names.json")


def _show_cases() -> Iterator[Case]:
    for id_, stdin, reason, key in (
        ("closed-stdin", "closed", "standard input is closed", "ascii"),
        ("binary-stdin", b"\xff\xfe\x00", "not UTF-8 text: invalid start byte", "C"),
        ("endless-stdin", "/dev/zero", f"too long: more than {_limits.MAX_NOTATION:,} bytes", "utf-8"),
    ):
        yield Case(
            f"show-{id_}",
            ("show", "-"),
            1,
            f"persian-rummy: <stdin>: {reason}\n",
            name="<stdin>",
            stdin=stdin,
            surroundings=key,
        )
    yield Case(
        "show-controls-in-the-argument",
        ("show", BAD_PHASE),
        1,
        "persian-rummy: field 3 is a phase (deal, draw, play, deal_over, game_over, calls/SEAT, called/SEAT),"
        " got 'de\\x1bal\\x9b'\n",
        surroundings="latin-1",
    )
    for key in ("utf-8", "ascii"):
        symbols = key == "utf-8"
        yield Case(
            f"show-stdin-{key}",
            ("show", "-"),
            0,
            "",
            out=f"Rules: Persian Rummy\n{render_text(new_game(), symbols=symbols)}\n{card_legend(symbols=symbols)}\n",
            stdin=f"\n {NEW_GAME} \n".encode(),
            surroundings=key,
        )
    yield Case("show-interrupted", ("show", "-"), 130, "", stdin="waiting", program=("-c", INTERRUPTING))


def _demo_cases() -> Iterator[Case]:
    refused = "persian-rummy: {}: {}\n".format
    for id_, path, reason in (
        ("record-in-a-missing-directory", f"{TMP}/x/game.json", "No such file or directory"),
        ("record-to-a-directory", f"{TMP}/folder", "Is a directory"),
        ("record-to-a-fifo", f"{TMP}/pipe", NOT_REGULAR_OUT),
        ("record-to-a-device", "/dev/null", NOT_REGULAR_OUT),
    ):
        yield Case(f"demo-{id_}", ("demo", "--seed", "3", "--record", path), 1, refused(path, reason), name=path)
    for id_, path in (("record-read-only", f"{TMP}/read-only.json"), ("record-locked", f"{TMP}/locked/game.json")):
        yield Case(
            f"demo-{id_}",
            ("demo", "--seed", "3", "--record", path),
            1,
            refused(path, "Permission denied"),
            name=path,
            as_root=False,
        )
    yield Case(
        "demo-record-on-stdout",
        ("demo", "--seed", "3", "--record", "-"),
        0,
        "",
        out=_demo_record_on_stdout,
        surroundings="ascii",
    )
    yield Case(
        "demo-closed-stdin",
        ("demo", "--seed", "3", "--record", f"{TMP}/new.json"),
        0,
        "",
        out=_demo_game_printed,
        stdin="closed",
    )
    yield Case(
        "demo-closed-stdout",
        ("demo", "--seed", "3", "--record", f"{TMP}/unwritten.json"),
        1,
        refused("<stdout>", "standard output is closed"),
        name="<stdout>",
        stdout="closed",
    )
    yield Case(
        "demo-full-device",
        ("demo", "--seed", "3"),
        1,
        refused("<stdout>", "No space left on device"),
        name="<stdout>",
        stdout="/dev/full",
    )


CASES = list(_cases())


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """
    The files of the table: a record with control characters in its names, files too long, a
    directory, a FIFO, and a file and a directory that cannot be read or written.
    """
    path = tmp_path_factory.mktemp("inputs")
    record = GameRecord(players=PLAYERS, event=EVENT, date=DATE)
    (path / "names.json").write_text(to_json(record), encoding="utf-8")
    with (path / "long.json").open("wb") as file:  # a byte too many, and no room taken on the disk
        file.truncate(_limits.MAX_JSON + 1)
    (path / "folder").mkdir()
    os.mkfifo(path / "pipe")
    (path / "unreadable.json").write_text(to_json(record), encoding="utf-8")
    (path / "unreadable.json").chmod(0)
    (path / "read-only.json").write_text("{}", encoding="utf-8")
    (path / "read-only.json").chmod(0o444)
    (path / "locked").mkdir(mode=0o555)
    return path


@dataclass(frozen=True)
class Run:
    """
    What a run gave: its exit status, and its output and error bytes.
    """

    code: int
    out: bytes
    err: bytes


def _environment(case: Case) -> dict[str, str]:
    kept = {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LANGUAGE"} and not name.startswith("LC_")
    }
    return kept | SURROUNDINGS[case.surroundings][0]


@contextmanager
def _standard_input(case: Case, folder: Path) -> Iterator[tuple[int | IO[bytes], bytes | None]]:
    """
    What to give `subprocess.run` as *case*'s standard input: a file or a descriptor, and the bytes to feed.
    """
    if isinstance(case.stdin, bytes):
        yield subprocess.PIPE, case.stdin
    elif case.stdin == "closed":  # closed by the shell that starts the command
        yield subprocess.DEVNULL, None
    elif case.stdin == "waiting":
        reading, writing = os.pipe()
        try:
            yield reading, None
        finally:
            os.close(reading)
            os.close(writing)
    else:
        with (folder / case.stdin).open("rb") as file:  # an absolute path stays as it is
            yield file, None


@contextmanager
def _standard_output(case: Case) -> Iterator[int | IO[bytes]]:
    if case.stdout is None or case.stdout == "closed":  # closed by the shell that starts the command
        yield subprocess.PIPE
    else:
        with Path(case.stdout).open("wb") as file:
            yield file


def _run(case: Case, folder: Path) -> Run:
    """
    Run *case* in a process of its own and return what it gave (`subprocess.TimeoutExpired` if it never ends).
    """
    argv = [sys.executable, *case.program, *(argument.replace(TMP, str(folder)) for argument in case.argv)]
    closing = ("<&- " if case.stdin == "closed" else "") + (">&- " if case.stdout == "closed" else "")
    if closing:
        argv = ["/bin/sh", "-c", f'exec "$@" {closing}', "sh", *argv]
    with _standard_input(case, folder) as (stdin, fed), _standard_output(case) as stdout:
        done = subprocess.run(  # noqa: S603 (this interpreter, the table's fixed arguments)
            argv,
            input=fed,
            stdin=None if fed is not None else stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=_environment(case),
            timeout=HANGING,
            check=False,
        )
    return Run(done.returncode, done.stdout or b"", done.stderr)


def _unprintable(text: str) -> list[str]:
    return [char for char in text if not char.isprintable() and char != "\n"]


class TestEveryCommandAgainstBadInput:
    """
    Each command, run as a process against each input and surrounding of the table, exits with the
    table's status and writes exactly the table's output and error: one line naming the input when
    it refuses it, no traceback, no unprintable character.
    """

    @pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
    def test_run(self, case: Case, folder: Path) -> None:
        if not case.as_root and os.geteuid() == 0:
            pytest.skip("the superuser reads and writes whatever the modes say")
        if case.stdout not in {None, "closed"} and not Path(str(case.stdout)).exists():
            pytest.skip(f"no {case.stdout} here")
        run = _run(case, folder)
        encoding = SURROUNDINGS[case.surroundings][1]
        out, err = run.out.decode(encoding), run.err.decode(encoding)
        assert (case.code, case.err.replace(TMP, str(folder))) == (run.code, err)
        if callable(case.out):
            case.out(out)
        else:
            assert case.out.replace(TMP, str(folder)) == out
        assert [] == _unprintable(out + err)
        assert b"Traceback" not in run.out + run.err


def _bytes_read_from_an_endless_pipe(argv: list[str], limit: int) -> tuple[int, bytes, int]:
    """
    Run *argv* with standard input a pipe kept full until the command exits: its exit status, its
    standard error, and how many bytes it took from the pipe.

    The pipe is fed far beyond *limit* (64 MiB more) and then closed, so a command that read on
    regardless would end on the end of its input, having taken all of it.
    """
    reading, writing = os.pipe()
    os.set_blocking(writing, False)
    chunk, written, most = b"0" * 65536, 0, limit + (64 << 20)
    try:
        process = subprocess.Popen(  # noqa: S603 (this interpreter, fixed arguments)
            argv, stdin=reading, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_environment(CASES[0])
        )
        while process.poll() is None and written < most:
            try:
                written += os.write(writing, chunk)
            except BlockingIOError:  # the pipe is full: wait until the command takes some, or a moment
                select.select([], [writing], [], 0.05)
        os.close(writing)
        writing = -1
        _, err = process.communicate(timeout=HANGING)
        left = 0  # what the pipe still holds, up to its end (the writing end is closed)
        while data := os.read(reading, 65536):
            left += len(data)
    finally:
        os.close(reading)
        if writing != -1:
            os.close(writing)
    return process.returncode, err, written - left


class TestEndlessInput:
    """
    "Reading stops at the byte after [the limit], so an endless input costs no more": a command given a
    pipe that never ends takes from it the limit's bytes and one more (and at most a buffer of its
    reader beyond), and refuses it.
    """

    @pytest.mark.parametrize(("command", "limit"), [("show", _limits.MAX_NOTATION), ("replay", _limits.MAX_JSON)])
    def test_read_up_to_the_limit(self, command: str, limit: int) -> None:
        argv = [sys.executable, "-m", "persian_rummy", command, "-"]
        code, err, taken = _bytes_read_from_an_endless_pipe(argv, limit)
        assert (1, f"persian-rummy: <stdin>: too long: more than {limit:,} bytes\n") == (code, err.decode())
        assert limit + 1 <= taken <= limit + 1 + (256 << 10), f"{taken:,} bytes read"


class TestTheTable:
    """
    The table runs every command, in every surrounding, and what it expects of a refusal is one line
    that starts with the program's name and names the input.
    """

    def test_every_command_in_every_surrounding(self) -> None:
        run = {(case.argv[0], case.surroundings) for case in CASES}
        assert {(command, key) for command in ("demo", "replay", "show") for key in SURROUNDINGS} <= run

    @pytest.mark.parametrize("case", [case for case in CASES if case.code == 1], ids=lambda case: case.id)
    def test_a_refusal_is_one_line_naming_the_input(self, case: Case) -> None:
        assert 1 == case.err.count("\n")
        assert case.err.endswith("\n")
        assert case.err.startswith(f"persian-rummy: {case.name}: " if case.name else "persian-rummy: ")
        assert [] == _unprintable(case.err)

    def test_the_names_have_every_kind_of_unprintable_character(self) -> None:
        record = from_json((to_json(GameRecord(players=PLAYERS, event=EVENT, date=DATE))), GameRecord)
        unprintable = {char for char in "".join((*PLAYERS, EVENT, DATE, ODD_NAME)) if not char.isprintable()}
        assert (PLAYERS, EVENT, DATE) == (record.players, record.event, record.date)
        assert {"\x1b", "\n", "\r", "\x07", "\x7f", "\x9b", "\u2028", "\udcff"} == unprintable
