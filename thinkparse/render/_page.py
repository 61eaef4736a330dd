"""A standalone HTML page of many records: ``render_page``, ``write_page``, ``PageStream``
(docs/behaviour.md#h2).

The page is one HTML5 file with its CSS and script inline and nothing loaded from the network:
a title, a summary (records, with reasoning, redacted, total and median reasoning tokens, an
inline SVG histogram), and one card per record with the reasoning collapsed (#h1 fragments).
Beyond ``limit`` records a line says how many were left out.

Decisions where the rules leave room:

* **Streaming, memory bounded.**  Cards are written as the records come; the summary is written
  after the last card and shown first by CSS (``order`` in a flex column), so a 1 GB JSONL input
  is read once, never held.  The statistics cover **all** records, cards the first ``limit``.
  Memory is the ids of the cards shown (at most ``limit``) plus one counter per distinct token
  count, which grows at most as the square root of the input size.
* **Tokens** are counted as in B1: reported by the provider when it did, else
  ``ceil(len(reasoning) / 4)``.  "With reasoning" counts records that show a reasoning container
  (readable reasoning, or reasoning the provider redacted); "redacted" counts records with
  ``<REDACTED>`` sections (R7) or provider redaction (P6).  The median is over the records with
  reasoning ("—" when there are none); the histogram shows their token counts in at most 20
  equal-width bins.
* **Content-Security-Policy.**  The page carries its own policy in a ``<meta>`` element:
  ``default-src 'none'``, the script and the two style elements allowed by their sha256 hashes
  (they are constants), images only ``data:`` (the empty favicon).  So even markup that escaped
  the escaping could not run.  With ``nonce`` the ``<style>`` and ``<script>`` elements also
  carry it, for a server that sends ``script-src 'nonce-…'`` in its own header.
* **Without scripting** a ``<noscript>`` style shows every reasoning body (#h1).
* **ids** are unique within the page: a repeated ``msg_id`` or record gets ``-2``, ``-3``, …
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import BinaryIO, Callable, Optional, Union

from .._types import Extraction
from ._assets import CSS, NOSCRIPT_CSS, SCRIPT, csp_hash
from ._fragment import (
    Result,
    check_msg_id,
    check_nonce,
    check_result,
    dom_id,
    esc,
    fragment,
    is_redacted,
    reasoning_tokens,
)

Item = Union[Result, tuple[Optional[str], Result]]

CSP = (
    f"default-src 'none'; script-src {csp_hash(SCRIPT)}; "
    f"style-src {csp_hash(CSS)} {csp_hash(NOSCRIPT_CSS)}; img-src data:; "
    "base-uri 'none'; form-action 'none'"
)
_BINS = 20
_FLUSH = 1 << 16


class _Stats:
    """Running statistics over every record (memory: one counter per distinct token count)."""

    def __init__(self) -> None:
        self.records = 0
        self.with_reasoning = 0
        self.redacted = 0
        self.total_tokens = 0
        self.tokens: Counter[int] = Counter()

    def add(self, result: Result) -> None:
        self.records += 1
        self.redacted += is_redacted(result)
        if result.reasoning is not None or (isinstance(result, Extraction) and result.redacted):
            n = reasoning_tokens(result)
            self.with_reasoning += 1
            self.total_tokens += n
            self.tokens[n] += 1

    def median(self) -> Optional[float]:
        count = self.with_reasoning
        if not count:
            return None
        wanted = {(count - 1) // 2, count // 2}
        found: list[int] = []
        seen = 0
        for value in sorted(self.tokens):
            n = self.tokens[value]
            found.extend(value for i in sorted(wanted) if seen <= i < seen + n)
            seen += n
        return sum(found) / len(found)

    def bins(self) -> tuple[int, list[int]]:
        """(bin width, counts) over the token counts of the records with reasoning."""
        top = max(self.tokens) + 1
        width = max(1, math.ceil(top / _BINS))
        counts = [0] * math.ceil(top / width)
        for value, n in self.tokens.items():
            counts[value // width] += n
        return width, counts


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def _histogram(stats: _Stats) -> str:
    if not stats.tokens:
        return '<p class="tp-note">No reasoning to chart.</p>'
    width, counts = stats.bins()
    peak = max(counts)
    left, plot_w, top, plot_h = 44, 580, 8, 110
    step = plot_w / len(counts)
    label = (
        f"Histogram of reasoning tokens per record: {len(counts)} bins of {width:,} "
        f"token{'' if width == 1 else 's'}, highest bin {peak:,} records"
    )
    out = [
        f'<svg class="tp-hist" viewBox="0 0 640 156" role="img" aria-label="{esc(label)}">',
        f'<line class="tp-axis" x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" '
        f'y2="{top + plot_h}"/>',
    ]
    for i, n in enumerate(counts):
        h = round(plot_h * n / peak, 1)
        lo, hi = i * width, (i + 1) * width - 1
        span = f"{lo:,}" if lo == hi else f"{lo:,}\u2013{hi:,}"
        out.append(
            f'<rect class="tp-bar" x="{round(left + i * step + 1, 1)}" y="{top + plot_h - h}" '
            f'width="{round(max(step - 2, 1), 1)}" height="{h}">'
            f"<title>{span} tokens: {n:,} record{'' if n == 1 else 's'}</title></rect>"
        )
    last = len(counts) * width - 1
    out.append(
        f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">{peak:,}</text>'
        f'<text x="{left - 6}" y="{top + plot_h}" text-anchor="end">0</text>'
        f'<text x="{left}" y="{top + plot_h + 16}">0</text>'
        f'<text x="{left + plot_w}" y="{top + plot_h + 16}" text-anchor="end">{last:,}</text>'
        f'<text x="{left + plot_w / 2}" y="{top + plot_h + 32}" text-anchor="middle">'
        "reasoning tokens per record</text></svg>"
    )
    return "".join(out)


def _summary(stats: _Stats) -> str:
    median = stats.median()
    rows = [
        ("Records", f"{stats.records:,}"),
        ("With reasoning", f"{stats.with_reasoning:,}"),
        ("Redacted", f"{stats.redacted:,}"),
        ("Reasoning tokens", f"{stats.total_tokens:,}"),
        ("Median reasoning tokens", "—" if median is None else _number(median)),
    ]
    cells = "".join(f"<div><dt>{name}</dt><dd>{value}</dd></div>" for name, value in rows)
    return (
        '<section class="tp-summary" aria-label="Summary">'
        f'<dl class="tp-stats">{cells}</dl>{_histogram(stats)}'
        '<p class="tp-note">Tokens as reported by the provider where it did, else estimated '
        "as characters / 4.</p></section>"
    )


def _item(item: object, index: int) -> tuple[Optional[str], Result]:
    if isinstance(item, tuple):
        if len(item) != 2:
            raise TypeError(f"results[{index}] must be a result or a (msg_id, result) pair")
        msg_id = check_msg_id(item[0], f"results[{index}][0]")
        return msg_id, check_result(item[1], f"results[{index}][1]")
    return None, check_result(item, f"results[{index}]")


class PageWriter:
    """Writes a page piece by piece to ``write``: the head now, cards as added, then the rest."""

    def __init__(
        self, write: Callable[[str], object], *, title: str, limit: int, nonce: Optional[str]
    ) -> None:
        if not isinstance(title, str):
            raise TypeError(f"title must be a str, not {type(title).__name__}")
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise TypeError(f"limit must be an int, not {type(limit).__name__}")
        if limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        self._nonce = check_nonce(nonce)
        self._write = write
        self._limit = limit
        self._stats = _Stats()
        self._ids: set[str] = set()
        t = esc(title)
        self._write(
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="color-scheme" content="light dark">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<title>{t}</title>\n<link rel="icon" href="data:,">\n'
            f"<style{self._nonce}>{CSS}</style>\n"
            f"<noscript><style{self._nonce}>{NOSCRIPT_CSS}</style></noscript>\n"
            f'</head>\n<body>\n<main class="tp-page">\n<h1 class="tp-title">{t}</h1>\n'
            '<section class="tp-cards" aria-label="Records">\n'
        )

    def add(self, msg_id: Optional[str], result: Result) -> None:
        """Count one record, and write its card if fewer than ``limit`` are shown."""
        stats = self._stats
        stats.add(result)
        if stats.records > self._limit:
            return
        base = dom_id(result, msg_id)
        unique, n = base, 1
        while unique in self._ids:
            n += 1
            unique = f"{base}-{n}"
        self._ids.add(unique)
        head = [f'<span class="tp-index">#{stats.records:,}</span>']
        if msg_id is not None:
            head.append(f'<bdi class="tp-id">{esc(msg_id)}</bdi>')
        if isinstance(result, Extraction):
            head.append(f'<span class="tp-kind">{esc(result.provider)}</span>')
        if is_redacted(result):
            head.append('<span class="tp-badge">redacted</span>')
        self._write(
            f'<article class="tp-card" id="{unique}-card"><div class="tp-card-head">'
            f"{' '.join(head)}</div>{fragment(result, msg_id, True, unique)}</article>\n"
        )

    def finish(self) -> None:
        """The left-out line, the summary, the script and the end of the page."""
        stats = self._stats
        more = stats.records - self._limit
        self._write("</section>\n")
        if more > 0:
            self._write(
                f'<p class="tp-more">{more:,} more record{"" if more == 1 else "s"} not shown '
                f"(limit {self._limit:,}).</p>\n"
            )
        self._write(
            f"{_summary(stats)}\n</main>\n<script{self._nonce}>{SCRIPT}</script>\n"
            "</body>\n</html>\n"
        )


def render_page(
    results: Iterable[Item],
    /,
    *,
    title: str = "thinkparse",
    limit: int = 1000,
    nonce: Optional[str] = None,
) -> str:
    """Many records as one standalone HTML page (see docs/behaviour.md#h2).

    Args:
        results: ``Parsed``, ``Split`` or ``Extraction`` values, or ``(msg_id, result)`` pairs.
        title: the page title.
        limit: how many cards to show; the statistics cover every record.
        nonce: a Content-Security-Policy nonce for the page's ``<style>`` and ``<script>``.

    Returns:
        The page: summary, histogram, one card per record with its reasoning collapsed.

    Raises:
        TypeError: an item is not a result or a ``(str | None, result)`` pair (the message
            names it, as ``results[3]``), or an option has the wrong type.
        ValueError: ``limit`` is negative, or ``nonce`` is not base64.
    """
    parts: list[str] = []
    _fill(PageWriter(parts.append, title=title, limit=limit, nonce=nonce), results)
    return "".join(parts)


def write_page(
    results: Iterable[Item],
    out: BinaryIO,
    *,
    title: str = "thinkparse",
    limit: int = 1000,
    nonce: Optional[str] = None,
) -> None:
    """Stream :func:`render_page`'s page to a binary file as UTF-8, one record at a time.

    Memory stays bounded however many records ``results`` yields (see the module docstring).

    Args:
        results: ``(msg_id, result)`` pairs (or bare results), consumed lazily.
        out: where the page goes (``sys.stdout.buffer``, a file opened ``"wb"``).
        title: the page title.
        limit: how many cards to show.
        nonce: a Content-Security-Policy nonce for the ``<style>`` and ``<script>``.

    Raises:
        TypeError: as :func:`render_page`.
        ValueError: as :func:`render_page`.
    """
    sink = Utf8Sink(out)
    _fill(PageWriter(sink.write, title=title, limit=limit, nonce=nonce), results)
    sink.flush()


class Utf8Sink:
    """Text to a binary stream as UTF-8, in writes of about 64 K characters."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._parts: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        """Queue ``text``; write the queue once it is large."""
        self._parts.append(text)
        self._size += len(text)
        if self._size >= _FLUSH:
            self.flush()

    def flush(self) -> None:
        """Write everything queued."""
        if self._parts:
            self._out.write("".join(self._parts).encode("utf-8"))
            self._parts.clear()
            self._size = 0


def _fill(writer: PageWriter, results: Iterable[Item]) -> None:
    if isinstance(results, (str, bytes)) or not isinstance(results, Iterable):
        raise TypeError(f"results must be an iterable of results, not {type(results).__name__}")
    for index, item in enumerate(results):
        writer.add(*_item(item, index))
    writer.finish()


class PageStream:
    """:func:`render_page`'s page written to a binary file while the results arrive.

    For a caller that produces results one by one (pushes them rather than handing over an
    iterable): ``append((msg_id, result))`` writes each card as it comes, like a list;
    ``close()`` writes the summary and the end.  Memory stays bounded however many records are
    appended (the summary is written after the cards and shown first by the page's CSS).

    Example:
        >>> import io, thinkparse
        >>> out = io.BytesIO()
        >>> page = thinkparse.PageStream(out, title="run 7")
        >>> page.append(("q1", thinkparse.split_think("<think>plan</think>answer")))
        >>> page.close()
        >>> out.getvalue().startswith(b"<!DOCTYPE html>")
        True
    """

    def __init__(self, out: BinaryIO, *, title: str = "thinkparse", limit: int = 1000) -> None:
        """Start the page on ``out`` (its head is written at once).

        Args:
            out: a binary stream, such as ``sys.stdout.buffer`` or a file opened ``"wb"``.
            title: the page title.
            limit: how many cards to show; the statistics cover every record.

        Raises:
            TypeError: ``title`` is not a ``str`` or ``limit`` not an ``int``.
            ValueError: ``limit`` is negative.
        """
        self._sink = Utf8Sink(out)
        self._writer = PageWriter(self._sink.write, title=title, limit=limit, nonce=None)
        self._count = 0
        self._closed = False

    def append(self, item: tuple[Optional[str], Result]) -> None:
        """Add one record: its card is written now (if within ``limit``), its numbers counted.

        Raises:
            TypeError: ``item`` is not a ``(str | None, result)`` pair.
            ValueError: the page is closed.
        """
        if self._closed:
            raise ValueError("the page is closed")
        where = f"record {self._count}"
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"{where} must be a (msg_id, result) pair")
        msg_id = check_msg_id(item[0], f"{where} msg_id")
        result = check_result(item[1], f"{where} result")
        self._count += 1
        self._writer.add(msg_id, result)

    def close(self) -> None:
        """Write the left-out line, the summary, the script and the end (once)."""
        if not self._closed:
            self._closed = True
            self._writer.finish()
            self._sink.flush()
