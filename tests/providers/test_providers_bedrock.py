"""``bedrock``: Amazon Bedrock Converse / ConverseStream (P1-P12)."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import (
    Delta,
    Extraction,
    ProviderError,
    ResponseShapeError,
    StreamNormalizer,
    Usage,
    normalize,
)

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("bedrock", visible, reasoning, fmt, **kw)


def converse(*content: dict[str, Any]) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": list(content)}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 10, "outputTokens": 20, "totalTokens": 30},
        "metrics": {"latencyMs": 100},
    }


def reasoning(text: str, sig: Optional[str] = None) -> dict[str, Any]:
    rt: dict[str, Any] = {"text": text}
    if sig is not None:
        rt["signature"] = sig
    return {"reasoningContent": {"reasoningText": rt}}


U = Usage(10, 20, None, 30)


def test_reasoning_text_with_signature() -> None:
    # P2, P11, P12: reasoningContent blocks are reasoning; no reasoning-token count
    r = normalize(converse(reasoning("Think.", "SIG"), {"text": "Answer."}))
    assert r == ex("Answer.", "Think.", "blocks", usage=U, signatures=("SIG",))


def test_two_reasoning_blocks() -> None:
    # P2: Bedrock reasoning blocks are distinct segments
    r = normalize(converse(reasoning("a"), {"text": "x"}, reasoning("b"), {"text": "y"}))
    assert r == ex("xy", "a\n\nb", "blocks", usage=U)


@pytest.mark.parametrize("data", ["ZW5jcnlwdGVk", b"encrypted"])
def test_redacted_content(data: Any) -> None:
    # P6: redactedContent (base64 text on the wire, bytes from boto3)
    r = normalize(converse({"reasoningContent": {"redactedContent": data}}, {"text": "A"}))
    assert r == ex("A", None, "none", usage=U, redacted=True)


def test_tool_use_is_not_text() -> None:
    # P1
    r = normalize(converse({"toolUse": {"toolUseId": "t", "name": "f", "input": {"a": 1}}}))
    assert r == ex("", None, "none", usage=U)


def test_inline_tags_in_text() -> None:
    # P3: a model without reasoning blocks leaving tags in text
    assert normalize(converse({"text": "<think>r</think>v"})) == ex("v", "r", "tags", usage=U)


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"output": {"message": {"role": "assistant"}}}, "output.message.content"),
        ({"output": {"message": {"content": {}}}}, "output.message.content"),
        ({"output": {"message": {"content": [1]}}}, "output.message.content[0]"),
        ({"output": {"message": {"content": [{"text": 1}]}}}, "output.message.content[0].text"),
        ({"output": {"message": {"content": [{"reasoningContent": []}]}}},
         "output.message.content[0].reasoningContent"),
        ({"output": {"message": {"content": [
            {"reasoningContent": {"reasoningText": {"text": 9}}}]}}},
         "output.message.content[0].reasoningContent.reasoningText.text"),
        ({"output": {"message": {"content": []}}, "usage": {"inputTokens": "1"}},
         "usage.inputTokens"),
    ],
)
def test_shape_errors(payload: dict[str, Any], path: str) -> None:
    # P8
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload)
    assert info.value.path == path


def test_missing_output_with_explicit_provider() -> None:
    # P8
    with pytest.raises(ResponseShapeError) as info:
        normalize({"usage": {}}, provider="bedrock")
    assert info.value.path == "output"


# --- streams -------------------------------------------------------------------------------------
def run(events: list[Any]) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer()
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def rdelta(i: int, **rc: Any) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"reasoningContent": rc}}}


def tdelta(i: int, text: str) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"text": text}}}


META = {"metadata": {"usage": {"inputTokens": 5, "outputTokens": 9, "totalTokens": 14},
                     "metrics": {"latencyMs": 10}}}


def test_stream_reasoning_then_text() -> None:
    # P9: boto3 ConverseStream events
    events = [
        {"messageStart": {"role": "assistant"}},
        rdelta(0, text="Let me "),
        rdelta(0, text="see."),
        rdelta(0, signature="SIG"),
        {"contentBlockStop": {"contentBlockIndex": 0}},
        tdelta(1, "Ans"),
        tdelta(1, "wer"),
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"messageStop": {"stopReason": "end_turn"}},
        META,
    ]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [
        ("", ""), ("", "Let me "), ("", "see."), ("", ""), ("", ""), ("Ans", ""), ("wer", ""),
        ("", ""), ("", ""), ("", ""), ("", ""),
    ]
    assert r == ex("Answer", "Let me see.", "blocks", usage=Usage(5, 9, None, 14),
                   signatures=("SIG",))


def test_stream_two_blocks_separator_and_redacted() -> None:
    # S3, P6 in streams
    events = [rdelta(0, text="a"), {"contentBlockStop": {"contentBlockIndex": 0}},
              rdelta(1, redactedContent=b"x"), rdelta(2, text="b"),
              {"contentBlockStart": {"contentBlockIndex": 3,
                                     "start": {"toolUse": {"toolUseId": "t", "name": "f"}}}},
              {"contentBlockDelta": {"contentBlockIndex": 3,
                                     "delta": {"toolUse": {"input": "{\"a\":"}}}}]
    deltas, r = run(events)
    assert [d.reasoning for d in deltas] == ["a", "", "", "\n\nb", "", "", ""]
    assert r == ex("", "a\n\nb", "blocks", redacted=True)


def test_stream_raw_payloads_without_wrapper() -> None:
    # 6.1: the event payloads without boto3's one-key wrapper
    events = [{"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "r"}}},
              {"contentBlockIndex": 1, "delta": {"text": "v"}},
              {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
               "metrics": {"latencyMs": 1}}]
    _, r = run(events)
    assert r == ex("v", "r", "blocks", usage=Usage(1, 2, None, 3))


def test_stream_signature_released_at_close() -> None:
    # decision: a block without contentBlockStop releases its signature at close()
    _, r = run([rdelta(0, text="t"), rdelta(0, signature="S1"), rdelta(0, signature="S2")])
    assert r.signatures == ("S1S2",)


def test_stream_exception_event_raises() -> None:
    # P16: a stream exception event ends the message with ProviderError; its key is the type
    sn = StreamNormalizer()
    with pytest.raises(ProviderError) as info:
        sn.feed({"throttlingException": {"message": "slow down"}})
    assert (info.value.type, info.value.message) == ("throttlingException", "slow down")
    assert sn.close() == ("", "") and sn.result.finish_reason == "error"


def test_stream_bad_reasoning_text() -> None:
    # P8
    with pytest.raises(ResponseShapeError) as info:
        StreamNormalizer().feed(rdelta(0, text=5))
    assert info.value.path == "contentBlockDelta.delta.reasoningContent.text"


def test_signature_only_reasoning_is_a_block() -> None:
    # X1: a reasoningText holding only a signature (no text) is kept as an opaque block with its
    # signature, in a response and in a stream, and given back on the next turn
    resp = {"output": {"message": {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"signature": "sig-1"}}}, {"text": "hi"}]}},
        "stopReason": "end_turn"}
    x = normalize(resp)
    assert (x.visible, x.reasoning, x.signatures) == ("hi", None, ("sig-1",))
    assert [(b.kind, b.text, b.signature) for b in x.blocks] == [("opaque", "", "sig-1")]
    sn = StreamNormalizer()
    for e in [{"messageStart": {"role": "assistant"}},
              {"contentBlockDelta": {"contentBlockIndex": 0,
                                     "delta": {"reasoningContent": {"signature": "sig-1"}}}},
              {"contentBlockStop": {"contentBlockIndex": 0}},
              {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": "hi"}}},
              {"contentBlockStop": {"contentBlockIndex": 1}},
              {"messageStop": {"stopReason": "end_turn"}}]:
        sn.feed(e)
    sn.close()
    assert sn.result.blocks == x.blocks
    assert sn.message == {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": "", "signature": "sig-1"}}},
        {"text": "hi"}]}
