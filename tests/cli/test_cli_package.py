"""The ``thinkparse`` command as a package: subcommand dispatch, short flags, new input kinds,
JSON Lines keys, ``--html`` and ``--output``, and the exit-status rules when a standard stream
is closed (docs/behaviour.md#cli)."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, check_cli, run_cli

import thinkparse
from thinkparse.cli import main

ENV = dict(CLI_ENV)


def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=ENV)


def shell(command: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``command`` in sh, with ``TP`` the program (``python -m thinkparse``)."""
    env = dict(ENV, TP=f"{sys.executable} -m thinkparse")
    return subprocess.run(
        ["sh", "-c", command], input=stdin, capture_output=True, env=env, timeout=60
    )


# ---- subcommands ------------------------------------------------------------------------------
@pytest.mark.parametrize("word", ["traces", "convert"])
def test_subcommand_dispatch(
    word: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Decision: "thinkparse WORD ARGS" runs thinkparse.cli.commands.WORD.main(ARGS) and returns
    # its status.
    seen: list[list[str]] = []
    fake = types.ModuleType(f"thinkparse.cli.commands.{word}")

    def fake_main(argv: list[str]) -> int:
        seen.append(argv)
        print("ran")
        return 3

    fake.main = fake_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, f"thinkparse.cli.commands.{word}", fake)
    assert main([word, "--x", "a b"]) == 3
    assert seen == [["--x", "a b"]]
    assert capsys.readouterr().out == "ran\n"


@pytest.mark.parametrize("word", ["traces", "convert"])
def test_subcommand_errors_follow_the_exit_rules(
    word: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # behaviour.md#cli: a subcommand's Ctrl-C is 130 quietly; a bug is one line and 70.
    fake = types.ModuleType(f"thinkparse.cli.commands.{word}")
    monkeypatch.setitem(sys.modules, f"thinkparse.cli.commands.{word}", fake)

    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt

    fake.main = interrupted  # type: ignore[attr-defined]
    assert main([word]) == 130
    assert capsys.readouterr().err == ""

    def buggy(argv: list[str]) -> int:
        raise RuntimeError("boom")

    fake.main = buggy  # type: ignore[attr-defined]
    assert main([word]) == 70
    assert capsys.readouterr().err == (
        "thinkparse: internal error: RuntimeError: boom "
        "(a bug in thinkparse; THINKPARSE_TRACEBACK=1 shows where)\n"
    )


@pytest.mark.parametrize("word", ["traces", "convert"])
def test_missing_subcommand_is_one_line_exit_2(
    word: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Decision: a subcommand that is not installed: one line, exit 2.
    monkeypatch.setitem(sys.modules, f"thinkparse.cli.commands.{word}", None)
    assert main([word, "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"thinkparse: error: the '{word}' subcommand (")
    assert err.endswith(f"(for a file named {word}, write ./{word})\n")


def test_file_named_like_a_subcommand(tmp_path: Path) -> None:
    (tmp_path / "traces").write_text("<think>r</think>v", encoding="utf-8")
    check_cli(run("./traces", cwd=tmp_path), "v\n")


# ---- closed standard streams ------------------------------------------------------------------
def test_usage_error_with_stdout_closed() -> None:
    # behaviour.md#cli: a usage error is one line and exit 2, even with stdout closed.
    proc = shell("$TP --bogus >&-")
    assert (proc.stdout, proc.returncode) == (b"", 2)
    assert proc.stderr == (
        b"thinkparse: error: unrecognized arguments: --bogus (see 'thinkparse --help')\n"
    )


def test_reasoning_to_closed_stderr_is_an_error() -> None:
    # behaviour.md#cli: a write that fails is an error, never silent success.
    proc = shell("$TP --reasoning-to-stderr - 2>&-", stdin=b"<think>plan</think>answer")
    assert (proc.stdout, proc.returncode) == (b"", 1)
    proc = shell("$TP --stream --reasoning-to-stderr 2>&-", stdin=b"<think>plan</think>answer")
    assert proc.returncode == 1
    # Nothing to write to stderr: no error.
    proc = shell("$TP --reasoning-to-stderr - 2>&-", stdin=b"answer")
    assert (proc.stdout, proc.returncode) == (b"answer\n", 0)


def test_reasoning_to_a_closed_stderr_pipe_is_the_pipe_status() -> None:
    # behaviour.md#cli: a closed pipe ends quietly with 141.
    proc = subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "--reasoning-to-stderr", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stderr is not None and proc.stdin is not None
    proc.stderr.close()
    proc.communicate(b"<think>plan</think>answer", timeout=60)
    assert proc.returncode == 141


# ---- short flags, harmony, presets ------------------------------------------------------------
def test_short_flags(tmp_path: Path) -> None:
    # Short flags: -r reasoning, -j json, -p preset, -V version.
    f = tmp_path / "a.txt"
    f.write_text("plan</think>answer", encoding="utf-8")
    check_cli(run("-r", f), "plan\n")
    check_cli(run("-p", "deepseek-r1", "-r", f), "plan\n")
    check_cli(run("-j", f), '{"visible": "answer", "reasoning": "plan", "tokens_est": 1}\n')
    proc = run("-V")
    assert proc.stdout.decode().startswith(f"thinkparse {thinkparse.__version__} (scanner: ")


def test_format_harmony(tmp_path: Path) -> None:
    # P3: raw gpt-oss output with --format harmony.
    f = tmp_path / "h.txt"
    f.write_text(
        "<|channel|>analysis<|message|>Think.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Hi!<|return|>",
        encoding="utf-8",
    )
    check_cli(run("--format", "harmony", f), "Hi!\n")
    check_cli(run("--format", "harmony", "-r", f), "Think.\n")
    proc = run("--format", "harmony", "--tags", "x", f)
    assert proc.returncode == 2 and b"do not apply to --format harmony" in proc.stderr


def test_public_preset_names() -> None:
    assert "deepseek-r1" in thinkparse.PRESET_NAMES
    assert all(isinstance(n, str) for n in thinkparse.PRESET_NAMES)


# ---- JSON Lines keys and --reasoning ----------------------------------------------------------
def chat(content: str, reasoning: str | None = None, **top: Any) -> str:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    return json.dumps({**top, "choices": [{"index": 0, "message": message}]}) + "\n"


def test_jsonl_key_option(tmp_path: Path) -> None:
    # C6: --key FIELD carries that field (null when missing) instead of "id".
    f = tmp_path / "k.jsonl"
    f.write_text(chat("a", custom_id="q1", id="x") + chat("b") + "oops\n", encoding="utf-8")
    proc = run("--key", "custom_id", "-r", f)
    assert proc.stdout.decode() == (
        '{"custom_id": "q1", "reasoning": null}\n'
        '{"custom_id": null, "reasoning": null}\n'
        '{"error": "invalid JSON at column 1: Expecting value"}\n'
    )
    assert proc.returncode == 1


def test_jsonl_reasoning_keeps_only_reasoning(tmp_path: Path) -> None:
    # --reasoning applies to JSON Lines: each record keeps its key and its reasoning.
    f = tmp_path / "r.jsonl"
    f.write_text(chat("a", "r1", id=1) + chat("b", id=2), encoding="utf-8")
    check_cli(run("-r", f), '{"id": 1, "reasoning": "r1"}\n{"id": 2, "reasoning": null}\n')


def test_key_with_other_formats_is_a_usage_error() -> None:
    proc = run("--key", "id", "--format", "text", "-")
    assert proc.returncode == 2 and b"--key applies to JSON Lines input" in proc.stderr


# ---- --html and --output ----------------------------------------------------------------------
def test_html_page_through_page_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # H2: --html hands (msg_id, result) pairs to cli.commands.html.PageStream as they come.
    calls: list[tuple[list[tuple[str, Any]], str, int]] = []
    fake = types.ModuleType("thinkparse.cli.commands.html")

    class PageStream:
        def __init__(self, out: Any, *, title: str, limit: int) -> None:
            self.out, self.pairs = out, []
            calls.append((self.pairs, title, limit))

        def append(self, pair: Any) -> None:
            self.pairs.append(pair)

        def close(self) -> None:
            self.out.write(b"<html>%d</html>\n" % len(self.pairs))

    fake.PageStream = PageStream  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "thinkparse.cli.commands.html", fake)
    a = tmp_path / "a.txt"
    a.write_text("<think>r</think>v", encoding="utf-8")
    b = tmp_path / "b.jsonl"
    b.write_text(chat("x", "y", id="q") + chat("z"), encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["--html", "-o", str(out), str(a), str(b)]) == 0
    assert out.read_bytes() == b"<html>3</html>\n"
    ((pairs, title, limit),) = calls
    assert (title, limit) == ("thinkparse", 1000)
    assert [name for name, _ in pairs] == [str(a), "q", f"{b}:2"]
    assert pairs[0][1] == thinkparse.Split("v", "r")
    assert (pairs[1][1].visible, pairs[1][1].reasoning) == ("x", "y")


def test_output_file(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("<think>r</think>v", encoding="utf-8")
    check_cli(run("-o", tmp_path / "o.txt", f), "")
    assert (tmp_path / "o.txt").read_text(encoding="utf-8") == "v\n"
    proc = run("-o", tmp_path / "missing" / "o.txt", f)
    assert proc.returncode == 2 and proc.stderr.startswith(
        b"thinkparse: error: cannot open the output file "
    )


def test_html_with_json_is_a_usage_error() -> None:
    proc = run("--html", "-j", "-")
    assert proc.returncode == 2 and b"--html writes one page" in proc.stderr


def test_no_private_imports_of_the_library() -> None:
    # The CLI uses the library's public API only (tests/test_layout.py checks every import).
    root = Path(thinkparse.__file__).parent / "cli"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        face = "." * (len(path.relative_to(root).parts) + 1)  # thinkparse, relative to path
        for bad in (f"from {face}_", "from thinkparse._", "import thinkparse._"):
            assert bad not in text, (path.name, bad)


# ---- --model and options for provider responses ---------------------------------------------
NO_PRESET_NOTE = ("thinkparse: note: --model '{}' selects no preset (no inline reasoning format "
                  "is known for that name); the default options apply\n")


def test_model_picks_the_preset(tmp_path: Path) -> None:
    # P13: --model NAME uses preset_for_model(NAME) for text and --stream, unless --preset.
    assert thinkparse.preset_for_model("DeepSeek-R1-Distill-Qwen-7B") == "deepseek-r1"
    check_cli(
        run("--stream", "-m", "DeepSeek-R1-Distill-Qwen-7B", stdin=b"plan</think>ans"), "ans\n"
    )
    check_cli(run("--stream", "-m", "DeepSeek-R1", "-r", stdin=b"plan</think>ans"), "plan\n")
    check_cli(run("--stream", "--model", "gpt-4o", stdin=b"plan</think>ans"), "planans\n",
              NO_PRESET_NOTE.format("gpt-4o"))  # F8: a name that selects nothing says so
    check_cli(run("--stream", "-m", "deepseek-r1", "-p", "qwen3", stdin=b"p</think>a"), "pa\n")
    f = tmp_path / "t.txt"
    f.write_text("Just 4.", encoding="utf-8")
    check_cli(run("-m", "deepseek-r1", "-r", f), "Just 4.\n")  # the preset's start mode
    check_cli(run(f), "Just 4.\n")


def test_scanner_options_for_provider_responses(tmp_path: Path) -> None:
    # W4: --preset/--tags apply to responses and records; never silently ignored.
    f = tmp_path / "r.json"
    f.write_text(chat("[THINK]p[/THINK]a"), encoding="utf-8")
    g = tmp_path / "r.jsonl"
    g.write_text(chat("[THINK]p[/THINK]a", id=1) * 2, encoding="utf-8")
    proc = run("-p", "magistral", f)
    jproc = run("-p", "magistral", "-r", g)
    from thinkparse.cli._options import NORMALIZE_TAKES_OPTIONS

    if NORMALIZE_TAKES_OPTIONS:
        check_cli(proc, "a\n")
        check_cli(jproc, '{"id": 1, "reasoning": "p"}\n' * 2)
    else:
        message = (
            "scanner options (--tags, --delimiters, --start-in-reasoning, --preset, --model, "
            "--no-code-aware, --max-tentative) do not apply to provider responses in this version\n"
        )
        check_cli(proc, "", f"{f}: {message}", 2)
        check_cli(jproc, "", f"{g}: {message}", 2)
    check_cli(run(f), "[THINK]p[/THINK]a\n")


# ---- --choice and --all-choices ---------------------------------------------------------------
TWO = {
    "id": "c",
    "choices": [
        {"index": 0, "message": {"content": "a0", "reasoning_content": "r0"}},
        {"index": 1, "message": {"content": "<think>r1</think>a1"}},
    ],
}


def test_choice_and_all_choices(tmp_path: Path) -> None:
    # W4: --choice N selects a choice; --all-choices gives one output per choice.
    f = tmp_path / "r.json"
    f.write_text(json.dumps(TWO), encoding="utf-8")
    check_cli(run(f), "a0\n")
    check_cli(run("--choice", "1", f), "a1\n")
    check_cli(run("--choice", "1", "-r", f), "r1\n")
    check_cli(
        run("--all-choices", f), f"==> {f} [choice 0] <==\na0\n\n==> {f} [choice 1] <==\na1\n"
    )
    proc = run("--all-choices", "-j", f)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["choice"], r["visible"], r["reasoning"]) for r in rows] == [
        (0, "a0", "r0"),
        (1, "a1", "r1"),
    ]
    proc = run("--choice", "2", f)
    assert (proc.stdout, proc.returncode) == (b"", 1)
    assert proc.stderr.decode().startswith(f"{f}: choices[2]")


def test_all_choices_jsonl(tmp_path: Path) -> None:
    # One line per choice, each with the record's key and the choice index.
    g = tmp_path / "r.jsonl"
    g.write_text(json.dumps(TWO) + "\n" + chat("x", id="d"), encoding="utf-8")
    check_cli(
        run("--all-choices", "-r", g),
        '{"id": "c", "choice": 0, "reasoning": "r0"}\n'
        '{"id": "c", "choice": 1, "reasoning": "r1"}\n'
        '{"id": "d", "choice": 0, "reasoning": null}\n',
    )
    proc = run("--choice", "1", "-r", g)
    assert proc.stdout.decode().splitlines()[0] == '{"id": "c", "reasoning": "r1"}'
    assert proc.returncode == 1  # the second record has one choice: an error record


def test_choice_in_streams() -> None:
    events = [
        {
            "choices": [
                {"index": 0, "delta": {"content": "a"}},
                {"index": 1, "delta": {"content": "b"}},
            ]
        },
    ]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode()
    check_cli(run("--stream", "--choice", "1", stdin=body), "b\n")
    check_cli(run("--stream", stdin=body), "a\n")


def test_choice_where_meaningless(tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("plain text", encoding="utf-8")
    check_cli(
        run("--choice", "1", f),
        "",
        f"{f}: --choice and --all-choices apply to provider responses and streams, not to text\n",
        2,
    )
    assert run("--choice", "1", "--all-choices", f).returncode == 2
    assert run("--all-choices", "--stream").returncode == 2
    assert run("--choice", "1", "--format", "think", f).returncode == 2
    check_cli(
        run("--stream", "--choice", "1", stdin=b"text"),
        "",
        "<stdin>: --choice and --all-choices apply to provider responses and streams, "
        "not to text\n",
        2,
    )


def test_stream_invalid_utf8_in_one_read_keeps_the_text_before() -> None:
    # CLI rules: everything valid before the bad byte is written (the scanner's held text too),
    # then the error with its offset; --errors replace loses nothing.
    data = b"<think>plan</think>Hello <thi\xffrest"
    check_cli(
        run("--stream", stdin=data),
        "Hello <thi\n",
        "<stdin>: invalid UTF-8 at byte offset 29 (--errors replace substitutes U+FFFD)\n",
        1,
    )
    check_cli(run("--stream", "--errors", "replace", stdin=data), "Hello <thi\ufffdrest\n")


def test_zoo_options(tmp_path: Path) -> None:
    # F1: parser names; F2: --terminator; F3: --answer; F4: --prompt-file; F7: --unclosed
    f = tmp_path / "t.txt"
    f.write_text("plan\n<tool_call>{}</tool_call>", encoding="utf-8")
    check_cli(run("-p", "qwen3-thinking", f), "<tool_call>{}</tool_call>\n")
    check_cli(run("-p", "qwen3_engine", "-r", f), "plan\n")
    check_cli(run("--start-in-reasoning", "--terminator", "<tool_call>", f),
              "<tool_call>{}</tool_call>\n")
    g = tmp_path / "a.txt"
    g.write_text("<think>x</think>\n<answer>\n 4 \n</answer>", encoding="utf-8")
    check_cli(run("--answer", "<answer>", "</answer>", g), "4\n")
    check_cli(run("--answer", "<answer>", "</answer>", "--stream", stdin=g.read_bytes()), "4\n")
    prompt = tmp_path / "p.txt"
    prompt.write_text("<|im_start|>assistant\n<think>\n", encoding="utf-8")
    closed = tmp_path / "q.txt"
    closed.write_text("<|im_start|>assistant\n<think>\n\n</think>\n\n", encoding="utf-8")
    h = tmp_path / "h.txt"
    h.write_text("Just 4.", encoding="utf-8")
    check_cli(run("--prompt-file", prompt, "-r", h), "Just 4.\n")
    check_cli(run("--prompt-file", closed, "-r", h), "")
    check_cli(run("-p", "qwen3-thinking", "--prompt-file", closed, h), "Just 4.\n")
    check_cli(run("--prompt-file", prompt, "--stream", stdin=b"p</th" + b"ink>a"), "a\n")
    check_cli(run("-p", "deepseek-r1", "--unclosed", "answer", h), "Just 4.\n")
    check_cli(run("-p", "deepseek-r1", "--unclosed", "auto", h), "")  # text: no finish reason
    # provider responses: the model's preset opens the block (P18); "auto" reads the finish reason
    r = tmp_path / "r.json"
    r.write_text(json.dumps({"model": "deepseek-r1", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": "Just 4."}, "finish_reason": "stop"}]}), encoding="utf-8")
    check_cli(run("-r", r), "Just 4.\n")
    check_cli(run("--unclosed", "auto", r), "Just 4.\n")
    check_cli(run("--unclosed", "answer", "-r", r), "")
    t = tmp_path / "t.json"
    t.write_text(json.dumps({"choices": [{"index": 0, "message": {
        "role": "assistant", "content": "plan<tool_call>{}"}}]}), encoding="utf-8")
    check_cli(run("-p", "qwen3-thinking", t), "<tool_call>{}\n")
    check_cli(run("--answer", "<final>", "</final>", tmp_path / "t.json"), "plan<tool_call>{}\n")


def test_zoo_option_errors(tmp_path: Path) -> None:
    # F4, F7, F1, A3: one line, exit 2
    h = tmp_path / "h.txt"
    h.write_text("x", encoding="utf-8")
    proc = run("--prompt-file", h, "--start-in-reasoning", h)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("thinkparse: error: --prompt-file and --[no-]start")
    proc = run("--prompt-file", tmp_path / "missing.txt", h)
    assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1
    proc = run("--unclosed", "answer", "--stream", stdin=b"x")
    assert proc.returncode == 2 and b"--unclosed does not apply to --stream" in proc.stderr
    proc = run("-p", "no_such_parser", h)
    assert proc.returncode == 2
    assert b"unknown preset 'no_such_parser'" in proc.stderr and proc.stderr.count(b"\n") == 1
    proc = run("--terminator", "", h)
    assert proc.returncode == 2 and b"terminators[0]" in proc.stderr


def test_explain(tmp_path: Path) -> None:
    # F8: which preset and start mode, and why; with --json, in each object
    h = tmp_path / "h.txt"
    h.write_text("plan</think>ans", encoding="utf-8")
    check_cli(run("--explain", "-m", "Qwen/Qwen3.5-27B", h), "ans\n",
              "thinkparse: preset qwen3-thinking (from the model name 'Qwen/Qwen3.5-27B'); "
              "start: inside a reasoning block (the preset's template opens the block)\n")
    check_cli(run("--explain", "-p", "glm47", "-j", h),
              '{"visible": "ans", "reasoning": "plan", "tokens_est": 1, "preset": "glm-4.7", '
              '"preset_source": "alias", "start": true}\n',
              "thinkparse: preset glm-4.7 (from the parser name 'glm47'); start: inside a "
              "reasoning block (the preset's template opens the block)\n")
    check_cli(run("--explain", "-p", "qwen3", h), "ans\n",
              "thinkparse: preset qwen3 (given); start: detected per text (a leading "
              "'reasoning</think>' is a block, T10) (the default for whole texts)\n")
