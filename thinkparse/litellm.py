"""LiteLLM: a proxy callback that separates streamed reasoning, and records traces.

Install with ``pip install 'thinkparse[litellm]'``; importing this module without litellm raises
``ImportError`` naming that extra.  ``import thinkparse`` never imports litellm.  Rules:
docs/behaviour.md#w5 (and #s1, #p13, #d5, #b1).

In a LiteLLM proxy ``config.yaml``::

    litellm_settings:
      callbacks: thinkparse.litellm.handler

``handler`` is a :class:`ThinkParseLogger` with the defaults: streamed chat completion chunks
leave the proxy with the visible text in ``delta.content`` and the reasoning in
``delta.reasoning_content``.  For options or a trace store, make your own instance in a module
of yours and name it in ``callbacks`` instead.  With the SDK (``litellm.completion``) nothing is
needed: LiteLLM already separates tags in plain responses, and ``stream_deltas(stream)`` /
``normalize(response)`` read its ``ModelResponseStream`` / ``ModelResponse`` objects.

Decisions where the rules are silent:

* **The hook** is ``async_post_call_streaming_iterator_hook``, the proxy's hook over a whole
  response stream: each choice index has its own scanner; a chunk's ``delta.content`` becomes
  the visible part of what its scanner released (``None`` when none) and
  ``delta.reasoning_content`` is set to the reasoning part when there is one (LiteLLM's own
  field; left absent otherwise, as LiteLLM leaves it).  Chunks are LiteLLM's own
  ``ModelResponseStream`` objects, changed in place: the proxy built them for this response.
  Items of other types (the raw SSE bytes of ``/v1/messages``, Responses API events) pass
  through untouched.
* **Held text** (a partial tag) goes out with the chunk that carries the choice's
  ``finish_reason``; if the stream ends, or a chunk without choices (usage) arrives, while a
  choice is still open, a copy of that choice's last chunk carries it first.
* **Options.**  Given options apply to every request; without them the preset of the model the
  chunks name (the upstream server's name, else the request's ``model``) is used (P13), else
  the defaults.  ``start_in_reasoning="auto"`` is refused: a stream cannot look ahead.
* **Reasoning already separated.**  A choice whose deltas carry ``reasoning_content`` or
  ``thinking_blocks`` (a server with a reasoning parser, Anthropic, Gemini) passes through
  untouched from then on.
* **Traces** are recorded only when a ``store`` is given: the success hooks (sync for the SDK,
  async for the proxy) ``normalize`` the response LiteLLM hands them (for a stream, the
  assembled response) with the logger's options, store it masked under ``session_key`` /
  ``run_id`` (strings, or callables of the hook's ``kwargs``), ``model`` as the response names
  it, ``duration_ms`` from LiteLLM's start and end times, and count it in the budget.  A
  response ``normalize`` cannot read is not recorded.  Exceptions from the store or a budget
  callback propagate to LiteLLM, which logs them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from thinkparse import ThinkParseError, ThinkScanner, normalize

from .frameworks._options import check_options, options_for

try:
    from litellm.integrations.custom_logger import CustomLogger
    from litellm.types.utils import ModelResponseStream
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without litellm
    raise ImportError(
        "thinkparse.litellm needs litellm: pip install 'thinkparse[litellm]'"
    ) from exc
if not hasattr(CustomLogger, "async_post_call_streaming_iterator_hook"):  # pragma: no cover
    raise ImportError(
        "thinkparse.litellm needs a litellm with CustomLogger.async_post_call_streaming_iterator"
        "_hook: pip install --upgrade 'thinkparse[litellm]'"
    )

if TYPE_CHECKING:
    from thinkparse import BudgetEvent, BudgetTracker, TraceStore

__all__ = ["ThinkParseLogger", "handler"]

_SEPARATED = ("reasoning_content", "thinking_blocks")

Key = Union[str, Callable[[dict[str, Any]], str]]


def _field(obj: Any, name: str) -> Any:
    """A field of a LiteLLM object, declared or extra, else ``None`` (cheap: no ``getattr``
    fallbacks through pydantic for absent names)."""
    fields = obj.__dict__
    if name in fields:
        return fields[name]
    extra = getattr(obj, "__pydantic_extra__", None)
    return extra.get(name) if isinstance(extra, dict) else getattr(obj, name, None)


class _Rewriter:
    """One stream's state: a scanner per choice index, the last chunk and choice of each."""

    __slots__ = ("fixed", "last", "model", "passthrough", "scanners")

    def __init__(self, fixed: Optional[dict[str, Any]], model: Any) -> None:
        self.fixed = fixed
        self.model = model
        self.scanners: dict[int, Any] = {}
        self.last: dict[int, tuple[Any, Any]] = {}
        self.passthrough: set[int] = set()

    def _options(self, chunk: Any) -> dict[str, Any]:
        return options_for(self.fixed, _field(chunk, "model") or self.model)

    def chunk(self, chunk: Any) -> list[Any]:
        if not isinstance(chunk, ModelResponseStream):
            return [chunk]
        choices = chunk.choices
        if not choices:
            return [*self.finish(), chunk]
        for choice in choices:
            self._choice(chunk, choice)
        return [chunk]

    def _choice(self, chunk: Any, choice: Any) -> None:
        index = _field(choice, "index")
        index = index if isinstance(index, int) else 0
        delta = _field(choice, "delta")
        if index in self.passthrough or delta is None:
            return
        scanner = self.scanners.get(index)
        if any(_field(delta, name) for name in _SEPARATED):
            self.passthrough.add(index)
            if scanner is not None:
                del self.scanners[index]
                held = scanner.close()
                if held.visible:
                    delta.content = held.visible + (_field(delta, "content") or "")
            return
        content = _field(delta, "content")
        finish = _field(choice, "finish_reason")
        if scanner is None:
            if not content and finish is None:
                return
            scanner = self.scanners[index] = ThinkScanner(**self._options(chunk))
        self.last[index] = (chunk, choice)
        if isinstance(content, str):
            out = scanner.feed(content)
            visible, reasoning = out.visible, out.reasoning
        else:
            visible = reasoning = ""
        if finish is not None:
            del self.scanners[index]
            held = scanner.close()
            visible += held.visible
            reasoning += held.reasoning
        if visible is not content:
            delta.content = visible or None
        if reasoning:
            delta.reasoning_content = reasoning

    def finish(self) -> list[Any]:
        """Chunks that release what open choices still hold (none when nothing is held)."""
        out = []
        for index, scanner in list(self.scanners.items()):
            del self.scanners[index]
            held = scanner.close()
            if not (held.visible or held.reasoning):
                continue
            chunk, choice = self.last[index]
            flush = chunk.model_copy(deep=True)
            index_of = _field(choice, "index")
            flush.choices = [c for c in flush.choices if _field(c, "index") == index_of]
            delta = flush.choices[0].delta
            for name in ("role", "tool_calls", "function_call"):
                if _field(delta, name) is not None:
                    setattr(delta, name, None)
            delta.content = held.visible or None
            if held.reasoning:
                delta.reasoning_content = held.reasoning
            elif _field(delta, "reasoning_content") is not None:
                del delta.reasoning_content
            out.append(flush)
        return out


class ThinkParseLogger(CustomLogger):  # type: ignore[misc]
    """A LiteLLM ``CustomLogger`` that separates reasoning in proxy streams and records traces.

    See the module docstring for what each hook does.

    Args:
        store: a :class:`~thinkparse.TraceStore` to record each successful call in; ``None``
            (the default) records nothing.
        session_key: the trace's session (also the budget key): a ``str``, or a callable given
            the success hook's ``kwargs``; required with ``store``.
        run_id: the trace's run, likewise.
        budget: a :class:`~thinkparse.BudgetTracker` that counts each recorded turn.
        **think_options: ``tags``, ``delimiters``, ``start_in_reasoning`` (not ``"auto"``),
            ``code_aware``, ``max_tentative``, ``preset``, ``terminators``, ``answer``,
            ``prompt``; without them, the model's preset.

    Raises:
        TypeError: a wrong argument type, a missing key with ``store``, an unknown option.
        ValueError: an invalid option value.
    """

    def __init__(
        self,
        *,
        store: Optional[TraceStore] = None,
        session_key: Optional[Key] = None,
        run_id: Optional[Key] = None,
        budget: Optional[BudgetTracker] = None,
        **think_options: Any,
    ) -> None:
        super().__init__()
        if store is not None or budget is not None:
            from thinkparse import BudgetTracker, TraceStore

            if store is None:
                raise TypeError("ThinkParseLogger: budget needs a store")
            if not isinstance(store, TraceStore):
                raise TypeError(f"store must be a TraceStore, not {type(store).__name__}")
            if budget is not None and not isinstance(budget, BudgetTracker):
                raise TypeError(f"budget must be a BudgetTracker, not {type(budget).__name__}")
            for name, key in (("session_key", session_key), ("run_id", run_id)):
                if not (isinstance(key, str) and key) and not callable(key):
                    raise TypeError(f"ThinkParseLogger: {name} must be a non-empty str or a "
                                    "callable when a store is given")
        self._fixed = check_options("ThinkParseLogger", think_options)
        self.store = store
        self.budget = budget
        self._session_key = session_key
        self._run_id = run_id
        self.trace_ids: list[str] = []
        """The ids of the traces stored, in order."""
        self.events: list[BudgetEvent] = []
        """The budget events of the turns recorded."""

    async def async_post_call_streaming_iterator_hook(
        self, user_api_key_dict: Any, response: Any, request_data: dict[str, Any]
    ) -> AsyncIterator[Any]:
        """Rewrite a proxy response stream: visible text in ``delta.content``, reasoning in
        ``delta.reasoning_content`` (W5).

        Args:
            user_api_key_dict: the caller's key (unused).
            response: the async iterator of ``ModelResponseStream`` chunks.
            request_data: the request (its ``model`` chooses the preset when chunks name none).

        Returns:
            An async iterator of the same chunks, rewritten, plus a flush chunk where needed.
        """
        model = request_data.get("model") if isinstance(request_data, dict) else None
        rewriter = _Rewriter(self._fixed, model)
        async for chunk in response:
            for out in rewriter.chunk(chunk):
                yield out
        for out in rewriter.finish():
            yield out

    def log_success_event(
        self, kwargs: dict[str, Any], response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        """Record the response when a store is configured (SDK calls).

        Args:
            kwargs: LiteLLM's call details (``model``, ``user``...), given to key callables.
            response_obj: the ``ModelResponse`` (for a stream, the assembled one).
            start_time: when the call started (a ``datetime``).
            end_time: when it ended.

        Raises:
            TraceStoreError: the store failed.
            Exception: what a budget callback raised, after the trace was stored.
        """
        self._record(kwargs, response_obj, start_time, end_time)

    async def async_log_success_event(
        self, kwargs: dict[str, Any], response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        """Record the response when a store is configured (proxy and async SDK calls).

        Args and Raises as :meth:`log_success_event`.
        """
        self._record(kwargs, response_obj, start_time, end_time)

    def _record(self, kwargs: dict[str, Any], response: Any, start: Any, end: Any) -> None:
        if self.store is None:
            return
        try:
            extraction = normalize(response, **(self._fixed or {}))
        except (TypeError, ThinkParseError):
            return
        model = _field(response, "model") if hasattr(response, "__dict__") else None
        model = model or kwargs.get("model") or "unknown"
        try:
            duration = max(0, int((end - start).total_seconds() * 1000))
        except (TypeError, AttributeError):
            duration = 0
        session_key = self._key(self._session_key, kwargs)
        trace_id = self.store.record(
            extraction,
            session_key=session_key,
            run_id=self._key(self._run_id, kwargs),
            model=str(model),
            duration_ms=duration,
        )
        self.trace_ids.append(trace_id)
        if self.budget is not None:
            self.events.extend(self.budget.record(session_key, extraction))

    @staticmethod
    def _key(key: Any, kwargs: dict[str, Any]) -> str:
        value = key(kwargs) if callable(key) else key
        if not isinstance(value, str):
            raise TypeError(f"a session_key or run_id callable returned {type(value).__name__}")
        return value


#: The instance a proxy ``config.yaml`` names: ``callbacks: thinkparse.litellm.handler``.
handler = ThinkParseLogger()
