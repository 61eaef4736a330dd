"""Exit statuses, one-line errors and the guarded entry point shared by every ``thinkparse``
command and subcommand (see docs/behaviour.md#cli).

A subcommand's ``main(argv)`` can be written as::

    from thinkparse.cli._common import UsageError, guarded, Stdout

    def main(argv: list[str]) -> int:
        return guarded(lambda: _run(argv))

``guarded`` turns every way a run can end into its status and at most one line on stderr:
``UsageError`` -> 2, ``InputError`` -> its status (1 bad data, 2 cannot open), ``OutputError`` ->
1, Ctrl-C -> 130 quietly, a closed output pipe -> 141 quietly, any other exception -> 70
(``THINKPARSE_TRACEBACK=1`` prints the traceback).  Every message is prefixed ``thinkparse: ``
unless it already starts with an input's location.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import traceback
from typing import IO, Any, BinaryIO, Callable, Optional, Union, cast

__all__ = [
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_USAGE",
    "PROG",
    "STDIN_NAME",
    "InputError",
    "OutputError",
    "Stdout",
    "UsageError",
    "encode",
    "guarded",
    "isatty",
    "one_line",
    "stderr_line",
    "stdout_binary",
]

PROG = "thinkparse"
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
EXIT_INTERRUPTED, EXIT_PIPE = 130, 141
STDIN_NAME = "<stdin>"
_FLUSH_BYTES = 1 << 16
_SURROGATE = re.compile("[\ud800-\udfff]")


class UsageError(Exception):
    """A command-line mistake: one line, exit 2."""


class InputError(Exception):
    """One input could not be processed; ``status`` is 1 (bad data) or 2 (cannot open/read)."""

    def __init__(self, message: str, status: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.status = status


class OutputError(Exception):
    """Writing an output failed (other than a closed pipe): one line, exit 1, stop."""


def isatty(stream: Any) -> bool:
    """Whether ``stream`` is an open terminal (False for ``None`` or a closed stream)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (OSError, ValueError):
        return False


def encode(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates (from JSON escapes) become U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def one_line(message: str) -> str:
    """``message`` with its line breaks turned into spaces."""
    return message.replace("\r", " ").replace("\n", " ")


def stderr_line(message: str) -> None:
    """Write ``message`` as one line on stderr after flushing stdout; never raises."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(one_line(message) + "\n")
        sys.stderr.flush()


class ClosedOutput(io.RawIOBase):
    """Standard output when the command was started with it closed (``thinkparse FILE >&-``):
    writing anything to it is an ``OutputError`` (exit 1, M1), writing nothing is no error."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if not len(data):
            return 0
        raise OutputError("cannot write the output: standard output is closed")


def stdout_binary() -> BinaryIO:
    """The binary standard output; when it is closed, a :class:`ClosedOutput` whose first
    non-empty write is an ``OutputError`` -- never a silent success (M1)."""
    out = getattr(sys.stdout, "buffer", None)
    return out if out is not None else cast("BinaryIO", ClosedOutput())


def silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's last flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class Stdout:
    """Buffered UTF-8 output; ``flush`` on demand.  A closed pipe raises ``BrokenPipeError``,
    any other write failure ``OutputError``."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, text: str) -> None:
        """Queue ``text`` as UTF-8 (see :func:`encode`)."""
        self.add(encode(text))

    def add(self, data: bytes) -> None:
        """Queue ``data``; what is queued is written once 64 KiB are queued or on ``flush``."""
        self.parts.append(data)
        self.size += len(data)
        if self.size >= _FLUSH_BYTES:
            self.flush(sync=False)

    def write_bytes(self, data: Union[bytes, memoryview]) -> None:
        """Write ``data`` after what is queued."""
        self.flush(sync=False)
        self._write(data)

    def flush(self, sync: bool = True) -> None:
        """Write what is queued; with ``sync`` flush the stream too."""
        if self.parts:
            data = b"".join(self.parts)
            self.parts.clear()
            self.size = 0
            self._write(data)
        if sync:
            try:
                self.stream.flush()
            except BrokenPipeError:
                raise
            except OSError as exc:
                raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def _write(self, data: Union[bytes, memoryview]) -> None:
        try:
            view = memoryview(data)
            # BufferedWriter.write can return a short count and drop the error (EPIPE after a
            # partial write); write the rest until it is accepted or the error shows.
            while view:
                view = view[self.stream.write(view) or 0 :]
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


def guarded(run: Callable[[], int], flush: Optional[Callable[[], None]] = None) -> int:
    """Run ``run()`` and return its status, turning every exception into a status and one line.

    Args:
        run: the command; returns its exit status.
        flush: called (errors ignored) before an internal error is reported, so the output
            written so far comes first.

    Returns:
        ``run()``'s status, or 2 (usage), 1 (input or output error), 70 (internal error),
        130 (Ctrl-C) or 141 (closed output pipe).
    """
    try:
        return run()
    except UsageError as exc:
        stderr_line(f"{PROG}: error: {exc} (see '{PROG} --help')")
        return EXIT_USAGE
    except InputError as exc:
        stderr_line(str(exc))
        return exc.status
    except OutputError as exc:
        stderr_line(f"{PROG}: {exc}")
        return EXIT_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_PIPE
    except Exception as exc:
        if flush is not None:
            with contextlib.suppress(Exception):  # the first error is the one to report
                flush()
        if os.environ.get("THINKPARSE_TRACEBACK"):
            with contextlib.suppress(Exception):
                traceback.print_exc()
        stderr_line(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} "
            "(a bug in thinkparse; THINKPARSE_TRACEBACK=1 shows where)"
        )
        return EXIT_INTERNAL
