"""MkDocs hook: rule citations in the rendered pages become links to the rule.

The sources cite rules as plain text, readable in ``help()`` and in an editor:
``docs/behaviour.md#r8``, ``behaviour.md#build``, ``#r2`` (the behaviour page implied), a bare
rule id such as ``T5`` (or a range, ``T1-T10``), or the page alone, ``docs/behaviour.md``.

In every rendered page but the behaviour page itself, each citation outside links, code blocks
and headings becomes a link to its anchor on the behaviour page, with the rule's heading as its
tooltip.  A path citation reads as the rule id (``R8``) or, for a section, as ``build rules``;
``#r2`` reads ``R2``; a bare id and the page alone keep their text.  A code span that holds
nothing but a citation (```behaviour.md#x1```, ```#x5```) becomes the link.  Only anchors that
exist are linked (tests/test_docs.py checks that every cited anchor exists), and only ids of the
rule families (one capital letter and a number) are read as bare citations.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

BEHAVIOUR = "behaviour.md"

_ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>\s*\n#+\s*(.+)')
_RULE = re.compile(r"[a-z]\d{1,2}")
_CITATION = re.compile(
    r"(?:(?<![\w/.-])(?:docs/)?behaviour\.md#(?P<path>[a-z0-9-]+))"
    r"|(?:(?<![\w/.-])(?P<page>(?:docs/)?behaviour\.md)(?![\w#]))"
    r"|(?:(?<![\w&#/])#(?P<short>[a-z]\d{1,2})(?![\w-]))"
    r"|(?:(?<![\w.#/])(?P<bare>[A-Z]\d{1,2})(?!\w))"
)
_CODE_CITATION = re.compile(r"<code>(?:(?:docs/)?behaviour\.md)?#([a-z0-9-]+)</code>")
_TOKEN = re.compile(r"(<[^>]*>)")
#: Inside these, text is left alone.
_SKIP = frozenset({"a", "autoref", "pre", "code", "script", "style", "h1", "h2", "h3", "h4",
                   "h5", "h6", "title"})


def _anchors(path: str) -> dict[str, str]:
    """``{anchor: heading}`` of the behaviour page."""
    text = Path(path).read_text(encoding="utf-8")
    return {m.group(1): m.group(2).replace("`", "").strip() for m in _ANCHOR.finditer(text)}


def _link(url: str, anchor: str, heading: str, text: str) -> str:
    return (f'<a class="rule-ref" href="{url}#{anchor}" title="{html.escape(heading)}">'
            f"{text}</a>")


def _label(anchor: str) -> str:
    return anchor.upper() if _RULE.fullmatch(anchor) else f"{anchor} rules"


def link_citations(page_html: str, url: str, anchors: dict[str, str]) -> str:
    """``page_html`` with its rule citations linked to ``url`` (the behaviour page)."""

    def code_span(m: re.Match[str]) -> str:
        anchor = m.group(1)
        if anchor not in anchors:
            return m.group(0)
        return _link(url, anchor, anchors[anchor], _label(anchor))

    def citation(m: re.Match[str]) -> str:
        if m.group("page"):
            return f'<a class="rule-ref" href="{url}">{m.group("page")}</a>'
        if m.group("path"):
            anchor, text = m.group("path"), _label(m.group("path"))
        elif m.group("short"):
            anchor, text = m.group("short"), m.group("short").upper()
        else:
            anchor, text = m.group("bare").lower(), m.group("bare")
        if anchor not in anchors:
            return m.group(0)
        return _link(url, anchor, anchors[anchor], text)

    page_html = _CODE_CITATION.sub(code_span, page_html)
    out = []
    open_tags: list[str] = []
    for token in _TOKEN.split(page_html):
        if token.startswith("<"):
            name = re.match(r"</?([a-zA-Z][\w-]*)", token)
            if name:
                tag = name.group(1).lower()
                if token.startswith("</"):
                    if tag in open_tags:
                        del open_tags[len(open_tags) - 1 - open_tags[::-1].index(tag):]
                elif tag in _SKIP and not token.endswith("/>"):
                    open_tags.append(tag)
            out.append(token)
        elif open_tags:
            out.append(token)
        else:
            out.append(_CITATION.sub(citation, token))
    return "".join(out)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    behaviour = files.get_file_from_path(BEHAVIOUR)
    if behaviour is None or page.file.src_uri == BEHAVIOUR:
        return html
    url = behaviour.url_relative_to(page.file)
    return link_citations(html, url, _anchors(behaviour.abs_src_path))
