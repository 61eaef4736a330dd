"""The fuzz cases driven by hypothesis: a short run by default, a long one on request.

    python -m pytest fuzz -q                                  # short (CI)
    THINKPARSE_FUZZ_PROFILE=long python -m pytest fuzz -q     # long (see fuzz/README.md)
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _cases

settings.register_profile(
    "short", max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.register_profile(
    "long", max_examples=2_000_000, deadline=None, suppress_health_check=list(HealthCheck)
)
PROFILE = os.environ.get("THINKPARSE_FUZZ_PROFILE", "short")


@settings.get_profile(PROFILE)
@given(st.binary(min_size=1, max_size=2048))
def test_scanner_differential(data: bytes) -> None:
    # S5, S1: compiled == pure-Python call by call; streamed == one-shot
    _cases.scanner_case(data)


@settings.get_profile(PROFILE)
@given(st.binary(min_size=1, max_size=2048))
def test_normalize_only_documented_errors(data: bytes) -> None:
    # P8: only the documented errors escape normalize / StreamNormalizer
    _cases.normalize_case(data)
