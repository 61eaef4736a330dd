"""OpenAI Responses API (family ``openai_responses``).

Wire facts (openai-python ``src/openai/types/responses/``):

* ``response.py``: ``output[]`` items, ``status``, ``usage``.  ``response_reasoning_item.py``:
  ``{type: "reasoning", summary: [{type: "summary_text", text}], content: [{type:
  "reasoning_text", text}], encrypted_content}``.  ``response_output_message.py``: ``{type:
  "message", content: [{type: "output_text", text} | {type: "refusal", refusal}], phase?}``.
* ``response_usage.py``: ``input_tokens``, ``output_tokens``, ``total_tokens``,
  ``output_tokens_details.reasoning_tokens``.
* Stream events: ``response.output_text.delta`` / ``.done`` (``output_index``, ``content_index``,
  ``delta`` / ``text``), ``response.refusal.delta`` / ``.done``,
  ``response.reasoning_summary_text.delta`` / ``.done`` (``summary_index``),
  ``response.reasoning_text.delta`` / ``.done`` (``content_index``),
  ``response.output_item.added`` / ``.done`` (``item``), ``response.completed`` /
  ``response.incomplete`` / ``response.failed`` (``response``, with usage).

Decisions where docs/behaviour.md is silent:

* Every reasoning item is read in order.  Each summary part and each raw ``content`` part is a
  segment (P2); an item's raw content is used when it has readable text, else its summary (P4).
* Message items are the answer, except those with ``phase: "commentary"`` (preambles, which P1
  treats as commentary, never text).  ``output_text`` parts (and ``text`` parts from compatible
  servers) are text; ``refusal`` parts count as the answer too.  Other item types (tool calls,
  web searches...) are ignored.
* ``status: "incomplete"`` (or ``"failed"``) changes nothing: whatever output exists is returned.
* ``finish_reason`` (W4) is ``incomplete_details.reason`` when the response has one (e.g.
  ``"max_output_tokens"``), else its ``status`` (``"completed"``, ``"incomplete"``...).
* Streams: a part's text comes from its ``*.delta`` events; ``*.done`` events, ``output_item.done``
  and the final ``response.completed`` only supply parts that had no deltas (so nothing is
  counted twice).  For one reasoning item, whichever of summary and raw text arrives first is
  used and the other is ignored (a stream cannot take back what it released).
* Messages (X2): ``store`` defaults to the response's own ``store`` (else ``True``); a reasoning
  item as the last output item (nothing follows it) is left out; null-valued keys are dropped at
  every depth (the output's ``logprobs: null`` and the like are not accepted as input).
* The stream's turn: items from ``response.output_item.done``; the output of
  ``response.completed`` / ``incomplete`` / ``failed`` replaces them when it is non-empty.  Those
  events and the other lifecycle events are kept as received and read on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._types import BlockKind, ReasoningBlock
from ._access import (
    Where,
    as_map,
    item_map,
    jsonify,
    maps,
    missing,
    opt_index,
    opt_list,
    opt_map,
    opt_str,
    readable,
    req_array,
    shape_error,
    text_of,
    top_model,
    usage_at,
)
from ._assemble import BLOCKS, Parts
from ._collector import Collector, SegmentKey
from ._family import Accumulator, Family, Message, MessageOptions, block

PROVIDER = "openai_responses"

#: Text events: (the kind of part -- "text", "summary" or "raw" reasoning --, the text's key).
_TEXT_EVENTS = {
    "response.output_text.delta": ("text", "delta"),
    "response.refusal.delta": ("text", "delta"),
    "response.reasoning_summary_text.delta": ("summary", "delta"),
    "response.reasoning_text.delta": ("raw", "delta"),
    "response.output_text.done": ("text", "text"),
    "response.refusal.done": ("text", "refusal"),
    "response.reasoning_summary_text.done": ("summary", "text"),
    "response.reasoning_text.done": ("raw", "text"),
}
_DONE = frozenset({"response.completed", "response.incomplete", "response.failed"})
#: Events the accumulator keeps: finished items and the response's own fields.
_KEPT = frozenset({"response.output_item.done", "response.created", "response.in_progress",
                   *_DONE})


#: The usage counts and the reasoning count's place.
_COUNTS = ("input_tokens", "output_tokens", "total_tokens")
_DETAILS = ("output_tokens_details", "reasoning_tokens")


def _texts(owner: Mapping[str, Any], key: str, where: Where, kinds: dict[str, str]) -> list[str]:
    """The text of each part of ``owner[key]``; ``kinds`` maps part types to their text key
    (``"*"``: every part, by ``text``); ``""`` for a part without one."""
    parts = owner.get(key)
    if not parts:
        return []
    if type(parts) is not list and not isinstance(parts, (list, tuple)):
        raise shape_error(where, key, "an array or null", parts)
    out = []
    for j, p in enumerate(parts):
        if type(p) is not dict:
            p = item_map(p, (where, key), j)
        field = kinds.get("*") or kinds.get(p.get("type"))
        text = p.get(field) if field else ""
        if text is None:
            text = ""
        elif type(text) is not str:
            raise shape_error((where, key, j), field, "a string or null", text)
        out.append(text)
    return out


_ANY = {"*": "text"}
_MESSAGE_PARTS = {"output_text": "text", "text": "text", "refusal": "refusal"}


def reasoning_parts(item: Mapping[str, Any], where: Where) -> tuple[list[str], bool]:
    """Segments of a reasoning item (raw content preferred, P4) and whether it is redacted."""
    segs = _texts(item, "content", where, _ANY)
    for s in segs:
        if s and not s.isspace():
            break
    else:
        segs = _texts(item, "summary", where, _ANY)
    enc = item.get("encrypted_content")
    if enc is not None and type(enc) is not str:
        enc = opt_str(item, "encrypted_content", where)
    return segs, bool(enc)


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Response``: every output item."""
    visible: list[str] = []
    segments: list[str] = []
    redacted = False
    for i, item in enumerate(req_array(d, "output")):
        if type(item) is not dict:
            item = item_map(item, "output", i)
        t = item.get("type")
        if t == "message" and item.get("phase") != "commentary":
            visible.extend(_texts(item, "content", ("output", i), _MESSAGE_PARTS))
        elif t == "reasoning":
            segs, red = reasoning_parts(item, ("output", i))
            segments.extend(segs)
            redacted = redacted or red
        elif type(t) is not str and t is not None:
            raise shape_error(("output", i), "type", "a string", t)
    return Parts(("".join(visible), segments, BLOCKS, redacted, None,
                 usage_at(d, "", _COUNTS, _DETAILS), _finish_reason(d)))


def _finish_reason(d: Mapping[str, Any]) -> Any:
    details = d.get("incomplete_details")
    if details is not None and isinstance(details, Mapping) and details.get("reason"):
        return details.get("reason")
    return d.get("status")


class Decoder:
    """Decodes a Responses API stream, event by event."""

    __slots__ = ("_kind", "_phase", "_seen", "_segments", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = ResponsesAccumulator()
        self._segments: dict[tuple[str, Any, Any], SegmentKey] = {}  # parts seen, their keys
        self._seen: set[SegmentKey] = set()  # parts that released text
        self._kind: dict[Any, str] = {}  # output_index -> "summary" or "raw" (reasoning items)
        self._phase: dict[Any, Any] = {}  # output_index -> message phase

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event."""
        t = ev.get("type")
        if type(t) is not str:
            if t is None:
                raise missing("", "type", "a string")
            raise shape_error("", "type", "a string", t)
        spec = _TEXT_EVENTS.get(t)
        if spec is not None:
            kind, field = spec
            text = ev.get(field)
            if type(text) is not str:
                text = opt_str(ev, field, "")
            oi = ev.get("output_index")
            if type(oi) is not int:
                oi = opt_index(ev, "output_index", "")
            ikey = "summary_index" if kind == "summary" else "content_index"
            idx = ev.get(ikey)
            if type(idx) is not int:
                idx = opt_index(ev, ikey, "")
            key = self._key(kind, oi, idx)
            if field == "delta" or key not in self._seen:  # "done" events repeat deltas
                self._part(key, text or "")
            return
        if t == "response.output_item.added":
            item = opt_map(ev, "item", "")
            if item is not None and item.get("type") == "message":
                self._phase[opt_index(ev, "output_index", "")] = item.get("phase")
        elif t == "response.output_item.done":
            item = opt_map(ev, "item", "")
            if item is not None:
                self._item(opt_index(ev, "output_index", ""), item, "item")
        elif t in _DONE:
            resp = opt_map(ev, "response", "")
            if resp is not None:
                self._response(resp)
            if t == "response.failed":  # the response's error object (P16)
                self.acc.keep(ev)
                self.out.error_event(resp, t)
        elif t == "response.created":
            self.out.response_started(t)
        elif t == "error":
            self.out.error_event(ev, t)
        if t in _KEPT:
            self.acc.keep(ev)

    def _key(self, kind: str, oi: Any, idx: Any) -> SegmentKey:
        key = self._segments.get((kind, oi, idx))
        if key is None:
            key = self._segments[kind, oi, idx] = SegmentKey(kind, (oi, idx))
        return key

    def _part(self, key: SegmentKey, text: str) -> None:
        kind, (oi, _) = key
        if kind == "text":
            if text and self._phase.get(oi) != "commentary":
                self._seen.add(key)
                self.out.visible(text)
        elif self._kind.setdefault(oi, kind) == kind and text:  # P4: one kind per item
            self._seen.add(key)
            self.out.reasoning(key, text, BLOCKS)

    def _item(self, oi: Any, item: Mapping[str, Any], where: Where) -> None:
        """A finished item: supply the parts that had no deltas."""
        t = item.get("type")
        if t == "reasoning":
            segs, red = reasoning_parts(item, where)
            if not any(k.index[0] == oi and k.source != "text" for k in self._seen):
                raw = _texts(item, "content", where, _ANY)
                kind = "raw" if any(readable(s) for s in raw) else "summary"
                self._kind[oi] = kind
                for j, s in enumerate(segs):
                    self._part(self._key(kind, oi, j), s)
            if red:
                self.out.redact()
        elif t == "message":
            if "phase" in item:
                self._phase[oi] = item.get("phase")
            for j, s in enumerate(_texts(item, "content", where, _MESSAGE_PARTS)):
                key = self._key("text", oi, j)
                if key not in self._seen:
                    self._part(key, s)

    def _response(self, resp: Mapping[str, Any]) -> None:
        for i, item in enumerate(opt_list(resp, "output", "response") or ()):
            if type(item) is not dict:
                item = item_map(item, ("response", "output"), i)
            self._item(i, item, ("response", "output", i))
        figures = usage_at(resp, "response", _COUNTS, _DETAILS)
        if figures is not None:
            self.out.usage(figures)
        reason = _finish_reason(resp)
        if reason is not None:
            self.out.finish(reason)

    def close(self) -> None:
        """Nothing is held per message."""


class ResponsesAccumulator(Accumulator):
    """Responses stream events added up (rules in the module docstring)."""

    def __init__(self) -> None:
        self.base: dict[str, Any] = {}
        self.items: dict[Any, Any] = {}
        self.final: Any = None

    def read_kept(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "response.output_item.done":
            item = as_map(ev.get("item"))
            if item is not None:
                idx = opt_index(ev, "output_index", "")
                self.items[idx if idx is not None else len(self.items)] = jsonify(item)
            return
        resp = as_map(ev.get("response"))
        if resp is not None:
            r = jsonify(resp)
            out = r.pop("output", None)
            self.base.update(r)
            if isinstance(out, list) and out:
                self.final = out

    def build(self) -> dict[str, Any]:
        if self.final is not None:
            return {**self.base, "output": self.final}
        ints = sorted(k for k in self.items if isinstance(k, int))
        output = [self.items[k] for k in ints + [k for k in self.items if not isinstance(k, int)]]
        return {**self.base, "output": output}


# --- the turn (X1, X2) -------------------------------------------------------------------------
def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``reasoning`` item: raw content, else summary, else opaque."""
    out = []
    for m in maps(r.get("output")):
        if m.get("type") != "reasoning":
            continue
        raw = _joined(m.get("content"))
        kind: BlockKind = "text" if raw else "summary"
        text = raw or _joined(m.get("summary"))
        out.append(block(PROVIDER, kind, text, m, data=text_of(m.get("encrypted_content")),
                         id=m.get("id")))
    return out


def _joined(parts: Any) -> str:
    texts = (m.get("text") for m in maps(parts))
    return "\n\n".join(t for t in texts if isinstance(t, str) and readable(t))


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """The output items as received, minus null-valued keys (``store`` as in the docstring)."""
    store = options.store
    if store is None:
        own = r.get("store")
        store = own if isinstance(own, bool) else True
    items = maps(r.get("output"))
    out = []
    for i, m in enumerate(items):
        item = jsonify(m, drop_null=True)
        if m.get("type") == "reasoning":
            if i == len(items) - 1 or not (store or m.get("encrypted_content")):
                continue  # nothing follows it (a truncated output), or nothing to send back
        elif not store:
            item.pop("id", None)
        out.append(item)
    return out


def _model(d: Mapping[str, Any]) -> Any:
    m = top_model(d)
    if m is None:
        resp = d.get("response")
        m = top_model(resp) if isinstance(resp, Mapping) else None
    return m


FAMILY = Family(
    name=PROVIDER,
    keys=("output", "object"),
    is_response=lambda d: isinstance(d.get("output"), (list, tuple))
    or d.get("object") == "response",
    is_event=lambda e: isinstance(e.get("type"), str) and e["type"].startswith("response."),
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=_model,
)
