"""The decoded assistant turn an Extraction keeps, and ``to_message()`` (X1, X2).

A :class:`Turn` holds the family, the chosen choice and the response as received -- for a whole
response the mapping itself, for a stream the response its events add up to (built by the
family's accumulator).  Blocks and the message are built from it on first use by the family's
``blocks`` and ``message`` functions, the same for both, so a stream and its non-streamed twin
give equal blocks and messages.  Every message is a fresh JSON copy, reasoning items byte-exact
and in place, checked against the SDKs' request types (Anthropic ``ThinkingBlockParam`` /
``RedactedThinkingBlockParam``, openai ``ResponseReasoningItemParam``, google-genai ``Part``
with ``thought_signature`` as bytes, Bedrock ``ReasoningContentBlock``).

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

Decisions where docs/behaviour.md is silent: ``choice`` other than 0 for a family without
choices (Anthropic, Responses, Bedrock, Ollama) raises ``ValueError`` naming ``choice``; byte
values (SDK objects dumped in Python mode) are standard base64 strings in ``wire`` and in
messages unless ``binary="bytes"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Optional, Union

from .._errors import ResponseShapeError
from .._types import Extraction, ReasoningBlock, turn_of
from ._access import as_mapping
from ._family import Family, Message, MessageOptions
from ._inline import inline_sections
from ._options import check_choice
from ._registry import REGISTRY, check_provider, response_family

#: Inline reasoning of a turn: (format, the text it was split from -- ``None`` for the
#: response's own visible text --, the split options).
Inline = tuple[str, Optional[str], Optional[dict[str, Any]]]


class Turn:
    """One assistant turn as decoded (internal; see :func:`thinkparse._types.turn_of`), of the
    family ``provider``."""

    __slots__ = ("_blocks", "_choice", "_family", "_inline", "_response", "_stream", "provider")

    def __init__(self, provider: str, response: Optional[Mapping[str, Any]], choice: int,
                 stream: Optional[Any], inline: Optional[Inline] = None) -> None:
        self.provider = provider
        self._family: Family = REGISTRY[provider]
        self._response = response  # None for a stream until first use
        self._choice = choice
        self._stream = stream  # the stream's accumulator
        self._blocks: Optional[tuple[ReasoningBlock, ...]] = None
        self._inline = inline

    @property
    def model(self) -> Optional[str]:
        """The model as reported (``model``, Gemini ``modelVersion``), else ``None``."""
        return self._family.model(self.response)

    @property
    def response(self) -> Mapping[str, Any]:
        """The response as received (a stream: what its events add up to)."""
        r = self._response
        if r is None:
            r = self._response = self._stream.response() if self._stream is not None else {}
        return r

    @property
    def blocks(self) -> tuple[ReasoningBlock, ...]:
        """Every reasoning item in wire order (X1), built on first use."""
        b = self._blocks
        if b is None:
            response = self.response
            try:
                out = self._family.blocks(response, self._choice)
            except RecursionError:
                raise _not_json() from None
            if self._inline:
                fmt, text, think = self._inline
                if text is None:
                    text = self._family.read(response, self._choice).visible
                for s in inline_sections(fmt, text, think):
                    out.append(ReasoningBlock("text", s, None, None, None, self.provider, {}))
            b = self._blocks = tuple(out)
        return b

    def message(
        self,
        *,
        store: Optional[bool] = None,
        reasoning_field: Union[str, bool, None] = None,
        binary: str = "base64",
    ) -> Message:
        """The turn in the provider's request format (X2); see :func:`to_message`.

        Raises:
            TypeError, ValueError: a bad option; ValueError for a turn with no message form.
            ResponseShapeError: a streamed tool input that is not valid JSON.
        """
        options = check_options(store, reasoning_field, binary)
        response = self.response
        if self._stream is not None:
            self._stream.check()
        try:
            return self._family.message(response, self._choice, options)
        except RecursionError:
            raise _not_json() from None


def _not_json() -> ResponseShapeError:
    # The turn is copied as JSON data (X1, X2): a cyclic value (a dict holding itself) or one
    # nested deeper than the interpreter's recursion allows is not JSON a provider sent.
    return ResponseShapeError("", "a cyclic or too deeply nested value is not JSON data")


def check_family_choice(family: Family, choice: int) -> None:
    """``choice`` other than 0 needs a family with choices (W4; else ``ValueError``)."""
    if choice and not family.choices:
        raise ValueError(f"choice={choice}: provider family {family.name!r} has no choices")


def check_options(store: object, reasoning_field: object, binary: object) -> MessageOptions:
    """Validate ``to_message`` options.

    Raises:
        TypeError: ``store`` not a bool or None; ``reasoning_field`` not a str, False or None.
        ValueError: ``binary`` not ``"base64"``/``"bytes"``; ``reasoning_field`` empty.
    """
    if store is not None and not isinstance(store, bool):
        raise TypeError(f"store must be a bool or None, not {type(store).__name__}")
    if reasoning_field is not None and reasoning_field is not False:
        if not isinstance(reasoning_field, str):
            raise TypeError("reasoning_field must be a str, False or None, not "
                            f"{type(reasoning_field).__name__}")
        if not reasoning_field:
            raise ValueError("reasoning_field must not be empty")
    if binary not in ("base64", "bytes"):
        raise ValueError(f'binary must be "base64" or "bytes", not {binary!r}')
    return MessageOptions(store, reasoning_field, str(binary))


def to_message(
    turn: Union[Mapping[str, object], Extraction, object],
    /,
    *,
    store: Optional[bool] = None,
    reasoning_field: Union[str, Literal[False], None] = None,
    binary: Literal["base64", "bytes"] = "base64",
    choice: int = 0,
) -> Message:
    """The assistant turn of a response, as the next request needs it (X2).

    Args:
        turn: the response (a mapping or an SDK object, P7), or the
            :class:`~thinkparse.Extraction` that :func:`~thinkparse.normalize` or
            :class:`~thinkparse.StreamNormalizer` returned.
        store: Responses API: ``False`` leaves out reasoning items without
            ``encrypted_content`` and drops the other items' ``id``; default: the response's
            own ``store``, else ``True``.
        reasoning_field: Chat: ``"reasoning_content"`` / ``"reasoning"`` writes only that field
            (the reasoning text, or ``""``); ``False`` writes none; ``None`` writes each field
            the response carried.
        binary: ``"bytes"`` gives Bedrock ``redactedContent`` and Gemini ``thoughtSignature``
            as ``bytes``; ``"base64"`` keeps the JSON wire form.
        choice: which choice of a response to read (W4; ignored for an Extraction).

    Returns:
        A message dict (Chat, Anthropic, Bedrock, Gemini, Ollama) or a list of items
        (Responses): new objects, sharing nothing with the response.

    An Extraction keeps a reference to the response it was made from, not a copy (copying
    would cost more than ``normalize`` itself), and builds the message from it at each call:
    the response must not be changed while the Extraction is still to be turned into a
    message.  Take the message first (or hand the Extraction to
    :class:`~thinkparse.ReasoningContext`, whose ``update`` takes its copies at once) when the
    response object is to be reused.

    Raises:
        TypeError: ``turn`` is not a mapping, model or Extraction.
        ValueError: an Extraction built by hand, a legacy Completions response, or a bad
            option (named in the message).
        UnknownProviderError, ResponseShapeError: as :func:`~thinkparse.normalize`.
    """
    if isinstance(turn, Extraction):
        t: Optional[Turn] = turn_of(turn)
        if t is None:
            raise ValueError(
                "to_message() needs an Extraction made by normalize() or StreamNormalizer "
                "(this one was built by hand and keeps no turn)"
            )
    else:
        t = decode_turn(turn, choice)
    return t.message(store=store, reasoning_field=reasoning_field, binary=binary)


def decode_turn(response: object, choice: int = 0, provider: Optional[str] = None) -> Turn:
    """The :class:`Turn` of a response, without building its Extraction (X2).

    Raises:
        TypeError, UnknownProviderError, ValueError: as :func:`~thinkparse.normalize`.
    """
    d = response if type(response) is dict else as_mapping(response, "to_message()")
    family = response_family(d) if provider is None else REGISTRY[check_provider(provider)]
    choice = check_choice(choice)
    check_family_choice(family, choice)
    return Turn(family.name, d, choice, None)
