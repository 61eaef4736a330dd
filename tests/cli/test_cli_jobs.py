"""``--jobs N``: worker processes, output byte-identical to one process and in input order (C6);
Ctrl-C and closed pipes as in docs/behaviour.md#cli."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, run_cli

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and fork")


def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=CLI_ENV)


def record(i: int) -> str:
    message: dict[str, Any] = {"role": "assistant", "content": f"<think>r{i}</think>answer {i}"}
    if i % 3 == 0:
        message = {"role": "assistant", "content": f"a{i}", "reasoning_content": "é" * (i % 7)}
    return json.dumps({"id": i, "choices": [{"index": 0, "message": message}]}) + "\n"


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    lines = [record(i) for i in range(30_000)]
    lines[5] = "not json\n"
    lines[20_000] = '{"unknown": 1}\n'
    lines.insert(7, "\n")
    (tmp_path / "big.jsonl").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "records.txt").write_text("".join(lines[:3000]), encoding="utf-8")
    (tmp_path / "a.txt").write_text("plan</think>answer", encoding="utf-8")
    (tmp_path / "b.txt").write_text("<think>x</think>y\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "files",
    [
        ["big.jsonl"],
        ["a.txt", "missing.txt", "b.txt", "big.jsonl", "records.txt", "a.txt"],
        ["-"],
    ],
)
@pytest.mark.parametrize("extra", [[], ["-j"], ["-r"], ["--reasoning-to-stderr"]])
def test_jobs_output_equals_one_process(inputs: Path, files: list[str], extra: list[str]) -> None:
    # C6: output in input order, byte-identical to --jobs 1, same messages and status.
    stdin = (inputs / "big.jsonl").read_bytes() if files == ["-"] else b""
    one = run(*extra, *files, stdin=stdin, cwd=inputs)
    two = run("--jobs", "2", *extra, *files, stdin=stdin, cwd=inputs)
    assert one.returncode in (1, 2)
    assert (two.stdout, two.returncode) == (one.stdout, one.returncode)
    if "--reasoning-to-stderr" not in extra:
        assert two.stderr == one.stderr
    else:  # the reasoning and the messages, in order within each output batch
        assert sorted(two.stderr.splitlines()) == sorted(one.stderr.splitlines())


def test_jobs_usage() -> None:
    assert run("--jobs", "-1", "x").returncode == 2
    proc = run("--jobs", "2", "--stream")
    assert (proc.returncode, proc.stderr) == (
        2,
        b"thinkparse: error: --jobs does not apply to --stream or --html (one ordered "
        b"sequence) (see 'thinkparse --help')\n",
    )


def test_jobs_zero_means_one_per_cpu(inputs: Path) -> None:
    assert run("--jobs", "0", "b.txt", cwd=inputs).stdout == b"y\n"


def test_jobs_ctrl_c_exits_130_quietly(inputs: Path) -> None:
    # docs/behaviour.md#cli: Ctrl-C exits 130 quietly, workers included.
    big = inputs / "clean.jsonl"
    block = "".join(record(i) for i in range(10_000)).encode()
    with big.open("wb") as f:
        for _ in range(40):
            f.write(block)
    with subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "--jobs", "2", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=CLI_ENV,
    ) as proc:
        assert proc.stdout is not None
        proc.stdout.readline()  # running; not reading on, so it is soon blocked on the pipe
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    assert (err, proc.returncode) == (b"", 130)


def test_jobs_closed_pipe_is_quiet(inputs: Path) -> None:
    # docs/behaviour.md#cli: a closed output pipe (| head -1) ends quietly with 141.
    with subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "--jobs", "2", str(inputs / "big.jsonl")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=CLI_ENV,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert (proc.wait(timeout=120), err.count(b"\n")) == (141, err.count(b"big.jsonl:"))


@pytest.mark.parametrize("final_newline", [True, False])
def test_jobs_batches_of_a_file_keep_long_lines_whole(tmp_path: Path, final_newline: bool) -> None:
    # C6: a regular file is cut into batches at line ends, a line longer than a batch (1 MB)
    # included, and the last line without its newline is still a record.
    lines = [record(i) for i in range(2_000)]
    lines[700] = record(700).replace("answer 700", "answer " + "x" * 2_500_000)
    lines[1_500] = "[1, 2]\n"
    text = "".join(lines)
    (tmp_path / "long.jsonl").write_text(text if final_newline else text[:-1], encoding="utf-8")
    one = run("-r", "long.jsonl", cwd=tmp_path)
    two = run("--jobs", "2", "-r", "long.jsonl", cwd=tmp_path)
    assert (two.stdout, two.stderr, two.returncode) == (one.stdout, one.stderr, one.returncode)
    out = one.stdout.decode().splitlines()
    assert len(out) == 2_000
    assert out[1_999] == '{"id": 1999, "reasoning": "r1999"}'
    assert one.stderr.decode().endswith(
        "long.jsonl:1501: a JSON Lines record must be a JSON object (a provider response), "
        "not an array\n"
    )


@pytest.mark.parametrize("slot_size", [2 << 20, 100])
def test_jobs_outputs_come_back_through_the_ring_or_the_pipe(
    inputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slot_size: int
) -> None:
    # C6: batch outputs come back through the shared ring when they fit its slots, through the
    # result pipe otherwise; the output is the same either way.
    from thinkparse.cli import main
    from thinkparse.cli.commands import _jobs, _worker

    sizes: list[int] = []
    read: list[int] = []  # outputs the parent wrote from the ring

    class Ring(_worker.Ring):
        def __init__(self, slots: int, size: int) -> None:
            super().__init__(slots, slot_size)
            sizes.append(slots)

        def view(self, slot: int, length: int) -> memoryview:
            read.append(length)
            return super().view(slot, length)

    monkeypatch.setattr(_jobs, "Ring", Ring)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["-o", str(one), str(inputs / "big.jsonl")]) == 1
    assert main(["--jobs", "2", "-o", str(two), str(inputs / "big.jsonl")]) == 1
    assert two.read_bytes() == one.read_bytes()
    assert sizes == [5]
    if slot_size > 100:  # every batch output fits: all of the output came through the ring
        assert sum(read) == len(two.read_bytes())
    else:  # none fits: none came through it
        assert read == []


@pytest.mark.parametrize("seed", range(6))
def test_jobs_spans_give_every_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], seed: int
) -> None:
    # C6: with spans of a few bytes, lines start anywhere relative to them (on a span's first
    # byte, right after it, spanning several spans, blank lines, a BOM on line 1, no final
    # newline); output, messages and line numbers equal one process.
    import random

    from thinkparse.cli import main
    from thinkparse.cli.commands import _jobs, _worker

    rng = random.Random(seed)
    lines = []
    for i in range(rng.randint(1, 60)):
        kind = rng.random()
        if kind < 0.15:
            lines.append("")
        elif kind < 0.25:
            lines.append("{not json")
        else:
            lines.append(
                record(i).rstrip("\n").replace("answer", "answer" + "x" * rng.randint(0, 90))
            )
    text = "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")
    if rng.random() < 0.3:
        text = "\ufeff" + text
    src = tmp_path / "in.jsonl"
    src.write_text(text, encoding="utf-8")
    monkeypatch.setattr(_jobs, "_BATCH", rng.choice([1, 7, 64, 333]))
    monkeypatch.setattr(_worker, "_PROBE", rng.choice([1, 5, 4096]))
    results = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out{jobs}.jsonl"
        status = main(["--jobs", jobs, "-o", str(out), str(src)])
        results.append((status, out.read_bytes(), capfd.readouterr().err))
    assert results[1] == results[0]
    assert results[2] == results[0]
