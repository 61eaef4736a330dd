"""The main ``thinkparse`` command over FILE arguments (see docs/behaviour.md#cli): each in
turn in this process (:func:`._file.one_file`), live with ``--stream`` (:mod:`._live`), or in
worker processes with ``--jobs N`` (:mod:`._jobs`).
"""

from __future__ import annotations

from .._common import UsageError, isatty, stderr_line
from .._options import Settings
from .._output import Context, refuse_input_as_output
from ._file import one_file

# ``_live`` (--stream) and ``_jobs`` (--jobs N) are imported where used.


def run(settings: Settings) -> int:
    """Run the main command; return its exit status."""
    for note in settings.notes:
        stderr_line(note)
    files = settings.files
    if not files:
        import sys

        if isatty(sys.stdin):
            raise UsageError("no input: give FILE arguments, or - for standard input")
        files = ["-"]
    a = settings.args
    refuse_input_as_output(a.output, files, a.prompt_file)
    ctx = Context(settings)
    try:
        if settings.args.stream:
            from ._live import run_stream

            run_stream(ctx, files[0])
        elif settings.args.jobs != 1:
            from ._jobs import cpu_count, run_jobs

            run_jobs(ctx, files, settings.args.jobs or cpu_count())
        else:
            for name in files:
                one_file(ctx, name)
    except BaseException:
        ctx.abandon()
        raise
    ctx.close()
    return ctx.status
