"""Gemini ``generateContent`` (family ``gemini``): REST camelCase and google-genai snake_case.

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
  0; both missing gives ``None``) (P12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from .._types import Delta
from ._access import (
    COUNT_TYPES,
    Figures,
    item_map,
    opt_int,
    opt_list,
    opt_map,
    opt_str,
    shape_error,
    signature_text,
)
from ._accumulate_parts import Gemini, copy_keys
from ._assemble import BLOCKS, Parts
from ._collector import Collector

PROVIDER = "gemini"

#: The keys of a part the short path reads (a text part, maybe a thought, maybe signed).
_TEXT_PART = frozenset({"text", "thought", "thoughtSignature"})


def _get(d: Mapping[str, Any], camel: str, snake: str) -> tuple[Any, str]:
    v = d.get(camel)
    if v is None and snake in d:
        return d.get(snake), snake
    return v, camel


_CAMEL = ("promptTokenCount", "candidatesTokenCount", "totalTokenCount", "thoughtsTokenCount")
_SNAKE = (
    "prompt_token_count", "candidates_token_count", "total_token_count", "thoughts_token_count"
)


def usage_figures(d: Mapping[str, Any]) -> Optional[Figures]:
    """(input, output, total, reasoning), or ``None`` when the response has no usage."""
    u = d.get("usageMetadata")  # (the usual key read without a call)
    key = "usageMetadata"
    if u is None:
        u, key = _get(d, "usageMetadata", "usage_metadata")
        if u is None:
            return None
    if type(u) is not dict:
        u = opt_map(d, key, "")
        if u is None:
            return None
    snake = key == "usage_metadata"
    names = _SNAKE if snake else _CAMEL
    get = u.get
    p, c, t, r = get(names[0]), get(names[1]), get(names[2]), get(names[3])
    ok = COUNT_TYPES
    if not (type(p) in ok and type(c) in ok and type(t) in ok and type(r) in ok):
        p, c, t, r = (opt_int(u, n, key) for n in names)
    o = None if c is None and r is None else (c or 0) + (r or 0)
    return p, o, t, r


def parts_of(d: Mapping[str, Any], choice: int = 0) -> Optional[Sequence[Any]]:
    """``candidates[choice].content.parts`` or ``None`` where any level is missing."""
    c0 = chosen(d, choice)
    return parts_in(c0, choice) if c0 is not None else None


def chosen(d: Mapping[str, Any], choice: int) -> Optional[Mapping[str, Any]]:
    """``candidates[choice]`` or ``None`` when there is none.

    Raises:
        ResponseShapeError: ``candidates`` is not an array.
    """
    cands = d.get("candidates")
    if cands is None:
        return None
    if not isinstance(cands, (list, tuple)):
        raise shape_error("", "candidates", "an array or null", cands)
    return candidate(cands, choice) if cands else None


def parts_in(c0: Mapping[str, Any], choice: int) -> Optional[Sequence[Any]]:
    """``content.parts`` of candidate ``c0`` or ``None`` where a level is missing."""
    content = c0.get("content")
    if content is None:
        return None
    if type(content) is not dict:
        content = opt_map(c0, "content", ("candidates", choice))
        if content is None:
            return None
    return opt_list(content, "parts", ("candidates", choice, "content"))


def candidate(cands: Sequence[Any], choice: int) -> Optional[Mapping[str, Any]]:
    """The candidate whose ``index`` is ``choice`` (its position when no index is given)."""
    if choice < len(cands):
        c: Mapping[str, Any] = cands[choice]
        if type(c) is not dict:
            c = item_map(c, "candidates", choice)
        idx = c.get("index")
        if idx is None or idx == choice:
            return c
    for i, other in enumerate(cands):
        c = other if type(other) is dict else item_map(other, "candidates", i)
        if c.get("index") == choice:
            return c
    return None


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: a stream of one chunk, handed to the collector in one call."""
    visible: list[str] = []
    runs: list[list[str]] = []
    run: list[str] = []
    sigs: Optional[list[str]] = None
    in_thought = False
    # The usual shape first (a list of dict candidates, dict content, list parts).
    parts: Optional[Sequence[Any]] = None
    cands = d.get("candidates")
    c0: Optional[Mapping[str, Any]] = None
    if type(cands) is list and choice < len(cands):
        c0 = cands[choice]
        if type(c0) is dict and c0.get("index", choice) == choice:
            content = c0.get("content")
            if type(content) is dict:
                parts = content.get("parts")
                if type(parts) is not list:
                    parts = parts_in(c0, choice)
            else:
                parts = parts_in(c0, choice)
        else:
            c0 = None
    if c0 is None:
        c0 = chosen(d, choice)
        parts = parts_in(c0, choice) if c0 is not None else None
    for i, p in enumerate(parts or ()):
        if type(p) is not dict:
            p = item_map(p, ("candidates", choice, "content", "parts"), i)
        text = p.get("text")
        if text is not None and type(text) is not str:
            text = opt_str(p, "text", ("candidates", choice, "content", "parts", i))
        sig = p.get("thoughtSignature") or p.get("thought_signature")
        if sig:
            sig = signature_text(
                sig, ("candidates", choice, "content", "parts", i), "thoughtSignature"
            )
            if sig:
                if sigs is None:
                    sigs = [sig]
                else:
                    sigs.append(sig)
        if p.get("thought") is True:
            if text:
                if in_thought:
                    run.append(text)  # consecutive thought parts: one segment (P2)
                else:
                    in_thought = True
                    run = [text]
                    runs.append(run)
        else:
            in_thought = False
            if text:
                visible.append(text)
    figures = usage_figures(d)
    reason = None
    if c0 is not None:
        reason = c0.get("finishReason") or c0.get("finish_reason")
    segments = []
    for r in runs:  # a loop, not a comprehension: no frame of its own (P9's cost goal)
        segments.append(r[0] if len(r) == 1 else "".join(r))
    return (
        visible[0] if len(visible) == 1 else "".join(visible),
        segments, BLOCKS, False, sigs, figures, reason,
    )


class Decoder:
    """Decodes a stream of ``GenerateContentResponse`` chunks (whole ones: :func:`response`)."""

    __slots__ = ("_choice", "_in_thought", "_run", "_run_part", "_run_thought", "_seg", "acc",
                 "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = Gemini(choice)
        self._choice = choice
        self._seg = 0
        self._in_thought = False
        # The accumulator's last part when the short path made it and its run is still open
        # (no signature): its text pieces, the part and whether it is a thought; the next text
        # part of the same kind joins it without a look-up (P9's cost goal).
        self._run: Optional[list[str]] = None
        self._run_part: dict[str, Any] = {}
        self._run_thought = False

    def event(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """One stream event; then the accumulator's (a usual chunk's part handed to it
        directly: the event is read once).

        Returns:
            The event's :class:`~thinkparse.Delta` when the short path built it, else ``None``
            (the caller takes it from the collector).
        """
        cands = ev.get("candidates")
        # The usual chunk, read once: one candidate (the chosen one) whose content holds one
        # text part; camelCase usage (the accumulator's event() and _event() read the same).
        if type(cands) is not list or len(cands) != 1:
            return self._general(ev)
        c = cands[0]
        if type(c) is not dict:
            return self._general(ev)
        idx = c.get("index")
        if (0 if idx is None else idx) != self._choice:
            return self._general(ev)
        content = c.get("content")
        if type(content) is not dict:
            return self._general(ev)
        parts = content.get("parts")
        if type(parts) is not list or len(parts) != 1:
            return self._general(ev)
        p = parts[0]
        if type(p) is not dict or not p.keys() <= _TEXT_PART:
            return self._general(ev)
        text = p.get("text")
        th = p.get("thought")
        sig = p.get("thoughtSignature")
        u = ev.get("usageMetadata")
        if not (
            type(text) is str
            and (th is None or th is True or th is False)
            and (sig is None or type(sig) is str)
            and (type(u) is dict or (u is None and "usageMetadata" not in ev))
            and "usage_metadata" not in ev
        ):
            return self._general(ev)
        thought = th is True
        out = self.out
        d: Optional[Delta] = None
        if sig:
            out.signature(sig)
        if thought:
            if text:
                if not self._in_thought:
                    self._in_thought = True
                    self._seg += 1
                d = out.reasoning_delta(self._seg, text, BLOCKS)
        else:
            self._in_thought = False
            if text:
                d = out.visible_delta(text)
        if u is not None:
            # usage_figures(ev) of a camelCase dict, read in place
            get = u.get
            pt = get("promptTokenCount")
            ct = get("candidatesTokenCount")
            tt = get("totalTokenCount")
            rt = get("thoughtsTokenCount")
            ok = COUNT_TYPES
            if type(pt) in ok and type(ct) in ok and type(tt) in ok and type(rt) in ok:
                out.usage(pt, None if ct is None and rt is None else (ct or 0) + (rt or 0), tt, rt)
            else:
                f = usage_figures(ev)
                if f is not None:
                    out.usage(f[0], f[1], f[2], f[3])
        acc = self.acc  # as the accumulator's event() would
        cand = acc.cand
        n = len(c)
        if n == 2 and type(idx) is int:  # content and index
            cand["index"] = idx
        elif n != 1:
            reason = c.get("finishReason") or c.get("finish_reason")
            if reason is not None:
                out.finish(reason)
            copy_keys(cand, c, "content")
        if len(content) == 2 and type(content.get("role")) is str:
            acc.content["role"] = content["role"]
        elif len(content) != 1:
            copy_keys(acc.content, content, "parts")
        if u is not None and len(ev) == 4 and acc.usual and "modelVersion" in ev and (
            "responseId" in ev
        ):
            acc.usage = u  # the usual chunk's keys, all met: only usage changes (last wins)
        elif ev.keys() <= acc.seen:  # only usage changes at the top level (last wins)
            if u is not None:
                acc.usage = u
        else:
            acc.top(ev)
        run = self._run
        if run is not None:  # the last part, an open run the short path made
            if sig:
                if text == "":
                    self._run_part["thoughtSignature"] = sig  # ends the run
                    self._run = None
                    return d
                if self._run_thought is thought:
                    run.append(text)
                    self._run_part["thoughtSignature"] = sig
                    self._run = None
                    return d
            elif self._run_thought is thought:
                run.append(text)
                return d
        else:
            texts = acc.texts
            if texts:
                last_text = texts[-1]
                if last_text is not None:
                    last = acc.parts[-1]
                    if not (last.get("thoughtSignature") or last.get("thought_signature")):
                        if sig and text == "":
                            last["thoughtSignature"] = sig  # ends the run
                            return d
                        if bool(last.get("thought")) is thought:
                            last_text.append(text)
                            if sig:
                                last["thoughtSignature"] = sig
                            return d
        part = dict(p)
        del part["text"]
        acc.parts.append(part)
        pieces = [text]
        acc.texts.append(pieces)
        if sig:
            self._run = None
        else:
            self._run, self._run_part, self._run_thought = pieces, part, thought
        return d

    def _general(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """Any other chunk: the decoder's read, then the accumulator's (``None``: the caller
        takes the delta from the collector)."""
        self._run = None  # the next part looks the last one up again
        self._event(ev)
        self.acc.event(ev)
        return None

    def _event(self, ev: Mapping[str, Any]) -> None:
        """One chunk (a whole response holding the new parts)."""
        out = self.out
        choice = self._choice
        where = ("candidates", choice, "content", "parts")
        for i, p in enumerate(parts_of(ev, choice) or ()):
            if type(p) is not dict:
                p = item_map(p, where, i)
            text = p.get("text")
            if text is not None and type(text) is not str:
                text = opt_str(p, "text", (where, i))
            sig = p.get("thoughtSignature") or p.get("thought_signature")
            if sig:
                out.signature(signature_text(sig, (where, i), "thoughtSignature"))
            if p.get("thought") is True:
                if text:
                    if not self._in_thought:
                        self._in_thought = True
                        self._seg += 1
                    out.reasoning(self._seg, text, BLOCKS)
            else:
                self._in_thought = False
                if text:
                    out.visible(text)
        f = usage_figures(ev)
        if f is not None:
            out.usage(f[0], f[1], f[2], f[3])
        cands = ev.get("candidates")
        if cands and isinstance(cands, (list, tuple)):
            c = candidate(cands, choice)
            if c is not None:
                reason = c.get("finishReason") or c.get("finish_reason")
                if reason is not None:
                    out.finish(reason)

    def close(self) -> None:
        """Nothing is held per message."""
