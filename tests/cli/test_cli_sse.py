"""The command on Server-Sent Events and JSON event lines: files and ``--stream`` (W1), and the
orphan-closer hint on a terminal."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, DATA, check_cli, run_cli

ENV = dict(CLI_ENV)
ANTHROPIC = json.loads((DATA / "anthropic/stream_thinking_text.json").read_text("utf-8"))
OLLAMA = json.loads((DATA / "ollama/stream_chat_ndjson.json").read_text("utf-8"))
DEEPSEEK = json.loads((DATA / "openai_chat/stream_deepseek_reasoning_content.json").read_text())


def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=ENV)


def sse(events: list[dict[str, Any]], named: bool = True, eol: str = "\n") -> bytes:
    """The events as an event-stream body, as ``curl -N`` prints it."""
    parts = [f": stream{eol}"]
    for e in events:
        if named and "type" in e:
            parts.append(f"event: {e['type']}{eol}")
        parts.append(f"data: {json.dumps(e)}{eol}{eol}")
    return "".join(parts).encode()


def expected(case: dict[str, Any]) -> tuple[str, str]:
    e = case["expected"]
    return e["visible"] + "\n", (e["reasoning"] or "") + "\n"


@pytest.mark.parametrize("case", [ANTHROPIC, DEEPSEEK], ids=["anthropic", "deepseek"])
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_sse_file_and_stdin(case: dict[str, Any], eol: str, tmp_path: Path) -> None:
    # W1: an SSE file is detected and read as one stream of events.
    body = sse(case["events"], eol=eol)
    visible, reasoning = expected(case)
    f = tmp_path / "s.txt"
    f.write_bytes(body)
    check_cli(run(f), visible)
    check_cli(run("-r", f), reasoning)
    check_cli(run("-", stdin=body), visible)
    check_cli(run("--format", "sse", f), visible)


@pytest.mark.parametrize("case", [ANTHROPIC, DEEPSEEK], ids=["anthropic", "deepseek"])
def test_sse_stream(case: dict[str, Any]) -> None:
    # W1: --stream reads SSE as curl -N prints it; nothing is echoed unparsed.
    body = sse(case["events"]) + b"data: [DONE]\n\n"
    visible, reasoning = expected(case)
    check_cli(run("--stream", stdin=body), visible)
    proc = run("--stream", "--reasoning-to-stderr", stdin=body)
    check_cli(proc, visible, reasoning)


def test_json_event_lines_under_stream_are_detected() -> None:
    # W1: JSON event lines (Ollama NDJSON) under --stream, without --format.
    body = "".join(json.dumps(e) + "\n" for e in OLLAMA["events"]).encode()
    visible, _ = expected(OLLAMA)
    check_cli(run("--stream", stdin=body), visible)


def test_json_answer_under_stream_stays_text() -> None:
    # W1: a JSON object no provider recognises (a model in JSON mode) is the answer itself.
    check_cli(run("--stream", stdin=b'{"a": 1}\n{"b": 2}\n'), '{"a": 1}\n{"b": 2}\n')
    check_cli(run("--stream", stdin=b"data is here\n"), "data is here\n")
    check_cli(run("--stream", stdin=b"id"), "id\n")


def test_sse_bad_data_is_an_error_not_echoed() -> None:
    # W1: data that is not JSON is an error naming the event (exit 1), never printed back.
    body = sse(DEEPSEEK["events"][:2]) + b"data: nope\n\n"
    proc = run("--stream", stdin=body)
    assert proc.returncode == 1
    assert b"nope" not in proc.stdout
    assert proc.stderr.decode().startswith("<stdin>: event 3")
    proc = run("-", stdin=body)
    assert (proc.stdout, proc.returncode) == (b"", 1)
    assert proc.stderr.decode().startswith("<stdin>: event 3")


def test_sse_invalid_utf8_offset(tmp_path: Path) -> None:
    body = sse(DEEPSEEK["events"])
    bad = body[:40] + b"\xff" + body[40:]
    f = tmp_path / "s.txt"
    f.write_bytes(bad)
    check_cli(
        run(f),
        "",
        f"{f}: invalid UTF-8 at byte offset 40 (--errors replace substitutes U+FFFD)\n",
        1,
    )


HINT = (
    "thinkparse: hint: the text's first tag is a closing </think> (the prompt opened the "
    "block); use --start-in-reasoning, --preset or --model to read what precedes it as "
    "reasoning"
)


def stderr_on_a_terminal(args: list[str], stdin: bytes) -> tuple[bytes, str]:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "thinkparse", *args],
            input=stdin,
            stdout=subprocess.PIPE,
            stderr=slave,
            env=ENV,
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
    return proc.stdout, seen.replace(b"\r\n", b"\n").decode()


@pytest.mark.skipif(sys.platform == "win32", reason="pty")
def test_orphan_closer_hint_on_a_terminal() -> None:
    # T10 in streams: a first tag that is an orphan </think> gets a one-line hint (terminal only).
    out, err = stderr_on_a_terminal(["--stream"], b"plan</think>answer")
    assert (out, err) == (b"plananswer\n", HINT + "\n")
    out, err = stderr_on_a_terminal(["--stream"], b"<think>plan</think>answer")
    assert (out, err) == (b"answer\n", "")
    out, err = stderr_on_a_terminal(["--stream", "--no-start-in-reasoning"], b"plan</think>ans")
    assert (out, err) == (b"planans\n", "")
    # Not a terminal: no hint.
    check_cli(run("--stream", stdin=b"plan</think>answer"), "plananswer\n")


def test_text_starting_like_a_field_line_is_text(tmp_path: Path) -> None:
    # W1: SSE only when the first data line holds JSON; an answer starting "data:" is text.
    body = b"data: the results show\nmore text\n"
    check_cli(run("--stream", stdin=body), body.decode())
    f = tmp_path / "d.txt"
    f.write_bytes(body)
    check_cli(run(f), body.decode())
    # Comments and event names before the first data line are read past.
    events = b': hi\nevent: x\nid: 1\ndata: {"choices":[{"delta":{"content":"ok"}}]}\n\n'
    check_cli(run("--stream", stdin=events), "ok\n")
    f.write_bytes(events)
    check_cli(run(f), "ok\n")


def test_error_events_are_errors(tmp_path: Path) -> None:
    # W1: a provider's error event ends the stream with exit 1, never a silent success.
    start = ANTHROPIC["events"][:4]
    body = sse(start) + (
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
        b'"message": "Overloaded"}}\n\n'
    )
    proc = run("--stream", "-r", stdin=body)
    assert (proc.stdout, proc.returncode) == (b"I need to find\n", 1)
    assert proc.stderr == (
        b"<stdin>: event 5: the provider reported an error (error): overloaded_error: Overloaded\n"
    )
    f = tmp_path / "s.txt"
    f.write_bytes(body)
    check_cli(
        run(f),
        "",
        f"{f}: event 5: the provider reported an error (error): overloaded_error: Overloaded\n",
        1,
    )
    lines = b'{"model": "m", "message": {"role": "assistant", "content": "a"}, "done": false}\n'
    proc = run("--stream", stdin=lines + b'{"error": "model not found"}\n')
    assert (proc.returncode, proc.stderr) == (
        1,
        b"<stdin>:2: the provider reported an error (error): model not found\n",
    )


def test_provider_error_prints_what_arrived(tmp_path: Path) -> None:
    # P16: a saved stream that ends with a provider error prints what arrived before it
    # (marked incomplete in JSON), says the error in one line on stderr and exits 1.
    start = ANTHROPIC["events"][:4]
    body = sse(start) + (
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
        b'"message": "Overloaded"}}\n\n'
    )
    f = tmp_path / "s.txt"
    f.write_bytes(body)
    proc = run(f, "-r")
    assert (proc.stdout, proc.returncode) == (b"I need to find\n", 1)
    proc = run(f, "--json")
    assert proc.returncode == 1
    obj = json.loads(proc.stdout)
    assert (obj["reasoning"], obj["visible"], obj["incomplete"]) == ("I need to find", "", True)
    assert proc.stderr.decode().count("\n") == 1
    assert "overloaded_error: Overloaded" in proc.stderr.decode()
    failed = [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress",
                                                  "output": []}},
        {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
         "item_id": "m", "delta": "Partial answer"},
        {"type": "response.failed", "response": {"id": "r", "status": "failed", "output": [],
                                                 "error": {"code": "server_error",
                                                           "message": "The model failed."}}},
    ]
    g = tmp_path / "failed.json"
    g.write_text(json.dumps(failed))
    check_cli(run(g), "Partial answer\n",
              f"{g}: event [2]: the provider reported an error (response.failed): "
              "server_error: The model failed.\n", 1)
