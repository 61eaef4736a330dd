"""The Gemini, Bedrock and Ollama stream decoders' short paths give what the two reads give.

Each decoder hands its accumulator the pieces of a usual event it has read (docs/behaviour.md
#p9's cost goal); these properties pin that to the general road (the decoder's full read, then
the accumulator's own read of the event, ``TwoReads``): the same deltas (P9), result (S3,
P12), signatures (P2), message (X2) and blocks (X1), for streams mixing usual events with
every other shape the decoders read, malformed fields included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _support import TwoReads
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer
from thinkparse._types import turn_of


def outcome(fn: Any) -> Any:
    try:
        return ("ok", fn())
    except Exception as e:  # the same error class and message on both roads
        return ("error", type(e).__name__, str(e))


def same_stream(provider: str, events: list[dict[str, Any]]) -> None:
    fast = StreamNormalizer(provider=provider)
    full = StreamNormalizer(provider=provider)
    full._decoder = TwoReads(full._decoder)  # type: ignore[assignment]
    for ev in events:
        assert outcome(lambda e=ev: fast.feed(e)) == outcome(lambda e=ev: full.feed(e)), ev
    assert fast.close() == full.close()
    a, b = fast.result, full.result
    assert a == b
    assert (a.signatures, a.usage, a.finish_reason, a.redacted) == (
        b.signatures, b.usage, b.finish_reason, b.redacted
    )
    assert outcome(lambda: fast.message) == outcome(lambda: full.message)
    ta, tb = turn_of(a), turn_of(b)
    assert ta is not None and tb is not None
    assert outcome(lambda: [blk.wire for blk in ta.blocks]) == outcome(
        lambda: [blk.wire for blk in tb.blocks]
    )
    # the response the turn reads, its keys in the same order
    assert outcome(lambda: json.dumps(fast._acc.response())) == outcome(
        lambda: json.dumps(full._acc.response())
    )


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
def test_gemini_short_path_gives_what_the_two_reads_give(events: list[Any]) -> None:
    # P9/X1/X2: one read of a text-part chunk changes no delta, result, block or message
    same_stream("gemini", events)


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
def test_bedrock_short_path_gives_what_the_two_reads_give(events: list[Any]) -> None:
    # P9/X1/X2: remembered blocks and piece lists change no delta, result, block or message
    same_stream("bedrock", events)


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
def test_ollama_short_path_gives_what_the_two_reads_give(events: list[Any]) -> None:
    # P9/X1/X2: kept top-level keys and skipped empty pieces change no delta, result or message
    same_stream("ollama", events)


@pytest.mark.parametrize(
    ("provider", "events"),
    [
        ("ollama", [
            {"model": "m", "created_at": "t1", "message": {"role": "assistant", "content": "a"},
             "done": False},
            {"model": "m", "created_at": "t2", "message": {"role": "assistant", "content": "b"},
             "done": False},
            {"model": "m", "created_at": None, "message": {"role": "assistant", "content": ""},
             "done": False},
        ]),
        ("gemini", [
            {"candidates": [{"content": {"parts": [{"text": "a", "thought": True}]}}],
             "usageMetadata": {"thoughtsTokenCount": 1}, "modelVersion": "g"},
            {"candidates": [{"content": {"parts": [{"text": "b", "thought": True}]}}],
             "usageMetadata": {"thoughtsTokenCount": 2}, "modelVersion": "h"},
            {"candidates": [{"content": {"parts": [{"text": "", "thoughtSignature": "s"}]},
                             "finishReason": "STOP"}],
             "usageMetadata": {"thoughtsTokenCount": 2, "totalTokenCount": 4}},
        ]),
    ],
)
def test_kept_top_level_keys_reach_the_turn(provider: str, events: list[Any]) -> None:
    # X1/X2: the last non-null value (Ollama) or the first (Gemini, usage: the last) is kept
    same_stream(provider, events)
    sn = StreamNormalizer(provider=provider)
    for ev in events:
        sn.feed(ev)
    sn.close()
    response = sn._acc.response()
    if provider == "ollama":
        assert response == {"model": "m", "created_at": "t2", "done": False,
                            "message": {"role": "assistant", "content": "ab"}}
    else:
        assert response == {
            "candidates": [{"content": {"parts": [
                {"text": "ab", "thought": True, "thoughtSignature": "s"}]},
                "finishReason": "STOP"}],
            "usageMetadata": {"thoughtsTokenCount": 2, "totalTokenCount": 4},
            "modelVersion": "g",
        }
        assert sn.result.signatures == ("s",) or sn.result.signatures == ["s"]


@pytest.mark.parametrize("model", ["deepseek-r1", "magistral-medium", "qwen3", "minimax-m1"])
def test_model_preset_scanner_made_once_splits_as_the_preset(model: str) -> None:
    # P13: each stream naming the model splits as one given the preset (the second stream
    # takes the preset's scanner made for the first)
    from thinkparse import preset_for_model

    preset = preset_for_model(model)
    assert preset is not None
    text = ["a", "</think>", "[THINK]b[/THINK]", "c<think>d</think>e", " f"]
    events = [{"model": model, "message": {"role": "assistant", "content": t}, "done": False}
              for t in text]
    given = StreamNormalizer(provider="ollama", preset=preset)
    for ev in events:
        given.feed(ev)
    given.close()
    for _ in range(2):
        sn = StreamNormalizer()
        for ev in events:
            sn.feed(ev)
        sn.close()
        assert (sn.result.visible, sn.result.reasoning) == (
            given.result.visible, given.result.reasoning
        )
        assert sn.message == given.message


@settings(max_examples=100, deadline=None)
@given(st.lists(ollama_objects(), min_size=1, max_size=10))
def test_ollama_waiting_objects_read_when_too_many(events: list[Any]) -> None:
    # X1/X2, P9: objects whose top-level keys wait are read early once more than the bound
    # wait (here one); the turn is the same as with every object read at once
    from thinkparse.providers import _accumulate_parts

    bound = _accumulate_parts._PENDING_MAX
    _accumulate_parts._PENDING_MAX = 1
    try:
        same_stream("ollama", events)
    finally:
        _accumulate_parts._PENDING_MAX = bound


def test_ollama_turn_keeps_key_order_and_last_values() -> None:
    # X2: the usual objects' keys wait and the last non-null value wins; the final object's
    # extra keys come after them, in the order received
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
    sn = StreamNormalizer()
    for ev in events:
        sn.feed(ev)
    sn.close()
    assert json.dumps(sn._acc.response()) == json.dumps({
        "created_at": "t3", "model": "m", "done": True, "done_reason": "stop",
        "prompt_eval_count": 3, "eval_count": 5,
        "message": {"role": "assistant", "content": "c", "thinking": "a b"},
    })
    assert (sn.result.reasoning, sn.result.visible, sn.result.finish_reason) == (
        "a b", "c", "stop"
    )
    assert sn.message == {"role": "assistant", "content": "c", "thinking": "a b"}
