"""The input and output of ``--stream`` (:mod:`._live`): the descriptor read as data arrives,
its incremental UTF-8 decoding, the live writer, and what ``traces record --stream`` keeps of a
stream (:class:`Capture`).

Rules: docs/behaviour.md#w1 (a stream read live) and docs/behaviour.md#cli (inputs and errors).
"""

from __future__ import annotations

import codecs
import itertools
import os
import time
from collections.abc import Iterator
from typing import Any, Optional

from ... import ThinkParseError, split_think
from .._common import InputError
from .._inputs import utf8_error
from .._output import Context, Result

_READ_SIZE = 1 << 16


class LiveWriter:
    """Writes stream deltas as they come, flushing each write; ends the output with a newline."""

    def __init__(self, ctx: Context) -> None:
        self.out = ctx.stdout
        self.console = ctx.console
        self.want_reasoning = bool(ctx.args.reasoning)
        self.to_stderr = bool(ctx.args.reasoning_to_stderr)
        self.last_out = ""
        self.last_err = ""

    def delta(self, delta: Any) -> None:
        """Write one ``(visible, reasoning)`` delta."""
        visible, reasoning = delta
        text = reasoning if self.want_reasoning else visible
        if self.to_stderr and reasoning:
            self.console.reasoning(reasoning)
            self.last_err = reasoning
        if text:
            self.out.write(text)
            self.out.flush()
            self.last_out = text

    def finish(self) -> None:
        """End the output (and the reasoning on stderr) with a newline."""
        if self.last_out and not self.last_out.endswith("\n"):
            self.out.write("\n")
            self.out.flush()
        if self.last_err and not self.last_err.endswith("\n"):
            self.console.reasoning("\n")


class Capture:
    """What ``traces record --stream`` keeps of a stream besides the output: when its first
    byte arrived, and what its result is made of (the text read, or the normalizer)."""

    def __init__(self) -> None:
        #: ``time.monotonic()`` when the first byte was read; ``None`` before.
        self.first_byte: Optional[float] = None
        self.pieces: list[str] = []
        self.options: dict[str, Any] = {}
        self.normalizer: Any = None

    def result(self) -> Optional[Result]:
        """The stream's result: the text split as the live scanner split it (S1), or the
        normalizer's; ``None`` when the normalizer failed to close."""
        if self.normalizer is None:
            return split_think("".join(self.pieces), **self.options)
        try:
            self.normalizer.close()  # a second close() releases nothing
            result: Result = self.normalizer.result
        except (ThinkParseError, ValueError, RuntimeError):
            return None
        return result


class Reader:
    """``os.read`` chunks of one descriptor, with the bytes consumed so far."""

    def __init__(self, fd: int, shown: str, capture: Optional[Capture]) -> None:
        self.fd = fd
        self.shown = shown
        self.consumed = 0
        self.capture = capture

    def read(self) -> bytes:
        try:
            data = os.read(self.fd, _READ_SIZE)
        except OSError as exc:
            raise InputError(f"{self.shown}: cannot read: {exc.strerror or exc}", 2) from None
        if data and self.capture is not None and self.capture.first_byte is None:
            self.capture.first_byte = time.monotonic()
        self.consumed += len(data)
        return data


def read_chunks(reader: Reader, head: bytes) -> Iterator[bytes]:
    if head:
        yield head
    while True:
        data = reader.read()
        if not data:
            return
        yield data


def decoded_text(ctx: Context, reader: Reader, head: bytes) -> Iterator[str]:
    """The input as text pieces; on invalid UTF-8, the valid text first, then ``InputError``."""
    decoder = codecs.getincrementaldecoder("utf-8")(ctx.settings.errors)
    started = False
    base = 0  # offset of the next chunk in the input
    for data in itertools.chain(read_chunks(reader, head), (b"",)):
        held = decoder.getstate()[0]
        try:
            text = decoder.decode(data, not data)
        except UnicodeDecodeError as exc:
            good = (held + data)[: exc.start].decode("utf-8")
            if not started and good.startswith("\ufeff"):
                good = good[1:]
            if good:
                yield good
            offset = base - len(held) + exc.start
            raise InputError(f"{reader.shown}: {utf8_error(offset)}") from None
        base += len(data)
        if text and not started:
            started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        if text:
            yield text
