"""DuckDB: ``split_think`` as a vectorised Arrow function usable from SQL (docs/behaviour.md#c5).

``duckdb``, ``pyarrow`` and ``numpy`` are imported when :func:`register` is called
(``pip install thinkparse[duckdb]`` installs the three).  DuckDB's ``create_function`` needs numpy
even for an Arrow function, so the extra carries it, and :func:`register` checks all three at once:
a missing one is an ``ImportError`` naming it and the extra, never DuckDB's error at the first
query.  DuckDB hands the function whole vectors as Arrow arrays;
each goes through :func:`thinkparse.arrow.split_think`, so rows equal
:func:`thinkparse.split_think` (#c4).  Null rows are passed in (special null handling) and give a
struct whose two fields are null.

Default start mode: ``start_in_reasoning=False``, as :func:`thinkparse.split_think` (rows must
equal it, #c4): a lone ``</think>`` is dropped (T4), so ``plan</think>ans`` gives the visible
text ``planans`` and no reasoning.  The CLI and :func:`thinkparse.normalize` use ``"auto"``
instead (T10: ``plan`` + ``ans``), because they read whole model replies, where a block the
chat template opened is common; here a text that merely mentions ``</think>`` keeps its words.
For the other behaviour pass ``register(con, start_in_reasoning="auto")``, or the model's
``preset=`` (docs/guide.md#defaults).
"""

from __future__ import annotations

import importlib
from typing import Any

from .scan._think import split_think as _split_one

__all__ = ["register"]


def register(con: Any, /, *, name: str = "split_think", **options: Any) -> Any:
    """Register ``name(text) -> STRUCT(visible VARCHAR, reasoning VARCHAR)`` on a connection.

    Args:
        con: a ``duckdb.DuckDBPyConnection``.
        name: the SQL function name.
        **options: options of :func:`thinkparse.split_think`, fixed for this function.

    Returns:
        ``con``, so calls can be chained.

    Raises:
        TypeError: ``con`` is not a DuckDB connection, or ``name`` is not a ``str``.
        ValueError: an invalid option, named in the message.
        ImportError: duckdb, pyarrow or numpy is not installed (the message names the extra).

    >>> import duckdb
    >>> con = register(duckdb.connect())
    >>> con.sql("SELECT split_think('<think>a</think>B') AS s").fetchall()
    [({'visible': 'B', 'reasoning': 'a'},)]
    """
    try:
        import duckdb
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "thinkparse.duckdb needs duckdb: pip install 'thinkparse[duckdb]'"
        ) from None
    for needed in ("pyarrow", "numpy"):
        try:
            importlib.import_module(needed)
        except ImportError:
            raise ImportError(
                f"thinkparse.duckdb needs {needed} (DuckDB's Python functions use it): "
                "pip install 'thinkparse[duckdb]'"
            ) from None
    from . import arrow

    if not isinstance(con, duckdb.DuckDBPyConnection):
        raise TypeError(f"register() takes a DuckDB connection, not {type(con).__name__}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    _split_one("", **options)

    def udf(texts: Any) -> Any:
        return arrow.split_think(texts, **options)

    struct = duckdb.struct_type({"visible": "VARCHAR", "reasoning": "VARCHAR"})
    con.create_function(
        name, udf, ["VARCHAR"], struct, type="arrow", null_handling="special", side_effects=False
    )
    return con
