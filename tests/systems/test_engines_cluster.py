"""Spark and Ray adapters in local mode (C5): one session per engine for the whole module.

Startup takes tens of seconds on a loaded 2-core machine, hence few tests, module-scoped
sessions and the ``slow`` marker.  Skipped without the engine, failed under
``THINKPARSE_REQUIRE_ENGINES=1``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any, Optional

import pytest
from _support import require

from thinkparse import split_think

ENGINES = "THINKPARSE_REQUIRE_ENGINES"
pytestmark = [
    pytest.mark.slow,
    # pyspark warns about the pandas major version it finds; not ours to fix
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
TEXTS: list[Optional[str]] = [
    "<think>\nplan\n</think>\n\nAnswer.",
    None,
    "no block",
    "opened by the template</think>rest",
    "```\n<think>code</think>\n```\nafter",
    "",
]


def expected(**options: Any) -> list[tuple[Optional[str], Optional[str]]]:
    out: list[tuple[Optional[str], Optional[str]]] = []
    for t in TEXTS:
        s = None if t is None else split_think(t, **options)
        out.append((None, None) if s is None else (s.visible, s.reasoning))
    return out


# --- Spark ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    require("pyspark", ENGINES)
    require("pyarrow", ENGINES)
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers need this interpreter
    session = (
        SparkSession.builder.master("local[1]")
        .appName("thinkparse-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_struct_column(spark: Any) -> None:
    import thinkparse.spark as tsp

    df = spark.createDataFrame([(i, t) for i, t in enumerate(TEXTS)], "id int, text string")
    out = df.withColumn("s", tsp.split_think("text", start_in_reasoning="auto"))
    assert out.schema["s"].dataType.simpleString() == "struct<visible:string,reasoning:string>"
    rows = out.orderBy("id").select("s.visible", "s.reasoning").collect()
    assert [tuple(r) for r in rows] == expected(start_in_reasoning="auto")
    # a Column argument, several partitions, default options
    many = spark.createDataFrame([(t,) for t in TEXTS * 50], "text string").repartition(3)
    got = many.select(tsp.split_think(many.text).alias("s")).select("s.*").collect()
    assert sorted(map(tuple, got), key=repr) == sorted(expected() * 50, key=repr)
    with pytest.raises(ValueError, match="max_tentative"):
        tsp.split_think("text", max_tentative=-1)


# --- Ray ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = require("ray", ENGINES)
    require("pyarrow", ENGINES)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_ray_map_batches(ray: Any) -> None:
    import pyarrow as pa

    from thinkparse.ray import SplitThink

    table = pa.table({"id": list(range(len(TEXTS))), "text": TEXTS})
    ds = ray.data.from_arrow(table).map_batches(
        SplitThink,
        fn_constructor_kwargs={"column": "text", "start_in_reasoning": "auto"},
        batch_format="pyarrow",
        batch_size=2,
        concurrency=1,
    )
    rows = sorted(ds.take_all(), key=lambda r: r["id"])
    assert [(r["visible"], r["reasoning"]) for r in rows] == expected(start_in_reasoning="auto")
    assert [r["text"] for r in rows] == TEXTS


def test_ray_callable_errors() -> None:
    pa = require("pyarrow", ENGINES)
    from thinkparse.ray import SplitThink

    with pytest.raises(ValueError, match="max_tentative"):
        SplitThink(max_tentative=-1)
    with pytest.raises(ValueError, match="column 'body' is not in the batch"):
        SplitThink("body")(pa.table({"text": ["x"]}))
    with pytest.raises(ValueError, match="already has a column 'visible'"):
        SplitThink()(pa.table({"text": ["x"], "visible": ["y"]}))
    with pytest.raises(TypeError, match="not dict"):
        SplitThink()({"text": ["x"]})
