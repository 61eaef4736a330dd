"""What the ``thinkparse`` command writes: the run's shared state (``Context``) and the output of
one input as text, as a JSON line, or as a card of the HTML page.

* Text output is the visible text (or, with ``--reasoning``, the reasoning), followed by a newline
  unless it is empty or already ends with one; nothing is written when it is empty.
* ``--json`` writes one object per input on one line: ``file`` (with several files) first, then
  ``visible``, ``reasoning``, ``tokens_est``, and for provider input ``provider``, ``format``,
  ``reasoning_tokens``, ``redacted``.
* Several files: text output is preceded by ``==> NAME <==`` and separated by a blank line, as
  ``head`` does; JSON output gets the ``file`` key and no header.
* ``--reasoning-to-stderr`` writes each input's reasoning to stderr, ending with a newline.
* ``--html`` writes one page (:class:`thinkparse.PageStream`, loaded through
  ``commands/html.py``): its head at the start, each card as its result comes, the summary at
  the end, so memory stays bounded; each card is named by the file, or ``FILE:LINE`` (or the
  record's key) for JSON Lines records.
* Lone surrogates, which only JSON ``\\ud800``-style escapes can produce, are written as U+FFFD;
  all output is UTF-8, whatever the locale.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import stat
from typing import IO, Any, BinaryIO, Optional, Union, cast

from .. import Extraction, Parsed, Split, normalize
from ._common import EXIT_INPUT, EXIT_OK, STDIN_NAME, Stdout, UsageError, stdout_binary
from ._console import Console
from ._options import Settings

Result = Union[Parsed, Split, Extraction]
encode_json = json.JSONEncoder(ensure_ascii=False).encode


def refuse_input_as_output(output: Optional[str], inputs: list[str], prompt: Optional[str]) -> None:
    """``UsageError`` when ``-o FILE`` is one of the inputs (``-`` when standard input is that
    file) or the ``--prompt-file``: opening it for writing would truncate it before it is read.
    Files are compared by identity (``os.stat``: device and inode), so a symbolic or a hard link
    to an input is caught too; only an existing regular output file can be one."""
    if output is None:
        return
    try:
        target = os.stat(output)
    except (OSError, ValueError):
        return  # not there yet (or not reachable: opening it says why)
    if not stat.S_ISREG(target.st_mode):
        return  # /dev/null, a pipe, a terminal: writing truncates nothing
    named = [(name, name if name != "-" else STDIN_NAME) for name in inputs]
    if prompt is not None:
        named.append((prompt, f"--prompt-file {prompt}"))
    for name, shown in named:
        try:
            st = os.fstat(0) if name == "-" else os.stat(name)
        except (OSError, ValueError):
            continue  # reported when the input is opened
        if (st.st_dev, st.st_ino) == (target.st_dev, target.st_ino):
            raise UsageError(
                f"the output file {output} is also an input ({shown}): write the output elsewhere"
            )


def with_newline(text: str) -> str:
    """``text`` ending with a newline, unless it is empty."""
    return text if not text or text.endswith("\n") else text + "\n"


class _PageOut(io.RawIOBase):
    """The ``--html`` page's stream: its writes go through :class:`Stdout`, so a write that
    fails (a full device) is an ``OutputError`` (exit 1) and a closed pipe a quiet 141."""

    def __init__(self, stdout: Stdout) -> None:
        super().__init__()
        self.stdout = stdout

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.stdout.write_bytes(data)
        return len(data)


class Context:
    """One run of the command: settings, outputs and the exit status so far."""

    def __init__(self, settings: Settings, sink: Optional[IO[bytes]] = None) -> None:
        self.settings = settings
        self.args = settings.args
        self.out_file: Any = None
        if sink is not None:  # a worker process: output collected for the parent
            self.stdout = Stdout(sink)
        elif settings.args.output is not None and not settings.args.output.lower().endswith(
            ".parquet"
        ):  # a Parquet output is written by the Parquet reader
            try:
                self.out_file = open(settings.args.output, "wb")  # noqa: SIM115
            except OSError as exc:
                raise UsageError(
                    f"cannot open the output file {settings.args.output}: {exc.strerror or exc}"
                ) from None
        if sink is None:
            self.stdout = Stdout(self.out_file if self.out_file is not None else stdout_binary())
        self.console = Console(self.stdout)
        self.status = EXIT_OK
        self.headers = 0
        #: With --html: the page, written card by card as results come (memory bounded).
        self.pages: Any = None
        if settings.args.html:
            html: Any = importlib.import_module(f"{__package__}.commands.html")
            a = settings.args
            self.pages = html.PageStream(
                cast("BinaryIO", _PageOut(self.stdout)),
                title="thinkparse" if a.title is None else a.title,
                limit=1000 if a.limit is None else a.limit,
            )

    def fail(self, message: str, status: int = EXIT_INPUT) -> None:
        """Report one problem and raise the exit status to at least ``status``."""
        self.console.error(message)
        self.status = max(self.status, status)

    def close(self) -> None:
        """Write the HTML page if one was asked for, flush, and close an output file."""
        if self.pages is not None:
            self.stdout.flush()
            self.pages.close()
        self.stdout.flush()
        if self.out_file is not None:
            self.out_file.close()

    def abandon(self) -> None:
        """Close an output file without writing more (the run was interrupted)."""
        if self.out_file is not None:
            with contextlib.suppress(OSError):
                self.out_file.close()

    def emit(self, shown: str, result: Result, choice: Optional[int] = None,
             incomplete: bool = False) -> None:
        """Write the output of one whole input (or of its choice ``choice``); ``incomplete``:
        the stream ended with a provider error (P16), marked ``"incomplete": true`` in JSON."""
        visible = result.visible
        reasoning = result.reasoning
        if self.pages is not None:
            self.pages.append((shown if choice is None else f"{shown} [choice {choice}]", result))
            return
        if self.args.reasoning_to_stderr and reasoning:
            self.stdout.flush()
            self.console.reasoning(with_newline(reasoning))
        if self.args.json:
            obj: dict[str, Any] = {"file": shown} if self.settings.multi else {}
            if choice is not None:
                obj["choice"] = choice
            obj["visible"] = visible
            obj["reasoning"] = reasoning
            obj["tokens_est"] = tokens_est(result)
            if isinstance(result, Extraction):
                obj["provider"] = result.provider
                obj["format"] = result.format
                obj["reasoning_tokens"] = result.reasoning_tokens
                obj["redacted"] = result.redacted
            if incomplete:
                obj["incomplete"] = True
            if self.args.explain:
                obj.update(self.settings.evidence())
            self.stdout.write(encode_json(obj) + "\n")
        else:
            if self.settings.multi or choice is not None:
                name = shown if choice is None else f"{shown} [choice {choice}]"
                self.stdout.write(f"{chr(10) if self.headers else ''}==> {name} <==\n")
                self.headers += 1
            text = reasoning if self.args.reasoning else visible
            self.stdout.write(with_newline(text or ""))
        self.stdout.flush()


def each_choice(
    value: dict[str, Any], provider: Optional[str], options: dict[str, Any]
) -> list[tuple[int, Extraction]]:
    """``(index, result)`` for every choice of a response (W4): Chat ``choices`` and Gemini
    ``candidates`` are counted; other families have one."""
    first = normalize(value, provider=provider, **options)
    key = {"openai_chat": "choices", "gemini": "candidates"}.get(first.provider)
    items = value.get(key) if key is not None else None
    count = len(items) if isinstance(items, list) else 1
    options = {k: v for k, v in options.items() if k != "choice"}
    more = [(i, normalize(value, provider=provider, choice=i, **options)) for i in range(1, count)]
    return [(0, first), *more]


#: Characters per estimated token (docs/behaviour.md#r6; the library's own constant is private).
CHARS_PER_TOKEN = 4


def chars_tokens(chars: int) -> int:
    """``tokens_est`` of a reasoning of ``chars`` characters: ``ceil(chars / 4)`` (R6)."""
    return -(-chars // CHARS_PER_TOKEN)


def tokens_est(result: Result) -> int:
    """The result's ``tokens_est``, computed for a ``Split``, which has none (R6)."""
    if isinstance(result, Split):
        return 0 if result.reasoning is None else chars_tokens(len(result.reasoning))
    return result.tokens_est
