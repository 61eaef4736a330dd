"""Text inputs in bounded memory: the streamed passes give exactly ``split_think``'s result
(T9, T10, S1), and a large file stays far below the memory bound."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _support import CLI_ENV
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import split_think
from thinkparse.cli.commands import _textfile

PIECES = ["<think>", "</think>", "a", " ", "\n", "`", "```", "<", "</thi", "<think/>", "é", "\t"]


def streamed(text: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch, read: int):
    monkeypatch.setattr(_textfile, "_READ", read)
    source = _textfile.TextSource(io.BytesIO(text.encode()), b"", "x", "strict")
    survey = _textfile.Survey(source, options, want_mark=False)
    split = _textfile.Split(source, options, survey)
    pieces = list(split.pieces())
    visible = "".join(v for v, _ in pieces)
    reasoning = "".join(r for _, r in pieces) if split.has_reasoning else None
    assert split.reasoning_chars == len(reasoning or "")
    return visible, reasoning


@settings(max_examples=400)
@given(
    st.lists(st.sampled_from(PIECES), max_size=16).map("".join),
    st.sampled_from([{}, {"code_aware": False}, {"max_tentative": 3}, {"preset": "qwen3"}]),
    st.sampled_from(["auto", False, True]),
    st.integers(1, 7),
)
def test_streamed_passes_equal_split_think(
    text: str, options: dict[str, object], start: object, read: int
) -> None:
    # T10 ("auto") and S1: any read size gives split_think's result.
    options = {**options, "start_in_reasoning": start}
    expected = split_think(text, **options)  # type: ignore[arg-type]
    with pytest.MonkeyPatch.context() as mp:
        assert streamed(text, options, mp, read) == (expected.visible, expected.reasoning)


def test_invalid_utf8_found_before_output(tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_bytes(b"<think>a</think>" + b"x" * 300_000 + b"\xff")
    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", str(f)], capture_output=True, env=CLI_ENV, timeout=60
    )
    assert (proc.stdout, proc.returncode) == (b"", 1)
    assert (
        proc.stderr
        == (
            f"{f}: invalid UTF-8 at byte offset 300016 (--errors replace substitutes U+FFFD)\n"
        ).encode()
    )


RSS = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n"
)


def peak(*args: str, stdin: object = subprocess.DEVNULL) -> tuple[int, int]:
    proc = subprocess.run(
        [sys.executable, "-c", RSS, sys.executable, "-m", "thinkparse", *args],
        stdin=stdin,
        capture_output=True,
        env=CLI_ENV,
        timeout=900,
        check=True,
    )
    rc, rss = proc.stdout.split()
    return int(rc), int(rss)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB")
def test_large_text_file_in_bounded_memory(tmp_path: Path) -> None:
    # Memory bound: a ~200 MB text file peaks far below 150 MB in every text mode.
    big = tmp_path / "big.txt"
    block = ("reasoning about the figures, step by step. " * 20 + "\n").encode()
    with big.open("wb") as f:
        f.write(b"The user asks for the total.\n")
        while f.tell() < 200 * 1024 * 1024:
            f.write(block)
        f.write(b"</think>\n\nThe total is 54.\n")
    binary = tmp_path / "binary.bin"
    with binary.open("wb") as f:
        chunk = bytes(range(256)) * 4096
        while f.tell() < 200 * 1024 * 1024:
            f.write(chunk)
    _, base = peak("--version")
    limit = 150 * 1024 * 1024
    for args in (
        [str(big)],
        ["-r", str(big)],
        ["-j", str(big)],
        ["--errors", "replace", str(binary)],
    ):
        rc, rss = peak(*args)
        assert (rc, rss < limit, rss - base < 60 * 1024 * 1024) == (0, True, True), (args, rss)
    # Standard input that is a pipe: spooled to a temporary file, not held.
    with subprocess.Popen(["cat", str(big)], stdout=subprocess.PIPE) as cat:
        rc, rss = peak("-", stdin=cat.stdout)
    assert (rc, rss < limit) == (0, True), rss
    assert os.path.getsize(big) > 200 * 1024 * 1024
