"""``thinkparse.langchain`` (W5) with langchain-core's real classes and ``ChatOpenAI`` against a
local OpenAI-compatible server on 127.0.0.1.

``FakeListChatModel`` streams one character at a time and ``GenericFakeChatModel`` one word at a
time; ``ChatOpenAI`` streams the server's pieces, tags cut across them.  Every split is compared
with ``split_think`` on the same text (S1).
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

from thinkparse import PRESET_NAMES, BudgetTracker, TraceStore, split_think
from thinkparse._env import REQUIRE_INTEGRATIONS

require("langchain_core", REQUIRE_INTEGRATIONS)
from langchain_core.language_models import (  # noqa: E402
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage  # noqa: E402
from langchain_core.output_parsers import JsonOutputParser, StrOutputParser  # noqa: E402

from thinkparse.langchain import ThinkSplitter, TraceStoreCallback  # noqa: E402

TEXT = "<think>plan step</think>The answer is 4."

#: Option sets: none, every preset, and each scanner option (W4).
OPTION_SETS: list[dict[str, Any]] = [
    {},
    *({"preset": name} for name in PRESET_NAMES),
    {"tags": ["reasoning", "think"]},
    {"tags": "thought"},
    {"delimiters": [("[T]", "[/T]")]},
    {"start_in_reasoning": True},
    {"code_aware": False},
    {"max_tentative": 3},
    {"preset": "deepseek-r1", "start_in_reasoning": False},
    {"start_in_reasoning": True, "terminators": ["<tool_call>"]},  # F2
    {"answer": [("<final>", "</final>")]},  # F3
    {"prompt": "<|im_start|>assistant\n<think>\n"},  # F4
]
PIECES = ["<think>", "</think>", "<th", "ink>", "</", "think", ">", "plan", "A", " ", "\n",
          "`", "```", "[T]", "[/T]", "[THINK]", "[/THINK]", "<reasoning>", "</reasoning>",
          "<thought/>", "◁think▷", "◁/think▷", "<seed:think>", "</seed:think>", "<"]


def _chat_openai(server: Any, model: str = "Qwen/Qwen3-32B", **kwargs: Any) -> Any:
    openai_mod = require("langchain_openai", REQUIRE_INTEGRATIONS)
    return openai_mod.ChatOpenAI(model=model, base_url=server.base_url, api_key="-",
                                 max_retries=0, timeout=10, **kwargs)


def _joined(chunks: list[Any]) -> tuple[str, Any]:
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total.content, total.additional_kwargs.get("reasoning_content")


def _expected(text: str, **options: Any) -> tuple[str, Any]:
    split = split_think(text, **options)
    return split.visible, split.reasoning or None


def _chunks(text: str, cuts: list[int]) -> list[Any]:
    bounds = [0, *sorted(set(c for c in cuts if 0 < c < len(text))), len(text)]
    return [AIMessageChunk(content=text[a:b], id="run-1") for a, b in zip(bounds, bounds[1:])]


# --- ChatOpenAI against the local server ---------------------------------------------------------
def test_chat_openai_invoke_stream_and_parsers(chat_server: Any) -> None:
    # W5: the stream, tags cut across chunks; plain and streamed, then parsers
    llm = _chat_openai(chat_server)
    chain = llm | ThinkSplitter()
    reply = chain.invoke("2+2?")
    assert type(reply) is AIMessage
    assert (reply.content, reply.additional_kwargs["reasoning_content"]) == (
        "The answer is 4.", "plan step")
    assert reply.content_blocks == [{"type": "reasoning", "reasoning": "plan step"},
                                    {"type": "text", "text": "The answer is 4."}]
    assert reply.response_metadata["model_provider"] == "openai"
    assert reply.response_metadata["model_name"] == "Qwen/Qwen3-32B"
    assert reply.usage_metadata["total_tokens"] == 14
    chunks = list(chain.stream("2+2?"))
    assert all(type(c) is AIMessageChunk for c in chunks)
    got = [(c.content, c.additional_kwargs.get("reasoning_content")) for c in chunks]
    assert got[:5] == [("", None), ("", "plan"), ("", " step"), ("The answer", None),
                       (" is 4.", None)]
    assert set(got[5:]) == {("", None)}  # the finish and closing chunks (their number varies)
    assert _joined(chunks) == ("The answer is 4.", "plan step")
    assert chunks[1].content_blocks == [{"type": "reasoning", "reasoning": "plan"}]
    assert (llm | ThinkSplitter() | StrOutputParser()).invoke("2+2?") == "The answer is 4."
    chat_server.pieces = ["<th", "ink>a JSON object", "</think>", '{"answer"', ": 4}"]
    json_chain = llm | ThinkSplitter() | JsonOutputParser()
    assert json_chain.invoke("2+2?") == {"answer": 4}
    assert list(json_chain.stream("2+2?"))[-1] == {"answer": 4}


def test_chat_openai_async_and_batch(chat_server: Any) -> None:
    # W5: ainvoke, astream, batch, abatch give the same split
    import httpx

    want = ("The answer is 4.", "plan step")

    async def go() -> tuple[Any, list[Any], list[Any]]:
        async with httpx.AsyncClient() as http:
            chain = _chat_openai(chat_server, http_async_client=http) | ThinkSplitter()
            one = await chain.ainvoke("2+2?")
            chunks = [c async for c in chain.astream("2+2?")]
            many = await chain.abatch(["a", "b"])
        return one, chunks, many

    one, chunks, many = asyncio.run(go())
    assert (one.content, one.additional_kwargs["reasoning_content"]) == want
    assert _joined(chunks) == want
    assert [(m.content, m.additional_kwargs["reasoning_content"]) for m in many] == [want] * 2
    batch = (_chat_openai(chat_server) | ThinkSplitter()).batch(["a", "b"])
    assert [(m.content, m.additional_kwargs["reasoning_content"]) for m in batch] == [want] * 2


def test_chat_openai_model_name_selects_the_preset(chat_server: Any) -> None:
    # P13: DeepSeek-R1's template opens the block, the reply holds only </think>
    chat_server.pieces = ["plan</th", "ink>4"]
    reply = (_chat_openai(chat_server, "deepseek-ai/DeepSeek-R1") | ThinkSplitter()).invoke("q")
    assert (reply.content, reply.additional_kwargs["reasoning_content"]) == ("4", "plan")
    other = (_chat_openai(chat_server, "gpt-local") | ThinkSplitter()).invoke("q")
    assert (other.content, other.additional_kwargs) == ("plan4", {"refusal": None})
    explicit = ThinkSplitter(start_in_reasoning=False)
    reply = (_chat_openai(chat_server, "deepseek-ai/DeepSeek-R1") | explicit).invoke("q")
    assert reply.content == "plan4"  # an explicit option wins
    # ChatOpenAI names the model in its last chunk only: a stream needs the preset given
    chain = _chat_openai(chat_server, "deepseek-ai/DeepSeek-R1") | ThinkSplitter(
        preset="deepseek-r1")
    assert _joined(list(chain.stream("q"))) == ("4", "plan")


def test_server_that_separates_reasoning_is_passed_through() -> None:
    # W5: reasoning already in additional_kwargs (ChatDeepSeek, ChatOllama...) is kept
    message = AIMessage("<think>x</think>4", additional_kwargs={"reasoning_content": "r"},
                        response_metadata={"model_provider": "openai"})
    assert ThinkSplitter().invoke(message) is message
    assert message.content_blocks[0] == {"type": "reasoning", "reasoning": "r"}
    chunks = [AIMessageChunk(content="<th", id="1"), AIMessageChunk(
        content="ink>", additional_kwargs={"reasoning_content": "r"}, id="1"),
        AIMessageChunk(content="</think>A", id="1")]
    out = list(ThinkSplitter().transform(iter(chunks)))
    assert [(c.content, c.additional_kwargs.get("reasoning_content")) for c in out] == [
        ("", None), ("<th", None), ("ink>", "r"), ("</think>A", None)]
    assert out[2] is chunks[1] and out[3] is chunks[2]


# --- the fake chat models ------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=repr)
def test_fake_list_model_streams_char_by_char(options: dict[str, Any]) -> None:
    # S1, W4: one character per chunk, every preset and option: the split_think result
    texts = ["<think>plan step</think>The answer is 4.", "plan</think>\n\nDone.",
             "[THINK]hmm[/THINK]Bonjour", "Use `<think>` in code, it stays.",
             "<reasoning>r</reasoning>x<thought/>y", "◁think▷k◁/think▷v", "Hi <thi"]
    llm = FakeListChatModel(responses=texts)
    chain = llm | ThinkSplitter(**options)
    for text in texts:
        chunks = list(chain.stream("q"))
        assert _joined(chunks) == _expected(text, **options), text
    for text in texts:
        reply = chain.invoke("q")
        assert (reply.content, reply.additional_kwargs.get("reasoning_content")) == _expected(
            text, **options)


def test_generic_fake_model_keeps_ids_tool_calls_and_metadata() -> None:
    # W5: tool calls, ids, response_metadata and usage_metadata are the message's own
    message = AIMessage(
        content="<think>call the tool</think>Calling.", id="msg-1",
        tool_calls=[{"name": "add", "args": {"a": 2}, "id": "call-1", "type": "tool_call"}],
        response_metadata={"model_name": "qwen3-32b", "finish_reason": "tool_calls"},
        usage_metadata={"input_tokens": 3, "output_tokens": 5, "total_tokens": 8})
    out = ThinkSplitter().invoke(message)
    assert out.content == "Calling."
    assert out.additional_kwargs == {"reasoning_content": "call the tool"}
    assert (out.id, out.tool_calls, out.response_metadata, out.usage_metadata) == (
        message.id, message.tool_calls, message.response_metadata, message.usage_metadata)
    assert message.content == "<think>call the tool</think>Calling."  # not changed
    assert out.content_blocks[0] == {"type": "reasoning", "reasoning": "call the tool"}
    llm = GenericFakeChatModel(messages=iter([AIMessage("<think>a b</think>c d", id="m2")]))
    chunks = list((llm | ThinkSplitter()).stream("q"))
    assert [c.content for c in chunks] == ["", "", "c", " ", "d"]
    assert _joined(chunks) == ("c d", "a b")
    assert {c.id for c in chunks} == {"m2"}
    assert chunks[-1].chunk_position == "last"


def test_held_text_is_released() -> None:
    # W5: a partial tag goes out with the chunk marked last, else in one more chunk
    chunks = [AIMessageChunk(content="Hi <", id="r"), AIMessageChunk(content="thi", id="r")]
    out = list(ThinkSplitter().transform(iter(chunks)))
    assert [c.content for c in out] == ["Hi ", "", "<thi"]
    assert out[-1].id == "r"
    chunks[-1] = AIMessageChunk(content="thi", id="r", chunk_position="last")
    out = list(ThinkSplitter().transform(iter(chunks)))
    assert [c.content for c in out] == ["Hi ", "<thi"]
    assert out[-1].chunk_position == "last"
    assert list(ThinkSplitter().transform(iter(["Hi <", "thi"]))) == ["Hi ", "", "<thi"]


def test_list_content_and_strings() -> None:
    # W5: text blocks of list content go through one scanner; a str gives its visible text
    message = AIMessage(content=[{"type": "text", "text": "<think>a</th"},
                                 {"type": "image_url", "image_url": {"url": "x"}},
                                 {"type": "text", "text": "ink>B"}])
    out = ThinkSplitter().invoke(message)
    assert out.content == [{"type": "text", "text": ""},
                           {"type": "image_url", "image_url": {"url": "x"}},
                           {"type": "text", "text": "B"}]
    assert out.additional_kwargs == {"reasoning_content": "a"}
    thinking = AIMessage(content=[{"type": "thinking", "thinking": "t"},
                                  {"type": "text", "text": "<think>x</think>"}])
    assert ThinkSplitter().invoke(thinking) is thinking
    assert ThinkSplitter().invoke(TEXT) == "The answer is 4."
    assert ThinkSplitter(preset="magistral").invoke("[THINK]h[/THINK]B") == "B"
    assert asyncio.run(ThinkSplitter().ainvoke(TEXT)) == "The answer is 4."
    plain = AIMessage("no markup")
    assert ThinkSplitter().invoke(plain) is plain


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.lists(st.integers(0, 80), max_size=8),
       st.sampled_from(OPTION_SETS))
def test_any_chunking_of_chunks_equals_the_whole_message(
    pieces: list[str], cuts: list[int], options: dict[str, Any]
) -> None:
    # S1: AIMessageChunks cut anywhere: split_think of the text, and the whole message's split
    text = "".join(pieces)
    chunks = _chunks(text, cuts) or [AIMessageChunk(content="", id="run-1")]
    splitter = ThinkSplitter(**options)
    out = list(splitter.transform(iter(chunks)))
    want = _expected(text, **options)
    assert _joined(out) == want
    whole = splitter.invoke(AIMessage(text))
    assert (whole.content, whole.additional_kwargs.get("reasoning_content")) == want

    async def go() -> list[Any]:
        async def source() -> Any:
            for chunk in chunks:
                yield chunk

        return [c async for c in splitter.atransform(source())]

    assert _joined(asyncio.run(go())) == want


# --- errors and imports --------------------------------------------------------------------------
def test_bad_input_raises_type_error() -> None:
    # A1, A3: a non-message, a message of another role, a mixed stream, bad options
    splitter = ThinkSplitter()
    for bad in (HumanMessage("<think>x</think>"), 42, None, {"content": "x"}):
        with pytest.raises(TypeError, match="ThinkSplitter takes an AIMessage"):
            splitter.invoke(bad)
    with pytest.raises(TypeError, match="a text item in a stream of chunks"):
        list(splitter.transform(iter([AIMessageChunk(content="a"), "b"])))
    with pytest.raises(TypeError, match="a message item in a stream of chunks"):
        list(splitter.transform(iter([AIMessageChunk(content="a"), AIMessage("b")])))
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        ThinkSplitter(colour="red")
    with pytest.raises(ValueError, match="start_in_reasoning"):
        ThinkSplitter(start_in_reasoning="auto")
    with pytest.raises(ValueError, match="preset"):
        ThinkSplitter(preset="nope")


def test_imports_are_lazy_and_name_the_extra() -> None:
    # W5: import thinkparse imports no framework; without langchain-core the error names the extra
    code = ("import sys, thinkparse, thinkparse.openai\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('langchain_core', 'litellm', 'langchain', 'openai')))\n"
            "sys.modules['langchain_core'] = None\n"
            "try:\n    import thinkparse.langchain\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == ("[]\nthinkparse.langchain needs langchain-core 1.0 or newer: "
                   "pip install 'thinkparse[langchain]'\n")


# --- the trace store callback --------------------------------------------------------------------
SECRET = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2"


def test_trace_store_callback_with_chat_openai(chat_server: Any) -> None:
    # D2, D5, B1, B2: each turn stored masked, counted in the budget; plain and streamed
    chat_server.pieces = ["<think>the key is ", SECRET, "</th", "ink>Rotate it."]
    store = TraceStore(":memory:")
    events: list[Any] = []
    budget = BudgetTracker(max_tokens_per_session=10, on_event=events.append)
    callback = TraceStoreCallback(store, session_key="s1", run_id="r1", budget=budget)
    llm = _chat_openai(chat_server, "Qwen/Qwen3-32B")
    reply = (llm | ThinkSplitter()).invoke("q", config={"callbacks": [callback]})
    assert reply.content == "Rotate it."
    chunks = list((llm | ThinkSplitter()).stream("q", config={"callbacks": [callback]}))
    assert _joined(chunks) == ("Rotate it.", f"the key is {SECRET}")
    traces = list(store.query(session_key="s1"))
    assert [(t.reasoning_text, t.model, t.run_id, t.provider, t.reasoning_tokens)
            for t in traces] == [("the key is [REDACTED:openai]", "Qwen/Qwen3-32B", "r1",
                                  "openai", 11)] * 2
    assert traces[0].total_tokens == 14
    assert sorted(t.id for t in traces) == sorted(callback.trace_ids)
    assert [e.type for e in events] == ["reasoning_budget_warning", "reasoning_budget_exceeded"]
    assert callback.events == events
    assert budget.used("s1") == 22


def test_trace_store_callback_with_fake_model_and_separated_reasoning() -> None:
    # D5, P13: the model's preset; reasoning already in reasoning_content is taken as it is
    store = TraceStore(":memory:")
    callback = TraceStoreCallback(store, session_key="s", run_id="r", preset="deepseek-r1")
    llm = FakeListChatModel(responses=["plan</think>4"])
    asyncio.run(llm.ainvoke("q", config={"callbacks": [callback]}))
    message = AIMessage("4", additional_kwargs={"reasoning_content": "given"},
                        response_metadata={"model_name": "deepseek-chat"})
    GenericFakeChatModel(messages=iter([message])).invoke("q", config={"callbacks": [callback]})
    got = sorted((t.reasoning_text, t.model, t.provider) for t in store.query())
    assert got == [("given", "deepseek-chat", "langchain"), ("plan", "unknown", "langchain")]
    with pytest.raises(TypeError, match="store must be a TraceStore"):
        TraceStoreCallback("db", session_key="s", run_id="r")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="session_key must not be empty"):
        TraceStoreCallback(store, session_key="", run_id="r")
    with pytest.raises(TypeError, match="unexpected keyword argument 'tag'"):
        TraceStoreCallback(store, session_key="s", run_id="r", tag="x")


def test_docstring_example() -> None:
    import doctest

    import thinkparse.langchain

    result = doctest.testmod(thinkparse.langchain)
    assert result.failed == 0 and result.attempted > 0
