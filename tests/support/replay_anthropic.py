"""The replay server's Anthropic Messages and Bedrock Converse endpoints."""

from __future__ import annotations

import base64
import json
from typing import Any, Optional

from replay_rules import Reply, halves, sse, tool_args

FINAL_TEXT = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. "
    "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
    "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you "
    "include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. "
    "Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)
MODIFIED_TEXT = (
    "messages.{i}.content.{j}: `thinking` or `redacted_thinking` blocks in the latest assistant "
    "message cannot be modified. These blocks must remain as they were in the original response."
)
DISABLED_TEXT = (
    "messages.{i}.content.{j}: When thinking is disabled, an `assistant` message in the final "
    "position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
)
REASONING = ("thinking", "redacted_thinking")


def _blocks(content: Any) -> list[Any]:
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def check(server: Any, messages: Any, thinking_on: bool) -> Optional[tuple[str, str]]:
    """The first broken Anthropic replay rule as ``(rule id, error text)``, else None."""
    if not isinstance(messages, list):
        return ("anthropic.shape", "messages: Input should be a valid list")
    signer = server.signer
    for i, m in enumerate(messages):
        if m.get("role") != "assistant":
            continue
        for j, b in enumerate(_blocks(m.get("content"))):
            if b.get("type") == "thinking":
                if "thinking" not in b:
                    return ("anthropic.thinking_required",
                            f"messages.{i}.content.{j}.thinking.thinking: Field required")
                if "signature" not in b:
                    return ("anthropic.signature_required",
                            f"messages.{i}.content.{j}.thinking.signature: Field required")
                if not signer.valid("thinking", b["signature"], b["thinking"]):
                    return ("anthropic.signature_valid",
                            f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block")
            elif b.get("type") == "redacted_thinking" and not signer.valid(
                "redacted", b.get("data"), "redacted"
            ):
                return ("anthropic.redacted_valid",
                        f"messages.{i}.content.{j}: Invalid `data` in `redacted_thinking` block")
    # tool results answer the previous assistant message's tool_use blocks
    for i, m in enumerate(messages):
        if m.get("role") != "user":
            continue
        for j, b in enumerate(_blocks(m.get("content"))):
            if b.get("type") != "tool_result":
                continue
            prev = messages[i - 1] if i else {}
            ids = [c.get("id") for c in _blocks(prev.get("content")) if c.get("type") == "tool_use"]
            if b.get("tool_use_id") not in ids:
                return ("anthropic.tool_result_matches",
                        f"messages.{i}.content.{j}: unexpected `tool_use_id` found in "
                        f"`tool_result` blocks: {b.get('tool_use_id')}. Each `tool_result` block "
                        "must have a corresponding `tool_use` block in the previous message.")
    last = messages[-1] if messages else {}
    in_loop = last.get("role") == "user" and any(
        b.get("type") == "tool_result" for b in _blocks(last.get("content"))
    )
    if not in_loop or len(messages) < 2 or messages[-2].get("role") != "assistant":
        return None
    i = len(messages) - 2
    content = _blocks(messages[i].get("content"))
    if not thinking_on:
        for j, b in enumerate(content):
            if b.get("type") in REASONING:
                return ("anthropic.thinking_disabled", DISABLED_TEXT.format(i=i, j=j))
        return None
    if not content or content[0].get("type") not in REASONING:
        found = content[0].get("type") if content else "nothing"
        return ("anthropic.final_starts_with_thinking", FINAL_TEXT.format(i=i, found=found))
    issued = None
    for b in content:
        if b.get("type") == "tool_use":
            issued = server.state.get(("anthropic_turn", b.get("id")))
            if issued is not None:
                break
    if issued is not None:
        got = [b for b in content if b.get("type") in REASONING]
        for j in range(max(len(got), len(issued))):
            if j >= len(got) or j >= len(issued) or got[j] != issued[j]:
                where = content.index(got[j]) if j < len(got) else len(content) - 1
                return ("anthropic.latest_unmodified", MODIFIED_TEXT.format(i=i, j=where))
    return None


def _echo_content(messages: list[Any]) -> list[Any]:
    for m in reversed(messages):
        if m.get("role") == "assistant":
            return _blocks(m.get("content"))
    return []


def script(server: Any, messages: list[Any], display: str) -> tuple[list[Any], str]:
    """The next scripted turn's content blocks and stop reason."""
    done = sum(
        1 for m in messages if m.get("role") == "user"
        for b in _blocks(m.get("content")) if b.get("type") == "tool_result"
    )
    n = done + 1
    text = "" if display == "omitted" else server.text(n)
    blocks: list[Any] = [
        {"type": "thinking", "thinking": text, "signature": server.signer.sign("thinking", text)}
    ]
    if done < server.rounds:
        data = server.signer.sign("redacted", "redacted")
        blocks.append({"type": "redacted_thinking", "data": data})
        blocks.append({"type": "text", "text": "Let me check."})
        tid = f"toolu_{server.new_id():04d}"
        blocks.append({"type": "tool_use", "id": tid, "name": "get_weather", "input": tool_args(n)})
        server.state[("anthropic_turn", tid)] = [b for b in blocks if b["type"] in REASONING]
        return blocks, "tool_use"
    blocks.append({"type": "text", "text": server.answer})
    return blocks, "end_turn"


def _error(status: int, rule: str, text: str) -> Reply:
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": text},
            "request_id": "req_replay"}
    return Reply(status, body, rule=rule)


def anthropic_messages(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v1/messages``."""
    thinking = body.get("thinking") or {}
    on = thinking.get("type") in ("enabled", "adaptive")
    messages = body.get("messages")
    broken = check(server, messages, on)
    if broken:
        return _error(400, *broken)
    assert isinstance(messages, list)
    if echo:
        content, stop = _echo_content(messages), "end_turn"
    else:
        content, stop = script(server, messages, thinking.get("display", "summarized"))
    msg = {"id": f"msg_{server.new_id():04d}", "type": "message", "role": "assistant",
           "model": body.get("model"), "content": content, "stop_reason": stop,
           "stop_sequence": None, "usage": {"input_tokens": 20, "output_tokens": 30}}
    if not body.get("stream"):
        return Reply(200, msg)
    return Reply(200, events=_stream(msg))


def _stream(msg: dict[str, Any]) -> list[str]:
    head = dict(msg, content=[], stop_reason=None, usage={"input_tokens": 20, "output_tokens": 1})
    ev = [sse("message_start", {"type": "message_start", "message": head})]
    for idx, b in enumerate(msg["content"]):
        t = b["type"]
        start = {"thinking": {"type": "thinking", "thinking": "", "signature": ""},
                 "text": {"type": "text", "text": ""},
                 "tool_use": dict(b, input={})}.get(t, b)
        ev.append(sse("content_block_start",
                      {"type": "content_block_start", "index": idx, "content_block": start}))
        deltas: list[Any] = []
        if t == "thinking":
            deltas = [{"type": "thinking_delta", "thinking": p} for p in halves(b["thinking"]) if p]
            deltas += [{"type": "signature_delta", "signature": p} for p in halves(b["signature"])]
        elif t == "text":
            deltas = [{"type": "text_delta", "text": p} for p in halves(b["text"])]
        elif t == "tool_use":
            js = json.dumps(b["input"])
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in halves(js)]
        for d in deltas:
            ev.append(sse("content_block_delta",
                          {"type": "content_block_delta", "index": idx, "delta": d}))
        ev.append(sse("content_block_stop", {"type": "content_block_stop", "index": idx}))
    ev.append(sse("message_delta", {"type": "message_delta",
                                    "delta": {"stop_reason": msg["stop_reason"],
                                              "stop_sequence": None},
                                    "usage": {"output_tokens": 30}}))
    ev.append(sse("message_stop", {"type": "message_stop"}))
    return ev


# --- Bedrock Converse: the same rules on Bedrock's block shapes ------------------------------
def _to_anthropic(block: Any) -> Any:
    if not isinstance(block, dict):
        return {"type": "?"}
    if "reasoningContent" in block:
        rc = block["reasoningContent"]
        if "redactedContent" in rc:
            return {"type": "redacted_thinking", "data": rc["redactedContent"]}
        rt = rc.get("reasoningText", {})
        out = {"type": "thinking"}
        out.update({k2: rt[k1] for k1, k2 in (("text", "thinking"), ("signature", "signature"))
                    if k1 in rt})
        return out
    if "toolUse" in block:
        return {"type": "tool_use", "id": block["toolUse"].get("toolUseId")}
    if "toolResult" in block:
        return {"type": "tool_result", "tool_use_id": block["toolResult"].get("toolUseId")}
    return {"type": "text", "text": block.get("text")}


def _to_bedrock(block: dict[str, Any]) -> dict[str, Any]:
    t = block["type"]
    if t == "thinking":
        return {"reasoningContent": {"reasoningText": {"text": block["thinking"],
                                                       "signature": block["signature"]}}}
    if t == "redacted_thinking":
        raw = base64.b64decode(block["data"])
        return {"reasoningContent": {"redactedContent": base64.b64encode(raw).decode()}}
    if t == "tool_use":
        return {"toolUse": {"toolUseId": block["id"], "name": block["name"],
                            "input": block["input"]}}
    return {"text": block["text"]}


def bedrock_converse(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /model/{modelId}/converse``."""
    extra = body.get("additionalModelRequestFields") or {}
    think = extra.get("thinking") or {}
    on = think.get("type") in ("enabled", "adaptive") or "reasoning_config" in extra
    raw = body.get("messages")
    if not isinstance(raw, list):
        return Reply(400, {"message": "messages is required"}, rule="bedrock.shape")
    messages = [dict(m, content=[_to_anthropic(b) for b in m.get("content") or []]) for m in raw]
    broken = check(server, messages, on)
    if broken:
        rule, text = broken
        return Reply(400, {"message": f"The model returned the following errors: {text}"},
                     rule="bedrock." + rule.split(".", 1)[1],
                     headers={"x-amzn-ErrorType": "ValidationException"})
    if echo:
        last = next((m for m in reversed(raw) if m.get("role") == "assistant"), {})
        content, stop = last.get("content", []), "end_turn"
    else:
        blocks, stop = script(server, messages, "summarized")
        content = [_to_bedrock(b) for b in blocks]
    return Reply(200, {"output": {"message": {"role": "assistant", "content": content}},
                       "stopReason": stop,
                       "usage": {"inputTokens": 20, "outputTokens": 30, "totalTokens": 50},
                       "metrics": {"latencyMs": 5}})
