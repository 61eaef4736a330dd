"""``thinkparse convert``: JSON Lines chat traces rewritten by ``convert_trace`` (#c6, #c2).

Each line of each input is one chat transcript (a chat trace, not a row of the trace store;
docs/behaviour.md, "Words used throughout"): an object with a ``messages`` array (other keys
are kept as they are) or a bare array of messages; the output line has the same shape.  Input
is read line by line, so memory stays constant whatever the file size.

A record that cannot be converted (invalid UTF-8 or JSON, a wrong shape, a bad message) is
reported on standard error as ``FILE:LINE: message`` (as the main command reports a bad JSON
Lines record) and, with ``--errors keep`` (the default), written out unchanged, byte for byte,
so the output has exactly as many lines as the input and line N of one is line N of the
other; blank lines are passed through too.
``--errors skip`` leaves such records out, ``--errors fail`` stops at the first one.

Exit status: 0 all converted; 1 some record could not be converted; 2 usage error or an input
that cannot be opened (the other inputs are still processed); 130 on Ctrl-C; 141 when the
output pipe is closed (quietly).

The main command runs it as ``thinkparse convert ...``; the exit statuses, the one-line errors
and the buffered output are the shared ones of :mod:`thinkparse.cli._common`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO, NoReturn, Optional

from ... import convert_trace
from .._common import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    STDIN_NAME,
    Stdout,
    UsageError,
    guarded,
    stderr_line,
    stdout_binary,
)
from .._parser import refuse_swallowed_file

COMMAND = f"{PROG} convert"
_DECODE = json.JSONDecoder().decode
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
#: The values ``convert_trace`` takes for ``to`` and ``keep`` (#c2).
TARGETS = ("reasoning_content", "reasoning", "think_tags", "content_blocks", "none")
KEEPS = ("all", "last", "none")
_SHAPE = 'a record must be a JSON array of messages or an object with a "messages" array'

EXAMPLES = """\
examples:
  thinkparse convert --to think_tags traces.jsonl > sft.jsonl
  thinkparse convert --to content_blocks --keep last traces.jsonl
  cat traces.jsonl | thinkparse convert --to reasoning_content --errors skip -
"""


class _Stop(Exception):
    """``--errors fail``: the first bad record ends the run."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> _Parser:
    p = _Parser(
        prog=COMMAND,
        description="Rewrite JSON Lines chat traces with their reasoning in one representation.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="JSON Lines files; '-' or none: stdin")
    p.add_argument("--to", required=True, choices=TARGETS, help="the target representation")
    p.add_argument(
        "--keep", default="all", choices=KEEPS, help="which assistant messages keep reasoning"
    )
    p.add_argument(
        "--errors",
        default="keep",
        choices=("keep", "skip", "fail"),
        help="a bad record: written unchanged (default), left out, or ends the run",
    )
    p.add_argument("--tags", action="append", help="tag names for inline reasoning (comma list)")
    p.add_argument(
        "--delimiters", nargs=2, action="append", metavar=("OPEN", "CLOSE"),
        help="a literal delimiter pair; repeatable; always two values, so FILE comes after both",
    )
    p.add_argument("--preset", help="the options of a model family")
    p.add_argument("--no-code-aware", action="store_true", help="find tags inside code too")
    p.add_argument(
        "--start-in-reasoning",
        action="store_true",
        help="the text starts inside a block (default: detected)",
    )
    return p


def _think_options(args: argparse.Namespace) -> dict[str, Any]:
    refuse_swallowed_file("--delimiters", args.delimiters, args.files)
    options: dict[str, Any] = {}
    if args.tags:
        options["tags"] = [t.strip() for group in args.tags for t in group.split(",") if t.strip()]
    if args.delimiters:
        options["delimiters"] = [tuple(pair) for pair in args.delimiters]
    if args.preset:
        options["preset"] = args.preset
    if args.no_code_aware:
        options["code_aware"] = False
    if args.start_in_reasoning:
        options["start_in_reasoning"] = True
    try:
        convert_trace([], to=args.to, **options)
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    return options


def _convert_line(text: str, to: str, keep: str, options: dict[str, Any]) -> str:
    """One converted JSON line (no newline); ``ValueError`` with the message when it cannot be."""
    try:
        value = _DECODE(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON at column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    if isinstance(value, list):
        return _ENCODE(convert_trace(value, to=to, keep=keep, **options))
    if isinstance(value, dict):
        messages = value.get("messages")
        if not isinstance(messages, list):
            raise ValueError(
                'a record must be a JSON array of messages or an object with a "messages" array'
            )
        out = dict(value)
        out["messages"] = convert_trace(messages, to=to, keep=keep, **options)
        return _ENCODE(out)
    raise ValueError(
        'a record must be a JSON array of messages or an object with a "messages" array'
    )


def _run_file(
    stream: BinaryIO, shown: str, args: argparse.Namespace, options: dict[str, Any], out: Stdout
) -> bool:
    """Convert one input, line by line; True when every record was converted."""
    ok = True
    to, keep, errors = args.to, args.keep, args.errors
    for lineno, raw in enumerate(stream, 1):
        if not raw.strip():
            out.write_bytes(raw if raw.endswith(b"\n") else raw + b"\n")
            continue
        try:
            text = raw.decode("utf-8")
            if lineno == 1 and text.startswith("\ufeff"):
                text = text[1:]
            line = _convert_line(text, to, keep, options)
        except UnicodeDecodeError as exc:
            message = f"invalid UTF-8 at byte {exc.start} of the line"
        except (TypeError, ValueError) as exc:
            message = str(exc)
        else:
            out.write(line + "\n")
            continue
        ok = False
        out.flush()  # the output so far comes before the message
        stderr_line(f"{shown}:{lineno}: {message}")
        if errors == "fail":
            raise _Stop
        if errors == "keep":
            out.write_bytes(raw if raw.endswith(b"\n") else raw + b"\n")
    return ok


def _run(argv: list[str]) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        options = _think_options(args)
    except UsageError as exc:
        stderr_line(f"{PROG}: error: convert: {exc} (see '{COMMAND} --help')")
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    out = Stdout(stdout_binary())
    status = EXIT_OK
    try:
        for name in args.files or ["-"]:
            if name == "-":
                ok = _run_file(sys.stdin.buffer, STDIN_NAME, args, options, out)
            else:
                try:
                    stream = open(name, "rb")  # noqa: SIM115 - closed below
                    stream.peek(1)  # a directory fails here, not in the middle of the output
                except OSError as exc:  # cannot open (missing, directory, permission)
                    out.flush()
                    stderr_line(f"{PROG}: {name}: {exc.strerror or exc}")
                    status = EXIT_USAGE
                    continue
                with stream:
                    ok = _run_file(stream, name, args, options, out)
            if not ok and status == EXIT_OK:
                status = EXIT_INPUT
    except _Stop:
        out.flush()
        return EXIT_INPUT
    out.flush()
    return status


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``thinkparse convert``.

    Args:
        argv: the arguments after ``convert``; ``None`` means ``sys.argv[1:]``.

    Returns:
        The exit status: 0, 1 (a record could not be converted), 2 (usage, or an input that
        cannot be opened), 130 (Ctrl-C) or 141 (closed output pipe).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    return guarded(lambda: _run(args))


if __name__ == "__main__":
    sys.exit(main())
