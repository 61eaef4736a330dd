"""OpenAI Chat Completions, legacy Completions and OpenAI-compatible servers (``openai_chat``).

Wire facts and their sources:

* ``choices[0].message.{content, refusal, tool_calls}``; streamed ``choices[].delta`` with the
  same fields; with ``stream_options.include_usage`` the last chunk carries ``usage`` and
  ``choices: []`` (openai-python ``types/chat/chat_completion_message.py``,
  ``chat_completion_chunk.py``).  Legacy Completions: ``choices[].text``
  (``types/completion_choice.py``).
* ``usage.{prompt_tokens, completion_tokens, total_tokens}`` and
  ``usage.completion_tokens_details.reasoning_tokens`` (``types/completion_usage.py``).
* ``message.reasoning_content``: DeepSeek reasoning models, xAI grok-3-mini, SGLang, llama.cpp,
  Fireworks, Z.ai, vLLM before 0.11.  ``message.reasoning``: vLLM 0.11+, Groq
  (``reasoning_format="parsed"``), Cerebras, Together, Ollama's ``/v1`` endpoint, OpenRouter.
* OpenRouter ``reasoning_details[]``: ``{type: "reasoning.text", text, signature}``,
  ``{type: "reasoning.summary", summary}``, ``{type: "reasoning.encrypted", data}``, each with
  ``id``, ``format`` and ``index`` (OpenRouter "Reasoning Tokens" guide); streamed in
  ``delta.reasoning_details`` alongside ``delta.reasoning`` carrying the same text.
* Mistral (Magistral): ``content`` may be a list of ``{type: "thinking", thinking: [{type:
  "text", text}]}`` and ``{type: "text", text}`` chunks, in responses and in stream deltas
  (Mistral API ``ThinkChunk`` / ``TextChunk``).
* Groq streams put the final usage in ``x_groq.usage`` (``usage`` may be null there).
* xAI reports ``completion_tokens`` without the reasoning tokens: its ``total_tokens`` is
  ``prompt + completion + reasoning`` (Vertex AI "Reasoning for Grok models" example: 663 + 50 +
  124 = 837), whereas OpenAI's ``completion_tokens`` include them (total = prompt + completion).

Decisions where docs/behaviour.md is silent:

* ``choice=k`` (W4) reads the choice whose ``index`` is ``k`` (a choice without ``index`` counts
  by its position); in a stream, chunks of other choices are skipped.  A response whose
  ``choices`` is non-empty but has no such choice raises ``ResponseShapeError`` at
  ``choices[k]``.
* A choice with ``delta`` instead of ``message`` (a stream chunk given to ``normalize``) is read
  like a message; legacy ``choices[0].text`` is the content (inline markup, P3, applies).
* ``reasoning_details``, ``reasoning_content`` and ``reasoning`` are treated as aliases of one
  reasoning (P4: the same text is taken once): ``reasoning_details`` when it has readable text
  (it knows the segment boundaries, P2), else the first readable of ``reasoning_content`` and
  ``reasoning``.  Details with the same ``index`` form one segment; one without an ``index`` is
  a segment of its own.  ``reasoning.encrypted`` with non-empty ``data`` is redacted (P6).
* ``refusal`` text (and ``{type: "refusal"}`` content parts) is the visible answer: it is what
  the model said instead of answering.  Other non-text parts (images, references) are ignored.
* In a content list each ``thinking`` chunk is a segment (P2); in a stream, thinking chunks
  continue one segment until a text chunk arrives.
* xAI's accounting is recognised by its arithmetic (``total == prompt + completion +
  reasoning`` with reasoning > 0), never by model name, and ``reasoning_tokens`` is then added to
  ``output_tokens`` (P12).  A ``reasoning_tokens`` key directly in ``usage`` is read when
  ``completion_tokens_details`` has none.
* Blocks (X1): a ``reasoning_content`` / ``reasoning`` key whose value is a string (``""``
  included) makes a block; a null value does not.  When ``reasoning_details`` has no readable
  entry but a field is readable, the field's block follows the detail blocks.
* Messages (X2): ``refusal``, ``tool_calls``, ``function_call`` and ``reasoning_details`` are
  copied when present and not null; ``content`` always (null stays null).
  ``reasoning_field="name"`` writes the first readable reasoning field, else ``""``.
* The stream's turn: text fields concatenated (a key seen in any delta is kept); Mistral chunks
  of the same type merge; ``tool_calls`` merged by ``index`` (``function.arguments``
  concatenated, first non-null wins for the other keys; the stream-only ``index`` key is left
  out); ``reasoning_details`` merged by ``index`` (``text``, ``summary`` and ``data``
  concatenated, last non-null wins for the other keys); other message keys: the first non-null
  value.  The first chunk's top-level keys are read on first use, later chunks' when their
  number of keys changes or they carry ``usage`` (first value wins; usage: the last).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Optional

from .._errors import ResponseShapeError
from .._types import ReasoningBlock
from ._access import (
    COUNT_TYPES,
    SCALARS,
    Figures,
    Where,
    as_list,
    as_map,
    chosen,
    count_figures,
    item_map,
    join_path,
    jsonify,
    kept_choice,
    maps,
    missing,
    opt_int,
    opt_list,
    opt_map,
    opt_str,
    readable,
    req_array,
    shape_error,
    signature_text,
    text_of,
    top_model,
)
from ._assemble import BLOCKS, FIELD, Parts
from ._collector import Collector, SegmentKey
from ._family import KEEP_ALIVE, Accumulator, Family, Message, MessageOptions, block

PROVIDER = "openai_chat"
_FIELDS = ("reasoning_content", "reasoning")
_TEXT = frozenset({"content", "refusal", *_FIELDS})
_FIELD_SEGMENT = SegmentKey("field", 0)
_FIRST_CHUNK = SegmentKey("chunk", 0)
#: The decoder's parts that are not delta fields: a chunk, a choice, a legacy text piece.
TOP, CHOICE, LEGACY = object(), object(), object()
_NO_FIGURES = Figures((None, None, None, None))


# --- usage (P5, P12) ---------------------------------------------------------------------------
def _figures(u: Mapping[str, Any], where: Where) -> Figures:
    p, c, t = u.get("prompt_tokens"), u.get("completion_tokens"), u.get("total_tokens")
    det = u.get("completion_tokens_details")
    r = det.get("reasoning_tokens") if type(det) is dict else None
    ok = COUNT_TYPES
    if not (type(p) in ok and type(c) in ok and type(t) in ok and type(r) in ok
            and (det is None or type(det) is dict)):
        p, c, t, r = count_figures(u, where, ("prompt_tokens", "completion_tokens",
                                              "total_tokens"),
                                   ("completion_tokens_details", "reasoning_tokens"))
    if r is None and "reasoning_tokens" in u:
        r = opt_int(u, "reasoning_tokens", where)
    if r and p is not None and c is not None and t == p + c + r:
        c += r  # xAI: completion_tokens exclude the reasoning tokens
    return Figures((p, c, t, r))


def usage_figures(d: Mapping[str, Any]) -> Figures:
    """Usage figures of a response or chunk: ``usage``, completed from Groq's ``x_groq.usage``."""
    figs = _NO_FIGURES
    u = d.get("usage")
    if u is not None:
        u = u if type(u) is dict else opt_map(d, "usage", "")
        if u is not None:
            figs = _figures(u, "usage")
    xg = d.get("x_groq")
    if xg is not None and None in figs:
        xg = xg if type(xg) is dict else opt_map(d, "x_groq", "")
        xu = opt_map(xg, "usage", "x_groq") if xg is not None else None
        if xu is not None:
            g = _figures(xu, "x_groq.usage")
            figs = Figures(f if f is not None else h for f, h in zip(figs, g))
    return figs


# --- message fields (also read by thinkparse.data for chat traces) -----------------------------
def thinking_text(v: Any, where: Where) -> str:
    """The text of a Mistral ``thinking`` value: a string or a list of text chunks."""
    if isinstance(v, str) or v is None:
        return v or ""
    if not isinstance(v, (list, tuple)):
        raise shape_error(where, "thinking", "an array or a string", v)
    texts = []
    for j, ch in enumerate(v):
        if not isinstance(ch, str):
            ch = item_map(ch, (where, "thinking"), j)
            is_text = ch.get("type") in (None, "text")
            ch = opt_str(ch, "text", (where, "thinking", j)) if is_text else ""
        texts.append(ch or "")
    return "".join(texts)


def _part_text(part: Mapping[str, Any], where: Where, i: int) -> str:
    """The answer text of a content chunk that is not a thinking chunk."""
    t = part.get("type")
    if t == "text" or t == "output_text" or (t is None and "text" in part):
        return opt_str(part, "text", (where, i)) or ""
    return (opt_str(part, "refusal", (where, i)) or "") if t == "refusal" else ""


class Details(NamedTuple):
    """What OpenRouter ``reasoning_details`` hold (P2, P6)."""

    segments: list[str]
    signatures: list[str]
    redacted: bool


def details(items: Sequence[Any], where: Where) -> Details:
    """OpenRouter ``reasoning_details``: segments by ``index``, signatures, redaction."""
    groups: dict[Any, list[str]] = {}
    sigs: list[str] = []
    redacted = False
    for i, e in enumerate(items):
        m = item_map(e, where, i)
        text = _detail(m, (where, i), sigs)
        if text is None:
            redacted = True
        elif text:
            key = m["index"] if type(m.get("index")) is int else ("#", i)
            groups.setdefault(key, []).append(text)
    return Details(["".join(g) for g in groups.values()], sigs, redacted)


def _detail(e: Mapping[str, Any], where: Where, sigs: list[str]) -> Optional[str]:
    """One detail's text (``""``: none); ``None`` for an encrypted one with data (P6)."""
    t = e.get("type")
    if t == "reasoning.text":
        sig = signature_text(e.get("signature"), where, "signature")
        if sig:
            sigs.append(sig)
        return opt_str(e, "text", where) or ""
    if t == "reasoning.summary":
        return opt_str(e, "summary", where) or ""
    return None if t == "reasoning.encrypted" and e.get("data") else ""


# --- whole responses ---------------------------------------------------------------------------
def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: the chosen choice's ``message`` (or legacy ``text``), P4's order."""
    choices = req_array(d, "choices")
    figures = usage_figures(d) if "usage" in d or "x_groq" in d else None
    if not choices:
        return Parts(("", None, FIELD, False, None, figures, None))
    i, c = choice, (choices[choice] if choice < len(choices) else None)
    if type(c) is not dict or c.get("index", choice) != choice:  # (else chosen()'s first case)
        found = chosen(choices, choice, "choices")
        if found is None:
            if choice:
                raise ResponseShapeError(join_path("choices", choice),
                                         f"missing (choice={choice}; {len(choices)} choices)")
            found = (0, item_map(choices[0], "choices", 0))
        i, c = found
    key = "message" if c.get("message") is not None or "delta" not in c else "delta"
    msg = c.get(key)
    if msg is not None and type(msg) is not dict:
        msg = opt_map(c, key, ("choices", i))
    if msg is None:
        text = opt_str(c, "text", ("choices", i))
        if text is None and "text" not in c:
            raise missing(("choices", i), "message", "an object")
        return Parts((text or "", None, FIELD, False, None, figures, c.get("finish_reason")))
    where = ("choices", i, key)
    content = msg.get("content")
    thinking: list[str] = []
    if isinstance(content, (list, tuple)):
        texts = []
        for j, part in enumerate(content):
            if not isinstance(part, str):
                part = item_map(part, (where, "content"), j)
                if part.get("type") == "thinking":
                    thinking.append(thinking_text(part.get("thinking"), (where, "content", j)))
                    continue
                part = _part_text(part, (where, "content"), j)
            texts.append(part)
        content = "".join(texts)
    elif content is not None and not isinstance(content, str):
        raise shape_error(where, "content", "a string, an array or null", content)
    refusal = msg.get("refusal")
    if refusal is not None:
        visible = (content or "") + (opt_str(msg, "refusal", where) or "")
    else:
        visible = content or ""
    segments: Optional[list[str]] = None
    sigs: Optional[list[str]] = None
    redacted = False
    items = opt_list(msg, "reasoning_details", where) if "reasoning_details" in msg else None
    if items:
        found_details = details(items, (where, "reasoning_details"))
        redacted, sigs = found_details.redacted, found_details.signatures or None
        if any(readable(s) for s in found_details.segments):
            segments = found_details.segments
    if segments is None:
        for k in _FIELDS:
            text = msg.get(k)
            if text is not None:
                if type(text) is not str:
                    text = opt_str(msg, k, where)
                if text and not text.isspace():
                    segments = [text]
                    break
    if not thinking:
        return Parts((visible, segments, FIELD, redacted, sigs, figures, c.get("finish_reason")))
    fmt = FIELD if segments is not None else BLOCKS
    segments = thinking if segments is None else segments + thinking
    return Parts((visible, segments, fmt, redacted, sigs, figures, c.get("finish_reason")))


# --- streams -----------------------------------------------------------------------------------
class Decoder:
    """Decodes a Chat Completions (or legacy Completions) stream, chunk by chunk."""

    __slots__ = ("_after_text", "_choice", "_chunk_segment", "_nkeys", "_parts", "acc", "out")

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

    def event(self, ev: Mapping[str, Any]) -> None:
        """One ``chat.completion.chunk`` (or legacy ``text_completion``) event.

        One pass over the chosen choice's ``delta`` hands every field to the accumulator; the
        answer's content goes out as it comes, the refusal and the reasoning after it, in P4's
        order (what a field releases counts even when a later field is malformed).
        """
        parts = self._parts
        out = self.out
        if len(ev) != self._nkeys or "usage" in ev:
            self._nkeys = len(ev)
            parts.append((TOP, ev))  # (chunks of one shape repeat their top-level keys)
        choices = ev.get("choices")
        if type(choices) is not list:
            if choices is None:
                if "usage" not in ev and "x_groq" not in ev:
                    t = ev.get("type")
                    if not isinstance(t, str) or t not in KEEP_ALIVE:
                        raise missing("", "choices", "an array")
                    if t == "error":
                        out.error_event(ev)
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
            refusal = rc = r = items = None
            for k, v in delta.items():
                parts.append((k, v))
                if type(v) is str and k in _TEXT:
                    if k == "content":
                        if v:
                            self._after_text = True
                            out.visible(v)
                    elif k == "reasoning_content":
                        rc = v
                    elif k == "reasoning":
                        r = v
                    else:
                        refusal = v
                    continue
                if v is None or not (k in _TEXT or k == "reasoning_details"):
                    continue
                where = ("choices", i, key)
                if k == "content":
                    if isinstance(v, str):
                        self._text(v)
                    elif isinstance(v, (list, tuple)):
                        self._chunks(v, (where, "content"))
                    else:
                        raise shape_error(where, "content", "a string, an array or null", v)
                elif k == "reasoning_details":
                    items = opt_list(delta, k, where)
                else:
                    text = opt_str(delta, k, where)
                    if k == "refusal":
                        refusal = text
                    elif k == "reasoning":
                        r = text
                    else:
                        rc = text
            if refusal:
                self._text(refusal)
            if not (items and self._details(items, ("choices", i, key, "reasoning_details"))):
                text = rc or r
                if text:
                    out.reasoning(_FIELD_SEGMENT, text, FIELD)
            break
        if "usage" in ev or "x_groq" in ev:
            out.usage(usage_figures(ev))

    def _details(self, items: Sequence[Any], where: Where) -> bool:
        """OpenRouter ``reasoning_details``; whether they had text."""
        out = self.out
        had_text = False
        for j, e in enumerate(items):
            e = item_map(e, where, j)
            sigs: list[str] = []
            text = _detail(e, (where, j), sigs)
            out.signature(sigs[0] if sigs else None)
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
        for i, part in enumerate(items):
            if isinstance(part, str):
                self._text(part)
                continue
            part = item_map(part, where, i)
            if part.get("type") != "thinking":
                self._text(_part_text(part, where, i))
                continue
            text = thinking_text(part.get("thinking"), (where, i))
            if text:
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
        elif key in self.fields:
            self.fields[key].append(piece)
        else:
            self.fields[key] = [piece]

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
        if chunks is None:  # pragma: no cover - made by value()
            return
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
            elif type(value) is str and key in _TEXT:
                self._text(key, value)
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


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _kept_message(r: Mapping[str, Any], choice: int) -> Optional[Mapping[str, Any]]:
    c = kept_choice(as_list(r.get("choices")), choice)
    return (as_map(c.get("message")) or as_map(c.get("delta"))) if c is not None else None


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per ``reasoning_details`` entry, else one for the reasoning fields; one per
    Mistral thinking chunk."""
    msg = _kept_message(r, choice)
    if msg is None:
        return []
    out = []
    for m in maps(msg.get("reasoning_details")):
        t = m.get("type")
        if t not in ("reasoning.text", "reasoning.summary", "reasoning.encrypted"):
            continue
        if t == "reasoning.encrypted":
            out.append(block(PROVIDER, "opaque", "", m, data=text_of(m.get("data")),
                             id=m.get("id")))
        elif t == "reasoning.summary":
            out.append(block(PROVIDER, "summary", text_of(m.get("summary")) or "", m,
                             id=m.get("id")))
        else:
            out.append(block(PROVIDER, "text", text_of(m.get("text")) or "", m,
                             signature=text_of(m.get("signature")), id=m.get("id")))
    if not any(b.kind != "opaque" for b in out):
        wire = {k: msg[k] for k in _FIELDS if isinstance(msg.get(k), str)}
        if wire and (not out or any(readable(v) for v in wire.values())):
            text = next((v for v in wire.values() if readable(v)), "")
            out.append(block(PROVIDER, "text", text, wire))
    content = msg.get("content")
    for m in maps(content):
        if m.get("type") == "thinking":
            th = m.get("thinking")
            text = th if isinstance(th, str) else "".join(
                x["text"] for x in map(as_map, as_list(th))
                if x is not None and isinstance(x.get("text"), str))
            out.append(block(PROVIDER, "text", text, m))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content", ...}`` with the reasoning fields as received."""
    msg = _kept_message(r, choice)
    if msg is None:
        if as_list(r.get("choices")) and "message" not in r:
            raise ValueError("to_message(): a legacy Completions response (choices[].text) has "
                             "no message form")
        raise ValueError(f"to_message(): the response has no choice {choice}")
    out: dict[str, Any] = {"role": "assistant", "content": jsonify(msg.get("content"))}
    for k in ("refusal", "tool_calls", "function_call", "reasoning_details"):
        if msg.get(k) is not None:
            out[k] = jsonify(msg[k])
    field = options.reasoning_field
    if field is None:
        tool_turn = bool(msg.get("tool_calls")) or msg.get("function_call") is not None
        for k in _FIELDS:
            if k in msg:
                v = msg[k]
                out[k] = "" if v is None and tool_turn else jsonify(v)
    elif field is not False:
        out[str(field)] = next(
            (v for v in map(msg.get, _FIELDS) if isinstance(v, str) and readable(v)), ""
        )
    return out


FAMILY = Family(
    name=PROVIDER,
    keys=("choices",),
    is_response=None,
    is_event=lambda e: "choices" in e
    or e.get("object") == "chat.completion.chunk"
    or e.get("object") == "text_completion",
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=top_model,
    choices=True,
)
