"""The masking benchmark runs (correctness only, tiny sizes, no timing thresholds)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from thinkparse import mask_secrets

BENCH_DIR = Path(__file__).resolve().parents[2] / "benchmarks"


def test_bench_masking_functions_run(monkeypatch: pytest.MonkeyPatch) -> None:  # D2
    monkeypatch.syspath_prepend(str(BENCH_DIR))
    bench = importlib.import_module("bench_masking")
    try:
        doc = bench.realistic_reasoning(60_000)
        assert len(doc) == 60_000 and doc == bench.realistic_reasoning(60_000)
        plain = bench.realistic_reasoning(60_000, secrets=False)
        assert mask_secrets(plain).count == 0  # the realistic text holds no false positive
        assert mask_secrets(doc).count >= 2  # and its secrets are found
        names = [name for name, _ in bench.bench_throughput(20_000, 1)]
        assert names[:2] == ["realistic reasoning", "same, no secrets"]
        rows = bench.bench_linear([1_000, 2_000])
        assert [name for name, _ in rows] == list(bench.ADVERSARIAL)
        assert all(len(costs) == 2 and min(costs) > 0 for _, costs in rows)
    finally:
        sys.modules.pop("bench_masking", None)
