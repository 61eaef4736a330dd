"""Cost of replay (section 10): ``to_message`` and ``ReasoningContext.attach`` on typical turns.

Target: each within 3x of ``normalize`` on the same input.

Run: ``python benchmarks/bench_replay.py`` (from the repository root, or with thinkparse
installed).  Prints ns per call, best of several rounds of ``time.perf_counter`` loops, and each
ratio to ``normalize`` of the same response.  ``--quick`` runs fewer iterations.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thinkparse import ReasoningContext, normalize, to_message

REASONING = "The user asks for the weather in Paris. I should call get_weather with city=Paris."
SIG = "EqoBCkgIARABGAIiQL7a" * 8

TURNS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}


def _anthropic() -> tuple[dict[str, Any], dict[str, Any]]:
    content = [{"type": "thinking", "thinking": REASONING, "signature": SIG},
               {"type": "text", "text": "Let me check."},
               {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
                "input": {"city": "Paris"}}]
    resp = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
            "content": content, "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 20, "output_tokens": 30}}
    req = {"model": "claude-x", "max_tokens": 1024, "thinking": {"type": "enabled",
                                                                "budget_tokens": 512},
           "messages": [{"role": "user", "content": "Weather in Paris?"},
                        {"role": "assistant", "content": content[1:]},
                        {"role": "user", "content": [{"type": "tool_result",
                                                      "tool_use_id": "toolu_01",
                                                      "content": "16"}]}]}
    return resp, req


def _responses() -> tuple[dict[str, Any], dict[str, Any]]:
    output = [{"id": "rs_1", "type": "reasoning", "encrypted_content": SIG,
               "summary": [{"type": "summary_text", "text": REASONING}]},
              {"id": "fc_1", "type": "function_call", "call_id": "call_1",
               "name": "get_weather", "arguments": '{"city":"Paris"}', "status": "completed"}]
    resp = {"id": "resp_1", "object": "response", "model": "gpt-5", "status": "completed",
            "output": output, "usage": {"input_tokens": 20, "output_tokens": 30,
                                        "total_tokens": 50}}
    req = {"model": "gpt-5", "input": [{"role": "user", "content": "Weather in Paris?"},
                                       output[1],
                                       {"type": "function_call_output", "call_id": "call_1",
                                        "output": "16"}]}
    return resp, req


def _chat() -> tuple[dict[str, Any], dict[str, Any]]:
    msg = {"role": "assistant", "content": "", "reasoning_content": REASONING,
           "tool_calls": [{"id": "call_1", "type": "function",
                           "function": {"name": "get_weather",
                                        "arguments": '{"city":"Paris"}'}}]}
    resp = {"id": "c1", "object": "chat.completion", "model": "deepseek-v4",
            "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 30, "total_tokens": 50}}
    req = {"model": "deepseek-v4", "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": msg["tool_calls"]},
        {"role": "tool", "tool_call_id": "call_1", "content": "16"}]}
    return resp, req


TURNS = {"anthropic": _anthropic(), "openai_responses": _responses(), "openai_chat": _chat()}


def best_ns(fn: Callable[[], Any], n: int, rounds: int = 5) -> float:
    """Best ns per call over ``rounds`` loops of ``n`` calls."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e9)
    return best


def measure(n: int) -> list[tuple[str, float, float, float]]:
    """``(family, normalize ns, to_message ns, attach ns)`` per typical turn."""
    rows = []
    for family, (resp, req) in TURNS.items():
        ctx = ReasoningContext()
        ctx.update(resp)
        t_norm = best_ns(lambda r=resp: normalize(r), n)
        t_msg = best_ns(lambda r=resp: to_message(r), n)
        t_att = best_ns(lambda c=ctx, q=req: c.attach(q), n)
        rows.append((family, t_norm, t_msg, t_att))
    return rows


def main(argv: list[str]) -> int:
    n = 2000 if "--quick" in argv else 20000
    print("| turn | normalize | to_message (ratio) | attach (ratio) | target <= 3x |")
    print("|---|---:|---:|---:|---|")
    ok = True
    for family, a, b, c in measure(n):
        met = b <= 3 * a and c <= 3 * a
        ok = ok and met
        print(f"| {family} | {a:,.0f} ns | {b:,.0f} ns ({b / a:.2f}x) | "
              f"{c:,.0f} ns ({c / a:.2f}x) | {'met' if met else 'MISSED'} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
