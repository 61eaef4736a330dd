"""The ``thinkparse`` command on provider JSON: responses, event arrays, forced families
(docs/behaviour.md#cli over #p1)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from _support import CLI_ENV, EXAMPLES, check_cli, run_cli

ENV = dict(CLI_ENV)



def run(*args: Any, stdin: bytes = b"", cwd: Any = None) -> Any:
    return run_cli(*args, stdin=stdin, cwd=cwd, env=ENV)


check = check_cli


def one_error_line(proc: subprocess.CompletedProcess[bytes], prefix: str) -> str:
    """The single stderr line of a failed run (exit 1, nothing on stdout), checked."""
    err = proc.stderr.decode("utf-8")
    assert (proc.stdout, proc.returncode, err.count("\n"), err[: len(prefix)]) == (
        b"",
        1,
        1,
        prefix,
    )
    return err


OPENAI_JSON = (
    '{"visible": "9.11 is smaller than 9.9.", "reasoning": "Compare 9.11 and 9.9: the tenths '
    'digit 1 is less than 9, so 9.11 < 9.9.", "tokens_est": 18, "provider": "openai_chat", '
    '"format": "field", "reasoning_tokens": 38, "redacted": false}\n'
)
ANTHROPIC_JSON = (
    '{"visible": "27 * 453 = 12231", "reasoning": "27 * 453 = 27 * 400 + 27 * 53 = 10800 + '
    '1431 = 12231.", "tokens_est": 14, "provider": "anthropic", "format": "blocks", '
    '"reasoning_tokens": null, "redacted": false}\n'
)


def test_openai_response_file() -> None:
    # behaviour.md#cli: one JSON object is a provider response (P8 openai_chat, P4, P5, P11).
    f = EXAMPLES / "openai-response.json"
    check(run(f), "9.11 is smaller than 9.9.\n")
    check(
        run("--reasoning", f),
        "Compare 9.11 and 9.9: the tenths digit 1 is less than 9, so 9.11 < 9.9.\n",
    )
    check(run("--json", f), OPENAI_JSON)


def test_anthropic_event_array() -> None:
    # behaviour.md#cli: one JSON array is a stream of events (P9; ping ignored; signature not text).
    f = EXAMPLES / "anthropic-stream.json"
    check(run(f), "27 * 453 = 12231\n")
    check(run("--json", f), ANTHROPIC_JSON)
    check(
        run("--reasoning-to-stderr", f),
        "27 * 453 = 12231\n",
        "27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.\n",
    )


def test_provider_json_on_standard_input() -> None:
    # behaviour.md#cli "thinkparse -" with a provider response.
    data = (EXAMPLES / "openai-response.json").read_bytes()
    check(run("--json", "-", stdin=data), OPENAI_JSON)


def test_several_provider_files_get_file_key() -> None:
    # behaviour.md#cli: --json with several files adds "file" first.
    proc = run("--json", "openai-response.json", "anthropic-stream.json", cwd=EXAMPLES)
    check(
        proc,
        '{"file": "openai-response.json", '
        + OPENAI_JSON[1:]
        + '{"file": "anthropic-stream.json", '
        + ANTHROPIC_JSON[1:],
    )


def test_responses_api_redacted_and_tokens(tmp_path: Path) -> None:
    # P6 (encrypted_content -> redacted), P5 (reported reasoning tokens), P11 "blocks".
    response = {
        "id": "resp_1",
        "object": "response",
        "output": [
            {
                "id": "rs_1",
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "Checked the units."}],
                "encrypted_content": "gAAAAABo-opaque",
            },
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "It weighs 3 kg.", "annotations": []}],
            },
        ],
        "usage": {
            "input_tokens": 11,
            "output_tokens": 40,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 51,
        },
    }
    f = tmp_path / "r.json"
    f.write_text(json.dumps(response, indent=2), encoding="utf-8")
    check(
        run("--json", f),
        '{"visible": "It weighs 3 kg.", "reasoning": "Checked the units.", "tokens_est": 5, '
        '"provider": "openai_responses", "format": "blocks", "reasoning_tokens": 0, '
        '"redacted": true}\n',
    )


def test_ollama_response(tmp_path: Path) -> None:
    # P8 ollama: message.thinking + message.content (P11 "field").
    f = tmp_path / "o.json"
    f.write_text(
        '{"model": "qwen3", "created_at": "2025-01-01T00:00:00Z", "message": {"role": '
        '"assistant", "content": "Hi there.", "thinking": "Greet back."}, "done": true}',
        encoding="utf-8",
    )
    check(
        run("--json", f),
        '{"visible": "Hi there.", "reasoning": "Greet back.", "tokens_est": 3, '
        '"provider": "ollama", "format": "field", "reasoning_tokens": null, "redacted": false}\n',
    )


def test_provider_option_forces_family(tmp_path: Path) -> None:
    # CLI rules --provider (P8 provider=...): the right family works; a wrong one is an error.
    f = EXAMPLES / "openai-response.json"
    check(run("--json", "--provider", "openai_chat", f), OPENAI_JSON)
    one_error_line(run("--provider", "anthropic", "openai-response.json", cwd=EXAMPLES),
                   "openai-response.json: ")  # fmt: skip


def test_unknown_provider_shape(tmp_path: Path) -> None:
    # behaviour.md#cli / P8: an unknown shape -> 1; the message names the keys it saw.
    (tmp_path / "x.json").write_text('{"foo": 1, "bar": [2]}', encoding="utf-8")
    err = one_error_line(run("x.json", cwd=tmp_path), "x.json: ")
    assert "foo" in err and "bar" in err


def test_malformed_provider_field_names_the_path(tmp_path: Path) -> None:
    # P8: a recognised family with a malformed field -> ResponseShapeError with the JSON path.
    (tmp_path / "x.json").write_text(
        '{"choices": [{"index": 0, "message": {"role": "assistant", "content": 5}}]}',
        encoding="utf-8",
    )
    one_error_line(run("x.json", cwd=tmp_path), "x.json: choices[0].message.content")


def test_unknown_event_in_array(tmp_path: Path) -> None:
    # P9: an event no family recognises -> UnknownProviderError, reported with its index.
    (tmp_path / "e.json").write_text('[{"weird": true}]', encoding="utf-8")
    err = one_error_line(run("e.json", cwd=tmp_path), "e.json: event [0]: ")
    assert "weird" in err


def test_lone_surrogate_from_json_escape_is_replaced(tmp_path: Path) -> None:
    # Decision: lone surrogates (from \\ud800 escapes) are written as U+FFFD; output stays UTF-8.
    (tmp_path / "s.json").write_text(
        '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "a\\ud800b"}}]}',
        encoding="utf-8",
    )
    check(run("s.json", cwd=tmp_path), "a\ufffdb\n")


def test_stream_with_provider_reads_events(tmp_path: Path) -> None:
    # Decision: --stream --provider reads one event per line (NDJSON), like --format jsonl.
    events = json.loads((EXAMPLES / "anthropic-stream.json").read_text(encoding="utf-8"))
    data = b"".join(json.dumps(e).encode() + b"\n" for e in events)
    check(run("--stream", "--provider", "anthropic", stdin=data), "27 * 453 = 12231\n")
    check(
        run("--stream", "--provider", "anthropic", "--reasoning", stdin=data),
        "27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.\n",
    )


def test_stream_ollama_ndjson_from_file(tmp_path: Path) -> None:
    # CLI rules --stream over NDJSON events (6.1 ollama streaming: objects of the same shape).
    head = '{"model": "qwen3", "created_at": "2025-01-01T00:00:00Z", "message": '
    lines = [
        head + '{"role": "assistant", "content": "", "thinking": "Greet"}, "done": false}',
        head + '{"role": "assistant", "content": "", "thinking": " back."}, "done": false}',
        head + '{"role": "assistant", "content": "Hi"}, "done": false}',
        head + '{"role": "assistant", "content": " there."}, "done": false}',
        head + '{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop", '
        '"prompt_eval_count": 10, "eval_count": 7}',
    ]
    f = tmp_path / "chat.ndjson"
    f.write_text("\r\n".join(lines), encoding="utf-8")  # CRLF and no final newline
    check(run("--stream", "--format", "jsonl", "--reasoning-to-stderr", f),
          "Hi there.\n", "Greet back.\n")  # fmt: skip
