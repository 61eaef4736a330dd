"""Blocks (X1) and request messages (X2) of a decoded turn, per family.

Both are read from the response as received (for a stream: what its events add up to, see
:mod:`._accumulate`), so a stream and its non-streamed twin give equal blocks and messages.

Decisions where docs/behaviour.md is silent:

* ``kind``: ``"opaque"`` whenever a block has no readable text (redacted, encrypted-only,
  signature-only, id-only, whitespace-only); otherwise ``"summary"`` for Responses summaries,
  Gemini thoughts and OpenRouter ``reasoning.summary``, ``"text"`` for the rest.
* Chat: a ``reasoning_content`` / ``reasoning`` key whose value is a string (``""`` included)
  makes a block; a null value does not.  When ``reasoning_details`` has no readable entry but a
  field is readable, the field's block follows the detail blocks (so ``reasoning`` stays the P2
  join of the readable block texts).
* Inline ``<think>`` / harmony reasoning gives one block (``wire == {}``) per extracted block,
  found again from the text on first use (:mod:`._inline_blocks`).
* Responses messages drop null-valued keys at every depth (the output's ``logprobs: null``
  and the like are not accepted as input).
* Byte values (SDK objects dumped in Python mode) are standard base64 strings in ``wire`` and in
  messages unless ``binary="bytes"``.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Union

from .._types import ReasoningBlock
from ._access import convert, readable

Message = Union[dict[str, Any], list[dict[str, Any]]]


# --- JSON copies -------------------------------------------------------------------------------
#: Values copied as they are (immutable JSON scalars: no call to :func:`jsonify`).
SCALARS = frozenset({str, int, float, bool})


def jsonify(v: Any, drop_null: bool = False) -> Any:
    """A deep copy holding only JSON types (bytes as standard base64, models converted)."""
    t = type(v)
    if t is str or v is None or t is int or t is bool or t is float:
        return v
    if t is dict:
        # Scalar values are copied here rather than through a call per value (the stream's
        # accumulators copy a few small objects per stream; docs/behaviour.md#p9's cost goal).
        out: dict[str, Any] = {}
        for k, x in v.items():
            tx = type(x)
            if tx is str or tx is int or tx is bool or tx is float:
                out[k if type(k) is str else str(k)] = x
            elif x is None:
                if not drop_null:
                    out[k if type(k) is str else str(k)] = x
            else:
                out[k if type(k) is str else str(k)] = jsonify(x, drop_null)
        return out
    if isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, Mapping):
        return {
            str(k): jsonify(x, drop_null)
            for k, x in v.items()
            if not (drop_null and x is None)
        }
    if isinstance(v, (list, tuple)):
        return [jsonify(x, drop_null) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode("ascii")
    m = convert(v)
    if m is not None:
        return jsonify(m, drop_null)
    return v


def as_map(v: Any) -> Optional[Mapping[str, Any]]:
    """``v`` as a mapping (models converted), else ``None``."""
    if type(v) is dict:
        return v
    if v is None:  # (before the Mapping check, which costs more: absent fields are usual)
        return None
    if isinstance(v, Mapping):
        return v
    if isinstance(v, (str, bytes, int, float, list, tuple)):
        return None
    return convert(v)


def as_list(v: Any) -> Sequence[Any]:
    """``v`` when it is a list or tuple, else ``()``."""
    return v if type(v) is list or isinstance(v, (list, tuple)) else ()


def _str(v: Any) -> Optional[str]:
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode("ascii")
    return None


def _s(v: Any) -> str:
    return v if isinstance(v, str) else ""


def _text_kind(text: str, readable_kind: str) -> str:
    return readable_kind if readable(text) else "opaque"


def _block(
    provider: str,
    kind: str,
    text: str,
    wire: Any,
    signature: Optional[str] = None,
    data: Optional[str] = None,
    id: Optional[str] = None,
) -> ReasoningBlock:
    return ReasoningBlock(
        kind,  # type: ignore[arg-type]
        text if kind != "opaque" else "",
        signature or None,
        data or None,
        id if isinstance(id, str) else None,
        provider,
        jsonify(wire),
    )


def _join(texts: list[str]) -> str:
    return "\n\n".join(t for t in texts if readable(t))


def _texts(parts: Any) -> list[str]:
    out = []
    for p in as_list(parts):
        m = as_map(p)
        if m is not None and isinstance(m.get("text"), str):
            out.append(m["text"])
    return out


# --- per family: blocks ------------------------------------------------------------------------
def _anthropic_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    out = []
    for b in as_list(r.get("content")):
        m = as_map(b)
        if m is None:
            continue
        t = m.get("type")
        if t == "thinking":
            text = _s(m.get("thinking"))
            out.append(_block("anthropic", _text_kind(text, "text"), text, m,
                              signature=_str(m.get("signature"))))
        elif t == "redacted_thinking":
            out.append(_block("anthropic", "opaque", "", m, data=_str(m.get("data"))))
    return out


def bedrock_content(r: Mapping[str, Any]) -> Sequence[Any]:
    out = as_map(r.get("output"))
    msg = as_map(out.get("message")) if out is not None else None
    return as_list(msg.get("content")) if msg is not None else ()


def _bedrock_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    out = []
    for b in bedrock_content(r):
        m = as_map(b)
        rc = as_map(m.get("reasoningContent")) if m is not None else None
        if rc is None:
            continue
        rt = as_map(rc.get("reasoningText"))
        if rt is not None:
            text = _s(rt.get("text"))
            out.append(_block("bedrock", _text_kind(text, "text"), text, m,
                              signature=_str(rt.get("signature"))))
        else:
            out.append(_block("bedrock", "opaque", "", m, data=_str(rc.get("redactedContent"))))
    return out


def _responses_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    out = []
    for it in as_list(r.get("output")):
        m = as_map(it)
        if m is None or m.get("type") != "reasoning":
            continue
        raw = _join(_texts(m.get("content")))
        if raw:
            kind, text = "text", raw
        else:
            text = _join(_texts(m.get("summary")))
            kind = "summary" if text else "opaque"
        out.append(_block("openai_responses", kind, text, m,
                          data=_str(m.get("encrypted_content")), id=m.get("id")))
    return out


def gemini_parts(r: Mapping[str, Any], choice: int) -> Sequence[Any]:
    """``candidates[choice].content.parts`` (empty where any level is missing)."""
    cands = as_list(r.get("candidates"))
    for i, c in enumerate(cands):
        m = as_map(c)
        if m is None:
            continue
        idx = m.get("index")
        if (i if idx is None else idx) == choice:
            content = as_map(m.get("content"))
            return as_list(content.get("parts")) if content is not None else ()
    return ()


def _gemini_sig(m: Mapping[str, Any]) -> Optional[str]:
    return _str(m.get("thoughtSignature") or m.get("thought_signature")) or None


def _gemini_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    out = []
    for p in gemini_parts(r, choice):
        m = as_map(p)
        if m is None:
            continue
        sig = _gemini_sig(m)
        if m.get("thought") is True:
            text = _s(m.get("text"))
            out.append(_block("gemini", _text_kind(text, "summary"), text, m, signature=sig))
        elif sig:
            out.append(_block("gemini", "opaque", "", m, signature=sig))
    return out


def chat_message(r: Mapping[str, Any], choice: int) -> Optional[Mapping[str, Any]]:
    """The chosen choice's ``message`` (``None`` for legacy Completions or no choice)."""
    for i, c in enumerate(as_list(r.get("choices"))):
        m = as_map(c)
        if m is None:
            continue
        idx = m.get("index")
        if (i if idx is None else idx) == choice or (choice == 0 and i == 0 and idx is None):
            return as_map(m.get("message")) or as_map(m.get("delta"))
    return None


_FIELDS = ("reasoning_content", "reasoning")


def _chat_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    msg = chat_message(r, choice)
    if msg is None:
        return []
    out = []
    details = as_list(msg.get("reasoning_details"))
    for e in details:
        m = as_map(e)
        if m is None:
            continue
        t = m.get("type")
        if t == "reasoning.text":
            text = _str(m.get("text")) or ""
            out.append(_block("openai_chat", _text_kind(text, "text"), text, m,
                              signature=_str(m.get("signature")), id=m.get("id")))
        elif t == "reasoning.summary":
            text = _str(m.get("summary")) or ""
            out.append(_block("openai_chat", _text_kind(text, "summary"), text, m,
                              id=m.get("id")))
        elif t == "reasoning.encrypted":
            out.append(_block("openai_chat", "opaque", "", m, data=_str(m.get("data")),
                              id=m.get("id")))
    if not any(b.kind != "opaque" for b in out):
        wire = {k: msg[k] for k in _FIELDS if isinstance(msg.get(k), str)}
        if wire and (not out or any(readable(v) for v in wire.values())):
            text = next((v for v in wire.values() if readable(v)), "")
            out.append(_block("openai_chat", _text_kind(text, "text"), text, wire))
    content = msg.get("content")
    if isinstance(content, (list, tuple)):
        for ch in content:
            m = as_map(ch)
            if m is not None and m.get("type") == "thinking":
                th = m.get("thinking")
                text = th if isinstance(th, str) else "".join(_texts(th))
                out.append(_block("openai_chat", _text_kind(text, "text"), text, m))
    return out


def _ollama_blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    msg = as_map(r.get("message"))
    holder = msg if msg is not None else r
    th = holder.get("thinking")
    if not isinstance(th, str):
        return []
    return [_block("ollama", _text_kind(th, "text"), th, {"thinking": th})]


#: Each family's reasoning blocks of a whole response (X1), by family name.
BLOCKS: dict[str, Callable[[Mapping[str, Any], int], list[ReasoningBlock]]] = {
    "anthropic": _anthropic_blocks,
    "bedrock": _bedrock_blocks,
    "openai_responses": _responses_blocks,
    "gemini": _gemini_blocks,
    "openai_chat": _chat_blocks,
    "ollama": _ollama_blocks,
}
