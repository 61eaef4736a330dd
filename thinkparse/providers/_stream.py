"""``StreamNormalizer``: stream events in; deltas, an Extraction and a message out (P9, X2).

Each event is a parsed stream event (a mapping or an SDK object, P7), never SSE text.  The
family comes from ``provider=`` or from the first event that decides it (P8: keep-alives such as
``ping`` and ``error`` decide nothing), and is kept for the whole message.  The family's decoder
(:mod:`._registry`) turns each event into parts for the one :class:`~._collector.Collector`, which
routes content through a :class:`~thinkparse.ThinkScanner` (built from the constructor's
options, or the model's preset, W4/P13) or a harmony scanner, separates reasoning segments (S3)
and keeps the last reported usage (P12); the decoder also feeds its accumulator
(:mod:`._accumulate`), which adds the events up into the response they stand for, from which
the blocks (X1) and the message (X2) are built on first use.  The usual event (one piece of
text) is read once and its delta comes straight from the collector (docs/behaviour.md#p9's
cost goal).

Decisions where docs/behaviour.md is silent:

* ``result.provider`` is ``"unknown"`` when no event decided the family (an empty stream), and
  ``message`` then raises ``ValueError``.
* An event that raises (``ResponseShapeError``) returns no delta; the normaliser stays usable.
  Text the event released before the malformed field was reached (rare: fields are read in
  order) still counts in ``result``, so the result stays consistent with later separators.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

from .._errors import ScannerClosedError
from .._spec import (
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
)
from .._types import EMPTY_DELTA as _EMPTY
from .._types import Delta, Extraction, turn_of
from ..scan._scanner import ThinkScanner
from ._access import as_mapping
from ._collector import Collector
from ._normalize import check_family_choice
from ._options import (
    check_choice,
    model_name,
    scanner_factory,
    starts_in_reasoning,
    think_options,
)
from ._registry import REGISTRY, Decoder, check_provider, event_family
from ._turn import Message, Turn

#: ``_given`` once the model's preset was looked for: no options (never changed).
_DECIDED: dict[str, Any] = {}


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

    __slots__ = (
        "_acc",
        "_choice",
        "_closed",
        "_decoder",
        "_family",
        "_given",
        "_out",
        "_result",
    )

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
    ) -> None:
        if (
            tags is DEFAULT_TAGS_OPT
            and delimiters is DEFAULT_DELIMITERS_OPT
            and start_in_reasoning is DEFAULT_START_OPT
            and code_aware is DEFAULT_CODE_AWARE_OPT
            and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
            and preset is None
        ):
            # The defaults (the usual call): nothing to check, the default scanner.
            self._given = None
            self._out = Collector(ThinkScanner, False)
        else:
            given = self._given = think_options(
                tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
                allow_auto=False,
            )
            out = self._out = Collector(scanner_factory(given), starts_in_reasoning(given))
            out.options = given
        self._choice = choice if type(choice) is int and choice >= 0 else check_choice(choice)
        self._decoder: Optional[Decoder] = None
        self._acc: Any = None
        self._closed = False
        self._result: Optional[Extraction] = None
        if provider is None:
            self._family: Optional[str] = None
        else:
            family = self._family = check_provider(provider)
            check_family_choice(family, self._choice)
            self._start(family)

    def _start(self, family: str) -> None:
        # The decoder feeds its accumulator (the usual events read once).
        decoder = self._decoder = REGISTRY[family].decoder(self._out, self._choice)
        self._acc = decoder.acc

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
            ResponseShapeError: a field of the event is malformed; ``.path`` names it.
            ScannerClosedError: ``close()`` was already called.
        """
        if self._closed:
            raise ScannerClosedError("StreamNormalizer.feed() called after close()")
        ev = event if type(event) is dict else as_mapping(event, "StreamNormalizer.feed()")
        decoder = self._decoder
        if decoder is None:
            family = event_family(ev)
            if family is None:
                return _EMPTY
            if self._choice:
                check_family_choice(family, self._choice)
            self._family = family
            self._start(family)
            decoder = self._decoder
            if decoder is None:  # pragma: no cover - set by _start
                return _EMPTY
        if self._given is None and ("model" in ev or "message" in ev or "response" in ev
                                    or "modelVersion" in ev):
            # the first event that may name the model decides; its preset is looked up when the
            # stream's first visible text needs a scanner (Collector.model)
            self._given = _DECIDED
            m = ev.get("model")  # the usual place, read without a call
            self._out.model = m if type(m) is str and m else model_name(ev)
        try:
            d = decoder.event(ev)
        except BaseException:
            self._out.take()  # what the event released before it failed still counts
            raise
        if d is None:
            d = self._out.take()
        return d

    def close(self) -> Delta:
        """End of the stream: release what is still held (partial tags, tentative text).

        Returns:
            The final :class:`~thinkparse.Delta`; a second ``close()`` returns an empty one.
        """
        if self._closed:
            return _EMPTY
        self._closed = True
        out = self._out
        if self._decoder is not None:
            self._decoder.close()
        out.flush()
        d = out.take()
        family = self._family or "unknown"
        acc = self._acc
        if acc is not None:
            self._result = out.result(family, None, self._choice, acc, Turn)
        else:
            self._result = out.result(family)
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
