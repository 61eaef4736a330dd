"""One FILE argument of the main ``thinkparse`` command: its kind, then the library call that
reads it (see docs/behaviour.md#cli and ``_inputs`` for detection).

* ``--format text`` is the text choice alone (harmony markup → ``split_harmony``,
  ``<REASONING>`` → ``parse``, else ``split_think``; :func:`._textfile.text_reader`);
  ``reasoning-block`` forces ``parse``; ``think`` forces ``split_think``; ``harmony`` reads
  raw gpt-oss output with ``split_harmony``; ``json`` one JSON value; ``jsonl`` JSON Lines, one
  record per line; ``sse`` a Server-Sent Events body (W1), which must hold at least one event
  (else exit 1).
* A saved Ollama stream (JSON Lines whose first record says ``"done": false``, detected, or
  named ``*.jsonl`` / ``*.ndjson``) is one stream of events, one output, as ``--stream`` reads
  it; ``--format jsonl`` keeps it records.
* ``--provider`` forces the provider family for JSON input and makes detection skip the text
  kinds (a file that is not JSON Lines or SSE is parsed as one JSON value).
* Scanner options also configure the scanner of event streams (``StreamNormalizer``).
* Processing goes on after a bad file; the exit status is the highest that occurred.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO, Optional

from ... import (
    Extraction,
    ProviderError,
    ResponseShapeError,
    StreamNormalizer,
    ThinkParseError,
    iter_sse,
    normalize,
    parse,
    split_harmony,
)
from .._common import InputError, UsageError
from .._inputs import (
    JSON_START,
    NO_EVENTS,
    decode_json,
    decode_utf8,
    file_size,
    json_error,
    json_object_line,
    json_type,
    load_json,
    looks_like_sse,
    numbered,
    ollama_chunk,
    open_input,
    sse_verdict,
    utf8_error,
)
from .._output import Context, each_choice

# ``_jsonl`` (with its JSON decoder), ``_parquet`` and ``_textfile`` (text files) are imported
# where used: a run starts with only what its inputs need.

_SSE_READ = 1 << 16
#: How far detection reads for an event stream's first data line.
_SSE_PEEK = 1 << 16
#: Detection reads at most this much of the first line (a longer first line is not a record).
_FIRST_LINE = 1 << 25


def _is_parquet(name: str, fmt: Optional[str]) -> bool:
    """Whether a FILE argument is read as Parquet (``--format parquet`` or a ``.parquet`` name,
    unless ``--format`` names another container)."""
    if fmt == "parquet":
        return True
    return fmt in (None, "think", "reasoning-block") and name.lower().endswith(".parquet")


def one_file(ctx: Context, name: str) -> None:
    """Process one FILE argument; report its problems and go on."""
    try:
        if _is_parquet(name, ctx.args.format):
            from ._parquet import run_parquet

            run_parquet(ctx, name)
            return
        if ctx.args.output and ctx.args.output.lower().endswith(".parquet"):
            raise UsageError(f"{name}: --output FILE.parquet needs Parquet input")
        stream, shown, owned = open_input(name)
        try:
            _process(ctx, stream, shown, name)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise InputError(f"{shown}: cannot read: {exc.strerror or exc}", 2) from None
        finally:
            if owned:
                stream.close()
    except InputError as exc:
        ctx.fail(str(exc), exc.status)


def _process(ctx: Context, stream: BinaryIO, shown: str, name: str) -> None:
    settings = ctx.settings
    kind = ctx.args.format
    if kind is None and name.lower().endswith((".jsonl", ".ndjson")):
        _jsonl_or_stream(ctx, stream, shown)
        return
    if kind == "jsonl":
        from ._jsonl import run_jsonl

        run_jsonl(ctx, numbered(stream), shown, file_size(stream))
        return
    if kind == "sse":
        _sse_file(ctx, stream, b"", shown)
        return
    if kind is None:
        first = stream.readline(_FIRST_LINE)
        record = json_object_line(first, settings.errors)
        if record is not None:
            blanks: list[bytes] = []
            for line in stream:
                if line.isspace():
                    blanks.append(line)
                    continue
                lines = numbered(stream, (first, *blanks, line))
                if ollama_chunk(record):
                    _event_records(ctx, lines, shown)
                    return
                from ._jsonl import run_jsonl

                run_jsonl(ctx, lines, shown, file_size(stream))
                return
            _provider_value(ctx, record, shown)
            return
        head = first
        while head.isspace():
            nxt = stream.readline(_FIRST_LINE)
            if not nxt:
                break
            head += nxt
        if looks_like_sse(head.lstrip()):
            # An event stream only if its first data line holds JSON (W1); read up to it.
            peeked = [head.lstrip()]
            verdict = sse_verdict(peeked)
            while verdict is None and sum(map(len, peeked)) < _SSE_PEEK:
                nxt = stream.readline(_FIRST_LINE)
                if not nxt:
                    break
                peeked.append(nxt)
                verdict = sse_verdict(peeked)
            head = head + b"".join(peeked[1:])
            if verdict is not False:
                _sse_file(ctx, stream, head, shown)
                return
    else:
        head = b""
    if kind in (None, "text", "think") and ctx.pages is None and settings.provider is None:
        _text_input(ctx, stream, head, shown, kind)
        return
    text = decode_utf8(head + stream.read(), shown, settings.errors)
    if kind is None:
        looks_json = settings.provider is not None or JSON_START.match(text) is not None
        kind = "json" if looks_json else "text"
    _whole_text(ctx, text, shown, kind)


def _whole_text(ctx: Context, text: str, shown: str, kind: str) -> None:
    if kind == "json":
        _provider_value(ctx, load_json(text, shown), shown)
        return
    ctx.settings.text_input(shown)
    from ._textfile import text_reader

    ctx.emit(shown, text_reader(ctx.settings, kind)(text))


def _text_input(
    ctx: Context, stream: BinaryIO, head: bytes, shown: str, kind: Optional[str]
) -> None:
    """Text in bounded memory (``_textfile``); JSON and ``<REASONING>`` texts are read whole."""
    from ._textfile import Survey, TextSource, emit_streamed

    settings = ctx.settings
    source = TextSource(stream, head, shown, settings.errors)
    try:
        want_mark = kind != "think" and not settings.scanner_options_given
        survey = Survey(source, settings.text_options, want_mark)
        if kind is None and JSON_START.match(survey.lead):
            _whole_text(ctx, source.whole(), shown, "json")
        else:
            settings.text_input(shown)
            if survey.harmony:  # P3: raw gpt-oss output, read whole
                ctx.emit(shown, split_harmony(source.whole()))
            elif survey.has_mark:
                ctx.emit(shown, parse(source.whole(), redact=not ctx.args.no_redact))
            else:
                emit_streamed(ctx, source, shown, survey)
    finally:
        source.close()


def _provider_value(ctx: Context, value: Any, shown: str) -> None:
    if isinstance(value, dict):
        options = ctx.settings.options_for_responses(shown)
        try:
            if ctx.args.all_choices:
                for index, one in each_choice(value, ctx.settings.provider, options):
                    ctx.emit(shown, one, index)
                return
            ex = normalize(value, provider=ctx.settings.provider, **options)
        except (ThinkParseError, ValueError) as exc:
            raise InputError(f"{shown}: {exc}") from None
    elif isinstance(value, list):
        ex = _event_array(ctx, value, shown)
    else:
        raise InputError(
            f"{shown}: expected a JSON object (a provider response) or an array "
            f"(a stream of events), not {json_type(value)}"
        )
    ctx.emit(shown, ex)


def _normalizer(ctx: Context, shown: str) -> Any:
    try:
        settings = ctx.settings
        if settings.args.all_choices:
            raise InputError(
                f"{shown}: --all-choices applies to single responses and JSON Lines records, "
                "not to event streams (use --choice N)",
                2,
            )
        return StreamNormalizer(
            provider=settings.provider, **settings.stream_options, **settings.choice_options
        )
    except (TypeError, ValueError) as exc:
        raise InputError(f"{shown}: {exc}") from None


def _finish(normalizer: Any, shown: str) -> Extraction:
    try:
        normalizer.close()
        result: Extraction = normalizer.result
    except (ThinkParseError, ValueError) as exc:
        raise InputError(f"{shown}: {exc}") from None
    return result


def _event_array(ctx: Context, events: list[Any], shown: str) -> Extraction:
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise InputError(
                f"{shown}: event [{i}]: an event must be a JSON object, not {json_type(event)}"
            )
    normalizer = _normalizer(ctx, shown)
    for i, event in enumerate(events):
        _feed(ctx, normalizer, event, f"{shown}: event [{i}]", shown)
    return _finish(normalizer, shown)


def _feed(ctx: Context, normalizer: Any, event: Any, where: str, shown: str) -> None:
    """One event to the stream's normaliser; a provider error (P16) prints what arrived before
    it, marked incomplete, then ends the input with its one line (exit 1)."""
    try:
        normalizer.feed(event)
    except ProviderError as exc:
        ctx.emit(shown, normalizer.result, incomplete=True)
        raise InputError(f"{where}: {exc}") from None
    except (ThinkParseError, ValueError) as exc:
        raise InputError(f"{where}: {exc}") from None


def _jsonl_or_stream(ctx: Context, stream: BinaryIO, shown: str) -> None:
    """A ``*.jsonl`` / ``*.ndjson`` file: records, unless its first record is a chunk of a
    saved Ollama stream (then one stream of events)."""
    read: list[bytes] = []
    line = b""
    while True:  # up to the first non-blank line
        line = stream.readline(_FIRST_LINE)
        read.append(line)
        if not line or not line.isspace():
            break
    record = json_object_line(line, ctx.settings.errors)
    lines = numbered(stream, tuple(read))
    if record is not None and ollama_chunk(record):
        _event_records(ctx, lines, shown)
        return
    from ._jsonl import run_jsonl

    run_jsonl(ctx, lines, shown, file_size(stream))


def _event_records(ctx: Context, lines: Iterator[tuple[int, int, bytes]], shown: str) -> None:
    """JSON Lines that are the events of one stream (a saved Ollama stream): one output, as
    ``--stream`` gives; the first bad line ends it with its message (exit 1)."""
    errors = ctx.settings.errors
    normalizer = _normalizer(ctx, shown)
    for lineno, offset, raw in lines:
        if not raw or raw.isspace():
            continue
        where = f"{shown}:{lineno}"
        try:
            text = raw.decode("utf-8", errors)
        except UnicodeDecodeError as exc:
            raise InputError(f"{where}: {utf8_error(offset + exc.start)}") from None
        if lineno == 1 and text.startswith("\ufeff"):
            text = text[1:]
        try:
            event = decode_json(text)
        except ValueError as exc:
            raise InputError(f"{where}: {json_error(exc, text)}") from None
        except RecursionError:
            raise InputError(f"{where}: invalid JSON: nested too deeply") from None
        if not isinstance(event, dict):
            raise InputError(f"{where}: an event must be a JSON object, not {json_type(event)}")
        _feed(ctx, normalizer, event, where, shown)
    ctx.emit(shown, _finish(normalizer, shown))



def _sse_file(ctx: Context, stream: BinaryIO, head: bytes, shown: str) -> None:
    """A Server-Sent Events body, read in chunks, to one ``StreamNormalizer`` (W1)."""
    errors = ctx.settings.errors
    consumed = 0

    def chunks() -> Any:
        nonlocal consumed
        data = head
        while True:
            if not data:
                data = stream.read(_SSE_READ)
                if not data:
                    return
            # Decode here, so invalid UTF-8 is reported with its offset in the file.
            try:
                text = decoder.decode(data)
            except UnicodeDecodeError as exc:
                offset = consumed - len(held()) + exc.start
                raise InputError(f"{shown}: {utf8_error(offset)}") from None
            consumed += len(data)
            data = b""
            yield text

    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")(errors)

    def held() -> bytes:
        state: bytes = decoder.getstate()[0]
        return state

    normalizer = _normalizer(ctx, shown)
    n = 0
    try:
        for n, event in enumerate(iter_sse(chunks()), 1):
            _feed(ctx, normalizer, event, f"{shown}: event {n}", shown)
        try:
            decoder.decode(b"", True)
        except UnicodeDecodeError:
            raise InputError(f"{shown}: {utf8_error(consumed - len(held()))}") from None
    except ResponseShapeError as exc:
        raise InputError(f"{shown}: {exc}") from None
    if not n:
        raise InputError(f"{shown}: {NO_EVENTS}")
    ctx.emit(shown, _finish(normalizer, shown))
