"""Arrow columns: ``split_think`` and ``normalize`` over a whole column (docs/behaviour.md#c4).

``pyarrow`` is imported when a function is first called (``pip install thinkparse[arrow]``).

* The output mirrors the input: an ``Array`` gives a ``StructArray``, a ``ChunkedArray`` gives a
  ``ChunkedArray`` of structs with the same chunk lengths; the string fields have the input's
  type (``string`` or ``large_string``).
* A null row gives a valid struct whose fields are all null (so ``.field("visible")`` is null
  exactly where the input is), never a null struct.
* Every row equals the row-by-row function: ``split_think(text, **options)`` and
  ``normalize(json.loads(text), **options)``.  ``normalize`` never raises for a row: a row
  it cannot read (invalid JSON, an unknown or malformed response) gives null fields and the
  message in ``error``.  A JSON array is a stream of events, read as the CLI reads one.
* A row whose result holds a lone surrogate (JSON may escape half of a pair, ``"\\ud83d"``),
  which an Arrow string (UTF-8) cannot hold, is such a row too: its ``error`` names the field
  and the code point, and the other rows are kept.  Nothing is replaced silently: the row-by-row
  function gives that same string.

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``start_in_reasoning="auto"`` (it is a one-shot read of each row), or
the model's ``preset=`` (docs/guide.md#defaults).
``normalize`` keeps its own default, ``"auto"``.

How the rows are scanned (``benchmarks/bench_datasets.py``; the table is in
``benchmarks/RESULTS.md``): the column is turned into Python strings (``to_pylist``), each row
goes through the compiled scanner (:func:`thinkparse.split_think_many`), and the two result lists
become Arrow arrays again.  Measured on 1 KB rows: ``to_pylist`` 0.7 us per row, the scan 9.0 us,
the two result arrays 1.3 us (20,000 rows, machine load 7), so the conversions are about 16 % of
the time and a compiled scan of the UTF-8 buffers could save at most that.  This path already
runs 1.79x as fast as the Polars regex a user would write instead (1 M rows, 8.92 s against
16.01 s), so no second compiled module reads Arrow buffers.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from .data._columns import split_think_many
from .scan._think import split_think as _split_one

if TYPE_CHECKING:  # pragma: no cover - types only
    import pyarrow as pa

    ArrayLike = Union[pa.Array, pa.ChunkedArray]
else:
    ArrayLike = Any

__all__ = ["NORMALIZE_FIELDS", "normalize", "normalize_type", "split_think", "split_think_type"]

NORMALIZE_FIELDS = (
    "visible",
    "reasoning",
    "tokens_est",
    "provider",
    "format",
    "reasoning_tokens",
    "redacted",
    "error",
)
"""The fields of :func:`normalize`'s struct: the flat record of the CLI's ``--json`` output,
plus ``error``."""


def _pa() -> Any:
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "thinkparse.arrow needs pyarrow: pip install 'thinkparse[arrow]'"
        ) from None
    return pyarrow


def _string_type(pa: Any, array: Any, what: str) -> Any:
    if not isinstance(array, (pa.Array, pa.ChunkedArray)):
        raise TypeError(
            f"{what}() takes a pyarrow Array or ChunkedArray of strings, not {type(array).__name__}"
        )
    t = array.type
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        raise TypeError(f"{what}() takes a string or large_string column, not {t}")
    return t


def _map_chunks(pa: Any, array: Any, fn: Callable[[Any], Any], struct: Any) -> Any:
    if isinstance(array, pa.ChunkedArray):
        return pa.chunked_array([fn(c) for c in array.chunks], type=struct)
    return fn(array)


def split_think_type(string_type: Any = None) -> Any:
    """The struct type of :func:`split_think`: ``struct<visible, reasoning>``.

    Args:
        string_type: ``pa.string()`` (the default) or ``pa.large_string()``.

    Returns:
        The ``pyarrow`` struct type.
    """
    pa = _pa()
    t = pa.string() if string_type is None else string_type
    return pa.struct([("visible", t), ("reasoning", t)])


def split_think(array: ArrayLike, /, **options: Any) -> ArrayLike:
    """Split every row of a string column into its visible answer and its reasoning (#c4).

    Args:
        array: a ``pyarrow`` ``Array`` or ``ChunkedArray`` of ``string`` or ``large_string``.
        **options: options of :func:`thinkparse.split_think`, applied to every row.

    Returns:
        ``struct<visible, reasoning>`` of the same kind and length as ``array``; ``reasoning``
        is null for a row without a block (#t9); both fields are null for a null row.

    Raises:
        TypeError: ``array`` is not an Arrow string column.
        ValueError: an invalid option, named in the message.
        ImportError: pyarrow is not installed.

    Examples:
        >>> import pyarrow as pa
        >>> split_think(pa.array(["<think>a</think>B", None])).to_pylist()
        [{'visible': 'B', 'reasoning': 'a'}, {'visible': None, 'reasoning': None}]
    """
    pa = _pa()
    t = _string_type(pa, array, "split_think")
    _split_one("", **options)  # checks the options once, even for an empty column
    struct = split_think_type(t)

    def one(chunk: Any) -> Any:
        visible, reasoning = split_think_many(chunk.to_pylist(), **options)
        return pa.StructArray.from_arrays(
            [pa.array(visible, type=t), pa.array(reasoning, type=t)], fields=list(struct)
        )

    return _map_chunks(pa, array, one, struct)


def normalize_type(string_type: Any = None) -> Any:
    """The struct type of :func:`normalize` (its fields are ``NORMALIZE_FIELDS``).

    Args:
        string_type: ``pa.string()`` (the default) or ``pa.large_string()``.

    Returns:
        The ``pyarrow`` struct type.
    """
    pa = _pa()
    t = pa.string() if string_type is None else string_type
    kinds = {"tokens_est": pa.int64(), "reasoning_tokens": pa.int64(), "redacted": pa.bool_()}
    return pa.struct([(name, kinds.get(name, t)) for name in NORMALIZE_FIELDS])


def _check_normalize_options(options: dict[str, Any]) -> None:
    from . import normalize as one

    try:
        inspect.signature(one).bind({}, **options)
    except TypeError as exc:
        raise TypeError(f"normalize(): {exc}") from None
    think = {k: v for k, v in options.items() if k not in ("provider", "choice")}
    if think:
        _split_one("", **think)
    provider = options.get("provider")
    if provider is not None:
        from ._errors import UnknownProviderError

        try:
            one({}, **options)
        except UnknownProviderError as exc:
            raise ValueError(f"normalize(): {exc}") from None
        except Exception:
            pass


def _json_error(exc: json.JSONDecodeError) -> str:
    return f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"


def _read_row(text: str, options: dict[str, Any]) -> Any:
    """The row's ``Extraction``; ``ValueError`` with the message when it cannot be read."""
    from . import StreamNormalizer, ThinkParseError
    from . import normalize as one

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(_json_error(exc)) from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    try:
        if isinstance(value, list):
            stream = StreamNormalizer(**options)
            for i, event in enumerate(value):
                if not isinstance(event, dict):
                    raise ValueError(f"event [{i}] must be a JSON object")
                stream.feed(event)
            stream.close()
            return stream.result
        if not isinstance(value, dict):
            raise ValueError(
                "expected a JSON object (a provider response) or an array (stream events), "
                f"not {type(value).__name__}"
            )
        return one(value, **options)
    except (ThinkParseError, ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None


_SURROGATE = re.compile("[\ud800-\udfff]")
_TEXT_FIELDS = ("visible", "reasoning", "provider", "format")


def _utf8_error(ex: Any) -> Optional[str]:
    """Why a row's result cannot go into a UTF-8 column (a lone surrogate), else ``None``."""
    for name in _TEXT_FIELDS:
        value = getattr(ex, name)
        if isinstance(value, str) and not value.isascii():
            found = _SURROGATE.search(value)
            if found is not None:
                return (
                    f"{name} holds a lone surrogate U+{ord(found.group()):04X} at index "
                    f"{found.start()}, which a UTF-8 string column cannot hold"
                )
    return None


def _utf8(message: str) -> str:
    """An error message that a UTF-8 column can hold (lone surrogates escaped)."""
    if message.isascii() or _SURROGATE.search(message) is None:
        return message
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def normalize(array_of_json_strings: ArrayLike, /, **options: Any) -> ArrayLike:
    """Normalise a column of provider responses stored as JSON text (#c4).

    Args:
        array_of_json_strings: a ``pyarrow`` ``Array`` or ``ChunkedArray`` of ``string`` or
            ``large_string``; each row one response (object) or one stream (array of events).
        **options: options of :func:`thinkparse.normalize` (``provider``, ...).

    Returns:
        A struct column of the same kind and length with the fields ``visible``,
        ``reasoning``, ``tokens_est``, ``provider``, ``format``, ``reasoning_tokens``,
        ``redacted`` (as the CLI's ``--json`` record) and ``error``: null for a row that was
        read, the message for one that could not be (its other fields are then null).  A null
        row gives null fields and a null ``error``.

    Raises:
        TypeError: the column is not an Arrow string column, or an unknown option.
        ValueError: an invalid option value, named in the message.
        ImportError: pyarrow is not installed.

    Examples:
        >>> import pyarrow as pa
        >>> rows = pa.array(['{"choices": [{"message": {"content": "<think>a</think>B"}}]}', "{"])
        >>> [(r["visible"], r["reasoning"], r["error"]) for r in normalize(rows).to_pylist()]
        ... # doctest: +ELLIPSIS
        [('B', 'a', None), (None, None, 'invalid JSON at line 1 column 2: Expecting property...')]
    """
    pa = _pa()
    t = _string_type(pa, array_of_json_strings, "normalize")
    _check_normalize_options(options)
    struct = normalize_type(t)

    def one(chunk: Any) -> Any:
        columns: list[list[Any]] = [[] for _ in NORMALIZE_FIELDS]
        adds = [c.append for c in columns]
        nulls: tuple[Optional[Any], ...] = (None,) * len(NORMALIZE_FIELDS)
        for text in chunk.to_pylist():
            row: tuple[Any, ...]
            if text is None:
                row = nulls
            else:
                try:
                    ex = _read_row(text, options)
                    error = _utf8_error(ex)
                except ValueError as exc:
                    error = str(exc)
                if error is not None:
                    row = (*nulls[:-1], _utf8(error))
                else:
                    row = (
                        ex.visible,
                        ex.reasoning,
                        ex.tokens_est,
                        ex.provider,
                        ex.format,
                        ex.reasoning_tokens,
                        ex.redacted,
                        None,
                    )
            for add, value in zip(adds, row):
                add(value)
        arrays = [pa.array(c, type=f.type) for c, f in zip(columns, struct)]
        return pa.StructArray.from_arrays(arrays, fields=list(struct))

    return _map_chunks(pa, array_of_json_strings, one, struct)
