"""The decoded assistant turn an Extraction keeps: its blocks (X1) and its request form (X2).

A :class:`Turn` holds the family, the chosen choice and the response as received -- for a whole
response the mapping itself, for a stream the response its events add up to (built by
:mod:`._accumulate`).  Blocks and the message are built from it on first use, by the same code
for both, so a stream and its non-streamed twin give equal blocks and messages.

Decision (the kept response is a reference, not a copy): ``normalize`` keeps the caller's
response object as it is; a copy, even of the reasoning items only, would cost more than the
whole of ``normalize`` of a typical dict (docs/behaviour.md#x1 lets the turn be built lazily so
that calls that never touch it stay cheap).  So the turn reflects the response as it is when the
blocks are first read or a message is built; changes made before then show (``normalize(r)``,
then ``r["content"][0]["thinking"] = "x"``, gives a block text ``"x"`` while ``reasoning`` kept
the old text).  Blocks are copies once built (each ``wire`` a deep copy per access), messages are
new objects at every call, and :class:`~thinkparse.ReasoningContext` builds both at ``update``:
callers that keep turns and reuse response objects read them first.  A stream's response is
its own (built from the events' pieces at first use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Union

from .._types import ReasoningBlock

Message = Union[dict[str, Any], list[dict[str, Any]]]


class Turn:
    """One assistant turn as decoded (internal; see :func:`thinkparse._types.turn_of`).

    Attributes:
        provider: the family name.
        model: the model as the payload reported it, else ``None``.
    """

    __slots__ = ("_blocks", "_choice", "_inline", "_response", "_stream", "provider")

    def __init__(
        self,
        provider: str,
        response: Optional[Mapping[str, Any]],
        choice: int,
        stream: Optional[Any],
        inline: Optional[tuple[str, Optional[str], Optional[dict[str, Any]]]] = None,
    ) -> None:
        self.provider = provider
        self._response = response  # None for a stream until first use
        self._choice = choice
        self._stream = stream
        self._blocks: Optional[tuple[ReasoningBlock, ...]] = None
        # Inline reasoning (X1): (format, the text it was split from -- None for a stream: the
        # visible text of the response its events add up to --, the split options).
        self._inline = inline

    @property
    def model(self) -> Optional[str]:
        """The model as reported (``model``, Gemini ``modelVersion``), else ``None``."""
        from ._options import model_name

        return model_name(self.response)

    @property
    def response(self) -> Mapping[str, Any]:
        """The response as received (a stream: what its events add up to)."""
        r = self._response
        if r is None:
            r = self._response = self._stream.response() if self._stream is not None else {}
        return r

    @property
    def choice(self) -> int:
        """The choice read (W4)."""
        return self._choice

    @property
    def blocks(self) -> tuple[ReasoningBlock, ...]:
        """Every reasoning item in wire order (X1), built on first use."""
        b = self._blocks
        if b is None:
            b = self._blocks = blocks_of(
                self.provider, self.response, self._choice, self._inline
            )
        return b

    def message(
        self,
        *,
        store: Optional[bool] = None,
        reasoning_field: Union[str, bool, None] = None,
        binary: str = "base64",
    ) -> Message:
        """The turn in the provider's request format (X2); see :func:`thinkparse.to_message`.

        Raises:
            TypeError, ValueError: a bad option; ValueError for a turn with no message form.
            ResponseShapeError: a streamed tool input that is not valid JSON.
        """
        from ._messages import check_options

        check_options(store, reasoning_field, binary)
        response = self.response
        if self._stream is not None:
            self._stream.check()
        return message_of(
            self.provider, response, self._choice,
            store=store, reasoning_field=reasoning_field, binary=binary,
        )


# --- per family (moved here from ._wire, which the family modules import: these look the
# families up, so they sit above them) --------------------------------------------------------
def blocks_of(
    provider: str,
    response: Mapping[str, Any],
    choice: int,
    inline: Optional[tuple[str, Optional[str], Optional[dict[str, Any]]]] = None,
) -> tuple[ReasoningBlock, ...]:
    """The reasoning blocks of a response (X1).

    ``inline``: reasoning was split from inline markup: ``(format, text, options)``, ``text``
    ``None`` for the response's own visible text; one block per extracted block.
    """
    from ._wire import BLOCKS

    fn = BLOCKS.get(provider)
    out = fn(response, choice) if fn is not None else []
    if inline:
        from ._inline_blocks import inline_blocks

        fmt, text, think = inline
        if text is None:
            text = visible_text(provider, response, choice)
        for b in inline_blocks(fmt, text, think):
            out.append(ReasoningBlock("text", b, None, None, None, provider, {}))
    return tuple(out)


def visible_text(provider: str, response: Mapping[str, Any], choice: int) -> str:
    """The answer text of a whole response, before any inline split (P1)."""
    from ._registry import READERS

    return READERS[provider](response, choice)[0]


def message_of(
    provider: str,
    response: Mapping[str, Any],
    choice: int,
    *,
    store: Optional[bool],
    reasoning_field: Union[str, bool, None],
    binary: str,
) -> Message:
    """The request-format message of a response (X2)."""
    from ._messages import MESSAGES

    fn = MESSAGES.get(provider)
    if fn is None:
        raise ValueError(f"to_message(): no message form for provider {provider!r}")
    return fn(response, choice, store, reasoning_field, binary)
