"""The ``thinkparse`` command's argument parser and its help text (the options themselves are
explained in ``_options``, which checks them and turns them into library arguments)."""

from __future__ import annotations

import argparse
import os
from typing import NoReturn, Optional, Union

from .. import IMPLEMENTATION, __version__
from ._common import PROG, UsageError

FORMATS = ("text", "reasoning-block", "think", "harmony", "json", "jsonl", "sse", "parquet")
PROVIDERS = ("openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama",
             "cohere")

EXAMPLES = """\
examples:
  thinkparse reply.txt                    the answer, without its <think> block
  thinkparse -r reply.txt                 only the reasoning
  thinkparse -j response.json             visible, reasoning, token counts as one JSON line
  thinkparse records.jsonl > out.jsonl    one JSON object per record (with its "id"), in
                                          constant memory
  thinkparse --key custom_id batch.jsonl  carry each record's "custom_id" into its output
  thinkparse --provider anthropic r.json  skip detection: decode as an Anthropic response
  thinkparse --delimiters '[THINK]' '[/THINK]' reply.txt
  thinkparse --format harmony gpt-oss.txt the final channel of raw gpt-oss output
  thinkparse --html -o page.html *.jsonl  one HTML page, reasoning collapsed per record
  thinkparse --jobs 2 big.jsonl > out.jsonl  two worker processes, output in input order
  thinkparse --column text -o out.parquet in.parquet   adds text__visible, text__reasoning
  thinkparse --html --limit 200 big.jsonl > page.html   200 cards, summary of all records
  model-cli | thinkparse --stream -p deepseek-r1 --reasoning-to-stderr
  curl -sN https://api.example/v1/chat/completions -d @req.json | thinkparse --stream
  curl -sN localhost:11434/api/chat -d @req.json | thinkparse --stream
  thinkparse traces --help                the trace store (subcommand; its file is --db PATH
                                          or the THINKPARSE_DB environment variable)
  thinkparse convert --help               chat traces to fine-tuning formats (subcommand)

input kinds (without --format): a file whose first line is a JSON object and that has
more lines is JSON Lines (as is any *.jsonl / *.ndjson file); a file holding one JSON
object is a provider response, one JSON array a stream of events; a file whose first
line is an SSE field ("data: {...}") is a server-sent event stream; text containing
<REASONING> is read with the <REASONING> convention; other text with <think>-style tags.
With --stream, SSE and JSON event lines are detected from the first line the same way.

exit status: 0 ok; 1 some input could not be processed; 2 usage error or a file that
cannot be opened; 70 internal error; 130 interrupted; 141 output pipe closed.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _max_tentative(value: str) -> Union[int, str]:
    if value.strip().lower() in ("none", "off", "unlimited"):
        return "none"
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a positive integer or 'none', not {value!r}"
        ) from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (or 'none'), not {number}")
    return number


#: The most worker processes ``--jobs`` starts (each holds two batches of shared memory).
MAX_JOBS = 1024


def _jobs(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, not {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU) or more, not {number}")
    if number > MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_JOBS} worker processes, not {number}"
        )
    return number


def _choice(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a choice index (0, 1, ...), not {value!r}"
        ) from None
    if number < 0:
        raise argparse.ArgumentTypeError(
            f"must be 0 or more (the first choice is 0), not {number}"
        )
    return number


def _count(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {number}")
    return number


def refuse_swallowed_file(option: str, pairs: Optional[list[list[str]]], files: list[str]) -> None:
    """``UsageError`` for ``--delimiters '[T]' reply.txt``: an option taking ``OPEN CLOSE`` took
    the FILE as its CLOSE value.  The mistake is certain when CLOSE names an existing file and no
    FILE argument is left (the command would otherwise read standard input); with FILE arguments
    left, a CLOSE that happens to name a file is taken as written."""
    if files or not pairs:
        return
    for pair in pairs:
        if os.path.isfile(pair[1]):
            raise UsageError(
                f"{option} takes two values, OPEN and CLOSE: the file {pair[1]!r} was taken as "
                f"CLOSE and no FILE is left; write {option} OPEN CLOSE FILE"
            )


def build_parser() -> argparse.ArgumentParser:
    """The main command's argument parser (usage errors raise ``UsageError``)."""
    p = _Parser(
        prog=PROG,
        description="Separate a language model's reasoning from its answer: <think> tags,\n"
        "<REASONING> blocks, harmony channels, provider responses and event streams\n"
        "(OpenAI, Anthropic, Gemini, Bedrock, Ollama, OpenAI-compatible servers).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument(
        "files",
        metavar="FILE",
        nargs="*",
        help="input files; '-' is standard input (the default when it is not a terminal)",
    )
    p.add_argument(
        "-V",
        "--version",
        action="version",
        version=f"{PROG} {__version__} (scanner: {IMPLEMENTATION})",
    )
    g = p.add_argument_group("input")
    g.add_argument(
        "--format",
        choices=FORMATS,
        metavar="KIND",
        help=f"input kind: {', '.join(FORMATS)} (default: detected per file)",
    )
    g.add_argument(
        "--provider",
        choices=PROVIDERS,
        metavar="FAMILY",
        help="provider family of JSON input, skipping detection: "
        f"{', '.join(PROVIDERS)} (default: detected from its shape)",
    )
    g.add_argument(
        "--errors",
        choices=("strict", "replace"),
        default="strict",
        help="invalid UTF-8: report it (strict, default) or substitute U+FFFD (replace)",
    )
    g.add_argument(
        "--stream",
        action="store_true",
        help="read standard input as it arrives and print the answer live",
    )
    g.add_argument(
        "--choice",
        type=_choice,
        metavar="N",
        help="which choice of a response or stream with n > 1 choices (default 0)",
    )
    g.add_argument(
        "--all-choices",
        action="store_true",
        help="every choice of each response: one output per choice, with its index",
    )
    g.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="worker processes for JSON Lines and text files (default 1; 0 = one per CPU; "
        f"at most {MAX_JOBS}); output stays in input order",
    )
    g.add_argument(
        "--column",
        metavar="NAME",
        help="Parquet input: the text column to split (needs pyarrow)",
    )
    g.add_argument(
        "--key",
        metavar="FIELD",
        help="JSON Lines: copy this top-level field of each record into its output record "
        "(default: 'id' when the record has one)",
    )
    g = p.add_argument_group("output")
    g.add_argument(
        "-r", "--reasoning", action="store_true", help="print the reasoning, not the answer"
    )
    g.add_argument(
        "-j",
        "--json",
        action="store_true",
        help="one JSON object per input: visible, reasoning, tokens_est (+ provider fields)",
    )
    g.add_argument(
        "--reasoning-to-stderr",
        action="store_true",
        help="also write the reasoning to stderr (dimmed on a terminal)",
    )
    g.add_argument(
        "--html",
        action="store_true",
        help="write one standalone HTML page of every input (reasoning collapsed)",
    )
    g.add_argument(
        "--limit",
        type=_count,
        metavar="N",
        help="with --html: cards shown (default 1000); the summary counts every record",
    )
    g.add_argument(
        "--title",
        metavar="TEXT",
        help="with --html: the page title (default: thinkparse)",
    )
    g.add_argument(
        "--no-redact",
        action="store_true",
        help="keep <REDACTED>...</REDACTED> sections of text input (default: replaced by "
        "[REDACTED], R7)",
    )
    g.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE instead of standard output; FILE.parquet (with "
        "Parquet input) writes the input's columns plus NAME__visible and NAME__reasoning",
    )
    g.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar for JSON Lines (it is shown only when stderr is a terminal)",
    )
    g = p.add_argument_group("<think> scanner options")
    g.add_argument(
        "--tags",
        action="append",
        metavar="A,B",
        help="tag names to recognise, comma-separated, repeatable (default: think)",
    )
    g.add_argument(
        "--delimiters",
        nargs=2,
        action="append",
        metavar=("OPEN", "CLOSE"),
        help="a literal delimiter pair, e.g. '[THINK]' '[/THINK]'; repeatable; always two "
        "values, so FILE comes after both",
    )
    g.add_argument(
        "--start-in-reasoning",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the text starts inside a reasoning block (the prompt opened it); "
        "default: detect a leading 'reasoning</think>' in whole texts",
    )
    g.add_argument(
        "-p",
        "--preset",
        metavar="NAME",
        help="options for a model family: a preset (docs/presets.md) or a vLLM / SGLang "
        "reasoning-parser name, e.g. -p qwen3-thinking, -p glm45",
    )
    g.add_argument(
        "-m",
        "--model",
        metavar="NAME",
        help="the model that wrote the text: its preset is used (F5) unless --preset is "
        "given, e.g. --model deepseek-r1-distill-qwen-7b",
    )
    g.add_argument(
        "--prompt-file",
        metavar="FILE",
        help="the rendered prompt (or its end): the text starts inside a reasoning block "
        "exactly when the prompt leaves one open (F4); not with --[no-]start-in-reasoning",
    )
    g.add_argument(
        "--terminator",
        action="append",
        metavar="MARKER",
        help="a marker that ends a reasoning block and stays in the answer, e.g. "
        "'<tool_call>'; repeatable (F2)",
    )
    g.add_argument(
        "--answer",
        nargs=2,
        action="append",
        metavar=("OPEN", "CLOSE"),
        help="a wrapper removed around the answer, e.g. '<answer>' '</answer>'; "
        "repeatable (F3)",
    )
    g.add_argument(
        "--unclosed",
        choices=("reasoning", "answer", "auto"),
        help="what a block the template opened and the text never closed becomes: "
        "reasoning (default), answer, or auto: the answer when a response says the model "
        "stopped normally (F7); not with --stream",
    )
    g.add_argument(
        "--explain",
        action="store_true",
        help="say on stderr which preset and start mode are used and why (F8); with --json, "
        "each object also carries them",
    )
    g.add_argument(
        "--no-code-aware",
        action="store_true",
        help="also recognise tags inside Markdown code spans and fences",
    )
    g.add_argument(
        "--max-tentative",
        type=_max_tentative,
        metavar="N",
        help="how far a block opened mid-answer may run before it counts as text "
        "(default 8192; 'none' = no limit)",
    )
    return p
