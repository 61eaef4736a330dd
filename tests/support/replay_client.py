"""Helpers for the replay tests: the strict server as a fixture and a JSON poster."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from replay_server import ReplayServer


def serve() -> Iterator[ReplayServer]:
    """A fresh strict replay server, closed afterwards (``yield from serve()`` in a fixture)."""
    s = ReplayServer()
    try:
        yield s
    finally:
        s.close()


def post(server: ReplayServer, path: str, body: Any, *, echo: bool = False) -> tuple[int, Any]:
    """POST ``body`` as JSON; ``(status, parsed JSON answer)``."""
    req = urllib.request.Request(
        server.base_url + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json", **({"x-replay-echo": "1"} if echo else {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
