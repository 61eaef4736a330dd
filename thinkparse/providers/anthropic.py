"""Anthropic Messages API (family ``anthropic``).

Wire facts (anthropic-sdk-python ``src/anthropic/types/``):

* ``message.py``: ``{type: "message", role, content: [...], usage}``.  Content items:
  ``thinking_block.py`` ``{type: "thinking", thinking, signature}``,
  ``redacted_thinking_block.py`` ``{type: "redacted_thinking", data}``, ``text_block.py``
  ``{type: "text", text}``, ``tool_use``, ``server_tool_use`` and server tool result items.
  With interleaved thinking, thinking items also follow tool items.
* ``usage.py``: ``input_tokens``, ``output_tokens`` (thinking included), and
  ``output_tokens_details.thinking_tokens`` (``output_tokens_details.py``) when present.
* Stream events (``raw_message_stream_event.py``): ``message_start`` (``message`` with usage),
  ``content_block_start`` (``index``, ``content_block``), ``content_block_delta`` (``index``,
  ``delta``: ``thinking_delta.thinking``, ``signature_delta.signature``, ``text_delta.text``,
  ``input_json_delta``, ``citations_delta``), ``content_block_stop``, ``message_delta``
  (``usage``, cumulative ``output_tokens``), ``message_stop``; plus ``ping`` and ``error``.

Decisions where docs/behaviour.md is silent:

* A thinking item whose ``thinking`` is empty (``""`` or missing: ``display: "omitted"``) is
  redacted (P6); in a stream this is decided at its ``content_block_stop`` (or at the end).
* Signatures are collected per item, in item order; a stream's ``signature_delta`` pieces of
  one item are concatenated and released when the item stops.
* ``message_start`` may carry content items (a resumed message); they are read like a
  response's content.
* The total token count is not reported by Anthropic, so ``usage.total_tokens`` is ``None``.
* Messages (X2): a ``thinking`` item whose signature is missing or ``""`` is left out (an item
  cut by ``max_tokens``; the API rejects it).
* The stream's turn: items from ``content_block_start``; ``text_delta``, ``thinking_delta``,
  ``signature_delta`` pieces appended to their field; ``input_json_delta`` pieces parsed when
  the message is built (invalid JSON: ``ResponseShapeError`` naming the item).  The
  ``message_start``, ``content_block_start`` and ``message_delta`` events are kept as received
  and read on first use; a ``citations_delta`` reads them first (it adds to a kept item).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import ReasoningBlock
from ._access import (
    Where,
    as_list,
    as_map,
    item_map,
    jsonify,
    maps,
    missing,
    opt_index,
    opt_map,
    opt_str,
    req_array,
    req_map,
    shape_error,
    signature_text,
    signed,
    text_of,
    top_model,
    usage_at,
)
from ._assemble import BLOCKS, Parts
from ._collector import Collector, SegmentKey
from ._family import Family, ItemPieces, Message, MessageOptions, block

PROVIDER = "anthropic"

_EVENTS = frozenset({
    "message_start", "content_block_start", "content_block_delta", "content_block_stop",
    "message_delta", "message_stop",
})


#: The usage counts (no total is reported) and the thinking count's place.
_COUNTS = ("input_tokens", "output_tokens", None)
_DETAILS = ("output_tokens_details", "thinking_tokens")


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Message``: its content items in order."""
    visible: list[str] = []
    segments: list[str] = []
    sigs: list[str] = []
    redacted = False
    for i, item in enumerate(req_array(d, "content")):
        if type(item) is not dict:
            item = item_map(item, "content", i)
        t = item.get("type")
        if t == "text":
            text = item.get("text")
            if type(text) is not str:
                text = opt_str(item, "text", ("content", i))
            if text:
                visible.append(text)
        elif t == "thinking":
            text = item.get("thinking")
            if type(text) is not str:
                text = opt_str(item, "thinking", ("content", i))
            if text:
                segments.append(text)
            else:
                redacted = True  # display omitted (P6)
            sig = item.get("signature")
            sig = sig if type(sig) is str else signature_text(sig, ("content", i), "signature")
            if sig:
                sigs.append(sig)
        elif t == "redacted_thinking":
            redacted = True
        elif type(t) is not str and t is not None:
            raise shape_error(("content", i), "type", "a string", t)
    return Parts(("".join(visible), segments, BLOCKS, redacted, sigs,
                 usage_at(d, "", _COUNTS, _DETAILS), d.get("stop_reason")))


class _Thinking:
    """A streamed thinking item: whether it had text, its signature pieces and its segment."""

    __slots__ = ("had_text", "segment", "signature")

    def __init__(self, index: Any) -> None:
        self.had_text = False
        self.signature: list[str] = []
        self.segment = SegmentKey("content", index)


class Decoder:
    """Decodes a Messages API stream, event by event."""

    __slots__ = ("_field", "_index", "_pieces", "_thinking", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = AnthropicAccumulator()
        self._thinking: dict[Any, _Thinking] = {}  # open thinking items by index
        # The item and field of the last piece, and the accumulator's list of that field's
        # pieces (the usual delta continues them).
        self._field = ""
        self._index: Any = self
        self._pieces: list[str] = []

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event."""
        t = ev.get("type")
        if t == "content_block_delta":
            delta = ev.get("delta")
            if type(delta) is not dict:
                delta = req_map(ev, "delta")
            idx = ev.get("index")
            if idx is not None and type(idx) is not int:
                idx = opt_index(ev, "index", "")
            dt = delta.get("type")
            if dt == "thinking_delta":
                field = "thinking"
            elif dt == "text_delta":
                field = "text"
            elif dt == "signature_delta":
                field = "signature"
            elif dt == "input_json_delta":
                field = "partial_json"
            else:
                if dt == "citations_delta":
                    self.acc.citation(idx, delta.get("citation"))
                elif type(dt) is not str and dt is not None:
                    raise shape_error("delta", "type", "a string", dt)
                return
            v = delta.get(field)
            if isinstance(v, str):
                if field is not self._field or idx != self._index:  # not the last piece's
                    self._field, self._index = field, idx
                    self._pieces = self.acc.field(idx, field)
                self._pieces.append(v)
            if field == "partial_json":
                return
            if field == "signature":
                sig = signature_text(v, "delta", "signature")
                if sig:
                    self._item(idx).signature.append(sig)
                return
            text = v if type(v) is str else opt_str(delta, field, "delta")
            if not text:
                return
            if field == "text":
                self.out.visible(text)
                return
            thinking = self._thinking.get(idx)
            if thinking is None:
                thinking = self._item(idx)
            thinking.had_text = True
            self.out.reasoning(thinking.segment, text, BLOCKS)
        elif t == "content_block_start":
            self._start(opt_index(ev, "index", ""), req_map(ev, "content_block"), "content_block")
            self.acc.keep(ev)
        elif t == "content_block_stop":
            self._stop(opt_index(ev, "index", ""))
        elif t == "message_delta" or t == "message_start":
            holder, where = ev, ""
            if t == "message_start":
                self.out.response_started(t)
                holder, where = opt_map(ev, "message", "") or {}, "message"
                content = holder.get("content")
                if content:
                    if not isinstance(content, (list, tuple)):
                        raise shape_error(where, "content", "an array", content)
                    for i, raw in enumerate(content):
                        self._start(("start", i), item_map(raw, "message.content", i),
                                    ("message.content", i))
                        self._stop(("start", i))
            figures = usage_at(holder, where, _COUNTS, _DETAILS)
            if figures is not None:
                self.out.usage(figures)
            md = ev.get("delta") if t == "message_delta" else None
            if isinstance(md, Mapping) and md.get("stop_reason") is not None:
                self.out.finish(md.get("stop_reason"))
            self.acc.keep(ev)
        elif t == "error":
            self.out.error_event(ev, t)
        elif type(t) is not str:
            if t is None:
                raise missing("", "type", "a string")
            raise shape_error("", "type", "a string", t)
        # message_stop, ping and unknown event types carry nothing to extract

    def _item(self, idx: Any) -> _Thinking:
        item = self._thinking.get(idx)
        if item is None:
            item = self._thinking[idx] = _Thinking(idx)
        return item

    def _start(self, idx: Any, item: Mapping[str, Any], where: Where) -> None:
        t = item.get("type")
        if type(t) is not str and t is not None:
            raise shape_error(where, "type", "a string", t)
        if t == "thinking":
            thinking = self._item(idx)
            text = opt_str(item, "thinking", where)
            if text:
                thinking.had_text = True
                self.out.reasoning(thinking.segment, text, BLOCKS)
            sig = signature_text(item.get("signature"), where, "signature")
            if sig:
                thinking.signature.append(sig)
        elif t == "redacted_thinking":
            self.out.redact()
        elif t == "text":
            text = opt_str(item, "text", where)
            if text:
                self.out.visible(text)

    def _stop(self, idx: Any) -> None:
        item = self._thinking.pop(idx, None)
        if item is not None:
            if not item.had_text:
                self.out.redact()
            if item.signature:
                self.out.signature("".join(item.signature))

    def close(self) -> None:
        """Finish thinking items that never got their ``content_block_stop``."""
        for idx in list(self._thinking):
            self._stop(idx)


class AnthropicAccumulator(ItemPieces):
    """Messages stream events added up (rules in the module docstring)."""

    def __init__(self) -> None:
        self.base: dict[str, Any] = {"type": "message", "role": "assistant"}
        self.items: dict[Any, dict[str, Any]] = {}
        ItemPieces.__init__(self)

    def citation(self, idx: Any, citation: Any) -> None:
        """A ``citations_delta``: the citation goes onto its item (read the kept events first)."""
        if self.kept:
            self.catch_up()
        item = self.items.get(idx)
        if item is not None:
            item.setdefault("citations", []).append(jsonify(citation))

    def read_kept(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("type")
        if t == "content_block_start":
            item = as_map(ev.get("content_block"))
            if item is not None:
                self.items[opt_index(ev, "index", "")] = jsonify(item)
        elif t == "message_start":
            msg = as_map(ev.get("message"))
            if msg is not None:
                m = jsonify(msg)
                for i, item in enumerate(as_list(m.pop("content", None))):
                    if isinstance(item, dict):
                        self.items[("start", i)] = item
                self.base.update(m)
        elif t == "message_delta":
            md = as_map(ev.get("delta"))
            if md is not None:
                self.base.update(jsonify(md))
            u = as_map(ev.get("usage"))
            if u is not None:
                usage = self.base.get("usage")
                if not isinstance(usage, dict):
                    usage = self.base["usage"] = {}
                usage.update(jsonify(u))

    def build(self) -> dict[str, Any]:
        content = []
        for pos, (idx, item) in enumerate(self.items.items()):
            item = dict(item)
            for key in ("text", "thinking", "signature"):
                p = self.pieces.get((idx, key))
                if p:
                    prev = item.get(key)
                    item[key] = (prev if isinstance(prev, str) else "") + "".join(p)
            p = self.pieces.get((idx, "partial_json"))
            if p and "".join(p):
                item["input"] = self.parse_json(p, f"content[{pos}].input")
            content.append(item)
        return {**self.base, "content": content}


# --- the turn (X1, X2) -------------------------------------------------------------------------
def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``thinking`` and ``redacted_thinking`` item."""
    out = []
    for m in maps(r.get("content")):
        t = m.get("type")
        if t == "thinking":
            th = m.get("thinking")
            out.append(block(PROVIDER, "text", th if isinstance(th, str) else "", m,
                             signature=text_of(m.get("signature"))))
        elif t == "redacted_thinking":
            out.append(block(PROVIDER, "opaque", "", m, data=text_of(m.get("data"))))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content": [every item as received]}``."""
    content = [jsonify(m) for m in maps(r.get("content"))
               if m.get("type") != "thinking" or signed(m)]
    return {"role": "assistant", "content": content}


def _model(d: Mapping[str, Any]) -> Optional[str]:
    if d.get("type") == "message_start":
        msg = d.get("message")
        return top_model(msg) if isinstance(msg, Mapping) else None
    return top_model(d)


FAMILY = Family(
    name=PROVIDER,
    keys=("type",),
    is_response=lambda d: d.get("type") == "message" and isinstance(d.get("content"),
                                                                    (list, tuple)),
    is_event=lambda e: isinstance(e.get("type"), str) and e.get("type") in _EVENTS,
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=_model,
)
