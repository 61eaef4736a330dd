"""The output side of :class:`~thinkparse.StreamNormalizer`, shared by every family's adapter.

Adapters decode events and call :meth:`Emitter.visible`, :meth:`Emitter.reasoning`,
:meth:`Emitter.redact`, :meth:`Emitter.signature` and :meth:`Emitter.usage`; the emitter applies
the rules that do not depend on the wire format:

* **Reasoning segments (P2, S3).**  Each dedicated reasoning piece carries a segment key (a
  thinking block's index, a summary part's ``(item, part)``...).  Pieces with the same key as the
  previous piece continue its segment; a new key starts a new segment.  A segment's leading
  whitespace is held until its first non-whitespace character, which goes out preceded by
  ``"\\n\\n"`` when earlier reasoning was released; a whitespace-only segment releases nothing.
  Segment text is otherwise verbatim, as in the one-shot result.
* **Visible text and inline markup (P3, P4, P9).**  Until the first visible text arrives the
  route is undecided.  If readable (or redacted) dedicated reasoning was seen by then, visible
  text passes through unchanged (P4).  Otherwise, when ``start_in_reasoning`` is off and the
  text starts (after whitespace) with a harmony token that can open a completion
  (``<|start|>``, ``<|channel|>``, ``<|message|>``, ``<|constrain|>``), it goes through a
  harmony scanner; any other text goes through a :class:`~thinkparse.ThinkScanner` built from
  the normaliser's options.  The route is kept for the rest of the message.  While it is
  undecided, leading whitespace and a prefix of those tokens are held (at most 1024 characters;
  past that the route is decided with what is there).
  Harmony markup that does not start the content is not recognised in streams.
* **Usage (P12).**  Each figure is replaced whenever an event reports it (last value wins).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .._spec import SEPARATOR
from .._types import Extraction, tokens_estimate
from ._common import BLOCKS, FIELD, HARMONY, NONE, TAGS, make_usage, new_extraction
from .harmony import CHANNEL, CONSTRAIN, MESSAGE, START, HarmonyScanner

#: Content starting with one of these goes through the harmony scanner (P3).
OPENING_TOKENS = (START, CHANNEL, MESSAGE, CONSTRAIN)

UNDECIDED, PASS, THINK, HARMONY_MODE = 0, 1, 2, 3

#: The most content held while the route is undecided (leading whitespace included).
_MAX_HELD = 1024

__all__ = ["BLOCKS", "FIELD", "Emitter"]


class Emitter:
    """Collects what one message's events release (see the module docstring)."""

    __slots__ = (
        "_allow_harmony",
        "_harmony",
        "_head",
        "_make_scanner",
        "_scan_released",
        "_scanner",
        "_seg_key",
        "_seg_pending",
        "_seg_started",
        "_sir",
        "dedicated",
        "dedicated_fmt",
        "dr",
        "dv",
        "mode",
        "rea",
        "redacted",
        "released",
        "signatures",
        "u_in",
        "u_out",
        "u_reasoning",
        "u_total",
        "vis",
    )

    def __init__(self, make_scanner: Callable[[], Any], start_in_reasoning: bool) -> None:
        self._make_scanner = make_scanner
        self._sir = start_in_reasoning
        self._allow_harmony = not start_in_reasoning
        self.dv = ""  # visible released by the event being decoded
        self.dr = ""  # reasoning released by the event being decoded
        self.vis: list[str] = []
        self.rea: list[str] = []
        self.released = False
        self._seg_key: Any = None
        self._seg_started = False
        self._seg_pending = ""
        self.dedicated = False
        self.dedicated_fmt: Optional[str] = None
        self.redacted = False
        self.signatures: list[str] = []
        self.mode = UNDECIDED
        self._head = ""
        self._scanner: Any = None
        self._scan_released = False
        self._harmony: Optional[HarmonyScanner] = None
        self.u_in: Optional[int] = None
        self.u_out: Optional[int] = None
        self.u_total: Optional[int] = None
        self.u_reasoning: Optional[int] = None

    # --- what adapters call ------------------------------------------------------------------
    def reasoning(self, key: Any, text: str, fmt: str) -> None:
        """A piece of dedicated reasoning belonging to segment ``key``."""
        if not text:
            return
        if key != self._seg_key:
            self._seg_key = key
            self._seg_started = False
            self._seg_pending = ""
        if self._seg_started:
            self.dr += text
            return
        if text.isspace():
            self._seg_pending += text
            return
        self._seg_started = True
        if self._seg_pending:
            text = self._seg_pending + text
            self._seg_pending = ""
        if self.released:
            text = SEPARATOR + text
        self.released = True
        self.dedicated = True
        if self.dedicated_fmt is None:
            self.dedicated_fmt = fmt
        self.dr += text

    def end_segment(self) -> None:
        """The current reasoning segment is over (the next piece starts a new one)."""
        self._seg_key = None

    def redact(self) -> None:
        """Unreadable reasoning was present (P6); it also counts as dedicated reasoning (P4)."""
        self.redacted = True
        self.dedicated = True

    def signature(self, sig: Optional[str]) -> None:
        """A reasoning signature, in order."""
        if sig:
            self.signatures.append(sig)

    def usage(
        self,
        input_tokens: Optional[int],
        output_tokens: Optional[int],
        total_tokens: Optional[int],
        reasoning_tokens: Optional[int],
    ) -> None:
        """Figures an event reported; ``None`` leaves a figure as it was (P12)."""
        if input_tokens is not None:
            self.u_in = input_tokens
        if output_tokens is not None:
            self.u_out = output_tokens
        if total_tokens is not None:
            self.u_total = total_tokens
        if reasoning_tokens is not None:
            self.u_reasoning = reasoning_tokens

    def visible(self, text: str) -> None:
        """Answer text (content deltas); inline markup is handled here (P3, P9)."""
        if not text:
            return
        mode = self.mode
        if mode == PASS:
            self.dv += text
        elif mode == THINK:
            self._think(text)
        elif mode == HARMONY_MODE:
            self._harmony_feed(text)
        else:
            self._decide(text, False)

    # --- routing -----------------------------------------------------------------------------
    def _decide(self, text: str, final: bool) -> None:
        head = self._head + text
        if self.dedicated:
            self._head = ""
            self.mode = PASS
            self.dv += head
            return
        if len(head) > _MAX_HELD:
            final = True  # bound what is held (and re-read) while undecided
        s = head.lstrip()
        harmony = False
        if self._allow_harmony:
            if not final and any(tok.startswith(s) for tok in OPENING_TOKENS):
                self._head = head  # "" or a prefix of a token: wait for more
                return
            harmony = s.startswith(OPENING_TOKENS)
        elif not final and not s:
            self._head = head
            return
        self._head = ""
        if harmony:
            self.mode = HARMONY_MODE
            self._harmony = HarmonyScanner()
            self._harmony_feed(head)
        else:
            self.mode = THINK
            self._scanner = self._make_scanner()
            if head:
                self._think(head)

    def _think(self, text: str) -> None:
        v, r = self._scanner.feed(text)
        if v:
            self.dv += v
        if r:
            self._scan_reasoning(r)

    def _scan_reasoning(self, r: str) -> None:
        if not self._scan_released:
            self._scan_released = True
            if self.released:
                r = SEPARATOR + r
            self.released = True
        self.dr += r

    def _harmony_feed(self, text: str) -> None:
        h = self._harmony
        if h is None:  # pragma: no cover - set together with the mode
            return
        h.separate = self.released and not h.released
        v, r = h.feed(text)
        if v:
            self.dv += v
        if r:
            self.released = True
            self.dr += r

    # --- end ---------------------------------------------------------------------------------
    def flush(self) -> None:
        """End of the message: release what the scanners hold."""
        if self.mode == UNDECIDED and self._head:
            self._decide("", True)
        if self.mode == THINK:
            v, r = self._scanner.close()
            if v:
                self.dv += v
            if r:
                self._scan_reasoning(r)
        elif self.mode == HARMONY_MODE:
            h = self._harmony
            if h is None:  # pragma: no cover - set together with the mode
                return
            h.separate = self.released and not h.released
            v, r = h.close()
            if v:
                self.dv += v
            if r:
                self.released = True
                self.dr += r

    def result(self, provider: str) -> Extraction:
        """The :class:`Extraction` of everything released (P9)."""
        visible = "".join(self.vis)
        reasoning: Optional[str] = "".join(self.rea)
        inline = False
        if self.mode == THINK:
            inline = (
                self._sir
                or self._scan_released
                or self._scanner.tag_consumed  # markup was removed (T8: only with a tag)
            )
        elif self.mode == HARMONY_MODE:
            h = self._harmony
            inline = h is not None and h.found
        if inline:
            visible = visible.strip()
            reasoning = reasoning.strip() if reasoning else reasoning
        if visible.isspace():
            visible = ""
        if not reasoning or reasoning.isspace():
            reasoning = None
            fmt = NONE
        elif self.dedicated_fmt is not None:
            fmt = self.dedicated_fmt
        elif self.mode == HARMONY_MODE:
            fmt = HARMONY
        else:
            fmt = TAGS
        usage = make_usage(self.u_in, self.u_out, self.u_reasoning, self.u_total)
        return new_extraction(
            visible,
            reasoning,
            usage.reasoning_tokens,
            tokens_estimate(reasoning),
            self.redacted,
            tuple(self.signatures),
            provider,
            fmt,
            usage,
        )
