"""``ollama``: the native /api/chat and /api/generate endpoints (P1-P12)."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import Delta, Extraction, ResponseShapeError, StreamNormalizer, Usage, normalize

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("ollama", visible, reasoning, fmt, **kw)


def chat(message: dict[str, Any], done: Any = True, **extra: Any) -> dict[str, Any]:
    return {"model": "qwen3", "created_at": "2025-06-01T00:00:00Z",
            "message": {"role": "assistant", **message}, "done": done, **extra}


COUNTS: dict[str, Any] = {
    "done_reason": "stop", "total_duration": 1, "prompt_eval_count": 12, "eval_count": 34,
}


def test_chat_thinking_field() -> None:
    # P11: Ollama `thinking` is a field; P12: prompt_eval_count / eval_count, no total
    r = normalize(chat({"content": "4", "thinking": "2+2"}, **COUNTS))
    assert r == ex("4", "2+2", "field", usage=Usage(12, 34, None, None))


def test_generate_thinking_and_response() -> None:
    # 6.1: /api/generate puts the answer in `response`
    r = normalize({"model": "qwen3", "response": "4", "thinking": "2+2", "done": True, **COUNTS})
    assert r == ex("4", "2+2", "field", usage=Usage(12, 34, None, None))


def test_generate_without_thinking() -> None:
    # P8: response + done is an Ollama generate response
    assert normalize({"model": "llama3", "response": "Hi", "done": True}) == ex("Hi", None, "none")


def test_old_server_think_tags() -> None:
    # 6.1, P3: old servers leave <think> tags in content
    r = normalize(chat({"content": "<think>\nhmm\n</think>\n\nHello"}))
    assert r == ex("Hello", "hmm", "tags")


def test_think_off() -> None:
    # P2: no thinking field -> no reasoning
    assert normalize(chat({"content": "Hello"})) == ex("Hello", None, "none")


def test_tool_calls_with_empty_content() -> None:
    # P1
    r = normalize(chat({"content": "", "thinking": "call it",
                        "tool_calls": [{"function": {"name": "f", "arguments": {}}}]}))
    assert r == ex("", "call it", "field")


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"message": {"content": 1}, "done": True}, "message.content"),
        ({"message": {"content": "", "thinking": []}, "done": True}, "message.thinking"),
        ({"response": 3, "done": True}, "response"),
        ({"response": "a", "done": True, "eval_count": "3"}, "eval_count"),
        ({"message": [], "done": True}, "message"),
    ],
)
def test_shape_errors(payload: dict[str, Any], path: str) -> None:
    # P8
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload, provider="ollama")
    assert info.value.path == path


def run(events: list[dict[str, Any]]) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer()
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def test_stream_chat_ndjson() -> None:
    # P9: NDJSON objects of the same shape; the last carries the counts
    events = [chat({"content": "", "thinking": "Hm"}, done=False),
              chat({"content": "", "thinking": "m."}, done=False),
              chat({"content": "Hi"}, done=False),
              chat({"content": ""}, **COUNTS)]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [("", "Hm"), ("", "m."), ("Hi", ""), ("", ""), ("", "")]
    assert r == ex("Hi", "Hmm.", "field", usage=Usage(12, 34, None, None))


def test_stream_generate_ndjson() -> None:
    # P9: /api/generate stream
    events = [{"model": "m", "response": "", "thinking": "t", "done": False},
              {"model": "m", "response": "A", "done": False},
              {"model": "m", "response": "", "done": True, **COUNTS}]
    _, r = run(events)
    assert r == ex("A", "t", "field", usage=Usage(12, 34, None, None))


def test_stream_old_server_tags() -> None:
    # P3, P9: tags in content deltas
    events = [chat({"content": c}, done=False) for c in ["<think>", "x", "</think>", "y"]]
    _, r = run(events)
    assert r == ex("y", "x", "tags")
