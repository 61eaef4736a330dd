"""Gemini Interactions tool loops (P15, X2) with the real ``google-genai`` client
(``client.interactions.create``, sync and async, whole and streamed) against the strict replay
server, and the server's Interactions rules themselves.  The application builds every next
request with thinkparse only: ``normalize`` / ``StreamNormalizer`` and ``to_message``.

Stateless: the next ``input`` is the history as steps -- the user's step, the model's steps as
``to_message`` gives them (thought steps exactly, with their signatures), the function results.
Stateful: ``previous_interaction_id`` and the function results only; the server keeps the
thought steps itself."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from replay_client import post, serve
from replay_server import RULES, ReplayServer

from thinkparse import StreamNormalizer, normalize, to_message

genai = pytest.importorskip("google.genai")

MODEL = "gemini-3.5-flash"
USER = {"type": "user_input", "content": [{"type": "text", "text": "Weather in Paris?"}]}
TOOLS = [{"type": "function", "name": "get_weather", "description": "The weather in a city.",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
CALLS = [(False, False), (False, True), (True, False), (True, True)]  # (async, stream)
REFUSED = {"error": {"message": "Request contains an invalid argument.",
                     "code": "invalid_request"}}


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    for s in serve():
        s.rounds = 2
        yield s


def _client(server: ReplayServer) -> Any:
    return genai.Client(api_key="k", http_options={"base_url": server.base_url,
                                                   "api_version": "v1beta"})


def _feed(events: Any) -> tuple[Any, Any, Any]:
    sn = StreamNormalizer()
    rid = None
    for ev in events:
        sn.feed(ev)
        if ev.event_type == "interaction.created":
            rid = ev.interaction.id
    sn.close()
    return sn.result, sn.message, rid


async def _afeed(events: Any) -> tuple[Any, Any, Any]:
    sn = StreamNormalizer()
    rid = None
    async for ev in events:
        sn.feed(ev)
        if ev.event_type == "interaction.created":
            rid = ev.interaction.id
    sn.close()
    return sn.result, sn.message, rid


def loop(server: ReplayServer, is_async: bool, stream: bool, stateful: bool,
         summaries: bool) -> Any:
    return asyncio.run(_loop(server, is_async, stream, stateful, summaries))


async def _loop(server: ReplayServer, is_async: bool, stream: bool, stateful: bool,
                summaries: bool) -> Any:
    client = _client(server)
    config = {"thinking_summaries": "auto" if summaries else "none"}

    async def call(req: dict[str, Any]) -> tuple[Any, Any, Any]:
        if is_async:
            if stream:
                return await _afeed(await client.aio.interactions.create(**req, stream=True))
            r = await client.aio.interactions.create(**req)
        else:
            if stream:
                return _feed(client.interactions.create(**req, stream=True))
            r = client.interactions.create(**req)
        return normalize(r), to_message(r), r.id

    history: list[Any] = [USER]
    req: dict[str, Any] = {"model": MODEL, "input": history, "tools": TOOLS,
                           "generation_config": config}
    for _ in range(server.rounds + 1):
        ex, steps, rid = await call(req)
        if ex.finish_reason != "requires_action":
            return ex
        results = [{"type": "function_result", "call_id": s["id"], "name": s["name"],
                    "result": "16 °C"} for s in steps if s["type"] == "function_call"]
        if stateful:
            req = {"model": MODEL, "previous_interaction_id": rid,
                   "input": results, "tools": TOOLS, "generation_config": config}
        else:
            history = [*history, *steps, *results]
            req = {"model": MODEL, "input": history, "tools": TOOLS, "store": False,
                   "generation_config": config}
    raise AssertionError("the loop did not finish")


def _thoughts(body: dict[str, Any]) -> list[Any]:
    return [s for s in body["input"] if s.get("type") == "thought"]


@pytest.mark.parametrize("summaries", [True, False])
@pytest.mark.parametrize(("is_async", "stream"), CALLS)
def test_p15_stateless_loop(server: ReplayServer, is_async: bool, stream: bool,
                            summaries: bool) -> None:
    ex = loop(server, is_async, stream, False, summaries)
    assert ex.visible == "It is 16 °C in Paris."
    assert ex.reasoning == (server.text(3) if summaries else None)
    assert (ex.provider, ex.finish_reason) == ("gemini", "completed")
    assert [b.kind for b in ex.blocks] == ["summary" if summaries else "opaque"]
    assert server.violations == []
    assert len(server.requests) == 3
    # every thought step came back exactly as issued, in its place before its call
    last = server.requests[-1][1]
    assert [s["type"] for s in last["input"]] == [
        "user_input", "thought", "function_call", "function_result",
        "thought", "function_call", "function_result"]
    texts = [t.get("summary", [{}])[0].get("text") for t in _thoughts(last)]
    assert texts == ([server.text(1), server.text(2)] if summaries else [None, None])


@pytest.mark.parametrize("stream", [False, True])
def test_p15_stateful_loop(server: ReplayServer, stream: bool) -> None:
    ex = loop(server, False, stream, True, True)
    assert (ex.visible, ex.reasoning) == ("It is 16 °C in Paris.", server.text(3))
    assert server.violations == []
    # the server keeps the thought steps: each request sends the function results only
    assert [[s["type"] for s in body["input"]] for _, body in server.requests[1:]] == [
        ["function_result"], ["function_result"]]


# --- the server's rules ---------------------------------------------------------------------
def _first_turn(server: ReplayServer) -> list[Any]:
    status, body = post(server, "/v1beta/interactions", {
        "model": MODEL, "input": [USER], "generation_config": {"thinking_summaries": "auto"}})
    assert status == 200 and body["status"] == "requires_action"
    steps: list[Any] = to_message(body)  # type: ignore[assignment]
    return steps


def _send(server: ReplayServer, steps: list[Any]) -> tuple[int, Any]:
    call = next(s for s in steps if s.get("type") == "function_call")
    result = {"type": "function_result", "call_id": call["id"], "name": call["name"],
              "result": "16"}
    return post(server, "/v1beta/interactions", {"model": MODEL,
                                                  "input": [USER, *steps, result]})


def test_p15_interactions_rules(server: ReplayServer) -> None:
    server.rounds = 1
    thought, call = _first_turn(server)
    assert thought["summary"][0]["text"] == server.text(1) and thought["signature"]
    assert _send(server, [thought, call])[0] == 200
    bad = [
        [dict(thought, signature=thought["signature"][:-4] + "AAAA"), call],  # altered
        [dict(thought, summary=[{"type": "text", "text": "edited"}]), call],  # altered summary
        [{k: v for k, v in thought.items() if k != "summary"}, call],  # summary dropped
        [call],  # the thought step dropped
        [call, thought],  # reordered
    ]
    for steps in bad:
        assert _send(server, steps) == (400, REFUSED)
    status, body = post(server, "/v1beta/interactions", {"model": MODEL, "input": [
        USER, thought, call, {"type": "function_result", "call_id": "nope", "name": "f",
                              "result": "16"}]})
    assert (status, body) == (400, REFUSED)
    assert server.violations == ["interactions.thought_verbatim"] * 5 + [
        "interactions.result_matches_call"]
    assert set(server.violations) <= set(RULES)


def test_p15_sdk_raises_the_servers_error(server: ReplayServer) -> None:
    thought, call = _first_turn(server)
    client = _client(server)
    with pytest.raises(Exception) as err:
        client.interactions.create(model=MODEL, input=[
            USER, dict(thought, signature="AAAA"), call,
            {"type": "function_result", "call_id": call["id"], "name": call["name"],
             "result": "16"}])
    assert err.value.__class__.__name__ == "BadRequestError"
    assert "Request contains an invalid argument." in str(err.value)


def test_p15_echo_parses_back(server: ReplayServer) -> None:
    # X2: a turn sent back with to_message parses back to the same blocks and message
    server.rounds = 1
    status, body = post(server, "/v1beta/interactions", {
        "model": MODEL, "input": [USER], "generation_config": {"thinking_summaries": "auto"}})
    ex = normalize(body)
    steps = to_message(ex)
    assert isinstance(steps, list)
    status, echoed = _send_echo(server, steps)
    assert status == 200
    back = normalize(echoed)
    assert back.blocks == ex.blocks
    assert [b.wire for b in back.blocks] == [b.wire for b in ex.blocks]
    assert to_message(back) == steps
    assert server.violations == []


def _send_echo(server: ReplayServer, steps: list[Any]) -> tuple[int, Any]:
    call = next(s for s in steps if s.get("type") == "function_call")
    result = {"type": "function_result", "call_id": call["id"], "name": call["name"],
              "result": "16"}
    return post(server, "/v1beta/interactions", {"model": MODEL,
                                                  "input": [USER, *steps, result]}, echo=True)


def test_p15_stream_events_are_the_apis(server: ReplayServer) -> None:
    # the server's stream parses with google-genai's own event types
    server.rounds = 1
    client = _client(server)  # (kept: the stream reads through it)
    events = list(client.interactions.create(
        model=MODEL, input="Weather?", stream=True,
        generation_config={"thinking_summaries": "auto"}))
    names = [type(e).__name__ for e in events]
    assert names[0] == "InteractionCreatedEvent" and names[-1] == "InteractionCompletedEvent"
    ex, steps, _ = _feed(events)
    assert ex.reasoning == server.text(1) and ex.finish_reason == "requires_action"
    assert json.dumps(steps, ensure_ascii=False).count(server.text(1)) == 1
