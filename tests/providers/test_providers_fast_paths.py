"""The providers' short paths give exactly what the general paths give.

Each short path exists for docs/behaviour.md#p9's cost goal; these properties pin it to the
road it shortens: the written-out event detection (P8) to the families' ``is_event`` tests in
order, the default-options inline split (P3, T10) to ``split_think`` with
``start_in_reasoning="auto"``, a model preset resolving to the defaults (P13) to the defaults,
and the stream's deltas taken straight from the collector (P9) to ``take()`` after each part.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import TwoReads
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer, normalize, split_think
from thinkparse._spec import PRESETS
from thinkparse.providers import _registry
from thinkparse.providers._assemble import _default_like, split_auto
from thinkparse.providers._collector import Collector

# --- P8: event detection -----------------------------------------------------------------------
EVENT_KEYS = [
    "type", "choices", "object", "candidates", "usageMetadata", "usage_metadata",
    "contentBlockIndex", "delta", "done", "message", "response", "messageStart",
    "contentBlockDelta", "metadata", "other",
]
TYPE_VALUES = st.one_of(
    st.sampled_from([
        "ping", "error", "response.output_text.delta", "response.created", "message_start",
        "content_block_delta", "message_stop", "other", "chat.completion.chunk",
    ]),
    st.none(),
    st.integers(0, 2),
)
OBJECT_VALUES = st.sampled_from(["chat.completion.chunk", "text_completion", "response", None])


@st.composite
def events(draw: Any) -> dict[str, Any]:
    keys = draw(st.lists(st.sampled_from(EVENT_KEYS), max_size=5, unique=True))
    ev: dict[str, Any] = {}
    for k in keys:
        if k == "type":
            ev[k] = draw(TYPE_VALUES)
        elif k == "object":
            ev[k] = draw(OBJECT_VALUES)
        else:
            ev[k] = {}
    return ev


def family_by_tests(ev: dict[str, Any]) -> Optional[str]:
    t = ev.get("type")
    if isinstance(t, str) and t in _registry._NEUTRAL:
        return None
    for f in _registry._EVENT_ORDER:
        if f.is_event(ev):
            return f.name
    raise LookupError


@settings(max_examples=400, deadline=None)
@given(events())
def test_event_family_is_the_first_family_whose_test_matches(ev: dict[str, Any]) -> None:
    # P8: the written-out chain decides as the families' is_event tests tried in order
    try:
        expected: Optional[str] = family_by_tests(ev)
    except LookupError:
        with pytest.raises(ValueError, match="no provider family recognises a stream event"):
            _registry.event_family(ev)
        return
    assert _registry.event_family(ev) == expected


# --- P3 / T10 / P13: the inline split with the default options --------------------------------
PIECES = ["<think>", "</think>", "<think", "think>", "a", " ", "\n", "```", "`", "b c", "<", "/"]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_split_auto_is_split_think_auto(text: str) -> None:
    # T10: the same steps on scanners built without arguments
    s = split_think(text, start_in_reasoning="auto")
    assert split_auto(text) == (s.visible, s.reasoning)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_default_like_presets_split_as_the_defaults(preset: str) -> None:
    # P13: a preset taken for the defaults splits every text as the defaults do
    think = {"preset": preset, "start_in_reasoning": "auto"}
    if not _default_like(think):
        return
    for text in ["<think>a</think>b", "a</think>b", "x <think>y", "```\n<think>\n```", "[THINK]"]:
        assert split_think(text, **think) == split_think(text, start_in_reasoning="auto"), text


def test_default_like_answers() -> None:
    # P13: deepseek-v3 names the default tag; magistral's delimiters differ; other shapes never
    # match
    assert _default_like({"preset": "deepseek-v3", "start_in_reasoning": "auto"}) is True
    assert _default_like({"preset": "magistral", "start_in_reasoning": "auto"}) is False
    assert _default_like({"preset": "qwen3", "start_in_reasoning": True}) is False
    assert _default_like({"preset": "qwen3", "tags": "think", "start_in_reasoning": "auto"}) is (
        False
    )


def test_model_preset_split_through_the_short_path() -> None:
    # P13 + P3: a qwen3 payload is split as before
    r = normalize({"model": "qwen3", "choices": [{"message": {"content": "<think>a</think>b"}}]})
    assert (r.visible, r.reasoning, r.format) == ("b", "a", "tags")
    r = normalize({"model": "qwen3", "choices": [{"message": {"content": "a</think>\n\nb"}}]})
    assert (r.visible, r.reasoning, r.format) == ("b", "a", "tags")


# --- P9: deltas straight from the collector ---------------------------------------------------
parts = st.lists(
    st.one_of(
        st.tuples(st.just("r"), st.sampled_from(["k1", "k2"]), st.sampled_from(["", " ", "a",
                                                                               "\n", "b "])),
        st.tuples(st.just("v"), st.just(""), st.sampled_from(["", " ", "x", "<think>", "y</think>",
                                                             "</think>", "z\n"])),
    ),
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(parts)
def test_delta_methods_equal_part_then_take(seq: list[tuple[str, str, str]]) -> None:
    # P9, S3: reasoning_delta / visible_delta give what the part followed by take() gives
    short = Collector(None, False)
    long = Collector(None, False)
    for kind, key, text in seq:
        if kind == "r":
            got = short.reasoning_delta(key, text, "field")
            long.reasoning(key, text, "field")
        else:
            got = short.visible_delta(text)
            long.visible(text)
        assert got == long.take()
        assert type(got) is type(long.take())
    short.flush()
    long.flush()
    assert short.take() == long.take()
    a, b = short.result("openai_chat"), long.result("openai_chat")
    assert (a.visible, a.reasoning, a.format) == (b.visible, b.reasoning, b.format)


def test_first_chat_chunk_short_path_keeps_the_top_level_keys() -> None:
    # X2: the first chunk's id and model reach the turn although it took the short path
    sn = StreamNormalizer()
    sn.feed({"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "hi"}}]})
    sn.feed({"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "!"}}]})
    sn.close()
    assert sn.message == {"role": "assistant", "content": "hi!"}
    assert sn.result.visible == "hi!"


# --- X1/X2: events added up on first use ------------------------------------------------------
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


def test_citation_lands_on_a_block_whose_start_was_kept() -> None:
    # X2: the citation adds the kept content_block_start up first, so it has its block
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


def test_kept_events_are_added_up_in_order_once() -> None:
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


# --- P9/X2: the Anthropic short path against the two-read path -------------------------------
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
)


@settings(max_examples=200, deadline=None)
@given(st.lists(anthropic_event, min_size=1, max_size=16))
def test_anthropic_short_path_gives_what_the_full_read_gives(events: list[Any]) -> None:
    # P9/X2: remembered blocks and piece lists change no delta, result or message
    start = {"type": "message_start", "message": {"type": "message", "role": "assistant",
                                                  "content": [], "model": "m"}}
    fast = StreamNormalizer(provider="anthropic")
    full = StreamNormalizer(provider="anthropic")
    full._decoder = TwoReads(full._decoder)  # type: ignore[assignment]
    for ev in [start, *events]:
        assert fast.feed(ev) == full.feed(ev)
    assert fast.close() == full.close()
    assert fast.result == full.result
    assert fast.result.signatures == full.result.signatures
    assert fast.message == full.message
