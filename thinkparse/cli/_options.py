"""The ``thinkparse`` command's options: the argument parser, its help, and ``Settings`` -- the
parsed options checked against each other and turned into library keyword arguments.

Rules (see docs/behaviour.md#cli for the whole command):

* Scanner options (``--tags``, ``--delimiters``, ``--[no-]start-in-reasoning``, ``--preset``,
  ``--no-code-aware``, ``--max-tentative``) describe ``<think>``-style markup.  When any is given,
  detected text always goes to ``split_think`` even if it contains ``<REASONING>``; with
  ``--format reasoning-block`` or ``--format harmony`` they are a usage error.
* ``start_in_reasoning`` for whole texts is ``"auto"`` (T10) unless given, or unless ``--preset``
  names a preset that starts inside a block (then the preset decides).  Streams (``--stream``,
  event arrays) use ``False`` unless given or set by the preset, since ``"auto"`` needs the whole
  text.
* ``--reasoning`` prints the reasoning instead of the answer; for JSON Lines input it keeps only
  the ``reasoning`` field (plus ``file`` and the record key) in each output record.  With
  ``--json``, ``--reasoning-to-stderr`` or ``--html`` it is a usage error.
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any, NoReturn, Optional, Union

from .. import IMPLEMENTATION, PRESET_NAMES, __version__, normalize, preset_for_model, split_think
from ._common import PROG, InputError, UsageError

FORMATS = ("text", "reasoning-block", "think", "harmony", "json", "jsonl", "sse")
PROVIDERS = ("openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama")

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
  model-cli | thinkparse --stream -p deepseek-r1 --reasoning-to-stderr
  curl -sN https://api.example/v1/chat/completions -d @req.json | thinkparse --stream
  curl -sN localhost:11434/api/chat -d @req.json | thinkparse --stream
  thinkparse traces --help                the trace store (subcommand)
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


def _jobs(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, not {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU) or more, not {number}")
    return number


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
        type=_jobs,
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
        help="worker processes for JSON Lines and text files (default 1; 0 = one per CPU); "
        "output stays in input order",
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
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE instead of standard output",
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
        help="a literal delimiter pair, e.g. '[THINK]' '[/THINK]'; repeatable",
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
        choices=sorted(PRESET_NAMES),
        metavar="NAME",
        help=f"options for a model family: {', '.join(sorted(PRESET_NAMES))}",
    )
    g.add_argument(
        "-m",
        "--model",
        metavar="NAME",
        help="the model that wrote the text: its preset is used (P13) unless --preset is "
        "given, e.g. --model deepseek-r1-distill-qwen-7b",
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


def _takes_think_options() -> bool:
    params = inspect.signature(normalize).parameters
    return "preset" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


#: Whether ``normalize`` reads inline markup with scanner options (W4).
NORMALIZE_TAKES_OPTIONS = _takes_think_options()


def _preset_starts_in_reasoning(preset: Optional[str]) -> bool:
    # Public behaviour only: a preset that opens the block makes an unterminated text reasoning.
    if preset is None:
        return False
    options: dict[str, Any] = {"preset": preset}
    return split_think("x", **options).reasoning is not None


class Settings:
    """The parsed options, checked, with the keyword arguments each library call needs."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.files: list[str] = list(args.files)
        self.multi = len(self.files) > 1
        self.provider: Optional[str] = args.provider
        self.errors: str = args.errors
        think: dict[str, Any] = {}
        if args.tags:
            think["tags"] = tuple(n.strip() for group in args.tags for n in group.split(","))
        if args.delimiters:
            think["delimiters"] = tuple(tuple(d) for d in args.delimiters)
        if args.no_code_aware:
            think["code_aware"] = False
        if args.max_tentative is not None:
            think["max_tentative"] = None if args.max_tentative == "none" else args.max_tentative
        preset = args.preset
        if preset is None and args.model is not None:
            preset = preset_for_model(args.model)  # a model no preset matches: the defaults
        if preset is not None:
            think["preset"] = preset
        self.think_options = think
        self.scanner_options_given = bool(think) or args.start_in_reasoning is not None
        #: Streams: the start mode only when asked (or from the preset).
        self.stream_options = dict(think)
        if args.start_in_reasoning is not None:
            self.stream_options["start_in_reasoning"] = args.start_in_reasoning
        #: Whole texts: "auto" unless asked otherwise or the preset decides.
        self.text_options = dict(self.stream_options)
        if args.start_in_reasoning is None and not _preset_starts_in_reasoning(preset):
            self.text_options["start_in_reasoning"] = "auto"
        #: Provider responses: the options given (W4); normalize's own default is "auto".
        self.normalize_options = dict(self.stream_options)
        #: Streams and responses: the choice to read (W4); the library default is 0.
        self.choice_options: dict[str, Any] = {}
        if args.choice is not None:
            self.choice_options["choice"] = args.choice
        self.check()

    def options_for_responses(self, shown: str) -> dict[str, Any]:
        """The keyword arguments for ``normalize``; ``InputError`` (status 2) when scanner
        options were given and this ``normalize`` cannot take them -- never ignored."""
        if self.normalize_options and not NORMALIZE_TAKES_OPTIONS:
            raise InputError(
                f"{shown}: scanner options (--tags, --delimiters, --start-in-reasoning, "
                "--preset, --model, --no-code-aware, --max-tentative) do not apply to provider "
                "responses in this version",
                2,
            )
        return {**self.normalize_options, **self.choice_options}

    def text_input(self, shown: str) -> None:
        """``InputError`` (status 2) for options that have no meaning for a text input."""
        if self.args.choice is not None or self.args.all_choices:
            raise InputError(
                f"{shown}: --choice and --all-choices apply to provider responses and streams, "
                "not to text",
                2,
            )

    def check(self) -> None:
        """Raise ``UsageError`` for options that contradict each other or have no meaning."""
        a = self.args
        if a.reasoning and a.json:
            raise UsageError("--reasoning and --json cannot be combined (--json has both)")
        if a.reasoning and a.reasoning_to_stderr:
            raise UsageError("--reasoning and --reasoning-to-stderr cannot be combined")
        if a.html and (a.json or a.reasoning or a.reasoning_to_stderr or a.stream):
            raise UsageError(
                "--html writes one page; it cannot be combined with --json, --reasoning, "
                "--reasoning-to-stderr or --stream"
            )
        if a.provider and a.format in ("text", "think", "reasoning-block", "harmony"):
            raise UsageError(f"--provider applies to JSON input, not --format {a.format}")
        if a.format in ("reasoning-block", "harmony") and self.scanner_options_given:
            raise UsageError(
                "scanner options (--tags, --delimiters, --start-in-reasoning, --preset, "
                f"--model, --no-code-aware, --max-tentative) do not apply to --format {a.format}"
            )
        if a.key is not None and a.format not in (None, "jsonl"):
            raise UsageError(f"--key applies to JSON Lines input, not --format {a.format}")
        if a.choice is not None and a.all_choices:
            raise UsageError("--choice and --all-choices cannot be combined")
        if (a.choice is not None or a.all_choices) and a.format in (
            "text", "think", "harmony", "reasoning-block"
        ):
            raise UsageError(f"--choice and --all-choices do not apply to --format {a.format}")
        if a.all_choices and a.stream:
            raise UsageError("--all-choices is not available with --stream (use --choice N)")
        if a.jobs != 1 and (a.stream or a.html):
            raise UsageError("--jobs does not apply to --stream or --html (one ordered sequence)")
        if a.key is not None and a.stream:
            raise UsageError("--key applies to JSON Lines records, not to --stream")
        if a.stream:
            if a.json:
                raise UsageError("--json is not available with --stream (it writes text)")
            if a.format not in (None, "text", "think", "jsonl", "sse"):
                raise UsageError(f"--format {a.format} is not available with --stream")
            if len(self.files) > 1:
                raise UsageError("--stream reads one input (standard input or one FILE)")
        try:
            split_think("", **self.text_options)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"invalid scanner option: {exc}") from None
