"""The strict replay server itself: a faithful replay passes, every broken rule gets the
provider's own error.  (Requests here are built by hand, verbatim or deliberately broken.)"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from replay_client import post, serve
from replay_server import RULES, ReplayServer


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    yield from serve()


THINK_ON = {"type": "enabled", "budget_tokens": 2048}
USER = {"role": "user", "content": "Weather in Paris?"}


def anthropic_turn(s: ReplayServer, messages: list[Any], **extra: Any) -> dict[str, Any]:
    status, body = post(s, "/v1/messages", {"model": "claude-x", "max_tokens": 100,
                                            "thinking": THINK_ON, "messages": messages, **extra})
    assert status == 200, body
    return body


def anthropic_next(turn: dict[str, Any], content: Any) -> list[Any]:
    tool = next(b for b in turn["content"] if b["type"] == "tool_use")
    return [USER, {"role": "assistant", "content": content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool["id"],
                                          "content": "16"}]}]


def anthropic_error(s: ReplayServer, messages: list[Any], thinking: Any = THINK_ON) -> str:
    status, body = post(s, "/v1/messages", {"model": "claude-x", "max_tokens": 100,
                                            "thinking": thinking, "messages": messages})
    assert status == 400
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    message: str = body["error"]["message"]
    return message


def test_anthropic_verbatim_replay_passes(server: ReplayServer) -> None:
    turn = anthropic_turn(server, [USER])
    assert [b["type"] for b in turn["content"]] == [
        "thinking", "redacted_thinking", "text", "tool_use"]
    final = anthropic_turn(server, anthropic_next(turn, turn["content"]))
    assert [b["type"] for b in final["content"]] == ["thinking", "text"]
    assert final["content"][1]["text"] == "It is 16 °C in Paris."
    assert final["stop_reason"] == "end_turn"
    assert server.violations == []


def _mutations(content: list[Any]) -> dict[str, tuple[list[Any], str, str]]:
    th, red, text, tool = content
    edited = dict(th, thinking=th["thinking"] + " ")
    return {
        "dropped": ([text, tool], "anthropic.final_starts_with_thinking",
                    "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but "
                    "found `text`. When `thinking` is enabled, a final `assistant` message must "
                    "start with a thinking block (preceeding the lastmost set of `tool_use` and "
                    "`tool_result` blocks). We recommend you include thinking blocks from previous "
                    "turns. To avoid this requirement, disable `thinking`. Please consult our "
                    "documentation at "
                    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"),
        "edited": ([edited, red, text, tool], "anthropic.signature_valid",
                   "messages.1.content.0: Invalid `signature` in `thinking` block"),
        "no signature": ([{k: v for k, v in th.items() if k != "signature"}, red, text, tool],
                         "anthropic.signature_required",
                         "messages.1.content.0.thinking.signature: Field required"),
        "no thinking key": ([{k: v for k, v in th.items() if k != "thinking"}, red, text, tool],
                            "anthropic.thinking_required",
                            "messages.1.content.0.thinking.thinking: Field required"),
        "redacted dropped": ([th, text, tool], "anthropic.latest_unmodified",
                             "messages.1.content.2: `thinking` or `redacted_thinking` blocks in "
                             "the latest assistant message cannot be modified. These blocks must "
                             "remain as they were in the original response."),
        "reordered": ([red, th, text, tool], "anthropic.latest_unmodified",
                      "messages.1.content.0: `thinking` or `redacted_thinking` blocks in the "
                      "latest assistant message cannot be modified. These blocks must remain as "
                      "they were in the original response."),
        "redacted edited": ([th, dict(red, data=red["data"][:-2] + "AA"), text, tool],
                            "anthropic.redacted_valid",
                            "messages.1.content.1: Invalid `data` in `redacted_thinking` block"),
    }


@pytest.mark.parametrize("case", ["dropped", "edited", "no signature", "no thinking key",
                                  "redacted dropped", "reordered", "redacted edited"])
def test_anthropic_broken_replay_is_refused(server: ReplayServer, case: str) -> None:
    turn = anthropic_turn(server, [USER])
    before = copy.deepcopy(turn)
    content, rule, text = _mutations(turn["content"])[case]
    assert anthropic_error(server, anthropic_next(turn, content)) == text
    assert server.violations == [rule] and rule in RULES
    assert turn == before


def test_anthropic_foreign_signature_and_thinking_off(server: ReplayServer) -> None:
    turn = anthropic_turn(server, [USER])
    forged = dict(turn["content"][0], signature="RXFvQg==")
    assert anthropic_error(server, anthropic_next(turn, [forged, *turn["content"][1:]])) == (
        "messages.1.content.0: Invalid `signature` in `thinking` block")
    assert anthropic_error(server, anthropic_next(turn, turn["content"]), {"type": "disabled"}) == (
        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final "
        "position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your "
        "request.")
    # a tool result without its tool_use
    msgs = anthropic_next(turn, turn["content"])
    msgs[2]["content"][0]["tool_use_id"] = "toolu_nope"
    assert anthropic_error(server, msgs).startswith(
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_nope.")


def test_anthropic_display_omitted_is_signature_only(server: ReplayServer) -> None:
    turn = anthropic_turn(server, [USER], thinking={"type": "adaptive", "display": "omitted"})
    assert turn["content"][0]["thinking"] == "" and turn["content"][0]["signature"]
    ok = anthropic_turn(server, anthropic_next(turn, turn["content"]),
                        thinking={"type": "adaptive", "display": "omitted"})
    assert ok["stop_reason"] == "end_turn"


def test_bedrock_rules(server: ReplayServer) -> None:
    req = {"messages": [{"role": "user", "content": [{"text": "Weather?"}]}],
           "additionalModelRequestFields": {"thinking": THINK_ON}}
    status, turn = post(server, "/model/anthropic.claude-x/converse", req)
    assert status == 200
    content = turn["output"]["message"]["content"]
    assert [next(iter(b)) for b in content] == ["reasoningContent", "reasoningContent", "text",
                                                "toolUse"]
    result = {"role": "user", "content": [{"toolResult": {
        "toolUseId": content[3]["toolUse"]["toolUseId"], "content": [{"text": "16"}]}}]}
    good = dict(req, messages=[req["messages"][0], {"role": "assistant", "content": content},
                               result])
    status, final = post(server, "/model/anthropic.claude-x/converse", good)
    assert status == 200 and final["stopReason"] == "end_turn"
    naive = copy.deepcopy(good)
    naive["messages"][1]["content"] = content[2:]
    status, err = post(server, "/model/anthropic.claude-x/converse", naive)
    assert status == 400 and err["message"].startswith(
        "The model returned the following errors: messages.1.content.0.type: Expected `thinking`")
    assert server.violations == ["bedrock.final_starts_with_thinking"]


def responses_turn(s: ReplayServer, items: Any, **extra: Any) -> dict[str, Any]:
    status, body = post(s, "/v1/responses", {"model": "gpt-5", "input": items, **extra})
    assert status == 200, body
    return body


def responses_error(s: ReplayServer, items: Any, **extra: Any) -> tuple[int, str]:
    status, body = post(s, "/v1/responses", {"model": "gpt-5", "input": items, **extra})
    assert body["error"]["type"] == "invalid_request_error"
    return status, body["error"]["message"]


def _with_output(turn: dict[str, Any], items: list[Any]) -> list[Any]:
    call = turn["output"][1]
    return [USER, *items, {"type": "function_call_output", "call_id": call["call_id"],
                           "output": "16"}]


def test_responses_rules(server: ReplayServer) -> None:
    turn = responses_turn(server, "Weather?")
    rs, fc = turn["output"]
    assert rs["type"] == "reasoning" and "encrypted_content" not in rs
    assert responses_turn(server, _with_output(turn, [rs, fc]))["output"][1]["type"] == "message"
    assert responses_error(server, _with_output(turn, [fc])) == (
        400, f"Item '{fc['id']}' of type 'function_call' was provided without its required "
        f"'reasoning' item: '{rs['id']}'.")
    assert responses_error(server, _with_output(turn, [rs, fc]), store=False) == (
        404, f"Item with id '{rs['id']}' not found. Items are not persisted when `store` is set "
        "to false. Try again with `store` set to true, or remove this item from your input.")
    assert responses_error(server, [USER, rs]) == (
        400, f"Item '{rs['id']}' of type 'reasoning' was provided without its required following "
        "item.")
    no_summary = {k: v for k, v in rs.items() if k != "summary"}
    assert responses_error(server, _with_output(turn, [no_summary, fc])) == (
        400, "Missing required parameter: 'input[1].summary'.")
    assert responses_error(server, [USER, {"type": "function_call_output", "call_id": "call_x",
                                           "output": "1"}]) == (
        400, "No tool call found for function call output with call_id call_x.")
    # without ids the call is accepted (the reasoning is then simply lost)
    bare = {k: v for k, v in fc.items() if k != "id"}
    assert responses_turn(server, _with_output(turn, [bare]))["status"] == "completed"


def test_responses_stateless_encrypted(server: ReplayServer) -> None:
    extra = {"store": False, "include": ["reasoning.encrypted_content"]}
    turn = responses_turn(server, "Weather?", **extra)
    rs, fc = turn["output"]
    assert rs["encrypted_content"]
    assert responses_turn(server, _with_output(turn, [rs, fc]), **extra)["store"] is False
    tampered = dict(rs, summary=[{"type": "summary_text", "text": "changed"}])
    assert responses_error(server, _with_output(turn, [tampered, fc]), **extra) == (
        400, f"The encrypted content for item {rs['id']} could not be verified.")
    # previous_response_id needs nothing replayed (store: true)
    first = responses_turn(server, "Weather?")
    out = {"type": "function_call_output", "call_id": first["output"][1]["call_id"], "output": "1"}
    assert responses_turn(server, [out], previous_response_id=first["id"])["output"][1][
        "type"] == "message"


def test_deepseek_rules(server: ReplayServer) -> None:
    req: dict[str, Any] = {"model": "deepseek-v4-pro", "messages": [USER]}
    status, turn = post(server, "/v1/chat/completions", req)
    msg = turn["choices"][0]["message"]
    assert status == 200 and msg["reasoning_content"] and msg["tool_calls"]
    result = {"role": "tool", "tool_call_id": msg["tool_calls"][0]["id"], "content": "16"}
    status, final = post(server, "/v1/chat/completions", dict(req, messages=[USER, msg, result]))
    assert status == 200 and final["choices"][0]["finish_reason"] == "stop"
    for bad in ({k: v for k, v in msg.items() if k != "reasoning_content"},
                dict(msg, reasoning_content=""), dict(msg, reasoning_content=None)):
        status, err = post(server, "/v1/chat/completions", dict(req, messages=[USER, bad, result]))
        assert (status, err["error"]["message"]) == (
            400, "The `reasoning_content` in the thinking mode must be passed back to the API.")
    # the vLLM-style server takes any history
    status, _ = post(server, "/v1/chat/completions",
                     {"model": "qwen3", "messages": [USER, {"role": "assistant", "content": "x"}]})
    assert status == 200


def test_gemini_rules(server: ReplayServer) -> None:
    path = "/v1beta/models/gemini-3-pro:generateContent"
    user = {"role": "user", "parts": [{"text": "Weather?"}]}
    status, turn = post(server, path, {"contents": [user]})
    content = turn["candidates"][0]["content"]
    assert status == 200 and content["parts"][0]["thought"] is True
    call = content["parts"][1]
    result = {"role": "user", "parts": [{"functionResponse": {"name": "get_weather",
                                                              "response": {"t": 16}}}]}
    status, final = post(server, path, {"contents": [user, content, result]})
    assert status == 200
    assert final["candidates"][0]["content"]["parts"][-1]["text"] == "It is 16 °C in Paris."
    unsigned = {"role": "model", "parts": [{"functionCall": call["functionCall"]}]}
    status, err = post(server, path, {"contents": [user, unsigned, result]})
    assert (status, err["error"]["message"]) == (
        400, "Function call is missing a thought_signature in functionCall parts. This is "
        "required for tools to work correctly, and missing thought_signature may lead to degraded "
        "model performance. Additional data, function call `default_api:get_weather` , position "
        "2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more "
        "details.")
    moved = {"role": "model", "parts": [{"functionCall": dict(call["functionCall"],
                                                              args={"city": "Rome"}),
                                         "thoughtSignature": call["thoughtSignature"]}]}
    status, err = post(server, path, {"contents": [user, moved, result]})
    assert (status, err["error"]["message"]) == (400, "Corrupted thought signature.")
    nested = {"role": "model", "parts": [{"functionCall": dict(
        call["functionCall"], thoughtSignature=call["thoughtSignature"])}]}
    status, err = post(server, path, {"contents": [user, nested, result]})
    assert status == 400 and "Unknown name \"thoughtSignature\"" in err["error"]["message"]
    # the documented placeholder passes; earlier turns are not checked
    skip = {"role": "model", "parts": [{"functionCall": call["functionCall"],
                                        "thoughtSignature": "skip_thought_signature_validator"}]}
    assert post(server, path, {"contents": [user, skip, result]})[0] == 200
    later = [user, unsigned, result, {"role": "model", "parts": [{"text": "ok"}]},
             {"role": "user", "parts": [{"text": "And Rome?"}]}]
    assert post(server, path, {"contents": later})[0] == 200
    assert server.violations == ["gemini.signature_required", "gemini.signature_valid",
                                 "gemini.signature_on_part"]


def test_echo_returns_the_last_assistant_turn(server: ReplayServer) -> None:
    turn = anthropic_turn(server, [USER])
    status, echoed = post(server, "/v1/messages", {
        "model": "claude-x", "max_tokens": 1, "thinking": THINK_ON,
        "messages": anthropic_next(turn, turn["content"])}, echo=True)
    assert status == 200 and echoed["content"] == turn["content"]
    assert json.loads(json.dumps(echoed["content"])) == turn["content"]
