"""Chat traces: lists of chat messages (P10).

Decisions where docs/behaviour.md is silent:

* The "final assistant message" is the last message whose ``role`` is ``"assistant"``, wherever
  it stands (later ``tool`` or ``user`` messages do not hide it).
* Its reasoning is taken from the first source that is readable, in this order:
  ``reasoning_content``, ``reasoning``, OpenRouter ``reasoning_details``, thinking blocks in a
  ``content`` list (Anthropic ``{type: "thinking", thinking}`` and Mistral chunks; several are
  joined with ``"\\n\\n"``), then inline tags in the content text (``split_think`` with
  ``start_in_reasoning="auto"``; the text parts of a content list are concatenated first).
* ``split_trace`` splits with ``start_in_reasoning="auto"`` unless the caller passes another
  value; the visible content and the extracted reasoning are stripped (as P3 does).  A
  whitespace-only existing ``reasoning_content`` is replaced rather than appended to.  Only
  messages whose content had a tag are changed; when no reasoning came out (an empty block, or
  an orphan closer with ``start_in_reasoning=False``) only ``content`` changes.
* Messages may be mappings or SDK objects (P7); every message of the result is a new ``dict``
  (a shallow copy).  Anything else raises ``TypeError`` naming the index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional

from .._spec import SEPARATOR
from ..providers._access import Where, convert, item_map, opt_list, opt_str, readable, shape_error
from ..providers.openai_chat import details, thinking_text
from ..scan._think import split_think


def _messages(messages: Any, what: str) -> list[Mapping[str, Any]]:
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
        raise TypeError(
            f"{what} takes a sequence of chat messages, not {type(messages).__name__}"
        )
    out = []
    for i, m in enumerate(messages):
        d = convert(m)
        if d is None:
            raise TypeError(
                f"{what}: messages[{i}] must be a Mapping or an object with model_dump(), "
                f"not {type(m).__name__}"
            )
        out.append(d)
    return out


def _content_reasoning(content: Any, where: Where) -> Optional[str]:
    if isinstance(content, str):
        text = content
    elif isinstance(content, (list, tuple)):
        blocks = []
        texts = []
        cwhere = (where, "content")
        for j, part in enumerate(content):
            if isinstance(part, str):
                texts.append(part)
                continue
            part = item_map(part, cwhere, j)
            t = part.get("type")
            if t == "thinking":
                b = thinking_text(part.get("thinking"), (cwhere, j)).strip()
                if b:
                    blocks.append(b)
            elif t == "text" or (t is None and "text" in part):
                texts.append(opt_str(part, "text", (cwhere, j)) or "")
        if blocks:
            return SEPARATOR.join(blocks)
        text = "".join(texts)
    elif content is None:
        return None
    else:
        raise shape_error(where, "content", "a string, an array or null", content)
    if "<" not in text:
        return None
    r = split_think(text, start_in_reasoning="auto").reasoning
    r = r.strip() if r is not None else None
    return r or None


def reasoning_from_trace(messages: Any, /) -> Optional[str]:
    """The reasoning of the final assistant message of a chat trace (P10).

    Args:
        messages: a sequence of chat messages (mappings or SDK objects).

    Returns:
        The reasoning, stripped; ``None`` when there is no assistant message or its reasoning is
        absent or whitespace-only.

    Raises:
        TypeError: ``messages`` is not a sequence, or a message is not a mapping.
        ResponseShapeError: a reasoning or content field of the final assistant message has the
            wrong type; ``.path`` names it (``"messages[3].reasoning_content"``).

    >>> reasoning_from_trace([{"role": "user", "content": "2+2?"},
    ...                       {"role": "assistant", "content": "<think>add</think>4"}])
    'add'
    """
    msgs = _messages(messages, "reasoning_from_trace()")
    for i in range(len(msgs) - 1, -1, -1):
        m = msgs[i]
        if m.get("role") != "assistant":
            continue
        where = f"messages[{i}]"
        for key in ("reasoning_content", "reasoning"):
            text = opt_str(m, key, where)
            if readable(text):
                return text.strip()  # type: ignore[union-attr]
        items = opt_list(m, "reasoning_details", where)
        if items:
            segs = details(items, (where, "reasoning_details"))[0]
            joined = SEPARATOR.join(s.strip() for s in segs if readable(s))
            if joined:
                return joined
        return _content_reasoning(m.get("content"), where)
    return None


def split_trace(messages: Any, /, **think_options: Any) -> list[dict[str, Any]]:
    """Move inline reasoning of assistant messages into ``reasoning_content`` (P10).

    Args:
        messages: a sequence of chat messages (mappings or SDK objects); left untouched.
        **think_options: options of :func:`~thinkparse.split_think`;
            ``start_in_reasoning`` defaults to ``"auto"`` here.

    Returns:
        A new list of new dicts.  Each assistant message whose string ``content`` has inline
        tags gets ``content`` = the visible text and ``reasoning_content`` = the reasoning
        (appended with ``"\\n\\n"`` to an existing non-empty ``reasoning_content``); other
        messages are copied as they are.

    Raises:
        TypeError: ``messages`` is not a sequence, or a message is not a mapping.
        ValueError: an invalid option, named in the message.

    >>> split_trace([{"role": "assistant", "content": "<think>add</think>4"}])
    [{'role': 'assistant', 'content': '4', 'reasoning_content': 'add'}]
    """
    options = dict(think_options)
    options.setdefault("start_in_reasoning", "auto")
    split_think("", **options)  # validates the options even for an empty trace
    out: list[dict[str, Any]] = []
    for m in _messages(messages, "split_trace()"):
        new = dict(m)
        content = new.get("content")
        if new.get("role") == "assistant" and isinstance(content, str):
            s = split_think(content, **options)
            if s.reasoning is not None or s.visible != content:
                new["content"] = s.visible.strip()
            if s.reasoning is not None:
                r = s.reasoning.strip()
                if r:
                    old = new.get("reasoning_content")
                    if isinstance(old, str) and old.strip():
                        new["reasoning_content"] = old + SEPARATOR + r
                    else:
                        new["reasoning_content"] = r
        out.append(new)
    return out
