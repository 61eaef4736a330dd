"""Options shared by the framework integrations (``thinkparse.langchain``, ``thinkparse.litellm``).

Framework-free: the adapters take the scanner's options (W4) once, check them at construction,
and fall back to the preset of the model a message names (P13).  See docs/behaviour.md#w5.
"""

from __future__ import annotations

from typing import Any, Optional

from thinkparse import ThinkScanner, preset_for_model

__all__ = ["NO_OPTIONS", "check_options", "model_of", "options_for"]

OPTIONS = ("tags", "delimiters", "start_in_reasoning", "code_aware", "max_tentative", "preset",
           "terminators", "answer", "prompt")
NO_OPTIONS: dict[str, Any] = {}


def check_options(owner: str, options: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The fixed options of an adapter, checked now (``None`` when none were given).

    Args:
        owner: the adapter's name, for messages.
        options: the keyword arguments given.

    Returns:
        A copy of the options, or ``None``.

    Raises:
        TypeError: an unknown option.
        ValueError: an invalid value (``start_in_reasoning="auto"`` included: a stream cannot
            look ahead, and plain and streamed results use the same options).
    """
    if not options:
        return None
    for name in options:
        if name not in OPTIONS:
            raise TypeError(f"{owner}() got an unexpected keyword argument {name!r}")
    ThinkScanner(**options)
    return dict(options)


def options_for(fixed: Optional[dict[str, Any]], model: Any) -> dict[str, Any]:
    """The given options, else the preset of ``model`` (P13), else none.

    Args:
        fixed: what :func:`check_options` returned.
        model: the model name a message or a chunk carries (anything else counts as none).

    Returns:
        Keyword arguments for ``ThinkScanner`` / ``split_think``.
    """
    if fixed is not None:
        return fixed
    preset = preset_for_model(model) if isinstance(model, str) else None
    return NO_OPTIONS if preset is None else {"preset": preset}


def model_of(metadata: Any) -> Any:
    """``metadata["model_name"]`` or ``metadata["model"]`` of a dict, else ``None``."""
    if not isinstance(metadata, dict):
        return None
    return metadata.get("model_name") or metadata.get("model")
