"""A per-session reasoning-token budget with warning and exceeded events (#b1, #b2).

Rules: docs/behaviour.md#b1 and docs/behaviour.md#b2.

Theory of operation: each session key maps to a small record (tokens used, whether the warning and
the exceeded event have fired).  ``record`` adds a turn's count under one lock, decides which events
fire, releases the lock and only then runs the callbacks, so a callback may call the tracker again
(``reset`` from inside ``on_event`` works) and never sees a half-updated state.

Decisions where the rules are silent:

* The comparison is exact integer arithmetic: the warning fires when
  ``used * 100 >= limit * warning_percent``; ``warning_percent`` may be an ``int`` or a
  ``float``; a float is converted to an exact :class:`fractions.Fraction`, so ``80.0`` and
  ``80`` agree on every count.
* ``BudgetEvent.percent`` is ``used * 100 / limit`` as a float (informative only; the decisions
  above never look at it).
* ``remaining`` never goes below 0; an unknown key has ``used`` 0 and status ``"ok"``.
* Redacted or omitted reasoning without a reported count counts 0 (its estimate is 0).
* Callbacks run in the recording thread after the lock is released: ``on_event`` first, then the
  subscribers in subscription order.  If one raises, the rest still run and the first exception is
  re-raised afterwards; the state update is never rolled back.
* ``bool`` is not accepted as a count (``True`` is not one token).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional, Union

from .._types import Extraction

__all__ = ["EXCEEDED", "WARNING", "BudgetEvent", "BudgetTracker"]

WARNING = "reasoning_budget_warning"
EXCEEDED = "reasoning_budget_exceeded"

Callback = Callable[["BudgetEvent"], object]


@dataclass(frozen=True)
class BudgetEvent:
    """One budget event (docs/behaviour.md#b2)."""

    type: str
    """``"reasoning_budget_warning"`` or ``"reasoning_budget_exceeded"``."""
    session_key: str
    """The session the event is about."""
    used: int
    """Reasoning tokens used in the session, this turn included."""
    limit: int
    """The session limit (``max_tokens_per_session``)."""
    percent: float
    """``used * 100 / limit``."""
    stream: str = "budget"
    """Always ``"budget"``: the event stream this belongs to."""


class _Session:
    __slots__ = ("exceeded", "used", "warned")

    def __init__(self) -> None:
        self.used = 0
        self.warned = False
        self.exceeded = False


def turn_tokens(usage: Union[Extraction, int], name: str = "usage") -> int:
    """The count a turn adds to a budget (docs/behaviour.md#b1).

    Args:
        usage: an :class:`~thinkparse.Extraction` (its reported ``reasoning_tokens``, else its
            ``tokens_est``) or a non-negative ``int``.
        name: the argument name used in error messages.

    Returns:
        The number of reasoning tokens.

    Raises:
        TypeError: ``usage`` is neither an ``Extraction`` nor an ``int`` (``bool`` included).
        ValueError: the count is negative.
    """
    if isinstance(usage, Extraction):
        count = usage.reasoning_tokens if usage.reasoning_tokens is not None else usage.tokens_est
    elif isinstance(usage, int) and not isinstance(usage, bool):
        count = usage
    else:
        raise TypeError(f"{name} must be an Extraction or an int, not {type(usage).__name__}")
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"{name}: reasoning token count must be an int")
    if count < 0:
        raise ValueError(f"{name} must not be negative, got {count}")
    return count


class BudgetTracker:
    """Counts reasoning tokens per session and emits warning/exceeded events (#b1, #b2).

    In memory by design: a guardrail, not billing.  Thread-safe.

    Args:
        max_tokens_per_session: the limit per session, an ``int`` >= 0; 0 means unlimited (no
            events, ``remaining`` is ``None``).
        warning_percent: the warning threshold in percent of the limit, 0 < p <= 100.
        on_event: called with each :class:`BudgetEvent`, before any subscriber.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_tokens_per_session`` < 0 or ``warning_percent`` outside (0, 100].
    """

    def __init__(
        self,
        *,
        max_tokens_per_session: int = 500_000,
        warning_percent: Union[int, float] = 80,
        on_event: Optional[Callback] = None,
    ) -> None:
        if not isinstance(max_tokens_per_session, int) or isinstance(max_tokens_per_session, bool):
            raise TypeError("max_tokens_per_session must be an int")
        if max_tokens_per_session < 0:
            raise ValueError(f"max_tokens_per_session must be >= 0, got {max_tokens_per_session}")
        if isinstance(warning_percent, bool) or not isinstance(warning_percent, (int, float)):
            raise TypeError("warning_percent must be an int or a float")
        if not 0 < warning_percent <= 100:  # NaN fails this too
            raise ValueError(f"warning_percent must be in (0, 100], got {warning_percent!r}")
        if on_event is not None and not callable(on_event):
            raise TypeError("on_event must be callable or None")
        self._limit = max_tokens_per_session
        self._warn_at = Fraction(warning_percent) * max_tokens_per_session
        self._warning_percent = warning_percent
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        self._callbacks: list[tuple[object, Callback]] = []
        if on_event is not None:
            self._callbacks.append((object(), on_event))

    @property
    def max_tokens_per_session(self) -> int:
        """The per-session limit; 0 means unlimited."""
        return self._limit

    @property
    def warning_percent(self) -> Union[int, float]:
        """The warning threshold in percent."""
        return self._warning_percent

    def record(self, session_key: str, usage: Union[Extraction, int], /) -> tuple[BudgetEvent, ...]:
        """Add one turn to a session (#b1) and return the events it caused (#b2).

        Args:
            session_key: the session.
            usage: an ``Extraction`` or a token count (#b1).

        Returns:
            The events, warning before exceeded; ``()`` when none fired.

        Raises:
            TypeError: a bad ``session_key`` or ``usage`` type.
            ValueError: a negative count.
            Exception: whatever a callback raised, after the state was updated.
        """
        events, error = self._record(session_key, usage)
        if error is not None:
            raise error
        return events

    def _record(
        self, session_key: str, usage: Union[Extraction, int]
    ) -> tuple[tuple[BudgetEvent, ...], Optional[Exception]]:
        """``record`` returning the first callback exception instead of raising it."""
        _check_key(session_key)
        count = turn_tokens(usage)
        events: list[BudgetEvent] = []
        with self._lock:
            state = self._sessions.get(session_key)
            if state is None:
                state = self._sessions[session_key] = _Session()
            state.used += count
            if self._limit:
                used = state.used
                percent = used * 100 / self._limit
                if not state.warned and used * 100 >= self._warn_at:
                    state.warned = True
                    events.append(BudgetEvent(WARNING, session_key, used, self._limit, percent))
                if not state.exceeded and used >= self._limit:
                    state.exceeded = True
                    events.append(BudgetEvent(EXCEEDED, session_key, used, self._limit, percent))
            callbacks = [cb for _, cb in self._callbacks] if events else []
        first_error: Optional[Exception] = None
        for event in events:
            for callback in callbacks:
                try:
                    callback(event)
                except Exception as exc:  # the rest still run; the first is re-raised
                    if first_error is None:
                        first_error = exc
        return tuple(events), first_error

    def used(self, key: str, /) -> int:
        """Reasoning tokens recorded for ``key`` since its last reset (0 when unknown)."""
        _check_key(key)
        with self._lock:
            state = self._sessions.get(key)
            return 0 if state is None else state.used

    def remaining(self, key: str, /) -> Optional[int]:
        """``max(limit - used, 0)``, or ``None`` when unlimited."""
        if not self._limit:
            _check_key(key)
            return None
        return max(self._limit - self.used(key), 0)

    def status(self, key: str, /) -> str:
        """``"ok"``, ``"warning"`` or ``"exceeded"`` for ``key`` (#b2)."""
        _check_key(key)
        with self._lock:
            state = self._sessions.get(key)
            if state is None or not self._limit:
                return "ok"
            if state.used >= self._limit:
                return "exceeded"
            if state.used * 100 >= self._warn_at:
                return "warning"
            return "ok"

    def reset(self, key: Optional[str] = None) -> None:
        """Forget one session (``key``) or all of them (``None``); its events may fire again."""
        if key is not None:
            _check_key(key)
        with self._lock:
            if key is None:
                self._sessions.clear()
            else:
                self._sessions.pop(key, None)

    def subscribe(self, callback: Callback, /) -> Callable[[], None]:
        """Call ``callback`` with every later event, after ``on_event`` and earlier subscribers.

        Args:
            callback: a callable taking one :class:`BudgetEvent`.

        Returns:
            A function that unsubscribes it (calling it again does nothing).

        Raises:
            TypeError: ``callback`` is not callable.
        """
        if not callable(callback):
            raise TypeError("callback must be callable")
        token = object()
        with self._lock:
            self._callbacks.append((token, callback))

        def unsubscribe() -> None:
            with self._lock:
                self._callbacks = [entry for entry in self._callbacks if entry[0] is not token]

        return unsubscribe

    def __repr__(self) -> str:
        return (
            f"BudgetTracker(max_tokens_per_session={self._limit}, "
            f"warning_percent={self._warning_percent!r}, sessions={len(self._sessions)})"
        )


def _check_key(key: object) -> None:
    if not isinstance(key, str):
        raise TypeError(f"session_key must be a str, not {type(key).__name__}")


def record_turn(
    tracker: BudgetTracker, session_key: str, usage: Union[Extraction, int]
) -> tuple[tuple[BudgetEvent, ...], Optional[Exception]]:
    """``tracker.record`` that returns the first callback exception instead of raising it, so a
    caller (the trace recorder) keeps the events and re-raises afterwards."""
    return tracker._record(session_key, usage)
