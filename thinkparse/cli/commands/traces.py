"""``thinkparse traces``: record, list, show, prune, export, import and summarise the trace store.

Rules: docs/behaviour.md#d1 to #d5 for the store, docs/behaviour.md#cli for errors and exit codes.

``thinkparse traces ACTION --db PATH ...`` (``--db`` may come from ``THINKPARSE_DB``):

* ``record --session S --run R --model M [--metadata JSON] [FILE...|-] [--stream]`` stores one
  trace per input (per record of a JSON Lines file), masked; prints each id.  Inputs are detected
  as the main command does: JSON Lines, a provider response, an event array, SSE, ``<REASONING>``
  text, else ``<think>`` text.  ``--stream`` reads standard input as it arrives through a
  :class:`~thinkparse.TraceRecorder`, writing the visible text live; the first line decides the
  kind (JSON event lines, SSE, else raw text).
* ``list`` and ``stats`` filter with ``--session``, ``--run``, ``--model``, ``--provider``,
  ``--since`` and ``--until`` (ISO dates or times, naive ones read as UTC, or ages such as
  ``7d``, ``12h``, ``30m``, ``2w``); ``list --limit N``.  ``stats`` prints per model: traces,
  the sum and the median of reasoning tokens, the first and last ``created_at``.
* ``show ID``; ``prune --older-than 30d``; ``export`` writes JSON Lines to standard output (or
  ``--parquet FILE``); ``import FILE...`` reads them (masked on the way in).
* ``--json`` everywhere: JSON Lines for scripts instead of the human table.

Exit status: 0 ok; 1 bad input data (a record that cannot be decoded, a bad import line); 2 usage
errors, and a database that cannot be opened or has a newer schema; 130 Ctrl-C.  Errors are one
line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any, NoReturn, Optional

from ... import Extraction, ThinkScanner, TraceStore, TraceStoreError, parse, split_think
from .._common import InputError, Stdout, UsageError, guarded, stdout_binary
from .._inputs import decode_utf8, json_object_line, load_json, looks_like_sse, open_input
from ._traces_input import record_stream, to_extraction

__all__ = ["main"]

ACTIONS = ("record", "list", "show", "prune", "export", "import", "stats")
_AGE = re.compile(r"(\d+(?:\.\d+)?)([smhdw])")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"traces: {message}")


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--db", default=os.environ.get("THINKPARSE_DB"), help="the database")
    common.add_argument("--json", action="store_true", help="JSON Lines output")
    filters = _Parser(add_help=False)
    for flag in ("session", "run", "model", "provider"):
        filters.add_argument(f"--{flag}")
    filters.add_argument("--since", type=_time, help="ISO date/time or age (7d, 12h)")
    filters.add_argument("--until", type=_time, help="ISO date/time or age")
    parser = _Parser(prog="thinkparse traces", description="The reasoning trace store.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    rec = sub.add_parser("record", parents=[common], help="store traces from inputs")
    rec.add_argument("files", nargs="*", metavar="FILE")
    for flag in ("session", "run", "model"):
        rec.add_argument(f"--{flag}", required=True)
    rec.add_argument("--metadata", type=_json_object, help="a JSON object stored with each trace")
    rec.add_argument("--stream", action="store_true", help="read standard input as it arrives")
    rec.add_argument("--provider", help="the provider family of JSON input")
    rec.add_argument("--start-in-reasoning", action="store_true")
    rec.add_argument("--tags", help="comma-separated tag names")
    rec.add_argument("--preset")
    lst = sub.add_parser("list", parents=[common, filters], help="list traces")
    lst.add_argument("--limit", type=_count)
    show = sub.add_parser("show", parents=[common], help="show one trace")
    show.add_argument("id")
    prune = sub.add_parser("prune", parents=[common], help="delete old traces")
    prune.add_argument("--older-than", type=_days, required=True, metavar="AGE")
    exp = sub.add_parser("export", parents=[common, filters], help="write JSON Lines")
    exp.add_argument("--parquet", metavar="FILE", help="write Parquet to FILE instead")
    imp = sub.add_parser("import", parents=[common], help="read JSON Lines")
    imp.add_argument("files", nargs="+", metavar="FILE")
    sub.add_parser("stats", parents=[common, filters], help="per-model summary")
    return parser


def _time(value: str) -> int:
    age = _AGE.fullmatch(value.strip())
    if age:
        return int(time.time() * 1000) - int(float(age.group(1)) * _UNIT[age.group(2)] * 1000)
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an ISO date or time, or an age like 7d or 12h"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return int(when.timestamp() * 1000)


def _days(value: str) -> float:
    age = _AGE.fullmatch(value.strip())
    if not age:
        raise argparse.ArgumentTypeError(f"{value!r} is not an age like 30d or 12h")
    return float(age.group(1)) * _UNIT[age.group(2)] / 86400


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not a count")
    return int(value)


def _json_object(value: str) -> dict[str, Any]:
    try:
        data = json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError("--metadata is not valid JSON") from None
    if not isinstance(data, dict):
        raise argparse.ArgumentTypeError("--metadata must be a JSON object")
    return data


def main(argv: list[str]) -> int:
    """Run ``thinkparse traces`` with ``argv`` (the arguments after ``traces``).

    Args:
        argv: the arguments.

    Returns:
        The exit status (see the module docstring).
    """
    return guarded(lambda: _run(list(argv)))


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.action is None:
        raise UsageError("traces: give an action: " + ", ".join(ACTIONS))
    if not args.db:
        raise UsageError("traces: --db PATH is required (or set THINKPARSE_DB)")
    out = Stdout(stdout_binary())
    store = _open(args.db, auto_prune=args.action != "import")
    try:
        status: int = ACTION_FUNCS[args.action](args, store, out)
    except TraceStoreError as exc:  # the database failed while in use (a damaged file): D4
        raise InputError(f"thinkparse: {exc}", 1) from None
    finally:
        out.flush()
        store.close()
    return status


def _open(path: str, auto_prune: bool) -> TraceStore:
    if os.path.isdir(path):
        raise InputError(f"thinkparse: {path}: cannot open the trace store: is a directory", 2)
    try:
        return TraceStore(path, retention_days=None, auto_prune=auto_prune)
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
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for row in [header, *rows]:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")


def _jsonl(out: Stdout, obj: Any) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


# --- actions --------------------------------------------------------------------------------------
def _record(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    keys = {"session_key": args.session, "run_id": args.run, "model": args.model}
    options: dict[str, Any] = {}
    if args.start_in_reasoning:
        options["start_in_reasoning"] = True
    if args.tags:
        options["tags"] = [t for t in args.tags.split(",") if t]
    if args.preset:
        options["preset"] = args.preset
    try:
        ThinkScanner(**options)  # the options are checked once, before any input
    except (TypeError, ValueError) as exc:
        raise UsageError(f"traces: {exc}") from None
    status = 0

    def stored(shown: str, trace_id: str, ex: Extraction) -> None:
        if args.json:
            _jsonl(out, {"file": shown, "id": trace_id, "reasoning_tokens": ex.reasoning_tokens})
        else:
            out.write(trace_id + "\n")
        out.flush()

    if args.stream:
        rec = record_stream(store, args.files, keys, args.metadata, options, args.provider, out)
        if args.json:
            stored("<stdin>", rec.trace.id, rec.result)
        else:  # standard output holds the answer
            sys.stderr.write(f"thinkparse: stored trace {rec.trace.id}\n")
        return 0
    for name in args.files or ["-"]:
        try:
            for shown, ex in _inputs(name, args.provider, options):
                try:
                    trace_id = store.record(ex, **keys, metadata=args.metadata)
                except (TypeError, ValueError) as exc:
                    raise UsageError(f"traces: {exc}") from None
                stored(shown, trace_id, ex)
        except InputError as exc:
            sys.stderr.write(f"{exc}\n")
            status = max(status, exc.status)
    return status


def _inputs(
    name: str, provider: Optional[str], options: dict[str, Any]
) -> Iterator[tuple[str, Extraction]]:
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
        for number, line in enumerate(lines, 1):
            if line.strip():
                where = f"{shown}:{number}"
                value = load_json(decode_utf8(line, where, "strict"), where)
                yield where, to_extraction(value, where, provider, options)
        return
    text = decode_utf8(data, shown, "strict")
    if looks_like_sse(text.lstrip().encode()[:200].split(b"\n")[0]):
        yield shown, to_extraction(text, shown, provider, options, sse=True)
    elif provider is not None or re.match(r"\s*[\[{]", text):
        yield shown, to_extraction(load_json(text, shown), shown, provider, options)
    elif "<REASONING>" in text and not options:
        p = parse(text)
        yield shown, to_extraction(p, shown, provider, options)
    else:
        yield (
            shown,
            to_extraction(
                split_think(text, **{"start_in_reasoning": "auto", **options}),
                shown,
                provider,
                options,
            ),
        )


def _list(args: argparse.Namespace, store: TraceStore, out: Stdout) -> int:
    traces = store.query(**_filters(args), limit=args.limit)
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
        try:
            count = store.export_parquet(args.parquet, **_filters(args))
        except ImportError as exc:
            raise UsageError(f"traces: {exc}") from None
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
