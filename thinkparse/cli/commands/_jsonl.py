"""JSON Lines input: one provider response per line, read record by record in constant memory.

Each record gives one output line, in order, so output line N belongs to the Nth record (blank
lines between records are not records and give nothing):

* a good record: ``{"file"?, KEY?, "visible", "reasoning", "tokens_est", "provider", "format",
  "reasoning_tokens", "redacted"}`` -- with ``--reasoning``, only ``file``, the key and
  ``reasoning``;
* a bad record (invalid UTF-8 under ``--errors strict``, invalid JSON, not an object, a shape no
  provider has): ``{"file"?, KEY?, "error": "…"}`` in its place, and the same message as
  ``FILE:LINE: …`` on stderr; the run goes on and exits 1.

With ``--all-choices`` a record gives one line per choice (``n > 1``: Chat ``choices``, Gemini
``candidates``), each with ``"choice": I`` after the key, so lines join back by key and index.

KEY is the record's ``id`` when it has one, or with ``--key FIELD`` that top-level field (``null``
when the record lacks it), so outputs can be joined back to inputs.

Speed: the record loop keeps everything in locals and builds each line as bytes from one
format.  With ``msgspec`` installed (``thinkparse[fast]``) records are decoded by it and strings
are quoted by it; both give exactly what the standard library gives:

* decoding: the standard decoder's values for every document both accept (integers of any size
  stay exact, floats round the same way, the last of duplicate keys wins); anything ``msgspec``
  rejects (NaN, infinities, lone surrogates, invalid UTF-8, deep nesting) is decoded again by
  the standard decoder, so values and messages are always the standard ones;
* quoting: a string is written as ``json.dumps(text, ensure_ascii=False)`` encoded to UTF-8
  (checked for every code point by the tests); a string with a lone surrogate is quoted by the
  standard encoder, the surrogate written as U+FFFD like everywhere in the output.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Iterator
from typing import Any, Callable, Optional

from ... import ThinkParseError, normalize
from .._common import EXIT_INPUT, InputError, encode, isatty
from .._console import Progress
from .._inputs import decode_json, json_error, json_type, utf8_error
from .._output import Context, each_choice, encode_json, with_newline

_enc_str: Callable[[str], str] = json.encoder.encode_basestring


def _quote_std(text: str) -> bytes:
    """``json.dumps(text, ensure_ascii=False)`` as UTF-8 (lone surrogates as U+FFFD)."""
    return encode(_enc_str(text))


def _fast_codec() -> tuple[Optional[Callable[[bytes], Any]], Callable[[str], bytes]]:
    """The record decoder (``None``: the standard one) and the string quoter."""
    try:
        import msgspec  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None, _quote_std
    loads: Callable[[bytes], Any] = msgspec.json.decode
    dumps: Callable[[Any], bytes] = msgspec.json.encode

    def quote(text: str) -> bytes:
        # msgspec writes a str exactly as json.dumps(..., ensure_ascii=False) encoded to UTF-8
        # (every code point checked by the tests); it refuses lone surrogates.
        try:
            return dumps(text)
        except UnicodeEncodeError:
            return _quote_std(text)

    return loads, quote


_FAST_LOADS, _QUOTE = _fast_codec()


def _value(value: Any) -> bytes:
    """A key's value as JSON: strings quoted, anything else as ``json.dumps`` writes it."""
    return _QUOTE(value) if type(value) is str else encode(encode_json(value))


def run_jsonl(
    ctx: Context, lines: Iterator[tuple[int, int, bytes]], shown: str, total: Optional[int]
) -> None:
    """Process JSON Lines records from ``lines`` (``(line number, offset, bytes)``)."""
    settings = ctx.settings
    try:
        options = settings.options_for_responses(shown)
    except InputError as exc:
        ctx.fail(str(exc), exc.status)
        return
    provider, errors = settings.provider, settings.errors
    all_choices = bool(ctx.args.all_choices)
    key = ctx.args.key
    key_name = key if key is not None else "id"
    key_prefix = _QUOTE(key_name) + b": "
    key_always = key is not None
    only_reasoning = bool(ctx.args.reasoning)
    to_stderr = bool(ctx.args.reasoning_to_stderr)
    pages = ctx.pages
    head = b"{" if not settings.multi else b'{"file": ' + _QUOTE(shown) + b", "
    out = ctx.stdout
    add = out.add
    quote = _QUOTE
    console = ctx.console
    fast = _FAST_LOADS if errors == "strict" else None
    progress = None
    # The bar goes to a terminal stderr unless the output itself goes to a terminal (the two
    # would mix there): with -o FILE and --html too.
    if console.tty and not ctx.args.no_progress and not (
        ctx.out_file is None and isatty(ctx.stdout.stream)
    ):
        progress = console.progress = Progress(console, shown, total)
        progress.tick(0, 0)
    failed = False
    encoded: dict[tuple[str, str], bytes] = {}

    def bad(lineno: int, message: str, record: Any = None) -> None:
        nonlocal failed
        failed = True
        console.line_error(shown, lineno, message)
        if pages is not None:
            return
        parts = [head]
        if isinstance(record, dict) and (key_always or key_name in record):
            parts.append(key_prefix + _value(record.get(key_name)) + b", ")
        parts.append(b'"error": ' + quote(message) + b"}\n")
        add(b"".join(parts))

    try:
        for lineno, offset, raw in lines:
            if not raw or raw.isspace():
                continue
            if progress is not None:
                progress.tick(offset, lineno)
            value: Any = None
            if fast is not None and lineno != 1:
                try:
                    value = fast(raw)
                except (ValueError, RecursionError):
                    value = None
            if value is None:
                try:
                    text = raw.decode("utf-8", errors)
                except UnicodeDecodeError as exc:
                    bad(lineno, utf8_error(offset + exc.start))
                    continue
                if lineno == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                try:
                    value = decode_json(text)
                except ValueError as exc:
                    bad(lineno, json_error(exc, text))
                    continue
                except RecursionError:
                    bad(lineno, "invalid JSON: nested too deeply")
                    continue
            if type(value) is not dict:
                bad(
                    lineno,
                    "a JSON Lines record must be a JSON object (a provider response), "
                    f"not {json_type(value)}",
                )
                continue
            try:
                if all_choices:
                    results: Any = each_choice(value, provider, options)
                else:
                    results = ((None, normalize(value, provider=provider, **options)),)
            except (ThinkParseError, ValueError) as exc:
                bad(lineno, str(exc), value)
                continue
            if key_always or key_name in value:
                keyed = head + key_prefix + _value(value.get(key_name)) + b", "
            else:
                keyed = head
            for index, ex in results:
                reasoning = ex.reasoning
                if pages is not None:
                    name = f"{shown}:{lineno}"
                    if key_name in value and isinstance(value[key_name], (str, int)):
                        name = str(value[key_name])
                    pages.append((name if index is None else f"{name} [choice {index}]", ex))
                    continue
                if to_stderr and reasoning:
                    out.flush()
                    console.reasoning(with_newline(reasoning))
                start = keyed if index is None else b'%s"choice": %d, ' % (keyed, index)
                r_text = b"null" if reasoning is None else quote(reasoning)
                if only_reasoning:
                    add(b'%s"reasoning": %s}\n' % (start, r_text))
                    continue
                names = encoded.get((ex.provider, ex.format))
                if names is None:
                    names = encoded[(ex.provider, ex.format)] = b'"provider": %s, "format": %s' % (
                        quote(ex.provider),
                        quote(ex.format),
                    )
                rt = ex.reasoning_tokens
                add(
                    b'%s"visible": %s, "reasoning": %s, "tokens_est": %d, %s, '
                    b'"reasoning_tokens": %s, "redacted": %s}\n'
                    % (
                        start,
                        quote(ex.visible),
                        r_text,
                        ex.tokens_est,
                        names,
                        b"null" if rt is None else b"%d" % rt,
                        b"true" if ex.redacted else b"false",
                    )
                )
    finally:
        if progress is not None:
            progress.erase()
            console.progress = None
    out.flush()
    if failed:
        ctx.status = max(ctx.status, EXIT_INPUT)
