"""What a provider family module provides: one :class:`Family` record of its functions.

A family module (``anthropic``..., or a package whose ``__init__`` holds the record:
``openai_chat``, ``gemini``) holds all of that family's knowledge and ends with
``FAMILY = Family(...)``; :mod:`._registry` lists the records.  Adding a family is one module
plus one line there.

The record's ``decoder`` makes one :class:`Decoder` per streamed message, which reads each
event once and hands its parts to the collector (text, usage, the finish reason, and the wire's
own ``error_event`` / ``response_started`` signals) and its wire pieces to its
:class:`Accumulator` (the turn, X1/X2) -- through their methods, never their fields; a method
may hand the decoder the list a field's pieces go to, and the decoder appends the pieces that
continue it there (the usual event: no call).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional, Protocol, Union

from .._errors import ResponseShapeError
from .._types import BlockKind, ReasoningBlock
from ._access import jsonify, readable
from ._assemble import Parts
from ._collector import Collector

Message = Union[dict[str, Any], list[dict[str, Any]]]

#: Event types that decide no family and carry nothing to extract (keep-alives, errors, P9).
KEEP_ALIVE = frozenset({"ping", "error"})


class MessageOptions(NamedTuple):
    """The options of :func:`~thinkparse.to_message` (checked), as a family's ``message``
    function receives them (X2)."""

    store: Optional[bool]
    """Responses: leave out unencrypted reasoning items and the other items' ``id``."""
    reasoning_field: Union[str, bool, None]
    """Chat: the one reasoning field to write (``False``: none; ``None``: as received)."""
    binary: str
    """``"base64"`` or ``"bytes"`` for Bedrock ``redactedContent`` and Gemini signatures."""


class Accumulator:
    """Adds a stream's pieces up into the response it stands for (X1, X2); one per family.

    Text pieces are kept in lists and joined once (linear in the stream's length).  Events that
    carry an item or the message's own fields may be kept as received with :meth:`keep` and
    read, in order, on first use (docs/behaviour.md#x1 lets the turn be built lazily): the
    family's :meth:`read_kept` reads one.  Errors met while building (invalid streamed tool
    input) are recorded with :meth:`fail` and raised by :meth:`check` when a message is built.
    """

    #: Events kept to be read on first use (``None``: none).
    kept: Optional[list[Mapping[str, Any]]] = None
    #: Errors met while building the response, in order (``None``: none).
    errors: Optional[list[ResponseShapeError]] = None

    def keep(self, ev: Mapping[str, Any]) -> None:
        """Keep ``ev`` to read it on first use."""
        if self.kept is None:
            self.kept = [ev]
        else:
            self.kept.append(ev)

    def catch_up(self) -> None:
        """Read the kept events, in order."""
        kept = self.kept
        self.kept = None
        for ev in kept or ():
            self.read_kept(ev)

    def read_kept(self, ev: Mapping[str, Any]) -> None:
        """Read one kept event (each family reads its own)."""

    def response(self) -> dict[str, Any]:
        """The response the stream adds up to (the kept events read first)."""
        if self.kept:
            self.catch_up()
        return self.build()

    def build(self) -> dict[str, Any]:
        """The response from what was added up (each family builds its own)."""
        raise NotImplementedError

    def fail(self, error: ResponseShapeError) -> None:
        """Record an error met while building the response; :meth:`check` raises the first."""
        self.errors = [*(self.errors or ()), error]

    def check(self) -> None:
        """Raise the first error met while building the response (X2)."""
        if self.errors:
            raise self.errors[0]

    def parse_json(self, pieces: list[str], where: str) -> Any:
        """Streamed tool input: the pieces joined and parsed; the text itself (and an error
        recorded) when it is not valid JSON (a truncated stream)."""
        text = "".join(pieces)
        try:
            return json.loads(text)
        except ValueError:
            self.fail(ResponseShapeError(where, "streamed tool input is not valid JSON "
                                                "(a truncated stream?)"))
            return text


class ItemPieces(Accumulator):
    """An accumulator of items streamed by index, whose fields come in pieces (Anthropic
    content blocks, Bedrock content blocks): the pieces of each item's field, in order."""

    def __init__(self) -> None:
        self.pieces: dict[tuple[Any, str], list[Any]] = {}

    def field(self, idx: Any, name: str) -> list[Any]:
        """The list of item ``idx``'s ``name`` pieces, to which the decoder appends each piece
        as received (made on first use)."""
        return self.pieces.setdefault((idx, name), [])


class Decoder(Protocol):
    """A family's stream decoder (one per streamed message)."""

    @property
    def acc(self) -> Accumulator:
        """The accumulator the decoder feeds, from which the turn is read."""

    def event(self, ev: Mapping[str, Any], /) -> None:
        """Decode one stream event into the collector's parts and the accumulator's pieces
        (``ResponseShapeError`` for a malformed field)."""

    def close(self) -> None:
        """End of the stream: release what is held per message."""


@dataclass(frozen=True)
class Family:
    """One provider family (see the module docstring)."""

    name: str
    """The ``provider`` name."""
    keys: tuple[str, ...]
    """Top-level keys of which a whole response of this family has at least one."""
    is_response: Optional[Callable[[Mapping[str, Any]], bool]]
    """Whether a whole response that has one of ``keys`` has this family's shape (P8);
    ``None``: having one of them is enough."""
    is_event: Callable[[Mapping[str, Any]], bool]
    """Whether a stream event has this family's shape (P8)."""
    read: Callable[[Mapping[str, Any], int], Parts]
    """Reads a whole response (response, choice)."""
    decoder: Callable[[Collector, int], Decoder]
    """Builds the decoder of one streamed message (collector, choice)."""
    blocks: Callable[[Mapping[str, Any], int], list[ReasoningBlock]]
    """The reasoning blocks of a response as received (X1)."""
    message: Callable[[Mapping[str, Any], int, MessageOptions], Message]
    """The turn of a response in the request format (X2)."""
    model: Callable[[Mapping[str, Any]], Optional[str]]
    """The model a response or stream event names, else ``None`` (P13)."""
    choices: bool = False
    """Payloads may hold several choices (W4)."""


def block(provider: str, kind: BlockKind, text: str, wire: Any, signature: Optional[str] = None,
          data: Optional[str] = None, id: Any = None) -> ReasoningBlock:
    """A :class:`~thinkparse.ReasoningBlock`: ``kind`` is the readable kind (``"text"`` or
    ``"summary"``) or ``"opaque"``; a block whose text is not readable is opaque (X1)."""
    if not readable(text):
        kind, text = "opaque", ""
    return ReasoningBlock(kind, text if kind != "opaque" else "", signature or None, data or None,
                          id if isinstance(id, str) else None, provider, jsonify(wire))
