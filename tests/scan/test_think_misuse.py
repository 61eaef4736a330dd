"""M1, no crash even on misuse: every scanner entry point on a broken or shared scanner (S5).

Each case runs against both implementations and expects the same documented outcome: a
``RuntimeError`` with one of two messages (not initialised, re-entered), never a crash, never an
``AttributeError``.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from typing import Any

import pytest

from thinkparse import Delta, ScannerClosedError, Split, split_think
from thinkparse._spec import NOT_INITIALISED, REENTERED


# --- uninitialised scanners ------------------------------------------------------------------
def test_bare_instance_refuses_every_entry_point(scanner_cls: Any) -> None:
    # M1: no crash on misuse; one clear error
    scanner = scanner_cls.__new__(scanner_cls)
    for call in (
        lambda: scanner.feed("abc"),
        lambda: scanner.feed("<think>x"),
        lambda: scanner.feed(5),
        lambda: scanner.close(),
        lambda: scanner.in_reasoning,
        lambda: scanner.had_block,
        lambda: scanner.tag_consumed,
        lambda: scanner.orphan_at,
    ):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == NOT_INITIALISED
        assert type(info.value) is RuntimeError
    assert repr(scanner).endswith("ThinkScanner not initialised>")


def test_failed_init_leaves_a_refusing_scanner(scanner_cls: Any) -> None:
    # behaviour.md#a1: an __init__ that raised leaves nothing half-built behind
    scanner = scanner_cls.__new__(scanner_cls)
    with pytest.raises(TypeError, match="tags"):
        scanner.__init__(tags=5)
    with pytest.raises(ValueError, match="max_tentative"):
        scanner.__init__(max_tentative=0)
    with pytest.raises(RuntimeError) as info:
        scanner.feed("abc")
    assert str(info.value) == NOT_INITIALISED
    with pytest.raises(RuntimeError):
        scanner.close()
    # A later valid __init__ makes it a working scanner.
    scanner.__init__()
    assert tuple(scanner.feed("<think>a</think>b")) == ("b", "a")


def test_init_runs_once(scanner_cls: Any) -> None:
    # behaviour.md#a1: re-running __init__ on a live scanner would reset it under its caller
    scanner = scanner_cls()
    scanner.feed("<think>a")
    with pytest.raises(RuntimeError, match="only once"):
        scanner.__init__(tags="x")
    assert tuple(scanner.feed("</think>b")) == ("b", "")
    # Invalid options are still reported as such first.
    with pytest.raises(TypeError):
        scanner.__init__(tags=5)


def test_subclass_that_skips_init(scanner_cls: Any) -> None:
    # behaviour.md#a1: a subclass that never calls ThinkScanner.__init__ gets the same error
    try:

        class Lazy(scanner_cls):  # type: ignore[misc, valid-type]
            def __init__(self) -> None:
                pass

    except TypeError:
        pytest.skip("this implementation cannot be subclassed (final type)")
    scanner = Lazy()
    with pytest.raises(RuntimeError) as info:
        scanner.feed("abc")
    assert str(info.value) == NOT_INITIALISED


def test_subclass_that_calls_init_works(scanner_cls: Any) -> None:
    # S1 holds for a well-behaved subclass
    try:

        class Named(scanner_cls):  # type: ignore[misc, valid-type]
            __slots__ = ()

    except TypeError:
        pytest.skip("this implementation cannot be subclassed (final type)")
    scanner = Named(tags="t")
    assert tuple(scanner.feed("<t>a</t>b")) + tuple(scanner.close()) == ("b", "a", "", "")


# --- __class__ games -------------------------------------------------------------------------
class _Foreign(tuple):  # type: ignore[type-arg]
    __slots__ = ()


def test_reassigned_delta_class_is_not_reused(scanner_cls: Any) -> None:
    # behaviour.md#a1: feed() returns a Delta, whatever was done to an earlier result
    scanner = scanner_cls()
    scanner.feed("Hello")
    for chunk in (" world", " again", " and", " more"):
        delta = scanner.feed(chunk)
        assert type(delta) is Delta
        delta.__class__ = _Foreign
        del delta
    delta = scanner.feed(" end")
    assert type(delta) is Delta
    assert delta == (" end", "")
    assert delta.visible == " end"


class _SubDelta(Delta):
    __slots__ = ()


def test_delta_reassigned_to_a_subclass_is_not_reused(scanner_cls: Any) -> None:
    # M1: even a Delta subclass is not refilled: results are exactly Delta
    scanner = scanner_cls()
    scanner.feed("Hello")
    delta = scanner.feed(" a")
    delta.__class__ = _SubDelta
    del delta
    again = scanner.feed(" b")
    assert type(again) is Delta
    assert again == (" b", "")


def test_results_held_by_the_caller_never_change(scanner_cls: Any) -> None:
    # S1: a Delta the caller still holds is never refilled
    scanner = scanner_cls()
    kept = [scanner.feed(c) for c in ("Hello", " a", " b", "<think>x</think>", " c")]
    assert [tuple(d) for d in kept] == [
        ("Hello", ""), (" a", ""), (" b", ""), ("", "x"), (" c", "")
    ]


# --- re-entrancy -----------------------------------------------------------------------------
_CLOSED = "feed() after close(): this scanner has finished"
_CHUNKS = ["Hi <b", "old> a<", "think>plan", " more</thi", "nk> answer <x> `<think>` ", "end"]


class _Reenter:
    """Cyclic garbage whose finalizer calls the scanner under test (``intruder`` is a chunk to
    feed, or ``None`` to call ``close()``)."""

    def __init__(self, scanner: Any, log: list[str], intruder: Any) -> None:
        self.scanner = scanner
        self.log = log
        self.intruder = intruder
        self.cycle = self

    def __del__(self) -> None:
        try:
            if self.intruder is None:
                self.scanner.close()
            else:
                self.scanner.feed(self.intruder)
        except RuntimeError as exc:  # ScannerClosedError is a RuntimeError too
            self.log.append(str(exc))
        else:
            self.log.append("served")


def _gc_reentry_run(scanner_cls: Any, intruder: Any) -> tuple[list[tuple[str, str]], list[str]]:
    scanner = scanner_cls()
    log: list[str] = []
    out: list[tuple[str, str]] = []
    old = gc.get_threshold()
    gc.collect()
    gc.set_threshold(1, 1, 1)
    try:
        for _ in range(50):
            for chunk in _CHUNKS:
                _Reenter(scanner, log, intruder)  # garbage now: a collection finalizes it
                try:
                    out.append(tuple(scanner.feed(chunk)))
                except ScannerClosedError:
                    return out, log  # a close() from a finalizer between two calls
    finally:
        gc.set_threshold(*old)
        gc.collect()
    return out, log


@pytest.mark.parametrize(
    "intruder", ["", "<think>intruder</think>", None], ids=["feed-empty", "feed", "close"]
)
def test_reentry_from_a_finalizer_during_feed(scanner_cls: Any, intruder: Any) -> None:
    # behaviour.md#a1: a feed()/close() from a __del__ run by a collection inside feed() raises
    # RuntimeError (never a crash); a finalizer that runs between two calls is served as
    # an ordinary next call
    out, log = _gc_reentry_run(scanner_cls, intruder)
    assert set(log) <= {REENTERED, "served", _CLOSED}
    can_collect_inside = scanner_cls.__module__.endswith("_py") or sys.version_info < (3, 12)
    if can_collect_inside:
        assert REENTERED in log, "no collection ran inside feed(): the reproducer did not fire"
    if intruder == "":
        # Refused or served, an empty intruder leaves the caller's stream exactly as it was.
        reference = scanner_cls()
        assert out == [tuple(reference.feed(c)) for _ in range(50) for c in _CHUNKS]


def test_threads_sharing_one_scanner(scanner_cls: Any) -> None:
    # behaviour.md#a1: sharing a scanner across threads is misuse; it raises RuntimeError, never
    # crashes, and finalizers that release the GIL mid-feed cannot corrupt it
    scanner = scanner_cls()
    errors: list[BaseException] = []
    served = [0]

    class Sleeper:
        def __init__(self) -> None:
            self.cycle = self

        def __del__(self) -> None:
            time.sleep(0)  # releases the GIL inside whatever call collected us

    def worker() -> None:
        for i in range(300):
            Sleeper()
            try:
                delta = scanner.feed(f"x<think>{i}</thi" if i % 2 else "nk> y <a> `z` ")
            except RuntimeError as exc:
                errors.append(exc)
            else:
                assert type(delta) is Delta
                served[0] += 1

    old_threshold = gc.get_threshold()
    old_interval = sys.getswitchinterval()
    gc.set_threshold(1, 1, 1)
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old_interval)
        gc.set_threshold(*old_threshold)
        gc.collect()
    assert all(type(e) is RuntimeError and str(e) == REENTERED for e in errors)
    assert served[0] + len(errors) == 1200
    # The scanner is still consistent: it closes and keeps working rules afterwards.
    final = scanner.close()
    assert type(final) is Delta
    with pytest.raises(ScannerClosedError):
        scanner.feed("x")


# --- option objects whose contents change (value-keyed options) -------------------------------
class _Names:
    def __init__(self, *items: Any) -> None:
        self.items = list(items)

    def __iter__(self) -> Any:
        return iter(self.items)


def test_tags_iterable_changed_between_calls(scanner_cls: Any) -> None:
    # behaviour.md#a1: options are read as they are at each call
    text = "<think>a</think>b<x>c</x>"
    names = _Names("think")
    assert split_think(text, tags=names) == Split("b<x>c</x>", "a")
    names.items = ["x"]
    assert split_think(text, tags=names) == Split("<think>a</think>b", "c")
    scanner = scanner_cls(tags=names)
    assert tuple(scanner.feed(text)) == ("<think>a</think>b", "c")
    names.items = ["think"]
    scanner = scanner_cls(tags=names)
    assert tuple(scanner.feed(text)) == ("b<x>c</x>", "a")


def test_delimiters_iterable_changed_between_calls(scanner_cls: Any) -> None:
    # behaviour.md#a1: options are read as they are at each call
    text = "[T]a[/T]b{T}c{/T}"
    pairs = _Names(("[T]", "[/T]"))
    assert split_think(text, delimiters=pairs) == Split("b{T}c{/T}", "a")
    pairs.items = [("{T}", "{/T}")]
    assert split_think(text, delimiters=pairs) == Split("[T]a[/T]b", "c")
    scanner = scanner_cls(delimiters=pairs)
    assert tuple(scanner.feed(text)) == ("[T]a[/T]b", "c")


def test_lists_of_options_mutated_between_calls(scanner_cls: Any) -> None:
    # behaviour.md#a1: a list changed in place is read afresh
    tags = ["think"]
    assert split_think("<x>a</x>", tags=tags) == Split("<x>a</x>", None)
    tags[0] = "x"
    assert split_think("<x>a</x>", tags=tags) == Split("", "a")
    pair = [["<<", ">>"]]
    assert split_think("<<a>>", delimiters=pair) == Split("", "a")  # type: ignore[arg-type]
    pair[0][1] = "]]"
    assert split_think("<<a>>", delimiters=pair) == Split("", "a>>")  # type: ignore[arg-type]


# --- max_tentative beyond a machine integer (T2) ---------------------------------------------
@pytest.mark.parametrize("cap", [sys.maxsize, 2**63, 2**64 + 1, 10**100])
def test_huge_max_tentative_means_unlimited(scanner_cls: Any, cap: int) -> None:
    # T2: a cap no text can reach behaves exactly as None, in both implementations
    text = "Hi <think>" + "x" * 20_000
    for whole in (text, text + "</think> ok"):
        scanner = scanner_cls(max_tentative=cap)
        got = tuple(scanner.feed(whole)) + tuple(scanner.close())
        ref = scanner_cls(max_tentative=None)
        assert got == tuple(ref.feed(whole)) + tuple(ref.close())
    assert split_think(text, max_tentative=cap) == Split(text, None)
    assert split_think(text + "</think>!", max_tentative=cap) == Split("Hi !", "x" * 20_000)


def test_max_tentative_still_validated(scanner_cls: Any) -> None:
    # behaviour.md#a1: below 1 is a ValueError, a non-int a TypeError
    with pytest.raises(ValueError, match="max_tentative"):
        scanner_cls(max_tentative=-(2**70))
    with pytest.raises(TypeError, match="max_tentative"):
        scanner_cls(max_tentative=2.0**70)
