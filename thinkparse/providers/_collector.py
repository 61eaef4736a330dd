"""The one collector: every family decoder feeds it parts; it alone builds the Extraction.

A stream's decoder (one per family, see :mod:`._registry`) turns each event into a small set of
parts and hands them to a :class:`Collector`:

* ``reasoning(key, text, fmt)`` -- readable reasoning text belonging to segment ``key``;
* ``signature(sig)``, ``redact()`` -- a reasoning signature; unreadable reasoning (P6);
* ``visible(text)`` -- answer text;
* ``usage(...)``, ``finish(reason)`` -- figures and the finish reason as reported (P12, W4).

The usual event holds one piece of text: ``reasoning_delta`` / ``visible_delta`` take it and
return the event's :class:`~thinkparse.Delta` at once (no ``take()`` call).  The raw wire items
(the turn, X1/X2) are added up by the decoder's accumulator (:mod:`._accumulate`), which the
collector hands to the Extraction it builds.  A whole response takes a shorter road, without a
collector: :func:`._assemble.whole_extraction` builds the same result from the parts the
family's ``response(d, choice)`` function returns in one tuple (:data:`._assemble.Parts`).  The
rules that do not depend on the wire format:

* **Reasoning segments (P2, S3).**  Pieces with the same key as the previous piece continue its
  segment; a new key starts a new segment.  A segment's leading whitespace is held until its
  first non-whitespace character, which goes out preceded by ``"\\n\\n"`` when earlier reasoning
  was released; a whitespace-only segment releases nothing.  Segment text is otherwise verbatim.
  Held whitespace is kept in a list (a run of a million whitespace pieces stays linear).
* **Visible text (P1, P3, P4).**  Whole responses: the answer's pieces are concatenated and, when
  no dedicated (readable or redacted) reasoning exists, split for inline markup at the end with
  ``start_in_reasoning="auto"`` (or the caller's options, W4).  Streams: routed by
  :class:`~._inline.InlineRouter`.
* **Usage (P12).**  Each figure is replaced whenever a part reports it (last value wins).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Optional

from .._spec import SEPARATOR
from .._types import EMPTY_DELTA as _EMPTY
from .._types import Delta, Extraction
from ._assemble import (
    HARMONY,
    NONE,
    TAGS,
    finish_text,
    new_result,
)
from ._inline import InlineRouter
from ._options import model_scanner

_new_delta = tuple.__new__


class Collector:
    """Collects the parts of one streamed message (see the module docstring).

    Args:
        make_scanner: builds the stream's :class:`~thinkparse.ThinkScanner` (``None``: the
            default scanner).
        start_in_reasoning: the stream's content starts inside a reasoning block.
    """

    # Every attribute is set here, in slots: a stream touches most of them on its first
    # events, and slots keep those first writes as cheap as the later ones (docs/behaviour.md
    # #p9's cost goal).
    __slots__ = (
        "_dedicated", "_dr", "_dv", "_fmt", "_make_scanner", "_pending", "_rea", "_redacted",
        "_released", "_router", "_seg_key", "_seg_started", "_signatures", "_sir", "_u", "_vis",
        "finish_reason", "model", "options",
    )

    def __init__(
        self,
        make_scanner: Optional[Callable[[], Any]] = None,
        start_in_reasoning: bool = False,
    ) -> None:
        self._make_scanner = make_scanner
        self._sir = start_in_reasoning
        self._vis: list[str] = []
        self._rea: list[str] = []
        self._dv = ""
        self._dr = ""
        self._released = False
        self._seg_key: Any = None
        self._seg_started = False
        self._pending: Optional[list[str]] = None
        self._dedicated = False
        self._fmt: Optional[str] = None
        self._redacted = False
        self._signatures: Optional[list[str]] = None
        self._router: Optional[InlineRouter] = None
        self._u: Optional[list[Optional[int]]] = None
        self.finish_reason: Optional[str] = None
        #: The stream's checked scanner options (``None``: the defaults).
        self.options: Optional[dict[str, Any]] = None
        #: The model the stream names, when no option was given: its preset's scanner is used
        #: if the stream's first visible text needs one (P13).
        self.model: Optional[str] = None

    # --- parts -------------------------------------------------------------------------------
    def reasoning(self, key: Any, text: str, fmt: str) -> None:
        """A piece of dedicated reasoning belonging to segment ``key``."""
        if not text:
            return
        if key == self._seg_key and self._seg_started:
            self._dr += text
            return
        self._dr += self._begin(key, text, fmt)

    def _begin(self, key: Any, text: str, fmt: str) -> str:
        """A non-empty piece that does not continue a started segment: the text it releases
        (``""`` while the segment holds only whitespace)."""
        if key != self._seg_key:
            self._seg_key = key
            self._seg_started = False
            self._pending = None
        if text.isspace():
            if self._pending is None:
                self._pending = [text]
            else:
                self._pending.append(text)
            return ""
        self._seg_started = True
        if self._pending:
            text = "".join(self._pending) + text
            self._pending = None
        if self._released:
            text = SEPARATOR + text
        self._released = True
        self._dedicated = True
        if self._fmt is None:
            self._fmt = fmt
        return text

    def end_segment(self) -> None:
        """The current reasoning segment is over (the next piece starts a new one)."""
        self._seg_key = None

    def redact(self) -> None:
        """Unreadable reasoning was present (P6); it also counts as dedicated reasoning (P4)."""
        self._redacted = True
        self._dedicated = True

    def signature(self, sig: Optional[str]) -> None:
        """A reasoning signature, in order."""
        if sig:
            if self._signatures is None:
                self._signatures = [sig]
            else:
                self._signatures.append(sig)

    def usage(
        self,
        input_tokens: Optional[int],
        output_tokens: Optional[int],
        total_tokens: Optional[int],
        reasoning_tokens: Optional[int],
    ) -> None:
        """Figures a part reported; ``None`` leaves a figure as it was (P12)."""
        u = self._u
        if u is None:
            self._u = [input_tokens, output_tokens, total_tokens, reasoning_tokens]
            return
        if input_tokens is not None:
            u[0] = input_tokens
        if output_tokens is not None:
            u[1] = output_tokens
        if total_tokens is not None:
            u[2] = total_tokens
        if reasoning_tokens is not None:
            u[3] = reasoning_tokens

    def finish(self, reason: Any) -> None:
        """The finish reason as reported (a non-empty string; others are ignored, W4)."""
        text = reason if type(reason) is str else finish_text(reason)
        if text:
            self.finish_reason = text

    def visible(self, text: str) -> None:
        """Answer text (P1); in streams inline markup is routed here (P3, P9)."""
        if not text:
            return
        router = self._router
        if router is None:
            if self._dedicated:  # the route a router would take for good (P4): no router
                self._dv += text
                return
            if self.model is not None:
                made = model_scanner(self.model)  # P13: the model's preset (no option given)
                if made is not None:
                    self._make_scanner, self._sir, self.options = made
            router = self._router = InlineRouter(
                self._make_scanner or _default_scanner, self._sir
            )
        v, r = router.feed(text, self._dedicated, self._released)
        if v:
            self._dv += v
        if r:
            self._released = True
            self._dr += r

    # --- stream bookkeeping ------------------------------------------------------------------
    def take(self) -> Delta:
        """What the parts since the last call released, as a :class:`Delta`."""
        dv = self._dv
        dr = self._dr
        if dv:
            self._vis.append(dv)
            self._dv = ""
            if dr:
                self._rea.append(dr)
                self._dr = ""
            return _new_delta(Delta, (dv, dr))
        if dr:
            self._rea.append(dr)
            self._dr = ""
            return _new_delta(Delta, (dv, dr))
        return _EMPTY

    def reasoning_delta(self, key: Any, text: str, fmt: str) -> Delta:
        """``reasoning(key, text, fmt)`` then ``take()``, for a stream event holding one piece.

        The short path of a stream's usual event (docs/behaviour.md#p9's cost goal): a piece
        continuing a started segment is released as it is, with no call; another goes through
        ``_begin`` as in ``reasoning``.  Only valid right after a ``take()`` (nothing released
        since), which ``feed`` guarantees.
        """
        if not text:
            return _EMPTY
        if key != self._seg_key or not self._seg_started:
            text = self._begin(key, text, fmt)
            if not text:
                return _EMPTY
        self._rea.append(text)
        return _new_delta(Delta, ("", text))

    def visible_delta(self, text: str) -> Delta:
        """``visible(text)`` then ``take()``, for a stream event holding one piece of answer
        text; valid right after a ``take()`` (see :meth:`reasoning_delta`)."""
        router = self._router
        if router is None:
            if self._dedicated and text:  # as visible(): no router after dedicated reasoning
                self._vis.append(text)
                return _new_delta(Delta, (text, ""))
            self.visible(text)
            return self.take()
        if not text:
            return _EMPTY
        sc = router.think_scanner
        if sc is not None:  # the <think> route, without a call to the router
            v, r = sc.feed(text)
            if r:
                r = router.scan_reasoning(r, self._released)
        else:
            v, r = router.feed(text, self._dedicated, self._released)
        if r:
            self._released = True
            self._rea.append(r)
            if v:
                self._vis.append(v)
            return _new_delta(Delta, (v, r))
        if v:
            self._vis.append(v)
            return _new_delta(Delta, (v, ""))
        return _EMPTY

    def flush(self) -> None:
        """End of the message: release what the inline scanners hold."""
        router = self._router
        if router is not None:
            v, r = router.flush(self._dedicated, self._released)
            if v:
                self._dv += v
            if r:
                self._released = True
                self._dr += r

    # --- the result --------------------------------------------------------------------------
    def result(
        self,
        provider: str,
        response: Optional[Mapping[str, Any]] = None,
        choice: int = 0,
        stream: Any = None,
        make_turn: Optional[Callable[..., Any]] = None,
    ) -> Extraction:
        """The :class:`~thinkparse.Extraction` of every part collected.

        Args:
            provider: the family name (``"unknown"`` for an empty stream).
            response: the response the turn is read from (X1, X2).
            choice: the choice read.
            stream: a stream's accumulator: the turn reads the response it adds up to on
                first use (and its errors surface in the message).  With neither: no turn.
            make_turn: what builds the turn from ``(provider, response, choice, stream,
                inline)`` on first use (:class:`._turn.Turn`, given by the caller: the
                collector sits below the turn's modules).  Without it: no turn.
        """
        self.take()
        visible = "".join(self._vis)
        reasoning: Optional[str] = "".join(self._rea)
        router = self._router
        fmt = self._fmt
        if router is not None and router.inline():
            visible = visible.strip()
            reasoning = reasoning.strip() if reasoning else reasoning
        if not reasoning or reasoning.isspace():
            reasoning = None
            fmt = NONE
        elif fmt is None:
            fmt = HARMONY if router is not None and router.harmony else TAGS
        if visible and visible.isspace():
            visible = ""
        turn = None
        if make_turn is not None and (response is not None or stream is not None):
            # Inline blocks are found again from the content on first use (X1).
            found = (fmt, None, self.options or {}) if fmt in (TAGS, HARMONY) else None
            turn = (make_turn, provider, response, choice, stream, found)
        return new_result(
            visible,
            reasoning,
            self._redacted,
            tuple(self._signatures) if self._signatures else (),
            provider,
            fmt or NONE,
            self._u,
            self.finish_reason,
            turn,
        )


def _default_scanner() -> Any:
    from ..scan._scanner import ThinkScanner

    return ThinkScanner()
