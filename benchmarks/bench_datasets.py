"""Columns at scale (docs/behaviour.md#c4, #c5): the Arrow path and the engine adapters.

1. ``thinkparse.arrow.split_think`` over N realistic rows (about 1 KB each, about 60 % with a
   ``<think>`` block, some with Markdown code, some opened by the chat template, some with the
   block later in the text) against what a user would write in Polars instead::

       col.str.extract(r"(?s)<think>(.*?)</think>", 1)          # reasoning
       col.str.replace_all(r"(?s)<think>.*?</think>", "")      # visible

   on the same column (both produce both columns).  Target: thinkparse at least 1x Polars'
   speed.  It also prints rows where the regex and thinkparse differ, and why the regex is
   wrong there.
2. Spark and Ray (``--engines``): rows/s of the thinkparse adapter against the same engine
   running a no-op Python UDF over the column (target: at least 0.5x).

Usage::

    python benchmarks/bench_datasets.py                  # 1 M rows, Arrow vs Polars
    python benchmarks/bench_datasets.py --rows 100000 --engines --engine-rows 200000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = (
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "with",
    "was",
    "on",
    "be",
    "by",
    "this",
    "are",
    "from",
    "at",
    "or",
    "an",
    "which",
    "have",
    "first",
    "then",
    "we",
    "need",
    "check",
    "answer",
    "result",
    "value",
    "because",
    "so",
    "if",
    "number",
    "sum",
    "total",
    "step",
    "let",
    "compute",
    "consider",
    "case",
    "both",
    "each",
    "other",
    "more",
    "than",
    "less",
    "equal",
    "given",
)
REGEX_REASONING = r"(?s)<think>(.*?)</think>"
REGEX_BLOCK = r"(?s)<think>.*?</think>"
#: What a column of model outputs needs: blocks opened by the chat template are detected (#t10).
OPTIONS = {"start_in_reasoning": "auto"}


def _prose(rng: random.Random, chars: int) -> str:
    out: list[str] = []
    n = 0
    while n < chars:
        w = rng.choice(WORDS)
        out.append(w)
        n += len(w) + 1
        if rng.random() < 0.08:
            out[-1] += "."
    return " ".join(out).capitalize() + "."


CODE = '\n```python\nimport re\nTHINK = re.compile(r"<think>(.*?)</think>")\nprint(THINK)\n```\n'


def row(rng: random.Random, size: int = 1000) -> str:
    """One model output of about ``size`` characters; the mix is described in the docstring."""
    kind = rng.random()
    answer = _prose(rng, int(size * 0.4))
    reasoning = _prose(rng, int(size * 0.55))
    if rng.random() < 0.1:
        answer = answer[: len(answer) // 2] + CODE + answer[len(answer) // 2 :]
    if kind < 0.50:
        return f"<think>\n{reasoning}\n</think>\n\n{answer}"
    if kind < 0.55:  # the chat template opened the block: only the closer is in the output
        return f"{reasoning}\n</think>\n\n{answer}"
    if kind < 0.60:  # an empty block (thinking switched off)
        return f"<think>\n\n</think>\n\n{_prose(rng, size)}"
    if kind < 0.65:  # no reasoning, code that shows the tags
        return f"{answer}{CODE}"
    return _prose(rng, size)


def kind_of(text: str) -> str:
    """Why the regex goes wrong on a row."""
    if text.startswith("<think>"):
        return "whitespace around the block (kept by the regex)"
    if "</think>\n\n" in text.split("```")[0]:
        return "block opened by the chat template (regex: no reasoning, leaked into the answer)"
    return "tags inside code (regex: code taken as reasoning, cut from the answer)"


def rows(n: int, seed: int = 2) -> list[str]:
    rng = random.Random(seed)
    return [row(rng) for _ in range(n)]


def best(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def best_alternating(a: Callable[[], Any], b: Callable[[], Any], runs: int) -> tuple[float, float]:
    """Best times of ``a`` and ``b`` run in turn, so a busy moment of the machine hits both."""
    ta, tb = float("inf"), float("inf")
    for _ in range(runs):
        ta = min(ta, best(a, 1)[0])
        tb = min(tb, best(b, 1)[0])
    return ta, tb


def bench_arrow_vs_polars(n: int, runs: int) -> dict[str, Any]:
    import polars as pl
    import pyarrow as pa

    import thinkparse.arrow as ta

    data = rows(n)
    array = pa.array(data, type=pa.large_string())  # Polars' own string layout
    series = pl.Series("text", data)
    frame = pl.DataFrame({"text": series})

    def polars_regex() -> Any:
        return frame.select(
            pl.col("text").str.replace_all(REGEX_BLOCK, "").alias("visible"),
            pl.col("text").str.extract(REGEX_REASONING, 1).alias("reasoning"),
        )

    def thinkparse_arrow() -> Any:
        return ta.split_think(array, **OPTIONS)

    import thinkparse.polars as tpl

    def thinkparse_polars() -> Any:
        return frame.select(tpl.split_think(pl.col("text"), **OPTIONS).alias("s")).unnest("s")

    t_regex, regex_out = best(polars_regex, runs)
    t_arrow, arrow_out = best(thinkparse_arrow, runs)
    t_expr, _ = best(thinkparse_polars, runs)
    # Where the two disagree, and why the regex is wrong there.
    visible = arrow_out.field("visible").to_pylist()
    reasoning = arrow_out.field("reasoning").to_pylist()
    rv = regex_out["visible"].to_list()
    rr = regex_out["reasoning"].to_list()
    differ = [i for i in range(n) if (visible[i], reasoning[i]) != (rv[i], rr[i])]
    return {
        "rows": n,
        "mb": sum(len(s.encode()) for s in data) / 1e6,
        "regex": t_regex,
        "arrow": t_arrow,
        "polars_expr": t_expr,
        "differ": len(differ),
        "examples": _examples(data, differ, visible, reasoning, rv, rr),
    }


def _examples(
    data: list[str], differ: list[int], v: list[Any], r: list[Any], rv: list[Any], rr: list[Any]
) -> list[str]:
    """One differing row of each kind (template-opened, code, whitespace)."""
    seen: dict[str, str] = {}
    for i in differ:
        text = data[i]
        kind = kind_of(text)
        if kind in seen:
            continue
        seen[kind] = (
            f"{kind}: row {i} {text[:50]!r}...\n"
            f"    regex:      visible {_cut(rv[i])} reasoning {_cut(rr[i])}\n"
            f"    thinkparse: visible {_cut(v[i])} reasoning {_cut(r[i])}"
        )
    return list(seen.values())


def _cut(text: Any) -> str:
    return repr(text) if text is None or len(text) < 30 else repr(text[:30]) + "..."


# --- Spark and Ray --------------------------------------------------------------------------
def bench_spark(n: int, runs: int) -> dict[str, float]:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    import thinkparse.spark as tsp

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame([(t,) for t in rows(n)], "text string").repartition(1).cache()
    df.count()

    import pyarrow as pa

    def identity(s: Any) -> Any:
        return s

    # The fastest no-op Python UDF Spark has: an Arrow UDF returning its input.
    identity.__annotations__ = {"s": pa.Array, "return": pa.Array}
    noop = F.arrow_udf(identity, T.StringType())

    def run_noop() -> None:
        df.select(noop("text").alias("x")).write.format("noop").mode("overwrite").save()

    def run_adapter() -> None:
        df.select(tsp.split_think("text").alias("x")).write.format("noop").mode("overwrite").save()

    t_noop, t_adapter = best_alternating(run_noop, run_adapter, runs)
    spark.stop()
    return {"rows": n, "noop": t_noop, "adapter": t_adapter}


def bench_ray(n: int, runs: int) -> dict[str, float]:
    import pyarrow as pa
    import ray

    from thinkparse.ray import SplitThink

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    table = pa.table({"text": rows(n)})
    ds = ray.data.from_arrow(table).materialize()

    class Noop:
        def __call__(self, batch: Any) -> Any:
            return batch

    def run(fn: Any) -> None:
        ds.map_batches(fn, batch_format="pyarrow", concurrency=1, batch_size=8192).materialize()

    t_noop, t_adapter = best_alternating(lambda: run(Noop), lambda: run(SplitThink), runs)
    ray.shutdown()
    return {"rows": n, "noop": t_noop, "adapter": t_adapter}


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


def main(argv: Any = None) -> Iterator[str]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--engines", action="store_true", help="also Spark and Ray")
    p.add_argument("--engine-rows", type=int, default=100_000)
    args = p.parse_args(argv)
    yield f"load average before: {_load()}"
    r = bench_arrow_vs_polars(args.rows, args.runs)
    yield (
        f"{r['rows']:,} rows, {r['mb']:.0f} MB: Polars regex {r['regex']:.2f} s, "
        f"thinkparse.arrow {r['arrow']:.2f} s ({r['regex'] / r['arrow']:.2f}x Polars), "
        f"thinkparse.polars {r['polars_expr']:.2f} s ({r['regex'] / r['polars_expr']:.2f}x)"
    )
    yield f"rows where the regex differs from thinkparse: {r['differ']:,} of {r['rows']:,}"
    yield from r["examples"]
    if args.engines:
        for name, fn in (("Spark", bench_spark), ("Ray", bench_ray)):
            e = fn(args.engine_rows, args.runs)
            yield (
                f"{name} {e['rows']:,} rows: no-op UDF {e['rows'] / e['noop']:,.0f} rows/s, "
                f"thinkparse {e['rows'] / e['adapter']:,.0f} rows/s "
                f"({e['noop'] / e['adapter']:.2f}x the no-op)"
            )
    yield f"load average after: {_load()}"


if __name__ == "__main__":
    for text in main():
        print(text, flush=True)
