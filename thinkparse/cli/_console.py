"""Standard error of the ``thinkparse`` command: one-line messages, the reasoning
(``--reasoning-to-stderr``, dimmed on a terminal) and the JSON Lines progress bar.

Messages are best effort (there is nowhere else to report that stderr failed), but the reasoning
is output the user asked for: when it cannot be written the run fails -- ``OutputError`` (exit 1)
when standard error is closed or a write fails, ``BrokenPipeError`` (exit 141) when its pipe was
closed -- never a silent success.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Optional

from ._common import OutputError, Stdout, encode, isatty, one_line

_DIM, _UNDIM = "\x1b[2m", "\x1b[0m"


class Console:
    """Standard error, with the standard output whose text must come first."""

    def __init__(self, stdout: Stdout) -> None:
        self.stdout = stdout
        self.stream = getattr(sys.stderr, "buffer", None)
        self.tty = isatty(sys.stderr)
        self.dim = self.tty and not os.environ.get("NO_COLOR")
        self.progress: Optional[Progress] = None

    def raw(self, text: str) -> None:
        """Write ``text`` as is; failures are ignored."""
        if self.stream is None:
            return
        try:
            self.stream.write(encode(text))
            self.stream.flush()
        except (OSError, ValueError):
            pass  # standard error is gone: there is nowhere left to report anything

    def error(self, message: str) -> None:
        """One message line, after the output written so far."""
        self.stdout.flush()  # keep output and messages in order on a shared terminal
        if self.progress is not None:
            self.progress.erase()
        self.raw(one_line(message) + "\n")

    def line_error(self, name: str, lineno: int, message: str) -> None:
        """``NAME:LINE: message`` (see :meth:`error`)."""
        self.error(f"{name}:{lineno}: {message}")

    def reasoning(self, text: str) -> None:
        """Write reasoning text (dimmed on a terminal); a failed write is an error."""
        if not text:
            return
        if self.dim:
            body, end = (text[:-1], "\n") if text.endswith("\n") else (text, "")
            text = f"{_DIM}{body}{_UNDIM}{end}" if body else end
        if self.stream is None:
            raise OutputError("cannot write the reasoning: standard error is closed")
        try:
            self.stream.write(encode(text))
            self.stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise OutputError(f"cannot write the reasoning to standard error: {why}") from None


class Progress:
    """A one-line progress bar for JSON Lines input, redrawn at most ten times a second."""

    def __init__(self, console: Console, name: str, total: Optional[int]) -> None:
        self.console = console
        self.name = name
        self.total = total if total else None
        self.start = self.last = time.monotonic()
        self.shown = False
        self.drawn = False

    def tick(self, done: int, lines: int) -> None:
        """Redraw if a tenth of a second passed since the last drawing."""
        now = time.monotonic()
        if now - self.last >= 0.1 or not self.drawn:
            self.last = now
            self.drawn = True
            self.draw(done, lines, now)

    def draw(self, done: int, lines: int, now: float) -> None:
        """Draw the bar for ``done`` bytes and ``lines`` lines."""
        rate = done / max(now - self.start, 1e-6) / 1e6
        mb = done / 1e6
        if self.total:
            frac = min(done / self.total, 1.0)
            bar = "#" * int(frac * 24)
            line = (
                f"{self.name} [{bar:<24}] {frac * 100:3.0f}% {mb:.1f}/{self.total / 1e6:.1f} MB"
                f" {lines} lines {rate:.0f} MB/s"
            )
        else:
            line = f"{self.name} {mb:.1f} MB {lines} lines {rate:.0f} MB/s"
        self.console.raw(f"\r{line}\x1b[K")
        self.shown = True

    def erase(self) -> None:
        """Remove the bar from the terminal."""
        if self.shown:
            self.console.raw("\r\x1b[K")
            self.shown = False
