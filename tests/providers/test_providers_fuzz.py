"""Random JSON-like payloads never make the normalisers leak an internal error (P8).

``normalize`` and ``StreamNormalizer.feed`` may only return, or raise the library's own errors
(``ThinkParseError``: ``UnknownProviderError`` / ``ResponseShapeError``); a top-level value that
is not a mapping raises ``TypeError``.  Keys are drawn mostly from the providers' field names so
the payloads reach deep into every family's decoder.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thinkparse import (
    Extraction,
    ResponseShapeError,
    StreamNormalizer,
    ThinkParseError,
    normalize,
    reasoning_from_trace,
    split_trace,
)

FAMILIES = ["openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama",
            "cohere"]

KEYS = [
    # shared / OpenAI chat
    "choices", "message", "delta", "content", "text", "refusal", "reasoning", "reasoning_content",
    "reasoning_details", "type", "index", "summary", "data", "signature", "thinking", "usage",
    "prompt_tokens", "completion_tokens", "total_tokens", "completion_tokens_details",
    "reasoning_tokens", "x_groq", "object", "role",
    # Responses
    "output", "encrypted_content", "output_tokens_details", "input_tokens", "output_tokens",
    "output_index", "content_index", "summary_index", "item", "response", "phase",
    # Anthropic
    "content_block", "output_tokens_details", "thinking_tokens",
    # Gemini
    "candidates", "parts", "thought", "thoughtSignature", "thought_signature", "usageMetadata",
    "usage_metadata", "promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount",
    "totalTokenCount", "promptFeedback",
    # Bedrock
    "reasoningContent", "reasoningText", "redactedContent", "contentBlockDelta",
    "contentBlockIndex", "contentBlockStop", "metadata", "metrics", "inputTokens",
    "outputTokens", "totalTokens",
    # Ollama
    "done", "prompt_eval_count", "eval_count",
    # Cohere
    "finish_reason", "tool_plan", "tool_calls", "citations", "tokens", "billed_units", "error",
    # Gemini Interactions, Gemini's OpenAI-compatible endpoint (P15)
    "steps", "outputs", "status", "event_type", "interaction", "step", "arguments",
    "total_input_tokens", "total_output_tokens", "total_thought_tokens", "total_tokens",
    "total_reasoning_tokens", "extra_content", "google",
]
TYPES = [
    "message", "thinking", "text", "redacted_thinking", "reasoning", "output_text", "refusal",
    "summary_text", "reasoning_text", "reasoning.text", "reasoning.summary",
    "reasoning.encrypted", "message_start", "content_block_start", "content_block_delta",
    "content_block_stop", "message_delta", "message_stop", "thinking_delta", "text_delta",
    "signature_delta", "response.output_text.delta", "response.output_text.done",
    "response.reasoning_summary_text.delta", "response.reasoning_text.delta",
    "response.output_item.done", "response.output_item.added", "response.completed", "ping",
    "error", "response", "chat.completion.chunk", "message-start", "content-start",
    "content-delta", "content-end", "tool-plan-delta", "tool-call-start", "tool-call-delta",
    "citation-start", "message-end", "debug", "interaction", "thought", "model_output",
    "function_call", "user_input", "interaction.created", "interaction.completed",
    "interaction.status_update", "step.start", "step.delta", "step.stop", "content.start",
    "content.delta", "thought_summary", "thought_signature", "arguments_delta",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(TYPES),
    st.text(alphabet="ab <>/|think\n", max_size=12),
    st.sampled_from(
        ["<think>x</think>y", "<|channel|>analysis<|message|>a", "analysisxassistantfinaly"]
    ),
)


def _objects(children: Any) -> Any:
    return st.dictionaries(
        st.one_of(st.sampled_from(KEYS), st.text(max_size=3)), children, max_size=6
    )


json_like = st.recursive(
    scalars, lambda children: st.one_of(st.lists(children, max_size=4), _objects(children)),
    max_leaves=30,
)
payloads = _objects(json_like)

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(payload=payloads, provider=st.sampled_from([None, *FAMILIES]))
def test_normalize_raises_only_library_errors(payload: dict[str, Any], provider: Any) -> None:
    # P8: never KeyError / AttributeError / IndexError / TypeError from inside on user data
    try:
        result = normalize(payload, provider=provider)
    except ThinkParseError:
        return
    assert isinstance(result, Extraction)
    assert result.visible == "" or not result.visible.isspace()  # P1
    assert result.reasoning is None or result.reasoning.strip() != ""  # P2


@FUZZ
@given(
    events=st.lists(st.one_of(payloads, _objects(st.sampled_from(TYPES))), max_size=6),
    provider=st.sampled_from([None, *FAMILIES]),
)
def test_stream_raises_only_library_errors(events: list[Any], provider: Any) -> None:
    # P8, P9: a malformed event raises the library's errors only, and the normaliser can
    # still be closed afterwards
    sn = StreamNormalizer(provider=provider)
    for ev in events:
        with contextlib.suppress(ThinkParseError):
            sn.feed(ev)
    sn.close()
    assert isinstance(sn.result, Extraction)


@FUZZ
@given(messages=st.lists(payloads, max_size=4))
def test_traces_raise_only_library_errors(messages: list[Any]) -> None:
    # P10 on random messages: ResponseShapeError for malformed fields, nothing else
    try:
        r = reasoning_from_trace(messages)
    except ThinkParseError:
        r = None
    assert r is None or (r == r.strip() and r != "")
    out = split_trace(messages)
    assert len(out) == len(messages)


@pytest.mark.parametrize("value", [None, 3, 2.5, "text", b"bytes", [1], ({"a": 1},)])
def test_non_mapping_top_level_is_type_error(value: Any) -> None:
    # P7: anything that is not a mapping or a model raises TypeError naming the type
    with pytest.raises(TypeError, match=type(value).__name__):
        normalize(value)
    with pytest.raises(TypeError, match=type(value).__name__):
        StreamNormalizer().feed(value)


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"delta": {}, "contentBlockIndex": []}, "contentBlockIndex"),
        ({"contentBlockDelta": {"delta": {"text": "a"}, "contentBlockIndex": {}}},
         "contentBlockDelta.contentBlockIndex"),
        ({"type": "content_block_delta", "index": [0],
          "delta": {"type": "text_delta", "text": "a"}}, "index"),
        ({"type": "response.output_item.done", "output_index": [1],
          "item": {"type": "message", "content": []}}, "output_index"),
    ],
)
def test_stream_position_of_the_wrong_type_is_a_shape_error(event: dict[str, Any],
                                                             path: str) -> None:
    # P8: a position that is not an integer names its path; never a TypeError from inside
    sn = StreamNormalizer()
    with pytest.raises(ResponseShapeError) as err:
        sn.feed(event)
    assert err.value.path == path
    sn.close()  # the normaliser stays usable after the error (P9)
    assert isinstance(sn.result, Extraction)
