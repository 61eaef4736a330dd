"""Cost of the trace store and of secrets masking (docs/behaviour.md#d2, #d4).

Run: ``python benchmarks/bench_traces.py`` (from the repository root).  ``--quick`` uses small
sizes (a smoke run).  Prints:

1. ``mask_secrets`` throughput on 10 MB of realistic reasoning text (target >= 50 MB/s), with
   and without a few secrets sprinkled in;
2. per-character cost of ``mask_secrets`` on adversarial inputs at 100 KB, 1 MB and 10 MB (the
   growth from 1 MB to 10 MB must stay within 2x: linear time);
3. ``TraceStore.record()`` sustained throughput into a WAL file with masking, with
   ``masker=None``, and a bare ``sqlite3`` insert of the same row with the same pragmas (target:
   record with masking >= 0.5x the bare insert; masking should cost less than the insert);
4. query by session on a store of 1 M traces: median and worst milliseconds of
   ``list(store.query(session_key=...))`` (the session index, docs/behaviour.md#d1).
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _docs import realistic_document

from thinkparse import Extraction, TraceStore, mask_secrets
from thinkparse.store._trace_row import COLUMN_NAMES

INSERT = (
    f"INSERT INTO reasoning_traces ({', '.join(COLUMN_NAMES)}) "
    f"VALUES ({', '.join('?' * len(COLUMN_NAMES))})"
)
SECRETS = [
    "api_key=sk-proj-" + "aB3dE5fG7hJ9kL1mN2pQ" * 3,
    "Authorization: Bearer " + "x9Y8w7V6u5T4s3R2q1P0" * 2,
    "postgres://app:S3cr3tPw@db:5432/x",
    "token: " + "gh" + "p_" + "Zz09" * 9,
]


def best(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_mask(size: int, rounds: int) -> list[tuple[str, float]]:
    doc = realistic_document(size)
    rng = random.Random(3)
    parts = doc.split("\n")
    for _ in range(max(1, size // 100_000)):
        parts.insert(rng.randrange(len(parts)), rng.choice(SECRETS))
    with_secrets = "\n".join(parts)[:size]
    texts = {"realistic reasoning": doc, "same + secrets": with_secrets}
    raw = doc.encode()
    literal = re.compile(re.escape(b"sk-"))
    # Baselines on the same text in the same rounds, for a machine-independent reading: one
    # regex literal pass (what each rule costs at least) and one memchr scan.
    contenders: dict[str, Callable[[], object]] = {
        name: (lambda t=text: mask_secrets(t)) for name, text in texts.items()
    }
    contenders["baseline: one regex literal pass"] = lambda: literal.search(raw)
    contenders["baseline: memchr scan"] = lambda: raw.find(b"\x00")
    best_time = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):  # interleaved, so that all see the same machine state
        for name, fn in contenders.items():
            best_time[name] = min(best_time[name], best(fn, 1))
    return [(name, len(raw) / best_time[name] / 1e6) for name in contenders]


ADVERSARIAL = {
    "sk-": "sk-",
    "eyJ.": "eyJaaaaaaaaaa.",
    "password=": "password=",
    "BEGIN PRIVATE KEY": "-----BEGIN RSA PRIVATE KEY-----\n",
    "://a:": "://a:",
    "base64 run": "aB3+/",
    "AKIA": "AKIA",
}


def bench_linear(sizes: list[int]) -> list[tuple[str, list[float]]]:
    rows = []
    for name, unit in ADVERSARIAL.items():
        costs = []
        for size in sizes:
            text = (unit * (size // len(unit) + 1))[:size]
            costs.append(
                best(lambda t=text: mask_secrets(t), 3 if size <= 1_000_000 else 2) / size * 1e9
            )  # type: ignore[misc]
        rows.append((name, costs))
    return rows


def _extraction() -> Extraction:
    reasoning = realistic_document(2_000, seed=7)
    return Extraction("The answer.", reasoning, 500, 500, False, (), "openai_chat", "field")


def _record_rate(path: str, masker: object, ex: Extraction, n: int) -> float:
    kwargs = {} if masker == "default" else {"masker": None}
    with TraceStore(path, **kwargs) as store:  # type: ignore[arg-type]
        start = time.perf_counter()
        for i in range(n):
            store.record(ex, session_key=f"s{i % 100}", run_id="r", model="m", metadata={"i": i})
        return n / (time.perf_counter() - start)


def _bare_rate(path: str, ex: Extraction, n: int) -> float:
    TraceStore(path).close()  # the same schema and indexes
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    sql = INSERT
    start = time.perf_counter()
    for i in range(n):
        row = (uuid.uuid4().hex, f"s{i % 100}", "r", "m", "openai_chat", ex.reasoning, 500, 0, 0,
               json.dumps({"i": i}), int(time.time() * 1000))  # fmt: skip
        conn.execute(sql, row)
    rate = n / (time.perf_counter() - start)
    conn.close()
    return rate


def bench_record(n: int, rounds: int) -> dict[str, float]:
    """Best rate of ``rounds`` interleaved rounds of each contender, each on a fresh file."""
    ex = _extraction()
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            base = f"{tmp}/{r}"
            runs: list[tuple[str, Callable[[], float]]] = [
                ("record, masking", lambda b=base: _record_rate(b + "m.db", "default", ex, n)),
                ("record, masker=None", lambda b=base: _record_rate(b + "n.db", None, ex, n)),
                ("bare sqlite3 insert", lambda b=base: _bare_rate(b + "b.db", ex, n)),
            ]
            # a different contender goes first in each round (the first pays for the disk
            # writes the previous round left behind)
            runs = runs[r % 3 :] + runs[: r % 3]
            rates = {name: run() for name, run in runs}
            start = time.perf_counter()
            for _ in range(n):
                mask_secrets(ex.reasoning or "")
            rates["mask_secrets alone"] = n / (time.perf_counter() - start)
            for name, rate in rates.items():
                out[name] = max(out.get(name, 0.0), rate)
    return out


def bench_query(total: int, per_session: int, probes: int) -> tuple[float, float, float, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.db")
        TraceStore(path).close()
        conn = sqlite3.connect(path, isolation_level=None)
        sessions = total // per_session
        start = time.perf_counter()
        conn.execute("BEGIN")
        conn.executemany(
            INSERT,
            (
                (uuid.uuid4().hex, f"session-{i % sessions}", f"run-{i % 997}", f"model-{i % 7}",
                 "openai_chat", "short reasoning text", 40, 90, 1200, None, 1_700_000_000_000 + i)
                for i in range(total)
            ),
        )  # fmt: skip
        conn.execute("COMMIT")
        conn.close()
        build = time.perf_counter() - start
        rng = random.Random(5)
        times = []
        with TraceStore(path, retention_days=None) as store:
            plan = store.explain_query(session_key="session-1")
            for _ in range(probes):
                key = f"session-{rng.randrange(sessions)}"
                t0 = time.perf_counter()
                found = list(store.query(session_key=key))
                times.append((time.perf_counter() - t0) * 1000)
                assert len(found) == per_session
        return build, statistics.median(times), max(times), plan


def main() -> None:
    quick = "--quick" in sys.argv
    size = 200_000 if quick else 10_000_000
    print(f"mask_secrets on {size / 1e6:g} MB (best of 3)")
    for name, mbps in bench_mask(size, 3):
        print(f"  {name:<22} {mbps:8.1f} MB/s")
    sizes = [10_000, 100_000] if quick else [100_000, 1_000_000, 10_000_000]
    print("\nmask_secrets on adversarial input, ns per character")
    head = "  ".join(f"{s / 1e6:>7g}MB" for s in sizes)
    print(f"  {'input':<20} {head}   growth (last/previous)")
    for name, costs in bench_linear(sizes):
        cells = "  ".join(f"{c:9.1f}" for c in costs)
        print(f"  {name:<20} {cells}   {costs[-1] / costs[-2]:.2f}x")
    n = 500 if quick else 5_000
    print(f"\nrecord() of a 2 KB reasoning trace into a WAL file, {n} records, best round")
    rates = bench_record(n, 2 if quick else 3)
    for name, rate in rates.items():
        print(f"  {name:<22} {rate:9.0f} /s")
    bare = rates["bare sqlite3 insert"]
    print(f"  record with masking / bare insert: {rates['record, masking'] / bare:.2f}x")
    print(f"  record with masker=None / bare insert: {rates['record, masker=None'] / bare:.2f}x")
    mask_us = 1e6 / rates["mask_secrets alone"]
    insert_us = 1e6 / bare
    print(f"  masking {mask_us:.0f} us per record vs the insert {insert_us:.0f} us")
    total = 20_000 if quick else 1_000_000
    build, median, worst, plan = bench_query(total, 100, 50 if quick else 500)
    print(f"\nquery by session on {total:,} traces (100 per session; built in {build:.1f} s)")
    print(f"  median {median:.3f} ms, worst {worst:.3f} ms; plan: {' / '.join(plan)}")


if __name__ == "__main__":
    main()
