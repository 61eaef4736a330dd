"""``StreamNormalizer``: stream events in; deltas, an Extraction and a message out (P9, X2).

Each event is a parsed stream event (a mapping or an SDK object, P7), never SSE text.  The
family comes from ``provider=`` or from the first event that decides it (P8), and is kept for
the whole message; its decoder reads each event once, handing its parts to the one
:class:`~._collector.Collector` and its wire pieces to its accumulator (the turn, X1/X2).

Decisions where docs/behaviour.md is silent:

* ``result.provider`` is ``"unknown"`` when no event decided the family (an empty stream), and
  ``message`` then raises ``ValueError``.
* An event that raises (``ResponseShapeError``) returns no delta; the normaliser stays usable.
  Text the event released before the malformed field was reached (rare: fields are read in
  order) still counts in ``result``, so the result stays consistent with later separators.
* An error the provider reported (P16) or the start of a second response (P17) ends the
  message: the event raises (:class:`~thinkparse.ProviderError`,
  :class:`~thinkparse.ResponseShapeError`) and the normaliser closes itself, so ``result`` and
  ``message`` hold what came before (the text closing released is the next ``close()``'s
  delta); a later ``feed`` raises :class:`~thinkparse.ScannerClosedError` until
  :meth:`StreamNormalizer.reset`.  An error event that arrives before any event decided the
  family ends an empty message the same way (its ``provider`` is ``"unknown"``).
* The model (P13, when no option was given) is the one the stream's first event names, keep-alives
  aside: on the wire that event is the one that names it (``message_start``,
  ``response.created``, the first chunk or object).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Callable, Optional, Union

from .._errors import ScannerClosedError, ThinkParseError, UnknownProviderError
from .._spec import (
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    AnswerOption,
    TerminatorsOption,
)
from .._types import EMPTY_DELTA, Delta, Extraction, turn_of
from ._access import as_mapping
from ._collector import Collector
from ._family import KEEP_ALIVE, Decoder, Family, Message
from ._options import DEFAULT_STREAM, StreamScanner, check_choice, stream_scanner, think_options
from ._registry import REGISTRY, check_provider, event_family
from ._turn import Turn, check_family_choice


class StreamNormalizer:
    """Normalise a provider's stream, event by event (P9).

    Args:
        provider: the family, or ``None`` to detect it from the first deciding event (P8).
        choice: which choice to follow when the stream carries several (W4).
        start_in_reasoning: content starts inside a reasoning block (T6; ``"auto"`` is not
            available in streams).
        preset: a model family's options for the :class:`~thinkparse.ThinkScanner` that
            inline ``<think>`` content runs through (P3).  When no scanner option is given and
            the first event naming a model does so before any content, the model's preset
            applies (P13).
        tags: as in :class:`~thinkparse.ThinkScanner`, for inline content.
        delimiters: as in :class:`~thinkparse.ThinkScanner`, for inline content.
        code_aware: as in :class:`~thinkparse.ThinkScanner`, for inline content.
        max_tentative: as in :class:`~thinkparse.ThinkScanner`, for inline content.
        terminators: as in :class:`~thinkparse.ThinkScanner` (F2), for inline content.
        answer: as in :class:`~thinkparse.ThinkScanner` (F3), for inline content.
        prompt: as in :class:`~thinkparse.ThinkScanner` (F4): the rendered prompt decides the
            start mode of inline content.

    The result reports ``reasoning_closed`` (F7) and the ``preset`` inline content was read
    with (F8); a block the template opened and the stream never closed stays reasoning (its
    deltas are already out).

    Raises:
        TypeError: an option, ``provider`` or ``choice`` of the wrong type.
        ValueError: an invalid option or ``choice`` value (named in the message), including
            ``start_in_reasoning="auto"``.
        UnknownProviderError: ``provider`` is not a family name.

    >>> sn = StreamNormalizer()
    >>> sn.feed({"choices": [{"delta": {"reasoning_content": "hmm"}}]})
    Delta(visible='', reasoning='hmm')
    >>> sn.feed({"choices": [{"delta": {"content": "Hi"}}]})
    Delta(visible='Hi', reasoning='')
    >>> sn.close()
    Delta(visible='', reasoning='')
    >>> sn.result.visible, sn.result.reasoning, sn.result.format
    ('Hi', 'hmm', 'field')
    """

    __slots__ = ("_choice", "_closed", "_decoder", "_family", "_given", "_held", "_model",
                 "_out", "_provider", "_ready", "_result", "_scanner")

    def __init__(
        self,
        *,
        provider: Optional[str] = None,
        choice: int = 0,
        start_in_reasoning: Union[bool, str] = DEFAULT_START_OPT,
        preset: Optional[str] = None,
        tags: Union[str, Iterable[str], None] = DEFAULT_TAGS_OPT,
        delimiters: Iterable[tuple[str, str]] = DEFAULT_DELIMITERS_OPT,
        code_aware: bool = DEFAULT_CODE_AWARE_OPT,
        max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
        terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
        answer: AnswerOption = DEFAULT_ANSWER_OPT,
        prompt: Optional[str] = None,
    ) -> None:
        given = think_options((tags, delimiters, start_in_reasoning, code_aware, max_tentative,
                               preset, terminators, answer, prompt), False)
        self._given = given is not None
        self._scanner: StreamScanner = DEFAULT_STREAM if given is None else stream_scanner(given)
        self._choice = choice if type(choice) is int and choice >= 0 else check_choice(choice)
        self._provider = None if provider is None else check_provider(provider)
        self.reset()

    def reset(self) -> None:
        """Start a new message on this normaliser, with the options it was made with: after a
        second response began in the stream (P17), or to decode another stream."""
        self._out = Collector(self._scanner)
        self._decoder: Optional[Decoder] = None
        self._ready: Optional[Decoder] = None
        self._closed = False
        self._held = EMPTY_DELTA  # what closing after an error released, for close()
        self._result: Optional[Extraction] = None
        self._family: Optional[Family] = None
        #: The family's model look-up while the stream's model is still to be found (P13).
        self._model: Optional[Callable[[Mapping[str, Any]], Optional[str]]] = None
        if self._provider is not None:
            self._start(REGISTRY[self._provider])

    def _start(self, family: Family) -> Decoder:
        if self._choice:
            check_family_choice(family, self._choice)
        self._family = family
        decoder = self._decoder = family.decoder(self._out, self._choice)
        if not self._given:
            self._model = family.model
        return decoder

    def feed(self, event: Union[Mapping[str, Any], object], /) -> Delta:
        """Decode one stream event.

        Args:
            event: a parsed event (mapping or SDK object).

        Returns:
            The :class:`~thinkparse.Delta` of visible and reasoning text this event released
            (empty for keep-alives and events without text).

        Raises:
            TypeError: ``event`` is not a mapping or SDK object.
            UnknownProviderError: the family is still undecided and no family recognises the
                event.
            ResponseShapeError: a field of the event is malformed; ``.path`` names it.  Also
                when the event begins a second response (P17): the message ends (see below).
            ProviderError: the event reports a provider error (P16): the message ends with
                ``finish_reason="error"``.
            ScannerClosedError: ``close()`` was already called, or the message ended.

        When the message ends with an error, the normaliser is closed: ``result`` and
        ``message`` hold what came before, and :meth:`reset` starts a new message.
        """
        decoder = self._ready
        if decoder is None or type(event) is not dict:
            decoder, ev = self._prepare(event)
            if decoder is None:
                return EMPTY_DELTA
        else:
            ev = event
        out = self._out
        try:
            decoder.event(ev)
        except ThinkParseError:
            if out.ended is not None:  # a provider error or a second response ends it
                self._end()
            raise
        finally:
            d = out.delta  # (what an event that failed released counts in the result)
            out.delta = EMPTY_DELTA
        return d

    def _prepare(self, event: object) -> tuple[Optional[Decoder], Mapping[str, Any]]:
        """``event`` as a mapping (P7) and the decoder that reads it (``None``: an event that
        decides nothing); decides the family and reads the model on the way (P8, P13).  Once
        both are done the decoder is :attr:`_ready` and a dict event goes straight to it."""
        if self._closed:
            raise ScannerClosedError(
                "StreamNormalizer.feed() called after close()" if self._out.ended is None else
                "StreamNormalizer.feed(): the message ended with an error; reset() starts anew")
        ev = event if type(event) is dict else as_mapping(event, "StreamNormalizer.feed()")
        decoder = self._decoder
        if decoder is None:
            try:
                family = event_family(ev)
            except UnknownProviderError:
                if ev.get("error") is None:
                    raise
                family = None  # an error object of an unknown family
            if family is None:
                if ev.get("type") == "error" or ev.get("error") is not None:
                    self._error_first(ev)
                return None, ev
            decoder = self._start(family)
        if self._model is not None:
            t = ev.get("type")
            if not (isinstance(t, str) and t in KEEP_ALIVE):
                # the stream's first event (keep-alives aside) names the model or not; its
                # preset is looked up when the first visible text needs a scanner (P13)
                self._out.model = self._model(ev)
                self._model = None
        if self._model is None:
            self._ready = decoder
        return decoder, ev

    def _error_first(self, ev: Mapping[str, Any]) -> None:
        """An error event before any event decided the family (P16): an empty message ends."""
        out = self._out
        try:
            out.error_event(ev, "error")
        except ThinkParseError:
            self._end()
            raise

    def _end(self) -> None:
        """The message ended with :attr:`Collector.ended`: close, keeping the delta."""
        d = self._out.delta
        self._out.delta = EMPTY_DELTA
        rest = self._finish()
        self._held = Delta(d[0] + rest[0], d[1] + rest[1])

    def close(self) -> Delta:
        """End of the stream: release what is still held (partial tags, tentative text).

        Returns:
            The final :class:`~thinkparse.Delta`; a second ``close()`` returns an empty one.
            After the message ended with an error (see :meth:`feed`), the first ``close()``
            returns what ending it released.
        """
        if self._closed:
            d = self._held
            self._held = EMPTY_DELTA
            return d
        return self._finish()

    def _finish(self) -> Delta:
        self._closed = True
        self._ready = None
        out = self._out
        decoder = self._decoder
        if decoder is not None:
            decoder.close()
        out.flush()
        d = out.delta
        out.delta = EMPTY_DELTA
        family = self._family
        self._result = out.result(
            family.name if family is not None else "unknown", self._choice,
            decoder.acc if decoder is not None else None, Turn,
        )
        return d

    @property
    def result(self) -> Extraction:
        """The :class:`~thinkparse.Extraction` of the whole stream.

        Raises:
            RuntimeError: ``close()`` has not been called yet.
        """
        if self._result is None:
            raise RuntimeError("StreamNormalizer.result is available after close()")
        return self._result

    @property
    def message(self) -> Message:
        """The assistant turn in the provider's request format (X2), after ``close()``.

        Raises:
            RuntimeError: ``close()`` has not been called yet.
            ValueError: no event decided the family.
            ResponseShapeError: a streamed tool input is not valid JSON (a truncated stream);
                ``result`` stays available.
        """
        result = self._result
        if result is None:
            raise RuntimeError("StreamNormalizer.message is available after close()")
        turn: Optional[Turn] = turn_of(result)
        if turn is None:
            raise ValueError("StreamNormalizer.message: no event decided the provider family")
        return turn.message()
