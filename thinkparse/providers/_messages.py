"""The assistant turn in each provider's request format (see docs/behaviour.md#x2).

Every message is a fresh JSON copy (the response is never shared or mutated), reasoning items
byte-exact and in place.  Checked against the SDKs' request types: Anthropic
``ThinkingBlockParam`` / ``RedactedThinkingBlockParam``, openai ``ResponseReasoningItemParam``,
google-genai ``Part`` (``thought_signature`` as bytes), Bedrock ``ReasoningContentBlock`` (a union
of ``reasoningText`` and ``redactedContent``; blobs are bytes in boto3).

Decisions where docs/behaviour.md is silent:

* Anthropic: a ``thinking`` block whose signature is missing or ``""`` is left out (a block cut
  by ``max_tokens``; the API rejects it).  Bedrock likewise for ``reasoningText`` without one.
* Responses: ``store`` defaults to the response's own ``store`` (else ``True``); a reasoning item
  as the last output item (nothing follows it) is left out.
* Chat: ``refusal``, ``tool_calls``, ``function_call`` and ``reasoning_details`` are copied when
  present and not null; ``content`` always (null stays null).  ``reasoning_field="name"`` writes
  the Extraction's reasoning rule (P4) over the fields, else ``""``.
* Ollama ``/api/generate`` responses (``response`` + ``thinking``) give a chat message with the
  ``response`` as ``content``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any, Callable

from ._access import readable
from ._wire import (
    Message,
    as_list,
    as_map,
    bedrock_content,
    chat_message,
    gemini_parts,
    jsonify,
)

_BINARY = ("base64", "bytes")


def check_binary(binary: object) -> str:
    """Validate ``binary=``.

    Raises:
        ValueError: not ``"base64"`` or ``"bytes"``.
    """
    if binary not in _BINARY:
        raise ValueError(f'binary must be "base64" or "bytes", not {binary!r}')
    return str(binary)


def _to_bytes(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return base64.b64decode(v, validate=True)
        except (binascii.Error, ValueError):
            return v
    return v


def _has_sig(v: Any) -> bool:
    return isinstance(v, (str, bytes, bytearray)) and len(v) > 0


def _anthropic(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    content = []
    for b in as_list(r.get("content")):
        m = as_map(b)
        if m is None:
            continue
        if m.get("type") == "thinking" and not _has_sig(m.get("signature")):
            continue
        content.append(jsonify(m))
    return {"role": "assistant", "content": content}


def _bedrock(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    content = []
    for b in bedrock_content(r):
        m = as_map(b)
        if m is None:
            continue
        rc = as_map(m.get("reasoningContent"))
        if rc is not None:
            rt = as_map(rc.get("reasoningText"))
            if rt is not None and not _has_sig(rt.get("signature")):
                continue
        block = jsonify(m)
        if binary == "bytes" and rc is not None and "redactedContent" in block.get(
            "reasoningContent", {}
        ):
            rcw = block["reasoningContent"]
            rcw["redactedContent"] = _to_bytes(rcw["redactedContent"])
        content.append(block)
    return {"role": "assistant", "content": content}


def _responses(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    if store is None:
        own = r.get("store")
        store = own if isinstance(own, bool) else True
    items = [m for m in (as_map(x) for x in as_list(r.get("output"))) if m is not None]
    out = []
    for i, m in enumerate(items):
        item = jsonify(m, drop_null=True)
        if m.get("type") == "reasoning":
            if i == len(items) - 1:
                continue  # nothing follows it: a truncated output
            if not store and not m.get("encrypted_content"):
                continue
        elif not store:
            item.pop("id", None)
        out.append(item)
    return out


def _gemini(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    parts = []
    for p in gemini_parts(r, choice):
        m = as_map(p)
        if m is None:
            continue
        part = jsonify(m)
        if binary == "bytes":
            for k in ("thoughtSignature", "thought_signature"):
                if k in part:
                    part[k] = _to_bytes(part[k])
        parts.append(part)
    return {"role": "model", "parts": parts}


_CHAT_FIELDS = ("reasoning_content", "reasoning")


def _chat(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    msg = chat_message(r, choice)
    if msg is None:
        if as_list(r.get("choices")) and "message" not in r:
            raise ValueError(
                "to_message(): a legacy Completions response (choices[].text) has no "
                "message form"
            )
        raise ValueError(f"to_message(): the response has no choice {choice}")
    out: dict[str, Any] = {"role": "assistant", "content": jsonify(msg.get("content"))}
    for k in ("refusal", "tool_calls", "function_call", "reasoning_details"):
        if msg.get(k) is not None:
            out[k] = jsonify(msg[k])
    tool_turn = bool(msg.get("tool_calls")) or msg.get("function_call") is not None
    if field is None:
        for k in _CHAT_FIELDS:
            if k in msg:
                v = msg[k]
                if v is None and tool_turn:
                    v = ""
                out[k] = jsonify(v)
    elif field is not False:
        text = ""
        for k in _CHAT_FIELDS:
            v = msg.get(k)
            if isinstance(v, str) and readable(v):
                text = v
                break
        out[str(field)] = text
    return out


def _ollama(r: Mapping[str, Any], choice: int, store: Any, field: Any, binary: str) -> Message:
    msg = as_map(r.get("message"))
    if msg is not None:
        content = msg.get("content")
        holder = msg
    else:
        content = r.get("response")
        holder = r
    out: dict[str, Any] = {"role": "assistant", "content": content if content is not None else ""}
    if isinstance(holder.get("thinking"), str):
        out["thinking"] = holder["thinking"]
    if holder.get("tool_calls") is not None:
        out["tool_calls"] = jsonify(holder["tool_calls"])
    return out


MESSAGES: dict[str, Callable[[Mapping[str, Any], int, Any, Any, str], Message]] = {
    "anthropic": _anthropic,
    "bedrock": _bedrock,
    "openai_responses": _responses,
    "gemini": _gemini,
    "openai_chat": _chat,
    "ollama": _ollama,
}


def check_options(store: object, reasoning_field: object, binary: object) -> None:
    """Validate ``to_message`` options.

    Raises:
        TypeError: ``store`` not a bool or None; ``reasoning_field`` not a str, False or None.
        ValueError: ``binary`` not ``"base64"``/``"bytes"``; ``reasoning_field`` empty.
    """
    if store is not None and not isinstance(store, bool):
        raise TypeError(f"store must be a bool or None, not {type(store).__name__}")
    if reasoning_field is not None and reasoning_field is not False:
        if not isinstance(reasoning_field, str):
            raise TypeError(
                "reasoning_field must be a str, False or None, not "
                f"{type(reasoning_field).__name__}"
            )
        if not reasoning_field:
            raise ValueError("reasoning_field must not be empty")
    check_binary(binary)


__all__ = ["MESSAGES", "Message", "check_options"]
