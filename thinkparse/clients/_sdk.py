"""SDK streams to deltas: ``stream_deltas`` / ``astream_deltas`` (see docs/behaviour.md#w2).

Both wrap a provider SDK's streaming response -- ``openai`` (``chat.completions.create(...,
stream=True)``, ``responses.create(..., stream=True)`` and the ``.stream()`` helpers),
``anthropic`` (``messages.create(..., stream=True)`` and ``messages.stream()``), ``google-genai``
(``models.generate_content_stream``) and ``ollama`` (``chat`` / ``generate`` with
``stream=True``) -- in a :class:`DeltaStream` / :class:`AsyncDeltaStream`: an iterator of
:class:`~thinkparse.Delta` built on the public :class:`~thinkparse.StreamNormalizer`.  After the
loop, ``.result`` (the :class:`~thinkparse.Extraction`) and ``.message`` (the turn as the
provider's request message, X2) are those of the normaliser.

Only raw wire events count.  The SDK helper streams yield derived events next to the raw ones;
those are skipped, never decoded twice:

* ``anthropic`` ``messages.stream()``: ``text``, ``thinking``, ``signature``, ``input_json`` and
  ``citation`` events (their raw ``content_block_delta`` is decoded instead);
* ``openai`` ``chat.completions.stream()``: the raw chunk is taken from each ``chunk`` event;
  ``content.delta``, ``refusal.delta``, ``tool_calls.function.arguments.delta``,
  ``logprobs.*`` and the ``*.done`` events are skipped.

Decisions where the rules are silent:

* Only deltas with text are yielded (events without text, such as keep-alives, usage-only chunks
  or ``message_stop``, yield nothing); the final delta of ``StreamNormalizer.close()`` is yielded
  when it has text.
* A stream *manager* (the object ``messages.stream()`` / ``chat.completions.stream()`` return
  before ``with``) is entered on first use and exited at the end.  ``astream_deltas`` also takes
  an awaitable that gives the stream (``client.aio.models.generate_content_stream(...)``,
  ``AsyncClient().chat(..., stream=True)``), awaited on first use.
* ``close()`` / ``aclose()`` (also on leaving a ``with`` / ``async with`` block, and after
  ``break`` once called) closes the SDK stream and the normaliser: ``.result`` then covers what was
  consumed.  Exhaustion closes both by itself.
* An event the normaliser rejects raises its error (``ResponseShapeError``,
  ``UnknownProviderError``) from ``__next__``; the stream stays usable.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterator
from typing import Any, Callable, Optional, Union

from .._types import Delta, Extraction
from ..providers import StreamNormalizer
from ._closing import AsyncClosing, Closing

__all__ = ["AsyncDeltaStream", "DeltaStream", "astream_deltas", "stream_deltas"]

#: Event types of the SDK helper streams that repeat what a raw event already carries.
DERIVED_EVENTS = frozenset({
    # anthropic MessageStream
    "text", "thinking", "signature", "input_json", "citation",
    # openai ChatCompletionStream
    "content.delta", "content.done", "refusal.delta", "refusal.done",
    "tool_calls.function.arguments.delta", "tool_calls.function.arguments.done",
    "logprobs.content.delta", "logprobs.content.done",
    "logprobs.refusal.delta", "logprobs.refusal.done",
})


def raw_event(event: Any) -> Any:
    """The raw wire event inside ``event``, or ``None`` for a derived helper event.

    Args:
        event: one item of an SDK stream (an SDK object or a mapping).

    Returns:
        ``event`` itself, the ``chunk`` of an openai helper ``chunk`` event, or ``None``.
    """
    kind = _field(event, "type")
    if not isinstance(kind, str):
        return event
    if kind == "chunk":
        inner = _field(event, "chunk")
        return event if inner is None else inner
    return None if kind in DERIVED_EVENTS else event


def _field(obj: Any, name: str) -> Any:
    # A mapping's key, or an object's attribute read from its __dict__ / pydantic extras first:
    # a missing attribute on a pydantic model (google-genai and ollama objects have no "type")
    # goes through the metaclass and costs microseconds per event.
    if isinstance(obj, dict):
        return obj.get(name)
    fields = getattr(obj, "__dict__", None)
    if fields is not None and name in fields:
        return fields[name]
    if hasattr(obj, "__pydantic_extra__"):  # a pydantic model: fields and extras are all
        extra = obj.__pydantic_extra__
        return extra.get(name) if isinstance(extra, dict) else None
    return getattr(obj, name, None)


def _closer(obj: Any, name: str) -> Optional[Callable[[], Any]]:
    fn = getattr(obj, name, None)
    return fn if callable(fn) else None


class _Base:
    """What the sync and async streams share: the normaliser and the after-the-loop state."""

    __slots__ = ("_finished", "_normalizer")

    def __init__(self, options: dict[str, Any]) -> None:
        self._normalizer = StreamNormalizer(**options)
        self._finished = False

    def _feed(self, event: Any) -> Optional[Delta]:
        raw = raw_event(event)
        if raw is None:
            return None
        delta = self._normalizer.feed(raw)
        return delta if (delta.visible or delta.reasoning) else None

    def _finish(self) -> Optional[Delta]:
        self._finished = True
        delta = self._normalizer.close()
        return delta if (delta.visible or delta.reasoning) else None

    @property
    def normalizer(self) -> StreamNormalizer:
        """The :class:`~thinkparse.StreamNormalizer` the events go through."""
        return self._normalizer

    @property
    def result(self) -> Extraction:
        """The :class:`~thinkparse.Extraction` of the whole stream (P9).

        Raises:
            RuntimeError: the stream is not exhausted or closed yet.
        """
        if not self._finished:
            raise RuntimeError(
                f"{type(self).__name__}.result is available once the stream is exhausted "
                "or closed"
            )
        return self._normalizer.result

    @property
    def message(self) -> Union[dict[str, Any], list[dict[str, Any]]]:
        """The assistant turn in the provider's request format (X2), for the next request.

        Returns:
            ``StreamNormalizer.message``: a message dict, or a list of items (Responses).

        Raises:
            RuntimeError: the stream is not exhausted or closed yet.
            ValueError: no event decided the provider family (an empty stream).
        """
        if not self._finished:
            raise RuntimeError(
                f"{type(self).__name__}.message is available once the stream is exhausted "
                "or closed"
            )
        return self._normalizer.message


class DeltaStream(_Base, Closing, Iterator[Delta]):
    """An iterator of :class:`~thinkparse.Delta` over a synchronous SDK stream (W2).

    Made by :func:`stream_deltas`; see the module docstring for what counts as an event.
    """

    __slots__ = ("_events", "_exit", "_source")

    def __init__(self, stream: Any, options: dict[str, Any]) -> None:
        super().__init__(options)  # options first: nothing is entered when they are invalid
        if hasattr(stream, "__aiter__") and not hasattr(stream, "__iter__"):
            raise TypeError(
                "stream_deltas() got an async stream; use astream_deltas() for "
                f"{type(stream).__name__}"
            )
        exit_: Optional[Callable[..., Any]] = None
        if not hasattr(stream, "__iter__") and hasattr(stream, "__enter__"):
            stream, exit_ = stream.__enter__(), stream.__exit__
        if not hasattr(stream, "__iter__") or isinstance(stream, (str, bytes, dict)):
            raise TypeError(
                "stream_deltas(): stream must be an SDK streaming response (an iterable of "
                f"stream events), not {type(stream).__name__}"
            )
        self._source = stream
        self._exit = exit_
        self._events: Iterator[Any] = iter(stream)

    def __iter__(self) -> DeltaStream:
        return self

    def __next__(self) -> Delta:
        if self._finished:
            raise StopIteration
        for event in self._events:
            delta = self._feed(event)
            if delta is not None:
                return delta
        self._release()
        delta = self._finish()
        if delta is None:
            raise StopIteration
        return delta

    def _release(self) -> None:
        exit_, self._exit = self._exit, None
        if exit_ is not None:
            exit_(None, None, None)

    def close(self) -> None:
        """Stop early: close the SDK stream and the normaliser; ``.result`` covers what was read."""
        if self._finished:
            return
        close = _closer(self._source, "close")
        try:
            if close is not None:
                close()
        finally:
            self._release()
            self._finish()



class AsyncDeltaStream(_Base, AsyncClosing, AsyncIterator[Delta]):
    """An async iterator of :class:`~thinkparse.Delta` over an asynchronous SDK stream (W2).

    Made by :func:`astream_deltas`; see the module docstring for what counts as an event.
    """

    __slots__ = ("_events", "_exit", "_pending", "_source")

    def __init__(self, stream: Any, options: dict[str, Any]) -> None:
        super().__init__(options)
        if not (
            hasattr(stream, "__aiter__")
            or hasattr(stream, "__aenter__")
            or inspect.isawaitable(stream)
        ):
            hint = "; use stream_deltas() for a sync stream" if hasattr(stream, "__iter__") else ""
            raise TypeError(
                "astream_deltas(): stream must be an async SDK streaming response (an async "
                f"iterable of stream events, or an awaitable giving one), not "
                f"{type(stream).__name__}{hint}"
            )
        self._pending: Any = stream
        self._source: Any = None
        self._exit: Optional[Callable[..., Any]] = None
        self._events: Optional[AsyncIterator[Any]] = None

    async def _open(self) -> AsyncIterator[Any]:
        stream, self._pending = self._pending, None
        if not hasattr(stream, "__aiter__") and inspect.isawaitable(stream):
            stream = await stream
        if not hasattr(stream, "__aiter__") and hasattr(stream, "__aenter__"):
            manager = stream
            stream = await manager.__aenter__()
            self._exit = manager.__aexit__
        if not hasattr(stream, "__aiter__"):
            raise TypeError(
                "astream_deltas(): the awaited stream is not an async iterable of stream "
                f"events: {type(stream).__name__}"
            )
        self._source = stream
        events: AsyncIterator[Any] = stream.__aiter__()
        self._events = events
        return events

    def __aiter__(self) -> AsyncDeltaStream:
        return self

    async def __anext__(self) -> Delta:
        if self._finished:
            raise StopAsyncIteration
        events = self._events if self._events is not None else await self._open()
        async for event in events:
            delta = self._feed(event)
            if delta is not None:
                return delta
        await self._release()
        delta = self._finish()
        if delta is None:
            raise StopAsyncIteration
        return delta

    async def _release(self) -> None:
        exit_, self._exit = self._exit, None
        if exit_ is not None:
            await exit_(None, None, None)

    async def aclose(self) -> None:
        """Stop early: close the SDK stream and the normaliser; ``.result`` covers what was read."""
        if self._finished:
            return
        pending, self._pending = self._pending, None
        if inspect.iscoroutine(pending):
            pending.close()  # never awaited: nothing was sent
        close = _closer(self._source, "close") or _closer(self._source, "aclose")
        try:
            if close is not None:
                out = close()
                if inspect.isawaitable(out):
                    await out
        finally:
            await self._release()
            self._finish()



def stream_deltas(stream: Any, /, **options: Any) -> DeltaStream:
    """Deltas from a synchronous SDK streaming response (see docs/behaviour.md#w2).

    Args:
        stream: an ``openai``, ``anthropic``, ``google-genai`` or ``ollama`` streaming response
            (or helper stream, or the helper's manager), or any iterable of stream events.
        **options: the :class:`~thinkparse.StreamNormalizer` options (``provider``, ``choice``,
            ``start_in_reasoning``, ``tags``, ``delimiters``, ``preset``, ...).

    Returns:
        A :class:`DeltaStream`: iterate it for the deltas; afterwards ``.result`` and
        ``.message`` hold the whole turn.

    Raises:
        TypeError: ``stream`` is not a sync stream, or an unknown option.
        ValueError: an invalid option value.

    Examples:
        >>> events = [{"choices": [{"delta": {"content": "<think>plan</think>"}}]},
        ...           {"choices": [{"delta": {"content": "Hi"}}]}]
        >>> deltas = stream_deltas(events)
        >>> [tuple(d) for d in deltas]
        [('', 'plan'), ('Hi', '')]
        >>> deltas.result.visible, deltas.result.reasoning
        ('Hi', 'plan')
    """
    return DeltaStream(stream, options)


def astream_deltas(stream: Any, /, **options: Any) -> AsyncDeltaStream:
    """Deltas from an asynchronous SDK streaming response (see docs/behaviour.md#w2).

    Args:
        stream: an async streaming response of ``openai``, ``anthropic``, ``google-genai`` or
            ``ollama`` (or an awaitable that gives one, or a helper's async manager).
        **options: the :class:`~thinkparse.StreamNormalizer` options.

    Returns:
        An :class:`AsyncDeltaStream`: ``async for`` it; afterwards ``.result`` and ``.message``
        hold the whole turn.

    Raises:
        TypeError: ``stream`` is not an async stream, or an unknown option.
        ValueError: an invalid option value.
    """
    return AsyncDeltaStream(stream, options)
