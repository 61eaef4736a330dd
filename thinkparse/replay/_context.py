"""``ReasoningContext``: the reasoning of the last turns, put back into the next request.

See docs/behaviour.md#x3 (the cache), #x4 (attach) and #x5 (persistence and errors).

Decisions where the rules leave a point open:

* **Identity** (:mod:`thinkparse.replay._identity`): tool-call ids (or ``name(arguments)`` with
  object arguments as sorted compact JSON), then the visible text with inline reasoning tags
  removed and whitespace collapsed.  A history that kept ``Extraction.visible`` or re-joined
  text blocks still matches; a turn whose text or calls were edited does not (its reasoning
  would not fit it).
* **Matching order**: segments newest first, each onto the newest not yet matched assistant turn
  with the same identity; a segment is used at most once, a turn matched once.
* **Models** are the same when equal, when either is unknown, or when one is a dated or
  ``-latest`` snapshot of the other (``claude-sonnet-4-5-20250929`` is ``claude-sonnet-4-5``,
  ``gpt-5-2025-08-07`` is ``gpt-5``), ignoring a ``models/`` prefix.  Providers answer with the
  snapshot name for a request that named the alias.
* **Bedrock thinking** is on when ``additionalModelRequestFields`` holds ``thinking``,
  ``reasoning_config`` or ``reasoningConfig`` whose ``type`` is not ``"disabled"``.
* **Responses turns** are runs of output items (reasoning, assistant messages, calls); runs joined
  only by tool outputs (``function_call_output`` ...) form one turn when their combined identity
  matches a segment, so a history that interleaves calls with their outputs still matches.  The
  tool outputs stay after all cached items when they followed all the calls in the request, else
  each right after its call.  ``foreign`` does not apply: the Responses API takes reasoning only
  as reasoning items, so a foreign segment is always dropped there.
* **store: false** in ``attach``: reasoning items without ``encrypted_content`` are left out and
  every item after such an item, up to the next reasoning item, loses its ``id``.
* **foreign="text"** writes the readable block texts (joined ``"\\n\\n"``) into the matched turn:
  Chat ``reasoning_field`` (default ``"reasoning_content"``), Ollama ``thinking``; a segment
  without readable text, other targets, and ``reasoning_field=False`` leave the turn as it is.
* **reasoning_field** on a native Chat segment rewrites the cached message's reasoning keys:
  a name writes only that key (the cached value, else the readable text), ``False`` none.
* **Hostile values** (P8, M1): ``update`` checks the fields the identity reads in the turn's
  ``to_message`` form -- ``tool_calls`` or ``parts`` that are not a list, a Responses item
  ``type`` that is not a string raise :class:`~thinkparse.ResponseShapeError` naming them
  (``message.tool_calls``, ``message[1].type``) and cache nothing; a turn holding a cyclic or too
  deeply nested value raises it with the path ``""`` (the message says ``turn: ...``).
  ``attach`` reads the request's turns leniently: such a turn matches no segment and is left
  as it is.  ``from_dict`` copies what it keeps and refuses cyclic or too deep values (#x5).
* **attach** returns the JSON wire form (base64 strings); for boto3, convert
  Bedrock ``redactedContent`` with ``to_message(..., binary="bytes")`` or ``base64.b64decode``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, Optional, Union

from .._errors import ResponseShapeError
from .._types import Extraction
from ._attach import attach_messages, attach_responses, copy_json
from ._identity import turn_ids
from ._segment import VERSION, Segment, check_max

_FOREIGN = ("drop", "text")
_BLOCK_KEYS = ("kind", "text", "signature", "data", "id", "provider")


def _turn_of(turn: Any) -> Any:
    from .._types import turn_of

    if isinstance(turn, Extraction):
        t = turn_of(turn)
    else:
        from ..providers import normalize

        t = turn_of(normalize(turn))
    if t is None:
        raise ValueError("turn: this Extraction carries no message; pass the response")
    return t


class ReasoningContext:
    """The newest ``max_segments`` turns' reasoning, to put back into later requests.

    Thread-safe: every method may be called from several threads at once.

    Args:
        max_segments: how many turns to keep (an int >= 1), or None for every turn since the
            last clearing update (providers that need every tool-call turn: DeepSeek V4, Kimi,
            GLM).

    Raises:
        TypeError: ``max_segments`` is not an int or None (``bool`` included).
        ValueError: ``max_segments`` is below 1.
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, *, max_segments: Optional[int] = 3) -> None:
        self._max = check_max(max_segments)
        self._segments: tuple[Segment, ...] = ()
        self._lock = threading.Lock()

    @property
    def max_segments(self) -> Optional[int]:
        """The cap given at construction."""
        return self._max

    @property
    def segments(self) -> tuple[Segment, ...]:
        """The cached segments, oldest first."""
        return self._segments

    def update(self, turn: Any, /) -> None:
        """Record a turn: its reasoning becomes the newest segment; no reasoning clears the cache.

        Args:
            turn: a provider response (mapping or SDK object), or an ``Extraction`` made by
                ``normalize`` or ``StreamNormalizer``.

        Raises:
            TypeError: ``turn`` is neither a mapping nor an SDK model (P7).
            UnknownProviderError: no family recognises its shape (P8).
            ResponseShapeError: a recognised payload with a malformed field (P8).
            ValueError: an ``Extraction`` built by hand (it carries no message).
        """
        try:
            t = _turn_of(turn)
            blocks = tuple(t.blocks)
            message = copy_json(t.message()) if blocks else None
        except RecursionError:
            raise ResponseShapeError(
                "", "turn: a cyclic or too deeply nested value is not JSON data"
            ) from None
        if not blocks:
            with self._lock:
                self._segments = ()
            return
        ids = turn_ids(message, t.provider, strict=True)
        seg = Segment(blocks, t.provider, t.model, ids, message)
        with self._lock:
            kept = (*self._segments, seg)
            self._segments = kept if self._max is None else kept[-self._max:]

    def reset(self) -> None:
        """Forget every segment (a new session)."""
        with self._lock:
            self._segments = ()

    def attach(
        self,
        request: Mapping[str, Any],
        /,
        *,
        provider: Optional[str] = None,
        foreign: str = "drop",
        reasoning_field: Union[str, bool, None] = None,
    ) -> dict[str, Any]:
        """A new request where each cached segment replaces the assistant turn it belongs to.

        Args:
            request: the next request's body (``messages``, ``contents`` or ``input``).
            provider: the request's family; None means the newest segment's provider.
            foreign: ``"drop"`` leaves out segments of another provider or model; ``"text"``
                writes their readable text where the target accepts unsigned reasoning (Chat
                field, Ollama ``thinking``).
            reasoning_field: the Chat field to write (a name), ``False`` for none, None for the
                one the cached response used.

        Returns:
            A new dict; the argument and the cache are untouched.

        Raises:
            TypeError: ``request`` is not a mapping, or a keyword has the wrong type.
            ValueError: ``foreign`` is not ``"drop"`` or ``"text"``, or ``reasoning_field`` is
                ``""`` or ``True``.
            UnknownProviderError: ``provider`` is not a family name.
        """
        if not isinstance(request, Mapping):
            raise TypeError(f"request must be a mapping, not {type(request).__name__}")
        if not isinstance(foreign, str):
            raise TypeError(f"foreign must be a str, not {type(foreign).__name__}")
        if foreign not in _FOREIGN:
            raise ValueError(f"foreign must be 'drop' or 'text', got {foreign!r}")
        if reasoning_field is not None and not isinstance(reasoning_field, (str, bool)):
            raise TypeError("reasoning_field must be a str, False or None, not "
                            f"{type(reasoning_field).__name__}")
        if reasoning_field is True or reasoning_field == "":
            raise ValueError(f"reasoning_field must be a field name, False or None, "
                             f"got {reasoning_field!r}")
        if provider is not None:
            from ..providers._registry import check_provider

            provider = check_provider(provider)
        segments = self._segments
        if not segments:
            return dict(request)
        family = provider or segments[-1].provider
        if family == "openai_responses":
            return attach_responses(segments, request)
        return attach_messages(segments, request, family, foreign, reasoning_field)

    # --- persistence --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot: ``{"version": 1, "max_segments", "segments"}``."""
        segments = self._segments
        return {
            "version": VERSION,
            "max_segments": self._max,
            "segments": [
                {
                    "provider": s.provider,
                    "model": s.model,
                    "ids": list(s.ids),
                    "message": s.message,
                    "blocks": [
                        dict({k: getattr(b, k) for k in _BLOCK_KEYS}, wire=b.wire)
                        for b in s.blocks
                    ],
                }
                for s in segments
            ],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], /) -> ReasoningContext:
        """Rebuild a context from :meth:`to_dict`'s output.

        Raises:
            TypeError: ``d`` is not a mapping.
            ValueError: a malformed dict (the message names the path) or a newer version.
        """
        from ._context_io import context_from_dict

        ctx, segments = context_from_dict(cls, d)
        ctx._segments = segments
        return ctx  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReasoningContext):
            return NotImplemented
        return self._max == other._max and self._segments == other._segments

    def __repr__(self) -> str:
        return f"ReasoningContext(max_segments={self._max!r}, segments={len(self._segments)})"
