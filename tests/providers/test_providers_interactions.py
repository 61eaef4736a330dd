"""P15: the Gemini Interactions API (family ``gemini``) and Gemini's OpenAI-compatible thought
signatures (family ``openai_chat``): responses, streams, blocks, usage, the turn, malformed
input, and the property that a stream gives what its completed interaction gives."""

from __future__ import annotations

import copy
import json
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    ProviderError,
    ResponseShapeError,
    StreamNormalizer,
    UnknownProviderError,
    normalize,
    to_message,
)

SIG_A = "Q2lUaGlua1NpZ0EtdGVzdC1zaWduYXR1cmUtb25lLTAx"
SIG_B = "U2lnQi10ZXN0LXNpZ25hdHVyZS10d28tMDIteHl6MTIz"
THOUGHT = {"type": "thought", "signature": SIG_A,
           "summary": [{"type": "text", "text": "**Planning**\n\nCall the tool.\n\n"}]}
CALL = {"type": "function_call", "id": "k7x2", "name": "get_weather",
        "arguments": {"location": "Paris"}}
USAGE = {"total_input_tokens": 20, "total_output_tokens": 9, "total_thought_tokens": 31,
         "total_tokens": 60}


def interaction(*steps: Any, status: str = "completed", **extra: Any) -> dict[str, Any]:
    return {"id": "v1_abc", "object": "interaction", "model": "gemini-3.5-flash",
            "status": status, "steps": list(steps), "usage": USAGE, **extra}


def output(*texts: str) -> dict[str, Any]:
    return {"type": "model_output", "content": [{"type": "text", "text": t} for t in texts]}


def run(events: list[Any], provider: Optional[str] = None) -> StreamNormalizer:
    sn = StreamNormalizer(provider=provider)
    for ev in events:
        sn.feed(ev)
    sn.close()
    return sn


# --- whole responses -------------------------------------------------------------------------
def test_p15_thought_summary_and_answer() -> None:
    r = normalize(interaction(THOUGHT, output("It is ", "16 °C.")))
    assert (r.provider, r.visible, r.format) == ("gemini", "It is 16 °C.", "blocks")
    assert r.reasoning == "**Planning**\n\nCall the tool.\n\n"
    assert r.signatures == (SIG_A,) and r.redacted is False
    assert (r.usage.input_tokens, r.usage.output_tokens, r.usage.reasoning_tokens,
            r.usage.total_tokens) == (20, 40, 31, 60)
    assert r.reasoning_tokens == 31 and r.finish_reason == "completed"
    [b] = r.blocks
    assert (b.kind, b.text, b.signature, b.provider, b.wire) == (
        "summary", THOUGHT["summary"][0]["text"], SIG_A, "gemini", THOUGHT)


def test_p15_signature_only_thought_is_one_opaque_block() -> None:
    r = normalize(interaction({"type": "thought", "signature": SIG_A}, output("Hi")))
    assert (r.visible, r.reasoning, r.format, r.redacted) == ("Hi", None, "none", False)
    assert r.signatures == (SIG_A,)
    assert [(b.kind, b.text, b.signature) for b in r.blocks] == [("opaque", "", SIG_A)]


def test_p15_each_thought_step_is_a_segment() -> None:
    t2 = {"type": "thought", "signature": SIG_B,
          "summary": [{"type": "text", "text": "Second"}, {"type": "image", "data": "AA=="},
                      {"type": "text", "text": " part"}]}
    r = normalize(interaction(THOUGHT, CALL, t2, output("Done")))
    assert r.reasoning == "**Planning**\n\nCall the tool.\n\n\n\nSecond part"  # P2
    assert r.signatures == (SIG_A, SIG_B)
    assert [b.kind for b in r.blocks] == ["summary", "summary"]
    assert r.blocks[1].text == "Second part"


def test_p15_function_call_requires_action() -> None:
    r = normalize(interaction(THOUGHT, CALL, status="requires_action"))
    assert (r.visible, r.finish_reason) == ("", "requires_action")
    assert to_message(r) == [THOUGHT, CALL]


def test_p15_empty_signature_is_no_signature() -> None:
    r = normalize(interaction(dict(THOUGHT, signature=""), CALL))
    assert r.signatures == () and r.blocks[0].signature is None
    assert r.blocks[0].kind == "summary"


def test_p15_built_in_tool_step_signature() -> None:
    search = {"type": "google_search_call", "id": "s1", "arguments": {"queries": ["q"]},
              "signature": SIG_B}
    r = normalize(interaction(THOUGHT, search, output("x")))
    assert r.signatures == (SIG_A, SIG_B)
    assert [(b.kind, b.signature) for b in r.blocks] == [("summary", SIG_A), ("opaque", SIG_B)]
    assert r.blocks[1].wire == search


def test_p15_usage_legacy_name_and_missing_counts() -> None:
    r = normalize(interaction(output("a"), usage={"total_input_tokens": 3,
                                                  "total_reasoning_tokens": 5}))
    assert (r.usage.input_tokens, r.usage.output_tokens, r.usage.reasoning_tokens,
            r.usage.total_tokens) == (3, 5, 5, None)
    r = normalize(interaction(output("a"), usage={"total_thought_tokens": 0,
                                                  "total_output_tokens": 4}))
    assert (r.usage.output_tokens, r.reasoning_tokens) == (4, 0)
    r = normalize({"object": "interaction", "status": "failed", "steps": []})
    assert (r.usage.output_tokens, r.finish_reason, r.visible) == (None, "failed", "")


def test_p15_get_timeline_reads_the_turn_after_the_last_user_input() -> None:
    user = {"type": "user_input", "content": [{"type": "text", "text": "Weather?"}]}
    old = {"type": "thought", "signature": SIG_B}
    r = normalize(interaction(user, old, output("Earlier."), user, THOUGHT, output("Now.")))
    assert (r.visible, r.signatures) == ("Now.", (SIG_A,))
    assert to_message(r) == [THOUGHT, output("Now.")]


def test_p15_legacy_outputs() -> None:
    r = normalize({"object": "interaction", "status": "completed", "outputs": [
        THOUGHT, {"type": "text", "text": "Canberra."}]})
    assert (r.provider, r.visible, r.signatures) == ("gemini", "Canberra.", (SIG_A,))
    assert to_message(r) == {"role": "model",
                             "content": [THOUGHT, {"type": "text", "text": "Canberra."}]}


def test_p15_message_is_a_fresh_copy_and_binary_changes_nothing() -> None:
    resp = interaction(THOUGHT, CALL, status="requires_action")
    msg = to_message(resp)
    assert isinstance(msg, list)
    msg[0]["signature"] = "x"
    assert resp["steps"][0]["signature"] == SIG_A
    assert to_message(resp, binary="bytes") == to_message(resp) == [THOUGHT, CALL]


def test_p15_interactions_have_no_choices() -> None:
    with pytest.raises(ValueError, match="choice=1"):
        normalize(interaction(output("a")), choice=1)
    with pytest.raises(ValueError, match="choice=1"):
        StreamNormalizer(provider="gemini", choice=1).feed(
            {"event_type": "interaction.created", "interaction": {"id": "x"}})


def test_p15_detection() -> None:
    assert normalize({"steps": [], "status": "completed"}).provider == "gemini"
    assert normalize({"object": "interaction", "status": "in_progress"}).provider == "gemini"
    with pytest.raises(UnknownProviderError):
        normalize({"steps": [], "object": "list"})
    with pytest.raises(UnknownProviderError, match="StreamNormalizer"):
        normalize({"event_type": "step.delta", "index": 0,
                   "delta": {"type": "text", "text": "a"}})


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"object": "interaction", "steps": {}}, "steps"),
        ({"object": "interaction", "steps": ["x"]}, "steps[0]"),
        ({"object": "interaction", "steps": [{"type": "model_output", "content": "a"}]},
         "steps[0].content"),
        ({"object": "interaction", "steps": [{"type": "model_output", "content": [3]}]},
         "steps[0].content[0]"),
        ({"object": "interaction", "steps": [{"type": "model_output",
                                              "content": [{"type": "text", "text": 3}]}]},
         "steps[0].content[0].text"),
        ({"object": "interaction", "steps": [{"type": "thought", "summary": "s"}]},
         "steps[0].summary"),
        ({"object": "interaction", "steps": [{"type": "thought", "signature": 5}]},
         "steps[0].signature"),
        ({"object": "interaction", "outputs": [{"type": "text", "text": []}]},
         "outputs[0].text"),
        ({"object": "interaction", "steps": [], "usage": []}, "usage"),
        ({"object": "interaction", "steps": [], "usage": {"total_thought_tokens": "3"}},
         "usage.total_thought_tokens"),
        ({"object": "interaction", "steps": [], "usage": {"total_reasoning_tokens": 1.5}},
         "usage.total_reasoning_tokens"),
    ],
)
def test_p15_malformed_responses_name_their_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(ResponseShapeError) as err:
        normalize(payload)
    assert err.value.path == path


# --- streams ---------------------------------------------------------------------------------
def created(status: str = "in_progress") -> dict[str, Any]:
    return {"event_type": "interaction.created", "interaction": {
        "id": "v1_abc", "object": "interaction", "model": "gemini-3.5-flash", "status": status}}


def completed(status: str = "completed", usage: Any = USAGE) -> dict[str, Any]:
    return {"event_type": "interaction.completed", "interaction": {
        "id": "v1_abc", "object": "interaction", "model": "gemini-3.5-flash", "status": status,
        "usage": usage}}


def delta(index: int, **d: Any) -> dict[str, Any]:
    return {"event_type": "step.delta", "index": index, "delta": d}


def test_p15_stream_deltas_and_result() -> None:
    sn = StreamNormalizer()
    got = [sn.feed(ev) for ev in [
        created(),
        {"event_type": "interaction.status_update", "interaction_id": "v1_abc",
         "status": "in_progress"},
        {"event_type": "step.start", "index": 0, "step": {"type": "thought"}},
        delta(0, type="thought_summary", content={"type": "text", "text": "Plan"}),
        delta(0, type="thought_signature", signature=SIG_A),
        {"event_type": "step.stop", "index": 0},
        {"event_type": "step.start", "index": 1, "step": {"type": "model_output"}},
        delta(1, type="text", text="Hi"),
        {"event_type": "step.stop", "index": 1},
        completed(),
    ]]
    sn.close()
    assert [tuple(d) for d in got] == [("", ""), ("", ""), ("", ""), ("", "Plan"), ("", ""),
                                       ("", ""), ("", ""), ("Hi", ""), ("", ""), ("", "")]
    r = sn.result
    assert (r.visible, r.reasoning, r.signatures, r.finish_reason) == (
        "Hi", "Plan", (SIG_A,), "completed")
    assert r.usage.output_tokens == 40
    assert sn.message == [{"type": "thought", "signature": SIG_A,
                           "summary": [{"type": "text", "text": "Plan"}]},
                          {"type": "model_output", "content": [{"type": "text", "text": "Hi"}]}]


def test_p15_stream_start_text_and_placeholder_signature() -> None:
    # a step.start may hold the summary's first text and signature ""; deltas continue it
    sn = run([
        created(),
        {"event_type": "step.start", "index": 0, "step": {
            "type": "thought", "signature": "", "summary": [{"type": "text", "text": "A"}]}},
        delta(0, type="thought_summary", content={"type": "text", "text": "B"}),
        delta(0, type="thought_signature", signature=SIG_A),
        {"event_type": "step.start", "index": 1, "step": {
            "type": "model_output", "content": [{"type": "text", "text": "x"}]}},
        delta(1, type="text", text="y"),
        completed(),
    ])
    assert (sn.result.reasoning, sn.result.visible, sn.result.signatures) == ("AB", "xy", (SIG_A,))
    assert sn.message == [{"type": "thought", "signature": SIG_A,
                           "summary": [{"type": "text", "text": "AB"}]},
                          {"type": "model_output", "content": [{"type": "text", "text": "xy"}]}]


def test_p15_stream_function_call_arguments() -> None:
    sn = run([
        created(),
        {"event_type": "step.start", "index": 0, "step": {"type": "thought"}},
        delta(0, type="thought_signature", signature=SIG_A),
        {"event_type": "step.start", "index": 1, "step": {
            "type": "function_call", "id": "k7x2", "name": "get_weather", "arguments": {}}},
        delta(1, type="arguments_delta", arguments='{"location": '),
        delta(1, type="arguments_delta", arguments='"Paris"}'),
        completed("requires_action"),
    ])
    r = sn.result
    assert (r.visible, r.reasoning, r.finish_reason) == ("", None, "requires_action")
    assert [b.kind for b in r.blocks] == ["opaque"]
    assert sn.message == [{"type": "thought", "signature": SIG_A}, CALL]


def test_p15_stream_truncated_arguments_raise_on_message() -> None:
    sn = run([
        {"event_type": "step.start", "index": 0, "step": {
            "type": "function_call", "id": "k", "name": "f", "arguments": {}}},
        delta(0, type="arguments_delta", arguments='{"loc'),
    ])
    assert sn.result.provider == "gemini"
    with pytest.raises(ResponseShapeError) as err:
        _ = sn.message
    assert err.value.path == "steps[0].arguments"


def test_p15_stream_error_event_and_started() -> None:
    # P16: an error event ends the message with ProviderError (error.code, error.message); P17:
    # a second interaction.created (legacy interaction.start) is a second response
    err = {"event_type": "error", "error": {"code": "gateway_timeout",
                                            "message": "Deadline expired."}}
    sn = StreamNormalizer()
    sn.feed(created())
    sn.feed(delta(0, type="text", text="Part"))
    with pytest.raises(ProviderError) as info:
        sn.feed(err)
    assert (info.value.type, info.value.message) == ("gateway_timeout", "Deadline expired.")
    assert (sn.result.visible, sn.result.finish_reason) == ("Part", "error")
    sn = StreamNormalizer()
    sn.feed(created())
    sn.feed(delta(0, type="text", text="Part"))
    with pytest.raises(ResponseShapeError, match=r"interaction\.start"):
        sn.feed({"event_type": "interaction.start", "interaction": {"id": "v2"}})
    assert (sn.result.visible, sn.result.finish_reason) == ("Part", "in_progress")


def test_p15_stream_decides_on_its_first_event() -> None:
    # an error event with event_type decides the family, then ends the message (P16)
    sn = StreamNormalizer()
    with pytest.raises(ProviderError, match="not_found: m"):
        sn.feed({"event_type": "error", "error": {"code": "not_found", "message": "m"}})
    assert sn.result.provider == "gemini"
    # generateContent chunks and Interactions events each keep their own decoder
    sn = run([{"candidates": [{"content": {"parts": [{"text": "a"}]}}]}])
    assert sn.result.visible == "a" and sn.message == {"role": "model",
                                                       "parts": [{"text": "a"}]}
    sn = run([], provider="gemini")
    assert sn.message == {"role": "model", "parts": []}


def test_p15_stream_model_from_the_created_interaction() -> None:
    sn = run([created(), delta(0, type="text", text="a")])
    from thinkparse._types import turn_of

    turn = turn_of(sn.result)
    assert turn is not None and turn.model == "gemini-3.5-flash"


def test_p15_stream_whole_payload_deltas() -> None:
    sn = run([
        {"event_type": "step.start", "index": 0, "step": {
            "type": "google_search_call", "id": "s1", "signature": ""}},
        delta(0, type="google_search_call", arguments={"queries": ["q"]}, signature=SIG_B),
        {"event_type": "step.start", "index": 1, "step": {"type": "model_output"}},
        delta(1, type="text", text="Found."),
        delta(1, type="text_annotation_delta", annotations=[{"type": "url_citation"}]),
        delta(1, type="image", data="AA==", mime_type="image/png"),
        {"event_type": "some.new_event"},
        delta(1, type="something_new"),
    ])
    assert sn.result.signatures == (SIG_B,)
    assert sn.message == [
        {"type": "google_search_call", "id": "s1", "signature": SIG_B,
         "arguments": {"queries": ["q"]}},
        {"type": "model_output", "content": [
            {"type": "text", "text": "Found.", "annotations": [{"type": "url_citation"}]},
            {"type": "image", "data": "AA==", "mime_type": "image/png"}]}]


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"event_type": "step.delta", "index": 0}, "delta"),
        ({"event_type": "step.delta", "index": "0", "delta": {"type": "text"}}, "index"),
        ({"event_type": "step.delta", "index": 0, "delta": []}, "delta"),
        ({"event_type": "step.delta", "index": 0, "delta": {}}, "delta.type"),
        ({"event_type": "step.delta", "index": 0, "delta": {"type": 3}}, "delta.type"),
        ({"event_type": "step.delta", "index": 0, "delta": {"type": "text", "text": 3}},
         "delta.text"),
        ({"event_type": "step.delta", "index": 0, "delta": {"type": "thought_summary"}},
         "delta.content"),
        ({"event_type": "step.delta", "index": 0,
          "delta": {"type": "thought_summary", "content": {"text": []}}}, "delta.content.text"),
        ({"event_type": "step.delta", "index": 0,
          "delta": {"type": "thought_signature", "signature": 1}}, "delta.signature"),
        ({"event_type": "step.delta", "index": 0,
          "delta": {"type": "arguments_delta", "arguments": {}}}, "delta.arguments"),
        ({"event_type": "step.start", "index": 0}, "step"),
        ({"event_type": "step.start", "index": 0, "step": {"type": "thought", "summary": 1}},
         "step.summary"),
        ({"event_type": "content.start", "index": 0, "content": {"type": "text", "text": 1}},
         "content.text"),
        ({"event_type": "interaction.completed", "interaction": "x"}, "interaction"),
        ({"event_type": "interaction.completed", "interaction": {"usage": {
            "total_tokens": "9"}}}, "interaction.usage.total_tokens"),
        ({"event_type": "interaction.status_update", "status": 1}, "status"),
    ],
)
def test_p15_malformed_events_name_their_path(event: dict[str, Any], path: str) -> None:
    sn = StreamNormalizer()
    sn.feed(created())
    with pytest.raises(ResponseShapeError) as err:
        sn.feed(event)
    assert err.value.path == path
    sn.feed(delta(9, type="text", text="ok"))  # the normaliser stays usable
    sn.close()
    assert sn.result.visible == "ok"


def test_p15_event_type_missing_after_the_family_is_known() -> None:
    sn = StreamNormalizer(provider="gemini")
    sn.feed(created())
    with pytest.raises(ResponseShapeError) as err:
        sn.feed({"index": 0})
    assert err.value.path == "event_type"
    with pytest.raises(ResponseShapeError):
        sn.feed({"event_type": 3})
    with pytest.raises(ResponseShapeError) as err:
        sn.feed({"event_type": []})  # (not hashable: never looked up in a set)
    assert err.value.path == "event_type"


def test_p15_sdk_stream_objects() -> None:
    pytest.importorskip("google.genai")
    from google.genai._gaos.types.interactions import interaction as itypes
    from google.genai._gaos.types.interactions import interactionsseevent
    from pydantic import TypeAdapter

    resp, events = build(["**A**", "b"], "Hi", SIG_A, None, [1], "completed")
    adapter: TypeAdapter[Any] = TypeAdapter(interactionsseevent.InteractionSSEEvent)
    sn = run([adapter.validate_python(e) for e in events])
    x = normalize(itypes.Interaction.model_validate(resp))
    assert (sn.result.visible, sn.result.reasoning, sn.result.signatures) == (
        x.visible, x.reasoning, x.signatures) == ("Hi", "**A**b", (SIG_A,))
    assert sn.result.blocks == x.blocks


# --- Gemini's OpenAI-compatible endpoint -------------------------------------------------------
def _call(sig: Optional[str], n: int = 1) -> dict[str, Any]:
    c: dict[str, Any] = {"id": f"function-call-{n}", "type": "function",
                         "function": {"name": "check_flight", "arguments": '{"flight":"AA100"}'}}
    if sig is not None:
        c["extra_content"] = {"google": {"thought_signature": sig}}
    return c


def test_p15_compat_signature_on_tool_calls() -> None:
    resp = {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": "Checking.",
                        "tool_calls": [_call(SIG_A), _call(None, 2), _call(SIG_B, 3)]}}]}
    r = normalize(resp)
    assert (r.provider, r.visible, r.reasoning) == ("openai_chat", "Checking.", None)
    assert r.signatures == (SIG_A, SIG_B)
    assert [(b.kind, b.signature, b.wire) for b in r.blocks] == [
        ("opaque", SIG_A, _call(SIG_A)), ("opaque", SIG_B, _call(SIG_B, 3))]
    assert to_message(r)["tool_calls"] == [_call(SIG_A), _call(None, 2), _call(SIG_B, 3)]


def test_p15_compat_stream_gives_what_the_response_gives() -> None:
    chunk = {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {
        "role": "assistant", "tool_calls": [dict(_call(SIG_A), index=0),
                                            dict(_call(None, 2), index=1)]}}]}
    done = {"object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    sn = run([{"object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"role": "assistant", "content": "Checking."}}]}, chunk, done])
    assert (sn.result.visible, sn.result.signatures) == ("Checking.", (SIG_A,))
    assert [(b.kind, b.signature) for b in sn.result.blocks] == [("opaque", SIG_A)]
    assert sn.message["tool_calls"] == [_call(SIG_A), _call(None, 2)]  # type: ignore[index]


@pytest.mark.parametrize(
    ("call", "path"),
    [
        ("x", "choices[0].message.tool_calls[0]"),
        ({"extra_content": "x"}, "choices[0].message.tool_calls[0].extra_content"),
        ({"extra_content": {"google": 1}}, "choices[0].message.tool_calls[0].extra_content.google"),
        ({"extra_content": {"google": {"thought_signature": 2}}},
         "choices[0].message.tool_calls[0].extra_content.google.thought_signature"),
    ],
)
def test_p15_compat_malformed_signature_names_its_path(call: Any, path: str) -> None:
    with pytest.raises(ResponseShapeError) as err:
        normalize({"choices": [{"message": {"content": "", "tool_calls": [call]}}]})
    assert err.value.path == path
    with pytest.raises(ResponseShapeError) as err:
        StreamNormalizer().feed({"choices": [{"delta": {"tool_calls": [call]}}]})
    assert err.value.path == path.replace("message", "delta")


# --- the property: a stream gives what its completed interaction gives -----------------------
TEXT = st.text(alphabet="ab \n*é.", max_size=10)
SIGS = st.one_of(st.none(), st.just(""), st.text(alphabet="ABCxyz+/=", min_size=1, max_size=8))


def _pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:])] or [""]


def build(summary: list[str], answer: str, sig: Optional[str], args: Optional[dict[str, Any]],
          cuts: list[int], status: str, start_text: bool = False,
          usage: Optional[dict[str, Any]] = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An interaction (a thought step, an answer, a function call) and its stream."""
    thought: dict[str, Any] = {"type": "thought"}
    if sig is not None:
        thought["signature"] = sig
    joined = "".join(summary)
    if joined:
        thought["summary"] = [{"type": "text", "text": joined}]
    steps: list[dict[str, Any]] = [thought]
    if answer:
        steps.append(output(answer))
    if args is not None:
        steps.append({"type": "function_call", "id": "c1", "name": "f", "arguments": args})
    resp = {"id": "v1", "object": "interaction", "model": "m", "status": status, "steps": steps}
    if usage is not None:
        resp["usage"] = usage
    ev: list[dict[str, Any]] = [{"event_type": "interaction.created", "interaction": {
        "id": "v1", "object": "interaction", "model": "m", "status": "in_progress"}},
        {"event_type": "interaction.status_update", "interaction_id": "v1",
         "status": "in_progress"}]
    first = summary[0] if start_text and summary and summary[0] else None
    start: dict[str, Any] = {"type": "thought"}
    if first is not None:  # the docs' sample: the first text and a placeholder signature
        start["summary"] = [{"type": "text", "text": first}]
        if sig is not None:
            start["signature"] = ""
    ev.append({"event_type": "step.start", "index": 0, "step": start})
    for piece in summary[1:] if first is not None else summary:
        if piece:
            ev.append(delta(0, type="thought_summary", content={"type": "text", "text": piece}))
    if sig is not None:
        ev.append(delta(0, type="thought_signature", signature=sig))
    ev.append({"event_type": "step.stop", "index": 0})
    n = 1
    if answer:
        ev.append({"event_type": "step.start", "index": n, "step": {"type": "model_output"}})
        ev += [delta(n, type="text", text=p) for p in _pieces(answer, cuts) if p]
        ev.append({"event_type": "step.stop", "index": n})
        n += 1
    if args is not None:
        ev.append({"event_type": "step.start", "index": n, "step": {
            "type": "function_call", "id": "c1", "name": "f", "arguments": {}}})
        ev += [delta(n, type="arguments_delta", arguments=p)
               for p in _pieces(json.dumps(args), cuts) if p]
        ev.append({"event_type": "step.stop", "index": n})
    end: dict[str, Any] = {"id": "v1", "object": "interaction", "model": "m", "status": status}
    if usage is not None:
        end["usage"] = usage
    ev.append({"event_type": "interaction.completed", "interaction": end})
    return resp, ev


COUNTS = st.one_of(st.none(), st.integers(0, 500))


@st.composite
def usages(draw: Any) -> Optional[dict[str, Any]]:
    if draw(st.booleans()):
        return None
    keys = ("total_input_tokens", "total_output_tokens", "total_thought_tokens", "total_tokens")
    return {k: v for k in keys if (v := draw(COUNTS)) is not None}


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, max_size=4), TEXT, SIGS,
       st.one_of(st.none(), st.sampled_from([{}, {"city": "Paris"}, {"n": [1, 2]}])),
       st.lists(st.integers(0, 12), max_size=4),
       st.sampled_from(["completed", "requires_action", "incomplete"]), st.booleans(),
       usages(), st.sampled_from([None, "gemini"]))
def test_p15_stream_equals_completed_interaction(
    summary: list[str], answer: str, sig: Optional[str], args: Optional[dict[str, Any]],
    cuts: list[int], status: str, start_text: bool, usage: Optional[dict[str, Any]],
    provider: Optional[str],
) -> None:
    # P15, P9, X1, X2: event by event, the same Extraction, blocks and turn as normalize
    resp, events = build(summary, answer, sig, args, cuts, status, start_text, usage)
    resp_copy, events_copy = copy.deepcopy(resp), copy.deepcopy(events)
    x = normalize(resp, provider=provider)
    sn = StreamNormalizer(provider=provider)
    deltas = [sn.feed(e) for e in events] + [sn.close()]
    y = sn.result
    assert (y.visible, y.reasoning, y.signatures, y.usage, y.finish_reason, y.format) == (
        x.visible, x.reasoning, x.signatures, x.usage, x.finish_reason, x.format)
    assert y == x
    assert y.blocks == x.blocks
    assert [b.wire for b in y.blocks] == [b.wire for b in x.blocks]
    assert sn.message == to_message(x) == to_message(resp) == to_message(y)
    assert "".join(d.visible for d in deltas).strip() == x.visible.strip()  # P9
    assert "".join(d.reasoning for d in deltas).strip() == (x.reasoning or "").strip()
    assert x.signatures == tuple(b.signature for b in x.blocks if b.signature)
    assert resp == resp_copy and events == events_copy
