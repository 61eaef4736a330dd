"""Inline reasoning gives one block per extracted block, one-shot and streamed alike (X1).

``<think>`` blocks are found with the scanner's public state while it releases the text, so a
block whose text holds blank lines stays one block; harmony gives one block per analysis message.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer, normalize


def chat(content: str, model: str = "some-model") -> dict[str, Any]:
    return {"model": model, "choices": [{"index": 0, "message": {"role": "assistant",
                                                               "content": content}}]}


def streamed(content: str, size: int, **options: Any) -> StreamNormalizer:
    sn = StreamNormalizer(**options)
    sn.feed({"model": "some-model", "choices": [{"index": 0, "delta": {"role": "assistant"}}]})
    for i in range(0, len(content), size):
        sn.feed({"choices": [{"index": 0, "delta": {"content": content[i : i + size]}}]})
    sn.close()
    return sn


THREE = (
    "<think>\nFirst block.\n\nIt has a blank line.\n</think>\n"
    "Part one. <think>Second\n\n\nblock, two blank lines</think> Part two."
    "<think>  </think><think>third</think>end"
)


def test_one_block_per_think_block_with_blank_lines_inside() -> None:
    # X1: inline tags -> one block per extracted block, wire == {}
    x = normalize(chat(THREE))
    assert [b.text for b in x.blocks] == [
        "First block.\n\nIt has a blank line.",
        "Second\n\n\nblock, two blank lines",
        "third",
    ]
    assert all(b.kind == "text" and b.wire == {} and b.signature is None for b in x.blocks)
    assert all(b.provider == "openai_chat" for b in x.blocks)
    assert x.format == "tags"
    assert x.reasoning == (
        "First block.\n\nIt has a blank line.\n\nSecond\n\n\nblock, two blank lines\n\nthird"
    )


def test_streams_give_the_one_shot_blocks_for_every_chunk_size() -> None:
    # X1: a stream yields the same blocks as the equivalent non-streamed response
    want = [b.text for b in normalize(chat(THREE)).blocks]
    for size in (1, 2, 3, 5, 8, 13, len(THREE)):
        sn = streamed(THREE, size)
        assert [b.text for b in sn.result.blocks] == want, size
        assert all(b.wire == {} for b in sn.result.blocks)


def test_leading_reasoning_before_an_orphan_closer_is_the_first_block() -> None:
    # T10 "auto" in one-shot: the text before an orphan closer is a block of its own
    x = normalize(chat("plan A\n\nplan B</think>Answer <think>check</think> done"))
    assert [b.text for b in x.blocks] == ["plan A\n\nplan B", "check"]
    assert x.reasoning == "plan A\n\nplan B\n\ncheck"


def test_stream_started_in_reasoning_splits_the_same_blocks() -> None:
    text = "plan A\n\nplan B</think>Answer <think>check</think> done"
    sn = streamed(text, 4, start_in_reasoning=True)
    assert [b.text for b in sn.result.blocks] == ["plan A\n\nplan B", "check"]


def test_no_markup_no_blocks() -> None:
    assert normalize(chat("1 < 2 and 3 > 2, no tags")).blocks == ()
    assert streamed("1 < 2 and 3 > 2, no tags", 3).result.blocks == ()


def test_harmony_one_block_per_analysis_message() -> None:
    # X1: harmony -> one block per analysis message (blank lines inside one stay in it)
    h = (
        "<|channel|>analysis<|message|>A one.\n\nA two.<|end|>"
        "<|start|>assistant<|channel|>commentary<|message|>tool talk<|end|>"
        "<|start|>assistant<|channel|>analysis<|message|>B.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Hi<|return|>"
    )
    x = normalize(chat(h))
    assert x.format == "harmony"
    assert [b.text for b in x.blocks] == ["A one.\n\nA two.", "B."]
    assert x.reasoning == "A one.\n\nA two.\n\nB."
    for size in (1, 4, 9, len(h)):
        assert [b.text for b in streamed(h, size).result.blocks] == ["A one.\n\nA two.", "B."]


def test_harmony_stripped_form() -> None:
    x = normalize(chat("analysisfirst thoughtassistantfinalThe answer"))
    assert [b.text for b in x.blocks] == ["first thought"]
    assert x.visible == "The answer"


def test_the_split_options_are_used_for_the_blocks_too() -> None:
    # W4 + X1: the blocks are found with the options the reasoning was split with
    text = "[THINK]one\n\none more[/THINK]answer[THINK]two[/THINK]"
    x = normalize(chat(text), delimiters=[("[THINK]", "[/THINK]")])
    assert [b.text for b in x.blocks] == ["one\n\none more", "two"]
    sn = streamed(text, 3, delimiters=[("[THINK]", "[/THINK]")])
    assert [b.text for b in sn.result.blocks] == ["one\n\none more", "two"]
    assert normalize(chat(text)).blocks == ()  # default options: no markup


block_text = st.lists(
    st.sampled_from(["word", " ", "\n", "\n\n", "x<y", "a > b", "`code`"]), min_size=1,
    max_size=6,
).map("".join)


@settings(max_examples=80, deadline=None)
@given(
    blocks=st.lists(block_text, min_size=1, max_size=4),
    answers=st.lists(st.sampled_from(["Answer.", "\n\n", "ok ", ""]), min_size=4, max_size=4),
    size=st.integers(1, 12),
)
def test_blocks_join_to_the_reasoning_and_streams_agree(
    blocks: list[str], answers: list[str], size: int
) -> None:
    # X1: one block per non-empty <think> block, in order; streams equal one-shot
    text = "".join(f"<think>{b}</think>{a}" for b, a in zip(blocks, answers))
    x = normalize(chat(text))
    got = [b.text for b in x.blocks]
    assert got == [b.strip() for b in blocks if b.strip()]
    if got:
        assert x.reasoning is not None
        for g in got:
            assert g in x.reasoning
    assert [b.text for b in streamed(text, size).result.blocks] == got
