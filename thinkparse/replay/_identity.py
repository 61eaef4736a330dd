"""The identity of an assistant turn in request format (see docs/behaviour.md#x3, #x4).

One function, :func:`turn_ids`, computes it both for a cached turn (from its ``to_message`` form)
and for the assistant turns of a request, so a segment matches a turn exactly when both were
derived the same way.  The identity is a tuple of strings: one entry per tool call, in order, then
the turn's visible text.

* A tool call contributes its id: Anthropic ``tool_use.id``, Bedrock ``toolUse.toolUseId``, Chat
  ``tool_calls[].id``, Responses ``call_id``, Gemini/Ollama ``id`` where present.  Without an id it
  contributes ``"name(arguments)"`` with object arguments written as compact JSON with sorted keys
  (string arguments as given), so an equal call rebuilt by the application still matches.
* The visible text is the turn's answer text with inline reasoning tags removed
  (:func:`~thinkparse.strip_think`, defaults) and all runs of whitespace collapsed to one space
  and stripped: a history that kept ``Extraction.visible`` matches the raw message, and
  re-joined text blocks match their original.
* Reasoning (thinking blocks, ``reasoningContent``, reasoning items, ``thought`` parts, reasoning
  fields) takes no part: the identity of a turn is the same before and after its reasoning is
  attached.
* Hostile values never raise a bare error.  A request's turn is read leniently: ``tool_calls`` or
  ``parts`` that are not a list hold no call or part, a Responses item whose ``type`` is not a
  string is not a tool output, and arguments that cannot be written as JSON (cyclic, nested too
  deeply) are written with ``repr`` or as a fixed marker, so such a turn matches nothing and is
  left alone.  A cached turn (``ReasoningContext.update``, ``strict=True``) is checked instead:
  such a field raises :class:`~thinkparse.ResponseShapeError` whose path names it in the turn's
  ``to_message`` form (``message.tool_calls``, ``message[1].type``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..providers._access import Where, shape_error
from ..scan._think import strip_think

#: Responses item types that are the model's output (everything else is input).
RESPONSES_INPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output",
                                   "computer_call_output", "local_shell_call_output",
                                   "mcp_approval_response", "item_reference"})


def _args(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON data, or cyclic: its repr marks cycles
        try:
            return repr(value)
        except RecursionError:
            return f"<{type(value).__name__} nested too deeply>"
    except RecursionError:
        return f"<{type(value).__name__} nested too deeply>"


def is_input_type(kind: Any) -> bool:
    """Whether a Responses item ``type`` is an input (a tool output...); any value is safe."""
    return isinstance(kind, str) and kind in RESPONSES_INPUT_TYPES


def _items(message: Any, key: str, where: Where, strict: bool) -> Sequence[Any]:
    """``message[key]`` as a list (``tool_calls``, ``parts``); anything else is none of them,
    or, when ``strict``, a :class:`ResponseShapeError`."""
    value = message.get(key)
    if type(value) is list or isinstance(value, (list, tuple)):
        return value
    if value is not None and strict:
        raise shape_error(where, key, "an array or null", value)
    return ()


def _call(ident: Any, name: Any, arguments: Any) -> str:
    if isinstance(ident, str) and ident:
        return ident
    return f"{name}({_args(arguments)})"


def _text(pieces: Iterable[Any]) -> str:
    joined = "".join(p for p in pieces if isinstance(p, str))
    if "<" in joined:
        joined = strip_think(joined)
    return " ".join(joined.split())


def _content_texts(content: Any, text_types: tuple[str, ...]) -> list[Any]:
    if type(content) is str:
        return [content]
    if content is None:
        return []
    if not isinstance(content, Sequence):
        return []
    out = []
    for part in content:
        if isinstance(part, Mapping) and part.get("type", "text") in text_types:
            out.append(part.get("text"))
        elif isinstance(part, str):
            out.append(part)
    return out


def _anthropic(message: Mapping[str, Any], strict: bool = False) -> tuple[str, ...]:
    content = message.get("content")
    calls = []
    if isinstance(content, Sequence) and not isinstance(content, str):
        for b in content:
            if isinstance(b, Mapping) and b.get("type") in ("tool_use", "server_tool_use"):
                calls.append(_call(b.get("id"), b.get("name"), b.get("input")))
    return (*calls, _text(_content_texts(content, ("text",))))


def _bedrock(message: Mapping[str, Any], strict: bool = False) -> tuple[str, ...]:
    content = message.get("content")
    calls, texts = [], []
    if isinstance(content, Sequence) and not isinstance(content, str):
        for b in content:
            if not isinstance(b, Mapping):
                continue
            use = b.get("toolUse")
            if isinstance(use, Mapping):
                calls.append(_call(use.get("toolUseId"), use.get("name"), use.get("input")))
            elif "text" in b:
                texts.append(b.get("text"))
    return (*calls, _text(texts))


def _chat(message: Mapping[str, Any], strict: bool = False) -> tuple[str, ...]:
    calls = []
    for c in _items(message, "tool_calls", "message", strict):
        if type(c) is dict or isinstance(c, Mapping):
            fn = c.get("function")
            fn = fn if type(fn) is dict or isinstance(fn, Mapping) else {}
            calls.append(_call(c.get("id"), fn.get("name"), fn.get("arguments")))
    fc = message.get("function_call")
    if fc is not None and isinstance(fc, Mapping):
        calls.append(_call(None, fc.get("name"), fc.get("arguments")))
    return (*calls, _text(_content_texts(message.get("content"), ("text", "output_text"))))


def _gemini(message: Mapping[str, Any], strict: bool = False) -> tuple[str, ...]:
    calls, texts = [], []
    for p in _items(message, "parts", "message", strict):
        if not isinstance(p, Mapping) or p.get("thought") is True:
            continue
        fc = p.get("functionCall")
        if isinstance(fc, Mapping):
            calls.append(_call(fc.get("id"), fc.get("name"), fc.get("args")))
        elif "text" in p:
            texts.append(p.get("text"))
    return (*calls, _text(texts))


def _responses(items: Sequence[Any], strict: bool = False) -> tuple[str, ...]:
    calls, texts = [], []
    for k, it in enumerate(items):
        if not isinstance(it, Mapping):
            continue
        t = it.get("type", "message")
        if strict and not isinstance(t, str):
            raise shape_error(("message", k), "type", "a string", t)
        if t == "message":
            texts.extend(_content_texts(it.get("content"), ("output_text", "text")))
        elif t != "reasoning" and not is_input_type(t):
            calls.append(_call(it.get("call_id") or it.get("id"), it.get("name"),
                               it.get("arguments", it.get("input"))))
    return (*calls, _text(texts))


_BY_PROVIDER = {
    "anthropic": _anthropic,
    "bedrock": _bedrock,
    "openai_chat": _chat,
    "ollama": _chat,
    "gemini": _gemini,
}


def turn_ids(message: Any, provider: str, *, strict: bool = False) -> tuple[str, ...]:
    """The identity of one assistant turn in ``provider``'s request format.

    Args:
        message: the assistant message (a mapping), or for ``openai_responses`` the turn's
            output items (a sequence of mappings).
        provider: the family name.
        strict: raise for a field that cannot be read (a cached turn) instead of reading it as
            empty (a request's turn).

    Returns:
        The tool-call entries in order, then the visible text (see the module docstring).

    Raises:
        ResponseShapeError: with ``strict``, ``tool_calls`` or ``parts`` that is not a list, or
            a Responses item ``type`` that is not a string; the path starts at ``message``.
    """
    if provider == "openai_responses":
        if isinstance(message, Mapping):
            return _responses([message], strict)
        return _responses(message if isinstance(message, Sequence) else (), strict)
    if not isinstance(message, Mapping):
        return ("",)
    return _BY_PROVIDER.get(provider, _chat)(message, strict)
