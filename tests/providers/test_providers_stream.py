"""``StreamNormalizer`` behaviour shared by every family (P8, P9, S3) and chunking invariance."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    Delta,
    Extraction,
    ResponseShapeError,
    ScannerClosedError,
    StreamNormalizer,
    UnknownProviderError,
    Usage,
    normalize,
)


def run(events: list[Any], **options: Any) -> tuple[list[Delta], Extraction]:
    sn = StreamNormalizer(**options)
    deltas = [sn.feed(e) for e in events]
    deltas.append(sn.close())
    return deltas, sn.result


def chunk(**delta: Any) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}


# --- lifecycle -----------------------------------------------------------------------------------
def test_result_before_close_is_runtime_error() -> None:
    # behaviour.md#a1: result raises RuntimeError before close()
    sn = StreamNormalizer()
    sn.feed(chunk(content="a"))
    with pytest.raises(RuntimeError, match="close"):
        _ = sn.result


def test_feed_after_close() -> None:
    # behaviour.md#a1: feed() after close() raises ScannerClosedError (a RuntimeError)
    sn = StreamNormalizer()
    sn.close()
    with pytest.raises(ScannerClosedError):
        sn.feed(chunk(content="a"))
    assert issubclass(ScannerClosedError, RuntimeError)


def test_second_close_is_empty() -> None:
    # behaviour.md#a1: a second close() returns an empty Delta; the result stays
    sn = StreamNormalizer()
    assert sn.feed(chunk(content="<thi")) == ("", "")
    assert sn.close() == ("<thi", "")
    assert sn.close() == ("", "") and not sn.close()
    assert sn.result.visible == "<thi"


def test_empty_stream() -> None:
    # decision: no deciding event -> provider "unknown", nothing extracted
    _, r = run([])
    assert r == Extraction("", None, None, 0, False, (), "unknown", "none", Usage())


def test_deltas_are_delta_objects() -> None:
    # behaviour.md#a1: feed returns Delta (a 2-tuple with attributes)
    sn = StreamNormalizer()
    d = sn.feed(chunk(reasoning="r"))
    assert isinstance(d, Delta) and d.reasoning == "r" and d.visible == "" and d == ("", "r")


# --- family decision (P8, P9) --------------------------------------------------------------------
def test_keepalives_decide_nothing() -> None:
    # P9: ping events give empty deltas and leave the family undecided (an error event ends
    # the message instead: P16, tests/providers/test_providers_errors.py)
    sn = StreamNormalizer()
    assert sn.feed({"type": "ping"}) == ("", "")
    assert sn.feed({"type": "ping"}) == ("", "")
    assert sn.feed(chunk(content="x")) == ("x", "")
    sn.close()
    assert sn.result.provider == "openai_chat"


@pytest.mark.parametrize(
    ("event", "family"),
    [
        ({"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
          "delta": "a"}, "openai_responses"),
        ({"type": "message_start", "message": {"usage": {"input_tokens": 1}}}, "anthropic"),
        ({"type": "content_block_delta", "index": 0,
          "delta": {"type": "text_delta", "text": "a"}}, "anthropic"),
        ({"object": "chat.completion.chunk", "choices": []}, "openai_chat"),
        ({"usageMetadata": {"promptTokenCount": 1}}, "gemini"),
        ({"candidates": [{"content": {"parts": [{"text": "a"}]}}]}, "gemini"),
        ({"messageStart": {"role": "assistant"}}, "bedrock"),
        ({"metadata": {"usage": {"inputTokens": 1}}}, "bedrock"),
        ({"contentBlockIndex": 0, "delta": {"text": "a"}}, "bedrock"),
        ({"message": {"role": "assistant", "content": "a"}, "done": False}, "ollama"),
        ({"response": "a", "done": False}, "ollama"),
        ({"type": "message-start", "id": "r"}, "cohere"),
        ({"event_type": "interaction.created", "interaction": {"id": "v1"}}, "gemini"),  # P15
        ({"event_type": "step.delta", "index": 0, "delta": {"type": "text", "text": "a"}},
         "gemini"),
        ({"event_type": "content.start", "index": 0, "content": {"type": "text"}}, "gemini"),
        ({"type": "content-delta", "index": 0,
          "delta": {"message": {"content": {"thinking": "t"}}}}, "cohere"),
    ],
)
def test_first_deciding_event(event: dict[str, Any], family: str) -> None:
    # P8: stream events are recognised by their type prefixes / single keys
    _, r = run([event])
    assert r.provider == family


def test_unknown_event_names_keys() -> None:
    # P9: an event no family recognises raises UnknownProviderError naming its keys
    sn = StreamNormalizer()
    with pytest.raises(UnknownProviderError, match="'weird'"):
        sn.feed({"weird": 1})
    assert sn.feed(chunk(content="ok")) == ("ok", "")  # still usable


def test_family_is_kept_for_the_whole_message() -> None:
    # P9: after anthropic decided, an event without a type is malformed (not re-detected)
    sn = StreamNormalizer()
    sn.feed({"type": "message_start", "message": {}})
    with pytest.raises(ResponseShapeError) as info:
        sn.feed(chunk(content="x"))
    assert info.value.path == "type"


def test_explicit_provider_skips_detection() -> None:
    # P8: provider= fixes the family
    _, r = run([{"message": {"content": "a"}, "done": True}], provider="ollama")
    assert r.provider == "ollama" and r.visible == "a"


class Event:
    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return self.d


def test_sdk_object_events() -> None:
    # P7, P9: events may be SDK objects
    _, r = run([Event(chunk(reasoning_content="r")), Event(chunk(content="v"))])
    assert (r.visible, r.reasoning) == ("v", "r")


# --- options -------------------------------------------------------------------------------------
def test_auto_not_available() -> None:
    # P9: "auto" is not available in streams
    with pytest.raises(ValueError, match="auto"):
        StreamNormalizer(start_in_reasoning="auto")


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"tags": ""}, ValueError),
        ({"tags": "a b"}, ValueError),
        ({"preset": "nope"}, ValueError),
        ({"max_tentative": 0}, ValueError),
        ({"delimiters": [("", "x")]}, ValueError),
        ({"colour": "red"}, TypeError),
    ],
)
def test_invalid_options(options: dict[str, Any], error: type) -> None:
    # behaviour.md#a1: invalid options raise ValueError naming the option; unknown ones TypeError
    with pytest.raises(error):
        StreamNormalizer(**options)


def test_delimiters_option() -> None:
    # P9: delimiters for the inline scanner (Magistral raw output)
    _, r = run([chunk(content="[THINK]t[/THINK]v")], preset="magistral")
    assert (r.visible, r.reasoning, r.format) == ("v", "t", "tags")


# --- S3 across sources ---------------------------------------------------------------------------
def test_scanner_reasoning_then_field_reasoning_separated() -> None:
    # S3: reasoning from tags then from a field joins with a blank line
    events = [chunk(content="<think>a</think>b"), chunk(reasoning_content="c")]
    deltas, r = run(events)
    assert "".join(d.reasoning for d in deltas) == "a\n\nc"
    assert (r.visible, r.reasoning, r.format) == ("b", "a\n\nc", "field")


def test_field_reasoning_before_harmony() -> None:
    # S3 with the harmony scanner (content decided before any field was seen)
    events = [chunk(content="<|channel|>analysis<|message|>h<|end|>"),
              chunk(reasoning="f")]
    deltas, r = run(events)
    assert "".join(d.reasoning for d in deltas) == "h\n\nf"
    assert r.reasoning == "h\n\nf"


def test_leading_whitespace_held_until_route_known() -> None:
    # P9: whitespace before the first visible character is held while the route is undecided
    deltas, r = run([chunk(content="\n"), chunk(content="<"), chunk(content="|channel|>final"),
                     chunk(content="<|message|>Hi")])
    assert [d.visible for d in deltas] == ["", "", "", "Hi", ""]
    assert (r.visible, r.format) == ("Hi", "none")


def test_lone_angle_bracket_at_end() -> None:
    # P9: a held "<" is released at close()
    deltas, r = run([chunk(content="<")])
    assert deltas[-1] == ("<", "") and r.visible == "<"


# --- P9 invariants -------------------------------------------------------------------------------
def _pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    out, prev = [], 0
    for p in points:
        out.append(text[prev:p])
        prev = p
    out.append(text[prev:])
    return out


def _chat_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    ev = [chunk(reasoning_content=p) for p in _pieces(reasoning, rc)] if reasoning else []
    ev += [chunk(content=p) for p in _pieces(content, cc)]
    return ev


def _anthropic_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    ev: list[Any] = [{"type": "message_start", "message": {"usage": {"input_tokens": 1}}}]
    if reasoning:
        ev.append({"type": "content_block_start", "index": 0,
                   "content_block": {"type": "thinking", "thinking": ""}})
        ev += [{"type": "content_block_delta", "index": 0,
                "delta": {"type": "thinking_delta", "thinking": p}} for p in _pieces(reasoning, rc)]
        ev.append({"type": "content_block_stop", "index": 0})
    ev += [{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": p}}
           for p in _pieces(content, cc)]
    return ev


def _ollama_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    ev = [{"message": {"role": "assistant", "content": "", "thinking": p}, "done": False}
          for p in _pieces(reasoning, rc)] if reasoning else []
    ev += [{"message": {"role": "assistant", "content": p}, "done": False}
           for p in _pieces(content, cc)]
    return ev


def _responses_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    ev = [{"type": "response.reasoning_summary_text.delta", "output_index": 0,
           "summary_index": 0, "delta": p} for p in _pieces(reasoning, rc)] if reasoning else []
    ev += [{"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
            "delta": p} for p in _pieces(content, cc)]
    return ev


def _gemini_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    def resp(part: dict[str, Any]) -> dict[str, Any]:
        return {"candidates": [{"content": {"parts": [part]}}]}

    ev = [resp({"text": p, "thought": True}) for p in _pieces(reasoning, rc)] if reasoning else []
    ev += [resp({"text": p}) for p in _pieces(content, cc)]
    return ev


def _bedrock_stream(reasoning: str, content: str, rc: list[int], cc: list[int]) -> list[Any]:
    ev = [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {
        "text": p}}}} for p in _pieces(reasoning, rc)] if reasoning else []
    ev += [{"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": p}}}
           for p in _pieces(content, cc)]
    return ev


STREAMS: list[Callable[[str, str, list[int], list[int]], list[Any]]] = [
    _chat_stream, _anthropic_stream, _ollama_stream, _responses_stream, _gemini_stream,
    _bedrock_stream,
]

texts = st.lists(
    st.sampled_from(["a", "b", " ", "\n", "<think>", "</think>", "<", "`", "\u00a0", "é"]),
    max_size=12,
).map("".join)
cuts = st.lists(st.integers(min_value=0, max_value=40), max_size=6)


@settings(max_examples=150, deadline=None)
@given(
    make=st.sampled_from(STREAMS), reasoning=texts, content=texts, rc=cuts, cc=cuts
)
def test_any_split_gives_the_same_extraction(
    make: Callable[..., list[Any]], reasoning: str, content: str, rc: list[int], cc: list[int]
) -> None:
    # P9, S1: how the text is split across deltas does not change the result
    whole_events = make(reasoning, content, [], [])
    split_events = make(reasoning, content, rc, cc)
    _, r1 = run(whole_events)
    d2, r2 = run(split_events)
    assert r1 == r2
    # P9: the result equals the concatenated deltas up to stripping at the two ends
    vis = "".join(d.visible for d in d2)
    rea = "".join(d.reasoning for d in d2)
    assert r2.visible in (vis, vis.strip()) or (r2.visible == "" and vis.isspace())
    assert (r2.reasoning is None and rea.strip() == "") or r2.reasoning in (rea, rea.strip())


@settings(max_examples=100, deadline=None)
@given(reasoning=texts, content=texts.filter(lambda t: "<" not in t))
def test_stream_agrees_with_normalize_for_fields(reasoning: str, content: str) -> None:
    # P9: a stream ends where normalize of the whole message does (content without markup,
    # since normalize's inline split uses "auto" and streams cannot)
    whole = {"choices": [{"message": {"content": content, "reasoning_content": reasoning}}]}
    _, r = run(_chat_stream(reasoning, content, [3, 7], [2, 5]))
    assert r == normalize(whole)


def test_event_error_keeps_earlier_text_in_result() -> None:
    # decision: a malformed field raises; text released before it still counts in the result
    sn = StreamNormalizer()
    with pytest.raises(ResponseShapeError) as info:
        sn.feed(chunk(content="a", refusal=5))
    assert info.value.path == "choices[0].delta.refusal"
    assert sn.feed(chunk(content="b")) == ("b", "")
    sn.close()
    assert sn.result.visible == "ab"


def test_other_special_tokens_are_not_harmony() -> None:
    # P3, P9: only harmony tokens open the harmony route; other "<|" text is released promptly
    deltas, r = run([chunk(content="<|"), chunk(content="im"), chunk(content="_start|>hi")])
    assert [d.visible for d in deltas] == ["", "<|im", "_start|>hi", ""]
    assert (r.visible, r.format) == ("<|im_start|>hi", "none")
