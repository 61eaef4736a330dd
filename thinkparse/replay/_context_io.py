"""``ReasoningContext.from_dict``: validation of a persisted context (docs/behaviour.md#x5).

The segments' messages and the blocks' ``wire`` are copied (:func:`checked_copy`), so the context
never shares a mutable object with the dict it was built from; a cyclic value there, or one
nested too deeply to copy, is a malformed dict (``ValueError`` naming its path).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional

from ._segment import VERSION, Segment, check_max

if TYPE_CHECKING:
    from .._types import ReasoningBlock

_KINDS = ("text", "summary", "opaque")


def _render(where: tuple[Any, ...]) -> str:
    parts: list[Any] = []
    while where:
        where, key = where
        parts.append(key)
    text = ""
    for key in reversed(parts):
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def checked_copy(value: Any, path: str) -> Any:
    """A deep copy of JSON-shaped data (mappings and sequences copied; scalars shared).

    Raises:
        ValueError: a cyclic value (the path names where the cycle closes), or one nested too
            deeply to copy (the path is ``path``).
    """
    active: set[int] = set()

    def copy(v: Any, where: tuple[Any, ...]) -> Any:
        is_map = isinstance(v, Mapping)
        if not (is_map or isinstance(v, (list, tuple))):
            return v
        if id(v) in active:
            raise ValueError(f"{_render(where)}: a cyclic value is not JSON data")
        active.add(id(v))
        try:
            if is_map:
                return {k: copy(x, (where, k)) for k, x in v.items()}
            return [copy(x, (where, i)) for i, x in enumerate(v)]
        finally:
            active.discard(id(v))

    try:
        return copy(value, ((), path))
    except RecursionError:
        raise ValueError(f"{path}: nested too deeply") from None


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
    wire = checked_copy(_need(d, "wire", dict, path), f"{path}.wire")
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
        message = checked_copy(_need(s, "message", (dict, list), path), f"{path}.message")
        blocks = _need(s, "blocks", list, path)
        if not blocks:
            raise ValueError(f"{path}.blocks: a segment has at least one block")
        built = tuple(_block(b, f"{path}.blocks[{k}]") for k, b in enumerate(blocks))
        segments.append(Segment(built, provider, model, tuple(ids), message))
    if ctx.max_segments is not None and len(segments) > ctx.max_segments:
        raise ValueError(f"segments: {len(segments)} segments exceed max_segments "
                         f"{ctx.max_segments}")
    return ctx, tuple(segments)
