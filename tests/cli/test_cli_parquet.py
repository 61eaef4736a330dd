"""Parquet input with ``--column`` and ``--output FILE.parquet`` (C6); needs pyarrow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _support import CLI_ENV, check_cli, require, run_cli

from thinkparse import split_think


def run(*args: Any, cwd: Any = None) -> Any:
    return run_cli(*args, cwd=cwd, env=CLI_ENV)


TEXTS = ["<think>r</think>a", None, "plan</think>b", "no tags", "é<think>x", ""]


@pytest.fixture
def table(tmp_path: Path) -> Path:
    pa = require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    pq = require("pyarrow.parquet", "THINKPARSE_REQUIRE_ENGINES")
    ids = list(range(len(TEXTS)))
    pq.write_table(pa.table({"id": ids, "text": TEXTS}), tmp_path / "in.parquet")
    return tmp_path / "in.parquet"


def test_parquet_to_json_lines(table: Path) -> None:
    # C6: each row like a text input (split_think with "auto"); null rows give nulls.
    proc = run("--column", "text", "--key", "id", table)
    rows = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    expected = []
    for i, text in enumerate(TEXTS):
        if text is None:
            expected.append({"id": i, "visible": None, "reasoning": None, "tokens_est": None})
            continue
        s = split_think(text, start_in_reasoning="auto")
        est = 0 if s.reasoning is None else -(-len(s.reasoning) // 4)
        expected.append(
            {"id": i, "visible": s.visible, "reasoning": s.reasoning, "tokens_est": est}
        )
    assert (rows, proc.returncode, proc.stderr) == (expected, 0, b"")


def test_parquet_output(table: Path, tmp_path: Path) -> None:
    # C6: --output FILE.parquet = the input columns plus NAME__visible and NAME__reasoning.
    pq = require("pyarrow.parquet", "THINKPARSE_REQUIRE_ENGINES")
    out = tmp_path / "out.parquet"
    check_cli(run("--column", "text", "-o", out, table), "")
    got = pq.read_table(out)
    assert got.column_names == ["id", "text", "text__visible", "text__reasoning"]
    splits = [None if t is None else split_think(t, start_in_reasoning="auto") for t in TEXTS]
    assert got.column("text__visible").to_pylist() == [s and s.visible for s in splits]
    assert got.column("text__reasoning").to_pylist() == [s and s.reasoning for s in splits]
    # A clash with an existing column is a usage error.
    proc = run("--column", "text", "-o", tmp_path / "again.parquet", out)
    assert proc.returncode == 2 and b"'text__visible' already exists" in proc.stderr


def test_parquet_errors(table: Path, tmp_path: Path) -> None:
    proc = run(table)
    assert proc.returncode == 2 and b"needs --column NAME" in proc.stderr
    check_cli(
        run("--column", "nope", table),
        "",
        f"{table}: no column 'nope' (columns: id, text)\n",
        2,
    )
    check_cli(run("--column", "id", table), "", f"{table}: column 'id' is int64, not text\n", 2)
    (tmp_path / "t.txt").write_text("x", encoding="utf-8")
    proc = run("-o", tmp_path / "o.parquet", tmp_path / "t.txt")
    assert proc.returncode == 2 and b"needs Parquet input" in proc.stderr
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet")
    proc = run("--column", "text", bad)
    assert proc.returncode == 1 and proc.stderr.startswith(f"{bad}: not a Parquet file".encode())


def test_parquet_html_cards(table: Path, tmp_path: Path) -> None:
    # H2: --html renders Parquet rows too (null rows have no card).
    out = tmp_path / "page.html"
    check_cli(run("--column", "text", "--html", "-o", out, table), "")
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and f"{table}:0" in page and f"{table}:2" in page
    assert f"{table}:1<" not in page
