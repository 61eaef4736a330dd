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

from ._access import missing, opt_int, opt_map, opt_str
from ._accumulate_parts import Ollama
from ._assemble import FIELD
from ._collector import Collector, Parts

PROVIDER = "ollama"


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

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream event, then the accumulator's (X1/X2; it reads the event again)."""
        self._event(ev)
        self.acc.event(ev)

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
