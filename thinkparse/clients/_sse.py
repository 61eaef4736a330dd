"""Server-Sent Events as provider event streams (W1, see docs/behaviour.md#w1).

``iter_sse`` / ``aiter_sse`` read the bytes (or text) of an ``text/event-stream`` body -- what an
HTTP client yields, or what ``curl -N`` prints -- and yield each event's data parsed as JSON, ready
for :class:`thinkparse.StreamNormalizer`.

The parsing follows the WHATWG event-stream rules:

* UTF-8 is decoded incrementally, so a character split across chunks is whole; a leading byte
  order mark is dropped; invalid UTF-8 raises ``UnicodeDecodeError`` (a ``ValueError``).
* Lines end with CRLF, LF or CR -- a CR at the end of one chunk and an LF at the start of the
  next are one line end.  Chunks may be cut anywhere.  Each chunk is scanned for line ends once;
  the start of an unfinished line is held in pieces and joined when the line ends, so the time
  is linear in the size of the body even for one event of many megabytes cut into small chunks.
* ``data:`` lines accumulate (joined with ``"\\n"``), ``event:`` names the event, ``id:`` and
  ``retry:`` are read and not needed here; one space after the colon is dropped; a line starting
  with ``:`` is a comment; a blank line ends the event; an event with no ``data`` line is not
  dispatched.

Choices where the event-stream rules leave room:

* The data ``[DONE]`` (OpenAI-compatible servers) ends the iteration; nothing after it is read.
* At the end of the input an event that was not followed by a blank line is still dispatched
  when its last line was complete (a saved ``curl`` transcript often lacks the final blank line);
  the rules would drop it, and silently dropping a provider's last event loses its usage and
  finish reason.
* Data that is not JSON, or JSON that is not an object, raises
  :class:`~thinkparse.ResponseShapeError` whose path names the event by its 1-based number and
  its ``event:`` name when it has one (``"event 3 (message_start)"``).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, Optional, Union

from .._errors import ResponseShapeError

__all__ = ["aiter_sse", "iter_sse"]

_DONE = "[DONE]"
_LINE_END = re.compile("\r\n|\r|\n")
_decode_json = json.JSONDecoder().decode


class _Done(Exception):
    """Raised inside the parser at ``[DONE]``."""


class SSEParser:
    """The incremental event-stream parser behind ``iter_sse`` (text or bytes chunks)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._pending: list[str] = []  # the pieces of the current incomplete line
        self._cr = False  # the last chunk ended with CR: a following LF belongs to it
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self._count = 0
        self._error: Optional[ResponseShapeError] = None
        self.done = False

    def check(self) -> None:
        """Raise the error met after the events last returned, if any."""
        if self._error is not None:
            error, self._error = self._error, None
            self.done = True
            raise error

    def feed(self, chunk: Union[bytes, bytearray, str]) -> list[dict[str, Any]]:
        """Parse one chunk; return the events it completed (empty after ``[DONE]``).

        An event whose data is not a JSON object ends the parsing: the events before it are
        returned and its ``ResponseShapeError`` is raised by the next ``check()``.

        Raises:
            TypeError: ``chunk`` is neither bytes nor str.
            UnicodeDecodeError: invalid UTF-8.
        """
        if isinstance(chunk, (bytes, bytearray)):
            text = self._decoder.decode(bytes(chunk))
        elif isinstance(chunk, str):
            text = chunk
        else:
            raise TypeError(f"iter_sse() chunks must be bytes or str, not {type(chunk).__name__}")
        return self._text(text, final=False)

    def close(self) -> list[dict[str, Any]]:
        """End of input: the last line and event, if complete (see the module docstring)."""
        text = self._decoder.decode(b"", True)
        out = self._text(text, final=True)
        if self.done:
            return out
        if self._pending:  # an unterminated last line is a line too
            out += self._lines(["".join(self._pending)])
            self._pending = []
        if self._data and not self.done:
            try:
                out += self._dispatch()
            except ResponseShapeError as exc:
                self._error = exc
        return out

    def _text(self, text: str, final: bool) -> list[dict[str, Any]]:
        if self.done or not text:
            return []
        if not self._started:
            self._started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        if self._cr:
            self._cr = False
            if text.startswith("\n"):
                text = text[1:]
        if text.endswith("\r"):
            self._cr = True
        # Only the new text is scanned for line ends: the held start of an unfinished line is
        # kept in pieces and joined once, when its line ends, so one large event costs time
        # linear in its size however finely it is cut.
        lines = _LINE_END.split(text)
        last = lines.pop()  # "" when the text ended with a line end
        if lines and self._pending:
            self._pending.append(lines[0])
            lines[0] = "".join(self._pending)
            self._pending = []
        if last:
            self._pending.append(last)
        return self._lines(lines)

    def _lines(self, lines: list[str]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for line in lines:
            if self.done:
                break
            if not line:
                if self._data:
                    try:
                        out += self._dispatch()
                    except ResponseShapeError as exc:
                        self._error = exc  # raised by check(), after the events before it
                        self.done = True
                        break
                else:
                    self._event = ""
                continue
            if line.startswith(":"):
                continue
            field, sep, value = line.partition(":")
            if sep and value.startswith(" "):
                value = value[1:]
            if field == "data":
                self._data.append(value)
            elif field == "event":
                self._event = value
        return out

    def _dispatch(self) -> list[dict[str, Any]]:
        data = "\n".join(self._data)
        name = self._event
        self._data = []
        self._event = ""
        self._count += 1
        if data.strip() == _DONE:
            self.done = True
            return []
        where = f"event {self._count}" + (f" ({name})" if name else "")
        try:
            value = _decode_json(data)
        except (ValueError, RecursionError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "too deep"
            raise ResponseShapeError(where, f"the event's data is not JSON ({why})") from None
        if not isinstance(value, dict):
            kind = "an array" if isinstance(value, list) else type(value).__name__
            raise ResponseShapeError(where, f"the event's data is {kind}, not a JSON object")
        return [value]


def iter_sse(chunks: Iterable[Union[bytes, str]], /) -> Iterator[dict[str, Any]]:
    """Yield the JSON data of each Server-Sent Event in ``chunks`` (W1).

    Args:
        chunks: the body of an event stream, as bytes or str pieces cut anywhere (an HTTP
            response's ``iter_bytes()``, a file, lines printed by ``curl -N``).

    Returns:
        An iterator of dicts, one per event, in order; it ends at ``data: [DONE]`` or at the end
        of ``chunks``.

    Raises:
        TypeError: ``chunks`` is not iterable, or a chunk is neither bytes nor str.
        UnicodeDecodeError: the bytes are not UTF-8.
        ResponseShapeError: an event's data is not a JSON object; the path names the event.

    >>> list(iter_sse([b'data: {"a":', b' 1}\\n\\nda', b'ta: [DONE]\\n\\n']))
    [{'a': 1}]
    """
    try:
        it = iter(chunks)
    except TypeError:
        raise TypeError(
            f"iter_sse() takes an iterable of bytes or str, not {type(chunks).__name__}"
        ) from None
    return _events(it)


def _events(chunks: Iterator[Union[bytes, str]]) -> Iterator[dict[str, Any]]:
    parser = SSEParser()
    for chunk in chunks:
        yield from parser.feed(chunk)
        parser.check()
        if parser.done:
            return
    yield from parser.close()
    parser.check()


def aiter_sse(chunks: AsyncIterable[Union[bytes, str]], /) -> AsyncIterator[dict[str, Any]]:
    """Asynchronous :func:`iter_sse`: the same events from an async iterable of chunks.

    Args:
        chunks: an async iterable of bytes or str pieces (``response.aiter_bytes()``).

    Returns:
        An async iterator of dicts, one per event.

    Raises:
        TypeError: ``chunks`` is not an async iterable, or a chunk is neither bytes nor str.
        UnicodeDecodeError: the bytes are not UTF-8.
        ResponseShapeError: an event's data is not a JSON object.
    """
    if not hasattr(chunks, "__aiter__"):
        raise TypeError(f"aiter_sse() takes an async iterable, not {type(chunks).__name__}")
    return _aevents(chunks)


async def _aevents(chunks: AsyncIterable[Union[bytes, str]]) -> AsyncIterator[dict[str, Any]]:
    parser = SSEParser()
    async for chunk in chunks:
        for event in parser.feed(chunk):
            yield event
        parser.check()
        if parser.done:
            return
    for event in parser.close():
        yield event
    parser.check()
