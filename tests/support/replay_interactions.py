"""The replay server's Gemini Interactions endpoint (``POST /v1beta/interactions``, JSON and SSE).

Each tool round answers with a ``thought`` step (a signature, and a summary when the request
asks for ``generation_config.thinking_summaries: "auto"``; the docs' default is no summary) and
a ``function_call`` step, status ``requires_action``; the last round with a thought step and a
``model_output`` step, status ``completed``.  Every thought signature covers exactly the summary
it was issued with, and every issued turn is remembered by its function call's id.

Replay, stateless (``input`` is the history as steps) or stateful (``previous_interaction_id``
and the ``function_result`` steps; the server keeps every interaction's timeline):

* ``interactions.thought_verbatim``: a thought step must be one the server issued, signature and
  summary unchanged; and the model's steps of an issued turn must come back whole and in order
  (a thought step dropped, altered or moved is refused).
* ``interactions.result_matches_call``: a ``function_result`` answers a ``function_call`` of
  the history, and names the function.

Google documents no error text for a thought step that is altered or missing (the thinking guide
only says they "MUST" be resent exactly as received).  The answer is the one observed from the
live API for a continuation whose thought signature was lost (googleapis/js-genai#1735): HTTP 400
``{"error": {"message": "Request contains an invalid argument.", "code": "invalid_request"}}``,
the Interactions error body (``{error: {code, message}}``, python-genai
``_gaos/errors/createinteraction.py``).
"""

from __future__ import annotations

import json
from typing import Any, Optional

from replay_rules import Reply, halves, sse, tool_args

INVALID = "Request contains an invalid argument."
_MODEL_STEPS = ("thought", "function_call", "model_output")


def _error(rule: str) -> Reply:
    return Reply(400, {"error": {"message": INVALID, "code": "invalid_request"}}, rule=rule)


def _key(summary: Any) -> str:
    return json.dumps(summary, sort_keys=True, ensure_ascii=False)


def _check(server: Any, history: list[Any]) -> Optional[Reply]:
    """The first broken rule of a history (a list of steps), else ``None``."""
    turns: dict[str, list[Any]] = server.state.setdefault("interactions_turns", {})
    steps = [s for s in history if isinstance(s, dict)]
    for s in steps:
        if s.get("type") == "thought" and not server.signer.valid(
                "interactions", s.get("signature"), _key(s.get("summary"))):
            return _error("interactions.thought_verbatim")
    model = [s for s in steps if s.get("type") in _MODEL_STEPS]
    calls = set()
    for i, s in enumerate(model):
        if s.get("type") != "function_call":
            continue
        calls.add(s.get("id"))
        issued = turns.get(s.get("id"))
        if issued is None:
            continue
        at = i - issued.index(next(x for x in issued if x.get("type") == "function_call"))
        if at < 0 or model[at:at + len(issued)] != issued:
            return _error("interactions.thought_verbatim")
    for s in steps:
        if s.get("type") == "function_result" and (
                s.get("call_id") not in calls or not s.get("name")):
            return _error("interactions.result_matches_call")
    return None


def _turn(server: Any, n: int, done: int, summaries: bool) -> tuple[list[Any], str]:
    """The scripted steps of round ``n`` and the interaction's status."""
    summary = [{"type": "text", "text": server.text(n)}] if summaries else None
    thought: dict[str, Any] = {"type": "thought",
                               "signature": server.signer.sign("interactions", _key(summary))}
    if summary is not None:
        thought["summary"] = summary
    if done < server.rounds:
        call = {"type": "function_call", "id": f"call{server.new_id()}", "name": "get_weather",
                "arguments": tool_args(n)}
        steps = [thought, call]
        server.state.setdefault("interactions_turns", {})[call["id"]] = steps
        return steps, "requires_action"
    return [thought, {"type": "model_output",
                      "content": [{"type": "text", "text": server.answer}]}], "completed"


def _events(body: dict[str, Any]) -> list[str]:
    """The stream of an interaction, as the API sends it (``event:`` and ``data:`` lines)."""
    head = {k: v for k, v in body.items() if k not in ("steps", "usage")}
    out = [sse("interaction.created", {"event_type": "interaction.created",
                                       "interaction": {**head, "status": "in_progress"}}),
           sse("interaction.status_update", {"event_type": "interaction.status_update",
                                             "interaction_id": body["id"],
                                             "status": "in_progress"})]

    def ev(name: str, **data: Any) -> None:
        out.append(sse(name, {"event_type": name, **data}))

    for i, step in enumerate(body["steps"]):
        kind = step["type"]
        if kind == "thought":
            ev("step.start", index=i, step={"type": "thought"})
            for item in step.get("summary") or ():
                for piece in halves(item["text"]):
                    ev("step.delta", index=i, delta={"type": "thought_summary",
                                                     "content": {"type": "text", "text": piece}})
            ev("step.delta", index=i, delta={"type": "thought_signature",
                                             "signature": step["signature"]})
        elif kind == "function_call":
            ev("step.start", index=i, step={**step, "arguments": {}})
            for piece in halves(json.dumps(step["arguments"])):
                ev("step.delta", index=i, delta={"type": "arguments_delta", "arguments": piece})
        else:
            ev("step.start", index=i, step={"type": kind})
            for item in step.get("content") or ():
                for piece in halves(item.get("text") or ""):
                    ev("step.delta", index=i, delta={"type": "text", "text": piece})
        ev("step.stop", index=i)
    ev("interaction.completed", interaction={**head, "usage": body["usage"]})
    out.append(sse("done", "[DONE]"))
    return out


def interactions(server: Any, path: str, body: dict[str, Any], echo: bool) -> Reply:
    """``POST /v1beta/interactions``."""
    timelines: dict[str, list[Any]] = server.state.setdefault("interactions", {})
    given = body.get("input")
    if not isinstance(body.get("model"), str) or given is None:
        return Reply(400, {"error": {"message": "model and input are required",
                                     "code": "invalid_request"}}, rule="interactions.shape")
    if isinstance(given, str):
        given = [{"type": "user_input", "content": [{"type": "text", "text": given}]}]
    if not isinstance(given, list):
        given = [given]
    previous = body.get("previous_interaction_id")
    if previous is not None and previous not in timelines:
        return Reply(404, {"error": {"message": f"Interaction {previous} not found.",
                                     "code": "not_found"}}, rule="interactions.unknown_id")
    history = [*timelines.get(previous, []), *given] if previous else list(given)
    broken = _check(server, history)
    if broken is not None:
        return broken
    done = sum(1 for s in history if isinstance(s, dict) and s.get("type") == "function_result")
    if echo:  # the history's last model steps, as this server's answer
        tail: list[Any] = []
        for s in reversed(history):
            if isinstance(s, dict) and s.get("type") in _MODEL_STEPS:
                tail.insert(0, s)
            elif tail:
                break
        steps, status = tail, "completed"
    else:
        summaries = (body.get("generation_config") or {}).get("thinking_summaries") == "auto"
        steps, status = _turn(server, done + 1, done, summaries)
    rid = f"v1_replay{server.new_id()}"
    timelines[rid] = [*history, *steps]
    out = {"id": rid, "object": "interaction", "model": body["model"], "status": status,
           "created": "2026-08-20T09:00:00Z", "updated": "2026-08-20T09:00:00Z",
           "steps": steps, "usage": {"total_input_tokens": 40, "total_output_tokens": 12,
                                     "total_thought_tokens": 30, "total_tokens": 82}}
    if body.get("stream"):
        return Reply(200, events=_events(out))
    return Reply(200, out)
