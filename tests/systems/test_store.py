"""TraceStore: schema and migration (D1), masking on the way in (D2), retention (D3), JSONL."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

import pytest
from _secrets import SECRETS
from _support import require
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    Extraction,
    Masked,
    Trace,
    TraceStore,
    TraceStoreError,
    Usage,
    mask_secrets,
)
from thinkparse.store import _store

COLUMNS = [
    # name, type, notnull, default, pk
    ("id", "TEXT", 0, None, 1),
    ("session_key", "TEXT", 1, None, 0),
    ("run_id", "TEXT", 1, None, 0),
    ("model", "TEXT", 1, None, 0),
    ("provider", "TEXT", 1, None, 0),
    ("reasoning_text", "TEXT", 1, None, 0),
    ("reasoning_tokens", "INTEGER", 1, "0", 0),
    ("total_tokens", "INTEGER", 1, "0", 0),
    ("duration_ms", "INTEGER", 1, "0", 0),
    ("metadata", "TEXT", 0, "'{}'", 0),
    ("created_at", "INTEGER", 1, None, 0),
]
KEYS = {"session_key": "s1", "run_id": "r1", "model": "m1"}


def ext(
    reasoning: Optional[str] = "thinking",
    reported: Optional[int] = None,
    total: Optional[int] = None,
) -> Extraction:
    est = 0 if reasoning is None else -(-len(reasoning) // 4)
    usage = Usage(reasoning_tokens=reported, total_tokens=total)
    return Extraction("answer", reasoning, reported, est, False, (), "openai_chat", "field", usage)


def rows(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM reasoning_traces ORDER BY created_at, id").fetchall()


# --- D1 schema and migration ---------------------------------------------------------------------
def test_schema_exact(tmp_path: Path) -> None:  # D1
    db = tmp_path / "t.db"
    TraceStore(db).close()
    with sqlite3.connect(db) as conn:
        info = [tuple(r[1:]) for r in conn.execute("PRAGMA table_info(reasoning_traces)")]
        indexes = {
            r[0]: r[1]
            for r in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type='index'"
                " AND tbl_name='reasoning_traces' AND sql IS NOT NULL"
            )
        }
        meta = conn.execute("SELECT key, value FROM thinkparse_meta").fetchall()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # D4
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert info == COLUMNS
    assert {name: re.sub(r".*\((\w+)\)$", r"\1", sql) for name, sql in indexes.items()} == {
        "idx_reasoning_traces_session_key": "session_key",
        "idx_reasoning_traces_run_id": "run_id",
        "idx_reasoning_traces_model": "model",
        "idx_reasoning_traces_created_at": "created_at",
    }
    assert meta == [("reasoning_traces_schema", "1")]


def test_shared_application_file(tmp_path: Path) -> None:  # D1: user_version is not ours
    db = tmp_path / "app.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 7")
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users (name) VALUES ('ada')")
    with TraceStore(db) as store:
        store.record(ext(), **KEYS)
    with TraceStore(db) as store:  # idempotent migration
        assert store.count() == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 7
        assert conn.execute("SELECT name FROM users").fetchall() == [("ada",)]


def test_newer_version_is_refused(tmp_path: Path) -> None:  # D1
    db = tmp_path / "t.db"
    TraceStore(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE thinkparse_meta SET value = '2'")
    with pytest.raises(TraceStoreError, match=r"schema version 2, newer than 1; upgrade"):
        TraceStore(db)
    with sqlite3.connect(db) as conn:  # nothing was changed
        assert conn.execute("SELECT value FROM thinkparse_meta").fetchall() == [("2",)]


def test_foreign_table_is_refused(tmp_path: Path) -> None:  # D1
    db = tmp_path / "t.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE reasoning_traces (id TEXT, body TEXT)")
    with pytest.raises(TraceStoreError, match="reasoning_traces table with other columns"):
        TraceStore(db)


def test_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(
        TraceStoreError, match="cannot open the trace store: file is not a database"
    ):
        TraceStore(db)
    with pytest.raises(TraceStoreError, match="cannot open"):
        TraceStore(tmp_path / "missing-dir" / "t.db")


def test_record_defaults(monkeypatch: pytest.MonkeyPatch) -> None:  # D1
    monkeypatch.setattr(_store, "now_ms", lambda: 1_700_000_000_123)
    with TraceStore() as store:
        a = store.record(ext("x" * 10), **KEYS)
        b = store.record(ext(None, 42, 99), **KEYS, provider="custom", duration_ms=5)
        assert re.fullmatch(r"[0-9a-f]{32}", a)
        assert store.get(a) == Trace(
            a, "s1", "r1", "m1", "openai_chat", "x" * 10, 3, 0, 0, "{}", 1_700_000_000_123
        )
        assert store.get(b) == Trace(
            b, "s1", "r1", "m1", "custom", "", 42, 99, 5, "{}", 1_700_000_000_123
        )
        assert store.get("nope") is None


def test_explicit_id_and_time() -> None:  # D1
    when = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=timezone.utc)
    with TraceStore(retention_days=None) as store:
        store.record(ext(), **KEYS, id="abc", created_at=when, total_tokens=7)
        t = store.get("abc")
        assert t is not None and (t.created_at, t.total_tokens) == (1767323045678, 7)


BAD_ARGS = [
    ({"extraction": "text"}, TypeError, "extraction"),
    ({"session_key": 1}, TypeError, "session_key"),
    ({"session_key": ""}, ValueError, "session_key"),
    ({"run_id": None}, TypeError, "run_id"),
    ({"model": ""}, ValueError, "model"),
    ({"provider": 3}, TypeError, "provider"),
    ({"total_tokens": -1}, ValueError, "total_tokens"),
    ({"total_tokens": 1.5}, TypeError, "total_tokens"),
    ({"duration_ms": True}, TypeError, "duration_ms"),
    ({"duration_ms": -5}, ValueError, "duration_ms"),
    ({"metadata": [1]}, TypeError, "metadata"),
    ({"metadata": {"a": object()}}, TypeError, "metadata.a"),
    ({"metadata": {"a": [float("nan")]}}, ValueError, r"metadata.a\[0\]"),
    ({"metadata": {1: "x"}}, TypeError, "metadata"),
    ({"id": ""}, ValueError, "id"),
    ({"id": 5}, TypeError, "id"),
    ({"created_at": "yesterday"}, TypeError, "created_at"),
    ({"created_at": datetime(2026, 1, 1)}, ValueError, "created_at"),
]


@pytest.mark.parametrize("change, exc, word", BAD_ARGS)
def test_bad_arguments_write_nothing(change: dict[str, Any], exc: type, word: str) -> None:  # D4
    args: dict[str, Any] = {"extraction": ext(), **KEYS, **change}
    extraction = args.pop("extraction")
    with TraceStore() as store:
        with pytest.raises(exc, match=word):
            store.record(extraction, **args)
        assert store.count() == 0


def test_duplicate_id_is_value_error() -> None:  # D4
    with TraceStore() as store:
        store.record(ext("first"), **KEYS, id="x")
        with pytest.raises(ValueError, match="'x' is already stored"):
            store.record(ext("second"), **KEYS, id="x")
        assert [t.reasoning_text for t in store.query()] == ["first"]


def test_bad_constructor_arguments(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="path"):
        TraceStore(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="retention_days"):
        TraceStore(retention_days=-1)
    with pytest.raises(TypeError, match="retention_days"):
        TraceStore(retention_days="30")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="masker"):
        TraceStore(masker="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="auto_prune"):
        TraceStore(auto_prune=1)  # type: ignore[arg-type]


# --- D2 masking ----------------------------------------------------------------------------------
def test_reasoning_and_metadata_are_masked() -> None:  # D2
    key = "gh" + "p_" + "k7Pq2Xz9" * 4 + "Wm3R"
    with TraceStore() as store:
        i = store.record(
            ext(f"use {key} now"),
            **KEYS,
            metadata={"note": f"password={key}", "list": [f"x {key}", 3, None], "password": "ok"},
        )
        t = store.get(i)
        assert t is not None and t.reasoning_text == "use [REDACTED:github] now"
        assert t.metadata == {
            "note": "password=[REDACTED:github]",
            "list": ["x [REDACTED:github]", 3, None],
            "password": "ok",
        }
        meta = t.metadata
        assert meta is not None
        meta["note"] = "changed"
        assert t.metadata["note"] == "password=[REDACTED:github]"  # a new dict each time


def test_masker_none_custom_and_masked_result() -> None:  # D2
    with TraceStore(masker=None) as store:
        assert store.get(store.record(ext("password=hunter22!"), **KEYS)).reasoning_text == (  # type: ignore[union-attr]
            "password=hunter22!"
        )
    with TraceStore(masker=str.upper) as store:
        assert store.get(store.record(ext("abc"), **KEYS)).reasoning_text == "ABC"  # type: ignore[union-attr]
    with TraceStore(masker=mask_secrets) as store:  # a Masked result gives its text
        t = store.get(store.record(ext("password=hunter22!"), **KEYS))
        assert t is not None and t.reasoning_text == "password=[REDACTED:password]"
    with TraceStore(masker=lambda t: Masked("m", 0, ())) as store:
        assert store.get(store.record(ext("abc"), **KEYS)).reasoning_text == "m"  # type: ignore[union-attr]
    with TraceStore(masker=lambda t: 3) as store:  # type: ignore[arg-type,return-value]
        with pytest.raises(TypeError, match="masker must return a str"):
            store.record(ext("abc"), **KEYS)
        assert store.count() == 0


def _files(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name))


_TOKEN = "gh" + "p_" + "Zq4Lm8Xw2Rt6Yp1Ks9Vb3Nd7Hf5Jc0Ga2Ue8"
_OPENAI = "sk-" + "proj-" + "Wq3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4"


def test_keys_of_a_row_are_masked(tmp_path: Path) -> None:  # D2
    # metadata keys, session_key, run_id, model (and provider, id) reach the file masked
    db = tmp_path / "t.db"
    with TraceStore(db, retention_days=None) as store:
        i = store.record(
            ext("fine"), session_key=f"user-{_TOKEN}", run_id=f"run {_OPENAI}",
            model=f"ft:{_OPENAI}", provider=f"p {_TOKEN}", id=f"id-{_TOKEN}",
            metadata={f"key {_TOKEN}": 1, "nested": {f"password={_OPENAI}": "v"}},
        )  # fmt: skip
        assert i == "id-[REDACTED:github]"
        t = store.get(f"id-{_TOKEN}")  # looked up by the value it was recorded with
        assert t is not None and t == store.get(i)
        assert (t.session_key, t.run_id, t.model, t.provider) == (
            "user-[REDACTED:github]", "run [REDACTED:openai]", "ft:[REDACTED:openai]",
            "p [REDACTED:github]",
        )  # fmt: skip
        assert t.metadata == {
            "key [REDACTED:github]": 1, "nested": {"password=[REDACTED:openai]": "v"}
        }  # fmt: skip
        # the filters are masked the same way: the original key finds the row
        assert [x.id for x in store.query(session_key=f"user-{_TOKEN}")] == [i]
        assert store.count(run_id=f"run {_OPENAI}", model=f"ft:{_OPENAI}") == 1
        assert store.count(session_key="user-[REDACTED:github]") == 1
    raw = _files(db)
    assert _TOKEN.encode() not in raw and _OPENAI.encode() not in raw


def test_masked_keys_stay_distinct_when_they_differ() -> None:  # D2
    with TraceStore(retention_days=None) as store:
        store.record(ext(), session_key="a", run_id="r", model="m")
        store.record(ext(), session_key="b", run_id="r", model="m")
        assert store.count(session_key="a") == 1 and store.count(session_key="b") == 1
        meta = {f"x {_TOKEN}": 1, f"x {_TOKEN[:-1]}Q": 2}  # two keys masked alike
        t = store.get(store.record(ext(), **KEYS, metadata=meta))
        assert t is not None
        assert t.metadata == {"x [REDACTED:github]": 1, "x [REDACTED:github]#2": 2}


def test_import_masks_the_keys() -> None:  # D2
    with TraceStore(masker=None, retention_days=None) as raw:
        raw.record(ext(), session_key=f"s {_TOKEN}", run_id="r", model="m", id="x")
        buf = io.StringIO()
        raw.export_jsonl(buf)
    with TraceStore(retention_days=None) as store:
        assert store.import_jsonl(io.StringIO(buf.getvalue())) == 1
        assert [t.session_key for t in store.query()] == ["s [REDACTED:github]"]


# --- queries -------------------------------------------------------------------------------------
def _fill(store: TraceStore) -> None:
    for i, (s, r, m, t) in enumerate(
        [("a", "r1", "m1", 30), ("b", "r1", "m2", 10), ("a", "r2", "m1", 10), ("a", "r2", "m2", 20)]
    ):
        store.record(ext(f"t{i}"), session_key=s, run_id=r, model=m, id=f"id{i}", created_at=t)


def test_filters_and_order() -> None:  # D1: created_at, then id
    with TraceStore(retention_days=None) as store:
        _fill(store)
        ids = lambda **f: [t.id for t in store.query(**f)]  # noqa: E731
        assert ids() == ["id1", "id2", "id3", "id0"]
        assert ids(session_key="a") == ["id2", "id3", "id0"]
        assert ids(run_id="r2", model="m2") == ["id3"]
        assert ids(provider="openai_chat", limit=2) == ["id1", "id2"]
        assert ids(since=20) == ["id3", "id0"]  # inclusive
        assert ids(until=20) == ["id1", "id2"]  # exclusive
        assert ids(since=datetime.fromtimestamp(0.02, timezone.utc), until=30) == ["id3"]
        assert ids(limit=0) == [] and ids(session_key="zz") == []
        assert store.count(session_key="a", since=15) == 2


def test_query_reads_in_pages() -> None:  # D1: ordering holds across pages
    with TraceStore(retention_days=None) as store:
        for i in range(1234):
            store.record(ext(), **KEYS, id=f"{i:05d}", created_at=i % 7)
        got = [(t.created_at, t.id) for t in store.query()]
        assert got == sorted(got) and len(got) == 1234
        assert len(list(store.query(limit=777))) == 777


@pytest.mark.parametrize(
    "filters, exc, word",
    [
        ({"session_key": 3}, TypeError, "session_key"),
        ({"since": "x"}, TypeError, "since"),
        ({"until": datetime(2026, 1, 1)}, ValueError, "until"),
        ({"limit": -1}, ValueError, "limit"),
        ({"bogus": 1}, TypeError, "bogus"),
    ],
)
def test_bad_filters(filters: dict[str, Any], exc: type, word: str) -> None:
    with TraceStore() as store, pytest.raises(exc, match=word):
        store.query(**filters)


def test_indexes_are_used() -> None:  # D1: query by session/run/model/time uses an index
    with TraceStore() as store:
        assert any(
            "USING INDEX idx_reasoning_traces_session_key" in d
            for d in store.explain_query(session_key="s")
        )
        assert any(
            "USING INDEX idx_reasoning_traces_run_id" in d for d in store.explain_query(run_id="r")
        )
        assert any(
            "USING INDEX idx_reasoning_traces_model" in d for d in store.explain_query(model="m")
        )
        assert any("idx_reasoning_traces_created_at" in d for d in store.explain_query(since=5))


# --- D3 retention --------------------------------------------------------------------------------
DAY = 86_400_000


def test_prune(monkeypatch: pytest.MonkeyPatch) -> None:  # D3
    now = 1_000 * DAY
    monkeypatch.setattr(_store, "now_ms", lambda: now)
    with TraceStore(retention_days=None) as store:
        for i, age in enumerate([0, 5, 29, 31, 400]):
            store.record(ext(), **KEYS, id=str(i), created_at=now - age * DAY - 1)
        assert store.prune_older_than(30) == 2
        assert store.prune_older_than() == 0  # retention None: nothing
        assert store.prune_older_than(0.5) == 2
        assert [t.id for t in store.query()] == ["0"]
        with pytest.raises(ValueError, match="days"):
            store.prune_older_than(-1)
        with pytest.raises(TypeError, match="days"):
            store.prune_older_than("3")  # type: ignore[arg-type]


def test_auto_prune_before_the_first_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # D3
    now = 1_000 * DAY
    monkeypatch.setattr(_store, "now_ms", lambda: now)
    db = tmp_path / "t.db"
    with TraceStore(db, retention_days=None) as store:
        store.record(ext(), **KEYS, id="old", created_at=now - 40 * DAY)
        store.record(ext(), **KEYS, id="new", created_at=now - 10 * DAY)
    with TraceStore(db, auto_prune=False) as store:
        store.record(ext(), **KEYS, id="a", created_at=now)
        assert store.count() == 3
    # Opening a store to read it deletes nothing, whatever its retention.
    with TraceStore(db, retention_days=7) as store:
        assert [t.id for t in store.query()] == ["old", "new", "a"]
        assert store.get("old") is not None
    # The first write prunes first, once.
    with TraceStore(db, retention_days=30) as store:
        store.record(ext(), **KEYS, id="b", created_at=now - 40 * DAY)
        assert [t.id for t in store.query()] == ["b", "new", "a"]
    with TraceStore(db, retention_days=7) as store:
        assert store.import_jsonl(io.StringIO("")) == 0
        assert [t.id for t in store.query()] == ["a"]


def test_pruned_rows_leave_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # D3: on a SQLite build whose secure_delete is off, deleted reasoning stayed in the file
    real_connect = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")  # such a build's default
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    now = 1_000 * DAY
    monkeypatch.setattr(_store, "now_ms", lambda: now)
    db = tmp_path / "t.db"
    old = "the deleted reasoning about a quarterly forecast " * 40
    with TraceStore(db, retention_days=None) as store:
        assert store._connection().execute("PRAGMA secure_delete").fetchone() == (1,)
        store.record(ext(old), **KEYS, id="old", created_at=now - 40 * DAY)
        store.record(ext("kept"), **KEYS, id="new", created_at=now)
        assert b"quarterly forecast" in _files(db)
        assert store.prune_older_than(30) == 1
        assert b"quarterly forecast" not in _files(db)  # the open store: file and WAL
        assert [t.id for t in store.query()] == ["new"]
    assert b"quarterly forecast" not in _files(db)


# --- JSONL and Parquet ---------------------------------------------------------------------------
def test_jsonl_round_trip(tmp_path: Path) -> None:
    with TraceStore(retention_days=None) as store:
        _fill(store)
        store.record(ext(), **KEYS, id="meta", created_at=40, metadata={"k": ["v", 1]})
        buf = io.StringIO()
        assert store.export_jsonl(buf, session_key="a") == 3
        lines = [json.loads(x) for x in buf.getvalue().splitlines()]
        assert lines[0] == {
            "id": "id2", "session_key": "a", "run_id": "r2", "model": "m1",
            "provider": "openai_chat", "reasoning_text": "t2", "reasoning_tokens": 1,
            "total_tokens": 0, "duration_ms": 0, "metadata": {}, "created_at": 10,
        }  # fmt: skip
        path = tmp_path / "all.jsonl"
        assert store.export_jsonl(path) == 5
        binary = io.BytesIO()
        assert store.export_jsonl(binary) == 5
        assert binary.getvalue() == path.read_bytes()
        originals = list(store.query())
    with TraceStore(retention_days=None) as other:
        assert other.import_jsonl(path) == 5
        assert list(other.query()) == originals
        assert other.import_jsonl(io.BytesIO(path.read_bytes())) == 0  # ids present: skipped


def test_import_masks(tmp_path: Path) -> None:  # D2: imports are masked too
    with TraceStore(masker=None, retention_days=None) as raw:
        for i, (rule, text, _) in enumerate(SECRETS):
            raw.record(ext(text), **KEYS, metadata={"text": text, "rule": rule}, created_at=i)
        buf = io.StringIO()
        raw.export_jsonl(buf)
    with TraceStore(retention_days=None) as store:
        assert store.import_jsonl(io.StringIO(buf.getvalue())) == len(SECRETS)
        for trace, (_, text, secret) in zip(store.query(), SECRETS):
            assert (
                secret not in trace.reasoning_text
                and trace.reasoning_text == mask_secrets(text).text
            )
            assert trace.metadata is not None and secret not in trace.metadata["text"]


@pytest.mark.parametrize(
    "line, message",
    [
        ("{", "line 2: invalid JSON"),
        ("[1]", "line 2: a record must be a JSON object"),
        ('{"id": "x"}', "line 2: missing session_key"),
        ("BAD_TYPE", "line 2: reasoning_tokens must be an int"),
        ("EXTRA", "line 2: unknown key 'extra'"),
    ],
)
def test_import_bad_line_imports_nothing(line: str, message: str) -> None:
    good = {
        "id": "a", "session_key": "s", "run_id": "r", "model": "m", "provider": "p",
        "reasoning_text": "", "reasoning_tokens": 1, "total_tokens": 0, "duration_ms": 0,
        "metadata": None, "created_at": 1,
    }  # fmt: skip
    if line == "BAD_TYPE":
        line = json.dumps({**good, "id": "b", "reasoning_tokens": "1"})
    elif line == "EXTRA":
        line = json.dumps({**good, "id": "b", "extra": 1})
    with TraceStore(retention_days=None) as store:
        with pytest.raises(ValueError, match=re.escape(message)):
            store.import_jsonl(io.StringIO(json.dumps(good) + "\n" + line + "\n"))
        assert store.count() == 0


def test_parquet_export(tmp_path: Path) -> None:  # a fleet's stores merge on an engine
    require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    import pyarrow.parquet as pq

    files = []
    for host in ("a", "b"):
        with TraceStore(retention_days=None) as store:
            store.record(
                ext("password=hunter22!"), **KEYS, id=host, created_at=1, metadata={"h": host}
            )
            files.append(tmp_path / f"{host}.parquet")
            assert store.export_parquet(files[-1]) == 1
    table = pq.read_table(files)
    assert table.column_names == [c[0] for c in COLUMNS]
    got = table.to_pylist()
    assert [(r["id"], r["reasoning_text"], r["metadata"]) for r in got] == [
        ("a", "password=[REDACTED:password]", '{"h": "a"}'),
        ("b", "password=[REDACTED:password]", '{"h": "b"}'),
    ]


def test_parquet_without_pyarrow_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    monkeypatch.delitem(__import__("sys").modules, "pyarrow", raising=False)
    monkeypatch.delitem(__import__("sys").modules, "pyarrow.parquet", raising=False)
    with TraceStore() as store, pytest.raises(ImportError, match=r"thinkparse\[arrow\]'"):
        store.export_parquet("x.parquet")


# --- lifecycle and threads -----------------------------------------------------------------------
def test_closed_store() -> None:
    store = TraceStore()
    store.close()
    store.close()  # a second close does nothing
    for call in (
        lambda: store.record(ext(), **KEYS),
        lambda: store.get("x"),
        lambda: store.query(),
        lambda: store.prune_older_than(1),
        lambda: store.count(),
    ):
        with pytest.raises(TraceStoreError, match="closed"):
            call()
    assert repr(store) == "TraceStore(':memory:', retention_days=30, closed)"


@pytest.mark.parametrize("where", ["memory", "file"])
def test_threads_share_one_store(where: str, tmp_path: Path) -> None:  # D4
    store = TraceStore(":memory:" if where == "memory" else tmp_path / "t.db")
    go = threading.Barrier(6)

    def work(n: int) -> None:
        go.wait()
        for i in range(150):
            store.record(ext(), session_key=f"s{n}", run_id="r", model="m")
            if i % 50 == 0:
                list(store.query(session_key=f"s{n}"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.count() == 900 and store.count(session_key="s3") == 150
    store.close()


@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 50), st.text(max_size=40)),
        max_size=25,
    )
)
@settings(max_examples=60, deadline=None)
def test_query_matches_a_model(entries: list[tuple[str, int, str]]) -> None:  # D1 ordering
    with TraceStore(retention_days=None) as store:
        ids = [
            store.record(ext(text), **{**KEYS, "session_key": s}, created_at=t)
            for s, t, text in entries
        ]
        for key in ("a", "b"):
            want = sorted((t, i) for (s, t, _), i in zip(entries, ids) if s == key)
            got = [(tr.created_at, tr.id) for tr in store.query(session_key=key, since=10)]
            assert got == [w for w in want if w[0] >= 10]
        assert all(
            store.get(i).reasoning_text == mask_secrets(text).text  # type: ignore[union-attr]
            for (_, _, text), i in zip(entries, ids)
        )
