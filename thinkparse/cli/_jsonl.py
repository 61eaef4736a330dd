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

Speed: the record loop keeps everything in locals, builds each line from one format string with
the C string encoder of the ``json`` module (byte-identical to ``json.dumps(...,
ensure_ascii=False)``), and decodes with ``msgspec`` when it is installed (``thinkparse[fast]``).
``msgspec`` gives the standard decoder's values for every document both accept (integers of any
size stay exact, floats round the same way, the last of duplicate keys wins); anything it
rejects (NaN, infinities, lone surrogates, invalid UTF-8, deep nesting) is decoded again by the
standard decoder, so the values and the messages are always the standard ones.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Iterator
from typing import Any, Callable, Optional

from .. import ThinkParseError, normalize
from ._common import EXIT_INPUT, InputError, isatty
from ._console import Progress
from ._inputs import decode_json, json_error, json_type, utf8_error
from ._output import Context, each_choice, encode_json, with_newline

_enc_str: Callable[[str], str] = json.encoder.encode_basestring


def _fast_loads() -> Optional[Callable[[bytes], Any]]:
    try:
        import msgspec  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    loads: Callable[[bytes], Any] = msgspec.json.decode
    return loads


_FAST_LOADS = _fast_loads()


def _s(value: Optional[str]) -> str:
    return "null" if value is None else _enc_str(value)


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
    key_prefix = _enc_str(key_name) + ": "
    key_always = key is not None
    only_reasoning = bool(ctx.args.reasoning)
    to_stderr = bool(ctx.args.reasoning_to_stderr)
    pages = ctx.pages
    head = "{" if not settings.multi else '{"file": ' + _enc_str(shown) + ", "
    out = ctx.stdout
    write = out.write
    console = ctx.console
    fast = _FAST_LOADS if errors == "strict" else None
    progress = None
    if (
        console.tty
        and not isatty(ctx.stdout.stream)
        and not ctx.args.no_progress
        and pages is None
        and ctx.out_file is None
    ):
        progress = console.progress = Progress(console, shown, total)
        progress.tick(0, 0)
    failed = False
    encoded: dict[tuple[str, str], str] = {}

    def bad(lineno: int, message: str, record: Any = None) -> None:
        nonlocal failed
        failed = True
        console.error(f"{shown}:{lineno}: {message}")
        if pages is not None:
            return
        parts = [head]
        if isinstance(record, dict) and (key_always or key_name in record):
            parts.append(key_prefix + encode_json(record.get(key_name)) + ", ")
        parts.append('"error": ' + _enc_str(message) + "}\n")
        write("".join(parts))

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
                kv = value.get(key_name)
                kv_text = _enc_str(kv) if type(kv) is str else encode_json(kv)
                keyed = f"{head}{key_prefix}{kv_text}, "
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
                start = keyed if index is None else f'{keyed}"choice": {index}, '
                if only_reasoning:
                    write(start + '"reasoning": ' + _s(reasoning) + "}\n")
                    continue
                names = encoded.get((ex.provider, ex.format))
                if names is None:
                    names = encoded[(ex.provider, ex.format)] = (
                        f'"provider": {_enc_str(ex.provider)}, "format": {_enc_str(ex.format)}'
                    )
                rt = ex.reasoning_tokens
                write(
                    f'{start}"visible": {_enc_str(ex.visible)}, "reasoning": '
                    f"{'null' if reasoning is None else _enc_str(reasoning)}, "
                    f'"tokens_est": {ex.tokens_est}, {names}, "reasoning_tokens": '
                    f"{'null' if rt is None else int(rt)}, "
                    f'"redacted": {"true" if ex.redacted else "false"}}}\n'
                )
    finally:
        if progress is not None:
            progress.erase()
            console.progress = None
    out.flush()
    if failed:
        ctx.status = max(ctx.status, EXIT_INPUT)
