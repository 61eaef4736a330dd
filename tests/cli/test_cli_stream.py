"""``thinkparse --stream``, terminals, signals and closed pipes (docs/behaviour.md#cli).

The live tests write to the program's standard input in pieces and read each answer back
*before* the input ends, waiting with ``select`` (a generous deadline only guards against a
hang; no timing is asserted).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from _support import CLI_ENV, EXAMPLES

ENV = dict(CLI_ENV)
DEADLINE = 30.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes, ptys and signals")


@contextlib.contextmanager
def started(*args: Any, **kwargs: Any) -> Iterator[subprocess.Popen[bytes]]:
    """``start`` as a context: the child is killed if still running, its pipes closed."""
    with start(*args, **kwargs) as proc:
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()


def start(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "env": ENV,
        "bufsize": 0,
    }
    options.update(kwargs)
    return subprocess.Popen([sys.executable, "-m", "thinkparse", *map(str, args)], **options)


def read_exactly(stream: Any, expected: bytes) -> bytes:
    """Read from a pipe until ``len(expected)`` bytes arrived (or EOF, or the deadline)."""
    fd = stream.fileno()
    got = b""
    end = time.monotonic() + DEADLINE
    while len(got) < len(expected):
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        data = os.read(fd, 65536)
        if not data:
            break
        got += data
    return got


def send(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()


def finish(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes, int]:
    out, err = proc.communicate(timeout=DEADLINE)
    return out, err, proc.returncode


def test_stream_writes_visible_text_before_the_input_ends() -> None:
    # behaviour.md#cli "--stream": data as it arrives (not by lines, not at EOF); S2 promptness.
    with started("--stream") as proc:
        send(proc, b"<think>plan")
        send(proc, b"</think>\n\nHello, ")
        assert read_exactly(proc.stdout, b"Hello, ") == b"Hello, "
        send(proc, b"wor")
        assert read_exactly(proc.stdout, b"wor") == b"wor"
        send(proc, b"ld \xc3")  # "é" split across two writes
        assert read_exactly(proc.stdout, b"ld ") == b"ld "
        send(proc, b"\xa9!\n")
        assert read_exactly(proc.stdout, "é!\n".encode()) == "é!\n".encode()
        assert finish(proc) == (b"", b"", 0)


def test_stream_reasoning_to_stderr_live() -> None:
    # behaviour.md#cli: --reasoning-to-stderr in --stream mode; not dimmed on a pipe.
    with started("--stream", "--reasoning-to-stderr") as proc:
        send(proc, b"<think>step one")
        assert read_exactly(proc.stderr, b"step one") == b"step one"
        send(proc, b"</think>Answer")
        assert read_exactly(proc.stdout, b"Answer") == b"Answer"
        assert finish(proc) == (b"\n", b"\n", 0)


def test_stream_output_equals_file_output(tmp_path: Path) -> None:
    # S1: whatever the chunking, the stream prints what the whole-text run prints.
    text = (EXAMPLES / "think.txt").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "--stream"],
        input=text,
        capture_output=True,
        env=ENV,
        timeout=DEADLINE,
    )
    assert (proc.stdout, proc.stderr, proc.returncode) == (
        b"The capital of Australia is Canberra.\n",
        b"",
        0,
    )
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "--stream", "--reasoning"],
        input=text,
        capture_output=True,
        env=ENV,
        timeout=DEADLINE,
    )
    assert (proc.stdout, proc.returncode) == (
        b"The user asks for the capital of Australia.\n"
        b"Sydney is the largest city, but the capital is Canberra.\n",
        0,
    )


def test_stream_has_no_auto_mode() -> None:
    # behaviour.md#cli: "auto" is not available with --stream; --start-in-reasoning is (T6).
    data = b"plan</think>\n\nAnswer"
    cmd = [sys.executable, "-m", "thinkparse", "--stream"]
    proc = subprocess.run(cmd, input=data, capture_output=True, env=ENV, timeout=DEADLINE)
    assert (proc.stdout, proc.returncode) == (b"plan\n\nAnswer\n", 0)
    proc = subprocess.run(
        [*cmd, "--start-in-reasoning"], input=data, capture_output=True, env=ENV, timeout=60
    )
    assert (proc.stdout, proc.returncode) == (b"Answer\n", 0)
    proc = subprocess.run(
        [*cmd, "--preset", "deepseek-r1"], input=data, capture_output=True, env=ENV, timeout=60
    )
    assert (proc.stdout, proc.returncode) == (b"Answer\n", 0)


def test_stream_from_a_file_argument(tmp_path: Path) -> None:
    # Decision: --stream accepts one FILE as well as standard input.
    f = tmp_path / "a.txt"
    f.write_bytes(b"<think>r</think>visible")
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "--stream", str(f)],
        input=b"",
        capture_output=True,
        env=ENV,
        timeout=DEADLINE,
    )
    assert (proc.stdout, proc.stderr, proc.returncode) == (b"visible\n", b"", 0)


def test_stream_invalid_utf8_reports_byte_offset() -> None:
    # behaviour.md#cli: invalid UTF-8 -> 1 with the byte offset (counted across reads).
    with started("--stream") as proc:
        send(proc, b"Hello ")
        assert read_exactly(proc.stdout, b"Hello ") == b"Hello "
        send(proc, b"ab\xe2\x82")
        send(proc, b"(rest")
        out, err, rc = finish(proc)
    assert (err, rc) == (
        b"<stdin>: invalid UTF-8 at byte offset 8 (--errors replace substitutes U+FFFD)\n",
        1,
    )
    # Everything valid before the bad byte is written, however the writes were read.
    assert out == b"ab\n"


def test_stream_errors_replace() -> None:
    # behaviour.md#cli: --errors replace continues with U+FFFD.
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "--stream", "--errors", "replace"],
        input=b"a\xffb\xe2\x82",
        capture_output=True,
        env=ENV,
        timeout=DEADLINE,
    )
    assert (proc.stdout, proc.stderr, proc.returncode) == (
        "a\ufffdb\ufffd\n".encode(),
        b"",
        0,
    )


def test_ctrl_c_exits_130_quietly() -> None:
    # behaviour.md#cli: Ctrl-C exits 130 quietly.
    with started("--stream") as proc:
        send(proc, b"ready ")
        assert read_exactly(proc.stdout, b"ready ") == b"ready "  # it is in the read loop
        proc.send_signal(signal.SIGINT)
        out, err, rc = finish(proc)
    assert (out, err, rc) == (b"", b"", 130)


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_closed_output_pipe_ends_quietly(tmp_path: Path, extra: list[str]) -> None:
    # behaviour.md#cli: a closed output pipe (| head -1) ends quietly: no traceback, status 141.
    big = tmp_path / "big.txt"
    big.write_bytes(b"".join(b"line %d of a long answer\n" % i for i in range(200_000)))
    with started(*extra, big, stdin=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        first = read_exactly(proc.stdout, b"x" * 24)  # then stop reading, like head -c 24
        proc.stdout.close()
        assert proc.stderr is not None
        err = proc.stderr.read()
        rc = proc.wait(timeout=DEADLINE)
    expected = b"line 0 of a long answer\n" if not extra else b'{"visible": "line 0 of a'
    assert (first[:24], err, rc) == (expected, b"", 141)


def run_on_pty(
    args: list[Any], stdin: bytes, env: dict[str, str] = ENV
) -> tuple[bytes, bytes, int]:
    """Run with stderr on a pseudo-terminal; return (stdout, stderr as seen on the tty, rc)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "thinkparse", *map(str, args)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=slave,
            env=env,
        )
        os.close(slave)
        slave = -1
        out, _ = proc.communicate(stdin, timeout=DEADLINE)
        err = b""
        while select.select([master], [], [], 0.5)[0]:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other side is closed
                break
            if not data:
                break
            err += data
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    return out, err.replace(b"\r\n", b"\n"), proc.returncode


def test_reasoning_to_stderr_is_dimmed_on_a_terminal() -> None:
    # behaviour.md#cli: dimmed (SGR 2) when stderr is a terminal.
    out, err, rc = run_on_pty(["--reasoning-to-stderr", "-"], b"<think>plan</think>Answer.")
    assert (out, err, rc) == (b"Answer.\n", b"\x1b[2mplan\x1b[0m\n", 0)


def test_no_color_turns_dimming_off() -> None:
    # Decision: NO_COLOR set -> plain text even on a terminal.
    env = dict(ENV, NO_COLOR="1")
    out, err, rc = run_on_pty(["--reasoning-to-stderr", "-"], b"<think>plan</think>A", env)
    assert (out, err, rc) == (b"A\n", b"plan\n", 0)


# ---- stream events (provider NDJSON) ---------------------------------------------------------
def test_stream_events_one_per_line_live() -> None:
    # CLI rules --stream with --format jsonl: each line is a provider event (P9), answer live.
    events = json.loads((EXAMPLES / "anthropic-stream.json").read_text(encoding="utf-8"))
    lines = [json.dumps(e).encode() + b"\n" for e in events]
    with started("--stream", "--format", "jsonl", "--reasoning-to-stderr") as proc:
        for line in lines[:4]:
            send(proc, line)
        reasoning = b"27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231."
        assert read_exactly(proc.stderr, reasoning) == reasoning
        for line in lines[4:9]:
            send(proc, line)
        assert read_exactly(proc.stdout, b"27 * 453 = ") == b"27 * 453 = "
        for line in lines[9:]:
            send(proc, line)
        assert finish(proc) == (b"12231\n", b"\n", 0)


def test_stream_events_bad_lines_reported_and_skipped() -> None:
    # behaviour.md#cli: per-line errors as FILE:LINE: message, processing continues, exit 1.
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "--stream", "--format", "jsonl"],
        input=b'{"type": "ping"}\n{"type": \n\n[1]\n',
        capture_output=True,
        env=ENV,
        timeout=DEADLINE,
    )
    assert (proc.stdout, proc.stderr, proc.returncode) == (
        b"",
        b"<stdin>:2: invalid JSON at column 10: Expecting value\n"
        b"<stdin>:4: an event must be a JSON object, not an array\n",
        1,
    )
