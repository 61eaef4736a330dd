"""parse(): the single-block <REASONING> convention, rule by rule (docs/behaviour.md#r1, R1-R6)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import Parsed, parse

OPEN, CLOSE = "<REASONING>", "</REASONING>"

CASES = [
    # (id, message, visible, reasoning, tokens_est)
    # docs/behaviour.md#r1 example: tags on their own lines.
    ("spec-example",
     f"{OPEN}\nStep 1: Fetch account balance...\nStep 2: Compare deltas...\n{CLOSE}\n"
     "Final balance increased by 12 SOL.",
     "Final balance increased by 12 SOL.",
     "Step 1: Fetch account balance...\nStep 2: Compare deltas...", 15),
    # R5: inline tags, text before and after; the join point is left as is.
    ("inline", f"Hello {OPEN}think{CLOSE} world", "Hello  world", "think", 2),
    ("before-and-after", f"  A\n{OPEN}r{CLOSE}\nB  ", "A\n\nB", "r", 1),
    ("text-before-only", f"Answer first.\n{OPEN}why{CLOSE}", "Answer first.", "why", 1),
    # R3: no opener / no closer after the opener / closer before opener -> unchanged.
    ("no-tags", "  plain text\r\n", "  plain text\r\n", None, 0),
    ("missing-closer", f"{OPEN} never closed\n", f"{OPEN} never closed\n", None, 0),
    ("missing-opener", f"orphan {CLOSE} here ", f"orphan {CLOSE} here ", None, 0),
    ("closer-before-opener", f"{CLOSE} x {OPEN} y", f"{CLOSE} x {OPEN} y", None, 0),
    # R1: case-sensitive, exact tags.
    ("lowercase-not-a-tag", "<reasoning>x</reasoning> y", "<reasoning>x</reasoning> y", None, 0),
    ("attribute-not-a-tag", '<REASONING a="1">x</REASONING>',
     '<REASONING a="1">x</REASONING>', None, 0),
    ("inner-space-not-a-tag", "< REASONING>x</REASONING >", "< REASONING>x</REASONING >", None, 0),
    # R2: first opener to LAST closer; inner tags are reasoning text.
    ("nested", f"{OPEN}a {OPEN}b{CLOSE} c{CLOSE}d", "d", f"a {OPEN}b{CLOSE} c", 7),
    ("repeated", f"{OPEN}a{CLOSE}mid{OPEN}b{CLOSE}end", "end", f"a{CLOSE}mid{OPEN}b", 7),
    ("closer-before-and-after", f"{CLOSE}x{OPEN}r{CLOSE}y", f"{CLOSE}xy", "r", 1),
    # R4: inside stripped; CRLF and inner whitespace kept.
    ("crlf", f"{OPEN}\r\n line1\r\n\tline2 \r\n{CLOSE}\r\nok", "ok", "line1\r\n\tline2", 4),
    ("tabs", f"\t{OPEN}\ta\t\tb\t{CLOSE}\tv\t", "v", "a\t\tb", 1),
    # R6: empty and whitespace-only blocks: reasoning "" (present), tokens 0.
    ("empty-block", f"{OPEN}{CLOSE}answer", "answer", "", 0),
    ("whitespace-block", f"{OPEN} \n\t {CLOSE} answer", "answer", "", 0),
    # R6: tokens_est boundaries in code points: 1, 4, 5 characters; emoji count as one.
    ("tokens-1", f"{OPEN}a{CLOSE}", "", "a", 1),
    ("tokens-4", f"{OPEN}abcd{CLOSE}", "", "abcd", 1),
    ("tokens-5", f"{OPEN}abcde{CLOSE}", "", "abcde", 2),
    ("emoji-4", f"{OPEN}😀😀😀😀{CLOSE}x", "x", "😀😀😀😀", 1),
    ("emoji-5", f"{OPEN}😀😀😀😀é{CLOSE}x", "x", "😀😀😀😀é", 2),
    ("unicode-visible", f"{OPEN}раз{CLOSE} Ответ 😀", "Ответ 😀", "раз", 1),
    # R5: only the two ends are stripped, with str.strip() (Unicode whitespace too).
    ("unicode-ws-ends", f"\u00a0{OPEN}r{CLOSE}\u3000a\u2028b\u00a0", "a\u2028b", "r", 1),
]


@pytest.mark.parametrize(("message", "visible", "reasoning", "tokens"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rules(message: str, visible: str, reasoning: str | None, tokens: int) -> None:
    assert parse(message) == Parsed(visible, reasoning, tokens)


def test_to_dict_shape() -> None:
    assert parse(f"{OPEN}ab{CLOSE}ok").to_dict() == {
        "visible": "ok", "reasoning": {"text": "ab", "tokensEst": 1}}
    assert parse("plain").to_dict() == {"visible": "plain"}  # key absent when None
    assert parse(f"{OPEN}{CLOSE}").to_dict() == {
        "visible": "", "reasoning": {"text": "", "tokensEst": 0}}


def test_unchanged_object_when_no_block() -> None:
    message = "some text " * 3
    assert parse(message).visible is message  # R3: returned exactly as given


@pytest.mark.parametrize("bad", [None, b"<REASONING>x</REASONING>", 3, ["x"]])
def test_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="parse\\(\\) takes a str"):
        parse(bad)  # type: ignore[arg-type]


def test_result_is_immutable_with_readable_repr() -> None:
    p = parse(f"{OPEN}r{CLOSE}v")
    with pytest.raises(AttributeError):
        p.visible = "x"  # type: ignore[misc]
    assert repr(p) == "Parsed(visible='v', reasoning='r', tokens_est=1)"


text_without_opener = st.text().filter(lambda s: OPEN not in s)


@settings(max_examples=300, deadline=None)
@given(text_without_opener)
def test_no_opener_comes_back_unchanged(message: str) -> None:  # R3
    # without redaction the message comes back as given; with it (the default, R7), as redacted
    p = parse(message, redact=False)
    assert (p.visible, p.reasoning, p.tokens_est) == (message, None, 0)
    if "<REDACTED>" not in message:
        p = parse(message)
        assert (p.visible, p.reasoning, p.tokens_est, p.redactions) == (message, None, 0, 0)


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text(), st.text())
def test_block_properties(before: str, inner: str, after: str) -> None:  # R2, R4, R5, R6
    message = before + OPEN + inner + CLOSE + after
    p = parse(message)
    assert p.reasoning is not None
    # The outer tags never reach either side (R2: the block ends at the LAST closer).
    assert not p.visible.startswith(OPEN)
    assert p.reasoning == p.reasoning.strip()
    assert p.tokens_est == math.ceil(len(p.reasoning) / 4)
    if OPEN not in before:
        last = message.rfind(CLOSE)
        start = message.find(OPEN)
        assert p.reasoning == message[start + len(OPEN):last].strip()
        assert p.visible == (message[:start] + message[last + len(CLOSE):]).strip()
