"""``--stream``: read standard input (or one FILE) as data arrives and write the answer live.

Input is read with ``os.read`` (not by lines, not waiting for the end) and decoded as UTF-8
incrementally.  Its kind, unless ``--format`` says (W1, see docs/behaviour.md#w1):

* Server-Sent Events (``curl -N`` output) when the first non-empty line is an event-stream field
  line (``data:``, ``event:``, ``id:``, ``retry:`` or a ``:`` comment) and the first ``data:``
  line holds JSON or ``[DONE]`` (lines before it are read first, up to 64 KiB): each event's
  JSON data goes to one ``StreamNormalizer``;
* JSON event lines (Ollama's NDJSON) when the first non-empty line is a complete JSON object that
  a provider family recognises (P8): one event per line, to one ``StreamNormalizer``;
* otherwise text, through one ``ThinkScanner``.  Only the first line is held back to decide, and
  only when it could start one of the two event kinds (``{``, ``d``, ``e``, ``i``, ``r``, ``:``).

Text that a whole file could read with the ``<REASONING>`` convention (no scanner option given,
no ``--format think``) is redacted as it arrives (R7, :mod:`.._redact`): a stream cannot know
whether a ``<REASONING>`` block will come, so it never releases what a whole text would hide --
each outermost ``<REDACTED>`` section becomes ``[REDACTED]`` and an unclosed one hides the rest;
``--no-redact`` keeps the tags as text.  Its scanner then reads ``<REASONING>`` and
``</REASONING>`` as a literal delimiter pair next to ``<think>``, so the block is reasoning
(T1-T9: the block ends at its first closer, and one opened after answer text is tentative;
a whole text's block runs to its last closer, R2).  With scanner options the text is read as
they say and not redacted, as a whole text is.

Nothing is echoed unparsed: an event that cannot be read is an error (exit 1), and so is an
error event (Anthropic's ``event: error``, an ``{"error": ...}`` event): the output so far is
kept, the message names the event, the stream is not read further (SSE) and the exit status is
1 -- a stream cut short by its provider never looks like a success.

Invalid UTF-8 (``--errors strict``): everything valid before the bad byte is decoded, written
and flushed (the scanner is closed, releasing what it held), then the error is reported with the
byte offset and the stream stops.  ``--errors replace`` substitutes U+FFFD and loses nothing.

When standard error is a terminal and no scanner option was given, a one-line hint is written
if the text's first tag is an orphan ``</think>`` (a template-opened block: the default stream
mode reads what precedes it as answer; ``--start-in-reasoning``, ``--preset`` or ``--model``
fix it) -- see docs/behaviour.md#t10.
"""

from __future__ import annotations

import codecs
from typing import Any, Optional

from ... import (
    ProviderError,
    ResponseShapeError,
    ScannerClosedError,
    StreamNormalizer,
    ThinkParseError,
    ThinkScanner,
    UnknownProviderError,
    iter_sse,
    split_think,
)
from .._common import InputError
from .._inputs import (
    NO_EVENTS,
    SSE_FIELDS,
    decode_json,
    json_error,
    json_type,
    open_input,
    sse_verdict,
    utf8_error,
)
from .._output import Context
from .._redact import StreamRedactor
from ._live_io import Capture, LiveWriter, Reader, decoded_text, read_chunks

#: The ``<REASONING>`` block (R1), read in a stream as a literal delimiter pair.
REASONING_PAIR = ("<REASONING>", "</REASONING>")
_HINT_WINDOW = 1 << 16
_SSE_PEEK = 1 << 16
HINT = (
    "thinkparse: hint: the text's first tag is a closing </think> (the prompt opened the "
    "block); use --start-in-reasoning, --preset or --model to read what precedes it as reasoning"
)


def run_stream(ctx: Context, name: str, capture: Optional[Capture] = None) -> None:
    """The whole ``--stream`` mode for one input; ``capture`` keeps what makes its result."""
    try:
        stream, shown, owned = open_input(name)
    except InputError as exc:
        ctx.fail(str(exc), exc.status)
        return
    try:
        reader = Reader(stream.fileno(), shown, capture)
        head, kind = _detect(ctx, reader)
        writer = LiveWriter(ctx)
        try:
            if kind == "sse":
                _sse(ctx, reader, head, writer, capture)
            elif kind == "jsonl":
                _event_lines(ctx, reader, head, writer, capture)
            else:
                _text(ctx, reader, head, writer, capture)
        except InputError:
            writer.finish()
            raise
        writer.finish()
    except InputError as exc:
        ctx.fail(str(exc), exc.status)
    finally:
        if owned:
            stream.close()


def _detect(ctx: Context, reader: Reader) -> tuple[bytes, str]:
    """Read as little as needed to know the kind; return the bytes read and the kind."""
    fmt = ctx.args.format
    if fmt in ("text", "think"):
        return b"", "text"
    head = b""
    while True:
        body = head[3:] if head.startswith(codecs.BOM_UTF8) else head
        first = body.lstrip()
        line, newline, _ = first.partition(b"\n")
        kind = _decide(ctx, line, bool(newline))
        if kind == "sse" and ctx.args.format is None:
            # W1: an event stream only if its first data line holds JSON; read up to it.
            complete = first.split(b"\n")[:-1]
            verdict = sse_verdict(complete)
            if verdict is None and len(head) < _SSE_PEEK:
                kind = None
            else:
                kind = "text" if verdict is False else "sse"
        if kind is not None:
            return head, kind
        data = reader.read()
        if not data:
            lines = first.split(b"\n")
            if _decide(ctx, line, True) == "sse" and ctx.args.format is None:
                return head, "text" if sse_verdict(lines) is False else "sse"
            return head, _decide(ctx, line, True) or "text"
        head += data


def _decide(ctx: Context, line: bytes, whole: bool) -> Optional[str]:
    """The kind from the first non-empty line (``whole``: the line is complete), or None."""
    fmt = ctx.args.format
    if fmt in ("sse", "jsonl"):
        return str(fmt)
    if not line and not whole:
        return None
    text = line.decode("utf-8", "replace").rstrip("\r")
    if text.startswith(SSE_FIELDS) or text in ("data", "event"):
        return "sse"
    if not whole and any(p.startswith(text) for p in (*SSE_FIELDS, "data", "event")):
        return None  # could still become a field line
    if ctx.settings.provider is not None:
        return "jsonl"  # --provider: JSON event lines unless the input is SSE
    if not text.startswith("{"):
        return "text"
    if not whole:
        return None
    try:
        event = decode_json(text)
    except (ValueError, RecursionError):
        return "text"
    if not isinstance(event, dict):
        return "text"
    try:
        StreamNormalizer().feed(event)
    except UnknownProviderError:
        return "text"  # a JSON answer, e.g. a model in JSON mode: the text is the answer
    except (ThinkParseError, ValueError):
        return "jsonl"  # a recognised family with a bad field: reported as such
    return "jsonl"


def text_mode(ctx: Context) -> tuple[dict[str, Any], bool]:
    """The live scanner's options for text, and whether to redact it (R7): a text a whole
    file could read with the ``<REASONING>`` convention gets that block as a delimiter pair
    and is redacted unless ``--no-redact``."""
    settings = ctx.settings
    if settings.scanner_options_given or ctx.args.format == "think":
        return dict(settings.stream_options), False
    options = {"tags": ("think",), "delimiters": (REASONING_PAIR,)}
    return options, not ctx.args.no_redact


def _text(
    ctx: Context, reader: Reader, head: bytes, writer: LiveWriter, capture: Optional[Capture]
) -> None:
    settings = ctx.settings
    settings.text_input(reader.shown)
    options, redact = text_mode(ctx)
    scanner = ThinkScanner(**options)
    redactor = StreamRedactor() if redact else None
    pieces: Optional[list[str]] = None
    if capture is not None:
        capture.options = options
        pieces = capture.pieces
    hint = ctx.console.tty and not settings.scanner_options_given
    seen: list[str] = []
    size = 0
    try:
        for text in decoded_text(ctx, reader, head):
            if redactor is not None:
                text = redactor.feed(text)
            if pieces is not None:
                pieces.append(text)
            delta = scanner.feed(text)
            if hint:
                seen.append(text)
                size += len(text)
                if delta.reasoning or size > _HINT_WINDOW or "</" in text:
                    hint = _orphan_check(ctx, "".join(seen), final=False)
                    seen = ["".join(seen)] if hint else []
            writer.delta(delta)
    except InputError:
        _end_text(scanner, redactor, pieces, writer)
        raise
    if hint:
        _orphan_check(ctx, "".join(seen), final=True)
    _end_text(scanner, redactor, pieces, writer)


def _end_text(
    scanner: Any, redactor: Optional[StreamRedactor], pieces: Optional[list[str]],
    writer: LiveWriter,
) -> None:
    """Release what the redactor and the scanner still hold."""
    if redactor is not None:
        tail = redactor.close()
        if pieces is not None:
            pieces.append(tail)
        writer.delta(scanner.feed(tail))
    writer.delta(scanner.close())


def _orphan_check(ctx: Context, text: str, final: bool) -> bool:
    """Write the hint if the first tag of ``text`` is an orphan closer; True to keep looking."""
    default = split_think(text)
    if default.reasoning is not None:
        return False  # a real block came first
    if split_think(text, start_in_reasoning="auto").reasoning is not None:
        ctx.console.error(HINT)
        return False
    return not final and len(text) <= _HINT_WINDOW


def _normalizer(ctx: Context, shown: str) -> Any:
    try:
        settings = ctx.settings
        return StreamNormalizer(
            provider=settings.provider, **settings.stream_options, **settings.choice_options
        )
    except (TypeError, ValueError) as exc:
        raise InputError(f"{shown}: {exc}") from None


def _sse(
    ctx: Context, reader: Reader, head: bytes, writer: LiveWriter, capture: Optional[Capture]
) -> None:
    shown = reader.shown
    normalizer = _normalizer(ctx, shown)
    if capture is not None:
        capture.normalizer = normalizer
    status = ctx.status
    n = 0
    try:
        for n, event in enumerate(iter_sse(decoded_text(ctx, reader, head)), 1):
            try:
                writer.delta(normalizer.feed(event))
            except ProviderError as exc:  # P16: what arrived stays printed; one line, exit 1
                ctx.fail(f"{shown}: event {n}: {exc}")
                break
            except ScannerClosedError:  # the message ended with an error already reported
                break
            except (ThinkParseError, ValueError) as exc:
                ctx.fail(f"{shown}: {exc}")
    except ResponseShapeError as exc:
        ctx.fail(f"{shown}: {exc}")
    if not n and ctx.status == status:
        ctx.fail(f"{shown}: {NO_EVENTS}")
    try:
        writer.delta(normalizer.close())
    except (ThinkParseError, ValueError) as exc:
        ctx.fail(f"{shown}: {exc}")


def _event_lines(
    ctx: Context, reader: Reader, head: bytes, writer: LiveWriter, capture: Optional[Capture]
) -> None:
    shown = reader.shown
    normalizer = _normalizer(ctx, shown)
    if capture is not None:
        capture.normalizer = normalizer
    pending: list[bytes] = []  # the current, incomplete line
    lineno = offset = 0

    def lines_of(lines: list[bytes]) -> None:
        nonlocal lineno, offset
        for raw in lines:
            lineno += 1
            start, offset = offset, offset + len(raw) + 1
            if raw and not raw.isspace():
                _event_line(ctx, normalizer, raw, lineno, start, shown, writer)

    for data in read_chunks(reader, head):
        pending.append(data)
        if b"\n" not in data:
            continue
        lines = b"".join(pending).split(b"\n")
        rest = lines.pop()
        pending = [rest] if rest else []
        lines_of(lines)
    if pending:
        lines_of([b"".join(pending)])
    try:
        writer.delta(normalizer.close())
    except (ThinkParseError, ValueError) as exc:
        ctx.fail(f"{shown}: {exc}")


def _event_line(
    ctx: Context,
    normalizer: Any,
    raw: bytes,
    lineno: int,
    offset: int,
    shown: str,
    writer: LiveWriter,
) -> None:
    try:
        text = raw.decode("utf-8", ctx.settings.errors)
    except UnicodeDecodeError as exc:
        ctx.fail(f"{shown}:{lineno}: {utf8_error(offset + exc.start)}")
        return
    if lineno == 1 and text.startswith("\ufeff"):
        text = text[1:]
    try:
        event = decode_json(text)
    except ValueError as exc:
        ctx.fail(f"{shown}:{lineno}: {json_error(exc)}")
        return
    except RecursionError:
        ctx.fail(f"{shown}:{lineno}: invalid JSON: nested too deeply")
        return
    if type(event) is not dict:
        ctx.fail(f"{shown}:{lineno}: an event must be a JSON object, not {json_type(event)}")
        return
    try:
        delta = normalizer.feed(event)
    except ScannerClosedError:  # the message ended with an error already reported (P16)
        return
    except (ThinkParseError, ValueError) as exc:
        ctx.fail(f"{shown}:{lineno}: {exc}")
        return
    writer.delta(delta)
