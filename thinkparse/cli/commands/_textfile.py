"""Text inputs in bounded memory: ``split_think`` (with ``"auto"``) over a file read in chunks.

A text input is read in passes over the file (standard input that is not a regular file is first
copied to a temporary file), never whole:

1. decode it all (so invalid UTF-8 is reported before anything is written, with its offset),
   note whether it contains ``<REASONING>`` or harmony markup (P3) and how it starts (JSON),
   and, for
   ``start_in_reasoning="auto"`` (T10), feed a default-mode ``ThinkScanner`` until it consumes
   its first tag: ``orphan_at`` says whether that tag was an orphan closer;
2. stream the text through a scanner, exactly as ``split_think`` does for ``"auto"``: without an
   orphan closer, one default-mode scan; with one, the text before it (stripped) is the first
   reasoning block and the rest is scanned from the closer on, its reasoning joined after a
   blank line (T9, T10);
3. for ``--json``, the pass is run once for ``visible`` and once for ``reasoning``, each written
   as a JSON string piece by piece.

Memory stays bounded by the read size and the scanner's held text (T-rules bound it by
``max_tentative``), whatever the input size.  Inputs that go to ``parse`` (``<REASONING>``)
or to ``split_harmony``, that are one JSON value, or that feed ``--html`` are read whole: those
results are whole values.
"""

from __future__ import annotations

import codecs
import json.encoder
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO, Any, Callable, Optional

from ... import ThinkScanner, parse, split_harmony, split_think
from .._common import InputError
from .._inputs import HARMONY_TOKENS, Watch, looks_like_harmony, utf8_error
from .._options import Settings
from .._output import Context, Result, chars_tokens, encode_json, with_newline

_READ = 1 << 18
_SEP = "\n\n"
_MARK = "<REASONING>"
_enc_str: Callable[[str], str] = json.encoder.encode_basestring


class TextSource:
    """A seekable copy of one text input, decoded in chunks on each pass."""

    def __init__(self, stream: IO[bytes], head: bytes, shown: str, errors: str) -> None:
        self.shown = shown
        self.errors = errors
        self.owned: Optional[IO[bytes]] = None
        try:
            seekable = stream.seekable()
        except (OSError, ValueError):
            seekable = False
        if seekable:
            self.file = stream
            self.start = stream.tell() - len(head)
        else:
            spool = tempfile.TemporaryFile()  # noqa: SIM115
            spool.write(head)
            shutil.copyfileobj(stream, spool, _READ)
            self.file = self.owned = spool
            self.start = 0

    def close(self) -> None:
        if self.owned is not None:
            self.owned.close()

    def chunks(self) -> Iterator[str]:
        """The text in pieces, without a leading BOM; ``InputError`` at invalid UTF-8."""
        self.file.seek(self.start)
        decoder = codecs.getincrementaldecoder("utf-8")(self.errors)
        consumed = 0
        first = True
        while True:
            data = self.file.read(_READ)
            held = decoder.getstate()[0]
            try:
                text = decoder.decode(data, not data)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{self.shown}: {utf8_error(consumed - len(held) + exc.start)}"
                ) from None
            consumed += len(data)
            if first and text:
                first = False
                if text.startswith("\ufeff"):
                    text = text[1:]
            if text:
                yield text
            if not data:
                return

    def whole(self) -> str:
        return "".join(self.chunks())


def text_reader(settings: Settings, kind: Optional[str]) -> Callable[[str], Result]:
    """The library call that reads one whole text of this kind (``None`` or ``"text"``:
    detected, as a text file is; ``"parquet"``: the same for each row).

    Detection needs no scanner option given (they describe ``<think>``-style markup): harmony
    markup (P3) goes to ``split_harmony``, ``<REASONING>`` to ``parse`` (R7: redacted unless
    ``--no-redact``), anything else to ``split_think`` with the text options (``"auto"``)."""
    redact = not settings.args.no_redact
    options = settings.text_options
    if kind == "harmony":
        return split_harmony
    if kind == "reasoning-block":
        return lambda text: parse(text, redact=redact)
    if kind == "think" or settings.scanner_options_given:
        return lambda text: split_think(text, **options)

    def detected(text: str) -> Result:
        if looks_like_harmony(text):
            return split_harmony(text)
        if "<REASONING>" in text:
            return parse(text, redact=redact)
        return split_think(text, **options)

    return detected


def scanner_options(options: dict[str, Any]) -> dict[str, Any]:
    """``split_think`` options without the one-shot ``unclosed`` (F7), for a ``ThinkScanner``."""
    return {k: v for k, v in options.items() if k != "unclosed"}


class Survey:
    """Pass 1: validity, ``<REASONING>`` and harmony markup (P3), the first characters, and the
    first tag (T10)."""

    def __init__(self, source: TextSource, options: dict[str, Any], want_mark: bool) -> None:
        auto = options.get("start_in_reasoning") == "auto"
        unclosed_answer = options.get("unclosed") == "answer" and not auto
        options = scanner_options(options)
        scanner = ThinkScanner(**{**options, "start_in_reasoning": False}) if auto else None
        # F7: with unclosed="answer", whether a block the template opened stays open to the end
        # with no tag consumed (then pass 2 reads the text from visible text).
        opened: Any = ThinkScanner(**options) if unclosed_answer else None
        mark, tokens, final = Watch(_MARK), Watch(*HARMONY_TOKENS), Watch("assistantfinal")
        self.lead = ""  # the text's start, up to its first non-whitespace characters
        start = ""  # enough of the start to see a leading "analysis" (P3)
        for text in source.chunks():
            if len(self.lead.lstrip()) < 2:
                self.lead += text[:64]
            if len(start.lstrip()) < len("analysis"):
                start += text[:64]
            if want_mark:
                mark.feed(text)
                tokens.feed(text)
                final.feed(text)
            if scanner is not None:
                scanner.feed(text)
                if scanner.tag_consumed:
                    self.orphan_at = scanner.orphan_at
                    scanner = None
            if opened is not None:
                opened.feed(text)
                if opened.tag_consumed or not opened.in_reasoning:
                    opened = None
        if scanner is not None:
            scanner.close()
            self.orphan_at = scanner.orphan_at
        self.read_as_answer = opened is not None
        self.has_mark = mark.found
        #: Raw gpt-oss output (P3), read as ``--format harmony`` reads it.
        self.harmony = tokens.found or (start.lstrip().startswith("analysis") and final.found)
        self.auto = auto
        if not auto:
            self.orphan_at = None


class Split:
    """Pass 2: the ``(visible, reasoning)`` pieces ``split_think`` would give, in order."""

    def __init__(self, source: TextSource, options: dict[str, Any], survey: Survey) -> None:
        self.source = source
        self.options = scanner_options(options)
        if survey.auto or survey.read_as_answer:
            self.options.pop("prompt", None)
            self.options["start_in_reasoning"] = False
        self.orphan_at = survey.orphan_at
        self.has_reasoning = False
        self.reasoning_chars = 0

    def pieces(self) -> Iterator[tuple[str, str]]:
        """Yield pieces; afterwards ``has_reasoning`` and ``reasoning_chars`` are set."""
        self.reasoning_chars = 0
        chunks = self.source.chunks()
        prefix_text = False
        if self.orphan_at is not None:
            rest: list[str] = []
            for kind, piece in _prefix(chunks, self.orphan_at, rest):
                if kind:
                    prefix_text = True
                    self.reasoning_chars += len(piece)
                    yield "", piece
            chunks = _chain(rest, chunks)
        scanner = ThinkScanner(**self.options)
        sep = prefix_text
        for text in chunks:
            v, r = scanner.feed(text)
            if r and sep:
                sep = False
                r = _SEP + r
            self.reasoning_chars += len(r)
            if v or r:
                yield v, r
        v, r = scanner.close()
        if r and sep:
            r = _SEP + r
        self.reasoning_chars += len(r)
        if v or r:
            yield v, r
        self.has_reasoning = self.orphan_at is not None or scanner.had_block


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _prefix(chunks: Iterator[str], end: int, rest: list[str]) -> Iterator[tuple[bool, str]]:
    """The stripped text before character ``end`` as ``(True, piece)``; the text from ``end``
    on is left in ``rest`` (its first piece) and ``chunks``."""
    pos = 0
    started = False
    held = ""  # trailing whitespace, written only if more text follows
    for text in chunks:
        piece = text if pos + len(text) <= end else text[: end - pos]
        pos += len(text)
        if not started:
            piece = piece.lstrip()
            started = bool(piece)
        if piece:
            body = (held + piece).rstrip()
            held = (held + piece)[len(body) :]
            if body:
                yield True, body
        if pos >= end:
            tail = text[len(text) - (pos - end) :]
            if tail:
                rest.append(tail)
            return


def emit_streamed(ctx: Context, source: TextSource, shown: str, survey: Survey) -> None:
    """Write one text input's output from streamed passes (text or ``--json``)."""
    options = ctx.settings.text_options
    split = Split(source, options, survey)
    out = ctx.stdout
    args = ctx.args
    if args.json:
        head = "{" if not ctx.settings.multi else '{"file": ' + _enc_str(shown) + ", "
        out.write(head + '"visible": "')
        for v, _ in split.pieces():
            if v:
                out.write(_enc_str(v)[1:-1])
        out.write('", "reasoning": ')
        if split.has_reasoning:
            out.write('"')
            last_err = ""
            for _, r in split.pieces():
                if r:
                    out.write(_enc_str(r)[1:-1])
                    if args.reasoning_to_stderr:
                        ctx.console.reasoning(r)
                        last_err = r
            if last_err:
                ctx.console.reasoning(with_newline(last_err)[len(last_err) :])
            out.write('"')
        else:
            out.write("null")
        tokens = chars_tokens(split.reasoning_chars) if split.has_reasoning else 0
        evidence = ""
        if args.explain:  # F8
            evidence = ", " + encode_json(ctx.settings.evidence())[1:-1]
        out.write(f', "tokens_est": {tokens}{evidence}}}\n')
        out.flush()
        return
    if ctx.settings.multi:
        out.write(f"{chr(10) if ctx.headers else ''}==> {shown} <==\n")
        ctx.headers += 1
    want_reasoning = bool(args.reasoning)
    to_stderr = bool(args.reasoning_to_stderr)
    last = last_err = ""
    for v, r in split.pieces():
        if to_stderr and r:
            out.flush()
            ctx.console.reasoning(r)
            last_err = r
        text = r if want_reasoning else v
        if text:
            out.write(text)
            last = text
    if last_err:
        ctx.console.reasoning(with_newline(last_err)[len(last_err) :])
    out.write(with_newline(last)[len(last) :])
    out.flush()
