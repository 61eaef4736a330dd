"""Chat transcripts: the one reader of a message's reasoning and visible text (P10, C1).

A chat transcript is a list of chat messages (mappings or SDK objects, P7).  Every function
that reads one -- ``reasoning_from_trace``, ``split_trace`` and ``convert_trace`` -- reads
each assistant message with :func:`read_message`, so the three agree on what a message's
reasoning and visible text are, whatever the source.

The sources, in the order they are read; the first **readable** one (with a non-whitespace
character) wins and the others are not read for reasoning:

1. ``reasoning_content`` -- a string field (DeepSeek, vLLM, SGLang, llama.cpp...);
2. ``reasoning`` -- a string field (Groq, Cerebras, OpenRouter, newer vLLM...);
3. ``thinking`` -- a string field (Ollama);
4. ``reasoning_details`` -- OpenRouter: the ``text`` of ``reasoning.text`` items and the
   ``summary`` of ``reasoning.summary`` items; items with the same ``index`` are pieces of one
   segment, joined with nothing; ``reasoning.encrypted`` items cannot be read;
5. thinking blocks in a ``content`` list -- Anthropic ``{"type": "thinking", "thinking": str}``
   and Mistral ``{"type": "thinking", "thinking": [{"type": "text", "text": str}, ...]}``;
6. inline tags in the content text -- a string ``content``, or the text parts of a content list
   joined with nothing -- split with ``split_think(text, start_in_reasoning="auto")``, or with
   the caller's think options.

Decisions where docs/behaviour.md is silent:

* Reasoning is stripped.  Several segments of one source (details items, thinking blocks) are
  stripped one by one, whitespace-only ones dropped, and joined with ``"\\n\\n"`` (P2).
* The visible text is the content text.  It is stripped only when inline markup was split
  (P3); when a field or block wins, inline markup is not looked for and the content text is
  kept as it is, tags included (P4).
* When no source is readable but one is present (an empty or whitespace-only field, an empty
  thinking block, ``<think></think>``), the reasoning is ``""``; with no source at all it is
  ``None``.  ``convert_trace`` writes ``""`` as an empty field, block or tag pair (C2);
  ``reasoning_from_trace`` reports both as ``None`` (P10).
* Every reasoning field and the content are type-checked, whichever source wins, so the three
  functions raise the same :class:`~thinkparse.ResponseShapeError` (its ``.path`` names the
  field, as in ``messages[3].content[0].text``) for the same malformed message (P8).
* A content-list item that is neither text nor a thinking block (an image, a tool call, a
  redacted block) is neither reasoning nor visible text; :class:`Content` keeps it, in order,
  for the writer of ``convert_trace``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Optional

from .._spec import SEPARATOR
from ..providers._access import Where, convert, item_map, opt_list, opt_str, shape_error
from ..providers.openai_chat import details, thinking_text
from ..scan._think import split_think

#: The string fields that hold reasoning, in the order they are read (sources 1-3).
FIELDS = ("reasoning_content", "reasoning", "thinking")
#: OpenRouter's list of reasoning items (source 4).
DETAILS = "reasoning_details"
#: The ``source`` of a :class:`Reading`, in the order the sources are read.
SOURCES = (*FIELDS, DETAILS, "blocks", "tags")
#: The think options of a reader that was given none.
AUTO: dict[str, Any] = {"start_in_reasoning": "auto"}
_DETAIL_TYPES = ("reasoning.text", "reasoning.summary")
_NOT_PARTS = (bytes, int, float, list, tuple)


class Content(NamedTuple):
    """One message's ``content`` taken apart (the writer of ``convert_trace`` puts it back)."""

    #: ``"str"``, ``"list"`` or ``"none"`` (``None`` or absent).
    form: str
    #: The text: the string, or the text parts of the list joined with nothing.
    text: str
    #: List form: the parts that are neither text nor thinking blocks, in order.
    others: tuple[Any, ...]
    #: List form: where the text part stood among ``others``.
    text_at: int
    #: The text of each thinking block, as read (``None`` when there is no thinking block).
    blocks: Optional[tuple[str, ...]]


class Reading(NamedTuple):
    """What one message holds: its reasoning, its visible text and where the reasoning was."""

    #: Stripped reasoning; ``""`` when a source is present but none is readable; ``None``
    #: when there is no source.
    reasoning: Optional[str]
    #: The visible text (stripped only when inline markup was split).
    visible: str
    #: The source that gave the reasoning (one of :data:`SOURCES`), or ``None``.  ``"tags"``
    #: whenever inline markup was split, even when it held no reasoning.
    source: Optional[str]
    #: The content taken apart.
    content: Content


def messages_of(messages: Any, what: str) -> list[Mapping[str, Any]]:
    """The messages of a transcript as mappings (P7).

    Raises:
        TypeError: ``messages`` is not a sequence (a ``str``, ``bytes`` or mapping is not), or
            a message is neither a mapping nor an object with ``model_dump()`` / ``to_dict()``;
            the message names the function (``what``) and the index.
    """
    if isinstance(messages, (str, bytes, Mapping)) or not isinstance(messages, Iterable):
        raise TypeError(
            f"{what} takes a sequence of chat messages, not {type(messages).__name__}"
        )
    out = []
    for i, m in enumerate(messages):
        d = convert(m)
        if d is None:
            raise TypeError(
                f"{what}: messages[{i}] must be a Mapping (a chat message), "
                f"not {type(m).__name__}"
            )
        out.append(d)
    return out


def read_content(value: Any, where: Where) -> Content:
    """A message's ``content`` taken apart: text parts, thinking blocks and the other parts."""
    if isinstance(value, str):
        return Content("str", value, (), 0, None)
    if value is None:
        return Content("none", "", (), 0, None)
    if not isinstance(value, (list, tuple)):
        raise shape_error(where, "content", "a string, an array or null", value)
    cwhere = (where, "content")
    texts: list[str] = []
    others: list[Any] = []
    blocks: Optional[list[str]] = None
    text_at = -1
    for j, part in enumerate(value):
        if isinstance(part, str):
            texts.append(part)
            text_at = len(others) if text_at < 0 else text_at
            continue
        if type(part) is not dict:
            mapped = None if isinstance(part, _NOT_PARTS) else convert(part)
            if mapped is None:
                raise shape_error(cwhere, j, "an object or a string", part)
            part = mapped
        kind = part.get("type")
        if kind == "thinking":
            blocks = [] if blocks is None else blocks
            blocks.append(thinking_text(part.get("thinking"), (cwhere, j)))
        elif kind == "text" or (kind is None and "text" in part):
            texts.append(opt_str(part, "text", (cwhere, j)) or "")
            text_at = len(others) if text_at < 0 else text_at
        else:
            others.append(part)
    return Content(
        "list",
        "".join(texts),
        tuple(others),
        max(text_at, 0),
        None if blocks is None else tuple(blocks),
    )


def _details(m: Mapping[str, Any], where: Where) -> Optional[list[str]]:
    """The segments of ``reasoning_details`` (``None`` when it has no readable kind of item)."""
    items = opt_list(m, DETAILS, where)
    if not items:
        return None
    segments = details(items, (where, DETAILS))[0]
    if segments:
        return segments
    dwhere = (where, DETAILS)
    kinds = (item_map(e, dwhere, j).get("type") for j, e in enumerate(items))
    return [] if any(k in _DETAIL_TYPES for k in kinds) else None


def _joined(segments: Sequence[str]) -> str:
    return SEPARATOR.join(s.strip() for s in segments if s and not s.isspace())


def read_message(
    m: Mapping[str, Any], where: Where, options: Optional[Mapping[str, Any]] = None
) -> Reading:
    """The reasoning and visible text of one message, from the first readable source (C1).

    Args:
        m: the message, as a mapping.
        where: its JSON path (``"messages[3]"``), for errors.
        options: think options for inline tags (validated by the caller); ``None`` means
            ``start_in_reasoning="auto"`` alone.

    Raises:
        ResponseShapeError: a reasoning field or the content has the wrong type.
    """
    fields = [opt_str(m, key, where) for key in FIELDS]
    segments = _details(m, where)
    content = read_content(m.get("content"), where)
    present = False
    for key, value in zip(FIELDS, fields):
        if value is not None:
            present = True
            if value and not value.isspace():
                return Reading(value.strip(), content.text, key, content)
    for source, segs in ((DETAILS, segments), ("blocks", content.blocks)):
        if segs is not None:
            present = True
            joined = _joined(segs)
            if joined:
                return Reading(joined, content.text, source, content)
    if content.text:
        s = split_think(content.text, **(AUTO if options is None else options))
        if s.reasoning is not None or s.visible != content.text:
            if s.reasoning is not None:
                reasoning: Optional[str] = s.reasoning.strip()
            else:
                reasoning = "" if present else None
            return Reading(reasoning, s.visible.strip(), "tags", content)
    return Reading("" if present else None, content.text, None, content)


def reasoning_from_trace(messages: Any, /) -> Optional[str]:
    """The reasoning of the final assistant message of a chat transcript (P10).

    The message is read as :func:`thinkparse.convert_trace` reads it (C1): the first readable
    source of ``reasoning_content``, ``reasoning``, ``thinking`` (Ollama), ``reasoning_details``
    (OpenRouter), thinking blocks in a content list (Anthropic, Mistral), then inline tags in
    the content text (``start_in_reasoning="auto"``).

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
    msgs = messages_of(messages, "reasoning_from_trace()")
    for i in range(len(msgs) - 1, -1, -1):
        if msgs[i].get("role") == "assistant":
            return read_message(msgs[i], ("messages", i)).reasoning or None
    return None


def split_trace(messages: Any, /, **think_options: Any) -> list[dict[str, Any]]:
    """Move inline reasoning of assistant messages into ``reasoning_content`` (P10).

    Each assistant message is read as :func:`thinkparse.convert_trace` reads it (C1).  When its
    reasoning comes from inline tags in a string ``content`` (no field or thinking block is
    readable), ``content`` becomes the visible text and ``reasoning_content`` the reasoning;
    other messages are copied as they are.

    Args:
        messages: a sequence of chat messages (mappings or SDK objects); left untouched.
        **think_options: options of :func:`~thinkparse.split_think`;
            ``start_in_reasoning`` defaults to ``"auto"`` here.

    Returns:
        A new list of new dicts (shallow copies).  A message whose tags held no reasoning (an
        empty block) gets only its new ``content``; a whitespace-only ``reasoning_content`` is
        replaced.  A message with a readable field or thinking block keeps its content, tags
        included, as :func:`~thinkparse.normalize` does (P4).

    Raises:
        TypeError: ``messages`` is not a sequence, or a message is not a mapping.
        ValueError: an invalid option, named in the message.
        ResponseShapeError: a reasoning or content field of an assistant message has the wrong
            type; ``.path`` names it.

    >>> split_trace([{"role": "assistant", "content": "<think>add</think>4"}])
    [{'role': 'assistant', 'content': '4', 'reasoning_content': 'add'}]
    """
    options = {**AUTO, **think_options}
    split_think("", **options)  # validates the options even for an empty transcript
    out: list[dict[str, Any]] = []
    for i, m in enumerate(messages_of(messages, "split_trace()")):
        new = dict(m)
        if m.get("role") == "assistant":
            r = read_message(m, ("messages", i), options)
            if r.source == "tags" and r.content.form == "str":
                new["content"] = r.visible
                if r.reasoning:
                    new["reasoning_content"] = r.reasoning
        out.append(new)
    return out
