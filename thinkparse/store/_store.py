"""A durable SQLite store of masked reasoning traces (docs/behaviour.md#d1 to #d4).

Theory of operation: one ``sqlite3`` connection in autocommit mode, guarded by a lock so any
thread may call any method (#d4).  The file is put in WAL mode with a busy timeout, so many
processes can share it: each ``record()`` is one ``INSERT`` statement, that is one transaction,
committed before it returns, which is what makes a SIGKILLed writer lose nothing it reported.
``synchronous=NORMAL`` (the WAL default) survives a crashed or killed process; a power cut may lose
the last commits.  Masking happens before any SQL is built (#d2).

Decisions where the rules are silent:

* The schema version lives in ``thinkparse_meta(key, value)`` under ``reasoning_traces_schema``;
  ``PRAGMA user_version`` belongs to the application sharing the file and is never touched.  A
  newer version, or an existing ``reasoning_traces`` table with other columns, raises
  :class:`TraceStoreError`, as does a file that is not a database.
* ``masker`` may return ``str`` or :class:`~thinkparse.Masked` (its ``.text`` is used).
* ``record`` takes an ``Extraction`` only; ``reasoning_tokens`` is the #b1 count; ``total_tokens``
  the argument, else ``usage.total_tokens``, else 0; a duplicate ``id`` raises ``ValueError`` and
  writes nothing; metadata keys and string values are masked at any depth.
* ``id``, ``session_key``, ``run_id``, ``model`` and ``provider`` are masked too (only the
  secrets inside them are replaced, so equal values stay equal); ``get`` and the filters of
  ``query``, ``count``, ``explain_query`` and the exports are masked the same way, so a row is
  found by the value it was recorded with (#d2).
* Every int the store writes or compares must fit SQLite's INTEGER (signed 64 bits), so a
  larger count, time or number of days is a ``ValueError`` naming the argument (a reported
  usage figure is named ``extraction.usage.total_tokens`` / ``extraction.reasoning_tokens``);
  only ``limit``, which is never stored, may be any size (#d1).
* ``since`` is inclusive, ``until`` exclusive; both are ms ints or aware datetimes.  ``query``
  reads in pages of 500 rows ordered by ``(created_at, id)``; rows recorded meanwhile may appear.
* ``retention_days`` is a number >= 0 or ``None`` (keep forever); pruning deletes rows with
  ``created_at < now - days``.  ``auto_prune`` prunes once, before the first write (``record``,
  ``import_jsonl``): a store opened only to be read is left as it is.  The
  connection sets ``secure_delete`` (deleted content is overwritten with zeros) and a prune that
  deleted rows checkpoints the WAL with ``TRUNCATE``, so pruned reasoning leaves the files (#d3).
* Text is stored as UTF-8, which cannot encode a lone surrogate (JSON may escape half of a
  pair, ``"\\ud83d"``): every stored string, metadata keys and values included, and every key
  given to ``get`` or a filter, has its lone surrogates replaced by U+FFFD (``storable``), with
  or without a masker, so such a row is recorded and found by the value it was given (#d1).
* ``metadata`` defaults to ``'{}'``, in the column as in every row the store writes; a NULL
  (a file created before the column had its default, or a row another program wrote) reads as
  ``'{}'``.  Such a file is used as it is: its table is not rebuilt (#d1).
* JSONL and Parquet files: see :mod:`._store_io`.
* After ``close()`` every method raises :class:`TraceStoreError`; a second ``close()`` is a no-op.
* A database that fails while it is used (a damaged file that opened, a full disk, an I/O error)
  raises :class:`TraceStoreError` from every method, with SQLite's message on one line after
  the path; SQLite's own ``sqlite3.Error`` never escapes, nor does a ``metadata`` column that
  is not JSON text (``Trace.metadata``).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import IO, Any, Callable, Optional, TypeVar, Union, cast

from .._types import Extraction
from ._masking import DEFAULT_MASKER
from ._queries import (
    INSERT_SQL,
    SELECT_SQL,
    check_filter_names,
    clause,
    database_error,
    new_row,
    paged_traces,
    where_clause,
)
from ._store_io import import_rows, insert_new, write_jsonl
from ._trace_row import (
    Masker,
    Trace,
    TraceStoreError,
    apply_masker,
    check_count,
    check_days,
    check_str,
    mask_keys,
    migrate,
)

__all__ = ["Trace", "TraceStore", "TraceStoreError"]

_BUSY_MS = 30_000
_DAY_MS = 86_400_000

PathLike = Union[str, "os.PathLike[str]"]
_F = TypeVar("_F", bound=Callable[..., Any])


def _database_errors(method: _F) -> _F:
    """``method`` raising :class:`TraceStoreError` for any ``sqlite3.Error`` (a damaged file)."""

    @functools.wraps(method)
    def wrapped(self: TraceStore, /, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None

    return cast(_F, wrapped)


def now_ms() -> int:
    """The clock of the store (tests patch it): milliseconds since the epoch."""
    return int(time.time() * 1000)


class TraceStore:
    """SQLite store of masked reasoning traces (#d1-#d4).

    Args:
        path: a database file (created when missing) or ``":memory:"``.
        retention_days: rows older than this many days are pruned; ``None`` keeps them.
        auto_prune: prune by ``retention_days`` once, before the first write (#d3); opening
            the store to read it deletes nothing.
        masker: ``Callable[[str], str | Masked]`` run on every stored string, or ``None`` to
            store text as given (#d2).

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: a negative ``retention_days``.
        TraceStoreError: the file is not a usable database or holds a newer schema.
    """

    def __init__(
        self,
        path: PathLike = ":memory:",
        /,
        *,
        retention_days: Optional[Union[int, float]] = 30,
        auto_prune: bool = True,
        masker: Optional[Masker] = DEFAULT_MASKER,
    ) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a str or a path, not {type(path).__name__}")
        if retention_days is not None:
            check_days(retention_days, "retention_days")
        if not isinstance(auto_prune, bool):
            raise TypeError("auto_prune must be a bool")
        if masker is not None and not callable(masker):
            raise TypeError("masker must be callable or None")
        self.path = os.fspath(path)
        self.retention_days = retention_days
        self.masker = masker
        self._lock = threading.RLock()
        self._conn: Optional[sqlite3.Connection] = None
        try:
            self._conn = sqlite3.connect(
                self.path, timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False
            )
            migrate(self._conn, self.path, _BUSY_MS)
        except sqlite3.Error as exc:
            if self._conn is not None:
                self._conn.close()
            raise TraceStoreError(f"{self.path}: cannot open the trace store: {exc}") from None
        except TraceStoreError:
            assert self._conn is not None
            self._conn.close()
            raise
        #: Whether the first write prunes first (#d3).
        self._prune_pending = auto_prune and retention_days is not None

    # --- schema -----------------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise TraceStoreError("the trace store is closed")
        return self._conn

    # --- writing ----------------------------------------------------------------------------------
    @_database_errors
    def record(
        self,
        extraction: Extraction,
        /,
        *,
        session_key: str,
        run_id: str,
        model: str,
        provider: Optional[str] = None,
        total_tokens: Optional[int] = None,
        duration_ms: int = 0,
        metadata: Optional[dict[str, Any]] = None,
        id: Optional[str] = None,
        created_at: Optional[Any] = None,
    ) -> str:
        """Store one masked trace in its own transaction (#d1, #d2, #d4).

        Args:
            extraction: the turn (an :class:`~thinkparse.Extraction`).
            session_key: the session.
            run_id: the run.
            model: the model name.
            provider: defaults to ``extraction.provider``.
            total_tokens: defaults to ``extraction.usage.total_tokens``, else 0.
            duration_ms: the turn's duration.
            metadata: a dict of JSON data; its strings are masked.
            id: the row id; a random UUID hex by default.
            created_at: ms since the epoch or an aware datetime; now by default.

        Returns:
            The id.

        Raises:
            TypeError: an argument of the wrong type (named).
            ValueError: an invalid value, or an ``id`` already stored; nothing is written.
            TraceStoreError: the store is closed or the database failed.
        """
        row = new_row(
            self.masker, now_ms, extraction, session_key, run_id, model, provider, total_tokens,
            duration_ms, metadata, id, created_at,
        )  # fmt: skip
        with self._lock:
            self._auto_prune()
            conn = self._connection()
            try:
                conn.execute(INSERT_SQL, row)
            except sqlite3.IntegrityError:
                raise ValueError(f"id {row[0]!r} is already stored") from None
            except sqlite3.Error as exc:
                raise TraceStoreError(f"{self.path}: {exc}") from None
        return str(row[0])

    # --- reading ----------------------------------------------------------------------------------
    @_database_errors
    def get(self, id: str, /) -> Optional[Trace]:
        """The trace with this id, or ``None``.

        Raises:
            TypeError: ``id`` is not a ``str``.
            TraceStoreError: the store is closed.
        """
        key = self._mask_key(check_str(id, "id", empty=True))
        with self._lock:
            row = self._connection().execute(SELECT_SQL + " WHERE id = ?", (key,)).fetchone()
        return None if row is None else Trace(*row)

    def query(
        self,
        *,
        session_key: Optional[str] = None,
        run_id: Optional[str] = None,
        model: Optional[str] = None,
        provider: Optional[str] = None,
        since: Optional[Any] = None,
        until: Optional[Any] = None,
        limit: Optional[int] = None,
    ) -> Iterator[Trace]:
        """Traces matching every filter given, by ``created_at`` then ``id`` (#d1).

        Args:
            session_key: equal to this.
            run_id: equal to this.
            model: equal to this.
            provider: equal to this.
            since: ``created_at >= since`` (ms or aware datetime).
            until: ``created_at < until``.
            limit: at most this many.

        Returns:
            An iterator reading the rows in pages.

        Raises:
            TypeError, ValueError: a bad filter (named), raised by this call, not the iteration.
            TraceStoreError: the store is closed.
        """
        found, params = where_clause(self.masker, session_key, run_id, model, provider, since,
                                     until)
        if limit is not None:
            check_count(limit, "limit", stored=False)
        self._connection()
        return paged_traces(self._lock, self._connection, self.path, found, params, limit)

    def _mask_key(self, value: str) -> str:
        """A key as it is stored: masked like the rows were (#d2)."""
        return apply_masker(self.masker, value)

    @_database_errors
    def count(self, **filters: Any) -> int:
        """The number of traces matching the :meth:`query` filters (``limit`` excepted)."""
        check_filter_names(filters, allow_limit=False)
        found, params = where_clause(self.masker, **filters)
        with self._lock:
            row = (
                self._connection()
                .execute("SELECT count(*) FROM reasoning_traces" + clause(found), params)
                .fetchone()
            )
        return int(row[0])

    @_database_errors
    def explain_query(self, **filters: Any) -> list[str]:
        """SQLite's plan (``EXPLAIN QUERY PLAN`` details) for :meth:`query` with these filters."""
        check_filter_names(filters, allow_limit=False)
        found, params = where_clause(self.masker, **filters)
        sql = "EXPLAIN QUERY PLAN " + SELECT_SQL + clause(found) + " ORDER BY created_at, id"
        with self._lock:
            return [str(row[-1]) for row in self._connection().execute(sql, params)]

    # --- retention --------------------------------------------------------------------------------
    @_database_errors
    def prune_older_than(self, days: Optional[Union[int, float]] = None) -> int:
        """Delete traces older than now minus ``days`` (#d3).

        Args:
            days: the age in days; ``None`` uses ``retention_days`` (nothing when that is None).

        Returns:
            The number of rows deleted.

        Raises:
            TypeError, ValueError: ``days`` is not a number >= 0.
            TraceStoreError: the store is closed.
        """
        if days is None:
            days = self.retention_days
            if days is None:
                self._connection()
                return 0
        check_days(days, "days")
        cutoff = now_ms() - int(days * _DAY_MS)
        with self._lock:
            conn = self._connection()
            cur = conn.execute("DELETE FROM reasoning_traces WHERE created_at < ?", (cutoff,))
            if cur.rowcount > 0:  # the WAL still holds the rows' pages: fold it in, empty it
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            return int(cur.rowcount)

    def _auto_prune(self) -> None:
        """``auto_prune``: prune once, before the first write (the lock is held)."""
        if self._prune_pending:
            self._prune_pending = False
            self.prune_older_than()

    # --- JSONL and Parquet ------------------------------------------------------------------------
    @_database_errors
    def export_jsonl(self, fp: Union[IO[str], IO[bytes], PathLike], /, **filters: Any) -> int:
        """Write the matching traces as JSON Lines (column names as keys).

        Args:
            fp: a text or binary file object, or a path (overwritten).
            **filters: as :meth:`query`.

        Returns:
            The number of lines written.

        Raises:
            TypeError, ValueError: a bad ``fp`` or filter.
            TraceStoreError: the store is closed.
        """
        check_filter_names(filters, allow_limit=True)
        return write_jsonl(fp, (trace.to_dict() for trace in self.query(**filters)))

    @_database_errors
    def import_jsonl(self, fp: Union[IO[str], IO[bytes], PathLike], /) -> int:
        """Read JSON Lines written by :meth:`export_jsonl`, masking every record (#d2).

        Args:
            fp: a text or binary file object, or a path.

        Returns:
            The number of rows inserted (ids already stored are skipped).

        Raises:
            TypeError: a bad ``fp``.
            ValueError: ``"line N: ..."`` for the first bad line; nothing is imported.
            TraceStoreError: the store is closed.
        """
        rows = [mask_keys(self.masker, row) for row in import_rows(fp, self.masker)]
        with self._lock:
            self._auto_prune()
            return insert_new(self._connection(), INSERT_SQL, rows)

    @_database_errors
    def export_parquet(self, path: PathLike, /, **filters: Any) -> int:
        """Write the matching traces to a Parquet file (needs ``pyarrow``).

        Args:
            path: the file to write.
            **filters: as :meth:`query`.

        Returns:
            The number of rows written.

        Raises:
            ImportError: pyarrow is not installed (``pip install thinkparse[arrow]``).
        """
        from ._store_io import write_parquet

        check_filter_names(filters, allow_limit=True)
        return write_parquet(path, (t.to_dict() for t in self.query(**filters)))

    # --- lifecycle --------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the database; later calls raise :class:`TraceStoreError`."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> TraceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"TraceStore({self.path!r}, retention_days={self.retention_days!r}, {state})"
