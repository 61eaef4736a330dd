"""``iter_sse`` / ``aiter_sse``: Server-Sent Events as provider event streams (W1)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from thinkparse import ResponseShapeError, aiter_sse, iter_sse


def test_fields_comments_and_multiline_data() -> None:
    # W1: data/event/id/retry lines, multi-line data joined with "\n", comments ignored.
    body = (
        ": keep-alive\n"
        "event: message_start\n"
        "id: 7\n"
        "retry: 1000\n"
        'data: {"type":\n'
        'data: "a"}\n'
        "\n"
        "\n"
        'data:{"b":2}\n'
        "\n"
    )
    assert list(iter_sse([body])) == [{"type": "a"}, {"b": 2}]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_line_ends(eol: str) -> None:
    # W1: CRLF, CR and LF line ends.
    body = f'data: {{"a": 1}}{eol}{eol}data: {{"a": 2}}{eol}{eol}'
    assert list(iter_sse([body.encode()])) == [{"a": 1}, {"a": 2}]


def test_crlf_split_between_chunks() -> None:
    # W1: a CR ending one chunk and the LF starting the next are one line end.
    chunks = [b'data: {"a": 1}\r', b"\n\r", b"\ndata: [DONE]\r\n\r\n"]
    assert list(iter_sse(chunks)) == [{"a": 1}]


def test_utf8_split_across_chunks_and_bom() -> None:
    # W1: a character split across byte chunks is whole; a leading BOM is dropped.
    data = '\ufeffdata: {"t": "é✓"}\n\n'.encode()
    chunks = [data[i : i + 1] for i in range(len(data))]
    assert list(iter_sse(chunks)) == [{"t": "é✓"}]


def test_done_ends_iteration() -> None:
    # W1: [DONE] ends the iteration; nothing after it is read (not even bad data).
    consumed: list[str] = []

    def chunks() -> Any:
        for c in ['data: {"a": 1}\n\n', "data: [DONE]\n\n", "data: not json\n\n"]:
            consumed.append(c)
            yield c

    assert list(iter_sse(chunks())) == [{"a": 1}]
    assert len(consumed) == 2


def test_non_json_data_names_the_event() -> None:
    # W1: data that is not JSON -> ResponseShapeError naming the event.
    body = 'data: {"a": 1}\n\nevent: delta\ndata: oops\n\n'
    it = iter_sse([body])
    assert next(it) == {"a": 1}
    with pytest.raises(ResponseShapeError) as info:
        next(it)
    assert info.value.path == "event 2 (delta)"
    assert str(info.value) == ("event 2 (delta): the event's data is not JSON (Expecting value)")


def test_json_that_is_not_an_object() -> None:
    # W1: each event's data is a JSON object.
    with pytest.raises(ResponseShapeError, match=r"^event 1: the event's data is an array"):
        list(iter_sse(["data: [1]\n\n"]))


def test_event_without_data_is_not_dispatched_and_last_event_kept() -> None:
    # Decision: an unterminated last event is dispatched when its line is complete or ends the
    # input; an event with no data line is not dispatched.
    assert list(iter_sse(["event: ping\n\n", 'data: {"z": 0}'])) == [{"z": 0}]
    assert list(iter_sse(['data: {"z": 0}\n'])) == [{"z": 0}]
    assert list(iter_sse([])) == []


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="iterable of bytes or str, not int"):
        iter_sse(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="chunks must be bytes or str, not int"):
        list(iter_sse([5]))  # type: ignore[list-item]
    with pytest.raises(UnicodeDecodeError):
        list(iter_sse([b"data: \xff\n\n"]))


def test_aiter_sse_same_events() -> None:
    # W1: the async variant gives the same events.
    body = b'data: {"a": 1}\r\n\r\ndata: {"b": 2}\n\ndata: [DONE]\n\n'

    async def chunks() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 3):
            yield body[i : i + 3]

    async def collect() -> list[dict[str, Any]]:
        return [e async for e in aiter_sse(chunks())]

    assert asyncio.run(collect()) == [{"a": 1}, {"b": 2}]
    with pytest.raises(TypeError, match="async iterable"):
        aiter_sse([b""])  # type: ignore[arg-type]


events = st.lists(
    st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=8)), max_size=3),
    max_size=5,
)


def encode_stream(evs: list[dict[str, Any]], eol: str, comments: bool) -> bytes:
    parts = []
    for i, ev in enumerate(evs):
        if comments:
            parts.append(f": c{i}{eol}")
        text = json.dumps(ev, ensure_ascii=False, indent=1 if i % 2 else None)
        parts.append(f"event: e{i}{eol}")
        parts.extend(f"data: {line}{eol}" for line in text.split("\n"))
        parts.append(eol)
    return "".join(parts).encode("utf-8")


@given(events, st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(), st.data())
def test_any_chunking_gives_the_same_events(
    evs: list[dict[str, Any]], eol: str, comments: bool, data: st.DataObject
) -> None:
    # W1: chunks cut anywhere (bytes or text) give the same events.
    body = encode_stream(evs, eol, comments)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(body)), max_size=8)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    assert list(iter_sse(pieces)) == evs
    text_pieces = [p.decode("utf-8", "surrogateescape") for p in pieces]
    if all(c < "\udc80" or c > "\udcff" for p in text_pieces for c in p):
        assert list(iter_sse(text_pieces)) == evs
