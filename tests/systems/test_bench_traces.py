"""The trace benchmarks run (correctness only, tiny sizes, no timing thresholds)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "benchmarks"


def test_bench_traces_functions_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH_DIR))
    bench = importlib.import_module("bench_traces")
    try:
        assert [name for name, _ in bench.bench_mask(20_000, 1)] == [
            "realistic reasoning",
            "same + secrets",
            "baseline: one regex literal pass",
            "baseline: memchr scan",
        ]
        rows = bench.bench_linear([1_000, 2_000])
        assert [name for name, _ in rows] == list(bench.ADVERSARIAL)
        assert all(len(costs) == 2 and min(costs) > 0 for _, costs in rows)
        rates = bench.bench_record(20, 1)
        assert set(rates) == {
            "record, masking",
            "record, masker=None",
            "bare sqlite3 insert",
            "mask_secrets alone",
        }
        _, median, worst, plan = bench.bench_query(2_000, 100, 5)
        assert 0 < median <= worst
        assert any("idx_reasoning_traces_session_key" in step for step in plan)
    finally:
        for name in ("bench_traces", "_docs"):
            sys.modules.pop(name, None)
