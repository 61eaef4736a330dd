"""One reader of chat transcripts: reasoning_from_trace, split_trace and convert_trace agree on
every source, in one order (P10, C1), and on every malformed field (P8)."""

from __future__ import annotations

import copy
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import ResponseShapeError, convert_trace, reasoning_from_trace, split_trace
from thinkparse.data._transcript import SOURCES, read_message

USER = {"role": "user", "content": "2+2?"}
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
LOSSLESS = ["reasoning_content", "reasoning", "think_tags", "content_blocks"]

# C1: one assistant message per source, each holding reasoning "add" and answer "4".
EVERY_SOURCE: dict[str, dict[str, Any]] = {
    "reasoning_content": {"role": "assistant", "content": "4", "reasoning_content": "add"},
    "reasoning": {"role": "assistant", "content": "4", "reasoning": "add"},
    "ollama thinking": {"role": "assistant", "content": "4", "thinking": "add"},
    "reasoning_details": {
        "role": "assistant",
        "content": "4",
        "reasoning_details": [{"type": "reasoning.text", "text": "add", "index": 0}],
    },
    "reasoning_details summary": {
        "role": "assistant",
        "content": "4",
        "reasoning_details": [{"type": "reasoning.summary", "summary": "add", "index": 0}],
    },
    "anthropic thinking block": {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "add", "signature": "s"},
                    {"type": "text", "text": "4"}],
    },
    "mistral thinking chunks": {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "add"}]},
                    {"type": "text", "text": "4"}],
    },
    "inline tags": {"role": "assistant", "content": "<think>\nadd\n</think>\n\n4"},
    "inline tags, template-opened": {"role": "assistant", "content": "add\n</think>\n\n4"},
    "inline tags in text parts": {
        "role": "assistant",
        "content": [{"type": "text", "text": "<think>ad"}, {"type": "text", "text": "d</think>4"}],
    },
}


@pytest.mark.parametrize("source", list(EVERY_SOURCE))
def test_the_three_functions_read_every_source_alike(source: str) -> None:
    # P10, C1: the same reasoning from every source, whichever function reads it
    trace = [USER, EVERY_SOURCE[source]]
    before = copy.deepcopy(trace)
    assert reasoning_from_trace(trace) == "add"
    converted = convert_trace(trace, to="reasoning_content")[1]
    assert converted["reasoning_content"] == "add"
    assert converted["content"] in ("4", [{"type": "text", "text": "4"}])
    assert reasoning_from_trace(split_trace(trace)) == "add"
    for target in LOSSLESS:
        assert reasoning_from_trace(convert_trace(trace, to=target)) == "add"
    assert trace == before


def test_ollama_thinking_is_read_by_reasoning_from_trace() -> None:
    # P10, C1: the two readers used to disagree here (None against "add")
    trace = [{"role": "assistant", "content": "4", "thinking": "add"}]
    assert reasoning_from_trace(trace) == "add"
    assert convert_trace(trace, to="reasoning") == [
        {"role": "assistant", "content": "4", "reasoning": "add"}]


def test_split_trace_moves_inline_tags_only() -> None:
    # P10: split_trace changes a message only when its reasoning came from tags in a string
    out = split_trace([USER, *EVERY_SOURCE.values()])
    assert out[1:] == [
        *list(EVERY_SOURCE.values())[:7],
        {"role": "assistant", "content": "4", "reasoning_content": "add"},
        {"role": "assistant", "content": "4", "reasoning_content": "add"},
        EVERY_SOURCE["inline tags in text parts"],  # a content list is left as it is
    ]


# C1: every source at once, each with its own text; each source wins once those before it go.
ALL_AT_ONCE: dict[str, Any] = {
    "role": "assistant",
    "reasoning_content": "one",
    "reasoning": "two",
    "thinking": "three",
    "reasoning_details": [{"type": "reasoning.text", "text": "four", "index": 0}],
    "content": [{"type": "thinking", "thinking": "five"},
                {"type": "text", "text": "<think>six</think>4"}],
}
ORDER = [("reasoning_content", "one"), ("reasoning", "two"), ("thinking", "three"),
         ("reasoning_details", "four"), ("blocks", "five"), ("tags", "six")]


@pytest.mark.parametrize("first", range(len(ORDER)))
@pytest.mark.parametrize("removed", ["absent", "null", "blank"])
def test_one_order_of_sources(first: int, removed: str) -> None:
    # C1, P10: the first readable source wins; an absent, null or whitespace-only one is skipped
    msg = copy.deepcopy(ALL_AT_ONCE)
    for key, _ in ORDER[:first]:
        if key == "blocks":
            msg["content"] = msg["content"][1:] if removed == "absent" else [
                {"type": "thinking", "thinking": None if removed == "null" else " \n"},
                msg["content"][1]]
        elif key == "reasoning_details" and removed == "blank":
            msg[key] = [{"type": "reasoning.text", "text": " ", "index": 0}]
        elif removed == "absent":
            del msg[key]
        else:
            msg[key] = None if removed == "null" else "\t "
    source, expected = ORDER[first]
    reading = read_message(msg, "m")
    assert (reading.source, reading.reasoning) == (source, expected)
    assert reasoning_from_trace([msg]) == expected
    assert convert_trace([msg], to="reasoning")[0]["reasoning"] == expected
    # P4: with a field or block, inline tags are not looked for; the text stays as it is
    visible = "4" if source == "tags" else "<think>six</think>4"
    assert reading.visible == visible
    # C2: a content list holding only text parts becomes a string
    assert convert_trace([msg], to="reasoning")[0]["content"] == visible


def test_the_order_is_the_documented_one() -> None:
    # C1, P10: the module's order is the one the docs state
    assert SOURCES == ("reasoning_content", "reasoning", "thinking", "reasoning_details",
                       "blocks", "tags")


def test_details_pieces_and_segments() -> None:
    # P2, C1: items of one index are pieces of one segment; indexes are segments; encrypted
    # items are unreadable
    msg = {"role": "assistant", "content": "4", "reasoning_details": [
        {"type": "reasoning.text", "text": "a", "index": 0},
        {"type": "reasoning.text", "text": "b", "index": 0},
        {"type": "reasoning.encrypted", "data": "xx", "index": 1},
        {"type": "reasoning.summary", "summary": " c ", "index": 2}]}
    assert reasoning_from_trace([msg]) == "ab\n\nc"
    assert convert_trace([msg], to="reasoning")[0] == {
        "role": "assistant", "content": "4", "reasoning": "ab\n\nc"}
    only_encrypted = {"role": "assistant", "content": "4",
                      "reasoning_details": [{"type": "reasoning.encrypted", "data": "xx"}]}
    assert read_message(only_encrypted, "m")[:3] == (None, "4", None)


def test_present_but_unreadable_is_empty_reasoning() -> None:
    # C1, C2, P10: a present source with nothing readable is "" for convert_trace, None for
    # reasoning_from_trace; inline tags still win over it
    blank = {"role": "assistant", "content": "4", "thinking": " "}
    assert read_message(blank, "m")[:3] == ("", "4", None)
    assert reasoning_from_trace([blank]) is None
    assert convert_trace([blank], to="reasoning")[0] == {
        "role": "assistant", "content": "4", "reasoning": ""}
    tagged = {"role": "assistant", "content": "<think>t</think>4", "thinking": " "}
    assert read_message(tagged, "m")[:3] == ("t", "4", "tags")
    assert split_trace([tagged]) == [
        {"role": "assistant", "content": "4", "thinking": " ", "reasoning_content": "t"}]


MALFORMED = [
    ({"reasoning_content": 5}, "messages[1].reasoning_content"),
    ({"reasoning": ["x"]}, "messages[1].reasoning"),
    ({"thinking": {"a": 1}}, "messages[1].thinking"),
    ({"reasoning_details": "x"}, "messages[1].reasoning_details"),
    ({"reasoning_details": [3]}, "messages[1].reasoning_details[0]"),
    ({"reasoning_details": [{"type": "reasoning.text", "text": 1}]},
     "messages[1].reasoning_details[0].text"),
    ({"content": 7}, "messages[1].content"),
    ({"content": [7]}, "messages[1].content[0]"),
    ({"content": [{"type": "text", "text": 1}]}, "messages[1].content[0].text"),
    ({"content": [{"type": "thinking", "thinking": 2}]}, "messages[1].content[0].thinking"),
    ({"content": [{"type": "thinking", "thinking": [3]}]}, "messages[1].content[0].thinking[0]"),
    # a readable field does not hide a malformed one
    ({"reasoning_content": "r", "content": 7}, "messages[1].content"),
]


@pytest.mark.parametrize(("fields", "path"), MALFORMED)
def test_the_three_functions_raise_alike(fields: dict[str, Any], path: str) -> None:
    # P8, P10, C1: one reader, one ResponseShapeError, the same path
    trace = [USER, {"role": "assistant", **fields}]
    calls = [lambda: reasoning_from_trace(trace), lambda: split_trace(trace),
             lambda: convert_trace(trace, to="reasoning")]
    for call in calls:
        with pytest.raises(ResponseShapeError) as info:
            call()
        assert info.value.path == path


def test_a_message_that_is_not_a_mapping_is_named_alike() -> None:
    # P7: the three name the message's index
    for fn in (reasoning_from_trace, split_trace, lambda t: convert_trace(t, to="none")):
        with pytest.raises(TypeError, match=r"messages\[1\] must be a Mapping \(a chat message\), "
                                            r"not int$"):
            fn([USER, 3])


# --- generated transcripts: every source, present, blank or absent, in any combination --------
WORD = st.sampled_from(["plan", "x = 1", "a < b", "Ünïcode", "two\nlines"])
#: A source's value: absent (the key left out), null, empty, whitespace-only or a word.
VALUE = st.one_of(st.just("absent"), st.none(), st.just(""), st.just(" \n\t"), WORD)


@st.composite
def assistant(draw: Any) -> tuple[dict[str, Any], Optional[str]]:
    """An assistant message and the reasoning the documented order (C1) gives it."""
    msg: dict[str, Any] = {"role": "assistant"}
    found: list[Optional[str]] = []  # the stripped text of each source, in order
    for key in ("reasoning_content", "reasoning", "thinking"):
        value = draw(VALUE)
        if value != "absent":
            msg[key] = value
        found.append(value.strip() if isinstance(value, str) and value != "absent" else None)
    items = []
    segments = []
    kinds = st.sampled_from(["reasoning.text", "reasoning.summary", "reasoning.encrypted"])
    for index, (kind, text) in enumerate(draw(st.lists(st.tuples(kinds, VALUE), max_size=2))):
        key = {"reasoning.text": "text", "reasoning.summary": "summary"}.get(kind, "data")
        item = {"type": kind, "index": index}
        if text != "absent":
            item[key] = text
        items.append(item)
        if kind != "reasoning.encrypted" and text and text != "absent" and text.strip():
            segments.append(text.strip())
    if items:
        msg["reasoning_details"] = items
    found.append("\n\n".join(segments) or None)
    blocks = []
    for mistral, text in draw(st.lists(st.tuples(st.booleans(), VALUE), max_size=2)):
        value = None if text == "absent" else text
        blocks.append({"type": "thinking",
                       "thinking": [{"type": "text", "text": value}] if mistral else value})
    block_texts = [b["thinking"] if isinstance(b["thinking"], str) or b["thinking"] is None
                   else b["thinking"][0]["text"] for b in blocks]
    found.append("\n\n".join(t.strip() for t in block_texts if t and t.strip()) or None)
    visible = draw(st.sampled_from(["4", "", "The answer is 4."]))
    inline = draw(st.one_of(st.none(), st.just(""), WORD))
    text = visible if inline is None else f"<think>{inline}</think>\n{visible}"
    found.append(None if inline is None else inline.strip() or None)
    if blocks or draw(st.booleans()):
        msg["content"] = [*blocks, {"type": "text", "text": text},
                          *([IMAGE] if draw(st.booleans()) else [])]
    else:
        msg["content"] = text
    expected = next((f for f in found if f), None)
    return msg, expected


@st.composite
def transcripts(draw: Any) -> tuple[list[dict[str, Any]], list[Optional[str]]]:
    out: list[dict[str, Any]] = []
    expected: list[Optional[str]] = []
    for _ in range(draw(st.integers(1, 3))):
        out.append({"role": "user", "content": "q"})
        msg, reasoning = draw(assistant())
        out.append(msg)
        expected.append(reasoning)
        if draw(st.booleans()):
            out.append({"role": "tool", "tool_call_id": "t", "content": "<think>no</think>"})
    return out, expected


@settings(max_examples=300, deadline=None)
@given(transcripts())
def test_generated_transcripts_read_alike(case: tuple[list[dict[str, Any]], list[Any]]) -> None:
    # P10, C1: for every assistant message, the three functions find the reasoning the
    # documented order gives, and split_trace and convert_trace leave it findable
    trace, expected = case
    before = copy.deepcopy(trace)
    ends = [i + 1 for i, m in enumerate(trace) if m["role"] == "assistant"]
    split = split_trace(trace)
    converted = {to: convert_trace(trace, to=to) for to in LOSSLESS}
    for end, reasoning in zip(ends, expected):
        prefix = trace[:end]
        assert reasoning_from_trace(prefix) == reasoning
        assert (convert_trace(prefix, to="reasoning_content")[-1].get("reasoning_content")
                or None) == reasoning
        assert reasoning_from_trace(split[:end]) == reasoning
        if "<think>" not in read_message(trace[end - 1], "m").visible:
            # C3's premise: a visible text with tags of its own (kept, P4) is read again
            for to in LOSSLESS:
                assert reasoning_from_trace(converted[to][:end]) == reasoning
        # the visible text: split_trace writes what convert_trace writes for string content
        if isinstance(trace[end - 1]["content"], str):
            assert split[end - 1]["content"] == converted["reasoning_content"][end - 1]["content"]
    assert trace == before
