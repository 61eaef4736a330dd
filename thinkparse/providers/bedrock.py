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
* Bedrock reports no reasoning-token count.

Decisions where docs/behaviour.md is silent:

* Each ``reasoningContent`` block is a segment (P2); in a stream, segments follow
  ``contentBlockIndex``.  A block's streamed signature pieces are concatenated and released at
  its ``contentBlockStop`` (or at the end).
* Stream exception events (``internalServerException``, ``modelStreamErrorException``,
  ``throttlingException``, ``validationException``, ``serviceUnavailableException``) carry no
  text and give empty deltas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import Delta
from ._access import (
    Figures,
    Where,
    count_figures,
    item_map,
    join_path,
    missing,
    opt_index,
    opt_map,
    opt_str,
    render,
    shape_error,
    signature_text,
)
from ._accumulate import Bedrock
from ._assemble import BLOCKS, Parts
from ._collector import Collector

PROVIDER = "bedrock"

#: The one-key wrappers of ConverseStream events.
EVENT_KEYS = frozenset(
    {
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
        "internalServerException",
        "modelStreamErrorException",
        "throttlingException",
        "validationException",
        "serviceUnavailableException",
    }
)


def usage_figures(u: Mapping[str, Any], where: Where) -> Figures:
    """(input, output, total, reasoning) of a ``TokenUsage`` (no reasoning count)."""
    return count_figures(u, where, ("inputTokens", "outputTokens", "totalTokens"))

_CONTENT = "output.message.content"



def _block_parts(
    c: Mapping[str, Any], where: Where
) -> tuple[Optional[str], Optional[str], Optional[str], bool]:
    """(text, reasoning text, signature, redacted) of a content block or a block delta.

    The one reader of a block's fields, for whole responses and stream deltas alike.
    """
    text = c.get("text")
    if text is not None and type(text) is not str:
        text = opt_str(c, "text", where)
    rc = c.get("reasoningContent")
    if rc is None:
        return text, None, None, False
    if type(rc) is not dict:
        rc = opt_map(c, "reasoningContent", where)
        if rc is None:
            return text, None, None, False
    rwhere: Where = (where, "reasoningContent")
    holder = rc
    rt = rc.get("reasoningText")
    if rt is not None:
        if type(rt) is not dict:
            rt = opt_map(rc, "reasoningText", rwhere)
        if rt is not None:
            holder, rwhere = rt, (rwhere, "reasoningText")
    rtext = holder.get("text")
    if rtext is not None and type(rtext) is not str:
        rtext = opt_str(holder, "text", render(rwhere))
    sig = holder.get("signature")
    if sig:
        sig = signature_text(sig, rwhere, "signature")
    return text, rtext, sig or None, bool(rc.get("redactedContent"))


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Converse`` response: each content block is a start-delta-stop of one."""
    output = d.get("output")
    if type(output) is not dict:  # (plain dicts read without a call: P9's cost goal)
        output = opt_map(d, "output", "")
    if output is None:
        raise missing("", "output", "an object")
    message = output.get("message")
    if type(message) is not dict:
        message = opt_map(output, "message", "output")
    if message is None:
        raise missing("output", "message", "an object")
    content = message.get("content")
    if content is None:
        raise missing("output.message", "content", "an array")
    if not isinstance(content, (list, tuple)):
        raise shape_error("output.message", "content", "an array", content)
    visible: list[str] = []
    segments: list[str] = []
    sigs: Optional[list[str]] = None
    redacted = False
    for i, block in enumerate(content):
        if type(block) is not dict:
            block = item_map(block, _CONTENT, i)
        text, rtext, sig, red = _block_parts(block, (_CONTENT, i))
        if text:
            visible.append(text)
        if rtext:
            segments.append(rtext)
        if sig:
            if sigs is None:
                sigs = [sig]
            else:
                sigs.append(sig)
        if red:
            redacted = True
    u = d.get("usage")
    if u is not None and type(u) is not dict:
        u = opt_map(d, "usage", "")
    figures = usage_figures(u, "usage") if u is not None else None
    return (
        visible[0] if len(visible) == 1 else "".join(visible),
        segments, BLOCKS, redacted, sigs, figures, d.get("stopReason"),
    )


class Decoder:
    """Decodes ConverseStream events (whole ``Converse`` responses: :func:`response`)."""

    __slots__ = ("_idx", "_key", "_pieces", "_seg", "_sigs", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = Bedrock(choice)
        self._sigs: dict[Any, list[str]] = {}  # contentBlockIndex -> signature pieces
        # The last short-path delta's field ("text", "rtext", "rsignature") and block index,
        # with the accumulator's piece list and the segment key it went to: the next delta of
        # the same block and field takes them as they are (no look-up, P9's cost goal).
        self._key = ""
        self._idx: Any = None
        self._pieces: list[Any] = []
        self._seg: tuple[str, Any] = ("b", None)

    def event(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """One stream event; then the accumulator's (a text, reasoning text or signature
        delta's piece handed to it directly: the event is read once).

        Returns:
            The event's :class:`~thinkparse.Delta` when the short path built it, else ``None``
            (the caller takes it from the collector).
        """
        body = ev.get("contentBlockDelta")
        # The usual event, read once: a block delta holding one text, reasoning text or
        # signature string (the accumulator's event() and _event() read the same fields).
        if type(body) is dict:
            delta = body.get("delta")
            idx = body.get("contentBlockIndex")
            if type(delta) is dict and len(delta) == 1 and (idx is None or type(idx) is int):
                v = delta.get("text")
                key = "text"
                if v is None:
                    rc = delta.get("reasoningContent")
                    if type(rc) is dict and len(rc) == 1:
                        v = rc.get("text")
                        key = "rtext"
                        if v is None:
                            v = rc.get("signature")
                            key = "rsignature"
                if type(v) is str:
                    return self._piece(key, idx, v)
        self._key = ""  # any other event: the next delta looks its block up again
        self._event(ev)
        self.acc.event(ev)
        return None

    def _piece(self, key: str, idx: Optional[int], v: str) -> Optional[Delta]:
        """The short path's delta: what ``_event`` then the accumulator's ``event`` do."""
        if key == self._key and idx == self._idx:
            # the same block and field as the last delta: its lists as remembered
            self._pieces.append(v)
            if key == "text":
                return self.out.visible_delta(v) if v else None
            if key == "rtext":
                return self.out.reasoning_delta(self._seg, v, BLOCKS) if v else None
            if v:
                self._sigs.setdefault(idx, []).append(v)
            return None
        d: Optional[Delta] = None
        seg = self._seg
        if key == "text":
            if v:
                d = self.out.visible_delta(v)
        elif key == "rtext":
            if seg[1] != idx or seg[1] is None:
                seg = ("b", idx)
            if v:
                d = self.out.reasoning_delta(seg, v, BLOCKS)
        elif v:
            self._sigs.setdefault(idx, []).append(v)
        acc = self.acc  # as the accumulator's event() would
        if idx not in acc.blocks:
            acc.blocks[idx] = {}
        pk = (idx, key)
        pieces = acc.pieces.get(pk)
        if pieces is None:
            pieces = acc.pieces[pk] = [v]
        else:
            pieces.append(v)
        self._key, self._idx, self._pieces, self._seg = key, idx, pieces, seg
        return d

    def _event(self, ev: Mapping[str, Any]) -> None:
        """One ConverseStream event (wrapped in its one-key object, or the raw payload)."""
        body = ev.get("contentBlockDelta")
        if body is not None:
            if type(body) is not dict:
                body = opt_map(ev, "contentBlockDelta", "")
            if body is not None:
                self._delta(body, "contentBlockDelta")
            return
        if "contentBlockIndex" in ev and "delta" in ev:
            self._delta(ev, "")
            return
        stop = ev.get("contentBlockStop")
        if stop is not None:
            stop = opt_map(ev, "contentBlockStop", "")
            if stop is not None:
                self._stop(opt_index(stop, "contentBlockIndex", "contentBlockStop"))
            return
        mstop = ev.get("messageStop")
        if mstop is not None:
            mstop = opt_map(ev, "messageStop", "")
            if mstop is not None and mstop.get("stopReason") is not None:
                self.out.finish(mstop.get("stopReason"))
            return
        meta = ev.get("metadata")
        where = "metadata"
        if meta is None and "usage" in ev and "metrics" in ev:
            meta, where = ev, ""
        if meta is not None:
            if meta is not ev:
                meta = opt_map(ev, "metadata", "")
            u = opt_map(meta, "usage", where) if meta is not None else None
            if u is not None:
                i, o, t, r = usage_figures(u, join_path(where, "usage") if where else "usage")
                self.out.usage(i, o, t, r)

    def _delta(self, body: Mapping[str, Any], where: str) -> None:
        delta = opt_map(body, "delta", where)
        if delta is None:
            return
        idx = opt_index(body, "contentBlockIndex", where) if "reasoningContent" in delta else None
        self._content(idx, delta, join_path(where, "delta") if where else "delta")

    def _content(self, idx: Any, c: Mapping[str, Any], where: Where) -> None:
        """A content block or a block delta: text and reasoning parts."""
        out = self.out
        text, rtext, sig, red = _block_parts(c, where)
        if text:
            out.visible(text)
        if rtext:
            out.reasoning(("b", idx), rtext, BLOCKS)
        if sig:
            self._sigs.setdefault(idx, []).append(sig)
        if red:
            out.redact()

    def _stop(self, idx: Any) -> None:
        pieces = self._sigs.pop(idx, None)
        if pieces:
            self.out.signature("".join(pieces))

    def close(self) -> None:
        """Release signatures of blocks that never got their ``contentBlockStop``."""
        for idx in list(self._sigs):
            self._stop(idx)
