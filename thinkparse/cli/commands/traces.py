"""``thinkparse traces``: record, list, show, prune, export, import and summarise the trace store.

Rules: docs/behaviour.md#d1 to #d5 for the store, docs/behaviour.md#cli for errors and exit codes.

``thinkparse traces ACTION --db PATH ...`` (``--db`` defaults to the ``THINKPARSE_DB``
environment variable):

* ``record --session S --run R --model M [--metadata JSON] [FILE...|-] [--stream]`` stores one
  trace per input (per record of a JSON Lines file), masked; prints each id.  Inputs are detected
  as the main command does: JSON Lines, a saved Ollama stream (one trace), a provider response,
  an event array, SSE, raw harmony text (P3), ``<REASONING>`` text (redacted, R7), else
  ``<think>`` text.  ``--model`` also selects the model's preset, as the main command's
  ``-m`` does (F5), unless ``--preset`` is given.  ``--stream`` reads standard input as it
  arrives, exactly as ``thinkparse --stream`` does (the same detection, redaction, live output
  and messages), and stores the stream's result with ``duration_ms`` measured from the first
  byte read to the end of the stream; a stream that ended with an error is stored with
  ``metadata["incomplete"] = true``.
* ``list`` and ``stats`` filter with ``--session``, ``--run``, ``--model``, ``--provider``,
  ``--since`` and ``--until`` (ISO dates or times, naive ones read as UTC, or ages such as
  ``7d``, ``12h``, ``30m``, ``2w``; an age past what a timestamp holds is a usage error).
  ``list --limit N`` shows the newest N traces, oldest first.  ``stats`` prints per model:
  traces, the sum and the median of reasoning tokens, the first and last ``created_at``.  With
  no matching trace, the table is its header alone (``--json``: nothing).
* ``show ID``; ``prune --older-than 30d``; ``export`` writes JSON Lines to standard output (or
  ``--parquet FILE``); ``import FILE...`` reads them (masked on the way in).
* ``list``, ``stats``, ``show``, ``export`` and ``prune`` need an existing store: a ``--db``
  that names no file is an error (exit 2) and creates nothing, so a mistyped path does not
  read as an empty store.  ``record`` and ``import`` create the store.  Opening a store never
  prunes it (``retention_days`` is off here; ``prune`` deletes).
* ``--json`` everywhere: JSON Lines for scripts instead of the human table.

Exit status: 0 ok; 1 bad input data (a record that cannot be decoded, a bad import line), an
output that cannot be written, or a store that fails while it is used (a full disk); 2 usage
errors, and a database that cannot be opened, does not exist (for reading) or has a newer
schema; 130 Ctrl-C.  Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import re
import sqlite3
import statistics
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

from ... import Extraction, TraceStore, TraceStoreError
from .._common import InputError, OutputError, Stdout, UsageError, guarded, stdout_binary
from .._inputs import (
    decode_utf8,
    json_object_line,
    load_json,
    looks_like_sse,
    ollama_chunk,
    open_input,
)
from .._options import Settings, build_parser
from ._textfile import text_reader
from ._traces_args import traces_parser
from ._traces_input import IncompleteInput, record_stream, to_extraction

__all__ = ["main"]

ACTIONS = ("record", "list", "show", "prune", "export", "import", "stats")
#: Actions that read a store that must exist (``record`` and ``import`` create it).
READERS = ("list", "show", "prune", "export", "stats")
#: Actions that write to the store.
WRITERS = ("record", "import", "prune")


def main(argv: list[str]) -> int:
    """Run ``thinkparse traces`` with ``argv`` (the arguments after ``traces``).

    Args:
        argv: the arguments.

    Returns:
        The exit status (see the module docstring).
    """
    return guarded(lambda: _run(list(argv)))


def _run(argv: list[str]) -> int:
    args = traces_parser().parse_args(argv)
    if args.action is None:
        raise UsageError("traces: give an action: " + ", ".join(ACTIONS))
    if not args.db:
        raise UsageError("traces: --db PATH is required (or set THINKPARSE_DB)")
    out = Stdout(stdout_binary())
    store = _open(args.db, must_exist=args.action in READERS)
    try:
        status: int = ACTION_FUNCS[args.action](args, store, out)
    except (TraceStoreError, sqlite3.Error) as exc:  # the store failed while in use
        verb = "write" if args.action in WRITERS else "read"
        raise OutputError(f"cannot {verb} the trace store: {exc}") from None
    finally:
        try:
            out.flush()
        finally:
            store.close()
    return status


def _open(path: str, must_exist: bool) -> TraceStore:
    """The store at ``path``; never pruned on opening (``retention_days=None``)."""
    if os.path.isdir(path):
        raise InputError(f"thinkparse: {path}: cannot open the trace store: is a directory", 2)
    if must_exist and not os.path.exists(path):
        raise InputError(
            f"thinkparse: {path}: no such trace store (record or import creates one)", 2
        )
    try:
        return TraceStore(path, retention_days=None, auto_prune=False)
    except TraceStoreError as exc:
        raise InputError(f"thinkparse: {exc}", 2) from None


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    found = {
        "session_key": args.session,
        "run_id": args.run,
        "model": args.model,
        "provider": args.provider,
        "since": args.since,
        "until": args.until,
    }
    return {k: v for k, v in found.items() if v is not None}


def _iso(ms: int) -> str:
    when = datetime.fromtimestamp(0, timezone.utc) + timedelta(milliseconds=ms)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def _table(out: Stdout, header: list[str], rows: list[list[str]]) -> None:
    """Left-aligned columns; no rows: the header alone."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    for row in [header, *rows]:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")


def _jsonl(out: Stdout, obj: Any) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


# --- actions --------------------------------------------------------------------------------------
def _settings(args: argparse.Namespace) -> Settings:
    """The main command's settings for these options: ``--model`` selects its preset as ``-m``
    does (F5) unless ``--preset`` is given, and the text options are the main command's
    (``"auto"`` unless the preset or ``--start-in-reasoning`` decides)."""
    argv = ["--stream"] if args.stream else []
    argv += ["--preset", args.preset] if args.preset else ["--model", args.model]
    if args.tags:
        argv += ["--tags", args.tags]
    if args.start_in_reasoning:
        argv.append("--start-in-reasoning")
    namespace = build_parser().parse_args(argv)
    namespace.provider = args.provider
    try:
        return Settings(namespace)
    except UsageError as exc:
        raise UsageError(f"traces: {exc}") from None


def _record(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    keys = {"session_key": args.session, "run_id": args.run, "model": args.model}
    settings = _settings(args)
    status = 0

    def stored(shown: str, trace_id: str, ex: Extraction) -> None:
        if args.json:
            _jsonl(out, {"file": shown, "id": trace_id, "reasoning_tokens": ex.reasoning_tokens})
        else:
            out.write(trace_id + "\n")
        out.flush()

    if args.stream:
        trace_id, ex, status = record_stream(store, args.files, keys, args.metadata, settings)
        if trace_id is None:
            return status
        if args.json:
            stored("<stdin>", trace_id, ex)
        else:  # standard output holds the answer
            sys.stderr.write(f"thinkparse: stored trace {trace_id}\n")
        return status
    def record(shown: str, ex: Extraction, metadata: Any) -> None:
        try:
            trace_id = store.record(ex, **keys, metadata=metadata)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"traces: {exc}") from None
        stored(shown, trace_id, ex)

    for name in args.files or ["-"]:
        try:
            for shown, ex in _inputs(name, settings):
                record(shown, ex, args.metadata)
        except IncompleteInput as exc:  # P16: the partial turn, marked, then the error
            record(name if name != "-" else "<stdin>", exc.result,
                   {**(args.metadata or {}), "incomplete": True, "error": exc.error})
            sys.stderr.write(f"{exc}\n")
            status = max(status, exc.status)
        except InputError as exc:
            sys.stderr.write(f"{exc}\n")
            status = max(status, exc.status)
    return status


def _inputs(name: str, settings: Settings) -> Iterator[tuple[str, Extraction]]:
    provider = settings.provider
    options = settings.stream_options
    stream, shown, owned = open_input(name)
    try:
        data = stream.read()
    finally:
        if owned:
            stream.close()
    lines = data.splitlines(keepends=True)
    first = lines[0] if lines else b""
    rest = [line for line in lines[1:] if line.strip()]
    if name.endswith((".jsonl", ".ndjson")) or (rest and json_object_line(first, "strict")):
        values = []
        for number, line in enumerate(lines, 1):
            if line.strip():
                where = f"{shown}:{number}"
                values.append((where, load_json(decode_utf8(line, where, "strict"), where)))
        if values and isinstance(values[0][1], dict) and ollama_chunk(values[0][1]):
            events = [value for _, value in values]  # a saved Ollama stream: one trace
            yield shown, to_extraction(events, shown, provider, options)
            return
        for where, value in values:
            yield where, to_extraction(value, where, provider, options)
        return
    text = decode_utf8(data, shown, "strict")
    if looks_like_sse(text.lstrip().encode()[:200].split(b"\n")[0]):
        yield shown, to_extraction(text, shown, provider, options, sse=True)
    elif provider is not None or re.match(r"\s*[\[{]", text):
        yield shown, to_extraction(load_json(text, shown), shown, provider, options)
    else:  # harmony, <REASONING> (redacted) or <think> text, as the main command reads it
        yield shown, to_extraction(text_reader(settings, None)(text), shown, provider, options)


def _list(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    traces: Any = store.query(**_filters(args))
    if args.limit is not None:  # the newest N, still in time order
        traces = collections.deque(traces, maxlen=args.limit)
    if args.json:
        for t in traces:
            _jsonl(out, t.to_dict())
        return 0
    rows = [
        [_iso(t.created_at), t.id, t.session_key, t.run_id, t.model, t.provider,
         str(t.reasoning_tokens), str(t.duration_ms)]
        for t in traces
    ]  # fmt: skip
    head = ["created_at", "id", "session", "run", "model", "provider", "reasoning", "ms"]
    _table(out, head, rows)
    return 0


def _show(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    trace = store.get(args.id)
    if trace is None:
        raise InputError(f"thinkparse: no trace with id {args.id!r}")
    if args.json:
        _jsonl(out, trace.to_dict())
        return 0
    for key, value in trace.to_dict().items():
        if key == "reasoning_text":
            continue
        if key == "created_at":
            value = f"{_iso(value)} ({value})"
        elif key == "metadata":
            value = json.dumps(value, ensure_ascii=False)
        out.write(f"{key}: {value}\n")
    out.write("\n" + trace.reasoning_text + ("" if trace.reasoning_text.endswith("\n") else "\n"))
    return 0


def _prune(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    deleted = store.prune_older_than(args.older_than)
    if args.json:
        _jsonl(out, {"deleted": deleted})
    else:
        out.write(f"deleted {deleted} trace{'s' if deleted != 1 else ''}\n")
    return 0


def _export(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    if args.parquet:
        if importlib.util.find_spec("pyarrow") is not None:  # else export_parquet says so
            try:
                open(args.parquet, "ab").close()
            except OSError as exc:
                raise UsageError(
                    f"traces: cannot open the output file {args.parquet}: {exc.strerror or exc}"
                ) from None
        try:
            count = store.export_parquet(args.parquet, **_filters(args))
        except ImportError as exc:
            raise UsageError(f"traces: {exc}") from None
        except OSError as exc:
            raise OutputError(
                f"cannot write {args.parquet}: {getattr(exc, 'strerror', None) or exc}"
            ) from None
        sys.stderr.write(f"thinkparse: wrote {count} traces to {args.parquet}\n")
        return 0
    for trace in store.query(**_filters(args)):
        _jsonl(out, trace.to_dict())
    return 0


def _import(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    total = 0
    for name in args.files:
        stream, shown, owned = open_input(name)
        try:
            try:
                count = store.import_jsonl(stream)
            except ValueError as exc:
                raise InputError(f"{shown}:{str(exc).removeprefix('line ')}") from None
        finally:
            if owned:
                stream.close()
        total += count
        if args.json:
            _jsonl(out, {"file": shown, "imported": count})
    if not args.json:
        out.write(f"imported {total} trace{'s' if total != 1 else ''}\n")
    return 0


def _stats(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    groups: dict[str, list[tuple[int, int]]] = {}
    for t in store.query(**_filters(args)):
        groups.setdefault(t.model, []).append((t.reasoning_tokens, t.created_at))
    result: list[dict[str, Any]] = []
    rows: list[list[str]] = []
    for model in sorted(groups):
        tokens = [g[0] for g in groups[model]]
        times = [g[1] for g in groups[model]]
        median = statistics.median(tokens)
        first, last = min(times), max(times)
        result.append({
            "model": model, "traces": len(tokens), "reasoning_tokens": sum(tokens),
            "median_reasoning_tokens": median, "first": first, "last": last,
        })  # fmt: skip
        rows.append(
            [model, str(len(tokens)), str(sum(tokens)), f"{median:g}", _iso(first), _iso(last)]
        )
    if args.json:
        for row in result:
            _jsonl(out, row)
        return 0
    _table(out, ["model", "traces", "reasoning_tokens", "median", "first", "last"], rows)
    return 0


ACTION_FUNCS = {
    "record": _record,
    "list": _list,
    "show": _show,
    "prune": _prune,
    "export": _export,
    "import": _import,
    "stats": _stats,
}
