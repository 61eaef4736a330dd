"""Anthropic Messages API (family ``anthropic``).

Wire facts (anthropic-sdk-python ``src/anthropic/types/``):

* ``message.py``: ``{type: "message", role, content: [...], usage}``.  Content blocks:
  ``thinking_block.py`` ``{type: "thinking", thinking, signature}``,
  ``redacted_thinking_block.py`` ``{type: "redacted_thinking", data}``, ``text_block.py``
  ``{type: "text", text}``, ``tool_use``, ``server_tool_use`` and server tool result blocks.
  With interleaved thinking, thinking blocks also follow tool blocks.
* ``usage.py``: ``input_tokens``, ``output_tokens`` (thinking included), and
  ``output_tokens_details.thinking_tokens`` (``output_tokens_details.py``) when present.
* Stream events (``raw_message_stream_event.py``): ``message_start`` (``message`` with usage),
  ``content_block_start`` (``index``, ``content_block``), ``content_block_delta`` (``index``,
  ``delta``: ``thinking_delta.thinking``, ``signature_delta.signature``, ``text_delta.text``,
  ``input_json_delta``, ``citations_delta``), ``content_block_stop``, ``message_delta``
  (``usage``, cumulative ``output_tokens``), ``message_stop``; plus ``ping`` and ``error``.

Decisions where docs/behaviour.md is silent:

* A thinking block whose ``thinking`` is empty (``""`` or missing: ``display: "omitted"``) is
  redacted (P6); in a stream this is decided at its ``content_block_stop`` (or at the end).
* Signatures are collected per block, in block order; a stream's ``signature_delta`` pieces of
  one block are concatenated and released when the block stops.
* ``message_start`` may carry content blocks (a resumed message); they are read like a
  response's content.
* The total token count is not reported by Anthropic, so ``usage.total_tokens`` is ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import EMPTY_DELTA, Delta
from ._access import (
    Figures,
    Where,
    count_figures,
    item_map,
    missing,
    opt_index,
    opt_map,
    opt_str,
    req_array,
    shape_error,
    signature_text,
)
from ._accumulate import Anthropic
from ._assemble import BLOCKS, Parts
from ._collector import Collector

PROVIDER = "anthropic"


def usage_figures(u: Mapping[str, Any], where: Where) -> Figures:
    """(input, output, total, reasoning) of an Anthropic usage object (no total is reported)."""
    return count_figures(
        u, where, ("input_tokens", "output_tokens", None),
        ("output_tokens_details", "thinking_tokens"),
    )


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Message``: its content blocks in order (the parts a stream's start, delta
    and stop events of each block give), handed to the collector in one call."""
    content = req_array(d, "content")
    visible: list[str] = []
    segments: list[str] = []
    sigs: Optional[list[str]] = None
    redacted = False
    for i, block in enumerate(content):
        if type(block) is not dict:
            block = item_map(block, "content", i)
        t = block.get("type")
        if t == "text":
            text = block.get("text")
            if type(text) is not str:
                text = opt_str(block, "text", ("content", i))
            if text:
                visible.append(text)
        elif t == "thinking":
            text = block.get("thinking")
            if type(text) is not str:
                text = opt_str(block, "thinking", ("content", i))
            if text:
                segments.append(text)
            else:
                redacted = True  # display omitted (P6)
            sig = block.get("signature")
            if sig:
                if type(sig) is not str:
                    sig = signature_text(sig, ("content", i), "signature")
                if sig:
                    if sigs is None:
                        sigs = [sig]
                    else:
                        sigs.append(sig)
        elif t == "redacted_thinking":
            redacted = True
    u = d.get("usage")
    if u is not None and type(u) is not dict:
        u = opt_map(d, "usage", "")
    figures = usage_figures(u, "usage") if u is not None else None
    return (
        visible[0] if len(visible) == 1 else "".join(visible),
        segments, BLOCKS, redacted, sigs, figures, d.get("stop_reason"),
    )


#: Events the accumulator reads on first use (a block, the message's own fields: what it would
#: copy, never text pieces); ``content_block_stop``, ``message_stop`` and keep-alives are not
#: handed to it at all.
_ACC_DEFERS = ("content_block_start", "message_start", "message_delta")


class Decoder:
    """Decodes a Messages API stream, event by event (whole messages: :func:`response`)."""

    __slots__ = ("_blocks", "_idx", "_key", "_pieces", "_seg", "_sig", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        #: A stream's accumulator (X1/X2), fed by this decoder so that a text or thinking
        #: delta is read once; ``None`` when the caller feeds it.
        self.acc: Any = Anthropic(choice)
        # index -> [type, had thinking text, signature pieces]
        self._blocks: dict[Any, list[Any]] = {}
        # The last text, thinking or signature delta's field and block index, with the
        # accumulator's piece list, the segment key and the signature list it went to: the next
        # delta of the same block and field takes them as they are (no look-up, P9's cost goal).
        self._key = ""
        self._idx: Any = None
        self._pieces: list[str] = []
        self._seg: tuple[str, Any] = ("b", None)
        self._sig: list[str] = []

    def _usage(self, holder: Mapping[str, Any], where: str) -> None:
        u = holder.get("usage")
        if u is None:
            return
        if type(u) is not dict:
            u = opt_map(holder, "usage", where)
            if u is None:
                return
        i_, o, tt, r = usage_figures(u, (where, "usage") if where else "usage")
        self.out.usage(i_, o, tt, r)

    def event(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """One stream event; then the accumulator's (a text, thinking or signature delta's
        piece handed to it directly: the event is read once).

        Returns:
            The event's :class:`~thinkparse.Delta` when a text or thinking delta's short path
            built it, else ``None`` (the caller takes it from the collector).
        """
        acc = self.acc
        t = ev.get("type")
        if t == "content_block_delta":
            d = ev.get("delta")
            if type(d) is dict:
                dt = d.get("type")
                if dt == "text_delta":
                    key = "text"
                elif dt == "thinking_delta":
                    key = "thinking"
                elif dt == "signature_delta":
                    key = "signature"
                else:
                    key = ""
                v = d.get(key) if key else None
                idx = ev.get("index")
                if type(v) is str and (idx is None or type(idx) is int):
                    if key == self._key and idx == self._idx:
                        # the same block and field as the last delta: its lists as remembered
                        self._pieces.append(v)
                        if not v:
                            return EMPTY_DELTA
                        if key == "thinking":
                            return self.out.reasoning_delta(self._seg, v, BLOCKS)
                        if key == "text":
                            return self.out.visible_delta(v)
                        self._sig.append(v)
                        return EMPTY_DELTA
                    out = EMPTY_DELTA
                    b = None
                    if v:  # the delta straight from the collector (no take() call)
                        if key == "text":
                            out = self.out.visible_delta(v)
                        else:
                            b = self._blocks.get(idx)
                            if b is None:
                                b = self._blocks[idx] = ["thinking", False, []]
                            if key == "signature":
                                b[2].append(v)  # nothing released
                            else:
                                b[1] = True
                                out = self.out.reasoning_delta(("b", idx), v, BLOCKS)
                    pk = (idx, key)  # as the accumulator's event() would
                    pieces = acc.pieces.get(pk)
                    if pieces is None:
                        pieces = acc.pieces[pk] = [v]
                    else:
                        pieces.append(v)
                    if v:  # remembered for the next delta of this block and field
                        self._key, self._idx, self._pieces = key, idx, pieces
                        self._seg = ("b", idx)
                        self._sig = b[2] if b is not None else []
                    return out
        self._key = ""  # any other event: the next delta looks its block up again
        self._event(ev)
        if t == "content_block_delta":
            acc.event(ev)  # pieces: in order with the short path's
        elif t in _ACC_DEFERS:
            acc.defer(ev)
        return None

    def _event(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("type")
        if t == "content_block_delta":
            delta = ev.get("delta")
            if type(delta) is not dict:
                delta = opt_map(ev, "delta", "")
                if delta is None:
                    raise missing("", "delta", "an object")
            dt = delta.get("type")
            idx = opt_index(ev, "index", "")
            if dt == "text_delta":
                text = delta.get("text")
                if type(text) is not str:
                    text = opt_str(delta, "text", "delta")
                if text:
                    self.out.visible(text)
            elif dt == "thinking_delta":
                text = delta.get("thinking")
                if type(text) is not str:
                    text = opt_str(delta, "thinking", "delta")
                if text:
                    self._block(idx, "thinking")[1] = True
                    self.out.reasoning(("b", idx), text, BLOCKS)
            elif dt == "signature_delta":
                sig = signature_text(delta.get("signature"), "delta", "signature")
                if sig:
                    self._block(idx, "thinking")[2].append(sig)
        elif t == "content_block_start":
            block = opt_map(ev, "content_block", "")
            if block is None:
                raise missing("", "content_block", "an object")
            self._start(opt_index(ev, "index", ""), block, "content_block")
        elif t == "content_block_stop":
            self._stop(opt_index(ev, "index", ""))
        elif t == "message_delta" or t == "message_start":
            holder = ev
            where = ""
            if t == "message_start":
                holder = opt_map(ev, "message", "") or {}
                where = "message"
                content = holder.get("content")
                if content:
                    if not isinstance(content, (list, tuple)):
                        raise shape_error(where, "content", "an array", content)
                    for i, block in enumerate(content):
                        block = item_map(block, "message.content", i)
                        key = ("start", i)
                        self._start(key, block, ("message.content", i))
                        self._stop(key)
            self._usage(holder, where)
            if t == "message_delta":
                md = ev.get("delta")
                if isinstance(md, Mapping) and md.get("stop_reason") is not None:
                    self.out.finish(md.get("stop_reason"))
        elif type(t) is not str:
            if t is None:
                raise missing("", "type", "a string")
            raise shape_error("", "type", "a string", t)
        # message_stop, ping, error and unknown event types carry nothing to extract

    def _block(self, idx: Any, kind: str) -> list[Any]:
        b = self._blocks.get(idx)
        if b is None:
            b = self._blocks[idx] = [kind, False, []]
        return b

    def _start(self, idx: Any, block: Mapping[str, Any], where: Where) -> None:
        bt = block.get("type")
        if bt == "thinking":
            b = self._block(idx, "thinking")
            text = opt_str(block, "thinking", where)
            if text:
                b[1] = True
                self.out.reasoning(("b", idx), text, BLOCKS)
            sig = block.get("signature")
            if sig:
                sig = signature_text(sig, where, "signature")
                if sig:
                    b[2].append(sig)
        elif bt == "redacted_thinking":
            self.out.redact()
        elif bt == "text":
            text = block.get("text")
            if type(text) is not str:
                text = opt_str(block, "text", where)
            if text:
                self.out.visible(text)

    def _stop(self, idx: Any) -> None:
        b = self._blocks.pop(idx, None)
        if b is None:
            return
        if b[0] == "thinking":
            if not b[1]:
                self.out.redact()
            if b[2]:
                self.out.signature("".join(b[2]))

    def close(self) -> None:
        """Finish blocks that never got their ``content_block_stop``."""
        for idx in list(self._blocks):
            self._stop(idx)
