"""Rule tables for the ``<think>`` scanner (docs/behaviour.md#t1, rules T1-T10).

The rows (``tests/support/think_cases.py``) run through ``split_think`` (the active
implementation) and through a one-shot feed + close of both scanner implementations;
``tests/scan/test_think_stream.py`` feeds the same rows in every chunking (S1).
"""

from __future__ import annotations

from typing import Any

import pytest
from think_cases import ALL_CASES, T10, Case, one_shot

from thinkparse import Split, split_think, strip_think


def _ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


def test_case_ids_unique() -> None:
    ids = _ids(ALL_CASES + T10)
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("c", ALL_CASES + T10, ids=_ids(ALL_CASES + T10))
def test_split_think(c: Case) -> None:
    # behaviour.md#t1: split_think (active implementation) gives the rule's result
    assert split_think(c.text, **c.options) == Split(c.visible, c.reasoning)
    assert strip_think(c.text, **c.options) == c.visible


@pytest.mark.parametrize("c", ALL_CASES, ids=_ids(ALL_CASES))
def test_one_shot(scanner_cls: Any, c: Case) -> None:
    # behaviour.md#t1 + S1: one feed of the whole text, then close(), on each implementation
    assert one_shot(scanner_cls, c.text, c.options) == (c.visible, c.reasoning)
