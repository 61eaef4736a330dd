"""The replay server's Cohere Chat v2 endpoint (``POST /v2/chat``, JSON and SSE).

Reasoning models answer each tool round with a ``thinking`` content item and ``tool_calls``
(finish reason ``TOOL_CALL``), then with a thinking item and the text; a model whose name starts
with ``command-r`` (no thinking) answers with ``tool_plan`` and ``tool_calls`` instead, then with
the text alone.  Errors are Cohere's body, ``{"id", "message"}``, with HTTP 400.

Cohere does not require the reasoning back: a thinking item carries no signature, and the docs
only append ``response.message`` to the next request (docs.cohere.com v2/docs/tool-use-overview).
The documented rules are about tool calls (the 400 examples of docs.cohere.com reference/errors);
``cohere.reasoning_verbatim`` is the suite's own, stricter check that what came back is what was
issued.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Optional

from replay_rules import Reply, halves, sse, tool_args

#: Cohere's own texts (docs.cohere.com reference/errors, "400 - Bad Request" examples).
NOT_FOUND = "tool call id not found in previous tool calls"
ID_REQUIRED = "tool call id must be provided with tool message"
NOT_FUNCTION = "tool call must be of type function"
DUPLICATE = "cannot have duplicate tool ids"
#: Not documented by Cohere (the suite's own texts, in Cohere's "invalid request: ..." form).
BAD_ITEM = ("invalid request: messages[{i}].content[{j}]: an assistant content item is "
            "{{type: \"text\", text}} or {{type: \"thinking\", thinking}} with a string value")
NOT_ISSUED = ("invalid request: messages[{i}]: {what} is not the reasoning this server issued "
              "(replayed reasoning must come back unchanged)")


def _error(rule: str, text: str) -> Reply:
    return Reply(400, {"id": str(uuid.uuid4()), "message": text}, rule=rule)


def _check(server: Any, messages: list[Any]) -> Optional[Reply]:
    """The first broken rule of a request's history, else ``None``."""
    issued: set[str] = server.state.setdefault("cohere_reasoning", set())
    calls: set[str] = set()
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role == "assistant":
            content = m.get("content")
            for j, item in enumerate(content if isinstance(content, list) else ()):
                kind = item.get("type") if isinstance(item, dict) else None
                if kind not in ("text", "thinking") or not isinstance(item.get(kind), str):
                    return _error("cohere.content_item", BAD_ITEM.format(i=i, j=j))
                if kind == "thinking" and item["thinking"] not in issued:
                    return _error("cohere.reasoning_verbatim",
                                  NOT_ISSUED.format(i=i, what=f"content[{j}].thinking"))
            plan = m.get("tool_plan")
            if plan and plan not in issued:
                return _error("cohere.reasoning_verbatim", NOT_ISSUED.format(i=i, what="tool_plan"))
            for call in m.get("tool_calls") or ():
                if not isinstance(call, dict) or call.get("type", "function") != "function":
                    return _error("cohere.tool_call_type", NOT_FUNCTION)
                if call.get("id") in calls:
                    return _error("cohere.duplicate_tool_ids", DUPLICATE)
                calls.add(call.get("id"))
        elif role == "tool":
            if not m.get("tool_call_id"):
                return _error("cohere.tool_call_id_required", ID_REQUIRED)
            if m["tool_call_id"] not in calls:
                return _error("cohere.tool_result_matches", NOT_FOUND)
    return None


def _turn(server: Any, model: str, n: int, done: int) -> tuple[dict[str, Any], str]:
    """The scripted message of round ``n`` and its finish reason."""
    issued: set[str] = server.state.setdefault("cohere_reasoning", set())
    thinks = not model.startswith("command-r")
    msg: dict[str, Any] = {"role": "assistant"}
    if done < server.rounds:
        call = {"id": f"get_weather_{server.new_id()}", "type": "function",
                "function": {"name": "get_weather", "arguments": _json(tool_args(n))}}
        if thinks:
            msg["content"] = [{"type": "thinking", "thinking": server.text(n)}]
        else:
            msg["tool_plan"] = server.text(n)
        msg["tool_calls"] = [call]
        issued.add(server.text(n))
        return msg, "TOOL_CALL"
    msg["content"] = ([{"type": "thinking", "thinking": server.text(n)}] if thinks else [])
    msg["content"].append({"type": "text", "text": server.answer})
    issued.add(server.text(n))
    return msg, "COMPLETE"


def _json(v: Any) -> str:
    return json.dumps(v, separators=(",", ":"))


def _events(rid: str, msg: dict[str, Any], finish: str, usage: dict[str, Any]) -> list[str]:
    """The stream of one message, as Cohere sends it (``data:`` lines, then ``[DONE]``)."""
    out = [sse(None, {"id": rid, "type": "message-start", "delta": {"message": {
        "role": "assistant", "content": [], "tool_plan": "", "tool_calls": [],
        "citations": []}}})]
    for piece in halves(msg.get("tool_plan") or ""):
        if piece:
            out.append(sse(None, {"type": "tool-plan-delta",
                                  "delta": {"message": {"tool_plan": piece}}}))
    for i, item in enumerate(msg.get("content") or ()):
        kind = item["type"]
        out.append(sse(None, {"type": "content-start", "index": i, "delta": {"message": {
            "content": {"type": kind, kind: ""}}}}))
        for piece in halves(item[kind]):
            out.append(sse(None, {"type": "content-delta", "index": i, "delta": {"message": {
                "content": {kind: piece}}}}))
        out.append(sse(None, {"type": "content-end", "index": i}))
    for i, call in enumerate(msg.get("tool_calls") or ()):
        fn = call["function"]
        out.append(sse(None, {"type": "tool-call-start", "index": i, "delta": {"message": {
            "tool_calls": {**call, "function": {"name": fn["name"], "arguments": ""}}}}}))
        for piece in halves(fn["arguments"]):
            out.append(sse(None, {"type": "tool-call-delta", "index": i, "delta": {"message": {
                "tool_calls": {"function": {"arguments": piece}}}}}))
        out.append(sse(None, {"type": "tool-call-end", "index": i}))
    out.append(sse(None, {"type": "message-end", "id": rid,
                          "delta": {"finish_reason": finish, "usage": usage}}))
    out.append(sse(None, "[DONE]"))
    return out


def cohere_chat(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v2/chat``."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not isinstance(body.get("model"), str):
        return Reply(422, {"id": str(uuid.uuid4()), "message": "model and messages are required"},
                     rule="cohere.shape")
    broken = _check(server, messages)
    if broken is not None:
        return broken
    done = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "tool")
    if echo:
        last = next((m for m in reversed(messages)
                     if isinstance(m, dict) and m.get("role") == "assistant"), {})
        msg = {"role": "assistant", **{k: v for k, v in last.items() if k != "role"}}
        finish = "COMPLETE"
    else:
        msg, finish = _turn(server, body["model"], done + 1, done)
    rid = str(uuid.uuid4())
    usage = {"billed_units": {"input_tokens": 20, "output_tokens": 30},
             "tokens": {"input_tokens": 1020, "output_tokens": 30}}
    if body.get("stream"):
        return Reply(200, events=_events(rid, msg, finish, usage))
    return Reply(200, {"id": rid, "finish_reason": finish, "message": msg, "usage": usage})
