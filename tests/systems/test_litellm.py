"""``thinkparse.litellm`` (W5): the proxy's streaming hook with LiteLLM's real
``ModelResponseStream`` objects -- made by ``litellm.acompletion`` against a local
OpenAI-compatible server on 127.0.0.1, and built directly for every chunking -- the success hook
recording traces, and the SDK path (``normalize``, ``stream_deltas``) pinned.

``LITELLM_LOCAL_MODEL_COST_MAP`` is set by the conftest: no network at import.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest
from _support import require
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    PRESET_NAMES,
    BudgetTracker,
    TraceStore,
    astream_deltas,
    normalize,
    split_think,
    stream_deltas,
)
from thinkparse._env import REQUIRE_INTEGRATIONS

litellm = require("litellm", REQUIRE_INTEGRATIONS)
from litellm.types.utils import Delta, ModelResponseStream, StreamingChoices  # noqa: E402

from thinkparse.litellm import ThinkParseLogger, handler  # noqa: E402

#: Notices from inside LiteLLM on this pydantic: ReadOnly TypedDict items, and an attribute its
#: stream handler reads on an instance.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Items? .* using the `ReadOnly` qualifier"),
    pytest.mark.filterwarnings("ignore:Accessing the 'model_[a-z_]*' attribute on the instance"),
]

MSG = [{"role": "user", "content": "2+2?"}]
PIECES = ["<think>", "</think>", "<th", "ink>", "</", "plan", " ", "\n", "`", "[THINK]",
          "[/THINK]", "<reasoning>", "</reasoning>", "A", "<"]
OPTION_SETS: list[dict[str, Any]] = [
    {}, *({"preset": p} for p in PRESET_NAMES), {"tags": ["reasoning"]},
    {"delimiters": [("[T]", "[/T]")]}, {"start_in_reasoning": True}, {"code_aware": False},
    {"max_tentative": 3}, {"start_in_reasoning": True, "terminators": ["<tool_call>"]},
    {"answer": [("<final>", "</final>")]}, {"prompt": "<|im_start|>assistant\n<think>\n"},
]


def _call(server: Any, model: str = "openai/Qwen/Qwen3-32B", **kwargs: Any) -> dict[str, Any]:
    return {"model": model, "api_base": server.base_url, "api_key": "-", "messages": MSG,
            "max_retries": 0, "timeout": 10, **kwargs}


def _chunk(content: Any = None, finish: Any = None, model: str = "m", **delta: Any) -> Any:
    choice = StreamingChoices(index=0, delta=Delta(content=content, **delta),
                              finish_reason=finish)
    return ModelResponseStream(id="c1", model=model, choices=[choice])


def _hook(logger: Any, chunks: list[Any], request: Any = None) -> list[Any]:
    async def source() -> Any:
        for chunk in chunks:
            yield chunk

    async def go() -> list[Any]:
        return [c async for c in logger.async_post_call_streaming_iterator_hook(
            None, source(), request or {"model": "m"})]

    return asyncio.run(go())


def _joined(chunks: list[Any]) -> tuple[str, Any]:
    visible, reasoning = [], []
    for chunk in chunks:
        for choice in chunk.choices:
            visible.append(choice.delta.content or "")
            reasoning.append(getattr(choice.delta, "reasoning_content", None) or "")
    return "".join(visible), "".join(reasoning) or None


def _run(coroutine: Any) -> Any:
    """``asyncio.run`` that closes LiteLLM's cached async clients inside the same loop."""
    async def main() -> Any:
        try:
            return await coroutine
        finally:
            await litellm.close_litellm_async_clients()

    return asyncio.run(main())


def _expected(text: str, **options: Any) -> tuple[str, Any]:
    split = split_think(text, **options)
    return split.visible, split.reasoning or None


# --- the proxy hook ------------------------------------------------------------------------------
def test_hook_on_a_real_litellm_stream(chat_server: Any) -> None:
    # W5: the stream through litellm.acompletion, then the proxy's iterator hook
    async def go() -> list[Any]:
        stream = await litellm.acompletion(**_call(chat_server), stream=True,
                                           stream_options={"include_usage": True})
        return [c async for c in handler.async_post_call_streaming_iterator_hook(
            None, stream, {"model": "qwen3"})]

    chunks = _run(go())
    assert all(type(c) is ModelResponseStream for c in chunks)
    got = [(c.choices[0].delta.content, getattr(c.choices[0].delta, "reasoning_content", None),
            c.choices[0].finish_reason) for c in chunks if c.choices]
    assert [g for g in got if g != (None, None, None)] == [  # role-only chunks: 1 or more
        (None, "plan", None), (None, " step", None), ("The answer", None, None),
        (" is 4.", None, None), (None, None, "stop")]
    assert chunks[-1].usage.total_tokens == 14
    first = next(c for c in chunks if getattr(c.choices[0].delta, "reasoning_content", None))
    wire = first.model_dump()["choices"][0]["delta"]
    assert (wire["content"], wire["reasoning_content"]) == (None, "plan")
    answer = next(c for c in chunks if c.choices and c.choices[0].delta.content)
    assert "reasoning_content" not in answer.model_dump()["choices"][0]["delta"]


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.lists(st.integers(0, 60), max_size=8),
       st.sampled_from(OPTION_SETS), st.booleans())
def test_hook_any_chunking(pieces: list[str], cuts: list[int], options: dict[str, Any],
                           finish: bool) -> None:
    # S1: real ModelResponseStream chunks cut anywhere give split_think's result
    text = "".join(pieces)
    bounds = [0, *sorted({c for c in cuts if 0 < c < len(text)}), len(text)]
    chunks = [_chunk(text[a:b]) for a, b in zip(bounds, bounds[1:])]
    if finish:
        chunks.append(_chunk(finish="stop"))
    out = _hook(ThinkParseLogger(**options), chunks)
    assert _joined(out) == _expected(text, **options)
    assert len(out) - len(chunks) in (0, 1)


def test_held_text_and_usage_chunks() -> None:
    # W5: a partial tag goes out with finish_reason, else in a copy before usage or at the end
    out = _hook(handler, [_chunk("Hi <thi"), _chunk(finish="stop")])
    assert [(c.choices[0].delta.content, c.choices[0].finish_reason) for c in out] == [
        ("Hi ", None), ("<thi", "stop")]
    usage = ModelResponseStream(id="c1", model="m", choices=[])
    out = _hook(handler, [_chunk("<think>a</think>Hi <thi", role="assistant"), usage])
    assert len(out) == 3 and out[2] is usage
    assert (out[1].id, out[1].model, out[1].choices[0].delta.content,
            out[1].choices[0].delta.role) == ("c1", "m", "<thi", None)
    assert _joined(out) == ("Hi <thi", "a")
    out = _hook(handler, [_chunk("<think>a</thi")])
    assert _joined(out) == ("", "a</thi") == _expected("<think>a</thi") and len(out) == 2


def test_choices_have_their_own_scanners() -> None:
    # W5: n > 1: one scanner per choice index, chunks interleaved
    def two(a: str, b: str, finish: Any = None) -> Any:
        return ModelResponseStream(id="c1", model="m", choices=[
            StreamingChoices(index=i, delta=Delta(content=t), finish_reason=finish)
            for i, t in enumerate((a, b))])

    out = _hook(handler, [two("<thi", "<think>y"), two("nk>x</th", "</think>"),
                          two("ink>A", "B"), two("", "", "stop")])
    got = [("", ""), ("", "")]
    for chunk in out:
        for c in chunk.choices:
            v, r = got[c.index]
            got[c.index] = (v + (c.delta.content or ""),
                            r + (getattr(c.delta, "reasoning_content", None) or ""))
    assert got == [("A", "x"), ("B", "y")]


def test_server_reasoning_and_other_items_pass_through() -> None:
    # W5: a choice with reasoning_content passes untouched; non-chunk items are left alone
    chunks = [_chunk("Hi <th"), _chunk("ink>", reasoning_content="r"), _chunk("<think>x")]
    out = _hook(handler, chunks)
    assert [(c.choices[0].delta.content, getattr(c.choices[0].delta, "reasoning_content", None))
            for c in out] == [("Hi ", None), ("<think>", "r"), ("<think>x", None)]
    raw = [b"event: message_start\n\n", "data: {}\n\n"]
    assert _hook(handler, raw) == raw


def test_preset_from_the_model_and_explicit_options() -> None:
    # P13: the chunk's model picks the preset; an explicit option wins
    chunks = [_chunk("plan</th", model="deepseek-ai/DeepSeek-R1"), _chunk("ink>4", finish="stop")]
    assert _joined(_hook(handler, chunks)) == ("4", "plan")
    chunks = [_chunk("plan</th", model="deepseek-ai/DeepSeek-R1"), _chunk("ink>4", finish="stop")]
    assert _joined(_hook(ThinkParseLogger(start_in_reasoning=False), chunks)) == ("plan4", None)
    chunks = [_chunk("[THINK]h[/THINK]B", model="")]
    assert _joined(_hook(handler, chunks, {"model": "magistral-medium-latest"})) == ("B", "h")


def test_proxy_resolves_the_config_name() -> None:
    # W5: "callbacks: thinkparse.litellm.handler" resolves to the module's instance
    from litellm.integrations.custom_logger import CustomLogger
    from litellm.proxy.types_utils.utils import get_instance_fn

    assert get_instance_fn("thinkparse.litellm.handler") is handler
    assert isinstance(handler, CustomLogger)


# --- traces ---------------------------------------------------------------------------------------
SECRET = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2"


def test_success_hooks_record_traces(chat_server: Any) -> None:
    # D2, D5, B1: a configured logger stores each call masked and counts it
    chat_server.pieces = ["<think>the key is ", SECRET, "</think>Rotate it."]
    store = TraceStore(":memory:")
    budget = BudgetTracker(max_tokens_per_session=5)
    logger = ThinkParseLogger(store=store, session_key="s1",
                              run_id=lambda kwargs: f"run-{kwargs['model']}", budget=budget)
    reply = litellm.completion(**_call(chat_server))
    logger.log_success_event({"model": "Qwen/Qwen3-32B"}, reply, None, None)

    async def go() -> Any:
        stream = await litellm.acompletion(**_call(chat_server), stream=True)
        chunks = [c async for c in stream]
        whole = litellm.stream_chunk_builder(chunks)
        await logger.async_log_success_event({"model": "Qwen/Qwen3-32B"}, whole, None, None)

    _run(go())
    traces = sorted(store.query(session_key="s1"), key=lambda t: t.created_at)
    assert [(t.reasoning_text, t.model, t.run_id) for t in traces] == [
        ("the key is [REDACTED:openai]", "Qwen/Qwen3-32B", "run-Qwen/Qwen3-32B")] * 2
    assert sorted(logger.trace_ids) == sorted(t.id for t in traces)
    assert [e.type for e in logger.events] == ["reasoning_budget_warning",
                                               "reasoning_budget_exceeded"]
    handler.log_success_event({}, reply, None, None)  # no store: nothing recorded
    assert handler.trace_ids == []


def test_sdk_callback_records(chat_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # D5: registered in litellm.callbacks, the SDK calls the sync success hook
    store = TraceStore(":memory:")
    logger = ThinkParseLogger(store=store, session_key="s", run_id="r")
    monkeypatch.setattr(litellm, "callbacks", [logger])
    litellm.completion(**_call(chat_server))
    for _ in range(100):
        if logger.trace_ids:
            break
        import time

        time.sleep(0.05)
    assert [(t.reasoning_text, t.model) for t in store.query()] == [("plan step", "Qwen/Qwen3-32B")]


def test_bad_arguments() -> None:
    # A3: options checked at construction; a store needs its keys
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        ThinkParseLogger(colour=1)
    with pytest.raises(ValueError, match="start_in_reasoning"):
        ThinkParseLogger(start_in_reasoning="auto")
    with pytest.raises(TypeError, match="session_key must be a non-empty str or a callable"):
        ThinkParseLogger(store=TraceStore(":memory:"), run_id="r")
    with pytest.raises(TypeError, match="store must be a TraceStore"):
        ThinkParseLogger(store="db", session_key="s", run_id="r")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="budget needs a store"):
        ThinkParseLogger(budget=BudgetTracker())


def test_import_names_the_extra() -> None:
    # W5: without litellm the error names the extra; import thinkparse never imports litellm
    code = ("import sys, thinkparse\nassert 'litellm' not in sys.modules\n"
            "sys.modules['litellm'] = None\n"
            "try:\n    import thinkparse.litellm\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "thinkparse.litellm needs litellm: pip install 'thinkparse[litellm]'\n"


# --- the SDK path, pinned -------------------------------------------------------------------------
def test_sdk_plain_and_streamed(chat_server: Any) -> None:
    # P7, P9, W2: normalize(ModelResponse), stream_deltas over CustomStreamWrapper, and async
    reply = litellm.completion(**_call(chat_server))
    x = normalize(reply)
    assert (x.visible, x.reasoning, x.usage.total_tokens) == ("The answer is 4.", "plan step", 14)
    deltas = stream_deltas(litellm.completion(**_call(chat_server), stream=True))
    assert [(d.visible, d.reasoning) for d in deltas] == [
        ("", "plan"), ("", " step"), ("The answer", ""), (" is 4.", "")]
    assert (deltas.result.visible, deltas.result.reasoning) == ("The answer is 4.", "plan step")

    async def go() -> Any:
        stream = await litellm.acompletion(**_call(chat_server, "openai/deepseek-r1"),
                                           stream=True)
        adeltas = astream_deltas(stream)
        return [tuple(d) async for d in adeltas], adeltas.result

    chat_server.pieces = ["plan</th", "ink>4"]
    got, result = _run(go())
    assert "".join(v for v, _ in got) == "4" and result.reasoning == "plan"  # P13
