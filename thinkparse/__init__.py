"""thinkparse: separate a language model's reasoning from its answer.

Re-exports only; see the modules for the logic.
"""

from ._budget import BudgetEvent, BudgetTracker
from ._columns import split_think_many
from ._context import ReasoningContext, Segment
from ._convert import convert_trace
from ._errors import (
    ResponseShapeError,
    ScannerClosedError,
    ThinkParseError,
    UnknownProviderError,
)
from ._html import render_html, render_script
from ._html_page import render_page
from ._masking import DEFAULT_MASKER, Masked, mask_secrets
from ._models import preset_for_model
from ._reasoning_block import parse
from ._recorder import TraceRecorder
from ._scanner import IMPLEMENTATION, ThinkScanner
from ._sdk import AsyncDeltaStream, DeltaStream, astream_deltas, stream_deltas
from ._spec import PRESET_NAMES, PresetName
from ._sse import aiter_sse, iter_sse
from ._store import Trace, TraceStore, TraceStoreError
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
