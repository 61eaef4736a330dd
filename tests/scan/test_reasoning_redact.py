"""parse(): <REDACTED> sections (R7) and several <REASONING> blocks (R8), with their interplay."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import Parsed, parse

OPEN, CLOSE = "<REASONING>", "</REASONING>"
RO, RC = "<REDACTED>", "</REDACTED>"
MARK = "[REDACTED]"

# (id, message, options, visible, reasoning, tokens_est, blocks, redactions) — derived by hand.
CASES = [
    # R7: one section, inline, in the visible text.
    ("visible-section", f"Call {RO}Ann at 555-0100{RC} now", {},
     f"Call {MARK} now", None, 0, (), 1),
    # R7: unclosed opener hides everything after it (fail closed).
    ("unclosed", f"ok {RO}secret\nmore", {}, f"ok {MARK}", None, 0, (), 1),
    # R7: nesting is counted; the section ends where the depth returns to zero; one outermost.
    ("nested", f"a{RO}x{RO}y{RC}z{RC}b", {}, f"a{MARK}b", None, 0, (), 1),
    ("nested-unclosed", f"a{RO}x{RO}y{RC}z", {}, f"a{MARK}", None, 0, (), 1),
    # R7: stray closers stay as text, before and after a section.
    ("stray-closers", f"{RC}a{RO}s{RC}{RC}b", {}, f"{RC}a{MARK}{RC}b", None, 0, (), 1),
    ("only-stray", f"x {RC} y", {}, f"x {RC} y", None, 0, (), 0),
    ("two-sections", f"{RO}a{RC}-{RO}b{RC}", {}, f"{MARK}-{MARK}", None, 0, (), 2),
    # R7: case-sensitive, exact tags.
    ("lowercase-not-a-tag", "<redacted>x</redacted>", {}, "<redacted>x</redacted>", None, 0, (), 0),
    # R7 then R4/R6: a section inside the reasoning; tokens count what remains.
    ("in-reasoning", f"{OPEN}ask {RO}Ann{RC} first{CLOSE}Done.", {},
     "Done.", f"ask {MARK} first", 5, (f"ask {MARK} first",), 1),
    # A </REASONING> inside a redacted section is gone before R2 looks for the last closer.
    ("closer-inside-section", f"{OPEN}r{CLOSE}v {RO}x{CLOSE}y{RC}", {},
     f"v {MARK}", "r", 1, ("r",), 1),
    # ... and the only closer redacted away: no complete block, R3 on the redacted message.
    ("only-closer-redacted", f"{OPEN}r{RO}{CLOSE}{RC}v", {},
     f"{OPEN}r{MARK}v", None, 0, (), 1),
    # Redacted text across a block boundary: the section swallows the closer and the opener.
    ("across-boundary", f"{OPEN}a{RO}b{CLOSE}c{OPEN}d{RC}e{CLOSE}f", {"multi_block": True},
     "f", f"a{MARK}e", 3, (f"a{MARK}e",), 1),
    ("across-boundary-single", f"{OPEN}a{RO}b{CLOSE}c{OPEN}d{RC}e{CLOSE}f", {},
     "f", f"a{MARK}e", 3, (f"a{MARK}e",), 1),
    # Unclosed section inside a block: the closer is hidden too, so no block (fail closed).
    ("unclosed-in-block", f"v{OPEN}a{RO}b{CLOSE}w", {}, f"v{OPEN}a{MARK}", None, 0, (), 1),
    # redact=False: the tags are text (R7).
    ("no-redact", f"{OPEN}ask {RO}Ann{RC}{CLOSE}ok", {"redact": False},
     "ok", f"ask {RO}Ann{RC}", 7, (f"ask {RO}Ann{RC}",), 0),
    # R8: several blocks, outside text concatenated and stripped at both ends.
    ("two-blocks", f" A{OPEN}x{CLOSE}B{OPEN} y {CLOSE}C ", {"multi_block": True},
     "ABC", "x\n\ny", 1, ("x", "y"), 0),
    # R8: empty blocks are kept in blocks, skipped in reasoning.
    ("empty-first", f"{OPEN}{CLOSE}a{OPEN}x{CLOSE}", {"multi_block": True},
     "a", "x", 1, ("", "x"), 0),
    ("all-empty", f"{OPEN} {CLOSE}a{OPEN}{CLOSE}", {"multi_block": True},
     "a", "", 0, ("", ""), 0),
    # R8: nesting counted, inner pairs are text of the block.
    ("nested-block", f"{OPEN}a{OPEN}b{CLOSE}c{CLOSE}d", {"multi_block": True},
     "d", f"a{OPEN}b{CLOSE}c", 7, (f"a{OPEN}b{CLOSE}c",), 0),
    # R8 vs R2 on an extra closer.
    ("extra-closer", f"{OPEN}a{CLOSE}b{CLOSE}", {"multi_block": True},
     f"b{CLOSE}", "a", 1, ("a",), 0),
    ("extra-closer-single", f"{OPEN}a{CLOSE}b{CLOSE}", {},
     "", f"a{CLOSE}b", 4, (f"a{CLOSE}b",), 0),
    # R8: stray closers are visible; an opener never closed leaves itself and the rest visible.
    ("stray-and-unclosed", f"{CLOSE}p{OPEN}x{CLOSE}q{OPEN}y{OPEN}z{CLOSE}", {"multi_block": True},
     f"{CLOSE}pq{OPEN}y{OPEN}z{CLOSE}", "x", 1, ("x",), 0),
    # R8 + R3: no complete block returns the message as given.
    ("multi-no-block", f" {OPEN}x ", {"multi_block": True}, f" {OPEN}x ", None, 0, (), 0),
    # R7 + R8: blocks separated by a section in the visible text.
    ("multi-redacted-between", f"{OPEN}a{CLOSE}{RO}pii{RC}{OPEN}b{CLOSE}", {"multi_block": True},
     MARK, "a\n\nb", 1, ("a", "b"), 1),
]


@pytest.mark.parametrize(
    ("message", "options", "visible", "reasoning", "tokens", "blocks", "redactions"),
    [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_cases(message: str, options: dict[str, bool], visible: str, reasoning: str | None,
               tokens: int, blocks: tuple[str, ...], redactions: int) -> None:
    p = parse(message, **options)
    assert (p.visible, p.reasoning, p.tokens_est, p.blocks, p.redactions) == (
        visible, reasoning, tokens, blocks, redactions)


def test_to_dict_multi_block() -> None:  # R8
    assert parse(f"{OPEN}{CLOSE}a{OPEN}xy{CLOSE}", multi_block=True).to_dict() == {
        "visible": "a",
        "reasoning": {"text": "xy", "tokensEst": 1,
                      "blocks": [{"text": "", "tokensEst": 0}, {"text": "xy", "tokensEst": 1}]}}
    # One block: multi_block=True still lists it; the single-block mode does not.
    assert parse(f"{OPEN}ab{CLOSE}ok", multi_block=True).to_dict() == {
        "visible": "ok",
        "reasoning": {"text": "ab", "tokensEst": 1, "blocks": [{"text": "ab", "tokensEst": 1}]}}
    assert parse(f"{OPEN}ab{CLOSE}ok").to_dict() == {
        "visible": "ok", "reasoning": {"text": "ab", "tokensEst": 1}}
    assert parse(f"{OPEN}ab{CLOSE}ok", multi_block=True) == parse(f"{OPEN}ab{CLOSE}ok")
    # No redactions key (R7).
    assert parse(f"{RO}x{RC}").to_dict() == {"visible": MARK}


def test_repr_and_defaults() -> None:
    assert repr(parse(f"{OPEN}r{CLOSE}v")) == "Parsed(visible='v', reasoning='r', tokens_est=1)"
    assert repr(parse(f"{RO}x{RC}")) == (
        "Parsed(visible='[REDACTED]', reasoning=None, tokens_est=0, redactions=1)")
    assert repr(parse(f"{OPEN}a{CLOSE}{OPEN}b{CLOSE}", multi_block=True)) == (
        "Parsed(visible='', reasoning='a\\n\\nb', tokens_est=1, blocks=('a', 'b'))")
    # A hand-built Parsed gets the single-block form; equal to what parse() returns.
    assert Parsed("v", "r", 1).blocks == ("r",)
    assert Parsed("v", None, 0).blocks == ()
    assert parse(f"{OPEN}r{CLOSE}v") == Parsed("v", "r", 1)
    assert hash(parse(f"{OPEN}r{CLOSE}v")) == hash(Parsed("v", "r", 1))


def test_no_section_returns_same_object() -> None:  # R3 after R7
    message = f"plain {RC} text "
    assert parse(message).visible is message


@pytest.mark.parametrize("option", ["multi_block", "redact"])
def test_option_type(option: str) -> None:
    with pytest.raises(TypeError, match=f"option {option} must be a bool, not str"):
        parse("x", **{option: "yes"})  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------------------
# Messages are sequences of pieces.  A reference depth counter marks which text pieces lie inside a
# <REDACTED> section; those are written with the letter "Z", which nothing else contains, so any
# leak shows up as a "Z" in the output.
PIECES = [RO, RC, OPEN, CLOSE, "a", "b c", "\n", " ", "<redacted>", "< REASONING>", "[", "]"]


@st.composite
def redacted_messages(draw: st.DrawFn) -> tuple[str, int]:
    pieces = draw(st.lists(st.sampled_from([*PIECES, "TEXT"]), max_size=40))
    out: list[str] = []
    depth = 0
    sections = 0
    for piece in pieces:
        if piece == RO:
            sections += depth == 0
            depth += 1
        elif piece == RC and depth:
            depth -= 1
        elif piece == "TEXT":
            piece = "Z" if depth else draw(st.sampled_from(["x", "yy"]))
        out.append(piece)
    return "".join(out), sections


@settings(max_examples=500, deadline=None)
@given(redacted_messages(), st.booleans())
def test_nothing_redacted_leaks(case: tuple[str, int], multi: bool) -> None:  # R7
    message, sections = case
    p = parse(message, multi_block=multi)
    shown = [p.visible, p.reasoning or "", *p.blocks, json.dumps(p.to_dict()), repr(p)]
    assert not any("Z" in s for s in shown)
    assert p.redactions == sections


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*(p for p in PIECES if p != RO), "Z"]), max_size=40),
       st.booleans())
def test_without_opener_nothing_changes(pieces: list[str], multi: bool) -> None:  # R7
    message = "".join(pieces)
    assert parse(message, multi_block=multi) == parse(message, multi_block=multi, redact=False)
    if not multi:  # and the single-block rules R1-R6 as before: first opener, last closer
        p = parse(message)
        start, end = message.find(OPEN), message.rfind(CLOSE)
        if start < 0 or end < start + len(OPEN):
            assert (p.visible, p.reasoning, p.redactions) == (message, None, 0)
        else:
            assert p.reasoning == message[start + len(OPEN):end].strip()


plain = st.text(alphabet=st.characters(blacklist_characters="<"))


@settings(max_examples=300, deadline=None)
@given(plain, plain, plain, plain, st.integers(0, 3))
def test_one_balanced_block_same_in_both_modes(before: str, inner: str, mid: str, after: str,
                                               depth: int) -> None:  # R8
    message = before + OPEN + inner + (OPEN + mid + CLOSE) * depth + inner + CLOSE + after
    single, multi = parse(message), parse(message, multi_block=True)
    assert single == multi
    # to_dict() differs only by the block list that multi_block=True adds (R8)
    extra = multi.to_dict()
    blocks = extra.get("reasoning", {}).pop("blocks", None)
    assert single.to_dict() == extra
    if blocks is not None:
        assert blocks == [{"text": single.reasoning, "tokensEst": single.tokens_est}]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(plain, plain), min_size=1, max_size=5), plain)
def test_blocks_in_order(pairs: list[tuple[str, str]], tail: str) -> None:  # R8
    message = "".join(out + OPEN + inner + CLOSE for out, inner in pairs) + tail
    p = parse(message, multi_block=True)
    assert p.blocks == tuple(inner.strip() for _, inner in pairs)
    assert p.visible == ("".join(out for out, _ in pairs) + tail).strip()
    assert p.reasoning == "\n\n".join(b for b in p.blocks if b)
    assert p.tokens_est == math.ceil(len(p.reasoning) / 4)
