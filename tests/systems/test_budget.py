"""BudgetTracker: counting (B1) and events (B2)."""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import BudgetEvent, BudgetTracker, Extraction, Usage

W, X = "reasoning_budget_warning", "reasoning_budget_exceeded"


def ext(reasoning: str | None, reported: int | None) -> Extraction:
    est = 0 if reasoning is None else -(-len(reasoning) // 4)
    usage = Usage(reasoning_tokens=reported)
    return Extraction("", reasoning, reported, est, False, (), "anthropic", "blocks", usage)


def types(events: tuple[BudgetEvent, ...]) -> list[str]:
    return [e.type for e in events]


# --- B1 ------------------------------------------------------------------------------------------
def test_reported_count_wins_over_estimate() -> None:  # B1
    t = BudgetTracker(max_tokens_per_session=0)
    t.record("s", ext("x" * 400, 7))
    assert t.used("s") == 7


def test_estimate_when_not_reported() -> None:  # B1: characters / 4, rounded up
    t = BudgetTracker(max_tokens_per_session=0)
    t.record("s", ext("x" * 401, None))
    assert t.used("s") == 101


def test_omitted_reasoning_counts_zero() -> None:  # B1
    t = BudgetTracker()
    assert t.record("s", ext(None, None)) == ()
    assert t.used("s") == 0


def test_int_counts_as_given() -> None:  # B1
    t = BudgetTracker()
    t.record("s", 12)
    t.record("s", 0)
    assert t.used("s") == 12


@pytest.mark.parametrize("bad", [-1, -(10**20)])
def test_negative_is_value_error(bad: int) -> None:  # B1
    t = BudgetTracker()
    with pytest.raises(ValueError, match="usage"):
        t.record("s", bad)
    assert t.used("s") == 0


@pytest.mark.parametrize("bad", [True, 1.0, "3", None, Usage(reasoning_tokens=3)])
def test_wrong_usage_type(bad: object) -> None:
    with pytest.raises(TypeError, match="usage"):
        BudgetTracker().record("s", bad)  # type: ignore[arg-type]


def test_wrong_key_type() -> None:
    t = BudgetTracker()
    for call in (lambda: t.record(1, 1), lambda: t.used(1), lambda: t.status(None)):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="session_key"):
            call()


@pytest.mark.parametrize(
    "kwargs, exc, word",
    [
        ({"max_tokens_per_session": -1}, ValueError, "max_tokens_per_session"),
        ({"max_tokens_per_session": 1.5}, TypeError, "max_tokens_per_session"),
        ({"max_tokens_per_session": True}, TypeError, "max_tokens_per_session"),
        ({"warning_percent": 0}, ValueError, "warning_percent"),
        ({"warning_percent": 100.5}, ValueError, "warning_percent"),
        ({"warning_percent": float("nan")}, ValueError, "warning_percent"),
        ({"warning_percent": "80"}, TypeError, "warning_percent"),
        ({"on_event": 3}, TypeError, "on_event"),
    ],
)
def test_bad_options(kwargs: dict[str, object], exc: type[Exception], word: str) -> None:
    with pytest.raises(exc, match=word):
        BudgetTracker(**kwargs)  # type: ignore[arg-type]


# --- B2 ------------------------------------------------------------------------------------------
def test_exact_events_and_fields() -> None:  # B2
    seen: list[BudgetEvent] = []
    t = BudgetTracker(max_tokens_per_session=1000, warning_percent=80, on_event=seen.append)
    assert t.record("s", 799) == ()
    assert t.status("s") == "ok" and t.remaining("s") == 201
    (w,) = t.record("s", 1)
    assert w == BudgetEvent(W, "s", 800, 1000, 80.0) and w.stream == "budget"
    assert t.status("s") == "warning"
    assert t.record("s", 199) == ()
    (x,) = t.record("s", 1)
    assert x == BudgetEvent(X, "s", 1000, 1000, 100.0)
    assert t.status("s") == "exceeded" and t.remaining("s") == 0
    assert t.record("s", 5000) == ()  # once per session
    assert t.remaining("s") == 0 and t.used("s") == 6000
    assert seen == [w, x]


def test_both_events_from_one_call_warning_first() -> None:  # B2
    t = BudgetTracker(max_tokens_per_session=10)
    assert types(t.record("s", 25)) == [W, X]
    assert t.record("s", 1) == ()


def test_reset_one_and_all() -> None:  # B2: once per session until reset
    t = BudgetTracker(max_tokens_per_session=10)
    t.record("a", 10)
    t.record("b", 10)
    t.reset("a")
    assert t.used("a") == 0 and t.used("b") == 10
    assert types(t.record("a", 10)) == [W, X]
    assert t.record("b", 10) == ()
    t.reset()
    assert types(t.record("b", 8)) == [W]


def test_unlimited() -> None:  # B2
    seen: list[BudgetEvent] = []
    t = BudgetTracker(max_tokens_per_session=0, on_event=seen.append)
    assert t.record("s", 10**12) == ()
    assert t.remaining("s") is None and t.status("s") == "ok" and seen == []


def test_unknown_key() -> None:
    t = BudgetTracker(max_tokens_per_session=50)
    assert (t.used("nope"), t.remaining("nope"), t.status("nope")) == (0, 50, "ok")


def test_sessions_are_independent() -> None:  # B2
    t = BudgetTracker(max_tokens_per_session=10)
    assert types(t.record("a", 9)) == [W]
    assert t.record("b", 7) == ()
    assert t.status("b") == "ok"


def _expected(limit: int, pct: Fraction, counts: list[int]) -> list[list[str]]:
    """A reference model of B2 in plain integer/fraction arithmetic."""
    used, warned, exceeded, out = 0, False, False, []
    for c in counts:
        used += c
        ev = []
        if limit and not warned and used * 100 >= limit * pct:
            warned = True
            ev.append(W)
        if limit and not exceeded and used >= limit:
            exceeded = True
            ev.append(X)
        out.append(ev)
    return out


@pytest.mark.parametrize("limit", [1, 3, 7, 10, 99, 100, 101, 1000])
@pytest.mark.parametrize("pct", [1, 33, 50, 79, 80, 99, 100])
def test_exhaustive_around_thresholds(limit: int, pct: int) -> None:  # B2
    # every single-step total from 0 to limit + 2: the events fire exactly at the first total
    # where used * 100 >= limit * pct, and where used >= limit
    t = BudgetTracker(max_tokens_per_session=limit, warning_percent=pct)
    warn_at = -(-limit * pct // 100)
    for used in range(1, limit + 3):
        got = types(t.record("s", 1))
        want = ([W] if used == warn_at else []) + ([X] if used == limit else [])
        if warn_at == limit and used == limit:
            want = [W, X]
        assert got == want, (limit, pct, used)
        status = "exceeded" if used >= limit else "warning" if used >= warn_at else "ok"
        assert t.status("s") == status


@pytest.mark.parametrize("limit", [3, 10, 1000])
def test_every_jump_over_the_thresholds(limit: int) -> None:  # B2
    for first in range(0, limit + 2):
        for second in range(0, limit + 2 - first):
            t = BudgetTracker(max_tokens_per_session=limit, warning_percent=50)
            got = [types(t.record("s", first)), types(t.record("s", second))]
            assert got == _expected(limit, Fraction(50), [first, second])
        if limit == 1000 and first > 30:
            break


@given(
    limit=st.integers(0, 10_000),
    pct=st.one_of(st.integers(1, 100), st.floats(0.001, 100.0)),
    counts=st.lists(st.integers(0, 5000), max_size=20),
)
@settings(max_examples=300, deadline=None)
def test_matches_reference_model(limit: int, pct: float, counts: list[int]) -> None:  # B2
    t = BudgetTracker(max_tokens_per_session=limit, warning_percent=pct)
    got = [types(t.record("s", c)) for c in counts]
    assert got == _expected(limit, Fraction(pct), counts)
    assert t.used("s") == sum(counts)
    assert t.remaining("s") == (None if not limit else max(limit - sum(counts), 0))


def test_float_percent_is_exact() -> None:  # B2: no float edge case at the boundary
    t = BudgetTracker(max_tokens_per_session=1000, warning_percent=33.3)
    assert t.record("s", 332) == ()
    assert types(t.record("s", 1)) == [W]  # 333 * 100 >= 1000 * 33.3 exactly


def test_callback_order_and_unsubscribe() -> None:  # B2: on_event first, then subscription order
    calls: list[str] = []
    t = BudgetTracker(max_tokens_per_session=2, on_event=lambda e: calls.append("on:" + e.type))
    unsub_a = t.subscribe(lambda e: calls.append("a:" + e.type))
    t.subscribe(lambda e: calls.append("b:" + e.type))
    t.record("s", 2)
    assert calls == ["on:" + W, "a:" + W, "b:" + W, "on:" + X, "a:" + X, "b:" + X]
    unsub_a()
    unsub_a()  # a second call does nothing
    calls.clear()
    t.record("t", 5)
    assert calls == ["on:" + W, "b:" + W, "on:" + X, "b:" + X]


def test_state_is_updated_before_callbacks() -> None:  # B2
    t = BudgetTracker(max_tokens_per_session=10)
    seen: list[tuple[int, str]] = []
    t.subscribe(lambda e: seen.append((t.used(e.session_key), t.status(e.session_key))))
    t.record("s", 9)
    assert seen == [(9, "warning")]


def test_raising_callback_propagates_after_update() -> None:  # B2
    later: list[str] = []

    def boom(event: BudgetEvent) -> None:
        raise RuntimeError("alert failed")

    t = BudgetTracker(max_tokens_per_session=10, on_event=boom)
    t.subscribe(lambda e: later.append(e.type))
    with pytest.raises(RuntimeError, match="alert failed"):
        t.record("s", 10)
    assert t.used("s") == 10 and t.status("s") == "exceeded"
    assert later == [W, X]  # the other callbacks still ran
    assert t.record("s", 1) == ()  # the events were consumed


def test_callback_may_reenter_the_tracker() -> None:
    t = BudgetTracker(max_tokens_per_session=10)
    t.subscribe(lambda e: t.reset(e.session_key) if e.type == X else None)
    assert types(t.record("s", 10)) == [W, X]
    assert t.used("s") == 0


def test_many_threads_one_session() -> None:  # B2: thread-safe
    events: list[BudgetEvent] = []
    lock = threading.Lock()

    def collect(e: BudgetEvent) -> None:
        with lock:
            events.append(e)

    t = BudgetTracker(max_tokens_per_session=40_000, on_event=collect)
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        for _ in range(10_000):
            t.record("s", 1)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert t.used("s") == 80_000
    # each event once, with the count at which it fired (callbacks of two threads may interleave)
    assert sorted((e.used, e.type) for e in events) == [(32_000, W), (40_000, X)]


def test_repr_and_frozen_event() -> None:
    t = BudgetTracker(max_tokens_per_session=5, warning_percent=50)
    assert repr(t) == "BudgetTracker(max_tokens_per_session=5, warning_percent=50, sessions=0)"
    (e, _) = t.record("s", 5)
    with pytest.raises(AttributeError):
        e.used = 3  # type: ignore[misc]


def test_reset_by_keyword() -> None:  # B2
    t = BudgetTracker(max_tokens_per_session=4)
    t.record("a", 4)
    t.reset(key="a")
    assert (t.used("a"), t.status("a")) == (0, "ok")
