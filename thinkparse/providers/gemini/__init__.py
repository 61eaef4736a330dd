"""Gemini (family ``gemini``): ``generateContent`` and the Interactions API.

Two wire formats of one provider share the family:

* :mod:`._content` -- ``generateContent`` / ``streamGenerateContent`` responses
  (``candidates[].content.parts[]``), REST camelCase and google-genai snake_case;
* :mod:`._interactions` -- the Interactions API (``POST /v1beta/interactions``): a response is an
  interaction (``object: "interaction"``) whose ``steps[]`` (legacy ``outputs[]``) hold
  ``thought`` steps (summary and signature), and a stream is a sequence of ``event_type`` events
  (docs/behaviour.md#p15).

This module holds the family's record: detection accepts both shapes, and every function
dispatches on the payload: a whole response by its shape, a stream by its first event (each
stream holds one of them; its decoder is picked once and then called directly).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from ..._types import ReasoningBlock
from .._access import as_map, top_model
from .._assemble import Parts
from .._collector import Collector
from .._family import Accumulator, Family, Message, MessageOptions
from . import _content, _interactions
from ._content import _CAMEL, _SNAKE, PROVIDER, GeminiAccumulator, usage_figures
from ._interactions import InteractionsAccumulator

__all__ = [
    "FAMILY",
    "PROVIDER",
    "_CAMEL",
    "_SNAKE",
    "Decoder",
    "GeminiAccumulator",
    "InteractionsAccumulator",
    "blocks",
    "message",
    "read",
    "usage_figures",
]

_CONTENT_KEYS = ("candidates", "promptFeedback", "prompt_feedback")


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response: a ``GenerateContentResponse`` or an interaction."""
    if "candidates" not in d and _interactions.is_interaction(d):
        return _interactions.read(d, choice)
    return _content.read(d, choice)


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """The blocks of either format (X1)."""
    if "candidates" not in r and _interactions.is_interaction(r):
        return _interactions.blocks(r, choice)
    return _content.blocks(r, choice)


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """The turn in either format's request form (X2)."""
    if "candidates" not in r and _interactions.is_interaction(r):
        return _interactions.message(r, choice, options)
    return _content.message(r, choice, options)


class Decoder:
    """A stream's decoder: the Interactions decoder when the first event is an Interactions
    event (``event_type``), else the ``generateContent`` one; after the first event the chosen
    decoder's methods are called directly."""

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self._out = out
        self._choice = choice
        self._inner: Any = _content.Decoder(out, choice)
        #: The chosen decoder's accumulator (``generateContent``'s until an event decides).
        self.acc: Accumulator = self._inner.acc

    def event(self, ev: Mapping[str, Any], /) -> None:
        """The first event: it picks the decoder, which reads it and every later event."""
        if "event_type" in ev:
            self._inner = _interactions.Decoder(self._out, self._choice)
            self.acc = self._inner.acc
        inner = self._inner
        self.__dict__["event"] = inner.event  # (later events go straight to it)
        self.__dict__["close"] = inner.close
        inner.event(ev)

    def close(self) -> None:
        """End of the stream (no event came)."""
        self._inner.close()


def _is_response(d: Mapping[str, Any]) -> bool:
    return "candidates" in d or "promptFeedback" in d or "prompt_feedback" in d or (
        _interactions.is_response(d))


def _is_event(e: Mapping[str, Any]) -> bool:
    if "candidates" in e or "usageMetadata" in e or "usage_metadata" in e:
        return True
    t = e.get("event_type")
    return type(t) is str and t in _interactions.EVENTS


def _model(d: Mapping[str, Any]) -> Optional[str]:
    m = top_model(d)
    if m is None:
        v = d.get("modelVersion") or d.get("model_version")
        m = v if isinstance(v, str) and v else None
        if m is None and "event_type" in d:  # an Interactions event: its interaction's model
            inter = as_map(d.get("interaction"))
            m = top_model(inter) if inter is not None else None
    return m


FAMILY = Family(
    name=PROVIDER,
    keys=(*_CONTENT_KEYS, "steps", "outputs", "object"),
    is_response=_is_response,
    is_event=_is_event,
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=_model,
    choices=True,
)
