"""The Gemini Interactions API (family ``gemini``, docs/behaviour.md#p15).

Wire facts (python-genai ``google/genai/_gaos/types/interactions/``: ``interaction.py``,
``step.py``, ``thoughtstep.py``, ``modeloutputstep.py``, ``usage.py``, ``interactionsseevent.py``,
``stepdeltadata.py``; ai.google.dev ``gemini-api/docs/interactions/thinking``, ``.../streaming``,
``.../function-calling`` and ``interactions-breaking-changes-may-2026``):

* ``POST /v1beta/interactions`` answers with an interaction: ``{id, object: "interaction",
  model, status, steps[], usage, ...}``.  ``status`` is ``in_progress``, ``requires_action`` (a
  client-side function call waits), ``completed``, ``failed``, ``cancelled``, ``incomplete``,
  ``budget_exceeded`` or ``queued``.  A ``GET`` answers with the whole timeline, the
  ``user_input`` steps included.
* Steps (``type``): ``thought`` ``{signature, summary: [{type: "text", text} | {type:
  "image"...}]}`` -- the summary appears only with ``thinking_summaries: "auto"``, the signature
  "always" (docs), even when nothing is summarised; ``model_output`` ``{content: [{type: "text",
  text, annotations?}, images...]}``; ``function_call`` ``{id, name, arguments}``;
  ``function_result``; ``user_input``; built-in tool steps (``google_search_call`` /
  ``_result``, ``code_execution_*``, ``url_context_*``...), which may carry a ``signature``.
  Signatures are base64 text.
* Legacy schema (before 2026-05-26, removed 2026-06-08): ``outputs[]`` of content items, the
  answer as ``{type: "text", text}`` items beside ``thought`` and ``function_call`` items.
* ``usage``: ``total_input_tokens``, ``total_output_tokens`` (the answer only),
  ``total_thought_tokens`` (``total_reasoning_tokens`` before 2025-12-17), ``total_tokens``
  (input + output + thought in every documented example).
* The stream (SSE, ``event_type`` in every event): ``interaction.created`` (a partial
  interaction), ``interaction.status_update`` (``status``), ``step.start`` ``{index, step}``,
  ``step.delta`` ``{index, delta}`` with ``delta.type`` ``text``, ``thought_summary``
  (``content: {type: "text", text}``), ``thought_signature`` (``signature``, the step's last
  delta), ``arguments_delta`` (``arguments``: partial JSON text) or a whole payload (built-in
  tool calls and results, images, annotations), ``step.stop``, ``interaction.completed`` (final
  ``status`` and ``usage``, no steps) and ``error`` ``{error: {code, message}}``.  A ``step.start``
  may already hold text (a thought's ``summary``, a model output's ``content``) and a
  placeholder ``signature: ""``.  Legacy events: ``interaction.start``, ``content.start``
  ``{index, content}``, ``content.delta`` (a ``function_call`` delta holds the whole call),
  ``content.stop``, ``interaction.complete``.
* The next turn: stateful, ``previous_interaction_id`` and only the ``function_result`` steps;
  stateless, ``input`` holds the history as steps, the model's steps resent exactly as
  received ("You MUST always resend all thought blocks exactly as they were received").

Decisions (docs/behaviour.md#p15 states the rule):

* Reasoning: each ``thought`` step is one segment, its summary text items joined; the answer:
  ``model_output`` text items (legacy: ``text`` items).  The model's turn is the steps after the
  last ``user_input`` step.  A ``thought`` step without a readable summary gives an opaque
  block; a signature alone is not redacted reasoning (P6).  A non-empty ``signature`` on another
  step (built-in tools) is a signature too, with an opaque block.
* ``output_tokens`` = ``total_output_tokens + total_thought_tokens``; ``reasoning_tokens`` =
  ``total_thought_tokens`` (P5, P12); ``finish_reason`` = ``status``.
* Streams: the status and usage come from the interaction events (the running totals of
  ``step.delta.metadata`` and ``step.stop`` are not read); a ``step.start`` signature equal to
  the one already held for its step is not counted twice.  The stream's turn: each step from its
  ``step.start`` (kept as received), text pieces appended to its last text item (``content`` or
  ``summary``), ``arguments`` pieces joined and parsed, the signature set, whole-payload deltas
  merged in; the interaction's fields from the interaction events (the last value wins; steps
  left out).  ``choice`` other than 0 raises ``ValueError``: an interaction has no choices.
* The message (X2): the turn's steps as received (legacy: ``{"role": "model", "content":
  [items]}``); signatures stay text (the SDK types them as base64 strings).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ..._types import ReasoningBlock
from .._access import (
    COUNT_TYPES,
    Figures,
    Where,
    as_list,
    as_map,
    item_map,
    jsonify,
    maps,
    missing,
    opt_index,
    opt_int,
    opt_list,
    opt_map,
    opt_str,
    req_map,
    shape_error,
    signature_text,
    text_of,
)
from .._assemble import BLOCKS, Parts
from .._collector import Collector, SegmentKey
from .._family import Accumulator, Message, MessageOptions, block

PROVIDER = "gemini"

_LIFECYCLE = frozenset({"interaction.created", "interaction.start", "interaction.completed",
                        "interaction.complete"})
_STATUS = frozenset({"interaction.status_update", "interaction.in_progress",
                     "interaction.requires_action"})
_LEGACY = frozenset({"interaction.start", "interaction.complete", "content.start",
                     "content.delta", "content.stop"})
#: The ``event_type`` values of an Interactions stream (both schemas).
EVENTS = frozenset({*_LIFECYCLE, *_STATUS, *_LEGACY, "step.start", "step.delta", "step.stop",
                    "error"})
_USAGE = ("total_input_tokens", "total_output_tokens", "total_tokens", "total_thought_tokens")
_CONTENT_ITEMS = frozenset({"image", "audio", "video", "document"})
_TEXT, _SUMMARY, _ARGS = "text", "summary", "arguments"


def is_interaction(d: Mapping[str, Any]) -> bool:
    """Whether a payload of the family is an interaction (not a ``generateContent`` one)."""
    return "steps" in d or "outputs" in d or d.get("object") == "interaction"


def is_response(d: Mapping[str, Any]) -> bool:
    """Detection (P8): ``object: "interaction"``, or a ``steps`` / ``outputs`` list beside a
    string ``status``."""
    if d.get("object") == "interaction":
        return True
    steps = d.get("steps", d.get("outputs"))
    return isinstance(steps, list) and isinstance(d.get("status"), str)


def no_choice(choice: int) -> None:
    """``choice`` other than 0: ``ValueError`` (an interaction has no choices, W4)."""
    if choice:
        raise ValueError(f"choice={choice}: a Gemini interaction has no choices")


# --- usage (P5, P12) ---------------------------------------------------------------------------
def usage_figures(u: Mapping[str, Any], where: Where) -> Figures:
    """The figures of an interaction's ``usage``: the output counts the thoughts too."""
    get = u.get
    i, o, t, r = get(_USAGE[0]), get(_USAGE[1]), get(_USAGE[2]), get(_USAGE[3])
    ok = COUNT_TYPES
    if not (type(i) in ok and type(o) in ok and type(t) in ok and type(r) in ok):
        i, o, t, r = (opt_int(u, k, where) for k in _USAGE)
    if r is None and "total_reasoning_tokens" in u:  # the name before 2025-12-17
        r = opt_int(u, "total_reasoning_tokens", where)
    return Figures((i, None if o is None and r is None else (o or 0) + (r or 0), t, r))


def _usage(holder: Mapping[str, Any], where: Where) -> Optional[Figures]:
    u = holder.get("usage")
    if u is not None and type(u) is not dict:
        u = opt_map(holder, "usage", where)
    return None if u is None else usage_figures(u, (where, "usage"))


# --- whole responses ---------------------------------------------------------------------------
def _list(d: Mapping[str, Any], key: str, where: Where) -> Sequence[Any]:
    """``d[key]``, an array (``()`` when absent or null)."""
    v = d.get(key)
    return v if type(v) is list else opt_list(d, key, where) or ()


def _start(entries: Sequence[Any]) -> int:
    """Where the model's turn starts: after the last ``user_input`` step."""
    for i in range(len(entries) - 1, -1, -1):
        s = entries[i]
        if (type(s) is dict or isinstance(s, Mapping)) and s.get("type") == "user_input":
            return i + 1
    return 0


def _texts(items: Sequence[Any], where: Where, out: list[str]) -> list[str]:
    """``out`` with the texts of ``{type: "text", text}`` items added (other items have none)."""
    for j, item in enumerate(items):
        if type(item) is not dict:
            item = item_map(item, where, j)
        if item.get("type", _TEXT) == _TEXT:
            text = item.get(_TEXT)
            if type(text) is not str:
                text = opt_str(item, _TEXT, (where, j))
            if text:
                out.append(text)
    return out


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole interaction (rules in the module docstring)."""
    no_choice(choice)
    key = "steps" if "steps" in d or "outputs" not in d else "outputs"
    entries = _list(d, key, "")
    visible: list[str] = []
    segments: list[str] = []
    sigs: list[str] = []
    for i in range(_start(entries), len(entries)):
        s = entries[i]
        if type(s) is not dict:
            s = item_map(s, key, i)
        t = s.get("type")
        if t == "model_output":
            _texts(_list(s, "content", (key, i)), (key, i, "content"), visible)
        elif t == _TEXT:
            text = opt_str(s, _TEXT, (key, i))
            if text:
                visible.append(text)
        elif t == "thought":
            text = "".join(_texts(_list(s, _SUMMARY, (key, i)), (key, i, _SUMMARY), []))
            if text:
                segments.append(text)
        if "signature" in s:
            sig = s["signature"]
            if type(sig) is not str:
                sig = signature_text(sig, (key, i), "signature")
            if sig:
                sigs.append(sig)
    return Parts(("".join(visible), segments, BLOCKS, False, sigs or None, _usage(d, ""),
                  d.get("status")))


# --- streams -----------------------------------------------------------------------------------
class Decoder:
    """Decodes an Interactions stream, event by event."""

    __slots__ = ("_sigs", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        no_choice(choice)
        self.out = out
        self.acc = InteractionsAccumulator()
        self._sigs: dict[Any, str] = {}  # the signature held per step

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event."""
        t = ev.get("event_type")
        if t == "step.delta" or t == "content.delta":
            idx = opt_index(ev, "index", "")
            delta = ev.get("delta")
            if type(delta) is not dict:
                delta = req_map(ev, "delta")
            self._delta(idx, delta)
        elif t == "step.start" or t == "content.start":
            idx = opt_index(ev, "index", "")
            key = "step" if t == "step.start" else "content"
            self._step(idx, req_map(ev, key), key)
            self.acc.keep(ev)
        elif not isinstance(t, str):
            if t is None:
                raise missing("", "event_type", "a string")
            raise shape_error("", "event_type", "a string", t)
        elif t in _LIFECYCLE:
            if t == "interaction.created" or t == "interaction.start":
                self.out.response_started(t)  # a second one is a second response (P17)
            inter = opt_map(ev, "interaction", "")
            if inter is not None:
                self.out.finish(inter.get("status"))
                figures = _usage(inter, "interaction")
                if figures is not None:
                    self.out.usage(figures)
            self.acc.keep(ev)
        elif t in _STATUS:
            self.out.finish(opt_str(ev, "status", ""))
            self.acc.keep(ev)
        elif t == "error":
            self.out.error_event(ev, t)  # error.code and error.message (P16)
        # step.stop, content.stop and unknown event types carry nothing to read

    def _signature(self, idx: Any, value: Any, where: Where) -> None:
        sig = signature_text(value, where, "signature")
        if sig and self._sigs.get(idx) != sig:
            self._sigs[idx] = sig
            self.out.signature(sig)

    def _delta(self, idx: Any, delta: Mapping[str, Any]) -> None:
        dt = delta.get("type")
        acc = self.acc
        if dt == _TEXT:
            text = opt_str(delta, _TEXT, "delta")
            if text:
                acc.field(idx, _TEXT).append(text)
                self.out.visible(text)
        elif dt == "thought_summary":
            content = req_map(delta, "content", "delta")
            if content.get("type", _TEXT) == _TEXT:
                text = opt_str(content, _TEXT, ("delta", "content"))
                if text:
                    acc.field(idx, _SUMMARY).append(text)
                    self.out.reasoning(SegmentKey("step", idx), text, BLOCKS)
            else:
                acc.merge(idx, delta)
        elif dt == "thought_signature":
            self._signature(idx, delta.get("signature"), "delta")
            acc.merge(idx, delta)
        elif dt == "arguments_delta":
            args = opt_str(delta, _ARGS, "delta")
            if args:
                acc.field(idx, _ARGS).append(args)
        elif type(dt) is str:  # a whole payload (tool calls and results, images, annotations)
            if "signature" in delta:
                self._signature(idx, delta["signature"], "delta")
            acc.merge(idx, delta)
        elif dt is None:
            raise missing("delta", "type", "a string")
        else:
            raise shape_error("delta", "type", "a string", dt)

    def _step(self, idx: Any, step: Mapping[str, Any], where: str) -> None:
        """What a ``step.start`` step (or legacy ``content.start`` item) already holds."""
        t = step.get("type")
        if t == "thought":
            text = "".join(_texts(_list(step, _SUMMARY, where), (where, _SUMMARY), []))
            if text:
                self.out.reasoning(SegmentKey("step", idx), text, BLOCKS)
        elif t == "model_output":
            for text in _texts(_list(step, "content", where), (where, "content"), []):
                self.out.visible(text)
        elif t == _TEXT:
            self.out.visible(opt_str(step, _TEXT, where) or "")
        if "signature" in step:
            self._signature(idx, step["signature"], where)

    def close(self) -> None:
        """Nothing is held per message."""


class InteractionsAccumulator(Accumulator):
    """Interactions stream events added up (rules in the module docstring)."""

    def __init__(self) -> None:
        self.base: dict[str, Any] = {}
        self.legacy = False
        self.starts: dict[Any, dict[str, Any]] = {}
        self.pieces: dict[tuple[Any, str], list[str]] = {}
        self.merged: dict[Any, list[Mapping[str, Any]]] = {}
        self.order: dict[Any, None] = {}  # every step index met, in order

    def field(self, idx: Any, name: str) -> list[str]:
        """The list of step ``idx``'s ``name`` pieces (text, summary, arguments)."""
        p = self.pieces.get((idx, name))
        if p is None:
            p = self.pieces[(idx, name)] = []
            self.order[idx] = None
        return p

    def merge(self, idx: Any, delta: Mapping[str, Any]) -> None:
        """A delta holding a whole payload, merged into its step when the turn is built."""
        self.merged.setdefault(idx, []).append(delta)
        self.order[idx] = None

    def read_kept(self, ev: Mapping[str, Any]) -> None:
        t = ev.get("event_type")
        if t in _LEGACY:
            self.legacy = True
        if t == "step.start" or t == "content.start":
            idx = ev.get("index")
            step = as_map(ev.get("step" if t == "step.start" else "content"))
            self.starts[idx] = jsonify(step) if step is not None else {}
            self.order[idx] = None
        elif t in _STATUS:
            if isinstance(ev.get("status"), str):
                self.base["status"] = ev["status"]
        else:
            inter = as_map(ev.get("interaction"))
            for k, v in (inter or {}).items():
                if v is not None and k not in ("steps", "outputs"):
                    self.base[k] = jsonify(v)

    def build(self) -> dict[str, Any]:
        steps = []
        for idx in sorted(self.order, key=lambda i: (-1,) if i is None else (0, i)):
            steps.append(self._build_step(idx))
        return {**self.base, ("outputs" if self.legacy else "steps"): steps}

    def _build_step(self, idx: Any) -> dict[str, Any]:
        pieces = self.pieces
        step = dict(self.starts.get(idx) or {})
        text, summary = pieces.get((idx, _TEXT)), pieces.get((idx, _SUMMARY))
        args = pieces.get((idx, _ARGS))
        if "type" not in step:  # deltas without a start: the step their kind belongs to
            step["type"] = ("thought" if summary else "function_call" if args
                            else _TEXT if self.legacy else "model_output")
        kind = step["type"]
        if text:
            if kind == "model_output":
                step["content"] = _appended(step.get("content"), "".join(text))
            else:
                prev = step.get(_TEXT)
                step[_TEXT] = (prev if isinstance(prev, str) else "") + "".join(text)
        if summary:
            step[_SUMMARY] = _appended(step.get(_SUMMARY), "".join(summary))
        if args:
            step[_ARGS] = self.parse_json(args, f"steps[{idx}].arguments")
        for delta in self.merged.get(idx, ()):
            dt = delta.get("type")
            if dt == "thought_signature":
                step["signature"] = jsonify(delta.get("signature"))
            elif dt in _CONTENT_ITEMS or dt == "thought_summary":
                key = "content" if dt in _CONTENT_ITEMS else _SUMMARY
                item = jsonify(delta) if key == "content" else jsonify(delta.get("content"))
                step[key] = [*as_list(step.get(key)), item]
            elif dt == "text_annotation_delta" or dt == "text_annotation":
                items = list(as_list(step.get("content")))
                if items and isinstance(items[-1], dict):
                    notes = [*as_list(items[-1].get("annotations")),
                             *jsonify(as_list(delta.get("annotations")))]
                    items[-1] = {**items[-1], "annotations": notes}
                    step["content"] = items
            else:
                step.update({k: jsonify(v) for k, v in delta.items() if k != "type"})
        return step


def _appended(items: Any, text: str) -> list[Any]:
    """A content or summary list with ``text`` appended to its last text item (else added)."""
    out = list(as_list(items))
    last = as_map(out[-1]) if out else None
    if last is not None and last.get("type", _TEXT) == _TEXT:
        prev = last.get(_TEXT)
        out[-1] = {**last, _TEXT: (prev if isinstance(prev, str) else "") + text}
    else:
        out.append({"type": _TEXT, _TEXT: text})
    return out


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _turn(r: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    key = "steps" if "steps" in r or "outputs" not in r else "outputs"
    entries = as_list(r.get(key))
    return maps(entries[_start(entries):])


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``thought`` step (summary, else opaque), one per other step that carries
    a signature (opaque)."""
    out = []
    for m in _turn(r):
        sig = text_of(m.get("signature")) or None
        if m.get("type") == "thought":
            texts = [x[_TEXT] for x in maps(m.get(_SUMMARY))
                     if x.get("type", _TEXT) == _TEXT and isinstance(x.get(_TEXT), str)]
            out.append(block(PROVIDER, "summary", "".join(texts), m, signature=sig))
        elif sig:
            out.append(block(PROVIDER, "opaque", "", m, signature=sig))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """The model's steps as received, to resend in a stateless ``input`` list (legacy outputs:
    ``{"role": "model", "content": [...]}``)."""
    no_choice(choice)
    steps = [jsonify(m) for m in _turn(r)]
    if "steps" not in r and "outputs" in r:
        return {"role": "model", "content": steps}
    return steps
