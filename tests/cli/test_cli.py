"""The ``thinkparse`` command on text input: modes, options, detection, errors (CLI rules).

Every test runs the real program, ``python -m thinkparse``, in a subprocess with the same
``sys.path`` as this process, so it checks the source tree or an installed package alike.
"""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, EXAMPLES, check_cli, run_cli

import thinkparse

ENV = dict(CLI_ENV)
ENV["PYTHONIOENCODING"] = "ascii"  # the program must write UTF-8 whatever the locale says



def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=ENV)


check = check_cli


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


USAGE_HINT = " (see 'thinkparse --help')\n"


# ---- text input -----------------------------------------------------------------------------
def test_think_file_prints_visible_text() -> None:
    # CLI rules "Output": the visible text of <think> input (split_think, T8), plus a newline.
    check(run(EXAMPLES / "think.txt"), "The capital of Australia is Canberra.\n")


def test_think_file_reasoning() -> None:
    # behaviour.md#cli "--reasoning"; T8 (each block stripped).
    check(
        run("--reasoning", EXAMPLES / "think.txt"),
        "The user asks for the capital of Australia.\n"
        "Sydney is the largest city, but the capital is Canberra.\n",
    )


def test_reasoning_block_file_goes_to_parse() -> None:
    # behaviour.md#cli: text containing <REASONING> goes to parse (R4, R5).
    check(run(EXAMPLES / "reasoning-block.txt"), "Final balance increased by 12 SOL.\n")
    check(
        run("--json", EXAMPLES / "reasoning-block.txt"),
        '{"visible": "Final balance increased by 12 SOL.", "reasoning": '
        '"Step 1: Fetch account balance...\\nStep 2: Compare deltas...", "tokens_est": 15}\n',
    )


def test_json_output_for_think_text() -> None:
    # behaviour.md#cli "--json": flat snake_case object; tokens_est = ceil(100 / 4).
    check(
        run("--json", EXAMPLES / "think.txt"),
        '{"visible": "The capital of Australia is Canberra.\\n", "reasoning": "The user asks for '
        'the capital of Australia.\\nSydney is the largest city, but the capital is Canberra.",'
        ' "tokens_est": 25}\n',
    )


def test_json_output_without_reasoning_has_null(tmp_path: Path) -> None:
    # behaviour.md#cli "--json": reasoning is null when there is none; T9.
    f = write(tmp_path / "a.txt", "just text\n")
    check(
        run("--json", f),
        '{"visible": "just text\\n", "reasoning": null, "tokens_est": 0}\n',
    )


def test_text_without_tags_comes_back_identical(tmp_path: Path) -> None:
    # T8: a text with no tags comes back identical (it already ends with a newline).
    body = "line one\r\n  indented\t\n\nlast line\n"
    check(run(write(tmp_path / "a.txt", body)), body)


def test_missing_final_newline_is_added_once(tmp_path: Path) -> None:
    # Decision (cli docstring): text output ends with exactly one added newline when missing.
    check(run(write(tmp_path / "a.txt", "<think>x</think>Answer.")), "Answer.\n")


def test_empty_visible_and_missing_reasoning_print_nothing(tmp_path: Path) -> None:
    # T9: reasoning None -> --reasoning prints nothing; "<think>cut off" has empty visible.
    check(run("--reasoning", write(tmp_path / "a.txt", "plain\n")), "")
    check(run(write(tmp_path / "b.txt", "<think>cut off")), "")


def test_non_ascii_output_is_utf8(tmp_path: Path) -> None:
    # Output is UTF-8 whatever the locale (PYTHONIOENCODING=ascii in ENV); JSON keeps characters.
    f = write(tmp_path / "a.txt", "<think>ça</think>Résumé ✓")
    check(run(f), "Résumé ✓\n")
    check(run("--json", f), '{"visible": "Résumé ✓", "reasoning": "ça", "tokens_est": 1}\n')


def test_auto_start_in_reasoning_for_whole_text(tmp_path: Path) -> None:
    # behaviour.md#cli / T10: other text goes to split_think with start_in_reasoning="auto".
    f = write(tmp_path / "a.txt", "plan</think>\n\nAnswer")
    check(run(f), "Answer\n")
    check(run("--reasoning", f), "plan\n")


def test_start_in_reasoning_flags(tmp_path: Path) -> None:
    # T6 (--start-in-reasoning) and the plain default mode (--no-start-in-reasoning, T4).
    f = write(tmp_path / "a.txt", "plan</think>\n\nAnswer")
    check(run("--start-in-reasoning", f), "Answer\n")
    check(run("--no-start-in-reasoning", f), "plan\n\nAnswer\n")
    check(run("--no-start-in-reasoning", "--reasoning", f), "")


def test_preset_start_mode_is_kept(tmp_path: Path) -> None:
    # presets: deepseek-r1 sets start_in_reasoning; the CLI does not override it with "auto".
    f = write(tmp_path / "a.txt", "<think>\nplan\n</think>\nAnswer")
    check(run("--preset", "deepseek-r1", f), "Answer\n")
    check(run("--preset", "deepseek-r1", "--reasoning", f), "plan\n")
    g = write(tmp_path / "b.txt", "plan</think>Answer")
    check(run("--preset", "qwen3", g), "Answer\n")  # qwen3 sets no start mode: "auto"


def test_tags_option_comma_list_and_repeatable(tmp_path: Path) -> None:
    # behaviour.md#cli "--tags a,b (comma list, repeatable)"; T1 names; T9 joining.
    f = write(tmp_path / "a.txt", "<reasoning>x</reasoning><thought>y</thought>Done")
    for args in (["--tags", "thought,reasoning"], ["--tags", "thought", "--tags", "reasoning"]):
        check(run(*args, f), "Done\n")
        check(run(*args, "--reasoning", f), "x\n\ny\n")
    check(run(f), "<reasoning>x</reasoning><thought>y</thought>Done\n")


def test_delimiters_option(tmp_path: Path) -> None:
    # CLI rules "--delimiters OPEN CLOSE (repeatable)"; T1 literal delimiters. A text starting
    # with "[T" is text, not JSON.
    f = write(tmp_path / "a.txt", "[THINK]plan[/THINK]Answer ◁think▷no◁/think▷")
    check(run("--delimiters", "[THINK]", "[/THINK]", f), "Answer ◁think▷no◁/think▷\n")
    check(
        run("--delimiters", "[THINK]", "[/THINK]", "--delimiters", "◁think▷", "◁/think▷", f),
        "Answer \n",
    )
    check(run("--preset", "magistral", "--reasoning", f), "plan\n")


def test_no_code_aware(tmp_path: Path) -> None:
    # T5: code awareness on by default; --no-code-aware reads tags inside code (tentative, T2).
    f = write(tmp_path / "a.txt", "Use `<think>x</think>` here")
    check(run(f), "Use `<think>x</think>` here\n")
    check(run("--no-code-aware", f), "Use `` here\n")


def test_max_tentative(tmp_path: Path) -> None:
    # T2: past max_tentative the tentative block is restored; its closer is then an orphan (T4).
    f = write(tmp_path / "a.txt", "Hi <think>" + "x" * 20 + "</think> there")
    check(run(f), "Hi  there\n")
    check(run("--max-tentative", "none", f), "Hi  there\n")
    restored = "Hi <think>" + "x" * 20 + " there\n"
    check(run("--max-tentative", "5", "--no-start-in-reasoning", f), restored)
    # T10: with "auto" (the default for whole texts) that orphan closer makes everything
    # before it reasoning, and the rest starts as after a consumed tag (T8).
    check(run("--max-tentative", "5", f), "there\n")


def test_scanner_options_send_reasoning_block_text_to_split_think() -> None:
    # Decision: with scanner options, detected text goes to split_think even with <REASONING>;
    # this text has no <think> tags, so it comes back identical (T8).
    body = (EXAMPLES / "reasoning-block.txt").read_text(encoding="utf-8")
    check(run("--tags", "think", EXAMPLES / "reasoning-block.txt"), body)


def test_format_forces_the_kind(tmp_path: Path) -> None:
    # behaviour.md#cli "--format ... forces it".
    f = write(tmp_path / "a.txt", "<think>t</think>A <REASONING>r</REASONING> B")
    check(run(f), "<think>t</think>A  B\n")  # detected: <REASONING> -> parse (R5)
    check(run("--format", "think", f), "A <REASONING>r</REASONING> B\n")
    check(run("--format", "reasoning-block", f), "<think>t</think>A  B\n")
    check(run("--format", "text", f), "<think>t</think>A  B\n")
    g = write(tmp_path / "b.json", '{"a": 1}')
    check(run("--format", "text", g), '{"a": 1}\n')


def test_json_scalars_and_bracket_text_are_text(tmp_path: Path) -> None:
    # Decision: only objects and arrays of events are JSON input; other values are text.
    check(run(write(tmp_path / "a.txt", "42\n")), "42\n")
    check(run(write(tmp_path / "b.txt", '"hello"')), '"hello"\n')
    check(run(write(tmp_path / "c.txt", "[1, 2]\n")), "[1, 2]\n")


def test_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    # Decision: a leading UTF-8 BOM is not text (it would make the opener tentative, T2).
    check(run(write(tmp_path / "a.txt", b"\xef\xbb\xbf<think>a</think>b")), "b\n")


def test_standard_input(tmp_path: Path) -> None:
    # behaviour.md#cli "thinkparse -"; no FILE reads standard input when it is not a terminal.
    data = b"<think>a</think>\nb\n"
    check(run("-", stdin=data), "b\n")
    check(run(stdin=data), "b\n")
    check(run("--json", stdin=data), '{"visible": "b\\n", "reasoning": "a", "tokens_est": 1}\n')


def test_several_files_get_headers(tmp_path: Path) -> None:
    # behaviour.md#cli: "==> NAME <==" per file, as head does (blank line between files).
    write(tmp_path / "a.txt", "<think>r1</think>one")
    write(tmp_path / "b.txt", "two\n")
    check(
        run("a.txt", "b.txt", "-", stdin=b"three", cwd=tmp_path),
        "==> a.txt <==\none\n\n==> b.txt <==\ntwo\n\n==> <stdin> <==\nthree\n",
    )
    check(
        run("--reasoning", "a.txt", "b.txt", cwd=tmp_path),
        "==> a.txt <==\nr1\n\n==> b.txt <==\n",
    )


def test_several_files_json_get_file_key(tmp_path: Path) -> None:
    # behaviour.md#cli: --json adds a "file" key with several files.
    write(tmp_path / "a.txt", "<think>r1</think>one")
    write(tmp_path / "b.txt", "two")
    check(
        run("--json", "a.txt", "b.txt", cwd=tmp_path),
        '{"file": "a.txt", "visible": "one", "reasoning": "r1", "tokens_est": 1}\n'
        '{"file": "b.txt", "visible": "two", "reasoning": null, "tokens_est": 0}\n',
    )


def test_reasoning_to_stderr_in_file_mode(tmp_path: Path) -> None:
    # behaviour.md#cli "--reasoning-to-stderr (any mode)"; not dimmed when stderr is not a terminal.
    f = write(tmp_path / "a.txt", "<think>plan</think>Answer.")
    check(run("--reasoning-to-stderr", f), "Answer.\n", "plan\n")
    check(
        run("--json", "--reasoning-to-stderr", f),
        '{"visible": "Answer.", "reasoning": "plan", "tokens_est": 1}\n',
        "plan\n",
    )


# ---- errors and exit status -----------------------------------------------------------------
def test_missing_file_exit_2_and_others_still_processed(tmp_path: Path) -> None:
    # behaviour.md#cli: 2 for files that cannot be opened; processing continues after a bad file.
    write(tmp_path / "b.txt", "two")
    check(
        run("missing.txt", "b.txt", cwd=tmp_path),
        "==> b.txt <==\ntwo\n",
        f"missing.txt: cannot open: {os.strerror(errno.ENOENT)}\n",
        2,
    )


def test_directory_exit_2(tmp_path: Path) -> None:
    # behaviour.md#cli: a directory cannot be opened -> 2.
    (tmp_path / "d").mkdir()
    check(run("d", cwd=tmp_path), "", f"d: cannot open: {os.strerror(errno.EISDIR)}\n", 2)


def test_path_through_a_file_exit_2(tmp_path: Path) -> None:
    # behaviour.md#cli: unopenable path (ENOTDIR), which fails even for root.
    write(tmp_path / "f.txt", "x")
    check(
        run("f.txt/x", cwd=tmp_path),
        "",
        f"f.txt/x: cannot open: {os.strerror(errno.ENOTDIR)}\n",
        2,
    )


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file"
)
def test_permission_denied_exit_2(tmp_path: Path) -> None:
    # behaviour.md#cli: permission -> 2.
    f = write(tmp_path / "secret.txt", "x")
    f.chmod(0)
    try:
        check(
            run("secret.txt", cwd=tmp_path),
            "",
            f"secret.txt: cannot open: {os.strerror(errno.EACCES)}\n",
            2,
        )
    finally:
        f.chmod(0o600)


def test_invalid_utf8_reports_byte_offset(tmp_path: Path) -> None:
    # behaviour.md#cli: invalid UTF-8 -> 1 with the byte offset; --errors replace continues.
    write(tmp_path / "bad.txt", b"<think>a</think>ab\xffcd\n")
    check(
        run("bad.txt", cwd=tmp_path),
        "",
        "bad.txt: invalid UTF-8 at byte offset 18 (--errors replace substitutes U+FFFD)\n",
        1,
    )
    check(run("--errors", "replace", "bad.txt", cwd=tmp_path), "ab\ufffdcd\n")


def test_invalid_utf8_offset_counts_the_bom(tmp_path: Path) -> None:
    # The offset is in the file's bytes, BOM included.
    write(tmp_path / "bad.txt", b"\xef\xbb\xbfab\xc3(")
    check(
        run("bad.txt", cwd=tmp_path),
        "",
        "bad.txt: invalid UTF-8 at byte offset 5 (--errors replace substitutes U+FFFD)\n",
        1,
    )


def test_worst_status_wins(tmp_path: Path) -> None:
    # behaviour.md#cli: 1 for bad data, 2 for unopenable files; with both, 2.
    write(tmp_path / "bad.txt", b"\xff")
    write(tmp_path / "ok.txt", "ok")
    check(
        run("bad.txt", "missing.txt", "ok.txt", cwd=tmp_path),
        "==> ok.txt <==\nok\n",
        "bad.txt: invalid UTF-8 at byte offset 0 (--errors replace substitutes U+FFFD)\n"
        f"missing.txt: cannot open: {os.strerror(errno.ENOENT)}\n",
        2,
    )


def test_invalid_json_reports_line_and_column(tmp_path: Path) -> None:
    # behaviour.md#cli: invalid JSON -> 1, with line and column.
    write(tmp_path / "r.json", '{\n  "choices": [\n    {"message": }\n  ]\n}\n')
    check(
        run("r.json", cwd=tmp_path),
        "",
        "r.json:3: invalid JSON at column 17: Expecting value\n",
        1,
    )


def test_provider_option_forces_json(tmp_path: Path) -> None:
    # Decision: --provider makes detection skip the text kinds.
    write(tmp_path / "a.txt", "<think>a</think>b")
    check(
        run("--provider", "openai_chat", "a.txt", cwd=tmp_path),
        "",
        "a.txt:1: invalid JSON at column 1: Expecting value\n",
        1,
    )


def test_json_value_that_is_not_object_or_array(tmp_path: Path) -> None:
    # CLI rules: one JSON value is an object or an array; --format json on a string is an error.
    write(tmp_path / "s.json", '"hello"')
    check(
        run("--format", "json", "s.json", cwd=tmp_path),
        "",
        "s.json: expected a JSON object (a provider response) or an array "
        "(a stream of events), not a string\n",
        1,
    )


def test_event_array_with_non_object(tmp_path: Path) -> None:
    # behaviour.md#cli / P9: a stream is an array of events, each a JSON object.
    write(tmp_path / "e.json", '[{"type": "ping"}, 3]')
    check(
        run("e.json", cwd=tmp_path),
        "",
        "e.json: event [1]: an event must be a JSON object, not a number\n",
        1,
    )


USAGE_ERRORS = [
    (
        ["--reasoning", "--json", "x"],
        "--reasoning and --json cannot be combined (--json has both)",
    ),
    (
        ["--reasoning", "--reasoning-to-stderr", "x"],
        "--reasoning and --reasoning-to-stderr cannot be combined",
    ),
    (
        ["--provider", "anthropic", "--format", "think", "x"],
        "--provider applies to JSON input, not --format think",
    ),
    (
        ["--format", "reasoning-block", "--tags", "think", "x"],
        "scanner options (--tags, --delimiters, --start-in-reasoning, --preset, --model, "
        "--no-code-aware, --max-tentative) do not apply to --format reasoning-block",
    ),
    (["--stream", "--json"], "--json is not available with --stream (it writes text)"),
    (["--stream", "--format", "json"], "--format json is not available with --stream"),
    (["--stream", "a", "b"], "--stream reads one input (standard input or one FILE)"),
    (
        ["--tags", "a b", "x"],
        "invalid scanner option: tags: tag name 'a b' may not contain ' ' "
        "(no '<', '>', '/' or whitespace)",
    ),
    (
        ["--max-tentative", "0", "x"],
        "argument --max-tentative: must be at least 1 (or 'none'), not 0",
    ),
    (
        ["--max-tentative", "many", "x"],
        "argument --max-tentative: expected a positive integer or 'none', not 'many'",
    ),
]


@pytest.mark.parametrize(("args", "message"), USAGE_ERRORS)
def test_usage_errors_exact(args: list[str], message: str) -> None:
    # behaviour.md#cli: usage errors -> 2, one line on stderr.
    check(run(*args), "", f"thinkparse: error: {message}{USAGE_HINT}", 2)


@pytest.mark.parametrize(
    "args",
    [
        ["--bogus"],
        ["--format", "xml", "x"],
        ["--preset", "nope", "x"],
        ["--provider", "nope", "x"],
        ["--delimiters", "only-one"],
        ["--errors", "ignore", "x"],
    ],
)
def test_argparse_usage_errors_are_one_line(args: list[str]) -> None:
    # CLI rules: every error is one line; argparse's own wording varies between Python versions.
    proc = run(*args)
    err = proc.stderr.decode()
    assert (proc.stdout, proc.returncode, err.count("\n")) == (b"", 2, 1)
    assert err.startswith("thinkparse: error: ") and err.endswith(USAGE_HINT)


def test_empty_tag_in_list_is_a_usage_error() -> None:
    # behaviour.md#a1: an empty name raises ValueError naming the option -> usage error.
    check(
        run("--tags", "a,,b", "x"),
        "",
        f"thinkparse: error: invalid scanner option: tags: a tag name may not be empty{USAGE_HINT}",
        2,
    )


def test_no_input_on_a_terminal_is_a_usage_error() -> None:
    # Decision: no FILE with standard input a terminal -> usage error, not a silent wait.
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "thinkparse"],
            stdin=slave,
            capture_output=True,
            env=ENV,
            timeout=60,
        )
    finally:
        os.close(slave)
        os.close(master)
    check(
        proc,
        "",
        "thinkparse: error: no input: give FILE arguments, or - for standard input" + USAGE_HINT,
        2,
    )


def test_version() -> None:
    # behaviour.md#cli "--version".
    check(
        run("--version"),
        f"thinkparse {thinkparse.__version__} (scanner: {thinkparse.IMPLEMENTATION})\n",
    )


def test_help_has_examples_and_every_option() -> None:
    # behaviour.md#cli "--help with examples".
    proc = run("--help")
    out = proc.stdout.decode()
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert out.startswith("usage: thinkparse ")
    assert "\nexamples:\n  thinkparse reply.txt " in out
    assert "exit status: 0 ok; 1 some input could not be processed; 2 usage error" in out
    for option in (
        "--format", "--provider", "--errors", "--stream", "--reasoning", "--json",
        "--reasoning-to-stderr", "--tags", "--delimiters", "--start-in-reasoning",
        "--no-start-in-reasoning", "--preset", "--no-code-aware", "--max-tentative",
        "--version", "--no-progress",
    ):  # fmt: skip
        assert re.search(rf"(^  |, ){re.escape(option)}[ ,\n]", out, re.M), option


def test_internal_error_is_one_line_exit_70(tmp_path: Path) -> None:
    # Decision: a bug shows one "internal error" line and exits 70, never a traceback.
    f = write(tmp_path / "a.txt", "x")
    code = (
        "import sys, thinkparse.cli as c, thinkparse.cli.commands._textfile as r\n"
        "def boom(*a, **k):\n    raise RuntimeError('boom')\n"
        "r.emit_streamed = boom\n"
        f"sys.exit(c.main([{str(f)!r}]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=ENV, timeout=60, input=b""
    )
    check(
        proc,
        "",
        "thinkparse: internal error: RuntimeError: boom "
        "(a bug in thinkparse; THINKPARSE_TRACEBACK=1 shows where)\n",
        70,
    )
