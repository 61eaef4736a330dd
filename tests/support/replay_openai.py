"""The replay server's OpenAI Chat Completions and Responses endpoints."""

from __future__ import annotations

import json
import time
from typing import Any, Optional

from replay_rules import Reply, halves, sse, tool_args

DEEPSEEK_TEXT = "The `reasoning_content` in the thinking mode must be passed back to the API."
OUTPUT_TYPES = ("reasoning", "function_call", "custom_tool_call", "message")


def _oai_error(status: int, rule: str, text: str, param: Optional[str] = None,
               code: Optional[str] = None) -> Reply:
    body = {"error": {"message": text, "type": "invalid_request_error", "param": param,
                      "code": code}}
    return Reply(status, body, rule=rule)


# --- Chat Completions -----------------------------------------------------------------------
def chat_completions(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v1/chat/completions``; DeepSeek rules when the model starts with ``deepseek``."""
    model = str(body.get("model", ""))
    field = "reasoning_content" if model.startswith("deepseek") else "reasoning"
    messages = body.get("messages")
    if not isinstance(messages, list):
        return _oai_error(400, "chat.shape", "messages: expected an array", "messages")
    calls: set[Any] = set()
    for i, m in enumerate(messages):
        if m.get("role") == "assistant" and m.get("tool_calls"):
            ids = [c.get("id") for c in m["tool_calls"]]
            calls.update(ids)
            issued = server.state.get(("chat_turn", ids[0]))
            if field == "reasoning_content" and issued is not None and (
                m.get("reasoning_content") != issued
            ):
                return _oai_error(400, "chat.reasoning_content_required", DEEPSEEK_TEXT)
        if m.get("role") == "tool" and m.get("tool_call_id") not in calls:
            return _oai_error(400, "chat.tool_matches_call",
                              "Invalid parameter: messages with role 'tool' must be a response "
                              "to a preceeding message with 'tool_calls'.", f"messages.[{i}].role")
    done = sum(1 for m in messages if m.get("role") == "tool")
    n = done + 1
    if echo:
        last = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
        msg = {k: v for k, v in last.items()}
        finish = "tool_calls" if last.get("tool_calls") else "stop"
    elif done < server.rounds:
        cid = f"call_{server.new_id():04d}"
        msg = {"role": "assistant", "content": "", field: server.text(n),
               "tool_calls": [{"id": cid, "type": "function",
                               "function": {"name": "get_weather",
                                            "arguments": json.dumps(tool_args(n))}}]}
        server.state[("chat_turn", cid)] = server.text(n)
        finish = "tool_calls"
    else:
        msg = {"role": "assistant", "content": server.answer, field: server.text(n)}
        finish = "stop"
    head = {"id": f"chatcmpl-{server.new_id()}", "created": int(time.time()), "model": model}
    usage = {"prompt_tokens": 20, "completion_tokens": 30, "total_tokens": 50}
    if not body.get("stream"):
        return Reply(200, dict(head, object="chat.completion", usage=usage, choices=[
            {"index": 0, "message": msg, "finish_reason": finish, "logprobs": None}]))
    return Reply(200, events=_chat_stream(head, msg, finish, usage))


def _chat_stream(head: dict[str, Any], msg: dict[str, Any], finish: str,
                 usage: dict[str, Any]) -> list[str]:
    def chunk(delta: dict[str, Any], fin: Optional[str] = None) -> str:
        return sse(None, dict(head, object="chat.completion.chunk", choices=[
            {"index": 0, "delta": delta, "finish_reason": fin, "logprobs": None}]))

    ev = [chunk({"role": "assistant", "content": ""})]
    for key in ("reasoning_content", "reasoning"):
        if isinstance(msg.get(key), str):
            ev += [chunk({key: p}) for p in halves(msg[key]) if p]
    if msg.get("content"):
        ev += [chunk({"content": p}) for p in halves(msg["content"])]
    for idx, call in enumerate(msg.get("tool_calls") or []):
        ev.append(chunk({"tool_calls": [{"index": idx, "id": call["id"], "type": "function",
                                         "function": {"name": call["function"]["name"],
                                                      "arguments": ""}}]}))
        ev += [chunk({"tool_calls": [{"index": idx, "function": {"arguments": p}}]})
               for p in halves(call["function"]["arguments"])]
    ev.append(chunk({}, finish))
    ev.append(sse(None, dict(head, object="chat.completion.chunk", choices=[], usage=usage)))
    ev.append(sse(None, "[DONE]"))
    return ev


# --- Responses ------------------------------------------------------------------------------
def _check_input(server: Any, items: list[Any], store: bool) -> Optional[Reply]:
    signer = server.signer
    ids_seen: set[Any] = set()
    calls: set[Any] = set()
    for i, it in enumerate(items):
        if not isinstance(it, dict):
            return _oai_error(400, "responses.shape", f"Invalid type for 'input[{i}]'.")
        t = it.get("type")
        rid = it.get("id")
        if t == "reasoning":
            if "summary" not in it:
                return _oai_error(400, "responses.summary_required",
                                  f"Missing required parameter: 'input[{i}].summary'.",
                                  f"input[{i}].summary", "missing_required_parameter")
            enc = it.get("encrypted_content")
            if enc is None:
                if not store:
                    return _oai_error(404, "responses.store_false_id_only",
                                      f"Item with id '{rid}' not found. Items are not persisted "
                                      "when `store` is set to false. Try again with `store` set "
                                      "to true, or remove this item from your input.", "input")
                if rid not in server.state.get("persisted", set()):
                    return _oai_error(404, "responses.unknown_item",
                                      f"Item with id '{rid}' not found.", "input")
            elif not signer.valid("encrypted", enc, f"{rid}\0{_summary(it)}"):
                return _oai_error(400, "responses.encrypted_valid",
                                  f"The encrypted content for item {rid} could not be verified.",
                                  None, "invalid_encrypted_content")
            nxt = items[i + 1] if i + 1 < len(items) else {}
            if not isinstance(nxt, dict) or nxt.get("type") not in OUTPUT_TYPES[1:] or (
                nxt.get("type") == "message" and nxt.get("role") != "assistant"
            ):
                return _oai_error(400, "responses.following_item",
                                  f"Item '{rid}' of type 'reasoning' was provided without its "
                                  "required following item.", "input")
        elif t in ("function_call", "message") and rid is not None:
            need = server.state.get(("responses_needs", rid))
            if need is not None and need not in ids_seen:
                return _oai_error(400, "responses.reasoning_required",
                                  f"Item '{rid}' of type '{t}' was provided without its required "
                                  f"'reasoning' item: '{need}'.", "input")
        if t == "function_call":
            calls.add(it.get("call_id"))
        if t == "function_call_output" and it.get("call_id") not in calls:
            return _oai_error(400, "responses.output_matches_call",
                              "No tool call found for function call output with call_id "
                              f"{it.get('call_id')}.", "input")
        if rid is not None:
            ids_seen.add(rid)
    return None


def _summary(item: dict[str, Any]) -> str:
    return "\n\n".join(p.get("text", "") for p in item.get("summary") or [])


def responses(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v1/responses``."""
    store = body.get("store", True) is not False
    items = body.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    if not isinstance(items, list):
        return _oai_error(400, "responses.shape", "input: expected a string or an array", "input")
    context = list(items)
    prev = body.get("previous_response_id")
    if prev is not None:
        stored = server.state.get(("response", prev))
        if stored is None:
            return _oai_error(404, "responses.unknown_item",
                              f"Previous response with id '{prev}' not found.",
                              "previous_response_id")
        context = stored + context
    bad = _check_input(server, context, store)
    if bad is not None:
        return bad
    done = sum(1 for it in context if it.get("type") == "function_call_output")
    n = done + 1
    encrypt = "reasoning.encrypted_content" in (body.get("include") or [])
    if echo:
        tail: list[Any] = []
        for it in reversed(items):
            if it.get("type") in OUTPUT_TYPES and it.get("role", "assistant") == "assistant":
                tail.insert(0, it)
            elif tail:
                break
        output = tail
    else:
        rs_id = f"rs_{server.new_id():04d}"
        summary = server.text(n)
        rs: dict[str, Any] = {"id": rs_id, "type": "reasoning",
                              "summary": [{"type": "summary_text", "text": summary}]}
        if encrypt:
            rs["encrypted_content"] = server.signer.sign("encrypted", f"{rs_id}\0{summary}")
        if done < server.rounds:
            fid = f"fc_{server.new_id():04d}"
            nxt: dict[str, Any] = {"id": fid, "type": "function_call", "status": "completed",
                                   "call_id": f"call_{server.new_id():04d}",
                                   "name": "get_weather", "arguments": json.dumps(tool_args(n))}
        else:
            fid = f"msg_{server.new_id():04d}"
            nxt = {"id": fid, "type": "message", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": server.answer,
                                "annotations": []}]}
        server.state[("responses_needs", fid)] = rs_id
        if store:
            server.state.setdefault("persisted", set()).add(rs_id)
        output = [rs, nxt]
    resp = _response(server, body, output, store)
    if store:
        server.state[("response", resp["id"])] = context + output
    if not body.get("stream"):
        return Reply(200, resp)
    return Reply(200, events=_responses_stream(resp))


def _response(server: Any, body: dict[str, Any], output: list[Any], store: bool) -> dict[str, Any]:
    return {"id": f"resp_{server.new_id():04d}", "object": "response",
            "created_at": int(time.time()), "status": "completed", "model": body.get("model"),
            "output": output, "store": store, "error": None, "incomplete_details": None,
            "instructions": None, "metadata": {}, "parallel_tool_calls": True,
            "temperature": 1.0, "top_p": 1.0, "tool_choice": "auto", "tools": [],
            "text": {"format": {"type": "text"}}, "truncation": "disabled",
            "reasoning": {"effort": "medium", "summary": "auto"},
            "usage": {"input_tokens": 20, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 30, "output_tokens_details": {"reasoning_tokens": 12},
                      "total_tokens": 50}}


def _responses_stream(resp: dict[str, Any]) -> list[str]:
    seq = iter(range(10**6))
    ev: list[str] = []

    def emit(t: str, **data: Any) -> None:
        ev.append(sse(t, dict(type=t, sequence_number=next(seq), **data)))

    emit("response.created", response=dict(resp, status="in_progress", output=[]))
    emit("response.in_progress", response=dict(resp, status="in_progress", output=[]))
    for oi, item in enumerate(resp["output"]):
        t, iid = item["type"], item.get("id")
        start = {"reasoning": dict(item, summary=[], status="in_progress"),
                 "function_call": dict(item, arguments="", status="in_progress"),
                 "message": dict(item, content=[], status="in_progress")}[t]
        start.pop("encrypted_content", None)
        emit("response.output_item.added", output_index=oi, item=start)
        if t == "reasoning":
            for si, part in enumerate(item["summary"]):
                emit("response.reasoning_summary_part.added", item_id=iid, output_index=oi,
                     summary_index=si, part={"type": "summary_text", "text": ""})
                for p in halves(part["text"]):
                    emit("response.reasoning_summary_text.delta", item_id=iid, output_index=oi,
                         summary_index=si, delta=p)
                emit("response.reasoning_summary_text.done", item_id=iid, output_index=oi,
                     summary_index=si, text=part["text"])
                emit("response.reasoning_summary_part.done", item_id=iid, output_index=oi,
                     summary_index=si, part=part)
        elif t == "function_call":
            for p in halves(item["arguments"]):
                emit("response.function_call_arguments.delta", item_id=iid, output_index=oi,
                     delta=p)
            emit("response.function_call_arguments.done", item_id=iid, output_index=oi,
                 arguments=item["arguments"])
        else:
            for ci, part in enumerate(item["content"]):
                emit("response.content_part.added", item_id=iid, output_index=oi,
                     content_index=ci, part=dict(part, text=""))
                for p in halves(part["text"]):
                    emit("response.output_text.delta", item_id=iid, output_index=oi,
                         content_index=ci, delta=p, logprobs=[])
                emit("response.output_text.done", item_id=iid, output_index=oi,
                     content_index=ci, text=part["text"], logprobs=[])
                emit("response.content_part.done", item_id=iid, output_index=oi,
                     content_index=ci, part=part)
        emit("response.output_item.done", output_index=oi, item=item)
    emit("response.completed", response=resp)
    return ev
