"""Result assembly for the collector: formats (P11), usage (P12), joining (P2), inline markup (P3).

* :func:`new_result` builds the
  :class:`~thinkparse.Extraction` (a fast path that fills the frozen dataclass directly while it
  provably gives the same object as the constructor; see docs/behaviour.md#p9 for the cost goal).
* :func:`join_segments` is P2's join; :func:`split_inline` is P3 for a whole text.

Decisions where docs/behaviour.md is silent:

* Inline markup (P3) is looked for in every family's visible text, not only in
  OpenAI-compatible ``content``: a family without dedicated reasoning may still carry a model's
  raw ``<think>`` or harmony output.  A payload whose only reasoning is redacted (P6) counts as
  having dedicated reasoning, so its text is returned as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Callable, Optional

from .._spec import (
    CHARS_PER_TOKEN,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_TAGS_OPT,
    SEPARATOR,
    resolve_options,
)
from .._types import Extraction, Usage, tokens_estimate
from ..scan._harmony import looks_like_harmony, split_harmony
from ..scan._scanner import ThinkScanner
from ..scan._think import split_think

#: P11 formats.
FIELD = "field"
BLOCKS = "blocks"
TAGS = "tags"
HARMONY = "harmony"
NONE = "none"

EMPTY_USAGE = Usage()

_new = object.__new__


#: Token figures of a usage object: (input, output, total, reasoning).
Figures = Sequence[Optional[int]]


def _fast_result(
    visible: str,
    reasoning: Optional[str],
    redacted: bool,
    signatures: tuple[str, ...],
    provider: str,
    fmt: str,
    figures: Optional[Figures],
    finish_reason: Optional[str],
    turn: Any,
) -> Extraction:
    # The frozen dataclasses' __init__ costs about a microsecond for the two objects; filling
    # their own (key-sharing) __dict__ gives an equal object at a third of the cost: the last
    # step of every normalize and every stream's close() (docs/behaviour.md#p9's cost goal).
    if figures is None:
        usage = EMPTY_USAGE
        r_tokens = None
    else:
        usage = _new(Usage)
        u = usage.__dict__
        u["input_tokens"] = figures[0]
        u["output_tokens"] = figures[1]
        u["reasoning_tokens"] = r_tokens = figures[3]
        u["total_tokens"] = figures[2]
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
    return e


def _plain_result(
    visible: str,
    reasoning: Optional[str],
    redacted: bool,
    signatures: tuple[str, ...],
    provider: str,
    fmt: str,
    figures: Optional[Figures],
    finish_reason: Optional[str],
    turn: Any,
) -> Extraction:
    if figures is None:
        usage = EMPTY_USAGE
        r_tokens = None
    else:
        r_tokens = figures[3]
        usage = Usage(figures[0], figures[1], r_tokens, figures[2])
    return Extraction(
        visible, reasoning, r_tokens, tokens_estimate(reasoning), redacted, signatures, provider,
        fmt, usage, finish_reason, turn,
    )


def _fast_path_works() -> bool:
    # Used only while it provably gives the same object as the constructors.
    try:
        args = ("v", "r", True, ("s",), "p", "f", (1, 2, 3, 4), "stop", None)
        fe, e = _fast_result(*args), _plain_result(*args)
        return fe == e and fe.usage == e.usage and repr(fe) == repr(e) and hash(fe) == hash(e)
    except Exception:
        return False


#: The :class:`~thinkparse.Extraction` of finished parts: ``(visible, reasoning, redacted,
#: signatures, provider, format, figures or None, finish reason, turn)``.
new_result: Callable[..., Extraction] = _fast_result if _fast_path_works() else _plain_result


def join_segments(segments: list[str]) -> Optional[str]:
    """P2: readable segments joined with ``"\\n\\n"``; ``None`` when none is readable."""
    if len(segments) == 1:
        s = segments[0]
        return s if s and not s.isspace() else None
    parts = [s for s in segments if s and not s.isspace()]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else SEPARATOR.join(parts)


def split_inline(
    text: str, think: Optional[dict[str, Any]] = None
) -> Optional[tuple[str, Optional[str], str]]:
    """P3: ``(visible, reasoning, format)`` when ``text`` carries inline markup, else ``None``.

    Harmony is looked for first (its tokens are unambiguous), then ``<think>`` tags split with
    ``start_in_reasoning="auto"`` unless ``think`` (checked :func:`~thinkparse.split_think`
    options, W4) says otherwise.  Both parts are stripped; unreadable reasoning is ``None``.
    """
    if think is None and "<" not in text and "assistantfinal" not in text:
        # The usual answer: no tag and no harmony token can start without a "<", and the
        # stripped harmony form needs "assistantfinal" (one-character search first).
        return None
    if looks_like_harmony(text):
        s = split_harmony(text)
        visible, reasoning = s.visible, s.reasoning
        fmt = HARMONY
    else:
        if think is not None and _default_like(think):
            think = None  # the defaults' split: no tag can start without a "<"
        if think is None and "<" not in text:
            return None
        if think is None:
            visible, reasoning = split_auto(text)
        else:
            s = split_think(text, **think)
            visible, reasoning = s.visible, s.reasoning
        if reasoning is None:
            return None
        fmt = TAGS
    reasoning = reasoning.strip() if reasoning is not None else None
    if not reasoning:
        return visible.strip(), None, NONE
    return visible.strip(), reasoning, fmt


_DEFAULT_LIKE: dict[str, bool] = {}


def _default_like(think: dict[str, Any]) -> bool:
    """Whether one-shot split options are a model preset (P13) with ``"auto"`` that resolves to
    the defaults' configuration (``qwen3``: the default ``think`` tag), so that
    :func:`split_auto` gives the same split.  Answers are remembered per preset name."""
    if len(think) != 2 or think.get("start_in_reasoning") != "auto":
        return False
    preset = think.get("preset")
    if type(preset) is not str:
        return False
    known = _DEFAULT_LIKE.get(preset)
    if known is None:
        d = DEFAULT_TAGS_OPT, DEFAULT_DELIMITERS_OPT
        e = DEFAULT_CODE_AWARE_OPT, DEFAULT_MAX_TENTATIVE_OPT
        known = resolve_options(*d, "auto", *e, preset, allow_auto=True) == resolve_options(
            *d, "auto", *e, None, allow_auto=True
        )
        if len(_DEFAULT_LIKE) < 256:
            _DEFAULT_LIKE[preset] = known
    return known


def split_auto(text: str) -> tuple[str, Optional[str]]:
    """``split_think(text, start_in_reasoning="auto")`` with every other option the default.

    The same steps as :func:`~thinkparse.split_think` (docs/behaviour.md#t10: the text is
    scanned in the default mode; if the first tag consumed was an orphan closer, the text
    before it is a block of its own and the rest is scanned again), on scanners built with no
    arguments: a scanner given options, even the defaults, checks them first, which costs more
    than the scan of a typical answer (docs/behaviour.md#p9's cost goal).
    """
    sc = ThinkScanner()
    v1, r1 = sc.feed(text)
    v2, r2 = sc.close()
    orphan_at = sc.orphan_at
    if orphan_at is None:
        return v1 + v2, (r1 + r2 if sc.had_block else None)
    first = text[:orphan_at].strip()
    sc = ThinkScanner()
    v1, r1 = sc.feed(text[orphan_at:])
    v2, r2 = sc.close()
    rest = r1 + r2 if sc.had_block else None
    return v1 + v2, SEPARATOR.join(p for p in (first, rest) if p)


#: Every part of a whole response, as a family's ``response()`` function returns them:
#: (visible, reasoning segments, format, redacted, signatures, figures, finish reason).
#: Each segment is its own (P2); the format is that of the readable dedicated reasoning.
Parts = tuple[
    str, Optional[list[str]], str, bool, Optional[list[str]], Optional[Figures], Any
]


def whole_extraction(
    parts: Parts,
    provider: str,
    response: Mapping[str, Any],
    choice: int,
    think: Optional[dict[str, Any]],
    make_turn: Callable[..., Any],
) -> Extraction:
    """The :class:`~thinkparse.Extraction` of a whole response's parts (the one-shot path).

    The same result as handing the parts one by one to a whole-response :class:`Collector`
    (visible text, each segment under its own key, redaction, signatures, usage, finish
    reason), built without one: one-shot ``normalize`` stays a few function calls
    (docs/behaviour.md#p9's cost goal).  ``make_turn`` builds the turn on first use (see
    :meth:`.Collector.result`).
    """
    visible, segments, fmt, redacted, sigs, figures, reason = parts
    reasoning: Optional[str] = None
    if segments:
        if len(segments) == 1:
            reasoning = segments[0]
            if not reasoning or reasoning.isspace():
                reasoning = None
        else:
            reasoning = join_segments(segments)
    inline = None
    if reasoning is None:
        fmt = NONE
        if visible and not redacted:
            split = split_inline(visible, think)
            if split is not None:
                source = visible
                visible, reasoning, fmt = split
                if reasoning is not None:
                    inline = (fmt, source, think)
    if visible and visible.isspace():
        visible = ""
    if reason is not None and type(reason) is not str:
        reason = finish_text(reason)
    return new_result(
        visible,
        reasoning,
        redacted,
        tuple(sigs) if sigs else (),
        provider,
        fmt,
        figures,
        reason or None,
        (make_turn, provider, response, choice, None, inline),
    )


def finish_text(reason: Any) -> Optional[str]:
    """A reported finish reason as text (enums by value); ``None`` for anything else (W4)."""
    if isinstance(reason, Enum):
        reason = reason.value
    if reason and isinstance(reason, str):
        return str(reason)
    return None
