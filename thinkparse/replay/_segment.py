"""A cached turn's reasoning (:class:`Segment`) and the snapshot version: what
:mod:`._context` keeps and :mod:`._context_io` rebuilds (docs/behaviour.md#x3, #x5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Union

from ._attach import copy_json

if TYPE_CHECKING:
    from .._types import ReasoningBlock

#: The version of ``ReasoningContext.to_dict`` snapshots.
VERSION = 1


@dataclass(frozen=True)
class Segment:
    """The reasoning of one cached turn (docs/behaviour.md#x3).

    Attributes:
        blocks: the turn's reasoning blocks, in wire order.
        provider: the family that produced the turn.
        model: the model as the response reported it, else None.
        ids: the turn's identity: tool-call ids (or ``name(arguments)``), then the visible text.
    """

    blocks: tuple[ReasoningBlock, ...]
    provider: str
    model: Optional[str]
    ids: tuple[str, ...]
    _message: Any = field(repr=False, hash=False)

    @property
    def message(self) -> Union[dict[str, Any], list[dict[str, Any]]]:
        """The turn's ``to_message`` form: a new deep copy on each access."""
        m: Union[dict[str, Any], list[dict[str, Any]]] = copy_json(self._message)
        return m


def check_max(max_segments: Any) -> Optional[int]:
    """``max_segments`` checked: an int >= 1 or None (X5)."""
    if max_segments is None:
        return None
    if isinstance(max_segments, bool) or not isinstance(max_segments, int):
        raise TypeError(f"max_segments must be an int or None, not {type(max_segments).__name__}")
    if max_segments < 1:
        raise ValueError(f"max_segments must be >= 1 or None, got {max_segments}")
    return max_segments
