"""Shared pieces of the replay server's provider handlers, and the route table."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Optional


@dataclass
class Reply:
    """One HTTP answer: a JSON ``body`` or SSE ``events``; ``rule`` names a broken rule."""

    status: int = 200
    body: Any = None
    events: Optional[list[str]] = None
    rule: Optional[str] = None
    headers: dict[str, str] = field(default_factory=dict)


def sse(event: Optional[str], data: Any) -> str:
    """One server-sent event (``data`` as JSON unless already a string)."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {text}\n\n"


def halves(text: str) -> list[str]:
    """``text`` cut in two (one piece when it is shorter than two characters)."""
    if len(text) < 2:
        return [text]
    mid = len(text) // 2
    return [text[:mid], text[mid:]]


def tool_args(n: int) -> dict[str, Any]:
    """The scripted tool call's arguments in round ``n``."""
    return {"city": "Paris", "round": n}


def routes() -> list[tuple[str, str, Callable[..., Reply]]]:
    """``(path prefix, path suffix, handler)`` for each endpoint."""
    from replay_anthropic import anthropic_messages, bedrock_converse
    from replay_cohere import cohere_chat
    from replay_gemini import gemini_generate, ollama_chat
    from replay_interactions import interactions
    from replay_openai import chat_completions, responses

    return [
        ("/v1/messages", "/v1/messages", anthropic_messages),
        ("/model/", "/converse", bedrock_converse),
        ("/v1/chat/completions", "/v1/chat/completions", chat_completions),
        ("/v1/responses", "/v1/responses", responses),
        ("/v1beta/models/", ":generateContent", gemini_generate),
        ("/v1beta/interactions", "/v1beta/interactions", interactions),
        ("/api/chat", "/api/chat", ollama_chat),
        ("/v2/chat", "/v2/chat", cohere_chat),
    ]


class _Lazy(list):  # type: ignore[type-arg]
    """The route table, built on first use (the handler modules import this one)."""

    def __iter__(self) -> Any:
        if not len(self):
            self.extend(routes())
        return super().__iter__()


HANDLERS = _Lazy()
