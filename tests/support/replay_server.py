"""A strict local replay server for the multi-turn tests.

It speaks, on 127.0.0.1, the wire formats the real SDKs parse:

- ``POST /v1/messages``: the Anthropic Messages API (JSON and SSE);
- ``POST /model/{id}/converse``: Amazon Bedrock Converse (JSON);
- ``POST /v1/chat/completions``: OpenAI Chat Completions (JSON and SSE), DeepSeek-style when the
  model name starts with ``deepseek`` (``reasoning_content``), vLLM-style (``reasoning``) otherwise;
- ``POST /v1/responses``: the OpenAI Responses API (JSON and SSE);
- ``POST /v1beta/models/{model}:generateContent``: the Gemini API (JSON);
- ``POST /v1beta/interactions``: the Gemini Interactions API (JSON and SSE), stateless
  (``input`` steps) and stateful (``previous_interaction_id``);
- ``POST /api/chat``: Ollama (JSON);
- ``POST /v2/chat``: the Cohere Chat API v2 (JSON and SSE), thinking items for reasoning models,
  ``tool_plan`` for models whose name starts with ``command-r``.

Every conversation is a scripted tool loop: while the request holds fewer tool results than
``rounds``, the model "thinks" and calls ``get_weather``; then it thinks and answers.  Every
signature, redacted payload and encrypted reasoning it issues is registered with the exact text it
covers (an HMAC over the text and a counter), so any change, reordering, omission or invention is
detected.  The replay rules it enforces, each answered with the provider's own error text, are
listed in ``RULES`` (``rule id -> source``); ``violations`` records which rule each refusal broke.

With the request header ``x-replay-echo: 1`` the server checks the request as usual and then,
instead of the scripted turn, answers with the request's last assistant turn as its response, so a
test can check that a replayed turn parses back to the same reasoning.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional

from replay_rules import HANDLERS, Reply

#: Every rule the server enforces, with its source.
RULES = {
    "anthropic.signature_required": "anthropic-sdk-python types/thinking_block_param.py "
    "(signature Required); error text from LibreChat-AI/agents PR #279",
    "anthropic.thinking_required": "ThinkingBlockParam: `thinking` Required (LibreChat-AI/agents "
    "PR #279 'thinking.thinking: Field required')",
    "anthropic.signature_valid": "platform.claude.com/docs/build-with-claude/"
    "thinking-tool-workflows (pass thinking blocks back complete and unmodified); "
    "'Invalid `signature` in `thinking` block'",
    "anthropic.redacted_valid": "RedactedThinkingBlockParam 'pass it back unchanged'; "
    "microsoft/vscode#318076 'Invalid `data` in `redacted_thinking` block'",
    "anthropic.final_starts_with_thinking": "docs.claude.com extended-thinking 'Preserving "
    "thinking blocks'; error text from OpenRouterTeam/ai-sdk-provider#162, n8n-io/n8n#22550",
    "anthropic.latest_unmodified": "docs.claude.com extended-thinking ('cannot rearrange or "
    "modify the sequence'); error text from anthropics/claude-code#63284",
    "anthropic.thinking_disabled": "error text from tailcallhq/forgecode#1853",
    "anthropic.tool_result_matches": "Messages API: each tool_result needs a tool_use in the "
    "previous message",
    "bedrock.*": "the anthropic.* rules under Bedrock's ValidationException "
    "(docs.aws.amazon.com API_runtime_ReasoningContentBlock: 'include the text and its signature "
    "unmodified'; opencode#3077)",
    "responses.reasoning_required": "OpenAI cookbook examples/responses_api/reasoning_items.ipynb; "
    "error text from cline#12242, continuedev#10018",
    "responses.following_item": "error text from vercel/ai#7099, continuedev#8933",
    "responses.store_false_id_only": "openai-python ResponseReasoningItemParam.encrypted_content "
    "docstring; error text (HTTP 404) from vercel/ai#7543, opencode#7724",
    "responses.encrypted_valid": "invalid_encrypted_content (Wei-Shaw/sub2api#3138)",
    "responses.summary_required": "ResponseReasoningItemParam.summary Required; "
    "lidge-jun/opencodex PR #4673",
    "responses.unknown_item": "store:true items are looked up by id ('Item with id ... not found')",
    "responses.output_matches_call": "function_call_output needs its function_call",
    "chat.reasoning_content_required": "api-docs.deepseek.com/guides/thinking_mode (tool-call "
    "turns: reasoning_content must be passed back); stricter than DeepSeek: it must equal what "
    "was issued",
    "chat.tool_matches_call": "OpenAI Chat: a tool message answers a preceding tool_calls message",
    "gemini.signature_required": "ai.google.dev/gemini-api/docs/thought-signatures (first "
    "functionCall part of each step in the current turn); error text from chatboxai/chatbox#3308",
    "gemini.signature_valid": "thought-signatures docs ('pass it back exactly as received'); "
    "'Corrupted thought signature' (docs.apiyi.com FAQ)",
    "gemini.signature_on_part": "REST Part.thoughtSignature is a Part field (TanStack/ai PR #459)",
    "interactions.thought_verbatim": "ai.google.dev gemini-api/docs/interactions/thinking "
    "(stateless mode: resend every thought step exactly as received, signature included); "
    "Google documents no error text for it: the answer is the one observed from the live API "
    "when a continuation lost its thought signature, HTTP 400 'Request contains an invalid "
    "argument.', code invalid_request (googleapis/js-genai#1735)",
    "interactions.result_matches_call": "a function_result step answers a function_call step "
    "of the history by call_id and names the function (interactions/function-calling; a "
    "function_result without name was refused live: robocurve/inspect-robots#380); the same "
    "observed invalid_request answer",
    "cohere.tool_result_matches": "a tool message answers a tool call of an earlier assistant "
    "turn; error text from docs.cohere.com reference/errors (400: 'tool call id not found in "
    "previous tool calls')",
    "cohere.tool_call_id_required": "ToolChatMessageV2.tool_call_id required (cohere-python); "
    "error text from docs.cohere.com reference/errors ('tool call id must be provided with tool "
    "message')",
    "cohere.tool_call_type": "ToolCallV2.type is 'function' (cohere-python); error text from "
    "docs.cohere.com reference/errors ('tool call must be of type function')",
    "cohere.duplicate_tool_ids": "error text from docs.cohere.com reference/errors ('cannot have "
    "duplicate tool ids')",
    "cohere.content_item": "AssistantMessageV2ContentOneItem: text items need `text`, "
    "ChatThinkingContent needs `thinking` (cohere-openapi.yaml); Cohere documents no error text "
    "for it: the text is the suite's own",
    "cohere.reasoning_verbatim": "stricter than Cohere, which needs no reasoning back (thinking "
    "carries no signature; docs.cohere.com v2/docs/tool-use-overview appends response.message "
    "as it is): a thinking item or tool_plan must be one the server issued, unchanged; the "
    "error text is the suite's own",
}


class Signer:
    """Issues signatures over exact texts and checks them."""

    def __init__(self) -> None:
        self._key = b"thinkparse-replay-server"
        self._issued: dict[str, str] = {}
        self._lock = threading.Lock()
        self._counter = itertools.count(1)

    def sign(self, kind: str, text: str) -> str:
        """A new signature that covers ``text`` (and only it)."""
        n = next(self._counter)
        mac = hmac.new(self._key, f"{kind}\0{n}\0{text}".encode(), hashlib.sha256).digest()
        sig = base64.b64encode(bytes([n % 251]) + mac).decode("ascii")
        with self._lock:
            self._issued[sig] = f"{kind}\0{text}"
        return sig

    def valid(self, kind: str, sig: Any, text: Any) -> bool:
        """``sig`` was issued by :meth:`sign` for exactly ``kind`` and ``text``."""
        if not isinstance(sig, str) or not isinstance(text, str):
            return False
        with self._lock:
            return self._issued.get(sig) == f"{kind}\0{text}"


class ReplayServer:
    """The server; ``base_url`` is ``http://127.0.0.1:PORT``.

    Attributes:
        rounds: tool calls before the final answer (per conversation).
        reasoning: the reasoning text of the next turns (``{n}`` is replaced by the round).
        requests: ``(path, body)`` of every request, in arrival order.
        violations: the rule id of every refused request, in order.
    """

    def __init__(self) -> None:
        self.rounds = 1
        self.reasoning = "The user wants the weather in Paris — step {n}; I should call a tool."
        self.answer = "It is 16 °C in Paris."
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.violations: list[str] = []
        self.signer = Signer()
        self.state: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                owner._serve(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def new_id(self) -> int:
        """A fresh number for item ids."""
        with self._lock:
            return next(self._ids)

    def text(self, n: int) -> str:
        """The scripted reasoning of round ``n``."""
        return self.reasoning.replace("{n}", str(n))

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    # --- dispatch ---------------------------------------------------------------------------
    def _serve(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send(h, Reply(400, {"error": {"message": "bad JSON"}}))
            return
        with self._lock:
            self.requests.append((h.path, body))
        handler: Optional[Callable[..., Reply]] = None
        for prefix, suffix, fn in HANDLERS:
            if h.path.startswith(prefix) and h.path.split("?")[0].endswith(suffix):
                handler = fn
                break
        if handler is None:
            self._send(h, Reply(404, {"error": {"message": f"no route {h.path}"}}))
            return
        echo = h.headers.get("x-replay-echo") == "1"
        reply = handler(self, h.path, body, echo)
        if reply.rule is not None:
            with self._lock:
                self.violations.append(reply.rule)
        self._send(h, reply)

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.events is not None:
            payload = "".join(reply.events).encode("utf-8")
            ctype = "text/event-stream; charset=utf-8"
        else:
            payload = json.dumps(reply.body, ensure_ascii=False).encode("utf-8")
            ctype = "application/json"
        h.send_response(reply.status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(payload)))
        for k, v in reply.headers.items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(payload)
