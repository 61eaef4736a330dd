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


# --- item 9: redaction of streamed text -----------------------------------------------------
RED = (
    "a <REDACTED>secret</REDACTED> <REASONING>r <REDACTED>x</REDACTED></REASONING> ans "
    "<REDACTED>hidden to the end"
)


def test_stream_redacts_like_a_whole_text(tmp_path: Path) -> None:
    # R7: a streamed <REASONING> text is redacted as parse() redacts the whole text; an
    # unclosed <REDACTED> hides the rest (fail closed), and the <REASONING> block is reasoning.
    whole = parse(RED)
    assert (whole.visible, whole.reasoning) == ("a [REDACTED]  ans [REDACTED]", "r [REDACTED]")
    check_cli(run_cli("--stream", stdin=RED.encode()), "a [REDACTED]  ans [REDACTED]\n")
    check_cli(
        run_cli("--stream", "--reasoning-to-stderr", stdin=RED.encode()),
        "a [REDACTED]  ans [REDACTED]\n",
        "r [REDACTED]\n",
    )
    check_cli(run_cli("--stream", "-r", stdin=RED.encode()), "r [REDACTED]\n")
    (tmp_path / "red.txt").write_text(RED, encoding="utf-8")
    check_cli(run_cli(tmp_path / "red.txt"), "a [REDACTED]  ans [REDACTED]\n")


def test_stream_no_redact_keeps_the_sections() -> None:
    # R7: --no-redact works under --stream too: the tags are ordinary text.
    check_cli(
        run_cli("--stream", "--no-redact", stdin=RED.encode()),
        "a <REDACTED>secret</REDACTED>  ans <REDACTED>hidden to the end\n",
    )


def test_stream_redaction_across_chunks() -> None:
    # R7: the tags may arrive cut anywhere; nothing inside a section is ever written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "--stream"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=CLI_ENV,
    )  # fmt: skip
    assert proc.stdin is not None
    for piece in ("visible <RED", "ACTED>sec", "ret</REDA", "CTED> more <", "REDACTED>tail"):
        proc.stdin.write(piece.encode())
        proc.stdin.flush()
        time.sleep(0.05)
    out, err = proc.communicate(timeout=60)
    assert (out, err, proc.returncode) == (b"visible [REDACTED] more [REDACTED]\n", b"", 0)


def test_stream_redactor_equals_parse_on_any_chunking() -> None:
    # R7: the redactor --stream uses gives, for every cut of the text, what parse() gives for
    # a text without a <REASONING> block (R3: the redacted text itself).
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from thinkparse.cli._redact import StreamRedactor

    alphabet = st.sampled_from(["<REDACTED>", "</REDACTED>", "<", "RED", "ACTED>", "/", "x", " "])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(alphabet, max_size=30), st.lists(st.integers(0, 400), max_size=8))
    def check(parts: list[str], cuts: list[int]) -> None:
        text = "".join(parts)
        points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
        redactor = StreamRedactor()
        out = "".join(redactor.feed(text[i:j]) for i, j in zip(points, points[1:]))
        assert out + redactor.close() == parse(text).visible

    check()


def test_traces_record_stream_is_redacted(tmp_path: Path) -> None:
    # R7, D5: traces record --stream writes and stores the redacted text.
    db = tmp_path / "t.db"
    proc = run_cli("traces", "record", "--db", db, *KEYS, "--stream", "--json",
                   stdin=RED.encode())  # fmt: skip
    lines = proc.stdout.decode().splitlines()
    assert (lines[0], proc.returncode) == ("a [REDACTED]  ans [REDACTED]", 0)
    with TraceStore(db, retention_days=None) as store:
        (trace,) = store.query()
    assert trace.reasoning_text == "r [REDACTED]"


# --- item 10: Parquet rows with <REASONING> ---------------------------------------------------
@pytest.fixture
def reasoning_table(tmp_path: Path) -> Path:
    pa = require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    pq = require("pyarrow.parquet", "THINKPARSE_REQUIRE_ENGINES")
    texts = ["<REASONING>r <REDACTED>x</REDACTED></REASONING> a <REDACTED>s</REDACTED>",
             "<think>t</think>b", None]  # fmt: skip
    pq.write_table(pa.table({"id": [7, 8, 9], "text": texts}), tmp_path / "in.parquet")
    return tmp_path / "in.parquet"


def test_parquet_rows_read_like_text_files(reasoning_table: Path, tmp_path: Path) -> None:
    # R7, C6: a row holding <REASONING> goes to parse() and is redacted, as a text file is.
    check_cli(
        run_cli("--column", "text", reasoning_table),
        '{"id": 7, "visible": "a [REDACTED]", "reasoning": "r [REDACTED]", "tokens_est": 3}\n'
        '{"id": 8, "visible": "b", "reasoning": "t", "tokens_est": 1}\n'
        '{"id": 9, "visible": null, "reasoning": null, "tokens_est": null}\n',
    )
    check_cli(
        run_cli("--column", "text", "--no-redact", "--key", "id", reasoning_table),
        '{"id": 7, "visible": "a <REDACTED>s</REDACTED>", "reasoning": "r <REDACTED>x</REDACTED>",'
        ' "tokens_est": 6}\n'
        '{"id": 8, "visible": "b", "reasoning": "t", "tokens_est": 1}\n'
        '{"id": 9, "visible": null, "reasoning": null, "tokens_est": null}\n',
    )
    pq = require("pyarrow.parquet", "THINKPARSE_REQUIRE_ENGINES")
    out = tmp_path / "out.parquet"
    check_cli(run_cli("--column", "text", "-o", out, reasoning_table), "")
    got = pq.read_table(out)
    assert got.column("text__visible").to_pylist() == ["a [REDACTED]", "b", None]
    assert got.column("text__reasoning").to_pylist() == ["r [REDACTED]", "t", None]


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


# --- item 23: environment failures ------------------------------------------------------------
def test_parquet_output_in_a_missing_directory(reasoning_table: Path, tmp_path: Path) -> None:
    # CLI rules: an output that cannot be opened is a usage error (2), one line.
    missing = tmp_path / "nodir" / "o.parquet"
    check_cli(
        run_cli("--column", "text", "-o", missing, reasoning_table),
        "",
        f"{E}cannot open the output file {missing}: No such file or directory{HELP}",
        2,
    )
    full = tmp_path / "full.parquet"  # a full device under a Parquet name: a write error (1)
    full.symlink_to("/dev/full")
    check_cli(run_cli("--column", "text", "-o", full, reasoning_table), "",
              "thinkparse: cannot write the output: No space left on device\n", 1)


def test_traces_export_parquet_to_a_missing_directory(tmp_path: Path) -> None:
    require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    db = tmp_path / "t.db"
    TraceStore(db).close()
    missing = tmp_path / "nodir" / "x.parquet"
    check_cli(
        run_cli("traces", "export", "--db", db, "--parquet", missing),
        "",
        f"{E}traces: cannot open the output file {missing}: No such file or directory{HELP}",
        2,
    )


def test_html_to_a_full_device(tmp_path: Path) -> None:
    # M1: a page that cannot be written is an output error (1), not an internal error.
    src = tmp_path / "in.txt"
    src.write_text("<think>r</think>answer\n", encoding="utf-8")
    full = "thinkparse: cannot write the output: No space left on device\n"
    check_cli(run_cli("--html", "-o", "/dev/full", src), "", full, 1)
    with open("/dev/full", "wb") as out:
        proc = subprocess.run([sys.executable, "-m", "thinkparse", "--html", str(src)],
                              stdout=out, stderr=subprocess.PIPE, env=CLI_ENV, timeout=60)
    assert (proc.stderr.decode(), proc.returncode) == (full, 1)


def test_huge_numbers_are_usage_errors(tmp_path: Path) -> None:
    # C6: --jobs has a ceiling; ages beyond what the store's timestamps hold are refused.
    src = tmp_path / "in.txt"
    src.write_text("x\n", encoding="utf-8")
    big = str(10**20)
    check_cli(run_cli("--jobs", big, src), "",
              f"{E}argument --jobs: at most 1024 worker processes, not {big}{HELP}", 2)
    db = tmp_path / "t.db"
    TraceStore(db).close()
    age = "9" * 40 + "w"
    for action, option in (("list", "--since"), ("stats", "--until")):
        check_cli(run_cli("traces", action, "--db", db, option, age), "",
                  f"{E}traces: argument {option}: {age!r} is out of range{HELP}", 2)
    age = "9" * 400 + "w"  # more than a float holds
    check_cli(run_cli("traces", "prune", "--db", db, "--older-than", age), "",
              f"{E}traces: argument --older-than: {age!r} is out of range{HELP}", 2)


def test_jobs_worker_killed_is_one_line(tmp_path: Path) -> None:
    # C6: a worker killed (the OOM killer's SIGKILL) ends the run with one line and exit 1.
    record = json.dumps({"choices": [{"message": {"content": "<think>r</think>a"}}]}) + "\n"
    proc = subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "--jobs", "2", "--format", "jsonl", "-o",
         str(tmp_path / "out.jsonl"), "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=CLI_ENV,
    )  # fmt: skip
    assert proc.stdin is not None
    try:
        proc.stdin.write(record.encode() * 30_000)  # more than one batch: the workers start
        proc.stdin.flush()
        children: list[int] = []
        deadline = time.monotonic() + 60
        while len(children) < 2 and time.monotonic() < deadline:
            path = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
            children = [int(p) for p in path.read_text().split()] if path.exists() else []
            time.sleep(0.05)
        assert len(children) >= 2
        os.kill(children[0], signal.SIGKILL)
        time.sleep(0.2)
        proc.stdin.write(record.encode() * 30_000)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    out, err = proc.communicate(timeout=120)
    assert (out, err.decode(), proc.returncode) == (
        b"",
        "thinkparse: a worker process died (killed by a signal, perhaps for lack of memory): "
        "the output is incomplete\n",
        1,
    )


def test_traces_record_on_a_full_disk(tmp_path: Path) -> None:
    # D4: a store that cannot grow (here: a file size limit, as a full disk) is one line, exit 1.
    import resource

    db = tmp_path / "t.db"
    TraceStore(db).close()
    src = tmp_path / "big.txt"
    src.write_text("<think>" + "long reasoning " * 14_000 + "</think>answer", encoding="utf-8")
    limit = max(p.stat().st_size for p in tmp_path.glob("t.db*")) + (64 << 10)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run(
        [sys.executable, "-m", "thinkparse", "traces", "record", "--db", str(db), *KEYS,
         str(src)],
        capture_output=True, env=CLI_ENV, timeout=60, preexec_fn=limited,
    )  # fmt: skip
    err = proc.stderr.decode()
    assert (proc.stdout, proc.returncode) == (b"", 1)
    assert re.fullmatch(rf"thinkparse: cannot write the trace store: {re.escape(str(db))}: "
                        r"(disk I/O error|database or disk is full)\n", err), err


# --- item 24: thinkparse traces ---------------------------------------------------------------
def test_traces_list_and_stats_with_no_rows(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    TraceStore(db).close()
    check_cli(run_cli("traces", "list", "--db", db),
              "created_at  id  session  run  model  provider  reasoning  ms\n")
    check_cli(run_cli("traces", "stats", "--db", db),
              "model  traces  reasoning_tokens  median  first  last\n")
    check_cli(run_cli("traces", "list", "--db", db, "--json"), "")
    check_cli(run_cli("traces", "stats", "--db", db, "--json"), "")


@pytest.mark.parametrize("action", [["list"], ["stats"], ["show", "x"], ["export"],
                                    ["prune", "--older-than", "1d"]])  # fmt: skip
def test_traces_missing_store_is_not_created(tmp_path: Path, action: list[str]) -> None:
    # D1: reading a store that does not exist is an error, and creates no file.
    db = tmp_path / "typo.db"
    check_cli(run_cli("traces", action[0], "--db", db, *action[1:]), "",
              f"thinkparse: {db}: no such trace store (record or import creates one)\n", 2)
    assert list(tmp_path.iterdir()) == []


def test_traces_every_option_has_help() -> None:
    import argparse

    from thinkparse.cli.commands import _traces_args

    parser = _traces_args.traces_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    missing = [f"{name} {'/'.join(a.option_strings) or a.dest}"
               for name, p in sub.choices.items() for a in p._actions
               if not a.help or a.help == argparse.SUPPRESS]  # fmt: skip
    assert missing == []


def test_traces_limit_shows_the_newest(tmp_path: Path) -> None:
    # D1: --limit N lists the newest N rows, oldest first.
    db = tmp_path / "t.db"
    ex = Extraction("", "abcd", None, 1, False, (), "text", "tags")
    with TraceStore(db, retention_days=None) as store:
        for i in range(5):
            store.record(ex, session_key="s", run_id="r", model="m", id=f"t{i}",
                         created_at=1_700_000_000_000 + i * 1000)  # fmt: skip
    proc = run_cli("traces", "list", "--db", db, "--limit", "2", "--json")
    assert [json.loads(x)["id"] for x in proc.stdout.decode().splitlines()] == ["t3", "t4"]


def test_thinkparse_db_is_documented() -> None:
    assert "THINKPARSE_DB" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "THINKPARSE_DB" in run_cli("traces", "--help").stdout.decode()
    assert "THINKPARSE_DB" in run_cli("traces", "list", "--help").stdout.decode()


# --- item 25: traces record --model and duration_ms -------------------------------------------
def test_traces_record_model_selects_its_preset(tmp_path: Path) -> None:
    # F5, D5: --model deepseek-r1 reads the text as -m deepseek-r1 does (the template opened
    # the block), for files and for --stream.
    db = tmp_path / "t.db"
    src = tmp_path / "in.txt"
    src.write_text("thinking out loud", encoding="utf-8")
    check_cli(run_cli("-m", "deepseek-r1", "-r", src), "thinking out loud\n")
    keys = ["--session", "s", "--run", "r", "--model", "deepseek-r1"]
    assert run_cli("traces", "record", "--db", db, *keys, src).returncode == 0
    proc = run_cli("traces", "record", "--db", db, *keys, "--stream",
                   stdin=b"plan</think>answer")  # fmt: skip
    assert (proc.stdout, proc.returncode) == (b"answer\n", 0)
    with TraceStore(db, retention_days=None) as store:
        assert [t.reasoning_text for t in store.query()] == ["thinking out loud", "plan"]


def test_traces_record_stream_measures_its_duration(tmp_path: Path) -> None:
    # D5: duration_ms runs from the first byte read to the end of the stream: here the answer
    # starts, is read (its first word comes back), and the rest follows 1.5 s later.
    db = tmp_path / "t.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "traces", "record", "--db", str(db), *KEYS,
         "--stream"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=CLI_ENV,
        bufsize=0,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"Hello")
    proc.stdin.flush()
    assert select.select([proc.stdout], [], [], 60)[0]
    assert os.read(proc.stdout.fileno(), 100) == b"Hello"
    time.sleep(1.5)
    out, _ = proc.communicate(b" <think>r</think>world", timeout=60)
    assert (out, proc.returncode) == (b" world\n", 0)
    with TraceStore(db, retention_days=None) as store:
        (trace,) = store.query()
    assert (trace.reasoning_text, trace.duration_ms >= 1500) == ("r", True)


# --- item 27: --choice messages ---------------------------------------------------------------
def test_choice_messages_speak_of_choices() -> None:
    check_cli(run_cli("--choice", "-1", "-"), "",
              f"{E}argument --choice: must be 0 or more (the first choice is 0), not -1{HELP}", 2)
    check_cli(run_cli("--choice", "abc", "-"), "",
              f"{E}argument --choice: expected a choice index (0, 1, ...), not 'abc'{HELP}", 2)


# --- item 28: Parquet keys and --reasoning ----------------------------------------------------
def test_parquet_copies_id_and_reasoning_works(reasoning_table: Path) -> None:
    # C6: the id column is copied by default (as for JSON Lines); -r keeps the reasoning only.
    check_cli(
        run_cli("--column", "text", "-r", reasoning_table),
        '{"id": 7, "reasoning": "r [REDACTED]"}\n'
        '{"id": 8, "reasoning": "t"}\n'
        '{"id": 9, "reasoning": null}\n',
    )


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


# --- item 30: --format sse without events -----------------------------------------------------
def test_format_sse_without_events_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "plain.txt"
    src.write_text("hello\nworld\n", encoding="utf-8")
    message = f"{src}: no server-sent events (no 'data:' line holding an event)\n"
    check_cli(run_cli("--format", "sse", src), "", message, 1)
    check_cli(run_cli("--stream", "--format", "sse", src), "", message, 1)


# --- item 31: saved Ollama streams and raw harmony text ---------------------------------------
def ollama_lines() -> str:
    chunks = [({"thinking": "Let me"}, False), ({"thinking": " think."}, False),
              ({"content": "Hi"}, False), ({"content": " there"}, True)]  # fmt: skip
    lines = []
    for message, done in chunks:
        event: dict[str, Any] = {"model": "qwen3", "created_at": "2025-01-01T00:00:00Z",
                                 "message": {"role": "assistant", "content": "", **message},
                                 "done": done}  # fmt: skip
        if done:
            event["done_reason"] = "stop"
        lines.append(json.dumps(event) + "\n")
    return "".join(lines)


@pytest.mark.parametrize("name", ["chat.ndjson", "chat.jsonl", "chat.txt"])
def test_saved_ollama_stream_is_one_stream(tmp_path: Path, name: str) -> None:
    # P9, W1: a saved /api/chat stream given as FILE is read as --stream reads it: one output.
    src = tmp_path / name
    src.write_text(ollama_lines(), encoding="utf-8")
    check_cli(run_cli(src), "Hi there\n")
    check_cli(run_cli("-r", src), "Let me think.\n")
    check_cli(
        run_cli("-j", src),
        '{"visible": "Hi there", "reasoning": "Let me think.", "tokens_est": 4, '
        '"provider": "ollama", "format": "field", "reasoning_tokens": null, "redacted": false}\n',
    )
    check_cli(run_cli("--stream", stdin=ollama_lines().encode()), "Hi there\n")
    db = tmp_path / "t.db"
    proc = run_cli("traces", "record", "--db", db, *KEYS, src)
    assert proc.returncode == 0 and len(proc.stdout.split()) == 1


def test_raw_harmony_text_is_detected(tmp_path: Path) -> None:
    # P3: raw gpt-oss output given as FILE is read as --format harmony reads it.
    src = tmp_path / "h.txt"
    text = ("<|channel|>analysis<|message|>User asks. Think.<|end|><|start|>assistant"
            "<|channel|>final<|message|>The answer.<|return|>")  # fmt: skip
    src.write_text(text, encoding="utf-8")
    check_cli(run_cli(src), "The answer.\n")
    check_cli(run_cli("-r", src), "User asks. Think.\n")
    check_cli(run_cli("--format", "text", src), "The answer.\n")
    check_cli(run_cli("--html", "-o", tmp_path / "p.html", src), "")
    assert "The answer." in (tmp_path / "p.html").read_text(encoding="utf-8")
    db = tmp_path / "t.db"
    assert run_cli("traces", "record", "--db", db, *KEYS, src).returncode == 0
    with TraceStore(db, retention_days=None) as store:
        assert [t.reasoning_text for t in store.query()] == ["User asks. Think."]


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
