"""Opening inputs, reading them, and the messages about what is wrong with them.

Detection (``--format`` unset), per file (see docs/behaviour.md#cli):

* a name ending in ``.jsonl`` or ``.ndjson`` is JSON Lines;
* JSON Lines (so detected, not ``--format jsonl``) whose first record is a chunk of a saved
  Ollama stream (``"done": false``, see :func:`ollama_chunk`) is one stream of events, read as
  ``--stream`` reads it: one output;
* a file whose first line is a complete JSON object and that has another non-empty line is JSON
  Lines (blank lines between records are skipped); a file that is just that object is a
  provider response;
* a file whose first non-empty line is an event-stream field line (``data:``, ``event:``,
  ``id:``, ``retry:``, or a ``:`` comment) and whose first ``data:`` line holds JSON (``{``) or
  ``[DONE]`` is a Server-Sent Events stream (W1); an answer that happens to start with
  ``data:`` stays text;
* a text that, after leading whitespace, starts with ``{``, or with ``[`` followed by ``{`` or
  ``]``, is one JSON value (an object is a provider response, an array a stream of events), and
  invalid JSON there is an error rather than text, so a truncated response is not printed back
  as its own "answer"; text that starts with ``[`` followed by anything else (``[THINK]…``) is
  text, as are other JSON values;
* text with harmony markup, as P3 tells it (``<|channel|>`` or ``<|message|>``, or a text that
  starts with ``analysis`` and contains ``assistantfinal``), goes to ``split_harmony`` as
  ``--format harmony`` would read it; text containing ``<REASONING>`` goes to ``parse``; other
  text to ``split_think``.  Both need no scanner option to be given (the options describe
  ``<think>``-style markup) and no ``--format think``.

A leading UTF-8 byte order mark is dropped from every input.  Invalid UTF-8 is reported with the
0-based byte offset of the first bad byte in the input.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO, Optional

from ._common import STDIN_NAME, InputError

#: One JSON value, not JSON Lines: "{", or "[" followed by "{" or "]" (an array of events).
JSON_START = re.compile(r"\s*(?:\{|\[\s*[{\]])")
decode_json = json.JSONDecoder().decode
_BLOCK = 1 << 20
#: An event stream that holds not a single event (W1): an error (exit 1), not an empty answer.
NO_EVENTS = "no server-sent events (no 'data:' line holding an event)"
#: How an event-stream field line starts (W1).
SSE_FIELDS = ("data:", "event:", "id:", "retry:", ":")


#: Harmony tokens that mark a text as raw gpt-oss output (P3).
HARMONY_TOKENS = ("<|channel|>", "<|message|>")


def looks_like_harmony(text: str) -> bool:
    """Whether a whole text carries harmony markup (P3), as ``normalize`` tells it."""
    if "<|" in text and any(token in text for token in HARMONY_TOKENS):
        return True
    return text.lstrip().startswith("analysis") and "assistantfinal" in text


class Watch:
    """Whether any of ``needles`` occurs in a text fed piece by piece (cut anywhere)."""

    def __init__(self, *needles: str) -> None:
        self.needles = needles
        self.keep = max(len(n) for n in needles) - 1
        self.tail = ""
        self.found = False

    def feed(self, text: str) -> None:
        if self.found:
            return
        window = self.tail + text
        self.found = any(n in window for n in self.needles)
        self.tail = window[-self.keep :] if self.keep else ""


def open_input(name: str) -> tuple[BinaryIO, str, bool]:
    """``(binary stream, name shown in messages, whether to close it)`` for a FILE argument.

    Raises:
        InputError: status 2 when the file cannot be opened.
    """
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError(f"{STDIN_NAME}: cannot open: standard input is closed", 2)
        return stream, STDIN_NAME, False
    try:
        return open(name, "rb"), name, True
    except OSError as exc:
        raise InputError(f"{name}: cannot open: {exc.strerror or exc}", 2) from None


def numbered(
    stream: BinaryIO, first: tuple[bytes, ...] = (), skipped: int = 0
) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, byte offset, line)`` for ``first`` (lines already read) then the rest."""
    lineno = offset = 0
    for raw in first:
        lineno += 1
        yield lineno, offset, raw
        offset += len(raw)
    # Blocks split at line ends: much cheaper per line than readline.
    rest = b""
    read = stream.read
    while True:
        block = read(_BLOCK)
        if not block:
            break
        lines = (rest + block).split(b"\n") if rest else block.split(b"\n")
        rest = lines.pop()
        for raw in lines:
            lineno += 1
            yield lineno, offset, raw
            offset += len(raw) + 1
    if rest:
        yield lineno + 1, offset, rest


def file_size(stream: BinaryIO) -> Optional[int]:
    """The size of a regular file, else None."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def json_object_line(line: bytes, errors: str) -> Optional[dict[str, Any]]:
    """The line's JSON object if the line is exactly one, else None."""
    body = line[3:] if line.startswith(codecs.BOM_UTF8) else line
    if body.lstrip()[:1] != b"{":
        return None
    try:
        value = decode_json(body.decode("utf-8", errors))
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def looks_like_sse(line: bytes) -> bool:
    """Whether a first non-empty line is an event-stream field line."""
    body = line[3:] if line.startswith(codecs.BOM_UTF8) else line
    text = body.decode("utf-8", "replace").rstrip("\r\n")
    return text.startswith(SSE_FIELDS) or text in ("data", "event")


def sse_verdict(lines: list[bytes]) -> Optional[bool]:
    """Whether complete lines, from the first non-empty one, are an event stream (W1): the
    first line is a field line and the first ``data:`` line holds JSON (``{``) or ``[DONE]``.
    None when no ``data:`` line is among them yet."""
    if not lines or not looks_like_sse(lines[0]):
        return False
    for raw in lines:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if line.startswith("data:"):
            value = line[5:].strip()
            return value.startswith("{") or value == "[DONE]"
    return None


def load_json(text: str, shown: str) -> Any:
    """One JSON value, or ``InputError`` with line and column."""
    try:
        return decode_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{shown}:{exc.lineno}: {json_error(exc)}") from None
    except RecursionError:
        raise InputError(f"{shown}: invalid JSON: nested too deeply") from None


def decode_utf8(data: bytes, shown: str, errors: str) -> str:
    """``data`` as text without a leading BOM, or ``InputError`` with the bad byte's offset."""
    skip = 3 if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return (data[skip:] if skip else data).decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise InputError(f"{shown}: {utf8_error(exc.start + skip)}") from None


def utf8_error(offset: int) -> str:
    """The message for invalid UTF-8 at a byte offset."""
    return f"invalid UTF-8 at byte offset {offset} (--errors replace substitutes U+FFFD)"


def json_error(exc: ValueError, line: Optional[str] = None) -> str:
    """``invalid JSON at column C: why``; for one line, C counts within the line."""
    if not isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc}"
    column = exc.colno
    if line is not None:  # the line still ends with its newline: report the end of the line
        column = min(exc.pos, len(line.rstrip("\r\n"))) + 1
    return f"invalid JSON at column {column}: {exc.msg}"


def json_type(value: Any) -> str:
    """``a number``, ``an array``, ... for messages."""
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def ollama_chunk(record: dict[str, Any]) -> bool:
    """Whether a JSON Lines record is a chunk of a saved Ollama stream (``/api/chat`` or
    ``/api/generate`` with ``stream: true``): ``"done": false`` and a ``message`` or
    ``response``.  A file of such lines is one stream, not records (P9); a response that is
    not streamed always says ``"done": true``."""
    return (
        record.get("done") is False
        and "model" in record
        and ("message" in record or "response" in record)
    )
