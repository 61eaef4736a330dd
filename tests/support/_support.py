"""Helpers shared by several test modules: fixture loading, result comparison, the CLI runner,
and a local recorded-SSE server for the end-to-end client tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "examples"
TIMEOUT = 10.0


def load_json(path: Path) -> dict[str, Any]:
    """A fixture or example file."""
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def case_id(path: Path) -> str:
    """``family/case`` for a fixture file under ``tests/data``."""
    return path.relative_to(DATA).with_suffix("").as_posix()


def expected_extraction(
    provider: str,
    visible: str,
    reasoning: Optional[str],
    fmt: str,
    *,
    usage: Any = None,
    redacted: bool = False,
    signatures: tuple[str, ...] = (),
) -> Any:
    """The ``Extraction`` a test expects: ``tokens_est`` and ``reasoning_tokens`` (P5) derived."""
    from thinkparse import Extraction, Usage

    usage = Usage() if usage is None else usage
    est = 0 if reasoning is None else -(-len(reasoning) // 4)
    return Extraction(
        visible, reasoning, usage.reasoning_tokens, est, redacted, signatures, provider, fmt, usage
    )


def extraction_as_dict(result: Any) -> dict[str, Any]:
    """Every public field of an ``Extraction`` in the fixtures' ``expected`` layout."""
    usage = result.usage
    return {
        "visible": result.visible,
        "reasoning": result.reasoning,
        "reasoning_tokens": result.reasoning_tokens,
        "tokens_est": result.tokens_est,
        "redacted": result.redacted,
        "signatures": list(result.signatures),
        "provider": result.provider,
        "format": result.format,
        "usage": {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "reasoning_tokens": usage.reasoning_tokens,
            "total_tokens": usage.total_tokens,
        },
    }


# --- the command line ---------------------------------------------------------------------------
#: The environment for ``python -m thinkparse``: this process's ``sys.path``, so the source tree
#: or an installed package is tested alike; no colour or traceback switches from outside.
CLI_ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "THINKPARSE_TRACEBACK")}
CLI_ENV["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)


def run_cli(
    *args: Any,
    stdin: bytes = b"",
    cwd: Any = None,
    env: Any = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes]:
    """Run the real program with ``args`` and ``stdin``; capture everything."""
    return subprocess.run(
        [sys.executable, "-m", "thinkparse", *map(str, args)],
        input=stdin,
        capture_output=True,
        env=CLI_ENV if env is None else env,
        cwd=cwd,
        timeout=timeout,
    )


def check_cli(
    proc: subprocess.CompletedProcess[bytes], out: str, err: str = "", rc: int = 0
) -> None:
    """Exact standard output, standard error and exit status."""
    assert (proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"), proc.returncode) == (
        out,
        err,
        rc,
    )


# --- a recorded-SSE server on 127.0.0.1 -------------------------------------------------------
class SSEServer:
    """Every POST gets ``body`` as ``text/event-stream``; request bodies are kept in ``requests``.

    Listens on a free port of 127.0.0.1 in a daemon thread; ``close()`` stops it.
    """

    def __init__(self) -> None:
        self.body = b""
        self.requests: list[tuple[str, dict[str, Any]]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                owner.requests.append((self.path, json.loads(self.rfile.read(length) or b"{}")))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(owner.body)))
                self.end_headers()
                self.wfile.write(owner.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        # (a short poll interval: shutdown() waits for the serving loop's next poll)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=TIMEOUT)


# --- optional dependencies ------------------------------------------------------------------
def require(module_name: str, flag: str) -> ModuleType:
    """Import an optional module for a test: skip when it is missing, fail when ``flag`` is 1.

    ``flag`` is the environment variable that makes the dependency mandatory (in CI), e.g.
    ``THINKPARSE_REQUIRE_BROWSER``.
    """
    import importlib

    import pytest

    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        reason = f"{module_name} is not installed ({exc})"
        if os.environ.get(flag) == "1":
            pytest.fail(f"{reason}, and {flag}=1 requires it")
        pytest.skip(f"{reason}; set {flag}=1 to make this a failure")
