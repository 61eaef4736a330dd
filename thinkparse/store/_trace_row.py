"""The ``reasoning_traces`` row: its schema, the :class:`Trace` value and argument checks (#d1).

Rules: docs/behaviour.md#d1 and docs/behaviour.md#d2.  The store itself is in ``_store.py``.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Optional, Union

from .._errors import ThinkParseError
from ._masking import DEFAULT_MASKER, Masked, mask_secrets

__all__ = [
    "COLUMNS",
    "KEY_COLUMNS",
    "SCHEMA_VERSION",
    "Trace",
    "TraceStoreError",
    "mask_keys",
    "migrate",
]

#: The version of the schema below, kept in ``thinkparse_meta`` (#d1).
SCHEMA_VERSION = 1
META_KEY = "reasoning_traces_schema"

#: Column name, SQL declaration (the ``reasoning_traces`` table, #d1).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "TEXT PRIMARY KEY"),
    ("session_key", "TEXT NOT NULL"),
    ("run_id", "TEXT NOT NULL"),
    ("model", "TEXT NOT NULL"),
    ("provider", "TEXT NOT NULL"),
    ("reasoning_text", "TEXT NOT NULL"),
    ("reasoning_tokens", "INTEGER NOT NULL DEFAULT 0"),
    ("total_tokens", "INTEGER NOT NULL DEFAULT 0"),
    ("duration_ms", "INTEGER NOT NULL DEFAULT 0"),
    ("metadata", "TEXT DEFAULT '{}'"),
    ("created_at", "INTEGER NOT NULL"),
)
COLUMN_NAMES = tuple(name for name, _ in COLUMNS)
#: The metadata of a row that has none: the column default (#d1).
NO_METADATA = "{}"
#: The columns as read: a NULL ``metadata`` (a file made before the column had its default, or
#: a row another program wrote) reads as the default.
SELECT_LIST = ", ".join(
    f"COALESCE(metadata, '{NO_METADATA}')" if name == "metadata" else name
    for name in COLUMN_NAMES
)
INDEXED = ("session_key", "run_id", "model", "created_at")

SCHEMA_SQL = (
    "CREATE TABLE IF NOT EXISTS thinkparse_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS reasoning_traces (\n  "
    + ",\n  ".join(f"{name} {decl}" for name, decl in COLUMNS)
    + "\n)",
    *(
        f"CREATE INDEX IF NOT EXISTS idx_reasoning_traces_{col} ON reasoning_traces({col})"
        for col in INDEXED
    ),
)


class TraceStoreError(ThinkParseError, RuntimeError):
    """The database cannot be used: not a database, a newer schema, a foreign
    ``reasoning_traces`` table, or the store is closed (#d1)."""


@dataclass(frozen=True)
class Trace:
    """One stored reasoning trace: the columns of ``reasoning_traces`` (#d1)."""

    id: str
    """UUID hex unless given."""
    session_key: str
    """The session."""
    run_id: str
    """The run (one agent run, one request...)."""
    model: str
    """The model name."""
    provider: str
    """The provider family (6.1) or the name given."""
    reasoning_text: str
    """The masked reasoning; ``""`` when there was none (#d2)."""
    reasoning_tokens: int
    """Reported reasoning tokens, else the estimate (#b1)."""
    total_tokens: int
    """Total tokens as given or reported, else 0."""
    duration_ms: int
    """Duration of the turn in milliseconds."""
    metadata_json: Optional[str]
    """The ``metadata`` column: JSON text, ``'{}'`` when none was given (#d1)."""
    created_at: int
    """Milliseconds since the epoch."""

    @property
    def metadata(self) -> dict[str, Any]:
        """The metadata as a new dict on each access (``{}`` when absent).

        Raises:
            TraceStoreError: the column holds no JSON text (a damaged or foreign file).
        """
        if self.metadata_json is None:
            return {}
        try:
            value = json.loads(self.metadata_json)
        except (ValueError, RecursionError):
            raise TraceStoreError(
                f"trace {self.id!r}: the metadata column is not JSON text"
            ) from None
        return value if isinstance(value, dict) else {"value": value}

    def to_dict(self) -> dict[str, Any]:
        """The row as a JSON-ready dict: column names as keys, ``metadata`` as an object."""
        out = {name: getattr(self, name) for name in COLUMN_NAMES if name != "metadata"}
        out["metadata"] = self.metadata
        return {name: out[name] for name in COLUMN_NAMES}


# --- argument checks ----------------------------------------------------------------------------
#: The range of SQLite's INTEGER (a signed 64-bit integer): every stored or compared int.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_DAY_MS = 86_400_000


def check_int64(value: int, name: str) -> int:
    """``value`` when SQLite can store it, else ``ValueError`` naming ``name`` (#d1)."""
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(
            f"{name} must fit in a signed 64-bit integer (SQLite's INTEGER), got {value}"
        )
    return value


def check_str(value: object, name: str, *, empty: bool = False) -> str:
    """``value`` as a ``str``; ``TypeError``/``ValueError`` naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if not empty and not value:
        raise ValueError(f"{name} must not be empty")
    return value


def check_count(value: object, name: str, *, stored: bool = True) -> int:
    """A non-negative ``int`` (``bool`` refused); one that is ``stored`` must fit SQLite."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")
    return check_int64(value, name) if stored else value


def check_time(value: object, name: str) -> int:
    """Milliseconds since the epoch from an ``int`` or a timezone-aware ``datetime``."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"{name} must be a timezone-aware datetime")
        return int(value.timestamp() * 1000)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int (ms since the epoch) or a datetime")
    return check_int64(value, name)


def check_days(value: object, name: str) -> Union[int, float]:
    """A number of days >= 0 whose milliseconds SQLite can compare (at most 106751991167)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of days, not {type(value).__name__}")
    if not value >= 0 or math.isinf(value):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    if int(value * _DAY_MS) > INT64_MAX:  # as the store computes the cutoff
        raise ValueError(
            f"{name} must be at most {INT64_MAX // _DAY_MS} days (the range of SQLite's "
            f"INTEGER), got {value!r}"
        )
    return value


Masker = Callable[[str], Union[str, Masked]]

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` as SQLite can store it (#d1): lone surrogates become U+FFFD.

    JSON may escape half of a surrogate pair (``"\\ud83d"``); Python keeps it as a code point
    that UTF-8 cannot encode.  A pair written as two code points becomes its character; each
    lone half becomes U+FFFD REPLACEMENT CHARACTER.  Text without surrogates is returned as is.
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def apply_masker(masker: Optional[Masker], text: str) -> str:
    """Run ``masker`` on ``text``; a :class:`Masked` result gives its ``.text`` (#d2).

    The result is :func:`storable`, with or without a masker.
    """
    if masker is None:
        return storable(text)
    out = masker(text)
    if isinstance(out, Masked):
        return storable(out.text)
    if not isinstance(out, str):
        raise TypeError(f"masker must return a str, not {type(out).__name__}")
    return storable(out)


#: The string columns that identify a row; the masker runs on them too (#d2).
KEY_COLUMNS = ("id", "session_key", "run_id", "model", "provider")


def mask_keys(masker: Optional[Masker], row: tuple[Any, ...]) -> tuple[Any, ...]:
    """An insert row with its identifying columns (``KEY_COLUMNS``, the first five) masked.

    A masker replaces only the secrets inside a value and gives equal values equal results, so
    a masked key still groups and finds the same rows; the filters of ``query`` are masked the
    same way (#d2).
    """
    if masker is None:
        return (*(storable(value) for value in row[:5]), *row[5:])
    if masker is DEFAULT_MASKER or masker is mask_secrets:  # one call for the five: 4x faster
        parts = apply_masker(masker, _KEY_SEPARATOR.join(row[:5])).split(_KEY_SEPARATOR)
        if len(parts) == 5:  # else a secret spanned two keys (an unterminated PEM block)
            return (*parts, *row[5:])
    return (*(apply_masker(masker, value) for value in row[:5]), *row[5:])


#: Between the keys masked in one call: no rule's match crosses a NUL between line breaks.
_KEY_SEPARATOR = "\n\x00\n"


def mask_metadata(masker: Optional[Masker], metadata: object, name: str = "metadata") -> str:
    """``metadata`` (a dict) as JSON text with every key and string value masked at any depth.

    A key that masks to a key already present gets ``#2``, ``#3``... (#d2).  Raises
    ``TypeError`` naming the path of a value that is not JSON data, and ``ValueError`` naming
    the path where a cycle closes, or ``name`` for a value nested too deeply to copy.
    """
    if not isinstance(metadata, dict):
        raise TypeError(f"{name} must be a dict, not {type(metadata).__name__}")
    try:
        masked = _mask_value(masker, metadata, name, set())
        return json.dumps(masked, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise ValueError(f"{name}: nested too deeply") from None


def _mask_value(masker: Optional[Masker], value: object, path: str, active: set[int]) -> object:
    if isinstance(value, (dict, list, tuple)):
        if id(value) in active:
            raise ValueError(f"{path}: a cyclic value is not JSON data")
        active.add(id(value))
        try:
            return _mask_container(masker, value, path, active)
        finally:
            active.discard(id(value))
    if isinstance(value, str):
        return apply_masker(masker, value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{path}: {value!r} is not JSON data")
        return value
    raise TypeError(f"{path}: a {type(value).__name__} is not JSON data")


def _mask_container(
    masker: Optional[Masker], value: Union[dict[Any, Any], list[Any], tuple[Any, ...]], path: str,
    active: set[int],
) -> object:
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{path}: key {key!r} is not a str")
            masked = stored = apply_masker(masker, key)
            n = 2
            while stored in out:  # two keys that differed only in a secret
                stored = f"{masked}#{n}"
                n += 1
            out[stored] = _mask_value(masker, item, f"{path}.{key}", active)
        return out
    return [_mask_value(masker, item, f"{path}[{i}]", active) for i, item in enumerate(value)]


# --- schema ------------------------------------------------------------------------------------
def migrate(conn: sqlite3.Connection, path: str, busy_ms: int) -> None:
    """Create or check the schema in one transaction (#d1); ``TraceStoreError`` when foreign."""
    conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
    conn.execute("PRAGMA secure_delete = ON")  # deleted rows are overwritten with zeros (#d3)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("BEGIN IMMEDIATE")
    try:
        _check_existing(conn, path)
        for statement in SCHEMA_SQL:
            conn.execute(statement)
        conn.execute(
            "INSERT OR IGNORE INTO thinkparse_meta (key, value) VALUES (?, ?)",
            (META_KEY, str(SCHEMA_VERSION)),
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a full disk or an I/O error may have rolled it back already
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


def _check_existing(conn: sqlite3.Connection, path: str) -> None:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "thinkparse_meta" in tables:
        row = conn.execute(
            "SELECT value FROM thinkparse_meta WHERE key = ?", (META_KEY,)
        ).fetchone()
        if row is not None:
            try:
                version = int(row[0])
            except ValueError:
                version = -1
            if version > SCHEMA_VERSION:
                raise TraceStoreError(
                    f"{path}: the trace store has schema version {version}, newer than "
                    f"{SCHEMA_VERSION}; upgrade thinkparse to open it"
                )
            if version != SCHEMA_VERSION:
                raise TraceStoreError(f"{path}: unknown schema version {row[0]!r}")
    if "reasoning_traces" in tables:
        info = conn.execute("PRAGMA table_info(reasoning_traces)").fetchall()
        found = [(r[1], str(r[2]).upper(), bool(r[3])) for r in info]
        wanted = [(n, d.split()[0], "NOT NULL" in d) for n, d in COLUMNS]
        if found != wanted:
            raise TraceStoreError(f"{path}: a reasoning_traces table with other columns exists")
