"""Cost of the framework integrations per stream chunk, against the framework's own per-chunk cost.

Run: ``python benchmarks/bench_integrations.py`` (from the repository root, with the
``integrations`` extra installed; ``--quick`` runs fewer rounds).  Prints microseconds per chunk,
best of several rounds of ``time.perf_counter`` loops, and each ratio within the same run, for a
stream of raw ``<think>`` text (about 1,000 characters: reasoning, then the answer):

LangChain, 4-character ``AIMessageChunk`` chunks (goal: the splitter adds at most 1.5x the cost of
langchain-core's own chunk concatenation):

* ``AIMessageChunk.__add__``: summing the chunks, as every consumer of a stream (and LangChain's
  own run tracking) does -- the baseline;
* ``ThinkSplitter`` core: the splitter's per-stream state over the chunks (what the splitter itself
  adds);
* ``ThinkSplitter.transform``: the Runnable as a chain calls it, with langchain-core's run
  tracking around it (which sums the output chunks once more, so it includes one ``__add__``).

LiteLLM, the mock stream's 3-character chunks (goal: the hook adds at most 1.5x LiteLLM's own cost
per chunk):

* ``CustomStreamWrapper``: LiteLLM's own per-chunk cost -- ``litellm.completion(...,
  mock_response=TEXT, stream=True)`` consumed to the end, with the cost of a one-chunk call
  subtracted, divided by the number of chunks -- the baseline;
* the hook's rewriter on the same ``ModelResponseStream`` objects (fields set in place);
* ``async_post_call_streaming_iterator_hook``: the whole async generator over an async source of
  those chunks, less the same source iterated bare.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TEXT = "<think>" + "The user asks 17 * 23; 17 * 20 = 340 and 17 * 3 = 51. " * 12 + "</think>"
TEXT += "17 * 23 = **391**. " * 12


def best(fn: Callable[[], Any], rounds: int) -> float:
    """Best seconds of ``fn()`` over ``rounds`` runs."""
    out = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def langchain_rows(rounds: int) -> list[tuple[str, float, float]]:
    """``(row, us per chunk, ratio to the baseline)`` for LangChain."""
    from langchain_core.messages import AIMessageChunk

    from thinkparse.langchain import ThinkSplitter, _Splitting

    pieces = [TEXT[i:i + 4] for i in range(0, len(TEXT), 4)]
    chunks = [AIMessageChunk(content=p, id="run-1") for p in pieces]
    n = len(chunks)

    def concat() -> None:
        total = chunks[0]
        for c in chunks[1:]:
            total = total + c

    def core() -> None:
        state = _Splitting(None)
        for c in chunks:
            state.item(c)
        state.finish()

    splitter = ThinkSplitter()

    def transform() -> None:
        for _ in splitter.transform(iter(chunks)):
            pass

    base = best(concat, rounds) / (n - 1)
    rows = [("AIMessageChunk.__add__ (baseline)", base, 1.0)]
    for name, fn in (("ThinkSplitter core", core), ("ThinkSplitter.transform", transform)):
        t = best(fn, rounds) / n
        rows.append((name, t, t / base))
    return rows


def litellm_rows(rounds: int) -> list[tuple[str, float, float]]:
    """``(row, us per chunk, ratio to the baseline)`` for LiteLLM (its own notices silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _litellm_rows(rounds)


def _litellm_rows(rounds: int) -> list[tuple[str, float, float]]:
    import litellm

    from thinkparse.litellm import _Rewriter, handler

    call = {"model": "openai/bench", "messages": [{"role": "user", "content": "q"}]}

    def stream(text: str) -> list[Any]:
        return list(litellm.completion(**call, mock_response=text, stream=True))

    n = len(stream(TEXT))
    one = best(lambda: stream("abc"), rounds)
    whole = best(lambda: stream(TEXT), rounds)
    base = (whole - one) / (n - 1)
    rewrite = hook = bare = float("inf")

    async def timed(chunks: list[Any], through: bool) -> float:
        async def source() -> Any:
            for c in chunks:
                yield c

        t = time.perf_counter()
        if through:
            async for _ in handler.async_post_call_streaming_iterator_hook(None, source(), {}):
                pass
        else:
            async for _ in source():
                pass
        return time.perf_counter() - t

    for _ in range(rounds):
        chunks = stream(TEXT)  # fresh objects: the rewriter changes them in place
        t = time.perf_counter()
        rw = _Rewriter(None, "bench")
        for c in chunks:
            rw.chunk(c)
        rw.finish()
        rewrite = min(rewrite, time.perf_counter() - t)
        chunks = stream(TEXT)
        bare = min(bare, asyncio.run(timed(chunks, False)))
        hook = min(hook, asyncio.run(timed(chunks, True)))
    rows = [("CustomStreamWrapper per chunk (baseline)", base, 1.0),
            ("hook rewriter", rewrite / n, rewrite / n / base),
            ("async_post_call_streaming_iterator_hook", (hook - bare) / n,
             (hook - bare) / n / base)]
    return rows


def main(argv: list[str]) -> int:
    rounds = 3 if "--quick" in argv else 15
    print(f"stream: {len(TEXT)} characters of <think> text\n")
    for title, rows_of in (("LangChain, 4-character chunks", langchain_rows),
                           ("LiteLLM, the mock stream's chunks", litellm_rows)):
        try:
            rows = rows_of(rounds)
        except ImportError as exc:
            print(f"{title}: skipped ({exc})\n")
            continue
        print(f"| {title} | us/chunk | ratio to the baseline (goal <= 1.5x) |")
        print("|---|---|---|")
        for name, us, ratio in rows:
            print(f"| {name} | {us * 1e6:.2f} | {ratio:.2f}x |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
