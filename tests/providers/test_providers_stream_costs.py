"""What a stream keeps and what it costs: memory of the inline route, linear whitespace runs.

Costs are compared as ratios within one run (CPU time of this thread), never as absolute times;
the timing test is marked ``slow`` (run once by ``.ci/run``, in a step of its own), and
``tests/scan/test_linear_costs.py`` counts the bytes the same events allocate instead.
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from typing import Any

import pytest

from thinkparse import StreamNormalizer


def held_after_feeding(field: str, n: int = 20_000) -> int:
    chunks = [{"choices": [{"index": 0, "delta": {field: f"w{i} "}}]} for i in range(n)]
    gc.collect()
    tracemalloc.start()
    try:
        sn = StreamNormalizer()
        before = tracemalloc.get_traced_memory()[0]
        for c in chunks:
            sn.feed(c)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_inline_route_keeps_no_copy_of_the_content() -> None:
    # P3/P9: content routed through the inline scanner is not kept a second (and third) time
    # to decide afterwards whether markup was found; the scanner's tag_consumed/had_block say
    # so.  Reasoning fields (no inline route) are the yardstick: the same pieces, kept once
    # for the result and once for the turn.
    content = held_after_feeding("content")
    reasoning = held_after_feeding("reasoning_content")
    assert content < 1.8 * reasoning, (content, reasoning)


def test_inline_route_still_strips_only_when_markup_was_found() -> None:
    # P3: stripped at both ends only when markup was found
    sn = StreamNormalizer()
    for piece in ["  plain", " text  "]:
        sn.feed({"choices": [{"delta": {"content": piece}}]})
    sn.close()
    assert sn.result.visible == "  plain text  "
    assert sn.result.format == "none"
    sn = StreamNormalizer()
    for piece in ["<think>a</think>", "  answer  "]:
        sn.feed({"choices": [{"delta": {"content": piece}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning, sn.result.format) == ("answer", "a", "tags")
    sn = StreamNormalizer()
    for piece in ["<think></think>", "  answer  "]:  # a tag consumed, no reasoning
        sn.feed({"choices": [{"delta": {"content": piece}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("answer", None)


def cpu_per_event(events: list[Any]) -> float:
    sn = StreamNormalizer()
    t = time.thread_time()
    for ev in events:
        sn.feed(ev)
    sn.close()
    _ = sn.result.reasoning
    return (time.thread_time() - t) / len(events)


WHITESPACE_RUNS = {
    "chat reasoning_content": ([], {"choices": [{"delta": {"reasoning_content": "\n"}}]}),
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


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WHITESPACE_RUNS))
def test_whitespace_only_reasoning_events_cost_linear_time(name: str) -> None:
    # S3/P2: held whitespace is kept in a list, so a long run of whitespace-only pieces costs
    # the same per event at 20 000 and at 200 000 events (quadratic work would be ~10x)
    head, ev = WHITESPACE_RUNS[name]
    small = min(cpu_per_event(head + [ev] * 20_000) for _ in range(3))
    large = min(cpu_per_event(head + [ev] * 200_000) for _ in range(2))
    assert large < 4 * small, (name, small, large)


def test_whitespace_run_then_text_keeps_the_whitespace_inside_the_segment() -> None:
    # P2: segment text is verbatim once it has a non-whitespace character
    sn = StreamNormalizer()
    sn.feed({"choices": [{"delta": {"reasoning_content": "a"}}]})
    for _ in range(1000):
        sn.feed({"choices": [{"delta": {"reasoning_content": "\n"}}]})
    sn.feed({"choices": [{"delta": {"reasoning_content": "b"}}]})
    sn.close()
    assert sn.result.reasoning == "a" + "\n" * 1000 + "b"


def test_message_before_close_names_message() -> None:
    # X2: StreamNormalizer.message before close() raises RuntimeError naming `message`
    sn = StreamNormalizer()
    sn.feed({"choices": [{"delta": {"content": "hi"}}]})
    with pytest.raises(RuntimeError, match=r"^StreamNormalizer\.message is available after "
                                           r"close\(\)$"):
        _ = sn.message
    with pytest.raises(RuntimeError, match=r"^StreamNormalizer\.result is available after"):
        _ = sn.result
    sn.close()
    assert sn.message == {"role": "assistant", "content": "hi"}
