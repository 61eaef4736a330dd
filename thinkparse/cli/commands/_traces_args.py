"""The argument parser of ``thinkparse traces`` (:mod:`.traces`): its actions and options, and
the values they take -- ages, times, counts and ``--metadata`` JSON.

Rules: docs/behaviour.md#d1 to #d5 for the store, docs/behaviour.md#cli for errors and exit codes
(a bad value is a usage error, exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any, NoReturn, Optional

from .._common import UsageError

_AGE = re.compile(r"(\d+(?:\.\d+)?)([smhdw])")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
#: The longest age, in milliseconds, a timestamp of the store can be taken back by.
_MAX_AGE_MS = 1 << 62
DB_HELP = "the trace store, an SQLite file (default: $THINKPARSE_DB)"
EPILOG = """\
The store is --db PATH, or the THINKPARSE_DB environment variable when --db is not given.
list, stats, show, export and prune need an existing store; record and import create it.
Ages: 30s, 15m, 12h, 7d, 2w.  Times: ISO dates or times (naive ones are UTC).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"traces: {message}")


def traces_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--db", default=os.environ.get("THINKPARSE_DB"), metavar="PATH",
                        help=DB_HELP)  # fmt: skip
    common.add_argument("--json", action="store_true",
                        help="JSON Lines output (one object per line) instead of a table")
    filters = _Parser(add_help=False)
    for flag, what in (("session", "session key"), ("run", "run id"), ("model", "model name"),
                       ("provider", "provider family")):  # fmt: skip
        filters.add_argument(f"--{flag}", metavar="NAME" if flag != "run" else "ID",
                             help=f"only traces with this {what}")  # fmt: skip
    filters.add_argument("--since", type=_time, metavar="WHEN",
                         help="only traces created at or after WHEN: an ISO date or time, or an "
                         "age (7d, 12h)")  # fmt: skip
    filters.add_argument("--until", type=_time, metavar="WHEN",
                         help="only traces created before WHEN (ISO date or time, or an age)")
    parser = _Parser(
        prog="thinkparse traces",
        description="The reasoning trace store (an SQLite file of masked reasoning traces).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser,
                                help="what to do; ACTION --help explains its options")

    def action(name: str, parents: list[Any], text: str) -> Any:
        return sub.add_parser(name, parents=parents, help=text, description=text,
                              epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)

    rec = action("record", [common],
                 "store traces from inputs (the store is created when missing)")
    rec.add_argument("files", nargs="*", metavar="FILE",
                     help="inputs as the main command reads them; '-' or none: standard input")
    rec.add_argument("--session", required=True, help="the session key stored with each trace")
    rec.add_argument("--run", required=True, help="the run id stored with each trace")
    rec.add_argument("--model", required=True,
                     help="the model name stored with each trace; its preset reads the text "
                     "unless --preset is given (as -m does)")  # fmt: skip
    rec.add_argument("--metadata", type=_json_object, metavar="JSON",
                     help="a JSON object stored with each trace")
    rec.add_argument("--stream", action="store_true",
                     help="read standard input as it arrives (as thinkparse --stream), store one "
                     "trace with its duration")  # fmt: skip
    rec.add_argument("--provider", metavar="FAMILY", help="the provider family of JSON input")
    rec.add_argument("--start-in-reasoning", action="store_true",
                     help="the text starts inside a reasoning block (the prompt opened it)")
    rec.add_argument("--tags", metavar="A,B", help="tag names to recognise, comma-separated")
    rec.add_argument("--preset", metavar="NAME",
                     help="the options of a model family (instead of the model's preset)")
    lst = action("list", [common, filters], "list traces, oldest first")
    lst.add_argument("--limit", type=_count, metavar="N",
                     help="only the newest N matching traces (still oldest first)")
    show = action("show", [common], "show one trace")
    show.add_argument("id", metavar="ID", help="the trace's id")
    prune = action("prune", [common], "delete old traces")
    prune.add_argument("--older-than", type=_days, required=True, metavar="AGE",
                       help="delete traces older than AGE (30d, 12h, 2w)")
    exp = action("export", [common, filters], "write traces as JSON Lines")
    exp.add_argument("--parquet", metavar="FILE", help="write Parquet to FILE instead")
    imp = action("import", [common],
                 "read JSON Lines written by export (the store is created when missing)")
    imp.add_argument("files", nargs="+", metavar="FILE", help="JSON Lines files; '-': stdin")
    action("stats", [common, filters], "per-model summary of the matching traces")
    return parser


def _age_ms(value: str) -> Optional[int]:
    """An age such as ``7d`` in milliseconds (``None``: not an age); ``ArgumentTypeError``
    when it is longer than a timestamp of the store can be taken back by."""
    age = _AGE.fullmatch(value.strip())
    if not age:
        return None
    ms = Fraction(age.group(1)) * _UNIT[age.group(2)] * 1000
    if ms > _MAX_AGE_MS:
        raise argparse.ArgumentTypeError(f"{value!r} is out of range")
    return int(ms)


def _time(value: str) -> int:
    ms = _age_ms(value)
    if ms is not None:
        return int(time.time() * 1000) - ms
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an ISO date or time, or an age like 7d or 12h"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return int(when.timestamp() * 1000)


def _days(value: str) -> float:
    ms = _age_ms(value)
    if ms is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not an age like 30d or 12h")
    return ms / 86_400_000


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not a count")
    return int(value)


def _json_object(value: str) -> dict[str, Any]:
    try:
        data = json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError("--metadata is not valid JSON") from None
    if not isinstance(data, dict):
        raise argparse.ArgumentTypeError("--metadata must be a JSON object")
    return data
