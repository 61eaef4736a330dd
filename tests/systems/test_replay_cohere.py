"""Cohere Chat v2 tool loops with the real ``cohere`` client (``ClientV2`` / ``AsyncClientV2``,
``chat`` and ``chat_stream``) against the strict replay server (X2, X4), and the server's Cohere
rules themselves.  The application builds every next request with thinkparse only: ``normalize``
/ ``StreamNormalizer``, ``to_message`` and ``ReasoningContext.attach``.

Cohere needs no reasoning back (no signature, no documented error): the loop that keeps only the
text and the tool calls works, and silently drops the thinking; the server checks that what
thinkparse sends back is exactly what it issued."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from replay_client import post, serve
from replay_server import RULES, ReplayServer

from thinkparse import ReasoningContext, StreamNormalizer, normalize, to_message

cohere = pytest.importorskip("cohere")

USER = {"role": "user", "content": "Weather in Paris?"}
TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
MODES = ["to_message", "context"]
CALLS = [(False, False), (False, True), (True, False), (True, True)]  # (async, stream)


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    for s in serve():
        s.rounds = 2
        yield s


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


def cohere_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str,
                model: str = "command-a-reasoning-08-2025") -> Any:
    return asyncio.run(_cohere_loop(server, is_async, stream, mode, model))


async def _cohere_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str,
                       model: str) -> Any:
    ctx = ReasoningContext()
    messages: list[Any] = [USER]
    kw: dict[str, Any] = {"api_key": "k", "base_url": server.base_url}
    options = {"max_retries": 0}
    if is_async:
        aclient = cohere.AsyncClientV2(**kw)

        async def call(req: dict[str, Any]) -> tuple[Any, Any]:
            if stream:
                return await _afeed(aclient.chat_stream(**req, request_options=options))
            r = await aclient.chat(**req, request_options=options)
            return normalize(r), to_message(r)
    else:
        client = cohere.ClientV2(**kw)

        async def call(req: dict[str, Any]) -> tuple[Any, Any]:
            if stream:
                return _feed(client.chat_stream(**req, request_options=options))
            r = client.chat(**req, request_options=options)
            return normalize(r), to_message(r)

    for _ in range(server.rounds + 1):
        req = {"model": model, "messages": messages, "tools": TOOLS}
        if mode == "context":
            req = ctx.attach(req, provider="cohere")
        ex, msg = await call(req)
        ctx.update(ex)
        if ex.finish_reason != "TOOL_CALL":
            return ex
        if mode == "to_message":
            messages.append(msg)
        else:  # what a text-only application keeps: the text and the tool calls
            messages.append({"role": "assistant", "content": ex.visible,
                             "tool_calls": msg["tool_calls"]})
        messages.extend({"role": "tool", "tool_call_id": c["id"], "content": "16 °C"}
                        for c in msg["tool_calls"])
    raise AssertionError("the loop did not finish")


def _assistant_reasoning(server: ReplayServer) -> list[Any]:
    """What each assistant turn of the last request carried back: thinking items or tool_plan."""
    out = []
    for m in server.requests[-1][1]["messages"]:
        if m["role"] == "assistant":
            content = m.get("content")
            items = content if isinstance(content, list) else []
            out.append([i["thinking"] for i in items if i.get("type") == "thinking"]
                       or m.get("tool_plan"))
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("is_async", "stream"), CALLS)
def test_cohere_loop(server: ReplayServer, is_async: bool, stream: bool, mode: str) -> None:
    ex = cohere_loop(server, is_async, stream, mode)
    assert ex.visible == "It is 16 °C in Paris."
    assert ex.reasoning == server.text(3)
    assert ex.provider == "cohere" and ex.finish_reason == "COMPLETE"
    assert server.violations == []
    assert len(server.requests) == 3
    # every tool-call turn came back with its thinking item, byte for byte
    assert _assistant_reasoning(server) == [[server.text(1)], [server.text(2)]]
    assert json.dumps(server.requests[-1][1], ensure_ascii=False).count("Paris — step") == 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("stream", [False, True])
def test_cohere_tool_plan_loop(server: ReplayServer, stream: bool, mode: str) -> None:
    # a model without thinking plans its tool calls in tool_plan, which goes back as it came
    ex = cohere_loop(server, False, stream, mode, model="command-r-plus-08-2024")
    assert (ex.visible, ex.reasoning) == ("It is 16 °C in Paris.", None)
    assert server.violations == []
    assert _assistant_reasoning(server) == [server.text(1), server.text(2)]


def test_cohere_naive_loses_the_thinking(server: ReplayServer) -> None:
    # Cohere takes a history without reasoning; the thinking is then silently lost
    ex = cohere_loop(server, False, False, "naive")
    assert ex.visible == "It is 16 °C in Paris."
    assert server.violations == []
    assert _assistant_reasoning(server) == [None, None]


# --- the server's rules ---------------------------------------------------------------------
def _turn(server: ReplayServer, messages: list[Any]) -> dict[str, Any]:
    status, body = post(server, "/v2/chat", {"model": "command-a-reasoning-08-2025",
                                             "messages": messages})
    assert status == 200, body
    return body


def _error(server: ReplayServer, messages: list[Any]) -> str:
    status, body = post(server, "/v2/chat", {"model": "command-a-reasoning-08-2025",
                                             "messages": messages})
    assert status == 400 and set(body) == {"id", "message"}
    message: str = body["message"]
    return message


def test_cohere_rules(server: ReplayServer) -> None:
    server.rounds = 1
    turn = _turn(server, [USER])
    msg = turn["message"]
    assert turn["finish_reason"] == "TOOL_CALL" and msg["content"][0]["type"] == "thinking"
    call = msg["tool_calls"][0]
    result = {"role": "tool", "tool_call_id": call["id"], "content": "16"}
    final = _turn(server, [USER, msg, result])
    assert final["message"]["content"][-1] == {"type": "text", "text": server.answer}
    # documented errors (docs.cohere.com reference/errors)
    no_calls = {k: v for k, v in msg.items() if k != "tool_calls"}
    assert _error(server, [USER, no_calls, result]) == (
        "tool call id not found in previous tool calls")
    assert _error(server, [USER, msg, {"role": "tool", "content": "16"}]) == (
        "tool call id must be provided with tool message")
    assert _error(server, [USER, dict(msg, tool_calls=[dict(call, type="tool")]), result]) == (
        "tool call must be of type function")
    assert _error(server, [USER, dict(msg, tool_calls=[call, call]), result]) == (
        "cannot have duplicate tool ids")
    # the suite's own texts (undocumented by Cohere)
    bad_item = dict(msg, content=[{"type": "thinking", "thinking": None}])
    assert "messages[1].content[0]" in _error(server, [USER, bad_item, result])
    edited = dict(msg, content=[{"type": "thinking", "thinking": "edited"}])
    assert "content[0].thinking is not the reasoning" in _error(server, [USER, edited, result])
    assert "tool_plan is not the reasoning" in _error(
        server, [USER, dict(msg, tool_plan="invented"), result])
    # without the thinking the history is accepted (Cohere needs no reasoning back)
    _turn(server, [USER, {k: v for k, v in msg.items() if k != "content"}, result])
    assert server.violations == [
        "cohere.tool_result_matches", "cohere.tool_call_id_required", "cohere.tool_call_type",
        "cohere.duplicate_tool_ids", "cohere.content_item", "cohere.reasoning_verbatim",
        "cohere.reasoning_verbatim"]
    assert set(server.violations) <= set(RULES)


def test_cohere_sdk_raises_the_servers_error(server: ReplayServer) -> None:
    client = cohere.ClientV2(api_key="k", base_url=server.base_url)
    with pytest.raises(cohere.BadRequestError) as err:
        client.chat(model="command-a-reasoning-08-2025", messages=[
            USER, {"role": "tool", "tool_call_id": "nope", "content": "16"}],
            request_options={"max_retries": 0})
    assert err.value.body["message"] == "tool call id not found in previous tool calls"


def test_cohere_echo_parses_back(server: ReplayServer) -> None:
    # X2: a turn sent back with to_message parses back to the same blocks and message
    turn = _turn(server, [USER])
    ex = normalize(turn)
    msg = to_message(ex)
    result = {"role": "tool", "tool_call_id": msg["tool_calls"][0]["id"], "content": "16"}
    status, echoed = post(server, "/v2/chat", {"model": "command-a-reasoning-08-2025",
                                               "messages": [USER, msg, result]}, echo=True)
    assert status == 200
    back = normalize(echoed)
    assert back.blocks == ex.blocks
    assert [b.wire for b in back.blocks] == [b.wire for b in ex.blocks]
    assert to_message(back) == msg
    assert server.violations == []


def test_cohere_sdk_stream_through_stream_deltas(server: ReplayServer) -> None:
    # W2: the cohere client's chat_stream is an iterator of event objects like any other SDK's
    from thinkparse import stream_deltas

    client = cohere.ClientV2(api_key="k", base_url=server.base_url)
    deltas = stream_deltas(client.chat_stream(
        model="command-a-reasoning-08-2025", messages=[USER], request_options={"max_retries": 0}))
    assert "".join(d.reasoning for d in deltas) == server.text(1)
    assert deltas.result.finish_reason == "TOOL_CALL"
    assert deltas.message["content"] == [{"type": "thinking", "thinking": server.text(1)}]
    assert deltas.message["tool_calls"][0]["function"]["name"] == "get_weather"
