"""Hostile values in responses and stream events end in the library's own errors, naming the
JSON path (P8, docs/behaviour.md#m1): never ``TypeError: unhashable`` or ``RecursionError``."""

from __future__ import annotations

from typing import Any

import pytest

from thinkparse import ReasoningContext, ResponseShapeError, StreamNormalizer, normalize, to_message

START = {"type": "message_start", "message": {"content": []}}


def feed_all(events: list[Any]) -> None:
    sn = StreamNormalizer()
    for e in events:
        sn.feed(e)


def chat_tool_turn(calls: Any) -> dict[str, Any]:
    return {"choices": [{"message": {"role": "assistant", "content": "x",
                                     "reasoning_content": "r", "tool_calls": calls}}]}


@pytest.mark.parametrize(("events", "path"), [
    ([START, {"type": "content_block_delta", "index": 0, "delta": {"type": ["x"], "text": "a"}}],
     "delta.type"),
    ([START, {"type": "content_block_start", "index": 0, "content_block": {"type": ["x"]}}],
     "content_block.type"),
    ([{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": [1], "function": {"arguments": "{}"}}]}}]}],
     "choices[0].delta.tool_calls[0].index"),
    ([{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": {}, "function": {"arguments": "{}"}}]}}]}],
     "choices[0].delta.tool_calls[0].index"),
    ([{"choices": [{"index": 0, "delta": {"content": "x", "tool_calls": -1}}]}],
     "choices[0].delta.tool_calls"),
    ([{"choices": [{"index": 0, "delta": {"tool_calls": ["call"]}}]}],
     "choices[0].delta.tool_calls[0]"),
])
def test_hostile_stream_events(events: list[Any], path: str) -> None:
    """P8: a malformed field of a stream event raises ResponseShapeError naming its path."""
    with pytest.raises(ResponseShapeError) as info:
        feed_all(events)
    assert info.value.path == path


@pytest.mark.parametrize(("response", "path"), [
    ({"object": "response", "output": [{"type": ["message"], "content": []}]}, "output[0].type"),
    ({"type": "message", "role": "assistant", "content": [{"type": 5}]}, "content[0].type"),
])
def test_hostile_item_types(response: dict[str, Any], path: str) -> None:
    """P8: an item whose type is not a string is a malformed field, not an unknown item."""
    with pytest.raises(ResponseShapeError) as info:
        normalize(response)
    assert info.value.path == path


def test_tool_calls_not_an_array() -> None:
    """P8: tool_calls that is not an array cannot be given back (to_message, ReasoningContext)."""
    with pytest.raises(ResponseShapeError) as info:
        to_message(chat_tool_turn(-1))
    assert info.value.path == "choices[0].message.tool_calls"
    with pytest.raises(ResponseShapeError):
        ReasoningContext().update(chat_tool_turn(-1))


def cyclic() -> dict[str, Any]:
    d: dict[str, Any] = {}
    d["self"] = d
    return d


def deep() -> dict[str, Any]:
    top = cur = {}
    for _ in range(100_000):
        cur["a"] = {}
        cur = cur["a"]
    return top


@pytest.mark.parametrize("value", [cyclic(), deep()], ids=["cyclic", "deep"])
def test_cyclic_and_deep_values(value: Any) -> None:
    """M1: a cyclic or too deeply nested value in a turn is not JSON data: ResponseShapeError,
    from to_message, blocks and ReasoningContext alike."""
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": value}}
    for make in (lambda: to_message(chat_tool_turn([call])),
                 lambda: to_message({"type": "message", "role": "assistant", "content": [
                     {"type": "tool_use", "id": "t", "name": "f", "input": value}]}),
                 lambda: normalize({"type": "message", "role": "assistant", "content": [
                     {"type": "thinking", "thinking": "x", "signature": "s",
                      "extra": value}]}).blocks,
                 lambda: ReasoningContext().update(chat_tool_turn([call]))):
        with pytest.raises(ResponseShapeError, match="cyclic or too deeply nested"):
            make()
