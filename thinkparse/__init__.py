"""thinkparse: separate a language model's reasoning from its answer.

Re-exports only; see the modules for the logic.
"""

from ._columns import split_think_many
from ._convert import convert_trace
from ._errors import (
    ResponseShapeError,
    ScannerClosedError,
    ThinkParseError,
    UnknownProviderError,
)
from ._reasoning_block import parse
from ._scanner import IMPLEMENTATION, ThinkScanner
from ._think import aiter_think, iter_think, split_think, strip_think
from ._types import Delta, Extraction, Parsed, Split, Usage
from .providers import (
    StreamNormalizer,
    normalize,
    reasoning_from_trace,
    split_harmony,
    split_trace,
)

__version__ = "0.1.0"

__all__ = [
    "IMPLEMENTATION",
    "Delta",
    "Extraction",
    "Parsed",
    "ResponseShapeError",
    "ScannerClosedError",
    "Split",
    "StreamNormalizer",
    "ThinkParseError",
    "ThinkScanner",
    "UnknownProviderError",
    "Usage",
    "__version__",
    "aiter_think",
    "convert_trace",
    "iter_think",
    "normalize",
    "parse",
    "reasoning_from_trace",
    "split_harmony",
    "split_think",
    "split_think_many",
    "split_trace",
    "strip_think",
]
