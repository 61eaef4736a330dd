"""``ReasoningContext.attach``: put cached reasoning back into a request (docs/behaviour.md#x4).

Each cached segment replaces the assistant turn of the request whose identity
(:func:`thinkparse.replay._identity.turn_ids`) equals the segment's, by the segment's cached message
form.  The request is never modified: the result is a new dict whose changed list and changed
turns are new objects; unchanged values are shared.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from ._identity import is_input_type, turn_ids

_DATED = re.compile(r"-(\d{4}-?\d{2}-?\d{2}|latest|v\d+(:\d+)?)$")
#: Families that accept unsigned reasoning on an assistant turn (``foreign="text"``).
_TEXT_TARGETS = ("openai_chat", "ollama")
_CHAT_FIELDS = ("reasoning_content", "reasoning")


_CONTAINERS = (dict, list, tuple)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists and tuples copied; scalars shared)."""
    if type(value) is dict:
        return {k: copy_json(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if type(value) is list or type(value) is tuple:
        return [copy_json(v) if type(v) in _CONTAINERS else v for v in value]
    if isinstance(value, Mapping):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [copy_json(v) for v in value]
    return value


def same_model(a: Optional[str], b: Any) -> bool:
    """Whether a segment's model ``a`` and a request's model ``b`` are the same model.

    Unknown (None) on either side counts as the same; ``models/`` prefixes are ignored; a dated
    or ``-latest`` snapshot equals its alias (``gpt-5-2025-08-07`` is ``gpt-5``).
    """
    if a is None or not isinstance(b, str):
        return True
    a, b = a.removeprefix("models/"), b.removeprefix("models/")
    if a == b:
        return True
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return long.startswith(short) and _DATED.fullmatch(long[len(short):]) is not None


def _readable(segment: Any) -> str:
    return "\n\n".join(b.text for b in segment.blocks if b.kind != "opaque" and b.text.strip())


def carries_reasoning(message: Any, family: str) -> bool:
    """Whether a request's assistant turn already holds reasoning of its own."""
    if type(message) is not dict and not isinstance(message, Mapping):
        return False
    if family == "cohere" and message.get("tool_plan"):
        return True
    if family in ("anthropic", "bedrock", "cohere"):
        content = message.get("content")
        if not isinstance(content, Sequence) or isinstance(content, str):
            return False
        return any(
            isinstance(b, Mapping)
            and (b.get("type") in ("thinking", "redacted_thinking") or "reasoningContent" in b)
            for b in content
        )
    if family == "gemini":
        parts = message.get("parts")
        return isinstance(parts, (list, tuple)) and any(
            isinstance(p, Mapping) and (p.get("thought") is True or "thoughtSignature" in p)
            for p in parts
        )
    if family == "ollama":
        return bool(message.get("thinking"))
    if message.get("reasoning_details"):
        return True
    for k in _CHAT_FIELDS:
        v = message.get(k)
        if v and isinstance(v, str):
            return True
    return False


def _thinking_on(request: Mapping[str, Any], family: str) -> bool:
    if family == "anthropic":
        t = request.get("thinking")
        return isinstance(t, Mapping) and t.get("type") not in (None, "disabled")
    if family == "bedrock":
        extra = request.get("additionalModelRequestFields")
        if not isinstance(extra, Mapping):
            return False
        for key in ("thinking", "reasoning_config", "reasoningConfig"):
            t = extra.get(key)
            if isinstance(t, Mapping) and t.get("type") != "disabled":
                return True
        return False
    return True


def _chat_fields(message: dict[str, Any], segment: Any, field: Union[str, bool]) -> None:
    """Rewrite the Chat reasoning fields of a cached message for ``reasoning_field``."""
    value = next((message[k] for k in _CHAT_FIELDS if isinstance(message.get(k), str)), None)
    for k in _CHAT_FIELDS:
        message.pop(k, None)
    if field is not False:
        message[str(field)] = value if value is not None else _readable(segment)


def _replacement(segment: Any, turn: Any, family: str, native: bool,
                 reasoning_field: Union[str, bool, None]) -> Optional[dict[str, Any]]:
    if native:
        message: dict[str, Any] = segment.message
        if family == "openai_chat" and reasoning_field is not None:
            _chat_fields(message, segment, reasoning_field)
        return message
    text = _readable(segment)
    if not text or reasoning_field is False:
        return None
    new = dict(turn)
    new["thinking" if family == "ollama" else (reasoning_field or "reasoning_content")] = text
    return new


def attach_messages(segments: Sequence[Any], request: Mapping[str, Any], family: str,
                    foreign: str, reasoning_field: Union[str, bool, None]) -> dict[str, Any]:
    """``attach`` for every family but ``openai_responses``."""
    out = dict(request)
    key = "contents" if family == "gemini" else "messages"
    turns = request.get(key)
    if not isinstance(turns, list) or not _thinking_on(request, family):
        return out
    role = "model" if family == "gemini" else "assistant"
    model = request.get("model", request.get("modelId"))
    positions = [i for i, m in enumerate(turns)
                 if (type(m) is dict or isinstance(m, Mapping)) and m.get("role") == role]
    ids = {i: turn_ids(turns[i], family) for i in positions}
    new = list(turns)
    taken: set[int] = set()
    for seg in reversed(segments):
        native = seg.provider == family and same_model(seg.model, model)
        if not native and (foreign == "drop" or family not in _TEXT_TARGETS):
            continue
        for i in reversed(positions):
            if i in taken or ids[i] != seg.ids:
                continue
            taken.add(i)
            if not carries_reasoning(turns[i], family):
                message = _replacement(seg, turns[i], family, native, reasoning_field)
                if message is not None:
                    new[i] = message
            break
    out[key] = new
    return out


# --- Responses ----------------------------------------------------------------------------
def _is_output(item: Any) -> bool:
    if not isinstance(item, Mapping):
        return False
    t = item.get("type", "message")
    if t == "message":
        return item.get("role") == "assistant"
    return not is_input_type(t)


def _store_false(items: list[Any]) -> list[Any]:
    """Drop reasoning items without ``encrypted_content``; what followed them loses its ``id``."""
    out, dropped = [], False
    for it in items:
        if it.get("type") == "reasoning":
            dropped = not it.get("encrypted_content")
            if dropped:
                continue
        elif dropped and "id" in it:
            it = {k: v for k, v in it.items() if k != "id"}
        out.append(it)
    return out


def _splice(cached: list[Any], span: list[Any]) -> list[Any]:
    """The cached items with the span's tool outputs kept after their calls."""
    outputs = [it for it in span if not _is_output(it)]
    last_output = max((k for k, it in enumerate(span) if _is_output(it)), default=-1)
    if all(k > last_output for k, it in enumerate(span) if not _is_output(it)):
        return cached + outputs
    result, pending = [], list(outputs)
    for it in cached:
        result.append(it)
        cid = it.get("call_id")
        if cid is None:
            continue
        result.extend(o for o in pending if o.get("call_id") == cid)
        pending = [o for o in pending if o.get("call_id") != cid]
    return result + pending


def attach_responses(segments: Sequence[Any], request: Mapping[str, Any]) -> dict[str, Any]:
    """``attach`` for the Responses API (foreign segments are always dropped)."""
    out = dict(request)
    items = request.get("input")
    if (request.get("previous_response_id") is not None
            or request.get("conversation") is not None or not isinstance(items, list)):
        return out
    model = request.get("model")
    store = request.get("store") is not False
    runs: list[list[int]] = []  # [first, last] index of each run of output items
    for k, it in enumerate(items):
        if _is_output(it):
            if runs and runs[-1][1] == k - 1:
                runs[-1][1] = k
            else:
                runs.append([k, k])
    replace: dict[int, tuple[int, list[Any]]] = {}
    used: set[int] = set()
    for seg in reversed(segments):
        if seg.provider != "openai_responses" or not same_model(seg.model, model):
            continue
        found = _find_group(items, runs, seg.ids, used)
        if found is None:
            continue
        a, b = found
        used.update(range(a, b + 1))
        first, last = runs[a][0], runs[b][1]
        if not any(isinstance(items[k], Mapping) and items[k].get("type") == "reasoning"
                   for k in range(first, last + 1)):
            cached = seg.message
            if not store:
                cached = _store_false(cached)
            replace[first] = (last, _splice(cached, items[first:last + 1]))
    if replace:
        new, k = [], 0
        while k < len(items):
            if k in replace:
                last, repl = replace[k]
                new.extend(repl)
                k = last + 1
            else:
                new.append(items[k])
                k += 1
        out["input"] = new
    return out


def _find_group(items: list[Any], runs: list[list[int]], ids: tuple[str, ...],
                used: set[int]) -> Optional[tuple[int, int]]:
    """Runs ``a..b`` (joined only by tool outputs) whose items have identity ``ids``."""
    for a in reversed(range(len(runs))):
        if a in used:
            continue
        for b in range(a, len(runs)):
            if b in used:
                break
            if b > a and any(_is_output(items[k]) or not isinstance(items[k], Mapping)
                             or not is_input_type(items[k].get("type"))
                             for k in range(runs[b - 1][1] + 1, runs[b][0])):
                break
            got = [items[k] for r in runs[a:b + 1] for k in range(r[0], r[1] + 1)]
            if turn_ids(got, "openai_responses") == ids:
                return a, b
    return None
