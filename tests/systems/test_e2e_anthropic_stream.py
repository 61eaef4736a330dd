"""End to end: the real ``anthropic`` client streams recorded SSE from a local server (P7, P9).

A small HTTP server on 127.0.0.1 (a free port, in a thread) answers ``POST /v1/messages`` with
recorded ``event: <type>`` / ``data: {...}`` pairs, as the Messages API streams them (``ping``
included; the SDK drops it).  ``Anthropic(...).messages.create(..., stream=True)`` parses them into
the SDK's raw stream event objects, and each one goes to ``StreamNormalizer``.  The recorded events
are the stream fixtures in ``tests/data``; the result must equal their hand-derived ``expected``
block.  No other network.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support import DATA, TIMEOUT, SSEServer, extraction_as_dict, load_json

from thinkparse import StreamNormalizer

anthropic = pytest.importorskip("anthropic")




def _sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(
        f"event: {e['type']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events
    ).encode("utf-8")



def _client(server: SSEServer) -> Any:
    return anthropic.Anthropic(
        base_url=f"http://127.0.0.1:{server.port}",
        api_key="x",
        timeout=TIMEOUT,
        max_retries=0,
    )



def _stream_through_client(server: SSEServer, fixture: str) -> tuple[str, str, Any, list[str]]:
    case = load_json(DATA / fixture)
    server.body = _sse(case["events"])
    stream = _client(server).messages.create(
        model="claude-local-test",  # not a catalogue name: no deprecation warning
        max_tokens=2048,
        thinking={"type": "enabled", "budget_tokens": 1024},
        messages=[{"role": "user", "content": "Hi"}],
        stream=True,
    )
    normalizer = StreamNormalizer()
    visible, reasoning, types = [], [], []
    with stream:
        for event in stream:
            assert not isinstance(event, dict)
            types.append(event.type)
            delta = normalizer.feed(event)
            visible.append(delta.visible)
            reasoning.append(delta.reasoning)
    delta = normalizer.close()
    visible.append(delta.visible)
    reasoning.append(delta.reasoning)
    path, body = server.requests[-1]
    assert path == "/v1/messages"
    assert body["stream"] is True
    return "".join(visible), "".join(reasoning), normalizer.result, types


def test_thinking_signature_text_and_usage(server: SSEServer) -> None:
    # P9, P12: thinking_delta, signature_delta, text_delta; usage from message_start (input)
    # and message_delta (cumulative output).
    fixture = "anthropic/stream_thinking_text.json"
    visible, reasoning, result, types = _stream_through_client(server, fixture)
    assert "ping" not in types
    assert types[0] == "message_start"
    assert types[-1] == "message_stop"
    assert visible == "The GCD of 1071 and 462 is 21."
    assert reasoning == "I need to find the GCD of 1071 and 462. Euclid gives 21."
    assert result.format == "blocks"
    assert len(result.signatures) == 1
    assert (result.usage.input_tokens, result.usage.output_tokens) == (42, 215)
    assert result.usage.total_tokens is None
    assert extraction_as_dict(result) == load_json(DATA / fixture)["expected"]


def test_redacted_thinking_tool_use_and_thinking_tokens(server: SSEServer) -> None:
    # P2, P6, S3: two thinking blocks around a redacted one; tool input is not text;
    # message_delta usage carries output_tokens_details.thinking_tokens.
    fixture = "anthropic/stream_redacted_and_tool_use.json"
    visible, reasoning, result, _ = _stream_through_client(server, fixture)
    assert visible == "Checking the weather now."
    assert reasoning == "The user wants Tokyo weather.\n\nUse get_weather with Tokyo."
    assert result.redacted is True
    assert result.reasoning_tokens == 110
    assert (result.usage.input_tokens, result.usage.output_tokens) == (380, 160)
    assert extraction_as_dict(result) == load_json(DATA / fixture)["expected"]


def test_thinking_display_omitted(server: SSEServer) -> None:
    # P6, P11: a thinking block with only a signature_delta is redacted reasoning.
    fixture = "anthropic/stream_thinking_display_omitted.json"
    visible, reasoning, result, _ = _stream_through_client(server, fixture)
    assert (visible, reasoning) == ("42.", "")
    assert (result.reasoning, result.redacted, result.format) == (None, True, "none")
    assert extraction_as_dict(result) == load_json(DATA / fixture)["expected"]
