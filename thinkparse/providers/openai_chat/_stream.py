"""The Chat family's stream: the decoder and the accumulator of its turn (P9, X1, X2); the
wire facts and the decisions are in :mod:`thinkparse.providers.openai_chat`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Optional

from .._access import (
    SCALARS,
    Where,
    as_list,
    as_map,
    item_map,
    jsonify,
    maps,
    missing,
    opt_index,
    opt_list,
    opt_map,
    opt_str,
    shape_error,
)
from .._assemble import BLOCKS, FIELD
from .._collector import Collector, SegmentKey
from .._family import KEEP_ALIVE, Accumulator
from ._read import _FIELDS, _TEXT, _detail, call_signatures, content_parts, usage_figures

_FIELD_SEGMENT = SegmentKey("field", 0)
_FIRST_CHUNK = SegmentKey("chunk", 0)
#: The decoder's parts that are not delta fields: a chunk, a choice, a legacy text piece.
TOP, CHOICE, LEGACY = object(), object(), object()

def _check_tools(delta: Mapping[str, Any], where: Where) -> Optional[Sequence[Any]]:
    """A delta's ``tool_calls``, checked: an array of objects whose ``index`` is an integer or
    absent (the accumulator keys the calls by it, P8)."""
    calls = opt_list(delta, "tool_calls", where)
    for j, item in enumerate(calls or ()):
        opt_index(item_map(item, (where, "tool_calls"), j), "index", (where, "tool_calls", j))
    return calls


class Decoder:
    """Decodes a Chat Completions (or legacy Completions) stream, chunk by chunk."""

    __slots__ = ("_after_text", "_choice", "_chunk_segment", "_finished", "_nkeys", "_parts",
                 "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        #: What the turn is made of, in order: ``(field, piece)`` for each delta field as
        #: received, ``(TOP, chunk)`` and ``(CHOICE, choice)`` for the keys around it, ``(LEGACY,
        #: text)``; the accumulator adds them up on first use.
        self._parts: list[tuple[Any, Any]] = []
        self.acc = ChatAccumulator(choice, self._parts)
        self._choice = choice
        self._chunk_segment = _FIRST_CHUNK  # the Mistral thinking segment
        self._after_text = False
        self._nkeys = -1  # the number of top-level keys of the last chunk whose keys were kept
        self._finished: Any = self  # the id of the chunk that gave the finish reason

    def event(self, ev: Mapping[str, Any]) -> None:
        """One ``chat.completion.chunk`` (or legacy ``text_completion``) event.

        One pass over the chosen choice's ``delta`` hands every field to the accumulator; the
        answer's content goes out as it comes, the refusal and the reasoning after it, in P4's
        order (what a field releases counts even when a later field is malformed).
        """
        parts = self._parts
        out = self.out
        if self._finished is not self and ev.get("id") != self._finished and ev.get("choices"):
            out.new_response(f"a chunk with the new id {ev.get('id')!r} after a finish")  # P17
        if len(ev) != self._nkeys or "usage" in ev:
            self._nkeys = len(ev)
            parts.append((TOP, ev))  # (chunks of one shape repeat their top-level keys)
        if "error" in ev and ev["error"] is not None:
            out.error_event(ev, "error")  # an error chunk (P16)
        choices = ev.get("choices")
        if type(choices) is not list:
            if choices is None:
                if "usage" not in ev and "x_groq" not in ev:
                    t = ev.get("type")
                    if not isinstance(t, str) or t not in KEEP_ALIVE:
                        raise missing("", "choices", "an array")
                    if t == "error":
                        out.error_event(ev, t)
                    return
                choices = ()
            elif not isinstance(choices, (list, tuple)):
                raise shape_error("", "choices", "an array", choices)
        i = -1
        for c in choices:
            i += 1
            if type(c) is not dict:
                c = item_map(c, "choices", i)
            idx = c.get("index")
            if (i if idx is None else idx) != self._choice:
                continue
            if len(c) != 2 or "index" not in c:  # the choice's own keys (besides the delta)
                parts.append((CHOICE, c))
                if c.get("finish_reason") is not None:
                    out.finish(c.get("finish_reason"))
                    self._finished = ev.get("id")
            key = "delta"
            delta = c.get(key)
            if delta is None:
                key = "message"
                delta = c.get(key)
                if delta is None:
                    if c.get("text") is not None:
                        text = opt_str(c, "text", ("choices", i))
                        if text is not None:
                            parts.append((LEGACY, text))
                            self._text(text)
                    break
            if type(delta) is not dict:
                delta = opt_map(c, key, ("choices", i))
            refusal = rc = r = items = calls = None
            for k, v in delta.items():
                parts.append((k, v))
                if type(v) is not str:  # (a string subclass is read as a string below)
                    if v is None or not (k in _TEXT or k == "reasoning_details"):
                        if k == "tool_calls" and v is not None:
                            calls = _check_tools(delta, ("choices", i, key))
                        continue
                    where = ("choices", i, key)
                    if k == "reasoning_details":
                        items = opt_list(delta, k, where)
                        continue
                    if k == "content" and not isinstance(v, str):
                        if not isinstance(v, (list, tuple)):
                            raise shape_error(where, k, "a string, an array or null", v)
                        self._chunks(v, (where, k))
                        continue
                    v = opt_str(delta, k, where)
                if k == "content":
                    if v:
                        self._after_text = True
                        out.visible(v)
                elif k == "reasoning_content":
                    rc = v
                elif k == "reasoning":
                    r = v
                elif k == "refusal":
                    refusal = v
            if refusal:
                self._text(refusal)
            if not (items and self._details(items, ("choices", i, key, "reasoning_details"))):
                text = rc or r
                if text:
                    out.reasoning(_FIELD_SEGMENT, text, FIELD)
            if calls:  # Gemini's thought signatures (P15)
                for sig in call_signatures(calls, ("choices", i, key, "tool_calls")):
                    out.signature(sig)
            break
        if "usage" in ev or "x_groq" in ev:
            out.usage(usage_figures(ev))

    def _details(self, items: Sequence[Any], where: Where) -> bool:
        """OpenRouter ``reasoning_details``; whether they had text."""
        out = self.out
        had_text = False
        for j, e in enumerate(items):
            e = item_map(e, where, j)
            text, sig = _detail(e, (where, j))
            out.signature(sig)
            if text is None:
                out.redact()
            elif text:
                had_text = True
                idx = e.get("index")
                out.reasoning(SegmentKey("detail", idx if type(idx) is int else -1), text, FIELD)
        return had_text

    def _text(self, text: str) -> None:
        if text:
            self._after_text = True
            self.out.visible(text)

    def _chunks(self, items: Sequence[Any], where: Where) -> None:
        for is_thinking, text in content_parts(items, where):
            if not is_thinking:
                self._text(text)
            elif text:
                if self._after_text:
                    self._chunk_segment = SegmentKey("chunk", self._chunk_segment.index + 1)
                    self._after_text = False
                self.out.reasoning(self._chunk_segment, text, BLOCKS)

    def close(self) -> None:
        """Nothing is held per message."""


class ChatAccumulator(Accumulator):
    """``chat.completion.chunk`` events added up (the chosen choice), rules as above."""

    def __init__(self, choice: int, parts: list[tuple[Any, Any]]) -> None:
        self.choice = choice
        self.parts = parts  # the decoder's parts (see Decoder), read by build()
        self.read = 0  # how many of them were added up
        self.base: dict[str, Any] = {}  # top-level keys
        self.fields: dict[str, list[str]] = {}  # text pieces by field ("text": legacy)
        self.chunks: Optional[list[_Chunk]] = None  # list content (Mistral)
        self.seen: set[str] = set()  # text fields that came with another value
        self.tools: dict[Any, dict[str, Any]] = {}
        self.details: dict[Any, dict[str, Any]] = {}
        self.choice_keys: dict[str, Any] = {}
        self.other: dict[str, Any] = {}

    def _top(self, ev: Mapping[str, Any]) -> None:
        base = self.base
        for k, v in ev.items():
            if v is not None and k != "choices" and (k not in base or k in ("usage", "x_groq")):
                base[k] = v if type(v) in SCALARS else jsonify(v)

    def _choice_keys(self, c: Mapping[str, Any]) -> None:
        keys = self.choice_keys
        for k, v in c.items():
            if v is not None and k not in ("delta", "message", "text") and (
                k not in keys or k == "finish_reason"
            ):
                keys[k] = jsonify(v)

    def _text(self, key: str, piece: str) -> None:
        if key == "content" and self.chunks is not None:
            self._chunk({"type": "text", "text": piece})
        else:
            self.fields.setdefault(key, []).append(piece)

    def _value(self, key: str, v: Any) -> None:
        if key in _TEXT:
            if isinstance(v, str):
                self._text(key, v)
                return
            self.seen.add(key)
            if key == "content" and isinstance(v, (list, tuple)):
                if self.chunks is None:
                    self.chunks = []
                    prev = "".join(self.fields.pop("content", []))
                    if prev:
                        self._chunk({"type": "text", "text": prev})
                for ch in v:
                    m = {"type": "text", "text": ch} if isinstance(ch, str) else as_map(ch)
                    if m is not None:
                        self._chunk(m)
        elif key == "tool_calls" or key == "reasoning_details":
            tools = key == "tool_calls"
            for j, item in enumerate(as_list(v)):
                m = as_map(item)
                if m is not None:
                    idx = m.get("index")
                    if tools:
                        idx = j if idx is None else idx
                        _merge(self.tools.setdefault(idx, {}), m, _TOOL_CONCAT, False)
                    else:
                        store = self.details
                        idx = idx if isinstance(idx, int) else ("#", len(store), j)
                        _merge(store.setdefault(idx, {}), m, _DETAIL_CONCAT, True)
        elif v is not None and key not in self.other:
            self.other[key] = jsonify(v)

    def _chunk(self, ch: Mapping[str, Any]) -> None:
        chunks = self.chunks
        assert chunks is not None  # (made by _value)
        t = ch.get("type")
        if t == "thinking":
            th = ch.get("thinking")
            texts = [th] if isinstance(th, str) else [
                m["text"] for m in maps(th) if isinstance(m.get("text"), str)]
        elif t == "text":
            texts = [ch["text"]] if isinstance(ch.get("text"), str) else []
        else:
            chunks.append(_Chunk(None, jsonify(ch), []))  # kept as received
            return
        if chunks and chunks[-1].type == t:  # the same type as the last chunk: merged
            chunks[-1].pieces.extend(texts)
            for k, v in ch.items():
                if k not in ("thinking", "text") and v is not None:
                    chunks[-1].keys.setdefault(k, jsonify(v))
            return
        keys = {k: jsonify(v) for k, v in ch.items() if k not in ("thinking", "text")}
        chunks.append(_Chunk(t, keys, list(texts)))

    def build(self) -> dict[str, Any]:
        parts, self.read = self.parts[self.read:], len(self.parts)
        for key, value in parts:  # in order, as the decoder met them
            if key is TOP:
                self._top(value)
            elif key is CHOICE:
                self._choice_keys(value)
            elif key is LEGACY:
                self._text("text", value)
            else:
                self._value(key, value)
        choice: dict[str, Any] = {"index": self.choice}
        fields = self.fields
        if "text" in fields and not self.seen and not self.tools:
            choice["text"] = "".join(fields["text"])
        else:
            msg: dict[str, Any] = dict(self.other)
            msg.setdefault("role", "assistant")
            for k in ("content", "refusal", *_FIELDS):
                if k in self.seen or k in fields or (k == "content" and self.chunks is not None):
                    msg[k] = "".join(fields[k]) if k in fields else None
            if self.chunks is not None:
                msg["content"] = [ch.wire() for ch in self.chunks]
            if self.tools:
                msg["tool_calls"] = [_joined(tc) for tc in self.tools.values()]
            if self.details:
                msg["reasoning_details"] = [_joined(e) for e in self.details.values()]
            choice["message"] = msg
        choice.update(self.choice_keys)
        return {**self.base, "choices": [choice]}


def _merge(into: dict[str, Any], m: Mapping[str, Any], concat: frozenset[str],
           last_wins: bool) -> None:
    """A streamed piece of a tool call (first non-null value wins, ``function.arguments``
    concatenated) or of a reasoning detail (last non-null value wins, ``text``, ``summary`` and
    ``data`` concatenated) merged into the pieces before it."""
    for k, v in m.items():
        if k in concat and isinstance(v, str):
            cur = into.get(k)
            if type(cur) is _Pieces:
                cur.append(v)
            else:
                into[k] = _Pieces((cur, v) if isinstance(cur, str) else (v,))
        elif k == "function" and not last_wins:
            f = as_map(v)
            if f is not None:
                _merge(into.setdefault(k, {}), f, concat, False)
        elif last_wins:
            if v is not None or k not in into:
                into[k] = jsonify(v)
        elif k != "index" and v is not None and into.get(k) is None:
            into[k] = jsonify(v)


_TOOL_CONCAT = frozenset({"arguments"})
_DETAIL_CONCAT = frozenset({"text", "summary", "data"})


class _Pieces(list[str]):
    """Streamed pieces of one string value, joined by :func:`_joined`."""


def _joined(d: dict[str, Any]) -> dict[str, Any]:
    return {k: "".join(v) if type(v) is _Pieces else _joined(v) if type(v) is dict else v
            for k, v in d.items()}


class _Chunk(NamedTuple):
    """A Mistral content chunk being added up: its type (``None``: kept as received), its
    other keys and its text pieces."""

    type: Optional[str]
    keys: dict[str, Any]
    pieces: list[str]

    def wire(self) -> dict[str, Any]:
        text = "".join(self.pieces)
        if self.type == "thinking":
            return {**self.keys, "thinking": [{"type": "text", "text": text}]}
        return {**self.keys, "text": text} if self.type == "text" else self.keys


