"""Provider errors inside a stream (P16) and one response per stream (P17).

The events are written from the providers' documentation: Anthropic's streaming guide (the
``error`` event, ``overloaded_error``), the Responses API's ``error`` and ``response.failed``
events, OpenRouter's documented mid-stream error chunk (``error`` beside a choice whose
``finish_reason`` is ``"error"``), the Gemini API's error body (``google.rpc.Status``:
``code``, ``message``, ``status``), the Bedrock ConverseStream exception members, Ollama's
``{"error": ...}`` object and Cohere's ``message-end`` with ``finish_reason: "ERROR"``.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    ProviderError,
    ResponseShapeError,
    ScannerClosedError,
    StreamNormalizer,
    ThinkParseError,
)


def chunk(cid: str = "c1", finish: Optional[str] = None, **delta: Any) -> dict[str, Any]:
    return {"id": cid, "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def a_start(mid: str = "msg_1") -> dict[str, Any]:
    return {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "content": [], "model": "claude-x",
        "stop_reason": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}


def a_thinking(text: str, sig: str = "sig-1") -> list[dict[str, Any]]:
    return [
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": text}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "signature_delta", "signature": sig}},
        {"type": "content_block_stop", "index": 0},
    ]


def a_text(text: str, i: int = 1) -> list[dict[str, Any]]:
    return [
        {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": text}},
    ]


def a_end(reason: str = "end_turn") -> list[dict[str, Any]]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason},
             "usage": {"output_tokens": 9}}, {"type": "message_stop"}]


OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


def feed_until_raise(sn: StreamNormalizer, events: list[Any]) -> tuple[int, BaseException]:
    for i, ev in enumerate(events):
        try:
            sn.feed(ev)
        except ThinkParseError as e:
            return i, e
    raise AssertionError("no event raised")


# --- P16: the provider's error ends the message ------------------------------------------------
def test_anthropic_error_event_mid_text() -> None:
    """P16: Anthropic's ``error`` event raises ProviderError with its type and message; what
    came before is the result, with finish_reason "error"."""
    sn = StreamNormalizer()
    events = [a_start(), *a_thinking("Let me see."), *a_text("Hello"), OVERLOADED]
    at, err = feed_until_raise(sn, events)
    assert at == 7 and isinstance(err, ProviderError)
    assert (err.type, err.message, err.event) == ("overloaded_error", "Overloaded", "error")
    assert str(err) == "the provider reported an error (error): overloaded_error: Overloaded"
    r = sn.result
    assert (r.provider, r.visible, r.reasoning, r.finish_reason) == (
        "anthropic", "Hello", "Let me see.", "error")
    assert r.signatures == ("sig-1",)
    assert sn.message == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Let me see.", "signature": "sig-1"},
        {"type": "text", "text": "Hello"}]}
    assert sn.close() == ("", "") and sn.close() == ("", "")


def test_error_keeps_what_closing_released_for_close() -> None:
    """P16: inline text the scanner still held goes out when the message ends; the next
    close() returns it (nothing is lost), and a later feed is refused until reset()."""
    sn = StreamNormalizer()
    assert sn.feed(chunk(content="Hi <thi")) == ("Hi ", "")
    with pytest.raises(ProviderError) as info:
        sn.feed({"id": "c1", "object": "chat.completion.chunk",
                 "error": {"message": "upstream gone", "type": "server_error", "param": None,
                           "code": None}, "choices": []})
    assert (info.value.type, info.value.message) == ("server_error", "upstream gone")
    assert sn.result.visible == "Hi <thi" and sn.result.finish_reason == "error"
    assert sn.close() == ("<thi", "")
    assert sn.close() == ("", "")
    with pytest.raises(ScannerClosedError, match="reset"):
        sn.feed(chunk(content="more"))
    sn.reset()
    assert sn.feed(chunk(content="again")) == ("again", "")
    sn.close()
    assert (sn.result.visible, sn.result.finish_reason) == ("again", None)


@pytest.mark.parametrize(
    ("events", "at", "kind", "message", "event", "visible", "reasoning"),
    [
        pytest.param(  # the Responses API's error event: its code and message
            [{"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                                       "output": []}},
             {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
              "item_id": "msg_1", "delta": "Partial"},
             {"type": "error", "code": "ERR_SOMETHING", "message": "Something went wrong",
              "param": None, "sequence_number": 3}],
            2, "ERR_SOMETHING", "Something went wrong", "error", "Partial", None, id="responses"),
        pytest.param(  # response.failed: the response's error object
            [{"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                                       "output": []}},
             {"type": "response.reasoning_summary_text.delta", "output_index": 0,
              "summary_index": 0, "item_id": "rs_1", "delta": "Thinking"},
             {"type": "response.failed", "response": {
                 "id": "resp_1", "status": "failed", "output": [],
                 "error": {"code": "server_error",
                           "message": "The model failed to generate a response."}}}],
            2, "server_error", "The model failed to generate a response.", "response.failed",
            "", "Thinking", id="responses-failed"),
        pytest.param(  # OpenRouter's mid-stream error chunk
            [chunk("gen-1", role="assistant", reasoning="Weighing it"),
             {"id": "gen-1", "object": "chat.completion.chunk", "provider": "Example",
              "error": {"code": "server_error", "message": "Provider disconnected unexpectedly"},
              "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]}],
            1, "server_error", "Provider disconnected unexpectedly", "error", "", "Weighing it",
            id="chat-openrouter"),
        pytest.param(  # Gemini: google.rpc.Status, its status name preferred to the HTTP code
            [{"candidates": [{"content": {"role": "model", "parts": [{"text": "It is"}]},
                              "index": 0}]},
             {"error": {"code": 503, "message": "The model is overloaded.",
                        "status": "UNAVAILABLE"}}],
            1, "UNAVAILABLE", "The model is overloaded.", "error", "It is", None, id="gemini"),
        pytest.param(  # Bedrock ConverseStream: the exception member names the type
            [{"messageStart": {"role": "assistant"}},
             {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Par"}}},
             {"throttlingException": {"message": "Too many requests"}}],
            2, "throttlingException", "Too many requests", "throttlingException", "Par", None,
            id="bedrock"),
        pytest.param(  # Ollama's error object: a message, no type
            [{"model": "qwen3", "created_at": "t", "done": False,
              "message": {"role": "assistant", "content": "", "thinking": "hmm"}},
             {"error": "model runner has unexpectedly stopped"}],
            1, None, "model runner has unexpectedly stopped", "error", "", "hmm", id="ollama"),
        pytest.param(  # Cohere: message-end with finish_reason ERROR and its error text
            [{"type": "message-start", "id": "c-1", "delta": {"message": {"role": "assistant"}}},
             {"type": "content-delta", "index": 0,
              "delta": {"message": {"content": {"text": "Hel"}}}},
             {"type": "message-end", "delta": {"finish_reason": "ERROR",
                                               "error": "internal generation failure"}}],
            2, "ERROR", "internal generation failure", "message-end", "Hel", None, id="cohere"),
    ],
)
def test_error_events_per_family(events: list[Any], at: int, kind: Optional[str],
                                 message: str, event: str, visible: str,
                                 reasoning: Optional[str]) -> None:
    """P16: each family's error report raises ProviderError at its event, with the
    provider's type and message; the result holds what came before."""
    sn = StreamNormalizer()
    i, err = feed_until_raise(sn, events)
    assert i == at and isinstance(err, ProviderError)
    assert (err.type, err.message, err.event) == (kind, message, event)
    r = sn.result
    assert (r.visible, r.reasoning, r.finish_reason) == (visible, reasoning, "error")


@pytest.mark.parametrize(
    ("event", "kind", "message", "text"),
    [
        ({"type": "error", "error": {"type": "api_error", "message": "Internal server error"}},
         "api_error", "Internal server error", "api_error: Internal server error"),
        ({"error": {"message": "Rate limit exceeded", "code": 429}}, "429",
         "Rate limit exceeded", "429: Rate limit exceeded"),
        ({"type": "error"}, None, None, "no message"),
        ({"type": "error", "error": "boom"}, None, "boom", "boom"),
        ({"type": "error", "error": ["not", "an", "object"]}, None, None, "no message"),
    ],
)
def test_error_before_any_family(event: dict[str, Any], kind: Optional[str],
                                 message: Optional[str], text: str) -> None:
    """P16: an error event before any event decided the family ends an empty message."""
    sn = StreamNormalizer()
    with pytest.raises(ProviderError) as info:
        sn.feed(event)
    assert (info.value.type, info.value.message) == (kind, message)
    assert str(info.value) == f"the provider reported an error (error): {text}"
    r = sn.result
    assert (r.provider, r.visible, r.reasoning, r.finish_reason) == ("unknown", "", None, "error")
    with pytest.raises(ValueError, match="no event decided"):
        _ = sn.message


def test_error_with_explicit_provider_and_sdk_object() -> None:
    """P16 with provider= given: Anthropic's error event read from an object (P7)."""

    class Event:
        def model_dump(self, **_: Any) -> dict[str, Any]:
            return OVERLOADED

    sn = StreamNormalizer(provider="anthropic")
    with pytest.raises(ProviderError, match="overloaded_error: Overloaded"):
        sn.feed(Event())
    assert sn.result.provider == "anthropic" and sn.result.finish_reason == "error"


def test_provider_error_is_a_library_error() -> None:
    """P16: ProviderError is a ThinkParseError (one except clause catches the library's)."""
    assert issubclass(ProviderError, ThinkParseError)
    assert not issubclass(ProviderError, ValueError)


# --- P17: one response per stream ---------------------------------------------------------------
def first_anthropic() -> list[dict[str, Any]]:
    return [a_start("msg_1"), *a_thinking("Plan A."), *a_text("Answer A"), *a_end()]


def second_anthropic() -> list[dict[str, Any]]:
    return [a_start("msg_2"), *a_text("Answer B", 0), *a_end("max_tokens")]


def test_anthropic_second_message_start() -> None:
    """P17: a second message_start raises ResponseShapeError naming it; the first turn stays
    the result; reset() decodes the second response alone."""
    sn = StreamNormalizer()
    events = first_anthropic() + second_anthropic()
    at, err = feed_until_raise(sn, events)
    assert at == len(first_anthropic()) and isinstance(err, ResponseShapeError)
    assert "'message_start'" in str(err) and "reset()" in str(err)
    r = sn.result
    assert (r.visible, r.reasoning, r.finish_reason) == ("Answer A", "Plan A.", "end_turn")
    assert sn.close() == ("", "")
    with pytest.raises(ScannerClosedError):
        sn.feed(events[at])
    sn.reset()
    for ev in events[at:]:
        sn.feed(ev)
    sn.close()
    r2 = sn.result
    assert (r2.visible, r2.reasoning, r2.finish_reason) == ("Answer B", None, "max_tokens")
    assert sn.message == {"role": "assistant", "content": [{"type": "text", "text": "Answer B"}]}


def test_responses_second_response_created() -> None:
    """P17: a second response.created is a second response."""
    created = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                                        "output": []}}
    text = {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
            "item_id": "m", "delta": "One"}
    done = {"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
                                                       "output": []}}
    sn = StreamNormalizer()
    at, err = feed_until_raise(sn, [created, text, done, created, text])
    assert at == 3 and "'response.created'" in str(err)
    assert sn.result.visible == "One" and sn.result.finish_reason == "completed"


@pytest.mark.parametrize(
    ("events", "at"),
    [
        pytest.param([{"messageStart": {"role": "assistant"}},
                      {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "x"}}},
                      {"messageStop": {"stopReason": "end_turn"}},
                      {"messageStart": {"role": "assistant"}}], 3, id="bedrock"),
        pytest.param([{"type": "message-start", "id": "a", "delta": {"message": {}}},
                      {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}},
                      {"type": "message-start", "id": "b", "delta": {"message": {}}}], 2,
                     id="cohere"),
    ],
)
def test_second_start_event_other_families(events: list[Any], at: int) -> None:
    """P17: Bedrock's messageStart and Cohere's message-start begin a response once."""
    sn = StreamNormalizer()
    i, err = feed_until_raise(sn, events)
    assert i == at and isinstance(err, ResponseShapeError)


def test_chat_new_id_after_finish() -> None:
    """P17 for Chat: a chunk with choices and a new id after the finish chunk is a second
    response; an id change before any finish, a repeated finish chunk and a usage chunk with
    no choices are not."""
    events = [
        chunk("a", role="assistant"),
        chunk("b", reasoning_content="Think."),  # the id changes with no finish: same response
        chunk("b", content="One"),
        chunk("b", finish="tool_calls"),
        chunk("b", finish="tool_calls"),  # a repeated finish chunk
        {"id": "z", "object": "chat.completion.chunk", "choices": [],
         "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}},
        chunk("c", role="assistant"),  # the next response
        chunk("c", content="Two"),
    ]
    sn = StreamNormalizer()
    at, err = feed_until_raise(sn, events)
    assert at == 6 and isinstance(err, ResponseShapeError) and "'c'" in str(err)
    r = sn.result
    assert (r.visible, r.reasoning, r.finish_reason, r.usage.total_tokens) == (
        "One", "Think.", "tool_calls", 3)
    sn.reset()
    for ev in events[at:]:
        sn.feed(ev)
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("Two", None)


def test_reset_keeps_options() -> None:
    """reset() keeps the options the normaliser was made with (provider, scanner options)."""
    sn = StreamNormalizer(provider="openai_chat", start_in_reasoning=True)
    sn.feed(chunk(content="a</think>b"))
    sn.close()
    sn.reset()
    assert sn.feed(chunk(content="c</think>d")) == ("d", "c")
    sn.close()
    assert (sn.result.reasoning, sn.result.visible) == ("c", "d")


# --- invariants --------------------------------------------------------------------------------
PIECES = st.lists(st.tuples(st.sampled_from(["think", "text"]),
                            st.text(alphabet="ab <>/\n", min_size=1, max_size=6)),
                  min_size=0, max_size=8)


def anthropic_events(pieces: list[tuple[str, str]]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [a_start()]
    for i, (kind, text) in enumerate(pieces):
        block = ({"type": "thinking", "thinking": ""} if kind == "think"
                 else {"type": "text", "text": ""})
        d = ({"type": "thinking_delta", "thinking": text} if kind == "think"
             else {"type": "text_delta", "text": text})
        events += [{"type": "content_block_start", "index": i, "content_block": block},
                   {"type": "content_block_delta", "index": i, "delta": d},
                   {"type": "content_block_stop", "index": i}]
    return events


def chat_events(pieces: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [chunk(**({"reasoning_content": t} if k == "think" else {"content": t}))
            for k, t in pieces]


@settings(max_examples=150, deadline=None)
@given(PIECES, st.integers(0, 30), st.sampled_from(["anthropic", "chat"]))
def test_error_result_is_the_prefix_closed(pieces: list[tuple[str, str]], cut: int,
                                           family: str) -> None:
    """P16 invariant: after an error event, the result is what the events before it give when
    the stream is closed there (finish_reason "error"), and the deltas returned, with the next
    close(), are those of closing there."""
    events = anthropic_events(pieces) if family == "anthropic" else chat_events(pieces)
    prefix = events[:cut]
    error = OVERLOADED if family == "anthropic" else {
        "id": "c1", "object": "chat.completion.chunk", "choices": [],
        "error": {"message": "gone", "code": "server_error"}}
    ref = StreamNormalizer()
    ref_deltas = [ref.feed(ev) for ev in prefix]
    ref_deltas.append(ref.close())
    sn = StreamNormalizer()
    deltas = [sn.feed(ev) for ev in prefix]
    with pytest.raises(ProviderError):  # (first: before any family was decided)
        sn.feed(error)
    deltas.append(sn.close())
    r = sn.result
    assert (r.visible, r.reasoning, r.signatures) == (
        ref.result.visible, ref.result.reasoning, ref.result.signatures)
    assert r.finish_reason == "error"
    assert deltas == ref_deltas
