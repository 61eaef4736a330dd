"""Inline markup in visible text (P3, P4): the whole-text split, the stream's router, sections.

**Whole texts** (:func:`split_inline`).  Harmony is looked for first (its tokens are
unambiguous), then ``<think>`` tags, split by the scan front end
(:func:`thinkparse.scan._think.text_splitter`) with ``start_in_reasoning="auto"`` unless the
caller's options (W4) or the model's preset (P13) say otherwise.  Both parts are stripped.

**Streams** (:class:`InlineRouter`).  Until the first visible text arrives the route is
undecided.  If readable (or redacted) dedicated reasoning was seen by then, visible text passes
through unchanged (P4).  Otherwise, when ``start_in_reasoning`` is off and the text starts (after
whitespace) with a harmony token that can open a completion (``<|start|>``, ``<|channel|>``,
``<|message|>``, ``<|constrain|>``), it goes through a
:class:`~thinkparse.scan._harmony.HarmonyScanner`; any other text goes through a
:class:`~thinkparse.ThinkScanner` built from the normaliser's options.  The route is kept for
the rest of the message; whether inline markup was found (so that the result is stripped, P3)
is the scanner's ``tag_consumed`` / ``had_block``, so nothing of the stream is kept.  While it
is undecided, leading whitespace and a prefix of those tokens are held (at most 1024
characters; past that the route is decided with what is there).  Harmony markup that does not
start the content is not recognised in streams.

**Sections** (:func:`inline_sections`).  Inline markup gives one
:class:`~thinkparse.ReasoningBlock` per extracted section -- a ``<think>`` element or a harmony
analysis message -- with ``wire == {}`` (X1).  The splitters report the sections joined, so
they are found again, on first use of the turn, from the text the reasoning was split from:
the text is fed to a ``ThinkScanner`` with the same options, cut before every character that
can begin a tag or delimiter, so each piece holds at most one of them; reasoning a piece
releases continues the current section while the scanner stayed inside it (``in_reasoning``).
``"auto"`` is done as ``split_think`` does it: reasoning before an orphan closer
(``orphan_at``) is the first section, the rest is scanned again.  Harmony: one section per
analysis message.  Each section is stripped like the joined reasoning; empty ones are dropped.

Decisions where docs/behaviour.md is silent:

* Inline markup is looked for in every family's visible text, not only in OpenAI-compatible
  ``content``: a family without dedicated reasoning may still carry a model's raw ``<think>``
  or harmony output.  A payload whose only reasoning is redacted (P6) counts as having
  dedicated reasoning, so its text is returned as it is.
* The joined text of the sections need not equal ``Extraction.reasoning`` character for
  character (the scanner keeps whitespace at a section's end that per-section stripping
  removes); every section's text appears in it, in order.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .._config import options_config
from .._spec import SEPARATOR
from ..scan._harmony import (
    CHANNEL,
    CONSTRAIN,
    MESSAGE,
    START,
    HarmonyScanner,
    harmony_blocks,
    looks_like_harmony,
    split_harmony,
)
from ..scan._scanner import scanner_for
from ._assemble import HARMONY, NONE, TAGS
from ._options import Splitter


# --- whole texts -------------------------------------------------------------------------------
def split_inline(
    text: str, think: Optional[dict[str, Any]], split: Splitter, unclosed: str
) -> Optional[tuple[str, Optional[str], str, Optional[bool]]]:
    """P3: ``(visible, reasoning, format, closed)`` when ``text`` carries inline markup, else
    ``None``; ``split`` is the ``<think>`` splitter of the checked one-shot options ``think``
    (``None``: the defaults), ``unclosed`` what a template-opened block that never closed
    becomes (F7)."""
    if think is None and "<" not in text and "assistantfinal" not in text:
        # The defaults' usual answer: no tag and no harmony token can start without a "<",
        # and the stripped harmony form needs "assistantfinal".
        return None
    if looks_like_harmony(text):
        s = split_harmony(text)
        visible, reasoning, closed = s.visible, s.reasoning, s.closed
        fmt = HARMONY
    else:
        if think is None and "<" not in text:
            return None
        visible, reasoning, closed = split(text, unclosed)
        if reasoning is None:
            return None if visible == text else (visible.strip(), None, NONE, None)
        fmt = TAGS
    reasoning = reasoning.strip() if reasoning is not None else None
    if not reasoning:
        return visible.strip(), None, NONE, None
    return visible.strip(), reasoning, fmt, closed


# --- streams -----------------------------------------------------------------------------------
#: Content starting with one of these goes through the harmony scanner (P3).
OPENING_TOKENS = (START, CHANNEL, MESSAGE, CONSTRAIN)

UNDECIDED, PASS, THINK, HARMONY_ROUTE = 0, 1, 2, 3

#: The most content held while the route is undecided (leading whitespace included).
_MAX_HELD = 1024


class InlineRouter:
    """Routes one message's visible text (see the module docstring).

    :meth:`feed` and :meth:`flush` return ``(visible, reasoning)`` pieces; ``released`` says
    whether reasoning was already released elsewhere (the first inline reasoning then starts
    with ``"\\n\\n"``, S3).
    """

    __slots__ = ("_harmony", "_head", "_make_scanner", "_scan_released", "_scanner", "_sir",
                 "route")

    def __init__(self, make_scanner: Callable[[], Any], start_in_reasoning: bool) -> None:
        self._make_scanner = make_scanner
        self._sir = start_in_reasoning
        self.route = UNDECIDED
        self._head = ""
        self._scanner: Any = None
        self._scan_released = False
        self._harmony: Any = None  # the HarmonyScanner of the harmony route

    def feed(self, text: str, dedicated: bool, released: bool) -> tuple[str, str]:
        """Route ``text``; ``dedicated``: dedicated reasoning was seen (P4)."""
        route = self.route
        if route == THINK:
            v, r = self._scanner.feed(text)
            return v, self._think_reasoning(r, released) if r else r
        if route == PASS:
            return text, ""
        if route == HARMONY_ROUTE:
            return self._harmony_feed(text, released)
        return self._decide(text, False, dedicated, released)

    def _decide(self, text: str, final: bool, dedicated: bool, released: bool) -> tuple[str, str]:
        head = self._head + text
        if dedicated:
            self._head = ""
            self.route = PASS
            return head, ""
        if len(head) > _MAX_HELD:
            final = True  # bound what is held (and re-read) while undecided
        s = head.lstrip()
        harmony = False
        if not self._sir:
            if not final and any(tok.startswith(s) for tok in OPENING_TOKENS):
                self._head = head  # "" or a prefix of a token: wait for more
                return "", ""
            harmony = s.startswith(OPENING_TOKENS)
        elif not final and not s:
            self._head = head
            return "", ""
        self._head = ""
        if harmony:
            self.route = HARMONY_ROUTE
            self._harmony = HarmonyScanner()
            return self._harmony_feed(head, released)
        self.route = THINK
        self._scanner = self._make_scanner()
        if not head:
            return "", ""
        v, r = self._scanner.feed(head)
        return v, self._think_reasoning(r, released) if r else r

    def _think_reasoning(self, r: str, released: bool) -> str:
        # the <think> scanner's first reasoning starts with "\n\n" when reasoning was already
        # released elsewhere (S3)
        if not self._scan_released:
            self._scan_released = True
            if released:
                r = SEPARATOR + r
        return r

    def _harmony_feed(self, text: str, released: bool, final: bool = False) -> tuple[str, str]:
        h = self._harmony  # (set together with the route)
        h.separate = released and not h.released
        v, r = h.close() if final else h.feed(text)
        return v, r

    def flush(self, dedicated: bool, released: bool) -> tuple[str, str]:
        """End of the message: release what the scanners hold."""
        v1 = r1 = ""
        if self.route == UNDECIDED and self._head:
            v1, r1 = self._decide("", True, dedicated, released)
            released = released or bool(r1)
        if self.route == THINK:
            v, r = self._scanner.close()
            return v1 + v, r1 + (self._think_reasoning(r, released) if r else r)
        if self.route == HARMONY_ROUTE:
            v, r = self._harmony_feed("", released, final=True)
            return v1 + v, r1 + r
        return v1, r1

    def closed(self) -> Optional[bool]:
        """Whether the last inline reasoning block was closed (F7), ``None`` for no block."""
        if self.route == THINK:
            closed: Optional[bool] = self._scanner.reasoning_closed
            return closed
        if self.route == HARMONY_ROUTE:
            closed = self._harmony.reasoning_closed
            return closed
        return None

    def found(self) -> bool:
        """Whether inline markup was found (the result is then stripped, P3)."""
        if self.route == THINK:
            # The scanner's own account (docs/behaviour.md#t8, #t9): a consumed tag or a block
            # means the text was changed; nothing of the stream is kept to compare.
            sc = self._scanner
            return bool(self._sir or self._scan_released or sc.tag_consumed or sc.had_block)
        return self.route == HARMONY_ROUTE and bool(self._harmony.found)


# --- sections (X1) -----------------------------------------------------------------------------
def inline_sections(fmt: str, text: str, think: Optional[dict[str, Any]]) -> list[str]:
    """The texts of the inline reasoning sections of ``text`` (the text the reasoning was
    split from, in format ``fmt``), in order (X1); ``think`` are the checked ``split_think``
    options (``None``: the one-shot default, ``start_in_reasoning="auto"``)."""
    if fmt == HARMONY:
        return harmony_blocks(text)
    options = dict(think) if think else {}
    if think is None:
        options["start_in_reasoning"] = "auto"
    if options.get("start_in_reasoning") != "auto":
        return _stripped(_sections(text, options)[0])
    options["start_in_reasoning"] = False
    sections, orphan_at = _sections(text, options)
    if orphan_at is None:
        return _stripped(sections)
    first = text[:orphan_at].strip()
    rest, _ = _sections(text[orphan_at:], options)
    return ([first] if first else []) + _stripped(rest)


def _stripped(sections: list[list[str]]) -> list[str]:
    return [s for s in ("".join(pieces).strip() for pieces in sections) if s]


def _sections(text: str, options: dict[str, Any]) -> tuple[list[list[str]], Optional[int]]:
    cfg = options_config(options, allow_auto=False)
    sc = scanner_for(cfg)
    sections: list[list[str]] = []
    closed = True  # the next reasoning released starts a new section
    n = len(text)
    # The next position of each character that can begin a candidate (each searched once per
    # occurrence: linear in the text).
    nxt = {ch: text.find(ch, 1) for ch in cfg.first_chars}
    start = 0
    while start < n:
        end = n
        for ch, i in nxt.items():
            if 0 <= i <= start:
                i = nxt[ch] = text.find(ch, start + 1)
            if 0 <= i < end:
                end = i
        closed = _take(sc.feed(text[start:end]).reasoning, sc, sections, closed)
        start = end
    _take(sc.close().reasoning, sc, sections, closed)
    return sections, sc.orphan_at


def _take(r: str, sc: Any, sections: list[list[str]], closed: bool) -> bool:
    if r:
        if closed or not sections:
            sections.append([r])
        else:
            sections[-1].append(r)
        return not sc.in_reasoning
    return closed or not sc.in_reasoning
