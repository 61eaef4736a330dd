"""The ``thinkparse`` command on JSON Lines: detection, per-record errors, progress, memory
(docs/behaviour.md#cli "JSON Lines at scale")."""

from __future__ import annotations

import json
import os
import platform
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, EXAMPLES, check_cli, run_cli

ENV = dict(CLI_ENV)



def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=ENV)


check = check_cli


R1 = (
    '{"id": "r1", "visible": "Paris.", "reasoning": "The capital of France is Paris.", '
    '"tokens_est": 8, '
    '"provider": "openai_chat", "format": "field", "reasoning_tokens": 9, "redacted": false}\n'
)
R2 = (
    '{"id": "r2", "visible": "It is 4.", "reasoning": "2 + 2 = 4", "tokens_est": 3, "provider": '
    '"openai_chat", "format": "tags", "reasoning_tokens": null, "redacted": false}\n'
)
R3 = (
    '{"id": "r3", "visible": "Hello!", "reasoning": null, "tokens_est": 0, '
    '"provider": "openai_chat", '
    '"format": "none", "reasoning_tokens": null, "redacted": false}\n'
)


def err_rec(message: str, prefix: str = "{") -> str:
    """The output line in place of a bad record (decision: output line N is record N)."""
    return prefix + '"error": ' + json.dumps(message, ensure_ascii=False) + "}\n"


RECORDS = (EXAMPLES / "records.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
NOT_JSONL = "x.txt"  # a name without the .jsonl / .ndjson extension: detection by content


def test_records_file_gives_json_lines() -> None:
    # behaviour.md#cli: JSON Lines input always gives JSON Lines output, one object per record;
    # P3 (inline tags, "tags"), P5 (absent count -> null), P11.
    check(run(EXAMPLES / "records.jsonl"), R1 + R2 + R3)
    check(run("--json", EXAMPLES / "records.jsonl"), R1 + R2 + R3)


def test_detected_by_content_and_blank_lines_skipped(tmp_path: Path) -> None:
    # behaviour.md#cli: first line a complete JSON object + more non-empty lines -> JSON Lines.
    (tmp_path / NOT_JSONL).write_text(RECORDS[0] + "\n  \n" + RECORDS[1], encoding="utf-8")
    check(run(NOT_JSONL, cwd=tmp_path), R1 + R2)
    check(run("-", stdin="".join(RECORDS).encode()), R1 + R2 + R3)


def test_single_record_without_extension_is_a_response(tmp_path: Path) -> None:
    # behaviour.md#cli: a file that is one JSON value is a provider response (text output).
    (tmp_path / NOT_JSONL).write_text(RECORDS[0] + "\n\n", encoding="utf-8")
    check(run(NOT_JSONL, cwd=tmp_path), "Paris.\n")
    (tmp_path / "one.jsonl").write_text(RECORDS[0], encoding="utf-8")
    check(run("one.jsonl", cwd=tmp_path), R1)  # decision: *.jsonl is always JSON Lines


def test_several_jsonl_files_get_file_key(tmp_path: Path) -> None:
    # behaviour.md#cli: with several files each record gets a "file" key (no header).
    (tmp_path / "a.jsonl").write_text(RECORDS[0], encoding="utf-8")
    (tmp_path / "b.txt").write_text("<think>x</think>y", encoding="utf-8")
    check(
        run("a.jsonl", "b.txt", cwd=tmp_path),
        '{"file": "a.jsonl", ' + R1[1:] + "==> b.txt <==\ny\n",
    )


def test_bad_records_reported_and_replaced(tmp_path: Path) -> None:
    # CLI rules: per-record errors as FILE:LINE: message, without stopping; exit 1 at the end.
    # Each bad record gives an error record in its place, with its id when it has one.
    lines = [
        RECORDS[0],
        '{"choices": [}\n',
        "[1, 2]\n",
        "\n",
        RECORDS[2],
        '{"unknown": "shape"}\n',
        "not json\n",
    ]
    (tmp_path / "m.jsonl").write_text("".join(lines), encoding="utf-8")
    proc = run("m.jsonl", cwd=tmp_path)
    err = proc.stderr.decode().splitlines()
    assert (proc.returncode, len(err)) == (1, 4)
    assert proc.stdout.decode() == (
        R1
        + err_rec("invalid JSON at column 14: Expecting value")
        + err_rec("a JSON Lines record must be a JSON object (a provider response), not an array")
        + R3
        + err_rec(err[2].split(": ", 1)[1])
        + err_rec("invalid JSON at column 1: Expecting value")
    )
    assert err[0] == "m.jsonl:2: invalid JSON at column 14: Expecting value"
    assert err[1] == (
        "m.jsonl:3: a JSON Lines record must be a JSON object (a provider response), not an array"
    )
    assert err[2].startswith("m.jsonl:6: ") and "unknown" in err[2]  # P8 names the keys
    assert err[3] == "m.jsonl:7: invalid JSON at column 1: Expecting value"


def test_bad_records_only(tmp_path: Path) -> None:
    # behaviour.md#cli: records that never reach a normaliser: JSON and UTF-8 errors with positions.
    data = b'{"a": \n\xff{}\n"text"\n'
    (tmp_path / "bad.jsonl").write_bytes(data)
    check(
        run("bad.jsonl", cwd=tmp_path),
        err_rec("invalid JSON at column 7: Expecting value")
        + err_rec("invalid UTF-8 at byte offset 7 (--errors replace substitutes U+FFFD)")
        + err_rec("a JSON Lines record must be a JSON object (a provider response), not a string"),
        "bad.jsonl:1: invalid JSON at column 7: Expecting value\n"
        "bad.jsonl:2: invalid UTF-8 at byte offset 7 (--errors replace substitutes U+FFFD)\n"
        "bad.jsonl:3: a JSON Lines record must be a JSON object (a provider response), "
        "not a string\n",
        1,
    )


def test_invalid_utf8_in_record_replace(tmp_path: Path) -> None:
    # behaviour.md#cli: --errors replace continues.
    record = json.loads(RECORDS[2])
    record["choices"][0]["message"]["content"] = "Hi\udcff!"
    raw = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogateescape")
    (tmp_path / "u.jsonl").write_bytes(raw + b"\n" + RECORDS[2].encode())
    check(
        run("--errors", "replace", "u.jsonl", cwd=tmp_path),
        R3.replace("Hello!", "Hi\ufffd!", 1) + R3,
    )
    proc = run("u.jsonl", cwd=tmp_path)
    offset = raw.index(b"\xff")
    check(
        proc,
        err_rec(f"invalid UTF-8 at byte offset {offset} (--errors replace substitutes U+FFFD)")
        + R3,
        f"u.jsonl:1: invalid UTF-8 at byte offset {offset} (--errors replace substitutes U+FFFD)\n",
        1,
    )


def test_reasoning_to_stderr_per_record() -> None:
    # behaviour.md#cli "--reasoning-to-stderr (any mode)".
    check(
        run("--reasoning-to-stderr", EXAMPLES / "records.jsonl"),
        R1 + R2 + R3,
        "The capital of France is Paris.\n2 + 2 = 4\n",
    )


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    # behaviour.md#cli: a progress bar only when stderr is a terminal (here a pipe: nothing at all).
    (tmp_path / "bad.jsonl").write_text("x\n" * 3, encoding="utf-8")
    proc = run("bad.jsonl", cwd=tmp_path)
    assert proc.stderr == b"".join(
        b"bad.jsonl:%d: invalid JSON at column 1: Expecting value\n" % i for i in (1, 2, 3)
    )


def test_progress_bar_on_a_terminal_is_erased_around_errors(tmp_path: Path) -> None:
    # CLI rules: progress bar on stderr when it is a terminal; each error still one clean line.
    pty = pytest.importorskip("pty")
    (tmp_path / "bad.jsonl").write_text("x\n" * 3, encoding="utf-8")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "thinkparse", "bad.jsonl"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=slave,
            env=ENV,
            cwd=tmp_path,
            timeout=60,
        )
        os.close(slave)
        slave = -1
        seen = b""
        while select.select([master], [], [], 1.0)[0]:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            seen += data
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    expected_out = err_rec("invalid JSON at column 1: Expecting value") * 3
    assert (proc.stdout.decode(), proc.returncode) == (expected_out, 1)
    text = seen.replace(b"\r\n", b"\n").decode()
    *lines, tail = text.split("\n")
    assert text.startswith("\rbad.jsonl [") and re.fullmatch(r"(\r[^\r]*\x1b\[K)*", tail)
    errors = [line.rsplit("\r\x1b[K", 1)[-1] for line in lines]
    expected = "bad.jsonl:{}: invalid JSON at column 1: Expecting value"
    assert errors == [expected.format(i) for i in (1, 2, 3)]


# ---- scale ----------------------------------------------------------------------------------
RSS_WRAPPER = (
    "import resource, subprocess, sys\n"
    "with open(sys.argv[1], 'wb') as out:\n"
    "    rc = subprocess.run(sys.argv[2:], stdout=out, stdin=subprocess.DEVNULL).returncode\n"
    "kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(rc, kib * (1 if sys.platform == 'darwin' else 1024))\n"
)


def peak_rss(out: Path, *args: Any) -> tuple[int, int]:
    """Exit status and peak RSS in bytes of one run, measured in a dedicated wrapper process."""
    proc = subprocess.run(
        [sys.executable, "-c", RSS_WRAPPER, str(out), sys.executable, "-m", "thinkparse",
         *map(str, args)],
        capture_output=True, env=ENV, timeout=600, check=True,
    )  # fmt: skip
    rc, rss = proc.stdout.split()
    return int(rc), int(rss)


def make_records(path: Path, size: int) -> int:
    """Write OpenAI-compatible records (about 1 KB each) up to ``size`` bytes; return the count."""
    reasoning = "Let me check the figures step by step. " * 12
    count = written = 0
    with path.open("wb") as f:
        while written < size:
            record = {
                "id": f"chatcmpl-{count}",
                "object": "chat.completion",
                "model": "deepseek-reasoner",
                "choices": [{"index": 0, "message": {"role": "assistant",
                             "content": f"Answer number {count}.",
                             "reasoning_content": f"{reasoning}{count}"},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 20, "completion_tokens": 150, "total_tokens": 170,
                          "completion_tokens_details": {"reasoning_tokens": 120}},
            }  # fmt: skip
            line = json.dumps(record).encode() + b"\n"
            f.write(line)
            written += len(line)
            count += 1
    return count


def test_large_jsonl_in_constant_memory(tmp_path: Path) -> None:
    # behaviour.md#cli "record by record in constant memory"; behaviour.md#performance peak memory.
    big = tmp_path / "big.jsonl"
    size = 30 * 1024 * 1024
    count = make_records(big, size)
    _, baseline = peak_rss(tmp_path / "version.txt", "--version")
    rc, peak = peak_rss(tmp_path / "out.jsonl", big)
    assert rc == 0
    lines = 0
    with (tmp_path / "out.jsonl").open("rb") as f:
        for lines, line in enumerate(f, 1):  # noqa: B007
            pass
        last = json.loads(line)
    assert (lines, last["visible"], last["reasoning_tokens"]) == (
        count,
        f"Answer number {count - 1}.",
        120,
    )
    if platform.python_implementation() == "PyPy":
        # PyPy's garbage collector keeps a heap of a few hundred MB whatever the input, so the
        # bound is on growth with the input: a file of a quarter the size peaks about as high.
        small = tmp_path / "small.jsonl"
        make_records(small, size // 4)
        _, small_peak = peak_rss(tmp_path / "out-small.jsonl", small)
        assert peak - small_peak < 12 * 1024 * 1024, (peak, small_peak)
        return
    # Reading the file whole would need at least its size again (bytes, then text).
    assert peak - baseline < 12 * 1024 * 1024, (peak, baseline)
