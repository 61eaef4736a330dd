"""S6: the cost of a text grows linearly with its length, however it is chunked.

The timing test is marked ``slow``: deselected by default, run once by ``.ci/run`` in a step of
its own.  ``tests/scan/test_linear_costs.py`` checks the same shapes by counting (bytes allocated
per feed, Python steps), which no machine load can disturb.

Times are CPU time of the test thread (waiting for a shared processor does not count),
compared as ratios inside one run (never absolute): the per-character cost of a text
ten times longer must stay within a small factor of the short one's.  A quadratic path (text held
back by repeated concatenation) shows up as a factor near 10.
"""

from __future__ import annotations

import gc
import time
from typing import Any, Callable

import pytest

SMALL = 50_000
LARGE = 500_000
#: Allowed growth of the per-character cost from SMALL to LARGE (linear: ~1, quadratic: ~10;
#: the rest is room for a noisy shared machine)..
MAX_GROWTH = 4.0

SHAPES: dict[str, tuple[Callable[[int], str], dict[str, Any]]] = {
    # T8: leading whitespace is held until the first visible character.
    "newlines, leading": (lambda n: "\n" * n + "x", {}),
    "spaces and tabs, leading, after a tag": (lambda n: "<think>a</think>" + " \t" * (n // 2), {}),
    # T8: a block's trailing whitespace run is held until non-whitespace follows.
    "newlines in a block": (lambda n: "<think>a" + "\n" * n + "b</think>c", {}),
    "newlines in the implicit block": (
        lambda n: "plan" + "\n" * n + "</think>x",
        {"start_in_reasoning": True},
    ),
    "newlines in a tentative block": (
        lambda n: "Hi <think>" + "\n" * n + "</think>",
        {"max_tentative": None},
    ),
}


def _cost(cls: Any, chunks: list[str], options: dict[str, Any]) -> float:
    best = float("inf")
    for _ in range(5):
        gc.disable()
        try:
            start = time.thread_time()
            scanner = cls(**options)
            feed = scanner.feed
            for chunk in chunks:
                feed(chunk)
            scanner.close()
            best = min(best, time.thread_time() - start)
        finally:
            gc.enable()
    return best


@pytest.mark.slow
@pytest.mark.parametrize("chunk", [1, 7, 0], ids=["1-char", "7-char", "whole"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_whitespace_runs_cost_linear_time(scanner_cls: Any, shape: str, chunk: int) -> None:
    # S6: O(n) however chunked (many whitespace-only chunks included)
    make, options = SHAPES[shape]
    payloads = {}
    for n in (SMALL, LARGE):
        text = make(n)
        size = chunk or len(text)
        payloads[n] = [text[i : i + size] for i in range(0, len(text), size)]
    _cost(scanner_cls, payloads[SMALL], options)  # warm up
    small = _cost(scanner_cls, payloads[SMALL], options) / SMALL
    large = _cost(scanner_cls, payloads[LARGE], options) / LARGE
    # Tiny totals are all noise: compare only when the small run is measurable.
    growth = large / max(small, 2e-9)
    assert growth < MAX_GROWTH, f"{shape}: per-character cost grew {growth:.1f}x"


def test_whitespace_shapes_give_exact_results(scanner_cls: Any) -> None:
    # T8, S1: the held whitespace comes out exactly as one-shot parsing says
    scanner = scanner_cls()
    out = [scanner.feed("\n") for _ in range(1000)] + [scanner.feed("x"), scanner.close()]
    assert "".join(d.visible for d in out) == "\n" * 1000 + "x"
    scanner = scanner_cls()
    out = [scanner.feed(c) for c in ["<think>a"] + ["\n"] * 1000 + ["b</think>c"]]
    out.append(scanner.close())
    assert "".join(d.reasoning for d in out) == "a" + "\n" * 1000 + "b"
    assert "".join(d.visible for d in out) == "c"
    scanner = scanner_cls()
    out = [scanner.feed(c) for c in ["<think>a"] + [" "] * 1000 + ["</think>c"]]
    out.append(scanner.close())
    assert "".join(d.reasoning for d in out) == "a"
