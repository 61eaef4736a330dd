"""Streaming contract of ``ThinkScanner`` (docs/behaviour.md#s1, S1-S7), on both implementations.

* S1: every row of the rule tables (``test_think_rules.py``) is fed whole, one character at a
  time, at every two-way split, at every chunk size 1..8 at every offset, and with empty chunks
  interleaved; the concatenated deltas plus ``close()`` must equal the row's hand-derived result.
* S2/S3/S4: exact deltas, call by call, where docs/behaviour.md says what is released.
* S6: adversarial inputs give correct results (no timing assertions here).
* S7: the fast path returns the chunk object itself, and only when all its conditions hold.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, Optional

import pytest
from think_cases import ALL_CASES, MAGISTRAL, SIR, Case, one_shot

from thinkparse import Delta, split_think

# Texts longer than this get a reduced (still varied) set of chunkings.
LONG = 600


def _sized(text: str, size: int, offset: int) -> list[str]:
    return [text[:offset], *(text[j : j + size] for j in range(offset, len(text), size))]


def chunkings(text: str) -> Iterator[tuple[str, list[str]]]:
    """(label, chunks) for every chunking of the S1 split harness."""
    n = len(text)
    yield "whole", [text]
    yield "chars", list(text)
    yield "chars+empty", ["", *itertools.chain.from_iterable((ch, "") for ch in text)]
    pairs = _sized(text, 2, 1)
    yield "empty-pairs", list(itertools.chain.from_iterable(("", "", c) for c in pairs))
    if n <= LONG:
        for i in range(n + 1):
            yield f"split@{i}", [text[:i], text[i:]]
        for size in range(1, 9):
            for offset in range(size):
                yield f"size{size}+{offset}", _sized(text, size, offset)
        for size in (3, 5):
            chunks = _sized(text, size, 1)
            yield f"size{size}+empty", list(itertools.chain.from_iterable((c, "") for c in chunks))
    else:
        step = max(1, n // 25)
        points = sorted(set(range(0, 40)) | set(range(n - 40, n + 1)) | set(range(0, n, step)))
        for i in points:
            yield f"split@{i}", [text[:i], text[i:]]
        for size in range(1, 9):
            for offset in sorted({0, size - 1}):
                yield f"size{size}+{offset}", _sized(text, size, offset)


def run(cls: Any, options: dict[str, Any], chunks: Sequence[str]) -> tuple[str, str, bool]:
    """Feed ``chunks``, close, and return (visible, reasoning, had_block)."""
    scanner = cls(**options)
    visible: list[str] = []
    reasoning: list[str] = []
    for chunk in chunks:
        delta = scanner.feed(chunk)
        assert isinstance(delta, Delta)
        v, r = delta
        visible.append(v)
        reasoning.append(r)
    delta = scanner.close()
    assert isinstance(delta, Delta)
    v, r = delta
    visible.append(v)
    reasoning.append(r)
    return "".join(visible), "".join(reasoning), bool(scanner.had_block)


def check_all_chunkings(
    cls: Any, text: str, options: dict[str, Any], visible: str, reasoning: Optional[str]
) -> None:
    expected = (visible, reasoning if reasoning is not None else "", reasoning is not None)
    for label, chunks in chunkings(text):
        got = run(cls, options, chunks)
        assert got == expected, f"chunking {label}: {chunks!r}"


def steps(
    cls: Any,
    options: dict[str, Any],
    calls: Sequence[tuple[str, tuple[str, str]]],
    at_close: tuple[str, str] = ("", ""),
) -> None:
    """Feed each chunk and compare its delta exactly; then compare close()'s delta."""
    scanner = cls(**options)
    for i, (chunk, expected) in enumerate(calls):
        assert scanner.feed(chunk) == expected, f"feed #{i} {chunk!r}"
    assert scanner.close() == at_close


# --- S1 chunking invariance over the rule tables ---------------------------------------------
@pytest.mark.parametrize("c", ALL_CASES, ids=[c.id for c in ALL_CASES])
def test_split_harness(scanner_cls: Any, c: Case) -> None:
    # S1: any chunking == the hand-derived whole-text result of behaviour.md#t1
    check_all_chunkings(scanner_cls, c.text, c.options, c.visible, c.reasoning)


def test_harness_covers_documented_chunkings() -> None:
    # S1 (the harness itself): every two-way split and every size x offset is generated
    labels = [label for label, _ in chunkings("abcdefghij")]
    assert {f"split@{i}" for i in range(11)} <= set(labels)
    assert {f"size{s}+{o}" for s in range(1, 9) for o in range(s)} <= set(labels)
    for _, chunks in chunkings("abcdefghij"):
        assert "".join(chunks) == "abcdefghij"


def test_one_shot_matches_split_think(scanner_cls: Any) -> None:
    # S1: the whole-text feed of each implementation equals split_think (active implementation)
    for c in ALL_CASES:
        split = split_think(c.text, **c.options)
        assert (split.visible, split.reasoning) == one_shot(scanner_cls, c.text, c.options), c.id


# --- tags split across chunks ----------------------------------------------------------------
def test_opener_and_closer_split(scanner_cls: Any) -> None:
    # S1, S2 (a): "<th" | "ink>" and "</th" | "ink>" hold only the partial tag
    steps(
        scanner_cls,
        {},
        [
            ("<th", ("", "")),
            ("ink>", ("", "")),
            ("a", ("", "a")),
            ("</th", ("", "")),
            ("ink>", ("", "")),
            ("b", ("b", "")),
        ],
    )


def test_one_char_per_chunk_deltas(scanner_cls: Any) -> None:
    # S1, S2: one character per chunk releases each character as soon as it is decided
    scanner = scanner_cls()
    text = "<think>ab</think>cd"
    deltas = [tuple(scanner.feed(ch)) for ch in text]
    assert deltas == [("", "")] * 7 + [("", "a"), ("", "b")] + [("", "")] * 8 + [
        ("c", ""),
        ("d", ""),
    ]
    assert scanner.close() == ("", "")


def test_empty_chunks_release_nothing(scanner_cls: Any) -> None:
    # S1: empty chunks anywhere change nothing
    steps(
        scanner_cls,
        {},
        [
            ("", ("", "")),
            ("<think>", ("", "")),
            ("", ("", "")),
            ("a", ("", "a")),
            ("", ("", "")),
            ("</think>x", ("x", "")),
            ("", ("", "")),
        ],
    )


# --- S2 promptness ---------------------------------------------------------------------------
def test_s2_lone_lt_held(scanner_cls: Any) -> None:
    # S2 (a): after "Hello <" only "<" is held
    steps(
        scanner_cls,
        {},
        [
            ("Hello <", ("Hello ", "")),
            ("think>", ("", "")),  # S4: tentative block
            ("abc", ("", "")),
            ("</think>", ("", "abc")),
            (" ok", (" ok", "")),
        ],
    )


def test_s2_lone_lt_released_at_close(scanner_cls: Any) -> None:
    # S2 (a), T7: the held "<" goes out as text at close()
    steps(scanner_cls, {}, [("Hello <", ("Hello ", ""))], at_close=("<", ""))


@pytest.mark.parametrize(
    ("calls", "at_close"),
    [
        # "<b" can never become a tag: released at once
        ([("a<b", ("a<b", ""))], ("", "")),
        ([("a<t", ("a", ""))], ("<t", "")),
        ([("a</", ("a", "")), ("x", ("</x", ""))], ("", "")),
        ([("Hi <think a=1", ("Hi ", ""))], ("<think a=1", "")),
        ([("Hello </thi", ("Hello ", "")), ("nk>", ("", "")), (" x", (" x", ""))], ("", "")),
        ([("a\n", ("a\n", ""))], ("", "")),
        ([("x", ("x", "")), ("  ", ("  ", ""))], ("", "")),
        ([("<think>a</thi", ("", "a")), ("nk>", ("", ""))], ("", "")),
    ],
    ids=["lt-b", "lt-t", "lt-slash", "attrs", "orphan-split", "lf", "trailing-visible-ws",
         "closer-prefix-in-block"],
)
def test_s2_possible_tag_prefix(
    scanner_cls: Any, calls: list[tuple[str, tuple[str, str]]], at_close: tuple[str, str]
) -> None:
    # S2 (a): only a suffix that could still become a tag is held
    steps(scanner_cls, {}, calls, at_close)


def test_s2_delimiter_prefix(scanner_cls: Any) -> None:
    # S2 (a): a possible delimiter prefix is held
    steps(scanner_cls, MAGISTRAL, [("Hi [TH", ("Hi ", ""))], at_close=("[TH", ""))


def test_s2_trailing_ws_in_block(scanner_cls: Any) -> None:
    # S2 (c): after "<think>abc  " the reasoning "abc" is out and the two spaces are held
    steps(scanner_cls, {}, [("<think>abc  ", ("", "abc")), ("def</think>", ("", "  def"))])
    steps(scanner_cls, {}, [("<think>abc  ", ("", "abc")), ("</think>", ("", "")),
                            ("x", ("x", ""))])
    steps(scanner_cls, {}, [("<think>abc \n", ("", "abc")), ("d", ("", " \nd"))])


def test_s2_leading_ws_in_block_dropped(scanner_cls: Any) -> None:
    # S2 (c), T8: a block's leading whitespace is never released
    steps(scanner_cls, {}, [("<think>  ", ("", "")), ("a", ("", "a"))])


def test_s2_leading_visible_ws(scanner_cls: Any) -> None:
    # S2 (b), T8: leading whitespace waits for the first visible non-whitespace character
    steps(scanner_cls, {}, [("  \n ", ("", "")), ("x", ("  \n x", ""))])
    steps(scanner_cls, {}, [("  ", ("", ""))], at_close=("  ", ""))
    steps(scanner_cls, {}, [("  <think>a</think>", ("", "a")), ("  ", ("", ""))])
    steps(scanner_cls, {}, [("  <think>a</think>", ("", "a")), ("  ", ("", "")),
                            ("y", ("y", ""))])


def test_s2_echo_held(scanner_cls: Any) -> None:
    # S2 (c), T6: at the start of a start_in_reasoning block a possible echo is held
    steps(scanner_cls, SIR, [(" <thi", ("", "")), ("nk>a", ("", "a"))])
    steps(scanner_cls, SIR, [(" <think", ("", "")), (' a="1">', ("", "")), ("b", ("", "b"))])
    steps(scanner_cls, SIR, [("<", ("", "")), ("x", ("", "<x"))])
    steps(scanner_cls, SIR, [("a <think>", ("", "a <think>"))])
    steps(scanner_cls, SIR, [("plan", ("", "plan")), ("</think>", ("", "")), ("ans", ("ans", ""))])


def test_s2_backtick_runs_released(scanner_cls: Any) -> None:
    # S2: backtick runs are released at once; only their length is remembered (T5 span of 3)
    steps(
        scanner_cls,
        {},
        [
            ("Hi ``", ("Hi ``", "")),
            ("`", ("`", "")),
            ("<think>a</think>", ("<think>a</think>", "")),
            ("``", ("``", "")),
            ("`", ("`", "")),
            ("<think>b</think>", ("", "b")),
        ],
    )


def test_s2_fence_run_across_chunks(scanner_cls: Any) -> None:
    # S2, T5: a run split over chunks still opens a fence at line start
    steps(
        scanner_cls,
        {},
        [("``", ("``", "")), ("`\n<think>x</think>\n```", ("`\n<think>x</think>\n```", ""))],
    )


def test_s2_tilde_run_across_chunks(scanner_cls: Any) -> None:
    # S2, T5: "~~" | "~" at line start is a fence
    steps(
        scanner_cls,
        {},
        [("Hi\n", ("Hi\n", "")), ("~~", ("~~", "")),
         ("~\n<think>a</think>", ("~\n<think>a</think>", ""))],
    )


# --- S3 separators ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "calls"),
    [
        ({}, [("<think>a</think>", ("", "a")), ("<think>", ("", "")), ("\n", ("", "")),
              ("b", ("", "\n\nb")), ("</think>", ("", ""))]),
        # never for a block that turns out empty
        ({}, [("<think>a</think><think> </think>", ("", "a")),
              ("<think>b</think>", ("", "\n\nb"))]),
        # only after non-empty reasoning was released
        ({}, [("<think> </think>", ("", "")), ("<think>b</think>", ("", "b"))]),
        # a tentative block: the separator is in the delta holding its closer
        ({}, [("<think>a</think>x<think>b", ("x", "a")), ("</think>", ("", "\n\nb"))]),
        ({}, [("<think>a</think>x<think>b</th", ("x", "a")), ("ink>", ("", "\n\nb"))]),
        ({}, [("<think>a</think>x<think>  ", ("x", "a")), ("</think>", ("", ""))]),
        # never at an opener
        ({}, [("<think>a</think><think>", ("", "a")), ("  b", ("", "\n\nb"))]),
        ({}, [("<think>a", ("", "a")), ("  </think><think>", ("", "")), ("b", ("", "\n\nb"))]),
        (SIR, [("a</think>", ("", "a")), ("<think>b</think>", ("", "\n\nb"))]),
        ({}, [("<think>a</think><think/>", ("", "a")), ("<think>b</think>", ("", "\n\nb"))]),
    ],
    ids=["basic", "empty-block", "first-empty", "tentative", "tentative-split-closer",
         "tentative-empty", "not-at-opener", "trailing-ws", "implicit-block", "self-closing"],
)
def test_s3_separator(
    scanner_cls: Any, options: dict[str, Any], calls: list[tuple[str, tuple[str, str]]]
) -> None:
    # S3: "\n\n" goes out with the block's first non-whitespace reasoning character
    steps(scanner_cls, options, calls)


# --- S4 tentative blocks ---------------------------------------------------------------------
def test_s4_restored_at_close(scanner_cls: Any) -> None:
    # S4, T2: nothing until resolved; at close() the block is visible text
    steps(scanner_cls, {}, [("Hi <think>abc", ("Hi ", "")), ("def", ("", ""))],
          at_close=("<think>abcdef", ""))


def test_s4_restored_past_cap(scanner_cls: Any) -> None:
    # S4, T2: past max_tentative the block goes out as visible text at once
    steps(scanner_cls, {"max_tentative": 5},
          [("Hi <think>abcde", ("Hi ", "")), ("f", ("<think>abcdef", "")), ("g", ("g", ""))])
    steps(scanner_cls, {"max_tentative": 5},
          [("Hi <think>abcde", ("Hi ", "")), ("f<", ("<think>abcdef", ""))], at_close=("<", ""))


def test_s4_closed(scanner_cls: Any) -> None:
    # S4: at the closer the block's text goes out as reasoning
    steps(scanner_cls, {}, [("Hi <think>ab", ("Hi ", "")), ("c</th", ("", "")),
                            ("ink>", ("", "abc"))])


# --- S7 fast path ----------------------------------------------------------------------------
def fresh(*parts: str) -> str:
    """A new str object (never an interned constant)."""
    return "".join(parts)


@pytest.mark.parametrize(
    ("options", "before"),
    [
        ({}, ["Hello"]),
        ({}, ["Hi "]),
        ({}, ["<think>a</think>b"]),
        ({}, ["`x` y"]),
        ({}, ["```\nx\n```\ny"]),
        (MAGISTRAL, ["Hello"]),
        (SIR, ["a</think>b"]),
    ],
    ids=["text", "after-space", "after-block", "after-span", "after-fence", "magistral",
         "after-implicit-block"],
)
def test_s7_fast_path_returns_chunk(
    scanner_cls: Any, options: dict[str, Any], before: list[str]
) -> None:
    # S7: all conditions hold -> Delta.visible is the chunk object itself
    scanner = scanner_cls(**options)
    for text in before:
        scanner.feed(text)
    for chunk in (fresh("wor", "ld, ", "again"), fresh(" caf\u00e9 \t\r ", "\U0001f600 > x")):
        delta = scanner.feed(chunk)
        assert delta.visible is chunk
        assert delta.reasoning == ""


# When a condition fails the result must still be right (the state the fast path would skip).
def test_s7_not_when_held(scanner_cls: Any) -> None:
    # S7: something held from an earlier call
    steps(scanner_cls, {}, [("Hi <", ("Hi ", "")), (fresh("b ", "c"), ("<b c", ""))])


def test_s7_not_in_block(scanner_cls: Any) -> None:
    # S7: inside a block the chunk is reasoning
    steps(scanner_cls, {}, [("<think>", ("", "")), (fresh("ab", "c"), ("", "abc"))])
    steps(scanner_cls, {}, [("Hi <think>", ("Hi ", "")), (fresh("ab", "c"), ("", ""))],
          at_close=("<think>abc", ""))


def test_s7_not_before_visible_text(scanner_cls: Any) -> None:
    # S7: no visible non-whitespace yet -> whitespace is held (T8)
    steps(scanner_cls, {}, [(fresh("  ", ""), ("", "")), (fresh("  ", ""), ("", "")),
                            ("x", ("    x", ""))])
    steps(scanner_cls, {}, [("<think>a</think>", ("", "a")), (fresh("  ", ""), ("", "")),
                            ("x", ("x", ""))])


def test_s7_not_in_fence(scanner_cls: Any) -> None:
    # S7, T5: inside a fence a chunk after a closing run decides whether the line closes it
    steps(
        scanner_cls,
        {},
        [
            ("```\nx\n", ("```\nx\n", "")),
            ("```", ("```", "")),
            (fresh("y", ""), ("y", "")),
            ("\n<think>z</think>", ("\n<think>z</think>", "")),
        ],
    )


def test_s7_not_in_span(scanner_cls: Any) -> None:
    # S7, T5: inside a span the text is code; the span still closes at its run
    steps(scanner_cls, {}, [("a `", ("a `", "")), (fresh("b", "c"), ("bc", "")),
                            ("`<think>d</think>", ("`", "d"))])


def test_s7_line_start_tracked(scanner_cls: Any) -> None:
    # S7, T5: a fast-path chunk still ends / keeps line start
    steps(scanner_cls, {}, [("Hi\n", ("Hi\n", "")), (fresh("x", ""), ("x", "")),
                            ("```\n<think>b</think>", ("```\n", "b"))])
    steps(scanner_cls, {}, [("Hi\n", ("Hi\n", "")), (fresh("  ", ""), ("  ", "")),
                            ("```\n<think>b</think>", ("```\n<think>b</think>", ""))])
    steps(scanner_cls, {}, [("Hi\n", ("Hi\n", "")), (fresh("    ", ""), ("    ", "")),
                            ("```\n<think>b</think>", ("```\n", "b"))])
    steps(scanner_cls, {}, [("Hi\n", ("Hi\n", "")), (fresh("\t", ""), ("\t", "")),
                            ("```\n<think>b</think>", ("```\n", "b"))])


def test_s7_not_with_lf(scanner_cls: Any) -> None:
    # S7: a chunk with LF starts a new line
    steps(scanner_cls, {}, [("Hi", ("Hi", "")), (fresh("a", "\n"), ("a\n", "")),
                            ("```\n<think>b</think>", ("```\n<think>b</think>", ""))])


def test_s7_not_with_delimiter_char(scanner_cls: Any) -> None:
    # S7: the first character of a configured delimiter may begin one
    steps(scanner_cls, MAGISTRAL, [("Hi", ("Hi", "")), (fresh("x", "["), ("x", "")),
                                   ("THINK]a[/THINK]", ("", "a"))])


def test_s7_not_with_tilde_or_backtick(scanner_cls: Any) -> None:
    # S7: backtick and tilde runs change the code state
    steps(scanner_cls, {}, [("Hi ", ("Hi ", "")), (fresh("a`", "b"), ("a`b", "")),
                            ("<think>c</think>`", ("<think>c</think>`", ""))])
    steps(scanner_cls, {}, [("Hi\n", ("Hi\n", "")), (fresh("~~", "~"), ("~~~", "")),
                            ("\n<think>c</think>", ("\n<think>c</think>", ""))])


# --- S6 adversarial inputs (correctness only) ------------------------------------------------
N = 10**5
ADVERSARIAL = [
    ("lt-run", "<" * N, {}, "<" * N, None),
    ("think-repeated", "<think" * 20000, {}, "<think" * 20000, None),
    ("think-space-repeated", "<think " * 20000, {}, "<think " * 20000, None),
    ("lt-slash-run", "</" * N, {}, "</" * N, None),
    ("lt-slash-run-in-block", "</" * N, SIR, "", "</" * N),
    ("backtick-fence", "`" * N + "<think>x</think>", {}, "`" * N + "<think>x</think>", None),
    ("backtick-span-unclosed",
     "a" + "`" * 50000 + "<think>x</think>" + "`" * 49999 + "<think>y</think>", {},
     "a" + "`" * 50000 + "<think>x</think>" + "`" * 49999 + "<think>y</think>", None),
    ("backtick-span-closed",
     "a" + "`" * 50000 + "<think>x</think>" + "`" * 50000 + "<think>y</think>", {},
     "a" + "`" * 50000 + "<think>x</think>" + "`" * 50000, "y"),
    ("tilde-fence", "~" * N + "\n<think>x</think>", {}, "~" * N + "\n<think>x</think>", None),
    ("fence-lines", "a\n" + "```\n" * 50000 + "<think>x</think>", {}, "a\n" + "```\n" * 50000,
     "x"),
    ("attrs-no-gt", "<think a=" + "x" * N, {}, "<think a=" + "x" * N, None),
    ("attr-spaces-no-gt", "<think" + " " * N, {}, "<think" + " " * N, None),
    ("closer-spaces", "</think" + " " * N + ">", {}, "</think" + " " * N + ">", None),
    ("attrs-repeated", ("<think " + "a" * 300) * 300, {}, ("<think " + "a" * 300) * 300, None),
    ("tentative-at-cap", "Hi <think>" + "a" * 8192 + "</think>", {}, "Hi ", "a" * 8192),
    ("tentative-over-cap-repeated", ("x<think>" + "b" * 9000) * 20, {},
     ("x<think>" + "b" * 9000) * 20, None),
    ("openers-after-text", "Hi " + "<think>" * 10000, {}, "Hi " + "<think>" * 10000, None),
    ("openers-in-block", "<think>" * 10000, {}, "", "<think>" * 9999),
    ("closer-prefixes-in-block", "<think>" + "</thin" * 20000 + "</think>x", {}, "x",
     "</thin" * 20000),
    ("bracket-run", "[" * N, MAGISTRAL, "[" * N, None),
    ("delimiter-prefix-repeated", "[THINK" * 20000, MAGISTRAL, "[THINK" * 20000, None),
]


@pytest.mark.parametrize(
    ("text", "options", "visible", "reasoning"),
    [a[1:] for a in ADVERSARIAL],
    ids=[a[0] for a in ADVERSARIAL],
)
def test_s6_adversarial(
    scanner_cls: Any, text: str, options: dict[str, Any], visible: str, reasoning: Optional[str]
) -> None:
    # S6: correct output for adversarial text, whole and chunked (cost is in benchmarks/)
    expected = (visible, reasoning if reasoning is not None else "", reasoning is not None)
    n = len(text)
    for label, chunks in [
        ("whole", [text]),
        ("size1", list(text)),
        ("size7", _sized(text, 7, 3)),
        ("size4096", _sized(text, 4096, 0)),
        ("halves", [text[: n // 2], text[n // 2 :]]),
    ]:
        assert run(scanner_cls, options, chunks) == expected, label
