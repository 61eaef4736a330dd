"""``anthropic``: the Messages API (P1-P12)."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import Delta, Extraction, ResponseShapeError, StreamNormalizer, Usage, normalize

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("anthropic", visible, reasoning, fmt, **kw)


def message(*content: dict[str, Any], usage: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    return {
        "id": "msg_1", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-20250514", "content": list(content),
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": usage or {"input_tokens": 10, "output_tokens": 20},
    }


def thinking(text: str, sig: str = "sig") -> dict[str, Any]:
    return {"type": "thinking", "thinking": text, "signature": sig}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


U = Usage(10, 20, None, None)


def test_thinking_and_text() -> None:
    # P2, P11, P12: thinking block is the reasoning ("blocks"); no total reported
    r = normalize(message(thinking("Let me add.", "EqQB"), text("4")))
    assert r == ex("4", "Let me add.", "blocks", usage=U, signatures=("EqQB",))


def test_several_thinking_blocks_and_text_blocks() -> None:
    # P1, P2: thinking blocks join with a blank line; text blocks concatenate with ""
    r = normalize(message(thinking("a", "s1"), text("x"), thinking("b", "s2"), text("y")))
    assert r == ex("xy", "a\n\nb", "blocks", usage=U, signatures=("s1", "s2"))


def test_interleaved_with_tools() -> None:
    # 6.1: interleaved thinking puts thinking blocks after tool blocks; tools are never text
    r = normalize(message(
        thinking("first", "s1"),
        {"type": "tool_use", "id": "t1", "name": "get", "input": {"q": "x"}},
        {"type": "server_tool_use", "id": "t2", "name": "web_search", "input": {"query": "x"}},
        {"type": "web_search_tool_result", "tool_use_id": "t2", "content": []},
        thinking("second", "s2"),
        text("done"),
    ))
    assert r == ex("done", "first\n\nsecond", "blocks", usage=U, signatures=("s1", "s2"))


def test_redacted_thinking_only() -> None:
    # P6, P11: redacted reasoning only -> reasoning None, format "none", redacted True
    r = normalize(message({"type": "redacted_thinking", "data": "EmwKAhgB"}, text("ok")))
    assert r == ex("ok", None, "none", usage=U, redacted=True)


def test_redacted_with_readable_thinking() -> None:
    # P6: both kinds present
    r = normalize(message(thinking("t", "s"), {"type": "redacted_thinking", "data": "x"},
                          text("ok")))
    assert r == ex("ok", "t", "blocks", usage=U, redacted=True, signatures=("s",))


def test_display_omitted_is_redacted() -> None:
    # P6: a thinking block with empty thinking (display omitted); signature still kept
    r = normalize(message(thinking("", "EqQBsig"), text("ok")))
    assert r == ex("ok", None, "none", usage=U, redacted=True, signatures=("EqQBsig",))


def test_whitespace_only_thinking() -> None:
    # P2: whitespace-only thinking is not readable; it is not "empty", so not redacted
    r = normalize(message(thinking("  \n", "s"), text("ok")))
    assert r == ex("ok", None, "none", usage=U, signatures=("s",))


def test_signature_alone_is_not_redaction() -> None:
    # P6: signatures alone do not count
    assert normalize(message(thinking("t", "s"), text("a"))).redacted is False


def test_thinking_tokens_reported() -> None:
    # P5, 6.1: usage.output_tokens_details.thinking_tokens when present
    r = normalize(message(thinking("t"), text("a"), usage={
        "input_tokens": 5, "output_tokens": 40, "output_tokens_details": {"thinking_tokens": 31},
        "cache_read_input_tokens": 0}))
    assert r.reasoning_tokens == 31 and r.usage == Usage(5, 40, 31, None)


def test_inline_tags_when_thinking_disabled() -> None:
    # P3: text blocks without thinking blocks may carry inline tags
    r = normalize(message(text("<think>x</think>y")))
    assert r == ex("y", "x", "tags", usage=U)


def test_text_verbatim_with_thinking() -> None:
    # P4: with thinking blocks, text is returned as it is
    r = normalize(message(thinking("t"), text("\n<think>x</think>y ")))
    assert r.visible == "\n<think>x</think>y "


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"type": "message", "content": "x"}, "content"),
        ({"type": "message", "content": [text("a"), 3]}, "content[1]"),
        ({"type": "message", "content": [{"type": "text", "text": 1}]}, "content[0].text"),
        ({"type": "message", "content": [{"type": "thinking", "thinking": {}}]},
         "content[0].thinking"),
        ({"type": "message", "content": [{"type": "thinking", "thinking": "t",
                                          "signature": 5}]}, "content[0].signature"),
        ({"type": "message", "content": [], "usage": {"output_tokens": "9"}},
         "usage.output_tokens"),
    ],
)
def test_shape_errors(payload: dict[str, Any], path: str) -> None:
    # P8 (with the family given, since detection needs a content array)
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload, provider="anthropic")
    assert info.value.path == path


def test_missing_content_with_explicit_provider() -> None:
    # P8: provider given, required field absent
    with pytest.raises(ResponseShapeError) as info:
        normalize({"type": "message"}, provider="anthropic")
    assert info.value.path == "content"


# --- streams -------------------------------------------------------------------------------------
def run(events: list[dict[str, Any]]) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer()
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def start(usage: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    return {"type": "message_start", "message": {
        "id": "msg", "type": "message", "role": "assistant", "content": [], "model": "claude",
        "stop_reason": None, "usage": usage or {"input_tokens": 42, "output_tokens": 1}}}


def block_start(i: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": i, "content_block": block}


def delta(i: int, **d: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": i, "delta": d}


def stop(i: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": i}


def test_stream_full_message() -> None:
    # P9, P12: ping, thinking deltas, signature, text deltas, cumulative usage (last wins)
    events = [
        start(),
        {"type": "ping"},
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, type="thinking_delta", thinking="Let me "),
        delta(0, type="thinking_delta", thinking="think."),
        delta(0, type="signature_delta", signature="EqQB"),
        stop(0),
        block_start(1, {"type": "text", "text": ""}),
        delta(1, type="text_delta", text="The answer"),
        delta(1, type="text_delta", text=" is 4."),
        stop(1),
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": 57}},
        {"type": "message_stop"},
    ]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [
        ("", ""), ("", ""), ("", ""), ("", "Let me "), ("", "think."), ("", ""), ("", ""),
        ("", ""), ("The answer", ""), (" is 4.", ""), ("", ""), ("", ""), ("", ""), ("", ""),
    ]
    assert r == ex("The answer is 4.", "Let me think.", "blocks", usage=Usage(42, 57, None, None),
                   signatures=("EqQB",))


def test_stream_two_thinking_blocks_separator() -> None:
    # S3: the second block's first character carries the separator
    events = [
        start(),
        block_start(0, {"type": "thinking", "thinking": ""}),
        delta(0, type="thinking_delta", thinking="a"),
        stop(0),
        block_start(1, {"type": "tool_use", "id": "t", "name": "f", "input": {}}),
        delta(1, type="input_json_delta", partial_json="{\"q\":"),
        stop(1),
        block_start(2, {"type": "thinking", "thinking": ""}),
        delta(2, type="thinking_delta", thinking="\n"),
        delta(2, type="thinking_delta", thinking="b"),
        stop(2),
    ]
    deltas, r = run(events)
    assert [d.reasoning for d in deltas] == ["", "", "a", "", "", "", "", "", "", "\n\n\nb", "",
                                             ""]
    assert r.reasoning == "a\n\n\nb" and r.visible == ""


def test_stream_display_omitted_is_redacted() -> None:
    # P6 in streams: a thinking block with no thinking text but a signature
    events = [start(), block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
              delta(0, type="signature_delta", signature="SIG"), stop(0),
              block_start(1, {"type": "text", "text": ""}), delta(1, type="text_delta", text="A"),
              stop(1)]
    _, r = run(events)
    assert r == ex("A", None, "none", usage=Usage(42, 1, None, None), redacted=True,
                   signatures=("SIG",))


def test_stream_redacted_block() -> None:
    # P6: redacted_thinking arrives whole in content_block_start
    events = [start(), block_start(0, {"type": "redacted_thinking", "data": "EmwK"}), stop(0),
              block_start(1, {"type": "text", "text": ""}), delta(1, type="text_delta", text="A")]
    _, r = run(events)
    assert r.redacted is True and r.reasoning is None and r.visible == "A"


def test_stream_unstopped_block_flushes_signature() -> None:
    # decision: a block without content_block_stop still releases its signature at close()
    events = [start(), block_start(0, {"type": "thinking", "thinking": ""}),
              delta(0, type="thinking_delta", thinking="t"),
              delta(0, type="signature_delta", signature="S")]
    _, r = run(events)
    assert r.signatures == ("S",) and r.reasoning == "t"


def test_stream_message_start_usage_only() -> None:
    # P12: message_start reports input tokens and an initial output count
    _, r = run([start({"input_tokens": 7, "output_tokens": 1})])
    assert r.usage == Usage(7, 1, None, None)


def test_stream_thinking_tokens_in_message_delta() -> None:
    # P5 in streams
    _, r = run([start(), {"type": "message_delta", "delta": {},
                          "usage": {"output_tokens": 9,
                                    "output_tokens_details": {"thinking_tokens": 6}}}])
    assert r.reasoning_tokens == 6 and r.usage == Usage(42, 9, 6, None)


def test_stream_bad_delta_path() -> None:
    # P8
    sn = StreamNormalizer()
    sn.feed(start())
    with pytest.raises(ResponseShapeError) as info:
        sn.feed(delta(0, type="text_delta", text=5))
    assert info.value.path == "delta.text"


def test_stream_bad_index() -> None:
    # P8: block indexes must be integers
    sn = StreamNormalizer()
    with pytest.raises(ResponseShapeError) as info:
        sn.feed({"type": "content_block_stop", "index": "0"})
    assert info.value.path == "index"
