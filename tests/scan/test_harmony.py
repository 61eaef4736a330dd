"""gpt-oss harmony markup: ``split_harmony`` and the incremental harmony scanner (P3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import Split, split_harmony
from thinkparse.scan._harmony import HarmonyScanner, looks_like_harmony

FULL = (
    "<|channel|>analysis<|message|>User greets. Reply politely.<|end|>"
    "<|start|>assistant<|channel|>final<|message|>Hello! How can I help?<|return|>"
)


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        # completion starting after the prompt's <|start|>assistant
        (FULL, "Hello! How can I help?", "User greets. Reply politely."),
        # with the leading <|start|>assistant
        ("<|start|>assistant" + FULL, "Hello! How can I help?", "User greets. Reply politely."),
        # several analysis messages join with a blank line, each stripped
        ("<|channel|>analysis<|message|> a \n<|end|><|start|>assistant<|channel|>analysis"
         "<|message|>\nb<|end|><|start|>assistant<|channel|>final<|message|>F<|return|>",
         "F", "a\n\nb"),
        # final only
        ("<|channel|>final<|message|>Just this.<|return|>", "Just this.", None),
        # no stop token: the message runs to the end of the text
        ("<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final"
         "<|message|>cut", "cut", "think"),
        # truncated inside analysis
        ("<|channel|>analysis<|message|>still thinking", "", "still thinking"),
        # commentary preamble and tool call are neither
        ("<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant"
         "<|channel|>commentary<|message|>Let me check.<|end|><|start|>assistant"
         "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
         "{\"city\":\"Paris\"}<|call|>", "", "Need weather."),
        # recipient in the header before the channel
        ("<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
         "<|start|>assistant<|channel|>final<|message|>ok<|return|>", "ok", None),
        # an empty analysis message: reasoning "" (present but empty, as T9)
        ("<|channel|>analysis<|message|>  <|end|><|start|>assistant<|channel|>final"
         "<|message|>x<|return|>", "x", ""),
        # a message without a channel is visible
        ("<|start|>assistant<|message|>plain<|end|>", "plain", None),
        # a message ended by the next <|start|> without <|end|>
        ("<|channel|>analysis<|message|>a<|start|>assistant<|channel|>final<|message|>b",
         "b", "a"),
        # text before the first token that is a body (ended by <|end|>)
        ("Hello<|end|>", "Hello", None),
        # a role name before <|channel|> is header text
        ("assistant<|channel|>final<|message|>Hi", "Hi", None),
    ],
)
def test_split_harmony_tokens(text: str, visible: str, reasoning: str | None) -> None:
    # P3: analysis -> reasoning (joined "\n\n"), final -> visible, commentary -> neither
    assert split_harmony(text) == Split(visible, reasoning)


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        ("analysisThe user greets.assistantfinalHello!", "Hello!", "The user greets."),
        ("  analysis a assistantanalysis b assistantfinal c ", "c", "a\n\nb"),
        ("analysisx assistantcommentary to=functions.f json{}assistantfinaly", "y", "x"),
    ],
)
def test_split_harmony_stripped_tokens(text: str, visible: str, reasoning: str) -> None:
    # P3: with special tokens stripped: analysis...assistantfinal...
    assert split_harmony(text) == Split(visible, reasoning)


@pytest.mark.parametrize(
    "text", ["plain text\n", "analysis without the final marker", "a <| b", ""]
)
def test_text_without_markup_unchanged(text: str) -> None:
    # P3 (decision): no harmony markup -> the text comes back unchanged, reasoning None
    assert split_harmony(text) == Split(text, None)


def test_type_error() -> None:
    # docs/behaviour.md#a1: a non-str text raises TypeError
    with pytest.raises(TypeError):
        split_harmony(b"x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (FULL, True),
        ("x<|message|>y", True),
        ("analysisAassistantfinalB", True),
        ("  analysis\nA assistantfinal B", True),
        ("Analysis: assistantfinal", False),
        ("a<|return|>", False),
        ("plain", False),
    ],
)
def test_looks_like_harmony(text: str, expected: bool) -> None:
    # P3: harmony is recognised by <|channel|> / <|message|>, or analysis...assistantfinal
    assert looks_like_harmony(text) is expected


def _scan(chunks: list[str]) -> tuple[str, str, HarmonyScanner]:
    sc = HarmonyScanner()
    vis, rea = [], []
    for c in chunks:
        v, r = sc.feed(c)
        vis.append(v)
        rea.append(r)
    v, r = sc.close()
    return "".join(vis) + v, "".join(rea) + r, sc


def test_scanner_holds_only_a_token_prefix() -> None:
    # P9: text is released promptly; only a possible token prefix is held
    sc = HarmonyScanner()
    assert sc.feed("<|channel|>final<|message|>Hel") == ("Hel", "")
    assert sc.feed("lo <|en") == ("lo ", "")
    assert sc.feed("d|>") == ("", "")


def test_scanner_analysis_whitespace_and_separator() -> None:
    # S3, P3: analysis messages are stripped; the separator precedes the second's first char
    sc = HarmonyScanner()
    assert sc.feed("<|channel|>analysis<|message|>  a ") == ("", "a")
    assert sc.feed(" b  ") == ("", "  b")
    assert sc.feed("<|end|><|start|>assistant<|channel|>analysis<|message|>\n") == ("", "")
    assert sc.feed("c") == ("", "\n\nc")
    assert sc.close() == ("", "")


def test_scanner_plain_text_released_at_close() -> None:
    # decision: text before any token is held until a token says what it is
    sc = HarmonyScanner()
    assert sc.feed("plain") == ("", "")
    assert sc.close() == ("plain", "")


harmony_pieces = st.sampled_from([
    "<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|return|>", "<|call|>",
    "<|constrain|>", "analysis", "final", "commentary", "assistant", " to=functions.f ", "json",
    "a", " ", "\n", "<", "|", ">", "<|", "x",
])


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(harmony_pieces, max_size=16),
    cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=8),
)
def test_scanner_matches_split_harmony(pieces: list[str], cuts: list[int]) -> None:
    # P3, P9: any chunking of the text gives split_harmony's result (visible up to stripping)
    text = "".join(pieces)
    if "<|" not in text or not any(t in text for t in (
            "<|start|>", "<|channel|>", "<|message|>", "<|end|>", "<|return|>", "<|call|>",
            "<|constrain|>")):
        text = "<|channel|>final<|message|>" + text  # the scanner handles the token form
    points = sorted({c % (len(text) + 1) for c in cuts})
    chunks, prev = [], 0
    for p in points:
        chunks.append(text[prev:p])
        prev = p
    chunks.append(text[prev:])
    visible, reasoning, sc = _scan(chunks)
    expected = split_harmony(text)
    assert visible.strip() == expected.visible
    assert reasoning == (expected.reasoning or "")
    assert sc.had_block is (expected.reasoning is not None)
