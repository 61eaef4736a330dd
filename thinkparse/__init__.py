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
    ResponseShapeError,
    ScannerClosedError,
    ThinkParseError,
    UnknownProviderError,
)
from ._models import preset_for_model
from ._presets import PRESET_NAMES, PresetName
from ._reasoning_block import parse
from ._scanner import IMPLEMENTATION, ThinkScanner
from ._think import aiter_think, iter_think, split_think, strip_think
from ._types import Delta, Extraction, Parsed, ReasoningBlock, Split, Usage
from .providers import (
    StreamNormalizer,
    normalize,
    reasoning_from_trace,
    split_harmony,
    split_trace,
    to_message,
)

if TYPE_CHECKING:
    from ._budget import BudgetEvent, BudgetTracker
    from ._columns import split_think_many
    from ._context import ReasoningContext
    from ._convert import convert_trace
    from ._html import render_html, render_script
    from ._html_page import render_page
    from ._masking import DEFAULT_MASKER, Masked, mask_secrets
    from ._recorder import TraceRecorder
    from ._sdk import AsyncDeltaStream, DeltaStream, astream_deltas, stream_deltas
    from ._segment import Segment
    from ._sse import aiter_sse, iter_sse
    from ._store import Trace, TraceStore, TraceStoreError

#: Public names imported on first use, and the module that defines each.
_LAZY = {
    "BudgetEvent": "._budget",
    "BudgetTracker": "._budget",
    "split_think_many": "._columns",
    "ReasoningContext": "._context",
    "convert_trace": "._convert",
    "render_html": "._html",
    "render_script": "._html",
    "render_page": "._html_page",
    "DEFAULT_MASKER": "._masking",
    "Masked": "._masking",
    "mask_secrets": "._masking",
    "TraceRecorder": "._recorder",
    "Segment": "._segment",
    "AsyncDeltaStream": "._sdk",
    "DeltaStream": "._sdk",
    "astream_deltas": "._sdk",
    "stream_deltas": "._sdk",
    "aiter_sse": "._sse",
    "iter_sse": "._sse",
    "Trace": "._store",
    "TraceStore": "._store",
    "TraceStoreError": "._store",
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
    "PRESET_NAMES",
    "AsyncDeltaStream",
    "BudgetEvent",
    "BudgetTracker",
    "Delta",
    "DeltaStream",
    "Extraction",
    "Masked",
    "Parsed",
    "PresetName",
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
