"""``normalize()``: one provider response in, an :class:`~thinkparse.Extraction` out (P1-P12, W4).

The family is taken from ``provider=`` or detected from the shape (P8, :mod:`._registry`).  The
family's ``read`` gives the response's :class:`~._assemble.Parts`; the dedicated reasoning
segments are joined (P2); without dedicated (readable or redacted) reasoning the answer is
split for inline markup (P3, :func:`._inline.split_inline`); the rest is the assembly a stream's
collector ends with too (:func:`._assemble.assemble`).  The turn (X1, X2) is built on first use.

Decisions where docs/behaviour.md is silent:

* ``provider=`` must be one of the family names; any other string raises
  :class:`~thinkparse.UnknownProviderError` (a ``ValueError``) listing them.
* A stream event given to ``normalize`` raises ``UnknownProviderError`` whose message says to
  use :class:`~thinkparse.StreamNormalizer`.
* ``choice`` other than 0 for a family without choices raises ``ValueError`` naming ``choice``.
* ``unclosed="auto"`` (F7) takes a block the template opened and the text never closed as the
  answer when the finish reason says the model stopped by itself (:data:`STOPPED`: ``stop``,
  ``end_turn``, ``STOP``, ``eos``, Cohere's ``COMPLETE``, a Responses or Interactions status
  ``completed``), and as reasoning otherwise: a cut (``length``, ``max_tokens``,
  ``MAX_TOKENS``, ``incomplete``...), a stop sequence, or no finish reason at all (Part I's
  rule is the safe side: reasoning is never shown as an answer on a guess).
* ``Extraction.reasoning_closed`` (F7) is the inline split's answer for inline markup, ``True``
  for reasoning the provider separated (a field, blocks), ``None`` when there is none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

from .._spec import (
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    SEPARATOR,
    AnswerOption,
    TerminatorsOption,
    UnclosedOption,
    check_unclosed,
)
from .._types import Extraction
from ._access import as_mapping
from ._assemble import assemble, finish_text
from ._inline import split_inline
from ._options import check_choice, model_split, one_shot, think_options
from ._registry import REGISTRY, check_provider, response_family
from ._turn import Turn, check_family_choice


def normalize(
    response: Union[Mapping[str, Any], object],
    /,
    *,
    provider: Optional[str] = None,
    choice: int = 0,
    preset: Optional[str] = None,
    tags: Union[str, Iterable[str], None] = DEFAULT_TAGS_OPT,
    delimiters: Iterable[tuple[str, str]] = DEFAULT_DELIMITERS_OPT,
    start_in_reasoning: Union[bool, str] = DEFAULT_START_OPT,
    code_aware: bool = DEFAULT_CODE_AWARE_OPT,
    max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
    terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
    answer: AnswerOption = DEFAULT_ANSWER_OPT,
    prompt: Optional[str] = None,
    unclosed: UnclosedOption = "reasoning",
) -> Extraction:
    """Reduce one provider response to its visible answer, reasoning and token counts.

    Args:
        response: the parsed JSON response (a ``Mapping``), or an SDK object with
            ``model_dump()`` (pydantic models) or ``to_dict()`` (P7).
        provider: the family (one of :data:`thinkparse.providers.FAMILIES`); ``None`` detects it
            from the shape (P8).
        choice: which choice to read when the payload holds several (Chat ``choices``, Gemini
            ``candidates``; W4).
        preset: a model family's scanner options for inline ``<think>`` content (P3, W4).
            When no scanner option is given and the payload names its model, the model's preset
            applies (P13).
        tags: as in :func:`~thinkparse.split_think`, for inline content.
        delimiters: as in :func:`~thinkparse.split_think`, for inline content.
        start_in_reasoning: as in :func:`~thinkparse.split_think`; defaults to the preset's
            start mode (given or from the model name, P18), else ``"auto"``.
        code_aware: as in :func:`~thinkparse.split_think`, for inline content.
        max_tentative: as in :func:`~thinkparse.split_think`, for inline content.
        terminators: as in :func:`~thinkparse.split_think` (F2), for inline content.
        answer: as in :func:`~thinkparse.split_think` (F3), for inline content.
        prompt: as in :func:`~thinkparse.split_think` (F4): the rendered prompt decides the
            start mode of inline content.
        unclosed: what a block the template opened and the content never closed becomes:
            ``"reasoning"`` (T6), ``"answer"``, or ``"auto"``: the answer when the finish
            reason says the model stopped by itself, reasoning when it was cut (F7).

    Returns:
        :class:`~thinkparse.Extraction`: ``visible`` (P1), ``reasoning`` (P2-P4),
        ``reasoning_tokens`` (P5), ``tokens_est``, ``redacted`` (P6), ``signatures``,
        ``provider``, ``format`` (P11), ``usage`` (P12), ``finish_reason``, ``blocks`` (X1),
        ``reasoning_closed`` (F7) and ``preset`` (F8).

    Raises:
        TypeError: ``response`` is not a mapping and has no ``model_dump()`` / ``to_dict()``,
            or ``provider`` / ``choice`` / an option has the wrong type.
        ValueError: ``choice`` or an option has an invalid value.
        UnknownProviderError: no family recognises the shape (the message names the keys
            seen), or ``provider`` is not a family name.
        ResponseShapeError: a field of the recognised family is malformed; ``.path`` names it.

    Examples:
        >>> normalize({"choices": [{"message": {"content": "4", "reasoning_content": "2+2"}}]})
        ... # doctest: +ELLIPSIS
        Extraction(visible='4', reasoning='2+2', reasoning_tokens=None, tokens_est=1, ...)
    """
    d = response if type(response) is dict else as_mapping(response, "normalize()")
    family = response_family(d) if provider is None else REGISTRY[check_provider(provider)]
    if choice or type(choice) is not int:
        choice = check_choice(choice)
        check_family_choice(family, choice)
    if (preset is None and prompt is None and tags is DEFAULT_TAGS_OPT  # the usual call
            and delimiters is DEFAULT_DELIMITERS_OPT and start_in_reasoning is DEFAULT_START_OPT
            and code_aware is DEFAULT_CODE_AWARE_OPT and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
            and terminators is DEFAULT_TERMINATORS_OPT and answer is DEFAULT_ANSWER_OPT):
        given = None
    else:
        given = think_options((tags, delimiters, start_in_reasoning, code_aware, max_tentative,
                               preset, terminators, answer, prompt), True)
    if unclosed != "reasoning":
        check_unclosed(unclosed, allow_auto=True)
    visible, segments, fmt, redacted, signatures, figures, reason = family.read(d, choice)
    reasoning = None
    closed = None
    if segments:  # P2: the readable segments joined with a blank line
        reasoning = segments[0] if len(segments) == 1 else SEPARATOR.join(
            [s for s in segments if s and not s.isspace()])
        closed = True
    inline = None
    used = None
    if visible and not redacted and (not reasoning or reasoning.isspace()):
        # P3: inline markup, split with the caller's options, else the model's preset (P13)
        if given is None:
            think, split, used = model_split(family.model(d))
        else:
            think, split, used = one_shot(given)
        if unclosed == "auto":
            unclosed = "answer" if finish_text(reason) in STOPPED else "reasoning"
        found = split_inline(visible, think, split, unclosed)
        if found is not None:
            source = visible
            visible, reasoning, fmt, closed = found
            if reasoning is not None:
                inline = (fmt, source, think)
    name = family.name
    return assemble(visible, reasoning, fmt, redacted, signatures, figures, reason, name,
                    (Turn, name, d, choice, None, inline), closed, used)


#: Finish reasons that say the model stopped by itself (``unclosed="auto"``, F7).
STOPPED = frozenset({"stop", "end_turn", "STOP", "eos", "COMPLETE", "completed"})
