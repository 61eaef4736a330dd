"""Cost of the client adapters: ``stream_deltas`` and ``thinkparse.openai.wrap`` per event.

Run: ``python benchmarks/bench_clients.py`` (from the repository root, or with thinkparse
installed; the wrapper's rows need ``openai``).  Prints ns per event, best of several rounds of
``time.perf_counter`` loops, for a 250-event chat stream with raw ``<think>`` content cut into
4-character chunks:

* ``StreamNormalizer.feed`` on each event (the baseline);
* ``stream_deltas`` over the same events (the normaliser plus the iterator and the filter of
  derived helper events): the goal is at most 1.5x the baseline;
* the ``wrap`` rewriter on the same events as ``ChatCompletionChunk`` objects (a scanner per
  choice, fields set on the SDK's own objects), against what the ``openai`` client itself spends
  building each chunk object from its JSON (``openai._models.construct_type``, as its stream
  does): the goal is at most a quarter of that.  A bare ``ThinkScanner.feed`` is shown too;
* ``iter_sse`` on one large event (a single ``data:`` line of 4 MB and of 16 MB, cut into 1 KB
  chunks): the time must grow linearly with the size, so the goal for 4x the size is at most
  5x the time (before the held line was kept in pieces it was 15.8x).

``--quick`` runs fewer rounds (and the large event at 256 KB and 1 MB).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thinkparse import StreamNormalizer, ThinkScanner, iter_sse, stream_deltas

TEXT = "<think>" + "The user asks 17 * 23; 17 * 20 = 340 and 17 * 3 = 51. " * 14 + "</think>"
TEXT += "17 * 23 = **391**. " * 12
PIECES = [TEXT[i:i + 4] for i in range(0, len(TEXT), 4)][:400]
EVENTS = [
    {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
     "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
    for p in PIECES
]


def best(fn: Callable[[], Any], rounds: int) -> float:
    """Best ns per event of ``fn`` (which handles all of ``EVENTS``) over ``rounds`` runs."""
    out = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out = min(out, (time.perf_counter() - t) / len(EVENTS) * 1e9)
    return out


def normalizer() -> None:
    sn = StreamNormalizer()
    for e in EVENTS:
        sn.feed(e)
    sn.close()


def deltas() -> None:
    for _ in stream_deltas(EVENTS):
        pass


def scanner() -> None:
    sc = ThinkScanner()
    for p in PIECES:
        sc.feed(p)
    sc.close()


def large_event_ms(size: int, rounds: int) -> float:
    """Best ms of ``iter_sse`` over one event whose data line is ``size`` bytes, 1 KB chunks."""
    body = b'data: {"text": "' + b"x" * size + b'"}\n\n'
    chunks = [body[i:i + 1024] for i in range(0, len(body), 1024)]
    out = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _event in iter_sse(chunks):
            pass
        out = min(out, (time.perf_counter() - t) * 1e3)
    return out


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    rounds = 5 if quick else 30
    base = best(normalizer, rounds)
    ours = best(deltas, rounds)
    print(f"StreamNormalizer.feed        {base:8.0f} ns/event")
    print(f"stream_deltas                {ours:8.0f} ns/event  ({ours / base:.2f}x, goal <= 1.5x)")
    small, large = (256 << 10, 1 << 20) if quick else (4 << 20, 16 << 20)
    t_small = large_event_ms(small, 2 if quick else 5)
    t_large = large_event_ms(large, 2 if quick else 5)
    print(f"iter_sse, one {small >> 10:>6} KB event {t_small:8.1f} ms")
    print(f"iter_sse, one {large >> 10:>6} KB event {t_large:8.1f} ms  "
          f"({t_large / t_small:.1f}x for 4x the size, goal <= 5x)")
    try:
        import openai  # noqa: F401
    except ImportError:
        print("wrap rewriter                 skipped (openai is not installed)")
        return 0
    from openai._models import construct_type
    from openai.types.chat import ChatCompletionChunk

    from thinkparse.clients._openai_stream import Rewriter

    def rewrite() -> None:
        # the chunks are built outside the timed part in a real stream (the SDK does it);
        # here they are rebuilt per round, so their construction is timed separately
        rw = Rewriter({})
        for c in chunks:
            rw.chunk(c)
        rw.finish()

    build_ns = float("inf")
    bare = best(scanner, rounds)
    wrapped = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        # as the client's stream builds them: construct_type(), no validation
        chunks = [construct_type(type_=ChatCompletionChunk, value=e) for e in EVENTS]
        build_ns = min(build_ns, (time.perf_counter() - t) / len(EVENTS) * 1e9)
        wrapped = min(wrapped, best(rewrite, 1))
    print(f"ThinkScanner.feed (bare)     {bare:8.0f} ns/chunk")
    print(f"openai chunk construction    {build_ns:8.0f} ns/chunk")
    print(f"wrap rewriter                {wrapped:8.0f} ns/chunk ({wrapped / build_ns:.2f}x the "
          "SDK's own chunk construction, goal <= 0.25x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
