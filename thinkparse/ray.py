"""Ray Data: a callable class for ``map_batches(batch_format="pyarrow")`` (docs/behaviour.md#c5).

``ray`` is not imported here (``pip install thinkparse[ray]`` installs it with pyarrow)::

    ds.map_batches(SplitThink, fn_constructor_kwargs={"column": "text"},
                   batch_format="pyarrow", concurrency=4)

Each batch is a ``pyarrow.Table``; the text column goes through
:func:`thinkparse.arrow.split_think` (rows equal :func:`thinkparse.split_think`, #c4) and the
table comes back with two more columns, ``visible`` and ``reasoning``.  A class rather than a
function so that Ray runs it in long-lived actors that check the options once.

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``fn_constructor_kwargs={"column": "text", "start_in_reasoning":
"auto"}``, or the model's ``preset=`` (docs/guide.md#defaults).
"""

from __future__ import annotations

from typing import Any

from .scan._think import split_think as _split_one

__all__ = ["SplitThink"]


class SplitThink:
    """Add ``visible`` and ``reasoning`` columns to each Arrow batch (#c5).

    Args:
        column: the text column (``string`` or ``large_string``).
        visible_column: the name of the added visible column.
        reasoning_column: the name of the added reasoning column.
        **options: options of :func:`thinkparse.split_think`.

    Raises:
        ValueError: an invalid option (at construction), or a batch without ``column`` or
            with a column named like an output.
        TypeError: a batch that is not a ``pyarrow.Table``.

    >>> import pyarrow as pa
    >>> SplitThink()(pa.table({"text": ["<think>a</think>B"]})).to_pylist()
    [{'text': '<think>a</think>B', 'visible': 'B', 'reasoning': 'a'}]
    """

    def __init__(
        self,
        column: str = "text",
        *,
        visible_column: str = "visible",
        reasoning_column: str = "reasoning",
        **options: Any,
    ) -> None:
        _split_one("", **options)
        self.column = column
        self.visible_column = visible_column
        self.reasoning_column = reasoning_column
        self.options = options

    def __call__(self, batch: Any) -> Any:
        """The batch with the two columns added.

        Args:
            batch: a ``pyarrow.Table``.

        Returns:
            A new ``pyarrow.Table``.

        Raises:
            TypeError: ``batch`` is not a ``pyarrow.Table``.
            ValueError: ``column`` is missing or an output column exists already.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        from . import arrow

        if not isinstance(batch, pa.Table):
            raise TypeError(
                "SplitThink takes pyarrow Tables (batch_format='pyarrow'), "
                f"not {type(batch).__name__}"
            )
        if self.column not in batch.column_names:
            raise ValueError(f"column {self.column!r} is not in the batch")
        for name in (self.visible_column, self.reasoning_column):
            if name in batch.column_names:
                raise ValueError(f"the batch already has a column {name!r}")
        out = arrow.split_think(batch.column(self.column), **self.options)
        batch = batch.append_column(self.visible_column, pc.struct_field(out, "visible"))
        return batch.append_column(self.reasoning_column, pc.struct_field(out, "reasoning"))
