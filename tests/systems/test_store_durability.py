"""TraceStore across processes (D4) and secrets on disk (D2): real processes, real files."""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from _secrets import SECRETS
from _support import CLI_ENV

from thinkparse import Extraction, TraceStore

WRITER = r"""
import sys
from thinkparse import Extraction, TraceStore
db, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
ex = Extraction("answer", "reasoning " * 20, None, 50, False, (), "openai_chat", "field")
store = TraceStore(db)
i = 0
while count < 0 or i < count:
    trace_id = store.record(ex, session_key=name, run_id="r", model="m", metadata={"i": i})
    sys.stdout.write(trace_id + "\n")
    sys.stdout.flush()
    i += 1
store.close()
"""


def spawn(db: Path, name: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), name, str(count)],
        stdout=subprocess.PIPE,
        text=True,
        env=CLI_ENV,
    )


def test_many_processes_lose_no_row(tmp_path: Path) -> None:  # D4
    db = tmp_path / "shared.db"
    procs = [spawn(db, f"p{n}", 150) for n in range(4)]
    reported = []
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        reported.append(out.split())
    with TraceStore(db) as store:
        assert store.count() == 600
        for n, ids in enumerate(reported):
            assert len(ids) == 150
            assert {t.id for t in store.query(session_key=f"p{n}")} == set(ids)
            numbers = sorted(t.metadata["i"] for t in store.query(session_key=f"p{n}"))  # type: ignore[index]
            assert numbers == list(range(150))


def test_sigkill_keeps_every_returned_record(tmp_path: Path) -> None:  # D4
    db = tmp_path / "killed.db"
    TraceStore(db).close()
    proc = spawn(db, "k", -1)  # records until killed
    assert proc.stdout is not None
    ids: list[str] = []
    deadline = time.monotonic() + 120
    while len(ids) < 300 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        ids.append(line.strip())
    os.kill(proc.pid, signal.SIGKILL)
    # ids the child wrote after our last read are in the pipe: they returned too
    rest, _ = proc.communicate(timeout=60)
    ids += rest.split()
    assert proc.returncode == -signal.SIGKILL
    assert len(ids) >= 300
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        stored = {row[0] for row in conn.execute("SELECT id FROM reasoning_traces")}
    assert set(ids) <= stored


def _ext(text: str) -> Extraction:
    return Extraction("", text, None, 1, False, (), "openai_chat", "field")


def test_no_unmasked_secret_reaches_the_disk(tmp_path: Path) -> None:  # D2
    db = tmp_path / "secrets.db"
    store = TraceStore(db)
    for n, (rule, text, _) in enumerate(SECRETS):
        store.record(
            _ext(f"thinking... {text} ...done"),
            session_key="s",
            run_id="r",
            model="m",
            metadata={"rule": rule, "nested": {"text": text, "list": [text]}},
            created_at=n,
        )
    exported = io.BytesIO()
    store.export_jsonl(exported)
    wal = Path(str(db) + "-wal")
    files = {"db": db.read_bytes(), "wal": wal.read_bytes() if wal.exists() else b""}
    store.close()  # checkpoints the WAL into the file
    files["db-after-close"] = db.read_bytes()
    files["jsonl"] = exported.getvalue()
    assert files["wal"] or files["db"]
    for name, data in files.items():
        for _, _, secret in SECRETS:
            assert secret.encode() not in data, (name, secret[:12])
    assert exported.getvalue().count(b"[REDACTED:") == 3 * len(
        SECRETS
    )  # reasoning, nested text, list


def test_the_scan_would_see_an_unmasked_secret(tmp_path: Path) -> None:
    # the scan above can fail: with masker=None the secrets are on disk
    db = tmp_path / "raw.db"
    with TraceStore(db, masker=None) as store:
        for _, text, _ in SECRETS:
            store.record(_ext(text), session_key="s", run_id="r", model="m")
    data = db.read_bytes()
    assert all(secret.encode() in data for _, _, secret in SECRETS)
