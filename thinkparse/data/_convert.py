"""Chat transcripts rewritten with their reasoning in one representation (docs/behaviour.md#c2).

Each assistant message is read by :func:`thinkparse.data._transcript.read_message`, the reader
``reasoning_from_trace`` and ``split_trace`` use too (#c1, #p10; the order of the sources and
the decisions of the reading are listed there), then written in the target form (#c2).

Decisions where the rules are silent:

* Every source is removed before the target is written (the reasoning fields,
  ``reasoning_details`` and thinking blocks), so a message never carries reasoning twice.  The
  reasoning ``""`` (a source present, none readable) is written as an empty field, block or tag
  pair; ``None`` (no source) writes nothing (#c2).
* For the ``reasoning_content``, ``reasoning``, ``think_tags`` and ``none`` targets, a list
  that holds only text parts (once its thinking blocks are taken out) becomes a string, the
  visible text: chat templates test ``content is string`` (Qwen's renders anything else as
  ``''``), so fine-tuning data must carry strings.  This holds for every assistant message of
  the conversion, those that drop their reasoning under ``keep`` included, so one transcript
  never mixes the two forms.  A list with other parts (images, audio, redacted blocks) keeps
  its form: the other parts stay in place and the text parts become one text part (where the
  first one stood) holding the visible text, so multimodal transcripts are not flattened.  A
  string stays a string.  ``content_blocks`` always writes a list: the thinking block first,
  then the text part and the other parts.  ``None`` content stays ``None`` unless a tag pair
  has to be written.
* ``think_tags`` always writes ``<think>`` tags whatever tags were read.
* ``keep="last"``: the assistant messages after the last ``user`` message (all of them when
  there is none).  Assistant messages that do not keep their reasoning get the ``none`` target.
* Messages that are not assistant messages, and every key other than the content and the
  reasoning keys, are deep-copied, so the result never shares a mutable object with the input.
  A cyclic value is copied with its cycle; a value nested too deeply to copy raises
  :class:`~thinkparse.ResponseShapeError` naming its key (``messages[3].tool_calls``, or
  ``messages[3].content`` for a content part).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, Optional

from .._errors import ResponseShapeError
from ..scan._think import split_think
from ._transcript import AUTO, DETAILS, FIELDS, Content, messages_of, read_message

TARGETS = ("reasoning_content", "reasoning", "think_tags", "content_blocks", "none")
KEEPS = ("all", "last", "none")
#: The keys a message's reasoning is read from, all removed before the target is written.
REASONING_KEYS = (*FIELDS, DETAILS)


def _copy(value: Any, where: str, memo: dict[int, Any]) -> Any:
    """A deep copy of ``value``; ``ResponseShapeError`` at ``where`` when too deep to copy.

    ``memo`` is shared by the values of one message, so what they share stays shared.
    """
    try:
        return copy.deepcopy(value, memo)
    except RecursionError:
        raise ResponseShapeError(where, "nested too deeply to copy") from None


def copy_message(
    m: Mapping[str, Any], where: str, memo: Optional[dict[int, Any]] = None
) -> dict[str, Any]:
    """A deep copy of a message, key by key (errors name the key)."""
    memo = {} if memo is None else memo
    return {k: _copy(v, f"{where}.{k}", memo) for k, v in m.items()}


def _content_out(content: Content, visible: str) -> Any:
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
    m: Mapping[str, Any], reasoning: Optional[str], visible: str, content: Content, to: str,
    where: str = "message",
) -> dict[str, Any]:
    """A new message in the target form ``to`` (#c2); ``where`` is its path, for errors."""
    memo: dict[int, Any] = {}
    new = copy_message(
        {k: v for k, v in m.items() if k not in REASONING_KEYS and k != "content"}, where, memo
    )
    keys = list(m.keys())
    others = tuple(_copy(p, f"{where}.content", memo) for p in content.others)
    form = content.form
    if form == "list" and not others and to != "content_blocks":
        form = "str"  # only text parts: a string, as chat templates expect (#c2)
    content = Content(form, content.text, others, content.text_at, content.blocks)
    if to == "think_tags" and reasoning is not None:
        text = "<think>\n" + reasoning + "\n</think>\n\n" + visible
        body = text if content.form != "list" else _content_out(content, text)
    elif to == "content_blocks":
        parts = [] if reasoning is None else [{"type": "thinking", "thinking": reasoning}]
        if content.form == "none" and not visible and not parts:
            body = None
        else:
            rest = _content_out(Content("list", "", others, content.text_at, None), visible)
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
    """Rewrite a chat transcript with its reasoning in one representation (docs/behaviour.md#c2).

    Each assistant message is read as :func:`~thinkparse.reasoning_from_trace` and
    :func:`~thinkparse.split_trace` read it (#c1): the first readable source of
    ``reasoning_content``, ``reasoning``, ``thinking`` (Ollama), ``reasoning_details``
    (OpenRouter), thinking blocks in a content list (Anthropic, Mistral), then inline tags.

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
        ValueError: an unknown ``to`` or ``keep``, or an invalid think option.
        ResponseShapeError: a reasoning or content field of an assistant message has the wrong
            type (a ``ValueError`` too); ``.path`` names it (``messages[3].content``).

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
    options = {**AUTO, **think_options}
    split_think("", **options)  # validates the options even for a transcript without tags
    msgs = messages_of(messages, "convert_trace()")
    first_kept = 0
    if keep == "last":
        for i, m in enumerate(msgs):
            if m.get("role") == "user":
                first_kept = i + 1
    out: list[dict[str, Any]] = []
    for i, m in enumerate(msgs):
        if m.get("role") != "assistant":
            out.append(copy_message(m, f"messages[{i}]"))
            continue
        r = read_message(m, ("messages", i), options)
        kept = keep == "all" or (keep == "last" and i >= first_kept)
        target = to if kept else "none"
        out.append(write_message(m, r.reasoning, r.visible, r.content, target, f"messages[{i}]"))
    return out
