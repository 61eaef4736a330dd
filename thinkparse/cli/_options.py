"""The ``thinkparse`` command's ``Settings``: the parsed options (``_parser``) checked against
each other and turned into library keyword arguments.

Rules (see docs/behaviour.md#cli for the whole command):

* Scanner options (``--tags``, ``--delimiters``, ``--[no-]start-in-reasoning``, ``--preset``,
  ``--no-code-aware``, ``--max-tentative``) describe ``<think>``-style markup.  When any is given,
  detected text always goes to ``split_think`` even if it contains ``<REASONING>``; with
  ``--format reasoning-block`` or ``--format harmony`` they are a usage error.
* ``start_in_reasoning`` for whole texts is ``"auto"`` (T10) unless given, or unless ``--preset``
  names a preset that starts inside a block (then the preset decides).  Streams (``--stream``,
  event arrays) use ``False`` unless given or set by the preset, since ``"auto"`` needs the whole
  text.
* ``--reasoning`` prints the reasoning instead of the answer; for JSON Lines and Parquet input
  it keeps only the ``reasoning`` field (plus ``file`` and the record key) in each output
  record.  With ``--json``, ``--reasoning-to-stderr`` or ``--html`` it is a usage error.
* ``--model NAME`` uses ``preset_for_model(NAME)`` (F5) unless ``--preset`` is given; a model
  no preset matches leaves the defaults, and says so on stderr (F8).  ``--preset`` takes a
  preset's name or a vLLM / SGLang parser name (F1).
* ``--prompt-file FILE`` reads the rendered prompt once; it decides the start mode (F4) and
  cannot be combined with ``--[no-]start-in-reasoning``.  ``--terminator`` (F2) and ``--answer``
  (F3) are scanner options like the others.
* ``--unclosed`` (F7): ``answer`` applies to whole texts and responses; ``auto`` decides by a
  response's finish reason, and keeps the reasoning of text, which has none; streams keep the
  reasoning, so ``--unclosed`` with ``--stream`` is a usage error.
* ``--explain`` (F8) prints one line on stderr: the preset and why (given, a parser name, the
  model name, the defaults), the start mode and why; with ``--json`` each object carries
  ``preset``, ``preset_source`` and ``start``.  Scanner options and ``--model`` reach provider
  responses and JSON Lines records through ``normalize`` (W4) and streams through
  ``StreamNormalizer``; where no call can take them they are an error (exit 2), never ignored.
* ``--choice N`` selects the choice of responses and streams with ``n > 1`` (W4);
  ``--all-choices`` gives one output per choice of each response or record.  For text either is
  an error (exit 2); ``--all-choices`` with ``--stream`` or event streams too (use ``--choice``).
* ``--jobs N`` (0 = one per CPU, at most ``MAX_JOBS`` = 1024) runs worker processes
  (``_jobs``); not with ``--stream`` or ``--html``.  ``--choice N`` is a choice index (0 or
  more), with messages of its own.
* ``--limit N`` and ``--title TEXT`` shape the ``--html`` page (cards shown, default 1000; the
  summary counts every record) and are a usage error without it.  ``--no-redact`` keeps the
  ``<REDACTED>`` sections of ``<REASONING>`` texts and Parquet rows (R7); ``<think>`` texts
  are not redacted.  A ``--stream`` text without scanner options is redacted as it arrives
  (it cannot know whether a ``<REASONING>`` block will come), unless ``--no-redact``.
* ``--delimiters OPEN CLOSE`` and ``--answer OPEN CLOSE`` always take two values; one whose
  CLOSE names an existing file while no FILE argument is left took the FILE by mistake: a
  usage error saying so (``_parser.refuse_swallowed_file``).
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any, Optional

from .. import (
    PRESET_ALIASES,
    normalize,
    preset_for_model,
    prompt_opens_reasoning,
    split_think,
)
from ._common import PROG, InputError, UsageError
from ._parser import build_parser, refuse_swallowed_file

__all__ = ["Settings", "build_parser"]


def _takes_think_options() -> bool:
    params = inspect.signature(normalize).parameters
    return "preset" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


#: Whether ``normalize`` reads inline markup with scanner options (W4).
NORMALIZE_TAKES_OPTIONS = _takes_think_options()
#: Whether ``normalize`` takes ``unclosed`` (F7).
NORMALIZE_TAKES_UNCLOSED = "unclosed" in inspect.signature(normalize).parameters


def _read_prompt(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"--prompt-file {path}: {exc.strerror or exc}", 2) from None


def _preset_starts_in_reasoning(preset: Optional[str]) -> bool:
    # Public behaviour only: a preset that opens the block makes an unterminated text reasoning.
    # An unknown name is reported by ``Settings.check`` (a usage error).
    if preset is None:
        return False
    options: dict[str, Any] = {"preset": preset}
    try:
        return split_think("x", **options).reasoning is not None
    except (TypeError, ValueError):
        return False


class Settings:
    """The parsed options, checked, with the keyword arguments each library call needs."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.files: list[str] = list(args.files)
        self.multi = len(self.files) > 1
        self.provider: Optional[str] = args.provider
        self.errors: str = args.errors
        refuse_swallowed_file("--delimiters", args.delimiters, self.files)
        refuse_swallowed_file("--answer", args.answer, self.files)
        think: dict[str, Any] = {}
        if args.tags:
            think["tags"] = tuple(n.strip() for group in args.tags for n in group.split(","))
        if args.delimiters:
            think["delimiters"] = tuple(tuple(d) for d in args.delimiters)
        if args.no_code_aware:
            think["code_aware"] = False
        if args.max_tentative is not None:
            think["max_tentative"] = None if args.max_tentative == "none" else args.max_tentative
        if args.terminator:
            think["terminators"] = tuple(args.terminator)
        if args.answer:
            think["answer"] = tuple(tuple(pair) for pair in args.answer)
        if args.prompt_file is not None and args.start_in_reasoning is not None:
            raise UsageError(
                "--prompt-file and --[no-]start-in-reasoning both decide where the text starts: "
                "give one"
            )
        #: Lines for stderr before the run (written once, by the main process).
        self.notes: list[str] = []
        self.prompt: Optional[str] = None
        if args.prompt_file is not None:
            self.prompt = think["prompt"] = _read_prompt(args.prompt_file)
        preset = args.preset
        self.preset_source = "default"
        if preset is not None:
            self.preset_source = "alias" if preset in PRESET_ALIASES else "explicit"
        elif args.model is not None:
            preset = preset_for_model(args.model)
            if preset is None:  # a model no preset matches: the defaults, and a note (F8)
                self.notes.append(
                    f"{PROG}: note: --model {args.model!r} selects no preset (no inline "
                    "reasoning format is known for that name); the default options apply"
                )
            else:
                self.preset_source = "model"
        if preset is not None:
            think["preset"] = preset
        self.preset: Optional[str] = PRESET_ALIASES.get(preset, preset) if preset else None
        self.think_options = think
        self.scanner_options_given = bool(think) or args.start_in_reasoning is not None
        #: Streams: the start mode only when asked (or from the preset, or the prompt).
        self.stream_options = dict(think)
        if args.start_in_reasoning is not None:
            self.stream_options["start_in_reasoning"] = args.start_in_reasoning
        #: Whole texts: "auto" unless asked otherwise, or the preset or the prompt decides.
        self.text_options = dict(self.stream_options)
        self.start_source = "explicit" if args.start_in_reasoning is not None else "prompt"
        if self.prompt is None and args.start_in_reasoning is None:
            if _preset_starts_in_reasoning(preset):
                self.start_source = "preset"
            else:
                self.start_source = "auto"
                self.text_options["start_in_reasoning"] = "auto"
        if args.unclosed == "answer":
            self.text_options["unclosed"] = "answer"
        #: Provider responses: the options given (W4); normalize's own default is "auto".
        self.normalize_options = dict(self.stream_options)
        if args.unclosed is not None and args.unclosed != "reasoning" and (
            NORMALIZE_TAKES_UNCLOSED
        ):
            self.normalize_options["unclosed"] = args.unclosed
        #: Streams and responses: the choice to read (W4); the library default is 0.
        self.choice_options: dict[str, Any] = {}
        if args.choice is not None:
            self.choice_options["choice"] = args.choice
        self.check()

    def start_mode(self) -> Any:
        """The start mode whole texts are read with: True, False or ``"auto"`` (F8)."""
        if self.prompt is not None:
            return prompt_opens_reasoning(self.prompt, **{
                k: v for k, v in self.think_options.items()
                if k in ("tags", "delimiters", "preset")
            })
        start = self.text_options.get("start_in_reasoning")
        return True if start is None and self.start_source == "preset" else start

    def evidence(self) -> dict[str, Any]:
        """What ``--explain`` adds to each ``--json`` object (F8)."""
        return {"preset": self.preset, "preset_source": self.preset_source,
                "start": self.start_mode()}

    def explanation(self) -> str:
        """The ``--explain`` line (F8): the preset and the start mode, and why."""
        a = self.args
        if self.preset is None:
            preset = "no preset: the default options (tags 'think')"
            if set(self.think_options) - {"prompt"}:
                preset = "no preset: the options given"
        elif self.preset_source == "alias":
            preset = f"preset {self.preset} (from the parser name {a.preset!r})"
        elif self.preset_source == "model":
            preset = f"preset {self.preset} (from the model name {a.model!r})"
        else:
            preset = f"preset {self.preset} (given)"
        start = self.start_mode()
        where = {True: "inside a reasoning block", False: "outside a block"}.get(
            start, "detected per text (a leading 'reasoning</think>' is a block, T10)")
        why = {
            "explicit": "--start-in-reasoning" if start else "--no-start-in-reasoning",
            "prompt": f"the prompt in {a.prompt_file} "
                      + ("leaves a block open" if start else "leaves no block open"),
            "preset": "the preset's template opens the block",
            "auto": "the default for whole texts",
        }[self.start_source]
        line = f"{PROG}: {preset}; start: {where} ({why})"
        if a.unclosed:
            line += f"; unclosed: {a.unclosed}"
        if not a.preset and a.model is None and not self.think_options:
            line += "; provider responses: the preset of the model each names (F5)"
        return line

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
        if not a.html and (a.limit is not None or a.title is not None):
            raise UsageError("--limit and --title apply to --html")
        if a.provider and a.format in ("text", "think", "reasoning-block", "harmony"):
            raise UsageError(f"--provider applies to JSON input, not --format {a.format}")
        if a.format in ("reasoning-block", "harmony") and self.scanner_options_given:
            raise UsageError(
                "scanner options (--tags, --delimiters, --start-in-reasoning, --preset, "
                f"--model, --no-code-aware, --max-tentative) do not apply to --format {a.format}"
            )
        parquet_out = a.output is not None and a.output.lower().endswith(".parquet")
        if parquet_out and (
            len(self.files) != 1 or a.stream or a.html or a.jobs != 1 or a.json or a.reasoning
        ):
            raise UsageError(
                "--output FILE.parquet takes one Parquet input (without --stream, --html, "
                "--jobs, --json or --reasoning)"
            )
        if a.column is not None and (
            a.stream or a.format not in (None, "parquet", "think", "reasoning-block")
        ):
            raise UsageError("--column applies to Parquet input")
        if a.key is not None and a.format not in (None, "jsonl", "parquet"):
            raise UsageError(f"--key applies to JSON Lines input, not --format {a.format}")
        if a.choice is not None and a.all_choices:
            raise UsageError("--choice and --all-choices cannot be combined")
        if (a.choice is not None or a.all_choices) and a.format in (
            "text",
            "think",
            "harmony",
            "reasoning-block",
        ):
            raise UsageError(f"--choice and --all-choices do not apply to --format {a.format}")
        if a.all_choices and a.stream:
            raise UsageError("--all-choices is not available with --stream (use --choice N)")
        if a.jobs != 1 and (a.stream or a.html):
            raise UsageError("--jobs does not apply to --stream or --html (one ordered sequence)")
        if a.key is not None and a.stream:
            raise UsageError("--key applies to JSON Lines records, not to --stream")
        if a.unclosed not in (None, "reasoning") and a.stream:
            raise UsageError("--unclosed does not apply to --stream: streams keep the reasoning "
                             "(F7)")
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
        if a.explain:
            self.notes.append(self.explanation())
