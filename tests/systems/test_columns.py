"""Columns (C4): split_think_many and thinkparse.arrow, row by row equal to the one-row calls."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any, Optional

import pytest
from _support import require
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import normalize as normalize_one
from thinkparse import split_think, split_think_many

ENGINES = "THINKPARSE_REQUIRE_ENGINES"

# Texts that exercise the scanner: tags, split tags, code, template-opened blocks, nulls.
PIECES = st.sampled_from(
    [
        "<think>",
        "</think>",
        "plan",
        " ",
        "\n",
        "```",
        "`",
        "answer",
        "é",
        "<thi",
        "nk>",
        "x</think>",
    ]
)
TEXT = st.lists(PIECES, max_size=12).map("".join)
ROWS = st.lists(st.one_of(st.none(), TEXT), max_size=20)
OPTIONS = st.sampled_from(
    [{}, {"start_in_reasoning": "auto"}, {"start_in_reasoning": True}, {"code_aware": False}]
)


def one_by_one(rows: list[Optional[str]], **options: Any) -> tuple[list[Any], list[Any]]:
    splits = [None if t is None else split_think(t, **options) for t in rows]
    return [s and s.visible for s in splits], [s and s.reasoning for s in splits]


# --- split_think_many ---------------------------------------------------------------------------
def test_split_think_many_exact() -> None:
    # C4: a null row gives nulls; a row without a block gives None reasoning (T9)
    assert split_think_many(
        ["<think>a</think>B", None, "C", "x</think>y"], start_in_reasoning="auto"
    ) == (
        ["B", None, "C", "y"],
        ["a", None, None, "x"],
    )
    assert split_think_many(iter([])) == ([], [])


@settings(max_examples=200, deadline=None)
@given(ROWS, OPTIONS)
def test_split_think_many_equals_split_think(
    rows: list[Optional[str]], options: dict[str, Any]
) -> None:
    # C4
    assert split_think_many(rows, **options) == one_by_one(rows, **options)


def test_split_think_many_bad_input() -> None:
    with pytest.raises(TypeError, match=r"texts\[1\] must be a str or None, not int"):
        split_think_many(["a", 1])
    with pytest.raises(TypeError, match="texts must be an iterable of str or None, not str"):
        split_think_many("abc")
    with pytest.raises(ValueError, match="max_tentative"):
        split_think_many([], max_tentative=-1)  # checked even for an empty column


# --- thinkparse.arrow.split_think ---------------------------------------------------------------
@pytest.fixture(scope="module")
def pa() -> ModuleType:
    return require("pyarrow", ENGINES)


def test_arrow_split_think_array(pa: Any) -> None:
    from thinkparse import arrow

    out = arrow.split_think(pa.array(["<think>a</think>B", None, "C"]))
    assert isinstance(out, pa.StructArray)
    assert out.type == pa.struct([("visible", pa.string()), ("reasoning", pa.string())])
    assert out.to_pylist() == [
        {"visible": "B", "reasoning": "a"},
        {"visible": None, "reasoning": None},
        {"visible": "C", "reasoning": None},
    ]
    assert out.null_count == 0  # C4: a null row is a struct of nulls, not a null struct
    assert out.field("visible").null_count == 1


def test_arrow_split_think_chunked_large_string(pa: Any) -> None:
    from thinkparse import arrow

    t = pa.large_string()
    column = pa.chunked_array(
        [pa.array(["<think>a</think>B"], t), pa.array([], t), pa.array([None, "x</think>y"], t)]
    )
    out = arrow.split_think(column, start_in_reasoning="auto")
    assert isinstance(out, pa.ChunkedArray)
    assert [len(c) for c in out.chunks] == [1, 0, 2]
    assert out.type == pa.struct([("visible", t), ("reasoning", t)])
    assert out.to_pylist() == [
        {"visible": "B", "reasoning": "a"},
        {"visible": None, "reasoning": None},
        {"visible": "y", "reasoning": "x"},
    ]
    empty = arrow.split_think(pa.chunked_array([], type=pa.string()))
    assert (isinstance(empty, pa.ChunkedArray), len(empty)) == (True, 0)


def test_arrow_split_think_sliced_input(pa: Any) -> None:
    from thinkparse import arrow

    column = pa.array(["<think>a</think>B", None, "<think>c</think>D", "E"]).slice(2, 2)
    assert arrow.split_think(column).to_pylist() == [
        {"visible": "D", "reasoning": "c"},
        {"visible": "E", "reasoning": None},
    ]


def test_arrow_bad_input(pa: Any) -> None:
    from thinkparse import arrow

    with pytest.raises(TypeError, match="takes a string or large_string column, not int64"):
        arrow.split_think(pa.array([1]))
    with pytest.raises(TypeError, match="pyarrow Array or ChunkedArray of strings, not list"):
        arrow.split_think(["a"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_tentative"):
        arrow.split_think(pa.array([], pa.string()), max_tentative=-1)


@settings(max_examples=100, deadline=None)
@given(st.lists(ROWS, min_size=1, max_size=3), OPTIONS, st.booleans())
def test_arrow_split_think_equals_split_think(
    pa: Any, chunks: list[list[Optional[str]]], options: dict[str, Any], large: bool
) -> None:
    # C4: row by row equal, for Array and ChunkedArray, string and large_string
    from thinkparse import arrow

    t = pa.large_string() if large else pa.string()
    flat = [r for c in chunks for r in c]
    v, r = one_by_one(flat, **options)
    expected = [{"visible": a, "reasoning": b} for a, b in zip(v, r)]
    assert arrow.split_think(pa.array(flat, t), **options).to_pylist() == expected
    chunked = pa.chunked_array([pa.array(c, t) for c in chunks], type=t)
    assert arrow.split_think(chunked, **options).to_pylist() == expected


# --- thinkparse.arrow.normalize -----------------------------------------------------------------
CHAT = {
    "choices": [{"message": {"content": "4", "reasoning_content": "2+2"}}],
    "usage": {"completion_tokens": 9, "completion_tokens_details": {"reasoning_tokens": 5}},
}
ANTHROPIC = {
    "type": "message",
    "content": [
        {"type": "thinking", "thinking": "hm", "signature": "s"},
        {"type": "text", "text": "ok"},
    ],
}
REDACTED = {
    "type": "message",
    "content": [{"type": "redacted_thinking", "data": "x"}, {"type": "text", "text": "A"}],
}
EVENTS = [
    {"choices": [{"delta": {"content": "<think>r"}}]},
    {"choices": [{"delta": {"content": "</think>v"}}]},
]
NULLS = dict.fromkeys(
    ["visible", "reasoning", "tokens_est", "provider", "format", "reasoning_tokens", "redacted"]
)


def record(ex: Any) -> dict[str, Any]:
    return {
        "visible": ex.visible,
        "reasoning": ex.reasoning,
        "tokens_est": ex.tokens_est,
        "provider": ex.provider,
        "format": ex.format,
        "reasoning_tokens": ex.reasoning_tokens,
        "redacted": ex.redacted,
        "error": None,
    }


def test_arrow_normalize(pa: Any) -> None:
    # C4: rows equal normalize(); unreadable rows give nulls and an error, never an exception
    from thinkparse import StreamNormalizer, arrow

    rows = [
        json.dumps(CHAT),
        None,
        "{",
        json.dumps(ANTHROPIC),
        "[1]",
        '{"x": 1}',
        json.dumps(REDACTED),
        json.dumps(EVENTS),
        "3",
    ]
    out = arrow.normalize(pa.array(rows))
    stream = StreamNormalizer()
    for e in EVENTS:
        stream.feed(e)
    stream.close()
    got = out.to_pylist()
    assert (
        got[0]
        == record(normalize_one(CHAT))
        == {
            "visible": "4",
            "reasoning": "2+2",
            "tokens_est": 1,
            "provider": "openai_chat",
            "format": "field",
            "reasoning_tokens": 5,
            "redacted": False,
            "error": None,
        }
    )
    assert got[1] == {**NULLS, "error": None}
    assert got[2] == {
        **NULLS,
        "error": "invalid JSON at line 1 column 2: "
        "Expecting property name enclosed in double quotes",
    }
    assert got[3] == record(normalize_one(ANTHROPIC))
    assert got[4] == {**NULLS, "error": "event [0] must be a JSON object"}
    assert got[5]["error"] is not None and "'x'" in got[5]["error"] and got[5]["visible"] is None
    assert got[6] == record(normalize_one(REDACTED)) and got[6]["redacted"] is True
    assert got[7] == record(stream.result) and got[7]["reasoning"] == "r"
    assert got[8] == {
        **NULLS,
        "error": "expected a JSON object (a provider response) or an array (stream events), "
        "not int",
    }
    assert out.type.field("tokens_est").type == pa.int64()
    assert out.type.field("redacted").type == pa.bool_()


def test_arrow_normalize_chunked_and_options(pa: Any) -> None:
    from thinkparse import arrow

    t = pa.large_string()
    column = pa.chunked_array([pa.array([json.dumps(CHAT)], t), pa.array([None], t)])
    out = arrow.normalize(column, provider="openai_chat")
    assert isinstance(out, pa.ChunkedArray) and [len(c) for c in out.chunks] == [1, 1]
    assert out.type.field("visible").type == t
    assert out.to_pylist()[0] == record(normalize_one(CHAT))
    two = {"choices": [{"message": {"content": "a"}}, {"message": {"content": "[T]r[/T]b"}}]}
    rows = pa.array([json.dumps(two)])
    options = {"choice": 1, "delimiters": [("[T]", "[/T]")]}
    assert arrow.normalize(rows, **options).to_pylist() == [record(normalize_one(two, **options))]
    assert arrow.normalize(rows, **options).to_pylist()[0]["reasoning"] == "r"
    with pytest.raises(ValueError, match="nope"):
        arrow.normalize(column, provider="nope")
    with pytest.raises(TypeError, match="unexpected keyword"):
        arrow.normalize(column, colour=1)


RESPONSE = st.one_of(
    st.builds(
        lambda c, r: {
            "choices": [{"message": {"content": c, **({} if r is None else {"reasoning": r})}}]
        },
        TEXT,
        st.one_of(st.none(), TEXT),
    ),
    st.builds(
        lambda t, v: {
            "type": "message",
            "content": [{"type": "thinking", "thinking": t}, {"type": "text", "text": v}],
        },
        TEXT,
        TEXT,
    ),
    st.builds(lambda c: {"choices": [{"message": {"content": c}}]}, st.integers()),
)
JSON_ROWS = st.lists(
    st.one_of(
        st.none(),
        RESPONSE.map(json.dumps),
        st.text(max_size=8).filter(lambda s: not s.lstrip().startswith("[")),
    ),
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(JSON_ROWS)
def test_arrow_normalize_equals_normalize(pa: Any, rows: list[Optional[str]]) -> None:
    # C4: each row equals normalize(json.loads(row)); a row it cannot read gives an error field
    from thinkparse import arrow

    got = arrow.normalize(pa.array(rows, pa.string())).to_pylist()
    for text, row in zip(rows, got):
        if text is None:
            assert row == {**NULLS, "error": None}
            continue
        try:
            value = json.loads(text)
            want = record(normalize_one(value)) if isinstance(value, dict) else None
        except (ValueError, TypeError):
            want = None
        if want is None:
            assert {k: v for k, v in row.items() if k != "error"} == NULLS
            assert isinstance(row["error"], str) and row["error"]
        else:
            assert row == want
