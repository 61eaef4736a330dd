"""``thinkparse.openai.wrap`` (W3) with the real ``openai`` client against a local server.

The server on 127.0.0.1 plays vLLM without a reasoning parser: ``/v1/chat/completions`` answers
with raw ``<think>`` markup in ``content``, as one ``chat.completion`` (plain) or as
``chat.completion.chunk`` SSE events (``stream=True``) whose content is cut wherever the test
says, with ``n`` choices interleaved, an optional usage-only last chunk, and optionally the
reasoning in ``reasoning_content`` already (a server with a parser, which must be left alone).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional

import pytest
from _support import TIMEOUT

from thinkparse import split_think

openai = pytest.importorskip("openai")
from thinkparse.openai import wrap  # noqa: E402

TEXT = "<think>\nplan A, then B</think>\n\nThe answer is 4."


class VLLMServer:
    """``pieces[i]`` is the list of content pieces of choice ``i``; streamed chunk by chunk."""

    def __init__(self) -> None:
        self.pieces: list[list[str]] = [[TEXT]]
        self.usage_chunk = True
        self.finish = True
        self.field: Optional[str] = None  # send the pieces in this field instead of content
        self.requests: list[dict[str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                owner.requests.append(request)
                body, ctype = owner.body(request)
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def body(self, request: dict[str, Any]) -> tuple[bytes, str]:
        model = request.get("model", "m")
        head = {"id": "chatcmpl-1", "created": 1700000000, "model": model}
        usage = {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}
        field = self.field or "content"
        if not request.get("stream"):
            choices = [
                {"index": i, "finish_reason": "stop", "logprobs": None,
                 "message": {"role": "assistant", field: "".join(p),
                             **({"content": "The answer is 4."} if self.field else {})}}
                for i, p in enumerate(self.pieces)
            ]
            data = {**head, "object": "chat.completion", "choices": choices, "usage": usage}
            return json.dumps(data).encode(), "application/json"
        events: list[dict[str, Any]] = []
        longest = max(len(p) for p in self.pieces)
        for step in range(longest + 1):
            for i, pieces in enumerate(self.pieces):
                if step < len(pieces):
                    delta = {field: pieces[step]}
                    if step == 0:
                        delta["role"] = "assistant"
                    events.append({"index": i, "delta": delta, "finish_reason": None})
                elif step == len(pieces) and self.finish:
                    events.append({"index": i, "delta": {}, "finish_reason": "stop"})
        chunks = [{**head, "object": "chat.completion.chunk", "choices": [c]} for c in events]
        if self.usage_chunk:
            chunks.append({**head, "object": "chat.completion.chunk", "choices": [],
                           "usage": usage})
        sse = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        return sse.encode(), "text/event-stream"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=TIMEOUT)


@pytest.fixture
def vllm(monkeypatch: pytest.MonkeyPatch) -> Iterator[VLLMServer]:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    srv = VLLMServer()
    try:
        yield srv
    finally:
        srv.close()


def _client(srv: VLLMServer, async_: bool = False) -> Any:
    cls = openai.AsyncOpenAI if async_ else openai.OpenAI
    return cls(base_url=f"http://127.0.0.1:{srv.port}/v1", api_key="x", timeout=TIMEOUT,
               max_retries=0)


MSG = [{"role": "user", "content": "2+2?"}]


def _joined(chunks: list[Any], n: int = 1) -> list[tuple[str, str]]:
    out = [("", "")] * n
    for chunk in chunks:
        assert type(chunk) is openai.types.chat.ChatCompletionChunk
        for c in chunk.choices:
            v, r = out[c.index]
            out[c.index] = (v + (c.delta.content or ""), r + (c.delta.reasoning_content or ""))
    return out


def _cuts(text: str) -> list[list[str]]:
    return [[text[:i], text[i:]] for i in range(1, len(text))] + [list(text)]


# --- streamed, tags cut at every position --------------------------------------------------------
def test_stream_every_cut_sync(vllm: VLLMServer) -> None:
    # W3, S1: the tags split across SSE chunks at every position give one result
    client = wrap(_client(vllm))
    for pieces in _cuts(TEXT):
        vllm.pieces = [pieces]
        with client.chat.completions.create(model="m", messages=MSG, stream=True) as stream:
            chunks = list(stream)
        assert _joined(chunks) == [("The answer is 4.", "plan A, then B")], pieces
        assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens == 14


def test_stream_every_cut_async(vllm: VLLMServer) -> None:
    # W3: the same through AsyncOpenAI
    client = wrap(_client(vllm, async_=True))

    async def go() -> None:
        for pieces in _cuts(TEXT):
            vllm.pieces = [pieces]
            stream = await client.chat.completions.create(model="m", messages=MSG, stream=True)
            async with stream:
                chunks = [c async for c in stream]
            assert _joined(chunks) == [("The answer is 4.", "plan A, then B")], pieces
        await client.close()

    asyncio.run(go())


def test_stream_chunk_fields(vllm: VLLMServer) -> None:
    # W3: each chunk is the SDK's own; content None where nothing visible was released
    vllm.pieces = [["<think>plan</think>", "Hi"]]
    chunks = list(wrap(_client(vllm)).chat.completions.create(model="m", messages=MSG,
                                                              stream=True))
    got = [(c.choices[0].delta.content, c.choices[0].delta.reasoning_content,
            c.choices[0].finish_reason) for c in chunks if c.choices]
    assert got == [(None, "plan", None), ("Hi", None, None), (None, None, "stop")]
    assert chunks[0].model_dump()["choices"][0]["delta"]["reasoning_content"] == "plan"


def test_held_text_released_with_finish_reason(vllm: VLLMServer) -> None:
    # W3: a partial tag held at the end is released in the finish_reason chunk
    vllm.pieces = [["Hi <thi"]]
    chunks = list(wrap(_client(vllm)).chat.completions.create(model="m", messages=MSG,
                                                              stream=True))
    got = [(c.choices[0].delta.content, c.choices[0].finish_reason) for c in chunks if c.choices]
    assert got == [("Hi ", None), ("<thi", "stop")]


@pytest.mark.parametrize("usage_chunk", [True, False])
def test_held_text_released_without_finish_reason(vllm: VLLMServer, usage_chunk: bool) -> None:
    # W3: no finish_reason: a synthesised chunk (same id/model/created) carries the held text,
    # before the usage-only chunk or at the end
    vllm.pieces = [["<think>a</think>Hi <thi"]]
    vllm.finish = False
    vllm.usage_chunk = usage_chunk
    chunks = list(wrap(_client(vllm)).chat.completions.create(model="m", messages=MSG,
                                                              stream=True))
    assert _joined(chunks) == [("Hi <thi", "a")]
    flush = chunks[-2] if usage_chunk else chunks[-1]
    assert (flush.id, flush.model, flush.created) == ("chatcmpl-1", "m", 1700000000)
    assert flush.choices[0].delta.content == "<thi"
    assert flush.choices[0].delta.role is None
    if usage_chunk:
        assert chunks[-1].choices == [] and chunks[-1].usage is not None


def test_n_choices_have_their_own_scanners(vllm: VLLMServer) -> None:
    # W3: n>1: one scanner per choice index, chunks interleaved
    vllm.pieces = [["<thi", "nk>x</th", "ink>A"], ["<think>y", "</think>", "B", "C"]]
    client = wrap(_client(vllm))
    chunks = list(client.chat.completions.create(model="m", messages=MSG, stream=True, n=2))
    assert _joined(chunks, 2) == [("A", "x"), ("BC", "y")]
    plain = client.chat.completions.create(model="m", messages=MSG, n=2)
    assert [(c.message.content, c.message.reasoning_content) for c in plain.choices] == [
        ("A", "x"), ("BC", "y")]


# --- plain results --------------------------------------------------------------------------
def test_plain_sync_and_async(vllm: VLLMServer) -> None:
    # W3: a ChatCompletion with content split; the SDK type is kept
    client = wrap(_client(vllm))
    resp = client.chat.completions.create(model="m", messages=MSG)
    assert type(resp) is openai.types.chat.ChatCompletion
    msg = resp.choices[0].message
    assert (msg.content, msg.reasoning_content) == ("The answer is 4.", "plan A, then B")
    assert resp.model_dump()["choices"][0]["message"]["reasoning_content"] == "plan A, then B"
    assert resp.usage.total_tokens == 14

    async def go() -> Any:
        aclient = wrap(_client(vllm, async_=True))
        out = await aclient.chat.completions.create(model="m", messages=MSG)
        await aclient.close()
        return out

    aresp = asyncio.run(go())
    assert (aresp.choices[0].message.content, aresp.choices[0].message.reasoning_content) == (
        "The answer is 4.", "plan A, then B")


def test_plain_without_markup_unchanged(vllm: VLLMServer) -> None:
    # W3: no markup: the message is returned as the server sent it
    vllm.pieces = [["Just 4."]]
    resp = wrap(_client(vllm)).chat.completions.create(model="m", messages=MSG)
    assert resp.choices[0].message.content == "Just 4."
    assert "reasoning_content" not in resp.choices[0].message.model_dump()


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_server_reasoning_field_left_alone(vllm: VLLMServer, field: str) -> None:
    # W3: a server that already separates reasoning is left alone (plain and streamed)
    vllm.pieces = [["plan <think>x</think>", " more"]]
    vllm.field = field
    client = wrap(_client(vllm))
    resp = client.chat.completions.create(model="m", messages=MSG)
    msg = resp.choices[0].message
    assert (msg.content, getattr(msg, field)) == ("The answer is 4.", "plan <think>x</think> more")
    chunks = list(client.chat.completions.create(model="m", messages=MSG, stream=True))
    text = "".join(getattr(c.choices[0].delta, field, None) or "" for c in chunks if c.choices)
    assert text == "plan <think>x</think> more"


# --- options --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "options", "text"),
    [
        ("deepseek-ai/DeepSeek-R1", {}, "plan</think>answer"),  # P13: preset from the model
        ("MiniMax-M2", {}, "plan</think>answer"),
        ("gpt-local", {}, "plan</think>answer"),  # unknown model: the defaults
        ("gpt-local", {"start_in_reasoning": True}, "plan</think>answer"),
        ("deepseek-r1", {"start_in_reasoning": False}, "plan</think>answer"),  # explicit wins
        ("magistral-medium-latest", {}, "[THINK]plan[/THINK]answer"),
        ("m", {"tags": ["reasoning"]}, "<reasoning>plan</reasoning>answer"),
    ],
)
def test_options(vllm: VLLMServer, model: str, options: dict[str, Any], text: str) -> None:
    # W3: explicit options, else the model's preset, else the defaults; plain == streamed
    vllm.pieces = [[text[:5], text[5:]]]
    client = wrap(_client(vllm), **options)
    effective = options or ({"preset": p} if (p := _preset(model)) else {})
    expected = split_think(text, **effective)
    chunks = list(client.chat.completions.create(model=model, messages=MSG, stream=True))
    assert _joined(chunks) == [(expected.visible, expected.reasoning or "")]
    msg = client.chat.completions.create(model=model, messages=MSG).choices[0].message
    assert msg.content == expected.visible
    assert getattr(msg, "reasoning_content", None) == expected.reasoning


def _preset(model: str) -> Optional[str]:
    from thinkparse import preset_for_model

    return preset_for_model(model)


def test_preset_cases_are_distinct() -> None:
    assert split_think("plan</think>answer", preset="deepseek-r1").reasoning == "plan"
    assert split_think("plan</think>answer").reasoning is None


def test_client_type_kept_and_original_untouched(vllm: VLLMServer) -> None:
    # W3: a copy of the same class; everything else is the client's own; the original unchanged
    raw = _client(vllm)
    wrapped = wrap(raw)
    assert type(wrapped) is openai.OpenAI
    assert wrapped is not raw
    assert wrapped.base_url == raw.base_url
    assert raw.chat.completions.create(model="m", messages=MSG).choices[0].message.content == TEXT
    assert wrapped.chat.completions.create(model="m", messages=MSG).choices[0].message.content \
        == "The answer is 4."
    assert wrapped.chat.completions.create.__name__ == "create"
    assert type(wrap(_client(vllm, async_=True))) is openai.AsyncOpenAI


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((object(),), TypeError, "client must be an openai"),
        (({"chat": 1},), TypeError, "client must be an openai"),
    ],
)
def test_bad_client(args: tuple[Any, ...], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        wrap(*args)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"nope": 1}, TypeError, "nope"),
        ({"preset": "no-such"}, ValueError, "preset"),
        ({"start_in_reasoning": "auto"}, ValueError, "auto"),
        ({"tags": 5}, TypeError, "tags"),
    ],
)
def test_bad_options(vllm: VLLMServer, options: dict[str, Any], error: type[Exception],
                     match: str) -> None:
    # W3: options are checked when wrapping, not at the first call
    with pytest.raises(error, match=match):
        wrap(_client(vllm), **options)


# --- properties (no server: the SDK's chunk objects built as the client builds them) ------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from thinkparse.clients._openai_stream import Rewriter  # noqa: E402

PIECES = st.sampled_from(["<think>", "</think>", "<th", "ink>", "</", "a", " b", "\n", "`"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(PIECES, max_size=4).map("".join), max_size=8), st.booleans(),
       st.booleans())
def test_stream_rewrite_equals_one_shot(contents: list[str], opened: bool, finish: bool) -> None:
    # W3, S1: for any cut, the rewritten stream joins to split_think of the whole content
    chunk_cls = openai.types.chat.ChatCompletionChunk
    head = {"id": "c", "created": 1, "model": "m", "object": "chat.completion.chunk"}
    raw = [{**head, "choices": [{"index": 0, "delta": {"content": c}, "finish_reason": None}]}
           for c in contents]
    if finish:
        raw.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    rewriter = Rewriter({"start_in_reasoning": opened})
    out = []
    for r in raw:
        out += rewriter.chunk(chunk_cls.model_validate(r))
    out += rewriter.finish()
    expected = split_think("".join(contents), start_in_reasoning=opened)
    assert _joined(out) == [(expected.visible, expected.reasoning or "")]


def test_stream_next_and_passthrough(vllm: VLLMServer) -> None:
    # W3: the stream is an iterator like the SDK's; other attributes are the SDK stream's
    vllm.pieces = [["<think>a</think>", "B"]]
    stream = wrap(_client(vllm)).chat.completions.create(model="m", messages=MSG, stream=True)
    assert stream.response.status_code == 200
    first = next(stream)
    assert first.choices[0].delta.reasoning_content == "a"
    assert _joined(list(stream)) == [("B", "")]
    stream.close()

    async def go() -> None:
        client = wrap(_client(vllm, async_=True))
        astream = await client.chat.completions.create(model="m", messages=MSG, stream=True)
        first = await astream.__anext__()
        assert first.choices[0].delta.reasoning_content == "a"
        assert _joined([c async for c in astream]) == [("B", "")]
        await astream.close()
        await client.close()

    asyncio.run(go())


def test_azure_client_kept(vllm: VLLMServer) -> None:
    # W3: subclasses keep their class (AzureOpenAI)
    azure = openai.AzureOpenAI(api_key="x", api_version="2024-10-21",
                               azure_endpoint=f"http://127.0.0.1:{vllm.port}")
    wrapped = wrap(azure)
    assert type(wrapped) is openai.AzureOpenAI
    resp = wrapped.chat.completions.create(model="m", messages=MSG)
    assert resp.choices[0].message.reasoning_content == "plan A, then B"


def test_copies_stay_wrapped(vllm: VLLMServer) -> None:
    # W3: with_options() / copy() of a wrapped client are wrapped with the same options
    wrapped = wrap(_client(vllm), tags=["think"])
    for copy in (wrapped.with_options(timeout=5.0), wrapped.copy(max_retries=0)):
        assert type(copy) is openai.OpenAI
        assert copy.timeout == 5.0 or copy.max_retries == 0
        msg = copy.chat.completions.create(model="m", messages=MSG).choices[0].message
        assert (msg.content, msg.reasoning_content) == ("The answer is 4.", "plan A, then B")


# --- the zoo options (F2-F5) ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "options", "extra", "text", "visible", "reasoning"),
    [
        # F5: Qwen3.5's template opens the block; F2: the tool call ends it and stays
        ("Qwen/Qwen3.5-27B", {}, None, "plan<tool_call>{}</tool_call>",
         "<tool_call>{}</tool_call>", "plan"),
        # the request turned thinking off: the template wrote a closed block (W3)
        ("Qwen/Qwen3.5-27B", {}, {"chat_template_kwargs": {"enable_thinking": False}},
         "The answer.", "The answer.", None),
        ("deepseek-ai/DeepSeek-V4-Flash", {}, {"chat_template_kwargs": {"thinking": False}},
         "The answer.", "The answer.", None),
        ("Qwen/Qwen3.5-27B", {}, {"chat_template_kwargs": {"enable_thinking": True}},
         "plan</think>ok", "ok", "plan"),
        # F3 and F4 given to wrap()
        ("m", {"answer": [("<answer>", "</answer>")]}, None, "<think>p</think><answer> 4 </answer>",
         "4", "p"),
        ("m", {"prompt": "<|im_start|>assistant\n<think>\n"}, None, "p</think>a", "a", "p"),
        ("m", {"terminators": ["<tool_call>"], "start_in_reasoning": True}, None,
         "p<tool_call>x", "<tool_call>x", "p"),
    ],
)
def test_zoo_options(vllm: VLLMServer, model: str, options: dict[str, Any],
                     extra: Optional[dict[str, Any]], text: str, visible: str,
                     reasoning: Optional[str]) -> None:
    # W3, F2-F5: plain and streamed alike
    vllm.pieces = [[text[:3], text[3:]]]
    client = wrap(_client(vllm), **options)
    kwargs: dict[str, Any] = {"model": model, "messages": MSG}
    if extra is not None:
        kwargs["extra_body"] = extra
    chunks = list(client.chat.completions.create(stream=True, **kwargs))
    assert _joined(chunks) == [(visible, reasoning or "")]
    msg = client.chat.completions.create(**kwargs).choices[0].message
    assert (msg.content, getattr(msg, "reasoning_content", None)) == (visible, reasoning)


def test_unclosed_is_not_a_wrap_option(vllm: VLLMServer) -> None:
    # W3: one option set for plain and streamed results; unclosed is one-shot only (F7)
    with pytest.raises(TypeError, match="unexpected keyword argument 'unclosed'"):
        wrap(_client(vllm), unclosed="answer")
