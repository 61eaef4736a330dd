"""Think options for inline markup (W4, P13): explicit options, the model's preset, defaults.

Precedence (see docs/behaviour.md#w4): options the caller gave win; else, when the payload (or a
stream's first event naming one) names its model, ``preset_for_model(model)`` (P13) gives the
preset; else the defaults.

Decisions where docs/behaviour.md is silent:

* One-shot (``normalize``): ``start_in_reasoning`` defaults to ``"auto"`` (T10) whether or not a
  preset applies, so a model preset whose ``start_in_reasoning`` is ``True`` acts as ``"auto"``
  there (a whole text shows whether the template opened the block).
* Streams: a model preset applies only while no content has gone through the inline scanner,
  i.e. when the event naming the model comes first (it always does on the real wire).
* The model name is read from ``model`` (Chat, Responses, Anthropic ``message_start.message``,
  Ollama), ``modelVersion`` / ``model_version`` (Gemini); Bedrock responses do not name it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Callable, Optional

from .._spec import (
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    options_config,
    resolve_options,
)
from ..scan._scanner import ThinkScanner


def check_choice(choice: object) -> int:
    """Validate ``choice=`` (W4).

    Raises:
        TypeError: not an ``int`` (``bool`` refused).
        ValueError: negative.
    """
    if type(choice) is int:
        if choice >= 0:
            return choice
        raise ValueError(f"choice must be >= 0, got {choice}")
    if isinstance(choice, bool) or not isinstance(choice, int):
        raise TypeError(f"choice must be an int, not {type(choice).__name__}")
    if choice < 0:
        raise ValueError(f"choice must be >= 0, got {choice}")
    return int(choice)


def think_options(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Optional[str],
    *,
    allow_auto: bool,
) -> Optional[dict[str, Any]]:
    """The options the caller gave, checked; ``None`` when every option is the default.

    Raises:
        TypeError, ValueError: an invalid option (named in the message).
    """
    given: dict[str, Any] = {}
    if tags is not DEFAULT_TAGS_OPT:
        given["tags"] = tags
    if delimiters is not DEFAULT_DELIMITERS_OPT:
        given["delimiters"] = delimiters
    if start_in_reasoning is not DEFAULT_START_OPT:
        given["start_in_reasoning"] = start_in_reasoning
    if code_aware is not DEFAULT_CODE_AWARE_OPT:
        given["code_aware"] = code_aware
    if max_tentative is not DEFAULT_MAX_TENTATIVE_OPT:
        given["max_tentative"] = max_tentative
    if preset is not None:
        given["preset"] = preset
    if not given:
        return None
    resolve_options(
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
        allow_auto=allow_auto,
    )
    return given


def one_shot(given: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """``split_think`` options for a whole response: ``"auto"`` unless given (T10)."""
    if given is None or "start_in_reasoning" in given:
        return given
    return {**given, "start_in_reasoning": "auto"}


def model_name(d: Mapping[str, Any]) -> Optional[str]:
    """The model a payload names (``model``, Gemini ``modelVersion``), else ``None``."""
    m = d.get("model")
    if m is None:
        m = d.get("modelVersion") or d.get("model_version")
        if m is None:
            msg = d.get("message")
            if (type(msg) is dict or isinstance(msg, Mapping)) and d.get("type") == (
                "message_start"
            ):
                m = msg.get("model")
            else:
                resp = d.get("response")
                if resp is not None and isinstance(resp, Mapping):
                    m = resp.get("model")
    return m if isinstance(m, str) and m else None


def preset_for(model: Optional[str]) -> Optional[str]:
    """``preset_for_model(model)`` (P13) when the model table is available, else ``None``.

    Answers are remembered per model name (at most 256 names).
    """
    if model is None:
        return None
    try:
        return _CACHE[model]
    except KeyError:
        pass
    global _TABLE
    if _TABLE is None:
        _TABLE = _lookup()
    preset = _TABLE(model)
    if len(_CACHE) >= 256:
        _CACHE.clear()
    _CACHE[model] = preset
    return preset


_CACHE: dict[str, Optional[str]] = {}
_MISS = object()


def payload_preset(d: Mapping[str, Any]) -> Optional[str]:
    """The preset of the model a whole response names (P13), else ``None``.

    A payload that names no model costs three dict look-ups; a model seen before, one more.
    """
    m = d.get("model")
    if m is None:
        m = d.get("modelVersion")
        if m is None:
            m = d.get("model_version")
            if m is None:
                return None
    if type(m) is str:
        p = _CACHE.get(m, _MISS)
        if p is not _MISS:
            return p  # type: ignore[return-value]
    if not has_model_table():
        return None
    return preset_for(model_name(d))
_TABLE: Optional[Callable[[str], Optional[str]]] = None


def has_model_table() -> bool:
    """Whether a model table exists (so that a payload naming its model is worth a look-up)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _lookup()
    return _TABLE is not _no_table


def _no_table(model: str) -> Optional[str]:
    return None


def _lookup() -> Callable[[str], Optional[str]]:
    try:
        models = importlib.import_module("thinkparse._models")
    except ImportError:
        return _no_table
    fn: Callable[[str], Optional[str]] = getattr(models, "preset_for_model", _no_table)
    return fn


def use_model_table(table: Optional[Callable[[str], Optional[str]]]) -> None:
    """Replace the model table (``None``: look it up again); clears the remembered answers."""
    global _TABLE
    _TABLE = table
    _CACHE.clear()


def starts_in_reasoning(given: Optional[dict[str, Any]]) -> bool:
    """Whether checked stream options start content inside a reasoning block (T6)."""
    if not given:
        return False
    return options_config(given, allow_auto=False).start_in_reasoning is True


def scanner_factory(given: Optional[dict[str, Any]]) -> Callable[[], Any]:
    """A factory of the stream's :class:`~thinkparse.ThinkScanner`."""
    if not given:
        return ThinkScanner
    options = dict(given)
    return lambda: ThinkScanner(**options)


#: A preset's stream scanner: its factory, whether it starts in reasoning and its options (shared,
#: never changed), made once per preset (the table is fixed).
_PRESET_SCANNERS: dict[str, tuple[Callable[[], Any], bool, dict[str, Any]]] = {}


def model_scanner(model: Optional[str]) -> Optional[tuple[Callable[[], Any], bool, dict[str, Any]]]:
    """The stream scanner of the preset ``model`` names (P13): its factory, whether it starts
    in reasoning and its checked options; ``None`` when the model has no preset."""
    preset = preset_for(model)
    if preset is None:
        return None
    made = _PRESET_SCANNERS.get(preset)
    if made is None:
        given = {"preset": preset}
        made = _PRESET_SCANNERS[preset] = (
            scanner_factory(given), starts_in_reasoning(given), given
        )
    return made
