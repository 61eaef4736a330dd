"""Field access for the provider decoders: input conversion (P7) and path-aware accessors (P8).

* :func:`as_mapping` / :func:`convert` turn an input object into a mapping (P7).
* Path-aware accessors (``opt_str``, ``opt_map``, ``opt_list``, ``opt_int``) check a field's type
  and raise :class:`~thinkparse.ResponseShapeError` naming its JSON path (P8).  Paths are built
  only when an error is raised, so the accessors cost a dict look-up and a type check.
* :func:`count_figures` reads one usage object (P5, P12).

Decisions where docs/behaviour.md is silent:

* Token counts must be JSON integers (``bool`` is refused); an integral float such as ``12.0``
  is accepted as ``12``; ``null`` counts as "not reported".  Anything else raises
  ``ResponseShapeError`` at the count's path.
* Signatures delivered as bytes (google-genai objects dumped in Python mode) are base64-encoded,
  which is how the REST wire carries them.
* An SDK object whose ``model_dump()`` raises ``ValueError`` / ``TypeError`` for every argument
  set tried: the last error propagates (the caller's own error, not a generic "takes a
  Mapping" message).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

from .._errors import ResponseShapeError


# --- P7: input objects -------------------------------------------------------------------------
def _dump(dump: Any) -> Any:
    # pydantic v2 models take by_alias/exclude_unset/warnings; older or hand-written
    # model_dump() methods may take fewer arguments, so fall back step by step.  Python mode,
    # not JSON mode: bytes stay bytes and are base64-encoded where read, with the standard
    # alphabet the REST wire uses (google-genai's JSON mode gives URL-safe base64 for thought
    # signatures).  ``exclude_unset`` keeps only what the server sent (X1).  When every
    # argument set fails, the last error is the caller's own and propagates.
    err: Optional[BaseException] = None
    for kwargs in _DUMP_ARGS:
        try:
            return dump(**kwargs)
        except (TypeError, ValueError) as e:
            err = e
    if err is not None:
        raise err
    return None  # pragma: no cover - _DUMP_ARGS is not empty


_DUMP_ARGS: tuple[dict[str, bool], ...] = (
    {"by_alias": True, "exclude_unset": True, "warnings": False},
    {"by_alias": True, "exclude_unset": True},
    {"by_alias": True},
    {},
)


def convert(obj: Any) -> Optional[Mapping[str, Any]]:
    """``obj`` as a mapping, or ``None`` when it is neither a mapping nor a model (P7)."""
    if isinstance(obj, Mapping):
        return obj
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        data = _dump(dump)
    else:
        to_dict = getattr(obj, "to_dict", None)
        if not callable(to_dict):
            return None
        data = to_dict()
    return data if isinstance(data, Mapping) else None


def as_mapping(obj: Any, what: str) -> Mapping[str, Any]:
    """The top-level input as a mapping (P7).

    Raises:
        TypeError: ``obj`` is not a mapping and has no usable ``model_dump()`` / ``to_dict()``.
    """
    if type(obj) is dict:
        return obj
    data = convert(obj)
    if data is None:
        hint = ""
        if isinstance(obj, (str, bytes)):
            hint = " (parse the JSON text first, e.g. with json.loads)"
        elif isinstance(obj, Sequence):
            hint = " (a list of stream events goes to StreamNormalizer, one feed() per event)"
        raise TypeError(
            f"{what} takes a Mapping or an object with model_dump() or to_dict(), "
            f"not {type(obj).__name__}{hint}"
        )
    return data


# --- path-aware accessors (P8) -----------------------------------------------------------------
Where = Union[str, tuple[Any, ...]]
"""A JSON path: a string, or a tuple of keys and indexes rendered only when an error is raised
(so hot loops pay for a tuple, not for string formatting)."""


def _flatten(where: tuple[Any, ...], out: list[Any]) -> None:
    for part in where:
        if isinstance(part, tuple):
            _flatten(part, out)
        elif part != "":
            out.append(part)


def render(where: Where) -> str:
    """A path as text: ``("output", 0, "content")`` -> ``"output[0].content"``."""
    if isinstance(where, str):
        return where
    parts: list[Any] = []
    _flatten(where, parts)
    text = ""
    for part in parts:
        text = join_path(text, part)
    return text


def join_path(where: Where, key: Any) -> str:
    """``where.key`` or ``where[key]`` for an int key."""
    if type(where) is not str:
        where = render(where)
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else str(key)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def shape_error(where: Where, key: Any, expected: str, value: Any) -> ResponseShapeError:
    """The error for a field of the wrong type."""
    return ResponseShapeError(
        join_path(where, key), f"expected {expected}, got {_kind(value)}"
    )


def missing(where: Where, key: Any, expected: str) -> ResponseShapeError:
    """The error for a required field that is absent or null."""
    return ResponseShapeError(join_path(where, key), f"missing (expected {expected})")


#: (input, output, total, reasoning) token figures of one usage object.
Figures = tuple[Optional[int], Optional[int], Optional[int], Optional[int]]


def count_figures(
    u: Mapping[str, Any],
    where: Where,
    counts: tuple[str, str, Optional[str]],
    details: Optional[tuple[str, str]] = None,
) -> Figures:
    """(input, output, total, reasoning) of one usage object, under the family's key names.

    Args:
        u: the usage object.
        where: its JSON path, for errors.
        counts: the keys of the input, output and (or ``None``) total counts.
        details: the key of the details object and of the reasoning count inside it.
    """
    in_key, out_key, total_key = counts
    i = u.get(in_key)
    o = u.get(out_key)
    t = u.get(total_key) if total_key is not None else None
    if not (
        type(i) in COUNT_TYPES
        and type(o) in COUNT_TYPES
        and (total_key is None or type(t) in COUNT_TYPES)
    ):
        i = opt_int(u, in_key, where)
        o = opt_int(u, out_key, where)
        t = opt_int(u, total_key, where) if total_key is not None else None
    r = None
    if details is not None:
        det_key, r_key = details
        det = u.get(det_key)
        if det is not None:
            if type(det) is not dict:
                det = opt_map(u, det_key, where)
            if det is not None:
                r = det.get(r_key)
                if type(r) not in COUNT_TYPES:
                    r = opt_int(det, r_key, (where, det_key))
    return i, o, t, r


def req_array(d: Mapping[str, Any], key: str) -> Any:
    """The top-level array ``d[key]`` (a list or tuple); absent, null or another type raises."""
    v = d.get(key)
    if type(v) is list:
        return v
    if v is None:
        raise missing("", key, "an array")
    if not isinstance(v, (list, tuple)):
        raise shape_error("", key, "an array", v)
    return v


def opt_str(d: Mapping[str, Any], key: str, where: Where) -> Optional[str]:
    """``d[key]`` when it is a string, ``None`` when absent or null."""
    v = d.get(key)
    if v is None or type(v) is str:
        return v
    if isinstance(v, str):
        return str(v)
    raise shape_error(where, key, "a string or null", v)


def opt_map(d: Mapping[str, Any], key: str, where: Where) -> Optional[Mapping[str, Any]]:
    """``d[key]`` as a mapping (models converted, P7), ``None`` when absent or null."""
    v = d.get(key)
    if v is None or type(v) is dict:
        return v
    m = convert(v) if not isinstance(v, (str, bytes, int, float, list, tuple)) else None
    if m is None:
        raise shape_error(where, key, "an object or null", v)
    return m


def item_map(v: Any, where: Where, index: int) -> Mapping[str, Any]:
    """A list element that must be an object."""
    if type(v) is dict:
        return v
    m = convert(v) if not isinstance(v, (str, bytes, int, float, list, tuple)) else None
    if m is None:
        raise shape_error(where, index, "an object", v)
    return m


def opt_list(d: Mapping[str, Any], key: str, where: Where) -> Optional[Sequence[Any]]:
    """``d[key]`` when it is an array, ``None`` when absent or null."""
    v = d.get(key)
    if v is None or type(v) is list:
        return v
    if isinstance(v, (list, tuple)):
        return v
    raise shape_error(where, key, "an array or null", v)


#: The types of a count that needs no further checking (``None``: not reported).
COUNT_TYPES = frozenset({int, type(None)})


def opt_int(d: Mapping[str, Any], key: str, where: Where) -> Optional[int]:
    """A token count: ``d[key]`` as an int, ``None`` when absent or null (P5, P12)."""
    v = d.get(key)
    if v is None or type(v) is int:
        return v
    if isinstance(v, float) and v.is_integer() and v >= 0:
        return int(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    raise shape_error(where, key, "an integer or null", v)


def opt_index(d: Mapping[str, Any], key: str, where: Where) -> Optional[int]:
    """A position field (``index``, ``output_index``...): an int, or ``None`` when absent."""
    v = d.get(key)
    if v is None or type(v) is int:
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    raise shape_error(where, key, "an integer or null", v)


def signature_text(v: Any, where: Where, key: str) -> Optional[str]:
    """A signature as text: strings as they are, bytes base64-encoded, ``None`` when empty."""
    if v is None or v == "" or v == b"":
        return None
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode("ascii")
    raise shape_error(where, key, "a string or null", v)


def readable(text: Optional[str]) -> bool:
    """True for text with a non-whitespace character (P2)."""
    return bool(text) and not text.isspace()  # type: ignore[union-attr]


