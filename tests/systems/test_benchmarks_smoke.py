"""The benchmark suite works (performance targets): documents, timers, tables and the SGLang worker.

Correctness only: every measurement function runs once on a tiny input.  No timing thresholds.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    """``benchmarks/bench_scanner.py`` imported as a module."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(BENCH_DIR))
        module = importlib.import_module("bench_scanner")
        yield module
    for name in ("bench_scanner", "_docs"):
        sys.modules.pop(name, None)


def _impls(cls: Any) -> list[tuple[str, Any]]:
    return [("cython" if "_scanner_c" in cls.__module__ else "python", cls)]


# --- documents ----------------------------------------------------------------------------


def test_realistic_document_shape(bench: ModuleType) -> None:  # behaviour.md#performance, row 1
    docs = bench._docs
    doc = docs.realistic_document(20_000)
    assert len(doc) == 20_000
    assert doc == docs.realistic_document(20_000)
    assert doc != docs.realistic_document(20_000, seed=1)
    assert doc.startswith("<think>\n")
    assert doc.count("\n</think>\n") == 2
    second = doc.index("\n<think>\n")
    assert doc[second - 41 : second] == "Let me double-check that before going on."
    assert "```" in doc and "~~~" in doc and " < " in doc and "<div>" in doc
    assert 60 <= docs.marker_spacing(doc) <= 100
    assert doc.endswith("\n")


def test_realistic_document_rejects_tiny_sizes(bench: ModuleType) -> None:
    with pytest.raises(ValueError, match="n_chars must be at least 1000"):
        bench._docs.realistic_document(999)


def test_tag_free_prose(bench: ModuleType) -> None:  # behaviour.md#performance, row 4
    text = bench._docs.tag_free_prose(50_000)
    assert len(text) == 50_000
    assert not set(text) & {"<", "`", "~"}
    assert text.count("\n") > 50_000 // 100
    assert bench._docs.marker_spacing(text) == float("inf")


@pytest.mark.parametrize("n", [1000, 12_345])
def test_adversarial_inputs_have_exact_lengths(bench: ModuleType, n: int) -> None:  # S6
    made = {name: gen(n) for name, gen in bench._docs.ADVERSARIAL.items()}
    assert {name: len(text) for name, text in made.items()} == dict.fromkeys(made, n)
    assert made["'<' x n"] == "<" * n
    assert made["'</' repeated"].startswith("</</")
    assert made["tentative at the cap"].startswith("x<think>yyy")


def test_split_chunks(bench: ModuleType) -> None:
    assert bench._docs.split_chunks("abcdefg", 3) == ["abc", "def", "g"]
    assert bench._docs.split_chunks("", 4) == []


# --- timers and verdicts -------------------------------------------------------------------


def test_timers_return_nanoseconds(bench: ModuleType, scanner_cls: Any) -> None:
    text = bench._docs.realistic_document(2000)
    for ns in (
        bench.time_stream(scanner_cls, bench._docs.split_chunks(text, 4)),
        bench.time_one_shot(scanner_cls, text),
        bench.time_call(bench.memchr_scan, text),
    ):
        assert isinstance(ns, int) and ns > 0
    assert bench.memchr_scan(text) == -1


def test_clock_choice(bench: ModuleType, scanner_cls: Any) -> None:
    try:
        bench.set_clock("wall")
        assert bench.time_stream(scanner_cls, ["a", "b"]) > 0
    finally:
        bench.set_clock("cpu")
    with pytest.raises(ValueError, match="clock must be 'cpu' or 'wall'"):
        bench.set_clock("tsc")


def test_interleaved_min_keeps_the_minimum(bench: ModuleType) -> None:
    times = iter([5, 9, 3, 7, 4, 8])
    best = bench.interleaved_min({"a": lambda: next(times), "b": lambda: next(times)}, 3)
    assert best == {"a": 3, "b": 7}


def test_verdicts(bench: ModuleType) -> None:
    assert bench.Verdict("x", 6.0, 6.0).cell() == "6.00x (>= 6x) PASS"
    assert bench.Verdict("x", 31.25, 25.0).cell() == "31.2x (>= 25x) PASS"
    assert bench.Verdict("x", 0.05, 0.1).cell() == "0.05x (>= 0.1x) FAIL"
    assert bench.Verdict("x", 2.1, 2.0, higher_is_better=False).cell() == "2.10x (<= 2x) FAIL"


def test_load_implementations(bench: ModuleType) -> None:
    from thinkparse import _scanner_py

    assert bench.load_implementations("py") == [("python", _scanner_py.ThinkScanner)]
    with pytest.raises(ValueError, match="impl must be"):
        bench.load_implementations("rust")


# --- sections ------------------------------------------------------------------------------


def test_bench_stream_runs(bench: ModuleType, scanner_cls: Any) -> None:  # targets 1-2
    table = bench.bench_stream(_impls(scanner_cls), n_chars=1000, chunk_sizes=(1, 4, 64), repeats=1)
    assert [row[:2] for row in table.rows] == [["1", "1,000"], ["4", "250"], ["64", "16"]]
    assert all(row[-2:] == ["skipped", "-"] for row in table.rows)
    assert "sglang column skipped: no --peer-python given" in table.notes
    assert not [note for note in table.notes if note.startswith("WARNING")]
    assert table.verdicts == []
    assert table.render().startswith("### 1. ThinkScanner.feed")


def test_bench_one_shot_runs(bench: ModuleType, scanner_cls: Any) -> None:  # targets 3-4
    table = bench.bench_one_shot(_impls(scanner_cls), n_chars=2000, repeats=1)
    assert [row[0] for row in table.rows] == ["realistic"] * 5 + ["tag-free prose"] * 5
    assert [row[1].split(":")[0] for row in table.rows[:5]] == [
        "memchr",
        "memchr, text in the caches",
        _impls(scanner_cls)[0][0],
        "split_think (active",
        f"split_think, preset={bench.ZOO_PRESET!r} (F2, F3)",
    ]
    assert table.rows[1][5].endswith("(not the baseline)")  # cold starts; the warm memchr beside
    assert all(row[4].replace(",", "").isdigit() for row in table.rows)


def test_bench_growth_runs(bench: ModuleType, scanner_cls: Any) -> None:  # target 5
    table = bench.bench_growth(_impls(scanner_cls), small=1000, large=3000, repeats=1)
    expected = [(name, mode) for name in bench.GROWTH_INPUTS for mode in ("chunked 7", "whole")]
    assert [(row[0], row[2]) for row in table.rows] == expected
    assert len(table.verdicts) == len(expected)
    assert all(v.measured > 0 for v in table.verdicts)
    assert table.notes[-1].startswith("memory floor, for reference: copying a string costs ")


# --- the SGLang worker ---------------------------------------------------------------------


def test_worker_reports_missing_sglang(bench: ModuleType) -> None:
    if importlib.util.find_spec("sglang") is not None:
        pytest.skip("sglang is installed in this interpreter")
    out = io.StringIO()
    bench.sglang_worker(io.StringIO(""), out)
    assert json.loads(out.getvalue()) == {"skipped": "sglang not installed"}
    peer = bench.PeerWorker(sys.executable)
    assert peer.skipped == "sglang not installed"
    table = bench.bench_stream(
        [("python", bench.load_implementations("py")[0][1])],
        n_chars=1000,
        chunk_sizes=(4,),
        repeats=1,
        peer=peer,
    )
    assert "sglang column skipped: sglang not installed" in table.notes


FAKE_PARSER = """
class ReasoningParser:
    def __init__(self, model_type, stream_reasoning=True):
        assert model_type == "qwen3" and stream_reasoning
    def parse_stream_chunk(self, chunk):
        return "", chunk
    def parse_stream_end(self):
        return "r", ""
"""


def test_worker_protocol_with_a_stand_in_parser(
    bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "sglang" / "srt" / "parser"
    package.mkdir(parents=True)
    # The package __init__ files must never run: the worker registers bare packages.
    (tmp_path / "sglang" / "__init__.py").write_text("raise ImportError('init ran')\n")
    (tmp_path / "sglang" / "srt" / "__init__.py").write_text("raise ImportError('init ran')\n")
    (package / "__init__.py").write_text("")
    (package / "reasoning_parser.py").write_text(FAKE_PARSER)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    peer = bench.PeerWorker(sys.executable)
    try:
        assert peer.skipped is None
        assert peer.module == "sglang.srt.parser.reasoning_parser"
        assert peer.load("k", ["ab", "cd", "e"]) == {"normal": 5, "reasoning": 1}
        assert peer.run("k") > 0
        table = bench.bench_stream(
            _impls(bench.load_implementations("py")[0][1]),
            n_chars=1000,
            chunk_sizes=(4, 8),
            repeats=1,
            peer=peer,
        )
    finally:
        peer.close()
    assert [v.label for v in table.verdicts] == ["python vs sglang, 4-char chunks"]
    assert table.rows[0][-1] == table.verdicts[0].cell()
    assert table.rows[1][-2].endswith("ns")
