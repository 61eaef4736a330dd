"""``cohere``: the Cohere Chat API v2 (P14 with P1-P12, X1, X2).

Responses and streams by hand, malformed fields (the library's own errors, with their paths),
detection, the stream's error report, SDK objects, and the property that a response and the
stream of its events give the same Extraction, blocks and message (P14).
"""

from __future__ import annotations

import copy
import json
from typing import Any, Optional

import pytest
from _support import expected_extraction
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    Extraction,
    ProviderError,
    ResponseShapeError,
    StreamNormalizer,
    ThinkParseError,
    UnknownProviderError,
    Usage,
    normalize,
    to_message,
)
from thinkparse._types import turn_of


def ex(visible: str, reasoning: Optional[str], fmt: str, **kw: Any) -> Extraction:
    return expected_extraction("cohere", visible, reasoning, fmt, **kw)


def thinking(t: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": t}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def response(*content: Any, finish: str = "COMPLETE", **message: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", **message}
    if content:
        msg["content"] = list(content)
    return {"id": "r1", "finish_reason": finish, "message": msg,
            "usage": {"billed_units": {"input_tokens": 1, "output_tokens": 2},
                      "tokens": {"input_tokens": 10, "output_tokens": 20}}}


U = Usage(10, 20, None, None)


def stream(events: list[Any], provider: Optional[str] = None) -> StreamNormalizer:
    sn = StreamNormalizer(provider=provider)
    for e in events:
        sn.feed(e)
    sn.close()
    return sn


# --- whole responses ---------------------------------------------------------------------------
def test_thinking_then_text() -> None:
    # P1, P2, P11, P12: the thinking item is the reasoning; usage.tokens, no total
    r = normalize(response(thinking("plan"), text("answer")))
    assert r == ex("answer", "plan", "blocks", usage=U)
    assert r.finish_reason == "COMPLETE"


def test_several_items_join() -> None:
    # P1, P2: thinking items join with a blank line, text items with nothing
    r = normalize(response(thinking("a"), text("x"), thinking("b"), text("y")))
    assert (r.visible, r.reasoning) == ("xy", "a\n\nb")


def test_tool_plan_is_reasoning_after_the_thinking_items() -> None:
    # decision (module docstring): tool_plan is a dedicated reasoning field
    r = normalize(response(thinking("think"), tool_plan="plan", finish="TOOL_CALL",
                           tool_calls=[{"id": "c", "type": "function",
                                        "function": {"name": "f", "arguments": "{}"}}]))
    assert (r.visible, r.reasoning, r.format) == ("", "think\n\nplan", "blocks")
    only_plan = normalize(response(tool_plan="plan"))
    assert (only_plan.reasoning, only_plan.format) == ("plan", "field")
    assert [b.wire for b in only_plan.blocks] == [{"tool_plan": "plan"}]
    assert normalize(response(text("a"), tool_plan="")).blocks == ()


def test_empty_thinking_is_not_redacted() -> None:
    # P6: Cohere has no redacted reasoning; an empty thinking item is an opaque block
    r = normalize(response(thinking(""), text("a")))
    assert (r.reasoning, r.redacted, r.format) == (None, False, "none")
    assert [b.kind for b in r.blocks] == ["opaque"]


def test_usage_reads_tokens_not_billed_units() -> None:
    # P5, P12: tokens as reported (floats with no fraction part are counts), billed units left
    d = response(text("a"))
    d["usage"] = {"billed_units": {"input_tokens": 5, "output_tokens": 6},
                  "tokens": {"input_tokens": 7.0, "output_tokens": 8.0}, "cached_tokens": 3.0}
    assert normalize(d).usage == Usage(7, 8, None, None)
    d["usage"] = {"billed_units": {"input_tokens": 5, "output_tokens": 6}}
    assert normalize(d).usage == Usage()
    d["usage"] = None
    assert normalize(d).usage == Usage()


def test_finish_reasons_as_reported() -> None:
    # W4: every documented finish reason comes back as it is
    for reason in ("COMPLETE", "STOP_SEQUENCE", "MAX_TOKENS", "TOOL_CALL", "ERROR", "TIMEOUT"):
        assert normalize(response(text("a"), finish=reason)).finish_reason == reason


def test_unknown_items_and_fields_are_ignored() -> None:
    # P1, P7: citations, tool calls and item types the family does not know are not text
    r = normalize(response(text("a"), {"type": "image", "url": "x"},
                           citations=[{"start": 0, "end": 1, "text": "a", "sources": []}]))
    assert (r.visible, r.reasoning) == ("a", None)


def test_inline_tags_without_thinking_items() -> None:
    # P3, P4: without dedicated reasoning, tags in a text item are split; with it, kept
    assert normalize(response(text("<think>r</think>v"))).reasoning == "r"
    kept = normalize(response(thinking("t"), text("<think>r</think>v")))
    assert (kept.reasoning, kept.visible) == ("t", "<think>r</think>v")


# --- malformed responses (P8) -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d["message"]["content"].append("text"), "message.content[1]"),
        (lambda d: d["message"]["content"].append(None), "message.content[1]"),
        (lambda d: d["message"]["content"][0].update(thinking=3), "message.content[0].thinking"),
        (lambda d: d["message"]["content"][0].update(thinking=["a"]),
         "message.content[0].thinking"),
        (lambda d: d["message"].update(content=[text("a"), {"type": "text", "text": {}}]),
         "message.content[1].text"),
        (lambda d: d["message"].update(content="a string"), "message.content"),
        (lambda d: d["message"].update(tool_plan=7), "message.tool_plan"),
        (lambda d: d.update(message=None), "message"),
        (lambda d: d.update(usage=[1]), "usage"),
        (lambda d: d["usage"].update(tokens="x"), "usage.tokens"),
        (lambda d: d["usage"]["tokens"].update(input_tokens="x"), "usage.tokens.input_tokens"),
        (lambda d: d["usage"]["tokens"].update(output_tokens=1.5),
         "usage.tokens.output_tokens"),
        (lambda d: d["usage"]["tokens"].update(output_tokens=True),
         "usage.tokens.output_tokens"),
    ],
)
def test_malformed_response_fields_name_their_path(mutate: Any, path: str) -> None:
    d = response(thinking("t"))
    mutate(d)
    with pytest.raises(ResponseShapeError) as err:
        normalize(d, provider="cohere")
    assert err.value.path == path


def test_message_not_an_object() -> None:
    with pytest.raises(ResponseShapeError) as err:
        normalize({"id": "r", "finish_reason": "COMPLETE", "message": "hi"}, provider="cohere")
    assert err.value.path == "message"


# --- detection (P8) -----------------------------------------------------------------------------
def test_detection() -> None:
    assert normalize(response(text("a"))).provider == "cohere"
    assert normalize({"message": {"role": "assistant", "tool_plan": "p"},
                      "finish_reason": "TOOL_CALL"}).provider == "cohere"
    # an Ollama message keeps its family; a Chat choice or a string content is no Cohere response
    assert normalize({"message": {"content": "a", "thinking": "t"}}).provider == "ollama"
    with pytest.raises(UnknownProviderError):
        normalize({"index": 0, "message": {"role": "assistant", "content": None},
                   "finish_reason": "stop"})
    with pytest.raises(UnknownProviderError):
        normalize({"message": {"role": "assistant", "content": "hi"}, "finish_reason": "x"})
    for t in ("message-start", "content-start", "content-delta", "content-end",
              "tool-plan-delta", "tool-call-start", "tool-call-delta", "tool-call-end",
              "citation-start", "citation-end", "message-end", "debug"):
        sn = StreamNormalizer()
        sn.feed(delta("text", "a") if t == "content-delta" else {"type": t})
        sn.close()
        assert sn.result.provider == "cohere", t


def test_stream_event_given_to_normalize() -> None:
    with pytest.raises(UnknownProviderError, match="StreamNormalizer"):
        normalize({"type": "content-delta", "index": 0,
                   "delta": {"message": {"content": {"text": "a"}}}})


# --- streams -----------------------------------------------------------------------------------
def delta(kind: str, piece: Any, index: Any = 0) -> dict[str, Any]:
    return {"type": "content-delta", "index": index,
            "delta": {"message": {"content": {kind: piece}}}}


def test_stream_without_content_start() -> None:
    # P9: deltas alone are enough; the turn gets an item of each delta's kind
    sn = stream([delta("thinking", "t"), delta("thinking", "u"), delta("text", "a", 1),
                 {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}])
    assert (sn.result.visible, sn.result.reasoning) == ("a", "tu")
    assert sn.message == {"role": "assistant",
                          "content": [{"type": "thinking", "thinking": "tu"},
                                      {"type": "text", "text": "a"}]}


def test_stream_segments_by_index_and_plan() -> None:
    # P2, S3: each thinking item and the tool plan are segments of their own
    sn = stream([{"type": "message-start", "id": "m"},
                 delta("thinking", "a", 0), delta("thinking", "b", 1),
                 {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": "p"}}}])
    assert sn.result.reasoning == "a\n\nb\n\np"


def test_stream_message_start_holding_items() -> None:
    # a message-start that already holds content (not seen on the wire; read like a response)
    sn = stream([{"type": "message-start", "id": "m", "delta": {"message": {
        "role": "assistant", "content": [thinking("t"), text("a")], "tool_plan": "p"}}},
        delta("text", "b", 1)])
    assert (sn.result.visible, sn.result.reasoning) == ("ab", "t\n\np")
    assert sn.message == {"role": "assistant", "tool_plan": "p",
                          "content": [thinking("t"), text("a"), text("b")]}


def test_stream_error_is_recognisable() -> None:
    # P16: message-end carries a stream's failure: delta.error or finish_reason ERROR raise
    # ProviderError (type: the finish reason; message: the error text); the result keeps what
    # came before, with finish_reason "error"
    for end, kind, message in (
            ({"finish_reason": "ERROR", "error": "internal error"}, "ERROR", "internal error"),
            ({"finish_reason": "ERROR"}, "ERROR", None),
            ({"error": "internal error"}, None, "internal error")):
        sn = StreamNormalizer()
        sn.feed(delta("text", "partial"))
        with pytest.raises(ProviderError) as info:
            sn.feed({"type": "message-end", "delta": end})
        assert (info.value.type, info.value.message, info.value.event) == (
            kind, message, "message-end")
        assert (sn.result.visible, sn.result.finish_reason) == ("partial", "error")
    sn = stream([delta("text", "partial"), {"type": "message-end", "delta": {
        "finish_reason": "COMPLETE"}}])
    assert (sn.result.visible, sn.result.finish_reason) == ("partial", "COMPLETE")


@pytest.mark.parametrize(
    ("event", "path"),
    [
        ({"type": "content-delta", "index": 0}, "delta"),
        ({"type": "content-delta", "index": 0, "delta": []}, "delta"),
        ({"type": "content-delta", "index": 0, "delta": {}}, "delta.message"),
        ({"type": "content-delta", "index": 0, "delta": {"message": {}}},
         "delta.message.content"),
        ({"type": "content-delta", "index": 0, "delta": {"message": {"content": "a"}}},
         "delta.message.content"),
        (delta("thinking", 3), "delta.message.content.thinking"),
        (delta("text", ["a"]), "delta.message.content.text"),
        (delta("text", "a", "0"), "index"),
        (delta("text", "a", True), "index"),
        ({"type": "content-start", "index": 0,
          "delta": {"message": {"content": {"type": "thinking", "thinking": 1}}}},
         "delta.message.content.thinking"),
        ({"type": "content-start", "index": [0],
          "delta": {"message": {"content": {"type": "text"}}}}, "index"),
        ({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": 2}}},
         "delta.message.tool_plan"),
        ({"type": "tool-call-delta", "index": 0,
          "delta": {"message": {"tool_calls": {"function": {"arguments": 1}}}}},
         "delta.message.tool_calls.function.arguments"),
        ({"type": "tool-call-delta", "index": 0, "delta": {"message": {"tool_calls": [1]}}},
         "delta.message.tool_calls"),
        ({"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": "x"}}},
         "delta.message.tool_calls"),
        ({"type": "citation-start", "index": "1", "delta": {}}, "index"),
        ({"type": "message-start", "delta": {"message": {"content": ["x"]}}},
         "delta.message.content[0]"),
        ({"type": "message-end", "delta": "x"}, "delta"),
        ({"type": "message-end", "delta": {"usage": {"tokens": {"output_tokens": "9"}}}},
         "delta.usage.tokens.output_tokens"),
        ({"type": "message-end", "delta": {"error": 5}}, "delta.error"),
        ({"index": 0}, "type"),
        ({"type": 3}, "type"),
    ],
)
def test_malformed_events_name_their_path(event: dict[str, Any], path: str) -> None:
    # P8, P9: ResponseShapeError with the field's path; the normaliser stays usable
    sn = StreamNormalizer(provider="cohere")
    sn.feed(delta("text", "before"))
    with pytest.raises(ResponseShapeError) as err:
        sn.feed(event)
    assert err.value.path == path
    sn.close()
    assert sn.result.visible == "before"


def test_event_without_type_before_the_family_is_known() -> None:
    with pytest.raises(UnknownProviderError):
        StreamNormalizer().feed({"index": 0, "delta": {"message": {"content": {"text": "a"}}}})


# --- generated streams: only the library's errors, stable turns (P9, X1, X2, M1) ----------------
PIECE = st.sampled_from(["", "a", " b", "\n", "c d", 3, None])
IDX = st.sampled_from([0, 0, 1, None, True, "0"])


@st.composite
def any_event(draw: Any) -> Any:
    kind = draw(st.sampled_from(["content-delta", "content-delta", "content-start",
                                 "content-end", "tool-plan-delta", "tool-call-start",
                                 "tool-call-delta", "citation-start", "message-start",
                                 "message-end", "debug", "other"]))
    idx = draw(IDX)
    if kind == "content-delta":
        return delta(draw(st.sampled_from(["text", "thinking"])), draw(PIECE), idx)
    if kind == "content-start":
        k = draw(st.sampled_from(["text", "thinking", "image"]))
        return {"type": kind, "index": idx,
                "delta": {"message": {"content": {"type": k, k: draw(PIECE)}}}}
    if kind == "tool-plan-delta":
        return {"type": kind, "delta": {"message": {"tool_plan": draw(PIECE)}}}
    if kind == "tool-call-start":
        return {"type": kind, "index": idx, "delta": {"message": {"tool_calls": {
            "id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}}}}
    if kind == "tool-call-delta":
        return {"type": kind, "index": idx, "delta": {"message": {"tool_calls": {
            "function": {"arguments": draw(PIECE)}}}}}
    if kind == "citation-start":
        return {"type": kind, "index": idx, "delta": {"message": {"citations": {"text": "a"}}}}
    if kind == "message-start":
        return {"type": kind, "id": "m", "delta": draw(st.sampled_from([
            {"message": {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": [],
                         "citations": []}},
            {"message": {"role": "assistant", "content": [thinking("t")], "tool_plan": "p"}},
            {}, None]))}
    if kind == "message-end":
        return {"type": kind, "delta": {"finish_reason": draw(st.sampled_from(
            ["COMPLETE", "ERROR", None])), "usage": draw(st.sampled_from([
                None, {"tokens": {"input_tokens": 1, "output_tokens": 2.0}},
                {"billed_units": {"input_tokens": 1}}, {"tokens": {"output_tokens": "x"}}]))}}
    if kind == "debug":
        return {"type": "debug", "prompt": "p"}
    return {"type": kind, "index": idx}


def _outcome(fn: Any) -> Any:
    try:
        return ("ok", fn())
    except ThinkParseError as e:  # the library's own errors only
        return ("error", type(e).__name__, str(e))


@settings(max_examples=300, deadline=None)
@given(st.lists(any_event(), min_size=1, max_size=12))
def test_generated_streams(events: list[Any]) -> None:
    sn = StreamNormalizer(provider="cohere")
    deltas, failed = [], False
    for ev in events:
        got = _outcome(lambda e=ev: sn.feed(e))
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
        assert r.reasoning in (rea, rea.strip()) if rea.strip() else r.reasoning is None
    turn = turn_of(r)
    assert turn is not None
    first = _outcome(lambda: (sn.message, [(b, b.wire) for b in turn.blocks]))
    assert first == _outcome(lambda: (sn.message, [(b, b.wire) for b in turn.blocks]))
    assert _outcome(lambda: json.dumps(turn.response)) == _outcome(
        lambda: json.dumps(turn.response))


# --- P14: a response and the stream of its events give the same result ------------------------
def _cut(s: str, cuts: list[int]) -> list[str]:
    out, prev = [], 0
    for c in sorted({min(max(c, 0), len(s)) for c in cuts}):
        out.append(s[prev:c])
        prev = c
    out.append(s[prev:])
    return [p for p in out if p] or [""]


TEXTS = st.text(alphabet="ab \n.é<>", max_size=14)
ITEM = st.tuples(st.sampled_from(["thinking", "text"]), TEXTS)
CALL_ARGS = st.sampled_from(['{"city": "Paris"}', "{}", '{"n": [1, 2]}'])


@st.composite
def turns(draw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A response and the events that stream it (cut at random places)."""
    items = draw(st.lists(ITEM, max_size=4))
    plan = draw(st.one_of(st.none(), TEXTS.filter(bool)))
    calls = draw(st.lists(CALL_ARGS, max_size=2))
    cited = draw(st.booleans())
    cuts = draw(st.lists(st.integers(0, 14), max_size=4))
    full_start = draw(st.booleans())
    floats = draw(st.booleans())
    finish = "TOOL_CALL" if calls else draw(st.sampled_from(["COMPLETE", "MAX_TOKENS"]))
    n_in, n_out = draw(st.integers(0, 2000)), draw(st.integers(0, 500))
    tokens: dict[str, Any] = {"input_tokens": float(n_in) if floats else n_in,
                              "output_tokens": float(n_out) if floats else n_out}
    usage = {"billed_units": {"input_tokens": 3, "output_tokens": 4}, "tokens": tokens}
    msg: dict[str, Any] = {"role": "assistant"}
    start: dict[str, Any] = {"role": "assistant"}
    if full_start:
        start.update({"content": [], "tool_plan": "", "tool_calls": [], "citations": []})
    events: list[dict[str, Any]] = [{"id": "r", "type": "message-start",
                                     "delta": {"message": start}}]
    if items:
        msg["content"] = [{"type": k, k: t} for k, t in items]
        for i, (k, t) in enumerate(items):
            events.append({"type": "content-start", "index": i,
                           "delta": {"message": {"content": {"type": k, k: ""}}}})
            events += [delta(k, p, i) for p in _cut(t, cuts) if p]
            events.append({"type": "content-end", "index": i})
    if plan is not None:  # the plan after the thinking, before the calls it plans
        msg["tool_plan"] = plan
        events += [{"type": "tool-plan-delta", "delta": {"message": {"tool_plan": p}}}
                   for p in _cut(plan, cuts)]
    if calls:
        msg["tool_calls"] = []
        for i, args in enumerate(calls):
            call = {"id": f"f_{i}", "type": "function",
                    "function": {"name": "f", "arguments": args}}
            msg["tool_calls"].append(call)
            events.append({"type": "tool-call-start", "index": i, "delta": {"message": {
                "tool_calls": {**call, "function": {"name": "f", "arguments": ""}}}}})
            events += [{"type": "tool-call-delta", "index": i, "delta": {"message": {
                "tool_calls": {"function": {"arguments": p}}}}} for p in _cut(args, cuts)]
            events.append({"type": "tool-call-end", "index": i})
    if cited:
        citation = {"start": 0, "end": 1, "text": "a", "sources": [], "type": "TEXT_CONTENT"}
        msg["citations"] = [citation]
        events += [{"type": "citation-start", "index": 0,
                    "delta": {"message": {"citations": citation}}},
                   {"type": "citation-end", "index": 0}]
    events.append({"type": "message-end", "delta": {"finish_reason": finish, "usage": usage}})
    return {"id": "r", "finish_reason": finish, "message": msg, "usage": usage}, events


@settings(max_examples=200, deadline=None)
@given(turns(), st.sampled_from([None, "cohere"]))
def test_stream_equals_response(turn: Any, provider: Optional[str]) -> None:
    # P14: normalize(response) == StreamNormalizer fed its events; X1, X2: same blocks (with
    # their wire) and message; inputs are not modified
    resp, events = turn
    resp_copy, events_copy = copy.deepcopy(resp), copy.deepcopy(events)
    x = normalize(resp, provider=provider)
    sn = stream(events, provider)
    y = sn.result
    assert y == x
    assert y.blocks == x.blocks
    assert [b.wire for b in y.blocks] == [b.wire for b in x.blocks]
    assert sn.message == to_message(x) == to_message(resp)
    assert to_message(y) == sn.message
    assert (y.usage, y.finish_reason, y.format) == (x.usage, x.finish_reason, x.format)
    assert resp == resp_copy and events == events_copy


def test_stream_response_is_the_non_streamed_response() -> None:
    # X2: the response a stream adds up to, with the top-level fields a response has
    resp, events = (
        response(thinking("t"), text("a")),
        [{"id": "r1", "type": "message-start", "delta": {"message": {
            "role": "assistant", "content": [], "tool_plan": "", "tool_calls": [],
            "citations": []}}},
         {"type": "content-start", "index": 0,
          "delta": {"message": {"content": {"type": "thinking", "thinking": ""}}}},
         delta("thinking", "t"), {"type": "content-end", "index": 0},
         {"type": "content-start", "index": 1,
          "delta": {"message": {"content": {"type": "text", "text": ""}}}},
         delta("text", "a", 1), {"type": "content-end", "index": 1},
         {"type": "message-end", "delta": {"finish_reason": "COMPLETE",
                                           "usage": response()["usage"]}}],
    )
    sn = stream(events)
    turn = turn_of(sn.result)
    assert turn is not None and turn.response == resp
    assert sn.result == normalize(resp)


# --- SDK objects (P7) ---------------------------------------------------------------------------
def test_sdk_objects_give_the_same_turn() -> None:
    cohere_sdk = pytest.importorskip("cohere")
    from pydantic import TypeAdapter

    resp = response(thinking("t"), text("a"), tool_plan="p", finish="TOOL_CALL",
                    tool_calls=[{"id": "c", "type": "function",
                                 "function": {"name": "f", "arguments": "{}"}}])
    obj = cohere_sdk.V2ChatResponse.model_validate(resp)
    assert normalize(obj) == normalize(resp)
    assert normalize(obj).usage == U  # the SDK's float counts read as integers
    assert to_message(obj) == to_message(resp)
    assert normalize(obj).blocks == normalize(resp).blocks
    adapter: TypeAdapter[Any] = TypeAdapter(cohere_sdk.StreamedChatResponseV2)
    events = [{"type": "message-start", "id": "r1", "delta": {"message": {"role": "assistant"}}},
              delta("thinking", "t"), delta("text", "a", 1),
              {"type": "message-end", "delta": {"finish_reason": "COMPLETE",
                                                "usage": resp["usage"]}}]
    objects = [adapter.validate_python(e) for e in events]
    assert not any(isinstance(o, dict) for o in objects)
    a, b = stream(objects), stream(events)
    assert a.result == b.result and a.message == b.message


# --- generated responses: only the library's errors; blocks and message never fail (P8) -------
VALUE = st.sampled_from(["", "a", " b", "\n", 3, 2.5, None, True, [1], {"k": 1}])
CONTENT_ITEM = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["text", "thinking", "image", None, 1])},
                          optional={"text": VALUE, "thinking": VALUE}),
    VALUE,
)
COHERE_MESSAGE = st.fixed_dictionaries({}, optional={
    "role": st.sampled_from(["assistant", None]),
    "content": st.one_of(st.lists(CONTENT_ITEM, max_size=4), VALUE),
    "tool_plan": VALUE,
    "tool_calls": st.one_of(st.just([{"id": "c", "type": "function",
                                      "function": {"name": "f", "arguments": "{}"}}]), VALUE),
    "citations": st.one_of(st.just([{"text": "a"}]), VALUE),
})
COHERE_USAGE = st.one_of(VALUE, st.fixed_dictionaries({}, optional={
    "tokens": st.one_of(VALUE, st.fixed_dictionaries(
        {}, optional={"input_tokens": VALUE, "output_tokens": VALUE})),
    "billed_units": VALUE,
}))


@settings(max_examples=400, deadline=None)
@given(st.one_of(COHERE_MESSAGE, VALUE), COHERE_USAGE,
       st.sampled_from(["COMPLETE", "ERROR", None, 3]))
def test_generated_responses(msg: Any, usage: Any, finish: Any) -> None:
    d = {"id": "r", "finish_reason": finish, "message": msg, "usage": usage}
    got = _outcome(lambda: normalize(d, provider="cohere"))
    if got[0] == "ok":
        x = got[1]
        assert x.reasoning is None or x.reasoning.strip()
        assert x.visible == "" or not x.visible.isspace()
        assert isinstance(x.blocks, tuple)
        assert to_message(x)["role"] == "assistant"
        assert x.reasoning == (
            "\n\n".join(b.text for b in x.blocks if b.kind != "opaque") or None
        ) or x.format == "tags"
