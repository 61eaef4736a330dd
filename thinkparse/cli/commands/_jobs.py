"""``--jobs N``: worker processes over JSON Lines and text inputs, output in input order (C6).

* A JSON Lines input is cut into batches of whole lines (about 1 MB each) that workers process
  exactly as the single-process loop does; the parent writes each batch's output, then its
  messages, strictly in input order, so the output is byte-identical to ``--jobs 1``.
* A regular file is not read by the parent at all: it hands out byte spans of 1 MB and each
  worker reads the lines that start in its span (:func:`._worker.batch_span`).  Standard input
  and other streams are read by the parent and their batches sent to the workers.
* Messages name the line of the input: a worker numbers them within its batch and the parent,
  which writes batches in order and so knows how many lines came before, adds that count.
* A batch's output comes back through memory shared with the workers (:class:`._worker.Ring`,
  one slot per batch in flight, mapped before the fork), not pickled through the result pipe;
  an output larger than a slot (2 MB, twice a batch) still takes the pipe.
* Other FILE arguments are processed whole by a worker each, several at once; their outputs are
  written in argument order.  Standard input is read by the parent (in batches when it is a
  seekable JSON Lines file, else in one process).
* Memory is bounded: at most ``2 * N`` batches are in flight, each worker holds one batch (or
  streams one text file in bounded memory).
* Ctrl-C: workers ignore SIGINT; the parent stops, cancels what is queued, exits 130 quietly.  A
  closed output pipe ends quietly (141) the same way.
* A worker that dies (the out-of-memory killer's SIGKILL) ends the run: the output written so far
  stays, one line says it is incomplete, exit 1.  Workers that cannot be started (``fork``
  fails) are one line and exit 1 too; without memory for the shared ring, outputs come back
  through the result pipe.  ``--jobs`` takes at most ``MAX_JOBS`` (1024), and ``--jobs 0`` as
  many as there are CPUs, up to that.
* ``--jobs 0`` means one worker per CPU; ``--jobs 1`` is the single-process path.  ``--stream``
  and ``--html`` take no ``--jobs`` (a usage error): a live stream and a page are one sequence.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import stat
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any, Optional, cast

from .._common import InputError
from .._inputs import json_object_line, ollama_chunk, open_input
from .._options import Settings
from .._output import Context
from .._parser import MAX_JOBS
from ._worker import Result, Ring, batch, batch_span, init, whole_file

#: Bytes per batch of JSON Lines.
_BATCH = 1 << 20
#: The message when a worker is gone (the kernel's out-of-memory killer sends SIGKILL).
WORKER_DIED = (
    "thinkparse: a worker process died (killed by a signal, perhaps for lack of memory): "
    "the output is incomplete"
)


class Jobs:
    """The worker pool of one run and the parent's side of writing results in order."""

    def __init__(self, ctx: Context, count: int) -> None:
        self.ctx = ctx
        self.count = count
        #: At most this many tasks are pending; each has its own ring slot.
        self.depth = 2 * count
        self.ring: Optional[Ring] = None
        try:
            mp: Any = multiprocessing.get_context("fork")
        except ValueError:  # pragma: no cover - platforms without fork: outputs are pickled
            mp = multiprocessing.get_context()
        else:
            try:
                # Forked workers share the mapping; a ring slot holds any usual batch's output.
                self.ring = Ring(self.depth + 1, 2 * _BATCH)
            except (OSError, OverflowError, ValueError):
                self.ring = None  # no memory for it: outputs come back through the pipe
        args = argparse.Namespace(**{**vars(ctx.args), "output": None, "jobs": 1})
        self.pool = ProcessPoolExecutor(
            count, mp_context=mp, initializer=init, initargs=(args, self.ring)
        )
        self.pending: collections.deque[tuple[Future[Result], int]] = collections.deque()
        self.tasks = 0
        #: Lines of the current JSON Lines input written so far (numbers its messages).
        self.lines = 0

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)
        if self.ring is not None and not cancel:
            self.ring.memory.close()

    def _start(self, fn: Callable[..., Result], *args: Any) -> Future[Result]:
        """``pool.submit``: the first one forks the workers, which may fail (exit 1)."""
        try:
            return self.pool.submit(fn, *args)
        except OSError as exc:
            raise InputError(
                f"thinkparse: cannot start {self.count} worker processes: {exc.strerror or exc}"
            ) from None

    def _submit(self, fn: Callable[..., Result], *args: Any) -> None:
        """Queue a batch task (its ring slot first), then write what is due."""
        slot = self.tasks % (self.depth + 1) if self.ring is not None else -1
        self.tasks += 1
        self.pending.append((self._start(fn, slot, *args), slot))
        self.drain(self.depth)

    def _write(self, result: Result, slot: int) -> None:
        out, events, status, header, lines = result
        ctx = self.ctx
        if isinstance(out, int):  # a JSON Lines batch's output, left in its ring slot
            if out and self.ring is not None:
                with self.ring.view(slot, out) as view:
                    ctx.stdout.write_bytes(view)
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
            future, slot = self.pending.popleft()
            self._write(future.result(), slot)

    def submit_file(self, name: str) -> None:
        self.pending.append((self._start(whole_file, name), -1))
        self.drain(self.depth)

    def jsonl_file(self, stream: IO[bytes], path: str, shown: str) -> None:
        """One JSON Lines regular file: the workers read their own spans of it."""
        self.drain()
        self.lines = 0
        path = os.path.abspath(path)
        size = os.fstat(stream.fileno()).st_size
        for start in range(0, size, _BATCH):
            self._submit(batch_span, path, shown, start, min(start + _BATCH, size))
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
            self._submit(batch, shown, offset == 0, offset, data)
            offset += len(data) + 1
            if not block:
                break
        self.drain()


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
                        from ._file import one_file

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
    except BrokenProcessPool:
        jobs.close(cancel=True)
        raise InputError(WORKER_DIED) from None
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
    """Whether a FILE argument is JSON Lines records, cut into batches; a saved Ollama stream
    (one stream of events, one output) is processed whole by one worker."""
    fmt = settings.args.format
    if fmt is not None:
        return bool(fmt == "jsonl")
    try:
        with open(name, "rb") as f:
            if name.lower().endswith((".jsonl", ".ndjson")):
                return not _first_is_stream_chunk(settings, f)
            return _first_lines_are_records(settings, f)
    except OSError:
        return name.lower().endswith((".jsonl", ".ndjson"))  # one_file reports it


def _first_is_stream_chunk(settings: Settings, f: IO[bytes]) -> bool:
    while True:
        line = f.readline(1 << 25)
        if not line:
            return False
        if not line.isspace():
            record = json_object_line(line, settings.errors)
            return record is not None and ollama_chunk(record)


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
    record = json_object_line(first, settings.errors)
    if record is None or ollama_chunk(record):
        return False
    return any(not line.isspace() for line in f)


def cpu_count() -> int:
    """Usable CPUs (``--jobs 0``), at most ``MAX_JOBS``."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        count = os.cpu_count() or 1
    return min(count, MAX_JOBS)
