"""A local OpenAI-compatible chat server on 127.0.0.1 for the framework tests.

``POST .../chat/completions`` answers like a server without a reasoning parser (vLLM, llama.cpp):
the reply text, raw tags included, is ``"".join(server.pieces)``; a plain request gets one
``chat.completion`` and ``stream=True`` gets one ``chat.completion.chunk`` per piece (so the
tags arrive cut where the pieces are cut), a ``finish_reason`` chunk and, when the request asks
for it (``stream_options.include_usage``), a usage-only chunk.  With ``field`` set the pieces
go to that delta/message field (``reasoning_content``, ``reasoning``) and ``content`` carries
``answer`` instead: a server that separates reasoning itself.  The model name in the reply is
the request's.  Request bodies are kept in ``requests``.  Nothing but loopback is involved.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional

#: The issue's stream: tags cut across chunks.
PIECES = ["<th", "ink>plan", " step</thi", "nk>The answer", " is 4."]
USAGE = {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}


class ChatServer:
    """An OpenAI-compatible ``/chat/completions`` endpoint in a daemon thread."""

    def __init__(self) -> None:
        self.pieces: list[str] = list(PIECES)
        self.field: Optional[str] = None
        self.answer = "The answer is 4."
        self.requests: list[dict[str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                owner.requests.append(request)
                body, ctype = owner.body(request)
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def body(self, request: dict[str, Any]) -> tuple[bytes, str]:
        """The response body and content type for one request."""
        head = {"id": "chatcmpl-1", "created": 1700000000, "model": request.get("model", "m")}
        field = self.field or "content"
        if not request.get("stream"):
            message: dict[str, Any] = {"role": "assistant", field: "".join(self.pieces)}
            if self.field:
                message["content"] = self.answer
            choice = {"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}
            data = {**head, "object": "chat.completion", "choices": [choice], "usage": USAGE}
            return json.dumps(data).encode(), "application/json"
        deltas: list[dict[str, Any]] = [{field: piece} for piece in self.pieces]
        if self.field:
            deltas.append({"content": self.answer})
        deltas[0]["role"] = "assistant"
        chunks = [
            {**head, "object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": d, "logprobs": None, "finish_reason": None}]}
            for d in deltas
        ]  # fmt: skip
        chunks.append({**head, "object": "chat.completion.chunk",
                       "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (request.get("stream_options") or {}).get("include_usage"):
            chunks.append({**head, "object": "chat.completion.chunk", "choices": [],
                           "usage": USAGE})
        sse = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        return sse.encode(), "text/event-stream"

    def close(self) -> None:
        """Stop the server."""
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)
