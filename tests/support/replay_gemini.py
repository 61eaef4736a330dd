"""The replay server's Gemini generateContent and Ollama chat endpoints."""

from __future__ import annotations

import json
from typing import Any

from replay_rules import Reply, tool_args

MISSING_TEXT = (
    "Function call is missing a thought_signature in functionCall parts. This is required for "
    "tools to work correctly, and missing thought_signature may lead to degraded model "
    "performance. Additional data, function call `default_api:{name}` , position {pos}. Please "
    "refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
)
SKIP = ("skip_thought_signature_validator", "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=")


def _call_key(call: Any) -> str:
    return json.dumps(call, sort_keys=True, ensure_ascii=False)


def _error(rule: str, text: str) -> Reply:
    return Reply(400, {"error": {"code": 400, "message": text, "status": "INVALID_ARGUMENT"}},
                 rule=rule)


def gemini_generate(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v1beta/models/{model}:generateContent``."""
    contents = body.get("contents")
    if not isinstance(contents, list):
        return _error("gemini.shape", "contents is required")
    # the current turn starts after the last user content that is not only function responses
    start = 0
    for i, c in enumerate(contents):
        parts = c.get("parts") or []
        if c.get("role", "user") == "user" and any("functionResponse" not in p for p in parts):
            start = i + 1
    for i, c in enumerate(contents):
        for j, p in enumerate(c.get("parts") or []):
            if "thoughtSignature" in (p.get("functionCall") or {}):
                return _error("gemini.signature_on_part",
                              'Invalid JSON payload received. Unknown name "thoughtSignature" at '
                              f"'contents[{i}].parts[{j}].function_call': Cannot find field.")
            sig = p.get("thoughtSignature")
            if sig is None or sig in SKIP:
                continue
            key = _call_key(p["functionCall"]) if "functionCall" in p else str(p.get("text"))
            if not server.signer.valid("gemini", sig, key):
                return _error("gemini.signature_valid", "Corrupted thought signature.")
        if i < start or c.get("role") != "model":
            continue
        first = next((p for p in c.get("parts") or [] if "functionCall" in p), None)
        if first is not None and "thoughtSignature" not in first:
            name = first["functionCall"].get("name")
            return _error("gemini.signature_required", MISSING_TEXT.format(name=name, pos=i + 1))
    done = sum(1 for c in contents for p in c.get("parts") or [] if "functionResponse" in p)
    n = done + 1
    if echo:
        last = next((c for c in reversed(contents) if c.get("role") == "model"), {"parts": []})
        parts = last["parts"]
        finish = "STOP"
    elif done < server.rounds:
        call = {"name": "get_weather", "args": tool_args(n)}
        parts = [{"text": server.text(n), "thought": True},
                 {"functionCall": call,
                  "thoughtSignature": server.signer.sign("gemini", _call_key(call))}]
        finish = "STOP"
    else:
        parts = [{"text": server.text(n), "thought": True},
                 {"text": server.answer,
                  "thoughtSignature": server.signer.sign("gemini", server.answer)}]
        finish = "STOP"
    model = path.split("/models/", 1)[1].split(":", 1)[0]
    return Reply(200, {"candidates": [{"content": {"role": "model", "parts": parts},
                                       "finishReason": finish, "index": 0}],
                       "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 30,
                                         "thoughtsTokenCount": 12, "totalTokenCount": 62},
                       "modelVersion": model, "responseId": f"r{server.new_id()}"})


def ollama_chat(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /api/chat`` (Ollama accepts any history: no replay rule to enforce)."""
    messages = body.get("messages")
    if not isinstance(messages, list):
        return Reply(400, {"error": "messages is required"}, rule="ollama.shape")
    done = sum(1 for m in messages if m.get("role") == "tool")
    n = done + 1
    if echo:
        msg = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
    elif done < server.rounds:
        msg = {"role": "assistant", "content": "", "thinking": server.text(n),
               "tool_calls": [{"function": {"name": "get_weather", "arguments": tool_args(n)}}]}
    else:
        msg = {"role": "assistant", "content": server.answer, "thinking": server.text(n)}
    return Reply(200, {"model": body.get("model"), "created_at": "2026-01-01T00:00:00Z",
                       "message": msg, "done": True, "done_reason": "stop",
                       "prompt_eval_count": 20, "eval_count": 30})
