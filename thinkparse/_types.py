"""Result types: immutable, typed, with readable reprs (see docs/behaviour.md).

:class:`Delta` is a 2-tuple subclass so that ``visible, reasoning = scanner.feed(chunk)`` works and
so the compiled scanner can build one without calling Python code.  The others are frozen
dataclasses.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, Optional

from ._spec import CHARS_PER_TOKEN


class Delta(tuple):  # type: ignore[type-arg]
    """What one ``feed()`` or ``close()`` released: ``(visible, reasoning)``.

    Behaves as the 2-tuple ``(visible, reasoning)`` (unpacks, indexes, equals a tuple) and is
    falsy when both parts are empty.
    """

    __slots__ = ()

    def __new__(cls, visible: str = "", reasoning: str = "") -> Delta:
        return tuple.__new__(cls, (visible, reasoning))

    @property
    def visible(self) -> str:
        """Answer text released by this call."""
        v: str = self[0]
        return v

    @property
    def reasoning(self) -> str:
        """Reasoning text released by this call (``""`` when none)."""
        r: str = self[1]
        return r

    def __bool__(self) -> bool:
        return bool(self[0]) or bool(self[1])

    def __repr__(self) -> str:
        return f"Delta(visible={self[0]!r}, reasoning={self[1]!r})"

    def __getnewargs__(self) -> tuple[str, str]:
        return (self[0], self[1])


EMPTY_DELTA = Delta("", "")


@dataclass(frozen=True, repr=False)
class Parsed:
    """Result of :func:`thinkparse.parse` (see docs/behaviour.md#r1)."""

    visible: str
    """The answer: text outside the ``<REASONING>`` block, stripped at both ends (R5)."""
    reasoning: Optional[str]
    """The block's inside, stripped (R4); ``None`` when no block was extracted (R3)."""
    tokens_est: int
    """``ceil(len(reasoning) / 4)``; 0 when ``reasoning`` is ``None`` (R6)."""
    blocks: tuple[str, ...] = ()
    """Each complete block's stripped text, in order, empty ones included (R8).

    ``()`` exactly when ``reasoning`` is ``None``; a ``Parsed`` built with a reasoning and no
    blocks gets ``(reasoning,)``, the single-block form.
    """
    redactions: int = 0
    """How many outermost ``<REDACTED>`` sections were replaced (R7)."""
    _multi_block: bool = field(default=False, compare=False, repr=False)
    # Whether parse() ran with multi_block=True: to_dict() then lists the blocks (R8).  Not part
    # of equality, so both modes give equal results on a message with one balanced block.

    def __post_init__(self) -> None:
        if not self.blocks and self.reasoning is not None:
            object.__setattr__(self, "blocks", (self.reasoning,))

    def __repr__(self) -> str:
        extra = ""
        if len(self.blocks) > 1:
            extra += f", blocks={self.blocks!r}"
        if self.redactions:
            extra += f", redactions={self.redactions!r}"
        return (
            f"Parsed(visible={self.visible!r}, reasoning={self.reasoning!r}, "
            f"tokens_est={self.tokens_est!r}{extra})"
        )

    def to_dict(self) -> dict[str, Any]:
        """``{"visible": ..., "reasoning": {"text": ..., "tokensEst": ...}}``.

        The ``"reasoning"`` key is absent when ``reasoning`` is ``None``.  When the result comes
        from ``parse(..., multi_block=True)`` (R8) it also has
        ``"blocks": [{"text": ..., "tokensEst": ...}, ...]``, one entry per block.
        """
        out: dict[str, Any] = {"visible": self.visible}
        if self.reasoning is not None:
            out["reasoning"] = {"text": self.reasoning, "tokensEst": self.tokens_est}
            if self._multi_block or len(self.blocks) > 1:
                out["reasoning"]["blocks"] = [
                    {"text": b, "tokensEst": tokens_estimate(b)} for b in self.blocks
                ]
        return out


@dataclass(frozen=True)
class Split:
    """Result of :func:`thinkparse.split_think` / :func:`thinkparse.split_harmony`."""

    visible: str
    """The answer text with tags and blocks removed (T8)."""
    reasoning: Optional[str]
    """The blocks' text, stripped and joined with ``"\\n\\n"``; ``None`` when no block (T9)."""
    closed: Optional[bool] = field(default=None, compare=False, repr=False)
    """Whether the last reasoning block was closed -- by its closer, a terminator (F2) or a
    self-closing opener -- rather than cut off by the end of the text; ``None`` when there was
    no block (F7).  Left out of equality and of the ``repr``: two splits into the same parts
    are equal however the last block ended."""

    def to_dict(self) -> dict[str, Any]:
        """``{"visible", "reasoning", "closed"}``, the fields as JSON values."""
        return {"visible": self.visible, "reasoning": self.reasoning, "closed": self.closed}


@dataclass(frozen=True)
class Usage:
    """Token counts as the provider reported them (P12); ``None`` where not reported."""

    input_tokens: Optional[int] = None
    """Prompt tokens."""
    output_tokens: Optional[int] = None
    """All generated tokens, reasoning included."""
    reasoning_tokens: Optional[int] = None
    """Reasoning tokens as reported (P5)."""
    total_tokens: Optional[int] = None
    """Total as reported."""


BlockKind = Literal["text", "summary", "opaque"]


@dataclass(frozen=True)
class ReasoningBlock:
    """One reasoning item of a turn, readable or not, with its wire form (docs/behaviour.md#x1).

    Equality and hash compare every field but the wire form (it may be large; compare
    ``wire`` explicitly where it matters).
    """

    kind: BlockKind
    """``"text"`` (readable raw reasoning), ``"summary"`` (a readable summary) or ``"opaque"``."""
    text: str
    """The readable text; ``""`` when opaque."""
    signature: Optional[str] = None
    """Anthropic/Bedrock signature, Gemini thought signature, OpenRouter signature."""
    data: Optional[str] = None
    """Opaque payload: Anthropic redacted ``data``, Bedrock ``redactedContent``, Responses
    ``encrypted_content``, OpenRouter ``reasoning.encrypted`` ``data``."""
    id: Optional[str] = None
    """Responses item id, OpenRouter detail id."""
    provider: str = ""
    """The family the block came from."""
    _wire: Any = field(default=None, repr=False, compare=False, hash=False)

    @property
    def wire(self) -> dict[str, Any]:
        """A new deep copy of the item as received (JSON-compatible), at every access."""
        w = self._wire
        return copy.deepcopy(w) if w is not None else {}


@dataclass(frozen=True)
class Extraction:
    """A provider response reduced to answer and reasoning (see docs/behaviour.md#p1)."""

    visible: str
    """The answer text; ``""`` when there is none (P1)."""
    reasoning: Optional[str]
    """Readable reasoning; ``None`` when absent or whitespace-only (P2)."""
    reasoning_tokens: Optional[int]
    """Reasoning token count as reported by the provider, else ``None`` (P5)."""
    tokens_est: int
    """``ceil(len(reasoning) / 4)``; 0 when ``reasoning`` is ``None``."""
    redacted: bool
    """True when the payload carries reasoning the caller cannot read (P6)."""
    signatures: tuple[str, ...]
    """Reasoning signatures in order (Anthropic, Gemini, Bedrock, OpenRouter)."""
    provider: str
    """The family that decoded the payload (6.1)."""
    format: str
    """``"field"``, ``"blocks"``, ``"tags"``, ``"harmony"`` or ``"none"`` (P11)."""
    usage: Usage = field(default_factory=Usage)
    """Token usage (P12)."""
    finish_reason: Optional[str] = field(default=None, compare=False)
    """Why generation stopped, as the provider reported it (``finish_reason``,
    ``stop_reason``, ``finishReason``, ``status``...); ``None`` when not reported (W4).
    Left out of equality, like the decoded turn: two results that say the same are equal."""
    _turn: Any = field(default=None, compare=False, repr=False, hash=False)
    # The decoded turn (X2): a Turn (thinkparse.providers._turn), or ``(make, *arguments)`` to
    # build one on first use as ``make(*arguments)`` (so that calls that never touch blocks or
    # the message do not pay for it; the maker comes with the arguments, so that these core
    # types import nothing of the providers).
    reasoning_closed: Optional[bool] = field(default=None, compare=False, repr=False)
    """Whether the last reasoning block was closed rather than cut off (F7): for inline markup,
    as :attr:`Split.closed` says; for reasoning the provider separated (a field, blocks),
    ``True``; ``None`` when there is no reasoning.  Left out of equality and of the ``repr``."""
    preset: Optional[str] = field(default=None, compare=False, repr=False)
    """The preset inline markup was read with (F8): given, or chosen from the payload's model
    name (P13); ``None`` when no preset applied.  Left out of equality and of the ``repr``."""

    @property
    def blocks(self) -> tuple[ReasoningBlock, ...]:
        """Every reasoning item of the turn in wire order (see docs/behaviour.md#x1).

        Built on first access from the decoded turn; ``()`` for an Extraction built by hand.
        The turn is the response ``normalize`` was given, kept by reference (not copied, so
        that ``normalize`` stays cheap): changes made to that response before the first access
        show in the blocks (and in :func:`~thinkparse.to_message`).  Read ``blocks`` (each
        block's ``wire`` is its own copy from then on) or take the message before changing or
        reusing the response object.
        """
        t = turn_of(self)
        return t.blocks if t is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """The flat record the CLI's ``--json`` writes (W4).

        Returns:
            ``{"visible", "reasoning", "tokens_est", "provider", "format",
            "reasoning_tokens", "redacted"}``.
        """
        return {
            "visible": self.visible,
            "reasoning": self.reasoning,
            "tokens_est": self.tokens_est,
            "provider": self.provider,
            "format": self.format,
            "reasoning_tokens": self.reasoning_tokens,
            "redacted": self.redacted,
        }


def turn_of(x: Extraction) -> Any:
    """The decoded turn an :class:`Extraction` keeps, or ``None`` for one built by hand (X2).

    The turn is a :class:`thinkparse.providers._turn.Turn`; typed ``Any`` here, where the
    providers are not imported (callers annotate it).
    """
    t = x._turn
    if type(t) is tuple:
        t = t[0](*t[1:])
        object.__setattr__(x, "_turn", t)
    return t


def tokens_estimate(reasoning: Optional[str]) -> int:
    """``ceil(len(reasoning) / 4)``, 0 for ``None`` (R6, P5)."""
    if reasoning is None:
        return 0
    return -(-len(reasoning) // CHARS_PER_TOKEN)
