"""Tool loops over plain JSON (Gemini, Bedrock Converse, Ollama, Cohere) against the strict
server, and the echo property: a turn sent back with ``to_message`` parses back to the same
blocks (X2)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay_client import post, serve
from replay_server import ReplayServer

from thinkparse import ReasoningContext, normalize, to_message

THINK = {"type": "enabled", "budget_tokens": 2048}
GEMINI = "/v1beta/models/gemini-3-pro:generateContent"
BEDROCK = "/model/anthropic.claude-x/converse"


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    for s in serve():
        s.rounds = 2
        yield s


# --- one family = how to start, what a turn's tool results are, and the naive turn -------------
def gemini_start() -> tuple[str, dict[str, Any]]:
    return GEMINI, {"contents": [{"role": "user", "parts": [{"text": "Weather?"}]}]}


def gemini_next(req: dict[str, Any], msg: dict[str, Any], naive: bool) -> bool:
    calls = [p["functionCall"] for p in msg["parts"] if "functionCall" in p]
    if naive:
        msg = {"role": "model", "parts": [{"functionCall": c} for c in calls]}
    req["contents"] += [msg, {"role": "user", "parts": [
        {"functionResponse": {"name": c["name"], "response": {"t": 16}}} for c in calls]}]
    return bool(calls)


def bedrock_start() -> tuple[str, dict[str, Any]]:
    return BEDROCK, {"messages": [{"role": "user", "content": [{"text": "Weather?"}]}],
                     "additionalModelRequestFields": {"thinking": THINK}}


def bedrock_next(req: dict[str, Any], msg: dict[str, Any], naive: bool) -> bool:
    uses = [b["toolUse"] for b in msg["content"] if "toolUse" in b]
    if naive:
        msg = {"role": "assistant", "content": [b for b in msg["content"]
                                                if "reasoningContent" not in b]}
    req["messages"] += [msg, {"role": "user", "content": [
        {"toolResult": {"toolUseId": u["toolUseId"], "content": [{"text": "16"}]}}
        for u in uses]}]
    return bool(uses)


def ollama_start() -> tuple[str, dict[str, Any]]:
    return "/api/chat", {"model": "qwen3", "stream": False,
                         "messages": [{"role": "user", "content": "Weather?"}]}


def ollama_next(req: dict[str, Any], msg: dict[str, Any], naive: bool) -> bool:
    calls = msg.get("tool_calls") or []
    if naive:
        msg = {k: v for k, v in msg.items() if k != "thinking"}
    req["messages"] += [msg, *({"role": "tool", "content": "16"} for _ in calls)]
    return bool(calls)


def cohere_start() -> tuple[str, dict[str, Any]]:
    return "/v2/chat", {"model": "command-a-reasoning-08-2025",
                        "messages": [{"role": "user", "content": "Weather?"}]}


def cohere_next(req: dict[str, Any], msg: dict[str, Any], naive: bool) -> bool:
    calls = msg.get("tool_calls") or []
    if naive:
        msg = {k: v for k, v in msg.items() if k != "content"}
    req["messages"] += [msg, *({"role": "tool", "tool_call_id": c["id"], "content": "16"}
                               for c in calls)]
    return bool(calls)


FAMILIES: dict[str, tuple[Callable[..., Any], Callable[..., bool]]] = {
    "gemini": (gemini_start, gemini_next),
    "bedrock": (bedrock_start, bedrock_next),
    "ollama": (ollama_start, ollama_next),
    "cohere": (cohere_start, cohere_next),
}


def loop(server: ReplayServer, family: str, mode: str) -> tuple[int, Any]:
    start, step = FAMILIES[family]
    path, req = start()
    ctx = ReasoningContext()
    for _ in range(server.rounds + 1):
        body = ctx.attach(req, provider=family) if mode == "context" else req
        status, resp = post(server, path, body)
        if status != 200:
            return status, resp
        ex = normalize(resp, provider=family)
        ctx.update(ex)
        if not step(req, to_message(ex), mode != "to_message"):
            return status, ex
    raise AssertionError("the loop did not finish")


@pytest.mark.parametrize("mode", ["to_message", "context"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_json_loops(server: ReplayServer, family: str, mode: str) -> None:  # X2, X4
    status, ex = loop(server, family, mode)
    assert status == 200 and ex.visible == "It is 16 °C in Paris."
    assert ex.reasoning == server.text(3)
    assert server.violations == []


@pytest.mark.parametrize(("family", "rule"), [("gemini", "gemini.signature_required"),
                                              ("bedrock", "bedrock.final_starts_with_thinking")])
def test_json_naive_gets_400(server: ReplayServer, family: str, rule: str) -> None:
    status, _ = loop(server, family, "naive")
    assert status == 400 and server.violations == [rule]


def test_ollama_history_carries_thinking(server: ReplayServer) -> None:
    loop(server, "ollama", "context")
    sent = server.requests[-1][1]["messages"]
    assert [m.get("thinking") for m in sent if m["role"] == "assistant"] == [
        server.text(1), server.text(2)]


# --- the echo property ---------------------------------------------------------------------------
ECHO_START: dict[str, Callable[[], tuple[str, dict[str, Any]]]] = {
    "anthropic": lambda: ("/v1/messages", {"model": "claude-x", "max_tokens": 8, "thinking": THINK,
                                           "messages": [{"role": "user", "content": "q"}]}),
    "openai_responses": lambda: ("/v1/responses", {"model": "gpt-5", "input": "q",
                                                   "include": ["reasoning.encrypted_content"]}),
    "openai_chat": lambda: ("/v1/chat/completions", {"model": "deepseek-v4", "messages": [
        {"role": "user", "content": "q"}]}),
    "gemini": gemini_start,
    "bedrock": bedrock_start,
    "ollama": ollama_start,
    "cohere": cohere_start,
}


def _next_request(family: str, req: dict[str, Any], msg: Any) -> dict[str, Any]:
    req = copy.deepcopy(req)
    if family == "anthropic":
        uses = [b for b in msg["content"] if b["type"] == "tool_use"]
        req["messages"] += [msg, {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": u["id"], "content": "1"} for u in uses]}]
    elif family == "openai_responses":
        calls = [i for i in msg if i["type"] == "function_call"]
        req["input"] = [{"role": "user", "content": "q"}, *msg, *(
            {"type": "function_call_output", "call_id": c["call_id"], "output": "1"}
            for c in calls)]
    elif family == "openai_chat":
        req["messages"] += [msg, *({"role": "tool", "tool_call_id": c["id"], "content": "1"}
                                   for c in msg["tool_calls"])]
    else:
        FAMILIES[family][1](req, msg, False)
    return req


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda t: t.strip() != "")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(family=st.sampled_from(sorted(ECHO_START)), text=TEXT)
def test_echo_parses_back_to_the_same_blocks(family: str, text: str) -> None:  # X2
    for server in serve():
        server.reasoning = text
        path, req = ECHO_START[family]()
        status, turn = post(server, path, req)
        assert status == 200
        ex = normalize(turn, provider=family)
        before = copy.deepcopy(turn)
        msg = to_message(ex)
        assert turn == before  # the response is not mutated
        status, echoed = post(server, path, _next_request(family, req, msg), echo=True)
        assert status == 200, echoed
        back = normalize(echoed, provider=family)
        assert back.blocks == ex.blocks
        assert [b.wire for b in back.blocks] == [b.wire for b in ex.blocks]
        assert back.blocks and server.violations == []
