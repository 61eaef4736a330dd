"""The last step of both roads: parts into an :class:`~thinkparse.Extraction` (P1, P2, P11, P12).

A whole response is read by its family into one :class:`Parts` record; a stream's parts go to
the :class:`~._collector.Collector` event by event.  Both end here, in :func:`assemble`: the
reasoning that is not readable becomes ``None`` with format ``"none"`` (P2, P11), visible text
made only of whitespace becomes ``""`` (P1), the finish reason is read as text (W4), and the
result is built.

:func:`new_result` fills the frozen dataclasses in place, which costs a third of their
constructors; it is used only while it provably gives the same object as the constructors
(checked once, at import).
"""

from __future__ import annotations

from enum import Enum
from operator import itemgetter
from typing import Any, Callable, Optional

from .._spec import CHARS_PER_TOKEN
from .._types import Extraction, Usage, tokens_estimate
from ._access import Figures

#: P11 formats.
FIELD = "field"
BLOCKS = "blocks"
TAGS = "tags"
HARMONY = "harmony"
NONE = "none"


class Parts(tuple[Any, ...]):
    """Every part of a whole response, as its family's ``read`` finds them: ``Parts((visible,
    segments, format, redacted, signatures, figures, finish_reason))``.

    A named record built as a plain tuple (no Python-level ``__new__``, unlike a NamedTuple):
    one is built per ``normalize``, whose whole cost is a few microseconds.
    """

    __slots__ = ()

    visible = property(itemgetter(0), doc="The answer's text segments, concatenated (P1), "
                       "before any inline split (P3).")
    segments = property(itemgetter(1), doc="Dedicated reasoning, each segment its own (P2); "
                        "``None`` or ``[]`` when there is none.")
    format = property(itemgetter(2), doc="The format of the dedicated reasoning (P11).")
    redacted = property(itemgetter(3), doc="Unreadable reasoning is present (P6).")
    signatures = property(itemgetter(4), doc="Reasoning signatures in order (``None``: none).")
    figures = property(itemgetter(5), doc="The usage :class:`~._access.Figures` (``None``: no "
                       "usage reported).")
    finish_reason = property(itemgetter(6), doc="The finish reason as reported.")


def finish_text(reason: Any) -> Optional[str]:
    """A reported finish reason as text (enums by value); ``None`` for anything else (W4)."""
    if type(reason) is str:
        return reason or None
    if isinstance(reason, Enum):
        reason = reason.value
    if reason and isinstance(reason, str):
        return str(reason)
    return None


def assemble(visible: str, reasoning: Optional[str], fmt: str, redacted: bool,
             signatures: Optional[list[str]], figures: Optional[Figures], finish_reason: Any,
             provider: str, turn: Any, closed: Optional[bool] = None,
             preset: Optional[str] = None) -> Extraction:
    """The :class:`~thinkparse.Extraction` of finished parts (both roads; the rules in the
    module docstring): ``visible`` after any inline split, ``turn`` the decoded turn or what
    builds it on first use (``Extraction._turn``), ``closed`` whether the last block was
    closed and ``preset`` the preset inline markup was read with (F7, F8), the rest as
    reported."""
    if not reasoning or reasoning.isspace():
        reasoning = None
        fmt = NONE
        closed = None
    if visible and visible.isspace():
        visible = ""
    if finish_reason is not None and type(finish_reason) is not str:
        finish_reason = finish_text(finish_reason)
    return new_result(
        visible, reasoning, redacted, tuple(signatures) if signatures else (), provider, fmt,
        figures, finish_reason or None, turn, closed, preset,
    )


_EMPTY_USAGE = Usage()
_new = object.__new__


def _fast_result(visible: str, reasoning: Optional[str], redacted: bool,
                 signatures: tuple[str, ...], provider: str, fmt: str, figures: Optional[Figures],
                 finish_reason: Optional[str], turn: Any, closed: Optional[bool] = None,
                 preset: Optional[str] = None) -> Extraction:
    # The frozen dataclasses' __init__ costs about a microsecond for the two objects; filling
    # their own (key-sharing) __dict__ gives an equal object at a third of the cost: the last
    # step of every normalize and every stream's close() (docs/behaviour.md#performance).
    if figures is None:
        usage = _EMPTY_USAGE
        r_tokens = None
    else:
        i, o, t, r_tokens = figures
        usage = _new(Usage)
        u = usage.__dict__
        u["input_tokens"] = i
        u["output_tokens"] = o
        u["reasoning_tokens"] = r_tokens
        u["total_tokens"] = t
    e: Extraction = _new(Extraction)
    d = e.__dict__
    d["visible"] = visible
    d["reasoning"] = reasoning
    d["reasoning_tokens"] = r_tokens
    d["tokens_est"] = -(-len(reasoning) // CHARS_PER_TOKEN) if reasoning is not None else 0
    d["redacted"] = redacted
    d["signatures"] = signatures
    d["provider"] = provider
    d["format"] = fmt
    d["usage"] = usage
    d["finish_reason"] = finish_reason
    d["_turn"] = turn
    d["reasoning_closed"] = closed
    d["preset"] = preset
    return e


def _plain_result(visible: str, reasoning: Optional[str], redacted: bool,
                  signatures: tuple[str, ...], provider: str, fmt: str, figures: Optional[Figures],
                  finish_reason: Optional[str], turn: Any, closed: Optional[bool] = None,
                  preset: Optional[str] = None) -> Extraction:
    if figures is None:
        usage = _EMPTY_USAGE
    else:
        usage = Usage(figures.input, figures.output, figures.reasoning, figures.total)
    return Extraction(
        visible, reasoning, usage.reasoning_tokens, tokens_estimate(reasoning), redacted,
        signatures, provider, fmt, usage, finish_reason, turn, closed, preset,
    )


def _fast_result_works() -> bool:
    try:
        args = ("v", "r", True, ("s",), "p", "f", Figures((1, 2, 3, 4)), "stop", None, True, "x")
        fe, e = _fast_result(*args), _plain_result(*args)
        return (fe == e and fe.usage == e.usage and repr(fe) == repr(e) and hash(fe) == hash(e)
                and fe.__dict__ == e.__dict__)
    except Exception:
        return False


#: Builds the :class:`~thinkparse.Extraction`: ``(visible, reasoning, redacted, signatures,
#: provider, format, figures or None, finish reason, turn, closed, preset)``.
new_result: Callable[..., Extraction] = _fast_result if _fast_result_works() else _plain_result
