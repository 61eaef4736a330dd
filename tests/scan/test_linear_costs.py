"""Linear cost, counted instead of timed (S6, S3, P9, R7, R8): exact counts that no load can fail.

Two counts stand in for time:

* **bytes allocated while feeding**: for each ``feed()``, the peak of traced memory above what
  was live before the call (``tracemalloc``), summed over the feeds.  Text held back by
  repeated concatenation (``held = held + chunk``) is allocated again at every feed, so ten
  times the feeds cost about a hundred times the bytes; pieces kept in a list cost ten times.
* **Python steps**: line events executed inside the package (``sys.settrace``).  A loop that
  goes back over what it has already read shows the same way.

For ten times the input a linear path counts about 10x, a quadratic one about 100x; the bound
is :data:`MAX_GROWTH`.  What the counts cannot see -- quadratic work inside one C call on a whole
text -- is left to the wall-clock ratios marked ``slow`` (``tests/scan/test_think_growth.py``,
``tests/scan/test_reasoning_linear.py``, ``tests/providers/test_providers_stream_costs.py``,
``tests/providers/test_providers_options.py``), which ``.ci/run`` runs once, in a step of their own.
"""

from __future__ import annotations

import gc
import importlib.util
import platform
import sys
import tracemalloc
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, Callable, Optional

import pytest
from test_think_growth import SHAPES as WHITESPACE_SHAPES

import thinkparse
from thinkparse import StreamNormalizer, parse
from thinkparse.scan._harmony import HarmonyScanner

#: Ten times the input may cost at most this many times the count (linear: ~10, quadratic: ~100).
MAX_GROWTH = 20
SMALL, LARGE = 1_000, 10_000
PACKAGE = str(Path(thinkparse.__file__).resolve().parent)
#: The allocation counts read CPython's allocator through tracemalloc.
CPYTHON = pytest.mark.skipif(
    platform.python_implementation() != "CPython", reason="tracemalloc counts CPython's allocations"
)


def allocated_while_feeding(feed: Callable[[Any], Any], pieces: list[Any]) -> int:
    """Bytes allocated above the live memory during each ``feed(piece)``, summed."""
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        traced, reset = tracemalloc.get_traced_memory, tracemalloc.reset_peak
        total = 0
        for piece in pieces:
            before = traced()[0]
            reset()
            feed(piece)
            total += traced()[1] - before
        return total
    finally:
        tracemalloc.stop()
        gc.enable()


def python_steps(call: Callable[[], Any], where: str = PACKAGE) -> int:
    """Line events executed in files under ``where`` (the package) during ``call()``."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Optional[Any]:
        return local if frame.f_code.co_filename.startswith(where) else None

    sys.settrace(calls)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


def growth(cost: Callable[[int], int]) -> float:
    """How many times the count grows from SMALL to LARGE (ten times the input)."""
    small = cost(SMALL)
    return cost(LARGE) / max(small, 1)


# --- the guards themselves ----------------------------------------------------------------------
class _Concatenating:
    def __init__(self) -> None:
        self.held = ""

    def feed(self, chunk: str) -> None:
        self.held = self.held + chunk


class _Listing:
    def __init__(self) -> None:
        self.held: list[str] = []

    def feed(self, chunk: str) -> None:
        self.held.append(chunk)


@CPYTHON
def test_the_allocation_count_tells_quadratic_from_linear() -> None:
    quadratic = growth(lambda n: allocated_while_feeding(_Concatenating().feed, ["\n" * 8] * n))
    linear = growth(lambda n: allocated_while_feeding(_Listing().feed, ["\n" * 8] * n))
    assert quadratic > 4 * MAX_GROWTH and linear < MAX_GROWTH, (quadratic, linear)


def _rescanning(text: str) -> int:
    # goes back to the start of the text at every character
    seen = 0
    for i in range(len(text)):
        for _ in range(i):
            seen += 1
    return seen


def test_the_step_count_tells_quadratic_from_linear() -> None:
    here = str(Path(__file__).resolve())
    quadratic = growth(lambda n: python_steps(lambda: _rescanning("x" * (n // 20)), here))
    linear = growth(lambda n: python_steps(lambda: "".join("x" * n), here))
    assert quadratic > 4 * MAX_GROWTH and linear < MAX_GROWTH, (quadratic, linear)


# --- S6: the tag scanner, both implementations --------------------------------------------------
@CPYTHON
@pytest.mark.parametrize("chunk", [1, 7], ids=["1-char", "7-char"])
@pytest.mark.parametrize("shape", list(WHITESPACE_SHAPES))
def test_whitespace_runs_allocate_linearly(scanner_cls: Any, shape: str, chunk: int) -> None:
    # S6: held whitespace is not copied again at every feed, however it is chunked
    make, options = WHITESPACE_SHAPES[shape]

    def cost(n: int) -> int:
        text = make(n)
        pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)]
        return allocated_while_feeding(scanner_cls(**options).feed, pieces)

    assert growth(cost) < MAX_GROWTH, shape


@pytest.mark.parametrize("shape", list(WHITESPACE_SHAPES))
def test_python_scanner_steps_grow_linearly(shape: str) -> None:
    # S6: the pure-Python scanner's own steps on a whole text grow with the text, once
    from thinkparse._scanner_py import ThinkScanner

    make, options = WHITESPACE_SHAPES[shape]

    def cost(n: int) -> int:
        scanner = ThinkScanner(**options)
        text = make(n)
        return python_steps(lambda: (scanner.feed(text), scanner.close()))

    assert growth(cost) < MAX_GROWTH, shape


# --- S3, P2, P9: whitespace-only reasoning events in a stream -----------------------------------
W = "\n" * 64
EVENTS: dict[str, tuple[list[Any], Any]] = {
    "chat reasoning_content": ([], {"choices": [{"delta": {"reasoning_content": "\n"}}]}),
    "chat reasoning_content, 64 newlines": (
        [], {"choices": [{"delta": {"reasoning_content": W}}]}),
    "chat reasoning": ([], {"choices": [{"delta": {"reasoning": " "}}]}),
    "anthropic thinking": (
        [
            {"type": "message_start",
             "message": {"type": "message", "role": "assistant", "content": [], "model": "m"}},
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "thinking", "thinking": ""}},
        ],
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "\n"}},
    ),
    "chat <think> content": (
        [{"choices": [{"delta": {"content": "<think>"}}]}],
        {"choices": [{"delta": {"content": "\n"}}]},
    ),
}


@CPYTHON
@pytest.mark.parametrize("name", list(EVENTS))
def test_whitespace_reasoning_events_allocate_linearly(name: str) -> None:
    # S3, P2, P9: a run of whitespace-only pieces is kept as pieces, not re-joined per event
    head, event = EVENTS[name]

    def cost(n: int) -> int:
        sn = StreamNormalizer()
        for ev in head:
            sn.feed(ev)
        return allocated_while_feeding(sn.feed, [event] * n)

    assert growth(cost) < MAX_GROWTH, name


# --- P3: harmony markup, chunked ----------------------------------------------------------------
def _harmony_whitespace(n: int) -> int:
    h = HarmonyScanner()
    h.feed("<|channel|>analysis<|message|>x")
    return allocated_while_feeding(h.feed, [W] * n)


def _harmony_brackets(n: int) -> int:
    # "<|" that is not a token must not copy the rest of the buffer at every feed
    text = "<|channel|>analysis<|message|>" + "a <|x " * n
    return allocated_while_feeding(
        HarmonyScanner().feed, [text[i : i + 64] for i in range(0, len(text), 64)])


@CPYTHON
@pytest.mark.parametrize("cost", [_harmony_whitespace, _harmony_brackets],
                         ids=["whitespace", "non-token brackets"])
def test_harmony_stream_allocates_linearly(cost: Callable[[int], int]) -> None:
    # P3, P9: the harmony scanner holds and scans each piece once
    assert growth(cost) < MAX_GROWTH


def test_harmony_steps_grow_linearly() -> None:
    # P3: split_harmony on a whole text full of "<|" that are not tokens
    from thinkparse import split_harmony

    def cost(n: int) -> int:
        text = "<|channel|>analysis<|message|>" + "a <|x " * n
        return python_steps(lambda: split_harmony(text))

    assert growth(cost) < MAX_GROWTH


# --- R7, R8: parse() on the adversarial shapes of benchmarks/bench_html.py ----------------------
def _bench_html() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_html.py"
    spec = importlib.util.spec_from_file_location("bench_html", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH_HTML = _bench_html()


@pytest.mark.parametrize("mode", sorted(BENCH_HTML.MODES))
@pytest.mark.parametrize("shape", sorted(BENCH_HTML.SHAPES))
def test_parse_steps_grow_linearly(shape: str, mode: str) -> None:  # R7, R8
    # one left-to-right pass over the tags: the steps grow with the message, nesting included
    build, options = BENCH_HTML.SHAPES[shape], BENCH_HTML.MODES[mode]

    def cost(n: int) -> int:
        message = build(2 * n)
        return python_steps(lambda: parse(message, **options))

    assert growth(cost) < MAX_GROWTH, (shape, mode)
