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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._access import (
    Figures,
    Where,
    count_figures,
    item_map,
    missing,
    opt_index,
    opt_list,
    opt_map,
    opt_str,
    readable,
    req_array,
    shape_error,
)
from ._accumulate import Responses
from ._assemble import BLOCKS, Parts
from ._collector import Collector

PROVIDER = "openai_responses"


_COUNTS = ("input_tokens", "output_tokens", "total_tokens")
_DETAILS = ("output_tokens_details", "reasoning_tokens")


def usage_figures(u: Mapping[str, Any], where: Where) -> Figures:
    """(input, output, total, reasoning) of a Responses ``usage`` object."""
    return count_figures(u, where, _COUNTS, _DETAILS)


def _texts(parts: Any, owner: Where, key: str) -> list[str]:
    """The ``text`` of each part of ``owner[key]`` (``""`` for a part without one)."""
    if not parts:
        return []
    if type(parts) is not list and not isinstance(parts, (list, tuple)):
        raise shape_error(owner, key, "an array or null", parts)
    out = []
    for j, p in enumerate(parts):
        if type(p) is not dict:
            p = item_map(p, (*_tuple(owner), key), j)
        text = p.get("text")
        if type(text) is str:
            out.append(text)
        elif text is None:
            out.append("")
        else:
            raise shape_error((*_tuple(owner), key, j), "text", "a string or null", text)
    return out


def _tuple(where: Where) -> tuple[Any, ...]:
    return where if isinstance(where, tuple) else (where,)


def reasoning_parts(item: Mapping[str, Any], where: Where) -> tuple[list[str], bool]:
    """Segments of a reasoning item (raw content preferred, P4) and whether it is redacted."""
    raw = item.get("content")
    if raw:
        segs = _texts(raw, where, "content")
        for s in segs:
            if s and not s.isspace():
                break
        else:
            segs = _texts(item.get("summary"), where, "summary")
    else:
        segs = _texts(item.get("summary"), where, "summary")
    enc = item.get("encrypted_content")
    if enc is not None and type(enc) is not str:
        enc = opt_str(item, "encrypted_content", where)
    return segs, bool(enc)


def message_parts(item: Mapping[str, Any], where: Where) -> list[str]:
    """Text of a message item's parts, one entry per part (``""`` for non-text parts)."""
    parts = item.get("content")
    if not parts:
        return []
    if type(parts) is not list and not isinstance(parts, (list, tuple)):
        raise shape_error(where, "content", "an array or null", parts)
    out = []
    for j, p in enumerate(parts):
        if type(p) is not dict:
            p = item_map(p, (*_tuple(where), "content"), j)
        t = p.get("type")
        if t == "output_text" or t == "text":
            key = "text"
        elif t == "refusal":
            key = "refusal"
        else:
            out.append("")
            continue
        text = p.get(key)
        if type(text) is str:
            out.append(text)
        elif text is None:
            out.append("")
        else:
            raise shape_error((*_tuple(where), "content", j), key, "a string or null", text)
    return out


# --- streams -----------------------------------------------------------------------------------
_TEXT_EVENTS = {
    "response.output_text.delta": ("t", "delta"),
    "response.refusal.delta": ("t", "delta"),
    "response.reasoning_summary_text.delta": ("s", "delta"),
    "response.reasoning_text.delta": ("r", "delta"),
    "response.output_text.done": ("t", "text"),
    "response.refusal.done": ("t", "refusal"),
    "response.reasoning_summary_text.done": ("s", "text"),
    "response.reasoning_text.done": ("r", "text"),
}
_DONE_RESPONSE = ("response.completed", "response.incomplete", "response.failed")


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole ``Response``: every output item (the parts a stream's final event gives)."""
    output = d.get("output")
    if type(output) is not list:
        output = req_array(d, "output")
    visible: list[str] = []
    segments: list[str] = []
    redacted = False
    for i, item in enumerate(output):
        if type(item) is not dict:
            item = item_map(item, "output", i)
        t = item.get("type")
        if t == "message":
            if item.get("phase") == "commentary":
                continue
            visible.extend(message_parts(item, ("output", i)))
        elif t == "reasoning":
            segs, red = reasoning_parts(item, ("output", i))
            segments.extend(segs)
            if red:
                redacted = True
    u = d.get("usage")
    if u is not None and type(u) is not dict:
        u = opt_map(d, "usage", "")
    figures = usage_figures(u, "usage") if u is not None else None
    reason = d.get("status")
    details = d.get("incomplete_details")
    if details is not None and isinstance(details, Mapping) and details.get("reason"):
        reason = details.get("reason")
    return (
        "".join(visible), segments, BLOCKS, redacted, None, figures, reason
    )


#: Events the accumulator reads (on first use): finished items and the response's lifecycle.
_ACC_DEFERS = frozenset({
    "response.output_item.done", "response.created", "response.in_progress",
    "response.completed", "response.incomplete", "response.failed",
})


class Decoder:
    """Decodes a Responses API stream, event by event (whole ``Response``: :func:`response`)."""

    __slots__ = ("_kind", "_phase", "_seen", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        #: A stream's accumulator (X1/X2), fed by this decoder so that text events (which it
        #: does not read) cost no call; ``None`` when the caller feeds it.
        self.acc: Any = Responses(choice)
        self._seen: set[tuple[Any, ...]] = set()  # parts that released text
        self._kind: dict[Any, str] = {}  # output_index -> "s" or "r" for reasoning items
        self._phase: dict[Any, Any] = {}  # output_index -> message phase

    def _response(self, resp: Mapping[str, Any], output: Any, where: str) -> None:
        for i, item in enumerate(output or ()):
            if type(item) is not dict:
                item = item_map(item, (where, "output"), i)
            self._item(i, item, (where, "output", i))
        u = resp.get("usage")
        if u is not None:
            u = opt_map(resp, "usage", where)
            if u is not None:
                i_, o, tt, r = usage_figures(u, (where, "usage"))
                self.out.usage(i_, o, tt, r)
        status = resp.get("status")
        details = resp.get("incomplete_details")
        if isinstance(details, Mapping) and details.get("reason"):
            self.out.finish(details.get("reason"))
        elif status is not None:
            self.out.finish(status)

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event; then the accumulator's (which reads no text event), when this
        decoder feeds it."""
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
            ikey = "summary_index" if kind == "s" else "content_index"
            idx = ev.get(ikey)
            if type(idx) is not int:
                idx = opt_index(ev, ikey, "")
            key = (kind, oi, idx)
            if field != "delta" and key in self._seen:
                return  # a "done" event repeating text already released
            self._part(key, text or "")
            return
        self._other(ev, t)
        acc = self.acc
        if acc is not None and t in _ACC_DEFERS:
            acc.defer(ev)  # read on first use: items and the response's own fields

    def _other(self, ev: Mapping[str, Any], t: str) -> None:
        if t == "response.output_item.added":
            item = opt_map(ev, "item", "")
            if item is not None and item.get("type") == "message":
                self._phase[opt_index(ev, "output_index", "")] = item.get("phase")
        elif t == "response.output_item.done":
            item = opt_map(ev, "item", "")
            if item is not None:
                self._item(opt_index(ev, "output_index", ""), item, "item")
        elif t in _DONE_RESPONSE:
            resp = opt_map(ev, "response", "")
            if resp is not None:
                self._response(resp, opt_list(resp, "output", "response"), "response")

    def _part(self, key: tuple[Any, ...], text: str) -> None:
        kind, oi = key[0], key[1]
        if kind == "t":
            if self._phase.get(oi) == "commentary":
                return
            if text:
                self._seen.add(key)
                self.out.visible(text)
            return
        first = self._kind.setdefault(oi, kind)
        if first != kind:
            return  # P4 in a stream: the item's other kind of text came first
        if text:
            self._seen.add(key)
            self.out.reasoning(key, text, BLOCKS)

    def _item(self, oi: Any, item: Mapping[str, Any], where: Where) -> None:
        """A finished item: supply the parts that had no deltas."""
        t = item.get("type")
        if t == "reasoning":
            segs, red = reasoning_parts(item, where)
            if not any(k[1] == oi and k[0] != "t" for k in self._seen):
                raw = _texts(item.get("content"), where, "content")
                kind = "r" if any(readable(s) for s in raw) else "s"
                self._kind[oi] = kind
                for j, s in enumerate(segs):
                    self._part((kind, oi, j), s)
            if red:
                self.out.redact()
        elif t == "message":
            if "phase" in item:
                self._phase[oi] = item.get("phase")
            for j, s in enumerate(message_parts(item, where)):
                key = ("t", oi, j)
                if key not in self._seen:
                    self._part(key, s)

    def close(self) -> None:
        """Nothing is held per message."""
