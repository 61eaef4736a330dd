"""Lossless reasoning blocks (X1) and the assistant turn for the next request (X2).

Fixtures under ``tests/data/replay`` hold a response *and* the stream that adds up to it, with the
blocks and the message derived from the providers' request types (Anthropic ThinkingBlockParam /
RedactedThinkingBlockParam, openai ResponseReasoningItemParam, google-genai Part, Bedrock
ReasoningContentBlock, Chat message params): both modes must give exactly those.
"""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest
from _support import DATA, load_json

from thinkparse import (
    Extraction,
    ReasoningBlock,
    ResponseShapeError,
    StreamNormalizer,
    normalize,
    to_message,
)
from thinkparse._types import turn_of

REPLAY = sorted((DATA / "replay").glob("*.json"))
CASES = {p.stem: load_json(p) for p in REPLAY}


def blocks_as_dicts(x: Extraction) -> list[dict[str, Any]]:
    return [
        {"kind": b.kind, "text": b.text, "signature": b.signature, "data": b.data, "id": b.id,
         "wire": b.wire}
        for b in x.blocks
    ]


def stream(events: list[Any], **kw: Any) -> StreamNormalizer:
    sn = StreamNormalizer(**kw)
    for e in events:
        sn.feed(e)
    sn.close()
    return sn


def test_every_family_has_a_replay_fixture() -> None:
    assert {c["provider"] for c in CASES.values()} == {
        "openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama", "cohere"
    }


@pytest.mark.parametrize("name", list(CASES))
def test_replay_fixture_one_shot(name: str) -> None:
    # X1, X2: blocks in wire order with their wire form; the message in request format
    case = CASES[name]
    response = copy.deepcopy(case["response"])
    x = normalize(response, provider=case["provider"])
    assert blocks_as_dicts(x) == case["blocks"]
    assert to_message(x) == case["message"]
    assert to_message(response) == case["message"]  # to_message(normalize(r)) == to_message(r)
    assert x.finish_reason == case["finish_reason"]  # W4
    assert x.signatures == tuple(b.signature for b in x.blocks if b.signature)  # X1
    assert response == case["response"]  # inputs never mutated


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("detect", [False, True])
def test_replay_fixture_stream(name: str, detect: bool) -> None:
    # X1, X2: a stream gives the same blocks and message as its non-streamed twin
    case = CASES[name]
    events = copy.deepcopy(case["events"])
    sn = stream(events, provider=None if detect else case["provider"])
    assert blocks_as_dicts(sn.result) == case["blocks"]
    assert sn.message == case["message"]
    assert to_message(sn.result) == sn.message
    assert sn.result.finish_reason == case["finish_reason"]
    assert sn.result == normalize(copy.deepcopy(case["response"]))
    assert sn.result.signatures == tuple(b.signature for b in sn.result.blocks if b.signature)
    assert events == case["events"]


def test_wire_is_a_fresh_deep_copy() -> None:
    # X1: wire is a new deep copy per access; the block keeps its own copy
    case = CASES["anthropic_tool_use"]
    response = copy.deepcopy(case["response"])
    b = normalize(response).blocks[0]
    w = b.wire
    assert w == {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBsig1"}
    w["thinking"] = "changed"
    assert b.wire["thinking"] == "Need the weather."
    assert b.wire is not b.wire
    response["content"][0]["thinking"] = "mutated later"
    assert b.wire["thinking"] == "Need the weather."


def test_message_is_a_fresh_copy() -> None:
    # X2: the message shares nothing with the response
    response = copy.deepcopy(CASES["bedrock_tool_use"]["response"])
    m = to_message(response)
    assert isinstance(m, dict)
    m["content"][3]["toolUse"]["input"]["city"] = "Rome"
    assert response == CASES["bedrock_tool_use"]["response"]


def test_block_equality_and_hash_leave_wire_out() -> None:
    # X1: frozen; hash excludes wire
    a = ReasoningBlock("text", "t", "s", None, None, "anthropic", {"a": 1})
    b = ReasoningBlock("text", "t", "s", None, None, "anthropic", {"a": 2})
    assert a == b and hash(a) == hash(b)
    assert a.wire == {"a": 1}
    with pytest.raises(AttributeError):
        a.text = "x"  # type: ignore[misc]


def test_hand_built_extraction_has_no_turn() -> None:
    # X2: an Extraction built by hand raises ValueError
    x = Extraction("v", None, None, 0, False, (), "openai_chat", "none")
    assert turn_of(x) is None
    assert x.blocks == ()
    with pytest.raises(ValueError, match="built by hand"):
        to_message(x)


def test_legacy_completions_have_no_message() -> None:
    # X2: legacy Completions raise ValueError
    r = {"object": "text_completion", "choices": [{"index": 0, "text": "hi"}]}
    assert normalize(r).visible == "hi"
    with pytest.raises(ValueError, match="legacy Completions"):
        to_message(r)


def test_message_before_close() -> None:
    sn = StreamNormalizer()
    with pytest.raises(RuntimeError):
        _ = sn.message


def test_turn_contract() -> None:
    # the internal contract other modules build on: turn_of, Turn.provider/.model/.blocks/.message
    x = normalize(CASES["anthropic_tool_use"]["response"])
    t = turn_of(x)
    assert t is not None
    assert t.provider == "anthropic"
    assert t.model == "claude-sonnet-4-5"
    assert t.blocks == x.blocks
    assert t.message() == CASES["anthropic_tool_use"]["message"]
    g = turn_of(normalize(CASES["gemini_function_call"]["response"]))
    assert g is not None and g.model == "gemini-3-pro"


# --- Responses: store ---------------------------------------------------------------------------
def _responses(store: Any = None) -> dict[str, Any]:
    r: dict[str, Any] = {
        "object": "response",
        "output": [
            {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": None},
            {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": "Hi", "annotations": [],
                          "logprobs": None}]},
            {"id": "rs_2", "type": "reasoning", "summary": [], "encrypted_content": "ENC"},
            {"id": "fc_1", "type": "function_call", "call_id": "c1", "name": "f",
             "arguments": "{}"},
            {"id": "rs_3", "type": "reasoning", "summary": []},
        ],
    }
    if store is not None:
        r["store"] = store
    return r


def test_responses_store_true_keeps_items_drops_nulls_and_truncated_tail() -> None:
    # X2: verbatim except null keys; a reasoning item with no following item is left out
    m = to_message(_responses())
    assert m == [
        {"id": "rs_1", "type": "reasoning", "summary": []},
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Hi", "annotations": []}]},
        {"id": "rs_2", "type": "reasoning", "summary": [], "encrypted_content": "ENC"},
        {"id": "fc_1", "type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    ]
    x = normalize(_responses())
    assert [b.id for b in x.blocks] == ["rs_1", "rs_2", "rs_3"]  # kept in blocks
    assert [b.kind for b in x.blocks] == ["opaque", "opaque", "opaque"]
    assert x.blocks[1].data == "ENC"


@pytest.mark.parametrize(("own", "arg"), [(False, None), (None, False), (True, False)])
def test_responses_store_false(own: Any, arg: Any) -> None:
    # X2: store=False (or the response's own store) leaves out reasoning items without
    # encrypted_content; other items lose their id
    m = to_message(_responses(own), store=arg)
    assert m == [
        {"type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Hi", "annotations": []}]},
        {"id": "rs_2", "type": "reasoning", "summary": [], "encrypted_content": "ENC"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    ]


# --- Chat: reasoning fields ----------------------------------------------------------------------
def _chat(msg: dict[str, Any]) -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", **msg}}]}


def test_chat_fields_as_received() -> None:
    # X2: each reasoning key the response carried, verbatim; none added
    assert to_message(_chat({"content": "a", "reasoning": "r"})) == {
        "role": "assistant", "content": "a", "reasoning": "r"}
    assert to_message(_chat({"content": "<think>x</think>a"})) == {
        "role": "assistant", "content": "<think>x</think>a"}
    assert to_message(_chat({"content": None, "refusal": "no"})) == {
        "role": "assistant", "content": None, "refusal": "no"}
    both = _chat({"content": "a", "reasoning": "r", "reasoning_content": "r"})
    assert to_message(both) == {"role": "assistant", "content": "a", "reasoning": "r",
                                "reasoning_content": "r"}
    assert len(normalize(both).blocks) == 1
    assert normalize(both).blocks[0].wire == {"reasoning_content": "r", "reasoning": "r"}


def test_chat_null_field_on_tool_turn_becomes_empty() -> None:
    # X2: null -> "" on a tool-call turn
    tc = [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    r = _chat({"content": None, "reasoning_content": None, "tool_calls": tc})
    assert to_message(r) == {"role": "assistant", "content": None, "tool_calls": tc,
                             "reasoning_content": ""}
    assert normalize(r).blocks == ()


def test_chat_reasoning_field_option() -> None:
    # X2: reasoning_field="name" writes only that field; False writes none
    r = _chat({"content": "a", "reasoning_content": "why"})
    assert to_message(r, reasoning_field="reasoning") == {
        "role": "assistant", "content": "a", "reasoning": "why"}
    assert to_message(r, reasoning_field=False) == {"role": "assistant", "content": "a"}
    assert to_message(_chat({"content": "a"}), reasoning_field="reasoning_content") == {
        "role": "assistant", "content": "a", "reasoning_content": ""}
    with pytest.raises(TypeError, match="reasoning_field"):
        to_message(r, reasoning_field=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="binary"):
        to_message(r, binary="hex")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="store"):
        to_message(r, store="no")  # type: ignore[arg-type]


# --- binary="bytes" ------------------------------------------------------------------------------
def test_binary_bytes() -> None:
    # X2: Bedrock redactedContent and Gemini thoughtSignature as bytes for boto3 / SDK params
    b = to_message(CASES["bedrock_tool_use"]["response"], binary="bytes")
    assert isinstance(b, dict)
    assert b["content"][1]["reasoningContent"]["redactedContent"] == b"REDACTED"
    g = to_message(CASES["gemini_function_call"]["response"], binary="bytes")
    assert isinstance(g, dict)
    assert g["parts"][1]["thoughtSignature"] == base64.b64decode("Q2lRQjE=")
    assert to_message(CASES["gemini_function_call"]["response"])["parts"][1][  # type: ignore
        "thoughtSignature"] == "Q2lRQjE="


def test_sdk_bytes_signature_is_base64_in_wire() -> None:
    # X1: google-genai objects dumped in Python mode carry bytes; wire is JSON (base64)
    r = {"candidates": [{"content": {"parts": [
        {"text": "t", "thought": True, "thought_signature": b"\x01\x02"}]}}]}
    x = normalize(r)
    assert x.blocks[0].signature == "AQI="
    assert x.blocks[0].wire == {"text": "t", "thought": True, "thought_signature": "AQI="}
    assert x.signatures == ("AQI=",)


# --- streams: tool input JSON --------------------------------------------------------------------
def test_truncated_tool_input_names_the_block() -> None:
    # X2: invalid JSON from a truncated stream -> ResponseShapeError naming the block;
    # result stays available
    events = copy.deepcopy(CASES["anthropic_tool_use"]["events"])[:16]
    sn = stream(events)
    assert sn.result.visible == "Let me check."
    with pytest.raises(ResponseShapeError) as info:
        _ = sn.message
    assert info.value.path == "content[3].input"


def test_bedrock_truncated_tool_input() -> None:
    events = copy.deepcopy(CASES["bedrock_tool_use"]["events"])[:11]
    sn = stream(events)
    with pytest.raises(ResponseShapeError) as info:
        _ = sn.message
    assert info.value.path == "output.message.content[3].toolUse.input"


def test_gemini_signature_on_trailing_empty_part_joins_its_run() -> None:
    # X1: consecutive same-thought parts merge; a signature on an empty part goes onto its run
    events = [
        {"candidates": [{"content": {"parts": [{"text": "a", "thought": True}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "b", "thought": True}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "", "thoughtSignature": "S"}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "x"}]}}]},
    ]
    sn = stream(events)
    assert sn.message == {"role": "model", "parts": [
        {"text": "ab", "thought": True, "thoughtSignature": "S"}, {"text": "x"}]}
    assert [(b.kind, b.text, b.signature) for b in sn.result.blocks] == [("summary", "ab", "S")]
    assert sn.result.signatures == ("S",)


def test_inline_tags_give_one_block_with_empty_wire() -> None:
    # X1: inline tags -> one block per extracted block, wire == {}
    x = normalize(_chat({"content": "<think>plan</think>answer"}))
    assert x.format == "tags"
    assert [(b.kind, b.text, b.wire) for b in x.blocks] == [("text", "plan", {})]
    assert to_message(x) == {"role": "assistant", "content": "<think>plan</think>answer"}


# --- SDK objects: only what the server sent (by_alias, exclude_unset) ----------------------------
def test_sdk_objects_give_the_wire_message() -> None:
    # X1, X2, P7: SDK objects are dumped with by_alias=True, exclude_unset=True
    pytest.importorskip("anthropic")
    from anthropic.types import Message

    case = CASES["anthropic_tool_use"]
    m = Message.model_validate(case["response"])
    assert to_message(m) == case["message"]
    assert blocks_as_dicts(normalize(m)) == case["blocks"]


def test_openai_response_object_keeps_only_sent_fields() -> None:
    pytest.importorskip("openai")
    from openai.types.responses import Response

    case = CASES["responses_function_call"]
    r = dict(case["response"], created_at=0, parallel_tool_calls=True, tool_choice="auto",
             tools=[])
    del r["usage"]
    assert to_message(Response.model_validate(r)) == case["message"]


def test_google_genai_object_signatures() -> None:
    pytest.importorskip("google.genai")
    from google.genai import types

    case = CASES["gemini_function_call"]
    g = types.GenerateContentResponse.model_validate(case["response"])
    assert to_message(g) == case["message"]
    assert blocks_as_dicts(normalize(g)) == case["blocks"]
    part = to_message(g, binary="bytes")["parts"][1]  # type: ignore[call-overload]
    assert part["thoughtSignature"] == base64.b64decode("Q2lRQjE=")
