"""Inputs of ``thinkparse traces record``: any decoded input to an Extraction, and ``--stream``.

Rules: docs/behaviour.md#d5 (the recorder) and docs/behaviour.md#cli (inputs and errors).

A text input (``Parsed`` or ``Split``) becomes an Extraction of provider ``"text"`` and format
``"tags"`` (``"none"`` without reasoning), as :class:`~thinkparse.TraceRecorder` records raw text.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Iterator
from typing import Any, Optional, Union

from ... import (
    Extraction,
    Parsed,
    Split,
    StreamNormalizer,
    ThinkParseError,
    TraceRecorder,
    TraceStore,
    Usage,
    iter_sse,
    normalize,
)
from .._common import InputError, Stdout, UsageError
from .._inputs import looks_like_sse
from .._output import tokens_est

__all__ = ["record_stream", "to_extraction"]

_READ = 1 << 16


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
    except (ThinkParseError, ValueError, TypeError) as exc:
        raise InputError(f"{shown}: {exc}") from None
    raise InputError(
        f"{shown}: expected a JSON object (a provider response) or an array (a stream of events)"
    )


def _events(events: Iterator[Any], provider: Optional[str], options: dict[str, Any]) -> Extraction:
    normalizer = StreamNormalizer(provider=provider, **options)
    for event in events:
        normalizer.feed(event)
    normalizer.close()
    return normalizer.result


def record_stream(
    store: TraceStore,
    files: list[str],
    keys: dict[str, str],
    metadata: Optional[dict[str, Any]],
    options: dict[str, Any],
    provider: Optional[str],
    out: Stdout,
) -> TraceRecorder:
    """Read standard input as it arrives into a recorder; write the visible text live.

    The first line decides: a JSON object starts JSON event lines, an SSE field line an event
    stream, anything else raw text chunks.
    """
    if files not in ([], ["-"]):
        raise UsageError("traces: --stream reads standard input only")
    stream_options = dict(options)
    if provider is not None:
        stream_options["provider"] = provider
    try:
        rec = TraceRecorder(
            store,
            session_key=keys["session_key"],
            run_id=keys["run_id"],
            model=keys["model"],
            metadata=metadata,
            **stream_options,
        )
    except (TypeError, ValueError) as exc:
        raise UsageError(f"traces: {exc}") from None
    chunks = _read_stdin()
    head = ""
    kind = None
    for text in chunks:
        head += text
        if "\n" in head or len(head) > 4096:
            break
    first = head.lstrip().split("\n", 1)[0]
    if first.startswith("{"):
        kind = "jsonl"
    elif looks_like_sse(first.encode("utf-8", "replace")):
        kind = "sse"
    try:
        if kind == "sse":
            for event in iter_sse(_chain(head, chunks)):
                _write(out, rec.feed(event))
        elif kind == "jsonl":
            for number, line in enumerate(_lines(_chain(head, chunks)), 1):
                if line.strip():
                    try:
                        event = json.loads(line)
                    except ValueError as exc:
                        raise InputError(f"<stdin>:{number}: invalid JSON: {exc}") from None
                    _write(out, rec.feed(event))
        else:
            for text in _chain(head, chunks):
                _write(out, rec.feed(text))
        _write(out, rec.close())
    except (ThinkParseError, ValueError) as exc:
        raise InputError(f"<stdin>: {exc}") from None
    finally:
        if not rec.closed:
            rec.close(incomplete=True)
    if rec.result.visible and not rec.result.visible.endswith("\n"):
        out.write("\n")
    out.flush()
    return rec


def _write(out: Stdout, delta: Any) -> None:
    if delta.visible:
        out.write(delta.visible)
        out.flush()


def _read_stdin() -> Iterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    fd = 0
    while True:
        try:
            data = os.read(fd, _READ)
        except OSError as exc:
            raise InputError(f"<stdin>: cannot read: {exc.strerror or exc}", 2) from None
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise InputError("<stdin>: invalid UTF-8") from None
        if text:
            yield text
        if not data:
            return


def _chain(head: str, rest: Iterator[str]) -> Iterator[str]:
    if head:
        yield head
    yield from rest


def _lines(chunks: Iterator[str]) -> Iterator[str]:
    pending = ""
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split("\n")
        yield from lines
    if pending:
        yield pending
