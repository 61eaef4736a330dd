"""Property: for generated streams of every family, the streamed blocks and message equal the
one-shot ones (X1, X2), inputs are never mutated, and the signature invariant holds."""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer, normalize, to_message

TEXT = st.text(alphabet="ab \n.é<>", max_size=12)
PIECES = st.lists(TEXT, min_size=1, max_size=4)
SIG = st.text(alphabet="ABCxyz+/=", min_size=1, max_size=8)


def _split(s: str, cuts: list[int]) -> list[str]:
    out, prev = [], 0
    for c in sorted({min(max(c, 0), len(s)) for c in cuts}):
        out.append(s[prev:c])
        prev = c
    out.append(s[prev:])
    return [p for p in out if p] or [""]


Turn = tuple[dict[str, Any], list[dict[str, Any]]]


def anthropic(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    thinking = "".join(th)
    content = [{"type": "thinking", "thinking": thinking, "signature": sig},
               {"type": "text", "text": ans},
               {"type": "tool_use", "id": "t1", "name": "f", "input": json.loads(args)}]
    resp = {"type": "message", "role": "assistant", "model": "m", "content": content,
            "stop_reason": "tool_use"}
    ev: list[dict[str, Any]] = [{"type": "message_start", "message": {
        "type": "message", "role": "assistant", "model": "m", "content": []}}]
    ev.append({"type": "content_block_start", "index": 0,
               "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
    ev += [{"type": "content_block_delta", "index": 0,
            "delta": {"type": "thinking_delta", "thinking": p}} for p in th]
    ev += [{"type": "content_block_delta", "index": 0,
            "delta": {"type": "signature_delta", "signature": p}} for p in _split(sig, cuts)]
    ev.append({"type": "content_block_stop", "index": 0})
    ev.append({"type": "content_block_start", "index": 1,
               "content_block": {"type": "text", "text": ""}})
    ev += [{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta",
                                                                  "text": p}}
           for p in _split(ans, cuts)]
    ev.append({"type": "content_block_stop", "index": 1})
    ev.append({"type": "content_block_start", "index": 2, "content_block": {
        "type": "tool_use", "id": "t1", "name": "f", "input": {}}})
    ev += [{"type": "content_block_delta", "index": 2, "delta": {
        "type": "input_json_delta", "partial_json": p}} for p in _split(args, cuts)]
    ev.append({"type": "content_block_stop", "index": 2})
    ev.append({"type": "message_delta", "delta": {"stop_reason": "tool_use"}})
    return resp, ev


def bedrock(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    content = [{"reasoningContent": {"reasoningText": {"text": "".join(th), "signature": sig}}},
               {"text": ans},
               {"toolUse": {"toolUseId": "u1", "name": "f", "input": json.loads(args)}}]
    resp = {"output": {"message": {"role": "assistant", "content": content}},
            "stopReason": "tool_use"}
    ev: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    ev += [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {
        "reasoningContent": {"text": p}}}} for p in th]
    ev += [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {
        "reasoningContent": {"signature": p}}}} for p in _split(sig, cuts)]
    ev.append({"contentBlockStop": {"contentBlockIndex": 0}})
    ev += [{"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": p}}}
           for p in _split(ans, cuts)]
    ev.append({"contentBlockStart": {"contentBlockIndex": 2, "start": {
        "toolUse": {"toolUseId": "u1", "name": "f"}}}})
    ev += [{"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"toolUse": {"input": p}}}}
           for p in _split(args, cuts)]
    ev.append({"messageStop": {"stopReason": "tool_use"}})
    return resp, ev


def responses(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    rs = {"id": "rs_1", "type": "reasoning",
          "summary": [{"type": "summary_text", "text": p} for p in th],
          "encrypted_content": sig}
    msg = {"id": "msg_1", "type": "message", "role": "assistant",
           "content": [{"type": "output_text", "text": ans, "annotations": []}]}
    fc = {"id": "fc_1", "type": "function_call", "call_id": "c", "name": "f", "arguments": args}
    resp = {"object": "response", "model": "m", "status": "completed", "output": [rs, msg, fc]}
    ev: list[dict[str, Any]] = [{"type": "response.created", "response": {
        "object": "response", "model": "m", "status": "in_progress", "output": []}}]
    for j, p in enumerate(th):
        ev += [{"type": "response.reasoning_summary_text.delta", "output_index": 0,
                "summary_index": j, "delta": x} for x in _split(p, cuts)]
    ev.append({"type": "response.output_item.done", "output_index": 0, "item": rs})
    ev += [{"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
            "delta": x} for x in _split(ans, cuts)]
    ev.append({"type": "response.output_item.done", "output_index": 1, "item": msg})
    ev.append({"type": "response.output_item.done", "output_index": 2, "item": fc})
    ev.append({"type": "response.completed", "response": {
        "object": "response", "model": "m", "status": "completed", "output": []}})
    return resp, ev


def gemini(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    parts = [{"text": "".join(th), "thought": True},
             {"functionCall": {"name": "f", "args": json.loads(args)}, "thoughtSignature": sig},
             {"text": ans, "thoughtSignature": sig + "2"}]
    resp = {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP"}], "modelVersion": "g"}

    def chunk(p: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {"candidates": [{"content": {"role": "model", "parts": [p]}, **extra}],
                "modelVersion": "g"}

    ev = [chunk({"text": p, "thought": True}) for p in th]
    ev.append(chunk(parts[1]))
    ev += [chunk({"text": p}) for p in _split(ans, cuts)]
    ev.append(chunk({"text": "", "thoughtSignature": sig + "2"}, finishReason="STOP"))
    return resp, ev


def chat(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    tc = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": args}}
    msg = {"role": "assistant", "content": ans, "reasoning_content": "".join(th),
           "tool_calls": [tc]}
    resp = {"model": "m", "choices": [{"index": 0, "message": msg,
                                       "finish_reason": "tool_calls"}]}

    def chunk(d: dict[str, Any]) -> dict[str, Any]:
        return {"model": "m", "choices": [{"index": 0, "delta": d, "finish_reason": None}]}

    ev = [chunk({"role": "assistant", "reasoning_content": ""})]
    ev += [chunk({"reasoning_content": p}) for p in th]
    ev += [chunk({"content": p}) for p in _split(ans, cuts)]
    ev.append(chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                     "function": {"name": "f", "arguments": ""}}]}))
    ev += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]})
           for p in _split(args, cuts)]
    ev.append({"model": "m", "choices": [{"index": 0, "delta": {},
                                          "finish_reason": "tool_calls"}]})
    return resp, ev


def ollama(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    call = {"function": {"name": "f", "arguments": json.loads(args)}}
    resp = {"model": "q", "message": {"role": "assistant", "content": ans,
                                      "thinking": "".join(th), "tool_calls": [call]},
            "done": True, "done_reason": "stop"}
    ev = [{"model": "q", "message": {"role": "assistant", "content": "", "thinking": p},
           "done": False} for p in th]
    ev += [{"model": "q", "message": {"role": "assistant", "content": p}, "done": False}
           for p in _split(ans, cuts)]
    ev.append({"model": "q", "message": {"role": "assistant", "content": "",
                                         "tool_calls": [call]}, "done": False})
    ev.append({"model": "q", "message": {"role": "assistant", "content": ""}, "done": True,
               "done_reason": "stop"})
    return resp, ev


def cohere(th: list[str], ans: str, sig: str, args: str, cuts: list[int]) -> Turn:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": args}}
    msg = {"role": "assistant", "content": [{"type": "thinking", "thinking": "".join(th)},
                                            {"type": "text", "text": ans}],
           "tool_calls": [call]}
    resp = {"id": "r", "finish_reason": "TOOL_CALL", "message": msg}

    def content(i: int, kind: str, piece: str) -> dict[str, Any]:
        return {"type": "content-delta", "index": i,
                "delta": {"message": {"content": {kind: piece}}}}

    ev: list[dict[str, Any]] = [{"id": "r", "type": "message-start",
                                 "delta": {"message": {"role": "assistant"}}}]
    ev.append({"type": "content-start", "index": 0,
               "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}}})
    ev += [content(0, "thinking", p) for p in th]
    ev.append({"type": "content-start", "index": 1,
               "delta": {"message": {"content": {"type": "text", "text": ""}}}})
    ev += [content(1, "text", p) for p in _split(ans, cuts)]
    ev.append({"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": {
        **call, "function": {"name": "f", "arguments": ""}}}}})
    ev += [{"type": "tool-call-delta", "index": 0, "delta": {"message": {"tool_calls": {
        "function": {"arguments": p}}}}} for p in _split(args, cuts)]
    ev.append({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL"}})
    return resp, ev


FAMILIES: list[Callable[..., Turn]] = [anthropic, bedrock, responses, gemini, chat, ollama,
                                       cohere]
ARGS = st.sampled_from(['{"a": 1}', '{"city": "Paris", "n": [1, 2]}', "{}"])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FAMILIES), PIECES, TEXT, SIG, ARGS,
       st.lists(st.integers(0, 20), max_size=4))
def test_streamed_turn_equals_one_shot(
    family: Callable[..., Turn], th: list[str], ans: str, sig: str, args: str,
    cuts: list[int],
) -> None:
    # X1, X2, P18: one-shot and streamed blocks (with their wire), messages and results are equal
    resp, events = family(th, ans, sig, args, cuts)
    resp_copy, events_copy = copy.deepcopy(resp), copy.deepcopy(events)
    x = normalize(resp)
    sn = StreamNormalizer()
    for e in events:
        sn.feed(e)
    sn.close()
    y = sn.result
    assert y.blocks == x.blocks
    assert [b.wire for b in y.blocks] == [b.wire for b in x.blocks]
    assert sn.message == to_message(x) == to_message(resp)
    assert to_message(y) == sn.message
    assert x.signatures == tuple(b.signature for b in x.blocks if b.signature)
    assert y.signatures == tuple(b.signature for b in y.blocks if b.signature)
    assert (x.reasoning, x.visible) == (y.reasoning, y.visible)
    # P18: the same rules one-shot and streamed, the rest of the result included
    assert (x.usage, x.finish_reason, x.format, x.reasoning_closed, x.preset) == (
        y.usage, y.finish_reason, y.format, y.reasoning_closed, y.preset)
    assert resp == resp_copy and events == events_copy  # inputs never mutated
