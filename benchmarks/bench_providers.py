"""Cost of the provider normalisers (``normalize`` of a typical dict <= 3 us).

Run: ``python benchmarks/bench_providers.py`` (from the repository root, or with thinkparse
installed).  Prints ns per call for ``normalize`` on a typical response of each family and for
``StreamNormalizer.feed`` per event of a typical stream, best of several rounds of
``time.perf_counter`` loops.  ``--quick`` runs fewer iterations.

``--against DIR [DIR ...]`` compares source trees (each a directory holding a ``thinkparse``
package, e.g. ``git archive main thinkparse | tar -x -C DIR`` plus the compiled scanner copied
in) with this one in one run: each tree runs in its own process, the trees alternate
``--runs`` times (three by default), and each figure is the best over all runs of 40 rounds of
300 calls (``normalize``) or 60 rounds of one stream (``feed``, per event), in CPU time of the
thread (``time.thread_time``), with the load average and each row's ratio to the other trees
printed.  ``--help`` lists the options.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(
    0, os.environ.get("THINKPARSE_BENCH_TREE") or str(Path(__file__).resolve().parent.parent)
)

import thinkparse
from thinkparse import StreamNormalizer, normalize

REASONING = "The user asks for 17 * 23. 17 * 20 = 340, 17 * 3 = 51, so 391."
ANSWER = "17 * 23 = **391**."

RESPONSES: dict[str, dict[str, Any]] = {
    "openai_chat": {
        "id": "chatcmpl-123",
        "object": "chat.completion",
        "created": 1750000000,
        "model": "deepseek-reasoner",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": ANSWER,
                    "reasoning_content": REASONING,
                },
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": 12,
            "completion_tokens": 60,
            "total_tokens": 72,
            "completion_tokens_details": {"reasoning_tokens": 40},
        },
    },
    "openai_chat (no reasoning)": {
        "id": "chatcmpl-124",
        "object": "chat.completion",
        "created": 1750000000,
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": ANSWER, "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 20, "total_tokens": 32},
    },
    "openai_chat (<think> tags)": {
        "id": "chatcmpl-125",
        "object": "chat.completion",
        "model": "qwen3",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": f"<think>\n{REASONING}\n</think>\n\n{ANSWER}",
                },
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 12, "completion_tokens": 60, "total_tokens": 72},
    },
    "openai_responses": {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "o4-mini",
        "output": [
            {
                "id": "rs_1",
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": REASONING}],
            },
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": ANSWER, "annotations": []}],
            },
        ],
        "usage": {
            "input_tokens": 12,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 60,
            "output_tokens_details": {"reasoning_tokens": 40},
            "total_tokens": 72,
        },
    },
    "anthropic": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": [
            {"type": "thinking", "thinking": REASONING, "signature": "EqQBCgIYAhIM1gbcDa9GJw"},
            {"type": "text", "text": ANSWER},
        ],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 60},
    },
    "gemini": {
        "candidates": [
            {
                "content": {
                    "parts": [{"text": REASONING, "thought": True}, {"text": ANSWER}],
                    "role": "model",
                },
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 12,
            "candidatesTokenCount": 20,
            "thoughtsTokenCount": 40,
            "totalTokenCount": 72,
        },
        "modelVersion": "gemini-2.5-flash",
    },
    "bedrock": {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"reasoningContent": {"reasoningText": {"text": REASONING, "signature": "s"}}},
                    {"text": ANSWER},
                ],
            }
        },
        "stopReason": "end_turn",
        "usage": {"inputTokens": 12, "outputTokens": 60, "totalTokens": 72},
        "metrics": {"latencyMs": 900},
    },
    "ollama": {
        "model": "qwen3",
        "created_at": "2025-06-01T00:00:00Z",
        "message": {"role": "assistant", "content": ANSWER, "thinking": REASONING},
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": 12,
        "eval_count": 60,
    },
    "cohere": {
        "id": "c14c80c3-18eb-4519-9460-6c92edd8cfb4",
        "finish_reason": "COMPLETE",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": REASONING},
                {"type": "text", "text": ANSWER},
            ],
        },
        "usage": {
            "billed_units": {"input_tokens": 12, "output_tokens": 60},
            "tokens": {"input_tokens": 12, "output_tokens": 60},
        },
    },
    "gemini interactions": {
        "id": "v1_ChdTbXNIYXFyUEV0ZUttdGtQNXVqVHdRRRIX",
        "object": "interaction",
        "model": "gemini-3.5-flash",
        "status": "completed",
        "created": "2026-08-20T09:14:02Z",
        "updated": "2026-08-20T09:14:02Z",
        "service_tier": "standard",
        "steps": [
            {
                "type": "thought",
                "signature": "0TabAGXKL5T5XsMojfJXvCGG61C1Gn/kSa4TeN1Cpwxx1jugBWrP",
                "summary": [{"type": "text", "text": REASONING}],
            },
            {"type": "model_output", "content": [{"type": "text", "text": ANSWER}]},
        ],
        "usage": {
            "total_input_tokens": 12,
            "total_output_tokens": 20,
            "total_thought_tokens": 40,
            "total_tokens": 72,
        },
    },
}


def _words(text: str) -> list[str]:
    out = []
    for i, w in enumerate(text.split(" ")):
        out.append(w if i == 0 else " " + w)
    return out


def _chat_events() -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = []
    base = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    for w in _words(REASONING):
        ev.append({**base, "choices": [{"index": 0, "delta": {"reasoning_content": w}}]})
    for w in _words(ANSWER):
        ev.append({**base, "choices": [{"index": 0, "delta": {"content": w}}]})
    return ev


def _chat_tag_events() -> list[dict[str, Any]]:
    base = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
    text = f"<think>\n{REASONING}\n</think>\n\n{ANSWER}"
    return [
        {**base, "choices": [{"index": 0, "delta": {"content": text[i : i + 4]}}]}
        for i in range(0, len(text), 4)
    ]


def _anthropic_events() -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"usage": {"input_tokens": 12, "output_tokens": 1}}},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        },
    ]
    for w in _words(REASONING):
        ev.append(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": w},
            }
        )
    ev.append(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "EqQB"},
        }
    )
    ev.append({"type": "content_block_stop", "index": 0})
    ev.append(
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}
    )
    for w in _words(ANSWER):
        ev.append(
            {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": w}}
        )
    ev.append({"type": "content_block_stop", "index": 1})
    ev.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 60},
        }
    )
    ev.append({"type": "message_stop"})
    return ev


def _responses_events() -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = []
    for w in _words(REASONING):
        ev.append(
            {
                "type": "response.reasoning_summary_text.delta",
                "item_id": "rs",
                "output_index": 0,
                "summary_index": 0,
                "delta": w,
                "sequence_number": 1,
            }
        )
    for w in _words(ANSWER):
        ev.append(
            {
                "type": "response.output_text.delta",
                "item_id": "msg",
                "output_index": 1,
                "content_index": 0,
                "delta": w,
                "sequence_number": 2,
                "logprobs": [],
            }
        )
    return ev


def _gemini_events() -> list[dict[str, Any]]:
    # streamGenerateContent chunks (tests/data/gemini/stream_thought_chunks.json): each a whole
    # response holding the new part, cumulative usageMetadata on every chunk, the signature on
    # the last part and finishReason on the last chunk.
    ev: list[dict[str, Any]] = []
    words = [(w, True) for w in _words(REASONING)] + [(w, False) for w in _words(ANSWER)]
    thoughts = 0
    answer = 0
    for n, (w, thought) in enumerate(words):
        part: dict[str, Any] = {"text": w, "thought": True} if thought else {"text": w}
        if thought:
            thoughts += 2
        else:
            answer += 2
        cand: dict[str, Any] = {"content": {"parts": [part], "role": "model"}, "index": 0}
        if n == len(words) - 1:
            part["thoughtSignature"] = "0TabAGXKL5T5XsMojfJXvCGG61C1Gn/kSa4TeN1Cpwxx1jugBWrP"
            cand["finishReason"] = "STOP"
        usage: dict[str, Any] = {"promptTokenCount": 12}
        if answer:
            usage["candidatesTokenCount"] = answer
        usage["totalTokenCount"] = 12 + thoughts + answer
        usage["thoughtsTokenCount"] = thoughts
        ev.append(
            {
                "candidates": [cand],
                "usageMetadata": usage,
                "modelVersion": "gemini-2.5-flash",
                "responseId": "gStReAm0001",
            }
        )
    return ev


def _bedrock_events() -> list[dict[str, Any]]:
    # ConverseStream events as boto3 yields them (tests/data/bedrock/stream_reasoning_text.json).
    ev: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    for w in _words(REASONING):
        ev.append(
            {
                "contentBlockDelta": {
                    "delta": {"reasoningContent": {"text": w}},
                    "contentBlockIndex": 0,
                }
            }
        )
    ev.append(
        {
            "contentBlockDelta": {
                "delta": {"reasoningContent": {"signature": "Q6gNctc8oQZr0DWa/2TJLpP4XcIn"}},
                "contentBlockIndex": 0,
            }
        }
    )
    ev.append({"contentBlockStop": {"contentBlockIndex": 0}})
    for w in _words(ANSWER):
        ev.append({"contentBlockDelta": {"delta": {"text": w}, "contentBlockIndex": 1}})
    ev.append({"contentBlockStop": {"contentBlockIndex": 1}})
    ev.append({"messageStop": {"stopReason": "end_turn"}})
    ev.append(
        {
            "metadata": {
                "usage": {"inputTokens": 12, "outputTokens": 60, "totalTokens": 72},
                "metrics": {"latencyMs": 900},
            }
        }
    )
    return ev


def _ollama_events() -> list[dict[str, Any]]:
    # /api/chat NDJSON objects (tests/data/ollama/stream_chat_ndjson.json).
    base = {"model": "qwen3", "created_at": "2025-06-01T10:20:00.000000Z"}
    ev: list[dict[str, Any]] = []
    for w in _words(REASONING):
        ev.append(
            {
                **base,
                "message": {"role": "assistant", "content": "", "thinking": w},
                "done": False,
            }
        )
    for w in _words(ANSWER):
        ev.append({**base, "message": {"role": "assistant", "content": w}, "done": False})
    ev.append(
        {
            **base,
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": "stop",
            "total_duration": 2100000000,
            "load_duration": 5000000,
            "prompt_eval_count": 12,
            "prompt_eval_duration": 30000000,
            "eval_count": 60,
            "eval_duration": 2000000000,
        }
    )
    return ev


def _cohere_events() -> list[dict[str, Any]]:
    # Chat v2 stream events (tests/data/cohere/stream_thinking_and_text.json).
    ev: list[dict[str, Any]] = [
        {
            "id": "c14c80c3-18eb-4519-9460-6c92edd8cfb4",
            "type": "message-start",
            "delta": {
                "message": {
                    "role": "assistant",
                    "content": [],
                    "tool_plan": "",
                    "tool_calls": [],
                    "citations": [],
                }
            },
        }
    ]
    for i, (kind, text) in enumerate((("thinking", REASONING), ("text", ANSWER))):
        ev.append(
            {
                "type": "content-start",
                "index": i,
                "delta": {"message": {"content": {"type": kind, kind: ""}}},
            }
        )
        for w in _words(text):
            ev.append(
                {"type": "content-delta", "index": i, "delta": {"message": {"content": {kind: w}}}}
            )
        ev.append({"type": "content-end", "index": i})
    ev.append(
        {
            "type": "message-end",
            "delta": {
                "finish_reason": "COMPLETE",
                "usage": {
                    "billed_units": {"input_tokens": 12, "output_tokens": 60},
                    "tokens": {"input_tokens": 12, "output_tokens": 60},
                },
            },
        }
    )
    return ev


def _interactions_events() -> list[dict[str, Any]]:
    # Gemini Interactions stream events (as tests/data/gemini/
    # stream_interactions_thought_summary.json): the thought summary and the answer word by word,
    # the signature as the thought's last delta.
    head = {"id": "v1_ChdTbXNIYXFyUEV0ZUttdGtQNXVqVHdRRRIX", "object": "interaction",
            "model": "gemini-3.5-flash"}
    ev: list[dict[str, Any]] = [
        {"event_type": "interaction.created", "interaction": {**head, "status": "in_progress"}},
        {"event_type": "interaction.status_update", "interaction_id": head["id"],
         "status": "in_progress"},
        {"event_type": "step.start", "index": 0, "step": {"type": "thought"}},
    ]
    for w in _words(REASONING):
        ev.append({"event_type": "step.delta", "index": 0,
                   "delta": {"type": "thought_summary", "content": {"type": "text", "text": w}}})
    ev.append({"event_type": "step.delta", "index": 0, "delta": {
        "type": "thought_signature",
        "signature": "0TabAGXKL5T5XsMojfJXvCGG61C1Gn/kSa4TeN1Cpwxx1jugBWrP"}})
    ev.append({"event_type": "step.stop", "index": 0})
    ev.append({"event_type": "step.start", "index": 1, "step": {"type": "model_output"}})
    for w in _words(ANSWER):
        ev.append({"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": w}})
    ev.append({"event_type": "step.stop", "index": 1})
    ev.append({"event_type": "interaction.completed", "interaction": {
        **head, "status": "completed", "usage": {
            "total_input_tokens": 12, "total_output_tokens": 20, "total_thought_tokens": 40,
            "total_tokens": 72}}})
    return ev


STREAMS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "openai_chat": _chat_events,
    "openai_chat (<think> in content, 4-char chunks)": _chat_tag_events,
    "openai_responses": _responses_events,
    "anthropic": _anthropic_events,
    "gemini": _gemini_events,
    "bedrock": _bedrock_events,
    "ollama": _ollama_events,
    "cohere": _cohere_events,
    "gemini interactions": _interactions_events,
}


def _best(fn: Callable[[], object], loops: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(loops):
            fn()
        best = min(best, (time.perf_counter() - t0) / loops)
    return best * 1e9


def main(quick: bool = False) -> None:
    loops, rounds = (2_000, 3) if quick else (20_000, 5)
    print(f"thinkparse {thinkparse.__version__}, scanner: {thinkparse.IMPLEMENTATION}")
    print()
    print(f"{'normalize(dict)':<48} {'ns/call':>10}")
    for name, payload in RESPONSES.items():

        def one(p: dict[str, Any] = payload) -> object:
            return normalize(p)

        ns = _best(one, loops, rounds)
        print(f"{name:<48} {ns:>10.0f}")
    print()
    print(f"{'StreamNormalizer.feed, per event':<48} {'ns/event':>10} {'events':>7}")
    for name, make in STREAMS.items():
        events = make()
        n = max(1, loops // len(events))
        best = float("inf")
        for _ in range(rounds):
            feeds = [StreamNormalizer().feed for _ in range(n)]
            t0 = time.perf_counter()
            for feed in feeds:
                for e in events:
                    feed(e)
            best = min(best, (time.perf_counter() - t0) / (n * len(events)))
        print(f"{name:<48} {best * 1e9:>10.0f} {len(events):>7}")
    print()
    print(f"{'per stream':<48} {'ns/call':>10}")
    ctor = _best(StreamNormalizer, loops, rounds)
    print(f"{'StreamNormalizer() (default options)':<48} {ctor:>10.0f}")
    events = _chat_events()

    def close_after_feeding() -> None:
        sn = StreamNormalizer()
        for e in events:
            sn.feed(e)
        sn.close()

    whole = _best(close_after_feeding, max(1, loops // len(events)), rounds)
    print(f"{'StreamNormalizer() + 24 feeds + close()':<48} {whole:>10.0f}")
    if not hasattr(thinkparse, "to_message"):
        return
    print()
    print(f"{'the turn (X1, X2; target within 3x normalize)':<48} {'ns/call':>10}")
    for name, payload in RESPONSES.items():

        def blocks(p: dict[str, Any] = payload) -> object:
            return normalize(p).blocks

        def message(p: dict[str, Any] = payload) -> object:
            return thinkparse.to_message(p)

        nb = _best(blocks, loops // 4, rounds)
        nm = _best(message, loops // 4, rounds)
        print(f"{'normalize(r).blocks  ' + name:<48} {nb:>10.0f}")
        print(f"{'to_message(r)        ' + name:<48} {nm:>10.0f}")


def _table() -> None:
    # One process's rows for --against: "name<TAB>ns" lines, thread CPU time.
    def best(fn: Callable[[], object], loops: int, rounds: int) -> float:
        b = float("inf")
        for _ in range(rounds):
            t0 = time.thread_time()
            for _ in range(loops):
                fn()
            b = min(b, (time.thread_time() - t0) / loops)
        return b * 1e9

    for name, payload in RESPONSES.items():

        def one(p: dict[str, Any] = payload) -> object:
            return normalize(p)

        try:
            one()
        except Exception as e:  # a tree that cannot read this response: its row stays empty
            print(f"normalize {name}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        print(f"normalize {name}\t{best(one, 300, 40):.0f}")
    for name, make in STREAMS.items():
        events = make()

        def run(evs: list[dict[str, Any]] = events) -> None:
            sn = StreamNormalizer()
            for e in evs:
                sn.feed(e)
            sn.close()

        try:
            run()
        except Exception as e:  # a tree that cannot read this stream: its row stays empty
            print(f"feed {name}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        print(f"feed {name}\t{best(run, 20, 60) / len(events):.0f}")
    # A long stream (500 objects) and a stream whose turn is read (what waits until first use).
    short = _ollama_events()
    long = [short[0]] + [short[1 + i % (len(short) - 2)] for i in range(498)] + [short[-1]]

    def long_run() -> None:
        sn = StreamNormalizer()
        for e in long:
            sn.feed(e)
        sn.close()

    print(f"feed ollama (500 objects)\t{best(long_run, 2, 40) / len(long):.0f}")

    def with_message() -> None:
        sn = StreamNormalizer()
        for e in short:
            sn.feed(e)
        sn.close()
        sn.message  # noqa: B018 - the turn, built on first use

    try:
        with_message()
    except AttributeError as e:  # a tree without the turn
        print(f"feed ollama + message: {type(e).__name__}: {e}", file=sys.stderr)
    else:
        print(f"feed ollama + message (per object)\t{best(with_message, 20, 60) / len(short):.0f}")


def against(trees: list[str], runs: int = 3) -> None:
    """Alternate this tree and ``trees``; print the best figure of each row per tree, and the
    ratio of this tree's figure to each other tree's."""
    here = str(Path(__file__).resolve().parent.parent)
    names = ["this tree", *trees]
    best: dict[str, dict[str, float]] = {n: {} for n in names}
    loads = []
    for _ in range(runs):
        for name, tree in zip(names, [here, *trees]):
            env = {**os.environ, "THINKPARSE_BENCH_TREE": tree}
            out = subprocess.run(
                [sys.executable, __file__, "--table"], env=env, capture_output=True,
                text=True, check=True,
            ).stdout
            loads.append(os.getloadavg()[0])
            for line in out.splitlines():
                row, ns = line.rsplit("\t", 1)
                best[name][row] = min(best[name].get(row, float("inf")), float(ns))
    rows = list(best["this tree"])
    print(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f}")
    print(f"{'ns (best)':<56}" + "".join(f"{n[-18:]:>20}" for n in names)
          + "".join(f"{'/ ' + n[-12:]:>16}" for n in trees))
    for row in rows:
        mine = best["this tree"][row]
        print(f"{row:<56}" + "".join(f"{best[n].get(row, float('nan')):>20.0f}" for n in names)
              + "".join(f"{mine / best[n].get(row, float('nan')):>15.2f}x" for n in trees))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Cost of normalize() and StreamNormalizer.feed() per provider family "
        "(docs/behaviour.md#performance).",
    )
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument(
        "--against", nargs="+", metavar="DIR",
        help="compare this tree with source trees (each a directory holding a thinkparse "
        "package with its compiled scanner built), alternating them in one run",
    )
    parser.add_argument("--runs", type=int, default=3,
                        help="with --against: how many times the trees alternate (default 3)")
    parser.add_argument("--table", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = _arguments()
    if arguments.table:
        _table()
    elif arguments.against:
        against(arguments.against, arguments.runs)
    else:
        main(arguments.quick)
