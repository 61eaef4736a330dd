"""``--jobs N``: worker processes over JSON Lines and text inputs, output in input order (C6).

* A JSON Lines input is cut into batches of whole lines (about 1 MB each) that workers process
  exactly as the single-process loop does; the parent writes each batch's output, then its
  messages, strictly in input order, so the output is byte-identical to ``--jobs 1``.
* For a regular file the parent only finds the batch boundaries and line numbers; each worker
  reads its batch from the file itself, so the input is never copied through a pipe.  Standard
  input and other streams are read by the parent and their batches sent to the workers.
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
from concurrent.futures import Future, ProcessPoolExecutor
from typing import IO, Any, Optional, Union

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
        self.events: list[tuple[bool, str]] = []

    def raw(self, text: str) -> None:
        self.events.append((False, text))

    def error(self, message: str) -> None:
        self.events.append((False, message.replace("\r", " ").replace("\n", " ") + "\n"))

    def reasoning(self, text: str) -> None:
        if text:
            self.events.append((True, text))


#: A batch result: (output bytes, or the path of the spool file holding them), the messages and
#: reasoning for standard error in order, the exit status, whether a file header was written.
Result = tuple[Union[bytes, str], list[tuple[bool, str]], int, bool]

#: Outputs at least this large go back through a spool file rather than the result pipe.
_SPOOL_MIN = 1 << 16


class _Worker:
    def __init__(self, args: argparse.Namespace, spool: Optional[str]) -> None:
        self.sink = io.BytesIO()
        self.ctx = Context(Settings(args), sink=self.sink)
        self.recorder = _Recorder(self.ctx)
        self.ctx.console = self.recorder
        self.spool = spool
        self.spooled = 0

    def reset(self) -> None:
        self.sink.seek(0)
        self.sink.truncate()
        self.recorder.events = []
        self.ctx.status = 0
        self.ctx.headers = 0

    def result(self, spool: bool = True) -> Result:
        """This batch's result; a JSON Lines batch's large output is spooled (``spool``)."""
        self.ctx.stdout.flush()
        out: Union[bytes, str]
        if spool and self.spool is not None and self.sink.tell() >= _SPOOL_MIN:
            # Written once here and copied by the kernel in the parent: the output does not
            # pass through pickling and the result pipe (several copies on each side).
            self.spooled += 1
            out = os.path.join(self.spool, f"{os.getpid()}-{self.spooled}")
            with open(out, "xb") as f:
                f.write(self.sink.getbuffer())
        else:
            out = self.sink.getvalue()
        return out, self.recorder.events, self.ctx.status, self.ctx.headers > 0


def _init(args: argparse.Namespace, spool: Optional[str]) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = _Worker(args, spool)


def _batch(shown: str, lineno: int, offset: int, data: bytes) -> Result:
    worker = _worker
    if worker is None:  # pragma: no cover - the initializer always ran
        raise RuntimeError("worker not initialised")
    worker.reset()
    run_jsonl(worker.ctx, _lines_from(data, lineno, offset), shown, None)
    return worker.result()


def _file(name: str) -> Result:
    worker = _worker
    if worker is None:  # pragma: no cover
        raise RuntimeError("worker not initialised")
    worker.reset()
    from ._run import one_file

    one_file(worker.ctx, name)
    return worker.result(spool=False)


def _batch_at(path: str, shown: str, lineno: int, offset: int, size: int) -> Result:
    """:func:`_batch` of the ``size`` bytes at ``offset`` of the file at ``path``."""
    with open(path, "rb") as f:
        data = os.pread(f.fileno(), size, offset)
    if len(data) != size:
        # The file shrank while it was being read: say so instead of inventing records.
        raise InputError(f"{shown}: the file changed while it was being read", 1)
    return _batch(shown, lineno, offset, data)


def _lines_from(data: bytes, lineno: int, offset: int) -> Any:
    for raw in data.split(b"\n"):
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

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=not cancel, cancel_futures=cancel)
        if self.spool is not None:
            shutil.rmtree(self.spool, ignore_errors=True)

    def _write(self, result: Result) -> None:
        out, events, status, header = result
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
        if events:
            ctx.stdout.flush()
            for is_reasoning, text in events:
                if is_reasoning:
                    ctx.console.reasoning(text)
                else:
                    ctx.console.error(text.rstrip("\n"))
        ctx.status = max(ctx.status, status)

    def drain(self, keep: int = 0) -> None:
        """Write finished results in order until at most ``keep`` are pending."""
        while len(self.pending) > keep:
            self._write(self.pending.popleft().result())

    def submit_file(self, name: str) -> None:
        self.pending.append(self.pool.submit(_file, name))
        self.drain(2 * self.count)

    def jsonl_file(self, stream: IO[bytes], path: str, shown: str) -> None:
        """One JSON Lines regular file: batch boundaries found here, batches read by workers."""
        self.drain()
        fd = stream.fileno()
        path = os.path.abspath(path)
        lineno = offset = 0
        size = _BATCH
        while True:
            block = os.pread(fd, size, offset)
            if not block:
                break
            if len(block) == size:
                cut = block.rfind(b"\n")
                if cut < 0:  # a line longer than the batch: read further
                    size *= 2
                    continue
            else:  # the end of the file
                cut = len(block)
            self.pending.append(
                self.pool.submit(_batch_at, path, shown, lineno, offset, cut)
            )
            lineno += block.count(b"\n", 0, cut) + 1
            offset += cut + 1
            size = _BATCH
            self.drain(2 * self.count)
        self.drain()

    def jsonl(self, stream: IO[bytes], head: bytes, shown: str) -> None:
        """One JSON Lines input in batches of lines."""
        self.drain()
        lineno = offset = 0
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
            self.pending.append(self.pool.submit(_batch, shown, lineno, offset, data))
            lineno += data.count(b"\n") + 1
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
