"""The README's Python examples run as doctests, so they cannot drift from the code."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from _support import require

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example(index: int) -> None:
    # A block that needs optional packages says so on a ">>> # requires: a, b" line.
    for names in re.findall(r"^>>> # requires: (.+)$", BLOCKS[index], re.M):
        for name in names.split(","):
            require(name.strip(), "THINKPARSE_REQUIRE_ENGINES")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(BLOCKS[index], {}, f"README block {index}", str(README), 0)
    assert test.examples, "a README python block without >>> examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"README block {index}: {result.failed} example(s) failed"


def test_docstring_examples() -> None:
    import thinkparse.scan._reasoning_block
    import thinkparse.scan._think

    for module in (thinkparse.scan._reasoning_block, thinkparse.scan._think):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, module.__name__
