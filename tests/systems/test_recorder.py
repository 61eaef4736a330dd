"""TraceRecorder (D5): every stream family and raw text, masked, timed, budgeted."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from _support import DATA, load_json

from thinkparse import (
    BudgetEvent,
    BudgetTracker,
    Delta,
    ProviderError,
    ScannerClosedError,
    StreamNormalizer,
    TraceRecorder,
    TraceStore,
    mask_secrets,
    split_think,
)
from thinkparse.store import _recorder

STREAMS = sorted(DATA.glob("*/stream_*.json"))
KEYS = {"session_key": "s", "run_id": "r", "model": "m"}


def _options(case: dict[str, Any]) -> dict[str, Any]:
    options = dict(case.get("options") or {})
    if case.get("provider"):
        options["provider"] = case["provider"]
    return options


@pytest.mark.parametrize("path", STREAMS, ids=[f"{p.parent.name}/{p.stem}" for p in STREAMS])
def test_every_stream_family(path: Path) -> None:  # D5
    case = load_json(path)
    options = _options(case)
    reference = StreamNormalizer(**options)
    want = [reference.feed(e) for e in case["events"]] + [reference.close()]
    store = TraceStore()
    budget = BudgetTracker(max_tokens_per_session=0)
    rec = TraceRecorder(store, **KEYS, budget=budget, **options)
    got = [rec.feed(e) for e in case["events"]] + [rec.close()]
    assert got == want  # the deltas pass through unchanged
    result = reference.result
    assert rec.result == result
    trace = rec.trace
    assert store.get(trace.id) == trace
    assert (trace.provider, trace.reasoning_text) == (
        result.provider,
        mask_secrets(result.reasoning or "").text,
    )
    expected_tokens = (
        result.reasoning_tokens if result.reasoning_tokens is not None else result.tokens_est
    )
    assert trace.reasoning_tokens == expected_tokens  # B1
    assert budget.used("s") == expected_tokens
    assert trace.total_tokens == (result.usage.total_tokens or 0)


def test_raw_text_stream_in_chunks() -> None:  # D5: str chunks go through a ThinkScanner
    text = "<think>The key is password=hunter22! so\n\nstep two</think>Answer: 42"
    store = TraceStore()
    for size in (1, 3, 7, len(text)):
        rec = TraceRecorder(store, **KEYS)
        deltas = [rec.feed(text[i : i + size]) for i in range(0, len(text), size)]
        deltas.append(rec.close())
        assert "".join(d.visible for d in deltas) == "Answer: 42"
        assert "".join(d.reasoning for d in deltas) == split_think(text).reasoning
        split = split_think(text)
        assert rec.result.visible == split.visible and rec.result.reasoning == split.reasoning
        assert (rec.result.provider, rec.result.format) == ("text", "tags")
        assert rec.trace.reasoning_text == "The key is password=[REDACTED:password] so\n\nstep two"
        assert rec.trace.provider == "text"


def test_text_options_reach_the_scanner() -> None:  # D5
    rec = TraceRecorder(TraceStore(), **KEYS, start_in_reasoning=True)
    assert rec.feed("plan</think>done") == Delta("done", "plan")
    rec.close()
    assert rec.trace.reasoning_text == "plan"
    rec = TraceRecorder(TraceStore(), **KEYS, tags=["reason"])
    rec.feed("<reason>r</reason>v")
    rec.close()
    assert (rec.result.visible, rec.result.reasoning) == ("v", "r")


def test_text_without_reasoning() -> None:
    rec = TraceRecorder(TraceStore(), **KEYS)
    rec.feed("just an answer")
    rec.close()
    assert (rec.result.format, rec.trace.reasoning_text, rec.trace.reasoning_tokens) == (
        "none",
        "",
        0,
    )


def test_mixing_text_and_events_is_type_error() -> None:
    rec = TraceRecorder(TraceStore(), **KEYS)
    rec.feed("text")
    with pytest.raises(TypeError, match="a events item in a stream of text"):
        rec.feed({"choices": [{"delta": {"content": "x"}}]})
    rec = TraceRecorder(TraceStore(), **KEYS)
    rec.feed({"choices": [{"delta": {"content": "x"}}]})
    with pytest.raises(TypeError, match="a text item in a stream of events"):
        rec.feed("text")


def test_duration_from_first_feed_to_close(monkeypatch: pytest.MonkeyPatch) -> None:  # D5
    clock = iter([100.0, 100.25, 100.75])
    monkeypatch.setattr(_recorder.time, "monotonic", lambda: next(clock))
    rec = TraceRecorder(TraceStore(), **KEYS)
    rec.feed("a")  # 100.0: the start
    rec.feed("b")  # later feeds do not read the clock
    rec.close()  # 100.25
    assert rec.trace.duration_ms == 250


def test_no_feed_duration_zero() -> None:
    rec = TraceRecorder(TraceStore(), **KEYS)
    assert rec.close() == Delta()
    assert (rec.trace.duration_ms, rec.trace.provider, rec.trace.reasoning_text) == (
        0,
        "unknown",
        "",
    )


def test_budget_events_are_kept() -> None:  # D5, B2
    seen: list[BudgetEvent] = []
    budget = BudgetTracker(max_tokens_per_session=10, on_event=seen.append)
    rec = TraceRecorder(TraceStore(), **KEYS, budget=budget)
    rec.feed("<think>" + "x" * 40 + "</think>ok")
    rec.close()
    assert [e.type for e in rec.events] == ["reasoning_budget_warning", "reasoning_budget_exceeded"]
    assert list(rec.events) == seen
    rec2 = TraceRecorder(TraceStore(), **KEYS, budget=budget)
    rec2.close()
    assert rec2.events == ()


def test_raising_budget_callback_after_store() -> None:  # D5, B2
    def boom(event: BudgetEvent) -> None:
        raise RuntimeError("pager down")

    store = TraceStore()
    rec = TraceRecorder(
        store, **KEYS, budget=BudgetTracker(max_tokens_per_session=1, on_event=boom)
    )
    rec.feed("<think>abcdefgh</think>x")
    with pytest.raises(RuntimeError, match="pager down"):
        rec.close()
    assert store.count() == 1 and len(rec.events) == 2 and rec.trace.reasoning_text == "abcdefgh"


def test_lifecycle() -> None:  # D5
    store = TraceStore()
    rec = TraceRecorder(store, **KEYS, metadata={"user": "password=hunter22!"})
    for name in ("trace", "result", "events"):
        with pytest.raises(RuntimeError, match=f"TraceRecorder.{name} is available after close"):
            getattr(rec, name)
    rec.feed("x")
    rec.close()
    assert rec.close() == Delta()  # a second close stores nothing
    assert store.count() == 1
    assert rec.trace.metadata == {"user": "password=[REDACTED:password]"}
    with pytest.raises(ScannerClosedError):
        rec.feed("y")


def test_context_manager_marks_incomplete() -> None:  # D5
    store = TraceStore()
    with pytest.raises(KeyError), TraceRecorder(store, **KEYS, metadata={"a": 1}) as rec:
        rec.feed("<think>partial")
        raise KeyError("stream broke")
    assert rec.trace.metadata == {"a": 1, "incomplete": True}
    assert rec.trace.reasoning_text == "partial"
    with TraceRecorder(store, **KEYS) as ok:
        ok.feed("fine")
    assert ok.trace.metadata == {} and store.count() == 2


@pytest.mark.parametrize(
    "kwargs, exc, word",
    [
        ({"store": "db"}, TypeError, "store"),
        ({"budget": 3}, TypeError, "budget"),
        ({"session_key": ""}, ValueError, "session_key"),
        ({"model": None}, TypeError, "model"),
        ({"metadata": [1]}, TypeError, "metadata"),
        ({"bogus": 1}, TypeError, "bogus"),
        ({"start_in_reasoning": "auto"}, ValueError, "start_in_reasoning"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], exc: type, word: str) -> None:
    args: dict[str, Any] = {"store": TraceStore(), **KEYS, **kwargs}
    store = args.pop("store")
    with pytest.raises(exc, match=word):
        TraceRecorder(store, **args)


def test_recorders_in_threads_share_store_and_budget(tmp_path: Path) -> None:  # D4, B2
    store = TraceStore(tmp_path / "t.db")
    budget = BudgetTracker(max_tokens_per_session=1_000_000)
    events = [json.dumps({"choices": [{"delta": {"reasoning_content": "abcd"}}]})] * 5

    def work(n: int) -> None:
        for _ in range(20):
            rec = TraceRecorder(
                store, session_key="shared", run_id=str(n), model="m", budget=budget
            )
            for e in events:
                rec.feed(json.loads(e))
            rec.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.count(session_key="shared") == 100
    assert budget.used("shared") == 100 * 5  # 20 chars -> 5 tokens each
    store.close()


def test_provider_error_stores_the_partial_turn() -> None:  # D5, P16
    # An error event stores what came before, marked incomplete with the error, then raises.
    store = TraceStore()
    rec = TraceRecorder(store, **KEYS, metadata={"app": "x"})
    rec.feed({"type": "message_start", "message": {"id": "m1", "role": "assistant",
                                                   "content": [], "usage": {}}})
    rec.feed({"type": "content_block_start", "index": 0,
              "content_block": {"type": "thinking", "thinking": ""}})
    rec.feed({"type": "content_block_delta", "index": 0,
              "delta": {"type": "thinking_delta", "thinking": "Half a thought"}})
    with pytest.raises(ProviderError, match="overloaded_error"):
        rec.feed({"type": "error", "error": {"type": "overloaded_error",
                                              "message": "Overloaded"}})
    assert rec.closed
    trace = rec.trace
    assert trace.reasoning_text == "Half a thought"
    assert trace.metadata == {"app": "x", "incomplete": True, "error": {
        "type": "overloaded_error", "message": "Overloaded", "event": "error"}}
    assert rec.result.finish_reason == "error"
    assert store.get(trace.id) == trace
    with pytest.raises(ScannerClosedError):
        rec.feed({"type": "ping"})
