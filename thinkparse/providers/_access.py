"""Field access for the family modules: input conversion (P7), checked fields (P8), JSON copies.

* :func:`as_mapping` / :func:`convert` turn an input object into a mapping (P7).
* Checked accessors (``opt_str``, ``opt_map``, ``opt_list``, ``opt_int``...) check a field's type
  and raise :class:`~thinkparse.ResponseShapeError` naming its JSON path (P8).  Paths are built
  only when an error is raised, so the accessors cost a dict look-up and a type check.
* :func:`chosen` picks the choice (Chat ``choices``, Gemini ``candidates``) whose ``index`` is
  the one asked for (W4); :func:`count_figures` reads one usage object into :class:`Figures`
  (:func:`usage_at`: the ``usage`` object of a response or event).
* Unchecked readers (:func:`as_map`, :func:`as_list`, :func:`text_of`) and :func:`jsonify` read
  the kept wire form, for blocks (X1), messages (X2) and the stream accumulators.

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
import binascii
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, Optional, Union

from .._errors import ResponseShapeError


# --- P7: input objects -------------------------------------------------------------------------
def _dump(dump: Any) -> Any:
    # pydantic v2 models take by_alias/exclude_unset/warnings; older or hand-written
    # model_dump() methods may take fewer arguments, so fall back step by step.  Python mode,
    # not JSON mode: bytes stay bytes and are base64-encoded where read, with the standard
    # alphabet the REST wire uses (google-genai's JSON mode gives URL-safe base64 for thought
    # signatures).  ``exclude_unset`` keeps only what the server sent (X1).  When every
    # argument set fails, the error of the plain call is the caller's own and propagates.
    for kwargs in _DUMP_ARGS:
        try:
            return dump(**kwargs)
        except (TypeError, ValueError):
            pass
    return dump()


_DUMP_ARGS: tuple[dict[str, bool], ...] = (
    {"by_alias": True, "exclude_unset": True, "warnings": False},
    {"by_alias": True, "exclude_unset": True},
    {"by_alias": True},
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
    """The top-level input as a mapping (P7); ``TypeError`` when ``obj`` is not a mapping and
    has no usable ``model_dump()`` / ``to_dict()``."""
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


# --- paths and errors (P8) ---------------------------------------------------------------------
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


#: How an error names a value of the wrong type, by the first of these types it is.
_KINDS = ((type(None), "null"), (bool, "a boolean"), ((int, float), "a number"),
          (str, "a string"), (Mapping, "an object"), ((list, tuple), "an array"))


def _kind(value: Any) -> str:
    return next((name for t, name in _KINDS if isinstance(value, t)), type(value).__name__)


def shape_error(where: Where, key: Any, expected: str, value: Any) -> ResponseShapeError:
    """The error for a field of the wrong type."""
    return ResponseShapeError(join_path(where, key), f"expected {expected}, got {_kind(value)}")


def missing(where: Where, key: Any, expected: str) -> ResponseShapeError:
    """The error for a required field that is absent or null."""
    return ResponseShapeError(join_path(where, key), f"missing (expected {expected})")


# --- checked fields ----------------------------------------------------------------------------
def req_array(d: Mapping[str, Any], key: str, where: Where = "") -> Any:
    """The array ``d[key]`` (a list or tuple); absent, null or another type raises."""
    v = d.get(key)
    if type(v) is list:
        return v
    if v is None:
        raise missing(where, key, "an array")
    if not isinstance(v, (list, tuple)):
        raise shape_error(where, key, "an array", v)
    return v


def req_map(d: Mapping[str, Any], key: str, where: Where = "") -> Mapping[str, Any]:
    """The object ``d[key]`` (models converted, P7); absent or null raises, and so does another
    type (as :func:`opt_map` does)."""
    m = opt_map(d, key, where)
    if m is None:
        raise missing(where, key, "an object")
    return m


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
    m = as_map(v)
    if m is None:
        raise shape_error(where, key, "an object or null", v)
    return m


def item_map(v: Any, where: Where, index: int) -> Mapping[str, Any]:
    """A list element that must be an object."""
    m = v if type(v) is dict else as_map(v)
    if m is None:
        raise shape_error(where, index, "an object", v)
    return m


def opt_list(d: Mapping[str, Any], key: str, where: Where) -> Optional[Sequence[Any]]:
    """``d[key]`` when it is an array, ``None`` when absent or null."""
    v = d.get(key)
    if v is None or type(v) is list or isinstance(v, (list, tuple)):
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


def chosen(items: Sequence[Any], choice: int, where: str
           ) -> Optional[tuple[int, Mapping[str, Any]]]:
    """``(position, element)`` of the element of ``items`` whose ``index`` is ``choice`` (W4):
    the one at position ``choice`` unless it names another index, else the first that names
    ``choice``; ``None`` when there is none (``ResponseShapeError`` for an element looked at
    that is not an object)."""
    if choice < len(items):
        c = item_map(items[choice], where, choice)
        idx = c.get("index")
        if idx is None or idx == choice:
            return choice, c
    for i, c in enumerate(items):
        c = item_map(c, where, i)
        if c.get("index") == choice:
            return i, c
    return None


# --- P5, P12: usage ----------------------------------------------------------------------------
class Figures(tuple[Optional[int], Optional[int], Optional[int], Optional[int]]):
    """The token figures of one usage object (P5, P12), ``None`` where not reported:
    ``Figures((input, output, total, reasoning))``.

    A named record built as a plain tuple (no Python-level ``__new__``, unlike a NamedTuple):
    a stream that reports usage builds one per event.
    """

    __slots__ = ()

    input = property(itemgetter(0), doc="Prompt tokens.")
    output = property(itemgetter(1), doc="Generated tokens, reasoning included.")
    total = property(itemgetter(2), doc="Total as reported.")
    reasoning = property(itemgetter(3), doc="Reasoning tokens as reported.")

    def __repr__(self) -> str:
        return "Figures(input={!r}, output={!r}, total={!r}, reasoning={!r})".format(*self)


def count_figures(u: Mapping[str, Any], where: Where, counts: tuple[str, str, Optional[str]],
                  details: Optional[tuple[str, str]] = None) -> Figures:
    """The :class:`Figures` of the usage object ``u`` (at ``where``) under the family's key
    names: ``counts`` names the input, output and (or ``None``) total counts, ``details`` the
    details object and the reasoning count inside it."""
    in_key, out_key, total_key = counts
    i = u.get(in_key)
    o = u.get(out_key)
    t = u.get(total_key) if total_key is not None else None
    ok = COUNT_TYPES
    if not (type(i) in ok and type(o) in ok and type(t) in ok):  # the checked read
        i = opt_int(u, in_key, where)
        o = opt_int(u, out_key, where)
        t = opt_int(u, total_key, where) if total_key is not None else None
    r = None
    if details is not None:
        det_key, r_key = details
        det = u.get(det_key)
        if det is not None and type(det) is not dict:
            det = opt_map(u, det_key, where)
        if det is not None:
            r = det.get(r_key)
            if type(r) not in ok:
                r = opt_int(det, r_key, (where, det_key))
    return Figures((i, o, t, r))


def usage_at(d: Mapping[str, Any], where: Where, counts: tuple[str, str, Optional[str]],
             details: Optional[tuple[str, str]] = None) -> Optional[Figures]:
    """The :func:`count_figures` of ``d["usage"]``, ``None`` when it is absent or null."""
    u = d.get("usage")
    if u is not None and type(u) is not dict:
        u = opt_map(d, "usage", where)
    return count_figures(u, (where, "usage"), counts, details) if u is not None else None


# --- the kept wire form: unchecked readers and JSON copies (X1, X2) ----------------------------
#: Values copied as they are (immutable JSON scalars: no call to :func:`jsonify`).
SCALARS = frozenset({str, int, float, bool})


def jsonify(v: Any, drop_null: bool = False) -> Any:
    """A deep copy holding only JSON types (bytes as standard base64, models converted)."""
    t = type(v)
    if t is str or v is None or t is int or t is bool or t is float:
        return v
    if t is dict:
        out: dict[str, Any] = {}
        for k, x in v.items():
            if x is None and drop_null:
                continue
            tx = type(x)
            key = k if type(k) is str else str(k)
            out[key] = x if tx is str or tx is int or tx is bool or tx is float or x is None else (
                jsonify(x, drop_null)
            )
        return out
    if isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, Mapping):
        return {str(k): jsonify(x, drop_null) for k, x in v.items()
                if not (drop_null and x is None)}
    if isinstance(v, (list, tuple)):
        return [jsonify(x, drop_null) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode("ascii")
    m = convert(v)
    return jsonify(m, drop_null) if m is not None else v


def as_map(v: Any) -> Optional[Mapping[str, Any]]:
    """``v`` as a mapping (models converted), else ``None``."""
    if type(v) is dict:
        return v
    if v is None:  # (before the Mapping check, which costs more: absent fields are usual)
        return None
    if isinstance(v, Mapping):
        return v
    if isinstance(v, (str, bytes, int, float, list, tuple)):
        return None
    return convert(v)


def kept_choice(items: Sequence[Any], choice: int) -> Optional[Mapping[str, Any]]:
    """The first object of ``items`` whose ``index`` (else its position) is ``choice``."""
    for i, c in enumerate(items):
        m = as_map(c)
        if m is not None and (i if m.get("index") is None else m.get("index")) == choice:
            return m
    return None


def maps(v: Any) -> list[Mapping[str, Any]]:
    """The objects of a kept list value (models converted; anything else skipped)."""
    return [m for m in map(as_map, as_list(v)) if m is not None]


def as_list(v: Any) -> Sequence[Any]:
    """``v`` when it is a list or tuple, else ``()``."""
    return v if type(v) is list or isinstance(v, (list, tuple)) else ()


def text_of(v: Any) -> Optional[str]:
    """A kept string value (bytes as standard base64), else ``None``."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bytes, bytearray)):
        return base64.b64encode(bytes(v)).decode("ascii")
    return None


def b64_bytes(v: str) -> Any:
    """A base64 wire value as ``bytes`` (``binary="bytes"``, X2); other text as it is."""
    try:
        return base64.b64decode(v, validate=True)
    except (binascii.Error, ValueError):
        return v


def signed(m: Mapping[str, Any]) -> bool:
    """Whether a kept item carries a non-empty ``signature`` (X2)."""
    v = m.get("signature")
    return isinstance(v, (str, bytes, bytearray)) and len(v) > 0


def top_model(d: Mapping[str, Any]) -> Optional[str]:
    """The model a payload names at its top level (``model``), else ``None`` (P13)."""
    m = d.get("model")
    return m if isinstance(m, str) and m else None
