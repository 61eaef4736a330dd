"""``--jobs N``: worker processes over JSON Lines and text inputs, output in input order (C6).

* A JSON Lines input is cut into batches of whole lines (about 1 MB each) that workers process
  exactly as the single-process loop does; the parent writes each batch's output, then its
  messages, strictly in input order, so the output is byte-identical to ``--jobs 1``.
* A regular file is not read by the parent at all: it hands out byte spans of 1 MB and each
  worker reads the lines that start in its span (see :func:`_batch_span`).  Standard input and
  other streams are read by the parent and their batches sent to the workers.
* Messages name the line of the input: a worker numbers them within its batch and the parent,
  which writes batches in order and so knows how many lines came before, adds that count.
* Other FILE arguments are processed whole by a worker each, several at once; their outputs are
  written in argument order.  Standard input is read by the parent (in batches when it is a
  seekable JSON Lines file, else in one process).
* Memory is bounded: at most ``2 * N`` batches are in flight, each worker holds one batch (or
  streams one text file in bounded memory).
* Ctrl-C: workers ignore SIGINT; the parent stops, cancels what is queued, exits 130 quietly.  A
  closed output pipe ends quietly (141) the same way.
* ``--jobs 0`` means one worker per CPU; ``--jobs 1`` is the single-process path.  ``--stream``
  and ``--html`` take no ``--jobs`` (a usage error): a live stream and a page are one sequence.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import multiprocessing
import os
import shutil
import signal
import stat
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import IO, Any, Optional, Union, cast

from ._common import InputError
from ._console import Console
from ._inputs import json_object_line, open_input
from ._jsonl import run_jsonl
from ._options import Settings
from ._output import Context

_BATCH = 1 << 20
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
#: A batch result: the output bytes (or the path of the spool file holding them), the events in
#: order, the exit status, whether a file header was written, and the batch's number of lines
#: (``None`` for a whole file, whose messages carry their own line numbers).
Result = tuple[Union[bytes, str], list[Event], int, bool, Optional[int]]

#: Outputs at least this large go back through a spool file rather than the result pipe.
_SPOOL_MIN = 1 << 16
#: How far a worker reads at a time looking for a line end.
_PROBE = 1 << 16


class _Worker:
    def __init__(self, args: argparse.Namespace, spool: Optional[str]) -> None:
        self.sink = io.BytesIO()
        self.ctx = Context(Settings(args), sink=self.sink)
        self.recorder = _Recorder(self.ctx)
        self.ctx.console = self.recorder
        self.spool = spool
        self.spooled = 0

    def reset(self, base: int = 0) -> None:
        self.sink.seek(0)
        self.sink.truncate()
        self.recorder.events = []
        self.recorder.base = base
        self.ctx.status = 0
        self.ctx.headers = 0

    def result(self, lines: Optional[int]) -> Result:
        """This task's result; a JSON Lines batch's large output is spooled."""
        self.ctx.stdout.flush()
        out: Union[bytes, str]
        if lines is not None and self.spool is not None and self.sink.tell() >= _SPOOL_MIN:
            # Written once here and copied by the kernel in the parent: the output does not
            # pass through pickling and the result pipe (several copies on each side).
            self.spooled += 1
            out = os.path.join(self.spool, f"{os.getpid()}-{self.spooled}")
            with open(out, "xb") as f:
                f.write(self.sink.getbuffer())
        else:
            out = self.sink.getvalue()
        return out, self.recorder.events, self.ctx.status, self.ctx.headers > 0, lines


def _init(args: argparse.Namespace, spool: Optional[str]) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = _Worker(args, spool)


def _the_worker() -> _Worker:
    worker = _worker
    if worker is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("worker not initialised")
    return worker


def _batch(shown: str, first: bool, offset: int, data: bytes) -> Result:
    """The records of ``data``: whole lines (the last without its line end) starting at byte
    ``offset`` of the input; ``first`` when they start the input."""
    return _records(shown, first, offset, data.split(b"\n"))


def _batch_span(path: str, shown: str, start: int, end: int) -> Result:
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
            return _records(shown, False, first, [])
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
    body = data[:-1] if data.endswith(b"\n") else data
    return _records(shown, first == 0, first, body.split(b"\n") if data else [])


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


def _records(shown: str, first: bool, offset: int, lines: list[bytes]) -> Result:
    # Line numbers count from the batch: 1 for the input's first line (which may hold a byte
    # order mark), from 2 otherwise; messages are kept relative and numbered by the parent.
    base = 0 if first else 1
    worker = _the_worker()
    worker.reset(base)
    run_jsonl(worker.ctx, _numbered(lines, base, offset), shown, None)
    return worker.result(len(lines))


def _file(name: str) -> Result:
    worker = _the_worker()
    worker.reset()
    from ._run import one_file

    one_file(worker.ctx, name)
    return worker.result(None)


def _numbered(lines: list[bytes], lineno: int, offset: int) -> Iterator[tuple[int, int, bytes]]:
    for raw in lines:
        lineno += 1
        yield lineno, offset, raw
        offset += len(raw) + 1


class Jobs:
    """The worker pool of one run and the parent's side of writing results in order."""

    def __init__(self, ctx: Context, count: int) -> None:
        self.ctx = ctx
        self.count = count
        try:
            mp: Any = multiprocessing.get_context("fork")
        except ValueError:  # pragma: no cover - platforms without fork
            mp = multiprocessing.get_context()
        args = argparse.Namespace(**{**vars(ctx.args), "output": None, "jobs": 1})
        self.spool = _spool_dir()
        self.pool = ProcessPoolExecutor(
            count, mp_context=mp, initializer=_init, initargs=(args, self.spool)
        )
        self.pending: collections.deque[Future[Result]] = collections.deque()
        #: Lines of the current JSON Lines input written so far (numbers its messages).
        self.lines = 0

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)
        if self.spool is not None:
            shutil.rmtree(self.spool, ignore_errors=True)

    def _write(self, result: Result) -> None:
        out, events, status, header, lines = result
        ctx = self.ctx
        if isinstance(out, str):  # a JSON Lines batch's output (no file header)
            try:
                ctx.stdout.write_file(out)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(out)
            out = b""
        else:
            if header and ctx.headers and out.startswith(b"==> "):
                out = b"\n" + out
            if header:
                ctx.headers += 1
        if out:
            ctx.stdout.write_bytes(out)
        base = self.lines if lines is not None else 0
        if events:
            ctx.stdout.flush()
            for event in events:
                if isinstance(event[0], bool):
                    if event[0]:
                        ctx.console.reasoning(event[1])
                    else:
                        ctx.console.error(event[1].rstrip("\n"))
                else:
                    lineno, name, message = cast("tuple[int, str, str]", event)
                    ctx.console.line_error(name, base + lineno, message)
        if lines is not None:
            self.lines += lines
        ctx.status = max(ctx.status, status)

    def drain(self, keep: int = 0) -> None:
        """Write finished results in order until at most ``keep`` are pending."""
        while len(self.pending) > keep:
            self._write(self.pending.popleft().result())

    def submit_file(self, name: str) -> None:
        self.pending.append(self.pool.submit(_file, name))
        self.drain(2 * self.count)

    def jsonl_file(self, stream: IO[bytes], path: str, shown: str) -> None:
        """One JSON Lines regular file: the workers read their own spans of it."""
        self.drain()
        self.lines = 0
        path = os.path.abspath(path)
        size = os.fstat(stream.fileno()).st_size
        for start in range(0, size, _BATCH):
            self.pending.append(
                self.pool.submit(_batch_span, path, shown, start, min(start + _BATCH, size))
            )
            self.drain(2 * self.count)
        self.drain()

    def jsonl(self, stream: IO[bytes], head: bytes, shown: str) -> None:
        """One JSON Lines input in batches of lines, read here."""
        self.drain()
        self.lines = 0
        offset = 0
        rest = head
        while True:
            block = stream.read(_BATCH)
            data = rest + block
            if block:
                cut = data.rfind(b"\n")
                if cut < 0:
                    rest = data
                    continue
                data, rest = data[:cut], data[cut + 1 :]
            elif not data:
                break
            else:
                rest = b""
            self.pending.append(self.pool.submit(_batch, shown, offset == 0, offset, data))
            offset += len(data) + 1
            self.drain(2 * self.count)
            if not block:
                break
        self.drain()


def _spool_dir() -> Optional[str]:
    """A private directory for batch outputs, in memory (``/dev/shm``) when the system has it;
    ``None`` (outputs through the result pipe) when none can be made."""
    shm = "/dev/shm"
    base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None
    try:
        return tempfile.mkdtemp(prefix="thinkparse-jobs-", dir=base)
    except OSError:
        return None


def run_jobs(ctx: Context, files: list[str], count: int) -> None:
    """Process ``files`` with ``count`` worker processes."""
    jobs = Jobs(ctx, count)
    try:
        for name in files:
            if name == "-" or _is_jsonl(ctx.settings, name):
                try:
                    stream, shown, owned = open_input(name)
                except InputError as exc:
                    jobs.drain()
                    ctx.fail(str(exc), exc.status)
                    continue
                try:
                    if name == "-" and not _is_jsonl_stream(ctx.settings, name, stream):
                        jobs.drain()
                        from ._run import one_file

                        one_file(ctx, name)
                    elif owned and _is_regular(stream):
                        jobs.jsonl_file(stream, name, shown)
                    else:
                        jobs.jsonl(stream, b"", shown)
                finally:
                    if owned:
                        stream.close()
            else:
                jobs.submit_file(name)
        jobs.drain()
    except BaseException:
        jobs.close(cancel=True)
        raise
    jobs.close()


def _is_regular(stream: IO[bytes]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return False


def _is_jsonl(settings: Settings, name: str) -> bool:
    fmt = settings.args.format
    if fmt is not None:
        return bool(fmt == "jsonl")
    if name.lower().endswith((".jsonl", ".ndjson")):
        return True
    try:
        with open(name, "rb") as f:
            return _first_lines_are_records(settings, f)
    except OSError:
        return False


def _is_jsonl_stream(settings: Settings, name: str, stream: IO[bytes]) -> bool:
    fmt = settings.args.format
    if fmt is not None:
        return bool(fmt == "jsonl")
    try:
        if stream.seekable():
            at = stream.tell()
            found = _first_lines_are_records(settings, stream)
            stream.seek(at)
            return found
    except (OSError, ValueError):
        pass
    return False


def _first_lines_are_records(settings: Settings, f: IO[bytes]) -> bool:
    first = f.readline(1 << 25)
    if json_object_line(first, settings.errors) is None:
        return False
    return any(not line.isspace() for line in f)


def cpu_count() -> int:
    """Usable CPUs (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1
