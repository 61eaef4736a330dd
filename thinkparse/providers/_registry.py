"""The family registry: name, detection, whole-response reader and stream decoder of each
provider family (P8).

Every place that needs the list of families (detection, ``provider=`` checking, the CLI, the
docs) reads :data:`FAMILIES` / :data:`REGISTRY`.  Detection looks at the shape alone.

Whole responses (each family's ``is_response``, tried in this order, the first match wins):

1. ``choices`` → ``openai_chat``
2. ``output`` object holding ``message`` → ``bedrock``
3. ``output`` array, or ``object: "response"`` → ``openai_responses``
4. ``candidates`` (or ``promptFeedback`` / ``prompt_feedback``, a blocked prompt) → ``gemini``
5. ``type: "message"`` with a ``content`` array → ``anthropic``
6. ``message`` object holding ``thinking``, or ``message`` with ``done``, or ``response`` with
   ``thinking`` or ``done`` → ``ollama``

Stream events (each family's ``is_event``):

* ``type`` starting with ``response.`` → ``openai_responses``; ``message_start``,
  ``content_block_*``, ``message_delta``, ``message_stop`` → ``anthropic``;
* ``choices`` or ``object: "chat.completion.chunk"`` / ``"text_completion"`` → ``openai_chat``;
* ``candidates`` or ``usageMetadata`` / ``usage_metadata`` → ``gemini``;
* one of ConverseStream's one-key wrappers (``contentBlockDelta``...) or a raw
  ``{contentBlockIndex, delta}`` payload → ``bedrock``;
* ``message`` or ``response`` together with ``done`` → ``ollama``.

``ping`` and ``error`` events decide nothing (they give empty deltas); anything else raises
:class:`~thinkparse.UnknownProviderError` naming the keys seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Literal, Optional, Protocol

from .._errors import UnknownProviderError
from .._types import Delta
from . import anthropic, bedrock, gemini, ollama, openai_chat, openai_responses
from ._assemble import Parts
from ._collector import Collector

ProviderName = Literal[
    "openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama"
]


class Decoder(Protocol):
    """What every family decoder provides (one per streamed message)."""

    #: The stream's accumulator (X1/X2), which the decoder feeds.
    acc: Any

    def event(self, ev: Mapping[str, Any], /) -> Optional[Delta]:
        """Decode one stream event into the collector; the event's delta when a short path
        built it (``None``: take it from the collector)."""

    def close(self) -> None:
        """End of the stream: release what is held per message."""


@dataclass(frozen=True)
class Family:
    """One provider family."""

    name: str
    """The ``provider`` name."""
    keys: tuple[str, ...]
    """Top-level keys of which a whole response of this family has at least one."""
    is_response: Callable[[Mapping[str, Any]], bool]
    """Whether a whole response has this family's shape."""
    is_event: Callable[[Mapping[str, Any]], bool]
    """Whether a stream event has this family's shape."""
    decoder: Callable[[Collector, int], Decoder]
    """Builds the decoder of one streamed message (collector, choice)."""
    response: Callable[[Mapping[str, Any], int], Parts]
    """Reads a whole response (response, choice) into its parts: a function, so one-shot
    ``normalize`` builds no decoder object (docs/behaviour.md#p9's cost goal)."""


def _is_list(v: Any) -> bool:
    return isinstance(v, (list, tuple))


def _bedrock_output(d: Mapping[str, Any]) -> bool:
    out = d.get("output")
    return (type(out) is dict or isinstance(out, Mapping)) and "message" in out


_ANTHROPIC_EVENTS = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    }
)


def _ollama_response(d: Mapping[str, Any]) -> bool:
    msg = d.get("message")
    if (type(msg) is dict or isinstance(msg, Mapping)) and ("thinking" in msg or "done" in d):
        return True
    return "response" in d and ("thinking" in d or "done" in d)


def _type(d: Mapping[str, Any]) -> Any:
    return d.get("type")


REGISTRY: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "openai_chat",
            ("choices",),
            lambda d: "choices" in d,
            lambda e: "choices" in e
            or e.get("object") == "chat.completion.chunk"
            or e.get("object") == "text_completion",
            openai_chat.Decoder,
            openai_chat.response,
        ),
        Family(
            "openai_responses",
            ("output", "object"),
            lambda d: _is_list(d.get("output")) or d.get("object") == "response",
            lambda e: isinstance(_type(e), str) and _type(e).startswith("response."),
            openai_responses.Decoder,
            openai_responses.response,
        ),
        Family(
            "anthropic",
            ("type",),
            lambda d: _type(d) == "message" and _is_list(d.get("content")),
            lambda e: isinstance(_type(e), str) and _type(e) in _ANTHROPIC_EVENTS,
            anthropic.Decoder,
            anthropic.response,
        ),
        Family(
            "gemini",
            ("candidates", "promptFeedback", "prompt_feedback"),
            lambda d: "candidates" in d or "promptFeedback" in d or "prompt_feedback" in d,
            lambda e: "candidates" in e or "usageMetadata" in e or "usage_metadata" in e,
            gemini.Decoder,
            gemini.response,
        ),
        Family(
            "bedrock",
            ("output",),
            _bedrock_output,
            lambda e: ("contentBlockIndex" in e and "delta" in e)
            or not bedrock.EVENT_KEYS.isdisjoint(e),
            bedrock.Decoder,
            bedrock.response,
        ),
        Family(
            "ollama",
            ("message", "response"),
            _ollama_response,
            lambda e: "done" in e and ("message" in e or "response" in e),
            ollama.Decoder,
            ollama.response,
        ),
    )
}

#: The provider family names, in the order the docs list them.
FAMILIES: tuple[str, ...] = tuple(REGISTRY)
#: Each family's whole-response reader, by name.
READERS: dict[str, Callable[[Mapping[str, Any], int], Parts]] = {
    f.name: f.response for f in REGISTRY.values()
}

#: Order in which response shapes are tried (the first match wins).
_RESPONSE_ORDER = tuple(
    REGISTRY[n] for n in ("openai_chat", "bedrock", "openai_responses", "gemini", "anthropic",
                          "ollama")
)
_RESPONSE_TESTS = tuple((f.keys, f.is_response, f.name) for f in _RESPONSE_ORDER)
#: Order in which stream-event shapes are tried (the first match wins).
_EVENT_ORDER = tuple(
    REGISTRY[n] for n in ("openai_responses", "anthropic", "openai_chat", "gemini", "bedrock",
                          "ollama")
)
_NEUTRAL = openai_chat.NEUTRAL_EVENTS
_MAX_KEYS_SHOWN = 12


def _keys(d: Mapping[str, Any]) -> str:
    keys = [repr(k) for k in list(d)[:_MAX_KEYS_SHOWN]]
    more = len(d) - len(keys)
    if not keys:
        return "no keys"
    shown = ", ".join(keys)
    return f"keys {shown}" + (f" and {more} more" if more > 0 else "")


def check_provider(provider: object) -> str:
    """Validate a ``provider=`` argument.

    Raises:
        TypeError: not a ``str``.
        UnknownProviderError: not a family name.
    """
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str or None, not {type(provider).__name__}")
    if provider not in REGISTRY:
        raise UnknownProviderError(
            f"provider: unknown family {provider!r}; known: {', '.join(FAMILIES)}"
        )
    return provider


def response_family(d: Mapping[str, Any]) -> str:
    """The family of a whole response.

    Raises:
        UnknownProviderError: no family recognises the shape.
    """
    # The order of _RESPONSE_TESTS, written out: one dict look-up per family tried.
    if "choices" in d:
        return "openai_chat"
    out = d.get("output")
    if out is not None:
        if type(out) is list or _is_list(out):
            return "openai_responses"
        if (type(out) is dict or isinstance(out, Mapping)) and "message" in out:
            return "bedrock"
    if d.get("object") == "response":
        return "openai_responses"
    if "candidates" in d or "promptFeedback" in d or "prompt_feedback" in d:
        return "gemini"
    t = d.get("type")
    if t == "message":
        c = d.get("content")
        if type(c) is list or _is_list(c):
            return "anthropic"
    if ("message" in d or "response" in d) and _ollama_response(d):
        return "ollama"
    hint = ""
    try:
        if event_family(d) is not None:
            hint = "; it looks like a stream event: feed it to StreamNormalizer"
    except UnknownProviderError:
        pass
    raise UnknownProviderError(
        f"no provider family recognises a response with {_keys(d)}{hint}"
    )


def event_family(ev: Mapping[str, Any]) -> Optional[str]:
    """The family a stream event decides, or ``None`` for an event that decides nothing.

    Raises:
        UnknownProviderError: no family recognises the event.
    """
    # The order of _EVENT_ORDER and each family's ``is_event``, written out: a stream's first
    # event is read with a few dict look-ups (docs/behaviour.md#p9's cost goal).
    t = ev.get("type")
    if type(t) is str or isinstance(t, str):
        if t in _NEUTRAL:
            return None
        if t.startswith("response."):
            return "openai_responses"
        if t in _ANTHROPIC_EVENTS:
            return "anthropic"
    if "choices" in ev:
        return "openai_chat"
    obj = ev.get("object")
    if obj == "chat.completion.chunk" or obj == "text_completion":
        return "openai_chat"
    if "candidates" in ev or "usageMetadata" in ev or "usage_metadata" in ev:
        return "gemini"
    if ("contentBlockIndex" in ev and "delta" in ev) or not bedrock.EVENT_KEYS.isdisjoint(ev):
        return "bedrock"
    if "done" in ev and ("message" in ev or "response" in ev):
        return "ollama"
    raise UnknownProviderError(f"no provider family recognises a stream event with {_keys(ev)}")
