"""``thinkparse convert``: JSON Lines chat traces (C6, C2), errors per record, exit statuses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, run_cli


def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m thinkparse convert ARGS``."""
    return run_cli("convert", *args, stdin=stdin, cwd=cwd)


def line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


TRACE = [
    {"role": "user", "content": "2+2?"},
    {"role": "assistant", "content": "<think>add</think>4"},
]
RECORD = {"id": "r1", "messages": TRACE, "source": "gen"}


def test_object_and_bare_array_records_keep_their_shape(tmp_path: Path) -> None:
    # C6: objects with "messages" (other keys kept) and bare arrays
    (tmp_path / "t.jsonl").write_text(line(RECORD) + line(TRACE), encoding="utf-8")
    proc = run("--to", "reasoning_content", "t.jsonl", cwd=tmp_path)
    converted = [TRACE[0], {"role": "assistant", "content": "4", "reasoning_content": "add"}]
    assert (proc.stdout.decode(), proc.stderr, proc.returncode) == (
        line({"id": "r1", "messages": converted, "source": "gen"}) + line(converted),
        b"",
        0,
    )


@pytest.mark.parametrize(
    ("target", "keep", "message"),
    [
        ("think_tags", "all", {"role": "assistant", "content": "<think>\nadd\n</think>\n\n4"}),
        (
            "content_blocks",
            "all",
            {
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": "add"}, {"type": "text", "text": "4"}],
            },
        ),
        ("reasoning", "last", {"role": "assistant", "content": "4", "reasoning": "add"}),
        ("reasoning", "none", {"role": "assistant", "content": "4"}),
        ("none", "all", {"role": "assistant", "content": "4"}),
    ],
)
def test_targets_and_keep(target: str, keep: str, message: dict[str, Any]) -> None:
    # C2 through the command line, from standard input
    proc = run("--to", target, "--keep", keep, stdin=line(TRACE).encode())
    assert (proc.stdout.decode(), proc.returncode) == (line([TRACE[0], message]), 0)


BAD = [
    line(RECORD),
    "\n",
    "not json\n",
    '{"messages": [{"role": "assistant", "content": 5}]}\n',
    '"a string"\n',
    '{"no": "messages"}\n',
    line(TRACE),
]
SHAPE = 'a record must be a JSON array of messages or an object with a "messages" array'
BAD_ERR = [
    "t.jsonl:3: invalid JSON at column 1: Expecting value",
    "t.jsonl:4: messages[0].content: expected a string, an array or null, got a number",
    f"t.jsonl:5: {SHAPE}",
    f"t.jsonl:6: {SHAPE}",
]


def test_errors_keep_passes_bad_records_through(tmp_path: Path) -> None:
    # C6: per-record errors as FILE:LINE: message; line N of the output is line N of the input
    (tmp_path / "t.jsonl").write_bytes("".join(BAD).encode() + b"\xff\xfe bad utf-8\n")
    proc = run("--to", "none", "t.jsonl", cwd=tmp_path)
    out = proc.stdout.decode("utf-8", "replace").splitlines(keepends=True)
    assert len(out) == len(BAD) + 1
    assert out[2:6] == BAD[2:6] and out[1] == "\n"
    assert json.loads(out[0])["messages"][1] == {"role": "assistant", "content": "4"}
    assert proc.stdout.endswith(b"\xff\xfe bad utf-8\n")
    assert proc.stderr.decode().splitlines() == [
        *BAD_ERR,
        "t.jsonl:8: invalid UTF-8 at byte 0 of the line",
    ]
    assert proc.returncode == 1


def test_errors_skip_and_fail(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text("".join(BAD), encoding="utf-8")
    skip = run("--to", "none", "--errors", "skip", "t.jsonl", cwd=tmp_path)
    assert len(skip.stdout.decode().splitlines()) == 3  # two records and the blank line
    assert (skip.stderr.decode().splitlines(), skip.returncode) == (BAD_ERR, 1)
    fail = run("--to", "none", "--errors", "fail", "t.jsonl", cwd=tmp_path)
    assert len(fail.stdout.decode().splitlines()) == 2
    assert (fail.stderr.decode().splitlines(), fail.returncode) == (BAD_ERR[:1], 1)


def test_missing_file_and_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text(line(TRACE), encoding="utf-8")
    proc = run("--to", "none", "missing.jsonl", "t.jsonl", cwd=tmp_path)
    assert proc.stdout.decode() == line([TRACE[0], {"role": "assistant", "content": "4"}])
    assert (proc.stderr.decode(), proc.returncode) == (
        "thinkparse: missing.jsonl: No such file or directory\n",
        2,
    )
    usage = run("--to", "tags", stdin=b"")
    assert usage.returncode == 2 and usage.stdout == b""
    assert usage.stderr.decode().startswith("thinkparse: error: convert: argument --to: invalid")
    assert usage.stderr.decode().endswith(" (see 'thinkparse convert --help')\n")
    assert usage.stderr.count(b"\n") == 1
    (tmp_path / "d").mkdir()
    directory = run("--to", "none", "d", cwd=tmp_path)
    assert (directory.stdout, directory.stderr, directory.returncode) == (
        b"",
        b"thinkparse: d: Is a directory\n",
        2,
    )
    bad_option = run("--to", "none", "--preset", "nope", stdin=b"")
    assert bad_option.returncode == 2 and b"preset" in bad_option.stderr


def test_think_options(tmp_path: Path) -> None:
    trace = [{"role": "assistant", "content": "[THINK]r[/THINK]a"}]
    proc = run(
        "--to", "reasoning", "--delimiters", "[THINK]", "[/THINK]", stdin=line(trace).encode()
    )
    assert proc.stdout.decode() == line([{"role": "assistant", "content": "a", "reasoning": "r"}])


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    (tmp_path / "big.jsonl").write_text(line(RECORD) * 50000, encoding="utf-8")
    proc = subprocess.run(
        f"'{sys.executable}' -m thinkparse convert --to none big.jsonl | head -1",
        shell=True,
        capture_output=True,
        env=CLI_ENV,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.stdout.count(b"\n") == 1 and proc.stderr == b""


def test_constant_memory(tmp_path: Path) -> None:
    # docs/behaviour.md#cli / C6: records are streamed; peak memory does not grow with the file
    code = (
        "import os, resource, sys\n"
        "from thinkparse.cli import main\n"
        "sys.stdout = open(os.devnull, 'w')\n"
        "status = main(['convert', '--to', 'think_tags', sys.argv[1]])\n"
        "sys.stderr.write(f'{status} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}')\n"
    )
    peaks = []
    for n in (2000, 40000):
        path = tmp_path / f"{n}.jsonl"
        path.write_text(line(RECORD) * n, encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            env=CLI_ENV,
            timeout=300,
        )
        status, peak = proc.stderr.decode().split()
        assert status == "0"
        peaks.append(int(peak))
    assert peaks[1] < peaks[0] * 1.5  # 20x the records, not 20x the memory


def test_choices_are_the_library_values() -> None:
    import thinkparse.cli.commands.convert as command
    import thinkparse.data._convert as library

    assert (command.TARGETS, command.KEEPS) == (library.TARGETS, library.KEEPS)
