"""The datasets benchmark works (correctness only, on a few rows; no timing thresholds)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from _support import require

BENCH_DIR = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(BENCH_DIR))
        yield importlib.import_module("bench_datasets")
    sys.modules.pop("bench_datasets", None)


def test_rows_are_realistic(bench: ModuleType) -> None:
    rows = bench.rows(400)
    assert rows == bench.rows(400)  # seeded
    assert 700 < sum(map(len, rows)) / len(rows) < 1300
    with_block = sum("</think>" in r.split("```")[0] for r in rows) / len(rows)
    assert 0.5 < with_block < 0.7
    assert any("```" in r for r in rows)


def test_arrow_vs_polars_runs_and_finds_the_regex_mistakes(bench: ModuleType) -> None:
    require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    require("polars", "THINKPARSE_REQUIRE_ENGINES")
    r = bench.bench_arrow_vs_polars(300, 1)
    assert r["rows"] == 300 and r["regex"] > 0 and r["arrow"] > 0 and r["polars_expr"] > 0
    assert 0 < r["differ"] <= 300
    kinds = {text.split(":")[0] for text in r["examples"]}
    assert kinds == {
        "tags inside code (regex",
        "whitespace around the block (kept by the regex)",
        "block opened by the chat template (regex",
    }
