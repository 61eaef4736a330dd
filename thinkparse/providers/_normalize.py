"""``normalize()``: one provider response in, an :class:`~thinkparse.Extraction` out (P1-P12, W4).

The family is taken from ``provider=`` or detected from the shape (P8, :mod:`._registry`); the
family's decoder reads the response into a whole-response :class:`~._collector.Collector` (one-shot
is a stream of one), which builds the result.

Decisions where docs/behaviour.md is silent:

* ``provider=`` must be one of the six family names; any other string raises
  :class:`~thinkparse.UnknownProviderError` (a ``ValueError``) listing them.
* A stream event given to ``normalize`` raises ``UnknownProviderError`` whose message says to
  use :class:`~thinkparse.StreamNormalizer`.
* ``choice`` other than 0 for a family without choices (Anthropic, Responses, Bedrock, Ollama)
  raises ``ValueError`` naming ``choice``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

from .._spec import (
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
)
from .._types import Extraction
from ._access import as_mapping
from ._assemble import whole_extraction
from ._options import (
    check_choice,
    one_shot,
    payload_preset,
    think_options,
)
from ._registry import READERS, check_provider, response_family
from ._turn import Turn

#: Families whose payloads hold several choices (W4).
CHOICE_FAMILIES = frozenset({"openai_chat", "gemini"})


def check_family_choice(family: str, choice: int) -> None:
    """``choice`` other than 0 needs a family with choices (W4).

    Raises:
        ValueError: naming ``choice``.
    """
    if choice and family not in CHOICE_FAMILIES:
        raise ValueError(f"choice={choice}: provider family {family!r} has no choices")


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
        start_in_reasoning: as in :func:`~thinkparse.split_think`; defaults to ``"auto"``.
        code_aware: as in :func:`~thinkparse.split_think`, for inline content.
        max_tentative: as in :func:`~thinkparse.split_think`, for inline content.

    Returns:
        :class:`~thinkparse.Extraction`: ``visible`` (P1), ``reasoning`` (P2-P4),
        ``reasoning_tokens`` (P5), ``tokens_est``, ``redacted`` (P6), ``signatures``,
        ``provider``, ``format`` (P11), ``usage`` (P12), ``finish_reason`` and ``blocks`` (X1).

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
    family = response_family(d) if provider is None else check_provider(provider)
    if choice or type(choice) is not int:
        choice = check_choice(choice)
        check_family_choice(family, choice)
    if (
        preset is None
        and tags is DEFAULT_TAGS_OPT
        and delimiters is DEFAULT_DELIMITERS_OPT
        and start_in_reasoning is DEFAULT_START_OPT
        and code_aware is DEFAULT_CODE_AWARE_OPT
        and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
    ):
        model_preset = payload_preset(d)
        think = None if model_preset is None else _preset_split(model_preset)
    else:
        given = think_options(
            tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
            allow_auto=True,
        )
        think = one_shot(given) if given is not None else None
    return whole_extraction(READERS[family](d, choice), family, d, choice, think, Turn)


_PRESET_SPLITS: dict[str, dict[str, Any]] = {}


def _preset_split(preset: str) -> dict[str, Any]:
    """The one-shot split options of a model's preset (P13, ``"auto"``), one dict per preset
    name (never changed once made), so a payload naming its model builds none."""
    think = _PRESET_SPLITS.get(preset)
    if think is None:
        think = {"preset": preset, "start_in_reasoning": "auto"}  # as one_shot() makes it
        if len(_PRESET_SPLITS) < 256:
            _PRESET_SPLITS[preset] = think
    return think


def decode_turn(response: object, choice: int = 0, provider: Optional[str] = None) -> Turn:
    """The :class:`~._turn.Turn` of a response, without building its Extraction (X2).

    Raises:
        TypeError, UnknownProviderError, ValueError: as :func:`normalize`.
    """
    d = response if type(response) is dict else as_mapping(response, "to_message()")
    family = response_family(d) if provider is None else check_provider(provider)
    choice = check_choice(choice)
    check_family_choice(family, choice)
    return Turn(family, d, choice, None)
