"""Property tests for the ``<think>`` scanner (docs/behaviour.md#t1 and #s1).

Texts are built from an alphabet of tag-like fragments so that tags, near-misses, code markers and
whitespace collide often; options and chunkings (cut points, empty chunks included) are random.

* S1: any chunking gives the one-shot result of the same implementation, which equals
  ``split_think`` (active implementation).
* S5: the compiled and the pure-Python scanner return equal deltas, call by call.
* T8: a text without tags comes back identical, with no reasoning.
* T8/T9: reasoning is stripped and never holds empty joins.
* S6: adversarial families (runs of tag prefixes, backticks, brackets) are handled correctly.

Option sets include terminators (F2) and answer wrappers (F3), so every property above covers them.
"""

from __future__ import annotations

from typing import Any, Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from think_cases import one_shot

import thinkparse._scanner_py as scanner_py
from thinkparse import split_think

FRAGMENTS = [
    "<think>", "</think>", "<", "</", "<th", ">", "/>", "<think/>", "<THINK>", '<think a="b">',
    "</think >", "<thinking>", "</thinking>", "<think />", "`", "```", "~~~", "\n", " ", "   ",
    "\t", "\r\n", "\u00a0", "\u2028", "\u200b", "\u00e9", "\U0001f600", "[THINK]", "[/THINK]",
    "[", "[[", "]]", "plan", "Answer", "x", "a b",
    # F2 terminators, F3 answer wrappers
    "<tool_call>", "<tool_", "[TC]", "<answer>", "</answer>", "<ans", "[A]", "[/A]",
]
NO_LF_FRAGMENTS = [f for f in FRAGMENTS if "\n" not in f]

TAGS = [None, "think", ("think", "thinking"), ("THINK",), ("thinking",)]
DELIMITERS: list[Any] = [
    (),
    (("[THINK]", "[/THINK]"),),
    (("[THINK]", "[/THINK]"), ("[[", "]]")),
]
CAPS = [None, 1, 2, 3, 5, 8, 20, 8192]
TERMINATORS: list[Any] = [(), ("<tool_call>",), ("<tool_call>", "[TC]"), ("<",)]
ANSWERS: list[Any] = [
    (), (("<answer>", "</answer>"),), (("[A]", "[/A]"), ("<answer>", "</answer>")),
]
PROMPTS = [None, None, "<think>", "x<think>y</think>", "[THINK]"]

SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def tag_texts(fragments: list[str] = FRAGMENTS, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(fragments), max_size=max_size).map("".join)


texts = st.one_of(tag_texts(), tag_texts(max_size=8), st.text(max_size=30))


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "tags": draw(st.sampled_from(TAGS)),
        "delimiters": draw(st.sampled_from(DELIMITERS)),
        "code_aware": draw(st.booleans()),
        "max_tentative": draw(st.sampled_from(CAPS)),
        "terminators": draw(st.sampled_from(TERMINATORS)),
        "answer": draw(st.sampled_from(ANSWERS)),
    } | ({"start_in_reasoning": draw(st.booleans())} if draw(st.booleans()) else
         {"prompt": draw(st.sampled_from(PROMPTS))})


@st.composite
def cut(draw: st.DrawFn, text: str) -> list[str]:
    """Random chunks of ``text`` (repeated cut points give empty chunks)."""
    points = sorted(draw(st.lists(st.integers(0, len(text)), max_size=16)))
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


def run(cls: Any, options: dict[str, Any], chunks: list[str]) -> tuple[str, Optional[str]]:
    scanner = cls(**options)
    visible = reasoning = ""
    for chunk in chunks:
        v, r = scanner.feed(chunk)
        visible += v
        reasoning += r
    v, r = scanner.close()
    return visible + v, (reasoning + r) if scanner.had_block else None


@SETTINGS
@given(data=st.data(), text=texts, options=option_sets())
def test_s1_any_chunking(scanner_cls: Any, data: st.DataObject, text: str,
                         options: dict[str, Any]) -> None:
    # S1: any chunking == one-shot of the same implementation == split_think
    whole = one_shot(scanner_cls, text, options)
    chunks = data.draw(cut(text))
    assert run(scanner_cls, options, chunks) == whole
    split = split_think(text, **options)
    assert (split.visible, split.reasoning) == whole


@SETTINGS
@given(data=st.data(), text=texts, options=option_sets())
def test_s5_implementations_agree(compiled_cls: Any, data: st.DataObject, text: str,
                                  options: dict[str, Any]) -> None:
    # S5: equal deltas call by call (and equal end state used by split_think)
    chunks = data.draw(cut(text))
    py = scanner_py.ThinkScanner(**options)
    c = compiled_cls(**options)
    for chunk in chunks:
        assert tuple(c.feed(chunk)) == tuple(py.feed(chunk)), chunk
    assert tuple(c.close()) == tuple(py.close())
    assert bool(c.had_block) == bool(py.had_block)
    assert c.orphan_at == py.orphan_at
    assert c.reasoning_closed == py.reasoning_closed  # F7


# T8: text without '<' and without delimiter characters.
plain_texts = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="<["), max_size=60),
    tag_texts([f for f in FRAGMENTS if "<" not in f and "[" not in f]),
)


@SETTINGS
@given(data=st.data(), text=plain_texts, code_aware=st.booleans(),
       delimiters=st.sampled_from(DELIMITERS[:2]), cap=st.sampled_from(CAPS))
def test_t8_no_tags_identical(scanner_cls: Any, data: st.DataObject, text: str,
                              code_aware: bool, delimiters: Any, cap: Optional[int]) -> None:
    # T8: "A text with no tags comes back identical"; T9: reasoning None
    options = {"code_aware": code_aware, "delimiters": delimiters, "max_tentative": cap,
               "tags": "think"}
    assert run(scanner_cls, options, data.draw(cut(text))) == (text, None)
    split = split_think(text, **options)
    assert (split.visible, split.reasoning) == (text, None)


@SETTINGS
@given(text=texts, options=option_sets())
def test_t8_reasoning_stripped(scanner_cls: Any, text: str, options: dict[str, Any]) -> None:
    # T8: each block is stripped; T9: joined with "\n\n", empty blocks skipped
    _, reasoning = one_shot(scanner_cls, text, options)
    if reasoning is not None:
        assert reasoning == reasoning.strip()


@SETTINGS
@given(data=st.data(), text=tag_texts(NO_LF_FRAGMENTS), options=option_sets())
def test_t9_no_empty_joins(scanner_cls: Any, data: st.DataObject, text: str,
                           options: dict[str, Any]) -> None:
    # T9: with no LF in the input every LF of the reasoning comes from a "\n\n" separator,
    # and every joined part is a non-empty stripped block
    _, reasoning = run(scanner_cls, options, data.draw(cut(text)))
    if reasoning:
        for part in reasoning.split("\n\n"):
            assert part
            assert part == part.strip()
            assert "\n" not in part


# S6: units that can never complete a tag or delimiter (no '>', ']' or delimiter close).
UNITS = ["<", "<<", "<think", "</", "</think", "<think a=", "</think  ", "<think/", "<th", "`",
         "``", "```", "~", "~~~", "[THINK", "[/THINK", "[", "\n", " ", "x"]


@st.composite
def adversarial(draw: st.DrawFn) -> str:
    runs = draw(st.lists(st.tuples(st.sampled_from(UNITS), st.integers(1, 400)),
                         min_size=1, max_size=4))
    return "".join(unit * count for unit, count in runs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), text=adversarial(), sir=st.booleans(), code_aware=st.booleans(),
       delimiters=st.sampled_from(DELIMITERS[:2]), cap=st.sampled_from(CAPS))
def test_s6_adversarial_families(scanner_cls: Any, data: st.DataObject, text: str, sir: bool,
                                 code_aware: bool, delimiters: Any,
                                 cap: Optional[int]) -> None:
    # S6 (correctness): no tag can complete, so the text is all visible (T8) or, in a
    # start_in_reasoning block that never closes, all reasoning (T6, T7)
    options = {"start_in_reasoning": sir, "code_aware": code_aware, "delimiters": delimiters,
               "max_tentative": cap, "tags": "think"}
    expected = ("", text.strip()) if sir else (text, None)
    assert run(scanner_cls, options, data.draw(cut(text))) == expected
