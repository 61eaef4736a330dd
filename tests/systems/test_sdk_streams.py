"""``stream_deltas`` / ``astream_deltas`` (W2) with the real SDK clients, sync and async.

A local server on 127.0.0.1 (``_support.SSEServer``) answers each POST with a recorded stream
fixture of ``tests/data``: SSE for ``openai`` (``/v1/chat/completions``), ``anthropic``
(``/v1/messages``) and ``google-genai`` (``...:streamGenerateContent?alt=sse``), NDJSON for
``ollama`` (``/api/chat``).  The real client parses the stream into its own objects; the deltas and
``.result`` must equal the fixture's hand-derived ``expected`` block.  The SDKs' helper streams
(``messages.stream()``, ``chat.completions.stream()``) yield derived events next to the raw ones:
the result must be the same, never double-counted.  No other network.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from _support import DATA, TIMEOUT, SSEServer, extraction_as_dict, load_json

from thinkparse import (
    AsyncDeltaStream,
    Delta,
    DeltaStream,
    Extraction,
    StreamNormalizer,
    astream_deltas,
    stream_deltas,
)
from thinkparse.clients._sdk import raw_event

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _sse(events: list[dict[str, Any]], *, named: bool = False, done: bool = True) -> bytes:
    out = []
    for e in events:
        head = f"event: {e['type']}\n" if named else ""
        out.append(f"{head}data: {json.dumps(e, ensure_ascii=False)}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode("utf-8")


def _ndjson(events: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events).encode("utf-8")


def _check(deltas: list[Delta], result: Extraction, case: dict[str, Any],
           message: Any = None) -> None:
    expected = case["expected"]
    assert all(type(d) is Delta and (d.visible or d.reasoning) for d in deltas)
    assert "".join(d.visible for d in deltas) == expected["visible"]
    assert "".join(d.reasoning for d in deltas) == (expected["reasoning"] or "")
    assert extraction_as_dict(result) == expected
    if message is not None:
        # W2, X2: .message is the normaliser's for the recorded wire dicts of the same stream
        reference = StreamNormalizer()
        for event in case["events"]:
            reference.feed(event)
        reference.close()
        assert message == reference.message


def _collect(stream: DeltaStream) -> list[Delta]:
    with pytest.raises(RuntimeError, match="exhausted"):
        stream.result  # noqa: B018  (W2: not before the end)
    with pytest.raises(RuntimeError, match="exhausted"):
        stream.message  # noqa: B018
    out = list(stream)
    assert list(stream) == []  # exhausted stays exhausted
    return out


async def _acollect(stream: AsyncDeltaStream) -> list[Delta]:
    with pytest.raises(RuntimeError, match="exhausted"):
        stream.result  # noqa: B018
    with pytest.raises(RuntimeError, match="exhausted"):
        stream.message  # noqa: B018
    out = [d async for d in stream]
    assert [d async for d in stream] == []
    return out


# --- openai ----------------------------------------------------------------------------------
openai_cases = ["stream_raw_think_split", "stream_vllm_reasoning",
                "stream_deepseek_reasoning_content"]


def _openai(server: SSEServer, name: str, async_: bool = False) -> tuple[Any, dict[str, Any]]:
    openai = pytest.importorskip("openai")
    case = load_json(DATA / f"openai_chat/{name}.json")
    server.body = _sse(case["events"])
    cls = openai.AsyncOpenAI if async_ else openai.OpenAI
    client = cls(base_url=f"http://127.0.0.1:{server.port}/v1", api_key="x", timeout=TIMEOUT,
                 max_retries=0)
    return client, case


KW: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Hi"}]}


@pytest.mark.parametrize("name", openai_cases)
def test_openai_create_stream(server: SSEServer, name: str) -> None:
    # W2, P9: chat.completions.create(stream=True)
    client, case = _openai(server, name)
    stream = stream_deltas(client.chat.completions.create(**KW, stream=True))
    deltas = _collect(stream)
    _check(deltas, stream.result, case, stream.message)
    assert server.requests[-1][0] == "/v1/chat/completions"


@pytest.mark.parametrize("name", openai_cases)
def test_openai_helper_stream_ignores_derived_events(server: SSEServer, name: str) -> None:
    # W2: chat.completions.stream() yields chunk events plus content.delta events; only the
    # chunks count
    client, case = _openai(server, name)
    with client.chat.completions.stream(**KW) as helper:
        stream = stream_deltas(helper)
        deltas = _collect(stream)
    _check(deltas, stream.result, case, stream.message)
    # the manager itself (not entered) is entered and exited by the DeltaStream
    manager_stream = stream_deltas(client.chat.completions.stream(**KW))
    _check(_collect(manager_stream), manager_stream.result, case)


@pytest.mark.parametrize("name", openai_cases)
def test_openai_async(server: SSEServer, name: str) -> None:
    # W2: AsyncOpenAI, the awaitable create() and the async helper manager
    client, case = _openai(server, name, async_=True)

    async def go() -> None:
        stream = astream_deltas(client.chat.completions.create(**KW, stream=True))
        _check(await _acollect(stream), stream.result, case, stream.message)
        stream = astream_deltas(await client.chat.completions.create(**KW, stream=True))
        _check(await _acollect(stream), stream.result, case, stream.message)
        stream = astream_deltas(client.chat.completions.stream(**KW))
        _check(await _acollect(stream), stream.result, case, stream.message)
        await client.close()

    run(go())


def test_openai_options_reach_the_normalizer(server: SSEServer) -> None:
    # W2: the options are StreamNormalizer's (T6 start_in_reasoning here)
    client, case = _openai(server, "stream_start_in_reasoning")
    stream = stream_deltas(client.chat.completions.create(**KW, stream=True),
                           start_in_reasoning=True)
    _check(_collect(stream), stream.result, case, stream.message)


# --- anthropic -------------------------------------------------------------------------------
anthropic_cases = ["stream_thinking_text", "stream_redacted_and_tool_use",
                   "stream_thinking_display_omitted"]
AKW: dict[str, Any] = {"model": "claude-local-test", "max_tokens": 64,
                       "messages": [{"role": "user", "content": "Hi"}]}


def _anthropic(server: SSEServer, name: str, async_: bool = False) -> tuple[Any, dict[str, Any]]:
    anthropic = pytest.importorskip("anthropic")
    case = load_json(DATA / f"anthropic/{name}.json")
    server.body = _sse(case["events"], named=True, done=False)
    cls = anthropic.AsyncAnthropic if async_ else anthropic.Anthropic
    client = cls(base_url=f"http://127.0.0.1:{server.port}", api_key="x", timeout=TIMEOUT,
                 max_retries=0)
    return client, case


@pytest.mark.parametrize("name", anthropic_cases)
def test_anthropic_create_and_helper(server: SSEServer, name: str) -> None:
    # W2: messages.create(stream=True) and messages.stream(); the helper's text / thinking /
    # signature / input_json events are ignored (each is also a raw content_block_delta)
    client, case = _anthropic(server, name)
    stream = stream_deltas(client.messages.create(**AKW, stream=True))
    _check(_collect(stream), stream.result, case, stream.message)
    with client.messages.stream(**AKW) as helper:
        seen: list[str] = []

        def events() -> Iterator[Any]:
            for event in helper:
                seen.append(event.type)
                yield event

        stream = stream_deltas(events())
        _check(_collect(stream), stream.result, case, stream.message)
    assert {"text"} <= set(seen)  # derived events were really there
    stream = stream_deltas(client.messages.stream(**AKW))  # the manager
    _check(_collect(stream), stream.result, case, stream.message)
    assert server.requests[-1][0] == "/v1/messages"


@pytest.mark.parametrize("name", anthropic_cases)
def test_anthropic_async(server: SSEServer, name: str) -> None:
    # W2: AsyncAnthropic, create(stream=True) awaited or not, and the async helper manager
    client, case = _anthropic(server, name, async_=True)

    async def go() -> None:
        stream = astream_deltas(client.messages.create(**AKW, stream=True))
        _check(await _acollect(stream), stream.result, case, stream.message)
        stream = astream_deltas(client.messages.stream(**AKW))
        _check(await _acollect(stream), stream.result, case, stream.message)
        async with client.messages.stream(**AKW) as helper:
            stream = astream_deltas(helper)
            _check(await _acollect(stream), stream.result, case, stream.message)
        await client.close()

    run(go())


# --- google-genai ----------------------------------------------------------------------------
def _genai(server: SSEServer) -> tuple[Any, dict[str, Any]]:
    genai = pytest.importorskip("google.genai")
    from google.genai import types

    case = load_json(DATA / "gemini/stream_thought_chunks.json")
    server.body = _sse(case["events"], done=False)
    client = genai.Client(
        api_key="x", http_options=types.HttpOptions(base_url=f"http://127.0.0.1:{server.port}")
    )
    return client, case


def test_genai_sync_and_async(server: SSEServer) -> None:
    # W2: models.generate_content_stream and client.aio (an awaitable giving the stream)
    client, case = _genai(server)
    stream = stream_deltas(client.models.generate_content_stream(model="gemini-2.5-flash",
                                                                  contents="Hi"))
    _check(_collect(stream), stream.result, case, stream.message)
    assert ":streamGenerateContent" in server.requests[-1][0]

    async def go() -> None:
        coro = client.aio.models.generate_content_stream(model="gemini-2.5-flash", contents="Hi")
        astream = astream_deltas(coro)
        _check(await _acollect(astream), astream.result, case, astream.message)

    run(go())


# --- ollama ----------------------------------------------------------------------------------
def test_ollama_sync_and_async(server: SSEServer) -> None:
    # W2: Client.chat(stream=True) (a generator) and AsyncClient.chat(stream=True) (an awaitable)
    ollama = pytest.importorskip("ollama")
    case = load_json(DATA / "ollama/stream_chat_ndjson.json")
    server.body = _ndjson(case["events"])
    host = f"http://127.0.0.1:{server.port}"
    msgs = [{"role": "user", "content": "Hi"}]
    stream = stream_deltas(ollama.Client(host=host).chat(model="qwen3:8b", messages=msgs,
                                                          stream=True))
    _check(_collect(stream), stream.result, case, stream.message)
    assert server.requests[-1][0] == "/api/chat"

    async def go() -> None:
        coro = ollama.AsyncClient(host=host).chat(model="qwen3:8b", messages=msgs, stream=True)
        astream = astream_deltas(coro)
        _check(await _acollect(astream), astream.result, case, astream.message)

    run(go())


# --- early close, errors, derived events -------------------------------------------------------
EVENTS = [
    {"choices": [{"index": 0, "delta": {"content": "<think>pl"}}]},
    {"choices": [{"index": 0, "delta": {"content": "an</think>Hel"}}]},
    {"choices": [{"index": 0, "delta": {"content": "lo"}}]},
]


class Closable:
    """An SDK-like stream that records close()."""

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self.closed = 0

    def __iter__(self) -> Iterator[Any]:
        return iter(self.events)

    def close(self) -> None:
        self.closed += 1


def test_close_early_closes_the_sdk_stream() -> None:
    # W2: close() after a break: the SDK stream is closed, .result covers what was consumed
    source = Closable(EVENTS)
    with stream_deltas(source) as stream:
        first = next(stream)
    assert first == Delta("", "pl")
    assert source.closed == 1
    assert (stream.result.visible, stream.result.reasoning) == ("", "pl")
    assert list(stream) == []
    stream.close()
    assert source.closed == 1


def test_async_close_early() -> None:
    class AClosable:
        def __init__(self) -> None:
            self.closed = 0

        def __aiter__(self) -> AsyncIterator[Any]:
            async def gen() -> AsyncIterator[Any]:
                for e in EVENTS:
                    yield e

            return gen()

        async def close(self) -> None:
            self.closed += 1

    async def go() -> None:
        source = AClosable()
        async with astream_deltas(source) as stream:
            async for d in stream:
                assert d == Delta("", "pl")
                break
        assert source.closed == 1
        assert stream.result.reasoning == "pl"
        # an awaitable never awaited is closed without a warning
        async def never() -> Any:
            return source

        pending = astream_deltas(never())
        await pending.aclose()
        assert pending.result.visible == ""

    run(go())


def test_plain_iterables_and_dicts() -> None:
    # W2 on parsed event dicts: the final delta of close() is yielded when it has text
    stream = stream_deltas([{"choices": [{"delta": {"content": "Hi <thi"}}]}])
    assert list(stream) == [Delta("Hi ", ""), Delta("<thi", "")]
    assert stream.result.visible == "Hi <thi"


def test_derived_event_filter() -> None:
    # W2: derived helper events are skipped, openai chunk events unwrapped, raw ones kept
    class Ev:
        def __init__(self, type: str, **kw: Any) -> None:
            self.type = type
            self.__dict__.update(kw)

    for kind in ("text", "thinking", "signature", "input_json", "citation", "content.delta",
                 "content.done", "refusal.delta", "tool_calls.function.arguments.delta",
                 "logprobs.content.delta"):
        assert raw_event(Ev(kind)) is None
        assert raw_event({"type": kind}) is None
    chunk = {"choices": []}
    assert raw_event(Ev("chunk", chunk=chunk)) is chunk
    for kind in ("message_start", "content_block_delta", "content_block_stop",
                 "response.output_text.delta"):
        ev = Ev(kind)
        assert raw_event(ev) is ev
    plain = {"candidates": []}
    assert raw_event(plain) is plain


@pytest.mark.parametrize("bad", [None, 3, "text", b"x", {"choices": []}])
def test_type_errors(bad: Any) -> None:
    # W2: bad input is a TypeError naming the argument
    with pytest.raises(TypeError, match="stream"):
        stream_deltas(bad)
    with pytest.raises(TypeError, match="stream"):
        astream_deltas(bad)


def test_sync_async_mixups() -> None:
    async def agen() -> AsyncIterator[Any]:
        yield {}

    with pytest.raises(TypeError, match="astream_deltas"):
        stream_deltas(agen())
    with pytest.raises(TypeError, match="stream_deltas"):
        astream_deltas(iter([]))


def test_bad_options_enter_nothing() -> None:
    # W2: options are checked before a manager is entered
    entered: list[str] = []

    class Manager:
        def __enter__(self) -> Any:
            entered.append("in")
            return iter(EVENTS)

        def __exit__(self, *a: Any) -> None:
            entered.append("out")

    with pytest.raises(TypeError, match="nope"):
        stream_deltas(Manager(), nope=1)
    with pytest.raises(ValueError, match="preset"):
        stream_deltas(Manager(), preset="no-such")
    assert entered == []
    stream = stream_deltas(Manager(), preset="deepseek-r1")
    assert "".join(d.visible for d in stream) == "Hello"
    assert entered == ["in", "out"]


def test_error_event_propagates_and_stream_stays_usable() -> None:
    # W2: a malformed event raises the normaliser's error from __next__
    from thinkparse import ResponseShapeError

    stream = stream_deltas([EVENTS[0], {"choices": [{"delta": {"content": 5}}]}, EVENTS[2]])
    assert next(stream) == Delta("", "pl")
    with pytest.raises(ResponseShapeError):
        next(stream)
    assert list(stream) == [Delta("", "lo")]




# --- properties ------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = st.sampled_from(["<think>", "</think>", "<th", "ink>", "</", "a", " b", "\n", "`"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(PIECES, max_size=4).map("".join), max_size=8), st.booleans())
def test_deltas_join_to_the_normalizer_result(contents: list[str], opened: bool) -> None:
    # W2: the yielded deltas are the StreamNormalizer's non-empty deltas for the same events,
    # and .result is its result
    events = [{"choices": [{"index": 0, "delta": {"content": c}}]} for c in contents]
    stream = stream_deltas(events, start_in_reasoning=opened)
    deltas = list(stream)
    reference = StreamNormalizer(start_in_reasoning=opened)
    expected = [reference.feed(e) for e in events]
    expected.append(reference.close())
    assert deltas == [d for d in expected if d.visible or d.reasoning]
    assert stream.result == reference.result


@pytest.mark.parametrize("name", ["stream_summary_with_done_events", "stream_raw_reasoning_text",
                                  "stream_encrypted_reasoning"])
def test_openai_responses_stream(server: SSEServer, name: str) -> None:
    # W2: responses.create(stream=True) and the responses.stream() helper, sync and async
    openai = pytest.importorskip("openai")
    case = load_json(DATA / f"openai_responses/{name}.json")
    server.body = _sse(case["events"], named=True, done=False)
    kw: dict[str, Any] = {"model": "o4-mini", "input": "Hi"}
    base = f"http://127.0.0.1:{server.port}/v1"
    client = openai.OpenAI(base_url=base, api_key="x", timeout=TIMEOUT, max_retries=0)
    stream = stream_deltas(client.responses.create(**kw, stream=True))
    _check(_collect(stream), stream.result, case, stream.message)
    assert server.requests[-1][0] == "/v1/responses"
    if name == "stream_summary_with_done_events":
        # the helper rebuilds the response and needs every *.added event, which the other
        # recordings leave out
        with client.responses.stream(**kw) as helper:
            stream = stream_deltas(helper)
            _check(_collect(stream), stream.result, case, stream.message)

    async def go() -> None:
        aclient = openai.AsyncOpenAI(base_url=base, api_key="x", timeout=TIMEOUT, max_retries=0)
        astream = astream_deltas(aclient.responses.create(**kw, stream=True))
        _check(await _acollect(astream), astream.result, case, astream.message)
        await aclient.close()

    run(go())


def _outcome(stream: Any) -> Any:
    try:
        return ("value", stream.message)
    except Exception as exc:  # the message builder's own error is compared as such
        return ("error", type(exc), str(exc))


def test_message_is_the_normalizers(server: SSEServer) -> None:
    # W2, X2: after the loop, .message is StreamNormalizer.message for the same wire events
    # (the recorded dicts), for each SDK's stream objects
    anthropic_client, anthropic_case = _anthropic(server, "stream_thinking_text")
    with anthropic_client.messages.stream(**AKW) as helper:
        stream = stream_deltas(helper)
        list(stream)
    runs = [(stream, anthropic_case)]
    openai_client, openai_case = _openai(server, "stream_deepseek_reasoning_content")
    stream = stream_deltas(openai_client.chat.completions.create(**KW, stream=True))
    list(stream)
    runs.append((stream, openai_case))
    for delta_stream, case in runs:
        reference = StreamNormalizer()
        for event in case["events"]:
            reference.feed(event)
        reference.close()
        assert _outcome(delta_stream) == _outcome(reference)
        assert _outcome(delta_stream)[0] == "value"
    assert runs[0][0].message == {
        "role": "assistant",
        "content": [
            {"type": "thinking",
             "thinking": "I need to find the GCD of 1071 and 462. Euclid gives 21.",
             "signature": "X8QpjvNYvSKH7FG2G4DlSq8Ued5DqA1y1zyhBmvQNZr/ZMkuk/hdwieM8Va7IIXq"},
            {"type": "text", "text": "The GCD of 1071 and 462 is 21."},
        ],
    }
    empty = stream_deltas([])
    assert list(empty) == []
    with pytest.raises(ValueError):
        empty.message  # noqa: B018  (no event decided the family)


def test_model_preset_through_the_client(server: SSEServer) -> None:
    # W2, P13: the stream names its model; its preset (minimax: template-opened) applies
    # without any option, and an explicit option wins
    openai = pytest.importorskip("openai")
    head = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "MiniMax-M2"}
    pieces = ["This is a reason", "ing section</th", "ink>This is the rest"]
    server.body = _sse([{**head, "choices": [{"index": 0, "delta": {"content": p},
                                              "finish_reason": None}]} for p in pieces])
    client = openai.OpenAI(base_url=f"http://127.0.0.1:{server.port}/v1", api_key="x",
                           timeout=TIMEOUT, max_retries=0)
    stream = stream_deltas(client.chat.completions.create(**KW, stream=True))
    list(stream)
    assert (stream.result.visible, stream.result.reasoning) == (
        "This is the rest", "This is a reasoning section")
    stream = stream_deltas(client.chat.completions.create(**KW, stream=True), tags=["think"])
    list(stream)
    assert stream.result.reasoning is None


def test_choice_option() -> None:
    # W2, W4: choice= selects among n>1 choices
    events = [{"choices": [{"index": 0, "delta": {"content": "<think>a</think>A"}},
                           {"index": 1, "delta": {"content": "<think>b</think>B"}}]}]
    stream = stream_deltas(events, choice=1)
    assert list(stream) == [Delta("B", "b")]
    assert stream.result.visible == "B"


def test_client_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    # the client adapter benchmark stays runnable (its numbers are in benchmarks/RESULTS.md)
    import importlib.util

    from _support import ROOT

    spec = importlib.util.spec_from_file_location("bench_clients",
                                                  ROOT / "benchmarks" / "bench_clients.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "stream_deltas" in out and "wrap rewriter" in out
