"""``ReasoningContext.from_dict``: validation of a persisted context (docs/behaviour.md#x5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

from ._segment import VERSION, Segment, check_max

if TYPE_CHECKING:
    from .._types import ReasoningBlock

_KINDS = ("text", "summary", "opaque")


def _need(d: Mapping[str, Any], key: str, types: Any, path: str, optional: bool = False) -> Any:
    if key not in d:
        raise ValueError(f"{path}.{key}: missing")
    v = d[key]
    if (v is None and optional) or (isinstance(v, types) and not isinstance(v, bool)):
        return v
    raise ValueError(f"{path}.{key}: expected {getattr(types, '__name__', types)}, "
                     f"got {type(v).__name__}")


def _block(d: Any, path: str) -> ReasoningBlock:
    if not isinstance(d, Mapping):
        raise ValueError(f"{path}: expected an object")
    kind = _need(d, "kind", str, path)
    if kind not in _KINDS:
        raise ValueError(f"{path}.kind: expected one of {', '.join(_KINDS)}, got {kind!r}")
    wire = _need(d, "wire", dict, path)
    return make_block(
        kind=kind,
        text=_need(d, "text", str, path),
        signature=_need(d, "signature", str, path, True),
        data=_need(d, "data", str, path, True),
        id=_need(d, "id", str, path, True),
        provider=_need(d, "provider", str, path),
        wire=wire,
    )


def make_block(*, kind: str, text: str, signature: Optional[str], data: Optional[str],
               id: Optional[str], provider: str, wire: dict[str, Any]) -> ReasoningBlock:
    """A ``ReasoningBlock`` from its persisted fields."""
    from .._types import ReasoningBlock

    return ReasoningBlock(kind, text, signature, data, id, provider, wire)  # type: ignore[arg-type]


def context_from_dict(cls: Any, d: Any) -> tuple[Any, tuple[Any, ...]]:
    """A new ``cls`` (a ``ReasoningContext``) and the segments of a ``to_dict`` snapshot."""

    if not isinstance(d, Mapping):
        raise TypeError(f"d must be a mapping, not {type(d).__name__}")
    version = d.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ValueError("version: missing or not an int")
    if version > VERSION:
        raise ValueError(f"version: {version} is newer than this thinkparse reads ({VERSION})")
    if version < 1:
        raise ValueError(f"version: {version} is not a known version")
    if "max_segments" not in d:
        raise ValueError("max_segments: missing")
    try:
        ctx = cls(max_segments=check_max(d["max_segments"]))
    except TypeError as e:
        raise ValueError(f"max_segments: {e}") from None
    raw = d.get("segments")
    if not isinstance(raw, list):
        raise ValueError("segments: expected a list")
    segments = []
    for n, s in enumerate(raw):
        path = f"segments[{n}]"
        if not isinstance(s, Mapping):
            raise ValueError(f"{path}: expected an object")
        provider = _need(s, "provider", str, path)
        model = _need(s, "model", str, path, True)
        ids = _need(s, "ids", list, path)
        if not all(isinstance(i, str) for i in ids):
            raise ValueError(f"{path}.ids: expected a list of strings")
        message = _need(s, "message", (dict, list), path)
        blocks = _need(s, "blocks", list, path)
        if not blocks:
            raise ValueError(f"{path}.blocks: a segment has at least one block")
        built = tuple(_block(b, f"{path}.blocks[{k}]") for k, b in enumerate(blocks))
        segments.append(Segment(built, provider, model, tuple(ids), message))
    if ctx.max_segments is not None and len(segments) > ctx.max_segments:
        raise ValueError(f"segments: {len(segments)} segments exceed max_segments "
                         f"{ctx.max_segments}")
    return ctx, tuple(segments)
