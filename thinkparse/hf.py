"""Hugging Face ``datasets``: a batched ``map`` function (docs/behaviour.md#c5).

Nothing is imported from ``datasets`` itself (``pip install thinkparse[datasets]`` installs it):
``Dataset.map(split_think_batch, batched=True, fn_kwargs={"column": "text"})`` calls the
function with a batch, a ``dict`` of lists (the default format) or a ``pyarrow.Table`` (after
``with_format("arrow")``), and adds the columns it returns.  Rows equal
:func:`thinkparse.split_think` (#c4); a null row gives nulls.

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``fn_kwargs={"column": "text", "start_in_reasoning": "auto"}``, or the
model's ``preset=`` (docs/guide.md#defaults).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .data._columns import split_think_many

__all__ = ["split_think_batch"]


def split_think_batch(
    batch: Any,
    /,
    column: str = "text",
    *,
    visible_column: str = "visible",
    reasoning_column: str = "reasoning",
    **options: Any,
) -> Any:
    """The visible and reasoning columns of one batch (#c5).

    Args:
        batch: a mapping of column name to values, or a ``pyarrow.Table``.
        column: the text column to split.
        visible_column: the name of the visible output column.
        reasoning_column: the name of the reasoning output column.
        **options: options of :func:`thinkparse.split_think`.

    Returns:
        ``{visible_column: [...], reasoning_column: [...]}`` for a mapping batch (``map``
        adds them to the dataset); for a table batch, the table with the two columns appended.

    Raises:
        TypeError: ``batch`` is not a mapping or a table, or a row is not a string.
        ValueError: ``column`` is not in the batch, or an invalid option.

    >>> split_think_batch({"text": ["<think>a</think>B", None]})
    {'visible': ['B', None], 'reasoning': ['a', None]}
    """
    if isinstance(batch, Mapping):
        if column not in batch:
            raise ValueError(f"column {column!r} is not in the batch (columns: {', '.join(batch)})")
        visible, reasoning = split_think_many(batch[column], **options)
        return {visible_column: visible, reasoning_column: reasoning}
    names = getattr(batch, "column_names", None)
    if names is not None and hasattr(batch, "column"):
        from . import arrow

        if column not in names:
            raise ValueError(f"column {column!r} is not in the batch (columns: {', '.join(names)})")
        out = arrow.split_think(batch.column(column), **options)
        import pyarrow.compute as pc

        # For table batches ``map`` keeps what is returned: the batch plus the two columns.
        batch = batch.append_column(visible_column, pc.struct_field(out, "visible"))
        return batch.append_column(reasoning_column, pc.struct_field(out, "reasoning"))
    raise TypeError(
        f"split_think_batch() takes a dict batch or a pyarrow Table, not {type(batch).__name__}"
    )
