"""The provider families, in one list of :class:`~._family.Family` records, and detection (P8).

Every place that needs the families (detection, ``provider=`` checking, the CLI, the docs) reads
:data:`FAMILIES` / :data:`REGISTRY`.  Detection looks at the shape alone, trying the families in
the order of :data:`REGISTRY` (the order the docs list them); the first whose test matches wins:

* a whole response: each family's ``is_response``, tried only when the payload has one of the
  family's top-level ``keys``;
* a stream event: each family's ``is_event``.  Keep-alive and error events (``type`` ``ping`` or
  ``error``) decide nothing; they give empty deltas.

A shape no family recognises raises :class:`~thinkparse.UnknownProviderError` naming the keys
seen.  Adding a family: its module (ending with ``FAMILY = Family(...)``) and one line below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._errors import UnknownProviderError
from . import anthropic, bedrock, cohere, gemini, ollama, openai_chat, openai_responses
from ._family import KEEP_ALIVE, Family

#: The families by name, in the order the docs list them (and detection tries them).
REGISTRY: dict[str, Family] = {
    f.name: f
    for f in (
        openai_chat.FAMILY,
        openai_responses.FAMILY,
        anthropic.FAMILY,
        gemini.FAMILY,
        bedrock.FAMILY,
        ollama.FAMILY,
        cohere.FAMILY,
    )
}

#: The provider family names, in the order the docs list them.
FAMILIES: tuple[str, ...] = tuple(REGISTRY)

_ORDER = tuple(REGISTRY.values())
#: ``(key, family, is_response)`` for every top-level key of every family, in the order
#: families are tried.
_KEYED = tuple((key, family, family.is_response) for family in _ORDER for key in family.keys)
_MAX_KEYS_SHOWN = 12


def _keys(d: Mapping[str, Any]) -> str:
    keys = [repr(k) for k in list(d)[:_MAX_KEYS_SHOWN]]
    more = len(d) - len(keys)
    if not keys:
        return "no keys"
    return f"keys {', '.join(keys)}" + (f" and {more} more" if more > 0 else "")


def check_provider(provider: object) -> str:
    """Validate a ``provider=`` argument: a family name (``TypeError`` for another type than
    ``str``, :class:`~thinkparse.UnknownProviderError` for another name)."""
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str or None, not {type(provider).__name__}")
    if provider not in REGISTRY:
        raise UnknownProviderError(
            f"provider: unknown family {provider!r}; known: {', '.join(FAMILIES)}"
        )
    return provider


def response_family(d: Mapping[str, Any]) -> Family:
    """The family of a whole response (:class:`~thinkparse.UnknownProviderError` when no
    family recognises the shape)."""
    for key, family, test in _KEYED:
        if key in d and (test is None or test(d)):  # (tests are pure: a second try agrees)
            return family
    hint = ""
    try:
        if event_family(d) is not None:
            hint = "; it looks like a stream event: feed it to StreamNormalizer"
    except UnknownProviderError:
        pass
    raise UnknownProviderError(f"no provider family recognises a response with {_keys(d)}{hint}")


def event_family(ev: Mapping[str, Any]) -> Optional[Family]:
    """The family a stream event decides, ``None`` for an event that decides nothing
    (:class:`~thinkparse.UnknownProviderError` when no family recognises the event)."""
    t = ev.get("type")
    if isinstance(t, str) and t in KEEP_ALIVE:
        return None
    for family in _ORDER:
        if family.is_event(ev):
            return family
    raise UnknownProviderError(f"no provider family recognises a stream event with {_keys(ev)}")
