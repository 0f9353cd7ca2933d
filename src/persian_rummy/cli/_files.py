"""
The files of the ``persian-rummy`` command: an input (a file, or standard input for ``-``) read no
further than a limit, and only from a regular file; a file written whole, through a new file renamed
over it; and what the command echoes of its input, escaped.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import BinaryIO, Final

#: How messages name standard input and standard output.
STDIN: Final = "<stdin>"
STDOUT: Final = "<stdout>"
#: Opened without blocking, a FIFO does not wait for a writer (Windows has neither the flag nor FIFOs).
_READ_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def escaped(text: str) -> str:
    r"""
    *text* with every character that is not printable written as its Python escape: controls
    (``\x1b``, ``\n``, ``\x9b``, ``\x7f``), line and paragraph separators (``\u2028``), format
    characters such as bidirectional overrides (``\u202e``), and the ``\udcff`` of a file name
    that is not UTF-8.  What the command echoes from its input then stays on its line and
    sends the terminal nothing to act on.  Backslashes are left as they are.

    >>> print(escaped("Zoë\x1b[31m\na\u2028"))
    Zoë\x1b[31m\na\u2028
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def label(name: str) -> str:
    """
    How messages name the file *name*: ``<stdin>`` for ``-``.
    """
    return STDIN if name == "-" else name


def _read_stdin(size: int) -> bytes:
    stream = sys.stdin
    if stream is None or stream.closed:
        raise OSError(errno.EBADF, "standard input is closed")
    binary: BinaryIO | None = getattr(stream, "buffer", None)
    if binary is None:  # a text stream put in place of standard input
        return stream.read(size).encode("utf-8", "surrogatepass")
    return binary.read(size)


def _read_file(path: str, size: int) -> bytes:
    descriptor = os.open(path, _READ_FLAGS)
    with os.fdopen(descriptor, "rb") as file:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe or a device can be read as standard input, with -)")
        return file.read(size)


def read_input(name: str, limit: int) -> bytes:
    """
    The content of the file *name*, or of standard input for ``-``, if it is no longer than *limit*
    bytes: reading stops at the byte after, so an endless input costs no more.

    Raises:
        OSError: the input cannot be read, is not a regular file or is too long; the error's
            ``filename`` is the input's label.
    """
    try:
        data = _read_stdin(limit + 1) if name == "-" else _read_file(name, limit + 1)
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), label(name)) from None
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"too long: more than {limit:,} bytes", label(name))
    return data


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _target(path: str) -> tuple[Path, int]:
    """
    The file to write for *path* (through a symbolic link, the file it points to) and its mode.

    Raises:
        OSError: *path* is a directory, another file that is not a regular file, or not writable.
    """
    target = Path(path).resolve()
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target, 0o666 & ~_umask()
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file (to write the record to standard output, use -)")
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    return target, stat.S_IMODE(mode)


class RecordFile:
    """
    Where ``demo --record FILE`` writes: a new file beside *FILE*, made before the game is played, so
    that a path that cannot be written is refused at once, and renamed to *FILE* once the record is
    written, so that *FILE* never holds part of a record.  Errors name *FILE*.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        if not path:
            raise OSError(errno.ENOENT, "an empty path names no file", path)
        try:
            self.target, self.mode = _target(path)
            handle, name = tempfile.mkstemp(prefix=".persian-rummy-", suffix=".tmp", dir=self.target.parent)
        except OSError as error:
            raise OSError(error.errno, error.strerror or str(error), path) from None
        os.close(handle)
        self.temporary = Path(name)

    def write(self, text: str) -> None:
        try:
            self.temporary.write_text(text, encoding="utf-8")
            self.temporary.chmod(self.mode)
            self.temporary.replace(self.target)
        except OSError as error:
            self.discard()
            raise OSError(error.errno, error.strerror or str(error), self.path) from None

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self.temporary.unlink(missing_ok=True)
