"""parse() is linear on adversarial input (R7, R8): a ratio within one run, no absolute time.

Per-character time at 400 K characters against 40 K, for every shape of
``benchmarks/bench_html.py`` in both modes.  Quadratic work would show as about 10x; the limit is
2x.  A shape over the limit is measured again (up to five times, half a second apart) so that a
burst of load from other processes cannot fail the test; a real quadratic path fails every time.

The timing test is marked ``slow``: deselected by default, run once by ``.ci/run`` in a step of
its own.  ``tests/scan/test_linear_costs.py`` counts parse()'s Python steps on the same shapes,
which no machine load can disturb.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_html.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_html", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(bench.MODES))
@pytest.mark.parametrize("shape", sorted(bench.SHAPES))
def test_linear_growth(shape: str, mode: str) -> None:  # R7, R8
    ratios = []
    for attempt in range(5):
        if attempt:
            time.sleep(0.5)  # let a burst of load from other processes pass
        ratios.append(bench.growth(shape, mode, 40_000, 400_000, 5)[2])
        if ratios[-1] <= 2.0:
            break
    assert min(ratios) <= 2.0, f"{shape}/{mode}: per-character time grew {ratios}"


def test_shapes_are_adversarial() -> None:
    # The inputs really are what their names say: many tags, deep nesting, fail-closed.
    p = bench.parse(bench.SHAPES["redacted-nested"](40_000))
    assert (p.visible, p.redactions) == ("[REDACTED]", 1)
    p = bench.parse(bench.SHAPES["reasoning-nested"](40_000), multi_block=True)
    assert len(p.blocks) == 1 and p.visible == "" and p.reasoning.count("<REASONING>") > 1000
    p = bench.parse(bench.SHAPES["reasoning-pairs"](40_000), multi_block=True)
    assert len(p.blocks) == 40_000 // len("a<REASONING>b</REASONING>")
    assert bench.parse(bench.SHAPES["redacted-openers"](40_000)).visible == "[REDACTED]"
