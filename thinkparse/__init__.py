"""thinkparse: separate a language model's reasoning from its answer.

Re-exports only; see the modules for the logic.

The core (scanners, ``split_think``, ``parse``, ``normalize``, ``StreamNormalizer``, the result
types) is imported with the package.  The systems built on it (budget, trace store and recorder,
masking, reasoning context, HTML, conversion, columns, SSE and SDK glue) are imported on first
use of one of their names, so ``import thinkparse`` -- and every command-line run -- does not
pay for ``sqlite3``, ``hashlib``, ``inspect`` and the rest when it does not need them.  Type
checkers, ``dir()`` and ``from thinkparse import *`` see every name as usual.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._errors import (
    ProviderError,
    ResponseShapeError,
    ScannerClosedError,
    ThinkParseError,
    UnknownProviderError,
)
from ._models import preset_for_model
from ._presets import PRESET_ALIASES, PRESET_NAMES, PresetName
from ._types import Delta, Extraction, Parsed, ReasoningBlock, Split, Usage
from .data._transcript import reasoning_from_trace, split_trace
from .providers import StreamNormalizer, normalize, to_message
from .scan._harmony import split_harmony
from .scan._reasoning_block import parse
from .scan._scanner import IMPLEMENTATION, ThinkScanner
from .scan._think import (
    aiter_think,
    iter_think,
    prompt_opens_reasoning,
    split_think,
    strip_think,
)

if TYPE_CHECKING:
    from .clients._sdk import AsyncDeltaStream, DeltaStream, astream_deltas, stream_deltas
    from .clients._sse import aiter_sse, iter_sse
    from .data._columns import split_think_many
    from .data._convert import convert_trace
    from .render._fragment import render_html, render_script
    from .render._page import PageStream, render_page
    from .replay._context import ReasoningContext
    from .replay._segment import Segment
    from .store._budget import BudgetEvent, BudgetTracker
    from .store._masking import DEFAULT_MASKER, Masked, mask_secrets
    from .store._recorder import TraceRecorder
    from .store._store import Trace, TraceStore, TraceStoreError

#: Public names imported on first use, and the module that defines each.
_LAZY = {
    "BudgetEvent": ".store._budget",
    "BudgetTracker": ".store._budget",
    "split_think_many": ".data._columns",
    "ReasoningContext": ".replay._context",
    "convert_trace": ".data._convert",
    "render_html": ".render._fragment",
    "render_script": ".render._fragment",
    "render_page": ".render._page",
    "PageStream": ".render._page",
    "DEFAULT_MASKER": ".store._masking",
    "Masked": ".store._masking",
    "mask_secrets": ".store._masking",
    "TraceRecorder": ".store._recorder",
    "Segment": ".replay._segment",
    "AsyncDeltaStream": ".clients._sdk",
    "DeltaStream": ".clients._sdk",
    "astream_deltas": ".clients._sdk",
    "stream_deltas": ".clients._sdk",
    "aiter_sse": ".clients._sse",
    "iter_sse": ".clients._sse",
    "Trace": ".store._store",
    "TraceStore": ".store._store",
    "TraceStoreError": ".store._store",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'thinkparse' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "DEFAULT_MASKER",
    "IMPLEMENTATION",
    "PRESET_ALIASES",
    "PRESET_NAMES",
    "AsyncDeltaStream",
    "BudgetEvent",
    "BudgetTracker",
    "Delta",
    "DeltaStream",
    "Extraction",
    "Masked",
    "PageStream",
    "Parsed",
    "PresetName",
    "ProviderError",
    "ReasoningBlock",
    "ReasoningContext",
    "ResponseShapeError",
    "ScannerClosedError",
    "Segment",
    "Split",
    "StreamNormalizer",
    "ThinkParseError",
    "ThinkScanner",
    "Trace",
    "TraceRecorder",
    "TraceStore",
    "TraceStoreError",
    "UnknownProviderError",
    "Usage",
    "__version__",
    "aiter_sse",
    "aiter_think",
    "astream_deltas",
    "convert_trace",
    "iter_sse",
    "iter_think",
    "mask_secrets",
    "normalize",
    "parse",
    "preset_for_model",
    "prompt_opens_reasoning",
    "reasoning_from_trace",
    "render_html",
    "render_page",
    "render_script",
    "split_harmony",
    "split_think",
    "split_think_many",
    "split_trace",
    "stream_deltas",
    "strip_think",
    "to_message",
]
