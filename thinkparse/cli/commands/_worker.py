"""The worker side of ``--jobs`` (see :mod:`._jobs` for the parent side and the design).

A worker is forked from the parent with the run's settings (:func:`init`) and processes tasks:
a batch of JSON Lines handed over by the parent (:func:`batch`), a byte span of a regular JSON
Lines file it reads itself (:func:`batch_span`), or a whole FILE argument (:func:`whole_file`).
Each task returns a :data:`Result`; its standard error is recorded as :data:`Event` values, with
record messages numbered within the batch for the parent to number in the input, and a batch's
output is left in the task's slot of the shared :class:`Ring` when it fits.
"""

from __future__ import annotations

import argparse
import io
import mmap
import os
import signal
from collections.abc import Iterator
from typing import Optional, Union

from .._console import Console
from .._options import Settings
from .._output import Context
from ._jsonl import run_jsonl

#: This process's worker state, set by :func:`init`.
_worker: Optional[_Worker] = None


class _Recorder(Console):
    """A worker's standard error: messages and reasoning kept, in order, for the parent."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx.stdout)
        self.tty = self.dim = False
        self.events: list[Event] = []
        #: Line numbers of messages are kept relative to this one.
        self.base = 0

    def raw(self, text: str) -> None:
        self.events.append((False, text))

    def error(self, message: str) -> None:
        self.events.append((False, message.replace("\r", " ").replace("\n", " ") + "\n"))

    def line_error(self, name: str, lineno: int, message: str) -> None:
        # The parent knows where the batch starts: it writes the absolute line number.
        self.events.append((lineno - self.base, name, message))

    def reasoning(self, text: str) -> None:
        if text:
            self.events.append((True, text))


#: Something for standard error: ``(is reasoning, text)``, or a record's message
#: ``(line number within the batch, file name, message)``.
Event = Union[tuple[bool, str], tuple[int, str, str]]
#: A task's result: its output (bytes, or how many bytes it left in its slot of the shared ring),
#: the events in order, the exit status, whether a file header was written, and the batch's
#: number of lines (``None`` for a whole file, whose messages carry their own line numbers).
Result = tuple[Union[bytes, int], list[Event], int, bool, Optional[int]]

#: How far a worker reads at a time looking for a line end.
_PROBE = 1 << 16


class Ring:
    """Shared memory the workers leave batch outputs in: ``slots`` slots of ``size`` bytes,
    mapped before the workers are forked, so an output reaches the parent without pickling or a
    pipe (the parent writes it from the mapping).  Task ``i`` uses slot ``i % slots``; the parent
    keeps fewer than ``slots`` tasks pending, so a slot is reused only after it was written out.
    """

    def __init__(self, slots: int, size: int) -> None:
        self.slots = slots
        self.size = size
        self.memory = mmap.mmap(-1, slots * size)

    def view(self, slot: int, length: int) -> memoryview:
        """The first ``length`` bytes of ``slot``."""
        start = slot * self.size
        return memoryview(self.memory)[start : start + length]


class _Worker:
    def __init__(self, args: argparse.Namespace, ring: Optional[Ring]) -> None:
        self.sink = io.BytesIO()
        self.ctx = Context(Settings(args), sink=self.sink)
        self.recorder = _Recorder(self.ctx)
        self.ctx.console = self.recorder
        self.ring = ring
        self.slot = -1

    def reset(self, base: int = 0, slot: int = -1) -> None:
        self.sink.seek(0)
        self.sink.truncate()
        self.recorder.events = []
        self.recorder.base = base
        self.ctx.status = 0
        self.ctx.headers = 0
        self.slot = slot

    def result(self, lines: Optional[int]) -> Result:
        """This task's result; its output goes to its ring slot when it has one and fits."""
        self.ctx.stdout.flush()
        out: Union[bytes, int]
        ring = self.ring
        length = self.sink.tell()
        if ring is not None and self.slot >= 0 and length <= ring.size:
            with ring.view(self.slot, length) as target:
                target[:] = self.sink.getbuffer()
            out = length
        else:
            out = self.sink.getvalue()
        return out, self.recorder.events, self.ctx.status, self.ctx.headers > 0, lines


def init(args: argparse.Namespace, ring: Optional[Ring]) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = _Worker(args, ring)


def _the_worker() -> _Worker:
    worker = _worker
    if worker is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("worker not initialised")
    return worker


def batch(slot: int, shown: str, first: bool, offset: int, data: bytes) -> Result:
    """The records of ``data``: whole lines (the last without its line end) starting at byte
    ``offset`` of the input; ``first`` when they start the input."""
    return _records(slot, shown, first, offset, data.split(b"\n"))


def batch_span(slot: int, path: str, shown: str, start: int, end: int) -> Result:
    """The records of the lines of the file at ``path`` that start in bytes ``[start, end)``.

    A line starts at byte 0 and after every line end.  The worker finds its first line start
    (looking no further than ``end``) and reads on past ``end`` to the end of its last line, so
    consecutive spans give every line exactly once without the parent reading the file.
    """
    with open(path, "rb") as f:
        fd = f.fileno()
        first = start
        if start and os.pread(fd, 1, start - 1) != b"\n":
            found = _line_end(fd, start, end)
            first = end if found < 0 else found + 1
        if first >= end:
            return _records(slot, shown, False, first, [])
        data = os.pread(fd, end - first, first)
        if len(data) == end - first and not data.endswith(b"\n"):
            pieces = [data]
            at = end
            while True:  # the last line goes on past the span
                chunk = os.pread(fd, _PROBE, at)
                if not chunk:
                    break
                cut = chunk.find(b"\n")
                if cut >= 0:
                    pieces.append(chunk[: cut + 1])
                    break
                pieces.append(chunk)
                at += len(chunk)
            data = b"".join(pieces)
    lines = data.split(b"\n") if data else []
    if lines and not lines[-1]:
        lines.pop()  # the last line's end, not a line
    return _records(slot, shown, first == 0, first, lines)


def _line_end(fd: int, start: int, end: int) -> int:
    """The offset of the first line end in bytes ``[start, end)`` of ``fd``, else -1."""
    at = start
    while at < end:
        chunk = os.pread(fd, min(_PROBE, end - at), at)
        if not chunk:
            break
        cut = chunk.find(b"\n")
        if cut >= 0:
            return at + cut
        at += len(chunk)
    return -1


def _records(slot: int, shown: str, first: bool, offset: int, lines: list[bytes]) -> Result:
    # Line numbers count from the batch: 1 for the input's first line (which may hold a byte
    # order mark), from 2 otherwise; messages are kept relative and numbered by the parent.
    base = 0 if first else 1
    worker = _the_worker()
    worker.reset(base, slot)
    run_jsonl(worker.ctx, _numbered(lines, base, offset), shown, None)
    return worker.result(len(lines))


def whole_file(name: str) -> Result:
    worker = _the_worker()
    worker.reset()
    from ._file import one_file

    one_file(worker.ctx, name)
    return worker.result(None)


def _numbered(lines: list[bytes], lineno: int, offset: int) -> Iterator[tuple[int, int, bytes]]:
    for raw in lines:
        lineno += 1
        yield lineno, offset, raw
        offset += len(raw) + 1
