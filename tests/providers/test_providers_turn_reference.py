"""The kept turn is the caller's response, by reference, built on first use (X1, X2).

normalize() does not copy the response (a copy would cost more than normalize of a typical dict);
blocks and messages are copies once built.  These tests pin that decision down.
"""

from __future__ import annotations

import copy
from typing import Any

from thinkparse import ReasoningContext, normalize, to_message


def anthropic() -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "thinking", "thinking": "t", "signature": "sig"},
            {"type": "text", "text": "answer"},
        ],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 3, "output_tokens": 5},
    }


def test_blocks_read_before_a_change_are_a_copy() -> None:
    # X1: once built, blocks (and each wire, copied per access) are the caller's no more
    r = anthropic()
    ex = normalize(r)
    assert [b.text for b in ex.blocks] == ["t"]
    r["content"][0]["thinking"] = "CHANGED"
    r["content"][0]["signature"] = "other"
    assert [b.text for b in ex.blocks] == ["t"]
    assert ex.blocks[0].wire == {"type": "thinking", "thinking": "t", "signature": "sig"}
    assert ex.blocks[0].signature == "sig"
    w = ex.blocks[0].wire
    w["thinking"] = "mine"
    assert ex.blocks[0].wire["thinking"] == "t"


def test_messages_are_new_objects() -> None:
    # X2: a message shares nothing with the response; taken before a change, it keeps
    r = anthropic()
    ex = normalize(r)
    m = to_message(ex)
    assert m == {"role": "assistant", "content": copy.deepcopy(r["content"])}
    r["content"][0]["thinking"] = "CHANGED"
    assert m["content"][0]["thinking"] == "t"
    m["content"][1]["text"] = "edited"
    assert r["content"][1]["text"] == "answer"


def test_a_change_before_first_use_shows_in_the_turn() -> None:
    # Decision (providers/_turn.py): the response is kept by reference; the turn is built
    # from it on first use, so a change made before then shows in blocks and message, while
    # the figures normalize returned stay as they were.
    r = anthropic()
    ex = normalize(r)
    r["content"][0]["thinking"] = "CHANGED"
    assert ex.reasoning == "t"
    assert [b.text for b in ex.blocks] == ["CHANGED"]
    assert to_message(ex)["content"][0]["thinking"] == "CHANGED"  # type: ignore[index]


def test_reasoning_context_takes_its_copies_at_update() -> None:
    # X3-style callers: update() builds blocks and message at once, so reusing the response
    # object afterwards changes nothing kept
    r = anthropic()
    ctx = ReasoningContext()
    ctx.update(normalize(r))
    r["content"][0]["thinking"] = "CHANGED"
    r["content"][0]["signature"] = "other"
    seg = ctx.segments[0]
    assert [b.text for b in seg.blocks] == ["t"]
    assert seg.message["content"][0] == {"type": "thinking", "thinking": "t",  # type: ignore[index]
                                         "signature": "sig"}
