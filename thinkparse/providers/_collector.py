"""The one collector of a stream: family decoders hand it parts; it builds deltas and the result.

A stream's decoder (one per family, :mod:`._registry`) turns each event into parts:

* ``reasoning(key, text, fmt)`` -- readable reasoning text belonging to the segment ``key``
  (a :class:`SegmentKey`);
* ``signature(sig)``, ``redact()`` -- a reasoning signature; unreadable reasoning (P6);
* ``visible(text)`` -- answer text, routed for inline markup (:class:`~._inline.InlineRouter`);
* ``usage(figures)``, ``finish(reason)`` -- figures and the finish reason as reported (P12, W4);
* ``error_event(holder, event)`` -- the wire said the provider failed (P16): the finish reason
  becomes ``"error"`` and :class:`~thinkparse.ProviderError` is raised with the provider's type
  and message (:func:`error_fields`);
* ``response_started(event)`` / ``new_response(what)`` -- a response begins: the second one in
  a stream raises :class:`~thinkparse.ResponseShapeError` (P17) before anything of it is read.

Either ends the message: :attr:`Collector.ended` holds the error, and the stream closes its
collector (what came before stays readable as the result).

What the parts release goes into the result and into :attr:`Collector.delta`, the
:class:`~thinkparse.Delta` the stream takes after each event; at the end
:meth:`Collector.result` hands everything to the one assembly both roads share
(:func:`._assemble.assemble`).  The raw wire items (the turn, X1/X2) are added up by the
decoder's accumulator, which the result keeps.  The rules:

* **Reasoning segments (P2, S3).**  Pieces with the same key as the previous piece continue its
  segment; a new key starts a new segment.  A segment's leading whitespace is held until its
  first non-whitespace character, which goes out preceded by ``"\\n\\n"`` when earlier reasoning
  was released; a whitespace-only segment releases nothing.  Segment text is otherwise verbatim.
  Held whitespace is kept in a list (a run of a million whitespace pieces stays linear).
* **Visible text (P1, P3, P4).**  After dedicated (readable or redacted) reasoning, visible text
  passes as it is; otherwise it goes through the inline router, whose scanner comes from the
  stream's options or, when none was given, the preset of the model the stream names (P13).
  When markup was found the result's two texts are stripped.
* **Usage (P12).**  Each figure is replaced whenever a part reports it (last value wins).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, NoReturn, Optional

from .._errors import ProviderError, ResponseShapeError, ThinkParseError
from .._presets import PRESET_ALIASES
from .._spec import SEPARATOR
from .._types import EMPTY_DELTA, Delta, Extraction
from ._access import Figures, as_map
from ._assemble import HARMONY, TAGS, assemble, finish_text
from ._inline import HARMONY_ROUTE, InlineRouter
from ._options import StreamScanner, model_scanner


class SegmentKey(NamedTuple):
    """Which reasoning segment a piece belongs to (P2): equal keys continue one segment."""

    source: str
    """Where the segment comes from: ``"field"``, ``"detail"``, ``"chunk"``, ``"content"``
    (an Anthropic or Bedrock content item), ``"run"`` (Gemini thought parts), ``"summary"``,
    ``"raw"`` (Responses reasoning parts)."""
    index: Any
    """Its position within that source."""


_new_delta = tuple.__new__
#: Where an error object names its type, in order of preference: a type name, the google.rpc
#: status name (Gemini, whose ``code`` is the HTTP number), the code.
_ERROR_TYPES = ("type", "status", "code")


def error_fields(holder: Any) -> tuple[Any, Any]:
    """The provider's ``(type, message)`` of an error report (P16): ``holder``'s ``error``
    object (``type``, else ``status``, else ``code``; ``message``), or its ``error`` string as
    the message, or, with no ``error``, its own ``code`` and ``message`` (the Responses
    ``error`` event).  ``None`` for what is not there."""
    m = as_map(holder)
    if m is None:
        return None, None
    err = m.get("error")
    if isinstance(err, str):
        return m.get("code"), err
    e = as_map(err)
    if e is None:
        return m.get("code"), m.get("message")
    kind = next((v for k in _ERROR_TYPES if (v := e.get(k)) is not None and v != ""), None)
    return kind, e.get("message")


class Collector:
    """Collects the parts of one streamed message (see the module docstring) with the
    stream's inline ``scanner`` (its factory, whether it starts in reasoning and its checked
    options, :mod:`._options`); when no option was given, :attr:`model` selects the preset."""

    __slots__ = (
        "_dedicated", "_figures", "_fmt", "_pending", "_pending_key", "_rea",
        "_redacted", "_released", "_router", "_scanner", "_segment", "_signatures", "_vis",
        "delta", "ended", "finish_reason", "model", "responses",
    )

    def __init__(self, scanner: StreamScanner) -> None:
        self._scanner = scanner
        self._vis: list[str] = []  # the visible and reasoning pieces released
        self._rea: list[str] = []
        #: What the parts released since the stream last took it (then set back to
        #: :data:`~thinkparse._types.EMPTY_DELTA`): the event's delta.
        self.delta = EMPTY_DELTA
        self._released = False
        self._segment: Optional[SegmentKey] = None  # the segment released last
        self._pending_key: Optional[SegmentKey] = None  # the segment whose whitespace is held
        self._pending: Optional[list[str]] = None
        self._dedicated = False
        self._fmt: Optional[str] = None
        self._redacted = False
        self._signatures: list[str] = []
        self._router: Optional[InlineRouter] = None
        self._figures: Optional[Figures] = None
        self.finish_reason: Optional[str] = None
        #: The model the stream names, when no option was given: its preset's scanner is used
        #: if the stream's first visible text needs one (P13).
        self.model: Optional[str] = None
        #: The error that ended the message (P16, P17), ``None`` while it goes on.
        self.ended: Optional[ThinkParseError] = None
        #: Whether an event said a response began.
        self.responses = False

    # --- parts -------------------------------------------------------------------------------
    def reasoning(self, key: SegmentKey, text: str, fmt: str) -> None:
        """A piece of dedicated reasoning belonging to segment ``key``."""
        if key is self._segment or key == self._segment:  # the released segment goes on
            if text:
                self._rea.append(text)
                d = self.delta
                if d is EMPTY_DELTA:
                    self.delta = _new_delta(Delta, ("", text))
                else:
                    self.delta = _new_delta(Delta, (d[0], d[1] + text))
            return
        if not text:
            return
        self._segment = None  # (a piece of another segment ends it)
        pending = self._pending
        if key != self._pending_key:
            self._pending_key = key
            pending = self._pending = None
        if text.isspace():
            if pending is None:
                self._pending = [text]
            else:
                pending.append(text)
            return
        self._segment = key
        if pending:
            text = "".join(pending) + text
            self._pending = None
        if self._released:
            text = SEPARATOR + text
        self._released = True
        self._dedicated = True
        if self._fmt is None:
            self._fmt = fmt
        self._release("", text)

    def redact(self) -> None:
        """Unreadable reasoning was present (P6); it also counts as dedicated reasoning (P4)."""
        self._redacted = True
        self._dedicated = True

    def signature(self, sig: Optional[str]) -> None:
        """A reasoning signature, in order."""
        if sig:
            self._signatures.append(sig)

    def usage(self, figures: Figures) -> None:
        """Figures a part reported; ``None`` leaves a figure as it was (P12)."""
        old = self._figures
        if old is not None and None in figures:
            figures = Figures(o if n is None else n for n, o in zip(figures, old))
        self._figures = figures

    def finish(self, reason: Any) -> None:
        """The finish reason as reported (a non-empty string; others are ignored, W4)."""
        text = reason if type(reason) is str else finish_text(reason)
        if text:
            self.finish_reason = text

    def visible(self, text: str) -> None:
        """Answer text (P1); inline markup is routed here (P3, P9)."""
        if not text:
            return
        router = self._router
        if router is None:
            if self._dedicated:  # the route a router would take for good (P4): no router
                self._release(text, "")
                return
            if self.model is not None:
                made = model_scanner(self.model)  # P13: the model's preset (no option given)
                if made is not None:
                    self._scanner = made
            make, start, _ = self._scanner
            router = self._router = InlineRouter(make, start)
        v, r = router.feed(text, self._dedicated, self._released)
        if r:
            self._released = True
        if v or r:
            self._release(v, r)

    def error_event(self, holder: Any, event: str, kind: Any = None) -> NoReturn:
        """The wire reported a failure in ``holder`` (the event, or the object in it that
        carries the error), an event named ``event``; ``kind`` is the provider's type when
        the event's key names it (Bedrock's exceptions) (P16)."""
        typ, message = error_fields(holder)
        self.finish_reason = "error"
        err = self.ended = ProviderError(typ if kind is None else kind, message, event)
        raise err

    def response_started(self, event: str) -> None:
        """An event named ``event`` said a response begins (``message_start``,
        ``response.created``...); the second one is a new response (P17)."""
        if self.responses:
            self.new_response(f"a second {event!r} event")
        self.responses = True

    def new_response(self, what: str) -> NoReturn:
        """``what`` began a second response in the stream: the message ends here (P17)."""
        err = self.ended = ResponseShapeError("", (
            f"{what} began a second response in one stream; the first response's result stays "
            "readable; call reset() to decode the next one"))
        raise err

    # --- stream bookkeeping ------------------------------------------------------------------
    def _release(self, v: str, r: str) -> None:
        """Visible text ``v`` and reasoning ``r`` go out: into the result and :attr:`delta`."""
        if v:
            self._vis.append(v)
        if r:
            self._rea.append(r)
        d = self.delta
        self.delta = _new_delta(Delta, (v, r) if d is EMPTY_DELTA else (d[0] + v, d[1] + r))

    def flush(self) -> None:
        """End of the message: release what the inline scanners hold."""
        router = self._router
        if router is not None:
            v, r = router.flush(self._dedicated, self._released)
            if r:
                self._released = True
            if v or r:
                self._release(v, r)

    def result(
        self, provider: str, choice: int, stream: Any, make_turn: Optional[Callable[..., Any]]
    ) -> Extraction:
        """The :class:`~thinkparse.Extraction` of every part collected, for the family
        ``provider`` (``"unknown"``: an empty stream) and the ``choice`` read.  The turn is built
        on first use by ``make_turn`` (:class:`._turn.Turn`, given by the caller: the collector
        sits below the turn's modules) from the decoder's accumulator ``stream`` (``None``: no
        turn) (X1, X2)."""
        visible = "".join(self._vis)
        reasoning = "".join(self._rea)
        router = self._router
        fmt = self._fmt
        if router is not None and router.found():
            visible = visible.strip()
            reasoning = reasoning.strip()
        if fmt is None:
            fmt = HARMONY if router is not None and router.route == HARMONY_ROUTE else TAGS
        closed: Optional[bool] = True if self._dedicated else None
        preset = None
        if router is not None:
            if not self._dedicated:
                closed = router.closed()
            options = self._scanner[2]
            preset = options.get("preset") if options else None
            preset = preset and PRESET_ALIASES.get(preset, preset)
        turn = None
        if make_turn is not None and stream is not None:
            # Inline sections are found again from the content on first use (X1).
            inline = self._fmt is None and reasoning and not reasoning.isspace()
            found = (fmt, None, self._scanner[2] or {}) if inline else None
            turn = (make_turn, provider, None, choice, stream, found)
        return assemble(
            visible, reasoning, fmt, self._redacted, self._signatures, self._figures,
            self.finish_reason, provider, turn, closed, preset,
        )
