"""Accumulators of the part-based streams: Gemini and Ollama (Chat: :mod:`._accumulate_chat`).

See :mod:`._accumulate` for the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from ._accumulate import AccumulatorBase
from ._wire import SCALARS, as_list, as_map, jsonify

_LAST_WINS = frozenset({"usageMetadata", "usage_metadata"})
#: A streamed chunk's usual top-level keys.
_USUAL_CHUNK = frozenset({"candidates", "usageMetadata", "modelVersion", "responseId"})
_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature", "thought_signature"})


def copy_keys(into: dict[str, Any], src: Mapping[str, Any], skip: str) -> None:
    """Copy every key of ``src`` but ``skip`` into ``into`` (scalars as they are, the rest as
    JSON copies; last value wins)."""
    for k, v in src.items():
        if k != skip:
            into[k] = v if type(v) in SCALARS else jsonify(v)


# --- Gemini ------------------------------------------------------------------------------------
class Gemini(AccumulatorBase):
    """Streamed ``GenerateContentResponse`` chunks added up."""

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {}
        self.cand: dict[str, Any] = {}
        self.content: dict[str, Any] = {}
        self.parts: list[dict[str, Any]] = []
        self.texts: list[list[str]] = []  # text pieces per part (text parts only)
        #: The top-level keys met so far (with ``candidates``): a chunk holding no other key
        #: only updates ``usageMetadata`` (the decoder's short path).
        self.seen: set[str] = set()
        #: ``seen`` holds the usual chunk's keys (``_USUAL_CHUNK``).
        self.usual = False
        #: The last ``usageMetadata`` a short-path chunk brought, copied on first use (the
        #: key already in ``base``; last wins).
        self.usage: Any = None

    def set_usage(self) -> None:
        """Copy the kept ``usageMetadata`` into ``base`` (before any later write)."""
        u = self.usage
        self.usage = None
        self.base["usageMetadata"] = jsonify(u)

    def top(self, ev: Mapping[str, Any]) -> None:
        """Read a chunk's top-level keys (the first value wins, the last for usage)."""
        if self.usage is not None:
            self.set_usage()
        seen = self.seen
        seen.update(ev)
        self.usual = seen >= _USUAL_CHUNK
        base = self.base
        for k, v in ev.items():
            if k != "candidates" and (k not in base or k in _LAST_WINS):
                base[k] = v if type(v) in SCALARS else jsonify(v)

    def event(self, ev: Mapping[str, Any]) -> None:
        # Plain dicts and scalars are read without a call each (every event of a stream comes
        # here: docs/behaviour.md#p9's cost goal).
        self.top(ev)
        for i, c in enumerate(as_list(ev.get("candidates"))):
            m = c if type(c) is dict else as_map(c)
            if m is None:
                continue
            idx = m.get("index")
            if (i if idx is None else idx) != self.choice:
                continue
            copy_keys(self.cand, m, "content")
            content = m.get("content")
            if type(content) is not dict:
                content = as_map(content)
                if content is None:
                    continue
            copy_keys(self.content, content, "parts")
            for p in as_list(content.get("parts")):
                pm = p if type(p) is dict else as_map(p)
                if pm is not None:
                    self._part(pm)

    def _part(self, p: Mapping[str, Any]) -> None:
        is_text = "text" in p and isinstance(p.get("text"), str) and _TEXT_KEYS.issuperset(p)
        sig_key = "thoughtSignature" if "thoughtSignature" in p else (
            "thought_signature" if "thought_signature" in p else None
        )
        sig = p.get(sig_key) if sig_key else None
        if is_text and self.parts:
            last = self.parts[-1]
            last_text = self.texts[-1]
            open_run = last_text is not None and not (
                last.get("thoughtSignature") or last.get("thought_signature")
            )
            if open_run and sig and p["text"] == "":
                last[sig_key or "thoughtSignature"] = jsonify(sig)  # ends the run
                return
            if open_run and bool(last.get("thought")) == bool(p.get("thought")):
                last_text.append(p["text"])
                if sig:
                    last[sig_key or "thoughtSignature"] = jsonify(sig)
                return
        part = jsonify(p)
        self.parts.append(part)
        self.texts.append([part.pop("text")] if is_text else None)  # type: ignore[arg-type]

    def build(self) -> dict[str, Any]:
        if self.usage is not None:
            self.set_usage()
        parts = []
        for part, pieces in zip(self.parts, self.texts):
            if pieces is not None:
                part = {"text": "".join(pieces), **part}
            parts.append(part)
        cand = {**self.cand, "content": {**self.content, "parts": parts}}
        if "index" not in cand and self.choice:
            cand["index"] = self.choice
        return {"candidates": [cand], **self.base}


# --- Ollama ------------------------------------------------------------------------------------
_OLLAMA_TEXT = ("content", "thinking", "response")
_OLLAMA_MSG_TEXT = frozenset({"content", "thinking", "tool_calls"})
_OLLAMA_NOT_BASE = frozenset({"message", "response", "thinking", "tool_calls"})
#: Objects whose top-level keys may wait to be read (beyond: read at once, memory bounded).
_PENDING_MAX = 8


class Ollama(AccumulatorBase):
    """NDJSON objects added up.

    The decoder's short path (a usual ``/api/chat`` object, docs/behaviour.md#p9's cost goal)
    hands over only what it read: the object goes to :meth:`top`, whose keys are read on first
    use, the message's ``content`` and ``thinking`` values are appended to ``short`` (two
    entries an object, ``None`` where absent) and its ``role`` goes into ``role``.
    :meth:`event` and :meth:`build` first add all of it up, in order (:meth:`settle`).  A stream
    makes one accumulator, and its first event is the one that makes the containers: the fewer
    it makes, the cheaper that event, so each is made when first needed.
    """

    __slots__ = (
        "base", "choice", "first", "kept", "msg", "pending", "pieces", "role", "short",
        "tools", "usual",
    )

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: Optional[dict[str, Any]] = None
        self.msg: Optional[dict[str, Any]] = None
        self.pieces: Optional[dict[str, list[str]]] = None
        self.tools: Optional[list[Any]] = None
        #: Objects whose top-level keys are not read yet, in order: ``first`` (the first
        #: object, when it was a usual one), then ``pending`` (at most ``_PENDING_MAX``; then
        #: they are read), then ``kept``.
        self.first: Optional[Mapping[str, Any]] = None
        self.pending: Optional[list[Mapping[str, Any]]] = None
        #: The newest usual stream object (exactly ``model``, ``created_at``, ``message`` and
        #: ``done``, none null), newer than every pending one: the next usual object replaces
        #: each of its values, so only the newest is kept.
        self.kept: Optional[Mapping[str, Any]] = None
        #: A usual object is waiting or read, so ``base`` has (or will have, before any later
        #: object is read) ``model``, ``created_at`` and ``done`` in their places: a later usual
        #: object only replaces values.
        self.usual = False
        #: The short path's ``content`` and ``thinking`` values, two entries an object.
        self.short: list[Optional[str]] = _NO_PIECES
        #: The short path's newest non-null ``role``.
        self.role: Optional[str] = None

    def top(self, ev: Mapping[str, Any], usual: bool) -> None:
        """Keep an object's top-level keys to read on first use (last non-null value wins); a
        ``usual`` one replaces the kept one (see ``kept``)."""
        if usual:
            if self.usual:
                self.kept = ev
                return
            self.usual = True
            if self.short is _NO_PIECES:  # the stream's first object
                self.short = []
                self.first = ev
                return
        elif self.short is _NO_PIECES:
            self.short = []
        pending = self.pending
        kept = self.kept
        if kept is not None:
            self.kept = None
            if pending is None:
                self.pending = [kept, ev]
                return
            pending.append(kept)
        elif pending is None:
            self.pending = [ev]
            return
        pending.append(ev)
        if len(pending) > _PENDING_MAX:
            self.settle()

    def settle(self) -> None:
        """Read the waiting objects' top-level keys and add up the short path's pieces."""
        base = self.base
        if base is None:
            base = self.base = {}
        waiting = [x for x in (self.first, *(self.pending or ()), self.kept) if x is not None]
        if waiting:
            self.first = self.kept = None
            self.pending = None
            for ev in waiting:
                for k, v in ev.items():
                    if v is not None and k not in _OLLAMA_NOT_BASE:
                        base[k] = v if type(v) in SCALARS else jsonify(v)
        pieces = self.pieces
        if pieces is None:
            pieces = self.pieces = {}
        short = self.short
        if not short:
            return
        self.short = []
        m = self.msg
        if m is None:
            m = self.msg = {}
        if self.role is not None:
            m["role"] = self.role
            self.role = None
        # a key new to the message goes in at its first piece (content first on a tie)
        runs = sorted(
            (_first_string(values), key, values)
            for key, values in (("content", short[0::2]), ("thinking", short[1::2]))
        )
        for first, key, values in runs:
            if first == len(values):
                continue  # the key never came
            got = [v for v in values if v] or [""]
            q = pieces.get(key)
            if q is None:
                pieces[key] = got
            else:
                q += got

    def event(self, ev: Mapping[str, Any]) -> None:
        # Scalars are copied without a call to jsonify, and a list is made only for a new key
        # (every event of a stream comes here: docs/behaviour.md#p9's cost goal).
        self.settle()
        base, pieces = self.base, self.pieces
        assert base is not None and pieces is not None  # made by settle()
        msg = ev.get("message")
        if type(msg) is not dict:
            msg = as_map(msg)
        holder: Mapping[str, Any] = ev
        if msg is not None:
            m = self.msg
            if m is None:
                m = self.msg = {}
            holder = msg
            for k, v in msg.items():
                if v is not None and k not in _OLLAMA_MSG_TEXT:
                    m[k] = v if type(v) in SCALARS else jsonify(v)
        for k in _OLLAMA_TEXT:
            v = holder.get(k)
            if type(v) is str or isinstance(v, str):
                p = pieces.get(k)
                if p is None:
                    pieces[k] = [v]
                else:
                    p.append(v)
        tools = holder.get("tool_calls")
        if tools:
            if self.tools is None:
                self.tools = []
            self.tools.extend(jsonify(x) for x in as_list(tools))
        for k, v in ev.items():
            if v is not None and k not in _OLLAMA_NOT_BASE:
                base[k] = v if type(v) in SCALARS else jsonify(v)

    def build(self) -> dict[str, Any]:
        self.settle()
        base, pieces = self.base, self.pieces
        assert base is not None and pieces is not None  # made by settle()
        joined = {k: "".join(v) for k, v in pieces.items()}
        if self.msg is not None:
            m = {**self.msg, **{k: v for k, v in joined.items() if k != "response"}}
            m.setdefault("content", "")
            if self.tools:
                m["tool_calls"] = self.tools
            return {**base, "message": m}
        out = {**base, "response": joined.get("response", "")}
        if "thinking" in joined:
            out["thinking"] = joined["thinking"]
        return out


#: ``Ollama.short`` before the stream's first object (never appended to).
_NO_PIECES: list[Optional[str]] = []


def _first_string(values: list[Optional[str]]) -> int:
    """Index of the first non-null value (``len(values)`` if none)."""
    for i, v in enumerate(values):
        if v is not None:
            return i
    return len(values)
