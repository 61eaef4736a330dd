"""The Chat family's readers: usage, message fields, whole responses and the turn (X1, X2);
the wire facts and the decisions are in :mod:`thinkparse.providers.openai_chat`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Optional

from ..._errors import ResponseShapeError
from ..._types import BlockKind, ReasoningBlock
from .._access import (
    COUNT_TYPES,
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
)
from .._assemble import BLOCKS, FIELD, Parts
from .._family import Message, MessageOptions, block

PROVIDER = "openai_chat"
_FIELDS = ("reasoning_content", "reasoning")
_TEXT = frozenset({"content", "refusal", *_FIELDS})
_NO_FIGURES = Figures((None, None, None, None))
#: The block kind of each ``reasoning_details`` type (also the key of a readable one's text).
_DETAIL_KINDS: dict[Any, BlockKind] = {
    "reasoning.text": "text", "reasoning.summary": "summary", "reasoning.encrypted": "opaque"}



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


def content_parts(items: Sequence[Any], where: Where) -> Iterator[tuple[bool, str]]:
    """``(is_thinking, text)`` of each chunk of a content list, in order: Mistral ``thinking``
    chunks, and the answer's text and refusal chunks (other chunks give ``""``)."""
    for i, part in enumerate(items):
        if isinstance(part, str):
            yield False, part
            continue
        part = item_map(part, where, i)
        t = part.get("type")
        if t == "thinking":
            yield True, thinking_text(part.get("thinking"), (where, i))
        elif t == "text" or t == "output_text" or (t is None and "text" in part):
            yield False, opt_str(part, "text", (where, i)) or ""
        else:
            yield False, (opt_str(part, "refusal", (where, i)) or "") if t == "refusal" else ""


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
        text, sig = _detail(m, (where, i))
        if sig:
            sigs.append(sig)
        if text is None:
            redacted = True
        elif text:
            key = m["index"] if type(m.get("index")) is int else ("#", i)
            groups.setdefault(key, []).append(text)
    return Details(["".join(g) for g in groups.values()], sigs, redacted)


def _detail(e: Mapping[str, Any], where: Where) -> tuple[Optional[str], Optional[str]]:
    """One detail's text (``""``: none; ``None`` for an encrypted one with data, P6) and
    signature."""
    t = e.get("type")
    if t == "reasoning.text":
        sig = signature_text(e.get("signature"), where, "signature")
        return opt_str(e, "text", where) or "", sig
    if t == "reasoning.summary":
        return opt_str(e, "summary", where) or "", None
    return (None if t == "reasoning.encrypted" and e.get("data") else ""), None


def call_signatures(calls: Sequence[Any], where: Where) -> list[str]:
    """The Gemini OpenAI-compatible endpoint's thought signatures of ``tool_calls``:
    ``tool_calls[i].extra_content.google.thought_signature``, in order (P15)."""
    sigs = []
    for j, c in enumerate(calls):
        if type(c) is not dict:
            c = item_map(c, where, j)
        if c.get("extra_content") is None:
            continue
        extra = opt_map(c, "extra_content", (where, j)) or {}
        google = opt_map(extra, "google", (where, j, "extra_content"))
        if google is not None:
            sig = signature_text(google.get("thought_signature"),
                                 (where, j, "extra_content", "google"), "thought_signature")
            if sig:
                sigs.append(sig)
    return sigs


def _call_signature(call: Mapping[str, Any]) -> Optional[str]:
    extra = as_map(call.get("extra_content"))
    google = as_map(extra.get("google")) if extra is not None else None
    return text_of(google.get("thought_signature")) or None if google is not None else None


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
    key = "message"
    msg = c.get(key)
    if msg is None and "delta" in c:
        key = "delta"
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
    if type(content) is not str:
        if isinstance(content, (list, tuple)):
            texts: list[str] = []
            for is_thinking, text in content_parts(content, (where, "content")):
                (thinking if is_thinking else texts).append(text)
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
    if msg.get("tool_calls") is not None:
        found_sigs = call_signatures(opt_list(msg, "tool_calls", where) or (),
                                     (where, "tool_calls"))
        if found_sigs:
            sigs = [*(sigs or ()), *found_sigs]
    if not thinking:
        return Parts((visible, segments, FIELD, redacted, sigs, figures, c.get("finish_reason")))
    fmt = FIELD if segments is not None else BLOCKS
    segments = thinking if segments is None else segments + thinking
    return Parts((visible, segments, fmt, redacted, sigs, figures, c.get("finish_reason")))


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
        kind = _DETAIL_KINDS.get(m.get("type"))
        if kind is not None:
            text = "" if kind == "opaque" else text_of(m.get(kind)) or ""
            out.append(block(PROVIDER, kind, text, m, id=m.get("id"),
                             signature=text_of(m.get("signature")) if kind == "text" else None,
                             data=text_of(m.get("data")) if kind == "opaque" else None))
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
                x["text"] for x in maps(th) if isinstance(x.get("text"), str))
            out.append(block(PROVIDER, "text", text, m))
    for m in maps(msg.get("tool_calls")):  # Gemini's thought signatures (P15)
        sig = _call_signature(m)
        if sig:
            out.append(block(PROVIDER, "opaque", "", m, signature=sig))
    return out


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content", ...}`` with the reasoning fields as received."""
    msg = _kept_message(r, choice)
    if msg is None:
        if as_list(r.get("choices")) and "message" not in r:
            raise ValueError("to_message(): a legacy Completions response (choices[].text) has "
                             "no message form")
        raise ValueError(f"to_message(): the response has no choice {choice}")
    if msg.get("tool_calls") is not None:  # copied as received, but an array of calls (P8)
        opt_list(msg, "tool_calls", ("choices", choice, "message"))
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


