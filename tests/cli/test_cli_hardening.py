"""Hardening of the command line: redaction in streams, Parquet rows read like text files, the
output file that is also an input, closed and full outputs, environment failures as one line,
the trace store's subcommands, detection of saved Ollama streams and raw harmony text, and the
``--delimiters`` trap (docs/behaviour.md#cli, docs/cli.md).

Each test runs the real program (``run_cli``) and checks its exact standard output, standard
error and exit status, unless it says otherwise.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, ROOT, check_cli, require, run_cli

from thinkparse import Extraction, TraceStore, parse, split_think

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors and signals")

HELP = " (see 'thinkparse --help')\n"
E = "thinkparse: error: "
KEYS = ["--session", "s", "--run", "r", "--model", "m"]


def read_all(fd: int, timeout: float = 1.0) -> bytes:
    """Everything a pseudo-terminal's master side has, until the child side is closed."""
    seen = b""
    while select.select([fd], [], [], timeout)[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not data:
            break
        seen += data
    return seen


# --- item 12: the output file is an input -----------------------------------------------------
def test_output_file_that_is_an_input_is_refused(tmp_path: Path) -> None:
    # CLI rules: -o FILE naming an input (also through a symlink or a hard link) would truncate
    # it before it is read: a usage error, nothing written.
    src = tmp_path / "in.txt"
    src.write_text("<think>r</think>answer\n", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(src)
    os.link(src, tmp_path / "hard.txt")
    for out in ("in.txt", "link.txt", "hard.txt"):
        proc = run_cli("-o", out, "in.txt", cwd=tmp_path)
        check_cli(proc, "", f"{E}the output file {out} is also an input (in.txt): write the "
                            f"output elsewhere{HELP}", 2)  # fmt: skip
        assert src.read_text(encoding="utf-8") == "<think>r</think>answer\n"
    with src.open("rb") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "thinkparse", "-o", "in.txt"], stdin=stdin,
            capture_output=True, env=CLI_ENV, cwd=tmp_path, timeout=60,
        )  # fmt: skip
    check_cli(proc, "", f"{E}the output file in.txt is also an input (<stdin>): write the "
                        f"output elsewhere{HELP}", 2)  # fmt: skip
    assert src.read_text(encoding="utf-8") == "<think>r</think>answer\n"
    check_cli(run_cli("-o", "other.txt", "in.txt", cwd=tmp_path), "")
    assert (tmp_path / "other.txt").read_text(encoding="utf-8") == "answer\n"


# --- item 14: a closed standard output --------------------------------------------------------
def closed_stdout(*args: Any, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "thinkparse", *map(str, args)], input=stdin,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CLI_ENV, timeout=60,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip


def test_closed_stdout_is_an_error(tmp_path: Path) -> None:
    # M1: thinkparse FILE >&- wrote nothing and exited 0; now one line and exit 1.
    src = tmp_path / "in.txt"
    src.write_text("<think>r</think>answer\n", encoding="utf-8")
    proc = closed_stdout(src)
    assert (proc.stderr, proc.returncode) == (
        b"thinkparse: cannot write the output: standard output is closed\n", 1)
    db = tmp_path / "t.db"
    with TraceStore(db, retention_days=None) as store:
        store.record(Extraction("v", "r", None, 1, False, (), "text", "tags"),
                     session_key="s", run_id="r", model="m")  # fmt: skip
    proc = closed_stdout("traces", "export", "--db", db)
    assert (proc.stderr, proc.returncode) == (
        b"thinkparse: cannot write the output: standard output is closed\n", 1)
    # Nothing to write is no error.
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    proc = closed_stdout(tmp_path / "empty.txt")
    assert (proc.stderr, proc.returncode) == (b"", 0)


# --- item 16: the defaults, written down ------------------------------------------------------
ADAPTERS = ("arrow", "polars", "duckdb", "hf", "spark", "ray")


def test_defaults_table_says_what_each_entry_point_does() -> None:
    # T4, T10, W4, C4, C5: docs/guide.md has a "defaults" table; every row's claim about
    # "plan</think>ans" is what the function gives.
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## Defaults", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|", section, re.M)
    found = {name: (default, visible, reasoning) for name, default, visible, reasoning in rows}
    assert found["split_think"] == ("False", "planans", "None")
    assert found["split_think_many"] == ("False", "planans", "None")
    assert found["thinkparse.arrow.split_think"] == ("False", "planans", "None")
    assert found["normalize"] == ('"auto"', "ans", "plan")
    assert found["thinkparse FILE"] == ('"auto"', "ans", "plan")
    from thinkparse import normalize, split_think_many

    text = "plan</think>ans"
    assert split_think(text).visible == "planans" and split_think(text).reasoning is None
    assert split_think_many([text]) == (["planans"], [None])
    resp = normalize({"choices": [{"message": {"content": text}}]})
    assert (resp.visible, resp.reasoning) == ("ans", "plan")
    check_cli(run_cli(stdin=text.encode()), "ans\n")
    for name in ADAPTERS:  # each adapter says which default it has, why, and how to change it
        doc = importlib.import_module(f"thinkparse.{name}").__doc__ or ""
        assert "start_in_reasoning=False" in doc and '"auto"' in doc, name
        assert "docs/guide.md#defaults" in doc, name


# --- item 27: --choice messages ---------------------------------------------------------------
def test_choice_messages_speak_of_choices() -> None:
    check_cli(run_cli("--choice", "-1", "-"), "",
              f"{E}argument --choice: must be 0 or more (the first choice is 0), not -1{HELP}", 2)
    check_cli(run_cli("--choice", "abc", "-"), "",
              f"{E}argument --choice: expected a choice index (0, 1, ...), not 'abc'{HELP}", 2)


# --- item 29: the progress bar with -o FILE and --html ----------------------------------------
@pytest.mark.parametrize("output", [["-o", "out.jsonl"], ["--html", "-o", "page.html"]])
def test_progress_bar_with_an_output_file(tmp_path: Path, output: list[str]) -> None:
    # CLI rules: the bar is drawn whenever stderr is a terminal and the output is not one.
    pty = pytest.importorskip("pty")
    record = json.dumps({"choices": [{"message": {"content": "<think>r</think>a"}}]}) + "\n"
    (tmp_path / "in.jsonl").write_text(record * 3, encoding="utf-8")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "thinkparse", *output, "in.jsonl"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=CLI_ENV,
            cwd=tmp_path, timeout=60,
        )  # fmt: skip
        os.close(slave)
        slave = -1
        seen = read_all(master)
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert (proc.stdout, proc.returncode) == (b"", 0)
    bar = r"\rin\.jsonl \[#* *\] +\d+% [\d.]+/[\d.]+ MB \d+ lines \d+ MB/s\x1b\[K"
    assert re.fullmatch(rf"({bar})+\r\x1b\[K", seen.decode()), seen


# --- item 32: --delimiters OPEN CLOSE --------------------------------------------------------
def test_delimiters_swallowing_the_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("[T]r[/T]answer", encoding="utf-8")
    for option in ("--delimiters", "--answer"):
        check_cli(
            run_cli(option, "[T]", "f.txt", cwd=tmp_path),
            "",
            f"{E}{option} takes two values, OPEN and CLOSE: the file 'f.txt' was taken as "
            f"CLOSE and no FILE is left; write {option} OPEN CLOSE FILE{HELP}",
            2,
        )
    check_cli(
        run_cli("convert", "--to", "none", "--delimiters", "[T]", "f.txt", cwd=tmp_path),
        "",
        f"{E}convert: --delimiters takes two values, OPEN and CLOSE: the file 'f.txt' was "
        "taken as CLOSE and no FILE is left; write --delimiters OPEN CLOSE FILE "
        "(see 'thinkparse convert --help')\n",
        2,
    )
    check_cli(run_cli("--delimiters", "[T]", "[/T]", "f.txt", cwd=tmp_path), "answer\n")
