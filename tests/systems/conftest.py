"""Fixtures of the framework tests: a local OpenAI-compatible server, and the frameworks' quiet
settings -- LiteLLM reads its bundled cost map (no network at import), the Agents SDK exports no
traces.  ``THINKPARSE_REQUIRE_INTEGRATIONS=1`` turns a missing framework into a failure."""

from __future__ import annotations

import gc
import os
import sys
import warnings
from collections.abc import Iterator

import pytest
from _chat_server import ChatServer

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"


@pytest.fixture
def chat_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    """A ``ChatServer`` on 127.0.0.1, proxies switched off."""
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    srv = ChatServer()
    try:
        yield srv
    finally:
        srv.close()


def _open_fds() -> int:
    """How many file descriptors the process holds (-1 where ``/proc`` does not say)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


@pytest.fixture(autouse=True)
def _framework_clients_closed() -> Iterator[None]:
    """After each test, drop the HTTP clients the frameworks cache per event loop (LiteLLM's
    client cache) and collect them here, so that their sockets, left open by a loop that
    ``asyncio.run`` closed, are not reported inside a later, unrelated test.

    The collection runs when the test left more file descriptors open than it found (an
    unclosed socket, event loop or file holds one), or where that cannot be told: a full
    collection of this process's heap, with the frameworks loaded, costs a few tenths of a
    second, and most tests open nothing."""
    before = _open_fds()
    yield
    cache = getattr(sys.modules.get("litellm"), "in_memory_llm_clients_cache", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        if cache is not None:
            cache.flush_cache()
        if before < 0 or _open_fds() > before:
            gc.collect()
