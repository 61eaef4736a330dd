"""ReasoningContext and Segment: the cache, attach and persistence (X3, X4, X5)."""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    Extraction,
    ReasoningContext,
    Segment,
    UnknownProviderError,
    normalize,
    to_message,
)

SIG = "RXFvQmMyaWc="


def anthropic(n: int, *, tool: bool = True, thinking: bool = True) -> dict[str, Any]:
    """An Anthropic response of round ``n``."""
    content: list[Any] = []
    if thinking:
        content.append({"type": "thinking", "thinking": f"think {n}", "signature": f"{SIG}{n}"})
    content.append({"type": "text", "text": f"Answer {n}."})
    if tool:
        content.append({"type": "tool_use", "id": f"toolu_{n}", "name": "f", "input": {"n": n}})
    return {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-x",
            "content": content, "stop_reason": "tool_use" if tool else "end_turn",
            "usage": {"input_tokens": 1, "output_tokens": 1}}


def naive(resp: dict[str, Any]) -> dict[str, Any]:
    """The assistant turn as an application that keeps only text and tool calls stores it."""
    return {"role": "assistant", "content": [
        copy.deepcopy(b) for b in resp["content"] if b["type"] in ("text", "tool_use")]}


def anthropic_request(*turns: dict[str, Any], thinking: Any = None) -> dict[str, Any]:
    messages: list[Any] = [{"role": "user", "content": "q"}]
    for t in turns:
        messages.append(naive(t))
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b["id"], "content": "1"}
            for b in t["content"] if b["type"] == "tool_use"] or "next"})
    req = {"model": "claude-x", "max_tokens": 10, "messages": messages}
    if thinking is not False:
        req["thinking"] = thinking or {"type": "enabled", "budget_tokens": 1024}
    return req


# --- X3 the cache ----------------------------------------------------------------------------
def test_segment_records_the_turn() -> None:  # X3
    ctx = ReasoningContext()
    resp = anthropic(1)
    ctx.update(resp)
    (seg,) = ctx.segments
    assert isinstance(seg, Segment)
    assert (seg.provider, seg.model, seg.ids) == ("anthropic", "claude-x", ("toolu_1", "Answer 1."))
    assert seg.blocks == normalize(resp).blocks
    assert seg.message == {"role": "assistant", "content": resp["content"]} == to_message(resp)
    m = seg.message
    m["content"].clear()  # a copy per access: the cache is untouched
    assert seg.message == to_message(resp)
    hash(seg)


def test_newest_n_and_clear_and_reset() -> None:  # X3
    ctx = ReasoningContext(max_segments=2)
    for n in (1, 2, 3):
        ctx.update(anthropic(n))
    assert [s.ids[0] for s in ctx.segments] == ["toolu_2", "toolu_3"]
    ctx.update(anthropic(4, thinking=False))  # no blocks: clears
    assert ctx.segments == ()
    ctx.update(normalize(anthropic(5)))  # an Extraction from normalize works too
    assert len(ctx.segments) == 1
    ctx.reset()
    assert ctx.segments == ()
    unbounded = ReasoningContext(max_segments=None)
    for n in range(1, 8):
        unbounded.update(anthropic(n))
    assert len(unbounded.segments) == 7


def test_signature_only_and_id_only_turns_are_kept() -> None:  # X3: any block counts
    ctx = ReasoningContext()
    omitted = anthropic(1)
    omitted["content"][0]["thinking"] = ""
    ctx.update(omitted)
    ctx.update({"id": "resp_1", "object": "response", "model": "gpt-5", "status": "completed",
                "output": [{"type": "reasoning", "id": "rs_1", "summary": []},
                           {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                            "name": "f", "arguments": "{}"}]})
    assert [s.provider for s in ctx.segments] == ["anthropic", "openai_responses"]
    assert ctx.segments[0].blocks[0].kind == "opaque"
    assert ctx.segments[1].ids == ("call_1", "")


# --- X4 attach -------------------------------------------------------------------------------
def test_attach_replaces_matching_turns_and_never_mutates() -> None:  # X4
    r1, r2 = anthropic(1), anthropic(2)
    ctx = ReasoningContext()
    ctx.update(r1)
    ctx.update(r2)
    req = anthropic_request(r1, r2)
    before = copy.deepcopy(req)
    out = ctx.attach(req)
    assert req == before
    assert out["messages"][1] == to_message(r1) and out["messages"][3] == to_message(r2)
    assert out["messages"][0] is req["messages"][0]  # unchanged values may be shared
    assert out["messages"] is not req["messages"]
    assert {k: v for k, v in out.items() if k != "messages"} == {
        k: v for k, v in req.items() if k != "messages"}
    out["messages"][1]["content"].clear()
    assert ctx.attach(req)["messages"][1] == to_message(r1)  # the cache is untouched


def test_attach_by_identity_not_position() -> None:  # X4
    r1, r2, r3 = anthropic(1), anthropic(2), anthropic(3)
    ctx = ReasoningContext()
    for r in (r1, r2, r3):
        ctx.update(r)
    req = anthropic_request(r1, r2, r3)
    req["messages"][5] = to_message(r3)  # already carries reasoning: left alone
    del req["messages"][1:3]  # history trimmed: r1's segment matches nothing
    out = ctx.attach(req)
    assert out["messages"][1] == to_message(r2)
    assert out["messages"][3] is req["messages"][3]
    edited = anthropic_request(r2)
    edited["messages"][1]["content"][0]["text"] = "Something else."
    assert ctx.attach(edited) == edited
    spaced = anthropic_request(r2)
    spaced["messages"][1]["content"][0]["text"] = "  Answer\n 2. "
    assert ctx.attach(spaced)["messages"][1] == to_message(r2)


@pytest.mark.parametrize("thinking", [False, {"type": "disabled"}])
def test_attach_anthropic_without_thinking_is_an_equal_copy(thinking: Any) -> None:  # X4
    ctx = ReasoningContext()
    ctx.update(anthropic(1))
    req = anthropic_request(anthropic(1), thinking=thinking)
    out = ctx.attach(req)
    assert out == req and out is not req


def test_attach_empty_cache_and_foreign_drop() -> None:  # X4
    req = anthropic_request(anthropic(1))
    assert ReasoningContext().attach(req) == req
    ctx = ReasoningContext()
    ctx.update(anthropic(1))
    other = dict(req, model="claude-other")
    assert ctx.attach(other) == other  # another model: dropped
    assert ctx.attach(dict(req, model="claude-x-20250929"))["messages"][1] == to_message(
        anthropic(1))  # a dated snapshot is the same model
    chat = {"model": "deepseek-v4", "messages": [{"role": "user", "content": "q"},
                                                 {"role": "assistant", "content": "Answer 1.",
                                                  "tool_calls": [{"id": "toolu_1", "type":
                                                                  "function", "function": {
                                                                      "name": "f",
                                                                      "arguments": "{}"}}]}]}
    before = copy.deepcopy(chat)
    assert ctx.attach(chat, provider="openai_chat") == chat == before  # foreign="drop"
    text = ctx.attach(chat, provider="openai_chat", foreign="text")
    assert text["messages"][1] == dict(chat["messages"][1], reasoning_content="think 1")
    assert chat == before
    named = ctx.attach(chat, provider="openai_chat", foreign="text", reasoning_field="reasoning")
    assert named["messages"][1] == dict(chat["messages"][1], reasoning="think 1")
    assert ctx.attach(chat, provider="openai_chat", foreign="text", reasoning_field=False) == chat
    assert ctx.attach(chat, provider="anthropic", foreign="text") == chat  # no thinking key


def responses_turn(n: int, *, enc: bool = False, store: Any = None) -> dict[str, Any]:
    rs: dict[str, Any] = {"type": "reasoning", "id": f"rs_{n}",
                          "summary": [{"type": "summary_text", "text": f"plan {n}"}]}
    if enc:
        rs["encrypted_content"] = f"ENC{n}"
    out = {"id": f"resp_{n}", "object": "response", "model": "gpt-5", "status": "completed",
           "output": [rs, {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
                           "name": "f", "arguments": "{}", "status": "completed"}]}
    if store is not None:
        out["store"] = store
    return out


def test_attach_responses() -> None:  # X4
    ctx = ReasoningContext()
    r = responses_turn(1)
    ctx.update(r)
    call = {k: v for k, v in r["output"][1].items() if k not in ("id", "status")}
    output = {"type": "function_call_output", "call_id": "call_1", "output": "1"}
    req = {"model": "gpt-5", "input": [{"role": "user", "content": "q"}, call, output]}
    out = ctx.attach(req)
    assert out["input"] == [req["input"][0], *r["output"], output]
    assert ctx.attach(dict(req, previous_response_id="resp_0")) == dict(
        req, previous_response_id="resp_0")
    assert ctx.attach(dict(req, conversation="conv_1")) == dict(req, conversation="conv_1")
    # store: false drops an id-only reasoning item and the ids after it
    stateless = ctx.attach(dict(req, store=False))
    assert stateless["input"] == [req["input"][0], {k: v for k, v in r["output"][1].items()
                                                    if k != "id"}, output]
    enc = ReasoningContext()
    enc.update(responses_turn(2, enc=True))
    req2 = {"model": "gpt-5", "store": False, "input": [
        {"role": "user", "content": "q"},
        {"type": "function_call", "call_id": "call_2", "name": "f", "arguments": "{}"}]}
    assert enc.attach(req2)["input"][1:] == responses_turn(2, enc=True)["output"]


def test_attach_chat_reasoning_field() -> None:  # X4
    resp = {"id": "c1", "object": "chat.completion", "model": "deepseek-v4", "choices": [{
        "index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "", "reasoning_content": "why",
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "f", "arguments": "{}"}}]}}]}
    ctx = ReasoningContext(max_segments=None)
    ctx.update(resp)
    turn = {"role": "assistant", "content": "", "tool_calls": resp["choices"][0]["message"][
        "tool_calls"]}
    req = {"model": "deepseek-v4", "messages": [{"role": "user", "content": "q"}, turn]}
    assert ctx.attach(req)["messages"][1] == resp["choices"][0]["message"]
    assert ctx.attach(req, reasoning_field="reasoning")["messages"][1] == dict(
        turn, reasoning="why")
    assert "reasoning_content" not in ctx.attach(req, reasoning_field=False)["messages"][1]


# --- X5 persistence and errors ---------------------------------------------------------------
def test_round_trip() -> None:  # X5
    ctx = ReasoningContext(max_segments=None)
    ctx.update(anthropic(1))
    ctx.update(responses_turn(2, enc=True))
    d = ctx.to_dict()
    assert d["version"] == 1 and d["max_segments"] is None
    back = ReasoningContext.from_dict(json.loads(json.dumps(d)))
    assert back == ctx and back.segments == ctx.segments
    assert [s.message for s in back.segments] == [s.message for s in ctx.segments]
    assert [b.wire for s in back.segments for b in s.blocks] == [
        b.wire for s in ctx.segments for b in s.blocks]
    assert ReasoningContext(max_segments=2) != ReasoningContext(max_segments=3)


@pytest.mark.parametrize(("d", "message"), [
    ({"version": 2, "max_segments": 3, "segments": []}, "version: 2 is newer"),
    ({"max_segments": 3, "segments": []}, "version: missing or not an int"),
    ({"version": 1, "segments": []}, "max_segments: missing"),
    ({"version": 1, "max_segments": 0, "segments": []}, "max_segments must be >= 1"),
    ({"version": 1, "max_segments": 3, "segments": {}}, "segments: expected a list"),
    ({"version": 1, "max_segments": 3, "segments": [{"provider": "anthropic"}]},
     "segments[0].model: missing"),
    ({"version": 1, "max_segments": 3, "segments": [
        {"provider": "anthropic", "model": None, "ids": ["a"], "message": {}, "blocks": [
            {"kind": "bogus"}]}]}, "segments[0].blocks[0].kind: expected one of"),
])
def test_from_dict_errors(d: dict[str, Any], message: str) -> None:  # X5
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        ReasoningContext.from_dict(d)
    with pytest.raises(TypeError):
        ReasoningContext.from_dict([])  # type: ignore[arg-type]


def test_argument_errors() -> None:  # X5
    with pytest.raises(TypeError, match="max_segments"):
        ReasoningContext(max_segments=True)
    with pytest.raises(ValueError, match="max_segments"):
        ReasoningContext(max_segments=0)
    with pytest.raises(TypeError, match="max_segments"):
        ReasoningContext(max_segments="3")  # type: ignore[arg-type]
    ctx = ReasoningContext()
    ctx.update(anthropic(1))
    with pytest.raises(TypeError, match="request"):
        ctx.attach([])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="foreign"):
        ctx.attach({}, foreign="keep")
    with pytest.raises(UnknownProviderError, match="provider"):
        ctx.attach({}, provider="nope")
    with pytest.raises(UnknownProviderError):
        ctx.update({"what": "ever"})
    with pytest.raises(TypeError):
        ctx.update(42)
    hand = Extraction("v", None, None, 0, False, (), "anthropic", "none")
    with pytest.raises(ValueError, match="carries no message"):
        ctx.update(hand)
    assert len(ctx.segments) == 1  # failed updates change nothing


def test_thread_safe_updates() -> None:  # X3
    ctx = ReasoningContext(max_segments=None)
    responses = [anthropic(n) for n in range(200)]

    def work(part: list[dict[str, Any]]) -> None:
        for r in part:
            ctx.update(r)
            ctx.attach(anthropic_request(r))

    threads = [threading.Thread(target=work, args=(responses[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(s.ids[0] for s in ctx.segments) == sorted(f"toolu_{n}" for n in range(200))


# --- properties --------------------------------------------------------------------------------
STEPS = st.lists(st.one_of(st.integers(0, 5), st.just("reset")), max_size=12)


def _response(kind: int, n: int) -> dict[str, Any]:
    """Six turn shapes: Anthropic with/without thinking, Responses, Chat, Gemini, Ollama."""
    if kind == 0:
        return anthropic(n)
    if kind == 1:
        return anthropic(n, thinking=False)
    if kind == 2:
        return responses_turn(n, enc=n % 2 == 0)
    if kind == 3:
        return {"object": "chat.completion", "model": "deepseek-v4", "choices": [{
            "index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": f"A{n}", "reasoning_content": f"r{n}"}}]}
    if kind == 4:
        return {"candidates": [{"content": {"role": "model", "parts": [
            {"text": f"t{n}", "thought": True},
            {"functionCall": {"name": "f", "args": {"n": n}}, "thoughtSignature": "c2ln"}]},
            "finishReason": "STOP"}], "modelVersion": "gemini-3-pro"}
    return {"model": "qwen3", "message": {"role": "assistant", "content": f"A{n}",
                                          "thinking": f"o{n}"}, "done": True}


@settings(max_examples=60, deadline=None)
@given(steps=STEPS, cap=st.one_of(st.none(), st.integers(1, 4)))
def test_cache_semantics(steps: list[Any], cap: Any) -> None:  # X3
    ctx = ReasoningContext(max_segments=cap)
    model: list[str] = []
    for n, step in enumerate(steps):
        if step == "reset":
            ctx.reset()
            model = []
            continue
        resp = _response(step, n)
        ctx.update(resp)
        if not normalize(resp).blocks:
            model = []
        else:
            model.append(json.dumps(to_message(resp), sort_keys=True))
            model = model if cap is None else model[-cap:]
    assert [json.dumps(s.message, sort_keys=True) for s in ctx.segments] == model
    back = ReasoningContext.from_dict(json.loads(json.dumps(ctx.to_dict())))  # X5
    assert back == ctx and back.to_dict() == ctx.to_dict()


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.integers(0, 5), min_size=1, max_size=6),
       foreign=st.sampled_from(["drop", "text"]),
       provider=st.sampled_from(["anthropic", "openai_chat", "openai_responses", "gemini",
                                 "ollama", "bedrock"]))
def test_attach_never_mutates(steps: list[int], foreign: str, provider: str) -> None:  # X4
    ctx = ReasoningContext(max_segments=None)
    for n, kind in enumerate(steps):
        ctx.update(_response(kind, n))
    req = {"model": "m", "thinking": {"type": "enabled"}, "messages": [
        {"role": "user", "content": "q"}, {"role": "assistant", "content": "A0"},
        naive(anthropic(1))], "input": [{"role": "assistant", "content": "A1"}],
        "contents": [{"role": "model", "parts": [{"text": "A2"}]}]}
    snapshot = (copy.deepcopy(req), ctx.to_dict())
    out = ctx.attach(req, provider=provider, foreign=foreign)
    assert (req, ctx.to_dict()) == snapshot
    assert set(out) == set(req)
    changed = {k for k in req if out[k] != req[k]}
    assert changed <= {"messages", "input", "contents"}


def test_attach_bedrock_needs_thinking_and_gemini_matches_calls_by_name() -> None:  # X4
    resp = {"output": {"message": {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": "why", "signature": "c2ln"}}},
        {"toolUse": {"toolUseId": "tu_1", "name": "f", "input": {"a": 1}}}]}},
        "stopReason": "tool_use"}
    ctx = ReasoningContext()
    ctx.update(resp)
    turn = {"role": "assistant", "content": [resp["output"]["message"]["content"][1]]}
    req = {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "q"}]}, turn]}
    assert ctx.attach(req) == req  # no thinking in additionalModelRequestFields
    on = dict(req, additionalModelRequestFields={"thinking": {"type": "enabled"}})
    assert ctx.attach(on)["messages"][1] == resp["output"]["message"]
    off = dict(req, additionalModelRequestFields={"thinking": {"type": "disabled"}})
    assert ctx.attach(off) == off
    gem = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"b": 2, "a": 1}}, "thoughtSignature": "c2ln"}]},
        "finishReason": "STOP"}]}
    ctx.update(gem)
    assert ctx.segments[-1].ids == ('f({"a":1,"b":2})', "")
    greq = {"contents": [{"role": "user", "parts": [{"text": "q"}]}, {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"a": 1, "b": 2}}}]}]}
    assert ctx.attach(greq)["contents"][1] == gem["candidates"][0]["content"]


def test_segment_is_independent_of_the_callers_response() -> None:  # X3, X5
    resp = anthropic(1)
    ctx = ReasoningContext()
    ctx.update(resp)
    expected = copy.deepcopy(ctx.to_dict())
    resp["content"][0]["thinking"] = "changed afterwards"
    resp["content"].append({"type": "text", "text": "more"})
    assert ctx.to_dict() == expected
    assert ctx.segments[0].blocks[0].wire["thinking"] == "think 1"
