"""The scanner's public read-only state (W4, T9, T10): ``in_reasoning``, ``had_block``,
``tag_consumed``, ``orphan_at``, identical in both implementations after every call."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse._scanner_py import ThinkScanner as PyScanner


def _states(scanner: Any) -> tuple[bool, bool, bool, Any]:
    return (scanner.in_reasoning, scanner.had_block, scanner.tag_consumed, scanner.orphan_at)


@pytest.mark.parametrize(
    ("chunks", "options", "expected"),
    [
        # (in_reasoning, had_block, tag_consumed, orphan_at) after each feed, then after close()
        (["plain"], {}, [(False, False, False, None), (False, False, False, None)]),
        (
            ["<think>a", "b</think>", "c"],
            {},
            [
                (True, True, True, None),
                (False, True, True, None),
                (False, True, True, None),
                (False, True, True, None),
            ],
        ),
        (["<thi", "nk>"], {}, [(False, False, False, None), (True, True, True, None),
                                (False, True, True, None)]),
        (["plan</think>", "answer"], {}, [(False, False, True, 4), (False, False, True, 4),
                                           (False, False, True, 4)]),
        (["ab", "c</think>x", "<think>y"], {}, [
            (False, False, False, None),
            (False, False, True, 3),
            (False, False, True, 3),  # a tentative block: not (yet) reasoning
            (False, False, True, 3),
        ]),
        (["Hi <think>x</think>"], {}, [(False, True, True, None), (False, True, True, None)]),
        (["plan"], {"start_in_reasoning": True}, [(True, True, False, None),
                                                  (False, True, False, None)]),
        (["<think>", "plan</think>ok"], {"start_in_reasoning": True}, [
            (True, True, True, None),
            (False, True, True, None),
            (False, True, True, None),
        ]),
        (["<think/>a"], {}, [(False, True, True, None), (False, True, True, None)]),
        (["`</think>` x"], {}, [(False, False, False, None), (False, False, False, None)]),
        (["[T]a"], {"delimiters": [("[T]", "[/T]")]}, [(True, True, True, None),
                                                       (False, True, True, None)]),
    ],
)
def test_state_after_each_call(
    scanner_cls: Any, chunks: list[str], options: dict[str, Any], expected: list[Any]
) -> None:
    # W4 (in_reasoning), T9 (had_block), T4/T10 (orphan_at)
    scanner = scanner_cls(**options)
    seen = []
    for chunk in chunks:
        scanner.feed(chunk)
        seen.append(_states(scanner))
    scanner.close()
    seen.append(_states(scanner))
    assert seen == expected


def test_state_is_read_only(scanner_cls: Any) -> None:
    # W4: part of the public contract, read-only
    scanner = scanner_cls()
    for name in ("in_reasoning", "had_block", "tag_consumed", "orphan_at"):
        with pytest.raises(AttributeError):
            setattr(scanner, name, True)


_PIECES = st.sampled_from(
    ["<think>", "</think>", "<", "a", " ", "\n", "`", "```\n", "<think/>", "x</think>", "</"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=4).map("".join), max_size=8), st.booleans())
def test_state_identical_in_both(compiled_cls: Any, chunks: list[str], start: bool) -> None:
    # S5: the public state agrees call by call
    c, py = compiled_cls(start_in_reasoning=start), PyScanner(start_in_reasoning=start)
    for chunk in chunks:
        assert tuple(c.feed(chunk)) == tuple(py.feed(chunk))
        assert _states(c) == _states(py)
    assert tuple(c.close()) == tuple(py.close())
    assert _states(c) == _states(py)
