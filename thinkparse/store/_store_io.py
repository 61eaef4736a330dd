"""File handling of the trace store: JSONL in and out, Parquet out (docs/behaviour.md#d2).

Rules: an imported line is checked completely and masked before anything is inserted.

Decisions where the rules are silent:

* JSONL: one object per row, the column names as keys, ``metadata`` an object.  An import
  checks and masks every line first, then the store inserts all in one transaction; ids already
  present are skipped; a bad line raises ``ValueError("line N: ...")`` and imports nothing.
* Parquet (pyarrow, optional) has the same columns, for merging a fleet's stores and querying
  them on an engine (DuckDB, Polars, Spark read the file as is).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from typing import IO, Any, Callable, Optional, Union

from ._trace_row import (
    COLUMN_NAMES,
    NO_METADATA,
    Masker,
    apply_masker,
    check_count,
    check_str,
    mask_metadata,
)

__all__ = [
    "import_rows",
    "open_lines",
    "open_text_out",
    "parse_import_line",
    "write_jsonl",
    "write_parquet",
]

FileArg = Union[IO[str], IO[bytes], str, "os.PathLike[str]"]


def open_lines(fp: FileArg, name: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` pairs of a text/binary file object or a path."""
    if isinstance(fp, (str, os.PathLike)):
        with open(fp, encoding="utf-8") as f:
            yield from _numbered(f, name)
        return
    if not hasattr(fp, "read"):
        raise TypeError(f"{name} must be a file object or a path, not {type(fp).__name__}")
    yield from _numbered(fp, name)


def _numbered(f: Iterable[Union[str, bytes]], name: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(f, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"line {number}: invalid UTF-8 at byte {exc.start}") from None
        if not isinstance(line, str):
            raise TypeError(f"{name} must yield str or bytes lines")
        yield number, line


@contextlib.contextmanager
def open_text_out(fp: FileArg, name: str) -> Iterator[Callable[[str], object]]:
    """A function writing text to a text/binary file object or a new file at a path."""
    if isinstance(fp, (str, os.PathLike)):
        with open(fp, "w", encoding="utf-8", newline="\n") as f:
            yield f.write
        return
    if not hasattr(fp, "write"):
        raise TypeError(f"{name} must be a file object or a path, not {type(fp).__name__}")
    target: Any = fp
    if isinstance(fp, (io.BufferedIOBase, io.RawIOBase)) or (
        not isinstance(fp, io.TextIOBase) and "b" in str(getattr(fp, "mode", ""))
    ):
        yield lambda text: target.write(text.encode("utf-8"))
    else:
        yield target.write


def parse_import_line(line: str, number: int, masker: Optional[Masker]) -> tuple[Any, ...]:
    """One exported line as a row tuple, masked; ``ValueError("line N: ...")`` when bad."""
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise ValueError(f"line {number}: invalid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"line {number}: invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"line {number}: a record must be a JSON object")
    try:
        missing = [c for c in COLUMN_NAMES if c not in data and c != "metadata"]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        extra = sorted(set(data) - set(COLUMN_NAMES))
        if extra:
            raise ValueError(f"unknown key {extra[0]!r}")
        meta = data.get("metadata")
        return (
            check_str(data["id"], "id"),
            check_str(data["session_key"], "session_key"),
            check_str(data["run_id"], "run_id"),
            check_str(data["model"], "model"),
            check_str(data["provider"], "provider", empty=True),
            apply_masker(masker, check_str(data["reasoning_text"], "reasoning_text", empty=True)),
            check_count(data["reasoning_tokens"], "reasoning_tokens"),
            check_count(data["total_tokens"], "total_tokens"),
            check_count(data["duration_ms"], "duration_ms"),
            NO_METADATA if meta is None else mask_metadata(masker, meta),
            check_count(data["created_at"], "created_at"),
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(f"line {number}: {exc}") from None


def write_parquet(path: FileArg, rows: Iterable[dict[str, Any]]) -> int:
    """Write row dicts to Parquet with a fixed schema (``metadata`` as JSON text)."""
    try:
        pa: Any = importlib.import_module("pyarrow")
        pq: Any = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ImportError("export_parquet needs pyarrow: pip install 'thinkparse[arrow]'") from None
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("session_key", pa.string()),
            ("run_id", pa.string()),
            ("model", pa.string()),
            ("provider", pa.string()),
            ("reasoning_text", pa.string()),
            ("reasoning_tokens", pa.int64()),
            ("total_tokens", pa.int64()),
            ("duration_ms", pa.int64()),
            ("metadata", pa.string()),
            ("created_at", pa.int64()),
        ]
    )
    count = 0
    with pq.ParquetWriter(os.fspath(path) if not hasattr(path, "write") else path, schema) as w:
        batch: list[dict[str, Any]] = []
        for row in rows:
            meta = row["metadata"]
            batch.append({**row, "metadata": None if meta is None else json.dumps(meta)})
            if len(batch) == 10_000:
                w.write_table(pa.Table.from_pylist(batch, schema=schema))
                count += len(batch)
                batch = []
        if batch or not count:
            w.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    return count


def write_jsonl(fp: FileArg, rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` as JSON Lines to ``fp`` (a text or binary file, or a path); the count."""
    count = 0
    with open_text_out(fp, "fp") as write:
        for row in rows:
            write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def import_rows(fp: FileArg, masker: Optional[Masker]) -> list[tuple[Any, ...]]:
    """Every non-blank line of ``fp`` checked and masked, as insert rows (or ``ValueError``)."""
    return [
        parse_import_line(line, number, masker)
        for number, line in open_lines(fp, "fp")
        if line.strip()
    ]


def insert_new(conn: sqlite3.Connection, insert: str, rows: list[tuple[Any, ...]]) -> int:
    """Insert ``rows`` with the ``insert`` statement in one transaction, skipping ids already
    stored; the number inserted.  Any error rolls the whole batch back and is raised as it came
    (see :func:`rollback`)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        before = conn.total_changes
        conn.executemany(insert.replace("INSERT", "INSERT OR IGNORE", 1), rows)
        inserted = conn.total_changes - before
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    return inserted


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already done so.

    On some errors (a full disk, an I/O error) SQLite rolls the transaction back by itself; a
    ``ROLLBACK`` then fails with "no transaction is active", which would hide the real cause.
    So it is sent only while a transaction is open, and its own failure is ignored: the error
    being handled is the one to report.
    """
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
