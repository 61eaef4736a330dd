"""The trace store's SQL: its statements, the checked and masked insert row, the filters
(their key values masked) and the paged read of ``query`` (docs/behaviour.md#d1, #d2).

The store (``_store.py``) holds the connection, its lock and its clock, and passes them in; the
row's columns and checks are in ``_trace_row.py``.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Callable, Optional

from .._types import Extraction
from ._budget import turn_tokens
from ._trace_row import (
    COLUMN_NAMES,
    NO_METADATA,
    SELECT_LIST,
    Masker,
    Trace,
    TraceStoreError,
    apply_masker,
    check_count,
    check_int64,
    check_str,
    check_time,
    mask_keys,
    mask_metadata,
)

PAGE_ROWS = 500
INSERT_SQL = (
    f"INSERT INTO reasoning_traces ({', '.join(COLUMN_NAMES)}) "
    f"VALUES ({', '.join('?' for _ in COLUMN_NAMES)})"
)
SELECT_SQL = f"SELECT {SELECT_LIST} FROM reasoning_traces"


def database_error(path: str, exc: sqlite3.Error) -> TraceStoreError:
    """SQLite's error as a :class:`TraceStoreError` naming the file, on one line."""
    return TraceStoreError(f"{path}: {' '.join(str(exc).split())}")


def new_row(
    masker: Optional[Masker], now_ms: Callable[[], int], extraction: object, *fields: object
) -> tuple[Any, ...]:
    """The checked, masked insert row of :meth:`TraceStore.record`'s arguments (in its order)."""
    session_key, run_id, model, provider, total_tokens, duration_ms, metadata = fields[:7]
    id, created_at = fields[7:]
    if not isinstance(extraction, Extraction):
        raise TypeError(f"extraction must be an Extraction, not {type(extraction).__name__}")
    row_id = uuid.uuid4().hex if id is None else check_str(id, "id")
    prov = extraction.provider if provider is None else check_str(provider, "provider")
    if total_tokens is None:
        total = check_int64(extraction.usage.total_tokens or 0, "extraction.usage.total_tokens")
    else:
        total = check_count(total_tokens, "total_tokens")
    meta = NO_METADATA if metadata is None else mask_metadata(masker, metadata)
    return mask_keys(masker, (
        row_id,
        check_str(session_key, "session_key"),
        check_str(run_id, "run_id"),
        check_str(model, "model"),
        prov,
        apply_masker(masker, extraction.reasoning or ""),
        check_int64(turn_tokens(extraction, "extraction"), "extraction.reasoning_tokens"),
        total,
        check_count(duration_ms, "duration_ms"),
        meta,
        now_ms() if created_at is None else check_time(created_at, "created_at"),
    ))  # fmt: skip


_FILTERS = ("session_key", "run_id", "model", "provider", "since", "until", "limit")


def check_filter_names(filters: dict[str, Any], *, allow_limit: bool) -> None:
    for name in filters:
        if name not in _FILTERS or (name == "limit" and not allow_limit):
            raise TypeError(f"unknown filter {name!r}")


def where_clause(
    masker: Optional[Masker],
    session_key: Optional[str] = None,
    run_id: Optional[str] = None,
    model: Optional[str] = None,
    provider: Optional[str] = None,
    since: Optional[Any] = None,
    until: Optional[Any] = None,
) -> tuple[list[str], list[Any]]:
    """The filters' clauses and parameters; the key filters are checked and then masked like
    the stored keys."""
    clauses: list[str] = []
    params: list[Any] = []
    for name, value in (
        ("session_key", session_key),
        ("run_id", run_id),
        ("model", model),
        ("provider", provider),
    ):
        if value is not None:
            clauses.append(f"{name} = ?")
            params.append(apply_masker(masker, check_str(value, name, empty=True)))
    if since is not None:
        clauses.append("created_at >= ?")
        params.append(check_time(since, "since"))
    if until is not None:
        clauses.append("created_at < ?")
        params.append(check_time(until, "until"))
    return clauses, params


def clause(clauses: list[str]) -> str:
    return " WHERE " + " AND ".join(clauses) if clauses else ""


def paged_traces(
    lock: AbstractContextManager[Any],
    connection: Callable[[], sqlite3.Connection],
    path: str,
    found: list[str],
    params: list[Any],
    limit: Optional[int],
) -> Iterator[Trace]:
    """The rows of :meth:`TraceStore.query`, in pages of ``PAGE_ROWS`` read under ``lock``;
    ``connection()`` is called for each page, so a store closed meanwhile raises."""
    left = limit
    after: Optional[tuple[int, str]] = None
    while left is None or left > 0:
        clauses, args = list(found), list(params)
        if after is not None:
            clauses.append("(created_at > ? OR (created_at = ? AND id > ?))")
            args += [after[0], after[0], after[1]]
        size = PAGE_ROWS if left is None else min(PAGE_ROWS, left)
        sql = SELECT_SQL + clause(clauses) + " ORDER BY created_at, id LIMIT ?"
        with lock:
            try:
                rows = connection().execute(sql, [*args, size]).fetchall()
            except sqlite3.Error as exc:
                raise database_error(path, exc) from None
        for row in rows:
            yield Trace(*row)
        if len(rows) < size:
            return
        after = (rows[-1][-1], rows[-1][0])
        if left is not None:
            left -= len(rows)
