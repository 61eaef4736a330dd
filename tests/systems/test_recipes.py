"""The "Using thinkparse with …" recipes of docs/guide.md run against a local server (W5, W3).

Each ``python`` block of the guide whose first line is ``# recipe: NAME`` is executed as written,
with one change: its ``http://localhost:8000/v1`` becomes the address of a local
OpenAI-compatible server on 127.0.0.1 that streams ``"<th" "ink>plan" " step</thi"
"nk>The answer" " is 4."`` (tags cut across chunks).  A line ``EXPR  # LITERAL`` (or
``NAME = ...  # LITERAL``) in a recipe is checked: the expression's value after the run must
equal the literal, so the comments cannot drift from what the code does.  Each recipe then gets
the checks below.  No network beyond loopback; the Agents SDK exports no traces and LiteLLM
reads its bundled cost map (the conftest).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from _support import ROOT, require

from thinkparse._env import REQUIRE_INTEGRATIONS

GUIDE = ROOT / "docs" / "guide.md"
BLOCKS = re.findall(r"```python\n(# recipe: ([\w-]+)\n.*?)```", GUIDE.read_text("utf-8"), re.S)
RECIPES = {name: code for code, name in BLOCKS}
URL = "http://localhost:8000/v1"

pytestmark = [
    pytest.mark.filterwarnings("ignore:Items? .* using the `ReadOnly` qualifier"),
    pytest.mark.filterwarnings("ignore:Accessing the 'model_[a-z_]*' attribute on the instance"),
]


def _commented(code: str) -> list[tuple[str, Any]]:
    """``(expression, expected)`` for each line whose comment is a Python literal."""
    checks = []
    for line in code.splitlines():
        if "  # " not in line or line.startswith((" ", "#")):
            continue
        source, comment = line.split("  # ", 1)
        try:
            expected = ast.literal_eval(comment.strip())
            node = ast.parse(source.strip()).body[0]
        except (ValueError, SyntaxError):
            continue
        if isinstance(node, ast.Expr):
            checks.append((ast.unparse(node.value), expected))
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            checks.append((node.targets[0].id, expected))
    return checks


def _run(name: str, server: Any) -> tuple[dict[str, Any], str]:
    code = RECIPES[name]
    namespace: dict[str, Any] = {"__name__": f"recipe_{name}"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace(URL, server.base_url), f"{GUIDE}:{name}", "exec"), namespace)
    for expression, expected in _commented(code):
        assert eval(expression, namespace) == expected, (name, expression)
    return namespace, out.getvalue()


def test_the_guide_has_exactly_these_recipes() -> None:
    assert sorted(RECIPES) == sorted(CHECKS)


def _langchain(ns: dict[str, Any], out: str, server: Any) -> None:
    # W5: plain, streamed and through a parser; the stream printed reasoning then answer
    assert out == "plan stepThe answer is 4."
    assert ns["reply"].usage_metadata["total_tokens"] == 14
    assert len(server.requests) == 3 and server.requests[1]["stream"] is True


def _langchain_traces(ns: dict[str, Any], out: str, server: Any) -> None:
    # D5, B1: one masked trace, counted in the budget
    (trace,) = ns["store"].query(session_key="user-42")
    assert (trace.model, trace.run_id, trace.provider) == ("Qwen/Qwen3-32B", "run-1", "openai")
    assert ns["budget"].used("user-42") == 3


def _litellm(ns: dict[str, Any], out: str, server: Any) -> None:
    # W2, P7: LiteLLM's ModelResponse and its stream read as they are
    assert out == "plan stepThe answer is 4."
    assert ns["deltas"].result.reasoning == "plan step"


def _litellm_proxy(ns: dict[str, Any], out: str, server: Any) -> None:
    # W5: the handler the recipe built, on a real LiteLLM stream through the proxy hook, then
    # the success hook with the assembled response
    litellm = require("litellm", REQUIRE_INTEGRATIONS)
    handler = ns["handler"]
    call = {"model": "openai/Qwen/Qwen3-32B", "api_base": server.base_url, "api_key": "-",
            "messages": [{"role": "user", "content": "2+2?"}]}

    async def go() -> list[Any]:
        stream = await litellm.acompletion(**call, stream=True)
        try:
            return [c async for c in handler.async_post_call_streaming_iterator_hook(
                None, stream, {"model": "qwen3"})]
        finally:
            await litellm.close_litellm_async_clients()

    chunks = asyncio.run(go())
    visible = "".join(c.choices[0].delta.content or "" for c in chunks)
    reasoning = "".join(getattr(c.choices[0].delta, "reasoning_content", None) or ""
                        for c in chunks)
    assert (visible, reasoning) == ("The answer is 4.", "plan step")
    whole = litellm.stream_chunk_builder(chunks)
    asyncio.run(handler.async_log_success_event(
        {"user": "ann", "litellm_call_id": "call-9"}, whole, None, None))
    (trace,) = handler.store.query()
    assert (trace.session_key, trace.run_id, trace.reasoning_text) == ("ann", "call-9",
                                                                       "plan step")
    assert trace.model == "Qwen/Qwen3-32B"


def _pydantic_ai(ns: dict[str, Any], out: str, server: Any) -> None:
    # W3: the wrapped client gives pydantic-ai a ThinkingPart, plain and streamed
    thinking = ns["result"].all_messages()[-1].parts[0]
    assert thinking.content == "plan step"
    assert [r.get("stream", False) for r in server.requests] == [False, True]  # run_stream


def _openai_agents(ns: dict[str, Any], out: str, server: Any) -> None:
    # W3: a ReasoningItem whose summary is the reasoning, plain and streamed
    for result in (ns["result"], ns["streamed"]):
        item = result.new_items[0]
        assert [s.text for s in item.raw_item.summary] == ["plan step"]


CHECKS: dict[str, tuple[tuple[str, ...], Callable[..., None]]] = {
    "langchain": (("langchain_core", "langchain_openai"), _langchain),
    "langchain-traces": (("langchain_core", "langchain_openai"), _langchain_traces),
    "litellm": (("litellm",), _litellm),
    "litellm-proxy": (("litellm",), _litellm_proxy),
    "pydantic-ai": (("pydantic_ai",), _pydantic_ai),
    "openai-agents": (("agents",), _openai_agents),
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_recipe(name: str, chat_server: Any, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> None:
    modules, check = CHECKS[name]
    for module in modules:
        require(module, REQUIRE_INTEGRATIONS)
    monkeypatch.chdir(tmp_path)  # the recipes' traces.db
    namespace, out = _run(name, chat_server)
    check(namespace, out, chat_server)
