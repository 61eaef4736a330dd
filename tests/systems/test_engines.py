"""Engine adapters on their real engines (C5): Polars, DuckDB, Hugging Face datasets.

Each test skips when its engine is not installed and fails instead under
``THINKPARSE_REQUIRE_ENGINES=1``.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest
from _support import require

from thinkparse import split_think

ENGINES = "THINKPARSE_REQUIRE_ENGINES"
TEXTS: list[Optional[str]] = [
    "<think>\nplan\n</think>\n\nAnswer.",
    None,
    "no block",
    "opened by the template</think>rest",
    "```\n<think>code</think>\n```\nafter",
    "",
]


def expected(**options: Any) -> list[tuple[Optional[str], Optional[str]]]:
    """(visible, reasoning) per row, from the one-row function (C4)."""
    out: list[tuple[Optional[str], Optional[str]]] = []
    for t in TEXTS:
        s = None if t is None else split_think(t, **options)
        out.append((None, None) if s is None else (s.visible, s.reasoning))
    return out


# --- Polars ---------------------------------------------------------------------------------------
def test_polars_expression_in_with_columns() -> None:
    pl = require("polars", ENGINES)
    import thinkparse.polars as tpl

    df = pl.DataFrame({"id": range(len(TEXTS)), "text": TEXTS})
    out = df.with_columns(tpl.split_think(pl.col("text"), start_in_reasoning="auto").alias("s"))
    assert out.schema["s"] == pl.Struct({"visible": pl.String, "reasoning": pl.String})
    rows = out.select(
        pl.col("s").struct.field("visible"), pl.col("s").struct.field("reasoning")
    ).rows()
    assert rows == expected(start_in_reasoning="auto")
    assert rows[0] == ("Answer.", "plan")
    assert out["id"].to_list() == list(range(len(TEXTS)))


def test_polars_lazy_and_by_name() -> None:
    pl = require("polars", ENGINES)
    import thinkparse.polars as tpl

    lazy = pl.LazyFrame({"text": TEXTS}).select(tpl.split_think("text").alias("s")).unnest("s")
    assert lazy.collect().rows() == expected()
    # several chunks: the expression runs per batch and the rows stay in order
    stacked = pl.concat([pl.DataFrame({"text": TEXTS})] * 3, rechunk=False)
    assert stacked.select(tpl.split_think("text").alias("s")).unnest("s").rows() == expected() * 3


def test_polars_bad_input() -> None:
    pl = require("polars", ENGINES)
    import thinkparse.polars as tpl

    with pytest.raises(ValueError, match="max_tentative"):
        tpl.split_think("text", max_tentative=-1)
    with pytest.raises(TypeError, match="not int"):
        tpl.split_think(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a String column, not Int64"):
        pl.DataFrame({"n": [1]}).select(tpl.split_think("n"))


# --- DuckDB ---------------------------------------------------------------------------------------
def test_duckdb_sql_function() -> None:
    duckdb = require("duckdb", ENGINES)
    import thinkparse.duckdb as tdb

    con = duckdb.connect()
    assert tdb.register(con, start_in_reasoning="auto") is con
    con.execute("CREATE TABLE t (id INTEGER, text VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?)", list(enumerate(TEXTS)))
    rows = con.execute(
        "SELECT s.visible, s.reasoning FROM (SELECT id, split_think(text) AS s FROM t) ORDER BY id"
    ).fetchall()
    assert rows == expected(start_in_reasoning="auto")
    types = con.execute("SELECT typeof(split_think('x'))").fetchone()
    assert types == ("STRUCT(visible VARCHAR, reasoning VARCHAR)",)
    # a null row gives a struct of nulls (C4)
    assert con.execute("SELECT split_think(NULL::VARCHAR)").fetchone() == (
        {"visible": None, "reasoning": None},
    )


def test_duckdb_many_vectors_and_name() -> None:
    duckdb = require("duckdb", ENGINES)
    import thinkparse.duckdb as tdb

    con = tdb.register(duckdb.connect(), name="think_split", tags=["reason"])
    rows = con.execute(
        "SELECT count(*), count(DISTINCT s.reasoning), min(s.visible) FROM ("
        "  SELECT think_split('<reason>r' || (i % 7) || '</reason>v') AS s FROM range(5000) r(i))"
    ).fetchone()
    assert rows == (5000, 7, "v")
    with pytest.raises(TypeError, match="DuckDB connection"):
        tdb.register(object())
    with pytest.raises(ValueError, match="max_tentative"):
        tdb.register(duckdb.connect(), max_tentative=-1)


# --- Hugging Face datasets ---------------------------------------------------------------------
def test_hf_dataset_map_batched(tmp_path: Any) -> None:
    datasets = require("datasets", ENGINES)
    from thinkparse.hf import split_think_batch

    ds = datasets.Dataset.from_dict({"prompt": ["p"] * len(TEXTS), "completion": TEXTS})
    out = ds.map(
        split_think_batch,
        batched=True,
        batch_size=4,
        fn_kwargs={"column": "completion", "start_in_reasoning": "auto"},
        load_from_cache_file=False,
        cache_file_name=str(tmp_path / "cache.arrow"),
    )
    assert out.column_names == ["prompt", "completion", "visible", "reasoning"]
    assert list(zip(out["visible"], out["reasoning"])) == expected(start_in_reasoning="auto")


def test_hf_arrow_format_batches(tmp_path: Any) -> None:
    datasets = require("datasets", ENGINES)
    from thinkparse.hf import split_think_batch

    ds = datasets.Dataset.from_dict({"text": TEXTS}).with_format("arrow")
    out = ds.map(
        split_think_batch,
        batched=True,
        fn_kwargs={"visible_column": "answer", "reasoning_column": "thinking"},
        load_from_cache_file=False,
        cache_file_name=str(tmp_path / "cache.arrow"),
    )
    table = out.with_format(None).data.table
    assert table.column_names == ["text", "answer", "thinking"]
    assert list(zip(table["answer"].to_pylist(), table["thinking"].to_pylist())) == expected()


def test_hf_bad_batches() -> None:
    from thinkparse.hf import split_think_batch

    with pytest.raises(ValueError, match="column 'text' is not in the batch"):
        split_think_batch({"other": ["x"]})
    with pytest.raises(TypeError, match="dict batch or a pyarrow Table, not list"):
        split_think_batch(["x"])
    assert split_think_batch({"t": ["<think>a</think>b"]}, "t") == {
        "visible": ["b"],
        "reasoning": ["a"],
    }


# --- the modules' own examples ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "needs"),
    [
        ("thinkparse.data._convert", ()),
        ("thinkparse.data._columns", ()),
        ("thinkparse.hf", ()),
        ("thinkparse.arrow", ("pyarrow",)),
        ("thinkparse.polars", ("polars",)),
        ("thinkparse.duckdb", ("duckdb", "pyarrow")),
        ("thinkparse.ray", ("pyarrow",)),
    ],
)
def test_docstring_examples(module: str, needs: tuple[str, ...]) -> None:
    import doctest
    import importlib

    for name in needs:
        require(name, ENGINES)
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0, module
