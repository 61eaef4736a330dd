"""Stream events added up into the response they stand for (X1, X2).

:class:`~thinkparse.StreamNormalizer`'s family decoder hands each event it accepted to its
accumulator (the usual text events: only their piece, read once); on first use the accumulator
gives the response a non-streamed request would have returned, which the turn reads its blocks
and message from (:mod:`._wire`).  Text pieces are kept in lists and joined once (linear in the
stream's length).

Decision (events added up on first use, docs/behaviour.md#x1 lets the turn be built lazily):
the events that carry a block, an item or the message's own fields -- Anthropic
``message_start``, ``content_block_start`` and ``message_delta``, Responses
``response.output_item.done`` and the ``response.*`` lifecycle events -- are kept as they are
(:meth:`AccumulatorBase.defer`) and added up, in order, when the blocks or the message are first
read, so a stream whose turn is never read never copies them.  Memory: these are the events
whose contents the accumulator would copy anyway (a block, an item, the response's fields), so
keeping the event instead of its copy keeps the same order of memory; text deltas are never
kept (their pieces are), so a long stream keeps what it kept before.  As with ``normalize``'s
response (see :mod:`._turn`), the kept events are read when first used: a caller that changes
an event object after feeding it sees the change in the turn.  A citation delta adds the kept
events up first (it adds to a block a kept ``content_block_start`` creates).  Ollama's
stream objects carry the message's fields at their top level, so their top-level keys wait the
same way: the first usual object (``model``, ``created_at``, ``message`` and ``done``, none
null), every other object (at most eight wait; then they are read), and of the later usual
objects only the newest (each replaces every value of the one before, whose keys already have
their places).  The ``usageMetadata`` of a Gemini chunk whose other top-level keys were all met
before is kept the same way, only the newest.

The Gemini, Bedrock and Ollama decoders hand the accumulator the pieces of their usual event
(one text part; one text, reasoning text or signature delta; one message of strings), as the
Chat and Anthropic decoders do, so that event is read once; any other event is read by the
decoder and then by the accumulator's ``event``, and both roads add up the same response
(``tests/test_providers_stream_short_paths.py``).

Rules (docs/behaviour.md#x1, #x2):

* Anthropic: blocks from ``content_block_start``; ``text_delta``, ``thinking_delta`` and
  ``signature_delta`` pieces appended to their field; ``input_json_delta`` pieces parsed when the
  message is built (invalid JSON: :class:`~thinkparse.ResponseShapeError` naming the block).
* Bedrock: blocks by ``contentBlockIndex`` in order of appearance; reasoning text and signature
  pieces joined; ``toolUse.input`` pieces parsed as Anthropic's.
* Responses: items from ``response.output_item.done``; the output of ``response.completed`` /
  ``incomplete`` / ``failed`` replaces them when it is non-empty.
* Gemini: consecutive text parts with the same ``thought`` value merge; a part carrying a
  signature ends the run, and a signature on an empty-text part goes onto the run it ends;
  other parts (``functionCall``...) never merge.
* Chat: ``content``, ``refusal``, ``reasoning_content`` and ``reasoning`` pieces concatenated
  (a key seen in any delta is kept); Mistral content chunks of the same type merge;
  ``tool_calls`` merged by ``index`` (``function.arguments`` concatenated, first non-null wins
  for the other keys; the stream-only ``index`` key is left out); OpenRouter
  ``reasoning_details`` merged by ``index`` (``text``,
  ``summary`` and ``data`` concatenated, last non-null wins for the other keys).
* Ollama: ``content`` / ``response`` and ``thinking`` concatenated, ``tool_calls`` appended.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Optional

from .._errors import ResponseShapeError
from ._access import opt_index
from ._wire import as_list, as_map, jsonify

_SENTINEL: Any = object()


def _parse_json(pieces: list[str], where: str, acc: AccumulatorBase) -> Any:
    text = "".join(pieces)
    try:
        return json.loads(text)
    except ValueError:
        acc.fail(ResponseShapeError(where, "streamed tool input is not valid JSON "
                                           "(a truncated stream?)"))
        return text


class AccumulatorBase:
    """What every family's accumulator shares: the choice, the errors met, deferred events."""

    #: Events handed over with :meth:`defer`, read on first use (``None``: none yet).
    later: Optional[list[Mapping[str, Any]]] = None
    #: Errors met while building the response, in order (``None``: none).
    errors: Optional[list[ResponseShapeError]] = None
    #: The choice added up (W4); each family's ``__init__`` sets it (no base call: a stream
    #: builds one accumulator, cheaply).
    choice: int = 0

    def fail(self, error: ResponseShapeError) -> None:
        """Record an error met while building the response; :meth:`check` raises the first."""
        if self.errors is None:
            self.errors = [error]
        else:
            self.errors.append(error)

    def event(self, ev: Mapping[str, Any]) -> None:
        """Add one event up (each family reads its own)."""

    def defer(self, ev: Mapping[str, Any]) -> None:
        """Keep ``ev`` to add it up on first use (see the module docstring for which)."""
        later = self.later
        if later is None:
            self.later = [ev]
        else:
            later.append(ev)

    def catch_up(self) -> None:
        """Add up the deferred events, in order."""
        later = self.later
        self.later = None
        for ev in later or ():
            self.event(ev)

    def response(self) -> dict[str, Any]:
        """The response the events add up to (the deferred ones read first)."""
        if self.later:
            self.catch_up()
        return self.build()

    def build(self) -> dict[str, Any]:
        """The response from what was added up (each family builds its own)."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise the first error met while building the response (X2)."""
        if self.errors:
            raise self.errors[0]


# --- Anthropic ---------------------------------------------------------------------------------
_ANTHROPIC_DELTAS = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
    "input_json_delta": "partial_json",
}


class Anthropic(AccumulatorBase):
    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {"type": "message", "role": "assistant"}
        self.blocks: dict[Any, dict[str, Any]] = {}
        self.pieces: dict[tuple[Any, str], list[str]] = {}

    def event(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("type")
        if t == "content_block_delta":
            d = ev.get("delta")
            if type(d) is not dict:
                d = as_map(d)
                if d is None:
                    return
            key = _ANTHROPIC_DELTAS.get(d.get("type"))  # type: ignore[arg-type]
            if key is not None:
                v = d.get(key)
                if type(v) is str or isinstance(v, str):
                    pk = (opt_index(ev, "index", ""), key)
                    p = self.pieces.get(pk)
                    if p is None:
                        self.pieces[pk] = [v]
                    else:
                        p.append(v)
            elif d.get("type") == "citations_delta":
                if self.later:
                    self.catch_up()  # the block it adds to may be a deferred start
                b = self.blocks.get(opt_index(ev, "index", ""))
                if b is not None:
                    b.setdefault("citations", []).append(jsonify(d.get("citation")))
        elif t == "content_block_start":
            cb = as_map(ev.get("content_block"))
            if cb is not None:
                self.blocks[opt_index(ev, "index", "")] = jsonify(cb)
        elif t == "message_start":
            msg = as_map(ev.get("message"))
            if msg is not None:
                m = jsonify(msg)
                for i, b in enumerate(as_list(m.pop("content", None))):
                    if isinstance(b, dict):
                        self.blocks[("start", i)] = b
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
        for pos, (idx, b) in enumerate(self.blocks.items()):
            b = dict(b)
            for key in ("text", "thinking", "signature"):
                p = self.pieces.get((idx, key))
                if p:
                    prev = b.get(key)
                    b[key] = (prev if isinstance(prev, str) else "") + "".join(p)
            p = self.pieces.get((idx, "partial_json"))
            if p and "".join(p):
                b["input"] = _parse_json(p, f"content[{pos}].input", self)
            content.append(b)
        return {**self.base, "content": content}


# --- Bedrock -----------------------------------------------------------------------------------
class Bedrock(AccumulatorBase):
    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {}
        self.blocks: dict[Any, dict[str, Any]] = {}
        self.pieces: dict[tuple[Any, str], list[Any]] = {}

    def _get(self, idx: Any) -> dict[str, Any]:
        b = self.blocks.get(idx)
        if b is None:
            b = self.blocks[idx] = {}
        return b

    def event(self, ev: Mapping[str, Any]) -> None:
        body = as_map(ev.get("contentBlockDelta"))
        if body is None and "contentBlockIndex" in ev and "delta" in ev:
            body = ev
        if body is not None:
            where = "contentBlockDelta" if body is not ev else ""
            idx = opt_index(body, "contentBlockIndex", where)
            d = as_map(body.get("delta"))
            if d is None:
                return
            self._get(idx)
            if isinstance(d.get("text"), str):
                self.pieces.setdefault((idx, "text"), []).append(d["text"])
            rc = as_map(d.get("reasoningContent"))
            if rc is not None:
                for k in ("text", "signature", "redactedContent"):
                    v = rc.get(k)
                    if v is not None:
                        self.pieces.setdefault((idx, "r" + k), []).append(v)
            tu = as_map(d.get("toolUse"))
            if tu is not None and isinstance(tu.get("input"), str):
                self.pieces.setdefault((idx, "input"), []).append(tu["input"])
            return
        start = as_map(ev.get("contentBlockStart"))
        if start is not None:
            s = as_map(start.get("start"))
            tu = as_map(s.get("toolUse")) if s is not None else None
            if tu is not None:
                idx = opt_index(start, "contentBlockIndex", "contentBlockStart")
                self._get(idx)["toolUse"] = jsonify(tu)
            return
        ms = as_map(ev.get("messageStart"))
        if ms is not None:
            self.base["role"] = ms.get("role", "assistant")
            return
        stop = as_map(ev.get("messageStop"))
        if stop is not None:
            self.base.update(jsonify(stop))
            return
        meta = as_map(ev.get("metadata"))
        if meta is None and "usage" in ev and "metrics" in ev:
            meta = ev
        if meta is not None:
            self.base.update(jsonify(meta))

    def build(self) -> dict[str, Any]:
        content = []
        for pos, (idx, b) in enumerate(self.blocks.items()):
            b = dict(b)
            p = self.pieces.get((idx, "text"))
            if p:
                b["text"] = "".join(p)
            red = self.pieces.get((idx, "rredactedContent"))
            if red:
                joined = b"".join(x for x in red if isinstance(x, (bytes, bytearray)))
                b["reasoningContent"] = {
                    "redactedContent": jsonify(joined) if joined else "".join(
                        x for x in red if isinstance(x, str))
                }
            elif (idx, "rtext") in self.pieces or (idx, "rsignature") in self.pieces:
                rt: dict[str, Any] = {"text": "".join(self.pieces.get((idx, "rtext"), []))}
                sig = self.pieces.get((idx, "rsignature"))
                if sig:
                    rt["signature"] = "".join(str(jsonify(x)) for x in sig)
                b["reasoningContent"] = {"reasoningText": rt}
            p = self.pieces.get((idx, "input"))
            if p is not None and isinstance(b.get("toolUse"), dict):
                where = f"output.message.content[{pos}].toolUse.input"
                b["toolUse"] = {**b["toolUse"], "input": _parse_json(p, where, self)}
            content.append(b)
        msg = {"role": self.base.pop("role", "assistant"), "content": content}
        return {"output": {"message": msg}, **self.base}


# --- Responses ---------------------------------------------------------------------------------
class Responses(AccumulatorBase):
    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {}
        self.items: dict[Any, Any] = {}
        self.final: Optional[list[Any]] = None

    def event(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("type")
        if t == "response.output_item.done":
            item = as_map(ev.get("item"))
            if item is not None:
                idx = opt_index(ev, "output_index", "")
                self.items[idx if idx is not None else len(self.items)] = jsonify(item)
        elif t in ("response.created", "response.in_progress", "response.completed",
                   "response.incomplete", "response.failed"):
            resp = as_map(ev.get("response"))
            if resp is not None:
                r = jsonify(resp)
                out = r.pop("output", None)
                self.base.update(r)
                if isinstance(out, list) and out:
                    self.final = out

    def build(self) -> dict[str, Any]:
        if self.final is not None:
            output = self.final
        else:
            keys = sorted(self.items, key=lambda k: (not isinstance(k, int), k if isinstance(
                k, int) else 0))
            output = [self.items[k] for k in keys]
        return {**self.base, "output": output}
