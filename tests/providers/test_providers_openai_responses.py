"""``openai_responses``: the OpenAI Responses API (P1-P12)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import Delta, Extraction, ResponseShapeError, StreamNormalizer, Usage, normalize

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("openai_responses", visible, reasoning, fmt, **kw)


def reasoning_item(summary: Sequence[str] = (), content: Optional[list[str]] = None,
                   encrypted: Optional[str] = None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": "rs_1", "type": "reasoning",
        "summary": [{"type": "summary_text", "text": s} for s in summary],
    }
    if content is not None:
        item["content"] = [{"type": "reasoning_text", "text": c} for c in content]
    if encrypted is not None:
        item["encrypted_content"] = encrypted
    return item


def message_item(*texts: str, phase: Optional[str] = None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": t, "annotations": []} for t in texts],
    }
    if phase is not None:
        item["phase"] = phase
    return item


def response(*output: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "status": "completed", "model": "o4-mini",
            "output": list(output), **extra}


USAGE = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 50,
         "output_tokens_details": {"reasoning_tokens": 30}, "total_tokens": 60}


def test_summary_and_message() -> None:
    # P11: Responses items are "blocks"; P5/P12 usage
    r = normalize(response(reasoning_item(["Plan."]), message_item("Answer."), usage=USAGE))
    assert r == ex("Answer.", "Plan.", "blocks", usage=Usage(10, 50, 30, 60))


def test_summary_parts_are_segments() -> None:
    # P2: summary parts join with a blank line
    r = normalize(response(reasoning_item(["**A**\n\nfirst", "**B**\n\nsecond"]),
                           message_item("x")))
    assert r.reasoning == "**A**\n\nfirst\n\n**B**\n\nsecond"


def test_several_reasoning_items() -> None:
    # P2: reasoning items are distinct segments, in order
    r = normalize(response(reasoning_item(["one"]), {"type": "function_call", "name": "f",
                                                     "arguments": "{}", "call_id": "c"},
                           reasoning_item(["two"]), message_item("A")))
    assert r == ex("A", "one\n\ntwo", "blocks")


def test_raw_content_preferred_over_summary() -> None:
    # P4: raw reasoning_text wins over the summary when non-empty
    r = normalize(response(reasoning_item(["summary"], content=["raw chain"]), message_item("A")))
    assert r.reasoning == "raw chain"


def test_blank_raw_content_falls_back_to_summary() -> None:
    # P4: raw text that is empty does not win
    r = normalize(response(reasoning_item(["summary"], content=["  "]), message_item("A")))
    assert r.reasoning == "summary"


def test_encrypted_content_is_redacted() -> None:
    # P6: a reasoning item with non-empty encrypted_content
    r = normalize(response(reasoning_item([], encrypted="gAAAA"), message_item("A")))
    assert r == ex("A", None, "none", redacted=True)


def test_encrypted_with_summary() -> None:
    # P6, P11: readable summary and redacted content together
    r = normalize(response(reasoning_item(["S"], encrypted="gAAAA"), message_item("A")))
    assert r == ex("A", "S", "blocks", redacted=True)


def test_empty_encrypted_content_not_redacted() -> None:
    # P6: only non-empty encrypted_content counts
    r = normalize(response(reasoning_item([], encrypted=""), message_item("A")))
    assert r.redacted is False


def test_message_parts_concatenate_and_refusal() -> None:
    # P1: text segments concatenate with ""; a refusal part is the answer (decision)
    item = message_item("a", "b")
    item["content"].append({"type": "refusal", "refusal": "c"})
    assert normalize(response(item)).visible == "abc"


def test_commentary_phase_message_excluded() -> None:
    # P1 (decision): commentary-phase messages are preambles, not the answer
    r = normalize(response(message_item("Let me check.", phase="commentary"),
                           message_item("Done.", phase="final_answer")))
    assert r.visible == "Done."


def test_function_call_only() -> None:
    # P1: tool calls are never text
    r = normalize(response({"type": "function_call", "name": "f", "arguments": "{\"x\":1}",
                            "call_id": "c"}))
    assert r == ex("", None, "none")


def test_incomplete_status_returns_partial() -> None:
    # decision: status "incomplete" changes nothing
    r = normalize(response(reasoning_item(["S"]), message_item("Partial"),
                           status="incomplete",
                           incomplete_details={"reason": "max_output_tokens"}))
    assert r == ex("Partial", "S", "blocks")


def test_inline_tags_without_reasoning_items() -> None:
    # P3: a server without reasoning items may leave <think> tags in output_text
    r = normalize(response(message_item("<think>t</think>\n\nA")))
    assert r == ex("A", "t", "tags")


def test_reasoning_tokens_zero() -> None:
    # P5: a reported 0 stays 0
    u = dict(USAGE, output_tokens_details={"reasoning_tokens": 0})
    assert normalize(response(message_item("A"), usage=u)).reasoning_tokens == 0


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"object": "response", "status": "completed"}, "output"),
        ({"object": "response", "output": {"x": 1}}, "output"),
        ({"output": [1]}, "output[0]"),
        ({"output": [{"type": "message", "content": "x"}]}, "output[0].content"),
        ({"output": [{"type": "message", "content": [{"type": "output_text", "text": 1}]}]},
         "output[0].content[0].text"),
        ({"output": [{"type": "reasoning", "summary": [{"text": []}]}]},
         "output[0].summary[0].text"),
        ({"output": [{"type": "reasoning", "summary": [], "content": [5]}]},
         "output[0].content[0]"),
        ({"output": [{"type": "reasoning", "encrypted_content": 5}]},
         "output[0].encrypted_content"),
        ({"output": [], "usage": {"output_tokens_details": {"reasoning_tokens": "3"}}},
         "usage.output_tokens_details.reasoning_tokens"),
    ],
)
def test_shape_errors(payload: dict[str, Any], path: str) -> None:
    # P8: ResponseShapeError names the JSON path
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload)
    assert info.value.path == path


# --- streams -------------------------------------------------------------------------------------
def run(events: list[dict[str, Any]]) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer()
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def summary_delta(text: str, oi: int = 0, si: int = 0) -> dict[str, Any]:
    return {"type": "response.reasoning_summary_text.delta", "item_id": "rs", "output_index": oi,
            "summary_index": si, "delta": text, "sequence_number": 1}


def text_delta(text: str, oi: int = 1, ci: int = 0) -> dict[str, Any]:
    return {"type": "response.output_text.delta", "item_id": "msg", "output_index": oi,
            "content_index": ci, "delta": text, "logprobs": [], "sequence_number": 1}


def completed(*output: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.completed", "sequence_number": 9,
            "response": response(*output, usage=USAGE)}


def test_stream_done_events_not_double_counted() -> None:
    # P9: *.done events, output_item.done and response.completed repeat text already released
    events = [
        {"type": "response.created", "response": response(), "sequence_number": 0},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "id": "rs", "summary": []}},
        {"type": "response.reasoning_summary_part.added", "output_index": 0, "summary_index": 0,
         "part": {"type": "summary_text", "text": ""}},
        summary_delta("Pl"),
        summary_delta("an."),
        {"type": "response.reasoning_summary_text.done", "output_index": 0, "summary_index": 0,
         "text": "Plan."},
        {"type": "response.output_item.done", "output_index": 0, "item": reasoning_item(["Plan."])},
        {"type": "response.output_item.added", "output_index": 1,
         "item": {"type": "message", "id": "msg", "content": [], "role": "assistant"}},
        text_delta("Ans"),
        text_delta("wer"),
        {"type": "response.output_text.done", "output_index": 1, "content_index": 0,
         "text": "Answer"},
        {"type": "response.output_item.done", "output_index": 1, "item": message_item("Answer")},
        completed(reasoning_item(["Plan."]), message_item("Answer")),
    ]
    deltas, r = run(events)
    assert "".join(d.reasoning for d in deltas) == "Plan."
    assert "".join(d.visible for d in deltas) == "Answer"
    assert r == ex("Answer", "Plan.", "blocks", usage=Usage(10, 50, 30, 60))


def test_stream_second_summary_part_separated() -> None:
    # S3: the separator goes out with the new part's first character
    deltas, r = run([summary_delta("a"), summary_delta("b", si=1), text_delta("x")])
    assert [d.reasoning for d in deltas] == ["a", "\n\nb", "", ""]
    assert r.reasoning == "a\n\nb"


def test_stream_raw_reasoning_text() -> None:
    # 6.1: gpt-oss servers stream raw reasoning as response.reasoning_text.delta
    events = [{"type": "response.reasoning_text.delta", "output_index": 0, "content_index": 0,
               "item_id": "rs", "delta": "raw", "sequence_number": 1}, text_delta("A")]
    _, r = run(events)
    assert r == ex("A", "raw", "blocks")


def test_stream_parts_without_deltas_come_from_done_events() -> None:
    # P9: an item seen only in output_item.done is still read (once)
    events = [
        {"type": "response.output_item.done", "output_index": 0,
         "item": reasoning_item(["Sum."], encrypted="enc")},
        {"type": "response.output_item.done", "output_index": 1, "item": message_item("Hi")},
        completed(reasoning_item(["Sum."], encrypted="enc"), message_item("Hi")),
    ]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [("", "Sum."), ("Hi", ""), ("", ""), ("", "")]
    assert r == ex("Hi", "Sum.", "blocks", usage=Usage(10, 50, 30, 60), redacted=True)


def test_stream_completed_alone() -> None:
    # P9: a stream whose only content event is response.completed
    _, r = run([completed(reasoning_item(["S"]), message_item("A"))])
    assert r == ex("A", "S", "blocks", usage=Usage(10, 50, 30, 60))


def test_stream_text_done_without_deltas() -> None:
    # P9: output_text.done supplies text that had no deltas
    _, r = run([{"type": "response.output_text.done", "output_index": 0, "content_index": 0,
                 "text": "T"}])
    assert r.visible == "T"


def test_stream_raw_first_then_summary_ignored() -> None:
    # P4 in streams (decision): the first kind of text of an item is kept
    events = [{"type": "response.reasoning_text.delta", "output_index": 0, "content_index": 0,
               "delta": "raw"}, summary_delta("summary")]
    _, r = run(events)
    assert r.reasoning == "raw"


def test_stream_commentary_phase_skipped() -> None:
    # P1 (decision): commentary-phase message deltas are not the answer
    events = [
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "message", "phase": "commentary", "content": []}},
        text_delta("Checking...", oi=0),
        text_delta("Done.", oi=1),
    ]
    _, r = run(events)
    assert r.visible == "Done."


def test_stream_error_event_type() -> None:
    # P8: an event without a string type is malformed once the family is known
    sn = StreamNormalizer(provider="openai_responses")
    with pytest.raises(ResponseShapeError) as info:
        sn.feed({"delta": "x"})
    assert info.value.path == "type"


def test_stream_bad_output_index() -> None:
    # P8: indexes must be integers
    with pytest.raises(ResponseShapeError) as info:
        StreamNormalizer().feed(summary_delta("a", oi=[0]))  # type: ignore[arg-type]
    assert info.value.path == "output_index"
