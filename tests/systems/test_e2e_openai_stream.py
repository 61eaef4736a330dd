"""End to end: the real ``openai`` client streams recorded SSE from a local server (P7, P9).

A small HTTP server on 127.0.0.1 (a free port, in a thread) answers
``POST /v1/chat/completions`` with recorded ``data: {...}`` lines and ``data: [DONE]``, the way vLLM
and DeepSeek stream.  The ``openai`` client parses them into ``ChatCompletionChunk`` objects, and
each one goes to ``StreamNormalizer``.  The recorded chunks are the stream fixtures in
``tests/data``; the result must equal their hand-derived ``expected`` block.  No other network.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support import DATA, TIMEOUT, SSEServer, extraction_as_dict, load_json

from thinkparse import StreamNormalizer

openai = pytest.importorskip("openai")




def _sse(events: list[dict[str, Any]]) -> bytes:
    lines = [f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events]
    lines.append("data: [DONE]\n\n")
    return "".join(lines).encode("utf-8")



def _client(server: SSEServer) -> Any:
    return openai.OpenAI(
        base_url=f"http://127.0.0.1:{server.port}/v1",
        api_key="x",
        timeout=TIMEOUT,
        max_retries=0,
    )



def _stream_through_client(
    server: SSEServer, fixture: str, **normalizer_options: Any
) -> tuple[str, str, Any, int]:
    case = load_json(DATA / fixture)
    server.body = _sse(case["events"])
    stream = _client(server).chat.completions.create(
        model=case["events"][-1]["model"],
        messages=[{"role": "user", "content": "Hi"}],
        stream=True,
        stream_options={"include_usage": True},
    )
    normalizer = StreamNormalizer(**normalizer_options)
    visible, reasoning, count = [], [], 0
    with stream:
        for chunk in stream:
            assert type(chunk).__name__ == "ChatCompletionChunk"
            delta = normalizer.feed(chunk)
            visible.append(delta.visible)
            reasoning.append(delta.reasoning)
            count += 1
    delta = normalizer.close()
    visible.append(delta.visible)
    reasoning.append(delta.reasoning)
    path, body = server.requests[-1]
    assert path == "/v1/chat/completions"
    assert body["stream"] is True
    return "".join(visible), "".join(reasoning), normalizer.result, count


def test_vllm_reasoning_field_stream(server: SSEServer) -> None:
    # P9, P12: delta.reasoning deltas, content, then the usage-only chunk with choices [].
    visible, reasoning, result, count = _stream_through_client(
        server, "openai_chat/stream_vllm_reasoning.json"
    )
    assert count == 9
    assert (visible, reasoning) == ("\n\n2 + 2 = 4.", "The user asks 2+2. Answer 4.")
    assert result.visible == "\n\n2 + 2 = 4."
    assert result.reasoning == "The user asks 2+2. Answer 4."
    assert result.format == "field"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (14, 26)
    assert result.usage.total_tokens == 40
    expected = load_json(DATA / "openai_chat/stream_vllm_reasoning.json")["expected"]
    assert extraction_as_dict(result) == expected


def test_raw_think_tags_split_across_chunks(server: SSEServer) -> None:
    # P3, P9, S1: "<th" | "ink>\nOk" | ... | "</" | "think" | ">\n\n" through the ThinkScanner.
    visible, reasoning, result, count = _stream_through_client(
        server, "openai_chat/stream_raw_think_split.json"
    )
    assert count == 10
    assert (visible, reasoning) == ("2+2 = 4.", "Okay, 2+2.")
    assert (result.visible, result.reasoning, result.format) == ("2+2 = 4.", "Okay, 2+2.", "tags")
    assert (result.usage.input_tokens, result.usage.output_tokens) == (12, 18)
    expected = load_json(DATA / "openai_chat/stream_raw_think_split.json")["expected"]
    assert extraction_as_dict(result) == expected


def test_deepseek_reasoning_content_with_usage_on_last_chunk(server: SSEServer) -> None:
    # P5, P9, P12: delta.reasoning_content, usage (with reasoning_tokens) beside finish_reason.
    visible, reasoning, result, count = _stream_through_client(
        server, "openai_chat/stream_deepseek_reasoning_content.json"
    )
    assert count == 7
    assert (visible, reasoning) == ("9.8 is greater.", "Okay, 9.11 vs 9.8: 9.8 is bigger.")
    assert result.reasoning_tokens == 12
    assert result.tokens_est == 9
    assert (result.usage.input_tokens, result.usage.output_tokens) == (17, 30)
    expected = load_json(DATA / "openai_chat/stream_deepseek_reasoning_content.json")["expected"]
    assert extraction_as_dict(result) == expected


def test_start_in_reasoning_stream_through_client(server: SSEServer) -> None:
    # T6 via StreamNormalizer options: the template put <think> in the prompt.
    visible, reasoning, result, _ = _stream_through_client(
        server, "openai_chat/stream_start_in_reasoning.json", start_in_reasoning=True
    )
    assert (visible, reasoning) == ("Hello!", "Okay, the user says hi.")
    expected = load_json(DATA / "openai_chat/stream_start_in_reasoning.json")["expected"]
    assert extraction_as_dict(result) == expected
