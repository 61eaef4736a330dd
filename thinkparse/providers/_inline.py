"""Inline markup in streamed content: the route a stream's visible text takes (P3, P4, P9).

Until the first visible text arrives the route is undecided.  If readable (or redacted)
dedicated reasoning was seen by then, visible text passes through unchanged (P4).  Otherwise,
when ``start_in_reasoning`` is off and the text starts (after whitespace) with a harmony token
that can open a completion (``<|start|>``, ``<|channel|>``, ``<|message|>``, ``<|constrain|>``),
it goes through a :class:`~thinkparse.scan._harmony.HarmonyScanner`; any other text goes through a
:class:`~thinkparse.ThinkScanner` built from the normaliser's options.  The route is kept for
the rest of the message; whether inline markup was found (so that the result is stripped, P3)
is the scanner's ``tag_consumed`` / ``had_block``, so nothing of the stream is kept.  While it
is undecided, leading whitespace and a prefix of those tokens
are held (at most 1024 characters; past that the route is decided with what is there).
Harmony markup that does not start the content is not recognised in streams.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .._spec import SEPARATOR
from ..scan._harmony import CHANNEL, CONSTRAIN, MESSAGE, START, HarmonyScanner

#: Content starting with one of these goes through the harmony scanner (P3).
OPENING_TOKENS = (START, CHANNEL, MESSAGE, CONSTRAIN)

UNDECIDED, PASS, THINK, HARMONY_MODE = 0, 1, 2, 3

#: The most content held while the route is undecided (leading whitespace included).
_MAX_HELD = 1024


class InlineRouter:
    """Routes one message's visible text (see the module docstring).

    :meth:`feed` and :meth:`flush` return ``(visible, reasoning)`` pieces; ``released`` says
    whether reasoning was already released elsewhere (the first inline reasoning then starts
    with ``"\\n\\n"``, S3).
    """

    __slots__ = (
        "_allow_harmony",
        "_harmony",
        "_head",
        "_make_scanner",
        "_scan_released",
        "_scanner",
        "_sir",
        "mode",
        "think_scanner",
    )

    def __init__(self, make_scanner: Callable[[], Any], start_in_reasoning: bool) -> None:
        self._make_scanner = make_scanner
        self._sir = start_in_reasoning
        self._allow_harmony = not start_in_reasoning
        self.mode = UNDECIDED
        self._head = ""
        self._scanner: Any = None
        #: The ``<think>`` scanner once the route is decided for it (the collector feeds it
        #: directly then, :meth:`scan_reasoning` for what it releases as reasoning).
        self.think_scanner: Any = None
        self._scan_released = False
        self._harmony: Optional[HarmonyScanner] = None

    def feed(self, text: str, dedicated: bool, released: bool) -> tuple[str, str]:
        """Route ``text``; ``dedicated``: dedicated reasoning was seen (P4)."""
        mode = self.mode
        if mode == PASS:
            return text, ""
        if mode == THINK:  # the usual case, without a call to _think
            v, r = self._scanner.feed(text)
            if r:
                r = self.scan_reasoning(r, released)
            return v, r
        if mode == HARMONY_MODE:
            return self._harmony_feed(text, released)
        return self._decide(text, False, dedicated, released)

    def _decide(self, text: str, final: bool, dedicated: bool, released: bool) -> tuple[str, str]:
        head = self._head + text
        if dedicated:
            self._head = ""
            self.mode = PASS
            return head, ""
        if len(head) > _MAX_HELD:
            final = True  # bound what is held (and re-read) while undecided
        s = head.lstrip()
        harmony = False
        if self._allow_harmony:
            if not final and any(tok.startswith(s) for tok in OPENING_TOKENS):
                self._head = head  # "" or a prefix of a token: wait for more
                return "", ""
            harmony = s.startswith(OPENING_TOKENS)
        elif not final and not s:
            self._head = head
            return "", ""
        self._head = ""
        if harmony:
            self.mode = HARMONY_MODE
            self._harmony = HarmonyScanner()
            return self._harmony_feed(head, released)
        self.mode = THINK
        self._scanner = self.think_scanner = self._make_scanner()
        if head:
            return self._think(head, released)
        return "", ""

    def _think(self, text: str, released: bool) -> tuple[str, str]:
        v, r = self._scanner.feed(text)
        if r:
            r = self.scan_reasoning(r, released)
        return v, r

    def scan_reasoning(self, r: str, released: bool) -> str:
        """Reasoning ``r`` the ``<think>`` scanner released, preceded by ``"\\n\\n"`` when it is
        the scanner's first and reasoning was already released elsewhere (S3)."""
        if not self._scan_released:
            self._scan_released = True
            if released:
                r = SEPARATOR + r
        return r

    def _harmony_feed(self, text: str, released: bool) -> tuple[str, str]:
        h = self._harmony
        if h is None:  # pragma: no cover - set together with the mode
            return "", ""
        h.separate = released and not h.released
        v, r = h.feed(text)
        return v, r

    def flush(self, dedicated: bool, released: bool) -> tuple[str, str]:
        """End of the message: release what the scanners hold."""
        v1 = r1 = ""
        if self.mode == UNDECIDED and self._head:
            v1, r1 = self._decide("", True, dedicated, released)
            released = released or bool(r1)
        if self.mode == THINK:
            v, r = self._scanner.close()
            if r:
                r = self.scan_reasoning(r, released)
            return v1 + v, r1 + r
        if self.mode == HARMONY_MODE:
            h = self._harmony
            if h is None:  # pragma: no cover - set together with the mode
                return v1, r1
            h.separate = released and not h.released
            v, r = h.close()
            return v1 + v, r1 + r
        return v1, r1

    def inline(self) -> bool:
        """Whether inline markup was found (the result is then stripped, P3)."""
        if self.mode == THINK:
            # The scanner's own account (docs/behaviour.md#t8, #t9): a consumed tag or a block
            # means the text was changed; nothing of the stream is kept to compare.
            sc = self._scanner
            return bool(self._sir or self._scan_released or sc.tag_consumed or sc.had_block)
        if self.mode == HARMONY_MODE:
            h = self._harmony
            return h is not None and h.found
        return False

    @property
    def harmony(self) -> bool:
        """The route is the harmony scanner."""
        return self.mode == HARMONY_MODE
