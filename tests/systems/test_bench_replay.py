"""``benchmarks/bench_replay.py`` runs (correctness only, no timing thresholds)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "benchmarks"


def test_bench_replay_measures_every_turn() -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(BENCH_DIR))
        bench = importlib.import_module("bench_replay")
        try:
            rows = bench.measure(3)
        finally:
            sys.modules.pop("bench_replay", None)
    assert [r[0] for r in rows] == ["anthropic", "openai_responses", "openai_chat"]
    assert all(t > 0 for r in rows for t in r[1:])
