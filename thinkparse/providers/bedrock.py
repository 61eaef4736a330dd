"""Amazon Bedrock Converse / ConverseStream (family ``bedrock``).

Wire facts (Bedrock API reference: ``Converse`` response, ``ContentBlock``,
``ReasoningContentBlock``, ``ReasoningTextBlock``, ``ConverseStream`` events,
``ReasoningContentBlockDelta``, ``TokenUsage``):

* ``output.message.content[]``: ``{text}``, ``{reasoningContent: {reasoningText: {text,
  signature}}}``, ``{reasoningContent: {redactedContent}}`` (base64 on the wire, bytes in boto3),
  ``{toolUse}``, ``{toolResult}``...; ``usage: {inputTokens, outputTokens, totalTokens}``.
* Stream events, as boto3 yields them, are one-key objects: ``messageStart``,
  ``contentBlockStart``, ``contentBlockDelta`` (``contentBlockIndex``, ``delta``: ``{text}``,
  ``{reasoningContent: {text | signature | redactedContent}}``, ``{toolUse: {input}}``),
  ``contentBlockStop``, ``messageStop``, ``metadata`` (``usage``, ``metrics``).  The raw event
  payloads (without the one-key wrapper) are read too: ``{contentBlockIndex, delta}``,
  ``{usage, metrics}``.
* Bedrock reports no reasoning-token count, and its responses do not name the model.

Decisions where docs/behaviour.md is silent:

* Each ``reasoningContent`` item is a segment (P2); in a stream, segments follow
  ``contentBlockIndex``.  An item's streamed signature pieces are concatenated and released at
  its ``contentBlockStop`` (or at the end).
* Stream exception events (``internalServerException``, ``modelStreamErrorException``,
  ``throttlingException``, ``validationException``, ``serviceUnavailableException``) carry no
  text and give empty deltas.
* Messages (X2): a ``reasoningText`` without a signature is left out (cut by ``max_tokens``).
* The stream's turn: content items by ``contentBlockIndex`` in order of appearance; reasoning
  text and signature pieces joined; ``toolUse.input`` pieces parsed when the message is built
  (invalid JSON: ``ResponseShapeError`` naming the item).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import ReasoningBlock
from ._access import (
    Where,
    as_map,
    b64_bytes,
    item_map,
    jsonify,
    maps,
    opt_index,
    opt_map,
    opt_str,
    render,
    req_array,
    req_map,
    signature_text,
    signed,
    text_of,
    top_model,
    usage_at,
)
from ._assemble import BLOCKS, Parts
from ._collector import Collector, SegmentKey
from ._family import Family, ItemPieces, Message, MessageOptions, block

PROVIDER = "bedrock"
_CONTENT = "output.message.content"
_ERRORS = frozenset({
    "internalServerException", "modelStreamErrorException", "throttlingException",
    "validationException", "serviceUnavailableException",
})
#: The one-key wrappers of ConverseStream events.
EVENT_KEYS = frozenset({
    "messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop",
    "metadata", *_ERRORS,
})


#: The usage counts (no reasoning count is reported).
_COUNTS = ("inputTokens", "outputTokens", "totalTokens")


def _item(
    c: Mapping[str, Any], where: Where
) -> tuple[Optional[str], Optional[str], Optional[str], bool]:
    """``(text, reasoning text, signature, redacted)`` of a content item or an item delta."""
    text = c.get("text")
    if text is not None and type(text) is not str:
        text = opt_str(c, "text", where)
    rc = c.get("reasoningContent")
    if rc is None:
        return text, None, None, False
    if type(rc) is not dict:
        rc = req_map(c, "reasoningContent", where)
    rwhere: Where = (where, "reasoningContent")
    holder = rc
    rt = rc.get("reasoningText")
    if rt is not None:
        holder = rt if type(rt) is dict else req_map(rc, "reasoningText", rwhere)
        rwhere = (rwhere, "reasoningText")
    rtext = holder.get("text")
    if rtext is not None and type(rtext) is not str:
        rtext = opt_str(holder, "text", render(rwhere))
    sig = holder.get("signature")
    if sig:
        sig = signature_text(sig, rwhere, "signature")
    return text, rtext, sig or None, bool(rc.get("redactedContent"))


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Converse`` response."""
    output = d.get("output")
    if type(output) is not dict:
        output = req_map(d, "output")
    message = output.get("message")
    if type(message) is not dict:
        message = req_map(output, "message", "output")
    content = req_array(message, "content", "output.message")
    visible: list[str] = []
    segments: list[str] = []
    sigs: list[str] = []
    redacted = False
    for i, c in enumerate(content):
        text, rtext, sig, red = _item(c if type(c) is dict else item_map(c, _CONTENT, i),
                                      (_CONTENT, i))
        if text:
            visible.append(text)
        if rtext:
            segments.append(rtext)
        if sig:
            sigs.append(sig)
        redacted = redacted or red
    return Parts(("".join(visible), segments, BLOCKS, redacted, sigs, usage_at(d, "", _COUNTS),
                  d.get("stopReason")))


class Decoder:
    """Decodes ConverseStream events (wrapped in their one-key object, or the raw payload)."""

    __slots__ = ("_field", "_index", "_item", "_pieces", "_segment", "_sigs", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = BedrockAccumulator()
        self._sigs: dict[Any, list[str]] = {}  # contentBlockIndex -> signature pieces
        self._segment = SegmentKey("content", None)
        self._item: Any = self  # the index of the last delta's item
        # The item and field of the last piece, and the accumulator's list of that field's
        # pieces (the usual delta continues them).
        self._field = ""
        self._index: Any = self
        self._pieces: list[Any] = []

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event; an item delta is read here in one pass: each piece goes to the
        accumulator as received and to the collector."""
        body = ev.get("contentBlockDelta")
        where = "contentBlockDelta"
        if body is None:
            if "contentBlockIndex" not in ev or "delta" not in ev:
                self._other(ev)
                return
            body, where = ev, ""  # the raw payload
        elif type(body) is not dict:
            body = opt_map(ev, where, "") or {}  # (a model, converted)
        delta = body.get("delta")
        if type(delta) is not dict:
            delta = opt_map(body, "delta", where)
        idx = body.get("contentBlockIndex")
        if idx is not None and type(idx) is not int:
            idx = opt_index(body, "contentBlockIndex", where)
        if delta is None:
            return
        if idx != self._item:
            self.acc.item(idx)
            self._item = idx
        out = self.out
        for k, v in delta.items():
            if k == "reasoningContent":
                rc = v if type(v) is dict else opt_map(delta, k, (where, "delta"))
                if rc is None:
                    continue
                rtext = sig = None
                red = False
                for rk, rv in rc.items():
                    if rv is None:
                        continue
                    if rk == "text":
                        rtext = rv if type(rv) is str else opt_str(rc, rk, (where, "delta", k))
                        name = "rtext"
                    elif rk == "signature":
                        sig = signature_text(rv, (where, "delta", k), rk)
                        name = "rsignature"
                    elif rk == "redactedContent":
                        red = bool(rv)
                        name = "rredactedContent"
                    else:
                        continue
                    if name is not self._field or idx != self._index:  # not the last piece's
                        self._field, self._index = name, idx
                        self._pieces = self.acc.field(idx, name)
                    self._pieces.append(rv)
                if "reasoningText" in rc:  # a content item's shape: read as one
                    _, rtext, sig, red = _item(delta, (where, "delta"))
                if rtext:
                    if self._segment.index != idx:
                        self._segment = SegmentKey("content", idx)
                    out.reasoning(self._segment, rtext, BLOCKS)
                if sig:
                    self._sigs.setdefault(idx, []).append(sig)
                if red:
                    out.redact()
            elif k == "text":
                if v is not None and type(v) is not str:
                    v = opt_str(delta, "text", (where, "delta"))
                if v is not None:
                    name = "text"
                    if name is not self._field or idx != self._index:  # not the last piece's
                        self._field, self._index = name, idx
                        self._pieces = self.acc.field(idx, name)
                    self._pieces.append(v)
                    if v:
                        out.visible(v)
            elif k == "toolUse":
                tool = as_map(v)
                if tool is not None and isinstance(tool.get("input"), str):
                    self.acc.field(idx, "input").append(tool["input"])

    def _other(self, ev: Mapping[str, Any]) -> None:
        """Any event but an item delta."""
        if "contentBlockStart" in ev:
            start = as_map(ev.get("contentBlockStart"))
            s = as_map(start.get("start")) if start is not None else None
            tool = as_map(s.get("toolUse")) if s is not None else None
            if start is not None and tool is not None:
                idx = opt_index(start, "contentBlockIndex", "contentBlockStart")
                self.acc.tool_start(idx, tool)
        elif "contentBlockStop" in ev:
            stop = opt_map(ev, "contentBlockStop", "")
            if stop is not None:
                self._stop(opt_index(stop, "contentBlockIndex", "contentBlockStop"))
        elif "messageStart" in ev:
            start = as_map(ev.get("messageStart"))
            if start is not None:
                self.out.response_started("messageStart")
                self.acc.role(start.get("role", "assistant"))
        elif "messageStop" in ev:
            stop = opt_map(ev, "messageStop", "")
            if stop is not None:
                if stop.get("stopReason") is not None:
                    self.out.finish(stop.get("stopReason"))
                self.acc.fields(stop)
        elif "metadata" in ev or ("usage" in ev and "metrics" in ev):
            meta, where = (ev, "") if "metadata" not in ev else (opt_map(ev, "metadata", ""),
                                                                 "metadata")
            if meta is not None:
                figures = usage_at(meta, where, _COUNTS)
                if figures is not None:
                    self.out.usage(figures)
                self.acc.fields(meta)
        elif not _ERRORS.isdisjoint(ev):  # the exception's key names its type (P16)
            name = next(k for k in ev if k in _ERRORS)
            self.out.error_event(ev[name], name, name)

    def _stop(self, idx: Any) -> None:
        pieces = self._sigs.pop(idx, None)
        if pieces:
            self.out.signature("".join(pieces))

    def close(self) -> None:
        """Release the signatures of items that never got their ``contentBlockStop``."""
        for idx in list(self._sigs):
            self._stop(idx)


class BedrockAccumulator(ItemPieces):
    """ConverseStream events added up (rules in the module docstring)."""

    def __init__(self) -> None:
        self.base: dict[str, Any] = {}
        self.items: dict[Any, dict[str, Any]] = {}
        ItemPieces.__init__(self)

    def item(self, idx: Any) -> None:
        """An item a delta names (made in order of appearance, pieces or not)."""
        if idx not in self.items:
            self.items[idx] = {}

    def tool_start(self, idx: Any, tool: Mapping[str, Any]) -> None:
        """A ``contentBlockStart`` of a tool use."""
        self.items.setdefault(idx, {})["toolUse"] = jsonify(tool)

    def role(self, role: Any) -> None:
        """The ``messageStart`` role."""
        self.base["role"] = role

    def fields(self, m: Mapping[str, Any]) -> None:
        """``messageStop`` / ``metadata`` fields, kept at the top level (the last value wins)."""
        self.base.update(jsonify(m))

    def build(self) -> dict[str, Any]:
        content = []
        for pos, (idx, item) in enumerate(self.items.items()):
            item = dict(item)
            p = self.pieces.get((idx, "text"))
            if p:
                item["text"] = "".join(p)
            red = self.pieces.get((idx, "rredactedContent"))
            if red:
                joined = b"".join(x for x in red if isinstance(x, (bytes, bytearray)))
                item["reasoningContent"] = {"redactedContent": jsonify(joined) if joined else
                                            "".join(x for x in red if isinstance(x, str))}
            elif (idx, "rtext") in self.pieces or (idx, "rsignature") in self.pieces:
                rt: dict[str, Any] = {"text": "".join(self.pieces.get((idx, "rtext"), []))}
                sig = self.pieces.get((idx, "rsignature"))
                if sig:
                    rt["signature"] = "".join(str(jsonify(x)) for x in sig)
                item["reasoningContent"] = {"reasoningText": rt}
            p = self.pieces.get((idx, "input"))
            if p is not None and isinstance(item.get("toolUse"), dict):
                where = f"output.message.content[{pos}].toolUse.input"
                item["toolUse"] = {**item["toolUse"], "input": self.parse_json(p, where)}
            content.append(item)
        base = dict(self.base)
        msg = {"role": base.pop("role", "assistant"), "content": content}
        return {"output": {"message": msg}, **base}


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _kept_content(r: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    out = as_map(r.get("output"))
    msg = as_map(out.get("message")) if out is not None else None
    return maps(msg.get("content")) if msg is not None else []


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``reasoningContent`` item."""
    out = []
    for m in _kept_content(r):
        rc = as_map(m.get("reasoningContent"))
        if rc is None:
            continue
        rt = as_map(rc.get("reasoningText"))
        if rt is not None:
            text = rt.get("text")
            out.append(block(PROVIDER, "text", text if isinstance(text, str) else "", m,
                             signature=text_of(rt.get("signature"))))
        else:
            out.append(block(PROVIDER, "opaque", "", m, data=text_of(rc.get("redactedContent"))))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content": [every item as received]}``."""
    content = []
    for m in _kept_content(r):
        rc = as_map(m.get("reasoningContent"))
        rt = as_map(rc.get("reasoningText")) if rc is not None else None
        if rt is not None and not signed(rt):
            continue
        item = jsonify(m)
        rcw = item.get("reasoningContent")
        if options.binary == "bytes" and isinstance(rcw, dict) and "redactedContent" in rcw:
            red = rcw["redactedContent"]
            rcw["redactedContent"] = b64_bytes(red) if isinstance(red, str) else red
        content.append(item)
    return {"role": "assistant", "content": content}


FAMILY = Family(
    name=PROVIDER,
    keys=("output",),
    is_response=lambda d: (type(out := d.get("output")) is dict or isinstance(out, Mapping))
    and "message" in out,
    is_event=lambda e: ("contentBlockIndex" in e and "delta" in e)
    or not EVENT_KEYS.isdisjoint(e),
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=top_model,
)
