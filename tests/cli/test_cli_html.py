"""``thinkparse --html``: one page for every input kind the command reads (H2, R7).

The page's markup is checked through its cards: the name in the card head, the reasoning body and
the answer, unescaped.  Its behaviour in a browser is tested in test_html_browser.py.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from _support import CLI_ENV, DATA, EXAMPLES, run_cli

CARD = re.compile(
    r'<article class="tp-card"[^>]*><div class="tp-card-head">(.*?)</div>'
    r'<div class="tp-message"[^>]*>(.*?)<div class="tp-answer">(.*?)</div></div></article>', re.S)
BODY = re.compile(r"<div class=\"tp-body\"[^>]*data-ai-reasoning-body hidden>(.*?)</div>", re.S)
NAME = re.compile(r'<bdi class="tp-id">(.*?)</bdi>')
STAT = re.compile(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>")


def cards(page: str) -> list[tuple[str | None, str | None, str]]:
    """(name, reasoning body, answer) of each card, unescaped; body None without reasoning."""
    out = []
    for head, box, answer in CARD.findall(page):
        name, body = NAME.search(head), BODY.search(box)
        out.append((html.unescape(name.group(1)) if name else None,
                    html.unescape(body.group(1)) if body else None, html.unescape(answer)))
    return out


def stats(page: str) -> dict[str, str]:
    return dict(STAT.findall(page))


def sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + \
        b"data: [DONE]\n\n"


def _chunk(**delta: str) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion.chunk", "model": "deepseek-reasoner",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def test_every_input_kind(tmp_path: Path) -> None:  # H2
    stream = tmp_path / "stream.sse"
    stream.write_bytes(sse([_chunk(reasoning_content="Think "), _chunk(reasoning_content="hard."),
                            _chunk(content="Done.")]))
    think = tmp_path / "think.txt"
    think.write_text("<think>plan <b>it</b></think>Answer <i>.", encoding="utf-8")
    redacted = tmp_path / "redacted.json"
    redacted.write_text(json.dumps(json.loads(
        (DATA / "anthropic" / "redacted_thinking_only.json").read_text())["response"]))
    files = [EXAMPLES / "reasoning-block.txt", think, EXAMPLES / "openai-response.json",
             EXAMPLES / "anthropic-stream.json", EXAMPLES / "records.jsonl", stream, redacted]
    proc = run_cli("--html", *files)
    assert (proc.returncode, proc.stderr) == (0, b"")
    page = proc.stdout.decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    got = cards(page)
    records = [json.loads(line) for line in (EXAMPLES / "records.jsonl").read_text().splitlines()
               if line.strip()]
    names = [str(f) for f in files[:4]] + [r["id"] for r in records] + [str(stream), str(redacted)]
    assert [name for name, _, _ in got] == names
    assert got[0][1:] == ("Step 1: Fetch account balance...\nStep 2: Compare deltas...",
                          "Final balance increased by 12 SOL.")
    assert got[1][1:] == ("plan <b>it</b>", "Answer <i>.")
    assert got[-2][1:] == ("Think hard.", "Done.")
    assert got[-1][1] is not None and "it existed but cannot be read" in got[-1][1]
    assert stats(page)["Records"] == str(len(names))
    # -o writes the same page.
    out = tmp_path / "page.html"
    proc = run_cli("--html", "-o", out, *files)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert out.read_text(encoding="utf-8") == page


def test_redaction_and_no_redact(tmp_path: Path) -> None:  # R7
    f = tmp_path / "pii.txt"
    f.write_text("<REASONING>Call <REDACTED>Ann, 555-0100</REDACTED> first.</REASONING>Done.",
                 encoding="utf-8")
    page = run_cli("--html", f).stdout.decode()
    assert cards(page) == [(str(f), "Call [REDACTED] first.", "Done.")]
    assert "555-0100" not in page and stats(page)["Redacted"] == "1"
    page = run_cli("--html", "--no-redact", f).stdout.decode()
    assert cards(page) == [(str(f), "Call <REDACTED>Ann, 555-0100</REDACTED> first.", "Done.")]
    assert stats(page)["Redacted"] == "0"
    # Text output too.
    assert run_cli("-r", f).stdout == b"Call [REDACTED] first.\n"
    assert run_cli("-r", "--no-redact", f).stdout == (
        b"Call <REDACTED>Ann, 555-0100</REDACTED> first.\n")


def test_limit_and_title(tmp_path: Path) -> None:  # H2
    proc = run_cli("--html", "--limit", "1", "--title", "<Batch & co>", EXAMPLES / "records.jsonl")
    page = proc.stdout.decode()
    n = sum(1 for line in (EXAMPLES / "records.jsonl").read_text().splitlines() if line.strip())
    assert len(cards(page)) == 1 and stats(page)["Records"] == str(n)
    assert f'<p class="tp-more">{n - 1} more records not shown (limit 1).</p>' in page
    assert "<title>&lt;Batch &amp; co&gt;</title>" in page
    assert len(cards(run_cli("--html", "--limit", "0", EXAMPLES / "records.jsonl")
                     .stdout.decode())) == 0


def test_usage_errors() -> None:
    proc = run_cli("--limit", "3", EXAMPLES / "think.txt")
    assert proc.returncode == 2 and b"--limit and --title apply to --html" in proc.stderr
    proc = run_cli("--html", "--limit", "-1", EXAMPLES / "think.txt")
    assert proc.returncode == 2 and b"must be at least 0" in proc.stderr


def test_bad_records_are_reported_and_skipped(tmp_path: Path) -> None:  # H2
    f = tmp_path / "mixed.jsonl"
    good = (EXAMPLES / "records.jsonl").read_text().splitlines()[0]
    f.write_text(good + "\n{not json\n" + good + "\n", encoding="utf-8")
    proc = run_cli("--html", f)
    assert proc.returncode == 1 and proc.stderr.startswith(f"{f}:2: invalid JSON".encode())
    assert stats(proc.stdout.decode())["Records"] == "2"


RSS = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _peak_kib(path: Path) -> int:
    cmd = [sys.executable, "-c", RSS, sys.executable, "-m", "thinkparse", "--html", "--limit",
           "50", str(path)]
    return int(subprocess.run(cmd, capture_output=True, check=True, env=CLI_ENV,
                              timeout=600).stdout)


def test_jsonl_memory_bounded(tmp_path: Path) -> None:  # H2: streamed, not held
    record = json.loads((EXAMPLES / "records.jsonl").read_text().splitlines()[0])
    message = record["choices"][0]["message"]

    def write(path: Path, n: int) -> None:
        with path.open("w", encoding="utf-8") as f:
            for i in range(n):
                record["id"] = f"r{i}"
                message["reasoning_content"] = f"Reasoning {i}: " + "step " * (i % 300)
                f.write(json.dumps(record) + "\n")

    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    write(small, 2_000)
    write(large, 60_000)  # about 60 MB of records; holding them would add well over 100 MB
    a, b = _peak_kib(small), _peak_kib(large)
    assert b < a * 1.3, (a, b)
