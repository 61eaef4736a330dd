"""The ``thinkparse`` command line (see docs/behaviour.md#cli).

The package only moves bytes: it reads inputs, decides what kind each one is, hands the text or
the decoded JSON to the public library API (the ``thinkparse`` package face, never its private
modules) and writes what comes back.  It has no parsing rules of its own.  The plumbing is here,
one module per concern:

* ``_common``  -- exit statuses, one-line errors, the guarded entry point (used by subcommands);
* ``_parser``  -- the argument parser and its help;
* ``_options`` -- the checked ``Settings`` and the library arguments they give;
* ``_inputs``  -- opening, reading and detecting inputs, and the messages about them;
* ``_output``  -- the run's state and the output of one input (text, JSON, HTML page);
* ``_console`` -- standard error: messages, reasoning, the progress bar;
* ``_redact``  -- R7 redaction of a text that arrives in pieces (``--stream``).

The commands are in :mod:`.commands`: the main command's runners and the subcommands.

Subcommands: ``thinkparse traces …`` and ``thinkparse convert …`` run
``thinkparse.cli.commands.traces.main(argv)`` / ``thinkparse.cli.commands.convert.main(argv)``
(imported only then) with the arguments after the word.  A file with such a name is given as
``./traces``.

Exit status: 0 success; 1 some input could not be processed, or writing an output failed;
2 usage error or a file that cannot be opened; 70 internal error (``THINKPARSE_TRACEBACK=1``
shows the traceback); 130 interrupted (Ctrl-C), quietly; 141 the output pipe was closed
(``| head -1``), quietly.  Every message is one line on stderr.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Optional

from ._common import EXIT_USAGE, PROG, guarded, stderr_line

__all__ = ["SUBCOMMANDS", "main"]

#: Subcommand words and what each does (for the error when one is not installed).
SUBCOMMANDS = {"traces": "the trace store", "convert": "chat-trace conversion"}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``thinkparse`` command.

    Args:
        argv: the arguments after the program name; ``None`` means ``sys.argv[1:]``.

    Returns:
        The exit status: 0, 1, 2, 70, 130 or 141 (see the module docstring).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return _subcommand(args[0], args[1:])
    return guarded(lambda: _main(args))


def _main(args: list[str]) -> int:
    from ._options import Settings, build_parser
    from .commands._run import run

    return run(Settings(build_parser().parse_args(args)))


def _subcommand(word: str, argv: list[str]) -> int:
    try:
        module = importlib.import_module(f"{__name__}.commands.{word}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.commands.{word}":
            raise
        stderr_line(
            f"{PROG}: error: the '{word}' subcommand ({SUBCOMMANDS[word]}) is not available "
            f"in this version (for a file named {word}, write ./{word})"
        )
        return EXIT_USAGE
    status: int = guarded(lambda: int(module.main(argv)))
    return status
