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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from .._types import Delta
from ._access import (
    Where,
    item_map,
    missing,
    opt_list,
    opt_map,
    opt_str,
    readable,
    req_array,
    shape_error,
    signature_text,
)
from ._accumulate_chat import Chat
from ._assemble import BLOCKS, FIELD, Parts
from ._chat_fields import (
    content_parts,
    details,
    first_readable,
    pick,
    thinking_text,
    usage_figures,
)
from ._collector import Collector

PROVIDER = "openai_chat"

#: Keep-alive and error events of other stream formats (they carry nothing to extract).
NEUTRAL_EVENTS = frozenset({"ping", "error"})

def _message(
    msg: Mapping[str, Any], where: Where
) -> tuple[str, Optional[list[str]], str, bool, Optional[list[str]]]:
    """A whole message: ``(visible, reasoning segments, format, redacted, signatures)``, with
    P4's precedence over its reasoning fields (each segment its own, P2)."""
    content = msg.get("content")
    thinking: Optional[list[str]] = None
    if type(content) is str:
        visible = content
    elif content is None:
        visible = ""
    elif isinstance(content, (list, tuple)):
        visible, thinking = content_parts(content, (where, "content"))
    elif isinstance(content, str):
        visible = str(content)
    else:
        raise shape_error(where, "content", "a string, an array or null", content)
    refusal = msg.get("refusal")
    if refusal is not None:
        refusal = opt_str(msg, "refusal", where)
        if refusal:
            visible += refusal
    segments: Optional[list[str]] = None
    signatures: Optional[list[str]] = None
    redacted = False
    rd = msg.get("reasoning_details")
    if rd is not None:
        items = opt_list(msg, "reasoning_details", where)
        if items:
            segs, sigs, redacted = details(items, (where, "reasoning_details"))
            if any(readable(s) for s in segs):
                segments = list(segs)
            if sigs:
                signatures = [s for s in sigs if s]
    if segments is None:
        text = first_readable(msg, where)
        if text is not None:
            segments = [text]
    fmt = FIELD
    if thinking:
        if segments is None:
            fmt = BLOCKS
            segments = list(thinking)
        else:
            segments.extend(thinking)
    return visible, segments, fmt, redacted, signatures


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: the chosen choice's ``message`` (or legacy ``text``), handed to
    the collector in one call."""
    choices = req_array(d, "choices")
    visible = ""
    segs: Optional[list[str]] = None
    fmt = FIELD
    redacted = False
    sigs: Optional[list[str]] = None
    reason = None
    if choices:
        c = choices[0]  # the usual case, without a call: the first choice, index 0 or absent
        if choice == 0 and type(c) is dict and not c.get("index"):
            i = 0
        else:
            i, c = pick(choices, choice)
        msg = c.get("message")
        key = "message"
        if msg is None and "delta" in c:
            msg = c.get("delta")
            key = "delta"
        if msg is not None:
            if type(msg) is not dict:
                msg = opt_map(c, key, ("choices", i))
            if msg is not None:
                visible, segs, fmt, redacted, sigs = _message(msg, ("choices", i, key))
        else:
            text = opt_str(c, "text", ("choices", i))
            if text is None and "text" not in c:
                raise missing(("choices", i), "message", "an object")
            if text:
                visible = text
        reason = c.get("finish_reason")
    figures = usage_figures(d) if "usage" in d or "x_groq" in d else None
    return (visible, segs, fmt, redacted, sigs, figures, reason)


class Decoder:
    """Decodes a Chat Completions (or legacy Completions) stream, chunk by chunk."""

    __slots__ = ("_after_text", "_choice", "_mseg", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        #: The stream's accumulator (X1/X2), fed by this decoder so that the usual chunk is
        #: read once.
        self.acc: Any = Chat(choice)
        self._choice = choice
        self._mseg = 0  # Mistral thinking segment number
        self._after_text = False

    def event(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """One ``chat.completion.chunk`` (or legacy ``text_completion``) event; then the
        accumulator's (the usual chunk's piece handed to it directly: the chunk is read once).

        Returns:
            The event's :class:`~thinkparse.Delta` when the usual chunk's short path built it,
            else ``None`` (the caller takes it from the collector).
        """
        acc = self.acc
        choices = ev.get("choices")
        # The usual chunk, read once: one choice holding only index and a one-field text delta
        # (the accumulator's own short path); top-level keys are read when their number changes.
        if type(choices) is list and len(choices) == 1:
            c = choices[0]
            if (
                type(c) is dict
                and (((n := len(c)) == 2 and "index" in c) or n == 1)
                and c.get("index", 0) == self._choice
            ):
                delta = c.get("delta")
                if type(delta) is dict and len(delta) == 1:
                    # the one field, looked up by name (cheaper than unpacking its items)
                    k = "content"
                    v = delta.get(k)
                    if v is None:
                        k = "reasoning_content"
                        v = delta.get(k)
                        if v is None:
                            k = "reasoning"
                            v = delta.get(k)
                    if type(v) is str and (k != "content" or acc.chunks is None) and (
                        "usage" not in ev and "x_groq" not in ev
                    ):
                        if len(ev) != acc.nkeys:
                            acc.top(ev)
                        d = None
                        if v:  # the delta straight from the collector (no take() call)
                            if k != "content":
                                d = self.out.reasoning_delta("f", v, FIELD)
                            else:
                                self._after_text = True
                                d = self.out.visible_delta(v)
                        pieces = acc.fields.get(k)  # as the accumulator's event() would
                        if pieces is None:
                            acc.fields[k] = [v]
                        else:
                            pieces.append(v)
                        return d
        self._event(ev)
        acc.event(ev)
        return None

    def _event(self, ev: Mapping[str, Any]) -> None:
        choices = ev.get("choices")
        if type(choices) is list and choices:
            c = choices[0]
            if type(c) is dict and c.get("index", 0) == self._choice:
                delta = c.get("delta")
                if type(delta) is dict:  # the usual chunk
                    self._delta(delta, 0, "delta")
                    reason = c.get("finish_reason")
                    if reason is not None:
                        self.out.finish(reason)
                    if "usage" in ev or "x_groq" in ev:
                        p, c_, t, r = usage_figures(ev)
                        self.out.usage(p, c_, t, r)
                    return
        if choices is not None:
            if not isinstance(choices, (list, tuple)):
                raise shape_error("", "choices", "an array", choices)
            for i, c in enumerate(choices):
                if type(c) is not dict:
                    c = item_map(c, "choices", i)
                idx = c.get("index")
                if (i if idx is None else idx) != self._choice:
                    continue
                self._chunk_choice(c, i)
                break
        elif "usage" not in ev and "x_groq" not in ev:
            t = ev.get("type")
            if isinstance(t, str) and t in NEUTRAL_EVENTS:
                return
            raise missing("", "choices", "an array")
        if "usage" in ev or "x_groq" in ev:
            p, c_, t, r = usage_figures(ev)
            self.out.usage(p, c_, t, r)

    def _chunk_choice(self, c: Mapping[str, Any], i: int) -> None:
        reason = c.get("finish_reason")
        if reason is not None:
            self.out.finish(reason)
        delta = c.get("delta")
        key = "delta"
        if delta is None:
            delta = c.get("message")
            key = "message"
        if delta is None:
            text = c.get("text")
            if text is not None:
                text = opt_str(c, "text", ("choices", i))
                if text:
                    self._text(text)
            return
        if type(delta) is not dict:
            delta = opt_map(c, key, ("choices", i))
            if delta is None:
                return
        self._delta(delta, i, key)

    def _delta(self, delta: Mapping[str, Any], i: int, key: str) -> None:
        out = self.out
        if len(delta) == 1:  # the usual chunk: one text field
            ((k, v),) = delta.items()
            if type(v) is str:
                if k == "content":
                    if v:
                        self._after_text = True
                        out.visible(v)
                    return
                if k == "reasoning_content" or k == "reasoning":
                    if v:
                        out.reasoning("f", v, FIELD)
                    return
        content = delta.get("content")
        if type(content) is str:
            if content:
                self._text(content)
        elif content is not None:
            if isinstance(content, (list, tuple)):
                self._parts(content, ("choices", i, key, "content"))
            else:
                raise shape_error(("choices", i, key), "content", "a string, an array or null",
                                  content)
        refusal = delta.get("refusal")
        if refusal is not None:
            refusal = opt_str(delta, "refusal", ("choices", i, key))
            if refusal:
                self._text(refusal)
        had_text = False
        rd = delta.get("reasoning_details")
        if rd is not None:
            where = ("choices", i, key, "reasoning_details")
            items = opt_list(delta, "reasoning_details", ("choices", i, key))
            for j, e in enumerate(items or ()):
                e = item_map(e, where, j)
                t = e.get("type")
                if t == "reasoning.text":
                    text = opt_str(e, "text", (where, j))
                    out.signature(signature_text(e.get("signature"), (where, j),
                                                 "signature"))
                elif t == "reasoning.summary":
                    text = opt_str(e, "summary", (where, j))
                elif t == "reasoning.encrypted":
                    if e.get("data"):
                        out.redact()
                    continue
                else:
                    continue
                if text:
                    had_text = True
                    idx = e.get("index")
                    out.reasoning(("d", idx if type(idx) is int else -1), text, FIELD)
        if not had_text:
            text = delta.get("reasoning_content")
            if text is not None and type(text) is not str:
                text = opt_str(delta, "reasoning_content", ("choices", i, key))
            if not text:
                text = delta.get("reasoning")
                if text is not None and type(text) is not str:
                    text = opt_str(delta, "reasoning", ("choices", i, key))
            if text:
                out.reasoning("f", text, FIELD)

    def _text(self, text: str) -> None:
        self._after_text = True
        self.out.visible(text)

    def _parts(self, items: Sequence[Any], where: Where) -> None:
        for i, part in enumerate(items):
            if isinstance(part, str):
                if part:
                    self._text(part)
                continue
            part = item_map(part, where, i)
            t = part.get("type")
            if t == "thinking":
                text = thinking_text(part.get("thinking"), (where, i))
                if text:
                    if self._after_text:
                        self._mseg += 1
                        self._after_text = False
                    self.out.reasoning(("m", self._mseg), text, BLOCKS)
            elif t == "text" or t == "output_text" or (t is None and "text" in part):
                piece = opt_str(part, "text", (where, i))
                if piece:
                    self._text(piece)
            elif t == "refusal":
                piece = opt_str(part, "refusal", (where, i))
                if piece:
                    self._text(piece)

    def close(self) -> None:
        """Nothing is held per message."""
