"""The streams of :func:`thinkparse.openai.wrap`: chat completion chunks rewritten with the
reasoning separated (docs/behaviour.md#w3), and the SDK-field and content-part helpers its plain
results share.  The decisions are in :mod:`thinkparse.openai`'s docstring.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Optional

from ..scan._scanner import ThinkScanner
from ._closing import AsyncClosing, Closing

_REASONING_FIELDS = ("reasoning_content", "reasoning")


def get_field(obj: Any, name: str) -> Any:
    """A field of an SDK object, declared or extra, else ``None``.

    Reads the instance's ``__dict__`` and pydantic's ``__pydantic_extra__`` directly: a missing
    attribute on a pydantic model goes through its metaclass and costs microseconds per chunk.
    """
    fields = getattr(obj, "__dict__", None)
    if fields is not None and name in fields:
        return fields[name]
    if hasattr(obj, "__pydantic_extra__"):  # a pydantic model: fields and extras are all
        extra = obj.__pydantic_extra__
        return extra.get(name) if isinstance(extra, dict) else None
    return getattr(obj, name, None)


def set_field(obj: Any, name: str, value: Any) -> None:
    """Set a field of an SDK object; a name the model does not declare becomes an extra field."""
    fields = getattr(obj, "__dict__", None)
    extra = getattr(obj, "__pydantic_extra__", None)
    if isinstance(extra, dict) and (fields is None or name not in fields):
        extra[name] = value
    else:
        setattr(obj, name, value)


def has_reasoning(obj: Any) -> bool:
    return any(get_field(obj, name) for name in _REASONING_FIELDS)


def part_text(part: Any) -> Optional[str]:
    """The text of a ``{"type": "text", "text": str}`` content part, else ``None``."""
    if isinstance(part, Mapping) and part.get("type") == "text":
        text = part.get("text")
        if isinstance(text, str):
            return text
    return None


def feed_parts(scanner: ThinkScanner, parts: list[Any]) -> tuple[list[Any], str]:
    """Feed the text parts of a content list to ``scanner``: the parts to keep, the reasoning.

    Each text part becomes a copy holding the visible text it released (left out when none);
    other parts are kept as they are, in their place.
    """
    kept: list[Any] = []
    reasoning: list[str] = []
    for part in parts:
        text = part_text(part)
        if text is None:
            kept.append(part)
            continue
        out = scanner.feed(text)
        reasoning.append(out.reasoning)
        if out.visible:
            kept.append({**part, "text": out.visible})
    return kept, "".join(reasoning)


def append_text(parts: list[Any], text: str) -> list[Any]:
    """``parts`` with ``text`` added to its last text part (if last), else as a new text part."""
    if not text:
        return parts
    if parts and part_text(parts[-1]) is not None:
        last = parts[-1]
        return [*parts[:-1], {**last, "text": last["text"] + text}]
    return [*parts, {"type": "text", "text": text}]


class Rewriter:
    """The per-stream state: one scanner per choice index, and the last chunk of each."""

    __slots__ = ("last", "lists", "options", "passthrough", "scanners")

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.scanners: dict[int, ThinkScanner] = {}
        self.last: dict[int, tuple[Any, Any]] = {}
        self.passthrough: set[int] = set()
        self.lists: set[int] = set()  # choices whose content came as a list of parts

    def chunk(self, chunk: Any) -> list[Any]:
        """The chunks to yield for ``chunk``: a synthesised flush first when needed."""
        choices = getattr(chunk, "choices", None)
        if not choices:
            # a usage-only (or empty) chunk: release what open choices still hold first
            return [*self.finish(), chunk]
        for choice in choices:
            self._choice(chunk, choice)
        return [chunk]

    def _choice(self, chunk: Any, choice: Any) -> None:
        index = get_field(choice, "index")
        index = index if isinstance(index, int) else 0
        delta = get_field(choice, "delta")
        if index in self.passthrough or delta is None:
            return
        scanner = self.scanners.get(index)
        if has_reasoning(delta):
            # the server separates reasoning itself: leave this choice alone from now on
            self.passthrough.add(index)
            if scanner is not None:
                del self.scanners[index]
                held = scanner.close()
                if held.visible:
                    content = get_field(delta, "content")
                    if isinstance(content, list):
                        set_field(delta, "content",
                                  [{"type": "text", "text": held.visible}, *content])
                    elif index in self.lists and content is None:
                        set_field(delta, "content", [{"type": "text", "text": held.visible}])
                    elif content is None or isinstance(content, str):
                        set_field(delta, "content", held.visible + (content or ""))
            return
        content = get_field(delta, "content")
        finish = get_field(choice, "finish_reason")
        if scanner is None:
            if content is None and finish is None:
                return
            scanner = self.scanners[index] = ThinkScanner(**self.options)
        self.last[index] = (chunk, choice)
        parts: Optional[list[Any]] = None
        if isinstance(content, list):
            self.lists.add(index)
            parts, reasoning = feed_parts(scanner, content)
            visible = ""
        elif isinstance(content, str):
            visible, reasoning = scanner.feed(content)
        else:
            visible = reasoning = ""
        if finish is not None:
            held = scanner.close()
            del self.scanners[index]
            reasoning += held.reasoning
            if parts is None and content is None and index in self.lists and held.visible:
                parts = []  # the choice speaks in parts: its held text goes out as one
            if parts is not None:
                parts = append_text(parts, held.visible)
            else:
                visible += held.visible
        if parts is not None:
            set_field(delta, "content", parts or None)
        else:
            set_field(delta, "content", visible or None)
        set_field(delta, "reasoning_content", reasoning or None)

    def finish(self) -> list[Any]:
        """Chunks releasing what still-open choices hold (empty when nothing is held)."""
        out = []
        for index, scanner in list(self.scanners.items()):
            del self.scanners[index]
            held = scanner.close()
            if not (held.visible or held.reasoning):
                continue
            chunk, choice = self.last[index]
            delta = choice.delta.model_copy()
            for name in ("role", "tool_calls", "function_call", "refusal"):
                if get_field(delta, name) is not None:
                    set_field(delta, name, None)
            visible: Any = held.visible or None
            if visible is not None and index in self.lists:
                visible = [{"type": "text", "text": visible}]
            set_field(delta, "content", visible)
            set_field(delta, "reasoning_content", held.reasoning or None)
            new_choice = choice.model_copy(update={"delta": delta, "finish_reason": None})
            out.append(chunk.model_copy(update={"choices": [new_choice], "usage": None}))
        return out


class RewrittenStream(Closing):
    """A synchronous chunk stream with the reasoning separated (W3)."""

    def __init__(self, stream: Any, options: dict[str, Any]) -> None:
        self._stream = stream
        self._rewriter = Rewriter(options)
        self._chunks = self._gen()

    def _gen(self) -> Iterator[Any]:
        rewriter = self._rewriter
        for chunk in self._stream:
            yield from rewriter.chunk(chunk)
        yield from rewriter.finish()

    def __iter__(self) -> Iterator[Any]:
        return self._chunks

    def __next__(self) -> Any:
        return next(self._chunks)

    def close(self) -> None:
        """Close the underlying SDK stream."""
        self._stream.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class AsyncRewrittenStream(AsyncClosing):
    """An asynchronous chunk stream with the reasoning separated (W3)."""

    def __init__(self, stream: Any, options: dict[str, Any]) -> None:
        self._stream = stream
        self._rewriter = Rewriter(options)
        self._chunks = self._gen()

    async def _gen(self) -> AsyncIterator[Any]:
        rewriter = self._rewriter
        async for chunk in self._stream:
            for out in rewriter.chunk(chunk):
                yield out
        for out in rewriter.finish():
            yield out

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._chunks

    async def __anext__(self) -> Any:
        return await self._chunks.__anext__()

    async def close(self) -> None:
        """Close the underlying SDK stream."""
        await self._stream.close()

    aclose = close

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
