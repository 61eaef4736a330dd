"""render_html, render_script, render_page, write_page: exact markup, escaping, statistics (H1, H2).

The behaviour in a real browser is tested in test_html_browser.py.
"""

from __future__ import annotations

import hashlib
import html.parser
import io
import re
import tracemalloc
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    Extraction,
    Parsed,
    Split,
    Usage,
    parse,
    render_html,
    render_page,
    render_script,
)
from thinkparse.render._assets import CSS, NOSCRIPT_CSS, SCRIPT, csp_hash
from thinkparse.render._page import write_page


def _id(msg_id: str) -> str:
    return "tp-" + hashlib.sha256(("m\0" + msg_id).encode()).hexdigest()[:16]


def test_fragment_exact() -> None:  # H1
    i = _id("m1")
    assert render_html(parse("<REASONING>2 + 2</REASONING>It is <b>4</b>."), msg_id="m1") == (
        '<div class="tp-message" data-msg-id="m1">'
        '<div class="tp-reasoning" data-ai-reasoning data-collapsed="true" data-token-est="2" '
        'data-msg-id="m1"><button type="button" class="tp-toggle" data-ai-reasoning-toggle '
        f'aria-expanded="false" aria-controls="{i}-r">Reasoning · ~2 tokens</button>'
        f'<div class="tp-body" id="{i}-r" data-ai-reasoning-body hidden>2 + 2</div></div>'
        '<div class="tp-answer">It is &lt;b&gt;4&lt;/b&gt;.</div></div>'
    )


def test_fragment_expanded_and_without_msg_id() -> None:  # H1
    out = render_html(Split("ans", "r"), collapsed=False)
    base = "tp-" + hashlib.sha256(b"t\0ans\0r").hexdigest()[:16]
    assert out == (
        '<div class="tp-message"><div class="tp-reasoning" data-ai-reasoning '
        'data-collapsed="false" data-token-est="1"><button type="button" class="tp-toggle" '
        f'data-ai-reasoning-toggle aria-expanded="true" aria-controls="{base}-r">'
        f'Reasoning · ~1 token</button><div class="tp-body" id="{base}-r" '
        'data-ai-reasoning-body>r</div></div><div class="tp-answer">ans</div></div>'
    )


def test_no_reasoning_no_container() -> None:  # H1
    assert render_html(parse("just text")) == (
        '<div class="tp-message"><div class="tp-answer">just text</div></div>')
    assert render_html(Split("v", None), msg_id="x") == (
        '<div class="tp-message" data-msg-id="x"><div class="tp-answer">v</div></div>')


def test_empty_reasoning_is_present() -> None:  # H1, R6
    out = render_html(parse("<REASONING></REASONING>ok"))
    assert 'data-token-est="0"' in out and '<span class="tp-note">(empty)</span>' in out


def _extraction(reasoning: str | None, redacted: bool, reported: int | None) -> Extraction:
    est = 0 if reasoning is None else -(-len(reasoning) // 4)
    return Extraction("answer", reasoning, reported, est, redacted, (), "anthropic", "blocks",
                      Usage(reasoning_tokens=reported))


def test_provider_redacted_only() -> None:  # H1, P6: it existed but cannot be read
    out = render_html(_extraction(None, True, 120), msg_id="r1")
    i = _id("r1")
    assert out == (
        '<div class="tp-message" data-msg-id="r1"><div class="tp-reasoning" data-ai-reasoning '
        'data-collapsed="true" data-token-est="0" data-msg-id="r1" data-redacted="true" '
        'data-tokens-reported="120"><button type="button" class="tp-toggle" '
        f'data-ai-reasoning-toggle aria-expanded="false" aria-controls="{i}-r">'
        "Reasoning (redacted by the provider) · 120 reported</button>"
        f'<div class="tp-body" id="{i}-r" data-ai-reasoning-body hidden><span class="tp-note">'
        "The provider returned this reasoning encrypted or redacted: it existed but cannot be "
        'read.</span></div></div><div class="tp-answer">answer</div></div>'
    )


def test_provider_partly_redacted_and_reported() -> None:  # H1, P5, P6
    out = render_html(_extraction("abcde", True, 9))
    assert "Reasoning · ~2 tokens · 9 reported</button>" in out
    assert ">abcde\n\n<span class=\"tp-note\">Part of the reasoning was returned encrypted" in out
    assert render_html(_extraction(None, False, 50)) == (
        '<div class="tp-message"><div class="tp-answer">answer</div></div>')


XSS = '<script>alert(1)</script>"\'&<img src=x onerror=alert(1)>'


def test_everything_escaped() -> None:  # H1
    out = render_html(Split(XSS, XSS), msg_id=XSS)
    escaped = ("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;&amp;"
               "&lt;img src=x onerror=alert(1)&gt;")
    assert out.count(escaped) == 4  # visible, reasoning, two data-msg-id attributes
    assert "<script" not in out and "<img" not in out
    assert "style=" not in out and not re.search(r"\son[a-z]+=", out.replace(escaped, ""))


def test_lone_surrogates_become_replacement() -> None:
    out = render_html(Split("a\ud800b", "c\udfffd"), msg_id="\udc80")
    assert "a\ufffdb" in out and "c\ufffdd" in out and 'data-msg-id="\ufffd"' in out
    out.encode("utf-8")


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@settings(max_examples=200, deadline=None)
@given(st.text(), st.text(min_size=1), st.one_of(st.none(), st.text()))
def test_any_text_round_trips(visible: str, reasoning: str, msg_id: str | None) -> None:  # H1
    # Whatever the text, the markup has exactly our elements and the text comes back as given.
    clean = re.compile("[\x00\ud800-\udfff]")
    visible, reasoning = clean.sub("", visible), clean.sub("", reasoning) or "r"
    if msg_id is not None:
        msg_id = clean.sub("", msg_id)
    p = _Tags()
    p.feed(render_html(Split(visible, reasoning), msg_id=msg_id))
    p.close()
    assert [t for t, _ in p.tags] == ["div", "div", "button", "div", "div"]
    attrs = p.tags[1][1]
    assert attrs.get("data-msg-id") == msg_id
    assert not any(k.startswith("on") or k == "style" for _, a in p.tags for k in a)
    assert "".join(p.text).endswith(reasoning + visible)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: render_html(42), "result must be a Parsed, Split or Extraction, not int"),  # type: ignore[arg-type]
    (lambda: render_html(parse("x"), msg_id=3), "msg_id must be a str or None, not int"),  # type: ignore[arg-type]
    (lambda: render_html(parse("x"), collapsed=1), "collapsed must be a bool, not int"),  # type: ignore[arg-type]
    (lambda: render_script(nonce=5), "nonce must be a str or None, not int"),  # type: ignore[arg-type]
    (lambda: render_page([1]), r"results\[0\] must be a Parsed, Split or Extraction, not int"),  # type: ignore[list-item]
    (lambda: render_page([("a", "b", "c")]), r"results\[0\] must be a result or a"),  # type: ignore[list-item]
    (lambda: render_page([(1, parse("x"))]), r"results\[0\]\[0\] must be a str or None"),  # type: ignore[list-item]
    (lambda: render_page(parse("x")), "results must be an iterable"),  # type: ignore[arg-type]
    (lambda: render_page([], title=None), "title must be a str"),  # type: ignore[arg-type]
    (lambda: render_page([], limit=True), "limit must be an int"),
])
def test_type_errors(call: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: render_script(nonce='a" onload="x'), "nonce must be base64 characters"),
    (lambda: render_script(nonce=""), "nonce must be base64 characters"),
    (lambda: render_page([], limit=-1), "limit must be >= 0, not -1"),
])
def test_value_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_render_script() -> None:  # H1
    assert render_script() == f"<script>{SCRIPT}</script>"
    assert render_script(nonce="abc+/=_-") == f'<script nonce="abc+/=_-">{SCRIPT}</script>'
    assert "</script" not in SCRIPT.lower() and "innerHTML" not in SCRIPT


# --- the page -----------------------------------------------------------------------------------
RECORDS = [
    parse("<REASONING>abcd</REASONING>one"),  # 1 token
    ("m2", parse("no reasoning here")),
    ("m3", parse("<REASONING>" + "x" * 40 + "</REASONING><REDACTED>pii</REDACTED>")),  # 10 tokens
    ("m3", Split("same id", "y" * 12)),  # 3 tokens
    _extraction(None, True, 7),  # provider-redacted: 7 reported tokens
]


def test_page_summary_exact() -> None:  # H2
    page = render_page(RECORDS)
    summary = page[page.index('<section class="tp-summary"'):page.index("<svg")]
    assert summary == (
        '<section class="tp-summary" aria-label="Summary"><dl class="tp-stats">'
        "<div><dt>Records</dt><dd>5</dd></div>"
        "<div><dt>With reasoning</dt><dd>4</dd></div>"
        "<div><dt>Redacted</dt><dd>2</dd></div>"
        "<div><dt>Reasoning tokens</dt><dd>21</dd></div>"
        "<div><dt>Median reasoning tokens</dt><dd>5</dd></div></dl>"  # (3 + 7) / 2
    )
    # Histogram: token counts 1, 3, 7, 10 -> 11 one-token bins, four of them non-empty.
    bars = re.findall(r"<title>([^<]*)</title></rect>", page)
    assert len(bars) == 11
    assert [b for b in bars if not b.endswith(": 0 records")] == [
        "1 tokens: 1 record", "3 tokens: 1 record", "7 tokens: 1 record", "10 tokens: 1 record"]


def test_page_cards_ids_and_limit() -> None:  # H2
    page = render_page(RECORDS, limit=4, title='<T&"itle>')
    assert page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n")
    assert "<title>&lt;T&amp;&quot;itle&gt;</title>" in page
    assert page.count('<article class="tp-card"') == 4
    assert '<p class="tp-more">1 more record not shown (limit 4).</p>' in page
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # unique, though "m3" is used twice
    assert f'id="{_id("m3")}-r"' in page and f'id="{_id("m3")}-2-r"' in page
    assert page.count("<script>") == 1 and page.count("data-collapsed=\"true\"") == 3
    assert "style=" not in page and "http" not in page.replace('http-equiv', '')


def test_page_empty_and_more() -> None:  # H2
    page = render_page([])
    assert "<dd>0</dd>" in page and "<dd>—</dd>" in page and "No reasoning to chart." in page
    page = render_page([parse("a")] * 3, limit=0)
    assert '<p class="tp-more">3 more records not shown (limit 0).</p>' in page
    assert "<article" not in page


def test_median_and_bins() -> None:  # H2
    page = render_page([Split("", "x" * (4 * n)) for n in (1, 2, 100)])
    assert "<dt>Median reasoning tokens</dt><dd>2</dd>" in page
    bars = re.findall(r"<title>([^<]*)</title></rect>", page)
    assert len(bars) == 17 and bars[0] == "0\u20135 tokens: 2 records"  # width ceil(101 / 20) = 6
    assert bars[-1] == "96\u2013101 tokens: 1 record"
    page = render_page([Split("", "x" * (4 * n)) for n in (1, 2)])
    assert "<dt>Median reasoning tokens</dt><dd>1.5</dd>" in page


def test_page_csp_allows_exactly_its_elements() -> None:  # H1, H2
    page = render_page(RECORDS, nonce="n0nce")
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None
    assert csp.group(1) == (
        f"default-src 'none'; script-src {csp_hash(SCRIPT)}; "
        f"style-src {csp_hash(CSS)} {csp_hash(NOSCRIPT_CSS)}; img-src data:; "
        "base-uri 'none'; form-action 'none'")
    assert f'<style nonce="n0nce">{CSS}</style>' in page
    assert f'<noscript><style nonce="n0nce">{NOSCRIPT_CSS}</style></noscript>' in page
    assert f'<script nonce="n0nce">{SCRIPT}</script>' in page


def test_write_page_same_bytes() -> None:  # H2
    out = io.BytesIO()
    write_page(iter(RECORDS), out, title="t", limit=4)
    assert out.getvalue() == render_page(RECORDS, title="t", limit=4).encode("utf-8")


def _many(n: int, sink: io.BytesIO | None = None, seen: list[int] | None = None) -> Iterator[
        tuple[str, Parsed]]:
    for i in range(n):
        if sink is not None and seen is not None and i % 1000 == 0:
            seen.append(len(sink.getvalue()))
        yield f"id-{i}", parse(f"<REASONING>{'r' * (i % 5000)}</REASONING>answer {i}")


class _Null(io.RawIOBase):
    def __init__(self) -> None:
        self.size = 0

    def write(self, b: object) -> int:
        n = len(b)  # type: ignore[arg-type]
        self.size += n
        return n


def test_write_page_streams_cards() -> None:  # H2: cards go out as they come
    sink = io.BytesIO()
    seen: list[int] = []
    write_page(_many(5000, sink, seen), sink, title="t", limit=5000)
    assert seen[1] > 0 and seen == sorted(seen) and seen[-1] > seen[1]


def test_write_page_memory_bounded() -> None:  # H2: memory does not grow with the record count
    def peak(n: int) -> int:
        tracemalloc.start()
        try:
            write_page(_many(n), _Null(), title="t", limit=100)  # type: ignore[arg-type]
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(2_000), peak(40_000)
    assert large < 2 * small, (small, large)  # holding records would be about 20x


def test_docstring_example() -> None:
    import doctest

    import thinkparse.render._fragment

    result = doctest.testmod(thinkparse.render._fragment, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
