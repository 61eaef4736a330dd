"""Blocks (X1) and request messages (X2) of a decoded turn, per family."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Union

from .._types import ReasoningBlock


def blocks_of(
    provider: str, response: Mapping[str, Any], choice: int
) -> tuple[ReasoningBlock, ...]:
    """The reasoning blocks of a response (X1)."""
    return ()


def message_of(
    provider: str,
    response: Mapping[str, Any],
    choice: int,
    *,
    store: Optional[bool],
    reasoning_field: Union[str, bool, None],
    binary: str,
) -> Union[dict[str, Any], list[dict[str, Any]]]:
    """The request-format message of a response (X2)."""
    raise NotImplementedError
