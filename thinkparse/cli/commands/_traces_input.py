"""Inputs of ``thinkparse traces record``: any decoded input to an Extraction, and ``--stream``.

Rules: docs/behaviour.md#d5 (the recorder) and docs/behaviour.md#cli (inputs and errors).

A text input (``Parsed`` or ``Split``) becomes an Extraction of provider ``"text"`` and format
``"tags"`` (``"none"`` without reasoning), as :class:`~thinkparse.TraceRecorder` records raw text.

``--stream`` is the main command's ``--stream`` (:mod:`._live`) with its result kept: the
trace is stored the way :class:`~thinkparse.TraceRecorder` stores one (the masked result of
the whole stream), but its ``duration_ms`` starts at the first byte read rather than at the
first complete event, so the time the first line took to arrive counts.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Optional, Union

from ... import (
    Extraction,
    Parsed,
    ProviderError,
    Split,
    StreamNormalizer,
    ThinkParseError,
    TraceStore,
    Usage,
    iter_sse,
    normalize,
)
from .._common import STDIN_NAME, InputError, UsageError
from .._options import Settings
from .._output import Context, tokens_est
from ._live import run_stream
from ._live_io import Capture

__all__ = ["IncompleteInput", "record_stream", "to_extraction"]

_EMPTY = Extraction("", None, None, 0, False, (), "text", "none", Usage())


class IncompleteInput(InputError):
    """A stream that ended with a provider error (P16): ``result`` is what arrived before it,
    ``error`` the provider's ``{type, message, event}``; the caller stores it marked incomplete."""

    def __init__(self, message: str, result: Extraction, error: dict[str, Any]) -> None:
        super().__init__(message)
        self.result = result
        self.error = error


def to_extraction(
    value: Union[Extraction, Parsed, Split, Any],
    shown: str,
    provider: Optional[str],
    options: dict[str, Any],
    *,
    sse: bool = False,
) -> Extraction:
    """One input as an Extraction; ``InputError`` (status 1) naming ``shown`` when it is bad."""
    try:
        if isinstance(value, Extraction):
            return value
        if isinstance(value, (Parsed, Split)):
            reasoning = value.reasoning
            fmt = "none" if reasoning is None else "tags"
            est = tokens_est(value)
            return Extraction(value.visible, reasoning, None, est, False, (), "text", fmt, Usage())
        if sse:
            return _events(iter_sse([value]), provider, options)
        if isinstance(value, dict):
            return normalize(value, provider=provider, **options)
        if isinstance(value, list):
            return _events(iter(value), provider, options)
    except _Ended as ended:
        err = ended.error
        raise IncompleteInput(f"{shown}: {err}", ended.result, {
            "type": err.type, "message": err.message, "event": err.event}) from None
    except (ThinkParseError, ValueError, TypeError) as exc:
        raise InputError(f"{shown}: {exc}") from None
    raise InputError(
        f"{shown}: expected a JSON object (a provider response) or an array (a stream of events)"
    )


class _Ended(Exception):
    def __init__(self, error: ProviderError, result: Extraction) -> None:
        self.error = error
        self.result = result


def _events(events: Iterator[Any], provider: Optional[str], options: dict[str, Any]) -> Extraction:
    normalizer = StreamNormalizer(provider=provider, **options)
    for event in events:
        try:
            normalizer.feed(event)
        except ProviderError as exc:  # P16: what arrived is kept
            raise _Ended(exc, normalizer.result) from None
    normalizer.close()
    return normalizer.result


def record_stream(
    store: TraceStore,
    files: list[str],
    keys: dict[str, str],
    metadata: Optional[dict[str, Any]],
    settings: Settings,
) -> tuple[Optional[str], Extraction, int]:
    """Read standard input as it arrives, exactly as ``thinkparse --stream`` does (detection,
    redaction, live output, messages), and store its result (D5).

    ``duration_ms`` runs from the first byte read to the end of the stream.  A stream that
    ended with an error is stored with ``metadata["incomplete"] = True``.

    Returns:
        The trace's id (``None`` when there was no result to store), the stored extraction
        and the exit status of the reading.
    """
    if files not in ([], ["-"]):
        raise UsageError("traces: --stream reads standard input only")
    ctx = Context(settings)
    capture = Capture()
    run_stream(ctx, "-", capture)
    ended = time.monotonic()
    ctx.close()
    result = capture.result()
    if result is None:
        return None, _EMPTY, ctx.status
    extraction = to_extraction(result, STDIN_NAME, settings.provider, settings.stream_options)
    started = capture.first_byte
    duration = 0 if started is None else int((ended - started) * 1000)
    if ctx.status:
        metadata = {**(metadata or {}), "incomplete": True}
    try:
        trace_id = store.record(
            extraction, session_key=keys["session_key"], run_id=keys["run_id"],
            model=keys["model"], duration_ms=duration, metadata=metadata,
        )  # fmt: skip
    except (TypeError, ValueError) as exc:
        raise UsageError(f"traces: {exc}") from None
    return trace_id, extraction, ctx.status
