"""Ollama native API (family ``ollama``): ``/api/chat`` and ``/api/generate``.

Wire facts (Ollama API docs, "Generate a chat completion" / "Generate a completion" and the
thinking capability page; ollama-python ``ollama/_types.py``: ``ChatResponse``,
``GenerateResponse``, ``Message``):

* ``/api/chat``: ``{message: {role, content, thinking, tool_calls}, done, done_reason,
  prompt_eval_count, eval_count, ...}``.  ``/api/generate``: ``{response, thinking, done, ...}``.
* Streams are NDJSON objects of the same shape with partial ``content`` / ``thinking`` /
  ``response``; the last one has ``done: true`` and the counts.
* Old servers (before thinking support) leave ``<think>`` tags in ``content``.
* ``prompt_eval_count`` is the prompt's tokens, ``eval_count`` the generated tokens (thinking
  included); no total and no reasoning count are reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import EMPTY_DELTA, Delta
from ._access import missing, opt_int, opt_map, opt_str
from ._accumulate_parts import Ollama
from ._assemble import FIELD, Parts
from ._collector import Collector

PROVIDER = "ollama"

#: The keys of a usual ``/api/chat`` stream object's ``message`` (read by the short path).
_PLAIN_MESSAGE = frozenset({"role", "content", "thinking"})


def _fields(d: Mapping[str, Any]) -> tuple[str, Optional[str]]:
    """(visible, thinking) of a chat or generate object."""
    msg = d.get("message")
    if msg is not None:
        if type(msg) is not dict:
            msg = opt_map(d, "message", "")
        if msg is not None:
            return (
                opt_str(msg, "content", "message") or "",
                opt_str(msg, "thinking", "message"),
            )
    if "response" in d or "thinking" in d:
        return opt_str(d, "response", "") or "", opt_str(d, "thinking", "")
    if "done" in d or d.get("type") in ("ping", "error"):
        return "", None
    raise missing("", "message", "an object")


def response(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: the same shape as a stream object, handed over in one call."""
    visible, thinking = _fields(d)
    figures = None
    if "prompt_eval_count" in d or "eval_count" in d:
        figures = (
            opt_int(d, "prompt_eval_count", ""), opt_int(d, "eval_count", ""), None, None
        )
    return (
        visible, [thinking] if thinking else None, FIELD, False, None, figures,
        d.get("done_reason"),
    )


class Decoder:
    """Decodes streamed (NDJSON) ``/api/chat`` and ``/api/generate`` objects (whole ones:
    :func:`response`)."""

    __slots__ = ("acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = Ollama(choice)

    def event(self, ev: Mapping[str, Any]) -> Optional[Delta]:
        """One stream event; then the accumulator's (a usual ``/api/chat`` object's pieces
        handed to it directly: the event is read once).

        Returns:
            The event's :class:`~thinkparse.Delta` when the short path built it, else ``None``
            (the caller takes it from the collector).
        """
        acc = self.acc
        msg = ev.get("message")
        # The usual object, read once: a message of role, content and thinking strings, counts
        # that are ints (the accumulator's event() and _event() read the same fields).
        if type(msg) is dict:
            c = msg.get("content")
            th = msg.get("thinking")
            role = msg.get("role")
            if (
                # a thinking piece, an answer piece (the usual two, tested first), or
                (type(th) is str and type(c) is str and type(role) is str and len(msg) == 3)
                or (th is None and type(c) is str and type(role) is str and len(msg) == 2)
                or (
                    (type(c) is str or c is None)
                    and (type(th) is str or th is None)
                    and (type(role) is str or role is None)
                    # no other key: as many keys as non-null values, else the keys looked at
                    and (len(msg) == (c is not None) + (th is not None) + (role is not None)
                         or msg.keys() <= _PLAIN_MESSAGE)
                )
            ):
                if (
                    len(ev) == 4
                    and ev.get("model") is not None
                    and ev.get("created_at") is not None
                    and ev.get("done") is not None
                ):
                    # the usual object: model, created_at, message and done (no counts, no
                    # done_reason), its top-level keys read on first use
                    if acc.usual:
                        acc.kept = ev  # as acc.top(ev, True), without the call
                    else:
                        acc.top(ev, True)
                else:
                    p = ev.get("prompt_eval_count")
                    n = ev.get("eval_count")
                    if not ((p is None or type(p) is int) and (n is None or type(n) is int)):
                        self._event(ev)
                        acc.event(ev)
                        return None
                    if "prompt_eval_count" in ev or "eval_count" in ev:
                        self.out.usage(p, n, None, None)
                    reason = ev.get("done_reason")
                    if reason is not None:
                        self.out.finish(reason)
                    acc.top(ev, False)
                # the message's pieces, added up on first use (Ollama.settle)
                short = acc.short
                short.append(c)
                short.append(th)
                if role is not None:
                    acc.role = role
                out = self.out
                if th:
                    if c:
                        out.reasoning("o", th, FIELD)
                        out.visible(c)
                        return None
                    return out.reasoning_delta("o", th, FIELD)
                if c:
                    return out.visible_delta(c)
                return EMPTY_DELTA  # (usage and the finish reason release no text)
        self._event(ev)
        acc.event(ev)
        return None

    def _event(self, ev: Mapping[str, Any]) -> None:
        """One stream object."""
        out = self.out
        visible, thinking = _fields(ev)
        if thinking:
            out.reasoning("o", thinking, FIELD)
        if visible:
            out.visible(visible)
        if "prompt_eval_count" in ev or "eval_count" in ev:
            out.usage(
                opt_int(ev, "prompt_eval_count", ""), opt_int(ev, "eval_count", ""), None, None
            )
        reason = ev.get("done_reason")
        if reason is not None:
            out.finish(reason)

    def close(self) -> None:
        """Nothing is held per message."""
