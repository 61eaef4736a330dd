"""Cohere Chat API v2 (family ``cohere``): ``POST /v2/chat``, also served by vLLM.

Wire facts (cohere-python ``src/cohere/v2/types/v2chat_response.py``,
``v2chat_stream_response.py`` and ``src/cohere/types/``; Cohere's OpenAPI document
``cohere-openapi.yaml`` in cohere-developer-experience, schemas ``AssistantMessageResponse``,
``AssistantMessageV2``, ``ChatThinkingContent``, ``Usage``, ``ChatFinishReason`` and the
``/v2/chat`` stream examples; docs.cohere.com ``docs/reasoning``, ``v2/docs/streaming``,
``v2/docs/tool-use-overview``):

* A response (``V2ChatResponse``): ``{id, finish_reason, message, usage?, logprobs?}``;
  ``finish_reason`` is ``COMPLETE``, ``STOP_SEQUENCE``, ``MAX_TOKENS``, ``TOOL_CALL``, ``ERROR``
  ("the generation failed due to an internal error") or ``TIMEOUT``.  vLLM's Cohere endpoint
  (``vllm/entrypoints/cohere/protocol.py``) sends the same envelope plus ``kv_transfer_params``.
* ``message`` (``AssistantMessageResponse``): ``{role: "assistant", content?: [...],
  tool_plan?, tool_calls?, citations?}``.  Content items: ``{type: "text", text}`` and
  ``{type: "thinking", thinking}`` (``ThinkingAssistantMessageResponseContentItem``; "present
  when thinking is enabled, and will contain the model's internal reasoning"); thinking comes
  before the text.  ``tool_plan`` is "a chain-of-thought style reflection and plan that the
  model generates when working with tools"; ``tool_calls[]`` are ``{id, type: "function",
  function: {name, arguments}}`` with ``arguments`` JSON text; ``citations[]`` carry ``start``,
  ``end``, ``text``, ``sources``, ``content_index`` and ``type`` (``TEXT_CONTENT``,
  ``THINKING_CONTENT``, ``PLAN``).
* ``usage`` (``Usage``): ``tokens.{input_tokens, output_tokens}`` (the model's counts),
  ``billed_units.{input_tokens, output_tokens, search_units, classifications}`` (billing units,
  not tokens) and ``cached_tokens``.  The counts are JSON numbers (the SDK types them ``float``;
  the docs' stream examples show ``18.0``).  No total and no reasoning count are reported.
* The stream (``V2ChatStreamResponse``; server-sent events, ``data: [DONE]`` after the last,
  the OpenAPI document's stream terminator): ``message-start`` (``id``, ``delta.message.role``;
  the docs' RAG streaming page shows it with empty ``content``, ``tool_plan``, ``tool_calls`` and
  ``citations`` as well), ``content-start`` (``index``,
  ``delta.message.content.{type, text | thinking}``), ``content-delta`` (``index``,
  ``delta.message.content.text`` or ``.thinking``, ``logprobs``), ``content-end`` (``index``),
  ``tool-plan-delta`` (``delta.message.tool_plan``), ``tool-call-start`` (``index``,
  ``delta.message.tool_calls``: one whole ``ToolCallV2`` with ``arguments: ""``),
  ``tool-call-delta`` (``index``, ``delta.message.tool_calls.function.arguments``),
  ``tool-call-end``, ``citation-start`` (``index``, ``delta.message.citations``: one
  ``Citation``), ``citation-end``, ``message-end`` (``id``, ``delta.{finish_reason, usage,
  error}``; ``error`` is "an error message if an error occurred during the generation") and
  ``debug`` (``prompt``).
* The next turn (``AssistantMessage`` / ``AssistantMessageV2``): ``{role: "assistant",
  tool_calls?, tool_plan?, content?: str | [text and thinking items], citations?}``; the tool
  use guide appends ``response.message`` to ``messages`` as it is.

Decisions (the first three are rule P14 of docs/behaviour.md):

* ``tool_plan`` is reasoning (a dedicated field, format ``"field"``, after the thinking items
  of a whole response; a stream releases it where its deltas arrive).  Tool calls, their
  arguments and citations are never text (P1).  A thinking item's empty text is not redacted
  reasoning: Cohere has none (P6).
* Usage: ``usage.tokens`` gives the input and output figures; ``billed_units`` is not read.
* A stream error is recognisable by ``message-end``: its ``delta.error`` text or its
  ``finish_reason`` ``ERROR`` goes to the collector's ``error_event``.
* Content items and tool calls are keyed by the ``index`` of their own events, kept apart (the
  documented tool-call stream numbers its calls from 0).
* The stream's turn: ``message-start`` gives ``id`` and the message's own fields (its empty
  ``content``, ``tool_plan``, ``tool_calls`` and ``citations`` add nothing); content items come
  from ``content-start`` (an index that only had deltas gets an item of the delta's kind), text
  pieces are concatenated per item, tool calls from ``tool-call-start`` with their argument
  pieces appended, citations from ``citation-start`` in order, ``finish_reason`` and ``usage``
  from ``message-end``.  The start and end events are kept as received and read on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import ReasoningBlock
from ._access import (
    Figures,
    Where,
    as_list,
    as_map,
    count_figures,
    item_map,
    jsonify,
    maps,
    missing,
    opt_index,
    opt_list,
    opt_map,
    opt_str,
    req_map,
    shape_error,
    top_model,
)
from ._assemble import BLOCKS, FIELD, Parts
from ._collector import Collector, SegmentKey
from ._family import Family, ItemPieces, Message, MessageOptions, block

PROVIDER = "cohere"

_EVENTS = frozenset({
    "message-start", "content-start", "content-delta", "content-end", "tool-plan-delta",
    "tool-call-start", "tool-call-delta", "tool-call-end", "citation-start", "citation-end",
    "message-end", "debug",
})
#: The message fields a stream adds up from its own events.
_STREAMED = frozenset({"content", "tool_plan", "tool_calls", "citations"})
#: The request ``AssistantMessage`` fields besides ``role``.
_MESSAGE_KEYS = ("content", "tool_plan", "tool_calls", "citations")
_TOKENS = ("input_tokens", "output_tokens", None)
_PLAN = SegmentKey("field", "tool_plan")
_TEXT = "text"
_THINKING = "thinking"
_ARGUMENTS = "arguments"
_START_DELTA = ("delta", "message", "content")


# --- usage (P5, P12) -------------------------------------------------------------------------
def usage_figures(u: Mapping[str, Any], where: Where) -> Optional[Figures]:
    """The figures of a Cohere ``usage`` object: ``tokens`` (``None`` when it has none)."""
    tokens = opt_map(u, "tokens", where)
    return None if tokens is None else count_figures(tokens, (where, "tokens"), _TOKENS)


def _usage(holder: Mapping[str, Any], where: Where) -> Optional[Figures]:
    u = opt_map(holder, "usage", where)
    return None if u is None else usage_figures(u, (where, "usage"))


# --- whole responses --------------------------------------------------------------------------
def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: the message's content items in order, then its tool plan."""
    msg = d.get("message")
    if type(msg) is not dict:
        msg = req_map(d, "message")
    visible: list[str] = []
    segments: list[str] = []
    fmt = FIELD
    items = msg.get("content")
    if type(items) is not list:
        items = opt_list(msg, "content", "message") or ()
    for i, item in enumerate(items):
        if type(item) is not dict:
            item = item_map(item, ("message", "content"), i)
        t = item.get("type")
        if t in (_TEXT, _THINKING):
            text = item.get(t)
            if type(text) is not str:
                text = opt_str(item, t, ("message", "content", i))
            if not text:
                continue
            if t == _TEXT:
                visible.append(text)
            else:
                segments.append(text)
                if fmt is FIELD and not text.isspace():
                    fmt = BLOCKS
    plan = msg.get("tool_plan")
    if plan is not None and type(plan) is not str:
        plan = opt_str(msg, "tool_plan", "message")
    if plan:
        segments.append(plan)
    return Parts(("".join(visible), segments, fmt, False, None, _usage(d, ""),
                  d.get("finish_reason")))


# --- streams ----------------------------------------------------------------------------------
def _delta_message(ev: Mapping[str, Any], required: bool) -> Optional[Mapping[str, Any]]:
    """An event's ``delta.message`` (``None`` when absent and not ``required``)."""
    if required:
        return req_map(req_map(ev, "delta"), "message", "delta")
    delta = opt_map(ev, "delta", "")
    return None if delta is None else opt_map(delta, "message", "delta")


class Decoder:
    """Decodes a Chat v2 stream, event by event."""

    __slots__ = ("_index", "_key", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = CohereAccumulator()
        self._index: Any = self  # the content index of the last reasoning piece, and its key
        self._key = _PLAN

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event."""
        t = ev.get("type")
        if t == "content-delta":
            delta = ev.get("delta")
            msg = delta.get("message") if type(delta) is dict else None
            content = msg.get("content") if type(msg) is dict else None
            if type(content) is not dict:
                content = self._content(ev)
            idx = opt_index(ev, "index", "")
            thinking = opt_str(content, _THINKING, _START_DELTA)
            if thinking:
                self.acc.field(idx, _THINKING).append(thinking)
                self._reasoning(idx, thinking)
            text = opt_str(content, _TEXT, _START_DELTA)
            if text:
                self.acc.field(idx, _TEXT).append(text)
                self.out.visible(text)
        elif t == "tool-call-delta":
            msg = _delta_message(ev, False)
            calls = opt_map(msg, "tool_calls", ("delta", "message")) if msg else None
            fn = opt_map(calls, "function", ("delta", "message", "tool_calls")) if calls else None
            if fn:
                args = opt_str(fn, _ARGUMENTS, ("delta", "message", "tool_calls", "function"))
                if args:
                    self.acc.field(("tool", opt_index(ev, "index", "")), _ARGUMENTS).append(args)
        elif t == "tool-plan-delta":
            msg = _delta_message(ev, False)
            plan = opt_str(msg, "tool_plan", ("delta", "message")) if msg else None
            if plan:
                self.acc.plan.append(plan)
                self.out.reasoning(_PLAN, plan, FIELD)
        elif t == "content-start":
            idx = opt_index(ev, "index", "")
            msg = _delta_message(ev, False)
            item = opt_map(msg, "content", ("delta", "message")) if msg else None
            if item:
                self._start(idx, item, _START_DELTA)
            self.acc.keep(ev)
        elif t == "message-end":
            delta = opt_map(ev, "delta", "")
            if delta:
                figures = _usage(delta, "delta")
                if figures is not None:
                    self.out.usage(figures)
                reason = delta.get("finish_reason")
                if reason is not None:
                    self.out.finish(reason)
                if opt_str(delta, "error", "delta") or reason == "ERROR":
                    self.acc.keep(ev)
                    self.out.error_event(delta, t, reason)  # the wire's failure report (P16)
            self.acc.keep(ev)
        elif t == "message-start":
            self.out.response_started(t)
            msg = _delta_message(ev, False)
            if msg:
                self._resumed(msg)
            self.acc.keep(ev)
        elif t == "tool-call-start" or t == "citation-start":
            opt_index(ev, "index", "")
            msg = _delta_message(ev, False)
            if msg:
                opt_map(msg, "tool_calls" if t == "tool-call-start" else "citations",
                        ("delta", "message"))
            self.acc.keep(ev)
        elif type(t) is not str:
            if t is None:
                raise missing("", "type", "a string")
            raise shape_error("", "type", "a string", t)
        # content-end, tool-call-end, citation-end, debug and unknown types carry no text

    @staticmethod
    def _content(ev: Mapping[str, Any]) -> Mapping[str, Any]:
        """The checked ``delta.message.content`` object of a content event."""
        return req_map(_delta_message(ev, True) or {}, "content", ("delta", "message"))

    def _reasoning(self, idx: Any, text: str) -> None:
        if idx != self._index:
            self._index = idx
            self._key = SegmentKey("content", idx)
        self.out.reasoning(self._key, text, BLOCKS)

    def _start(self, idx: Any, item: Mapping[str, Any], where: Where) -> None:
        """A content item's first text (``content-start``, or an item of ``message-start``)."""
        thinking = opt_str(item, _THINKING, where)
        if thinking:
            self._reasoning(idx, thinking)
        text = opt_str(item, _TEXT, where)
        if text:
            self.out.visible(text)

    def _resumed(self, msg: Mapping[str, Any]) -> None:
        """What a ``message-start`` message already holds (recorded streams: nothing)."""
        content = opt_list(msg, "content", ("delta", "message"))
        for i, raw in enumerate(content or ()):
            item = item_map(raw, ("delta", "message", "content"), i)
            if item.get("type") in (_TEXT, _THINKING):
                self._start(("start", i), item, ("delta", "message", "content", i))
        plan = opt_str(msg, "tool_plan", ("delta", "message"))
        if plan:
            self.out.reasoning(_PLAN, plan, FIELD)

    def close(self) -> None:
        """Nothing is held per message."""


class CohereAccumulator(ItemPieces):
    """Chat v2 stream events added up (rules in the module docstring)."""

    def __init__(self) -> None:
        ItemPieces.__init__(self)
        self.base: dict[str, Any] = {}
        self.msg: dict[str, Any] = {"role": "assistant"}
        self.items: dict[Any, dict[str, Any]] = {}
        self.plan: list[str] = []
        self.plan_start = ""  # a tool plan message-start already held
        self.tools: dict[Any, dict[str, Any]] = {}
        self.start_tools: list[Any] = []
        self.citations: list[Any] = []

    def read_kept(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("type")
        delta = as_map(ev.get("delta"))
        msg = as_map(delta.get("message")) if delta is not None else None
        if t == "content-start":
            item = as_map(msg.get("content")) if msg is not None else None
            if item is not None:
                self.items[opt_index(ev, "index", "")] = jsonify(item, True)
        elif t == "tool-call-start":
            call = as_map(msg.get("tool_calls")) if msg is not None else None
            if call is not None:
                self.tools[("tool", opt_index(ev, "index", ""))] = jsonify(call)
        elif t == "citation-start":
            citation = msg.get("citations") if msg is not None else None
            if citation is not None:
                self.citations.append(jsonify(citation))
        elif t == "message-start":
            if isinstance(ev.get("id"), str):
                self.base["id"] = ev["id"]
            if msg is not None:
                self._start_message(msg)
        elif t == "message-end":
            if isinstance(ev.get("id"), str):
                self.base["id"] = ev["id"]
            if delta is not None:
                for key in ("finish_reason", "usage"):
                    if delta.get(key) is not None:
                        self.base[key] = jsonify(delta[key])

    def _start_message(self, msg: Mapping[str, Any]) -> None:
        for k, v in msg.items():
            if v is not None and k not in _STREAMED:
                self.msg[k] = jsonify(v)
        for i, item in enumerate(as_list(msg.get("content"))):
            m = as_map(item)
            if m is not None:
                self.items[("start", i)] = jsonify(m, True)
        plan = msg.get("tool_plan")
        if isinstance(plan, str):
            self.plan_start = plan
        self.start_tools = [jsonify(c) for c in as_list(msg.get("tool_calls"))]
        self.citations[:0] = [jsonify(c) for c in as_list(msg.get("citations"))]

    def build(self) -> dict[str, Any]:
        content = []
        seen = set()
        for idx, item in self.items.items():
            seen.add(idx)
            item = dict(item)
            for key in (_TEXT, _THINKING):
                p = self.pieces.get((idx, key))
                if p:
                    prev = item.get(key)
                    item[key] = (prev if isinstance(prev, str) else "") + "".join(p)
            content.append(item)
        for idx, key in self.pieces:  # items that had deltas but no content-start
            if key is not _ARGUMENTS and idx not in seen:
                seen.add(idx)
                item = {"type": key}
                for k in (_TEXT, _THINKING):
                    q = self.pieces.get((idx, k))
                    if q:
                        item[k] = "".join(q)
                content.append(item)
        tools = list(self.start_tools)
        for idx, call in self.tools.items():
            call = dict(call)
            p = self.pieces.get((idx, _ARGUMENTS))
            if p:
                fn = call.get("function")
                fn = dict(fn) if isinstance(fn, dict) else {}
                prev = fn.get(_ARGUMENTS)
                fn[_ARGUMENTS] = (prev if isinstance(prev, str) else "") + "".join(p)
                call["function"] = fn
            tools.append(call)
        for (idx, key), p in self.pieces.items():  # argument pieces without a tool-call-start
            if key is _ARGUMENTS and idx not in self.tools:
                tools.append({"function": {_ARGUMENTS: "".join(p)}})
        msg = dict(self.msg)
        if content:
            msg["content"] = content
        plan = self.plan_start + "".join(self.plan)
        if plan:
            msg["tool_plan"] = plan
        if tools:
            msg["tool_calls"] = tools
        if self.citations:
            msg["citations"] = list(self.citations)
        out: dict[str, Any] = {}
        if "id" in self.base:
            out["id"] = self.base["id"]
        if "finish_reason" in self.base:
            out["finish_reason"] = self.base["finish_reason"]
        out["message"] = msg
        if "usage" in self.base:
            out["usage"] = self.base["usage"]
        return out


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _kept_message(r: Mapping[str, Any]) -> Mapping[str, Any]:
    msg = as_map(r.get("message"))
    return msg if msg is not None else {}


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``thinking`` item, then one for a non-empty ``tool_plan``."""
    msg = _kept_message(r)
    out = []
    for m in maps(msg.get("content")):
        if m.get("type") == "thinking":
            th = m.get("thinking")
            out.append(block(PROVIDER, "text", th if isinstance(th, str) else "", m))
    plan = msg.get("tool_plan")
    if isinstance(plan, str) and plan:
        out.append(block(PROVIDER, "text", plan, {"tool_plan": plan}))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content"?, "tool_plan"?, "tool_calls"?, "citations"?}``: the
    response message's fields as received (null ones left out)."""
    msg = _kept_message(r)
    out: dict[str, Any] = {"role": "assistant"}
    for key in _MESSAGE_KEYS:
        v = msg.get(key)
        if v is not None:
            out[key] = jsonify(v)
    return out


def _is_response(d: Mapping[str, Any]) -> bool:
    msg = d.get("message")
    if not (type(msg) is dict or isinstance(msg, Mapping)) or "index" in d:
        return False
    content = msg.get("content")
    return (content is None or isinstance(content, (list, tuple))) and (
        "finish_reason" in d or "usage" in d or "id" in d)


FAMILY = Family(
    name=PROVIDER,
    keys=("message",),
    is_response=_is_response,
    is_event=lambda e: isinstance(e.get("type"), str) and e.get("type") in _EVENTS,
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=top_model,
)
