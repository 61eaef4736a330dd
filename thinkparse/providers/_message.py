"""``to_message()``: the assistant turn in the request format (see docs/behaviour.md#x2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Optional, Union

from .._types import Extraction, turn_of
from ._turn import Message, Turn


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
        from ._normalize import decode_turn

        t = decode_turn(turn, choice)
    return t.message(store=store, reasoning_field=reasoning_field, binary=binary)
