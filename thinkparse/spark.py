"""Spark: ``split_think`` as a column function (docs/behaviour.md#c5).

``pyspark`` is imported when :func:`split_think` is called (``pip install thinkparse[spark]``).
The function is an Arrow UDF (``pyspark.sql.functions.arrow_udf``, Spark 4.1 and later): the
Python worker receives each batch as a ``pyarrow.Array`` and returns the struct array of
:func:`thinkparse.arrow.split_think`, with no pandas conversion in between; rows equal
:func:`thinkparse.split_think` (#c4).  A ``pandas_udf`` would add a pandas conversion each
way; ``mapInArrow`` is as fast but works on whole DataFrames, not on a column expression.
The Python workers need thinkparse and pyarrow installed (``PYSPARK_PYTHON``).

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``split_think(col, start_in_reasoning="auto")``, or the model's
``preset=`` (docs/guide.md#defaults).
"""

from __future__ import annotations

from typing import Any

from .scan._think import split_think as _split_one

__all__ = ["RETURN_TYPE", "split_think"]

RETURN_TYPE = "visible string, reasoning string"
"""The Spark DDL type of :func:`split_think`'s struct column."""


def split_think(col: Any, /, **options: Any) -> Any:
    """A ``struct<visible: string, reasoning: string>`` column of a string column (#c5).

    Args:
        col: a ``pyspark.sql.Column`` or a column name.
        **options: options of :func:`thinkparse.split_think`.

    Returns:
        A ``pyspark.sql.Column``; both fields are null for a null row.

    Raises:
        ValueError: an invalid option, named in the message.
        ImportError: pyspark (4.1 or later) or pyarrow is not installed.
    """
    try:
        from pyspark.sql import functions as F
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "thinkparse.spark needs pyspark: pip install 'thinkparse[spark]'"
        ) from None
    if not hasattr(F, "arrow_udf"):
        raise ImportError("thinkparse.spark needs Spark 4.1 or later (functions.arrow_udf)")
    _split_one("", **options)
    import pyarrow as pa

    def arrow_batch(texts: Any) -> Any:
        from thinkparse import arrow

        return arrow.split_think(texts, **options)

    # Spark reads the UDF kind from the hints: Array -> Array is a scalar Arrow UDF.
    arrow_batch.__annotations__ = {"texts": pa.Array, "return": pa.Array}
    return F.arrow_udf(arrow_batch, RETURN_TYPE)(col)
