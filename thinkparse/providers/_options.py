"""Think options for inline markup (W4, P13) and the ``choice`` argument, in one place.

Every entry point that takes scanner options (``normalize``, ``StreamNormalizer``) hands their
values, in the order of :data:`THINK_OPTIONS`, to :func:`think_options`, which keeps the ones the
caller gave and checks them; adding an option is one line in that table (and the parameter in
the signatures).  Precedence (docs/behaviour.md#w4): options the caller gave win; else, when the
payload (or a stream's first event naming one) names its model, ``preset_for_model(model)``
(P13) gives the preset; else the defaults.

Decisions where docs/behaviour.md is silent:

* One-shot (``normalize``): ``start_in_reasoning`` defaults to ``"auto"`` (T10) whether or not a
  preset applies, so a model preset whose ``start_in_reasoning`` is ``True`` acts as ``"auto"``
  there (a whole text shows whether the template opened the block).
* Streams: a model preset applies only while no content has gone through the inline scanner,
  i.e. when the event naming the model comes first (it always does on the real wire).
* Where each family names its model is the family's own knowledge (its ``model`` function);
  Bedrock responses do not name it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .._models import preset_for_model
from .._spec import (
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    options_config,
)
from ..scan._scanner import ThinkScanner
from ..scan._think import text_splitter

#: ``(visible, reasoning)`` of a whole text (``split_think`` with options fixed in advance).
Splitter = Callable[[str], "tuple[str, Optional[str]]"]

#: The scanner options of ``normalize`` and ``StreamNormalizer``, in the order their values are
#: handed to :func:`think_options`, each with the default that means "not given".
THINK_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("tags", DEFAULT_TAGS_OPT),
    ("delimiters", DEFAULT_DELIMITERS_OPT),
    ("start_in_reasoning", DEFAULT_START_OPT),
    ("code_aware", DEFAULT_CODE_AWARE_OPT),
    ("max_tentative", DEFAULT_MAX_TENTATIVE_OPT),
    ("preset", None),
)
_TAGS, _DELIMITERS, _START, _CODE_AWARE, _MAX_TENTATIVE, _ = (d for _, d in THINK_OPTIONS)


def think_options(values: tuple[Any, ...], allow_auto: bool) -> Optional[dict[str, Any]]:
    """The options the caller gave (``values`` in :data:`THINK_OPTIONS` order), checked;
    ``None`` when every option is its default.

    Raises:
        TypeError, ValueError: an invalid option (named in the message).
    """
    tags, delimiters, start, code_aware, max_tentative, preset = values
    if (tags is _TAGS and delimiters is _DELIMITERS and start is _START
            and code_aware is _CODE_AWARE and max_tentative is _MAX_TENTATIVE and preset is None):
        return None  # the usual call: one identity test per option of THINK_OPTIONS
    given = {name: v for (name, default), v in zip(THINK_OPTIONS, values) if v is not default}
    options_config(given, allow_auto=allow_auto)
    return given


def check_choice(choice: object) -> int:
    """Validate ``choice=`` (W4).

    Raises:
        TypeError: not an ``int`` (``bool`` refused).
        ValueError: negative.
    """
    if isinstance(choice, bool) or not isinstance(choice, int):
        raise TypeError(f"choice must be an int, not {type(choice).__name__}")
    if choice < 0:
        raise ValueError(f"choice must be >= 0, got {choice}")
    return int(choice)


# --- one-shot: the inline split of a whole text ------------------------------------------------
#: The one-shot options and splitter by model name, and by preset (the table is fixed).
_SPLITTERS: dict[Optional[str], tuple[Optional[dict[str, Any]], Splitter]] = {}
_PRESET_SPLITS: dict[Optional[str], tuple[Optional[dict[str, Any]], Splitter]] = {}


def one_shot(given: Optional[dict[str, Any]]) -> tuple[Optional[dict[str, Any]], Splitter]:
    """The ``split_think`` options of a whole response (``"auto"`` unless given, T10) and the
    splitter they make; ``(None, the defaults' splitter)`` for no options."""
    if given is None:
        return model_split(None)
    think = given if "start_in_reasoning" in given else {**given, "start_in_reasoning": "auto"}
    return think, text_splitter(think)


def model_split(model: Optional[str]) -> tuple[Optional[dict[str, Any]], Splitter]:
    """The one-shot options and splitter of the preset of the model a response names (P13,
    ``"auto"``), or of the defaults when it names none or one without a preset: made once per
    preset, remembered per model name."""
    made = _SPLITTERS.get(model)
    if made is None:
        preset = preset_for(model)
        made = _PRESET_SPLITS.get(preset)
        if made is None:
            think = None if preset is None else {"preset": preset, "start_in_reasoning": "auto"}
            made = _PRESET_SPLITS[preset] = (
                think, text_splitter(think or {"start_in_reasoning": "auto"})
            )
        if len(_SPLITTERS) >= 256:
            _SPLITTERS.clear()
        _SPLITTERS[model] = made
    return made


# --- streams: the inline scanner ---------------------------------------------------------------
#: A stream's scanner: its factory, whether it starts in reasoning, its checked options.
StreamScanner = tuple[Callable[[], Any], bool, Optional[dict[str, Any]]]

DEFAULT_STREAM: StreamScanner = (ThinkScanner, False, None)
_PRESET_SCANNERS: dict[str, StreamScanner] = {}


def stream_scanner(given: Optional[dict[str, Any]]) -> StreamScanner:
    """The stream scanner of checked options (``None``: the defaults)."""
    if not given:
        return DEFAULT_STREAM
    options = dict(given)
    start = options_config(given, allow_auto=False).start_in_reasoning is True
    return (lambda: ThinkScanner(**options)), start, given


def model_scanner(model: Optional[str]) -> Optional[StreamScanner]:
    """The stream scanner of the preset ``model`` names (P13), made once per preset; ``None``
    when the model has no preset."""
    preset = preset_for(model)
    if preset is None:
        return None
    made = _PRESET_SCANNERS.get(preset)
    if made is None:
        made = _PRESET_SCANNERS[preset] = stream_scanner({"preset": preset})
    return made


# --- P13: model names to presets ---------------------------------------------------------------
_CACHE: dict[str, Optional[str]] = {}
_TABLE: Callable[[str], Optional[str]] = preset_for_model


def preset_for(model: Optional[str]) -> Optional[str]:
    """``preset_for_model(model)`` (P13), remembered per model name (at most 256 names)."""
    if model is None:
        return None
    try:
        return _CACHE[model]
    except KeyError:
        pass
    preset = _TABLE(model)
    if len(_CACHE) >= 256:
        _CACHE.clear()
    _CACHE[model] = preset
    return preset


def use_model_table(table: Optional[Callable[[str], Optional[str]]]) -> None:
    """Replace the model table (``None``: the library's own); clears the remembered answers."""
    global _TABLE
    _TABLE = table or preset_for_model
    _CACHE.clear()
    _SPLITTERS.clear()
