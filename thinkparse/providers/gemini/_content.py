"""Gemini ``generateContent`` (family ``gemini``, :mod:`thinkparse.providers.gemini` holds the
record): REST camelCase and google-genai snake_case.

Wire facts (Gemini API reference ``GenerateContentResponse``; google-genai ``google/genai/
types.py``: ``Part``, ``Candidate``, ``GenerateContentResponseUsageMetadata``):

* ``candidates[0].content.parts[]``: ``{text, thought: true}`` is a thought summary, other
  ``text`` parts are the answer; ``functionCall``, ``executableCode``, ``inlineData``... carry no
  text.  ``thoughtSignature`` (``thought_signature``; bytes in google-genai objects, base64 on
  the wire) may sit on any part.
* ``usageMetadata`` (``usage_metadata``): ``promptTokenCount``, ``candidatesTokenCount`` (answer
  only), ``thoughtsTokenCount``, ``totalTokenCount``.  google-genai models dumped with
  ``by_alias=True`` give the camelCase wire names; plain ``model_dump()`` gives snake_case; both
  are read.
* A stream is a sequence of whole responses, each holding the new parts; usage figures in
  streams are cumulative.

Decisions where docs/behaviour.md is silent:

* Consecutive thought parts form one segment (Gemini streams a thought summary across parts and
  chunks); a thought after a non-thought part starts a new segment (P2).
* A part with ``thought: true`` but no text contributes nothing (its signature is still kept).
* A response without candidates (``promptFeedback.blockReason``) or whose candidate has no
  content (``finishReason: "SAFETY"``) has empty visible text.
* ``output_tokens`` = ``candidatesTokenCount + thoughtsTokenCount`` (a missing addend counts as
  0; both missing gives ``None``) (P12).  Every stream chunk reports the running figures: the
  decoder keeps each figure's last reported value and hands them over when the stream ends.
* Blocks (X1): one per thought part (kind ``summary``) and one per other part that carries a
  signature (opaque); the signature stays on its part in ``wire``.
* The stream's turn: consecutive text parts with the same ``thought`` value merge; a part
  carrying a signature ends the run, and a signature on an empty-text part goes onto the run it
  ends; other parts (``functionCall``...) never merge.  Top-level keys: the first value wins;
  usage: the last, kept as received and copied on first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ..._types import ReasoningBlock
from .._access import (
    SCALARS,
    Figures,
    as_list,
    as_map,
    b64_bytes,
    chosen,
    item_map,
    jsonify,
    kept_choice,
    maps,
    opt_int,
    opt_list,
    opt_str,
    req_map,
    signature_text,
    text_of,
)
from .._assemble import BLOCKS, Parts
from .._collector import Collector, SegmentKey
from .._family import Accumulator, Message, MessageOptions, block

PROVIDER = "gemini"

#: The count keys of a usage object, in each spelling.
_CAMEL = ("promptTokenCount", "candidatesTokenCount", "totalTokenCount", "thoughtsTokenCount")
_SNAKE = ("prompt_token_count", "candidates_token_count", "total_token_count",
          "thoughts_token_count")
_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature", "thought_signature"})


def usage_figures(d: Mapping[str, Any]) -> Optional[Figures]:
    """The response's usage figures, or ``None`` when it has no usage."""
    key = "usageMetadata"
    u = d.get(key)
    if u is None:
        key = "usage_metadata"
        u = d.get(key)
        if u is None:
            return None
    if type(u) is not dict:
        u = req_map(d, key)
    names = _CAMEL if key == "usageMetadata" else _SNAKE
    get = u.get
    p, c, t, r = get(names[0]), get(names[1]), get(names[2]), get(names[3])
    if not ((type(p) is int or p is None) and (type(c) is int or c is None)
            and (type(t) is int or t is None) and (type(r) is int or r is None)):
        p, c, t, r = (opt_int(u, n, key) for n in names)
    return Figures((p, None if c is None and r is None else (c or 0) + (r or 0), t, r))


def _content(
    d: Mapping[str, Any], choice: int
) -> tuple[Optional[Mapping[str, Any]], Optional[Mapping[str, Any]], Sequence[Any]]:
    """``candidates[choice]``, its ``content`` and the content's ``parts`` (``None``, ``None``
    and ``()`` where a level is missing)."""
    cands = d.get("candidates")
    if type(cands) is not list:
        cands = opt_list(d, "candidates", "")
    if not cands:
        return None, None, ()
    c = cands[choice] if choice < len(cands) else None
    if type(c) is not dict or c.get("index", choice) != choice:  # (else chosen()'s first case)
        found = chosen(cands, choice, "candidates")
        if found is None:
            return None, None, ()
        c = found[1]
    content = c.get("content")
    if content is None:
        return c, None, ()
    if type(content) is not dict:
        content = req_map(c, "content", ("candidates", choice))
    parts = content.get("parts")
    if type(parts) is not list:
        parts = opt_list(content, "parts", ("candidates", choice, "content")) or ()
    return c, content, parts


def _signature(p: Mapping[str, Any], where: Any) -> Optional[str]:
    sig = p.get("thoughtSignature") or p.get("thought_signature")
    if sig and type(sig) is not str:
        sig = signature_text(sig, where, "thoughtSignature")
    return sig or None


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response (also what each stream chunk is)."""
    visible: list[str] = []
    runs: list[list[str]] = []
    sigs: list[str] = []
    in_thought = False
    c, _, parts = _content(d, choice)
    where = ("candidates", choice, "content", "parts")
    for i, p in enumerate(parts):
        if type(p) is not dict:
            p = item_map(p, where, i)
        text = p.get("text")
        if text is not None and type(text) is not str:
            text = opt_str(p, "text", (where, i))
        if "thoughtSignature" in p or "thought_signature" in p:
            sig = _signature(p, (where, i))
            if sig:
                sigs.append(sig)
        if p.get("thought") is True:
            if text:
                if not in_thought:
                    runs.append([])
                    in_thought = True
                runs[-1].append(text)  # consecutive thought parts: one segment (P2)
        else:
            in_thought = False
            if text:
                visible.append(text)
    reason = c.get("finishReason") or c.get("finish_reason") if c is not None else None
    return Parts(("".join(visible), ["".join(r) for r in runs], BLOCKS, False, sigs,
                 usage_figures(d), reason))


class Decoder:
    """Decodes a stream of ``GenerateContentResponse`` chunks (each read like a response)."""

    __slots__ = ("_choice", "_run", "_run_thought", "_runs", "_segment", "_usage", "acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = GeminiAccumulator(choice)
        self._choice = choice
        self._segment: Optional[SegmentKey] = None  # the open run of thought parts (P2)
        self._runs = 0
        # The accumulator's open run of text parts (the list its pieces go to) and whether
        # it is a thought: a text part that continues it is appended there (X2).
        self._run: Optional[list[str]] = None
        self._run_thought = False
        self._usage: Optional[list[Optional[int]]] = None

    def event(self, ev: Mapping[str, Any]) -> None:
        """One chunk (a whole response holding the new parts)."""
        out = self.out
        acc = self.acc
        if ev.get("error") is not None:  # an error payload in the stream (P16)
            out.error_event(ev, "error")
        c, parts = acc.chunk(ev)
        j = -1
        for p in parts:
            j += 1
            if type(p) is not dict:
                p = item_map(p, ("candidates", self._choice, "content", "parts"), j)
            text = p.get("text")
            if text is not None and type(text) is not str:
                text = opt_str(p, "text", (("candidates", self._choice, "content", "parts"), j))
            th = p.get("thought")
            plain = text is not None and len(p) == (1 if th is None else 2)  # the usual part
            sig = None
            if not plain and ("thoughtSignature" in p or "thought_signature" in p):
                sig = _signature(p, (("candidates", self._choice, "content", "parts"), j))
                out.signature(sig)
            if th is True:
                if text:
                    segment = self._segment
                    if segment is None:
                        self._runs += 1
                        segment = self._segment = SegmentKey("run", self._runs)
                    out.reasoning(segment, text, BLOCKS)
            else:
                self._segment = None
                if text:
                    out.visible(text)
            run = self._run
            if (run is not None and text is not None and bool(th) is self._run_thought
                    and (plain or (sig is None and _TEXT_KEYS.issuperset(p)))):
                run.append(text)  # a text part of the same kind as the last: merged
            else:
                self._run = acc.part(p, text, sig)
                self._run_thought = bool(th)
        if c is not None:
            reason = c.get("finishReason") or c.get("finish_reason")
            if reason is not None:
                out.finish(reason)
        u = ev.get("usageMetadata")
        usual = False
        if type(u) is dict:  # the REST form: its counts are read here
            get = u.get
            i, o = get("promptTokenCount"), get("candidatesTokenCount")
            t, r = get("totalTokenCount"), get("thoughtsTokenCount")
            usual = ((type(i) is int or i is None) and (type(o) is int or o is None)
                     and (type(t) is int or t is None) and (type(r) is int or r is None))
        if usual:
            if o is not None or r is not None:
                o = (o or 0) + (r or 0)  # output: answer and thoughts (P12)
        else:
            if u is None and "usage_metadata" not in ev:
                return
            figures = usage_figures(ev)  # any other form, checked
            if figures is None:
                return
            i, o, t, r = figures
        held = self._usage  # each figure's last reported value (P12)
        if held is None:
            self._usage = [i, o, t, r]
            return
        if i is not None:
            held[0] = i
        if o is not None:
            held[1] = o
        if t is not None:
            held[2] = t
        if r is not None:
            held[3] = r

    def close(self) -> None:
        """Hand the usage figures to the collector (held until the end: every chunk reports
        them)."""
        if self._usage is not None:
            self.out.usage(Figures(self._usage))


class GeminiAccumulator(Accumulator):
    """Streamed ``GenerateContentResponse`` chunks added up (rules in the module docstring)."""

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {}
        self.seen: set[str] = set()  # the top-level keys met
        self.usage: dict[str, Any] = {}  # the newest usage, as received
        self.cand: dict[str, Any] = {}  # the candidate's keys, kept as received
        self.content_keys: dict[str, Any] = {}  # its content's keys, kept as received
        self.parts: list[dict[str, Any]] = []
        self.texts: list[Optional[list[str]]] = []  # text pieces per part (text parts only)
        self.run: Optional[list[str]] = None  # the open run's pieces (the last part's)
        self.run_thought = False  # whether the last part is a thought

    def chunk(self, ev: Mapping[str, Any]) -> tuple[Optional[Mapping[str, Any]], Sequence[Any]]:
        """A chunk's top-level keys, the chosen candidate's and its content's; returns the
        candidate and the content's parts, which the decoder reads (their pieces come back
        through :meth:`part`)."""
        c, content, parts = _content(ev, self.choice)
        if "usageMetadata" in ev:  # the last value wins, copied by build()
            self.usage["usageMetadata"] = ev["usageMetadata"]
        if "usage_metadata" in ev:
            self.usage["usage_metadata"] = ev["usage_metadata"]
        if not self.seen.issuperset(ev):  # the first value wins (usage: its place)
            self.seen.update(ev)
            base = self.base
            for k, v in ev.items():
                if k != "candidates" and k not in base:
                    base[k] = v if type(v) in SCALARS else jsonify(v)
        if c is not None:
            self.cand.update(c)  # the last value wins; "content" is left out by build()
            if content is not None:
                self.content_keys.update(content)
        return c, parts

    def part(self, p: Mapping[str, Any], text: Optional[str], sig: Optional[str]
             ) -> Optional[list[str]]:
        """One part, with the text and signature the decoder read from it, that does not
        continue the open run without a signature (the decoder appends those pieces to the
        run it was given).  Returns the list that collects the open run's pieces (``None``:
        no run is open)."""
        run = self.run
        if text is None or not _TEXT_KEYS.issuperset(p):
            text = None  # not a text part: never merged
        elif run is not None and sig and (text == "" or self.run_thought is bool(p.get("thought"))):
            run.append(text)
            last = self.parts[-1]
            last["thoughtSignature" if "thoughtSignature" in p else "thought_signature"] = sig
            self.run = None  # the signature ends the run
            return None
        part = jsonify(p)
        part.pop("text", None)
        self.parts.append(part)
        pieces = [text] if text is not None else None
        self.texts.append(pieces)
        self.run = pieces if not (p.get("thoughtSignature") or p.get("thought_signature")) else None
        self.run_thought = bool(p.get("thought"))
        return self.run

    def build(self) -> dict[str, Any]:
        for k, v in self.usage.items():
            self.base[k] = jsonify(v)
        parts = []
        for part, pieces in zip(self.parts, self.texts):
            parts.append({"text": "".join(pieces), **part} if pieces is not None else part)
        cand = {k: jsonify(v) for k, v in self.cand.items() if k != "content"}
        content = {k: jsonify(v) for k, v in self.content_keys.items() if k != "parts"}
        cand["content"] = {**content, "parts": parts}
        if "index" not in cand and self.choice:
            cand["index"] = self.choice
        return {"candidates": [cand], **self.base}


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _kept_parts(r: Mapping[str, Any], choice: int) -> list[Mapping[str, Any]]:
    c = kept_choice(as_list(r.get("candidates")), choice)
    content = as_map(c.get("content")) if c is not None else None
    return maps(content.get("parts")) if content is not None else []


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block per thought part, and one per other part carrying a signature (opaque)."""
    out = []
    for m in _kept_parts(r, choice):
        sig = text_of(m.get("thoughtSignature") or m.get("thought_signature")) or None
        if m.get("thought") is True:
            text = m.get("text")
            out.append(block(PROVIDER, "summary", text if isinstance(text, str) else "", m,
                             signature=sig))
        elif sig:
            out.append(block(PROVIDER, "opaque", "", m, signature=sig))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "model", "parts": [...]}``, each signature on its own part."""
    c = kept_choice(as_list(r.get("candidates")), choice)
    content = as_map(c.get("content")) if c is not None else None
    if content is not None:  # copied as received, but an array of parts (P8)
        opt_list(content, "parts", ("candidates", choice, "content"))
    parts = []
    for m in _kept_parts(r, choice):
        part = jsonify(m)
        if options.binary == "bytes":
            for k in ("thoughtSignature", "thought_signature"):
                if isinstance(part.get(k), str):
                    part[k] = b64_bytes(part[k])
        parts.append(part)
    return {"role": "model", "parts": parts}
