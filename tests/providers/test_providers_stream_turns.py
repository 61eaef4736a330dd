"""Streams of every shape the decoders read, malformed fields included: what ``feed`` returns,
the result, the turn (P9, X1, X2, M1).

Each family's decoder reads an event once, handing its parts to the collector and its wire
pieces to the accumulator.  For generated streams mixing the usual events with every other
shape: only the library's own errors escape; without an error the deltas add up to the result
(P9, up to the stripping at the two ends); the message, the blocks and the response the turn
reads are the same at every read (X2).  Then the turn's details: top-level keys, key
order, kept events, the model's preset.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer, ThinkParseError, preset_for_model
from thinkparse._types import turn_of


def outcome(fn: Any) -> Any:
    try:
        return ("ok", fn())
    except ThinkParseError as e:  # the library's own errors only (M1)
        return ("error", type(e).__name__, str(e))


def check_stream(provider: str, events: list[dict[str, Any]]) -> None:
    sn = StreamNormalizer(provider=provider)
    deltas = []
    failed = False
    for ev in events:
        got = outcome(lambda e=ev: sn.feed(e))
        if got[0] == "ok":
            deltas.append(got[1])
        else:
            failed = True
    deltas.append(sn.close())
    r = sn.result
    if not failed:  # P9: the deltas add up to the result
        v = "".join(d.visible for d in deltas)
        rea = "".join(d.reasoning for d in deltas)
        assert r.visible in (v, v.strip()) or (v.isspace() and r.visible == "")
        if rea.strip():
            assert r.reasoning in (rea, rea.strip())
        else:
            assert r.reasoning is None
    turn = turn_of(r)
    assert turn is not None
    blocks = outcome(lambda: [(b, b.wire) for b in turn.blocks])
    assert blocks == outcome(lambda: [(b, b.wire) for b in turn.blocks])
    first = outcome(lambda: sn.message)
    assert first == outcome(lambda: sn.message)
    assert outcome(lambda: json.dumps(turn.response)) == outcome(lambda: json.dumps(turn.response))


TEXTS = st.sampled_from(["", "a", " b", "\n", "c d"])

# --- Gemini ------------------------------------------------------------------------------------
gemini_text_part = st.fixed_dictionaries(
    {"text": TEXTS},
    optional={
        "thought": st.sampled_from([True, False, None, 1]),
        "thoughtSignature": st.sampled_from(["s1", "", "s2"]),
    },
)
gemini_part = st.one_of(
    gemini_text_part,
    gemini_text_part,
    st.just({"functionCall": {"name": "f", "args": {"x": 1}}}),
    st.just({"text": "t", "thought_signature": "snake"}),
    st.just({"text": 5}),
)
gemini_usage = st.one_of(
    st.builds(
        lambda p, c, t: {"promptTokenCount": p, "candidatesTokenCount": c,
                         "thoughtsTokenCount": t, "totalTokenCount": p + c + t},
        st.integers(0, 5), st.integers(0, 5), st.integers(0, 5),
    ),
    st.just({"promptTokenCount": "x"}),
    st.just({"prompt_token_count": 3}),
)


@st.composite
def gemini_chunks(draw: Any) -> dict[str, Any]:
    # mostly the usual chunk (one part, one candidate), sometimes any other shape
    usual = draw(st.integers(0, 3)) > 0
    parts = [draw(gemini_text_part)] if usual else draw(st.lists(gemini_part, max_size=2))
    content: dict[str, Any] = {"parts": parts}
    if draw(st.booleans()):
        content["role"] = "model"
    cand: dict[str, Any] = {"content": content}
    if draw(st.booleans()):
        cand["index"] = draw(st.sampled_from([0, 0, 0, 0, 1, None]))
    if draw(st.booleans()):
        cand["finishReason"] = draw(st.sampled_from(["STOP", "MAX_TOKENS"]))
    ev: dict[str, Any] = {"candidates": [cand]}
    if not usual and draw(st.booleans()):
        ev["candidates"].append({"content": {"parts": [{"text": "other"}]}, "index": 1})
    for key, value in draw(st.lists(st.sampled_from([
        ("usageMetadata", "usage"), ("usage_metadata", "usage"), ("usageMetadata", None),
        ("modelVersion", "gemini-2.5-flash"), ("responseId", "r1"), ("responseId", "r2"),
        ("extra", {"k": [1]}),
    ]), max_size=3, unique_by=lambda kv: kv[0])):
        ev[key] = draw(gemini_usage) if value == "usage" else value
    return ev


@settings(max_examples=300, deadline=None)
@given(st.lists(gemini_chunks(), min_size=1, max_size=10))
def test_gemini_streams(events: list[Any]) -> None:
    # P9/X1/X2/M1
    check_stream("gemini", events)


# --- Bedrock -----------------------------------------------------------------------------------
bedrock_delta = st.sampled_from([
    {"text": "a"}, {"text": " b"}, {"text": ""}, {"text": 3}, {"text": None},
    {"reasoningContent": {"text": "r"}}, {"reasoningContent": {"text": " s"}},
    {"reasoningContent": {"text": ""}}, {"reasoningContent": {"signature": "g1"}},
    {"reasoningContent": {"signature": ""}},
    {"reasoningContent": {"text": "x", "signature": "g2"}},
    {"reasoningContent": {"redactedContent": "UkVE"}},
    {"reasoningContent": {"reasoningText": {"text": "n"}}},
    {"toolUse": {"input": "{\"a\": "}}, {"toolUse": {"input": "1}"}},
    {"text": "a", "extra": 1},
])


@st.composite
def bedrock_events(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["delta", "delta", "delta", "raw", "start", "stop", "other"]))
    idx = draw(st.sampled_from([0, 0, 1, None, True]))
    if kind in ("delta", "raw"):
        body: dict[str, Any] = {"delta": draw(bedrock_delta)}
        if idx is not None:
            body["contentBlockIndex"] = idx
        return {"contentBlockDelta": body} if kind == "delta" else (
            {**body, "contentBlockIndex": idx if idx is not None else 0}
        )
    if kind == "start":
        return {"contentBlockStart": {"contentBlockIndex": 1 if idx is None else idx,
                                      "start": {"toolUse": {"toolUseId": "t", "name": "f"}}}}
    if kind == "stop":
        return {"contentBlockStop": {"contentBlockIndex": 0 if idx is None else idx}}
    return draw(st.sampled_from([
        {"messageStart": {"role": "assistant"}},
        {"messageStop": {"stopReason": "end_turn"}},
        {"metadata": {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
                      "metrics": {"latencyMs": 5}}},
        {"usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3},
         "metrics": {"latencyMs": 5}},
        {"throttlingException": {"message": "slow down"}},
    ]))


@settings(max_examples=300, deadline=None)
@given(st.lists(bedrock_events(), min_size=1, max_size=14))
def test_bedrock_streams(events: list[Any]) -> None:
    # P9/X1/X2/M1
    check_stream("bedrock", events)


# --- Ollama ------------------------------------------------------------------------------------
ollama_message = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["assistant", None, 1]),
        "content": st.one_of(TEXTS, st.none(), st.just(2)),
        "thinking": st.one_of(TEXTS, st.none()),
        "tool_calls": st.just([{"function": {"name": "f", "arguments": {"x": 1}}}]),
    },
)


@st.composite
def ollama_objects(draw: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {}
    if draw(st.booleans()):  # the usual object, its keys in either order
        for key in draw(st.permutations(["model", "created_at"])):
            ev[key] = draw(st.sampled_from({"model": ["qwen3:8b", "llama3"],
                                            "created_at": ["t1", "t2"]}[key]))
        ev["message"] = draw(st.fixed_dictionaries(
            {"role": st.just("assistant"), "content": TEXTS}, optional={"thinking": TEXTS}))
        ev["done"] = draw(st.booleans())
        return ev
    for key in draw(st.lists(st.sampled_from(["model", "created_at", "extra"]), unique=True)):
        ev[key] = draw(st.sampled_from({
            "model": ["qwen3:8b", "llama3"],
            "created_at": ["2025-06-01T10:20:00Z", "2025-06-01T10:20:01Z", None],
            "extra": [{"k": 1}, None, 7],
        }[key]))
    if draw(st.integers(0, 5)):
        ev["message"] = draw(ollama_message)
    else:
        ev["response"] = draw(TEXTS)
    ev["done"] = draw(st.booleans())
    for key, value in draw(st.lists(st.sampled_from([
        ("prompt_eval_count", 3), ("eval_count", 9), ("eval_count", None),
        ("eval_count", "x"), ("done_reason", "stop"), ("total_duration", 10),
    ]), max_size=3, unique_by=lambda kv: kv[0])):
        ev[key] = value
    return ev


@settings(max_examples=300, deadline=None)
@given(st.lists(ollama_objects(), min_size=1, max_size=10))
def test_ollama_streams(events: list[Any]) -> None:
    # P9/X1/X2/M1
    check_stream("ollama", events)


# --- Anthropic ---------------------------------------------------------------------------------
anthropic_event = st.one_of(
    st.builds(
        lambda i, kind, v: {"type": "content_block_delta", "index": i,
                            "delta": {"type": f"{kind}_delta", kind: v}},
        st.sampled_from([0, 1]), st.sampled_from(["text", "thinking", "signature"]),
        st.sampled_from(["", "a", " b", "\n"]),
    ),
    st.builds(
        lambda i, kind: {"type": "content_block_start", "index": i,
                         "content_block": {"type": kind, kind: ""}},
        st.sampled_from([0, 1]), st.sampled_from(["text", "thinking"]),
    ),
    st.builds(lambda i: {"type": "content_block_stop", "index": i}, st.sampled_from([0, 1])),
    st.just({"type": "ping"}),
    st.just({"type": "content_block_delta", "index": "x",
             "delta": {"type": "text_delta", "text": "t"}}),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(anthropic_event, min_size=1, max_size=16))
def test_anthropic_streams(events: list[Any]) -> None:
    # P9/X1/X2/M1
    start = {"type": "message_start", "message": {"type": "message", "role": "assistant",
                                                  "content": [], "model": "m"}}
    check_stream("anthropic", [start, *events])


# --- Chat --------------------------------------------------------------------------------------
chunk_delta = st.one_of(
    st.dictionaries(
        st.sampled_from(["content", "reasoning_content", "reasoning", "refusal"]),
        st.sampled_from(["", "a", " b", "\n", 5]), min_size=1, max_size=1,
    ),
    st.just({"role": "assistant"}),
    st.just({"content": "x", "reasoning": "y"}),
    st.just({"content": [{"type": "thinking", "thinking": [{"type": "text", "text": "m"}]}]}),
    st.just({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f",
                                                                 "arguments": "{"}}]}),
    st.just({"reasoning_details": [{"type": "reasoning.text", "text": "d", "index": 0,
                                    "signature": "s"}]}),
)


def chat_chunk(delta: dict[str, Any], how: str, top: str) -> dict[str, Any]:
    c: dict[str, Any] = {"delta": delta}
    if "index" in how:
        c["index"] = 0
    if "finish" in how:
        c["finish_reason"] = "stop"
    ev: dict[str, Any] = {"id": "c1", "object": "chat.completion.chunk", "choices": [c]}
    if top == "model":
        ev["model"] = "m1"
    elif top == "usage":
        ev["usage"] = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    elif top == "x_groq":
        ev["x_groq"] = {"usage": {"prompt_tokens": 4}}
    return ev


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(chunk_delta, st.sampled_from(["index", "none", "finish",
                                                        "index+finish"]),
                          st.sampled_from(["plain", "model", "usage", "x_groq"])),
                min_size=1, max_size=12))
def test_chat_streams(chunks: list[tuple[dict[str, Any], str, str]]) -> None:
    # P9/X1/X2/M1
    check_stream("openai_chat", [chat_chunk(d, how, top) for d, how, top in chunks])


# --- the turn's details ------------------------------------------------------------------------
def turn_response(provider: str, events: list[Any]) -> Any:
    sn = StreamNormalizer(provider=provider)
    for ev in events:
        sn.feed(ev)
    sn.close()
    turn = turn_of(sn.result)
    assert turn is not None
    return sn, turn.response


def test_kept_top_level_keys_reach_the_turn() -> None:
    # X1/X2: the last non-null value (Ollama) or the first (Gemini; usage: the last) is kept
    _, response = turn_response("ollama", [
        {"model": "m", "created_at": "t1", "message": {"role": "assistant", "content": "a"},
         "done": False},
        {"model": "m", "created_at": "t2", "message": {"role": "assistant", "content": "b"},
         "done": False},
        {"model": "m", "created_at": None, "message": {"role": "assistant", "content": ""},
         "done": False},
    ])
    assert response == {"model": "m", "created_at": "t2", "done": False,
                        "message": {"role": "assistant", "content": "ab"}}
    sn, response = turn_response("gemini", [
        {"candidates": [{"content": {"parts": [{"text": "a", "thought": True}]}}],
         "usageMetadata": {"thoughtsTokenCount": 1}, "modelVersion": "g"},
        {"candidates": [{"content": {"parts": [{"text": "b", "thought": True}]}}],
         "usageMetadata": {"thoughtsTokenCount": 2}, "modelVersion": "h"},
        {"candidates": [{"content": {"parts": [{"text": "", "thoughtSignature": "s"}]},
                         "finishReason": "STOP"}],
         "usageMetadata": {"thoughtsTokenCount": 2, "totalTokenCount": 4}},
    ])
    assert response == {
        "candidates": [{"content": {"parts": [
            {"text": "ab", "thought": True, "thoughtSignature": "s"}]},
            "finishReason": "STOP"}],
        "usageMetadata": {"thoughtsTokenCount": 2, "totalTokenCount": 4},
        "modelVersion": "g",
    }
    assert sn.result.signatures == ("s",)


def test_ollama_turn_keeps_key_order_and_last_values() -> None:
    # X2: the last non-null value wins; the final object's extra keys come after the others,
    # in the order received
    events = [
        {"created_at": "t0", "model": "m", "message": {"role": "assistant", "content": "",
                                                       "thinking": "a"}, "done": False},
        {"created_at": "t1", "model": "m", "message": {"role": "assistant", "content": "",
                                                       "thinking": " b"}, "done": False},
        {"created_at": "t2", "model": "m", "message": {"role": "assistant", "content": "c"},
         "done": False},
        {"created_at": "t3", "model": "m", "message": {"role": "assistant", "content": ""},
         "done": True, "done_reason": "stop", "prompt_eval_count": 3, "eval_count": 5},
    ]
    sn, response = turn_response("ollama", events)
    assert json.dumps(response) == json.dumps({
        "created_at": "t3", "model": "m", "done": True, "done_reason": "stop",
        "prompt_eval_count": 3, "eval_count": 5,
        "message": {"role": "assistant", "content": "c", "thinking": "a b"},
    })
    assert (sn.result.reasoning, sn.result.visible, sn.result.finish_reason) == (
        "a b", "c", "stop"
    )
    assert sn.message == {"role": "assistant", "content": "c", "thinking": "a b"}


@pytest.mark.parametrize("model", ["deepseek-r1", "magistral-medium", "qwen3", "minimax-m1"])
def test_model_preset_scanner_splits_as_the_preset(model: str) -> None:
    # P13: each stream naming the model splits as one given the preset (the second stream
    # takes the preset's scanner made for the first)
    preset = preset_for_model(model)
    assert preset is not None
    text = ["a", "</think>", "[THINK]b[/THINK]", "c<think>d</think>e", " f"]
    events = [{"model": model, "message": {"role": "assistant", "content": t}, "done": False}
              for t in text]
    given_preset = StreamNormalizer(provider="ollama", preset=preset)
    for ev in events:
        given_preset.feed(ev)
    given_preset.close()
    for _ in range(2):
        sn = StreamNormalizer()
        for ev in events:
            sn.feed(ev)
        sn.close()
        assert (sn.result.visible, sn.result.reasoning) == (
            given_preset.result.visible, given_preset.result.reasoning
        )
        assert sn.message == given_preset.message


def test_first_chat_chunk_keeps_the_top_level_keys() -> None:
    # X2: the first chunk's id and model reach the turn although it is read on first use
    sn = StreamNormalizer()
    sn.feed({"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "hi"}}]})
    sn.feed({"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "!"}}]})
    sn.close()
    assert sn.message == {"role": "assistant", "content": "hi!"}
    assert sn.result.visible == "hi!"
    turn = turn_of(sn.result)
    assert turn is not None and turn.response["id"] == "c1" and turn.model == "m"


CITED = [
    {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                          "model": "c", "content": [],
                                          "usage": {"input_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0,
     "delta": {"type": "citations_delta",
               "citation": {"type": "char_location", "cited_text": "x", "document_index": 0}}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
     "usage": {"output_tokens": 3}},
]


def test_citation_lands_on_an_item_whose_start_was_kept() -> None:
    # X2: the citation reads the kept content_block_start first, so it has its item
    sn = StreamNormalizer()
    for ev in CITED:
        sn.feed(ev)
    sn.close()
    assert sn.message == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Hi", "citations": [
            {"type": "char_location", "cited_text": "x", "document_index": 0}]}],
    }
    assert (sn.result.visible, sn.result.finish_reason) == ("Hi", "end_turn")
    assert (sn.result.usage.input_tokens, sn.result.usage.output_tokens) == (1, 3)


def test_kept_events_are_read_in_order_once() -> None:
    # X1/X2: the kept Anthropic and Responses events give the same turn at every read
    anth = StreamNormalizer()
    for ev in CITED:
        anth.feed(ev)
    anth.close()
    first = anth.message
    assert anth.message == first
    resp = StreamNormalizer()
    item = {"id": "rs", "type": "reasoning", "summary": [{"type": "summary_text", "text": "r"}]}
    msg = {"id": "m1", "type": "message", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "a", "annotations": []}]}
    for ev in [
        {"type": "response.created", "response": {"id": "r", "model": "o4", "output": []}},
        {"type": "response.output_item.done", "output_index": 1, "item": msg},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
    ]:
        resp.feed(ev)
    resp.close()
    assert [b.wire for b in resp.result.blocks] == [item]
    assert resp.message == resp.message
    assert resp.result.visible == "a" and resp.result.reasoning == "r"
