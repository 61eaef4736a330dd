"""convert_trace: every source in, every target out, keep modes, bad input, round trip (C1-C3)."""

from __future__ import annotations

import copy
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import ResponseShapeError, convert_trace
from thinkparse.data._transcript import read_message

USER = {"role": "user", "content": "What is 2+2?"}
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}

# C1: one assistant message per source representation, each holding reasoning "plan" and answer "4".
SOURCES: dict[str, dict[str, Any]] = {
    "reasoning_content": {"role": "assistant", "content": "4", "reasoning_content": "plan"},
    "reasoning": {"role": "assistant", "content": "4", "reasoning": "plan"},
    "ollama_thinking": {"role": "assistant", "content": "4", "thinking": "plan"},
    "reasoning_details": {
        "role": "assistant",
        "content": "4",
        "reasoning_details": [{"type": "reasoning.text", "text": "plan", "index": 0}],
    },
    "anthropic_blocks": {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "plan", "signature": "sig"},
            {"type": "text", "text": "4"},
        ],
    },
    "mistral_chunks": {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "plan"}]},
            {"type": "text", "text": "4"},
        ],
    },
    "inline_tags": {"role": "assistant", "content": "<think>\nplan\n</think>\n\n4"},
    "template_opened": {"role": "assistant", "content": "plan\n</think>\n\n4"},
    "inline_tags_in_list": {
        "role": "assistant",
        "content": [{"type": "text", "text": "<think>pl"}, {"type": "text", "text": "an</think>4"}],
    },
}


def expected(target: str) -> dict[str, Any]:
    """C2: the message in the target form; a list of text parts becomes a string, except for
    content_blocks, which always writes a list."""
    text = [{"type": "text", "text": "4"}]
    if target in ("reasoning_content", "reasoning"):
        return {"role": "assistant", "content": "4", target: "plan"}
    if target == "think_tags":
        return {"role": "assistant", "content": "<think>\nplan\n</think>\n\n4"}
    if target == "content_blocks":
        return {"role": "assistant", "content": [{"type": "thinking", "thinking": "plan"}, *text]}
    return {"role": "assistant", "content": "4"}


@pytest.mark.parametrize(
    "target", ["reasoning_content", "reasoning", "think_tags", "content_blocks", "none"]
)
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_source_to_every_target(source: str, target: str) -> None:
    # C1, C2
    trace = [USER, SOURCES[source]]
    before = copy.deepcopy(trace)
    out = convert_trace(trace, to=target)
    assert out == [USER, expected(target)]
    assert trace == before  # the input is untouched
    assert out[0] is not USER


def test_first_readable_source_wins_and_the_others_are_dropped() -> None:
    # C1: reasoning_content before reasoning before blocks before tags; all sources removed
    msg = {
        "role": "assistant",
        "reasoning_content": "one",
        "reasoning": "two",
        "content": [
            {"type": "thinking", "thinking": "three"},
            {"type": "text", "text": "<think>x</think>A"},
        ],
    }
    assert convert_trace([msg], to="reasoning") == [
        {
            "role": "assistant",
            "reasoning": "one",
            "content": "<think>x</think>A",
        }
    ]
    # a whitespace-only field is not readable: the next source is used
    msg2 = {"role": "assistant", "reasoning_content": "  ", "content": "<think>x</think>A"}
    assert convert_trace([msg2], to="reasoning_content") == [
        {"role": "assistant", "reasoning_content": "x", "content": "A"}
    ]


def test_several_blocks_join_with_blank_line() -> None:
    # P2, C1
    msg = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "a"},
            {"type": "redacted_thinking", "data": "xx"},
            {"type": "thinking", "thinking": " "},
            {"type": "thinking", "thinking": "b"},
            {"type": "text", "text": "X"},
        ],
    }
    assert convert_trace([msg], to="reasoning_content") == [
        {
            "role": "assistant",
            "content": [{"type": "redacted_thinking", "data": "xx"}, {"type": "text", "text": "X"}],
            "reasoning_content": "a\n\nb",
        }
    ]


def test_none_and_empty_reasoning() -> None:
    # C2: None writes nothing, "" writes an empty field, block or tag pair
    none = {"role": "assistant", "content": "4"}
    empty = {"role": "assistant", "content": "<think></think>4"}
    assert convert_trace([none], to="reasoning_content") == [{"role": "assistant", "content": "4"}]
    assert convert_trace([none], to="think_tags") == [{"role": "assistant", "content": "4"}]
    assert convert_trace([none], to="content_blocks") == [
        {"role": "assistant", "content": [{"type": "text", "text": "4"}]}
    ]
    assert convert_trace([empty], to="reasoning_content") == [
        {"role": "assistant", "content": "4", "reasoning_content": ""}
    ]
    assert convert_trace([empty], to="think_tags") == [
        {"role": "assistant", "content": "<think>\n\n</think>\n\n4"}
    ]
    assert convert_trace([empty], to="content_blocks") == [
        {
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": ""}, {"type": "text", "text": "4"}],
        }
    ]
    field = {"role": "assistant", "content": "4", "reasoning_content": ""}
    assert convert_trace([field], to="reasoning") == [
        {"role": "assistant", "content": "4", "reasoning": ""}
    ]


def test_tool_calls_and_tool_messages_are_kept() -> None:
    # C2
    call = {"id": "c1", "type": "function", "function": {"name": "add", "arguments": '{"a":2}'}}
    trace = [
        {"role": "system", "content": "sys"},
        USER,
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "call add",
            "tool_calls": [call],
        },
        {"role": "tool", "tool_call_id": "c1", "name": "add", "content": "4"},
        {"role": "assistant", "content": "<think>got it</think>4"},
    ]
    before = copy.deepcopy(trace)
    out = convert_trace(trace, to="think_tags")
    assert out == [
        {"role": "system", "content": "sys"},
        USER,
        {"role": "assistant", "content": "<think>\ncall add\n</think>\n\n", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "add", "content": "4"},
        {"role": "assistant", "content": "<think>\ngot it\n</think>\n\n4"},
    ]
    assert trace == before
    out[2]["tool_calls"][0]["id"] = "changed"  # no object is shared with the input
    assert trace == before
    assert convert_trace(trace, to="content_blocks")[2] == {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "call add"}],
        "tool_calls": [call],
    }
    assert convert_trace(trace, to="none")[2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [call],
    }


def _tool_loop() -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "q1"},
        {"role": "assistant", "content": "a1", "reasoning_content": "r1"},
        {"role": "user", "content": "q2"},
        {
            "role": "assistant",
            "content": "",
            "reasoning_content": "r2",
            "tool_calls": [{"id": "t"}],
        },
        {"role": "tool", "tool_call_id": "t", "content": "x"},
        {"role": "assistant", "content": "a2", "reasoning_content": "r3"},
    ]


@pytest.mark.parametrize(
    ("keep", "kept"),
    [("all", ["r1", "r2", "r3"]), ("last", [None, "r2", "r3"]), ("none", [None, None, None])],
)
def test_keep_modes(keep: str, kept: list[Optional[str]]) -> None:
    # C2: "last" = the assistant messages after the last user message (the tool loop included)
    out = convert_trace(_tool_loop(), to="reasoning", keep=keep)
    assert [m.get("reasoning") for m in out if m["role"] == "assistant"] == kept
    assert all("reasoning_content" not in m for m in out)


def test_keep_last_without_user_keeps_all() -> None:
    trace = [{"role": "assistant", "content": "<think>r</think>a"}]
    assert convert_trace(trace, to="reasoning", keep="last") == [
        {"role": "assistant", "content": "a", "reasoning": "r"}
    ]


def test_think_options_are_used() -> None:
    msg = {"role": "assistant", "content": "[THINK]r[/THINK]a"}
    assert convert_trace([msg], to="reasoning", delimiters=[("[THINK]", "[/THINK]")]) == [
        {"role": "assistant", "content": "a", "reasoning": "r"}
    ]
    # code-aware (T5): a tag inside code is not reasoning
    code = {"role": "assistant", "content": "Use `<think>x</think>` tags."}
    assert convert_trace([code], to="reasoning") == [code]


def test_sdk_objects_are_read() -> None:
    class Msg:
        def model_dump(self) -> dict[str, Any]:
            return {"role": "assistant", "content": "<think>r</think>a"}

    assert convert_trace([Msg()], to="reasoning_content") == [
        {"role": "assistant", "content": "a", "reasoning_content": "r"}
    ]


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "message"),
    [
        (
            ["x"],
            {"to": "reasoning"},
            TypeError,
            "messages must be a sequence of chat messages, not str",
        ),
        (
            [{"role": "user"}],
            {"to": "reasoning"},
            TypeError,
            "messages must be a sequence of chat messages, not dict",
        ),
        (
            [[USER, 3]],
            {"to": "reasoning"},
            TypeError,
            "messages[1] must be a Mapping (a chat message), not int",
        ),
        ([[]], {"to": "tags"}, ValueError, "to must be one of"),
        ([[]], {"to": "reasoning", "keep": "first"}, ValueError, "keep must be one of"),
        ([[]], {"to": "reasoning", "max_tentative": -1}, ValueError, "max_tentative"),
        (
            [[USER, USER, USER, {"role": "assistant", "content": 5}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[3].content: expected a string, an array or null, got a number",
        ),
        (
            [[{"role": "assistant", "content": [{"type": "text", "text": 1}]}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[0].content[0].text: expected a string or null, got a number",
        ),
        (
            [[{"role": "assistant", "content": [7]}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[0].content[0]: expected an object or a string, got a number",
        ),
        (
            [[{"role": "assistant", "content": "a", "reasoning_content": ["x"]}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[0].reasoning_content: expected a string or null, got an array",
        ),
        (
            [[{"role": "assistant", "content": "a", "reasoning_details": {"a": 1}}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[0].reasoning_details: expected an array or null, got an object",
        ),
        (
            [[{"role": "assistant", "content": [{"type": "thinking", "thinking": [3]}]}]],
            {"to": "reasoning"},
            ResponseShapeError,
            "messages[0].content[0].thinking[0]: expected an object, got a number",
        ),
    ],
)
def test_bad_input(args: list[Any], kwargs: dict[str, Any], exc: type, message: str) -> None:
    # C1, P8: a malformed field raises the ResponseShapeError reasoning_from_trace raises for it
    # (a ValueError too), its path first
    with pytest.raises(exc) as info:
        convert_trace(*args, **kwargs)
    assert message in str(info.value)
    if exc is ResponseShapeError:
        assert str(info.value).startswith(f"{info.value.path}: ")
        assert isinstance(info.value, ValueError)


# --- C3: the round trip ------------------------------------------------------------------------
WORDS = st.sampled_from(
    [
        "plan",
        "x = 1",
        "a < b",
        "`<think>`",
        "\n```\n<think>no</think>\n```\n",
        "Ünïcode",
        "2+2",
        "tab\there",
    ]
)
TEXT = st.lists(WORDS, min_size=1, max_size=4).map(lambda ws: " ".join(ws).strip())
# C3's premise: reasoning holds no closer of its own (inside a block, code does not hide one).
PLAIN = st.lists(WORDS.filter(lambda w: "think" not in w), min_size=1, max_size=4).map(" ".join)
REASONING = st.one_of(st.none(), st.just(""), PLAIN)


@st.composite
def assistant(draw: Any) -> dict[str, Any]:
    """One assistant message with stripped, tag-free reasoning in a random representation."""
    reasoning = draw(REASONING)
    visible = draw(TEXT | st.just(""))
    multimodal = draw(st.booleans())
    kind = draw(
        st.sampled_from(
            ["reasoning_content", "reasoning", "tags", "template", "blocks", "chunks", "whitespace"]
        )
    )
    msg: dict[str, Any] = {"role": "assistant"}
    text = visible
    blocks: list[dict[str, Any]] = []
    if reasoning is not None:
        if kind in ("reasoning_content", "reasoning"):
            msg[kind] = reasoning
        elif kind == "whitespace":
            msg["reasoning_content"] = reasoning or " \n "
        elif kind == "tags":
            text = f"<think>{reasoning}</think>\n{visible}"
        elif kind == "template" and reasoning:
            text = f"{reasoning}\n</think>\n\n{visible}"
        elif kind == "blocks":
            blocks = [{"type": "thinking", "thinking": reasoning, "signature": "s"}]
        else:
            msg["reasoning"] = reasoning
    if kind == "chunks" and reasoning:
        msg.pop("reasoning")
        blocks = [{"type": "thinking", "thinking": [{"type": "text", "text": reasoning}]}]
    if blocks or multimodal:
        msg["content"] = [*blocks, {"type": "text", "text": text}, *([IMAGE] if multimodal else [])]
    else:
        msg["content"] = text
    return msg


@st.composite
def traces(draw: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 3))):
        out.append({"role": "user", "content": draw(TEXT)})
        out.append(draw(assistant()))
        if draw(st.booleans()):
            out.append({"role": "tool", "tool_call_id": "t", "content": "{}"})
            out.append(draw(assistant()))
    return out


def pairs(trace: list[dict[str, Any]]) -> list[tuple[Optional[str], str]]:
    """(reasoning, visible) of each assistant message, as convert_trace reads them."""
    opts = {"start_in_reasoning": "auto"}
    return [read_message(m, "m", opts)[:2] for m in trace if m["role"] == "assistant"]


LOSSLESS = ["reasoning_content", "reasoning", "think_tags", "content_blocks"]


@settings(max_examples=150, deadline=None)
@given(traces(), st.sampled_from(LOSSLESS), st.sampled_from(LOSSLESS))
def test_round_trip(trace: list[dict[str, Any]], a: str, b: str) -> None:
    # C3: to A then to B equals straight to B, for lossless A, B and keep="all"
    before = copy.deepcopy(trace)
    direct = convert_trace(trace, to=b)
    via = convert_trace(convert_trace(trace, to=a), to=b)
    assert pairs(via) == pairs(direct)
    assert pairs(convert_trace(trace, to=a)) == pairs(direct)
    assert trace == before
    # converting to the form a message is already in changes nothing more
    assert convert_trace(direct, to=b) == direct


@settings(max_examples=60, deadline=None)
@given(traces())
def test_none_target_drops_every_reasoning(trace: list[dict[str, Any]]) -> None:
    # C2: "none" keeps the visible text and writes no reasoning anywhere
    out = convert_trace(trace, to="none")
    assert [r for r, _ in pairs(out)] == [None] * len(pairs(out))
    assert [v for _, v in pairs(out)] == [v for _, v in pairs(trace)]
