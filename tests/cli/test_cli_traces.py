"""``thinkparse traces``: the real program in subprocesses (D1-D5 through the CLI)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from _support import CLI_ENV, DATA, check_cli, load_json, run_cli

from thinkparse import TraceStore

KEYS = ["--session", "s1", "--run", "r1", "--model", "m1"]
E, HELP = "thinkparse: error: traces: ", " (see 'thinkparse --help')\n"


def traces(*args: object, stdin: bytes = b"", env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return run_cli("traces", *args, stdin=stdin, env=env)


def ids_of(out: bytes) -> list[str]:
    return out.decode().split()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


def test_record_text_file_and_list(db: Path, tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("<think>key password=hunter22! ok</think>The answer is 4.")
    proc = traces("record", "--db", db, *KEYS, src)
    assert proc.returncode == 0 and proc.stderr == b""
    (trace_id,) = ids_of(proc.stdout)
    with TraceStore(db) as store:
        t = store.get(trace_id)
    assert t is not None
    assert (t.reasoning_text, t.provider, t.session_key, t.run_id, t.model) == (
        "key password=[REDACTED:password] ok", "text", "s1", "r1", "m1",
    )  # fmt: skip
    proc = traces("list", "--db", db, "--json")
    assert [json.loads(x)["id"] for x in proc.stdout.decode().splitlines()] == [trace_id]


def test_record_jsonl_response_events_and_metadata(db: Path, tmp_path: Path) -> None:  # D5
    resp = {
        "choices": [{"message": {"content": "Hi", "reasoning_content": "hmm"}}],
        "usage": {"total_tokens": 30, "completion_tokens_details": {"reasoning_tokens": 9}},
    }
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text(json.dumps(resp) + "\n" + json.dumps(resp) + "\n")
    events = tmp_path / "events.json"
    events.write_text(
        json.dumps(load_json(DATA / "anthropic" / "stream_thinking_text.json")["events"])
    )
    proc = traces(
        "record", "--db", db, *KEYS, "--metadata", '{"tag": "x"}', "--json", jsonl, events
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [(x["file"], x["reasoning_tokens"]) for x in lines] == [
        (f"{jsonl}:1", 9), (f"{jsonl}:2", 9), (str(events), None),
    ]  # fmt: skip
    with TraceStore(db) as store:
        got = {t.id: t for t in store.query()}
    assert got[lines[0]["id"]].total_tokens == 30
    assert got[lines[2]["id"]].provider == "anthropic"
    assert all(t.metadata == {"tag": "x"} for t in got.values())


def test_record_stdin_and_stream(db: Path) -> None:  # D5
    proc = traces("record", "--db", db, *KEYS, "-", stdin=b"<think>a</think>b")
    assert proc.returncode == 0 and len(ids_of(proc.stdout)) == 1
    proc = traces("record", "--db", db, *KEYS, "--stream", stdin=b"<think>plan</think>live answer")
    assert proc.stdout == b"live answer\n" and proc.returncode == 0
    assert proc.stderr.startswith(b"thinkparse: stored trace ")
    lines = (
        b'{"choices":[{"delta":{"reasoning_content":"r1"}}]}\n'
        b'{"choices":[{"delta":{"content":"v"}}]}\n'
    )
    proc = traces("record", "--db", db, *KEYS, "--stream", "--json", stdin=lines)
    assert proc.returncode == 0
    out = proc.stdout.decode().splitlines()
    assert out[0] == "v" and json.loads(out[1])["file"] == "<stdin>"
    sse = b'data: {"choices":[{"delta":{"reasoning_content":"s"}}]}\n\ndata: [DONE]\n\n'
    assert traces("record", "--db", db, *KEYS, "--stream", stdin=sse).returncode == 0
    with TraceStore(db) as store:
        assert [t.reasoning_text for t in store.query()][1:] == ["plan", "r1", "s"]


def test_record_provider_error_stores_the_partial_turn(db: Path, tmp_path: Path) -> None:
    # P16, D5: a stream that reports a provider error is stored as far as it came, marked
    # incomplete with the error; the error is one line on stderr and the exit status is 1
    events = [
        {"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "Half a thought"}},
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    ]
    f = tmp_path / "cut.json"
    f.write_text(json.dumps(events), encoding="utf-8")
    proc = traces("record", "--db", db, *KEYS, "--metadata", '{"app": "x"}', f)
    assert proc.returncode == 1 and len(ids_of(proc.stdout)) == 1
    assert proc.stderr.decode() == (
        f"{f}: the provider reported an error (error): overloaded_error: Overloaded\n")
    sse = "".join(f"event: x\ndata: {json.dumps(e)}\n\n" for e in events).encode()
    proc = traces("record", "--db", db, *KEYS, "--stream", stdin=sse)
    assert proc.returncode == 1
    with TraceStore(db) as store:
        rows = list(store.query())
    assert [t.reasoning_text for t in rows] == ["Half a thought", "Half a thought"]
    assert rows[0].metadata == {"app": "x", "incomplete": True, "error": {
        "type": "overloaded_error", "message": "Overloaded", "event": "error"}}
    assert rows[1].metadata == {"incomplete": True}


def test_list_filters_table_and_limit(db: Path) -> None:
    with TraceStore(db, retention_days=None) as store:
        from thinkparse import Extraction

        ex = Extraction("", "abcd", None, 1, False, (), "openai_chat", "field")
        store.record(
            ex, session_key="a", run_id="r", model="m1", id="one", created_at=1_700_000_000_000
        )
        store.record(
            ex, session_key="b", run_id="r", model="m2", id="two", created_at=1_700_000_100_000
        )
    proc = traces("list", "--db", db)
    check_cli(
        proc,
        "created_at            id   session  run  model  provider     reasoning  ms\n"
        "2023-11-14T22:13:20Z  one  a        r    m1     openai_chat  1          0\n"
        "2023-11-14T22:15:00Z  two  b        r    m2     openai_chat  1          0\n",
    )

    def j(*a: str) -> list[str]:
        out = traces("list", "--db", db, "--json", *a).stdout.decode()
        return [json.loads(x)["id"] for x in out.splitlines()]

    assert j("--session", "b") == ["two"]
    assert j("--model", "m1") == ["one"]
    assert j("--since", "2023-11-14T22:14:00Z") == ["two"]
    assert j("--until", "2023-11-14T22:14:00") == ["one"]
    assert j("--since", "2023-11-15") == []
    assert j("--since", "7d") == []
    assert j("--limit", "1") == ["two"]  # the newest N, oldest first


def test_show_prune_stats(db: Path) -> None:
    from thinkparse import Extraction

    with TraceStore(db, retention_days=None) as store:
        for i, (tokens, model) in enumerate([(3, "m1"), (5, "m1"), (10, "m1"), (7, "m2")]):
            ex = Extraction("", "r", tokens, 1, False, (), "anthropic", "blocks")
            store.record(
                ex,
                session_key="s",
                run_id="r",
                model=model,
                id=f"t{i}",
                created_at=1_000 * i,
                metadata={"i": i},
            )
    check_cli(
        traces("show", "--db", db, "t1"),
        "id: t1\nsession_key: s\nrun_id: r\nmodel: m1\nprovider: anthropic\nreasoning_tokens: 5\n"
        'total_tokens: 0\nduration_ms: 0\nmetadata: {"i": 1}\n'
        "created_at: 1970-01-01T00:00:01Z (1000)\n\nr\n",
    )
    assert json.loads(traces("show", "--db", db, "t1", "--json").stdout)["metadata"] == {"i": 1}
    check_cli(
        traces("stats", "--db", db),
        "model  traces  reasoning_tokens  median  first                 last\n"
        "m1     3       18                5       1970-01-01T00:00:00Z  1970-01-01T00:00:02Z\n"
        "m2     1       7                 7       1970-01-01T00:00:03Z  1970-01-01T00:00:03Z\n",
    )
    stats = [
        json.loads(x)
        for x in traces(
            "stats", "--db", db, "--json", "--until", "1970-01-01T00:00:02Z"
        ).stdout.splitlines()
    ]
    assert stats == [
        {
            "model": "m1",
            "traces": 2,
            "reasoning_tokens": 8,
            "median_reasoning_tokens": 4.0,
            "first": 0,
            "last": 1000,
        }
    ]
    check_cli(traces("prune", "--db", db, "--older-than", "30d"), "deleted 4 traces\n")
    check_cli(traces("prune", "--db", db, "--older-than", "1h", "--json"), '{"deleted": 0}\n')


def test_export_import_round_trip_masks(db: Path, tmp_path: Path) -> None:  # D2
    raw = tmp_path / "raw.db"
    from thinkparse import Extraction

    with TraceStore(raw, masker=None, retention_days=None) as store:
        ex = Extraction("", "token: Zq9xWv8u7TsR6", None, 5, False, (), "ollama", "tags")
        store.record(ex, session_key="s", run_id="r", model="m", id="x", created_at=5)
    exported = traces("export", "--db", raw)
    assert b"Zq9xWv8u7TsR6" in exported.stdout
    dump = tmp_path / "dump.jsonl"
    dump.write_bytes(exported.stdout)
    check_cli(traces("import", "--db", db, dump), "imported 1 trace\n")
    check_cli(
        traces("import", "--db", db, "-", "--json", stdin=exported.stdout),
        '{"file": "<stdin>", "imported": 0}\n',
    )
    out = traces("export", "--db", db).stdout
    assert json.loads(out)["reasoning_text"] == "token: [REDACTED:token]"


def test_parquet_export(db: Path, tmp_path: Path) -> None:
    from _support import require

    require("pyarrow", "THINKPARSE_REQUIRE_ENGINES")
    import pyarrow.parquet as pq

    traces("record", "--db", db, *KEYS, "-", stdin=b"<think>r</think>v")
    target = tmp_path / "t.parquet"
    proc = traces("export", "--db", db, "--parquet", target)
    assert (
        proc.returncode == 0 and proc.stderr == f"thinkparse: wrote 1 traces to {target}\n".encode()
    )
    assert pq.read_table(target).column("reasoning_text").to_pylist() == ["r"]


@pytest.mark.parametrize(
    "args, err, rc",
    [
        (
            ["list"],
            E + "--db PATH is required (or set THINKPARSE_DB)" + HELP,
            2,
        ),
        (
            [],
            E + "give an action: record, list, show, prune, export, import, stats" + HELP,
            2,
        ),
        (
            ["record", "--db", "DB"],
            E + "the following arguments are required: --session, --run, --model" + HELP,
            2,
        ),
        (
            ["list", "--db", "DB", "--since", "soon"],
            E
            + "argument --since: 'soon' is not an ISO date or time, or an age like 7d or 12h"
            + HELP,
            2,
        ),
        (
            ["prune", "--db", "DB", "--older-than", "x"],
            E + "argument --older-than: 'x' is not an age like 30d or 12h" + HELP,
            2,
        ),
        (["show", "--db", "DB", "nope"], "thinkparse: no trace with id 'nope'\n", 1),
    ],
)
def test_usage_errors(db: Path, args: list[str], err: str, rc: int) -> None:
    TraceStore(db).close()  # an existing, empty store
    check_cli(traces(*[str(db) if a == "DB" else a for a in args]), "", err, rc)


def test_db_from_environment(db: Path) -> None:
    env = {**CLI_ENV, "THINKPARSE_DB": str(db)}
    assert traces("record", *KEYS, "-", stdin=b"x", env=env).returncode == 0
    assert len(traces("list", "--json", env=env).stdout.splitlines()) == 1


def test_unusable_databases_are_one_clean_line(db: Path, tmp_path: Path) -> None:
    notdb = tmp_path / "not.db"
    notdb.write_text("hello")
    check_cli(
        traces("list", "--db", notdb),
        "",
        f"thinkparse: {notdb}: cannot open the trace store: file is not a database\n",
        2,
    )
    check_cli(
        traces("list", "--db", tmp_path),
        "",
        f"thinkparse: {tmp_path}: cannot open the trace store: is a directory\n",
        2,
    )
    TraceStore(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE thinkparse_meta SET value = '9'")
    check_cli(
        traces("stats", "--db", db),
        "",
        f"thinkparse: {db}: the trace store has schema version 9, newer than 1;"
        " upgrade thinkparse to open it\n",
        2,
    )


def test_bad_inputs(db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"choices": []}\n{"nope": 1}\n')
    proc = traces("record", "--db", db, *KEYS, bad, tmp_path / "missing.txt")
    assert proc.returncode == 2
    err = proc.stderr.decode().splitlines()
    assert err[0].startswith(f"{bad}:1: ") or err[0].startswith(f"{bad}:2: ")
    assert err[-1] == f"{tmp_path / 'missing.txt'}: cannot open: No such file or directory"
    imp = tmp_path / "imp.jsonl"
    imp.write_text('{"id": 1}\n')
    check_cli(
        traces("import", "--db", db, imp),
        "",
        f"{imp}:1: missing session_key, run_id, model, provider, reasoning_text, "
        "reasoning_tokens, total_tokens, duration_ms, created_at\n",
        1,
    )


def test_file_named_traces_is_still_a_file(tmp_path: Path) -> None:
    (tmp_path / "traces").write_text("<think>r</think>visible")
    proc = run_cli("./traces", cwd=tmp_path)
    check_cli(proc, "visible\n")


def test_record_scanner_options(db: Path) -> None:  # D5: the main command's think options
    out = traces(
        "record", "--db", db, *KEYS, "--json", "--start-in-reasoning", "-", stdin=b"plan</think>ans"
    )
    first = json.loads(out.stdout)["id"]
    out = traces(
        "record", "--db", db, *KEYS, "--json", "--tags", "reason", "-", stdin=b"<reason>r</reason>v"
    )
    second = json.loads(out.stdout)["id"]
    with TraceStore(db) as store:
        assert [store.get(i).reasoning_text for i in (first, second)] == ["plan", "r"]  # type: ignore[union-attr]
    proc = traces("record", "--db", db, *KEYS, "--preset", "nope", "-", stdin=b"x")
    assert proc.returncode == 2 and proc.stderr.startswith(b"thinkparse: error: traces: ")
    assert b"preset" in proc.stderr


def test_closed_output_pipe_is_quiet(db: Path) -> None:  # CLI rules: `| head -1` ends quietly
    import subprocess
    import sys

    from thinkparse import Extraction

    with TraceStore(db, retention_days=None) as store:
        ex = Extraction("", "reasoning " * 50, None, 125, False, (), "ollama", "tags")
        for i in range(2000):
            store.record(ex, session_key="s", run_id="r", model="m", created_at=i)
    proc = subprocess.Popen(
        [sys.executable, "-m", "thinkparse", "traces", "export", "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=CLI_ENV,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b'{"id": ')
    proc.stdout.close()
    assert proc.wait(timeout=60) == 141
    err = proc.stderr.read()
    proc.stderr.close()
    assert err == b""
