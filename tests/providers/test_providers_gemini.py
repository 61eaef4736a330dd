"""``gemini``: generateContent, REST camelCase and google-genai snake_case (P1-P12)."""

from __future__ import annotations

import base64
from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import Delta, Extraction, ResponseShapeError, StreamNormalizer, Usage, normalize

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("gemini", visible, reasoning, fmt, **kw)


def resp(*parts: dict[str, Any], usage: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    d: dict[str, Any] = {
        "candidates": [{"content": {"parts": list(parts), "role": "model"},
                        "finishReason": "STOP", "index": 0}],
        "modelVersion": "gemini-2.5-flash",
    }
    if usage is not None:
        d["usageMetadata"] = usage
    return d


USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 20, "thoughtsTokenCount": 30,
         "totalTokenCount": 60}


def test_thought_parts_and_text() -> None:
    # P2, P11, P12: thought parts are reasoning; output = candidates + thoughts
    r = normalize(resp({"text": "**Plan**\nadd", "thought": True}, {"text": "4"}, usage=USAGE))
    assert r == ex("4", "**Plan**\nadd", "blocks", usage=Usage(10, 50, 30, 60))


def test_consecutive_thought_parts_one_segment() -> None:
    # P2 (decision): consecutive thought parts concatenate; after a non-thought part a new one
    r = normalize(resp({"text": "a", "thought": True}, {"text": "b", "thought": True},
                       {"text": "x"}, {"text": "c", "thought": True}, {"text": "y"}))
    assert r == ex("xy", "ab\n\nc", "blocks")


def test_thought_false_is_text() -> None:
    # 6.1: only thought: true marks reasoning
    assert normalize(resp({"text": "a", "thought": False})).visible == "a"


def test_signature_on_function_call_part() -> None:
    # 6.1: thoughtSignature may sit on any part; function calls are never text
    r = normalize(resp({"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "CiQB"}))
    assert r == ex("", None, "none", signatures=("CiQB",))


def test_signature_on_empty_text_part() -> None:
    # 6.1: a final empty text part carrying the signature
    r = normalize(resp({"text": "Hi"}, {"text": "", "thoughtSignature": "Sig"}))
    assert r == ex("Hi", None, "none", signatures=("Sig",))


def test_thought_without_text() -> None:
    # decision: a thought part without text contributes nothing
    r = normalize(resp({"thought": True, "thoughtSignature": "S"}, {"text": "A"}))
    assert r == ex("A", None, "none", signatures=("S",))


def test_snake_case_google_genai_dump() -> None:
    # P7, 6.1: google-genai model_dump() without aliases: snake_case, signature as bytes
    d = {
        "candidates": [{"content": {"parts": [
            {"text": "think", "thought": True, "thought_signature": b"\x01\x02\x03",
             "function_call": None},
            {"text": "answer", "thought": None, "thought_signature": None},
        ], "role": "model"}, "finish_reason": "STOP"}],
        "usage_metadata": {"prompt_token_count": 3, "candidates_token_count": 4,
                           "thoughts_token_count": 5, "total_token_count": 12},
    }
    r = normalize(d)
    sig = base64.b64encode(b"\x01\x02\x03").decode()
    assert r == ex("answer", "think", "blocks", usage=Usage(3, 9, 5, 12), signatures=(sig,))


def test_thoughts_counted_but_not_included() -> None:
    # P5: thoughtsTokenCount reported without thought parts
    r = normalize(resp({"text": "A"}, usage=USAGE))
    assert r == ex("A", None, "none", usage=Usage(10, 50, 30, 60))


def test_no_thoughts_count() -> None:
    # P5, P12: no thoughtsTokenCount -> reasoning None, output = candidates
    r = normalize(resp({"text": "A"}, usage={"promptTokenCount": 1, "candidatesTokenCount": 2,
                                             "totalTokenCount": 3}))
    assert r.usage == Usage(1, 2, None, 3)


def test_blocked_prompt_without_candidates() -> None:
    # decision: promptFeedback without candidates -> empty answer
    r = normalize({"promptFeedback": {"blockReason": "SAFETY"},
                   "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}})
    assert r == ex("", None, "none", usage=Usage(8, None, None, 8))


def test_candidate_without_content() -> None:
    # decision: finishReason SAFETY without content -> empty answer
    assert normalize({"candidates": [{"finishReason": "SAFETY", "index": 0}]}).visible == ""


def test_inline_tags_in_text() -> None:
    # P3: a Gemma served through generateContent may write tags in text
    assert normalize(resp({"text": "<think>t</think>A"})) == ex("A", "t", "tags")


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"candidates": {"a": 1}}, "candidates"),
        ({"candidates": [5]}, "candidates[0]"),
        ({"candidates": [{"content": "x"}]}, "candidates[0].content"),
        ({"candidates": [{"content": {"parts": {}}}]}, "candidates[0].content.parts"),
        ({"candidates": [{"content": {"parts": [{"text": 3}]}}]},
         "candidates[0].content.parts[0].text"),
        ({"candidates": [{"content": {"parts": [{"text": "a", "thoughtSignature": 5}]}}]},
         "candidates[0].content.parts[0].thoughtSignature"),
        ({"candidates": [], "usageMetadata": {"promptTokenCount": False}},
         "usageMetadata.promptTokenCount"),
        ({"candidates": [], "usage_metadata": {"thoughts_token_count": "1"}},
         "usage_metadata.thoughts_token_count"),
    ],
)
def test_shape_errors(payload: dict[str, Any], path: str) -> None:
    # P8
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload)
    assert info.value.path == path


def run(events: list[dict[str, Any]]) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer()
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def test_stream_thought_chunks_then_text() -> None:
    # P9, P12: each chunk holds delta parts; usage is cumulative (last wins)
    events = [
        resp({"text": "**Plan**\n", "thought": True},
             usage={"promptTokenCount": 10, "thoughtsTokenCount": 12, "totalTokenCount": 22}),
        resp({"text": "add them", "thought": True},
             usage={"promptTokenCount": 10, "thoughtsTokenCount": 30, "totalTokenCount": 40}),
        resp({"text": "The sum"}, usage={"promptTokenCount": 10, "candidatesTokenCount": 2,
                                         "thoughtsTokenCount": 30, "totalTokenCount": 42}),
        resp({"text": " is 4.", "thoughtSignature": "SIG"},
             usage={"promptTokenCount": 10, "candidatesTokenCount": 6, "thoughtsTokenCount": 30,
                    "totalTokenCount": 46}),
    ]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [("", "**Plan**\n"), ("", "add them"), ("The sum", ""),
                                          (" is 4.", ""), ("", "")]
    assert r == ex("The sum is 4.", "**Plan**\nadd them", "blocks", usage=Usage(10, 36, 30, 46),
                   signatures=("SIG",))


def test_stream_thought_after_text_separated() -> None:
    # S3: a thought after text starts a new segment
    events = [resp({"text": "a", "thought": True}), resp({"text": "x"}),
              resp({"text": "b", "thought": True})]
    deltas, r = run(events)
    assert [d.reasoning for d in deltas] == ["a", "", "\n\nb", ""]
    assert r.reasoning == "a\n\nb"
