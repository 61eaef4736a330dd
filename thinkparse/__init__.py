"""thinkparse: separate a language model's reasoning from its answer.

Re-exports only; see the modules for the logic.
"""

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
from ._models import preset_for_model
from ._reasoning_block import parse
from ._scanner import IMPLEMENTATION, ThinkScanner
from ._sdk import AsyncDeltaStream, DeltaStream, astream_deltas, stream_deltas
from ._spec import PRESET_NAMES, PresetName
from ._sse import aiter_sse, iter_sse
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
    "IMPLEMENTATION",
    "PRESET_NAMES",
    "AsyncDeltaStream",
    "Delta",
    "DeltaStream",
    "Extraction",
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
    "UnknownProviderError",
    "Usage",
    "__version__",
    "aiter_sse",
    "aiter_think",
    "astream_deltas",
    "convert_trace",
    "iter_sse",
    "iter_think",
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
