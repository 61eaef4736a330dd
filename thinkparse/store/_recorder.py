"""Record a streamed turn: normalise, persist the masked trace, update the budget (#d5).

Rules: docs/behaviour.md#d5 (and #b1, #d2 for what is counted and stored).

Theory of operation: the recorder is the stream consumer ("subscribe, accumulate, persist on
finish").  The first event decides the mode and later events must keep it:

* a provider event (mapping or SDK object) goes to a :class:`~thinkparse.StreamNormalizer` built
  with ``**stream_options``; every family it reads works, and the stored provider is the family;
* a ``str`` chunk is raw model text: it goes through a :class:`~thinkparse.ThinkScanner` built
  with the same options (``tags``, ``delimiters``, ``start_in_reasoning``, ``preset``...); at
  ``close()`` the whole text is split once with :func:`~thinkparse.split_think` so the stored
  reasoning is the canonical one (T9), and the trace's provider is ``"text"``.

Decisions where the rules are silent:

* ``duration_ms`` runs on a monotonic clock from the first ``feed`` to ``close`` (0 without a
  feed).  The trace is stored first, then the budget records the turn; the events are kept in
  ``events`` even when a budget callback raises (the exception then propagates from ``close``).
* A second ``close()`` returns an empty Delta and stores nothing; ``trace``, ``result`` and
  ``events`` before ``close()`` raise ``RuntimeError``.
* As a context manager, leaving the block by an exception closes the recorder and stores the
  partial trace with ``metadata["incomplete"] = True``; the exception propagates.
* An event that reports a provider error (:class:`~thinkparse.ProviderError`, P16) closes the
  recorder at once: the partial trace is stored with ``metadata["incomplete"] = True`` and
  ``metadata["error"] = {"type", "message", "event"}``, then the error propagates from ``feed``.
* Not thread-safe: one consumer per recorder (the store and the budget are thread-safe).
"""

from __future__ import annotations

import time
from typing import Any, Optional

from .._errors import ProviderError, ScannerClosedError
from .._types import Delta, Extraction, Usage, tokens_estimate
from ..providers import StreamNormalizer
from ..scan._scanner import ThinkScanner
from ..scan._think import split_think
from ._budget import BudgetEvent, BudgetTracker, record_turn
from ._store import TraceStore
from ._trace_row import Trace, check_str, mask_metadata

__all__ = ["TraceRecorder"]

_TEXT_OPTIONS = (
    "tags",
    "delimiters",
    "start_in_reasoning",
    "code_aware",
    "max_tentative",
    "preset",
)


class TraceRecorder:
    """Feed a stream through it; ``close()`` persists the masked trace (#d5).

    Args:
        store: the :class:`TraceStore` to write to.
        session_key: the session (also the budget key).
        run_id: the run.
        model: the model name.
        budget: a :class:`BudgetTracker` that records the turn at ``close()``.
        metadata: a dict stored with the trace (its strings masked).
        **stream_options: options of the :class:`~thinkparse.StreamNormalizer` (``provider``,
            ``start_in_reasoning``, ``tags``...); for text chunks, those of the ThinkScanner.

    Raises:
        TypeError: a wrong argument type or an unknown option.
        ValueError: an invalid option value or an empty key.

    >>> from thinkparse import TraceStore
    >>> rec = TraceRecorder(TraceStore(), session_key="s", run_id="r", model="m")
    >>> rec.feed("<think>add 2 and 2</think>4")
    Delta(visible='4', reasoning='add 2 and 2')
    >>> rec.close()
    Delta(visible='', reasoning='')
    >>> rec.trace.reasoning_text, rec.trace.provider
    ('add 2 and 2', 'text')
    """

    def __init__(
        self,
        store: TraceStore,
        /,
        *,
        session_key: str,
        run_id: str,
        model: str,
        budget: Optional[BudgetTracker] = None,
        metadata: Optional[dict[str, Any]] = None,
        **stream_options: Any,
    ) -> None:
        if not isinstance(store, TraceStore):
            raise TypeError(f"store must be a TraceStore, not {type(store).__name__}")
        if budget is not None and not isinstance(budget, BudgetTracker):
            raise TypeError(f"budget must be a BudgetTracker, not {type(budget).__name__}")
        if metadata is not None:
            mask_metadata(None, metadata)  # JSON data, checked now rather than at close()
        self._store = store
        self._keys = {
            "session_key": check_str(session_key, "session_key"),
            "run_id": check_str(run_id, "run_id"),
            "model": check_str(model, "model"),
        }
        self._budget = budget
        self._metadata = metadata
        # Built now so that bad options fail here, not at the first event.
        self._normalizer: Optional[StreamNormalizer] = StreamNormalizer(**stream_options)
        text_options = {k: v for k, v in stream_options.items() if k in _TEXT_OPTIONS}
        self._scanner: Optional[Any] = ThinkScanner(**text_options)
        self._text_options = text_options
        self._mode: Optional[str] = None
        self._chunks: list[str] = []
        self._started: Optional[float] = None
        self._closed = False
        self._result: Optional[Extraction] = None
        self._trace: Optional[Trace] = None
        self._events: tuple[BudgetEvent, ...] = ()

    def feed(self, event: Any, /) -> Delta:
        """Decode one stream event or text chunk.

        Args:
            event: a provider event (mapping or SDK object) or a ``str`` chunk of raw text.

        Returns:
            The visible and reasoning text it released.

        Raises:
            TypeError: a ``str`` after events or an event after ``str`` chunks.
            ScannerClosedError: after ``close()``.
            UnknownProviderError, ResponseShapeError: as ``StreamNormalizer.feed``.
            ProviderError: the event reports a provider error; the partial trace was stored
                (see the module docstring).
        """
        if self._closed:
            raise ScannerClosedError("TraceRecorder.feed() called after close()")
        if self._started is None:
            self._started = time.monotonic()
        mode = "text" if isinstance(event, str) else "events"
        if self._mode is None:
            self._mode = mode
        elif self._mode != mode:
            raise TypeError(f"TraceRecorder.feed(): a {mode} item in a stream of {self._mode}")
        if mode == "text" and self._scanner is not None:
            delta: Delta = self._scanner.feed(event)
            self._chunks.append(event)
            return delta
        assert self._normalizer is not None
        try:
            return self._normalizer.feed(event)
        except ProviderError as e:  # P16: the partial turn is stored, marked, then re-raised
            error = {"type": e.type, "message": e.message, "event": e.event}
            self._metadata = {**(self._metadata or {}), "error": error}
            self.close(incomplete=True)
            raise

    def close(self, *, incomplete: bool = False) -> Delta:
        """End of the stream: store the masked trace and record the turn in the budget (#d5).

        Args:
            incomplete: mark the trace ``metadata["incomplete"] = True`` (used on errors).

        Returns:
            The last :class:`~thinkparse.Delta`; an empty one on a second call.

        Raises:
            TraceStoreError: the store failed (the recorder is closed anyway).
            Exception: what a budget callback raised, after the trace was stored.
        """
        if self._closed:
            return Delta()
        self._closed = True
        if self._mode == "text":
            assert self._scanner is not None
            delta: Delta = self._scanner.close()
            self._result = self._text_result()
        else:
            assert self._normalizer is not None
            delta = self._normalizer.close()
            self._result = self._normalizer.result
        self._scanner = self._normalizer = None
        elapsed = 0 if self._started is None else time.monotonic() - self._started
        metadata = self._metadata
        if incomplete:
            metadata = {**(metadata or {}), "incomplete": True}
        trace_id = self._store.record(
            self._result,
            session_key=self._keys["session_key"],
            run_id=self._keys["run_id"],
            model=self._keys["model"],
            duration_ms=int(elapsed * 1000),
            metadata=metadata,
        )
        self._trace = self._store.get(trace_id)
        if self._budget is not None:
            self._events, error = record_turn(self._budget, self._keys["session_key"], self._result)
            if error is not None:
                raise error
        return delta

    def _text_result(self) -> Extraction:
        split = split_think("".join(self._chunks), **self._text_options)
        reasoning = split.reasoning
        return Extraction(
            split.visible,
            reasoning,
            None,
            tokens_estimate(reasoning),
            False,
            (),
            "text",
            "none" if reasoning is None else "tags",
            Usage(),
        )

    def _after_close(self, name: str) -> None:
        if not self._closed:
            raise RuntimeError(f"TraceRecorder.{name} is available after close()")

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._closed

    @property
    def trace(self) -> Trace:
        """The stored :class:`Trace` (after ``close()``)."""
        self._after_close("trace")
        if self._trace is None:
            raise RuntimeError("the trace was not stored")
        return self._trace

    @property
    def result(self) -> Extraction:
        """The :class:`~thinkparse.Extraction` of the stream, unmasked (after ``close()``)."""
        self._after_close("result")
        assert self._result is not None
        return self._result

    @property
    def events(self) -> tuple[BudgetEvent, ...]:
        """The budget events of this turn (after ``close()``; ``()`` without a budget)."""
        self._after_close("events")
        return self._events

    def __enter__(self) -> TraceRecorder:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if not self._closed:
            self.close(incomplete=exc_type is not None)

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"TraceRecorder(session_key={self._keys['session_key']!r}, {state})"
