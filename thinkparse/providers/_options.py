"""Think options for inline markup (W4, P13) and the ``choice`` argument, in one place.

Every entry point that takes scanner options (``normalize``, ``StreamNormalizer``) hands their
values, in the order of :data:`THINK_OPTIONS`, to :func:`think_options`, which keeps the ones the
caller gave and checks them; adding an option is one line in that table (and the parameter in
the signatures).  Precedence (docs/behaviour.md#w4): options the caller gave win; else, when the
payload (or a stream's first event naming one) names its model, ``preset_for_model(model)``
(P13) gives the preset; else the defaults.

Decisions where docs/behaviour.md is silent:

* One-shot (``normalize``): a preset whose template opens the block (given, or chosen by the
  model name) starts in reasoning, exactly as in a stream (P18); ``prompt`` decides the start
  when given (F4); otherwise ``start_in_reasoning`` defaults to ``"auto"`` (T10), which reads
  a whole text as the stream's ``False`` does except for a leading ``reasoning</think>``.
* A response that names no preset reports ``Extraction.preset`` ``None``; one whose text went
  through the inline splitter reports the preset that filled the options (aliases resolved,
  F8), given or chosen by the model name.
* Streams: a model preset applies only while no content has gone through the inline scanner,
  i.e. when the event naming the model comes first (it always does on the real wire).
* Where each family names its model is the family's own knowledge (its ``model`` function);
  Bedrock responses do not name it.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from .._config import options_config, preset_options
from .._models import preset_for_model
from .._presets import PRESET_ALIASES
from .._spec import OPTION_DEFAULTS
from ..scan._scanner import ThinkScanner
from ..scan._think import closed_splitter

#: ``(visible, reasoning, closed)`` of a whole text and an ``unclosed`` value (``split_think``
#: with options fixed in advance, F7).
Splitter = Callable[[str, str], "tuple[str, Optional[str], Optional[bool]]"]
#: A one-shot split: the checked options (``None``: the defaults), the splitter they make and
#: the preset that filled them (F8).
OneShot = tuple[Optional[dict[str, Any]], Splitter, Optional[str]]

#: The scanner options of ``normalize`` and ``StreamNormalizer``, in the order their values are
#: handed to :func:`think_options`, each with the default that means "not given".
THINK_OPTIONS = OPTION_DEFAULTS
(_TAGS, _DELIMITERS, _START, _CODE_AWARE, _MAX_TENTATIVE, _, _TERMINATORS, _ANSWER,
 _) = (d for _, d in THINK_OPTIONS)


def think_options(values: tuple[Any, ...], allow_auto: bool) -> Optional[dict[str, Any]]:
    """The options the caller gave (``values`` in :data:`THINK_OPTIONS` order), checked;
    ``None`` when every option is its default.

    Raises:
        TypeError, ValueError: an invalid option (named in the message).
    """
    tags, delimiters, start, code_aware, max_tentative, preset, terminators, answer, prompt = (
        values)
    if (tags is _TAGS and delimiters is _DELIMITERS and start is _START
            and code_aware is _CODE_AWARE and max_tentative is _MAX_TENTATIVE and preset is None
            and terminators is _TERMINATORS and answer is _ANSWER and prompt is None):
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
#: The one-shot split by model name, and by preset (the table is fixed).
_SPLITTERS: dict[Optional[str], OneShot] = {}
_PRESET_SPLITS: dict[Optional[str], OneShot] = {}
_AUTO = {"start_in_reasoning": "auto"}


def one_shot(given: Optional[dict[str, Any]]) -> OneShot:
    """The one-shot split of a whole response's options (the module docstring's rules:
    ``"auto"`` unless the start mode is given or a preset or ``prompt`` decides it, T10, P18);
    the defaults' for no options."""
    if given is None:
        return model_split(None)
    think = given
    preset = given.get("preset")
    if not ("start_in_reasoning" in given or "prompt" in given or _opens(preset)):
        think = {**given, **_AUTO}
    return think, closed_splitter(think), preset and PRESET_ALIASES.get(preset, preset)


def _opens(preset: Any) -> bool:
    """Whether the preset (or alias) ``preset`` starts in reasoning: its template opens the
    block (P18)."""
    return preset is not None and preset_options(preset).get("start_in_reasoning") is True


def model_split(model: Optional[str]) -> OneShot:
    """The one-shot split of the preset of the model a response names (P13), with the preset's
    own start mode (P18), or of the defaults (``"auto"``) when it names none or one without a
    preset: made once per preset, remembered per model name."""
    made = _SPLITTERS.get(model)
    if made is None:
        preset = preset_for(model)
        made = _PRESET_SPLITS.get(preset)
        if made is None:
            think = None if preset is None else (
                {"preset": preset} if _opens(preset) else {"preset": preset, **_AUTO})
            made = _PRESET_SPLITS[preset] = (think, closed_splitter(think or _AUTO), preset)
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
