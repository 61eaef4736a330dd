"""``openai_chat``: Chat Completions, legacy Completions and OpenAI-compatible servers (P1-P12)."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import expected_extraction

from thinkparse import (
    Delta,
    Extraction,
    ResponseShapeError,
    StreamNormalizer,
    Usage,
    normalize,
)

NO_USAGE = Usage()


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("openai_chat", visible, reasoning, fmt, **kw)


def chat(message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1750000000,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", **message},
                     "finish_reason": "stop"}],
        **extra,
    }


def run(events: list[dict[str, Any]], **options: Any) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer(**options)
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def chunk(**delta: Any) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}


# --- dedicated fields (P2, P4, P11) --------------------------------------------------------------
def test_deepseek_reasoning_content() -> None:
    # P2, P5, P11, P12: reasoning_content is the reasoning, verbatim; usage as reported
    r = normalize(chat(
        {"content": "391", "reasoning_content": "17*23 = 340 + 51."},
        usage={"prompt_tokens": 10, "completion_tokens": 30, "total_tokens": 40,
               "completion_tokens_details": {"reasoning_tokens": 25}},
    ))
    assert r == ex("391", "17*23 = 340 + 51.", "field", usage=Usage(10, 30, 25, 40))
    assert r.tokens_est == 5 and r.reasoning_tokens == 25


def test_reasoning_field_vllm() -> None:
    # P11: the `reasoning` field (vLLM >= 0.11, Groq, OpenRouter) is format "field"
    assert normalize(chat({"content": "Hi", "reasoning": "say hi"})) == ex("Hi", "say hi", "field")


def test_field_text_is_verbatim() -> None:
    # P2: structured-field text is kept verbatim (no stripping)
    r = normalize(chat({"content": "A", "reasoning_content": "\n  plan \n"}))
    assert r.reasoning == "\n  plan \n"


def test_same_text_in_two_fields_taken_once() -> None:
    # P4: `reasoning` and `reasoning_content` carrying the same text count once
    r = normalize(chat({"content": "A", "reasoning": "plan", "reasoning_content": "plan"}))
    assert r.reasoning == "plan"


def test_blank_reasoning_content_falls_back_to_reasoning() -> None:
    # P2, P4: a whitespace-only field is not reasoning; the other field is used
    r = normalize(chat({"content": "A", "reasoning_content": "  ", "reasoning": "real"}))
    assert r == ex("A", "real", "field")


def test_whitespace_only_reasoning_is_none() -> None:
    # P2: whitespace-only reasoning -> None, format "none"
    assert normalize(chat({"content": "A", "reasoning_content": " \n"})) == ex("A", None, "none")


def test_field_wins_over_inline_tags() -> None:
    # P4: with a dedicated field, content is returned as it is (tags included)
    content = "<think>inner</think>Answer"
    r = normalize(chat({"content": content, "reasoning_content": "field"}))
    assert r == ex(content, "field", "field")


def test_visible_is_verbatim_without_markup() -> None:
    # P1: visible text is returned verbatim (no stripping) when there is no inline markup
    assert normalize(chat({"content": "  Hi there \n"})) == ex("  Hi there \n", None, "none")


def test_whitespace_only_visible_is_empty() -> None:
    # P1: whitespace-only visible becomes ""
    assert normalize(chat({"content": " \n\t"})).visible == ""


def test_null_content_with_tool_calls() -> None:
    # P1: tool calls and their arguments are never text
    r = normalize(chat({
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "f", "arguments": "{\"a\": 1}"}}],
    }))
    assert r == ex("", None, "none")


def test_refusal_is_the_visible_answer() -> None:
    # P1 (decision): a refusal is what the model said instead of answering
    r = normalize(chat({"content": None, "refusal": "I can't help with that."}))
    assert r.visible == "I can't help with that."


# --- inline markup (P3) --------------------------------------------------------------------------
def test_inline_think_tags() -> None:
    # P3: content with <think> tags is split; both parts stripped; format "tags"
    r = normalize(chat({"content": "<think>\nplan\n</think>\n\nAnswer."}))
    assert r == ex("Answer.", "plan", "tags")


def test_inline_auto_orphan_closer() -> None:
    # P3, T10: "auto" recovers reasoning...</think>answer
    assert normalize(chat({"content": "plan</think>\n\nAnswer"})) == ex("Answer", "plan", "tags")


def test_inline_unclosed_block() -> None:
    # P3, T7: a truncated block is reasoning, visible is empty
    assert normalize(chat({"content": "<think>cut off"})) == ex("", "cut off", "tags")


def test_inline_empty_block_is_no_reasoning() -> None:
    # P2, P3: an empty block leaves no readable reasoning; visible is still stripped
    assert normalize(chat({"content": "<think>\n\n</think>\n\nHi "})) == ex("Hi", None, "none")


def test_blank_field_does_not_block_inline_tags() -> None:
    # P4: an empty dedicated field is no reasoning, so inline markup is looked for
    r = normalize(chat({"content": "<think>a</think>b", "reasoning_content": ""}))
    assert r == ex("b", "a", "tags")


def test_code_span_is_not_a_tag() -> None:
    # P3, T5: tags in code are text, so the content is returned as it is
    content = "Use `<think>` here"
    assert normalize(chat({"content": content})) == ex(content, None, "none")


def test_inline_harmony_tokens() -> None:
    # P3: harmony markup in content; analysis is reasoning, final is visible
    content = (
        "<|channel|>analysis<|message|>Need a greeting.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Hello!<|return|>"
    )
    assert normalize(chat({"content": content})) == ex("Hello!", "Need a greeting.", "harmony")


def test_inline_harmony_stripped_tokens() -> None:
    # P3: special tokens stripped: analysis...assistantfinal...
    r = normalize(chat({"content": "analysisThink it over.assistantfinalDone."}))
    assert r == ex("Done.", "Think it over.", "harmony")


def test_legacy_completions_text() -> None:
    # 6.1: legacy Completions put the text in choices[].text
    r = normalize({
        "object": "text_completion",
        "choices": [{"index": 0, "text": "<think>x</think> y", "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
    })
    assert r == ex("y", "x", "tags", usage=Usage(3, 4, None, 7))


# --- Mistral content lists (P2, P11) -------------------------------------------------------------
def test_mistral_thinking_chunk() -> None:
    # P11: Mistral thinking chunks are "blocks"; text chunks are concatenated (P1)
    r = normalize(chat({"content": [
        {"type": "thinking", "thinking": [{"type": "text", "text": "Let me see."}]},
        {"type": "text", "text": "It is "},
        {"type": "text", "text": "4."},
    ]}))
    assert r == ex("It is 4.", "Let me see.", "blocks")


def test_mistral_several_thinking_chunks_are_segments() -> None:
    # P2: distinct Mistral thinking chunks join with a blank line; inner texts with ""
    r = normalize(chat({"content": [
        {"type": "thinking", "thinking": [{"type": "text", "text": "a"},
                                          {"type": "text", "text": "b"}]},
        {"type": "thinking", "thinking": [{"type": "text", "text": "c"}]},
        {"type": "text", "text": "d"},
    ]}))
    assert r == ex("d", "ab\n\nc", "blocks")


def test_mistral_non_text_chunks_ignored() -> None:
    # P1: image and reference chunks carry no answer text
    r = normalize(chat({"content": [
        {"type": "image_url", "image_url": "https://x"},
        {"type": "reference", "reference_ids": [1]},
        {"type": "text", "text": "ok"},
    ]}))
    assert r == ex("ok", None, "none")


def test_content_list_refusal_part() -> None:
    # P1 (decision): refusal parts are the visible answer
    r = normalize(chat({"content": [{"type": "refusal", "refusal": "No."}]}))
    assert r.visible == "No."


# --- OpenRouter reasoning_details (P2, P4, P6) ---------------------------------------------------
def test_reasoning_details_two_indexes() -> None:
    # P2: details with different index are distinct segments; signatures kept in order
    r = normalize(chat({
        "content": "A",
        "reasoning": "onetwo",
        "reasoning_details": [
            {"type": "reasoning.text", "text": "one", "signature": None, "index": 0,
             "format": "anthropic-claude-v1"},
            {"type": "reasoning.text", "text": "two", "signature": "sig-2", "index": 1,
             "format": "anthropic-claude-v1"},
        ],
    }))
    assert r == ex("A", "one\n\ntwo", "field", signatures=("sig-2",))


def test_reasoning_details_same_index_concatenate() -> None:
    # P2: pieces with the same index are one segment
    r = normalize(chat({"content": "A", "reasoning_details": [
        {"type": "reasoning.summary", "summary": "**Plan**", "index": 0},
        {"type": "reasoning.summary", "summary": " more", "index": 0},
    ]}))
    assert r.reasoning == "**Plan** more"


def test_reasoning_details_encrypted_is_redacted() -> None:
    # P6: reasoning.encrypted is unreadable reasoning; P11: format "none"
    r = normalize(chat({"content": "A", "reasoning": None, "reasoning_details": [
        {"type": "reasoning.encrypted", "data": "gAAAAB...", "index": 0,
         "format": "openai-responses-v1"},
    ]}))
    assert r == ex("A", None, "none", redacted=True)


def test_reasoning_details_summary_with_encrypted() -> None:
    # P6: redacted alongside readable summary
    r = normalize(chat({"content": "A", "reasoning_details": [
        {"type": "reasoning.summary", "summary": "Sum.", "index": 0},
        {"type": "reasoning.encrypted", "data": "enc", "index": 1},
    ]}))
    assert r == ex("A", "Sum.", "field", redacted=True)


def test_signature_alone_is_not_redacted() -> None:
    # P6: a signature does not make reasoning redacted
    r = normalize(chat({"content": "A", "reasoning_details": [
        {"type": "reasoning.text", "text": "t", "signature": "s", "index": 0}]}))
    assert r.redacted is False and r.signatures == ("s",)


# --- usage (P5, P12) -----------------------------------------------------------------------------
def test_reasoning_tokens_zero_stays_zero() -> None:
    # P5: a reported 0 stays 0
    r = normalize(chat({"content": "A"}, usage={
        "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3,
        "completion_tokens_details": {"reasoning_tokens": 0}}))
    assert r.reasoning_tokens == 0 and r.usage == Usage(1, 2, 0, 3)


def test_reasoning_tokens_absent_is_none() -> None:
    # P5: no key -> None, never derived
    r = normalize(chat({"content": "A", "reasoning_content": "x"}, usage={
        "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}))
    assert r.reasoning_tokens is None and r.usage == Usage(1, 2, None, 3)


def test_no_usage_is_all_none() -> None:
    # P12: missing figures are None
    assert normalize(chat({"content": "A"})).usage == Usage(None, None, None, None)


def test_xai_adds_reasoning_tokens_to_output() -> None:
    # P12: xAI's completion_tokens exclude reasoning (total = prompt + completion + reasoning)
    r = normalize(chat({"content": "I am Grok."}, model="grok-4.1-fast-reasoning", usage={
        "prompt_tokens": 663, "completion_tokens": 50, "total_tokens": 837,
        "completion_tokens_details": {"reasoning_tokens": 124}}))
    assert r.usage == Usage(663, 174, 124, 837)


def test_openai_accounting_unchanged() -> None:
    # P12: OpenAI's completion_tokens already include reasoning
    r = normalize(chat({"content": "A"}, usage={
        "prompt_tokens": 163, "completion_tokens": 241, "total_tokens": 404,
        "completion_tokens_details": {"reasoning_tokens": 204}}))
    assert r.usage == Usage(163, 241, 204, 404)


def test_usage_reasoning_tokens_at_top_level() -> None:
    # P5 (decision): `usage.reasoning_tokens` is read when the details have none
    r = normalize(chat({"content": "A"}, usage={
        "prompt_tokens": 1, "completion_tokens": 9, "total_tokens": 10, "reasoning_tokens": 4}))
    assert r.reasoning_tokens == 4


def test_integral_float_counts_accepted() -> None:
    # P12 (decision): 12.0 is read as 12
    r = normalize(chat({"content": "A"}, usage={"prompt_tokens": 12.0}))
    assert r.usage == Usage(12, None, None, None)
    assert type(r.usage.input_tokens) is int


def test_groq_x_groq_usage() -> None:
    # 6.1: Groq puts usage in x_groq.usage (usage itself may be null)
    r = normalize(chat({"content": "A"}, usage=None, x_groq={
        "id": "req_1", "usage": {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11,
                                 "queue_time": 0.01}}))
    assert r.usage == Usage(5, 6, None, 11)


# --- choices -------------------------------------------------------------------------------------
def test_empty_choices() -> None:
    # P1: no choice, no text
    r = normalize({"object": "chat.completion", "choices": [],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1}})
    assert r == ex("", None, "none", usage=Usage(1, 0, None, 1))


def test_only_first_choice_is_read() -> None:
    # 6.1 (decision): choices[0] only
    d = chat({"content": "first"})
    d["choices"].append({"index": 1, "message": {"role": "assistant", "content": "second"}})
    assert normalize(d).visible == "first"


def test_stream_chunk_given_to_normalize() -> None:
    # decision: a chunk's delta is read like a message
    r = normalize({"object": "chat.completion.chunk",
                   "choices": [{"index": 0, "delta": {"content": "x", "reasoning": "y"}}]})
    assert r == ex("x", "y", "field")


# --- shape errors (P8) ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"choices": {"0": 1}}, "choices"),
        ({"choices": None}, "choices"),
        ({"choices": [3]}, "choices[0]"),
        ({"choices": [{"index": 0}]}, "choices[0].message"),
        ({"choices": [{"message": "hi"}]}, "choices[0].message"),
        ({"choices": [{"message": {"content": 5}}]}, "choices[0].message.content"),
        ({"choices": [{"message": {"content": [7]}}]}, "choices[0].message.content[0]"),
        ({"choices": [{"message": {"content": [{"type": "text", "text": 1}]}}]},
         "choices[0].message.content[0].text"),
        ({"choices": [{"message": {"content": [{"type": "thinking", "thinking": 1}]}}]},
         "choices[0].message.content[0].thinking"),
        ({"choices": [{"message": {"reasoning_content": ["x"]}}]},
         "choices[0].message.reasoning_content"),
        ({"choices": [{"message": {"reasoning": {"text": "x"}}}]}, "choices[0].message.reasoning"),
        ({"choices": [{"message": {"reasoning_details": "x"}}]},
         "choices[0].message.reasoning_details"),
        ({"choices": [{"message": {"reasoning_details": [{}, {"type": "reasoning.text",
                                                              "text": 3}]}}]},
         "choices[0].message.reasoning_details[1].text"),
        ({"choices": [], "usage": {"prompt_tokens": "12"}}, "usage.prompt_tokens"),
        ({"choices": [], "usage": {"prompt_tokens": True}}, "usage.prompt_tokens"),
        ({"choices": [], "usage": {"completion_tokens_details": {"reasoning_tokens": 1.5}}},
         "usage.completion_tokens_details.reasoning_tokens"),
        ({"choices": [], "usage": []}, "usage"),
    ],
)
def test_shape_errors_name_the_path(payload: dict[str, Any], path: str) -> None:
    # P8: a recognised family with a malformed field raises ResponseShapeError with its path
    with pytest.raises(ResponseShapeError) as info:
        normalize(payload)
    assert info.value.path == path
    assert str(info.value).startswith(path + ": ")


# --- streams (P9) --------------------------------------------------------------------------------
def test_stream_reasoning_then_content_with_usage_chunk() -> None:
    # P9: reasoning deltas, content deltas, a final usage chunk with empty choices
    events = [
        chunk(role="assistant", content=""),
        chunk(reasoning_content="Think"),
        chunk(reasoning_content="ing."),
        chunk(content="An"),
        chunk(content="swer"),
        {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {},
                                                         "finish_reason": "stop"}]},
        {"object": "chat.completion.chunk", "choices": [],
         "usage": {"prompt_tokens": 3, "completion_tokens": 9, "total_tokens": 12,
                   "completion_tokens_details": {"reasoning_tokens": 4}}},
    ]
    deltas, r = run(events)
    assert deltas == [("", ""), ("", "Think"), ("", "ing."), ("An", ""), ("swer", ""), ("", ""),
                      ("", ""), ("", "")]
    assert r == ex("Answer", "Thinking.", "field", usage=Usage(3, 9, 4, 12))


def test_stream_keepalive_chunks_are_empty() -> None:
    # P9: chunks with empty choices and no usage give empty deltas
    deltas, r = run([{"object": "chat.completion.chunk", "choices": []}, chunk(content="x")])
    assert deltas[0] == Delta("", "") and not deltas[0]
    assert r.visible == "x"


def test_stream_both_fields_taken_once() -> None:
    # P4: a delta carrying `reasoning` and `reasoning_content` with the same text counts once
    deltas, r = run([chunk(reasoning="ab", reasoning_content="ab"), chunk(content="c")])
    assert deltas[0] == ("", "ab") and r.reasoning == "ab"


def test_stream_details_segments_and_separator() -> None:
    # S3, P2: a new index starts a segment; the separator goes out with its first character
    events = [
        chunk(reasoning="one", reasoning_details=[
            {"type": "reasoning.text", "text": "one", "index": 0}]),
        chunk(reasoning="", reasoning_details=[
            {"type": "reasoning.text", "text": "", "signature": "sig0", "index": 0}]),
        chunk(reasoning="\n", reasoning_details=[
            {"type": "reasoning.text", "text": "\n", "index": 1}]),
        chunk(reasoning="two", reasoning_details=[
            {"type": "reasoning.text", "text": "two", "index": 1}]),
        chunk(content="A"),
    ]
    deltas, r = run(events)
    assert [d.reasoning for d in deltas] == ["one", "", "", "\n\n\ntwo", "", ""]
    assert r == ex("A", "one\n\n\ntwo", "field", signatures=("sig0",))


def test_stream_whitespace_only_segment_dropped() -> None:
    # P2, S3: a whitespace-only segment releases nothing and adds no separator
    events = [
        chunk(reasoning_details=[{"type": "reasoning.summary", "summary": "a", "index": 0}]),
        chunk(reasoning_details=[{"type": "reasoning.summary", "summary": "  ", "index": 1}]),
        chunk(reasoning_details=[{"type": "reasoning.summary", "summary": "b", "index": 2}]),
    ]
    deltas, r = run(events)
    assert [d.reasoning for d in deltas] == ["a", "", "\n\nb", ""]
    assert r.reasoning == "a\n\nb"


def test_stream_encrypted_details_redacted() -> None:
    # P6 in streams
    _, r = run([chunk(reasoning_details=[{"type": "reasoning.encrypted", "data": "x",
                                          "index": 0}]), chunk(content="A")])
    assert r == ex("A", None, "none", redacted=True)


def test_stream_inline_think_tags() -> None:
    # P3, P9: content deltas run through a ThinkScanner; result stripped, format "tags"
    events = [chunk(content=c) for c in ["<thi", "nk>\nplan", "\n</think>", "\n\nAns", "wer\n"]]
    deltas, r = run(events)
    assert "".join(d.reasoning for d in deltas) == "plan"
    assert "".join(d.visible for d in deltas).strip() == "Answer"
    assert r == ex("Answer", "plan", "tags")


def test_stream_start_in_reasoning() -> None:
    # P9, T6: the template opened the block; content starts as reasoning
    events = [chunk(content="plan"), chunk(content="</think>"), chunk(content="\n\nHi")]
    deltas, r = run(events, start_in_reasoning=True)
    assert "".join(d.reasoning for d in deltas) == "plan"
    assert r == ex("Hi", "plan", "tags")


def test_stream_preset_sets_start_in_reasoning() -> None:
    # docs/behaviour.md#presets: preset deepseek-r1 opens the block
    _, r = run([chunk(content="plan</think>Hi")], preset="deepseek-r1")
    assert r == ex("Hi", "plan", "tags")


def test_stream_think_options_tags() -> None:
    # P9: the scanner's options come from the constructor
    _, r = run([chunk(content="<thinking>t</thinking>v")], tags="thinking")
    assert r == ex("v", "t", "tags")


def test_stream_default_has_no_auto() -> None:
    # P9: "auto" is not available in streams; a bare closer is an orphan (T4)
    _, r = run([chunk(content="plan</think>\n\nAnswer")])
    assert r == ex("plan\n\nAnswer", None, "none")


def test_stream_field_reasoning_then_tagged_content_is_verbatim() -> None:
    # P4: once dedicated reasoning was seen, content passes through unchanged
    _, r = run([chunk(reasoning_content="r"), chunk(content="<think>x</think>y")])
    assert r == ex("<think>x</think>y", "r", "field")


def test_stream_harmony_content() -> None:
    # P3, P9: harmony markup in content deltas goes through the harmony scanner
    text = ("<|channel|>analysis<|message|>Plan it.<|end|><|start|>assistant"
            "<|channel|>final<|message|>Done.<|return|>")
    events = [chunk(content=text[i:i + 5]) for i in range(0, len(text), 5)]
    deltas, r = run(events)
    assert "".join(d.reasoning for d in deltas) == "Plan it."
    assert "".join(d.visible for d in deltas) == "Done."
    assert r == ex("Done.", "Plan it.", "harmony")


def test_stream_mistral_list_deltas() -> None:
    # P2, P9: thinking chunks continue one segment until text arrives; then a new one
    def think(t: str) -> dict[str, Any]:
        return {"type": "thinking", "thinking": [{"type": "text", "text": t}]}

    events = [
        chunk(content=[think("a")]),
        chunk(content=[think("b")]),
        chunk(content=[{"type": "text", "text": "X"}]),
        chunk(content=[think("c")]),
        chunk(content="Y"),
    ]
    deltas, r = run(events)
    assert [tuple(d) for d in deltas] == [("", "a"), ("", "b"), ("X", ""), ("", "\n\nc"),
                                          ("Y", ""), ("", "")]
    assert r == ex("XY", "ab\n\nc", "blocks")


def test_stream_groq_x_groq_usage() -> None:
    # P12: Groq's final chunk has usage null and the counts in x_groq.usage
    events = [chunk(content="Hi"), {
        "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {},
                                                        "finish_reason": "stop"}],
        "usage": None, "x_groq": {"id": "r", "usage": {"prompt_tokens": 2, "completion_tokens": 1,
                                                        "total_tokens": 3}}}]
    _, r = run(events)
    assert r.usage == Usage(2, 1, None, 3)


def test_stream_usage_last_wins() -> None:
    # P12: in streams the last reported value wins
    _, r = run([
        {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1}},
        {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 5,
                                  "total_tokens": 6}},
    ])
    assert r.usage == Usage(1, 5, None, 6)


def test_stream_other_choices_ignored() -> None:
    # decision: only the choice with index 0
    events = [{"choices": [{"index": 1, "delta": {"content": "other"}}]},
              {"choices": [{"index": 0, "delta": {"content": "mine"}}]}]
    deltas, r = run(events)
    assert deltas[0] == ("", "") and r.visible == "mine"


def test_stream_refusal_delta() -> None:
    # decision: refusal deltas are visible
    _, r = run([chunk(refusal="No"), chunk(refusal=" way")])
    assert r.visible == "No way"


def test_stream_legacy_text_chunks() -> None:
    # 6.1: legacy completion streams carry choices[].text
    _, r = run([{"object": "text_completion", "choices": [{"index": 0, "text": "ab"}]},
                {"object": "text_completion", "choices": [{"index": 0, "text": "c"}]}])
    assert r == ex("abc", None, "none")


def test_stream_shape_error_path() -> None:
    # P8: malformed delta field
    sn = StreamNormalizer()
    with pytest.raises(ResponseShapeError) as info:
        sn.feed({"choices": [{"index": 0, "delta": {"content": 3}}]})
    assert info.value.path == "choices[0].delta.content"


def test_stream_chunk_without_choices_or_usage() -> None:
    # P8: an openai_chat chunk needs choices (or usage)
    sn = StreamNormalizer(provider="openai_chat")
    with pytest.raises(ResponseShapeError) as info:
        sn.feed({"id": "x"})
    assert info.value.path == "choices"
