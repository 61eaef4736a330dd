"""Chat traces: ``reasoning_from_trace`` and ``split_trace`` (P10)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from thinkparse import ResponseShapeError, reasoning_from_trace, split_trace

USER = {"role": "user", "content": "2+2?"}


def assistant(**fields: Any) -> dict[str, Any]:
    return {"role": "assistant", **fields}


# --- reasoning_from_trace -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (assistant(content="4", reasoning_content="  add them \n"), "add them"),
        (assistant(content="4", reasoning="add"), "add"),
        (assistant(content="4", thinking="add"), "add"),  # Ollama (C1)
        (assistant(content="4", reasoning_content=" ", reasoning="r"), "r"),
        (assistant(content=[{"type": "thinking", "thinking": "t1", "signature": "s"},
                            {"type": "tool_use", "id": "x", "name": "f", "input": {}},
                            {"type": "thinking", "thinking": " t2 "},
                            {"type": "text", "text": "4"}]), "t1\n\nt2"),
        (assistant(content=[{"type": "thinking", "thinking": [{"type": "text", "text": "m"}]},
                            {"type": "text", "text": "4"}]), "m"),
        (assistant(content="<think>\nplan\n</think>\n\n4"), "plan"),
        (assistant(content="plan</think>4"), "plan"),  # "auto" (T10)
        (assistant(content=[{"type": "text", "text": "<think>p</think>"},
                            {"type": "text", "text": "4"}]), "p"),
        (assistant(content="4", reasoning_details=[
            {"type": "reasoning.text", "text": "a", "index": 0},
            {"type": "reasoning.text", "text": "b", "index": 1}]), "a\n\nb"),
        (assistant(content="4"), None),
        (assistant(content="<think> \n</think>4"), None),
        (assistant(content=None, tool_calls=[{"id": "c"}]), None),
        (assistant(content="4", reasoning_content=""), None),
    ],
)
def test_reasoning_sources(message: dict[str, Any], expected: str | None) -> None:
    # P10, C1: reasoning_content, reasoning, thinking, reasoning_details, thinking blocks or
    # inline tags ("auto"), stripped
    assert reasoning_from_trace([USER, message]) == expected


def test_final_assistant_message_is_used() -> None:
    # P10: the reasoning of the final assistant message, not of earlier ones
    trace = [USER, assistant(content="<think>old</think>1"), USER,
             assistant(content="2", reasoning_content="new"), {"role": "tool", "content": "x"}]
    assert reasoning_from_trace(trace) == "new"


def test_final_assistant_without_reasoning_hides_earlier_reasoning() -> None:
    # P10: the final assistant message has none -> None
    assert reasoning_from_trace([assistant(content="1", reasoning="r"), USER,
                                 assistant(content="2")]) is None


def test_no_assistant_message() -> None:
    # P10
    assert reasoning_from_trace([USER]) is None
    assert reasoning_from_trace([]) is None


def test_field_precedence_over_tags() -> None:
    # P10, P4: reasoning_content wins over inline tags
    assert reasoning_from_trace([assistant(content="<think>t</think>x",
                                           reasoning_content="f")]) == "f"


def test_trace_shape_errors() -> None:
    # P8 applied to traces: the path names the message
    with pytest.raises(ResponseShapeError) as info:
        reasoning_from_trace([USER, assistant(reasoning_content=5)])
    assert info.value.path == "messages[1].reasoning_content"
    with pytest.raises(ResponseShapeError) as info:
        reasoning_from_trace([assistant(content=7)])
    assert info.value.path == "messages[0].content"


@pytest.mark.parametrize("bad", ["text", {"role": "user"}, 5, None])
def test_trace_must_be_a_sequence(bad: Any) -> None:
    # docs/behaviour.md#a1: bad argument type
    with pytest.raises(TypeError):
        reasoning_from_trace(bad)
    with pytest.raises(TypeError):
        split_trace(bad)


def test_message_must_be_a_mapping() -> None:
    # P7: a message that is neither a mapping nor a model names its index
    with pytest.raises(TypeError, match=r"messages\[1\]"):
        reasoning_from_trace([USER, "assistant: hi"])


class Msg:
    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        return self.d


def test_sdk_message_objects() -> None:
    # P7: messages may be SDK objects
    assert reasoning_from_trace([Msg(assistant(content="x", reasoning="r"))]) == "r"
    assert split_trace([Msg(assistant(content="<think>r</think>x"))]) == [
        assistant(content="x", reasoning_content="r")]


# --- split_trace ---------------------------------------------------------------------------------
def test_split_trace_moves_inline_reasoning() -> None:
    # P10: content = visible, reasoning_content = extracted reasoning; others copied as is
    trace = [
        {"role": "system", "content": "<think>not an assistant</think>"},
        USER,
        assistant(content="<think>\nplan\n</think>\n\nAnswer."),
        {"role": "tool", "tool_call_id": "c", "content": "<think>x</think>"},
        assistant(content="plain"),
    ]
    original = copy.deepcopy(trace)
    out = split_trace(trace)
    assert out == [
        {"role": "system", "content": "<think>not an assistant</think>"},
        USER,
        assistant(content="Answer.", reasoning_content="plan"),
        {"role": "tool", "tool_call_id": "c", "content": "<think>x</think>"},
        assistant(content="plain"),
    ]
    assert trace == original  # inputs untouched
    assert out is not trace and all(a is not b for a, b in zip(out, trace))


def test_split_trace_keeps_a_message_whose_field_wins() -> None:
    # P10, P4, C1: a readable reasoning_content wins over inline tags, as in reasoning_from_trace
    # and convert_trace; the content is kept as it is, tags included (it used to be split and
    # its reasoning appended, which gave the three functions three different readings)
    msg = assistant(content="<think>new</think>A", reasoning_content="old")
    assert split_trace([msg]) == [msg]
    assert reasoning_from_trace(split_trace([msg])) == reasoning_from_trace([msg]) == "old"


def test_split_trace_replaces_blank_reasoning_content() -> None:
    # P10 (decision): a whitespace-only reasoning_content is replaced
    out = split_trace([assistant(content="<think>new</think>A", reasoning_content=" ")])
    assert out == [assistant(content="A", reasoning_content="new")]


def test_split_trace_auto_by_default() -> None:
    # P10 (decision): "auto" by default, so reasoning...</think>answer is recovered
    assert split_trace([assistant(content="plan</think>\n\nA")]) == [
        assistant(content="A", reasoning_content="plan")]


def test_split_trace_options() -> None:
    # P10: think options are passed to split_think
    out = split_trace([assistant(content="<thinking>t</thinking>A")], tags="thinking")
    assert out == [assistant(content="A", reasoning_content="t")]
    out = split_trace([assistant(content="plan</think>A")], start_in_reasoning=False)
    assert out == [assistant(content="planA")]


def test_split_trace_empty_block_changes_content_only() -> None:
    # P10 (decision): an empty block removes the tags but adds no reasoning_content
    assert split_trace([assistant(content="<think></think>\nA")]) == [assistant(content="A")]


def test_split_trace_list_content_untouched() -> None:
    # P10: only string content is split
    msg = assistant(content=[{"type": "text", "text": "<think>t</think>x"}])
    assert split_trace([msg]) == [msg]


def test_split_trace_invalid_option() -> None:
    # docs/behaviour.md#a1: invalid options raise ValueError even for an empty trace
    with pytest.raises(ValueError):
        split_trace([], tags="")
