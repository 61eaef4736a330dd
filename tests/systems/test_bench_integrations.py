"""``benchmarks/bench_integrations.py`` runs (performance targets, W5): every row, once, on its
real stream.  Correctness only: no timing thresholds."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import pytest
from _support import ROOT, require

from thinkparse._env import REQUIRE_INTEGRATIONS


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    yield importlib.import_module("bench_integrations")
    sys.modules.pop("bench_integrations", None)


def test_langchain_rows(bench: Any) -> None:
    require("langchain_core", REQUIRE_INTEGRATIONS)
    rows = bench.langchain_rows(1)
    assert [r[0] for r in rows] == ["AIMessageChunk.__add__ (baseline)", "ThinkSplitter core",
                                    "ThinkSplitter.transform"]
    assert rows[0][2] == 1.0 and all(r[1] > 0 and r[2] > 0 for r in rows)


@pytest.mark.filterwarnings("ignore:Items? .* using the `ReadOnly` qualifier")
def test_litellm_rows(bench: Any) -> None:
    require("litellm", REQUIRE_INTEGRATIONS)
    rows = bench.litellm_rows(1)
    assert [r[0] for r in rows] == ["CustomStreamWrapper per chunk (baseline)", "hook rewriter",
                                    "async_post_call_streaming_iterator_hook"]
    assert rows[0][2] == 1.0 and rows[0][1] > 0 and rows[1][1] > 0
