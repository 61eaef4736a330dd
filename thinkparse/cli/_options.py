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
* ``--reasoning`` prints the reasoning instead of the answer; for JSON Lines input it keeps only
  the ``reasoning`` field (plus ``file`` and the record key) in each output record.  With
  ``--json``, ``--reasoning-to-stderr`` or ``--html`` it is a usage error.
* ``--model NAME`` uses ``preset_for_model(NAME)`` (P13) unless ``--preset`` is given; a model
  no preset matches leaves the defaults.  Scanner options and ``--model`` reach provider
  responses and JSON Lines records through ``normalize`` (W4) and streams through
  ``StreamNormalizer``; where no call can take them they are an error (exit 2), never ignored.
* ``--choice N`` selects the choice of responses and streams with ``n > 1`` (W4);
  ``--all-choices`` gives one output per choice of each response or record.  For text either is
  an error (exit 2); ``--all-choices`` with ``--stream`` or event streams too (use ``--choice``).
* ``--jobs N`` (0 = one per CPU) runs worker processes (``_jobs``); not with ``--stream`` or
  ``--html``.
* ``--limit N`` and ``--title TEXT`` shape the ``--html`` page (cards shown, default 1000; the
  summary counts every record) and are a usage error without it.  ``--no-redact`` keeps the
  ``<REDACTED>`` sections of ``<REASONING>`` texts (R7); ``<think>`` texts are not redacted.
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any, Optional

from .. import normalize, preset_for_model, split_think
from ._common import InputError, UsageError
from ._parser import build_parser

__all__ = ["Settings", "build_parser"]


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
