"""Multi-turn tool loops with the real ``anthropic`` and ``openai`` clients against the strict
replay server (X2, X4).  The application code builds every next request with thinkparse only:
``normalize`` / ``StreamNormalizer``, ``to_message`` and ``ReasoningContext.attach``.  The naive
way, keeping only the text and the tool calls, is refused by the server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from replay_client import serve
from replay_server import ReplayServer

from thinkparse import ReasoningContext, StreamNormalizer, normalize, to_message

anthropic = pytest.importorskip("anthropic")
openai = pytest.importorskip("openai")

THINK = {"type": "enabled", "budget_tokens": 2048}
USER = {"role": "user", "content": "Weather in Paris?"}
MODES = ["to_message", "context"]
CALLS = [(False, False), (False, True), (True, False), (True, True)]  # (async, stream)


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    for s in serve():
        s.rounds = 2
        yield s


async def _close(client: Any) -> None:
    result = client.close()
    if asyncio.iscoroutine(result):
        await result


def _feed(events: Any) -> tuple[Any, Any]:
    sn = StreamNormalizer()
    for ev in events:
        sn.feed(ev)
    sn.close()
    return sn.result, sn.message


async def _afeed(events: Any) -> tuple[Any, Any]:
    sn = StreamNormalizer()
    async for ev in events:
        sn.feed(ev)
    sn.close()
    return sn.result, sn.message


# --- Anthropic -------------------------------------------------------------------------------
def _anthropic_next(messages: list[Any], msg: dict[str, Any], ex: Any, mode: str) -> None:
    uses = [b for b in msg["content"] if b["type"] == "tool_use"]
    if mode == "to_message":
        messages.append(msg)
    else:  # what a text-only application keeps
        messages.append({"role": "assistant", "content": [{"type": "text", "text": ex.visible},
                                                          *uses]})
    messages.append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": u["id"], "content": "16 °C"} for u in uses]})


def anthropic_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> Any:
    return asyncio.run(_anthropic_loop(server, is_async, stream, mode))


async def _anthropic_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> Any:
    ctx = ReasoningContext()
    messages: list[Any] = [USER]
    kw: dict[str, Any] = {"base_url": server.base_url, "api_key": "k", "max_retries": 0}
    if is_async:
        aclient = closer = anthropic.AsyncAnthropic(**kw)

        async def call(req: dict[str, Any]) -> tuple[Any, Any]:
            if stream:
                return await _afeed(await aclient.messages.create(**req, stream=True))
            r = await aclient.messages.create(**req)
            return normalize(r), to_message(r)
    else:
        client = closer = anthropic.Anthropic(**kw)

        async def call(req: dict[str, Any]) -> tuple[Any, Any]:
            if stream:
                return _feed(client.messages.create(**req, stream=True))
            r = client.messages.create(**req)
            return normalize(r), to_message(r)

    try:
        for _ in range(server.rounds + 1):
            req = {"model": "claude-x", "max_tokens": 64, "thinking": THINK, "messages": messages}
            if mode == "context":
                req = ctx.attach(req)
            ex, msg = await call(req)
            ctx.update(ex)
            if ex.finish_reason != "tool_use":
                return ex
            _anthropic_next(messages, msg, ex, mode)
        raise AssertionError("the loop did not finish")
    finally:
        await _close(closer)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("is_async", "stream"), CALLS)
def test_anthropic_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> None:
    ex = anthropic_loop(server, is_async, stream, mode)
    assert ex.visible == "It is 16 °C in Paris."
    assert ex.reasoning == server.text(3)
    assert server.violations == []
    assert len(server.requests) == 3


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_naive_gets_400(server: ReplayServer, stream: bool) -> None:
    with pytest.raises(anthropic.BadRequestError, match="Expected `thinking` or"):
        anthropic_loop(server, False, stream, "naive")
    assert server.violations == ["anthropic.final_starts_with_thinking"]


# --- OpenAI Responses -------------------------------------------------------------------------
def responses_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str,
                   store: bool) -> Any:
    return asyncio.run(_responses_loop(server, is_async, stream, mode, store))


async def _responses_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str,
                          store: bool) -> Any:
    ctx = ReasoningContext()
    items: list[Any] = [USER]
    extra: dict[str, Any] = {} if store else {
        "store": False, "include": ["reasoning.encrypted_content"]}
    kw: dict[str, Any] = {"base_url": server.base_url + "/v1", "api_key": "k", "max_retries": 0}
    client = closer = (openai.AsyncOpenAI if is_async else openai.OpenAI)(**kw)

    async def acall(req: dict[str, Any]) -> tuple[Any, Any]:
        if stream:
            return await _afeed(await client.responses.create(**req, stream=True))
        r = await client.responses.create(**req)
        return normalize(r), to_message(r)

    def call(req: dict[str, Any]) -> tuple[Any, Any]:
        if stream:
            return _feed(client.responses.create(**req, stream=True))
        r = client.responses.create(**req)
        return normalize(r), to_message(r)

    try:
        for _ in range(server.rounds + 1):
            req = {"model": "gpt-5", "input": items, **extra}
            if mode == "context":
                req = ctx.attach(req)
            ex, msg = await acall(req) if is_async else call(req)
            ctx.update(ex)
            calls = [i for i in msg if i.get("type") == "function_call"]
            if not calls:
                return ex
            items.extend(msg if mode == "to_message" else calls)
            items.extend({"type": "function_call_output", "call_id": c["call_id"], "output": "16"}
                         for c in calls)
        raise AssertionError("the loop did not finish")
    finally:
        await _close(closer)


@pytest.mark.parametrize("store", [True, False])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("is_async", "stream"), CALLS)
def test_responses_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str,
                        store: bool) -> None:
    ex = responses_loop(server, is_async, stream, mode, store)
    assert ex.visible == "It is 16 °C in Paris."
    assert server.violations == []
    assert len(server.requests) == 3


def test_responses_naive_gets_400(server: ReplayServer) -> None:
    with pytest.raises(openai.BadRequestError, match="without its required 'reasoning' item"):
        responses_loop(server, False, False, "naive", True)
    assert server.violations == ["responses.reasoning_required"]


def test_responses_stateless_naive_loses_the_reasoning(server: ReplayServer) -> None:
    # with store: false the message items carry no ids, so the API cannot tell; the reasoning
    # is silently lost, where attach puts the encrypted items back
    def sent_reasoning() -> list[Any]:
        return [i["id"] for i in server.requests[-1][1]["input"] if i.get("type") == "reasoning"]

    responses_loop(server, False, False, "naive", False)
    assert sent_reasoning() == []
    responses_loop(server, False, False, "context", False)
    assert len(sent_reasoning()) == 2
    assert server.violations == []


# --- OpenAI Chat, DeepSeek style -----------------------------------------------------------------
def chat_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> Any:
    return asyncio.run(_chat_loop(server, is_async, stream, mode))


async def _chat_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> Any:
    ctx = ReasoningContext(max_segments=None)  # DeepSeek needs every tool-call turn
    messages: list[Any] = [USER]
    kw: dict[str, Any] = {"base_url": server.base_url + "/v1", "api_key": "k", "max_retries": 0}
    client = closer = (openai.AsyncOpenAI if is_async else openai.OpenAI)(**kw)

    async def acall(req: dict[str, Any]) -> tuple[Any, Any]:
        if stream:
            return await _afeed(await client.chat.completions.create(**req, stream=True))
        r = await client.chat.completions.create(**req)
        return normalize(r), to_message(r)

    def call(req: dict[str, Any]) -> tuple[Any, Any]:
        if stream:
            return _feed(client.chat.completions.create(**req, stream=True))
        r = client.chat.completions.create(**req)
        return normalize(r), to_message(r)

    try:
        for _ in range(server.rounds + 1):
            req = {"model": "deepseek-v4-pro", "messages": messages}
            if mode == "context":
                req = ctx.attach(req)
            ex, msg = await acall(req) if is_async else call(req)
            ctx.update(ex)
            if not msg.get("tool_calls"):
                return ex
            if mode == "to_message":
                messages.append(msg)
            else:
                messages.append({"role": "assistant", "content": ex.visible,
                                 "tool_calls": msg["tool_calls"]})
            messages.extend({"role": "tool", "tool_call_id": c["id"], "content": "16"}
                            for c in msg["tool_calls"])
        raise AssertionError("the loop did not finish")
    finally:
        await _close(closer)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("is_async", "stream"), CALLS)
def test_chat_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> None:
    ex = chat_loop(server, is_async, stream, mode)
    assert ex.visible == "It is 16 °C in Paris."
    assert server.violations == []


def test_chat_naive_gets_400(server: ReplayServer) -> None:
    with pytest.raises(openai.BadRequestError, match="reasoning_content"):
        chat_loop(server, False, True, "naive")
    assert server.violations == ["chat.reasoning_content_required"]


def test_chat_request_bodies_carry_the_reasoning_verbatim(server: ReplayServer) -> None:
    chat_loop(server, False, True, "context")
    last = server.requests[-1][1]["messages"]
    assert [m.get("reasoning_content") for m in last if m["role"] == "assistant"] == [
        server.text(1), server.text(2)]
    assert json.dumps(last, ensure_ascii=False).count("Paris — step") == 2  # not re-encoded
