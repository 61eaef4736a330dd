"""Shared fixtures: every scanner test runs against both implementations (S5, build rules).

``scanner_cls`` is parametrised over the pure-Python and the compiled scanner.  When the compiled
module is missing it is skipped with a visible reason, unless ``THINKPARSE_REQUIRE_EXTENSIONS=1``
asked for it, in which case its absence is an error.  ``--no-compiled`` skips it on purpose.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

import pytest

import thinkparse._scanner_py as scanner_py
from thinkparse._env import REQUIRE_EXTENSIONS, flag

REQUIRE_COMPILED = flag(REQUIRE_EXTENSIONS)

# The helpers every folder shares (servers, fixtures, rule tables) live in tests/support/.
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

# LiteLLM fetches its model cost map over the network at import unless told not to; the suite
# runs offline (the integration tests and the API page import it).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _compiled() -> Optional[ModuleType]:
    try:
        return importlib.import_module("thinkparse._scanner_c")
    except ImportError:
        return None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-compiled",
        action="store_true",
        default=False,
        help="skip the compiled scanner's runs of the scanner suite",
    )


IMPLEMENTATIONS = [
    pytest.param("python", id="py"),
    pytest.param("cython", id="c", marks=pytest.mark.compiled),
]


@pytest.fixture(scope="session", params=IMPLEMENTATIONS)
def scanner_cls(request: pytest.FixtureRequest) -> Any:
    """The ``ThinkScanner`` class of one implementation."""
    if request.param == "python":
        return scanner_py.ThinkScanner
    if request.config.getoption("--no-compiled"):
        pytest.skip("compiled scanner skipped by --no-compiled")
    module = _compiled()
    if module is None:
        if REQUIRE_COMPILED:
            pytest.fail("THINKPARSE_REQUIRE_EXTENSIONS=1 but thinkparse._scanner_c is not built")
        pytest.skip("compiled scanner not built (set THINKPARSE_REQUIRE_EXTENSIONS=1 to require)")
    return module.ThinkScanner


@pytest.fixture(scope="session")
def compiled_cls() -> Any:
    """The compiled ``ThinkScanner`` (for cross-implementation tests); skipped/failed as above."""
    module = _compiled()
    if module is None:
        if REQUIRE_COMPILED:
            pytest.fail("THINKPARSE_REQUIRE_EXTENSIONS=1 but thinkparse._scanner_c is not built")
        pytest.skip("compiled scanner not built")
    return module.ThinkScanner


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A recorded-SSE server on 127.0.0.1 (``_support.SSEServer``), proxies switched off."""
    from _support import SSEServer

    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    srv = SSEServer()
    try:
        yield srv
    finally:
        srv.close()
