"""Hardening of the library systems: each test pins one defect found by the hardening review.

The rules cited are those of docs/behaviour.md.  Servers listen on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from _support import TIMEOUT


# --- a local server answering every POST with a canned body ------------------------------------
class CannedServer:
    """Every POST gets ``body`` with ``ctype``; listens on a free port of 127.0.0.1."""

    def __init__(self) -> None:
        self.body = b""
        self.ctype = "application/json"
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                self.send_response(200)
                self.send_header("Content-Type", owner.ctype)
                self.send_header("Content-Length", str(len(owner.body)))
                self.end_headers()
                self.wfile.write(owner.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=TIMEOUT)


@pytest.fixture
def canned(monkeypatch: pytest.MonkeyPatch) -> Iterator[CannedServer]:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    srv = CannedServer()
    try:
        yield srv
    finally:
        srv.close()


# --- 11. W3: a content list of parts in thinkparse.openai.wrap -----------------------------------
HEAD = {"id": "chatcmpl-1", "created": 1700000000, "model": "m"}
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _parts_stream(deltas: list[dict[str, Any]]) -> bytes:
    chunks = [
        {**HEAD, "object": "chat.completion.chunk",
         "choices": [{"index": 0, "delta": d, "finish_reason": None}]}
        for d in deltas
    ]
    chunks.append({**HEAD, "object": "chat.completion.chunk",
                   "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return ("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n").encode()


PARTS_DELTAS = [
    {"role": "assistant", "content": [_text("<think>\nplan ")]},
    {"content": [_text("A</think>\n\nThe ans")]},
    {"content": [IMAGE]},
    {"content": [_text("wer is 4.<")]},
]


def _openai_client(srv: CannedServer, async_: bool = False) -> Any:
    openai = pytest.importorskip("openai")
    cls = openai.AsyncOpenAI if async_ else openai.OpenAI
    return cls(base_url=f"http://127.0.0.1:{srv.port}/v1", api_key="x", timeout=TIMEOUT,
               max_retries=0)


def _delta_fields(chunks: list[Any]) -> list[tuple[Any, Any]]:
    return [(c.choices[0].delta.content, c.choices[0].delta.reasoning_content) for c in chunks]


EXPECTED_PARTS_STREAM = [
    (None, "plan"),
    ([_text("The ans")], " A"),
    ([IMAGE], None),
    ([_text("wer is 4.")], None),
    ([_text("<")], None),  # held at "<" (a possible tag), released with the finish reason
]


def test_w3_stream_content_parts_sync(canned: CannedServer) -> None:  # W3
    from thinkparse.openai import wrap

    canned.ctype = "text/event-stream"
    canned.body = _parts_stream(PARTS_DELTAS)
    client = wrap(_openai_client(canned))
    chunks = list(client.chat.completions.create(model="m", messages=[], stream=True))
    assert _delta_fields(chunks) == EXPECTED_PARTS_STREAM


def test_w3_stream_content_parts_async(canned: CannedServer) -> None:  # W3
    from thinkparse.openai import wrap

    canned.ctype = "text/event-stream"
    canned.body = _parts_stream(PARTS_DELTAS)

    async def go() -> list[Any]:
        client = wrap(_openai_client(canned, async_=True))
        stream = await client.chat.completions.create(model="m", messages=[], stream=True)
        return [c async for c in stream]

    assert _delta_fields(asyncio.run(go())) == EXPECTED_PARTS_STREAM


def test_w3_stream_content_parts_flushed_at_end(canned: CannedServer) -> None:  # W3
    # no finish reason: the held "<" leaves in a synthesised chunk, as a text part
    from thinkparse.openai import wrap

    canned.ctype = "text/event-stream"
    body = _parts_stream([{"content": [_text("<think>r</think>Hi <")]}])
    canned.body = body.replace(b'"finish_reason": "stop"', b'"finish_reason": null')
    client = wrap(_openai_client(canned))
    chunks = list(client.chat.completions.create(model="m", messages=[], stream=True))
    assert _delta_fields(chunks) == [([_text("Hi ")], "r"), (None, None), ([_text("<")], None)]


def test_w3_plain_content_parts(canned: CannedServer) -> None:  # W3
    from thinkparse.openai import wrap

    content = [_text("<think>\nplan A</think>\n\nThe ans"), IMAGE, _text("wer is 4.")]
    message = {"role": "assistant", "content": content}
    canned.body = json.dumps({**HEAD, "object": "chat.completion", "choices": [
        {"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}]}).encode()
    client = wrap(_openai_client(canned))
    got = client.chat.completions.create(model="m", messages=[]).choices[0].message
    assert got.content == [_text("The ans"), IMAGE, _text("wer is 4.")]
    assert got.reasoning_content == "plan A"
    # without markup the message comes back as the server sent it, without reasoning_content
    canned.body = canned.body.replace(b"<think>\\nplan A</think>\\n\\n", b"")
    got = client.chat.completions.create(model="m", messages=[]).choices[0].message
    assert got.content == [_text("The ans"), IMAGE, _text("wer is 4.")]
    assert "reasoning_content" not in (got.model_extra or {})


# --- 13. D1, C4: lone surrogates --------------------------------------------------------------
LONE = json.loads('"a\\ud83db"')  # valid JSON: half of a surrogate pair
assert LONE == "a\ud83db"


def _chat(reasoning: str, content: str = "x") -> dict[str, Any]:
    return {"choices": [{"message": {"content": content, "reasoning_content": reasoning}}]}


@pytest.mark.parametrize("masker", ["default", None])
def test_d1_lone_surrogate_stored_as_replacement(masker: Any) -> None:  # D1
    from thinkparse import TraceStore, normalize

    kw: dict[str, Any] = {} if masker == "default" else {"masker": None}
    with TraceStore(**kw) as store:
        trace_id = store.record(
            normalize(_chat(LONE)), session_key="s\udc00", run_id="r", model="m",
            metadata={"k\ud800": "v\udfff", "pair": "\ud83d\ude00", "list": ["\ud83d"]},
            id="id\ud83d", created_at=1,
        )  # fmt: skip
        assert trace_id == "id\ufffd"
        t = store.get("id\ud83d")
        assert t is not None
        assert (t.id, t.session_key, t.reasoning_text) == ("id\ufffd", "s\ufffd", "a\ufffdb")
        assert t.metadata == {"k\ufffd": "v\ufffd", "pair": "\U0001f600", "list": ["\ufffd"]}
        assert [x.id for x in store.query(session_key="s\udc00")] == ["id\ufffd"]
        assert store.count(session_key="s\udc00") == 1


def test_d1_lone_surrogate_import_keeps_going(tmp_path: Any) -> None:  # D1
    from thinkparse import TraceStore

    row = {"id": "a", "session_key": "s", "run_id": "r", "model": "m", "provider": "p",
           "reasoning_text": LONE, "reasoning_tokens": 1, "total_tokens": 0, "duration_ms": 0,
           "metadata": {"note": "\udbff"}, "created_at": 5}
    lines = json.dumps(row) + "\n" + json.dumps({**row, "id": "b", "reasoning_text": "ok"}) + "\n"
    with TraceStore() as store:
        assert store.import_jsonl(io.StringIO(lines)) == 2
        got = [(t.id, t.reasoning_text, t.metadata) for t in store.query()]
    assert got == [("a", "a\ufffdb", {"note": "\ufffd"}), ("b", "ok", {"note": "\ufffd"})]


def test_d1_cli_records_every_file_after_a_lone_surrogate(tmp_path: Any) -> None:  # D1
    from _support import run_cli

    from thinkparse import TraceStore

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(_chat(LONE)))  # written with the escape: "a\ud83db"
    second.write_text(json.dumps(_chat("fine")))
    db = tmp_path / "t.db"
    proc = run_cli("traces", "record", "--db", db, "--session", "s", "--run", "r",
                   "--model", "m", first, second)
    assert (proc.returncode, proc.stderr) == (0, b"")
    with TraceStore(db) as store:
        assert sorted(t.reasoning_text for t in store.query()) == ["a\ufffdb", "fine"]


def test_c4_arrow_normalize_lone_surrogate_is_a_row_error() -> None:  # C4
    pa = pytest.importorskip("pyarrow")
    from thinkparse.arrow import normalize

    rows = [json.dumps(_chat(LONE)), json.dumps(_chat("r", "\udc01")), json.dumps(_chat("ok"))]
    for column in (pa.array(rows), pa.chunked_array([rows[:1], rows[1:]], type=pa.large_string())):
        got = normalize(column).to_pylist()
        nulls = dict.fromkeys(("visible", "reasoning", "tokens_est", "provider", "format",
                               "reasoning_tokens", "redacted"))
        assert got == [
            {**nulls, "error": "reasoning holds a lone surrogate U+D83D at index 1, which a "
                               "UTF-8 string column cannot hold"},
            {**nulls, "error": "visible holds a lone surrogate U+DC01 at index 0, which a "
                               "UTF-8 string column cannot hold"},
            {"visible": "x", "reasoning": "ok", "tokens_est": 1, "provider": "openai_chat",
             "format": "field", "reasoning_tokens": None, "redacted": False, "error": None},
        ]


# --- 15. C2: a content list of text parts becomes a string ---------------------------------------
TEXT_PARTS_TRACE = [
    {"role": "user", "content": [_text("2+2?")]},
    {"role": "assistant", "content": [_text("<think>\nadd</think>\n\n"), _text("4")]},
    {"role": "user", "content": "and 3+3?"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "add again", "signature": "s"}, _text("6"), "!"]},
]


@pytest.mark.parametrize(("to", "last"), [
    ("reasoning_content", {"role": "assistant", "content": "6!", "reasoning_content": "add again"}),
    ("reasoning", {"role": "assistant", "content": "6!", "reasoning": "add again"}),
    ("think_tags", {"role": "assistant", "content": "<think>\nadd again\n</think>\n\n6!"}),
    ("none", {"role": "assistant", "content": "6!"}),
])
def test_c2_text_parts_become_a_string(to: str, last: dict[str, Any]) -> None:  # C2
    from thinkparse import convert_trace

    out = convert_trace(TEXT_PARTS_TRACE, to=to, keep="last")
    # the user message is not an assistant message: copied as it is; the earlier assistant
    # turn, which drops its reasoning (keep="last"), is a string too
    assert out == [TEXT_PARTS_TRACE[0], {"role": "assistant", "content": "4"},
                   TEXT_PARTS_TRACE[2], last]


def test_c2_other_parts_keep_the_list_form() -> None:  # C2
    from thinkparse import convert_trace

    msg = {"role": "assistant", "content": [_text("<think>r</think>See "), IMAGE, _text("this")]}
    assert convert_trace([msg], to="reasoning_content") == [
        {"role": "assistant", "content": [_text("See this"), IMAGE], "reasoning_content": "r"}
    ]
    assert convert_trace([msg], to="think_tags") == [
        {"role": "assistant", "content": [_text("<think>\nr\n</think>\n\nSee this"), IMAGE]}
    ]
    # content_blocks always writes a list
    assert convert_trace([TEXT_PARTS_TRACE[1]], to="content_blocks") == [
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "add"}, _text("4")]}
    ]


# --- 17. D1: metadata defaults to '{}' ------------------------------------------------------------
OLD_SCHEMA = """CREATE TABLE reasoning_traces (
  id TEXT PRIMARY KEY,
  session_key TEXT NOT NULL,
  run_id TEXT NOT NULL,
  model TEXT NOT NULL,
  provider TEXT NOT NULL,
  reasoning_text TEXT NOT NULL,
  reasoning_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens INTEGER NOT NULL DEFAULT 0,
  duration_ms INTEGER NOT NULL DEFAULT 0,
  metadata TEXT,
  created_at INTEGER NOT NULL
)"""


def test_d1_metadata_column_defaults_to_empty_object(tmp_path: Any) -> None:  # D1
    import sqlite3

    from thinkparse import TraceStore, normalize

    db = tmp_path / "t.db"
    with TraceStore(db, retention_days=None) as store:
        store.record(normalize(_chat("r")), session_key="s", run_id="r", model="m", id="a",
                     created_at=1)
        t = store.get("a")
        assert t is not None and (t.metadata_json, t.metadata) == ("{}", {})
        buf = io.StringIO()
        store.export_jsonl(buf)
        assert json.loads(buf.getvalue())["metadata"] == {}
        # an import line without metadata (or with null) gets the default too
        line = {**json.loads(buf.getvalue()), "id": "b"}
        del line["metadata"]
        store.import_jsonl(io.StringIO(json.dumps(line) + "\n"))
        assert [x.metadata_json for x in store.query()] == ["{}", "{}"]
    with sqlite3.connect(db) as conn:
        info = conn.execute("PRAGMA table_info(reasoning_traces)").fetchall()
        assert [c[1:5] for c in info if c[1] == "metadata"] == [("metadata", "TEXT", 0, "'{}'")]
        # a row another program inserts without metadata gets the column default
        conn.execute("INSERT INTO reasoning_traces (id, session_key, run_id, model, provider, "
                     "reasoning_text, created_at) VALUES ('c', 's', 'r', 'm', 'p', '', 2)")
        assert conn.execute("SELECT metadata FROM reasoning_traces WHERE id='c'").fetchone() == (
            "{}",)


def test_d1_store_with_the_old_metadata_column_keeps_working(tmp_path: Any) -> None:  # D1
    import sqlite3

    from thinkparse import TraceStore, normalize

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:  # a store file as the first schema wrote it
        conn.execute("CREATE TABLE thinkparse_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO thinkparse_meta VALUES ('reasoning_traces_schema', '1')")
        conn.execute(OLD_SCHEMA)
        conn.execute("INSERT INTO reasoning_traces VALUES "
                     "('old', 's', 'r', 'm', 'p', 'why', 1, 0, 0, NULL, 1)")
    with TraceStore(db, retention_days=None) as store:
        store.record(normalize(_chat("r")), session_key="s", run_id="r", model="m", id="new",
                     created_at=2)
        got = [(t.id, t.metadata_json, t.metadata) for t in store.query()]
        assert got == [("old", "{}", {}), ("new", "{}", {})]
        buf = io.StringIO()
        store.export_jsonl(buf)
        assert [json.loads(x)["metadata"] for x in buf.getvalue().splitlines()] == [{}, {}]
    with sqlite3.connect(db) as conn:  # the file's own table is left as it was
        assert conn.execute("SELECT id, metadata FROM reasoning_traces ORDER BY id").fetchall() == [
            ("new", "{}"), ("old", None)]


# --- 18. W1: iter_sse is linear in one large event ----------------------------------------------
class _CountingPattern:
    """A compiled pattern that adds up the length of every string it is asked to scan."""

    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern
        self.scanned = 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.pattern, name)

        def counted(text: str, *args: Any, **kwargs: Any) -> Any:
            self.scanned += len(text)
            return method(text, *args, **kwargs)

        return counted


@pytest.mark.parametrize("kind", ["bytes", "str"])
@pytest.mark.parametrize("cut", [1, 7, 256])
def test_w1_one_large_event_is_scanned_once(monkeypatch: pytest.MonkeyPatch, kind: str,
                                            cut: int) -> None:  # W1
    # Every character of the body is looked at for line ends a bounded number of times, however
    # the event is cut: the held part of an unfinished line is not re-scanned with each chunk.
    from thinkparse import iter_sse
    from thinkparse.clients import _sse

    payload = "x" * (64_000 if cut > 1 else 8_000)
    body = 'data: {"text": "' + payload + '"}\n\nevent: end\ndata: {"n": 2}\r\n\r\n'
    counter = _CountingPattern(_sse._LINE_END)
    monkeypatch.setattr(_sse, "_LINE_END", counter)
    data: Any = body.encode() if kind == "bytes" else body
    chunks = [data[i:i + cut] for i in range(0, len(data), cut)]
    assert list(iter_sse(chunks)) == [{"text": payload}, {"n": 2}]
    assert 0 < counter.scanned <= len(body)


# --- 19. X3, X5, D1, C2, A4: hostile values -----------------------------------------------------
def _cyclic_dict() -> dict[str, Any]:
    d: dict[str, Any] = {"k": 1}
    d["self"] = d
    return d


def _deep(n: int = 100_000) -> list[Any]:
    value: list[Any] = []
    for _ in range(n):
        value = [value]
    return value


def _chat_turn(**message: Any) -> dict[str, Any]:
    m = {"role": "assistant", "content": "hi", "reasoning_content": "r", **message}
    return {"id": "x", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": m, "finish_reason": "stop"}]}


@pytest.mark.parametrize(("turn", "path", "message"), [
    (_chat_turn(tool_calls=-1), "choices[0].message.tool_calls",
     "expected an array or null, got a number"),
    (_chat_turn(tool_calls=2.5), "choices[0].message.tool_calls",
     "expected an array or null, got a number"),
    ({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "t", "thought": True, "thoughtSignature": "c2ln"}, {"text": "hi"}]}}]},
     None, None),
    ({"object": "response", "model": "m", "output": [
        {"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": "e"},
        {"type": ["function_call"], "call_id": "c", "name": "f", "arguments": "{}"}]},
     "output[1].type", "expected a string, got an array"),
])
def test_x3_update_malformed_turn_names_the_path(turn: Any, path: Any, message: Any) -> None:
    # X3, X5, P8: a malformed turn is refused with the JSON path of the response
    from thinkparse import ReasoningContext, ResponseShapeError

    ctx = ReasoningContext()
    if path is None:  # a well-formed control: cached
        ctx.update(turn)
        assert len(ctx.segments) == 1
        return
    with pytest.raises(ResponseShapeError) as info:
        ctx.update(turn)
    assert (info.value.path, str(info.value)) == (path, f"{path}: {message}")
    assert ctx.segments == ()


@pytest.mark.parametrize("args", [_cyclic_dict(), _deep()])
def test_x3_update_cyclic_or_deep_turn(args: Any) -> None:  # X3, X5, P8
    from thinkparse import ReasoningContext, ResponseShapeError

    turn = _chat_turn(tool_calls=[{"id": "c1", "type": "function",
                                   "function": {"name": "f", "arguments": args}}])
    with pytest.raises(ResponseShapeError) as info:
        ReasoningContext().update(turn)
    assert (info.value.path, str(info.value)) == (
        "", "turn: a cyclic or too deeply nested value is not JSON data")


def test_x4_attach_hostile_request_turns_are_left_alone() -> None:  # X4
    from thinkparse import ReasoningContext

    ctx = ReasoningContext()
    ctx.update(_chat_turn())
    hostile = [
        {"role": "assistant", "content": "other", "tool_calls": -1},
        {"role": "assistant", "content": "x", "tool_calls": [
            {"function": {"name": "f", "arguments": _deep()}}]},
        {"role": "assistant", "content": "y", "extra": _cyclic_dict()},
    ]
    request = {"model": "m", "messages": [*hostile, {"role": "assistant", "content": "hi"}]}
    out = ctx.attach(request)
    assert out["messages"][:3] == hostile and out["messages"][:3][0] is hostile[0]
    assert out["messages"][3] == {"role": "assistant", "content": "hi", "reasoning_content": "r"}
    # Responses input items whose type is not a string (unhashable) are not tool outputs
    resp = {"object": "response", "model": "m", "output": [
        {"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": "e"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "A"}]}]}
    ctx.update(resp)
    # (they are read as output items: a turn of their own that matches nothing)
    items = [{"type": ["x"]}, {"type": {"a": 1}}, {"role": "user", "content": "q"},
             {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                                   "text": "A"}]}]
    got = ctx.attach({"model": "m", "input": items})["input"]
    assert got[:3] == items[:3] and [i["type"] for i in got[3:]] == ["reasoning", "message"]
    # Gemini parts that are not a list
    assert ctx.attach({"contents": [{"role": "model", "parts": -1}]},
                      provider="gemini") == {"contents": [{"role": "model", "parts": -1}]}


def test_x5_from_dict_cyclic_or_deep_message() -> None:  # X5
    from thinkparse import ReasoningContext

    ctx = ReasoningContext()
    ctx.update(_chat_turn())
    snapshot = ctx.to_dict()
    snapshot["segments"][0]["message"]["extra"] = {"inner": _cyclic_dict()}
    with pytest.raises(ValueError) as info:
        ReasoningContext.from_dict(snapshot)
    assert str(info.value) == (
        "segments[0].message.extra.inner.self: a cyclic value is not JSON data")
    snapshot = ctx.to_dict()
    snapshot["segments"][0]["blocks"][0]["wire"]["deep"] = _deep()
    with pytest.raises(ValueError) as info:
        ReasoningContext.from_dict(snapshot)
    assert str(info.value) == "segments[0].blocks[0].wire: nested too deeply"
    # the context keeps copies: a later change to the snapshot does not reach it
    snapshot = ctx.to_dict()
    again = ReasoningContext.from_dict(snapshot)
    snapshot["segments"][0]["message"]["content"] = "changed"
    snapshot["segments"][0]["blocks"][0]["wire"]["changed"] = True
    assert again == ctx and again.to_dict() == ctx.to_dict()


@pytest.mark.parametrize(("metadata", "message"), [
    ({"a": [1, _cyclic_dict()]}, "metadata.a[1].self: a cyclic value is not JSON data"),
    ({"d": _deep()}, "metadata: nested too deeply"),
])
def test_d1_cyclic_or_deep_metadata(metadata: Any, message: str) -> None:  # D1, D4, A4
    from thinkparse import TraceRecorder, TraceStore, normalize

    with TraceStore() as store:
        with pytest.raises(ValueError) as info:
            store.record(normalize(_chat("r")), session_key="s", run_id="r", model="m",
                         metadata=metadata)
        assert str(info.value) == message
        with pytest.raises(ValueError) as info:
            TraceRecorder(store, session_key="s", run_id="r", model="m", metadata=metadata)
        assert str(info.value) == message
        assert store.count() == 0


def test_d1_import_deep_line() -> None:  # D1, A4
    from thinkparse import TraceStore

    line = '{"id": "a", "metadata": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    with TraceStore() as store:
        with pytest.raises(ValueError) as info:
            store.import_jsonl(io.StringIO(line))
        assert str(info.value) == "line 1: invalid JSON: nested too deeply"


@pytest.mark.parametrize("role", ["user", "assistant"])
def test_c2_convert_deep_value(role: str) -> None:  # C2, P8
    from thinkparse import ResponseShapeError, convert_trace

    messages = [{"role": "user", "content": "q"}, {"role": role, "content": "x", "extra": _deep()}]
    with pytest.raises(ResponseShapeError) as info:
        convert_trace(messages, to="reasoning_content")
    assert (info.value.path, str(info.value)) == (
        "messages[1].extra", "messages[1].extra: nested too deeply to copy")
    # a cyclic value is copied with its cycle, as the input has it
    cyclic = _cyclic_dict()
    out = convert_trace([{"role": role, "content": "x", "extra": cyclic}], to="none")
    assert out[0]["extra"]["self"] is out[0]["extra"] and out[0]["extra"] is not cyclic


# --- 20. D1, D4: a damaged database file ---------------------------------------------------------
def _store_file(path: Any) -> None:
    from thinkparse import TraceStore, normalize

    ex = normalize(_chat("why " * 50))
    with TraceStore(path, retention_days=None) as store:
        for i in range(300):
            store.record(ex, session_key=f"s{i % 7}", run_id="r", model="m", id=f"id{i:04d}",
                         created_at=i, metadata={"i": i, "t": "x" * 100})


def _damaged_copies(tmp_path: Any) -> list[Any]:
    base = tmp_path / "base.db"
    _store_file(base)
    data = base.read_bytes()
    copies = []
    for k in range(1, 30):
        offset = len(data) * k // 30
        for kind, damaged in (("cut", data[:offset]),
                              ("over", data[:offset] + b"\xff" * 64 + data[offset + 64:])):
            copy = tmp_path / f"{kind}{offset}.db"
            copy.write_bytes(damaged)
            copies.append(copy)
    return copies


def test_d4_damaged_file_every_method_raises_trace_store_error(tmp_path: Any) -> None:  # D1, D4
    from thinkparse import TraceStore, TraceStoreError, normalize

    ex = normalize(_chat("r"))
    calls = {
        "count": lambda s: s.count(),
        "query": lambda s: [t.to_dict() for t in s.query()],
        "get": lambda s: s.get("id0150"),
        "explain_query": lambda s: s.explain_query(session_key="s1"),
        "export_jsonl": lambda s: s.export_jsonl(io.StringIO()),
        "import_jsonl": lambda s: s.import_jsonl(io.StringIO(
            json.dumps({"id": "new", "session_key": "s", "run_id": "r", "model": "m",
                        "provider": "p", "reasoning_text": "", "reasoning_tokens": 0,
                        "total_tokens": 0, "duration_ms": 0, "created_at": 1}) + "\n")),
        "prune_older_than": lambda s: s.prune_older_than(1),
        "record": lambda s: s.record(ex, session_key="s", run_id="r", model="m"),
    }
    failed_in_use = set()
    for copy in _damaged_copies(tmp_path):
        try:
            store = TraceStore(copy, retention_days=None)
        except TraceStoreError as exc:
            assert str(exc).startswith(f"{copy}: cannot open the trace store: ")
            continue
        with store:
            for name, call in calls.items():
                try:
                    call(store)
                except TraceStoreError as exc:  # nothing else escapes
                    message = str(exc)
                    assert message.startswith(f"{copy}: ") and "\n" not in message, message
                    failed_in_use.add((copy.name, name))
    # the damage is found while the store is used, by reads and by a prune
    assert {name for _, name in failed_in_use} >= {"query", "export_jsonl", "prune_older_than"}
    assert len({copy for copy, _ in failed_in_use}) >= 10


def test_d4_cli_damaged_file_exits_1_with_one_line(tmp_path: Any) -> None:  # D1, D4
    from _support import run_cli

    from thinkparse import TraceStore, TraceStoreError

    checked = 0
    for copy in _damaged_copies(tmp_path):
        try:
            with TraceStore(copy, retention_days=None) as store:
                list(store.query())
            continue
        except TraceStoreError as exc:
            if "cannot open" in str(exc):
                continue
            message = str(exc)
        proc = run_cli("traces", "list", "--db", copy)
        assert (proc.returncode, proc.stderr.decode()) == (
            1, f"thinkparse: cannot read the trace store: {message}\n"
        )
        checked += 1
        if checked == 3:
            break
    assert checked == 3


# --- 21. D1, D4: a full disk or an I/O error while importing --------------------------------------
def _import_lines(n: int) -> str:
    return "".join(
        json.dumps({"id": f"id{i}", "session_key": "s", "run_id": "r", "model": "m",
                    "provider": "p", "reasoning_text": "why " * 100, "reasoning_tokens": 0,
                    "total_tokens": 0, "duration_ms": 0, "created_at": i}) + "\n"
        for i in range(n)
    )


def test_d4_import_on_a_full_disk_names_the_cause(tmp_path: Any) -> None:  # D1, D4
    # a real tiny file system: a 256 KB tmpfs (needs the right to mount, as root in CI)
    import os
    import subprocess

    from thinkparse import TraceStore, TraceStoreError, normalize

    mnt = tmp_path / "small"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], capture_output=True
    ).returncode:
        pytest.skip("mounting a small tmpfs needs root and a system that allows it")
    try:
        db = mnt / "t.db"
        with TraceStore(db, retention_days=None) as store:
            with pytest.raises(TraceStoreError) as info:
                store.import_jsonl(io.StringIO(_import_lines(2000)))
            assert str(info.value) == f"{db}: database or disk is full"
            assert store.count() == 0  # nothing half-imported
            with pytest.raises(TraceStoreError) as info:
                store.record(normalize(_chat("y" * 400_000)), session_key="s", run_id="r",
                             model="m")
            assert str(info.value) == f"{db}: database or disk is full"
            assert store.count() == 0
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


IO_ERROR_SCRIPT = """
import io, resource, signal, sys
from thinkparse import TraceStore, TraceStoreError
store = TraceStore(sys.argv[1], retention_days=None)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, resource.RLIM_INFINITY))
try:
    store.import_jsonl(io.StringIO(sys.stdin.read()))
except TraceStoreError as exc:
    print(type(exc).__name__, exc, store.count())
"""


def test_d4_import_on_an_io_error_names_the_cause(tmp_path: Any) -> None:  # D1, D4
    # files may not grow past 200 KB in a child process (RLIMIT_FSIZE): SQLite's write fails
    import subprocess
    import sys

    from _support import CLI_ENV

    db = tmp_path / "t.db"
    proc = subprocess.run([sys.executable, "-c", IO_ERROR_SCRIPT, str(db)], env=CLI_ENV,
                          input=_import_lines(2000).encode(), capture_output=True,
                          timeout=TIMEOUT * 6)
    assert (proc.stdout.decode(), proc.stderr, proc.returncode) == (
        f"TraceStoreError {db}: disk I/O error 0\n", b"", 0)


# --- 22. D1, D3: integers beyond 64 bits --------------------------------------------------------
FIT = "must fit in a signed 64-bit integer (SQLite's INTEGER), got"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"total_tokens": 10**20}, f"total_tokens {FIT} {10**20}"),
    ({"duration_ms": 2**63}, f"duration_ms {FIT} {2**63}"),
    ({"created_at": 10**20}, f"created_at {FIT} {10**20}"),
    ({"created_at": -(2**63) - 1}, f"created_at {FIT} {-(2**63) - 1}"),
])
def test_d1_record_integer_beyond_64_bits(kwargs: dict[str, Any], message: str) -> None:  # D1
    from thinkparse import TraceStore, normalize

    with TraceStore() as store:
        with pytest.raises(ValueError) as info:
            store.record(normalize(_chat("r")), session_key="s", run_id="r", model="m", **kwargs)
        assert str(info.value) == message and type(info.value) is ValueError
        # the largest values that fit are stored as given
        edge = {k: (2**63 - 1 if v > 0 else -(2**63)) for k, v in kwargs.items()}
        trace_id = store.record(normalize(_chat("r")), session_key="s", run_id="r", model="m",
                                **edge)
        t = store.get(trace_id)
        assert t is not None and all(getattr(t, k) == v for k, v in edge.items())


@pytest.mark.parametrize(("usage", "message"), [
    ({"total_tokens": 10**20}, f"extraction.usage.total_tokens {FIT} {10**20}"),
    ({"completion_tokens_details": {"reasoning_tokens": 10**20}},
     f"extraction.reasoning_tokens {FIT} {10**20}"),
])
def test_d1_record_reported_usage_beyond_64_bits(usage: dict[str, Any], message: str) -> None:
    # D1: the counts the provider reported are stored too
    from thinkparse import TraceStore, normalize

    with TraceStore() as store:
        with pytest.raises(ValueError) as info:
            store.record(normalize({**_chat("r"), "usage": usage}), session_key="s", run_id="r",
                         model="m")
        assert str(info.value) == message


def test_d1_filters_and_import_beyond_64_bits() -> None:  # D1
    from thinkparse import TraceStore

    with TraceStore() as store:
        for call, message in [
            (lambda: store.query(since=10**20), f"since {FIT} {10**20}"),
            (lambda: store.query(until=-(10**20)), f"until {FIT} {-(10**20)}"),
            (lambda: store.count(since=2**64), f"since {FIT} {2**64}"),
            (lambda: store.explain_query(until=2**64), f"until {FIT} {2**64}"),
            (lambda: store.export_jsonl(io.StringIO(), since=2**64), f"since {FIT} {2**64}"),
        ]:
            with pytest.raises(ValueError) as info:
                call()
            assert str(info.value) == message
        assert list(store.query(limit=10**20)) == []  # a limit is not stored: any size works
        line = json.loads(_import_lines(1))
        with pytest.raises(ValueError) as info:
            store.import_jsonl(io.StringIO(json.dumps({**line, "total_tokens": 10**20}) + "\n"))
        assert str(info.value) == f"line 1: total_tokens {FIT} {10**20}"


@pytest.mark.parametrize("days", [10**20, 1e300, 106_751_991_168])
def test_d3_days_beyond_64_bits(days: Any) -> None:  # D1, D3
    from thinkparse import TraceStore

    message = f"must be at most 106751991167 days (the range of SQLite's INTEGER), got {days!r}"
    with TraceStore() as store:
        with pytest.raises(ValueError) as info:
            store.prune_older_than(days)
        assert str(info.value) == f"days {message}"
        assert store.prune_older_than(106_751_991_167) == 0
    with pytest.raises(ValueError) as info:
        TraceStore(retention_days=days)
    assert str(info.value) == f"retention_days {message}"


# --- 26. C5: the duckdb extra is complete --------------------------------------------------------
def test_c5_duckdb_extra_holds_what_register_needs() -> None:  # C5
    # DuckDB's create_function needs numpy (even for Arrow functions): the extra installs it
    tomllib = pytest.importorskip("tomllib")
    from _support import ROOT

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = {re.split(r"[<>=!~\[ ;]", req, maxsplit=1)[0] for req in extras["duckdb"]}
    assert names == {"duckdb", "pyarrow", "numpy"}


def test_c5_duckdb_register_and_query() -> None:  # C5
    from _support import require

    duckdb = require("duckdb", "THINKPARSE_REQUIRE_ENGINES")
    from thinkparse.duckdb import register

    con = register(duckdb.connect())
    assert con.sql("SELECT split_think('<think>a</think>B') AS s").fetchall() == [
        ({"visible": "B", "reasoning": "a"},)]


MISSING_SCRIPT = """
import sys
sys.modules[sys.argv[1]] = None  # as if it were not installed
import duckdb
from thinkparse.duckdb import register
try:
    register(duckdb.connect())
except ImportError as exc:
    print(type(exc).__name__, exc)
"""


@pytest.mark.parametrize("missing", ["numpy", "pyarrow"])
def test_c5_duckdb_register_without_a_dependency_names_the_extra(missing: str) -> None:  # C5
    import subprocess
    import sys

    from _support import CLI_ENV, require

    require("duckdb", "THINKPARSE_REQUIRE_ENGINES")
    proc = subprocess.run([sys.executable, "-c", MISSING_SCRIPT, missing], env=CLI_ENV,
                          capture_output=True, timeout=TIMEOUT * 6)
    assert (proc.stdout.decode(), proc.returncode) == (
        f"ImportError thinkparse.duckdb needs {missing} (DuckDB's Python functions use it): "
        "pip install 'thinkparse[duckdb]'\n", 0)
