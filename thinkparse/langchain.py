"""LangChain: ``ThinkSplitter``, a Runnable that separates reasoning, and ``TraceStoreCallback``.

Install with ``pip install 'thinkparse[langchain]'`` (langchain-core 1.0 or newer); importing this
module without it raises ``ImportError`` naming that extra.  ``import thinkparse`` never imports
langchain.  Rules: docs/behaviour.md#w5 (and #s1, #p13, #d5, #b1).

``ThinkSplitter(**think_options)`` sits after a chat model (``llm | ThinkSplitter() | parser``)
and gives back the message type it was given -- ``AIMessage``, ``AIMessageChunk`` or ``str`` --
with the visible text in ``content`` and the reasoning in
``additional_kwargs["reasoning_content"]``, the field langchain-core itself reads reasoning from
(``ChatDeepSeek``, ``ChatOllama``, ``ChatXAI``...).

Decisions where the rules are silent:

* **content_blocks.**  langchain-core builds a message's standard blocks with the translator
  registered for ``response_metadata["model_provider"]`` and falls back to best-effort parsing,
  which turns ``reasoning_content`` into a ``reasoning`` block, only when no translator is
  registered.  The ``openai`` translator (``ChatOpenAI`` output) reads Chat Completions content
  and tool calls, never ``reasoning_content``.  So, through ``register_translator`` (the
  registry's public entry for translators from outside langchain-core), the translator of each
  provider whose messages come out of a ``ThinkSplitter`` with reasoning is wrapped once, in the
  process, by one that adds ``{"type": "reasoning", "reasoning": text}`` first when the message
  carries a ``reasoning_content`` string and the translator produced no reasoning block -- what
  the fallback does for unknown providers.  For any other message the wrapper's output is the
  translator's own.  ``model_provider`` is left as it is (token counting and merging read it).
* **Options.**  Given options apply to every message; without them the preset of the message's
  model (``response_metadata["model_name"]`` or ``["model"]``, ``preset_for_model``, P13), else
  the defaults.  ``start_in_reasoning="auto"`` is refused: plain and streamed messages use the
  same options, so that a stream and its whole message split alike (S1).  In a stream the model
  name counts when a chunk before the first text carries it; ``ChatOpenAI`` sends it with the
  last chunk only, so for a stream from a model whose template opens the block (DeepSeek-R1,
  Qwen3 thinking models, MiniMax) pass ``preset=`` (``preset_for_model(llm.model_name)``).
* **Reasoning already separated.**  A message whose ``additional_kwargs["reasoning_content"]``
  is a non-empty string, or whose list content holds a ``reasoning`` or ``thinking`` block, is
  returned as it is.  In a stream, from the first chunk that carries such reasoning on, chunks
  pass through untouched; text the scanner still holds goes out first, in a chunk of its own.
* **Messages.**  The copy is ``model_copy`` with a new ``content`` (and a new
  ``additional_kwargs`` when there is reasoning): ids, tool calls, ``response_metadata`` and
  ``usage_metadata`` are the message's own, and the message given is never changed.  A message
  without markup comes back as the same object.  ``reasoning_content`` is set only when the
  reasoning is not empty, in both modes, so the sum of a stream's chunks equals the split of the
  whole message.  List content: the text of its text blocks goes through one scanner, in order;
  other blocks are kept.  A ``str`` gives its visible text (there is no place for reasoning).
* **Streams** (``transform``, ``atransform``, and so ``llm.stream`` in a chain): the first item
  fixes the kind -- chunks, whole messages or strings -- and an item of another kind is a
  ``TypeError``.  Each chunk gives one chunk out; text the scanner holds (a partial tag) goes
  out with the chunk marked ``chunk_position="last"``, else in one more chunk (with the last
  chunk's id) when the input ends.  A chunk whose text passes through unchanged is yielded as
  is.  Each call has its own scanner, so a splitter may serve concurrent streams.

``TraceStoreCallback`` decisions are in its docstring (:class:`TraceStoreCallback`).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, Callable, Optional

from thinkparse import Delta, ThinkScanner, split_think

from .frameworks._options import NO_OPTIONS, check_options, model_of, options_for

try:
    from langchain_core.messages import AIMessage, AIMessageChunk
    from langchain_core.messages.block_translators import get_translator, register_translator
    from langchain_core.runnables import Runnable
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without langchain
    raise ImportError(
        "thinkparse.langchain needs langchain-core 1.0 or newer: "
        "pip install 'thinkparse[langchain]'"
    ) from exc
if not hasattr(Runnable, "_transform_stream_with_config"):  # pragma: no cover
    raise ImportError(
        "thinkparse.langchain needs langchain-core 1.0 or newer: "
        "pip install 'thinkparse[langchain]'"
    )

from .frameworks._langchain_callback import TraceStoreCallback  # after the checks above

__all__ = ["ThinkSplitter", "TraceStoreCallback"]


def _has_reasoning(message: Any) -> bool:
    """Whether the message's reasoning is separated already (a field or a block)."""
    reasoning = message.additional_kwargs.get("reasoning_content")
    if isinstance(reasoning, str) and reasoning:
        return True
    content = message.content
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") in ("reasoning", "thinking") for b in content
    )


# --- content_blocks: a reasoning block for every provider ----------------------------------------
_WRAPPED: set[str] = set()
_WRAP_LOCK = threading.Lock()


def _with_reasoning(translate: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
    def translate_with_reasoning(message: Any) -> list[Any]:
        blocks = translate(message)
        reasoning = message.additional_kwargs.get("reasoning_content")
        if isinstance(reasoning, str) and not any(
            isinstance(b, dict) and b.get("type") == "reasoning" for b in blocks
        ):
            blocks.insert(0, {"type": "reasoning", "reasoning": reasoning})
        return blocks

    translate_with_reasoning.thinkparse_wrapped = translate  # type: ignore[attr-defined]
    return translate_with_reasoning


def reasoning_blocks(message: Any) -> None:
    """Make ``message.content_blocks`` show its ``reasoning_content`` (module docstring)."""
    provider = message.response_metadata.get("model_provider")
    if not isinstance(provider, str) or provider in _WRAPPED:
        return
    with _WRAP_LOCK:
        translator = get_translator(provider)
        if translator is not None and not hasattr(
            translator["translate_content"], "thinkparse_wrapped"
        ):
            register_translator(
                provider,
                _with_reasoning(translator["translate_content"]),
                _with_reasoning(translator["translate_content_chunk"]),
            )
        _WRAPPED.add(provider)


# --- the split -----------------------------------------------------------------------------------
def _rewrite(message: Any, content: Any, reasoning: str) -> Any:
    update: dict[str, Any] = {"content": content}
    if reasoning:
        update["additional_kwargs"] = {**message.additional_kwargs, "reasoning_content": reasoning}
    out = message.model_copy(update=update)
    if reasoning:
        reasoning_blocks(out)
    return out


def _feed_blocks(scanner: Any, content: list[Any]) -> tuple[list[Any], str, bool]:
    """List content through ``scanner``: new blocks, the reasoning released, whether changed."""
    blocks: list[Any] = []
    reasoning: list[str] = []
    changed = False
    for block in content:
        if isinstance(block, str):
            out = scanner.feed(block)
            blocks.append(out.visible)
        elif isinstance(block, dict) and block.get("type") == "text" and isinstance(
            block.get("text"), str
        ):
            out = scanner.feed(block["text"])
            blocks.append({**block, "text": out.visible})
        else:
            blocks.append(block)
            continue
        reasoning.append(out.reasoning)
        changed = changed or out.visible != (block if isinstance(block, str) else block["text"])
    return blocks, "".join(reasoning), changed or any(reasoning)


def _append_text(blocks: list[Any], text: str) -> None:
    """Add released text to the last text part of list content."""
    for i in range(len(blocks) - 1, -1, -1):
        block = blocks[i]
        if isinstance(block, str):
            blocks[i] = block + text
            return
        if isinstance(block, dict) and block.get("type") == "text":
            blocks[i] = {**block, "text": block["text"] + text}
            return
    blocks.append({"type": "text", "text": text})


def split_message(message: Any, options: dict[str, Any]) -> Any:
    """One whole ``AIMessage`` (or chunk) split; the same object when nothing changes."""
    if _has_reasoning(message):
        if message.additional_kwargs.get("reasoning_content"):
            reasoning_blocks(message)
        return message
    content = message.content
    if isinstance(content, str):
        split = split_think(content, **options)
        if split.reasoning is None and split.visible == content:
            return message
        return _rewrite(message, split.visible, split.reasoning or "")
    scanner = ThinkScanner(**options)
    blocks, reasoning, changed = _feed_blocks(scanner, content)
    last = scanner.close()
    if last.visible:
        _append_text(blocks, last.visible)
    reasoning += last.reasoning
    if not (changed or last.visible or last.reasoning):
        return message
    return _rewrite(message, blocks, reasoning)


def _kind(item: Any) -> str:
    if isinstance(item, AIMessageChunk):
        return "chunk"
    if isinstance(item, AIMessage):
        return "message"
    if isinstance(item, str):
        return "text"
    raise TypeError(
        "ThinkSplitter takes an AIMessage, an AIMessageChunk or a str, "
        f"not {type(item).__name__}"
    )


class _Splitting:
    """The state of one stream: its kind, its scanner, the last chunk."""

    __slots__ = ("fixed", "kind", "last", "passthrough", "scanner")

    def __init__(self, fixed: Optional[dict[str, Any]]) -> None:
        self.fixed = fixed
        self.kind: Optional[str] = None
        self.scanner: Optional[Any] = None
        self.last: Any = None
        self.passthrough = False

    def item(self, item: Any) -> list[Any]:
        kind = _kind(item)
        if self.kind is None:
            self.kind = kind
        elif kind != self.kind:
            raise TypeError(f"ThinkSplitter: a {kind} item in a stream of {self.kind}s")
        if kind == "chunk":
            return self._chunk(item)
        if kind == "message":
            return [split_message(item, options_for(self.fixed, model_of(item.response_metadata)))]
        if self.scanner is None:
            self.scanner = ThinkScanner(**(self.fixed or NO_OPTIONS))
        return [self.scanner.feed(item).visible]

    def _chunk(self, chunk: Any) -> list[Any]:
        self.last = chunk
        if self.passthrough:
            return [chunk]
        if _has_reasoning(chunk):
            self.passthrough = True
            if chunk.additional_kwargs.get("reasoning_content"):
                reasoning_blocks(chunk)
            return [*self.finish(), chunk]
        content = chunk.content
        scanner = self.scanner
        if scanner is None:
            if not content:
                return [chunk]
            options = options_for(self.fixed, model_of(chunk.response_metadata))
            scanner = self.scanner = ThinkScanner(**options)
        is_last = chunk.chunk_position == "last"
        if isinstance(content, str):
            out: Delta = scanner.feed(content)
            visible, reasoning = out.visible, out.reasoning
            if is_last:
                self.scanner = None
                held = scanner.close()
                visible += held.visible
                reasoning += held.reasoning
            if visible is content and not reasoning:
                return [chunk]
            return [_rewrite(chunk, visible, reasoning)]
        blocks, reasoning, changed = _feed_blocks(scanner, content)
        if is_last:
            self.scanner = None
            held = scanner.close()
            if held.visible:
                _append_text(blocks, held.visible)
            reasoning += held.reasoning
            changed = changed or bool(held.visible or held.reasoning)
        return [_rewrite(chunk, blocks, reasoning)] if changed else [chunk]

    def finish(self) -> list[Any]:
        """What the scanner still holds, as one more item (nothing when it holds nothing)."""
        scanner, self.scanner = self.scanner, None
        if scanner is None:
            return []
        held = scanner.close()
        if self.kind == "text":
            return [held.visible] if held.visible else []
        if not (held.visible or held.reasoning):
            return []
        extra = {"reasoning_content": held.reasoning} if held.reasoning else {}
        out = AIMessageChunk(content=held.visible, additional_kwargs=extra, id=self.last.id)
        return [out]


class ThinkSplitter(Runnable):  # type: ignore[misc]
    """A Runnable that moves inline reasoning out of a chat model's messages (W5).

    ``llm | ThinkSplitter() | JsonOutputParser()``: every ``AIMessage`` / ``AIMessageChunk``
    comes back with the visible text in ``content`` and the reasoning in
    ``additional_kwargs["reasoning_content"]`` (and a ``reasoning`` block in
    ``content_blocks``); a ``str`` comes back as its visible text.  See the module docstring.

    Args:
        **think_options: ``tags``, ``delimiters``, ``start_in_reasoning`` (not ``"auto"``),
            ``code_aware``, ``max_tentative``, ``preset``, ``terminators``, ``answer``,
            ``prompt``; without them each message uses the preset of its model name (P13),
            else the defaults.

    Raises:
        TypeError: an unknown option.
        ValueError: an invalid option value.

    >>> from langchain_core.messages import AIMessage
    >>> ThinkSplitter().invoke(AIMessage("<think>add</think>4")).additional_kwargs
    {'reasoning_content': 'add'}
    """

    def __init__(self, **think_options: Any) -> None:
        self._fixed = check_options("ThinkSplitter", think_options)
        self.name = "ThinkSplitter"

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in (self._fixed or {}).items())
        return f"ThinkSplitter({options})"

    @property
    def InputType(self) -> Any:
        """The input type: a message or a string."""
        return Any

    @property
    def OutputType(self) -> Any:
        """The output type: the input's type."""
        return Any

    def _split(self, item: Any) -> Any:
        kind = _kind(item)
        if kind == "text":
            return split_think(item, **(self._fixed or NO_OPTIONS)).visible
        return split_message(item, options_for(self._fixed, model_of(item.response_metadata)))

    async def _asplit(self, item: Any) -> Any:
        return self._split(item)

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        """Split one message or string.

        Args:
            input: an ``AIMessage``, ``AIMessageChunk`` or ``str``.
            config: a ``RunnableConfig``.
            **kwargs: ignored, as LangChain passes them.

        Returns:
            The same type, with the reasoning moved out (the same object when there was none).

        Raises:
            TypeError: another type.
        """
        return self._call_with_config(self._split, input, config, run_type="parser")

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        """The async :meth:`invoke` (no I/O: it runs in the event loop).

        Args:
            input: an ``AIMessage``, ``AIMessageChunk`` or ``str``.
            config: a ``RunnableConfig``.
            **kwargs: ignored, as LangChain passes them.

        Returns:
            The same type, with the reasoning moved out.

        Raises:
            TypeError: another type.
        """
        return await self._acall_with_config(self._asplit, input, config, run_type="parser")

    def _transform(self, items: Iterator[Any]) -> Iterator[Any]:
        state = _Splitting(self._fixed)
        for item in items:
            yield from state.item(item)
        yield from state.finish()

    async def _atransform(self, items: AsyncIterator[Any]) -> AsyncIterator[Any]:
        state = _Splitting(self._fixed)
        async for item in items:
            for out in state.item(item):
                yield out
        for out in state.finish():
            yield out

    def transform(self, input: Iterator[Any], config: Any = None, **kwargs: Any) -> Iterator[Any]:
        """Split a stream of chunks (or messages, or strings) as it arrives (S1).

        Args:
            input: an iterator of ``AIMessageChunk`` (or ``AIMessage``, or ``str``) items.
            config: a ``RunnableConfig``.
            **kwargs: ignored.

        Returns:
            An iterator of items of the same type (see the module docstring).

        Raises:
            TypeError: an item of another type or kind.
        """
        yield from self._transform_stream_with_config(
            input, self._transform, config, run_type="parser"
        )

    async def atransform(
        self, input: AsyncIterator[Any], config: Any = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """The async :meth:`transform`.

        Args:
            input: an async iterator of ``AIMessageChunk`` (or ``AIMessage``, or ``str``) items.
            config: a ``RunnableConfig``.
            **kwargs: ignored.

        Returns:
            An async iterator of items of the same type.

        Raises:
            TypeError: an item of another type or kind.
        """
        async for out in self._atransform_stream_with_config(
            input, self._atransform, config, run_type="parser"
        ):
            yield out
