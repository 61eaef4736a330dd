"""Polars: ``split_think`` as an expression (docs/behaviour.md#c5).

``polars`` is imported when :func:`split_think` is first called
(``pip install thinkparse[polars]``); pyarrow is not needed.  The expression is elementwise, so
Polars may run it on each chunk or partition of a lazy query, in streaming mode too.  Each batch
goes to Python strings once (``Series.to_list``) and through the compiled scanner
(:func:`thinkparse.split_think_many`); rows equal :func:`thinkparse.split_think` (#c4).

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``split_think(expr, start_in_reasoning="auto")``, or the model's
``preset=`` (docs/guide.md#defaults).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data._columns import split_think_many
from .scan._think import split_think as _split_one

if TYPE_CHECKING:  # pragma: no cover - types only
    import polars as pl

__all__ = ["split_think"]


def _pl() -> Any:
    try:
        import polars
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "thinkparse.polars needs polars: pip install 'thinkparse[polars]'"
        ) from None
    return polars


def split_think(expr: pl.Expr | str, /, **options: Any) -> pl.Expr:
    """A struct expression ``{visible, reasoning}`` of a string column (#c5).

    Args:
        expr: a string expression, or a column name.
        **options: options of :func:`thinkparse.split_think`, applied to every row.

    Returns:
        ``pl.Expr`` of type ``Struct({"visible": String, "reasoning": String})``; both fields
        are null for a null row, ``reasoning`` is null for a row without a block (#t9).  Use
        it in ``select`` / ``with_columns`` and ``.struct.field("visible")`` or ``unnest``.

    Raises:
        ValueError: an invalid option, named in the message (raised here, not at collect).
        TypeError: ``expr`` is neither an expression nor a column name.
        ImportError: polars is not installed.

    >>> import polars as pl
    >>> df = pl.DataFrame({"text": ["<think>a</think>B", None]})
    >>> df.select(split_think("text").alias("s")).unnest("s").rows()
    [('B', 'a'), (None, None)]
    """
    pl = _pl()
    _split_one("", **options)  # checks the options now rather than inside the query
    if isinstance(expr, str):
        expr = pl.col(expr)
    if not isinstance(expr, pl.Expr):
        raise TypeError(
            f"split_think() takes a polars Expr or a column name, not {type(expr).__name__}"
        )
    dtype = pl.Struct({"visible": pl.String, "reasoning": pl.String})

    def batch(series: Any) -> Any:
        if series.dtype != pl.String:
            raise TypeError(f"split_think() takes a String column, not {series.dtype}")
        visible, reasoning = split_think_many(series.to_list(), **options)
        return pl.DataFrame(
            {"visible": visible, "reasoning": reasoning},
            schema={"visible": pl.String, "reasoning": pl.String},
        ).to_struct(series.name)

    return expr.map_batches(batch, return_dtype=dtype, is_elementwise=True)
