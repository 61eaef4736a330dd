"""Chat traces converted between reasoning representations (docs/behaviour.md#c1 to #c3).

Reading (#c1), per assistant message, first readable source wins:

1. the string fields ``reasoning_content``, ``reasoning``, then Ollama's ``thinking``;
2. OpenRouter ``reasoning_details`` (the ``text`` of ``reasoning.text`` items and the
   ``summary`` of ``reasoning.summary`` items);
3. thinking blocks in a ``content`` list: Anthropic ``{"type": "thinking", "thinking": str}``
   and Mistral ``{"type": "thinking", "thinking": [{"type": "text", "text": str}, ...]}``;
4. inline tags in the text (a string ``content``, or the text parts of a list joined with
   ``""``), split with ``split_think(..., start_in_reasoning="auto")`` unless the caller passes
   other think options.

Decisions where the rules are silent:

* "Readable" means not whitespace-only.  Several segments of one source (thinking blocks,
  details items) are joined with ``"\\n\\n"`` (#p2).  When no source is readable but one is
  present (an empty field, an empty block, ``<think></think>``), the reasoning is ``""``, which
  the targets write as an empty field, block or tag pair (#c2); with no source it is ``None``.
* Inline tags are looked for only when no field or block is readable.  The reasoning read is
  stripped.  The visible text is stripped only when inline tags were
  split (#p3); with a dedicated field or block the content text is kept as it is (#p4), tags
  included.  Every source is removed before the target is written (reasoning keys and thinking
  blocks), so a message never carries reasoning twice.
* ``content`` keeps its form for the ``reasoning_content``, ``reasoning``, ``think_tags`` and
  ``none`` targets: a string stays a string; a list keeps its other parts (images, audio) in
  place and its text parts become one text part (where the first one stood) holding the
  visible text, so multimodal traces are not flattened.  ``content_blocks`` always writes a
  list: the thinking block first, then the text part and the other parts.  ``None`` content
  stays ``None`` unless a tag pair has to be written.
* ``think_tags`` always writes ``<think>`` tags whatever tags were read.
* ``keep="last"``: the assistant messages after the last ``user`` message (all of them when
  there is none).  Assistant messages that do not keep their reasoning get the ``none`` target.
* Messages that are not assistant messages, and every key other than the content and the
  reasoning keys, are deep-copied, so the result never shares a mutable object with the input.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, Optional

from .._spec import SEPARATOR
from ..scan._think import split_think

TARGETS = ("reasoning_content", "reasoning", "think_tags", "content_blocks", "none")
KEEPS = ("all", "last", "none")
#: Reasoning keys read and removed, in the order they are read.
FIELDS = ("reasoning_content", "reasoning", "thinking")
DETAILS = "reasoning_details"
_DETAIL_KEYS = {"reasoning.text": "text", "reasoning.summary": "summary"}


class _Content:
    """One assistant message's content taken apart."""

    __slots__ = ("form", "others", "text", "text_at")

    def __init__(self, form: str, text: str, others: list[Any], text_at: int) -> None:
        self.form = form  # "str", "list" or "none"
        self.text = text  # the text parts joined
        self.others = others  # list form: the parts that are neither text nor thinking
        self.text_at = text_at  # where the text part goes among ``others``


def _shape(where: str, expected: str, value: Any) -> ValueError:
    return ValueError(f"{where} must be {expected}, not {type(value).__name__}")


def _as_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        data = dump()
        if isinstance(data, Mapping):
            return data
    raise TypeError(f"{where} must be a Mapping (a chat message), not {type(value).__name__}")


def _thinking_text(value: Any, where: str) -> str:
    """The text of a thinking block's ``thinking``: a string or Mistral text chunks."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        parts = []
        for j, chunk in enumerate(value):
            if isinstance(chunk, str):
                parts.append(chunk)
                continue
            if not isinstance(chunk, Mapping):
                raise _shape(f"{where}[{j}]", "an object", chunk)
            text = chunk.get("text")
            if text is not None and not isinstance(text, str):
                raise _shape(f"{where}[{j}].text", "a string", text)
            parts.append(text or "")
        return "".join(parts)
    raise _shape(where, "a string or an array", value)


def _read_content(content: Any, where: str) -> tuple[_Content, Optional[list[str]]]:
    """The content, and the thinking-block segments (``None`` when there is no block)."""
    if isinstance(content, str):
        return _Content("str", content, [], 0), None
    if content is None:
        return _Content("none", "", [], 0), None
    if not isinstance(content, (list, tuple)):
        raise _shape(f"{where}.content", "a string, an array or null", content)
    texts: list[str] = []
    others: list[Any] = []
    blocks: Optional[list[str]] = None
    text_at = -1
    for j, part in enumerate(content):
        pwhere = f"{where}.content[{j}]"
        if isinstance(part, str):
            texts.append(part)
            text_at = len(others) if text_at < 0 else text_at
            continue
        if not isinstance(part, Mapping):
            raise _shape(pwhere, "an object or a string", part)
        kind = part.get("type")
        if kind == "thinking":
            blocks = [] if blocks is None else blocks
            blocks.append(_thinking_text(part.get("thinking"), f"{pwhere}.thinking"))
        elif kind == "text" or (kind is None and "text" in part):
            text = part.get("text")
            if text is not None and not isinstance(text, str):
                raise _shape(f"{pwhere}.text", "a string", text)
            texts.append(text or "")
            text_at = len(others) if text_at < 0 else text_at
        else:
            others.append(part)
    return _Content("list", "".join(texts), others, max(text_at, 0)), blocks


def _details(value: Any, where: str) -> Optional[list[str]]:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise _shape(where, "an array", value)
    segs = []
    for j, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise _shape(f"{where}[{j}]", "an object", item)
        kind = item.get("type")
        key = _DETAIL_KEYS.get(kind) if isinstance(kind, str) else None
        if key is not None:
            text = item.get(key)
            if text is not None and not isinstance(text, str):
                raise _shape(f"{where}[{j}].{key}", "a string", text)
            segs.append(text or "")
    return segs if segs else None


def _joined(segments: list[str]) -> str:
    return SEPARATOR.join(s.strip() for s in segments if s.strip())


def read_message(
    m: Mapping[str, Any], where: str, options: dict[str, Any]
) -> tuple[Optional[str], str, _Content]:
    """``(reasoning, visible, content)`` of one assistant message (#c1)."""
    content, blocks = _read_content(m.get("content"), where)
    present = False
    for key in FIELDS:
        value = m.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise _shape(f"{where}.{key}", "a string or null", value)
        present = True
        if value.strip():
            return value.strip(), content.text, content
    for segs in (_details(m.get(DETAILS), f"{where}.{DETAILS}"), blocks):
        if segs is not None:
            present = True
            if _joined(segs):
                return _joined(segs), content.text, content
    if content.text:
        s = split_think(content.text, **options)
        if s.reasoning is not None or s.visible != content.text:
            reasoning = None if s.reasoning is None else s.reasoning.strip()
            if reasoning is not None or not present:
                return reasoning, s.visible.strip(), content
    return ("" if present else None), content.text, content


def _content_out(content: _Content, visible: str) -> Any:
    """The content in its own form with ``visible`` as its text (no reasoning)."""
    if content.form == "str":
        return visible
    if content.form == "none":
        return visible or None
    parts = list(content.others)
    if visible or not parts:
        parts.insert(content.text_at, {"type": "text", "text": visible})
    return parts


def write_message(
    m: Mapping[str, Any], reasoning: Optional[str], visible: str, content: _Content, to: str
) -> dict[str, Any]:
    """A new message in the target form ``to`` (#c2)."""
    new = {
        k: copy.deepcopy(v)
        for k, v in m.items()
        if k not in FIELDS and k != DETAILS and k != "content"
    }
    keys = list(m.keys())
    others = [copy.deepcopy(p) for p in content.others]
    content = _Content(content.form, content.text, others, content.text_at)
    if to == "think_tags" and reasoning is not None:
        text = "<think>\n" + reasoning + "\n</think>\n\n" + visible
        body = text if content.form != "list" else _content_out(content, text)
    elif to == "content_blocks":
        parts = [] if reasoning is None else [{"type": "thinking", "thinking": reasoning}]
        if content.form == "none" and not visible and not parts:
            body = None
        else:
            rest = _content_out(_Content("list", "", content.others, content.text_at), visible)
            if not visible and parts:
                rest = [p for p in rest if not (p.get("type") == "text" and not p["text"])]
            body = parts + rest
    else:
        body = _content_out(content, visible)
    if "content" in m or body is not None:
        new["content"] = body
    if reasoning is not None and to in ("reasoning_content", "reasoning"):
        new[to] = reasoning
    # The caller's key order: content where it was, a new key at the end.
    return {k: new[k] for k in [*keys, *new] if k in new}


def convert_trace(
    messages: Iterable[Mapping[str, Any]],
    /,
    *,
    to: str,
    keep: str = "all",
    **think_options: Any,
) -> list[dict[str, Any]]:
    """Rewrite a chat trace with its reasoning in one representation (docs/behaviour.md#c2).

    Args:
        messages: a sequence of chat messages (mappings, or objects with ``model_dump()``);
            left untouched.
        to: the target: ``"reasoning_content"``, ``"reasoning"`` (string field beside
            ``content``), ``"think_tags"`` (``<think>`` tags before the answer),
            ``"content_blocks"`` (a thinking block then the text), or ``"none"`` (dropped).
        keep: which assistant messages keep their reasoning: ``"all"``, ``"last"`` (those after
            the last user message, as chat templates render them) or ``"none"``.
        **think_options: options of :func:`~thinkparse.split_think` for inline tags;
            ``start_in_reasoning`` defaults to ``"auto"`` here.

    Returns:
        A new list of new dicts; tool calls, tool messages and other keys are copied.

    Raises:
        TypeError: ``messages`` is not a sequence of mappings (the message is named, as in
            ``messages[3]``).
        ValueError: an unknown ``to`` or ``keep``, an invalid think option, or a field of the
            wrong type, named by its path (``messages[3].content``).

    >>> convert_trace([{"role": "assistant", "content": "<think>add</think>4"}],
    ...               to="reasoning_content")
    [{'role': 'assistant', 'content': '4', 'reasoning_content': 'add'}]
    """
    if to not in TARGETS:
        raise ValueError(f"to must be one of {', '.join(map(repr, TARGETS))}, not {to!r}")
    if keep not in KEEPS:
        raise ValueError(f"keep must be one of {', '.join(map(repr, KEEPS))}, not {keep!r}")
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
        raise TypeError(
            f"messages must be a sequence of chat messages, not {type(messages).__name__}"
        )
    options = dict(think_options)
    options.setdefault("start_in_reasoning", "auto")
    split_think("", **options)  # validates the options even for a trace without tags
    msgs = [_as_mapping(m, f"messages[{i}]") for i, m in enumerate(messages)]
    first_kept = 0
    if keep == "last":
        for i, m in enumerate(msgs):
            if m.get("role") == "user":
                first_kept = i + 1
    out: list[dict[str, Any]] = []
    for i, m in enumerate(msgs):
        if m.get("role") != "assistant":
            out.append(copy.deepcopy(dict(m)))
            continue
        reasoning, visible, content = read_message(m, f"messages[{i}]", options)
        kept = keep == "all" or (keep == "last" and i >= first_kept)
        out.append(write_message(m, reasoning, visible, content, to if kept else "none"))
    return out
